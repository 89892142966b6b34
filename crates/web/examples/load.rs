//! Load generator for `bouton serve`: many concurrent games, each move
//! acknowledged only once durably stored; then, in the same run, the same
//! server's static-file throughput as the reference.
//!
//! ```text
//! cargo run --release -p bouton-web --example load -- http://127.0.0.1:8080 [CLIENTS] [SECONDS]
//! ```
//!
//! `bench/serve-load.sh` starts a server on a fresh database and runs this.

use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1;
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpStream;

/// One keep-alive connection.
struct Client {
    sender: http1::SendRequest<Full<Bytes>>,
    host: String,
}

impl Client {
    async fn connect(host: &str) -> Client {
        let stream = TcpStream::connect(host).await.expect("the server is reachable");
        stream.set_nodelay(true).unwrap();
        let (sender, connection) = http1::handshake(TokioIo::new(stream)).await.expect("HTTP handshake");
        tokio::spawn(connection);
        Client { sender, host: host.to_owned() }
    }

    async fn call(
        &mut self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Bytes) {
        let mut request = Request::builder().method(method).uri(path).header("host", &self.host);
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let body = body.map(|b| Bytes::from(serde_json::to_vec(&b).unwrap())).unwrap_or_default();
        self.sender.ready().await.expect("connection ready");
        let response = self.sender.send_request(request.body(Full::new(body)).unwrap()).await.expect("a response");
        let status = response.status();
        (status, response.into_body().collect().await.expect("a body").to_bytes())
    }
}

/// Plays games without pause for `duration`; returns each move's latency.
async fn play_games(host: String, duration: Duration) -> Vec<Duration> {
    let mut client = Client::connect(&host).await;
    let mut latencies = Vec::new();
    let end = Instant::now() + duration;
    'games: while Instant::now() < end {
        let (status, body) = client
            .call(Method::POST, "/api/games", None, Some(json!({"mode": "local", "heaps": vec![50u64; 12]})))
            .await;
        assert_eq!(status, StatusCode::CREATED);
        let grant: Value = serde_json::from_slice(&body).unwrap();
        let id = grant["game"]["id"].as_str().unwrap().to_owned();
        let token = grant["token"].as_str().unwrap().to_owned();
        let path = format!("/api/games/{id}/moves");
        // Take one token at a time, heap by heap: 600 moves a game.
        for ply in 0..600u64 {
            if Instant::now() >= end {
                break 'games;
            }
            let heap = ply / 50 + 1;
            let started = Instant::now();
            let (status, body) = client
                .call(Method::POST, &path, Some(&token), Some(json!({"heap": heap, "take": 1, "ply": ply})))
                .await;
            latencies.push(started.elapsed());
            assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
        }
    }
    latencies
}

/// Fetches the style sheet without pause for `duration`; returns how many.
async fn fetch_static(host: String, duration: Duration) -> Vec<Duration> {
    let mut client = Client::connect(&host).await;
    let mut latencies = Vec::new();
    let end = Instant::now() + duration;
    while Instant::now() < end {
        let started = Instant::now();
        let (status, _) = client.call(Method::GET, "/assets/style.css", None, None).await;
        latencies.push(started.elapsed());
        assert_eq!(status, StatusCode::OK);
    }
    latencies
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(index).copied().unwrap_or_default()
}

fn report(what: &str, per_client: Vec<Vec<Duration>>, seconds: f64) {
    let mut all: Vec<Duration> = per_client.into_iter().flatten().collect();
    all.sort_unstable();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "| {what} | {:.0} | {:.2} | {:.2} | {:.2} |",
        all.len() as f64 / seconds,
        ms(percentile(&all, 0.5)),
        ms(percentile(&all, 0.99)),
        ms(*all.last().unwrap_or(&Duration::ZERO)),
    );
}

async fn phase<F, Fut>(clients: usize, seconds: u64, work: F) -> (Vec<Vec<Duration>>, f64)
where
    F: Fn(Duration) -> Fut,
    Fut: std::future::Future<Output = Vec<Duration>> + Send + 'static,
{
    let duration = Duration::from_secs(seconds);
    let started = Instant::now();
    let tasks: Vec<_> = (0..clients).map(|_| tokio::spawn(work(duration))).collect();
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.expect("a client finished"));
    }
    (results, started.elapsed().as_secs_f64())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let url = args.next().unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let clients: usize = args.next().map(|c| c.parse().expect("CLIENTS is a number")).unwrap_or(64);
    let seconds: u64 = args.next().map(|s| s.parse().expect("SECONDS is a number")).unwrap_or(10);
    let host = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
    // One thread for the generator, so the server keeps most of the machine.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        println!("{clients} concurrent clients, {seconds} s per phase, server {url}");
        println!("| phase | requests/s | p50 ms | p99 ms | max ms |");
        println!("|---|---|---|---|---|");
        let h = host.clone();
        let (moves, elapsed) = phase(clients, seconds, move |d| play_games(h.clone(), d)).await;
        report("moves (POST, durably stored)", moves, elapsed);
        let h = host.clone();
        let (files, elapsed) = phase(clients, seconds, move |d| fetch_static(h.clone(), d)).await;
        report("static file (GET /assets/style.css)", files, elapsed);
    });
}
