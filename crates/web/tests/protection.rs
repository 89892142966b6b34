//! How the server protects itself and everyone else: security headers on
//! every answer and per-client rate limits (through `app()`, without a
//! socket), then timeouts and the connection cap on a real server on a free
//! port with short timeouts. No assertion here is about how long anything
//! took: those figures are the benchmark's.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Request, StatusCode, header};
use bouton_web::rate_limit::RateLimits;
use bouton_web::{AppState, ServerConfig};
use common::Api;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tower::ServiceExt;

/// Longest any step here may wait before the test gives up: a hang is a
/// failure, never a slow pass.
const PATIENCE: Duration = Duration::from_secs(20);

/// Status, headers and JSON body (Null if not JSON) of one request to `api`,
/// from `peer` when given (as a real connection would tell).
async fn call(api: &Api, method: &str, uri: &str, peer: Option<SocketAddr>) -> (StatusCode, HeaderMap, Value) {
    let body = if method == "POST" { Body::from("{}") } else { Body::empty() };
    let mut request = Request::builder().method(method).uri(uri).body(body).unwrap();
    if let Some(peer) = peer {
        request.extensions_mut().insert(ConnectInfo(peer));
    }
    let response = api.router.clone().oneshot(request).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

fn limits(text: &str) -> ServerConfig {
    ServerConfig::default().with_rate_limits(text.parse().unwrap())
}

/// Asserts a 429 with `Retry-After` and a one-line JSON error naming `words`.
fn assert_refused(reply: &(StatusCode, HeaderMap, Value), words: &str) {
    let (status, headers, json) = reply;
    assert_eq!(*status, StatusCode::TOO_MANY_REQUESTS, "{json}");
    let retry: u64 = headers[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
    assert!(retry >= 1, "Retry-After {retry}");
    let message = json["error"].as_str().unwrap_or_else(|| panic!("no JSON error in {json}"));
    assert!(message.contains(words) && !message.contains('\n'), "{message:?}");
    assert!(message.contains(&format!("try again in {retry} s")), "{message:?}");
    assert_eq!(headers[header::CONTENT_TYPE], "application/json");
}

// ----------------------------------------------------------- security headers

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let api = Api::new();
    let (id, _, _) = api.create(json!({"heaps": [3, 4]})).await;
    let answers = [
        ("GET", "/".to_owned(), 200),
        ("GET", format!("/g/{id}"), 200),
        ("GET", "/assets/app.js".to_owned(), 200),
        ("GET", "/assets/style.css".to_owned(), 200),
        ("GET", "/api/rules".to_owned(), 200),
        ("GET", "/api/openapi.json".to_owned(), 200),
        ("GET", format!("/api/games/{id}"), 200),
        ("POST", "/api/games/nope/moves".to_owned(), 400),
        ("GET", "/api/games/nope".to_owned(), 404),
        ("GET", "/api/nothing".to_owned(), 404),
        ("GET", "/nothing".to_owned(), 404),
        ("GET", "/assets/nothing.js".to_owned(), 404),
        ("DELETE", "/api/rules".to_owned(), 405),
    ];
    for (method, uri, status) in answers {
        let (got, headers, _) = call(&api, method, &uri, None).await;
        assert_eq!(got.as_u16(), status, "{method} {uri}");
        let csp = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), "{uri}: {csp}");
        assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{uri}: {csp}");
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{uri}");
        assert_eq!(headers[header::REFERRER_POLICY], "no-referrer", "{uri}");
        assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY", "{uri}");
    }
}

#[test]
fn the_page_has_no_inline_script_style_or_event_handler() {
    let page = include_str!("../assets/index.html");
    for (i, _) in page.match_indices("<script") {
        let tag = &page[i..i + page[i..].find('>').unwrap()];
        assert!(tag.contains(" src=\"/assets/"), "an inline script: {tag}");
    }
    assert!(!page.contains("<style"), "an inline style sheet");
    let lower = page.to_lowercase();
    assert!(!lower.contains(" style="), "an inline style attribute");
    for word in lower.split(|c: char| c.is_whitespace() || c == '<') {
        let handler = word.starts_with("on") && word.split_once('=').is_some_and(|(name, _)| name.len() > 2);
        assert!(!handler, "an event-handler attribute: {word}");
    }
    assert!(!lower.contains("javascript:"), "a javascript: address");
}

// ------------------------------------------------------------- rate limits

#[tokio::test]
async fn past_the_limit_creating_games_answers_429_with_retry_after() {
    let api = Api::with_config(limits("games=3/min"));
    let (id, _, _) = api.create(json!({"mode": "online", "heaps": [2, 2]})).await;
    api.create(json!({})).await;
    // Joining a game counts as creating one: it stores a seat.
    assert_eq!(call(&api, "POST", &format!("/api/games/{id}/join"), None).await.0, StatusCode::OK);
    let refused = call(&api, "POST", "/api/games", None).await;
    assert_refused(&refused, "too many games created or joined from your address: at most 3 a minute");
    assert_refused(&call(&api, "POST", &format!("/api/games/{id}/join"), None).await, "too many games");
    // Nothing else is limited by it: reading and analysing go on.
    assert_eq!(call(&api, "GET", &format!("/api/games/{id}"), None).await.0, StatusCode::OK);
    assert_eq!(call(&api, "GET", "/api/analyze?heaps=3,5,7", None).await.0, StatusCode::OK);
}

#[tokio::test]
async fn requests_without_a_peer_address_are_one_client_and_others_are_told_apart() {
    let api = Api::with_config(limits("games=1/h"));
    let alice: SocketAddr = "192.0.2.1:40000".parse().unwrap();
    let alice_again: SocketAddr = "192.0.2.1:40001".parse().unwrap();
    let bob: SocketAddr = "[2001:db8::1]:40000".parse().unwrap();
    let bobs_neighbour: SocketAddr = "[2001:db8::2]:40000".parse().unwrap();
    assert_eq!(call(&api, "POST", "/api/games", None).await.0, StatusCode::CREATED);
    assert_refused(&call(&api, "POST", "/api/games", None).await, "at most 1 an hour");
    assert_eq!(call(&api, "POST", "/api/games", Some(alice)).await.0, StatusCode::CREATED);
    // A client is its address, whatever its port.
    assert_refused(&call(&api, "POST", "/api/games", Some(alice_again)).await, "too many games");
    assert_eq!(call(&api, "POST", "/api/games", Some(bob)).await.0, StatusCode::CREATED);
    // An IPv6 client is its /64 network.
    assert_refused(&call(&api, "POST", "/api/games", Some(bobs_neighbour)).await, "too many games");
}

#[tokio::test]
async fn every_analysis_route_counts_against_the_analyses_limit() {
    let api = Api::with_config(limits("analyses=4/min,games=off"));
    let (id, token, _) = api.create(json!({"heaps": [3, 4, 5]})).await;
    let routes =
        ["/api/analyze?heaps=1,2".to_owned(), format!("/api/games/{id}/analysis"), format!("/api/games/{id}/hint")];
    for uri in &routes {
        assert_eq!(call(&api, "GET", uri, None).await.0, StatusCode::OK, "{uri}");
    }
    // The game is not over: its review is refused (409), and still counted.
    assert_eq!(call(&api, "GET", &format!("/api/games/{id}/review"), None).await.0, StatusCode::CONFLICT);
    for uri in routes.iter().chain([&format!("/api/games/{id}/review")]) {
        assert_refused(&call(&api, "GET", uri, None).await, "too many analyses");
    }
    // Games are not limited here; moves and reads never are.
    assert_eq!(api.play(&id, &token, 1, 1, 0).await.status, StatusCode::OK);
    for _ in 0..70 {
        assert_eq!(call(&api, "POST", "/api/games", None).await.0, StatusCode::CREATED);
    }
}

#[tokio::test]
async fn with_rate_limits_off_nothing_is_refused() {
    let api = Api::with_config(ServerConfig::default().with_rate_limits(RateLimits::OFF));
    for _ in 0..100 {
        assert_eq!(call(&api, "POST", "/api/games", None).await.0, StatusCode::CREATED);
        assert_eq!(call(&api, "GET", "/api/analyze?heaps=3,5,7", None).await.0, StatusCode::OK);
    }
    // And the defaults do refuse a script's flood.
    let api = Api::new();
    let mut statuses = Vec::new();
    for _ in 0..61 {
        statuses.push(call(&api, "POST", "/api/games", None).await.0);
    }
    assert_eq!(statuses.iter().filter(|s| **s == StatusCode::CREATED).count(), 60);
    assert_eq!(statuses.last(), Some(&StatusCode::TOO_MANY_REQUESTS));
}

// ------------------------------------------------------------ body timeout

#[tokio::test]
async fn a_body_that_never_arrives_is_answered_408() {
    let api = Api::with_config(ServerConfig::default().with_body_timeout(Duration::from_millis(50)));
    // Part of a body, then nothing more, ever.
    let first = futures_util::stream::iter([Ok::<_, std::io::Error>(axum::body::Bytes::from_static(b"{\"heaps\""))]);
    let body = Body::from_stream(futures_util::StreamExt::chain(first, futures_util::stream::pending()));
    let request = Request::builder().method("POST").uri("/api/games").body(body).unwrap();
    let response = tokio::time::timeout(PATIENCE, api.router.clone().oneshot(request)).await.unwrap().unwrap();
    assert_eq!(response.status(), StatusCode::REQUEST_TIMEOUT);
    assert_eq!(response.headers()[header::CONNECTION], "close");
    assert_eq!(response.headers()[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    let json: Value = serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(json["error"], "the request body did not arrive within 50 ms of its headers");
    // A body that does arrive is unaffected.
    api.create(json!({"heaps": [1, 2]})).await;
}

// ------------------------------------------------------------ a real server

/// A server on a free port of 127.0.0.1, stopped when dropped.
struct Server {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    async fn start(config: ServerConfig) -> Server {
        let store = common::test_store();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let state = AppState::new(store).with_config(config);
        let done = tokio::spawn(bouton_web::connections::run(listener, state, async {
            let _ = stopped.await;
        }));
        Server { addr, stop: Some(stop), done }
    }

    /// Stops it; answers whether it stopped cleanly.
    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        let done = tokio::time::timeout(PATIENCE, &mut self.done).await.expect("the server stops");
        done.unwrap().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.done.abort();
    }
}

/// Short timeouts, for the tests of connections.
fn short(idle_ms: u64, body_ms: u64) -> ServerConfig {
    ServerConfig::default()
        .with_idle_timeout(Duration::from_millis(idle_ms))
        .with_body_timeout(Duration::from_millis(body_ms))
}

/// Reads until the server closes the connection; answers what it sent.
/// Panics if it stays open longer than [`PATIENCE`].
async fn until_closed(stream: &mut TcpStream) -> String {
    let mut all = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match tokio::time::timeout(PATIENCE, stream.read(&mut buffer)).await {
            Err(_) => panic!("the server kept the connection open; it sent {:?}", String::from_utf8_lossy(&all)),
            Ok(Ok(0)) | Ok(Err(_)) => return String::from_utf8_lossy(&all).into_owned(),
            Ok(Ok(n)) => all.extend_from_slice(&buffer[..n]),
        }
    }
}

/// Reads one whole answer (its head and its Content-Length body).
async fn read_answer(stream: &mut TcpStream) -> (u16, String) {
    let mut all = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let n = tokio::time::timeout(PATIENCE, stream.read(&mut buffer)).await.expect("an answer").unwrap();
        assert!(n > 0, "closed before a whole answer: {:?}", String::from_utf8_lossy(&all));
        all.extend_from_slice(&buffer[..n]);
        let text = String::from_utf8_lossy(&all).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let length: usize = text[..end]
                .lines()
                .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap()))
                .unwrap_or(0);
            if all.len() >= end + 4 + length {
                let status = text[9..12].parse().unwrap();
                return (status, text[end + 4..].to_owned());
            }
        }
    }
}

/// One request on a fresh connection from `from` (an address of the
/// loopback range), closed after the answer.
async fn request_from(from: &str, server: SocketAddr, method: &str, path: &str, body: &str) -> (u16, Value) {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    let mut stream = socket.connect(server).await.unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: bouton\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let (status, body) = read_answer(&mut stream).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

async fn request(server: SocketAddr, method: &str, path: &str, body: &str) -> (u16, Value) {
    request_from("127.0.0.1", server, method, path, body).await
}

#[tokio::test]
async fn an_idle_connection_is_closed_after_its_timeout() {
    let server = Server::start(short(200, 10_000)).await;
    // Never a byte sent.
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    assert_eq!(until_closed(&mut silent).await, "");
    // Idle after an answer, kept alive.
    let mut kept = TcpStream::connect(server.addr).await.unwrap();
    kept.write_all(b"GET /api/rules HTTP/1.1\r\nHost: bouton\r\n\r\n").await.unwrap();
    assert_eq!(read_answer(&mut kept).await.0, 200);
    assert_eq!(until_closed(&mut kept).await, "");
    server.stop().await;
}

#[tokio::test]
async fn a_connection_that_stops_mid_request_is_closed() {
    let server = Server::start(short(200, 10_000)).await;
    let mut half_line = TcpStream::connect(server.addr).await.unwrap();
    half_line.write_all(b"GET /api/ru").await.unwrap();
    until_closed(&mut half_line).await;
    let mut half_head = TcpStream::connect(server.addr).await.unwrap();
    half_head.write_all(b"GET /api/rules HTTP/1.1\r\nHost: bouton\r\nX-More: ").await.unwrap();
    until_closed(&mut half_head).await;
    server.stop().await;
}

#[tokio::test]
async fn a_request_whose_body_never_comes_gets_408_and_is_closed() {
    let server = Server::start(short(10_000, 200)).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let head =
        "POST /api/games HTTP/1.1\r\nHost: bouton\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{";
    stream.write_all(head.as_bytes()).await.unwrap();
    let answer = until_closed(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive within"), "{answer}");
    server.stop().await;
}

#[tokio::test]
async fn event_streams_outlive_the_timeouts() {
    let server = Server::start(short(100, 100)).await;
    let (status, grant) = request(server.addr, "POST", "/api/games", r#"{"mode": "local", "heaps": [2, 2]}"#).await;
    assert_eq!(status, 201, "{grant}");
    let (id, token) = (grant["game"]["id"].as_str().unwrap(), grant["token"].as_str().unwrap());
    let mut events = TcpStream::connect(server.addr).await.unwrap();
    events.write_all(format!("GET /api/games/{id}/events HTTP/1.1\r\nHost: bouton\r\n\r\n").as_bytes()).await.unwrap();
    let mut seen = String::new();
    let mut buffer = [0u8; 4096];
    while !seen.contains("\"ply\":0") {
        let n = tokio::time::timeout(PATIENCE, events.read(&mut buffer)).await.unwrap().unwrap();
        assert!(n > 0, "the stream closed: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
    }
    // Many idle and body timeouts pass with nothing sent either way...
    tokio::time::sleep(Duration::from_millis(1000)).await;
    // ...and the stream still carries the next move.
    let mut mover = TcpStream::connect(server.addr).await.unwrap();
    let body = r#"{"heap": 1, "take": 1, "ply": 0}"#;
    let head = format!(
        "POST /api/games/{id}/moves HTTP/1.1\r\nHost: bouton\r\nAuthorization: Bearer {token}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    mover.write_all(head.as_bytes()).await.unwrap();
    assert_eq!(read_answer(&mut mover).await.0, 200);
    while !seen.contains("\"ply\":1") {
        let n = tokio::time::timeout(PATIENCE, events.read(&mut buffer)).await.unwrap().unwrap();
        assert!(n > 0, "the stream closed: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
    }
    server.stop().await;
}

#[tokio::test]
async fn past_the_cap_a_client_waits_until_a_connection_closes() {
    let server = Server::start(ServerConfig::default().with_max_connections(1)).await;
    // The one place, held by a kept-alive connection.
    let mut holder = TcpStream::connect(server.addr).await.unwrap();
    holder.write_all(b"GET /api/rules HTTP/1.1\r\nHost: bouton\r\n\r\n").await.unwrap();
    assert_eq!(read_answer(&mut holder).await.0, 200);
    let mut waiting = TcpStream::connect(server.addr).await.unwrap();
    waiting.write_all(b"GET /api/rules HTTP/1.1\r\nHost: bouton\r\nConnection: close\r\n\r\n").await.unwrap();
    let mut byte = [0u8; 1];
    let early = tokio::time::timeout(Duration::from_millis(300), waiting.read(&mut byte)).await;
    assert!(early.is_err(), "a client past the cap was answered while the cap was reached");
    drop(holder);
    assert_eq!(read_answer(&mut waiting).await.0, 200);
    server.stop().await;
}

#[tokio::test]
async fn with_a_tiny_cap_new_clients_are_served_as_idle_ones_time_out() {
    let server = Server::start(short(200, 10_000).with_max_connections(3)).await;
    let mut idle = Vec::new();
    for _ in 0..12 {
        idle.push(TcpStream::connect(server.addr).await.unwrap());
    }
    // Behind twelve idle connections, four times the cap, a client is served.
    let (status, rules) = request(server.addr, "GET", "/api/rules", "").await;
    assert_eq!(status, 200);
    assert!(rules["rules"].is_array());
    for mut stream in idle {
        until_closed(&mut stream).await;
    }
    server.stop().await;
}

#[tokio::test]
async fn a_real_server_limits_each_peer_address() {
    let server = Server::start(limits("games=2/min")).await;
    for _ in 0..2 {
        assert_eq!(request(server.addr, "POST", "/api/games", "{}").await.0, 201);
    }
    let (status, refused) = request(server.addr, "POST", "/api/games", "{}").await;
    assert_eq!(status, 429, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("at most 2 a minute"));
    // Another address of the loopback range is another client.
    assert_eq!(request_from("127.0.0.2", server.addr, "POST", "/api/games", "{}").await.0, 201);
    server.stop().await;
}

/// A connection from `from` (an address of the loopback range).
async fn connect_from(from: &str, server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(format!("{from}:0").parse().unwrap())?;
    socket.connect(server).await
}

/// An event stream of game `id` from `from`, once its first state has come:
/// the server counts it from then on.
async fn watch_from(from: &str, server: SocketAddr, id: &str) -> TcpStream {
    let mut stream = connect_from(from, server).await.unwrap();
    stream.write_all(format!("GET /api/games/{id}/events HTTP/1.1\r\nHost: bouton\r\n\r\n").as_bytes()).await.unwrap();
    let mut seen = String::new();
    let mut buffer = [0u8; 4096];
    while !seen.contains("\"ply\":") {
        let n = tokio::time::timeout(PATIENCE, stream.read(&mut buffer)).await.expect("the first state").unwrap();
        assert!(n > 0, "the stream closed: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
    }
    stream
}

/// Asserts the answer to a connection past its client's cap: a 429 with
/// `Retry-After`, the security headers and a JSON error, then the close.
fn assert_refused_connection(answer: &str, max: usize) {
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no whole answer: {answer:?}"));
    assert!(head.starts_with("HTTP/1.1 429 "), "{head}");
    let retry: u64 = head
        .lines()
        .find_map(|l| l.strip_prefix("retry-after: "))
        .unwrap_or_else(|| panic!("no Retry-After: {head}"))
        .parse()
        .unwrap();
    assert!(retry >= 1, "{head}");
    assert!(head.contains("\r\nx-content-type-options: nosniff\r\n"), "{head}");
    let json: Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {body:?}"));
    let message = json["error"].as_str().unwrap();
    assert!(message.contains(&format!("at most {max} at once")), "{message}");
    assert!(message.contains(&format!("try again in {retry} s")), "{message}");
}

#[tokio::test]
async fn past_its_own_cap_a_client_is_refused_and_others_are_served() {
    let server = Server::start(ServerConfig::default().with_max_connections_per_client(3)).await;
    let (status, grant) =
        request_from("127.0.0.9", server.addr, "POST", "/api/games", r#"{"mode": "local", "heaps": [2, 2]}"#).await;
    assert_eq!(status, 201, "{grant}");
    let (id, token) = (grant["game"]["id"].as_str().unwrap(), grant["token"].as_str().unwrap());
    // Event streams are never timed out: three of them hold 127.0.0.1's places.
    let mut watchers = Vec::new();
    for _ in 0..3 {
        watchers.push(watch_from("127.0.0.1", server.addr, id).await);
    }
    // A fourth connection from it is answered 429 at once, before any request, and closed...
    for _ in 0..5 {
        let mut refused = connect_from("127.0.0.1", server.addr).await.unwrap();
        assert_refused_connection(&until_closed(&mut refused).await, 3);
    }
    // ...while other addresses of the loopback range are served, event streams too.
    assert_eq!(request_from("127.0.0.2", server.addr, "GET", "/api/rules", "").await.0, 200);
    let mut others = Vec::new();
    for from in ["127.0.0.2", "127.0.0.3"] {
        for _ in 0..3 {
            others.push(watch_from(from, server.addr, id).await);
        }
    }
    let body = r#"{"heap": 1, "take": 1, "ply": 0}"#;
    let mut mover = connect_from("127.0.0.4", server.addr).await.unwrap();
    let head = format!(
        "POST /api/games/{id}/moves HTTP/1.1\r\nHost: bouton\r\nAuthorization: Bearer {token}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    mover.write_all(head.as_bytes()).await.unwrap();
    assert_eq!(read_answer(&mut mover).await.0, 200);
    for watcher in watchers.iter_mut().chain(&mut others) {
        let mut seen = String::new();
        let mut buffer = [0u8; 4096];
        while !seen.contains("\"ply\":1") {
            let n = tokio::time::timeout(PATIENCE, watcher.read(&mut buffer)).await.expect("the move").unwrap();
            assert!(n > 0, "the stream closed: {seen}");
            seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
        }
    }
    // Once 127.0.0.1 closes one, it is served again (as soon as the server has seen the close).
    drop(watchers.pop());
    let mut attempts = 0;
    let served = tokio::time::timeout(PATIENCE, async {
        loop {
            attempts += 1;
            let mut stream = connect_from("127.0.0.1", server.addr).await.unwrap();
            let _ = stream.write_all(b"GET /api/rules HTTP/1.1\r\nHost: bouton\r\nConnection: close\r\n\r\n").await;
            let answer = until_closed(&mut stream).await;
            if answer.starts_with("HTTP/1.1 200 ") {
                return answer;
            }
            assert!(answer.is_empty() || answer.starts_with("HTTP/1.1 429 "), "{answer}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(served.is_ok(), "127.0.0.1 was still refused after {attempts} attempts");
    // And its fourth is refused again.
    let _again = watch_from("127.0.0.1", server.addr, id).await;
    let mut refused = connect_from("127.0.0.1", server.addr).await.unwrap();
    assert_refused_connection(&until_closed(&mut refused).await, 3);
    server.stop().await;
}

#[tokio::test]
async fn a_client_that_never_reads_its_answers_is_closed() {
    // One place only: the next client is served once the one that does not read is closed.
    let server = Server::start(short(10_000, 200).with_max_connections(1)).await;
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    // Far more answers than the kernel's buffers hold (the document is some 50 KiB), none read.
    let asking = tokio::spawn(async move {
        let request = b"GET /api/openapi.json HTTP/1.1\r\nHost: bouton\r\n\r\n";
        for _ in 0..2000 {
            if writer.write_all(request).await.is_err() {
                break;
            }
        }
        writer
    });
    let (status, rules) = request(server.addr, "GET", "/api/rules", "").await;
    assert_eq!(status, 200);
    assert!(rules["rules"].is_array());
    // The connection was closed, not merely left behind: reading it to the end comes to an end.
    let mut rest = Vec::new();
    let _ = tokio::time::timeout(PATIENCE, reader.read_to_end(&mut rest)).await.expect("the connection was closed");
    asking.abort();
    server.stop().await;
}

/// Asserts that a whole answer (head and body, up to the close) has
/// `status`, every security header and a JSON error.
fn assert_guarded(answer: &str, status: u16) {
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no whole answer: {answer:?}"));
    assert!(head.starts_with(&format!("HTTP/1.1 {status} ")), "{head}");
    let lower = format!("{}\r\n", head.to_ascii_lowercase());
    for (name, value) in bouton_web::security::HEADERS {
        assert!(lower.contains(&format!("\r\n{name}: {}\r\n", value.to_ascii_lowercase())), "no {name}: {head}");
    }
    assert!(lower.contains("frame-ancestors 'none'") && lower.contains("\r\nx-content-type-options: nosniff\r\n"));
    assert!(lower.contains("\r\nconnection: close\r\n"), "{head}");
    let json: Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {body:?}"));
    assert!(json["error"].is_string(), "{body}");
}

#[tokio::test]
async fn a_request_that_is_not_http_is_answered_400_with_the_security_headers() {
    let server = Server::start(ServerConfig::default()).await;
    let malformed: [&[u8]; 4] = [
        b"GARBAGE\r\n\r\n",
        b"GET /api/rules HTTP/1.1\r\nHost: bouton\r\nNo colon here\r\n\r\n",
        b"GET /api/rules HTTP/1.1\r\nHost: bouton\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxy",
        b"G\x00T / HTTP/1.1\r\n\r\n",
    ];
    for request in malformed {
        let mut stream = TcpStream::connect(server.addr).await.unwrap();
        stream.write_all(request).await.unwrap();
        assert_guarded(&until_closed(&mut stream).await, 400);
    }
    // The same after an answer on a kept-alive connection.
    let mut kept = TcpStream::connect(server.addr).await.unwrap();
    kept.write_all(b"GET /api/rules HTTP/1.1\r\nHost: bouton\r\n\r\n").await.unwrap();
    assert_eq!(read_answer(&mut kept).await.0, 200);
    kept.write_all(b"\x16\x03\x01 not http at all\r\n\r\n").await.unwrap();
    assert_guarded(&until_closed(&mut kept).await, 400);
    server.stop().await;
}
