use std::fmt;
use std::str::FromStr;

use bouton_rules::{Convention, Rules};

use crate::rules::parse::{MoveParseError, numbers};

/// Staircase Nim: coins stand on the steps of a staircase; a move moves one
/// or more coins from a step down to the step below (from step 1, off the
/// staircase). It is Nim on the odd-numbered steps: the coins moved from an
/// even step can always be moved on again, so they change nothing, and its
/// Grundy value is the XOR of the odd steps.
///
/// ```
/// use bouton_games::{StairMove, Staircase, Stairs};
/// use bouton_rules::{Convention, Rules};
///
/// let rules = Staircase::new(Convention::Normal);
/// let mut stairs = Stairs::new(vec![3, 0, 5])?;
/// assert_eq!(Staircase::grundy(&stairs), 3 ^ 5);
/// rules.play(&mut stairs, "3 2".parse()?)?; // two coins from step 3 to step 2
/// assert_eq!(stairs.as_slice(), &[3, 2, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Staircase {
    convention: Convention,
}

/// Coins on steps 1, 2, 3, … of a staircase.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Stairs(Vec<u64>);

/// Why numbers are not a staircase.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StairsError {
    /// No steps.
    #[error("no steps given: a staircase is the number of coins on steps 1, 2, 3, …, like `3 0 5`")]
    Empty,
    /// The coins could overflow when moved down.
    #[error("too many coins: the coins on the staircase must add up to at most {max}", max = u64::MAX)]
    TooMany,
}

impl Stairs {
    /// A staircase with `coins[i]` coins on step i + 1.
    ///
    /// # Errors
    /// No steps, or more coins in all than fit 64 bits.
    pub fn new(coins: Vec<u64>) -> Result<Stairs, StairsError> {
        if coins.is_empty() {
            return Err(StairsError::Empty);
        }
        coins.iter().try_fold(0u64, |sum, &c| sum.checked_add(c)).ok_or(StairsError::TooMany)?;
        Ok(Stairs(coins))
    }

    /// The coins per step, step 1 first.
    pub fn as_slice(&self) -> &[u64] {
        &self.0
    }
}

impl fmt::Display for Stairs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.0.iter().map(u64::to_string).collect();
        f.write_str(&words.join(" "))
    }
}

/// A staircase move: move `coins` coins from step `step` + 1 (counted from
/// 0 here) one step down. Text form: `S K`, steps counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct StairMove {
    /// The step, counted from 0 (step 1 is 0).
    pub step: usize,
    /// How many coins move down.
    pub coins: u64,
}

impl fmt::Display for StairMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.step as u128 + 1, self.coins)
    }
}

impl FromStr for StairMove {
    type Err = MoveParseError;

    fn from_str(text: &str) -> Result<StairMove, MoveParseError> {
        let shape = "a step number and a number of coins, like `3 2` (2 coins from step 3 to step 2)";
        let words = numbers(text, 2, 2, shape)?;
        if words[0] == 0 {
            return Err(MoveParseError::ZeroIndex { what: "step" });
        }
        Ok(StairMove { step: usize::try_from(words[0] - 1).unwrap_or(usize::MAX), coins: words[1] })
    }
}

/// Why a staircase move is illegal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalStairMove {
    /// No such step.
    #[error("there is no step {step}: steps are numbered 1 to {steps}")]
    NoSuchStep {
        /// The step number.
        step: usize,
        /// How many steps there are.
        steps: usize,
    },
    /// Nothing moved.
    #[error("move at least one coin")]
    MoveNothing,
    /// More than the step holds.
    #[error("cannot move {coins} coins from step {step}: it holds only {held}")]
    TooMany {
        /// The step number.
        step: usize,
        /// The coins asked for.
        coins: u64,
        /// What the step holds.
        held: u64,
    },
}

impl Staircase {
    /// Staircase Nim under `convention`.
    pub fn new(convention: Convention) -> Staircase {
        Staircase { convention }
    }

    /// The Grundy value: the XOR of the coins on the odd-numbered steps.
    pub fn grundy(stairs: &Stairs) -> u64 {
        stairs.0.iter().step_by(2).fold(0, |x, &c| x ^ c)
    }

    /// Every winning move in normal play.
    pub fn winning_moves(stairs: &Stairs) -> Vec<StairMove> {
        let s = Staircase::grundy(stairs);
        let mut moves = Vec::new();
        if s == 0 {
            return moves;
        }
        for (step, &coins) in stairs.0.iter().enumerate() {
            if step % 2 == 0 {
                // An odd step (1, 3, …): move coins down to shrink it.
                let target = coins ^ s;
                if target < coins {
                    moves.push(StairMove { step, coins: coins - target });
                }
            } else {
                // An even step: move coins onto the odd step below.
                let below = stairs.0[step - 1];
                let target = below ^ s;
                if target > below && target - below <= coins {
                    moves.push(StairMove { step, coins: target - below });
                }
            }
        }
        moves
    }

    /// The move in words.
    pub fn describe(&self, mv: &StairMove) -> crate::Phrase {
        let coins = if mv.coins == 1 { "1 coin".to_owned() } else { format!("{} coins", mv.coins) };
        let rest = match mv.step {
            0 => format!("{coins} from step 1 off the staircase"),
            s => format!("{coins} from step {} to step {s}", s + 1),
        };
        crate::Phrase::new(crate::Verb::Move, rest)
    }
}

impl Rules for Staircase {
    type Position = Stairs;
    type Move = StairMove;
    type Illegal = IllegalStairMove;

    fn convention(&self) -> Convention {
        self.convention
    }

    fn check(&self, stairs: &Stairs, mv: StairMove) -> Result<(), IllegalStairMove> {
        let number = mv.step.saturating_add(1);
        let Some(&held) = stairs.0.get(mv.step) else {
            return Err(IllegalStairMove::NoSuchStep { step: number, steps: stairs.0.len() });
        };
        if mv.coins == 0 {
            return Err(IllegalStairMove::MoveNothing);
        }
        if mv.coins > held {
            return Err(IllegalStairMove::TooMany { step: number, coins: mv.coins, held });
        }
        Ok(())
    }

    fn apply(&self, stairs: &mut Stairs, mv: StairMove) {
        if let Some(held) = stairs.0.get_mut(mv.step) {
            let coins = mv.coins.min(*held);
            *held -= coins;
            if mv.step > 0 {
                // The total never exceeds u64::MAX (checked at creation).
                stairs.0[mv.step - 1] = stairs.0[mv.step - 1].saturating_add(coins);
            }
        }
    }

    /// Step by step from the bottom, fewest coins first.
    fn legal_moves(&self, stairs: &Stairs) -> impl Iterator<Item = StairMove> {
        stairs.0.iter().enumerate().flat_map(|(step, &held)| (1..=held).map(move |coins| StairMove { step, coins }))
    }

    fn is_over(&self, stairs: &Stairs) -> bool {
        stairs.0.iter().all(|&c| c == 0)
    }
}
