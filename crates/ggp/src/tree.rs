//! One Monte Carlo search tree — in truth a graph: every state has one node
//! (transpositions share their statistics), found through a table keyed by
//! the state's hash. The tree outlives each move: the next search starts
//! from the node of the state actually reached, and once the tree is large
//! the nodes no longer reachable from it are dropped (freed on another
//! thread, so that no deadline waits for it).
//!
//! An iteration descends from the root choosing a move for each role at each
//! node (decoupled: every role keeps its own statistics per move, so
//! simultaneous moves need nothing special), adds the first new state it
//! reaches, plays it out with the MAST policy (see [`crate::mast`]) and
//! credits every role's return along the way.
//!
//! - Selection is UCB1 with GRAVE (generalised rapid action value
//!   estimation, Cazenave 2015): a move's mean is blended with its
//!   all-moves-as-first mean — how its role fared whenever it played that
//!   move anywhere later in the simulation — taken from the closest node
//!   above with enough simulations to be trusted. A move never tried there
//!   is judged by that estimate alone, so good moves are tried first.
//! - MCTS-Solver (Winands, Björnsson and Saito 2008): terminal states, and
//!   states the exact [`Solver`](crate::Solver) has solved, are proven; a state where one
//!   role chooses is proven once every move is proven, or earlier once the
//!   moves proven so far give the mover its best possible goal and every
//!   other role 0. A proven value is what each role can count on whatever
//!   the others do (its security level, as the solver values states): the
//!   mover its best move's, every other role its worst move's — minimax in
//!   a game of constant sum, and never a goal that depends on an opponent's
//!   goodwill where the sum varies (amazons' double block scores 100 for
//!   both).
//!   Proven states are scored by their exact value instead of playouts; a
//!   move proven worse than another proven move is never chosen again, and
//!   the best proven move competes with the unproven ones by its exact
//!   value — but the unproven moves together get at least as many
//!   simulations as the proven ones (see [`starved_move`]), else a move
//!   that looked bad early would wait for UCB1's logarithmic exploration
//!   and neither it nor its state would get proven in any search of
//!   reasonable length.
//! - Leaf evaluation ([`LeafEvaluation`]): a new leaf is played out to the
//!   end, or — where the search has found playouts uninformative within a
//!   move's time — valued by mobility ([`MobilityWindow`]) over the last
//!   states of the descent. The playouts run to the end are recorded
//!   ([`PlayoutProfile`]) for that choice; under mobility, while the
//!   playouts have not settled whether more or fewer moves win, a share of
//!   the new leaves (a fifth of the states visited) is also played out to
//!   the end to measure it, so that the decision rests on the playouts of
//!   the whole match rather than of its first half second.
//!
//! The tree asks its questions of a [`Reasoner`]: the compiled machine's
//! evaluator, or the reference prover for a game not compiled (yet). It is
//! generic over it, so the machine's questions are inlined as if the tree
//! were written for it alone. A prover's reasoner stops answering at its
//! deadline or cancellation, even midway through a question
//! ([`Reasoner::expired`]); the iteration it interrupts is dropped, leaving
//! no node behind.

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::hash::{BuildWordHasher, FastMap};
use crate::leaf_evaluation::LeafEvaluation;
use crate::mast::Mast;
use crate::mcts::MctsConfig;
use crate::mobility::{MobilityWindow, SiblingMobility};
use crate::playout_profile::PlayoutProfile;
use crate::reasoner::Reasoner;
use crate::solver::{fold_security_levels, is_settled};
use crate::watch::DeadlineWatch;

/// No node.
const NONE: u32 = u32::MAX;
/// Longest playout, in transitions.
const MAX_PLAYOUT: usize = 10_000;
/// Deepest descent through the tree (a game whose states repeat can cycle).
const MAX_DESCENT: usize = 1_000;
/// Most joint moves a node keeps in a dense child array.
const DENSE_CHILDREN: usize = 4096;
/// Under the mobility evaluation, while the way mobility points is not
/// settled: the share of the states visited that go to playouts to the end
/// measuring it (the rest to new leaves valued by mobility).
const MEASURING_SHARE: f64 = 0.2;

/// Simulations through a move and the sum of its role's returns.
#[derive(Debug, Clone, Copy, Default)]
struct Stat {
    visits: u32,
    total: f64,
}

/// All-moves-as-first record of a move.
#[derive(Debug, Clone, Copy, Default)]
struct Amaf {
    visits: u32,
    total: f32,
}

/// Who chooses in a state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Terminal, or a role has no legal move: the play ends here.
    End,
    /// Every role has a single legal move.
    Forced,
    /// Exactly one role has a choice.
    Turn(u16),
    /// Several roles choose at once.
    Simultaneous,
}

/// The children of a node, by joint-move number (the mixed-radix number of
/// each role's choice).
enum Children {
    Dense(Box<[u32]>),
    Sparse(FastMap<u64, u32>),
}

impl Children {
    fn new(joints: usize) -> Children {
        if joints <= DENSE_CHILDREN {
            Children::Dense(vec![NONE; joints].into_boxed_slice())
        } else {
            Children::Sparse(FastMap::default())
        }
    }

    fn get(&self, key: u64) -> u32 {
        match self {
            Children::Dense(v) => v[key as usize],
            Children::Sparse(m) => m.get(&key).copied().unwrap_or(NONE),
        }
    }

    fn set(&mut self, key: u64, child: u32) {
        match self {
            Children::Dense(v) => v[key as usize] = child,
            Children::Sparse(m) => {
                m.insert(key, child);
            }
        }
    }

    /// The bytes its links take on the heap.
    fn bytes(&self) -> usize {
        match self {
            Children::Dense(v) => std::mem::size_of_val(&**v),
            Children::Sparse(m) => m.capacity() * (std::mem::size_of::<(u64, u32)>() + 1),
        }
    }

    /// One of the children, if any.
    fn any(&self) -> Option<u32> {
        match self {
            Children::Dense(v) => v.iter().copied().find(|&c| c != NONE),
            Children::Sparse(m) => m.values().next().copied(),
        }
    }

    fn for_each_mut(&mut self, mut f: impl FnMut(&mut u32)) {
        match self {
            Children::Dense(v) => v.iter_mut().filter(|c| **c != NONE).for_each(&mut f),
            Children::Sparse(m) => m.values_mut().for_each(f),
        }
    }
}

struct Node<S> {
    state: S,
    hash: u64,
    kind: Kind,
    /// Role `r`'s legal moves are `legal[offsets[r]..offsets[r + 1]]`.
    offsets: Box<[u32]>,
    legal: Box<[u32]>,
    /// Parallel to `legal`.
    stats: Box<[Stat]>,
    visits: u32,
    children: Children,
    /// Children known to be proven (only counted where one role chooses).
    proven_children: u32,
    /// The goal each role can count on from here whatever the others do,
    /// once proven (terminal states are proven by their goals; see
    /// [`fold_security_levels`]).
    proven: Option<Box<[u8]>>,
    /// Per role, per move number: all-moves-as-first records, kept once
    /// the node has enough simulations.
    amaf: Option<Box<[Box<[Amaf]>]>>,
}

impl<S> Node<S> {
    fn moves(&self, role: usize) -> std::ops::Range<usize> {
        self.offsets[role] as usize..self.offsets[role + 1] as usize
    }
}

/// One step of a descent: the node, where its roles' choices start in the
/// choice list, where the moves played from it start in the trace, and the
/// joint move's number.
#[derive(Clone, Copy)]
struct Step {
    node: u32,
    choices: u32,
    trace: u32,
    key: u64,
}

/// What the root's search found for one move of a role.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct MoveReport {
    pub(crate) mv: u32,
    pub(crate) visits: u32,
    pub(crate) total: f64,
    /// The role's exact goal after this move, when proven (only where the
    /// role alone chooses).
    pub(crate) proven: Option<u8>,
}

/// One search tree with its own reasoner (the compiled machine's
/// [`Evaluator`](crate::Evaluator), or the prover), random generator and MAST
/// table.
pub(crate) struct Tree<R: Reasoner> {
    config: MctsConfig,
    eval: R,
    rng: SmallRng,
    mast: Mast,
    nodes: Vec<Node<R::State>>,
    /// Nodes by the hash of their state (a state whose hash is taken by
    /// another state, which in practice never happens, gets a node
    /// outside the table).
    table: FastMap<u64, u32>,
    hasher: BuildWordHasher,
    root: u32,
    /// The bytes the nodes hold, as [`Tree::node_bytes`] counts them, kept
    /// up to date as nodes are made and grow (bounded by
    /// [`MctsConfig::max_bytes`]).
    bytes: usize,
    // Scratch space of one iteration.
    path: Vec<Step>,
    choices: Vec<u32>,
    trace: Vec<(u16, u32)>,
    joint: Vec<u32>,
    rewards: Vec<f64>,
    legal: Vec<u32>,
    /// The deadline of the current run, read within playouts too.
    watch: DeadlineWatch,
    /// How new leaves are valued: [`LeafEvaluation::Playouts`] or
    /// [`LeafEvaluation::Mobility`].
    evaluation: LeafEvaluation,
    /// The outcomes of the playouts run to the end.
    profile: PlayoutProfile,
    /// Mobility evaluation: the legal-move counts of the last states of the
    /// current descent.
    window: MobilityWindow,
    /// Scratch: each role's legal-move count in one state.
    counts: Vec<u32>,
    /// Scratch: each role's goal at the end of a playout.
    outcome: Vec<u8>,
    /// What sibling states have shown of mobility ([`Tree::siblings`]).
    siblings: SiblingMobility,
    /// Under mobility, a share of the new leaves is also played out to the
    /// end to measure which way mobility points ([`MEASURING_SHARE`]).
    measuring: bool,
    /// States visited by the mobility evaluation of new leaves (each leaf
    /// and the plies played from it).
    mobility_states: u64,
    /// States visited by the playouts measuring mobility.
    measured_states: u64,
}

impl<R: Reasoner> Tree<R> {
    /// An empty tree searching with `reasoner`.
    pub(crate) fn new(reasoner: R, config: &MctsConfig, seed: u64) -> Tree<R> {
        let roles = reasoner.roles();
        Tree {
            config: config.clone(),
            mast: Mast::new(&reasoner, config.mast, config.mast_temperature),
            eval: reasoner,
            rng: SmallRng::seed_from_u64(seed),
            nodes: Vec::new(),
            table: FastMap::default(),
            hasher: BuildWordHasher::default(),
            root: NONE,
            bytes: 0,
            path: Vec::new(),
            choices: Vec::new(),
            trace: Vec::new(),
            joint: Vec::new(),
            rewards: vec![0.0; roles],
            legal: Vec::new(),
            watch: DeadlineWatch::new(Instant::now()),
            evaluation: LeafEvaluation::Playouts,
            profile: PlayoutProfile::default(),
            window: MobilityWindow::new(roles),
            counts: vec![0; roles],
            outcome: vec![0; roles],
            siblings: SiblingMobility::default(),
            measuring: false,
            mobility_states: 0,
            measured_states: 0,
        }
    }

    /// Values new leaves by `evaluation` from now on
    /// ([`LeafEvaluation::Playouts`] or [`LeafEvaluation::Mobility`]; `Auto`
    /// counts as playouts).
    pub(crate) fn set_evaluation(&mut self, evaluation: LeafEvaluation) {
        self.evaluation = evaluation;
    }

    /// Whether the mobility evaluation counts fewer moves as better (see
    /// [`MobilityWindow::set_inverted`]).
    pub(crate) fn set_mobility_inverted(&mut self, inverted: bool) {
        self.window.set_inverted(inverted);
    }

    /// Whether, under the mobility evaluation, a share of the new leaves is
    /// also played out to the end to measure which way mobility points (off
    /// by default).
    pub(crate) fn set_measuring(&mut self, measuring: bool) {
        self.measuring = measuring;
    }

    /// The outcomes of the playouts this tree ran to the end.
    pub(crate) fn profile(&self) -> &PlayoutProfile {
        &self.profile
    }

    /// What the states made so far have shown of mobility: pairs of
    /// siblings compared, and how many differed in legal-move counts.
    pub(crate) fn siblings(&self) -> SiblingMobility {
        self.siblings
    }

    /// Compares `child`, just made below `parent` and not linked yet, with
    /// a sibling already there (if any).
    fn compare_sibling(&mut self, parent: u32, child: u32) {
        let Some(sibling) = self.nodes[parent as usize].children.any() else { return };
        let (a, b) = (&self.nodes[sibling as usize], &self.nodes[child as usize]);
        if a.kind != Kind::End && b.kind != Kind::End {
            self.siblings.compare(&a.offsets, &b.offsets);
        }
    }

    /// The number of roles.
    pub(crate) fn roles(&self) -> usize {
        self.rewards.len()
    }

    /// The reasoner (to name the moves it numbered).
    pub(crate) fn reasoner(&self) -> &R {
        &self.eval
    }

    /// The reasoner, to change between searches (a prover's limits) or to
    /// ask it about other states (a prover following the match); its
    /// current state is loaded again before every question of the search.
    pub(crate) fn reasoner_mut(&mut self) -> &mut R {
        &mut self.eval
    }

    /// The simulations that went through the root, over every search since
    /// its node was made (kept when the tree is reused); 0 without a root.
    #[cfg(test)]
    pub(crate) fn root_visits(&self) -> u32 {
        self.nodes.get(self.root as usize).map_or(0, |n| n.visits)
    }

    /// The simulations that went through the node of `state`, if it is in
    /// the tree.
    #[cfg(test)]
    pub(crate) fn visits_of(&self, state: &R::State) -> Option<u32> {
        self.find(state, self.hasher.hash_one(state)).map(|n| self.nodes[n as usize].visits)
    }

    /// Nodes in the tree.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Forgets everything searched. A large tree is freed on another thread:
    /// freeing hundreds of thousands of nodes takes longer than a deadline
    /// can wait.
    pub(crate) fn clear(&mut self) {
        let old = std::mem::replace(&mut self.nodes, Vec::with_capacity(self.config.max_nodes));
        discard(old);
        self.table.clear();
        self.root = NONE;
        self.bytes = 0;
    }

    /// The node of `state`, if in the tree.
    fn find(&self, state: &R::State, hash: u64) -> Option<u32> {
        self.table.get(&hash).copied().filter(|&n| self.nodes[n as usize].state == *state)
    }

    /// Makes `state` the root, keeping what was searched below it when the
    /// tree is reused (and forgetting the rest once the tree gets large),
    /// or starting afresh.
    pub(crate) fn set_root(&mut self, state: &R::State, oracle: Option<&R::Oracle>) {
        if self.nodes.capacity() == 0 {
            // Room for the largest tree at once: growing a vector or a table
            // of a million entries copies them all, long enough to overrun
            // a deadline. Untouched, the room costs address space only.
            self.nodes.reserve_exact(self.config.max_nodes);
            self.table.reserve(self.config.max_nodes);
        }
        if !self.config.reuse {
            self.clear();
        }
        let hash = self.hasher.hash_one(state);
        match self.find(state, hash) {
            Some(node) => {
                self.root = node;
                if self.nodes.len() > self.config.max_nodes / 4 || self.bytes > self.config.max_bytes / 4 {
                    self.collect_garbage();
                }
            }
            None => {
                self.clear();
                self.eval.load(state);
                self.root = self.make_node(state.clone(), hash, oracle).unwrap_or(NONE);
            }
        }
        self.mast.decay(0.5);
    }

    /// Keeps only the nodes reachable from the root (the others are freed
    /// on another thread).
    fn collect_garbage(&mut self) {
        let mut reachable = vec![false; self.nodes.len()];
        reachable[self.root as usize] = true;
        let mut todo = vec![self.root];
        let mut found = Vec::new();
        while let Some(node) = todo.pop() {
            found.clear();
            self.nodes[node as usize].children.for_each_mut(|c| found.push(*c));
            for &c in &found {
                if !reachable[c as usize] {
                    reachable[c as usize] = true;
                    todo.push(c);
                }
            }
        }
        // The nodes kept move up to the tail, in order, and from there to a
        // new vector (moving only them); the others are freed with the old
        // one.
        let first = self.nodes.len() - reachable.iter().filter(|&&k| k).count();
        let mut remap = vec![NONE; self.nodes.len()];
        let mut place = self.nodes.len();
        for (i, &keep) in reachable.iter().enumerate().rev() {
            if keep {
                place -= 1;
                self.nodes.swap(place, i);
                remap[i] = (place - first) as u32;
            }
        }
        let mut old = std::mem::replace(&mut self.nodes, Vec::with_capacity(self.config.max_nodes));
        self.nodes.extend(old.drain(first..));
        discard(old);
        self.table.clear();
        for (i, node) in self.nodes.iter_mut().enumerate() {
            node.children.for_each_mut(|c| *c = remap[*c as usize]);
            self.table.insert(node.hash, i as u32);
        }
        self.root = remap[self.root as usize];
        self.bytes = self.nodes.iter().map(Self::node_bytes).sum();
    }

    /// The bytes `node` holds, with its entry in the table: an estimate of
    /// its memory (allocators round up) that grows with it.
    fn node_bytes(node: &Node<R::State>) -> usize {
        let amaf = node.amaf.as_ref().map_or(0, |roles| {
            roles.iter().map(|moves| std::mem::size_of_val(&**moves) + std::mem::size_of::<Box<[Amaf]>>()).sum()
        });
        std::mem::size_of::<Node<R::State>>()
            + std::mem::size_of::<(u64, u32)>()
            + 1
            + R::state_bytes(&node.state)
            + std::mem::size_of_val(&*node.offsets)
            + std::mem::size_of_val(&*node.legal)
            + std::mem::size_of_val(&*node.stats)
            + node.children.bytes()
            + node.proven.as_ref().map_or(0, |p| p.len())
            + amaf
    }

    /// The bytes a node's all-moves-as-first records take when made now:
    /// a record per move `reasoner` has numbered, per role.
    fn amaf_bytes(reasoner: &R) -> usize {
        (0..reasoner.roles())
            .map(|r| reasoner.move_count(r) * std::mem::size_of::<Amaf>() + std::mem::size_of::<Box<[Amaf]>>())
            .sum()
    }

    /// Whether the tree has no room for another node: [`MctsConfig::max_nodes`]
    /// nodes, or [`MctsConfig::max_bytes`] bytes.
    fn is_full(&self) -> bool {
        self.nodes.len() >= self.config.max_nodes || self.bytes >= self.config.max_bytes
    }

    /// The root's proven value, if any.
    pub(crate) fn root_proven(&self) -> Option<&[u8]> {
        self.nodes.get(self.root as usize).and_then(|n| n.proven.as_deref())
    }

    /// The root's figures for each legal move of `role`.
    pub(crate) fn report(&self, role: usize) -> Vec<MoveReport> {
        let Some(root) = self.nodes.get(self.root as usize) else { return Vec::new() };
        let alone = root.kind == Kind::Turn(role as u16);
        root.moves(role)
            .enumerate()
            .map(|(i, k)| {
                let proven = if alone {
                    let child = root.children.get(i as u64);
                    (child != NONE).then(|| self.nodes[child as usize].proven.as_ref().map(|p| p[role])).flatten()
                } else {
                    None
                };
                MoveReport { mv: root.legal[k], visits: root.stats[k].visits, total: root.stats[k].total, proven }
            })
            .collect()
    }

    /// Runs iterations until `deadline`, `budget` iterations, the root is
    /// proven, the reasoner expires, or `stop` is raised (this tree raises
    /// it when it proves the root); returns how many ran.
    pub(crate) fn run(
        &mut self,
        deadline: Instant,
        budget: u64,
        oracle: Option<&R::Oracle>,
        stop: Option<&AtomicBool>,
    ) -> u64 {
        self.watch = DeadlineWatch::new(deadline);
        let mut done = 0;
        if self.root == NONE {
            return 0;
        }
        while done < budget
            && Instant::now() < deadline
            && !self.eval.expired()
            && !stop.is_some_and(|s| s.load(Ordering::Relaxed))
        {
            if self.root_proven().is_some() {
                if let Some(stop) = stop {
                    stop.store(true, Ordering::Relaxed);
                }
                break;
            }
            self.iterate(oracle);
            done += 1;
        }
        done
    }

    /// Where `role` alone chooses at the root, adds the state after its move
    /// `mv` and every state the next mover can reach from there, so that a
    /// reply that gives the next mover its best goal at once (a mate in one
    /// against the role) is proven, and the move with it. `false` when `deadline` passed first, the tree
    /// is full, or the move is not one of the root's.
    pub(crate) fn expand_replies(
        &mut self,
        role: usize,
        mv: u32,
        oracle: Option<&R::Oracle>,
        deadline: Instant,
    ) -> bool {
        let Some(root) = self.nodes.get(self.root as usize) else { return false };
        if root.kind != Kind::Turn(role as u16) {
            return false;
        }
        let Some(i) = root.legal[root.moves(role)].iter().position(|&m| m == mv) else { return false };
        let Some(child) = self.expand_child(self.root, i as u64, oracle) else { return false };
        let n = &self.nodes[child as usize];
        let replies = match n.kind {
            Kind::Turn(mover) => n.moves(mover as usize).len(),
            Kind::Forced => 1,
            Kind::End | Kind::Simultaneous => return true,
        };
        for key in 0..replies as u64 {
            if self.nodes[child as usize].proven.is_some() {
                break;
            }
            if Instant::now() >= deadline || self.expand_child(child, key, oracle).is_none() {
                return false;
            }
        }
        if self.config.solver && self.nodes[child as usize].proven.is_some() {
            self.try_prove(self.root);
        }
        true
    }

    /// Where `role` alone chooses at the root, adds the state after each of
    /// its moves, so that a move that ends the game (a mate in one) is
    /// proven before the search weighs the others. `false` when `deadline`
    /// passed first or the tree is full.
    pub(crate) fn expand_root(&mut self, role: usize, oracle: Option<&R::Oracle>, deadline: Instant) -> bool {
        let Some(root) = self.nodes.get(self.root as usize) else { return false };
        if root.kind != Kind::Turn(role as u16) {
            return true;
        }
        for key in 0..root.moves(role).len() as u64 {
            if self.nodes[self.root as usize].proven.is_some() {
                break;
            }
            if Instant::now() >= deadline || self.expand_child(self.root, key, oracle).is_none() {
                return false;
            }
        }
        true
    }

    /// The child of `node` by the joint move numbered `key` where at most one
    /// role chooses (its move's index), added if new; `None` when the tree
    /// is full or the reasoner has expired.
    fn expand_child(&mut self, node: u32, key: u64, oracle: Option<&R::Oracle>) -> Option<u32> {
        let n = &self.nodes[node as usize];
        let known = n.children.get(key);
        if known != NONE {
            return Some(known);
        }
        self.joint.clear();
        for r in 0..self.roles() {
            let range = n.moves(r);
            let choice = if range.len() > 1 { key as usize } else { 0 };
            self.joint.push(n.legal[range.start + choice]);
        }
        self.eval.load(&n.state);
        self.eval.advance(&self.joint);
        if self.eval.expired() {
            return None;
        }
        let state = self.eval.state();
        let hash = self.hasher.hash_one(&state);
        let child = match self.find(&state, hash) {
            Some(found) => found,
            None if self.is_full() => return None,
            None => {
                let child = self.make_node(state, hash, oracle)?;
                self.compare_sibling(node, child);
                child
            }
        };
        self.link(node, key, child);
        Some(child)
    }

    /// A node for `state` (whose hash is `hash`), which the reasoner holds;
    /// `None` (and no node) when the reasoner expired meanwhile.
    fn make_node(&mut self, state: R::State, hash: u64, oracle: Option<&R::Oracle>) -> Option<u32> {
        let roles = self.roles();
        let mut offsets = Vec::with_capacity(roles + 1);
        let mut legal = Vec::new();
        let mut kind = if self.eval.is_terminal() { Kind::End } else { Kind::Forced };
        if kind != Kind::End {
            offsets.push(0);
            for r in 0..roles {
                self.eval.legal_moves(r, &mut self.legal);
                if self.legal.is_empty() {
                    kind = Kind::End;
                    break;
                }
                if self.legal.len() > 1 {
                    kind = if kind == Kind::Forced { Kind::Turn(r as u16) } else { Kind::Simultaneous };
                }
                legal.extend_from_slice(&self.legal);
                offsets.push(legal.len() as u32);
            }
        }
        if self.eval.expired() {
            return None;
        }
        let mut proven = None;
        if kind == Kind::End {
            offsets = vec![0; roles + 1];
            legal.clear();
            proven = Some((0..roles).map(|r| self.eval.goal(r).unwrap_or(0)).collect());
            if self.eval.expired() {
                // The goals were not answered: no node, rather than one
                // proven by placeholders.
                return None;
            }
        } else if self.config.solver {
            proven = oracle.and_then(|o| R::known(o, &state)).map(Box::from);
        }
        let joints = offsets.windows(2).map(|w| (w[1] - w[0]) as usize).try_fold(1usize, |a, b| a.checked_mul(b));
        let children = Children::new(if kind == Kind::End { 0 } else { joints.unwrap_or(usize::MAX) });
        let id = self.nodes.len() as u32;
        self.table.entry(hash).or_insert(id);
        self.nodes.push(Node {
            state,
            hash,
            kind,
            offsets: offsets.into_boxed_slice(),
            stats: vec![Stat::default(); legal.len()].into_boxed_slice(),
            legal: legal.into_boxed_slice(),
            visits: 0,
            children,
            proven_children: 0,
            proven,
            amaf: None,
        });
        self.bytes += Self::node_bytes(&self.nodes[id as usize]);
        Some(id)
    }

    /// Chooses each role's move at `node` (pushed to `choices` as indices
    /// into the role's legal moves), judging unknown moves by the
    /// all-moves-as-first records of `reference`.
    fn select(&mut self, node: u32, reference: u32) {
        let n = &self.nodes[node as usize];
        let roles = n.offsets.len() - 1;
        let log_n = f64::from(n.visits.max(1)).ln();
        let amaf =
            if self.config.grave { self.nodes.get(reference as usize).and_then(|r| r.amaf.as_ref()) } else { None };
        for r in 0..roles {
            let range = n.moves(r);
            if range.len() == 1 {
                self.choices.push(0);
                continue;
            }
            let alone = n.kind == Kind::Turn(r as u16) && n.proven_children > 0;
            // Where the role alone chooses, a move proven worse than another
            // proven move is never taken again; the others are scored by
            // their exact value (a certain arm: it still gets its exploration
            // share, so that the uncertain moves get theirs and are proven
            // in turn).
            let proven_value = |i: usize| -> Option<u8> {
                let child = n.children.get(i as u64);
                (child != NONE).then(|| self.nodes[child as usize].proven.as_ref().map(|p| p[r])).flatten()
            };
            if alone && let Some(starved) = starved_move(n, r, |i| proven_value(i).is_some()) {
                self.choices.push(starved);
                continue;
            }
            let floor = if alone { range.clone().enumerate().filter_map(|(i, _)| proven_value(i)).max() } else { None };
            let (mut best, mut best_score, mut ties) = (0u32, f64::NEG_INFINITY, 0u32);
            for (i, k) in range.enumerate() {
                let score = match alone.then(|| proven_value(i)).flatten() {
                    Some(value) if Some(value) < floor => continue,
                    Some(value) => {
                        let v = f64::from(n.stats[k].visits);
                        f64::from(value) / 100.0 + self.config.exploration * (log_n / (v + 1.0)).sqrt()
                    }
                    _ => {
                        let s = n.stats[k];
                        let a = amaf.and_then(|a| a[r].get(n.legal[k] as usize).copied()).unwrap_or_default();
                        if s.visits == 0 && a.visits == 0 {
                            f64::INFINITY
                        } else {
                            let v = f64::from(s.visits);
                            let mean = if s.visits > 0 { s.total / v } else { 0.0 };
                            let value = if a.visits > 0 {
                                let av = f64::from(a.visits);
                                let beta = av / (av + v + self.config.grave_bias * av * v);
                                (1.0 - beta) * mean + beta * f64::from(a.total) / av
                            } else {
                                mean
                            };
                            value + self.config.exploration * (log_n / (v + 1.0)).sqrt()
                        }
                    }
                };
                if score > best_score {
                    (best, best_score, ties) = (i as u32, score, 1);
                } else if score == best_score {
                    ties += 1;
                    if self.rng.random_range(0..ties) == 0 {
                        best = i as u32;
                    }
                }
            }
            self.choices.push(best);
        }
    }

    /// Tries to prove `node` from its children.
    fn try_prove(&mut self, node: u32) {
        let n = &self.nodes[node as usize];
        if n.proven.is_some() {
            return;
        }
        let proof = match n.kind {
            Kind::Forced => {
                let child = n.children.get(0);
                (child != NONE).then(|| self.nodes[child as usize].proven.clone()).flatten()
            }
            Kind::Turn(mover) => {
                let m = mover as usize;
                let max = self.eval.max_goal(m);
                // What each role can count on: the mover its best child, every
                // other role its worst (see [`fold_security_levels`]); settled
                // early once no other child can change that.
                let mut levels: Option<Box<[u8]>> = None;
                let mut all = true;
                let mut settled = false;
                let mut proven_children = 0;
                for i in 0..n.moves(m).len() {
                    let child = n.children.get(i as u64);
                    match (child != NONE).then(|| self.nodes[child as usize].proven.as_deref()).flatten() {
                        Some(value) => {
                            proven_children += 1;
                            let levels = levels.get_or_insert_with(|| Box::from(value));
                            fold_security_levels(levels, value, m);
                            if is_settled(levels, m, max) {
                                settled = true;
                                break;
                            }
                        }
                        None => all = false,
                    }
                }
                self.nodes[node as usize].proven_children = proven_children;
                if all || settled { levels } else { None }
            }
            Kind::End | Kind::Simultaneous => None,
        };
        let bytes = |proven: &Option<Box<[u8]>>| proven.as_ref().map_or(0, |p| p.len());
        let was = std::mem::replace(&mut self.nodes[node as usize].proven, proof);
        self.bytes = self.bytes + bytes(&self.nodes[node as usize].proven) - bytes(&was);
    }

    /// One descent, expansion, playout and update.
    fn iterate(&mut self, oracle: Option<&R::Oracle>) {
        self.path.clear();
        self.choices.clear();
        self.trace.clear();
        let roles = self.roles();
        let mut node = self.root;
        let mut reference = NONE;
        let mut leaf = NONE;
        let mobility = self.evaluation == LeafEvaluation::Mobility;
        if mobility {
            self.window.clear();
        }
        loop {
            if mobility {
                self.push_node_mobility(node);
            }
            if let Some(value) = &self.nodes[node as usize].proven {
                for (r, &v) in value.iter().enumerate() {
                    self.rewards[r] = f64::from(v) / 100.0;
                }
                break;
            }
            if self.path.len() >= MAX_DESCENT {
                self.eval.load(&self.nodes[node as usize].state);
                if !self.play_out() {
                    return;
                }
                break;
            }
            if self.nodes[node as usize].amaf.is_some() {
                reference = node;
            }
            let first = self.choices.len();
            let trace = self.trace.len() as u32;
            self.select(node, reference);
            let n = &self.nodes[node as usize];
            let mut key = 0u64;
            self.joint.clear();
            for r in 0..roles {
                let range = n.moves(r);
                let c = self.choices[first + r];
                key = key.wrapping_mul(range.len() as u64).wrapping_add(u64::from(c));
                let mv = n.legal[range.start + c as usize];
                self.joint.push(mv);
                if range.len() > 1 {
                    self.trace.push((r as u16, mv));
                }
            }
            self.path.push(Step { node, choices: first as u32, trace, key });
            let child = n.children.get(key);
            if child != NONE {
                node = child;
                continue;
            }
            self.eval.load(&n.state);
            self.eval.advance(&self.joint);
            if self.eval.expired() {
                return;
            }
            let state = self.eval.state();
            let hash = self.hasher.hash_one(&state);
            if let Some(known) = self.find(&state, hash) {
                self.link(node, key, known);
                node = known;
                continue;
            }
            if self.is_full() {
                if !self.play_out() {
                    return;
                }
                break;
            }
            let Some(child) = self.make_node(state, hash, oracle) else { return };
            self.compare_sibling(node, child);
            self.link(node, key, child);
            leaf = child;
            if mobility {
                self.push_node_mobility(child);
            }
            match &self.nodes[child as usize].proven {
                Some(value) => {
                    for (r, &v) in value.iter().enumerate() {
                        self.rewards[r] = f64::from(v) / 100.0;
                    }
                }
                None => {
                    if !self.play_out() {
                        return;
                    }
                }
            }
            break;
        }
        self.update(leaf);
    }

    fn link(&mut self, parent: u32, key: u64, child: u32) {
        let children = &mut self.nodes[parent as usize].children;
        let before = children.bytes();
        children.set(key, child);
        self.bytes += children.bytes() - before;
        if self.config.solver && self.nodes[child as usize].proven.is_some() {
            self.try_prove(parent);
        }
    }

    /// Values the evaluator's state (a new leaf, or a state beyond the tree's
    /// room) by the current evaluation; the returns go to `rewards`. `false`
    /// when the deadline cut the work short (nothing to credit).
    fn play_out(&mut self) -> bool {
        if self.evaluation == LeafEvaluation::Mobility {
            if !self.evaluate_mobility() {
                return false;
            }
            if self.measuring_due() {
                self.measure_mobility();
            }
            return true;
        }
        if !self.mast.playout(&mut self.eval, &mut self.rng, MAX_PLAYOUT, &mut self.trace, &mut self.watch) {
            return false;
        }
        for r in 0..self.rewards.len() {
            let goal = self.eval.goal(r).unwrap_or(0);
            self.outcome[r] = goal;
            self.rewards[r] = f64::from(goal) / 100.0;
        }
        if self.eval.expired() {
            // The goals were not answered: nothing to credit.
            return false;
        }
        self.profile.record(&self.outcome);
        self.profile.record_mobility(self.mast.moves_seen(), &self.outcome);
        true
    }

    /// Whether the next playout measuring mobility is due: measuring is on
    /// and its playouts have visited at most their share of the states.
    fn measuring_due(&self) -> bool {
        let total = self.measured_states + self.mobility_states;
        self.measuring && self.measured_states as f64 <= MEASURING_SHARE * total as f64
    }

    /// Plays on from the evaluator's state to the end of the game to
    /// measure which way mobility points: the playout is recorded in the
    /// profile with its mobility, and credits nothing (the leaf keeps its
    /// mobility value; its moves are left out of the MAST and GRAVE
    /// records).
    fn measure_mobility(&mut self) {
        if self.eval.is_terminal() {
            return;
        }
        let before = self.trace.len();
        let finished = self.mast.playout(&mut self.eval, &mut self.rng, MAX_PLAYOUT, &mut self.trace, &mut self.watch);
        self.measured_states += (self.trace.len() - before) as u64 + 1;
        self.trace.truncate(before);
        if !finished {
            return;
        }
        for r in 0..self.outcome.len() {
            self.outcome[r] = self.eval.goal(r).unwrap_or(0);
        }
        if !self.eval.expired() {
            self.profile.record_mobility(self.mast.moves_seen(), &self.outcome);
        }
    }

    /// A short playout (`evaluation_depth` plies of the MAST policy) from
    /// the evaluator's state, then the mobility evaluation of the states
    /// reached (exact goals where the playout ends the game).
    fn evaluate_mobility(&mut self) -> bool {
        let roles = self.rewards.len();
        self.mobility_states += 1 + self.config.evaluation_depth as u64;
        for _ in 0..self.config.evaluation_depth {
            if self.eval.is_terminal() {
                break;
            }
            if !self.mast.playout(&mut self.eval, &mut self.rng, 1, &mut self.trace, &mut self.watch) {
                return false;
            }
            for r in 0..roles {
                self.eval.legal_moves(r, &mut self.legal);
                self.counts[r] = self.legal.len() as u32;
            }
            self.window.push(&self.counts);
            if self.counts.contains(&0) {
                break;
            }
        }
        if self.eval.expired() {
            return false;
        }
        if self.eval.is_terminal() || (0..roles).any(|r| !self.has_legal_move(r)) {
            for r in 0..roles {
                self.rewards[r] = f64::from(self.eval.goal(r).unwrap_or(0)) / 100.0;
            }
        } else {
            self.window.values_into(&mut self.rewards);
        }
        !self.eval.expired()
    }

    /// Whether `role` has a legal move in the evaluator's state.
    fn has_legal_move(&mut self, role: usize) -> bool {
        self.eval.legal_moves(role, &mut self.legal);
        !self.legal.is_empty()
    }

    /// Adds `node`'s legal-move counts to the mobility window.
    fn push_node_mobility(&mut self, node: u32) {
        let n = &self.nodes[node as usize];
        for (r, c) in self.counts.iter_mut().enumerate() {
            *c = n.offsets[r + 1] - n.offsets[r];
        }
        self.window.push(&self.counts);
    }

    /// Credits the returns along the path, proves what can be proven, and
    /// feeds the MAST and GRAVE records.
    fn update(&mut self, leaf: u32) {
        if leaf != NONE {
            self.nodes[leaf as usize].visits += 1;
        }
        let roles = self.rewards.len();
        for i in (0..self.path.len()).rev() {
            let step = self.path[i];
            let n = &mut self.nodes[step.node as usize];
            n.visits += 1;
            for r in 0..roles {
                let k = n.offsets[r] as usize + self.choices[step.choices as usize + r] as usize;
                n.stats[k].visits += 1;
                n.stats[k].total += self.rewards[r];
            }
            if self.config.grave {
                match &mut n.amaf {
                    Some(amaf) => {
                        for &(r, mv) in &self.trace[step.trace as usize..] {
                            let moves = &mut amaf[r as usize];
                            if mv as usize >= moves.len() {
                                // A move the reasoner numbered after the
                                // records were made.
                                let mut grown = std::mem::take(moves).into_vec();
                                let before = grown.len();
                                grown.resize(self.eval.move_count(r as usize).max(mv as usize + 1), Amaf::default());
                                self.bytes += (grown.len() - before) * std::mem::size_of::<Amaf>();
                                *moves = grown.into_boxed_slice();
                            }
                            let a = &mut moves[mv as usize];
                            a.visits += 1;
                            a.total += self.rewards[r as usize] as f32;
                        }
                    }
                    // Made only where they fit within the bound: a record
                    // per move the game numbers can outweigh a node many
                    // times (amazonsTorus: 1 MB per role, a node about 90 kB).
                    None if n.visits >= self.config.grave_ref
                        && self.bytes + Self::amaf_bytes(&self.eval) <= self.config.max_bytes =>
                    {
                        let amaf: Box<[Box<[Amaf]>]> =
                            (0..roles).map(|r| vec![Amaf::default(); self.eval.move_count(r)].into()).collect();
                        self.bytes += amaf.iter().map(|moves| std::mem::size_of_val(&**moves)).sum::<usize>()
                            + roles * std::mem::size_of::<Box<[Amaf]>>();
                        n.amaf = Some(amaf);
                    }
                    None => {}
                }
            }
            if self.config.solver && n.proven.is_none() {
                let child = n.children.get(step.key);
                if child != NONE && self.nodes[child as usize].proven.is_some() {
                    self.try_prove(step.node);
                }
            }
        }
        self.mast.update(&self.trace, &self.rewards);
    }
}

/// Proof liveness: where `role` alone chooses at `node` and some of its
/// moves are proven (`proven(i)`: whether the `i`th move is), the unproven
/// move with the fewest simulations, while the unproven moves together have
/// had fewer than the proven ones.
///
/// A proven move competes with the others by its exact value, and UCB1's
/// exploration share grows only with the logarithm of the visits: with the
/// default constant (0.2), a move whose first playout scored 0 next to a
/// move proven worth 50 waits some 270,000 visits of the node to be tried
/// again, so neither it nor the node got proven — yet the node's value, to
/// the roles that do not choose there, is the worst of every move's. In the
/// gamble, `a` was never proven to get 0 after `gamble` (its first playout
/// had `b` win alone, and `settle` was proven worth 50), and the root not
/// proven within 1,000 iterations. A share of the square root of the
/// node's visits was tried, and was not enough: it compounds down a line of
/// such nodes (four of them took a state of a random game of seven plies
/// past 5,000 iterations). A simulation that reaches a proven move learns
/// nothing new, so the unproven moves get at least as many: a finite game
/// below is proven within finitely many visits, each level of such nodes
/// halving the share, and the best proven move's value still counts in the
/// node's statistics.
fn starved_move<S>(node: &Node<S>, role: usize, proven: impl Fn(usize) -> bool) -> Option<u32> {
    let (mut proven_visits, mut unproven_visits) = (0u64, 0u64);
    let mut fewest: Option<(u32, u32)> = None;
    for (i, k) in node.moves(role).enumerate() {
        let visits = node.stats[k].visits;
        if proven(i) {
            proven_visits += u64::from(visits);
        } else {
            unproven_visits += u64::from(visits);
            if fewest.is_none_or(|(_, v)| visits < v) {
                fewest = Some((i as u32, visits));
            }
        }
    }
    fewest.filter(|_| unproven_visits < proven_visits).map(|(i, _)| i)
}

/// Frees `nodes` on another thread when there are many (a few hundred
/// thousand nodes take a few hundred milliseconds to free); should no thread
/// start, they are freed here.
fn discard<S: Send + 'static>(nodes: Vec<Node<S>>) {
    if nodes.len() >= 10_000 {
        let _ = std::thread::Builder::new().name("ggp-free".into()).spawn(move || drop(nodes));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::leaf_evaluation::LeafEvaluation;
    use crate::machine::{Evaluator, Machine, State};
    use crate::prover::Prover;
    use crate::prover::tests::shared_game;
    use crate::reasoner::ProverReasoner;
    use crate::solver::tests::{GAMBLE, guaranteed, max_n, random_turn_game, reachable_states};
    use crate::term::Term;
    use rand::seq::IndexedRandom;
    use std::collections::BTreeMap;

    /// What a tree says about its root, moves by name: each role's moves
    /// with their proven values, and the root's proven value.
    type Summary = (Vec<BTreeMap<Term, Option<u8>>>, Option<Vec<u8>>);

    fn summary<R: Reasoner>(tree: &Tree<R>, name: impl Fn(&R, usize, u32) -> Term) -> Summary {
        let moves = (0..tree.roles())
            .map(|r| tree.report(r).iter().map(|m| (name(tree.reasoner(), r, m.mv), m.proven)).collect())
            .collect();
        (moves, tree.root_proven().map(<[u8]>::to_vec))
    }

    /// Along random playouts of ticTacToe and nim1, a tree over the prover
    /// and a tree over the compiled machine (independent reasoners) see the
    /// same legal moves and terminal values at their root, and after the
    /// same number of iterations agree on every value either has proven.
    #[test]
    fn prover_and_machine_trees_agree_along_random_playouts() {
        let config = MctsConfig { threads: 1, max_nodes: 20_000, ..MctsConfig::default() };
        let far = Instant::now() + std::time::Duration::from_secs(3600);
        let mut proofs = 0;
        for name in ["ticTacToe", "nim1"] {
            let game = shared_game(name);
            let machine = Machine::compile(&game).expect("compiles");
            let mut prover = Prover::new(&game);
            let mut rng = SmallRng::seed_from_u64(5);
            for playout in 0..3u64 {
                let mut state = machine.initial_state();
                let mut position = prover.initial_state();
                loop {
                    let mut by_machine = Tree::new(Evaluator::new(&machine), &config, playout);
                    by_machine.set_root(&state, None);
                    let mut by_prover = Tree::new(ProverReasoner::new(&prover, &position, far), &config, playout);
                    by_prover.set_root(&position, None);
                    let machine_name = |_: &Evaluator, r: usize, m: u32| machine.moves(r)[m as usize].clone();
                    let prover_name = |p: &ProverReasoner, r: usize, m: u32| p.name(r, m).expect("numbered");
                    // Before any iteration: the legal moves, and the goals
                    // of a terminal root.
                    let (legal, end) = summary(&by_machine, machine_name);
                    assert_eq!(summary(&by_prover, prover_name), (legal.clone(), end.clone()), "{name}");
                    if end.is_some() {
                        assert!(machine.is_terminal(&state) || legal.iter().any(BTreeMap::is_empty));
                        break;
                    }
                    by_machine.run(far, 100, None, None);
                    by_prover.run(far, 100, None, None);
                    let (a, a_root) = summary(&by_machine, machine_name);
                    let (b, b_root) = summary(&by_prover, prover_name);
                    if let (Some(x), Some(y)) = (&a_root, &b_root) {
                        assert_eq!(x, y, "{name}: the root's value");
                        proofs += 1;
                    }
                    for (x, y) in a.iter().zip(&b) {
                        for (mv, value) in x {
                            if let (Some(u), Some(v)) = (value, y[mv]) {
                                assert_eq!(*u, v, "{name}: {mv}");
                                proofs += 1;
                            }
                        }
                    }
                    drop(by_prover);
                    let joint: Vec<Term> = legal
                        .iter()
                        .map(|moves| {
                            moves.keys().cloned().collect::<Vec<_>>().choose(&mut rng).cloned().expect("a move")
                        })
                        .collect();
                    let numbers: Vec<u32> =
                        joint.iter().enumerate().map(|(r, m)| machine.move_index(r, m).expect("a move")).collect();
                    state = machine.next_state(&state, &numbers);
                    position = prover.next_state(&position, &joint);
                }
            }
        }
        assert!(proofs > 10, "only {proofs} values proven by both: the comparison says little");
    }

    /// The nodes reachable from `node`, by a search of the child links.
    fn reachable<R: Reasoner>(tree: &mut Tree<R>, node: u32) -> Vec<u32> {
        let mut seen = vec![node];
        let mut i = 0;
        while i < seen.len() {
            let mut found = Vec::new();
            tree.nodes[seen[i] as usize].children.for_each_mut(|c| found.push(*c));
            for c in found {
                if !seen.contains(&c) {
                    seen.push(c);
                }
            }
            i += 1;
        }
        seen
    }

    /// The bytes a tree counts are its nodes' as [`Tree::node_bytes`]
    /// counts them afresh, after searching (nodes made, children linked,
    /// move records made) and after a new root drops nodes; and a tree
    /// bounded in bytes stops making nodes at its bound, where one bounded
    /// only in nodes goes on.
    #[test]
    fn a_tree_counts_its_bytes_and_stops_at_their_bound() {
        let machine = Machine::compile(&shared_game("connectFour")).expect("compiles");
        let far = Instant::now() + std::time::Duration::from_secs(3600);
        let start = machine.initial_state();
        let recount = |tree: &Tree<Evaluator>| tree.nodes.iter().map(Tree::<Evaluator>::node_bytes).sum::<usize>();
        let unbounded = MctsConfig { threads: 1, ..MctsConfig::default() };
        let mut free = Tree::new(Evaluator::new(&machine), &unbounded, 9);
        free.set_root(&start, None);
        free.run(far, 4000, None, None);
        assert_eq!(free.bytes, recount(&free), "counted as made");
        assert!(free.nodes.iter().any(|n| n.amaf.is_some()), "move records were made");
        let max_bytes = free.bytes / 3;
        let bounded = MctsConfig { max_bytes, ..unbounded };
        let mut tree = Tree::new(Evaluator::new(&machine), &bounded, 9);
        tree.set_root(&start, None);
        tree.run(far, 4000, None, None);
        assert_eq!(tree.bytes, recount(&tree), "counted as made");
        assert!(tree.bytes >= max_bytes, "the bound was reached");
        assert!(tree.len() < free.len(), "{} nodes against {}", tree.len(), free.len());
        // Past the bound, links may still grow, but no node is made (nor
        // move records: see the next test).
        let made = tree.len();
        tree.run(far, 2000, None, None);
        assert_eq!(tree.len(), made, "no node made past the bound");
        assert_eq!(tree.bytes, recount(&tree), "counted as they grew");
        // A new root drops what is not below it, and its bytes with it.
        let mv = tree.report(0).into_iter().max_by_key(|m| m.visits).expect("a move").mv;
        let noop = machine.legal_moves(&start, 1)[0];
        let child = machine.next_state(&start, &[mv, noop]);
        let before = tree.bytes;
        tree.set_root(&child, None);
        assert_eq!(tree.bytes, recount(&tree), "counted again after the new root");
        assert!(tree.bytes < before, "the nodes dropped took their bytes");
        assert!(tree.run(far, 500, None, None) > 0, "the search goes on");
    }

    /// A game of many moves with few legal at a time, as amazons (129,600
    /// moves per role, a few thousand legal): twenty turns, taken in turn by
    /// `a` and `b`, in each of which the mover picks one of 30 numbers for
    /// that turn (600 moves per role, 30 legal), and every pick stays on
    /// the board (no two lines of play meet); whoever picked 1 last wins.
    fn many_moves_few_legal() -> Machine {
        let turns: String = (1..20).map(|t| format!("(succ {t} {}) ", t + 1)).collect();
        let numbers: String = (1..=30).map(|x| format!("(number {x}) ")).collect();
        let game = Game::parse(&format!(
            "(role a) (role b) (init (turn 1)) (init (control a)) {turns} {numbers}
             (other a b) (other b a)
             (<= (legal ?r (pick ?t ?x)) (true (control ?r)) (true (turn ?t)) (number ?x))
             (<= (legal ?r noop) (role ?r) (not (true (control ?r))))
             (<= (next (turn ?u)) (true (turn ?t)) (succ ?t ?u))
             (<= (next (control ?o)) (true (control ?r)) (other ?r ?o))
             (<= (next (picked ?t ?x)) (does ?r (pick ?t ?x)))
             (<= (next (picked ?t ?x)) (true (picked ?t ?x)))
             (<= (picked_one ?r) (does ?r (pick ?t 1)))
             (<= (next (last ?r)) (picked_one ?r))
             (<= (next (last ?r)) (true (last ?r)) (other ?r ?o) (not (picked_one ?o)))
             (<= terminal (true (turn 20)))
             (<= (goal ?r 100) (role ?r) (true (last ?r)))
             (<= (goal ?r 0) (role ?r) (not (true (last ?r))))"
        ))
        .expect("the game parses");
        Machine::compile(&game).expect("compiles")
    }

    /// In a game whose move records (one per move numbered, per role)
    /// outweigh its nodes many times, a full tree makes no records past its
    /// bound: after thousands of iterations more, its bytes are still within
    /// the bound and one node, and equal a fresh count.
    #[test]
    fn move_records_are_made_only_within_the_bound() {
        let machine = many_moves_few_legal();
        assert_eq!(machine.moves(0).len(), 601, "the game numbers 600 picks and a noop per role");
        let far = Instant::now() + std::time::Duration::from_secs(3600);
        let start = machine.initial_state();
        let recount = |tree: &Tree<Evaluator>| tree.nodes.iter().map(Tree::<Evaluator>::node_bytes).sum::<usize>();
        let amaf = Tree::<Evaluator>::amaf_bytes(&Evaluator::new(&machine));
        let config = MctsConfig { threads: 1, max_bytes: 40 * amaf, ..MctsConfig::default() };
        let mut tree = Tree::new(Evaluator::new(&machine), &config, 4);
        tree.set_root(&start, None);
        let mut iterations = 0;
        while !tree.is_full() {
            let ran = tree.run(far, 100, None, None);
            assert!(ran > 0 && iterations < 100_000, "the tree filled not after {iterations} iterations");
            iterations += ran;
        }
        // A node is made while there is room, and may overshoot by itself
        // (without records: a new node has none).
        let largest_node =
            tree.nodes.iter().filter(|n| n.amaf.is_none()).map(Tree::<Evaluator>::node_bytes).max().expect("nodes");
        assert!(largest_node * 4 < amaf, "a node ({largest_node} bytes) is lighter than its records ({amaf})");
        let made = tree.len();
        tree.run(far, 20_000, None, None);
        assert_eq!(tree.len(), made, "no node made past the bound");
        assert_eq!(tree.bytes, recount(&tree), "counted as they grew");
        assert!(
            tree.bytes <= config.max_bytes + largest_node,
            "{} bytes against a bound of {}",
            tree.bytes,
            config.max_bytes
        );
        let recorded = tree.nodes.iter().filter(|n| n.amaf.is_some()).count();
        let trusted = tree.nodes.iter().filter(|n| n.visits >= config.grave_ref).count();
        assert!(recorded >= 1 && recorded < trusted, "{recorded} nodes with records of {trusted} simulated enough");
    }

    #[test]
    fn a_new_root_keeps_what_was_searched_below_it_and_nothing_else() {
        let machine = Machine::compile(&shared_game("ticTacToe")).expect("compiles");
        let config = MctsConfig { threads: 1, max_nodes: 400, ..MctsConfig::default() };
        let far = Instant::now() + std::time::Duration::from_secs(3600);
        let mut tree = Tree::new(Evaluator::new(&machine), &config, 3);
        let start = machine.initial_state();
        tree.set_root(&start, None);
        tree.run(far, 3000, None, None);
        assert_eq!(tree.len(), 400, "the tree is full");
        // The state after the most simulated first move, and what the tree
        // knows below it.
        let best = tree.report(0).into_iter().max_by_key(|m| m.visits).expect("a move").mv;
        let noop = machine.legal_moves(&start, 1)[0];
        let child = machine.next_state(&start, &[best, noop]);
        let node = tree.find(&child, tree.hasher.hash_one(&child)).expect("in the tree");
        let below: Vec<State> =
            reachable(&mut tree, node).iter().map(|&n| tree.nodes[n as usize].state.clone()).collect();
        let root = tree.root;
        tree.root = node;
        let reports: Vec<Vec<MoveReport>> = (0..2).map(|r| tree.report(r)).collect();
        tree.root = root;
        // A quarter full: the nodes not below the new root are dropped.
        assert!(below.len() < 400, "some nodes are not below the new root");
        tree.set_root(&child, None);
        assert_eq!(tree.len(), below.len());
        assert_eq!((0..2).map(|r| tree.report(r)).collect::<Vec<_>>(), reports);
        for (i, n) in tree.nodes.iter().enumerate() {
            assert!(below.contains(&n.state));
            assert_eq!(tree.find(&n.state, n.hash), Some(i as u32), "the table finds every node");
        }
        let root = tree.root;
        assert_eq!(reachable(&mut tree, root).len(), tree.len(), "every node is below the root");
        // The search goes on from there.
        assert!(tree.run(far, 500, None, None) > 0);
    }

    #[test]
    fn expanding_the_replies_proves_a_move_that_loses_at_once() {
        // After `trap` the opponent can win at once; after `safe` it cannot.
        let game = Game::parse(
            "(role a) (role b) (init (turn a)) (option safe) (option trap)
             (<= (legal a (choose ?m)) (true (turn a)) (option ?m)) (<= (legal b noop) (true (turn a)))
             (<= (next (after ?m)) (does a (choose ?m)))
             (<= (legal b strike) (true (after trap))) (<= (legal b wait) (true (after ?m)))
             (<= (legal a noop) (true (after ?m)))
             (<= (next struck) (does b strike)) (<= (next waited) (does b wait))
             (<= terminal (true struck)) (<= terminal (true waited))
             (<= (goal a 0) (true struck)) (<= (goal b 100) (true struck))
             (<= (goal a 50) (true waited)) (<= (goal b 50) (true waited))",
        )
        .unwrap();
        let machine = Machine::compile(&game).unwrap();
        let config = MctsConfig { evaluation: LeafEvaluation::Mobility, ..MctsConfig::default() };
        let mut tree = Tree::new(Evaluator::new(&machine), &config, 1);
        tree.set_root(&machine.initial_state(), None);
        let mv = |name: &str| machine.move_index(0, &name.parse().unwrap()).unwrap();
        let far = Instant::now() + std::time::Duration::from_secs(60);
        // No iteration has run: nothing is known.
        assert!(tree.report(0).iter().all(|m| m.proven.is_none()));
        assert!(tree.expand_replies(0, mv("(choose trap)"), None, far));
        assert!(tree.expand_replies(0, mv("(choose safe)"), None, far));
        for m in tree.report(0) {
            let expected = if m.mv == mv("(choose trap)") { 0 } else { 50 };
            assert_eq!(m.proven, Some(expected), "{}", machine.moves(0)[m.mv as usize]);
        }
        // Not a move of the root's mover: nothing to expand.
        assert!(!tree.expand_replies(1, 0, None, far));
        // A deadline already passed stops the expansion.
        let mut fresh = Tree::new(Evaluator::new(&machine), &config, 1);
        fresh.set_root(&machine.initial_state(), None);
        assert!(!fresh.expand_replies(0, mv("(choose trap)"), None, Instant::now()));
    }

    /// The gamble ([`GAMBLE`]): `a` can count on 50 by settling and on 0 by
    /// gambling. Valued as max-n values, `gamble` was proven worth 100 to
    /// `a`, the root 100 to both, and `gamble` chosen.
    #[test]
    fn a_role_is_credited_only_with_what_it_can_count_on() {
        let game = Game::parse(GAMBLE).unwrap();
        let machine = Machine::compile(&game).unwrap();
        let start = machine.initial_state();
        assert_eq!((guaranteed(&machine, &start, 0), guaranteed(&machine, &start, 1)), (50, 50));
        let config = MctsConfig { threads: 1, ..MctsConfig::default() };
        let far = Instant::now() + std::time::Duration::from_secs(60);
        let mut tree = Tree::new(Evaluator::new(&machine), &config, 1);
        tree.set_root(&start, None);
        tree.run(far, 1000, None, None);
        assert_eq!(tree.root_proven(), Some(&[50, 50][..]));
        let mv = |name: &str| machine.move_index(0, &name.parse().unwrap()).unwrap();
        for m in tree.report(0) {
            let expected = if m.mv == mv("gamble") { 0 } else { 50 };
            assert_eq!(m.proven, Some(expected), "{}", machine.moves(0)[m.mv as usize]);
        }
        assert_eq!(crate::mcts::choose_in(std::slice::from_ref(&tree), 0), Some(mv("settle")));
    }

    /// Games of four turns, `a` and `b` in turn choosing one of three moves,
    /// with outcomes drawn at random among wins, losses, draws, double wins
    /// and double losses: every state the tree proves is proven worth, to
    /// each role, what the exhaustive search says it can count on there.
    /// With max-n proofs (the tree's before), the first game already had a
    /// state proven wrongly; max-n values are checked to be wrong on some,
    /// so that the games do test the difference, and the exact solver to
    /// agree on every state.
    #[test]
    fn proofs_agree_with_an_exhaustive_search_where_goals_do_not_add_up() {
        let outcomes = [(100, 0), (0, 100), (50, 50), (100, 100), (0, 0)];
        let mut rng = SmallRng::seed_from_u64(11);
        let far = Instant::now() + std::time::Duration::from_secs(600);
        let (mut checked, mut wrong_before) = (0, 0);
        for seed in 0..30u64 {
            let mut facts = String::new();
            for leaf in 0..81 {
                let digits: Vec<String> = (0..4).map(|i| (leaf / 3usize.pow(i) % 3 + 1).to_string()).collect();
                let (ga, gb) = outcomes[rng.random_range(0..outcomes.len())];
                facts += &format!("(outcome {} {ga} {gb}) ", digits.join(" "));
            }
            let game = Game::parse(&format!(
                "(role a) (role b) (init (turn 1)) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
                 (digit 1) (digit 2) (digit 3) (mover 1 a) (mover 2 b) (mover 3 a) (mover 4 b) {facts}
                 (<= (legal ?r (pick ?d)) (true (turn ?t)) (mover ?t ?r) (digit ?d))
                 (<= (legal ?r noop) (role ?r) (true (turn ?t)) (not (mover ?t ?r)))
                 (<= (next (turn ?u)) (true (turn ?t)) (succ ?t ?u))
                 (<= (next (picked ?t ?d)) (true (turn ?t)) (does ?r (pick ?d)))
                 (<= (next (picked ?t ?d)) (true (picked ?t ?d)))
                 (<= terminal (true (turn 5)))
                 (<= (result ?ga ?gb) (true (picked 1 ?w)) (true (picked 2 ?x)) (true (picked 3 ?y))
                     (true (picked 4 ?z)) (outcome ?w ?x ?y ?z ?ga ?gb))
                 (<= (goal a ?ga) (result ?ga ?gb)) (<= (goal b ?gb) (result ?ga ?gb))"
            ))
            .unwrap();
            let machine = Machine::compile(&game).unwrap();
            let config = MctsConfig { threads: 1, ..MctsConfig::default() };
            let mut tree = Tree::new(Evaluator::new(&machine), &config, seed);
            tree.set_root(&machine.initial_state(), None);
            tree.run(far, 20_000, None, None);
            for node in &tree.nodes {
                if let Some(value) = &node.proven {
                    for (r, &v) in value.iter().enumerate() {
                        assert_eq!(v, guaranteed(&machine, &node.state, r), "game {seed}, role {r}");
                        checked += 1;
                    }
                }
            }
            // The same states valued as max-n values, for contrast, and by
            // the exact solver.
            let mut solver = crate::Solver::new(&machine);
            for node in &tree.nodes {
                let expected: Vec<u8> = (0..2).map(|r| guaranteed(&machine, &node.state, r)).collect();
                assert_eq!(solver.solve(&node.state, far), Ok(expected.clone()), "game {seed}");
                let value = max_n(&machine, &node.state);
                wrong_before += (0..2).filter(|&r| value[r] != expected[r]).count();
            }
        }
        assert!(checked > 1000 && wrong_before > 0, "{checked} values checked, {wrong_before} wrong as max-n values");
    }

    /// Proof liveness: on 40 random turn-taking games of two and three roles
    /// (see [`random_turn_game`]: forced moves, transpositions, early ends,
    /// goals that do not add up), a tree rooted at any reachable state proves
    /// it within a few thousand iterations, worth what the exhaustive search
    /// says each role can guarantee, and so does every state it proved on the
    /// way. The gamble is proven whichever order `b`'s replies come in.
    #[test]
    fn every_state_of_a_small_game_gets_proven() {
        let config = MctsConfig { threads: 1, ..MctsConfig::default() };
        let far = Instant::now() + std::time::Duration::from_secs(600);
        let swapped = GAMBLE
            .replace("(legal b double)", "(legal b SWAP)")
            .replace("(legal b single)", "(legal b double)")
            .replace("(legal b SWAP)", "(legal b single)");
        let mut games: Vec<Game> = vec![Game::parse(GAMBLE).unwrap(), Game::parse(&swapped).unwrap()];
        let mut rng = SmallRng::seed_from_u64(21);
        games.extend((0..60).map(|g| random_turn_game(&mut rng, 2 + g % 2, 7)));
        let (mut roots, mut most) = (0, 0);
        for (g, game) in games.iter().enumerate() {
            let machine = Machine::compile(game).unwrap();
            let roles = machine.roles().len();
            for (s, state) in reachable_states(&machine, &machine.initial_state()).iter().enumerate() {
                let mut tree = Tree::new(Evaluator::new(&machine), &config, (g * 1000 + s) as u64);
                tree.set_root(state, None);
                let ran = tree.run(far, 5_000, None, None);
                let expected: Vec<u8> = (0..roles).map(|r| guaranteed(&machine, state, r)).collect();
                assert_eq!(
                    tree.root_proven(),
                    Some(&expected[..]),
                    "game {g}, state {s}: not proven in {ran} iterations"
                );
                for node in &tree.nodes {
                    if let Some(value) = &node.proven {
                        let expected: Vec<u8> = (0..roles).map(|r| guaranteed(&machine, &node.state, r)).collect();
                        assert_eq!(&value[..], &expected[..], "game {g}, state {s}");
                    }
                }
                roots += 1;
                most = most.max(ran);
            }
        }
        assert!(roots > 500, "{roots} states proven");
        eprintln!("{roots} states proven, in at most {most} iterations");
    }

    #[test]
    fn expanding_the_root_proves_a_win_in_one() {
        // Ten moves; only `m7` ends the game, won.
        let options: String = (0..10).map(|i| format!("(option m{i}) ")).collect();
        let game = Game::parse(&format!(
            "(role a) (role b) (init (turn a)) {options}
             (<= (legal a ?m) (true (turn a)) (option ?m)) (<= (legal b noop) (true (turn a)))
             (<= (legal a noop) (true (played ?m))) (<= (legal b noop) (true (played ?m)))
             (<= (next (played ?m)) (does a ?m)) (<= (next (played ?m)) (true (played ?m)))
             (<= terminal (true (played m7)))
             (<= (goal a 100) (true (played m7))) (<= (goal a 0) (not (true (played m7))))
             (<= (goal b 0) (true (played m7))) (<= (goal b 100) (not (true (played m7))))"
        ))
        .unwrap();
        let machine = Machine::compile(&game).unwrap();
        let config = MctsConfig { evaluation: LeafEvaluation::Mobility, ..MctsConfig::default() };
        let mut tree = Tree::new(Evaluator::new(&machine), &config, 1);
        tree.set_root(&machine.initial_state(), None);
        assert!(tree.expand_root(0, None, Instant::now() + std::time::Duration::from_secs(60)));
        assert_eq!(tree.root_proven(), Some(&[100, 0][..]));
        let m7 = machine.move_index(0, &"m7".parse().unwrap()).unwrap();
        let report = tree.report(0);
        assert_eq!(report.iter().find(|m| m.mv == m7).unwrap().proven, Some(100));
    }

    /// Under mobility, playouts measuring which way it points run only
    /// when asked for, and then take their share of the states visited and
    /// no more; a few thousand iterations settle it in a small game where
    /// fewer moves win.
    #[test]
    fn measuring_playouts_take_their_share_of_the_states() {
        let machine = crate::mcts::tests::stocks(true);
        let config = MctsConfig { evaluation: LeafEvaluation::Mobility, ..MctsConfig::default() };
        let mut tree = Tree::new(Evaluator::new(&machine), &config, 5);
        tree.set_evaluation(LeafEvaluation::Mobility);
        tree.set_root(&machine.initial_state(), None);
        let far = Instant::now() + std::time::Duration::from_secs(3600);
        tree.run(far, 2000, None, None);
        assert!(tree.profile().mobility_correlation().is_none(), "measuring is off by default");
        tree.set_measuring(true);
        tree.run(far, 4000, None, None);
        let (measured, valued) = (tree.measured_states, tree.mobility_states);
        assert!(measured > 0 && valued > 0);
        // Within one playout (at most 17 states) of the share.
        assert!(measured as f64 <= MEASURING_SHARE * (measured + valued) as f64 + 17.0, "{measured} {valued}");
        assert!(tree.profile().mobility_settled(), "{:?}", tree.profile().mobility_correlation());
    }
}
