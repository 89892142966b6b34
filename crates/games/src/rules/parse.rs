//! Reading moves: whole numbers separated by spaces, colons or commas.

/// Why a text is not a move of the rule set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// Nothing typed.
    #[error("no move given: type {shape}")]
    Empty {
        /// What a move looks like.
        shape: &'static str,
    },
    /// Too few or too many numbers.
    #[error("a move here is {shape}")]
    WrongCount {
        /// What a move looks like.
        shape: &'static str,
    },
    /// A word that is not a whole number.
    #[error("{text:?} is not a number: a move here is {shape}")]
    NotANumber {
        /// The offending word (cut short when long).
        text: String,
        /// What a move looks like.
        shape: &'static str,
    },
    /// A negative number.
    #[error("{text} is negative: moves use whole numbers from 0")]
    Negative {
        /// The offending word (cut short when long).
        text: String,
    },
    /// A number beyond 64 bits.
    #[error("{text} is too large: the largest allowed number is {max}", max = u64::MAX)]
    TooLarge {
        /// The offending word (cut short when long).
        text: String,
    },
    /// Heap, row, pair or step number 0.
    #[error("there is no {what} 0: they are numbered from 1")]
    ZeroIndex {
        /// "heap", "row", …
        what: &'static str,
    },
    /// A Nim move's own error.
    #[error(transparent)]
    Nim(#[from] bouton_rules::ParseMoveError),
}

/// The numbers in `text`: at least `min`, at most `max` of them.
pub(crate) fn numbers(text: &str, min: usize, max: usize, shape: &'static str) -> Result<Vec<u64>, MoveParseError> {
    let words: Vec<&str> =
        text.split(|c: char| c.is_whitespace() || c == ':' || c == ',').filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return Err(MoveParseError::Empty { shape });
    }
    let mut values = Vec::with_capacity(words.len());
    for word in &words {
        values.push(number(word, shape)?);
    }
    if values.len() < min || values.len() > max {
        return Err(MoveParseError::WrongCount { shape });
    }
    Ok(values)
}

fn number(word: &str, shape: &'static str) -> Result<u64, MoveParseError> {
    let digits = word.strip_prefix('+').unwrap_or(word);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return digits.parse().map_err(|_| MoveParseError::TooLarge { text: bouton_rules::excerpt(word) });
    }
    if let Some(rest) = word.strip_prefix('-')
        && !rest.is_empty()
        && rest.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(MoveParseError::Negative { text: bouton_rules::excerpt(word) });
    }
    Err(MoveParseError::NotANumber { text: bouton_rules::excerpt(word), shape })
}
