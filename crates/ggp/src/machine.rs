//! The compiled state machine: a game's rules grounded and compiled to bit
//! operations (see [`crate::circuit`]), with the usual GGP interface —
//! initial state, legal moves, next state, terminality, goals.

use std::sync::Arc;
use std::time::Instant;

use rand::Rng;

use crate::asks;
use crate::circuit::{self, Circuit, MoveInfo};
use crate::compile_error::CompileError;
use crate::datalog::PeriodicCheck;
use crate::drawn::DrawnMoves;
use crate::game::Game;
use crate::ground::{self, Grounding, Kind, Limits, Networks};
use crate::hash::FastMap;
use crate::hybrid::{self, Oracle};
use crate::limits::OutOfLimits;
use crate::pace;
use crate::reasoner::Chooser;
use crate::specialize::{Spec, Specializer};
use crate::store::TermId;
use crate::term::Term;
use drawing::Drawing;

mod drawing;

/// A game state of a [`Machine`]: one bit per base proposition.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State(pub(crate) Box<[u64]>);

/// Figures about a compiled game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// Ground rules before simplification.
    pub ground_rules: usize,
    /// Base propositions (bits of a state).
    pub base_propositions: usize,
    /// Clauses (word tests) in the three compiled programs together.
    pub clauses: usize,
    /// Nodes (derived propositions) computed in every state: legal moves,
    /// terminality and what they depend on.
    pub state_nodes: usize,
    /// Nodes of the next-state program.
    pub next_nodes: usize,
    /// Recursive groups computed to a fixpoint.
    pub fixpoint_groups: usize,
    /// Milliseconds spent compiling.
    pub compile_ms: u64,
    /// Atoms answered per state by the oracle of a hybrid network (see
    /// [`Machine::compile`]); 0 for a fully grounded game.
    pub oracle_inputs: usize,
}

struct Inner {
    roles: Vec<Term>,
    moves: Vec<Vec<Term>>,
    infos: Vec<Vec<MoveInfo>>,
    lookup: Vec<MoveIndex>,
    base: Vec<Term>,
    circuit: Circuit,
    max_goal: Vec<u8>,
    stats: Stats,
    /// For a hybrid network, what answers its input atoms.
    oracle: Option<Oracle>,
    /// For a hybrid network whose rules allow it, how random playouts draw
    /// their moves before the oracle answers for them.
    drawn: Option<DrawnMoves>,
}

/// Finds a role's move by its term without a copy of every term: the move
/// numbers sorted by the terms' hashes (amazonsTorus has 129,600 moves per
/// role, each term a dozen allocations to copy and to free).
struct MoveIndex(Vec<(u64, u32)>);

impl MoveIndex {
    /// The index of `moves`, a step of `check` per move.
    ///
    /// # Errors
    ///
    /// Why `check`'s limits stopped it, if they did.
    fn new(moves: &[Term], check: &mut PeriodicCheck) -> Result<MoveIndex, OutOfLimits> {
        let mut by_hash: Vec<(u64, u32)> = Vec::with_capacity(moves.len());
        for (i, t) in moves.iter().enumerate() {
            check.step()?;
            by_hash.push((term_hash(t), i as u32));
        }
        by_hash.sort_unstable();
        Ok(MoveIndex(by_hash))
    }

    /// The number of `mv` among `moves` (those this index was built from).
    fn find(&self, moves: &[Term], mv: &Term) -> Option<u32> {
        let hash = term_hash(mv);
        let from = self.0.partition_point(|&(h, _)| h < hash);
        self.0[from..].iter().take_while(|&&(h, _)| h == hash).map(|&(_, i)| i).find(|&i| moves[i as usize] == *mv)
    }
}

/// `term`'s hash as [`Term`]'s `Hash` gives it (letter case ignored), with a
/// fixed hasher.
fn term_hash(term: &Term) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    term.hash(&mut h);
    h.finish()
}

/// A game compiled for fast reasoning. Cheap to clone (shared).
///
/// Moves are numbered per role; [`Machine::moves`] lists them and
/// [`Machine::move_index`] finds one. For speed in loops use an
/// [`Evaluator`], which keeps its working memory between calls; the methods
/// here create one each time.
///
/// ```
/// use bouton_ggp::{Game, Machine};
///
/// let game = Game::parse("(role robot) (base p) (base q) (input robot a) (init p) (legal robot a)
///     (<= (next q) (true p)) (<= terminal (true q)) (goal robot 100)")?;
/// let machine = Machine::compile(&game)?;
/// let start = machine.initial_state();
/// assert_eq!(machine.legal_moves(&start, 0), vec![0]);
/// assert_eq!(machine.moves(0)[0].to_string(), "a");
/// let end = machine.next_state(&start, &[0]);
/// assert!(machine.is_terminal(&end));
/// assert_eq!(machine.goals(&end), vec![Some(100)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Machine(Arc<Inner>);

impl std::fmt::Debug for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Machine").field("roles", &self.0.roles).field("stats", &self.0.stats).finish()
    }
}

/// The default bound on grounding: atoms in the over-approximation, and
/// ground rules (and four times as many rule instances found while
/// over-approximating).
pub const DEFAULT_GROUNDING_LIMIT: usize = 4_000_000;

/// Most transitions a hybrid network and the prover are timed over when
/// [`Machine::compile`] chooses between them ([`pace::race`]).
const RACE_STEPS: usize = 12;

/// Most wall time that race may take.
const RACE_BUDGET: std::time::Duration = std::time::Duration::from_secs(2);

/// Why a hybrid network is refused when its oracle runs out of budget in the
/// initial state.
const ORACLE_TOO_LARGE: &str = "the oracle's evaluations in the initial state";

/// Why a hybrid network is passed over when the prover clearly outpaces it.
const SLOWER_THAN_PROVER: &str = "the hybrid network's evaluations (slower than the prover's)";

impl Machine {
    /// Grounds and compiles `game`.
    ///
    /// The network is fully compiled whenever it can be. A game whose
    /// grounding runs out while estimating what can ever hold, and fits when
    /// the relations that only terminality and goals read are left out, is
    /// compiled with those relations answered per state by an oracle
    /// ([`Machine::is_hybrid`]; sudoku's test of the solved grid); legal
    /// moves and next states are then still fully compiled. A game whose
    /// plain grounding runs out estimating what can ever hold twice (with
    /// merged demand in half the budget, then with demand as asked in a
    /// quarter) gets the hybrid network of [`Machine::compile_hybrid`]
    /// (chess: its threat tests answered per state) if, timed against the
    /// [`Prover`](crate::Prover) over the same random transitions from the
    /// initial state, its median transition takes less than four thirds of
    /// the prover's (it keeps pace; chess's is 10–20% faster); otherwise the plain
    /// grounding has the whole budget. The attempts are described under
    /// "Which network `Machine::compile` builds" in the crate's README.
    ///
    /// # Errors
    ///
    /// [`CompileError::NoRoles`], or [`CompileError::TooLarge`] when grounding
    /// exceeds its limits (the [`Prover`](crate::Prover) can still reason
    /// about such a game, more slowly).
    pub fn compile(game: &Game) -> Result<Machine, CompileError> {
        Machine::compile_within(game, DEFAULT_GROUNDING_LIMIT)
    }

    /// As [`Machine::compile`], with at most `limit` atoms, `limit` ground
    /// rules and four times `limit` rule instances found during grounding
    /// (invalid games can define infinite relations; huge games take long to
    /// ground).
    ///
    /// ```
    /// use bouton_ggp::{CompileError, Game, Machine};
    ///
    /// // Counting forever: (c 0), (c (s 0)), (c (s (s 0))), …
    /// let game = Game::parse("(role r) (init (c 0)) (<= (next (c (s ?x))) (true (c ?x)))
    ///     (legal r go) (<= terminal (true (c done))) (goal r 0)")?;
    /// assert!(matches!(Machine::compile_within(&game, 1000), Err(CompileError::TooLarge(_))));
    /// # Ok::<(), bouton_ggp::GameError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Machine::compile`].
    pub fn compile_within(game: &Game, limit: usize) -> Result<Machine, CompileError> {
        Machine::compile_with(game, Limits::new(limit))
    }

    /// As [`Machine::compile`], stopped at the deadline or the cancellation
    /// of `stop`: the player's compilation ends with its match.
    ///
    /// ```
    /// use bouton_ggp::cancel::Canceller;
    /// use bouton_ggp::limits::{Limits, OutOfLimits};
    /// use bouton_ggp::{CompileError, Game, Machine};
    ///
    /// let game = Game::parse("(role you) (init (at 0)) (<= (legal you go) (true (at 0)))
    ///     (<= (next (at 1)) (does you go)) (<= terminal (true (at 1))) (goal you 100)")?;
    /// assert!(Machine::compile_limited(&game, Limits::none()).is_ok());
    /// let canceller = Canceller::new();
    /// canceller.cancel();
    /// let stopped = Machine::compile_limited(&game, Limits::none().cancelled_by(canceller.handle()));
    /// assert!(matches!(stopped, Err(CompileError::OutOfLimits(OutOfLimits::Cancelled))));
    /// # Ok::<(), bouton_ggp::GameError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Machine::compile`], and [`CompileError::OutOfLimits`] once
    /// `stop` is reached (no other network is tried after it).
    pub fn compile_limited(game: &Game, stop: crate::limits::Limits) -> Result<Machine, CompileError> {
        Machine::compile_with(game, Limits::new(DEFAULT_GROUNDING_LIMIT).within(stop))
    }

    /// [`Machine::compile`] within the grounding `limits` (their stop
    /// checked between the phases grounding does not check itself).
    fn compile_with(game: &Game, limits: Limits) -> Result<Machine, CompileError> {
        let started = Instant::now();
        ground::ground_first(game, limits, Networks::Any, &mut |g, kind| {
            // A network with an oracle that cannot answer the initial state
            // is passed over (assemble refuses it), and a hybrid network
            // that the prover clearly outpaces too: the prover would reason
            // about the game faster. A stop ends every attempt (assembly and
            // the race check it as they go).
            let machine = Machine::assemble(g, started, limits.stop)?;
            if kind == Kind::Hybrid {
                let pace = pace::race(&machine, game, RACE_STEPS, RACE_BUDGET, limits.stop)?;
                if std::env::var_os("BOUTON_GGP_DEBUG").is_some() {
                    eprintln!("race: {pace:?}");
                }
                limits.stopped()?;
                if !pace.machine_keeps_pace() {
                    return Err(CompileError::TooLarge(SLOWER_THAN_PROVER));
                }
            }
            Ok(machine)
        })
    }

    /// As [`Machine::compile`], but a game whose relations are too large to
    /// ground (chess's threats "once the piece on that square has moved",
    /// over every pair of squares) becomes a hybrid network: those relations
    /// are evaluated per state, for what the network asks in that state, by
    /// a demand-driven evaluator of the same rules, and enter the network as
    /// input bits ([`Stats::oracle_inputs`]). Each state then costs an
    /// evaluation of those relations, so a hybrid machine is far slower than
    /// a fully compiled one; [`Machine::compile`] (the player, the referee)
    /// builds it only for games it cannot ground otherwise, and only where
    /// it keeps pace with the [`Prover`](crate::Prover). Where no such relation can be told apart,
    /// what only terminality and goals read (sudoku's check of the solved
    /// grid) is left to the oracle instead, the goals' part evaluated only
    /// when goals are asked, as [`Machine::compile`] does.
    ///
    /// # Errors
    ///
    /// As [`Machine::compile`]; also [`CompileError::TooLarge`] when the
    /// oracle cannot answer the initial state within its budget.
    pub fn compile_hybrid(game: &Game) -> Result<Machine, CompileError> {
        let started = Instant::now();
        let limits = Limits::new(DEFAULT_GROUNDING_LIMIT);
        Machine::assemble(ground::ground(game, limits, Networks::Hybrid)?, started, limits.stop)
    }

    /// Whether some atoms of this machine are answered per state by an
    /// oracle (see [`Machine::compile_hybrid`]).
    pub fn is_hybrid(&self) -> bool {
        self.0.oracle.is_some()
    }

    /// The machine of the grounding `g`, begun at `started`, stopped by the
    /// deadline or the cancellation of `stop`: every step checks them as it
    /// goes (the asks, the circuit, the terms of the moves and the base
    /// propositions, the oracle and its probe of the initial state).
    ///
    /// # Errors
    ///
    /// [`CompileError::TooLarge`] when `g` has an oracle that cannot answer
    /// the initial state within its budget; [`CompileError::OutOfLimits`]
    /// once `stop` is reached (never a machine built in part).
    fn assemble(mut g: Grounding, started: Instant, stop: crate::limits::Limits) -> Result<Machine, CompileError> {
        stop.check()?;
        if !g.externals.is_empty() {
            let asked = hybrid::state_only_externals(&g);
            asks::add_asks_within(&mut g, &asked, stop)?;
        }
        let mut circuit = circuit::compile_within(&g, stop)?;
        let check = &mut PeriodicCheck::new(stop);
        let roles: Vec<Term> = g.roles.iter().map(|&r| g.store.to_term(r, &g.symbols)).collect();
        let mut moves: Vec<Vec<Term>> = Vec::new();
        let mut infos = Vec::new();
        for list in std::mem::take(&mut circuit.moves) {
            let mut terms = Vec::with_capacity(list.len());
            for m in &list {
                check.step()?;
                terms.push(g.store.to_term(m.term, &g.symbols));
            }
            moves.push(terms);
            infos.push(list);
        }
        let lookup = moves.iter().map(|list| MoveIndex::new(list, check)).collect::<Result<_, _>>()?;
        let mut base = Vec::with_capacity(circuit.base.len());
        for &b in &circuit.base {
            check.step()?;
            base.push(g.store.to_term(b, &g.symbols));
        }
        let max_goal = circuit.goals.iter().map(|list| list.iter().map(|&(_, v)| v).max().unwrap_or(0)).collect();
        let stats = Stats {
            ground_rules: g.rules.len(),
            base_propositions: circuit.base.len(),
            clauses: circuit.legal.size() + circuit.goal.size() + circuit.next.size(),
            state_nodes: circuit.legal.nodes.len(),
            next_nodes: circuit.next.nodes.len(),
            fixpoint_groups: [&circuit.legal, &circuit.goal, &circuit.next]
                .iter()
                .map(|c| c.steps.iter().filter(|s| matches!(s, crate::code::Step::Fixpoint { .. })).count())
                .sum(),
            compile_ms: 0,
            oracle_inputs: circuit.inputs.len(),
        };
        let oracle = if g.externals.is_empty() {
            None
        } else {
            let move_terms: Vec<Vec<TermId>> =
                infos.iter().map(|list: &Vec<MoveInfo>| list.iter().map(|i| i.term).collect()).collect();
            Some(Oracle::for_network_within(&g, &circuit, &move_terms, stop)?)
        };
        // An oracle that cannot answer the initial state within its budget
        // (laikLee_hex's paths as lists) makes the game too large; one
        // stopped while it tries says nothing of the game.
        if let Some(oracle) = &oracle
            && !oracle.answers_within_budget(&circuit.init, stop)?
        {
            return Err(CompileError::TooLarge(ORACLE_TOO_LARGE));
        }
        let drawn = match &oracle {
            Some(oracle) => DrawnMoves::new_within(&g, &circuit, &infos, oracle.move_inputs(), check)?,
            None => None,
        };
        stop.check()?;
        let stats = Stats { compile_ms: started.elapsed().as_millis() as u64, ..stats };
        Ok(Machine(Arc::new(Inner { roles, moves, infos, lookup, base, circuit, max_goal, stats, oracle, drawn })))
    }

    /// The roles, in declaration order.
    pub fn roles(&self) -> &[Term] {
        &self.0.roles
    }

    /// Every move `role` can ever have, indexed by move number.
    pub fn moves(&self, role: usize) -> &[Term] {
        &self.0.moves[role]
    }

    /// The number of `mv` for `role` (case-insensitive), if it can ever be legal.
    ///
    /// ```
    /// use bouton_ggp::{Game, Machine, Term};
    ///
    /// let game = Game::parse("(role r) (init (at 0)) (legal r (go 1)) (legal r (go 2)) (legal r stay)
    ///     (<= (next (at ?x)) (does r (go ?x))) (<= terminal (true (at 2))) (goal r 100)")?;
    /// let machine = Machine::compile(&game)?;
    /// let go2 = machine.move_index(0, &"(GO 2)".parse::<Term>()?).expect("a move");
    /// assert_eq!(machine.moves(0)[go2 as usize].to_string(), "(go 2)");
    /// assert_eq!(machine.move_index(0, &"(go 3)".parse::<Term>()?), None);
    /// assert_eq!(machine.move_index(1, &"stay".parse::<Term>()?), None, "no second role");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn move_index(&self, role: usize, mv: &Term) -> Option<u32> {
        let moves = self.0.moves.get(role)?;
        self.0.lookup.get(role)?.find(moves, mv)
    }

    /// The highest goal value `role` can get.
    pub fn max_goal(&self, role: usize) -> u8 {
        self.0.max_goal[role]
    }

    /// Figures about the compilation.
    pub fn stats(&self) -> Stats {
        self.0.stats
    }

    /// The initial state.
    pub fn initial_state(&self) -> State {
        State(self.0.circuit.init.clone().into_boxed_slice())
    }

    /// The base propositions true in `state`, sorted.
    pub fn facts(&self, state: &State) -> Vec<Term> {
        let mut facts: Vec<Term> = (0..self.0.base.len())
            .filter(|&i| state.0[i / 64] & (1 << (i % 64)) != 0)
            .map(|i| self.0.base[i].clone())
            .collect();
        facts.sort();
        facts
    }

    /// The moves of `role` that are legal in `state`.
    pub fn legal_moves(&self, state: &State, role: usize) -> Vec<u32> {
        let mut e = Evaluator::new(self);
        e.load(state);
        let mut out = Vec::new();
        e.legal_moves(role, &mut out);
        out
    }

    /// Whether `state` is terminal.
    pub fn is_terminal(&self, state: &State) -> bool {
        let mut e = Evaluator::new(self);
        e.load(state);
        e.is_terminal()
    }

    /// Each role's goal value in `state` (the highest if several hold).
    pub fn goals(&self, state: &State) -> Vec<Option<u8>> {
        let mut e = Evaluator::new(self);
        e.load(state);
        e.goals()
    }

    /// The state after the joint move `joint` (a move number per role).
    pub fn next_state(&self, state: &State, joint: &[u32]) -> State {
        let mut e = Evaluator::new(self);
        e.load(state);
        e.next_state(joint)
    }
}

/// Most cached specialisations per evaluator.
const MAX_SPECS: usize = 1 << 16;

/// The specialisations of the next-state program, by joint move.
enum SpecCache {
    /// Indexed directly by the joint move's mixed-radix number (allocated
    /// on first use).
    Dense { radix: Vec<u32>, size: usize, specs: Vec<Option<Box<Spec>>> },
    /// By the joint move's mixed-radix number, for games with too many joint
    /// moves to index but few enough to number in a `u64` (chess): a joint
    /// move is specialised the second time it is played (`None` after the
    /// first), since most of a large game's joint moves are played once in
    /// a while and specialising costs more than running the general program
    /// once. The number is the key itself, so a lookup reads no key stored
    /// elsewhere (a cache miss per transition with boxed keys).
    Numbered { radix: Vec<u32>, specs: FastMap<u64, Option<Box<Spec>>> },
    /// By joint move, as [`SpecCache::Numbered`], for games whose joint
    /// moves are too many to number in a `u64`.
    Sparse(FastMap<Box<[u32]>, Option<Box<Spec>>>),
}

/// Applies the specialisation of `key` in `specs` (a
/// [`SpecCache::Numbered`] or [`SpecCache::Sparse`] cache) by `apply`,
/// built by `build` the second time the key is asked for; the first time
/// remembers the key (as `owned` makes it, while the cache holds fewer than
/// [`MAX_SPECS`]) and applies nothing. Whether it applied one.
fn apply_cached<K, Q>(
    specs: &mut FastMap<K, Option<Box<Spec>>>,
    key: &Q,
    owned: impl FnOnce() -> K,
    build: impl FnOnce() -> Spec,
    apply: impl FnOnce(&Spec),
) -> bool
where
    K: std::hash::Hash + Eq + std::borrow::Borrow<Q>,
    Q: std::hash::Hash + Eq + ?Sized,
{
    match specs.get_mut(key) {
        Some(slot) => apply(slot.get_or_insert_with(|| Box::new(build()))),
        None => {
            if specs.len() < MAX_SPECS {
                specs.insert(owned(), None);
            }
            return false;
        }
    }
    true
}

/// The mixed-radix number of `joint` (a move number per role) under `radix`
/// (each role's number of moves), which the caller knows to fit.
fn joint_number(radix: &[u32], joint: &[u32]) -> u64 {
    joint.iter().zip(radix).fold(0u64, |k, (&mv, &r)| k * u64::from(r) + u64::from(mv))
}

/// Working memory for reasoning about states of one [`Machine`]: holds a
/// current state (see [`Evaluator::load`]) and its legal moves.
///
/// ```
/// use bouton_ggp::{Evaluator, Game, Machine};
/// use rand::SeedableRng;
///
/// let game = Game::parse("(role r) (init (n 0)) (succ 0 1) (succ 1 2)
///     (legal r inc) (<= (next (n ?y)) (true (n ?x)) (succ ?x ?y))
///     (<= terminal (true (n 2))) (goal r 100)")?;
/// let machine = Machine::compile(&game)?;
/// let mut e = Evaluator::new(&machine);
/// e.load(&machine.initial_state());
/// let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
/// assert_eq!(e.playout(&mut rng, 100), 2);
/// assert!(e.is_terminal());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Evaluator {
    m: Machine,
    bits: Vec<u64>,
    goals_ready: bool,
    specs: SpecCache,
    /// What specialises the next-state program to a joint move (built on
    /// first use).
    specializer: Option<Box<Specializer>>,
    joint: Vec<u32>,
    /// The oracle of a hybrid network, this evaluator's own.
    oracle: Option<Box<Oracle>>,
    /// Where the machine's playouts draw their moves ([`DrawnMoves`]), what
    /// they draw with.
    draw: Option<Box<Drawing>>,
    /// The legal moves offered to a playout's chooser (a buffer).
    offered: Vec<u32>,
}

/// The uniform playout policy: each move offered equally likely.
struct Uniform<'a, R>(&'a mut R);

impl<R: Rng> Chooser for Uniform<'_, R> {
    fn choose(&mut self, _role: usize, offered: &[u32], _first: bool) -> u32 {
        offered[self.0.random_range(0..offered.len())]
    }
}

/// The words holding the `count` legal bits from bit `first` of `bits`,
/// each masked to them, with the move number of each word's bit 0.
#[inline(always)]
fn legal_words_of(bits: &[u64], first: u32, count: u32) -> impl Iterator<Item = (u64, i64)> + Clone + '_ {
    let end = first + count;
    (first / 64..end.div_ceil(64)).map(move |w| {
        let lo = (w * 64).max(first);
        let hi = ((w + 1) * 64).min(end);
        let width = hi - lo;
        let mask = if width == 64 { !0 } else { ((1u64 << width) - 1) << (lo % 64) };
        (bits[w as usize] & mask, i64::from(w * 64) - i64::from(first))
    })
}

/// A move drawn uniformly from those set in `words` (as
/// [`legal_words_of`] gives them), `None` if none is.
fn draw_from(words: impl Iterator<Item = (u64, i64)> + Clone, rng: &mut impl Rng) -> Option<u32> {
    let count: u32 = words.clone().map(|(w, _)| w.count_ones()).sum();
    if count == 0 {
        return None;
    }
    let mut k = rng.random_range(0..count);
    for (mut word, base) in words {
        let ones = word.count_ones();
        if k >= ones {
            k -= ones;
            continue;
        }
        for _ in 0..k {
            word &= word - 1;
        }
        return Some((base + i64::from(word.trailing_zeros())) as u32);
    }
    unreachable!("k is below the number of moves set")
}

impl Evaluator {
    /// An evaluator for `machine`, with the initial state loaded.
    pub fn new(machine: &Machine) -> Evaluator {
        let c = &machine.0.circuit;
        let radix: Vec<u32> = machine.0.moves.iter().map(|m| m.len().max(1) as u32).collect();
        let product = radix.iter().try_fold(1u64, |acc, &r| acc.checked_mul(u64::from(r)));
        let specs = match product {
            Some(size) if size <= 1 << 16 => SpecCache::Dense { radix, size: size as usize, specs: Vec::new() },
            Some(_) => SpecCache::Numbered { radix, specs: FastMap::default() },
            None => SpecCache::Sparse(FastMap::default()),
        };
        let mut e = Evaluator {
            m: machine.clone(),
            bits: vec![0; c.total_words as usize],
            goals_ready: false,
            specs,
            specializer: None,
            joint: Vec::new(),
            oracle: machine.0.oracle.clone().map(Box::new),
            offered: Vec::new(),
            draw: machine.0.drawn.as_ref().map(|drawn| Box::new(Drawing::new(drawn.region().1, machine.0.roles.len()))),
        };
        e.load(&machine.initial_state());
        e
    }

    /// The machine.
    pub fn machine(&self) -> &Machine {
        &self.m
    }

    /// Makes `state` the current state.
    pub fn load(&mut self, state: &State) {
        let n = state.0.len();
        self.bits[..n].copy_from_slice(&state.0);
        self.derive_state();
        self.goals_ready = false;
    }

    /// Runs the programs of the current state: the oracle's asks, the
    /// oracle (if any), legal moves and terminality.
    fn derive_state(&mut self) {
        let c = &self.m.0.circuit;
        if let Some(oracle) = &mut self.oracle {
            c.ask.run(&mut self.bits);
            oracle.fill_state(&mut self.bits, &c.asks);
        }
        c.legal.run(&mut self.bits);
    }

    /// For a hybrid network, the current state's asked atoms as the lazy
    /// grounder answers them (`None` if it cannot) and as the rules do
    /// ([`Oracle::answers_both_ways`]).
    #[cfg(test)]
    pub(crate) fn oracle_answers(&mut self) -> Option<(Option<Vec<u64>>, Vec<u64>)> {
        let c = &self.m.0.circuit;
        let oracle = self.oracle.as_mut()?;
        let mut memory = self.bits.clone();
        c.ask.run(&mut memory);
        Some(oracle.answers_both_ways(&memory, &c.asks))
    }

    /// The current state.
    pub fn state(&self) -> State {
        State(self.bits[..self.m.0.circuit.state_words as usize].into())
    }

    #[inline(always)]
    fn bit(&self, bit: u32) -> bool {
        self.bits[(bit / 64) as usize] & (1 << (bit % 64)) != 0
    }

    /// Whether the current state is terminal.
    pub fn is_terminal(&self) -> bool {
        self.bit(self.m.0.circuit.terminal_bit)
    }

    /// The words holding `role`'s legal bits, each masked to them, with the
    /// move number of each word's bit 0.
    #[inline(always)]
    fn legal_words(&self, role: usize) -> impl Iterator<Item = (u64, i64)> + Clone + '_ {
        legal_words_of(&self.bits, self.m.0.circuit.legal_first[role], self.m.0.infos[role].len() as u32)
    }

    /// Replaces `out` with the moves of `role` legal in the current state.
    pub fn legal_moves(&self, role: usize, out: &mut Vec<u32>) {
        out.clear();
        for (mut word, base) in self.legal_words(role) {
            while word != 0 {
                out.push((base + i64::from(word.trailing_zeros())) as u32);
                word &= word - 1;
            }
        }
    }

    /// A uniformly random legal move of `role`, if it has one.
    pub fn random_legal_move(&self, role: usize, rng: &mut impl Rng) -> Option<u32> {
        draw_from(self.legal_words(role), rng)
    }

    /// Whether move `mv` of `role` is legal in the current state.
    pub fn is_legal(&self, role: usize, mv: u32) -> bool {
        self.m.0.infos[role].get(mv as usize).is_some_and(|info| self.bit(info.legal_bit))
    }

    /// The goal value of `role` in the current state (the highest if several
    /// hold).
    pub fn goal(&mut self, role: usize) -> Option<u8> {
        if !self.goals_ready {
            if let Some(oracle) = &mut self.oracle {
                oracle.fill_goal(&mut self.bits);
            }
            self.m.0.circuit.goal.run(&mut self.bits);
            self.goals_ready = true;
        }
        self.m.0.circuit.goals[role].iter().filter(|&&(bit, _)| self.bit(bit)).map(|&(_, v)| v).max()
    }

    /// Every role's goal value in the current state.
    pub fn goals(&mut self) -> Vec<Option<u8>> {
        (0..self.m.0.roles.len()).map(|r| self.goal(r)).collect()
    }

    /// Computes the next state of the current state into the next region.
    fn compute_next(&mut self, joint: &[u32]) {
        if let Some(oracle) = self.oracle.as_mut().filter(|o| o.reads_move()) {
            oracle.fill_move(&mut self.bits, joint);
        }
        self.run_next(joint);
    }

    /// Computes the next state after `joint` into the next region, the
    /// oracle's answers to the joint move (if it reads any) already in the
    /// bits: by the joint move's specialisation if it has one, else by the
    /// general next-state program.
    fn run_next(&mut self, joint: &[u32]) {
        let c = &self.m.0.circuit;
        let next_word = c.next_word as usize;
        let (m, specializer, bits) = (&self.m, &mut self.specializer, &mut self.bits);
        let mut build = || Self::build_spec(m, specializer, joint);
        let mut apply = |spec: &Spec| spec.apply(bits, next_word);
        let applied = match &mut self.specs {
            SpecCache::Dense { radix, size, specs } => {
                let k = joint_number(radix, joint) as usize;
                if specs.is_empty() {
                    specs.resize_with(*size, || None);
                }
                apply(specs[k].get_or_insert_with(|| Box::new(build())));
                true
            }
            SpecCache::Numbered { radix, specs } => {
                let k = joint_number(radix, joint);
                apply_cached(specs, &k, || k, build, apply)
            }
            SpecCache::Sparse(specs) => apply_cached(specs, joint, || joint.into(), build, apply),
        };
        if !applied {
            // The general program: the does bits, then every next node.
            let does = c.state_words as usize..(c.state_words + c.does_words) as usize;
            self.bits[does].iter_mut().for_each(|w| *w = 0);
            self.bits[next_word..next_word + c.state_words as usize].iter_mut().for_each(|w| *w = 0);
            for (r, &mv) in joint.iter().enumerate() {
                if let Some(bit) = self.m.0.infos[r].get(mv as usize).and_then(|i| i.does_bit) {
                    self.bits[(bit / 64) as usize] |= 1 << (bit % 64);
                }
            }
            c.next.run(&mut self.bits);
        }
    }

    /// The next-state program of `m` specialised to `joint`, by
    /// `specializer` (built if it is `None`).
    fn build_spec(m: &Machine, specializer: &mut Option<Box<Specializer>>, joint: &[u32]) -> Spec {
        let c = &m.0.circuit;
        let specializer = specializer.get_or_insert_with(|| {
            Box::new(Specializer::new(
                &c.next,
                c.total_words as usize,
                c.state_words as usize..(c.state_words + c.does_words) as usize,
                c.next_word,
                c.state_words,
            ))
        });
        let on: Vec<u32> = joint
            .iter()
            .enumerate()
            .filter_map(|(r, &mv)| m.0.infos[r].get(mv as usize).and_then(|i| i.does_bit))
            .collect();
        specializer.specialize(&c.next, &on)
    }

    /// The state after `joint` (a move number per role) in the current state;
    /// the current state does not change.
    pub fn next_state(&mut self, joint: &[u32]) -> State {
        self.compute_next(joint);
        let c = &self.m.0.circuit;
        let next_word = c.next_word as usize;
        State(self.bits[next_word..next_word + c.state_words as usize].into())
    }

    /// Plays `joint` in the current state: the next state becomes current.
    pub fn advance(&mut self, joint: &[u32]) {
        self.enter_next(joint);
        self.derive_state();
    }

    /// Makes the state after `joint` the current one, not yet derived.
    fn enter_next(&mut self, joint: &[u32]) {
        self.compute_next(joint);
        let c = &self.m.0.circuit;
        let (s, next_word) = (c.state_words as usize, c.next_word as usize);
        self.bits.copy_within(next_word..next_word + s, 0);
        self.goals_ready = false;
    }

    /// Plays random legal moves from the current state until a terminal
    /// state or `max_steps` transitions; returns the number of transitions.
    /// A role without legal moves ends the playout too.
    pub fn playout(&mut self, rng: &mut impl Rng, max_steps: usize) -> usize {
        self.playout_while(rng, max_steps, || true).unwrap_or(max_steps)
    }

    /// As [`Evaluator::playout`], asking `go_on` before each transition;
    /// `None` when it said no (the playout was cut short).
    pub(crate) fn playout_while(
        &mut self,
        rng: &mut impl Rng,
        max_steps: usize,
        mut go_on: impl FnMut() -> bool,
    ) -> Option<usize> {
        if self.draws() {
            return self.playout_drawing(max_steps, go_on, &mut Uniform(rng));
        }
        let roles = self.m.0.roles.len();
        let mut steps = 0;
        let mut joint = std::mem::take(&mut self.joint);
        'play: while steps < max_steps && !self.is_terminal() {
            if !go_on() {
                self.joint = joint;
                return None;
            }
            joint.clear();
            for r in 0..roles {
                match self.random_legal_move(r, rng) {
                    Some(mv) => joint.push(mv),
                    None => break 'play,
                }
            }
            self.advance(&joint);
            steps += 1;
        }
        self.joint = joint;
        Some(steps)
    }

    /// Whether this evaluator's playouts draw their moves ([`DrawnMoves`]):
    /// the machine allows it and the lazy grounder still answers.
    fn draws(&self) -> bool {
        self.draw.is_some() && self.oracle.as_ref().is_some_and(|o| o.answers_lazily())
    }

    /// As [`Evaluator::playout_while`], each role's move chosen by
    /// `chooser` (among a superset of the legal moves where the playout
    /// draws its moves, [`DrawnMoves`]).
    pub(crate) fn playout_choosing(
        &mut self,
        max_steps: usize,
        go_on: impl FnMut() -> bool,
        chooser: &mut impl Chooser,
    ) -> Option<usize> {
        if self.draws() {
            return self.playout_drawing(max_steps, go_on, chooser);
        }
        let (mut joint, mut offered) = (std::mem::take(&mut self.joint), std::mem::take(&mut self.offered));
        let played = crate::reasoner::play_listing(self, max_steps, go_on, chooser, &mut joint, &mut offered);
        (self.joint, self.offered) = (joint, offered);
        played
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Checks the evaluator's current bits against the programs run as
    /// written ([`crate::code::Code::run_steps`]) on a copy: the asks and
    /// the legal moves and terminality, and the goals.
    fn check_state(e: &mut Evaluator) {
        let c = &e.m.0.circuit;
        let mut plain = e.bits.clone();
        if e.oracle.is_some() {
            c.ask.run_steps(&mut plain);
        }
        c.legal.run_steps(&mut plain);
        assert_eq!(plain, e.bits, "the asks, legal moves and terminality");
        e.goals();
        let mut plain = e.bits.clone();
        e.m.0.circuit.goal.run_steps(&mut plain);
        assert_eq!(plain, e.bits, "the goals");
    }

    /// The next state of the evaluator's state after `joint` (`next`, as
    /// [`Evaluator::next_state`] gave it) against the general next-state
    /// program run as written.
    fn check_next(e: &Evaluator, joint: &[u32], next: &State) {
        let c = &e.m.0.circuit;
        let mut plain = e.bits.clone();
        let (s, d, n) = (c.state_words as usize, c.does_words as usize, c.next_word as usize);
        plain[s..s + d].iter_mut().for_each(|w| *w = 0);
        for (r, &mv) in joint.iter().enumerate() {
            if let Some(bit) = e.m.0.infos[r][mv as usize].does_bit {
                plain[(bit / 64) as usize] |= 1 << (bit % 64);
            }
        }
        c.next.run_steps(&mut plain);
        assert_eq!(&plain[n..n + s], &next.0[..], "the next state");
    }

    /// Along random playouts of `machine` (loading, between playouts, a
    /// state of an earlier one or the initial state, and computing a next
    /// state without playing it before each move), the bits the sealed
    /// programs compute are exactly those of the programs as written;
    /// returns the number of states checked.
    fn lowered_programs_agree(machine: &Machine, playouts: usize, depth: usize) -> usize {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        let mut e = Evaluator::new(machine);
        let mut seen: Vec<State> = vec![machine.initial_state()];
        let mut checked = 0;
        let mut joint = Vec::new();
        for _ in 0..playouts {
            let from = seen[rng.random_range(0..seen.len())].clone();
            e.load(&from);
            for _ in 0..depth {
                check_state(&mut e);
                checked += 1;
                if e.is_terminal() {
                    break;
                }
                let draw = |e: &Evaluator, rng: &mut rand::rngs::SmallRng| -> Option<Vec<u32>> {
                    (0..machine.roles().len()).map(|r| e.random_legal_move(r, rng)).collect()
                };
                let Some(probe) = draw(&e, &mut rng) else { break };
                let next = e.next_state(&probe);
                check_next(&e, &probe, &next);
                joint = draw(&e, &mut rng).expect("the same state has legal moves");
                let expected = e.next_state(&joint);
                e.advance(&joint);
                assert_eq!(e.state(), expected, "advance plays what next_state computed");
                seen.push(e.state());
            }
        }
        e.load(&machine.initial_state());
        check_state(&mut e);
        assert!(!joint.is_empty());
        checked
    }

    /// Along random playouts of `machine` (a playout at a time from the
    /// initial state, to depth `depth`), the next state of the joint move
    /// played and of another random legal joint move, as their
    /// specialisations (by one [`Specializer`], each built at once, outside
    /// the cache) compute it, is the general next-state program's run as
    /// written; returns the number of joint moves checked.
    fn specialized_next_states_agree(machine: &Machine, playouts: usize, depth: usize) -> usize {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        let mut e = Evaluator::new(machine);
        let mut specializer = None;
        let mut checked = 0;
        for _ in 0..playouts {
            e.load(&machine.initial_state());
            for _ in 0..depth {
                if e.is_terminal() {
                    break;
                }
                let draw = |e: &Evaluator, rng: &mut rand::rngs::SmallRng| -> Option<Vec<u32>> {
                    (0..machine.roles().len()).map(|r| e.random_legal_move(r, rng)).collect()
                };
                let Some(probe) = draw(&e, &mut rng) else { break };
                let played = draw(&e, &mut rng).expect("the same state has legal moves");
                for joint in [&probe, &played] {
                    // Leaves the oracle's answers to the joint move in the bits.
                    let next = e.next_state(joint);
                    check_next(&e, joint, &next);
                    let spec = Evaluator::build_spec(machine, &mut specializer, joint);
                    let mut bits = e.bits.clone();
                    let c = &machine.0.circuit;
                    let (s, n) = (c.state_words as usize, c.next_word as usize);
                    bits[n..n + s].iter_mut().for_each(|w| *w = 0);
                    spec.apply(&mut bits, n);
                    assert_eq!(&bits[n..n + s], &next.0[..], "the specialised next state");
                    checked += 1;
                }
                e.advance(&played);
            }
        }
        checked
    }

    /// The specialised next states of ticTacToe, connectFour, checkers and
    /// chess (a hybrid network).
    #[test]
    fn specialized_next_states_agree_in_games() {
        let dir = env!("CARGO_MANIFEST_DIR");
        for (path, hybrid, playouts, least) in [
            (format!("{dir}/../../../shared/gdl/ticTacToe.kif"), false, 30, 200),
            (format!("{dir}/../../../shared/gdl/connectFour.kif"), false, 20, 400),
            (format!("{dir}/tests/games/checkers.kif"), false, 4, 300),
            (format!("{dir}/tests/games/chess.kif"), true, 2, 150),
        ] {
            let game = game(&path);
            let machine = if hybrid { Machine::compile_hybrid(&game) } else { Machine::compile(&game) }.expect(&path);
            let checked = specialized_next_states_agree(&machine, playouts, 80);
            assert!(checked >= least, "{path}: {checked} joint moves checked");
        }
    }

    /// The game of the rule sheet at `path`.
    fn game(path: &str) -> Game {
        Game::parse(&std::fs::read_to_string(path).expect(path)).expect("the game parses")
    }

    /// ticTacToe and connectFour: plain nodes and guarded blocks.
    #[test]
    fn lowered_programs_agree_in_small_games() {
        for name in ["ticTacToe", "connectFour"] {
            let machine =
                Machine::compile(&game(&format!("{}/../../../shared/gdl/{name}.kif", env!("CARGO_MANIFEST_DIR"))))
                    .expect(name);
            assert!(!machine.0.circuit.legal.is_lowered(), "{name}: small programs run as written");
            assert!(lowered_programs_agree(&machine, 60, 60) > 100, "{name}");
        }
    }

    /// Checkers: blocks under two guards.
    #[test]
    fn lowered_programs_agree_in_checkers() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games/checkers.kif");
        let machine = Machine::compile(&game(path)).expect("checkers compiles");
        let c = &machine.0.circuit;
        assert!(c.legal.is_lowered() && c.next.is_lowered());
        assert!(lowered_programs_agree(&machine, 8, 60) > 100);
    }

    /// The grounding of the game at `path` (under the crate) that
    /// [`Machine::compile`] would assemble first (`networks`: `Any`), or
    /// its hybrid one (`Hybrid`).
    fn grounding(path: &str, networks: Networks) -> (Game, Grounding) {
        let game = game(&format!("{}/{path}", env!("CARGO_MANIFEST_DIR")));
        let g = ground::ground(&game, Limits::new(DEFAULT_GROUNDING_LIMIT), networks).expect(path);
        (game, g)
    }

    /// What tells two machines apart: their figures (less the time taken),
    /// moves and base propositions, and the states of a seeded random
    /// playout of up to 60 joint moves with the goals at its end.
    type Fingerprint = (Stats, Vec<Vec<Term>>, Vec<Term>, Vec<State>, Vec<Option<u8>>);

    /// The fingerprint of `machine`.
    fn fingerprint(machine: &Machine) -> Fingerprint {
        let stats = Stats { compile_ms: 0, ..machine.stats() };
        let moves = (0..machine.roles().len()).map(|r| machine.moves(r).to_vec()).collect();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let mut e = Evaluator::new(machine);
        let mut states = vec![e.state()];
        for _ in 0..60 {
            if e.playout(&mut rng, 1) == 0 {
                break;
            }
            states.push(e.state());
        }
        (stats, moves, machine.0.base.clone(), states, e.goals())
    }

    /// Assembles `g` within `stop`.
    fn assemble(g: &Grounding, stop: crate::limits::Limits) -> Result<Machine, CompileError> {
        Machine::assemble(g.clone(), Instant::now(), stop)
    }

    /// A plain network (ticTacToe), one whose oracle answers terminality
    /// and goals (sudoku) and chess's hybrid network: assembled within
    /// limits never reached, each is the machine assembled without limits;
    /// cancelled from another thread at a dozen of the checks it makes (the
    /// first, the last, and between), each assembly stops at that very check
    /// with [`CompileError::OutOfLimits`].
    #[test]
    fn assembly_stops_at_each_of_its_checks() {
        use crate::limits::tap::assert_stops_at_each_check;
        for (path, networks, least) in [
            ("../../../shared/gdl/ticTacToe.kif", Networks::Any, 3),
            ("tests/games/sudoku.kif", Networks::Any, 5),
            ("tests/games/chess.kif", Networks::Hybrid, 200),
        ] {
            let (_, g) = grounding(path, networks);
            let assembled = |stop| assemble(&g, stop).map(|m| (m.is_hybrid(), fingerprint(&m)));
            let ((hybrid, _), _) = assert_stops_at_each_check(path, least, 12, assembled);
            assert_eq!(hybrid, networks == Networks::Hybrid || path.contains("sudoku"), "{path}");
        }
    }

    #[test]
    fn a_passed_deadline_stops_assembly() {
        let (_, g) = grounding("tests/games/sudoku.kif", Networks::Any);
        let passed = crate::limits::Limits::none().until(Instant::now() - std::time::Duration::from_millis(1));
        assert_eq!(assemble(&g, passed).err(), Some(CompileError::OutOfLimits(OutOfLimits::Deadline)));
    }

    /// A compilation within limits never reached (a deadline an hour off,
    /// a cancellation never raised) builds the machine a compilation without
    /// limits does: a plain network and one with an oracle.
    #[test]
    fn limits_not_reached_change_no_machine() {
        use crate::cancel::Canceller;
        let canceller = Canceller::new();
        let far = crate::limits::Limits::none()
            .until(Instant::now() + std::time::Duration::from_secs(3600))
            .cancelled_by(canceller.handle());
        for path in ["../../../shared/gdl/connectFour.kif", "tests/games/sudoku.kif"] {
            let game = game(&format!("{}/{path}", env!("CARGO_MANIFEST_DIR")));
            let unlimited = Machine::compile(&game).expect(path);
            let within = Machine::compile_limited(&game, far).expect(path);
            assert_eq!(fingerprint(&within), fingerprint(&unlimited), "{path}");
        }
        assert!(!canceller.is_cancelled());
    }

    #[test]
    fn how_soon_assembly_stops_after_a_cancellation() {
        // Printed, not asserted (`--nocapture`): how long chess's hybrid
        // network goes on being assembled after a cancellation raised from
        // another thread at a few points of the work.
        use crate::cancel::Canceller;
        let (_, g) = grounding("tests/games/chess.kif", Networks::Hybrid);
        let started = Instant::now();
        assemble(&g, crate::limits::Limits::none()).expect("chess assembles");
        let whole = started.elapsed();
        println!("chess: assembled in {:.1} ms", whole.as_secs_f64() * 1e3);
        for eighths in 1..8 {
            let after = whole * eighths / 8;
            let canceller = Canceller::new();
            let stop = crate::limits::Limits::none().cancelled_by(canceller.handle());
            let cancelled_at = std::sync::Mutex::new(None);
            let (result, ended) = std::thread::scope(|scope| {
                scope.spawn(|| {
                    std::thread::sleep(after);
                    *cancelled_at.lock().unwrap() = Some(Instant::now());
                    canceller.cancel();
                });
                let result = assemble(&g, stop);
                (result, Instant::now())
            });
            let cancelled_at = cancelled_at.into_inner().unwrap().expect("cancelled");
            let late = ended.saturating_duration_since(cancelled_at);
            let what = match &result {
                Ok(_) => "done first".to_string(),
                Err(e) => e.to_string(),
            };
            println!("chess: cancelled after {after:?}: {what}, {:.2} ms after it", late.as_secs_f64() * 1e3);
            assert!(matches!(result, Ok(_) | Err(CompileError::OutOfLimits(OutOfLimits::Cancelled))), "{what}");
        }
    }

    /// Printed, not asserted (`--nocapture`, in release): the wall time per
    /// state of each part of hybrid chess's transitions along random
    /// playouts (of at most 200 joint moves from the initial state, as
    /// `examples/compile` plays them) — the oracle's answers to the joint
    /// move, the next state (by a cached specialisation, one built then, or
    /// the general program), the asks, the oracle's answers to the state,
    /// the legal moves — each phase as [`Evaluator::advance`] runs it; every
    /// 64th state and next state is checked against the programs as written.
    #[test]
    fn network_time_per_chess_state() {
        use std::time::Duration;
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games/chess.kif");
        let machine = Machine::compile_hybrid(&game(path)).expect("chess compiles");
        let mut e = Evaluator::new(&machine);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let names = ["move oracle", "next: cached", "next: built", "next: general", "asks", "state oracle", "legal"];
        let mut times = [Duration::ZERO; 7];
        let mut counts = [0usize; 7];
        let mut joint: Vec<u32> = Vec::new();
        let (start, mut states) = (machine.initial_state(), 0usize);
        // The first states warm the oracle's lazy grounding and the caches up;
        // `BOUTON_GGP_TIMED_STATES` times more states than the tests need.
        let timed = std::env::var("BOUTON_GGP_TIMED_STATES").ok().and_then(|n| n.parse().ok()).unwrap_or(6_000);
        let warm_up = 4_000;
        let mut time = |k: usize, states: usize, f: &mut dyn FnMut()| {
            let t = Instant::now();
            f();
            if states >= warm_up {
                times[k] += t.elapsed();
                counts[k] += 1;
            }
        };
        while states < warm_up + timed {
            e.load(&start);
            for _ in 0..200 {
                if e.is_terminal() {
                    break;
                }
                joint.clear();
                for r in 0..machine.roles().len() {
                    joint.push(e.random_legal_move(r, &mut rng).expect("a legal move"));
                }
                let kind = match &e.specs {
                    SpecCache::Numbered { radix, specs } => match specs.get(&joint_number(radix, &joint)) {
                        Some(Some(_)) => 1,
                        Some(None) => 2,
                        None => 3,
                    },
                    _ => unreachable!("chess has too many joint moves to index, few enough to number"),
                };
                time(0, states, &mut || {
                    if let Some(oracle) = e.oracle.as_mut().filter(|o| o.reads_move()) {
                        oracle.fill_move(&mut e.bits, &joint);
                    }
                });
                time(kind, states, &mut || e.run_next(&joint));
                let c = &machine.0.circuit;
                let (s, next_word) = (c.state_words as usize, c.next_word as usize);
                if states % 64 == 0 {
                    check_next(&e, &joint, &State(e.bits[next_word..next_word + s].into()));
                }
                e.bits.copy_within(next_word..next_word + s, 0);
                e.goals_ready = false;
                time(4, states, &mut || c.ask.run(&mut e.bits));
                time(5, states, &mut || e.oracle.as_mut().expect("hybrid").fill_state(&mut e.bits, &c.asks));
                time(6, states, &mut || c.legal.run(&mut e.bits));
                states += 1;
                if states % 64 == 0 {
                    check_state(&mut e);
                }
            }
        }
        assert!(counts[1] > 0 && counts[2] > 0 && counts[3] > 0, "{counts:?}");
        let per_state = |d: Duration| d.as_secs_f64() * 1e6 / counts[6] as f64;
        for (k, name) in names.iter().enumerate() {
            let each = if counts[k] > 0 { times[k].as_secs_f64() * 1e6 / counts[k] as f64 } else { 0.0 };
            println!("chess {name}: {:.2} µs per state ({} runs, {each:.2} µs each)", per_state(times[k]), counts[k]);
        }
        println!("chess network: {:.2} µs per state", per_state(times[1] + times[2] + times[3] + times[4] + times[6]));
    }

    /// Along random playouts of chess (a hybrid network), the inputs
    /// [`crate::asks::AskTable::each_asked`] reports after the sealed ask
    /// program are exactly those whose ask atom `(ask e)` holds when the
    /// program runs as written, matched by the atoms' terms (not by the
    /// layout that puts each ask at its input's place), plus those always
    /// asked; and the next states and legal moves are those of the programs
    /// as written ([`lowered_programs_agree`]).
    #[test]
    fn asked_inputs_are_the_asks_that_hold_in_chess() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games/chess.kif");
        let machine = Machine::compile_hybrid(&game(path)).expect("chess compiles");
        let c = &machine.0.circuit;
        let input_of: FastMap<TermId, u32> = c.inputs.iter().copied().collect();
        // With no ask bit set, the inputs asked in every state.
        let mut always: Vec<u32> = Vec::new();
        c.asks.each_asked(&vec![0u64; c.total_words as usize], |input| {
            always.push(input);
            true
        });
        let mut rng = rand::rngs::SmallRng::seed_from_u64(13);
        let mut e = Evaluator::new(&machine);
        let (mut states, mut asked_in_all) = (0, 0);
        for _ in 0..3 {
            e.load(&machine.initial_state());
            for _ in 0..40 {
                let mut sealed = e.bits.clone();
                c.ask.run(&mut sealed);
                let mut plain = e.bits.clone();
                c.ask.run_steps(&mut plain);
                assert_eq!(sealed, plain, "the ask bits");
                let mut reported = Vec::new();
                c.asks.each_asked(&sealed, |input| {
                    reported.push(input);
                    true
                });
                let mut expected: Vec<u32> = c
                    .ask_bits
                    .iter()
                    .filter(|&&(_, bit)| plain[(bit / 64) as usize] >> (bit % 64) & 1 == 1)
                    .map(|(term, _)| input_of[term])
                    .chain(always.iter().copied())
                    .collect();
                reported.sort_unstable();
                expected.sort_unstable();
                assert_eq!(reported, expected, "the inputs asked");
                asked_in_all += reported.len();
                states += 1;
                if e.playout(&mut rng, 1) == 0 {
                    break;
                }
            }
        }
        assert!(states >= 100 && asked_in_all >= 5 * states, "{states} states, {asked_in_all} inputs asked");
        assert!(lowered_programs_agree(&machine, 2, 30) > 40);
    }

    /// Chess as a hybrid network: asks, oracle inputs, guarded blocks.
    #[test]
    fn lowered_programs_agree_in_chess() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games/chess.kif");
        let machine = Machine::compile_hybrid(&game(path)).expect("chess compiles");
        assert!(machine.is_hybrid());
        let c = &machine.0.circuit;
        assert!(c.ask.is_lowered() && c.legal.is_lowered() && c.next.is_lowered());
        assert!(lowered_programs_agree(&machine, 3, 25) > 40);
    }
}
