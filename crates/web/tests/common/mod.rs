//! Shared helpers: the application without a socket, and JSON calls to it.

#![allow(dead_code)]

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use bouton_web::throwaway::ThrowawayPostgres;
use bouton_web::{AppState, Database, ServerConfig, Store, app};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// Whether the suite runs on PostgreSQL: in the test binaries whose name
/// ends in `_postgres` (`api_postgres.rs` runs `api.rs` again), or when
/// `BOUTON_TEST_DB=postgres`; `BOUTON_TEST_DB=sqlite` forces SQLite.
pub fn on_postgres() -> bool {
    match std::env::var("BOUTON_TEST_DB").as_deref() {
        Ok("postgres") => true,
        Ok("sqlite") => false,
        Ok(other) => panic!("BOUTON_TEST_DB is sqlite or postgres, not {other:?}"),
        Err(_) => module_path!().split("::").next().is_some_and(|krate| krate.ends_with("_postgres")),
    }
}

/// The database the suite runs on: a private in-memory SQLite database, or
/// (see [`on_postgres`]) a fresh database on a throw-away PostgreSQL started
/// once per test binary (one suite, two backends; a server that cannot
/// start fails the test, never skips it).
pub fn test_database() -> Database {
    if on_postgres() {
        static SERVER: std::sync::OnceLock<ThrowawayPostgres> = std::sync::OnceLock::new();
        // The suite never crashes the server: no need to sync its files.
        let server = SERVER.get_or_init(|| {
            ThrowawayPostgres::start_with(&["fsync=off", "synchronous_commit=off"])
                .unwrap_or_else(|e| panic!("the suite runs on PostgreSQL but none could be started: {e}"))
        });
        Database::Postgres(server.create_database().expect("a fresh PostgreSQL database"))
    } else {
        Database::Sqlite(":memory:".into())
    }
}

/// A store on [`test_database`].
pub fn test_store() -> Store {
    Store::connect(&test_database()).expect("the test database")
}

/// The app over a fresh database (see [`test_database`]).
pub struct Api {
    pub router: Router,
    pub store: Store,
}

/// A response: status and JSON body (Null when the body is not JSON).
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: StatusCode,
    pub json: Value,
}

impl Reply {
    /// Asserts the status and returns the body.
    pub fn expect(self, status: u16) -> Value {
        assert_eq!(self.status.as_u16(), status, "unexpected status; body: {}", self.json);
        self.json
    }

    /// Asserts a JSON error with this status whose message contains `words`.
    pub fn expect_error(self, status: u16, words: &str) {
        let message = self.json["error"].as_str().unwrap_or_else(|| panic!("no error message in {}", self.json));
        assert_eq!(self.status.as_u16(), status, "unexpected status for error {message:?}");
        assert!(message.contains(words), "error {message:?} does not mention {words:?}");
        assert!(!message.contains('\n'), "error {message:?} is not one line");
    }
}

impl Api {
    pub fn new() -> Api {
        Api::with_config(ServerConfig::default())
    }

    /// The app under `config` (timeouts, rate limits).
    pub fn with_config(config: ServerConfig) -> Api {
        let store = test_store();
        Api { router: app(AppState::new(store.clone()).with_config(config)), store }
    }

    /// Sends a request with an optional bearer token and raw body.
    pub async fn raw(&self, method: &str, uri: &str, token: Option<&str>, body: Vec<u8>) -> Reply {
        let mut request = Request::builder().method(method).uri(uri);
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        if !body.is_empty() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        let response = self.router.clone().oneshot(request.body(Body::from(body)).unwrap()).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Reply { status, json }
    }

    pub async fn get(&self, uri: &str) -> Reply {
        self.raw("GET", uri, None, Vec::new()).await
    }

    pub async fn get_as(&self, uri: &str, token: &str) -> Reply {
        self.raw("GET", uri, Some(token), Vec::new()).await
    }

    pub async fn post(&self, uri: &str, token: Option<&str>, body: Value) -> Reply {
        self.raw("POST", uri, token, serde_json::to_vec(&body).unwrap()).await
    }

    /// Creates a game; returns (id, token, game).
    pub async fn create(&self, body: Value) -> (String, String, Value) {
        let grant = self.post("/api/games", None, body).await.expect(201);
        let id = grant["game"]["id"].as_str().unwrap().to_owned();
        let token = grant["token"].as_str().unwrap().to_owned();
        (id, token, grant["game"].clone())
    }

    /// Plays the hint's suggestion for whoever is to move until the game
    /// ends (the token must move for both sides); returns the final state.
    pub async fn finish_with_hints(&self, id: &str, token: &str) -> Value {
        loop {
            let game = self.get(&format!("/api/games/{id}")).await.expect(200);
            if game["over"] == true {
                return game;
            }
            let hint = self.get(&format!("/api/games/{id}/hint")).await.expect(200);
            let text = hint["suggestion"]["text"].as_str().unwrap_or_else(|| panic!("no suggestion in {hint}"));
            let body = serde_json::json!({"move": text, "ply": game["ply"]});
            self.post(&format!("/api/games/{id}/moves"), Some(token), body).await.expect(200);
        }
    }

    /// Plays `heap take` at the game's current ply.
    pub async fn play(&self, id: &str, token: &str, heap: u64, take: u64, ply: u64) -> Reply {
        let body = serde_json::json!({ "heap": heap, "take": take, "ply": ply });
        self.post(&format!("/api/games/{id}/moves"), Some(token), body).await
    }
}

/// Heaps of a game view as numbers.
pub fn heaps(game: &Value) -> Vec<u64> {
    game["heaps"].as_array().unwrap().iter().map(|h| h.as_u64().unwrap()).collect()
}
