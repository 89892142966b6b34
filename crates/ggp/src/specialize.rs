//! The next-state program specialised to one joint move.
//!
//! With the joint move fixed, most of the next-state network folds away: in
//! Nim, a heap that is not reduced is copied, the reduced heap gets a
//! constant, and control passes to the other player. What folds becomes a
//! mask (`next = state & keep | set`) and a few bit moves; what does not (a
//! Connect Four disc landing on the lowest open cell, which depends on the
//! state) stays as a small residual program. Specialisations are computed on
//! first use and cached per joint move by the [`Evaluator`](crate::Evaluator).

use crate::code::{Clause, Code, Step, TermBuilder};

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

enum Simplified {
    True,
    False,
    Clause(Clause),
}

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
    Const(bool),
    Dynamic(Vec<TermBuilder>),
}

/// Specialises `next` (the next-state program) to the does bits `does_on`
/// (all other does bits off). `does_words` is the range of does words;
/// `next_word` and `state_words` locate the next region.
pub(crate) fn specialize(
    next: &Code,
    total_words: usize,
    does_words: std::ops::Range<usize>,
    does_on: &[u32],
    next_word: u32,
    state_words: u32,
) -> Spec {
    let mut known_mask = vec![0u64; total_words];
    let mut known_val = vec![0u64; total_words];
    for w in does_words {
        known_mask[w] = !0;
    }
    for &bit in does_on {
        known_val[(bit / 64) as usize] |= 1 << (bit % 64);
    }
    let in_next = |word: u32| word >= next_word && word < next_word + state_words;
    let mut keep = vec![0u64; state_words as usize];
    let mut set = vec![0u64; state_words as usize];
    let mut moves = Vec::new();
    // Residual nodes, in order, as (output bit, terms); groups marked.
    let mut residual: Vec<(u32, Vec<TermBuilder>, Option<usize>)> = Vec::new();
    for (g, step) in next.steps.iter().flat_map(|s| s.unguarded()).enumerate() {
        match step {
            Step::Node(i) => {
                let node = next.nodes[i as usize];
                let out_bit = node.word * 64 + node.mask.trailing_zeros();
                let outcome = match simplify_node(next, i, &known_mask, &known_val) {
                    None => Outcome::Const(true),
                    Some(t) if t.is_empty() => Outcome::Const(false),
                    Some(t) => Outcome::Dynamic(t),
                };
                if in_next(node.word) {
                    let dst = out_bit - next_word * 64;
                    match outcome {
                        Outcome::Const(true) => set[(dst / 64) as usize] |= 1 << (dst % 64),
                        Outcome::Const(false) => {}
                        Outcome::Dynamic(terms) => {
                            let copy = match &terms[..] {
                                [t] => match t.clauses() {
                                    [c] if c.neg == 0
                                        && c.any == 0
                                        && c.pos.count_ones() == 1
                                        && c.word < state_words =>
                                    {
                                        Some(c.word * 64 + c.pos.trailing_zeros())
                                    }
                                    _ => None,
                                },
                                _ => None,
                            };
                            match copy {
                                Some(src) if src == dst => keep[(dst / 64) as usize] |= 1 << (dst % 64),
                                Some(src) => moves.push((src, dst)),
                                None => residual.push((out_bit, terms, None)),
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
                        }
                        Outcome::Dynamic(terms) => {
                            known_mask[w] &= !m;
                            residual.push((out_bit, terms, None));
                        }
                    }
                }
            }
            // Expanded into its nodes by `unguarded`.
            Step::Guarded { .. } => {}
            Step::Fixpoint { first, end } => {
                for i in first..end {
                    let node = next.nodes[i as usize];
                    known_mask[node.word as usize] &= !node.mask;
                }
                for i in first..end {
                    let node = next.nodes[i as usize];
                    let out_bit = node.word * 64 + node.mask.trailing_zeros();
                    let terms =
                        simplify_node(next, i, &known_mask, &known_val).unwrap_or_else(|| vec![TermBuilder::default()]);
                    residual.push((out_bit, terms, Some(g)));
                }
            }
        }
    }
    // Keep only the residual nodes the next state needs, walking backwards.
    let mut needed_bits = vec![0u64; total_words];
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
                for t in &residual[j].1 {
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
                let n = code.push_node(residual[j].0, &residual[j].1);
                code.steps.push(Step::Node(n));
                j += 1;
            }
            Some(g) => {
                let first = code.nodes.len() as u32;
                while j < residual.len() && residual[j].2 == Some(g) {
                    code.push_node(residual[j].0, &residual[j].1);
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
