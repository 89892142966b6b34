//! The HTTP routes: JSON API, server-sent events, the page and its assets.
//! Handlers only translate HTTP into calls of [`crate::service`] on the
//! storage thread and back.

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::from_fn_with_state;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use bouton_games::{AnyRules, Budget, Method};
use bouton_rules::Convention;
use futures_util::Stream;
use rand::Rng;
use serde::de::DeserializeOwned;
use tokio::sync::OnceCell;

use crate::body::{self, AnalyzeQuery, AnalyzeRequest, parse_body, parse_optional_body};
use crate::config::ServerConfig;
use crate::error::ApiError;
use crate::limits::MAX_BODY_BYTES;
use crate::pool::{Pool, PoolConfig};
use crate::position_analysis::RulesAnalysisView;
use crate::rate_limit::{self, Kind, Limiter};
use crate::record::Record;
use crate::service::{self, CreateRequest, MoveRequest, PlyRequest, Secrets, Seen};
use crate::store::watch::{Known, Watch};
use crate::store::{Conn, JobFuture, Store, games};
use crate::views::{AnalysisView, GameView};
use crate::{coach, computer, connections, security};

/// The most heaps `GET /api/analyze` takes.
pub const MAX_ANALYZE_HEAPS: usize = 64;

/// What every handler shares.
///
/// ```
/// use bouton_web::{AppState, ServerConfig, Store};
///
/// let store = Store::open(std::path::Path::new(":memory:"))?;
/// let state = AppState::new(store).with_config(ServerConfig::default().with_rate_limits("off".parse()?));
/// assert_eq!(state.config.rate_limits, bouton_web::rate_limit::RateLimits::OFF);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct AppState {
    /// The storage thread.
    pub store: Store,
    /// Timeouts, the connection cap and the rate limits.
    pub config: ServerConfig,
    /// Where heavy computations run (see [`crate::pool`]).
    pub pool: Pool,
    /// Reviews being computed, so that pages asking at once share one.
    reviews: Reviews,
    /// Games whose computer move waits for room in the pool.
    deferred: Deferred,
}

impl AppState {
    /// The state over `store`, with the default [`ServerConfig`].
    pub fn new(store: Store) -> AppState {
        AppState {
            store,
            config: ServerConfig::default(),
            pool: Pool::new(PoolConfig::default()),
            reviews: Reviews::default(),
            deferred: Deferred::default(),
        }
    }

    /// The same state computing on `pool`.
    pub fn with_pool(mut self, pool: Pool) -> AppState {
        self.pool = pool;
        self
    }

    /// The same state under `config`.
    pub fn with_config(mut self, config: ServerConfig) -> AppState {
        self.config = config;
        self
    }
}

/// The whole application, without a socket: tests call it directly.
pub fn app(state: AppState) -> Router {
    let games = from_fn_with_state(Limiter::new(Kind::Games, &state.config.rate_limits), rate_limit::limit);
    let analyses = from_fn_with_state(Limiter::new(Kind::Analyses, &state.config.rate_limits), rate_limit::limit);
    let body_deadline = from_fn_with_state(state.config.body_timeout, connections::body_deadline);
    let api = Router::new()
        .route("/openapi.json", get(openapi))
        .route("/games", post(create).route_layer(games.clone()))
        .route("/games/{id}", get(state_of))
        .route("/games/{id}/moves", post(play))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/step", post(step))
        .route("/games/{id}/join", post(join).route_layer(games))
        .route("/games/{id}/hint", get(hint).route_layer(analyses.clone()))
        .route("/games/{id}/review", get(review).route_layer(analyses.clone()))
        .route("/games/{id}/analysis", get(analysis).route_layer(analyses.clone()))
        .route("/games/{id}/events", get(events))
        .route("/analyze", get(analyze).route_layer(analyses))
        .route("/rules", get(rules))
        .route("/rules/{rules}", get(rules_entry))
        .route("/stats", get(stats))
        .fallback(|| async { ApiError::NotFound("no such API route; see /api/openapi.json".into()) })
        .method_not_allowed_fallback(|| async {
            (
                StatusCode::METHOD_NOT_ALLOWED,
                Json(serde_json::json!({"error": "method not allowed on this route; see /api/openapi.json"})),
            )
        })
        .layer(axum::middleware::from_fn(body::json_errors));
    let router = Router::new()
        .route("/", get(page))
        .route("/g/{id}", get(page))
        .route("/assets/{*file}", get(asset))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .nest("/api", api)
        .fallback(|| async { ApiError::NotFound("no such page".into()) })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(body_deadline)
        .with_state(state);
    security::with_headers(router)
}

/// `GET /healthz`: the process is up and serving (liveness). Always 200.
async fn healthz() -> Json<serde_json::Value> {
    Json(serde_json::json!({"status": "ok"}))
}

/// How long `/readyz` waits for the database.
const READY_WITHIN: std::time::Duration = std::time::Duration::from_secs(2);

/// `GET /readyz`: the database answers (readiness): 200, or 503 with
/// `Retry-After` while it does not (a load balancer then sends requests to
/// the other instances).
async fn readyz(State(state): State<AppState>) -> Result<Json<serde_json::Value>, ApiError> {
    let database = if state.store.is_postgres() { "postgres" } else { "sqlite" };
    match tokio::time::timeout(READY_WITHIN, state.store.ping()).await {
        Ok(Ok(())) => Ok(Json(serde_json::json!({"status": "ready", "database": database}))),
        Ok(Err(e)) => Err(ApiError::Storage(format!("not ready: {e}"))),
        Err(_) => Err(ApiError::Storage(format!("not ready: the database did not answer within {READY_WITHIN:?}"))),
    }
}

async fn page() -> Html<&'static str> {
    Html(include_str!("../assets/index.html"))
}

const JAVASCRIPT: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// The files under `/assets/`: name, content type and content, embedded in
/// the binary. The page's scripts are ES modules that import one another;
/// the board renderers are under `boards/`.
const ASSETS: &[(&str, &str, &str)] = &[
    ("style.css", CSS, include_str!("../assets/style.css")),
    ("app.js", JAVASCRIPT, include_str!("../assets/app.js")),
    ("api.js", JAVASCRIPT, include_str!("../assets/api.js")),
    ("board.js", JAVASCRIPT, include_str!("../assets/board.js")),
    ("boards/common.js", JAVASCRIPT, include_str!("../assets/boards/common.js")),
    ("boards/fibonacci.js", JAVASCRIPT, include_str!("../assets/boards/fibonacci.js")),
    ("boards/grid.js", JAVASCRIPT, include_str!("../assets/boards/grid.js")),
    ("boards/heaps.js", JAVASCRIPT, include_str!("../assets/boards/heaps.js")),
    ("boards/index.js", JAVASCRIPT, include_str!("../assets/boards/index.js")),
    ("boards/pairs.js", JAVASCRIPT, include_str!("../assets/boards/pairs.js")),
    ("boards/rows.js", JAVASCRIPT, include_str!("../assets/boards/rows.js")),
    ("boards/stairs.js", JAVASCRIPT, include_str!("../assets/boards/stairs.js")),
    ("catalogue.js", JAVASCRIPT, include_str!("../assets/catalogue.js")),
    ("controller.js", JAVASCRIPT, include_str!("../assets/controller.js")),
    ("dom.js", JAVASCRIPT, include_str!("../assets/dom.js")),
    ("history.js", JAVASCRIPT, include_str!("../assets/history.js")),
    ("learn.js", JAVASCRIPT, include_str!("../assets/learn.js")),
    ("screen.js", JAVASCRIPT, include_str!("../assets/screen.js")),
    ("setup.js", JAVASCRIPT, include_str!("../assets/setup.js")),
    ("stats.js", JAVASCRIPT, include_str!("../assets/stats.js")),
    ("text.js", JAVASCRIPT, include_str!("../assets/text.js")),
];

async fn asset(Path(file): Path<String>) -> Result<impl IntoResponse, ApiError> {
    let &(_, content_type, content) =
        ASSETS.iter().find(|(name, _, _)| *name == file).ok_or_else(|| ApiError::NotFound("no such asset".into()))?;
    Ok(([(header::CONTENT_TYPE, content_type)], content))
}

async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], crate::openapi::DOCUMENT)
}

fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let token = value.strip_prefix("Bearer ").or_else(|| value.strip_prefix("bearer "))?;
    Some(token.trim().to_owned())
}

fn secret(rng: &mut impl Rng, alphabet: &[u8], length: usize) -> String {
    (0..length).map(|_| alphabet[rng.random_range(0..alphabet.len())] as char).collect()
}

fn new_token() -> String {
    secret(&mut rand::rng(), b"0123456789abcdef", 32)
}

async fn create(State(state): State<AppState>, body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    let request: CreateRequest = parse_optional_body(body)?;
    let secrets = {
        let mut rng = rand::rng();
        Secrets {
            id: secret(&mut rng, b"abcdefghijkmnpqrstuvwxyz23456789", 10),
            token: new_token(),
            seed: rng.random(),
        }
    };
    let (changed, token) = (Some(secrets.id.clone()), secrets.token.clone());
    let mut seen = state
        .store
        .run(changed, move |conn| Box::pin(async move { service::create(conn, &request, secrets).await }))
        .await?;
    seen.record = computer_turns(&state, seen.record).await?;
    Ok((StatusCode::CREATED, Json(seen.grant(token))).into_response())
}

/// A game as `token`'s holder sees it, read on the storage thread.
async fn look(state: &AppState, id: String, token: Option<String>) -> Result<Seen, ApiError> {
    state.store.run(None, move |conn| Box::pin(async move { service::view(conn, &id, token.as_deref()).await })).await
}

/// Lets the computer take its turns in `record` (see [`crate::computer`]):
/// choose off the storage thread, store each move if the game has not
/// changed meanwhile. The game is read once, before: the record in memory
/// follows the moves stored, and is what this answers.
///
/// When the compute pool is full, the computer moves soon instead of now
/// ([`defer_computer_turns`]): the person's move or the new game is kept and
/// answered, and the reply reaches the page through the game's events.
async fn computer_turns(state: &AppState, mut record: Record) -> Result<Record, ApiError> {
    match computer_turns_now(state, &mut record).await {
        Err(ApiError::Busy(_)) => {
            defer_computer_turns(state, &record.id);
            Ok(record)
        }
        other => other.map(|()| record),
    }
}

/// The answer to a seat holder's request once `seen`'s game is as they
/// left it: the computer takes its turns ([`computer_turns`]), then the
/// game as they see it.
async fn reply(state: &AppState, mut seen: Seen) -> Result<Json<GameView>, ApiError> {
    seen.record = computer_turns(state, seen.record).await?;
    Ok(Json(seen.view()))
}

/// [`computer_turns`] on `record`, kept up to date with every move stored;
/// failing with [`ApiError::Busy`] when the pool is full.
async fn computer_turns_now(state: &AppState, record: &mut Record) -> Result<(), ApiError> {
    while computer::should_move(record) {
        match computer_move(state, record.clone()).await? {
            Stored::Yes(next) => *record = next,
            Stored::NoMove(_) => return Ok(()),
            // Someone else changed the game (and let the computer move if
            // it had to): read it as it is now.
            Stored::Stale => {
                *record = record_of(state, record.id.clone()).await?;
                return Ok(());
            }
        }
    }
    Ok(())
}

/// How many times a deferred computer move is tried, [`Pool::RETRY_AFTER`]
/// seconds apart, before it is left to the next request that reads the game.
const DEFERRED_ATTEMPTS: usize = 60;

/// Tries the computer's turns in game `id` again every
/// [`Pool::RETRY_AFTER`] seconds until the pool takes them: one task per
/// game, holding no place in the pool while it waits.
fn defer_computer_turns(state: &AppState, id: &str) {
    if !state.deferred.insert(id) {
        return;
    }
    let (state, id) = (state.clone(), id.to_owned());
    tokio::spawn(async move {
        for _ in 0..DEFERRED_ATTEMPTS {
            tokio::time::sleep(std::time::Duration::from_secs(Pool::RETRY_AFTER)).await;
            let Ok(mut record) = record_of(&state, id.clone()).await else { break };
            if !matches!(computer_turns_now(&state, &mut record).await, Err(ApiError::Busy(_))) {
                break;
            }
        }
        state.deferred.remove(&id);
    });
}

/// Whether [`computer_move`] stored a move.
#[derive(Debug)]
enum Stored {
    /// It did: the game after it.
    Yes(Record),
    /// The computer had no move: the game as it was.
    NoMove(Record),
    /// The game changed while the computer was choosing.
    Stale,
}

/// One computer move in `record` (game `id`): chosen off the storage
/// thread within the server's budget, stored only if the game is still at
/// the record's version.
async fn computer_move(state: &AppState, record: Record) -> Result<Stored, ApiError> {
    let rules = record.game.rules().clone();
    let (record, mv) = compute(state, &rules, move |budget| {
        let mv = computer::choose(&record, budget);
        (record, mv)
    })
    .await?;
    let Some(mv) = mv else { return Ok(Stored::NoMove(record)) };
    let changed = Some(record.id.clone());
    let stored = state.store.run(changed, move |conn| Box::pin(computer::commit(conn, record, mv))).await?;
    Ok(stored.map_or(Stored::Stale, Stored::Yes))
}

/// Runs a computation (an analysis, the computer's choice) for a game of
/// `set` within the server's budget: on the compute pool, where it is called
/// off if this future is dropped (see [`crate::pool`]); or, where every
/// analysis is a closed form (Nim), in place — it takes microseconds, and a
/// pool kept busy by analyses of other games must not hold up such a game.
async fn compute<T: Send + 'static>(
    state: &AppState,
    rules: &AnyRules,
    work: impl FnOnce(&Budget) -> T + Send + 'static,
) -> Result<T, ApiError> {
    if rules.instant() {
        return Ok(work(state.pool.budget()));
    }
    state.pool.compute(work).await
}

/// A game as stored, read on the storage thread.
async fn record_of(state: &AppState, id: String) -> Result<Record, ApiError> {
    Ok(state.store.run(None, move |conn| Box::pin(async move { games::load(conn, &id).await })).await?)
}

async fn state_of(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    let token = bearer(&headers);
    let seen = look(&state, id, token).await?;
    // A server stopped between a person's move and the computer's reply
    // left the computer to move: it moves now.
    reply(&state, seen).await
}

/// A seat holder's action on a game: parse the body, run `work` on the
/// storage thread with the bearer token, let the computer reply, answer the
/// new state.
async fn act<R: DeserializeOwned + Send + 'static>(
    state: AppState,
    id: String,
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
    work: impl for<'c> FnOnce(&'c mut Conn, String, Option<String>, R) -> JobFuture<'c, Result<Seen, ApiError>>
    + Send
    + 'static,
) -> Result<Json<GameView>, ApiError> {
    let request: R = parse_body(body)?;
    let token = bearer(headers);
    let (changed, target, seat) = (Some(id.clone()), id.clone(), token.clone());
    let seen = state.store.run(changed, move |conn| work(conn, target, seat, request)).await?;
    reply(&state, seen).await
}

async fn play(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<GameView>, ApiError> {
    let request: MoveRequest = parse_body(body)?;
    let seen = service::play_move(&state.store, id, bearer(&headers), request).await?;
    reply(&state, seen).await
}

async fn undo(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<GameView>, ApiError> {
    act::<PlyRequest>(state, id, &headers, body, |conn, id, seat, request| {
        Box::pin(async move { service::undo(conn, &id, seat.as_deref(), &request).await })
    })
    .await
}

async fn step(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<GameView>, ApiError> {
    let request: PlyRequest = parse_body(body)?;
    let token = bearer(&headers);
    let (target, seat) = (id.clone(), token.clone());
    let record = state
        .store
        .run(None, move |conn| Box::pin(async move { service::step(conn, &target, seat.as_deref(), &request).await }))
        .await?;
    let access = record.access(token.as_deref());
    let record = match computer_move(&state, record).await? {
        Stored::Stale => return Err(ApiError::Conflict("the game has moved on meanwhile; reload the game".into())),
        Stored::Yes(record) | Stored::NoMove(record) => record,
    };
    Ok(Json(Seen { record, access }.view()))
}

async fn join(State(state): State<AppState>, Path(id): Path<String>) -> Result<Json<service::SeatGrant>, ApiError> {
    let token = new_token();
    let (changed, guest) = (Some(id.clone()), token.clone());
    Ok(Json(
        state
            .store
            .run(changed, move |conn| Box::pin(async move { service::join(conn, &id, guest).await }))
            .await?
            .grant(token),
    ))
}

/// `GET /api/games/{id}/hint`: 409 while hints are off (a running online
/// game whose creator did not allow them).
async fn hint(State(state): State<AppState>, Path(id): Path<String>) -> Result<Json<coach::HintView>, ApiError> {
    let record = record_of(&state, id).await?;
    record.require_help()?;
    let rules = record.game.rules().clone();
    Ok(Json(compute(&state, &rules, move |budget| coach::hint(&record, budget)).await?))
}

/// `GET /api/games/{id}/review`: a finished game's review, computed once
/// (however many pages ask at once) and kept; 409 before the game ends.
async fn review(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let lookup = id.clone();
    let (record, stored) = state
        .store
        .run(None, move |conn| {
            Box::pin(async move {
                let record = games::load(conn, &lookup).await?;
                Ok::<_, ApiError>((record, games::review(conn, &lookup).await?))
            })
        })
        .await?;
    if let Some(json) = stored {
        return Ok(json_response(json));
    }
    if !record.game.is_over() {
        return Err(ApiError::Conflict("the review comes after the end of the game".into()));
    }
    let pending = state.reviews.pending(&id);
    let json = pending
        .cell
        .get_or_try_init(|| async {
            let rules = record.game.rules().clone();
            let view = compute(&state, &rules, move |budget| coach::review(&record, budget)).await?;
            let json = serde_json::to_string(&view).map_err(|e| ApiError::Internal(e.to_string()))?;
            let (target, kept) = (id.clone(), json.clone());
            state
                .store
                .run(None, move |conn| Box::pin(async move { games::store_review(conn, &target, &kept).await }))
                .await?;
            Ok::<_, ApiError>(json)
        })
        .await?
        .clone();
    Ok(json_response(json))
}

/// A JSON answer already serialised.
fn json_response(json: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], json).into_response()
}

/// `GET /api/games/{id}/analysis`: 409 while the analysis is off (as for
/// hints), 422 when the position cannot be analysed within the limits.
async fn analysis(State(state): State<AppState>, Path(id): Path<String>) -> Result<Json<RulesAnalysisView>, ApiError> {
    let record = record_of(&state, id).await?;
    record.require_help()?;
    let rules = record.game.rules().clone();
    compute(&state, &rules, move |budget| RulesAnalysisView::new(record.game.rules(), record.game.position(), budget))
        .await?
        .map(Json)
}

async fn rules() -> Json<crate::offer::Offer> {
    Json(crate::offer::Offer::new())
}

/// `GET /api/rules/{rules}`: the offer's entry for any rule set, with the
/// parameter given (`octal:0.F`, `subtraction:1,2,5`), so that the setup
/// page names and describes what is typed; 422 for a rule set that is not.
async fn rules_entry(Path(rules): Path<String>) -> Result<Json<crate::offer::OfferedRules>, ApiError> {
    Ok(Json(crate::offer::OfferedRules::of(&service::rule_set(Some(&rules))?)))
}

async fn stats(State(state): State<AppState>) -> Result<Json<serde_json::Value>, ApiError> {
    let rows = state.store.run(None, |conn| Box::pin(service::stats(conn))).await?;
    Ok(Json(serde_json::json!({ "rows": rows })))
}

/// `GET /api/analyze?heaps=3,5,7&misere=true`, or for another rule set
/// `?rules=kayles&position=7,11`: the query is read as the document says
/// (see [`crate::body::analyze_request`]); a rule set or a position the
/// game cannot take is 422.
async fn analyze(
    State(state): State<AppState>,
    query: Result<Query<AnalyzeQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let AnalyzeRequest { rules, numbers, misere } = body::analyze_request(query, MAX_ANALYZE_HEAPS)?;
    let set = service::rule_set(rules.as_deref())?;
    let convention = if misere { Convention::Misere } else { Convention::Normal };
    let rules = crate::record::server_rules(set, convention);
    // Where every analysis is a closed form (Nim), any heaps the query can
    // carry are analysed; otherwise the games' limits apply.
    if !rules.instant() {
        service::check_limits(rules.rule_set(), numbers.as_slice())?;
    }
    let position = rules.position(numbers.as_slice()).map_err(|e| ApiError::Unprocessable(e.to_string()))?;
    // An analysis by the nim-sum answers with the binary table it is read from.
    if rules.instant()
        && let Ok(analysis) = rules.analyze(&position)
        && matches!(analysis.method, Method::NimSum | Method::MisereNim)
    {
        return Ok(Json(AnalysisView::new(&rules.numbers(&position), convention)).into_response());
    }
    let shared = rules.clone();
    Ok(Json(compute(&state, &shared, move |budget| RulesAnalysisView::new(&rules, &position, budget)).await??)
        .into_response())
}

/// `GET /api/games/{id}/events`: the game's state now and after every change.
async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    // Watch first, so that no change between reading and watching is lost.
    let watch = state.store.watch(&id);
    let first = look(&state, id.clone(), None).await?.view();
    watch.seen(first.version);
    struct Watcher {
        store: Store,
        id: String,
        watch: Watch,
        version: i64,
        pending: Option<GameView>,
    }
    let watcher = Watcher { store: state.store.clone(), id, watch, version: first.version, pending: Some(first) };
    let stream = futures_util::stream::unfold(watcher, |mut w| async move {
        loop {
            if let Some(view) = w.pending.take() {
                let event = Event::default().event("state").json_data(&view).unwrap_or_default();
                return Some((Ok(event), w));
            }
            // Woken only by news of this game (see [`crate::store::watch`]).
            match w.watch.changed().await {
                Known::Gone => return None,
                Known::Version(v) if v > w.version => {}
                Known::Version(_) | Known::Unknown => continue,
            }
            let id = w.id.clone();
            match w.store.run(None, move |conn| Box::pin(async move { service::view(conn, &id, None).await })).await {
                Ok(seen) if seen.record.version != w.version => {
                    w.version = seen.record.version;
                    w.pending = Some(seen.view());
                }
                Ok(_) => {}
                Err(ApiError::NotFound(_)) => return None,
                Err(_) => {}
            }
        }
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// Reviews being computed, by game: the first request computes, the others
/// asking meanwhile wait for its answer (and if it hangs up, the next one
/// takes over: see [`tokio::sync::OnceCell::get_or_try_init`]).
#[derive(Clone, Default)]
struct Reviews {
    pending: Arc<Mutex<HashMap<String, Arc<OnceCell<String>>>>>,
}

/// A request's share in a review being computed; the entry goes with the
/// last request sharing it.
struct PendingReview {
    reviews: Reviews,
    id: String,
    cell: Arc<OnceCell<String>>,
}

impl Reviews {
    fn pending(&self, id: &str) -> PendingReview {
        let mut pending = self.pending.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let cell = pending.entry(id.to_owned()).or_default().clone();
        PendingReview { reviews: self.clone(), id: id.to_owned(), cell }
    }
}

impl Drop for PendingReview {
    fn drop(&mut self) {
        let mut pending = self.reviews.pending.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // Held by the map and by this request alone: nobody else waits.
        if pending.get(&self.id).is_some_and(|cell| Arc::ptr_eq(cell, &self.cell) && Arc::strong_count(cell) <= 2) {
            pending.remove(&self.id);
        }
    }
}

/// Games whose computer move was deferred (see [`defer_computer_turns`]).
#[derive(Clone, Default)]
struct Deferred {
    games: Arc<Mutex<HashSet<String>>>,
}

impl Deferred {
    /// Adds game `id`; false if it was there already.
    fn insert(&self, id: &str) -> bool {
        self.games.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).insert(id.to_owned())
    }

    fn remove(&self, id: &str) {
        self.games.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).remove(id);
    }
}
