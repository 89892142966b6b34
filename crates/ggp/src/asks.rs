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
/// is never shared), and some inputs are asked always.
#[derive(Debug, Clone, Default)]
pub(crate) struct AskTable {
    /// Inputs asked in every state.
    always: Vec<u32>,
    /// For each word holding ask bits: the word, its ask bits, and where
    /// the inputs of those bits (in bit order) start in `inputs`.
    words: Vec<(u32, u64, u32)>,
    inputs: Vec<u32>,
}

impl AskTable {
    /// The table of `asks`: input bits, each with its ask bit (`None`:
    /// always asked).
    pub(crate) fn new(mut asks: Vec<(u32, Option<u32>)>) -> AskTable {
        let mut table = AskTable::default();
        asks.sort_unstable_by_key(|&(input, ask)| (ask, input));
        for (input, ask) in asks {
            let Some(ask) = ask else {
                table.always.push(input);
                continue;
            };
            let (word, mask) = (ask / 64, 1u64 << (ask % 64));
            match table.words.last_mut() {
                Some((w, m, _)) if *w == word && *m & mask == 0 => *m |= mask,
                Some((w, _, _)) if *w == word => continue,
                _ => table.words.push((word, mask, table.inputs.len() as u32)),
            }
            table.inputs.push(input);
        }
        table
    }

    /// Whether no input is ever asked about.
    pub(crate) fn is_empty(&self) -> bool {
        self.always.is_empty() && self.inputs.is_empty()
    }

    /// Calls `f` with each input bit the state in `memory` asks about (its
    /// ask bits computed), until `f` returns `false`; whether it never did.
    pub(crate) fn each_asked(&self, memory: &[u64], mut f: impl FnMut(u32) -> bool) -> bool {
        if !self.always.iter().all(|&input| f(input)) {
            return false;
        }
        for &(word, mask, first) in &self.words {
            let mut set = memory[word as usize] & mask;
            while set != 0 {
                let bit = set.trailing_zeros();
                let rank = (mask & ((1u64 << bit) - 1)).count_ones();
                if !f(self.inputs[(first + rank) as usize]) {
                    return false;
                }
                set &= set - 1;
            }
        }
        true
    }
}
