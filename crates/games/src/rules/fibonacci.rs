use std::fmt;
use std::str::FromStr;

use bouton_rules::{Convention, Rules};

use crate::rules::parse::{MoveParseError, numbers};

/// Fibonacci Nim: one heap; the first move takes at least one token but not
/// all of them, and each later move takes at least one and at most twice
/// what the previous move took.
///
/// The first player wins exactly when the heap is not a Fibonacci number.
/// In general the player to move wins exactly when the smallest term of the
/// heap's Zeckendorf representation (its unique sum of non-consecutive
/// Fibonacci numbers) is at most what they may take; winning moves take a
/// sum of the smallest terms.
///
/// ```
/// use bouton_games::{FibMove, FibPosition, FibonacciNim, zeckendorf};
/// use bouton_rules::{Convention, Rules};
///
/// assert_eq!(zeckendorf(20), vec![2, 5, 13]);
/// let rules = FibonacciNim::new(Convention::Normal);
/// let start = FibPosition::start(20)?;
/// assert!(FibonacciNim::mover_wins(&start));
/// assert_eq!(FibonacciNim::winning_moves(&start), vec![FibMove { take: 2 }]);
/// assert!(!FibonacciNim::mover_wins(&FibPosition::start(21)?));
/// let mut pos = start;
/// rules.play(&mut pos, FibMove { take: 2 })?;
/// assert_eq!((pos.heap(), pos.limit()), (18, 4));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FibonacciNim {
    convention: Convention,
}

/// A Fibonacci Nim position: the heap and the most the next move may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct FibPosition {
    heap: u64,
    limit: u64,
}

/// Why a number is not a Fibonacci Nim start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FibError {
    /// Fewer than two tokens: the first move may not take them all.
    #[error("Fibonacci Nim needs a heap of at least 2 (the first move may not take every token)")]
    TooSmall,
    /// Not one heap (or heap and limit).
    #[error("Fibonacci Nim is played on one heap: give its size (and, to resume, the most the next move may take)")]
    Shape,
}

impl FibPosition {
    /// The start: a heap of `heap`, first move taking at most `heap − 1`.
    ///
    /// # Errors
    /// A heap below 2.
    pub fn start(heap: u64) -> Result<FibPosition, FibError> {
        if heap < 2 {
            return Err(FibError::TooSmall);
        }
        Ok(FibPosition { heap, limit: heap - 1 })
    }

    /// Any position: a heap and the most the next move may take.
    pub fn new(heap: u64, limit: u64) -> FibPosition {
        FibPosition { heap, limit }
    }

    /// From numbers: `N` (a start) or `N L`.
    ///
    /// # Errors
    /// Not one or two numbers, or a start below 2.
    pub fn from_numbers(numbers: &[u64]) -> Result<FibPosition, FibError> {
        match numbers {
            [heap] => FibPosition::start(*heap),
            [heap, limit] => Ok(FibPosition::new(*heap, *limit)),
            _ => Err(FibError::Shape),
        }
    }

    /// Tokens in the heap.
    pub fn heap(&self) -> u64 {
        self.heap
    }

    /// The most the next move may take (before capping at the heap).
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The most the next move can take: the limit, capped at the heap.
    pub fn max_take(&self) -> u64 {
        self.limit.min(self.heap)
    }
}

impl fmt::Display for FibPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (take at most {})", self.heap, self.max_take())
    }
}

/// A Fibonacci Nim move: take `take` tokens. Text form: the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct FibMove {
    /// Tokens taken.
    pub take: u64,
}

impl fmt::Display for FibMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.take)
    }
}

impl FromStr for FibMove {
    type Err = MoveParseError;

    fn from_str(text: &str) -> Result<FibMove, MoveParseError> {
        let words = numbers(text, 1, 1, "the number of tokens to take, like `3`")?;
        Ok(FibMove { take: words[0] })
    }
}

/// Why a Fibonacci Nim move is illegal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalFibMove {
    /// Nothing taken.
    #[error("take at least one token")]
    TakeNothing,
    /// Over the limit.
    #[error("you may take at most {max} now (twice the last move, and never all at the first move), not {take}")]
    OverLimit {
        /// Asked for.
        take: u64,
        /// Allowed.
        max: u64,
    },
}

/// The Zeckendorf representation of `n`: its unique sum of non-consecutive
/// Fibonacci numbers (1, 2, 3, 5, 8, …), smallest first.
pub fn zeckendorf(mut n: u64) -> Vec<u64> {
    let mut fibs = vec![1u64, 2];
    while let Some(next) = fibs[fibs.len() - 1].checked_add(fibs[fibs.len() - 2]) {
        if next > n {
            break;
        }
        fibs.push(next);
    }
    let mut terms = Vec::new();
    for &f in fibs.iter().rev() {
        if f <= n {
            terms.push(f);
            n -= f;
        }
    }
    terms.reverse();
    terms
}

impl FibonacciNim {
    /// Fibonacci Nim under `convention`.
    pub fn new(convention: Convention) -> FibonacciNim {
        FibonacciNim { convention }
    }

    /// Whether the player to move wins in normal play.
    pub fn mover_wins(pos: &FibPosition) -> bool {
        pos.heap > 0 && zeckendorf(pos.heap)[0] <= pos.max_take()
    }

    /// Every winning move in normal play. A winning take leaves a heap whose
    /// smallest Zeckendorf term exceeds twice the take, so the take is a sum
    /// of the smallest terms of the heap: only those are tried.
    pub fn winning_moves(pos: &FibPosition) -> Vec<FibMove> {
        let terms = zeckendorf(pos.heap);
        let mut moves = Vec::new();
        let mut take = 0u64;
        for (j, &term) in terms.iter().enumerate() {
            take += term;
            if take > pos.max_take() {
                break;
            }
            let left = pos.heap - take;
            let loses = left == 0 || terms[j + 1] > take.saturating_mul(2);
            if loses {
                moves.push(FibMove { take });
            }
        }
        moves
    }
}

impl Rules for FibonacciNim {
    type Position = FibPosition;
    type Move = FibMove;
    type Illegal = IllegalFibMove;

    fn convention(&self) -> Convention {
        self.convention
    }

    fn check(&self, pos: &FibPosition, mv: FibMove) -> Result<(), IllegalFibMove> {
        if mv.take == 0 {
            return Err(IllegalFibMove::TakeNothing);
        }
        if mv.take > pos.max_take() {
            return Err(IllegalFibMove::OverLimit { take: mv.take, max: pos.max_take() });
        }
        Ok(())
    }

    fn apply(&self, pos: &mut FibPosition, mv: FibMove) {
        pos.heap = pos.heap.saturating_sub(mv.take);
        pos.limit = mv.take.saturating_mul(2);
    }

    /// Smallest take first.
    fn legal_moves(&self, pos: &FibPosition) -> impl Iterator<Item = FibMove> {
        (1..=pos.max_take()).map(|take| FibMove { take })
    }

    fn is_over(&self, pos: &FibPosition) -> bool {
        pos.max_take() == 0
    }
}
