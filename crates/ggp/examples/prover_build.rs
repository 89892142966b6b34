//! How long building a [`Prover`] takes, and how promptly a build within
//! limits stops at its deadline: `cargo run --release -p bouton-ggp
//! --example prover_build -- FILE… [--rounds R] [--deadlines-ms D,D,…]`.
//!
//! For each rule sheet, R rounds (3 by default) of `Prover::new`, then of
//! `Prover::new_within` with a deadline an hour ahead and a cancellation
//! never raised (the same work, with the checks): prints the least and the
//! largest wall time of each, and this thread's CPU time per build. Then,
//! for each deadline D (milliseconds after the build begins; by default a
//! tenth, a third and two thirds of the least unlimited build), a build
//! within that deadline: whether it was refused (`OutOfLimits`) or built,
//! and by how much it returned after the deadline (the overrun: how long
//! the longest stretch of building without a check lasted, at most, plus
//! the time to drop what was built — printed too, for a whole prover).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use bouton_ggp::cancel::Canceller;
use bouton_ggp::limits::Limits;
use bouton_ggp::{Game, Prover};

fn main() -> ExitCode {
    let mut files = Vec::new();
    let mut rounds = 3usize;
    let mut deadlines: Option<Vec<f64>> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => match args.next().and_then(|s| s.parse().ok()) {
                Some(r) if r > 0 => rounds = r,
                _ => return usage(),
            },
            "--deadlines-ms" => {
                let parsed: Option<Vec<f64>> =
                    args.next().and_then(|s| s.split(',').map(|d| d.trim().parse().ok()).collect());
                match parsed {
                    Some(d) => deadlines = Some(d),
                    None => return usage(),
                }
            }
            _ if !a.starts_with("--") => files.push(a),
            _ => return usage(),
        }
    }
    if files.is_empty() {
        return usage();
    }
    for file in files {
        let game = match std::fs::read_to_string(&file).map_err(|e| e.to_string()).and_then(|t| {
            // A sheet that does not parse is reported as one unread.
            Game::parse(&t).map_err(|e| e.to_string())
        }) {
            Ok(game) => game,
            Err(e) => {
                eprintln!("error: {file}: {e}");
                return ExitCode::from(2);
            }
        };
        let unlimited = timed(rounds, || {
            std::hint::black_box(Prover::new(&game));
        });
        println!("{file}: Prover::new: {}", unlimited.summary());
        let canceller = Canceller::new();
        let within = timed(rounds, || {
            let generous =
                Limits::none().until(Instant::now() + Duration::from_secs(3600)).cancelled_by(canceller.handle());
            std::hint::black_box(Prover::new_within(&game, generous).expect("an hour is enough"));
        });
        println!("{file}: Prover::new_within (generous limits): {}", within.summary());
        let prover = Prover::new(&game);
        let dropping = Instant::now();
        drop(prover);
        // A build stopped late drops what it built: part of its overrun.
        println!("{file}: dropping a prover: {:.2} ms", dropping.elapsed().as_secs_f64() * 1e3);
        let least = unlimited.least.as_secs_f64() * 1e3;
        let stops = deadlines.clone().unwrap_or_else(|| vec![least / 10.0, least / 3.0, least * 2.0 / 3.0]);
        for ms in stops {
            println!("{file}: deadline {ms:.2} ms: {}", stopped_at(&game, Duration::from_secs_f64(ms / 1e3)));
        }
    }
    ExitCode::SUCCESS
}

/// The wall times and CPU time of some builds.
struct Times {
    least: Duration,
    largest: Duration,
    cpu_per_build: Option<f64>,
}

impl Times {
    /// `least L ms, largest M ms, C ms of CPU each`.
    fn summary(&self) -> String {
        let cpu = self.cpu_per_build.map_or(String::new(), |c| format!(", {:.1} ms of CPU each", c * 1e3));
        format!(
            "least {:.1} ms, largest {:.1} ms{cpu}",
            self.least.as_secs_f64() * 1e3,
            self.largest.as_secs_f64() * 1e3
        )
    }
}

/// Runs `build` `rounds` times; the least and the largest wall time, and
/// the CPU time of this thread per run.
fn timed(rounds: usize, mut build: impl FnMut()) -> Times {
    let cpu_begun = thread_cpu_seconds();
    let (mut least, mut largest) = (Duration::MAX, Duration::ZERO);
    for _ in 0..rounds {
        let begun = Instant::now();
        build();
        let took = begun.elapsed();
        least = least.min(took);
        largest = largest.max(took);
    }
    let cpu_per_build = match (cpu_begun, thread_cpu_seconds()) {
        (Some(a), Some(b)) => Some((b - a) / rounds as f64),
        _ => None,
    };
    Times { least, largest, cpu_per_build }
}

/// A build of `game` within a deadline `after` its start: refused or
/// built, and how long after the deadline it returned.
fn stopped_at(game: &Game, after: Duration) -> String {
    let begun = Instant::now();
    let deadline = begun + after;
    let built = Prover::new_within(game, Limits::none().until(deadline));
    let returned = Instant::now();
    let overrun = returned.saturating_duration_since(deadline).as_secs_f64() * 1e3;
    let took = (returned - begun).as_secs_f64() * 1e3;
    match built {
        Ok(_) => format!("built in {took:.2} ms (before the deadline, or by {overrun:.2} ms after it)"),
        Err(why) => format!("refused ({why}) after {took:.2} ms, {overrun:.3} ms past the deadline"),
    }
}

/// The CPU time this thread has used, where Linux tells it
/// (`/proc/thread-self/schedstat`: nanoseconds on a CPU first).
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// Says how to run the example; the exit code for bad arguments.
fn usage() -> ExitCode {
    eprintln!("usage: prover_build FILE… [--rounds R] [--deadlines-ms D,D,…]");
    ExitCode::from(2)
}
