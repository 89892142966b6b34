//! From ground rules to [`Code`]: a propositional network, simplified and
//! flattened. [`compile`] runs one function per stage:
//!
//! 0. [`collect_atoms`]: the atoms of the ground rules, their definitions (as
//!    disjunctions of bodies) and the base propositions.
//! 1. [`fold_constants`]: constants are propagated: an atom no rule can derive
//!    is false, one with an empty body true; a base proposition that is not
//!    initially true and never becomes true is false, and so is a move that is
//!    never legal. Then [`share_in_network`]: atoms defined alike become one
//!    (hash-consing, dependencies first), and an atom defined by a single
//!    literal becomes that literal.
//! 2. Only what the legal moves, goals, terminality and next state depend on
//!    is kept: [`find_roots`] finds those, [`reachable`] what they depend on,
//!    and [`recursive_groups`] orders it, dependencies first.
//! 3. [`inline_definitions`]: small derived propositions are inlined into the
//!    propositions that use them (each stays a disjunction of conjunctions,
//!    within size limits), so that most of the network becomes a few tests
//!    per word.
//! 4. Disjunctions are factored ([`lower_bodies`]): bodies that differ in one
//!    positive literal become one term testing "any of these bits" (as when a
//!    cell stays blank if any move marks another cell).
//! 5. The rest is laid out as bits in one array of words ([`lay_out`]: the
//!    asks of a hybrid network's oracle, [`crate::asks`], each at its
//!    input's place in a region of their own) and split into three programs
//!    ([`split_programs`], [`build_program`]): legal moves and terminality
//!    (run in every state, its atoms in blocks that run only when the bits
//!    they all require are set: [`choose_guards`]), goals (run on demand)
//!    and the next state (run for a joint move).
//!
//! [`reachable`] is the one dependency walk of stages 2 and 5, and
//! [`components`] the one ordering of stages 1 and 2 (computed once; only
//! its components of several atoms are split again in stage 2).
//!
//! [`compile_within`] stops at a deadline or a cancellation: every stage
//! counts its steps (an atom, a rule, an edge walked) on one
//! [`PeriodicCheck`], which reads the limits every
//! [`CHECK_EVERY`](crate::datalog::CHECK_EVERY) steps, and the limits are
//! read between stages too.

use crate::hash::FastMap;

use crate::asks::AskTable;
use crate::code::{Code, Step, TermBuilder};
use crate::datalog::PeriodicCheck;
use crate::defs::{Defs, Lit};
use crate::ground::Grounding;
use crate::limits::{Limits, OutOfLimits};
use crate::store::{Node, Pred, TermId};
use crate::symbol::kw;

/// Most bodies a proposition may have after inlining into it.
const MAX_BODIES: usize = 64;
/// Most literals in a body after inlining.
const MAX_LITERALS: usize = 64;
/// Inlining may add this many times the literals of the network…
const INLINE_GROWTH: usize = 2;
/// … and at least this many…
const MIN_INLINE_BUDGET: usize = 2_000_000;
/// … except in a network of more literals than this, where nothing is
/// inlined: there inlining multiplies what every state runs more than it
/// saves in nodes (chess's hybrid network, 683,508 literals: 1.32 million
/// clauses in the legal-moves program with the budget, 230 thousand without,
/// and a third more transitions per second).
const LARGE_NETWORK: usize = 500_000;
/// Above this many bodies, redundant bodies are not searched for.
const MAX_SUBSUMPTION: usize = 256;

fn lit(atom: usize, positive: bool) -> Lit {
    (atom as u32) << 1 | u32::from(!positive)
}

fn atom_of(l: Lit) -> usize {
    (l >> 1) as usize
}

fn positive(l: Lit) -> bool {
    l & 1 == 0
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `(true x)`: base proposition number `.0`.
    State(usize),
    /// `(does r m)`.
    Does(TermId, TermId),
    /// An atom of a relation left to the oracle ([`crate::hybrid`]): an
    /// input bit, set before the programs run.
    Input,
    Derived,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Val {
    Unknown,
    True,
    False,
}

/// One move of one role.
#[derive(Debug, Clone)]
pub(crate) struct MoveInfo {
    pub(crate) term: TermId,
    /// The bit of `(legal r m)`.
    pub(crate) legal_bit: u32,
    /// The bit of `(does r m)`, if any rule reads it.
    pub(crate) does_bit: Option<u32>,
}

/// The compiled game.
#[derive(Debug, Clone)]
pub(crate) struct Circuit {
    /// For each state bit, its base proposition.
    pub(crate) base: Vec<TermId>,
    pub(crate) init: Vec<u64>,
    pub(crate) moves: Vec<Vec<MoveInfo>>,
    /// For each role, the first of its legal bits, one per move in order.
    pub(crate) legal_first: Vec<u32>,
    /// For each role: (bit, value) of each possible goal.
    pub(crate) goals: Vec<Vec<(u32, u8)>>,
    pub(crate) terminal_bit: u32,
    /// The atoms left to the oracle and their input bits.
    pub(crate) inputs: Vec<(TermId, u32)>,
    /// The input bits whose atoms a state asks about ([`crate::asks`]), each
    /// with the bit that says whether the state asks (`None`: always).
    pub(crate) asks: AskTable,
    /// The ask atoms `(ask e)` with bits, each as the term `e` and the
    /// ask's bit: for the tests to check [`Circuit::asks`] by the atoms'
    /// terms.
    #[cfg(test)]
    pub(crate) ask_bits: Vec<(TermId, u32)>,
    /// The input region: its first word and its number of words (none for a
    /// fully grounded game).
    pub(crate) input_words: (u32, u32),
    pub(crate) state_words: u32,
    pub(crate) does_words: u32,
    /// The first word of the next-state region (as long as the state region).
    pub(crate) next_word: u32,
    pub(crate) total_words: u32,
    /// The asks, computed before the oracle runs (empty but for hybrid
    /// networks with asks).
    pub(crate) ask: Code,
    pub(crate) legal: Code,
    pub(crate) goal: Code,
    pub(crate) next: Code,
}

struct Builder<'g> {
    g: &'g Grounding,
    atoms: Vec<TermId>,
    /// Each term's atom, by term id (`u32::MAX`: not an atom).
    index: Vec<u32>,
    kinds: Vec<Kind>,
    defs: Defs,
    vals: Vec<Val>,
    base: Vec<TermId>,
    base_index: FastMap<TermId, usize>,
    init: Vec<bool>,
}

impl<'g> Builder<'g> {
    fn atom(&mut self, t: TermId) -> usize {
        if let Some(i) = self.atom_of_term(t) {
            return i;
        }
        let store = &self.g.store;
        let pred = store.pred(t);
        let kind = if pred == Pred::new(kw::TRUE, 1) {
            let x = store.args(t)[0];
            Kind::State(self.base_of(x))
        } else if pred == Pred::new(kw::DOES, 2) {
            let args = store.args(t);
            Kind::Does(args[0], args[1])
        } else if !self.g.externals.is_empty() && self.g.externals.contains(&pred) {
            Kind::Input
        } else {
            Kind::Derived
        };
        let i = self.atoms.len();
        self.atoms.push(t);
        if self.index.len() <= t.0 as usize {
            self.index.resize(t.0 as usize + 1, u32::MAX);
        }
        self.index[t.0 as usize] = i as u32;
        self.kinds.push(kind);
        self.defs.push_atom();
        self.vals.push(Val::Unknown);
        i
    }

    fn base_of(&mut self, x: TermId) -> usize {
        if let Some(&i) = self.base_index.get(&x) {
            return i;
        }
        self.base.push(x);
        self.init.push(false);
        self.base_index.insert(x, self.base.len() - 1);
        self.base.len() - 1
    }

    fn find(&self, name: crate::symbol::Sym, args: &[TermId]) -> Option<usize> {
        let t = self.g.store.find(&Node::App(name, args))?;
        self.atom_of_term(t)
    }

    /// The atom of term `t`, if it is one.
    fn atom_of_term(&self, t: TermId) -> Option<usize> {
        self.index.get(t.0 as usize).filter(|&&i| i != u32::MAX).map(|&i| i as usize)
    }
}

/// The disjunctive normal form of the negation of `bodies`, if it has at most
/// `limit` bodies.
fn negate(bodies: &[Vec<Lit>], limit: usize) -> Option<Vec<Vec<Lit>>> {
    let mut size = 1usize;
    for b in bodies {
        size = size.checked_mul(b.len())?;
        if size > limit {
            return None;
        }
    }
    let mut out: Vec<Vec<Lit>> = vec![Vec::new()];
    for b in bodies {
        let mut next = Vec::with_capacity(out.len() * b.len());
        for partial in &out {
            for &l in b {
                let mut p = partial.clone();
                p.push(l ^ 1);
                next.push(p);
            }
        }
        out = next;
    }
    Some(out)
}

/// The propositions that may be true in a state and the atoms the three
/// programs compute: legal moves, goals, terminality and the next state.
struct Roots {
    /// For each base proposition, its state bit, if it can ever hold.
    state_bit: Vec<Option<u32>>,
    /// The base propositions that can hold, in state-bit order.
    base: Vec<TermId>,
    /// Whether each atom is one of the roots below.
    is_root: Vec<bool>,
    /// For each role, its moves and their `legal` atoms, in move order.
    legal: Vec<Vec<(TermId, usize)>>,
    /// For each role, the `goal` atoms and their values.
    goal: Vec<Vec<(usize, u8)>>,
    /// The `next` atoms and the state bits they set.
    next: Vec<(usize, u32)>,
    /// The `terminal` atom, unless it is never true.
    terminal: Option<usize>,
    /// The ask atoms ([`crate::asks`]) and the input atom each asks about.
    asks: Vec<(usize, usize)>,
}

/// Where each materialised atom lives in the array of words.
struct Layout {
    /// Each atom's bit, if it has one.
    bit_of: Vec<Option<u32>>,
    /// Words of the state region (the first).
    state_words: u32,
    /// Words of the joint-move region, after the state.
    does_words: u32,
    /// The first word of the next-state region (as long as the state region).
    next_word: u32,
    /// Words in all.
    total_words: u32,
    /// For each role, the first of its legal bits.
    legal_first: Vec<u32>,
    /// The materialised derived atoms, in groups, dependencies first.
    node_order: Components,
    /// The bit of `terminal` (the false bit if it is never true).
    terminal_bit: u32,
    /// A bit that is never written, so always false.
    false_bit: u32,
    /// The input atoms and their bits.
    inputs: Vec<(TermId, u32)>,
    /// The input region: first word, number of words.
    input_words: (u32, u32),
}

/// Compiles a ground game, one stage after another (see the module
/// documentation), with no deadline and no cancellation (the tests' way; a
/// machine's compilation has limits, [`compile_within`]).
#[cfg(test)]
pub(crate) fn compile(g: &Grounding) -> Circuit {
    crate::limits::unlimited(compile_within(g, Limits::none()))
}

/// As [`compile`], stopped by the deadline or the cancellation of `stop`
/// (read every [`CHECK_EVERY`](crate::datalog::CHECK_EVERY) steps of a
/// stage, and between stages): then no circuit, only why.
pub(crate) fn compile_within(g: &Grounding, stop: Limits) -> Result<Circuit, OutOfLimits> {
    let check = &mut PeriodicCheck::new(stop);
    check.check()?;
    let mut clock = StageClock::start();
    let mut b = collect_atoms(g, check)?;
    clock.lap("atoms collected");
    let next_of: Vec<Option<usize>> = (0..b.base.len()).map(|x| b.find(kw::NEXT, &[b.base[x]])).collect();
    let all: Vec<usize> = (0..b.atoms.len()).collect();
    let ordered = components(&b.defs, &all, check)?;
    clock.lap("ordered");
    fold_constants(&mut b, &ordered, &next_of, check)?;
    clock.lap("constants folded");
    let shared = share_in_network(&mut b, &ordered, check)?;
    clock.lap(&format!("{shared} atoms shared"));
    let roots = find_roots(&b, &next_of, check)?;
    let root_atoms = || all.iter().copied().filter(|&i| roots.is_root[i]);
    let live = reachable(&b, root_atoms(), |_| true, check)?;
    let (groups, cyclic) = recursive_groups(&b, &live, &ordered, check)?;
    clock.lap("roots and groups");
    inline_definitions(&mut b, &groups, &roots.is_root, &cyclic, check)?;
    clock.lap("inlined");
    let materialised = reachable(&b, root_atoms(), |_| true, check)?;
    check.check()?;
    let layout = lay_out(&b, &roots, &groups, &materialised);
    clock.lap("laid out");
    check.check()?;
    let [ask, legal, goal, next] = split_programs(&b, &roots, &layout, &materialised, &cyclic, check)?;
    check.check()?;
    let guarded: u32 =
        legal.steps.iter().map(|s| if let Step::Guarded { first, end, .. } = s { end - first } else { 0 }).sum();
    clock.lap(&format!(
        "programs built ({} nodes, {guarded} guarded; {} goal, {} next nodes)",
        legal.nodes.len(),
        goal.nodes.len(),
        next.nodes.len()
    ));
    let asks = AskTable::new(asked_inputs(&b, &roots, &layout));
    let circuit = Circuit {
        init: initial_words(&b, &roots, layout.state_words),
        moves: move_infos(&b, &roots, &layout),
        goals: roots.goal.iter().map(|list| list.iter().map(|&(i, v)| (layout.bit(i), v)).collect()).collect(),
        base: roots.base,
        legal_first: layout.legal_first,
        terminal_bit: layout.terminal_bit,
        inputs: layout.inputs,
        asks,
        #[cfg(test)]
        ask_bits: roots.asks.iter().filter_map(|&(ask, input)| Some((b.atoms[input], layout.bit_of[ask]?))).collect(),
        input_words: layout.input_words,
        state_words: layout.state_words,
        does_words: layout.does_words,
        next_word: layout.next_word,
        total_words: layout.total_words,
        ask,
        legal,
        goal,
        next,
    };
    drop(b);
    clock.lap("working memory freed");
    Ok(circuit)
}

/// With `BOUTON_GGP_DEBUG` in the environment, prints the time each stage
/// of [`compile`] took on standard error (wall clock, and this thread's CPU
/// time where Linux's `/proc/thread-self/schedstat` tells it).
struct StageClock {
    last: Option<(std::time::Instant, Option<u64>)>,
}

impl StageClock {
    fn start() -> StageClock {
        StageClock { last: std::env::var_os("BOUTON_GGP_DEBUG").map(|_| (std::time::Instant::now(), cpu_ns())) }
    }

    fn lap(&mut self, stage: &str) {
        if let Some((wall, cpu)) = &mut self.last {
            let now = cpu_ns();
            let cpu_s = match (*cpu, now) {
                (Some(a), Some(b)) => format!(", {:.3} s of CPU", (b.saturating_sub(a)) as f64 / 1e9),
                _ => String::new(),
            };
            eprintln!("circuit: {stage} in {:.3} s{cpu_s}", wall.elapsed().as_secs_f64());
            *wall = std::time::Instant::now();
            *cpu = now;
        }
    }
}

/// This thread's CPU time so far in nanoseconds, where Linux tells it.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat").ok()?.split_whitespace().next()?.parse().ok()
}

/// Stage 0: the atoms of the ground rules and their definitions (normalised),
/// and the base propositions, with those true initially; a step of `check`
/// per rule and per atom.
fn collect_atoms<'g>(g: &'g Grounding, check: &mut PeriodicCheck) -> Result<Builder<'g>, OutOfLimits> {
    let mut b = Builder {
        g,
        atoms: Vec::new(),
        index: vec![u32::MAX; g.store.len()],
        kinds: Vec::new(),
        defs: Defs::default(),
        vals: Vec::new(),
        base: Vec::new(),
        base_index: FastMap::default(),
        init: Vec::new(),
    };
    for &x in &g.init {
        let i = b.base_of(x);
        b.init[i] = true;
    }
    // The rules with atoms for terms, flat: each rule's head, and its body
    // ending at `ends[k]` in `lits`.
    let mut heads: Vec<usize> = Vec::with_capacity(g.rules.len());
    let mut ends: Vec<usize> = Vec::with_capacity(g.rules.len());
    let mut lits: Vec<Lit> = Vec::new();
    for rule in g.rules.iter() {
        check.step()?;
        heads.push(b.atom(rule.head));
        for &(t, p) in rule.body {
            let l = lit(b.atom(t), p);
            lits.push(l);
        }
        ends.push(lits.len());
    }
    let starts = std::iter::once(0).chain(ends.iter().copied());
    let rules = heads.iter().zip(starts.zip(&ends)).map(|(&head, (start, &end))| (head, &lits[start..end]));
    b.defs = Defs::from_rules(b.atoms.len(), rules);
    drop((heads, ends, lits));
    for i in 0..b.defs.len() {
        check.step()?;
        b.defs.normalize(i, MAX_SUBSUMPTION);
    }
    // Base propositions mentioned only under `next` also need an index.
    for i in 0..b.atoms.len() {
        check.step()?;
        let t = b.atoms[i];
        if g.store.pred(t) == Pred::new(kw::NEXT, 1) {
            let x = g.store.args(t)[0];
            b.base_of(x);
        }
    }
    Ok(b)
}

/// Strongly connected components, stored flat: the atoms of each component
/// in turn, and where each component ends.
#[derive(Debug, Default, PartialEq, Eq)]
struct Components {
    atoms: Vec<usize>,
    ends: Vec<usize>,
}

impl Components {
    /// The components in order, each as a slice of atoms.
    fn iter(&self) -> impl Iterator<Item = &[usize]> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(start, &end)| &self.atoms[start..end])
    }

    /// Adds a component: the atoms of `atoms` (unless there are none).
    fn push(&mut self, atoms: impl IntoIterator<Item = usize>) {
        self.atoms.extend(atoms);
        if self.ends.last().copied().unwrap_or(0) < self.atoms.len() {
            self.ends.push(self.atoms.len());
        }
    }

    /// The components with only the atoms that pass `keep` (those left
    /// empty dropped).
    fn filtered(&self, keep: impl Fn(usize) -> bool) -> Components {
        let mut out = Components::default();
        for component in self.iter() {
            out.push(component.iter().copied().filter(|&i| keep(i)));
        }
        out
    }
}

/// The strongly connected components of the dependency graph among `nodes`
/// (atom indices), dependencies first; a dependency on an atom outside
/// `nodes` is ignored. Tarjan's algorithm, iterative, reading the edges
/// from the definitions in place (a network may have millions of atoms:
/// nothing is allocated per atom); a step of `check` per step of the walk.
fn components(defs: &Defs, nodes: &[usize], check: &mut PeriodicCheck) -> Result<Components, OutOfLimits> {
    const UNSEEN: u32 = u32::MAX;
    let mut inside = vec![false; defs.len()];
    nodes.iter().for_each(|&i| inside[i] = true);
    let mut index = vec![UNSEEN; defs.len()];
    let mut low = vec![0u32; defs.len()];
    let mut on_stack = vec![false; defs.len()];
    let mut stack: Vec<usize> = Vec::new();
    let mut out = Components::default();
    // The depth-first path: (atom, its body, the literal in that body).
    let mut path: Vec<(usize, usize, usize)> = Vec::new();
    let mut next = 0u32;
    for &root in nodes {
        if index[root] != UNSEEN {
            continue;
        }
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        path.push((root, 0, 0));
        while let Some((v, body, literal)) = path.last_mut() {
            check.step()?;
            let v = *v;
            if *body < defs.body_count(v) {
                let def_body = defs.body(v, *body);
                if *literal >= def_body.len() {
                    *body += 1;
                    *literal = 0;
                    continue;
                }
                let w = atom_of(def_body[*literal]);
                *literal += 1;
                if !inside[w] {
                    continue;
                }
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    path.push((w, 0, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            path.pop();
            if let Some(&(parent, _, _)) = path.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    on_stack[w] = false;
                    out.atoms.push(w);
                    if w == v {
                        break;
                    }
                }
                out.ends.push(out.atoms.len());
            }
        }
    }
    Ok(out)
}

/// The derived atoms reachable from `roots` through the definitions, never
/// entering an atom outside `within`; a step of `check` per atom taken.
fn reachable(
    b: &Builder<'_>,
    roots: impl IntoIterator<Item = usize>,
    within: impl Fn(usize) -> bool,
    check: &mut PeriodicCheck,
) -> Result<Vec<bool>, OutOfLimits> {
    let mut seen = vec![false; b.atoms.len()];
    let mut stack: Vec<usize> = roots.into_iter().collect();
    while let Some(i) = stack.pop() {
        check.step()?;
        if seen[i] || !within(i) {
            continue;
        }
        seen[i] = true;
        for l in b.defs.literals(i) {
            let a = atom_of(l);
            if b.kinds[a] == Kind::Derived && !seen[a] {
                stack.push(a);
            }
        }
    }
    Ok(seen)
}

/// Stage 1: propagates constants to a fixpoint, `order` being the derived
/// atoms' dependency order; a step of `check` per atom of each pass.
fn fold_constants(
    b: &mut Builder<'_>,
    ordered: &Components,
    next_of: &[Option<usize>],
    check: &mut PeriodicCheck,
) -> Result<(), OutOfLimits> {
    // For each `does` atom of a role, its `legal` atom (if any rule derives it).
    let legal_of: Vec<Option<usize>> = (0..b.atoms.len())
        .map(|i| match b.kinds[i] {
            Kind::Does(role, mv) if b.g.roles.contains(&role) => b.find(kw::LEGAL, &[role, mv]),
            _ => None,
        })
        .collect();
    // A pass over the derived atoms, dependencies first, settles every atom
    // whose dependencies are settled; another is needed only where inputs
    // were settled since, or where an atom of a cycle of several atoms was
    // (an atom may then read one settled after it; an atom that reads
    // itself is settled by its other literals, in its own turn).
    let cycles = ordered.iter().any(|c| c.len() > 1);
    check.check()?;
    fold_inputs(b, next_of, &legal_of, check)?;
    loop {
        let decided = fold_derived(b, &ordered.atoms, check)?;
        let inputs_changed = fold_inputs(b, next_of, &legal_of, check)?;
        if !(inputs_changed || cycles && decided) {
            return Ok(());
        }
    }
}

/// Makes false each base proposition that never holds and each move that is
/// never legal (`legal_of`: each `does` atom's `legal` atom); whether
/// anything changed. A step of `check` per atom.
fn fold_inputs(
    b: &mut Builder<'_>,
    next_of: &[Option<usize>],
    legal_of: &[Option<usize>],
    check: &mut PeriodicCheck,
) -> Result<bool, OutOfLimits> {
    let mut changed = false;
    for (i, legal) in legal_of.iter().enumerate() {
        check.step()?;
        if b.vals[i] != Val::Unknown {
            continue;
        }
        let never = match b.kinds[i] {
            Kind::State(x) => !b.init[x] && next_of[x].is_none_or(|a| b.vals[a] == Val::False),
            Kind::Does(..) => legal.is_none_or(|a| b.vals[a] == Val::False),
            Kind::Derived | Kind::Input => false,
        };
        if never {
            b.vals[i] = Val::False;
            changed = true;
        }
    }
    Ok(changed)
}

/// Simplifies the definitions of derived atoms by the known values, and
/// decides those that become constant; whether any was decided. A step of
/// `check` per atom.
fn fold_derived(b: &mut Builder<'_>, order: &[usize], check: &mut PeriodicCheck) -> Result<bool, OutOfLimits> {
    let mut decided = false;
    for &i in order {
        check.step()?;
        if b.kinds[i] != Kind::Derived || b.vals[i] != Val::Unknown {
            continue;
        }
        let vals = &b.vals;
        // Each literal's value where it is known.
        b.defs.simplify(i, |l| match vals[atom_of(l)] {
            Val::Unknown => None,
            Val::True => Some(positive(l)),
            Val::False => Some(!positive(l)),
        });
        if b.defs.has_empty_body(i) {
            b.vals[i] = Val::True;
            b.defs.make_true(i);
            decided = true;
        } else if b.defs.body_count(i) == 0 {
            b.vals[i] = Val::False;
            decided = true;
        }
    }
    Ok(decided)
}

/// Stage 1b: identical sub-networks shared (hash-consing, [`share_identical`])
/// among the derived atoms not yet decided; `legal`, `goal`, `terminal` and
/// `next` atoms, which have bits of their own in their own programs, neither
/// replace nor are replaced. Returns the number of atoms replaced. A step
/// of `check` per atom.
fn share_in_network(
    b: &mut Builder<'_>,
    components: &Components,
    check: &mut PeriodicCheck,
) -> Result<usize, OutOfLimits> {
    let open: Vec<bool> =
        (0..b.atoms.len()).map(|i| b.kinds[i] == Kind::Derived && b.vals[i] == Val::Unknown).collect();
    let keyword = |i: usize| {
        let name = b.g.store.pred(b.atoms[i]).name;
        [kw::LEGAL, kw::GOAL, kw::TERMINAL, kw::NEXT].contains(&name) || b.g.ask == Some(name)
    };
    let replaceable: Vec<bool> = (0..b.atoms.len()).map(|i| open[i] && !keyword(i)).collect();
    check.check()?;
    share_identical(&mut b.defs, components, &open, &replaceable, check)
}

/// Hash-consing of definitions, dependencies first in the order of
/// `components`: each `rewritable` atom's literals are rewritten by the
/// replacements found so far; then a `replaceable` atom whose definition is
/// a single literal is replaced by that literal wherever it is used, and one
/// whose definition equals an earlier atom's by that atom. Amazons' rays
/// "ignoring" a square off the ray become the plain rays. Atoms of a
/// recursive group are not replaced. Returns the number of atoms replaced
/// (their definitions stay, unused). A step of `check` per atom.
fn share_identical(
    defs: &mut Defs,
    components: &Components,
    rewritable: &[bool],
    replaceable: &[bool],
    check: &mut PeriodicCheck,
) -> Result<usize, OutOfLimits> {
    use std::collections::hash_map::Entry;
    let mut replacement: Vec<Lit> = (0..defs.len()).map(|i| lit(i, true)).collect();
    let mut first_with: FastMap<u64, usize> = FastMap::default();
    let mut replaced = 0;
    for component in components.iter() {
        for &i in component {
            check.step()?;
            if rewritable[i] && defs.map_literals(i, |l| replacement[atom_of(l)] ^ (l & 1)) {
                defs.normalize(i, MAX_SUBSUMPTION);
            }
        }
        let &[i] = component else { continue };
        if !replaceable[i] || defs.literals(i).any(|l| atom_of(l) == i) {
            continue;
        }
        if defs.body_count(i) == 1
            && let &[l] = defs.body(i, 0)
        {
            replacement[i] = l;
            replaced += 1;
            continue;
        }
        match first_with.entry(defs.hash_of(i)) {
            Entry::Vacant(slot) => {
                slot.insert(i);
            }
            // Equal hashes of different definitions (rare) are not shared.
            Entry::Occupied(slot) => {
                if defs.same(*slot.get(), i) {
                    replacement[i] = lit(*slot.get(), true);
                    replaced += 1;
                }
            }
        }
    }
    Ok(replaced)
}

/// Stage 2, the roots: the state bits of the base propositions that can
/// hold, and the atoms of the legal moves, goals, terminality and next
/// state; a step of `check` per atom.
fn find_roots(b: &Builder<'_>, next_of: &[Option<usize>], check: &mut PeriodicCheck) -> Result<Roots, OutOfLimits> {
    let g = b.g;
    let mut state_bit = vec![None; b.base.len()];
    let mut base = Vec::new();
    for x in 0..b.base.len() {
        let possible = b.init[x] || next_of[x].is_some_and(|a| b.vals[a] != Val::False);
        if possible {
            state_bit[x] = Some(base.len() as u32);
            base.push(b.base[x]);
        }
    }
    let mut roots = Roots {
        state_bit,
        base,
        is_root: vec![false; b.atoms.len()],
        legal: vec![Vec::new(); g.roles.len()],
        goal: vec![Vec::new(); g.roles.len()],
        next: Vec::new(),
        terminal: None,
        asks: Vec::new(),
    };
    for i in 0..b.atoms.len() {
        check.step()?;
        if b.vals[i] != Val::False && b.kinds[i] == Kind::Derived {
            roots.is_root[i] = add_root(b, &mut roots, i);
        }
    }
    // Moves in a stable order: that of their terms ([`crate::Term`]'s).
    check.check()?;
    let order = TermOrder::new(g, roots.legal.iter().flatten().map(|&(mv, _)| mv));
    for list in &mut roots.legal {
        order.sort(list);
    }
    let terminal = g.store.find(&Node::Sym(kw::TERMINAL)).and_then(|t| b.atom_of_term(t));
    roots.terminal = terminal.filter(|&t| b.vals[t] != Val::False);
    Ok(roots)
}

/// Sort keys that order stored terms as [`crate::Term`] orders them (kind,
/// then name — numbers by value, other names ignoring case — then the
/// arguments), without building the terms: each name's rank among the names
/// used is computed once, and a term's key is its tokens in prefix order.
struct TermOrder<'g> {
    store: &'g crate::store::TermStore,
    /// Each name's rank, by symbol number (only the names used are read).
    rank: Vec<u32>,
}

impl<'g> TermOrder<'g> {
    /// Ranks the names used in `terms`.
    fn new(g: &'g Grounding, terms: impl Iterator<Item = TermId>) -> TermOrder<'g> {
        let mut names = Vec::new();
        let mut stack: Vec<TermId> = terms.collect();
        let mut seen: FastMap<TermId, ()> = FastMap::default();
        while let Some(t) = stack.pop() {
            if seen.insert(t, ()).is_some() {
                continue;
            }
            match g.store.node(t) {
                Node::Sym(s) => names.push(s),
                Node::App(s, args) => {
                    names.push(s);
                    stack.extend_from_slice(args);
                }
            }
        }
        names.sort_unstable();
        names.dedup();
        let by_name = |a: &crate::symbol::Sym, b: &crate::symbol::Sym| {
            crate::term::compare_names(g.symbols.name(*a), g.symbols.name(*b))
        };
        names.sort_by(by_name);
        let mut rank = vec![0u32; names.iter().map(|s| s.0 as usize + 1).max().unwrap_or(0)];
        let mut r = 0u32;
        for (k, &name) in names.iter().enumerate() {
            if k > 0 && by_name(&names[k - 1], &name) != std::cmp::Ordering::Equal {
                r += 1;
            }
            rank[name.0 as usize] = r;
        }
        TermOrder { store: &g.store, rank }
    }

    /// Sorts `list` by its terms (a stable sort), with the keys of all its
    /// terms in one array.
    fn sort<T: Copy>(&self, list: &mut [(TermId, T)]) {
        let mut tokens = Vec::new();
        let mut ends = Vec::with_capacity(list.len());
        for &(t, _) in list.iter() {
            self.push_tokens(t, &mut tokens);
            ends.push(tokens.len());
        }
        let key = |k: usize| &tokens[if k == 0 { 0 } else { ends[k - 1] }..ends[k]];
        let mut order: Vec<usize> = (0..list.len()).collect();
        order.sort_by(|&a, &b| key(a).cmp(key(b)));
        let sorted: Vec<(TermId, T)> = order.iter().map(|&k| list[k]).collect();
        list.copy_from_slice(&sorted);
    }

    /// Appends the key of `t`: one token per name (constants below compound
    /// terms), and a 0 closing each argument list, so that a shorter list
    /// sorts first.
    fn push_tokens(&self, t: TermId, out: &mut Vec<u32>) {
        match self.store.node(t) {
            Node::Sym(s) => out.push(self.rank[s.0 as usize] + 1),
            Node::App(s, args) => {
                out.push(1 << 31 | (self.rank[s.0 as usize] + 1));
                for &a in args {
                    self.push_tokens(a, out);
                }
                out.push(0);
            }
        }
    }
}

/// Records derived atom `i` in `roots` if it is a root; whether it is one.
fn add_root(b: &Builder<'_>, roots: &mut Roots, i: usize) -> bool {
    let g = b.g;
    let t = b.atoms[i];
    let pred = g.store.pred(t);
    let args = g.store.args(t);
    let role = || g.roles.iter().position(|&x| x == args[0]);
    if pred == Pred::new(kw::LEGAL, 2) {
        if let Some(r) = role() {
            roots.legal[r].push((args[1], i));
            return true;
        }
    } else if pred == Pred::new(kw::GOAL, 2) {
        let value = match g.store.node(args[1]) {
            Node::Sym(s) => g.symbols.goal_value(s),
            Node::App(..) => None,
        };
        if let (Some(r), Some(v)) = (role(), value) {
            roots.goal[r].push((i, v));
            return true;
        }
    } else if pred == Pred::proposition(kw::TERMINAL) {
        return true;
    } else if g.ask.is_some_and(|ask| pred == Pred::new(ask, 1))
        && let Some(input) = b.atom_of_term(args[0])
    {
        roots.asks.push((i, input));
        return true;
    } else if pred == Pred::new(kw::NEXT, 1)
        && let Some(bit) = roots.state_bit[b.base_index[&args[0]]]
    {
        roots.next.push((i, bit));
        return true;
    }
    false
}

/// The recursive groups among the `live` derived atoms, dependencies first,
/// and which atoms belong to a cycle. `ordered` are the components of the
/// definitions before they were simplified: simplifying only removes or
/// redirects dependencies to earlier components, so only components of
/// several atoms need to be split again. A step of `check` per component
/// (and per step of the walk splitting one).
fn recursive_groups(
    b: &Builder<'_>,
    live: &[bool],
    ordered: &Components,
    check: &mut PeriodicCheck,
) -> Result<(Components, Vec<bool>), OutOfLimits> {
    let mut groups = Components::default();
    let mut members: Vec<usize> = Vec::new();
    for component in ordered.iter() {
        check.step()?;
        members.clear();
        members.extend(component.iter().copied().filter(|&i| live[i]));
        match members.len() {
            0 => {}
            1 => groups.push([members[0]]),
            _ => components(&b.defs, &members, check)?.iter().for_each(|c| groups.push(c.iter().copied())),
        }
    }
    let mut cyclic = vec![false; b.atoms.len()];
    for group in groups.iter() {
        let self_loop = group.len() == 1 && b.defs.literals(group[0]).any(|l| atom_of(l) == group[0]);
        if group.len() > 1 || self_loop {
            group.iter().for_each(|&i| cyclic[i] = true);
        }
    }
    Ok((groups, cyclic))
}

/// Stage 3: inlines small derived atoms into those that use them,
/// dependencies first. Inlining copies definitions, so in a large network it
/// stops once it has added [`INLINE_GROWTH`] times as many literals as the
/// network had (at least [`MIN_INLINE_BUDGET`]): the rest stays as nodes.
/// A step of `check` per atom.
fn inline_definitions(
    b: &mut Builder<'_>,
    groups: &Components,
    is_root: &[bool],
    cyclic: &[bool],
    check: &mut PeriodicCheck,
) -> Result<(), OutOfLimits> {
    let total = b.defs.total_size();
    let mut budget = if total > LARGE_NETWORK { 0 } else { total.saturating_mul(INLINE_GROWTH).max(MIN_INLINE_BUDGET) };
    for group in groups.iter() {
        for &h in group {
            check.step()?;
            if b.vals[h] != Val::Unknown {
                continue;
            }
            if budget == 0 {
                return Ok(());
            }
            let before = b.defs.size(h);
            let mut out: Vec<Vec<Lit>> = Vec::new();
            for body in b.defs.bodies(h) {
                let inlinable = |c: usize| b.kinds[c] == Kind::Derived && !is_root[c] && !cyclic[c] && c != h;
                let expanded = inline_body(&b.defs, body, out.len(), inlinable);
                out.extend(expanded);
            }
            b.defs.set(h, &out);
            b.defs.normalize(h, MAX_SUBSUMPTION);
            budget = budget.saturating_sub(b.defs.size(h).saturating_sub(before));
        }
    }
    Ok(())
}

/// The bodies that `body` becomes when each of its `inlinable` atoms is
/// replaced by its definition (or the negation of it), within the size
/// limits, `produced` bodies of the same definition being already made.
fn inline_body(defs: &Defs, body: &[Lit], produced: usize, inlinable: impl Fn(usize) -> bool) -> Vec<Vec<Lit>> {
    let mut acc: Vec<Vec<Lit>> = vec![Vec::new()];
    for &l in body {
        let c = atom_of(l);
        if inlinable(c) {
            let room = MAX_BODIES.saturating_sub(produced) / acc.len().max(1);
            let alts = if positive(l) {
                (defs.body_count(c) <= room).then(|| defs.to_vecs(c))
            } else {
                negate(&defs.to_vecs(c), room)
            };
            if let Some(alts) = alts {
                let longest = alts.iter().map(Vec::len).max().unwrap_or(0);
                let current = acc.iter().map(Vec::len).max().unwrap_or(0);
                if !alts.is_empty() && current + longest + body.len() <= MAX_LITERALS {
                    let mut next = Vec::with_capacity(acc.len() * alts.len());
                    for partial in &acc {
                        for alt in &alts {
                            let mut p = partial.clone();
                            p.extend_from_slice(alt);
                            next.push(p);
                        }
                    }
                    acc = next;
                    continue;
                }
            }
        }
        acc.iter_mut().for_each(|p| p.push(l));
    }
    acc
}

impl Layout {
    /// The bit of atom `i`, or the false bit if it has none (it was folded
    /// away).
    fn bit(&self, i: usize) -> u32 {
        self.bit_of[i].unwrap_or(self.false_bit)
    }
}

/// Stage 5, the layout: the state, the joint move, the next state, the
/// inputs, then the legal moves (each role's on consecutive bits), the asks
/// (each input's at its input's place in a region as long as the inputs')
/// and the other materialised atoms, group by group.
fn lay_out(b: &Builder<'_>, roots: &Roots, groups: &Components, materialised: &[bool]) -> Layout {
    let n = b.atoms.len();
    let does_atoms: Vec<usize> =
        (0..n).filter(|&i| matches!(b.kinds[i], Kind::Does(..)) && b.vals[i] == Val::Unknown).collect();
    let words = |bits: usize| (bits.div_ceil(64)).max(1) as u32;
    let state_words = words(roots.base.len());
    let does_words = words(does_atoms.len());
    let next_word = state_words + does_words;
    let mut bit_of: Vec<Option<u32>> = vec![None; n];
    for (i, bit) in bit_of.iter_mut().enumerate() {
        if let Kind::State(x) = b.kinds[i] {
            *bit = roots.state_bit[x];
        }
    }
    for (k, &i) in does_atoms.iter().enumerate() {
        bit_of[i] = Some(state_words * 64 + k as u32);
    }
    for &(i, bit) in &roots.next {
        bit_of[i] = Some(next_word * 64 + bit);
    }
    // The inputs after the next state, in a region of their own.
    let input_atoms: Vec<usize> = (0..n).filter(|&i| b.kinds[i] == Kind::Input && b.vals[i] == Val::Unknown).collect();
    let input_word = next_word + state_words;
    let input_count = (input_atoms.len().div_ceil(64)) as u32;
    let mut inputs = Vec::with_capacity(input_atoms.len());
    for (k, &i) in input_atoms.iter().enumerate() {
        let bit = input_word * 64 + k as u32;
        bit_of[i] = Some(bit);
        inputs.push((b.atoms[i], bit));
    }
    let mut next_free = (input_word + input_count) * 64;
    // Each role's legal moves on consecutive bits, in move order, so that
    // listing or drawing the legal moves reads a few words.
    let mut legal_first = Vec::with_capacity(roots.legal.len());
    for list in &roots.legal {
        legal_first.push(next_free);
        for &(_, i) in list {
            bit_of[i] = Some(next_free);
            next_free += 1;
        }
    }
    // The asks of the inputs ([`crate::asks`]) in a region as long as the
    // inputs', each at its input's place there, so that the asks of a word
    // of inputs are one word ([`AskTable`] reads them a word at a time).
    let ask_word = next_free.div_ceil(64);
    let mut asks_laid_out = false;
    for &(ask, input) in &roots.asks {
        if materialised[ask]
            && b.vals[ask] == Val::Unknown
            && bit_of[ask].is_none()
            && let Some(input_bit) = bit_of[input].filter(|_| b.kinds[input] == Kind::Input)
        {
            bit_of[ask] = Some(ask_word * 64 + (input_bit - input_word * 64));
            asks_laid_out = true;
        }
    }
    if asks_laid_out {
        next_free = (ask_word + input_count) * 64;
    }
    let node_order = groups.filtered(|i| materialised[i]);
    for &i in &node_order.atoms {
        if bit_of[i].is_none() {
            bit_of[i] = Some(next_free);
            next_free += 1;
        }
    }
    // A constant-false bit for a missing terminal (or legal/goal atoms that
    // were folded away): the never-written last bit.
    let false_bit = next_free;
    let terminal_bit = roots.terminal.and_then(|t| bit_of[t]).unwrap_or(false_bit);
    let total_words = (false_bit + 1).div_ceil(64);
    Layout {
        bit_of,
        state_words,
        does_words,
        next_word,
        total_words,
        legal_first,
        node_order,
        terminal_bit,
        false_bit,
        inputs,
        input_words: (input_word, input_count),
    }
}

/// Splits the materialised atoms into four programs: the asks of a hybrid
/// network's oracle ([`crate::asks`]), legal moves and terminality (less
/// what the first computed), goals (less what those computed), and the next
/// state (likewise); steps of `check` as they go.
fn split_programs(
    b: &Builder<'_>,
    roots: &Roots,
    layout: &Layout,
    materialised: &[bool],
    cyclic: &[bool],
    check: &mut PeriodicCheck,
) -> Result<[Code; 4], OutOfLimits> {
    let mut cone = |atoms: Vec<usize>| reachable(b, atoms, |i| materialised[i], check);
    let p0 = cone(roots.asks.iter().map(|&(i, _)| i).collect())?;
    let mut legal_and_terminal: Vec<usize> = roots.legal.iter().flatten().map(|&(_, i)| i).collect();
    legal_and_terminal.extend(roots.terminal);
    let p1 = cone(legal_and_terminal)?;
    let p2 = cone(roots.goal.iter().flatten().map(|&(i, _)| i).collect())?;
    let p3 = cone(roots.next.iter().map(|&(i, _)| i).collect())?;
    let before = |i: usize| p0[i] || p1[i];
    let is_state = |i: usize| matches!(b.kinds[i], Kind::State(_)) && layout.bit_of[i].is_some();
    let implied = implied_state_literals(&b.defs, &layout.node_order, cyclic, is_state, check)?;
    Ok([
        build_program(b, layout, cyclic, |i| p0[i], Some((&implied, Sharing::Most)), check)?,
        build_program(b, layout, cyclic, |i| p1[i] && !p0[i], Some((&implied, Sharing::Fewest)), check)?,
        build_program(b, layout, cyclic, |i| p2[i] && !before(i), None, check)?,
        build_program(b, layout, cyclic, |i| p3[i] && !before(i), None, check)?,
    ])
}

/// Most state literals kept per atom by [`implied_state_literals`].
const MAX_IMPLIED: usize = 16;

/// For each atom, positive state literals (`(true p)`) that every one of
/// its bodies requires, directly or through a positive literal of a derived
/// atom that requires them in turn (at most [`MAX_IMPLIED`], sorted): when
/// one of those bits is clear the atom is false. A legal move whose bodies
/// all read `(legal2 … (move wq d 1 d 4))` requires the queen on d1 through
/// it, so it can be guarded by that square ([`choose_guards`]) although no
/// body names it. Within a recursive group only the direct literals count.
/// A step of `check` per atom.
fn implied_state_literals(
    defs: &Defs,
    order: &Components,
    cyclic: &[bool],
    is_state: impl Fn(usize) -> bool,
    check: &mut PeriodicCheck,
) -> Result<Vec<Vec<Lit>>, OutOfLimits> {
    let mut implied: Vec<Vec<Lit>> = vec![Vec::new(); cyclic.len()];
    let mut body_set: Vec<Lit> = Vec::new();
    for group in order.iter() {
        let recursive = group.len() > 1 || group.iter().any(|&i| cyclic[i]);
        for &i in group {
            check.step()?;
            if defs.has_empty_body(i) {
                continue;
            }
            let mut common: Option<Vec<Lit>> = None;
            for body in defs.bodies(i) {
                body_set.clear();
                for &l in body.iter().filter(|&&l| positive(l)) {
                    if is_state(atom_of(l)) {
                        body_set.push(l);
                    } else if !(recursive && group.contains(&atom_of(l))) {
                        body_set.extend_from_slice(&implied[atom_of(l)]);
                    }
                }
                body_set.sort_unstable();
                body_set.dedup();
                common = Some(match common {
                    None => body_set.clone(),
                    Some(mut c) => {
                        c.retain(|l| body_set.binary_search(l).is_ok());
                        c
                    }
                });
                if common.as_ref().is_some_and(Vec::is_empty) {
                    break;
                }
            }
            let mut common = common.unwrap_or_default();
            common.truncate(MAX_IMPLIED);
            implied[i] = common;
        }
    }
    Ok(implied)
}

/// The input bits a state asks about, each with the bit of its ask (`None`
/// where the ask always holds; inputs never asked are left out).
fn asked_inputs(b: &Builder<'_>, roots: &Roots, layout: &Layout) -> Vec<(u32, Option<u32>)> {
    let mut asks: Vec<(u32, Option<u32>)> = roots
        .asks
        .iter()
        .filter(|&&(ask, _)| b.vals[ask] != Val::False)
        .filter_map(|&(ask, input)| {
            let input_bit = layout.bit_of[input]?;
            Some((input_bit, if b.vals[ask] == Val::True { None } else { layout.bit_of[ask] }))
        })
        .collect();
    asks.sort_unstable();
    asks
}

/// The program computing the `member` atoms in layout order, each recursive
/// group as a fixpoint, each atom's bodies factored by [`lower_bodies`].
/// With `implied` (each atom's implied state literals,
/// [`implied_state_literals`], and which of them a block's second guard
/// is, [`split_by_second_guard`]), atoms that require a common guard
/// ([`choose_guards`]) are gathered into blocks that run only when the guard is set: an atom joins
/// the open block of its guard, and a block is closed (emitted) just before
/// the first atom that reads one of its atoms, so dependencies stay first.
/// A step of `check` per group (an atom lowered when its block closes took
/// its step when it joined the block), then the sealing's
/// ([`Code::seal_within`]).
fn build_program(
    b: &Builder<'_>,
    layout: &Layout,
    cyclic: &[bool],
    member: impl Fn(usize) -> bool,
    implied: Option<(&[Vec<Lit>], Sharing)>,
    check: &mut PeriodicCheck,
) -> Result<Code, OutOfLimits> {
    let bit_of = &layout.bit_of;
    let bit = |l: Lit| bit_of[atom_of(l)].expect("every literal of a live atom has a bit");
    let out_bit = |i: usize| bit_of[i].expect("materialised atoms have bits");
    let mut code = Code::default();
    let groups = layout.node_order.filtered(member);
    let guards = match implied {
        Some(_) => choose_guards(b, &groups, cyclic, check)?,
        None => vec![NO_GUARD; b.atoms.len()],
    };
    // The open blocks, by guard, and the block each open atom is in
    // ([`NO_GUARD`]: none), with the number of atoms in open blocks.
    let mut open: FastMap<Lit, Vec<usize>> = FastMap::default();
    let mut open_block_of: Vec<Lit> = vec![NO_GUARD; b.atoms.len()];
    let mut open_atoms = 0usize;
    // A block's atoms do not read each other (a block is closed before an
    // atom that reads it), so they may run in any order: by second guard.
    let close = |guard: Lit, members: Vec<usize>, code: &mut Code| {
        if members.len() < MIN_BLOCK {
            for i in members {
                let node = code.push_node(out_bit(i), &lower_bodies(&b.defs, i, &bit));
                code.steps.push(Step::Node(node));
            }
            return;
        }
        let (implied, sharing) = implied.unwrap_or((&[], Sharing::Most));
        for (second, part) in split_by_second_guard(&b.defs, implied, sharing, guard, members) {
            let first = code.nodes.len() as u32;
            for &i in &part {
                code.push_node(out_bit(i), &lower_bodies(&b.defs, i, &bit));
            }
            let test = |l: Lit| (bit(l) / 64, 1u64 << (bit(l) % 64));
            let (w1, m1) = test(guard);
            let guard = match second.map(test) {
                Some((w2, m2)) if w2 == w1 => [(w1, m1 | m2), (w1, 0)],
                Some(other) => [(w1, m1), other],
                None => [(w1, m1), (w1, 0)],
            };
            code.steps.push(Step::Guarded { guard, first, end: code.nodes.len() as u32 });
        }
    };
    for members in groups.iter() {
        check.step()?;
        // Close the blocks these atoms read from.
        if open_atoms > 0 {
            for &i in members {
                for l in b.defs.literals(i) {
                    let guard = open_block_of[atom_of(l)];
                    if guard != NO_GUARD {
                        let block = open.remove(&guard).unwrap_or_default();
                        block.iter().for_each(|&m| open_block_of[m] = NO_GUARD);
                        open_atoms -= block.len();
                        close(guard, block, &mut code);
                    }
                }
            }
        }
        if let &[i] = members
            && guards[i] != NO_GUARD
        {
            open.entry(guards[i]).or_default().push(i);
            open_block_of[i] = guards[i];
            open_atoms += 1;
            continue;
        }
        let recursive = members.iter().any(|&i| cyclic[i]);
        let first = code.nodes.len() as u32;
        for &i in members {
            let node = code.push_node(out_bit(i), &lower_bodies(&b.defs, i, &bit));
            if !recursive {
                code.steps.push(Step::Node(node));
            }
        }
        if recursive {
            code.steps.push(Step::Fixpoint { first, end: code.nodes.len() as u32 });
        }
    }
    // The blocks still open, in a fixed order (that of their first atoms).
    let mut rest: Vec<(Lit, Vec<usize>)> = open.into_iter().collect();
    rest.sort_unstable_by_key(|(_, members)| members[0]);
    for (guard, members) in rest {
        close(guard, members, &mut code);
    }
    check.check()?;
    code.seal_within(check)?;
    Ok(code)
}

/// The positive literals every body of atom `i` requires. Bodies are
/// sorted: a literal of the first body that every other body contains.
fn common_literals(defs: &Defs, i: usize) -> impl Iterator<Item = Lit> + '_ {
    let mut bodies = defs.bodies(i);
    let first = bodies.next().unwrap_or(&[]);
    first.iter().copied().filter(move |&l| positive(l) && bodies.clone().all(|body| body.binary_search(&l).is_ok()))
}

/// The `members` of a block guarded by `guard` in parts by a second guard:
/// for each, of the literals all its bodies require besides `guard`, the one
/// the most members require, kept where at least [`MIN_BLOCK`] members share
/// it (a piece on a square, under the mover's `control`); for the members
/// left without one, among the state literals their bodies imply (`implied`,
/// [`implied_state_literals`]: the moving piece on its square, required
/// through a derived atom) the one the most members require, or the fewest
/// (`sharing`), of those at least [`MIN_BLOCK`] members require; the others
/// in a part without one. Parts in order of their first member.
///
/// The legal moves' program takes the fewest shared: implied literals
/// gather what a move requires along its way, chess's `(legal2 black (move
/// bb a 1 f 6))` the bishop on a1 and b2 to e5 blank. The most shared of
/// those is a square many moves cross, blank in most states (its block, the
/// moves of every piece that cross it, ran in most states and, as an indexed
/// run, read some twenty words of their `legal2` bits for a hit or two); the
/// fewest shared is the piece on its square, whose block runs only where it
/// stands (chess's legal-moves program takes a third less time). The asks'
/// program keeps the most shared: it was a few percent slower with the
/// fewest.
fn split_by_second_guard(
    defs: &Defs,
    implied: &[Vec<Lit>],
    sharing: Sharing,
    guard: Lit,
    members: Vec<usize>,
) -> Vec<(Option<Lit>, Vec<usize>)> {
    let direct: Vec<Vec<Lit>> =
        members.iter().map(|&i| common_literals(defs, i).filter(|&l| l != guard).collect()).collect();
    let mut second = shared(&direct, Sharing::Most);
    let left: Vec<usize> = (0..members.len()).filter(|&k| second[k].is_none()).collect();
    let through: Vec<Vec<Lit>> = left
        .iter()
        .map(|&k| implied.get(members[k]).into_iter().flatten().copied().filter(|&l| l != guard).collect())
        .collect();
    for (k, l) in left.into_iter().zip(shared(&through, sharing)) {
        second[k] = l;
    }
    let mut parts: Vec<(Option<Lit>, Vec<usize>)> = Vec::new();
    let mut part_of: FastMap<Option<Lit>, usize> = FastMap::default();
    for (i, second) in members.into_iter().zip(second) {
        let k = *part_of.entry(second).or_insert_with(|| {
            parts.push((second, Vec::new()));
            parts.len() - 1
        });
        parts[k].1.push(i);
    }
    parts
}

/// Which literal of a list [`shared`] takes: the one the most lists share,
/// or the fewest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sharing {
    /// The literal the most lists share: the largest blocks.
    Most,
    /// The literal the fewest lists share: the blocks that run the least.
    Fewest,
}

/// For each list of `candidates`, the one shared by the most lists (or the
/// fewest, by `sharing`) of those at least [`MIN_BLOCK`] lists share.
fn shared(candidates: &[Vec<Lit>], sharing: Sharing) -> Vec<Option<Lit>> {
    let mut frequency: FastMap<Lit, usize> = FastMap::default();
    for l in candidates.iter().flatten() {
        *frequency.entry(*l).or_default() += 1;
    }
    candidates
        .iter()
        .map(|list| {
            let kept = list.iter().copied().filter(|l| frequency[l] >= MIN_BLOCK);
            match sharing {
                Sharing::Most => kept.max_by_key(|&l| (frequency[&l], std::cmp::Reverse(l))),
                Sharing::Fewest => kept.min_by_key(|&l| (frequency[&l], l)),
            }
        })
        .collect()
}

/// Fewest atoms a guard must be common to…
const MIN_GUARDED: usize = 8;
/// … and fewest in a block for it to run as one.
const MIN_BLOCK: usize = 4;

/// Guards for the atoms of `groups` that have a group of their own and are
/// not recursive: for each, of the positive literals all its bodies require,
/// the one that the most such atoms require, kept where at least
/// [`MIN_GUARDED`] atoms share it. In a turn-taking game most legal moves
/// require `(true (control r))`: the moves of the role not in control are
/// then not evaluated. A step of `check` per candidate.
fn choose_guards(
    b: &Builder<'_>,
    groups: &Components,
    cyclic: &[bool],
    check: &mut PeriodicCheck,
) -> Result<Vec<Lit>, OutOfLimits> {
    let candidates: Vec<usize> = groups
        .iter()
        .filter_map(|g| match g[..] {
            [i] if !cyclic[i] => Some(i),
            _ => None,
        })
        .collect();
    let common = |i: usize| common_literals(&b.defs, i);
    let mut frequency: FastMap<Lit, usize> = FastMap::default();
    for &i in &candidates {
        check.step()?;
        for l in common(i) {
            *frequency.entry(l).or_default() += 1;
        }
    }
    let mut chosen = vec![NO_GUARD; b.atoms.len()];
    let mut size: FastMap<Lit, usize> = FastMap::default();
    for &i in &candidates {
        if let Some(l) = common(i).max_by_key(|l| (frequency[l], std::cmp::Reverse(*l))) {
            chosen[i] = l;
            *size.entry(l).or_default() += 1;
        }
    }
    for &i in &candidates {
        if chosen[i] != NO_GUARD && size[&chosen[i]] < MIN_GUARDED {
            chosen[i] = NO_GUARD;
        }
    }
    Ok(chosen)
}

/// No guard, in the tables of guards by atom (no literal is this large).
const NO_GUARD: Lit = Lit::MAX;

/// The initial state as words.
fn initial_words(b: &Builder<'_>, roots: &Roots, state_words: u32) -> Vec<u64> {
    let mut init = vec![0u64; state_words as usize];
    for (x, &is_init) in b.init.iter().enumerate() {
        if is_init && let Some(bit) = roots.state_bit[x] {
            init[(bit / 64) as usize] |= 1 << (bit % 64);
        }
    }
    init
}

/// For each role, its moves with their legal and `does` bits.
fn move_infos(b: &Builder<'_>, roots: &Roots, layout: &Layout) -> Vec<Vec<MoveInfo>> {
    b.g.roles
        .iter()
        .zip(&roots.legal)
        .map(|(&role, legal)| {
            legal
                .iter()
                .map(|&(mv, i)| MoveInfo {
                    term: mv,
                    legal_bit: layout.bit(i),
                    does_bit: b.find(kw::DOES, &[role, mv]).and_then(|d| layout.bit_of[d]),
                })
                .collect()
        })
        .collect()
}

/// Terms for the disjunction of atom `i`'s bodies. Bodies that are equal
/// but for one positive literal are grouped into one term per word: the
/// shared literals and "any of these bits".
fn lower_bodies(defs: &Defs, i: usize, bit: &dyn Fn(Lit) -> u32) -> Vec<TermBuilder> {
    if defs.has_empty_body(i) {
        return vec![TermBuilder::default()];
    }
    if defs.body_count(i) == 1 {
        // Nothing to factor (most atoms of a large network).
        let mut t = TermBuilder::default();
        for &l in defs.body(i, 0) {
            t.literal(bit(l), positive(l));
        }
        return vec![t];
    }
    let bodies: Vec<&[Lit]> = defs.bodies(i).collect();
    lower_disjunction(&bodies, bit)
}

/// [`lower_bodies`] for a disjunction of several bodies, none empty.
fn lower_disjunction(bodies: &[&[Lit]], bit: &dyn Fn(Lit) -> u32) -> Vec<TermBuilder> {
    // Each (body, positive literal) pair, keyed by the body without that
    // literal: the pairs sorted by key, so that equal keys are adjacent and
    // numbered, and each key counted (no key is built).
    let without = |&(body, k): &(u32, u32)| {
        let body = bodies[body as usize];
        body[..k as usize].iter().chain(&body[k as usize + 1..])
    };
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for (n, body) in bodies.iter().enumerate() {
        for (k, &l) in body.iter().enumerate() {
            if positive(l) {
                pairs.push((n as u32, k as u32));
            }
        }
    }
    let mut sorted: Vec<u32> = (0..pairs.len() as u32).collect();
    sorted.sort_unstable_by(|&a, &b| without(&pairs[a as usize]).cmp(without(&pairs[b as usize])));
    // Each pair's key number, and each key's count.
    let mut key_of = vec![0u32; pairs.len()];
    let mut counts: Vec<u32> = Vec::new();
    for (at, &p) in sorted.iter().enumerate() {
        if at == 0 || without(&pairs[sorted[at - 1] as usize]).ne(without(&pairs[p as usize])) {
            counts.push(0);
        }
        key_of[p as usize] = counts.len() as u32 - 1;
        *counts.last_mut().expect("a key was numbered") += 1;
    }
    // The groups by key, in order of their first body: the pair that made
    // the key, and the alternatives.
    let mut groups: Vec<((u32, u32), Vec<Lit>)> = Vec::new();
    let mut group_of = vec![u32::MAX; counts.len()];
    let mut terms = Vec::new();
    let mut next_pair = 0usize;
    for (n, body) in bodies.iter().enumerate() {
        // This body's pairs, and of them the one whose key is the most
        // common (the last of equals).
        let first = next_pair;
        while next_pair < pairs.len() && pairs[next_pair].0 == n as u32 {
            next_pair += 1;
        }
        let best = (first..next_pair).max_by_key(|&p| counts[key_of[p] as usize]);
        match best {
            Some(p) if counts[key_of[p] as usize] >= 2 => {
                let key = key_of[p] as usize;
                if group_of[key] == u32::MAX {
                    group_of[key] = groups.len() as u32;
                    groups.push((pairs[p], Vec::new()));
                }
                groups[group_of[key] as usize].1.push(body[pairs[p].1 as usize]);
            }
            _ => {
                let mut t = TermBuilder::default();
                for &l in body.iter() {
                    t.literal(bit(l), positive(l));
                }
                terms.push(t);
            }
        }
    }
    for (pair, alternatives) in groups {
        let key: Vec<Lit> = without(&pair).copied().collect();
        let mut by_word: Vec<(u32, u64)> = Vec::new();
        for &l in &alternatives {
            let b = bit(l);
            match by_word.iter_mut().find(|(w, _)| *w == b / 64) {
                Some((_, mask)) => *mask |= 1 << (b % 64),
                None => by_word.push((b / 64, 1 << (b % 64))),
            }
        }
        for (word, mask) in by_word {
            let mut t = TermBuilder::default();
            for &l in &key {
                t.literal(bit(l), positive(l));
            }
            // A word may already carry a test from the shared literals; the
            // alternatives' bits then join it as its "any" mask — unless one
            // of them is also required, in which case that term is the
            // shared literals alone.
            let merged = t.clauses().iter().find(|c| c.word == word).copied();
            match merged {
                Some(c) if c.pos & mask != 0 => {}
                _ => {
                    t.any(word, mask);
                }
            }
            terms.push(t);
        }
    }
    terms
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A check of no limits, for the stages run alone.
    fn unlimited() -> PeriodicCheck {
        PeriodicCheck::new(Limits::none())
    }

    #[test]
    fn negation_of_dnf() {
        // not ((a and b) or c) = (not a and not c) or (not b and not c)
        let (a, bb, c) = (lit(1, true), lit(2, true), lit(3, true));
        let neg = negate(&[vec![a, bb], vec![c]], 10).unwrap();
        assert_eq!(neg, vec![vec![a ^ 1, c ^ 1], vec![bb ^ 1, c ^ 1]]);
        assert!(negate(&[vec![a, bb], vec![a, c]], 3).is_none());
    }

    #[test]
    fn redundant_bodies_are_dropped() {
        let (a, bb) = (lit(1, true), lit(2, true));
        let mut defs = Defs::from_vecs(&[vec![vec![a, bb], vec![a], vec![bb, bb, a]], vec![vec![a, a ^ 1]]]);
        defs.normalize(0, MAX_SUBSUMPTION);
        defs.normalize(1, MAX_SUBSUMPTION);
        assert_eq!(defs.to_vecs(0), vec![vec![a]]);
        assert_eq!(defs.to_vecs(1), Vec::<Vec<Lit>>::new());
    }

    /// Components come out dependencies first, a cycle as one component,
    /// and dependencies on atoms outside the nodes are ignored.
    #[test]
    fn components_of_definitions() {
        // 0 <- 1 <- {2, 3} (a cycle) <- 4; 5 reads 0 but is left out.
        let p = |a: usize| vec![lit(a, true)];
        let defs =
            vec![vec![], vec![p(0)], vec![p(1), p(3)], vec![p(2)], vec![vec![lit(3, false), lit(1, true)]], vec![p(0)]];
        let c = components(&Defs::from_vecs(&defs), &[4, 3, 2, 1, 0], &mut unlimited()).unwrap();
        let mut got: Vec<Vec<usize>> = c.iter().map(<[usize]>::to_vec).collect();
        got.iter_mut().for_each(|g| g.sort_unstable());
        assert_eq!(got, vec![vec![0], vec![1], vec![2, 3], vec![4]]);
    }

    /// Duplicated definitions and single-literal ones are replaced, users
    /// rewritten through chains of replacements; recursive atoms and those
    /// not replaceable stay.
    #[test]
    fn identical_definitions_are_shared() {
        let (a, bb) = (lit(0, true), lit(1, true));
        let defs = vec![
            vec![],                                           // 0: input
            vec![],                                           // 1: input
            vec![vec![a, bb]],                                // 2
            vec![vec![a, bb]],                                // 3: as 2
            vec![vec![lit(3, true)]],                         // 4: 3, so 2
            vec![vec![a, lit(4, false)]],                     // 5: a and not 2
            vec![vec![a, lit(2, false)]],                     // 6: as 5 once rewritten
            vec![vec![lit(5, true)], vec![lit(6, true), bb]], // 7: not replaceable
        ];
        let order = Components { atoms: (0..8).collect(), ends: (1..=8).collect() };
        let rewritable = [false, false, true, true, true, true, true, true];
        let replaceable = [false, false, true, true, true, true, true, false];
        let mut defs = Defs::from_vecs(&defs);
        assert_eq!(share_identical(&mut defs, &order, &rewritable, &replaceable, &mut unlimited()), Ok(3));
        assert_eq!(defs.to_vecs(5), vec![vec![a, lit(2, false)]]);
        // 6 is 5 now; 7's second body is subsumed by its first.
        assert_eq!(defs.to_vecs(7), vec![vec![lit(5, true)]]);
    }

    /// Moves are listed in the order of their terms: numbers by value, other
    /// names ignoring case, constants before compound terms, shorter
    /// argument lists first.
    #[test]
    fn moves_are_in_term_order() {
        let game = crate::Game::parse(
            "(role p) (init on)
            (legal p (m 10 a)) (legal p (m 2 B)) (legal p (m 2 a)) (legal p (m (f) x)) (legal p (m 2))
            (legal p noop) (legal p (noop)) (legal p Zed) (legal p 9) (legal p (m 2 a b))
            (<= (next on) (does p noop)) (<= terminal (not (true on))) (goal p 0)",
        )
        .unwrap();
        let machine = crate::Machine::compile(&game).unwrap();
        let moves = machine.moves(0);
        assert_eq!(moves.len(), 10);
        let mut sorted = moves.to_vec();
        sorted.sort();
        assert_eq!(moves, sorted.as_slice());
        assert_eq!(moves[0].to_string(), "9");
    }

    /// An atom implies the state literals all its bodies require, directly
    /// or through derived atoms; within a recursive group, only directly.
    #[test]
    fn state_literals_are_implied_through_derived_atoms() {
        // 0, 1, 2: state bits; 3 = (0 and 1) or (0 and 2): implies 0;
        // 4 = 3 and 1: implies 0 and 1; 5 = 4 or 2: nothing; {6, 7} a cycle:
        // 6 = 7 and 1, 7 = 6 and 0 or 1.
        let p = |a: usize| lit(a, true);
        let defs = vec![
            vec![],
            vec![],
            vec![],
            vec![vec![p(0), p(1)], vec![p(0), p(2)]],
            vec![vec![p(3), p(1)]],
            vec![vec![p(4)], vec![p(2)]],
            vec![vec![p(7), p(1)]],
            vec![vec![p(6), p(0)], vec![p(1)]],
        ];
        let defs = Defs::from_vecs(&defs);
        let order = Components { atoms: vec![3, 4, 5, 6, 7], ends: vec![1, 2, 3, 5] };
        let cyclic = [false, false, false, false, false, false, true, true];
        let implied = implied_state_literals(&defs, &order, &cyclic, |i| i < 3, &mut unlimited()).unwrap();
        assert_eq!(implied[3], vec![p(0)]);
        assert_eq!(implied[4], vec![p(0), p(1)]);
        assert!(implied[5].is_empty());
        assert_eq!(implied[6], vec![p(1)]);
        assert!(implied[7].is_empty());
    }

    /// Members without a second guard among the literals their bodies name
    /// are split by the state literals they imply, the fewest shared (of
    /// those at least [`MIN_BLOCK`] share) or the most.
    #[test]
    fn blocks_split_by_implied_literals() {
        // Guard 0 (control); atoms 10..18 read 0 and a derived atom of their
        // own; 10..13 imply bit 1 (a piece on one square), 14..17 bit 2, 18
        // bit 3 alone, and all of them bit 5 (a square their moves cross);
        // 19..22 name bit 4 themselves.
        let p = |a: usize| lit(a, true);
        let mut defs: Vec<Vec<Vec<Lit>>> = vec![vec![]; 23];
        for (i, def) in defs.iter_mut().enumerate().skip(10) {
            *def = if i < 19 { vec![vec![p(0), p(i + 20)]] } else { vec![vec![p(0), p(4), p(i + 20)]] };
        }
        defs.resize(43, vec![]);
        let defs = Defs::from_vecs(&defs);
        let mut implied = vec![Vec::new(); 43];
        let square = |i: usize| p(1 + usize::from(i >= 14) + usize::from(i >= 18));
        for (i, list) in implied.iter_mut().enumerate().take(19).skip(10) {
            *list = vec![square(i), p(5)];
        }
        let parts = split_by_second_guard(&defs, &implied, Sharing::Fewest, p(0), (10..23).collect());
        assert_eq!(
            parts,
            vec![
                (Some(p(1)), vec![10, 11, 12, 13]),
                (Some(p(2)), vec![14, 15, 16, 17]),
                (Some(p(5)), vec![18]),
                (Some(p(4)), vec![19, 20, 21, 22]),
            ]
        );
        // The most shared: the square all nine cross.
        let parts = split_by_second_guard(&defs, &implied, Sharing::Most, p(0), (10..23).collect());
        assert_eq!(parts, vec![(Some(p(5)), (10..19).collect()), (Some(p(4)), vec![19, 20, 21, 22])]);
    }

    #[test]
    fn factoring_groups_alternatives() {
        // (k and x1) or (k and x2) or (k and x3): one term, k and any of x1..x3.
        let k = lit(0, true);
        let bodies: Vec<Vec<Lit>> = (1..4).map(|x| vec![k, lit(x, true)]).collect();
        let bodies: Vec<&[Lit]> = bodies.iter().map(Vec::as_slice).collect();
        let terms = lower_disjunction(&bodies, &|l| atom_of(l) as u32);
        assert_eq!(terms.len(), 1);
        let c = terms[0].clauses()[0];
        assert_eq!((c.pos, c.any), (1, 0b1110));
    }
}
