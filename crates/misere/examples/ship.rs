//! Writes `shipped/quotients.txt`, the quotients bouton ships (see
//! `src/shipped.rs`): for each game below, what the engine proves with
//! heaps up to 400 (the range `bouton_games` plays by), the largest order
//! 2000, and 10^10 operations and 120 s (wall-clock) per game.
//! `cargo run --release -p bouton-misere --example ship [FILE]`.

use std::time::Duration;

use bouton_misere::{Budget, DEFAULT_MAX_ORDER, HeapGame, Kept, SolveOptions, solve_partial};

/// The games: those proved finite whose computation takes more than about
/// 20 ms, and the ones whose computation stops only after seconds.
const CODES: [&str; 13] =
    ["0.77", "0.15", "0.115", "0.71", "0.72", "0.44", "0.46", "0.34", "0.53", "0.56", "0.07", "0.137", "0.114"];

/// The heaps the engine adds (`bouton_games::QUOTIENT_HEAPS`).
const HEAPS: u64 = 400;

/// The budget of each game.
const OPERATIONS: u64 = 10_000_000_000;
const SECONDS: u64 = 120;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let file = std::env::args().nth(1).unwrap_or_else(|| "crates/misere/shipped/quotients.txt".to_owned());
    let mut text = String::new();
    for code in CODES {
        let game: HeapGame = code.parse()?;
        let time = Duration::from_secs(SECONDS);
        let budget = Budget::new(OPERATIONS, 4 << 30).with_time_limit(time);
        let options = SolveOptions::upto(HEAPS).with_max_order(DEFAULT_MAX_ORDER).with_budget(budget);
        let started = std::time::Instant::now();
        let kept = Kept::from_partial(solve_partial(&game, &options)?, OPERATIONS, Some(time));
        eprintln!(
            "{code}: order {}, heaps up to {}, period {:?}, stopped {:?} ({:.1} s)",
            kept.quotient.order(),
            kept.quotient.pretending().upto(),
            kept.quotient.pretending().period(),
            kept.stopped,
            started.elapsed().as_secs_f64()
        );
        text.push_str(&kept.to_text());
    }
    std::fs::write(&file, text)?;
    Ok(())
}
