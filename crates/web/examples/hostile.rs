//! Hostile-input benchmark for `bouton serve` (issue 9): what one client can
//! make the server do, and whether everyone else is still served.
//!
//! - `sweep`: every rule set of `GET /api/rules` (Moore's Nim also with its
//!   largest k), normal and misère, at the largest start the limits allow:
//!   a game with the computer first (a reload, the hint, the analysis, a few
//!   seconds of moves), a game on one device played to the end, the reviews,
//!   and `GET /api/analyze`.
//! - `attacks`: a steady load of moves alone, beside idle event-stream
//!   watchers of other games, and then under attack: idle connections (from
//!   many addresses, and from one past the server's cap per client), request
//!   lines that stop half-way, bodies announced and never sent, heavy
//!   analyses whose clients hang up after 0.3 s, heavy analyses that wait,
//!   and new connections reloading a game.
//! - `rate-limit`: one client creating games (and asking for analyses) as
//!   fast as it can, while another client plays.
//! - `starts`: each rule set and its largest start, for the command line's
//!   cases.
//!
//! ```text
//! cargo run --release -p bouton-web --example hostile -- sweep|attacks|rate-limit|starts URL SERVER_PID [--quick]
//! ```
//!
//! Every request is timed; the results are Markdown tables, and `RESULT`
//! lines (`key=value`) that `bench/hostile.sh`, which starts the servers and
//! runs this, reads for its goals. Only addresses in 127.0.0.0/8 are used:
//! each kind of client connects from its own (see [`address`]).

use std::collections::BTreeMap;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bouton_web::limits::{MAX_HEAP_SIZE, MAX_HEAPS, MAX_ROW_WIDTH};
use futures_util::StreamExt;
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::client::conn::http1;
use hyper::{Method, Request, Response};
use hyper_util::rt::TokioIo;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::task::JoinHandle;
use tokio::time::{Instant, sleep, sleep_until, timeout, timeout_at};

/// How long a client waits for an answer before it calls it a timeout.
const PATIENCE: Duration = Duration::from_secs(10);
/// The goal: every request answered (or refused) within this.
const GOAL: Duration = Duration::from_secs(2);
/// The most plies a game of the sweep is played to.
const PLIES: u64 = 2000;
/// When the clients of the heavy analyses hang up.
const HANG_UP: Duration = Duration::from_millis(300);

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The server under test.
struct Target {
    addr: SocketAddr,
    host: String,
    pid: u32,
}

/// What came of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Status(u16),
    /// The client hung up on purpose.
    HungUp,
    /// No answer within [`PATIENCE`].
    Timeout,
    /// The connection failed or was closed without an answer.
    Error,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Status(code) => write!(f, "{code}"),
            Outcome::HungUp => f.write_str("hung up"),
            Outcome::Timeout => f.write_str("timeout"),
            Outcome::Error => f.write_str("error"),
        }
    }
}

/// One request's answer.
struct Answer {
    outcome: Outcome,
    elapsed: Duration,
    body: Bytes,
    retry_after: bool,
}

impl Answer {
    fn is(&self, code: u16) -> bool {
        self.outcome == Outcome::Status(code)
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    /// "201 · 12 ms"
    fn cell(&self) -> String {
        format!("{} · {}", self.outcome, ms(self.elapsed))
    }
}

/// Every request of a run: its group, outcome and time.
#[derive(Default)]
struct Log(Vec<(&'static str, Outcome, Duration)>);

impl Log {
    fn add(&mut self, group: &'static str, answer: &Answer) {
        self.0.push((group, answer.outcome, answer.elapsed));
    }

    fn extend(&mut self, other: Log) {
        self.0.extend(other.0);
    }

    /// Requests not answered within the goal (deliberate hang-ups aside).
    fn late(&self) -> impl Iterator<Item = &(&'static str, Outcome, Duration)> {
        self.0.iter().filter(|(_, outcome, elapsed)| match outcome {
            Outcome::HungUp => false,
            Outcome::Timeout | Outcome::Error => true,
            Outcome::Status(_) => *elapsed > GOAL,
        })
    }

    fn count(&self, outcome: Outcome) -> usize {
        self.0.iter().filter(|(_, o, _)| *o == outcome).count()
    }

    /// A table of answers by status, one row per group and a total.
    fn table(&self, title: &str) {
        let mut outcomes: Vec<Outcome> = self.0.iter().map(|(_, o, _)| *o).collect();
        outcomes.sort_unstable();
        outcomes.dedup();
        let mut groups: Vec<&str> = Vec::new();
        for (group, _, _) in &self.0 {
            if !groups.contains(group) {
                groups.push(group);
            }
        }
        let heads: Vec<String> = outcomes.iter().map(|o| o.to_string()).collect();
        println!();
        println!("| {title} | n | {} | p50 | p99 | slowest | > 2 s |", heads.join(" | "));
        println!("|---|---|{}---|---|---|---|", "---|".repeat(outcomes.len()));
        let row = |name: &str, entries: Vec<&(&'static str, Outcome, Duration)>| {
            let mut times: Vec<Duration> = entries.iter().map(|e| e.2).collect();
            times.sort_unstable();
            let counts: Vec<String> =
                outcomes.iter().map(|o| entries.iter().filter(|e| e.1 == *o).count().to_string()).collect();
            let late = entries
                .iter()
                .filter(|(_, o, e)| {
                    matches!(o, Outcome::Timeout | Outcome::Error) || (*o != Outcome::HungUp && *e > GOAL)
                })
                .count();
            println!(
                "| {name} | {} | {} | {} | {} | {} | {late} |",
                entries.len(),
                counts.join(" | "),
                ms(percentile(&times, 0.5)),
                ms(percentile(&times, 0.99)),
                ms(times.last().copied().unwrap_or_default()),
            );
        };
        for group in &groups {
            row(group, self.0.iter().filter(|e| e.0 == *group).collect());
        }
        row("**all**", self.0.iter().collect());
    }

    /// The `RESULT` line of the goal "every request answered within 2 s".
    fn result(&self, name: &str) {
        let late = self.late().count();
        let slowest = self
            .0
            .iter()
            .filter(|e| e.1 != Outcome::HungUp)
            .max_by_key(|e| e.2)
            .map(|e| (e.0, e.2))
            .unwrap_or_default();
        println!(
            "RESULT {name} requests={} late={late} slowest_ms={:.0} slowest_what={:?} s503={} s429={}",
            self.0.len(),
            slowest.1.as_secs_f64() * 1000.0,
            slowest.0.replace(' ', "_"),
            self.count(Outcome::Status(503)),
            self.count(Outcome::Status(429)),
        );
    }
}

/// One keep-alive HTTP/1 connection, opened on first use and again after a
/// failure, optionally from a given loopback address (the server tells
/// clients apart by address).
struct Client {
    target: Arc<Target>,
    local: Option<IpAddr>,
    sender: Option<http1::SendRequest<Full<Bytes>>>,
}

impl Client {
    fn new(target: &Arc<Target>) -> Client {
        Client { target: target.clone(), local: None, sender: None }
    }

    fn from(target: &Arc<Target>, local: Ipv4Addr) -> Client {
        Client { local: Some(IpAddr::V4(local)), ..Client::new(target) }
    }

    async fn open(&self) -> Result<http1::SendRequest<Full<Bytes>>, BoxError> {
        let stream = connect(self.target.addr, self.local).await?;
        stream.set_nodelay(true)?;
        let (sender, connection) = http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(connection);
        Ok(sender)
    }

    fn request(&self, method: Method, path: &str, token: Option<&str>, body: Option<&Value>) -> Request<Full<Bytes>> {
        let mut request = Request::builder().method(method).uri(path).header("host", &self.target.host);
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        if body.is_some() {
            request = request.header("content-type", "application/json");
        }
        let body = body.map(|b| Bytes::from(serde_json::to_vec(b).unwrap())).unwrap_or_default();
        request.body(Full::new(body)).unwrap()
    }

    /// Sends `request`, on a new connection if the last one was closed.
    async fn exchange(&mut self, request: Request<Full<Bytes>>) -> Result<Response<Incoming>, BoxError> {
        for attempt in 0..2 {
            if self.sender.as_ref().is_none_or(|s| s.is_closed()) {
                self.sender = Some(self.open().await?);
            }
            match self.sender.as_mut().unwrap().ready().await {
                Ok(()) => break,
                // The server closed the kept-alive connection: nothing was sent yet.
                Err(_) if attempt == 0 => self.sender = None,
                Err(e) => return Err(e.into()),
            }
        }
        Ok(self.sender.as_mut().unwrap().send_request(request).await?)
    }

    /// A request answered within `limit`, else a timeout (`hang_up`: the
    /// client hangs up then, on purpose).
    async fn call_within(
        &mut self,
        limit: Duration,
        hang_up: bool,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Answer {
        let request = self.request(method, path, token, body);
        let started = Instant::now();
        let result = timeout(limit, async {
            let response = self.exchange(request).await?;
            let status = response.status().as_u16();
            let retry_after = response.headers().contains_key("retry-after");
            let body = response.into_body().collect().await?.to_bytes();
            Ok::<_, BoxError>((status, retry_after, body))
        })
        .await;
        let elapsed = started.elapsed();
        let (outcome, retry_after, body) = match result {
            Ok(Ok((status, retry_after, body))) => (Outcome::Status(status), retry_after, body),
            Ok(Err(_)) => (Outcome::Error, false, Bytes::new()),
            Err(_) if hang_up => (Outcome::HungUp, false, Bytes::new()),
            Err(_) => (Outcome::Timeout, false, Bytes::new()),
        };
        if !matches!(outcome, Outcome::Status(_)) {
            self.sender = None;
        }
        Answer { outcome, elapsed, body, retry_after }
    }

    async fn call(&mut self, method: Method, path: &str, token: Option<&str>, body: Option<&Value>) -> Answer {
        self.call_within(PATIENCE, false, method, path, token, body).await
    }

    async fn get(&mut self, path: &str, token: Option<&str>) -> Answer {
        self.call(Method::GET, path, token, None).await
    }

    async fn post(&mut self, path: &str, token: Option<&str>, body: &Value) -> Answer {
        self.call(Method::POST, path, token, Some(body)).await
    }
}

/// A connection to `addr`, from the loopback address `local` if given.
async fn connect(addr: SocketAddr, local: Option<IpAddr>) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    if let Some(ip) = local {
        socket.bind(SocketAddr::new(ip, 0))?;
    }
    socket.connect(addr).await
}

/// The `n`th loopback address of a kind of client: the server tells
/// clients apart by address (and lets 64 connections at most come from
/// one), so each kind has its own block, 127.`block`.0.1 on.
fn address(block: u8, n: usize) -> Ipv4Addr {
    Ipv4Addr::new(127, block, (n / 250) as u8, (1 + n % 250) as u8)
}

/// The blocks of addresses ([`address`]) of each kind of client.
mod block {
    pub const LOAD: u8 = 2;
    pub const WATCHERS: u8 = 3;
    pub const HEAVY: u8 = 4;
    pub const RELOADS: u8 = 5;
    pub const HANG_UPS: u8 = 6;
    pub const IDLE: u8 = 7;
    pub const SLOW_LINES: u8 = 8;
    pub const SILENT_BODIES: u8 = 9;
    pub const ONE_ATTACKER: u8 = 10;
}

/// Watchers, and attacking connections spread over many addresses, per address.
const PER_ADDRESS: usize = 40;

/// "12 ms", "1,234 ms"
fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 { format!("{ms:.1} ms") } else { format!("{} ms", thousands(ms.round() as u64)) }
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(index).copied().unwrap_or_default()
}

/// The server's peak and current resident memory, in MiB.
fn memory(pid: u32) -> Option<(f64, f64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<f64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        Some(line.split_whitespace().nth(1)?.parse::<f64>().ok()? / 1024.0)
    };
    Some((field("VmHWM:")?, field("VmRSS:")?))
}

fn memory_text(pid: u32) -> String {
    match memory(pid) {
        Some((peak, now)) => format!("peak {peak:.0} MB, now {now:.0} MB"),
        None => "SERVER GONE".into(),
    }
}

/// The server's CPU time so far (all threads), in seconds.
fn cpu_seconds(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return f64::NAN };
    // After the command's ")": state is field 3, utime 14 and stime 15, in 1/100 s.
    let fields: Vec<&str> =
        stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(f64::NAN);
    (ticks(11) + ticks(12)) / 100.0
}

/// The largest start the limits allow, in a rule set's numbers.
fn largest_start(kind: &str) -> Vec<u64> {
    match kind {
        "pairs" => vec![MAX_HEAP_SIZE; 2 * MAX_HEAPS],
        "rows" => [MAX_ROW_WIDTH, 1, MAX_ROW_WIDTH].repeat(MAX_HEAPS),
        "fibonacci" => vec![MAX_HEAP_SIZE],
        _ => vec![MAX_HEAP_SIZE; MAX_HEAPS],
    }
}

fn numbers(position: &[u64]) -> String {
    position.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}

fn list(value: &Value) -> Vec<u64> {
    value.as_array().map(|a| a.iter().filter_map(Value::as_u64).collect()).unwrap_or_default()
}

/// The other side's random choices, and the moves of single heaps already
/// asked for.
struct Chooser {
    rng: rand_chacha::ChaCha8Rng,
    heaps: std::collections::HashMap<String, Vec<String>>,
}

/// A move of an analysis' list as typed: `1:2:0` is `1 2 0`; Nim's
/// moves are `heap` and `take`.
fn move_text(entry: &Value) -> Option<String> {
    match entry["text"].as_str() {
        Some(text) => Some(text.replace([':', ','], " ")),
        None => Some(format!("{} {}", entry["heap"].as_u64()?, entry["take"].as_u64()?)),
    }
}

/// What a typed move takes: its numbers after the first (a heap's `t a`
/// counts t; a pair's `x y` counts both).
fn taken(text: &str, kind: &str) -> u64 {
    let numbers: Vec<u64> = text.split(' ').filter_map(|n| n.parse().ok()).collect();
    match kind {
        "pairs" => numbers.iter().skip(1).sum(),
        _ => numbers.get(1).copied().unwrap_or_default(),
    }
}

/// The human side's next move: any legal move, or with `fast` one that
/// takes the most (to reach the end). Drawn from normal-play analyses, cheap
/// for every rule set (the legal moves do not depend on the convention): of
/// one heap at a time in heap games, whose heaps may grow past the limit on
/// parts by splitting, else of the whole position. Staircase Nim's steps
/// may grow past the limit too: its moves are drawn here, as are
/// Fibonacci Nim's and Northcott's fast ones.
async fn choose(
    client: &mut Client,
    log: &mut Log,
    (rules, kind): (&str, &str),
    game: &Value,
    fast: bool,
    chooser: &mut Chooser,
) -> Option<String> {
    if kind == "fibonacci" {
        let (heap, max_take) = (game["board"]["heap"].as_u64()?, game["board"]["max_take"].as_u64()?);
        return Some(heap.min(max_take).max(1).to_string());
    }
    let mut position = list(&game["heaps"]);
    if kind == "stairs" {
        let steps: Vec<usize> = (0..position.len()).filter(|&s| position[s] > 0).collect();
        let step = if fast { *steps.first()? } else { *steps.choose(&mut chooser.rng)? };
        let coins = if fast { position[step] } else { chooser.rng.random_range(1..=position[step]) };
        return Some(format!("{} {coins}", step + 1));
    }
    // The analysis is from White's side: the second player's moves are White's with the pieces swapped.
    if kind == "rows" && game["to_move"] == "second" {
        for row in position.chunks_mut(3) {
            row.swap(1, 2);
        }
    }
    if kind == "rows" && fast {
        // Close a gap: next to the other piece.
        let rows: Vec<&[u64]> = position.chunks(3).collect();
        if let Some((r, row)) = rows.iter().enumerate().find(|(_, row)| row[1].abs_diff(row[2]) > 1) {
            let to = if row[1] < row[2] { row[2] - 1 } else { row[2] + 1 };
            return Some(format!("{} {to}", r + 1));
        }
    }
    let mut analyse = async |position: &[u64]| {
        let path = format!("/api/analyze?rules={rules}&position={}", numbers(position));
        let moves = match chooser.heaps.get(&path) {
            Some(moves) => moves.clone(),
            None => {
                let answer = client.get(&path, None).await;
                log.add("choose a move (normal-play analyze)", &answer);
                let moves: Vec<String> = answer.json()["moves"]
                    .as_array()
                    .map(|m| m.iter().filter_map(move_text).collect())
                    .unwrap_or_default();
                if position.len() == 1 && answer.is(200) {
                    chooser.heaps.insert(path, moves.clone());
                }
                moves
            }
        };
        if fast { moves.into_iter().max_by_key(|m| taken(m, kind)) } else { moves.choose(&mut chooser.rng).cloned() }
    };
    if kind != "heaps" {
        return analyse(&position).await;
    }
    // A heap with a move, from a varying one on; its move with the heap's number.
    let start = (game["ply"].as_u64().unwrap_or_default() as usize * 7) % position.len().max(1);
    for i in (0..position.len()).map(|i| (start + i) % position.len()) {
        if position[i] == 0 {
            continue;
        }
        if let Some(text) = analyse(&position[i..=i]).await {
            let rest = text.split_once(' ').map_or("", |(_, rest)| rest);
            return Some(format!("{} {rest}", i + 1));
        }
    }
    None
}

/// Bounds of a run, full or quick.
struct Scale {
    quick: bool,
    /// Seconds of random moves against the computer in the sweep; in a
    /// game on one device, seconds of random moves, then at most of moves
    /// that take the most, to reach the end.
    play: Duration,
    local_random: Duration,
    finish: Duration,
    /// Concurrent clients playing moves, and seconds per throughput phase.
    clients: usize,
    phase: Duration,
    /// Rounds of a phase alone and one beside the watchers.
    rounds: usize,
    attack: Duration,
    watchers: usize,
    watched_games: usize,
    idle: usize,
    /// Idle connections from one address (past the cap per client).
    one_attacker: usize,
    slow_lines: usize,
    silent_bodies: usize,
    hang_ups: usize,
    heavy_clients: usize,
}

impl Scale {
    fn new(quick: bool) -> Scale {
        if quick {
            Scale {
                quick,
                play: Duration::from_secs(1),
                local_random: Duration::ZERO,
                finish: Duration::from_secs(3),
                clients: 8,
                phase: Duration::from_secs(2),
                rounds: 2,
                attack: Duration::from_secs(12),
                watchers: 500,
                watched_games: 50,
                idle: 300,
                one_attacker: 100,
                slow_lines: 20,
                silent_bodies: 20,
                hang_ups: 16,
                heavy_clients: 2,
            }
        } else {
            Scale {
                quick,
                play: Duration::from_secs(8),
                local_random: Duration::from_secs(10),
                finish: Duration::from_secs(40),
                clients: 16,
                phase: Duration::from_secs(5),
                rounds: 4,
                attack: Duration::from_secs(25),
                watchers: 2000,
                watched_games: 200,
                idle: 1100,
                one_attacker: 200,
                slow_lines: 100,
                silent_bodies: 100,
                hang_ups: 16,
                heavy_clients: 4,
            }
        }
    }
}

// ---------------------------------------------------------------- sweep

/// Plays `game` from the seat of `token` (both seats on one device):
/// random moves for `bounds.0`, then the largest takes, until the end,
/// `bounds.1` or [`PLIES`]. Answers the game and a summary.
async fn play(
    client: &mut Client,
    log: &mut Log,
    rules: (&str, &str),
    (id, token): (&str, &str),
    mut game: Value,
    (random, bound): (Duration, Duration),
    chooser: &mut Chooser,
) -> (Value, String) {
    let (mut slowest, mut refused) = (Duration::ZERO, String::new());
    let started = Instant::now();
    let group = if game["mode"] == "local" { "move (one device)" } else { "move (and the computer's reply)" };
    while game["over"] != true && game["ply"].as_u64().unwrap_or(u64::MAX) < PLIES && started.elapsed() < bound {
        let fast = started.elapsed() >= random;
        let Some(mv) = choose(client, log, rules, &game, fast, chooser).await else { break };
        let ply = game["ply"].as_u64().unwrap_or_default();
        let answer =
            client.post(&format!("/api/games/{id}/moves"), Some(token), &json!({"move": mv, "ply": ply})).await;
        log.add(group, &answer);
        slowest = slowest.max(answer.elapsed);
        if !answer.is(200) {
            refused = format!(", refused: {} on `{mv}`", answer.outcome);
            break;
        }
        game = answer.json();
    }
    let over = if game["over"] == true { "over" } else { "not over" };
    let summary = format!("{} plies, {over}; slowest {}{refused}", game["ply"], ms(slowest));
    (game, summary)
}

/// Every rule set of `GET /api/rules` with its kind, and Moore's Nim also
/// with its largest k.
async fn rule_sets(client: &mut Client) -> Vec<(String, String)> {
    let catalogue = client.get("/api/rules", None).await.json();
    let mut sets = Vec::new();
    for choice in catalogue["rules"].as_array().expect("GET /api/rules lists the rule sets") {
        let (id, kind) = (choice["id"].as_str().unwrap(), choice["kind"].as_str().unwrap());
        sets.push((id.to_owned(), kind.to_owned()));
        if choice["family"] == "moore" && id != "moore:8" {
            sets.push(("moore:8".into(), kind.to_owned()));
        }
    }
    sets
}

/// For the command line's cases: each rule set and its largest start, one a line.
async fn starts(target: Arc<Target>) {
    for (rules, kind) in rule_sets(&mut Client::new(&target)).await {
        let start: Vec<String> = largest_start(&kind).iter().map(u64::to_string).collect();
        println!("{rules} {}", start.join(" "));
    }
}

/// Case 1: every rule set, normal and misère, at the largest start.
async fn sweep(target: Arc<Target>, scale: &Scale) {
    let mut client = Client::new(&target);
    let sets = rule_sets(&mut client).await;
    println!(
        "{} rule sets from GET /api/rules (and moore:8), normal and misère. A game with the computer first, where the \
         other side plays random moves for {} s; a game on one device from the same start, random moves for {} s, \
         then the largest takes, to the end (or {} s, {} plies).",
        sets.len(),
        scale.play.as_secs(),
        scale.local_random.as_secs(),
        scale.finish.as_secs(),
        PLIES
    );
    println!();
    println!(
        "| rules | play | start | create | reload | hint | analysis | moves against the computer | its review | \
         a game on one device | its review | analyze | server memory |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut log = Log::default();
    let mut chooser = Chooser { rng: rand_chacha::ChaCha8Rng::seed_from_u64(9), heaps: Default::default() };
    for (rules, kind) in &sets {
        for misere in [false, true] {
            let start = largest_start(kind);
            let create = client
                .post(
                    "/api/games",
                    None,
                    &json!({"rules": rules, "position": start, "misere": misere, "mode": "computer-first"}),
                )
                .await;
            log.add("create (computer first)", &create);
            let short = if start.iter().all(|&n| n == start[0]) {
                format!("{}×{}", start.len(), start[0])
            } else if kind == "rows" {
                format!("{}×({})", start.len() / 3, numbers(&start[..3]))
            } else {
                numbers(&start)
            };
            let convention = if misere { "misère" } else { "normal" };
            print!("| `{rules}` | {convention} | {short} | {} |", create.cell());
            let grant = create.json();
            let (Some(id), Some(token)) = (grant["game"]["id"].as_str(), grant["token"].as_str()) else {
                println!(" — | — | — | — | — | — | — | — | — | {} |", memory_text(target.pid));
                continue;
            };
            let (id, token) = (id.to_owned(), token.to_owned());
            let game = grant["game"].clone();
            let reload = client.get(&format!("/api/games/{id}"), None).await;
            log.add("reload", &reload);
            let hint = client.get(&format!("/api/games/{id}/hint"), Some(&token)).await;
            log.add("hint", &hint);
            let analysis = client.get(&format!("/api/games/{id}/analysis"), Some(&token)).await;
            log.add("analysis", &analysis);
            print!(" {} | {} | {} |", reload.cell(), hint.cell(), analysis.cell());
            // Against the computer: random moves for a while.
            let (game, vs_computer) =
                play(&mut client, &mut log, (rules, kind), (&id, &token), game, (scale.play, scale.play), &mut chooser)
                    .await;
            let review = if game["over"] == true {
                let review = client.get(&format!("/api/games/{id}/review"), Some(&token)).await;
                log.add("review", &review);
                review.cell()
            } else {
                "(not over)".into()
            };
            let reload = client.get(&format!("/api/games/{id}"), None).await;
            log.add("reload", &reload);
            // Two players on one device, to the end: the longest review.
            let create = client
                .post(
                    "/api/games",
                    None,
                    &json!({"rules": rules, "position": start, "misere": misere, "mode": "local"}),
                )
                .await;
            log.add("create (two players on one device)", &create);
            let grant = create.json();
            let (local, local_review) = match (grant["game"]["id"].as_str(), grant["token"].as_str()) {
                (Some(id), Some(token)) => {
                    let game = grant["game"].clone();
                    let bounds = (scale.local_random, scale.finish);
                    let (_, played) =
                        play(&mut client, &mut log, (rules, kind), (id, token), game, bounds, &mut chooser).await;
                    let review = client.get(&format!("/api/games/{id}/review"), Some(token)).await;
                    log.add("review", &review);
                    let reload = client.get(&format!("/api/games/{id}"), None).await;
                    log.add("reload", &reload);
                    (played, review.cell())
                }
                _ => (format!("create: {}", create.cell()), "—".into()),
            };
            let path = format!("/api/analyze?rules={rules}&misere={misere}&position={}", numbers(&start));
            let analyze = client.get(&path, None).await;
            log.add("GET /api/analyze", &analyze);
            println!(
                " {vs_computer} | {review} | {local} | {local_review} | {} | {} |",
                analyze.cell(),
                memory_text(target.pid)
            );
        }
    }
    log.table("sweep requests");
    log.result("sweep");
}

// ---------------------------------------------------------------- attacks

/// Move latencies of a throughput phase, and every other answer.
#[derive(Default)]
struct Phase {
    moves: Vec<Duration>,
    seconds: f64,
    log: Log,
}

impl Phase {
    fn per_second(&self) -> f64 {
        self.moves.len() as f64 / self.seconds
    }

    /// Adds another phase's moves and time to this one's.
    fn absorb(&mut self, other: Phase) {
        self.moves.extend(other.moves);
        self.moves.sort_unstable();
        self.seconds += other.seconds;
        self.log.extend(other.log);
    }

    fn row(&self, name: &str) {
        println!(
            "| {name} | {} | {} | {} | {} |",
            thousands(self.per_second().round() as u64),
            ms(percentile(&self.moves, 0.5)),
            ms(percentile(&self.moves, 0.99)),
            ms(self.moves.last().copied().unwrap_or_default()),
        );
    }
}

/// Client `which` playing Nim games of 12 heaps of 50 without pause until
/// `end`, one token at a time (as `examples/load.rs`).
async fn play_moves(target: Arc<Target>, which: usize, end: Instant) -> (Vec<Duration>, Log) {
    let mut client = Client::from(&target, address(block::LOAD, which));
    let (mut latencies, mut log) = (Vec::new(), Log::default());
    'games: while Instant::now() < end {
        let create = client
            .post("/api/games", None, &json!({"mode": "local", "position": vec![MAX_HEAP_SIZE; MAX_HEAPS]}))
            .await;
        log.add("load: create a game", &create);
        let grant = create.json();
        let (Some(id), Some(token)) = (grant["game"]["id"].as_str(), grant["token"].as_str()) else {
            sleep(Duration::from_millis(100)).await;
            continue;
        };
        let path = format!("/api/games/{id}/moves");
        for ply in 0..600u64 {
            if Instant::now() >= end {
                break 'games;
            }
            let answer = client.post(&path, Some(token), &json!({"heap": ply / 50 + 1, "take": 1, "ply": ply})).await;
            log.add("load: move", &answer);
            latencies.push(answer.elapsed);
            if !answer.is(200) {
                continue 'games;
            }
        }
    }
    (latencies, log)
}

async fn moves_phase(target: &Arc<Target>, clients: usize, duration: Duration) -> Phase {
    let started = Instant::now();
    let end = started + duration;
    let tasks: Vec<_> = (0..clients).map(|i| tokio::spawn(play_moves(target.clone(), i, end))).collect();
    let (mut moves, mut log) = (Vec::new(), Log::default());
    for task in tasks {
        let (latencies, l) = task.await.expect("a client finished");
        moves.extend(latencies);
        log.extend(l);
    }
    moves.sort_unstable();
    Phase { moves, seconds: started.elapsed().as_secs_f64(), log }
}

/// Games for the watchers: local Nim games nobody plays.
async fn create_games(target: &Arc<Target>, count: usize) -> Vec<String> {
    let mut client = Client::new(target);
    let mut ids = Vec::new();
    for _ in 0..count {
        let grant = client.post("/api/games", None, &json!({"mode": "local"})).await.json();
        ids.push(grant["game"]["id"].as_str().expect("a game for the watchers").to_owned());
    }
    ids
}

/// Idle event-stream watchers, each holding its connection open.
struct Watchers {
    tasks: Vec<JoinHandle<()>>,
    /// `data:` events received after the first one, by all watchers.
    later_events: Arc<AtomicU64>,
}

impl Watchers {
    async fn open(target: &Arc<Target>, games: &[String], count: usize, log: &mut Log) -> Watchers {
        let later_events = Arc::new(AtomicU64::new(0));
        let opened = futures_util::stream::iter(0..count)
            .map(|i| {
                let (target, id, later) = (target.clone(), games[i % games.len()].clone(), later_events.clone());
                async move { Watchers::watch(target, address(block::WATCHERS, i / PER_ADDRESS), id, later).await }
            })
            .buffer_unordered(64)
            .collect::<Vec<_>>()
            .await;
        let mut tasks = Vec::new();
        for (answer, task) in opened {
            log.add("watcher: first event", &answer);
            tasks.extend(task);
        }
        Watchers { tasks, later_events }
    }

    /// Opens one watcher: the answer is the time to its first event.
    async fn watch(
        target: Arc<Target>,
        local: Ipv4Addr,
        id: String,
        later: Arc<AtomicU64>,
    ) -> (Answer, Option<JoinHandle<()>>) {
        let mut client = Client::from(&target, local);
        let mut request = client.request(Method::GET, &format!("/api/games/{id}/events"), None, None);
        request.headers_mut().insert("accept", "text/event-stream".parse().unwrap());
        let started = Instant::now();
        let opened = timeout(PATIENCE, async {
            let response = client.exchange(request).await?;
            let status = response.status().as_u16();
            let mut body = response.into_body();
            if status == 200 {
                body.frame().await.ok_or("no first event")??;
            }
            Ok::<_, BoxError>((status, body))
        })
        .await;
        let elapsed = started.elapsed();
        let answer = |outcome| Answer { outcome, elapsed, body: Bytes::new(), retry_after: false };
        match opened {
            Ok(Ok((200, mut body))) => {
                let task = tokio::spawn(async move {
                    let _client = client;
                    while let Some(Ok(frame)) = body.frame().await {
                        if frame.data_ref().is_some_and(|d| d.windows(5).any(|w| w == b"data:")) {
                            later.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
                (answer(Outcome::Status(200)), Some(task))
            }
            Ok(Ok((status, _))) => (answer(Outcome::Status(status)), None),
            Ok(Err(_)) => (answer(Outcome::Error), None),
            Err(_) => (answer(Outcome::Timeout), None),
        }
    }

    /// How many are still connected.
    fn connected(&self) -> usize {
        self.tasks.iter().filter(|t| !t.is_finished()).count()
    }

    fn close(self) {
        for task in self.tasks {
            task.abort();
        }
    }
}

/// What became of connections that send `payload` and then nothing.
#[derive(Default)]
struct Stalls {
    opened: u64,
    refused: u64,
    /// Still open at the end.
    held: u64,
    /// How long each lasted before the server closed it.
    closed: Vec<Duration>,
    /// What the server answered before closing ("408", "none").
    answers: BTreeMap<String, u64>,
}

impl Stalls {
    fn merge(&mut self, other: Stalls) {
        self.opened += other.opened;
        self.refused += other.refused;
        self.held += other.held;
        self.closed.extend(other.closed);
        for (answer, n) in other.answers {
            *self.answers.entry(answer).or_default() += n;
        }
    }

    fn describe(&mut self) -> String {
        self.closed.sort_unstable();
        let closed = match (self.closed.first(), self.closed.last()) {
            (Some(first), Some(last)) => format!(
                "{} closed by the server after {:.1}–{:.1} s",
                thousands(self.closed.len() as u64),
                first.as_secs_f64(),
                last.as_secs_f64()
            ),
            _ => "none closed by the server during the attack".into(),
        };
        let answers: Vec<String> = self.answers.iter().map(|(a, n)| format!("{a} ×{n}")).collect();
        let answers = if answers.is_empty() { String::new() } else { format!("; answers: {}", answers.join(", ")) };
        let refused = if self.refused > 0 { format!("; {} connects failed", self.refused) } else { String::new() };
        format!(
            "{} opened (reopened when closed), {} open at the end; {closed}{answers}{refused}",
            thousands(self.opened),
            thousands(self.held)
        )
    }
}

/// Where stalling connections come from: the first address of a block
/// ([`address`]), and how many from each address on.
#[derive(Clone, Copy)]
struct Origin {
    block: u8,
    per_address: usize,
}

/// `count` connections that each send `payload` and then wait, reopened
/// when the server closes them (a second later if it did at once), until
/// `end`.
async fn stall(addr: SocketAddr, from: Origin, payload: &'static [u8], count: usize, end: Instant) -> Stalls {
    let tasks: Vec<_> = (0..count)
        .map(|i| {
            tokio::spawn(async move {
                let mut stalls = Stalls::default();
                let local = IpAddr::V4(address(from.block, i / from.per_address));
                // Spread the openings over about a second.
                sleep(Duration::from_micros(1_000_000 * i as u64 / count as u64)).await;
                while Instant::now() < end {
                    let Ok(Ok(mut stream)) = timeout_at(end, connect(addr, Some(local))).await else {
                        stalls.refused += 1;
                        sleep(Duration::from_millis(100)).await;
                        continue;
                    };
                    stalls.opened += 1;
                    let opened = Instant::now();
                    if stream.write_all(payload).await.is_err() {
                        continue;
                    }
                    let mut received = Vec::new();
                    let mut buffer = [0u8; 512];
                    let closed = timeout_at(end, async {
                        while let Ok(n @ 1..) = stream.read(&mut buffer).await {
                            received.extend_from_slice(&buffer[..n]);
                        }
                    })
                    .await;
                    if closed.is_err() {
                        stalls.held += 1;
                        break;
                    }
                    stalls.closed.push(opened.elapsed());
                    let answer = String::from_utf8_lossy(&received);
                    let status = answer.split_whitespace().nth(1).unwrap_or("none").to_owned();
                    *stalls.answers.entry(status).or_default() += 1;
                    if opened.elapsed() < Duration::from_secs(1) {
                        let _ = timeout_at(end, sleep(Duration::from_secs(1))).await;
                    }
                }
                stalls
            })
        })
        .collect();
    let mut all = Stalls::default();
    for task in tasks {
        all.merge(task.await.expect("a stalling connection finished"));
    }
    all
}

/// The heavy analysis of the issue: misère Lasker's Nim on 12 heaps of 50.
fn heavy_path() -> String {
    format!("/api/analyze?rules=lasker&misere=true&position={}", numbers(&[MAX_HEAP_SIZE; MAX_HEAPS]))
}

/// `count` heavy analyses at once, each on its own connection, whose
/// clients hang up after [`HANG_UP`] (those answered sooner are counted).
async fn hang_up_wave(target: &Arc<Target>, count: usize) -> Log {
    let tasks: Vec<_> = (0..count)
        .map(|_| {
            let target = target.clone();
            tokio::spawn(async move {
                let mut client = Client::from(&target, address(block::HANG_UPS, 0));
                client.call_within(HANG_UP, true, Method::GET, &heavy_path(), None, None).await
            })
        })
        .collect();
    let mut log = Log::default();
    for task in tasks {
        log.add("heavy analysis, hung up after 0.3 s", &task.await.expect("a hang-up finished"));
    }
    log
}

/// Heavy requests that wait for their answers, until `end`.
async fn heavy_analyst(target: Arc<Target>, which: usize, end: Instant) -> Log {
    let heaps = numbers(&[MAX_HEAP_SIZE; MAX_HEAPS]);
    let paths = [
        heavy_path(),
        format!("/api/analyze?rules=grundy&misere=true&position={heaps}"),
        format!("/api/analyze?rules=kayles&misere=true&position={heaps}"),
        format!("/api/analyze?rules=moore:8&misere=true&position={heaps}"),
        format!("/api/analyze?rules=wythoff&misere=true&position={}", numbers(&largest_start("pairs"))),
    ];
    let mut client = Client::from(&target, address(block::HEAVY, which));
    let mut log = Log::default();
    let mut i = which;
    while Instant::now() < end {
        let answer = client.get(&paths[i % paths.len()], None).await;
        log.add("heavy analysis, waiting", &answer);
        if answer.is(503) {
            sleep(Duration::from_millis(100)).await;
        }
        i += 1;
    }
    log
}

/// A new connection every 100 ms reloading a game, as a page would.
async fn fresh_reloads(target: Arc<Target>, id: String, end: Instant) -> Log {
    let mut log = Log::default();
    while Instant::now() < end {
        let mut client = Client::from(&target, address(block::RELOADS, 0));
        log.add("new connection: reload a game", &client.get(&format!("/api/games/{id}"), None).await);
        sleep(Duration::from_millis(100)).await;
    }
    log
}

/// Case 2: throughput with and without idle watchers of other games, a
/// wave of hung-up heavy analyses alone, then every attack at once.
async fn attacks(target: Arc<Target>, scale: &Scale) {
    let pid = target.pid;
    let mut log = Log::default();
    let games = create_games(&target, scale.watched_games).await;
    println!(
        "{} clients playing Nim 12×50 without pause (every move durably stored); {} s per phase; {} watchers of {} other games",
        scale.clients,
        scale.phase.as_secs(),
        thousands(scale.watchers as u64),
        scale.watched_games
    );
    println!();
    println!("| phase | moves/s | p50 | p99 | max |");
    println!("|---|---|---|---|---|");
    // Alone and beside the watchers in turn, ABBA, so that a drift of the shared machine cancels out.
    let (mut alone, mut watched) = (Phase::default(), Phase::default());
    let (mut connected, mut later) = (usize::MAX, 0);
    for round in 0..scale.rounds {
        for with_watchers in if round % 2 == 0 { [false, true] } else { [true, false] } {
            if !with_watchers {
                let phase = moves_phase(&target, scale.clients, scale.phase).await;
                phase.row("moves alone");
                alone.absorb(phase);
                continue;
            }
            let watchers = Watchers::open(&target, &games, scale.watchers, &mut log).await;
            connected = connected.min(watchers.connected());
            let phase = moves_phase(&target, scale.clients, scale.phase).await;
            phase.row(&format!("moves beside {} idle watchers of other games", thousands(watchers.connected() as u64)));
            watched.absorb(phase);
            later += watchers.later_events.load(Ordering::Relaxed);
            watchers.close();
        }
    }
    alone.row("**moves alone, all rounds**");
    watched.row("**moves beside the watchers, all rounds**");
    let cost = 100.0 * (1.0 - watched.per_second() / alone.per_second());
    println!();
    println!(
        "Watchers: at least {connected} of {} connected in each round; events after the first one: {later}; moves/s \
         {:.0} beside them against {:.0} alone: cost {cost:.1} %. {}",
        scale.watchers,
        watched.per_second(),
        alone.per_second(),
        memory_text(pid)
    );
    log.0.extend(alone.log.0.iter().chain(&watched.log.0).copied());

    // The hung-up wave alone: is the work dropped with its clients?
    let cpu_before = cpu_seconds(pid);
    let started = Instant::now();
    let wave = hang_up_wave(&target, scale.hang_ups).await;
    sleep_until(started + HANG_UP + Duration::from_millis(100)).await;
    let cpu_at_hang_up = cpu_seconds(pid);
    let mut client = Client::new(&target);
    let light = client.get("/api/rules", None).await;
    log.add("after the hang-ups: GET /api/rules", &light);
    sleep_until(started + HANG_UP + Duration::from_millis(3100)).await;
    let cpu_after = cpu_seconds(pid);
    let heavy = client.get(&heavy_path(), None).await;
    log.add("after the hang-ups: a heavy analysis", &heavy);
    let answered: Vec<String> = [Outcome::Status(503), Outcome::Status(422), Outcome::Status(200), Outcome::HungUp]
        .into_iter()
        .map(|o| format!("{o} ×{}", wave.count(o)))
        .collect();
    println!();
    println!(
        "{} heavy analyses (misère Lasker's Nim 12×50) whose clients hang up after 0.3 s, alone: {}. Server CPU \
         {:.2} s until 0.4 s, then {:.2} s in the next 3 s (a light request at 0.4 s: {}; a heavy one at 3.4 s: {}). \
         {}",
        scale.hang_ups,
        answered.join(", "),
        cpu_at_hang_up - cpu_before,
        cpu_after - cpu_at_hang_up,
        light.cell(),
        heavy.cell(),
        memory_text(pid)
    );
    println!(
        "RESULT hangup cpu_during_s={:.2} cpu_after_s={:.2} heavy_after_ms={:.0}",
        cpu_at_hang_up - cpu_before,
        cpu_after - cpu_at_hang_up,
        heavy.elapsed.as_secs_f64() * 1000.0
    );
    log.extend(wave);

    // Everything at once.
    let mut attack_log = Log::default();
    let watchers = Watchers::open(&target, &games, scale.watchers, &mut attack_log).await;
    let connected = watchers.connected();
    let started = Instant::now();
    let end = started + scale.attack;
    let addr = target.addr;
    let spread = |block| Origin { block, per_address: PER_ADDRESS };
    let idle = tokio::spawn(stall(addr, spread(block::IDLE), b"", scale.idle, end));
    let one = Origin { block: block::ONE_ATTACKER, per_address: usize::MAX };
    let one_attacker = tokio::spawn(stall(addr, one, b"", scale.one_attacker, end));
    let slow = tokio::spawn(stall(addr, spread(block::SLOW_LINES), b"GET /api/ru", scale.slow_lines, end));
    let silent = tokio::spawn(stall(
        addr,
        spread(block::SILENT_BODIES),
        b"POST /api/games HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n",
        scale.silent_bodies,
        end,
    ));
    let heavy: Vec<_> = (0..scale.heavy_clients).map(|i| tokio::spawn(heavy_analyst(target.clone(), i, end))).collect();
    let reloads = tokio::spawn(fresh_reloads(target.clone(), games[0].clone(), end));
    let waves = {
        let (target, count) = (target.clone(), scale.hang_ups);
        tokio::spawn(async move {
            let mut log = Log::default();
            // A wave every 2 s, the first once the idle connections are open.
            let mut next = Instant::now() + Duration::from_secs(1);
            while next + HANG_UP < end {
                sleep_until(next).await;
                log.extend(hang_up_wave(&target, count).await);
                next += Duration::from_secs(2);
            }
            log
        })
    };
    let peak_sampler = tokio::spawn(async move {
        let mut peak_rss: f64 = 0.0;
        while Instant::now() < end {
            peak_rss = peak_rss.max(memory(pid).map_or(0.0, |m| m.1));
            sleep(Duration::from_millis(100)).await;
        }
        peak_rss
    });
    // The load starts once the connections are open.
    sleep(Duration::from_secs(1)).await;
    let under_attack = moves_phase(&target, scale.clients, end - Instant::now()).await;
    let (mut idle, mut slow, mut silent) = (idle.await.unwrap(), slow.await.unwrap(), silent.await.unwrap());
    let mut one_attacker = one_attacker.await.unwrap();
    for task in heavy {
        attack_log.extend(task.await.unwrap());
    }
    attack_log.extend(reloads.await.unwrap());
    attack_log.extend(waves.await.unwrap());
    let peak_rss = peak_sampler.await.unwrap();
    let later = watchers.later_events.load(Ordering::Relaxed);
    let still = watchers.connected();
    watchers.close();
    let mut client = Client::new(&target);
    let after = client.get("/api/rules", None).await;
    attack_log.add("after the attacks: GET /api/rules", &after);

    println!();
    println!("Under attack for {} s, all at once:", scale.attack.as_secs());
    println!();
    println!("| attack | what happened |");
    println!("|---|---|");
    let spread = |n: usize| match n.div_ceil(PER_ADDRESS) {
        1 => "from one address".to_owned(),
        addresses => format!("from {addresses} addresses"),
    };
    println!("| {} idle connections, {} | {} |", thousands(scale.idle as u64), spread(scale.idle), idle.describe());
    println!("| {} idle connections from one address | {} |", scale.one_attacker, one_attacker.describe());
    println!(
        "| {} request lines stopped half-way (`GET /api/ru`), {} | {} |",
        scale.slow_lines,
        spread(scale.slow_lines),
        slow.describe()
    );
    println!(
        "| {} bodies announced (100 bytes) and never sent, {} | {} |",
        scale.silent_bodies,
        spread(scale.silent_bodies),
        silent.describe()
    );
    println!(
        "| {} idle watchers of other games | {connected} connected, {still} still at the end; events after the first: {later} |",
        thousands(scale.watchers as u64)
    );
    println!(
        "| {} heavy analyses hung up after 0.3 s, every 2 s | {} waves |",
        scale.hang_ups,
        attack_log.0.iter().filter(|e| e.0.starts_with("heavy analysis, hung")).count() / scale.hang_ups.max(1)
    );
    println!("| {} clients asking heavy analyses and waiting | see below |", scale.heavy_clients);
    println!("| a new connection every 100 ms reloading a game | see below |");
    println!();
    println!("| phase | moves/s | p50 | p99 | max |");
    println!("|---|---|---|---|---|");
    under_attack.row("moves under attack");
    println!();
    println!(
        "Server memory: {}; largest RSS sampled during the attack {peak_rss:.0} MB. After the attacks: {}.",
        memory_text(pid),
        after.cell()
    );
    attack_log.0.extend(under_attack.log.0.iter().copied());
    attack_log.table("requests under attack");
    log.table("requests before the attacks");
    attack_log.result("attack");
    log.result("before_attack");
    println!(
        "RESULT moves alone_per_s={:.0} alone_p99_ms={:.2} watchers={connected} watchers_per_s={:.0} \
         watchers_p99_ms={:.2} watcher_cost_pct={cost:.1} attack_per_s={:.0} attack_p50_ms={:.2} attack_p99_ms={:.2} \
         attack_max_ms={:.1}",
        alone.per_second(),
        percentile(&alone.moves, 0.99).as_secs_f64() * 1000.0,
        watched.per_second(),
        percentile(&watched.moves, 0.99).as_secs_f64() * 1000.0,
        under_attack.per_second(),
        percentile(&under_attack.moves, 0.5).as_secs_f64() * 1000.0,
        percentile(&under_attack.moves, 0.99).as_secs_f64() * 1000.0,
        under_attack.moves.last().copied().unwrap_or_default().as_secs_f64() * 1000.0,
    );
    println!(
        "RESULT connections idle_closed={} one_attacker_held={} one_attacker_429={} slow_closed={} silent_closed={} \
         silent_408={}",
        idle.closed.len(),
        one_attacker.held,
        one_attacker.answers.get("429").copied().unwrap_or_default(),
        slow.closed.len(),
        silent.closed.len(),
        silent.answers.get("408").copied().unwrap_or_default()
    );
    if scale.quick {
        println!("(quick: the idle timeout may be longer than the attack)");
    }
}

// ---------------------------------------------------------------- rate limit

/// Case 2, the rate limits: one address creates games and asks analyses as
/// fast as it can; another plays at a normal pace.
async fn rate_limit(target: Arc<Target>, scale: &Scale) {
    let seconds = if scale.quick { 3 } else { 6 };
    let end = Instant::now() + Duration::from_secs(seconds);
    let burst = |local: Ipv4Addr, creating: bool| {
        let target = target.clone();
        tokio::spawn(async move {
            let mut client = Client::from(&target, local);
            let mut log = Log::default();
            let (mut retry_after, mut refused) = (0, 0);
            while Instant::now() < end {
                let answer = if creating {
                    let a = client.post("/api/games", None, &json!({"mode": "local"})).await;
                    log.add("one client: create games as fast as it can", &a);
                    a
                } else {
                    let a = client.get("/api/analyze?position=3,5,7", None).await;
                    log.add("one client: analyses as fast as it can", &a);
                    a
                };
                if answer.is(429) {
                    refused += 1;
                    retry_after += usize::from(answer.retry_after);
                }
            }
            (log, refused, retry_after)
        })
    };
    let creators: Vec<_> = (0..4).map(|_| burst(Ipv4Addr::new(127, 0, 0, 1), true)).collect();
    let analysts: Vec<_> = (0..2).map(|_| burst(Ipv4Addr::new(127, 0, 0, 3), false)).collect();
    let other = {
        let target = target.clone();
        tokio::spawn(async move {
            let mut client = Client::from(&target, Ipv4Addr::new(127, 0, 0, 2));
            let mut log = Log::default();
            while Instant::now() < end {
                let create = client.post("/api/games", None, &json!({"mode": "computer", "position": [3, 5, 7]})).await;
                log.add("another client: create a game", &create);
                let grant = create.json();
                if let (Some(id), Some(token)) = (grant["game"]["id"].as_str(), grant["token"].as_str()) {
                    let hint = client.get(&format!("/api/games/{id}/hint"), Some(token)).await;
                    log.add("another client: hint", &hint);
                    let mv = json!({"heap": 3, "take": 1, "ply": 0});
                    log.add(
                        "another client: move",
                        &client.post(&format!("/api/games/{id}/moves"), Some(token), &mv).await,
                    );
                }
                sleep(Duration::from_millis(500)).await;
            }
            log
        })
    };
    let mut log = Log::default();
    let (mut refused, mut with_retry_after) = (0, 0);
    for task in creators.into_iter().chain(analysts) {
        let (l, r, a) = task.await.unwrap();
        log.extend(l);
        refused += r;
        with_retry_after += a;
    }
    let other = other.await.unwrap();
    let other_refused = other.count(Outcome::Status(429));
    log.extend(other);
    println!("{seconds} s against a server with the default rate limits; {}", memory_text(target.pid));
    log.table("rate-limited requests");
    println!();
    println!(
        "429 answers: {refused} to the flooding clients ({with_retry_after} with Retry-After), {other_refused} to the other."
    );
    log.result("rate_limit");
    println!(
        "RESULT rate_limit_refusals flood_429={refused} flood_retry_after={with_retry_after} other_429={other_refused}"
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: hostile sweep|attacks|rate-limit|starts URL SERVER_PID [--quick]";
    let [case, url, pid, rest @ ..] = args.as_slice() else { panic!("{usage}") };
    let scale = Scale::new(rest.iter().any(|a| a == "--quick"));
    let host = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
    let addr: SocketAddr = host.parse().expect("URL is http://IP:PORT");
    assert!(addr.ip().is_loopback(), "only a server on this machine is attacked");
    let target = Arc::new(Target { addr, host, pid: pid.parse().expect("SERVER_PID is a number") });
    // One thread for the clients, so the server keeps most of the machine.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        match case.as_str() {
            "sweep" => sweep(target, &scale).await,
            "attacks" => attacks(target, &scale).await,
            "rate-limit" => rate_limit(target, &scale).await,
            "starts" => starts(target).await,
            _ => panic!("{usage}"),
        }
    });
}
