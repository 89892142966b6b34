//! Replays the match of `tests/protocol.rs` that `best` once lost under load
//! (issue #12): `best` as first player of nim1 (a first-player win) against a
//! player that never answers — the referee replaces each of its moves by a
//! random legal one — start clock 3 s, play clock 500 ms, grace 100 ms, after
//! a nim3 match against a random player, as in the test. Prints each record
//! and how `best` chose each move (its `verbose` lines), then a tally:
//! `cargo run --release -p bouton-ggp --example silent_match -- [ROUNDS] [--alone]`
//! (`--alone`: without the nim3 match before). Run it beside CPU burners to
//! measure the player under load.

use std::path::Path;
use std::time::Duration;

use bouton_ggp::referee::{RefereeConfig, run_match};
use bouton_ggp::server::{PlayerConfig, serve};
use bouton_ggp::{Game, Strategy};

/// Starts a player on a free port of 127.0.0.1; its address.
async fn spawn_player(config: PlayerConfig) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let addr = listener.local_addr().expect("bound");
    tokio::spawn(serve(listener, config));
    addr.to_string()
}

/// A socket that accepts connections and never answers; its address.
async fn spawn_silent() -> String {
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let addr = silent.local_addr().expect("bound").to_string();
    tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((s, _)) = silent.accept().await {
            open.push(s);
        }
    });
    addr
}

/// A game of the shared GDL folder.
fn shared_game(name: &str) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gdl").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Game::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The referee's settings of the test: `start` seconds, `play_ms` a move.
fn config(id: &str, start: u64, play_ms: u64, grace_ms: u64) -> RefereeConfig {
    RefereeConfig {
        match_id: id.into(),
        start_clock: Duration::from_secs(start),
        play_clock: Duration::from_millis(play_ms),
        grace: Duration::from_millis(grace_ms),
        seed: 3,
        max_steps: 1000,
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut rounds = 10;
    let mut alone = false;
    for a in std::env::args().skip(1) {
        if a == "--alone" {
            alone = true;
        } else {
            rounds = a.parse().expect("ROUNDS");
        }
    }
    let (nim1, nim3) = (shared_game("nim1.kif"), shared_game("nim3.kif"));
    let mut won = 0;
    for round in 0..rounds {
        let best = spawn_player(PlayerConfig { verbose: true, ..PlayerConfig::default() }).await;
        if !alone {
            let random = spawn_player(PlayerConfig { strategy: Strategy::Random, ..PlayerConfig::default() }).await;
            let record = run_match(&nim3, &[best.clone(), random], &config("vs-random", 5, 1000, 500), &mut |_| {})
                .await
                .expect("a match");
            eprintln!("round {round}: nim3 against random: goals {:?}", record.goals);
        }
        let silent = spawn_silent().await;
        let record =
            run_match(&nim1, &[best, silent], &config("vs-silent", 3, 500, 100), &mut |_| {}).await.expect("a match");
        let best_won = record.goals == [Some(100), Some(0)];
        won += usize::from(best_won);
        eprintln!(
            "round {round}: nim1 against silent: {} (best replaced {})\n{record}",
            if best_won { "best won" } else { "BEST LOST" },
            record.replacements()[0]
        );
    }
    println!("best won {won} of {rounds} nim1 matches against the silent player");
}
