use std::fmt;
use std::str::FromStr;

use bouton_rules::{Convention, Heaps, Rules};

use crate::rules::heap::heap_index;
use crate::rules::parse::{MoveParseError, numbers};

/// The largest `k` for Moore's Nim_k (a move is stored in place).
pub const MOORE_MAX_K: usize = 8;

/// Moore's Nim_k: a move takes tokens from at least one and at most `k`
/// heaps (any number from each). Nim is Nim_1.
///
/// Moore (1910): the player to move loses exactly when, in every binary
/// column, the number of heaps with a 1 there is a multiple of `k + 1`. In
/// misère play the same holds while some heap has two or more tokens; when
/// none has, the player to move loses exactly when the number of 1s is
/// 1 more than a multiple of `k + 1`.
///
/// ```
/// use bouton_games::{MooreMove, MooreNim};
/// use bouton_rules::{Convention, Heaps, Rules};
///
/// let nim2 = MooreNim::new(2, Convention::Normal)?;
/// // 1 2 3: two 1s in each column, not a multiple of 3, so the mover wins.
/// assert!(!nim2.loses(&[1, 2, 3]));
/// assert!(nim2.loses(&[1, 1, 1]));
/// let mut heaps = Heaps::new(vec![4, 5, 6])?;
/// let mv: MooreMove = "1 4 3 6".parse()?;
/// nim2.play(&mut heaps, mv)?;
/// assert_eq!(heaps.as_slice(), &[0, 5, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MooreNim {
    k: usize,
    convention: Convention,
}

/// `k` out of range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Moore's Nim_k needs k from 1 to {MOORE_MAX_K}, not {k}")]
pub struct MooreKError {
    /// The k asked for.
    pub k: u64,
}

/// A move of Moore's Nim_k: `(heap, take)` pairs, heaps counted from 0, in
/// increasing heap order. Text form, heaps counted from 1: `1 2 3 1` or
/// `1:2,3:1` takes 2 from heap 1 and 1 from heap 3.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MooreMove {
    takes: [(usize, u64); MOORE_MAX_K],
    len: u8,
}

impl MooreMove {
    /// The move taking `take` from each `heap` (at most [`MOORE_MAX_K`]
    /// pairs; extra pairs are ignored). The pairs are sorted by heap.
    pub fn new(pairs: &[(usize, u64)]) -> MooreMove {
        let mut takes = [(0, 0); MOORE_MAX_K];
        let len = pairs.len().min(MOORE_MAX_K);
        takes[..len].copy_from_slice(&pairs[..len]);
        takes[..len].sort_unstable();
        MooreMove { takes, len: len as u8 }
    }

    /// The `(heap, take)` pairs.
    pub fn pairs(&self) -> &[(usize, u64)] {
        &self.takes[..usize::from(self.len)]
    }
}

impl fmt::Debug for MooreMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.pairs()).finish()
    }
}

impl fmt::Display for MooreMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (heap, take)) in self.pairs().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}:{take}", *heap as u128 + 1)?;
        }
        Ok(())
    }
}

impl FromStr for MooreMove {
    type Err = MoveParseError;

    fn from_str(text: &str) -> Result<MooreMove, MoveParseError> {
        let shape = "pairs of heap number and amount, like `1 2 3 1` (2 from heap 1 and 1 from heap 3)";
        let words = numbers(text, 2, 2 * MOORE_MAX_K, shape)?;
        if words.len() % 2 != 0 {
            return Err(MoveParseError::WrongCount { shape });
        }
        let mut pairs = Vec::with_capacity(words.len() / 2);
        for pair in words.chunks(2) {
            pairs.push((heap_index(pair[0])?, pair[1]));
        }
        Ok(MooreMove::new(&pairs))
    }
}

impl serde::Serialize for MooreMove {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for MooreMove {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<MooreMove, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Why a move is illegal in Moore's Nim_k. Heap numbers count from 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMooreMove {
    /// More heaps than `k`.
    #[error("a move may take from at most {k} heaps, not {heaps}")]
    TooManyHeaps {
        /// The limit.
        k: usize,
        /// Heaps in the move.
        heaps: usize,
    },
    /// No heap at all.
    #[error("a move takes from at least one heap")]
    NoHeap,
    /// A heap named twice.
    #[error("heap {heap} is named twice")]
    Repeated {
        /// The heap number.
        heap: usize,
    },
    /// No such heap.
    #[error("there is no heap {heap}: heaps are numbered 1 to {heaps}")]
    NoSuchHeap {
        /// The heap number.
        heap: usize,
        /// How many heaps there are.
        heaps: usize,
    },
    /// Taking nothing from a named heap.
    #[error("take at least one token from each heap named (heap {heap})")]
    TakeNothing {
        /// The heap number.
        heap: usize,
    },
    /// More than the heap holds.
    #[error("cannot take {take} from heap {heap}: it holds only {size}")]
    TooMany {
        /// The heap number.
        heap: usize,
        /// The amount.
        take: u64,
        /// What the heap holds.
        size: u64,
    },
}

impl MooreNim {
    /// Nim_k under `convention`.
    ///
    /// # Errors
    /// `k` outside 1 to [`MOORE_MAX_K`].
    pub fn new(k: u64, convention: Convention) -> Result<MooreNim, MooreKError> {
        match usize::try_from(k) {
            Ok(k) if (1..=MOORE_MAX_K).contains(&k) => Ok(MooreNim { k, convention }),
            _ => Err(MooreKError { k }),
        }
    }

    /// The most heaps one move may touch.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Whether the player to move loses `heaps` with perfect play (Moore's
    /// theorem, both conventions).
    pub fn loses(&self, heaps: &[u64]) -> bool {
        let modulus = self.k as u64 + 1;
        if self.convention == Convention::Misere && heaps.iter().all(|&h| h <= 1) {
            let ones = heaps.iter().filter(|&&h| h == 1).count() as u64;
            return ones % modulus == 1;
        }
        (0..u64::BITS)
            .all(|bit| (heaps.iter().filter(|&&h| (h >> bit) & 1 == 1).count() as u64).is_multiple_of(modulus))
    }

    /// One winning move under the rules' convention, for any heap sizes;
    /// `None` when the mover loses. In normal play it is built column by
    /// column from the highest (Moore's construction). In misère play the
    /// same move wins unless it would leave only heaps of 0 and 1; then, and
    /// when only such heaps are left already, the move empties or reduces to
    /// 1 every larger heap and takes single tokens so that the number of
    /// 1-heaps left is 1 more than a multiple of k + 1.
    ///
    /// ```
    /// use bouton_games::MooreNim;
    /// use bouton_rules::{Convention, Heaps, Rules};
    ///
    /// for convention in [Convention::Normal, Convention::Misere] {
    ///     let rules = MooreNim::new(2, convention)?;
    ///     let mut heaps = Heaps::new(vec![1, 1, 3])?;
    ///     let mv = rules.construct_winning_move(heaps.as_slice()).unwrap();
    ///     rules.play(&mut heaps, mv)?;
    ///     assert!(rules.loses(heaps.as_slice()));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn construct_winning_move(&self, heaps: &[u64]) -> Option<MooreMove> {
        if self.loses(heaps) {
            return None;
        }
        let endgame = self.convention == Convention::Misere && heaps.iter().all(|&h| h <= 1);
        let normal = if endgame { None } else { self.construct_normal(heaps) };
        match normal {
            Some(mv) if self.convention == Convention::Normal || !self.leaves_only_ones(heaps, mv) => Some(mv),
            _ if self.convention == Convention::Misere => self.construct_misere_endgame(heaps),
            other => other,
        }
    }

    /// Whether `mv` leaves no heap larger than 1.
    fn leaves_only_ones(&self, heaps: &[u64], mv: MooreMove) -> bool {
        let mut after = heaps.to_vec();
        for &(heap, take) in mv.pairs() {
            after[heap] -= take;
        }
        after.iter().all(|&h| h <= 1)
    }

    /// A misère move to a position of heaps of 0 and 1 whose count of 1s
    /// is 1 more than a multiple of k + 1, if one exists: every heap above 1
    /// is emptied or left at 1, and up to k of the moved heaps' allowance is
    /// spent on existing 1-heaps.
    fn construct_misere_endgame(&self, heaps: &[u64]) -> Option<MooreMove> {
        let big: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] > 1).collect();
        let ones: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] == 1).collect();
        if big.len() > self.k {
            return None;
        }
        let modulus = self.k + 1;
        let spare = (self.k - big.len()).min(ones.len());
        for kept in 0..=big.len() {
            for taken in 0..=spare {
                if kept + taken == 0 && big.is_empty() {
                    continue;
                }
                let left = ones.len() - taken + kept;
                if left % modulus != 1 % modulus {
                    continue;
                }
                let mut pairs: Vec<(usize, u64)> =
                    big.iter().enumerate().map(|(j, &i)| (i, heaps[i] - u64::from(j < kept))).collect();
                pairs.extend(ones.iter().take(taken).map(|&i| (i, 1)));
                if !pairs.is_empty() {
                    return Some(MooreMove::new(&pairs));
                }
            }
        }
        None
    }

    /// Moore's construction for normal play.
    fn construct_normal(&self, heaps: &[u64]) -> Option<MooreMove> {
        let modulus = self.k + 1;
        let mut touched: Vec<usize> = Vec::new();
        let mut new_values = heaps.to_vec();
        for bit in (0..u64::BITS).rev() {
            let mask = 1u64 << bit;
            let untouched: Vec<usize> =
                (0..heaps.len()).filter(|i| !touched.contains(i) && heaps[*i] & mask != 0).collect();
            let r = untouched.len() % modulus;
            for &i in &touched {
                new_values[i] &= !mask;
            }
            if r == 0 {
                continue;
            }
            if touched.len() >= modulus - r {
                for &i in touched.iter().take(modulus - r) {
                    new_values[i] |= mask;
                }
            } else {
                for &i in untouched.iter().take(r) {
                    touched.push(i);
                    // Keep the bits above, clear this one; lower bits are free.
                    new_values[i] = heaps[i] & !((mask << 1).wrapping_sub(1));
                }
            }
        }
        if touched.is_empty() {
            return None;
        }
        let pairs: Vec<(usize, u64)> = touched.iter().map(|&i| (i, heaps[i] - new_values[i])).collect();
        Some(MooreMove::new(&pairs))
    }
}

impl Rules for MooreNim {
    type Position = Heaps;
    type Move = MooreMove;
    type Illegal = IllegalMooreMove;

    fn convention(&self) -> Convention {
        self.convention
    }

    fn check(&self, heaps: &Heaps, mv: MooreMove) -> Result<(), IllegalMooreMove> {
        let pairs = mv.pairs();
        if pairs.is_empty() {
            return Err(IllegalMooreMove::NoHeap);
        }
        if pairs.len() > self.k {
            return Err(IllegalMooreMove::TooManyHeaps { k: self.k, heaps: pairs.len() });
        }
        for (i, &(heap, take)) in pairs.iter().enumerate() {
            let number = heap.saturating_add(1);
            if i > 0 && pairs[i - 1].0 == heap {
                return Err(IllegalMooreMove::Repeated { heap: number });
            }
            let Some(size) = heaps.get(heap) else {
                return Err(IllegalMooreMove::NoSuchHeap { heap: number, heaps: heaps.len() });
            };
            if take == 0 {
                return Err(IllegalMooreMove::TakeNothing { heap: number });
            }
            if take > size {
                return Err(IllegalMooreMove::TooMany { heap: number, take, size });
            }
        }
        Ok(())
    }

    fn apply(&self, heaps: &mut Heaps, mv: MooreMove) {
        let mut sizes = std::mem::replace(heaps, Heaps::new(vec![0]).expect("one heap")).into_vec();
        for &(heap, take) in mv.pairs() {
            if let Some(size) = sizes.get_mut(heap) {
                *size = size.saturating_sub(take);
            }
        }
        *heaps = Heaps::new(sizes).expect("never empty");
    }

    /// Moves touching one heap first, then two, …; heaps in increasing
    /// order, amounts counting up from 1.
    fn legal_moves(&self, heaps: &Heaps) -> impl Iterator<Item = MooreMove> {
        MooreMoves::new(heaps.as_slice().to_vec(), self.k)
    }

    fn is_over(&self, heaps: &Heaps) -> bool {
        heaps.all_empty()
    }
}

/// Every legal move of Nim_k, lazily: an odometer over heap combinations
/// and amounts.
struct MooreMoves {
    heaps: Vec<u64>,
    non_empty: Vec<usize>,
    k: usize,
    /// Current combination size.
    size: usize,
    /// Indices into `non_empty`.
    combo: Vec<usize>,
    /// Amount taken from each heap of the combination.
    amounts: Vec<u64>,
    done: bool,
}

impl MooreMoves {
    fn new(heaps: Vec<u64>, k: usize) -> MooreMoves {
        let non_empty: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] > 0).collect();
        let done = non_empty.is_empty();
        let mut moves = MooreMoves { heaps, non_empty, k, size: 1, combo: vec![0], amounts: vec![1], done };
        if !moves.done {
            moves.combo = vec![0];
        }
        moves
    }

    fn advance(&mut self) {
        // Amounts first, like an odometer.
        for i in (0..self.size).rev() {
            let heap = self.non_empty[self.combo[i]];
            if self.amounts[i] < self.heaps[heap] {
                self.amounts[i] += 1;
                for a in &mut self.amounts[i + 1..] {
                    *a = 1;
                }
                return;
            }
        }
        // Next combination of the same size.
        let n = self.non_empty.len();
        for i in (0..self.size).rev() {
            if self.combo[i] < n - (self.size - i) {
                self.combo[i] += 1;
                for j in i + 1..self.size {
                    self.combo[j] = self.combo[j - 1] + 1;
                }
                self.amounts.fill(1);
                return;
            }
        }
        // Larger combinations.
        self.size += 1;
        if self.size > self.k || self.size > n {
            self.done = true;
            return;
        }
        self.combo = (0..self.size).collect();
        self.amounts = vec![1; self.size];
    }
}

impl Iterator for MooreMoves {
    type Item = MooreMove;

    fn next(&mut self) -> Option<MooreMove> {
        if self.done {
            return None;
        }
        let pairs: Vec<(usize, u64)> =
            self.combo.iter().zip(&self.amounts).map(|(&c, &a)| (self.non_empty[c], a)).collect();
        let mv = MooreMove::new(&pairs);
        self.advance();
        Some(mv)
    }
}
