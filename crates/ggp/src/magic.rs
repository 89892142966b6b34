//! Demand: rewriting rules so that bottom-up evaluation derives only what a
//! query needs (the "magic sets" transformation of deductive databases).
//!
//! Bottom-up evaluation computes every relation in full, although a rule
//! such as chess's
//!
//! ```text
//! (<= (legal ?p (move ?piece ?u ?v ?x ?y)) … (true (cell ?kx ?ky ?king))
//!     (not (threatened_with_capture ?p ?x ?y ?kx ?ky ?u ?v)))
//! ```
//!
//! only ever asks about the few `threatened_with_capture` atoms whose
//! arguments the literals before it bind — millions fewer than the relation
//! holds. A top-down prover passes those bindings down; here they become
//! *demand* relations. For a relation `q` asked with some arguments bound (an
//! *adornment*: which top-level arguments are bound), `demand q` holds the
//! bound values asked for; each rule for `q` gets `demand q` as its first
//! literal; and each rule body that asks about `q` defines `demand q` from the
//! literals that bind those arguments (the join order of [`join_order`] is
//! the order bindings pass in). A relation asked with nothing bound is
//! computed in full, as before, and needs no demand relation.
//!
//! The derived atoms of a relation asked with several adornments land in the
//! one relation, and every atom derived is true: the rewritten rules derive a
//! subset of what the original ones do, and every atom a query depends on.
//! Negative literals get demand too, but never pass it on through a negative
//! literal of a rewritten relation, which keeps stratified rules stratified
//! in practice (callers that need exact negation check it:
//! [`crate::datalog::Evaluator::is_stratified`]).

use std::collections::{HashMap, HashSet};

use crate::datalog::{join_order, lit_vars, strongly_connected};
use crate::limits::{Limits, OutOfLimits, unlimited};
use crate::normalize::{Lit, NRule, Pat};
use crate::store::{Pred, TermStore};
use crate::symbol::{Symbols, kw};

/// Which top-level arguments of a literal are bound.
pub(crate) type Adornment = Vec<bool>;

/// Rules rewritten for demand.
#[derive(Debug, Clone)]
pub(crate) struct Demand {
    /// The rewritten rules: those of the relations the queries depend on,
    /// with demand literals, and the rules of the demand relations.
    pub(crate) rules: Vec<NRule>,
    /// The demand relations, which hold no facts of the game.
    pub(crate) demand: HashSet<Pred>,
    /// For each query, the demand relation to seed with the bound arguments
    /// asked about (`None` when the query is computed in full).
    pub(crate) seeds: Vec<Option<Pred>>,
}

/// Rewrites `rules` for the `queries` (a relation and which of its
/// arguments will be bound), `size` estimating relation sizes for the join
/// orders. Relations that `rules` do not define are taken as given.
pub(crate) fn transform(
    rules: &[NRule],
    queries: &[(Pred, Adornment)],
    store: &mut TermStore,
    symbols: &mut Symbols,
    size: &dyn Fn(Pred) -> usize,
) -> Demand {
    unlimited(transform_within(rules, queries, store, symbols, size, false, Limits::none()))
}

/// How many times the merged adornments are refined at most (each round can
/// only clear bits; a round that clears none ends it).
const MERGE_ROUNDS: usize = 8;

/// As [`transform`], within `limits`: checked before each relation and
/// adornment is walked or rewritten (the work grows with the rules and the
/// ways they are asked: milliseconds for chess).
///
/// With `merge`, a relation asked with several adornments is asked with the
/// arguments that all of them bind, where there are some: one copy of its
/// rules instead of one per adornment. What the demand relations hold is
/// then a superset, and the copies no longer derive the same atoms over and
/// over (amazons' "move ignoring a square", asked from either end of a line,
/// derives every ray once instead of once per end).
///
/// ```text
/// (q a b) asked with a bound in one rule and with a and b in another
///     → one demand relation over a (with merge)
/// ```
pub(crate) fn transform_within(
    rules: &[NRule],
    queries: &[(Pred, Adornment)],
    store: &mut TermStore,
    symbols: &mut Symbols,
    size: &dyn Fn(Pred) -> usize,
    merge: bool,
    limits: Limits,
) -> Result<Demand, OutOfLimits> {
    let mut rules_of: HashMap<Pred, Vec<usize>> = HashMap::new();
    for (i, r) in rules.iter().enumerate() {
        rules_of.entry(r.head.pred(store)).or_default().push(i);
    }
    let group = recursion_groups(rules, &rules_of, store);
    let relations = Relations {
        defined: &|q| rules_of.contains_key(&q),
        recursive: &|p, q| matches!((group.get(&p), group.get(&q)), (Some(a), Some(b)) if a == b),
    };
    let partial = |a: &Adornment| a.iter().any(|&b| b);
    // With `merge`, each relation's adornment replaced by the bits that all
    // its adornments bind (when some are), found by rounds of pass 1.
    let mut merged: HashMap<Pred, Adornment> = HashMap::new();
    let coarsen = |merged: &HashMap<Pred, Adornment>, p: Pred, a: Adornment| match merged.get(&p) {
        Some(m) if m.iter().zip(&a).all(|(&m, &b)| b || !m) => m.clone(),
        _ => a,
    };
    // Pass 1: which relations are asked about in full somewhere (they are
    // then computed in full, and their other adornments need no rules).
    let mut full: HashSet<Pred> = HashSet::new();
    for round in 0..if merge { MERGE_ROUNDS } else { 1 } {
        full.clear();
        let mut seen: HashSet<(Pred, Adornment)> = HashSet::new();
        let mut work: Vec<(Pred, Adornment)> = queries.to_vec();
        while let Some((p, a)) = work.pop() {
            if let Some(why) = limits.exceeded() {
                return Err(why);
            }
            let a = coarsen(&merged, p, a);
            let first = if partial(&a) { seen.insert((p, a.clone())) } else { full.insert(p) };
            if !first {
                continue;
            }
            for &r in rules_of.get(&p).map_or(&[][..], |v| v) {
                walk(&rules[r], &a, store, size, &relations, &mut |q, b, _| work.push((q, b)));
            }
        }
        if !merge || round + 1 == MERGE_ROUNDS {
            break;
        }
        let mut changed = false;
        let mut common: HashMap<Pred, Adornment> = HashMap::new();
        for (p, a) in &seen {
            let c = common.entry(*p).or_insert_with(|| a.clone());
            for (c, &b) in c.iter_mut().zip(a) {
                *c &= b;
            }
        }
        for (p, c) in common {
            if partial(&c) && merged.get(&p) != Some(&c) {
                merged.insert(p, c);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Pass 2: the rules.
    let mut out = Vec::new();
    let mut demand_of: HashMap<(Pred, Adornment), Pred> = HashMap::new();
    let mut demand_pred = |p: Pred, a: &Adornment, symbols: &mut Symbols| {
        *demand_of.entry((p, a.clone())).or_insert_with(|| {
            let name = symbols.fresh(&format!("demand {}", symbols.name(p.name)));
            Pred::new(name, a.iter().filter(|&&b| b).count())
        })
    };
    let mut emitted: HashSet<(Pred, Adornment)> = HashSet::new();
    let mut seeds = Vec::new();
    let mut work: Vec<(Pred, Adornment)> = Vec::new();
    for (p, a) in queries {
        let a = &coarsen(&merged, *p, a.clone());
        if full.contains(p) || !partial(a) {
            seeds.push(None);
            work.push((*p, vec![false; a.len()]));
        } else {
            seeds.push(Some(demand_pred(*p, a, symbols)));
            work.push((*p, a.clone()));
        }
    }
    while let Some((p, a)) = work.pop() {
        if let Some(why) = limits.exceeded() {
            return Err(why);
        }
        let a = if full.contains(&p) { vec![false; a.len()] } else { coarsen(&merged, p, a) };
        if !emitted.insert((p, a.clone())) {
            continue;
        }
        for &r in rules_of.get(&p).map_or(&[][..], |v| v) {
            let rule = &rules[r];
            let head_demand = partial(&a).then(|| {
                let d = demand_pred(p, &a, symbols);
                Lit::Pos(demand_pattern(&rule.head, &a, d, store))
            });
            let mut asked = Vec::new();
            walk(rule, &a, store, size, &relations, &mut |q, b, prior| {
                asked.push((q, b, prior.0, prior.1.to_vec()));
            });
            for (q, b, at, prior) in asked {
                let b = coarsen(&merged, q, b);
                if full.contains(&q) || !partial(&b) {
                    work.push((q, vec![false; b.len()]));
                    continue;
                }
                let (Lit::Pos(lit) | Lit::Neg(lit)) = &rule.body[at] else { unreachable!("asked literals are atoms") };
                let d = demand_pred(q, &b, symbols);
                let head = demand_pattern(lit, &b, d, store);
                let body = head_demand.iter().cloned().chain(prior.iter().map(|&i| rule.body[i].clone())).collect();
                out.push(NRule { head, body, vars: rule.vars });
                work.push((q, b));
            }
            let body = head_demand.into_iter().chain(rule.body.iter().cloned()).collect();
            out.push(NRule { head: rule.head.clone(), body, vars: rule.vars });
        }
    }
    let demand = demand_of.into_values().collect();
    out.dedup();
    Ok(Demand { rules: out, demand, seeds })
}

/// What [`walk`] needs to know of the relations: which ones the rules
/// define, and which are recursive together (in one strongly connected
/// group of the dependency graph).
struct Relations<'a> {
    defined: &'a dyn Fn(Pred) -> bool,
    recursive: &'a dyn Fn(Pred, Pred) -> bool,
}

/// Each defined relation's strongly connected group of the dependency graph:
/// relations defined in terms of each other share a group. Recursion through
/// the state does not count (the grounder defines `true` from `next` and
/// `does` from `legal`, which would put nearly every relation of a game in
/// one group): only recursion within a state does.
fn recursion_groups(rules: &[NRule], rules_of: &HashMap<Pred, Vec<usize>>, store: &TermStore) -> HashMap<Pred, usize> {
    let preds: Vec<Pred> = rules_of.keys().copied().collect();
    let node: HashMap<Pred, usize> = preds.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    let edges: Vec<Vec<usize>> = preds
        .iter()
        .map(|p| {
            let body = rules_of[p].iter().flat_map(|&r| rules[r].body.iter());
            body.filter_map(|lit| match lit {
                Lit::Pos(q) | Lit::Neg(q) if !matches!(q.pred(store).name, kw::TRUE | kw::DOES) => {
                    node.get(&q.pred(store)).copied()
                }
                _ => None,
            })
            .collect()
        })
        .collect();
    let mut group = HashMap::new();
    for (k, component) in strongly_connected(&edges).into_iter().enumerate() {
        for i in component {
            group.insert(preds[i], k);
        }
    }
    group
}

/// What [`walk`] reports for each literal asking about a defined relation:
/// the relation, the adornment, and (the literal, the literals before it that
/// bind its arguments).
type Asked<'a> = dyn FnMut(Pred, Adornment, (usize, &[usize])) + 'a;

/// Which literals of `rule`'s body ask about relations `defined`, and with
/// what bound, when the head is asked with adornment `a`: `asked` gets the
/// relation, the adornment, and (the literal, the literals before it that
/// bind its arguments). Bindings pass in the order of [`demand_order`].
fn walk(
    rule: &NRule,
    a: &Adornment,
    store: &TermStore,
    size: &dyn Fn(Pred) -> usize,
    relations: &Relations<'_>,
    asked: &mut Asked<'_>,
) {
    let defined = relations.defined;
    let mut bound: Vec<u16> = Vec::new();
    for (i, arg) in args_of(&rule.head, store).iter().enumerate() {
        if a.get(i).copied().unwrap_or(false) {
            arg.vars(&mut bound);
        }
    }
    let order = demand_order(rule, a, &bound, store, size, relations);
    let mut prior: Vec<usize> = Vec::new();
    for i in order {
        let lit = &rule.body[i];
        let all_bound = |bound: &[u16]| lit_vars(lit).iter().all(|v| bound.contains(v));
        match lit {
            Lit::Pos(p) | Lit::Neg(p) if defined(p.pred(store)) => {
                let b = adornment(p, &bound, store);
                asked(p.pred(store), b, (i, &prior));
            }
            _ => {}
        }
        match lit {
            Lit::Pos(p) => {
                p.vars(&mut bound);
                prior.push(i);
            }
            Lit::Neg(p) if !defined(p.pred(store)) && all_bound(&bound) => prior.push(i),
            Lit::Distinct(..) | Lit::Same(..) if all_bound(&bound) => prior.push(i),
            _ => {}
        }
    }
}

/// The order in which bindings pass through the body of `rule`, its head
/// asked with adornment `a` (binding the variables `initially`): the join
/// order of [`join_order`], except that a recursive call that would be
/// asked with less bound than its head was waits for the literals that can
/// bind what it lacks.
///
/// A positive literal on a relation recursive with the head *loses a
/// binding* when it would be asked with an argument free that the head's
/// adornment binds (for a relation of another arity: with fewer arguments
/// bound). Such a literal waits, while it loses one, for a positive literal
/// that shares one of its unbound variables and is anchored (has a bound
/// variable or a constant), which then binds it first. A call that loses no
/// binding keeps the join order: a ray asked from its target end (its start
/// free, the target bound) asks its recursive call the same way at each
/// step, and chess's rays are evaluated as before.
///
/// The join order reads estimated sizes, which say little about a relation
/// derived per query, while a recursive relation asked with an argument free
/// is derived for every value of it: laikLee_hex's
///
/// ```text
/// (<= (connection ?x1 ?y1 ?x2 ?y2 ?c ?list)
///     (id ?x1 ?y1 ?id) (append_el ?id ?list ?list2) (connection2 ?x1 ?y1 ?x2 ?y2 ?c ?list2))
/// ```
///
/// asked with `?list` bound must ask `connection2` with the list `append_el`
/// builds; asked with the list free, `connection2` would ask its `(isList
/// ?list)` with nothing bound, and every list of up to 25 cells is derived.
fn demand_order(
    rule: &NRule,
    a: &Adornment,
    initially: &[u16],
    store: &TermStore,
    size: &dyn Fn(Pred) -> usize,
    relations: &Relations<'_>,
) -> Vec<usize> {
    let plain = join_order(rule, initially, store, size);
    let head = rule.head.pred(store);
    let head_bound = a.iter().filter(|&&b| b).count();
    let vars_of = |i: usize| lit_vars(&rule.body[i]);
    // Whether the recursive literal `i` would lose a binding of the head.
    let loses = |i: usize, bound: &[u16]| {
        let Lit::Pos(p) = &rule.body[i] else { return false };
        let q = p.pred(store);
        if !(relations.defined)(q) || !(relations.recursive)(q, head) {
            return false;
        }
        let b = adornment(p, bound, store);
        if b.len() == a.len() {
            a.iter().zip(&b).any(|(&asked, &now)| asked && !now)
        } else {
            b.iter().filter(|&&x| x).count() < head_bound
        }
    };
    if head_bound == 0 || !plain.iter().any(|&i| loses(i, initially)) {
        return plain;
    }
    let (mut positives, mut filters): (Vec<usize>, Vec<usize>) =
        plain.into_iter().partition(|&i| matches!(rule.body[i], Lit::Pos(_)));
    let mut bound: Vec<u16> = initially.to_vec();
    let mut order = Vec::with_capacity(rule.body.len());
    let place_filters = |bound: &[u16], filters: &mut Vec<usize>, order: &mut Vec<usize>| {
        filters.retain(|&f| {
            let ready = vars_of(f).iter().all(|v| bound.contains(v));
            if ready {
                order.push(f);
            }
            !ready
        });
    };
    place_filters(&bound, &mut filters, &mut order);
    while !positives.is_empty() {
        // Literal `j` can bind some of literal `i`'s unbound variables.
        let binds = |j: usize, i: usize| {
            let Lit::Pos(q) = &rule.body[j] else { return false };
            let vars = vars_of(j);
            let anchored = has_constant(q) || vars.iter().any(|v| bound.contains(v));
            let wanted = vars_of(i);
            j != i && anchored && vars.iter().any(|v| !bound.contains(v) && wanted.contains(v))
        };
        let waits = |i: usize| loses(i, &bound) && positives.iter().any(|&j| binds(j, i));
        let k = positives.iter().position(|&i| !waits(i)).unwrap_or(0);
        let i = positives.remove(k);
        for v in vars_of(i) {
            if !bound.contains(&v) {
                bound.push(v);
            }
        }
        order.push(i);
        place_filters(&bound, &mut filters, &mut order);
    }
    order.extend(filters);
    order
}

/// Whether a sentence pattern has a constant among its arguments.
fn has_constant(p: &Pat) -> bool {
    match p {
        Pat::Ground(_) => true,
        Pat::App(_, args) => args.iter().any(|arg| match arg {
            Pat::Var(_) => false,
            Pat::Ground(_) => true,
            Pat::App(..) => has_constant(arg),
        }),
        Pat::Var(_) => false,
    }
}

/// The top-level arguments of a sentence pattern.
fn args_of(p: &Pat, store: &TermStore) -> Vec<Pat> {
    match p {
        Pat::App(_, args) => args.to_vec(),
        Pat::Ground(id) => store.args(*id).iter().map(|&t| Pat::Ground(t)).collect(),
        Pat::Var(_) => unreachable!("a sentence is never a variable"),
    }
}

/// Which arguments of `p` are bound when the variables `bound` are.
fn adornment(p: &Pat, bound: &[u16], store: &TermStore) -> Adornment {
    args_of(p, store)
        .iter()
        .map(|arg| {
            let mut vars = Vec::new();
            arg.vars(&mut vars);
            vars.iter().all(|v| bound.contains(v))
        })
        .collect()
}

/// `(d args…)`: the bound arguments of `p` under adornment `a`, as a
/// sentence of the demand relation `d`.
fn demand_pattern(p: &Pat, a: &Adornment, d: Pred, store: &mut TermStore) -> Pat {
    let args: Vec<Pat> = args_of(p, store).into_iter().zip(a).filter(|(_, b)| **b).map(|(arg, _)| arg).collect();
    let ground: Option<Vec<_>> =
        args.iter().map(|arg| if let Pat::Ground(id) = arg { Some(*id) } else { None }).collect();
    match ground {
        Some(ids) => Pat::Ground(store.app(d.name, &ids)),
        None => Pat::App(d.name, args.into_boxed_slice()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datalog::{Budget, Evaluator, Model, Negation};
    use crate::game::Game;
    use crate::normalize::Program;

    /// A program of the tests: its rules with a body, and the model of its
    /// facts.
    struct Fixture {
        /// The program, whose store and symbols the rewriting extends.
        program: Program,
        /// Its rules with a body.
        rules: Vec<NRule>,
        /// The model of its facts.
        statics: Model,
    }

    impl Fixture {
        /// The program of the rules `text`, its facts evaluated.
        fn new(text: &str) -> Fixture {
            let mut program = Program::new(&Game::parse(text).unwrap());
            let (facts, rules): (Vec<NRule>, Vec<NRule>) =
                program.rules.iter().cloned().partition(|r| r.body.is_empty());
            let mut statics = Model::default();
            Evaluator::run_once(facts, &mut program.store, &mut statics, &Negation::Exact, &mut Budget::unlimited());
            Fixture { program, rules, statics }
        }

        /// The relation `name` of `arity` arguments.
        fn pred(&self, name: &str, arity: usize) -> Pred {
            Pred::new(self.program.symbols.lookup(name).unwrap(), arity)
        }

        /// The rules rewritten for `queries` ([`transform`]).
        fn demand(&mut self, queries: &[(Pred, Adornment)], size: &dyn Fn(Pred) -> usize) -> Demand {
            transform(&self.rules, queries, &mut self.program.store, &mut self.program.symbols, size)
        }

        /// The model of `rules` over the facts, evaluated within `budget`.
        fn model(&mut self, rules: Vec<NRule>, budget: &mut Budget) -> Model {
            let mut model = self.statics.clone();
            Evaluator::run_once(rules, &mut self.program.store, &mut model, &Negation::Exact, budget);
            model
        }

        /// The model of the rules as written: the oracle.
        fn full(&mut self) -> Model {
            self.model(self.rules.clone(), &mut Budget::unlimited())
        }

        /// The atoms of `p` in `model`, written out and sorted.
        fn names(&self, model: &Model, p: Pred) -> Vec<String> {
            let program = &self.program;
            let mut v: Vec<String> =
                model.atoms(p).iter().map(|&a| program.store.to_term(a, &program.symbols).to_string()).collect();
            v.sort();
            v
        }
    }

    /// Every atom of `pred` that the full program derives and the demand
    /// program too, for a query asking with the given adornment.
    #[test]
    fn demand_derives_what_is_asked_and_no_more() {
        let text = "(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
            (<= (lt ?x ?y) (succ ?x ?y)) (<= (lt ?x ?z) (succ ?x ?y) (lt ?y ?z))
            (<= (small ?x) (lt ?x 3))
            (<= (big ?x) (succ ?w ?x) (not (small ?x)))";
        let mut fixture = Fixture::new(text);
        let (big, lt) = (fixture.pred("big", 1), fixture.pred("lt", 2));
        let demand = fixture.demand(&[(big, vec![false])], &|_| 10);
        assert_eq!(demand.seeds, vec![None]);
        let model = fixture.model(demand.rules, &mut Budget::unlimited());
        let full = fixture.full();
        let names = |m: &Model, p: Pred| fixture.names(m, p);
        assert_eq!(names(&model, big), names(&full, big));
        assert_eq!(names(&model, big), ["(big 3)", "(big 4)", "(big 5)"]);
        // Only (lt x 3) was asked about, for x = 2…5.
        assert!(names(&model, lt).iter().all(|a| a.ends_with(" 3)")), "{:?}", names(&model, lt));
        assert_eq!(names(&full, lt).len(), 10);
    }

    /// Paths written as lists of the nodes they visit, each list checked
    /// by a static relation (`isList`), as laikLee_hex writes them: the
    /// recursive `conn2` is asked with the list `append_el` builds, not with
    /// it free (which the join order, reading sizes, would do), so that only
    /// the lists of the paths from `a` are checked; and the answers are those
    /// of the full program.
    #[test]
    fn a_recursive_call_waits_for_the_literal_that_binds_what_its_head_had_bound() {
        let text = "(le a) (le b) (le c) (edge a b) (edge b c)
            (<= (append_el ?e nil (list ?e nil)) (le ?e))
            (<= (append_el ?e (list ?h ?t) (list ?h ?n))
                (le ?h) (le ?e) (distinct ?e ?h) (isList ?t) (append_el ?e ?t ?n) (isList ?n))
            (isList nil) (<= (isList (list ?a nil)) (le ?a)) (<= (isList (list ?a (list ?b nil))) (le ?a) (le ?b))
            (<= (isList (list ?a (list ?b (list ?c nil)))) (le ?a) (le ?b) (le ?c))
            (<= (conn ?x ?y ?l) (append_el ?x ?l ?l2) (conn2 ?x ?y ?l2))
            (<= (conn2 ?x ?y ?l) (edge ?x ?y) (isList ?l))
            (<= (conn2 ?x ?y ?l) (edge ?x ?z) (conn ?z ?y ?l) (isList ?l))
            (<= (q ?y) (conn a ?y nil))";
        let mut fixture = Fixture::new(text);
        let (q, is_list, conn2) = (fixture.pred("q", 1), fixture.pred("isList", 1), fixture.pred("conn2", 3));
        // conn2 looks small: the join order alone would ask it first, with
        // its list free.
        let size = |p: Pred| if p == conn2 { 1 } else { 100 };
        let demand = fixture.demand(&[(q, vec![false])], &size);
        let mut budget = Budget::new(10_000, 100_000);
        let model = fixture.model(demand.rules, &mut budget);
        assert!(!budget.is_spent());
        let full = fixture.full();
        let names = |m: &Model, p: Pred| fixture.names(m, p);
        assert_eq!(names(&model, q), ["(q b)", "(q c)"]);
        assert_eq!(names(&model, q), names(&full, q));
        // In full, isList holds 40 lists; only the lists of the paths from
        // a, (a), (a b) and (a b c), and their tails were asked about.
        assert_eq!(names(&full, is_list).len(), 40);
        let asked = [
            "(isList (list a (list b (list c nil))))",
            "(isList (list a (list b nil)))",
            "(isList (list a nil))",
            "(isList (list b (list c nil)))",
            "(isList (list b nil))",
            "(isList (list c nil))",
            "(isList nil)",
        ];
        assert_eq!(names(&model, is_list), asked);
    }

    /// A ray asked from its target end: its recursive call is asked with
    /// the same arguments bound as its head (the start of the ray free) and
    /// keeps the join order, which asks it first.
    #[test]
    fn a_recursive_call_that_loses_no_binding_keeps_the_join_order() {
        let text = "(next 1 2) (next 2 3) (next 3 4)
            (<= (ray ?u ?x) (next ?u ?x))
            (<= (ray ?u ?x) (next ?u ?v) (true (empty ?v)) (ray ?v ?x))";
        let Fixture { program, rules, .. } = Fixture::new(text);
        let (rule, store) = (&rules[1], &program.store);
        let ray = rule.head.pred(store);
        let relations = Relations { defined: &|p| p == ray, recursive: &|p, q| p == ray && q == ray };
        // Asked with ?x bound (variable 1): ?u free, as in the head.
        let size = |p: Pred| if p == ray { 1 } else { 10 };
        let order = demand_order(rule, &vec![false, true], &[1], store, &size, &relations);
        assert_eq!(order, join_order(rule, &[1], store, &size));
        assert_eq!(order[0], 2, "the recursive call first: {order:?}");
        // Asked with ?u bound too, the call would lose ?u's binding: it
        // waits for `next`, which binds ?v from ?u.
        let order = demand_order(rule, &vec![true, true], &[0, 1], store, &size, &relations);
        assert!(order.iter().position(|&i| i == 0) < order.iter().position(|&i| i == 2), "{order:?}");
    }

    /// A relation asked in several ways: merged, never more demand
    /// relations, and the query's answers are those of the full program.
    #[test]
    fn merged_demand_answers_as_the_full_program() {
        let text = "(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (n 1) (n 3)
            (<= (lt ?x ?y) (succ ?x ?y)) (<= (lt ?x ?z) (succ ?x ?y) (lt ?y ?z))
            (<= (low ?x) (n ?x) (lt ?x 4)) (<= (high ?x ?y) (n ?x) (lt ?x ?y))
            (<= (q ?x) (low ?x)) (<= (q ?y) (high 3 ?y))";
        let mut fixture = Fixture::new(text);
        let q = fixture.pred("q", 1);
        let queries = [(q, vec![false])];
        let asked = fixture.demand(&queries, &|_| 10);
        let (store, symbols) = (&mut fixture.program.store, &mut fixture.program.symbols);
        let merged = transform_within(&fixture.rules, &queries, store, symbols, &|_| 10, true, Limits::none())
            .expect("no limits to stop it");
        let demands_of_lt = |d: &Demand, p: &Program| {
            d.demand.iter().filter(|r| p.symbols.name(r.name).starts_with("demand lt")).count()
        };
        let program = &fixture.program;
        assert!(demands_of_lt(&merged, program) <= demands_of_lt(&asked, program), "never more ways asked");
        let full = fixture.full();
        let model = fixture.model(merged.rules, &mut Budget::unlimited());
        assert_eq!(fixture.names(&model, q), fixture.names(&full, q));
        assert_eq!(fixture.names(&full, q), ["(q 1)", "(q 3)", "(q 4)", "(q 5)"]);
    }
}
