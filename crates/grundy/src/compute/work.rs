//! The work a computation does, counted from the game and its values alone
//! (never from a clock): a budget of it stops a computation at the same n
//! on a busy machine and an idle one.
//!
//! One operation is one option looked at: a move leaving at most one heap,
//! a split looked up (the direct method's every split, the sparse method's
//! splits through each rare heap below, and all the splits of a heap whose
//! value is rare, which only a full search confirms), a way of leaving three
//! heaps. The sparse method's search for the rare values below the least
//! missing common one usually ends within a chunk or two: counted as one
//! chunk per split move.

use super::Engine;
use crate::HeapGame;

/// Splits the sparse method's search looks at for a value, per split move,
/// besides those through rare heaps (see the module's comment).
const SEARCH: u64 = super::sparse::CHUNK;

/// Which method's operations are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Method {
    /// A game that never splits: one look per written digit.
    Line,
    /// Every option of every heap.
    Direct,
    /// The rare/common method (the direct one until the mask is fixed).
    Sparse,
}

/// The account of a computation's operations.
#[derive(Debug, Clone)]
pub(crate) struct Work {
    method: Method,
    /// Moves per heap that leave at most one heap.
    singles: u64,
    /// Split moves: tokens taken, and whether the two heaps must differ.
    splits: Vec<(u64, bool)>,
    /// Moves leaving three heaps: tokens taken, and whether they must differ.
    threes: Vec<(u64, bool)>,
    /// The operations so far.
    operations: u64,
}

impl Work {
    /// The account of `game` computed by `engine` (as [`super::compute`]
    /// chose it: a game that never splits is computed line by line).
    pub(crate) fn new(game: &HeapGame, engine: Engine) -> Work {
        let method = match engine {
            _ if !game.splits() => Method::Line,
            Engine::Sparse => Method::Sparse,
            _ => Method::Direct,
        };
        let with = |bit: u8| -> Vec<(u64, bool)> {
            let digits = game.digits().iter().enumerate().filter(|&(_, d)| d & bit != 0);
            digits.map(|(k, _)| (k as u64, game.unequal_at(k as u64))).collect()
        };
        let singles = game.digits().iter().map(|d| u64::from(d & 1) + u64::from((d >> 1) & 1)).sum::<u64>().max(1);
        Work { method, singles, splits: with(4), threes: with(8), operations: 0 }
    }

    /// The operations so far.
    pub(crate) fn operations(&self) -> u64 {
        self.operations
    }

    /// Counts the value of heap `n`: `rare` is `Some((whether it is rare,
    /// rare values below it))` once the mask is fixed.
    #[inline]
    pub(crate) fn value(&mut self, n: u64, rare: Option<(bool, u64)>) {
        let cost = match (self.method, rare) {
            (Method::Line, _) => self.singles,
            (Method::Sparse, Some((is_rare, below))) => {
                let full = if is_rare { self.all_splits(n) } else { 0 };
                let through_rare = (below + SEARCH).saturating_mul(self.splits.len() as u64);
                self.singles.saturating_add(through_rare).saturating_add(full)
            }
            _ => self.singles.saturating_add(self.all_splits(n)).saturating_add(self.all_threes(n)),
        };
        self.operations = self.operations.saturating_add(cost);
    }

    /// Every split of a heap of `n`.
    fn all_splits(&self, n: u64) -> u64 {
        let parts = |&(k, unequal): &(u64, bool)| {
            let rest = n.saturating_sub(k);
            if unequal { rest.saturating_sub(1) / 2 } else { rest / 2 }
        };
        self.splits.iter().map(parts).fold(0, u64::saturating_add)
    }

    /// Every way of leaving three heaps from a heap of `n`: about rest²/12
    /// (the partitions of the rest into three parts).
    fn all_threes(&self, n: u64) -> u64 {
        let ways = |&(k, unequal): &(u64, bool)| {
            let rest = n.saturating_sub(k).saturating_sub(if unequal { 3 } else { 0 });
            rest.saturating_mul(rest) / 12
        };
        self.threes.iter().map(ways).fold(0, u64::saturating_add)
    }
}
