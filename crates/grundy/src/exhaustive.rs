use std::collections::HashMap;
use std::hash::Hash;

use bouton_rules::{Convention, Heaps, Nim, Rules};

use crate::{FibPosition, FibonacciNim, HeapRules, MexSet, MooreNim, Pairs, Staircase, Stairs, Wythoff};

/// Positions an exhaustive search may visit unless told otherwise.
pub const DEFAULT_BUDGET: usize = 200_000;

/// Rule sets whose positions have a canonical form: positions with equal
/// keys have the same game tree (a row of heaps is a multiset, so its key is
/// the sorted non-empty heaps).
pub trait Canonical: Rules {
    /// The canonical form.
    type Key: Hash + Eq + Clone;

    /// The canonical form of `position`.
    fn key(&self, position: &Self::Position) -> Self::Key;
}

fn sorted_non_empty(heaps: &Heaps) -> Vec<u64> {
    let mut sizes: Vec<u64> = heaps.as_slice().iter().copied().filter(|&h| h > 0).collect();
    sizes.sort_unstable();
    sizes
}

impl Canonical for Nim {
    type Key = Vec<u64>;
    fn key(&self, heaps: &Heaps) -> Vec<u64> {
        sorted_non_empty(heaps)
    }
}

impl Canonical for HeapRules {
    type Key = Vec<u64>;
    fn key(&self, heaps: &Heaps) -> Vec<u64> {
        sorted_non_empty(heaps)
    }
}

impl Canonical for MooreNim {
    type Key = Vec<u64>;
    fn key(&self, heaps: &Heaps) -> Vec<u64> {
        sorted_non_empty(heaps)
    }
}

impl Canonical for Wythoff {
    type Key = Vec<(u64, u64)>;
    fn key(&self, pairs: &Pairs) -> Vec<(u64, u64)> {
        let mut key: Vec<(u64, u64)> =
            pairs.as_slice().iter().map(|&(a, b)| (a.min(b), a.max(b))).filter(|&p| p != (0, 0)).collect();
        key.sort_unstable();
        key
    }
}

impl Canonical for Staircase {
    type Key = Vec<u64>;
    fn key(&self, stairs: &Stairs) -> Vec<u64> {
        let coins = stairs.as_slice();
        let used = coins.iter().rposition(|&c| c > 0).map_or(0, |i| i + 1);
        coins[..used].to_vec()
    }
}

impl Canonical for FibonacciNim {
    type Key = (u64, u64);
    fn key(&self, pos: &FibPosition) -> (u64, u64) {
        (pos.heap(), pos.max_take())
    }
}

/// The search would visit more positions than its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the position is too large to search exhaustively (more than {budget} positions)")]
pub struct TooLarge {
    /// The budget.
    pub budget: usize,
}

/// An exhaustive game-tree search with a memo, for any rule set with
/// canonical positions and a finite game tree. It computes, for each
/// position, the mex of its options' values with a terminal position worth
/// 0 in normal play and 1 in misère play: in normal play that is the Grundy
/// value; in misère play it is the misère nim-value g⁻ (the first component
/// of the genus). Either way the player to move wins exactly when it is not
/// 0, and a winning move is one to a position worth 0.
///
/// ```
/// use bouton_grundy::{Exhaustive, HeapGame, HeapRules};
/// use bouton_rules::{Convention, Heaps};
///
/// let kayles = HeapRules::new(HeapGame::kayles(), Convention::Misere);
/// let mut search = Exhaustive::new(kayles, 100_000);
/// // Misère Kayles, one row: g⁻ = 1, 0, 2, 3, 0, 1, …
/// let values: Vec<u32> =
///     (0..6).map(|n| search.value(&Heaps::new(vec![n]).unwrap())).collect::<Result<_, _>>()?;
/// assert_eq!(values, vec![1, 0, 2, 3, 0, 1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Exhaustive<R: Canonical> {
    rules: R,
    memo: HashMap<R::Key, u32>,
    terminal: u32,
    budget: usize,
}

struct Frame<R: Canonical> {
    key: R::Key,
    children: Vec<R::Position>,
    next: usize,
    seen: MexSet,
}

impl<R: Canonical> Exhaustive<R> {
    /// A search under `rules`, visiting at most `budget` positions.
    pub fn new(rules: R, budget: usize) -> Exhaustive<R> {
        let terminal = u32::from(rules.convention() == Convention::Misere);
        Exhaustive { rules, memo: HashMap::new(), terminal, budget }
    }

    /// The rules.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    fn frame(&self, position: &R::Position) -> Frame<R> {
        let children = self
            .rules
            .legal_moves(position)
            .map(|mv| {
                let mut child = position.clone();
                self.rules.apply(&mut child, mv);
                child
            })
            .collect();
        Frame { key: self.rules.key(position), children, next: 0, seen: MexSet::new() }
    }

    /// The value of `position` (see the type's documentation).
    ///
    /// # Errors
    /// [`TooLarge`] when the budget runs out.
    pub fn value(&mut self, position: &R::Position) -> Result<u32, TooLarge> {
        if let Some(&v) = self.memo.get(&self.rules.key(position)) {
            return Ok(v);
        }
        let mut stack = vec![self.frame(position)];
        loop {
            let depth = stack.len();
            let top = stack.last_mut().expect("not empty");
            if top.next < top.children.len() {
                let key = self.rules.key(&top.children[top.next]);
                if let Some(&v) = self.memo.get(&key) {
                    top.seen.insert(v as usize);
                    top.next += 1;
                    continue;
                }
                if self.memo.len() + depth >= self.budget {
                    return Err(TooLarge { budget: self.budget });
                }
                let child = top.children[top.next].clone();
                let frame = self.frame(&child);
                stack.push(frame);
                continue;
            }
            let done = stack.pop().expect("not empty");
            let value = if done.children.is_empty() { self.terminal } else { done.seen.mex() as u32 };
            self.memo.insert(done.key, value);
            match stack.last_mut() {
                Some(parent) => {
                    parent.seen.insert(value as usize);
                    parent.next += 1;
                }
                None => return Ok(value),
            }
        }
    }

    /// Every move from `position` to a position worth 0: the winning moves.
    ///
    /// # Errors
    /// [`TooLarge`] when the budget runs out.
    pub fn winning_moves(&mut self, position: &R::Position) -> Result<Vec<R::Move>, TooLarge> {
        let moves: Vec<R::Move> = self.rules.legal_moves(position).collect();
        let mut winning = Vec::new();
        for mv in moves {
            let mut child = position.clone();
            self.rules.apply(&mut child, mv);
            if self.value(&child)? == 0 {
                winning.push(mv);
            }
        }
        Ok(winning)
    }
}
