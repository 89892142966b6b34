//! The whole browser-game application (`bouton_web::app`) over an
//! in-memory store, driven with `tower::ServiceExt::oneshot`: fuzzed bodies
//! for `POST /api/games`, for `…/moves` on a two-person game of each rule
//! set at its start, and for `…/undo` on one after its first move. Every
//! answer is a 2xx with the state, or a 4xx whose body is
//! `{"error": "…"}`; never a 5xx. A created game reads back; a move played
//! counts one ply, an undo takes it back (and is then undone or replayed, so
//! that every input meets the same games).
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
use bouton_games::{AnyRules, RuleSet};
use bouton_rules::{Convention, Rules};
use bouton_web::service::CreateRequest;
use bouton_web::{AppState, Mode, ServerConfig, Store, app};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use tokio::runtime::Runtime;
use tower::ServiceExt;

/// Inputs run before the store is replaced by an empty one (the games
/// created would otherwise pile up in memory).
const FRESH_STORE_EVERY: usize = 10_000;

/// A game of one rule set: its address, its token, and the text of the
/// move that starts it.
#[derive(Clone)]
struct Fixture {
    set: RuleSet,
    id: String,
    token: String,
    first: String,
}

struct Harness {
    runtime: Runtime,
    router: Router,
    /// Per rule set, a game at its start.
    fresh: Vec<Fixture>,
    /// Per rule set, a game after its first move.
    moved: Vec<Fixture>,
    inputs: usize,
}

impl Harness {
    fn new() -> Harness {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        let mut h = Harness { runtime, router: Harness::router(), fresh: Vec::new(), moved: Vec::new(), inputs: 0 };
        h.fixtures();
        h
    }

    fn router() -> Router {
        let store = Store::open(std::path::Path::new(":memory:")).expect("an in-memory store");
        let config = ServerConfig::default().with_rate_limits("off".parse().expect("no rate limits"));
        app(AppState::new(store).with_config(config))
    }

    /// Two games of every rule set, the second after its first move.
    fn fixtures(&mut self) {
        self.fresh.clear();
        self.moved.clear();
        for set in RuleSet::examples() {
            let rules = AnyRules::new(set.clone(), Convention::Normal);
            let start = rules.position(&set.default_start()).expect("the usual start");
            let first = rules.legal_moves(&start).next().expect("a move from the usual start").to_string();
            for moved in [false, true] {
                let body = json!({"rules": set.to_string(), "mode": "local"}).to_string().into_bytes();
                let (status, value) = self.send(Method::POST, "/api/games", None, body);
                assert_eq!(status, StatusCode::CREATED, "{set}: {value}");
                let id = value["game"]["id"].as_str().expect("an id").to_owned();
                let token = value["token"].as_str().expect("a token").to_owned();
                let fixture = Fixture { set: set.clone(), id, token, first: first.clone() };
                if moved {
                    self.act(&fixture, "moves", json!({"move": fixture.first, "ply": 0}), 1);
                    self.moved.push(fixture);
                } else {
                    self.fresh.push(fixture);
                }
            }
        }
    }

    /// Before each input: now and then, an empty store and new games.
    fn next_input(&mut self) {
        self.inputs += 1;
        if self.inputs.is_multiple_of(FRESH_STORE_EVERY) {
            self.router = Harness::router();
            self.fixtures();
        }
    }

    /// Sends a request; answers the status and the JSON body.
    fn send(&mut self, method: Method, uri: &str, token: Option<&str>, body: Vec<u8>) -> (StatusCode, Value) {
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

    /// A known-good action on a fixture, which must leave it at `ply`.
    fn act(&mut self, game: &Fixture, action: &str, body: Value, ply: u64) {
        let uri = format!("/api/games/{}/{action}", game.id);
        let (status, value) = self.send(Method::POST, &uri, Some(&game.token), body.to_string().into_bytes());
        assert_eq!((status, &value["ply"]), (StatusCode::OK, &json!(ply)), "{}: {action}: {value}", game.set);
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

fn create(h: &mut Harness, body: &[u8]) {
    let blank = body.iter().all(u8::is_ascii_whitespace);
    let request =
        if blank { serde_json::from_slice(b"{}").ok() } else { serde_json::from_slice::<CreateRequest>(body).ok() };
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

fn run(h: &mut Harness, which: u8, body: &[u8]) {
    let index = usize::from(which / 4) % h.fresh.len();
    match which % 4 {
        0 | 3 => create(h, body),
        1 => {
            let game = h.fresh[index].clone();
            let uri = format!("/api/games/{}/moves", game.id);
            let (status, value) = h.send(Method::POST, &uri, Some(&game.token), body.to_vec());
            if check(status, &value, "move") {
                assert_eq!(value["ply"], 1, "{}: one move played: {value}", game.set);
                h.act(&game, "undo", json!({"ply": 1}), 0);
            }
        }
        _ => {
            let game = h.moved[index].clone();
            let uri = format!("/api/games/{}/undo", game.id);
            let (status, value) = h.send(Method::POST, &uri, Some(&game.token), body.to_vec());
            if check(status, &value, "undo") {
                assert_eq!(value["ply"], 0, "{}: the move undone: {value}", game.set);
                h.act(&game, "moves", json!({"move": game.first, "ply": 0}), 1);
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
        h.next_input();
        run(h, which, body);
    });
});
