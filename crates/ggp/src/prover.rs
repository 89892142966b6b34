//! The reference reasoner: it evaluates the rules afresh in every state. It
//! needs no grounding, so it serves as the oracle the compiled
//! [`Machine`](crate::Machine) is tested against, and as the player's
//! fallback while a large game is still being compiled (or for a game too
//! large to compile).
//!
//! Each question is answered top-down first ([`crate::topdown`]): resolved
//! against the rules depth-first with every call of a derived relation
//! tabled for the state, so that the legal moves, terminality and goals of
//! a state share what they have in common, and a small game's question costs
//! a few table look-ups. A question top-down evaluation gives up (past a
//! quarter of the budget, or nested too deeply; a kind of question given up
//! twice is not asked top-down again) is answered bottom-up: the rules are
//! rewritten once per kind of question (the initial state; legal moves,
//! terminality and goals together; each of them alone; the next state) so
//! that bottom-up evaluation derives only the atoms the question depends on
//! ([`crate::magic`]); the legal moves of one role ask with the role bound.
//! Should the rewriting break the stratification of negation, that question
//! evaluates every rule it depends on instead. The joins of both are ordered
//! by the sizes the relations have in the initial state, and again on any
//! state with twice its facts. The initial state is always found bottom-up.
//!
//! Every question can also be asked within [`Limits`] — a deadline, a
//! cancellation ([`crate::cancel`]) — as `legal_moves_within`,
//! `next_state_within` and so on: the evaluations (top-down, bottom-up,
//! and the planning for a larger state) check them as they spend their
//! budget, and a question they stop, or whose budget of operations runs
//! out, answers [`OutOfLimits`] instead of a partial answer. A question
//! stopped top-down is not counted as given up, nor asked bottom-up.
//! Building the prover can be bounded the same way
//! ([`Prover::new_within`]: chess takes about 0.2 s, laikLee_hex and sudoku
//! seconds): the normaliser ([`Program::new_within`]), the evaluation of
//! the static relations and of the sample state, the indexes, the rewriting
//! for demand and the planning all check the limits as they go, and a build
//! they stop gives no prover.

use std::collections::HashSet;

use crate::datalog::{Budget, Evaluator, Model, Negation, PeriodicCheck};
use crate::game::Game;
use crate::hash::FastMap;
use crate::limits::{Limits, OutOfLimits, unlimited};
use crate::magic::{self, Adornment};
use crate::normalize::{Lit, NRule, Program};
use crate::store::{Node, Pred, TermId, TermStore};
use crate::symbol::{Symbols, kw};
use crate::term::Term;
use crate::topdown::{Stop, TopDown};

/// A state of the [`Prover`]: the set of base facts that hold.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProverState {
    facts: Vec<TermId>,
}

impl ProverState {
    /// The bytes its facts take on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.facts.capacity() * std::mem::size_of::<TermId>()
    }
}

/// What holds in a state: legal moves per role, terminality, goal values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inspection {
    /// Each role's legal moves, roles in declaration order, moves sorted.
    pub legal: Vec<Vec<Term>>,
    /// Whether the state is terminal.
    pub terminal: bool,
    /// Each role's goal value (the largest, should several hold; `None` if
    /// none does).
    pub goals: Vec<Option<u8>>,
}

/// The reference reasoner.
///
/// ```
/// use bouton_ggp::{Game, Prover, Term};
///
/// let game = Game::parse("(role you) (init (at 0)) (<= (legal you go) (true (at 0)))
///     (<= (next (at 1)) (does you go)) (<= terminal (true (at 1))) (goal you 100)")?;
/// let mut prover = Prover::new(&game);
/// let start = prover.initial_state();
/// assert_eq!(prover.inspect(&start).legal, vec![vec!["go".parse::<Term>()?]]);
/// let end = prover.next_state(&start, &["go".parse()?]);
/// assert!(prover.inspect(&end).terminal);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Prover {
    /// Most atoms derived per evaluation.
    budget: usize,
    symbols: Symbols,
    store: TermStore,
    roles: Vec<TermId>,
    /// The relations that do not depend on the state, with the indexes the
    /// evaluators below use.
    statics: Model,
    /// Each query evaluates only the rules it depends on.
    queries: Queries,
    /// What the queries are planned from, to plan them again for larger
    /// states.
    planner: Planner,
    /// The same questions answered top-down, with tabling; a question it
    /// gives up (past its budget) is answered bottom-up.
    topdown: TopDown,
    /// Whether questions are asked top-down first.
    use_topdown: bool,
    /// How many questions top-down evaluation gave up, in all and per kind
    /// of question ([`Ask::kind`]): a kind given up [`GIVE_UPS`] times is
    /// answered bottom-up from then on.
    given_up: usize,
    given_up_per_kind: [usize; Ask::KINDS],
    /// Sorted move lists as last converted, by their moves' ids (sorted):
    /// small games meet the same lists again and again.
    move_lists: FastMap<Vec<TermId>, Vec<Term>>,
}

/// How many move lists [`Prover::legal_of`] remembers before it forgets
/// them all.
const MOVE_LISTS: usize = 4096;

/// How many times top-down evaluation may give up a kind of question before
/// that kind is answered bottom-up only.
const GIVE_UPS: usize = 2;

/// The share of the budget a question may take top-down before it is given
/// up (and answered bottom-up).
const TOPDOWN_SHARE: usize = 4;

/// The state-dependent rules the queries are made from, and the size of the
/// state they were last planned for. A join order is chosen by the sizes the
/// relations have in a sample state; planned on pentago's empty initial
/// board, its lines joined the player's pieces five deep before the board
/// geometry that binds them — 18⁵ rows on a full board, 0.1 s per terminal
/// test. So a state with more than [`REPLAN_GROWTH`] times the facts of the
/// last sample (and at least [`REPLAN_MIN_GAIN`] more) has the queries
/// planned again on it: a handful of times in a prover's life at most, since
/// the size it is planned for only grows.
#[derive(Debug, Clone)]
struct Planner {
    rules: Vec<NRule>,
    use_demand: bool,
    /// The number of facts of the state last planned on.
    facts: usize,
}

/// How many times the facts of the state the queries were planned on a state
/// must have for them to be planned again on it.
const REPLAN_GROWTH: usize = 2;

/// How many more facts than the state the queries were planned on a state
/// must have for them to be planned again on it.
const REPLAN_MIN_GAIN: usize = 8;

/// The rules each query needs, rewritten for its demand and planned once.
#[derive(Debug, Clone)]
struct Queries {
    init: Query,
    inspect: Query,
    legal: Query,
    terminal: Query,
    goal: Query,
    next: Query,
}

/// The rules of one query, and the demand relation to seed with the query's
/// bound arguments, if it has any.
#[derive(Debug, Clone)]
struct Query {
    evaluator: Evaluator,
    seed: Option<Pred>,
}

/// What planning a query works with: the static relations (the queries'
/// joins index them), the terms and the symbols (the demand relations are
/// named), the roles, the atoms one evaluation may derive, and the limits
/// the planning is done within.
struct Planning<'a> {
    /// The static relations, which keep the indexes the queries build.
    statics: &'a mut Model,
    /// The terms.
    store: &'a mut TermStore,
    /// The symbols, which name the demand relations.
    symbols: &'a mut Symbols,
    /// The roles, in declaration order.
    roles: &'a [TermId],
    /// Most atoms derived per evaluation.
    budget: usize,
    /// What stops the planning.
    limits: Limits,
}

impl Planner {
    /// The rules of a query for `targets` (their adornments saying which
    /// arguments the question binds), planned with the sizes the relations
    /// have in `sample`, a state; and the model of `sample` evaluated by
    /// them, within the limits of `planning` (the rewriting for demand, the
    /// planning, the evaluation and the indexes each check them as they
    /// go).
    fn plan(
        &self,
        targets: &[(Pred, Adornment)],
        sample: &Model,
        planning: &mut Planning<'_>,
    ) -> Result<(Query, Model), OutOfLimits> {
        let Planning { store, symbols, roles, limits, .. } = planning;
        let guess = |p: Pred| match p.name {
            kw::DOES => roles.len(),
            _ => sample.relation(p).map_or(GUESS, |r| r.atoms.len()),
        };
        let demand = magic::transform_within(&self.rules, targets, store, symbols, &guess, false, *limits)?;
        let probe = Evaluator::new_within(demand.rules.clone(), store, &guess, *limits)?;
        let (rules, seed) = if self.use_demand && probe.is_stratified(store) {
            (demand.rules, demand.seeds[0])
        } else {
            let preds: Vec<Pred> = targets.iter().map(|t| t.0).collect();
            (Evaluator::new_within(self.rules.clone(), store, &guess, *limits)?.cone(&preds).rules(), None)
        };
        Planner::order(rules, seed, sample, planning)
    }

    /// The query of `rules` (rewritten for demand, seeded by `seed`), its
    /// joins ordered by the sizes the relations have in `sample`; and the
    /// model of `sample` evaluated by them, within the limits of
    /// `planning`.
    fn order(
        rules: Vec<NRule>,
        seed: Option<Pred>,
        sample: &Model,
        planning: &mut Planning<'_>,
    ) -> Result<(Query, Model), OutOfLimits> {
        let Planning { statics, store, roles, budget, limits, .. } = planning;
        let mut model = sample.clone();
        if let (Some(seed), Some(&role)) = (seed, roles.first()) {
            let atom = store.app(seed.name, &[role]);
            model.insert(atom, store);
        }
        let mut room = Prover::limit(*budget).within(*limits);
        Evaluator::run_once(rules.clone(), store, &mut model, &Negation::Exact, &mut room);
        if let Some(why) = room.interruption() {
            return Err(why);
        }
        let size = |p: Pred| if p.name == kw::DOES { roles.len() } else { model.atoms(p).len() };
        let mut evaluator = Evaluator::new_within(rules, store, &size, *limits)?;
        // Stopped midway, `statics` keeps the indexes built (complete, and
        // of use to later plans) and the query is not made.
        evaluator.prepare_within(statics, store, &mut room);
        if let Some(why) = room.interruption() {
            return Err(why);
        }
        // Every model it runs on is cloned from `statics`.
        evaluator.assume_prepared();
        Ok((Query { evaluator, seed }, model))
    }

    /// `queries` with their joins ordered again by the sizes the relations
    /// have in the state of `facts`; the rules (and so how demand is passed
    /// down, which decides what is derived) stay as they were first
    /// rewritten: rewritten on a full grid, sudoku's demand reached its
    /// static `exactlyOne` unbound, 5 s a question. Within the limits of
    /// `planning`: should they stop it, nothing is planned again.
    fn reorder(
        &mut self,
        queries: &Queries,
        facts: &[TermId],
        planning: &mut Planning<'_>,
    ) -> Result<Queries, OutOfLimits> {
        let sample = state_model(planning.statics, facts, planning.store);
        let mut order = |q: &Query| Planner::order(q.evaluator.rules(), q.seed, &sample, planning).map(|q| q.0);
        let queries = Queries {
            init: queries.init.clone(),
            inspect: order(&queries.inspect)?,
            legal: order(&queries.legal)?,
            terminal: order(&queries.terminal)?,
            goal: order(&queries.goal)?,
            next: order(&queries.next)?,
        };
        self.facts = facts.len();
        Ok(queries)
    }

    /// Every query, `init` as given and the others planned on the state of
    /// `facts`, within the limits of `planning`.
    fn plan_all(&mut self, init: Query, facts: &[TermId], planning: &mut Planning<'_>) -> Result<Queries, OutOfLimits> {
        let sample = state_model(planning.statics, facts, planning.store);
        self.facts = facts.len();
        let free = |p: Pred, n: usize| (p, vec![false; n]);
        let legal = Pred::new(kw::LEGAL, 2);
        let goal = Pred::new(kw::GOAL, 2);
        let terminal = Pred::proposition(kw::TERMINAL);
        let mut plan = |targets: &[(Pred, Adornment)]| self.plan(targets, &sample, planning).map(|q| q.0);
        Ok(Queries {
            init,
            inspect: plan(&[free(legal, 2), free(goal, 2), free(terminal, 0)])?,
            legal: plan(&[(legal, vec![true, false])])?,
            terminal: plan(&[free(terminal, 0)])?,
            goal: plan(&[free(goal, 2)])?,
            next: plan(&[free(Pred::new(kw::NEXT, 1), 1)])?,
        })
    }

    /// Whether a state of `facts` facts is large enough, against the one
    /// the queries were planned on, to plan them again.
    fn outgrown_by(&self, facts: usize) -> bool {
        facts >= self.facts.saturating_mul(REPLAN_GROWTH) && facts >= self.facts + REPLAN_MIN_GAIN
    }
}

/// `statics` with the state of `facts` (`(true fact)` for each).
fn state_model(statics: &Model, facts: &[TermId], store: &mut TermStore) -> Model {
    let mut model = statics.clone();
    for &fact in facts {
        let atom = store.app(kw::TRUE, &[fact]);
        model.insert(atom, store);
    }
    model
}

/// What a question asks for.
#[derive(Debug, Clone, Copy)]
enum Ask {
    Init,
    Inspect,
    /// The legal moves of one role.
    Legal(usize),
    Terminal,
    Goal,
    Next,
}

impl Ask {
    /// How many kinds of question there are.
    const KINDS: usize = 6;

    /// The number of this kind of question (the legal moves of every role
    /// are one kind), below [`Ask::KINDS`].
    fn kind(self) -> usize {
        match self {
            Ask::Init => 0,
            Ask::Inspect => 1,
            Ask::Legal(_) => 2,
            Ask::Terminal => 3,
            Ask::Goal => 4,
            Ask::Next => 5,
        }
    }
}

/// The answers to a question asking about `N` relations: found top-down,
/// each relation's atoms; or, where top-down evaluation gave the question
/// up, the model of the question evaluated bottom-up.
enum Answers<const N: usize> {
    /// Each relation asked about, with its atoms found top-down.
    TopDown([(Pred, Vec<TermId>); N]),
    /// The model of the question, evaluated bottom-up.
    BottomUp(Model),
}

impl<const N: usize> Answers<N> {
    /// The atoms of `pred` that answer the question (none if it was not
    /// asked about).
    fn atoms(&self, pred: Pred) -> &[TermId] {
        match self {
            Answers::TopDown(found) => found.iter().find(|(p, _)| *p == pred).map_or(&[], |(_, atoms)| atoms),
            Answers::BottomUp(model) => model.atoms(pred),
        }
    }
}

/// How a question is bounded: the limits it is asked with, and whether an
/// answer the budget of operations cut short is refused
/// ([`OutOfLimits::Operations`]) or given as it is (the questions without
/// limits, as [`Prover::with_budget`] says).
#[derive(Debug, Clone, Copy)]
struct Bounds {
    limits: Limits,
    complete_only: bool,
}

impl Bounds {
    /// The questions without limits: nothing stops them, and an answer the
    /// budget of operations cut short is given as it is.
    const UNLIMITED: Bounds = Bounds { limits: Limits::none(), complete_only: false };

    /// Within `limits`, complete answers only.
    fn complete(limits: Limits) -> Bounds {
        Bounds { limits, complete_only: true }
    }

    /// Within `limits`, an answer the budget of operations cut short taken
    /// as it is.
    fn partial(limits: Limits) -> Bounds {
        Bounds { limits, complete_only: false }
    }

    /// An error if a limit is reached already.
    fn check(&self) -> Result<(), OutOfLimits> {
        check_limits(self.limits)
    }
}

/// The relation `legal` (of a role and a move).
fn legal_pred() -> Pred {
    Pred::new(kw::LEGAL, 2)
}

/// The relation `goal` (of a role and a value).
fn goal_pred() -> Pred {
    Pred::new(kw::GOAL, 2)
}

/// An error if a limit of `limits` is reached already (reads the clock if
/// they have a deadline): the check between the steps of building a prover
/// that are not evaluations.
fn check_limits(limits: Limits) -> Result<(), OutOfLimits> {
    match limits.exceeded() {
        Some(why) => Err(why),
        None => Ok(()),
    }
}

/// The rules of `program`'s state-dependent relations, and its static
/// relations evaluated within `budget` (which has no deadline nor
/// cancellation: see [`split_statics_within`]); the rules of the static
/// relations that do not fit stay with the state-dependent ones, to be
/// evaluated with each query for what it demands.
#[cfg(test)]
pub(crate) fn split_statics(program: &mut Program, budget: Budget) -> (Vec<NRule>, Model) {
    unlimited(split_statics_within(program, budget))
}

/// The rules of `program`'s state-dependent relations, and its static
/// relations evaluated within `budget`; the rules of the static relations
/// that do not fit stay with the state-dependent ones, to be evaluated with
/// each query for what it demands. Stopped by the deadline or the
/// cancellation of `budget` (a static relation they stop is not evaluated
/// lazily instead: nothing is, the answer is the interruption).
pub(crate) fn split_statics_within(
    program: &mut Program,
    mut budget: Budget,
) -> Result<(Vec<NRule>, Model), OutOfLimits> {
    let dynamic = dynamic_preds_within(program, &mut PeriodicCheck::new(budget.limits()))?;
    let (mut rules, static_rules): (Vec<NRule>, Vec<NRule>) =
        program.rules.iter().cloned().partition(|r| dynamic.contains(&r.head.pred(&program.store)));
    let mut statics = Model::default();
    let lazy =
        Evaluator::run_while_within(static_rules, &mut program.store, &mut statics, &Negation::Exact, &mut budget);
    if let Some(why) = budget.interruption() {
        return Err(why);
    }
    rules.extend(lazy);
    Ok((rules, statics))
}

/// Which relations depend on the state (`true`, `does`, and everything derived
/// from them); the others are the same in every state.
#[cfg(test)]
pub(crate) fn dynamic_preds(program: &Program) -> HashSet<Pred> {
    unlimited(dynamic_preds_within(program, &mut PeriodicCheck::new(Limits::none())))
}

/// As [`dynamic_preds`], within the limits of `check`, counted a step per
/// rule looked at: the rules are gone over until nothing more is found to
/// depend on the state, as many times as the longest chain of rules written
/// before the rules they depend on (quadratic in the rules at worst).
pub(crate) fn dynamic_preds_within(program: &Program, check: &mut PeriodicCheck) -> Result<HashSet<Pred>, OutOfLimits> {
    let store = &program.store;
    let mut dynamic: HashSet<Pred> = HashSet::new();
    loop {
        let mut changed = false;
        for rule in &program.rules {
            check.step()?;
            let head = rule.head.pred(store);
            if dynamic.contains(&head) {
                continue;
            }
            let depends = rule.body.iter().any(|l| match l {
                Lit::Pos(p) | Lit::Neg(p) => {
                    let pred = p.pred(store);
                    matches!(pred.name, kw::TRUE | kw::DOES) || dynamic.contains(&pred)
                }
                _ => false,
            });
            if depends {
                dynamic.insert(head);
                changed = true;
            }
        }
        if !changed {
            return Ok(dynamic);
        }
    }
}

/// The size assumed, when planning joins, for a relation the sample state
/// does not have.
const GUESS: usize = 100;

/// The most atoms [`Prover::new`] derives per evaluation.
const DEFAULT_BUDGET: usize = 10_000_000;

/// The share of the budget the static relations may take to be evaluated
/// in full, once ([`Prover::new`]): a relation that does not fit is
/// evaluated with each query, for what the query demands.
const STATIC_SHARE: usize = 10;

impl Prover {
    /// Prepares the reasoner: evaluates once everything that does not depend
    /// on the state.
    pub fn new(game: &Game) -> Prover {
        Prover::with_budget(game, DEFAULT_BUDGET)
    }

    /// As [`Prover::new`], but within `limits`: should their deadline pass
    /// or their cancellation come before the prover is ready, the answer is
    /// [`OutOfLimits`] (and no prover). Every part of the building that
    /// grows with the game checks them: the evaluations of the static
    /// relations and of the sample state, and the indexes built, every
    /// 1,024 rule instances found or atoms tried; the rewriting and planning
    /// of each question (which grow with the rules only) before and after.
    /// A prover built within limits answers as one built without.
    ///
    /// ```
    /// use bouton_ggp::limits::{Limits, OutOfLimits};
    /// use bouton_ggp::{Game, Prover};
    /// use std::time::{Duration, Instant};
    ///
    /// let game = Game::parse("(role you) (init (at 0)) (<= (legal you go) (true (at 0)))
    ///     (<= (next (at 1)) (does you go)) (<= terminal (true (at 1))) (goal you 100)")?;
    /// let past = Limits::none().until(Instant::now() - Duration::from_millis(1));
    /// assert_eq!(Prover::new_within(&game, past).err(), Some(OutOfLimits::Deadline));
    /// let soon = Limits::none().until(Instant::now() + Duration::from_secs(60));
    /// let mut prover = Prover::new_within(&game, soon)?;
    /// let start = prover.initial_state();
    /// assert_eq!(prover.legal_moves(&start, 0), vec!["go".parse()?]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new_within(game: &Game, limits: Limits) -> Result<Prover, OutOfLimits> {
        Prover::build(game, DEFAULT_BUDGET, true, true, limits)
    }

    /// As [`Prover::new`], deriving at most `budget` atoms per evaluation:
    /// invalid games can define infinite relations, which are then cut short
    /// (and the answers are incomplete).
    pub fn with_budget(game: &Game, budget: usize) -> Prover {
        unlimited(Prover::build(game, budget, true, true, Limits::none()))
    }

    /// The prover, evaluating only what each query demands (`use_demand`) or
    /// every rule a query depends on, and asking top-down first
    /// (`use_topdown`), built within `limits`.
    fn build(
        game: &Game,
        budget: usize,
        use_demand: bool,
        use_topdown: bool,
        limits: Limits,
    ) -> Result<Prover, OutOfLimits> {
        let mut program = Program::new_within(game, limits)?;
        // The static relations in full where they fit in a tenth of the
        // budget; the others (sudoku's `exactlyOne` over ten numbers: 9¹⁰
        // candidates; laikLee_hex's `isList`, every list of up to 25 cells)
        // are evaluated with each query, for what it demands — cut short by
        // the budget, they would silently lack atoms.
        let static_budget = Prover::limit(budget / STATIC_SHARE).within(limits);
        let (dynamic_rules, mut statics) = split_statics_within(&mut program, static_budget)?;
        let free = program.symbols.fresh("free");
        let free = program.store.sym(free);
        let topdown = TopDown::new(dynamic_rules.clone(), &statics, &program.store, program.roles.len(), free);
        check_limits(limits)?;
        let mut planner = Planner { rules: dynamic_rules, use_demand, facts: 0 };
        let free = |p: Pred, n: usize| (p, vec![false; n]);
        let init_pred = Pred::new(kw::INIT, 1);
        // `init` is planned on the static relations alone: no state yet.
        let no_state = statics.clone();
        let mut planning = Planning {
            statics: &mut statics,
            store: &mut program.store,
            symbols: &mut program.symbols,
            roles: &program.roles,
            budget,
            limits,
        };
        let (init, start) = planner.plan(&[free(init_pred, 1)], &no_state, &mut planning)?;
        // The sample state: the initial one.
        let facts: Vec<TermId> = start.atoms(init_pred).iter().map(|&atom| planning.store.args(atom)[0]).collect();
        let queries = planner.plan_all(init, &facts, &mut planning)?;
        let mut prover = Prover {
            budget,
            symbols: program.symbols,
            store: program.store,
            roles: program.roles,
            statics,
            queries,
            planner,
            topdown,
            use_topdown,
            given_up: 0,
            given_up_per_kind: [0; Ask::KINDS],
            move_lists: FastMap::default(),
        };
        // The sizes are a heuristic: a sample the budget of operations cut
        // short serves.
        let sample = prover.bottom_up(Ask::Inspect, &facts, &[], Bounds::partial(limits))?;
        prover.topdown.set_sizes(&sample);
        Ok(prover)
    }

    /// The prover asking top-down first (`top_down`) or bottom-up only,
    /// deriving at most `budget` atoms per evaluation.
    #[cfg(test)]
    pub(crate) fn evaluating(game: &Game, budget: usize, top_down: bool) -> Prover {
        unlimited(Prover::build(game, budget, true, top_down, Limits::none()))
    }

    /// How many questions top-down evaluation gave up (each answered
    /// bottom-up instead).
    #[cfg(test)]
    pub(crate) fn given_up(&self) -> usize {
        self.given_up
    }

    /// What one evaluation may do: derive `budget` atoms, and find ten times
    /// as many rule instances.
    fn limit(budget: usize) -> Budget {
        Budget::new(budget, budget.saturating_mul(10))
    }

    /// The roles, in declaration order.
    pub fn roles(&self) -> Vec<Term> {
        self.roles.iter().map(|r| self.store.to_term(*r, &self.symbols)).collect()
    }

    /// Plans the queries (both ways) again on the state of `facts` if it is
    /// large enough against the one they were planned on. Within `limits`:
    /// should they stop the planning, the queries stay as they were, and are
    /// not planned again before a state outgrows this one — else questions
    /// asked with little time each could spend all of it, every time, on a
    /// planning they never finish, and answer nothing.
    fn replan_if_outgrown(&mut self, facts: &[TermId], limits: Limits) {
        if !self.planner.outgrown_by(facts.len()) {
            return;
        }
        let mut planning = Planning {
            statics: &mut self.statics,
            store: &mut self.store,
            symbols: &mut self.symbols,
            roles: &self.roles,
            budget: self.budget,
            limits,
        };
        let reordered = self.planner.reorder(&self.queries, facts, &mut planning);
        let Ok(queries) = reordered else {
            self.planner.facts = facts.len();
            return;
        };
        let before = std::mem::replace(&mut self.queries, queries);
        // The sizes are a heuristic: a sample the budget of operations cut
        // short serves, one the limits stopped is not taken.
        match self.bottom_up(Ask::Inspect, facts, &[], Bounds::partial(limits)) {
            Ok(sample) => self.topdown.set_sizes(&sample),
            Err(_) => self.queries = before,
        }
    }

    /// The answers to the question `key` (an atom, or one with the
    /// evaluator's marker of unbound arguments), of kind `ask`, top-down; `Ok(None)` where
    /// it was given up (or top-down evaluation is off), an error where
    /// `limits` stopped it.
    fn top_down(
        &mut self,
        ask: Ask,
        key: TermId,
        facts: &[TermId],
        joint: &[TermId],
        limits: Limits,
    ) -> Result<Option<Vec<TermId>>, OutOfLimits> {
        if !self.use_topdown || self.given_up_per_kind[ask.kind()] >= GIVE_UPS {
            return Ok(None);
        }
        let limit = Prover::limit(self.budget / TOPDOWN_SHARE).within(limits);
        match self.topdown.ask(key, facts, joint, &mut self.store, &self.statics, limit) {
            Ok(answers) => Ok(Some(answers)),
            // Stopped by the limits, the question was not given up: it is
            // asked top-down again next time.
            Err(Stop::Interrupted(why)) => Err(why),
            Err(Stop::Budget | Stop::Unsupported) => {
                self.given_up += 1;
                self.given_up_per_kind[ask.kind()] += 1;
                Ok(None)
            }
        }
    }

    fn model(&mut self, ask: Ask, facts: &[TermId], joint: &[TermId], bounds: Bounds) -> Result<Model, OutOfLimits> {
        if !matches!(ask, Ask::Init) {
            self.replan_if_outgrown(facts, bounds.limits);
        }
        self.bottom_up(ask, facts, joint, bounds)
    }

    /// The model of the question `ask` evaluated bottom-up within `bounds`.
    fn bottom_up(
        &mut self,
        ask: Ask,
        facts: &[TermId],
        joint: &[TermId],
        bounds: Bounds,
    ) -> Result<Model, OutOfLimits> {
        let mut model = state_model(&self.statics, facts, &mut self.store);
        for (&role, &mv) in self.roles.iter().zip(joint) {
            let atom = self.store.app(kw::DOES, &[role, mv]);
            model.insert(atom, &self.store);
        }
        let q = &self.queries;
        let query = match ask {
            Ask::Init => &q.init,
            Ask::Inspect => &q.inspect,
            Ask::Legal(_) => &q.legal,
            Ask::Terminal => &q.terminal,
            Ask::Goal => &q.goal,
            Ask::Next => &q.next,
        };
        if let (Some(seed), Ask::Legal(role)) = (query.seed, ask) {
            let atom = self.store.app(seed.name, &[self.roles[role]]);
            model.insert(atom, &self.store);
        }
        let mut budget = Prover::limit(self.budget).within(bounds.limits);
        query.evaluator.run_limited(&mut self.store, &mut model, &Negation::Exact, &mut budget);
        if let Some(why) = budget.interruption() {
            return Err(why);
        }
        if bounds.complete_only && budget.is_spent() {
            return Err(OutOfLimits::Operations);
        }
        Ok(model)
    }

    /// The state whose facts are the arguments of the `init` or `next`
    /// atoms `atoms`.
    fn state_of(atoms: &[TermId], store: &TermStore) -> ProverState {
        let mut facts: Vec<TermId> = atoms.iter().map(|&a| store.args(a)[0]).collect();
        facts.sort();
        facts.dedup();
        ProverState { facts }
    }

    /// The answers to the question `ask` in `state` (after the joint move
    /// `joint`, for the next state) within `bounds`: the atoms of the
    /// relations that `keys` makes questions of (each key an atom, or one
    /// with the evaluator's marker of unbound arguments), asked top-down in
    /// order; should top-down evaluation give one up, the question is
    /// answered bottom-up instead. The queries are planned again first if
    /// `state` outgrew the one they were planned on.
    fn ask<const N: usize>(
        &mut self,
        ask: Ask,
        state: &ProverState,
        joint: &[Term],
        bounds: Bounds,
        keys: impl FnOnce(&mut Prover) -> [(Pred, TermId); N],
    ) -> Result<Answers<N>, OutOfLimits> {
        bounds.check()?;
        let joint: Vec<TermId> = joint.iter().map(|t| self.intern(t)).collect();
        self.replan_if_outgrown(&state.facts, bounds.limits);
        let does: Vec<TermId> =
            self.roles.iter().zip(&joint).map(|(&r, &m)| self.store.app(kw::DOES, &[r, m])).collect();
        let keys = keys(self);
        let mut found = keys.map(|(pred, _)| (pred, Vec::new()));
        for (slot, (_, key)) in found.iter_mut().zip(keys) {
            let Some(atoms) = self.top_down(ask, key, &state.facts, &does, bounds.limits)? else {
                return Ok(Answers::BottomUp(self.model(ask, &state.facts, &joint, bounds)?));
            };
            slot.1 = atoms;
        }
        Ok(Answers::TopDown(found))
    }

    /// The initial state (`init` may be derived by rules).
    pub fn initial_state(&mut self) -> ProverState {
        unlimited(self.initial(Bounds::UNLIMITED))
    }

    /// As [`Prover::initial_state`], within `limits` (see
    /// [`Prover::legal_moves_within`]).
    pub fn initial_state_within(&mut self, limits: Limits) -> Result<ProverState, OutOfLimits> {
        self.initial(Bounds::complete(limits))
    }

    /// The initial state, within `bounds` (always found bottom-up).
    fn initial(&mut self, bounds: Bounds) -> Result<ProverState, OutOfLimits> {
        bounds.check()?;
        let model = self.model(Ask::Init, &[], &[], bounds)?;
        Ok(Prover::state_of(model.atoms(Pred::new(kw::INIT, 1)), &self.store))
    }

    /// Legal moves, terminality and goals in `state`.
    pub fn inspect(&mut self, state: &ProverState) -> Inspection {
        unlimited(self.inspection(state, Bounds::UNLIMITED))
    }

    /// As [`Prover::inspect`], within `limits` (see
    /// [`Prover::legal_moves_within`]).
    pub fn inspect_within(&mut self, state: &ProverState, limits: Limits) -> Result<Inspection, OutOfLimits> {
        self.inspection(state, Bounds::complete(limits))
    }

    /// What holds in `state` ([`Prover::inspect`]), within `bounds`.
    fn inspection(&mut self, state: &ProverState, bounds: Bounds) -> Result<Inspection, OutOfLimits> {
        let (legal, terminal, goal) = (legal_pred(), Pred::proposition(kw::TERMINAL), goal_pred());
        let answers = self.ask(Ask::Inspect, state, &[], bounds, |prover| {
            let free = prover.topdown.free();
            [
                (legal, prover.store.app(kw::LEGAL, &[free, free])),
                (terminal, prover.store.sym(kw::TERMINAL)),
                (goal, prover.store.app(kw::GOAL, &[free, free])),
            ]
        })?;
        Ok(Inspection {
            legal: (0..self.roles.len()).map(|r| self.legal_of(answers.atoms(legal), r)).collect(),
            terminal: !answers.atoms(terminal).is_empty(),
            goals: self.goals_of(answers.atoms(goal)),
        })
    }

    /// The legal moves of role number `role` (in declaration order) in
    /// `state`, sorted; only the rules `legal` depends on are evaluated.
    ///
    /// ```
    /// use bouton_ggp::{Game, Prover};
    ///
    /// let game = Game::parse("(role a) (role b) (init (turn a))
    ///     (<= (legal ?r go) (true (turn ?r))) (<= (legal ?r wait) (role ?r) (not (true (turn ?r))))
    ///     (<= (next (turn b)) (true (turn a))) (<= terminal (true (turn b))) (goal a 100) (goal b 0)")?;
    /// let mut prover = Prover::new(&game);
    /// let start = prover.initial_state();
    /// assert_eq!(prover.legal_moves(&start, 0), vec!["go".parse()?]);
    /// assert_eq!(prover.legal_moves(&start, 1), vec!["wait".parse()?]);
    /// assert!(!prover.is_terminal(&start));
    /// assert_eq!(prover.goals(&start), vec![Some(100), Some(0)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn legal_moves(&mut self, state: &ProverState, role: usize) -> Vec<Term> {
        unlimited(self.legal(state, role, Bounds::UNLIMITED))
    }

    /// As [`Prover::legal_moves`], but within `limits`: should their
    /// deadline pass or their cancellation come before the answer is
    /// complete, or the budget of operations run out
    /// ([`Prover::with_budget`]), the answer is [`OutOfLimits`] — never a
    /// partial one. The deadline and the cancellation are checked when the
    /// question is asked, then every 1,024 steps of its evaluation (rule
    /// instances found bottom-up, literals tried top-down: tens of
    /// microseconds apart) and every 1,024 atoms tried in vain, indexed or
    /// inserted (work that finds no instance), and the question stops at
    /// the first check that finds either.
    pub fn legal_moves_within(
        &mut self,
        state: &ProverState,
        role: usize,
        limits: Limits,
    ) -> Result<Vec<Term>, OutOfLimits> {
        self.legal(state, role, Bounds::complete(limits))
    }

    /// The legal moves of role number `role` in `state`, within `bounds`.
    fn legal(&mut self, state: &ProverState, role: usize, bounds: Bounds) -> Result<Vec<Term>, OutOfLimits> {
        let answers = self.ask(Ask::Legal(role), state, &[], bounds, |prover| {
            [(legal_pred(), prover.store.app(kw::LEGAL, &[prover.roles[role], prover.topdown.free()]))]
        })?;
        Ok(self.legal_of(answers.atoms(legal_pred()), role))
    }

    /// Whether `state` is terminal; only the rules `terminal` depends on are
    /// evaluated.
    pub fn is_terminal(&mut self, state: &ProverState) -> bool {
        unlimited(self.terminal(state, Bounds::UNLIMITED))
    }

    /// As [`Prover::is_terminal`], within `limits` (see
    /// [`Prover::legal_moves_within`]).
    pub fn is_terminal_within(&mut self, state: &ProverState, limits: Limits) -> Result<bool, OutOfLimits> {
        self.terminal(state, Bounds::complete(limits))
    }

    /// Whether `state` is terminal, within `bounds`.
    fn terminal(&mut self, state: &ProverState, bounds: Bounds) -> Result<bool, OutOfLimits> {
        let terminal = Pred::proposition(kw::TERMINAL);
        let answers =
            self.ask(Ask::Terminal, state, &[], bounds, |prover| [(terminal, prover.store.sym(kw::TERMINAL))])?;
        Ok(!answers.atoms(terminal).is_empty())
    }

    /// Each role's goal value in `state` (the largest, should several hold);
    /// only the rules `goal` depends on are evaluated.
    pub fn goals(&mut self, state: &ProverState) -> Vec<Option<u8>> {
        unlimited(self.goal_values(state, Bounds::UNLIMITED))
    }

    /// As [`Prover::goals`], within `limits` (see
    /// [`Prover::legal_moves_within`]).
    pub fn goals_within(&mut self, state: &ProverState, limits: Limits) -> Result<Vec<Option<u8>>, OutOfLimits> {
        self.goal_values(state, Bounds::complete(limits))
    }

    /// Each role's goal value in `state`, within `bounds`.
    fn goal_values(&mut self, state: &ProverState, bounds: Bounds) -> Result<Vec<Option<u8>>, OutOfLimits> {
        let answers = self.ask(Ask::Goal, state, &[], bounds, |prover| {
            let free = prover.topdown.free();
            [(goal_pred(), prover.store.app(kw::GOAL, &[free, free]))]
        })?;
        Ok(self.goals_of(answers.atoms(goal_pred())))
    }

    /// The moves of role number `role` among the `legal` atoms `atoms`,
    /// sorted.
    fn legal_of(&mut self, atoms: &[TermId], role: usize) -> Vec<Term> {
        let mut ids: Vec<TermId> = Vec::new();
        for &atom in atoms {
            let [r, mv] = self.store.args(atom) else { continue };
            if *r == self.roles[role] {
                ids.push(*mv);
            }
        }
        ids.sort_unstable();
        if let Some(moves) = self.move_lists.get(&ids) {
            return moves.clone();
        }
        let mut moves: Vec<Term> = ids.iter().map(|&mv| self.store.to_term(mv, &self.symbols)).collect();
        moves.sort();
        if self.move_lists.len() >= MOVE_LISTS {
            self.move_lists.clear();
        }
        self.move_lists.insert(ids, moves.clone());
        moves
    }

    /// Each role's goal value among the `goal` atoms `atoms`.
    fn goals_of(&self, atoms: &[TermId]) -> Vec<Option<u8>> {
        let mut goals = vec![None; self.roles.len()];
        for &atom in atoms {
            let [role, value] = self.store.args(atom) else { continue };
            let Node::Sym(v) = self.store.node(*value) else { continue };
            if let (Some(r), Some(v)) = (self.roles.iter().position(|x| x == role), self.symbols.goal_value(v)) {
                goals[r] = goals[r].max(Some(v));
            }
        }
        goals
    }

    /// The state after every role plays its move in `joint` (roles in
    /// declaration order). Moves are not checked for legality; only the
    /// rules `next` depends on are evaluated.
    pub fn next_state(&mut self, state: &ProverState, joint: &[Term]) -> ProverState {
        unlimited(self.next(state, joint, Bounds::UNLIMITED))
    }

    /// As [`Prover::next_state`], within `limits` (see
    /// [`Prover::legal_moves_within`]).
    pub fn next_state_within(
        &mut self,
        state: &ProverState,
        joint: &[Term],
        limits: Limits,
    ) -> Result<ProverState, OutOfLimits> {
        self.next(state, joint, Bounds::complete(limits))
    }

    /// The state after the joint move `joint` in `state`, within `bounds`.
    fn next(&mut self, state: &ProverState, joint: &[Term], bounds: Bounds) -> Result<ProverState, OutOfLimits> {
        let next = Pred::new(kw::NEXT, 1);
        let answers = self.ask(Ask::Next, state, joint, bounds, |prover| {
            [(next, prover.store.app(kw::NEXT, &[prover.topdown.free()]))]
        })?;
        Ok(Prover::state_of(answers.atoms(next), &self.store))
    }

    /// The facts of `state`, sorted.
    pub fn facts(&self, state: &ProverState) -> Vec<Term> {
        let mut facts: Vec<Term> = state.facts.iter().map(|f| self.store.to_term(*f, &self.symbols)).collect();
        facts.sort();
        facts
    }

    fn intern(&mut self, term: &Term) -> TermId {
        match term {
            Term::Symbol(s) => {
                let sym = self.symbols.intern(s);
                self.store.sym(sym)
            }
            Term::Compound(s, args) => {
                let sym = self.symbols.intern(s);
                let args: Vec<TermId> = args.iter().map(|a| self.intern(a)).collect();
                self.store.app(sym, &args)
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::cancel::Canceller;
    use crate::datalog::CHECK_EVERY;
    use crate::limits::tap;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::path::Path;
    use std::time::{Duration, Instant};

    /// Plays `playouts` random matches of up to `steps` joint moves, asking
    /// the demand-driven prover and one that evaluates every rule the same
    /// questions; `None` if they always agree, else what differed.
    fn disagreement(game: &Game, playouts: usize, steps: usize) -> Option<String> {
        let mut fast = unlimited(Prover::build(game, 10_000_000, true, false, Limits::none()));
        let mut full = unlimited(Prover::build(game, 10_000_000, false, false, Limits::none()));
        disagreement_between(&mut fast, &mut full, playouts, steps, 3)
    }

    /// Plays `playouts` random matches of up to `steps` joint moves (the
    /// random draws seeded with `seed`), asking `tested` the questions the
    /// `oracle` prover answers: in each state, every role's legal moves,
    /// terminality and the goals alone, then all at once; `None` if they
    /// always agree, else what differed.
    pub(crate) fn disagreement_between(
        tested: &mut Prover,
        oracle: &mut Prover,
        playouts: usize,
        steps: usize,
        seed: u64,
    ) -> Option<String> {
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..playouts {
            let (mut a, mut b) = (tested.initial_state(), oracle.initial_state());
            for step in 0..steps {
                if tested.facts(&a) != oracle.facts(&b) {
                    return Some(format!("step {step}: states {:?} vs {:?}", tested.facts(&a), oracle.facts(&b)));
                }
                let y = oracle.inspect(&b);
                for r in 0..y.legal.len() {
                    if tested.legal_moves(&a, r) != y.legal[r] {
                        return Some(format!("step {step}: legal moves of role {r} alone"));
                    }
                }
                if tested.is_terminal(&a) != y.terminal || tested.goals(&a) != y.goals {
                    return Some(format!("step {step}: terminal or goals alone"));
                }
                let x = tested.inspect(&a);
                if x != y {
                    return Some(format!("step {step}: {x:?} vs {y:?}"));
                }
                if y.terminal || y.legal.iter().any(Vec::is_empty) {
                    break;
                }
                let joint: Vec<Term> = y.legal.iter().map(|l| l[rng.random_range(0..l.len())].clone()).collect();
                a = tested.next_state(&a, &joint);
                b = oracle.next_state(&b, &joint);
            }
        }
        None
    }

    /// The game `name` of `../shared/gdl`.
    pub(crate) fn shared_game(name: &str) -> Game {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../../shared/gdl/{name}.kif"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Game::parse(&text).expect("the game parses")
    }

    /// The games of the `.kif` files in `dir` (those that parse), sorted by path.
    pub(crate) fn games_in(dir: &Path) -> Vec<(String, Game)> {
        let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
        let mut games: Vec<(String, Game)> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "kif"))
            .filter_map(|p| {
                let text = std::fs::read_to_string(&p).ok()?;
                Some((p.display().to_string(), Game::parse(&text).ok()?))
            })
            .collect();
        games.sort_by(|a, b| a.0.cmp(&b.0));
        games
    }

    /// A row of twelve cells marked one by one; a line of three marks ends
    /// the game.
    fn row_game() -> Game {
        let mut rules = String::from(
            "(role r)
             (<= (legal r (mark ?c)) (cell ?c) (not (true (m ?c))))
             (<= (next (m ?c)) (does r (mark ?c)))
             (<= (next (m ?c)) (true (m ?c)))
             (<= line (true (m ?a)) (succ ?a ?b) (true (m ?b)) (succ ?b ?c) (true (m ?c)))
             (<= terminal line) (<= (goal r 100) line) (<= (goal r 0) (not line))",
        );
        for c in 1..=12 {
            rules.push_str(&format!(" (cell {c})"));
            if c < 12 {
                rules.push_str(&format!(" (succ {c} {})", c + 1));
            }
        }
        Game::parse(&rules).expect("the row parses")
    }

    /// Planned on an empty row, the queries are planned again once a state
    /// has eight marks, and answer that state, later ones and the empty row
    /// alike.
    #[test]
    fn queries_are_planned_again_for_larger_states() {
        let mut prover = Prover::new(&row_game());
        let empty = prover.initial_state();
        assert_eq!(prover.planner.facts, 0);
        let mut state = empty.clone();
        for (i, c) in [1, 2, 4, 5, 7, 8, 10, 11].into_iter().enumerate() {
            let inspection = prover.inspect(&state);
            assert!(!inspection.terminal, "{i} marks");
            assert_eq!(inspection.legal[0].len(), 12 - i);
            state = prover.next_state(&state, &[format!("(mark {c})").parse().unwrap()]);
        }
        assert!(!prover.is_terminal(&state));
        assert_eq!(prover.planner.facts, 8, "planned again on the state of eight marks");
        assert_eq!(prover.legal_moves(&state, 0).len(), 4);
        let full = prover.next_state(&state, &["(mark 3)".parse().unwrap()]);
        let inspection = prover.inspect(&full);
        assert!(inspection.terminal);
        assert_eq!(inspection.goals, vec![Some(100)]);
        assert_eq!(prover.planner.facts, 8, "nine marks are not twice eight");
        let inspection = prover.inspect(&empty);
        assert!(!inspection.terminal);
        assert_eq!(inspection.legal[0].len(), 12);
        assert_eq!(inspection.goals, vec![Some(0)]);
    }

    #[test]
    fn demand_changes_no_answer() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut games = games_in(&root.join("games"));
        games.extend(games_in(&root.join("../../../shared/gdl")));
        games.extend(games_in(&root.join("../../../shared/gdl/testcases")));
        assert!(!games.is_empty());
        for (name, game) in games {
            assert_eq!(disagreement(&game, 3, 30), None, "{name}");
        }
        // Larger games, shorter: evaluating every rule of checkers takes a
        // while (and of chess, far too long; sudoku's static `exactlyOne`,
        // 9¹⁰ candidates, can only be evaluated for what is demanded).
        for (name, game) in games_in(&root.join("tests/games")) {
            if !name.ends_with("chess.kif") && !name.ends_with("sudoku.kif") {
                assert_eq!(disagreement(&game, 1, 8), None, "{name}");
            }
        }
    }

    /// A game whose second state has questions that take hours: in state
    /// `b`, `stay` is legal and the goal is 100 if a cycle of six steps
    /// goes through some vertex of the complete graph on `k` vertices (with
    /// loops) — every one of the k⁶ walks is tried (7·10⁸ for 30, 47,000
    /// for 6), in constant memory. In the initial state `a` (only `go`
    /// legal, goal 0) nothing is expensive.
    pub(crate) fn expensive_game(k: usize) -> Game {
        Game::parse(&expensive_rules(k, "a")).expect("the expensive game parses")
    }

    /// The rules of [`expensive_game`], starting in state `init`.
    fn expensive_rules(k: usize, init: &str) -> String {
        let mut rules = format!(
            "(role r) (init {init})
             (<= (legal r go) (true a))
             (<= (legal r stay) (true b) (cycle ?x))
             (<= (next b) (true a)) (<= (next b) (true b))
             (<= (cycle ?a) (true b) (e ?a ?b) (e ?b ?c) (e ?c ?d) (e ?d ?f) (e ?f ?g) (e ?g ?a))
             (<= terminal (true c))
             (<= (goal r 100) (cycle ?x)) (<= (goal r 0) (true a))",
        );
        for i in 0..k {
            for j in 0..k {
                rules.push_str(&format!(" (e {i} {j})"));
            }
        }
        rules
    }

    /// The expensive state of [`expensive_game`], and its move.
    pub(crate) fn expensive_state(prover: &mut Prover) -> ProverState {
        let start = prover.initial_state();
        prover.next_state(&start, &["go".parse().expect("a move")])
    }

    /// A cancellation already raised.
    fn raised() -> (Canceller, Limits) {
        let canceller = Canceller::new();
        canceller.cancel();
        let limits = Limits::none().cancelled_by(canceller.handle());
        (canceller, limits)
    }

    #[test]
    fn a_question_past_its_deadline_is_not_answered() {
        let game = expensive_game(3);
        for top_down in [true, false] {
            let mut prover = Prover::evaluating(&game, 10_000_000, top_down);
            let start = prover.initial_state();
            let past = Limits::none().until(Instant::now() - Duration::from_millis(1));
            let go: Term = "go".parse().unwrap();
            assert_eq!(prover.initial_state_within(past), Err(OutOfLimits::Deadline));
            assert_eq!(prover.legal_moves_within(&start, 0, past), Err(OutOfLimits::Deadline));
            assert_eq!(prover.is_terminal_within(&start, past), Err(OutOfLimits::Deadline));
            assert_eq!(prover.goals_within(&start, past), Err(OutOfLimits::Deadline));
            assert_eq!(prover.inspect_within(&start, past), Err(OutOfLimits::Deadline));
            assert_eq!(prover.next_state_within(&start, std::slice::from_ref(&go), past), Err(OutOfLimits::Deadline));
            // The questions refused leave nothing behind: the same questions
            // without limits answer as ever.
            assert_eq!(prover.legal_moves(&start, 0), vec![go.clone()]);
            let next = prover.next_state(&start, &[go]);
            assert_eq!(prover.goals(&next), vec![Some(100)]);
            assert_eq!(prover.given_up(), 0, "a question stopped by its limits is not given up");
        }
    }

    /// Every question of the expensive state, asked bottom-up and top-down:
    /// with 6 vertices they answer without limits, and a cancellation
    /// raised before stops them; with 30 (hours of work) a cancellation
    /// raised by another thread while they run, or a deadline a few
    /// milliseconds ahead, stops them — the outcome is the limits' error,
    /// whenever the cancellation or the deadline comes.
    #[test]
    fn a_cancellation_or_a_deadline_stops_a_long_question() {
        for top_down in [true, false] {
            let mut small = Prover::evaluating(&expensive_game(6), 10_000_000, top_down);
            let state = expensive_state(&mut small);
            let (_canceller, cancelled) = raised();
            assert_eq!(small.goals_within(&state, cancelled), Err(OutOfLimits::Cancelled));
            assert_eq!(small.legal_moves_within(&state, 0, cancelled), Err(OutOfLimits::Cancelled));
            assert_eq!(small.goals(&state), vec![Some(100)]);
            assert_eq!(small.legal_moves(&state, 0), vec!["stay".parse::<Term>().unwrap()]);

            // A budget no question here can spend: only the limits stop it.
            let mut large = Prover::evaluating(&expensive_game(30), usize::MAX / 64, top_down);
            let state = expensive_state(&mut large);
            for question in 0..2 {
                let (limits, cancelling) = cancelled_in_20_ms();
                let answer = if question == 0 {
                    large.goals_within(&state, limits).map(|_| ())
                } else {
                    large.legal_moves_within(&state, 0, limits).map(|_| ())
                };
                assert_eq!(answer, Err(OutOfLimits::Cancelled), "top-down {top_down}, question {question}");
                cancelling.join().unwrap();
            }
            let soon = Limits::none().until(Instant::now() + Duration::from_millis(20));
            assert_eq!(large.goals_within(&state, soon), Err(OutOfLimits::Deadline));
            assert_eq!(large.given_up(), 0);
            // The questions stopped midway leave nothing behind: questions
            // the state answers cheaply are answered, and right.
            let generous = Limits::none().until(Instant::now() + Duration::from_secs(3600));
            assert_eq!(large.is_terminal_within(&state, generous), Ok(false));
            let start = large.initial_state();
            let seen = large.inspect_within(&start, generous).expect("the initial state is cheap");
            assert_eq!(
                (seen.legal, seen.terminal, seen.goals),
                (vec![vec!["go".parse().unwrap()]], false, vec![Some(0)])
            );
        }
    }

    /// A planning for a larger state that the limits stop is given up
    /// until a state outgrows that one (not tried again by every question,
    /// each time in vain); the queries stay as they were, and answer.
    #[test]
    fn a_planning_the_limits_stop_is_given_up() {
        let mut prover = Prover::new(&row_game());
        let mut state = prover.initial_state();
        for c in [1, 2, 4, 5, 7, 8, 10, 11] {
            state = prover.next_state(&state, &[format!("(mark {c})").parse().unwrap()]);
        }
        assert_eq!(prover.planner.facts, 0, "not planned again yet");
        let (_canceller, cancelled) = raised();
        prover.replan_if_outgrown(&state.facts, cancelled);
        assert_eq!(prover.planner.facts, 8, "given up for states of eight marks");
        let inspection = prover.inspect(&state);
        assert_eq!((inspection.terminal, inspection.legal[0].len()), (false, 4));
        let full = prover.next_state(&state, &["(mark 3)".parse().unwrap()]);
        assert_eq!(prover.goals_within(&full, Limits::none()), Ok(vec![Some(100)]));
    }

    /// A game whose static relations take hours to evaluate: `cycle` (as
    /// in [`expensive_game`], k⁶ walks, but depending on no state) is
    /// evaluated once, while the prover is built; the state asks about it
    /// (`stay` is legal if some cycle exists).
    pub(crate) fn expensive_statics_game(k: usize) -> Game {
        let mut rules = String::from(
            "(role r) (init a)
             (<= (legal r go) (true a))
             (<= (legal r stay) (true a) (cycle ?x))
             (<= (next b) (true a))
             (<= (cycle ?a) (e ?a ?b) (e ?b ?c) (e ?c ?d) (e ?d ?f) (e ?f ?g) (e ?g ?a))
             (<= terminal (true b))
             (goal r 100)",
        );
        for i in 0..k {
            for j in 0..k {
                rules.push_str(&format!(" (e {i} {j})"));
            }
        }
        Game::parse(&rules).expect("the game of expensive statics parses")
    }

    /// [`expensive_game`] starting in its expensive state: planning the
    /// questions on the initial state (while the prover is built)
    /// evaluates every cycle.
    fn expensive_start_game(k: usize) -> Game {
        Game::parse(&expensive_rules(k, "b")).expect("the expensive start parses")
    }

    #[test]
    fn a_build_refused_at_once_when_cancelled_or_late() {
        let (_canceller, cancelled) = raised();
        let past = Limits::none().until(Instant::now() - Duration::from_millis(1));
        for game in [row_game(), expensive_statics_game(3)] {
            assert_eq!(Prover::new_within(&game, cancelled).err(), Some(OutOfLimits::Cancelled));
            assert_eq!(Prover::new_within(&game, past).err(), Some(OutOfLimits::Deadline));
            // Cancellation comes first, as for a question.
            let both = past.cancelled_by(cancelled.cancel().expect("a cancellation"));
            assert_eq!(Prover::new_within(&game, both).err(), Some(OutOfLimits::Cancelled));
        }
    }

    /// A build whose normalising alone takes seconds (each of 100 rules
    /// has twelve `or`s of two literals: 4,096 bodies) stops there, at a
    /// cancellation raised by another thread after 20 ms.
    #[test]
    fn a_cancellation_stops_a_build_in_the_normaliser() {
        let alternatives: String = (0..12).map(|i| format!("(or (a{i} ?x) (b{i} ?x)) ")).collect();
        let rules: String = (0..100).map(|r| format!("(<= (p{r} ?x) (q ?x) {alternatives}) ")).collect();
        let game = Game::parse(&format!("(role r) (init s) (legal r go) (<= terminal (p0 1)) (goal r 0) {rules}"))
            .expect("the game of many alternatives parses");
        let (limits, cancelling) = cancelled_in_20_ms();
        assert_eq!(Prover::new_within(&game, limits).err(), Some(OutOfLimits::Cancelled));
        cancelling.join().expect("the cancelling thread");
    }

    /// Limits that another thread cancels 20 ms from now, and that thread.
    fn cancelled_in_20_ms() -> (Limits, std::thread::JoinHandle<()>) {
        let canceller = Canceller::new();
        let limits = Limits::none().cancelled_by(canceller.handle());
        let cancelling = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            canceller.cancel();
        });
        (limits, cancelling)
    }

    /// Builds whose work is hours long (the static relations; the planning
    /// on the initial state), with a budget they cannot spend: a
    /// cancellation raised by another thread while they run, or a deadline
    /// a few milliseconds ahead, stops them — whenever it comes, the
    /// outcome is the limits' error, and no prover. With six vertices the
    /// same games build, and answer as they should.
    #[test]
    fn a_cancellation_or_a_deadline_stops_a_long_build() {
        let games = [expensive_statics_game(30), expensive_start_game(30)];
        for (g, game) in games.iter().enumerate() {
            let (limits, cancelling) = cancelled_in_20_ms();
            let built = Prover::build(game, usize::MAX / 64, true, true, limits);
            assert_eq!(built.err(), Some(OutOfLimits::Cancelled), "game {g}");
            cancelling.join().unwrap();
            let soon = Limits::none().until(Instant::now() + Duration::from_millis(20));
            let built = Prover::build(game, usize::MAX / 64, true, true, soon);
            assert_eq!(built.err(), Some(OutOfLimits::Deadline), "game {g}");
        }
        let generous = Limits::none().until(Instant::now() + Duration::from_secs(3600));
        let stay: Term = "stay".parse().unwrap();
        let mut statics = Prover::new_within(&expensive_statics_game(6), generous).expect("six vertices build");
        let start = statics.initial_state();
        assert_eq!(statics.legal_moves(&start, 0), vec!["go".parse::<Term>().unwrap(), stay.clone()]);
        let mut start_game = Prover::new_within(&expensive_start_game(6), generous).expect("six vertices build");
        let start = start_game.initial_state();
        assert_eq!(start_game.legal_moves(&start, 0), vec![stay]);
        assert_eq!(start_game.goals(&start), vec![Some(100)]);
    }

    /// A prover built within generous limits (a deadline an hour ahead, a
    /// cancellation never raised) answers as one built without, along
    /// random playouts: the legal moves, terminality and goals of each
    /// state, and the next state.
    #[test]
    fn a_prover_built_within_generous_limits_answers_as_one_built_without() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut games = games_in(&root.join("../../../shared/gdl"));
        assert!(games.len() >= 2);
        games.push(("expensive statics".into(), expensive_statics_game(6)));
        games.push(("row".into(), row_game()));
        for (name, game) in games_in(&root.join("tests/games")) {
            if name.ends_with("checkers.kif") || name.ends_with("pawnToQueen.kif") {
                games.push((name, game));
            }
        }
        let canceller = Canceller::new();
        let generous =
            Limits::none().until(Instant::now() + Duration::from_secs(3600)).cancelled_by(canceller.handle());
        let mut rng = SmallRng::seed_from_u64(9);
        for (name, game) in games {
            let mut free = Prover::new(&game);
            let mut bound = Prover::new_within(&game, generous).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(free.roles(), bound.roles(), "{name}");
            for playout in 0..2 {
                let mut a = free.initial_state();
                let mut b = bound.initial_state();
                for step in 0..12 {
                    let at = format!("{name}, playout {playout}, step {step}");
                    assert_eq!(free.facts(&a), bound.facts(&b), "{at}");
                    let seen = free.inspect(&a);
                    assert_eq!(bound.inspect(&b), seen, "{at}");
                    if seen.terminal || seen.legal.iter().any(Vec::is_empty) {
                        break;
                    }
                    let joint: Vec<Term> = seen.legal.iter().map(|l| l[rng.random_range(0..l.len())].clone()).collect();
                    a = free.next_state(&a, &joint);
                    b = bound.next_state(&b, &joint);
                }
            }
        }
    }

    /// The budget of operations is a limit too: a question it cuts short
    /// is refused within limits (answered cut short without).
    #[test]
    fn a_question_out_of_operations_is_refused_within_limits() {
        let game = expensive_game(6);
        let mut prover = Prover::evaluating(&game, 200, false);
        let state = expensive_state(&mut prover);
        let generous = Limits::none().until(Instant::now() + Duration::from_secs(3600));
        assert_eq!(prover.goals_within(&state, generous), Err(OutOfLimits::Operations));
    }

    /// The prover asked with generous limits (a deadline an hour ahead, a
    /// cancellation never raised) answers as the prover asked without,
    /// along random playouts: every question, both ways of evaluating.
    #[test]
    fn generous_limits_change_no_answer() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let games = games_in(&root.join("../../../shared/gdl"));
        assert!(games.len() >= 2);
        let canceller = Canceller::new();
        let generous =
            Limits::none().until(Instant::now() + Duration::from_secs(3600)).cancelled_by(canceller.handle());
        let mut rng = SmallRng::seed_from_u64(5);
        for (name, game) in games {
            for top_down in [true, false] {
                let mut free = Prover::evaluating(&game, 10_000_000, top_down);
                let mut bound = Prover::evaluating(&game, 10_000_000, top_down);
                for _ in 0..2 {
                    let mut a = free.initial_state();
                    let mut b = bound.initial_state_within(generous).unwrap();
                    for step in 0..40 {
                        let at = format!("{name}, top-down {top_down}, step {step}");
                        assert_eq!(free.facts(&a), bound.facts(&b), "{at}");
                        let seen = free.inspect(&a);
                        assert_eq!(bound.inspect_within(&b, generous).as_ref(), Ok(&seen), "{at}");
                        for (r, legal) in seen.legal.iter().enumerate() {
                            assert_eq!(bound.legal_moves_within(&b, r, generous).as_ref(), Ok(legal), "{at}");
                        }
                        assert_eq!(bound.is_terminal_within(&b, generous), Ok(seen.terminal), "{at}");
                        assert_eq!(bound.goals_within(&b, generous).as_ref(), Ok(&seen.goals), "{at}");
                        if seen.terminal || seen.legal.iter().any(Vec::is_empty) {
                            break;
                        }
                        let joint: Vec<Term> =
                            seen.legal.iter().map(|l| l[rng.random_range(0..l.len())].clone()).collect();
                        a = free.next_state(&a, &joint);
                        b = bound.next_state_within(&b, &joint, generous).unwrap();
                    }
                }
            }
        }
    }

    /// The names of the relations `program` says depend on the state, within
    /// `stop`.
    fn dynamic_names(program: &Program, stop: Limits) -> Result<HashSet<String>, OutOfLimits> {
        let dynamic = dynamic_preds_within(program, &mut PeriodicCheck::new(stop))?;
        Ok(dynamic.iter().map(|p| program.symbols.name(p.name).to_string()).collect())
    }

    /// A chain of 300 relations each written before the one it is derived
    /// from, the last from the state (one more is found in each pass over
    /// the rules), beside a chain of static ones: within limits never
    /// reached, the relations found to depend on the state are the state's
    /// chain; cancelled from another thread at a dozen of its checks (the
    /// first, the last, and between), finding them stops at that very check
    /// with [`OutOfLimits::Cancelled`]. Chess likewise, against the search
    /// without limits.
    #[test]
    fn finding_the_dynamic_relations_stops_at_each_of_its_checks() {
        let length = 300;
        let chain = |name: &str, last: &str| -> String {
            let links: String = (0..length - 1).map(|i| format!("(<= ({name}{i}) ({name}{}))\n", i + 1)).collect();
            format!("{links}(<= ({name}{}) {last})\n", length - 1)
        };
        let text = format!("{}{}(base 0)", chain("state", "(true (cell 0))"), chain("fixed", "(base 0)"));
        let program = Program::new(&Game::parse(&text).unwrap());
        let (names, reads) = tap::assert_stops_at_each_check("the chain", 50, 12, |stop| dynamic_names(&program, stop));
        let expected: HashSet<String> = (0..length).map(|i| format!("state{i}")).collect();
        assert_eq!(names, expected);
        assert!(reads >= length * length / CHECK_EVERY, "a pass over the rules for each link: {reads} reads");
        let chess = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/chess.kif");
        let program = Program::new(&Game::parse(&std::fs::read_to_string(chess).unwrap()).unwrap());
        let (names, _) = tap::assert_stops_at_each_check("chess", 1, 12, |stop| dynamic_names(&program, stop));
        assert!(names.contains("legal") && names.contains("next") && !names.contains("role"), "{names:?}");
    }
}
