//! `bouton serve` as a real process on a free port: durability across
//! SIGKILL, live events, and simultaneous moves over real sockets.

use std::io::{BufRead, BufReader};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use serde_json::{Value, json};

use crate::util::{Server, TempDir};

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(20)))
        .build()
        .into()
}

/// POSTs JSON, returns (status, body).
fn post(url: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let mut request = agent().post(url);
    if let Some(token) = token {
        request = request.header("Authorization", &format!("Bearer {token}"));
    }
    let mut response = request.send_json(body).expect("the server answers");
    let status = response.status().as_u16();
    (status, response.body_mut().read_json().unwrap_or(Value::Null))
}

fn get(url: &str) -> Value {
    let mut response = agent().get(url).call().expect("the server answers");
    assert_eq!(response.status().as_u16(), 200);
    response.body_mut().read_json().unwrap()
}

/// Two moves at ply 0 of game `id` (taking 1 from heap 1, and from heap 2),
/// posted at the same moment through `servers[0]` and `servers[1]`; the
/// answers sorted by status.
fn race_first_moves(servers: [&str; 2], id: &str, token: &str) -> Vec<(u16, Value)> {
    let barrier = Arc::new(Barrier::new(2));
    let racers: Vec<_> = servers
        .into_iter()
        .zip(1..=2u64)
        .map(|(server, heap)| {
            let (url, token, barrier) = (format!("{server}/api/games/{id}/moves"), token.to_owned(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                post(&url, Some(&token), json!({"heap": heap, "take": 1, "ply": 0}))
            })
        })
        .collect();
    let mut results: Vec<(u16, Value)> = racers.into_iter().map(|r| r.join().unwrap()).collect();
    results.sort_by_key(|(status, _)| *status);
    results
}

#[test]
fn an_acknowledged_move_survives_sigkill_and_the_game_continues() {
    let dir = TempDir::new();
    let db = dir.join("bouton.sqlite3");
    let server = Server::start(&db);
    let (status, grant) =
        post(&format!("{}/api/games", server.url), None, json!({"heaps": [3, 5, 7], "level": "perfect"}));
    assert_eq!(status, 201);
    let id = grant["game"]["id"].as_str().unwrap().to_owned();
    let token = grant["token"].as_str().unwrap().to_owned();
    let (status, after) =
        post(&format!("{}/api/games/{id}/moves", server.url), Some(&token), json!({"heap": 3, "take": 1, "ply": 0}));
    assert_eq!(status, 200);
    // Killed right after the acknowledgement.
    server.kill();

    let server = Server::start(&db);
    let resumed = get(&format!("{}/api/games/{id}", server.url));
    assert_eq!(resumed["ply"], 2);
    assert_eq!(resumed["moves"], after["moves"]);
    assert_eq!(resumed["heaps"], after["heaps"]);
    // The seat token still works, and play goes on where it was (from a heap
    // the computer's reply left some tokens in).
    let heap = resumed["heaps"].as_array().unwrap().iter().position(|h| h.as_u64() > Some(0)).unwrap() + 1;
    let (status, next) =
        post(&format!("{}/api/games/{id}/moves", server.url), Some(&token), json!({"heap": heap, "take": 1, "ply": 2}));
    assert_eq!(status, 200, "{next}");
    assert_eq!(next["ply"], 4);
}

#[test]
fn moves_reach_watchers_as_server_sent_events() {
    let dir = TempDir::new();
    let server = Server::start(&dir.join("events.sqlite3"));
    let (_, grant) = post(&format!("{}/api/games", server.url), None, json!({"mode": "online", "heaps": [2, 2]}));
    let id = grant["game"]["id"].as_str().unwrap().to_owned();
    let owner = grant["token"].as_str().unwrap().to_owned();
    let response = agent().get(&format!("{}/api/games/{id}/events", server.url)).call().unwrap();
    assert_eq!(response.headers().get("content-type").unwrap(), "text/event-stream");
    let mut events = BufReader::new(response.into_body().into_reader());
    let mut next_state = move || -> Value {
        let mut line = String::new();
        loop {
            line.clear();
            events.read_line(&mut line).expect("the stream stays open");
            if let Some(data) = line.strip_prefix("data: ") {
                return serde_json::from_str(data.trim()).unwrap();
            }
        }
    };
    assert_eq!(next_state()["ply"], 0);
    let (_, joined) = post(&format!("{}/api/games/{id}/join", server.url), None, json!({}));
    let guest = joined["token"].as_str().unwrap().to_owned();
    assert_eq!(next_state()["seats"][1]["taken"], true);
    post(&format!("{}/api/games/{id}/moves", server.url), Some(&owner), json!({"heap": 1, "take": 1, "ply": 0}));
    let seen = next_state();
    assert_eq!(seen["ply"], 1);
    assert_eq!(seen["heaps"], json!([1, 2]));
    assert_eq!(seen["your_seat"], Value::Null, "watchers hold no seat");
    post(&format!("{}/api/games/{id}/moves", server.url), Some(&guest), json!({"heap": 2, "take": 1, "ply": 1}));
    assert_eq!(next_state()["heaps"], json!([1, 1]));
}

#[test]
fn simultaneous_moves_over_real_sockets_one_accepted_one_conflict() {
    let dir = TempDir::new();
    let server = Server::start(&dir.join("race.sqlite3"));
    for _ in 0..10 {
        let (_, grant) = post(&format!("{}/api/games", server.url), None, json!({"mode": "local", "heaps": [4, 4, 4]}));
        let id = grant["game"]["id"].as_str().unwrap().to_owned();
        let token = grant["token"].as_str().unwrap().to_owned();
        let results = race_first_moves([&server.url, &server.url], &id, &token);
        assert_eq!(results[0].0, 200);
        assert_eq!(results[1].0, 409, "{}", results[1].1);
        assert!(results[1].1["error"].as_str().unwrap().contains("moved on"));
        assert_eq!(get(&format!("{}/api/games/{id}", server.url))["ply"], 1);
    }
}

#[test]
fn serve_options_are_checked_with_a_one_line_message() {
    let wrong = [
        (vec!["--rate-limit", "games=lots"], vec!["--rate-limit", "\"lots\" is not a rate", "60/min"]),
        (vec!["--rate-limit", "moves=1/s"], vec!["--rate-limit", "\"moves\"", "games, analyses"]),
        (vec!["--rate-limit", "games=0/min"], vec!["--rate-limit", "write off"]),
        (vec!["--rate-limit", ""], vec!["--rate-limit", "KIND=RATE"]),
        (vec!["--max-connections", "0"], vec!["--max-connections", "from 1 up"]),
        (vec!["--max-connections-per-client", "0"], vec!["--max-connections-per-client", "\"0\"", "from 1 up"]),
        (vec!["--max-connections-per-client", "lots"], vec!["--max-connections-per-client", "\"lots\"", "from 1 up"]),
        (vec!["--idle-timeout", "soon"], vec!["--idle-timeout", "not a duration"]),
        (vec!["--body-timeout", "0"], vec!["--body-timeout", "zero"]),
    ];
    for (options, words) in wrong {
        let args: Vec<&str> = ["serve", "--addr", "127.0.0.1:0"].into_iter().chain(options).collect();
        crate::util::bouton(&args).run().assert_one_line_error(2, &words);
    }
}

#[test]
fn rate_limit_from_the_command_line_answers_429_and_off_lifts_it() {
    let dir = TempDir::new();
    let server = Server::start_with(&dir.join("limited.sqlite3"), &["--rate-limit", "games=2/min"], None);
    let url = format!("{}/api/games", server.url);
    for _ in 0..2 {
        assert_eq!(post(&url, None, json!({})).0, 201);
    }
    let response = agent().post(&url).send_json(json!({})).expect("the server answers");
    assert_eq!(response.status().as_u16(), 429);
    let retry: u64 = response.headers().get("retry-after").unwrap().to_str().unwrap().parse().unwrap();
    assert!((1..=30).contains(&retry), "one game refills every 30 s: Retry-After {retry}");
    let error: Value = response.into_body().read_json().unwrap();
    assert!(error["error"].as_str().unwrap().contains("at most 2 a minute"), "{error}");
    drop(server);

    let server = Server::start_with(&dir.join("unlimited.sqlite3"), &["--rate-limit", "off"], None);
    let url = format!("{}/api/games", server.url);
    for _ in 0..70 {
        assert_eq!(post(&url, None, json!({"mode": "local"})).0, 201);
    }
}

#[test]
fn more_idle_connections_than_descriptors_do_not_lock_other_clients_out() {
    let dir = TempDir::new();
    // 128 descriptors: at most 64 connections open at once. All come from 127.0.0.1 here, so its own cap is lifted
    // (the cap per client is the next test's).
    let options = ["--idle-timeout", "1s", "--max-connections-per-client", "1000"];
    let server = Server::start_with(&dir.join("idle.sqlite3"), &options, Some(128));
    let address = server.url.trim_start_matches("http://").to_owned();
    let idle: Vec<_> = (0..200).map(|_| std::net::TcpStream::connect(&address).expect("a connection")).collect();
    // Behind 200 silent connections, a client is still served...
    assert!(get(&format!("{}/api/rules", server.url))["rules"].is_array());
    drop(idle);
    // ...and the server never ran out of descriptors.
    let log = server.log();
    assert!(!log.contains("cannot accept"), "{log}");
}

#[test]
fn past_its_cap_from_the_command_line_a_client_is_answered_429_and_closed() {
    use std::io::Read;

    let dir = TempDir::new();
    let server = Server::start_with(&dir.join("per-client.sqlite3"), &["--max-connections-per-client", "2"], None);
    let address = server.url.trim_start_matches("http://").to_owned();
    // Two idle connections (never timed out within the test's patience), taken in the order they came.
    let held: Vec<_> = (0..2).map(|_| std::net::TcpStream::connect(&address).expect("a connection")).collect();
    let mut third = std::net::TcpStream::connect(&address).expect("a connection");
    third.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut answer = String::new();
    third.read_to_string(&mut answer).expect("an answer, then the close");
    assert!(answer.starts_with("HTTP/1.1 429 "), "{answer}");
    assert!(answer.contains("retry-after: 20\r\n"), "the idle timeout: {answer}");
    assert!(answer.contains(r#"{"error":"too many connections open from your address: at most 2 at once"#), "{answer}");
    drop(held);
}

/// PostgreSQL for the multi-instance tests: a throw-away server from the
/// system's packages. It fails (never skips) when none can start.
fn postgres() -> bouton_web::throwaway::ThrowawayPostgres {
    bouton_web::throwaway::ThrowawayPostgres::start()
        .unwrap_or_else(|e| panic!("the multi-instance tests need PostgreSQL (apt-get install postgresql): {e}"))
}

/// One `bouton serve` process on a PostgreSQL URL.
struct Instance {
    child: std::process::Child,
    url: String,
    log: std::path::PathBuf,
}

impl Instance {
    fn start(db: &str, dir: &TempDir, name: &str) -> Instance {
        Instance::start_logging(db, dir.join(&format!("{name}.log")), name)
    }

    fn start_logging(db: &str, log: std::path::PathBuf, name: &str) -> Instance {
        let mut command = std::process::Command::new(crate::util::BIN);
        command.args(["serve", "--addr", "127.0.0.1:0", "--rate-limit", "off", "--log-format", "json"]);
        // The last one names its database through the environment.
        if name == "c" {
            command.env("DATABASE_URL", db);
        } else {
            command.args(["--db", db]).env_remove("DATABASE_URL");
        }
        let child = command
            .env("RUST_LOG", "info")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("bouton serve starts");
        let mut instance = Instance { child, url: String::new(), log };
        let stdout = instance.child.stdout.take().unwrap();
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let _ = sender.send(lines.next().and_then(Result::ok));
            for _ in lines {}
        });
        let line = match receiver.recv_timeout(Duration::from_secs(30)) {
            Ok(Some(line)) => line,
            _ => {
                panic!("{name} did not start; its log:\n{}", std::fs::read_to_string(&instance.log).unwrap_or_default())
            }
        };
        instance.url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap().trim_end_matches('/').into();
        assert!(!line.contains("postgres://postgres:"), "no password in the first line: {line}");
        instance
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The first `state` event of game `id`'s stream on `server` after the
/// initial one, read on a thread: answers a receiver of each state.
fn watch_states(server: &str, id: &str) -> std::sync::mpsc::Receiver<Value> {
    let response = agent().get(&format!("{server}/api/games/{id}/events")).call().unwrap();
    let mut events = BufReader::new(response.into_body().into_reader());
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        loop {
            line.clear();
            if events.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            if let Some(data) = line.strip_prefix("data: ")
                && sender.send(serde_json::from_str::<Value>(data.trim()).unwrap()).is_err()
            {
                return;
            }
        }
    });
    receiver
}

#[test]
fn three_instances_on_one_postgres_share_games_seats_events_and_races() {
    let pg = postgres();
    let db = pg.create_database().unwrap();
    let dir = TempDir::new();
    // Started together: the migrations take turns under their lock.
    let starting: Vec<_> = ["a", "b", "c"]
        .into_iter()
        .map(|name| {
            let (db, log) = (db.clone(), dir.join(&format!("{name}.log")));
            std::thread::spawn(move || Instance::start_logging(&db, log, name))
        })
        .collect();
    let instances: Vec<Instance> = starting.into_iter().map(|s| s.join().unwrap()).collect();
    let (a, b, c) = (&instances[0].url, &instances[1].url, &instances[2].url);

    // An online game created on A, watched on B, joined on C: its seat is
    // then taken on every instance.
    let (status, grant) = post(&format!("{a}/api/games"), None, json!({"mode": "online", "heaps": [3, 3]}));
    assert_eq!(status, 201);
    let id = grant["game"]["id"].as_str().unwrap().to_owned();
    let owner = grant["token"].as_str().unwrap().to_owned();
    let states = watch_states(b, &id);
    assert_eq!(states.recv_timeout(Duration::from_secs(10)).unwrap()["ply"], 0);
    let (status, joined) = post(&format!("{c}/api/games/{id}/join"), None, json!({}));
    assert_eq!(status, 200, "{joined}");
    let guest = joined["token"].as_str().unwrap().to_owned();
    for server in [a, b, c] {
        let (status, again) = post(&format!("{server}/api/games/{id}/join"), None, json!({}));
        assert_eq!(status, 409, "{again}");
    }
    assert_eq!(states.recv_timeout(Duration::from_secs(10)).unwrap()["seats"][1]["taken"], true);

    // A move accepted on A reaches B's watcher at once: through NOTIFY,
    // well before the 2 s poll.
    let mut slowest = Duration::ZERO;
    for (ply, (server, token)) in [(a, &owner), (c, &guest), (a, &owner), (c, &guest)].into_iter().enumerate() {
        let heap = ply % 2 + 1;
        let sent = std::time::Instant::now();
        let (status, moved) =
            post(&format!("{server}/api/games/{id}/moves"), Some(token), json!({"heap": heap, "take": 1, "ply": ply}));
        assert_eq!(status, 200, "{moved}");
        let seen = states.recv_timeout(Duration::from_secs(10)).expect("the move reaches B");
        slowest = slowest.max(sent.elapsed());
        assert_eq!(seen["ply"], ply + 1);
    }
    assert!(slowest < Duration::from_millis(750), "a move took {slowest:?} to reach another instance's watcher");

    // Two moves at the same ply through two instances: exactly one 200.
    for round in 0..10 {
        let (_, grant) = post(&format!("{a}/api/games"), None, json!({"mode": "local", "heaps": [4, 4, 4]}));
        let id = grant["game"]["id"].as_str().unwrap().to_owned();
        let token = grant["token"].as_str().unwrap().to_owned();
        let results = race_first_moves([a, b], &id, &token);
        assert_eq!((results[0].0, results[1].0), (200, 409), "round {round}: {results:?}");
        assert_eq!(get(&format!("{c}/api/games/{id}"))["ply"], 1);
    }
    // The hourly sweep ran at start on one instance only.
    let swept = instances.iter().filter(|i| i.log().contains("swept abandoned games")).count();
    assert_eq!(swept, 1, "logs:\n{}", instances.iter().map(Instance::log).collect::<Vec<_>>().join("\n"));
    // Structured logs: one JSON object a line.
    let log = instances[0].log();
    let first = log.lines().next().unwrap_or_else(|| panic!("A logged nothing"));
    let line: Value = serde_json::from_str(first).unwrap_or_else(|e| panic!("not JSON ({e}): {first}"));
    assert!(line["level"].is_string() && line["fields"]["message"].is_string(), "{line}");
}

#[test]
fn a_restarted_postgres_answers_503_meanwhile_and_serving_recovers_by_itself() {
    let mut pg = postgres();
    let db = pg.create_database().unwrap();
    let dir = TempDir::new();
    let server = Instance::start(&db, &dir, "a");
    let url = &server.url;
    let (status, grant) = post(&format!("{url}/api/games"), None, json!({"mode": "local", "heaps": [5, 5]}));
    assert_eq!(status, 201);
    let id = grant["game"]["id"].as_str().unwrap().to_owned();
    let token = grant["token"].as_str().unwrap().to_owned();
    let (status, _) =
        post(&format!("{url}/api/games/{id}/moves"), Some(&token), json!({"heap": 1, "take": 1, "ply": 0}));
    assert_eq!(status, 200);
    pg.stop();
    let (status, body) =
        post(&format!("{url}/api/games/{id}/moves"), Some(&token), json!({"heap": 1, "take": 1, "ply": 1}));
    assert_eq!(status, 503, "{body}");
    assert!(body["error"].is_string());
    pg.restart(&[]).unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let status = loop {
        let (status, body) =
            post(&format!("{url}/api/games/{id}/moves"), Some(&token), json!({"heap": 1, "take": 1, "ply": 1}));
        if status != 503 || std::time::Instant::now() > deadline {
            assert_ne!(status, 409, "the move refused during the outage was not stored: {body}");
            break status;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(status, 200, "{}", server.log());
    // Every connection of the instance is back, not only the one that
    // answered first.
    for _ in 0..8 {
        assert_eq!(get(&format!("{url}/api/games/{id}"))["ply"], 2, "the acknowledged moves are there");
    }
    assert_eq!(get(&format!("{url}/readyz"))["status"], "ready");
}

#[test]
fn an_instance_killed_under_load_loses_no_acknowledged_move_and_the_other_serves_on() {
    let pg = postgres();
    let db = pg.create_database().unwrap();
    let dir = TempDir::new();
    let a = Instance::start(&db, &dir, "a");
    let b = Instance::start(&db, &dir, "b");
    let (a_url, b_url) = (a.url.clone(), b.url.clone());
    // Eight players, each alternating its moves between A and B, until A is
    // killed; each remembers the last ply acknowledged.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let players: Vec<_> = (0..8)
        .map(|_| {
            let (_, grant) = post(&format!("{b_url}/api/games"), None, json!({"mode": "local", "heaps": vec![50; 12]}));
            let id = grant["game"]["id"].as_str().unwrap().to_owned();
            let token = grant["token"].as_str().unwrap().to_owned();
            let (a_url, b_url, stop) = (a_url.clone(), b_url.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut acknowledged = 0;
                let mut failures = 0;
                while acknowledged < 599 && !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let server = if acknowledged % 2 == 0 { &a_url } else { &b_url };
                    let body = json!({"heap": acknowledged % 12 + 1, "take": 1, "ply": acknowledged});
                    let mut request = agent().post(&format!("{server}/api/games/{id}/moves"));
                    request = request.header("Authorization", &format!("Bearer {token}"));
                    match request.send_json(body) {
                        Ok(response) if response.status().as_u16() == 200 => acknowledged += 1,
                        // A is gone: go on through B alone.
                        _ => {
                            failures += 1;
                            let (status, _) = post(
                                &format!("{b_url}/api/games/{id}/moves"),
                                Some(&token),
                                json!({"heap": acknowledged % 12 + 1, "take": 1, "ply": acknowledged}),
                            );
                            // 409: the move was stored after all (A died after
                            // the commit, before answering).
                            match status {
                                200 => acknowledged += 1,
                                409 if get(&format!("{b_url}/api/games/{id}"))["ply"] == acknowledged + 1 => {
                                    acknowledged += 1
                                }
                                _ => panic!("B refused a move with {status}"),
                            }
                        }
                    }
                }
                (id, acknowledged, failures)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(700));
    drop(a); // SIGKILL
    std::thread::sleep(Duration::from_millis(700));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (mut total, mut failed) = (0, 0);
    for player in players {
        let (id, acknowledged, failures) = player.join().unwrap();
        assert!(acknowledged < 599, "A was killed while the game ran");
        failed += failures;
        let game = get(&format!("{b_url}/api/games/{id}"));
        assert_eq!(game["ply"], acknowledged, "game {id}: every acknowledged move is stored, and no other");
        total += acknowledged;
    }
    assert!(total > 16, "the players made progress: {total} moves");
    assert!(failed >= 1, "some move met the killed instance");
    // B serves on, and a new instance starts on the same database.
    let c = Instance::start(&db, &dir, "c");
    let (status, _) = post(&format!("{}/api/games", c.url), None, json!({}));
    assert_eq!(status, 201);
    drop(b);
}

#[test]
fn a_database_that_cannot_be_reached_or_named_is_a_one_line_error() {
    let run = |db: &str| {
        let out = std::process::Command::new(crate::util::BIN)
            .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
            .env_remove("DATABASE_URL")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, stderr) = run("postgres://bouton:hunter2@127.0.0.1:1/bouton");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("cannot open the database postgres://bouton:***@127.0.0.1:1/bouton"), "{stderr}");
    assert!(!stderr.contains("hunter2"), "the password is not shown: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    let (code, stderr) = run("mysql://db/bouton");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("postgres://USER@HOST/DB"), "{stderr}");
}

/// The server works the misère quotients out in the background: a request
/// for 0.71 (whose quotient a request's own budget cannot afford) is
/// answered at once from the start, and by the quotient once it is ready.
#[test]
fn misere_quotients_are_warmed_in_the_background() {
    let dir = TempDir::new();
    let server = Server::start(&dir.join("warm.sqlite3"));
    let url = format!("{}/api/analyze?rules=octal:0.71&position=40,45,50&misere=true", server.url);
    // Generous: the warming thread runs at the lowest priority, behind every
    // other process on a loaded machine.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    loop {
        let asked = std::time::Instant::now();
        let mut response = agent().get(&url).call().expect("the server answers");
        assert!(asked.elapsed() < Duration::from_secs(5), "answered at once: {:?}", asked.elapsed());
        let status = response.status().as_u16();
        let body: Value = response.body_mut().read_json().unwrap_or(Value::Null);
        if status == 200 && body["method"] == "misere-quotient" {
            assert_eq!(body["quotient"]["order"], 36, "{body}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "not warmed within 120 s: {status} {body}");
        std::thread::sleep(Duration::from_millis(500));
    }
}
