//! Fluents that never change: the state atoms of a function that the rules
//! only ever carry over (`(<= (next (wall ?x ?y ?d)) (true (wall ?x ?y ?d)))`
//! and no other `next` rule for `wall`) hold in every reachable state exactly
//! when they hold initially. For grounding, `(true (wall …))` is then
//! `(init (wall …))`: a relation that does not depend on the state, evaluated
//! exactly, negation included — so that mummymaze's walls bound where the
//! mummy can go instead of the over-approximation letting it through every
//! wall.
//!
//! The pass reads the compile limits every 1,024 rules and literals
//! ([`PeriodicCheck`]): a huge game's rules are stopped inside it.

use std::collections::HashSet;

use crate::datalog::PeriodicCheck;
use crate::limits::{Limits, OutOfLimits};
use crate::normalize::{Lit, NRule, Pat};
use crate::store::{Pred, TermId, TermStore};
use crate::symbol::kw;

/// The functions (name and arity) whose fluents never change, each rule a
/// step of `check`.
///
/// # Errors
///
/// Why `check`'s limits stopped it.
fn constant_functions(
    rules: &[NRule],
    store: &TermStore,
    check: &mut PeriodicCheck,
) -> Result<HashSet<Pred>, OutOfLimits> {
    let mut framed: HashSet<Pred> = HashSet::new();
    let mut other: HashSet<Pred> = HashSet::new();
    for rule in rules {
        check.step()?;
        if rule.head.pred(store) != Pred::new(kw::NEXT, 1) {
            continue;
        }
        let Some(inner) = inner_of(&rule.head, store) else { return Ok(HashSet::new()) };
        let Some(f) = function_of(&inner, store) else { return Ok(HashSet::new()) };
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
    Ok(framed)
}

/// Rewrites `(true x)` to `(init x)` in every rule body where `x` is a
/// fluent that never changes, within `stop` (read every 1,024 rules and
/// literals); whether anything changed.
///
/// # Errors
///
/// Why `stop` ended the pass, if it did: `rules` may then be rewritten in
/// part (each rewriting holds alone), for the caller to drop.
pub(crate) fn inline_constant_fluents(
    rules: &mut [NRule],
    store: &mut TermStore,
    stop: Limits,
) -> Result<bool, OutOfLimits> {
    let check = &mut PeriodicCheck::new(stop);
    let constant = constant_functions(rules, store, check)?;
    if constant.is_empty() {
        return Ok(false);
    }
    let mut changed = false;
    for rule in rules.iter_mut() {
        for lit in &mut rule.body {
            check.step()?;
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
    Ok(changed)
}

/// The argument of a `(true x)` or `(next x)` pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Inner {
    /// A ground fluent.
    Id(TermId),
    /// A fluent with variables.
    Pat(Pat),
}

/// The argument of `p` read as `(true x)` or `(next x)`, unless `p` is a
/// variable or has no argument.
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
    use crate::limits::tap::assert_stops_at_each_check;
    use crate::normalize::Program;
    use crate::symbol::Sym;

    /// The program of `text`, rewritten without limits; whether the pass
    /// changed anything.
    fn rewritten(text: &str) -> (bool, Program) {
        let game = Game::parse(text).unwrap();
        let mut program = Program::new(&game);
        let changed = inline_constant_fluents(&mut program.rules, &mut program.store, Limits::none());
        (changed.expect("no limits"), program)
    }

    /// How many body literals of `program` read the relation `name`.
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

    /// A generated game with `walls` functions of constant fluents, each
    /// carried over by a frame rule and read, negated, by a legal rule: the
    /// pass rewrites thousands of rules.
    fn walled(walls: usize) -> String {
        let mut text = String::from(
            "(role r) (init (at 1)) (succ 1 2) (succ 2 3)
             (<= (next (at ?y)) (does r (go ?y))) (<= terminal (true (at 3))) (goal r 100)",
        );
        for k in 0..walls {
            text.push_str(&format!(
                " (init (wall{k} 2)) (<= (next (wall{k} ?x)) (true (wall{k} ?x)))
                 (<= (legal r (go ?y)) (true (at ?x)) (succ ?x ?y) (not (true (wall{k} ?y))))"
            ));
        }
        text
    }

    /// The program of the game in the file at `path` (under the crate).
    fn program_of_file(path: &str) -> Program {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        let text = std::fs::read_to_string(&path).expect("the game's file");
        Program::new(&Game::parse(&text).expect("the game parses"))
    }

    /// Chess (no fluent constant), mummymaze (its walls) and a generated
    /// game of 3,000 walls: within limits never reached, the pass rewrites
    /// each as without limits, rule for rule; cancelled from another thread
    /// at each of its checks in turn (the first, the last, and between), it
    /// answers [`OutOfLimits::Cancelled`] at that very check.
    #[test]
    fn the_pass_stops_at_each_of_its_checks() {
        let games = [
            ("chess", program_of_file("tests/games/chess.kif"), false, 1),
            ("mummymaze", program_of_file("tests/games/mummymaze1p.kif"), true, 1),
            ("walls", Program::new(&Game::parse(&walled(3000)).unwrap()), true, 8),
        ];
        for (name, program, constant, least) in games {
            let init_reads = reads(&program, kw::INIT);
            let rewrite = |stop: Limits| {
                let mut copy = program.clone();
                inline_constant_fluents(&mut copy.rules, &mut copy.store, stop).map(|changed| (changed, copy.rules))
            };
            let (unlimited, _) = assert_stops_at_each_check(name, least, 8, rewrite);
            assert_eq!(unlimited.0, constant, "{name}");
            assert_eq!(unlimited.1 != program.rules, constant, "{name}: rewritten only where a fluent is constant");
            if name == "walls" {
                // Each wall read from `init` by its frame rule and its legal rule.
                let rewritten = Program { rules: unlimited.1.clone(), ..program.clone() };
                assert_eq!((init_reads, reads(&rewritten, kw::INIT)), (0, 6000));
            }
        }
    }
}
