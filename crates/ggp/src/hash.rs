//! A fast, non-cryptographic hasher for the solver's and the search's tables,
//! whose keys are bit-set states the game produces (never attacker-chosen in
//! a way that matters: a slow table only slows our own player down).

use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate hashing of 64-bit words (the scheme of rustc's FxHasher).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct WordHasher(u64);

const K: u64 = 0xf135_7aea_2e62_a9c5;

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        // A final mix so that the low bits, which hash tables use, depend on
        // every input bit.
        let h = self.0;
        (h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (h >> 32)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(K);
    }

    fn write_u32(&mut self, word: u32) {
        self.write_u64(u64::from(word));
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
}

/// The builder for tables keyed by states.
pub(crate) type BuildWordHasher = BuildHasherDefault<WordHasher>;

/// A hash map with [`WordHasher`].
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, BuildWordHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    fn hash_of<T: Hash>(t: &T) -> u64 {
        let mut h = WordHasher::default();
        t.hash(&mut h);
        h.finish()
    }

    #[test]
    fn different_words_hash_differently() {
        let hashes: std::collections::HashSet<u64> = (0u64..10_000).map(|i| hash_of(&[i, 0])).collect();
        assert_eq!(hashes.len(), 10_000);
        assert_ne!(hash_of(&[1u64, 2]), hash_of(&[2u64, 1]));
    }
}
