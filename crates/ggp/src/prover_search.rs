//! Flat Monte Carlo over the reference [`Prover`]: how the player chooses a
//! move in a game it has not compiled (yet), instead of a random legal move.
//! As [`FlatMc`](crate::FlatMc) does with a compiled machine, each legal move
//! of the role is tried in turn, followed by a uniformly random playout to
//! the end in which every role moves at random; when time is up the move
//! with the best mean goal is chosen. The deadline is checked before every
//! question to the prover, so the search overruns it by at most one
//! question (each bounded by the prover's own budget).

use std::time::Instant;

use rand::Rng;
use rand::rngs::SmallRng;

use crate::prover::{Prover, ProverState};
use crate::term::Term;

/// Longest playout, in transitions.
const MAX_PLAYOUT: usize = 10_000;

/// The move of role number `role` among `legal` (its legal moves in `state`)
/// with the best mean goal over random playouts by `prover` until `until`;
/// `None` when no playout reached the end by then (the caller then picks at
/// random), or when `legal` is empty. A single legal move is returned at
/// once.
pub(crate) fn flat_monte_carlo(
    prover: &mut Prover,
    state: &ProverState,
    role: usize,
    legal: &[Term],
    until: Instant,
    rng: &mut SmallRng,
) -> Option<Term> {
    if legal.len() <= 1 {
        return legal.first().cloned();
    }
    let mut totals = vec![(0u64, 0u64); legal.len()];
    // Every role's moves in `state`, asked once (the role's own are given).
    let others = prover.inspect(state).legal;
    'search: for tried in 0.. {
        let choice = tried % legal.len();
        let mut joint = random_joint(&others, rng)?;
        joint[role] = legal[choice].clone();
        let mut position = prover.next_state(state, &joint);
        for _ in 0..MAX_PLAYOUT {
            if Instant::now() >= until {
                break 'search;
            }
            let seen = prover.inspect(&position);
            if seen.terminal {
                let goal = seen.goals.get(role).copied().flatten().unwrap_or(0);
                totals[choice].0 += u64::from(goal);
                totals[choice].1 += 1;
                break;
            }
            let Some(joint) = random_joint(&seen.legal, rng) else { break };
            position = prover.next_state(&position, &joint);
        }
    }
    let best = (0..legal.len())
        .filter(|&m| totals[m].1 > 0)
        .max_by(|&a, &b| mean(totals[a]).total_cmp(&mean(totals[b])).then(b.cmp(&a)))?;
    Some(legal[best].clone())
}

/// The mean goal of `(total, playouts)`.
fn mean((total, playouts): (u64, u64)) -> f64 {
    total as f64 / playouts as f64
}

/// A uniformly random legal move for each role; `None` if a role has none
/// (the rules are broken there: no playout can go on).
fn random_joint(legal: &[Vec<Term>], rng: &mut SmallRng) -> Option<Vec<Term>> {
    legal.iter().map(|moves| (!moves.is_empty()).then(|| moves[rng.random_range(..moves.len())].clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use rand::SeedableRng;
    use std::time::Duration;

    /// Two roles: `a` moves first (`win`, `lose` or `gamble`), then `b`
    /// answers at random or not; the exact values (the oracle, by hand from
    /// the rules): `win` 100 whatever `b` does, `lose` 0, `gamble` 50 on
    /// average over `b`'s two replies.
    const GAME: &str = "(role a) (role b) (init (turn a))
        (<= (legal a win) (true (turn a))) (<= (legal a lose) (true (turn a))) (<= (legal a gamble) (true (turn a)))
        (<= (legal b noop) (true (turn a)))
        (<= (legal b heads) (true (turn b))) (<= (legal b tails) (true (turn b)))
        (<= (legal a noop) (true (turn b)))
        (<= (next (turn b)) (true (turn a)))
        (<= (next (chose ?m)) (does a ?m))
        (<= (next (chose ?m)) (true (chose ?m)))
        (<= (next (coin ?c)) (does b ?c))
        (<= (next done) (true (turn b)))
        (<= terminal (true done))
        (<= (goal a 100) (true (chose win)))
        (<= (goal a 100) (true (chose gamble)) (true (coin heads)))
        (<= (goal a 0) (true (chose gamble)) (true (coin tails)))
        (<= (goal a 0) (true (chose lose)))
        (<= (goal a 0) (not (true done)))
        (<= (goal b 0) (true done)) (<= (goal b 0) (not (true done)))";

    #[test]
    fn the_move_with_the_best_mean_goal_is_chosen() {
        let game = Game::parse(GAME).unwrap();
        let mut prover = Prover::new(&game);
        let start = prover.initial_state();
        let legal = prover.legal_moves(&start, 0);
        assert_eq!(legal.len(), 3);
        let mut rng = SmallRng::seed_from_u64(1);
        let until = Instant::now() + Duration::from_millis(300);
        let chosen = flat_monte_carlo(&mut prover, &start, 0, &legal, until, &mut rng);
        assert_eq!(chosen, Some("win".parse().unwrap()));
    }

    #[test]
    fn no_finished_playout_means_no_choice() {
        let game = Game::parse(GAME).unwrap();
        let mut prover = Prover::new(&game);
        let start = prover.initial_state();
        let legal = prover.legal_moves(&start, 0);
        let mut rng = SmallRng::seed_from_u64(1);
        let past = Instant::now() - Duration::from_millis(1);
        assert_eq!(flat_monte_carlo(&mut prover, &start, 0, &legal, past, &mut rng), None);
        // A single legal move needs no search.
        let only = [legal[0].clone()];
        assert_eq!(flat_monte_carlo(&mut prover, &start, 0, &only, past, &mut rng), Some(legal[0].clone()));
    }
}
