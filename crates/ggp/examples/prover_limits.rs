//! What a deadline and a cancellation cost the prover's questions: random
//! playouts asked without limits (`legal_moves`, `next_state`, …) and with
//! them (`legal_moves_within`, … with a deadline an hour ahead and a
//! cancellation never raised), R rounds: `cargo run --release -p bouton-ggp
//! --example prover_limits -- FILE [--seconds S] [--rounds R]`. In each
//! round, one way plays for S seconds and the other then plays the very
//! same playouts (the same random draws, as many transitions), the way
//! that goes first alternating from round to round.
//!
//! With `--deadline-us D`, how promptly a question stops at its deadline
//! instead: for S seconds, random playouts ask every question with a
//! deadline D microseconds ahead (a question refused ends the playout), and
//! it prints how many were answered and refused, and by how much the
//! refused ones returned after their deadline (mean, largest).
//!
//! Per transition, as `prover_playouts.rs`: the terminal test, each role's
//! legal moves, a uniformly random joint move and the next state; the goals
//! in the terminal states reached; at most 200 joint moves a playout. Prints
//! the transitions per second of each turn, of the wall clock and of this
//! thread's CPU time (the figure to compare on a loaded machine).

mod support;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use bouton_ggp::cancel::Canceller;
use bouton_ggp::limits::{Limits, OutOfLimits};
use bouton_ggp::{Prover, ProverState, Term};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use support::PlayoutClock;

fn main() -> ExitCode {
    let mut file = None;
    let mut seconds = 5.0f64;
    let mut rounds = 3usize;
    let mut deadline_us = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => match args.next().and_then(|s| s.parse().ok()) {
                Some(s) => seconds = s,
                None => return usage(),
            },
            "--rounds" => match args.next().and_then(|s| s.parse().ok()) {
                Some(r) => rounds = r,
                None => return usage(),
            },
            "--deadline-us" => match args.next().and_then(|s| s.parse::<u64>().ok()) {
                Some(d) => deadline_us = Some(d),
                None => return usage(),
            },
            _ if file.is_none() && !a.starts_with("--") => file = Some(a),
            _ => return usage(),
        }
    }
    let Some(file) = file else { return usage() };
    let game = match support::read_game(&file) {
        Ok(game) => game,
        Err(code) => return code,
    };
    let mut prover = Prover::new(&game);
    let mut rng = SmallRng::seed_from_u64(1);
    let canceller = Canceller::new();
    let turn = Duration::from_secs_f64(seconds);
    if let Some(us) = deadline_us {
        let overrun = overruns(&mut prover, &mut rng, turn, Duration::from_micros(us));
        println!("{file}: deadline {us} µs ahead of each question: {overrun}");
        return ExitCode::SUCCESS;
    }
    for round in 0..rounds {
        let limits = Limits::none().until(Instant::now() + Duration::from_secs(3600)).cancelled_by(canceller.handle());
        let mut ways = [("without limits", None), ("with limits   ", Some(limits))];
        if round % 2 == 1 {
            ways.reverse();
        }
        let mut stop = Stop::After(turn);
        for (way, limits) in ways {
            let mut rng = SmallRng::seed_from_u64(round as u64);
            match playouts(&mut prover, &mut rng, stop, limits) {
                Ok((steps, rates)) => {
                    println!("{file}: round {round}, {way}: {steps} transitions, {rates}");
                    stop = Stop::Transitions(steps);
                }
                Err(e) => {
                    eprintln!("error: {file}: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    ExitCode::SUCCESS
}

/// When a turn of playouts ends.
#[derive(Clone, Copy)]
enum Stop {
    After(Duration),
    Transitions(usize),
}

/// The transitions, and the transitions per second (wall clock, CPU time),
/// of random playouts by `prover` until `stop`, asking within `limits` if
/// given.
fn playouts(
    prover: &mut Prover,
    rng: &mut SmallRng,
    stop: Stop,
    limits: Option<Limits>,
) -> Result<(usize, String), OutOfLimits> {
    let roles = prover.roles().len();
    let clock = PlayoutClock::start();
    let begun = Instant::now();
    let mut steps = 0usize;
    let done = |steps: usize| match stop {
        Stop::After(turn) => begun.elapsed() >= turn,
        Stop::Transitions(n) => steps >= n,
    };
    'playouts: while !done(steps) {
        let mut state = ask(prover, limits, |p, l| p.initial_state_within(l), |p| p.initial_state())?;
        for _ in 0..200 {
            if done(steps) {
                break;
            }
            let now = &state;
            if ask(prover, limits, |p, l| p.is_terminal_within(now, l), |p| p.is_terminal(now))? {
                ask(prover, limits, |p, l| p.goals_within(now, l), |p| p.goals(now))?;
                break;
            }
            let mut joint: Vec<Term> = Vec::with_capacity(roles);
            for role in 0..roles {
                let legal =
                    ask(prover, limits, |p, l| p.legal_moves_within(now, role, l), |p| p.legal_moves(now, role))?;
                if legal.is_empty() {
                    continue 'playouts;
                }
                joint.push(legal[rng.random_range(0..legal.len())].clone());
            }
            let next: ProverState =
                ask(prover, limits, |p, l| p.next_state_within(now, &joint, l), |p| p.next_state(now, &joint))?;
            state = next;
            steps += 1;
        }
    }
    Ok((steps, clock.rates(steps)))
}

/// Random playouts by `prover` for `turn`, every question asked with a
/// deadline `ahead` of it: how many were answered and refused, and how
/// late the refused ones returned.
fn overruns(prover: &mut Prover, rng: &mut SmallRng, turn: Duration, ahead: Duration) -> String {
    let until = Instant::now() + turn;
    let (mut answered, mut refused) = (0usize, 0usize);
    let (mut total, mut largest, mut largest_at) = (Duration::ZERO, Duration::ZERO, 0);
    let mut asked = 0usize;
    let mut late = |deadline: Instant, asked: usize| {
        let by = Instant::now().saturating_duration_since(deadline);
        total += by;
        if by > largest {
            largest = by;
            largest_at = asked;
        }
    };
    'playouts: while Instant::now() < until {
        let mut state = prover.initial_state();
        for _ in 0..200 {
            if Instant::now() >= until {
                break;
            }
            let deadline = Instant::now() + ahead;
            let limits = Limits::none().until(deadline);
            asked += 1;
            let seen = match prover.inspect_within(&state, limits) {
                Ok(seen) => seen,
                Err(_) => {
                    late(deadline, asked);
                    refused += 1;
                    continue 'playouts;
                }
            };
            answered += 1;
            if seen.terminal || seen.legal.iter().any(Vec::is_empty) {
                break;
            }
            let joint: Vec<Term> = seen.legal.iter().map(|l| l[rng.random_range(0..l.len())].clone()).collect();
            let deadline = Instant::now() + ahead;
            asked += 1;
            match prover.next_state_within(&state, &joint, Limits::none().until(deadline)) {
                Ok(next) => {
                    answered += 1;
                    state = next;
                }
                Err(_) => {
                    late(deadline, asked);
                    refused += 1;
                    continue 'playouts;
                }
            }
        }
    }
    let mean = if refused == 0 { Duration::ZERO } else { total / refused as u32 };
    format!(
        "{answered} answered, {refused} refused, returned after the deadline by {:.1} µs on average, {:.1} µs at most \
         (question {largest_at})",
        mean.as_secs_f64() * 1e6,
        largest.as_secs_f64() * 1e6
    )
}

/// One question, within `limits` if given, else without.
fn ask<T>(
    prover: &mut Prover,
    limits: Option<Limits>,
    within: impl FnOnce(&mut Prover, Limits) -> Result<T, OutOfLimits>,
    without: impl FnOnce(&mut Prover) -> T,
) -> Result<T, OutOfLimits> {
    match limits {
        Some(limits) => within(prover, limits),
        None => Ok(without(prover)),
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: prover_limits FILE [--seconds S] [--rounds R] [--deadline-us D]");
    ExitCode::from(2)
}
