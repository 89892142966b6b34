//! Grounding: every rule instantiated with the ground terms it can ever
//! apply to.
//!
//! The state-dependent rules are first decomposed ([`crate::decompose`]) so
//! that no rule body is a needless cross product. Then the relations that do
//! not depend on the state are evaluated exactly. Then everything that could
//! ever hold is over-approximated: the rules are evaluated with negation on
//! state-dependent relations ignored, with `(true x)` for every `(init x)`
//! and `(next x)`, and `(does r m)` for every `(legal r m)`, to a fixpoint —
//! rewritten for demand ([`crate::magic`]), so that only the atoms that the
//! legal moves, goals, terminality and next state can depend on are derived.
//! Finally each rule is instantiated against that approximation (its demand
//! literal keeping only the instances asked for); what remains of its body is
//! literals over state-dependent atoms. Each ground rule is kept once.

use std::collections::HashSet;
use std::hash::Hasher;

use crate::compile_error::CompileError;
use crate::datalog::{Budget, Evaluator, Join, Model, Negation, Plan, find_instance};
use crate::decompose::decompose;
use crate::game::Game;
use crate::hash::{FastMap, WordHasher};
use crate::magic;
use crate::normalize::{Lit, NRule, Pat, Program};
use crate::prover::dynamic_preds;
use crate::store::{Pred, TermId, TermStore};
use crate::symbol::{Sym, Symbols, kw};

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
    let mut dynamic = dynamic_preds(&program);
    let state = |p: Pred| dynamic.contains(&p) || matches!(p.name, kw::TRUE | kw::DOES);
    let (dynamic_rules, static_rules): (Vec<NRule>, Vec<NRule>) =
        program.rules.iter().cloned().partition(|r| state(r.head.pred(&program.store)));
    let (dynamic_rules, helpers) = decompose(dynamic_rules, &state, &mut program.store, &mut program.symbols);
    dynamic.extend(helpers);
    let is_dynamic = |p: Pred| dynamic.contains(&p) || matches!(p.name, kw::TRUE | kw::DOES);

    let mut statics = Model::default();
    let mut budget = Budget { atoms: limits.atoms, joins: limits.rules.saturating_mul(JOINS_PER_RULE) };
    Evaluator::run_once(static_rules, &mut program.store, &mut statics, &Negation::Exact, &mut budget);
    if budget.is_spent() {
        return Err(CompileError::TooLarge("the relations that do not depend on the state"));
    }

    // Everything that can ever hold, of what the legal moves, goals,
    // terminality and next state can depend on.
    let mut bridged = dynamic_rules;
    let v = |i| Pat::Var(i);
    for (from, arity) in BRIDGES {
        let args: Vec<Pat> = (0..arity).map(v).collect();
        let to = if from == kw::LEGAL { kw::DOES } else { kw::TRUE };
        bridged.push(NRule {
            head: Pat::App(to, args.clone().into_boxed_slice()),
            body: vec![Lit::Pos(Pat::App(from, args.into_boxed_slice()))],
            vars: arity as usize,
        });
    }
    let free = |p: Pred, n: usize| (p, vec![false; n]);
    let queries = [
        free(Pred::new(kw::LEGAL, 2), 2),
        free(Pred::new(kw::GOAL, 2), 2),
        free(Pred::proposition(kw::TERMINAL), 0),
        free(Pred::new(kw::NEXT, 1), 1),
        free(Pred::new(kw::INIT, 1), 1),
        free(Pred::new(kw::TRUE, 1), 1),
        free(Pred::new(kw::DOES, 2), 2),
    ];
    let size = |p: Pred| statics.relation(p).map_or(GUESS, |r| r.atoms.len());
    let demand = magic::transform(&bridged, &queries, &mut program.store, &mut program.symbols, &size);
    let mut domain = statics.clone();
    let not_dynamic = |p: Pred| !is_dynamic(p) && !demand.demand.contains(&p);
    let negation = Negation::Only(&not_dynamic);
    Evaluator::run_once(demand.rules.clone(), &mut program.store, &mut domain, &negation, &mut budget);
    if budget.is_spent() {
        return Err(CompileError::TooLarge("the propositions that can ever hold"));
    }

    // Each rule instantiated against it: what remains of a body is its
    // literals over state-dependent atoms.
    let mut rules = Vec::new();
    // Each ground rule once: the first rule with each hash, and for each rule
    // the next with the same hash.
    let mut seen: FastMap<u64, u32> = FastMap::default();
    let mut chain: Vec<u32> = Vec::new();
    const NONE: u32 = u32::MAX;
    for rule in &demand.rules {
        let head = rule.head.pred(&program.store);
        if demand.demand.contains(&head) || is_bridge(rule, &program.store) {
            continue;
        }
        let plan = Plan::new(rule, None, &program.store, &|p| domain.atoms(p).len());
        domain.prepare(rule, &plan, &program.store);
        let store = &program.store;
        let join = Join::new(store, &domain, rule, &negation, &plan, None);
        let mut overflow = false;
        join.solutions(&mut |b| {
            let Some(head) = find_instance(&rule.head, b, store) else { return true };
            let mut body = Vec::new();
            for (i, lit) in rule.body.iter().enumerate() {
                match lit {
                    Lit::Pos(p) | Lit::Neg(p) if demand.demand.contains(&p.pred(store)) => {}
                    Lit::Pos(p) if is_dynamic(p.pred(store)) => body.push((join.matched(i), true)),
                    Lit::Neg(p) if is_dynamic(p.pred(store)) => {
                        // What can never hold needs no test.
                        if let Some(atom) = find_instance(p, b, store).filter(|&a| domain.contains(a, store)) {
                            body.push((atom, false));
                        }
                    }
                    _ => {}
                }
            }
            let rule = GroundRule { head, body };
            let key = hash_rule(&rule);
            // The rules with this hash, chained through `chain`.
            let mut at = seen.get(&key).copied().unwrap_or(NONE);
            while at != NONE {
                if rules[at as usize] == rule {
                    return true;
                }
                at = chain[at as usize];
            }
            if rules.len() >= limits.rules {
                overflow = true;
                return false;
            }
            chain.push(seen.insert(key, rules.len() as u32).unwrap_or(NONE));
            rules.push(rule);
            true
        });
        if overflow {
            return Err(CompileError::TooLarge("the ground rules"));
        }
    }
    drop((seen, chain));
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
    let mut init: Vec<TermId> =
        domain.atoms(Pred::new(kw::INIT, 1)).iter().map(|&a| program.store.args(a)[0]).collect();
    init.sort();
    init.dedup();
    Ok(Grounding { symbols: program.symbols, store: program.store, roles: program.roles, init, rules })
}

/// `(true x)` from `(init x)` and `(next x)`, `(does r m)` from `(legal r m)`:
/// the relations and arities.
const BRIDGES: [(Sym, u16); 3] = [(kw::INIT, 1), (kw::NEXT, 1), (kw::LEGAL, 2)];

/// How many rule instances the evaluation of everything that can ever hold
/// may find per ground rule allowed: each ground rule is one of them, the
/// others are found again in later rounds or lead nowhere.
const JOINS_PER_RULE: usize = 4;

/// The size assumed, when ordering joins for demand, for a relation not yet
/// evaluated.
const GUESS: usize = 1000;

/// Whether `rule` is one of the [`BRIDGES`] (with a demand literal, perhaps).
fn is_bridge(rule: &NRule, store: &TermStore) -> bool {
    let head = rule.head.pred(store);
    if !matches!(head.name, kw::TRUE | kw::DOES) {
        return false;
    }
    let Some(Lit::Pos(last)) = rule.body.last() else { return false };
    let from = last.pred(store);
    BRIDGES.iter().any(|&(name, arity)| from == Pred::new(name, arity as usize))
        && matches!(last, Pat::App(_, args) if args.iter().enumerate().all(|(i, a)| *a == Pat::Var(i as u16)))
}

fn hash_rule(rule: &GroundRule) -> u64 {
    let mut h = WordHasher::default();
    h.write_u32(rule.head.0);
    for &(atom, positive) in &rule.body {
        h.write_u32(atom.0 << 1 | u32::from(positive));
    }
    h.finish()
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
