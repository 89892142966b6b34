//! The reference reasoner: it evaluates the rules afresh, bottom-up, in every
//! state. It is slow but simple and needs no grounding, so it serves as the
//! oracle the compiled [`Machine`](crate::Machine) is tested against, and as
//! the player's fallback while a large game is still being compiled.

use std::collections::HashSet;

use crate::datalog::{Evaluator, Model, Negation};
use crate::game::Game;
use crate::normalize::{Lit, Program};
use crate::store::{Node, Pred, TermId, TermStore};
use crate::symbol::{Symbols, kw};
use crate::term::Term;

/// A state of the [`Prover`]: the set of base facts that hold.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProverState {
    facts: Vec<TermId>,
}

/// What holds in a state: legal moves per role, terminality, goal values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inspection {
    /// Each role's legal moves, roles in declaration order, moves sorted.
    pub legal: Vec<Vec<Term>>,
    /// Whether the state is terminal.
    pub terminal: bool,
    /// Each role's goal value (the largest, should several hold; `None` if
    /// none does).
    pub goals: Vec<Option<u8>>,
}

/// The reference reasoner.
///
/// ```
/// use bouton_ggp::{Game, Prover, Term};
///
/// let game = Game::parse("(role you) (init (at 0)) (<= (legal you go) (true (at 0)))
///     (<= (next (at 1)) (does you go)) (<= terminal (true (at 1))) (goal you 100)")?;
/// let mut prover = Prover::new(&game);
/// let start = prover.initial_state();
/// assert_eq!(prover.inspect(&start).legal, vec![vec!["go".parse::<Term>()?]]);
/// let end = prover.next_state(&start, &["go".parse()?]);
/// assert!(prover.inspect(&end).terminal);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Prover {
    /// Most atoms derived per evaluation.
    budget: usize,
    symbols: Symbols,
    store: TermStore,
    roles: Vec<TermId>,
    statics: Model,
    dynamic: Evaluator,
}

/// Which relations depend on the state (`true`, `does`, and everything derived
/// from them); the others are the same in every state.
pub(crate) fn dynamic_preds(program: &Program) -> HashSet<Pred> {
    let store = &program.store;
    let mut dynamic: HashSet<Pred> = HashSet::new();
    loop {
        let mut changed = false;
        for rule in &program.rules {
            let head = rule.head.pred(store);
            if dynamic.contains(&head) {
                continue;
            }
            let depends = rule.body.iter().any(|l| match l {
                Lit::Pos(p) | Lit::Neg(p) => {
                    let pred = p.pred(store);
                    matches!(pred.name, kw::TRUE | kw::DOES) || dynamic.contains(&pred)
                }
                _ => false,
            });
            if depends {
                dynamic.insert(head);
                changed = true;
            }
        }
        if !changed {
            return dynamic;
        }
    }
}

impl Prover {
    /// Prepares the reasoner: evaluates once everything that does not depend
    /// on the state.
    pub fn new(game: &Game) -> Prover {
        Prover::with_budget(game, 10_000_000)
    }

    /// As [`Prover::new`], deriving at most `budget` atoms per evaluation:
    /// invalid games can define infinite relations, which are then cut short
    /// (and the answers are incomplete).
    pub fn with_budget(game: &Game, budget: usize) -> Prover {
        let mut program = Program::new(game);
        let dynamic_preds = dynamic_preds(&program);
        let (dynamic_rules, static_rules): (Vec<_>, Vec<_>) =
            program.rules.iter().cloned().partition(|r| dynamic_preds.contains(&r.head.pred(&program.store)));
        let statics_eval = Evaluator::new(static_rules, &program.store);
        let mut statics = Model::default();
        let mut left = budget;
        statics_eval.run_limited(&mut program.store, &mut statics, &Negation::Exact, &mut left);
        let dynamic = Evaluator::new(dynamic_rules, &program.store);
        Prover { budget, symbols: program.symbols, store: program.store, roles: program.roles, statics, dynamic }
    }

    /// The roles, in declaration order.
    pub fn roles(&self) -> Vec<Term> {
        self.roles.iter().map(|r| self.store.to_term(*r, &self.symbols)).collect()
    }

    fn model(&mut self, facts: &[TermId], joint: &[TermId]) -> Model {
        let mut model = self.statics.clone();
        for &f in facts {
            let atom = self.store.app(kw::TRUE, &[f]);
            model.insert(atom, &self.store);
        }
        for (&role, &mv) in self.roles.iter().zip(joint) {
            let atom = self.store.app(kw::DOES, &[role, mv]);
            model.insert(atom, &self.store);
        }
        let mut left = self.budget;
        self.dynamic.run_limited(&mut self.store, &mut model, &Negation::Exact, &mut left);
        model
    }

    fn state_of(model: &Model, key: Pred, store: &TermStore) -> ProverState {
        let mut facts: Vec<TermId> = model.atoms(key).iter().map(|&a| store.args(a)[0]).collect();
        facts.sort();
        facts.dedup();
        ProverState { facts }
    }

    /// The initial state (`init` may be derived by rules).
    pub fn initial_state(&mut self) -> ProverState {
        let model = self.model(&[], &[]);
        Prover::state_of(&model, Pred::new(kw::INIT, 1), &self.store)
    }

    /// Legal moves, terminality and goals in `state`.
    pub fn inspect(&mut self, state: &ProverState) -> Inspection {
        let model = self.model(&state.facts, &[]);
        let mut legal = vec![Vec::new(); self.roles.len()];
        let mut goals = vec![None; self.roles.len()];
        for &atom in model.atoms(Pred::new(kw::LEGAL, 2)) {
            let [role, mv] = self.store.args(atom) else { continue };
            if let Some(r) = self.roles.iter().position(|x| x == role) {
                legal[r].push(self.store.to_term(*mv, &self.symbols));
            }
        }
        for &atom in model.atoms(Pred::new(kw::GOAL, 2)) {
            let [role, value] = self.store.args(atom) else { continue };
            let Node::Sym(v) = self.store.node(*value) else { continue };
            if let (Some(r), Some(v)) = (self.roles.iter().position(|x| x == role), self.symbols.goal_value(*v)) {
                goals[r] = goals[r].max(Some(v));
            }
        }
        legal.iter_mut().for_each(|moves| moves.sort());
        let terminal = !model.atoms(Pred::proposition(kw::TERMINAL)).is_empty();
        Inspection { legal, terminal, goals }
    }

    /// The state after every role plays its move in `joint` (roles in
    /// declaration order). Moves are not checked for legality.
    pub fn next_state(&mut self, state: &ProverState, joint: &[Term]) -> ProverState {
        let joint: Vec<TermId> = joint.iter().map(|t| self.intern(t)).collect();
        let model = self.model(&state.facts, &joint);
        Prover::state_of(&model, Pred::new(kw::NEXT, 1), &self.store)
    }

    /// The facts of `state`, sorted.
    pub fn facts(&self, state: &ProverState) -> Vec<Term> {
        let mut facts: Vec<Term> = state.facts.iter().map(|f| self.store.to_term(*f, &self.symbols)).collect();
        facts.sort();
        facts
    }

    fn intern(&mut self, term: &Term) -> TermId {
        match term {
            Term::Symbol(s) => {
                let sym = self.symbols.intern(s);
                self.store.sym(sym)
            }
            Term::Compound(s, args) => {
                let sym = self.symbols.intern(s);
                let args: Vec<TermId> = args.iter().map(|a| self.intern(a)).collect();
                self.store.app(sym, &args)
            }
        }
    }
}
