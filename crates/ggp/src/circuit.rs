//! From ground rules to [`Code`]: a propositional network, simplified and
//! flattened.
//!
//! 1. Constants are propagated: an atom no rule can derive is false, one with
//!    an empty body true; a base proposition that is not initially true and
//!    never becomes true is false, and so is a move that is never legal.
//! 2. Only what the legal moves, goals, terminality and next state depend on
//!    is kept.
//! 3. Small derived propositions are inlined into the propositions that use
//!    them (each stays a disjunction of conjunctions, within size limits), so
//!    that most of the network becomes a few tests per word.
//! 4. Disjunctions are factored: bodies that differ in one positive literal
//!    become one term testing "any of these bits" (as when a cell stays blank
//!    if any move marks another cell).
//! 5. The rest is laid out as bits in one array of words and split into three
//!    programs: legal moves and terminality (run in every state), goals (run
//!    on demand) and the next state (run for a joint move).

use std::collections::HashMap;

use crate::code::{Code, Step, TermBuilder};
use crate::datalog::strongly_connected;
use crate::ground::Grounding;
use crate::store::{Node, Pred, TermId};
use crate::symbol::kw;

/// Most bodies a proposition may have after inlining into it.
const MAX_BODIES: usize = 64;
/// Most literals in a body after inlining.
const MAX_LITERALS: usize = 64;
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
    index: HashMap<TermId, usize>,
    kinds: Vec<Kind>,
    defs: Vec<Vec<Vec<Lit>>>,
    vals: Vec<Val>,
    base: Vec<TermId>,
    base_index: HashMap<TermId, usize>,
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
        let t = self.g.store.find(&Node::App(name, args.into()))?;
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

pub(crate) fn compile(g: &Grounding) -> Circuit {
    let mut b = Builder {
        g,
        atoms: Vec::new(),
        index: HashMap::new(),
        kinds: Vec::new(),
        defs: Vec::new(),
        vals: Vec::new(),
        base: Vec::new(),
        base_index: HashMap::new(),
        init: Vec::new(),
    };
    for &x in &g.init {
        let i = b.base_of(x);
        b.init[i] = true;
    }
    // Atoms and definitions.
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
    let n = b.atoms.len();

    // The dependency order (dependencies first) of derived atoms.
    let mut edges = vec![Vec::new(); n];
    for (i, def) in b.defs.iter().enumerate() {
        for body in def {
            for &l in body {
                edges[i].push(atom_of(l));
            }
        }
    }
    let order: Vec<usize> = strongly_connected(&edges).into_iter().flatten().collect();

    // 1. Constants.
    let next_of: Vec<Option<usize>> = (0..b.base.len()).map(|x| b.find(kw::NEXT, &[b.base[x]])).collect();
    let legal_of = |b: &Builder<'_>, role: TermId, mv: TermId| b.find(kw::LEGAL, &[role, mv]);
    loop {
        let mut changed = false;
        for i in 0..n {
            if b.vals[i] != Val::Unknown {
                continue;
            }
            let v = match b.kinds[i] {
                Kind::State(x) => {
                    let never = !b.init[x] && next_of[x].is_none_or(|a| b.vals[a] == Val::False);
                    if never { Val::False } else { Val::Unknown }
                }
                Kind::Does(role, mv) => {
                    let legal = legal_of(&b, role, mv);
                    if !g.roles.contains(&role) || legal.is_none_or(|a| b.vals[a] == Val::False) {
                        Val::False
                    } else {
                        Val::Unknown
                    }
                }
                Kind::Derived => Val::Unknown,
            };
            if v != Val::Unknown {
                b.vals[i] = v;
                changed = true;
            }
        }
        for &i in &order {
            if b.kinds[i] != Kind::Derived || b.vals[i] != Val::Unknown {
                continue;
            }
            let vals = &b.vals;
            let def = std::mem::take(&mut b.defs[i]);
            let before: usize = def.iter().map(Vec::len).sum::<usize>() + def.len();
            let def: Vec<Vec<Lit>> = def
                .into_iter()
                .filter_map(|body| {
                    let mut kept = Vec::with_capacity(body.len());
                    for l in body {
                        match (vals[atom_of(l)], positive(l)) {
                            (Val::Unknown, _) => kept.push(l),
                            (Val::True, true) | (Val::False, false) => {}
                            (Val::True, false) | (Val::False, true) => return None,
                        }
                    }
                    Some(kept)
                })
                .collect();
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
        if !changed {
            break;
        }
    }

    // The state bits and the roots.
    let mut state_bit = vec![None; b.base.len()];
    let mut base = Vec::new();
    for x in 0..b.base.len() {
        let possible = b.init[x] || next_of[x].is_some_and(|a| b.vals[a] != Val::False);
        if possible {
            state_bit[x] = Some(base.len() as u32);
            base.push(b.base[x]);
        }
    }
    let mut is_root = vec![false; n];
    let mut legal_roots: Vec<Vec<(TermId, usize)>> = vec![Vec::new(); g.roles.len()];
    let mut goal_roots: Vec<Vec<(usize, u8)>> = vec![Vec::new(); g.roles.len()];
    let mut next_roots: Vec<(usize, u32)> = Vec::new();
    for (i, root) in is_root.iter_mut().enumerate() {
        if b.vals[i] == Val::False || b.kinds[i] != Kind::Derived {
            continue;
        }
        let t = b.atoms[i];
        let pred = g.store.pred(t);
        let args = g.store.args(t);
        if pred == Pred::new(kw::LEGAL, 2) {
            if let Some(r) = g.roles.iter().position(|&x| x == args[0]) {
                legal_roots[r].push((args[1], i));
                *root = true;
            }
        } else if pred == Pred::new(kw::GOAL, 2) {
            let value = match g.store.node(args[1]) {
                Node::Sym(s) => g.symbols.goal_value(*s),
                Node::App(..) => None,
            };
            if let (Some(r), Some(v)) = (g.roles.iter().position(|&x| x == args[0]), value) {
                goal_roots[r].push((i, v));
                *root = true;
            }
        } else if pred == Pred::proposition(kw::TERMINAL) {
            *root = true;
        } else if pred == Pred::new(kw::NEXT, 1) {
            let x = b.base_index[&args[0]];
            if let Some(bit) = state_bit[x] {
                next_roots.push((i, bit));
                *root = true;
            }
        }
    }
    // Moves in a stable order (their printed form, ignoring case).
    for list in &mut legal_roots {
        list.sort_by_cached_key(|&(mv, _)| g.store.to_term(mv, &g.symbols));
    }
    let terminal = b.index.get(&g.store.find(&Node::Sym(kw::TERMINAL)).unwrap_or(TermId(u32::MAX))).copied();
    let terminal = terminal.filter(|&t| b.vals[t] != Val::False);

    // 2. What the roots depend on.
    let mut live = vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&i| is_root[i]).collect();
    while let Some(i) = stack.pop() {
        if live[i] {
            continue;
        }
        live[i] = true;
        for body in &b.defs[i] {
            for &l in body {
                let a = atom_of(l);
                if b.kinds[a] == Kind::Derived && !live[a] {
                    stack.push(a);
                }
            }
        }
    }

    // Recursive groups among live derived atoms.
    let derived_live: Vec<usize> = (0..n).filter(|&i| live[i]).collect();
    let position: HashMap<usize, usize> = derived_live.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let mut dedges = vec![Vec::new(); derived_live.len()];
    for (k, &i) in derived_live.iter().enumerate() {
        for body in &b.defs[i] {
            for &l in body {
                if let Some(&m) = position.get(&atom_of(l)) {
                    dedges[k].push(m);
                }
            }
        }
    }
    let groups: Vec<Vec<usize>> =
        strongly_connected(&dedges).into_iter().map(|c| c.into_iter().map(|k| derived_live[k]).collect()).collect();
    let mut cyclic = vec![false; n];
    for group in &groups {
        let self_loop =
            group.len() == 1 && b.defs[group[0]].iter().any(|body| body.iter().any(|&l| atom_of(l) == group[0]));
        if group.len() > 1 || self_loop {
            group.iter().for_each(|&i| cyclic[i] = true);
        }
    }

    // 3. Inlining, dependencies first.
    for group in &groups {
        for &h in group {
            if b.vals[h] != Val::Unknown {
                continue;
            }
            let def = std::mem::take(&mut b.defs[h]);
            let mut out: Vec<Vec<Lit>> = Vec::new();
            for body in &def {
                let mut acc: Vec<Vec<Lit>> = vec![Vec::new()];
                for &l in body {
                    let c = atom_of(l);
                    let inlinable = b.kinds[c] == Kind::Derived && !is_root[c] && !cyclic[c] && c != h;
                    if inlinable {
                        let room = MAX_BODIES.saturating_sub(out.len()) / acc.len().max(1);
                        let alts = if positive(l) {
                            Some(b.defs[c].clone()).filter(|d| d.len() <= room)
                        } else {
                            negate(&b.defs[c], room)
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
                out.extend(acc);
            }
            b.defs[h] = normal_bodies(out);
        }
    }

    // What is materialised: the roots and whatever they still refer to.
    let mut materialised = vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&i| is_root[i]).collect();
    while let Some(i) = stack.pop() {
        if materialised[i] {
            continue;
        }
        materialised[i] = true;
        for body in &b.defs[i] {
            for &l in body {
                let a = atom_of(l);
                if b.kinds[a] == Kind::Derived && !materialised[a] {
                    stack.push(a);
                }
            }
        }
    }

    // 5. Layout.
    let does_atoms: Vec<usize> =
        (0..n).filter(|&i| matches!(b.kinds[i], Kind::Does(..)) && b.vals[i] == Val::Unknown).collect();
    let words = |bits: usize| (bits.div_ceil(64)).max(1) as u32;
    let state_words = words(base.len());
    let does_words = words(does_atoms.len());
    let next_word = state_words + does_words;
    let derived_first_bit = (next_word + state_words) * 64;
    let mut bit_of: Vec<Option<u32>> = vec![None; n];
    for (i, bit) in bit_of.iter_mut().enumerate() {
        if let Kind::State(x) = b.kinds[i] {
            *bit = state_bit[x];
        }
    }
    for (k, &i) in does_atoms.iter().enumerate() {
        bit_of[i] = Some(state_words * 64 + k as u32);
    }
    for &(i, bit) in &next_roots {
        bit_of[i] = Some(next_word * 64 + bit);
    }
    let mut next_free = derived_first_bit;
    // Each role's legal moves on consecutive bits, in move order, so that
    // listing or drawing the legal moves reads a few words.
    let mut legal_first = Vec::with_capacity(g.roles.len());
    for list in &legal_roots {
        legal_first.push(next_free);
        for &(_, i) in list {
            bit_of[i] = Some(next_free);
            next_free += 1;
        }
    }
    let mut terminal_bit = None;
    let mut node_order: Vec<Vec<usize>> = Vec::new();
    for group in &groups {
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
    if let Some(t) = terminal {
        terminal_bit = bit_of[t];
    }
    // A constant-false bit for a missing terminal (or legal/goal atoms that
    // were folded away): the never-written last bit.
    let false_bit = next_free;
    next_free += 1;
    let total_words = next_free.div_ceil(64);

    // Phases.
    let cone = |roots: &[usize]| -> Vec<bool> {
        let mut seen = vec![false; n];
        let mut stack = roots.to_vec();
        while let Some(i) = stack.pop() {
            if seen[i] || !materialised[i] {
                continue;
            }
            seen[i] = true;
            for body in &b.defs[i] {
                for &l in body {
                    let a = atom_of(l);
                    if b.kinds[a] == Kind::Derived {
                        stack.push(a);
                    }
                }
            }
        }
        seen
    };
    let mut legal_and_terminal: Vec<usize> = legal_roots.iter().flatten().map(|&(_, i)| i).collect();
    legal_and_terminal.extend(terminal);
    let p1 = cone(&legal_and_terminal);
    let goal_atoms: Vec<usize> = goal_roots.iter().flatten().map(|&(i, _)| i).collect();
    let p2 = cone(&goal_atoms);
    let next_atoms: Vec<usize> = next_roots.iter().map(|&(i, _)| i).collect();
    let p3 = cone(&next_atoms);

    let lower = |i: usize| -> Vec<TermBuilder> {
        lower_bodies(&b.defs[i], &|l: Lit| bit_of[atom_of(l)].expect("every literal of a live atom has a bit"))
    };
    let build = |member: &dyn Fn(usize) -> bool| -> Code {
        let mut code = Code::default();
        for group in &node_order {
            let members: Vec<usize> = group.iter().copied().filter(|&i| member(i)).collect();
            if members.is_empty() {
                continue;
            }
            let recursive = members.iter().any(|&i| cyclic[i]);
            let first = code.nodes.len() as u32;
            for &i in &members {
                let terms = lower(i);
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
    };
    let legal_code = build(&|i| p1[i]);
    let goal_code = build(&|i| p2[i] && !p1[i]);
    let next_code = build(&|i| p3[i] && !p1[i]);

    let mut init = vec![0u64; state_words as usize];
    for (x, &is_init) in b.init.iter().enumerate() {
        if is_init && let Some(bit) = state_bit[x] {
            init[(bit / 64) as usize] |= 1 << (bit % 64);
        }
    }
    let moves = g
        .roles
        .iter()
        .enumerate()
        .map(|(r, &role)| {
            legal_roots[r]
                .iter()
                .map(|&(mv, i)| MoveInfo {
                    term: mv,
                    legal_bit: bit_of[i].unwrap_or(false_bit),
                    does_bit: b.find(kw::DOES, &[role, mv]).and_then(|d| bit_of[d]),
                })
                .collect()
        })
        .collect();
    let goals = goal_roots
        .iter()
        .map(|list| list.iter().map(|&(i, v)| (bit_of[i].unwrap_or(false_bit), v)).collect())
        .collect();
    Circuit {
        base,
        init,
        moves,
        legal_first,
        goals,
        terminal_bit: terminal_bit.unwrap_or(false_bit),
        state_words,
        does_words,
        next_word,
        total_words,
        legal: legal_code,
        goal: goal_code,
        next: next_code,
    }
}

/// Terms for a disjunction of bodies. Bodies that are equal but for one
/// positive literal are grouped into one term per word: the shared literals
/// and "any of these bits".
fn lower_bodies(bodies: &[Vec<Lit>], bit: &dyn Fn(Lit) -> u32) -> Vec<TermBuilder> {
    if bodies.iter().any(Vec::is_empty) {
        return vec![TermBuilder::default()];
    }
    let mut counts: HashMap<Vec<Lit>, usize> = HashMap::new();
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
    let mut group_of: HashMap<Vec<Lit>, usize> = HashMap::new();
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
