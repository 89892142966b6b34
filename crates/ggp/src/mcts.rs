//! Monte Carlo tree search for any game, simultaneous moves included:
//! decoupled UCT, where each role keeps its own statistics per move at every
//! node and picks its move by UCB1, and random playouts to the end score the
//! new leaves.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::hash::FastMap;
use crate::machine::{Evaluator, Machine, State};

/// The UCB1 exploration constant for rewards in [0, 1].
const EXPLORATION: f64 = 1.0;
/// Longest playout, in transitions.
const MAX_PLAYOUT: usize = 10_000;

struct TreeNode {
    state: State,
    /// Rewards in [0, 1] when terminal.
    terminal: Option<Box<[f64]>>,
    legal: Vec<Vec<u32>>,
    /// Per role, per legal move: (visits, total reward).
    stats: Vec<Vec<(u32, f64)>>,
    visits: u32,
    children: FastMap<u64, u32>,
}

/// Decoupled UCT search.
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
/// let best = mcts.search(&machine.initial_state(), 0, Instant::now() + Duration::from_millis(50));
/// assert_eq!(machine.moves(0)[best.unwrap() as usize].to_string(), "good");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Mcts {
    machine: Machine,
    eval: Evaluator,
    rng: SmallRng,
    nodes: Vec<TreeNode>,
    max_nodes: usize,
    iterations: u64,
}

impl Mcts {
    /// A search seeded with `seed`.
    pub fn new(machine: &Machine, seed: u64) -> Mcts {
        Mcts {
            machine: machine.clone(),
            eval: Evaluator::new(machine),
            rng: SmallRng::seed_from_u64(seed),
            nodes: Vec::new(),
            max_nodes: 2_000_000,
            iterations: 0,
        }
    }

    /// Iterations run by the last search.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    fn rewards(&mut self) -> Box<[f64]> {
        let roles = self.machine.roles().len();
        (0..roles).map(|r| f64::from(self.eval.goal(r).unwrap_or(0)) / 100.0).collect()
    }

    /// A node for the state loaded in the evaluator.
    fn make_node(&mut self) -> u32 {
        let roles = self.machine.roles().len();
        let state = self.eval.state();
        let (terminal, legal) = if self.eval.is_terminal() {
            (Some(self.rewards()), vec![Vec::new(); roles])
        } else {
            let mut legal = vec![Vec::new(); roles];
            for (r, l) in legal.iter_mut().enumerate() {
                self.eval.legal_moves(r, l);
            }
            if legal.iter().any(Vec::is_empty) { (Some(self.rewards()), legal) } else { (None, legal) }
        };
        let stats = legal.iter().map(|l| vec![(0, 0.0); l.len()]).collect();
        self.nodes.push(TreeNode { state, terminal, legal, stats, visits: 0, children: FastMap::default() });
        (self.nodes.len() - 1) as u32
    }

    fn select(&mut self, node: u32) -> Vec<usize> {
        let n = &self.nodes[node as usize];
        let log_n = f64::from(n.visits.max(1)).ln();
        let mut choice = Vec::with_capacity(n.stats.len());
        for stats in &n.stats {
            let unvisited = stats.iter().filter(|s| s.0 == 0).count();
            if unvisited > 0 {
                let k = self.rng.random_range(0..unvisited);
                choice.push(stats.iter().enumerate().filter(|(_, s)| s.0 == 0).nth(k).expect("k < unvisited").0);
                continue;
            }
            let mut best = (f64::MIN, 0);
            for (i, &(visits, total)) in stats.iter().enumerate() {
                let v = f64::from(visits);
                let ucb = total / v + EXPLORATION * (log_n / v).sqrt() + self.rng.random::<f64>() * 1e-9;
                if ucb > best.0 {
                    best = (ucb, i);
                }
            }
            choice.push(best.1);
        }
        choice
    }

    /// Searches from `state` until `deadline` and returns the most visited
    /// move of `role` (`None` if the state is terminal or `role` has no move).
    pub fn search(&mut self, state: &State, role: usize, deadline: Instant) -> Option<u32> {
        self.nodes.clear();
        self.iterations = 0;
        self.eval.load(state);
        let root = self.make_node();
        if self.nodes[0].terminal.is_some() {
            return None;
        }
        loop {
            if self.iterations.is_multiple_of(16) && Instant::now() >= deadline {
                break;
            }
            self.iterate(root);
            self.iterations += 1;
        }
        let root = &self.nodes[root as usize];
        let stats = &root.stats[role];
        let best = (0..stats.len()).max_by(|&a, &b| {
            let key = |i: usize| (stats[i].0, if stats[i].0 == 0 { 0.0 } else { stats[i].1 / f64::from(stats[i].0) });
            key(a).partial_cmp(&key(b)).expect("rewards are finite")
        })?;
        Some(root.legal[role][best])
    }

    fn iterate(&mut self, root: u32) {
        let mut path: Vec<(u32, Vec<usize>)> = Vec::new();
        let mut node = root;
        let rewards: Box<[f64]> = loop {
            if let Some(r) = &self.nodes[node as usize].terminal {
                break r.clone();
            }
            let choice = self.select(node);
            let n = &self.nodes[node as usize];
            let mut key = 0u64;
            for (r, &c) in choice.iter().enumerate() {
                key = key.wrapping_mul(n.legal[r].len() as u64).wrapping_add(c as u64);
            }
            let joint: Vec<u32> = choice.iter().enumerate().map(|(r, &c)| n.legal[r][c]).collect();
            path.push((node, choice));
            if let Some(&child) = n.children.get(&key) {
                node = child;
                continue;
            }
            let state = n.state.clone();
            self.eval.load(&state);
            self.eval.advance(&joint);
            if self.nodes.len() >= self.max_nodes {
                // No room for more nodes: score by a playout from here.
                self.eval.playout(&mut self.rng, MAX_PLAYOUT);
                break self.rewards();
            }
            let child = self.make_node();
            self.nodes[node as usize].children.insert(key, child);
            path.push((child, Vec::new()));
            self.eval.playout(&mut self.rng, MAX_PLAYOUT);
            break self.rewards();
        };
        for (node, choice) in path {
            let n = &mut self.nodes[node as usize];
            n.visits += 1;
            for (r, &c) in choice.iter().enumerate() {
                n.stats[r][c].0 += 1;
                n.stats[r][c].1 += rewards[r];
            }
        }
    }
}
