//! `bouton simulate`: many computer-vs-computer games, summarised.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::Result;
use bouton_analysis::{Analysis, Winner};
use bouton_players::Level;
use bouton_rules::{Convention, Game, Nim, Side};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::UsageError;
use crate::cli::SimulateArgs;
use crate::start::{choose_seed, make_rng, starting_heaps};

/// The progress bar appears once a run has lasted this long.
const QUIET_PERIOD: Duration = Duration::from_secs(1);

#[derive(Serialize)]
struct SideResult {
    level: String,
    wins: u64,
}

#[derive(Serialize)]
struct Lengths {
    min: u64,
    mean: f64,
    max: u64,
}

#[derive(Serialize)]
struct Summary {
    games: u64,
    misere: bool,
    seed: u64,
    first: SideResult,
    second: SideResult,
    /// Games whose start was won for the first player with perfect play.
    winning_starts: u64,
    length: Lengths,
}

/// Runs `bouton simulate`.
pub fn run(args: &SimulateArgs) -> Result<()> {
    let seed = choose_seed(args.start.seed);
    let mut rng = make_rng(seed);
    let convention = if args.start.misere { Convention::Misere } else { Convention::Normal };
    let levels = [args.first, args.second];
    let mut players = levels.map(Level::player);
    let mut wins = [0u64; 2];
    let mut winning_starts = 0;
    let (mut shortest, mut longest, mut total_moves) = (u64::MAX, 0u64, 0u128);

    let bar = ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, about {eta} left")
            .expect("the template is valid"),
    );
    let started = Instant::now();
    for _ in 0..args.games {
        let heaps = starting_heaps(&args.start, &mut rng)?;
        if Analysis::new(heaps.as_slice(), convention).winner() == Winner::Mover {
            winning_starts += 1;
        }
        let mut game = Game::new(Nim::new(convention), heaps).map_err(|e| UsageError(e.to_string()))?;
        while !game.is_over() {
            let side = game.to_move();
            let mv = players[side.index()].choose(&game, &mut rng).expect("the game is not over");
            game.play(mv).expect("players choose legal moves");
        }
        let outcome = game.outcome().expect("the game is over");
        wins[outcome.winner.index()] += 1;
        let length = game.moves().len() as u64;
        shortest = shortest.min(length);
        longest = longest.max(length);
        total_moves += u128::from(length);
        bar.inc(1);
        if bar.is_hidden() && started.elapsed() > QUIET_PERIOD {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
    bar.finish_and_clear();

    let summary = Summary {
        games: args.games,
        misere: args.start.misere,
        seed,
        first: SideResult { level: args.first.to_string(), wins: wins[Side::First.index()] },
        second: SideResult { level: args.second.to_string(), wins: wins[Side::Second.index()] },
        winning_starts,
        length: Lengths { min: shortest, mean: total_moves as f64 / args.games as f64, max: longest },
    };
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut out, &summary).map_err(io::Error::from)?;
        writeln!(out)?;
        return Ok(());
    }
    let percent = |n: u64| 100.0 * n as f64 / args.games as f64;
    let start = match args.start.random {
        Some(n) => format!("{n} random heaps of 1 to {} (new each game)", args.start.max),
        None => format!("heaps {}", starting_heaps(&args.start, &mut rng)?),
    };
    writeln!(out, "{} games of {convention} Nim from {start}, seed {seed}", args.games)?;
    writeln!(out, "first player  ({:>8}): {:>8} wins ({:.1}%)", summary.first.level, summary.first.wins, percent(summary.first.wins))?;
    writeln!(out, "second player ({:>8}): {:>8} wins ({:.1}%)", summary.second.level, summary.second.wins, percent(summary.second.wins))?;
    writeln!(
        out,
        "won starts for the first player: {} ({:.1}%)",
        winning_starts,
        percent(winning_starts)
    )?;
    writeln!(
        out,
        "game length in moves: min {}, mean {:.2}, max {}",
        summary.length.min, summary.length.mean, summary.length.max
    )?;
    Ok(())
}
