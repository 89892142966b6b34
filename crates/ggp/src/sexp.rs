//! S-expressions, the syntax of KIF rule sheets and of GGP protocol messages.
//!
//! `;` starts a comment that runs to the end of the line; spaces, tabs, CR and
//! LF separate tokens; any other run of characters except parentheses is an
//! atom. Nesting is limited ([`MAX_DEPTH`]) so that hostile input can neither
//! overflow the stack while parsing nor while dropping the result.

use std::fmt;

/// The deepest nesting accepted. Real game descriptions nest a few levels.
pub const MAX_DEPTH: usize = 512;

/// An s-expression: an atom or a list.
///
/// ```
/// use bouton_ggp::Sexp;
///
/// let parsed = Sexp::parse_all("; a comment\r\n(role white) (init (cell 1 b))")?;
/// assert_eq!(parsed.len(), 2);
/// assert_eq!(parsed[1].to_string(), "(init (cell 1 b))");
/// # Ok::<(), bouton_ggp::SyntaxError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sexp {
    /// A symbol, number or variable, as written.
    Atom(String),
    /// A parenthesised list.
    List(Vec<Sexp>),
}

/// Why a text is not a sequence of s-expressions.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    /// A `(` that is never closed.
    #[error("line {line}, column {column}: this ( is never closed")]
    Unclosed {
        /// 1-based line of the `(`.
        line: usize,
        /// 1-based column of the `(`.
        column: usize,
    },
    /// A `)` with no `(` to close.
    #[error("line {line}, column {column}: ) without a matching (")]
    UnexpectedClose {
        /// 1-based line of the `)`.
        line: usize,
        /// 1-based column of the `)`.
        column: usize,
    },
    /// Nesting deeper than [`MAX_DEPTH`].
    #[error("line {line}: lists nested more than {MAX_DEPTH} deep")]
    TooDeep {
        /// 1-based line where the limit was passed.
        line: usize,
    },
    /// Exactly one expression was expected.
    #[error("expected exactly one expression, found {found}")]
    NotOne {
        /// How many were found.
        found: usize,
    },
}

impl Sexp {
    /// Parses every expression in `text`.
    ///
    /// # Errors
    ///
    /// A [`SyntaxError`] for unbalanced parentheses or too deep nesting.
    pub fn parse_all(text: &str) -> Result<Vec<Sexp>, SyntaxError> {
        let mut stack: Vec<(Vec<Sexp>, usize, usize)> = Vec::new();
        let mut top = Vec::new();
        let (mut line, mut column) = (1usize, 0usize);
        let mut chars = text.char_indices().peekable();
        while let Some((start, c)) = chars.next() {
            column += 1;
            match c {
                '\n' => {
                    line += 1;
                    column = 0;
                }
                ';' => {
                    while let Some(&(_, c)) = chars.peek() {
                        if c == '\n' {
                            break;
                        }
                        chars.next();
                    }
                }
                '(' => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(SyntaxError::TooDeep { line });
                    }
                    stack.push((Vec::new(), line, column));
                }
                ')' => {
                    let Some((items, _, _)) = stack.pop() else {
                        return Err(SyntaxError::UnexpectedClose { line, column });
                    };
                    let list = Sexp::List(items);
                    match stack.last_mut() {
                        Some((parent, _, _)) => parent.push(list),
                        None => top.push(list),
                    }
                }
                c if c.is_whitespace() => {}
                _ => {
                    let mut end = start + c.len_utf8();
                    while let Some(&(i, c)) = chars.peek() {
                        if c.is_whitespace() || c == '(' || c == ')' || c == ';' {
                            break;
                        }
                        end = i + c.len_utf8();
                        column += 1;
                        chars.next();
                    }
                    let atom = Sexp::Atom(text[start..end].to_string());
                    match stack.last_mut() {
                        Some((parent, _, _)) => parent.push(atom),
                        None => top.push(atom),
                    }
                }
            }
        }
        if let Some((_, line, column)) = stack.first() {
            return Err(SyntaxError::Unclosed { line: *line, column: *column });
        }
        Ok(top)
    }

    /// Parses a text holding exactly one expression.
    ///
    /// # Errors
    ///
    /// As [`Sexp::parse_all`], and [`SyntaxError::NotOne`] when the text holds
    /// no expression or several.
    pub fn parse_one(text: &str) -> Result<Sexp, SyntaxError> {
        let mut all = Sexp::parse_all(text)?;
        if all.len() != 1 {
            return Err(SyntaxError::NotOne { found: all.len() });
        }
        Ok(all.pop().expect("one element"))
    }

    /// The atom's text, if this is an atom.
    pub fn as_atom(&self) -> Option<&str> {
        match self {
            Sexp::Atom(a) => Some(a),
            Sexp::List(_) => None,
        }
    }

    /// The list's items, if this is a list.
    pub fn as_list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::Atom(_) => None,
            Sexp::List(items) => Some(items),
        }
    }

    /// Whether this is an atom equal to `word`, ignoring ASCII case.
    pub fn is_word(&self, word: &str) -> bool {
        self.as_atom().is_some_and(|a| a.eq_ignore_ascii_case(word))
    }
}

impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sexp::Atom(a) => f.write_str(a),
            Sexp::List(items) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_crlf_and_spacing() {
        let text = ";; header\r\n( role  robot )\r\n(<= terminal\r\n  (true q)) ; trailing\r\n";
        let parsed = Sexp::parse_all(text).unwrap();
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[0].to_string(), "(role robot)");
        assert_eq!(parsed[1].to_string(), "(<= terminal (true q))");
    }

    #[test]
    fn errors_point_at_the_culprit() {
        assert_eq!(Sexp::parse_all("(a\n (b c)"), Err(SyntaxError::Unclosed { line: 1, column: 1 }));
        assert_eq!(Sexp::parse_all("(a)\n  )"), Err(SyntaxError::UnexpectedClose { line: 2, column: 3 }));
        let deep = "(".repeat(MAX_DEPTH + 1);
        assert!(matches!(Sexp::parse_all(&deep), Err(SyntaxError::TooDeep { .. })));
        assert_eq!(Sexp::parse_one("a b"), Err(SyntaxError::NotOne { found: 2 }));
        assert_eq!(Sexp::parse_one(""), Err(SyntaxError::NotOne { found: 0 }));
    }

    #[test]
    fn empty_list_and_atoms() {
        assert_eq!(Sexp::parse_one("()").unwrap(), Sexp::List(vec![]));
        assert_eq!(Sexp::parse_one("?x").unwrap(), Sexp::Atom("?x".into()));
        assert!(Sexp::parse_one("NIL").unwrap().is_word("nil"));
    }
}
