//! The quotients bouton ships: for the games whose quotient takes the engine
//! seconds (Kayles, Guiles, 0.44, …) or whose computation stops only after
//! long work (Dawson's Kayles), what the engine proved, in the text form of
//! [`Kept`], compiled in (`shipped/quotients.txt`, written by
//! `cargo run --release -p bouton-misere --example ship`). Nothing shipped
//! is trusted: a game's record is proved again when it is read, in one walk
//! (milliseconds), so a fresh installation answers at once with a
//! quotient it has checked itself.

use bouton_grundy::{HeapGame, Meter};

use crate::{Kept, KeptError};

const SHIPPED: &str = include_str!("../shipped/quotients.txt");
const HEADER: &str = "bouton-misere quotient\n";

/// The records, each with its game's code.
fn records() -> Vec<(&'static str, &'static str)> {
    let starts: Vec<usize> = SHIPPED.match_indices(HEADER).map(|(at, _)| at).collect();
    starts
        .iter()
        .enumerate()
        .map(|(i, &start)| {
            let text = &SHIPPED[start..starts.get(i + 1).copied().unwrap_or(SHIPPED.len())];
            let code = text.lines().nth(2).and_then(|l| l.strip_prefix("code ")).unwrap_or_default();
            (code, text)
        })
        .collect()
}

/// The games whose quotient bouton ships.
///
/// ```
/// let games = bouton_misere::shipped_games();
/// assert!(games.iter().any(|g| g.to_string() == "0.77"));
/// ```
pub fn shipped_games() -> Vec<HeapGame> {
    records().into_iter().filter_map(|(code, _)| code.parse().ok()).collect()
}

/// The quotient bouton ships for `game`, proved again on `meter`; `None`
/// when none is shipped.
///
/// ```
/// use bouton_misere::{shipped, HeapGame, Meter, Outcome};
///
/// let kayles: HeapGame = "0.77".parse()?;
/// let kept = shipped(&kayles, &mut Meter::unlimited()).expect("shipped")?;
/// assert_eq!(kept.quotient.order(), 40);
/// assert_eq!(kept.quotient.outcome(&[20, 30, 40]), Some(Outcome::Next));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`Kept::from_text`] (a shipped record that fails its proof is a bug).
pub fn shipped(game: &HeapGame, meter: &mut Meter) -> Option<Result<Kept, KeptError>> {
    let code = game.to_string();
    let (_, text) = records().into_iter().find(|(c, _)| *c == code)?;
    Some(Kept::from_text(game, text, meter))
}
