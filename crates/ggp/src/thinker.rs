//! The player's brain: for each move, solve exactly if possible, search
//! otherwise, and always answer by the deadline.

use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::flat_mc::FlatMc;
use crate::leaf_evaluation::LeafEvaluation;
use crate::machine::{Evaluator, Machine, State};
use crate::mcts::Mcts;
use crate::solver::{SolveError, Solver};

/// The time kept back from each deadline. Whoever waits for the answer
/// gives up at the deadline itself (the server then sends a move computed
/// beforehand), so the answer must be ready a little before it: the last
/// search iteration, joining the search threads and handing the move over
/// all take time, more so on a busy machine.
fn slack(left: Duration) -> Duration {
    (left / 20).clamp(Duration::from_millis(1), Duration::from_millis(150))
}

/// `deadline` less the slack for the time left until it.
fn keep_slack(deadline: Instant) -> Instant {
    let now = Instant::now();
    let left = deadline.saturating_duration_since(now);
    now + left.saturating_sub(slack(left))
}

/// How a [`Thinker`] chooses its moves.
///
/// ```
/// use bouton_ggp::Strategy;
///
/// assert_eq!("MCTS".parse::<Strategy>(), Ok(Strategy::Mcts));
/// assert_eq!("perfect".parse::<Strategy>(), Ok(Strategy::Best));
/// assert_eq!("flat-mc".parse::<Strategy>(), Ok(Strategy::FlatMc));
/// assert_eq!(Strategy::FlatMc.to_string(), "flat-mc");
/// assert!("clever".parse::<Strategy>().is_err());
/// for strategy in Strategy::ALL {
///     assert_eq!(strategy.name().parse::<Strategy>(), Ok(strategy));
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Perfect play when the game can be solved in time, Monte Carlo tree
    /// search otherwise (with the exact solver's results as proven values).
    Best,
    /// Monte Carlo tree search only ([`Mcts`] with its default settings:
    /// two threads, GRAVE, MAST playouts, MCTS-Solver, tree reuse).
    Mcts,
    /// Flat Monte Carlo, the baseline of the ggp-base sample players
    /// ([`FlatMc`]).
    FlatMc,
    /// A uniformly random legal move.
    Random,
}

impl Strategy {
    /// Every strategy, in the order of the help texts.
    pub const ALL: [Strategy; 4] = [Strategy::Best, Strategy::Mcts, Strategy::FlatMc, Strategy::Random];

    /// The name it is parsed from.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Best => "best",
            Strategy::Mcts => "mcts",
            Strategy::FlatMc => "flat-mc",
            Strategy::Random => "random",
        }
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Strategy {
    type Err = String;

    fn from_str(s: &str) -> Result<Strategy, String> {
        match s.to_ascii_lowercase().as_str() {
            "best" | "perfect" => Ok(Strategy::Best),
            "mcts" => Ok(Strategy::Mcts),
            "flat-mc" | "flatmc" | "flat_mc" => Ok(Strategy::FlatMc),
            "random" => Ok(Strategy::Random),
            _ => Err(format!("unknown strategy {s:?}: expected best, mcts, flat-mc or random")),
        }
    }
}

/// Chooses moves for one role of one match.
///
/// With [`Strategy::Best`], the start clock goes to solving the game and,
/// if that fails, to a first search from the initial state; each move, the
/// exact solver gets a share of the time (it shrinks while solving keeps
/// failing) and [`Mcts`] the rest, on two threads. When the role has a
/// single legal move (the opponents' turn), the search goes on, on one
/// thread, from the state the opponents move in (pondering; see
/// [`Thinker::set_pondering`]).
///
/// A solved state is played by the solver's moves in every game: its values
/// are what each role can guarantee whatever the others do (see
/// [`Solver`]), sound where the goals do not add up too. When they were
/// max-n values, the thinker probed the goals' totals with playouts and
/// dropped the solver for the match on seeing two; that probe is gone.
///
/// ```
/// use bouton_ggp::{Game, Machine, Strategy, Thinker};
/// use std::time::{Duration, Instant};
///
/// let game = Game::parse("(role r) (init start) (legal r good) (legal r bad)
///     (<= (next won) (does r good)) (<= (next lost) (does r bad))
///     (<= terminal (true won)) (<= terminal (true lost))
///     (<= (goal r 100) (true won)) (<= (goal r 0) (not (true won)))")?;
/// let machine = Machine::compile(&game)?;
/// for strategy in [Strategy::Best, Strategy::Mcts] {
///     // Solved, or proven by the search, long before the deadline.
///     let mut thinker = Thinker::new(&machine, 0, strategy, 1);
///     let mv = thinker.choose(&machine.initial_state(), Instant::now() + Duration::from_secs(60));
///     assert_eq!(machine.moves(0)[mv as usize].to_string(), "good");
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Thinker {
    role: usize,
    strategy: Strategy,
    eval: Evaluator,
    solver: Option<Solver>,
    mcts: Option<Mcts>,
    flat: Option<FlatMc>,
    rng: SmallRng,
    /// The share of each move's time given to solving; it shrinks while
    /// solving keeps running out of time, so that search gets the time.
    solve_share: f64,
    pondering: bool,
}

impl Thinker {
    /// A thinker for `role`, randomness seeded by `seed`.
    pub fn new(machine: &Machine, role: usize, strategy: Strategy, seed: u64) -> Thinker {
        let searches = matches!(strategy, Strategy::Best | Strategy::Mcts);
        Thinker {
            role,
            strategy,
            eval: Evaluator::new(machine),
            solver: (strategy == Strategy::Best).then(|| Solver::new(machine)),
            mcts: searches.then(|| Mcts::new(machine, seed ^ 0x5eed)),
            flat: (strategy == Strategy::FlatMc).then(|| FlatMc::new(machine, seed ^ 0xf1a7)),
            rng: SmallRng::seed_from_u64(seed),
            solve_share: 0.6,
            pondering: true,
        }
    }

    /// The role played.
    pub fn role(&self) -> usize {
        self.role
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// How the search values new states now (see [`LeafEvaluation`]):
    /// playouts to the end until [`LeafEvaluation::Auto`] has measured the
    /// game; [`LeafEvaluation::Playouts`] for strategies without a search.
    ///
    /// ```
    /// use bouton_ggp::{Game, LeafEvaluation, Machine, Strategy, Thinker};
    ///
    /// let game = Game::parse("(role r) (init s) (legal r a) (<= (next t) (true s))
    ///     (<= terminal (true t)) (goal r 100)")?;
    /// let machine = Machine::compile(&game)?;
    /// let thinker = Thinker::new(&machine, 0, Strategy::Best, 1);
    /// assert_eq!(thinker.evaluation(), LeafEvaluation::Playouts);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn evaluation(&self) -> LeafEvaluation {
        self.mcts.as_ref().map_or(LeafEvaluation::Playouts, Mcts::evaluation)
    }

    /// Whether to search on when the role has a single legal move (on by
    /// default). Over HTTP every player thinks at once, so this uses time
    /// that would be idle; in a local match, where the players take turns,
    /// it only makes the match longer.
    pub fn set_pondering(&mut self, on: bool) {
        self.pondering = on;
    }

    /// Uses the time before the first move (the start clock) to solve the
    /// game from `state` if it can, and to search from it otherwise; returns
    /// a little before `deadline` (5% of the time left, at most 0.15 s).
    pub fn prepare(&mut self, state: &State, deadline: Instant) {
        let deadline = keep_slack(deadline);
        let now = Instant::now();
        let left = deadline.saturating_duration_since(now);
        if let Some(solver) = &mut self.solver {
            let has_search = self.mcts.is_some();
            let until = if has_search { now + left.mul_f64(0.6) } else { deadline };
            match solver.solve(state, until) {
                Ok(_) => return,
                Err(SolveError::Simultaneous | SolveError::Unbounded | SolveError::NoMoves) => self.solver = None,
                Err(SolveError::TooLarge) => solver.clear(),
                Err(SolveError::Deadline) => self.solve_share = 0.2,
            }
        }
        if let Some(mcts) = &mut self.mcts
            && deadline.saturating_duration_since(Instant::now()) > Duration::from_millis(5)
        {
            mcts.search_with(state, self.role, deadline, u64::MAX, self.solver.as_ref());
        }
    }

    /// A move the exact solver has already proven best for the role in
    /// `state` (one of them, drawn at random), found by looking up solved
    /// states only — no search, no clock: what [`Thinker::choose`] would
    /// play there at once, whatever its deadline. `None` when the state is
    /// not solved yet, or the strategy does not solve.
    ///
    /// The server answers with it at once when there is one, without
    /// handing the move to a thread of its own that a busy machine might
    /// not run before the play clock.
    pub fn proven_move(&mut self, state: &State) -> Option<u32> {
        let solver = self.solver.as_mut()?;
        let best = solver.best_moves(state, self.role, Instant::now()).ok()?;
        if best.is_empty() {
            return None;
        }
        Some(best[self.rng.random_range(0..best.len())])
    }

    /// A legal move for the role in `state`, chosen a little before
    /// `deadline` (5% of the time left, at most 0.15 s, is kept for handing
    /// the move over).
    ///
    /// # Panics
    ///
    /// If the role has no legal move in `state` (a terminal or broken state).
    pub fn choose(&mut self, state: &State, deadline: Instant) -> u32 {
        let deadline = keep_slack(deadline);
        self.eval.load(state);
        let mut legal = Vec::new();
        self.eval.legal_moves(self.role, &mut legal);
        assert!(!legal.is_empty(), "the role has a legal move");
        match self.strategy {
            Strategy::Random => return legal[self.rng.random_range(0..legal.len())],
            Strategy::FlatMc => {
                let flat = self.flat.as_mut().expect("flat Monte Carlo has its player");
                return flat.choose(state, self.role, deadline).unwrap_or(legal[0]);
            }
            Strategy::Best | Strategy::Mcts => {}
        }
        let now = Instant::now();
        let left = deadline.saturating_duration_since(now);
        if let Some(solver) = &mut self.solver {
            // Solving gets its share of the time; what it leaves goes to
            // search.
            // On the opponents' turn there is nothing else to do but ponder:
            // solving gets twice its share there (up to half the time).
            let share = if legal.len() == 1 { (2.0 * self.solve_share).min(0.5) } else { self.solve_share };
            match solver.best_moves(state, self.role, now + left.mul_f64(share)) {
                Ok(best) if !best.is_empty() => return best[self.rng.random_range(0..best.len())],
                Ok(_) => {}
                Err(SolveError::Simultaneous | SolveError::Unbounded | SolveError::NoMoves) => self.solver = None,
                Err(SolveError::TooLarge) => solver.clear(),
                Err(SolveError::Deadline) => self.solve_share = (self.solve_share * 0.7).max(0.05),
            }
        }
        let mcts = self.mcts.as_mut().expect("search strategies have a search");
        let remaining = deadline.saturating_duration_since(Instant::now());
        if legal.len() == 1 {
            if self.pondering && remaining > Duration::from_millis(5) {
                mcts.ponder(state, deadline);
            }
            return legal[0];
        }
        if remaining < Duration::from_millis(2) {
            return legal[self.rng.random_range(0..legal.len())];
        }
        mcts.search_with(state, self.role, deadline, u64::MAX, self.solver.as_ref()).unwrap_or(legal[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::game::Game;
    use crate::solver::tests::{GAMBLE, TWO_HEAPS, guaranteed, nim_sum};

    /// Once the start clock has solved the game, a move asked for with no
    /// time left at all is still the proven one, by [`Thinker::proven_move`]
    /// and by [`Thinker::choose`] (before, the solver then gave up on the
    /// moves it had not solved, and a random move was played); the oracle is
    /// Bouton's theorem. Before solving, there is no proven move.
    #[test]
    fn a_solved_game_is_played_perfectly_with_no_time_left() {
        let machine = Machine::compile(&Game::parse(TWO_HEAPS).unwrap()).unwrap();
        let start = machine.initial_state();
        let mut thinker = Thinker::new(&machine, 0, Strategy::Best, 7);
        assert_eq!(thinker.proven_move(&start), None, "nothing solved yet");
        thinker.prepare(&start, Instant::now() + Duration::from_secs(30));
        let past = Instant::now() - Duration::from_millis(1);
        let mut eval = Evaluator::new(&machine);
        let noop = machine.legal_moves(&start, 1)[0];
        let mut wins = |mv: u32| {
            eval.load(&start);
            nim_sum(&machine, &eval.next_state(&[mv, noop])) == 0
        };
        for _ in 0..5 {
            let proven = thinker.proven_move(&start).expect("proven at the start clock");
            assert!(wins(proven), "{}", machine.moves(0)[proven as usize]);
            let chosen = thinker.choose(&start, past);
            assert!(wins(chosen), "{}", machine.moves(0)[chosen as usize]);
        }
    }

    /// The gamble ([`GAMBLE`]): a thinker that trusted max-n values (100 for
    /// both at the start) gambled; the solver's values are now what each
    /// role can count on, so the start clock solves the game and the thinker
    /// settles — at once ([`Thinker::proven_move`], no time at all) and by
    /// [`Thinker::choose`]. The oracle is the exhaustive search.
    #[test]
    fn a_thinker_settles_for_what_it_can_count_on() {
        let machine = Machine::compile(&Game::parse(GAMBLE).unwrap()).unwrap();
        let start = machine.initial_state();
        let settle = machine.move_index(0, &"settle".parse().unwrap()).unwrap();
        assert_eq!(guaranteed(&machine, &start, 0), 50);
        let past = Instant::now() - Duration::from_millis(1);
        for seed in 0..5 {
            let mut thinker = Thinker::new(&machine, 0, Strategy::Best, seed);
            thinker.prepare(&start, Instant::now() + Duration::from_secs(5));
            assert_eq!(thinker.proven_move(&start), Some(settle), "solved at the start clock");
            let mv = thinker.choose(&start, past);
            assert_eq!(mv, settle, "{}", machine.moves(0)[mv as usize]);
        }
        // The search alone settles too.
        let mut thinker = Thinker::new(&machine, 0, Strategy::Mcts, 1);
        let mv = thinker.choose(&start, Instant::now() + Duration::from_secs(5));
        assert_eq!(mv, settle, "{}", machine.moves(0)[mv as usize]);
    }

    #[test]
    fn the_slack_is_a_twentieth_of_the_time_within_bounds() {
        assert_eq!(slack(Duration::from_millis(1700)), Duration::from_millis(85));
        assert_eq!(slack(Duration::from_secs(10)), Duration::from_millis(150));
        assert_eq!(slack(Duration::from_millis(10)), Duration::from_millis(1));
    }
}
