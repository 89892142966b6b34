//! Searching over the reference [`Prover`]: how the player chooses a move in
//! a game it has not compiled (yet), instead of a random legal move.
//!
//! - [`ProverSearch`] is the player's: the search tree of [`crate::tree`]
//!   (decoupled UCT with GRAVE, MAST playouts, MCTS-Solver proofs and
//!   transpositions), its questions answered by the prover
//!   ([`ProverReasoner`]) instead of a compiled machine. Its leaves are
//!   valued by playouts to the end, or — where the playouts measured say
//!   too little within the move's time, as in chess, where a prover's
//!   playout takes about a second — by mobility ([`LeafEvaluation::Auto`]'s
//!   rule, applied once the search has measured half a second of playouts,
//!   and then for good).
//!
//!   The tree is kept from one question to the next: when the history of a
//!   question extends the one searched before by the joint moves played
//!   since, the search goes on from the node of the state reached, with
//!   every simulation that went through it; otherwise (another line of
//!   play) it starts afresh.
//!
//!   On two cores (once the game's compilation no longer needs the other
//!   one), a second tree searches the same state on its own thread — root
//!   parallelism, as the compiled player's [`Mcts`](crate::Mcts): its
//!   prover is a copy of the first one's, which follows the match by
//!   itself (a prover's states are its own: each numbers the terms it
//!   meets), its moves numbered as the first tree's, and the two trees'
//!   root statistics are added up to choose the move. Sharing one tree
//!   between two provers would need every state translated from one
//!   prover's terms to the other's.
//!
//!   Every question is asked within the search's [`Limits`] — its deadline
//!   and the follower's cancellation — so that even a question that would
//!   take seconds stops at either; the question that stops ends the search
//!   (the reasoner records why), the tree keeps what it had, and the move
//!   is chosen from that.
//! - `flat_monte_carlo` (for the tests) is the baseline: as
//!   [`FlatMc`](crate::FlatMc) does with a compiled machine, each legal
//!   move of the role is tried in turn, followed by a uniformly random playout to the end in which every
//!   role moves at random; when time is up the move with the best mean goal
//!   is chosen. It reads the clock before every question to the prover.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

#[cfg(test)]
use rand::Rng;
#[cfg(test)]
use rand::rngs::SmallRng;

use crate::leaf_evaluation::{LeafEvaluation, MEASURED};
use crate::limits::Limits;
#[cfg(test)]
use crate::limits::OutOfLimits;
use crate::mcts::{CHECK_SHARE, MctsConfig, choose_checked_in, choose_in};
use crate::playout_profile::PlayoutProfile;
use crate::prover::{Prover, ProverState};
use crate::reasoner::{ProverReasoner, Reasoner};
use crate::term::Term;
use crate::tree::Tree;

/// Longest playout, in transitions.
#[cfg(test)]
const MAX_PLAYOUT: usize = 10_000;

/// Most nodes of each tree over the prover (thousands of questions a second
/// fill far fewer in a play clock).
const MAX_NODES: usize = 100_000;

/// Most search threads: one per core of the machine the player runs on.
pub(crate) const MAX_THREADS: usize = 2;

/// The search settings over the prover: those of the compiled player's
/// search (each tree kept from move to move), valuing the leaves by
/// playouts to the end until measured. The threads are the search's own
/// business ([`ProverSearch`]), not the setting's; each of its trees has a
/// thread's share of the compiled search's bytes, so that both together
/// stay within them.
fn prover_config() -> MctsConfig {
    let max_bytes = MctsConfig::default().max_bytes / MAX_THREADS;
    MctsConfig {
        threads: 1,
        max_nodes: MAX_NODES,
        max_bytes,
        evaluation: LeafEvaluation::Playouts,
        ..MctsConfig::default()
    }
}

/// How a search runs.
#[derive(Debug, Clone, Copy)]
enum Run {
    /// Against the clock, on this many threads, the leaf evaluation
    /// measured and chosen ([`LeafEvaluation::Auto`]).
    Clocked { threads: usize },
    /// For at most this many iterations, the leaves valued by this
    /// evaluation, on one thread: the search then depends on no clock.
    #[cfg_attr(not(test), allow(dead_code, reason = "the tests' deterministic searches"))]
    Fixed { iterations: u64, evaluation: LeafEvaluation },
}

/// A tree over the prover.
type ProverTree = Tree<ProverReasoner>;

/// What a search is asked: the move of role number `role` among `legal`,
/// its legal moves in `state`, the first prover's state after the joint
/// moves of `history`.
#[derive(Debug, Clone, Copy)]
struct Question<'a> {
    /// The joint moves played so far.
    history: &'a [Vec<Term>],
    /// The state they reached, in the first prover's terms.
    state: &'a ProverState,
    /// The number of the role to move for (in declaration order).
    role: usize,
    /// Its legal moves in `state`.
    legal: &'a [Term],
}

/// The match as a second tree's prover followed it: the history it applied
/// and the state it reached (in that prover's terms).
struct ProverLine {
    /// The joint moves applied.
    history: Vec<Vec<Term>>,
    /// `None` when it has to start again from the initial state.
    state: Option<ProverState>,
    /// Whether its tree is rooted at the state of the current search.
    rooted: bool,
}

impl ProverLine {
    /// Brings the state up to `history` with `tree`'s prover (from the
    /// initial state when `history` does not extend the one followed) and
    /// roots the tree there, asking within `limits`; `false` when they
    /// stopped it (the joint moves applied so far are kept).
    fn root(&mut self, tree: &mut ProverTree, history: &[Vec<Term>], limits: Limits) -> bool {
        if self.rooted {
            return true;
        }
        let prover = tree.reasoner_mut().prover_mut();
        if !history.starts_with(&self.history) {
            self.state = None;
        }
        let mut state = match self.state.take() {
            Some(state) => state,
            None => {
                self.history.clear();
                match prover.initial_state_within(limits) {
                    Ok(state) => state,
                    Err(_) => return false,
                }
            }
        };
        while self.history.len() < history.len() {
            match prover.next_state_within(&state, &history[self.history.len()], limits) {
                Ok(next) => {
                    state = next;
                    self.history.push(history[self.history.len()].clone());
                }
                Err(_) => {
                    self.state = Some(state);
                    return false;
                }
            }
        }
        tree.set_root(&state, None);
        self.state = Some(state);
        // A root the limits stopped is not made (nor is any other node).
        self.rooted = !tree.reasoner().expired();
        self.rooted
    }
}

/// The player's search over the prover for one role of one match, kept from
/// question to question (see the module's documentation).
pub(crate) struct ProverSearch {
    /// The prover, until the first search makes the first tree, whose
    /// reasoner owns it from then on.
    unsearched: Option<Prover>,
    /// The first tree, then, on two cores, the second.
    trees: Vec<ProverTree>,
    /// The match as the second tree's prover followed it.
    second: Option<ProverLine>,
    /// The history the last search was asked about.
    searched: Option<Vec<Vec<Term>>>,
    /// The limits of the current search.
    limits: Limits,
    /// The leaf evaluation chosen for good, once measured.
    evaluation: Option<LeafEvaluation>,
    /// Wall time searched with playouts to the end (for the measure).
    playout_time: Duration,
    /// The simulations of the last search, over its trees.
    iterations: u64,
    /// The first tree's random generator's seed (the second's is derived
    /// from it).
    seed: u64,
}

impl ProverSearch {
    /// A search asking `prover`, its random draws seeded with `seed`.
    pub(crate) fn new(prover: Prover, seed: u64) -> ProverSearch {
        ProverSearch {
            unsearched: Some(prover),
            trees: Vec::new(),
            second: None,
            searched: None,
            limits: Limits::none(),
            evaluation: None,
            playout_time: Duration::ZERO,
            iterations: 0,
            seed,
        }
    }

    /// The prover the first tree asks, to follow the match with between
    /// searches.
    pub(crate) fn prover_mut(&mut self) -> &mut Prover {
        match self.trees.first_mut() {
            Some(tree) => tree.reasoner_mut().prover_mut(),
            None => self.unsearched.as_mut().expect("the prover, until the first tree owns it"),
        }
    }

    /// The move of role number `role` among `legal` (its legal moves in
    /// `state`, the first prover's state after `history`) chosen by
    /// searching on `threads` threads (at most [`MAX_THREADS`]) until
    /// `limits`' deadline, every question asked within `limits` (a
    /// cancellation ends the search too); `None` when the search knows
    /// nothing of the moves by then (the caller then picks at random), or
    /// when `legal` is empty. A single legal move is returned at once.
    pub(crate) fn choose(
        &mut self,
        history: &[Vec<Term>],
        state: &ProverState,
        role: usize,
        legal: &[Term],
        limits: Limits,
        threads: usize,
    ) -> Option<Term> {
        self.search(Question { history, state, role, legal }, limits, Run::Clocked { threads })
    }

    /// Why the last search stopped before its deadline, if a question was
    /// stopped (its deadline or cancellation, or the prover's budget of
    /// operations).
    #[cfg(test)]
    pub(crate) fn interrupted(&self) -> Option<OutOfLimits> {
        self.trees.iter().find_map(|t| t.reasoner().interrupted())
    }

    /// The simulations the last search ran, over its trees.
    #[cfg(test)]
    pub(crate) fn iterations(&self) -> u64 {
        self.iterations
    }

    /// The simulations through the root of each tree, over every search
    /// since the root's node was made.
    #[cfg(test)]
    pub(crate) fn root_visits(&self) -> Vec<u32> {
        self.trees.iter().map(Tree::root_visits).collect()
    }

    /// The simulations through the first tree's node of `state` (a state of
    /// the first prover), if it is in the tree.
    #[cfg(test)]
    pub(crate) fn visits_of(&self, state: &ProverState) -> Option<u32> {
        self.trees.first()?.visits_of(state)
    }

    /// The leaf evaluation the searches use now.
    pub(crate) fn evaluation(&self) -> LeafEvaluation {
        self.evaluation.unwrap_or(LeafEvaluation::Playouts)
    }

    /// The search proper (see [`ProverSearch::choose`]) of `question`, until
    /// `limits`' deadline, run as `run` says.
    fn search(&mut self, question: Question<'_>, limits: Limits, run: Run) -> Option<Term> {
        let Question { history, state, role, legal } = question;
        self.iterations = 0;
        if legal.len() <= 1 {
            return legal.first().cloned();
        }
        let started = Instant::now();
        let until = limits.deadline().unwrap_or_else(|| started + Duration::from_secs(365 * 24 * 3600));
        let (threads, budget, fixed) = match run {
            Run::Clocked { threads } => (threads.clamp(1, MAX_THREADS), u64::MAX, None),
            Run::Fixed { iterations, evaluation } => (1, iterations, Some(evaluation)),
        };
        self.prepare(history, state, limits, threads);
        let mut done = 0;
        if fixed.is_none() && self.evaluation.is_none() {
            // Against the clock, the leaves are valued as
            // `LeafEvaluation::Auto` chooses once the searches have measured
            // the playouts: where a prover's playouts are too slow to say
            // much within the move's time (chess: about one a second), by
            // mobility from then on, the moves checked against a losing
            // reply as the compiled player's search does.
            self.set_evaluation(LeafEvaluation::Playouts);
            let measured = started + MEASURED.saturating_sub(self.playout_time);
            done = self.run(history, until.min(measured), budget, threads);
            self.playout_time += started.elapsed();
            let roles = self.trees[0].roles();
            self.evaluation =
                LeafEvaluation::Auto.choose(&self.profile(), roles, until.saturating_duration_since(started));
        }
        let evaluation = fixed.unwrap_or(self.evaluation());
        self.set_evaluation(evaluation);
        let check = evaluation == LeafEvaluation::Mobility;
        let search_until =
            if check { started + until.saturating_duration_since(started).mul_f64(1.0 - CHECK_SHARE) } else { until };
        if check {
            // Every move tried once first: one that wins at once is proven.
            self.trees[0].expand_root(role, None, search_until);
        }
        let searching = Instant::now();
        done += self.run(history, search_until, budget.saturating_sub(done), threads);
        if fixed.is_none() && evaluation == LeafEvaluation::Playouts {
            self.playout_time += searching.elapsed();
        }
        self.iterations = done;
        let rooted = 1 + usize::from(threads > 1 && self.second.as_ref().is_some_and(|s| s.rooted));
        let trees = &mut self.trees[..rooted];
        let known = |t: &ProverTree| t.report(role).iter().any(|m| m.visits > 0 || m.proven.is_some());
        if !trees.iter().any(known) {
            return None;
        }
        let mv = if check { choose_checked_in(trees, role, None, until) } else { choose_in(trees, role) }?;
        trees[0].reasoner().name(role, mv).filter(|m| legal.contains(m))
    }

    /// Readies the trees for a search of `state` (the first prover's, after
    /// `history`) within `limits` on `threads` threads: the first tree
    /// re-rooted there — keeping what it searched below when `history`
    /// extends the history searched last, afresh otherwise — and, on two
    /// threads, a second tree made if there is none (its prover a copy of
    /// the first one's, at `state`). The second tree is rooted on its own
    /// thread, by the first run of the search.
    fn prepare(&mut self, history: &[Vec<Term>], state: &ProverState, limits: Limits, threads: usize) {
        self.limits = limits;
        if let Some(prover) = self.unsearched.take() {
            let reasoner = ProverReasoner::owning(prover, state, limits);
            self.trees.push(Tree::new(reasoner, &prover_config(), self.seed));
        }
        if threads > 1 && self.trees.len() == 1 {
            // A copy of the prover knows every term the first one met so
            // far: `state` means the same to both.
            let first = self.trees[0].reasoner();
            let reasoner = first.alongside(first.prover().clone(), state);
            let seed = self.seed ^ 0x9e37_79b9_7f4a_7c15;
            self.trees.push(Tree::new(reasoner, &prover_config(), seed));
            self.second = Some(ProverLine { history: history.to_vec(), state: Some(state.clone()), rooted: false });
        }
        let extends = self.searched.as_ref().is_some_and(|searched| history.starts_with(searched));
        self.searched = Some(history.to_vec());
        for tree in &mut self.trees {
            if !extends {
                tree.clear();
            }
            tree.reasoner_mut().set_limits(limits);
        }
        if let Some(second) = &mut self.second {
            second.rooted = false;
        }
        self.trees[0].set_root(state, None);
    }

    /// Values new leaves by `evaluation` in every tree.
    fn set_evaluation(&mut self, evaluation: LeafEvaluation) {
        self.trees.iter_mut().for_each(|t| t.set_evaluation(evaluation));
    }

    /// The outcomes of the playouts run to the end, over the trees, and the
    /// wall time searched with them.
    fn profile(&self) -> PlayoutProfile {
        let mut profile = PlayoutProfile::default();
        for tree in &self.trees {
            profile.merge_playouts(tree.profile());
        }
        profile.add_time(self.playout_time);
        profile
    }

    /// Runs the first tree here until `deadline`, `budget` iterations, a
    /// question stopped or the root proven, and on two threads the second
    /// on a thread of its own (rooted first at the state after `history`,
    /// if not yet); a tree that proves the root stops the other. Returns
    /// the iterations run.
    fn run(&mut self, history: &[Vec<Term>], deadline: Instant, budget: u64, threads: usize) -> u64 {
        let proven = AtomicBool::new(false);
        let limits = self.limits;
        let (first, rest) = self.trees.split_first_mut().expect("a tree");
        let second = if threads > 1 { rest.first_mut().zip(self.second.as_mut()) } else { None };
        std::thread::scope(|s| {
            let proven = &proven;
            let helper = second.map(|(tree, followed)| {
                s.spawn(move || {
                    if !followed.root(tree, history, limits) {
                        return 0;
                    }
                    tree.run(deadline, budget, None, Some(proven))
                })
            });
            let done = first.run(deadline, budget, None, Some(proven));
            done + helper.map_or(0, |h| h.join().expect("the second search thread panicked"))
        })
    }
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
    use crate::cancel::Canceller;
    use crate::flat_mc::FlatMc;
    use crate::game::Game;
    use crate::machine::Machine;
    use crate::prover::tests::shared_game;
    use crate::solver::Solver;
    use rand::SeedableRng;
    use std::sync::Arc;
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
        for (budget, evaluation) in [(400, playouts), (2, mobility)] {
            // Valued by mobility, two simulations say little; the check of
            // the preferred move against a reply that ends the game finds
            // `strike`.
            for seed in 0..4 {
                let (mut search, position, legal) = started(&game, seed);
                let run = Run::Fixed { iterations: budget, evaluation };
                let chosen = search.search(at_start(&position, &legal), until(far), run);
                assert_eq!(chosen, Some(safe.clone()), "{evaluation:?}, seed {seed}");
            }
        }
    }

    /// A search over a new prover for `game`, seeded with `seed`; the
    /// initial state and the first role's legal moves there.
    fn started(game: &Game, seed: u64) -> (ProverSearch, ProverState, Vec<Term>) {
        let mut search = ProverSearch::new(Prover::new(game), seed);
        let prover = search.prover_mut();
        let start = prover.initial_state();
        let legal = prover.legal_moves(&start, 0);
        (search, start, legal)
    }

    /// The question of the first role's move among `legal` in `state`, the
    /// initial state (no joint move played).
    fn at_start<'a>(state: &'a ProverState, legal: &'a [Term]) -> Question<'a> {
        Question { history: &[], state, role: 0, legal }
    }

    /// Limits with a deadline `at`.
    fn until(at: Instant) -> Limits {
        Limits::none().until(at)
    }

    /// Past its deadline neither search chooses (the caller then picks at
    /// random), except where a single move is legal: it needs no search.
    #[test]
    fn no_choice_past_the_deadline_but_a_single_move() {
        let past = Instant::now() - Duration::from_millis(1);
        let (mut search, start, legal) = started(&Game::parse(TRAP).unwrap(), 1);
        assert_eq!(search.choose(&[], &start, 0, &legal, until(past), 1), None);
        assert_eq!(search.interrupted(), Some(OutOfLimits::Deadline));
        let only = [legal[0].clone()];
        assert_eq!(search.choose(&[], &start, 0, &only, until(past), 1), Some(legal[0].clone()));

        let game = Game::parse(GAME).unwrap();
        let mut prover = Prover::new(&game);
        let start = prover.initial_state();
        let legal = prover.legal_moves(&start, 0);
        let mut rng = SmallRng::seed_from_u64(1);
        assert_eq!(flat_monte_carlo(&mut prover, &start, 0, &legal, past, &mut rng), None);
        let only = [legal[0].clone()];
        assert_eq!(flat_monte_carlo(&mut prover, &start, 0, &only, past, &mut rng), Some(legal[0].clone()));
    }

    /// After a search, the next question about the state a joint move
    /// reached goes on from that state's node: its simulations carry over
    /// (the root then has them plus the new search's), as counted in the
    /// old tree. A question about another line of play (the match
    /// rewound) starts afresh: the root has the new search's alone.
    #[test]
    fn the_tree_is_kept_from_move_to_move() {
        let game = shared_game("ticTacToe");
        let (mut search, start, legal) = started(&game, 3);
        let far = until(Instant::now() + Duration::from_secs(3600));
        let playouts = Run::Fixed { iterations: 300, evaluation: LeafEvaluation::Playouts };
        let best = search.search(at_start(&start, &legal), far, playouts).expect("a move");
        assert_eq!(search.root_visits(), vec![300]);
        let noop = search.prover_mut().legal_moves(&start, 1)[0].clone();
        let joint = vec![best, noop];
        let next = search.prover_mut().next_state(&start, &joint);
        let before = search.visits_of(&next).expect("the state after the best move is in the tree");
        assert!(before > 10, "the best move was simulated {before} times");
        let history = [joint];
        let legal = search.prover_mut().legal_moves(&next, 1);
        let more = Run::Fixed { iterations: 200, evaluation: LeafEvaluation::Playouts };
        search.search(Question { history: &history, state: &next, role: 1, legal: &legal }, far, more);
        let ran = search.iterations();
        assert!(ran > 0);
        assert_eq!(search.root_visits(), vec![before + ran as u32]);
        // Rewound to the start: afresh.
        let legal = search.prover_mut().legal_moves(&start, 0);
        search.search(at_start(&start, &legal), far, playouts);
        assert_eq!(search.root_visits(), vec![search.iterations() as u32]);
    }

    /// `r` chooses `calm` (the game ends, 50) or `probe`, after which the
    /// legal moves take hours: a cycle of six steps is looked for on the
    /// complete graph of thirty vertices (7·10⁸ walks).
    fn probing_game() -> Game {
        let mut rules = String::from(
            "(role r) (init a)
             (<= (legal r calm) (true a)) (<= (legal r probe) (true a))
             (<= (next b) (does r probe)) (<= (next c) (does r calm))
             (<= (legal r stay) (true b) (cycle ?x))
             (<= (cycle ?a) (true b) (e ?a ?b) (e ?b ?c) (e ?c ?d) (e ?d ?f) (e ?f ?g) (e ?g ?a))
             (<= terminal (true c))
             (<= (goal r 50) (true c)) (<= (goal r 100) (cycle ?x)) (<= (goal r 0) (true a))",
        );
        for i in 0..30 {
            for j in 0..30 {
                rules.push_str(&format!(" (e {i} {j})"));
            }
        }
        Game::parse(&rules).expect("the probing game parses")
    }

    /// A question that would take hours stops at the search's deadline, or
    /// at a cancellation raised from another thread: the search returns
    /// with the interruption recorded (without it, the question would
    /// answer hours later, and nothing would be recorded), and chooses from
    /// what it had — `calm`, proven, rather than `probe`, unknown. The tree
    /// keeps it: asked again past its deadline, the search still answers
    /// `calm`, where a new search would know nothing.
    #[test]
    fn a_question_stopped_midway_ends_the_search() {
        let game = probing_game();
        let calm: Term = "calm".parse().unwrap();
        // A budget no question here can spend: only the limits stop it.
        let mut search = ProverSearch::new(Prover::with_budget(&game, usize::MAX / 64), 1);
        let start = search.prover_mut().initial_state();
        let legal = search.prover_mut().legal_moves(&start, 0);
        assert_eq!(legal.len(), 2);
        // Valued by mobility, every move is tried first, in order: `calm`,
        // then `probe`, whose legal moves are asked.
        let mobility = Run::Fixed { iterations: u64::MAX, evaluation: LeafEvaluation::Mobility };
        let soon = until(Instant::now() + Duration::from_millis(50));
        assert_eq!(search.search(at_start(&start, &legal), soon, mobility), Some(calm.clone()));
        assert_eq!(search.interrupted(), Some(OutOfLimits::Deadline));

        let canceller = Arc::new(Canceller::new());
        let far = Instant::now() + Duration::from_secs(3600);
        let limits = until(far).cancelled_by(canceller.handle());
        let remote = Arc::clone(&canceller);
        let cancelling = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            remote.cancel();
        });
        assert_eq!(search.search(at_start(&start, &legal), limits, mobility), Some(calm.clone()));
        assert_eq!(search.interrupted(), Some(OutOfLimits::Cancelled));
        cancelling.join().unwrap();

        let past = Instant::now() - Duration::from_millis(1);
        assert_eq!(search.choose(&[], &start, 0, &legal, until(past), 1), Some(calm));
        let mut fresh = ProverSearch::new(Prover::with_budget(&game, usize::MAX / 64), 1);
        assert_eq!(fresh.choose(&[], &start, 0, &legal, until(past), 1), None);
    }

    /// On two threads, the second tree (its own prover, a copy of the
    /// first's, following the match by itself) searches the same state as
    /// the first: the same legal moves under the same numbers at both
    /// roots, move after move of a Connect Four match, and both trees
    /// simulate. Their statistics added up choose the move the exact solver
    /// finds in the trap.
    #[test]
    fn two_threads_search_the_same_state() {
        let roots = |s: &ProverSearch, role| -> Vec<Vec<u32>> {
            s.trees.iter().map(|t| t.report(role).iter().map(|m| m.mv).collect()).collect()
        };
        let (mut search, start, legal) = started(&Game::parse(TRAP).unwrap(), 5);
        let soon = Instant::now() + Duration::from_millis(700);
        let chosen = search.choose(&[], &start, 0, &legal, until(soon), 2);
        assert_eq!(chosen, Some("safe".parse().unwrap()));
        assert_eq!(search.trees.len(), 2);

        let game = shared_game("connectFour");
        let (mut search, mut state, _) = started(&game, 7);
        let mut history = Vec::new();
        for ply in 0..3 {
            let role = ply % 2;
            let legal = search.prover_mut().legal_moves(&state, role);
            let soon = Instant::now() + Duration::from_millis(400);
            let chosen = search.choose(&history, &state, role, &legal, until(soon), 2).expect("a move");
            let visits = search.root_visits();
            assert!(visits.iter().all(|&v| v > 0), "ply {ply}: {visits:?}");
            let reports = roots(&search, role);
            assert_eq!(reports[0].len(), legal.len());
            assert_eq!(reports[0], reports[1], "ply {ply}");
            let other = search.prover_mut().legal_moves(&state, 1 - role)[0].clone();
            let joint = if role == 0 { vec![chosen, other] } else { vec![other, chosen] };
            state = search.prover_mut().next_state(&state, &joint);
            history.push(joint);
        }
    }

    /// The figures of the issue: on chess and Connect Four, the simulations
    /// a search of the initial state makes on one thread and on two, and
    /// how many of the root's simulations carry over to the next search
    /// after a joint move (printed; `BOUTON_SEARCH_SECONDS` sets each
    /// search's time, 0.3 s by default). Asserted: the moves chosen are
    /// legal, and the next search's root has every simulation the state's
    /// node had, plus its own.
    /// The CPU time this process has used (Linux: `/proc/self/stat`, in
    /// clock ticks of 10 ms); zero elsewhere.
    fn process_cpu() -> Duration {
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
        let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
        let ticks: u64 = fields.get(11..13).map_or(0, |t| t.iter().filter_map(|f| f.parse::<u64>().ok()).sum());
        Duration::from_millis(ticks * 10)
    }

    #[test]
    fn simulations_on_one_and_two_threads() {
        let seconds: f64 = std::env::var("BOUTON_SEARCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(0.3);
        let time = Duration::from_secs_f64(seconds);
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let chess = std::fs::read_to_string(root.join("tests/games/chess.kif")).unwrap();
        for (name, game) in [("chess", Game::parse(&chess).unwrap()), ("connectFour", shared_game("connectFour"))] {
            let prover = Prover::new(&game);
            let copying = Instant::now();
            drop(prover.clone());
            println!("{name}: copying the prover (the second tree's) takes {:?}", copying.elapsed());
            for threads in [1, 2] {
                let (mut search, start, legal) = started(&game, 1);
                let deadline = Instant::now() + time;
                let cpu = process_cpu();
                // Chess's playouts take about a second: a short search may
                // finish none (the player then picks at random).
                let chosen = search.choose(&[], &start, 0, &legal, until(deadline), threads);
                assert!(chosen.as_ref().is_none_or(|m| legal.contains(m)));
                let best = chosen.unwrap_or_else(|| legal[0].clone());
                let first = search.iterations();
                let first_late = Instant::now().saturating_duration_since(deadline);
                let first_cpu = process_cpu() - cpu;
                let evaluation = search.evaluation();
                let other = search.prover_mut().legal_moves(&start, 1)[0].clone();
                let joint = vec![best, other];
                let next = search.prover_mut().next_state(&start, &joint);
                let kept = search.visits_of(&next).unwrap_or(0);
                let legal = search.prover_mut().legal_moves(&next, 1);
                let deadline = Instant::now() + time;
                let history = [joint];
                let cpu = process_cpu();
                let reply = search.choose(&history, &next, 1, &legal, until(deadline), threads);
                assert!(reply.is_none_or(|m| legal.contains(&m)));
                let second_cpu = process_cpu() - cpu;
                let second_late = Instant::now().saturating_duration_since(deadline);
                let visits = search.root_visits();
                assert!(visits[0] >= kept);
                let carried = visits.iter().map(|&v| u64::from(v)).sum::<u64>().saturating_sub(search.iterations());
                println!(
                    "{name}, {threads} thread(s), {seconds} s: {first} simulations at the start ({evaluation:?}, \
                     CPU {first_cpu:?}, returned {first_late:?} after the deadline); after the first joint move \
                     the first tree's root kept {kept} of them (all trees: {carried}), then {} simulations (CPU \
                     {second_cpu:?}, {second_late:?} late)",
                    search.iterations()
                );
            }
        }
    }
}
