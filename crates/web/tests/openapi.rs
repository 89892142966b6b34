//! The OpenAPI document stays true: it lists exactly the routes in
//! `src/api.rs`, and every documented operation, called for real, answers a
//! documented status with a body that fits the documented schema.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Request, header};
use bouton_web::ServerConfig;
use common::Api;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

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

/// Resolves a local reference such as `#/components/schemas/X` or
/// `#/components/responses/X`.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let pointer = reference.strip_prefix('#').expect("local reference");
            resolve(doc, doc.pointer(pointer).unwrap_or_else(|| panic!("{reference} resolves")))
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
        (
            "POST",
            format!("/api/games/{moves}/moves"),
            Some(&moves_token),
            json!({"heap": 1, "take": 1, "ply": 0}),
            "/api/games/{id}/moves",
        ),
        (
            "POST",
            format!("/api/games/{computer}/undo"),
            Some(&computer_token),
            json!({"ply": 2}),
            "/api/games/{id}/undo",
        ),
        ("POST", format!("/api/games/{demo}/step"), Some(&demo_token), json!({"ply": 0}), "/api/games/{id}/step"),
        ("POST", format!("/api/games/{online}/join"), None, Value::Null, "/api/games/{id}/join"),
        ("GET", format!("/api/games/{computer}/hint"), None, Value::Null, "/api/games/{id}/hint"),
        ("GET", format!("/api/games/{computer}/review"), None, Value::Null, "/api/games/{id}/review"),
        ("GET", "/api/games/nosuchgame/events".into(), None, Value::Null, "/api/games/{id}/events"),
        ("GET", "/api/analyze?heaps=5,1&misere=true".into(), None, Value::Null, "/api/analyze"),
        ("GET", "/api/stats".into(), None, Value::Null, "/api/stats"),
        // Error answers are documented too.
        (
            "POST",
            format!("/api/games/{moves}/moves"),
            Some(&moves_token),
            json!({"heap": 9, "take": 1, "ply": 2}),
            "/api/games/{id}/moves",
        ),
        (
            "POST",
            format!("/api/games/{moves}/moves"),
            Some(&moves_token),
            json!({"heap": 1, "take": 1, "ply": 0}),
            "/api/games/{id}/moves",
        ),
        ("GET", "/api/games/nosuchgame".into(), None, Value::Null, "/api/games/{id}"),
        ("GET", "/api/analyze?heaps=x".into(), None, Value::Null, "/api/analyze"),
        ("GET", "/api/analyze?rules=kayles&position=7,11".into(), None, Value::Null, "/api/analyze"),
        ("GET", "/api/analyze?rules=kayles&position=40,45,50&misere=true".into(), None, Value::Null, "/api/analyze"),
        ("GET", "/api/rules".into(), None, Value::Null, "/api/rules"),
        ("GET", "/api/rules/octal:0.F".into(), None, Value::Null, "/api/rules/{rules}"),
        ("GET", "/api/rules/octal:0.".into(), None, Value::Null, "/api/rules/{rules}"),
        ("GET", format!("/api/games/{computer}/analysis"), None, Value::Null, "/api/games/{id}/analysis"),
        ("GET", format!("/api/games/{big_misere}/analysis"), None, Value::Null, "/api/games/{id}/analysis"),
        ("GET", format!("/api/games/{big_misere}/hint"), None, Value::Null, "/api/games/{id}/hint"),
        ("POST", "/api/games".into(), None, json!({"rules": "moore:2", "position": [3, 5, 7]}), "/api/games"),
        ("POST", "/api/games".into(), None, json!({"rules": "chess"}), "/api/games"),
        (
            "POST",
            format!("/api/games/{big_misere}/moves"),
            Some(&moves_token),
            json!({"move": "1 1", "ply": 0}),
            "/api/games/{id}/moves",
        ),
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
        let response = resolve(&doc, &operation["responses"][&status]);
        assert!(response.is_object(), "{method} {uri} answered {status}, which is not documented: {}", reply.json);
        if let Some(schema) = response["content"]["application/json"].get("schema") {
            check(&doc, schema, &reply.json, &format!("{method} {uri}")).unwrap();
        }
        covered.insert((method.to_owned(), path.to_owned()));
    }
    assert_eq!(covered, routes_in_source(), "every route is called above");
}

/// `(METHOD, /api/path)` of the routes src/api.rs puts under a rate limit.
fn rate_limited_routes() -> BTreeSet<(String, String)> {
    let source = include_str!("../src/api.rs");
    source
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with(".route(\"/") && line.contains("route_layer("))
        .map(|line| {
            let path = line.split('"').nth(1).expect("a quoted path");
            let method = if line.contains("post(") { "POST" } else { "GET" };
            (method.to_owned(), format!("/api{path}"))
        })
        .collect()
}

/// The routes that compute (an analysis, a hint, a review, the computer's
/// move): a full compute pool makes them answer 503.
const COMPUTING: [(&str, &str); 8] = [
    ("POST", "/api/games"),
    ("GET", "/api/games/{id}"),
    ("POST", "/api/games/{id}/moves"),
    ("POST", "/api/games/{id}/step"),
    ("GET", "/api/games/{id}/hint"),
    ("GET", "/api/games/{id}/review"),
    ("GET", "/api/games/{id}/analysis"),
    ("GET", "/api/analyze"),
];

/// Every documented operation as `(METHOD, path, operation)`.
fn operations(doc: &Value) -> Vec<(String, String, &Value)> {
    let mut all = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            all.push((method.to_uppercase(), path.clone(), operation));
        }
    }
    all
}

#[test]
fn the_statuses_documented_are_the_ones_each_route_can_answer() {
    let doc = document();
    let limited = rate_limited_routes();
    assert!(limited.len() >= 6, "found too few rate-limited routes in src/api.rs: {limited:?}");
    let known = ["200", "201", "400", "401", "403", "404", "408", "409", "413", "422", "429", "503"];
    for (method, path, operation) in operations(&doc) {
        let responses = operation["responses"].as_object().unwrap();
        let statuses: BTreeSet<&str> = responses.keys().map(String::as_str).collect();
        let at = format!("{method} {path}");
        for status in &statuses {
            assert!(known.contains(status), "{at} documents {status}, which the server never answers");
        }
        let with_body = operation.get("requestBody").is_some();
        assert_eq!(statuses.contains("408"), with_body, "{at}: 408 (a body too slow) goes with a request body");
        assert_eq!(statuses.contains("413"), with_body, "{at}: 413 (a body too large) goes with a request body");
        let seat = operation["security"] == json!([{"bearer": []}]);
        assert_eq!(statuses.contains("401"), seat, "{at}: 401 goes with a required seat token");
        assert_eq!(statuses.contains("403"), seat, "{at}: 403 goes with a required seat token");
        // 429 everywhere: past its cap on open connections a client is
        // answered 429 before its request is read; on the rate-limited
        // routes, also past the rate.
        let limit = limited.contains(&(method.clone(), path.clone()));
        let too_many = responses["429"]["$ref"].as_str().unwrap_or_else(|| panic!("{at}: 429"));
        assert_eq!(too_many == "#/components/responses/TooManyConnections", !limit, "{at}: 429 {too_many}");
        if path.contains("{id}") {
            assert!(statuses.contains("404"), "{at}: a game's route answers 404");
            assert!(statuses.contains("400"), "{at}: a path that is not text is 400");
        }
        if !matches!(path.as_str(), "/api/openapi.json" | "/api/rules" | "/api/rules/{rules}") {
            assert!(statuses.contains("503"), "{at}: the storage or the compute pool can fail");
        }
        // Only the routes that compute meet a full compute pool.
        if let Some(unavailable) = responses.get("503") {
            let computes = COMPUTING.contains(&(method.as_str(), path.as_str()));
            let expected = if computes { "Unavailable" } else { "StorageFailed" };
            assert_eq!(unavailable["$ref"], format!("#/components/responses/{expected}"), "{at} 503");
        }
        // 429 and 503 always say when to come back.
        for (status, documented, required) in [("429", true, true), ("503", statuses.contains("503"), true)] {
            let retry = responses.get(status).map(|r| resolve(&doc, &resolve(&doc, r)["headers"]["Retry-After"]));
            assert_eq!(retry.is_some_and(Value::is_object), documented, "{at} {status}: Retry-After");
            if let Some(retry) = retry.filter(|r| r.is_object()) {
                assert_eq!(retry["schema"]["type"], "integer", "{at} {status} Retry-After in seconds");
                assert_eq!(retry["required"], required, "{at} {status}: Retry-After required: {required}");
            }
        }
        for (status, response) in responses {
            let response = resolve(&doc, response);
            let content = response["content"].as_object().expect("every answer has a body");
            let expected = if status.starts_with('2') && path == "/api/games/{id}/events" {
                "text/event-stream"
            } else {
                "application/json"
            };
            assert_eq!(content.keys().collect::<Vec<_>>(), [expected], "{at} {status}");
            if !status.starts_with('2') {
                assert_eq!(content[expected]["schema"]["$ref"], "#/components/schemas/Error", "{at} {status}");
            }
        }
    }
}

#[test]
fn the_links_lead_to_real_operations_with_real_parameters() {
    let doc = document();
    let by_id: std::collections::BTreeMap<&str, &Value> =
        operations(&doc).into_iter().filter_map(|(_, _, op)| Some((op.get("operationId")?.as_str()?, op))).collect();
    assert_eq!(by_id.len(), operations(&doc).len(), "every operation has a unique operationId");
    let mut links = 0;
    for (method, path, operation) in operations(&doc) {
        for (status, response) in operation["responses"].as_object().unwrap() {
            let response = resolve(&doc, response);
            let schema = &response["content"]["application/json"]["schema"];
            for (name, link) in response.get("links").and_then(Value::as_object).into_iter().flatten() {
                links += 1;
                let at = format!("{method} {path} {status} link {name}");
                let target = by_id.get(link["operationId"].as_str().unwrap()).unwrap_or_else(|| panic!("{at}: target"));
                for (parameter, expression) in link["parameters"].as_object().unwrap() {
                    let expression = expression.as_str().unwrap();
                    match parameter.as_str() {
                        "path.id" => {
                            let declared = target["parameters"].as_array().unwrap();
                            assert!(declared.iter().any(|p| p["name"] == "id" && p["in"] == "path"), "{at}");
                        }
                        "header.Authorization" => {
                            let security = target["security"].as_array().unwrap();
                            assert!(security.contains(&json!({"bearer": []})), "{at}: the target takes a token");
                            assert!(expression.starts_with("Bearer {$response.body#/"), "{at}: {expression}");
                        }
                        other => panic!("{at}: unexpected parameter {other}"),
                    }
                    check_expression(&doc, schema, expression, &at);
                }
                if let Some(body) = link.get("requestBody") {
                    let request = resolve(&doc, &target["requestBody"]["content"]["application/json"]["schema"]);
                    for (field, expression) in body.as_object().unwrap() {
                        assert!(request["properties"].get(field).is_some(), "{at}: {field} is a request field");
                        check_expression(&doc, schema, expression.as_str().unwrap(), &at);
                    }
                }
            }
        }
    }
    assert!(links >= 8, "the links from creating a game: {links}");
}

/// Checks that `$response.body#/a/b` in `expression` names a required
/// property of `schema` (literal text passes).
fn check_expression(doc: &Value, schema: &Value, expression: &str, at: &str) {
    let Some(start) = expression.find("$response.body#/") else { return };
    let pointer = expression[start + "$response.body#/".len()..].trim_end_matches('}');
    let mut schema = resolve(doc, schema);
    for part in pointer.split('/') {
        let required = schema["required"].as_array().unwrap_or_else(|| panic!("{at}: {pointer} in an object"));
        assert!(required.contains(&json!(part)), "{at}: {part} of {pointer} is always in the answer");
        schema = resolve(doc, &schema["properties"][part]);
    }
}

/// A request through the app, answered as far as its head: the status, the
/// headers, and the body when it is JSON (an event stream never ends).
async fn head(api: &Api, method: &str, uri: &str, token: Option<&str>, body: Body) -> (u16, HeaderMap, Value) {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let response = api.router.clone().oneshot(request.body(body).unwrap()).await.unwrap();
    let (status, headers) = (response.status().as_u16(), response.headers().clone());
    if headers.get(header::CONTENT_TYPE).is_some_and(|t| t.as_bytes().starts_with(b"application/json")) {
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, headers, serde_json::from_slice(&bytes).expect("a JSON answer"))
    } else {
        (status, headers, Value::Null)
    }
}

/// A request and the answer it must get: who asks, method, URI, token,
/// body, the operation's path, the status.
type Call<'a> = (&'a Api, &'static str, String, Option<&'a str>, Body, &'static str, u16);

#[tokio::test]
async fn every_documented_status_is_answered_as_documented() {
    let doc = document();
    let api = Api::new();
    let slow = Api::with_config(ServerConfig::default().with_body_timeout(Duration::from_millis(50)));
    let strict = Api::with_config(ServerConfig::default().with_rate_limits("games=1/h,analyses=1/h".parse().unwrap()));
    let (game, token, _) = api.create(json!({"heaps": [1, 2], "mode": "local"})).await;
    let (online, _, _) = api.create(json!({"mode": "online"})).await;
    let (demo, demo_token, _) = api.create(json!({"mode": "demo"})).await;
    let (finished, finished_token, _) = api.create(json!({"heaps": [1], "mode": "local"})).await;
    api.play(&finished, &finished_token, 1, 1, 0).await.expect(200);
    let (big, _, _) =
        api.create(json!({"rules": "kayles", "position": [40, 45, 50], "misere": true, "mode": "local"})).await;
    let huge = Body::from(format!(r#"{{"rules": "{}"}}"#, "n".repeat(20_000)));
    let never = || Body::from_stream(futures_util::stream::pending::<Result<Bytes, std::io::Error>>());
    let json = |value: Value| Body::from(value.to_string());
    let not_text = "%FF";
    // (who asks, method, uri, token, body, operation's path, status)
    let mut calls: Vec<Call> = vec![
        (&api, "GET", "/api/openapi.json".into(), None, Body::empty(), "/api/openapi.json", 200),
        (&api, "POST", "/api/games".into(), None, Body::empty(), "/api/games", 201),
        (&api, "POST", "/api/games".into(), None, json(json!({"heaps": [2.5]})), "/api/games", 400),
        (&slow, "POST", "/api/games".into(), None, never(), "/api/games", 408),
        (&api, "POST", "/api/games".into(), None, huge, "/api/games", 413),
        (&api, "POST", "/api/games".into(), None, json(json!({"rules": "chess"})), "/api/games", 422),
        (&api, "GET", format!("/api/games/{game}"), None, Body::empty(), "/api/games/{id}", 200),
        (&api, "GET", format!("/api/games/{not_text}"), None, Body::empty(), "/api/games/{id}", 400),
        (&api, "GET", "/api/games/nosuchgame".into(), None, Body::empty(), "/api/games/{id}", 404),
        (&api, "GET", format!("/api/games/{game}/events"), None, Body::empty(), "/api/games/{id}/events", 200),
        (&api, "GET", format!("/api/games/{not_text}/events"), None, Body::empty(), "/api/games/{id}/events", 400),
        (&api, "GET", "/api/games/nosuchgame/events".into(), None, Body::empty(), "/api/games/{id}/events", 404),
        (&api, "GET", format!("/api/games/{game}/hint"), None, Body::empty(), "/api/games/{id}/hint", 200),
        (&api, "GET", format!("/api/games/{finished}/review"), None, Body::empty(), "/api/games/{id}/review", 200),
        (&api, "GET", format!("/api/games/{game}/review"), None, Body::empty(), "/api/games/{id}/review", 409),
        (&api, "GET", format!("/api/games/{game}/analysis"), None, Body::empty(), "/api/games/{id}/analysis", 200),
        (&api, "GET", format!("/api/games/{big}/analysis"), None, Body::empty(), "/api/games/{id}/analysis", 422),
        (&api, "POST", format!("/api/games/{online}/join"), None, Body::empty(), "/api/games/{id}/join", 200),
        (&api, "POST", format!("/api/games/{game}/join"), None, Body::empty(), "/api/games/{id}/join", 409),
        (&api, "GET", "/api/analyze?heaps=3,5,7".into(), None, Body::empty(), "/api/analyze", 200),
        (&api, "GET", "/api/analyze?heaps=3,5.0".into(), None, Body::empty(), "/api/analyze", 400),
        (&api, "GET", "/api/analyze?rules=chess&position=1".into(), None, Body::empty(), "/api/analyze", 422),
        (&api, "GET", "/api/rules".into(), None, Body::empty(), "/api/rules", 200),
        (&api, "GET", "/api/rules/subtraction:1,2".into(), None, Body::empty(), "/api/rules/{rules}", 200),
        (&api, "GET", format!("/api/rules/{not_text}"), None, Body::empty(), "/api/rules/{rules}", 400),
        (&api, "GET", "/api/rules/chess".into(), None, Body::empty(), "/api/rules/{rules}", 422),
        (&api, "GET", "/api/stats".into(), None, Body::empty(), "/api/stats", 200),
        (&api, "GET", format!("/api/games/{online}/hint"), None, Body::empty(), "/api/games/{id}/hint", 409),
        (&api, "GET", format!("/api/games/{online}/analysis"), None, Body::empty(), "/api/games/{id}/analysis", 409),
    ];
    for (path, valid) in
        [("moves", json!({"heap": 1, "take": 1, "ply": 0})), ("undo", json!({"ply": 1})), ("step", json!({"ply": 0}))]
    {
        let template: &str = match path {
            "moves" => "/api/games/{id}/moves",
            "undo" => "/api/games/{id}/undo",
            _ => "/api/games/{id}/step",
        };
        let (id, own) = if path == "step" { (&demo, demo_token.as_str()) } else { (&game, token.as_str()) };
        let uri = format!("/api/games/{id}/{path}");
        calls.extend([
            (&api, "POST", uri.clone(), Some(own), json(valid.clone()), template, 200),
            (&api, "POST", uri.clone(), Some(own), Body::empty(), template, 400),
            (&api, "POST", uri.clone(), None, json(valid.clone()), template, 401),
            (&api, "POST", uri.clone(), Some("0123"), json(valid.clone()), template, 403),
            (&api, "POST", format!("/api/games/nosuchgame/{path}"), Some(own), json(valid.clone()), template, 404),
            (&slow, "POST", uri.clone(), Some(own), never(), template, 408),
            (&api, "POST", uri.clone(), Some(own), json(valid.clone()), template, 409),
            (&api, "POST", uri.clone(), Some(own), Body::from(vec![b' '; 17_000]), template, 413),
        ]);
        if path == "moves" {
            calls.push((&api, "POST", uri, Some(own), json(json!({"move": "9 9", "ply": 1})), template, 422));
        }
    }
    for (path, template) in [
        ("join", "/api/games/{id}/join"),
        ("hint", "/api/games/{id}/hint"),
        ("review", "/api/games/{id}/review"),
        ("analysis", "/api/games/{id}/analysis"),
    ] {
        let method = if path == "join" { "POST" } else { "GET" };
        calls.push((&api, method, format!("/api/games/{not_text}/{path}"), None, Body::empty(), template, 400));
        calls.push((&api, method, format!("/api/games/nosuchgame/{path}"), None, Body::empty(), template, 404));
    }
    // Rate limits of one a hour: the second request of a kind is 429.
    let (limited, _, _) = strict.create(json!({"mode": "online"})).await;
    strict.get(&format!("/api/games/{limited}/hint")).await.expect(409);
    for (method, uri, template) in [
        ("POST", "/api/games".to_owned(), "/api/games"),
        ("POST", format!("/api/games/{limited}/join"), "/api/games/{id}/join"),
        ("GET", format!("/api/games/{limited}/hint"), "/api/games/{id}/hint"),
        ("GET", format!("/api/games/{limited}/review"), "/api/games/{id}/review"),
        ("GET", format!("/api/games/{limited}/analysis"), "/api/games/{id}/analysis"),
        ("GET", "/api/analyze?heaps=1".to_owned(), "/api/analyze"),
    ] {
        calls.push((&strict, method, uri, None, Body::empty(), template, 429));
    }
    let mut answered = BTreeSet::new();
    for (who, method, uri, token, body, path, expected) in calls {
        let (status, headers, json) = head(who, method, &uri, token, body).await;
        assert_eq!(status, expected, "{method} {uri}: {json}");
        let operation = &doc["paths"][path][method.to_lowercase()];
        let response = resolve(&doc, &operation["responses"][status.to_string()]);
        assert!(response.is_object(), "{method} {uri} answered {status}, which is not documented");
        let content_type = headers.get(header::CONTENT_TYPE).unwrap().to_str().unwrap();
        let documented = response["content"].as_object().unwrap().keys().next().unwrap();
        assert!(content_type.starts_with(documented.as_str()), "{method} {uri}: {content_type}, not {documented}");
        if let Some(schema) = response["content"]["application/json"].get("schema") {
            check(&doc, schema, &json, &format!("{method} {uri}")).unwrap();
        }
        if status >= 400 {
            let message = json["error"].as_str().unwrap_or_else(|| panic!("{method} {uri}: {json}"));
            assert!(!message.contains('\n'), "{method} {uri}: one line, not {message:?}");
        }
        if status == 429 {
            let seconds = headers.get(header::RETRY_AFTER).expect("Retry-After").to_str().unwrap();
            assert!(seconds.parse::<u64>().is_ok(), "Retry-After: {seconds}");
        }
        answered.insert((method.to_owned(), path.to_owned(), status.to_string()));
    }
    // Every documented answer was given above, but 503 (a full compute pool
    // or a failed storage, out of a client's reach) and the 429 of the
    // connection cap, given before any route is chosen (tests/protection.rs).
    let limited = rate_limited_routes();
    let documented: BTreeSet<(String, String, String)> = operations(&doc)
        .into_iter()
        .flat_map(|(method, path, operation)| {
            operation["responses"].as_object().unwrap().keys().map(move |s| (method.clone(), path.clone(), s.clone()))
        })
        .filter(|(method, path, status)| {
            status != "503" && (status != "429" || limited.contains(&(method.clone(), path.clone())))
        })
        .collect();
    let missing: Vec<_> = documented.difference(&answered).collect();
    assert!(missing.is_empty(), "documented but never answered here: {missing:?}");
}

/// What schemathesis found, one test per fix.
mod schemathesis_findings {
    use super::*;

    async fn post_raw(api: &Api, uri: &str, token: Option<&str>, body: &str) -> common::Reply {
        api.raw("POST", uri, token, body.as_bytes().to_vec()).await
    }

    #[tokio::test]
    async fn integers_written_as_whole_floats_are_integers() {
        let api = Api::new();
        let grant = post_raw(&api, "/api/games", None, r#"{"heaps": [3.0, 5e0, 0.7e1], "mode": "local"}"#).await;
        assert_eq!(grant.expect(201)["game"]["start"], json!([3, 5, 7]));
        let (id, token, _) = api.create(json!({"position": [3, 5, 7], "mode": "local"})).await;
        let moves = format!("/api/games/{id}/moves");
        let game = post_raw(&api, &moves, Some(&token), r#"{"heap": 3.0, "take": 2.0, "ply": 0.0}"#).await.expect(200);
        assert_eq!((&game["heaps"], &game["ply"]), (&json!([3, 5, 5]), &json!(1)));
        let undo = format!("/api/games/{id}/undo");
        assert_eq!(post_raw(&api, &undo, Some(&token), r#"{"ply": 1e0}"#).await.expect(200)["ply"], 0);
        let (demo, demo_token, _) = api.create(json!({"mode": "demo"})).await;
        let step = format!("/api/games/{demo}/step");
        assert_eq!(post_raw(&api, &step, Some(&demo_token), r#"{"ply": 0.0}"#).await.expect(200)["ply"], 1);
        // A large ply spelled as a float is still a ply (a stale one here).
        post_raw(&api, &moves, Some(&token), r#"{"heap": 1, "take": 1, "ply": 3755.0}"#)
            .await
            .expect_error(409, "you sent ply 3755");
    }

    #[tokio::test]
    async fn numbers_with_a_fraction_are_refused_in_one_line() {
        let api = Api::new();
        let (id, token, _) = api.create(json!({"mode": "local"})).await;
        let (moves, undo) = (format!("/api/games/{id}/moves"), format!("/api/games/{id}/undo"));
        for (uri, token, body, words) in [
            ("/api/games", None, r#"{"heaps": [2.5]}"#, "floating point `2.5`"),
            ("/api/games", None, r#"{"position": [1, 3755.5]}"#, "floating point `3755.5`"),
            (moves.as_str(), Some(token.as_str()), r#"{"heap": 1, "take": 1, "ply": 2.5}"#, "`ply` as a whole number"),
            (moves.as_str(), Some(token.as_str()), r#"{"heap": 1.5, "take": 1, "ply": 0}"#, "`heap` as a whole number"),
            (moves.as_str(), Some(token.as_str()), r#"{"heap": 1, "take": 0.5, "ply": 0}"#, "`take` as a whole number"),
            (undo.as_str(), Some(token.as_str()), r#"{"ply": 1e-1}"#, "`ply` as a whole number"),
            (moves.as_str(), Some(token.as_str()), r#"{"heap": -1, "take": 1, "ply": 0}"#, "integer `-1`"),
            (undo.as_str(), Some(token.as_str()), r#"{"ply": 1.8446744073709552e19}"#, "2^64 - 1"),
        ] {
            post_raw(&api, uri, token, body).await.expect_error(400, words);
        }
        assert_eq!(api.get(&format!("/api/games/{id}")).await.expect(200)["ply"], 0, "nothing changed");
        api.get("/api/analyze?heaps=3,5.5").await.expect_error(400, "\"5.5\" is not one");
    }

    #[tokio::test]
    async fn position_and_heaps_together_are_refused_as_documented() {
        let api = Api::new();
        let both = json!({"rules": "kayles", "position": [3], "heaps": [3]});
        api.post("/api/games", None, both).await.expect_error(400, "not both");
        api.get("/api/analyze?position=3&heaps=3").await.expect_error(400, "not both");
        api.get("/api/analyze?rules=kayles").await.expect_error(400, "give the position");
        // Either alone is the same start.
        for field in ["position", "heaps"] {
            let (_, _, game) = api.create(json!({"rules": "kayles", field: [3, 4]})).await;
            assert_eq!(game["start"], json!([3, 4]));
            let analysis = api.get(&format!("/api/analyze?rules=kayles&{field}=3,4")).await.expect(200);
            assert_eq!(analysis["position"], json!([3, 4]));
        }
        // The document says so: the schema refuses both, and needs one of
        // the two in the query.
        let doc = document();
        assert_eq!(doc["components"]["schemas"]["CreateRequest"]["not"], json!({"required": ["position", "heaps"]}));
        let query = &doc["paths"]["/api/analyze"]["get"]["parameters"][0];
        assert_eq!(query["schema"]["oneOf"], json!([{"required": ["position"]}, {"required": ["heaps"]}]));
        assert_eq!((&query["style"], &query["explode"]), (&json!("form"), &json!(true)));
    }

    #[tokio::test]
    async fn a_missing_body_creates_the_usual_game_and_is_refused_elsewhere() {
        let api = Api::new();
        for body in ["", " \n"] {
            let grant = post_raw(&api, "/api/games", None, body).await.expect(201);
            assert_eq!((&grant["game"]["start"], &grant["game"]["mode"]), (&json!([3, 5, 7]), &json!("computer")));
        }
        let (id, token, _) = api.create(json!({"mode": "demo"})).await;
        for path in ["moves", "undo", "step"] {
            let uri = format!("/api/games/{id}/{path}");
            post_raw(&api, &uri, Some(&token), "").await.expect_error(400, "the request body is empty");
        }
        let doc = document();
        for (path, required) in [
            ("/api/games", false),
            ("/api/games/{id}/moves", true),
            ("/api/games/{id}/undo", true),
            ("/api/games/{id}/step", true),
        ] {
            assert_eq!(doc["paths"][path]["post"]["requestBody"]["required"], required, "{path}");
        }
    }

    #[tokio::test]
    async fn a_body_is_an_object_without_nulls() {
        let api = Api::new();
        let (id, token, _) = api.create(json!({"mode": "local"})).await;
        let moves = format!("/api/games/{id}/moves");
        post_raw(&api, "/api/games", None, "[]").await.expect_error(400, "a JSON object");
        post_raw(&api, &moves, Some(&token), "[1, 1, 0]").await.expect_error(400, "a JSON object");
        post_raw(&api, "/api/games", None, "null").await.expect_error(400, "a JSON object");
        for field in ["rules", "position", "heaps", "level", "mode", "misere", "help"] {
            api.post("/api/games", None, json!({ field: null })).await.expect_error(400, "null");
        }
        api.post(&moves, Some(&token), json!({"move": null, "heap": 1, "take": 1, "ply": 0}))
            .await
            .expect_error(400, "null");
        api.post("/api/games", None, json!({"rules": ""})).await.expect_error(400, "at least one character");
        api.post("/api/games", None, json!({"level": "Hard"})).await.expect_error(400, "unknown level");
        api.post("/api/games", None, json!({"mode": "local", "level": "godlike"}))
            .await
            .expect_error(400, "unknown level");
    }

    #[tokio::test]
    async fn what_fits_the_document_but_not_the_game_is_422() {
        let api = Api::new();
        api.post("/api/games", None, json!({"rules": "chess"})).await.expect_error(422, "unknown rule set");
        api.post("/api/games", None, json!({"heaps": vec![1; 13]})).await.expect_error(422, "1 to 12 heaps");
        api.post("/api/games", None, json!({"rules": "wythoff", "position": [1, 2, 3]}))
            .await
            .expect_error(422, "pair");
        api.get("/api/analyze?rules=chess&position=1").await.expect_error(422, "unknown rule set");
        let (id, token, _) = api.create(json!({"rules": "kayles", "mode": "local"})).await;
        let moves = format!("/api/games/{id}/moves");
        api.post(&moves, Some(&token), json!({"move": " ", "ply": 0})).await.expect_error(422, "");
        api.post(&moves, Some(&token), json!({"heap": 1, "take": 3, "ply": 0})).await.expect_error(422, "not allowed");
        let (id, token, _) = api.create(json!({"rules": "wythoff", "mode": "local"})).await;
        let moves = format!("/api/games/{id}/moves");
        api.post(&moves, Some(&token), json!({"heap": 1, "take": 1, "ply": 0})).await.expect_error(422, "as text");
    }

    #[tokio::test]
    async fn the_analysis_query_is_read_exactly_as_documented() {
        let api = Api::new();
        api.get("/api/analyze?heaps=18446744073709551615,007").await.expect(200);
        api.get("/api/analyze?heaps=18446744073709551616").await.expect_error(400, "is not one");
        api.get("/api/analyze?heaps=3%205").await.expect_error(400, "is not one");
        api.get("/api/analyze?heaps=3&heaps=5").await.expect_error(400, "duplicate");
        api.get("/api/analyze?heaps=3&colour=red").await.expect_error(400, "unknown field");
        api.get("/api/analyze?heaps=3&misere=1").await.expect_error(400, "misere is true or false");
        api.get("/api/analyze?heaps=3&rules=").await.expect_error(400, "`rules` is empty");
        assert_eq!(api.get("/api/analyze?heaps=1,1&misere=true").await.expect(200)["winner"], "mover");
    }

    #[tokio::test]
    async fn every_error_is_json_even_the_routers_own() {
        let api = Api::new();
        let reply = api.get("/api/games/%FF").await;
        reply.expect_error(400, "UTF-8");
        api.raw("PUT", "/api/games", None, Vec::new()).await.expect_error(405, "method not allowed");
    }
}
