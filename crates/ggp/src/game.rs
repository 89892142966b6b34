//! A game description: the rules of a GDL rule sheet, parsed but not yet
//! checked (see [`Game::validate`]) nor compiled (see
//! [`Machine`](crate::Machine)).

use std::fmt;

use crate::sexp::{Sexp, SyntaxError};
use crate::symbol::{Sym, Symbols, kw};

/// A term in a rule: a constant, a variable, or a function applied to terms.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Ast {
    /// A constant (or a proposition, in sentence position).
    Sym(Sym),
    /// A variable `?x`.
    Var(Sym),
    /// `(f t1 … tn)`; `(f)` has no arguments and differs from `f`.
    App(Sym, Vec<Ast>),
}

impl Ast {
    /// The relation or function name.
    pub(crate) fn name(&self) -> Option<Sym> {
        match self {
            Ast::Sym(s) | Ast::App(s, _) => Some(*s),
            Ast::Var(_) => None,
        }
    }

    /// The arguments (none for a constant).
    pub(crate) fn args(&self) -> &[Ast] {
        match self {
            Ast::App(_, args) => args,
            _ => &[],
        }
    }

    /// Every variable, in order of appearance (repeats included).
    pub(crate) fn variables(&self, out: &mut Vec<Sym>) {
        match self {
            Ast::Var(v) => out.push(*v),
            Ast::Sym(_) => {}
            Ast::App(_, args) => args.iter().for_each(|a| a.variables(out)),
        }
    }
}

/// A body literal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Literal {
    /// A sentence that must hold.
    Pos(Ast),
    /// `(not …)`.
    Not(Box<Literal>),
    /// `(distinct a b)`.
    Distinct(Ast, Ast),
    /// `(or …)`.
    Or(Vec<Literal>),
}

/// A rule `(<= head body…)`, or a fact (empty body, `written_as_rule` false).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rule {
    pub(crate) head: Ast,
    pub(crate) body: Vec<Literal>,
    /// `(<= head)` with no body, which the reference validator warns about.
    pub(crate) written_as_rule: bool,
    /// A bare top-level proposition such as `terminal`, also warned about.
    pub(crate) bare: bool,
}

/// Why a text is not a game description.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// Unbalanced parentheses or too deep nesting.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// A well-formed s-expression that is not a GDL sentence or rule.
    #[error("not a GDL sentence or rule: {expression} ({reason})")]
    Structure {
        /// The offending expression, printed back.
        expression: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// No rules at all.
    #[error("the description is empty")]
    Empty,
}

/// The rules of a game, parsed.
///
/// ```
/// use bouton_ggp::Game;
///
/// let game = Game::parse("(role robot) (init p) (legal robot a) (<= (next q) (true p))
///                         (<= terminal (true q)) (goal robot 100)")?;
/// assert_eq!(game.rule_count(), 6);
/// assert!(game.validate().is_valid());
/// # Ok::<(), bouton_ggp::GameError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Game {
    pub(crate) symbols: Symbols,
    pub(crate) rules: Vec<Rule>,
}

impl Game {
    /// Parses a KIF rule sheet: comments, CRLF or LF, any spacing, keywords in
    /// any case.
    ///
    /// # Errors
    ///
    /// A [`GameError`] for unbalanced parentheses or an expression that is not
    /// a sentence or rule.
    pub fn parse(text: &str) -> Result<Game, GameError> {
        Game::from_sexps(&Sexp::parse_all(text)?)
    }

    /// The game whose rules are these s-expressions (as a START message
    /// carries them).
    ///
    /// # Errors
    ///
    /// As [`Game::parse`].
    pub fn from_sexps(items: &[Sexp]) -> Result<Game, GameError> {
        if items.is_empty() {
            return Err(GameError::Empty);
        }
        let mut symbols = Symbols::default();
        let mut rules = Vec::with_capacity(items.len());
        for item in items {
            rules.push(parse_rule(item, &mut symbols)?);
        }
        Ok(Game { symbols, rules })
    }

    /// How many rules and facts the description holds.
    pub fn rule_count(&self) -> usize {
        self.rules.len()
    }

    /// The rules printed back as KIF, one per line, in the first spelling seen.
    pub fn to_kif(&self) -> String {
        let mut out = String::new();
        for rule in &self.rules {
            out.push_str(&RuleDisplay { rule, symbols: &self.symbols }.to_string());
            out.push('\n');
        }
        out
    }

    pub(crate) fn display_ast<'a>(&'a self, ast: &'a Ast) -> impl fmt::Display + 'a {
        AstDisplay { ast, symbols: &self.symbols }
    }

    pub(crate) fn display_rule<'a>(&'a self, rule: &'a Rule) -> impl fmt::Display + 'a {
        RuleDisplay { rule, symbols: &self.symbols }
    }
}

fn structure(expression: &Sexp, reason: &'static str) -> GameError {
    GameError::Structure { expression: expression.to_string(), reason }
}

fn parse_rule(item: &Sexp, symbols: &mut Symbols) -> Result<Rule, GameError> {
    if let Some([first, head, body @ ..]) = item.as_list()
        && first.as_atom().is_some_and(|a| symbols.intern(a) == kw::RULE)
    {
        let head = parse_sentence(head, symbols)?;
        let body = body.iter().map(|l| parse_literal(l, symbols)).collect::<Result<Vec<_>, _>>()?;
        let written_as_rule = body.is_empty();
        return Ok(Rule { head, body, written_as_rule, bare: false });
    }
    if item.as_list().is_some_and(|l| l.len() == 1 && l[0].is_word("<=")) {
        return Err(structure(item, "a rule needs a head"));
    }
    let head = parse_sentence(item, symbols)?;
    let bare = matches!(head, Ast::Sym(_));
    Ok(Rule { head, body: Vec::new(), written_as_rule: false, bare })
}

fn parse_sentence(item: &Sexp, symbols: &mut Symbols) -> Result<Ast, GameError> {
    let ast = parse_term(item, symbols)?;
    match &ast {
        Ast::Var(_) => Err(structure(item, "a sentence cannot be a variable")),
        Ast::Sym(s) | Ast::App(s, _) if matches!(*s, kw::NOT | kw::OR | kw::DISTINCT | kw::RULE) => {
            Err(structure(item, "a connective cannot be used as a sentence here"))
        }
        _ => Ok(ast),
    }
}

fn parse_term(item: &Sexp, symbols: &mut Symbols) -> Result<Ast, GameError> {
    match item {
        Sexp::Atom(a) => {
            let s = symbols.intern(a);
            Ok(if a.starts_with('?') { Ast::Var(s) } else { Ast::Sym(s) })
        }
        Sexp::List(items) => match items.split_first() {
            Some((Sexp::Atom(head), args)) if !head.starts_with('?') => {
                let name = symbols.intern(head);
                let args = args.iter().map(|a| parse_term(a, symbols)).collect::<Result<_, _>>()?;
                Ok(Ast::App(name, args))
            }
            Some((Sexp::Atom(_), _)) => Err(structure(item, "a variable cannot be a function or relation name")),
            Some((Sexp::List(_), _)) => Err(structure(item, "a list must start with a name")),
            None => Err(structure(item, "an empty list is not a term")),
        },
    }
}

fn parse_literal(item: &Sexp, symbols: &mut Symbols) -> Result<Literal, GameError> {
    if let Some([head, args @ ..]) = item.as_list()
        && let Some(name) = head.as_atom()
    {
        match symbols.intern(name) {
            kw::NOT => {
                let [inner] = args else { return Err(structure(item, "not takes exactly one literal")) };
                return Ok(Literal::Not(Box::new(parse_literal(inner, symbols)?)));
            }
            kw::DISTINCT => {
                let [a, b] = args else { return Err(structure(item, "distinct takes exactly two terms")) };
                return Ok(Literal::Distinct(parse_term(a, symbols)?, parse_term(b, symbols)?));
            }
            kw::OR => {
                let parts = args.iter().map(|l| parse_literal(l, symbols)).collect::<Result<_, _>>()?;
                return Ok(Literal::Or(parts));
            }
            _ => {}
        }
    }
    Ok(Literal::Pos(parse_sentence(item, symbols)?))
}

struct AstDisplay<'a> {
    ast: &'a Ast,
    symbols: &'a Symbols,
}

impl fmt::Display for AstDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ast {
            Ast::Sym(s) | Ast::Var(s) => f.write_str(self.symbols.name(*s)),
            Ast::App(s, args) => {
                write!(f, "({}", self.symbols.name(*s))?;
                for a in args {
                    write!(f, " {}", AstDisplay { ast: a, symbols: self.symbols })?;
                }
                f.write_str(")")
            }
        }
    }
}

struct LiteralDisplay<'a> {
    literal: &'a Literal,
    symbols: &'a Symbols,
}

impl fmt::Display for LiteralDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.symbols;
        match self.literal {
            Literal::Pos(a) => write!(f, "{}", AstDisplay { ast: a, symbols: s }),
            Literal::Not(l) => write!(f, "(not {})", LiteralDisplay { literal: l, symbols: s }),
            Literal::Distinct(a, b) => {
                write!(f, "(distinct {} {})", AstDisplay { ast: a, symbols: s }, AstDisplay { ast: b, symbols: s })
            }
            Literal::Or(parts) => {
                f.write_str("(or")?;
                for p in parts {
                    write!(f, " {}", LiteralDisplay { literal: p, symbols: s })?;
                }
                f.write_str(")")
            }
        }
    }
}

struct RuleDisplay<'a> {
    rule: &'a Rule,
    symbols: &'a Symbols,
}

impl fmt::Display for RuleDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = AstDisplay { ast: &self.rule.head, symbols: self.symbols };
        if self.rule.body.is_empty() && !self.rule.written_as_rule {
            return write!(f, "{head}");
        }
        write!(f, "(<= {head}")?;
        for l in &self.rule.body {
            write!(f, " {}", LiteralDisplay { literal: l, symbols: self.symbols })?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_in_any_case_and_round_trip() {
        let game = Game::parse("(ROLE p) (<= (LEGAL ?X NOOP) (ROLE ?X) (NOT (DISTINCT ?X p)) (OR (TRUE a) (TRUE b)))")
            .unwrap();
        assert_eq!(game.rules.len(), 2);
        assert_eq!(game.rules[1].head.name(), Some(kw::LEGAL));
        assert!(matches!(game.rules[1].body[1], Literal::Not(_)));
        assert!(matches!(game.rules[1].body[2], Literal::Or(_)));
        assert_eq!(
            game.to_kif(),
            "(role p)\n(<= (legal ?X NOOP) (role ?X) (not (distinct ?X p)) (or (true a) (true b)))\n"
        );
    }

    #[test]
    fn zero_argument_relation_differs_from_proposition() {
        let game = Game::parse("(<= (open2) (true x)) (<= open1 open2)").unwrap();
        assert!(matches!(game.rules[0].head, Ast::App(_, ref args) if args.is_empty()));
        assert!(matches!(game.rules[1].body[0], Literal::Pos(Ast::Sym(_))));
    }

    #[test]
    fn structural_errors() {
        for text in ["(<= ?x (a))", "(<=)", "(<= (p) (not a b))", "(<= (p) (distinct a))", "((a) b)", "(p ())", "()"] {
            assert!(matches!(Game::parse(text), Err(GameError::Structure { .. })), "{text}");
        }
        assert!(matches!(Game::parse("; nothing"), Err(GameError::Empty)));
    }
}
