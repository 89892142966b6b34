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

use std::collections::HashSet;

use crate::datalog::PeriodicCheck;
use crate::ground::Grounding;
use crate::limits::{Limits, OutOfLimits};
use crate::store::{Pred, TermId};
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
    for (e, body) in added {
        check.step()?;
        let head = g.store.app(ask, &[e]);
        g.rules.push(head, &body);
    }
    Ok(count)
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
