//! `bouton simulate`: many computer-vs-computer games, summarised, for Nim
//! or any other rule set.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::Result;
use bouton_analysis::Winner;
use bouton_games::AnyRules;
use bouton_players::GrundyPlayer;
use bouton_players::Player;
use bouton_rules::{Convention, Game, Rules, Side};
use indicatif::{ProgressBar, ProgressDrawTarget};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::UsageError;
use crate::cli::SimulateArgs;
use crate::start::start_numbers;
use crate::start::{choose_seed, make_rng};

/// The progress bar appears once a run has lasted this long.
const QUIET_PERIOD: Duration = Duration::from_secs(1);
/// A game longer than this is stopped as unfinished (in Northcott's game
/// players who do not close gaps can go on for ever).
const MAX_MOVES: u64 = 100_000;

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
    rules: String,
    misere: bool,
    seed: u64,
    first: SideResult,
    second: SideResult,
    /// Games whose start was won for the first player with perfect play.
    winning_starts: u64,
    /// Games whose start could not be analysed (misère positions too large
    /// to search).
    #[serde(skip_serializing_if = "is_zero")]
    unanalysed_starts: u64,
    /// Games stopped after [`MAX_MOVES`] moves.
    #[serde(skip_serializing_if = "is_zero")]
    unfinished: u64,
    length: Lengths,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One game played to its end.
struct Played {
    /// The winner, or `None` when stopped after [`MAX_MOVES`] moves.
    winner: Option<Side>,
    /// Moves played.
    length: u64,
    /// Whether the first player could force a win from the start (`None`:
    /// not analysable).
    start_won: Option<bool>,
}

/// Plays `game` out between `players`.
fn play_out<R: Rules>(
    mut game: Game<R>,
    players: &mut [Box<dyn Player<R> + '_>; 2],
    rng: &mut ChaCha8Rng,
) -> (Option<Side>, u64) {
    while !game.is_over() && (game.moves().len() as u64) < MAX_MOVES {
        let side = game.to_move();
        let mv = players[side.index()].choose(&game, rng).expect("the game is not over");
        game.play(mv).expect("players choose legal moves");
    }
    (game.outcome().map(|o| o.winner), game.moves().len() as u64)
}

/// Runs `bouton simulate`.
pub fn run(args: &SimulateArgs) -> Result<()> {
    let seed = choose_seed(args.start.seed);
    let mut rng = make_rng(seed);
    let convention = if args.start.misere { Convention::Misere } else { Convention::Normal };
    let set = crate::start::rule_set(args.rules.as_deref())?;
    let mut wins = [0u64; 2];
    let (mut winning_starts, mut unanalysed_starts, mut unfinished) = (0, 0, 0);
    let (mut shortest, mut longest, mut total_moves) = (u64::MAX, 0u64, 0u128);
    let rules = AnyRules::new(set.clone(), convention);
    let one_game = |rng: &mut ChaCha8Rng| -> Result<Played, UsageError> {
        let numbers = start_numbers(&set, &args.start, u64::MAX, rng)?;
        let position = rules.position(&numbers).map_err(|e| UsageError(e.to_string()))?;
        let start_won = rules.analyze(&position).ok().map(|a| a.winner == Winner::Mover);
        let game = Game::new(rules.clone(), position).map_err(|e| UsageError(e.to_string()))?;
        let mut players: [Box<dyn Player<AnyRules>>; 2] =
            [Box::new(GrundyPlayer::new(args.first)), Box::new(GrundyPlayer::new(args.second))];
        let (winner, length) = play_out(game, &mut players, rng);
        Ok(Played { winner, length, start_won })
    };

    let bar = ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::hidden());
    bar.set_style(crate::wording::progress_style("games"));
    let started = Instant::now();
    for _ in 0..args.games {
        let played = one_game(&mut rng)?;
        match played.start_won {
            Some(true) => winning_starts += 1,
            Some(false) => {}
            None => unanalysed_starts += 1,
        }
        match played.winner {
            Some(side) => wins[side.index()] += 1,
            None => unfinished += 1,
        }
        shortest = shortest.min(played.length);
        longest = longest.max(played.length);
        total_moves += u128::from(played.length);
        bar.inc(1);
        if bar.is_hidden() && started.elapsed() > QUIET_PERIOD {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
    bar.finish_and_clear();

    let summary = Summary {
        games: args.games,
        rules: set.to_string(),
        misere: args.start.misere,
        seed,
        first: SideResult { level: args.first.to_string(), wins: wins[Side::First.index()] },
        second: SideResult { level: args.second.to_string(), wins: wins[Side::Second.index()] },
        winning_starts,
        unanalysed_starts,
        unfinished,
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
        Some(n) => format!("{n} random {} of 1 to {} (new each game)", set.board_kind().parts(), args.start.max),
        None => start_numbers(&set, &args.start, u64::MAX, &mut rng)?
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" "),
    };
    let games = if args.games == 1 { "game" } else { "games" };
    writeln!(out, "{} {games} of {} from {start}, seed {seed}", args.games, rules.title())?;
    // "first player (perfect):  20 wins (100.0%)", the counts aligned.
    let sides = [("first", &summary.first), ("second", &summary.second)];
    let labels = sides.map(|(side, result)| format!("{side} player ({}):", result.level));
    let label_width = labels.iter().map(String::len).max().unwrap_or(0);
    let digits = args.games.to_string().len();
    for (label, (_, result)) in labels.iter().zip(sides) {
        let wins = if result.wins == 1 { "win" } else { "wins" };
        writeln!(out, "{label:<label_width$} {:>digits$} {wins} ({:.1}%)", result.wins, percent(result.wins))?;
    }
    writeln!(out, "won starts for the first player: {} ({:.1}%)", winning_starts, percent(winning_starts))?;
    if unanalysed_starts > 0 {
        writeln!(out, "starts that could not be analysed: {unanalysed_starts}")?;
    }
    if unfinished > 0 {
        writeln!(out, "games stopped unfinished after {MAX_MOVES} moves: {unfinished}")?;
    }
    writeln!(
        out,
        "game length in moves: min {}, mean {:.2}, max {}",
        summary.length.min, summary.length.mean, summary.length.max
    )?;
    Ok(())
}
