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
        if sizes.is_empty() { Err(HeapsError::NoHeaps) } else { Ok(Heaps(sizes)) }
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
    /// millions of heaps: one pass over the bytes, eight digits at a time,
    /// no allocation per number (see [`Heaps::parse_sizes_into`]).
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
        Heaps::parse_sizes_into(bytes, &mut sizes)?;
        Heaps::new(sizes)
    }

    /// Parses the heap sizes in `bytes` as [`Heaps::parse_bytes`] does, and
    /// appends them to `sizes`; no heaps at all is not an error here. The
    /// building block for parsing one large input in pieces (on several
    /// threads, or while the rest is still being read): cut it only just
    /// after an ASCII whitespace byte, so that no word is split, parse the
    /// pieces, and concatenate the sizes in order. The first error in the
    /// first piece that has one names the first bad word of the whole input.
    ///
    /// ```
    /// use bouton_rules::{Heaps, HeapsError};
    ///
    /// let mut sizes = vec![3];
    /// Heaps::parse_sizes_into(b"5 7\n", &mut sizes)?;
    /// Heaps::parse_sizes_into(b" \t", &mut sizes)?;
    /// assert_eq!(sizes, [3, 5, 7]);
    /// assert_eq!(
    ///     Heaps::parse_sizes_into(b"1 99999999999999999999 x", &mut sizes),
    ///     Err(HeapsError::BadSize { text: "99999999999999999999".into() })
    /// );
    /// # Ok::<(), HeapsError>(())
    /// ```
    ///
    /// # Errors
    /// [`HeapsError::BadSize`] naming the first word in `bytes` that is not
    /// a number from 0 to `u64::MAX`. The sizes before it may have been
    /// appended to `sizes`.
    pub fn parse_sizes_into(bytes: &[u8], sizes: &mut Vec<u64>) -> Result<(), HeapsError> {
        let mut i = 0;
        loop {
            while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            if i >= bytes.len() {
                return Ok(());
            }
            // A word starts at `i`. Read it eight bytes at a time: blocks of
            // eight digits, then one whose leading digits end the number and
            // whose next byte must end the word.
            let start = i;
            let block = block_at(bytes, i);
            let others = non_digits(block);
            let (value, end) = if others != 0 {
                // Fewer than eight digits: no overflow possible.
                let digits = others.trailing_zeros() / 8;
                i += digits as usize;
                (leading_digits_value(block, digits), block >> (8 * digits))
            } else {
                // Eight digits or more. The arithmetic is done in 128 bits so
                // that overflow is noted rather than checked at every digit;
                // leading zeros need no special case. The next block's place
                // depends only on whether this one is all digits (a branch the
                // processor predicts well), not on how many digits it has, so
                // the processor can run ahead to the next blocks.
                let mut value = digits_value(block);
                let mut overflow = false;
                i += 8;
                loop {
                    let block = block_at(bytes, i);
                    let others = non_digits(block);
                    if others == 0 {
                        let wide = u128::from(value) * 100_000_000 + u128::from(digits_value(block));
                        overflow |= wide > u128::from(u64::MAX);
                        value = wide as u64;
                        i += 8;
                        continue;
                    }
                    let digits = others.trailing_zeros() / 8;
                    let wide = u128::from(value) * u128::from(POWERS_OF_TEN[digits as usize])
                        + u128::from(leading_digits_value(block, digits));
                    overflow |= wide > u128::from(u64::MAX);
                    i += digits as usize;
                    if overflow {
                        return Err(bad_word(bytes, start));
                    }
                    break (wide as u64, block >> (8 * digits));
                }
            };
            // The byte after the digits (a padding space past the end of the
            // input) must end the word.
            if !(end as u8).is_ascii_whitespace() {
                return Err(bad_word(bytes, start));
            }
            i += 1;
            sizes.push(value);
        }
    }
}

/// 10^0 to 10^7.
const POWERS_OF_TEN: [u64; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

/// The eight bytes from `i` as a little-endian `u64` (the first byte
/// lowest), padded with spaces past the end of `bytes`.
fn block_at(bytes: &[u8], i: usize) -> u64 {
    match bytes.get(i..i + 8) {
        Some(block) => u64::from_le_bytes(block.try_into().unwrap_or([0; 8])),
        None => {
            let mut padded = [b' '; 8];
            padded[..bytes.len() - i].copy_from_slice(&bytes[i..]);
            u64::from_le_bytes(padded)
        }
    }
}

/// Every byte of a `u64` set to `byte`.
const fn bytes_of(byte: u8) -> u64 {
    u64::from_ne_bytes([byte; 8])
}

/// The eight bytes read as a little-endian `u64` (the first byte lowest),
/// with the top bit of each byte that is not an ASCII digit set, and every
/// other bit clear.
fn non_digits(block: u64) -> u64 {
    // Digits become 0 to 9; a byte is a digit when that is below 10. Adding
    // 0x76 to the low seven bits sets the top bit from 10 up without a carry
    // into the next byte; bytes with their own top bit set are never digits.
    let offset = block ^ bytes_of(b'0');
    (((offset & bytes_of(0x7f)) + bytes_of(0x76)) | offset) & bytes_of(0x80)
}

/// The value of eight ASCII digits read as a little-endian `u64`, the first
/// (lowest) byte the most significant digit: neighbouring digits, then
/// pairs, then quads combined with one multiplication each.
fn digits_value(block: u64) -> u64 {
    let digits = block & bytes_of(0x0f);
    let pairs = (digits.wrapping_mul(10 << 8 | 1) >> 8) & 0x00ff_00ff_00ff_00ff;
    let quads = (pairs.wrapping_mul(100 << 16 | 1) >> 16) & 0x0000_ffff_0000_ffff;
    quads.wrapping_mul(10_000 << 32 | 1) >> 32
}

/// The value of the first `digits` (0 to 7) bytes of `block`, which are
/// ASCII digits, the first one the most significant.
fn leading_digits_value(block: u64, digits: u32) -> u64 {
    // Move the digits to the top and fill the bytes below them with '0's,
    // making an eight-digit number with leading zeros. (Two shifts, as one
    // by 64 bits, for no digits, would overflow.)
    let digits_on_top = block << 8 << (56 - 8 * digits);
    digits_value(digits_on_top | bytes_of(b'0') >> (8 * digits))
}

/// The error naming the word that starts at `start`.
#[cold]
fn bad_word(bytes: &[u8], start: usize) -> HeapsError {
    let end = bytes[start..].iter().position(u8::is_ascii_whitespace).map_or(bytes.len(), |n| start + n);
    HeapsError::BadSize { text: String::from_utf8_lossy(&bytes[start..end]).into_owned() }
}
