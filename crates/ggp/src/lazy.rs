//! A lazy grounder: the value of one ground atom in a state, from a small
//! circuit over the state bits that is grounded the first time the atom is
//! asked and kept for every later state.
//!
//! A hybrid network ([`crate::hybrid`]) reads tens of thousands of external
//! atoms (chess's `(threatened white e 1 d 2)`), of which a state asks a few
//! dozen. Evaluating their rules bottom-up in every state costs about a
//! millisecond; here each asked atom is grounded once, top-down:
//!
//! - each rule whose head matches the atom has its body solved with the
//!   head's bindings, literal by literal in a greedy order (bound tests
//!   first, then the static or state literal expected to match fewest atoms,
//!   derived relations with free arguments last), static relations read
//!   through hash indexes on their bound arguments ([`crate::index`]);
//! - `(true p)` enumerates the base propositions matching `p`, each a leaf
//!   reading its state bit; a ground derived literal is grounded in turn (one
//!   node per ground atom, shared by every atom that reads it); a derived
//!   literal with free arguments is a *call*, tabled by its bound arguments:
//!   the atoms it can match, found once by solving its rules with those
//!   bindings; negation is NOT of the atom's node, a static one is checked;
//! - `(does r m)`, ground, is a leaf reading the joint move; with free
//!   arguments, it makes the rest of the body a *switch* on the joint move:
//!   for each `does` atom of a joint move it is evaluated with, the literal
//!   is matched to the atom and the rest grounded, once for the atom's
//!   arguments the rest reads (chess's discovered checks: once per rook,
//!   king square and square left, whatever the piece and where it went);
//! - the atom's node is the OR over its rules' solutions of the AND of each
//!   solution's state-dependent parts, constants folded.
//!
//! In a state, a node's value is computed once (an epoch-stamped memo), so
//! the atoms asked in one state share what they read; AND and OR stop at
//! their first deciding input. Evaluation is bound by cache misses (the
//! circuits grow to millions of nodes, a state reads about a thousand of
//! them here and there), so a node keeps its memo beside its gate, an AND
//! or OR of two inputs holds them inline, and an AND of a state bit and
//! one node (what a deferred rest becomes once grounded) is a *guard* that
//! reads only the state when the bit is unset; an asked atom whose node is
//! guarded is answered false from the bit alone, and the atoms asked again
//! in the order of the last state (the joint move's externals) are found
//! in that order's array ([`Replay`]) rather than by term id.
//!
//! The rest of a body after a state literal is *deferred*, grounded only the
//! first time a state with that literal's bit is evaluated. A state literal
//! that enumerates (`(true (cell ?x ?y ?p))`) is one *enumeration* gate: its
//! candidates' state bits are a list shared by every enumeration of that
//! literal under the same bindings of its variables (chess: about 140 lists
//! for 140,000 enumerations), kept as (state word, mask) groups, so that a
//! state is scanned a word at a time, visiting only the candidates set;
//! each candidate's rest is grounded the first time a state with its bit
//! set is evaluated, and only those rests are kept, by bit.
//!
//! Solving a rule body works on a *frame* (its literals left, bindings,
//! trail, conjunction and solutions), taken from a pool and given back, so
//! that grounding a new atom allocates no buffers once warm; the grounded
//! atoms' nodes are a vector by term id. A static or state literal with
//! every argument bound is found by an index on its arguments rather than
//! by building its instance in the term store (whose table, holding every
//! atom grounded, is a few cache misses per lookup).
//!
//! The atoms a state (or a joint move) asks are given as one list
//! ([`Lazy::values`]; the tests also ask one atom at a time). What a circuit
//! cannot evaluate is declined, and the caller asks the rules instead: an
//! atom that depends positively on itself through ground atoms (a circuit
//! has no fixpoints), a literal other than those above (a negation with
//! unbound variables, a `does` literal with free arguments in a call), the
//! joint move where none is given, and anything past
//! the limits: [`MAX_NODES`] nodes in all, [`WORK`] steps per ask, calls
//! nested [`MAX_DEPTH`] deep, circuits [`MAX_HEIGHT`] gates deep.

use std::sync::Arc;

use crate::datalog::{Model, equal, estimate, find_instance, instantiate, match_pat};
use crate::hash::FastMap;
use crate::index::{Index, Shape, key_of_pattern};
use crate::normalize::{Lit, NRule, Pat};
use crate::store::{Node, Pred, TermId, TermStore};
use crate::symbol::kw;

/// Most nodes all circuits together may have; past it, atoms not yet
/// grounded are declined for the rest of the state, and every circuit is
/// forgotten at the start of the next one once seven eighths of it are
/// used.
pub(crate) const MAX_NODES: usize = 4 << 20;

/// Most steps (candidate atoms tried, nodes made) grounding one asked atom
/// may take; past it the ask is declined, what was completed is kept, and a
/// later ask of the same atom goes on from there.
pub(crate) const WORK: usize = 1 << 21;

/// How deeply ground atoms and calls may nest while grounding (bounds the
/// native stack; a later ask can go deeper from what was completed).
pub(crate) const MAX_DEPTH: usize = 200;

/// Most gates from a circuit's root to a leaf (bounds the native stack of an
/// evaluation).
pub(crate) const MAX_HEIGHT: u32 = 2000;

/// A node of the circuits.
type NodeId = u32;

/// The constant false node.
const FALSE: NodeId = 0;

/// The constant true node.
const TRUE: NodeId = 1;

/// A node with no leaf yet.
const NONE: NodeId = u32::MAX;

/// One gate. An AND or OR of more than two inputs has them in a range of
/// [`Lazy::inputs`]; one of two has them inline, so that evaluating it
/// reads no other place of memory than its inputs' nodes (nine in ten of
/// chess's evaluated gates have two inputs, eight in ten a state bit among
/// them: [`Gate::Guard`]).
#[derive(Debug, Clone, Copy)]
enum Gate {
    Const(bool),
    /// State bit number.
    Bit(u32),
    Not(NodeId),
    And(u32, u32),
    Or(u32, u32),
    /// The AND of two nodes, the first evaluated first.
    And2(NodeId, NodeId),
    /// The OR of two nodes, the first evaluated first.
    Or2(NodeId, NodeId),
    /// State bit `.0` AND the node `.1`: what a deferred rest becomes once
    /// grounded, and any AND of a state bit and one other node. False
    /// without a read past the gate when the bit is unset.
    Guard(u32, NodeId),
    /// State bit `.0` AND the rest of a rule body, grounded only the first
    /// time the bit is set in a state evaluated ([`Lazy::conts`]`[.1]`);
    /// then a [`Gate::Guard`].
    Defer(u32, u32),
    /// Whether the joint move evaluated holds this `(does r m)` atom.
    Move(TermId),
    /// An enumerated state literal and the rest of its rule body
    /// ([`Lazy::enumerations`]`[.0]`): the OR, over its candidates whose
    /// state bits are set, of the rest with the literal matched to the
    /// candidate, each grounded the first time its bit is set in a state
    /// evaluated.
    Enumerate(u32),
    /// The rest of a rule body from a `does` literal with free arguments on
    /// ([`Lazy::conts`]`[.0]`, the literal first): the OR, over the joint
    /// move's `does` atoms, of that rest with the literal matched to the
    /// atom, each grounded the first time that atom is evaluated
    /// ([`Lazy::switches`]); the atoms whose role or kind of move the
    /// literal rules out ([`Lazy::switch_keys`]`[.1]`) are passed over.
    Switch(u32, u32),
}

/// What the `does` literal of a [`Gate::Switch`] can match, where its
/// pattern fixes it: the role, and the relation key of the move (chess's
/// `(does ?player (move ?piece ?u ?v ?x ?y))` never matches a `noop`); and
/// which of the atom's arguments the rest reads, where that decides the
/// rest ([`SwitchKey::reads`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct SwitchKey {
    role: Option<TermId>,
    moved: Option<Pred>,
    /// Where the literal matches every atom the key admits (its role
    /// given, or a variable; its move the relation's arguments as distinct
    /// variables, none bound before), the places of the atom's arguments
    /// whose variables the rest of the body reads ([`READ_ROLE`], or
    /// `1 + i` for the move's argument `i`; [`READ_NONE`] after the last):
    /// the rest grounded for one atom is the rest of every atom that agrees
    /// with it there. Chess's discovered check reads the role and the
    /// square left, not the piece or where it went: one rest per square,
    /// not per move. `None` where the literal is not of that form, or the
    /// rest reads every variable of it (the rest is kept by atom).
    reads: Option<[u8; SWITCH_READS]>,
}

/// Most arguments of a `does` atom a switch's rest may read and still be
/// kept by them ([`SwitchKey::reads`]).
const SWITCH_READS: usize = 4;
/// In [`SwitchKey::reads`]: the atom's role…
const READ_ROLE: u8 = 0;
/// … and no place.
const READ_NONE: u8 = u8::MAX;

impl SwitchKey {
    /// Whether a `does` atom of role `role` and move key `moved` can match.
    fn admits(self, role: TermId, moved: Pred) -> bool {
        self.role.is_none_or(|r| r == role) && self.moved.is_none_or(|m| m == moved)
    }
}

impl Gate {
    /// A state bit that must be set for the gate to hold, if it has one:
    /// the gate's own bit for a leaf, a guard or a deferred rest. It stays
    /// so as the gate changes (a deferred rest becomes a guard of the same
    /// bit), until the circuits are forgotten.
    fn guard(self) -> Option<u32> {
        match self {
            Gate::Bit(bit) | Gate::Guard(bit, _) | Gate::Defer(bit, _) => Some(bit),
            _ => None,
        }
    }
}

/// A node of the circuits: its gate, and beside it (in the same cache
/// line) its value in the current state: `epoch << 2 | value` when computed
/// in it, `epoch << 2 | 2` while being computed ([`Lazy::eval`]).
#[derive(Debug, Clone, Copy)]
struct NodeCell {
    gate: Gate,
    memo: u32,
}

/// The rest of a rule body after a state literal, not grounded yet (or from
/// a switch's `does` literal or an enumeration's state literal on, that
/// literal first): the rule, the literals left and the bindings they read.
#[derive(Debug, Clone, Copy)]
struct Cont {
    rule: u32,
    /// The ground atom whose rule it is.
    head: TermId,
    /// Where its literals left start in [`Lazy::cont_lits`], and how many.
    lits: u32,
    len: u16,
    /// Where its bindings start in [`Lazy::cont_vars`] (and
    /// [`Lazy::cont_values`]), and how many: the
    /// bound variables of the literals left, as (variable, value) pairs.
    binds: u32,
    binds_len: u16,
    depth: u16,
}

/// A state literal that enumerates, in a ground atom's rule: the literal
/// and the rest of the body, its candidates (a shared list) and the rests
/// grounded so far.
#[derive(Debug, Clone)]
struct Enumeration {
    /// The literal then the rest of the body ([`Lazy::conts`]), with the
    /// bindings from before the literal was matched; [`NO_CONT`] when
    /// nothing follows the literal (each candidate's rest is true).
    cont: u32,
    /// Its candidates: the groups `from..to` of [`Lazy::groups`], a list
    /// shared by every enumeration of the same literal and bindings.
    from: u32,
    to: u32,
    /// The rest of the body with the literal matched to a candidate, for
    /// the candidates whose bit was set in some state evaluated, as (state
    /// bit, node): the first two here, ([`NO_BIT`], [`FALSE`]) where none,
    /// beside the enumeration's other fields (most enumerations have no
    /// more, and finding them then reads no other place of memory)...
    near: [(u32, NodeId); 2],
    /// ... and the others: while at most [`DENSE_FROM`], (state bit, node)
    /// pairs sorted by bit, flattened; past that ([`Enumeration::dense`]),
    /// one node per candidate, by the candidate's place in the list
    /// ([`NONE`] where no rest), found without a search (an enumeration of
    /// chess's threats meets up to 64 attackers' squares over a playout).
    others: Vec<u32>,
    /// Whether [`Enumeration::others`] is by the candidates' places.
    dense: bool,
}

/// The most rests an enumeration keeps as sorted pairs besides its near
/// ones; one more and they are kept by candidate instead.
const DENSE_FROM: usize = 8;

impl Enumeration {
    /// A new enumeration of the rest `cont` over the candidates `from..to`,
    /// no rest grounded.
    fn new(cont: u32, from: u32, to: u32) -> Enumeration {
        Enumeration { cont, from, to, near: [(NO_BIT, FALSE); 2], others: Vec::new(), dense: false }
    }

    /// The rest grounded for the candidate of state bit `bit`, the
    /// `place`-th of the list, if any. `at`: where to start looking among
    /// the sorted pairs (the candidates being met in the order of their
    /// bits), moved to where `bit`'s pair is or would go.
    #[inline(always)]
    fn rest_of(&self, bit: u32, place: u32, at: &mut usize) -> Option<NodeId> {
        if let Some(&(_, rest)) = self.near.iter().find(|&&(b, _)| b == bit) {
            return Some(rest);
        }
        if self.dense {
            return self.others.get(place as usize).copied().filter(|&rest| rest != NONE);
        }
        let (pairs, _) = self.others.as_chunks::<2>();
        *at += pairs[*at..].partition_point(|&[b, _]| b < bit);
        pairs.get(*at).filter(|&&[b, _]| b == bit).map(|&[_, rest]| rest)
    }

    /// Replaces the rest of the candidate of state bit `bit` (the `place`-th
    /// of the list, at `at` among the sorted pairs, as
    /// [`Enumeration::rest_of`] found it) by `rest`.
    fn replace_rest(&mut self, bit: u32, place: u32, at: usize, rest: NodeId) {
        if let Some(near) = self.near.iter_mut().find(|(b, _)| *b == bit) {
            near.1 = rest;
        } else if self.dense {
            self.others[place as usize] = rest;
        } else {
            self.others[2 * at + 1] = rest;
        }
    }

    /// Records `rest` as the rest of the candidate of state bit `bit`, the
    /// `place`-th of the list `groups` (the enumeration's), at `at` among
    /// the sorted pairs (as [`Enumeration::rest_of`] left it) when the near
    /// ones are taken. Returns how many more slots [`Enumeration::others`]
    /// has when it turns dense.
    fn add_rest(&mut self, at: usize, bit: u32, place: u32, rest: NodeId, groups: &[Group]) -> usize {
        if let Some(free) = self.near.iter_mut().find(|(b, _)| *b == NO_BIT) {
            *free = (bit, rest);
            return 0;
        }
        if self.dense {
            self.others[place as usize] = rest;
            return 0;
        }
        self.others.splice(2 * at..2 * at, [bit, rest]);
        if self.others.len() <= 2 * DENSE_FROM {
            return 0;
        }
        let places: u32 = groups.iter().map(|g| g.mask.count_ones()).sum();
        let mut dense = vec![NONE; places as usize];
        for &[bit, rest] in self.others.as_chunks::<2>().0 {
            dense[place_in(groups, bit) as usize] = rest;
        }
        self.others = dense;
        self.dense = true;
        places as usize
    }

    /// Every rest grounded, as (state bit, node), given the state bits of
    /// the enumeration's candidates in order (`listed`).
    #[cfg(test)]
    fn all_rests(&self, listed: &[u32]) -> Vec<(u32, NodeId)> {
        let mut all: Vec<(u32, NodeId)> = self.near.iter().copied().filter(|&(b, _)| b != NO_BIT).collect();
        if self.dense {
            all.extend(listed.iter().copied().zip(self.others.iter().copied()).filter(|&(_, rest)| rest != NONE));
        } else {
            all.extend(self.others.as_chunks::<2>().0.iter().map(|&[b, rest]| (b, rest)));
        }
        all
    }
}

/// The AND (`all`) or OR of the two nodes `a` and `b`, `a` first.
fn pair(all: bool, a: NodeId, b: NodeId) -> Gate {
    if all { Gate::And2(a, b) } else { Gate::Or2(a, b) }
}

/// The place of state bit `bit` in the candidate list `groups` (which
/// holds it): how many candidates come before it.
fn place_in(groups: &[Group], bit: u32) -> u32 {
    let (word, j) = (bit / 64, bit % 64);
    let mut place = 0;
    for g in groups {
        if g.word == word {
            return place + (g.mask & ((1u64 << j) - 1)).count_ones();
        }
        place += g.mask.count_ones();
    }
    place
}

/// Candidates of an enumeration in one state word: the word's place in
/// the state and the mask of the candidates' bits in it (the candidate of
/// bit `j` of the word being `(true p)` of state bit `64 * word + j`).
#[derive(Debug, Clone, Copy)]
struct Group {
    /// The state word, by its place.
    word: u32,
    /// The candidates' bits in it.
    mask: u64,
}

/// No rest after an enumeration's literal, in [`Enumeration::cont`].
const NO_CONT: u32 = u32::MAX;

/// What solving a rule body works on (a solving frame), kept in a pool
/// ([`Lazy::frames`]) so that grounding allocates no buffers once warm.
#[derive(Debug, Clone, Default)]
struct Frame {
    /// The literals of the body left to solve, by their places in it.
    left: Vec<usize>,
    /// The value of each variable of the rule, where bound.
    b: Vec<Option<TermId>>,
    /// The variables bound, in order, to unbind when backtracking.
    trail: Vec<u16>,
    /// The nodes that hold in the solution being built, so far.
    conj: Vec<NodeId>,
    /// Each solution's head atom and node.
    out: Vec<(TermId, NodeId)>,
    /// How deeply ground atoms and calls nest here.
    depth: usize,
}

impl Frame {
    /// Starts solving a rule of `width` variables: nothing bound, no
    /// literal left, nothing holding (the solutions are kept).
    fn start(&mut self, width: usize) {
        self.left.clear();
        self.b.clear();
        self.b.resize(width, None);
        self.trail.clear();
        self.conj.clear();
    }
}

/// An atom asked, with its node and the state bit that node needs to hold
/// ([`Gate::guard`], [`NO_BIT`] if none).
#[derive(Debug, Clone, Copy)]
struct Asked {
    atom: TermId,
    node: NodeId,
    guard: u32,
}

/// The atoms asked since the state (or the joint move) last changed, in
/// the order of the last such sequence: a caller that asks the same atoms
/// in the same order state after state (the joint move's externals, a few
/// hundred in chess) finds each one's node and guard bit at the next place
/// of a short array, rather than in the table by term id, and most of
/// them are then answered false by their guard bit alone, without reading
/// their node. An atom asked out of that order is looked up as before and
/// takes its place in the sequence.
#[derive(Debug, Clone, Default)]
struct Replay {
    asked: Vec<Asked>,
    /// How many atoms have been asked in this sequence.
    at: usize,
}

impl Replay {
    /// Most atoms a sequence remembers.
    const MOST: usize = 1 << 14;

    /// Starts a new sequence (of a new state or joint move).
    fn restart(&mut self) {
        self.at = 0;
    }

    /// The atom asked at this place in the last sequence, if it is `atom`;
    /// moves on to the next place either way.
    fn next(&mut self, atom: TermId) -> Option<Asked> {
        let at = self.at;
        self.at += 1;
        self.asked.get(at).copied().filter(|asked| asked.atom == atom)
    }

    /// Records `asked` at the place [`Replay::next`] just passed (when the
    /// places before it are recorded, and within [`Replay::MOST`]).
    fn record(&mut self, asked: Asked) {
        let at = self.at - 1;
        if at < self.asked.len() {
            self.asked[at] = asked;
        } else if at == self.asked.len() && at < Self::MOST {
            self.asked.push(asked);
        }
    }

    /// Forgets every sequence (the nodes they name are gone).
    fn clear(&mut self) {
        self.asked.clear();
        self.at = 0;
    }
}

/// No state bit, in [`Lazy::bit_of`].
const NO_BIT: u32 = u32::MAX;

/// No index selects, in [`Lazy::lit_indexes`].
const NO_INDEX: u32 = u32::MAX;

/// About how many bytes the circuits and what they were grounded from may
/// take before they are all forgotten, at the start of the next state, and
/// grounded again as asked. Along chess playouts, 256 MB was reached every
/// 100,000 transitions or so (12 s), and forgetting costs every atom asked
/// since, grounded again: the next 5 s ran at two thirds of the speed
/// before. The circuits asked along playouts keep growing for minutes
/// (after 2 million transitions, 5.5 million nodes and about 900 MB
/// counted, by about 2 nodes a transition): with 384 MB, chess made 17,500–17,700
/// transitions per CPU second over a minute against 15,000–15,600 with
/// 256 MB (and 16,900–18,600 with 512 MB). A player runs two searches,
/// each with its own grounder, and chess's process is about 650 MB
/// without them.
pub(crate) const MEMORY: usize = 384 << 20;

/// How far an atom or a call is grounded.
#[derive(Debug, Clone, Copy)]
enum Status<T> {
    /// Being grounded: met again, it is a positive cycle.
    Busy,
    Done(T),
    /// Not groundable (a cycle, an unsupported literal): declined for good.
    Failed,
}

/// The node of each ground atom grounded, by its term id: a vector as long
/// as the largest id met, whose lookups touch one place of memory (the
/// atoms asked, and those their rules read, are looked up all the time).
#[derive(Debug, Clone, Default)]
struct AtomNodes {
    /// By term id: the atom's node, or [`AtomNodes::UNKNOWN`],
    /// [`AtomNodes::BUSY`] or [`AtomNodes::FAILED`] (above any node).
    nodes: Vec<NodeId>,
}

impl AtomNodes {
    /// Not grounded (nor being grounded).
    const UNKNOWN: NodeId = NONE;
    /// [`Status::Busy`].
    const BUSY: NodeId = NONE - 1;
    /// [`Status::Failed`].
    const FAILED: NodeId = NONE - 2;

    /// How far `atom` is grounded; `None` when not at all.
    fn get(&self, atom: TermId) -> Option<Status<NodeId>> {
        match self.nodes.get(atom.0 as usize).copied().unwrap_or(Self::UNKNOWN) {
            Self::UNKNOWN => None,
            Self::BUSY => Some(Status::Busy),
            Self::FAILED => Some(Status::Failed),
            node => Some(Status::Done(node)),
        }
    }

    /// Records how far `atom` is grounded.
    fn set(&mut self, atom: TermId, status: Status<NodeId>) {
        let at = atom.0 as usize;
        if self.nodes.len() <= at {
            self.nodes.resize(at + 1, Self::UNKNOWN);
        }
        self.nodes[at] = match status {
            Status::Busy => Self::BUSY,
            Status::Failed => Self::FAILED,
            Status::Done(node) => node,
        };
    }

    /// Forgets `atom`: it is not grounded.
    fn remove(&mut self, atom: TermId) {
        if let Some(node) = self.nodes.get_mut(atom.0 as usize) {
            *node = Self::UNKNOWN;
        }
    }

    /// Forgets every atom.
    fn clear(&mut self) {
        self.nodes.clear();
    }

    /// About how many bytes the table takes.
    fn bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<NodeId>()
    }
}

/// Why grounding stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// A positive cycle through ground atoms or calls.
    Cycle,
    /// A literal the circuits cannot express.
    Unsupported,
    /// An atom declined for good before.
    Failed,
    /// A circuit deeper than [`MAX_HEIGHT`].
    Tall,
    /// Past [`WORK`] for this ask.
    Work,
    /// Calls nested deeper than [`MAX_DEPTH`].
    Deep,
    /// Past [`MAX_NODES`].
    Full,
}

impl Stop {
    /// Whether the atoms being grounded when this happened can never be.
    fn is_permanent(self) -> bool {
        matches!(self, Stop::Cycle | Stop::Unsupported | Stop::Failed | Stop::Tall)
    }
}

/// Where the atoms of a relation come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// `(true p)`: the state.
    State,
    /// `(does r m)`: the joint move ([`Lazy::value_after`]).
    Move,
    /// Defined by the rules.
    Derived,
    /// Evaluated once, in the static model.
    Static,
}

/// The lazy grounder of some relations (see the module's documentation).
#[derive(Debug, Clone)]
pub(crate) struct Lazy {
    store: TermStore,
    /// Terms of the caller's store: ids from it are below this.
    known: usize,
    rules: Arc<[NRule]>,
    /// Each rule's number of variables (at least one past its largest).
    widths: Arc<[usize]>,
    /// The rules of each derived relation.
    defined: FastMap<Pred, Arc<[u32]>>,
    statics: Model,
    /// `(true p)` for each base proposition `p`, by state bit.
    truths: Vec<TermId>,
    /// The state bit of each `(true p)`, by its term id ([`NO_BIT`] for
    /// other terms).
    bit_of: Vec<u32>,
    /// The number of base propositions with each relation key.
    base_sizes: FastMap<Pred, usize>,
    /// Indexes on static relations (and on `truths`, under `true`).
    indexes: Vec<Index>,
    /// The place in [`Lazy::indexes`] of the index of each relation and
    /// shape of the literal it answers.
    index_of: FastMap<(Pred, Shape), u32>,
    /// The nodes, by id: each gate with its memo.
    nodes: Vec<NodeCell>,
    inputs: Vec<NodeId>,
    /// The deferred rests of rule bodies ([`Gate::Defer`]), with their
    /// literals and bindings stored flat.
    conts: Vec<Cont>,
    cont_lits: Vec<u8>,
    /// The variables of the rests' bindings, and beside them (at the same
    /// places) their values: two arrays, 6 bytes a binding rather than 8.
    cont_vars: Vec<u16>,
    cont_values: Vec<TermId>,
    /// The enumerated state literals ([`Gate::Enumerate`]).
    enumerations: Vec<Enumeration>,
    /// How many rests the enumerations have grounded, all together.
    enumerated_rests: usize,
    /// How many slots the enumerations kept by candidate have, all
    /// together ([`Enumeration::dense`]).
    dense_slots: usize,
    /// The candidate lists of the enumerations, each list's groups together
    /// and sorted by word.
    groups: Vec<Group>,
    /// Each candidate list's groups (`from..to` in [`Lazy::groups`]), by the
    /// literal it lists (its rule and place in the body) and the bindings
    /// of the literal's variables ([`list_key`]).
    lists: FastMap<Box<[u64]>, (u32, u32)>,
    /// The variables of each literal of each rule, as a mask (bit `v` for
    /// variable `v`; used for rules of at most 64 variables).
    lit_masks: Arc<[Box<[u64]>]>,
    /// The index answering a static or `true` literal of a rule when the
    /// literal's variables in a mask are bound, a place in
    /// [`Lazy::indexes`] ([`NO_INDEX`] when no index selects), by the
    /// literal (its address: the rules are shared and never change) and
    /// the mask of its bound variables.
    lit_indexes: FastMap<(usize, u64), u32>,
    /// Each choice of the literal to solve next ([`Lazy::pick`]), by
    /// [`pick_key`]: the literal.
    picks: FastMap<(usize, u64, u64), u32>,
    /// A scratch buffer for [`Lazy::combine`].
    combine_buffer: Vec<NodeId>,
    /// A scratch buffer for [`Lazy::pick`]: which variables are bound.
    bound_buffer: Vec<bool>,
    /// The candidates of the literals being solved, as a stack: each
    /// enumeration pushes its candidates above those of the enumerations
    /// it runs within, and pops them when done.
    candidate_stack: Vec<TermId>,
    /// A scratch buffer for a call's table key or a candidate list's key.
    key_buffer: Vec<u64>,
    /// A scratch buffer for a candidate list's state bits.
    bits_buffer: Vec<u32>,
    /// The solving frames not in use.
    frames: Vec<Frame>,
    /// The store as it was before any grounding, to start again from.
    pristine: Arc<TermStore>,
    /// The rule being solved for a ground atom, whose rest may be deferred
    /// after a state literal (`None` while solving a call, whose heads must
    /// all be found).
    deferring: Option<(u32, TermId)>,
    heights: Vec<u32>,
    /// The leaf of each state bit, once made.
    leaves: Vec<NodeId>,
    /// The negation of each node that has one.
    negations: FastMap<NodeId, NodeId>,
    atoms: AtomNodes,
    calls: FastMap<Box<[u64]>, Status<Arc<[TermId]>>>,
    /// Steps taken by the current ask.
    work: usize,
    /// The current state's stamp in the nodes' memos.
    epoch: u32,
    /// The atoms asked without a joint move, then those asked with one
    /// ([`Lazy::value`], [`Lazy::value_after`]), in their last order.
    replays: [Replay; 2],
    /// The state the memo is for (its words).
    seen: Vec<u64>,
    /// The `does` atoms of the joint move the memo is for (one per role),
    /// when [`Lazy::moving`].
    joint: Vec<TermId>,
    /// The role and the move's relation key of each of [`Lazy::joint`]'s
    /// atoms.
    joint_keys: Vec<(TermId, Pred)>,
    /// Whether the memo is for a joint move: without one, a gate that reads
    /// the move cannot be evaluated.
    moving: bool,
    /// The leaf of each `(does r m)` atom, once made ([`Gate::Move`]).
    move_leaves: FastMap<TermId, NodeId>,
    /// The rest of each [`Gate::Switch`] for each `does` atom it has been
    /// evaluated with, by the switch's node and the atom…
    switches: FastMap<(NodeId, TermId), NodeId>,
    /// … or, for a switch whose rest reads only some of the atom's
    /// arguments ([`SwitchKey::reads`]), by the node and those arguments.
    switches_by_reads: FastMap<(NodeId, [TermId; SWITCH_READS]), NodeId>,
    /// The keys of the switches ([`Gate::Switch`]), each once, and their
    /// places.
    switch_keys: Vec<SwitchKey>,
    switch_key_places: FastMap<SwitchKey, u32>,
    /// About how many bytes may be used before every circuit is forgotten
    /// ([`MEMORY`]).
    memory: usize,
    /// Most nodes ([`MAX_NODES`]).
    max_nodes: usize,
    /// How many times every circuit was forgotten.
    forgets: usize,
}

/// A literal's choice rank: bound tests, then ground literals, then the
/// cheapest enumeration, calls, and finally what stays unbound.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
struct Rank(u8, f64);

/// A static or state literal expected to match more atoms than this is
/// put after a derived call that binds something.
const CALL_FIRST: f64 = 256.0;

impl Lazy {
    /// `rules`: normalised rules defining the derived relations that can be
    /// asked (and everything they read that is not static: a relation with
    /// rules here is derived, even if `statics` has atoms of it);
    /// `statics`: the static relations, evaluated; `store`: the term store
    /// those live in (Lazy keeps its own clone, so its ids for existing
    /// terms are the caller's); `base`: the base proposition `p` of each
    /// state bit (state bit `i` holds iff `(true base[i])`).
    pub(crate) fn new(rules: &[NRule], statics: &Model, store: &TermStore, base: &[TermId]) -> Lazy {
        let mut store = store.clone();
        let known = store.len();
        let mut of: FastMap<Pred, Vec<u32>> = FastMap::default();
        let mut widths = Vec::with_capacity(rules.len());
        let mut lit_masks = Vec::with_capacity(rules.len());
        for (i, rule) in rules.iter().enumerate() {
            if let Some(pred) = pred_of(&rule.head, &store) {
                of.entry(pred).or_default().push(i as u32);
            }
            let mut vars = Vec::new();
            rule.head.vars(&mut vars);
            rule.body.iter().for_each(|l| l.vars(&mut vars));
            widths.push(vars.iter().map(|&v| v as usize + 1).max().unwrap_or(0).max(rule.vars));
            let masks: Box<[u64]> = rule
                .body
                .iter()
                .map(|l| {
                    let mut vars = Vec::new();
                    l.vars(&mut vars);
                    vars.iter().filter(|&&v| v < 64).fold(0, |mask, &v| mask | 1 << v)
                })
                .collect();
            lit_masks.push(masks);
        }
        let mut truths = Vec::with_capacity(base.len());
        let mut bit_of = Vec::new();
        let mut base_sizes: FastMap<Pred, usize> = FastMap::default();
        for (bit, &p) in base.iter().enumerate() {
            let truth = store.app(kw::TRUE, &[p]);
            truths.push(truth);
            let at = truth.0 as usize;
            if bit_of.len() <= at {
                bit_of.resize(at + 1, NO_BIT);
            }
            if bit_of[at] == NO_BIT {
                bit_of[at] = bit as u32;
            }
            *base_sizes.entry(store.pred(p)).or_default() += 1;
        }
        let pristine = Arc::new(store.clone());
        Lazy {
            store,
            known,
            rules: rules.into(),
            widths: widths.into(),
            defined: of.into_iter().map(|(p, rs)| (p, rs.into())).collect(),
            statics: statics.clone(),
            truths,
            bit_of,
            base_sizes,
            indexes: Vec::new(),
            index_of: FastMap::default(),
            nodes: vec![NodeCell { gate: Gate::Const(false), memo: 0 }, NodeCell { gate: Gate::Const(true), memo: 0 }],
            inputs: Vec::new(),
            conts: Vec::new(),
            cont_lits: Vec::new(),
            cont_vars: Vec::new(),
            cont_values: Vec::new(),
            enumerations: Vec::new(),
            enumerated_rests: 0,
            dense_slots: 0,
            groups: Vec::new(),
            lists: FastMap::default(),
            lit_masks: lit_masks.into(),
            lit_indexes: FastMap::default(),
            candidate_stack: Vec::new(),
            key_buffer: Vec::new(),
            bits_buffer: Vec::new(),
            frames: Vec::new(),
            picks: FastMap::default(),
            combine_buffer: Vec::new(),
            bound_buffer: Vec::new(),
            pristine,
            deferring: None,
            heights: vec![0, 0],
            leaves: vec![NONE; base.len()],
            negations: FastMap::default(),
            atoms: AtomNodes::default(),
            calls: FastMap::default(),
            work: 0,
            epoch: 1,
            replays: Default::default(),
            seen: vec![0; base.len().div_ceil(64)],
            joint: Vec::new(),
            moving: false,
            move_leaves: FastMap::default(),
            switches: FastMap::default(),
            switches_by_reads: FastMap::default(),
            switch_keys: Vec::new(),
            switch_key_places: FastMap::default(),
            joint_keys: Vec::new(),
            memory: MEMORY,
            max_nodes: MAX_NODES,
            forgets: 0,
        }
    }

    /// Whether the circuits are to be forgotten before the next state: past
    /// [`Lazy::memory`] bytes, or seven eighths of [`Lazy::max_nodes`]
    /// nodes (so that a full grounder does not decline every new atom from
    /// then on, each answered by the rules at many times the cost).
    fn due_to_forget(&self) -> bool {
        self.bytes() > self.memory || self.nodes.len() > self.max_nodes - self.max_nodes / 8
    }

    /// About how many bytes the circuits take, with what they were grounded
    /// from (the deferred rests, the atoms' table, the store's new terms).
    fn bytes(&self) -> usize {
        self.nodes.len() * (std::mem::size_of::<NodeCell>() + 4)
            + self.inputs.len() * 4
            + self.conts.len() * std::mem::size_of::<Cont>()
            + self.cont_lits.len()
            + self.cont_vars.len() * (std::mem::size_of::<u16>() + std::mem::size_of::<TermId>())
            + self.enumerations.len() * std::mem::size_of::<Enumeration>()
            + self.enumerated_rests * std::mem::size_of::<(u32, NodeId)>()
            + self.dense_slots * std::mem::size_of::<NodeId>()
            + self.groups.len() * std::mem::size_of::<Group>()
            + self.lists.len() * 96
            + self.atoms.bytes()
            + (self.negations.len() + self.move_leaves.len()) * 24
            + self.switches.len() * 32
            + self.switches_by_reads.len() * 40
            + self.store.len().saturating_sub(self.pristine.len()) * 48
    }

    /// Forgets every circuit: atoms are grounded again as they are asked.
    fn forget(&mut self) {
        self.forgets += 1;
        self.store = (*self.pristine).clone();
        self.nodes.truncate(2);
        self.heights.truncate(2);
        self.inputs.clear();
        self.conts.clear();
        self.cont_lits.clear();
        self.cont_vars.clear();
        self.cont_values.clear();
        self.enumerations.clear();
        self.enumerated_rests = 0;
        self.dense_slots = 0;
        self.groups.clear();
        self.lists.clear();
        self.leaves.fill(NONE);
        self.negations.clear();
        self.move_leaves.clear();
        self.switches.clear();
        self.switches_by_reads.clear();
        self.switch_keys.clear();
        self.switch_key_places.clear();
        self.atoms.clear();
        self.calls.clear();
        self.replays.iter_mut().for_each(Replay::clear);
    }

    /// Starts a new state: the node values computed so far are forgotten.
    /// [`Lazy::values`] also starts one by itself whenever the state words
    /// it is given (or the joint move) differ from those of its last call,
    /// so calling this is never needed for correct answers; it is cheap.
    pub(crate) fn begin_state(&mut self) {
        self.replays.iter_mut().for_each(Replay::restart);
        self.epoch_step();
    }

    /// Forgets the node values computed so far (a new stamp for the memos).
    fn epoch_step(&mut self) {
        self.epoch += 1;
        if self.epoch >= 1 << 29 {
            self.nodes.iter_mut().for_each(|n| n.memo = 0);
            self.epoch = 1;
        }
    }

    /// The value of the ground atom `atom` (a term of the store given to
    /// [`Lazy::new`]) in the state whose bits are the first words of `state`
    /// (bit `i` in word `i / 64`; words after the state's are not read).
    ///
    /// `None` when it cannot say within its limits: a positive cycle through
    /// ground atoms (a circuit cannot evaluate a fixpoint), a literal it does
    /// not support (a negation with unbound variables, a `does` literal with
    /// free arguments where the atoms it can match must all be found), a
    /// relation neither derived nor static, grounding past [`WORK`] steps or
    /// calls nested past [`MAX_DEPTH`] (a later ask goes on from what was
    /// completed), or [`MAX_NODES`] reached; also for a term unknown to the
    /// store, a `state` shorter than the state words, and an atom that reads
    /// the joint move (see [`Lazy::value_after`]). An atom declined for a
    /// cycle or an unsupported literal is declined at once from then on. The
    /// caller then asks the rules.
    #[cfg(test)]
    pub(crate) fn value(&mut self, atom: TermId, state: &[u64]) -> Option<bool> {
        self.answer(atom, state, None)
    }

    /// As [`Lazy::value`], with the joint move whose `does` atoms (one per
    /// role, terms of the store given to [`Lazy::new`]) are `joint`: a
    /// ground `does` literal is a leaf reading the move, and the rest of a
    /// rule body from a `does` literal with free arguments is grounded for
    /// each joint move it is evaluated with, once ([`Gate::Switch`]).
    #[cfg(test)]
    pub(crate) fn value_after(&mut self, atom: TermId, state: &[u64], joint: &[TermId]) -> Option<bool> {
        self.answer(atom, state, Some(joint))
    }

    /// The values of the ground atoms `atoms`, each as by [`Lazy::value`]
    /// (`joint` `None`) or [`Lazy::value_after`], in the same state and joint
    /// move: `holds` is called with the place in `atoms` of each that holds,
    /// in order. `false` (and no more calls) as soon as one cannot be
    /// answered.
    ///
    /// The state (and the move) is compared with the last one once, not
    /// once per atom: a caller with many atoms to ask (chess: about 500 per
    /// transition, most answered false by their guard bit alone) asks them
    /// here.
    pub(crate) fn values(
        &mut self,
        atoms: &[TermId],
        state: &[u64],
        joint: Option<&[TermId]>,
        mut holds: impl FnMut(usize),
    ) -> bool {
        if !self.enter(state, joint) {
            return false;
        }
        for (at, &atom) in atoms.iter().enumerate() {
            match self.answer_entered(atom) {
                Some(true) => holds(at),
                Some(false) => {}
                None => return false,
            }
        }
        true
    }

    /// [`Lazy::value`] (`joint` `None`) or [`Lazy::value_after`].
    #[cfg(test)]
    fn answer(&mut self, atom: TermId, state: &[u64], joint: Option<&[TermId]>) -> Option<bool> {
        if !self.enter(state, joint) {
            return None;
        }
        self.answer_entered(atom)
    }

    /// Makes `state` (its first words) and `joint` those evaluated, a new
    /// state for the memos if either differs from the last; `false` when
    /// `state` is shorter than the state words.
    fn enter(&mut self, state: &[u64], joint: Option<&[TermId]>) -> bool {
        if state.len() < self.seen.len() {
            return false;
        }
        let words = self.seen.len();
        let same_state = state[..words] == self.seen[..];
        let same_move = match joint {
            None => !self.moving,
            Some(joint) => self.moving && self.joint == joint,
        };
        if !same_state || !same_move {
            if !same_state {
                self.seen.copy_from_slice(&state[..words]);
                if self.due_to_forget() {
                    self.forget();
                }
                self.replays.iter_mut().for_each(Replay::restart);
            }
            self.moving = joint.is_some();
            self.joint.clear();
            self.joint.extend_from_slice(joint.unwrap_or_default());
            self.joint_keys.clear();
            for &atom in &self.joint {
                let (role, moved) = match self.store.args(atom) {
                    &[role, moved] => (role, self.store.pred(moved)),
                    _ => (atom, Pred::new(kw::DOES, 0)),
                };
                self.joint_keys.push((role, moved));
            }
            self.replays[usize::from(self.moving)].restart();
            self.epoch_step();
        }
        true
    }

    /// The value of the ground atom `atom` in the state and joint move
    /// [`Lazy::enter`]ed, as [`Lazy::value`] says.
    fn answer_entered(&mut self, atom: TermId) -> Option<bool> {
        if atom.0 as usize >= self.known {
            return None;
        }
        let replay = usize::from(self.moving);
        let (node, guard) = match self.replays[replay].next(atom) {
            Some(asked) => (asked.node, asked.guard),
            None => {
                let node = match self.atoms.get(atom) {
                    Some(Status::Done(node)) => node,
                    Some(_) => return None,
                    None => {
                        let pred = self.store.pred(atom);
                        if self.source(pred) == Source::Static && self.statics.relation(pred).is_none() {
                            return None;
                        }
                        self.work = 0;
                        self.ground(atom, 0).ok()?
                    }
                };
                let guard = self.nodes[node as usize].gate.guard().unwrap_or(NO_BIT);
                self.replays[replay].record(Asked { atom, node, guard });
                (node, guard)
            }
        };
        if guard != NO_BIT && !self.bit(guard) {
            return Some(false);
        }
        self.work = 0;
        self.eval(node).ok()
    }

    /// The value of `node` in the state [`Lazy::seen`], memoised.
    ///
    /// A deferred rest whose state bit is set is grounded now (which may
    /// fail as grounding does); an evaluation that meets a node it is still
    /// evaluating (a positive cycle through deferred rests) fails.
    fn eval(&mut self, node: NodeId) -> Result<bool, Stop> {
        let NodeCell { gate, memo } = self.nodes[node as usize];
        match gate {
            Gate::Const(c) => return Ok(c),
            Gate::Bit(bit) => return Ok(self.bit(bit)),
            Gate::Defer(bit, _) | Gate::Guard(bit, _) if !self.bit(bit) => return Ok(false),
            Gate::Move(atom) => return self.moved(atom),
            _ => {}
        }
        if memo >> 2 == self.epoch {
            if memo & 2 != 0 {
                return Err(Stop::Cycle);
            }
            return Ok(memo & 1 == 1);
        }
        self.nodes[node as usize].memo = self.epoch << 2 | 2;
        let value = match gate {
            Gate::Const(c) => Ok(c),
            Gate::Bit(bit) => Ok(self.bit(bit)),
            Gate::Not(input) => {
                if let Some(c) = self.constant(input) {
                    self.nodes[node as usize].gate = Gate::Const(!c);
                }
                self.eval(input).map(|v| !v)
            }
            Gate::And(from, to) => self.eval_all(node, from, to, true),
            Gate::Or(from, to) => self.eval_all(node, from, to, false),
            Gate::And2(a, b) => self.eval_pair(node, a, b, true),
            Gate::Or2(a, b) => self.eval_pair(node, a, b, false),
            Gate::Guard(bit, rest) => {
                match self.nodes[rest as usize].gate {
                    Gate::Const(false) => self.nodes[node as usize].gate = Gate::Const(false),
                    Gate::Const(true) => self.nodes[node as usize].gate = Gate::Bit(bit),
                    // The same bit twice (an asked atom's rule and its
                    // deferred rest both behind the moving piece's square).
                    Gate::Guard(inner, next) if inner == bit => self.nodes[node as usize].gate = Gate::Guard(bit, next),
                    _ => {}
                }
                self.input(rest)
            }
            Gate::Defer(bit, cont) => {
                let rest = self.expand(node, bit, cont);
                rest.and_then(|rest| self.eval(rest))
            }
            Gate::Move(atom) => self.moved(atom),
            Gate::Switch(cont, key) => self.eval_switch(node, cont, self.switch_keys[key as usize]),
            Gate::Enumerate(enumeration) => self.eval_enumeration(enumeration),
        };
        self.nodes[node as usize].memo = match value {
            Ok(v) => self.epoch << 2 | u32::from(v),
            Err(_) => 0,
        };
        value
    }

    /// The value of the input `input` of a gate being evaluated: a leaf, a
    /// guarded node whose bit is unset or a gate already evaluated in this
    /// state is read here, without a call to [`Lazy::eval`].
    #[inline(always)]
    fn input(&mut self, input: NodeId) -> Result<bool, Stop> {
        let NodeCell { gate, memo } = self.nodes[input as usize];
        match gate {
            Gate::Const(c) => Ok(c),
            Gate::Bit(bit) => Ok(self.bit(bit)),
            Gate::Defer(bit, _) | Gate::Guard(bit, _) if !self.bit(bit) => Ok(false),
            Gate::Move(atom) => self.moved(atom),
            _ if memo >> 2 == self.epoch && memo & 2 == 0 => Ok(memo & 1 == 1),
            _ => self.eval(input),
        }
    }

    /// Whether `node`'s gate is a constant, and which: a gate whose deferred
    /// rest turned out false, or whose inputs did, is one from then on
    /// ([`Lazy::expand`]); reading it again is a cache miss for nothing,
    /// so the gates that read it are folded as they are evaluated (chess:
    /// ORs of a piece's four directions, three of them false for good).
    #[inline(always)]
    fn constant(&self, node: NodeId) -> Option<bool> {
        match self.nodes[node as usize].gate {
            Gate::Const(c) => Some(c),
            _ => None,
        }
    }

    /// Whether both (`all`) or either of `a` and `b` hold, `a` first, for
    /// the gate `node`. An input that cannot be evaluated fails the gate
    /// only if the other does not decide it. A constant input is folded
    /// into the gate: one that decides it makes it that constant, the other
    /// kind leaves the gate reading the other input twice (the second read
    /// a memo in the cache).
    fn eval_pair(&mut self, node: NodeId, a: NodeId, b: NodeId, all: bool) -> Result<bool, Stop> {
        match (self.constant(a), self.constant(b)) {
            (Some(c), _) | (_, Some(c)) if c != all => {
                self.nodes[node as usize].gate = Gate::Const(c);
                return Ok(c);
            }
            (Some(_), _) => self.nodes[node as usize].gate = pair(all, b, b),
            (_, Some(_)) => self.nodes[node as usize].gate = pair(all, a, a),
            _ => {}
        }
        let first = self.input(a);
        if first == Ok(!all) {
            return first;
        }
        match self.input(b) {
            Ok(second) if second != all => Ok(second),
            second => first.and(second),
        }
    }

    /// Whether all (`all`) or any of the inputs `from..to` of the gate
    /// `node` hold, each read as by [`Lazy::input`]. An input that cannot
    /// be evaluated (the joint move without one, a cycle, a limit) fails
    /// the gate only if no other input decides it. Constant inputs are
    /// folded into the gate: one that decides it makes it that constant,
    /// the others are dropped from its inputs.
    fn eval_all(&mut self, node: NodeId, from: u32, to: u32, all: bool) -> Result<bool, Stop> {
        let mut failed = None;
        let mut constants = false;
        let mut value = Ok(all);
        for k in from..to {
            let input = self.inputs[k as usize];
            match self.constant(input) {
                Some(c) if c != all => {
                    self.nodes[node as usize].gate = Gate::Const(c);
                    return Ok(c);
                }
                Some(_) => {
                    constants = true;
                    continue;
                }
                None => {}
            }
            match self.input(input) {
                Ok(v) if v != all => {
                    value = Ok(v);
                    break;
                }
                Ok(_) => {}
                Err(stop) => failed = failed.or(Some(stop)),
            }
        }
        if constants {
            self.drop_constant_inputs(node, from, to, all);
        }
        match (value, failed) {
            (Ok(v), _) if v != all => Ok(v),
            (_, Some(stop)) => Err(stop),
            (value, None) => value,
        }
    }

    /// Drops the constant inputs from `from..to`, the inputs of the AND
    /// (`all`) or OR gate `node`: the gate keeps the others, in order, or
    /// becomes the constant `all` if none is left, or the other constant
    /// if one input is (an input may have turned constant while the gate
    /// was evaluated).
    fn drop_constant_inputs(&mut self, node: NodeId, from: u32, to: u32, all: bool) {
        let mut kept = from;
        for k in from..to {
            let input = self.inputs[k as usize];
            match self.constant(input) {
                Some(c) if c != all => {
                    self.nodes[node as usize].gate = Gate::Const(c);
                    return;
                }
                Some(_) => {}
                None => {
                    self.inputs[kept as usize] = input;
                    kept += 1;
                }
            }
        }
        self.nodes[node as usize].gate = match (kept - from, all) {
            (0, _) => Gate::Const(all),
            (_, true) => Gate::And(from, kept),
            (_, false) => Gate::Or(from, kept),
        };
    }

    /// The value of the enumeration `enumeration`: whether the rest holds
    /// for one of its candidates whose state bit is set, each rest grounded
    /// the first time it is needed. Its candidates are read a state word at
    /// a time, visiting only those set. A rest that cannot be evaluated
    /// fails the gate only if no other decides it.
    fn eval_enumeration(&mut self, enumeration: u32) -> Result<bool, Stop> {
        let e = enumeration as usize;
        let (cont, from, to) = {
            let Enumeration { cont, from, to, .. } = self.enumerations[e];
            (cont, from as usize, to as usize)
        };
        if cont == NO_CONT {
            return Ok(self.groups[from..to].iter().any(|g| self.seen[g.word as usize] & g.mask != 0));
        }
        let mut failed = None;
        // Where the next set candidate's rest is, or would go, in the
        // enumeration's rests (sorted by bit, as the candidates are met).
        let mut at = 0;
        // How many candidates come before the group's.
        let mut before = 0;
        for g in from..to {
            let Group { word, mask } = self.groups[g];
            let mut set = self.seen[word as usize] & mask;
            while set != 0 {
                let j = set.trailing_zeros();
                let bit = word * 64 + j;
                set &= set - 1;
                let place = before + (mask & ((1u64 << j) - 1)).count_ones();
                let rest = match self.enumerations[e].rest_of(bit, place, &mut at) {
                    // A rest that turned out constant is read from then
                    // on as the constant's node, which stays in the cache.
                    Some(rest) if rest > TRUE => match self.constant(rest) {
                        Some(c) => {
                            let constant = if c { TRUE } else { FALSE };
                            self.enumerations[e].replace_rest(bit, place, at, constant);
                            constant
                        }
                        None => rest,
                    },
                    Some(rest) => rest,
                    None => match self.expand_matched(cont, self.truths[bit as usize]) {
                        Ok(rest) => {
                            let list = &self.groups[from..to];
                            self.dense_slots += self.enumerations[e].add_rest(at, bit, place, rest, list);
                            self.enumerated_rests += 1;
                            rest
                        }
                        Err(stop) => {
                            failed = failed.or(Some(stop));
                            continue;
                        }
                    },
                };
                match self.input(rest) {
                    Ok(true) => return Ok(true),
                    Ok(false) => {}
                    Err(stop) => failed = failed.or(Some(stop)),
                }
            }
            before += mask.count_ones();
        }
        match failed {
            Some(stop) => Err(stop),
            None => Ok(false),
        }
    }

    /// Whether state bit `bit` is set in the state evaluated.
    fn bit(&self, bit: u32) -> bool {
        self.seen[(bit / 64) as usize] >> (bit % 64) & 1 == 1
    }

    /// Whether the joint move evaluated holds the `does` atom `atom`; fails
    /// when no joint move is evaluated ([`Lazy::value`]).
    fn moved(&self, atom: TermId) -> Result<bool, Stop> {
        if self.moving { Ok(self.joint.contains(&atom)) } else { Err(Stop::Unsupported) }
    }

    /// The value of the switch `node` (the rest `cont`, from a `does`
    /// literal on): whether its rest holds for one of the joint move's
    /// `does` atoms, each rest grounded the first time it is needed.
    fn eval_switch(&mut self, node: NodeId, cont: u32, key: SwitchKey) -> Result<bool, Stop> {
        if !self.moving {
            return Err(Stop::Unsupported);
        }
        for k in 0..self.joint.len() {
            let (role, moved) = self.joint_keys[k];
            if !key.admits(role, moved) {
                continue;
            }
            let atom = self.joint[k];
            let rest = match key.reads {
                None => match self.switches.get(&(node, atom)) {
                    Some(&rest) => rest,
                    None => {
                        let rest = self.expand_matched(cont, atom)?;
                        self.switches.insert((node, atom), rest);
                        rest
                    }
                },
                Some(places) => {
                    let mut read = [TermId(u32::MAX); SWITCH_READS];
                    let (role, moved) = match self.store.args(atom) {
                        &[role, moved] => (role, moved),
                        _ => (atom, atom),
                    };
                    let args = self.store.args(moved);
                    for (slot, &place) in read.iter_mut().zip(&places) {
                        *slot = match place {
                            READ_NONE => break,
                            READ_ROLE => role,
                            i => args[usize::from(i) - 1],
                        };
                    }
                    match self.switches_by_reads.get(&(node, read)) {
                        Some(&rest) => rest,
                        None => {
                            let rest = self.expand_matched(cont, atom)?;
                            self.switches_by_reads.insert((node, read), rest);
                            rest
                        }
                    }
                }
            };
            if self.eval(rest)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// A frame to go on solving the rest `cont` from (its literals left,
    /// without the first when `skip_first`, and its bindings), with the
    /// rule and head it is for.
    fn resume(&mut self, cont: u32, skip_first: bool) -> (Frame, u32, TermId) {
        let Cont { rule, head, lits, len, binds, binds_len, depth } = self.conts[cont as usize];
        let mut f = self.frame(depth as usize);
        f.start(self.widths[rule as usize]);
        let lits = &self.cont_lits[lits as usize..][..len as usize];
        f.left.extend(lits[usize::from(skip_first)..].iter().map(|&l| usize::from(l)));
        let (binds, binds_len) = (binds as usize, binds_len as usize);
        let vars = &self.cont_vars[binds..][..binds_len];
        for (&var, &value) in vars.iter().zip(&self.cont_values[binds..][..binds_len]) {
            f.b[var as usize] = Some(value);
        }
        (f, rule, head)
    }

    /// Solves the rule `rule` for the ground atom `head` in the frame `f`
    /// (its rest may be deferred), then the OR of the solutions; `f` goes
    /// back to the pool.
    fn solve_for(&mut self, rule: u32, head: TermId, mut f: Frame) -> Result<NodeId, Stop> {
        let rules = Arc::clone(&self.rules);
        let saved = self.deferring.replace((rule, head));
        let result = self.solve(&rules[rule as usize], &mut f);
        self.deferring = saved;
        let node = result.and_then(|()| self.combine(false, f.out.iter().map(|&(_, n)| n)));
        self.release(f);
        node
    }

    /// Grounds the rest `cont` of a switch or an enumeration (its first
    /// literal the `does` or state literal) with that literal matched to the
    /// atom `atom`: the OR of its solutions (false when the atom does not
    /// match).
    fn expand_matched(&mut self, cont: u32, atom: TermId) -> Result<NodeId, Stop> {
        let (mut f, rule, head) = self.resume(cont, true);
        let first = self.cont_lits[self.conts[cont as usize].lits as usize];
        let rules = Arc::clone(&self.rules);
        let Lit::Pos(p) = &rules[rule as usize].body[usize::from(first)] else {
            self.release(f);
            return Err(Stop::Unsupported);
        };
        if !match_pat(&self.store, p, atom, &mut f.b, &mut f.trail) {
            self.release(f);
            return Ok(FALSE);
        }
        self.solve_for(rule, head, f)
    }

    /// Grounds the deferred rest `cont` of gate `node` (after state bit
    /// `bit`): the gate becomes the AND of the bit and the rest (a
    /// [`Gate::Guard`], constants folded), whose node is returned.
    fn expand(&mut self, node: NodeId, bit: u32, cont: u32) -> Result<NodeId, Stop> {
        let (f, rule, head) = self.resume(cont, false);
        let rest = self.solve_for(rule, head, f)?;
        self.nodes[node as usize].gate = match rest {
            FALSE => Gate::Const(false),
            TRUE => Gate::Bit(bit),
            _ => Gate::Guard(bit, rest),
        };
        Ok(rest)
    }

    /// A solving frame from the pool (or a new one), for nesting `depth`,
    /// with no solutions yet.
    fn frame(&mut self, depth: usize) -> Frame {
        let mut f = self.frames.pop().unwrap_or_default();
        f.out.clear();
        f.depth = depth;
        f
    }

    /// Gives the frame `f` back to the pool.
    fn release(&mut self, f: Frame) {
        self.frames.push(f);
    }

    /// Where the atoms of `pred` come from.
    fn source(&self, pred: Pred) -> Source {
        if pred == Pred::new(kw::TRUE, 1) {
            Source::State
        } else if pred == Pred::new(kw::DOES, 2) {
            Source::Move
        } else if self.defined.contains_key(&pred) {
            Source::Derived
        } else {
            Source::Static
        }
    }

    /// Counts one step of the current ask.
    fn step(&mut self) -> Result<(), Stop> {
        self.work += 1;
        if self.work > WORK { Err(Stop::Work) } else { Ok(()) }
    }

    /// Adds a gate of `inputs` (already folded).
    fn gate(&mut self, gate: Gate, inputs: &[NodeId]) -> Result<NodeId, Stop> {
        if self.nodes.len() >= self.max_nodes {
            return Err(Stop::Full);
        }
        self.step()?;
        let height = 1 + inputs.iter().map(|&n| self.heights[n as usize]).max().unwrap_or(0);
        if height > MAX_HEIGHT {
            return Err(Stop::Tall);
        }
        let id = self.nodes.len() as NodeId;
        let gate = match (gate, inputs) {
            (Gate::And(..), &[a, b]) => match (self.nodes[a as usize].gate, self.nodes[b as usize].gate) {
                (Gate::Bit(bit), _) => Gate::Guard(bit, b),
                (_, Gate::Bit(bit)) => Gate::Guard(bit, a),
                _ => Gate::And2(a, b),
            },
            (Gate::Or(..), &[a, b]) => Gate::Or2(a, b),
            (Gate::And(..) | Gate::Or(..), _) => {
                let from = self.inputs.len() as u32;
                self.inputs.extend_from_slice(inputs);
                let to = self.inputs.len() as u32;
                if matches!(gate, Gate::And(..)) { Gate::And(from, to) } else { Gate::Or(from, to) }
            }
            (other, _) => other,
        };
        self.nodes.push(NodeCell { gate, memo: 0 });
        self.heights.push(height);
        Ok(id)
    }

    /// The leaf of state bit `bit`.
    fn leaf(&mut self, bit: u32) -> Result<NodeId, Stop> {
        let at = bit as usize;
        if self.leaves[at] == NONE {
            self.leaves[at] = self.gate(Gate::Bit(bit), &[])?;
        }
        Ok(self.leaves[at])
    }

    /// NOT `node`.
    fn not(&mut self, node: NodeId) -> Result<NodeId, Stop> {
        match node {
            FALSE => return Ok(TRUE),
            TRUE => return Ok(FALSE),
            _ => {}
        }
        if let Gate::Not(input) = self.nodes[node as usize].gate {
            return Ok(input);
        }
        if let Some(&n) = self.negations.get(&node) {
            return Ok(n);
        }
        let n = self.gate(Gate::Not(node), &[node])?;
        self.negations.insert(node, n);
        Ok(n)
    }

    /// The AND (`all`) or OR of `inputs`, constants folded.
    fn combine(&mut self, all: bool, inputs: impl IntoIterator<Item = NodeId>) -> Result<NodeId, Stop> {
        let (unit, zero) = if all { (TRUE, FALSE) } else { (FALSE, TRUE) };
        let mut kept = std::mem::take(&mut self.combine_buffer);
        kept.clear();
        for n in inputs {
            if n == zero {
                self.combine_buffer = kept;
                return Ok(zero);
            }
            if n != unit {
                kept.push(n);
            }
        }
        kept.sort_unstable();
        kept.dedup();
        let node = match kept[..] {
            [] => Ok(unit),
            [one] => Ok(one),
            _ => self.gate(if all { Gate::And(0, 0) } else { Gate::Or(0, 0) }, &kept),
        };
        self.combine_buffer = kept;
        node
    }

    /// The node of the ground atom `atom`, grounded if new.
    fn ground(&mut self, atom: TermId, depth: usize) -> Result<NodeId, Stop> {
        match self.atoms.get(atom) {
            Some(Status::Done(node)) => return Ok(node),
            Some(Status::Busy) => return Err(Stop::Cycle),
            Some(Status::Failed) => return Err(Stop::Failed),
            None => {}
        }
        let pred = self.store.pred(atom);
        match self.source(pred) {
            Source::State => return self.truth(atom),
            Source::Move => return self.move_leaf(atom),
            Source::Static => return Ok(if self.statics.contains(atom, &self.store) { TRUE } else { FALSE }),
            Source::Derived => {}
        }
        if depth > MAX_DEPTH {
            return Err(Stop::Deep);
        }
        self.atoms.set(atom, Status::Busy);
        let result = self.ground_rules(atom, pred, depth);
        match result {
            Ok(node) => {
                self.atoms.set(atom, Status::Done(node));
            }
            Err(stop) if stop.is_permanent() => {
                self.atoms.set(atom, Status::Failed);
            }
            Err(_) => {
                self.atoms.remove(atom);
            }
        }
        result
    }

    /// The node of `(true p)`: its leaf, or false when `p` is no base
    /// proposition.
    fn truth(&mut self, atom: TermId) -> Result<NodeId, Stop> {
        match self.state_bit(atom) {
            Some(bit) => self.leaf(bit),
            None => Ok(FALSE),
        }
    }

    /// The leaf of the `does` atom `atom` ([`Gate::Move`]).
    fn move_leaf(&mut self, atom: TermId) -> Result<NodeId, Stop> {
        if let Some(&leaf) = self.move_leaves.get(&atom) {
            return Ok(leaf);
        }
        let leaf = self.gate(Gate::Move(atom), &[])?;
        self.move_leaves.insert(atom, leaf);
        Ok(leaf)
    }

    /// The state bit of `(true p)`, if `p` is a base proposition.
    fn state_bit(&self, atom: TermId) -> Option<u32> {
        self.bit_of.get(atom.0 as usize).copied().filter(|&bit| bit != NO_BIT)
    }

    /// The OR of the solutions of the rules for `atom`.
    fn ground_rules(&mut self, atom: TermId, pred: Pred, depth: usize) -> Result<NodeId, Stop> {
        let rules = Arc::clone(&self.rules);
        let of = self.defined.get(&pred).cloned().unwrap_or_else(|| Arc::from([]));
        let mut f = self.frame(depth);
        let mut result = Ok(());
        for &r in of.iter() {
            let rule = &rules[r as usize];
            f.start(self.widths[r as usize]);
            if !match_pat(&self.store, &rule.head, atom, &mut f.b, &mut f.trail) {
                continue;
            }
            f.left.extend(0..rule.body.len());
            let saved = self.deferring.replace((r, atom));
            result = self.solve(rule, &mut f);
            self.deferring = saved;
            if result.is_err() {
                break;
            }
        }
        let node = result.and_then(|()| self.combine(false, f.out.iter().map(|&(_, n)| n)));
        self.release(f);
        node
    }

    /// The ground atoms the derived literal `p` can match under `b`: those
    /// its rules derive with the arguments `b` binds (a few more are
    /// possible, which the caller's match rejects), tabled by those
    /// arguments. The atoms new to the grounder get their nodes on the way.
    fn call(&mut self, p: &Pat, b: &[Option<TermId>], depth: usize) -> Result<Arc<[TermId]>, Stop> {
        let mut buffer = std::mem::take(&mut self.key_buffer);
        buffer.clear();
        call_key(p, b, &mut buffer);
        let known = match self.calls.get(&buffer[..]) {
            Some(Status::Done(atoms)) => Some(Ok(Arc::clone(atoms))),
            Some(Status::Busy) => Some(Err(Stop::Cycle)),
            Some(Status::Failed) => Some(Err(Stop::Failed)),
            None => None,
        };
        if let Some(known) = known {
            self.key_buffer = buffer;
            return known;
        }
        let key: Box<[u64]> = buffer[..].into();
        self.key_buffer = buffer;
        if depth > MAX_DEPTH {
            return Err(Stop::Deep);
        }
        self.calls.insert(key.clone(), Status::Busy);
        let result = self.solve_call(p, b, depth);
        match &result {
            Ok(atoms) => {
                self.calls.insert(key, Status::Done(Arc::clone(atoms)));
            }
            Err(stop) if stop.is_permanent() => {
                self.calls.insert(key, Status::Failed);
            }
            Err(_) => {
                self.calls.remove(&key);
            }
        }
        result
    }

    /// Solves the rules of `p`'s relation with what `b` binds of `p`.
    fn solve_call(&mut self, p: &Pat, b: &[Option<TermId>], depth: usize) -> Result<Arc<[TermId]>, Stop> {
        let Some(pred) = pred_of(p, &self.store) else { return Err(Stop::Unsupported) };
        let rules = Arc::clone(&self.rules);
        let of = self.defined.get(&pred).cloned().unwrap_or_else(|| Arc::from([]));
        let mut f = self.frame(depth + 1);
        let mut result = Ok(());
        for &r in of.iter() {
            let rule = &rules[r as usize];
            f.start(self.widths[r as usize]);
            if !pre_match(&self.store, &rule.head, p, b, &mut f.b, &mut f.trail) {
                continue;
            }
            f.left.extend(0..rule.body.len());
            let saved = self.deferring.take();
            result = self.solve(rule, &mut f);
            self.deferring = saved;
            if result.is_err() {
                break;
            }
        }
        let solutions = std::mem::take(&mut f.out);
        self.release(f);
        result?;
        // Group by atom: each atom's solutions are all there (every
        // solution for it agrees with what the call bound).
        let mut order: Vec<TermId> = Vec::new();
        let mut of_atom: FastMap<TermId, Vec<NodeId>> = FastMap::default();
        for (atom, node) in solutions {
            of_atom
                .entry(atom)
                .or_insert_with(|| {
                    order.push(atom);
                    Vec::new()
                })
                .push(node);
        }
        let mut scratch = b.to_vec();
        let mut trail = Vec::new();
        for &atom in &order {
            if self.atoms.get(atom).is_some() {
                continue;
            }
            let matches = match_pat(&self.store, p, atom, &mut scratch, &mut trail);
            undo(&mut scratch, &mut trail, 0);
            if matches {
                let nodes = of_atom.remove(&atom).unwrap_or_default();
                let node = self.combine(false, nodes)?;
                self.atoms.set(atom, Status::Done(node));
            }
        }
        Ok(order.into())
    }

    /// Solves the literals left in the frame `f` of `rule`'s body; each
    /// solution's head atom and node go to `f.out`.
    fn solve(&mut self, rule: &NRule, f: &mut Frame) -> Result<(), Stop> {
        self.step()?;
        if f.left.is_empty() {
            let head = match self.deferring {
                Some((_, head)) => head,
                None => instantiate(&rule.head, &f.b, &mut self.store).ok_or(Stop::Unsupported)?,
            };
            let node = self.combine(true, f.conj.iter().copied())?;
            if node != FALSE {
                f.out.push((head, node));
            }
            return Ok(());
        }
        let at = self.pick(rule, &f.left, &f.b);
        let lit = f.left.remove(at);
        let result = self.solve_literal(rule, lit, f);
        f.left.insert(at, lit);
        result
    }

    /// Solves literal `lit` of `rule`, then the rest.
    fn solve_literal(&mut self, rule: &NRule, lit: usize, f: &mut Frame) -> Result<(), Stop> {
        match &rule.body[lit] {
            Lit::Distinct(x, y) => {
                if !equal(&self.store, x, y, &f.b) {
                    self.solve(rule, f)?;
                }
                Ok(())
            }
            Lit::Same(x, y) => {
                if equal(&self.store, x, y, &f.b) {
                    self.solve(rule, f)?;
                }
                Ok(())
            }
            Lit::Neg(p) => {
                if !is_bound(p, &f.b) {
                    return Err(Stop::Unsupported);
                }
                let node = self.ground_literal(p, &f.b, f.depth)?;
                let node = self.not(node)?;
                self.then(node, rule, f)
            }
            Lit::Pos(p) if is_bound(p, &f.b) => {
                let node = self.ground_literal(p, &f.b, f.depth)?;
                // A state literal's rest is deferred as an enumerated one's
                // is: grounded only once a state with its bit is evaluated.
                match self.nodes[node as usize].gate {
                    Gate::Bit(bit) if self.deferring.is_some() => self.defer(node, bit, f),
                    _ => self.then(node, rule, f),
                }
            }
            Lit::Pos(p) => {
                let Some(pred) = pred_of(p, &self.store) else { return Err(Stop::Unsupported) };
                let source = self.source(pred);
                let from = self.candidate_stack.len();
                match source {
                    Source::Move => return self.switch(lit, f),
                    Source::State if self.deferring.is_some() => return self.enumerate(lit, p, f),
                    Source::Derived => {
                        let atoms = self.call(p, &f.b, f.depth + 1)?;
                        self.candidate_stack.extend_from_slice(&atoms);
                    }
                    Source::State | Source::Static => self.candidates(pred, source, p, &f.b),
                }
                let to = self.candidate_stack.len();
                let mut result = Ok(());
                for k in from..to {
                    let atom = self.candidate_stack[k];
                    result = self.solve_candidate(atom, source, rule, p, f);
                    if result.is_err() {
                        break;
                    }
                }
                self.candidate_stack.truncate(from);
                result
            }
        }
    }

    /// Solves the literal `p` of `rule` (from `source`) as its candidate
    /// atom `atom`, then the rest.
    fn solve_candidate(
        &mut self,
        atom: TermId,
        source: Source,
        rule: &NRule,
        p: &Pat,
        f: &mut Frame,
    ) -> Result<(), Stop> {
        self.step()?;
        let mark = f.trail.len();
        if match_pat(&self.store, p, atom, &mut f.b, &mut f.trail) {
            // The node, and its state bit when it is a leaf and the rest
            // may be deferred.
            let (node, bit) = match source {
                Source::Derived => {
                    let node = self.ground(atom, f.depth + 1)?;
                    match self.nodes[node as usize].gate {
                        Gate::Bit(bit) if self.deferring.is_some() => (node, Some(bit)),
                        _ => (node, None),
                    }
                }
                Source::State => match self.state_bit(atom) {
                    Some(bit) => (self.leaf(bit)?, self.deferring.is_some().then_some(bit)),
                    None => (FALSE, None),
                },
                _ => (TRUE, None),
            };
            match bit {
                Some(bit) => self.defer(node, bit, f)?,
                None => self.then(node, rule, f)?,
            }
        }
        undo(&mut f.b, &mut f.trail, mark);
        Ok(())
    }

    /// Ends this solution with the leaf `leaf` (of state bit `bit`) AND the
    /// rest of the body (the literals left in `f`), the rest deferred until
    /// a state with the bit set is evaluated: the atom's head is bound (it
    /// is a ground atom's rule, [`Lazy::deferring`]), so the solution's
    /// head is known now, and only the combinations of state that occur
    /// are ever grounded.
    fn defer(&mut self, leaf: NodeId, bit: u32, f: &mut Frame) -> Result<(), Stop> {
        let rest = if f.left.is_empty() {
            leaf
        } else {
            let cont = self.cont(None, f)?;
            self.gate(Gate::Defer(bit, cont), &[])?
        };
        self.conclude(rest, f)
    }

    /// Ends this solution with the rest of the body from the `does` literal
    /// `lit` with free arguments (then the literals left in `f`) as a
    /// switch on the joint move ([`Gate::Switch`]): its rest is grounded
    /// for each joint move it is evaluated with. Only in a ground atom's
    /// rule (whose head is known): a call's heads must all be found now.
    fn switch(&mut self, lit: usize, f: &mut Frame) -> Result<(), Stop> {
        if self.deferring.is_none() {
            return Err(Stop::Unsupported);
        }
        let key = self.switch_key(lit, f)?;
        let cont = self.cont(Some(lit), f)?;
        let node = self.gate(Gate::Switch(cont, key), &[])?;
        self.conclude(node, f)
    }

    /// Of a switch's `does` literal `(does role moved)` in rule `rule`
    /// under `f`'s bindings (`f.left` the literals after it): the places of
    /// the atom's arguments the rest reads, where the literal is of the form
    /// [`SwitchKey::reads`] describes.
    fn switch_reads(&self, rule: u32, role: &Pat, moved: &Pat, f: &Frame) -> Option<[u8; SWITCH_READS]> {
        let Pat::App(_, args) = moved else { return None };
        if self.widths[rule as usize] > 64 {
            return None;
        }
        // Each variable of the literal with its place; each must be free
        // and met once (the literal then matches every atom admitted).
        let mut vars: Vec<(u16, u8)> = Vec::with_capacity(args.len() + 1);
        let free = |v: u16| f.b[usize::from(v)].is_none();
        match *role {
            Pat::Var(v) if free(v) => vars.push((v, READ_ROLE)),
            Pat::Var(_) | Pat::Ground(_) => {}
            Pat::App(..) => return None,
        }
        for (i, a) in args.iter().enumerate() {
            match *a {
                Pat::Var(v) if free(v) && !vars.iter().any(|&(w, _)| w == v) => {
                    vars.push((v, u8::try_from(i + 1).ok().filter(|&p| p != READ_NONE)?))
                }
                _ => return None,
            }
        }
        let masks = &self.lit_masks[rule as usize];
        let read = f.left.iter().fold(0u64, |mask, &l| mask | masks[l]);
        let mut places = [READ_NONE; SWITCH_READS];
        let mut n = 0;
        let count = vars.len();
        for (v, place) in vars {
            if v >= 64 {
                return None;
            }
            if read & 1 << v != 0 {
                *places.get_mut(n)? = place;
                n += 1;
            }
        }
        // Reading every argument, the rest is kept by the atom (a shorter
        // key, the same sharing).
        (n < count).then_some(places)
    }

    /// The place in [`Lazy::switch_keys`] of what the `does` literal `lit`
    /// of the rule being solved can match under `f`'s bindings.
    fn switch_key(&mut self, lit: usize, f: &Frame) -> Result<u32, Stop> {
        let Some((rule, _)) = self.deferring else { return Err(Stop::Unsupported) };
        let rules = Arc::clone(&self.rules);
        let Lit::Pos(Pat::App(_, args)) = &rules[rule as usize].body[lit] else { return Err(Stop::Unsupported) };
        let [role, moved] = &args[..] else { return Err(Stop::Unsupported) };
        let bound = |p: &Pat| match *p {
            Pat::Ground(t) => Some(t),
            Pat::Var(v) => f.b[usize::from(v)],
            Pat::App(..) => None,
        };
        let key = SwitchKey {
            role: bound(role),
            moved: match moved {
                Pat::App(name, args) => Some(Pred::new(*name, args.len())),
                other => bound(other).map(|t| self.store.pred(t)),
            },
            reads: self.switch_reads(rule, role, moved, f),
        };
        let next = self.switch_keys.len() as u32;
        let place = *self.switch_key_places.entry(key).or_insert(next);
        if place == next {
            self.switch_keys.push(key);
        }
        Ok(place)
    }

    /// Ends this solution with the state literal `p` (literal `lit` of the
    /// ground atom's rule being solved, [`Lazy::deferring`]) as an
    /// enumeration ([`Gate::Enumerate`]): its candidates under `f`'s
    /// bindings are a list shared with every enumeration of the literal
    /// under the same bindings, and the rest of the body is grounded for a
    /// candidate only once a state with its bit set is evaluated. Nothing
    /// when no base proposition matches.
    fn enumerate(&mut self, lit: usize, p: &Pat, f: &mut Frame) -> Result<(), Stop> {
        let (from, to) = self.candidate_list(lit, p, f)?;
        if from == to {
            return Ok(());
        }
        let cont = if f.left.is_empty() { NO_CONT } else { self.cont(Some(lit), f)? };
        let enumeration = self.enumerations.len() as u32;
        self.enumerations.push(Enumeration::new(cont, from, to));
        match self.gate(Gate::Enumerate(enumeration), &[]) {
            Ok(node) => self.conclude(node, f),
            Err(stop) => {
                self.enumerations.pop();
                Err(stop)
            }
        }
    }

    /// The candidate list of the state literal `p` (literal `lit` of the
    /// rule being solved) under `f`'s bindings: its groups' range in
    /// [`Lazy::groups`], listed the first time the literal is enumerated
    /// with these bindings of its variables.
    fn candidate_list(&mut self, lit: usize, p: &Pat, f: &mut Frame) -> Result<(u32, u32), Stop> {
        let Some((rule, _)) = self.deferring else { return Err(Stop::Unsupported) };
        let mut key = std::mem::take(&mut self.key_buffer);
        list_key(rule, lit, p, &f.b, &mut key);
        if let Some(&list) = self.lists.get(&key[..]) {
            self.key_buffer = key;
            return Ok(list);
        }
        let list = self.list_candidates(p, f);
        if let Ok(list) = list {
            self.lists.insert(key[..].into(), list);
        }
        self.key_buffer = key;
        list
    }

    /// Lists the base propositions `(true p)` the state literal `p` matches
    /// under `f`'s bindings as new groups of [`Lazy::groups`] (by word, in
    /// the order of the state bits); their range.
    fn list_candidates(&mut self, p: &Pat, f: &mut Frame) -> Result<(u32, u32), Stop> {
        let Some(pred) = pred_of(p, &self.store) else { return Err(Stop::Unsupported) };
        let from = self.candidate_stack.len();
        self.candidates(pred, Source::State, p, &f.b);
        let to = self.candidate_stack.len();
        let mut bits = std::mem::take(&mut self.bits_buffer);
        bits.clear();
        let mut result = Ok(());
        for k in from..to {
            let atom = self.candidate_stack[k];
            if let Err(stop) = self.step() {
                result = Err(stop);
                break;
            }
            let mark = f.trail.len();
            let matches = match_pat(&self.store, p, atom, &mut f.b, &mut f.trail);
            undo(&mut f.b, &mut f.trail, mark);
            if let (true, Some(bit)) = (matches, self.state_bit(atom)) {
                bits.push(bit);
            }
        }
        self.candidate_stack.truncate(from);
        bits.sort_unstable();
        bits.dedup();
        let first = self.groups.len();
        if result.is_ok() {
            for &bit in &bits {
                let (word, mask) = (bit / 64, 1u64 << (bit % 64));
                let last = self.groups.len();
                if last > first && self.groups[last - 1].word == word {
                    self.groups[last - 1].mask |= mask;
                } else {
                    self.groups.push(Group { word, mask });
                }
            }
        }
        self.bits_buffer = bits;
        result.map(|()| (first as u32, self.groups.len() as u32))
    }

    /// Ends this solution of the ground atom's rule being solved
    /// ([`Lazy::deferring`]) with `rest` AND the nodes holding so far.
    fn conclude(&mut self, rest: NodeId, f: &mut Frame) -> Result<(), Stop> {
        let Some((_, head)) = self.deferring else { return Err(Stop::Unsupported) };
        f.conj.push(rest);
        let node = self.combine(true, f.conj.iter().copied());
        f.conj.pop();
        let node = node?;
        if node != FALSE {
            f.out.push((head, node));
        }
        Ok(())
    }

    /// Records the rest of the body of the rule being solved for a ground
    /// atom ([`Lazy::deferring`]): the literal `first` if any, then the
    /// literals left in `f`, and the bindings they read; its place in
    /// [`Lazy::conts`].
    fn cont(&mut self, first: Option<usize>, f: &Frame) -> Result<u32, Stop> {
        let Some((r, head)) = self.deferring else { return Err(Stop::Unsupported) };
        let lits = || first.into_iter().chain(f.left.iter().copied());
        let (Ok(len), Ok(depth)) = (u16::try_from(lits().count()), u16::try_from(f.depth)) else {
            return Err(Stop::Deep);
        };
        if lits().any(|l| l > u8::MAX as usize) {
            return Err(Stop::Unsupported);
        }
        // The bindings the rest reads: those of its literals' variables
        // (of every variable, in a rule of more than 64).
        let binds = self.cont_vars.len();
        if self.widths[r as usize] <= 64 {
            let masks = &self.lit_masks[r as usize];
            let mut read = lits().fold(0u64, |mask, l| mask | masks[l]);
            while read != 0 {
                let v = read.trailing_zeros() as u16;
                read &= read - 1;
                if let Some(t) = f.b[v as usize] {
                    self.cont_vars.push(v);
                    self.cont_values.push(t);
                }
            }
        } else {
            for (v, t) in f.b.iter().enumerate().filter_map(|(v, t)| t.map(|t| (v as u16, t))) {
                self.cont_vars.push(v);
                self.cont_values.push(t);
            }
        }
        let Ok(binds_len) = u16::try_from(self.cont_vars.len() - binds) else {
            self.cont_vars.truncate(binds);
            self.cont_values.truncate(binds);
            return Err(Stop::Unsupported);
        };
        let cont =
            Cont { rule: r, head, lits: self.cont_lits.len() as u32, len, binds: binds as u32, binds_len, depth };
        self.cont_lits.extend(lits().map(|l| l as u8));
        self.conts.push(cont);
        Ok((self.conts.len() - 1) as u32)
    }

    /// Goes on solving with `node` holding too (nothing if it is false).
    fn then(&mut self, node: NodeId, rule: &NRule, f: &mut Frame) -> Result<(), Stop> {
        match node {
            FALSE => Ok(()),
            TRUE => self.solve(rule, f),
            _ => {
                f.conj.push(node);
                let result = self.solve(rule, f);
                f.conj.pop();
                result
            }
        }
    }

    /// The node of the literal `p`, ground under `b`.
    fn ground_literal(&mut self, p: &Pat, b: &[Option<TermId>], depth: usize) -> Result<NodeId, Stop> {
        let Some(pred) = pred_of(p, &self.store) else { return Err(Stop::Unsupported) };
        match self.source(pred) {
            // Even one the store lacked (no joint move's): without a joint
            // move, it is declined.
            Source::Move => match instantiate(p, b, &mut self.store) {
                Some(atom) => self.move_leaf(atom),
                None => Err(Stop::Unsupported),
            },
            // Found by an index on all of the literal's arguments: the
            // store's table is millions of terms (the grounded atoms'),
            // each lookup a few cache misses; the indexes are small.
            source @ (Source::State | Source::Static) if matches!(p, Pat::App(_, args) if !args.is_empty()) => {
                match (source, self.find_ground(pred, source, p, b)) {
                    (Source::State, Some(bit)) => self.leaf(bit),
                    (_, Some(_)) => Ok(TRUE),
                    (_, None) => Ok(FALSE),
                }
            }
            Source::State => match find_instance(p, b, &self.store) {
                Some(atom) => self.truth(atom),
                None => Ok(FALSE),
            },
            Source::Static => Ok(match find_instance(p, b, &self.store) {
                Some(atom) if self.statics.contains(atom, &self.store) => TRUE,
                _ => FALSE,
            }),
            Source::Derived => {
                let Some(atom) = instantiate(p, b, &mut self.store) else { return Err(Stop::Unsupported) };
                self.ground(atom, depth + 1)
            }
        }
    }

    /// The place of the instance of the static or state literal `p` (of
    /// relation `pred`, with arguments, ground under `b`) among its
    /// relation's atoms in the static model, or among the `(true p)` of the
    /// base propositions (its state bit, the first if several); `None` if
    /// it is not there. Found by an index on all its arguments, the
    /// instance never built.
    fn find_ground(&mut self, pred: Pred, source: Source, p: &Pat, b: &[Option<TermId>]) -> Option<u32> {
        let Pat::App(_, args) = p else { return None };
        let index = self.index_for(pred, source, p, b)?;
        let atoms: &[TermId] = if source == Source::State { &self.truths } else { self.statics.atoms(pred) };
        let at = self.indexes[index].get(key_of_pattern(args, b));
        at.iter().copied().find(|&at| is_instance(&self.store, p, b, atoms[at as usize]))
    }

    /// Pushes on [`Lazy::candidate_stack`] the atoms of a static relation,
    /// or the `(true p)` of the base propositions, that can match the rule
    /// literal `p` under `b` (by an index on the arguments `b` binds).
    fn candidates(&mut self, pred: Pred, source: Source, p: &Pat, b: &[Option<TermId>]) {
        let index = self.index_for(pred, source, p, b);
        let atoms: &[TermId] = if source == Source::State { &self.truths } else { self.statics.atoms(pred) };
        match (index, p) {
            (Some(index), Pat::App(_, args)) => {
                let at = self.indexes[index].get(key_of_pattern(args, b));
                self.candidate_stack.extend(at.iter().map(|&at| atoms[at as usize]));
            }
            _ => self.candidate_stack.extend_from_slice(atoms),
        }
    }

    /// The place in [`Lazy::indexes`] of the index answering the rule
    /// literal `p` of `pred` under `b`, built if new; `None` when no index
    /// selects (nothing of `p` is bound or a function symbol).
    fn index_for(&mut self, pred: Pred, source: Source, p: &Pat, b: &[Option<TermId>]) -> Option<usize> {
        let Pat::App(_, args) = p else { return None };
        let mut mask = 0u64;
        let masked = bound_mask(p, b, &mut mask);
        let literal = (std::ptr::from_ref(p) as usize, mask);
        if masked && let Some(&index) = self.lit_indexes.get(&literal) {
            return (index != NO_INDEX).then_some(index as usize);
        }
        let shape = Shape::of(args, &|v| b.get(v as usize).is_some_and(Option::is_some));
        let index = if !shape.selective() {
            NO_INDEX
        } else if let Some(&index) = self.index_of.get(&(pred, shape.clone())) {
            index
        } else {
            let atoms: &[TermId] = if source == Source::State { &self.truths } else { self.statics.atoms(pred) };
            let index = self.indexes.len() as u32;
            self.indexes.push(Index::build(shape.clone(), atoms, &self.store));
            self.index_of.insert((pred, shape), index);
            index
        };
        if masked {
            self.lit_indexes.insert(literal, index);
        }
        (index != NO_INDEX).then_some(index as usize)
    }

    /// Which of the literals `left` of `rule` to solve next under `b` (its
    /// place in `left`): as [`Lazy::pick_afresh`] chooses, which depends
    /// only on the rule, the literals left and which variables are bound,
    /// so each choice is remembered ([`Lazy::picks`]; grounding chess's
    /// rests makes the same few thousand choices over and over, each
    /// estimating the size of every literal left).
    fn pick(&mut self, rule: &NRule, left: &[usize], b: &[Option<TermId>]) -> usize {
        let key = pick_key(rule, left, b);
        if let Some(key) = key
            && let Some(&lit) = self.picks.get(&key)
            && let Some(at) = left.iter().position(|&l| l == lit as usize)
        {
            // The tests check every remembered choice.
            #[cfg(test)]
            assert_eq!(at, self.pick_afresh(rule, left, b), "a remembered choice is the choice");
            return at;
        }
        let at = self.pick_afresh(rule, left, b);
        if let Some(key) = key {
            self.picks.insert(key, left[at] as u32);
        }
        at
    }

    /// Which of the literals `left` of `rule` to solve next under `b` (its
    /// place in `left`), chosen afresh.
    ///
    /// The first bound test is taken at once (nothing ranks before it).
    fn pick_afresh(&mut self, rule: &NRule, left: &[usize], b: &[Option<TermId>]) -> usize {
        let mut bound = std::mem::take(&mut self.bound_buffer);
        bound.clear();
        let mut best: Option<(Rank, usize)> = None;
        let mut best_call: Option<(Rank, usize)> = None;
        for (at, &lit) in left.iter().enumerate() {
            if matches!(&rule.body[lit], Lit::Pos(p) if !is_bound(p, b)) && bound.is_empty() {
                bound.extend(b.iter().map(Option::is_some));
            }
            let rank = match &rule.body[lit] {
                Lit::Distinct(x, y) | Lit::Same(x, y) => {
                    if is_bound(x, b) && is_bound(y, b) {
                        best = Some((Rank(0, 0.0), at));
                        break;
                    }
                    Rank(5, 0.0)
                }
                Lit::Neg(p) => Rank(if is_bound(p, b) { 1 } else { 6 }, 0.0),
                Lit::Pos(p) if is_bound(p, b) => Rank(2, 0.0),
                Lit::Pos(p) => match pred_of(p, &self.store).map(|pred| (pred, self.source(pred))) {
                    Some((_, Source::Derived)) => Rank(4, -(bound_leaves(p, b) as f64)),
                    // One atom per role, but grounded once per joint move
                    // met: after the state's enumerations, before calls.
                    Some((_, Source::Move)) => Rank(3, CALL_FIRST),
                    Some((_, Source::State)) => {
                        let size = match p {
                            Pat::App(_, args) => match args.first() {
                                Some(inner @ Pat::App(..)) | Some(inner @ Pat::Ground(_)) => {
                                    pred_of(inner, &self.store)
                                        .and_then(|q| self.base_sizes.get(&q).copied())
                                        .unwrap_or(0)
                                }
                                _ => self.truths.len(),
                            },
                            _ => 0,
                        };
                        Rank(3, estimate(p, &bound, size))
                    }
                    Some((pred, _)) => Rank(3, estimate(p, &bound, self.statics.atoms(pred).len())),
                    None => Rank(3, 0.0),
                },
            };
            let slot = if rank.0 == 4 { &mut best_call } else { &mut best };
            if slot.is_none_or(|(r, _)| rank < r) {
                *slot = Some((rank, at));
            }
        }
        self.bound_buffer = bound;
        match (best, best_call) {
            (Some((r, at)), Some((_, call))) => {
                if r.0 < 3 || (r.0 == 3 && r.1 <= CALL_FIRST) {
                    at
                } else {
                    call
                }
            }
            (Some((_, at)), None) | (None, Some((_, at))) => at,
            (None, None) => 0,
        }
    }
}

/// The key of a choice of [`Lazy::pick`]: the rule (its address: the rules
/// are shared and never change), the literals left and the variables bound,
/// each as a mask; `None` past 64 literals or variables.
fn pick_key(rule: &NRule, left: &[usize], b: &[Option<TermId>]) -> Option<(usize, u64, u64)> {
    if b.len() > 64 || left.iter().any(|&l| l >= 64) {
        return None;
    }
    let left_mask = left.iter().fold(0u64, |mask, &l| mask | 1 << l);
    let bound_mask = b.iter().enumerate().filter(|(_, t)| t.is_some()).fold(0u64, |mask, (v, _)| mask | 1 << v);
    Some((std::ptr::from_ref(rule) as usize, left_mask, bound_mask))
}

/// The relation key of the sentence `p`; `None` for a variable.
fn pred_of(p: &Pat, store: &TermStore) -> Option<Pred> {
    match p {
        Pat::Var(_) => None,
        Pat::Ground(id) => Some(store.pred(*id)),
        Pat::App(name, args) => Some(Pred::new(*name, args.len())),
    }
}

/// Sets in `mask` the bit of each variable of `p` bound in `b`; `false` if a
/// variable is past the mask's 64 bits.
fn bound_mask(p: &Pat, b: &[Option<TermId>], mask: &mut u64) -> bool {
    match p {
        Pat::Var(v) if *v >= 64 => false,
        Pat::Var(v) => {
            if b.get(*v as usize).is_some_and(Option::is_some) {
                *mask |= 1 << v;
            }
            true
        }
        Pat::Ground(_) => true,
        Pat::App(_, args) => args.iter().all(|a| bound_mask(a, b, mask)),
    }
}

/// Whether the ground term `t` is the instance of `p` under `b` (every
/// variable of `p` bound).
fn is_instance(store: &TermStore, p: &Pat, b: &[Option<TermId>], t: TermId) -> bool {
    match p {
        Pat::Var(v) => b[*v as usize] == Some(t),
        Pat::Ground(id) => *id == t,
        Pat::App(name, args) => match store.node(t) {
            Node::App(n, targs) if n == *name && targs.len() == args.len() => {
                args.iter().zip(targs).all(|(a, &t)| is_instance(store, a, b, t))
            }
            _ => false,
        },
    }
}

/// Whether every variable of `p` is bound in `b`.
fn is_bound(p: &Pat, b: &[Option<TermId>]) -> bool {
    match p {
        Pat::Var(v) => b.get(*v as usize).is_some_and(Option::is_some),
        Pat::Ground(_) => true,
        Pat::App(_, args) => args.iter().all(|a| is_bound(a, b)),
    }
}

/// The number of leaves of `p` that are ground under `b`.
fn bound_leaves(p: &Pat, b: &[Option<TermId>]) -> usize {
    match p {
        Pat::Var(v) => usize::from(b.get(*v as usize).is_some_and(Option::is_some)),
        Pat::Ground(_) => 1,
        Pat::App(_, args) => args.iter().map(|a| bound_leaves(a, b)).sum(),
    }
}

/// Unbinds the variables bound since the trail was `mark` long.
fn undo(b: &mut [Option<TermId>], trail: &mut Vec<u16>, mark: usize) {
    for v in trail.drain(mark..) {
        b[v as usize] = None;
    }
}

/// The table key of a call of `p` under `b`: its function symbols, its
/// ground leaves, and a marker for each unbound one, in preorder.
fn call_key(p: &Pat, b: &[Option<TermId>], out: &mut Vec<u64>) {
    const APP: u64 = 1 << 63;
    const FREE: u64 = u64::MAX;
    match p {
        Pat::Var(v) => out.push(b.get(*v as usize).copied().flatten().map_or(FREE, |t| u64::from(t.0))),
        Pat::Ground(t) => out.push(u64::from(t.0)),
        Pat::App(name, args) => {
            out.push(APP | u64::from(name.0) << 32 | args.len() as u64);
            args.iter().for_each(|a| call_key(a, b, out));
        }
    }
}

/// The key of the candidate list of the state literal `p`, literal `lit`
/// of rule `rule`, under `b` (in `out`, cleared first): the literal, then
/// its [`call_key`].
fn list_key(rule: u32, lit: usize, p: &Pat, b: &[Option<TermId>], out: &mut Vec<u64>) {
    out.clear();
    out.push(u64::from(rule) << 32 | lit as u64);
    call_key(p, b, out);
}

/// Binds in `rb` the variables of the rule head `head` that the call `call`
/// (under the caller's bindings `cb`) fixes to ground terms; `false` when
/// they cannot agree. Parts of the call that are not ground are left
/// unconstrained: the atoms then solved are a superset of the call's.
fn pre_match(
    store: &TermStore,
    head: &Pat,
    call: &Pat,
    cb: &[Option<TermId>],
    rb: &mut [Option<TermId>],
    trail: &mut Vec<u16>,
) -> bool {
    match call {
        Pat::Var(v) => match cb.get(*v as usize).copied().flatten() {
            Some(t) => match_pat(store, head, t, rb, trail),
            None => true,
        },
        Pat::Ground(t) => match_pat(store, head, *t, rb, trail),
        Pat::App(f, cargs) => match head {
            Pat::App(g, hargs) => {
                f == g
                    && cargs.len() == hargs.len()
                    && hargs.iter().zip(cargs.iter()).all(|(h, c)| pre_match(store, h, c, cb, rb, trail))
            }
            _ => true,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datalog::{Budget, Evaluator, Negation};
    use crate::game::Game;
    use crate::hybrid::depending_on;
    use crate::normalize::Program;
    use crate::prover::split_statics;
    use crate::prover::tests::games_in;
    use rand::rngs::SmallRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use std::collections::HashSet;
    use std::path::Path;

    /// A game's rules as the grounder is given them: the static relations
    /// evaluated (those too large to evaluate in full keep their rules), the
    /// state-dependent rules, which derived relations do not read the
    /// joint move and which do.
    struct Setup {
        program: Program,
        statics: Model,
        rules: Vec<NRule>,
        tested: HashSet<Pred>,
        moving: HashSet<Pred>,
    }

    /// A state visited by a playout.
    struct Visit {
        /// Its base propositions.
        facts: Vec<TermId>,
        /// The atoms of the relations that do not read the joint move
        /// holding in it.
        holding: HashSet<TermId>,
        /// The `does` atoms of the joint move played from it (none in the
        /// last state).
        does: Vec<TermId>,
        /// The atoms of the relations that read the joint move holding
        /// with it.
        moved: HashSet<TermId>,
    }

    impl Setup {
        fn new(game: &Game) -> Setup {
            let mut program = Program::new(game);
            let (rules, statics) = split_statics(&mut program, Budget::new(1 << 20, 1 << 24));
            let does: HashSet<Pred> = [Pred::new(kw::DOES, 2)].into_iter().collect();
            let moving = depending_on(&rules, &does, &program.store);
            let heads: HashSet<Pred> = rules.iter().map(|r| r.head.pred(&program.store)).collect();
            let tested = heads.iter().copied().filter(|p| !moving.contains(p)).collect();
            let moving = heads.into_iter().filter(|p| moving.contains(p)).collect();
            Setup { program, statics, rules, tested, moving }
        }

        /// The model of the rules in the state of `facts` with the joint
        /// move `does`, bottom-up.
        fn derive(&mut self, facts: &[TermId], does: &[TermId]) -> Model {
            let store = &mut self.program.store;
            let mut model = self.statics.clone();
            for &f in facts {
                let atom = store.app(kw::TRUE, &[f]);
                model.insert(atom, store);
            }
            for &d in does {
                model.insert(d, store);
            }
            let mut budget = Budget::new(1 << 22, 1 << 26);
            Evaluator::run_once(self.rules.clone(), store, &mut model, &Negation::Exact, &mut budget);
            assert!(!budget.is_spent(), "the bottom-up evaluation ran out");
            model
        }

        /// The states of `playouts` random playouts of up to `steps` joint
        /// moves, each with the atoms of the tested relations that hold in it.
        fn playouts(&mut self, playouts: usize, steps: usize, seed: u64) -> Vec<Visit> {
            let mut rng = SmallRng::seed_from_u64(seed);
            let start = self.derive(&[], &[]);
            let init: Vec<TermId> =
                start.atoms(Pred::new(kw::INIT, 1)).iter().map(|&a| self.program.store.args(a)[0]).collect();
            let mut states = Vec::new();
            for _ in 0..playouts {
                let mut facts = init.clone();
                for _ in 0..steps {
                    let model = self.derive(&facts, &[]);
                    let holding: HashSet<TermId> =
                        self.tested.iter().flat_map(|&p| model.atoms(p).iter().copied()).collect();
                    states.push(Visit { facts: facts.clone(), holding, does: Vec::new(), moved: HashSet::new() });
                    let terminal = self.program.store.sym(kw::TERMINAL);
                    if model.contains(terminal, &self.program.store) {
                        break;
                    }
                    let legal = model.atoms(Pred::new(kw::LEGAL, 2));
                    let mut does = Vec::new();
                    for &role in &self.program.roles.clone() {
                        let moves: Vec<TermId> =
                            legal.iter().copied().filter(|&a| self.program.store.args(a)[0] == role).collect();
                        if moves.is_empty() {
                            break;
                        }
                        let chosen = self.program.store.args(moves[rng.random_range(0..moves.len())])[1];
                        does.push(self.program.store.app(kw::DOES, &[role, chosen]));
                    }
                    if does.len() < self.program.roles.len() {
                        break;
                    }
                    let after = self.derive(&facts, &does);
                    let visit = states.last_mut().expect("this state");
                    visit.moved = self.moving.iter().flat_map(|&p| after.atoms(p).iter().copied()).collect();
                    visit.does = does;
                    let mut next: Vec<TermId> =
                        after.atoms(Pred::new(kw::NEXT, 1)).iter().map(|&a| self.program.store.args(a)[0]).collect();
                    next.sort();
                    next.dedup();
                    facts = next;
                }
            }
            states
        }
    }

    /// Most atoms asked per game.
    const SAMPLE: usize = 2000;

    /// The state words of `facts` over `base`.
    fn words_of(facts: &[TermId], base: &[TermId]) -> Vec<u64> {
        let mut words = vec![0u64; base.len().div_ceil(64)];
        for (i, b) in base.iter().enumerate() {
            if facts.contains(b) {
                words[i / 64] |= 1 << (i % 64);
            }
        }
        words
    }

    /// Along random playouts, every atom of every derived relation that
    /// reads the joint move (`with_moves`) or that does not, derived in some
    /// visited state (with `with_moves`: after some transition), is asked in
    /// every visited state (after every transition, with its joint move):
    /// the answer is what the bottom-up evaluator derived there (true where
    /// derived, false where not), or `None`. Returns the number of answers
    /// and of declines.
    fn check_along(game: &Game, run: (usize, usize, u64), with_moves: bool) -> Result<(usize, usize), String> {
        check_bounded(game, run, with_moves, (MEMORY, MAX_NODES), 0).map(|b| (b.answered, b.declined))
    }

    /// What [`check_bounded`] counted.
    #[derive(Debug)]
    struct Bounded {
        answered: usize,
        declined: usize,
        /// How many times the grounder forgot its circuits.
        forgets: usize,
        /// The most nodes and bytes it held after a state.
        nodes: usize,
        bytes: usize,
        /// The most nodes one state added.
        step_nodes: usize,
    }

    /// [`check_along`] with a grounder of at most `memory` bytes and
    /// `max_nodes` nodes, asking in each state `window` of the atoms (the
    /// next ones, round the list), or all of them if `window` is 0.
    fn check_bounded(
        game: &Game,
        (playouts, steps, seed): (usize, usize, u64),
        with_moves: bool,
        (memory, max_nodes): (usize, usize),
        window: usize,
    ) -> Result<Bounded, String> {
        let mut setup = Setup::new(game);
        let states = setup.playouts(playouts, steps, seed);
        let holding = |v: &Visit| if with_moves { v.moved.clone() } else { v.holding.clone() };
        let mut base: Vec<TermId> = states.iter().flat_map(|v| v.facts.iter().copied()).collect();
        base.sort();
        base.dedup();
        let mut asked: Vec<TermId> = states.iter().flat_map(holding).collect();
        asked.sort();
        asked.dedup();
        // A sample of the larger games' atoms.
        let stride = asked.len().div_ceil(SAMPLE);
        let asked: Vec<TermId> = asked.into_iter().step_by(stride.max(1)).collect();
        let mut lazy = Lazy::new(&setup.rules, &setup.statics, &setup.program.store, &base);
        (lazy.memory, lazy.max_nodes) = (memory, max_nodes);
        let (mut answered, mut declined, mut nodes, mut bytes, mut step_nodes) = (0, 0, 0, 0, 0);
        for (step, visit) in states.iter().enumerate().filter(|(_, v)| !with_moves || !v.does.is_empty()) {
            let words = words_of(&visit.facts, &base);
            let holds = holding(visit);
            let window = if window == 0 { asked.len() } else { window };
            let before = lazy.nodes.len();
            for &atom in asked.iter().cycle().skip(step * window % asked.len().max(1)).take(window) {
                let value =
                    if with_moves { lazy.value_after(atom, &words, &visit.does) } else { lazy.value(atom, &words) };
                match value {
                    Some(v) if v == holds.contains(&atom) => answered += 1,
                    None => declined += 1,
                    Some(v) => {
                        let text = setup.program.store.to_term(atom, &setup.program.symbols);
                        let at = if with_moves { "transition" } else { "state" };
                        return Err(format!("{at} {step}: {text} is {v}"));
                    }
                }
            }
            nodes = nodes.max(lazy.nodes.len());
            bytes = bytes.max(lazy.bytes());
            step_nodes = step_nodes.max(lazy.nodes.len().saturating_sub(before));
        }
        Ok(Bounded { answered, declined, forgets: lazy.forgets, nodes, bytes, step_nodes })
    }

    /// [`check_along`] for the relations that do not read the joint move.
    fn check(game: &Game, playouts: usize, steps: usize) -> Result<(usize, usize), String> {
        check_along(game, (playouts, steps, 7), false)
    }

    /// [`check_along`] for the relations that read the joint move.
    fn check_moves(game: &Game, playouts: usize, steps: usize, seed: u64) -> Result<(usize, usize), String> {
        check_along(game, (playouts, steps, seed), true)
    }

    /// The games of `../shared/gdl` and its reasoner test cases (the
    /// directory must be there: an empty list fails).
    fn shared_games() -> Vec<(String, Game)> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut games = games_in(&root.join("../../../shared/gdl"));
        assert!(!games.is_empty(), "../shared/gdl holds no games");
        games.extend(games_in(&root.join("../../../shared/gdl/testcases")));
        games
    }

    /// The games of the shared directory, the atoms that read the joint
    /// move (`next` among them): every answer right, and most atoms
    /// answered.
    #[test]
    fn move_atoms_agree_with_bottom_up_along_playouts() {
        let games = shared_games();
        let (mut answered, mut declined) = (0, 0);
        for (name, game) in games {
            let result = check_moves(&game, 2, 12, 7);
            eprintln!("{name}: {result:?}");
            match result {
                Ok((a, d)) => {
                    answered += a;
                    declined += d;
                }
                Err(e) => panic!("{name}: {e}"),
            }
        }
        assert!(answered > 10 * declined, "{answered} answered, {declined} declined");
    }

    /// A line of cells where a rook's ray to the king opens when the piece
    /// between moves away (a discovered check, as in chess): `does` literals
    /// with free arguments under a ground atom (`vacated`, `next`), under a
    /// negation, with the role free (`last`), and bound (`stayed`); rests
    /// kept by the arguments they read ([`SwitchKey::reads`]: `discovered`
    /// reads where the piece left, `beside` where it went) and by atom (a
    /// constant in the move, `from_two`). Every atom that reads the move is
    /// answered, as the bottom-up evaluator derives it, after every
    /// transition of many random playouts.
    #[test]
    fn discovered_checks_agree_with_bottom_up() {
        let game = Game::parse(
            "(role p) (role q)
             (init (at r 1)) (init (at b 2)) (init (at b 4)) (init (at k 6))
             (cell 1) (cell 2) (cell 3) (cell 4) (cell 5) (cell 6)
             (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)
             (<= (occupied ?x) (true (at ?piece ?x)))
             (<= (legal p (move ?u ?v)) (true (at b ?u)) (succ ?u ?v) (not (occupied ?v)))
             (<= (legal p (move ?u ?v)) (true (at b ?u)) (succ ?v ?u) (not (occupied ?v)))
             (legal p wait)
             (<= (legal q (step ?u ?v)) (true (at k ?u)) (succ ?v ?u) (not (occupied ?v)))
             (<= (legal q (step ?u ?v)) (true (at k ?u)) (succ ?u ?v) (not (occupied ?v)))
             (legal q noop)
             (<= (vacated ?u) (does p (move ?u ?v)))
             (<= (vacated ?u) (does q (step ?u ?v)))
             (<= (next (at ?piece ?x)) (true (at ?piece ?x)) (not (vacated ?x)))
             (<= (next (at b ?v)) (does p (move ?u ?v)))
             (<= (next (at k ?v)) (does q (step ?u ?v)))
             (<= (empty_or ?z ?z) (cell ?z))
             (<= (empty_or ?z ?u) (cell ?u) (not (occupied ?z)))
             (<= (open ?x ?y ?u) (succ ?x ?y) (cell ?u))
             (<= (open ?x ?y ?u) (succ ?x ?z) (empty_or ?z ?u) (open ?z ?y ?u))
             (<= (discovered ?x) (does p (move ?u ?v)) (true (at r ?x)) (true (at k ?y)) (open ?x ?y ?u))
             (<= (next (check ?x)) (discovered ?x))
             (<= (beside ?y) (does p (move ?u ?v)) (true (at k ?y)) (succ ?v ?y))
             (<= (next (near ?y)) (beside ?y))
             (<= (from_two ?v) (does p (move 2 ?v)) (true (at k ?y)) (succ ?v ?y))
             (<= (next (near2 ?v)) (from_two ?v))
             (<= (last ?role) (does ?role ?m) (distinct ?m noop) (distinct ?m wait))
             (<= (next (moved ?role)) (last ?role))
             (<= (stayed) (does p wait) (does q noop))
             (<= (next calm) (stayed))
             (<= terminal (true (check ?x)))
             (goal p 100) (goal q 0)",
        )
        .unwrap();
        let (mut answered, mut held) = (0, 0);
        for seed in 0..8 {
            let result = check_moves(&game, 4, 30, seed);
            let Ok((a, 0)) = result else { panic!("seed {seed}: {result:?}") };
            answered += a;
            let mut setup = Setup::new(&game);
            let discovered = Pred::new(setup.program.symbols.lookup("discovered").unwrap(), 1);
            let visits = setup.playouts(4, 30, seed);
            let store = &setup.program.store;
            held += visits.iter().filter(|v| v.moved.iter().any(|&a| store.pred(a) == discovered)).count();
        }
        assert!(answered > 1000 && held > 0, "{answered} answered, {held} discovered checks");
    }

    /// The games of the shared directory: every atom answered, and rightly.
    #[test]
    fn agrees_with_bottom_up_along_playouts() {
        let games = shared_games();
        for (name, game) in games {
            let t = std::time::Instant::now();
            let result = check(&game, 2, 12);
            eprintln!("{name}: {result:?} {:?}", t.elapsed());
            assert!(matches!(result, Ok((_, 0))), "{name}: {result:?}");
        }
    }

    /// The larger games of the test set: every answer right, and most atoms
    /// answered. (Amazons on a torus is left out: its rays wrap around, so
    /// its moves are positive cycles through ground atoms, all declined;
    /// mummymaze's and sudoku's bottom-up evaluations of every rule run
    /// out.)
    #[test]
    fn agrees_with_bottom_up_on_larger_games() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for (name, game) in games_in(&root.join("tests/games")) {
            if ["chess", "amazonsTorus", "mummymaze1p", "sudoku"].iter().any(|n| name.ends_with(&format!("{n}.kif"))) {
                continue;
            }
            let t = std::time::Instant::now();
            let result = check(&game, 1, 10);
            eprintln!("{name}: {result:?} {:?}", t.elapsed());
            assert!(matches!(result, Ok((answered, declined)) if answered > declined), "{name}: {result:?}");
        }
    }

    /// A grounder bounded far below what the playouts ground (in bytes, or
    /// in nodes) forgets its circuits again and again and answers as the
    /// rules do; full of nodes, it forgets at the next state rather than
    /// declining every atom not yet grounded from then on.
    #[test]
    fn bounded_grounders_forget_and_agree_with_bottom_up() {
        // Lights flipped one a move; 1,320 triples of lights on, each its own
        // circuit.
        let cells: String = (1..=12).map(|c| format!("(cell {c}) ")).collect();
        let steps: String = (0..40).map(|s| format!("(succ {s} {}) ", s + 1)).collect();
        let game = Game::parse(&format!(
            "(role p) (init (on 1)) (init (step 0)) {cells} {steps}
             (<= (legal p (flip ?c)) (cell ?c))
             (<= (next (on ?c)) (does p (flip ?c)) (not (true (on ?c))))
             (<= (next (on ?c)) (true (on ?c)) (not (does p (flip ?c))))
             (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
             (<= (pair ?a ?b) (true (on ?a)) (true (on ?b)) (distinct ?a ?b))
             (<= (triple ?a ?b ?c) (pair ?a ?b) (true (on ?c)) (distinct ?a ?c) (distinct ?b ?c))
             (<= terminal (true (step 40))) (goal p 100)"
        ))
        .unwrap();
        // Each state asks a few atoms, different ones from state to state:
        // the circuits grow along the playouts.
        let (run, window) = ((2, 30, 11), 40);
        let free = check_bounded(&game, run, false, (MEMORY, MAX_NODES), window).unwrap();
        eprintln!("unbounded: {free:?}");
        assert_eq!(free.forgets, 0);
        let by_bytes = check_bounded(&game, run, false, (free.bytes / 3, MAX_NODES), window).unwrap();
        eprintln!("a third of the bytes: {by_bytes:?}");
        assert!(by_bytes.forgets >= 2, "{by_bytes:?}");
        assert_eq!(by_bytes.declined, free.declined, "{by_bytes:?}");
        // Room for a few states' new nodes, far from all of them.
        let room = 4 * free.step_nodes + 16;
        assert!(3 * room < free.nodes, "{free:?}");
        let by_nodes = check_bounded(&game, run, false, (MEMORY, room), window).unwrap();
        eprintln!("room for {room} nodes: {by_nodes:?}");
        assert!(by_nodes.forgets >= 2, "{by_nodes:?}");
        assert!(by_nodes.declined <= free.declined + free.answered / 20, "{by_nodes:?} against {free:?}");
    }

    impl Lazy {
        /// The state bits of the candidates of `enumeration`, from its
        /// shared list's groups, in order.
        fn listed(&self, enumeration: &Enumeration) -> Vec<u32> {
            let groups = &self.groups[enumeration.from as usize..enumeration.to as usize];
            groups
                .iter()
                .flat_map(|g| (0..64).filter(move |j| g.mask >> j & 1 == 1).map(move |j| g.word * 64 + j))
                .collect()
        }

        /// The rests grounded for `enumeration`, as (state bit, node).
        fn rests(&self, enumeration: &Enumeration) -> Vec<(u32, NodeId)> {
            enumeration.all_rests(&self.listed(enumeration))
        }
    }

    /// The atom `(name args…)` of constants, interned in `setup`'s store.
    fn atom(setup: &mut Setup, name: &str, args: &[&str]) -> TermId {
        let symbols = &mut setup.program.symbols;
        let ids: Vec<TermId> = args.iter().map(|a| setup.program.store.sym(symbols.intern(a))).collect();
        let name = symbols.intern(name);
        if ids.is_empty() { setup.program.store.sym(name) } else { setup.program.store.app(name, &ids) }
    }

    /// A positive cycle through ground atoms (`p` and `q` of each other)
    /// is declined, every time, as is what reads the joint move when no
    /// joint move is given (and answered when one is); the atoms around
    /// them, recursion without a ground cycle and negation of a
    /// declined-free atom included, are answered.
    /// Random circuits over four state bits and the constants, of every
    /// kind of gate that folds, evaluated state after state: each gate's
    /// value stays that of the circuit as it was made (evaluated here
    /// directly), while the gates that read constants are folded.
    #[test]
    fn gates_fold_constant_inputs_and_keep_their_values() {
        let game = Game::parse(
            "(role r) (init (on a)) (<= (legal r (go ?x)) (true (on ?x))) (<= (next (on ?x)) (does r (go ?x)))
             (<= terminal (true (on d))) (goal r 100)",
        )
        .unwrap();
        let mut setup = Setup::new(&game);
        let base: Vec<TermId> = ["a", "b", "c", "d"].iter().map(|x| atom(&mut setup, "on", &[x])).collect();
        let mut lazy = Lazy::new(&setup.rules, &setup.statics, &setup.program.store, &base);
        let mut rng = SmallRng::seed_from_u64(5);
        // Nodes as made, to evaluate directly: their gates are copied before
        // any evaluation folds them.
        let mut nodes: Vec<NodeId> = vec![FALSE, TRUE];
        nodes.extend((0..4).map(|bit| lazy.leaf(bit).unwrap()));
        for _ in 0..400 {
            let pick = |rng: &mut SmallRng| nodes[rng.random_range(0..nodes.len())];
            let node = match rng.random_range(0..5) {
                0 => {
                    let input = pick(&mut rng);
                    lazy.gate(Gate::Not(input), &[]).unwrap()
                }
                1 => {
                    let (bit, input) = (rng.random_range(0..4), pick(&mut rng));
                    lazy.gate(Gate::Guard(bit, input), &[]).unwrap()
                }
                kind => {
                    let inputs: Vec<NodeId> = (0..rng.random_range(2..6)).map(|_| pick(&mut rng)).collect();
                    let gate = if kind == 2 { Gate::And(0, 0) } else { Gate::Or(0, 0) };
                    lazy.gate(gate, &inputs).unwrap()
                }
            };
            nodes.push(node);
        }
        let made = lazy.clone();
        fn direct(lazy: &Lazy, node: NodeId, state: u64) -> bool {
            let bit = |b: u32| state >> b & 1 == 1;
            match lazy.nodes[node as usize].gate {
                Gate::Const(c) => c,
                Gate::Bit(b) => bit(b),
                Gate::Not(a) => !direct(lazy, a, state),
                Gate::Guard(b, a) => bit(b) && direct(lazy, a, state),
                Gate::And2(a, b) => direct(lazy, a, state) && direct(lazy, b, state),
                Gate::Or2(a, b) => direct(lazy, a, state) || direct(lazy, b, state),
                Gate::And(from, to) => lazy.inputs[from as usize..to as usize].iter().all(|&a| direct(lazy, a, state)),
                Gate::Or(from, to) => lazy.inputs[from as usize..to as usize].iter().any(|&a| direct(lazy, a, state)),
                other => panic!("no such gate made here: {other:?}"),
            }
        }
        for step in 0..60 {
            let state = rng.random_range(0..16u64);
            lazy.begin_state();
            lazy.seen[0] = state;
            for &node in nodes.iter().rev() {
                let expected = direct(&made, node, state);
                assert_eq!(lazy.eval(node), Ok(expected), "state {step} ({state:04b}), node {node}");
            }
        }
        let folded = (0..lazy.nodes.len())
            .filter(|&n| std::mem::discriminant(&lazy.nodes[n].gate) != std::mem::discriminant(&made.nodes[n].gate))
            .count();
        let shorter = (0..lazy.nodes.len())
            .filter(|&n| match (lazy.nodes[n].gate, made.nodes[n].gate) {
                (Gate::And(a, b), Gate::And(c, d)) | (Gate::Or(a, b), Gate::Or(c, d)) => b - a < d - c,
                _ => false,
            })
            .count();
        eprintln!("{folded} gates folded to another kind, {shorter} with fewer inputs, of {}", nodes.len());
        assert!(folded > 40 && shorter > 10, "{folded} folded, {shorter} shorter");
        let bits = (0..lazy.nodes.len())
            .filter(|&n| matches!((lazy.nodes[n].gate, made.nodes[n].gate), (Gate::Bit(_), Gate::Guard(..))))
            .count();
        assert!(bits > 0, "a guard of a true rest is its bit");
    }

    #[test]
    fn cycles_and_moves_are_declined() {
        let game = Game::parse(
            "(role r) (init (on a)) (succ 0 1) (succ 1 2) (succ 2 3)
             (<= (p ?x) (q ?x)) (<= (q ?x) (p ?x)) (<= (p ?x) (true (on ?x)))
             (<= (above ?x) (p ?x) (true (on b)))
             (<= (t ?x) (does r ?x)) (<= (s ?x) (true (on ?x)) (not (t ?x)))
             (<= (u ?x) (true (on ?x)) (not (w ?x))) (<= (w ?x) (true (off ?x)))
             (<= (count 0) (true (on a)))
             (<= (count ?y) (succ ?x ?y) (count ?x) (not (true (off ?y))))
             (<= (legal r (go ?x)) (true (on ?x))) (<= (next (on ?x)) (does r (go ?x)))
             (<= terminal (true (on c))) (goal r 100)",
        )
        .unwrap();
        let mut setup = Setup::new(&game);
        let cyclic = [atom(&mut setup, "p", &["a"]), atom(&mut setup, "q", &["b"]), atom(&mut setup, "above", &["a"])];
        let moving = atom(&mut setup, "s", &["a"]);
        let (u, count) = (atom(&mut setup, "u", &["a"]), atom(&mut setup, "count", &["3"]));
        let base = [atom(&mut setup, "on", &["a"]), atom(&mut setup, "on", &["b"]), atom(&mut setup, "off", &["a"])];
        let (off_two, off_a) = (atom(&mut setup, "off", &["2"]), base[2]);
        let (does_a, does_b) = (atom(&mut setup, "does", &["r", "a"]), atom(&mut setup, "does", &["r", "b"]));
        let mut base = base.to_vec();
        base.push(off_two);
        let mut lazy = Lazy::new(&setup.rules, &setup.statics, &setup.program.store, &base);
        for state in [[0b0001u64], [0b0111], [0b1001], [0b0000]] {
            let on_a = state[0] & 1 == 1;
            // `(s a)` reads the move only where `(on a)` holds.
            let without_move = if on_a { None } else { Some(false) };
            for _ in 0..2 {
                for &atom in &cyclic {
                    assert_eq!(lazy.value(atom, &state), None);
                }
                assert_eq!(lazy.value(moving, &state), without_move);
            }
            assert_eq!(lazy.value_after(moving, &state, &[does_a]), Some(false));
            assert_eq!(lazy.value_after(moving, &state, &[does_b]), Some(on_a));
            assert_eq!(lazy.value(moving, &state), without_move, "no joint move again");
            let facts: Vec<TermId> =
                base.iter().enumerate().filter(|(i, _)| state[0] >> i & 1 == 1).map(|(_, &b)| b).collect();
            assert_eq!(lazy.value(u, &state), Some(on_a && !facts.contains(&off_a)));
            assert_eq!(lazy.value(count, &state), Some(on_a && !facts.contains(&off_two)));
            // All at once: the atoms before a declined one are answered,
            // then no more.
            let mut holding = Vec::new();
            let atoms = [u, count, cyclic[0], u];
            assert!(!lazy.values(&atoms, &state, None, |at| holding.push(at)), "a cycle is declined");
            let expected: Vec<usize> = [on_a && !facts.contains(&off_a), on_a && !facts.contains(&off_two)]
                .iter()
                .enumerate()
                .filter_map(|(at, &holds)| holds.then_some(at))
                .collect();
            assert_eq!(holding, expected);
        }
        assert_eq!(lazy.value(TermId(u32::MAX), &[0]), None, "a term unknown to the store");
        assert_eq!(lazy.value(u, &[]), None, "a state too short");
        assert!(!lazy.values(&[u], &[], None, |_| {}), "a state too short, all at once");
    }

    /// A deferred rest that reads a variable bound only by the atom's head
    /// (`?x` of `(reach ?x)`, after the state literal `(true (on ?y))`):
    /// its bindings keep it, and every atom in every state of the base
    /// propositions is what the bottom-up evaluator derives there.
    #[test]
    fn deferred_rests_keep_what_the_head_binds() {
        let game = Game::parse(
            "(role r) (init (on a)) (link a b) (link b c) (link c a) (link a c)
             (<= (near ?y ?x) (link ?y ?x) (not (true (off ?y))))
             (<= (reach ?x) (true (on ?y)) (near ?y ?x))
             (<= (alone ?x) (true (on ?y)) (true (off ?x)) (not (near ?x ?y)) (distinct ?x ?y))
             (<= (legal r noop) (true (on a))) (<= (next (on ?x)) (true (on ?x)))
             (<= terminal (true (on c))) (goal r 100)",
        )
        .unwrap();
        let mut setup = Setup::new(&game);
        let names = ["a", "b", "c"];
        let mut base: Vec<TermId> = names.iter().map(|n| atom(&mut setup, "on", &[n])).collect();
        base.extend(names.iter().map(|n| atom(&mut setup, "off", &[n])).collect::<Vec<_>>());
        let asked: Vec<TermId> = ["reach", "alone"]
            .iter()
            .flat_map(|r| names.iter().map(|n| (*r, *n)).collect::<Vec<_>>())
            .map(|(r, n)| atom(&mut setup, r, &[n]))
            .collect();
        let mut lazy = Lazy::new(&setup.rules, &setup.statics, &setup.program.store, &base);
        let mut held = 0;
        for state in 0..1u64 << base.len() {
            let facts: Vec<TermId> =
                base.iter().enumerate().filter(|(i, _)| state >> i & 1 == 1).map(|(_, &b)| b).collect();
            let model = setup.derive(&facts, &[]);
            for &atom in &asked {
                let holds = model.contains(atom, &setup.program.store);
                held += usize::from(holds);
                let text = setup.program.store.to_term(atom, &setup.program.symbols);
                assert_eq!(lazy.value(atom, &[state]), Some(holds), "{text} in state {state:b}");
            }
        }
        assert!(held > 0, "some atom holds somewhere");
        assert!(!lazy.conts.is_empty(), "some rest was deferred");
        assert!(lazy.conts.iter().all(|c| c.binds_len > 0), "each rest keeps the bindings it reads");
    }

    /// Asks `lazy` each of the atoms `asked` in `states` random states of
    /// fewer than `most` base propositions of `base` (drawn from `seed`):
    /// each answer is what the bottom-up evaluator derives there. Returns
    /// how many atoms held, how many did not, and the state words of the
    /// bits set in some state.
    fn check_random_states(
        setup: &mut Setup,
        lazy: &mut Lazy,
        (base, asked): (&[TermId], &[TermId]),
        (states, most, seed): (usize, usize, u64),
    ) -> (usize, usize, Vec<u64>) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let (mut held, mut not_held) = (0, 0);
        let mut ever_set = vec![0u64; base.len().div_ceil(64)];
        for _ in 0..states {
            let set = rng.random_range(0..most);
            let facts: Vec<TermId> = (0..set).map(|_| base[rng.random_range(0..base.len())]).collect();
            let model = setup.derive(&facts, &[]);
            let words = words_of(&facts, base);
            ever_set.iter_mut().zip(&words).for_each(|(e, w)| *e |= w);
            for &atom in asked {
                let holds = model.contains(atom, &setup.program.store);
                held += usize::from(holds);
                not_held += usize::from(!holds);
                let text = setup.program.store.to_term(atom, &setup.program.symbols);
                assert_eq!(lazy.value(atom, &words), Some(holds), "{text} in state {words:x?}");
            }
        }
        (held, not_held, ever_set)
    }

    /// State literals that enumerate a board of 36 squares (`(true (piece
    /// ?u ?v))`, nothing bound, one coordinate bound, and within another
    /// enumeration's rest) in random states of few pieces: every atom
    /// asked is what the bottom-up evaluator derives there, the literals
    /// are enumerations, and only the rests of candidates met set are
    /// grounded.
    #[test]
    fn enumerations_of_many_candidates_few_set_agree_with_bottom_up() {
        let game = Game::parse(
            "(role r) (init (piece 1 1))
             (n 1) (n 2) (n 3) (n 4) (n 5) (n 6)
             (adj 1 2) (adj 2 3) (adj 3 4) (adj 4 5) (adj 5 6)
             (adj 2 1) (adj 3 2) (adj 4 3) (adj 5 4) (adj 6 5)
             (<= (near ?x ?y) (true (piece ?u ?v)) (adj ?u ?x) (adj ?v ?y))
             (<= (row ?x ?y) (n ?x) (true (piece ?u ?y)) (distinct ?u ?x) (not (true (wall ?y))))
             (<= (pair ?x) (true (piece ?x ?v)) (true (piece ?v ?x)))
             (<= (corner ?x) (true (piece ?x ?v)) (true (piece ?w ?v)) (adj ?x ?w))
             (<= (lonely ?x ?y) (true (piece ?x ?y)) (not (near ?x ?y)))
             (<= crowded (true (piece ?u ?v)) (true (piece ?v ?u)) (distinct ?u ?v))
             (<= (legal r noop) (n 1)) (<= (next (piece ?x ?y)) (true (piece ?x ?y)))
             (init (wall 5)) (<= (next (wall ?y)) (true (wall ?y)))
             (<= terminal (true (wall 6))) (goal r 100)",
        )
        .unwrap();
        let mut setup = Setup::new(&game);
        let numbers = ["1", "2", "3", "4", "5", "6"];
        let mut base = Vec::new();
        for x in numbers {
            for y in numbers {
                base.push(atom(&mut setup, "piece", &[x, y]));
            }
        }
        base.extend(numbers.iter().map(|y| atom(&mut setup, "wall", &[y])).collect::<Vec<_>>());
        let mut asked = vec![atom(&mut setup, "crowded", &[])];
        for x in numbers {
            asked.push(atom(&mut setup, "pair", &[x]));
            asked.push(atom(&mut setup, "corner", &[x]));
            for y in numbers {
                for relation in ["near", "row", "lonely"] {
                    asked.push(atom(&mut setup, relation, &[x, y]));
                }
            }
        }
        let mut lazy = Lazy::new(&setup.rules, &setup.statics, &setup.program.store, &base);
        let (held, not_held, ever_set) = check_random_states(&mut setup, &mut lazy, (&base, &asked), (20, 4, 11));
        let ever_set = ever_set[0];
        assert!(held > 50 && not_held > 50, "{held} held, {not_held} not");
        assert!(lazy.enumerations.iter().any(|e| lazy.listed(e).len() >= 36), "an enumeration of the whole board");
        let rests: Vec<u32> = lazy.enumerations.iter().flat_map(|e| lazy.rests(e)).map(|(bit, _)| bit).collect();
        assert!(rests.iter().all(|&bit| ever_set >> bit & 1 == 1), "a rest grounded only once its bit is set");
        let candidates: usize = lazy.enumerations.iter().map(|e| lazy.listed(e).len()).sum();
        let (grounded, saved) = (rests.len(), candidates - rests.len());
        eprintln!("{held} held, {not_held} not; {grounded} rests grounded, {saved} never grounded");
        assert!(saved > 0 && grounded > 0, "{grounded} rests grounded, {saved} never grounded");
    }

    /// Candidate lists shared between enumerations: `(attacked ?x)`'s
    /// literal `(true (piece ?u ?v))` binds nothing, so every `attacked`
    /// atom shares one list of the whole board; `(in_row ?y ?z)`'s binds
    /// the row, so its atoms of one row share a list; a board of 100
    /// squares spans two state words and more. In random states of a few
    /// pieces, every atom asked is what the bottom-up evaluator derives; a
    /// list's candidates are exactly the base propositions its literal
    /// matches (the board's squares, or a row's); and an enumeration has a
    /// rest only for bits set in some state evaluated.
    #[test]
    fn shared_candidate_lists_agree_with_bottom_up() {
        let numbers = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"];
        let mut rules = String::from("(role r) (init (piece 1 1)) (init (mark 1))");
        for (i, n) in numbers.iter().enumerate() {
            rules.push_str(&format!(" (n {n})"));
            if let Some(m) = numbers.get(i + 1) {
                rules.push_str(&format!(" (adj {n} {m}) (adj {m} {n})"));
            }
        }
        rules.push_str(
            "(<= (attacked ?x) (n ?x) (true (piece ?u ?v)) (not (true (mark ?v))) (distinct ?u ?x))
             (<= (in_row ?y ?z) (n ?z) (true (piece ?x ?y)) (distinct ?x ?z) (not (true (mark ?x))))
             (<= any_piece (true (piece ?u ?v)))
             (<= (legal r noop) (n 1)) (<= (next (piece ?x ?y)) (true (piece ?x ?y)))
             (<= (next (mark ?y)) (true (mark ?y)))
             (<= terminal (true (mark 10))) (goal r 100)",
        );
        let game = Game::parse(&rules).unwrap();
        let mut setup = Setup::new(&game);
        let mut base = Vec::new();
        for x in numbers {
            base.push(atom(&mut setup, "mark", &[x]));
            for y in numbers {
                base.push(atom(&mut setup, "piece", &[x, y]));
            }
        }
        let mut asked = vec![atom(&mut setup, "any_piece", &[])];
        for x in numbers {
            asked.push(atom(&mut setup, "attacked", &[x]));
            for y in numbers {
                asked.push(atom(&mut setup, "in_row", &[y, x]));
            }
        }
        let mut lazy = Lazy::new(&setup.rules, &setup.statics, &setup.program.store, &base);
        let (held, not_held, ever_set) = check_random_states(&mut setup, &mut lazy, (&base, &asked), (30, 5, 5));
        assert!(held > 20 && not_held > 20, "{held} held, {not_held} not");
        // The board's squares, and each row's, by state bit.
        let piece = Pred::new(setup.program.symbols.lookup("piece").unwrap(), 2);
        let row_ids: Vec<TermId> =
            numbers.iter().map(|y| setup.program.store.sym(setup.program.symbols.lookup(y).unwrap())).collect();
        let store = &setup.program.store;
        let squares = |row: Option<TermId>| -> Vec<u32> {
            (0..base.len() as u32)
                .filter(|&i| {
                    let p = base[i as usize];
                    store.pred(p) == piece && row.is_none_or(|y| store.args(p)[1] == y)
                })
                .collect()
        };
        let board = squares(None);
        let rows: Vec<Vec<u32>> = row_ids.iter().map(|&y| squares(Some(y))).collect();
        let mut ranges: Vec<(u32, u32)> = lazy.enumerations.iter().map(|e| (e.from, e.to)).collect();
        ranges.sort();
        ranges.dedup();
        assert_eq!(ranges.len(), lazy.lists.len(), "each list listed once");
        // The attacked atoms' list, each row's and any_piece's.
        assert_eq!(ranges.len(), 12, "{} enumerations", lazy.enumerations.len());
        assert_eq!(lazy.enumerations.len(), asked.len(), "one enumeration per atom");
        let whole = lazy.enumerations.iter().filter(|e| lazy.listed(e) == board).count();
        assert_eq!(whole, numbers.len() + 1, "the attacked atoms and any_piece enumerate the board");
        for e in &lazy.enumerations {
            let listed = lazy.listed(e);
            assert!(listed == board || rows.contains(&listed), "a list is the board or a row: {listed:?}");
            assert!(
                lazy.rests(e)
                    .into_iter()
                    .all(|(bit, _)| ever_set[bit as usize / 64] >> (bit % 64) & 1 == 1 && listed.contains(&bit)),
                "a rest only for a candidate set in some state"
            );
            let pairs = e.others.as_chunks::<2>().0;
            assert!(e.dense || pairs.windows(2).all(|w| w[0][0] < w[1][0]), "rests sorted by bit");
            assert!(!e.dense || e.others.len() == listed.len(), "a rest's place for each candidate");
            let mut bits: Vec<u32> = lazy.rests(e).into_iter().map(|(bit, _)| bit).collect();
            bits.sort_unstable();
            assert!(bits.windows(2).all(|w| w[0] < w[1]), "one rest per candidate: {bits:?}");
        }
        assert!(lazy.enumerations.iter().any(|e| !e.dense && !e.others.is_empty()), "some with more than two rests");
        assert!(lazy.enumerations.iter().any(|e| e.dense), "some with rests kept by candidate");
        assert!(lazy.enumerations.iter().any(|e| !lazy.rests(e).is_empty()), "some rest grounded");
        assert!(board.iter().any(|&bit| bit >= 64), "the board spans more than one word");
    }

    /// The same atoms asked state after state in one order, in shuffled
    /// orders, in part, twice in a state, and with and without joint moves
    /// in turn ([`Replay`]): every answer is what the bottom-up evaluator
    /// derives. The atoms' roots are guarded by a state bit (a bound state
    /// literal first), enumerate, or read the move; their rests test a
    /// static relation and the state with every argument bound
    /// ([`Lazy::find_ground`]), instances the store never held included.
    #[test]
    fn asks_in_any_order_agree_with_bottom_up() {
        let game = Game::parse(
            "(role r) (init (piece 1 1))
             (n 1) (n 2) (n 3) (n 4) (n 5) (n 6)
             (adj 1 2) (adj 2 3) (adj 3 4) (adj 4 5) (adj 5 6)
             (<= (guarded ?x ?y) (true (piece ?x ?y)) (adj ?x ?y))
             (<= (beside ?x ?y) (true (piece ?x ?y)) (adj ?y ?z) (true (piece ?x ?z)))
             (<= (column ?x) (n ?x) (true (piece ?x ?v)) (adj ?v ?w) (not (true (piece ?x ?w))))
             (<= (either ?x ?y) (guarded ?x ?y)) (<= (either ?x ?y) (beside ?y ?x))
             (<= (placed ?x ?y) (does r (put ?x ?y)) (not (true (piece ?x ?y))))
             (<= (covered ?x ?y) (true (piece ?x ?y)) (does r (put ?y ?x)))
             (<= (legal r (put ?x ?y)) (n ?x) (n ?y))
             (<= (next (piece ?x ?y)) (true (piece ?x ?y)))
             (<= terminal (true (piece 6 6))) (goal r 100)",
        )
        .unwrap();
        let mut setup = Setup::new(&game);
        let numbers = ["1", "2", "3", "4", "5", "6"];
        let base: Vec<TermId> = numbers
            .iter()
            .flat_map(|x| numbers.map(|y| (x, y)))
            .map(|(x, y)| atom(&mut setup, "piece", &[x, y]))
            .collect();
        let (mut asked, mut moved, mut moves) = (Vec::new(), Vec::new(), Vec::new());
        let r = atom(&mut setup, "r", &[]);
        for x in numbers {
            asked.push(atom(&mut setup, "column", &[x]));
            for y in numbers {
                for relation in ["guarded", "beside", "either"] {
                    asked.push(atom(&mut setup, relation, &[x, y]));
                }
                moved.push(atom(&mut setup, "placed", &[x, y]));
                moved.push(atom(&mut setup, "covered", &[x, y]));
                let m = atom(&mut setup, "put", &[x, y]);
                moves.push(setup.program.store.app(kw::DOES, &[r, m]));
            }
        }
        let mut lazy = Lazy::new(&setup.rules, &setup.statics, &setup.program.store, &base);
        let mut rng = SmallRng::seed_from_u64(5);
        let (mut held, mut not_held) = (0, 0);
        for state in 0..60 {
            let set = rng.random_range(0..8);
            let facts: Vec<TermId> = (0..set).map(|_| base[rng.random_range(0..base.len())]).collect();
            let words = words_of(&facts, &base);
            let model = setup.derive(&facts, &[]);
            let joint = [moves[rng.random_range(0..moves.len())]];
            let after = setup.derive(&facts, &joint);
            // The order: as listed (most states), shuffled, or a part.
            let mut order = asked.clone();
            match state % 5 {
                1 => order.shuffle(&mut rng),
                3 => order.retain(|_| rng.random_bool(0.5)),
                _ => {}
            }
            lazy.begin_state();
            for round in 0..2 {
                // The second round all at once, in the same state.
                if round == 1 {
                    let store = &setup.program.store;
                    let expected: Vec<TermId> = order.iter().copied().filter(|&a| model.contains(a, store)).collect();
                    let mut holding = Vec::new();
                    assert!(lazy.values(&order, &words, None, |at| holding.push(order[at])), "state {state}");
                    assert_eq!(holding, expected, "the atoms holding, asked all at once, state {state}");
                    held += expected.len();
                    not_held += order.len() - expected.len();
                    continue;
                }
                for &atom in &order {
                    let holds = model.contains(atom, &setup.program.store);
                    held += usize::from(holds);
                    not_held += usize::from(!holds);
                    let text = setup.program.store.to_term(atom, &setup.program.symbols);
                    assert_eq!(lazy.value(atom, &words), Some(holds), "{text}, state {state}, round {round}");
                }
                let mut order = moved.clone();
                if state % 3 == 2 {
                    order.reverse();
                }
                if state % 2 == 1 {
                    let store = &setup.program.store;
                    let expected: Vec<TermId> = order.iter().copied().filter(|&a| after.contains(a, store)).collect();
                    let mut holding = Vec::new();
                    assert!(lazy.values(&order, &words, Some(&joint), |at| holding.push(order[at])), "state {state}");
                    assert_eq!(holding, expected, "the atoms holding after the move, all at once, state {state}");
                    continue;
                }
                for &atom in &order {
                    let holds = after.contains(atom, &setup.program.store);
                    let text = setup.program.store.to_term(atom, &setup.program.symbols);
                    assert_eq!(
                        lazy.value_after(atom, &words, &joint),
                        Some(holds),
                        "{text} after the move, state {state}"
                    );
                }
            }
        }
        assert!(held > 200 && not_held > 1000, "{held} held, {not_held} not");
        assert_eq!(lazy.replays[1].asked.len(), moved.len(), "the move's asks are one sequence");
        assert!(lazy.replays[0].asked.len() >= asked.len(), "the state's asks are remembered");
        let guarded = lazy.replays[0].asked.iter().filter(|a| a.guard != NO_BIT).count();
        assert!(guarded >= 20, "{guarded} roots guarded by a state bit");
    }
}
