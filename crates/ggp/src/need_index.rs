//! Which of many items a state needs, each needing one of some state bits
//! ([`crate::asks::state_needs`]): a state visits the needed bits it has
//! set, not every item.
//!
//! Chess's 384 discovered-check externals each need a rook, bishop or queen
//! of one colour on one square; testing each of them in every state cost
//! more than the few a state holds.

use crate::asks::StateNeed;

/// Items by the state bits they need (see the module documentation).
#[derive(Debug, Clone, Default)]
pub(crate) struct NeedIndex {
    /// One bit per item: those needed in every state (nothing the rules
    /// tell).
    always: Vec<u64>,
    /// Each state word some item needs a bit of: the word, those bits, and
    /// where the first bit's items start in [`NeedIndex::starts`].
    words: Vec<(u32, u64, u32)>,
    /// For each needed bit, in order of word and bit, where its items
    /// start in [`NeedIndex::items`], then where the last bit's end.
    starts: Vec<u32>,
    /// The items of each needed bit, one list after another.
    items: Vec<u32>,
}

impl NeedIndex {
    /// The index of `count` items each needed in every state.
    pub(crate) fn all(count: usize) -> NeedIndex {
        let mut always = vec![0u64; count.div_ceil(64)];
        for item in 0..count {
            always[item / 64] |= 1 << (item % 64);
        }
        NeedIndex { always, starts: vec![0], ..NeedIndex::default() }
    }

    /// The index of the items whose needs are `needs`, by item: one of the
    /// (word, mask) state bits set, `None` for an item needed in every
    /// state (an empty need: never needed).
    pub(crate) fn new(needs: &[Option<StateNeed>]) -> NeedIndex {
        let mut always = vec![0u64; needs.len().div_ceil(64)];
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for (item, need) in needs.iter().enumerate() {
            match need {
                None => always[item / 64] |= 1 << (item % 64),
                Some(groups) => {
                    for &(word, mask) in groups.iter() {
                        let mut bits = mask;
                        while bits != 0 {
                            pairs.push((word * 64 + bits.trailing_zeros(), item as u32));
                            bits &= bits - 1;
                        }
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        let (mut words, mut starts, mut items) = (Vec::new(), Vec::new(), Vec::with_capacity(pairs.len()));
        let mut last_bit = None;
        for (bit, item) in pairs {
            if last_bit != Some(bit) {
                let (word, mask) = (bit / 64, 1u64 << (bit % 64));
                match words.last_mut() {
                    Some((w, m, _)) if *w == word => *m |= mask,
                    _ => words.push((word, mask, starts.len() as u32)),
                }
                starts.push(items.len() as u32);
                last_bit = Some(bit);
            }
            items.push(item);
        }
        starts.push(items.len() as u32);
        NeedIndex { always, words, starts, items }
    }

    /// Calls `f` with each item the state (its words first in `state`)
    /// needs, in order; `marked` is a buffer.
    pub(crate) fn each_needed(&self, state: &[u64], marked: &mut Vec<u64>, mut f: impl FnMut(usize)) {
        marked.clear();
        marked.extend_from_slice(&self.always);
        for &(word, mask, first) in &self.words {
            let mut set = state[word as usize] & mask;
            while set != 0 {
                let bit = set.trailing_zeros();
                let at = (first + (mask & ((1u64 << bit) - 1)).count_ones()) as usize;
                for &item in &self.items[self.starts[at] as usize..self.starts[at + 1] as usize] {
                    marked[(item / 64) as usize] |= 1 << (item % 64);
                }
                set &= set - 1;
            }
        }
        for (w, &word) in marked.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                f(w * 64 + word.trailing_zeros() as usize);
                word &= word - 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// In random states, the items the index finds are those whose needs
    /// hold, tested one by one: random needs of 200 items over four state
    /// words (some in every state, some never).
    #[test]
    fn the_index_finds_the_items_whose_needs_hold() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
        let needs: Vec<Option<StateNeed>> = (0..200)
            .map(|_| match rng.random_range(0..10) {
                0 => None,
                1 => Some(Box::default()),
                _ => {
                    let groups: Vec<(u32, u64)> = (0..rng.random_range(1..3))
                        .map(|w| (w * 2 + rng.random_range(0..2), 1u64 << rng.random_range(0..64) | 1 << 5))
                        .collect();
                    Some(groups.into())
                }
            })
            .collect();
        let index = NeedIndex::new(&needs);
        let mut marked = Vec::new();
        let (mut found_in_all, mut states) = (0, 0);
        for _ in 0..300 {
            let state: Vec<u64> =
                (0..4).map(|_| rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>()).collect();
            let expected: Vec<usize> = (0..needs.len())
                .filter(|&k| match &needs[k] {
                    None => true,
                    Some(groups) => groups.iter().any(|&(w, m)| state[w as usize] & m != 0),
                })
                .collect();
            let mut found = Vec::new();
            index.each_needed(&state, &mut marked, |k| found.push(k));
            assert_eq!(found, expected);
            found_in_all += found.len();
            states += 1;
        }
        assert!(found_in_all > states * 20 && found_in_all < states * 190, "{found_in_all} in {states} states");
        let mut all = Vec::new();
        NeedIndex::all(70).each_needed(&[0; 4], &mut marked, |k| all.push(k));
        assert_eq!(all, (0..70).collect::<Vec<_>>());
    }
}
