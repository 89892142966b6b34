//! Which atoms of a hybrid network's oracle a state asks about.
//!
//! A hybrid network ([`crate::hybrid`]) reads the atoms of its external
//! relations as input bits. Most of them matter in a given state only where
//! the rest of a rule that reads them holds: chess's `(part 367 white d 1 wq)`
//! (the white king safe once the queen leaves d1) only when white is to move,
//! its queen stands on d1 and `(legal2 white (move wq d 1 e 2))` holds. For
//! each external atom `e` read by the ground rules, this adds an *ask* atom
//! `(ask e)` defined by those rules' other literals — leaving out any literal
//! that depends on an external atom itself or on the joint move, so that the asks are computed by
//! the network before the oracle runs ([`crate::circuit`] puts them in a
//! program of their own). Dropping literals only widens what is asked, so an
//! external atom whose ask is false in a state does not change any rule that
//! reads it: its bit may stay clear.
//!
//! An ask also carries what the external atom itself *needs* of the state,
//! read from the external relation's own rules: each of them requires some
//! state literal `(true p)`, and the atom's arguments narrow which base
//! propositions `p` can match. Chess's `(part 363 white e 4 e 2 wq)` (white
//! blocks a rook's check by moving its queen from e2 to e4) needs some `(check
//! white rook ?x ?y)`: white's 26 or so candidate moves were each asked four
//! such times in every state, and answered false but when in check. The
//! needs are ORs of the matching base propositions, one atom per set (so
//! shared by every ask with that set); an atom whose rules can match none
//! is never asked. A rule without a state literal, or a need of more than
//! [`NEED_MOST`] propositions, adds nothing; nor does a need the initial
//! state has (chess's "the king stands somewhere", met in every state:
//! a test on tens of thousands of asks that never fails), nor one the ask
//! already reads.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::datalog::{PeriodicCheck, match_pat};
use crate::ground::Grounding;
use crate::limits::{Limits, OutOfLimits};
use crate::normalize::{Lit, NRule, Pat};
use crate::store::{Pred, TermId, TermStore};
use crate::symbol::kw;

/// The name of the ask relation (with a space, so no rule sheet can use it).
const ASK: &str = "ask external";

/// Adds to `g`'s ground rules the ask rules of the atoms of the external
/// relations `asked`, and records the ask relation in `g`; returns the
/// number of rules added. Ground rules that read no such atom add nothing.
/// (The tests' way; a compilation adds them within its limits,
/// [`add_asks_within`].)
#[cfg(test)]
pub(crate) fn add_asks(g: &mut Grounding, asked: &HashSet<Pred>) -> usize {
    crate::limits::unlimited(add_asks_within(g, asked, Limits::none()))
}

/// As [`add_asks`], stopped by the deadline or the cancellation of `stop`
/// (read every [`CHECK_EVERY`](crate::datalog::CHECK_EVERY) rules of a
/// pass): then `g` is to be dropped, its asks perhaps begun.
pub(crate) fn add_asks_within(g: &mut Grounding, asked: &HashSet<Pred>, stop: Limits) -> Result<usize, OutOfLimits> {
    if asked.is_empty() {
        return Ok(0);
    }
    let check = &mut PeriodicCheck::new(stop);
    let dependent = depending_on_externals(g, check)?;
    let ask = g.symbols.fresh(ASK);
    g.ask = Some(ask);
    let mut added = Vec::new();
    for rule in g.rules.iter() {
        check.step()?;
        let reads_asked = |&(t, _): &(TermId, bool)| asked.contains(&g.store.pred(t));
        if !rule.body.iter().any(reads_asked) {
            continue;
        }
        let free: Vec<(TermId, bool)> = rule.body.iter().copied().filter(|&(t, _)| !dependent[t.0 as usize]).collect();
        for &(e, _) in rule.body.iter().filter(|l| reads_asked(l)) {
            added.push((e, free.clone()));
        }
    }
    let count = added.len();
    let mut needs = Needs::new(g, asked);
    // The atom of each set of base propositions needed (one proposition is
    // its own `true` literal), and the atom that never holds.
    let mut need_atoms: HashMap<Rc<[TermId]>, TermId> = HashMap::new();
    let mut never = None;
    let mut need_of: HashMap<TermId, Option<(TermId, bool)>> = HashMap::new();
    let initial: HashSet<TermId> = g.init.iter().copied().collect();
    for (e, mut body) in added {
        check.step()?;
        let need = match need_of.get(&e) {
            Some(&need) => need,
            None => {
                let need = match needs.of(&g.store, e, check)? {
                    None => None,
                    // What the initial state already has is taken to be had
                    // often: a test on every ask that seldom fails.
                    Some(props) if props.iter().any(|p| initial.contains(p)) => None,
                    Some(props) => Some(match props.len() {
                        0 => (*never.get_or_insert_with(|| g.store.sym(g.symbols.fresh(NEVER))), true),
                        1 => (g.store.app(kw::TRUE, &[props[0]]), true),
                        _ => match need_atoms.get(&props) {
                            Some(&atom) => (atom, true),
                            None => {
                                let atom = g.store.sym(g.symbols.fresh(NEED));
                                for &p in props.iter() {
                                    let truth = g.store.app(kw::TRUE, &[p]);
                                    g.rules.push(atom, &[(truth, true)]);
                                }
                                need_atoms.insert(props, atom);
                                (atom, true)
                            }
                        },
                    }),
                };
                need_of.insert(e, need);
                need
            }
        };
        body.extend(need.filter(|n| !body.contains(n)));
        let head = g.store.app(ask, &[e]);
        g.rules.push(head, &body);
    }
    Ok(count)
}

/// The state bits one of which an external atom needs, grouped by word as
/// (word, mask) ([`state_needs`]).
pub(crate) type StateNeed = Box<[(u32, u64)]>;

/// What each of the external atoms `atoms` (of `g`'s store) needs of the
/// state, as for the asks: the state bits (by `base`, each state bit's base
/// proposition) one of which it needs, grouped by word as (word, mask); an
/// empty list when it can never hold, `None` when it needs none that the
/// rules tell. A step of `check` per rule and literal read.
pub(crate) fn state_needs(
    g: &Grounding,
    atoms: &[TermId],
    base: &[TermId],
    stop: Limits,
) -> Result<Vec<Option<StateNeed>>, OutOfLimits> {
    let check = &mut PeriodicCheck::new(stop);
    let preds: HashSet<Pred> = atoms.iter().map(|&a| g.store.pred(a)).collect();
    let mut needs = Needs::new(g, &preds);
    let bit_of: HashMap<TermId, u32> = base.iter().enumerate().map(|(i, &p)| (p, i as u32)).collect();
    let mut out = Vec::with_capacity(atoms.len());
    for &atom in atoms {
        let Some(props) = needs.of(&g.store, atom, check)? else {
            out.push(None);
            continue;
        };
        let mut groups: Vec<(u32, u64)> = Vec::new();
        for bit in props.iter().filter_map(|p| bit_of.get(p)) {
            let (word, mask) = (bit / 64, 1u64 << (bit % 64));
            match groups.iter_mut().find(|(w, _)| *w == word) {
                Some((_, m)) => *m |= mask,
                None => groups.push((word, mask)),
            }
        }
        out.push(Some(groups.into()));
    }
    Ok(out)
}

/// The name of the atoms of what external atoms need (with a space, as [`ASK`]).
const NEED: &str = "ask needs";

/// The name of the atom with no rules, needed by the external atoms that can
/// never hold.
const NEVER: &str = "ask never";

/// At most this many base propositions make an atom's need (a larger one
/// would rarely be false, and costs an OR of that many inputs).
pub(crate) const NEED_MOST: usize = 64;

/// What the atoms of the external relations asked need of the state, from
/// the relations' own rules ([`Grounding::oracle_rules`]).
struct Needs {
    /// The rules of each external relation asked.
    rules: HashMap<Pred, Rc<[NRule]>>,
    /// The base propositions that can ever hold (those true initially and
    /// those some rule makes next), by relation.
    base: HashMap<Pred, Vec<TermId>>,
    /// The small static relations known in full ([`STATIC_MOST`] atoms at
    /// most, none defined by a rule of the oracle's).
    statics: HashMap<Pred, Vec<TermId>>,
    /// The base propositions a state literal of a rule matches, by the
    /// relation, the rule, the literal and the values its variables and
    /// those of the static literals joined with it take from the head.
    matches: HashMap<LiteralKey, Rc<[TermId]>>,
}

/// The largest static relation joined with a state literal when narrowing
/// what it can match.
const STATIC_MOST: usize = 256;

/// The most steps a join of static literals may take for one base
/// proposition before the proposition is kept unjoined.
const JOIN_STEPS: usize = 10_000;

/// A state literal of an external relation's rule (the relation, the rule's
/// number among its rules, the literal's in the body) with the values its
/// variables, and those of the static literals joined with it, take from
/// the head.
type LiteralKey = (Pred, usize, usize, Vec<Option<TermId>>);

impl Needs {
    /// The needs of the atoms of the relations `asked` of `g`.
    fn new(g: &Grounding, asked: &HashSet<Pred>) -> Needs {
        let mut rules: HashMap<Pred, Vec<NRule>> = HashMap::new();
        for rule in &g.oracle_rules {
            let pred = rule.head.pred(&g.store);
            if asked.contains(&pred) {
                rules.entry(pred).or_default().push(rule.clone());
            }
        }
        let rules = rules.into_iter().map(|(p, r)| (p, r.into())).collect();
        let next = Pred::new(kw::NEXT, 1);
        let mut props: HashSet<TermId> = g.init.iter().copied().collect();
        props.extend(g.rules.iter().filter(|r| g.store.pred(r.head) == next).map(|r| g.store.args(r.head)[0]));
        let mut base: HashMap<Pred, Vec<TermId>> = HashMap::new();
        for p in props {
            base.entry(g.store.pred(p)).or_default().push(p);
        }
        let defined: HashSet<Pred> = g.oracle_rules.iter().map(|r| r.head.pred(&g.store)).collect();
        let statics = g
            .statics
            .preds()
            .filter(|p| !defined.contains(p) && g.statics.atoms(*p).len() <= STATIC_MOST)
            .map(|p| (p, g.statics.atoms(p).to_vec()))
            .collect();
        Needs { rules, base, statics, matches: HashMap::new() }
    }

    /// The base propositions one of which the external atom `e` needs
    /// (sorted; empty when it can never hold), or `None` when it needs none
    /// that this can tell. A step of `check` per rule and literal read.
    fn of(
        &mut self,
        store: &TermStore,
        e: TermId,
        check: &mut PeriodicCheck,
    ) -> Result<Option<Rc<[TermId]>>, OutOfLimits> {
        let pred = store.pred(e);
        let Some(rules) = self.rules.get(&pred).cloned() else { return Ok(None) };
        let mut all: Vec<TermId> = Vec::new();
        for (r, rule) in rules.iter().enumerate() {
            check.step()?;
            let mut b = vec![None; rule.vars];
            if !match_pat(store, &rule.head, e, &mut b, &mut Vec::new()) {
                continue;
            }
            // The state literal of the rule that matches the fewest.
            let mut fewest: Option<Rc<[TermId]>> = None;
            for (k, lit) in rule.body.iter().enumerate() {
                let Lit::Pos(Pat::App(name, args)) = lit else { continue };
                if *name != kw::TRUE || args.len() != 1 {
                    continue;
                }
                check.step()?;
                let found = self.matching(store, (pred, r, k), rule, &b);
                if fewest.as_ref().is_none_or(|f| found.len() < f.len()) {
                    fewest = Some(found);
                }
            }
            match fewest {
                Some(found) if found.len() <= NEED_MOST => all.extend(found.iter()),
                _ => return Ok(None),
            }
            if all.len() > NEED_MOST {
                return Ok(None);
            }
        }
        all.sort_unstable();
        all.dedup();
        Ok(Some(all.into()))
    }

    /// The base propositions the state literal `at` (relation, rule,
    /// literal) of `rule` can match under the head's bindings `b`: those
    /// its pattern matches and for which the small static literals joined
    /// with it through their variables have a solution.
    fn matching(
        &mut self,
        store: &TermStore,
        at: (Pred, usize, usize),
        rule: &NRule,
        b: &[Option<TermId>],
    ) -> Rc<[TermId]> {
        let Lit::Pos(Pat::App(_, args)) = &rule.body[at.2] else { return Rc::from([]) };
        let p = &args[0];
        let joined = self.joined_statics(store, rule, p);
        let mut vars = Vec::new();
        p.vars(&mut vars);
        joined.iter().for_each(|s| s.vars(&mut vars));
        let key = (at.0, at.1, at.2, vars.iter().map(|&v| b[v as usize]).collect::<Vec<_>>());
        if let Some(found) = self.matches.get(&key) {
            return Rc::clone(found);
        }
        let mut found = Vec::new();
        let candidates = match p {
            Pat::Var(_) => self.base.values().flatten().copied().collect(),
            _ => self.base.get(&p.pred(store)).cloned().unwrap_or_default(),
        };
        let mut scratch = b.to_vec();
        let mut trail = Vec::new();
        for x in candidates {
            if match_pat(store, p, x, &mut scratch, &mut trail)
                && self.join(store, &joined, &mut scratch, &mut JOIN_STEPS.clone())
            {
                found.push(x);
            }
            for v in trail.drain(..) {
                scratch[v as usize] = None;
            }
        }
        let found: Rc<[TermId]> = found.into();
        self.matches.insert(key, Rc::clone(&found));
        found
    }

    /// The patterns of `rule`'s positive literals of small static relations
    /// that share a variable with `p`, directly or through one another.
    fn joined_statics(&self, store: &TermStore, rule: &NRule, p: &Pat) -> Vec<Pat> {
        let mut vars = Vec::new();
        p.vars(&mut vars);
        let mut left: Vec<&Pat> = rule
            .body
            .iter()
            .filter_map(|l| match l {
                Lit::Pos(s @ Pat::App(..)) if self.statics.contains_key(&s.pred(store)) => Some(s),
                _ => None,
            })
            .collect();
        let mut joined = Vec::new();
        loop {
            let Some(at) = left.iter().position(|s| {
                let mut own = Vec::new();
                s.vars(&mut own);
                own.iter().any(|v| vars.contains(v))
            }) else {
                return joined;
            };
            let s = left.swap_remove(at);
            s.vars(&mut vars);
            joined.push(s.clone());
        }
    }

    /// Whether the static literals `lits` have a solution extending `b`
    /// (restored on return); `true` too once `steps` run out.
    fn join(&self, store: &TermStore, lits: &[Pat], b: &mut [Option<TermId>], steps: &mut usize) -> bool {
        let Some((first, rest)) = lits.split_first() else { return true };
        let mut trail = Vec::new();
        for &atom in &self.statics[&first.pred(store)] {
            if *steps == 0 {
                return true;
            }
            *steps -= 1;
            let matched = match_pat(store, first, atom, b, &mut trail);
            let solved = matched && self.join(store, rest, b, steps);
            for v in trail.drain(..) {
                b[v as usize] = None;
            }
            if solved {
                return true;
            }
        }
        false
    }
}

/// For each term of `g`'s store, whether it is an atom of an external
/// relation or of `does`, or the head of a ground rule that reads one,
/// directly or not (the asks are computed before the oracle runs, and in
/// the state alone). A step of `check` per rule of each pass.
fn depending_on_externals(g: &Grounding, check: &mut PeriodicCheck) -> Result<Vec<bool>, OutOfLimits> {
    let does = Pred::new(kw::DOES, 2);
    let mut dependent = vec![false; g.store.len()];
    for rule in g.rules.iter() {
        check.step()?;
        for &(t, _) in rule.body {
            let pred = g.store.pred(t);
            if pred == does || g.externals.contains(&pred) {
                dependent[t.0 as usize] = true;
            }
        }
    }
    // Rules are not ordered by dependency: passes until nothing changes
    // (as many as the longest chain of derived atoms above an external).
    loop {
        let mut changed = false;
        for rule in g.rules.iter() {
            check.step()?;
            let h = rule.head.0 as usize;
            if !dependent[h] && rule.body.iter().any(|&(t, _)| dependent[t.0 as usize]) {
                dependent[h] = true;
                changed = true;
            }
        }
        if !changed {
            return Ok(dependent);
        }
    }
}

/// The input bits a network asks about, grouped for a quick pass over the
/// words of the ask bits: each ask bit stands for one input bit (an ask atom
/// is never shared), and some inputs are asked always. The circuit lays the
/// asks out as the inputs are ([`crate::circuit`]), so that the asks of one
/// word stand for the inputs of one word, at the same distance from them:
/// a pass reads the ask words in order and finds each input by adding that
/// distance, with no table of inputs to look up.
#[derive(Debug, Clone, Default)]
pub(crate) struct AskTable {
    /// Inputs asked in every state.
    always: Vec<u32>,
    /// The ask bits, by word and distance to their inputs.
    groups: Vec<AskGroup>,
}

/// Ask bits of one word whose inputs lie at the same distance from them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct AskGroup {
    /// The word of the ask bits.
    word: u32,
    /// The input bit of each ask bit less the ask bit.
    distance: i32,
    /// The ask bits in that word.
    mask: u64,
}

impl AskTable {
    /// The table of `asks`: input bits, each with its ask bit (`None`:
    /// always asked). An ask bit given twice stands for its first input.
    pub(crate) fn new(mut asks: Vec<(u32, Option<u32>)>) -> AskTable {
        let mut table = AskTable::default();
        asks.sort_unstable_by_key(|&(input, ask)| (ask, input));
        let mut last_ask = None;
        for (input, ask) in asks {
            let Some(ask) = ask else {
                table.always.push(input);
                continue;
            };
            if last_ask == Some(ask) {
                continue;
            }
            last_ask = Some(ask);
            let (word, mask) = (ask / 64, 1u64 << (ask % 64));
            let distance = i32::try_from(i64::from(input) - i64::from(ask)).expect("bits within an i32 of each other");
            match table.groups.iter_mut().rev().take_while(|g| g.word == word).find(|g| g.distance == distance) {
                Some(group) => group.mask |= mask,
                None => table.groups.push(AskGroup { word, distance, mask }),
            }
        }
        table
    }

    /// Whether no input is ever asked about.
    pub(crate) fn is_empty(&self) -> bool {
        self.always.is_empty() && self.groups.is_empty()
    }

    /// Calls `f` with each input bit the state in `memory` asks about (its
    /// ask bits computed), until `f` returns `false`; whether it never did.
    pub(crate) fn each_asked(&self, memory: &[u64], mut f: impl FnMut(u32) -> bool) -> bool {
        if !self.always.iter().all(|&input| f(input)) {
            return false;
        }
        for group in &self.groups {
            let mut set = memory[group.word as usize] & group.mask;
            while set != 0 {
                let ask = group.word * 64 + set.trailing_zeros();
                if !f(ask.wrapping_add_signed(group.distance)) {
                    return false;
                }
                set &= set - 1;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Random tables — asks laid out as their inputs (one distance per
    /// word), scattered (several distances in a word), some inputs always
    /// asked — report on random memories exactly the inputs whose ask bit
    /// is set, plus those always asked, as a plain pass over the pairs
    /// finds them; and stop where `f` says so.
    #[test]
    fn each_asked_reports_the_inputs_of_the_ask_bits_set() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(41);
        let (mut reported_in_all, mut several_distances) = (0, 0);
        for round in 0..300 {
            let inputs: Vec<u32> = (0..rng.random_range(1..400)).map(|k| 64 * 40 + k).collect();
            let laid_out = round % 2 == 0;
            let mut free_asks: Vec<u32> = (64 * 4..64 * 30).collect();
            let mut asks: Vec<(u32, Option<u32>)> = Vec::new();
            for &input in &inputs {
                if rng.random_ratio(1, 10) {
                    continue;
                }
                let ask = if rng.random_ratio(1, 20) {
                    None
                } else if laid_out {
                    Some(input - 64 * 30)
                } else {
                    Some(free_asks.swap_remove(rng.random_range(0..free_asks.len())))
                };
                asks.push((input, ask));
            }
            let table = AskTable::new(asks.clone());
            let words: std::collections::HashSet<u32> = table.groups.iter().map(|g| g.word).collect();
            several_distances += usize::from(words.len() < table.groups.len());
            for _ in 0..10 {
                let memory: Vec<u64> = (0..64).map(|_| rng.random::<u64>() & rng.random::<u64>()).collect();
                let set = |bit: u32| memory[(bit / 64) as usize] >> (bit % 64) & 1 == 1;
                let mut expected: Vec<u32> =
                    asks.iter().filter(|&&(_, ask)| ask.is_none_or(set)).map(|&(input, _)| input).collect();
                let mut reported = Vec::new();
                assert!(table.each_asked(&memory, |input| {
                    reported.push(input);
                    true
                }));
                expected.sort_unstable();
                reported.sort_unstable();
                assert_eq!(reported, expected);
                reported_in_all += reported.len();
                // Stopped after the first input reported, if any.
                let mut calls = 0;
                let finished = table.each_asked(&memory, |_| {
                    calls += 1;
                    false
                });
                assert_eq!((finished, calls), (expected.is_empty(), usize::from(!expected.is_empty())));
            }
        }
        assert!(reported_in_all > 50_000 && several_distances > 100, "{reported_in_all} reported, {several_distances}");
    }
}
