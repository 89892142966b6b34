//! Grounding: every rule instantiated with the ground terms it can ever
//! apply to.
//!
//! The rules are first simplified: fluents that are only ever carried over
//! are read from `init` ([`crate::fluents`]), arguments that only a type
//! tests are projected away ([`crate::guards`]), and the state-dependent
//! rules are decomposed ([`crate::decompose`]) so that no rule body is a
//! needless cross product. Then the relations that do not depend on the
//! state are evaluated exactly, those that fit in a share of the budget in
//! full. Then everything that could ever hold is over-approximated: the rules
//! are evaluated with negation on state-dependent relations ignored, with
//! `(true x)` for every `(init x)` and `(next x)`, and `(does r m)` for every
//! `(legal r m)`, to a fixpoint — rewritten for demand ([`crate::magic`]), so
//! that only the atoms that the legal moves, goals, terminality and next
//! state can depend on are derived. The state-independent relations too
//! large to evaluate in full are part of that, with negation ignored at
//! first, and then evaluated exactly for every instance asked about. A
//! relation asked in several ways is asked once, with the arguments that all
//! the ways bind ([`magic::transform_within`] with `merge`); should that run out of half
//! the budget, the rules are grounded again with demand as asked (in the
//! order of [`ground_first`]). Finally
//! each rule is instantiated against that approximation, once (its head
//! read from the approximation keeps only the instances asked for); what
//! remains of its body is literals over state-dependent atoms. Each ground
//! rule is kept once. A game that runs out while estimating what can ever
//! hold may instead be grounded with some relations left to a per-state
//! oracle ([`Networks`], [`crate::hybrid`]); where only terminality and
//! goals read a state-independent relation too large to evaluate in full
//! (laikLee_hex's lists of cells), that network is tried first, and where
//! two plain attempts run out estimating what can ever hold (chess), the
//! hybrid network is tried before the plain grounding's full budget is
//! spent; those attempts give up as soon as their growth shows that they
//! will run out ([`HOPELESS_ROUNDS`]).

use std::collections::HashSet;

use crate::compile_error::CompileError;
use crate::datalog::{Budget, Evaluator, Model, Negation, PeriodicCheck, Plan};
use crate::decompose::{Determined, decompose};
use crate::fluents;
use crate::game::Game;
use crate::guards;
use crate::hash::FastMap;
use crate::hybrid;
use crate::instantiate::{Against, ToGround, instantiate_all};
use crate::limits::{self, OutOfLimits};
use crate::magic;
use crate::normalize::{Lit, NRule, Pat, Program};
use crate::prover::dynamic_preds_within;
use crate::store::{Pred, TermId, TermStore};
use crate::symbol::{Sym, Symbols, kw};

/// Limits that keep grounding of huge games from exhausting memory, and
/// from running past the request's deadline or cancellation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Most atoms in the over-approximation.
    pub(crate) atoms: usize,
    /// Most ground rules.
    pub(crate) rules: usize,
    /// Most rule instances found while over-approximating.
    pub(crate) joins: usize,
    /// The deadline and the cancellation of the request
    /// ([`Limits::within`]): every attempt checks them as it goes, and once
    /// they are reached grounding ends with [`CompileError::OutOfLimits`],
    /// no other attempt made. None by default.
    pub(crate) stop: limits::Limits,
}

impl Limits {
    /// At most `limit` atoms, `limit` ground rules and [`JOINS_PER_RULE`]
    /// times as many rule instances, with no deadline and no cancellation.
    pub(crate) fn new(limit: usize) -> Limits {
        Limits { atoms: limit, rules: limit, joins: limit.saturating_mul(JOINS_PER_RULE), stop: limits::Limits::none() }
    }

    /// These limits, stopped by `stop` too (its deadline, its
    /// cancellation).
    pub(crate) fn within(self, stop: limits::Limits) -> Limits {
        Limits { stop, ..self }
    }

    /// These limits with a `share` of the atoms, and with one of the rule
    /// instances too when `joins` (the ground rules keep their limit).
    fn share(self, share: usize, joins: bool) -> Limits {
        Limits { atoms: self.atoms / share, joins: if joins { self.joins / share } else { self.joins }, ..self }
    }

    /// Whether the deadline or the cancellation is reached now: the error
    /// that ends grounding, if so.
    pub(crate) fn stopped(&self) -> Result<(), CompileError> {
        match self.stop.exceeded() {
            Some(why) => Err(CompileError::OutOfLimits(why)),
            None => Ok(()),
        }
    }
}

/// A ground rule: an atom and the literals (atom, positive?) that imply it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GroundRule<'a> {
    pub(crate) head: TermId,
    pub(crate) body: &'a [(TermId, bool)],
}

/// Ground rules stored flat — the heads, and the bodies one after another —
/// so that millions of them (amazonsTorus: 1.9 million) cost three
/// allocations rather than one each.
#[derive(Debug, Clone, Default)]
pub(crate) struct GroundRules {
    heads: Vec<TermId>,
    /// Where each rule's body ends in `literals`.
    ends: Vec<usize>,
    literals: Vec<(TermId, bool)>,
}

impl GroundRules {
    /// The number of rules.
    pub(crate) fn len(&self) -> usize {
        self.heads.len()
    }

    /// Adds the rule `head :- body`.
    pub(crate) fn push(&mut self, head: TermId, body: &[(TermId, bool)]) {
        self.heads.push(head);
        self.literals.extend_from_slice(body);
        self.ends.push(self.literals.len());
    }

    /// No rules, with room for `rules` rules of `literals` literals in all.
    pub(crate) fn with_capacity(rules: usize, literals: usize) -> GroundRules {
        GroundRules {
            heads: Vec::with_capacity(rules),
            ends: Vec::with_capacity(rules),
            literals: Vec::with_capacity(literals),
        }
    }

    /// The number of body literals of all the rules.
    pub(crate) fn literal_count(&self) -> usize {
        self.literals.len()
    }

    /// Adds rules `range` of `other`, in order.
    pub(crate) fn extend_from(&mut self, other: &GroundRules, range: std::ops::Range<usize>) {
        if range.is_empty() {
            return;
        }
        let start = if range.start == 0 { 0 } else { other.ends[range.start - 1] };
        let end = other.ends[range.end - 1];
        let shift = self.literals.len();
        self.heads.extend_from_slice(&other.heads[range.clone()]);
        self.literals.extend_from_slice(&other.literals[start..end]);
        self.ends.extend(other.ends[range].iter().map(|&e| e - start + shift));
    }

    /// Rule `i`.
    pub(crate) fn get(&self, i: usize) -> GroundRule<'_> {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        GroundRule { head: self.heads[i], body: &self.literals[start..self.ends[i]] }
    }

    /// The rules in the order they were added.
    pub(crate) fn iter(&self) -> impl Iterator<Item = GroundRule<'_>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// The ground game.
#[derive(Debug, Clone)]
pub(crate) struct Grounding {
    pub(crate) symbols: Symbols,
    pub(crate) store: TermStore,
    pub(crate) roles: Vec<TermId>,
    /// The base terms true in the initial state.
    pub(crate) init: Vec<TermId>,
    pub(crate) rules: GroundRules,
    /// The relations left to the oracle ([`crate::hybrid`]): their atoms are
    /// inputs of the network. Empty for a fully grounded game.
    pub(crate) externals: HashSet<Pred>,
    /// For a hybrid network, the rules the oracle evaluates (the rewritten
    /// state-dependent ones and the static ones not in `statics`).
    pub(crate) oracle_rules: Vec<NRule>,
    /// For a hybrid network, the external relations asked with bound
    /// arguments and the relations of what is asked ([`crate::hybrid`]).
    pub(crate) oracle_asks: Vec<(Pred, Pred)>,
    /// For a hybrid network, the state-dependent rules before decomposition.
    pub(crate) oracle_original: Vec<NRule>,
    /// For a hybrid network, the relations that do not depend on the state.
    pub(crate) statics: Model,
    /// For a hybrid network, the relation of the atoms that say which
    /// external atoms a state asks about ([`crate::asks`]), once added.
    pub(crate) ask: Option<Sym>,
}

/// Why grounding stopped: the error, and when it ran out estimating what can
/// ever hold, the state-dependent relations that had grown the most.
struct Failure {
    error: CompileError,
    heavy: HashSet<Pred>,
}

impl From<CompileError> for Failure {
    fn from(error: CompileError) -> Failure {
        Failure { error, heavy: HashSet::new() }
    }
}

impl From<OutOfLimits> for Failure {
    fn from(why: OutOfLimits) -> Failure {
        CompileError::OutOfLimits(why).into()
    }
}

impl Failure {
    /// The error that ends grounding at once, if this attempt was stopped
    /// by the deadline or the cancellation (no other attempt is then made).
    fn stop(&self) -> Result<(), CompileError> {
        match self.error {
            CompileError::OutOfLimits(why) => Err(CompileError::OutOfLimits(why)),
            _ => Ok(()),
        }
    }
}

/// Ends grounding with `error` when it says that the deadline or the
/// cancellation stopped it; any other error (a network refused by
/// `accept`) lets the next attempt go ahead.
fn stop_on(error: CompileError) -> Result<(), CompileError> {
    match error {
        CompileError::OutOfLimits(_) => Err(error),
        _ => Ok(()),
    }
}

/// The rules, simplified and decomposed, ready to ground.
#[derive(Clone)]
struct Prepared {
    program: Program,
    dynamic: HashSet<Pred>,
    dynamic_rules: Vec<NRule>,
    /// The state-dependent rules before decomposition.
    original: Vec<NRule>,
    static_rules: Vec<NRule>,
}

/// Which networks grounding may offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Networks {
    /// Only a fully grounded network (the tests' way to ground).
    #[cfg(test)]
    Plain,
    /// Whatever can be built, in the order [`ground_first`] offers them: a
    /// fully grounded network, one with what only terminality and goals read
    /// left to the oracle ([`hybrid::outcome_externals`]; legal moves and
    /// next state stay fully compiled), or, when the plain grounding runs out
    /// estimating what can ever hold, one with the relations that grew the
    /// most left to the oracle ([`hybrid::choose_externals`]).
    Any,
    /// A hybrid network first ([`hybrid::choose_externals`]), a fully
    /// grounded one where there is none.
    Hybrid,
}

/// The kind of a network [`ground_first`] offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Fully grounded.
    Plain,
    /// What only terminality and goals read is left to the oracle.
    OutcomeOracle,
    /// Relations too large to ground (chess's threat tests) are left to the
    /// oracle.
    Hybrid,
}

/// Grounds `game` within `limits` and returns the first network that
/// `networks` allows and that grounding manages to build.
pub(crate) fn ground(game: &Game, limits: Limits, networks: Networks) -> Result<Grounding, CompileError> {
    ground_first(game, limits, networks, &mut |g, _| Ok(g))
}

/// Grounds `game` within `limits`, offering each network that `networks`
/// allows and grounding manages to build to `accept`, in order, until it
/// takes one (returns `Ok`). Each attempt that fails leaves what the next
/// one needs (the relations that do not depend on the state, the relations
/// that grew the most), so no attempt is made twice.
///
/// The order, for [`Networks::Any`]:
///
/// 1. Where only terminality and goals read a relation that does not depend
///    on the state and is too large to evaluate in full (laikLee_hex's lists
///    of cells, sudoku's `exactlyOne`), the network with those left to the
///    oracle: the plain grounding would have to derive, for every state at
///    once, what the oracle derives for one state from its demand.
/// 2. The plain network with merged demand ([`magic::transform_within`] with `merge`),
///    within half the atoms and half the rule instances: amazons' rays are
///    derived once, not once per way they are asked.
/// 3. If that ran out estimating what can ever hold: the network with what
///    only terminality and goals read left to the oracle, within a
///    sixteenth of the atoms (it fits only where those relations are what
///    made the game too large: sudoku's solved-grid test).
/// 4. If it ran out there: the plain network with demand as asked, within a
///    quarter of the atoms, and should that run out estimating what can
///    ever hold too, the hybrid network whose oracle answers the relations
///    that grew the most in it (chess's threats). Two attempts that each
///    grew the same kind of relations past their budget mark a game whose
///    plain network is hopeless: the full budget is not spent on it first.
/// 5. The plain network with demand as asked, within all the atoms
///    (alexChess: merging asks for far more of `between` than the rules do).
///
/// Every step checks the deadline and the cancellation of `limits`
/// ([`Limits::within`]) as it goes: once they are reached, grounding ends
/// with [`CompileError::OutOfLimits`] — no later attempt is made, and
/// `accept` returning that error ends it too.
///
/// # Errors
///
/// The failure of the last plain attempt when `accept` takes none,
/// `accept`'s error for a plain network, or [`CompileError::OutOfLimits`]
/// as soon as the deadline or the cancellation stops any attempt.
pub(crate) fn ground_first<T>(
    game: &Game,
    limits: Limits,
    networks: Networks,
    accept: &mut dyn FnMut(Grounding, Kind) -> Result<T, CompileError>,
) -> Result<T, CompileError> {
    let clock = std::time::Instant::now();
    let mut prepared = prepare(game, limits.stop)?;
    debug_time("prepared", clock);
    let probe = limits.share(PROBE_SHARE, false);
    if networks == Networks::Hybrid {
        // First within a quarter of the atoms: a game that runs out there
        // has relations to leave to a per-state oracle, and should that
        // fail, the full budget is tried.
        let failure = match ground_with(prepared.clone(), probe, None, false, None, true) {
            Ok(g) => return accept(g, Kind::Plain),
            Err(f) => f,
        };
        failure.stop()?;
        debug_time("probe failed", clock);
        if let Some(g) = ground_hybrid(&prepared, limits, &failure, true)? {
            match accept(g, Kind::Hybrid) {
                Ok(t) => return Ok(t),
                Err(e) => stop_on(e)?,
            }
        }
        return ground_plain(prepared, limits, accept, clock);
    }
    // The relations that do not depend on the state, evaluated once for the
    // attempts that share their budget.
    let share = limits.share(MERGED_SHARE, true);
    let statics =
        evaluate_statics(&prepared.static_rules, &mut prepared.program.store, limits.share(MERGED_SHARE, false))?;
    debug_time("static relations, once", clock);
    let outcome = limits.share(OUTCOME_SHARE, false);
    let any = networks == Networks::Any;
    let outcome_first = any && only_outcome_reads_lazy(&prepared, &statics.lazy);
    // Whether the outcome oracle's network was built and passed over (its
    // oracle could not answer the initial state): the hybrid network is
    // then chosen by the heavy relations only, not built again.
    let mut outcome_offered = false;
    if outcome_first && let Some(g) = ground_outcome_oracle(&prepared, outcome, &statics)? {
        match accept(g, Kind::OutcomeOracle) {
            Ok(t) => return Ok(t),
            Err(e) => {
                stop_on(e)?;
                outcome_offered = true;
            }
        }
    }
    let merged = match ground_with(prepared.clone(), share, None, true, Some(statics.clone()), true) {
        Ok(g) => return accept(g, Kind::Plain),
        Err(f) => f,
    };
    merged.stop()?;
    debug_time("merged attempt failed", clock);
    if any && !merged.heavy.is_empty() {
        if !outcome_first && let Some(g) = ground_outcome_oracle(&prepared, outcome, &statics)? {
            match accept(g, Kind::OutcomeOracle) {
                Ok(t) => return Ok(t),
                Err(e) => {
                    stop_on(e)?;
                    outcome_offered = true;
                }
            }
        }
        let asked = match ground_with(prepared.clone(), probe, None, false, None, true) {
            Ok(g) => return accept(g, Kind::Plain),
            Err(f) => f,
        };
        asked.stop()?;
        debug_time("as-asked probe failed", clock);
        if let Some(g) = ground_hybrid(&prepared, limits, &asked, !outcome_offered)? {
            match accept(g, Kind::Hybrid) {
                Ok(t) => return Ok(t),
                Err(e) => stop_on(e)?,
            }
        }
    }
    ground_plain(prepared, limits, accept, clock)
}

/// The hybrid network whose oracle answers the relations that grew the most
/// in the attempt that failed with `failure`, or failing that, when
/// `or_outcome`, what only terminality and goals read
/// ([`hybrid::choose_externals`]), within `limits`; `None` when that attempt
/// did not run out estimating what can ever hold, or the network cannot be
/// built.
///
/// # Errors
///
/// [`CompileError::OutOfLimits`] when the deadline or the cancellation of
/// `limits` stops it.
fn ground_hybrid(
    prepared: &Prepared,
    limits: Limits,
    failure: &Failure,
    or_outcome: bool,
) -> Result<Option<Grounding>, CompileError> {
    if failure.heavy.is_empty() {
        return Ok(None);
    }
    let debug = std::env::var_os("BOUTON_GGP_DEBUG").is_some();
    let mut hybrid_prepared = prepared.clone();
    let program = &mut hybrid_prepared.program;
    if debug {
        let heavy: Vec<&str> = failure.heavy.iter().map(|p| program.symbols.name(p.name)).collect();
        eprintln!("probe: {}; heavy {heavy:?}", failure.error);
    }
    let (rules, heavy) = (&hybrid_prepared.dynamic_rules, &failure.heavy);
    let (store, symbols) = (&mut program.store, &mut program.symbols);
    let Some(h) = hybrid::choose_externals(rules, heavy, or_outcome, store, symbols, limits.stop)? else {
        return Ok(None);
    };
    if debug {
        let mut names: Vec<String> = h
            .externals
            .iter()
            .map(|p| format!("{}={}", p.name.0, hybrid_prepared.program.symbols.name(p.name)))
            .collect();
        names.sort();
        eprintln!("externals {names:?}");
    }
    match ground_with(hybrid_prepared, limits, Some(&h), false, None, false) {
        Ok(g) => Ok(Some(g)),
        Err(f) => {
            f.stop()?;
            if debug {
                eprintln!("hybrid: {}", f.error);
            }
            Ok(None)
        }
    }
}

/// The plain network with demand as asked, within all of `limits`, offered
/// to `accept`.
fn ground_plain<T>(
    prepared: Prepared,
    limits: Limits,
    accept: &mut dyn FnMut(Grounding, Kind) -> Result<T, CompileError>,
    clock: std::time::Instant,
) -> Result<T, CompileError> {
    let grounding = ground_with(prepared, limits, None, false, None, false).map_err(|f| f.error);
    debug_time("as-asked attempt", clock);
    accept(grounding?, Kind::Plain)
}

/// Grounds `prepared` with what only terminality and goals read left to the
/// oracle ([`hybrid::outcome_externals`]), within `limits`: it fits only
/// when the relations left to the oracle are what made the plain grounding
/// too large, and fails early otherwise (chess). `None` when there is no
/// such network or it does not fit.
///
/// # Errors
///
/// [`CompileError::OutOfLimits`] when the deadline or the cancellation of
/// `limits` stops it.
fn ground_outcome_oracle(
    prepared: &Prepared,
    limits: Limits,
    statics: &Statics,
) -> Result<Option<Grounding>, CompileError> {
    let mut outcome_prepared = prepared.clone();
    let program = &mut outcome_prepared.program;
    let (rules, store, symbols) = (&outcome_prepared.dynamic_rules, &mut program.store, &mut program.symbols);
    let Some(h) = hybrid::outcome_externals(rules, store, symbols, limits.stop)? else { return Ok(None) };
    match ground_with(outcome_prepared, limits, Some(&h), true, Some(statics.clone()), false) {
        Ok(g) => Ok(Some(g)),
        Err(f) => f.stop().map(|()| None),
    }
}

/// Whether terminality or goals read a relation that does not depend on the
/// state and is too large to evaluate in full (one of the rules `lazy`),
/// and neither the legal moves nor the next state do.
///
/// ```text
/// (<= (connection2 … ?list) … (isList ?list))   isList: every list of cells
/// (<= (line red) … (connection 1 ?y1 5 ?y2 red nil))
/// (<= terminal (line red))                        only terminal reads it: true
/// ```
fn only_outcome_reads_lazy(prepared: &Prepared, lazy: &[NRule]) -> bool {
    let store = &prepared.program.store;
    let mut reads: HashSet<Pred> = lazy.iter().map(|r| r.head.pred(store)).collect();
    if reads.is_empty() {
        return false;
    }
    // The state-dependent relations that read them, directly or not.
    loop {
        let before = reads.len();
        for rule in &prepared.dynamic_rules {
            let head = rule.head.pred(store);
            let reads_one =
                rule.body.iter().any(|l| matches!(l, Lit::Pos(p) | Lit::Neg(p) if reads.contains(&p.pred(store))));
            if reads_one {
                reads.insert(head);
            }
        }
        if reads.len() == before {
            break;
        }
    }
    let play = [Pred::new(kw::LEGAL, 2), Pred::new(kw::NEXT, 1)];
    let outcome = [Pred::new(kw::GOAL, 2), Pred::proposition(kw::TERMINAL)];
    !play.iter().any(|p| reads.contains(p)) && outcome.iter().any(|p| reads.contains(p))
}

/// The relations that do not depend on the state, evaluated in full where
/// that fits in a [`STATIC_SHARE`] of the budget of `limits`, and the rules
/// of the others (left to demand), with the budget the evaluation used.
#[derive(Clone)]
struct Statics {
    model: Model,
    lazy: Vec<NRule>,
    used: Budget,
}

/// The relations that do not depend on the state, evaluated within
/// `limits` ([`Statics`]).
///
/// # Errors
///
/// [`CompileError::OutOfLimits`] when the deadline or the cancellation of
/// `limits` stops the evaluation.
fn evaluate_statics(static_rules: &[NRule], store: &mut TermStore, limits: Limits) -> Result<Statics, CompileError> {
    let budget = budget_of(limits);
    let mut exact = Budget::new(budget.atoms / STATIC_SHARE, budget.joins / STATIC_SHARE).within(limits.stop);
    let before = exact;
    let mut model = Model::default();
    let lazy = Evaluator::run_while_within(static_rules.to_vec(), store, &mut model, &Negation::Exact, &mut exact);
    if let Some(why) = exact.interruption() {
        return Err(CompileError::OutOfLimits(why));
    }
    Ok(Statics { model, lazy, used: Budget::new(before.atoms - exact.atoms, before.joins - exact.joins) })
}

/// The grounding budget of `limits`: atoms, and rule instances found, until
/// their deadline and unless cancelled.
fn budget_of(limits: Limits) -> Budget {
    Budget::new(limits.atoms, limits.joins).within(limits.stop)
}

/// The rules simplified ([`crate::fluents`], [`crate::guards`]) and the
/// state-dependent ones decomposed, within `stop` (checked by the
/// normaliser, the simplifying passes, the search for the relations that
/// depend on the state and the decomposition as they go).
fn prepare(game: &Game, stop: limits::Limits) -> Result<Prepared, CompileError> {
    let mut program = Program::new_within(game, stop)?;
    fluents::inline_constant_fluents(&mut program.rules, &mut program.store, stop)?;
    if program.roles.is_empty() {
        return Err(CompileError::NoRoles);
    }
    let dynamic = dynamic_preds_within(&program, &mut PeriodicCheck::new(stop))?;
    guards::project_guarded_arguments(&mut program.rules, &dynamic, &mut program.store, &mut program.symbols, stop)?;
    let mut dynamic = dynamic_preds_within(&program, &mut PeriodicCheck::new(stop))?;
    let state = |p: Pred| dynamic.contains(&p) || matches!(p.name, kw::TRUE | kw::DOES);
    let (dynamic_rules, static_rules): (Vec<NRule>, Vec<NRule>) =
        program.rules.iter().cloned().partition(|r| state(r.head.pred(&program.store)));
    let original = dynamic_rules.clone();
    let facts = Determined::of_facts(&static_rules, &program.store, stop)?;
    let (dynamic_rules, helpers) =
        decompose(dynamic_rules, &state, &facts, &mut program.store, &mut program.symbols, stop)?;
    dynamic.extend(helpers.iter().copied());
    Ok(Prepared { program, dynamic, dynamic_rules, original, static_rules })
}

/// Grounds `prepared` within `limits`; with `hybrid`, the rules of the
/// external relations are left to the oracle; with `merge`, demand merges
/// the ways a relation is asked ([`magic::transform_within`] with `merge`); `statics`,
/// the relations that do not depend on the state when already evaluated
/// (in `prepared`'s store), their cost charged to `limits` again; with
/// `give_up`, the estimate of what can ever hold stops as soon as its growth
/// shows that it will run out ([`HOPELESS_ROUNDS`]): for the attempts that
/// another one follows.
fn ground_with(
    prepared: Prepared,
    limits: Limits,
    hybrid: Option<&hybrid::Hybrid>,
    merge: bool,
    statics: Option<Statics>,
    give_up: bool,
) -> Result<Grounding, Failure> {
    let Prepared { mut program, mut dynamic, dynamic_rules, original, static_rules } = prepared;
    if let Some(h) = hybrid {
        dynamic.extend(h.externals.iter().copied());
    }
    let is_dynamic = |p: Pred| dynamic.contains(&p) || matches!(p.name, kw::TRUE | kw::DOES);
    let external = |p: Pred| hybrid.is_some_and(|h| h.externals.contains(&p));
    let oracle_rules = hybrid.map(|h| h.oracle.clone()).unwrap_or_default();
    let oracle_asks = hybrid.map(|h| h.asks.clone()).unwrap_or_default();
    let mut oracle_original = if hybrid.is_some() { original } else { Vec::new() };
    let dynamic_rules: Vec<NRule> = match hybrid {
        None => dynamic_rules,
        Some(h) => h.ground.clone(),
    };

    // The relations that do not depend on the state, in full where that
    // is small; the others (mummymaze's `direction-from` over every pair of
    // numbers, of which a few board squares are ever asked about) are left
    // to demand below.
    let clock = std::time::Instant::now();
    let Statics { model: mut statics, lazy, used } = match statics {
        Some(statics) => statics,
        None => evaluate_statics(&static_rules, &mut program.store, limits)?,
    };
    let mut budget = budget_of(limits);
    budget.atoms = budget.atoms.saturating_sub(used.atoms);
    budget.joins = budget.joins.saturating_sub(used.joins);
    if budget.is_spent() {
        return Err(CompileError::TooLarge("the relations that do not depend on the state").into());
    }
    let mut oracle_rules = oracle_rules;
    if hybrid.is_some() {
        oracle_rules.extend(lazy.iter().cloned());
        oracle_original.extend(lazy.iter().cloned());
    }

    debug_time("static relations", clock);
    // Everything that can ever hold, of what the legal moves, goals,
    // terminality and next state can depend on.
    let mut bridged = dynamic_rules;
    let lazy_preds: HashSet<Pred> = lazy.iter().map(|r| r.head.pred(&program.store)).collect();
    bridged.extend(lazy);
    let v = |i| Pat::Var(i);
    for (from, arity) in BRIDGES {
        let args: Vec<Pat> = (0..arity).map(v).collect();
        let to = if from == kw::LEGAL { kw::DOES } else { kw::TRUE };
        bridged.push(NRule {
            head: Pat::App(to, args.clone().into_boxed_slice()),
            body: vec![Lit::Pos(Pat::App(from, args.into_boxed_slice()))],
            vars: arity as usize,
        });
    }
    let free = |p: Pred, n: usize| (p, vec![false; n]);
    let queries = [
        free(Pred::new(kw::LEGAL, 2), 2),
        free(Pred::new(kw::GOAL, 2), 2),
        free(Pred::proposition(kw::TERMINAL), 0),
        free(Pred::new(kw::NEXT, 1), 1),
        free(Pred::new(kw::INIT, 1), 1),
        free(Pred::new(kw::TRUE, 1), 1),
        free(Pred::new(kw::DOES, 2), 2),
    ];
    let size = |p: Pred| statics.relation(p).map_or(GUESS, |r| r.atoms.len());
    let (store, symbols) = (&mut program.store, &mut program.symbols);
    let demand = magic::transform_within(&bridged, &queries, store, symbols, &size, merge, limits.stop)?;
    let mut domain = statics.clone();
    let not_dynamic = |p: Pred| !is_dynamic(p) && !demand.demand.contains(&p);
    // The relations left to demand are evaluated with their negative
    // literals ignored first, with the rest (what they derive is then too
    // much, never too little), and then exactly for every instance asked.
    let approximate = |p: Pred| not_dynamic(p) && !lazy_preds.contains(&p);
    let hopeless = Evaluator::run_once_unless_hopeless(
        demand.rules.clone(),
        &mut program.store,
        &mut domain,
        &Negation::Only(&approximate),
        &mut budget,
        give_up.then_some(HOPELESS_ROUNDS),
    );
    if let Some(why) = budget.interruption() {
        return Err(why.into());
    }
    if !lazy_preds.is_empty() && !budget.is_spent() {
        let exact: Vec<NRule> =
            demand.rules.iter().filter(|r| lazy_preds.contains(&r.head.pred(&program.store))).cloned().collect();
        let evaluator = Evaluator::new(exact.clone(), &program.store, &|_| GUESS);
        if !evaluator.is_stratified(&program.store) {
            return Err(CompileError::TooLarge("the relations that do not depend on the state").into());
        }
        let mut asked = statics.clone();
        for &d in &demand.demand {
            for &atom in domain.atoms(d) {
                asked.insert(atom, &program.store);
            }
        }
        Evaluator::run_once(exact, &mut program.store, &mut asked, &Negation::Exact, &mut budget);
        if let Some(why) = budget.interruption() {
            return Err(why.into());
        }
        for &p in &lazy_preds {
            domain.remove(p);
            for &atom in asked.atoms(p) {
                domain.insert(atom, &program.store);
            }
        }
    }
    if budget.is_spent() {
        if std::env::var_os("BOUTON_GGP_DEBUG").is_some() {
            let mut sizes: Vec<(usize, String)> = domain
                .preds()
                .filter(|&p| is_dynamic(p))
                .map(|p| (domain.atoms(p).len(), program.symbols.name(p.name).to_string()))
                .collect();
            sizes.sort_unstable_by(|a, b| b.cmp(a));
            sizes.truncate(12);
            let how = if hopeless { "gave up (growing past the budget)" } else { "ran out" };
            eprintln!("  {how} after {:.3} s: {:?} left; largest {sizes:?}", clock.elapsed().as_secs_f64(), budget);
        }
        return Err(Failure {
            error: CompileError::TooLarge("the propositions that can ever hold"),
            heavy: heaviest(&domain, &statics, &demand.demand, &is_dynamic, &program.store),
        });
    }

    debug_time("what can ever hold", clock);
    if std::env::var_os("BOUTON_GGP_DEBUG").is_some() {
        let all = budget_of(limits);
        eprintln!(
            "  used {} of {} atoms, {} of {} joins",
            all.atoms - budget.atoms,
            all.atoms,
            all.joins - budget.joins,
            all.joins
        );
    }
    // Each rule instantiated against it: what remains of a body is its
    // literals over state-dependent atoms. The plans first, and the indexes
    // they use, then the instances ([`instantiate`], on both cores).
    let mut to_ground = Vec::new();
    for (rule, filtered) in rules_to_ground(&demand, &program.store, &|p| is_dynamic(p) && !external(p)) {
        let plan = Plan::new(&rule, None, &program.store, &|p| domain.atoms(p).len());
        if !domain.prepare_within(&rule, &plan, &program.store, &mut budget)
            && let Some(why) = budget.interruption()
        {
            return Err(why.into());
        }
        to_ground.push(ToGround { rule, filtered, plan });
    }
    let is_demand = |p: Pred| demand.demand.contains(&p);
    let against = Against {
        store: &program.store,
        domain: &domain,
        is_dynamic: &is_dynamic,
        is_demand: &is_demand,
        checked: &not_dynamic,
    };
    let (mut rules, per_rule) = instantiate_all(&to_ground, &against, limits.rules, limits.stop)?;
    if std::env::var_os("BOUTON_GGP_DEBUG").is_some() {
        for (ToGround { rule, .. }, &(count, seconds)) in to_ground.iter().zip(&per_rule) {
            if seconds > 0.05 {
                eprintln!(
                    "  {seconds:.3} s, {count} ground rules: {}",
                    show_rule(rule, &program.store, &program.symbols)
                );
            }
        }
    }
    debug_time("ground rules", clock);
    if std::env::var_os("BOUTON_GGP_DEBUG").is_some() {
        debug_sizes(&rules, &domain, &program.store, &program.symbols);
    }
    let mut check = PeriodicCheck::new(limits.stop);
    if hybrid.is_some() {
        let mut inputs: HashSet<TermId> = HashSet::new();
        for rule in rules.iter() {
            check.step()?;
            inputs.extend(rule.body.iter().map(|&(a, _)| a).filter(|&a| external(program.store.pred(a))));
        }
        if inputs.len() > hybrid::MAX_INPUTS {
            return Err(CompileError::TooLarge("the atoms left to the oracle").into());
        }
    }
    // Keyword relations that do not depend on the state hold always.
    let constant: HashSet<Pred> =
        [Pred::new(kw::LEGAL, 2), Pred::new(kw::GOAL, 2), Pred::proposition(kw::TERMINAL), Pred::new(kw::NEXT, 1)]
            .into_iter()
            .filter(|p| !is_dynamic(*p))
            .collect();
    for pred in &constant {
        for &atom in domain.atoms(*pred) {
            check.step()?;
            rules.push(atom, &[]);
        }
    }
    let mut init: Vec<TermId> =
        domain.atoms(Pred::new(kw::INIT, 1)).iter().map(|&a| program.store.args(a)[0]).collect();
    init.sort();
    init.dedup();
    let externals = hybrid.map(|h| h.externals.clone()).unwrap_or_default();
    if externals.is_empty() {
        statics = Model::default();
    }
    Ok(Grounding {
        symbols: program.symbols,
        store: program.store,
        roles: program.roles,
        init,
        rules,
        externals,
        oracle_rules,
        oracle_asks,
        oracle_original,
        statics,
        ask: None,
    })
}

/// The rules to instantiate: those of the state-dependent relations
/// (`ground` tells which; neither demand relations nor bridges), each once,
/// with whether its head is a filter (the last literal of the body).
///
/// The demand rewriting makes a copy of a rule for each way its relation is
/// asked (each with its demand literal first), and the copies find the same
/// instances over and over. Every atom derived, by any copy, is in the
/// approximation; so each rule is instantiated once, without its demand
/// literal and with its head as a filter instead: the instances whose head
/// is in the approximation are exactly those some copy finds, since the
/// copies of a rule differ only in their demand literals, and a head derived
/// under one demand has that demand hold for every rule of its relation.
fn rules_to_ground(demand: &magic::Demand, store: &TermStore, ground: &dyn Fn(Pred) -> bool) -> Vec<(NRule, bool)> {
    let mut seen: HashSet<(Pat, Vec<Lit>)> = HashSet::new();
    let mut out = Vec::new();
    for rule in &demand.rules {
        let head = rule.head.pred(store);
        if demand.demand.contains(&head) || !ground(head) || is_bridge(rule, store) {
            continue;
        }
        let mut rule = rule.clone();
        let filtered = matches!(rule.body.first(), Some(Lit::Pos(p)) if demand.demand.contains(&p.pred(store)));
        if filtered {
            rule.body.remove(0);
            rule.body.push(Lit::Pos(rule.head.clone()));
        }
        if seen.insert((rule.head.clone(), rule.body.clone())) {
            out.push((rule, filtered));
        }
    }
    out
}

/// With `BOUTON_GGP_DEBUG` set, prints the time since `since` on standard
/// error.
fn debug_time(what: &str, since: std::time::Instant) {
    if std::env::var_os("BOUTON_GGP_DEBUG").is_some() {
        eprintln!("grounding: {what} after {:.3} s", since.elapsed().as_secs_f64());
    }
}

/// `rule` written out, for debugging prints.
fn show_rule(rule: &NRule, store: &TermStore, symbols: &Symbols) -> String {
    fn pat(p: &Pat, store: &TermStore, symbols: &Symbols) -> String {
        match p {
            Pat::Var(v) => format!("?{v}"),
            Pat::Ground(id) => store.to_term(*id, symbols).to_string(),
            Pat::App(name, args) => {
                let args: Vec<String> = args.iter().map(|a| pat(a, store, symbols)).collect();
                format!("({} {})", symbols.name(*name), args.join(" "))
            }
        }
    }
    let body: Vec<String> = rule
        .body
        .iter()
        .map(|l| match l {
            Lit::Pos(p) => pat(p, store, symbols),
            Lit::Neg(p) => format!("(not {})", pat(p, store, symbols)),
            Lit::Distinct(a, b) => format!("(distinct {} {})", pat(a, store, symbols), pat(b, store, symbols)),
            Lit::Same(a, b) => format!("(= {} {})", pat(a, store, symbols), pat(b, store, symbols)),
        })
        .collect();
    format!("(<= {} {})", pat(&rule.head, store, symbols), body.join(" "))
}

/// Prints the relations with the most ground rules and atoms.
fn debug_sizes(rules: &GroundRules, domain: &Model, store: &TermStore, symbols: &Symbols) {
    let mut per: FastMap<Pred, (usize, usize)> = FastMap::default();
    for r in rules.iter() {
        let e = per.entry(store.pred(r.head)).or_default();
        e.0 += 1;
        e.1 += r.body.len();
    }
    let mut list: Vec<(usize, usize, Pred)> = per.into_iter().map(|(p, (n, l))| (n, l, p)).collect();
    list.sort_unstable_by(|a, b| b.cmp(a));
    for (n, l, p) in list.iter().take(25) {
        eprintln!(
            "  {n:>9} rules {l:>9} literals {:>8} atoms  {}/{}",
            domain.atoms(*p).len(),
            symbols.name(p.name),
            p.arity
        );
    }
}

/// The state-dependent relations that grew the most in `domain` (at least
/// [`HEAVY_SHARE`] of the largest), neither keywords nor demand relations
/// nor relations already in `statics`.
fn heaviest(
    domain: &Model,
    statics: &Model,
    demand: &HashSet<Pred>,
    is_dynamic: &dyn Fn(Pred) -> bool,
    store: &TermStore,
) -> HashSet<Pred> {
    let _ = store;
    let mut sizes: Vec<(usize, Pred)> = domain
        .preds()
        .filter(|&p| is_dynamic(p) && !demand.contains(&p) && statics.relation(p).is_none())
        .filter(|p| !matches!(p.name, kw::TRUE | kw::DOES | kw::LEGAL | kw::NEXT | kw::GOAL | kw::TERMINAL | kw::INIT))
        .map(|p| (domain.atoms(p).len(), p))
        .collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let Some(&(largest, _)) = sizes.first() else { return HashSet::new() };
    sizes.into_iter().take_while(|&(n, _)| n * HEAVY_SHARE >= largest).map(|(_, p)| p).collect()
}

/// A relation is heavy when it has at least this fraction of the atoms of the
/// largest one.
const HEAVY_SHARE: usize = 4;

/// An attempt at grounding that another attempt follows gives up estimating
/// what can ever hold as soon as a round of its evaluation derives more
/// atoms than the round before and this many more such rounds would spend
/// the atoms left ([`Evaluator::run_once_unless_hopeless`]): its growth is
/// still speeding up and the budget nearly spent. Chess, whose plain
/// grounding runs out, gives up halfway through its atoms; amazonsTorus's
/// growth peaks at a tenth of what is then left of its budget.
const HOPELESS_ROUNDS: usize = 6;

/// The share of the atoms that grounding with merged demand may derive
/// before grounding with demand as asked is tried instead.
const MERGED_SHARE: usize = 2;

/// The share of the atoms that grounding with what only terminality and
/// goals read left to the oracle may derive, when the plain grounding ran
/// out ([`Networks::Any`]).
const OUTCOME_SHARE: usize = 16;

/// The share of the atoms the first attempt at grounding may derive.
const PROBE_SHARE: usize = 4;

/// `(true x)` from `(init x)` and `(next x)`, `(does r m)` from `(legal r m)`:
/// the relations and arities.
const BRIDGES: [(Sym, u16); 3] = [(kw::INIT, 1), (kw::NEXT, 1), (kw::LEGAL, 2)];

/// How many rule instances the evaluation of everything that can ever hold
/// may find per ground rule allowed: each ground rule is one of them, the
/// others are found again in later rounds or lead nowhere.
const JOINS_PER_RULE: usize = 4;

/// The share of the grounding budget (atoms, rule instances) within which
/// a relation that does not depend on the state is evaluated in full.
const STATIC_SHARE: usize = 4;

/// The size assumed, when ordering joins for demand, for a relation not yet
/// evaluated.
const GUESS: usize = 1000;

/// Whether `rule` is one of the [`BRIDGES`] (with a demand literal, perhaps).
fn is_bridge(rule: &NRule, store: &TermStore) -> bool {
    let head = rule.head.pred(store);
    if !matches!(head.name, kw::TRUE | kw::DOES) {
        return false;
    }
    let Some(Lit::Pos(last)) = rule.body.last() else { return false };
    let from = last.pred(store);
    BRIDGES.iter().any(|&(name, arity)| from == Pred::new(name, arity as usize))
        && matches!(last, Pat::App(_, args) if args.iter().enumerate().all(|(i, a)| *a == Pat::Var(i as u16)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::Canceller;
    use crate::limits::tap::assert_stops_at_each_check;
    use std::time::{Duration, Instant};

    const LIMITS: Limits =
        Limits { atoms: 1_000_000, rules: 1_000_000, joins: 4_000_000, stop: limits::Limits::none() };

    #[test]
    fn static_relations_disappear_from_ground_rules() {
        let game = Game::parse(
            "(role r) (init (c 1)) (succ 1 2) (succ 2 3)
             (<= (next (c ?y)) (true (c ?x)) (succ ?x ?y))
             (<= (legal r go) (true (c ?x))) (<= terminal (true (c 3))) (goal r 100)",
        )
        .unwrap();
        let g = ground(&game, LIMITS, Networks::Plain).unwrap();
        let next = g.rules.iter().filter(|r| g.store.pred(r.head).name == kw::NEXT).count();
        assert_eq!(next, 2, "c1 -> c2 and c2 -> c3");
        assert!(g.rules.iter().all(|r| r.body.len() <= 1));
        assert_eq!(g.init.len(), 1);
    }

    /// A relation that does not depend on the state, too large to evaluate
    /// in full within the limits (60³ atoms), of which the rules ask about a
    /// few instances, one of them negated.
    fn asking_a_few_of_many() -> Game {
        let numbers: String = (0..60).map(|i| format!("(n {i}) ")).collect();
        let succ: String = (0..9).map(|i| format!("(succ {i} {}) ", i + 1)).collect();
        Game::parse(&format!(
            "(role r) (init (at 5)) {numbers} {succ}
             (<= (big ?x ?y ?z) (n ?x) (n ?y) (n ?z) (distinct ?x ?y))
             (<= (legal r (go ?y)) (true (at ?x)) (succ ?x ?y) (not (big ?x 5 5)))
             (<= (legal r stay) (true (at ?x)))
             (<= (next (at ?y)) (does r (go ?y))) (<= (next (at ?x)) (does r stay) (true (at ?x)))
             (<= terminal (true (at 9))) (goal r 100)"
        ))
        .unwrap()
    }

    #[test]
    fn large_static_relations_are_evaluated_where_asked() {
        let game = asking_a_few_of_many();
        let limits = Limits::new(100_000);
        let g = ground(&game, limits, Networks::Plain).unwrap();
        let name = |t: TermId| g.store.to_term(t, &g.symbols).to_string();
        let legal: Vec<String> = g
            .rules
            .iter()
            .filter(|r| g.store.pred(r.head).name == kw::LEGAL)
            .map(|r| format!("{} <- {:?}", name(r.head), r.body.iter().map(|&(a, p)| (name(a), p)).collect::<Vec<_>>()))
            .collect();
        // (big 5 5 5) is false, (big x 5 5) true for every other x: only
        // from 5 can r go on, and negation on `big` is exact.
        assert!(legal.contains(&r#"(legal r (go 6)) <- [("(true (at 5))", true)]"#.to_string()), "{legal:?}");
        assert_eq!(legal.iter().filter(|l| l.contains("go")).count(), 1, "{legal:?}");
    }

    #[test]
    fn ground_rules_keep_each_body_apart() {
        let (a, b, c) = (TermId(1), TermId(2), TermId(3));
        let mut rules = GroundRules::default();
        rules.push(a, &[(b, true), (c, false)]);
        rules.push(b, &[]);
        rules.push(c, &[(a, true)]);
        let all: Vec<GroundRule<'_>> = rules.iter().collect();
        assert_eq!(rules.len(), 3);
        assert_eq!(all[0], GroundRule { head: a, body: &[(b, true), (c, false)] });
        assert_eq!(all[1], GroundRule { head: b, body: &[] });
        assert_eq!(rules.get(2), GroundRule { head: c, body: &[(a, true)] });
    }

    /// Chess, from the repository's games.
    fn chess() -> Game {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games/chess.kif");
        Game::parse(&std::fs::read_to_string(path).expect("chess.kif")).expect("chess parses")
    }

    /// A generated game with a board of `side`² cells, any of them marked
    /// each turn: about `3 side²` ground rules, grounded plain.
    fn marking(side: usize) -> Game {
        let numbers: String = (0..side).map(|i| format!("(index {i}) ")).collect();
        Game::parse(&format!(
            "(role r) (init (at 0 0)) {numbers}
             (<= (legal r (mark ?x ?y)) (index ?x) (index ?y) (not (true (at ?x ?y))))
             (<= (next (at ?x ?y)) (does r (mark ?x ?y)))
             (<= (next (at ?x ?y)) (true (at ?x ?y)) (not (does r (mark ?y ?x))))
             (<= terminal (true (at 1 1))) (goal r 100)"
        ))
        .expect("the generated game parses")
    }

    /// The grounding limits of the machine, with `stop` too.
    fn default_within(stop: limits::Limits) -> Limits {
        Limits::new(crate::DEFAULT_GROUNDING_LIMIT).within(stop)
    }

    /// A deadline already passed.
    fn passed() -> limits::Limits {
        limits::Limits::none().until(Instant::now() - Duration::from_millis(1))
    }

    /// Grounds `game` (any network) within the default limits, cancelled
    /// from another thread [`CANCEL_AFTER`] after the start.
    fn ground_cancelled(game: &Game) -> Result<Grounding, CompileError> {
        let canceller = Canceller::new();
        let limits = default_within(limits::Limits::none().cancelled_by(canceller.handle()));
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(CANCEL_AFTER);
                canceller.cancel();
            });
            ground(game, limits, Networks::Any)
        })
    }

    /// How long after the start the cancellation is raised: far less than
    /// grounding chess or [`marking`]`(300)` takes.
    const CANCEL_AFTER: Duration = Duration::from_millis(20);

    /// What tells two networks apart: the ground rules (head, body), the
    /// initial state, the number of relations left to the oracle.
    type Network = (Vec<(TermId, Vec<(TermId, bool)>)>, Vec<TermId>, usize);

    /// The ground rules, initial state and oracle's relations of `g`.
    fn network(g: &Grounding) -> Network {
        (g.rules.iter().map(|r| (r.head, r.body.to_vec())).collect(), g.init.clone(), g.externals.len())
    }

    #[test]
    fn a_passed_deadline_stops_grounding_before_any_network() {
        for game in [chess(), marking(300)] {
            let stopped = ground(&game, default_within(passed()), Networks::Any);
            assert_eq!(stopped.err(), Some(CompileError::OutOfLimits(OutOfLimits::Deadline)));
            let hybrid = ground(&game, default_within(passed()), Networks::Hybrid);
            assert_eq!(hybrid.err(), Some(CompileError::OutOfLimits(OutOfLimits::Deadline)));
        }
    }

    #[test]
    fn a_cancellation_from_another_thread_stops_grounding_chess() {
        assert_eq!(ground_cancelled(&chess()).err(), Some(CompileError::OutOfLimits(OutOfLimits::Cancelled)));
    }

    #[test]
    fn a_cancellation_from_another_thread_stops_grounding_a_large_game() {
        assert_eq!(ground_cancelled(&marking(300)).err(), Some(CompileError::OutOfLimits(OutOfLimits::Cancelled)));
    }

    #[test]
    fn limits_not_reached_change_no_network() {
        // Without the new field, and with a deadline far off and a
        // cancellation never raised: the same network, rule for rule (the
        // hybrid one for chess, the plain one for the generated game).
        let canceller = Canceller::new();
        let far =
            limits::Limits::none().until(Instant::now() + Duration::from_secs(3600)).cancelled_by(canceller.handle());
        for game in [chess(), marking(120)] {
            let before = ground(&game, Limits::new(crate::DEFAULT_GROUNDING_LIMIT), Networks::Any).unwrap();
            let none = ground(&game, default_within(limits::Limits::none()), Networks::Any).unwrap();
            let within = ground(&game, default_within(far), Networks::Any).unwrap();
            assert!(before.rules.len() > 10_000, "{} ground rules", before.rules.len());
            assert_eq!(network(&none), network(&before));
            assert_eq!(network(&within), network(&before));
        }
        assert!(!canceller.is_cancelled());
    }

    #[test]
    fn a_stop_returned_by_accept_ends_every_attempt() {
        // Chess offers its hybrid network, then would ground plain within
        // the full budget: a stop returned by `accept` ends it there.
        let mut offered = Vec::new();
        let result: Result<(), CompileError> =
            ground_first(&chess(), Limits::new(crate::DEFAULT_GROUNDING_LIMIT), Networks::Any, &mut |_, kind| {
                offered.push(kind);
                Err(CompileError::OutOfLimits(OutOfLimits::Cancelled))
            });
        assert_eq!(result, Err(CompileError::OutOfLimits(OutOfLimits::Cancelled)));
        assert_eq!(offered, vec![Kind::Hybrid]);
    }

    /// A game of the repository's test games, by path under the crate.
    fn test_game(path: &str) -> Game {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        Game::parse(&std::fs::read_to_string(&path).expect("the game's file")).expect("the game parses")
    }

    /// Grounds `game` (any network) cancelled from another thread `after`
    /// the start; the result, and how long after the cancellation it came
    /// (zero when it came before).
    fn cancelled_after(game: &Game, after: Duration) -> (Result<Grounding, CompileError>, Duration) {
        let (result, late) = stopped_after(after, |stop| ground(game, default_within(stop), Networks::Any));
        (result, late.unwrap_or_default())
    }

    #[test]
    fn how_soon_grounding_stops_after_a_cancellation() {
        // Printed, not asserted (`--nocapture`): how long grounding runs on
        // after a cancellation raised at a few points of its work.
        let games = ["tests/games/chess.kif", "tests/grounding-games/laikLee_hex.kif", "tests/games/sudoku.kif"];
        for path in games {
            let game = test_game(path);
            for after in [Duration::from_millis(20), Duration::from_millis(500)] {
                let (result, late) = cancelled_after(&game, after);
                let what = match &result {
                    Ok(g) => format!("done first ({} ground rules)", g.rules.len()),
                    Err(e) => e.to_string(),
                };
                println!("{path}: cancelled after {after:?}: {what}, {:.1} ms after it", late.as_secs_f64() * 1e3);
                assert!(
                    matches!(result, Ok(_) | Err(CompileError::OutOfLimits(OutOfLimits::Cancelled))),
                    "{path}: {what}"
                );
            }
        }
    }

    #[test]
    fn runaway_function_terms_are_stopped() {
        let game = Game::parse(
            "(role r) (init (c 0)) (<= (next (c (s ?x))) (true (c ?x))) (legal r go) (<= terminal (true (c 9))) (goal r 0)",
        )
        .unwrap();
        let small = Limits::new(10_000);
        assert!(matches!(ground(&game, small, Networks::Plain), Err(CompileError::TooLarge(_))));
    }

    /// What tells two choices of the oracle's relations apart: the names of
    /// the external relations (sorted), the rules grounded, the rules the
    /// oracle evaluates, and the relations asked with bound arguments.
    type Choice = (Vec<String>, Vec<NRule>, Vec<NRule>, Vec<(Pred, Pred)>);

    /// The parts of `h` that tell choices apart, its names in `symbols`.
    fn choice(h: hybrid::Hybrid, symbols: &Symbols) -> Choice {
        let mut externals: Vec<String> = h.externals.iter().map(|p| symbols.name(p.name).to_string()).collect();
        externals.sort();
        (externals, h.ground, h.oracle, h.asks)
    }

    /// The rules of `path`'s game prepared without limits, and the relations
    /// that grew the most in its probe (chess: its threat tests) — none
    /// where the probe does not run out estimating what can ever hold.
    fn prepared_and_heavy(path: &str) -> (Prepared, HashSet<Pred>) {
        let prepared = prepare(&test_game(path), limits::Limits::none()).expect(path);
        let probe = Limits::new(crate::DEFAULT_GROUNDING_LIMIT).share(PROBE_SHARE, false);
        let heavy = match ground_with(prepared.clone(), probe, None, false, None, true) {
            Ok(_) => HashSet::new(),
            Err(failure) => failure.heavy,
        };
        (prepared, heavy)
    }

    /// The oracle's relations chosen for `prepared` by `heavy` or, failing
    /// that, by what only terminality and goals read, within `stop`.
    fn choose(prepared: &Prepared, heavy: &HashSet<Pred>, stop: limits::Limits) -> Result<Option<Choice>, OutOfLimits> {
        let mut program = prepared.program.clone();
        let (store, symbols) = (&mut program.store, &mut program.symbols);
        let chosen = hybrid::choose_externals(&prepared.dynamic_rules, heavy, true, store, symbols, stop)?;
        Ok(chosen.map(|h| choice(h, &program.symbols)))
    }

    /// Chess (by the relations its probe found heavy) and sudoku (by what
    /// only terminality and goals read, its heavy relation enclosed by no
    /// other): within limits never
    /// reached, the choice of the oracle's relations is the one made without
    /// limits, rule for rule; cancelled from another thread at each of its
    /// checks in turn (the first, the last, and between), it answers
    /// [`OutOfLimits::Cancelled`] at that very check.
    #[test]
    fn choosing_the_oracles_relations_stops_at_each_of_its_checks() {
        for (path, by_heavy, least) in [("tests/games/chess.kif", true, 4), ("tests/games/sudoku.kif", false, 2)] {
            let (prepared, heavy) = prepared_and_heavy(path);
            assert!(!heavy.is_empty(), "{path}: its probe runs out");
            let (unlimited, _) = assert_stops_at_each_check(path, least, 12, |stop| choose(&prepared, &heavy, stop));
            let names = unlimited.expect("a hybrid program").0;
            let outcome_only = names.iter().all(|n| n.starts_with("terminal-only") || n.starts_with("goal-only"));
            assert_eq!(outcome_only, !by_heavy, "{path}: {names:?}");
        }
    }

    /// What tells two preparations apart: the rules simplified, the
    /// state-dependent ones decomposed, the static ones.
    type PreparedRules = (Vec<NRule>, Vec<NRule>, Vec<NRule>);

    /// `game` prepared within `stop`, by its rules.
    fn prepared_rules(game: &Game, stop: limits::Limits) -> Result<PreparedRules, CompileError> {
        let p = prepare(game, stop)?;
        Ok((p.program.rules, p.dynamic_rules, p.static_rules))
    }

    /// Chess, mummymaze (constant fluents) and ruleDepthExponential
    /// (guarded arguments): prepared within limits never reached, the rules
    /// are those prepared without limits; cancelled from another thread at
    /// each of the checks of the normaliser, the fluents and guards passes
    /// and the decomposition in turn, preparing answers
    /// [`CompileError::OutOfLimits`] at that very check.
    #[test]
    fn preparing_stops_at_each_of_its_checks() {
        for path in ["tests/games/chess.kif", "tests/games/mummymaze1p.kif", "tests/games/ruleDepthExponential.kif"] {
            let game = test_game(path);
            assert_stops_at_each_check(path, 4, 12, |stop| prepared_rules(&game, stop));
        }
    }

    /// Runs `work` cancelled from another thread `after` its start; its
    /// answer, and how long after the cancellation it came (`None` when it
    /// came before).
    fn stopped_after<T>(after: Duration, work: impl FnOnce(limits::Limits) -> T) -> (T, Option<Duration>) {
        let canceller = Canceller::new();
        let stop = limits::Limits::none().cancelled_by(canceller.handle());
        let cancelled_at = std::sync::Mutex::new(None);
        let (answer, ended) = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(after);
                *cancelled_at.lock().unwrap() = Some(Instant::now());
                canceller.cancel();
            });
            let answer = work(stop);
            (answer, Instant::now())
        });
        let cancelled_at = cancelled_at.into_inner().unwrap().expect("cancelled");
        (answer, ended.checked_duration_since(cancelled_at))
    }

    #[test]
    fn how_soon_chess_compilation_stops_after_a_cancellation() {
        // Printed, not asserted (`--nocapture`): how long chess's preparation
        // and choice of the oracle's relations take and how often they read
        // the limits (each stretch between two reads is shorter than the
        // whole), then how long chess's compilation (its race against the
        // prover included) runs on after a cancellation raised at 1/8, 3/8,
        // 5/8 and 7/8 of it.
        use crate::limits::tap;
        let game = test_game("tests/games/chess.kif");
        let (prepared, heavy) = prepared_and_heavy("tests/games/chess.kif");
        let prepare_it = |stop: limits::Limits| prepared_rules(&game, stop).is_ok();
        let choose_it = |stop: limits::Limits| choose(&prepared, &heavy, stop).is_ok();
        let passes: [(&str, &dyn Fn(limits::Limits) -> bool); 2] = [("prepare", &prepare_it), ("choose", &choose_it)];
        for (what, pass) in passes {
            let runs = 10;
            let start = Instant::now();
            for _ in 0..runs {
                assert!(pass(limits::Limits::none()));
            }
            let took = start.elapsed() / runs;
            let (_, reads) = tap::cancelled_at_read(usize::MAX, pass);
            println!("chess {what}: {:.2} ms, the limits read {reads} times", took.as_secs_f64() * 1e3);
        }
        let start = Instant::now();
        crate::machine::Machine::compile_limited(&game, limits::Limits::none()).expect("chess compiles");
        let took = start.elapsed();
        println!("chess compiled in {:.0} ms", took.as_secs_f64() * 1e3);
        for eighth in [1, 3, 5, 7] {
            let after = took * eighth / 8;
            let (result, late) =
                stopped_after(after, |stop| crate::machine::Machine::compile_limited(&game, stop).map(|_| ()));
            let what = match result {
                Ok(()) => "compiled first".to_string(),
                Err(e) => e.to_string(),
            };
            let late = late.map_or("-".to_string(), |l| format!("{:.1} ms after it", l.as_secs_f64() * 1e3));
            println!("chess cancelled at {eighth}/8 ({:.0} ms): {what}, {late}", after.as_secs_f64() * 1e3);
        }
    }
}
