//! The next-state program specialised to one joint move.
//!
//! With the joint move fixed, most of the next-state network folds away: in
//! Nim, a heap that is not reduced is copied, the reduced heap gets a
//! constant, and control passes to the other player. What folds becomes a
//! mask (`next = state & keep | set`) and bit copies, gathered by source
//! word, destination word and distance ([`WordMove`]: a next bit copied
//! from another state bit, or from an input bit the oracle of a hybrid
//! network answered — chess's `(next (check …))` — from any bit the
//! next-state program does not itself compute); what does not (a Connect
//! Four disc landing on the lowest open cell, which depends on the state)
//! stays as a small residual program. Specialisations are computed on first
//! use and cached per joint move by the [`Evaluator`](crate::Evaluator).
//!
//! A [`Specializer`] folds the whole program once with no `does` bit set,
//! then, at the first joint move it specialises, refolds it to that move's
//! `does` bits, the *reference*. Each later joint move refolds only the
//! units that read a `does` bit in which it differs from the reference, or
//! a bit such a unit folded differently, and reuses the other units' folds
//! and their assembly. From no `does` bit, every chess move reached about
//! 840 of the 4,777 units (that some piece moved, and what follows on every
//! square); from the reference, about 120. A [`Spec`] shares the
//! reference's masks and copies with every other (chess's 586 copied bits,
//! about 190 word copies, 4.6 KB, were each move's own) and keeps only the
//! words its refolded units change, its own copies and its residual nodes.

use crate::code::{Clause, Code, Node, Step, TermBuilder};
use crate::hash::FastMap;
use std::sync::Arc;

/// The next state for one joint move: the reference's fold, shared by every
/// joint move a [`Specializer`] specialises, patched where this move's fold
/// differs from it.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    /// The reference's masks and copies, shared (in chess, about 190
    /// copies of `(next (check …))` bits from the oracle's inputs: read by
    /// every joint move, so they stay in the cache, where a copy per move
    /// did not).
    pub(crate) shared: Arc<SharedFold>,
    /// The words of the next region where this move's fold differs from the
    /// reference's, in order.
    pub(crate) patches: Box<[Patch]>,
    /// Bits copied from elsewhere besides the shared ones, a word's worth at
    /// a time.
    pub(crate) moves: Box<[WordMove]>,
    /// Nodes that still depend on the state; they write the next region.
    /// Shared with every other joint move whose residual nodes are the
    /// same (in chess, 5,661 joint moves had 676 residual programs).
    pub(crate) residual: Option<Arc<Code>>,
}

/// The part of the reference's fold (see [`Specializer::reference`]) every
/// [`Spec`] starts from.
#[derive(Debug, Clone)]
pub(crate) struct SharedFold {
    /// Per state word: the bits copied in place.
    pub(crate) keep: Box<[u64]>,
    /// Per state word: the bits set whatever the state.
    pub(crate) set: Box<[u64]>,
    /// Bits copied from elsewhere (another position of the state, or an
    /// input the oracle answered), a word's worth at a time.
    pub(crate) moves: Box<[WordMove]>,
}

/// A word of the next region where a joint move's fold differs from the
/// reference's: `next = next & !clear | state & keep | set`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Patch {
    /// The word, by its offset in the next region.
    pub(crate) word: u32,
    /// The bits of the units this move refolds that the reference's fold
    /// wrote (kept, set or copied): cleared before this move's own are
    /// written.
    pub(crate) clear: u64,
    /// The bits copied in place.
    pub(crate) keep: u64,
    /// The bits set whatever the state.
    pub(crate) set: u64,
}

/// Copies of next-region bits from bits of one source word that lie at
/// the same distance (modulo 64) from their destinations in one word of the
/// next region: `next[dst] |= (bits[src] & mask).rotate_left(rotate)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WordMove {
    /// The source word (anywhere in memory but the next region and the
    /// outputs of the next-state program).
    pub(crate) src: u32,
    /// The destination word, by its offset in the next region.
    pub(crate) dst: u32,
    /// The source bits copied.
    pub(crate) mask: u64,
    /// How far each bit moves up (modulo 64) from source to destination.
    pub(crate) rotate: u32,
}

/// The copies `moves` ((source bit, destination offset in the next region)
/// pairs) gathered into [`WordMove`]s: one per source word, destination
/// word and distance.
fn word_moves(moves: &[(u32, u32)]) -> Vec<WordMove> {
    let mut by_key: Vec<((u32, u32, u32), u64)> = moves
        .iter()
        .map(|&(src, dst)| ((src / 64, dst / 64, (dst % 64 + 64 - src % 64) % 64), 1u64 << (src % 64)))
        .collect();
    by_key.sort_unstable_by_key(|&(key, _)| key);
    let mut gathered: Vec<WordMove> = Vec::new();
    for ((src, dst, rotate), bit) in by_key {
        match gathered.last_mut() {
            Some(m) if (m.src, m.dst, m.rotate) == (src, dst, rotate) => m.mask |= bit,
            _ => gathered.push(WordMove { src, dst, mask: bit, rotate }),
        }
    }
    gathered
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
    /// A next-region bit copied from another bit the next-state program
    /// does not compute (a state bit, an input): (source bit, destination
    /// offset).
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

/// The one bit a node's `terms` copy, if they are a single test that one
/// bit is set (as a required bit, or as the only bit of "one of these")
/// and that bit is not in `computed` (bits written by the next-state
/// program, which a copy made before its residual nodes run would read
/// stale).
fn copied_bit(terms: &[TermBuilder], computed: &[u64]) -> Option<u32> {
    let [term] = terms else { return None };
    let [c] = term.clauses() else { return None };
    let bits = c.pos | c.any;
    let single = c.neg == 0 && bits.count_ones() == 1 && (c.pos == 0 || c.any == 0);
    (single && computed[c.word as usize] & bits == 0).then(|| c.word * 64 + bits.trailing_zeros())
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
/// updates the known bits with what it became (known or not). `computed`
/// holds the output bits of `next`'s nodes.
fn fold_unit(
    next: &Code,
    unit: Unit,
    known_mask: &mut [u64],
    known_val: &mut [u64],
    region: Region,
    computed: &[u64],
) -> Folded {
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
                    Outcome::Dynamic(terms) => match copied_bit(&terms, computed) {
                        Some(src) if src == dst => Folded::Keep(dst),
                        Some(src) => Folded::Move(src, dst),
                        None => Folded::Residual(vec![(out, terms)]),
                    },
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

/// What the reference fold ([`Specializer::folded`]) gives before any unit
/// is refolded: the units folded to a constant or a bit kept in place, as
/// masks, and the others listed.
#[derive(Debug, Clone, Default)]
struct Assembly {
    /// Per state word: the bits of units folded to [`Folded::Keep`].
    keep: Vec<u64>,
    /// Per state word: the bits of units folded to [`Folded::Set`].
    set: Vec<u64>,
    /// The units folded to [`Folded::Move`] or [`Folded::Residual`], in
    /// order.
    others: Vec<u32>,
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
    /// Each unit folded with no `does` bit set, then (once
    /// [`Specializer::specialize`] has run) with the reference's.
    folded: Vec<Folded>,
    /// The known bits after folding every unit so: the `does` words, and
    /// the bits outside the next region that folded to a constant.
    known_mask: Vec<u64>,
    /// Their values.
    known_val: Vec<u64>,
    /// By `does` bit or output bit outside the next region: the units whose
    /// terms read it, in order.
    readers: FastMap<u32, Vec<u32>>,
    /// The output bits of the program's nodes, by word.
    computed: Vec<u64>,
    /// The `does` bits of the first joint move specialised, which
    /// [`Specializer::folded`] is the fold of (`None` before: no `does`
    /// bit).
    reference: Option<Vec<u32>>,
    /// [`Specializer::folded`] assembled.
    base: Assembly,
    /// What every [`Spec`] shares: [`Specializer::base`]'s masks and
    /// copies (set with the reference).
    shared: Arc<SharedFold>,
    /// The residual programs of the [`Spec`]s made so far, by their nodes,
    /// clauses and steps (what the program runs is sealed from them alone).
    residuals: FastMap<ResidualKey, Arc<Code>>,
}

/// A residual program's nodes, clauses and steps: the key
/// [`Specializer::residuals`] shares programs by.
type ResidualKey = (Vec<Node>, Vec<Clause>, Vec<Step>);

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
        let mut computed = vec![0u64; total_words];
        for node in &next.nodes {
            computed[node.word as usize] |= node.mask;
        }
        let mut s = Specializer {
            region,
            units,
            folded: Vec::new(),
            known_mask,
            known_val,
            readers,
            computed,
            reference: None,
            base: Assembly::default(),
            shared: Arc::new(SharedFold { keep: Box::new([]), set: Box::new([]), moves: Box::new([]) }),
            residuals: FastMap::default(),
        };
        s.folded = s
            .units
            .iter()
            .map(|&unit| fold_unit(next, unit, &mut s.known_mask, &mut s.known_val, region, &s.computed))
            .collect();
        s.base = s.base_assembly();
        s
    }

    /// The next state of `next` (the program [`Specializer::new`] was given)
    /// for the `does` bits `does_on` (all other `does` bits clear).
    ///
    /// The first joint move's fold becomes the reference the next ones are
    /// refolded from ([`Specializer::reference`]): folded from no `does`
    /// bit, every move reaches the same derived bits (in chess, that some
    /// piece moved, and every square's consequences: about 840 units),
    /// while two moves differ in far fewer.
    pub(crate) fn specialize(&mut self, next: &Code, does_on: &[u32]) -> Spec {
        let (refolded, known_mask, known_val) = self.refold(next, does_on);
        if self.reference.is_none() {
            for (u, folded) in refolded {
                self.folded[u as usize] = folded;
            }
            self.known_mask = known_mask;
            self.known_val = known_val;
            self.reference = Some(does_on.to_vec());
            self.base = self.base_assembly();
            self.shared = Arc::new(self.shared_fold());
            return self.assemble(&[]);
        }
        self.assemble(&refolded)
    }

    /// The [`Assembly`] of [`Specializer::folded`].
    fn base_assembly(&self) -> Assembly {
        let words = self.region.state_words as usize;
        let mut base = Assembly { keep: vec![0; words], set: vec![0; words], others: Vec::new() };
        for (u, folded) in self.folded.iter().enumerate() {
            match *folded {
                Folded::Set(dst) => base.set[(dst / 64) as usize] |= 1 << (dst % 64),
                Folded::Keep(dst) => base.keep[(dst / 64) as usize] |= 1 << (dst % 64),
                Folded::Gone => {}
                Folded::Move(..) | Folded::Residual(_) => base.others.push(u as u32),
            }
        }
        base
    }

    /// The masks and copies of [`Specializer::base`], which every [`Spec`]
    /// shares.
    fn shared_fold(&self) -> SharedFold {
        let moves: Vec<(u32, u32)> = self
            .base
            .others
            .iter()
            .filter_map(|&u| match self.folded[u as usize] {
                Folded::Move(src, dst) => Some((src, dst)),
                _ => None,
            })
            .collect();
        SharedFold {
            keep: self.base.keep.clone().into_boxed_slice(),
            set: self.base.set.clone().into_boxed_slice(),
            moves: word_moves(&moves).into_boxed_slice(),
        }
    }

    /// The units whose fold changes from the reference's (or from no `does`
    /// bit set) to `does_on`'s, each with its new fold, in order, and the
    /// known bits after `does_on`'s fold.
    fn refold(&self, next: &Code, does_on: &[u32]) -> (Vec<(u32, Folded)>, Vec<u64>, Vec<u64>) {
        let mut known_mask = self.known_mask.clone();
        let mut known_val = self.known_val.clone();
        // The units to refold, by index (each reads only earlier units'
        // outputs, a group also its own, so they are refolded in order).
        let mut pending = vec![0u64; self.units.len().div_ceil(64)];
        let mark = |pending: &mut [u64], bit: u32| {
            for &u in self.readers.get(&bit).into_iter().flatten() {
                pending[(u / 64) as usize] |= 1 << (u % 64);
            }
        };
        let reference = self.reference.as_deref().unwrap_or(&[]);
        for &bit in reference.iter().filter(|b| !does_on.contains(b)) {
            known_val[(bit / 64) as usize] &= !(1 << (bit % 64));
            mark(&mut pending, bit);
        }
        for &bit in does_on.iter().filter(|b| !reference.contains(b)) {
            known_val[(bit / 64) as usize] |= 1 << (bit % 64);
            mark(&mut pending, bit);
        }
        let mut refolded: Vec<(u32, Folded)> = Vec::new();
        let mut w = 0;
        while w < pending.len() {
            if pending[w] == 0 {
                w += 1;
                continue;
            }
            let u = w as u32 * 64 + pending[w].trailing_zeros();
            pending[w] &= pending[w] - 1;
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
            let folded = fold_unit(next, unit, &mut known_mask, &mut known_val, self.region, &self.computed);
            if let (Some(bit), Some(before)) = (outside, before) {
                let after = known(&known_mask, &known_val, bit);
                // An unknown bit's value is not read: only the known ones' are.
                if after != before && (after.0 || before.0) {
                    // Its readers come after it.
                    mark(&mut pending, bit);
                }
            }
            refolded.push((u, folded));
        }
        (refolded, known_mask, known_val)
    }

    /// The [`Spec`] of every unit's fold for the reference's `does` bits
    /// (see [`Specializer::folded`]), except the units of `refolded` (in
    /// order), which folded as given: the shared fold, patched in the words
    /// where a refolded unit's bit was written by the reference's fold or is
    /// kept or set by its own, plus the refolded units' copies.
    fn assemble(&mut self, refolded: &[(u32, Folded)]) -> Spec {
        let in_next = |word: u32| self.region.holds(word);
        let words = self.region.state_words as usize;
        let (mut clear, mut keep, mut set) = (vec![0u64; words], vec![0u64; words], vec![0u64; words]);
        let at = |dst: u32| ((dst / 64) as usize, 1u64 << (dst % 64));
        for (u, folded) in refolded {
            match self.folded[*u as usize] {
                Folded::Set(dst) | Folded::Keep(dst) | Folded::Move(_, dst) => {
                    let (w, m) = at(dst);
                    clear[w] |= m;
                }
                _ => {}
            }
            match *folded {
                Folded::Set(dst) => {
                    let (w, m) = at(dst);
                    set[w] |= m;
                }
                Folded::Keep(dst) => {
                    let (w, m) = at(dst);
                    keep[w] |= m;
                }
                _ => {}
            }
        }
        let patches: Box<[Patch]> = (0..words)
            .filter(|&w| clear[w] | keep[w] | set[w] != 0)
            .map(|w| Patch { word: w as u32, clear: clear[w], keep: keep[w], set: set[w] })
            .collect();
        let mut moves = Vec::new();
        // Residual nodes, in order, as (output bit, terms, group).
        let mut residual: Vec<(u32, &[TermBuilder], Option<usize>)> = Vec::new();
        // The units folded to copies and residual nodes, in order: those of
        // the reference not refolded, and the refolded ones.
        let mut changed = refolded.iter().peekable();
        let mut others = self.base.others.iter().peekable();
        loop {
            let (u, folded) = match (others.peek(), changed.peek()) {
                (Some(&&o), Some(&(c, f))) if *c <= o => {
                    changed.next();
                    if *c == o {
                        others.next();
                    }
                    (*c, f)
                }
                (Some(&&o), _) => {
                    others.next();
                    match &self.folded[o as usize] {
                        // Among the shared copies.
                        Folded::Move(..) => continue,
                        folded => (o, folded),
                    }
                }
                (None, Some(&(c, f))) => {
                    changed.next();
                    (*c, f)
                }
                (None, None) => break,
            };
            match folded {
                Folded::Move(src, dst) => moves.push((*src, *dst)),
                Folded::Residual(nodes) => {
                    let group = matches!(self.units[u as usize], Unit::Group { .. }).then_some(u as usize);
                    residual.extend(nodes.iter().map(|(bit, terms)| (*bit, &terms[..], group)));
                }
                Folded::Set(_) | Folded::Keep(_) | Folded::Gone => {}
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
        let moves = word_moves(&moves).into_boxed_slice();
        let residual = (!code.nodes.is_empty()).then(|| {
            let key = (code.nodes.clone(), code.clauses.clone(), code.steps.clone());
            let shared = self.residuals.entry(key).or_insert_with(|| {
                code.seal();
                Arc::new(code)
            });
            Arc::clone(shared)
        });
        Spec { shared: Arc::clone(&self.shared), patches, moves, residual }
    }
}

impl Spec {
    /// Writes the next state of the state in `bits` into the next region.
    #[inline]
    pub(crate) fn apply(&self, bits: &mut [u64], next_word: usize) {
        let shared = &*self.shared;
        for (w, (&keep, &set)) in shared.keep.iter().zip(shared.set.iter()).enumerate() {
            bits[next_word + w] = (bits[w] & keep) | set;
        }
        for m in shared.moves.iter() {
            bits[next_word + m.dst as usize] |= (bits[m.src as usize] & m.mask).rotate_left(m.rotate);
        }
        for p in self.patches.iter() {
            let w = p.word as usize;
            bits[next_word + w] = (bits[next_word + w] & !p.clear) | (bits[w] & p.keep) | p.set;
        }
        for m in self.moves.iter() {
            bits[next_word + m.dst as usize] |= (bits[m.src as usize] & m.mask).rotate_left(m.rotate);
        }
        if let Some(code) = &self.residual {
            code.run(bits);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The words of the random programs' memory: the state (words 0–1), the
    /// `does` bits (2), inputs answered before the program runs (3),
    /// derived bits outside the next region (4), the next region (5–6).
    const STATE_WORDS: u32 = 2;
    /// The `does` word.
    const DOES_WORD: u32 = 2;
    /// The input word.
    const INPUT_WORD: u32 = 3;
    /// The word of the derived bits.
    const DERIVED_WORD: u32 = 4;
    /// The first word of the next region.
    const NEXT_WORD: u32 = 5;
    /// All the words.
    const TOTAL_WORDS: usize = 7;

    /// A random term over `readable` bits (the state, `does` and input bits
    /// and the derived bits computed before it): one to three literals
    /// (mostly positive), sometimes a test that one of a few of them, in one
    /// word, is set.
    fn random_term(rng: &mut rand::rngs::SmallRng, readable: &[u32]) -> TermBuilder {
        let mut t = TermBuilder::default();
        for _ in 0..rng.random_range(1..=3) {
            let bit = readable[rng.random_range(0..readable.len())];
            t.literal(bit, rng.random_bool(0.75));
        }
        if rng.random_bool(0.2) {
            // Readable bits of one word (none computed after the node).
            let word = readable[rng.random_range(0..readable.len())] / 64;
            let in_word: Vec<u32> = readable.iter().copied().filter(|b| b / 64 == word).collect();
            let mask = (0..rng.random_range(1..=3))
                .fold(0u64, |m, _| m | 1 << (in_word[rng.random_range(0..in_word.len())] % 64));
            t.any(word, mask);
        }
        t
    }

    /// A random next-state program over the memory above: derived nodes
    /// (some in a recursive group) reading the state, the `does` bits, the
    /// inputs and earlier derived bits, then next-region nodes, many of
    /// them copies of one bit (of the state, an input or a derived bit) or
    /// frame rules (a state bit kept unless some `does` bit is set).
    fn random_next_program(rng: &mut rand::rngs::SmallRng) -> Code {
        let mut code = Code::default();
        let mut readable: Vec<u32> = (0..STATE_WORDS * 64).step_by(3).collect();
        readable.extend((0..12).map(|k| DOES_WORD * 64 + k));
        readable.extend((0..64).step_by(5).map(|k| INPUT_WORD * 64 + k));
        let mut derived = 0;
        while derived < 20 {
            let out = DERIVED_WORD * 64 + derived;
            if rng.random_bool(0.1) {
                // A recursive group of two nodes, each reading the other.
                let (a, b) = (out, out + 1);
                let first = code.nodes.len() as u32;
                for (own, other) in [(a, b), (b, a)] {
                    let mut reading = random_term(rng, &readable);
                    reading.literal(other, true);
                    code.push_node(own, &[random_term(rng, &readable), reading]);
                }
                code.steps.push(Step::Fixpoint { first, end: code.nodes.len() as u32 });
                readable.extend([a, b]);
                derived += 2;
                continue;
            }
            let terms: Vec<TermBuilder> = (0..rng.random_range(1..=3)).map(|_| random_term(rng, &readable)).collect();
            let i = code.push_node(out, &terms);
            code.steps.push(Step::Node(i));
            readable.push(out);
            derived += 1;
        }
        for offset in 0..STATE_WORDS * 64 {
            if rng.random_bool(0.3) {
                continue;
            }
            let terms: Vec<TermBuilder> = match rng.random_range(0..4) {
                0 => {
                    let mut t = TermBuilder::default();
                    t.literal(readable[rng.random_range(0..readable.len())], true);
                    vec![t]
                }
                1 => {
                    let mut t = TermBuilder::default();
                    t.literal(offset, true);
                    for k in 0..rng.random_range(1..=2) {
                        t.literal(DOES_WORD * 64 + rng.random_range(0..12) + k, false);
                    }
                    vec![t, random_term(rng, &readable)]
                }
                _ => (0..rng.random_range(1..=3)).map(|_| random_term(rng, &readable)).collect(),
            };
            let i = code.push_node(NEXT_WORD * 64 + offset, &terms);
            code.steps.push(Step::Node(i));
        }
        code
    }

    /// For 150 random next-state programs, one [`Specializer`] each
    /// specialises 12 random sets of `does` bits in turn (the first becomes
    /// the reference the others are refolded from), and each
    /// specialisation, applied to 20 random memories (stale derived and
    /// next-region bits included), writes the next region the program run
    /// as written does (on the memory with the next region cleared, as
    /// [`crate::Evaluator`] runs it).
    #[test]
    fn specialisations_compute_what_the_program_does() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(17);
        let (mut copies, mut refolded_from_reference) = (0usize, 0usize);
        for _ in 0..150 {
            let code = random_next_program(&mut rng);
            let does = DOES_WORD as usize..DOES_WORD as usize + 1;
            let mut specializer = Specializer::new(&code, TOTAL_WORDS, does, NEXT_WORD, STATE_WORDS);
            for _ in 0..12 {
                let on: Vec<u32> =
                    (0..rng.random_range(0..=3)).map(|_| DOES_WORD * 64 + rng.random_range(0..14)).collect();
                refolded_from_reference += usize::from(specializer.reference.is_some());
                let spec = specializer.specialize(&code, &on);
                copies += spec
                    .shared
                    .moves
                    .iter()
                    .chain(spec.moves.iter())
                    .map(|m| m.mask.count_ones() as usize)
                    .sum::<usize>();
                for _ in 0..20 {
                    let mut memory: Vec<u64> = (0..TOTAL_WORDS).map(|_| rng.random()).collect();
                    memory[DOES_WORD as usize] = on.iter().fold(0, |w, &bit| w | 1 << (bit % 64));
                    // The general program's way: the next region cleared first.
                    let mut expected = memory.clone();
                    let next = NEXT_WORD as usize..NEXT_WORD as usize + STATE_WORDS as usize;
                    expected[next.clone()].iter_mut().for_each(|w| *w = 0);
                    code.run_steps(&mut expected);
                    spec.apply(&mut memory, NEXT_WORD as usize);
                    assert_eq!(memory[next.clone()], expected[next], "does bits {on:?}");
                }
            }
        }
        assert!(copies > 1000 && refolded_from_reference > 1000, "{copies} copies, {refolded_from_reference}");
    }
}
