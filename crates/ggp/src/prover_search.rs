//! Searching over the reference [`Prover`]: how the player chooses a move in
//! a game it has not compiled (yet), instead of a random legal move.
//!
//! - [`tree_search`] is the player's: the search tree of
//!   [`crate::tree`] (decoupled UCT with GRAVE, MAST playouts, MCTS-Solver
//!   proofs and transpositions), its questions answered by the prover
//!   ([`ProverReasoner`]) instead of a compiled machine. Its leaves are
//!   valued by playouts to the end, or — where half a second of them shows
//!   they say too little within the move's time, as in chess, where a
//!   prover's playout takes about a second — by mobility
//!   ([`LeafEvaluation::Auto`]'s rule).
//! - [`flat_monte_carlo`] is the baseline: as [`FlatMc`](crate::FlatMc)
//!   does with a compiled machine, each legal move of the role is tried in
//!   turn, followed by a uniformly random playout to the end in which every
//!   role moves at random; when time is up the move with the best mean goal
//!   is chosen.
//!
//! Both read the clock before every question to the prover, so a search
//! overruns its deadline by at most one question (each bounded by the
//! prover's own budget).

use std::time::Instant;

use rand::Rng;
use rand::rngs::SmallRng;

use crate::leaf_evaluation::{LeafEvaluation, MEASURED};
use crate::mcts::{CHECK_SHARE, MctsConfig, choose_checked_in, choose_in};
use crate::prover::{Prover, ProverState};
use crate::reasoner::ProverReasoner;
use crate::term::Term;
use crate::tree::Tree;

/// Longest playout, in transitions.
#[cfg(test)]
const MAX_PLAYOUT: usize = 10_000;

/// Most nodes of the tree over the prover (thousands of questions a second
/// fill far fewer in a play clock).
const MAX_NODES: usize = 100_000;

/// The search settings over the prover: those of the compiled player's
/// search, on one thread (the other core compiles the game meanwhile),
/// valuing the leaves by playouts to the end until measured.
fn prover_config() -> MctsConfig {
    MctsConfig { threads: 1, max_nodes: MAX_NODES, evaluation: LeafEvaluation::Playouts, ..MctsConfig::default() }
}

/// The move of role number `role` among `legal` (its legal moves in `state`)
/// chosen by Monte Carlo tree search over `prover` until `until` (see the
/// module's documentation); `None` when no simulation finished by then (the
/// caller then picks at random), or when `legal` is empty. A single legal
/// move is returned at once. The signature of flat Monte Carlo's
/// (`flat_monte_carlo`, kept for the tests that compare them), which it
/// replaces.
pub(crate) fn tree_search(
    prover: &mut Prover,
    state: &ProverState,
    role: usize,
    legal: &[Term],
    until: Instant,
    rng: &mut SmallRng,
) -> Option<Term> {
    search_tree(prover, state, role, legal, until, None, rng.random())
}

/// [`tree_search`], its generator seeded with `seed`; with `fixed`, for at
/// most that many iterations, the leaves valued by that evaluation (no
/// measuring: the search then depends on no clock).
fn search_tree(
    prover: &mut Prover,
    state: &ProverState,
    role: usize,
    legal: &[Term],
    until: Instant,
    fixed: Option<(u64, LeafEvaluation)>,
    seed: u64,
) -> Option<Term> {
    if legal.len() <= 1 {
        return legal.first().cloned();
    }
    let started = Instant::now();
    let reasoner = ProverReasoner::new(prover, state, until);
    let mut tree = Tree::new(reasoner, &prover_config(), seed);
    tree.set_root(state, None);
    let mut done = 0;
    let (budget, mut evaluation) = fixed.unwrap_or((u64::MAX, LeafEvaluation::Playouts));
    tree.set_evaluation(evaluation);
    if fixed.is_none() {
        // Against the clock, the leaves are valued as `LeafEvaluation::Auto`
        // chooses once the search has measured the playouts: where a
        // prover's playouts are too slow to say much within the move's time
        // (chess: about one a second), by mobility for the rest of it, the
        // moves checked against a losing reply as the compiled player's
        // search does.
        done = tree.run(until.min(started + MEASURED), budget, None, None);
        let mut profile = tree.profile().clone();
        profile.add_time(started.elapsed());
        let time = until.saturating_duration_since(started);
        if let Some(chosen) = LeafEvaluation::Auto.choose(&profile, tree.roles(), time) {
            evaluation = chosen;
            tree.set_evaluation(evaluation);
        }
    }
    let check = evaluation == LeafEvaluation::Mobility;
    let search_until =
        if check { started + until.saturating_duration_since(started).mul_f64(1.0 - CHECK_SHARE) } else { until };
    if check {
        // Every move tried once first: one that wins at once is proven.
        tree.expand_root(role, None, search_until);
    }
    tree.run(search_until, budget.saturating_sub(done), None, None);
    if tree.report(role).iter().all(|m| m.visits == 0 && m.proven.is_none()) {
        return None;
    }
    let trees = std::slice::from_mut(&mut tree);
    let mv = if check { choose_checked_in(trees, role, None, until) } else { choose_in(trees, role) }?;
    trees[0].reasoner().name(role, mv).filter(|m| legal.contains(m)).cloned()
}

/// The move of role number `role` among `legal` (its legal moves in `state`)
/// with the best mean goal over random playouts by `prover` until `until`;
/// `None` when no playout reached the end by then (the caller then picks at
/// random), or when `legal` is empty. A single legal move is returned at
/// once.
#[cfg(test)]
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
#[cfg(test)]
fn mean((total, playouts): (u64, u64)) -> f64 {
    total as f64 / playouts as f64
}

/// A uniformly random legal move for each role; `None` if a role has none
/// (the rules are broken there: no playout can go on).
#[cfg(test)]
fn random_joint(legal: &[Vec<Term>], rng: &mut SmallRng) -> Option<Vec<Term>> {
    legal.iter().map(|moves| (!moves.is_empty()).then(|| moves[rng.random_range(..moves.len())].clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flat_mc::FlatMc;
    use crate::game::Game;
    use crate::machine::Machine;
    use crate::solver::Solver;
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

    /// `a` chooses `safe` or `bait`; then `b` replies. After `bait`, nine
    /// replies give `a` 100 and one, `strike`, gives it 0; after `safe`
    /// every reply gives `a` 60. Random replies make `bait` look best (a
    /// mean of 90), but `b` strikes: `safe` is the only good move, seen two
    /// plies ahead. (`bait` is numbered first, should a search favour its
    /// first move.)
    const TRAP: &str = "(role a) (role b) (init (turn a))
        (<= (legal a safe) (true (turn a))) (<= (legal a bait) (true (turn a)))
        (<= (legal b noop) (true (turn a))) (<= (legal a noop) (true (chose ?m)))
        (num 1) (num 2) (num 3) (num 4) (num 5) (num 6) (num 7) (num 8) (num 9)
        (<= (legal b (reply ?n)) (true (chose ?m)) (num ?n))
        (<= (legal b strike) (true (chose bait)))
        (<= (next (chose ?m)) (does a ?m) (true (turn a)))
        (<= (next (was ?m)) (true (chose ?m)))
        (<= (next (answered ?r)) (does b ?r) (true (chose ?m)))
        (<= terminal (true (answered ?r)))
        (<= (goal a 0) (true (answered strike))) (<= (goal b 100) (true (answered strike)))
        (<= (goal a 100) (true (was bait)) (true (answered (reply ?n))))
        (<= (goal b 0) (true (was bait)) (true (answered (reply ?n))))
        (<= (goal a 60) (true (was safe))) (<= (goal b 40) (true (was safe)))
        (<= (goal a 0) (not terminal)) (<= (goal b 0) (not terminal))";

    #[test]
    fn the_tree_search_sees_the_reply_flat_monte_carlo_misses() {
        let game = Game::parse(TRAP).unwrap();
        let safe: Term = "safe".parse().unwrap();
        let bait: Term = "bait".parse().unwrap();
        // The oracle: the compiled machine's exact solver; and flat Monte
        // Carlo, on the same machine and by a number of playouts, takes the
        // bait.
        let machine = Machine::compile(&game).unwrap();
        let start = machine.initial_state();
        let far = Instant::now() + Duration::from_secs(3600);
        let best = Solver::new(&machine).best_moves(&start, 0, far).unwrap();
        assert_eq!(
            best.iter().map(|&m| machine.moves(0)[m as usize].clone()).collect::<Vec<_>>(),
            std::slice::from_ref(&safe)
        );
        let flat = FlatMc::new(&machine, 1).choose_playouts(&start, 0, 400).unwrap();
        assert_eq!(machine.moves(0)[flat as usize], bait);
        // The tree over the prover, by a number of iterations.
        let (playouts, mobility) = (LeafEvaluation::Playouts, LeafEvaluation::Mobility);
        let mut prover = Prover::new(&game);
        let position = prover.initial_state();
        let legal = prover.legal_moves(&position, 0);
        for seed in 0..4 {
            let chosen = search_tree(&mut prover, &position, 0, &legal, far, Some((400, playouts)), seed);
            assert_eq!(chosen, Some(safe.clone()), "seed {seed}");
        }
        // Valued by mobility, two simulations say little; the check of the
        // preferred move against a reply that ends the game finds `strike`.
        for seed in 0..4 {
            let chosen = search_tree(&mut prover, &position, 0, &legal, far, Some((2, mobility)), seed);
            assert_eq!(chosen, Some(safe.clone()), "seed {seed}");
        }
    }

    /// Past its deadline neither search chooses (the caller then picks at
    /// random), except where a single move is legal: it needs no search.
    #[test]
    fn no_choice_past_the_deadline_but_a_single_move() {
        type Search = fn(&mut Prover, &ProverState, usize, &[Term], Instant, &mut SmallRng) -> Option<Term>;
        for (text, search) in [(TRAP, tree_search as Search), (GAME, flat_monte_carlo as Search)] {
            let game = Game::parse(text).unwrap();
            let mut prover = Prover::new(&game);
            let start = prover.initial_state();
            let legal = prover.legal_moves(&start, 0);
            let mut rng = SmallRng::seed_from_u64(1);
            let past = Instant::now() - Duration::from_millis(1);
            assert_eq!(search(&mut prover, &start, 0, &legal, past, &mut rng), None);
            let only = [legal[0].clone()];
            assert_eq!(search(&mut prover, &start, 0, &only, past, &mut rng), Some(legal[0].clone()));
        }
    }
}
