//! Monte Carlo tree search for any game, simultaneous moves included: the
//! search trees (see [`crate::tree`]: decoupled UCT over a graph of states
//! with GRAVE, MCTS-Solver and MAST playouts) run on several threads at once
//! — root parallelism: each thread grows its own tree from the same state
//! with its own random generator, and their root statistics are added up to
//! choose the move. Each tree is kept from one move to the next, so the part
//! searched below the move actually played is not searched again.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::leaf_evaluation::LeafEvaluation;
use crate::machine::{Evaluator, Machine, State};
use crate::mobility::SiblingMobility;
use crate::playout_profile::PlayoutProfile;
use crate::reasoner::Reasoner;
use crate::solver::Solver;
use crate::tree::{MoveReport, Tree};

/// The share of a search's time kept, under the mobility evaluation, for
/// checking the preferred moves against a losing reply
/// ([`Mcts::choose_checked`]).
pub(crate) const CHECK_SHARE: f64 = 0.25;

/// Playouts to the end a move's search must be able to run for a blind
/// mobility evaluation to give way to them.
const PLAYOUTS_IN_A_MOVE: f64 = 50.0;

/// Settings of a [`Mcts`] search. [`MctsConfig::default`] is the strongest
/// configuration; [`MctsConfig::plain`] is textbook decoupled UCT with
/// uniformly random playouts, on one thread.
///
/// ```
/// use bouton_ggp::MctsConfig;
///
/// let strong = MctsConfig::default();
/// assert!(strong.mast && strong.grave && strong.solver && strong.reuse && strong.threads == 2);
/// let plain = MctsConfig::plain();
/// assert!(!plain.mast && !plain.grave && !plain.solver && !plain.reuse && plain.threads == 1);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct MctsConfig {
    /// Search threads, each with its own tree (at least 1).
    pub threads: usize,
    /// The UCB1 exploration constant, for returns in [0, 1].
    pub exploration: f64,
    /// Playouts by move-average sampling rather than uniformly at random.
    pub mast: bool,
    /// MAST: the Gibbs temperature τ, for returns in [0, 1] (moves drawn in
    /// proportion to `exp(average / τ)`); 0 for ε-greedy playouts (the best
    /// average 60% of the time, a random move otherwise).
    pub mast_temperature: f64,
    /// GRAVE: moves judged also by their all-moves-as-first records.
    pub grave: bool,
    /// GRAVE: simulations a node needs before its all-moves-as-first records
    /// are used for the nodes below it.
    pub grave_ref: u32,
    /// GRAVE: how fast a move's own mean takes over from the all-moves-as-
    /// first mean as its visits grow (smaller: slower).
    pub grave_bias: f64,
    /// MCTS-Solver: proven values replace estimates; states the exact
    /// solver has solved count as proven.
    pub solver: bool,
    /// Keep each tree for the next move.
    pub reuse: bool,
    /// Most nodes per tree; beyond, new states are only played out.
    pub max_nodes: usize,
    /// Most bytes the nodes of the trees may hold, over all threads (their
    /// states, moves, statistics, children and move records, estimated as
    /// they are made and grow); beyond, new states are only played out and
    /// no node gets all-moves-as-first records.
    pub max_bytes: usize,
    /// How new leaves are valued: playouts to the end, mobility, or chosen
    /// by measuring the playouts (see [`LeafEvaluation`]).
    pub evaluation: LeafEvaluation,
    /// Mobility evaluation: the plies played (MAST policy) from a new leaf
    /// before it is evaluated.
    pub evaluation_depth: usize,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            threads: 2,
            exploration: 0.2,
            mast: true,
            mast_temperature: 0.1,
            grave: true,
            grave_ref: 50,
            grave_bias: 1e-3,
            solver: true,
            reuse: true,
            max_nodes: 1_000_000,
            max_bytes: 1 << 30,
            evaluation: LeafEvaluation::Auto,
            evaluation_depth: 0,
        }
    }
}

impl MctsConfig {
    /// Decoupled UCT with random playouts, on one thread, a new tree for
    /// every search: the baseline the enhancements are measured against.
    pub fn plain() -> MctsConfig {
        MctsConfig {
            threads: 1,
            exploration: 1.0,
            mast: false,
            grave: false,
            solver: false,
            reuse: false,
            evaluation: LeafEvaluation::Playouts,
            ..MctsConfig::default()
        }
    }
}

/// What the search knows about one move of a role at the root.
///
/// ```
/// use bouton_ggp::{Game, Machine, Mcts};
///
/// // Three moves: one wins, one draws, one loses.
/// let game = Game::parse("(role r) (init start) (legal r win) (legal r draw) (legal r lose)
///     (<= (next (end ?m)) (does r ?m)) (<= terminal (true (end ?m)))
///     (<= (goal r 100) (true (end win))) (<= (goal r 50) (true (end draw)))
///     (<= (goal r 0) (true (end lose)))")?;
/// let machine = Machine::compile(&game)?;
/// let mut mcts = Mcts::new(&machine, 1);
/// mcts.search_iterations(&machine.initial_state(), 0, 100);
/// for m in mcts.statistics(0) {
///     let name = machine.moves(0)[m.mv as usize].to_string();
///     // Every move tried is proven by the state it leads to.
///     if m.visits > 0 {
///         let value = [("win", 100), ("draw", 50), ("lose", 0)].iter().find(|(n, _)| *n == name).unwrap().1;
///         assert_eq!(m.proven, Some(value));
///         assert_eq!(m.mean, f64::from(value) / 100.0);
///     }
/// }
/// assert_eq!(mcts.proven(), Some(vec![100]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveStatistics {
    /// The move's number.
    pub mv: u32,
    /// Simulations that began with it, over all threads.
    pub visits: u32,
    /// Their mean return for the role, in [0, 1].
    pub mean: f64,
    /// The goal the role can count on after this move whatever the others
    /// do, when proven (its goal under perfect play in a game of constant
    /// sum).
    pub proven: Option<u8>,
}

/// Monte Carlo tree search.
///
/// ```
/// use bouton_ggp::{Game, Machine, Mcts};
/// use std::time::{Duration, Instant};
///
/// // One move wins, the other loses.
/// let game = Game::parse("(role r) (init start) (legal r good) (legal r bad)
///     (<= (next won) (does r good)) (<= (next lost) (does r bad))
///     (<= terminal (true won)) (<= terminal (true lost))
///     (<= (goal r 100) (true won)) (<= (goal r 0) (not (true won)))")?;
/// let machine = Machine::compile(&game)?;
/// let mut mcts = Mcts::new(&machine, 7);
/// // Both moves end the game: the start is soon proven won, and the search
/// // stops long before its deadline.
/// let best = mcts.search(&machine.initial_state(), 0, Instant::now() + Duration::from_secs(60));
/// assert_eq!(machine.moves(0)[best.unwrap() as usize].to_string(), "good");
/// assert_eq!(mcts.proven(), Some(vec![100]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Mcts {
    config: MctsConfig,
    trees: Vec<Tree<Evaluator>>,
    /// How many trees (the first ones) are rooted at the last state searched
    /// (pondering roots only the first).
    current: usize,
    iterations: u64,
    /// The leaf evaluation chosen for good ([`LeafEvaluation::Auto`] chooses
    /// once it has measured enough; until then, playouts).
    evaluation: Option<LeafEvaluation>,
    /// Wall time spent searching with playouts to the end.
    playout_time: Duration,
    /// Mobility counts fewer moves as better: the playouts last showed,
    /// beyond chance, that the side with fewer moves wins (until they show
    /// the opposite; more moves count as better until either is shown).
    inverted: bool,
    /// The way mobility was counted in the trees' values (`Some(inverted)`),
    /// once a search has valued leaves by mobility.
    valued_inverted: Option<bool>,
}

impl Mcts {
    /// A search with [`MctsConfig::default`], seeded with `seed`.
    pub fn new(machine: &Machine, seed: u64) -> Mcts {
        Mcts::with_config(machine, seed, MctsConfig::default())
    }

    /// A search with `config`, seeded with `seed` (each thread's generator
    /// is derived from it).
    pub fn with_config(machine: &Machine, seed: u64, config: MctsConfig) -> Mcts {
        let threads = config.threads.max(1);
        // The threads share the bound on bytes.
        let each = MctsConfig { max_bytes: config.max_bytes / threads, ..config.clone() };
        let trees = (0..threads as u64)
            .map(|i| Tree::new(Evaluator::new(machine), &each, seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
            .collect();
        Mcts {
            config,
            trees,
            current: 0,
            iterations: 0,
            evaluation: None,
            playout_time: Duration::ZERO,
            inverted: false,
            valued_inverted: None,
        }
    }

    /// The settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Iterations run by the last search, over all threads.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Nodes in the trees, over all threads.
    pub fn nodes(&self) -> usize {
        self.trees.iter().map(Tree::len).sum()
    }

    /// The outcomes and cost of the playouts run to the end so far, over all
    /// threads and searches.
    pub fn profile(&self) -> PlayoutProfile {
        let mut profile = PlayoutProfile::default();
        for tree in &self.trees {
            profile.merge_playouts(tree.profile());
        }
        profile.add_time(self.playout_time);
        profile
    }

    /// What the states made so far, over all threads, have shown of
    /// mobility (see [`SiblingMobility`]).
    fn siblings(&self) -> SiblingMobility {
        let mut siblings = SiblingMobility::default();
        for tree in &self.trees {
            siblings.merge(tree.siblings());
        }
        siblings
    }

    /// The leaf evaluation the searches use now: the configured one, or
    /// for [`LeafEvaluation::Auto`] what it chose ([`LeafEvaluation::Playouts`]
    /// until it has chosen).
    pub fn evaluation(&self) -> LeafEvaluation {
        match self.config.evaluation {
            LeafEvaluation::Auto => self.evaluation.unwrap_or(LeafEvaluation::Playouts),
            fixed => fixed,
        }
    }

    /// Whether the mobility evaluation counts fewer moves as better: the
    /// playouts measured so far (before the switch to mobility, and the
    /// share still run after it) last showed beyond chance that the side
    /// with fewer moves wins.
    pub fn mobility_inverted(&self) -> bool {
        self.inverted
    }

    /// Chooses the leaf evaluation before a search of `time` (none for a
    /// search by a number of iterations: those depend on no clock) and sets
    /// it in the trees, with the way mobility points as the playouts have
    /// shown it so far.
    fn prepare_evaluation(&mut self, time: Option<Duration>) {
        if self.evaluation.is_none()
            && let Some(time) = time
        {
            let roles = self.trees[0].roles();
            self.evaluation = self.config.evaluation.choose(&self.profile(), roles, time);
        }
        // Mobility chosen for playouts that inform too little, but no move
        // has changed it differently from its siblings (hex: every move
        // takes a cell from both sides): it tells nothing, and playouts that
        // do end now and then in another outcome tell more — if dozens of
        // them fit in the move (in laikLee_hex's network a playout takes
        // some 80 ms, and single states of a full board far longer: the
        // search then overran its clock).
        let playouts_fit = |profile: &PlayoutProfile| {
            time.is_some_and(|t| profile.playouts_per_second() * t.as_secs_f64() >= PLAYOUTS_IN_A_MOVE)
        };
        if self.config.evaluation == LeafEvaluation::Auto
            && self.evaluation == Some(LeafEvaluation::Mobility)
            && self.siblings().blind()
            && self.profile().informative_share() > 0.0
            && playouts_fit(&self.profile())
        {
            self.evaluation = Some(LeafEvaluation::Playouts);
        }
        let evaluation = self.evaluation();
        // Mobility counts fewer moves as better where the playouts have
        // shown that the side with fewer moves wins, and more again where
        // they later show the opposite; until it is settled, the trees keep
        // measuring it with a share of their playouts.
        let profile = self.profile();
        if profile.fewer_moves_win() {
            self.inverted = true;
        } else if profile.more_moves_win() {
            self.inverted = false;
        }
        if evaluation == LeafEvaluation::Mobility {
            // The trees' values were taken with mobility pointing the other
            // way: wrong, and they would outweigh the new ones for many
            // moves.
            if self.valued_inverted.is_some_and(|was| was != self.inverted) {
                self.clear();
            }
            self.valued_inverted = Some(self.inverted);
        }
        let measuring = !profile.mobility_settled();
        for tree in &mut self.trees {
            tree.set_evaluation(evaluation);
            tree.set_mobility_inverted(self.inverted);
            tree.set_measuring(measuring);
        }
    }

    /// Counts `time` searched towards the playouts' cost while they value
    /// the leaves.
    fn count_time(&mut self, time: Duration) {
        if self.evaluation() == LeafEvaluation::Playouts {
            self.playout_time += time;
        }
    }

    /// Forgets every tree.
    pub fn clear(&mut self) {
        self.trees.iter_mut().for_each(Tree::clear);
        self.current = 0;
    }

    /// The goal each role can count on from the last state searched
    /// whatever the others do (under perfect play, in a game of constant sum),
    /// if the search proved it.
    pub fn proven(&self) -> Option<Vec<u8>> {
        proven_in(&self.trees[..self.current])
    }

    /// The statistics of `role`'s moves at the last state searched, added
    /// up over the threads, in the order of its legal moves.
    pub fn statistics(&self, role: usize) -> Vec<MoveStatistics> {
        statistics_in(&self.trees[..self.current], role)
    }

    /// Searches from `state` until `deadline` (or until the state is
    /// proven) and returns the best move of `role` (`None` if the state is
    /// terminal or `role` has no move).
    pub fn search(&mut self, state: &State, role: usize, deadline: Instant) -> Option<u32> {
        self.search_with(state, role, deadline, u64::MAX, None)
    }

    /// As [`Mcts::search`], for `iterations` iterations shared among the
    /// threads instead of a deadline: the result and the trees then depend
    /// only on the seed, the configuration and the states searched before,
    /// not on timing.
    ///
    /// ```
    /// use bouton_ggp::{Game, Machine, Mcts};
    ///
    /// let game = Game::parse("(role r) (init (n 0)) (s 0 1) (s 1 2) (s 2 3)
    ///     (legal r up) (legal r stay)
    ///     (<= (next (n ?y)) (does r up) (true (n ?x)) (s ?x ?y))
    ///     (<= (next (n ?x)) (does r stay) (true (n ?x)))
    ///     (<= (next (t ?y)) (true (t ?x)) (s ?x ?y)) (init (t 0))
    ///     (<= terminal (true (t 3)))
    ///     (<= (goal r 100) (true (n 3))) (<= (goal r 0) (not (true (n 3))))")?;
    /// let machine = Machine::compile(&game)?;
    /// let start = machine.initial_state();
    /// let mut a = Mcts::new(&machine, 5);
    /// let mut b = Mcts::new(&machine, 5);
    /// assert_eq!(a.search_iterations(&start, 0, 300), b.search_iterations(&start, 0, 300));
    /// assert_eq!(a.statistics(0), b.statistics(0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn search_iterations(&mut self, state: &State, role: usize, iterations: u64) -> Option<u32> {
        let far = Instant::now() + std::time::Duration::from_secs(365 * 24 * 3600);
        self.search_with(state, role, far, iterations, None)
    }

    /// Searches from `state` on one thread until `deadline` without choosing
    /// a move: thinking on the opponents' time (when the role has a single
    /// legal move), so that the tree is grown for the next move.
    ///
    /// ```
    /// use bouton_ggp::{Game, Machine, Mcts};
    /// use std::time::{Duration, Instant};
    ///
    /// // b chooses a number, then a guesses whether it was high.
    /// let game = Game::parse("(role a) (role b) (init (turn b))
    ///     (<= (legal b (pick ?n)) (true (turn b)) (num ?n)) (<= (legal a wait) (true (turn b)))
    ///     (<= (legal a (say ?h)) (true (picked ?n)) (hl ?h)) (<= (legal b wait) (true (picked ?n)))
    ///     (num 1) (num 2) (hl high) (hl low) (high 2)
    ///     (<= (next (picked ?n)) (does b (pick ?n))) (<= (next (said ?h)) (does a (say ?h)))
    ///     (<= (next (was ?n)) (true (picked ?n)))
    ///     (<= terminal (true (said ?h)))
    ///     (<= right (true (said high)) (true (was ?n)) (high ?n))
    ///     (<= right (true (said low)) (true (was 1)))
    ///     (<= (goal a 100) right) (<= (goal a 0) (not right))
    ///     (<= (goal b 0) right) (<= (goal b 100) (not right))")?;
    /// let machine = Machine::compile(&game)?;
    /// let mut mcts = Mcts::new(&machine, 1);
    /// // While b chooses, a (with a single move) ponders: the states after
    /// // each pick get searched too.
    /// let start = machine.initial_state();
    /// mcts.ponder(&start, Instant::now() + Duration::from_secs(60));
    /// assert!(mcts.nodes() > 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn ponder(&mut self, state: &State, deadline: Instant) {
        let started = Instant::now();
        self.prepare_evaluation(Some(deadline.saturating_duration_since(started)));
        let tree = &mut self.trees[0];
        tree.set_root(state, None);
        self.current = 1;
        self.iterations = tree.run(deadline, u64::MAX, None, None);
        self.count_time(started.elapsed());
    }

    /// The search proper; `oracle` is an exact solver whose solved states
    /// count as proven.
    pub(crate) fn search_with(
        &mut self,
        state: &State,
        role: usize,
        deadline: Instant,
        budget: u64,
        oracle: Option<&Solver>,
    ) -> Option<u32> {
        let started = Instant::now();
        let clocked = budget == u64::MAX;
        self.prepare_evaluation(clocked.then(|| deadline.saturating_duration_since(started)));
        // Valued by mobility, the search leaves a share of its time to check
        // the moves it prefers against an immediate loss.
        let checks = clocked && self.config.solver && self.evaluation() == LeafEvaluation::Mobility;
        let (deadline, checks_until) = if checks {
            (started + deadline.saturating_duration_since(started).mul_f64(1.0 - CHECK_SHARE), Some(deadline))
        } else {
            (deadline, None)
        };
        let threads = self.trees.len() as u64;
        self.current = self.trees.len();
        let share =
            |i: u64| if budget == u64::MAX { budget } else { budget / threads + u64::from(i < budget % threads) };
        // Against the clock, a tree that proves the root stops the others;
        // with a number of iterations each tree runs its share, whatever the
        // others do.
        let proven = AtomicBool::new(false);
        let stop = (budget == u64::MAX).then_some(&proven);
        self.iterations = std::thread::scope(|s| {
            let (first, rest) = self.trees.split_first_mut().expect("at least one tree");
            let handles: Vec<_> = rest
                .iter_mut()
                .enumerate()
                .map(|(i, tree)| {
                    let budget = share(i as u64 + 1);
                    s.spawn(move || {
                        tree.set_root(state, oracle);
                        tree.run(deadline, budget, oracle, stop)
                    })
                })
                .collect();
            first.set_root(state, oracle);
            if checks {
                // Every move of the role is tried once first: one that wins
                // at once is then proven and played.
                first.expand_root(role, oracle, deadline);
            }
            let mut total = first.run(deadline, share(0), oracle, stop);
            for h in handles {
                total += h.join().expect("a search thread panicked");
            }
            total
        });
        if clocked {
            self.count_time(started.elapsed());
        }
        match checks_until {
            Some(until) => self.choose_checked(role, oracle, until),
            None => self.choose(role),
        }
    }

    /// The move to play, as [`Mcts::choose`] picks it, once checked
    /// against a reply that ends the game ([`choose_checked_in`]).
    fn choose_checked(&mut self, role: usize, oracle: Option<&Solver>, until: Instant) -> Option<u32> {
        choose_checked_in(&mut self.trees[..self.current], role, oracle, until)
    }

    /// The move to play ([`choose_move`] over the trees' statistics).
    fn choose(&self, role: usize) -> Option<u32> {
        choose_in(&self.trees[..self.current], role)
    }
}

/// The goal each role can count on from the root of `trees`, if one of
/// them proved it.
fn proven_in<R: Reasoner>(trees: &[Tree<R>]) -> Option<Vec<u8>> {
    trees.iter().find_map(|t| t.root_proven()).map(<[u8]>::to_vec)
}

/// The statistics of `role`'s moves at the root of `trees` (grown from one
/// state, by one reasoner's move numbers), added up over the trees.
fn statistics_in<R: Reasoner>(trees: &[Tree<R>], role: usize) -> Vec<MoveStatistics> {
    let mut merged: Vec<MoveReport> = Vec::new();
    for tree in trees {
        let report = tree.report(role);
        if merged.is_empty() {
            merged = report;
            continue;
        }
        for (m, r) in merged.iter_mut().zip(report) {
            debug_assert_eq!(m.mv, r.mv);
            m.visits += r.visits;
            m.total += r.total;
            m.proven = m.proven.or(r.proven);
        }
    }
    statistics_of(merged)
}

/// The move of `role` to play by what `trees` found ([`choose_move`]).
pub(crate) fn choose_in<R: Reasoner>(trees: &[Tree<R>], role: usize) -> Option<u32> {
    choose_move(&statistics_in(trees, role), proven_in(trees).as_deref(), role)
}

/// The move to play, as [`choose_in`] picks it, once the state after it has
/// been checked for a reply that ends the game: every reply is added to the
/// first tree, so that a move after which the next mover can reach its best
/// goal at once (a mate in one against the role), or after which every
/// reply ends the game, is proven, and the choice made again. Stops at
/// `until` with the choice of the moment.
pub(crate) fn choose_checked_in<R: Reasoner>(
    trees: &mut [Tree<R>],
    role: usize,
    oracle: Option<&R::Oracle>,
    until: Instant,
) -> Option<u32> {
    let mut checked = Vec::new();
    loop {
        let mv = choose_in(trees, role)?;
        if checked.contains(&mv) || !trees[0].expand_replies(role, mv, oracle, until) {
            return Some(mv);
        }
        checked.push(mv);
    }
}

/// The statistics of a role's moves from a tree's reports.
fn statistics_of(reports: Vec<MoveReport>) -> Vec<MoveStatistics> {
    reports
        .into_iter()
        .map(|m| MoveStatistics {
            mv: m.mv,
            visits: m.visits,
            mean: if m.visits > 0 { m.total / f64::from(m.visits) } else { 0.0 },
            proven: m.proven,
        })
        .collect()
}

/// The move of `role` to play by the root statistics `stats` of its moves,
/// whatever the reasoner searched: one proven to achieve the role's value
/// `proven` (every role's, when the root is proven), else the most
/// simulated move not proven — unless a proven move is at least as good as
/// its mean.
fn choose_move(stats: &[MoveStatistics], proven: Option<&[u8]>, role: usize) -> Option<u32> {
    if let Some(value) = proven
        && let Some(m) = stats.iter().find(|m| m.proven == value.get(role).copied())
    {
        return Some(m.mv);
    }
    let best_proven = stats.iter().filter(|m| m.proven.is_some()).max_by_key(|m| m.proven);
    let best_open = stats
        .iter()
        .filter(|m| m.proven.is_none())
        .max_by(|a, b| a.visits.cmp(&b.visits).then(a.mean.total_cmp(&b.mean)));
    match (best_proven, best_open) {
        (Some(p), Some(o)) if p.proven.is_some_and(|v| f64::from(v) / 100.0 >= o.mean) => Some(p.mv),
        (_, Some(o)) => Some(o.mv),
        (p, None) => p.map(|p| p.mv),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::Game;

    /// Two roles take turns marking one of sixteen free cells (some 43
    /// million states: far too many to prove in a second); the first role
    /// wins when it holds cell 1. With `double`, the first role may also
    /// mark cells 1 and 2 at once, which takes two cells from the second
    /// role's choices where other moves take one.
    fn cells(double: bool) -> Machine {
        let cells: String = (1..=16).map(|c| format!("(cell {c}) ")).collect();
        let double = if double {
            "(<= (legal a double) (true (control a)) (not (true (marked 1))) (not (true (marked 2))))
             (<= (next (marked 1)) (does a double)) (<= (next (marked 2)) (does a double))
             (<= (next (owner 1 a)) (does a double))"
        } else {
            ""
        };
        let text = format!(
            "(role a) (role b) (init (control a)) {cells}
             (<= (legal ?p (mark ?c)) (true (control ?p)) (cell ?c) (not (true (marked ?c))))
             (<= (legal ?p noop) (role ?p) (not (true (control ?p))))
             (<= (next (marked ?c)) (does ?p (mark ?c))) (<= (next (marked ?c)) (true (marked ?c)))
             (<= (next (owner ?c ?p)) (does ?p (mark ?c))) (<= (next (owner ?c ?p)) (true (owner ?c ?p)))
             (<= (next (control a)) (true (control b))) (<= (next (control b)) (true (control a)))
             {double}
             (<= open (cell ?c) (not (true (marked ?c))))
             (<= terminal (not open))
             (<= (goal a 100) (true (owner 1 a))) (<= (goal a 0) (not (true (owner 1 a))))
             (<= (goal b 0) (true (owner 1 a))) (<= (goal b 100) (not (true (owner 1 a))))"
        );
        Machine::compile(&Game::parse(&text).expect("the game parses")).expect("the game compiles")
    }

    /// A search measured, then asked to search 5 ms: hundreds of playouts
    /// fit, but — the search playing the first role's win far more often
    /// than not — fewer than fifty informative ones, so leaves are valued by
    /// mobility, unless no move ever changed it differently from another,
    /// where the playouts are kept.
    fn evaluation_after_a_short_search(machine: &Machine) -> (LeafEvaluation, PlayoutProfile) {
        let mut mcts = Mcts::new(machine, 3);
        let start = machine.initial_state();
        mcts.search(&start, 0, Instant::now() + Duration::from_millis(700));
        mcts.search(&start, 0, Instant::now() + Duration::from_millis(5));
        (mcts.evaluation(), mcts.profile())
    }

    /// Two roles take turns taking one of their own eight cells, or two
    /// adjacent ones; the game ends when a role has taken all of its own.
    /// With `fewer_win`, that role wins (the side with fewer moves left is
    /// ahead, as in amazonsSuicide); otherwise it loses.
    pub(crate) fn stocks(fewer_win: bool) -> Machine {
        let cells: String = (1..=8).map(|c| format!("(index {c}) ")).collect();
        let succ: String = (1..8).map(|c| format!("(succ {c} {}) ", c + 1)).collect();
        let (out, not_out) = ("(out ?p)", "(not (out ?p))");
        let (winner, loser) = if fewer_win { (out, not_out) } else { (not_out, out) };
        let text = format!(
            "(role a) (role b) (init (control a)) {cells} {succ}
             (<= (legal ?p (take ?c)) (true (control ?p)) (index ?c) (not (true (gone ?p ?c))))
             (<= (legal ?p (take2 ?c)) (true (control ?p)) (succ ?c ?d)
                 (not (true (gone ?p ?c))) (not (true (gone ?p ?d))))
             (<= (legal ?p noop) (role ?p) (not (true (control ?p))))
             (<= (next (gone ?p ?c)) (does ?p (take ?c))) (<= (next (gone ?p ?c)) (does ?p (take2 ?c)))
             (<= (next (gone ?p ?d)) (does ?p (take2 ?c)) (succ ?c ?d))
             (<= (next (gone ?p ?c)) (true (gone ?p ?c)))
             (<= (next (control a)) (true (control b))) (<= (next (control b)) (true (control a)))
             (<= (has ?p) (role ?p) (index ?c) (not (true (gone ?p ?c))))
             (<= (out ?p) (role ?p) (not (has ?p)))
             (<= terminal (out ?p))
             (<= (goal ?p 100) (role ?p) {winner}) (<= (goal ?p 0) (role ?p) {loser})"
        );
        Machine::compile(&Game::parse(&text).expect("the game parses")).expect("the game compiles")
    }

    /// Searches of 3,000 iterations from the start of `machine`, leaves
    /// valued by mobility from the first: after each, whether mobility is
    /// inverted, and the profile.
    fn directions_under_mobility(machine: &Machine) -> Vec<(bool, PlayoutProfile)> {
        let config = MctsConfig { evaluation: LeafEvaluation::Mobility, ..MctsConfig::default() };
        let mut mcts = Mcts::with_config(machine, 11, config);
        let start = machine.initial_state();
        (0..4)
            .map(|_| {
                mcts.search_iterations(&start, 0, 3000);
                (mcts.mobility_inverted(), mcts.profile())
            })
            .collect()
    }

    /// No playout measured mobility before the search valued leaves by it
    /// (before, the way it pointed was then never measured): the share of
    /// playouts the search keeps running shows that fewer moves win where
    /// they do (the oracle: the rules, the first role to run out of moves
    /// wins), and mobility is inverted for the next searches; where more
    /// moves win it stays as it was. Once settled, it is measured no more.
    #[test]
    fn mobility_keeps_being_measured_after_the_switch_and_turns_where_fewer_moves_win() {
        let fewer = directions_under_mobility(&stocks(true));
        let (_, first) = &fewer[0];
        assert_eq!(first.finished(), 0, "measuring playouts are not counted as valuing ones");
        assert!(first.fewer_moves_win() && first.mobility_settled(), "{:?}", first.mobility_correlation());
        for (inverted, profile) in &fewer[1..] {
            assert!(inverted);
            assert_eq!(profile, first, "settled: measured no more");
        }
        let more = directions_under_mobility(&stocks(false));
        let (_, last) = more.last().expect("four searches");
        assert!(last.more_moves_win(), "{:?}", last.mobility_correlation());
        assert!(more.iter().all(|(inverted, _)| !inverted));
    }

    #[test]
    fn mobility_that_no_move_changes_differently_gives_way_to_playouts() {
        let (evaluation, profile) = evaluation_after_a_short_search(&cells(false));
        assert!(profile.informative_share() > 0.0, "{profile:?}");
        assert_eq!(evaluation, LeafEvaluation::Playouts, "{profile:?}");
        let (evaluation, profile) = evaluation_after_a_short_search(&cells(true));
        assert!(profile.informative_share() > 0.0, "{profile:?}");
        assert_eq!(evaluation, LeafEvaluation::Mobility, "{profile:?}");
    }
}
