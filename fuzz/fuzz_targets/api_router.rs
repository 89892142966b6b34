//! The whole browser-game application (`bouton_web::app`) over an
//! in-memory store, driven with `tower::ServiceExt::oneshot`: fuzzed bodies
//! for `POST /api/games`, and for `…/moves` and `…/undo` of a fresh
//! two-person game of each rule set. Every answer is a 2xx with the state,
//! or a 4xx whose body is `{"error": "…"}`; never a 5xx.
//!
//! Input: one byte choosing the route and rule set, then the body. Creation
//! bodies in which the computer would move at once (`computer-first`,
//! `demo`) are not sent: the computer's search is the hostile-input
//! benchmark's subject, not a parser's.
#![no_main]

use std::cell::RefCell;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use bouton_grundy::{AnyRules, RuleSet};
use bouton_rules::{Convention, Rules};
use bouton_web::service::CreateRequest;
use bouton_web::{AppState, Mode, ServerConfig, Store, app};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use tokio::runtime::Runtime;
use tower::ServiceExt;

/// Requests answered before the store is replaced by an empty one (the
/// games created would otherwise pile up in memory).
const FRESH_STORE_EVERY: usize = 20_000;

struct Harness {
    runtime: Runtime,
    router: Router,
    requests: usize,
}

impl Harness {
    fn new() -> Harness {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        Harness { runtime, router: Harness::router(), requests: 0 }
    }

    fn router() -> Router {
        let store = Store::open(std::path::Path::new(":memory:")).expect("an in-memory store");
        let config = ServerConfig::default().with_rate_limits("off".parse().expect("no rate limits"));
        app(AppState::new(store).with_config(config))
    }

    /// Sends a request; answers the status and the JSON body.
    fn send(&mut self, method: Method, uri: &str, token: Option<&str>, body: Vec<u8>) -> (StatusCode, Value) {
        self.requests += 1;
        if self.requests.is_multiple_of(FRESH_STORE_EVERY) {
            self.router = Harness::router();
        }
        let mut request = Request::builder().method(method).uri(uri).header(header::CONTENT_TYPE, "application/json");
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let request = request.body(Body::from(body)).expect("a request");
        let router = self.router.clone();
        self.runtime.block_on(async move {
            let response = router.oneshot(request).await.expect("the router answers");
            let status = response.status();
            let bytes = response.into_body().collect().await.expect("a body").to_bytes();
            let value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
                panic!("{status}: the body is not JSON ({e}): {:?}", String::from_utf8_lossy(&bytes))
            });
            (status, value)
        })
    }
}

/// Checks an answer: a success, or a client error explained in JSON.
fn check(status: StatusCode, body: &Value, what: &str) -> bool {
    assert!(!status.is_server_error(), "{what}: {status} {body}");
    if status.is_success() {
        return true;
    }
    assert!(status.is_client_error(), "{what}: {status} {body}");
    assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{what}: {status} without an error: {body}");
    false
}

/// A fresh two-person game of `set`: its id and token.
fn new_game(h: &mut Harness, set: &RuleSet) -> (String, String) {
    let body = json!({"rules": set.to_string(), "mode": "local"}).to_string().into_bytes();
    let (status, value) = h.send(Method::POST, "/api/games", None, body);
    assert_eq!(status, StatusCode::CREATED, "{set}: {value}");
    let id = value["game"]["id"].as_str().expect("an id").to_owned();
    let token = value["token"].as_str().expect("a token").to_owned();
    (id, token)
}

fn run(h: &mut Harness, which: u8, body: &[u8]) {
    let examples = RuleSet::examples();
    let set = &examples[usize::from(which / 4) % examples.len()];
    match which % 4 {
        0 | 3 => {
            let blank = body.iter().all(u8::is_ascii_whitespace);
            let request = if blank {
                serde_json::from_slice(b"{}").ok()
            } else {
                serde_json::from_slice::<CreateRequest>(body).ok()
            };
            if request.is_some_and(|r| matches!(r.mode, Mode::ComputerFirst | Mode::Demo)) {
                return;
            }
            let (status, value) = h.send(Method::POST, "/api/games", None, body.to_vec());
            if check(status, &value, "create") {
                assert_eq!(status, StatusCode::CREATED, "{value}");
                assert_eq!(value["game"]["ply"], 0, "{value}");
                let id = value["game"]["id"].as_str().expect("an id").to_owned();
                let (status, again) = h.send(Method::GET, &format!("/api/games/{id}"), None, Vec::new());
                assert_eq!(status, StatusCode::OK, "{again}");
                assert_eq!(again["heaps"], value["game"]["heaps"]);
            }
        }
        1 => {
            let (id, token) = new_game(h, set);
            let (status, value) = h.send(Method::POST, &format!("/api/games/{id}/moves"), Some(&token), body.to_vec());
            if check(status, &value, "move") {
                assert_eq!(value["ply"], 1, "{set}: one move played: {value}");
            }
        }
        _ => {
            // Undo after one legal move.
            let (id, token) = new_game(h, set);
            let rules = AnyRules::new(set.clone(), Convention::Normal);
            let start = rules.position(&set.default_start()).expect("the usual start");
            let first = rules.legal_moves(&start).next().expect("a move from the usual start");
            let play = json!({"move": first.to_string(), "ply": 0}).to_string().into_bytes();
            let (status, value) = h.send(Method::POST, &format!("/api/games/{id}/moves"), Some(&token), play);
            assert_eq!(status, StatusCode::OK, "{set}: {first}: {value}");
            let (status, value) = h.send(Method::POST, &format!("/api/games/{id}/undo"), Some(&token), body.to_vec());
            if check(status, &value, "undo") {
                assert_eq!(value["ply"], 0, "{set}: the move undone: {value}");
            }
        }
    }
}

thread_local! {
    static HARNESS: RefCell<Option<Harness>> = const { RefCell::new(None) };
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, body)) = data.split_first() else { return };
    HARNESS.with(|cell| {
        let mut slot = cell.borrow_mut();
        let h = slot.get_or_insert_with(Harness::new);
        run(h, which, body);
    });
});
