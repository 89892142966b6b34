//! Arguments that only a type guards: in
//!
//! ```text
//! (<= (prereq2 ?b1 ?b0) (bit ?b1) (bit ?b0) (true (step 2)))
//! (<= (prereq2 ?b1 ?b0) (bit ?b1) (bit ?b0) (not (true (step 2)))
//!     (prereq3 ?b1 ?b0 0) (prereq3 ?b1 ?b0 1))
//! ```
//!
//! (`ruleDepthExponential`) the arguments of `prereq2` are tested by `bit`
//! and passed on to where `bit` tests them again, but what holds in a state
//! never depends on them: `(prereq2 x y)` is `(bit x)`, `(bit y)` and one
//! proposition. Grounded as written, `prereq20` alone has 2²⁰ instances, all
//! equivalent.
//!
//! An argument position of a state-dependent relation is *guarded* when in
//! every rule for it the head has a variable there (appearing once in the
//! head) that the body uses only whole, in positive unary literals of
//! relations that do not depend on the state (the guards), or at guarded
//! positions of other such relations — the same guards in every rule. The
//! relation then holds exactly when the guards hold of its guarded arguments
//! and a relation over the other arguments does: every rule is rewritten to
//! define that relation, and every use to ask it and test the guards. Only
//! relations used positively, outside recursion, and other than the
//! keywords are rewritten; decided in dependency order.
//!
//! The pass reads the compile limits every 1,024 steps — rules and literals
//! looked at, whether deciding or rewriting ([`PeriodicCheck`]): a huge
//! game's rules are stopped inside it.

use std::collections::{HashMap, HashSet};

use crate::datalog::PeriodicCheck;
use crate::limits::{Limits, OutOfLimits};
use crate::normalize::{Lit, NRule, Pat};
use crate::store::{Pred, TermStore};
use crate::symbol::{Sym, Symbols, kw};

/// The guards of each position of a relation (`None`: not guarded), sorted.
type Positions = Vec<Option<Vec<Sym>>>;

/// Rewrites `rules` as described in the module documentation, within
/// `stop` (read every 1,024 steps); `dynamic` tells which relations depend
/// on the state. Whether anything changed.
///
/// # Errors
///
/// Why `stop` ended the pass, if it did: `rules` may then be rewritten in
/// part (and `symbols` hold names no rule uses), for the caller to drop.
pub(crate) fn project_guarded_arguments(
    rules: &mut [NRule],
    dynamic: &HashSet<Pred>,
    store: &mut TermStore,
    symbols: &mut Symbols,
    stop: Limits,
) -> Result<bool, OutOfLimits> {
    let check = &mut PeriodicCheck::new(stop);
    let guarded = guarded_positions(rules, dynamic, store, check)?;
    if guarded.is_empty() {
        return Ok(false);
    }
    let projected: HashMap<Pred, Sym> =
        guarded.keys().map(|&p| (p, symbols.fresh(&format!("{} projected", symbols.name(p.name))))).collect();
    for rule in rules.iter_mut() {
        let head_pred = rule.head.pred(store);
        // The head's guarded variables disappear with their guards.
        let mut gone: Vec<u16> = Vec::new();
        if let Some(positions) = guarded.get(&head_pred) {
            let args = args_of(&rule.head, store);
            for (i, guard) in positions.iter().enumerate() {
                if guard.is_some()
                    && let Pat::Var(v) = args[i]
                {
                    gone.push(v);
                }
            }
            let kept: Vec<Pat> = args.into_iter().zip(positions).filter(|(_, g)| g.is_none()).map(|(a, _)| a).collect();
            rule.head = make(projected[&head_pred], kept, store);
        }
        let mut body = Vec::with_capacity(rule.body.len());
        for lit in std::mem::take(&mut rule.body) {
            check.step()?;
            let Lit::Pos(p) = &lit else {
                body.push(lit);
                continue;
            };
            let pred = p.pred(store);
            let args = args_of(p, store);
            let mentions_gone = |a: &Pat| matches!(a, Pat::Var(v) if gone.contains(v));
            if args.len() == 1 && mentions_gone(&args[0]) && !guarded.contains_key(&pred) {
                // A guard of a variable that disappears.
                continue;
            }
            let Some(positions) = guarded.get(&pred) else {
                body.push(lit);
                continue;
            };
            let mut kept = Vec::new();
            for (arg, guard) in args.into_iter().zip(positions) {
                match guard {
                    None => kept.push(arg),
                    Some(_) if mentions_gone(&arg) => {}
                    Some(guards) => {
                        for &g in guards {
                            body.push(Lit::Pos(make(g, vec![arg.clone()], store)));
                        }
                    }
                }
            }
            body.push(Lit::Pos(make(projected[&pred], kept, store)));
        }
        rule.body = body;
    }
    Ok(true)
}

/// The relations with guarded positions, and each position's guards; each
/// rule and literal looked at a step of `check`.
///
/// # Errors
///
/// Why `check`'s limits stopped it.
fn guarded_positions(
    rules: &[NRule],
    dynamic: &HashSet<Pred>,
    store: &TermStore,
    check: &mut PeriodicCheck,
) -> Result<HashMap<Pred, Positions>, OutOfLimits> {
    let mut rules_of: HashMap<Pred, Vec<&NRule>> = HashMap::new();
    let mut negated: HashSet<Pred> = HashSet::new();
    for rule in rules {
        check.step()?;
        rules_of.entry(rule.head.pred(store)).or_default().push(rule);
        for lit in &rule.body {
            if let Lit::Neg(p) = lit {
                negated.insert(p.pred(store));
            }
        }
    }
    let candidate = |p: &Pred| {
        dynamic.contains(p)
            && !kw::is_keyword(p.name)
            && !negated.contains(p)
            && p.arity > 0
            && p.arity != Pred::PROPOSITION
    };
    // Decided relations: their guarded positions (all `None` when there are
    // none). Relations never decided (recursive, or depending on one) have
    // none.
    let mut decided: HashMap<Pred, Positions> = HashMap::new();
    let mut pending: Vec<Pred> = rules_of.keys().copied().filter(|p| candidate(p)).collect();
    pending.sort();
    loop {
        let before = pending.len();
        // Decided in order, each decision seen by the relations after it.
        for p in std::mem::take(&mut pending) {
            let mut ready = true;
            for lit in rules_of[&p].iter().flat_map(|r| &r.body) {
                check.step()?;
                if let Lit::Pos(q) = lit
                    && candidate(&q.pred(store))
                    && !decided.contains_key(&q.pred(store))
                {
                    ready = false;
                    break;
                }
            }
            if ready {
                let positions = decide(p, &rules_of[&p], &decided, dynamic, store, check)?;
                decided.insert(p, positions);
            } else {
                pending.push(p);
            }
        }
        if pending.len() == before {
            break;
        }
    }
    decided.retain(|_, positions| positions.iter().any(Option::is_some));
    Ok(decided)
}

/// The guards of each position of `p`, given its `rules` and the relations
/// `decided` so far; each literal looked at a step of `check`.
///
/// # Errors
///
/// Why `check`'s limits stopped it.
fn decide(
    p: Pred,
    rules: &[&NRule],
    decided: &HashMap<Pred, Positions>,
    dynamic: &HashSet<Pred>,
    store: &TermStore,
    check: &mut PeriodicCheck,
) -> Result<Positions, OutOfLimits> {
    let mut positions = Vec::with_capacity(p.arity as usize);
    for i in 0..p.arity as usize {
        let mut agreed: Option<Vec<Sym>> = None;
        for rule in rules {
            let Some(guards) = guards_of(rule, i, decided, dynamic, store, check)? else {
                agreed = None;
                break;
            };
            match &agreed {
                None => agreed = Some(guards),
                Some(a) if *a == guards => {}
                Some(_) => {
                    agreed = None;
                    break;
                }
            }
        }
        positions.push(agreed);
    }
    Ok(positions)
}

/// The guards the body of `rule` puts on the variable at position `i` of its
/// head, if that variable is used only as guarded positions allow; each
/// literal looked at a step of `check`.
///
/// # Errors
///
/// Why `check`'s limits stopped it.
fn guards_of(
    rule: &NRule,
    i: usize,
    decided: &HashMap<Pred, Positions>,
    dynamic: &HashSet<Pred>,
    store: &TermStore,
    check: &mut PeriodicCheck,
) -> Result<Option<Vec<Sym>>, OutOfLimits> {
    let head = args_of(&rule.head, store);
    let Pat::Var(v) = head[i] else { return Ok(None) };
    if head.iter().enumerate().any(|(j, a)| j != i && has(a, v)) {
        return Ok(None);
    }
    let mut guards = Vec::new();
    for lit in &rule.body {
        check.step()?;
        let p = match lit {
            Lit::Pos(p) => p,
            Lit::Neg(p) if !has(p, v) => continue,
            Lit::Distinct(a, b) | Lit::Same(a, b) if !has(a, v) && !has(b, v) => continue,
            _ => return Ok(None),
        };
        if !has(p, v) {
            continue;
        }
        let pred = p.pred(store);
        let args = args_of(p, store);
        if args.len() == 1 && args[0] == Pat::Var(v) && !dynamic.contains(&pred) && !kw::is_keyword(pred.name) {
            guards.push(pred.name);
            continue;
        }
        let Some(positions) = decided.get(&pred) else { return Ok(None) };
        for (j, arg) in args.iter().enumerate() {
            if *arg == Pat::Var(v) {
                let Some(more) = positions[j].as_ref() else { return Ok(None) };
                guards.extend(more.iter().copied());
            } else if has(arg, v) {
                return Ok(None);
            }
        }
    }
    guards.sort();
    guards.dedup();
    // A variable with no guard at all would be unsafe; leave it be.
    Ok((!guards.is_empty()).then_some(guards))
}

/// Whether variable `v` occurs in `p`.
fn has(p: &Pat, v: u16) -> bool {
    let mut vars = Vec::new();
    p.vars(&mut vars);
    vars.contains(&v)
}

/// The top-level arguments of a pattern read as a sentence.
fn args_of(p: &Pat, store: &TermStore) -> Vec<Pat> {
    match p {
        Pat::Var(_) => Vec::new(),
        Pat::Ground(id) => store.args(*id).iter().map(|&a| Pat::Ground(a)).collect(),
        Pat::App(_, args) => args.to_vec(),
    }
}

/// `name` applied to `args`, ground when they all are.
fn make(name: Sym, args: Vec<Pat>, store: &mut TermStore) -> Pat {
    if args.is_empty() {
        return Pat::Ground(store.sym(name));
    }
    let ground: Option<Vec<_>> = args.iter().map(|a| if let Pat::Ground(id) = a { Some(*id) } else { None }).collect();
    match ground {
        Some(ids) => Pat::Ground(store.app(name, &ids)),
        None => Pat::App(name, args.into_boxed_slice()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::limits::tap::assert_stops_at_each_check;
    use crate::normalize::Program;
    use crate::prover::dynamic_preds;

    /// The arities of the relations the rules define, by name, after the
    /// rewriting; whether it changed anything.
    fn projected(text: &str) -> (bool, Vec<(String, u32)>) {
        let game = Game::parse(text).unwrap();
        let mut program = Program::new(&game);
        let dynamic = dynamic_preds(&program);
        let changed = project_guarded_arguments(
            &mut program.rules,
            &dynamic,
            &mut program.store,
            &mut program.symbols,
            Limits::none(),
        )
        .expect("no limits");
        let mut heads: Vec<(String, u32)> = program
            .rules
            .iter()
            .map(|r| r.head.pred(&program.store))
            .filter(|p| !kw::is_keyword(p.name))
            .map(|p| (program.symbols.name(p.name).to_string(), p.arity))
            .collect();
        heads.sort();
        heads.dedup();
        (changed, heads)
    }

    const DEPTH: &str = "(role r) (init (step 1)) (bit 0) (bit 1) (succ 1 2) (succ 2 3)
        (<= (legal r go) (p1 0)) (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
        (<= (p1 ?a) (bit ?a) (true (step 1)))
        (<= (p1 ?a) (bit ?a) (not (true (step 1))) (p2 ?a 0) (p2 ?a 1))
        (<= (p2 ?a ?b) (bit ?a) (bit ?b) (true (step 2)))
        (<= terminal (true (step 3))) (goal r 100)";

    #[test]
    fn arguments_only_a_guard_tests_are_projected_away() {
        let (changed, heads) = projected(DEPTH);
        assert!(changed);
        // `p1` and `p2`, now propositions; `bit` and `succ` as they were.
        let state: Vec<&(String, u32)> = heads.iter().filter(|(n, _)| n.starts_with('p')).collect();
        assert_eq!(state.len(), 2, "{heads:?}");
        assert!(state.iter().all(|(n, a)| n.contains("projected") && *a == Pred::PROPOSITION), "{heads:?}");
    }

    #[test]
    fn arguments_the_state_depends_on_are_kept() {
        // The argument reaches a state literal.
        let state = DEPTH.replace("(bit ?a) (bit ?b) (true (step 2))", "(bit ?a) (bit ?b) (true (step ?a))");
        let (_, heads) = projected(&state);
        assert!(heads.iter().any(|(n, a)| n.starts_with("p2 projected") && *a == 1), "{heads:?}");
        assert!(heads.iter().any(|(n, a)| n == "p1" && *a == 1), "{heads:?}");
        // Different guards in two rules of one relation.
        let differ = DEPTH.replace("(<= (p1 ?a) (bit ?a) (true (step 1)))", "(<= (p1 ?a) (succ ?a 2) (true (step 1)))");
        let (_, heads) = projected(&differ);
        assert!(heads.iter().any(|(n, a)| n == "p1" && *a == 1), "{heads:?}");
        // A relation used negatively stays as it is.
        let negated = DEPTH.replace("(<= (legal r go) (p1 0))", "(<= (legal r go) (bit ?x) (not (p1 ?x)))");
        let (_, heads) = projected(&negated);
        assert!(heads.iter().any(|(n, a)| n == "p1" && *a == 1), "{heads:?}");
        // Recursion is left alone.
        let recursive = "(role r) (init (at 1)) (n 1) (n 2) (legal r go) (<= (next (at ?x)) (true (at ?x)))
            (<= (q ?a) (n ?a) (true (at 1))) (<= (q ?a) (n ?a) (q ?a))
            (<= terminal (q 1)) (goal r 100)";
        let (changed, _) = projected(recursive);
        assert!(!changed);
    }

    /// A generated chain of `depth` relations like `ruleDepthExponential`'s,
    /// each of two arguments only `bit` tests, each rule but the last's
    /// second reading the next relation: all of them are projected, decided
    /// one a round (the deepest first).
    fn chain(depth: usize) -> String {
        let mut text = String::from(
            "(role r) (init (step 1)) (bit 0) (bit 1) (succ 1 2) (succ 2 3)
             (<= (legal r go) (p1 0 1)) (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
             (<= terminal (true (step 3))) (goal r 100)",
        );
        for i in 1..depth {
            text.push_str(&format!(
                " (<= (p{i} ?a ?b) (bit ?a) (bit ?b) (true (step 1)))
                  (<= (p{i} ?a ?b) (bit ?a) (bit ?b) (not (true (step 1))) (p{} ?a ?b))",
                i + 1
            ));
        }
        text.push_str(&format!(" (<= (p{depth} ?a ?b) (bit ?a) (bit ?b) (true (step 2)))"));
        text
    }

    /// The game in the file at `path` (under the crate).
    fn game_of_file(path: &str) -> String {
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect("the game's file")
    }

    /// Chess, ruleDepthExponential and a generated chain of 300 relations:
    /// within limits never reached, the pass rewrites each as without
    /// limits, rule for rule (the chain's relations all projected to
    /// propositions); cancelled from another thread at each of its checks
    /// in turn (the first, the last, and between), it answers
    /// [`OutOfLimits::Cancelled`] at that very check.
    #[test]
    fn the_pass_stops_at_each_of_its_checks() {
        let games = [
            ("chess", game_of_file("tests/games/chess.kif"), 1),
            ("ruleDepthExponential", game_of_file("tests/games/ruleDepthExponential.kif"), 1),
            ("chain", chain(300), 100),
        ];
        for (name, text, least) in games {
            let program = Program::new(&Game::parse(&text).expect("the game parses"));
            let dynamic = dynamic_preds(&program);
            let rewrite = |stop: Limits| -> Result<(bool, Vec<NRule>), OutOfLimits> {
                let mut copy = program.clone();
                let changed =
                    project_guarded_arguments(&mut copy.rules, &dynamic, &mut copy.store, &mut copy.symbols, stop)?;
                Ok((changed, copy.rules))
            };
            assert_stops_at_each_check(name, least, 8, rewrite);
            if name == "chain" {
                let (changed, heads) = projected(&text);
                assert!(changed);
                let projected = heads.iter().filter(|(n, a)| n.contains("projected") && *a == Pred::PROPOSITION);
                assert_eq!(projected.count(), 300, "{heads:?}");
            }
        }
    }
}
