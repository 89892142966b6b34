//! Hybrid networks: the relations too large to ground are answered per state
//! by the demand-driven evaluator, and their atoms enter the propositional
//! network as input bits.
//!
//! In chess, "is this square threatened once the piece on that square has
//! moved" over every pair of squares is hundreds of thousands of atoms, but
//! in one state only a few dozen are asked. When grounding runs out while
//! estimating what can ever hold, the relations that grew the most are
//! *heavy*. Walking down from the keyword relations, each relation a grounded
//! rule tests is grounded too, unless it depends on a heavy relation: then a
//! decomposition helper ([`crate::decompose`], which already encloses such a
//! test with, say, the king's square) or the heavy relation itself becomes
//! *external* — its rules are not grounded. What instances it can have is
//! over-approximated by a few positive literals of its body that bind its
//! arguments ([`relax`]). Each state, the [`Oracle`] evaluates the external
//! relations (those that read the joint move, with it) from the same
//! rewritten rules and sets their bits before the network runs: atom by
//! atom with the lazy grounder ([`Lazy`]) where it can (the state's asked
//! atoms, [`crate::asks`], and every atom that reads the joint move), as a
//! whole, bottom-up with demand, where it cannot.
//!
//! Where no heavy relation can be so enclosed, what only terminality and
//! goals read (sudoku's "is the grid solved") is left to the oracle instead
//! ([`outcome_externals`]); what only goals read is evaluated when goals are
//! asked.
//!
//! Choosing the external relations reads the compile limits every 1,024
//! rules and literals looked at ([`PeriodicCheck`]), and answers
//! [`OutOfLimits`] when they stop it, never a partial choice.

use std::collections::{HashMap, HashSet};

use crate::asks::AskTable;
use crate::compact::Compactor;
use crate::datalog::{Budget, Evaluator, Model, Negation, PeriodicCheck};
use crate::ground::Grounding;
use crate::hash::FastMap;
use crate::lazy::Lazy;
use crate::limits::{Limits, OutOfLimits, unlimited};
use crate::magic;
use crate::need_index::NeedIndex;
use crate::normalize::{Lit, NRule};
use crate::store::{Pred, TermId, TermStore};
use crate::symbol::{Symbols, kw};

/// Most external atoms a hybrid network may read.
pub(crate) const MAX_INPUTS: usize = 1 << 16;

/// The rules of each relation `rules` define, by index, each rule a step
/// of `check`.
///
/// # Errors
///
/// Why `check`'s limits stopped it.
fn defined(
    rules: &[NRule],
    store: &TermStore,
    check: &mut PeriodicCheck,
) -> Result<HashMap<Pred, Vec<usize>>, OutOfLimits> {
    let mut of: HashMap<Pred, Vec<usize>> = HashMap::new();
    for (i, r) in rules.iter().enumerate() {
        check.step()?;
        of.entry(r.head.pred(store)).or_default().push(i);
    }
    Ok(of)
}

/// Counts `rule` and each of its literals as steps of `check`: the work of
/// looking at it once.
///
/// # Errors
///
/// Why `check`'s limits stopped it.
fn look_at(rule: &NRule, check: &mut PeriodicCheck) -> Result<(), OutOfLimits> {
    for _ in 0..=rule.body.len() {
        check.step()?;
    }
    Ok(())
}

/// The relations of the literals of `rule`'s body (`distinct` and `=`
/// aside), in order.
fn body_preds(rule: &NRule, store: &TermStore) -> Vec<Pred> {
    rule.body
        .iter()
        .filter_map(|l| match l {
            Lit::Pos(p) | Lit::Neg(p) => Some(p.pred(store)),
            _ => None,
        })
        .collect()
}

/// The relations of `rules` that depend on one of `on` (themselves included).
pub(crate) fn depending_on(rules: &[NRule], on: &HashSet<Pred>, store: &TermStore) -> HashSet<Pred> {
    unlimited(depending_on_below(rules, on, &HashSet::new(), store, &mut PeriodicCheck::new(Limits::none())))
}

/// The relations of `rules` that depend on one of `on` (themselves
/// included) through relations other than `stop` (no relation of `stop` is
/// in the result); each rule looked at, in each round, steps of `check`.
///
/// # Errors
///
/// Why `check`'s limits stopped it.
fn depending_on_below(
    rules: &[NRule],
    on: &HashSet<Pred>,
    stop: &HashSet<Pred>,
    store: &TermStore,
    check: &mut PeriodicCheck,
) -> Result<HashSet<Pred>, OutOfLimits> {
    let mut up: HashSet<Pred> = on.iter().copied().filter(|p| !stop.contains(p)).collect();
    loop {
        let mut changed = false;
        for r in rules {
            look_at(r, check)?;
            let head = r.head.pred(store);
            if !up.contains(&head) && !stop.contains(&head) && body_preds(r, store).iter().any(|p| up.contains(p)) {
                up.insert(head);
                changed = true;
            }
        }
        if !changed {
            return Ok(up);
        }
    }
}

/// The keyword relations the network computes: `legal`, `goal`, `terminal`
/// and `next`.
fn keyword_preds() -> HashSet<Pred> {
    [Pred::new(kw::LEGAL, 2), Pred::new(kw::GOAL, 2), Pred::proposition(kw::TERMINAL), Pred::new(kw::NEXT, 1)]
        .into_iter()
        .collect()
}

/// A hybrid program: what to ground and what the oracle evaluates.
pub(crate) struct Hybrid {
    /// The relations left to the oracle.
    pub(crate) externals: HashSet<Pred>,
    /// The state-dependent rules to ground: those of the external relations
    /// replaced by rules that over-approximate their instances.
    pub(crate) ground: Vec<NRule>,
    /// The state-dependent rules the oracle evaluates: with, for the
    /// external relations the grounded rules ask about with bound arguments,
    /// rules deriving what they ask in a state.
    pub(crate) oracle: Vec<NRule>,
    /// Each such external relation and the relation of what is asked.
    pub(crate) asks: Vec<(Pred, Pred)>,
}

/// The hybrid program for a game too large to ground: by the `heavy`
/// relations ([`choose_by_heavy`]), or failing that, when `or_outcome`,
/// with the relations only terminality and goals read left to the oracle
/// ([`outcome_externals`]); within `stop` (read every 1,024 rules and
/// literals looked at).
///
/// # Errors
///
/// Why `stop` ended the choice, if it did.
pub(crate) fn choose_externals(
    rules: &[NRule],
    heavy: &HashSet<Pred>,
    or_outcome: bool,
    store: &mut TermStore,
    symbols: &mut Symbols,
    stop: Limits,
) -> Result<Option<Hybrid>, OutOfLimits> {
    let choosing = &mut Choosing::new(rules, store, stop)?;
    match choose_by_heavy(choosing, heavy, store, symbols)? {
        Some(h) => Ok(Some(h)),
        None if or_outcome => by_outcome(choosing, store, symbols),
        None => Ok(None),
    }
}

/// What choosing the oracle's relations reads throughout: the
/// state-dependent rules, each relation's rules (by index), and the check
/// of the compile limits that every rule and literal looked at steps.
struct Choosing<'r> {
    /// The state-dependent rules.
    rules: &'r [NRule],
    /// The rules of each relation `rules` define.
    of: HashMap<Pred, Vec<usize>>,
    /// The periodic check of the compile limits.
    check: PeriodicCheck,
    /// Whether to say why a choice fails (`BOUTON_GGP_DEBUG`).
    debug: bool,
}

impl<'r> Choosing<'r> {
    /// Starts choosing among `rules`, within `stop`.
    ///
    /// # Errors
    ///
    /// Why `stop` ended it, if it did.
    fn new(rules: &'r [NRule], store: &TermStore, stop: Limits) -> Result<Choosing<'r>, OutOfLimits> {
        let mut check = PeriodicCheck::new(stop);
        let of = defined(rules, store, &mut check)?;
        let debug = std::env::var_os("BOUTON_GGP_DEBUG").is_some();
        Ok(Choosing { rules, of, check, debug })
    }
}

/// The relations `roots` and every relation their rules read, transitively;
/// each rule looked at steps of `check`.
///
/// # Errors
///
/// Why `check`'s limits stopped it.
fn below(
    roots: &[Pred],
    rules: &[NRule],
    of: &HashMap<Pred, Vec<usize>>,
    store: &TermStore,
    check: &mut PeriodicCheck,
) -> Result<HashSet<Pred>, OutOfLimits> {
    let mut seen: HashSet<Pred> = roots.iter().copied().collect();
    let mut work: Vec<Pred> = roots.to_vec();
    while let Some(p) = work.pop() {
        for &r in of.get(&p).into_iter().flatten() {
            look_at(&rules[r], check)?;
            for q in body_preds(&rules[r], store) {
                if seen.insert(q) {
                    work.push(q);
                }
            }
        }
    }
    Ok(seen)
}

/// The name hint of the external relations only goals read: the oracle
/// evaluates them when goals are asked, not in every state.
const GOAL_ONLY: &str = "goal-only";

/// The hybrid program in which what only terminality and goals read is left
/// to the oracle (sudoku's `goodRow`, nine marks joined; hex's `connection`,
/// paths as lists): each rule for `terminal` or `goal` that reads such a
/// relation becomes `head :- (external head-variables…)`, the external
/// relation defined by the rule's body and evaluated by the oracle — in every
/// state for `terminal`, when goals are asked for `goal`. `None` when legal
/// moves and the next state read everything, or a head variable of such a
/// rule other than a goal's role cannot be bound without those relations.
/// Within `stop` (read every 1,024 rules and literals looked at).
///
/// # Errors
///
/// Why `stop` ended the choice, if it did.
pub(crate) fn outcome_externals(
    rules: &[NRule],
    store: &mut TermStore,
    symbols: &mut Symbols,
    stop: Limits,
) -> Result<Option<Hybrid>, OutOfLimits> {
    by_outcome(&mut Choosing::new(rules, store, stop)?, store, symbols)
}

/// [`outcome_externals`], as `choosing` goes.
///
/// # Errors
///
/// Why the limits of `choosing` ended it, if they did.
fn by_outcome(
    choosing: &mut Choosing<'_>,
    store: &mut TermStore,
    symbols: &mut Symbols,
) -> Result<Option<Hybrid>, OutOfLimits> {
    use crate::normalize::Pat;
    let Choosing { rules, ref of, ref mut check, debug } = *choosing;
    let (goal, terminal) = (Pred::new(kw::GOAL, 2), Pred::proposition(kw::TERMINAL));
    let play = below(&[Pred::new(kw::LEGAL, 2), Pred::new(kw::NEXT, 1)], rules, of, store, check)?;
    let only: HashSet<Pred> = below(&[goal, terminal], rules, of, store, check)?
        .into_iter()
        .filter(|p| !play.contains(p) && of.contains_key(p) && *p != goal && *p != terminal)
        .collect();
    if only.is_empty() {
        return Ok(None);
    }
    let mut externals = HashSet::new();
    let mut ground = Vec::new();
    // As in `choose_by_heavy`: single-rule helpers unfolded for the oracle.
    let mut oracle: Vec<NRule> = unfold_all(rules, of, store, check)?;
    for rule in rules {
        look_at(rule, check)?;
        let head = rule.head.pred(store);
        if only.contains(&head) {
            continue;
        }
        let reads_only = body_preds(rule, store).iter().any(|p| only.contains(p));
        if !(head == goal || head == terminal) || !reads_only {
            ground.push(rule.clone());
            continue;
        }
        let hint = if head == goal { GOAL_ONLY } else { "terminal-only" };
        let (pat, body_rule) = body_relation(rule, hint, store, symbols);
        // Its instances: bound by the body's other literals, or a goal's
        // role ranging over the roles.
        let relaxed = relax(&body_rule, &only, store, check)?.or_else(|| {
            let (Pat::App(_, args), Pat::App(_, vars)) = (&rule.head, &pat) else { return None };
            match (head == goal, args.first()) {
                (true, Some(&Pat::Var(v))) if **vars == [Pat::Var(v)] => Some(NRule {
                    head: pat.clone(),
                    body: vec![Lit::Pos(Pat::App(kw::ROLE, vec![Pat::Var(v)].into_boxed_slice()))],
                    vars: rule.vars,
                }),
                _ => None,
            }
        });
        let Some(relaxed) = relaxed else {
            if debug {
                eprintln!("outcome: cannot bind the head of {rule:?}");
            }
            return Ok(None);
        };
        externals.insert(pat.pred(store));
        ground.push(relaxed);
        oracle.push(body_rule);
        ground.push(NRule { head: rule.head.clone(), body: vec![Lit::Pos(pat)], vars: rule.vars });
    }
    if debug {
        eprintln!("outcome: {} relations read only by terminal and goal; {} externals", only.len(), externals.len());
    }
    Ok(Some(Hybrid { externals, ground, oracle, asks: Vec::new() }))
}

/// The hybrid program for the `heavy` relations: walking down from the
/// keyword relations through the state-dependent rules of `choosing`, the
/// first relation on each path that depends on a heavy relation becomes
/// external. Its instances are over-approximated by what each grounded
/// rule that tests it can ask ([`context`]); where a rule
/// cannot tell (an argument only that test binds), that rule's body becomes
/// an external relation of its own, over the rule's head variables,
/// over-approximated by a few of its literals ([`relax`]). `None` when
/// nothing is external or some body cannot be relaxed.
///
/// # Errors
///
/// Why the limits of `choosing` ended the choice, if they did.
fn choose_by_heavy(
    choosing: &mut Choosing<'_>,
    heavy: &HashSet<Pred>,
    store: &mut TermStore,
    symbols: &mut Symbols,
) -> Result<Option<Hybrid>, OutOfLimits> {
    let Choosing { rules, ref of, ref mut check, debug } = *choosing;
    // A relation that reads a heavy one only through a keyword relation
    // (chess: `stuck` is "no `legal` move") reads it through the network:
    // the keyword relations are grounded, their externals input bits.
    let up = depending_on_below(rules, heavy, &keyword_preds(), store, check)?;
    let mut grounded: HashSet<Pred> = HashSet::new();
    let mut external: HashSet<Pred> = HashSet::new();
    let mut work: Vec<Pred> =
        vec![Pred::new(kw::LEGAL, 2), Pred::new(kw::GOAL, 2), Pred::proposition(kw::TERMINAL), Pred::new(kw::NEXT, 1)];
    grounded.extend(work.iter().copied());
    while let Some(p) = work.pop() {
        for &r in of.get(&p).into_iter().flatten() {
            look_at(&rules[r], check)?;
            for q in body_preds(&rules[r], store) {
                if !of.contains_key(&q) || grounded.contains(&q) || external.contains(&q) {
                    continue;
                }
                if up.contains(&q) {
                    external.insert(q);
                } else {
                    grounded.insert(q);
                    work.push(q);
                }
            }
        }
    }
    if external.is_empty() {
        return Ok(None);
    }
    // The grounded rules that test an external relation, in order, and
    // whether each can tell what it asks.
    let mut users: Vec<usize> = grounded.iter().flat_map(|p| of.get(p).into_iter().flatten().copied()).collect();
    users.sort_unstable();
    let mut ground: Vec<NRule> = Vec::new();
    // The oracle joins each rule's body with the decomposer's single-rule
    // helpers unfolded into it: bindings pass straight to the relations the
    // helpers read, without a demand relation (and its atoms) per helper.
    let mut oracle: Vec<NRule> = unfold_all(rules, of, store, check)?;
    let mut whole: Vec<usize> = Vec::new();
    let mut asked: Vec<NRule> = Vec::new();
    for &r in &users {
        let rule = &rules[r];
        look_at(rule, check)?;
        let mut contexts = Vec::new();
        let mut complete = true;
        for lit in &rule.body {
            let (Lit::Pos(pat) | Lit::Neg(pat)) = lit else { continue };
            if !external.contains(&pat.pred(store)) {
                continue;
            }
            look_at(rule, check)?;
            match context(rule, pat, &up, store) {
                Some(c) => contexts.push(c),
                None => complete = false,
            }
        }
        if complete {
            asked.extend(contexts);
        } else {
            whole.push(r);
        }
    }
    // Each rule that cannot tell becomes `head :- (body head-variables…)`,
    // the body an external relation of its own.
    let mut replaced: HashMap<usize, NRule> = HashMap::new();
    for &r in &whole {
        let rule = &rules[r];
        look_at(rule, check)?;
        let (pat, body_rule) = body_relation(rule, "external", store, symbols);
        external.insert(pat.pred(store));
        let Some(relaxed) = relax(&body_rule, &up, store, check)? else {
            if debug {
                eprintln!("cannot relax {rule:?}");
            }
            return Ok(None);
        };
        ground.push(relaxed);
        oracle.push(unfold(&body_rule, rules, of, store, check)?);
        replaced.insert(r, NRule { head: rule.head.clone(), body: vec![Lit::Pos(pat)], vars: rule.vars });
    }
    for (i, rule) in rules.iter().enumerate() {
        look_at(rule, check)?;
        if let Some(new) = replaced.remove(&i) {
            ground.push(new);
        } else if !external.contains(&rule.head.pred(store)) {
            ground.push(rule.clone());
        }
    }
    // The external relations the remaining grounded rules ask about, and
    // for the oracle, what they ask in a state (under a name of its own).
    let mut asks: Vec<(Pred, Pred)> = Vec::new();
    let mut ask_of: HashMap<Pred, Pred> = HashMap::new();
    for rule in &asked {
        check.step()?;
        let q = rule.head.pred(store);
        if let std::collections::hash_map::Entry::Vacant(entry) = ask_of.entry(q) {
            let a = *entry.insert(Pred::new(symbols.fresh("asked"), arity(q)));
            asks.push((q, a));
        }
    }
    asks.retain(|(q, _)| arity(*q) > 0);
    ask_of.retain(|q, _| arity(*q) > 0);
    for rule in &asked {
        look_at(rule, check)?;
        let q = rule.head.pred(store);
        let (Some(&a), crate::normalize::Pat::App(_, args)) = (ask_of.get(&q), &rule.head) else {
            continue;
        };
        oracle.push(NRule {
            head: crate::normalize::Pat::App(a.name, args.clone()),
            body: rule.body.clone(),
            vars: rule.vars,
        });
    }
    ground.extend(asked);
    if debug {
        eprintln!("{} external relations, {} rules made external", external.len(), whole.len());
    }
    Ok(Some(Hybrid { externals: external, ground, oracle, asks }))
}

/// A relation of its own for the body of `rule`, over its head's variables
/// and named after `hint`: the pattern that asks it in `rule`'s stead, and
/// the rule that defines it by `rule`'s body.
fn body_relation(
    rule: &NRule,
    hint: &str,
    store: &mut TermStore,
    symbols: &mut Symbols,
) -> (crate::normalize::Pat, NRule) {
    use crate::normalize::Pat;
    let mut vars = Vec::new();
    rule.head.vars(&mut vars);
    let name = symbols.fresh(hint);
    let pat = if vars.is_empty() {
        Pat::Ground(store.app(name, &[]))
    } else {
        Pat::App(name, vars.iter().map(|&v| Pat::Var(v)).collect())
    };
    let body_rule = NRule { head: pat.clone(), body: rule.body.clone(), vars: rule.vars };
    (pat, body_rule)
}

/// `rule` with each positive literal over a relation that `rules` define by
/// one non-recursive rule whose head arguments are distinct variables (the
/// decomposer's helpers) replaced by that rule's body, a few levels deep: the
/// oracle then joins the whole body at once, each binding passed down (in
/// chess, the king's square to the threat test of a discovered check).
/// Each literal looked at, in each round, a step of `check`.
///
/// # Errors
///
/// Why `check`'s limits stopped it.
fn unfold(
    rule: &NRule,
    rules: &[NRule],
    of: &HashMap<Pred, Vec<usize>>,
    store: &mut TermStore,
    check: &mut PeriodicCheck,
) -> Result<NRule, OutOfLimits> {
    use crate::normalize::Pat;
    fn subst(p: &Pat, map: &dyn Fn(u16) -> Pat, store: &mut TermStore) -> Pat {
        match p {
            Pat::Var(v) => map(*v),
            Pat::Ground(id) => Pat::Ground(*id),
            Pat::App(f, args) => {
                let args: Vec<Pat> = args.iter().map(|a| subst(a, map, store)).collect();
                let ground: Option<Vec<TermId>> =
                    args.iter().map(|a| if let Pat::Ground(id) = a { Some(*id) } else { None }).collect();
                match ground {
                    Some(ids) => Pat::Ground(store.app(*f, &ids)),
                    None => Pat::App(*f, args.into_boxed_slice()),
                }
            }
        }
    }
    let mut out = rule.clone();
    for _ in 0..4 {
        let mut body = Vec::new();
        let mut vars = out.vars;
        let mut changed = false;
        for lit in &out.body {
            check.step()?;
            let def = match lit {
                Lit::Pos(pat @ Pat::App(_, args)) => of
                    .get(&pat.pred(store))
                    .filter(|rs| rs.len() == 1)
                    .map(|rs| &rules[rs[0]])
                    .filter(|d| {
                        let Pat::App(_, head) = &d.head else { return false };
                        let mut seen = Vec::new();
                        let distinct = head.iter().all(|h| match h {
                            Pat::Var(v) if !seen.contains(v) => {
                                seen.push(*v);
                                true
                            }
                            _ => false,
                        });
                        distinct && !body_preds(d, store).contains(&pat.pred(store))
                    })
                    .map(|d| (d, args)),
                _ => None,
            };
            let Some((def, args)) = def else {
                body.push(lit.clone());
                continue;
            };
            let Pat::App(_, head) = &def.head else { unreachable!("checked above") };
            let (Ok(offset), true) = (u16::try_from(vars), vars + def.vars <= usize::from(u16::MAX)) else {
                body.push(lit.clone());
                continue;
            };
            let map = |v: u16| match head.iter().position(|h| *h == Pat::Var(v)) {
                Some(i) => args[i].clone(),
                None => Pat::Var(offset + v),
            };
            vars += def.vars;
            changed = true;
            look_at(def, check)?;
            for l in &def.body {
                body.push(match l {
                    Lit::Pos(p) => Lit::Pos(subst(p, &map, store)),
                    Lit::Neg(p) => Lit::Neg(subst(p, &map, store)),
                    Lit::Distinct(a, b) => Lit::Distinct(subst(a, &map, store), subst(b, &map, store)),
                    Lit::Same(a, b) => Lit::Same(subst(a, &map, store), subst(b, &map, store)),
                });
            }
        }
        out = NRule { head: out.head, body, vars };
        if !changed {
            break;
        }
    }
    Ok(out)
}

/// Every rule of `rules` [unfolded](unfold), in order.
///
/// # Errors
///
/// Why `check`'s limits stopped it.
fn unfold_all(
    rules: &[NRule],
    of: &HashMap<Pred, Vec<usize>>,
    store: &mut TermStore,
    check: &mut PeriodicCheck,
) -> Result<Vec<NRule>, OutOfLimits> {
    rules.iter().map(|r| unfold(r, rules, of, store, check)).collect()
}

/// `(q args)` as `rule` asks it: derived from the positive literals of the
/// body that do not read the relations `avoid`, if they bind its variables.
fn context(rule: &NRule, asked: &crate::normalize::Pat, avoid: &HashSet<Pred>, store: &TermStore) -> Option<NRule> {
    let body: Vec<Lit> = rule
        .body
        .iter()
        .filter(|l| matches!(l, Lit::Pos(p) if !avoid.contains(&p.pred(store)) && *p != *asked))
        .cloned()
        .collect();
    let mut bound = Vec::new();
    for l in &body {
        l.vars(&mut bound);
    }
    let mut needed = Vec::new();
    asked.vars(&mut needed);
    if needed.iter().any(|v| !bound.contains(v)) {
        return None;
    }
    Some(NRule { head: asked.clone(), body, vars: rule.vars })
}

/// `rule` with only the positive literals needed to bind its head variables
/// (none over the relations `avoid`), chosen greedily: what it derives
/// includes what `rule` derives. `None` if the head cannot be bound so.
/// Each literal weighed, for each one chosen, a step of `check`.
///
/// # Errors
///
/// Why `check`'s limits stopped it.
fn relax(
    rule: &NRule,
    avoid: &HashSet<Pred>,
    store: &TermStore,
    check: &mut PeriodicCheck,
) -> Result<Option<NRule>, OutOfLimits> {
    let mut needed = Vec::new();
    rule.head.vars(&mut needed);
    let mut bound: Vec<u16> = Vec::new();
    let mut kept: Vec<Lit> = Vec::new();
    let candidates: Vec<&Lit> =
        rule.body.iter().filter(|l| matches!(l, Lit::Pos(p) if !avoid.contains(&p.pred(store)))).collect();
    loop {
        let missing: Vec<u16> = needed.iter().copied().filter(|v| !bound.contains(v)).collect();
        if missing.is_empty() {
            break;
        }
        // The literal binding the most missing variables, then the one with
        // the fewest variables of its own (the last of those).
        let mut best: Option<((usize, usize), &Lit)> = None;
        for &l in &candidates {
            check.step()?;
            let mut vs = Vec::new();
            l.vars(&mut vs);
            let gain = vs.iter().filter(|v| missing.contains(v)).count();
            let key = (gain, usize::MAX - vs.len());
            if gain > 0 && best.is_none_or(|(best_key, _)| key >= best_key) {
                best = Some((key, l));
            }
        }
        let Some((_, best)) = best else { return Ok(None) };
        best.vars(&mut bound);
        kept.push(best.clone());
    }
    Ok(Some(NRule { head: rule.head.clone(), body: kept, vars: rule.vars }))
}

/// Plans the evaluations of external relations.
struct Planner<'a> {
    /// The rewritten rules (decomposed, with what is asked).
    rules: &'a [NRule],
    /// The state-dependent rules before decomposition.
    original: &'a [NRule],
    asks: &'a [(Pred, Pred)],
    symbols: &'a mut Symbols,
    /// The relations that read the joint move (`does` included): a handful
    /// of atoms each, so joins start from them.
    moves: &'a HashSet<Pred>,
    /// The number of atoms of each static relation, taken before planning
    /// (preparing an evaluation adds empty relations to the static model).
    sizes: &'a HashMap<Pred, usize>,
    /// The size assumed for a relation derived per state.
    derived: usize,
    /// The deadline and the cancellation of the compilation: each planned
    /// evaluation's preparation checks them.
    stop: Limits,
}

impl Planner<'_> {
    /// The evaluations of `preds`: one with demand where that keeps negation
    /// stratified; the relations for which it does not, each on its own, by
    /// the rules before decomposition if those stay stratified with demand,
    /// else in full.
    ///
    /// # Errors
    ///
    /// Why the planner's `stop` ended the planning, if it did.
    fn plan(
        &mut self,
        preds: Vec<Pred>,
        statics: &mut Model,
        store: &mut TermStore,
    ) -> Result<Vec<Query>, OutOfLimits> {
        if preds.is_empty() {
            return Ok(Vec::new());
        }
        if let Some(q) = self.demand(&preds, self.rules, statics, store)? {
            return Ok(vec![q]);
        }
        let (mut good, mut bad): (Vec<Pred>, Vec<Pred>) = (Vec::new(), Vec::new());
        for p in preds {
            match self.demand(&[p], self.rules, statics, store)? {
                Some(_) => good.push(p),
                None => bad.push(p),
            }
        }
        let mut out = Vec::new();
        match self.demand(&good, self.rules, statics, store)? {
            Some(q) => out.push(q),
            None => {
                for &p in &good {
                    out.extend(self.demand(&[p], self.rules, statics, store)?);
                }
            }
        }
        let original_defines = |p: &Pred| self.original.iter().any(|r| r.head.pred(store) == *p);
        if !bad.is_empty()
            && bad.iter().all(original_defines)
            && let Some(q) = self.demand(&bad, self.original, statics, store)?
        {
            out.push(q);
            return Ok(out);
        }
        for p in bad {
            let original_defines = self.original.iter().any(|r| r.head.pred(store) == p);
            let by_original = if original_defines { self.demand(&[p], self.original, statics, store)? } else { None };
            match by_original {
                Some(q) => out.push(q),
                None => {
                    if std::env::var_os("BOUTON_GGP_DEBUG").is_some() {
                        eprintln!("oracle: {p:?} in full");
                    }
                    let (moves, sizes, derived) = (self.moves, self.sizes, self.derived);
                    let size = |p: Pred| estimate(sizes, moves, derived, p);
                    let mut evaluator = Evaluator::new(self.rules.to_vec(), store, &size).cone(&[p]);
                    self.prepare(&mut evaluator, statics, store)?;
                    out.push(Query { evaluator, preds: vec![p], work: None });
                }
            }
        }
        Ok(out)
    }

    /// Prepares `evaluator` in the static model (its indexes built, within
    /// the planner's `stop`), each state's work model to be that one.
    ///
    /// # Errors
    ///
    /// Why `stop` ended the preparation, if it did (some indexes unbuilt).
    fn prepare(&self, evaluator: &mut Evaluator, statics: &mut Model, store: &TermStore) -> Result<(), OutOfLimits> {
        if self.stop.is_none() {
            evaluator.prepare(statics, store);
        } else {
            let mut budget = Budget::new(0, 0).within(self.stop);
            evaluator.prepare_within(statics, store, &mut budget);
            if let Some(why) = budget.interruption() {
                return Err(why);
            }
        }
        evaluator.assume_prepared();
        Ok(())
    }

    /// The evaluation of `preds` by `rules` rewritten for demand (what is
    /// asked of them seeding it), if negation stays stratified.
    ///
    /// # Errors
    ///
    /// Why the planner's `stop` ended it, if it did.
    fn demand(
        &mut self,
        preds: &[Pred],
        rules: &[NRule],
        statics: &mut Model,
        store: &mut TermStore,
    ) -> Result<Option<Query>, OutOfLimits> {
        if preds.is_empty() {
            return Ok(None);
        }
        self.stop.check()?;
        let ask_of = |q: Pred| self.asks.iter().find(|(p, _)| *p == q).map(|&(_, a)| a);
        let defines = |p: Pred| rules.iter().any(|r| r.head.pred(store) == p);
        // What is asked with bound arguments is derived first, and seeds
        // the demand for it.
        let mut targets: Vec<(Pred, Vec<bool>)> = Vec::new();
        for &p in preds {
            match ask_of(p).filter(|&a| defines(a)) {
                Some(a) => {
                    targets.push((p, vec![true; arity(p)]));
                    targets.push((a, vec![false; arity(a)]));
                }
                None => targets.push((p, vec![false; arity(p)])),
            }
        }
        let (moves, sizes, derived) = (self.moves, self.sizes, self.derived);
        let size = |p: Pred| estimate(sizes, moves, derived, p);
        let mut demand = magic::transform(rules, &targets, store, self.symbols, &size);
        for (k, (p, adornment)) in targets.iter().enumerate() {
            let (Some(seed), Some(a)) = (demand.seeds[k], ask_of(*p)) else { continue };
            if !adornment.iter().all(|&b| b) {
                continue;
            }
            let n = arity(*p);
            let vars = || (0..n as u16).map(crate::normalize::Pat::Var).collect::<Box<[_]>>();
            demand.rules.push(NRule {
                head: crate::normalize::Pat::App(seed.name, vars()),
                body: vec![Lit::Pos(crate::normalize::Pat::App(a.name, vars()))],
                vars: n,
            });
        }
        // A demand relation holds the few instances asked in one state:
        // joins start from it.
        let demand_size = |p: Pred| if demand.demand.contains(&p) { DEMANDED } else { size(p) };
        let mut evaluator = Evaluator::new(demand.rules.clone(), store, &demand_size);
        if !evaluator.is_stratified(store) {
            return Ok(None);
        }
        // Each state's work model is the static one (or reset to it).
        self.prepare(&mut evaluator, statics, store)?;
        Ok(Some(Query { evaluator, preds: preds.to_vec(), work: None }))
    }
}

/// One evaluation: the rules for some external relations, planned once.
#[derive(Debug, Clone)]
struct Query {
    evaluator: Evaluator,
    preds: Vec<Pred>,
    /// The model it is evaluated in, state after state: the static
    /// relations, and the derived ones emptied before each evaluation but
    /// kept with their memory and indexes ([`Model::reset_to`]).
    work: Option<Model>,
}

/// Answers the external atoms of a hybrid network state by state.
#[derive(Debug, Clone)]
pub(crate) struct Oracle {
    store: TermStore,
    statics: Model,
    /// The externals that depend on the state only.
    state: Vec<Query>,
    /// The externals only goals read ([`outcome_externals`]), evaluated
    /// when goals are asked.
    goal: Vec<Query>,
    /// The externals that read the joint move.
    moves: Vec<Query>,
    /// Each external atom's input bit.
    bits: FastMap<TermId, u32>,
    /// The input region: first word and number of words.
    words: (u32, u32),
    /// `(does r m)` for each role `r` and each of its moves `m`, by move
    /// number.
    does: Vec<Vec<TermId>>,
    /// `(true p)` for the base proposition `p` of each state bit.
    truths: Vec<TermId>,
    /// With `BOUTON_GGP_TRACE` set, the symbols: each evaluation reports
    /// its cost and its largest relations by name.
    trace: Option<Box<Symbols>>,
    /// The externals answered atom by atom as the network asks for them
    /// (and those that read the joint move, after each joint move), where
    /// every external evaluated per state is decided by the state alone
    /// ([`state_only_externals`]).
    lazy: Option<Box<Lazy>>,
    /// The atom of each input bit, from the first.
    inputs: Vec<TermId>,
    /// How many states the lazy grounder could not answer.
    lazy_failures: u32,
    /// The input bits of the externals that read the joint move, in order.
    move_bits: Vec<u32>,
    /// The atom of each of [`Oracle::move_bits`].
    move_atoms: Vec<TermId>,
    /// The places in [`Oracle::move_atoms`] of those each state asks, by
    /// what each needs of the state before the move
    /// ([`crate::asks::state_needs`]): one of some state bits set, else it
    /// does not hold and is not asked (every one until
    /// [`Oracle::for_network_within`] reads them).
    move_needs: NeedIndex,
    /// The places [`Oracle::move_needs`] marks (a buffer).
    move_marked: Vec<u64>,
    /// [`Oracle::move_bits`] as (word, mask) pairs, to clear them.
    move_words: Vec<(u32, u64)>,
    /// The move atoms asked in the current joint move, and their bits (buffers).
    moving: (Vec<TermId>, Vec<u32>),
    /// How many joint moves the lazy grounder could not answer; from
    /// [`LAZY_FAILURES`] on, the rules answer them.
    move_failures: u32,
    /// The `does` atoms of the joint move being answered (a buffer).
    joint: Vec<TermId>,
    /// The input bits the lazy grounder set for a state or a joint move (a
    /// buffer).
    set: Vec<u32>,
    /// The input bits a state asks about, and their atoms (buffers).
    asked: (Vec<u32>, Vec<TermId>),
}

/// After this many states that the lazy grounder could not answer, the
/// oracle stops asking it.
const LAZY_FAILURES: u32 = 16;

/// Most atoms one evaluation of the externals may derive (chess derives
/// about 3,000 per state); ten times as many rule instances may be tried.
const BUDGET: usize = 1_000_000;

impl Oracle {
    /// The oracle for the `externals` of the rewritten `rules` (state-dependent
    /// ones, and those of the relations not evaluated in `statics`), the
    /// input `bits` of the external atoms in the words `words`, `base` the
    /// base proposition of each state bit; stopped by the deadline or the
    /// cancellation of `stop` (read between its phases, and as the
    /// evaluations are prepared).
    ///
    /// # Errors
    ///
    /// Why `stop` ended the construction, if it did.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        rules: &[NRule],
        externals: &HashSet<Pred>,
        asks: &[(Pred, Pred)],
        original: &[NRule],
        statics: Model,
        mut store: TermStore,
        mut symbols: Symbols,
        roles: Vec<TermId>,
        moves: &[Vec<TermId>],
        bits: FastMap<TermId, u32>,
        words: (u32, u32),
        base: Vec<TermId>,
        stop: Limits,
    ) -> Result<Oracle, OutOfLimits> {
        stop.check()?;
        // Only the terms the oracle reads, in a store of their own: the
        // grounding's store holds every ground atom of the network.
        let mut compactor = Compactor::new(&store);
        let rules: Vec<NRule> = rules.iter().map(|r| compactor.rule(r)).collect();
        let original: Vec<NRule> = original.iter().map(|r| compactor.rule(r)).collect();
        let rules_terms = compactor.len();
        let read: HashSet<Pred> = rules.iter().chain(&original).flat_map(|r| body_preds(r, &store)).collect();
        stop.check()?;
        let statics = compactor.model(&statics, |p| read.contains(&p));
        stop.check()?;
        let statics_terms = compactor.len() - rules_terms;
        let roles: Vec<TermId> = roles.iter().map(|&r| compactor.term(r)).collect();
        let moves: Vec<Vec<TermId>> =
            moves.iter().map(|list| list.iter().map(|&m| compactor.term(m)).collect()).collect();
        let bits: FastMap<TermId, u32> = bits.iter().map(|(&atom, &bit)| (compactor.term(atom), bit)).collect();
        let base: Vec<TermId> = base.iter().map(|&b| compactor.term(b)).collect();
        if std::env::var_os("BOUTON_GGP_DEBUG").is_some() {
            eprintln!(
                "oracle: {} of {} terms copied (rules {rules_terms}, static relations {statics_terms})",
                compactor.len(),
                store.len()
            );
        }
        store = compactor.finish();
        let truths: Vec<TermId> = base.iter().map(|&b| store.app(kw::TRUE, &[b])).collect();
        let does_atoms: Vec<Vec<TermId>> = roles
            .iter()
            .zip(&moves)
            .map(|(&r, list)| list.iter().map(|&m| store.app(kw::DOES, &[r, m])).collect())
            .collect();
        let (rules, original) = (&rules[..], &original[..]);
        // Only the externals the network reads: the others are evaluated
        // where the rules of those need them, with their demand.
        let read: HashSet<Pred> = bits.keys().map(|&atom| store.pred(atom)).collect();
        let When { on_state, on_goal, on_move, reads_move } =
            when_evaluated(externals, &read, rules, asks, &store, &symbols);
        stop.check()?;
        let lazy =
            on_state.iter().all(|p| !on_move.contains(p)).then(|| Box::new(Lazy::new(rules, &statics, &store, &base)));
        stop.check()?;
        let mut move_inputs: Vec<(u32, TermId)> =
            bits.iter().filter(|(atom, _)| on_move.contains(&store.pred(**atom))).map(|(&a, &b)| (b, a)).collect();
        move_inputs.sort_unstable();
        let mut inputs = vec![TermId(0); bits.len()];
        for (&atom, &bit) in &bits {
            if let Some(slot) = inputs.get_mut((bit - words.0 * 64) as usize) {
                *slot = atom;
            }
        }
        let mut statics = statics;
        let mut small = reads_move.clone();
        small.insert(Pred::new(kw::DOES, 2));
        let defined: HashSet<Pred> = rules.iter().chain(original).map(|r| r.head.pred(&store)).collect();
        let sizes: HashMap<Pred, usize> = statics
            .preds()
            .filter(|p| !defined.contains(p) && p.name != kw::TRUE && p.name != kw::DOES)
            .map(|p| (p, statics.relation(p).map_or(0, |r| r.atoms.len())))
            .collect();
        // Derived relations are taken as larger than the state, so that the
        // state relations bind first and the derived ones are asked only
        // past them: the joint move binds little but the moved piece, so the
        // pieces' squares are to bind before the threat tests are asked; and
        // a ray is walked only while its squares are empty (a fully bound
        // test against the state goes before a fully bound recursive call,
        // the smaller relation first).
        let mut planner = Planner {
            rules,
            original,
            asks,
            symbols: &mut symbols,
            moves: &small,
            sizes: &sizes,
            derived: DERIVED,
            stop,
        };
        let state = planner.plan(on_state, &mut statics, &mut store)?;
        let goal = planner.plan(on_goal, &mut statics, &mut store)?;
        let moves = planner.plan(on_move, &mut statics, &mut store)?;
        if std::env::var_os("BOUTON_GGP_DEBUG").is_some() {
            let names = |preds: &[Pred]| preds.iter().map(|p| symbols.name(p.name).to_string()).collect::<Vec<_>>();
            for q in &state {
                eprintln!("oracle, per state: {:?} ({} rules)", names(&q.preds), q.evaluator.rules().len());
            }
            for q in &moves {
                eprintln!("oracle, per joint move: {:?} ({} rules)", names(&q.preds), q.evaluator.rules().len());
            }
            for q in &goal {
                eprintln!("oracle, when goals are asked: {:?} ({} rules)", names(&q.preds), q.evaluator.rules().len());
            }
            eprintln!("oracle: {} terms interned, {} inputs read the joint move", store.len(), move_inputs.len());
        }
        let trace = std::env::var_os("BOUTON_GGP_TRACE").is_some().then(|| Box::new(symbols));
        // What a state derives is scratch, forgotten before the next
        // evaluation: lookups of atoms only derived stay in a small table,
        // and the store does not grow from state to state.
        store.freeze();
        Ok(Oracle {
            store,
            statics,
            state,
            goal,
            moves,
            bits,
            words,
            does: does_atoms,
            truths,
            trace,
            lazy,
            inputs,
            lazy_failures: 0,
            move_bits: move_inputs.iter().map(|&(bit, _)| bit).collect(),
            move_atoms: move_inputs.iter().map(|&(_, atom)| atom).collect(),
            move_needs: NeedIndex::all(move_inputs.len()),
            move_marked: Vec::new(),
            move_words: word_masks(move_inputs.iter().map(|&(bit, _)| bit)),
            moving: Default::default(),
            move_failures: 0,
            joint: Vec::new(),
            set: Vec::new(),
            asked: Default::default(),
        })
    }

    /// The oracle of the hybrid grounding `g` compiled into `circuit`, the
    /// joint moves' atoms `moves` (each role's, by move number), with no
    /// deadline and no cancellation (the tests' way; a machine builds its
    /// oracle within its limits, [`Oracle::for_network_within`]).
    #[cfg(test)]
    pub(crate) fn for_network(g: &Grounding, circuit: &crate::circuit::Circuit, moves: &[Vec<TermId>]) -> Oracle {
        unlimited(Oracle::for_network_within(g, circuit, moves, Limits::none()))
    }

    /// The oracle of the hybrid grounding `g` compiled into `circuit`, the
    /// joint moves' atoms `moves` (each role's, by move number), stopped by
    /// the deadline or the cancellation of `stop`.
    ///
    /// # Errors
    ///
    /// Why `stop` ended the construction, if it did.
    pub(crate) fn for_network_within(
        g: &Grounding,
        circuit: &crate::circuit::Circuit,
        moves: &[Vec<TermId>],
        stop: Limits,
    ) -> Result<Oracle, OutOfLimits> {
        let mut oracle = Oracle::new(
            &g.oracle_rules,
            &g.externals,
            &g.oracle_asks,
            &g.oracle_original,
            g.statics.clone(),
            g.store.clone(),
            g.symbols.clone(),
            g.roles.clone(),
            moves,
            circuit.inputs.iter().copied().collect(),
            circuit.input_words,
            circuit.base.clone(),
            stop,
        )?;
        if !oracle.move_bits.is_empty() {
            let atom_of: HashMap<u32, TermId> = circuit.inputs.iter().map(|&(atom, bit)| (bit, atom)).collect();
            let atoms: Vec<TermId> = oracle.move_bits.iter().map(|bit| atom_of[bit]).collect();
            oracle.move_needs = NeedIndex::new(&crate::asks::state_needs(g, &atoms, &circuit.base, stop)?);
        }
        Ok(oracle)
    }

    /// Whether this oracle answers the state `init` (the state's words) within
    /// the budget of each evaluation, on a copy of it: every external
    /// evaluated per state and when goals are asked, by the rules, as
    /// [`Oracle::fill_state`] with no asks and [`Oracle::fill_goal`]
    /// evaluate them (the lazy grounder is not asked). The evaluations check
    /// the deadline and the cancellation of `stop`.
    ///
    /// # Errors
    ///
    /// Why `stop` ended an evaluation, if it did: then nothing is known of
    /// the budget.
    pub(crate) fn answers_within_budget(&self, init: &[u64], stop: Limits) -> Result<bool, OutOfLimits> {
        stop.check()?;
        let mut probe = self.clone();
        let Oracle { store, statics, state, goal, truths, trace, .. } = &mut probe;
        for q in state.iter_mut().chain(goal.iter_mut()) {
            if Oracle::evaluate_within(store, statics, q, init, truths, &[], trace.as_deref(), stop)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The input bits of the externals that read the joint move.
    pub(crate) fn move_inputs(&self) -> &[u32] {
        &self.move_bits
    }

    /// Whether the lazy grounder still answers the state's asks (it is
    /// dropped after [`LAZY_FAILURES`] failures).
    pub(crate) fn answers_lazily(&self) -> bool {
        self.lazy.is_some()
    }

    /// Answers the state externals of the input bits `inputs` by the lazy
    /// grounder, in the state of the first bits of `memory`: sets in
    /// `values` (by word of the input region, from its first word) the bit
    /// of each that holds. `false` (and perhaps some set) when it cannot
    /// answer one; the caller then derives the state in full.
    pub(crate) fn answer_inputs(&mut self, memory: &[u64], inputs: &[u32], values: &mut [u64]) -> bool {
        let Some(lazy) = &mut self.lazy else { return false };
        let first_bit = self.words.0 * 64;
        let mut atoms = std::mem::take(&mut self.asked.1);
        atoms.clear();
        atoms.extend(inputs.iter().map(|&input| self.inputs[(input - first_bit) as usize]));
        let answered = lazy.values(&atoms, memory, None, |at| {
            let at = inputs[at] - first_bit;
            values[(at / 64) as usize] |= 1 << (at % 64);
        });
        self.asked.1 = atoms;
        answered
    }

    /// Whether some external atom reads the joint move.
    pub(crate) fn reads_move(&self) -> bool {
        !self.moves.is_empty()
    }

    /// Sets the input bits of the externals that depend on the state only,
    /// the state being the first bits of `memory`.
    ///
    /// `asks`: the input bits a state may ask about, each with the bit that
    /// says whether this state does ([`crate::asks`], computed before): where
    /// there are some, the asked atoms are answered one by one by the lazy
    /// grounder ([`Lazy`]), and only if it cannot answer one are the
    /// externals evaluated as a whole, by the rules.
    pub(crate) fn fill_state(&mut self, memory: &mut [u64], asks: &AskTable) {
        let (first, n) = (self.words.0 as usize, self.words.1 as usize);
        memory[first..first + n].iter_mut().for_each(|w| *w = 0);
        if !asks.is_empty() && self.fill_asked(memory, asks) {
            return;
        }
        self.evaluate(|oracle| &mut oracle.state, memory, &[]);
    }

    /// Sets the input bits of the `asks` this state asks about, by the lazy
    /// grounder; whether it answered them all (if not, it is dropped after
    /// [`LAZY_FAILURES`] failures: the rules answer from then on).
    fn fill_asked(&mut self, memory: &mut [u64], asks: &AskTable) -> bool {
        let Some(lazy) = &mut self.lazy else { return false };
        let first_bit = self.words.0 * 64;
        lazy.begin_state();
        let (mut bits, mut atoms) = std::mem::take(&mut self.asked);
        bits.clear();
        atoms.clear();
        asks.each_asked(memory, |input| {
            bits.push(input);
            atoms.push(self.inputs[(input - first_bit) as usize]);
            true
        });
        let mut set = std::mem::take(&mut self.set);
        set.clear();
        let answered = lazy.values(&atoms, memory, None, |at| set.push(bits[at]));
        self.asked = (bits, atoms);
        if !answered {
            self.set = set;
            self.lazy_failures += 1;
            if self.lazy_failures >= LAZY_FAILURES {
                self.lazy = None;
            }
            return false;
        }
        for &input in &set {
            memory[(input / 64) as usize] |= 1 << (input % 64);
        }
        self.set = set;
        true
    }

    /// The input bits of the asked atoms (`asks` as for
    /// [`Oracle::fill_state`], `memory` after the ask program) set by the
    /// lazy grounder (`None` if it could not answer them all) and by the
    /// rules, each masked to the atoms this state asks about.
    #[cfg(test)]
    pub(crate) fn answers_both_ways(&mut self, memory: &[u64], asks: &AskTable) -> (Option<Vec<u64>>, Vec<u64>) {
        let (first, n) = (self.words.0 as usize, self.words.1 as usize);
        let mut mask = vec![0u64; memory.len()];
        asks.each_asked(memory, |input| {
            mask[(input / 64) as usize] |= 1 << (input % 64);
            true
        });
        let masked = |m: &[u64]| (first..first + n).map(|w| m[w] & mask[w]).collect::<Vec<u64>>();
        let mut lazy = memory.to_vec();
        let answered = self.fill_asked(&mut lazy, asks);
        let mut rules = memory.to_vec();
        self.fill_state(&mut rules, &AskTable::default());
        (answered.then(|| masked(&lazy)), masked(&rules))
    }

    /// Sets the input bits of the externals only goals read (after
    /// [`Oracle::fill_state`] in the same state).
    pub(crate) fn fill_goal(&mut self, memory: &mut [u64]) {
        self.evaluate(|oracle| &mut oracle.goal, memory, &[]);
    }

    /// Sets the input bits of the externals that read the joint move
    /// (`joint`: each role's move number), those bits cleared first (the
    /// same state may be followed by several joint moves).
    ///
    /// They are answered atom by atom by the lazy grounder ([`Lazy`], which
    /// grounds each atom once, the rest of a rule from its `does` literal
    /// once per joint move met, and reads the state and the move), and only
    /// if it cannot answer one are they evaluated as a whole, by the rules;
    /// after [`LAZY_FAILURES`] such joint moves, by the rules only.
    pub(crate) fn fill_move(&mut self, memory: &mut [u64], joint: &[u32]) {
        if self.moves.is_empty() {
            return;
        }
        let mut does = std::mem::take(&mut self.joint);
        does.clear();
        does.extend(self.does.iter().zip(joint).filter_map(|(atoms, &m)| atoms.get(m as usize).copied()));
        for &(word, mask) in &self.move_words {
            memory[word as usize] &= !mask;
        }
        if !self.fill_move_lazily(memory, &does) {
            self.evaluate(|oracle| &mut oracle.moves, memory, &does);
        }
        self.joint = does;
    }

    /// Sets the input bits of the externals that read the joint move whose
    /// `does` atoms are `does`, by the lazy grounder; whether it answered
    /// them all (if not, no bit is set).
    fn fill_move_lazily(&mut self, memory: &mut [u64], does: &[TermId]) -> bool {
        if self.move_failures >= LAZY_FAILURES {
            return false;
        }
        let Some(lazy) = &mut self.lazy else { return false };
        let (mut atoms, mut bits) = std::mem::take(&mut self.moving);
        atoms.clear();
        bits.clear();
        self.move_needs.each_needed(memory, &mut self.move_marked, |k| {
            atoms.push(self.move_atoms[k]);
            bits.push(self.move_bits[k]);
        });
        let mut set = std::mem::take(&mut self.set);
        set.clear();
        let answered = lazy.values(&atoms, memory, Some(does), |at| set.push(bits[at]));
        self.moving = (atoms, bits);
        if answered {
            for &bit in &set {
                memory[(bit / 64) as usize] |= 1 << (bit % 64);
            }
        } else {
            self.move_failures += 1;
        }
        self.set = set;
        answered
    }

    /// The input bits of the externals that read the joint move `joint`
    /// (the state the first bits of `memory`), as the lazy grounder sets
    /// them (`None` if it could not answer them all) and as the rules do,
    /// each masked to those bits.
    #[cfg(test)]
    pub(crate) fn move_answers_both_ways(&mut self, memory: &[u64], joint: &[u32]) -> (Option<Vec<u64>>, Vec<u64>) {
        let mut mask = vec![0u64; memory.len()];
        for &bit in &self.move_bits {
            mask[(bit / 64) as usize] |= 1 << (bit % 64);
        }
        let masked = |m: &[u64]| m.iter().zip(&mask).map(|(w, k)| w & k).collect::<Vec<u64>>();
        let does: Vec<TermId> =
            self.does.iter().zip(joint).filter_map(|(atoms, &m)| atoms.get(m as usize).copied()).collect();
        let mut lazy: Vec<u64> = memory.iter().zip(&mask).map(|(w, k)| w & !k).collect();
        let answered = self.fill_move_lazily(&mut lazy, &does);
        let failures = std::mem::replace(&mut self.move_failures, LAZY_FAILURES);
        let mut rules = memory.to_vec();
        self.fill_move(&mut rules, joint);
        self.move_failures = failures;
        (answered.then(|| masked(&lazy)), masked(&rules))
    }

    /// Evaluates each of the queries that `queries` picks out of this oracle
    /// in the state of `memory` (with the atoms `facts`, the joint move),
    /// without limits, and sets the input bits of the atoms it derived. Out
    /// of its budget, a query's answers lack atoms: whether an oracle's
    /// budget suffices is asked once, of the initial state, by
    /// [`Oracle::answers_within_budget`].
    fn evaluate(&mut self, queries: fn(&mut Oracle) -> &mut Vec<Query>, memory: &mut [u64], facts: &[TermId]) {
        let mut picked = std::mem::take(queries(self));
        for q in &mut picked {
            let (store, trace) = (&mut self.store, self.trace.as_deref());
            unlimited(Oracle::evaluate_within(
                store,
                &self.statics,
                q,
                memory,
                &self.truths,
                facts,
                trace,
                Limits::none(),
            ));
            Oracle::set(&self.bits, q, memory);
        }
        *queries(self) = picked;
    }

    /// Evaluates `q` in the state of `memory` (with the atoms `facts`, the
    /// joint move), into its work model, its budget stopped by the deadline
    /// or the cancellation of `stop` too; whether the budget ran out.
    ///
    /// # Errors
    ///
    /// Why `stop` ended the evaluation, if it did (its answers incomplete).
    #[allow(clippy::too_many_arguments)]
    fn evaluate_within(
        store: &mut TermStore,
        statics: &Model,
        q: &mut Query,
        memory: &[u64],
        truths: &[TermId],
        facts: &[TermId],
        trace: Option<&Symbols>,
        stop: Limits,
    ) -> Result<bool, OutOfLimits> {
        // The atoms of the previous evaluation (of any query) are read no
        // more: each query's work model is reset before it is evaluated.
        store.clear_scratch();
        let model = match &mut q.work {
            Some(work) => {
                work.reset_to(statics);
                work
            }
            none => none.insert(statics.clone()),
        };
        for (i, &atom) in truths.iter().enumerate() {
            if memory[i / 64] & (1 << (i % 64)) != 0 {
                model.insert(atom, store);
            }
        }
        for &atom in facts {
            model.insert(atom, store);
        }
        let started = std::time::Instant::now();
        let mut budget = Budget::new(BUDGET, BUDGET.saturating_mul(10)).within(stop);
        q.evaluator.run_limited(store, model, &Negation::Exact, &mut budget);
        if let Some(why) = budget.interruption() {
            return Err(why);
        }
        let spent = budget.is_spent();
        if let Some(symbols) = trace {
            let mut sizes: Vec<(usize, &str)> = model
                .preds()
                .map(|p| (model.atoms(p).len() - statics.atoms(p).len(), symbols.name(p.name)))
                .filter(|x| x.0 > 0)
                .collect();
            sizes.sort_unstable_by(|a, b| b.cmp(a));
            let total: usize = sizes.iter().map(|x| x.0).sum();
            sizes.truncate(8);
            eprintln!(
                "oracle: {total} atoms derived in {} µs for {} relations; largest {sizes:?}",
                started.elapsed().as_micros(),
                q.preds.len()
            );
        }
        Ok(spent)
    }

    /// Sets the input bits of the atoms `q` derived.
    fn set(bits: &FastMap<TermId, u32>, q: &Query, memory: &mut [u64]) {
        let Some(model) = &q.work else { return };
        for &p in &q.preds {
            for atom in model.atoms(p) {
                if let Some(&bit) = bits.get(atom) {
                    memory[(bit / 64) as usize] |= 1 << (bit % 64);
                }
            }
        }
    }
}

/// When an oracle evaluates each external relation, sorted.
struct When {
    /// In every state, from the state alone.
    on_state: Vec<Pred>,
    /// When goals are asked (only goals read them).
    on_goal: Vec<Pred>,
    /// With the joint move (they, or what asks them, read `does`).
    on_move: Vec<Pred>,
    /// The relations of the oracle's rules that read the joint move.
    reads_move: HashSet<Pred>,
}

/// When the oracle of `rules` evaluates each of the `externals` that the
/// network reads (`read`); `asks`: each external asked with bound arguments
/// and the relation of what is asked.
fn when_evaluated(
    externals: &HashSet<Pred>,
    read: &HashSet<Pred>,
    rules: &[NRule],
    asks: &[(Pred, Pred)],
    store: &TermStore,
    symbols: &Symbols,
) -> When {
    let does: HashSet<Pred> = [Pred::new(kw::DOES, 2)].into_iter().collect();
    let reads_move = depending_on(rules, &does, store);
    let ask_of = |q: Pred| asks.iter().find(|(p, _)| *p == q).map(|&(_, a)| a);
    let mut on_state: Vec<Pred> =
        externals.iter().copied().filter(|p| read.contains(p) && !reads_move.contains(p)).collect();
    let mut on_move: Vec<Pred> = externals
        .iter()
        .copied()
        .filter(|p| read.contains(p))
        .filter(|&p| reads_move.contains(&p) || ask_of(p).is_some_and(|a| reads_move.contains(&a)))
        .collect();
    on_move.sort();
    on_state.sort();
    // What only goals read is evaluated when goals are asked.
    let goal_only = |p: &Pred| symbols.name(p.name).strip_prefix(GOAL_ONLY).is_some_and(|n| n.starts_with(' '));
    let (on_goal, on_state): (Vec<Pred>, Vec<Pred>) = on_state.into_iter().partition(goal_only);
    When { on_state, on_goal, on_move, reads_move }
}

/// The external relations of grounding `g` whose atoms a state alone
/// decides (neither they nor what asks them read the joint move, and not
/// only goals read them): those whose atoms can be answered one by one, as
/// the network asks for them ([`crate::asks`]).
pub(crate) fn state_only_externals(g: &Grounding) -> HashSet<Pred> {
    let w = when_evaluated(&g.externals, &g.externals, &g.oracle_rules, &g.oracle_asks, &g.store, &g.symbols);
    w.on_state.into_iter().filter(|p| !w.on_move.contains(p)).collect()
}

/// The number of arguments of `p`.
fn arity(p: Pred) -> usize {
    if p.arity == Pred::PROPOSITION { 0 } else { p.arity as usize }
}

/// The size assumed, when planning joins, for a relation not evaluated.
const GUESS: usize = 100;

/// The size assumed, when planning joins, for a demand relation.
const DEMANDED: usize = 4;

/// The number of atoms of `p` assumed when planning joins: the static ones
/// as evaluated (`sizes`), those that read the joint move (`moves`) a few (so
/// that a rule reading the move starts from it and passes its bindings down),
/// `true` [`GUESS`], the other derived ones `derived`.
fn estimate(sizes: &HashMap<Pred, usize>, moves: &HashSet<Pred>, derived: usize, p: Pred) -> usize {
    if moves.contains(&p) {
        return 2;
    }
    if p.name == kw::TRUE {
        return GUESS;
    }
    sizes.get(&p).copied().unwrap_or(derived)
}

/// The size assumed, when planning the joins of the externals, for a
/// relation derived per state: larger than the state, so that joins bind
/// through the state first.
const DERIVED: usize = 1000;

/// The bits `bits` as (word, mask) pairs, one per word, in the order the
/// words are first met.
fn word_masks(bits: impl Iterator<Item = u32>) -> Vec<(u32, u64)> {
    let mut words: Vec<(u32, u64)> = Vec::new();
    for bit in bits {
        let (word, mask) = (bit / 64, 1u64 << (bit % 64));
        match words.iter_mut().find(|(w, _)| *w == word) {
            Some((_, m)) => *m |= mask,
            None => words.push((word, mask)),
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::normalize::Program;
    use crate::symbol::Sym;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// A check of no limits, for the passes asked outside compilation.
    fn unchecked() -> PeriodicCheck {
        PeriodicCheck::new(Limits::none())
    }

    /// Along random playouts of chess as a hybrid network, the atoms each
    /// state asks about ([`crate::asks`]) are answered one by one by the
    /// lazy grounder, in every state, exactly as the rules answer them all
    /// at once (both from the same rewritten rules, by different means: a
    /// cached circuit per atom, and a bottom-up evaluation with demand).
    #[test]
    fn asked_atoms_answered_lazily_agree_with_the_rules() {
        use rand::SeedableRng;
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games/chess.kif");
        let game = Game::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let machine = crate::machine::Machine::compile_hybrid(&game).unwrap();
        let mut e = crate::machine::Evaluator::new(&machine);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(41);
        let (mut states, mut asked) = (0, 0);
        for _ in 0..3 {
            e.load(&machine.initial_state());
            for _ in 0..80 {
                let (lazy, rules) = e.oracle_answers().expect("chess has an oracle");
                let lazy = lazy.unwrap_or_else(|| panic!("the lazy grounder answers state {states}"));
                assert_eq!(lazy, rules, "state {states}");
                asked += rules.iter().map(|w| w.count_ones()).sum::<u32>();
                states += 1;
                let roles = machine.roles().len();
                let joint: Option<Vec<u32>> = (0..roles).map(|r| e.random_legal_move(r, &mut rng)).collect();
                match joint {
                    Some(joint) if !e.is_terminal() => e.advance(&joint),
                    _ => break,
                }
            }
        }
        assert!(states > 100 && asked > 0, "{states} states, {asked} atoms true");
    }

    /// A hybrid network of `game` run by hand, as [`crate::machine`] runs
    /// it: its circuit, its oracle and its memory (the current state
    /// first).
    struct ByHand {
        circuit: crate::circuit::Circuit,
        oracle: Oracle,
        memory: Vec<u64>,
    }

    impl ByHand {
        /// The hybrid network of `game` grounded within `limit` atoms, in
        /// its initial state (`None` if it has no oracle).
        fn new(game: &Game, limit: usize) -> Option<ByHand> {
            use crate::ground::{Limits, Networks, ground};
            let mut g = ground(game, Limits::new(limit), Networks::Hybrid).unwrap();
            if g.externals.is_empty() {
                return None;
            }
            let asked = state_only_externals(&g);
            crate::asks::add_asks(&mut g, &asked);
            let circuit = crate::circuit::compile(&g);
            let moves: Vec<Vec<TermId>> = circuit.moves.iter().map(|l| l.iter().map(|i| i.term).collect()).collect();
            let oracle = Oracle::for_network(&g, &circuit, &moves);
            let mut memory = vec![0u64; circuit.total_words as usize];
            memory[..circuit.init.len()].copy_from_slice(&circuit.init);
            let mut network = ByHand { circuit, oracle, memory };
            network.derive_state();
            Some(network)
        }

        /// The asks, the oracle's state answers, legal moves, terminality.
        fn derive_state(&mut self) {
            let c = &self.circuit;
            c.ask.run(&mut self.memory);
            self.oracle.fill_state(&mut self.memory, &c.asks);
            c.legal.run(&mut self.memory);
        }

        /// A random legal joint move, `None` in a terminal state or where a
        /// role has no legal move.
        fn random_joint(&self, rng: &mut impl rand::Rng) -> Option<Vec<u32>> {
            let c = &self.circuit;
            let set = |bit: u32| self.memory[(bit / 64) as usize] >> (bit % 64) & 1 == 1;
            if set(c.terminal_bit) {
                return None;
            }
            let mut joint = Vec::new();
            for infos in &c.moves {
                let legal: Vec<u32> = (0..infos.len() as u32).filter(|&m| set(infos[m as usize].legal_bit)).collect();
                if legal.is_empty() {
                    return None;
                }
                joint.push(legal[rng.random_range(0..legal.len())]);
            }
            Some(joint)
        }

        /// Plays `joint`: the oracle's move answers, the next state.
        fn advance(&mut self, joint: &[u32]) {
            let c = &self.circuit;
            self.oracle.fill_move(&mut self.memory, joint);
            let (s, d, next) = (c.state_words as usize, c.does_words as usize, c.next_word as usize);
            self.memory[s..s + d].iter_mut().for_each(|w| *w = 0);
            self.memory[next..next + s].iter_mut().for_each(|w| *w = 0);
            for (infos, &m) in c.moves.iter().zip(joint) {
                if let Some(bit) = infos[m as usize].does_bit {
                    self.memory[(bit / 64) as usize] |= 1 << (bit % 64);
                }
            }
            c.next.run(&mut self.memory);
            self.memory.copy_within(next..next + s, 0);
            self.derive_state();
        }
    }

    /// Along random playouts of `game`'s hybrid network, the externals that
    /// read the joint move are answered by the lazy grounder for every joint
    /// move played and a second one from the same state, exactly as the
    /// rules answer them (by demand, bottom-up); returns the number of
    /// transitions checked and of those answers true.
    fn check_move_answers(game: &Game, limit: usize, playouts: usize, steps: usize, seed: u64) -> (usize, u32) {
        use rand::SeedableRng;
        let mut network = ByHand::new(game, limit).expect("a hybrid network");
        assert!(!network.oracle.move_bits.is_empty(), "some inputs read the joint move");
        let initial = network.memory.clone();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let (mut transitions, mut true_answers) = (0, 0);
        for _ in 0..playouts {
            network.memory.copy_from_slice(&initial);
            network.derive_state();
            for _ in 0..steps {
                let Some(joint) = network.random_joint(&mut rng) else { break };
                let other = network.random_joint(&mut rng).expect("a joint move");
                for j in [&other, &joint] {
                    let (lazy, rules) = network.oracle.move_answers_both_ways(&network.memory, j);
                    let lazy = lazy.unwrap_or_else(|| panic!("the lazy grounder answers transition {transitions}"));
                    assert_eq!(lazy, rules, "transition {transitions}, joint move {j:?}");
                    true_answers += rules.iter().map(|w| w.count_ones()).sum::<u32>();
                }
                transitions += 1;
                network.advance(&joint);
            }
        }
        (transitions, true_answers)
    }

    /// Chess's discovered checks (the externals that read the joint move)
    /// answered lazily agree with the rules along random playouts, and
    /// some of them hold.
    #[test]
    fn move_answers_lazily_agree_with_the_rules_in_chess() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games/chess.kif");
        let game = Game::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let (transitions, true_answers) = check_move_answers(&game, crate::DEFAULT_GROUNDING_LIMIT, 4, 100, 5);
        eprintln!("{transitions} transitions, {true_answers} answers true");
        assert!(transitions > 200, "{transitions} transitions");
        assert!(true_answers > 0, "no discovered check in {transitions} transitions");
    }

    /// A game on a line of 40 cells, too large to ground within 20,000
    /// atoms for its rays "open from one cell to another once a third is
    /// vacated" (a relation over triples of cells, as chess's threats): its
    /// discovered checks (the rook's ray to the king opened by a blocker
    /// leaving it) read the joint move and the rays, so they are externals
    /// that read the move, with `vacated` (the cell a move leaves). Answered
    /// lazily, they agree with the rules along random playouts, and some
    /// hold.
    #[test]
    fn move_answers_lazily_agree_with_the_rules_on_a_line() {
        let cells = 40;
        let mut text = String::from(
            "(role p) (role q)
             (init (at r 1)) (init (at b 3)) (init (at b 6)) (init (at b 12)) (init (at k 20))
             (<= (occupied ?x) (true (at ?piece ?x)))
             (<= (legal p (move ?u ?v)) (true (at b ?u)) (succ ?u ?v) (not (occupied ?v)))
             (<= (legal p (move ?u ?v)) (true (at b ?u)) (succ ?v ?u) (not (occupied ?v)))
             (<= (legal p (move ?u off)) (true (at b ?u)))
             (<= (legal p (slide ?u ?v)) (true (at r ?u)) (succ ?u ?v) (not (occupied ?v)))
             (<= (legal p (slide ?u ?v)) (true (at r ?u)) (succ ?v ?u) (not (occupied ?v)))
             (<= (legal q (step ?u ?v)) (true (at k ?u)) (succ ?v ?u) (not (occupied ?v)))
             (<= (legal q (step ?u ?v)) (true (at k ?u)) (succ ?u ?v) (not (occupied ?v)))
             (legal q noop)
             (<= (vacated ?u) (does p (move ?u ?v)))
             (<= (vacated ?u) (does q (step ?u ?v)))
             (<= (vacated ?u) (does p (slide ?u ?v)))
             (<= (next (at ?piece ?x)) (true (at ?piece ?x)) (not (vacated ?x)))
             (<= (next (at b ?v)) (does p (move ?u ?v)))
             (<= (next (at k ?v)) (does q (step ?u ?v)))
             (<= (next (at r ?v)) (does p (slide ?u ?v)))
             (<= (empty_or ?z ?z) (cell ?z))
             (<= (empty_or ?z ?u) (cell ?u) (not (occupied ?z)))
             (<= (open ?x ?y ?u) (succ ?x ?y) (cell ?u))
             (<= (open ?x ?y ?u) (succ ?x ?z) (empty_or ?z ?u) (open ?z ?y ?u))
             (<= (discovered ?x) (does p (move ?u ?v)) (true (at r ?x)) (true (at k ?y)) (open ?x ?y ?u))
             (<= (next (check ?x)) (true (at r ?x)) (discovered ?x))
             (<= terminal (true (check ?x)))
             (goal p 100) (goal q 0)",
        );
        for c in 1..=cells {
            text.push_str(&format!(" (cell {c})"));
            if c < cells {
                text.push_str(&format!(" (succ {c} {})", c + 1));
            }
        }
        let game = Game::parse(&text).unwrap();
        let (transitions, true_answers) = check_move_answers(&game, 20_000, 20, 40, 3);
        eprintln!("{transitions} transitions, {true_answers} answers true");
        assert!(transitions > 100, "{transitions} transitions");
        assert!(true_answers > 0, "no discovered check in {transitions} transitions");
    }

    /// A relation that reads a heavy one only through `legal` (chess's
    /// `stuck`) does not depend on it: the network computes `legal`.
    #[test]
    fn dependence_stops_at_keyword_relations() {
        let program = Program::new(
            &Game::parse(
                "(<= (threat ?x) (true (cell ?x)))
                 (<= (legal ?p (go ?x)) (role ?p) (true (cell ?x)) (not (threat ?x)))
                 (<= (has_move ?p) (legal ?p ?m))
                 (<= (stuck ?p) (role ?p) (not (has_move ?p)))
                 (<= (danger ?p) (role ?p) (threat ?p))",
            )
            .unwrap(),
        );
        let pred = |name: &str, arity: usize| Pred::new(program.symbols.lookup(name).unwrap(), arity);
        let heavy: HashSet<Pred> = [pred("threat", 1)].into_iter().collect();
        let up =
            depending_on_below(&program.rules, &heavy, &keyword_preds(), &program.store, &mut unchecked()).unwrap();
        assert!(up.contains(&pred("danger", 1)));
        assert!(!up.contains(&pred("stuck", 1)) && !up.contains(&pred("has_move", 1)));
        assert!(!up.contains(&Pred::new(kw::LEGAL, 2)));
        let all = depending_on(&program.rules, &heavy, &program.store);
        assert!(all.contains(&pred("stuck", 1)), "without the stop, stuck depends on threat");
    }

    /// A relation only goals read (`won`) is left to the oracle: both goal
    /// rules read it through externals of their own, whose instances range
    /// over the roles, and its rules are not grounded.
    #[test]
    fn what_only_goals_read_is_left_to_the_oracle() {
        let mut program = Program::new(
            &Game::parse(
                "(role p) (<= (legal p (mark ?x)) (true (free ?x)))
                 (<= (next (done ?x)) (does p (mark ?x)))
                 (<= (won ?p) (role ?p) (true (done 1)) (true (done 2)))
                 (<= (goal ?p 100) (won ?p)) (<= (goal ?p 0) (role ?p) (not (won ?p)))
                 (<= terminal (true (done 1)))",
            )
            .unwrap(),
        );
        let won = Pred::new(program.symbols.lookup("won").unwrap(), 1);
        let h = outcome_externals(&program.rules, &mut program.store, &mut program.symbols, Limits::none());
        let h = h.unwrap().expect("`won` is left to the oracle");
        assert_eq!(h.externals.len(), 2, "each goal rule reads `won`");
        assert!(h.externals.iter().all(|p| program.symbols.name(p.name).starts_with(GOAL_ONLY)));
        for rule in &h.ground {
            assert_ne!(rule.head.pred(&program.store), won, "{rule:?}");
            assert!(!body_preds(rule, &program.store).contains(&won), "{rule:?}");
        }
        let terminal = Pred::proposition(kw::TERMINAL);
        assert!(h.ground.iter().any(|r| r.head.pred(&program.store) == terminal), "terminal stays grounded");
        assert!(h.oracle.iter().any(|r| r.head.pred(&program.store) == won), "the oracle derives `won`");
    }

    #[test]
    fn relaxing_keeps_binders_only() {
        let program = Program::new(
            &Game::parse(
                "(<= (h ?p ?u) (owner ?k ?p) (true (cell ?x ?k)) (not (threat ?p ?x ?u)) (true (cell ?u ?z)))",
            )
            .unwrap(),
        );
        let avoid: HashSet<Pred> = HashSet::new();
        let rule = &program.rules[0];
        let relaxed = relax(rule, &avoid, &program.store, &mut unchecked()).unwrap().expect("the head is bound");
        assert_eq!(relaxed.body.len(), 2, "{relaxed:?}");
        assert!(relaxed.body.iter().all(|l| matches!(l, Lit::Pos(_))));
    }

    /// The oracle's copy of the rules, with single-rule helpers unfolded
    /// (`part`, and `far` inside it, a helper of a helper; not `line`, which
    /// has two rules, nor the recursive `reach`), derives exactly what the
    /// rules derive, in many random states; and the helpers no longer appear
    /// in the bodies that read them.
    #[test]
    fn unfolded_helpers_derive_the_same() {
        let mut program = numbers_and_reach(
            "(<= (far ?x ?z) (succ ?x ?y) (succ ?y ?z))
             (<= (part ?x ?w) (far ?x ?w) (true (mark ?w)))
             (<= (line ?x) (true (mark ?x)) (succ ?x ?y) (true (mark ?y)))
             (<= (line ?x) (true (mark ?x)) (succ ?y ?x) (true (mark ?y)))
             (<= (threat ?x) (n ?x) (part ?x ?w) (not (reach ?x ?w)) (not (line ?w)))
             (<= (safe ?x) (n ?x) (not (threat ?x)) (part ?y ?x))",
        );
        let rules = program.rules.clone();
        let of = defined(&rules, &program.store, &mut unchecked()).unwrap();
        let unfolded = unfold_all(&rules, &of, &mut program.store, &mut unchecked()).unwrap();
        let name = |n: &str, a: usize| Pred::new(program.symbols.lookup(n).unwrap(), a);
        let (part, far) = (name("part", 2), name("far", 2));
        let targets = [name("threat", 1), name("safe", 1), name("reach", 2), name("line", 1)];
        for rule in &unfolded {
            let reads = body_preds(rule, &program.store);
            assert!(!reads.contains(&part) && !reads.contains(&far), "{rule:?}");
        }
        let numbers = numbers(&mut program);
        let mut rng = SmallRng::seed_from_u64(11);
        for _ in 0..100 {
            let mut state = Model::default();
            for fact in random_facts(&program.symbols, &mut rng, 0.5) {
                let atom = true_atom(&mut program.store, &fact, &numbers);
                state.insert(atom, &program.store);
            }
            let (mut plain, mut flat) = (state.clone(), state);
            let mut budget = Budget::new(1 << 20, 1 << 24);
            Evaluator::run_once(rules.clone(), &mut program.store, &mut plain, &Negation::Exact, &mut budget.clone());
            Evaluator::run_once(unfolded.clone(), &mut program.store, &mut flat, &Negation::Exact, &mut budget);
            for p in targets {
                let mut a = plain.atoms(p).to_vec();
                let mut b = flat.atoms(p).to_vec();
                a.sort();
                b.sort();
                assert_eq!(a, b, "{p:?}");
            }
        }
    }

    /// Evaluated as the oracle evaluates (one work model reset to the
    /// static one, the store frozen and its scratch terms forgotten before
    /// each state), the rules derive exactly what a fresh evaluation in a
    /// store that keeps every term derives, in many random states: atoms of
    /// relations no frozen term names (only in the scratch table) and of
    /// one with frozen atoms (`reach`, found in the frozen table) alike.
    #[test]
    fn a_frozen_store_derives_what_a_growing_one_does() {
        let mut program = numbers_and_reach(
            "(<= (path ?x (via ?y ?z)) (reach ?x ?y) (succ ?y ?z))
             (<= (threat ?x) (n ?x) (path ?x ?v) (not (reach ?x ?x)))
             (<= (safe ?x) (n ?x) (not (threat ?x)) (true (mark ?x)))",
        );
        let name = |n: &str, a: usize| Pred::new(program.symbols.lookup(n).unwrap(), a);
        let targets = [name("reach", 2), name("path", 2), name("threat", 1), name("safe", 1)];
        let reach = program.symbols.lookup("reach").unwrap();
        let numbers = numbers(&mut program);
        // A few atoms of `reach` are frozen, so that its name is looked up in
        // both tables.
        program.store.app(reach, &[numbers[0], numbers[1]]);
        program.store.app(reach, &[numbers[2], numbers[2]]);
        let mut frozen = program.store.clone();
        let mut evaluator = Evaluator::new(program.rules.clone(), &frozen, &|_| 4);
        let mut statics = Model::default();
        evaluator.prepare(&mut statics, &frozen);
        evaluator.assume_prepared();
        frozen.freeze();
        let mut work = statics.clone();
        let mut rng = SmallRng::seed_from_u64(12);
        for _ in 0..200 {
            let facts = random_facts(&program.symbols, &mut rng, 0.6);
            frozen.clear_scratch();
            work.reset_to(&statics);
            let mut plain = Model::default();
            for fact in &facts {
                let atom = true_atom(&mut frozen, fact, &numbers);
                work.insert(atom, &frozen);
                let atom = true_atom(&mut program.store, fact, &numbers);
                plain.insert(atom, &program.store);
            }
            let mut budget = Budget::new(1 << 20, 1 << 24);
            evaluator.run_limited(&mut frozen, &mut work, &Negation::Exact, &mut budget.clone());
            Evaluator::run_once(program.rules.clone(), &mut program.store, &mut plain, &Negation::Exact, &mut budget);
            for p in targets {
                let text = |model: &Model, store: &TermStore| {
                    let mut atoms: Vec<String> =
                        model.atoms(p).iter().map(|&a| store.to_term(a, &program.symbols).to_string()).collect();
                    atoms.sort();
                    atoms
                };
                assert_eq!(text(&work, &frozen), text(&plain, &program.store), "{p:?}");
            }
        }
        assert!(frozen.len() < program.store.len(), "the frozen store forgot what the states derived");
    }

    /// The start of the games of the evaluation tests above: the numbers 0
    /// to 3, their successor, and `reach`, the transitive closure of the
    /// state's `edge`s; the rules `more` after them.
    fn numbers_and_reach(more: &str) -> Program {
        let text = format!(
            "(n 0) (n 1) (n 2) (n 3) (succ 0 1) (succ 1 2) (succ 2 3)
             (<= (reach ?x ?y) (true (edge ?x ?y)))
             (<= (reach ?x ?z) (true (edge ?x ?y)) (reach ?y ?z)) {more}"
        );
        Program::new(&Game::parse(&text).expect("the test game parses"))
    }

    /// The terms of the numbers 0 to 3 in `program`, in order.
    fn numbers(program: &mut Program) -> Vec<TermId> {
        (0..4).map(|i| program.store.sym(program.symbols.lookup(&i.to_string()).expect("a number"))).collect()
    }

    /// The facts of a random state over the numbers 0 to 3 (by index): up
    /// to seven, each `(edge x y)` with probability `edges`, else `(mark x)`.
    fn random_facts(symbols: &Symbols, rng: &mut SmallRng, edges: f64) -> Vec<(Sym, Vec<usize>)> {
        let (edge, mark) = (symbols.lookup("edge").expect("edge"), symbols.lookup("mark").expect("mark"));
        (0..rng.random_range(0..8))
            .map(|_| {
                let (x, y) = (rng.random_range(0..4), rng.random_range(0..4));
                if rng.random_bool(edges) { (edge, vec![x, y]) } else { (mark, vec![x]) }
            })
            .collect()
    }

    /// `(true fact)` in `store`, the fact's arguments indexes in `numbers`.
    fn true_atom(store: &mut TermStore, (function, args): &(Sym, Vec<usize>), numbers: &[TermId]) -> TermId {
        let args: Vec<TermId> = args.iter().map(|&i| numbers[i]).collect();
        let fact = store.app(*function, &args);
        store.app(kw::TRUE, &[fact])
    }
}
