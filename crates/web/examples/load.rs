//! Load generator for `bouton serve`: many concurrent games, each move
//! acknowledged only once durably stored; then, in the same run, the same
//! server's static-file throughput as the reference.
//!
//! ```text
//! cargo run --release -p bouton-web --example load -- http://127.0.0.1:8080[,http://…] [CLIENTS] [SECONDS]
//! ```
//!
//! With several servers (instances sharing one database) the clients are
//! spread over them in turn, and while the moves run a probe measures the
//! cross-instance event latency: a move posted to the first server, until
//! the `state` event carrying it arrives from the second server's event
//! stream.
//!
//! `bench/serve-load.sh` starts the servers on a fresh database and runs this.

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

/// While the moves run: plays a local game through the first server,
/// one move every 20 ms, watching it on the second; returns each move's
/// time from sending the move to the event arriving from the other server.
async fn probe_events(mover: String, watcher: String, duration: Duration) -> Vec<Duration> {
    let mut client = Client::connect(&mover).await;
    let (status, body) =
        client.call(Method::POST, "/api/games", None, Some(json!({"mode": "local", "heaps": vec![50u64; 12]}))).await;
    assert_eq!(status, StatusCode::CREATED);
    let grant: Value = serde_json::from_slice(&body).unwrap();
    let id = grant["game"]["id"].as_str().unwrap().to_owned();
    let token = grant["token"].as_str().unwrap().to_owned();
    // The event stream, on its own connection to the other server.
    let mut stream_client = Client::connect(&watcher).await;
    let request = Request::builder()
        .method(Method::GET)
        .uri(format!("/api/games/{id}/events"))
        .header("host", &watcher)
        .body(Full::new(Bytes::new()))
        .unwrap();
    stream_client.sender.ready().await.expect("connection ready");
    let response = stream_client.sender.send_request(request).await.expect("an event stream");
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let mut text = String::new();
    // Waits for the state event of ply `ply`.
    let mut next_ply = async |ply: u64| -> bool {
        loop {
            while let Some(end) = text.find('\n') {
                let line: String = text.drain(..=end).collect();
                if let Some(data) = line.strip_prefix("data: ")
                    && serde_json::from_str::<Value>(data.trim()).is_ok_and(|state| state["ply"] == ply)
                {
                    return true;
                }
            }
            match body.frame().await {
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        text.push_str(&String::from_utf8_lossy(&data));
                    }
                }
                _ => return false,
            }
        }
    };
    assert!(next_ply(0).await, "the first state");
    let mut latencies = Vec::new();
    let end = Instant::now() + duration;
    let path = format!("/api/games/{id}/moves");
    for ply in 0..600u64 {
        if Instant::now() >= end {
            break;
        }
        let started = Instant::now();
        let heap = ply / 50 + 1;
        let (status, body) =
            client.call(Method::POST, &path, Some(&token), Some(json!({"heap": heap, "take": 1, "ply": ply}))).await;
        assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
        assert!(next_ply(ply + 1).await, "the event of ply {}", ply + 1);
        latencies.push(started.elapsed());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    latencies
}

/// CPU seconds (user + system) used so far by the processes named in the
/// environment `variable` (space-separated; the bench script names the
/// servers in `BENCH_PIDS` and PostgreSQL's processes in `BENCH_DB_PIDS`):
/// on a shared machine the CPU a move costs is a steadier figure than moves
/// per second.
fn cpu_seconds(variable: &str) -> Option<f64> {
    let pids = std::env::var(variable).ok()?;
    let ticks = 100.0; // USER_HZ on Linux
    let mut total = 0.0;
    for pid in pids.split_whitespace() {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let fields: Vec<&str> = stat.rsplit_once(')').map_or(vec![], |(_, rest)| rest.split_whitespace().collect());
        let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
        total += (field(14) + field(15)) / ticks;
    }
    Some(total)
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
    let urls = args.next().unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let clients: usize = args.next().map(|c| c.parse().expect("CLIENTS is a number")).unwrap_or(64);
    let seconds: u64 = args.next().map(|s| s.parse().expect("SECONDS is a number")).unwrap_or(10);
    let hosts: Vec<String> =
        urls.split(',').map(|url| url.trim_start_matches("http://").trim_end_matches('/').to_owned()).collect();
    // One thread for the generator, so the servers keep most of the machine.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        println!("{clients} concurrent clients, {seconds} s per phase, {} server(s) {urls}", hosts.len());
        println!("| phase | requests/s | p50 ms | p99 ms | max ms |");
        println!("|---|---|---|---|---|");
        let probe = (hosts.len() > 1).then(|| {
            let (mover, watcher) = (hosts[0].clone(), hosts[1].clone());
            tokio::spawn(probe_events(mover, watcher, Duration::from_secs(seconds)))
        });
        let next = std::sync::atomic::AtomicUsize::new(0);
        let spread = std::sync::Arc::new((hosts.clone(), next));
        let s = spread.clone();
        let cpu_before = (cpu_seconds("BENCH_PIDS"), cpu_seconds("BENCH_DB_PIDS"));
        let (moves, elapsed) = phase(clients, seconds, move |d| {
            let i = s.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            play_games(s.0[i % s.0.len()].clone(), d)
        })
        .await;
        let servers = cpu_before.0.zip(cpu_seconds("BENCH_PIDS")).map(|(before, after)| after - before);
        let database = cpu_before.1.zip(cpu_seconds("BENCH_DB_PIDS")).map(|(before, after)| after - before);
        let count: usize = moves.iter().map(Vec::len).sum();
        report("moves (POST, durably stored)", moves, elapsed);
        for (what, cpu) in [("the servers", servers), ("PostgreSQL", database)] {
            if let Some(cpu) = cpu {
                println!(
                    "CPU of {what} during the moves: {cpu:.1} s for {count} moves, {:.3} ms a move",
                    cpu * 1000.0 / count.max(1) as f64
                );
            }
        }
        if let Some(probe) = probe {
            let latencies = probe.await.expect("the probe finished");
            report("cross-instance event (move on 1st, event on 2nd; 50/s)", vec![latencies], seconds as f64);
        }
        let s = spread.clone();
        let (files, elapsed) = phase(clients, seconds, move |d| {
            let i = s.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            fetch_static(s.0[i % s.0.len()].clone(), d)
        })
        .await;
        report("static file (GET /assets/style.css)", files, elapsed);
    });
}
