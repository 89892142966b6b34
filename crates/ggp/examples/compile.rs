//! Compiles rule sheets and prints, for each, the compile figures and the
//! speed of random playouts: `cargo run --release -p bouton-ggp --example
//! compile -- FILE… [--playouts SECS] [--transitions N] [--hybrid] [--prover]`
//! (`--hybrid`: with `Machine::compile_hybrid`; `--prover`: the playouts by
//! the reference prover instead, each transition one inspection — legal
//! moves, terminality, goals — and the next state; `--transitions`: stop
//! the compiled machine's playouts after N transitions, the same ones in
//! every run, to compare builds by what they execute, e.g. under
//! `valgrind --tool=callgrind`). Rates are per second of the wall clock and
//! per second of this thread's CPU time.

mod support;

use std::time::{Duration, Instant};

use bouton_ggp::{Evaluator, Game, Machine, Prover};
use rand::Rng;
use rand::SeedableRng;
use support::PlayoutClock;

fn main() {
    let mut files = Vec::new();
    let mut seconds = 0.0f64;
    let mut most_transitions = usize::MAX;
    let mut hybrid = false;
    let mut prover = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--hybrid" {
            hybrid = true;
        } else if a == "--prover" {
            prover = true;
        } else if a == "--playouts" {
            seconds = args.next().and_then(|s| s.parse().ok()).expect("--playouts SECS");
        } else if a == "--transitions" {
            most_transitions = args.next().and_then(|s| s.parse().ok()).expect("--transitions N");
        } else {
            files.push(a);
        }
    }
    for file in files {
        let Ok(game) = support::read_game(&file) else { std::process::exit(2) };
        if prover {
            prover_playouts(&file, &game, seconds);
            continue;
        }
        let started = Instant::now();
        let compiled = if hybrid { Machine::compile_hybrid(&game) } else { Machine::compile(&game) };
        match compiled {
            Err(e) => println!("{file}: {e} after {:.2} s", started.elapsed().as_secs_f64()),
            Ok(machine) => {
                println!("{file}: compiled in {:.2} s: {:?}", started.elapsed().as_secs_f64(), machine.stats());
                if seconds > 0.0 {
                    let t = Instant::now();
                    let mut e = Evaluator::new(&machine);
                    let mut moves = Vec::new();
                    let counts: Vec<usize> = (0..machine.roles().len())
                        .map(|r| {
                            e.legal_moves(r, &mut moves);
                            moves.len()
                        })
                        .collect();
                    println!("  first state in {:.3} s, legal moves {counts:?}", t.elapsed().as_secs_f64());
                    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
                    let start = machine.initial_state();
                    let (mut steps, mut playouts) = (0usize, 0usize);
                    let until = Instant::now() + Duration::from_secs_f64(seconds);
                    let clock = PlayoutClock::start();
                    // Playouts of at most 200 joint moves, the clock read
                    // after each.
                    while Instant::now() < until && steps < most_transitions {
                        e.load(&start);
                        playouts += 1;
                        steps += e.playout(&mut rng, 200.min(most_transitions - steps));
                    }
                    let rates = clock.rates(steps);
                    println!("  {playouts} playouts, {steps} transitions, {rates}");
                }
            }
        }
    }
}

/// Random playouts by the reference prover for `seconds`, at most 200 joint
/// moves each.
fn prover_playouts(file: &str, game: &Game, seconds: f64) {
    let mut prover = Prover::new(game);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    let (mut steps, mut playouts) = (0usize, 0usize);
    let until = Instant::now() + Duration::from_secs_f64(seconds);
    let clock = PlayoutClock::start();
    while Instant::now() < until {
        let mut state = prover.initial_state();
        playouts += 1;
        for _ in 0..200 {
            let inspection = prover.inspect(&state);
            if inspection.terminal || inspection.legal.iter().any(Vec::is_empty) || Instant::now() >= until {
                break;
            }
            let joint: Vec<_> = inspection.legal.iter().map(|l| l[rng.random_range(0..l.len())].clone()).collect();
            state = prover.next_state(&state, &joint);
            steps += 1;
        }
    }
    let rates = clock.rates(steps);
    println!("{file}: prover, {playouts} playouts, {steps} transitions, {rates}");
}
