//! Rules as the evaluator runs them: no `or` (see [`crate::dnf`]), variables
//! numbered per rule, ground subterms interned, and two repairs for unsafe
//! rules that the reference reasoner still answers (test cases 3e and 3f):
//!
//! - a `legal`, `goal` or `input` head whose role is an unbound variable gets
//!   `(role ?p)` added to its body, as a top-down prover binds it from the
//!   query;
//! - `(not p)` with variables no positive literal binds means "no instance of
//!   p holds": it becomes `(not aux)` with `aux` defined by `p` alone.
//!
//! Rules whose head keeps an unbound variable cannot produce ground facts and
//! are dropped.

use std::collections::HashMap;

use crate::datalog::PeriodicCheck;
use crate::dnf::{self, Flat};
use crate::game::{Ast, Game};
use crate::limits::{Limits, OutOfLimits};
use crate::store::{Pred, TermId, TermStore};
use crate::symbol::{Sym, Symbols, kw};

/// A term pattern: a variable, a ground term, or a function of patterns with
/// at least one variable inside.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Pat {
    Var(u16),
    Ground(TermId),
    App(Sym, Box<[Pat]>),
}

impl Pat {
    /// The relation key of this pattern read as a sentence.
    pub(crate) fn pred(&self, store: &TermStore) -> Pred {
        match self {
            Pat::Var(_) => unreachable!("a sentence is never a variable"),
            Pat::Ground(id) => store.pred(*id),
            Pat::App(name, args) => Pred::new(*name, args.len()),
        }
    }

    pub(crate) fn vars(&self, out: &mut Vec<u16>) {
        match self {
            Pat::Var(v) => {
                if !out.contains(v) {
                    out.push(*v);
                }
            }
            Pat::Ground(_) => {}
            Pat::App(_, args) => args.iter().for_each(|a| a.vars(out)),
        }
    }
}

/// A body literal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Lit {
    Pos(Pat),
    Neg(Pat),
    Distinct(Pat, Pat),
    Same(Pat, Pat),
}

impl Lit {
    pub(crate) fn vars(&self, out: &mut Vec<u16>) {
        match self {
            Lit::Pos(p) | Lit::Neg(p) => p.vars(out),
            Lit::Distinct(a, b) | Lit::Same(a, b) => {
                a.vars(out);
                b.vars(out);
            }
        }
    }
}

/// A rule ready for evaluation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NRule {
    pub(crate) head: Pat,
    pub(crate) body: Vec<Lit>,
    pub(crate) vars: usize,
}

/// The symbols, interned ground terms and normalised rules of a game.
#[derive(Debug, Clone)]
pub(crate) struct Program {
    pub(crate) symbols: Symbols,
    pub(crate) store: TermStore,
    pub(crate) rules: Vec<NRule>,
    /// Roles in declaration order.
    pub(crate) roles: Vec<TermId>,
}

impl Program {
    /// The program of `game` (the tests' way: compilation and the prover
    /// normalise [within](Program::new_within) the request's limits).
    #[cfg(test)]
    pub(crate) fn new(game: &Game) -> Program {
        crate::limits::unlimited(Program::new_within(game, Limits::none()))
    }

    /// The program of `game`, normalised within `limits`: checked every
    /// [`CHECK_EVERY`](crate::datalog::CHECK_EVERY) bodies normalised (a
    /// rule with `or` has one per alternative, up to
    /// [`dnf::MAX_BODIES`]); stopped, it gives no program.
    pub(crate) fn new_within(game: &Game, limits: Limits) -> Result<Program, OutOfLimits> {
        let mut check = PeriodicCheck::new(limits);
        check.check()?;
        let mut symbols = game.symbols.clone();
        let mut store = TermStore::default();
        let mut rules = Vec::new();
        let mut roles = Vec::new();
        for rule in &game.rules {
            check.step()?;
            if rule.head.name() == Some(kw::ROLE)
                && rule.body.is_empty()
                && let [role] = rule.head.args()
                && let Some(id) = ground(role, &mut store)
                && !roles.contains(&id)
            {
                roles.push(id);
            }
            let Some(bodies) = dnf::expand(&rule.body) else { continue };
            for body in bodies {
                check.step()?;
                normalize(&rule.head, &body, &mut symbols, &mut store, &mut rules);
            }
        }
        Ok(Program { symbols, store, rules, roles })
    }
}

fn ground(ast: &Ast, store: &mut TermStore) -> Option<TermId> {
    match ast {
        Ast::Var(_) => None,
        Ast::Sym(s) => Some(store.sym(*s)),
        Ast::App(name, args) => {
            let args = args.iter().map(|a| ground(a, store)).collect::<Option<Vec<_>>>()?;
            Some(store.app(*name, &args))
        }
    }
}

struct Numbering(HashMap<Sym, u16>);

impl Numbering {
    fn pat(&mut self, ast: &Ast, store: &mut TermStore) -> Pat {
        if let Some(id) = ground(ast, store) {
            return Pat::Ground(id);
        }
        match ast {
            Ast::Var(v) => {
                let n = self.0.len();
                Pat::Var(*self.0.entry(*v).or_insert(u16::try_from(n).expect("fewer than 65536 variables")))
            }
            Ast::App(name, args) => Pat::App(*name, args.iter().map(|a| self.pat(a, store)).collect()),
            Ast::Sym(_) => unreachable!("constants are ground"),
        }
    }
}

fn normalize(head: &Ast, body: &[Flat], symbols: &mut Symbols, store: &mut TermStore, out: &mut Vec<NRule>) {
    let mut numbering = Numbering(HashMap::new());
    let head = numbering.pat(head, store);
    let mut lits: Vec<Lit> = body
        .iter()
        .map(|l| match l {
            Flat::Pos(a) => Lit::Pos(numbering.pat(a, store)),
            Flat::Neg(a) => Lit::Neg(numbering.pat(a, store)),
            Flat::Distinct(a, b) => Lit::Distinct(numbering.pat(a, store), numbering.pat(b, store)),
            Flat::Same(a, b) => Lit::Same(numbering.pat(a, store), numbering.pat(b, store)),
        })
        .collect();
    let mut vars = numbering.0.len();
    let mut bound = Vec::new();
    for l in &lits {
        if let Lit::Pos(p) = l {
            p.vars(&mut bound);
        }
    }
    // A role variable the body leaves unbound ranges over the roles.
    if let Pat::App(name, args) = &head
        && matches!(*name, kw::LEGAL | kw::GOAL | kw::INPUT)
        && let Some(Pat::Var(v)) = args.first()
        && !bound.contains(v)
    {
        let role = Pat::App(kw::ROLE, Box::new([Pat::Var(*v)]));
        lits.insert(0, Lit::Pos(role));
        bound.push(*v);
    }
    // (not p) with unbound variables: "no instance of p holds".
    for lit in &mut lits {
        let Lit::Neg(p) = lit else { continue };
        let mut pv = Vec::new();
        p.vars(&mut pv);
        if pv.iter().all(|v| bound.contains(v)) {
            continue;
        }
        let shared: Vec<Pat> = pv.iter().filter(|v| bound.contains(v)).map(|v| Pat::Var(*v)).collect();
        let aux = symbols.fresh("aux");
        let aux_head = Pat::App(aux, shared.into_boxed_slice());
        out.push(NRule { head: aux_head.clone(), body: vec![Lit::Pos(p.clone())], vars });
        *lit = Lit::Neg(aux_head);
    }
    let mut head_vars = Vec::new();
    head.vars(&mut head_vars);
    if head_vars.iter().any(|v| !bound.contains(v)) {
        return;
    }
    vars = vars.max(bound.len());
    out.push(NRule { head, body: lits, vars });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::Canceller;
    use std::time::{Duration, Instant};

    fn program(text: &str) -> Program {
        Program::new(&Game::parse(text).unwrap())
    }

    #[test]
    fn role_variables_get_bound_by_role() {
        let p = program("(role a) (role b) (<= (legal ?p ?p) (cell 1 1))");
        assert_eq!(p.roles.len(), 2);
        let legal = p.rules.last().unwrap();
        assert_eq!(legal.body.len(), 2);
        assert!(matches!(&legal.body[0], Lit::Pos(Pat::App(kw::ROLE, _))));
    }

    #[test]
    fn unsafe_negation_gets_a_helper() {
        let p = program("(<= (p ?x) (q ?x) (not (r ?x ?y)))");
        assert_eq!(p.rules.len(), 2);
        assert_eq!(p.rules[0].body.len(), 1);
        assert!(matches!(&p.rules[1].body[1], Lit::Neg(Pat::App(_, args)) if args.len() == 1));
    }

    #[test]
    fn heads_with_unbound_variables_are_dropped() {
        let p = program("(cell 1 1) (<= (dc ?x ?y) (distinct ?x ?y)) (<= terminal (cell 1 1))");
        assert_eq!(p.rules.len(), 2);
    }

    /// Chess, from the repository's games.
    fn chess() -> Game {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games/chess.kif");
        Game::parse(&std::fs::read_to_string(path).expect("chess.kif")).expect("chess parses")
    }

    /// A generated game of `rules` rules each with twelve `or`s of two
    /// literals: 4,096 bodies each once normalised (`rules` 100: seconds of
    /// normalising, far more than a cancellation after 20 ms lets run).
    fn many_alternatives(rules: usize) -> Game {
        let alternatives: String = (0..12).map(|i| format!("(or (a{i} ?x) (b{i} ?x)) ")).collect();
        let text: String = (0..rules).map(|r| format!("(<= (p{r} ?x) (q ?x) {alternatives}) ")).collect();
        Game::parse(&format!("(role r) {text}")).expect("the generated game parses")
    }

    #[test]
    fn a_passed_deadline_or_a_cancellation_stops_the_normaliser() {
        let passed = Limits::none().until(Instant::now() - Duration::from_millis(1));
        assert_eq!(Program::new_within(&chess(), passed).err(), Some(OutOfLimits::Deadline));
        assert_eq!(Program::new_within(&many_alternatives(100), passed).err(), Some(OutOfLimits::Deadline));
        let canceller = Canceller::new();
        let cancellable = Limits::none().cancelled_by(canceller.handle());
        let game = many_alternatives(100);
        let stopped = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(20));
                canceller.cancel();
            });
            Program::new_within(&game, cancellable)
        });
        assert_eq!(stopped.err(), Some(OutOfLimits::Cancelled));
        assert_eq!(Program::new_within(&chess(), cancellable).err(), Some(OutOfLimits::Cancelled));
    }

    #[test]
    fn limits_not_reached_change_no_program() {
        let canceller = Canceller::new();
        let far = Limits::none().until(Instant::now() + Duration::from_secs(3600)).cancelled_by(canceller.handle());
        for game in [chess(), many_alternatives(2)] {
            let before = Program::new(&game);
            let within = Program::new_within(&game, far).expect("far from the limits");
            assert!(before.rules.len() > 150, "{} rules", before.rules.len());
            assert_eq!(within.rules, before.rules);
            assert_eq!(within.roles, before.roles);
            assert_eq!(within.store.len(), before.store.len());
        }
    }
}
