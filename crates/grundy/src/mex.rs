/// A set of small non-negative integers kept as a bitset, built to answer
/// one question fast: the **mex**, the least integer not in the set.
///
/// The Grundy value of a position is the mex of its options' values, so this
/// is the inner loop of every Grundy computation: inserting is one OR into a
/// word, and the mex is found a word at a time.
///
/// ```
/// use bouton_grundy::MexSet;
///
/// let mut set = MexSet::new();
/// for v in [0, 1, 2, 4, 200] {
///     set.insert(v);
/// }
/// assert_eq!(set.mex(), 3);
/// assert!(set.contains(200));
/// set.clear();
/// assert_eq!(set.mex(), 0);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MexSet {
    words: Vec<u64>,
}

impl MexSet {
    /// An empty set.
    pub fn new() -> MexSet {
        MexSet { words: Vec::new() }
    }

    /// An empty set with room for values below `values` without growing.
    pub fn with_capacity(values: usize) -> MexSet {
        MexSet { words: vec![0; values.div_ceil(64)] }
    }

    /// Empties the set, keeping its memory.
    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    /// Adds `value`.
    #[inline]
    pub fn insert(&mut self, value: usize) {
        let word = value / 64;
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << (value % 64);
    }

    /// Whether `value` is in the set.
    #[inline]
    pub fn contains(&self, value: usize) -> bool {
        self.words.get(value / 64).is_some_and(|w| (w >> (value % 64)) & 1 == 1)
    }

    /// Adds every value of `other`.
    pub fn union_with(&mut self, other: &MexSet) {
        if other.words.len() > self.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w |= o;
        }
    }

    /// The least non-negative integer not in the set.
    pub fn mex(&self) -> usize {
        for (i, &w) in self.words.iter().enumerate() {
            if w != u64::MAX {
                return i * 64 + w.trailing_ones() as usize;
            }
        }
        self.words.len() * 64
    }
}
