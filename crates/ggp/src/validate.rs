//! Static validation of a game description, following the GDL specification
//! and the verdicts of the Stanford reference validator: some defects are
//! errors (the game is not valid GDL), others only warnings (the reference
//! reasoner copes with them, and so does ours).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;

use crate::dnf::{self, Flat};
use crate::game::{Ast, Game, Literal, Rule};
use crate::symbol::{Sym, kw};

/// What kind of defect a [`Diagnostic`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// Error: a variable that no positive sentence of the body binds.
    UnsafeVariable,
    /// Error: negation inside a recursive cycle (the rules are not stratified).
    NegationInCycle,
    /// Error: a keyword relation with the wrong number of arguments.
    KeywordArity,
    /// Error: no `role`, `legal`, `goal` or `terminal` at all.
    MissingKeyword,
    /// Error: `not` around something other than a sentence (`distinct`, `or`, `not`).
    ImproperNegation,
    /// Error: a keyword where GDL forbids it (`true` in a head, `init`
    /// depending on `true`, `legal` depending on `does`, …).
    KeywordPlacement,
    /// Error: a keyword used as a function inside a term.
    KeywordAsFunction,
    /// Error: the restriction on recursion through function terms is broken.
    RecursionRestriction,
    /// Error: a body with too many disjunctions to expand.
    TooManyDisjunctions,
    /// Warning: one name used with different numbers of arguments.
    ArityMismatch,
    /// Warning: `(p)` written with parentheses and no arguments.
    ZeroArity,
    /// Warning: a rule `(<= head)` with no body.
    EmptyRule,
    /// Warning: a bare proposition at the top level.
    BareProposition,
    /// Warning: one constant written in more than one letter case. GDL
    /// managers read symbols without regard to case (the Dresden
    /// GameController, ggp-base's GameServer), and so does bouton; a
    /// case-sensitive reader would see two different symbols.
    MixedCase,
}

/// One error or warning about a game description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// What kind of defect.
    pub kind: DiagnosticKind,
    /// A sentence for people, naming the rule or symbol concerned.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The verdict on a game description: errors make it invalid GDL, warnings
/// do not.
///
/// ```
/// use bouton_ggp::{DiagnosticKind, Game};
///
/// let game = Game::parse("(role r) (<= (legal r ?m) (true (cell ?x))) (<= terminal (true done)) (goal r 100)")?;
/// let verdict = game.validate();
/// assert!(!verdict.is_valid());
/// assert_eq!(verdict.errors[0].kind, DiagnosticKind::UnsafeVariable);
/// # Ok::<(), bouton_ggp::GameError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Validation {
    /// Defects that make the description invalid.
    pub errors: Vec<Diagnostic>,
    /// Defects the reference validator only warns about.
    pub warnings: Vec<Diagnostic>,
}

impl Validation {
    /// Whether there is no error (warnings allowed).
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }

    fn error(&mut self, kind: DiagnosticKind, message: String) {
        let d = Diagnostic { kind, message };
        if !self.errors.contains(&d) {
            self.errors.push(d);
        }
    }

    fn warn(&mut self, kind: DiagnosticKind, message: String) {
        let d = Diagnostic { kind, message };
        if !self.warnings.contains(&d) {
            self.warnings.push(d);
        }
    }
}

impl Game {
    /// Checks the description against the rules of GDL.
    pub fn validate(&self) -> Validation {
        Validator { game: self, v: Validation::default() }.run()
    }
}

struct Validator<'g> {
    game: &'g Game,
    v: Validation,
}

/// The number of arguments of a sentence or function term; `None` for a
/// constant or proposition.
fn arity(ast: &Ast) -> Option<usize> {
    match ast {
        Ast::App(_, args) => Some(args.len()),
        _ => None,
    }
}

impl Validator<'_> {
    fn name(&self, s: Sym) -> &str {
        self.game.symbols.name(s)
    }

    fn rule_text(&self, rule: &Rule) -> String {
        self.game.display_rule(rule).to_string()
    }

    fn run(mut self) -> Validation {
        let game = self.game;
        for rule in &game.rules {
            self.check_shapes(rule);
            for literal in &rule.body {
                self.check_negation(rule, literal);
            }
        }
        self.check_arities();
        for (first, other) in game.symbols.mixed_case() {
            self.v.warn(
                DiagnosticKind::MixedCase,
                format!(
                    "{first} is also written {other}: read as one symbol, since letter case does not matter in GDL \
                     (a case-sensitive reader would see two)"
                ),
            );
        }
        let expanded: Vec<(&Rule, Vec<Vec<Flat>>)> = game
            .rules
            .iter()
            .filter_map(|rule| match dnf::expand(&rule.body) {
                Some(bodies) => Some((rule, bodies)),
                None => {
                    let text = self.rule_text(rule);
                    self.v.error(DiagnosticKind::TooManyDisjunctions, format!("rule {text} has too many disjunctions"));
                    None
                }
            })
            .collect();
        for (rule, bodies) in &expanded {
            for body in bodies {
                self.check_safety(rule, body);
            }
        }
        let graph = Graph::new(game);
        self.check_stratification(&graph);
        self.check_keyword_placement(&graph);
        for (rule, bodies) in &expanded {
            for body in bodies {
                self.check_recursion(rule, body, &graph);
            }
        }
        self.v
    }

    fn check_shapes(&mut self, rule: &Rule) {
        if rule.written_as_rule {
            let text = self.rule_text(rule);
            self.v.warn(DiagnosticKind::EmptyRule, format!("{text} is a rule with no body; write it as a fact"));
        }
        if rule.bare {
            let text = self.rule_text(rule);
            self.v
                .warn(DiagnosticKind::BareProposition, format!("the top-level proposition {text} may not be intended"));
        }
        let mut sentences = vec![&rule.head];
        collect_sentences(&rule.body, &mut sentences);
        for s in sentences {
            if let Ast::App(name, args) = s {
                if args.is_empty() {
                    let n = self.name(*name).to_string();
                    self.v.warn(
                        DiagnosticKind::ZeroArity,
                        format!(
                            "({n}) is a relation with no arguments; it is a different sentence from the proposition {n}"
                        ),
                    );
                }
                for a in args {
                    self.check_functions(a);
                }
            }
        }
        for literal in &rule.body {
            self.check_distinct_terms(literal);
        }
    }

    fn check_distinct_terms(&mut self, literal: &Literal) {
        match literal {
            Literal::Distinct(a, b) => {
                self.check_functions(a);
                self.check_functions(b);
            }
            Literal::Not(inner) => self.check_distinct_terms(inner),
            Literal::Or(parts) => parts.iter().for_each(|p| self.check_distinct_terms(p)),
            Literal::Pos(_) => {}
        }
    }

    fn check_functions(&mut self, term: &Ast) {
        if let Ast::App(name, args) = term {
            if kw::is_keyword(*name) {
                let n = self.name(*name).to_string();
                self.v.error(
                    DiagnosticKind::KeywordAsFunction,
                    format!("the keyword {n} is used as a function; it may only name a sentence"),
                );
            }
            if args.is_empty() {
                let n = self.name(*name).to_string();
                self.v.warn(
                    DiagnosticKind::ZeroArity,
                    format!("({n}) is a function with no arguments; it is a different term from the constant {n}"),
                );
            }
            args.iter().for_each(|a| self.check_functions(a));
        }
    }

    fn check_negation(&mut self, rule: &Rule, literal: &Literal) {
        match literal {
            Literal::Not(inner) if !matches!(**inner, Literal::Pos(_)) => {
                let text = self.rule_text(rule);
                self.v.error(
                    DiagnosticKind::ImproperNegation,
                    format!("in {text}, not must apply directly to a sentence"),
                );
            }
            Literal::Or(parts) => parts.iter().for_each(|p| self.check_negation(rule, p)),
            _ => {}
        }
    }

    fn check_arities(&mut self) {
        let game = self.game;
        let mut sentence_arities: BTreeMap<Sym, BTreeSet<Option<usize>>> = BTreeMap::new();
        let mut function_arities: BTreeMap<Sym, BTreeSet<usize>> = BTreeMap::new();
        for rule in &game.rules {
            let mut sentences = vec![&rule.head];
            collect_sentences(&rule.body, &mut sentences);
            for s in sentences {
                if let Some(name) = s.name() {
                    sentence_arities.entry(name).or_default().insert(arity(s));
                }
                for a in s.args() {
                    collect_function_arities(a, &mut function_arities);
                }
            }
        }
        // The reference counts `p` and `(p)` as the same arity, zero.
        for (name, arities) in &sentence_arities {
            let counts: BTreeSet<usize> = arities.iter().map(|a| a.unwrap_or(0)).collect();
            if counts.len() > 1 {
                let list = counts.iter().map(ToString::to_string).collect::<Vec<_>>().join(" and ");
                let n = self.name(*name).to_string();
                self.v.warn(DiagnosticKind::ArityMismatch, format!("the sentence {n} appears with arities {list}"));
            }
            let expected = match *name {
                kw::ROLE | kw::INIT | kw::TRUE | kw::NEXT | kw::BASE => Some(1),
                kw::LEGAL | kw::DOES | kw::GOAL | kw::INPUT => Some(2),
                kw::TERMINAL => Some(0),
                _ => None,
            };
            if let Some(expected) = expected
                && counts.iter().any(|&c| c != expected)
            {
                let n = self.name(*name).to_string();
                self.v.error(DiagnosticKind::KeywordArity, format!("{n} must have {expected} argument(s)"));
            }
        }
        for (name, arities) in &function_arities {
            if arities.len() > 1 {
                let list = arities.iter().map(ToString::to_string).collect::<Vec<_>>().join(" and ");
                let n = self.name(*name).to_string();
                self.v.warn(DiagnosticKind::ArityMismatch, format!("the function {n} appears with arities {list}"));
            }
        }
        for keyword in [kw::ROLE, kw::TERMINAL, kw::GOAL, kw::LEGAL] {
            if !sentence_arities.contains_key(&keyword) {
                let n = self.name(keyword).to_string();
                self.v.error(DiagnosticKind::MissingKeyword, format!("no {n} sentence in the description"));
            }
        }
    }

    fn check_safety(&mut self, rule: &Rule, body: &[Flat]) {
        let mut bound = HashSet::new();
        let mut needed = Vec::new();
        rule.head.variables(&mut needed);
        for literal in body {
            let mut vars = Vec::new();
            match literal {
                Flat::Pos(a) => {
                    a.variables(&mut vars);
                    bound.extend(vars);
                }
                Flat::Neg(a) => {
                    a.variables(&mut needed);
                }
                Flat::Distinct(a, b) | Flat::Same(a, b) => {
                    a.variables(&mut needed);
                    b.variables(&mut needed);
                }
            }
        }
        let mut unsafe_vars: Vec<&str> = Vec::new();
        for var in needed {
            let n = self.name(var);
            if !bound.contains(&var) && !unsafe_vars.contains(&n) {
                unsafe_vars.push(n);
            }
        }
        if !unsafe_vars.is_empty() {
            let text = self.rule_text(rule);
            let (s, list) = (if unsafe_vars.len() == 1 { "" } else { "s" }, unsafe_vars.join(", "));
            self.v.error(
                DiagnosticKind::UnsafeVariable,
                format!("unsafe rule {text}: variable{s} {list} not bound by a positive sentence of the body"),
            );
        }
    }

    fn check_stratification(&mut self, graph: &Graph) {
        for &(from, to) in &graph.negative {
            if graph.reaches(to, from) {
                let (a, b) = (self.name(from).to_string(), self.name(to).to_string());
                self.v.error(
                    DiagnosticKind::NegationInCycle,
                    format!("{a} depends negatively on {b}, which depends on {a}: negation in a cycle"),
                );
            }
        }
    }

    fn check_keyword_placement(&mut self, graph: &Graph) {
        let game = self.game;
        for rule in &game.rules {
            let head = rule.head.name().expect("heads are not variables");
            let text = || game.display_rule(rule).to_string();
            match head {
                kw::ROLE if !rule.body.is_empty() || !is_ground(&rule.head) => self.v.error(
                    DiagnosticKind::KeywordPlacement,
                    format!("role must be given by ground facts, not rules: {}", text()),
                ),
                kw::TRUE | kw::DOES => {
                    let n = self.name(head).to_string();
                    self.v.error(
                        DiagnosticKind::KeywordPlacement,
                        format!("{n} may not be the head of a rule: {}", text()),
                    );
                }
                _ => {}
            }
            let mut sentences = Vec::new();
            collect_sentences(&rule.body, &mut sentences);
            for s in sentences {
                let name = s.name().expect("sentences are not variables");
                if matches!(name, kw::INIT | kw::NEXT | kw::BASE | kw::INPUT) {
                    let n = self.name(name).to_string();
                    self.v.error(
                        DiagnosticKind::KeywordPlacement,
                        format!("{n} may not appear in a rule body: {}", text()),
                    );
                }
            }
        }
        let turn = [kw::TRUE, kw::DOES, kw::NEXT, kw::LEGAL, kw::GOAL, kw::TERMINAL];
        for keyword in [kw::INIT, kw::BASE, kw::INPUT] {
            if let Some(&t) = turn.iter().find(|&&t| graph.reaches(keyword, t)) {
                let (a, b) = (self.name(keyword).to_string(), self.name(t).to_string());
                self.v.error(DiagnosticKind::KeywordPlacement, format!("{a} may not depend on {b}"));
            }
        }
        for keyword in [kw::TERMINAL, kw::LEGAL, kw::GOAL] {
            if graph.reaches(keyword, kw::DOES) {
                let n = self.name(keyword).to_string();
                self.v.error(DiagnosticKind::KeywordPlacement, format!("{n} may not depend on does"));
            }
        }
    }

    fn check_recursion(&mut self, rule: &Rule, body: &[Flat], graph: &Graph) {
        let head = rule.head.name().expect("heads are not variables");
        let positives: Vec<&Ast> = body
            .iter()
            .filter_map(|l| match l {
                Flat::Pos(a) => Some(a),
                _ => None,
            })
            .collect();
        let cyclic = |a: &Ast| a.name().is_some_and(|n| graph.reaches(n, head));
        for relation in positives.iter().filter(|a| cyclic(a)) {
            for term in relation.args() {
                let safe = is_ground(term)
                    || rule.head.args().contains(term)
                    || positives.iter().filter(|a| !cyclic(a)).any(|a| a.args().contains(term));
                if !safe {
                    let text = self.rule_text(rule);
                    let t = self.game.display_ast(term).to_string();
                    self.v.error(
                        DiagnosticKind::RecursionRestriction,
                        format!("recursion restriction broken in {text} by the term {t}"),
                    );
                }
            }
        }
    }
}

fn is_ground(ast: &Ast) -> bool {
    match ast {
        Ast::Var(_) => false,
        Ast::Sym(_) => true,
        Ast::App(_, args) => args.iter().all(is_ground),
    }
}

fn collect_sentences<'a>(body: &'a [Literal], out: &mut Vec<&'a Ast>) {
    for literal in body {
        match literal {
            Literal::Pos(a) => out.push(a),
            Literal::Not(inner) => collect_sentences(std::slice::from_ref(&**inner), out),
            Literal::Or(parts) => collect_sentences(parts, out),
            Literal::Distinct(..) => {}
        }
    }
}

fn collect_function_arities(term: &Ast, out: &mut BTreeMap<Sym, BTreeSet<usize>>) {
    if let Ast::App(name, args) = term {
        out.entry(*name).or_default().insert(args.len());
        args.iter().for_each(|a| collect_function_arities(a, out));
    }
}

/// The dependency graph between relation names: an edge from each rule's head
/// to every sentence name in its body.
struct Graph {
    edges: HashMap<Sym, HashSet<Sym>>,
    negative: Vec<(Sym, Sym)>,
}

impl Graph {
    fn new(game: &Game) -> Graph {
        let mut edges: HashMap<Sym, HashSet<Sym>> = HashMap::new();
        let mut negative = Vec::new();
        fn visit(
            literal: &Literal,
            negated: bool,
            head: Sym,
            edges: &mut HashMap<Sym, HashSet<Sym>>,
            negative: &mut Vec<(Sym, Sym)>,
        ) {
            match literal {
                Literal::Pos(a) => {
                    let name = a.name().expect("sentences are not variables");
                    edges.entry(head).or_default().insert(name);
                    if negated && !negative.contains(&(head, name)) {
                        negative.push((head, name));
                    }
                }
                Literal::Not(inner) => visit(inner, true, head, edges, negative),
                Literal::Or(parts) => parts.iter().for_each(|p| visit(p, negated, head, edges, negative)),
                Literal::Distinct(..) => {}
            }
        }
        for rule in &game.rules {
            let head = rule.head.name().expect("heads are not variables");
            edges.entry(head).or_default();
            for literal in &rule.body {
                visit(literal, false, head, &mut edges, &mut negative);
            }
        }
        Graph { edges, negative }
    }

    /// Whether `from` depends on `to`, directly or not (or is `to`).
    fn reaches(&self, from: Sym, to: Sym) -> bool {
        let mut seen = HashSet::from([from]);
        let mut stack = vec![from];
        while let Some(n) = stack.pop() {
            if n == to {
                return true;
            }
            for &m in self.edges.get(&n).into_iter().flatten() {
                if seen.insert(m) {
                    stack.push(m);
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> (Vec<DiagnosticKind>, Vec<DiagnosticKind>) {
        let v = Game::parse(text).unwrap().validate();
        (v.errors.iter().map(|d| d.kind).collect(), v.warnings.iter().map(|d| d.kind).collect())
    }

    const MINIMAL: &str = "(role r) (legal r a) (<= terminal (true done)) (goal r 100) (init x)";

    #[test]
    fn minimal_game_is_clean() {
        assert_eq!(kinds(MINIMAL), (vec![], vec![]));
    }

    #[test]
    fn a_constant_in_two_letter_cases_is_one_symbol_with_a_warning() {
        // alexChess (ggp-repository) defines `nextFile` and uses `nextfile`.
        let text = format!("{MINIMAL} (nextFile a b) (<= (legal r (go ?x)) (nextfile ?x b))");
        let v = Game::parse(&text).unwrap().validate();
        assert!(v.is_valid());
        assert_eq!(v.warnings.len(), 1, "{:?}", v.warnings);
        assert_eq!(v.warnings[0].kind, DiagnosticKind::MixedCase);
        assert!(v.warnings[0].message.starts_with("nextFile is also written nextfile"), "{}", v.warnings[0]);
        // Keywords, variables and a consistently upper-cased sheet are not flagged.
        assert_eq!(
            kinds("(ROLE r) (LEGAL r A) (<= TERMINAL (TRUE done)) (goal r 100) (<= (p ?X) (q ?x)) (q A)").1,
            vec![]
        );
    }

    #[test]
    fn negation_in_a_cycle() {
        let (errors, _) = kinds(&format!("{MINIMAL} (<= p (not q)) (<= q p)"));
        assert_eq!(errors, vec![DiagnosticKind::NegationInCycle]);
    }

    #[test]
    fn keyword_arity_and_missing_keywords() {
        let (errors, _) = kinds("(role r) (legal r) (<= terminal (true done))");
        assert!(errors.contains(&DiagnosticKind::KeywordArity));
        assert!(errors.contains(&DiagnosticKind::MissingKeyword));
    }

    #[test]
    fn keyword_placement() {
        for extra in
            ["(<= (legal r b) (does r a))", "(<= (true x) (true y))", "(<= (init y) (true x))", "(<= p (next x))"]
        {
            let (errors, _) = kinds(&format!("{MINIMAL} {extra}"));
            assert_eq!(errors, vec![DiagnosticKind::KeywordPlacement], "{extra}");
        }
    }

    #[test]
    fn recursion_restriction() {
        let (errors, _) = kinds(&format!("{MINIMAL} (<= (p (f ?x)) (p ?x))"));
        assert_eq!(errors, vec![DiagnosticKind::RecursionRestriction]);
        let (errors, _) = kinds(&format!("{MINIMAL} (q 0) (p 0) (<= (p (f ?x)) (q ?x) (p ?x))"));
        assert!(errors.is_empty());
    }

    #[test]
    fn keyword_as_function_and_improper_negation() {
        let (errors, _) = kinds(&format!("{MINIMAL} (<= p (true (legal r a)))"));
        assert_eq!(errors, vec![DiagnosticKind::KeywordAsFunction]);
        let (errors, _) = kinds(&format!("{MINIMAL} (<= p (true x) (not (or (true a) (true b))))"));
        assert_eq!(errors, vec![DiagnosticKind::ImproperNegation]);
    }
}
