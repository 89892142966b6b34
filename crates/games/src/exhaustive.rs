use std::collections::HashMap;
use std::hash::Hash;

use bouton_rules::{Convention, Heaps, Nim, Rules};

use crate::{
    Bar, Budget, Chomp, FibPosition, FibonacciNim, HeapRules, Meter, MexSet, MooreNim, OverBudget, Pairs, Staircase,
    Stairs, Wythoff,
};

/// Bytes a memo entry costs beyond its key's own: the table's slot and
/// control bytes, the value.
const ENTRY_OVERHEAD: u64 = 24;

/// Rule sets whose positions have a canonical form: positions with equal
/// keys have the same game tree (a row of heaps is a multiset, so its key is
/// the sorted non-empty heaps).
pub trait Canonical: Rules {
    /// The canonical form.
    type Key: Hash + Eq + Clone;

    /// The canonical form of `position`.
    fn key(&self, position: &Self::Position) -> Self::Key;

    /// The bytes `key` occupies, its heap allocation included: what a
    /// search charges to its budget for remembering it.
    fn key_bytes(&self, key: &Self::Key) -> u64 {
        let _ = key;
        std::mem::size_of::<Self::Key>() as u64
    }
}

/// The bytes of a vector key: its header and its elements.
fn vec_bytes<T>(key: &[T]) -> u64 {
    (std::mem::size_of::<Vec<T>>() + std::mem::size_of_val(key)) as u64
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

    fn key_bytes(&self, key: &Vec<u64>) -> u64 {
        vec_bytes(key)
    }
}

impl Canonical for HeapRules {
    type Key = Vec<u64>;
    fn key(&self, heaps: &Heaps) -> Vec<u64> {
        sorted_non_empty(heaps)
    }

    fn key_bytes(&self, key: &Vec<u64>) -> u64 {
        vec_bytes(key)
    }
}

impl Canonical for MooreNim {
    type Key = Vec<u64>;
    fn key(&self, heaps: &Heaps) -> Vec<u64> {
        sorted_non_empty(heaps)
    }

    fn key_bytes(&self, key: &Vec<u64>) -> u64 {
        vec_bytes(key)
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

    fn key_bytes(&self, key: &Vec<(u64, u64)>) -> u64 {
        vec_bytes(key)
    }
}

impl Canonical for Staircase {
    type Key = Vec<u64>;
    fn key(&self, stairs: &Stairs) -> Vec<u64> {
        let coins = stairs.as_slice();
        let used = coins.iter().rposition(|&c| c > 0).map_or(0, |i| i + 1);
        coins[..used].to_vec()
    }

    fn key_bytes(&self, key: &Vec<u64>) -> u64 {
        vec_bytes(key)
    }
}

impl Canonical for Chomp {
    type Key = Vec<u64>;
    fn key(&self, bar: &Bar) -> Vec<u64> {
        bar.trimmed().to_vec()
    }

    fn key_bytes(&self, key: &Vec<u64>) -> u64 {
        vec_bytes(key)
    }
}

impl Canonical for FibonacciNim {
    type Key = (u64, u64);
    fn key(&self, pos: &FibPosition) -> (u64, u64) {
        (pos.heap(), pos.max_take())
    }
}

/// An exhaustive game-tree search with a memo, for any rule set with
/// canonical positions and a finite game tree. It computes, for each
/// position, the mex of its options' values with a terminal position worth
/// 0 in normal play and 1 in misère play: in normal play that is the Grundy
/// value; in misère play it is the misère nim-value g⁻ (the first component
/// of the genus). Either way the player to move wins exactly when it is not
/// 0, and a winning move is one to a position worth 0.
///
/// The search runs under a [`Budget`]: every move generated and every
/// position looked up is an operation, and the memo and the path being
/// searched (one position and its list of moves per level, never the
/// positions of all children) are charged in bytes. One account serves every
/// call on the same search, so [`Exhaustive::value`] followed by
/// [`Exhaustive::winning_moves`] cannot do more work than the budget allows.
///
/// ```
/// use bouton_games::{Budget, Exhaustive, HeapGame, HeapRules, OverBudget};
/// use bouton_rules::{Convention, Heaps};
///
/// let kayles = HeapRules::new(HeapGame::kayles(), Convention::Misere);
/// let mut search = Exhaustive::new(kayles.clone(), Budget::new(1_000_000, 64 << 20));
/// // Misère Kayles, one row: g⁻ = 1, 0, 2, 3, 0, 1, …
/// let values: Vec<u32> =
///     (0..6).map(|n| search.value(&Heaps::new(vec![n]).unwrap())).collect::<Result<_, _>>()?;
/// assert_eq!(values, vec![1, 0, 2, 3, 0, 1]);
///
/// // A position far too large for a small budget stops at once.
/// let mut small = Exhaustive::new(kayles, Budget::new(10_000, 64 << 20));
/// let large = Heaps::new(vec![1000, 2345, 77777]).unwrap();
/// assert!(matches!(small.value(&large), Err(OverBudget::Operations { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Exhaustive<R: Canonical> {
    rules: R,
    memo: HashMap<R::Key, u32>,
    terminal: u32,
    meter: Meter,
}

/// One level of the path being searched: the position, its moves, the next
/// one to try and the values seen so far.
struct Frame<R: Canonical> {
    key: R::Key,
    position: R::Position,
    moves: Vec<R::Move>,
    next: usize,
    seen: MexSet,
    bytes: u64,
}

impl<R: Canonical> Exhaustive<R> {
    /// A search under `rules` within `budget`.
    pub fn new(rules: R, budget: Budget) -> Exhaustive<R> {
        let terminal = u32::from(rules.convention() == Convention::Misere);
        Exhaustive { rules, memo: HashMap::new(), terminal, meter: budget.meter() }
    }

    /// The rules.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The account so far: operations left, bytes held.
    pub fn meter(&self) -> &Meter {
        &self.meter
    }

    /// The legal moves of `position`, each one an operation.
    fn moves(&mut self, position: &R::Position) -> Result<Vec<R::Move>, OverBudget> {
        let mut moves = Vec::new();
        for mv in self.rules.legal_moves(position) {
            self.meter.spend(1)?;
            moves.push(mv);
        }
        Ok(moves)
    }

    fn frame(&mut self, key: R::Key, position: R::Position) -> Result<Frame<R>, OverBudget> {
        let moves = self.moves(&position)?;
        let bytes = 2 * self.rules.key_bytes(&key)
            + (moves.capacity() * std::mem::size_of::<R::Move>()) as u64
            + std::mem::size_of::<Frame<R>>() as u64;
        self.meter.hold(bytes)?;
        Ok(Frame { key, position, moves, next: 0, seen: MexSet::new(), bytes })
    }

    fn remember(&mut self, key: R::Key, value: u32) -> Result<(), OverBudget> {
        self.meter.hold(self.rules.key_bytes(&key) + ENTRY_OVERHEAD)?;
        self.memo.insert(key, value);
        Ok(())
    }

    /// The value of `position` (see the type's documentation).
    ///
    /// # Errors
    /// [`OverBudget`] when the budget runs out (or the search is cancelled);
    /// the values found so far are kept, and the search can go on under the
    /// same account no further.
    pub fn value(&mut self, position: &R::Position) -> Result<u32, OverBudget> {
        let key = self.rules.key(position);
        if let Some(&v) = self.memo.get(&key) {
            return Ok(v);
        }
        let root = self.frame(key, position.clone())?;
        let mut stack = vec![root];
        let result = self.descend(&mut stack);
        for frame in &stack {
            self.meter.release(frame.bytes);
        }
        result
    }

    fn descend(&mut self, stack: &mut Vec<Frame<R>>) -> Result<u32, OverBudget> {
        loop {
            let top = stack.last_mut().expect("not empty");
            if let Some(&mv) = top.moves.get(top.next) {
                let mut child = top.position.clone();
                self.rules.apply(&mut child, mv);
                let key = self.rules.key(&child);
                self.meter.spend(1)?;
                if let Some(&v) = self.memo.get(&key) {
                    let top = stack.last_mut().expect("not empty");
                    top.seen.insert(v as usize);
                    top.next += 1;
                    continue;
                }
                let frame = self.frame(key, child)?;
                stack.push(frame);
                continue;
            }
            let done = stack.pop().expect("not empty");
            self.meter.release(done.bytes);
            let value = if done.moves.is_empty() { self.terminal } else { done.seen.mex() as u32 };
            self.remember(done.key, value)?;
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
    /// [`OverBudget`] when the budget runs out.
    pub fn winning_moves(&mut self, position: &R::Position) -> Result<Vec<R::Move>, OverBudget> {
        let moves = self.moves(position)?;
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
