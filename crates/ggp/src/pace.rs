//! Which reasoner is faster on a game: a compiled [`Machine`] or the
//! [`Prover`], timed over the same random transitions.
//!
//! A hybrid network ([`Machine::compile_hybrid`]) evaluates part of the rules
//! per state, so whether it beats the prover depends on the game. The
//! comparison plays the same random joint moves from the initial state with
//! both, interleaved step by step (so that other work on the machine slows
//! both alike), each transition being what a playout needs: every role's
//! legal moves, terminality and the next state.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};

use crate::game::Game;
use crate::machine::{Evaluator, Machine};
use crate::prover::Prover;

/// The time each reasoner took for the same transitions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Pace {
    /// Transitions timed.
    pub(crate) transitions: usize,
    /// The machine's time for them.
    pub(crate) machine: Duration,
    /// The prover's time for them.
    pub(crate) prover: Duration,
}

impl Pace {
    /// Whether the machine took less time than the prover.
    pub(crate) fn machine_is_faster(&self) -> bool {
        self.machine < self.prover
    }
}

/// Times `machine` and the prover of `game` over at most `steps` random
/// transitions from the initial state (fewer if the game ends, or once
/// `budget` of wall time is spent). The moves are the machine's, played by
/// both; the random draws are seeded, so the comparison is repeatable.
pub(crate) fn race(machine: &Machine, game: &Game, steps: usize, budget: Duration) -> Pace {
    let until = Instant::now() + budget;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(0x5eed);
    let mut evaluator = Evaluator::new(machine);
    let mut prover = Prover::new(game);
    let mut state = prover.initial_state();
    let mut pace = Pace { transitions: 0, machine: Duration::ZERO, prover: Duration::ZERO };
    let roles = machine.roles().len();
    let mut moves = Vec::new();
    while pace.transitions < steps && Instant::now() < until {
        // The machine: legal moves, terminality, the next state.
        let started = Instant::now();
        if evaluator.is_terminal() {
            break;
        }
        let mut joint = Vec::with_capacity(roles);
        for r in 0..roles {
            evaluator.legal_moves(r, &mut moves);
            if moves.is_empty() {
                return pace;
            }
            joint.push(moves[rng.random_range(0..moves.len())]);
        }
        evaluator.advance(&joint);
        let machine_time = started.elapsed();
        // The prover: the same, with the machine's moves.
        let started = Instant::now();
        let inspection = prover.inspect(&state);
        let terms: Vec<_> = joint.iter().enumerate().map(|(r, &m)| machine.moves(r)[m as usize].clone()).collect();
        state = prover.next_state(&state, &terms);
        let prover_time = started.elapsed();
        if inspection.terminal {
            break;
        }
        pace.machine += machine_time;
        pace.prover += prover_time;
        pace.transitions += 1;
    }
    pace
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
        let pace = race(&machine, &game, 10, Duration::from_secs(5));
        assert_eq!(pace.transitions, 3, "three cells, then the game is over");
        assert!(pace.machine_is_faster(), "{pace:?}");
    }
}
