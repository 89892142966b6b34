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
//!
//! [`Code::seal`] lowers the steps to the form [`Code::run`] executes: a
//! flat list of operations — guards and runs of nodes — where guarded
//! blocks that share their first guard are skipped together, and inside a
//! block the tests of the guard bits (which hold there) are dropped. Each
//! term of a node becomes a *head*, the one-bit test of it the most likely
//! to fail, packed in 8 bytes with the node's other heads, and a *tail* of
//! its other tests in a separate stream (a test of one bit in 8 bytes, of a
//! mask in 24), run only where the head holds: nearly every term fails at
//! its head, so a state reads a node's heads and hardly any tail. The
//! outputs of all guarded nodes are cleared once before the run (whole
//! words of them at once), so a guard that fails only jumps. Two forms read
//! only what is set, where the order of nodes does not matter:
//!
//! - a run of nodes that read none of each other's outputs is *indexed*
//!   ([`Op::Indexed`]): its heads that require a set bit are listed by word
//!   and bit, and the run looks up only the bits set in each of those words
//!   (its outputs, cleared before the run, are only set), testing the tails
//!   of those terms alone, stored with their entries so that a lookup reads
//!   them together; a term with no such head but a test that one of some
//!   bits is set is listed under each of those bits (chess's next state:
//!   "some move lands on this square", read from the one move played);
//! - at least [`MIN_DISPATCH`] groups of guarded blocks (consecutive blocks
//!   sharing their first guard) that read none of each other's outputs are
//!   *dispatched* on their first guards' bits ([`Op::Dispatch`]), and
//!   likewise the blocks of a group on their second guards: a state visits
//!   the groups and blocks whose guard bit is set, not every guard.
//!
//! Programs of fewer than [`LOWER_FROM`] clauses are run as written instead,
//! guarded blocks cleared word by word.
//! [`Code::run_steps`] interprets the steps plainly, the reference both
//! forms are tested against.
//!
//! Every form assumes what the circuit guarantees: a node reads the inputs,
//! the outputs of nodes run before it and those of its own recursive group,
//! never an output computed after it.

use crate::datalog::PeriodicCheck;
use crate::hash::FastMap;
use crate::limits::{Limits, OutOfLimits, unlimited};

/// A test on one word: all `pos` bits set, all `neg` bits clear, and (when
/// `any` is not zero) at least one `any` bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Clause {
    pub(crate) word: u32,
    /// Whether this is the last clause of its term (set by [`Code`]).
    pub(crate) last: bool,
    pub(crate) pos: u64,
    pub(crate) neg: u64,
    pub(crate) any: u64,
}

impl Clause {
    /// Whether the clause holds of `bits`.
    #[inline(always)]
    pub(crate) fn holds(&self, bits: &[u64]) -> bool {
        let x = bits[self.word as usize];
        (x & self.pos) == self.pos && (x & self.neg) == 0 && (self.any == 0 || (x & self.any) != 0)
    }
}

/// A node: its output bit and the range of its clauses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    /// How [`Code::run`] runs the program (set by [`Code::seal`], reset by
    /// [`Code::push_node`]).
    form: Form,
    /// The steps lowered by [`Code::seal`], what [`Code::run`] executes in
    /// [`Form::Lowered`]…
    ops: Vec<Op>,
    /// … the nodes their [`Op::Nodes`] run…
    lowered: Vec<LoweredNode>,
    /// … the heads of their nodes' terms, encoded (see [`Head::encode`]),
    /// each node's together…
    heads: Vec<u64>,
    /// … the tails of those terms (their other tests), encoded (see
    /// [`Test::encode`])…
    tests: Vec<u64>,
    /// … the words of the heads of [`Op::Indexed`] runs, each with the
    /// set bits its heads require…
    index_words: Vec<IndexWord>,
    /// … for each, where the entries of each of those bits begin in
    /// [`Code::index_entries`] (then where the last ends)…
    index_offsets: Vec<u32>,
    /// … the entries of those bits: for an [`Op::Indexed`] run, each term
    /// with that head as its output bit (bits 0–31) and the number of
    /// slots of its tail (bits 32–63), followed by the tail itself (encoded
    /// tests, see [`Test::encode`]), so that looking a bit up reads its
    /// terms' tails with it; for an [`Op::Dispatch`], ranges of operations…
    index_entries: Vec<u64>,
    /// … and the output bits of all guarded nodes and indexed runs, as
    /// (word, mask) pairs, cleared before the run, but for the words
    /// wholly made of them (in [`Form::Direct`], those of the guarded
    /// blocks, cleared where their guard is clear…
    clears: Vec<(u32, u64)>,
    /// … each step's range of them, empty for other steps)…
    clear_ranges: Vec<(u32, u32)>,
    /// … and those whole words, as ranges of words cleared at once.
    clear_runs: Vec<(u32, u32)>,
    /// How many terms of [`Op::Indexed`] runs are listed under the bits of
    /// a test that one of some bits is set (see [`Code::index_keys`]): for
    /// the tests to check that they are exercised.
    #[cfg(test)]
    any_keyed: usize,
}

/// How [`Code::run`] runs a program.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Form {
    /// The steps as written ([`Code::run_steps`]): not sealed.
    #[default]
    Steps,
    /// The steps, a guarded block whose guard is clear clearing its bits
    /// word by word ([`Code::clears`]); `straight` when the steps are every
    /// node once, in order, run without dispatching on steps. For programs
    /// of fewer than [`LOWER_FROM`] clauses.
    Direct { straight: bool },
    /// The operations the steps are lowered to ([`Code::ops`]), over the
    /// nodes' heads and tails.
    Lowered,
}

/// The fewest clauses of a program that [`Code::seal`] lowers: below, the
/// decoding of packed tests costs more than the skipped tests save
/// (ticTacToe, 37 clauses to legal moves and 74 to next states: about 20%
/// fewer transitions per second lowered; checkers, 4,130 and 5,509: 15–40%
/// more). Not tuned between the two.
const LOWER_FROM: usize = 1000;

/// A clause (or part of one) as [`Code::seal`] lowers it: the bits of `mask`
/// in word `word` equal `expect`, or, if `any`, are not all clear. A clause
/// with both kinds of test becomes two tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Test {
    word: u32,
    any: bool,
    mask: u64,
    expect: u64,
}

impl Test {
    /// The kind of the test, as [`Code::run`] reads it from a test's first
    /// slot (see [`Test::encode`]).
    fn kind(&self) -> u64 {
        match (self.any, self.mask.count_ones(), self.expect != 0) {
            (true, _, _) => KIND_ANY,
            (false, 1, true) => KIND_SET,
            (false, 1, false) => KIND_CLEAR,
            _ => KIND_MASK,
        }
    }

    /// How many slots of the tests' stream the test takes.
    fn slots(&self) -> usize {
        match self.kind() {
            KIND_SET | KIND_CLEAR => 1,
            KIND_ANY => 2,
            _ => 3,
        }
    }

    /// Appends the test to `stream`, with `rest` slots of its term after
    /// it: a first slot holding the word (bits 0–31), `rest` (bits 32–55),
    /// the bit tested by a one-bit test (bits 56–61) and the kind (bits
    /// 62–63); then the mask (for [`KIND_MASK`] and [`KIND_ANY`]) and the
    /// expected bits (for [`KIND_MASK`]).
    fn encode(&self, rest: usize, stream: &mut Vec<u64>) {
        assert!(rest < 1 << 24, "a term of {rest} slots");
        let kind = self.kind();
        let bit = if matches!(kind, KIND_SET | KIND_CLEAR) { u64::from(self.mask.trailing_zeros()) } else { 0 };
        stream.push(u64::from(self.word) | (rest as u64) << 32 | bit << 56 | kind << 62);
        match kind {
            KIND_ANY => stream.push(self.mask),
            KIND_MASK => stream.extend([self.mask, self.expect]),
            _ => {}
        }
    }
}

/// A test that one bit is set: one slot.
const KIND_SET: u64 = 0;
/// A test that one bit is clear: one slot.
const KIND_CLEAR: u64 = 1;
/// A test that the bits of a mask equal the expected ones: three slots.
const KIND_MASK: u64 = 2;
/// A test that some bit of a mask is set: two slots.
const KIND_ANY: u64 = 3;

/// One operation of a lowered program (see [`Code::seal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// Runs the nodes `lowered[first..end]` in order.
    Nodes { first: u32, end: u32 },
    /// Unless every bit of `mask` is set in word `word`: goes on at
    /// operation `skip` (just after the nodes it guards, whose outputs
    /// [`Code::run_lowered`] cleared beforehand).
    Guard { word: u32, mask: u64, skip: u32 },
    /// Runs nodes `first..end` (as written, not lowered) to a fixpoint.
    Fixpoint { first: u32, end: u32 },
    /// Sets the outputs (cleared before the run) of a run of nodes that
    /// read none of each other's outputs, term by term: the terms whose
    /// heads test set bits through `index_words[words_first..words_end]`,
    /// only those whose head holds; the others as the nodes
    /// `lowered[rest_first..rest_end]` (each with those heads alone).
    Indexed { words_first: u32, words_end: u32, rest_first: u32, rest_end: u32 },
    /// For each bit set among those of `index_words[first..end]`, runs the
    /// operations of each of its entries (`start | end << 32`, groups of
    /// guarded blocks that read none of each other's outputs, whose first
    /// guard requires that bit), then goes on at operation `resume` (just
    /// after them).
    Dispatch { first: u32, end: u32, resume: u32 },
}

/// The fewest groups of guarded blocks (sharing their first guard) that
/// [`Code::seal`] dispatches on their first guards' bits ([`Op::Dispatch`])
/// rather than testing each guard in turn.
const MIN_DISPATCH: usize = 4;

/// A word the set-bit heads of an [`Op::Indexed`] run test: `mask` holds
/// the bits they require, and the entries of the terms requiring the `r`th
/// of them (in order) are
/// `index_entries[index_offsets[offsets + r]..index_offsets[offsets + r + 1]]`
/// (likewise for the bits an [`Op::Dispatch`] looks up).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct IndexWord {
    word: u32,
    offsets: u32,
    mask: u64,
}

/// A node as [`Code::seal`] lowers it: its output bit (`word * 64 + bit`)
/// and the range of its terms' heads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LoweredNode {
    out: u32,
    first: u32,
    end: u32,
}

/// The number of slots of the tail that begins `tests` (a stream of encoded
/// tests, see [`Test::encode`]): its first test's and those after it.
fn tail_slots(tests: &[u64]) -> usize {
    let first = tests[0];
    let slots = match first >> 62 {
        KIND_SET | KIND_CLEAR => 1,
        KIND_ANY => 2,
        _ => 3,
    };
    slots + ((first >> 32) as usize & ((1 << 24) - 1))
}

/// Appends `tests`, a term's tail, to `stream`, each with the slots of
/// the tests after it (see [`Test::encode`]).
fn encode_tests(tests: &[Test], stream: &mut Vec<u64>) {
    let mut rest: usize = tests.iter().map(Test::slots).sum();
    for t in tests {
        rest -= t.slots();
        t.encode(rest, stream);
    }
}

/// The tests of the tail `stream` (all of it), decoded: what
/// [`encode_tests`] encoded.
fn decode_tests(stream: &[u64]) -> Vec<Test> {
    let mut tests = Vec::new();
    let mut k = 0;
    while k < stream.len() {
        let first = stream[k];
        let word = first as u32;
        let bit = 1u64 << ((first >> 56) & 63);
        let (test, slots) = match first >> 62 {
            KIND_SET => (Test { word, any: false, mask: bit, expect: bit }, 1),
            KIND_CLEAR => (Test { word, any: false, mask: bit, expect: 0 }, 1),
            KIND_ANY => (Test { word, any: true, mask: stream[k + 1], expect: 0 }, 2),
            _ => (Test { word, any: false, mask: stream[k + 1], expect: stream[k + 2] }, 3),
        };
        tests.push(test);
        k += slots;
    }
    tests
}

/// An entry of [`Op::Dispatch`] in [`Code::index_entries`]: the
/// operations `start..end`.
fn op_range(start: u32, end: usize) -> u64 {
    u64::from(start) | (end as u64) << 32
}

/// Whether the term whose tests begin `tests` (a stream of encoded tests,
/// see [`Test::encode`]) holds of `bits`: its tests run until one fails or
/// the last (the one with no slots of its term after it) holds.
#[inline(always)]
fn term_holds(tests: &[u64], bits: &[u64]) -> bool {
    let mut k = 0;
    loop {
        let head = tests[k];
        let word = bits[head as u32 as usize];
        let rest = (head >> 32) as usize & ((1 << 24) - 1);
        let kind = head >> 62;
        let (holds, slots) = if kind <= KIND_CLEAR {
            // One bit: set for `KIND_SET` (0), clear for `KIND_CLEAR` (1).
            ((word >> ((head >> 56) & 63)) & 1 != kind, 1)
        } else if kind == KIND_MASK {
            (word & tests[k + 1] == tests[k + 2], 3)
        } else {
            (word & tests[k + 1] != 0, 2)
        };
        if !holds {
            return false;
        }
        if rest == 0 {
            return true;
        }
        k += slots;
    }
}

/// Whether one of the terms of `heads` (a node's, see [`Head`]) holds of
/// `bits`, their tails being in `tails`: a term's tail is tested only where
/// its head holds.
#[inline(always)]
fn heads_hold(heads: &[u64], tails: &[u64], bits: &[u64]) -> bool {
    for &head in heads {
        let word = bits[(head & HEAD_WORD) as usize];
        let bit = (word >> ((head >> HEAD_BIT_SHIFT) & 63)) & 1;
        if bit == (head >> HEAD_EXPECT_SHIFT) & 1 || head & HEAD_ALWAYS != 0 {
            let tail = (head >> HEAD_TAIL_SHIFT) as u32;
            if tail == NO_TAIL || term_holds(&tails[tail as usize..], bits) {
                return true;
            }
        }
    }
    false
}

/// A lowered term's head: the one-bit test of the term most likely to fail
/// (its tail, the term's other tests, runs only where it holds), packed in
/// a `u64` by [`Head::encode`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Head {
    /// The word of the tested bit.
    word: u32,
    /// The tested bit in that word.
    bit: u32,
    /// Whether the bit must be set (else clear).
    expect: bool,
    /// Whether there is no test at all (the head always holds: the term has
    /// no one-bit condition).
    always: bool,
    /// Where the tail begins in the stream of tests, [`NO_TAIL`] if the term
    /// has no other test.
    tail: u32,
}

/// The bits of a packed head holding its word (bits 0–23): words from
/// `1 << 24` on are not lowered (see [`Code::seal`]).
const HEAD_WORD: u64 = (1 << 24) - 1;
/// Where a packed head's bit number begins (bits 24–29).
const HEAD_BIT_SHIFT: u32 = 24;
/// Where a packed head says whether its bit must be set (bit 30).
const HEAD_EXPECT_SHIFT: u32 = 30;
/// A packed head's mark that it always holds (bit 31).
const HEAD_ALWAYS: u64 = 1 << 31;
/// Where a packed head's tail begins (bits 32–63).
const HEAD_TAIL_SHIFT: u32 = 32;
/// The tail of a head whose term has no other test.
const NO_TAIL: u32 = u32::MAX;

impl Head {
    /// The head packed in a `u64`, as [`heads_hold`] reads it.
    fn encode(&self) -> u64 {
        assert!(u64::from(self.word) <= HEAD_WORD && self.bit < 64, "a head on word {}", self.word);
        u64::from(self.word)
            | u64::from(self.bit) << HEAD_BIT_SHIFT
            | u64::from(self.expect) << HEAD_EXPECT_SHIFT
            | if self.always { HEAD_ALWAYS } else { 0 }
            | u64::from(self.tail) << HEAD_TAIL_SHIFT
    }
}

/// Takes from `tests` (a term's) the one-bit test the most likely to fail,
/// as a head (its tail left unset): a bit required set rather than clear,
/// in the last word (derived propositions and oracle inputs come after the
/// state, and are more particular), the last bit of it. A term with no
/// one-bit condition (only tests of one of several bits, or none) gets a
/// head that always holds.
fn choose_head(tests: &mut Vec<Test>) -> Head {
    let candidates = tests.iter().enumerate().filter(|(_, t)| !t.any).flat_map(|(k, t)| {
        (0..64u32).rev().filter(move |&b| t.mask >> b & 1 == 1).map(move |b| (t.expect >> b & 1 == 1, t.word, b, k))
    });
    let Some((expect, word, bit, k)) = candidates.max_by_key(|&(expect, word, bit, _)| (expect, word, bit)) else {
        return Head { word: 0, bit: 0, expect: false, always: true, tail: NO_TAIL };
    };
    let test = &mut tests[k];
    test.mask &= !(1 << bit);
    test.expect &= !(1 << bit);
    if test.mask == 0 {
        tests.remove(k);
    }
    Head { word, bit, expect, always: false, tail: NO_TAIL }
}

/// The bits of `outputs` ((word, mask) pairs) merged, one pair per word,
/// sorted.
fn output_words(outputs: impl IntoIterator<Item = (u32, u64)>) -> Vec<(u32, u64)> {
    let mut words: Vec<(u32, u64)> = outputs.into_iter().collect();
    words.sort_unstable_by_key(|&(w, _)| w);
    let mut merged: Vec<(u32, u64)> = Vec::with_capacity(words.len());
    for (w, m) in words {
        match merged.last_mut() {
            Some((last, mask)) if *last == w => *mask |= m,
            _ => merged.push((w, m)),
        }
    }
    merged
}

/// The bits (each `word << 6 | bit`) an [`Op::Indexed`] run lists a term
/// under, and the term's tail there (see [`Code::index_keys`]).
type IndexKeys = (Vec<u64>, Vec<u64>);

/// A range of words: the first and the end.
type WordRange = (u32, u32);

/// `words` ((word, mask) pairs, one per word, sorted) split into the runs
/// of consecutive words whose masks are whole (as ranges of words) and the
/// other pairs.
fn whole_word_runs(words: Vec<(u32, u64)>) -> (Vec<WordRange>, Vec<(u32, u64)>) {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    let mut partial = Vec::new();
    for (word, mask) in words {
        match runs.last_mut() {
            _ if mask != !0 => partial.push((word, mask)),
            Some((_, end)) if *end == word => *end += 1,
            _ => runs.push((word, word + 1)),
        }
    }
    (runs, partial)
}

/// A term under construction: clauses by word.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct TermBuilder {
    clauses: Vec<Clause>,
}

impl TermBuilder {
    /// The term's clause on word `word`, added if it has none.
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

    /// The term's clauses, one per word.
    pub(crate) fn clauses(&self) -> &[Clause] {
        &self.clauses
    }

    /// The term of `clauses`.
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
        self.form = Form::Steps;
        (self.nodes.len() - 1) as u32
    }

    /// The value node `i` computes from `bits`.
    #[inline(always)]
    pub(crate) fn value(&self, i: u32, bits: &[u64]) -> bool {
        self.node_value(&self.nodes[i as usize], bits)
    }

    /// The value `node` computes from `bits`.
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

    /// Writes the value node `i` computes from `bits` to its bit; whether
    /// that changed the bit.
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

    /// Lowers the steps to the operations [`Code::run`] executes (or, for
    /// a program of fewer than [`LOWER_FROM`] clauses, prepares to run them
    /// as written: [`Form::Direct`]). Call once the steps are complete
    /// (until then, and after a later [`Code::push_node`], [`Code::run`]
    /// interprets the steps as [`Code::run_steps`] does); the steps must not
    /// change afterwards.
    ///
    /// Each node's terms become heads and tails (see [`Code::lower_node`]);
    /// consecutive nodes outside blocks, and each block's nodes, are one
    /// operation, or several where a node reads the output of one before
    /// it: each such run that reads no output of its own is indexed where
    /// that is worth it ([`Code::push_run`]). Consecutive guarded blocks
    /// with the same first guard (a group) get one guard operation for it,
    /// which skips them all when it fails; each block's second guard gets
    /// its own (unless the first implies it). Runs of groups, and the
    /// blocks of a group, that read none of each other's outputs are
    /// dispatched on their guards' bits instead ([`Code::push_dispatch`],
    /// [`Code::push_group`]). The output bits of all guarded nodes and
    /// indexed runs are cleared at the start of each run, so a skipped
    /// block leaves its outputs clear. The nodes inside a block drop the
    /// tests of their guards' bits, which hold wherever those nodes run.
    /// Programs that name words from `1 << 24` on (which a head cannot
    /// encode) are run as written.
    pub(crate) fn seal(&mut self) {
        unlimited(self.seal_within(&mut PeriodicCheck::new(Limits::none())))
    }

    /// As [`Code::seal`], stopped by the limits of `check` (a step per step
    /// and per node lowered): then the program is left unsealed, to be
    /// dropped.
    pub(crate) fn seal_within(&mut self, check: &mut PeriodicCheck) -> Result<(), OutOfLimits> {
        self.seal_lowering_from(LOWER_FROM, check)
    }

    /// As [`Code::seal_within`], lowering the program if it has at least
    /// `lower_from` clauses.
    fn seal_lowering_from(&mut self, lower_from: usize, check: &mut PeriodicCheck) -> Result<(), OutOfLimits> {
        self.form = Form::Steps;
        self.ops.clear();
        self.lowered.clear();
        self.heads.clear();
        self.tests.clear();
        self.clears.clear();
        self.clear_runs.clear();
        #[cfg(test)]
        {
            self.any_keyed = 0;
        }
        self.clear_ranges.clear();
        self.index_words.clear();
        self.index_offsets.clear();
        self.index_entries.clear();
        if self.clauses.len() < lower_from || self.clauses.iter().any(|c| u64::from(c.word) > HEAD_WORD) {
            return self.seal_direct(check);
        }
        // The output bits cleared before each run: those of guarded nodes
        // and of indexed runs.
        let mut cleared: Vec<(u32, u64)> = Vec::new();
        // Consecutive node steps, lowered together.
        let mut pending: Vec<u32> = Vec::new();
        let mut k = 0;
        while let Some(&step) = self.steps.get(k) {
            check.step()?;
            if !matches!(step, Step::Node(_)) && !pending.is_empty() {
                self.push_nodes(&std::mem::take(&mut pending), &[], &mut cleared);
            }
            match step {
                Step::Node(i) => {
                    pending.push(i);
                    k += 1;
                }
                Step::Fixpoint { first, end } => {
                    self.ops.push(Op::Fixpoint { first, end });
                    k += 1;
                }
                Step::Guarded { .. } => {
                    let groups = self.independent_groups(k);
                    let steps: usize = groups.iter().map(|&(_, shared)| shared).sum();
                    if groups.len() >= MIN_DISPATCH {
                        self.push_dispatch(&groups, check, &mut cleared)?;
                    } else {
                        for &(from, shared) in &groups {
                            self.push_group(from, shared, 0, check, &mut cleared)?;
                        }
                    }
                    k += steps;
                }
            }
        }
        if !pending.is_empty() {
            self.push_nodes(&pending, &[], &mut cleared);
        }
        (self.clear_runs, self.clears) = whole_word_runs(output_words(cleared));
        self.form = Form::Lowered;
        Ok(())
    }

    /// The groups of guarded steps from step `k` on, each as its first step
    /// and its number of steps (consecutive guarded steps sharing their
    /// first guard): at least the first group, then as long as a group's
    /// first guard tests some bit and its nodes and guards read no output
    /// of the groups before it (so that the groups may run in any order).
    fn independent_groups(&self, k: usize) -> Vec<(usize, usize)> {
        let mut groups = Vec::new();
        let mut outputs: FastMap<u32, u64> = FastMap::default();
        let mut from = k;
        while let Some(&Step::Guarded { guard: [outer, _], .. }) = self.steps.get(from) {
            let blocks = &self.steps[from..];
            let shared =
                blocks.iter().take_while(|s| matches!(s, Step::Guarded { guard, .. } if guard[0] == outer)).count();
            let reads = |guard: &[(u32, u64)], first: u32, end: u32| {
                guard.iter().any(|&(word, mask)| outputs.get(&word).is_some_and(|&out| out & mask != 0))
                    || (first..end).any(|i| self.node_reads(i, &outputs))
            };
            let independent = blocks[..shared].iter().all(|s| match *s {
                Step::Guarded { guard, first, end } => !reads(&guard, first, end),
                _ => false,
            });
            if !groups.is_empty() && (outer.1 == 0 || !independent) {
                break;
            }
            for s in &blocks[..shared] {
                if let Step::Guarded { first, end, .. } = *s {
                    for node in &self.nodes[first as usize..end as usize] {
                        *outputs.entry(node.word).or_default() |= node.mask;
                    }
                }
            }
            groups.push((from, shared));
            if outer.1 == 0 {
                break;
            }
            from += shared;
        }
        groups
    }

    /// Appends the operations of the guarded steps `from..from + shared`
    /// (sharing their first guard): one guard operation for the first guard
    /// (unless its bits are all in `known`, bits of its word known to be
    /// set), then the blocks, each under its second guard (unless the first
    /// implies it): at least [`MIN_DISPATCH`] blocks with a second guard of
    /// their own that read none of each other's outputs are dispatched on
    /// it ([`Op::Dispatch`], after the others), else each block is run in
    /// turn after a guard operation for it ([`Code::push_block`]).
    fn push_group(
        &mut self,
        from: usize,
        shared: usize,
        known: u64,
        check: &mut PeriodicCheck,
        cleared: &mut Vec<(u32, u64)>,
    ) -> Result<(), OutOfLimits> {
        let blocks: Vec<Step> = self.steps[from..from + shared].to_vec();
        let Some(&Step::Guarded { guard: [outer, _], .. }) = blocks.first() else { unreachable!("a guarded step") };
        let outer_op = (outer.1 & !known != 0).then(|| self.push_guard(outer));
        // Each block's guard, range and the bits of its second guard that
        // the first does not imply.
        let own = |block: &Step| {
            let Step::Guarded { guard, first, end } = *block else { unreachable!("a guarded step") };
            let implied = if guard[1].0 == outer.0 { outer.1 } else { 0 };
            (guard, first, end, guard[1].1 & !implied)
        };
        let second_guarded = blocks.iter().filter(|b| own(b).3 != 0).count();
        if second_guarded >= MIN_DISPATCH && self.blocks_independent(&blocks) {
            for block in blocks.iter().filter(|b| own(b).3 == 0) {
                let (guard, first, end, _) = own(block);
                self.push_block(guard, first, end, 0, check, cleared)?;
            }
            let at = self.ops.len();
            self.ops.push(Op::Dispatch { first: 0, end: 0, resume: 0 });
            let mut entries: Vec<(u64, Vec<u64>)> = Vec::with_capacity(second_guarded);
            for block in blocks.iter().filter(|b| own(b).3 != 0) {
                let (guard, first, end, residual) = own(block);
                let bit = 63 - residual.leading_zeros();
                let start = self.ops.len() as u32;
                self.push_block(guard, first, end, residual & !(1 << bit), check, cleared)?;
                entries.push((u64::from(guard[1].0) << 6 | u64::from(bit), vec![op_range(start, self.ops.len())]));
            }
            let (first, end) = self.push_index(entries);
            self.ops[at] = Op::Dispatch { first, end, resume: self.ops.len() as u32 };
        } else {
            for block in &blocks {
                let (guard, first, end, residual) = own(block);
                self.push_block(guard, first, end, residual, check, cleared)?;
            }
        }
        if let Some(op) = outer_op {
            self.end_guard(op);
        }
        Ok(())
    }

    /// Appends the nodes `first..end` of a block guarded by `guard`
    /// ([`Code::push_nodes`], their outputs added to `cleared`), under a
    /// guard operation testing the bits `test` of the second guard's word
    /// if there are any. A step of `check` per node.
    fn push_block(
        &mut self,
        guard: [(u32, u64); 2],
        first: u32,
        end: u32,
        test: u64,
        check: &mut PeriodicCheck,
        cleared: &mut Vec<(u32, u64)>,
    ) -> Result<(), OutOfLimits> {
        let op = (test != 0).then(|| self.push_guard((guard[1].0, test)));
        for _ in first..end {
            check.step()?;
        }
        let nodes: Vec<u32> = (first..end).collect();
        cleared.extend(nodes.iter().map(|&i| (self.nodes[i as usize].word, self.nodes[i as usize].mask)));
        self.push_nodes(&nodes, &guard, cleared);
        if let Some(op) = op {
            self.end_guard(op);
        }
        Ok(())
    }

    /// Whether none of the guarded `blocks` reads (in its nodes or guards)
    /// an output of another.
    fn blocks_independent(&self, blocks: &[Step]) -> bool {
        let mut outputs: FastMap<u32, u64> = FastMap::default();
        for block in blocks {
            let Step::Guarded { first, end, .. } = *block else { return false };
            for node in &self.nodes[first as usize..end as usize] {
                *outputs.entry(node.word).or_default() |= node.mask;
            }
        }
        blocks.iter().all(|block| {
            let Step::Guarded { guard, first, end } = *block else { return false };
            !guard.iter().any(|&(word, mask)| outputs.get(&word).is_some_and(|&out| out & mask != 0))
                && !(first..end).any(|i| self.node_reads(i, &outputs))
        })
    }

    /// Appends an [`Op::Dispatch`] over `groups` (as
    /// [`Code::independent_groups`] gives them, each first guard testing
    /// some bit), indexed by the last bit of each first guard, followed by
    /// the groups' operations ([`Code::push_group`], the indexed bit known
    /// set).
    fn push_dispatch(
        &mut self,
        groups: &[(usize, usize)],
        check: &mut PeriodicCheck,
        cleared: &mut Vec<(u32, u64)>,
    ) -> Result<(), OutOfLimits> {
        let at = self.ops.len();
        self.ops.push(Op::Dispatch { first: 0, end: 0, resume: 0 });
        let mut entries: Vec<(u64, Vec<u64>)> = Vec::with_capacity(groups.len());
        for &(from, shared) in groups {
            let Step::Guarded { guard: [(word, mask), _], .. } = self.steps[from] else {
                unreachable!("a guarded step")
            };
            let bit = 63 - mask.leading_zeros();
            let start = self.ops.len() as u32;
            self.push_group(from, shared, 1 << bit, check, cleared)?;
            entries.push((u64::from(word) << 6 | u64::from(bit), vec![op_range(start, self.ops.len())]));
        }
        let (first, end) = self.push_index(entries);
        self.ops[at] = Op::Dispatch { first, end, resume: self.ops.len() as u32 };
        Ok(())
    }

    /// Appends to [`Code::index_words`] the index of `entries` (each a bit,
    /// as `word << 6 | bit`, and its slots in [`Code::index_entries`]: an
    /// entry of a dispatch, or a term's header and tail); returns the range
    /// of its words. The entries of one bit keep their order.
    fn push_index(&mut self, mut entries: Vec<(u64, Vec<u64>)>) -> (u32, u32) {
        entries.sort_by_key(|&(at, _)| at);
        let words_first = self.index_words.len() as u32;
        let mut k = 0;
        while k < entries.len() {
            let word = (entries[k].0 >> 6) as u32;
            let offsets = self.index_offsets.len() as u32;
            let mut mask = 0u64;
            while k < entries.len() && (entries[k].0 >> 6) as u32 == word {
                let at = entries[k].0;
                mask |= 1 << (at & 63);
                self.index_offsets.push(self.index_entries.len() as u32);
                while k < entries.len() && entries[k].0 == at {
                    self.index_entries.extend_from_slice(&entries[k].1);
                    k += 1;
                }
            }
            self.index_offsets.push(self.index_entries.len() as u32);
            self.index_words.push(IndexWord { word, mask, offsets });
        }
        (words_first, self.index_words.len() as u32)
    }

    /// Appends operations running `nodes` (all run where the bits of
    /// `guards` are set), in layers: each node in the layer after the last
    /// of the nodes it reads (a node reading its own output, a stale one,
    /// alone in a layer of its own, never indexed), the nodes of a layer in
    /// their order. A layer reads none of its own outputs: it is indexed
    /// where that is worth it ([`Code::push_run`]), its outputs added to
    /// `cleared`; the others are plain [`Op::Nodes`].
    fn push_nodes(&mut self, nodes: &[u32], guards: &[(u32, u64)], cleared: &mut Vec<(u32, u64)>) {
        // The layer of each output bit of `nodes` seen so far.
        let mut layer_of: FastMap<u32, usize> = FastMap::default();
        // Each node's layer, and whether it reads its own output.
        let mut layers: Vec<(usize, bool, u32)> = Vec::with_capacity(nodes.len());
        for &i in nodes {
            let node = self.nodes[i as usize];
            let out = node.word * 64 + node.mask.trailing_zeros();
            let mut layer = 0;
            let mut own = false;
            for c in &self.clauses[node.first as usize..node.end as usize] {
                let mut read = c.pos | c.neg | c.any;
                while read != 0 {
                    let bit = c.word * 64 + read.trailing_zeros();
                    read &= read - 1;
                    own |= bit == out;
                    if let Some(&l) = layer_of.get(&bit) {
                        layer = layer.max(l + 1);
                    }
                }
            }
            layer_of.insert(out, if own { layer + 1 } else { layer });
            layers.push((if own { 2 * layer + 1 } else { 2 * layer }, own, i));
        }
        // Layers of nodes reading their own outputs in between (odd).
        layers.sort_by_key(|&(layer, _, _)| layer);
        let mut k = 0;
        while k < layers.len() {
            let (layer, own, _) = layers[k];
            let end = if own { k + 1 } else { k + layers[k..].iter().take_while(|l| l.0 == layer).count() };
            let run: Vec<u32> = layers[k..end].iter().map(|&(_, _, i)| i).collect();
            self.push_run(&run, guards, (!own).then_some(&mut *cleared));
            k = end;
        }
    }

    /// Whether node `i` reads one of the bits of `outputs` (masks by word).
    fn node_reads(&self, i: u32, outputs: &FastMap<u32, u64>) -> bool {
        let node = self.nodes[i as usize];
        self.clauses[node.first as usize..node.end as usize]
            .iter()
            .any(|c| outputs.get(&c.word).is_some_and(|&mask| (c.pos | c.neg | c.any) & mask != 0))
    }

    /// Lowers `nodes`, none of which reads the output of another, and
    /// appends the operation running them: with `cleared`, [`Op::Indexed`]
    /// if their set-bit heads are at least twice as many as the words
    /// they test (their outputs then added to `cleared`), else (or without
    /// `cleared`) [`Op::Nodes`].
    fn push_run(&mut self, nodes: &[u32], guards: &[(u32, u64)], cleared: Option<&mut Vec<(u32, u64)>>) {
        if nodes.is_empty() {
            return;
        }
        let first = self.lowered.len();
        for &i in nodes {
            self.lower_node(i, guards);
        }
        let heads_from = self.lowered[first].first as usize;
        // Each head's bits to index its term by, and its tail there.
        let keyed: Vec<Option<IndexKeys>> =
            self.heads[heads_from..].iter().map(|&head| self.index_keys(head)).collect();
        let mut words: Vec<u64> = keyed.iter().flatten().map(|(keys, _)| keys[0] >> 6).collect();
        let set_heads = words.len();
        words.sort_unstable();
        words.dedup();
        let Some(cleared) = cleared.filter(|_| set_heads > 0 && set_heads >= 2 * words.len()) else {
            self.ops.push(Op::Nodes { first: first as u32, end: self.lowered.len() as u32 });
            return;
        };
        // The run's heads: the indexable ones as entries by (word, bit),
        // the others left to their nodes.
        let runs: Vec<LoweredNode> = self.lowered.drain(first..).collect();
        let heads: Vec<u64> = self.heads.drain(heads_from..).collect();
        let mut entries: Vec<(u64, Vec<u64>)> = Vec::new();
        let rest_first = self.lowered.len() as u32;
        for node in &runs {
            cleared.push((node.out / 64, 1 << (node.out % 64)));
            let rest = self.heads.len() as u32;
            let (from, to) = (node.first as usize - heads_from, node.end as usize - heads_from);
            for (&head, keyed) in heads[from..to].iter().zip(&keyed[from..to]) {
                let Some((keys, tail)) = keyed else {
                    self.heads.push(head);
                    continue;
                };
                #[cfg(test)]
                {
                    self.any_keyed += usize::from(head & HEAD_ALWAYS != 0 || (head >> HEAD_EXPECT_SHIFT) & 1 == 0);
                }
                let mut slots = Vec::with_capacity(1 + tail.len());
                slots.push(u64::from(node.out) | (tail.len() as u64) << 32);
                slots.extend_from_slice(tail);
                entries.extend(keys.iter().map(|&at| (at, slots.clone())));
            }
            if self.heads.len() as u32 > rest {
                self.lowered.push(LoweredNode { out: node.out, first: rest, end: self.heads.len() as u32 });
            }
        }
        let (words_first, words_end) = self.push_index(entries);
        self.ops.push(Op::Indexed { words_first, words_end, rest_first, rest_end: self.lowered.len() as u32 });
    }

    /// The bits (as `word << 6 | bit`) under which an [`Op::Indexed`] run
    /// may list the term of `head` (see [`Head::encode`]), and the term's
    /// tail there (encoded tests), if it can be listed: a head requiring a
    /// set bit under that bit, with its tail; a term whose head does not
    /// (it requires a clear bit, or no bit) but whose tail tests that one
    /// of some bits is set, under each of those bits (of the test with the
    /// fewest), with its head's test and the rest of its tail — a set bit
    /// among them satisfies that test, and the term holds only if one is
    /// set. (A term listed under several bits sets its output once.)
    fn index_keys(&self, head: u64) -> Option<IndexKeys> {
        let word = head & HEAD_WORD;
        let bit = (head >> HEAD_BIT_SHIFT) & 63;
        let tail = (head >> HEAD_TAIL_SHIFT) as u32;
        let tail_tests = match tail {
            NO_TAIL => &[][..],
            tail => &self.tests[tail as usize..tail as usize + tail_slots(&self.tests[tail as usize..])],
        };
        if head & HEAD_ALWAYS == 0 && (head >> HEAD_EXPECT_SHIFT) & 1 == 1 {
            return Some((vec![word << 6 | bit], tail_tests.to_vec()));
        }
        let mut tests = decode_tests(tail_tests);
        let (k, _) = tests.iter().enumerate().filter(|(_, t)| t.any).min_by_key(|(_, t)| t.mask.count_ones())?;
        let any = tests.remove(k);
        if head & HEAD_ALWAYS == 0 {
            tests.insert(0, Test { word: word as u32, any: false, mask: 1 << bit, expect: 0 });
        }
        let keys = (0..64).filter(|&b| any.mask >> b & 1 == 1).map(|b| u64::from(any.word) << 6 | b).collect();
        let mut slots = Vec::new();
        encode_tests(&tests, &mut slots);
        Some((keys, slots))
    }

    /// Seals the program in [`Form::Direct`]: notes whether it is
    /// straight-line code and the bits each guarded block clears. A step of
    /// `check` per step.
    fn seal_direct(&mut self, check: &mut PeriodicCheck) -> Result<(), OutOfLimits> {
        let straight = self.steps.len() == self.nodes.len()
            && self.steps.iter().enumerate().all(|(k, s)| *s == Step::Node(k as u32));
        for k in 0..self.steps.len() {
            check.step()?;
            let start = self.clears.len() as u32;
            if let Step::Guarded { first, end, .. } = self.steps[k] {
                let words = output_words(self.nodes[first as usize..end as usize].iter().map(|n| (n.word, n.mask)));
                self.clears.extend(words);
            }
            self.clear_ranges.push((start, self.clears.len() as u32));
        }
        self.form = Form::Direct { straight };
        Ok(())
    }

    /// Appends a guard operation testing `guard`; returns its index, for
    /// [`Code::end_guard`].
    fn push_guard(&mut self, guard: (u32, u64)) -> usize {
        self.ops.push(Op::Guard { word: guard.0, mask: guard.1, skip: 0 });
        self.ops.len() - 1
    }

    /// Makes the guard operation `op` skip to the next operation appended.
    fn end_guard(&mut self, op: usize) {
        let next = self.ops.len() as u32;
        if let Op::Guard { skip, .. } = &mut self.ops[op] {
            *skip = next;
        }
    }

    /// Appends to [`Code::lowered`] node `i`, run only where the bits of
    /// `guards` ((word, mask) pairs) are all set: tests of those bits are
    /// left out, and a term left with no test ends the node (it holds).
    /// Each term becomes a head (see [`choose_head`]) and a tail of its
    /// other tests, the most likely to fail first.
    fn lower_node(&mut self, i: u32, guards: &[(u32, u64)]) {
        let node = self.nodes[i as usize];
        let first = self.heads.len() as u32;
        let mut term_tests: Vec<Test> = Vec::new();
        for term in self.clauses[node.first as usize..node.end as usize].split_inclusive(|c| c.last) {
            term_tests.clear();
            for c in term {
                let (mut pos, mut any) = (c.pos, c.any);
                for &(_, mask) in guards.iter().filter(|&&(word, _)| word == c.word) {
                    pos &= !mask;
                    if any & mask != 0 {
                        any = 0;
                    }
                }
                if pos | c.neg != 0 {
                    term_tests.push(Test { word: c.word, any: false, mask: pos | c.neg, expect: pos });
                }
                // At least one of one bit: that bit set.
                let single = any.count_ones() == 1;
                if any != 0 {
                    term_tests.push(Test {
                        word: c.word,
                        any: !single,
                        mask: any,
                        expect: if single { any } else { 0 },
                    });
                }
            }
            let head = choose_head(&mut term_tests);
            if head.always && term_tests.is_empty() {
                // The term always holds here: so does the node.
                self.heads.push(Head { tail: NO_TAIL, ..head }.encode());
                break;
            }
            // The likeliest to fail first: tests of set bits (the more the
            // likelier), then of one of some bits, then of clear bits.
            term_tests.sort_by_key(|t| {
                let class = if t.any {
                    1
                } else if t.expect != 0 {
                    0
                } else {
                    2
                };
                (class, std::cmp::Reverse(t.expect.count_ones()), std::cmp::Reverse(t.mask.count_ones()))
            });
            let tail = if term_tests.is_empty() { NO_TAIL } else { self.tests.len() as u32 };
            encode_tests(&term_tests, &mut self.tests);
            self.heads.push(Head { tail, ..head }.encode());
        }
        let end = self.heads.len() as u32;
        let out = node.word * 64 + node.mask.trailing_zeros();
        self.lowered.push(LoweredNode { out, first, end });
    }

    /// Whether [`Code::seal`] lowered the program.
    #[cfg(test)]
    pub(crate) fn is_lowered(&self) -> bool {
        self.form == Form::Lowered
    }

    /// Runs every step on `bits`, in the program's [`Form`].
    pub(crate) fn run(&self, bits: &mut [u64]) {
        match self.form {
            Form::Steps => self.run_steps(bits),
            Form::Direct { straight } => self.run_direct(straight, bits),
            Form::Lowered => self.run_lowered(bits),
        }
    }

    /// Runs the program in [`Form::Direct`].
    fn run_direct(&self, straight: bool, bits: &mut [u64]) {
        if straight {
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
                    if !on {
                        let (from, to) = self.clear_ranges[k];
                        for &(word, mask) in &self.clears[from as usize..to as usize] {
                            bits[word as usize] &= !mask;
                        }
                        continue;
                    }
                    for node in &self.nodes[first as usize..end as usize] {
                        let v = self.node_value(node, bits);
                        let w = &mut bits[node.word as usize];
                        *w = (*w & !node.mask) | if v { node.mask } else { 0 };
                    }
                }
                Step::Fixpoint { first, end } => self.fixpoint(first, end, bits),
            }
        }
    }

    /// Runs the program in [`Form::Lowered`] (not inlined into
    /// [`Code::run`]: the direct form of small programs runs faster alone).
    #[inline(never)]
    fn run_lowered(&self, bits: &mut [u64]) {
        for &(first, end) in &self.clear_runs {
            bits[first as usize..end as usize].fill(0);
        }
        for &(word, mask) in &self.clears {
            bits[word as usize] &= !mask;
        }
        self.run_ops(0, self.ops.len(), bits);
    }

    /// Runs the operations `ops[first..end]` (or some, as guards and
    /// dispatches skip).
    fn run_ops(&self, first: usize, end: usize, bits: &mut [u64]) {
        let mut k = first;
        while k < end {
            let op = self.ops[k];
            k += 1;
            match op {
                Op::Dispatch { first, end, resume } => {
                    self.dispatch(first, end, bits);
                    k = resume as usize;
                }
                Op::Nodes { first, end } => {
                    for node in &self.lowered[first as usize..end as usize] {
                        let v = heads_hold(&self.heads[node.first as usize..node.end as usize], &self.tests, bits);
                        let w = &mut bits[(node.out / 64) as usize];
                        let mask = 1 << (node.out % 64);
                        *w = (*w & !mask) | if v { mask } else { 0 };
                    }
                }
                Op::Guard { word, mask, skip } => {
                    if bits[word as usize] & mask != mask {
                        k = skip as usize;
                    }
                }
                Op::Fixpoint { first, end } => self.fixpoint(first, end, bits),
                Op::Indexed { words_first, words_end, rest_first, rest_end } => {
                    self.run_indexed(words_first, words_end, bits);
                    for node in &self.lowered[rest_first as usize..rest_end as usize] {
                        if heads_hold(&self.heads[node.first as usize..node.end as usize], &self.tests, bits) {
                            bits[(node.out / 64) as usize] |= 1 << (node.out % 64);
                        }
                    }
                }
            }
        }
    }

    /// Runs the operations of the entries of the bits set among those of
    /// `index_words[first..end]` (see [`Op::Dispatch`]).
    #[inline(never)]
    fn dispatch(&self, first: u32, end: u32, bits: &mut [u64]) {
        self.each_bit_set(first, end, bits, |code, from, to, bits| {
            for k in from..to {
                let range = code.index_entries[k];
                code.run_ops(range as u32 as usize, (range >> 32) as usize, bits);
            }
        });
    }

    /// Sets the outputs of the terms indexed by `index_words[first..end]`
    /// (see [`Op::Indexed`]) whose heads and tails hold: only the bits set
    /// in each word are looked up.
    #[inline(always)]
    fn run_indexed(&self, first: u32, end: u32, bits: &mut [u64]) {
        self.each_bit_set(first, end, bits, |code, from, to, bits| {
            let terms = &code.index_entries[from..to];
            let mut k = 0;
            while k < terms.len() {
                let header = terms[k];
                let (out, slots) = (header as u32, (header >> 32) as usize);
                let (word, mask) = ((out / 64) as usize, 1u64 << (out % 64));
                if bits[word] & mask == 0 && (slots == 0 || term_holds(&terms[k + 1..], bits)) {
                    bits[word] |= mask;
                }
                k += 1 + slots;
            }
        });
    }

    /// Calls `f` with the range in [`Code::index_entries`] of the entries
    /// of each bit set among those of `index_words[first..end]`, in the
    /// order of the words and bits (each word read once, before its entries
    /// run, so that what they set in it is not looked up again).
    #[inline(always)]
    fn each_bit_set(&self, first: u32, end: u32, bits: &mut [u64], mut f: impl FnMut(&Code, usize, usize, &mut [u64])) {
        for index in &self.index_words[first as usize..end as usize] {
            let mut set = bits[index.word as usize] & index.mask;
            while set != 0 {
                let bit = set.trailing_zeros();
                set &= set - 1;
                let rank = (index.mask & ((1u64 << bit) - 1)).count_ones();
                let at = (index.offsets + rank) as usize;
                let (from, to) = (self.index_offsets[at] as usize, self.index_offsets[at + 1] as usize);
                f(self, from, to, bits);
            }
        }
    }

    /// Runs every step on `bits` as written: each node by its clauses, a
    /// guarded block's nodes only when its guard is set (cleared
    /// otherwise). The reference for [`Code::run`].
    #[inline(never)]
    pub(crate) fn run_steps(&self, bits: &mut [u64]) {
        for step in &self.steps {
            match *step {
                Step::Node(i) => {
                    self.eval(i, bits);
                }
                Step::Guarded { guard, first, end } => {
                    let on = guard.iter().all(|&(word, mask)| bits[word as usize] & mask == mask);
                    for i in first..end {
                        if on {
                            self.eval(i, bits);
                        } else {
                            let node = &self.nodes[i as usize];
                            bits[node.word as usize] &= !node.mask;
                        }
                    }
                }
                Step::Fixpoint { first, end } => self.fixpoint(first, end, bits),
            }
        }
    }

    /// Runs nodes `first..end`, a recursive group, to a fixpoint from all
    /// false.
    fn fixpoint(&self, first: u32, end: u32, bits: &mut [u64]) {
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
        code.seal();
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

    /// A random guard: one or two bits of word 0 or 1, or (rarely) none.
    fn random_guard(rng: &mut impl rand::Rng) -> (u32, u64) {
        if rng.random_ratio(1, 8) {
            return (0, 0);
        }
        let mask =
            (1u64 << rng.random_range(0..64)) | if rng.random_bool(0.3) { 1 << rng.random_range(0..64) } else { 0 };
        (rng.random_range(0..2), mask)
    }

    /// A random term over bits `0..bits`, often requiring the bits of
    /// `guards` (or one of them, as an `any` test).
    fn random_term(rng: &mut impl rand::Rng, bits: u32, guards: &[(u32, u64)]) -> TermBuilder {
        let mut t = TermBuilder::default();
        for _ in 0..rng.random_range(0..4) {
            t.literal(rng.random_range(0..bits), rng.random_bool(0.6));
        }
        if rng.random_ratio(1, 5) {
            t.any(rng.random_range(0..2), rng.random::<u64>() & rng.random::<u64>());
        }
        for &(word, mask) in guards {
            if mask != 0 && rng.random_bool(0.6) {
                for b in (0..64).filter(|b| mask & (1 << b) != 0) {
                    t.literal(word * 64 + b, true);
                }
            } else if mask != 0 && rng.random_ratio(1, 10) {
                t.any(word, mask | 1 << rng.random_range(0..64));
            }
        }
        t
    }

    /// A random program writing bits `128..128 + outputs` (or a few more)
    /// from inputs in words 0 and 1 and the outputs of earlier nodes: plain
    /// nodes, fixpoint groups, and runs of guarded blocks sharing their
    /// first guard (the second in the same word, in another, the same, or
    /// none), half of the runs reading no output of their own; the program
    /// and the end of its outputs.
    fn random_program(rng: &mut rand::rngs::SmallRng, outputs: u32) -> (Code, u32) {
        use rand::Rng;
        let mut code = Code::default();
        let mut out = 128u32;
        let node =
            |code: &mut Code, rng: &mut rand::rngs::SmallRng, out: &mut u32, reads: u32, guards: &[(u32, u64)]| {
                let terms: Vec<TermBuilder> =
                    (0..rng.random_range(0..4)).map(|_| random_term(rng, reads.min(*out), guards)).collect();
                *out += 1;
                code.push_node(*out - 1, &terms)
            };
        while out < 128 + outputs {
            match rng.random_range(0..4) {
                0 => {
                    let n = node(&mut code, rng, &mut out, u32::MAX, &[]);
                    code.steps.push(Step::Node(n));
                }
                1 => {
                    let first = code.nodes.len() as u32;
                    let size = rng.random_range(1..4);
                    // A group's nodes read its outputs and earlier bits only.
                    let (group_first, group_end) = (out, out + size);
                    for _ in 0..size {
                        let mut t = random_term(rng, group_end, &[]);
                        t.literal(group_first + rng.random_range(0..size), true);
                        code.push_node(out, &[t, random_term(rng, out, &[])]);
                        out += 1;
                    }
                    code.steps.push(Step::Fixpoint { first, end: code.nodes.len() as u32 });
                }
                _ => {
                    // One run of guarded blocks sharing their first guard,
                    // or several: their nodes read no output of the runs
                    // (half of the time), or (as may any nodes) all
                    // earlier bits.
                    let runs = if rng.random_ratio(1, 3) { rng.random_range(4..7) } else { 1 };
                    let reads = if rng.random_bool(0.5) { out } else { u32::MAX };
                    for _ in 0..runs {
                        let outer = random_guard(rng);
                        for _ in 0..rng.random_range(1..7) {
                            let inner = match rng.random_range(0..4) {
                                0 => (outer.0, 1 << rng.random_range(0..64)),
                                1 => outer,
                                2 => (0, 0),
                                _ => random_guard(rng),
                            };
                            let first = code.nodes.len() as u32;
                            for _ in 0..rng.random_range(1..5) {
                                node(&mut code, rng, &mut out, reads, &[outer, inner]);
                            }
                            code.steps.push(Step::Guarded {
                                guard: [outer, inner],
                                first,
                                end: code.nodes.len() as u32,
                            });
                        }
                    }
                }
            }
        }
        (code, out)
    }

    /// Random programs, lowered by `seal` (and in the direct form),
    /// compute exactly what their steps do (`run_steps`) from random inputs (words 0 and 1) and stale outputs
    /// (words 2 to 7): plain nodes, runs of guarded blocks sharing their
    /// first guard (the second in the same word, in another, the same, or
    /// none), tests of the guard bits inside blocks, fixpoint groups; many
    /// of them lowered with indexed runs of nodes and with dispatches on
    /// first and on second guards.
    #[test]
    fn lowered_programs_compute_what_their_steps_do() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let (mut set, mut clear, mut blocks_off, mut blocks_on) = (0u32, 0u32, 0, 0);
        // Programs with indexed runs, with dispatches on first guards and
        // on second guards (nested in the first or not).
        let (mut indexed, mut first_dispatched, mut second_dispatched) = (0, 0, 0);
        // Terms of indexed runs listed under the bits of an `any` test.
        let mut any_keyed = 0;
        for _ in 0..400 {
            let (mut code, out) = random_program(&mut rng, 40);
            let mut direct = code.clone();
            direct.seal_lowering_from(usize::MAX, &mut PeriodicCheck::new(Limits::none())).expect("no limits");
            assert!(matches!(direct.form, Form::Direct { .. }));
            code.seal_lowering_from(0, &mut PeriodicCheck::new(Limits::none())).expect("no limits");
            assert_eq!(code.form, Form::Lowered);
            indexed += usize::from(code.ops.iter().any(|op| matches!(op, Op::Indexed { .. })));
            any_keyed += code.any_keyed;
            // Whether some dispatch indexes a bit of the first (`0`) or
            // second (`1`) guards of the steps.
            let dispatched_on = |which: usize| {
                code.ops.iter().any(|op| {
                    let &Op::Dispatch { first, end, .. } = op else { return false };
                    code.index_words[first as usize..end as usize].iter().any(|w| {
                        code.steps.iter().any(
                            |s| matches!(s, Step::Guarded { guard, .. } if guard[which].0 == w.word && guard[which].1 & w.mask != 0),
                        )
                    })
                })
            };
            first_dispatched += usize::from(dispatched_on(0));
            second_dispatched += usize::from(dispatched_on(1));
            for _ in 0..40 {
                // Inputs with many bits set, so that guards often hold.
                let dense = |rng: &mut rand::rngs::SmallRng| rng.random::<u64>() | rng.random::<u64>();
                let mut bits: Vec<u64> = (0..8).map(|_| rng.random()).collect();
                bits[..2].iter_mut().for_each(|w| *w = dense(&mut rng));
                let mut lowered = bits.clone();
                code.run(&mut lowered);
                let mut plain = bits.clone();
                code.run_steps(&mut plain);
                assert_eq!(lowered, plain, "{code:?}\n{bits:?}");
                let mut run_direct = bits.clone();
                direct.run(&mut run_direct);
                assert_eq!(run_direct, plain, "{code:?}\n{bits:?}");
                // The output bits, from bit 128 up to `out`.
                let outputs = (128..out).map(|b| plain[(b / 64) as usize] >> (b % 64) & 1 == 1);
                let ones = outputs.clone().filter(|&on| on).count() as u32;
                set += ones;
                clear += outputs.count() as u32 - ones;
                for step in &code.steps {
                    if let Step::Guarded { guard, .. } = step {
                        let on = guard.iter().all(|&(w, m)| plain[w as usize] & m == m);
                        if on { blocks_on += 1 } else { blocks_off += 1 }
                    }
                }
            }
        }
        // The programs compute something, and their blocks run and are skipped.
        assert!(set > 10_000 && clear > 10_000, "{set} set, {clear} clear");
        assert!(blocks_on > 10_000 && blocks_off > 10_000, "{blocks_on} on, {blocks_off} off");
        assert!(
            indexed > 100 && first_dispatched > 20 && second_dispatched > 20,
            "{indexed} indexed, {first_dispatched} and {second_dispatched} dispatched"
        );
        assert!(any_keyed > 200, "{any_keyed} terms listed under the bits of an `any` test");
    }

    /// Sealing within limits: a large (lowered) and a small (direct)
    /// random program, sealed within limits never reached, are what `seal`
    /// makes of them; cancelled from another thread at a dozen of the
    /// checks the sealing makes (the first, the last, and between), it stops
    /// at that very check with [`OutOfLimits::Cancelled`].
    #[test]
    fn sealing_stops_at_each_of_its_checks() {
        use crate::limits::tap::assert_stops_at_each_check;
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(29);
        for (outputs, least) in [(20_000, 20), (40, 1)] {
            let (code, _) = random_program(&mut rng, outputs);
            let mut unlimited = code.clone();
            unlimited.seal();
            assert_eq!(unlimited.is_lowered(), outputs > 40, "{outputs} outputs");
            let seal_within = |stop: Limits| {
                let mut sealed = code.clone();
                sealed.seal_within(&mut PeriodicCheck::new(stop)).map(|()| sealed)
            };
            let (sealed, _) = assert_stops_at_each_check(&format!("{outputs} outputs"), least, 12, seal_within);
            assert_eq!(sealed, unlimited, "{outputs} outputs: what `seal` makes of it");
        }
    }

    /// A game's circuit compiled as [`crate::Machine`] compiles it (a
    /// hybrid network if `hybrid`), and the memories its legal-moves
    /// program starts from (state, asks and oracle inputs) in states along
    /// random playouts of the machine; the circuit's legal moves are checked
    /// against the machine's on the way (they are the same network).
    fn game_memories(
        path: &str,
        hybrid: bool,
        playouts: usize,
        depth: usize,
    ) -> (crate::circuit::Circuit, Vec<Vec<u64>>) {
        use crate::ground::{self, Limits, Networks};
        use rand::SeedableRng;
        let game = crate::Game::parse(&std::fs::read_to_string(path).expect(path)).expect("the game parses");
        let machine =
            if hybrid { crate::Machine::compile_hybrid(&game) } else { crate::Machine::compile(&game) }.expect(path);
        let networks = if hybrid { Networks::Hybrid } else { Networks::Any };
        let mut g = ground::ground(&game, Limits::new(crate::DEFAULT_GROUNDING_LIMIT), networks).expect(path);
        if !g.externals.is_empty() {
            let asked = crate::hybrid::state_only_externals(&g);
            crate::asks::add_asks(&mut g, &asked);
        }
        let circuit = crate::circuit::compile(&g);
        let mut oracle = (!g.externals.is_empty()).then(|| {
            let moves: Vec<Vec<_>> = circuit.moves.iter().map(|l| l.iter().map(|i| i.term).collect()).collect();
            crate::hybrid::Oracle::for_network(&g, &circuit, &moves)
        });
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let mut e = crate::Evaluator::new(&machine);
        let mut memories = Vec::new();
        let mut legal = Vec::new();
        for _ in 0..playouts {
            e.load(&machine.initial_state());
            for _ in 0..depth {
                let state = e.state();
                let mut memory = vec![0u64; circuit.total_words as usize];
                memory[..state.0.len()].copy_from_slice(&state.0);
                if let Some(oracle) = &mut oracle {
                    circuit.ask.run_steps(&mut memory);
                    oracle.fill_state(&mut memory, &circuit.asks);
                }
                let mut bits = memory.clone();
                circuit.legal.run_steps(&mut bits);
                for (r, infos) in circuit.moves.iter().enumerate() {
                    e.legal_moves(r, &mut legal);
                    let mine: Vec<u32> = (0..infos.len() as u32)
                        .filter(|&m| {
                            bits[(infos[m as usize].legal_bit / 64) as usize] >> (infos[m as usize].legal_bit % 64) & 1
                                == 1
                        })
                        .collect();
                    assert_eq!(mine, legal, "{path}: the legal moves of role {r}");
                }
                memories.push(memory);
                if e.is_terminal() {
                    break;
                }
                let joint: Option<Vec<u32>> =
                    (0..circuit.moves.len()).map(|r| e.random_legal_move(r, &mut rng)).collect();
                let Some(joint) = joint else { break };
                e.advance(&joint);
            }
        }
        (circuit, memories)
    }

    /// Along random playouts of ticTacToe, connectFour, checkers and chess
    /// (a hybrid network), the asks, legal-moves-and-terminality and goals
    /// programs, as sealed and lowered whatever their size, compute exactly
    /// what their steps do, from each state's inputs with every other word
    /// stale (random).
    #[test]
    fn lowered_programs_compute_what_their_steps_do_in_games() {
        use rand::{Rng, SeedableRng};
        let dir = env!("CARGO_MANIFEST_DIR");
        let mut rng = rand::rngs::SmallRng::seed_from_u64(17);
        for (path, hybrid, playouts, least) in [
            (format!("{dir}/../../../shared/gdl/ticTacToe.kif"), false, 20, 100),
            (format!("{dir}/../../../shared/gdl/connectFour.kif"), false, 10, 100),
            (format!("{dir}/tests/games/checkers.kif"), false, 3, 100),
            (format!("{dir}/tests/games/chess.kif"), true, 2, 60),
        ] {
            let (circuit, memories) = game_memories(&path, hybrid, playouts, 60);
            assert!(memories.len() >= least, "{path}: {} states", memories.len());
            let large = path.contains("chess") || path.contains("checkers");
            assert_eq!(circuit.legal.is_lowered(), large, "{path}");
            // Chess's next state lists its terms "some move lands here"
            // under the moves' bits (checked along playouts in `machine`).
            assert!(!path.contains("chess") || circuit.next.any_keyed > 1000, "{path}: {}", circuit.next.any_keyed);
            let programs = [&circuit.ask, &circuit.legal, &circuit.goal];
            let lowered: Vec<Code> = programs
                .iter()
                .map(|&code| {
                    let mut code = code.clone();
                    code.seal_lowering_from(0, &mut PeriodicCheck::new(Limits::none())).expect("no limits");
                    code
                })
                .collect();
            let (first, inputs) = (circuit.input_words.0 as usize, circuit.input_words.1 as usize);
            let mut legal_moves = 0;
            for memory in &memories {
                let mut start = memory.clone();
                for (w, word) in start.iter_mut().enumerate().skip(circuit.state_words as usize) {
                    if !(first..first + inputs).contains(&w) {
                        *word = rng.random();
                    }
                }
                let mut plain = start.clone();
                programs.iter().for_each(|code| code.run_steps(&mut plain));
                let mut sealed = start.clone();
                programs.iter().for_each(|code| code.run(&mut sealed));
                assert_eq!(sealed, plain, "{path}");
                let mut forced = start.clone();
                lowered.iter().for_each(|code| code.run(&mut forced));
                assert_eq!(forced, plain, "{path}");
                let legal = circuit.moves.iter().flatten().map(|m| m.legal_bit);
                legal_moves += legal.filter(|&b| plain[(b / 64) as usize] >> (b % 64) & 1 == 1).count();
            }
            assert!(legal_moves >= memories.len(), "{path}: {legal_moves} legal moves");
        }
    }

    /// A term's head is a bit required set rather than clear, in the last
    /// word, taken out of its test; a term with only tests of one of
    /// several bits gets a head that always holds.
    #[test]
    fn heads_are_required_bits_taken_from_their_tests() {
        let mut tests = vec![
            Test { word: 3, any: false, mask: 0b0110, expect: 0b0100 },
            Test { word: 5, any: false, mask: 0b1001, expect: 0 },
            Test { word: 1, any: false, mask: 1 << 40, expect: 1 << 40 },
        ];
        let head = choose_head(&mut tests);
        assert_eq!(head, Head { word: 3, bit: 2, expect: true, always: false, tail: NO_TAIL });
        assert_eq!(tests[0], Test { word: 3, any: false, mask: 0b0010, expect: 0 });
        assert_eq!(tests.len(), 3);
        // The last bit of a test taken: the test goes.
        let head = choose_head(&mut tests);
        assert_eq!((head.word, head.bit, head.expect), (1, 40, true));
        assert_eq!(tests.len(), 2);
        // Only clear bits left: the last of them.
        let head = choose_head(&mut tests);
        assert_eq!((head.word, head.bit, head.expect), (5, 3, false));
        let mut any = vec![Test { word: 2, any: true, mask: 0b11, expect: 0 }];
        assert!(choose_head(&mut any).always);
        assert_eq!(any.len(), 1);
        // Encoded and read back by `heads_hold`: bit 2 of word 3 set.
        let tail = Head { word: 3, bit: 2, expect: true, always: false, tail: NO_TAIL }.encode();
        let mut bits = vec![0u64; 4];
        assert!(!heads_hold(&[tail], &[], &bits));
        bits[3] = 0b100;
        assert!(heads_hold(&[tail], &[], &bits));
    }
}
