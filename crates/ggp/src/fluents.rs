//! Fluents that never change: the state atoms of a function that the rules
//! only ever carry over (`(<= (next (wall ?x ?y ?d)) (true (wall ?x ?y ?d)))`
//! and no other `next` rule for `wall`) hold in every reachable state exactly
//! when they hold initially. For grounding, `(true (wall …))` is then
//! `(init (wall …))`: a relation that does not depend on the state, evaluated
//! exactly, negation included — so that mummymaze's walls bound where the
//! mummy can go instead of the over-approximation letting it through every
//! wall.

use std::collections::HashSet;

use crate::normalize::{Lit, NRule, Pat};
use crate::store::{Pred, TermId, TermStore};
use crate::symbol::kw;

/// The functions (name and arity) whose fluents never change.
fn constant_functions(rules: &[NRule], store: &TermStore) -> HashSet<Pred> {
    let mut framed: HashSet<Pred> = HashSet::new();
    let mut other: HashSet<Pred> = HashSet::new();
    for rule in rules {
        if rule.head.pred(store) != Pred::new(kw::NEXT, 1) {
            continue;
        }
        let Some(inner) = inner_of(&rule.head, store) else { return HashSet::new() };
        let Some(f) = function_of(&inner, store) else { return HashSet::new() };
        let carried = match (&inner, rule.body.as_slice()) {
            (Inner::Pat(p), [Lit::Pos(lit)]) => {
                lit.pred(store) == Pred::new(kw::TRUE, 1)
                    && inner_of(lit, store).is_some_and(|i| i == inner)
                    && distinct_vars(p)
            }
            // A ground fluent carries all of its function only when it is a
            // constant.
            (Inner::Id(id), [Lit::Pos(lit)]) => {
                store.args(*id).is_empty()
                    && lit.pred(store) == Pred::new(kw::TRUE, 1)
                    && inner_of(lit, store).is_some_and(|i| i == inner)
            }
            _ => false,
        };
        if carried {
            framed.insert(f);
        } else {
            other.insert(f);
        }
    }
    framed.retain(|f| !other.contains(f));
    framed
}

/// Rewrites `(true x)` to `(init x)` in every rule body where `x` is a
/// fluent that never changes; whether anything changed.
pub(crate) fn inline_constant_fluents(rules: &mut [NRule], store: &mut TermStore) -> bool {
    let constant = constant_functions(rules, store);
    if constant.is_empty() {
        return false;
    }
    let mut changed = false;
    for rule in rules.iter_mut() {
        for lit in &mut rule.body {
            let (Lit::Pos(p) | Lit::Neg(p)) = lit else { continue };
            if p.pred(store) != Pred::new(kw::TRUE, 1) {
                continue;
            }
            let Some(inner) = inner_of(p, store) else { continue };
            if !function_of(&inner, store).is_some_and(|f| constant.contains(&f)) {
                continue;
            }
            *p = match inner {
                Inner::Id(id) => Pat::Ground(store.app(kw::INIT, &[id])),
                Inner::Pat(pat) => Pat::App(kw::INIT, vec![pat].into_boxed_slice()),
            };
            changed = true;
        }
    }
    changed
}

/// The argument of a `(true x)` or `(next x)` pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Inner {
    Id(TermId),
    Pat(Pat),
}

fn inner_of(p: &Pat, store: &TermStore) -> Option<Inner> {
    match p {
        Pat::Ground(id) => store.args(*id).first().map(|&a| Inner::Id(a)),
        Pat::App(_, args) => match args.first()? {
            Pat::Ground(id) => Some(Inner::Id(*id)),
            other => Some(Inner::Pat(other.clone())),
        },
        Pat::Var(_) => None,
    }
}

/// The function of a fluent, unless it is a variable.
fn function_of(inner: &Inner, store: &TermStore) -> Option<Pred> {
    match inner {
        Inner::Id(id) => Some(store.pred(*id)),
        Inner::Pat(Pat::Var(_)) => None,
        Inner::Pat(p) => Some(p.pred(store)),
    }
}

/// Whether `p`'s arguments are distinct variables.
fn distinct_vars(p: &Pat) -> bool {
    let Pat::App(_, args) = p else { return false };
    let mut seen = HashSet::new();
    args.iter().all(|a| matches!(a, Pat::Var(v) if seen.insert(*v)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::normalize::Program;
    use crate::symbol::Sym;

    fn rewritten(text: &str) -> (bool, Program) {
        let game = Game::parse(text).unwrap();
        let mut program = Program::new(&game);
        let changed = inline_constant_fluents(&mut program.rules, &mut program.store);
        (changed, program)
    }

    fn reads(program: &Program, name: Sym) -> usize {
        let preds = program.rules.iter().flat_map(|r| &r.body);
        preds.filter(|l| matches!(l, Lit::Pos(p) | Lit::Neg(p) if p.pred(&program.store).name == name)).count()
    }

    const WALLS: &str = "(role r) (init (at 1)) (init (wall 3)) (init blocked) (succ 1 2) (succ 2 3)
        (<= (next (wall ?x)) (true (wall ?x))) (<= (next blocked) (true blocked))
        (<= (legal r (go ?y)) (true (at ?x)) (succ ?x ?y) (not (true (wall ?y))) (not (true blocked)))
        (<= (legal r stay) (true (at ?x)))
        (<= (next (at ?y)) (does r (go ?y))) (<= (next (at ?x)) (does r stay) (true (at ?x)))
        (<= terminal (true (at 3))) (goal r 100)";

    #[test]
    fn fluents_only_carried_over_are_read_from_init() {
        let (changed, program) = rewritten(WALLS);
        assert!(changed);
        // `at` changes; `wall` and `blocked` never do: the frame rules and
        // the legal rule read them from `init`.
        assert_eq!(reads(&program, kw::TRUE), 4, "`at` in two legal rules, a next rule and terminal");
        assert_eq!(reads(&program, kw::INIT), 4);
    }

    #[test]
    fn fluents_that_can_change_are_left_alone() {
        let built = WALLS.replace("(goal r 100)", "(goal r 100) (<= (next (wall 2)) (does r stay))");
        let (_, program) = rewritten(&built);
        assert_eq!(reads(&program, kw::TRUE), 6, "only `blocked` is constant");
        // A frame rule that keeps only some of a function's fluents.
        let partial = WALLS.replace("(<= (next (wall ?x)) (true (wall ?x)))", "(<= (next (wall 3)) (true (wall 3)))");
        let (_, program) = rewritten(&partial);
        assert_eq!(reads(&program, kw::TRUE), 6);
        // A `next` rule whose fluent is a variable could make anything.
        let any = WALLS.replace("(goal r 100)", "(goal r 100) (<= (next ?x) (true (at ?x)))");
        let (changed, _) = rewritten(&any);
        assert!(!changed);
    }
}
