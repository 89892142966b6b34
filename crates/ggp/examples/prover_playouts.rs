//! Random playouts by bouton's prover asking exactly what ggp-base's
//! `StateMachine` playouts ask (`bench/ggp-base-playouts/Playouts.java`), so
//! that the two provers are compared on the same work: `cargo run --release
//! -p bouton-ggp --example prover_playouts -- FILE [--seconds S]`.
//!
//! Per transition: the terminal test, each role's legal moves (one question
//! per role), a uniformly random joint move and the next state; the goals
//! only in the terminal states reached. At most 200 joint moves a playout.
//! (`examples/compile.rs --prover` asks one inspection per state instead:
//! every role's legal moves, terminality and the goals together.) Prints
//! `FILE: prover, P playouts, T transitions, R transitions/s, C per CPU
//! second` — per second of the wall clock and of this thread's CPU time —
//! then the mean wall time of each kind of question (timed on every eighth
//! transition).

mod support;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use bouton_ggp::Prover;
use rand::{Rng, SeedableRng};
use support::PlayoutClock;

fn main() -> ExitCode {
    let mut file = None;
    let mut seconds = 10.0f64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--seconds" {
            match args.next().and_then(|s| s.parse().ok()) {
                Some(s) => seconds = s,
                None => return usage(),
            }
        } else if file.is_none() && !a.starts_with("--") {
            file = Some(a);
        } else {
            return usage();
        }
    }
    let Some(file) = file else { return usage() };
    let game = match support::read_game(&file) {
        Ok(game) => game,
        Err(code) => return code,
    };
    let mut prover = Prover::new(&game);
    let roles = prover.roles().len();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    let (mut steps, mut playouts) = (0usize, 0usize);
    // Wall time and count of each kind of question: terminal, legal, next, goals.
    let mut asked = [(Duration::ZERO, 0u32); 4];
    // Questions are timed on every eighth transition only: reading the
    // clock around each one costs a few per cent on the smallest games
    // (ggp-base's harness reads it once a transition, as this loop does).
    let mut timed = |kind: usize, started: Option<Instant>| {
        if let Some(started) = started {
            asked[kind].0 += started.elapsed();
            asked[kind].1 += 1;
        }
    };
    let until = Instant::now() + Duration::from_secs_f64(seconds);
    let clock = PlayoutClock::start();
    'playouts: while Instant::now() < until {
        let mut state = prover.initial_state();
        playouts += 1;
        for _ in 0..200 {
            if Instant::now() >= until {
                break;
            }
            let sampled = steps % 8 == 0;
            let now = || sampled.then(Instant::now);
            let t = now();
            let terminal = prover.is_terminal(&state);
            timed(0, t);
            if terminal {
                let t = now();
                prover.goals(&state);
                timed(3, t);
                break;
            }
            let mut joint = Vec::with_capacity(roles);
            for role in 0..roles {
                let t = now();
                let legal = prover.legal_moves(&state, role);
                timed(1, t);
                if legal.is_empty() {
                    continue 'playouts;
                }
                joint.push(legal[rng.random_range(0..legal.len())].clone());
            }
            let t = now();
            state = prover.next_state(&state, &joint);
            timed(2, t);
            steps += 1;
        }
    }
    let rates = clock.rates(steps);
    println!("{file}: prover, {playouts} playouts, {steps} transitions, {rates}");
    let mean = |(total, n): (Duration, u32)| if n == 0 { 0.0 } else { total.as_secs_f64() * 1e3 / f64::from(n) };
    println!(
        "  mean wall time per question: terminal {:.3} ms, legal moves of a role {:.3} ms, next state {:.3} ms, goals {:.3} ms",
        mean(asked[0]),
        mean(asked[1]),
        mean(asked[2]),
        mean(asked[3])
    );
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    eprintln!("usage: prover_playouts FILE [--seconds S]");
    ExitCode::from(2)
}
