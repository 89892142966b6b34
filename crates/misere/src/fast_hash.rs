//! A fast, deterministic hasher for the engine's internal tables (the
//! multiply-rotate hash of rustc's `FxHasher`): the keys are small integers
//! and vectors of them, never chosen by an adversary, and the default
//! SipHash dominated the proof's walk.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// The hasher.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct FastHasher(u64);

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with [`FastHasher`].
pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// A `HashSet` with [`FastHasher`].
pub(crate) type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

/// A set of states of equal or varying length, stored end to end and
/// numbered in the order they were first inserted (open addressing over
/// the numbers, each slot with 32 bits of its state's hash so that most
/// probes compare no state): the proof's walk and the bases keep millions
/// of short states, and a `HashMap<Vec<u32>, u32>` spent most of its time
/// allocating and hashing.
#[derive(Debug)]
pub(crate) struct StateSet {
    words: Vec<u32>,
    starts: Vec<usize>,
    /// `hash << 32 | (number + 1)`, 0 for an empty slot.
    slots: Vec<u64>,
}

impl StateSet {
    pub(crate) fn new() -> StateSet {
        StateSet::with_capacity(0, 0)
    }

    /// Room for `states` states of `words` words in all.
    pub(crate) fn with_capacity(states: usize, words: usize) -> StateSet {
        let mut starts = Vec::with_capacity(states + 1);
        starts.push(0);
        let slots = (2 * states).next_power_of_two().max(1 << 10);
        StateSet { words: Vec::with_capacity(words), starts, slots: vec![0; slots] }
    }

    /// The number of states.
    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// State `i`.
    pub(crate) fn get(&self, i: usize) -> &[u32] {
        &self.words[self.starts[i]..self.starts[i + 1]]
    }

    fn hash(state: &[u32]) -> u32 {
        let mut h = FastHasher::default();
        h.write_usize(state.len());
        let mut pairs = state.chunks_exact(2);
        for pair in &mut pairs {
            h.add(u64::from(pair[0]) | (u64::from(pair[1]) << 32));
        }
        if let [last] = pairs.remainder() {
            h.add(u64::from(*last));
        }
        // The high bits are the best mixed.
        (h.0 >> 32) as u32
    }

    /// Inserts `state`: its number if it is new, `None` if it was there.
    pub(crate) fn insert(&mut self, state: &[u32]) -> Option<usize> {
        match self.number(state) {
            (id, true) => Some(id),
            (_, false) => None,
        }
    }

    /// The number of `state`, inserting it if it is new (then `true`).
    pub(crate) fn number(&mut self, state: &[u32]) -> (usize, bool) {
        if 2 * (self.len() + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let hash = Self::hash(state);
        let mut at = hash as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                let id = self.len();
                self.slots[at] = (u64::from(hash) << 32) | (id as u64 + 1);
                self.words.extend_from_slice(state);
                self.starts.push(self.words.len());
                return (id, true);
            }
            if (slot >> 32) as u32 == hash {
                let id = (slot & 0xffff_ffff) as usize - 1;
                if self.get(id) == state {
                    return (id, false);
                }
            }
            at = (at + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let mask = size - 1;
        let mut slots = vec![0u64; size];
        for &slot in self.slots.iter().filter(|&&s| s != 0) {
            let mut at = (slot >> 32) as usize & mask;
            while slots[at] != 0 {
                at = (at + 1) & mask;
            }
            slots[at] = slot;
        }
        self.slots = slots;
    }
}

#[cfg(test)]
mod tests {
    use super::StateSet;

    #[test]
    fn states_are_numbered_in_insertion_order() {
        let mut set = StateSet::new();
        for i in 0..5000u32 {
            assert_eq!(set.insert(&[i % 7, i, i / 3]), Some(i as usize));
        }
        for i in 0..5000u32 {
            assert_eq!(set.insert(&[i % 7, i, i / 3]), None);
            assert_eq!(set.get(i as usize), &[i % 7, i, i / 3]);
        }
        assert_eq!(set.insert(&[1]), Some(5000));
        assert_eq!(set.number(&[1]), (5000, false));
        assert_eq!(set.number(&[3, 3, 1]), (3, false));
        assert_eq!(set.len(), 5001);
    }
}
