//! Which reasoner is faster on a game: a compiled [`Machine`] or the
//! [`Prover`], timed over the same random transitions.
//!
//! A hybrid network ([`Machine::compile_hybrid`]) evaluates part of the rules
//! per state, so whether it beats the prover depends on the game. The
//! comparison plays the same random joint moves from the initial state with
//! both, interleaved step by step (so that other work on the machine slows
//! both alike), each transition being what a playout needs: every role's
//! legal moves, terminality and the next state. The same transitions are
//! played three times (while the budget lasts) and each step keeps its
//! least time; then the median step decides, so that a step during which
//! the thread was preempted does not. (Once, under a load of 6–8 on the two
//! cores, a single run's medians made chess's hybrid network lose to the
//! prover, and chess went uncompiled.)
//! (The thread's CPU time would be fairer still, but Linux reports it
//! without `unsafe` only in scheduler ticks, 4 ms here: coarser than a
//! step.)
//!
//! The race is part of a compilation, so it stops at the compilation's
//! deadline or cancellation: the limits are read before each step, and the
//! prover's work checks them as it goes.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};

use crate::game::Game;
use crate::limits::{Limits, OutOfLimits};
use crate::machine::{Evaluator, Machine};
use crate::prover::{Prover, ProverState};

/// The time each reasoner took for the same transitions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Pace {
    /// Transitions timed.
    pub(crate) transitions: usize,
    /// The machine's time for them.
    pub(crate) machine: Duration,
    /// The prover's time for them.
    pub(crate) prover: Duration,
    /// The machine's median time for one of them.
    pub(crate) machine_median: Duration,
    /// The prover's median time for one of them.
    pub(crate) prover_median: Duration,
}

impl Pace {
    /// Whether the machine keeps pace with the prover: its median transition
    /// took less than [`PACE_TOLERANCE`] times the prover's (the median,
    /// rather than the total, so that a transition slowed by other work on
    /// the machine, its thread preempted, does not decide). Where the two are
    /// close (chess's hybrid network against the top-down prover, 7–15%
    /// slower in the opening), the noise of a shared machine must not
    /// decide, and a machine is worth more to a player than a prover of the
    /// same speed: the machine drives its search and solving, while the
    /// prover only lists the legal moves it picks from at random.
    pub(crate) fn machine_keeps_pace(&self) -> bool {
        self.machine_median.as_secs_f64() < self.prover_median.as_secs_f64() * PACE_TOLERANCE
    }
}

/// How many times the prover's median transition the machine's may take
/// and still keep pace ([`Pace::machine_keeps_pace`]): twice, so that only
/// a prover clearly faster sends the game back to the plain grounding.
pub(crate) const PACE_TOLERANCE: f64 = 2.0;

/// The median of `times` (the upper one of an even count); zero for none.
fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times.get(times.len() / 2).copied().unwrap_or(Duration::ZERO)
}

/// How many times [`race`] plays its transitions: each step's time is the
/// least of its runs, so that a step slowed by other work on the machine
/// (its thread preempted, caches evicted) in one run does not decide.
const RUNS: usize = 3;

/// Times `machine` and the prover of `game` over at most `steps` random
/// transitions from the initial state (fewer if the game ends, or once
/// `budget` of wall time is spent). The moves are the machine's, played by
/// both; the random draws are seeded, so every run plays the same
/// transitions, and each is played up to [`RUNS`] times (while the budget
/// lasts), each step's time the least of its runs. A transition the prover
/// cannot answer within its budget of operations is timed as far as it went
/// and ends that run.
///
/// # Errors
///
/// The deadline or the cancellation of `stop`, once reached (read before
/// each step, and by the prover's work): no pace then.
pub(crate) fn race(
    machine: &Machine,
    game: &Game,
    steps: usize,
    budget: Duration,
    stop: Limits,
) -> Result<Pace, OutOfLimits> {
    let until = Instant::now() + budget;
    let (mut machine_times, mut prover_times) = race_once(machine, game, steps, until, stop)?;
    for _ in 1..RUNS {
        if Instant::now() >= until {
            break;
        }
        let (machine_again, prover_again) = race_once(machine, game, steps, until, stop)?;
        keep_least(&mut machine_times, &machine_again);
        keep_least(&mut prover_times, &prover_again);
    }
    Ok(pace_of(&mut machine_times, &mut prover_times))
}

/// `times[i]` becomes the lesser of it and `again[i]` (a run cut short by
/// the budget leaves the steps it did not reach as they were).
fn keep_least(times: &mut [Duration], again: &[Duration]) {
    for (time, &other) in times.iter_mut().zip(again) {
        *time = (*time).min(other);
    }
}

/// One run of [`race`]: the machine's and the prover's time for each step.
///
/// # Errors
///
/// As [`race`].
fn race_once(
    machine: &Machine,
    game: &Game,
    steps: usize,
    until: Instant,
    stop: Limits,
) -> Result<(Vec<Duration>, Vec<Duration>), OutOfLimits> {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(0x5eed);
    let mut evaluator = Evaluator::new(machine);
    let mut prover = match Prover::new_within(game, stop) {
        Err(OutOfLimits::Operations) => Prover::new(game),
        built => built?,
    };
    let mut state = match prover.initial_state_within(stop) {
        Err(OutOfLimits::Operations) => prover.initial_state(),
        found => found?,
    };
    let (mut machine_times, mut prover_times) = (Vec::new(), Vec::new());
    let roles = machine.roles().len();
    let mut moves = Vec::new();
    while machine_times.len() < steps && Instant::now() < until {
        stop.check()?;
        // The machine: legal moves, terminality, the next state.
        let started = Instant::now();
        if evaluator.is_terminal() {
            break;
        }
        let mut joint = Vec::with_capacity(roles);
        for r in 0..roles {
            evaluator.legal_moves(r, &mut moves);
            if moves.is_empty() {
                return Ok((machine_times, prover_times));
            }
            joint.push(moves[rng.random_range(0..moves.len())]);
        }
        evaluator.advance(&joint);
        let machine_time = started.elapsed();
        // The prover: the same, with the machine's moves.
        let started = Instant::now();
        let terms: Vec<_> = joint.iter().enumerate().map(|(r, &m)| machine.moves(r)[m as usize].clone()).collect();
        let step = prover_step(&mut prover, &state, &terms, stop);
        let prover_time = started.elapsed();
        match step {
            Ok(Some(next)) => state = next,
            Ok(None) => break,
            Err(OutOfLimits::Operations) => {
                machine_times.push(machine_time);
                prover_times.push(prover_time);
                break;
            }
            Err(why) => return Err(why),
        }
        machine_times.push(machine_time);
        prover_times.push(prover_time);
    }
    Ok((machine_times, prover_times))
}

/// The prover's part of a step of the race in `state`: an inspection (every
/// role's legal moves, terminality, goals) and the state after `joint`;
/// `None` if `state` is terminal.
///
/// # Errors
///
/// Why `stop` ended it, or [`OutOfLimits::Operations`] when the prover's
/// budget of operations cut an answer short.
fn prover_step(
    prover: &mut Prover,
    state: &ProverState,
    joint: &[crate::term::Term],
    stop: Limits,
) -> Result<Option<ProverState>, OutOfLimits> {
    let inspection = prover.inspect_within(state, stop)?;
    let next = prover.next_state_within(state, joint, stop)?;
    Ok((!inspection.terminal).then_some(next))
}

/// The pace of the transitions whose times are `machine` and `prover`
/// (the same transitions, in the same order).
fn pace_of(machine: &mut [Duration], prover: &mut [Duration]) -> Pace {
    Pace {
        transitions: machine.len(),
        machine: machine.iter().sum(),
        prover: prover.iter().sum(),
        machine_median: median(machine),
        prover_median: median(prover),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fully compiled machine outpaces the prover on tic-tac-toe, and the
    /// race plays to the end of the game at most.
    #[test]
    fn a_compiled_network_outpaces_the_prover() {
        let game = Game::parse(
            "(role x) (init (cell 1 b)) (init (cell 2 b)) (init (cell 3 b))
             (<= (legal x (mark ?c)) (true (cell ?c b)))
             (<= (next (cell ?c x)) (does x (mark ?c)))
             (<= (next (cell ?c ?v)) (true (cell ?c ?v)) (does x (mark ?d)) (distinct ?c ?d))
             (<= open (true (cell ?c b)))
             (<= terminal (not open)) (goal x 100)",
        )
        .unwrap();
        let machine = Machine::compile(&game).unwrap();
        let pace = race(&machine, &game, 10, Duration::from_secs(5), Limits::none()).unwrap();
        assert_eq!(pace.transitions, 3, "three cells, then the game is over");
        assert!(pace.machine_median < pace.prover_median, "{pace:?}");
        assert!(pace.machine_keeps_pace(), "{pace:?}");
    }

    /// Cancelled from another thread at any of the checks it makes, the
    /// race stops there, with no pace; never cancelled, it times what a
    /// race without limits times.
    #[test]
    fn a_race_stops_at_each_of_its_checks() {
        use crate::limits::tap::assert_stops_at_each_check;
        let game = Game::parse(
            "(role x) (role o) (init (cell 1 b)) (init (cell 2 b)) (init (cell 3 b)) (init (control x))
             (<= (legal ?r (mark ?c)) (true (control ?r)) (true (cell ?c b)))
             (<= (legal x noop) (true (control o))) (<= (legal o noop) (true (control x)))
             (<= (next (cell ?c ?r)) (does ?r (mark ?c)))
             (<= (next (cell ?c ?v)) (true (cell ?c ?v)) (does ?r (mark ?d)) (distinct ?c ?d))
             (<= (next (control o)) (true (control x))) (<= (next (control x)) (true (control o)))
             (<= open (true (cell ?c b))) (<= terminal (not open)) (goal x 50) (goal o 50)",
        )
        .unwrap();
        let machine = Machine::compile(&game).unwrap();
        let budget = Duration::from_secs(3600);
        let raced = |stop| race(&machine, &game, 10, budget, stop).map(|p| p.transitions);
        let least = 3 * RUNS;
        let (transitions, _) = assert_stops_at_each_check("a race", least, usize::MAX, raced);
        assert_eq!(transitions, 3, "three cells, then the game is over");
    }

    /// A machine a little slower than the prover keeps pace, even a half
    /// slower; one twice as slow or more does not.
    #[test]
    fn keeping_pace_tolerates_a_little_slowness() {
        let ms = Duration::from_millis;
        let pace =
            |machine, prover| Pace { transitions: 1, machine, prover, machine_median: machine, prover_median: prover };
        assert!(pace(ms(11), ms(10)).machine_keeps_pace());
        assert!(pace(ms(15), ms(10)).machine_keeps_pace());
        assert!(!pace(ms(20), ms(10)).machine_keeps_pace());
        assert!(!pace(ms(30), ms(10)).machine_keeps_pace());
        assert!(pace(ms(5), ms(10)).machine_keeps_pace());
    }

    /// Each step keeps its least time over the runs; steps a shorter run
    /// did not reach keep theirs.
    #[test]
    fn each_step_keeps_its_least_time() {
        let ms = Duration::from_millis;
        let mut times = [ms(9), ms(2), ms(30)];
        keep_least(&mut times, &[ms(4), ms(5)]);
        assert_eq!(times, [ms(4), ms(2), ms(30)]);
        keep_least(&mut times, &[ms(5), ms(1), ms(3), ms(1)]);
        assert_eq!(times, [ms(4), ms(1), ms(3)]);
    }

    #[test]
    fn the_median_is_the_middle_time() {
        let ms = Duration::from_millis;
        assert_eq!(median(&mut [ms(9), ms(1), ms(5)]), ms(5));
        assert_eq!(median(&mut [ms(4), ms(100), ms(2), ms(3)]), ms(4), "an outlier does not count");
        assert_eq!(median(&mut []), Duration::ZERO);
    }
}
