//! Rule decomposition before grounding: a rule body is split where its
//! variables allow, so that grounding instantiates small pieces instead of
//! their cross product.
//!
//! Two rewrites, applied to every state-dependent rule and to the helper
//! rules they create:
//!
//! - *Projection*: variables that occur in a single positive literal and
//!   nowhere else (not in the head) are projected away. In Amazons,
//!
//!   ```text
//!   (<= (next (location ?x ?y ?s)) (true (location ?x ?y ?s))
//!       (does ?p (play ?x1 ?y1 ?x2 ?y2 ?x3 ?y3)) (distinctCell ?x ?y ?x1 ?y1))
//!   ```
//!
//!   only asks which square a move starts from: `(does ?p (play …))` becomes
//!   `(aux ?x1 ?y1)` with `(<= (aux ?x1 ?y1) (does ?p (play ?x1 ?y1 ?x2 ?y2 ?x3 ?y3)))`.
//! - *Components*: the body literals are grouped by the variables they share
//!   that are not in the head. A group that other literals do not depend on
//!   becomes a helper relation over its head variables, grounded once
//!   instead of once per instance of the rest of the body. Above, the group
//!   `(aux ?x1 ?y1) (distinctCell ?x ?y ?x1 ?y1)` becomes `(aux2 ?x ?y)`, and
//!   the rule is grounded for 100 squares rather than 100 squares times
//!   every move.
//!
//! Helper relations with the same body (up to variable names) are shared, so
//! that a condition many rules test — "the king of ?player stands on ?x ?y"
//! — is one proposition per instance. The rewrite keeps the meaning: each
//! helper is defined by exactly the literals it replaces (with copies of the
//! positive literals that bind its head variables, when the group alone does
//! not), and groups made only of state-independent literals are left alone
//! (they vanish in grounding anyway). A variable that a relation given by
//! facts determines from another variable of the rule (`(++ ?x1 ?x2)`: each
//! number has one successor) is not eliminated into a helper that would
//! hold every state-dependent literal of the rule: the helper would have an
//! instance for each instance of the rule, and narrow nothing.

use std::collections::HashMap;

use crate::datalog::{PeriodicCheck, lit_vars};
use crate::limits::{Limits, OutOfLimits};
use crate::normalize::{Lit, NRule, Pat};
use crate::store::{Pred, TermId, TermStore};
use crate::symbol::Symbols;

/// Rewrites `rules`; `dynamic` tells the state-dependent relations, `facts`
/// which relations given by facts determine one argument from another.
/// Returns the rules and the helper relations created (all state-dependent);
/// or, should `limits` stop it (checked as the rules are rewritten, one
/// step each), why.
pub(crate) fn decompose(
    rules: Vec<NRule>,
    dynamic: &dyn Fn(Pred) -> bool,
    facts: &Determined,
    store: &mut TermStore,
    symbols: &mut Symbols,
    limits: Limits,
) -> Result<(Vec<NRule>, Vec<Pred>), OutOfLimits> {
    let mut check = PeriodicCheck::new(limits);
    let helpers = Helpers { known: HashMap::new(), preds: Vec::new(), rules: Vec::new() };
    let mut rewriter = Rewriter { dynamic, facts, store, symbols, helpers };
    let mut out = Vec::with_capacity(rules.len());
    let mut work = rules;
    while let Some(rule) = work.pop() {
        check.step()?;
        let rule = rewriter.project(rule);
        let rule = rewriter.split(rule);
        let rule = rewriter.eliminate(rule);
        out.push(rule);
        work.append(&mut rewriter.helpers.rules);
    }
    out.reverse();
    Ok((out, rewriter.helpers.preds))
}

/// What the three rewrites share as they go: which relations depend on the
/// state, which fact relations determine which arguments, the terms and
/// symbols, and the helper relations made so far.
struct Rewriter<'a> {
    /// Whether a relation of the rules depends on the state.
    dynamic: &'a dyn Fn(Pred) -> bool,
    /// Which relations given by facts determine one argument from another.
    facts: &'a Determined,
    /// The terms the rules are made of (helper heads are interned here).
    store: &'a mut TermStore,
    /// The symbols (helper relations are named here).
    symbols: &'a mut Symbols,
    /// The helper relations made so far, and their rules still to rewrite.
    helpers: Helpers,
}

/// For the relations given only by facts, which argument positions determine
/// which: `(++ 1 2) (++ 2 3) … (++ 10 1)` determines the second argument from
/// the first and the first from the second.
#[derive(Debug, Default)]
pub(crate) struct Determined {
    /// For each such relation, the pairs (from, to) of positions where the
    /// argument at `from` determines the one at `to`.
    pairs: HashMap<Pred, Vec<(usize, usize)>>,
}

impl Determined {
    /// The dependencies of the relations that `rules` define by facts alone
    /// (ground heads, empty bodies), up to [`Determined::MAX_ARITY`]
    /// arguments; or, should `limits` stop it (checked per rule and per
    /// fact compared), why.
    pub(crate) fn of_facts(rules: &[NRule], store: &TermStore, limits: Limits) -> Result<Determined, OutOfLimits> {
        let mut check = PeriodicCheck::new(limits);
        let mut facts: HashMap<Pred, Vec<Vec<TermId>>> = HashMap::new();
        let mut ruled: Vec<Pred> = Vec::new();
        for rule in rules {
            check.step()?;
            let pred = rule.head.pred(store);
            let args: Option<Vec<TermId>> = match &rule.head {
                Pat::Ground(id) if rule.body.is_empty() => Some(store.args(*id).to_vec()),
                Pat::App(_, args) if rule.body.is_empty() => {
                    args.iter().map(|a| if let Pat::Ground(t) = a { Some(*t) } else { None }).collect()
                }
                _ => None,
            };
            match args {
                Some(args) if (2..=Determined::MAX_ARITY).contains(&args.len()) => {
                    facts.entry(pred).or_default().push(args)
                }
                _ => ruled.push(pred),
            }
        }
        let mut pairs = HashMap::new();
        for (pred, rows) in facts {
            if ruled.contains(&pred) {
                continue;
            }
            let arity = pred.arity as usize;
            let mut found = Vec::new();
            for from in 0..arity {
                for to in (0..arity).filter(|&t| t != from) {
                    let mut image: HashMap<TermId, TermId> = HashMap::new();
                    let mut function = true;
                    for row in &rows {
                        check.step()?;
                        if *image.entry(row[from]).or_insert(row[to]) != row[to] {
                            function = false;
                            break;
                        }
                    }
                    if function {
                        found.push((from, to));
                    }
                }
            }
            if !found.is_empty() {
                pairs.insert(pred, found);
            }
        }
        Ok(Determined { pairs })
    }

    /// Relations with more arguments are not examined.
    const MAX_ARITY: usize = 4;

    /// Whether `lit` is a fact relation's literal in which variable `v` is
    /// determined by a variable that `kept` holds.
    fn fixes(&self, lit: &Lit, v: u16, kept: &[u16], store: &TermStore) -> bool {
        let Lit::Pos(Pat::App(_, args)) = lit else { return false };
        let Some(pairs) = self.pairs.get(&lit_pred(lit, store)) else { return false };
        pairs.iter().any(|&(from, to)| {
            matches!((&args[from], &args[to]), (Pat::Var(w), Pat::Var(x)) if *x == v && *w != v && kept.contains(w))
        })
    }
}

/// The relation a positive or negative literal asks about.
fn lit_pred(lit: &Lit, store: &TermStore) -> Pred {
    match lit {
        Lit::Pos(p) | Lit::Neg(p) => p.pred(store),
        Lit::Distinct(..) | Lit::Same(..) => unreachable!("only called on relation literals"),
    }
}

/// The helper relations made so far, by canonical body.
struct Helpers {
    known: HashMap<(Vec<Lit>, Vec<u16>), Pred>,
    preds: Vec<Pred>,
    /// New helper rules, still to be decomposed.
    rules: Vec<NRule>,
}

impl Helpers {
    /// `(helper vars…)` defined by `body`, whose variables other than `vars`
    /// are local to it; the head's arguments are `vars` in order of first
    /// occurrence in `body`.
    fn make(&mut self, body: Vec<Lit>, vars: &[u16], store: &mut TermStore, symbols: &mut Symbols) -> Pat {
        // Variables renumbered by first occurrence: equal bodies share.
        let mut order: Vec<u16> = Vec::new();
        for l in &body {
            l.vars(&mut order);
        }
        let renumber: HashMap<u16, u16> = order.iter().enumerate().map(|(i, &v)| (v, i as u16)).collect();
        let canonical: Vec<Lit> = body.iter().map(|l| rename_lit(l, &renumber)).collect();
        let args: Vec<u16> = order.iter().copied().filter(|v| vars.contains(v)).collect();
        let key = (canonical, args.iter().map(|v| renumber[v]).collect::<Vec<u16>>());
        let pred = match self.known.get(&key) {
            Some(&p) => p,
            None => {
                let name = symbols.fresh("part");
                let pred = Pred::new(name, args.len());
                let canonical = key.0.clone();
                self.known.insert(key, pred);
                self.preds.push(pred);
                let head = helper_pattern(name, args.iter().map(|v| renumber[v]), store);
                self.rules.push(NRule { head, body: canonical, vars: order.len() });
                pred
            }
        };
        helper_pattern(pred.name, args.iter().copied(), store)
    }
}

/// `(name ?v…)`, or the ground `(name)` without variables.
fn helper_pattern(name: crate::symbol::Sym, vars: impl Iterator<Item = u16>, store: &mut TermStore) -> Pat {
    let args: Box<[Pat]> = vars.map(Pat::Var).collect();
    if args.is_empty() { Pat::Ground(store.app(name, &[])) } else { Pat::App(name, args) }
}

/// `p` with each variable renamed as `to` says.
fn rename_pat(p: &Pat, to: &HashMap<u16, u16>) -> Pat {
    match p {
        Pat::Var(v) => Pat::Var(to[v]),
        Pat::Ground(id) => Pat::Ground(*id),
        Pat::App(name, args) => Pat::App(*name, args.iter().map(|a| rename_pat(a, to)).collect()),
    }
}

/// `l` with each variable renamed as `to` says.
fn rename_lit(l: &Lit, to: &HashMap<u16, u16>) -> Lit {
    match l {
        Lit::Pos(p) => Lit::Pos(rename_pat(p, to)),
        Lit::Neg(p) => Lit::Neg(rename_pat(p, to)),
        Lit::Distinct(a, b) => Lit::Distinct(rename_pat(a, to), rename_pat(b, to)),
        Lit::Same(a, b) => Lit::Same(rename_pat(a, to), rename_pat(b, to)),
    }
}

/// How many times each variable occurs in the head and the body literals
/// (once per literal).
fn occurrences(rule: &NRule) -> HashMap<u16, usize> {
    let mut count: HashMap<u16, usize> = HashMap::new();
    let mut head = Vec::new();
    rule.head.vars(&mut head);
    for v in head {
        *count.entry(v).or_default() += 1;
    }
    for l in &rule.body {
        for v in lit_vars(l) {
            *count.entry(v).or_default() += 1;
        }
    }
    count
}

impl Rewriter<'_> {
    /// Whether `lit` asks about a state-dependent relation, or a helper made
    /// so far (helpers are state-dependent).
    fn tests_state(&self, lit: &Lit) -> bool {
        match lit {
            Lit::Pos(p) | Lit::Neg(p) => {
                let pred = p.pred(self.store);
                (self.dynamic)(pred) || self.helpers.preds.contains(&pred)
            }
            Lit::Distinct(..) | Lit::Same(..) => false,
        }
    }

    /// `(helper vars…)` defined by `body` (see [`Helpers::make`]).
    fn helper(&mut self, body: Vec<Lit>, vars: &[u16]) -> Pat {
        self.helpers.make(body, vars, self.store, self.symbols)
    }

    /// Projection: each positive state-dependent literal with variables of its
    /// own (and others) becomes a helper over the others.
    fn project(&mut self, mut rule: NRule) -> NRule {
        if rule.body.len() < 2 {
            return rule;
        }
        let count = occurrences(&rule);
        for i in 0..rule.body.len() {
            if !matches!(rule.body[i], Lit::Pos(_)) || !self.tests_state(&rule.body[i]) {
                continue;
            }
            let vars = lit_vars(&rule.body[i]);
            let shared: Vec<u16> = vars.iter().copied().filter(|v| count[v] > 1).collect();
            if shared.len() == vars.len() {
                continue;
            }
            rule.body[i] = Lit::Pos(self.helper(vec![rule.body[i].clone()], &shared));
        }
        rule
    }

    /// Components: the literals connected through variables that are not in
    /// the head, each group with a state-dependent literal (and not the whole
    /// body) replaced by a helper.
    fn split(&mut self, mut rule: NRule) -> NRule {
        let mut head_vars = Vec::new();
        rule.head.vars(&mut head_vars);
        let n = rule.body.len();
        if n < 2 {
            return rule;
        }
        // Union-find over the literals, joined by shared non-head variables.
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        let mut owner: HashMap<u16, usize> = HashMap::new();
        for (i, l) in rule.body.iter().enumerate() {
            for v in lit_vars(l) {
                if head_vars.contains(&v) {
                    continue;
                }
                match owner.get(&v) {
                    Some(&j) => {
                        let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                        parent[a] = b;
                    }
                    None => {
                        owner.insert(v, i);
                    }
                }
            }
        }
        let has_local = |l: &Lit| lit_vars(l).iter().any(|v| !head_vars.contains(v));
        let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
        for (i, l) in rule.body.iter().enumerate() {
            if has_local(l) {
                groups.entry(root(&mut parent, i)).or_default().push(i);
            }
        }
        if groups.len() == 1 && groups.values().next().is_some_and(|g| g.len() == n) {
            return rule;
        }
        let mut replaced: Vec<Option<Lit>> = rule.body.iter().cloned().map(Some).collect();
        let mut keys: Vec<usize> = groups.keys().copied().collect();
        keys.sort_unstable();
        for key in keys {
            let members = &groups[&key];
            if !members.iter().any(|&i| self.tests_state(&rule.body[i])) {
                continue;
            }
            let mut body: Vec<Lit> = members.iter().map(|&i| rule.body[i].clone()).collect();
            // The helper's head variables and those its negative and distinct
            // literals test must be bound by its positive literals: borrow
            // binders from the rest of the body (literals over head variables).
            let mut bound = Vec::new();
            let mut needed = Vec::new();
            for l in &body {
                match l {
                    Lit::Pos(p) => p.vars(&mut bound),
                    _ => l.vars(&mut needed),
                }
            }
            let mut local = Vec::new();
            for l in &body {
                l.vars(&mut local);
            }
            local.retain(|v| !head_vars.contains(v));
            let mut interface: Vec<u16> = Vec::new();
            for l in &body {
                for v in lit_vars(l) {
                    if head_vars.contains(&v) && !interface.contains(&v) {
                        interface.push(v);
                    }
                }
            }
            needed.extend(interface.iter().copied());
            let mut safe = true;
            for v in needed {
                if bound.contains(&v) {
                    continue;
                }
                let binder = rule.body.iter().find(|l| {
                    matches!(l, Lit::Pos(p) if {
                        let mut pv = Vec::new();
                        p.vars(&mut pv);
                        pv.contains(&v) && pv.iter().all(|w| head_vars.contains(w))
                    })
                });
                match binder {
                    Some(b) => {
                        b.vars(&mut bound);
                        for w in lit_vars(b) {
                            if !interface.contains(&w) {
                                interface.push(w);
                            }
                        }
                        body.push(b.clone());
                    }
                    None => {
                        safe = false;
                        break;
                    }
                }
            }
            // A group that needs the whole body would only rename the rule, and
            // one over every head variable the body binds, when the rest of the
            // body is state-independent, would only move the rule into the
            // helper: the rule would be the helper's instances again, less type
            // tests that grounding drops anyway (amazons' rays "ignoring" a
            // square: 200,000 helper rules on amazonsTorus).
            let narrows =
                rule.body.iter().any(|l| lit_vars(l).iter().any(|v| head_vars.contains(v) && !interface.contains(v)));
            let rest_is_static = (0..n).filter(|i| !members.contains(i)).all(|i| !self.tests_state(&rule.body[i]));
            if !safe || body.len() >= n || (!narrows && rest_is_static) {
                continue;
            }
            let helper = self.helper(body, &interface);
            for (k, &i) in members.iter().enumerate() {
                replaced[i] = (k == 0).then(|| Lit::Pos(helper.clone()));
            }
        }
        rule.body = replaced.into_iter().flatten().collect();
        rule
    }

    /// Elimination: while some variable not in the head occurs only in a part
    /// of the body that tests a state-dependent relation, that part becomes a
    /// helper over its other variables — the variable with the smallest such
    /// helper first (the "bucket elimination" order of constraint networks).
    /// A chain of sums `(sum ?a ?b ?s1) (sum ?s1 ?c ?s2) …` over four bids is
    /// grounded link by link instead of for every combination of bids. A
    /// variable that `facts` determine from one the helper keeps is not
    /// eliminated when the helper would hold every state-dependent literal
    /// (amazons' diagonal rays: the next square's column is the successor of
    /// this one's); with state-dependent literals outside it, the helper still
    /// splits the join (sudoku's 3×3 squares, row by row).
    fn eliminate(&mut self, mut rule: NRule) -> NRule {
        let mut head_vars = Vec::new();
        rule.head.vars(&mut head_vars);
        loop {
            let n = rule.body.len();
            if n < 3 {
                return rule;
            }
            let mut all = Vec::new();
            for l in &rule.body {
                l.vars(&mut all);
            }
            let mut best: Option<(usize, u16, Vec<usize>, Vec<u16>)> = None;
            for &v in all.iter().filter(|v| !head_vars.contains(v)) {
                let bucket: Vec<usize> = (0..n).filter(|&i| lit_vars(&rule.body[i]).contains(&v)).collect();
                if bucket.len() < 2 || bucket.len() >= n {
                    continue;
                }
                if !bucket.iter().any(|&i| self.tests_state(&rule.body[i])) {
                    continue;
                }
                let mut vars = Vec::new();
                let mut bound = Vec::new();
                for &i in &bucket {
                    rule.body[i].vars(&mut vars);
                    if let Lit::Pos(p) = &rule.body[i] {
                        p.vars(&mut bound);
                    }
                }
                if vars.iter().any(|w| !bound.contains(w)) {
                    continue;
                }
                vars.retain(|&w| w != v);
                // Worth it only when the helper is narrower than the rule.
                if vars.len() + 1 >= all.len() {
                    continue;
                }
                // A helper that keeps every state-dependent literal and fixes
                // its variable from one it keeps would only be the rule again.
                let rest_is_static = (0..n).filter(|i| !bucket.contains(i)).all(|i| !self.tests_state(&rule.body[i]));
                if rest_is_static && bucket.iter().any(|&i| self.facts.fixes(&rule.body[i], v, &vars, self.store)) {
                    continue;
                }
                if best.as_ref().is_none_or(|b| (vars.len(), bucket.len()) < (b.0, b.2.len())) {
                    best = Some((vars.len(), v, bucket, vars));
                }
            }
            let Some((_, _, bucket, vars)) = best else { return rule };
            let body: Vec<Lit> = bucket.iter().map(|&i| rule.body[i].clone()).collect();
            let helper = self.helper(body, &vars);
            let mut replaced: Vec<Option<Lit>> = rule.body.into_iter().map(Some).collect();
            for (k, &i) in bucket.iter().enumerate() {
                replaced[i] = (k == 0).then(|| Lit::Pos(helper.clone()));
            }
            rule.body = replaced.into_iter().flatten().collect();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datalog::{Budget, Evaluator, Model, Negation};
    use crate::game::Game;
    use crate::normalize::Program;

    /// Decomposes the rules of `text` (`dynamic` naming the state-dependent
    /// relations), checks that both rule sets derive the same atoms of the
    /// original relations, and returns the number of helpers.
    fn helpers_for(text: &str, dynamic: &[&str]) -> usize {
        let mut program = Program::new(&Game::parse(text).unwrap());
        let names: Vec<_> = dynamic.iter().map(|n| program.symbols.lookup(n).unwrap()).collect();
        let is_dynamic = |p: Pred| names.contains(&p.name);
        let original = program.rules.clone();
        let facts = Determined::of_facts(&program.rules, &program.store, Limits::none()).expect("no limits");
        let (rules, helpers) =
            decompose(original.clone(), &is_dynamic, &facts, &mut program.store, &mut program.symbols, Limits::none())
                .expect("no limits");
        let mut before = Model::default();
        Evaluator::run_once(
            original.clone(),
            &mut program.store,
            &mut before,
            &Negation::Exact,
            &mut Budget::unlimited(),
        );
        let mut after = Model::default();
        Evaluator::run_once(rules, &mut program.store, &mut after, &Negation::Exact, &mut Budget::unlimited());
        for r in &original {
            let pred = r.head.pred(&program.store);
            let mut a = before.atoms(pred).to_vec();
            let mut b = after.atoms(pred).to_vec();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{}", program.symbols.name(pred.name));
        }
        helpers.len()
    }

    #[test]
    fn a_frame_rule_is_split_from_the_move() {
        let text = "(true (location 1 1 a)) (true (location 1 2 b)) (true (location 2 2 c))
            (does p (play 1 1 2 2)) (does q (play 1 2 2 1))
            (<= (distinctCell ?x ?y ?u ?v) (true (location ?x ?y ?s)) (true (location ?u ?v ?t)) (distinct ?x ?u))
            (<= (distinctCell ?x ?y ?u ?v) (true (location ?x ?y ?s)) (true (location ?u ?v ?t)) (distinct ?y ?v))
            (<= (next (location ?x ?y ?s)) (true (location ?x ?y ?s))
                (does ?p (play ?x1 ?y1 ?x2 ?y2)) (distinctCell ?x ?y ?x1 ?y1))";
        // (part ?x1 ?y1) from the move; (part ?x ?y) from it and
        // distinctCell; and in distinctCell, one for "a piece stands on".
        assert_eq!(helpers_for(text, &["true", "does", "distinctCell"]), 3);
    }

    #[test]
    fn shared_conditions_share_a_helper() {
        let text = "(p 1) (r 2) (q 3) (true (k 3)) (true (k 4))
            (<= (a ?x) (p ?x) (true (k ?y)) (q ?y)) (<= (b ?z) (r ?z) (true (k ?w)) (q ?w))
            (<= (c ?x) (p ?x) (true (k ?y)) (not (q ?y)))";
        assert_eq!(helpers_for(text, &["true"]), 2);
    }

    #[test]
    fn one_body_exported_differently_makes_different_helpers() {
        let text = "(p 1) (q 1) (true (k 1 2)) (true (k 3 4))
            (<= (a ?x) (p ?x) (true (k ?x ?y)) (q ?x)) (<= (b ?y) (p ?y) (true (k ?x ?y)) (q ?y))";
        assert_eq!(helpers_for(text, &["true"]), 2);
    }

    #[test]
    fn a_sum_of_bids_is_grounded_link_by_link() {
        let text = "(n 0) (n 1) (n 2) (sum 0 0 0) (sum 0 1 1) (sum 1 0 1) (sum 1 1 2) (sum 0 2 2) (sum 2 0 2)
            (sum 1 2 3) (sum 2 1 3) (sum 2 2 4) (sum 3 0 3) (sum 3 1 4) (sum 4 0 4)
            (true (bid a 1)) (true (bid b 2)) (true (bid c 0))
            (<= (total ?t) (true (bid a ?x)) (true (bid b ?y)) (sum ?x ?y ?s) (true (bid c ?z)) (sum ?s ?z ?t))";
        assert!(helpers_for(text, &["true"]) >= 2);
    }

    #[test]
    fn static_groups_and_single_groups_stay() {
        let text = "(p 1 2) (q 2) (true (c 1 2))
            (<= (a ?x) (p ?x ?y) (q ?y)) (<= (b ?x) (true (c ?x ?y)) (q ?y))";
        assert_eq!(helpers_for(text, &["true"]), 0);
    }

    /// A group over every head variable the body binds, beside only
    /// state-independent literals, would not narrow the rule (amazons' rays
    /// "ignoring" a square, a type test left out).
    #[test]
    fn groups_over_every_head_variable_stay() {
        let text = "(succ 1 2) (succ 2 3) (succ 3 4) (index 1) (index 2) (cell 9)
            (true (empty 2 1)) (true (empty 3 1))
            (<= (ray ?g ?x1 ?y ?x2) (succ ?x1 ?x2) (index ?y) (cell ?g))
            (<= (ray ?g ?x1 ?y ?x3) (succ ?x1 ?x2) (true (empty ?x2 ?y)) (ray ?g ?x2 ?y ?x3) (index ?y))";
        assert_eq!(helpers_for(text, &["true", "ray"]), 0);
    }

    /// A variable that a successor relation fixes from a variable the helper
    /// would keep is not eliminated (the diagonal rays of amazonsTorus); a
    /// relation that is not a function of that argument still is.
    #[test]
    fn variables_fixed_by_facts_stay() {
        let ray = "(succ 1 2) (succ 2 3) (succ 3 4) (true (empty 2 3)) (true (empty 3 2))
            (<= (diag ?x1 ?y1 ?x3 ?y3) (succ ?x1 ?x2) (succ ?y2 ?y1) (true (empty ?x2 ?y2)) (diag ?x2 ?y2 ?x3 ?y3))
            (<= (diag ?x1 ?y1 ?x2 ?y2) (succ ?x1 ?x2) (succ ?y2 ?y1))";
        assert_eq!(helpers_for(ray, &["true", "diag"]), 0);
        let fan = ray.replace("(succ 3 4)", "(succ 3 4) (succ 1 3)");
        assert_eq!(helpers_for(&fan, &["true", "diag"]), 1);
        // With a state-dependent literal outside the helper, it still splits
        // the join.
        let row = "(succ 1 2) (succ 2 3) (true (m 1 5)) (true (m 2 6)) (true (m 3 7)) (ok 5 6 7)
            (<= (good ?i) (succ ?i ?i2) (succ ?i2 ?i3) (true (m ?i ?a)) (true (m ?i2 ?b)) (true (m ?i3 ?c)) (ok ?a ?b ?c))";
        assert!(helpers_for(row, &["true"]) >= 1);
    }

    #[test]
    fn determined_positions_come_from_facts_only() {
        let program =
            Program::new(&Game::parse("(f 1 2) (f 2 2) (g 1 2) (<= (g ?x ?x) (f ?x ?x)) (h 1 2 3) (h 2 2 4)").unwrap());
        let facts = Determined::of_facts(&program.rules, &program.store, Limits::none()).expect("no limits");
        let pairs = |name: &str, arity: usize| {
            let pred = Pred::new(program.symbols.lookup(name).unwrap(), arity);
            facts.pairs.get(&pred).cloned().unwrap_or_default()
        };
        assert_eq!(pairs("f", 2), vec![(0, 1)], "2 has one image, not one preimage");
        assert!(pairs("g", 2).is_empty(), "g has a rule");
        assert_eq!(pairs("h", 3), vec![(0, 1), (0, 2), (2, 0), (2, 1)]);
    }

    #[test]
    fn helpers_borrow_binders_for_their_negations() {
        // ?m is only tested by the negation in the group of ?k: the group
        // borrows (move ?m) to stay safe.
        let text = "(move 1) (move 2) (move 3) (true (king 5)) (threat 1 5) (true (free 2)) (true (free 1))
            (<= (legal ?m) (move ?m) (true (free ?m)) (true (king ?k)) (not (threat ?m ?k)))";
        assert_eq!(helpers_for(text, &["true", "threat"]), 1);
    }
}
