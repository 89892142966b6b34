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
    let (status, grant) = post(&format!("{}/api/games", server.url), None, json!({"heaps": [3, 5, 7], "level": "perfect"}));
    assert_eq!(status, 201);
    let id = grant["game"]["id"].as_str().unwrap().to_owned();
    let token = grant["token"].as_str().unwrap().to_owned();
    let (status, after) = post(&format!("{}/api/games/{id}/moves", server.url), Some(&token), json!({"heap": 3, "take": 1, "ply": 0}));
    assert_eq!(status, 200);
    // Killed right after the acknowledgement.
    server.kill();

    let server = Server::start(&db);
    let resumed = get(&format!("{}/api/games/{id}", server.url));
    assert_eq!(resumed["ply"], 2);
    assert_eq!(resumed["moves"], after["moves"]);
    assert_eq!(resumed["heaps"], after["heaps"]);
    // The seat token still works, and play goes on where it was.
    let (status, next) = post(&format!("{}/api/games/{id}/moves", server.url), Some(&token), json!({"heap": 2, "take": 1, "ply": 2}));
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
                let (url, token, barrier) = (format!("{}/api/games/{id}/moves", server.url), token.clone(), barrier.clone());
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
