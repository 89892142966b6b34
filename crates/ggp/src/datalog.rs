//! Bottom-up evaluation of normalised rules: strongly connected groups of
//! relations in dependency order, semi-naive iteration inside recursive
//! groups (so left recursion and cycles without a base case terminate), and
//! stratified negation.
//!
//! The same engine serves three purposes: the exact model of the rules that
//! do not depend on the state, the over-approximation of everything that can
//! ever hold (negation ignored) from which the game is grounded, and the
//! [`Prover`](crate::Prover), which evaluates every rule afresh in each state.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use crate::normalize::{Lit, NRule, Pat};
use crate::store::{Node, Pred, TermId, TermStore};

/// The atoms of one relation, in insertion order, indexed by each argument.
#[derive(Debug, Clone, Default)]
pub(crate) struct Relation {
    pub(crate) atoms: Vec<TermId>,
    position: HashMap<TermId, u32>,
    /// For each argument position: argument value → positions in `atoms`.
    index: Vec<HashMap<TermId, Vec<u32>>>,
}

impl Relation {
    fn insert(&mut self, atom: TermId, store: &TermStore) -> bool {
        if self.position.contains_key(&atom) {
            return false;
        }
        let at = u32::try_from(self.atoms.len()).expect("fewer than 2^32 atoms");
        self.atoms.push(atom);
        self.position.insert(atom, at);
        let args = store.args(atom);
        if self.index.len() < args.len() {
            self.index.resize_with(args.len(), HashMap::new);
        }
        for (i, a) in args.iter().enumerate() {
            self.index[i].entry(*a).or_default().push(at);
        }
        true
    }

    pub(crate) fn contains(&self, atom: TermId) -> bool {
        self.position.contains_key(&atom)
    }
}

/// A set of ground atoms, by relation. Relations are shared copy-on-write so
/// that a model can be cloned cheaply as the base of another.
#[derive(Debug, Clone, Default)]
pub(crate) struct Model {
    rels: HashMap<Pred, Arc<Relation>>,
}

impl Model {
    pub(crate) fn relation(&self, pred: Pred) -> Option<&Relation> {
        self.rels.get(&pred).map(|r| &**r)
    }

    /// The atoms of `pred`, in insertion order.
    pub(crate) fn atoms(&self, pred: Pred) -> &[TermId] {
        self.relation(pred).map_or(&[], |r| &r.atoms)
    }

    pub(crate) fn contains(&self, atom: TermId, store: &TermStore) -> bool {
        self.relation(store.pred(atom)).is_some_and(|r| r.contains(atom))
    }

    /// Adds `atom`; whether it is new.
    pub(crate) fn insert(&mut self, atom: TermId, store: &TermStore) -> bool {
        let rel = self.rels.entry(store.pred(atom)).or_default();
        if rel.contains(atom) {
            return false;
        }
        Arc::make_mut(rel).insert(atom, store)
    }
}

/// Which negative literals are checked: `Exact` checks all (stratified
/// semantics); `Only(f)` checks those whose relation satisfies `f` and takes
/// the others as true (an over-approximation).
pub(crate) enum Negation<'a> {
    Exact,
    Only(&'a dyn Fn(Pred) -> bool),
}

/// A rule set prepared for repeated evaluation: groups in dependency order
/// and join plans.
#[derive(Debug, Clone)]
pub(crate) struct Evaluator {
    rules: Vec<NRule>,
    groups: Vec<Group>,
}

#[derive(Debug, Clone)]
struct Group {
    rules: Vec<usize>,
    recursive: bool,
    /// For each rule of the group: the plan without a delta literal, and one
    /// per positive literal of a relation in the group.
    plans: Vec<RulePlans>,
    preds: Vec<Pred>,
}

/// A join order (body literal indices) without a delta literal, and one per
/// delta literal.
type RulePlans = (Vec<usize>, Vec<(usize, Vec<usize>)>);

/// Bindings of a rule's variables during a join.
type Bindings = Vec<Option<TermId>>;

impl Evaluator {
    pub(crate) fn new(rules: Vec<NRule>, store: &TermStore) -> Evaluator {
        let mut head_preds: Vec<Pred> = rules.iter().map(|r| r.head.pred(store)).collect();
        head_preds.sort();
        head_preds.dedup();
        let node_of: HashMap<Pred, usize> = head_preds.iter().enumerate().map(|(i, p)| (*p, i)).collect();
        let mut edges = vec![Vec::new(); head_preds.len()];
        for r in &rules {
            let h = node_of[&r.head.pred(store)];
            for l in &r.body {
                if let Lit::Pos(p) | Lit::Neg(p) = l
                    && let Some(&b) = node_of.get(&p.pred(store))
                {
                    edges[h].push(b);
                }
            }
        }
        let components = strongly_connected(&edges);
        let mut rules_of = vec![Vec::new(); head_preds.len()];
        for (i, r) in rules.iter().enumerate() {
            rules_of[node_of[&r.head.pred(store)]].push(i);
        }
        let mut groups = Vec::new();
        for component in components {
            let preds: Vec<Pred> = component.iter().map(|&n| head_preds[n]).collect();
            let in_group = |p: &Pat| preds.contains(&p.pred(store));
            let members: Vec<usize> = component.iter().flat_map(|&n| rules_of[n].iter().copied()).collect();
            let recursive = members
                .iter()
                .any(|&r| rules[r].body.iter().any(|l| matches!(l, Lit::Pos(p) | Lit::Neg(p) if in_group(p))));
            let plans = members
                .iter()
                .map(|&r| {
                    let rule = &rules[r];
                    let full = plan(rule, None);
                    let deltas = if recursive {
                        rule.body
                            .iter()
                            .enumerate()
                            .filter(|(_, l)| matches!(l, Lit::Pos(p) if in_group(p)))
                            .map(|(i, _)| (i, plan(rule, Some(i))))
                            .collect()
                    } else {
                        Vec::new()
                    };
                    (full, deltas)
                })
                .collect();
            groups.push(Group { rules: members, recursive, plans, preds });
        }
        Evaluator { rules, groups }
    }

    /// Adds to `model` everything the rules derive from it.
    #[cfg(test)]
    pub(crate) fn run(&self, store: &mut TermStore, model: &mut Model, negation: &Negation<'_>) {
        let mut unlimited = usize::MAX;
        self.run_limited(store, model, negation, &mut unlimited);
    }

    /// Adds to `model` everything the rules derive from it, but stops once
    /// `budget` new atoms have been derived (leaving `budget` at zero):
    /// invalid games can define infinite relations.
    pub(crate) fn run_limited(
        &self,
        store: &mut TermStore,
        model: &mut Model,
        negation: &Negation<'_>,
        budget: &mut usize,
    ) {
        for group in &self.groups {
            let mut derived = Vec::new();
            for (k, &r) in group.rules.iter().enumerate() {
                let rule = &self.rules[r];
                let join = Join { store: &*store, model: &*model, rule, negation, delta: None };
                join.solutions(&group.plans[k].0, &mut |b| {
                    if derived.len() < *budget {
                        derived.push(instantiate_collect(&rule.head, b));
                    }
                });
            }
            let mut fresh = insert_all(store, model, &rule_heads(derived), budget);
            if !group.recursive {
                continue;
            }
            // Semi-naive: each round joins at least one literal against the
            // atoms that are new since the previous round.
            while *budget > 0 && fresh.values().any(|r| !r.is_empty()) {
                let mut derived = Vec::new();
                for (k, &r) in group.rules.iter().enumerate() {
                    let rule = &self.rules[r];
                    for (lit, plan) in &group.plans[k].1 {
                        let Lit::Pos(p) = &rule.body[*lit] else { unreachable!("delta literals are positive") };
                        let Some(range) = fresh.get(&p.pred(store)).filter(|r| !r.is_empty()) else { continue };
                        let join =
                            Join { store: &*store, model: &*model, rule, negation, delta: Some((*lit, range.clone())) };
                        join.solutions(plan, &mut |b| {
                            if derived.len() < *budget {
                                derived.push(instantiate_collect(&rule.head, b));
                            }
                        });
                    }
                }
                fresh = insert_all(store, model, &rule_heads(derived), budget);
                fresh.retain(|p, _| group.preds.contains(p));
            }
            if *budget == 0 {
                return;
            }
        }
    }
}

/// Inserts the heads; the new atoms' positions, by relation. Each new atom
/// costs one unit of `budget`.
fn insert_all(
    store: &mut TermStore,
    model: &mut Model,
    heads: &[Built],
    budget: &mut usize,
) -> HashMap<Pred, Range<u32>> {
    let mut fresh: HashMap<Pred, Range<u32>> = HashMap::new();
    for built in heads {
        if *budget == 0 {
            break;
        }
        let atom = built.intern(store);
        let pred = store.pred(atom);
        let before = model.atoms(pred).len() as u32;
        if model.insert(atom, store) {
            *budget -= 1;
            fresh.entry(pred).or_insert(before..before).end = before + 1;
        }
    }
    fresh
}

/// A head instance not yet interned (interning needs the store mutably, which
/// the join borrows).
enum Built {
    Id(TermId),
    App(crate::symbol::Sym, Vec<Built>),
}

impl Built {
    fn intern(&self, store: &mut TermStore) -> TermId {
        match self {
            Built::Id(id) => *id,
            Built::App(name, args) => {
                let args: Vec<TermId> = args.iter().map(|a| a.intern(store)).collect();
                store.app(*name, &args)
            }
        }
    }
}

fn instantiate_collect(pat: &Pat, b: &[Option<TermId>]) -> Option<Built> {
    Some(match pat {
        Pat::Var(v) => Built::Id(b[*v as usize]?),
        Pat::Ground(id) => Built::Id(*id),
        Pat::App(name, args) => {
            Built::App(*name, args.iter().map(|a| instantiate_collect(a, b)).collect::<Option<_>>()?)
        }
    })
}

fn rule_heads(derived: Vec<Option<Built>>) -> Vec<Built> {
    derived.into_iter().flatten().collect()
}

/// Interns the instance of `pat` under `b` (all its variables bound).
pub(crate) fn instantiate(pat: &Pat, b: &[Option<TermId>], store: &mut TermStore) -> Option<TermId> {
    Some(instantiate_collect(pat, b)?.intern(store))
}

/// The order in which to evaluate a rule's body: the delta literal first,
/// then positive literals greedily by how bound they are, each negative or
/// `distinct` literal as soon as its variables are bound (those never bound —
/// unsafe rules — last).
fn plan(rule: &NRule, delta: Option<usize>) -> Vec<usize> {
    let vars_of = |i: usize| {
        let mut v = Vec::new();
        rule.body[i].vars(&mut v);
        v
    };
    let mut bound: Vec<u16> = Vec::new();
    let mut order = Vec::new();
    let mut positives: Vec<usize> =
        (0..rule.body.len()).filter(|&i| matches!(rule.body[i], Lit::Pos(_)) && Some(i) != delta).collect();
    let mut filters: Vec<usize> = (0..rule.body.len()).filter(|&i| !matches!(rule.body[i], Lit::Pos(_))).collect();
    let place_filters = |bound: &Vec<u16>, filters: &mut Vec<usize>, order: &mut Vec<usize>| {
        filters.retain(|&f| {
            if vars_of(f).iter().all(|v| bound.contains(v)) {
                order.push(f);
                false
            } else {
                true
            }
        });
    };
    place_filters(&bound, &mut filters, &mut order);
    if let Some(d) = delta {
        order.push(d);
        bound.extend(vars_of(d));
        place_filters(&bound, &mut filters, &mut order);
    }
    while !positives.is_empty() {
        let (k, _) = positives
            .iter()
            .enumerate()
            .min_by_key(|&(k, &i)| {
                let vars = vars_of(i);
                let unbound = vars.iter().filter(|v| !bound.contains(v)).count();
                let bound_count = vars.len() - unbound;
                (unbound > 0, usize::MAX - bound_count, unbound, k)
            })
            .expect("positives is not empty");
        let i = positives.remove(k);
        order.push(i);
        for v in vars_of(i) {
            if !bound.contains(&v) {
                bound.push(v);
            }
        }
        place_filters(&bound, &mut filters, &mut order);
    }
    order.extend(filters);
    order
}

/// One join of a rule body against a model.
pub(crate) struct Join<'a> {
    pub(crate) store: &'a TermStore,
    pub(crate) model: &'a Model,
    pub(crate) rule: &'a NRule,
    pub(crate) negation: &'a Negation<'a>,
    /// A literal restricted to a range of its relation's atoms.
    pub(crate) delta: Option<(usize, Range<u32>)>,
}

impl Join<'_> {
    /// Calls `found` with the bindings of every solution, following `plan`.
    pub(crate) fn solutions(&self, plan: &[usize], found: &mut dyn FnMut(&[Option<TermId>])) {
        let mut b: Bindings = vec![None; self.rule.vars];
        let mut trail = Vec::new();
        self.step(plan, &mut b, &mut trail, found);
    }

    /// The plan the evaluator would use, for callers joining a single rule.
    pub(crate) fn default_plan(&self) -> Vec<usize> {
        plan(self.rule, self.delta.as_ref().map(|d| d.0))
    }

    fn step(&self, plan: &[usize], b: &mut Bindings, trail: &mut Vec<u16>, found: &mut dyn FnMut(&[Option<TermId>])) {
        let Some((&i, rest)) = plan.split_first() else {
            found(b);
            return;
        };
        match &self.rule.body[i] {
            Lit::Pos(p) => {
                let range = match &self.delta {
                    Some((d, r)) if *d == i => Some(r.clone()),
                    _ => None,
                };
                self.each_match(p, range, b, trail, &mut |b, trail| self.step(rest, b, trail, found));
            }
            Lit::Neg(p) => {
                let checked = match self.negation {
                    Negation::Exact => true,
                    Negation::Only(f) => f(p.pred(self.store)),
                };
                if !checked || !self.holds(p, b) {
                    self.step(rest, b, trail, found);
                }
            }
            Lit::Distinct(x, y) => {
                if !equal(self.store, x, y, b) {
                    self.step(rest, b, trail, found);
                }
            }
            Lit::Same(x, y) => {
                if equal(self.store, x, y, b) {
                    self.step(rest, b, trail, found);
                }
            }
        }
    }

    /// Whether some atom of the model matches `p` under `b`.
    fn holds(&self, p: &Pat, b: &mut Bindings) -> bool {
        let mut any = false;
        let mut trail = Vec::new();
        self.each_match(p, None, b, &mut trail, &mut |_, _| any = true);
        any
    }

    fn each_match(
        &self,
        p: &Pat,
        range: Option<Range<u32>>,
        b: &mut Bindings,
        trail: &mut Vec<u16>,
        then: &mut dyn FnMut(&mut Bindings, &mut Vec<u16>),
    ) {
        let Some(rel) = self.model.relation(p.pred(self.store)) else { return };
        let in_range = |at: u32| range.as_ref().is_none_or(|r| r.contains(&at));
        match resolve(self.store, p, b) {
            Resolved::Ground(id) => {
                if rel.position.get(&id).is_some_and(|&at| in_range(at)) {
                    then(b, trail);
                }
                return;
            }
            Resolved::Absent => return,
            Resolved::Open => {}
        }
        let Pat::App(_, args) = p else { unreachable!("open patterns are applications") };
        let mut candidates: Option<&[u32]> = None;
        for (k, a) in args.iter().enumerate() {
            match resolve(self.store, a, b) {
                Resolved::Ground(id) => {
                    let list = rel.index.get(k).and_then(|ix| ix.get(&id)).map_or(&[][..], |v| &v[..]);
                    if candidates.is_none_or(|c| list.len() < c.len()) {
                        candidates = Some(list);
                    }
                }
                Resolved::Absent => return,
                Resolved::Open => {}
            }
        }
        let mark = trail.len();
        let mut try_atom = |at: u32, b: &mut Bindings, trail: &mut Vec<u16>| {
            if !in_range(at) {
                return;
            }
            if match_pat(self.store, p, rel.atoms[at as usize], b, trail) {
                then(b, trail);
            }
            while trail.len() > mark {
                let v = trail.pop().expect("trail is longer than mark");
                b[v as usize] = None;
            }
        };
        match candidates {
            Some(list) => list.iter().for_each(|&at| try_atom(at, b, trail)),
            None => {
                let all = match &range {
                    Some(r) => r.clone(),
                    None => 0..rel.atoms.len() as u32,
                };
                all.for_each(|at| try_atom(at, b, trail));
            }
        }
    }
}

enum Resolved {
    /// Ground, and this term exists.
    Ground(TermId),
    /// Ground, but no such term exists anywhere, so it holds nowhere.
    Absent,
    /// Contains an unbound variable.
    Open,
}

fn resolve(store: &TermStore, p: &Pat, b: &[Option<TermId>]) -> Resolved {
    match p {
        Pat::Var(v) => b[*v as usize].map_or(Resolved::Open, Resolved::Ground),
        Pat::Ground(id) => Resolved::Ground(*id),
        Pat::App(name, args) => {
            let mut ids = Vec::with_capacity(args.len());
            let mut open = false;
            for a in args.iter() {
                match resolve(store, a, b) {
                    Resolved::Ground(id) => ids.push(id),
                    Resolved::Absent => return Resolved::Absent,
                    Resolved::Open => open = true,
                }
            }
            if open {
                return Resolved::Open;
            }
            store.find(&Node::App(*name, ids.into())).map_or(Resolved::Absent, Resolved::Ground)
        }
    }
}

/// Matches `p` against the ground term `t`, binding variables (recorded on
/// the trail).
pub(crate) fn match_pat(store: &TermStore, p: &Pat, t: TermId, b: &mut Bindings, trail: &mut Vec<u16>) -> bool {
    match p {
        Pat::Var(v) => match b[*v as usize] {
            Some(x) => x == t,
            None => {
                b[*v as usize] = Some(t);
                trail.push(*v);
                true
            }
        },
        Pat::Ground(id) => *id == t,
        Pat::App(name, args) => match store.node(t) {
            Node::App(n, targs) if n == name && targs.len() == args.len() => {
                args.iter().zip(targs.iter()).all(|(a, t)| match_pat(store, a, *t, b, trail))
            }
            _ => false,
        },
    }
}

/// Syntactic equality of two patterns under `b`; an unbound variable equals
/// only itself (as in a top-down prover comparing unbound terms).
fn equal(store: &TermStore, x: &Pat, y: &Pat, b: &[Option<TermId>]) -> bool {
    enum V<'a> {
        P(&'a Pat),
        T(TermId),
    }
    fn norm<'a>(v: V<'a>, b: &[Option<TermId>]) -> V<'a> {
        match v {
            V::P(Pat::Var(i)) => b[*i as usize].map_or(v, V::T),
            V::P(Pat::Ground(id)) => V::T(*id),
            other => other,
        }
    }
    fn eq(store: &TermStore, x: V<'_>, y: V<'_>, b: &[Option<TermId>]) -> bool {
        match (norm(x, b), norm(y, b)) {
            (V::T(a), V::T(c)) => a == c,
            (V::P(Pat::Var(i)), V::P(Pat::Var(j))) => i == j,
            (V::P(Pat::Var(_)), _) | (_, V::P(Pat::Var(_))) => false,
            (V::P(Pat::App(f, xs)), V::P(Pat::App(g, ys))) => {
                f == g && xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(p, q)| eq(store, V::P(p), V::P(q), b))
            }
            (V::P(Pat::App(f, xs)), V::T(t)) | (V::T(t), V::P(Pat::App(f, xs))) => match store.node(t) {
                Node::App(g, ts) if g == f && ts.len() == xs.len() => {
                    xs.iter().zip(ts.iter()).all(|(p, t)| eq(store, V::P(p), V::T(*t), b))
                }
                _ => false,
            },
            _ => unreachable!("ground patterns are normalised to terms"),
        }
    }
    eq(store, V::P(x), V::P(y), b)
}

/// Tarjan's algorithm; components come out dependencies first.
pub(crate) fn strongly_connected(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = edges.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // Iterative depth-first search: (node, next edge to visit).
        let mut work = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut e)) = work.last_mut() {
            if *e < edges[v].len() {
                let w = edges[v][*e];
                *e += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut component = Vec::new();
                    loop {
                        let w = stack.pop().expect("v is on the stack");
                        on_stack[w] = false;
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    out.push(component);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::normalize::Program;

    fn model_of(text: &str) -> (Program, Model) {
        let mut program = Program::new(&Game::parse(text).unwrap());
        let evaluator = Evaluator::new(program.rules.clone(), &program.store);
        let mut model = Model::default();
        evaluator.run(&mut program.store, &mut model, &Negation::Exact);
        (program, model)
    }

    fn count(program: &Program, model: &Model, name: &str, arity: usize) -> usize {
        let sym = program.symbols.lookup(name).unwrap();
        model.atoms(Pred::new(sym, arity)).len()
    }

    #[test]
    fn left_recursion_terminates() {
        let (p, m) = model_of(
            "(succ 0 1) (succ 1 2) (succ 2 3) (<= (smaller ?x ?y) (succ ?x ?y)) \
             (<= (smaller ?x ?y) (smaller ?z ?y) (succ ?x ?z))",
        );
        assert_eq!(count(&p, &m, "smaller", 2), 6);
    }

    #[test]
    fn cycles_without_base_case_are_empty() {
        let (p, m) = model_of("(<= (p a) (p b)) (<= (p b) (p a)) (q 0) (<= (r ?x) (r ?x) (q ?x))");
        assert_eq!(count(&p, &m, "p", 1), 0);
        assert_eq!(count(&p, &m, "r", 1), 0);
    }

    #[test]
    fn stratified_negation_and_distinct() {
        let (p, m) = model_of(
            "(n 1) (n 2) (n 3) (even 2) (<= (odd ?x) (n ?x) (not (even ?x))) \
             (<= (pair ?x ?y) (distinct ?x ?y) (odd ?x) (odd ?y))",
        );
        assert_eq!(count(&p, &m, "odd", 1), 2);
        assert_eq!(count(&p, &m, "pair", 2), 2);
    }

    #[test]
    fn function_terms_in_recursion() {
        let (p, m) = model_of("(r 0 0) (q 0) (<= (r ?v1 (f ?v1)) (r ?v2 ?v1) (q ?v2)) (<= ok (r (f 0) (f (f 0))))");
        let ok = p.symbols.lookup("ok").unwrap();
        assert_eq!(m.atoms(Pred::proposition(ok)).len(), 1);
    }

    #[test]
    fn tarjan_orders_dependencies_first() {
        let edges = vec![vec![1], vec![2], vec![1], vec![]];
        let sccs = strongly_connected(&edges);
        let pos = |n: usize| sccs.iter().position(|c| c.contains(&n)).unwrap();
        assert!(pos(1) < pos(0));
        assert_eq!(pos(1), pos(2));
    }
}
