//! A top-down evaluator of the prover's questions, with tabling.
//!
//! The rules are compiled once: grouped by the relation of their head, and,
//! for each way a relation is called (which arguments the call binds), each
//! body ordered as [`crate::datalog::join_order`] would join it with those
//! variables bound. A question — "which `legal` atoms hold for this role?",
//! "does `terminal` hold?" — is answered by resolving it against the rules
//! depth-first, as a Prolog prover does, but every call of a derived relation
//! is *tabled*: its answers are computed once per state, under a key that is
//! the call with its unbound arguments replaced by a marker, and shared by
//! every later call with the same key (by the legal moves, terminality and
//! goals of the same state, too). Base relations are read through indexes on
//! the bound argument positions, built on first use: the state's `true`
//! facts per function symbol (built again for each state), the static
//! relations once.
//!
//! Recursion is evaluated exactly by iteration (linear tabling): a call that
//! meets itself (or an ancestor) still being evaluated reads the answers
//! found so far, and the oldest such call — the leader of the recursive
//! group — evaluates its rules again until no table of the group gains an
//! answer; only then are the group's tables complete. Left recursion and
//! cycles without a base case therefore end. Negation asks a ground call and
//! needs it complete, which stratification guarantees; should it not be
//! (unstratified rules), or should an evaluation exceed its [`Budget`] or
//! nest calls deeper than [`MAX_DEPTH`], the question is given up
//! ([`Stop`]) and the caller answers it bottom-up instead. Should the
//! budget's deadline pass or its cancellation come, the question stops
//! ([`Stop::Interrupted`]) within [`crate::datalog::CHECK_EVERY`] steps, its
//! unfinished tables forgotten as when it is given up. Building an index
//! (on a large static relation, the first time it is read with some
//! arguments bound) counts each atom as such a step, though it spends no
//! budget.
//!
//! ```text
//! let mut topdown = TopDown::new(rules, &statics, &store, size);
//! let key = store.app(kw::LEGAL, &[role, topdown.free()]);
//! let moves: Vec<TermId> = topdown.ask(key, &facts, &[], &mut store, &statics, budget)?;
//! ```

use std::collections::HashSet;
use std::hash::Hasher;
use std::sync::Arc;

use crate::datalog::{
    Budget, Model, bound_marks, cheapest, equal, estimate, find_instance, instantiate, lit_vars, match_pat,
    strongly_connected,
};
use crate::hash::{FastMap, WordHasher};
use crate::limits::OutOfLimits;
use crate::normalize::{Lit, NRule, Pat};
use crate::store::{Pred, TermId, TermStore};
use crate::symbol::kw;

/// How deeply calls may nest before a question is given up (and answered
/// bottom-up): bounds the native stack the evaluation uses.
pub(crate) const MAX_DEPTH: usize = 400;

/// Why a question was not answered top-down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The budget ran out, or calls nested deeper than [`MAX_DEPTH`].
    Budget,
    /// The budget's deadline passed or its cancellation came
    /// ([`Budget::interruption`]): the question is not to be answered at
    /// all (not bottom-up either).
    Interrupted(OutOfLimits),
    /// Negation met a call that is not complete (the rules are not
    /// stratified), or an unsafe literal.
    Unsupported,
}

/// How far the evaluation of a tabled call is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    /// Every answer is known.
    Complete,
    /// Being evaluated; the number is its position on the stack of calls
    /// being evaluated.
    Active(u32),
    /// Evaluated once, but it read a call still being evaluated (number
    /// `low` on the stack), so its answers may be partial until that call's
    /// group reaches its fixpoint; evaluated in leader pass `pass`.
    Incomplete { low: u32, pass: u32 },
}

/// The answers of one call.
#[derive(Debug, Clone)]
struct Table {
    answers: Vec<TermId>,
    /// The answers as a set, once there are more than [`SMALL_TABLE`].
    set: FastMap<TermId, ()>,
    status: Status,
}

/// Answers up to this many are searched linearly for duplicates.
const SMALL_TABLE: usize = 8;

impl Table {
    fn new() -> Table {
        Table { answers: Vec::new(), set: FastMap::default(), status: Status::Active(0) }
    }

    /// Adds `atom`; whether it is new.
    fn add(&mut self, atom: TermId) -> bool {
        if self.answers.len() < SMALL_TABLE {
            if self.answers.contains(&atom) {
                return false;
            }
        } else {
            if self.set.is_empty() {
                self.set.extend(self.answers.iter().map(|&a| (a, ())));
            }
            if self.set.insert(atom, ()).is_some() {
                return false;
            }
        }
        self.answers.push(atom);
        true
    }
}

/// The tables of one lifetime: the state's, or the joint move's. Cleared
/// tables keep their memory for the next state's (the first `len` are in
/// use).
#[derive(Debug, Clone, Default)]
struct Tables {
    by_key: FastMap<TermId, u32>,
    tables: Vec<Table>,
    len: usize,
}

impl Tables {
    fn clear(&mut self) {
        self.by_key.clear();
        self.len = 0;
    }

    /// A new, empty table for `key`.
    fn open(&mut self, key: TermId) -> u32 {
        let at = self.len;
        if at == self.tables.len() {
            self.tables.push(Table::new());
        } else {
            let t = &mut self.tables[at];
            t.answers.clear();
            t.set.clear();
        }
        self.len += 1;
        self.by_key.insert(key, at as u32);
        at as u32
    }
}

/// A table: whether among the joint move's tables, and its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TableRef {
    moves: bool,
    at: u32,
}

/// Atoms of one relation with hash indexes on bound argument positions.
#[derive(Debug, Clone, Default)]
struct Indexed {
    atoms: Vec<TermId>,
    /// Per mask of bound positions, the bucket of each key, and whether it
    /// is built for the atoms (a cleared catalog keeps the maps' memory).
    masks: Vec<(u64, FastMap<u64, u32>, bool)>,
}

/// Relations of atoms, indexed on demand; buckets of atoms in one arena
/// (the first `used` in use; a cleared catalog keeps their memory).
#[derive(Debug, Clone, Default)]
struct Catalog {
    sets: FastMap<Pred, Indexed>,
    buckets: Vec<Vec<TermId>>,
    used: usize,
}

/// The bucket for no atom at all.
const NO_BUCKET: u32 = u32::MAX;

impl Catalog {
    /// Forgets every atom, keeping the memory.
    fn clear(&mut self) {
        for set in self.sets.values_mut() {
            set.atoms.clear();
            for m in &mut set.masks {
                m.2 = false;
            }
        }
        self.used = 0;
    }

    /// The bucket of the atoms of `pred` whose arguments at the positions of
    /// `mask` hash to `key` ([`NO_BUCKET`] if none), the index built on
    /// first use, each atom indexed counted as a try of `budget` (it finds
    /// no answer, so spends no join, but can take long on a large static
    /// relation); `fill` gives the atoms of a relation not seen before.
    /// Should the budget's limits stop the building, the index is left
    /// unbuilt (its buckets given back) and the interruption returned.
    fn bucket(
        &mut self,
        pred: Pred,
        mask: u64,
        key: u64,
        store: &TermStore,
        fill: &dyn Fn(Pred) -> Vec<TermId>,
        budget: &mut Budget,
    ) -> Result<u32, Stop> {
        let set = self.sets.entry(pred).or_insert_with(|| Indexed { atoms: fill(pred), masks: Vec::new() });
        let at = match set.masks.iter().position(|m| m.0 == mask) {
            Some(at) => at,
            None => {
                set.masks.push((mask, FastMap::default(), false));
                set.masks.len() - 1
            }
        };
        let (_, map, built) = &mut set.masks[at];
        if !*built {
            map.clear();
            let used = self.used;
            for &atom in &set.atoms {
                if budget.tried() {
                    map.clear();
                    self.used = used;
                    return Err(budget.interruption().map_or(Stop::Budget, Stop::Interrupted));
                }
                let k = key_of(mask, store.args(atom));
                let b = *map.entry(k).or_insert_with(|| {
                    if self.used == self.buckets.len() {
                        self.buckets.push(Vec::new());
                    } else {
                        self.buckets[self.used].clear();
                    }
                    self.used += 1;
                    (self.used - 1) as u32
                });
                self.buckets[b as usize].push(atom);
            }
            *built = true;
        }
        Ok(map.get(&key).copied().unwrap_or(NO_BUCKET))
    }
}

/// The hash of the arguments at the positions of `mask`.
fn key_of(mask: u64, args: &[TermId]) -> u64 {
    let mut h = WordHasher::default();
    let mut m = mask;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        h.write_u32(args.get(i).map_or(u32::MAX, |a| a.0));
    }
    h.finish()
}

/// A pattern's value under bindings.
enum Resolved {
    Ground(TermId),
    /// Ground, but no such term exists (so no stored atom contains it).
    Missing,
    /// Has unbound variables.
    Open,
}

fn resolve(p: &Pat, b: &[Option<TermId>], store: &TermStore) -> Resolved {
    match p {
        Pat::Var(v) => b[*v as usize].map_or(Resolved::Open, Resolved::Ground),
        Pat::Ground(id) => Resolved::Ground(*id),
        Pat::App(..) => {
            if !is_ground(p, b) {
                return Resolved::Open;
            }
            find_instance(p, b, store).map_or(Resolved::Missing, Resolved::Ground)
        }
    }
}

/// Whether every variable of `p` is bound in `b`.
fn is_ground(p: &Pat, b: &[Option<TermId>]) -> bool {
    match p {
        Pat::Var(v) => b[*v as usize].is_some(),
        Pat::Ground(_) => true,
        Pat::App(_, args) => args.iter().all(|a| is_ground(a, b)),
    }
}

/// The mask of the ground arguments of `args` under `b` and their key;
/// `None` if a ground argument does not exist (nothing stored matches).
fn selection(args: &[Pat], b: &[Option<TermId>], store: &TermStore) -> Option<(u64, u64)> {
    let mut h = WordHasher::default();
    let mut mask = 0u64;
    for (i, a) in args.iter().enumerate().take(64) {
        match resolve(a, b, store) {
            Resolved::Ground(id) => {
                mask |= 1 << i;
                h.write_u32(id.0);
            }
            Resolved::Missing => return None,
            Resolved::Open => {}
        }
    }
    Some((mask, h.finish()))
}

/// The read-only world of one question: the term store is written (answers
/// and call keys are interned), the static relations only read.
struct World<'a> {
    store: &'a mut TermStore,
    statics: &'a Model,
}

/// The top-down evaluator: compiled rules, the static indexes, and the
/// tables of the current state.
#[derive(Debug, Clone)]
pub(crate) struct TopDown {
    rules: Arc<[NRule]>,
    /// The rules of each derived relation.
    by_pred: FastMap<Pred, Arc<[u32]>>,
    /// The relations that depend on `does`.
    on_moves: HashSet<Pred>,
    /// The recursive group of each derived relation.
    component: FastMap<Pred, u32>,
    /// Whether the rules (or the static relations) define `true` or `does`
    /// atoms themselves (invalid GDL, which bottom-up evaluation reads as
    /// more facts): every question is then left to bottom-up evaluation.
    unsupported: bool,
    /// Body orders per rule and mask of bound head arguments.
    plans: FastMap<(u32, u64), Arc<[u16]>>,
    /// Relation sizes the body orders are chosen by.
    sizes: FastMap<Pred, usize>,
    /// The number of roles.
    roles: usize,
    /// The marker of an unbound argument in a call's key.
    free: TermId,
    statics: Catalog,
    /// The facts of the current state, and the same as a set and indexed.
    state: Vec<TermId>,
    fact_set: FastMap<TermId, ()>,
    facts: Catalog,
    /// The `does` atoms of the current joint move.
    joint: Vec<TermId>,
    state_tables: Tables,
    move_tables: Tables,
    /// Evaluation: the variable bindings of every rule being evaluated, one
    /// frame after another, and the trail of bindings to undo.
    binds: Vec<Option<TermId>>,
    trail: Vec<u16>,
    /// Calls being evaluated (the stack positions of [`Status::Active`]),
    /// and how deeply calls nest.
    active: u32,
    depth: usize,
    /// The lowest stack position of an unfinished call read by the call
    /// being evaluated.
    low: u32,
    /// Incomplete tables waiting for their leader.
    pending: Vec<TableRef>,
    /// The number of leader passes so far.
    pass: u32,
    /// The number of answers added so far.
    added: u64,
    budget: Budget,
}

/// The recursive group (strongly connected component of the dependency
/// graph) of each relation the rules derive, by number.
fn components(rules: &[NRule], store: &TermStore) -> FastMap<Pred, u32> {
    let mut number: FastMap<Pred, usize> = FastMap::default();
    for r in rules {
        let n = number.len();
        number.entry(r.head.pred(store)).or_insert(n);
    }
    let mut edges = vec![Vec::new(); number.len()];
    for r in rules {
        let h = number[&r.head.pred(store)];
        for l in &r.body {
            if let Lit::Pos(p) | Lit::Neg(p) = l
                && let Some(&d) = number.get(&p.pred(store))
            {
                edges[h].push(d);
            }
        }
    }
    let mut component = FastMap::default();
    let preds: Vec<Pred> = {
        let mut v = vec![Pred::new(kw::TRUE, 1); number.len()];
        for (p, &n) in &number {
            v[n] = *p;
        }
        v
    };
    for (c, members) in strongly_connected(&edges).into_iter().enumerate() {
        for m in members {
            component.insert(preds[m], c as u32);
        }
    }
    component
}

/// Whether every variable of `p` is marked in `bound`.
fn is_bound(p: &Pat, bound: &[bool]) -> bool {
    match p {
        Pat::Var(v) => bound[*v as usize],
        Pat::Ground(_) => true,
        Pat::App(_, args) => args.iter().all(|a| is_bound(a, bound)),
    }
}

/// The number of arguments of `p` whose variables are all bound.
fn bound_args(p: &Pat, bound: &[bool]) -> usize {
    let Pat::App(_, args) = p else { return 0 };
    args.iter().filter(|a| is_bound(a, bound)).count()
}

/// Whether the literal `p` asks the very call its rule's `head` was called
/// with (the head's arguments bound at `head_mask`): the same relation, the
/// same arguments bound — the head's own — and the others unbound.
fn is_variant(p: &Pat, head: &Pat, bound: &[bool], head_mask: &[bool]) -> bool {
    let (Pat::App(f, args), Pat::App(g, hargs)) = (p, head) else { return false };
    f == g
        && args.len() == hargs.len()
        && args
            .iter()
            .zip(hargs.iter())
            .zip(head_mask)
            .all(|((a, h), &m)| if m { a == h } else { !is_bound(a, bound) && matches!(a, Pat::Var(_)) })
}

/// How much more a call of the caller's own recursive group is taken to
/// cost while it has fewer bound arguments than the caller was called with:
/// it is asked only once the other literals have bound that many
/// (laikLee_hex's paths are asked with their lists of visited cells, not
/// for every list).
const RECURSIVE_PENALTY: f64 = 1e6;

/// The order in which to resolve the body of `rule` when the variables
/// `initially` are bound: each negative, `distinct` or equality literal as
/// soon as its variables are bound, in between the positive literal
/// expected to match fewest atoms (`size` giving each relation's), a call of
/// the rule's own recursive group (`recursive`) last while it has fewer
/// bound arguments than the head; ties to the smaller relation, then to the literal with more
/// bound variables. Literals whose variables are never bound come last.
fn body_order(
    rule: &NRule,
    initially: &[u16],
    store: &TermStore,
    size: &dyn Fn(Pred) -> usize,
    recursive: &dyn Fn(Pred) -> bool,
) -> Vec<u16> {
    let vars_of = |i: usize| lit_vars(&rule.body[i]);
    let mut bound = bound_marks(rule.vars, initially);
    let head_bound = bound_args(&rule.head, &bound);
    let head_mask: Vec<bool> = match &rule.head {
        Pat::App(_, args) => args.iter().map(|a| is_bound(a, &bound)).collect(),
        _ => Vec::new(),
    };
    let mut order = Vec::with_capacity(rule.body.len());
    let mut positives: Vec<usize> = (0..rule.body.len()).filter(|&i| matches!(rule.body[i], Lit::Pos(_))).collect();
    let mut filters: Vec<usize> = (0..rule.body.len()).filter(|&i| !matches!(rule.body[i], Lit::Pos(_))).collect();
    loop {
        filters.retain(|&f| {
            if vars_of(f).iter().all(|&v| bound[v as usize]) {
                order.push(f as u16);
                false
            } else {
                true
            }
        });
        if positives.is_empty() {
            break;
        }
        let cost = |i: usize| {
            let Lit::Pos(p) = &rule.body[i] else { unreachable!("positives are positive") };
            let pred = p.pred(store);
            let n = size(pred);
            let mut e = estimate(p, &bound, n);
            if is_variant(p, &rule.head, &bound, &head_mask) {
                // The caller's own call again: its answers so far are read.
                e = 1.0;
            } else if e > 1.0 && recursive(pred) && bound_args(p, &bound) < head_bound {
                e *= RECURSIVE_PENALTY;
            }
            let bound_vars = vars_of(i).iter().filter(|&&v| bound[v as usize]).count();
            (e, n, bound_vars)
        };
        let (best, _) = cheapest(&positives, cost);
        let i = positives.remove(best);
        order.push(i as u16);
        for v in vars_of(i) {
            bound[v as usize] = true;
        }
    }
    order.extend(filters.iter().map(|&f| f as u16));
    order
}

/// The size assumed, when ordering bodies, for a relation of unknown size.
const GUESS: usize = 100;

/// The least size assumed, when ordering bodies, for a derived relation.
const DERIVED_SIZE: usize = 10_000;

impl TopDown {
    /// The evaluator of `rules` (the state-dependent rules and the static
    /// ones not evaluated in full into `statics`) for `roles` roles; bodies
    /// are ordered by the relation sizes [`TopDown::set_sizes`] sets. `free`
    /// is a constant no rule mentions.
    pub(crate) fn new(rules: Vec<NRule>, statics: &Model, store: &TermStore, roles: usize, free: TermId) -> TopDown {
        let (true_pred, does_pred) = (Pred::new(kw::TRUE, 1), Pred::new(kw::DOES, 2));
        let unsupported = rules.iter().any(|r| matches!(r.head.pred(store).name, kw::TRUE | kw::DOES))
            || !statics.atoms(true_pred).is_empty()
            || !statics.atoms(does_pred).is_empty();
        let mut by_pred: FastMap<Pred, Vec<u32>> = FastMap::default();
        for (i, r) in rules.iter().enumerate() {
            by_pred.entry(r.head.pred(store)).or_default().push(i as u32);
        }
        let mut on_moves: HashSet<Pred> = HashSet::new();
        on_moves.insert(Pred::new(kw::DOES, 2));
        loop {
            let before = on_moves.len();
            for r in &rules {
                let depends = r.body.iter().any(|l| match l {
                    Lit::Pos(p) | Lit::Neg(p) => on_moves.contains(&p.pred(store)),
                    _ => false,
                });
                if depends {
                    on_moves.insert(r.head.pred(store));
                }
            }
            if on_moves.len() == before {
                break;
            }
        }
        let component = components(&rules, store);
        TopDown {
            component,
            unsupported,
            rules: rules.into(),
            by_pred: by_pred.into_iter().map(|(p, v)| (p, v.into())).collect(),
            on_moves,
            plans: FastMap::default(),
            sizes: FastMap::default(),
            roles,
            free,
            statics: Catalog::default(),
            state: Vec::new(),
            fact_set: FastMap::default(),
            facts: Catalog::default(),
            joint: Vec::new(),
            state_tables: Tables::default(),
            move_tables: Tables::default(),
            binds: Vec::new(),
            trail: Vec::new(),
            active: 0,
            depth: 0,
            low: u32::MAX,
            pending: Vec::new(),
            pass: 0,
            added: 0,
            budget: Budget::new(0, 0),
        }
    }

    /// The marker of an unbound argument in a question's key.
    pub(crate) fn free(&self) -> TermId {
        self.free
    }

    /// Orders the bodies again, by the sizes of the relations of `sample` (a
    /// model of a state: `true`'s size is its number of facts).
    pub(crate) fn set_sizes(&mut self, sample: &Model) {
        self.sizes = sample.preds().map(|p| (p, sample.atoms(p).len())).collect();
        self.plans.clear();
    }

    /// The answers to the call `key` (an atom, or one with [`TopDown::free`]
    /// for unbound arguments) in the state of `facts` with the `does` atoms
    /// `joint`, within `budget`.
    pub(crate) fn ask(
        &mut self,
        key: TermId,
        facts: &[TermId],
        joint: &[TermId],
        store: &mut TermStore,
        statics: &Model,
        budget: Budget,
    ) -> Result<Vec<TermId>, Stop> {
        if self.unsupported {
            return Err(Stop::Unsupported);
        }
        if self.state != facts {
            self.state.clear();
            self.state.extend_from_slice(facts);
            self.fact_set.clear();
            self.fact_set.extend(facts.iter().map(|&f| (f, ())));
            self.facts.clear();
            for &f in facts {
                let pred = store.pred(f);
                self.facts.sets.entry(pred).or_default().atoms.push(f);
            }
            self.state_tables.clear();
            self.move_tables.clear();
        }
        if self.joint != joint {
            self.joint.clear();
            self.joint.extend_from_slice(joint);
            self.move_tables.clear();
        }
        self.budget = budget;
        let mut world = World { store, statics };
        let found = self.solve(key, &mut world).map(|t| self.table(t).answers.clone());
        if found.is_err() {
            // Tables left unfinished are forgotten.
            self.state_tables.clear();
            self.move_tables.clear();
            self.binds.clear();
            self.trail.clear();
            self.pending.clear();
            self.active = 0;
            self.depth = 0;
            self.low = u32::MAX;
        }
        found
    }

    fn table(&self, t: TableRef) -> &Table {
        let tables = if t.moves { &self.move_tables } else { &self.state_tables };
        &tables.tables[t.at as usize]
    }

    fn table_mut(&mut self, t: TableRef) -> &mut Table {
        let tables = if t.moves { &mut self.move_tables } else { &mut self.state_tables };
        &mut tables.tables[t.at as usize]
    }

    fn spend(&mut self, joins: usize) -> Result<(), Stop> {
        self.budget.spend_joins(joins);
        if self.budget.is_spent() { Err(self.stop()) } else { Ok(()) }
    }

    /// Why the spent budget stops the question.
    fn stop(&self) -> Stop {
        self.budget.interruption().map_or(Stop::Budget, Stop::Interrupted)
    }

    /// The table of the call `key`, its answers complete unless it is part
    /// of a recursive group still being evaluated.
    fn solve(&mut self, key: TermId, world: &mut World<'_>) -> Result<TableRef, Stop> {
        let pred = world.store.pred(key);
        let moves = self.on_moves.contains(&pred);
        let tables = if moves { &mut self.move_tables } else { &mut self.state_tables };
        let t = match tables.by_key.get(&key) {
            Some(&at) => {
                let t = TableRef { moves, at };
                match tables.tables[at as usize].status {
                    Status::Complete => return Ok(t),
                    Status::Active(pos) => {
                        self.low = self.low.min(pos);
                        return Ok(t);
                    }
                    Status::Incomplete { low, pass } if pass == self.pass => {
                        self.low = self.low.min(low);
                        return Ok(t);
                    }
                    Status::Incomplete { .. } => t,
                }
            }
            None => TableRef { moves, at: tables.open(key) },
        };
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Stop::Budget);
        }
        let pos = self.active;
        self.active += 1;
        self.table_mut(t).status = Status::Active(pos);
        let mark = self.pending.len();
        let outer_low = self.low;
        loop {
            let added = self.added;
            self.low = u32::MAX;
            self.evaluate(key, pred, t, world)?;
            let low = self.low;
            if low < pos {
                // It read an unfinished ancestor: partial until that one's
                // group is at its fixpoint.
                self.table_mut(t).status = Status::Incomplete { low, pass: self.pass };
                self.pending.push(t);
                self.active -= 1;
                self.depth -= 1;
                self.low = outer_low.min(low);
                return Ok(t);
            }
            if low == pos && self.added != added {
                self.pass += 1;
                continue;
            }
            break;
        }
        let done: Vec<TableRef> = self.pending.drain(mark..).collect();
        for d in done {
            self.table_mut(d).status = Status::Complete;
        }
        self.table_mut(t).status = Status::Complete;
        self.active -= 1;
        self.depth -= 1;
        self.low = outer_low;
        Ok(t)
    }

    /// One pass over the static atoms and the rules of `pred` for the call
    /// `key`, adding answers to `t`.
    fn evaluate(&mut self, key: TermId, pred: Pred, t: TableRef, world: &mut World<'_>) -> Result<(), Stop> {
        let free = self.free;
        if world.statics.relation(pred).is_some_and(|r| !r.atoms.is_empty()) {
            let args = world.store.args(key);
            let mut mask = 0u64;
            for (i, a) in args.iter().enumerate().take(64) {
                if *a != free {
                    mask |= 1 << i;
                }
            }
            let k = key_of(mask, args);
            let statics = world.statics;
            let fill = |p: Pred| statics.atoms(p).to_vec();
            let bucket = self.statics.bucket(pred, mask, k, world.store, &fill, &mut self.budget)?;
            if bucket != NO_BUCKET {
                for i in 0..self.statics.buckets[bucket as usize].len() {
                    // An atom that does not match spends nothing.
                    if self.budget.tried() {
                        return Err(self.stop());
                    }
                    let atom = self.statics.buckets[bucket as usize][i];
                    let matches =
                        world.store.args(atom).iter().zip(world.store.args(key)).all(|(a, k)| k == &free || a == k);
                    if matches {
                        self.answer(t, atom)?;
                    }
                }
            }
        }
        let Some(rules) = self.by_pred.get(&pred).cloned() else { return Ok(()) };
        let all = self.rules.clone();
        for &r in rules.iter() {
            let rule = &all[r as usize];
            let base = self.binds.len();
            let tmark = self.trail.len();
            self.binds.resize(base + rule.vars, None);
            let mut mask = 0u64;
            let unified = match &rule.head {
                Pat::Ground(h) => {
                    let args = world.store.args(key);
                    world.store.args(*h).iter().zip(args).all(|(h, a)| a == &free || a == h)
                }
                Pat::App(_, head) => {
                    let store = &*world.store;
                    let args = store.args(key);
                    let mut ok = true;
                    for (i, (h, &a)) in head.iter().zip(args).enumerate() {
                        if a == free {
                            continue;
                        }
                        if i < 64 {
                            mask |= 1 << i;
                        }
                        if !match_pat(store, h, a, &mut self.binds[base..], &mut self.trail) {
                            ok = false;
                            break;
                        }
                    }
                    ok
                }
                _ => true,
            };
            let result = if unified {
                let plan = self.plan(r, mask, world.store);
                self.body(rule, &plan, 0, base, t, world)
            } else {
                Ok(())
            };
            self.binds.truncate(base);
            self.trail.truncate(tmark);
            result?;
        }
        Ok(())
    }

    /// The body order of rule `r` called with the head arguments of `mask`
    /// bound.
    fn plan(&mut self, r: u32, mask: u64, store: &TermStore) -> Arc<[u16]> {
        if let Some(p) = self.plans.get(&(r, mask)) {
            return p.clone();
        }
        let rule = &self.rules[r as usize];
        let mut bound = Vec::new();
        if let Pat::App(_, head) = &rule.head {
            for (i, h) in head.iter().enumerate().take(64) {
                if mask & (1 << i) != 0 {
                    h.vars(&mut bound);
                }
            }
        }
        // A derived relation called with unbound arguments is evaluated
        // for all of them, however few a sample state has (or its demand
        // derived): taken as large, so that calls wait for bindings.
        let size = |p: Pred| match p.name {
            kw::DOES => self.roles,
            _ if self.by_pred.contains_key(&p) => self.sizes.get(&p).copied().unwrap_or(0).max(DERIVED_SIZE),
            _ => self.sizes.get(&p).copied().unwrap_or(GUESS),
        };
        let head = self.component.get(&rule.head.pred(store)).copied();
        let recursive = |p: Pred| head.is_some() && self.component.get(&p).copied() == head;
        let order: Arc<[u16]> = body_order(rule, &bound, store, &size, &recursive).into();
        self.plans.insert((r, mask), order.clone());
        order
    }

    fn answer(&mut self, t: TableRef, atom: TermId) -> Result<(), Stop> {
        if self.table_mut(t).add(atom) {
            self.added += 1;
            self.budget.atoms = self.budget.atoms.saturating_sub(1);
            if self.budget.is_spent() {
                return Err(self.stop());
            }
        }
        Ok(())
    }

    /// Undoes the bindings made since `mark` in the frame at `base`.
    fn undo(&mut self, mark: usize, base: usize) {
        for v in self.trail.drain(mark..) {
            self.binds[base + v as usize] = None;
        }
    }

    /// Solves the body of `rule` from step `k` of `plan`, the rule's
    /// variables in the frame at `base`; each solution adds the head's
    /// instance to `t`.
    fn body(
        &mut self,
        rule: &NRule,
        plan: &[u16],
        k: usize,
        base: usize,
        t: TableRef,
        world: &mut World<'_>,
    ) -> Result<(), Stop> {
        let Some(&lit) = plan.get(k) else {
            let head = instantiate(&rule.head, &self.binds[base..], world.store).ok_or(Stop::Unsupported)?;
            return self.answer(t, head);
        };
        self.spend(1)?;
        let next = |s: &mut TopDown, world: &mut World<'_>| s.body(rule, plan, k + 1, base, t, world);
        match &rule.body[lit as usize] {
            Lit::Pos(p) => self.each_match(p, base, world, &mut |s, world| next(s, world)),
            Lit::Neg(p) => {
                if !self.holds(p, base, world)? {
                    next(self, world)?;
                }
                Ok(())
            }
            Lit::Distinct(x, y) => {
                if !equal(world.store, x, y, &self.binds[base..]) {
                    next(self, world)?;
                }
                Ok(())
            }
            Lit::Same(x, y) => {
                if equal(world.store, x, y, &self.binds[base..]) {
                    next(self, world)?;
                }
                Ok(())
            }
        }
    }

    /// Calls `then` once for each way the positive literal `p` matches,
    /// with its variables bound in the frame at `base`.
    fn each_match(
        &mut self,
        p: &Pat,
        base: usize,
        world: &mut World<'_>,
        then: &mut dyn FnMut(&mut TopDown, &mut World<'_>) -> Result<(), Stop>,
    ) -> Result<(), Stop> {
        let pred = p.pred(world.store);
        match pred.name {
            // `true` of another arity matches no fact.
            kw::TRUE if pred.arity != 1 => Ok(()),
            kw::TRUE => {
                let Pat::App(_, args) = p else {
                    // A ground `true` literal.
                    if let Pat::Ground(atom) = p
                        && self.fact_set.contains_key(&world.store.args(*atom)[0])
                    {
                        then(self, world)?;
                    }
                    return Ok(());
                };
                let inner = &args[0];
                match resolve(inner, &self.binds[base..], world.store) {
                    Resolved::Ground(f) => {
                        if self.fact_set.contains_key(&f) {
                            then(self, world)?;
                        }
                        Ok(())
                    }
                    Resolved::Missing => Ok(()),
                    Resolved::Open => match inner {
                        Pat::App(name, inner_args) => {
                            let Some((mask, key)) = selection(inner_args, &self.binds[base..], world.store) else {
                                return Ok(());
                            };
                            let ipred = Pred::new(*name, inner_args.len());
                            let bucket =
                                self.facts.bucket(ipred, mask, key, world.store, &|_| Vec::new(), &mut self.budget)?;
                            if bucket == NO_BUCKET {
                                return Ok(());
                            }
                            for i in 0..self.facts.buckets[bucket as usize].len() {
                                let f = self.facts.buckets[bucket as usize][i];
                                self.try_match(inner, f, base, world, then)?;
                            }
                            Ok(())
                        }
                        _ => {
                            for i in 0..self.state.len() {
                                let f = self.state[i];
                                self.try_match(inner, f, base, world, then)?;
                            }
                            Ok(())
                        }
                    },
                }
            }
            kw::DOES => {
                for i in 0..self.joint.len() {
                    let atom = self.joint[i];
                    self.try_match(p, atom, base, world, then)?;
                }
                Ok(())
            }
            _ if self.by_pred.contains_key(&pred) => {
                let key = self.call_key(p, base, world.store);
                let t = self.solve(key, world)?;
                if world.store.pred(key) == pred && !world.store.args(key).contains(&self.free) {
                    // A ground call: it holds or not.
                    if !self.table(t).answers.is_empty() {
                        then(self, world)?;
                    }
                    return Ok(());
                }
                let mut i = 0;
                while let Some(&atom) = self.table(t).answers.get(i) {
                    i += 1;
                    self.try_match(p, atom, base, world, then)?;
                }
                Ok(())
            }
            _ => {
                let Pat::App(_, args) = p else {
                    // A static proposition.
                    if let Pat::Ground(id) = p
                        && world.statics.contains(*id, world.store)
                    {
                        then(self, world)?;
                    }
                    return Ok(());
                };
                let Some((mask, key)) = selection(args, &self.binds[base..], world.store) else { return Ok(()) };
                let statics = world.statics;
                let fill = |p: Pred| statics.atoms(p).to_vec();
                let bucket = self.statics.bucket(pred, mask, key, world.store, &fill, &mut self.budget)?;
                if bucket == NO_BUCKET {
                    return Ok(());
                }
                for i in 0..self.statics.buckets[bucket as usize].len() {
                    let atom = self.statics.buckets[bucket as usize][i];
                    self.try_match(p, atom, base, world, then)?;
                }
                Ok(())
            }
        }
    }

    /// Matches `p` against `atom` in the frame at `base` and, if it
    /// matches, calls `then`; the bindings are undone after.
    fn try_match(
        &mut self,
        p: &Pat,
        atom: TermId,
        base: usize,
        world: &mut World<'_>,
        then: &mut dyn FnMut(&mut TopDown, &mut World<'_>) -> Result<(), Stop>,
    ) -> Result<(), Stop> {
        let mark = self.trail.len();
        let result = if match_pat(world.store, p, atom, &mut self.binds[base..], &mut self.trail) {
            then(self, world)
        } else {
            self.spend(1)
        };
        self.undo(mark, base);
        result
    }

    /// The key of the call `p` in the frame at `base`: its instance, with
    /// [`TopDown::free`] for each argument that is not ground.
    fn call_key(&self, p: &Pat, base: usize, store: &mut TermStore) -> TermId {
        let b = &self.binds[base..];
        match p {
            Pat::Var(v) => b[*v as usize].unwrap_or(self.free),
            Pat::Ground(id) => *id,
            Pat::App(name, args) => {
                const INLINE: usize = 8;
                let mut inline = [self.free; INLINE];
                let mut spilled = Vec::new();
                let ids: &mut [TermId] = if args.len() <= INLINE {
                    &mut inline[..args.len()]
                } else {
                    spilled.resize(args.len(), self.free);
                    &mut spilled
                };
                for (slot, a) in ids.iter_mut().zip(args.iter()) {
                    if is_ground(a, b) {
                        *slot = instantiate(a, b, store).unwrap_or(self.free);
                    }
                }
                store.app(*name, ids)
            }
        }
    }

    /// Whether the ground literal `p` (in the frame at `base`) holds.
    fn holds(&mut self, p: &Pat, base: usize, world: &mut World<'_>) -> Result<bool, Stop> {
        if !is_ground(p, &self.binds[base..]) {
            return Err(Stop::Unsupported);
        }
        let pred = p.pred(world.store);
        match pred.name {
            kw::TRUE if pred.arity != 1 => Ok(false),
            kw::TRUE => {
                let Pat::App(_, args) = p else {
                    let Pat::Ground(atom) = p else { return Ok(false) };
                    return Ok(self.fact_set.contains_key(&world.store.args(*atom)[0]));
                };
                Ok(find_instance(&args[0], &self.binds[base..], world.store)
                    .is_some_and(|f| self.fact_set.contains_key(&f)))
            }
            kw::DOES => Ok(find_instance(p, &self.binds[base..], world.store).is_some_and(|a| self.joint.contains(&a))),
            _ if self.by_pred.contains_key(&pred) => {
                let key = instantiate(p, &self.binds[base..], world.store).ok_or(Stop::Unsupported)?;
                let t = self.solve(key, world)?;
                let table = self.table(t);
                if table.status != Status::Complete {
                    return Err(Stop::Unsupported);
                }
                Ok(!table.answers.is_empty())
            }
            _ => Ok(find_instance(p, &self.binds[base..], world.store)
                .is_some_and(|a| world.statics.contains(a, world.store))),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::prover::tests::{disagreement_between, games_in};
    use crate::{Game, Prover};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::path::{Path, PathBuf};

    /// Random playouts asked of the prover top-down and bottom-up (each
    /// question alone and all at once); `None` if every answer agrees and
    /// top-down evaluation gave none up.
    fn disagreement(game: &Game, playouts: usize, steps: usize, seed: u64) -> Option<String> {
        let mut top = Prover::evaluating(game, 10_000_000, true);
        let mut bottom = Prover::evaluating(game, 10_000_000, false);
        disagreement_between(&mut top, &mut bottom, playouts, steps, seed)
            .or_else(|| (top.given_up() > 0).then(|| format!("top-down gave up {} questions", top.given_up())))
    }

    /// The shared rule sheets (`../shared/gdl`), `None` where they are
    /// missing outside CI; missing under CI, the test fails.
    fn shared() -> Option<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gdl");
        if dir.is_dir() {
            return Some(dir);
        }
        assert!(std::env::var_os("CI").is_none(), "{} is missing", dir.display());
        None
    }

    #[test]
    fn agrees_with_bottom_up_on_small_games() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut games = games_in(&root.join("games"));
        if let Some(shared) = shared() {
            let before = games.len();
            games.extend(games_in(&shared));
            games.extend(games_in(&shared.join("testcases")));
            assert!(games.len() > before + 20, "the shared games are read");
        }
        assert!(!games.is_empty());
        for (name, game) in games {
            assert_eq!(disagreement(&game, 3, 30, 7), None, "{name}");
        }
    }

    /// The larger games of the crate's test set (chess, checkers, sudoku's
    /// lazily evaluated `exactlyOne`, mummymaze's recursive `lessthan`,
    /// amazonsTorus's rays), a few states each.
    #[test]
    fn agrees_with_bottom_up_on_large_games() {
        let games = games_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games"));
        assert!(games.len() >= 8);
        for (name, game) in games {
            assert_eq!(disagreement(&game, 1, 5, 11), None, "{name}");
        }
    }

    /// Recursion of every shape over a state that is a random graph (edges
    /// toggled by the moves): left, right and double recursion, mutual
    /// recursion (paths of even and odd length), a cycle with no base case,
    /// negation of recursive relations, `distinct`, `or`, equality (`not
    /// distinct`) and function terms in arguments.
    #[test]
    fn recursion_negation_distinct_and_or_agree() {
        let mut rules = String::from(
            "(role r)
             (init (edge a b)) (init (edge b c)) (init (edge c a)) (init (edge d e))
             (<= (legal r (toggle ?x ?y)) (node ?x) (node ?y))
             (<= (next (edge ?x ?y)) (does r (toggle ?x ?y)) (not (true (edge ?x ?y))))
             (<= (next (edge ?x ?y)) (true (edge ?x ?y)) (not (does r (toggle ?x ?y))))
             (<= (left ?x ?y) (true (edge ?x ?y)))
             (<= (left ?x ?z) (left ?x ?y) (true (edge ?y ?z)))
             (<= (right ?x ?y) (true (edge ?x ?y)))
             (<= (right ?x ?z) (true (edge ?x ?y)) (right ?y ?z))
             (<= (double ?x ?y) (true (edge ?x ?y)))
             (<= (double ?x ?z) (double ?x ?y) (double ?y ?z))
             (<= (odd ?x ?y) (true (edge ?x ?y)))
             (<= (odd ?x ?z) (true (edge ?x ?y)) (even ?y ?z))
             (<= (even ?x ?z) (true (edge ?x ?y)) (odd ?y ?z))
             (<= (spin ?x) (spin ?x))
             (<= (spin ?x) (node ?x) (spin ?x) (true (edge ?x ?x)))
             (<= (path (pair ?x ?y)) (right ?x ?y))
             (<= (cycle ?x) (double ?x ?x))
             (<= (mismatch ?x ?y) (node ?x) (node ?y) (left ?x ?y) (not (right ?x ?y)))
             (<= (mismatch ?x ?y) (node ?x) (node ?y) (double ?x ?y) (not (left ?x ?y)))
             (<= (lonely ?x) (node ?x) (not (reached ?x)))
             (<= (reached ?y) (left ?x ?y) (distinct ?x ?y))
             (<= (evenloop ?x) (even ?x ?y) (not (distinct ?x ?y)))
             (<= (linked ?x ?y) (node ?x) (node ?y) (or (path (pair ?x ?y)) (path (pair ?y ?x))))
             (<= (sentinel ?x) (spin ?x))
             (<= terminal (cycle e))
             (<= terminal (mismatch ?x ?y))
             (<= terminal (sentinel ?x))
             (<= (goal r 100) (evenloop a) (not (lonely a)))
             (<= (goal r 50) (linked a e) (not (evenloop a)))
             (<= (goal r 0) (not (linked a e)) (not (evenloop a)))
             (<= (goal r 0) (lonely a))",
        );
        for n in ["a", "b", "c", "d", "e"] {
            rules.push_str(&format!(" (node {n})"));
        }
        // Not valid GDL (left recursion breaks the recursion restriction,
        // `not` around `distinct`), but a reasoner answers it all the same.
        let game = Game::parse(&rules).unwrap();
        assert_eq!(disagreement(&game, 40, 25, 5), None);
        // The states are varied: some playouts end with a cycle through e.
        let mut prover = Prover::evaluating(&game, 10_000_000, true);
        let start = prover.initial_state();
        let looped = prover.next_state(&start, &["(toggle e d)".parse().unwrap()]);
        assert!(!prover.is_terminal(&start));
        assert!(prover.is_terminal(&looped));
        // a→b→c→a has length 3, so a reaches itself in 6 (`evenloop a`);
        // c→a makes a reached.
        assert_eq!(prover.goals(&start), vec![Some(100)]);
        assert_eq!(prover.given_up(), 0);
    }

    /// A question past the budget (an infinite relation) or nested deeper
    /// than the evaluator allows is given up, and answered bottom-up as
    /// before — the same answers, no hang, no overflow.
    #[test]
    fn questions_past_the_limits_are_answered_bottom_up() {
        let infinite = Game::parse(
            "(role r) (init s) (num z) (<= (num (succ ?x)) (num ?x))
             (<= (legal r go) (num ?x) (true s)) (<= (next s) (true s))
             (<= terminal (num ?x) (true t)) (goal r 0)",
        )
        .unwrap();
        let mut prover = Prover::evaluating(&infinite, 5_000, true);
        let mut bottom = Prover::evaluating(&infinite, 5_000, false);
        let (a, b) = (prover.initial_state(), bottom.initial_state());
        assert_eq!(prover.legal_moves(&a, 0), bottom.legal_moves(&b, 0));
        assert_eq!(prover.is_terminal(&a), bottom.is_terminal(&b));
        assert!(prover.given_up() > 0);

        let mut deep = String::from(
            "(role r) (init (at 0)) (init on) (<= (legal r go) (true (at ?x)) (below ?x 600))
             (<= (next (at ?y)) (true (at ?x)) (succ ?x ?y)) (<= (next on) (true on))
             (<= (below ?x ?y) (true on) (succ ?x ?y)) (<= (below ?x ?z) (succ ?x ?y) (below ?y ?z))
             (<= terminal (true (at 600))) (goal r 100)",
        );
        for i in 0..600 {
            deep.push_str(&format!(" (succ {i} {})", i + 1));
        }
        let game = Game::parse(&deep).unwrap();
        let mut top = Prover::evaluating(&game, 10_000_000, true);
        let mut bottom = Prover::evaluating(&game, 10_000_000, false);
        let (a, b) = (top.initial_state(), bottom.initial_state());
        assert_eq!(top.legal_moves(&a, 0), bottom.legal_moves(&b, 0));
        assert_eq!(top.legal_moves(&a, 0).len(), 1);
        assert!(top.given_up() > 0, "600 nested calls are more than the evaluator nests");
    }

    /// Random stratified rule sets over a random graph state: relations
    /// `r0`…`r4` of two arguments, each defined by rules whose positive
    /// literals are the state's edges, a static relation, `distinct` and
    /// relations up to its own (recursion, through any of them), and whose
    /// negative literals are lower relations only.
    #[test]
    fn random_stratified_rules_agree() {
        let mut rng = SmallRng::seed_from_u64(19);
        let vars = ["?a", "?b", "?c"];
        for sheet in 0..60 {
            let mut text = String::from(
                "(role r) (init (e n1 n2)) (init (e n2 n3)) (init (e n3 n1))
                 (<= (legal r (toggle ?x ?y)) (n ?x) (n ?y))
                 (<= (next (e ?x ?y)) (does r (toggle ?x ?y)) (not (true (e ?x ?y))))
                 (<= (next (e ?x ?y)) (true (e ?x ?y)) (not (does r (toggle ?x ?y))))
                 (n n1) (n n2) (n n3) (n n4) (s n1 n2) (s n2 n3) (s n3 n4)
                 (<= terminal (r4 n1 n4)) (<= (goal r 100) (r3 n1 n1)) (<= (goal r 0) (not (r3 n1 n1)))",
            );
            for level in 0..5 {
                for _ in 0..rng.random_range(1..4) {
                    let mut body = Vec::new();
                    let mut bound: Vec<&str> = Vec::new();
                    for _ in 0..rng.random_range(1..4) {
                        let (x, y) = (vars[rng.random_range(0..3)], vars[rng.random_range(0..3)]);
                        let lit = match rng.random_range(0..4) {
                            0 => format!("(true (e {x} {y}))"),
                            1 => format!("(s {x} {y})"),
                            _ => format!("(r{} {x} {y})", rng.random_range(0..=level)),
                        };
                        body.push(lit);
                        bound.extend([x, y]);
                    }
                    if level > 0 && rng.random_bool(0.5) {
                        let (x, y) = (bound[rng.random_range(0..bound.len())], bound[rng.random_range(0..bound.len())]);
                        body.push(format!("(not (r{} {x} {y}))", rng.random_range(0..level)));
                    }
                    if rng.random_bool(0.3) {
                        let (x, y) = (bound[rng.random_range(0..bound.len())], bound[rng.random_range(0..bound.len())]);
                        body.push(format!("(distinct {x} {y})"));
                    }
                    let (x, y) = (bound[rng.random_range(0..bound.len())], bound[rng.random_range(0..bound.len())]);
                    text.push_str(&format!(" (<= (r{level} {x} {y}) {})", body.join(" ")));
                }
            }
            let game = Game::parse(&text).unwrap();
            assert_eq!(disagreement(&game, 4, 12, sheet), None, "{text}");
        }
    }
}
