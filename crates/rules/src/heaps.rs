use std::fmt;

/// A Nim position: one or more heaps of tokens, each of any size up to
/// `u64::MAX`. Heaps keep their order (players refer to them by number), and
/// empty heaps stay in place so that numbering never shifts during a game.
///
/// ```
/// use bouton_rules::{Heaps, HeapsError};
///
/// let heaps: Heaps = "3 5 7".parse()?;
/// assert_eq!(heaps.as_slice(), &[3, 5, 7]);
/// assert_eq!(heaps.total(), 15);
/// assert_eq!(heaps.to_string(), "3 5 7");
/// assert_eq!(Heaps::new(vec![]), Err(HeapsError::NoHeaps));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "Vec<u64>", into = "Vec<u64>"))]
pub struct Heaps(Vec<u64>);

/// Why a list of heap sizes is not a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeapsError {
    /// The list was empty.
    #[error("no heaps given: a position needs at least one heap")]
    NoHeaps,
    /// A size was not a whole number from 0 to 2^64 - 1.
    #[error("heap size {text:?} is not a whole number from 0 to {max}", max = u64::MAX)]
    BadSize {
        /// The offending text.
        text: String,
    },
}

impl Heaps {
    /// A position with these heap sizes.
    ///
    /// # Errors
    /// [`HeapsError::NoHeaps`] when `sizes` is empty.
    pub fn new(sizes: Vec<u64>) -> Result<Heaps, HeapsError> {
        if sizes.is_empty() {
            Err(HeapsError::NoHeaps)
        } else {
            Ok(Heaps(sizes))
        }
    }

    /// The heap sizes, first heap first.
    pub fn as_slice(&self) -> &[u64] {
        &self.0
    }

    /// The number of heaps, empty ones included.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Always false: a position has at least one heap. Present for API symmetry.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The size of heap `index` (counted from 0), if there is such a heap.
    pub fn get(&self, index: usize) -> Option<u64> {
        self.0.get(index).copied()
    }

    /// The number of tokens on the board. A `u128`, as the sum of many `u64`
    /// heaps may not fit in a `u64`.
    pub fn total(&self) -> u128 {
        self.0.iter().map(|&h| u128::from(h)).sum()
    }

    /// Whether every heap is empty.
    pub fn all_empty(&self) -> bool {
        self.0.iter().all(|&h| h == 0)
    }

    /// The sizes as a vector.
    pub fn into_vec(self) -> Vec<u64> {
        self.0
    }

    pub(crate) fn heap_mut(&mut self, index: usize) -> Option<&mut u64> {
        self.0.get_mut(index)
    }
}

impl TryFrom<Vec<u64>> for Heaps {
    type Error = HeapsError;

    fn try_from(sizes: Vec<u64>) -> Result<Heaps, HeapsError> {
        Heaps::new(sizes)
    }
}

impl From<Heaps> for Vec<u64> {
    fn from(heaps: Heaps) -> Vec<u64> {
        heaps.0
    }
}

impl fmt::Display for Heaps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, h) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{h}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Heaps {
    type Err = HeapsError;

    /// Parses whitespace-separated heap sizes.
    fn from_str(text: &str) -> Result<Heaps, HeapsError> {
        let sizes = text
            .split_whitespace()
            .map(|word| word.parse::<u64>().map_err(|_| HeapsError::BadSize { text: word.to_owned() }))
            .collect::<Result<Vec<_>, _>>()?;
        Heaps::new(sizes)
    }
}
