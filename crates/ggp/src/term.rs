//! Ground terms as the outside world sees them: moves, roles and state facts.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use crate::sexp::{Sexp, SyntaxError};

/// A ground GDL term: a constant such as `noop`, or a function term such as
/// `(reduce a 0)`.
///
/// Equality, hashing and ordering ignore ASCII case, as game managers do
/// (`(REDUCE A 0)` is the same move as `(reduce a 0)`); printing keeps the
/// spelling.
///
/// ```
/// use bouton_ggp::Term;
///
/// let mv: Term = "( REDUCE D 0 )".parse()?;
/// assert_eq!(mv, "(reduce d 0)".parse()?);
/// assert_eq!(mv.to_string(), "(REDUCE D 0)");
/// # Ok::<(), bouton_ggp::TermError>(())
/// ```
#[derive(Debug, Clone)]
pub enum Term {
    /// A constant.
    Symbol(String),
    /// A function symbol applied to arguments. `(f)`, with no arguments, is a
    /// different term from the constant `f`.
    Compound(String, Vec<Term>),
}

/// Why a text is not a ground term.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TermError {
    /// The text is not one s-expression.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// A list that does not start with a function symbol.
    #[error("{0} is not a term: a list must start with a symbol")]
    NoFunctor(String),
    /// A variable where a ground term was expected.
    #[error("{0} is a variable, not a ground term")]
    Variable(String),
}

impl Term {
    /// The term an s-expression denotes.
    ///
    /// # Errors
    ///
    /// [`TermError::NoFunctor`] for a list that does not start with an atom,
    /// [`TermError::Variable`] for a `?variable`.
    pub fn from_sexp(sexp: &Sexp) -> Result<Term, TermError> {
        match sexp {
            Sexp::Atom(a) if a.starts_with('?') => Err(TermError::Variable(a.clone())),
            Sexp::Atom(a) => Ok(Term::Symbol(a.clone())),
            Sexp::List(items) => match items.split_first() {
                Some((Sexp::Atom(head), args)) if !head.starts_with('?') => {
                    Ok(Term::Compound(head.clone(), args.iter().map(Term::from_sexp).collect::<Result<_, _>>()?))
                }
                _ => Err(TermError::NoFunctor(sexp.to_string())),
            },
        }
    }

    /// The function symbol or constant.
    pub fn name(&self) -> &str {
        match self {
            Term::Symbol(s) | Term::Compound(s, _) => s,
        }
    }

    /// The arguments (none for a constant).
    pub fn args(&self) -> &[Term] {
        match self {
            Term::Symbol(_) => &[],
            Term::Compound(_, args) => args,
        }
    }

    fn kind(&self) -> u8 {
        match self {
            Term::Symbol(_) => 0,
            Term::Compound(..) => 1,
        }
    }
}

impl std::str::FromStr for Term {
    type Err = TermError;

    fn from_str(s: &str) -> Result<Term, TermError> {
        Term::from_sexp(&Sexp::parse_one(s)?)
    }
}

impl PartialEq for Term {
    fn eq(&self, other: &Term) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Term {}

impl Hash for Term {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.kind().hash(state);
        for b in self.name().bytes() {
            state.write_u8(b.to_ascii_lowercase());
        }
        state.write_u8(0xff);
        self.args().len().hash(state);
        for arg in self.args() {
            arg.hash(state);
        }
    }
}

/// Orders names naturally: numbers by value first (so that `2` comes before
/// `10`), then by their text ignoring case.
pub(crate) fn compare_names(a: &str, b: &str) -> Ordering {
    let number = |s: &str| {
        if !s.is_empty() && s.len() <= 18 && s.bytes().all(|c| c.is_ascii_digit()) {
            s.parse::<u64>().ok()
        } else {
            None
        }
    };
    let (x, y) = (number(a), number(b));
    let by_value = match (x, y) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    by_value.then_with(|| a.bytes().map(|c| c.to_ascii_lowercase()).cmp(b.bytes().map(|c| c.to_ascii_lowercase())))
}

impl Ord for Term {
    fn cmp(&self, other: &Term) -> Ordering {
        self.kind()
            .cmp(&other.kind())
            .then_with(|| compare_names(self.name(), other.name()))
            .then_with(|| self.args().cmp(other.args()))
    }
}

impl PartialOrd for Term {
    fn partial_cmp(&self, other: &Term) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Symbol(s) => f.write_str(s),
            Term::Compound(s, args) => {
                write!(f, "({s}")?;
                for arg in args {
                    write!(f, " {arg}")?;
                }
                f.write_str(")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn case_is_ignored_but_shape_is_not() {
        let a: Term = "(Mark 1 2)".parse().unwrap();
        let b: Term = "(mark 1 2)".parse().unwrap();
        assert_eq!(a, b);
        assert_eq!([a.clone()].into_iter().collect::<HashSet<_>>(), [b].into_iter().collect());
        assert_ne!("open2".parse::<Term>().unwrap(), "(open2)".parse::<Term>().unwrap());
        assert_eq!(a.to_string(), "(Mark 1 2)");
    }

    #[test]
    fn numbers_sort_by_value() {
        let mut moves: Vec<Term> =
            ["(r a 10)", "(r a 2)", "(r B 1)", "(r a x)", "noop"].iter().map(|m| m.parse().unwrap()).collect();
        moves.sort();
        let printed: Vec<String> = moves.iter().map(ToString::to_string).collect();
        assert_eq!(printed, ["noop", "(r a 2)", "(r a 10)", "(r a x)", "(r B 1)"]);
    }

    #[test]
    fn variables_and_headless_lists_are_rejected() {
        assert!(matches!("?x".parse::<Term>(), Err(TermError::Variable(_))));
        assert!(matches!("((a) b)".parse::<Term>(), Err(TermError::NoFunctor(_))));
        assert!(matches!("()".parse::<Term>(), Err(TermError::NoFunctor(_))));
    }
}
