//! The player's brain: for each move, solve exactly if possible, search
//! otherwise, and always answer by the deadline.

use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::machine::{Evaluator, Machine, State};
use crate::mcts::Mcts;
use crate::solver::{SolveError, Solver};

/// How a [`Thinker`] chooses its moves.
///
/// ```
/// use bouton_ggp::Strategy;
///
/// assert_eq!("MCTS".parse::<Strategy>(), Ok(Strategy::Mcts));
/// assert_eq!("perfect".parse::<Strategy>(), Ok(Strategy::Best));
/// assert!("clever".parse::<Strategy>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Perfect play when the game can be solved in time, Monte Carlo tree
    /// search otherwise.
    Best,
    /// Monte Carlo tree search only.
    Mcts,
    /// A uniformly random legal move.
    Random,
}

impl std::str::FromStr for Strategy {
    type Err = String;

    fn from_str(s: &str) -> Result<Strategy, String> {
        match s.to_ascii_lowercase().as_str() {
            "best" | "perfect" => Ok(Strategy::Best),
            "mcts" => Ok(Strategy::Mcts),
            "random" => Ok(Strategy::Random),
            _ => Err(format!("unknown strategy {s:?}: expected best, mcts or random")),
        }
    }
}

/// Chooses moves for one role of one match.
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
/// let mut thinker = Thinker::new(&machine, 0, Strategy::Best, 1);
/// let mv = thinker.choose(&machine.initial_state(), Instant::now() + Duration::from_secs(1));
/// assert_eq!(machine.moves(0)[mv as usize].to_string(), "good");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Thinker {
    role: usize,
    strategy: Strategy,
    eval: Evaluator,
    solver: Option<Solver>,
    mcts: Mcts,
    rng: SmallRng,
    /// The share of each move's time given to solving; it shrinks while
    /// solving keeps running out of time, so that search gets the time.
    solve_share: f64,
}

impl Thinker {
    /// A thinker for `role`, randomness seeded by `seed`.
    pub fn new(machine: &Machine, role: usize, strategy: Strategy, seed: u64) -> Thinker {
        Thinker {
            role,
            strategy,
            eval: Evaluator::new(machine),
            solver: (strategy == Strategy::Best).then(|| Solver::new(machine)),
            mcts: Mcts::new(machine, seed ^ 0x5eed),
            rng: SmallRng::seed_from_u64(seed),
            solve_share: 0.6,
        }
    }

    /// The role played.
    pub fn role(&self) -> usize {
        self.role
    }

    /// Uses the time before the first move (the start clock) to solve the
    /// game from `state` if it can.
    pub fn prepare(&mut self, state: &State, deadline: Instant) {
        if let Some(solver) = &mut self.solver {
            match solver.solve(state, deadline) {
                Err(SolveError::Simultaneous | SolveError::Unbounded | SolveError::NoMoves) => self.solver = None,
                Err(SolveError::TooLarge) => solver.clear(),
                _ => {}
            }
        }
    }

    /// A legal move for the role in `state`, chosen before `deadline`.
    ///
    /// # Panics
    ///
    /// If the role has no legal move in `state` (a terminal or broken state).
    pub fn choose(&mut self, state: &State, deadline: Instant) -> u32 {
        self.eval.load(state);
        let mut legal = Vec::new();
        self.eval.legal_moves(self.role, &mut legal);
        assert!(!legal.is_empty(), "the role has a legal move");
        if self.strategy == Strategy::Random {
            return legal[self.rng.random_range(0..legal.len())];
        }
        let now = Instant::now();
        let left = deadline.saturating_duration_since(now);
        if let Some(solver) = &mut self.solver {
            // Solving gets most of the time; what it leaves goes to search.
            let share = if legal.len() == 1 { 0.9 } else { self.solve_share };
            match solver.best_moves(state, self.role, now + left.mul_f64(share)) {
                Ok(best) if !best.is_empty() => return best[self.rng.random_range(0..best.len())],
                Ok(_) => {}
                Err(SolveError::Simultaneous | SolveError::Unbounded | SolveError::NoMoves) => self.solver = None,
                Err(SolveError::TooLarge) => solver.clear(),
                Err(SolveError::Deadline) => {
                    if legal.len() > 1 {
                        self.solve_share = (self.solve_share * 0.7).max(0.15);
                    }
                }
            }
        }
        if legal.len() == 1 {
            return legal[0];
        }
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining < Duration::from_millis(2) {
            return legal[self.rng.random_range(0..legal.len())];
        }
        self.mcts.search(state, self.role, deadline).unwrap_or(legal[0])
    }
}
