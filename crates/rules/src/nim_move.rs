use std::fmt;
use std::str::FromStr;

/// A Nim move: take `take` tokens from the heap at `heap` (counted from 0).
///
/// Players count heaps from 1, so the text form is 1-based: `3 2` or `3:2`
/// means "take 2 from heap 3".
///
/// ```
/// use bouton_rules::NimMove;
///
/// let mv: NimMove = "3:2".parse()?;
/// assert_eq!(mv, NimMove::new(2, 2));
/// assert_eq!(mv.heap_number(), 3);
/// assert_eq!(mv.to_string(), "3:2");
/// assert_eq!("3 2".parse::<NimMove>()?, mv);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub struct NimMove {
    /// The heap, counted from 0.
    pub heap: usize,
    /// How many tokens to take.
    pub take: u64,
}

impl NimMove {
    /// Take `take` tokens from heap `heap` (counted from 0).
    pub fn new(heap: usize, take: u64) -> NimMove {
        NimMove { heap, take }
    }

    /// The heap as players number it, from 1 (saturated at `usize::MAX`, as
    /// in [`IllegalNimMove::NoSuchHeap`](crate::IllegalNimMove::NoSuchHeap)).
    pub fn heap_number(&self) -> usize {
        self.heap.saturating_add(1)
    }
}

impl fmt::Display for NimMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Widened so that heap index `usize::MAX` prints its true number.
        write!(f, "{}:{}", self.heap as u128 + 1, self.take)
    }
}

/// Why a text is not a move of the form `HEAP AMOUNT` or `HEAP:AMOUNT`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// Nothing was typed.
    #[error("no move given: type a heap number and an amount, like `3 2`")]
    Empty,
    /// Only one number was given.
    #[error("only one number given: type a heap number and an amount, like `3 2`")]
    MissingAmount,
    /// More than two numbers were given.
    #[error("too many numbers: a move is a heap number and an amount, like `3 2`")]
    TooManyNumbers,
    /// A word was not a whole number.
    #[error("{text:?} is not a number: a move is a heap number and an amount, like `3 2`")]
    NotANumber {
        /// The offending text (cut short when long).
        text: String,
    },
    /// A number was negative.
    #[error("{text} is negative: heap numbers and amounts are positive whole numbers")]
    Negative {
        /// The offending text (cut short when long).
        text: String,
    },
    /// A number does not fit in 64 bits.
    #[error("{text} is too large: the largest allowed number is {max}", max = u64::MAX)]
    TooLarge {
        /// The offending text (cut short when long).
        text: String,
    },
    /// The heap number was 0.
    #[error("there is no heap 0: heaps are numbered from 1")]
    HeapZero,
}

fn parse_number(text: &str) -> Result<u64, ParseMoveError> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return digits.parse().map_err(|_| ParseMoveError::TooLarge { text: crate::excerpt(text) });
    }
    if let Some(rest) = text.strip_prefix('-')
        && !rest.is_empty()
        && rest.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(ParseMoveError::Negative { text: crate::excerpt(text) });
    }
    Err(ParseMoveError::NotANumber { text: crate::excerpt(text) })
}

impl FromStr for NimMove {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<NimMove, ParseMoveError> {
        let mut words = text.split(|c: char| c.is_whitespace() || c == ':').filter(|w| !w.is_empty());
        let (heap, take) = match (words.next(), words.next(), words.next()) {
            (None, _, _) => return Err(ParseMoveError::Empty),
            (Some(one), None, _) => {
                parse_number(one)?;
                return Err(ParseMoveError::MissingAmount);
            }
            (Some(heap), Some(take), None) => (parse_number(heap)?, parse_number(take)?),
            (Some(heap), Some(take), Some(_)) => {
                parse_number(heap)?;
                parse_number(take)?;
                return Err(ParseMoveError::TooManyNumbers);
            }
        };
        if heap == 0 {
            return Err(ParseMoveError::HeapZero);
        }
        // A heap number beyond usize cannot name an existing heap; saturate so
        // the rules report it as out of range.
        let index = usize::try_from(heap - 1).unwrap_or(usize::MAX);
        Ok(NimMove::new(index, take))
    }
}

impl TryFrom<String> for NimMove {
    type Error = ParseMoveError;

    fn try_from(text: String) -> Result<NimMove, ParseMoveError> {
        text.parse()
    }
}

impl From<NimMove> for String {
    fn from(mv: NimMove) -> String {
        mv.to_string()
    }
}
