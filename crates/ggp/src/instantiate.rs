//! The last step of grounding: each rule instantiated against everything
//! that can ever hold, leaving the ground rules of the network — on both
//! cores where there are two, with the result the sequential one.
//!
//! Two rules can give the same ground rule only if their heads are of the
//! same relation, so the rules are parted by their head's relation: each
//! part is instantiated in rule order by one thread, which drops the ground
//! rules it has already found, and the parts' rules are then put back in
//! the order of the rules. The ground rules, and their order, are those of
//! instantiating every rule in turn on one thread.
//!
//! The deadline and the cancellation of the request are checked as the
//! joins try candidates ([`Join::within`]) and as the instances are kept
//! (every [`CHECK_EVERY`](crate::datalog::CHECK_EVERY) of either): once
//! they are reached, every thread stops and there are no ground rules.

use std::hash::Hasher;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use crate::compile_error::CompileError;
use crate::datalog::{Budget, Join, Model, Negation, PeriodicCheck, Plan, find_instance};
use crate::ground::{GroundRule, GroundRules};
use crate::hash::{FastMap, WordHasher};
use crate::limits::Limits;
use crate::normalize::{Lit, NRule, Pat};
use crate::store::{Pred, TermId, TermStore};

/// What the instantiation reads: the atoms that can ever hold and how
/// each relation is to be read.
pub(crate) struct Against<'a> {
    pub(crate) store: &'a TermStore,
    /// Everything that can ever hold (with the indexes of the plans built).
    pub(crate) domain: &'a Model,
    /// Whether a relation depends on the state (its literals stay in the
    /// ground rules).
    pub(crate) is_dynamic: &'a (dyn Fn(Pred) -> bool + Sync),
    /// Whether a relation is a demand relation (its literals are dropped).
    pub(crate) is_demand: &'a (dyn Fn(Pred) -> bool + Sync),
    /// Whether a negative literal's relation is checked by the join (the
    /// others are taken as true).
    pub(crate) checked: &'a (dyn Fn(Pred) -> bool + Sync),
}

/// A rule to instantiate: the rule, whether its head is a filter (its last
/// body literal), and its join plan.
pub(crate) struct ToGround {
    pub(crate) rule: NRule,
    pub(crate) filtered: bool,
    pub(crate) plan: Plan,
}

/// The ground rules of `rules`, and for each rule how many it added and
/// the seconds it took, found within `limits`.
///
/// # Errors
///
/// [`CompileError::TooLarge`] when there are more than `max_rules`,
/// [`CompileError::OutOfLimits`] when the deadline or the cancellation of
/// `limits` stops the instantiation.
pub(crate) fn instantiate_all(
    rules: &[ToGround],
    against: &Against<'_>,
    max_rules: usize,
    limits: Limits,
) -> Result<(GroundRules, Vec<(usize, f64)>), CompileError> {
    // The parts: the rules of each head relation, in order of their first.
    let mut part_of: FastMap<Pred, usize> = FastMap::default();
    let mut parts: Vec<Vec<usize>> = Vec::new();
    for (r, to_ground) in rules.iter().enumerate() {
        let k = *part_of.entry(to_ground.rule.head.pred(against.store)).or_insert_with(|| {
            parts.push(Vec::new());
            parts.len() - 1
        });
        parts[k].push(r);
    }
    // A second thread only for work worth its start (the atoms of the
    // heads' relations stand for the work).
    let work_size: usize =
        parts.iter().map(|p| against.domain.atoms(rules[p[0]].rule.head.pred(against.store)).len()).sum();
    let threads = if work_size < PARALLEL_WORK || one_thread() {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS).min(parts.len())
    };
    let next = AtomicUsize::new(0);
    // Set when a part fails: the other workers take no more parts.
    let failed = AtomicBool::new(false);
    // The first failure.
    let failure: Mutex<Option<CompileError>> = Mutex::new(None);
    let done: Mutex<Vec<Option<Part>>> = Mutex::new((0..parts.len()).map(|_| None).collect());
    let work = || {
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            if k >= parts.len() || failed.load(Ordering::Relaxed) {
                return;
            }
            match instantiate_part(rules, &parts[k], against, max_rules, limits) {
                Ok(part) => done.lock().expect("no worker panics")[k] = Some(part),
                Err(error) => {
                    failed.store(true, Ordering::Relaxed);
                    failure.lock().expect("no worker panics").get_or_insert(error);
                }
            }
        }
    };
    if threads > 1 {
        std::thread::scope(|scope| {
            // A helper that cannot be started leaves its parts to the others
            // (the parts are handed out one at a time).
            let helpers: Vec<_> = (1..threads)
                .filter_map(|_| std::thread::Builder::new().name("instantiate".into()).spawn_scoped(scope, work).ok())
                .collect();
            work();
            helpers.into_iter().for_each(|h| h.join().expect("no worker panics"));
        });
    } else {
        work();
    }
    if let Some(error) = failure.into_inner().expect("no worker panics") {
        // A stop by the limits wins over too many rules found meanwhile:
        // it ends every attempt at grounding.
        return Err(limits.exceeded().map_or(error, CompileError::OutOfLimits));
    }
    let done: Vec<Part> =
        done.into_inner().expect("no worker panics").into_iter().map(|p| p.expect("every part done")).collect();
    let total: usize = done.iter().map(|p| p.rules.len()).sum();
    if total > max_rules {
        return Err(TOO_MANY);
    }
    // Back in the order of the rules.
    let literals = done.iter().map(|p| p.rules.literal_count()).sum();
    let mut out = GroundRules::with_capacity(total, literals);
    let mut stats = vec![(0, 0.0); rules.len()];
    // For each part, its next rule and where that rule's ground rules start.
    let mut at = vec![(0usize, 0usize); done.len()];
    for (r, to_ground) in rules.iter().enumerate() {
        let k = part_of[&to_ground.rule.head.pred(against.store)];
        let (next_rule, first) = at[k];
        let (count, seconds) = done[k].per_rule[next_rule];
        out.extend_from(&done[k].rules, first..first + count);
        stats[r] = (count, seconds);
        at[k] = (next_rule + 1, first + count);
    }
    Ok((out, stats))
}

/// The error when there are more ground rules than allowed.
const TOO_MANY: CompileError = CompileError::TooLarge("the ground rules");

/// Below this many atoms in the heads' relations, one thread instantiates.
const PARALLEL_WORK: usize = 20_000;

/// Whether the tests ask for one thread whatever the work.
#[cfg(test)]
fn one_thread() -> bool {
    tests::ONE_THREAD.load(Ordering::Relaxed)
}

#[cfg(not(test))]
fn one_thread() -> bool {
    false
}

/// At most this many threads instantiate.
const MAX_THREADS: usize = 2;

/// The ground rules of one part, and for each of its rules how many it
/// added and the seconds it took.
struct Part {
    rules: GroundRules,
    per_rule: Vec<(usize, f64)>,
}

/// What a literal of a rule's body leaves in each ground rule of it.
enum Kept<'r> {
    /// Nothing: the literal does not depend on the state, or is a demand
    /// literal.
    Nothing,
    /// The atom its positive literal matched.
    Matched,
    /// Its atom, negated, where that atom can ever hold.
    Negated(&'r Pat),
}

/// The ground rules of the rules `part` (numbers in `rules`, all of one
/// head relation), each once, found within `limits`.
///
/// # Errors
///
/// As [`instantiate_all`].
fn instantiate_part(
    rules: &[ToGround],
    part: &[usize],
    against: &Against<'_>,
    max_rules: usize,
    limits: Limits,
) -> Result<Part, CompileError> {
    let Against { store, domain, is_dynamic, is_demand, checked } = *against;
    // Spends nothing: it carries the limits to the joins' scans, which
    // count their candidates in it.
    let mut scan = Budget::new(usize::MAX, usize::MAX).within(limits);
    // The instances found, counted apart: a rule without a positive literal
    // has instances without candidates.
    let mut check = PeriodicCheck::new(limits);
    let negation = Negation::Only(checked);
    let mut out = GroundRules::default();
    let mut per_rule = Vec::with_capacity(part.len());
    // The body of the instance at hand.
    let mut body: Vec<(TermId, bool)> = Vec::new();
    // Each ground rule once: the first rule with each hash, and for each rule
    // the next with the same hash.
    let mut seen: FastMap<u64, u32> = FastMap::default();
    let mut chain: Vec<u32> = Vec::new();
    const NONE: u32 = u32::MAX;
    for &r in part {
        let ToGround { rule, filtered, plan } = &rules[r];
        let clock = Instant::now();
        let before = out.len();
        // The body's own literals (the head filter, last, is not one).
        let own = rule.body.len() - usize::from(*filtered);
        let join = Join::new(store, domain, rule, &negation, plan, None).within(&scan);
        // What each body literal leaves in a ground rule, decided once for
        // the rule rather than for each instance.
        let kept: Vec<Kept<'_>> = rule.body[..own]
            .iter()
            .map(|lit| match lit {
                Lit::Pos(p) | Lit::Neg(p) if is_demand(p.pred(store)) => Kept::Nothing,
                Lit::Pos(p) if is_dynamic(p.pred(store)) => Kept::Matched,
                Lit::Neg(p) if is_dynamic(p.pred(store)) => Kept::Negated(p),
                _ => Kept::Nothing,
            })
            .collect();
        let mut overflow = false;
        let mut stopped = None;
        join.solutions(&mut |b| {
            if let Err(why) = check.step() {
                stopped = Some(why);
                return false;
            }
            // A filtered head is the atom its filter, the last literal,
            // matched: no need to look it up.
            let head =
                if *filtered { Some(join.matched(rule.body.len() - 1)) } else { find_instance(&rule.head, b, store) };
            let Some(head) = head else { return true };
            body.clear();
            for (i, kept) in kept.iter().enumerate() {
                match kept {
                    Kept::Nothing => {}
                    Kept::Matched => body.push((join.matched(i), true)),
                    Kept::Negated(p) => {
                        // What can never hold needs no test.
                        if let Some(atom) = find_instance(p, b, store).filter(|&a| domain.contains(a, store)) {
                            body.push((atom, false));
                        }
                    }
                }
            }
            let rule = GroundRule { head, body: &body };
            let key = hash_rule(rule);
            // The rules with this hash, chained through `chain`.
            let mut at = seen.get(&key).copied().unwrap_or(NONE);
            while at != NONE {
                if out.get(at as usize) == rule {
                    return true;
                }
                at = chain[at as usize];
            }
            if out.len() >= max_rules {
                overflow = true;
                return false;
            }
            chain.push(seen.insert(key, out.len() as u32).unwrap_or(NONE));
            out.push(head, &body);
            true
        });
        join.pass_tries_to(&mut scan);
        if let Some(why) = stopped.or(scan.interruption()) {
            return Err(CompileError::OutOfLimits(why));
        }
        if overflow {
            return Err(TOO_MANY);
        }
        per_rule.push((out.len() - before, clock.elapsed().as_secs_f64()));
    }
    Ok(Part { rules: out, per_rule })
}

fn hash_rule(rule: GroundRule<'_>) -> u64 {
    let mut h = WordHasher::default();
    h.write_u32(rule.head.0);
    for &(atom, positive) in rule.body {
        h.write_u32(atom.0 << 1 | u32::from(positive));
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::Canceller;
    use crate::datalog::Evaluator;
    use crate::game::Game;
    use crate::ground::{Limits as GroundLimits, Networks, ground};
    use crate::limits::OutOfLimits;
    use crate::normalize::Program;
    use std::time::Duration;

    /// Set, instantiation runs on one thread (another test running at the
    /// same time may then run on one thread too: the result is the same).
    pub(super) static ONE_THREAD: AtomicBool = AtomicBool::new(false);

    /// On two threads, the ground rules and their order are those of one
    /// thread: a game whose heads' relations are large enough for two.
    #[test]
    fn two_threads_give_the_ground_rules_of_one() {
        let numbers: String = (0..150).map(|i| format!("(index {i}) ")).collect();
        let game = Game::parse(&format!(
            "(role r) (init (at 0 0)) {numbers}
             (<= (legal r (mark ?x ?y)) (index ?x) (index ?y) (not (true (at ?x ?y))))
             (<= (legal r (wait ?x)) (index ?x) (true (at ?x ?x)))
             (<= (next (at ?x ?y)) (does r (mark ?x ?y)))
             (<= (next (at ?x ?y)) (true (at ?x ?y)) (not (does r (mark ?y ?x))))
             (<= terminal (true (at 1 1))) (goal r 100)"
        ))
        .unwrap();
        let limits = GroundLimits::new(1_000_000);
        let both = ground(&game, limits, Networks::Plain).unwrap();
        ONE_THREAD.store(true, Ordering::Relaxed);
        let one = ground(&game, limits, Networks::Plain);
        ONE_THREAD.store(false, Ordering::Relaxed);
        let one = one.unwrap();
        assert!(both.rules.len() > 60_000, "{} ground rules", both.rules.len());
        let rules = |g: &crate::ground::Grounding| -> Vec<(TermId, Vec<(TermId, bool)>)> {
            g.rules.iter().map(|r| (r.head, r.body.to_vec())).collect()
        };
        assert_eq!(rules(&both), rules(&one));
    }

    /// The number of ground rules of `(pair x y)` and `(twin x y)` (`x`
    /// and `y` distinct) over `side` cells, `(cell x)` depending on the
    /// state, instantiated within `limits` and `max_rules` — on one thread
    /// or two (`one_thread`; two relations of more than 20,000 atoms each
    /// for `side` 150).
    fn pairs(side: usize, one_thread: bool, limits: Limits, max_rules: usize) -> Result<usize, CompileError> {
        let cells: String = (0..side).map(|i| format!("(cell {i}) ")).collect();
        let text = format!(
            "{cells} (<= (pair ?x ?y) (cell ?x) (cell ?y)) (<= (twin ?x ?y) (cell ?x) (cell ?y) (distinct ?x ?y))"
        );
        let mut program = Program::new(&Game::parse(&text).expect("the generated rules parse"));
        let cell = program.symbols.lookup("cell").expect("cell");
        let mut domain = Model::default();
        let all = program.rules.clone();
        Evaluator::run_once(all, &mut program.store, &mut domain, &Negation::Exact, &mut Budget::unlimited());
        let store = &program.store;
        let to_ground: Vec<ToGround> = program
            .rules
            .iter()
            .filter(|r| !r.body.is_empty())
            .map(|rule| {
                let plan = Plan::new(rule, None, store, &|p| domain.atoms(p).len());
                domain.prepare(rule, &plan, store);
                ToGround { rule: rule.clone(), filtered: false, plan }
            })
            .collect();
        let against = Against {
            store,
            domain: &domain,
            is_dynamic: &|p: Pred| p.name == cell,
            is_demand: &|_| false,
            checked: &|_| true,
        };
        if one_thread {
            ONE_THREAD.store(true, Ordering::Relaxed);
        }
        let result = instantiate_all(&to_ground, &against, max_rules, limits);
        ONE_THREAD.store(false, Ordering::Relaxed);
        result.map(|(rules, per_rule)| {
            assert_eq!(per_rule.iter().map(|&(count, _)| count).sum::<usize>(), rules.len());
            rules.len()
        })
    }

    #[test]
    fn instantiation_stops_at_the_limits_on_one_thread_and_two() {
        let side = 150;
        let all = side * side + side * (side - 1);
        let canceller = Canceller::new();
        let cancellable = Limits::none().cancelled_by(canceller.handle());
        let passed = Limits::none().until(Instant::now() - Duration::from_millis(1));
        for one_thread in [true, false] {
            assert_eq!(pairs(side, one_thread, Limits::none(), usize::MAX), Ok(all));
            assert_eq!(pairs(side, one_thread, cancellable, usize::MAX), Ok(all));
            assert_eq!(pairs(side, one_thread, Limits::none(), all - 1), Err(TOO_MANY));
            assert_eq!(
                pairs(side, one_thread, passed, usize::MAX),
                Err(CompileError::OutOfLimits(OutOfLimits::Deadline))
            );
        }
        canceller.cancel();
        for one_thread in [true, false] {
            let stopped = pairs(side, one_thread, cancellable, usize::MAX);
            assert_eq!(stopped, Err(CompileError::OutOfLimits(OutOfLimits::Cancelled)));
            // Stopped while too many rules are found: the stop wins.
            let both = pairs(side, one_thread, cancellable, 10);
            assert_eq!(both, Err(CompileError::OutOfLimits(OutOfLimits::Cancelled)));
        }
    }
}
