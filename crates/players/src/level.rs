use std::fmt;
use std::str::FromStr;

use bouton_rules::Nim;

use crate::{Levelled, Perfect, Player, RandomMover};

/// The computer's playing strength, weakest first.
///
/// | level | plays a perfect move |
/// |---|---|
/// | `random` | never on purpose: any legal move |
/// | `beginner` | 25% of the time |
/// | `easy` | 50% |
/// | `medium` | 75% |
/// | `hard` | 90% |
/// | `perfect` | always |
///
/// ```
/// use bouton_players::Level;
///
/// let level: Level = "medium".parse()?;
/// assert_eq!(level, Level::Medium);
/// assert_eq!(level.skill(), 0.75);
/// assert!(Level::Hard > Level::Easy);
/// assert!("expert".parse::<Level>().unwrap_err().to_string().contains("perfect"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Moves at random.
    Random,
    /// Finds the winning move a quarter of the time.
    Beginner,
    /// Finds the winning move half of the time.
    Easy,
    /// Finds the winning move three times out of four.
    Medium,
    /// Finds the winning move nine times out of ten.
    Hard,
    /// Never misses a winning move.
    Perfect,
}

/// A level name that is not one of [`Level::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown level {given:?}: choose one of random, beginner, easy, medium, hard, perfect")]
pub struct ParseLevelError {
    /// The text given.
    pub given: String,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 6] =
        [Level::Random, Level::Beginner, Level::Easy, Level::Medium, Level::Hard, Level::Perfect];

    /// The level's name, as typed on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Beginner => "beginner",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Perfect => "perfect",
        }
    }

    /// The probability of playing a perfect move (0 for `random`, which does
    /// not try).
    pub fn skill(self) -> f64 {
        match self {
            Level::Random => 0.0,
            Level::Beginner => 0.25,
            Level::Easy => 0.5,
            Level::Medium => 0.75,
            Level::Hard => 0.9,
            Level::Perfect => 1.0,
        }
    }

    /// A player of this level.
    pub fn player(self) -> Box<dyn Player<Nim> + Send> {
        match self {
            Level::Random => Box::new(RandomMover),
            Level::Perfect => Box::new(Perfect),
            other => Box::new(Levelled::new(other.name(), other.skill())),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(text: &str) -> Result<Level, ParseLevelError> {
        let wanted = text.trim().to_ascii_lowercase();
        Level::ALL
            .into_iter()
            .find(|level| level.name() == wanted)
            .ok_or_else(|| ParseLevelError { given: text.to_owned() })
    }
}
