//! Grounding: every rule instantiated with the ground terms it can ever
//! apply to.
//!
//! First the relations that do not depend on the state are evaluated exactly.
//! Then everything that could ever hold is over-approximated: the rules are
//! evaluated with negation on state-dependent relations ignored, with
//! `(true x)` for every `(init x)` and `(next x)`, and `(does r m)` for every
//! `(legal r m)`, to a fixpoint. Finally each state-dependent rule is
//! instantiated against that approximation; what remains of its body is
//! literals over state-dependent atoms.

use std::collections::{HashMap, HashSet};

use crate::compile_error::CompileError;
use crate::datalog::{Evaluator, Join, Model, Negation, instantiate};
use crate::game::Game;
use crate::normalize::{Lit, NRule, Pat, Program};
use crate::prover::dynamic_preds;
use crate::store::{Pred, TermId, TermStore};
use crate::symbol::{Symbols, kw};

/// Limits that keep grounding of huge games from exhausting memory.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Most atoms in the over-approximation.
    pub(crate) atoms: usize,
    /// Most ground rules.
    pub(crate) rules: usize,
}

/// A ground rule: an atom and the literals (atom, positive?) that imply it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GroundRule {
    pub(crate) head: TermId,
    pub(crate) body: Vec<(TermId, bool)>,
}

/// The ground game.
#[derive(Debug, Clone)]
pub(crate) struct Grounding {
    pub(crate) symbols: Symbols,
    pub(crate) store: TermStore,
    pub(crate) roles: Vec<TermId>,
    /// The base terms true in the initial state.
    pub(crate) init: Vec<TermId>,
    pub(crate) rules: Vec<GroundRule>,
}

pub(crate) fn ground(game: &Game, limits: Limits) -> Result<Grounding, CompileError> {
    let mut program = Program::new(game);
    if program.roles.is_empty() {
        return Err(CompileError::NoRoles);
    }
    let dynamic = dynamic_preds(&program);
    let is_dynamic = |p: Pred| dynamic.contains(&p) || matches!(p.name, kw::TRUE | kw::DOES);
    let (dynamic_rules, static_rules): (Vec<NRule>, Vec<NRule>) =
        program.rules.iter().cloned().partition(|r| is_dynamic(r.head.pred(&program.store)));

    let mut statics = Model::default();
    let mut budget = limits.atoms;
    Evaluator::new(static_rules, &program.store).run_limited(
        &mut program.store,
        &mut statics,
        &Negation::Exact,
        &mut budget,
    );
    if budget == 0 {
        return Err(CompileError::TooLarge("the relations that do not depend on the state"));
    }

    let init_pred = Pred::new(kw::INIT, 1);
    let mut bridged = dynamic_rules.clone();
    let v = |i| Pat::Var(i);
    for (from, arity) in [(kw::INIT, 1), (kw::NEXT, 1), (kw::LEGAL, 2)] {
        let args: Vec<Pat> = (0..arity).map(v).collect();
        let to = if from == kw::LEGAL { kw::DOES } else { kw::TRUE };
        bridged.push(NRule {
            head: Pat::App(to, args.clone().into_boxed_slice()),
            body: vec![Lit::Pos(Pat::App(from, args.into_boxed_slice()))],
            vars: arity as usize,
        });
    }
    let mut domain = statics.clone();
    let not_dynamic = |p: Pred| !is_dynamic(p);
    Evaluator::new(bridged, &program.store).run_limited(
        &mut program.store,
        &mut domain,
        &Negation::Only(&not_dynamic),
        &mut budget,
    );
    if budget == 0 {
        return Err(CompileError::TooLarge("the propositions that can ever hold"));
    }

    let mut rules = Vec::new();
    for rule in &dynamic_rules {
        let mut solutions: Vec<Vec<Option<TermId>>> = Vec::new();
        let join =
            Join { store: &program.store, model: &domain, rule, negation: &Negation::Only(&not_dynamic), delta: None };
        let plan = join.default_plan();
        let mut overflow = false;
        join.solutions(&plan, &mut |b| {
            if rules.len() + solutions.len() >= limits.rules {
                overflow = true;
            } else {
                solutions.push(b.to_vec());
            }
        });
        if overflow {
            return Err(CompileError::TooLarge("the ground rules"));
        }
        for b in solutions {
            let Some(head) = instantiate(&rule.head, &b, &mut program.store) else { continue };
            let mut body = Vec::new();
            for lit in &rule.body {
                match lit {
                    Lit::Pos(p) if is_dynamic(p.pred(&program.store)) => {
                        let atom = instantiate(p, &b, &mut program.store).expect("positive literals are bound");
                        body.push((atom, true));
                    }
                    Lit::Neg(p) if is_dynamic(p.pred(&program.store)) => {
                        let Some(atom) = instantiate(p, &b, &mut program.store) else { continue };
                        // What can never hold needs no test.
                        if domain.contains(atom, &program.store) {
                            body.push((atom, false));
                        }
                    }
                    _ => {}
                }
            }
            rules.push(GroundRule { head, body });
        }
    }
    // Keyword relations that do not depend on the state hold always.
    let constant: HashSet<Pred> =
        [Pred::new(kw::LEGAL, 2), Pred::new(kw::GOAL, 2), Pred::proposition(kw::TERMINAL), Pred::new(kw::NEXT, 1)]
            .into_iter()
            .filter(|p| !is_dynamic(*p))
            .collect();
    for pred in &constant {
        for &atom in statics.atoms(*pred) {
            rules.push(GroundRule { head: atom, body: Vec::new() });
        }
    }
    let mut init: Vec<TermId> = domain.atoms(init_pred).iter().map(|&a| program.store.args(a)[0]).collect();
    init.sort();
    init.dedup();
    let mut seen = HashMap::new();
    rules.retain(|r| seen.insert((r.head, r.body.clone()), ()).is_none());
    Ok(Grounding { symbols: program.symbols, store: program.store, roles: program.roles, init, rules })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits { atoms: 1_000_000, rules: 1_000_000 };

    #[test]
    fn static_relations_disappear_from_ground_rules() {
        let game = Game::parse(
            "(role r) (init (c 1)) (succ 1 2) (succ 2 3)
             (<= (next (c ?y)) (true (c ?x)) (succ ?x ?y))
             (<= (legal r go) (true (c ?x))) (<= terminal (true (c 3))) (goal r 100)",
        )
        .unwrap();
        let g = ground(&game, LIMITS).unwrap();
        let next = g.rules.iter().filter(|r| g.store.pred(r.head).name == kw::NEXT).count();
        assert_eq!(next, 2, "c1 -> c2 and c2 -> c3");
        assert!(g.rules.iter().all(|r| r.body.len() <= 1));
        assert_eq!(g.init.len(), 1);
    }

    #[test]
    fn runaway_function_terms_are_stopped() {
        let game = Game::parse(
            "(role r) (init (c 0)) (<= (next (c (s ?x))) (true (c ?x))) (legal r go) (<= terminal (true (c 9))) (goal r 0)",
        )
        .unwrap();
        let small = Limits { atoms: 10_000, rules: 10_000 };
        assert!(matches!(ground(&game, small), Err(CompileError::TooLarge(_))));
    }
}
