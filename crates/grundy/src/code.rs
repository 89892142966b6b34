use std::fmt;
use std::str::FromStr;

/// The most digit positions a code may have (a subtraction set's largest
/// amount, an octal code's length).
pub const MAX_DIGITS: usize = 4096;

/// A heap game given by its take-and-break code: octal games such as Kayles
/// (`0.77`), Dawson's Kayles (`0.07`) or `0.354`, Grundy's game (`4!.0`),
/// and the games whose code repeats a digit forever, such as Nim (`0.3…`) or
/// Lasker's Nim (`4.3…`).
///
/// Digit `d_k` says what a move that removes `k` tokens from one heap may
/// leave: bit 1 nothing (only when the heap had exactly `k`), bit 2 one
/// non-empty heap, bit 4 two non-empty heaps, and, in hexadecimal codes
/// (digits `8` to `F`, read by [`HeapGame::parse_hexadecimal`] and by
/// `bouton grundy`), bit 8 three non-empty heaps; the value of what a move
/// leaves is the XOR of its heaps' values. `d_0` may only have the
/// splitting bits (0, 4, 8, C: splitting a heap without removing anything).
/// A trailing `…` (or `...`) repeats the last digit for every larger `k`;
/// such a tail digit may not split.
///
/// `!` follows the digit it applies to, as in CGSuite's `TakeAndBreak`
/// ("appending ! to a digit requires that all the resulting heaps must be
/// pairwise unequal", so `4!.0` is Grundy's game and `8!.0` splits a heap
/// into three different sizes) and in Winning Ways' `4!.0`: it restricts the
/// moves of that digit alone. In `4!.04` a heap may be split into two
/// unequal heaps, or lose two tokens and be split into any two; in `0.3F!`
/// (CGSuite's example) taking two tokens may leave one heap, two unequal
/// heaps or three pairwise unequal heaps. On a digit that never leaves two
/// heaps `!` restricts nothing and is dropped (`0.3!7` is `0.37`).
///
/// ```
/// use bouton_grundy::{HeapGame, HeapOption};
///
/// let kayles: HeapGame = "0.77".parse()?;
/// assert_eq!(kayles.to_string(), "0.77");
/// assert_eq!(kayles.last_digit(), Some(2));
/// // From a row of 3 pins: knock down 1 or 2, leaving one or two rows.
/// let options: Vec<HeapOption> = kayles.options(3).collect();
/// assert_eq!(
///     options,
///     vec![HeapOption::new(1, 2, 0), HeapOption::new(1, 1, 1), HeapOption::new(2, 1, 0)]
/// );
/// let nim: HeapGame = "0.3…".parse()?;
/// assert_eq!(nim.options(2).count(), 2);
/// assert_eq!("4!.0".parse::<HeapGame>()?, HeapGame::grundys_game());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HeapGame {
    /// `digits[k]` is `d_k`; never ends in a 0 beyond `d_0` when `tail` is 0.
    digits: Vec<u8>,
    /// The digit for every `k >= digits.len()`.
    tail: u8,
    /// `unequal[k]`: the heaps `d_k`'s splits leave must be pairwise
    /// unequal (`!` after `d_k`); as long as `digits`, and only set on
    /// digits that split.
    unequal: Vec<bool>,
}

/// One move from a single heap: remove `take` tokens and leave the heaps in
/// `parts` (`(a, 0)` leaves one heap of `a`, `(0, 0)` leaves nothing,
/// `(a, b)` with both non-zero leaves two heaps, `a <= b`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct HeapOption {
    /// Tokens removed.
    pub take: u64,
    /// The first heap left (0 for none).
    pub left: u64,
    /// The second heap left (0 for none).
    pub right: u64,
}

impl HeapOption {
    /// The option removing `take` and leaving `left` and `right`.
    pub fn new(take: u64, left: u64, right: u64) -> HeapOption {
        HeapOption { take, left, right }
    }
}

/// Why a text is not a take-and-break code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// The text was empty.
    #[error("no code given: write an octal code such as 0.77 or 4!.0")]
    Empty,
    /// No `.` after the first digit.
    #[error("{code:?} is not a code: write the first digit, a point, then the digits d1 d2 … (like 0.77)")]
    MissingPoint {
        /// The text.
        code: String,
    },
    /// More than one point.
    #[error("{code:?} has more than one point: write one digit, a point, then the digits d1 d2 … (like 0.77)")]
    SeveralPoints {
        /// The text.
        code: String,
    },
    /// Nothing after the point.
    #[error("{code:?} has no digits after the point: write at least d1 (like 0.7 or 4!.0)")]
    NoDigits {
        /// The text.
        code: String,
    },
    /// More than one digit before the point.
    #[error("{code:?}: write one digit before the point (d0, 0 or 4), not {head:?}")]
    LongHead {
        /// The text.
        code: String,
        /// What was written before the point.
        head: String,
    },
    /// A character that is not an octal digit (or, for a hexadecimal code,
    /// not a hexadecimal digit).
    #[error("{code:?}: {found:?} is not an octal digit (0 to 7){}", hex_note(*found))]
    BadDigit {
        /// The text.
        code: String,
        /// The offending character.
        found: char,
    },
    /// A character that is not a hexadecimal digit, in a hexadecimal code.
    #[error("{code:?}: {found:?} is not a hexadecimal digit (0 to 9, A to F)")]
    BadHexDigit {
        /// The text.
        code: String,
        /// The offending character.
        found: char,
    },
    /// A `!` that follows no digit (or another `!`).
    #[error(
        "{code:?}: `!` makes the heaps left by the digit it follows pairwise unequal: write it once, right after a \
         digit (as in 4!.0 or 0.3F!)"
    )]
    Unequal {
        /// The text.
        code: String,
    },
    /// `d_0` allows taking nothing, so the game would never end.
    #[error(
        "{code:?}: the first digit may only be 0 or 4 (or 8 or C in a hexadecimal code): removing no tokens must \
         split the heap"
    )]
    TakeNothing {
        /// The text.
        code: String,
    },
    /// A repeated digit with a split bit.
    #[error("{code:?}: a repeated last digit may not allow splitting (only 1, 2 or 3 may repeat)")]
    SplittingTail {
        /// The text.
        code: String,
    },
    /// Too many digits.
    #[error("{code:?} has more than {MAX_DIGITS} digits")]
    TooLong {
        /// The text.
        code: String,
    },
}

impl HeapGame {
    /// A game from its digits `d_0, d_1, …` (hexadecimal digits, up to 15,
    /// allowed), a digit repeated for ever after them (0 for none), and
    /// whether every digit that splits has a `!` (its splits must leave
    /// pairwise unequal heaps); [`HeapGame::from_marked_digits`] puts `!`
    /// on chosen digits.
    ///
    /// # Errors
    /// As for parsing: `d_0` that takes nothing without splitting, a digit
    /// above 15, a tail that splits, `unequal` while no digit splits, or too
    /// many digits.
    ///
    /// ```
    /// use bouton_grundy::HeapGame;
    ///
    /// let game = HeapGame::from_digits(&[8], 0, true)?;
    /// assert_eq!(game.to_string(), "8!.0");
    /// assert!(game.leaves_three());
    /// assert_eq!(HeapGame::from_digits(&[4, 4], 0, true)?.to_string(), "4!.4!");
    /// assert!(HeapGame::from_digits(&[0, 3], 0, true).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_digits(digits: &[u8], tail: u8, unequal: bool) -> Result<HeapGame, CodeError> {
        let marks: Vec<bool> = digits.iter().map(|&d| unequal && d & 12 != 0).collect();
        if unequal && !marks.contains(&true) {
            return Err(CodeError::Unequal { code: format_code(digits, tail, &vec![true; digits.len()]) });
        }
        HeapGame::from_marked_digits(digits, tail, &marks)
    }

    /// A game from its digits `d_0, d_1, …`, a digit repeated for ever after
    /// them (0 for none), and which digits carry a `!` (`unequal[k]` for
    /// `d_k`; missing entries are false, and a `!` on a digit that never
    /// leaves two heaps restricts nothing and is dropped).
    ///
    /// # Errors
    /// As for parsing: `d_0` that takes nothing without splitting, a digit
    /// above 15, a tail that splits, or too many digits.
    ///
    /// ```
    /// use bouton_grundy::{HeapGame, HeapOption};
    ///
    /// // Split into two unequal heaps, or take 2 and split into any two.
    /// let game = HeapGame::from_marked_digits(&[4, 0, 4], 0, &[true, false, false])?;
    /// assert_eq!(game.to_string(), "4!.04");
    /// assert!(!game.allows(6, HeapOption::new(0, 3, 3)));
    /// assert!(game.allows(6, HeapOption::new(2, 2, 2)));
    /// assert_eq!(HeapGame::from_marked_digits(&[0, 3], 0, &[false, true])?.to_string(), "0.3");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_marked_digits(digits: &[u8], tail: u8, unequal: &[bool]) -> Result<HeapGame, CodeError> {
        let code = || format_code(digits, tail, unequal);
        if let Some(&bad) = digits.iter().chain([&tail]).find(|&&d| d > 15) {
            return Err(CodeError::BadDigit {
                code: code(),
                found: char::from_digit(u32::from(bad % 36), 36).unwrap_or('?'),
            });
        }
        if digits.first().is_some_and(|&d0| d0 & 3 != 0) {
            return Err(CodeError::TakeNothing { code: code() });
        }
        if tail & 12 != 0 {
            return Err(CodeError::SplittingTail { code: code() });
        }
        if digits.len() > MAX_DIGITS + 1 {
            return Err(CodeError::TooLong { code: code() });
        }
        let mut digits = digits.to_vec();
        if digits.is_empty() {
            digits.push(0);
        }
        if tail == 0 {
            while digits.len() > 1 && digits.last() == Some(&0) {
                digits.pop();
            }
        } else {
            // A tail equal to the last digits is the same game, written longer.
            while digits.len() > 1 && digits.last() == Some(&tail) {
                digits.pop();
            }
        }
        let unequal =
            digits.iter().enumerate().map(|(k, &d)| d & 12 != 0 && unequal.get(k).copied().unwrap_or(false)).collect();
        Ok(HeapGame { digits, tail, unequal })
    }

    /// Nim: take any number from one heap (`0.3…`).
    pub fn nim() -> HeapGame {
        HeapGame { digits: vec![0], tail: 3, unequal: vec![false] }
    }

    /// Kayles, `0.77`: knock down one pin or two adjacent pins from a row.
    pub fn kayles() -> HeapGame {
        HeapGame { digits: vec![0, 7, 7], tail: 0, unequal: vec![false; 3] }
    }

    /// Dawson's Kayles, `0.07`: knock down two adjacent pins.
    pub fn dawsons_kayles() -> HeapGame {
        HeapGame { digits: vec![0, 0, 7], tail: 0, unequal: vec![false; 3] }
    }

    /// Grundy's game, `4!.0`: split a heap into two unequal heaps.
    pub fn grundys_game() -> HeapGame {
        HeapGame { digits: vec![4], tail: 0, unequal: vec![true] }
    }

    /// Lasker's Nim, `4.3…`: take any number from a heap, or split it in two.
    pub fn laskers_nim() -> HeapGame {
        HeapGame { digits: vec![4], tail: 3, unequal: vec![false] }
    }

    /// The subtraction game: remove exactly one of the amounts in `set` from
    /// one heap.
    ///
    /// # Errors
    /// An amount of 0 or above [`MAX_DIGITS`], as [`CodeError::TooLong`] or
    /// [`CodeError::TakeNothing`].
    pub fn subtraction(set: &[u64]) -> Result<HeapGame, CodeError> {
        let mut digits = vec![0u8];
        for &s in set {
            let k = checked_amount(s)?;
            if digits.len() <= k {
                digits.resize(k + 1, 0);
            }
            digits[k] = 3;
        }
        HeapGame::from_digits(&digits, 0, false)
    }

    /// The "all but" subtraction game: remove any number of tokens except
    /// the amounts in `set`.
    ///
    /// # Errors
    /// As for [`HeapGame::subtraction`].
    pub fn all_but(set: &[u64]) -> Result<HeapGame, CodeError> {
        let largest = set.iter().copied().max().unwrap_or(0);
        let mut digits = vec![3u8; checked_amount(largest.max(1))? + 1];
        digits[0] = 0;
        for &s in set {
            digits[checked_amount(s)?] = 0;
        }
        HeapGame::from_digits(&digits, 3, false)
    }

    /// Nim with a take limit: remove 1 to `limit` tokens from one heap.
    ///
    /// # Errors
    /// A limit of 0 or above [`MAX_DIGITS`].
    pub fn take_limit(limit: u64) -> Result<HeapGame, CodeError> {
        let k = checked_amount(limit)?;
        let mut digits = vec![3u8; k + 1];
        digits[0] = 0;
        HeapGame::from_digits(&digits, 0, false)
    }

    /// `d_k`.
    pub fn digit(&self, k: u64) -> u8 {
        usize::try_from(k).ok().and_then(|k| self.digits.get(k).copied()).unwrap_or(self.tail)
    }

    /// The digits written out, `d_0` first (without the repeated tail).
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The digit repeated for ever after [`HeapGame::digits`] (0 if none).
    pub fn tail(&self) -> u8 {
        self.tail
    }

    /// Whether some digit's splits must leave heaps of different sizes (a
    /// `!` in the code, as in Grundy's game `4!.0`); [`HeapGame::unequal_at`]
    /// says which.
    pub fn unequal_splits(&self) -> bool {
        self.unequal.contains(&true)
    }

    /// Whether the heaps left by a move removing `k` tokens must be pairwise
    /// unequal (`!` after `d_k`).
    ///
    /// ```
    /// use bouton_grundy::HeapGame;
    ///
    /// let game = HeapGame::parse_hexadecimal("0.3F!")?;
    /// assert!(!game.unequal_at(1) && game.unequal_at(2) && !game.unequal_at(3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn unequal_at(&self, k: u64) -> bool {
        usize::try_from(k).ok().and_then(|k| self.unequal.get(k).copied()).unwrap_or(false)
    }

    /// Whether some move leaves three heaps (a hexadecimal digit 8 to F).
    /// [`HeapGame::options`] lists no such move; the engine counts them.
    pub fn leaves_three(&self) -> bool {
        self.digits.iter().any(|d| d & 8 != 0)
    }

    /// `t`, the position of the last non-zero digit, for a game with
    /// finitely many digits; `None` when a digit repeats for ever.
    pub fn last_digit(&self) -> Option<u64> {
        (self.tail == 0).then(|| self.digits.len() as u64 - 1)
    }

    /// Whether some move leaves two heaps or more.
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 12 != 0)
    }

    /// The game whose heap of n tokens is worth this game's heap of n + 1,
    /// when there is one: a finite octal code (no `!`, no repeated digit,
    /// no three-heap digit) whose `d_1` is even, so that a heap of one token
    /// has no move. Its digit `d'_r` has bits 1 and 2 when `d_r` lets a move
    /// leave one heap, all three bits when `d_(r−1)` lets a move leave two,
    /// and bit 1 when `d_(r+1)` lets a move take a whole heap. *Proof*: a
    /// heap of m ≥ 1 tokens is a heap of m − 1 in the other game, and a heap
    /// of one token (worth 0, with no move) is none: removing k to leave
    /// one heap of m − k becomes removing k to leave m − k − 1 (nothing when
    /// that is 0), a split into a and b becomes removing k + 1 to leave
    /// a − 1 and b − 1 (fewer heaps when some are 0), taking a whole heap of
    /// k becomes taking one of k − 1 (k ≥ 2, as `d_1` is even); every move of
    /// the other game arises so. So G(n) = G'(n − 1) for n ≥ 1 (CGSuite's
    /// `firstCousin`). The survey computes codes with the same cousin once.
    ///
    /// ```
    /// use bouton_grundy::{compute, ComputeOptions, HeapGame};
    ///
    /// // 0.4 (remove one token and split the rest in two) is Dawson's Kayles
    /// // shifted by one.
    /// let game: HeapGame = "0.4".parse()?;
    /// assert_eq!(game.first_cousin(), Some(HeapGame::dawsons_kayles()));
    /// let g = compute(&game, 50, ComputeOptions::default())?.to_vec()?;
    /// let d = compute(&HeapGame::dawsons_kayles(), 49, ComputeOptions::default())?.to_vec()?;
    /// assert_eq!(&g[1..], &d[..]);
    /// assert_eq!("0.77".parse::<HeapGame>()?.first_cousin(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn first_cousin(&self) -> Option<HeapGame> {
        if !self.is_finite_octal() || self.digit(1) & 1 != 0 {
            return None;
        }
        let len = self.digits.len() as u64;
        let digits: Vec<u8> = (0..=len)
            .map(|r| {
                let whole = if self.digit(r + 1) & 1 != 0 { 1 } else { 0 };
                let one = if r >= 1 && self.digit(r) & 2 != 0 { 3 } else { 0 };
                let two = if r >= 1 && self.digit(r - 1) & 4 != 0 { 7 } else { 0 };
                whole | one | two
            })
            .collect();
        HeapGame::from_digits(&digits, 0, false).ok()
    }

    /// Whether this is a true octal game with finitely many digits, the
    /// class the periodicity theorem covers (Grundy's game, with its unequal
    /// splits, is not, nor are hexadecimal codes).
    pub fn is_finite_octal(&self) -> bool {
        self.tail == 0 && !self.unequal_splits() && !self.leaves_three()
    }

    /// Every move from a heap of `n` tokens that leaves at most two heaps,
    /// by increasing `take`, then increasing `left` (the moves of a
    /// hexadecimal digit's bit 8, which leave three, are not listed). Lazy:
    /// a heap of a billion tokens in a splitting game has very many options.
    pub fn options(&self, n: u64) -> impl Iterator<Item = HeapOption> + '_ {
        // Beyond the written digits only a repeated digit allows anything.
        let top = if self.tail == 0 { n.min(self.digits.len() as u64 - 1) } else { n };
        (0..=top).flat_map(move |take| {
            let d = self.digit(take);
            let rest = n - take;
            let nothing = (d & 1 != 0 && rest == 0).then_some(HeapOption::new(take, 0, 0));
            let one = (d & 2 != 0 && rest > 0 && take > 0).then_some(HeapOption::new(take, rest, 0));
            let splits = if d & 4 != 0 && rest >= 2 {
                let last = if self.unequal_at(take) { (rest - 1) / 2 } else { rest / 2 };
                1..=last
            } else {
                #[allow(clippy::reversed_empty_ranges)]
                {
                    1..=0
                }
            };
            nothing.into_iter().chain(one).chain(splits.map(move |a| HeapOption::new(take, a, rest - a)))
        })
    }

    /// Whether `option` is a legal move from a heap of `n` tokens.
    pub fn allows(&self, n: u64, option: HeapOption) -> bool {
        let HeapOption { take, left, right } = option;
        let Some(rest) = n.checked_sub(take) else {
            return false;
        };
        let d = self.digit(take);
        match (left, right) {
            (0, 0) => d & 1 != 0 && rest == 0,
            (a, 0) => d & 2 != 0 && take > 0 && a == rest,
            (0, _) => false,
            (a, b) => d & 4 != 0 && a.checked_add(b) == Some(rest) && a <= b && !(self.unequal_at(take) && a == b),
        }
    }
}

fn checked_amount(s: u64) -> Result<usize, CodeError> {
    if s == 0 {
        return Err(CodeError::TakeNothing { code: format!("amount {s}") });
    }
    match usize::try_from(s) {
        Ok(k) if k <= MAX_DIGITS => Ok(k),
        _ => Err(CodeError::TooLong { code: format!("amount {s}") }),
    }
}

fn format_code(digits: &[u8], tail: u8, unequal: &[bool]) -> String {
    let mut text = String::new();
    let digit = |d: u8| char::from_digit(u32::from(d.min(35)), 36).unwrap_or('?').to_ascii_uppercase();
    let marked = |k: usize| unequal.get(k).copied().unwrap_or(false);
    let d0 = digits.first().copied().unwrap_or(0);
    text.push(digit(d0));
    if marked(0) {
        text.push('!');
    }
    text.push('.');
    let rest = digits.get(1..).unwrap_or(&[]);
    if rest.is_empty() && tail == 0 {
        text.push('0');
    }
    for (k, &d) in rest.iter().enumerate() {
        text.push(digit(d));
        if marked(k + 1) {
            text.push('!');
        }
    }
    if tail != 0 {
        text.push(digit(tail));
        text.push('…');
    }
    text
}

impl fmt::Display for HeapGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_code(&self.digits, self.tail, &self.unequal))
    }
}

/// What a hexadecimal digit would mean, for the message refusing it.
fn hex_note(found: char) -> &'static str {
    if found.is_ascii_hexdigit() {
        "; hexadecimal digits (a move leaving three heaps) are read by `bouton grundy`, `analyze` and play, not here"
    } else {
        ""
    }
}

impl FromStr for HeapGame {
    type Err = CodeError;

    /// Parses an octal code `d0.d1d2…`, with an optional `!` after any digit
    /// and an optional trailing `…` or `...` repeating the last digit.
    fn from_str(text: &str) -> Result<HeapGame, CodeError> {
        parse(text, 8)
    }
}

impl HeapGame {
    /// Parses a code whose digits may be hexadecimal (`0`–`9`, `A`–`F` or
    /// `a`–`f`): bit 8 of a digit lets the move leave three heaps, as in
    /// `0.F` or `4.8`.
    ///
    /// # Errors
    /// As for parsing an octal code, with hexadecimal digits allowed.
    ///
    /// ```
    /// use bouton_grundy::HeapGame;
    ///
    /// let game = HeapGame::parse_hexadecimal("0.f")?;
    /// assert_eq!(game.to_string(), "0.F");
    /// assert!(game.leaves_three());
    /// assert!("0.F".parse::<HeapGame>().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_hexadecimal(text: &str) -> Result<HeapGame, CodeError> {
        parse(text, 16)
    }
}

/// Parses a code whose digits are in `radix` (8 or 16).
fn parse(text: &str, radix: u32) -> Result<HeapGame, CodeError> {
    {
        let code = text.trim();
        if code.is_empty() {
            return Err(CodeError::Empty);
        }
        let (body, repeats) = match code.strip_suffix('…').or_else(|| code.strip_suffix("...")) {
            Some(body) => (body, true),
            None => (code, false),
        };
        let Some((head, tail_digits)) = body.split_once('.') else {
            return Err(CodeError::MissingPoint { code: code.to_owned() });
        };
        if tail_digits.contains('.') {
            return Err(CodeError::SeveralPoints { code: code.to_owned() });
        }
        if tail_digits.is_empty() {
            return Err(CodeError::NoDigits { code: code.to_owned() });
        }
        let (head, head_unequal) = match head.strip_suffix('!') {
            Some(head) => (head, true),
            None => (head, false),
        };
        let bad = |found: char| match radix {
            16 => CodeError::BadHexDigit { code: code.to_owned(), found },
            _ => CodeError::BadDigit { code: code.to_owned(), found },
        };
        if head.contains('!') || (head_unequal && head.is_empty()) {
            return Err(CodeError::Unequal { code: code.to_owned() });
        }
        let mut head_chars = head.chars();
        let d0 = match (head_chars.next(), head_chars.next()) {
            (Some(c), None) => c,
            (None, _) => {
                return Err(CodeError::MissingPoint { code: code.to_owned() });
            }
            (Some(_), Some(_)) => return Err(CodeError::LongHead { code: code.to_owned(), head: head.to_owned() }),
        };
        // A repeated digit is written after d_0 … d_k, the most that may be
        // written out: it may be one digit more.
        let most = MAX_DIGITS + 1 + usize::from(repeats);
        let mut digits = Vec::with_capacity(tail_digits.len() + 1);
        let mut unequal = Vec::with_capacity(tail_digits.len() + 1);
        for c in std::iter::once(d0).chain(tail_digits.chars()) {
            if c == '!' {
                // `!` marks the digit just read, once.
                match unequal.last_mut() {
                    Some(mark @ false) if digits.len() > 1 => *mark = true,
                    _ => return Err(CodeError::Unequal { code: code.to_owned() }),
                }
                continue;
            }
            match c.to_digit(radix) {
                Some(d) => digits.push(d as u8),
                None => return Err(bad(c)),
            }
            unequal.push(digits.len() == 1 && head_unequal);
            if digits.len() > most {
                return Err(CodeError::TooLong { code: code.to_owned() });
            }
        }
        let tail = if repeats && digits.len() > 1 { *digits.last().expect("not empty") } else { 0 };
        if tail != 0 {
            digits.pop();
            unequal.pop();
        }
        HeapGame::from_marked_digits(&digits, tail, &unequal).map_err(|e| match e {
            CodeError::BadDigit { found, .. } => CodeError::BadDigit { code: code.to_owned(), found },
            CodeError::TakeNothing { .. } => CodeError::TakeNothing { code: code.to_owned() },
            CodeError::SplittingTail { .. } => CodeError::SplittingTail { code: code.to_owned() },
            CodeError::TooLong { .. } => CodeError::TooLong { code: code.to_owned() },
            CodeError::Unequal { .. } => CodeError::Unequal { code: code.to_owned() },
            other => other,
        })
    }
}
