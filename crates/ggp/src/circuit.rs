//! From ground rules to [`Code`]: a propositional network, simplified and
//! flattened. [`compile`] runs one function per stage:
//!
//! 0. [`collect_atoms`]: the atoms of the ground rules, their definitions (as
//!    disjunctions of bodies) and the base propositions.
//! 1. [`fold_constants`]: constants are propagated: an atom no rule can derive
//!    is false, one with an empty body true; a base proposition that is not
//!    initially true and never becomes true is false, and so is a move that is
//!    never legal.
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
//! 5. The rest is laid out as bits in one array of words ([`lay_out`]) and
//!    split into three programs ([`split_programs`], [`build_program`]):
//!    legal moves and terminality (run in every state), goals (run on demand)
//!    and the next state (run for a joint move).
//!
//! [`reachable`] is the one dependency walk of stages 2 and 5, and
//! [`components`] the one ordering of stages 1 and 2.

use crate::hash::FastMap;

use crate::code::{Code, Step, TermBuilder};
use crate::datalog::strongly_connected;
use crate::ground::Grounding;
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

/// A literal: atom index times two, plus one when negated.
type Lit = u32;

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
    /// The input region: its first word and its number of words (none for a
    /// fully grounded game).
    pub(crate) input_words: (u32, u32),
    pub(crate) state_words: u32,
    pub(crate) does_words: u32,
    /// The first word of the next-state region (as long as the state region).
    pub(crate) next_word: u32,
    pub(crate) total_words: u32,
    pub(crate) legal: Code,
    pub(crate) goal: Code,
    pub(crate) next: Code,
}

struct Builder<'g> {
    g: &'g Grounding,
    atoms: Vec<TermId>,
    index: FastMap<TermId, usize>,
    kinds: Vec<Kind>,
    defs: Vec<Vec<Vec<Lit>>>,
    vals: Vec<Val>,
    base: Vec<TermId>,
    base_index: FastMap<TermId, usize>,
    init: Vec<bool>,
}

impl<'g> Builder<'g> {
    fn atom(&mut self, t: TermId) -> usize {
        if let Some(&i) = self.index.get(&t) {
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
        } else if self.g.externals.contains(&pred) {
            Kind::Input
        } else {
            Kind::Derived
        };
        let i = self.atoms.len();
        self.atoms.push(t);
        self.index.insert(t, i);
        self.kinds.push(kind);
        self.defs.push(Vec::new());
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
        self.index.get(&t).copied()
    }
}

/// Normalises a body: sorted, without repeats; `None` if it holds a literal
/// and its negation.
fn normal_body(mut body: Vec<Lit>) -> Option<Vec<Lit>> {
    body.sort_unstable();
    body.dedup();
    if body.windows(2).any(|w| atom_of(w[0]) == atom_of(w[1])) {
        return None;
    }
    Some(body)
}

/// Sorted, without repeats, without bodies that contain another body.
fn normal_bodies(bodies: Vec<Vec<Lit>>) -> Vec<Vec<Lit>> {
    let mut bodies: Vec<Vec<Lit>> = bodies.into_iter().filter_map(normal_body).collect();
    bodies.sort_unstable_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    bodies.dedup();
    if bodies.len() <= MAX_SUBSUMPTION {
        let mut kept: Vec<Vec<Lit>> = Vec::with_capacity(bodies.len());
        for b in bodies {
            if !kept.iter().any(|k| k.iter().all(|l| b.binary_search(l).is_ok())) {
                kept.push(b);
            }
        }
        return kept;
    }
    bodies
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
    node_order: Vec<Vec<usize>>,
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
/// documentation).
pub(crate) fn compile(g: &Grounding) -> Circuit {
    let mut b = collect_atoms(g);
    let next_of: Vec<Option<usize>> = (0..b.base.len()).map(|x| b.find(kw::NEXT, &[b.base[x]])).collect();
    let all: Vec<usize> = (0..b.atoms.len()).collect();
    let order: Vec<usize> = components(&b.defs, &all).into_iter().flatten().collect();
    fold_constants(&mut b, &order, &next_of);
    let roots = find_roots(&b, &next_of);
    let root_atoms = || all.iter().copied().filter(|&i| roots.is_root[i]);
    let live = reachable(&b, root_atoms(), |_| true);
    let (groups, cyclic) = recursive_groups(&b, &live);
    inline_definitions(&mut b, &groups, &roots.is_root, &cyclic);
    let materialised = reachable(&b, root_atoms(), |_| true);
    let layout = lay_out(&b, &roots, &groups, &materialised);
    let [legal, goal, next] = split_programs(&b, &roots, &layout, &materialised, &cyclic);
    Circuit {
        init: initial_words(&b, &roots, layout.state_words),
        moves: move_infos(&b, &roots, &layout),
        goals: roots.goal.iter().map(|list| list.iter().map(|&(i, v)| (layout.bit(i), v)).collect()).collect(),
        base: roots.base,
        legal_first: layout.legal_first,
        terminal_bit: layout.terminal_bit,
        inputs: layout.inputs,
        input_words: layout.input_words,
        state_words: layout.state_words,
        does_words: layout.does_words,
        next_word: layout.next_word,
        total_words: layout.total_words,
        legal,
        goal,
        next,
    }
}

/// Stage 0: the atoms of the ground rules and their definitions (normalised),
/// and the base propositions, with those true initially.
fn collect_atoms(g: &Grounding) -> Builder<'_> {
    let mut b = Builder {
        g,
        atoms: Vec::new(),
        index: FastMap::default(),
        kinds: Vec::new(),
        defs: Vec::new(),
        vals: Vec::new(),
        base: Vec::new(),
        base_index: FastMap::default(),
        init: Vec::new(),
    };
    for &x in &g.init {
        let i = b.base_of(x);
        b.init[i] = true;
    }
    for rule in &g.rules {
        let head = b.atom(rule.head);
        let body: Vec<Lit> = rule.body.iter().map(|&(t, p)| lit(b.atom(t), p)).collect();
        b.defs[head].push(body);
    }
    for i in 0..b.defs.len() {
        let defs = std::mem::take(&mut b.defs[i]);
        b.defs[i] = normal_bodies(defs);
    }
    // Base propositions mentioned only under `next` also need an index.
    for i in 0..b.atoms.len() {
        let t = b.atoms[i];
        if g.store.pred(t) == Pred::new(kw::NEXT, 1) {
            let x = g.store.args(t)[0];
            b.base_of(x);
        }
    }
    b
}

/// The strongly connected components of the dependency graph among `nodes`
/// (atom indices), dependencies first; a dependency on an atom outside
/// `nodes` is ignored.
fn components(defs: &[Vec<Vec<Lit>>], nodes: &[usize]) -> Vec<Vec<usize>> {
    let mut position = vec![usize::MAX; defs.len()];
    for (k, &i) in nodes.iter().enumerate() {
        position[i] = k;
    }
    let mut edges = vec![Vec::new(); nodes.len()];
    for (k, &i) in nodes.iter().enumerate() {
        for body in &defs[i] {
            for &l in body {
                let m = position[atom_of(l)];
                if m != usize::MAX {
                    edges[k].push(m);
                }
            }
        }
    }
    strongly_connected(&edges).into_iter().map(|c| c.into_iter().map(|k| nodes[k]).collect()).collect()
}

/// The derived atoms reachable from `roots` through the definitions, never
/// entering an atom outside `within`.
fn reachable(b: &Builder<'_>, roots: impl IntoIterator<Item = usize>, within: impl Fn(usize) -> bool) -> Vec<bool> {
    let mut seen = vec![false; b.atoms.len()];
    let mut stack: Vec<usize> = roots.into_iter().collect();
    while let Some(i) = stack.pop() {
        if seen[i] || !within(i) {
            continue;
        }
        seen[i] = true;
        for body in &b.defs[i] {
            for &l in body {
                let a = atom_of(l);
                if b.kinds[a] == Kind::Derived && !seen[a] {
                    stack.push(a);
                }
            }
        }
    }
    seen
}

/// Stage 1: propagates constants to a fixpoint, `order` being the derived
/// atoms' dependency order.
fn fold_constants(b: &mut Builder<'_>, order: &[usize], next_of: &[Option<usize>]) {
    loop {
        let inputs_changed = fold_inputs(b, next_of);
        let derived_changed = fold_derived(b, order);
        if !inputs_changed && !derived_changed {
            break;
        }
    }
}

/// Makes false each base proposition that never holds and each move that is
/// never legal; whether anything changed.
fn fold_inputs(b: &mut Builder<'_>, next_of: &[Option<usize>]) -> bool {
    let mut changed = false;
    for i in 0..b.atoms.len() {
        if b.vals[i] != Val::Unknown {
            continue;
        }
        let never = match b.kinds[i] {
            Kind::State(x) => !b.init[x] && next_of[x].is_none_or(|a| b.vals[a] == Val::False),
            Kind::Does(role, mv) => {
                let legal = b.find(kw::LEGAL, &[role, mv]);
                !b.g.roles.contains(&role) || legal.is_none_or(|a| b.vals[a] == Val::False)
            }
            Kind::Derived | Kind::Input => false,
        };
        if never {
            b.vals[i] = Val::False;
            changed = true;
        }
    }
    changed
}

/// Simplifies the definitions of derived atoms by the known values, and
/// decides those that become constant; whether anything changed.
fn fold_derived(b: &mut Builder<'_>, order: &[usize]) -> bool {
    let mut changed = false;
    for &i in order {
        if b.kinds[i] != Kind::Derived || b.vals[i] != Val::Unknown {
            continue;
        }
        let def = std::mem::take(&mut b.defs[i]);
        let before: usize = def.iter().map(Vec::len).sum::<usize>() + def.len();
        let def = simplify(def, &b.vals);
        let after: usize = def.iter().map(Vec::len).sum::<usize>() + def.len();
        changed |= after != before;
        if def.iter().any(Vec::is_empty) {
            b.vals[i] = Val::True;
            b.defs[i] = vec![Vec::new()];
            changed = true;
        } else if def.is_empty() {
            b.vals[i] = Val::False;
            changed = true;
        } else {
            b.defs[i] = def;
        }
    }
    changed
}

/// `def` without the bodies that a false literal falsifies, and without the
/// true literals in the others.
fn simplify(mut def: Vec<Vec<Lit>>, vals: &[Val]) -> Vec<Vec<Lit>> {
    def.retain_mut(|body| {
        let mut falsified = false;
        body.retain(|&l| match (vals[atom_of(l)], positive(l)) {
            (Val::Unknown, _) => true,
            (Val::True, true) | (Val::False, false) => false,
            (Val::True, false) | (Val::False, true) => {
                falsified = true;
                true
            }
        });
        !falsified
    });
    def
}

/// Stage 2, the roots: the state bits of the base propositions that can
/// hold, and the atoms of the legal moves, goals, terminality and next state.
fn find_roots(b: &Builder<'_>, next_of: &[Option<usize>]) -> Roots {
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
    };
    for i in 0..b.atoms.len() {
        if b.vals[i] != Val::False && b.kinds[i] == Kind::Derived {
            roots.is_root[i] = add_root(b, &mut roots, i);
        }
    }
    // Moves in a stable order (their printed form, ignoring case).
    for list in &mut roots.legal {
        list.sort_by_cached_key(|&(mv, _)| g.store.to_term(mv, &g.symbols));
    }
    let terminal = b.index.get(&g.store.find(&Node::Sym(kw::TERMINAL)).unwrap_or(TermId(u32::MAX))).copied();
    roots.terminal = terminal.filter(|&t| b.vals[t] != Val::False);
    roots
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
    } else if pred == Pred::new(kw::NEXT, 1)
        && let Some(bit) = roots.state_bit[b.base_index[&args[0]]]
    {
        roots.next.push((i, bit));
        return true;
    }
    false
}

/// The recursive groups among the `live` derived atoms, dependencies first,
/// and which atoms belong to a cycle.
fn recursive_groups(b: &Builder<'_>, live: &[bool]) -> (Vec<Vec<usize>>, Vec<bool>) {
    let derived_live: Vec<usize> = (0..b.atoms.len()).filter(|&i| live[i]).collect();
    let groups = components(&b.defs, &derived_live);
    let mut cyclic = vec![false; b.atoms.len()];
    for group in &groups {
        let self_loop =
            group.len() == 1 && b.defs[group[0]].iter().any(|body| body.iter().any(|&l| atom_of(l) == group[0]));
        if group.len() > 1 || self_loop {
            group.iter().for_each(|&i| cyclic[i] = true);
        }
    }
    (groups, cyclic)
}

/// Stage 3: inlines small derived atoms into those that use them,
/// dependencies first. Inlining copies definitions, so in a large network it
/// stops once it has added [`INLINE_GROWTH`] times as many literals as the
/// network had (at least [`MIN_INLINE_BUDGET`]): the rest stays as nodes.
fn inline_definitions(b: &mut Builder<'_>, groups: &[Vec<usize>], is_root: &[bool], cyclic: &[bool]) {
    let size = |def: &[Vec<Lit>]| def.iter().map(|body| body.len() + 1).sum::<usize>();
    let total: usize = b.defs.iter().map(|d| size(d)).sum();
    let mut budget = if total > LARGE_NETWORK { 0 } else { total.saturating_mul(INLINE_GROWTH).max(MIN_INLINE_BUDGET) };
    for group in groups {
        for &h in group {
            if b.vals[h] != Val::Unknown {
                continue;
            }
            if budget == 0 {
                return;
            }
            let def = std::mem::take(&mut b.defs[h]);
            let before = size(&def);
            let mut out: Vec<Vec<Lit>> = Vec::new();
            for body in &def {
                let inlinable = |c: usize| b.kinds[c] == Kind::Derived && !is_root[c] && !cyclic[c] && c != h;
                let expanded = inline_body(&b.defs, body, out.len(), inlinable);
                out.extend(expanded);
            }
            b.defs[h] = normal_bodies(out);
            budget = budget.saturating_sub(size(&b.defs[h]).saturating_sub(before));
        }
    }
}

/// The bodies that `body` becomes when each of its `inlinable` atoms is
/// replaced by its definition (or the negation of it), within the size
/// limits, `produced` bodies of the same definition being already made.
fn inline_body(
    defs: &[Vec<Vec<Lit>>],
    body: &[Lit],
    produced: usize,
    inlinable: impl Fn(usize) -> bool,
) -> Vec<Vec<Lit>> {
    let mut acc: Vec<Vec<Lit>> = vec![Vec::new()];
    for &l in body {
        let c = atom_of(l);
        if inlinable(c) {
            let room = MAX_BODIES.saturating_sub(produced) / acc.len().max(1);
            let alts =
                if positive(l) { (defs[c].len() <= room).then(|| defs[c].clone()) } else { negate(&defs[c], room) };
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

/// Stage 5, the layout: the state, the joint move, the next state, then the
/// legal moves (each role's on consecutive bits) and the other materialised
/// atoms, group by group.
fn lay_out(b: &Builder<'_>, roots: &Roots, groups: &[Vec<usize>], materialised: &[bool]) -> Layout {
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
    let mut node_order: Vec<Vec<usize>> = Vec::new();
    for group in groups {
        let members: Vec<usize> = group.iter().copied().filter(|&i| materialised[i]).collect();
        if members.is_empty() {
            continue;
        }
        for &i in &members {
            if bit_of[i].is_none() {
                bit_of[i] = Some(next_free);
                next_free += 1;
            }
        }
        node_order.push(members);
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

/// Splits the materialised atoms into three programs: legal moves and
/// terminality, goals (less what the first computed), and the next state
/// (likewise).
fn split_programs(
    b: &Builder<'_>,
    roots: &Roots,
    layout: &Layout,
    materialised: &[bool],
    cyclic: &[bool],
) -> [Code; 3] {
    let cone = |atoms: Vec<usize>| reachable(b, atoms, |i| materialised[i]);
    let mut legal_and_terminal: Vec<usize> = roots.legal.iter().flatten().map(|&(_, i)| i).collect();
    legal_and_terminal.extend(roots.terminal);
    let p1 = cone(legal_and_terminal);
    let p2 = cone(roots.goal.iter().flatten().map(|&(i, _)| i).collect());
    let p3 = cone(roots.next.iter().map(|&(i, _)| i).collect());
    [
        build_program(b, layout, cyclic, |i| p1[i]),
        build_program(b, layout, cyclic, |i| p2[i] && !p1[i]),
        build_program(b, layout, cyclic, |i| p3[i] && !p1[i]),
    ]
}

/// The program computing the `member` atoms in layout order, each recursive
/// group as a fixpoint, each atom's bodies factored by [`lower_bodies`].
fn build_program(b: &Builder<'_>, layout: &Layout, cyclic: &[bool], member: impl Fn(usize) -> bool) -> Code {
    let bit_of = &layout.bit_of;
    let mut code = Code::default();
    for group in &layout.node_order {
        let members: Vec<usize> = group.iter().copied().filter(|&i| member(i)).collect();
        if members.is_empty() {
            continue;
        }
        let recursive = members.iter().any(|&i| cyclic[i]);
        let first = code.nodes.len() as u32;
        for &i in &members {
            let terms =
                lower_bodies(&b.defs[i], &|l: Lit| bit_of[atom_of(l)].expect("every literal of a live atom has a bit"));
            let node = code.push_node(bit_of[i].expect("materialised atoms have bits"), &terms);
            if !recursive {
                code.steps.push(Step::Node(node));
            }
        }
        if recursive {
            code.steps.push(Step::Fixpoint { first, end: code.nodes.len() as u32 });
        }
    }
    code.seal();
    code
}

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

/// Terms for a disjunction of bodies. Bodies that are equal but for one
/// positive literal are grouped into one term per word: the shared literals
/// and "any of these bits".
fn lower_bodies(bodies: &[Vec<Lit>], bit: &dyn Fn(Lit) -> u32) -> Vec<TermBuilder> {
    if bodies.iter().any(Vec::is_empty) {
        return vec![TermBuilder::default()];
    }
    let mut counts: FastMap<Vec<Lit>, usize> = FastMap::default();
    for body in bodies {
        for (k, &l) in body.iter().enumerate() {
            if positive(l) {
                let mut key = body.clone();
                key.remove(k);
                *counts.entry(key).or_default() += 1;
            }
        }
    }
    let mut groups: Vec<(Vec<Lit>, Vec<Lit>)> = Vec::new();
    let mut group_of: FastMap<Vec<Lit>, usize> = FastMap::default();
    let mut terms = Vec::new();
    for body in bodies {
        let best = body
            .iter()
            .enumerate()
            .filter(|(_, l)| positive(**l))
            .map(|(k, &l)| {
                let mut key = body.clone();
                key.remove(k);
                let c = counts[&key];
                (c, key, l)
            })
            .max_by_key(|(c, _, _)| *c);
        match best {
            Some((c, key, l)) if c >= 2 => {
                let g = *group_of.entry(key.clone()).or_insert_with(|| {
                    groups.push((key, Vec::new()));
                    groups.len() - 1
                });
                groups[g].1.push(l);
            }
            _ => {
                let mut t = TermBuilder::default();
                for &l in body {
                    t.literal(bit(l), positive(l));
                }
                terms.push(t);
            }
        }
    }
    for (key, alternatives) in groups {
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
        assert_eq!(normal_bodies(vec![vec![a, bb], vec![a], vec![bb, bb, a]]), vec![vec![a]]);
        assert_eq!(normal_bodies(vec![vec![a, a ^ 1]]), Vec::<Vec<Lit>>::new());
    }

    #[test]
    fn factoring_groups_alternatives() {
        // (k and x1) or (k and x2) or (k and x3): one term, k and any of x1..x3.
        let k = lit(0, true);
        let bodies: Vec<Vec<Lit>> = (1..4).map(|x| vec![k, lit(x, true)]).collect();
        let terms = lower_bodies(&bodies, &|l| atom_of(l) as u32);
        assert_eq!(terms.len(), 1);
        let c = terms[0].clauses()[0];
        assert_eq!((c.pos, c.any), (1, 0b1110));
    }
}
