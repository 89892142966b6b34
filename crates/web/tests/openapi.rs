//! The OpenAPI document stays true: it lists exactly the routes in
//! `src/api.rs`, and every documented operation, called for real, answers a
//! documented status with a body that fits the documented schema.

mod common;

use std::collections::BTreeSet;

use common::Api;
use serde_json::{Value, json};

fn document() -> Value {
    serde_json::from_str(bouton_web::OPENAPI).expect("the OpenAPI document is JSON")
}

/// `(METHOD, /api/path)` for every route registered in src/api.rs.
fn routes_in_source() -> BTreeSet<(String, String)> {
    let source = include_str!("../src/api.rs");
    let mut routes = BTreeSet::new();
    let mut in_api = false;
    for line in source.lines() {
        let line = line.trim();
        if line.starts_with("let api = Router::new()") {
            in_api = true;
        }
        if in_api && line.starts_with(".route(\"") {
            let path = line.split('"').nth(1).expect("a quoted path");
            let handlers = line.split_once(',').expect("a method router").1;
            for method in ["get", "post", "put", "delete", "patch"] {
                if handlers.contains(&format!("{method}(")) {
                    routes.insert((method.to_uppercase(), format!("/api{path}")));
                }
            }
        }
        if in_api && line.ends_with(';') {
            in_api = false;
        }
    }
    routes
}

#[test]
fn the_document_lists_exactly_the_routes_of_the_api() {
    let doc = document();
    let documented: BTreeSet<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| item.as_object().unwrap().keys().map(move |m| (m.to_uppercase(), path.clone())))
        .collect();
    let routes = routes_in_source();
    assert!(routes.len() >= 12, "found too few routes in src/api.rs: {routes:?}");
    assert_eq!(documented, routes);
}

/// Resolves `#/components/schemas/X`.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let name = reference.strip_prefix("#/components/schemas/").expect("local schema reference");
            resolve(doc, &doc["components"]["schemas"][name])
        }
        None => schema,
    }
}

fn type_matches(expected: &str, value: &Value) -> bool {
    match expected {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => value.is_u64() || value.is_i64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        other => panic!("unknown type {other}"),
    }
}

/// Checks `value` against the subset of JSON Schema the document uses;
/// returns the first mismatch.
fn check(doc: &Value, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    let schema = resolve(doc, schema);
    if let Some(options) = schema.get("oneOf").and_then(Value::as_array) {
        let fits = options.iter().filter(|option| check(doc, option, value, at).is_ok()).count();
        return if fits == 1 { Ok(()) } else { Err(format!("{at}: {value} fits {fits} of the oneOf options")) };
    }
    if let Some(types) = schema.get("type") {
        let types: Vec<&str> = match types {
            Value::String(t) => vec![t.as_str()],
            Value::Array(list) => list.iter().map(|t| t.as_str().unwrap()).collect(),
            other => panic!("bad type {other}"),
        };
        if !types.iter().any(|t| type_matches(t, value)) {
            return Err(format!("{at}: {value} is not of type {types:?}"));
        }
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
        && !allowed.contains(value)
    {
        return Err(format!("{at}: {value} is not one of {allowed:?}"));
    }
    if let Some(object) = value.as_object() {
        for name in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
            let name = name.as_str().unwrap();
            if !object.contains_key(name) {
                return Err(format!("{at}: missing required property {name}"));
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        for (name, field) in object {
            match properties.and_then(|p| p.get(name)) {
                Some(field_schema) => check(doc, field_schema, field, &format!("{at}.{name}"))?,
                None if properties.is_some() => return Err(format!("{at}: undocumented property {name}")),
                None => {}
            }
        }
    }
    if let (Some(items), Some(array)) = (schema.get("items"), value.as_array()) {
        for (i, item) in array.iter().enumerate() {
            check(doc, items, item, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}

#[tokio::test]
async fn every_operation_answers_as_documented() {
    let doc = document();
    let api = Api::new();
    // A game per operation that needs one, in a state where the call works.
    let (computer, computer_token, _) = api.create(json!({"heaps": [3, 5, 7]})).await;
    api.play(&computer, &computer_token, 1, 1, 0).await.expect(200);
    let (online, _, _) = api.create(json!({"mode": "online"})).await;
    let (demo, demo_token, _) = api.create(json!({"mode": "demo"})).await;
    let (moves, moves_token, _) = api.create(json!({})).await;
    // Every other kind of board, with moves played in each.
    let mut others = Vec::new();
    for (rules, position, mv) in [
        ("kayles", json!([7, 11]), "1 1 3"),
        ("wythoff", json!([7, 10, 2, 3]), "2 1 1"),
        ("staircase", json!([3, 0, 5]), "3 2"),
        ("northcott", json!([8, 1, 6]), "1 3"),
        ("fibonacci", json!([20]), "3"),
    ] {
        let (id, token, _) = api.create(json!({"rules": rules, "position": position, "level": "perfect"})).await;
        let body = json!({"move": mv, "ply": 0});
        api.post(&format!("/api/games/{id}/moves"), Some(&token), body).await.expect(200);
        others.push(id);
    }
    let (big_misere, _, _) =
        api.create(json!({"rules": "kayles", "position": [40, 45, 50], "misere": true, "mode": "local"})).await;
    let mut calls: Vec<(&str, String, Option<&str>, Value, &str)> = vec![
        ("GET", "/api/openapi.json".into(), None, Value::Null, "/api/openapi.json"),
        ("POST", "/api/games".into(), None, json!({"heaps": [1, 2], "misere": true, "mode": "local"}), "/api/games"),
        ("GET", format!("/api/games/{computer}"), None, Value::Null, "/api/games/{id}"),
        ("POST", format!("/api/games/{moves}/moves"), Some(&moves_token), json!({"heap": 1, "take": 1, "ply": 0}), "/api/games/{id}/moves"),
        ("POST", format!("/api/games/{computer}/undo"), Some(&computer_token), json!({"ply": 2}), "/api/games/{id}/undo"),
        ("POST", format!("/api/games/{demo}/step"), Some(&demo_token), json!({"ply": 0}), "/api/games/{id}/step"),
        ("POST", format!("/api/games/{online}/join"), None, Value::Null, "/api/games/{id}/join"),
        ("GET", format!("/api/games/{computer}/hint"), None, Value::Null, "/api/games/{id}/hint"),
        ("GET", format!("/api/games/{computer}/review"), None, Value::Null, "/api/games/{id}/review"),
        ("GET", "/api/games/nosuchgame/events".into(), None, Value::Null, "/api/games/{id}/events"),
        ("GET", "/api/analyze?heaps=5,1&misere=true".into(), None, Value::Null, "/api/analyze"),
        ("GET", "/api/stats".into(), None, Value::Null, "/api/stats"),
        // Error answers are documented too.
        ("POST", format!("/api/games/{moves}/moves"), Some(&moves_token), json!({"heap": 9, "take": 1, "ply": 2}), "/api/games/{id}/moves"),
        ("POST", format!("/api/games/{moves}/moves"), Some(&moves_token), json!({"heap": 1, "take": 1, "ply": 0}), "/api/games/{id}/moves"),
        ("GET", "/api/games/nosuchgame".into(), None, Value::Null, "/api/games/{id}"),
        ("GET", "/api/analyze?heaps=x".into(), None, Value::Null, "/api/analyze"),
        ("GET", "/api/analyze?rules=kayles&position=7,11".into(), None, Value::Null, "/api/analyze"),
        ("GET", "/api/analyze?rules=kayles&position=40,45,50&misere=true".into(), None, Value::Null, "/api/analyze"),
        ("GET", "/api/rules".into(), None, Value::Null, "/api/rules"),
        ("GET", format!("/api/games/{computer}/analysis"), None, Value::Null, "/api/games/{id}/analysis"),
        ("GET", format!("/api/games/{big_misere}/analysis"), None, Value::Null, "/api/games/{id}/analysis"),
        ("GET", format!("/api/games/{big_misere}/hint"), None, Value::Null, "/api/games/{id}/hint"),
        ("POST", "/api/games".into(), None, json!({"rules": "moore:2", "position": [3, 5, 7]}), "/api/games"),
        ("POST", "/api/games".into(), None, json!({"rules": "chess"}), "/api/games"),
        ("POST", format!("/api/games/{big_misere}/moves"), Some(&moves_token), json!({"move": "1 1", "ply": 0}), "/api/games/{id}/moves"),
    ];
    for id in &others {
        for (path, template) in [
            (format!("/api/games/{id}"), "/api/games/{id}"),
            (format!("/api/games/{id}/hint"), "/api/games/{id}/hint"),
            (format!("/api/games/{id}/review"), "/api/games/{id}/review"),
            (format!("/api/games/{id}/analysis"), "/api/games/{id}/analysis"),
        ] {
            calls.push(("GET", path, None, Value::Null, template));
        }
    }
    let mut covered = BTreeSet::new();
    for (method, uri, token, body, path) in calls {
        let body = if body.is_null() { Vec::new() } else { serde_json::to_vec(&body).unwrap() };
        let reply = api.raw(method, &uri, token, body).await;
        let operation = &doc["paths"][path][method.to_lowercase()];
        assert!(operation.is_object(), "{method} {path} is not documented");
        let status = reply.status.as_u16().to_string();
        let response = &operation["responses"][&status];
        assert!(response.is_object(), "{method} {uri} answered {status}, which is not documented: {}", reply.json);
        if let Some(schema) = response["content"]["application/json"].get("schema") {
            check(&doc, schema, &reply.json, &format!("{method} {uri}")).unwrap();
        }
        covered.insert((method.to_owned(), path.to_owned()));
    }
    assert_eq!(covered, routes_in_source(), "every route is called above");
}
