use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use bouton_rules::{Convention, Rules};

use crate::MexSet;
use crate::rules::parse::{MoveParseError, numbers};

/// The largest pile in a Wythoff position: the closed form is computed
/// exactly in 128-bit integers up to here.
pub const WYTHOFF_MAX: u64 = 1_000_000_000_000_000_000;

/// Piles up to this have their Grundy values tabulated (needed for sums of
/// several Wythoff games).
pub const WYTHOFF_TABLE: u64 = 1024;

/// Wythoff's game: two piles; take any number from one pile, or the same
/// number from both. A position is a sum of such pairs.
///
/// The player to move loses a single pair exactly at (⌊iφ⌋, ⌊iφ²⌋) and its
/// mirror, φ the golden ratio, i = 0, 1, 2, … — computed here with exact
/// integer arithmetic.
///
/// ```
/// use bouton_games::{Pairs, Wythoff, WythoffMove, wythoff_losing};
/// use bouton_rules::{Convention, Rules};
///
/// assert!(wythoff_losing(3, 5) && wythoff_losing(5, 3) && wythoff_losing(4, 7));
/// assert!(!wythoff_losing(4, 5));
/// let rules = Wythoff::new(Convention::Normal);
/// let mut pairs = Pairs::new(vec![(4, 5)])?;
/// rules.play(&mut pairs, WythoffMove { pair: 0, first: 1, second: 1 })?;
/// assert_eq!(pairs.as_slice(), &[(3, 4)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wythoff {
    convention: Convention,
}

/// A Wythoff position: one or more pairs of piles.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Pairs(Vec<(u64, u64)>);

/// Why numbers are not a Wythoff position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairsError {
    /// No pairs.
    #[error("no piles given: a Wythoff position is pairs of pile sizes, like `3 5`")]
    Empty,
    /// An odd count of numbers.
    #[error("Wythoff piles come in pairs: give an even number of sizes, like `3 5` or `3 5 2 7`")]
    Odd,
    /// A pile too large for the exact closed form.
    #[error("pile {size} is too large: Wythoff piles go up to {WYTHOFF_MAX}")]
    TooLarge {
        /// The pile.
        size: u64,
    },
}

impl Pairs {
    /// A position of these pairs.
    ///
    /// # Errors
    /// No pairs, or a pile above [`WYTHOFF_MAX`].
    pub fn new(pairs: Vec<(u64, u64)>) -> Result<Pairs, PairsError> {
        if pairs.is_empty() {
            return Err(PairsError::Empty);
        }
        if let Some(&(a, b)) = pairs.iter().find(|&&(a, b)| a > WYTHOFF_MAX || b > WYTHOFF_MAX) {
            return Err(PairsError::TooLarge { size: a.max(b) });
        }
        Ok(Pairs(pairs))
    }

    /// Pairs from a flat list of sizes: `3 5 2 7` is (3, 5) and (2, 7).
    ///
    /// # Errors
    /// An odd count, none, or a pile too large.
    pub fn from_sizes(sizes: &[u64]) -> Result<Pairs, PairsError> {
        if !sizes.len().is_multiple_of(2) {
            return Err(PairsError::Odd);
        }
        Pairs::new(sizes.chunks(2).map(|c| (c[0], c[1])).collect())
    }

    /// The pairs.
    pub fn as_slice(&self) -> &[(u64, u64)] {
        &self.0
    }

    /// The sizes as a flat list.
    pub fn sizes(&self) -> Vec<u64> {
        self.0.iter().flat_map(|&(a, b)| [a, b]).collect()
    }
}

impl fmt::Display for Pairs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (a, b)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("  ")?;
            }
            write!(f, "{a} {b}")?;
        }
        Ok(())
    }
}

/// A Wythoff move: from pair `pair` (counted from 0) take `first` from the
/// first pile and `second` from the second (one of them 0, or both equal).
/// Text form: `P X Y` with pairs counted from 1, or `X Y` when there is
/// one pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct WythoffMove {
    /// The pair, counted from 0.
    pub pair: usize,
    /// Taken from the first pile.
    pub first: u64,
    /// Taken from the second pile.
    pub second: u64,
}

impl fmt::Display for WythoffMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.pair as u128 + 1, self.first, self.second)
    }
}

impl FromStr for WythoffMove {
    type Err = MoveParseError;

    fn from_str(text: &str) -> Result<WythoffMove, MoveParseError> {
        let shape =
            "a pair number and the amounts from its two piles, like `1 2 0` or `1 3 3` (or just `2 0` with one pair)";
        let words = numbers(text, 2, 3, shape)?;
        if words.len() == 2 {
            return Ok(WythoffMove { pair: 0, first: words[0], second: words[1] });
        }
        if words[0] == 0 {
            return Err(MoveParseError::ZeroIndex { what: "pair" });
        }
        let pair = usize::try_from(words[0] - 1).unwrap_or(usize::MAX);
        Ok(WythoffMove { pair, first: words[1], second: words[2] })
    }
}

/// Why a Wythoff move is illegal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalWythoffMove {
    /// No such pair.
    #[error("there is no pair {pair}: pairs are numbered 1 to {pairs}")]
    NoSuchPair {
        /// The pair number.
        pair: usize,
        /// How many pairs there are.
        pairs: usize,
    },
    /// Nothing taken.
    #[error("take at least one token")]
    TakeNothing,
    /// Different amounts from both piles.
    #[error("take from one pile, or the same number from both (not {first} and {second})")]
    Unequal {
        /// From the first pile.
        first: u64,
        /// From the second pile.
        second: u64,
    },
    /// More than a pile holds.
    #[error("cannot take {take} from a pile of {size}")]
    TooMany {
        /// The amount.
        take: u64,
        /// The pile.
        size: u64,
    },
}

impl Wythoff {
    /// Wythoff's game under `convention`.
    pub fn new(convention: Convention) -> Wythoff {
        Wythoff { convention }
    }

    /// Every winning move of a single pair in normal play (at most three),
    /// from the closed form.
    pub fn winning_moves_of_pair(a: u64, b: u64) -> Vec<(u64, u64)> {
        let mut moves = Vec::new();
        if wythoff_losing(a, b) {
            return moves;
        }
        let pb = wythoff_partner(a);
        if pb < b {
            moves.push((0, b - pb));
        }
        let pa = wythoff_partner(b);
        if pa < a {
            moves.push((a - pa, 0));
        }
        let d = a.abs_diff(b);
        let low = wythoff_lower(d);
        let small = a.min(b);
        if small > low {
            moves.push((small - low, small - low));
        }
        moves.sort_unstable();
        moves.dedup();
        moves
    }

    /// The move in words.
    pub fn describe(&self, mv: &WythoffMove, pairs: usize) -> crate::Phrase {
        let of = if pairs > 1 { format!(" of pair {}", mv.pair as u128 + 1) } else { String::new() };
        let rest = match (mv.first, mv.second) {
            (x, 0) => format!("{x} from the first pile{of}"),
            (0, y) => format!("{y} from the second pile{of}"),
            (x, _) => format!("{x} from both piles{of}"),
        };
        crate::Phrase::new(crate::Verb::Take, rest)
    }
}

impl Rules for Wythoff {
    type Position = Pairs;
    type Move = WythoffMove;
    type Illegal = IllegalWythoffMove;

    fn convention(&self) -> Convention {
        self.convention
    }

    fn check(&self, pairs: &Pairs, mv: WythoffMove) -> Result<(), IllegalWythoffMove> {
        let Some(&(a, b)) = pairs.0.get(mv.pair) else {
            return Err(IllegalWythoffMove::NoSuchPair { pair: mv.pair.saturating_add(1), pairs: pairs.0.len() });
        };
        if mv.first == 0 && mv.second == 0 {
            return Err(IllegalWythoffMove::TakeNothing);
        }
        if mv.first != 0 && mv.second != 0 && mv.first != mv.second {
            return Err(IllegalWythoffMove::Unequal { first: mv.first, second: mv.second });
        }
        if mv.first > a {
            return Err(IllegalWythoffMove::TooMany { take: mv.first, size: a });
        }
        if mv.second > b {
            return Err(IllegalWythoffMove::TooMany { take: mv.second, size: b });
        }
        Ok(())
    }

    fn apply(&self, pairs: &mut Pairs, mv: WythoffMove) {
        if let Some(pair) = pairs.0.get_mut(mv.pair) {
            pair.0 = pair.0.saturating_sub(mv.first);
            pair.1 = pair.1.saturating_sub(mv.second);
        }
    }

    /// Pair by pair: from the first pile, from the second, from both.
    fn legal_moves(&self, pairs: &Pairs) -> impl Iterator<Item = WythoffMove> {
        pairs.0.iter().enumerate().flat_map(|(pair, &(a, b))| {
            let first = (1..=a).map(move |x| WythoffMove { pair, first: x, second: 0 });
            let second = (1..=b).map(move |y| WythoffMove { pair, first: 0, second: y });
            let both = (1..=a.min(b)).map(move |z| WythoffMove { pair, first: z, second: z });
            first.chain(second).chain(both)
        })
    }

    fn is_over(&self, pairs: &Pairs) -> bool {
        pairs.0.iter().all(|&(a, b)| a == 0 && b == 0)
    }
}

/// ⌊iφ⌋ exactly: (i + ⌊√(5i²)⌋) / 2, for i up to [`WYTHOFF_MAX`].
pub fn wythoff_lower(i: u64) -> u64 {
    let i = u128::from(i);
    ((i + (5 * i * i).isqrt()) / 2) as u64
}

/// Whether the player to move loses the single Wythoff pair (a, b) in
/// normal play: the smaller pile is ⌊dφ⌋ for d the difference.
pub fn wythoff_losing(a: u64, b: u64) -> bool {
    let (small, large) = (a.min(b), a.max(b));
    wythoff_lower(large - small) == small
}

/// The other coordinate of the losing pair that contains `x` (every
/// natural number is in exactly one; 0 pairs with itself).
pub fn wythoff_partner(x: u64) -> u64 {
    if x == 0 {
        return 0;
    }
    let x128 = u128::from(x);
    let root = (5 * x128 * x128).isqrt();
    // x = ⌊iφ⌋ means i ≈ x/φ = x(√5 − 1)/2.
    let i0 = ((root - x128) / 2) as u64;
    for i in i0.saturating_sub(1)..=i0 + 1 {
        if i > 0 && wythoff_lower(i) == x {
            return x + i;
        }
    }
    // Otherwise x = ⌊jφ⌋ + j, j ≈ x/φ² = x(3 − √5)/2.
    let j0 = ((3 * x128 - root) / 2) as u64;
    for j in j0.saturating_sub(1)..=j0 + 1 {
        if j > 0 && wythoff_lower(j) + j == x {
            return wythoff_lower(j);
        }
    }
    unreachable!("every positive integer is in one Beatty sequence of φ and φ²")
}

/// The Grundy value of the single Wythoff pair (a, b), for piles up to
/// [`WYTHOFF_TABLE`].
pub fn wythoff_grundy(a: u64, b: u64) -> Option<u32> {
    if a > WYTHOFF_TABLE || b > WYTHOFF_TABLE {
        return None;
    }
    let table = wythoff_table();
    let side = WYTHOFF_TABLE as usize + 1;
    Some(u32::from(table[a as usize * side + b as usize]))
}

fn wythoff_table() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let side = WYTHOFF_TABLE as usize + 1;
        let mut table = vec![0u16; side * side];
        // Values seen in each row, column and diagonal so far.
        let mut rows = vec![MexSet::new(); side];
        let mut cols = vec![MexSet::new(); side];
        let mut diags = vec![MexSet::new(); 2 * side];
        let mut set = MexSet::new();
        for a in 0..side {
            for b in 0..side {
                set.clear();
                set.union_with(&rows[a]);
                set.union_with(&cols[b]);
                set.union_with(&diags[side + a - b]);
                let g = set.mex();
                table[a * side + b] = g as u16;
                rows[a].insert(g);
                cols[b].insert(g);
                diags[side + a - b].insert(g);
            }
        }
        table
    })
}
