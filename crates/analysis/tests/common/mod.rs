//! An independent oracle for Nim: an exhaustive, memoised game-tree search.
//!
//! It knows nothing of nim-sums or of Bouton's theorem; it only knows the
//! rules (take one or more tokens from one heap) and who wins at the end:
//! in normal play the player who cannot move (every heap empty) has lost,
//! in misère play that player has won (the opponent took the last token).
//! Everything the library claims is checked against this search.

#![allow(dead_code)] // each test binary uses a different part of the oracle

use std::collections::{BTreeSet, HashMap};

use bouton_rules::{Convention, NimMove};

/// Memoised win/loss search for one convention.
pub struct Oracle {
    convention: Convention,
    /// Keyed by the non-empty heap sizes, sorted: heap order and empty heaps
    /// do not change who wins.
    memo: HashMap<Vec<u64>, bool>,
}

impl Oracle {
    pub fn new(convention: Convention) -> Oracle {
        Oracle { convention, memo: HashMap::new() }
    }

    pub fn convention(&self) -> Convention {
        self.convention
    }

    /// Whether the player to move in `heaps` wins with perfect play.
    pub fn mover_wins(&mut self, heaps: &[u64]) -> bool {
        let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        self.search(key)
    }

    fn search(&mut self, key: Vec<u64>) -> bool {
        if key.is_empty() {
            // Nobody can move: the previous player took the last token.
            return match self.convention {
                Convention::Normal => false,
                Convention::Misere => true,
            };
        }
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let mut wins = false;
        'search: for i in 0..key.len() {
            if i > 0 && key[i] == key[i - 1] {
                continue; // same size as the previous heap: same children
            }
            for left in 0..key[i] {
                let mut child = key.clone();
                if left == 0 {
                    child.remove(i);
                } else {
                    child[i] = left;
                    child.sort_unstable();
                }
                if !self.search(child) {
                    wins = true;
                    break 'search;
                }
            }
        }
        self.memo.insert(key, wins);
        wins
    }

    /// Every legal move from `heaps` that leaves the opponent lost.
    pub fn winning_moves(&mut self, heaps: &[u64]) -> BTreeSet<NimMove> {
        legal_moves(heaps).into_iter().filter(|&mv| !self.mover_wins(&after(heaps, mv))).collect()
    }

    /// How many winning replies the opponent has after `mv`.
    pub fn replies_after(&mut self, heaps: &[u64], mv: NimMove) -> usize {
        self.winning_moves(&after(heaps, mv)).len()
    }
}

/// Every legal move: each heap, each amount from 1 to its size.
pub fn legal_moves(heaps: &[u64]) -> Vec<NimMove> {
    heaps.iter().enumerate().flat_map(|(heap, &size)| (1..=size).map(move |take| NimMove::new(heap, take))).collect()
}

/// Whether `mv` is legal in `heaps`, by the rules alone.
pub fn is_legal(heaps: &[u64], mv: NimMove) -> bool {
    heaps.get(mv.heap).is_some_and(|&size| mv.take >= 1 && mv.take <= size)
}

/// The position after a legal move.
pub fn after(heaps: &[u64], mv: NimMove) -> Vec<u64> {
    assert!(is_legal(heaps, mv), "{mv:?} is not legal in {heaps:?}");
    let mut next = heaps.to_vec();
    next[mv.heap] -= mv.take;
    next
}

/// Every ordered tuple of `len` heaps with sizes `0..=max`.
pub fn all_positions(len: usize, max: u64) -> Vec<Vec<u64>> {
    let mut out = vec![Vec::new()];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                (0..=max).map(move |size| {
                    let mut next = prefix.clone();
                    next.push(size);
                    next
                })
            })
            .collect();
    }
    out
}

/// Every position of 1 to `max_len` heaps with sizes `0..=max`.
pub fn all_small_positions(max_len: usize, max: u64) -> Vec<Vec<u64>> {
    (1..=max_len).flat_map(|len| all_positions(len, max)).collect()
}
