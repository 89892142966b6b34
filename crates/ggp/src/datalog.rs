//! Bottom-up evaluation of normalised rules: strongly connected groups of
//! relations in dependency order, semi-naive iteration inside recursive
//! groups (so left recursion and cycles without a base case terminate), and
//! stratified negation.
//!
//! Joins are planned and indexed. Each rule body is evaluated in an order
//! chosen by estimated cost — literals whose variables are all bound first,
//! then the literal expected to match fewest atoms given what is bound (a
//! small relation, many bound arguments) — and each literal is answered by a
//! hash index on its bound argument positions ([`crate::index`]), built on
//! first use for that relation and that binding pattern and kept up to date
//! as atoms are added, so that the new atoms of a semi-naive round are
//! indexed too.
//!
//! The same engine serves three purposes: the exact model of the rules that
//! do not depend on the state, the over-approximation of everything that can
//! ever hold (negation ignored) from which the game is grounded, and the
//! [`Prover`](crate::Prover), which evaluates the rules afresh in each state —
//! only those a query needs ([`Evaluator::cone`]).

use std::cell::Cell;
use std::hash::Hasher;
use std::ops::Range;
use std::sync::Arc;

#[cfg(test)]
use std::time::Instant;

#[cfg(test)]
use crate::cancel::Cancel;
use crate::hash::{FastMap, WordHasher};
use crate::index::{Index, Shape, key_of_pattern};
use crate::limits::{Limits, OutOfLimits, unlimited};
use crate::normalize::{Lit, NRule, Pat};
use crate::store::{Node, Pred, TermId, TermStore};
use crate::symbol::Sym;

/// The atoms of one relation, in insertion order, with the indexes joins
/// asked for.
#[derive(Debug, Clone, Default)]
pub(crate) struct Relation {
    pub(crate) atoms: Vec<TermId>,
    position: FastMap<TermId, u32>,
    indexes: Vec<Index>,
}

impl Relation {
    fn insert(&mut self, atom: TermId, store: &TermStore) -> bool {
        if self.position.contains_key(&atom) {
            return false;
        }
        let at = u32::try_from(self.atoms.len()).expect("fewer than 2^32 atoms");
        self.atoms.push(atom);
        self.position.insert(atom, at);
        for index in &mut self.indexes {
            index.add(atom, at, store);
        }
        true
    }

    pub(crate) fn contains(&self, atom: TermId) -> bool {
        self.position.contains_key(&atom)
    }

    /// Forgets every atom, keeping the indexes' shapes and the memory.
    fn clear(&mut self) {
        self.atoms.clear();
        self.position.clear();
        self.indexes.iter_mut().for_each(Index::clear);
    }

    fn index(&self, shape: &Shape) -> Option<&Index> {
        self.indexes.iter().find(|i| i.shape == *shape)
    }
}

/// A set of ground atoms, by relation. Relations are shared copy-on-write so
/// that a model can be cloned cheaply as the base of another.
#[derive(Debug, Clone, Default)]
pub(crate) struct Model {
    rels: FastMap<Pred, Arc<Relation>>,
}

impl Model {
    /// Forgets every atom of `pred`.
    pub(crate) fn remove(&mut self, pred: Pred) {
        self.rels.remove(&pred);
    }

    /// Makes this model `base` again, where it was cloned from `base` and
    /// evaluated: the relations it shares with `base` are kept, the others
    /// emptied but kept with their memory and indexes, so that evaluating
    /// the same rules again (a hybrid network's oracle, state after state)
    /// allocates little.
    ///
    /// ```text
    /// let mut work = base.clone();
    /// evaluator.run(store, &mut work, &Negation::Exact);
    /// work.reset_to(&base); // the atoms of `base` only, indexes kept
    /// ```
    pub(crate) fn reset_to(&mut self, base: &Model) {
        for (pred, rel) in &mut self.rels {
            match base.rels.get(pred) {
                Some(b) if Arc::ptr_eq(b, rel) => {}
                Some(b) => *rel = b.clone(),
                None => Arc::make_mut(rel).clear(),
            }
        }
    }

    /// The relations that have atoms (or had).
    pub(crate) fn preds(&self) -> impl Iterator<Item = Pred> + '_ {
        self.rels.keys().copied()
    }

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

    /// Builds the index of `shape` on `pred` unless it exists (a relation
    /// shared with another model is copied only when it lacks the index),
    /// each atom indexed counted as a try of `budget`: should its limits
    /// stop the building, the index is not kept, and `false` returned.
    fn ensure_index(&mut self, pred: Pred, shape: &Shape, store: &TermStore, budget: &mut Budget) -> bool {
        let rel = self.rels.entry(pred).or_default();
        if rel.index(shape).is_some() {
            return true;
        }
        let mut index = Index::build(shape.clone(), &[], store);
        for (at, &atom) in rel.atoms.iter().enumerate() {
            if budget.tried() {
                return false;
            }
            index.add(atom, at as u32, store);
        }
        Arc::make_mut(rel).indexes.push(index);
        true
    }

    /// Builds the indexes that joining `rule` by `plan` uses.
    #[cfg(test)]
    pub(crate) fn prepare(&mut self, rule: &NRule, plan: &Plan, store: &TermStore) {
        // A budget without limits: its tries never stop anything.
        self.prepare_within(rule, plan, store, &mut Budget::new(0, 0));
    }

    /// Builds the indexes that joining `rule` by `plan` uses, each atom
    /// indexed counted as a try of `budget`; `false` (and `budget`
    /// interrupted) if its limits stop it, the indexes built so far kept,
    /// complete.
    pub(crate) fn prepare_within(&mut self, rule: &NRule, plan: &Plan, store: &TermStore, budget: &mut Budget) -> bool {
        plan.indexes(rule, store).all(|(pred, shape)| self.ensure_index(pred, shape, store, budget))
    }
}

/// Which negative literals are checked: `Exact` checks all (stratified
/// semantics); `Only(f)` checks those whose relation satisfies `f` and takes
/// the others as true (an over-approximation).
pub(crate) enum Negation<'a> {
    Exact,
    Only(&'a dyn Fn(Pred) -> bool),
}

impl Negation<'_> {
    fn checks(&self, pred: Pred) -> bool {
        match self {
            Negation::Exact => true,
            Negation::Only(f) => f(pred),
        }
    }
}

/// One literal of a join order, with the shape of the index that answers it
/// (none for `distinct`, for a ground literal, or when nothing would be
/// selected).
#[derive(Debug, Clone)]
struct Step {
    lit: usize,
    shape: Option<Shape>,
}

/// The order in which to join a rule's body literals.
#[derive(Debug, Clone, Default)]
pub(crate) struct Plan {
    steps: Vec<Step>,
}

/// Bindings of a rule's variables during a join.
type Bindings = Vec<Option<TermId>>;

/// The estimated number of atoms of a relation of `size` atoms that match
/// `p` when the variables marked in `bound` are bound: each argument leaf
/// (variable or ground subterm) is taken to split the relation evenly, so a
/// pattern with `k` of its `n` leaves known matches `size^((n-k)/n)` atoms.
pub(crate) fn estimate(p: &Pat, bound: &[bool], size: usize) -> f64 {
    fn count(p: &Pat, bound: &[bool], leaves: &mut u32, keys: &mut u32) {
        match p {
            Pat::Var(v) => {
                *leaves += 1;
                *keys += u32::from(bound[*v as usize]);
            }
            Pat::Ground(_) => {
                *leaves += 1;
                *keys += 1;
            }
            Pat::App(_, args) => args.iter().for_each(|a| count(a, bound, leaves, keys)),
        }
    }
    if size == 0 {
        return 0.0;
    }
    let (mut leaves, mut keys) = (0, 0);
    if let Pat::App(_, args) = p {
        args.iter().for_each(|a| count(a, bound, &mut leaves, &mut keys));
    }
    if leaves == keys {
        return 1.0;
    }
    (size as f64).powf(f64::from(leaves - keys) / f64::from(leaves))
}

/// The cheapest of the literals `candidates` (body positions) by `cost`,
/// as its place in `candidates` and its cost: the fewest rows expected,
/// then the smaller relation, then the most variables already bound; the
/// first of equals.
pub(crate) fn cheapest(
    candidates: &[usize],
    mut cost: impl FnMut(usize) -> (f64, usize, usize),
) -> (usize, (f64, usize, usize)) {
    let mut best = 0;
    let mut best_cost = cost(candidates[0]);
    for (k, &i) in candidates.iter().enumerate().skip(1) {
        let c = cost(i);
        if c.0 < best_cost.0 || (c.0 == best_cost.0 && (c.1 < best_cost.1 || (c.1 == best_cost.1 && c.2 > best_cost.2)))
        {
            best = k;
            best_cost = c;
        }
    }
    (best, best_cost)
}

/// How many times cheaper another join order must be expected to be than
/// the greedy one to be taken instead (see [`Plan::new`]): estimates are
/// rough, and the greedy order is what the reasoners were tuned with.
const LOOK_AHEAD_GAIN: f64 = 10.0;

impl Plan {
    /// The join order of `rule`'s body: the delta literal first (in a
    /// semi-naive round), each negative or `distinct` literal as soon as its
    /// variables are bound, and in between the positive literal expected to
    /// match fewest atoms (see [`estimate`]), `size` giving the number of
    /// atoms of each relation; literals whose variables are never bound
    /// (unsafe rules) come last.
    pub(crate) fn new(rule: &NRule, delta: Option<usize>, store: &TermStore, size: &dyn Fn(Pred) -> usize) -> Plan {
        Plan::with_bound(rule, delta, &[], store, size, true)
    }

    /// As [`Plan::new`], the variables `initially` being bound before the
    /// first literal.
    ///
    /// The order is greedy (the positive literal expected to match fewest
    /// atoms next). With `look_ahead`, should the greedy order starting with
    /// some other literal be expected to cost less than a
    /// [`LOOK_AHEAD_GAIN`]th of it in all (the sum of the partial solutions
    /// after each literal), that order is taken: four unbound
    /// `(coordinate ?c)` guards are each smaller than a relation they guard,
    /// but joined first they make a cross product of 65,536 rows, where the
    /// relation first makes each of them a test.
    fn with_bound(
        rule: &NRule,
        delta: Option<usize>,
        initially: &[u16],
        store: &TermStore,
        size: &dyn Fn(Pred) -> usize,
        look_ahead: bool,
    ) -> Plan {
        let positives: Vec<usize> =
            (0..rule.body.len()).filter(|&i| matches!(rule.body[i], Lit::Pos(_)) && Some(i) != delta).collect();
        let (plain, cost) = Plan::greedy(rule, delta, initially, store, size);
        if delta.is_some() || !look_ahead || positives.len() < 2 {
            return plain;
        }
        let best = positives
            .iter()
            .map(|&i| (Plan::greedy(rule, Some(i), initially, store, size), i))
            .min_by(|a, b| a.0.1.total_cmp(&b.0.1));
        match best {
            Some(((plan, c), _)) if c * LOOK_AHEAD_GAIN < cost => plan,
            _ => plain,
        }
    }

    /// The greedy join order of `rule`'s body starting with `first` (the
    /// delta literal, or a chosen one), and its expected cost: the sum over
    /// the literals of the expected number of partial solutions after each.
    fn greedy(
        rule: &NRule,
        first: Option<usize>,
        initially: &[u16],
        store: &TermStore,
        size: &dyn Fn(Pred) -> usize,
    ) -> (Plan, f64) {
        let vars_of = |i: usize| lit_vars(&rule.body[i]);
        let mut bound = bound_marks(rule.vars, initially);
        let mut steps = Vec::new();
        let mut positives: Vec<usize> =
            (0..rule.body.len()).filter(|&i| matches!(rule.body[i], Lit::Pos(_)) && Some(i) != first).collect();
        let mut filters: Vec<usize> = (0..rule.body.len()).filter(|&i| !matches!(rule.body[i], Lit::Pos(_))).collect();
        let step = |i: usize, bound: &[bool]| Step { lit: i, shape: shape_of(&rule.body[i], bound) };
        let place_filters = |bound: &[bool], filters: &mut Vec<usize>, steps: &mut Vec<Step>| {
            filters.retain(|&f| {
                if vars_of(f).iter().all(|&v| bound[v as usize]) {
                    steps.push(step(f, bound));
                    false
                } else {
                    true
                }
            });
        };
        place_filters(&bound, &mut filters, &mut steps);
        let bind = |i: usize, bound: &mut Vec<bool>| {
            for v in vars_of(i) {
                bound[v as usize] = true;
            }
        };
        let matches = |i: usize, bound: &[bool]| {
            let Lit::Pos(p) = &rule.body[i] else { unreachable!("positives are positive") };
            estimate(p, bound, size(p.pred(store)))
        };
        let (mut rows, mut total) = (1.0f64, 0.0f64);
        if let Some(d) = first {
            rows *= matches(d, &bound);
            total += rows;
            steps.push(step(d, &bound));
            bind(d, &mut bound);
            place_filters(&bound, &mut filters, &mut steps);
        }
        while !positives.is_empty() {
            // Ties (every variable bound, say) go to the smaller relation,
            // a test against the state before a recursive call, so that a
            // top-down reading asks the recursion only past the test (a ray
            // walked only while its squares are empty); then to the literal
            // with more bound variables.
            let cost = |i: usize| {
                let Lit::Pos(p) = &rule.body[i] else { unreachable!("positives are positive") };
                let bound_vars = vars_of(i).iter().filter(|&&v| bound[v as usize]).count();
                let size = size(p.pred(store));
                (estimate(p, &bound, size), size, bound_vars)
            };
            let (best, best_cost) = cheapest(&positives, cost);
            let i = positives.remove(best);
            rows *= best_cost.0;
            total += rows;
            steps.push(step(i, &bound));
            bind(i, &mut bound);
            place_filters(&bound, &mut filters, &mut steps);
        }
        for f in filters {
            steps.push(step(f, &bound));
        }
        (Plan { steps }, total)
    }

    /// The body literals in join order.
    pub(crate) fn order(&self) -> impl Iterator<Item = usize> + '_ {
        self.steps.iter().map(|s| s.lit)
    }

    /// The relations and index shapes this plan joins with.
    fn indexes<'p>(&'p self, rule: &'p NRule, store: &'p TermStore) -> impl Iterator<Item = (Pred, &'p Shape)> + 'p {
        self.steps.iter().filter_map(move |s| {
            let shape = s.shape.as_ref()?;
            let (Lit::Pos(p) | Lit::Neg(p)) = &rule.body[s.lit] else { return None };
            Some((p.pred(store), shape))
        })
    }
}

/// The order in which a top-down prover would pass bindings through the
/// body of `rule` when the variables `initially` are bound: the join order
/// that [`Plan::new`] would choose.
pub(crate) fn join_order(
    rule: &NRule,
    initially: &[u16],
    store: &TermStore,
    size: &dyn Fn(Pred) -> usize,
) -> Vec<usize> {
    Plan::with_bound(rule, None, initially, store, size, false).order().collect()
}

/// The variables of `lit`, each once.
pub(crate) fn lit_vars(lit: &Lit) -> Vec<u16> {
    let mut vars = Vec::new();
    lit.vars(&mut vars);
    vars
}

/// Which of a rule's `vars` variables are bound when those of `initially`
/// are (a mark per variable).
pub(crate) fn bound_marks(vars: usize, initially: &[u16]) -> Vec<bool> {
    let mut bound = vec![false; vars];
    for &v in initially {
        bound[v as usize] = true;
    }
    bound
}

/// The index shape for literal `lit` when the variables marked in `bound`
/// are bound, if an index would select anything.
fn shape_of(lit: &Lit, bound: &[bool]) -> Option<Shape> {
    let (Lit::Pos(Pat::App(_, args)) | Lit::Neg(Pat::App(_, args))) = lit else { return None };
    let shape = Shape::of(args, &|v| bound[v as usize]);
    shape.selective().then_some(shape)
}

/// A rule set prepared for evaluation: groups in dependency order and join
/// plans.
#[derive(Debug, Clone)]
pub(crate) struct Evaluator {
    rules: Arc<[NRule]>,
    groups: Vec<Group>,
    /// Whether every model it runs on already has the indexes its plans use
    /// ([`Evaluator::assume_prepared`]), so that runs skip looking for them.
    prepared: bool,
}

#[derive(Debug, Clone)]
struct Group {
    rules: Vec<usize>,
    recursive: bool,
    /// For each rule of the group: the plan without a delta literal, and one
    /// per positive literal of a relation in the group.
    plans: Vec<RulePlans>,
    preds: Vec<Pred>,
    /// The relations the group's rules read.
    reads: Vec<Pred>,
    /// For each rule of the group, the variables of its head.
    head_vars: Vec<Vec<u16>>,
}

/// A join plan without a delta literal, and one per delta literal.
type RulePlans = (Plan, Vec<(usize, Plan)>);

/// What one evaluation works on, group after group: the terms, the model
/// it adds to, and how it reads negated literals.
struct Workspace<'w, 'n> {
    /// The terms of the rules and of the atoms derived.
    store: &'w mut TermStore,
    /// The atoms known, to which the evaluation adds.
    model: &'w mut Model,
    /// How a negated literal is read.
    negation: &'w Negation<'n>,
}

/// The relations a relation of a recursive group is assumed to hold while
/// its group is planned (they are still growing).
const GROWING: usize = 1000;

impl Evaluator {
    /// Groups `rules` and plans their joins, `size` estimating the number of
    /// atoms of each relation.
    pub(crate) fn new(rules: Vec<NRule>, store: &TermStore, size: &dyn Fn(Pred) -> usize) -> Evaluator {
        unlimited(Evaluator::new_within(rules, store, size, Limits::none()))
    }

    /// As [`Evaluator::new`], within `limits` (checked before each group is
    /// planned: planning grows with the rules, and a game's demand
    /// rewriting can have thousands).
    pub(crate) fn new_within(
        rules: Vec<NRule>,
        store: &TermStore,
        size: &dyn Fn(Pred) -> usize,
        limits: Limits,
    ) -> Result<Evaluator, OutOfLimits> {
        let mut evaluator = Evaluator::unplanned(rules, store);
        for k in 0..evaluator.groups.len() {
            if let Some(why) = limits.exceeded() {
                return Err(why);
            }
            evaluator.plan_group(k, store, size);
        }
        Ok(evaluator)
    }

    /// Groups `rules`, without plans.
    fn unplanned(rules: Vec<NRule>, store: &TermStore) -> Evaluator {
        let mut head_preds: Vec<Pred> = rules.iter().map(|r| r.head.pred(store)).collect();
        head_preds.sort();
        head_preds.dedup();
        let node_of: FastMap<Pred, usize> = head_preds.iter().enumerate().map(|(i, p)| (*p, i)).collect();
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
            let mut reads: Vec<Pred> = members
                .iter()
                .flat_map(|&r| rules[r].body.iter())
                .filter_map(|l| match l {
                    Lit::Pos(p) | Lit::Neg(p) => Some(p.pred(store)),
                    _ => None,
                })
                .collect();
            reads.sort();
            reads.dedup();
            let head_vars = members
                .iter()
                .map(|&r| {
                    let mut v = Vec::new();
                    rules[r].head.vars(&mut v);
                    v
                })
                .collect();
            groups.push(Group { rules: members, recursive, plans: Vec::new(), preds, reads, head_vars });
        }
        Evaluator { rules: rules.into(), groups, prepared: false }
    }

    /// Plans the joins of group `k`, `size` estimating relation sizes (those
    /// of the group itself are taken to be at least [`GROWING`]).
    fn plan_group(&mut self, k: usize, store: &TermStore, size: &dyn Fn(Pred) -> usize) {
        let group = &self.groups[k];
        let rules = &self.rules;
        let size = |p: Pred| if group.preds.contains(&p) { size(p).max(GROWING) } else { size(p) };
        let plans = group
            .rules
            .iter()
            .map(|&r| {
                let rule = &rules[r];
                let full = Plan::new(rule, None, store, &size);
                let deltas = if group.recursive {
                    rule.body
                        .iter()
                        .enumerate()
                        .filter(|(_, l)| matches!(l, Lit::Pos(p) if group.preds.contains(&p.pred(store))))
                        .map(|(i, _)| (i, Plan::new(rule, Some(i), store, &size)))
                        .collect()
                } else {
                    Vec::new()
                };
                (full, deltas)
            })
            .collect();
        self.groups[k].plans = plans;
    }

    /// The evaluator of only the rules that the relations `targets` depend
    /// on.
    pub(crate) fn cone(&self, targets: &[Pred]) -> Evaluator {
        let mut needed: Vec<Pred> = targets.to_vec();
        let mut kept = Vec::new();
        // Dependencies come first, so one pass from the end finds them all.
        for group in self.groups.iter().rev() {
            if group.preds.iter().any(|p| needed.contains(p)) {
                needed.extend(group.reads.iter().copied());
                needed.sort();
                needed.dedup();
                kept.push(group.clone());
            }
        }
        kept.reverse();
        Evaluator { rules: self.rules.clone(), groups: kept, prepared: false }
    }

    /// The rules evaluated, group by group.
    pub(crate) fn rules(&self) -> Vec<NRule> {
        self.groups.iter().flat_map(|g| g.rules.iter().map(|&r| self.rules[r].clone())).collect()
    }

    /// Whether no relation depends negatively on itself, so that
    /// evaluation group by group gives the stratified semantics.
    pub(crate) fn is_stratified(&self, store: &TermStore) -> bool {
        self.groups.iter().all(|g| {
            g.rules.iter().all(|&r| {
                self.rules[r].body.iter().all(|l| !matches!(l, Lit::Neg(p) if g.preds.contains(&p.pred(store))))
            })
        })
    }

    /// Builds in `model` every index the plans use, so that models cloned
    /// from it share them.
    pub(crate) fn prepare(&self, model: &mut Model, store: &TermStore) {
        // A budget without limits: its tries never stop anything.
        self.prepare_within(model, store, &mut Budget::new(0, 0));
    }

    /// As [`Evaluator::prepare`], each atom indexed counted as a try of
    /// `budget`: should its limits stop the building, the indexes built
    /// so far are kept (complete), the others not built, and `budget` is
    /// left interrupted.
    pub(crate) fn prepare_within(&self, model: &mut Model, store: &TermStore, budget: &mut Budget) {
        for group in &self.groups {
            if !self.prepare_group(group, model, store, budget) {
                return;
            }
        }
    }

    /// Builds in `model` every index the plans of `group` use, each atom
    /// indexed counted as a try of `budget`; `false` if its limits stop it.
    fn prepare_group(&self, group: &Group, model: &mut Model, store: &TermStore, budget: &mut Budget) -> bool {
        for (k, &r) in group.rules.iter().enumerate() {
            let (full, deltas) = &group.plans[k];
            if !model.prepare_within(&self.rules[r], full, store, budget) {
                return false;
            }
            for (_, plan) in deltas {
                if !model.prepare_within(&self.rules[r], plan, store, budget) {
                    return false;
                }
            }
        }
        true
    }

    /// Declares that every model this evaluator will run on has the indexes
    /// its plans use: it was [prepared](Evaluator::prepare), or cloned from
    /// (or [reset](Model::reset_to) to) a model that was. Runs then skip
    /// looking for them, a fixed cost per rule and per run that a per-state
    /// query of a few thousand atoms and a few hundred rules notices.
    ///
    /// ```text
    /// evaluator.prepare(&mut statics, store);
    /// evaluator.assume_prepared();
    /// let mut work = statics.clone(); // every index already there
    /// ```
    pub(crate) fn assume_prepared(&mut self) {
        self.prepared = true;
    }

    /// Adds to `model` everything the rules derive from it.
    #[cfg(test)]
    pub(crate) fn run(&self, store: &mut TermStore, model: &mut Model, negation: &Negation<'_>) {
        self.run_limited(store, model, negation, &mut Budget::unlimited());
    }

    /// Adds to `model` everything the rules derive from it, but stops once
    /// the budget is spent (leaving it spent): invalid games can define
    /// infinite relations, huge games huge ones.
    pub(crate) fn run_limited(
        &self,
        store: &mut TermStore,
        model: &mut Model,
        negation: &Negation<'_>,
        budget: &mut Budget,
    ) {
        let mut on = Workspace { store, model, negation };
        for group in &self.groups {
            self.run_group(group, &mut on, budget, None);
            if budget.is_spent() {
                return;
            }
        }
    }

    /// Evaluates `rules` once into `model`, planning each group just before
    /// it runs, with the sizes of the relations it reads as they are then
    /// (the best plans for a single evaluation). See
    /// [`Evaluator::run_limited`] for `budget`.
    pub(crate) fn run_once(
        rules: Vec<NRule>,
        store: &mut TermStore,
        model: &mut Model,
        negation: &Negation<'_>,
        budget: &mut Budget,
    ) {
        Evaluator::run_once_unless_hopeless(rules, store, model, negation, budget, None);
    }

    /// As [`Evaluator::run_once`], but with `rounds`, an evaluation that is
    /// bound to run out gives up early: once a round of a recursive group
    /// derives more atoms than the round before and `rounds` more rounds
    /// that large would spend what is left of the atom budget, the budget
    /// is spent and `true` returned.
    ///
    /// ```text
    /// new atoms per round        …  22    23    24    then
    /// chess (demand as asked)       56k   73k   86k   gives up (rounds 6: 86k × 6 > 435k left)
    /// amazonsTorus (merged)         109k  119k  122k  113k, 98k, … (its peak: a tenth of what is left)
    /// ```
    pub(crate) fn run_once_unless_hopeless(
        rules: Vec<NRule>,
        store: &mut TermStore,
        model: &mut Model,
        negation: &Negation<'_>,
        budget: &mut Budget,
        rounds: Option<usize>,
    ) -> bool {
        let mut evaluator = Evaluator::unplanned(rules, store);
        let mut on = Workspace { store, model, negation };
        for k in 0..evaluator.groups.len() {
            evaluator.plan_group(k, on.store, &|p| on.model.atoms(p).len());
            let group = &evaluator.groups[k];
            let hopeless = evaluator.run_group(group, &mut on, budget, rounds);
            if hopeless {
                return true;
            }
            if budget.is_spent() {
                return false;
            }
        }
        false
    }

    /// As [`Evaluator::run_once`], but evaluates only the groups that fit
    /// in `budget` in full, in dependency order: at the first group that
    /// does not, its atoms are removed from `model` again, and the rules of
    /// that group and of every later one are returned, unevaluated. `budget`
    /// is spent only by the groups evaluated.
    pub(crate) fn run_while_within(
        rules: Vec<NRule>,
        store: &mut TermStore,
        model: &mut Model,
        negation: &Negation<'_>,
        budget: &mut Budget,
    ) -> Vec<NRule> {
        let mut evaluator = Evaluator::unplanned(rules, store);
        let mut on = Workspace { store, model, negation };
        for k in 0..evaluator.groups.len() {
            evaluator.plan_group(k, on.store, &|p| on.model.atoms(p).len());
            let group = &evaluator.groups[k];
            let mut room = *budget;
            evaluator.run_group(group, &mut on, &mut room, None);
            if room.is_spent() {
                if room.interruption().is_some() {
                    budget.joins_of(&room);
                }
                for &p in &group.preds {
                    on.model.remove(p);
                }
                let rest =
                    evaluator.groups[k..].iter().flat_map(|g| g.rules.iter().map(|&r| evaluator.rules[r].clone()));
                return rest.collect();
            }
            *budget = room;
        }
        Vec::new()
    }

    /// Evaluates `group` into the model of `on` within `budget`; with
    /// `rounds`, gives up (and returns `true`) as
    /// [`Evaluator::run_once_unless_hopeless`] describes.
    fn run_group(&self, group: &Group, on: &mut Workspace<'_, '_>, budget: &mut Budget, rounds: Option<usize>) -> bool {
        let (store, model, negation) = (&mut *on.store, &mut *on.model, on.negation);
        if !self.prepared && !self.prepare_group(group, model, store, budget) {
            return false;
        }
        let mut derived = Vec::with_capacity(group.rules.len());
        let mut room = *budget;
        // Relations of the group that are still empty need no check that a
        // head is already known.
        let empty = group.preds.iter().all(|&p| model.atoms(p).is_empty());
        for (k, &r) in group.rules.iter().enumerate() {
            let rule = &self.rules[r];
            let join = Join::new(store, model, rule, negation, &group.plans[k].0, None).within(&room);
            let mut heads = Heads::take();
            let known = (!empty).then_some(&*model);
            collect_heads(&join, rule, &group.head_vars[k], known, &mut heads, &mut room);
            derived.push(heads);
        }
        budget.joins_of(&room);
        let mut fresh = self.insert_heads(group, &derived, store, model, budget);
        derived.into_iter().for_each(Heads::give_back);
        if room.is_spent() {
            budget.spend();
        }
        if !group.recursive {
            return false;
        }
        // The atoms the previous round derived.
        let mut grown = usize::MAX;
        // Semi-naive: each round joins at least one literal against the
        // atoms that are new since the previous round.
        while !budget.is_spent() && !fresh.is_empty() {
            let mut derived = Vec::with_capacity(group.rules.len());
            let mut room = *budget;
            for (k, &r) in group.rules.iter().enumerate() {
                let rule = &self.rules[r];
                let mut heads = Heads::take();
                for (lit, plan) in &group.plans[k].1 {
                    let Lit::Pos(p) = &rule.body[*lit] else { unreachable!("delta literals are positive") };
                    let Some(range) = fresh.get(&p.pred(store)) else { continue };
                    let join = Join::new(store, model, rule, negation, plan, Some((*lit, range.clone()))).within(&room);
                    collect_heads(&join, rule, &group.head_vars[k], Some(model), &mut heads, &mut room);
                }
                derived.push(heads);
            }
            budget.joins_of(&room);
            fresh = self.insert_heads(group, &derived, store, model, budget);
            derived.into_iter().for_each(Heads::give_back);
            if room.is_spent() {
                budget.spend();
            }
            fresh.retain(|p, r| group.preds.contains(p) && r.start < r.end);
            let new: usize = fresh.values().map(|r| (r.end - r.start) as usize).sum();
            if let Some(rounds) = rounds
                && !budget.is_spent()
                && new > grown
                && new.saturating_mul(rounds) > budget.atoms
            {
                budget.spend();
                return true;
            }
            grown = new;
        }
        false
    }

    /// Inserts the derived heads of `group`'s rules; the new atoms'
    /// positions, by relation. Each new atom costs one atom of `budget`.
    fn insert_heads(
        &self,
        group: &Group,
        derived: &[Heads],
        store: &mut TermStore,
        model: &mut Model,
        budget: &mut Budget,
    ) -> FastMap<Pred, Range<u32>> {
        let mut fresh: FastMap<Pred, Range<u32>> = FastMap::default();
        let mut b: Bindings = Vec::new();
        for (k, heads) in derived.iter().enumerate() {
            if heads.count == 0 {
                continue;
            }
            let rule = &self.rules[group.rules[k]];
            let vars = &group.head_vars[k];
            // Every head of a rule is of one relation: looked up once.
            let pred = rule.head.pred(store);
            let rel = Arc::make_mut(model.rels.entry(pred).or_default());
            let before = rel.atoms.len() as u32;
            b.clear();
            b.resize(rule.vars, None);
            for i in 0..heads.count {
                // An insertion spends no join: counted as a try, so that
                // the limits stop the insertion of many heads too.
                if budget.atoms == 0 || budget.tried() {
                    break;
                }
                // The atom the join already found in the store, if any.
                let atom = match heads.atoms[i] {
                    Some(atom) => atom,
                    None => {
                        for (j, &v) in vars.iter().enumerate() {
                            b[v as usize] = Some(heads.values[i * vars.len() + j]);
                        }
                        instantiate(&rule.head, &b, store).expect("head variables are bound")
                    }
                };
                if rel.insert(atom, store) {
                    budget.atoms -= 1;
                }
            }
            let after = rel.atoms.len() as u32;
            if after > before {
                let range = fresh.entry(pred).or_insert(before..before);
                range.end = after;
            }
            if budget.atoms == 0 {
                return fresh;
            }
        }
        fresh
    }
}

/// What an evaluation may still do: derive `atoms` new atoms, and find
/// `joins` rule instances (solutions of rule bodies, which bounds the time
/// and, in grounding, the ground rules); and, optionally, until when and
/// unless cancelled ([`Budget::within`] the request's limits). An
/// evaluation that runs out, or is stopped by those limits, stops, leaving
/// its result incomplete and the budget [spent](Budget::is_spent) (and,
/// when stopped, [interrupted](Budget::interruption)).
///
/// The deadline and the cancellation are checked as the joins are spent:
/// at the first join, then every [`CHECK_EVERY`] joins — reading the clock
/// at every join would cost as much as the join. They are checked as well
/// as candidates are tried (atoms matched against a literal in vain,
/// atoms indexed: work that finds no rule instance, and so spends no
/// join): at the first, then every [`CHECK_EVERY`] — a join that scans
/// millions of atoms without a match stops too. Tries are only counted:
/// they spend nothing, so what a budget of joins allows is the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budget {
    pub(crate) atoms: usize,
    pub(crate) joins: usize,
    limits: Limits,
    /// The deadline and the cancellation are checked next when `joins` is
    /// down to this.
    check_at: usize,
    /// How many more candidates may be tried before the deadline and the
    /// cancellation are checked again.
    tries: usize,
    /// Why the limits stopped the evaluation, if they did.
    interrupted: Option<OutOfLimits>,
}

/// How many joins an evaluation with a deadline or a cancellation spends
/// between two checks of them.
pub(crate) const CHECK_EVERY: usize = 1024;

/// The deadline and the cancellation of a loop that spends no [`Budget`]
/// (a pass over the rules, the instantiation of ground rules): its steps
/// are counted, and the limits read at the first step and then every
/// [`CHECK_EVERY`] — a counter and a compare per step. Once reached, they
/// stay reached (a cancellation is for good, time only passes).
///
/// ```text
/// let mut check = PeriodicCheck::new(limits);
/// for rule in rules { check.step()?; … }
/// ```
#[derive(Debug, Clone, Copy)]
pub(crate) struct PeriodicCheck {
    limits: Limits,
    /// How many more steps before the limits are read again.
    left: usize,
    /// Why the limits stopped the loop, once they did.
    stopped: Option<OutOfLimits>,
}

impl PeriodicCheck {
    /// The check of `limits`, due at the first step (never, for
    /// [`Limits::none`]).
    pub(crate) fn new(limits: Limits) -> PeriodicCheck {
        let left = if limits.is_none() { usize::MAX } else { 0 };
        PeriodicCheck { limits, left, stopped: None }
    }

    /// Counts a step, and reads the limits when it is time to; why they
    /// stop the loop, if they do (now or before).
    #[inline]
    pub(crate) fn step(&mut self) -> Result<(), OutOfLimits> {
        if self.left > 0 {
            self.left -= 1;
            return Ok(());
        }
        self.check()
    }

    /// Reads the limits now (whatever the count); why they stop the loop,
    /// if they do.
    #[cold]
    pub(crate) fn check(&mut self) -> Result<(), OutOfLimits> {
        if let Some(why) = self.stopped {
            return Err(why);
        }
        if self.limits.is_none() {
            self.left = usize::MAX;
            return Ok(());
        }
        self.left = CHECK_EVERY - 1;
        match self.limits.exceeded() {
            Some(why) => {
                self.stopped = Some(why);
                self.left = 0;
                Err(why)
            }
            None => Ok(()),
        }
    }
}

impl Budget {
    /// A budget of `atoms` new atoms and `joins` rule instances, with no
    /// deadline and no cancellation.
    pub(crate) fn new(atoms: usize, joins: usize) -> Budget {
        Budget { atoms, joins, limits: Limits::none(), check_at: 0, tries: usize::MAX, interrupted: None }
    }

    /// No limit.
    #[cfg(test)]
    pub(crate) fn unlimited() -> Budget {
        Budget::new(usize::MAX, usize::MAX)
    }

    /// This budget, stopped at `deadline` too.
    #[cfg(test)]
    pub(crate) fn until(self, deadline: Instant) -> Budget {
        self.within(Limits::none().until(deadline))
    }

    /// This budget, stopped when `cancel` is cancelled too.
    #[cfg(test)]
    pub(crate) fn cancelled_by(self, cancel: Cancel) -> Budget {
        self.within(Limits::none().cancelled_by(cancel))
    }

    /// The deadline and the cancellation that stop this budget, for a pass
    /// that spends none of it ([`PeriodicCheck`]).
    pub(crate) fn limits(&self) -> Limits {
        self.limits
    }

    /// This budget, stopped by `limits` (their deadline, their
    /// cancellation) too.
    pub(crate) fn within(self, limits: Limits) -> Budget {
        let mut merged = self.limits;
        if let Some(deadline) = limits.deadline() {
            merged = merged.until(deadline);
        }
        if let Some(cancel) = limits.cancel() {
            merged = merged.cancelled_by(cancel);
        }
        let limits = merged;
        // The first join checks them, and so does the first try.
        let check_at = if limits.is_none() { 0 } else { self.joins };
        let tries = if limits.is_none() { usize::MAX } else { 0 };
        Budget { limits, check_at, tries, ..self }
    }

    /// Whether the evaluation ran out (or was stopped).
    pub(crate) fn is_spent(&self) -> bool {
        self.atoms == 0 || self.joins == 0
    }

    /// Why the deadline or the cancellation stopped the evaluation, if
    /// they did ([`OutOfLimits::Deadline`] or [`OutOfLimits::Cancelled`]).
    pub(crate) fn interruption(&self) -> Option<OutOfLimits> {
        self.interrupted
    }

    /// Spends `joins` joins (all that is left, if fewer), checking the
    /// deadline and the cancellation when it is time to.
    #[inline]
    pub(crate) fn spend_joins(&mut self, joins: usize) {
        self.joins = self.joins.saturating_sub(joins);
        if self.joins <= self.check_at {
            self.check_limits();
        }
    }

    /// Checks the deadline and the cancellation; stops the evaluation
    /// (spends everything) if either is reached.
    #[cold]
    fn check_limits(&mut self) {
        if self.limits.is_none() || self.joins == 0 {
            self.check_at = 0;
            return;
        }
        self.check_at = self.joins.saturating_sub(CHECK_EVERY);
        if let Some(why) = self.limits.exceeded() {
            self.interrupt(why);
        }
    }

    /// Counts one candidate tried (an atom matched in vain, an atom
    /// indexed), which spends nothing, and checks the deadline and the
    /// cancellation when it is time to; whether the evaluation is stopped
    /// by them (now or before).
    #[inline]
    pub(crate) fn tried(&mut self) -> bool {
        if self.tries > 0 {
            self.tries -= 1;
            return self.interrupted.is_some();
        }
        self.check_tries()
    }

    /// Checks the deadline and the cancellation after [`CHECK_EVERY`]
    /// tries; whether the evaluation is stopped by them.
    #[cold]
    fn check_tries(&mut self) -> bool {
        self.tries = if self.limits.is_none() { usize::MAX } else { CHECK_EVERY - 1 };
        if self.interrupted.is_none()
            && let Some(why) = self.limits.exceeded()
        {
            self.interrupt(why);
        }
        self.interrupted.is_some()
    }

    /// Stops the evaluation for `why`: everything is spent.
    fn interrupt(&mut self, why: OutOfLimits) {
        self.interrupted = Some(why);
        self.atoms = 0;
        self.joins = 0;
        self.check_at = 0;
    }

    /// Takes on the joins and tries `room` (a copy of this budget) has
    /// left, and its interruption.
    fn joins_of(&mut self, room: &Budget) {
        self.joins = room.joins;
        self.check_at = room.check_at;
        self.tries = room.tries;
        if let Some(why) = room.interrupted {
            self.interrupt(why);
        }
    }

    fn spend(&mut self) {
        self.atoms = 0;
    }
}

/// The head instances joins found: the values of the head's variables, one
/// distinct solution after another.
#[derive(Debug, Default)]
struct Heads {
    values: Vec<TermId>,
    /// For each solution, its head's atom where the join already found it
    /// in the store (so that it is not looked up again to be inserted).
    atoms: Vec<Option<TermId>>,
    count: usize,
    /// The last solution with each hash of its values…
    index: FastMap<u64, u32>,
    /// … and, for each solution, the one before it with the same hash
    /// ([`NONE`] for none): chains without an allocation per solution.
    earlier: Vec<u32>,
}

/// The end of a chain of [`Heads::earlier`].
const NONE: u32 = u32::MAX;

/// The most solutions a spare [`Heads`] keeps room for: the pool saves the
/// allocations of the many small joins of a per-state query, and must not
/// hold on to the memory of a grounding's large ones.
const SPARE_ROOM: usize = 1 << 12;

thread_local! {
    /// Emptied head tables, their memory kept for the next joins.
    static SPARE_HEADS: std::cell::RefCell<Vec<Heads>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Heads {
    /// An empty table, from the spares if there is one.
    fn take() -> Heads {
        SPARE_HEADS.with(|spare| spare.borrow_mut().pop()).unwrap_or_default()
    }

    /// Empties this table and keeps it as a spare, unless it is large.
    fn give_back(mut self) {
        if self.atoms.capacity() > SPARE_ROOM {
            return;
        }
        self.values.clear();
        self.atoms.clear();
        self.count = 0;
        self.index.clear();
        self.earlier.clear();
        SPARE_HEADS.with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < 256 {
                spare.push(self);
            }
        });
    }

    /// The hash of a solution.
    fn hash(tuple: &[TermId]) -> u64 {
        let mut h = WordHasher::default();
        tuple.iter().for_each(|t| h.write_u32(t.0));
        h.finish()
    }

    /// Adds the solution `tuple` (as wide as every other) of hash `hash`,
    /// which is not yet among them (see [`Heads::contains`]), with its
    /// head's atom if known.
    fn add_new(&mut self, tuple: &[TermId], hash: u64, atom: Option<TermId>) {
        let last = self.index.entry(hash).or_insert(NONE);
        self.earlier.push(*last);
        *last = self.count as u32;
        self.values.extend_from_slice(tuple);
        self.atoms.push(atom);
        self.count += 1;
    }
}

/// Adds to `heads` the solutions of `join` whose head is not already in
/// `known` (if given), while `room` lasts: each solution costs a join, each
/// new head an atom; when either runs out, the join stops and `room` is left
/// spent. `join` is made [within](Join::within) `room`: its candidates
/// tried are counted in `room`, and should the limits stop its scan, `room`
/// is left interrupted.
fn collect_heads(
    join: &Join<'_>,
    rule: &NRule,
    head_vars: &[u16],
    known: Option<&Model>,
    heads: &mut Heads,
    room: &mut Budget,
) {
    if room.interruption().is_some() {
        return;
    }
    let store = join.store;
    // Every head is of one relation: the atoms known are those of it.
    let known = known.and_then(|model| model.relation(rule.head.pred(store))).filter(|r| !r.atoms.is_empty());
    let mut tuple = Vec::with_capacity(head_vars.len());
    join.solutions(&mut |b| {
        if room.joins == 0 {
            return false;
        }
        room.spend_joins(1);
        tuple.clear();
        tuple.extend(head_vars.iter().map(|&v| b[v as usize].expect("head variables are bound")));
        // A head found again this round is settled without the store (a
        // hash lookup in a large table) or the model.
        let hash = Heads::hash(&tuple);
        if heads.contains(&tuple, hash) {
            return true;
        }
        let mut atom = None;
        if let Some(rel) = known {
            atom = find_instance(&rule.head, b, store);
            if atom.is_some_and(|atom| rel.contains(atom)) {
                return true;
            }
        }
        if room.atoms == 0 {
            return false;
        }
        heads.add_new(&tuple, hash, atom);
        room.atoms -= 1;
        true
    });
    join.pass_tries_to(room);
}

impl Heads {
    /// Whether the solution `tuple` of hash `hash` is among them.
    fn contains(&self, tuple: &[TermId], hash: u64) -> bool {
        let w = tuple.len();
        let mut i = self.index.get(&hash).copied().unwrap_or(NONE);
        while i != NONE {
            if &self.values[i as usize * w..(i as usize + 1) * w] == tuple {
                return true;
            }
            i = self.earlier[i as usize];
        }
        false
    }
}

/// The id of the instance of `pat` under `b`, if that term exists.
pub(crate) fn find_instance(pat: &Pat, b: &[Option<TermId>], store: &TermStore) -> Option<TermId> {
    instance_made_by(pat, b, &mut |name, args| store.find(&Node::App(name, args)))
}

/// Interns the instance of `pat` under `b`; `None` if a variable of it is
/// unbound.
pub(crate) fn instantiate(pat: &Pat, b: &[Option<TermId>], store: &mut TermStore) -> Option<TermId> {
    instance_made_by(pat, b, &mut |name, args| Some(store.app(name, args)))
}

/// The instance of `pat` under `b`, each compound term of it (inner ones
/// first) made by `make` from its name and arguments — found in the store
/// or interned, as the caller chooses; `None` if a variable of it is
/// unbound or `make` gives none.
#[inline]
fn instance_made_by(
    pat: &Pat,
    b: &[Option<TermId>],
    make: &mut impl FnMut(Sym, &[TermId]) -> Option<TermId>,
) -> Option<TermId> {
    match pat {
        Pat::Var(v) => b[*v as usize],
        Pat::Ground(id) => Some(*id),
        Pat::App(name, args) => {
            const INLINE: usize = 8;
            if args.len() <= INLINE {
                let mut ids = [TermId(0); INLINE];
                for (slot, a) in ids.iter_mut().zip(args.iter()) {
                    *slot = instance_made_by(a, b, make)?;
                }
                make(*name, &ids[..args.len()])
            } else {
                let ids = args.iter().map(|a| instance_made_by(a, b, make)).collect::<Option<Vec<_>>>()?;
                make(*name, &ids)
            }
        }
    }
}

/// One join of a rule body against a model, following a plan.
pub(crate) struct Join<'a> {
    store: &'a TermStore,
    rule: &'a NRule,
    plan: &'a Plan,
    /// A literal restricted to a range of its relation's atoms.
    delta: Option<(usize, Range<u32>)>,
    /// For each step: its relation, its index, whether it is checked.
    steps: Vec<StepState<'a>>,
    /// Whether some positive literal has no atoms to match (the join then
    /// has no solution, and was not set up further).
    dead: bool,
    /// Set when the caller asked to stop, or the limits stopped the scan.
    stopped: Cell<bool>,
    /// For each body literal, the atom its positive literal matched in the
    /// current solution.
    matched: Vec<Cell<TermId>>,
    /// The deadline and the cancellation the scan checks
    /// ([`Join::within`]), none by default.
    limits: Limits,
    /// How many more candidates the scan may try before it checks them.
    tries: Cell<usize>,
    /// Why they stopped the scan, if they did.
    interrupted: Cell<Option<OutOfLimits>>,
}

impl<'a> Join<'a> {
    /// A join of `rule` against `model` by `plan` (whose indexes should have
    /// been built: see [`Model::prepare_within`]; without them the literals are
    /// answered by scanning their relations).
    pub(crate) fn new(
        store: &'a TermStore,
        model: &'a Model,
        rule: &'a NRule,
        negation: &Negation<'_>,
        plan: &'a Plan,
        delta: Option<(usize, Range<u32>)>,
    ) -> Join<'a> {
        let mut join = Join {
            store,
            rule,
            plan,
            delta,
            steps: Vec::new(),
            dead: false,
            stopped: Cell::new(false),
            matched: Vec::new(),
            limits: Limits::none(),
            tries: Cell::new(usize::MAX),
            interrupted: Cell::new(None),
        };
        // A positive literal without atoms (an empty delta range included)
        // settles the join before anything is allocated: in a query by
        // demand most rules' demand relations are empty in a given state.
        let empty_delta = join.delta.as_ref().is_some_and(|(_, r)| r.start >= r.end);
        let dead = empty_delta
            || plan.steps.iter().any(|step| match &rule.body[step.lit] {
                Lit::Pos(p) => model.relation(p.pred(store)).is_none_or(|r| r.atoms.is_empty()),
                _ => false,
            });
        if dead {
            join.dead = true;
            return join;
        }
        join.steps = plan
            .steps
            .iter()
            .map(|step| {
                let (Lit::Pos(p) | Lit::Neg(p)) = &rule.body[step.lit] else { return StepState::default() };
                let pred = p.pred(store);
                let rel = model.relation(pred);
                let index = rel.zip(step.shape.as_ref()).and_then(|(r, s)| r.index(s));
                StepState { rel, index, checked: negation.checks(pred) }
            })
            .collect();
        join.matched = (0..rule.body.len()).map(|_| Cell::new(TermId(u32::MAX))).collect();
        join
    }

    /// This join, its scan over candidates checking the deadline and the
    /// cancellation of `budget` as the budget's own tries do (every
    /// [`CHECK_EVERY`] candidates, counting on from the budget's count):
    /// once they are reached, it reports no more solutions. Hand the count
    /// back with [`Join::pass_tries_to`].
    pub(crate) fn within(self, budget: &Budget) -> Join<'a> {
        Join { limits: budget.limits, tries: Cell::new(budget.tries), ..self }
    }

    /// Hands back to `budget` (the one of [`Join::within`]) the candidates
    /// left before the next check, and the interruption, should the limits
    /// have stopped the scan.
    pub(crate) fn pass_tries_to(&self, budget: &mut Budget) {
        budget.tries = self.tries.get();
        if let Some(why) = self.interrupted.get() {
            budget.interrupt(why);
        }
    }

    /// Counts a candidate tried; whether the limits stop the scan (checked
    /// every [`CHECK_EVERY`] candidates: a counter and a compare in the
    /// loop).
    #[inline]
    fn tried(&self) -> bool {
        let left = self.tries.get();
        if left > 0 {
            self.tries.set(left - 1);
            return false;
        }
        self.check_limits()
    }

    /// Checks the limits after [`CHECK_EVERY`] candidates tried; whether
    /// they stop the scan (which then reports no more solutions).
    #[cold]
    fn check_limits(&self) -> bool {
        if self.limits.is_none() {
            self.tries.set(usize::MAX);
            return false;
        }
        self.tries.set(CHECK_EVERY - 1);
        let Some(why) = self.limits.exceeded() else { return false };
        self.interrupted.set(Some(why));
        self.stopped.set(true);
        true
    }

    /// The atom that positive body literal `lit` matched in the solution
    /// being reported (to `solutions`' callback).
    pub(crate) fn matched(&self, lit: usize) -> TermId {
        self.matched[lit].get()
    }

    /// Calls `found` with the bindings of every solution, until it returns
    /// false.
    pub(crate) fn solutions(&self, found: &mut dyn FnMut(&[Option<TermId>]) -> bool) {
        if self.dead {
            return;
        }
        let mut b: Bindings = vec![None; self.rule.vars];
        let mut trail = Vec::new();
        self.step(0, &mut b, &mut trail, found);
    }

    fn step(&self, k: usize, b: &mut Bindings, trail: &mut Vec<u16>, found: &mut dyn FnMut(&[Option<TermId>]) -> bool) {
        let Some(step) = self.plan.steps.get(k) else {
            if !found(b) {
                self.stopped.set(true);
            }
            return;
        };
        match &self.rule.body[step.lit] {
            Lit::Pos(p) => {
                let range = match &self.delta {
                    Some((d, r)) if *d == step.lit => Some(r.clone()),
                    _ => None,
                };
                let lit = step.lit;
                self.each_match(k, p, range, b, trail, &mut |b, trail, atom| {
                    self.matched[lit].set(atom);
                    self.step(k + 1, b, trail, found);
                });
            }
            Lit::Neg(p) => {
                if !self.steps[k].checked || !self.holds(k, p, b, trail) {
                    self.step(k + 1, b, trail, found);
                }
            }
            Lit::Distinct(x, y) => {
                if !equal(self.store, x, y, b) {
                    self.step(k + 1, b, trail, found);
                }
            }
            Lit::Same(x, y) => {
                if equal(self.store, x, y, b) {
                    self.step(k + 1, b, trail, found);
                }
            }
        }
    }

    /// The positions of the atoms that may match the literal of step `k`
    /// under `b`, within `range`: from its index, or all of them.
    fn candidates(&self, k: usize, args: &[Pat], range: Option<Range<u32>>, b: &Bindings) -> Candidates<'a> {
        let rel = self.steps[k].rel.expect("the step has a relation");
        match self.steps[k].index {
            Some(index) => {
                let list = index.get(key_of_pattern(args, b));
                let list = match range {
                    Some(r) => {
                        let lo = list.partition_point(|&at| at < r.start);
                        let hi = list.partition_point(|&at| at < r.end);
                        &list[lo..hi]
                    }
                    None => list,
                };
                Candidates::List(list.iter())
            }
            None => Candidates::Range(range.unwrap_or(0..rel.atoms.len() as u32)),
        }
    }

    /// Whether some atom matches the literal `p` of step `k` under `b`.
    fn holds(&self, k: usize, p: &Pat, b: &mut Bindings, trail: &mut Vec<u16>) -> bool {
        let Some(rel) = self.steps[k].rel else { return false };
        let args = match p {
            Pat::Ground(id) => return rel.contains(*id),
            Pat::App(_, args) => args,
            Pat::Var(_) => unreachable!("a sentence is never a variable"),
        };
        let mark = trail.len();
        for at in self.candidates(k, args, None, b) {
            // Stopped, the negative literal is taken to fail: nothing
            // after it is reported.
            if self.tried() {
                return true;
            }
            let matched = match_pat(self.store, p, rel.atoms[at as usize], b, trail);
            undo(b, trail, mark);
            if matched {
                return true;
            }
        }
        false
    }

    fn each_match(
        &self,
        k: usize,
        p: &Pat,
        range: Option<Range<u32>>,
        b: &mut Bindings,
        trail: &mut Vec<u16>,
        then: &mut dyn FnMut(&mut Bindings, &mut Vec<u16>, TermId),
    ) {
        let Some(rel) = self.steps[k].rel else { return };
        let args = match p {
            Pat::Ground(id) => {
                if rel.position.get(id).is_some_and(|at| range.as_ref().is_none_or(|r| r.contains(at))) {
                    then(b, trail, *id);
                }
                return;
            }
            Pat::App(_, args) => args,
            Pat::Var(_) => unreachable!("a sentence is never a variable"),
        };
        let mark = trail.len();
        for at in self.candidates(k, args, range, b) {
            if self.tried() {
                return;
            }
            let atom = rel.atoms[at as usize];
            if match_pat(self.store, p, atom, b, trail) {
                then(b, trail, atom);
            }
            undo(b, trail, mark);
            if self.stopped.get() {
                return;
            }
        }
    }
}

/// What a join step reads: the relation of its literal, if it has one, the
/// index that answers it, if there is one, and for a negative literal,
/// whether it is checked.
#[derive(Clone, Copy)]
struct StepState<'a> {
    rel: Option<&'a Relation>,
    index: Option<&'a Index>,
    checked: bool,
}

impl Default for StepState<'_> {
    fn default() -> Self {
        StepState { rel: None, index: None, checked: true }
    }
}

/// Atom positions to try: an index's list, or a range of positions.
enum Candidates<'a> {
    List(std::slice::Iter<'a, u32>),
    Range(Range<u32>),
}

impl Iterator for Candidates<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        match self {
            Candidates::List(it) => it.next().copied(),
            Candidates::Range(r) => r.next(),
        }
    }
}

/// Unbinds the variables bound since the trail was `mark` long.
fn undo(b: &mut Bindings, trail: &mut Vec<u16>, mark: usize) {
    while trail.len() > mark {
        let v = trail.pop().expect("trail is longer than mark");
        b[v as usize] = None;
    }
}

/// Matches `p` against the ground term `t`, binding variables (recorded on
/// the trail).
pub(crate) fn match_pat(store: &TermStore, p: &Pat, t: TermId, b: &mut [Option<TermId>], trail: &mut Vec<u16>) -> bool {
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
            Node::App(n, targs) if n == *name && targs.len() == args.len() => {
                args.iter().zip(targs.iter()).all(|(a, t)| match_pat(store, a, *t, b, trail))
            }
            _ => false,
        },
    }
}

/// Syntactic equality of two patterns under `b`; an unbound variable equals
/// only itself (as in a top-down prover comparing unbound terms, and as
/// bottom-up evaluation reads `distinct`).
pub(crate) fn equal(store: &TermStore, x: &Pat, y: &Pat, b: &[Option<TermId>]) -> bool {
    if let Pat::Var(i) = x
        && let Some(t) = b[*i as usize]
    {
        return equal_term(store, y, t, b);
    }
    if let Pat::Var(j) = y
        && let Some(t) = b[*j as usize]
    {
        return equal_term(store, x, t, b);
    }
    match (x, y) {
        (Pat::Var(i), Pat::Var(j)) => i == j,
        (Pat::Var(_), _) | (_, Pat::Var(_)) => false,
        (Pat::Ground(t), _) => equal_term(store, y, *t, b),
        (_, Pat::Ground(t)) => equal_term(store, x, *t, b),
        (Pat::App(f, xs), Pat::App(g, ys)) => {
            f == g && xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(p, q)| equal(store, p, q, b))
        }
    }
}

/// Whether `p` under `b` is the term `t`.
fn equal_term(store: &TermStore, p: &Pat, t: TermId, b: &[Option<TermId>]) -> bool {
    match p {
        Pat::Var(v) => b[*v as usize] == Some(t),
        Pat::Ground(id) => *id == t,
        Pat::App(f, xs) => match store.node(t) {
            Node::App(g, ts) if g == *f && ts.len() == xs.len() => {
                xs.iter().zip(ts.iter()).all(|(p, t)| equal_term(store, p, *t, b))
            }
            _ => false,
        },
    }
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
    use crate::symbol::kw;

    fn model_of(text: &str) -> (Program, Model) {
        let mut program = Program::new(&Game::parse(text).unwrap());
        let evaluator = Evaluator::new(program.rules.clone(), &program.store, &|_| 10);
        let mut model = Model::default();
        evaluator.run(&mut program.store, &mut model, &Negation::Exact);
        let mut once = Model::default();
        Evaluator::run_once(
            program.rules.clone(),
            &mut program.store,
            &mut once,
            &Negation::Exact,
            &mut Budget::unlimited(),
        );
        for pred in model.rels.keys() {
            let mut a = model.atoms(*pred).to_vec();
            let mut b = once.atoms(*pred).to_vec();
            a.sort();
            b.sort();
            assert_eq!(a, b, "planned once or in advance, the same model");
        }
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

    #[test]
    fn recursion_through_several_relations_reaches_the_fixpoint() {
        // The bridges of grounding: true from init and next, does from legal.
        let (p, m) = model_of(
            "(succ 1 2) (succ 2 3) (succ 3 4) (init (at 1)) (init (control w))
             (<= (legal w (move ?x ?y)) (true (at ?x)) (succ ?x ?y) (true (control w)))
             (<= (next (at ?y)) (does ?r (move ?x ?y)))
             (<= (next (control w)) (true (control w)))
             (<= (does ?r ?m) (legal ?r ?m)) (<= (true ?x) (next ?x)) (<= (true ?x) (init ?x))",
        );
        assert_eq!(count(&p, &m, "true", 1), 5, "(at 1) … (at 4) and (control w)");
        assert_eq!(count(&p, &m, "legal", 2), 3);
    }

    #[test]
    fn duplicate_derivations_do_not_spend_the_atom_budget() {
        // 20 facts, then 400 instances of the rule body for 20 atoms of p: a
        // budget of 45 atoms suffices.
        let mut program = Program::new(
            &Game::parse(
                "(n 0) (n 1) (n 2) (n 3) (n 4) (n 5) (n 6) (n 7) (n 8) (n 9) (n 10) (n 11) (n 12) (n 13) \
                 (n 14) (n 15) (n 16) (n 17) (n 18) (n 19) (<= (p ?x) (n ?x) (n ?y))",
            )
            .unwrap(),
        );
        let mut model = Model::default();
        let mut budget = Budget::new(45, 1000);
        Evaluator::run_once(program.rules.clone(), &mut program.store, &mut model, &Negation::Exact, &mut budget);
        assert!(!budget.is_spent(), "{budget:?}");
        assert_eq!(count(&program, &model, "p", 1), 20);
        // Too few joins for the 400 instances: the evaluation stops, spent.
        let mut model = Model::default();
        let mut budget = Budget::new(45, 100);
        Evaluator::run_once(program.rules.clone(), &mut program.store, &mut model, &Negation::Exact, &mut budget);
        assert!(budget.is_spent());
    }

    #[test]
    fn joins_follow_the_cheapest_order() {
        let program = Program::new(&Game::parse("(<= (h ?x ?y) (big ?x ?y) (small ?x))").unwrap());
        let rule = &program.rules[0];
        let sizes = |p: Pred| if p.arity == 2 { 1000 } else { 3 };
        let plan = Plan::new(rule, None, &program.store, &sizes);
        assert_eq!(plan.order().collect::<Vec<_>>(), vec![1, 0], "the small relation first, then the bound lookup");
    }

    /// Four guards of sixteen atoms each are each smaller than the relation
    /// of a thousand they guard, but joined first they make 65,536 rows: the
    /// relation goes first, and the guards become tests. Where the greedy
    /// order is not much worse, it is kept.
    #[test]
    fn guards_are_not_joined_into_a_cross_product() {
        let program = Program::new(
            &Game::parse("(<= (h ?a) (big ?a ?b ?c ?d) (coord ?a) (coord ?b) (coord ?c) (coord ?d))").unwrap(),
        );
        let rule = &program.rules[0];
        let sizes = |p: Pred| if p.arity == 4 { 1000 } else { 16 };
        let plan = Plan::new(rule, None, &program.store, &sizes);
        assert_eq!(plan.order().next(), Some(0), "{:?}", plan.order().collect::<Vec<_>>());
        let sizes = |p: Pred| if p.arity == 4 { 1000 } else { 2 };
        let plan = Plan::new(rule, None, &program.store, &sizes);
        assert_ne!(plan.order().next(), Some(0), "sixteen rows first are cheaper than a thousand");
    }

    /// A model reset to the one it was cloned from has that one's atoms
    /// only, and derives the same again.
    #[test]
    fn a_reset_model_is_its_base_again() {
        let mut program = Program::new(
            &Game::parse(
                "(edge 1 2) (edge 2 3) (<= (path ?x ?y) (edge ?x ?y)) (<= (path ?x ?z) (edge ?x ?y) (path ?y ?z))",
            )
            .unwrap(),
        );
        let edge = Pred::new(program.symbols.lookup("edge").unwrap(), 2);
        let path = Pred::new(program.symbols.lookup("path").unwrap(), 2);
        let (facts, rules): (Vec<NRule>, Vec<NRule>) =
            program.rules.iter().cloned().partition(|r| r.head.pred(&program.store) == edge);
        let mut base = Model::default();
        Evaluator::new(facts, &program.store, &|_| 10).run(&mut program.store, &mut base, &Negation::Exact);
        let evaluator = Evaluator::new(rules, &program.store, &|_| 10);
        let mut work = base.clone();
        evaluator.run(&mut program.store, &mut work, &Negation::Exact);
        assert_eq!(work.atoms(path).len(), 3);
        work.reset_to(&base);
        assert!(work.atoms(path).is_empty());
        assert_eq!(work.atoms(edge).len(), 2);
        evaluator.run(&mut program.store, &mut work, &Negation::Exact);
        assert_eq!(work.atoms(path).len(), 3, "derived again, with the kept indexes");
    }

    /// The oracle's way of evaluating, state after state — an evaluator
    /// prepared once on the static model and assumed prepared, one work
    /// model reset to the static one before each state — derives exactly
    /// what a fresh evaluation of the same rules derives in that state, over
    /// many random states of a program with recursion (several rules for
    /// one relation, so heads are found by more than one rule), negation on
    /// a derived relation and `distinct`.
    #[test]
    fn a_prepared_evaluator_on_a_reset_model_agrees_with_fresh_evaluations() {
        use rand::{Rng, SeedableRng};
        let mut program = Program::new(
            &Game::parse(
                "(node 0) (node 1) (node 2) (node 3) (node 4) (node 5)
                 (<= (path ?x ?y) (true (edge ?x ?y)))
                 (<= (path ?x ?z) (path ?x ?y) (true (edge ?y ?z)))
                 (<= (path ?x ?z) (true (edge ?x ?y)) (path ?y ?z))
                 (<= (cut ?x ?y) (node ?x) (node ?y) (distinct ?x ?y) (not (path ?x ?y)))
                 (<= (loop ?x) (path ?x ?x))",
            )
            .unwrap(),
        );
        let name = |n: &str| program.symbols.lookup(n).unwrap();
        let (edge, node) = (name("edge"), Pred::new(name("node"), 1));
        let derived: Vec<Pred> = [("path", 2), ("cut", 2), ("loop", 1)].map(|(n, a)| Pred::new(name(n), a)).into();
        let (facts, rules): (Vec<NRule>, Vec<NRule>) =
            program.rules.iter().cloned().partition(|r| r.head.pred(&program.store) == node);
        let mut statics = Model::default();
        Evaluator::new(facts, &program.store, &|_| 10).run(&mut program.store, &mut statics, &Negation::Exact);
        let mut evaluator = Evaluator::new(rules.clone(), &program.store, &|_| 10);
        evaluator.prepare(&mut statics, &program.store);
        evaluator.assume_prepared();
        let mut work = statics.clone();
        let nodes: Vec<TermId> =
            (0..6).map(|i| program.store.sym(program.symbols.lookup(&i.to_string()).unwrap())).collect();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for _ in 0..200 {
            let mut state = Vec::new();
            for _ in 0..rng.random_range(0..12) {
                let (x, y) = (nodes[rng.random_range(0..6)], nodes[rng.random_range(0..6)]);
                let e = program.store.app(edge, &[x, y]);
                state.push(program.store.app(kw::TRUE, &[e]));
            }
            work.reset_to(&statics);
            let mut fresh = statics.clone();
            for &atom in &state {
                work.insert(atom, &program.store);
                fresh.insert(atom, &program.store);
            }
            evaluator.run(&mut program.store, &mut work, &Negation::Exact);
            Evaluator::run_once(
                rules.clone(),
                &mut program.store,
                &mut fresh,
                &Negation::Exact,
                &mut Budget::unlimited(),
            );
            for &p in &derived {
                let mut a = work.atoms(p).to_vec();
                let mut b = fresh.atoms(p).to_vec();
                a.sort();
                b.sort();
                assert_eq!(a, b, "{p:?} in the state {state:?}");
            }
        }
    }

    /// A chain of `n` vertices and the rules of its transitive closure:
    /// n(n-1)/2 `path` atoms, found over n rounds.
    fn closure(n: usize) -> (Program, Vec<NRule>) {
        let mut text = String::from("(<= (path ?x ?y) (edge ?x ?y)) (<= (path ?x ?z) (path ?x ?y) (edge ?y ?z))");
        for i in 1..n {
            text.push_str(&format!(" (edge {} {i})", i - 1));
        }
        let program = Program::new(&Game::parse(&text).unwrap());
        let rules = program.rules.clone();
        (program, rules)
    }

    /// The closure of a chain of 200 vertices evaluated within `budget`:
    /// the `path` atoms found, and the budget left.
    fn closure_within(budget: Budget) -> (usize, Budget) {
        let (mut program, rules) = closure(200);
        let mut model = Model::default();
        let mut budget = budget;
        Evaluator::run_once(rules, &mut program.store, &mut model, &Negation::Exact, &mut budget);
        (count(&program, &model, "path", 2), budget)
    }

    #[test]
    fn a_cancelled_or_late_evaluation_stops_at_its_first_join() {
        let all = 200 * 199 / 2;
        let (found, left) = closure_within(Budget::unlimited());
        assert_eq!((found, left.interruption()), (all, None));
        let canceller = crate::cancel::Canceller::new();
        let (found, left) = closure_within(Budget::unlimited().cancelled_by(canceller.handle()));
        assert_eq!((found, left.interruption()), (all, None), "a cancellation not raised changes nothing");
        canceller.cancel();
        let (found, left) = closure_within(Budget::unlimited().cancelled_by(canceller.handle()));
        assert_eq!(left.interruption(), Some(OutOfLimits::Cancelled));
        assert!(left.is_spent() && found < 10, "{found} paths");
        let past = Instant::now() - std::time::Duration::from_millis(1);
        let (found, left) = closure_within(Budget::unlimited().until(past));
        assert_eq!(left.interruption(), Some(OutOfLimits::Deadline));
        assert!(left.is_spent() && found < 10, "{found} paths");
        let later = Instant::now() + std::time::Duration::from_secs(3600);
        let (found, left) = closure_within(Budget::unlimited().until(later));
        assert_eq!((found, left.interruption()), (all, None));
        assert!(!left.is_spent());
    }

    /// An evaluation sees a cancellation raised while it runs within
    /// [`CHECK_EVERY`] joins, and keeps its limits across the copies the
    /// evaluator makes of its budget.
    #[test]
    fn a_cancellation_raised_midway_is_seen_within_check_every_joins() {
        let canceller = crate::cancel::Canceller::new();
        let mut budget = Budget::new(10, usize::MAX).cancelled_by(canceller.handle());
        for _ in 0..5 * CHECK_EVERY {
            budget.spend_joins(1);
        }
        assert!(!budget.is_spent());
        canceller.cancel();
        let mut spent = 0;
        while !budget.is_spent() {
            budget.spend_joins(1);
            spent += 1;
        }
        assert!(spent <= CHECK_EVERY, "{spent} joins after the cancellation");
        assert_eq!(budget.interruption(), Some(OutOfLimits::Cancelled));
        // Copies (the room a group's joins run in) carry the limits, and
        // an interruption comes back to the budget they were taken from.
        let fresh = crate::cancel::Canceller::new();
        let mut budget = Budget::new(10, usize::MAX).cancelled_by(fresh.handle());
        let mut room = budget;
        fresh.cancel();
        room.spend_joins(1);
        assert_eq!(room.interruption(), Some(OutOfLimits::Cancelled));
        budget.joins_of(&room);
        assert!(budget.is_spent());
        assert_eq!(budget.interruption(), Some(OutOfLimits::Cancelled));
    }

    /// The rule `(<= diagonal (big ?x ?x))` and a model of 200,000 atoms
    /// `(big i i+1)`, none of which it matches: a join that scans them all
    /// (nothing is bound, so no index answers it) and finds no instance.
    fn scan_without_a_match() -> (Program, Evaluator, Model) {
        let mut program = Program::new(&Game::parse("(<= diagonal (big ?x ?x))").unwrap());
        let big = program.symbols.lookup("big").expect("big is a relation");
        let mut model = Model::default();
        let mut previous = None;
        for i in 0..=200_000 {
            let number = program.symbols.intern(&i.to_string());
            let number = program.store.sym(number);
            if let Some(before) = previous {
                let atom = program.store.app(big, &[before, number]);
                model.insert(atom, &program.store);
            }
            previous = Some(number);
        }
        let evaluator = Evaluator::new(program.rules.clone(), &program.store, &|_| 10);
        (program, evaluator, model)
    }

    /// A scan over candidates that match nothing spends no join, yet it
    /// checks the limits as it tries them: it stops at a cancellation
    /// raised before it starts, and at a deadline already past; without
    /// limits, or with limits not reached, it tries every candidate and
    /// finds nothing, spending no join.
    #[test]
    fn a_scan_that_matches_nothing_stops_at_its_limits() {
        let (mut program, evaluator, model) = scan_without_a_match();
        let diagonal = Pred::proposition(program.symbols.lookup("diagonal").unwrap());
        assert_eq!(model.atoms(Pred::new(program.symbols.lookup("big").unwrap(), 2)).len(), 200_000);
        let canceller = crate::cancel::Canceller::new();
        let later = Instant::now() + std::time::Duration::from_secs(3600);
        for budget in [Budget::unlimited(), Budget::unlimited().until(later).cancelled_by(canceller.handle())] {
            let mut work = model.clone();
            let mut budget = budget;
            evaluator.run_limited(&mut program.store, &mut work, &Negation::Exact, &mut budget);
            assert_eq!(budget.interruption(), None);
            assert_eq!(budget.joins, usize::MAX, "no join spent");
            assert!(work.atoms(diagonal).is_empty());
        }
        canceller.cancel();
        let past = Instant::now() - std::time::Duration::from_millis(1);
        let stopped = [
            (Budget::unlimited().cancelled_by(canceller.handle()), OutOfLimits::Cancelled),
            (Budget::unlimited().until(past), OutOfLimits::Deadline),
        ];
        for (budget, why) in stopped {
            let mut work = model.clone();
            let mut budget = budget;
            evaluator.run_limited(&mut program.store, &mut work, &Negation::Exact, &mut budget);
            assert_eq!(budget.interruption(), Some(why));
            assert!(budget.is_spent());
        }
    }

    /// Building an index counts its atoms as tries: a cancellation raised
    /// before stops it, and the index is not kept; a budget without limits
    /// builds it.
    #[test]
    fn an_index_built_within_limits_stops_at_a_cancellation() {
        let (program, _, model) = scan_without_a_match();
        let big = Pred::new(program.symbols.lookup("big").unwrap(), 2);
        // The shape of `(big 5 ?x)`: the first argument a key.
        let shape = Shape::of(&[Pat::Ground(TermId(0)), Pat::Var(0)], &|_| false);
        let canceller = crate::cancel::Canceller::new();
        canceller.cancel();
        let mut stopped = model.clone();
        let mut budget = Budget::unlimited().cancelled_by(canceller.handle());
        assert!(!stopped.ensure_index(big, &shape, &program.store, &mut budget));
        assert_eq!(budget.interruption(), Some(OutOfLimits::Cancelled));
        assert!(stopped.relation(big).unwrap().index(&shape).is_none());
        let mut built = model.clone();
        let mut budget = Budget::unlimited();
        assert!(built.ensure_index(big, &shape, &program.store, &mut budget));
        assert!(built.relation(big).unwrap().index(&shape).is_some());
    }

    /// Of groups evaluated while they fit, one the limits stop is not kept,
    /// and the budget says why.
    #[test]
    fn an_evaluation_within_its_budget_passes_an_interruption_on() {
        let (mut program, rules) = closure(50);
        let mut model = Model::default();
        let canceller = crate::cancel::Canceller::new();
        canceller.cancel();
        let mut budget = Budget::unlimited().cancelled_by(canceller.handle());
        let rest = Evaluator::run_while_within(rules, &mut program.store, &mut model, &Negation::Exact, &mut budget);
        assert!(!rest.is_empty());
        assert_eq!(count(&program, &model, "path", 2), 0);
        assert_eq!(budget.interruption(), Some(OutOfLimits::Cancelled));
    }
}
