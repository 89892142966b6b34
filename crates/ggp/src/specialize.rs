//! The next-state program specialised to one joint move.
//!
//! With the joint move fixed, most of the next-state network folds away: in
//! Nim, a heap that is not reduced is copied, the reduced heap gets a
//! constant, and control passes to the other player. What folds becomes a
//! mask (`next = state & keep | set`) and a few bit moves; what does not (a
//! Connect Four disc landing on the lowest open cell, which depends on the
//! state) stays as a small residual program. Specialisations are computed on
//! first use and cached per joint move by the [`Evaluator`](crate::Evaluator).
//!
//! A [`Specializer`] folds the whole program once with no `does` bit set;
//! a joint move then refolds only the units that read one of its `does`
//! bits, or a bit such a unit folded differently (in chess, about 840 of
//! the 4,777 units on average), and reuses the other units' folds.

use std::collections::BTreeSet;

use crate::code::{Clause, Code, Step, TermBuilder};
use crate::hash::FastMap;

/// The next state for one joint move.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    /// Per state word: the bits copied in place.
    pub(crate) keep: Box<[u64]>,
    /// Per state word: the bits set whatever the state.
    pub(crate) set: Box<[u64]>,
    /// (source state bit, destination state bit) copies between positions.
    pub(crate) moves: Box<[(u32, u32)]>,
    /// Nodes that still depend on the state; they write the next region.
    pub(crate) residual: Option<Code>,
}

/// A clause under the known bits.
enum Simplified {
    /// It holds whatever the unknown bits.
    True,
    /// It fails whatever the unknown bits.
    False,
    /// What remains to test of the unknown bits.
    Clause(Clause),
}

/// Clause `c` with the bits of `known_mask` (of values `known_val`) known.
fn simplify(c: &Clause, known_mask: &[u64], known_val: &[u64]) -> Simplified {
    let w = c.word as usize;
    let (k, v) = (known_mask[w], known_val[w]);
    if c.pos & k & !v != 0 || c.neg & k & v != 0 {
        return Simplified::False;
    }
    let any = if c.any == 0 || c.any & k & v != 0 {
        0
    } else {
        let rest = c.any & !k;
        if rest == 0 {
            return Simplified::False;
        }
        rest
    };
    let (pos, neg) = (c.pos & !k, c.neg & !k);
    if pos == 0 && neg == 0 && any == 0 {
        Simplified::True
    } else {
        Simplified::Clause(Clause { word: c.word, last: false, pos, neg, any })
    }
}

/// The terms of node `i` simplified under the known bits: `None` when the
/// node is constant true, else the remaining terms (none: constant false).
fn simplify_node(code: &Code, i: u32, known_mask: &[u64], known_val: &[u64]) -> Option<Vec<TermBuilder>> {
    let mut terms = Vec::new();
    'terms: for clauses in code.terms(i) {
        let mut kept = Vec::new();
        for c in clauses {
            match simplify(c, known_mask, known_val) {
                Simplified::True => {}
                Simplified::False => continue 'terms,
                Simplified::Clause(c) => kept.push(c),
            }
        }
        if kept.is_empty() {
            return None;
        }
        terms.push(TermBuilder::from_clauses(kept));
    }
    Some(terms)
}

/// What one node became.
enum Outcome {
    /// A constant, whatever the state.
    Const(bool),
    /// The terms that remain to test.
    Dynamic(Vec<TermBuilder>),
}

/// A unit of the next-state program as specialisation visits it: a node
/// (guarded blocks are visited node by node), or a recursive group.
#[derive(Debug, Clone, Copy)]
enum Unit {
    /// One node.
    Node(u32),
    /// The nodes `first..end`, computed to a fixpoint.
    Group { first: u32, end: u32 },
}

/// What a unit became under the known bits.
#[derive(Debug, Clone)]
enum Folded {
    /// A next-region bit (by its offset in the region) set whatever the
    /// state.
    Set(u32),
    /// A next-region bit copied from the same state bit.
    Keep(u32),
    /// A next-region bit copied from another state bit: (source state bit,
    /// destination offset).
    Move(u32, u32),
    /// Nothing to run: a next-region bit false whatever the state, or a bit
    /// outside the next region now known (recorded in the known bits).
    Gone,
    /// Nodes that still depend on the state, as (output bit, terms).
    Residual(Vec<(u32, Vec<TermBuilder>)>),
}

/// Where the next region lies: its first word and its number of words.
#[derive(Debug, Clone, Copy)]
struct Region {
    next_word: u32,
    state_words: u32,
}

impl Region {
    /// Whether word `word` is in the next region.
    fn holds(self, word: u32) -> bool {
        word >= self.next_word && word < self.next_word + self.state_words
    }
}

/// The output bit of node `i`.
fn out_bit(next: &Code, i: u32) -> u32 {
    let node = next.nodes[i as usize];
    node.word * 64 + node.mask.trailing_zeros()
}

/// Folds `unit` under the known bits; a node outside the next region
/// updates the known bits with what it became (known or not).
fn fold_unit(next: &Code, unit: Unit, known_mask: &mut [u64], known_val: &mut [u64], region: Region) -> Folded {
    match unit {
        Unit::Node(i) => {
            let node = next.nodes[i as usize];
            let out = out_bit(next, i);
            let outcome = match simplify_node(next, i, known_mask, known_val) {
                None => Outcome::Const(true),
                Some(t) if t.is_empty() => Outcome::Const(false),
                Some(t) => Outcome::Dynamic(t),
            };
            if region.holds(node.word) {
                let dst = out - region.next_word * 64;
                match outcome {
                    Outcome::Const(true) => Folded::Set(dst),
                    Outcome::Const(false) => Folded::Gone,
                    Outcome::Dynamic(terms) => {
                        let copy = match &terms[..] {
                            [t] => match t.clauses() {
                                [c] if c.neg == 0
                                    && c.any == 0
                                    && c.pos.count_ones() == 1
                                    && c.word < region.state_words =>
                                {
                                    Some(c.word * 64 + c.pos.trailing_zeros())
                                }
                                _ => None,
                            },
                            _ => None,
                        };
                        match copy {
                            Some(src) if src == dst => Folded::Keep(dst),
                            Some(src) => Folded::Move(src, dst),
                            None => Folded::Residual(vec![(out, terms)]),
                        }
                    }
                }
            } else {
                let (w, m) = (node.word as usize, node.mask);
                match outcome {
                    Outcome::Const(v) => {
                        known_mask[w] |= m;
                        if v {
                            known_val[w] |= m;
                        } else {
                            known_val[w] &= !m;
                        }
                        Folded::Gone
                    }
                    Outcome::Dynamic(terms) => {
                        known_mask[w] &= !m;
                        Folded::Residual(vec![(out, terms)])
                    }
                }
            }
        }
        Unit::Group { first, end } => {
            for i in first..end {
                let node = next.nodes[i as usize];
                known_mask[node.word as usize] &= !node.mask;
            }
            Folded::Residual(
                (first..end)
                    .map(|i| {
                        let terms = simplify_node(next, i, known_mask, known_val)
                            .unwrap_or_else(|| vec![TermBuilder::default()]);
                        (out_bit(next, i), terms)
                    })
                    .collect(),
            )
        }
    }
}

/// Specialises one next-state program to joint moves: the program folded
/// once with no `does` bit set, and which units read which bits, so that a
/// joint move refolds only the units its `does` bits reach.
#[derive(Debug, Clone)]
pub(crate) struct Specializer {
    /// Where the next region lies.
    region: Region,
    /// The program's units, in order.
    units: Vec<Unit>,
    /// Each unit folded with no `does` bit set.
    folded: Vec<Folded>,
    /// The known bits after folding every unit with no `does` bit set: the
    /// `does` words, and the bits outside the next region that folded to a
    /// constant.
    known_mask: Vec<u64>,
    /// Their values.
    known_val: Vec<u64>,
    /// By `does` bit or output bit outside the next region: the units whose
    /// terms read it, in order.
    readers: FastMap<u32, Vec<u32>>,
}

impl Specializer {
    /// Folds `next` (the next-state program, writing the next region of
    /// `state_words` words from word `next_word` of `total_words`) with
    /// the `does` words `does_words` all clear.
    pub(crate) fn new(
        next: &Code,
        total_words: usize,
        does_words: std::ops::Range<usize>,
        next_word: u32,
        state_words: u32,
    ) -> Specializer {
        let region = Region { next_word, state_words };
        let units: Vec<Unit> = next
            .steps
            .iter()
            .flat_map(|s| s.unguarded())
            .filter_map(|step| match step {
                Step::Node(i) => Some(Unit::Node(i)),
                Step::Fixpoint { first, end } => Some(Unit::Group { first, end }),
                // Expanded into its nodes by `unguarded`.
                Step::Guarded { .. } => None,
            })
            .collect();
        // The bits whose fold a joint move can change: its `does` bits and
        // the outputs of nodes outside the next region.
        let mut tracked = vec![0u64; total_words];
        for w in does_words.clone() {
            tracked[w] = !0;
        }
        for node in &next.nodes {
            if !region.holds(node.word) {
                tracked[node.word as usize] |= node.mask;
            }
        }
        let mut readers: FastMap<u32, Vec<u32>> = FastMap::default();
        for (u, unit) in units.iter().enumerate() {
            let nodes = match *unit {
                Unit::Node(i) => i..i + 1,
                Unit::Group { first, end } => first..end,
            };
            for i in nodes {
                for c in next.terms(i).flatten() {
                    let mut read = (c.pos | c.neg | c.any) & tracked[c.word as usize];
                    while read != 0 {
                        let bit = c.word * 64 + read.trailing_zeros();
                        let list = readers.entry(bit).or_default();
                        if list.last() != Some(&(u as u32)) {
                            list.push(u as u32);
                        }
                        read &= read - 1;
                    }
                }
            }
        }
        let mut known_mask = vec![0u64; total_words];
        let known_val = vec![0u64; total_words];
        for w in does_words {
            known_mask[w] = !0;
        }
        let mut s = Specializer { region, units, folded: Vec::new(), known_mask, known_val, readers };
        s.folded =
            s.units.iter().map(|&unit| fold_unit(next, unit, &mut s.known_mask, &mut s.known_val, region)).collect();
        s
    }

    /// The next state of `next` (the program [`Specializer::new`] was given)
    /// for the `does` bits `does_on` (all other `does` bits clear).
    pub(crate) fn specialize(&self, next: &Code, does_on: &[u32]) -> Spec {
        let mut known_mask = self.known_mask.clone();
        let mut known_val = self.known_val.clone();
        let mut pending = BTreeSet::new();
        for &bit in does_on {
            known_val[(bit / 64) as usize] |= 1 << (bit % 64);
            pending.extend(self.readers.get(&bit).into_iter().flatten().copied());
        }
        // Units refolded, in order (each reads only earlier units' outputs,
        // a group also its own).
        let mut refolded: Vec<(u32, Folded)> = Vec::new();
        while let Some(u) = pending.pop_first() {
            let unit = self.units[u as usize];
            let outside = match unit {
                Unit::Node(i) if !self.region.holds(next.nodes[i as usize].word) => Some(out_bit(next, i)),
                _ => None,
            };
            let known = |mask: &[u64], val: &[u64], bit: u32| {
                let (w, m) = ((bit / 64) as usize, 1u64 << (bit % 64));
                (mask[w] & m != 0, val[w] & m != 0)
            };
            let before = outside.map(|bit| known(&known_mask, &known_val, bit));
            let folded = fold_unit(next, unit, &mut known_mask, &mut known_val, self.region);
            if let (Some(bit), Some(before)) = (outside, before) {
                let after = known(&known_mask, &known_val, bit);
                // An unknown bit's value is not read: only the known ones' are.
                if after != before && (after.0 || before.0) {
                    pending.extend(self.readers.get(&bit).into_iter().flatten().copied());
                }
            }
            refolded.push((u, folded));
        }
        self.assemble(&refolded)
    }

    /// The [`Spec`] of every unit's fold with no `does` bit set, except the
    /// units of `refolded` (in order), which folded as given.
    fn assemble(&self, refolded: &[(u32, Folded)]) -> Spec {
        let state_words = self.region.state_words;
        let in_next = |word: u32| self.region.holds(word);
        let mut keep = vec![0u64; state_words as usize];
        let mut set = vec![0u64; state_words as usize];
        let mut moves = Vec::new();
        // Residual nodes, in order, as (output bit, terms, group).
        let mut residual: Vec<(u32, &[TermBuilder], Option<usize>)> = Vec::new();
        let mut changed = refolded.iter().peekable();
        for (u, base) in self.folded.iter().enumerate() {
            let folded = match changed.peek() {
                Some((v, f)) if *v as usize == u => {
                    changed.next();
                    f
                }
                _ => base,
            };
            match folded {
                Folded::Set(dst) => set[(dst / 64) as usize] |= 1 << (dst % 64),
                Folded::Keep(dst) => keep[(dst / 64) as usize] |= 1 << (dst % 64),
                Folded::Move(src, dst) => moves.push((*src, *dst)),
                Folded::Gone => {}
                Folded::Residual(nodes) => {
                    let group = matches!(self.units[u], Unit::Group { .. }).then_some(u);
                    residual.extend(nodes.iter().map(|(bit, terms)| (*bit, &terms[..], group)));
                }
            }
        }
        // Keep only the residual nodes the next state needs, walking backwards.
        let mut needed_bits = vec![0u64; self.known_mask.len()];
        let mut needed = vec![false; residual.len()];
        let mut k = residual.len();
        while k > 0 {
            // One node, or a whole fixpoint group, at a time.
            let mut start = k - 1;
            if let Some(g) = residual[k - 1].2 {
                while start > 0 && residual[start - 1].2 == Some(g) {
                    start -= 1;
                }
            }
            let wanted = residual[start..k]
                .iter()
                .any(|(bit, _, _)| in_next(bit / 64) || needed_bits[(bit / 64) as usize] & (1 << (bit % 64)) != 0);
            if wanted {
                for j in start..k {
                    needed[j] = true;
                    for t in residual[j].1 {
                        for c in t.clauses() {
                            needed_bits[c.word as usize] |= c.pos | c.neg | c.any;
                        }
                    }
                }
            }
            k = start;
        }
        let mut code = Code::default();
        let mut j = 0;
        while j < residual.len() {
            if !needed[j] {
                j += 1;
                continue;
            }
            match residual[j].2 {
                None => {
                    let n = code.push_node(residual[j].0, residual[j].1);
                    code.steps.push(Step::Node(n));
                    j += 1;
                }
                Some(g) => {
                    let first = code.nodes.len() as u32;
                    while j < residual.len() && residual[j].2 == Some(g) {
                        code.push_node(residual[j].0, residual[j].1);
                        j += 1;
                    }
                    code.steps.push(Step::Fixpoint { first, end: code.nodes.len() as u32 });
                }
            }
        }
        code.seal();
        Spec {
            keep: keep.into_boxed_slice(),
            set: set.into_boxed_slice(),
            moves: moves.into_boxed_slice(),
            residual: (!code.nodes.is_empty()).then_some(code),
        }
    }
}

impl Spec {
    /// Writes the next state of the state in `bits` into the next region.
    #[inline]
    pub(crate) fn apply(&self, bits: &mut [u64], next_word: usize) {
        for (w, (&keep, &set)) in self.keep.iter().zip(self.set.iter()).enumerate() {
            bits[next_word + w] = (bits[w] & keep) | set;
        }
        for &(src, dst) in self.moves.iter() {
            if bits[(src / 64) as usize] & (1 << (src % 64)) != 0 {
                bits[next_word + (dst / 64) as usize] |= 1 << (dst % 64);
            }
        }
        if let Some(code) = &self.residual {
            code.run(bits);
        }
    }
}
