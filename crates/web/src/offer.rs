//! What the browser game offers, `GET /api/rules`: the rule sets, the
//! limits a start must keep and the computer's levels. The page writes none
//! of them itself.

use bouton_games::RuleSet;
use bouton_players::Level;
use serde::Serialize;

use crate::board::{RuleChoice, catalog};
use crate::limits::{MAX_HEAP_SIZE, MAX_HEAPS, MAX_ROW_WIDTH};

/// The level a game against the computer gets when the request names none
/// (as in the terminal game).
pub const DEFAULT_LEVEL: Level = Level::Hard;

/// `GET /api/rules`.
///
/// ```
/// let offer = bouton_web::offer::Offer::new();
/// assert_eq!(offer.rules[0].choice.id, "nim");
/// assert_eq!(offer.limits.most_parts, bouton_web::limits::MAX_HEAPS);
/// assert_eq!(offer.levels.len(), 6);
/// assert_eq!(offer.default_level, "hard");
/// ```
#[derive(Debug, Clone, Serialize)]
pub struct Offer {
    /// Every rule set on offer, Nim first.
    pub rules: Vec<OfferedRules>,
    /// What a start may hold.
    pub limits: StartLimits,
    /// The computer's levels, weakest first.
    pub levels: Vec<LevelView>,
    /// The level used when a game against the computer names none.
    pub default_level: &'static str,
}

/// One rule set on offer.
#[derive(Debug, Clone, Serialize)]
pub struct OfferedRules {
    /// Its id, name, rules, position format and usual start.
    #[serde(flatten)]
    pub choice: RuleChoice,
    /// Whether a move may take tokens (false where a move only splits a
    /// heap, as in Grundy's game), for the example parameter.
    pub takes: bool,
}

/// The limits of a start on the server (see [`crate::limits`]).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct StartLimits {
    /// The most heaps (pairs, steps, rows, columns).
    pub most_parts: usize,
    /// The largest number in a start: tokens in a heap, pile or step, the
    /// height of a column.
    pub largest_number: u64,
    /// The widest Northcott row.
    pub widest_row: u64,
}

/// A level of the computer.
#[derive(Debug, Clone, Serialize)]
pub struct LevelView {
    /// The name `POST /api/games` takes.
    pub id: &'static str,
    /// How it plays, in words.
    pub description: String,
    /// The probability that it plays a perfect move (0 for random).
    pub skill: f64,
}

impl LevelView {
    fn new(level: Level) -> LevelView {
        let skill = level.skill();
        let description = match level {
            Level::Random => "any legal move".to_owned(),
            Level::Perfect => "never misses a winning move".to_owned(),
            _ => {
                // The smallest whole-number odds: 0.75 is 3 times in 4.
                let out_of = (1..=100u32).find(|&d| (skill * f64::from(d)).fract().abs() < 1e-9).unwrap_or(100);
                let times = (skill * f64::from(out_of)).round() as u32;
                let word = if times == 1 { "time" } else { "times" };
                format!("finds the winning move {times} {word} in {out_of}")
            }
        };
        LevelView { id: level.name(), description, skill }
    }
}

impl OfferedRules {
    /// The offer's entry for `set`, its own parameter kept.
    ///
    /// ```
    /// let entry = bouton_web::offer::OfferedRules::of(&"octal:4.8".parse()?);
    /// assert_eq!(entry.choice.name, "the hexadecimal game 4.8");
    /// assert!(entry.takes);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(set: &RuleSet) -> OfferedRules {
        OfferedRules { choice: RuleChoice::of(set), takes: set.move_shape().takes }
    }
}

impl Offer {
    /// The offer of this server.
    pub fn new() -> Offer {
        Offer {
            rules: RuleSet::examples()
                .iter()
                .zip(catalog())
                .map(|(set, choice)| OfferedRules { takes: set.move_shape().takes, choice })
                .collect(),
            limits: StartLimits { most_parts: MAX_HEAPS, largest_number: MAX_HEAP_SIZE, widest_row: MAX_ROW_WIDTH },
            levels: Level::ALL.into_iter().map(LevelView::new).collect(),
            default_level: DEFAULT_LEVEL.name(),
        }
    }
}

impl Default for Offer {
    fn default() -> Offer {
        Offer::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_say_how_often_they_find_the_winning_move() {
        let offer = Offer::new();
        let text: Vec<String> = offer.levels.iter().map(|l| format!("{}: {}", l.id, l.description)).collect();
        assert_eq!(
            text,
            [
                "random: any legal move",
                "beginner: finds the winning move 1 time in 4",
                "easy: finds the winning move 1 time in 2",
                "medium: finds the winning move 3 times in 4",
                "hard: finds the winning move 9 times in 10",
                "perfect: never misses a winning move",
            ]
        );
    }

    #[test]
    fn only_grundys_game_does_not_take() {
        let offer = Offer::new();
        let without: Vec<&str> = offer.rules.iter().filter(|r| !r.takes).map(|r| r.choice.family.as_str()).collect();
        assert_eq!(without, ["grundy"]);
    }
}
