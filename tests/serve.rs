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
        let barrier = Arc::new(Barrier::new(2));
        let racers: Vec<_> = (1..=2u64)
            .map(|heap| {
                let (url, token, barrier) =
                    (format!("{}/api/games/{id}/moves", server.url), token.clone(), barrier.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    post(&url, Some(&token), json!({"heap": heap, "take": 1, "ply": 0}))
                })
            })
            .collect();
        let mut results: Vec<(u16, Value)> = racers.into_iter().map(|r| r.join().unwrap()).collect();
        results.sort_by_key(|(status, _)| *status);
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
