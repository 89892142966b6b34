//! The server stays up: positions that once crashed it answer within their
//! budget, heavy work runs on a bounded pool (503 with `Retry-After` when
//! it is full) and stops when its client hangs up, a review is computed
//! once, event streams are woken only by their own game, and online games
//! keep hints and analysis off unless their creator allowed them.

use axum::body::Body;
use axum::http::{Request, header};
use bouton_games::Budget;
use bouton_web::pool::{Pool, PoolConfig};
use bouton_web::{ApiError, AppState, app};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

use super::common::Api;

/// Polls every few milliseconds until `done`; gives up (failing the test)
/// after two minutes, far beyond what any of it takes.
async fn until(mut done: impl FnMut() -> bool) {
    for _ in 0..60_000 {
        if done() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    panic!("gave up waiting");
}

/// The app computing on `pool`.
fn api_with(pool: &Pool) -> Api {
    let store = super::common::test_store();
    Api { router: app(AppState::new(store.clone()).with_pool(pool.clone())), store }
}

/// Twelve heaps of fifty, as a query.
fn twelve_fifties() -> String {
    ["50"; 12].join(",")
}

/// Occupies one of `pool`'s workers until the answer is dropped.
async fn occupy(pool: &Pool) -> tokio::task::JoinHandle<()> {
    let before = pool.stats().running;
    let handle = tokio::spawn({
        let pool = pool.clone();
        async move {
            let _ = pool
                .compute(|budget: &Budget| {
                    while !budget.cancel().is_cancelled() {
                        std::thread::yield_now();
                    }
                })
                .await;
        }
    });
    until(|| pool.stats().running > before).await;
    handle
}

#[tokio::test]
async fn computer_first_games_on_twelve_heaps_of_fifty_are_created_and_read_back() {
    let api = Api::new();
    for (rules, misere) in [("moore:8", false), ("moore:8", true), ("lasker", true), ("kayles", true)] {
        let body = json!({"rules": rules, "misere": misere, "position": vec![50; 12], "mode": "computer-first"});
        let (id, _, game) = api.create(body).await;
        assert_eq!(game["ply"], 1, "{rules} misère {misere}: the computer moved first");
        assert_eq!(game["to_move"], "second");
        let again = api.get(&format!("/api/games/{id}")).await.expect(200);
        assert_eq!(again["heaps"], game["heaps"], "{rules}: a reload reads the same game");
    }
}

#[tokio::test]
async fn moores_nim_on_twelve_heaps_of_fifty_is_analysed_by_the_theorem() {
    let api = Api::new();
    let position = twelve_fifties();
    for misere in [false, true] {
        let uri = format!("/api/analyze?rules=moore:8&position={position}&misere={misere}");
        let analysis = api.get(&uri).await.expect(200);
        assert_eq!(analysis["method"], "moore-theorem");
        // Every column of 50 = 110010 counts 12 ones, not a multiple of 9.
        assert_eq!(analysis["winner"], "mover");
        assert!(!analysis["winning_moves"].as_array().unwrap().is_empty());
    }
    let (id, token, _) = api.create(json!({"rules": "moore:8", "position": vec![50; 12], "mode": "local"})).await;
    assert_eq!(api.get(&format!("/api/games/{id}/analysis")).await.expect(200)["winner"], "mover");
    let hint = api.get_as(&format!("/api/games/{id}/hint"), &token).await.expect(200);
    assert_eq!(hint["winner"], "mover");
    assert!(hint["suggestion"]["text"].is_string());
}

#[tokio::test]
async fn misere_searches_too_large_for_the_budget_answer_422_or_say_so_in_the_hint() {
    let api = Api::new();
    let position = twelve_fifties();
    for rules in ["kayles", "lasker"] {
        api.get(&format!("/api/analyze?rules={rules}&position={position}&misere=true"))
            .await
            .expect_error(422, "not available within the limits");
        let (id, _, _) =
            api.create(json!({"rules": rules, "misere": true, "position": vec![50; 12], "mode": "local"})).await;
        api.get(&format!("/api/games/{id}/analysis")).await.expect_error(422, "not available within the limits");
        let hint = api.get(&format!("/api/games/{id}/hint")).await.expect(200);
        assert!(hint["unavailable"].as_str().unwrap().contains("within the limits"), "{hint}");
        assert_eq!(hint["suggestion"], Value::Null);
    }
}

#[tokio::test]
async fn a_full_pool_answers_503_with_retry_after_and_cheap_nim_work_still_runs() {
    let pool = Pool::new(PoolConfig::default().with_workers(1).with_queue(0));
    let api = api_with(&pool);
    let (kayles, _, _) = api.create(json!({"rules": "kayles", "position": [7, 11], "mode": "local"})).await;
    let blocker = occupy(&pool).await;
    let request = Request::get(format!("/api/games/{kayles}/analysis")).body(Body::empty()).unwrap();
    let response = api.router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), 503);
    assert_eq!(response.headers()[header::RETRY_AFTER], Pool::RETRY_AFTER.to_string());
    let body: Value = serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap();
    let message = body["error"].as_str().unwrap();
    assert!(message.contains("busy") && !message.contains('\n'), "{message}");
    api.get("/api/analyze?rules=kayles&position=7,11").await.expect_error(503, "try again");
    // A new game, or a person's move, is kept and answered even so; the
    // computer replies once the pool has room.
    let (first, _, game) = api.create(json!({"rules": "kayles", "position": [7, 11], "mode": "computer-first"})).await;
    assert_eq!((game["ply"].as_u64(), game["to_move"].as_str()), (Some(0), Some("first")));
    let (second, token, _) = api.create(json!({"rules": "kayles", "position": [7, 11], "level": "perfect"})).await;
    let game = api.post(&format!("/api/games/{second}/moves"), Some(&token), json!({"move": "1 1", "ply": 0})).await;
    assert_eq!(game.expect(200)["ply"], 1);
    // Nim's closed forms do not queue behind other games' analyses.
    let (nim, token, _) = api.create(json!({"heaps": [3, 5, 7], "level": "perfect"})).await;
    assert_eq!(api.play(&nim, &token, 1, 1, 0).await.expect(200)["ply"], 2);
    api.get(&format!("/api/games/{nim}/hint")).await.expect(200);
    assert_eq!(pool.stats().refused, 4);
    blocker.abort();
    // The deferred replies come by themselves (nobody reads the games).
    for (id, plies) in [(first, 1), (second, 2)] {
        let moves = |id: String| {
            api.store.run(None, move |conn| Box::pin(async move { bouton_web::store::games::moves(conn, &id).await }))
        };
        for attempt in 0.. {
            if moves(id.clone()).await.unwrap() == plies {
                break;
            }
            assert!(attempt < 6_000, "gave up waiting for the computer's deferred move in {id}");
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
    assert_eq!(api.get(&format!("/api/games/{kayles}/analysis")).await.expect(200)["total"], 2 ^ 6);
}

#[tokio::test]
async fn an_analysis_whose_client_hung_up_is_called_off() {
    // A budget under which a misère Lasker's Nim search of 12 heaps of 50
    // would run for seconds: only the cancel flag stops it soon.
    let pool =
        Pool::new(PoolConfig::default().with_workers(1).with_queue(1).with_budget(Budget::new(u64::MAX, 512 << 20)));
    let api = api_with(&pool);
    let uri = format!("/api/analyze?rules=lasker&misere=true&position={}", twelve_fifties());
    let hung_up = tokio::spawn(api.router.clone().oneshot(Request::get(uri).body(Body::empty()).unwrap()));
    until(|| pool.stats().running == 1).await;
    hung_up.abort();
    until(|| pool.stats().running == 0).await;
    let stats = pool.stats();
    assert_eq!((stats.cancelled, stats.finished), (1, 0), "{stats:?}");
}

#[tokio::test]
async fn work_waiting_in_the_queue_is_dropped_with_its_request() {
    let pool = Pool::new(PoolConfig::default().with_workers(1).with_queue(1));
    let api = api_with(&pool);
    let (id, _, _) = api.create(json!({"rules": "kayles", "position": [7, 11], "mode": "local"})).await;
    let blocker = occupy(&pool).await;
    let request = Request::get(format!("/api/games/{id}/hint")).body(Body::empty()).unwrap();
    let waiting = tokio::spawn(api.router.clone().oneshot(request));
    until(|| pool.stats().waiting == 1).await;
    waiting.abort();
    until(|| pool.stats().waiting == 0).await;
    assert_eq!(pool.stats().dropped, 1);
    blocker.abort();
    until(|| pool.stats().running == 0).await;
    assert_eq!(pool.stats().finished, 0, "the dropped hint never ran");
}

#[tokio::test]
async fn a_review_is_computed_once_after_the_end_and_kept_until_the_game_expires() {
    let pool = Pool::new(PoolConfig::default());
    let api = api_with(&pool);
    let (id, token, _) = api.create(json!({"rules": "kayles", "position": [4, 6], "mode": "local"})).await;
    let review = format!("/api/games/{id}/review");
    api.get(&review).await.expect_error(409, "after the end");
    api.finish_with_hints(&id, &token).await;
    let computed = pool.stats().finished;
    let first = api.get(&review).await.expect(200);
    assert_eq!(pool.stats().finished, computed + 1, "the review was computed on the pool");
    let second = api.get(&review).await.expect(200);
    assert_eq!(second, first);
    assert_eq!(pool.stats().finished, computed + 1, "and not again");
    // It is read from the table: what is kept there is what is answered.
    let target = id.clone();
    api.store
        .run(None, move |conn| {
            Box::pin(async move {
                let tampered = r#"{"first":null,"second":null,"unjudged":7}"#;
                sqlx::query("UPDATE reviews SET review = $2 WHERE game_id = $1")
                    .bind(target)
                    .bind(tampered)
                    .execute(conn)
                    .await
                    .map(drop)
                    .map_err(ApiError::from)
            })
        })
        .await
        .unwrap();
    assert_eq!(api.get(&review).await.expect(200)["unjudged"], 7);
    // Expiry deletes it with its game.
    let deleted = api.store.run(None, |conn| Box::pin(bouton_web::store::games::expire(conn, i64::MAX))).await.unwrap();
    assert_eq!(deleted, 1);
    let left = api.store.run(None, |conn| Box::pin(bouton_web::store::games::reviews(conn))).await.unwrap();
    assert_eq!(left, 0);
    api.get(&review).await.expect_error(404, "no game");
}

#[tokio::test]
async fn a_long_game_is_reviewed_within_one_budget() {
    // Misère Kayles, 6 rows of 50, played at random to the end: hundreds of
    // moves, most from positions too large to search. The review answers
    // within one budget, with those moves unjudged.
    let api = Api::new();
    let (id, token, _) = api
        .create(json!({"rules": "kayles", "misere": true, "position": vec![50; 6], "mode": "demo", "level": "random"}))
        .await;
    let mut ply = 0;
    loop {
        let game = api.post(&format!("/api/games/{id}/step"), Some(&token), json!({"ply": ply})).await.expect(200);
        ply += 1;
        if game["over"] == true {
            break;
        }
    }
    let review = api.get(&format!("/api/games/{id}/review")).await.expect(200);
    // Its end is judged (small positions), its opening is not.
    let unjudged = review["unjudged"].as_u64().unwrap();
    assert!(unjudged > 0 && unjudged < ply, "{ply} moves: {review}");
}

/// The next `state` event of an event stream.
async fn next_state(body: &mut Body) -> Value {
    loop {
        let frame = body.frame().await.expect("the stream goes on").expect("a frame");
        let Ok(data) = frame.into_data() else { continue };
        let text = String::from_utf8(data.to_vec()).unwrap();
        if let Some(json) = text.lines().find_map(|line| line.strip_prefix("data:")) {
            return serde_json::from_str(json.trim()).unwrap();
        }
    }
}

#[tokio::test]
async fn a_move_wakes_only_the_watchers_of_its_own_game() {
    let api = Api::new();
    let (a, a_token, _) = api.create(json!({"heaps": [3, 5, 7], "mode": "local"})).await;
    let (b, b_token, _) = api.create(json!({"heaps": [3, 5, 7], "mode": "local"})).await;
    // An event stream of game A, as the page opens it.
    let request = Request::get(format!("/api/games/{a}/events")).body(Body::empty()).unwrap();
    let mut stream = api.router.clone().oneshot(request).await.unwrap().into_body();
    assert_eq!(next_state(&mut stream).await["ply"], 0);
    assert_eq!(api.store.watchers().games(), 1, "one channel, for game A");
    // A watcher of A, as the stream holds one.
    let watch = api.store.watch(&a);
    watch.seen(0);
    for ply in 0..3 {
        api.play(&b, &b_token, 1, 1, ply).await.expect(200);
    }
    assert!(!watch.has_changed(), "moves in B do not wake A's watchers");
    assert!(!api.store.watchers().is_watched(&b));
    api.play(&a, &a_token, 3, 2, 0).await.expect(200);
    assert!(watch.has_changed(), "a move in A does");
    let state = next_state(&mut stream).await;
    assert_eq!((state["ply"].as_u64(), state["heaps"].clone()), (Some(1), json!([3, 5, 5])));
    drop(watch);
    drop(stream);
    until(|| api.store.watchers().games() == 0).await;
}

#[tokio::test]
async fn online_games_keep_hints_and_analysis_off_until_the_end_unless_allowed() {
    let api = Api::new();
    let (id, owner, game) = api.create(json!({"mode": "online", "heaps": [1, 2]})).await;
    assert_eq!(game["help"], false);
    let grant = api.post(&format!("/api/games/{id}/join"), None, json!({})).await.expect(200);
    let guest = grant["token"].as_str().unwrap().to_owned();
    for token in [&owner, &guest] {
        api.get_as(&format!("/api/games/{id}/hint"), token).await.expect_error(409, "off for both players");
        api.get_as(&format!("/api/games/{id}/analysis"), token).await.expect_error(409, "off for both players");
    }
    api.get(&format!("/api/games/{id}/hint")).await.expect_error(409, "off");
    api.get(&format!("/api/games/{id}/review")).await.expect_error(409, "after the end");
    // 1 2: the first player takes 1 from heap 2, and wins after 1 1.
    api.play(&id, &owner, 2, 1, 0).await.expect(200);
    api.play(&id, &guest, 1, 1, 1).await.expect(200);
    let game = api.play(&id, &owner, 2, 1, 2).await.expect(200);
    assert_eq!((game["over"].as_bool(), game["help"].as_bool()), (Some(true), Some(true)));
    api.get(&format!("/api/games/{id}/analysis")).await.expect(200);
    let review = api.get(&format!("/api/games/{id}/review")).await.expect(200);
    assert_eq!(review["first"], Value::Null);

    // Allowed at creation: open for both seats while the game runs.
    let (id, owner, game) = api.create(json!({"mode": "online", "heaps": [1, 2], "help": true})).await;
    assert_eq!(game["help"], true);
    api.get_as(&format!("/api/games/{id}/hint"), &owner).await.expect(200);
    api.get(&format!("/api/games/{id}/analysis")).await.expect(200);

    // Other modes always have them.
    let (id, _, game) = api.create(json!({"mode": "computer", "heaps": [1, 2]})).await;
    assert_eq!(game["help"], true);
    api.get(&format!("/api/games/{id}/hint")).await.expect(200);
}
