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

    /// Parses whitespace-separated heap sizes; see [`Heaps::parse_bytes`].
    fn from_str(text: &str) -> Result<Heaps, HeapsError> {
        Heaps::parse_bytes(text.as_bytes())
    }
}

impl Heaps {
    /// Parses heap sizes written in decimal and separated by ASCII
    /// whitespace, as `bouton analyze -` reads them. Built for tens of
    /// millions of heaps: one pass over the bytes, no allocation per number.
    ///
    /// ```
    /// use bouton_rules::{Heaps, HeapsError};
    ///
    /// let heaps = Heaps::parse_bytes(b"1 5\n4\t2\r\n")?;
    /// assert_eq!(heaps.as_slice(), &[1, 5, 4, 2]);
    /// assert_eq!(
    ///     Heaps::parse_bytes(b"3 -1 7").unwrap_err().to_string(),
    ///     "heap size \"-1\" is not a whole number from 0 to 18446744073709551615"
    /// );
    /// assert_eq!(Heaps::parse_bytes(b"  \n"), Err(HeapsError::NoHeaps));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`HeapsError::BadSize`] naming the first word that is not a number
    /// from 0 to `u64::MAX`; [`HeapsError::NoHeaps`] if there are no numbers.
    pub fn parse_bytes(bytes: &[u8]) -> Result<Heaps, HeapsError> {
        // A rough guess at the count keeps reallocation rare without a
        // second pass.
        let mut sizes = Vec::with_capacity(bytes.len() / 8 + 1);
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i].is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            let mut value: u64 = 0;
            let mut valid = true;
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                let digit = bytes[i].wrapping_sub(b'0');
                if digit > 9 {
                    valid = false;
                } else if valid {
                    match value.checked_mul(10).and_then(|v| v.checked_add(u64::from(digit))) {
                        Some(v) => value = v,
                        None => valid = false,
                    }
                }
                i += 1;
            }
            if !valid {
                let text = String::from_utf8_lossy(&bytes[start..i]).into_owned();
                return Err(HeapsError::BadSize { text });
            }
            sizes.push(value);
        }
        Heaps::new(sizes)
    }
}
