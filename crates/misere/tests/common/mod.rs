//! Shared helpers: an exhaustive misère search, independent of the engine,
//! and the reference data folder.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

use bouton_misere::{HeapGame, HeapOption};

/// Plain exhaustive misère search over positions written as sorted
/// multisets of non-empty heaps, memoised: whether the player to move loses.
pub struct Search {
    game: HeapGame,
    memo: HashMap<Vec<u64>, bool>,
}

impl Search {
    /// A search of `game`.
    pub fn new(game: &HeapGame) -> Search {
        Search { game: game.clone(), memo: HashMap::new() }
    }

    /// The position after `option` in the heap at `index`, sorted.
    pub fn after(position: &[u64], index: usize, option: HeapOption) -> Vec<u64> {
        let mut next: Vec<u64> = position.to_vec();
        next.remove(index);
        next.extend([option.left, option.right].into_iter().filter(|&h| h > 0));
        next.sort_unstable();
        next
    }

    /// Whether the player to move loses `position` (any order; zeros ignored):
    /// misère, so a position without a move is won by the player to move.
    pub fn loses(&mut self, position: &[u64]) -> bool {
        let mut key: Vec<u64> = position.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let mut has_move = false;
        let mut all_win = true;
        for i in 0..key.len() {
            if i > 0 && key[i] == key[i - 1] {
                continue;
            }
            let options: Vec<HeapOption> = self.game.options(key[i]).collect();
            for option in options {
                has_move = true;
                if self.loses(&Search::after(&key, i, option)) {
                    all_win = false;
                    break;
                }
            }
            if !all_win {
                break;
            }
        }
        let lost = has_move && all_win;
        self.memo.insert(key, lost);
        lost
    }

    /// Every winning move of `position` (in the heap at each index, as the
    /// position is given), by index then option.
    pub fn winning_moves(&mut self, position: &[u64]) -> Vec<(usize, HeapOption)> {
        let mut moves = Vec::new();
        for (i, &h) in position.iter().enumerate() {
            let options: Vec<HeapOption> = self.game.options(h).collect();
            for option in options {
                let mut next: Vec<u64> = position.to_vec();
                next.remove(i);
                next.extend([option.left, option.right]);
                if self.loses(&next) {
                    moves.push((i, option));
                }
            }
        }
        moves
    }
}

/// Every multiset of 1 to `most` heaps of sizes 1 to `largest`, sorted.
pub fn positions(largest: u64, most: usize) -> Vec<Vec<u64>> {
    let mut all = Vec::new();
    let mut layer: Vec<Vec<u64>> = vec![Vec::new()];
    for _ in 0..most {
        let mut next = Vec::new();
        for p in &layer {
            let from = p.last().copied().unwrap_or(1);
            for h in from..=largest {
                let mut q = p.clone();
                q.push(h);
                next.push(q);
            }
        }
        all.extend(next.iter().cloned());
        layer = next;
    }
    all
}

/// The reference data folder (`../shared/cgt-data`); fails when it is
/// missing and `CI` is set, else `None` with a note.
pub fn data_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/cgt-data");
    if dir.join("misere-nim-values.txt").is_file() {
        return Some(dir);
    }
    assert!(std::env::var_os("CI").is_none(), "the reference data is missing at {} (needed in CI)", dir.display());
    eprintln!("note: skipping: the reference data is not at {}", dir.display());
    None
}
