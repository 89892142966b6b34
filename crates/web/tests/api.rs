//! The JSON API through `app()`, without a socket.

#[path = "api/batch.rs"]
mod batch;
#[path = "api/bounded.rs"]
mod bounded;
mod common;
#[path = "api/migration.rs"]
mod migration;
#[path = "api/rule_sets.rs"]
mod rule_sets;

use common::{Api, heaps};
use serde_json::{Value, json};

/// A Nim move as the API shows it.
fn nim_move(heap: u64, take: u64) -> Value {
    json!({"heap": heap, "take": take, "text": format!("{heap}:{take}"), "description": format!("take {take} from heap {heap}")})
}

/// A played Nim move as the API shows it: heap and take (clients work out
/// the rest).
fn played(heap: u64, take: u64, side: &str, by: &str) -> Value {
    json!({"heap": heap, "take": take, "side": side, "by": by})
}

fn xor(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0, |a, h| a ^ h)
}

#[tokio::test]
async fn creating_a_game_gives_the_default_start_and_a_seat() {
    let api = Api::new();
    let grant = api.post("/api/games", None, json!({})).await.expect(201);
    assert_eq!(grant["game"]["start"], json!([3, 5, 7]));
    assert_eq!(grant["game"]["mode"], "computer");
    assert_eq!(grant["game"]["level"], "hard");
    assert_eq!(grant["game"]["rule"], "whoever takes the last token wins");
    assert_eq!(grant["seat"], "first");
    assert_eq!(grant["game"]["your_seat"], "first");
    assert_eq!(grant["link"], format!("/g/{}", grant["game"]["id"].as_str().unwrap()));
    assert_eq!(grant["token"].as_str().unwrap().len(), 32);
    // Anyone can read it; only the token's holder sees a seat.
    let id = grant["game"]["id"].as_str().unwrap();
    let seen = api.get(&format!("/api/games/{id}")).await.expect(200);
    assert_eq!(seen["your_seat"], Value::Null);
    let own = api.get_as(&format!("/api/games/{id}"), grant["token"].as_str().unwrap()).await.expect(200);
    assert_eq!(own["your_seat"], "first");
}

#[tokio::test]
async fn the_perfect_computer_replies_to_a_move_with_nim_sum_zero() {
    let api = Api::new();
    let (id, token, _) = api.create(json!({"heaps": [3, 5, 7], "level": "perfect"})).await;
    // 3 5 7 -> 3 5 6 leaves nim-sum 0 for the computer... it is lost, so it
    // plays its toughest move; after our winning reply it stays lost.
    let game = api.play(&id, &token, 3, 1, 0).await.expect(200);
    assert_eq!(game["ply"], 2);
    assert_eq!(game["moves"][0], played(3, 1, "first", "human"));
    assert_eq!(game["moves"][1]["by"], "computer");
    assert_eq!(game["to_move"], "first");
    // From a won position (for the computer) it always restores nim-sum 0.
    let (id, token, _) = api.create(json!({"heaps": [1, 2, 3, 4], "level": "perfect"})).await;
    let mut ply = 0;
    let mut game = api.get(&format!("/api/games/{id}")).await.expect(200);
    while !game["over"].as_bool().unwrap() {
        let h = heaps(&game);
        let heap = h.iter().position(|&x| x > 0).unwrap() as u64 + 1;
        game = api.play(&id, &token, heap, 1, ply).await.expect(200);
        ply = game["ply"].as_u64().unwrap();
        if !game["over"].as_bool().unwrap() {
            assert_eq!(xor(&heaps(&game)), 0, "the computer left a non-zero nim-sum: {game}");
        }
    }
    assert_eq!(game["winner"], "second", "1 2 3 4 has nim-sum 4: the perfect computer must win once we err");
}

#[tokio::test]
async fn the_computer_moves_first_in_computer_first_mode() {
    let api = Api::new();
    let (_, _, game) = api.create(json!({"mode": "computer-first", "heaps": [1, 5, 4, 2], "level": "perfect"})).await;
    assert_eq!(game["ply"], 1);
    // Stanford's nim1 start: the only winning move takes 2 from heap 4.
    assert_eq!(game["moves"][0], played(4, 2, "first", "computer"));
    assert_eq!(game["your_seat"], "second");
}

#[tokio::test]
async fn illegal_and_malformed_moves_are_4xx_and_change_nothing() {
    let api = Api::new();
    let (id, token, _) = api.create(json!({"heaps": [2, 3]})).await;
    api.play(&id, &token, 3, 1, 0).await.expect_error(422, "no heap 3");
    api.play(&id, &token, 0, 1, 0).await.expect_error(400, "`heap` as a whole number from 1");
    api.play(&id, &token, 1, 0, 0).await.expect_error(400, "`take` as a whole number from 1");
    api.play(&id, &token, 1, 3, 0).await.expect_error(422, "holds only 2");
    api.play(&id, &token, 1, 1, 5).await.expect_error(409, "moved on");
    let uri = format!("/api/games/{id}/moves");
    api.raw("POST", &uri, Some(&token), b"{not json".to_vec()).await.expect_error(400, "invalid JSON");
    api.post(&uri, Some(&token), json!({"heap": 1})).await.expect_error(400, "missing field");
    api.post(&uri, Some(&token), json!({"heap": -1, "take": 1, "ply": 0})).await.expect_error(400, "invalid");
    api.post(&uri, Some(&token), json!({"heap": 1, "take": 1, "ply": 0, "x": 1}))
        .await
        .expect_error(400, "unknown field");
    let huge = format!("{{\"heap\": 1, \"take\": 1, \"ply\": 0, \"pad\": \"{}\"}}", "x".repeat(20_000));
    api.raw("POST", &uri, Some(&token), huge.into_bytes()).await.expect_error(413, "larger than");
    api.post(&uri, None, json!({"heap": 1, "take": 1, "ply": 0})).await.expect_error(401, "token");
    api.post(&uri, Some("0123"), json!({"heap": 1, "take": 1, "ply": 0})).await.expect_error(403, "no seat");
    let game = api.get(&format!("/api/games/{id}")).await.expect(200);
    assert_eq!(game["ply"], 0);
    assert_eq!(heaps(&game), vec![2, 3]);
}

#[tokio::test]
async fn creation_limits_are_enforced_with_clear_messages() {
    let api = Api::new();
    api.post("/api/games", None, json!({"heaps": []})).await.expect_error(400, "1 to 12 heaps");
    api.post("/api/games", None, json!({"heaps": vec![1u64; 13]})).await.expect_error(422, "1 to 12 heaps");
    api.post("/api/games", None, json!({"heaps": [51]})).await.expect_error(400, "at most 50");
    api.post("/api/games", None, json!({"heaps": [0, 0]})).await.expect_error(400, "every heap is empty");
    api.post("/api/games", None, json!({"level": "godlike"})).await.expect_error(400, "unknown level");
    api.post("/api/games", None, json!({"mode": "solo"})).await.expect_error(400, "unknown variant");
    api.post("/api/games", None, json!({"heaps": [3], "colour": "red"})).await.expect_error(400, "unknown field");
    api.get("/api/games/nosuchgame").await.expect_error(404, "no game");
    api.get("/api/nothing/here").await.expect_error(404, "no such API route");
    let reply = api.raw("DELETE", "/api/games", None, Vec::new()).await;
    assert_eq!(reply.status.as_u16(), 405);
}

#[tokio::test]
async fn undo_against_the_computer_takes_back_the_reply_too() {
    let api = Api::new();
    let (id, token, _) = api.create(json!({"heaps": [3, 5, 7], "level": "perfect"})).await;
    let undo = format!("/api/games/{id}/undo");
    api.post(&undo, Some(&token), json!({"ply": 0})).await.expect_error(409, "nothing to undo");
    api.play(&id, &token, 1, 1, 0).await.expect(200);
    api.post(&undo, Some(&token), json!({"ply": 0})).await.expect_error(409, "moved on");
    let game = api.post(&undo, Some(&token), json!({"ply": 2})).await.expect(200);
    assert_eq!(game["ply"], 0);
    assert_eq!(heaps(&game), vec![3, 5, 7]);
    // The moves really are gone: the same ply can be played again.
    api.play(&id, &token, 2, 1, 0).await.expect(200);
}

#[tokio::test]
async fn two_players_on_one_device_share_a_token_and_undo_one_move() {
    let api = Api::new();
    let (id, token, game) = api.create(json!({"mode": "local", "heaps": [2, 2], "misere": true})).await;
    assert_eq!(game["your_seat"], "both");
    assert_eq!(game["level"], Value::Null);
    assert_eq!(game["rule"], "whoever takes the last token loses");
    api.play(&id, &token, 1, 2, 0).await.expect(200);
    let game = api.play(&id, &token, 2, 1, 1).await.expect(200);
    assert_eq!(game["to_move"], "first");
    let game = api.post(&format!("/api/games/{id}/undo"), Some(&token), json!({"ply": 2})).await.expect(200);
    assert_eq!(game["ply"], 1);
    api.play(&id, &token, 2, 1, 1).await.expect(200);
    // Misère: the first player must now take the last token and lose.
    let game = api.play(&id, &token, 2, 1, 2).await.expect(200);
    assert_eq!(game["over"], true);
    assert_eq!(game["winner"], "second");
    assert_eq!(game["to_move"], Value::Null);
    api.play(&id, &token, 1, 1, 3).await.expect_error(409, "over");
}

#[tokio::test]
async fn online_games_have_a_guest_seat_and_watchers() {
    let api = Api::new();
    let (id, owner, game) = api.create(json!({"mode": "online", "heaps": [1, 2]})).await;
    assert_eq!(game["seats"][1]["taken"], false);
    // Nobody has joined: the owner cannot move for the second seat.
    api.play(&id, &owner, 2, 1, 0).await.expect(200);
    api.play(&id, &owner, 2, 1, 1).await.expect_error(409, "not your turn");
    let grant = api.post(&format!("/api/games/{id}/join"), None, json!({})).await.expect(200);
    assert_eq!(grant["seat"], "second");
    assert_eq!(grant["game"]["seats"][1]["taken"], true);
    let guest = grant["token"].as_str().unwrap().to_owned();
    assert_ne!(guest, owner);
    api.post(&format!("/api/games/{id}/join"), None, json!({})).await.expect_error(409, "both seats are taken");
    api.play(&id, &guest, 1, 1, 0).await.expect_error(409, "moved on");
    let game = api.play(&id, &guest, 1, 1, 1).await.expect(200);
    assert_eq!(game["your_seat"], "second");
    api.play(&id, &guest, 2, 1, 2).await.expect_error(409, "not your turn");
    let game = api.play(&id, &owner, 2, 1, 2).await.expect(200);
    assert_eq!(game["winner"], "first");
    api.post(&format!("/api/games/{id}/undo"), Some(&owner), json!({"ply": 3}))
        .await
        .expect_error(409, "not available in online");
    // Joining a game that is not online.
    let (other, _, _) = api.create(json!({})).await;
    api.post(&format!("/api/games/{other}/join"), None, json!({})).await.expect_error(409, "only online games");
}

#[tokio::test]
async fn demo_games_advance_one_step_at_a_time() {
    let api = Api::new();
    let (id, token, game) = api.create(json!({"mode": "demo", "heaps": [3, 4], "level": "perfect"})).await;
    assert_eq!(game["ply"], 0);
    let step = format!("/api/games/{id}/step");
    let mut ply = 0;
    loop {
        let game = api.post(&step, Some(&token), json!({"ply": ply})).await.expect(200);
        assert_eq!(game["ply"], ply + 1);
        ply += 1;
        if game["over"] == true {
            // 3 4: nim-sum 7, so the perfect first player wins.
            assert_eq!(game["winner"], "first");
            break;
        }
        assert!(ply < 7, "a game of 7 tokens lasts at most 7 moves");
    }
    api.post(&step, Some(&token), json!({"ply": ply})).await.expect_error(409, "over");
    let (other, other_token, _) = api.create(json!({})).await;
    api.post(&format!("/api/games/{other}/step"), Some(&other_token), json!({"ply": 0}))
        .await
        .expect_error(409, "only demo");
}

#[tokio::test]
async fn hint_and_review_agree_with_the_theory() {
    let api = Api::new();
    let (id, token, _) = api.create(json!({"mode": "local", "heaps": [1, 5, 4, 2]})).await;
    let hint = api.get(&format!("/api/games/{id}/hint")).await.expect(200);
    assert_eq!(
        hint,
        json!({"winner": "mover", "nim_sum": 2, "winning_moves": 1, "suggestion": nim_move(4, 2), "unavailable": null,
               "quotient": null})
    );
    // First player errs (takes 1 from heap 1, leaving 0 5 4 2, nim-sum 3).
    api.play(&id, &token, 1, 1, 0).await.expect(200);
    // Second player should now win (nim-sum 3 != 0) but errs too: 5 -> 4
    // leaves 0 4 4 2, nim-sum 2, still winning for the first player.
    api.play(&id, &token, 2, 1, 1).await.expect(200);
    // The review comes after the end: both play on perfectly.
    api.get(&format!("/api/games/{id}/review")).await.expect_error(409, "after the end");
    assert_eq!(api.finish_with_hints(&id, &token).await["winner"], "first");
    let review = api.get(&format!("/api/games/{id}/review")).await.expect(200);
    assert_eq!(review["first"]["move_number"], 1);
    assert_eq!(review["first"]["played"], nim_move(1, 1));
    assert_eq!(review["first"]["better"], nim_move(4, 2));
    assert_eq!(review["second"]["move_number"], 2);
    // From 0 5 4 2 (nim-sum 3) the winning move is 2 -> 1 in heap 4 (take 1)
    // or 5 -> 6? No: heaps with the top bit of 3 (the 2s) are 2: 2 ^ 3 = 1.
    assert_eq!(review["second"]["better"], nim_move(4, 1));
    // A lost position's hint suggests a move and says who wins.
    let (id, _, _) = api.create(json!({"heaps": [2, 2]})).await;
    let hint = api.get(&format!("/api/games/{id}/hint")).await.expect(200);
    assert_eq!(hint["winner"], "opponent");
    assert_eq!(hint["winning_moves"], 0);
    assert!(hint["suggestion"].is_object());
}

#[tokio::test]
async fn statistics_count_finished_games_per_mode_and_level() {
    let api = Api::new();
    // Two lost games against the perfect computer from 1 1 (you move first... and lose? 1 1 is lost for the mover).
    for _ in 0..2 {
        let (id, token, _) = api.create(json!({"heaps": [1, 1], "level": "perfect"})).await;
        let game = api.play(&id, &token, 1, 1, 0).await.expect(200);
        assert_eq!(game["winner"], "second");
    }
    // One won game: 1 heap of 3, take all.
    let (id, token, _) = api.create(json!({"heaps": [3], "level": "easy"})).await;
    assert_eq!(api.play(&id, &token, 1, 3, 0).await.expect(200)["winner"], "first");
    // An unfinished game does not count.
    api.create(json!({"heaps": [3], "level": "easy"})).await;
    let stats = api.get("/api/stats").await.expect(200);
    assert_eq!(
        stats["rows"],
        json!([
            {"rules": "nim", "mode": "computer", "level": "easy", "games": 1, "wins": 1, "losses": 0},
            {"rules": "nim", "mode": "computer", "level": "perfect", "games": 2, "wins": 0, "losses": 2},
        ])
    );
}

#[tokio::test]
async fn analyze_gives_the_table_and_every_move() {
    let api = Api::new();
    let analysis = api.get("/api/analyze?heaps=3,5,7").await.expect(200);
    assert_eq!(analysis["nim_sum"], 1);
    assert_eq!(analysis["winner"], "mover");
    assert_eq!(analysis["winning_moves"], json!([nim_move(1, 1), nim_move(2, 1), nim_move(3, 1)]));
    assert_eq!(analysis["table"]["columns"], json!([2, 1, 0]));
    assert_eq!(analysis["table"]["rows"], json!([[0, 1, 1], [1, 0, 1], [1, 1, 1]]));
    assert_eq!(analysis["table"]["ones"], json!([2, 2, 3]));
    assert_eq!(analysis["table"]["odd"], json!([false, false, true]));
    assert_eq!(analysis["table"]["advice"], json!({"kind": "flip", "column": 0, "heap": 1, "from": 3, "to": 2}));
    let moves = analysis["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 15);
    for option in moves {
        let (heap, take) = (option["heap"].as_u64().unwrap() as usize, option["take"].as_u64().unwrap());
        let mut after = vec![3u64, 5, 7];
        after[heap - 1] -= take;
        assert_eq!(option["nim_sum"], xor(&after));
        assert_eq!(option["wins"], xor(&after) == 0);
    }
    let misere = api.get("/api/analyze?heaps=12,12,20,20&misere=true").await.expect(200);
    assert_eq!(misere["winner"], "opponent");
    let endgame = api.get("/api/analyze?heaps=5,1&misere=true").await.expect(200);
    assert_eq!(endgame["table"]["advice"]["kind"], "misere-endgame");
    assert_eq!(endgame["winning_moves"], json!([nim_move(1, 5)]));
    let big = api.get("/api/analyze?heaps=18446744073709551615,1").await.expect(200);
    assert_eq!(big["moves"], Value::Null);
    api.get("/api/analyze").await.expect_error(400, "heaps");
    api.get("/api/analyze?heaps=3,x").await.expect_error(400, "\"x\"");
    api.get("/api/analyze?heaps=3&misere=maybe").await.expect_error(400, "misere");
    let many = vec!["1"; 65].join(",");
    api.get(&format!("/api/analyze?heaps={many}")).await.expect_error(400, "at most 64");
}

#[tokio::test]
async fn two_moves_at_the_same_moment_one_wins_one_conflicts() {
    for _ in 0..20 {
        let api = Api::new();
        let (id, token, _) = api.create(json!({"mode": "local", "heaps": [5, 5, 5]})).await;
        let (a, b) = tokio::join!(api.play(&id, &token, 1, 1, 0), api.play(&id, &token, 2, 2, 0));
        let mut statuses = [a.status.as_u16(), b.status.as_u16()];
        statuses.sort();
        assert_eq!(statuses, [200, 409], "{a:?} {b:?}");
        let loser = if a.status.as_u16() == 409 { a } else { b };
        loser.expect_error(409, "moved on");
        let game = api.get(&format!("/api/games/{id}")).await.expect(200);
        assert_eq!(game["ply"], 1, "exactly one move was stored");
    }
}

#[tokio::test]
async fn abandoned_games_expire() {
    let api = Api::new();
    let (id, _, _) = api.create(json!({})).await;
    let expired = api
        .store
        .run(None, |conn| Box::pin(bouton_web::store::games::expire(conn, bouton_web::store::games::now() + 1)))
        .await
        .unwrap();
    assert_eq!(expired, 1);
    api.get(&format!("/api/games/{id}")).await.expect_error(404, "expire");
}

/// GETs an asset: status, content type and body.
async fn asset(api: &Api, name: &str) -> (u16, String, String) {
    use axum::body::Body;
    use axum::http::{Request, header};
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    let request = Request::builder().uri(format!("/assets/{name}")).body(Body::empty()).unwrap();
    let response = api.router.clone().oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let content_type =
        response.headers().get(header::CONTENT_TYPE).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, content_type, String::from_utf8(body.to_vec()).unwrap())
}

/// The modules a script at `name` imports: the `'./x.js'` and `'../x.js'`
/// of its `import … from` lines, as paths under `/assets/`.
fn imported_modules(name: &str, script: &str) -> Vec<String> {
    let dir: Vec<&str> = name.split('/').collect::<Vec<_>>().split_last().map(|(_, d)| d.to_vec()).unwrap_or_default();
    script
        .lines()
        .filter(|line| line.starts_with("import "))
        .filter_map(|line| line.split(" from '").nth(1)?.split('\'').next().map(str::to_owned))
        .map(|spec| {
            let mut path: Vec<&str> = dir.clone();
            for part in spec.split('/') {
                match part {
                    "." => {}
                    ".." => {
                        path.pop();
                    }
                    other => path.push(other),
                }
            }
            path.join("/")
        })
        .collect()
}

/// An import cycle among `graph`'s modules, if there is one.
fn import_cycle(graph: &std::collections::BTreeMap<String, Vec<String>>) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        graph: &std::collections::BTreeMap<String, Vec<String>>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == module) {
            let mut cycle = path[start..].to_vec();
            cycle.push(module.to_owned());
            return Some(cycle);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_owned());
        for next in graph.get(module).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(module.to_owned());
        None
    }
    let mut done = std::collections::BTreeSet::new();
    graph.keys().find_map(|module| visit(module, graph, &mut Vec::new(), &mut done))
}

#[tokio::test]
async fn every_module_the_page_imports_is_served_as_javascript_without_an_import_cycle() {
    let api = Api::new();
    let (status, content_type, _) = asset(&api, "style.css").await;
    assert_eq!((status, content_type.as_str()), (200, "text/css; charset=utf-8"));
    let mut seen = vec!["app.js".to_owned()];
    let mut graph = std::collections::BTreeMap::new();
    let mut next = 0;
    while next < seen.len() {
        let name = seen[next].clone();
        next += 1;
        let (status, content_type, script) = asset(&api, &name).await;
        assert_eq!(status, 200, "/assets/{name}");
        assert_eq!(content_type, "text/javascript; charset=utf-8", "/assets/{name}");
        assert!(!script.contains("export let ") && !script.contains("export var "), "{name} exports a variable");
        let imports = imported_modules(&name, &script);
        for module in &imports {
            if !seen.contains(module) {
                seen.push(module.clone());
            }
        }
        graph.insert(name, imports);
    }
    assert_eq!(import_cycle(&graph), None, "the page's modules import one another in a cycle");
    assert!(seen.len() > 5, "the page imports its modules: {seen:?}");
    let missing = api.get("/assets/nope.js").await;
    missing.expect_error(404, "no such asset");
    api.get("/assets/index.html").await.expect_error(404, "no such asset");
}

/// A move against the computer reads its game from storage once: the
/// computer's reply is chosen and stored from the record in memory (only
/// the game's version is read back before it is stored).
#[tokio::test]
async fn a_move_against_the_computer_reads_the_game_once() {
    let api = Api::new();
    for rules in ["nim", "kayles", "chomp"] {
        let (id, token, game) = api.create(json!({"rules": rules, "mode": "computer"})).await;
        let loads = || {
            api.store
                .run(None, |_| Box::pin(async { Ok::<_, bouton_web::ApiError>(bouton_web::store::games::loads()) }))
        };
        let before = loads().await.unwrap();
        let mv = api.get(&format!("/api/games/{id}/hint")).await.expect(200)["suggestion"]["text"].clone();
        let after_hint = loads().await.unwrap();
        let played = api
            .post(&format!("/api/games/{id}/moves"), Some(&token), json!({"move": mv, "ply": game["ply"]}))
            .await
            .expect(200);
        assert_eq!(played["ply"], 2, "{rules}: the computer replied: {played}");
        assert_eq!(loads().await.unwrap() - after_hint, 1, "{rules}: one read for the move and the reply");
        assert!(after_hint - before <= 1, "{rules}: a hint reads the game once");
    }
}

#[tokio::test]
async fn health_and_readiness_answer_on_the_backend_under_test() {
    let api = Api::new();
    assert_eq!(api.get("/healthz").await.expect(200), json!({"status": "ok"}));
    let ready = api.get("/readyz").await.expect(200);
    assert_eq!(ready["status"], "ready");
    // The suite runs on the backend it was asked for.
    let expected = if common::on_postgres() { "postgres" } else { "sqlite" };
    assert_eq!(ready["database"], expected);
    assert_eq!(api.store.is_postgres(), expected == "postgres");
}

#[tokio::test]
async fn the_hourly_sweep_is_claimed_once_per_period() {
    use bouton_web::store::games::claim_sweep;
    let api = Api::new();
    let claim = |period: i64| api.store.run(None, move |conn| Box::pin(claim_sweep(conn, "expiry", period)));
    assert!(claim(3540).await.unwrap(), "nobody swept yet");
    assert!(!claim(3540).await.unwrap(), "swept a moment ago: another instance leaves it");
    assert!(claim(0).await.unwrap(), "a period over: due again");
    let unknown = api.store.run(None, |conn| Box::pin(claim_sweep(conn, "no such sweep", 0))).await.unwrap();
    assert!(!unknown);
}
