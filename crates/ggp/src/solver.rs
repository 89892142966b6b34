//! Exact solving of turn-taking games by depth-first search over the state
//! graph, every solved state remembered.
//!
//! The value of a state is the vector of goals under perfect play, where the
//! role to move (the one with more than one legal move) maximises its own
//! goal — minimax for two-player zero-sum games such as Nim, max-n in
//! general. A role that reaches its highest possible goal stops looking
//! further (no move can do better). States where two roles have a choice at
//! once (simultaneous moves) have no such value: the solver reports them and
//! the player searches instead.

use std::collections::HashMap;
use std::time::Instant;

use crate::hash::FastMap;
use crate::machine::{Evaluator, Machine, State};
use crate::watch::DeadlineWatch;

/// Why a state was not solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// Two roles choose at once somewhere below: no pure-strategy value.
    #[error("the game has simultaneous moves")]
    Simultaneous,
    /// The deadline passed first.
    #[error("out of time")]
    Deadline,
    /// The table of solved states is full.
    #[error("too many states")]
    TooLarge,
    /// A state repeats along a line of play, or play goes too deep.
    #[error("the game does not end along some line of play")]
    Unbounded,
    /// A role has no legal move in a non-terminal state.
    #[error("a role has no legal move in a non-terminal state")]
    NoMoves,
}

const IN_PROGRESS: u32 = 0;
const MAX_DEPTH: usize = 20_000;

/// An exact solver with a table of solved states that persists between
/// calls.
///
/// ```
/// use bouton_ggp::{Game, Machine, Solver};
/// use std::time::{Duration, Instant};
///
/// // Take 1 or 2 from 4: the first player wins by taking 1.
/// let game = Game::parse("(role a) (role b) (init (n 4)) (init (turn a))
///     (s 0 1) (s 1 2) (s 2 3) (s 3 4) (<= (t2 ?x ?z) (s ?x ?y) (s ?y ?z))
///     (<= (legal ?p (take 1)) (true (turn ?p)) (true (n ?x)) (s ?y ?x))
///     (<= (legal ?p (take 2)) (true (turn ?p)) (true (n ?x)) (t2 ?y ?x))
///     (<= (legal ?p wait) (role ?p) (not (true (turn ?p))))
///     (<= (next (n ?y)) (does ?p (take 1)) (true (n ?x)) (s ?y ?x))
///     (<= (next (n ?y)) (does ?p (take 2)) (true (n ?x)) (t2 ?y ?x))
///     (<= (next (turn a)) (true (turn b))) (<= (next (turn b)) (true (turn a)))
///     (<= terminal (true (n 0)))
///     (<= (goal ?p 0) (true (turn ?p))) (<= (goal ?p 100) (role ?p) (not (true (turn ?p))))")?;
/// let machine = Machine::compile(&game)?;
/// let mut solver = Solver::new(&machine);
/// let deadline = Instant::now() + Duration::from_secs(5);
/// assert_eq!(solver.solve(&machine.initial_state(), deadline)?, vec![100, 0]);
/// let best = solver.best_moves(&machine.initial_state(), 0, deadline)?;
/// assert_eq!(best.iter().map(|&m| machine.moves(0)[m as usize].to_string()).collect::<Vec<_>>(), ["(take 1)"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Solver {
    machine: Machine,
    eval: Evaluator,
    table: FastMap<State, u32>,
    values: Vec<Box<[u8]>>,
    value_ids: HashMap<Box<[u8]>, u32>,
    max_states: usize,
    watch: DeadlineWatch,
}

impl Solver {
    /// A solver remembering up to 4 million states.
    pub fn new(machine: &Machine) -> Solver {
        Solver::with_capacity(machine, 4_000_000)
    }

    /// A solver remembering up to `max_states` states.
    pub fn with_capacity(machine: &Machine, max_states: usize) -> Solver {
        Solver {
            machine: machine.clone(),
            eval: Evaluator::new(machine),
            table: FastMap::default(),
            values: Vec::new(),
            value_ids: HashMap::new(),
            max_states,
            watch: DeadlineWatch::new(Instant::now()),
        }
    }

    /// How many states are solved.
    pub fn solved_states(&self) -> usize {
        self.table.len()
    }

    /// Forgets every solved state. A large table is freed on another
    /// thread (millions of states take a while to free, which the caller,
    /// thinking against a clock, cannot spare).
    pub fn clear(&mut self) {
        let table = std::mem::take(&mut self.table);
        if table.len() >= 100_000 {
            let _ = std::thread::Builder::new().name("ggp-free".into()).spawn(move || drop(table));
        }
    }

    /// Whether the table of solved states is full.
    pub fn is_full(&self) -> bool {
        self.table.len() >= self.max_states
    }

    /// The value of `state` if already solved.
    pub fn known(&self, state: &State) -> Option<&[u8]> {
        match self.table.get(state) {
            Some(&v) if v != IN_PROGRESS => Some(&self.values[v as usize - 1]),
            _ => None,
        }
    }

    /// The goal of each role under perfect play from `state`.
    ///
    /// # Errors
    ///
    /// A [`SolveError`] when the state cannot be solved exactly before
    /// `deadline`; what was solved so far stays in the table.
    pub fn solve(&mut self, state: &State, deadline: Instant) -> Result<Vec<u8>, SolveError> {
        self.watch = DeadlineWatch::new(deadline);
        let v = self.search(state, 0)?;
        Ok(self.values[v as usize - 1].to_vec())
    }

    /// The moves of `role` that achieve its value from `state` (a single move
    /// when it has only one).
    ///
    /// When `state` is already solved, the moves whose states are solved too
    /// are looked up without reading the clock; the others are then solved
    /// before `deadline`. Should that fail (the deadline passes first, say),
    /// the moves already proven to achieve the value are the answer: a state
    /// solved before (at the start clock, or by an earlier move's search)
    /// always has one — the move that gave it its value — so a player given
    /// no time at all still plays a proven move.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve`], when no move is proven to achieve the value.
    pub fn best_moves(&mut self, state: &State, role: usize, deadline: Instant) -> Result<Vec<u32>, SolveError> {
        self.watch = DeadlineWatch::new(deadline);
        let value = self.search(state, 0)?;
        self.eval.load(state);
        let roles = self.machine.roles().len();
        let mut legal: Vec<Vec<u32>> = vec![Vec::new(); roles];
        for (r, l) in legal.iter_mut().enumerate() {
            self.eval.legal_moves(r, l);
        }
        if legal[role].len() <= 1 {
            return Ok(legal[role].clone());
        }
        let target = self.values[value as usize - 1][role];
        let mut joint: Vec<u32> = legal.iter().map(|l| l.first().copied().unwrap_or(0)).collect();
        let mut children = Vec::new();
        for &mv in &legal[role] {
            joint[role] = mv;
            self.eval.load(state);
            children.push((mv, self.eval.next_state(&joint)));
        }
        // Whether each move achieves the value: first the moves whose states
        // are solved, with no clock read (a deadline already passed still
        // leaves those), then the others, solved now.
        let achieves = |solver: &Solver, child: &State| solver.known(child).map(|v| v[role] == target);
        let mut proven: Vec<Option<bool>> = children.iter().map(|(_, child)| achieves(self, child)).collect();
        for (i, (_, child)) in children.iter().enumerate() {
            if proven[i].is_some() {
                continue;
            }
            match self.search(child, 1) {
                Ok(v) => proven[i] = Some(self.values[v as usize - 1][role] == target),
                Err(_) if proven.contains(&Some(true)) => break,
                Err(e) => return Err(e),
            }
        }
        Ok(children.iter().zip(proven).filter(|(_, p)| *p == Some(true)).map(|((mv, _), _)| *mv).collect())
    }

    fn intern_value(&mut self, goals: Vec<u8>) -> u32 {
        if let Some(&id) = self.value_ids.get(goals.as_slice()) {
            return id;
        }
        self.values.push(goals.clone().into_boxed_slice());
        let id = self.values.len() as u32;
        self.value_ids.insert(goals.into_boxed_slice(), id);
        id
    }

    /// The value id of `state` (1-based index into `values`).
    fn search(&mut self, state: &State, depth: usize) -> Result<u32, SolveError> {
        match self.table.get(state) {
            Some(&IN_PROGRESS) => return Err(SolveError::Unbounded),
            Some(&v) => return Ok(v),
            None => {}
        }
        if self.watch.passed() {
            return Err(SolveError::Deadline);
        }
        if depth > MAX_DEPTH {
            return Err(SolveError::Unbounded);
        }
        if self.table.len() >= self.max_states {
            return Err(SolveError::TooLarge);
        }
        self.eval.load(state);
        let roles = self.machine.roles().len();
        if self.eval.is_terminal() {
            let goals: Vec<u8> = (0..roles).map(|r| self.eval.goal(r).unwrap_or(0)).collect();
            let v = self.intern_value(goals);
            self.table.insert(state.clone(), v);
            return Ok(v);
        }
        let mut legal: Vec<Vec<u32>> = vec![Vec::new(); roles];
        for (r, l) in legal.iter_mut().enumerate() {
            self.eval.legal_moves(r, l);
            if l.is_empty() {
                return Err(SolveError::NoMoves);
            }
        }
        let choosers: Vec<usize> = (0..roles).filter(|&r| legal[r].len() > 1).collect();
        let mover = match choosers[..] {
            [] => None,
            [r] => Some(r),
            _ => return Err(SolveError::Simultaneous),
        };
        let mut joint: Vec<u32> = legal.iter().map(|l| l[0]).collect();
        let children: Vec<State> = match mover {
            None => vec![self.eval.next_state(&joint)],
            Some(r) => legal[r]
                .iter()
                .map(|&mv| {
                    joint[r] = mv;
                    self.eval.next_state(&joint)
                })
                .collect(),
        };
        self.table.insert(state.clone(), IN_PROGRESS);
        let mut best: Option<u32> = None;
        for child in &children {
            let v = match self.search(child, depth + 1) {
                Ok(v) => v,
                Err(e) => {
                    self.table.remove(state);
                    return Err(e);
                }
            };
            let r = mover.unwrap_or(0);
            let better = best.is_none_or(|b| self.values[v as usize - 1][r] > self.values[b as usize - 1][r]);
            if better {
                best = Some(v);
                if self.values[v as usize - 1][r] >= self.machine.max_goal(r) {
                    break;
                }
            }
        }
        let v = best.expect("at least one child");
        self.table.insert(state.clone(), v);
        Ok(v)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::Game;
    use std::time::Duration;

    /// Nim with two heaps, of one and three counters; who takes the last
    /// counter wins. By Bouton's theorem (the oracle) a move wins exactly
    /// when it leaves heaps whose exclusive or is zero: here only
    /// `(reduce q 1)`, of four moves. A state after the first move is
    /// reached by that move only, so solving the initial state, which stops
    /// at the first winning move, leaves the states after the moves it would
    /// have tried next unsolved (the tests check that there are some).
    pub(crate) const TWO_HEAPS: &str = "(role a) (role b) (init (heap p 1)) (init (heap q 3)) (init (control a))
        (succ 0 1) (succ 1 2) (succ 2 3)
        (<= (smaller ?x ?y) (succ ?x ?y)) (<= (smaller ?x ?y) (succ ?x ?z) (smaller ?z ?y))
        (<= (legal ?r noop) (role ?r) (not (true (control ?r))))
        (<= (legal ?r (reduce ?h ?n)) (true (control ?r)) (true (heap ?h ?m)) (smaller ?n ?m))
        (<= (next (heap ?h ?n)) (does ?r (reduce ?h ?n)))
        (<= (next (heap ?h ?n)) (true (heap ?h ?n)) (does ?r (reduce ?g ?m)) (distinct ?h ?g))
        (<= (next (control b)) (true (control a))) (<= (next (control a)) (true (control b)))
        (<= terminal (true (heap p 0)) (true (heap q 0)))
        (<= (goal ?r 0) (true (control ?r))) (<= (goal ?r 100) (role ?r) (not (true (control ?r))))";

    /// The exclusive or of the heaps of a state of [`TWO_HEAPS`], read from
    /// its facts: zero exactly when the role to move loses.
    pub(crate) fn nim_sum(machine: &Machine, state: &State) -> u32 {
        machine
            .facts(state)
            .iter()
            .filter_map(|f| f.to_string().strip_prefix("(heap ").map(|rest| rest.trim_end_matches(')').to_string()))
            .map(|rest| rest.split(' ').nth(1).expect("a size").parse::<u32>().expect("a number"))
            .fold(0, |x, size| x ^ size)
    }

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    /// Given no time at all, a solved state still gives its proven moves
    /// (looked up, not searched), though solving it left some moves' states
    /// unsolved; given time, every best move — as the oracle says. An
    /// unsolved state with no time gives none.
    #[test]
    fn a_solved_state_gives_its_proven_moves_with_no_time_left() {
        let machine = Machine::compile(&Game::parse(TWO_HEAPS).unwrap()).unwrap();
        let start = machine.initial_state();
        let past = Instant::now() - Duration::from_millis(1);
        let mut solver = Solver::new(&machine);
        assert_eq!(solver.best_moves(&start, 0, past), Err(SolveError::Deadline), "nothing solved, no time");
        assert_eq!(solver.solve(&start, far()), Ok(vec![100, 0]));
        let mut eval = Evaluator::new(&machine);
        let noop = machine.legal_moves(&start, 1)[0];
        let mut after = |mv: u32| {
            eval.load(&start);
            eval.next_state(&[mv, noop])
        };
        let moves = machine.legal_moves(&start, 0);
        assert_eq!(moves.len(), 4);
        let unsolved = moves.iter().filter(|&&mv| solver.known(&after(mv)).is_none()).count();
        assert!(unsolved > 0, "solving stopped at the winning move, before the last");
        let winning: Vec<u32> = moves.iter().copied().filter(|&mv| nim_sum(&machine, &after(mv)) == 0).collect();
        assert_eq!(winning.len(), 1, "the oracle's only winning move");
        assert_eq!(solver.best_moves(&start, 0, past), Ok(winning.clone()), "proven, with no time");
        assert_eq!(solver.best_moves(&start, 0, far()), Ok(winning), "with time, every best move");
        let unsolved = moves.iter().filter(|&&mv| solver.known(&after(mv)).is_none()).count();
        assert_eq!(unsolved, 0, "with time, every move's state is solved");
    }
}
