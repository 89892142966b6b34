//! The compiled form of a game's rules: straight-line code over one array of
//! 64-bit words holding the state, the joint move and every derived
//! proposition.
//!
//! Each derived proposition is a *node*: the disjunction of *terms*, each the
//! conjunction of *clauses*, each a test on one word — some bits set, some
//! clear, at least one of some others set. Nodes run in dependency order;
//! recursive groups (positive cycles through the state) run to a fixpoint.
//!
//! A node's clauses lie contiguously, the last clause of each term marked,
//! so that evaluating a node is one pass over a slice.

/// A test on one word: all `pos` bits set, all `neg` bits clear, and (when
/// `any` is not zero) at least one `any` bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Clause {
    pub(crate) word: u32,
    /// Whether this is the last clause of its term (set by [`Code`]).
    pub(crate) last: bool,
    pub(crate) pos: u64,
    pub(crate) neg: u64,
    pub(crate) any: u64,
}

impl Clause {
    #[inline(always)]
    pub(crate) fn holds(&self, bits: &[u64]) -> bool {
        let x = bits[self.word as usize];
        (x & self.pos) == self.pos && (x & self.neg) == 0 && (self.any == 0 || (x & self.any) != 0)
    }
}

/// A node: its output bit and the range of its clauses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Node {
    pub(crate) word: u32,
    pub(crate) mask: u64,
    pub(crate) first: u32,
    pub(crate) end: u32,
}

/// What to run: one node, a recursive group of nodes to a fixpoint, or
/// nodes that all require some bits (a *guard*: every bit of `mask` in word
/// `word` of each of its two tests): when one is clear they are all false and
/// are not evaluated (the legal moves of a role not in control).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    Node(u32),
    Fixpoint { first: u32, end: u32 },
    Guarded { guard: [(u32, u64); 2], first: u32, end: u32 },
}

impl Step {
    /// The step as plain node steps, if it is not a fixpoint: a guard only
    /// saves work, as each guarded node tests the guard itself.
    pub(crate) fn unguarded(self) -> impl Iterator<Item = Step> {
        let (single, range) = match self {
            Step::Guarded { first, end, .. } => (None, first..end),
            other => (Some(other), 0..0),
        };
        single.into_iter().chain(range.map(Step::Node))
    }
}

/// A program: nodes with their clauses, and the steps that run them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Code {
    pub(crate) nodes: Vec<Node>,
    pub(crate) clauses: Vec<Clause>,
    pub(crate) steps: Vec<Step>,
    /// Whether the steps are every node once, in order (see [`Code::seal`]).
    straight: bool,
    /// The output bits of guarded blocks, as (word, mask) pairs, one per
    /// word a block writes, so that a block whose guard is clear clears its
    /// bits without reading its nodes…
    clears: Vec<(u32, u64)>,
    /// … each step's range of them (empty for other steps; see
    /// [`Code::seal`]).
    clear_ranges: Vec<(u32, u32)>,
}

/// A term under construction: clauses by word.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct TermBuilder {
    clauses: Vec<Clause>,
}

impl TermBuilder {
    fn clause(&mut self, word: u32) -> &mut Clause {
        match self.clauses.iter().position(|c| c.word == word) {
            Some(i) => &mut self.clauses[i],
            None => {
                self.clauses.push(Clause { word, last: false, pos: 0, neg: 0, any: 0 });
                self.clauses.last_mut().expect("just pushed")
            }
        }
    }

    /// Requires bit `bit` set (`positive`) or clear.
    pub(crate) fn literal(&mut self, bit: u32, positive: bool) -> &mut Self {
        let c = self.clause(bit / 64);
        if positive {
            c.pos |= 1 << (bit % 64);
        } else {
            c.neg |= 1 << (bit % 64);
        }
        self
    }

    /// Requires at least one of `mask` set in word `word`.
    pub(crate) fn any(&mut self, word: u32, mask: u64) -> &mut Self {
        self.clause(word).any |= mask;
        self
    }

    /// Whether the term can never hold (a bit both required set and clear).
    pub(crate) fn contradictory(&self) -> bool {
        self.clauses.iter().any(|c| c.pos & c.neg != 0 || (c.any != 0 && c.any & !c.neg == 0))
    }

    pub(crate) fn clauses(&self) -> &[Clause] {
        &self.clauses
    }

    pub(crate) fn from_clauses(clauses: Vec<Clause>) -> TermBuilder {
        TermBuilder { clauses }
    }
}

impl Code {
    /// Appends a node writing `out_bit` as the disjunction of `terms`; returns
    /// its index.
    pub(crate) fn push_node(&mut self, out_bit: u32, terms: &[TermBuilder]) -> u32 {
        let first = self.clauses.len() as u32;
        for t in terms {
            if t.contradictory() {
                continue;
            }
            let start = self.clauses.len();
            self.clauses.extend_from_slice(&t.clauses);
            if t.clauses.is_empty() {
                // A term that always holds: a test of nothing.
                self.clauses.push(Clause { word: 0, last: false, pos: 0, neg: 0, any: 0 });
            }
            let clauses = &mut self.clauses[start..];
            // The most selective tests first: fewer clauses run on average.
            clauses.sort_by_key(|c| std::cmp::Reverse((c.pos | c.neg).count_ones()));
            clauses.iter_mut().for_each(|c| c.last = false);
            clauses.last_mut().expect("at least one clause").last = true;
        }
        let node = Node { word: out_bit / 64, mask: 1 << (out_bit % 64), first, end: self.clauses.len() as u32 };
        self.nodes.push(node);
        (self.nodes.len() - 1) as u32
    }

    /// The value node `i` computes from `bits`.
    #[inline(always)]
    pub(crate) fn value(&self, i: u32, bits: &[u64]) -> bool {
        self.node_value(&self.nodes[i as usize], bits)
    }

    #[inline(always)]
    fn node_value(&self, node: &Node, bits: &[u64]) -> bool {
        let mut ok = true;
        for c in &self.clauses[node.first as usize..node.end as usize] {
            ok = ok && c.holds(bits);
            if c.last {
                if ok {
                    return true;
                }
                ok = true;
            }
        }
        false
    }

    /// The terms of node `i`, as clause slices.
    pub(crate) fn terms(&self, i: u32) -> impl Iterator<Item = &[Clause]> + '_ {
        let node = self.nodes[i as usize];
        self.clauses[node.first as usize..node.end as usize].split_inclusive(|c| c.last)
    }

    #[inline(always)]
    fn eval(&self, i: u32, bits: &mut [u64]) -> bool {
        let v = self.value(i, bits);
        let node = &self.nodes[i as usize];
        let w = &mut bits[node.word as usize];
        let old = *w & node.mask != 0;
        if v {
            *w |= node.mask;
        } else {
            *w &= !node.mask;
        }
        old != v
    }

    /// Notes whether the program is straight-line code (every node once, in
    /// order), which [`Code::run`] then runs without dispatching on steps,
    /// and the bits each guarded block clears when its guard is not set.
    /// Call once the steps are complete.
    pub(crate) fn seal(&mut self) {
        self.straight = self.steps.len() == self.nodes.len()
            && self.steps.iter().enumerate().all(|(k, s)| *s == Step::Node(k as u32));
        self.clears.clear();
        self.clear_ranges.clear();
        for step in &self.steps {
            let start = self.clears.len() as u32;
            if let Step::Guarded { first, end, .. } = *step {
                let mut words: Vec<(u32, u64)> =
                    self.nodes[first as usize..end as usize].iter().map(|n| (n.word, n.mask)).collect();
                words.sort_unstable_by_key(|&(w, _)| w);
                for (w, m) in words {
                    let in_block = self.clears.len() as u32 > start;
                    match self.clears.last_mut() {
                        Some((last, mask)) if in_block && *last == w => *mask |= m,
                        _ => self.clears.push((w, m)),
                    }
                }
            }
            self.clear_ranges.push((start, self.clears.len() as u32));
        }
    }

    /// Runs every step on `bits`.
    pub(crate) fn run(&self, bits: &mut [u64]) {
        if self.straight {
            // Straight-line code (the usual case): every node once, in order.
            for node in &self.nodes {
                let v = self.node_value(node, bits);
                let w = &mut bits[node.word as usize];
                *w = (*w & !node.mask) | if v { node.mask } else { 0 };
            }
            return;
        }
        for (k, step) in self.steps.iter().enumerate() {
            match *step {
                Step::Node(i) => {
                    let node = &self.nodes[i as usize];
                    let v = self.node_value(node, bits);
                    let w = &mut bits[node.word as usize];
                    *w = (*w & !node.mask) | if v { node.mask } else { 0 };
                }
                Step::Guarded { guard, first, end } => {
                    let on = guard.iter().all(|&(word, mask)| bits[word as usize] & mask == mask);
                    if !on && let Some(&(from, to)) = self.clear_ranges.get(k) {
                        for &(word, mask) in &self.clears[from as usize..to as usize] {
                            bits[word as usize] &= !mask;
                        }
                        continue;
                    }
                    for node in &self.nodes[first as usize..end as usize] {
                        let v = on && self.node_value(node, bits);
                        let w = &mut bits[node.word as usize];
                        *w = (*w & !node.mask) | if v { node.mask } else { 0 };
                    }
                }
                Step::Fixpoint { first, end } => {
                    for i in first..end {
                        let node = self.nodes[i as usize];
                        bits[node.word as usize] &= !node.mask;
                    }
                    // In a valid (stratified) game a group is monotone: every
                    // pass that changes something sets a bit, so it settles
                    // within one pass per node. An invalid game can negate
                    // the group inside it (`terminal` if not `terminal`) and
                    // would oscillate for ever: stop there, with whatever
                    // values the last pass left (such rules have no meaning).
                    for _ in first..=end {
                        let mut changed = false;
                        for i in first..end {
                            changed |= self.eval(i, bits);
                        }
                        if !changed {
                            break;
                        }
                    }
                }
            }
        }
    }

    /// How many clauses in all (a size measure).
    pub(crate) fn size(&self) -> usize {
        self.clauses.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_compute_dnf_and_fixpoints() {
        let mut code = Code::default();
        // bit 64 = (bit 0 and not bit 1) or any of bits 2, 3
        let mut t1 = TermBuilder::default();
        t1.literal(0, true).literal(1, false);
        let mut t2 = TermBuilder::default();
        t2.any(0, 0b1100);
        let n = code.push_node(64, &[t1, t2]);
        code.steps.push(Step::Node(n));
        // bits 65 and 66 support each other (a cycle), 66 also from bit 4.
        let mut a = TermBuilder::default();
        a.literal(66, true);
        let mut b = TermBuilder::default();
        b.literal(65, true);
        let mut c = TermBuilder::default();
        c.literal(4, true);
        let first = code.push_node(65, &[a]);
        code.push_node(66, &[b, c]);
        code.steps.push(Step::Fixpoint { first, end: first + 2 });
        code.seal();
        let run = |input: u64| {
            let mut bits = vec![input, 0];
            code.run(&mut bits);
            bits[1]
        };
        assert_eq!(run(0b0001), 0b001);
        assert_eq!(run(0b0011), 0b000);
        assert_eq!(run(0b1010), 0b001);
        assert_eq!(run(0b10000), 0b110);
        // A fixpoint group starts from nothing: stale bits do not keep a cycle alive.
        let mut bits = vec![0, 0b110];
        code.run(&mut bits);
        assert_eq!(bits[1], 0);
    }

    /// A group negating itself (invalid GDL) oscillates; it is run a bounded
    /// number of passes instead of for ever (found by fuzzing).
    #[test]
    fn a_fixpoint_group_that_negates_itself_stops() {
        let mut code = Code::default();
        // bit 64 = bit 0 and not bit 64
        let mut t = TermBuilder::default();
        t.literal(0, true).literal(64, false);
        let first = code.push_node(64, &[t]);
        code.steps.push(Step::Fixpoint { first, end: first + 1 });
        code.seal();
        let mut bits = vec![1, 0];
        code.run(&mut bits);
        assert_eq!(bits[0], 1);
    }

    /// A guarded block runs its nodes when the guard is set and clears their
    /// bits when it is not; `unguarded` lists its nodes.
    #[test]
    fn guarded_blocks_run_or_clear() {
        let mut code = Code::default();
        // bit 64 = bit 0 and bit 1; bit 65 = bit 0 and bit 2; guard bit 0.
        let mut t1 = TermBuilder::default();
        t1.literal(0, true).literal(1, true);
        let mut t2 = TermBuilder::default();
        t2.literal(0, true).literal(2, true);
        code.push_node(64, &[t1]);
        code.push_node(65, &[t2]);
        code.steps.push(Step::Guarded { guard: [(0, 1), (0, 0)], first: 0, end: 2 });
        code.seal();
        let run = |code: &Code, input: u64, stale: u64| {
            let mut bits = vec![input, stale];
            code.run(&mut bits);
            bits[1]
        };
        assert_eq!(run(&code, 0b011, 0), 0b01);
        assert_eq!(run(&code, 0b111, 0), 0b11);
        assert_eq!(run(&code, 0b110, 0b11), 0);
        let steps: Vec<Step> = code.steps[0].unguarded().collect();
        assert_eq!(steps, vec![Step::Node(0), Step::Node(1)]);
        // Two tests: bits 0 and 3 both required.
        code.steps[0] = Step::Guarded { guard: [(0, 1), (0, 0b1000)], first: 0, end: 2 };
        assert_eq!(run(&code, 0b0011, 0b11), 0);
        assert_eq!(run(&code, 0b1011, 0), 0b01);
    }

    /// A block whose guard is clear clears the bits of all its nodes, in
    /// every word they write, and nothing else.
    #[test]
    fn a_block_off_clears_its_bits_in_every_word() {
        let mut code = Code::default();
        for out in [64, 130, 66, 191] {
            let mut t = TermBuilder::default();
            t.literal(0, true);
            code.push_node(out, &[t]);
        }
        code.steps.push(Step::Guarded { guard: [(0, 1), (0, 0)], first: 0, end: 4 });
        code.seal();
        let mut bits = vec![0, u64::MAX, u64::MAX];
        code.run(&mut bits);
        assert_eq!(bits[1], !0b101);
        assert_eq!(bits[2], !(1 << 2 | 1 << 63));
        bits[0] = 1;
        code.run(&mut bits);
        assert_eq!((bits[1], bits[2]), (u64::MAX, u64::MAX));
    }

    #[test]
    fn contradictory_terms_are_dropped() {
        let mut t = TermBuilder::default();
        t.literal(3, true).literal(3, false);
        assert!(t.contradictory());
        let mut code = Code::default();
        let n = code.push_node(10, &[t]);
        assert_eq!(code.terms(n).count(), 0);
        let always = code.push_node(11, &[TermBuilder::default()]);
        assert!(code.value(always, &[0]));
    }
}
