//! Flat Monte Carlo: the baseline player of the ggp-base reference code
//! (its sample Monte Carlo gamer). Each legal move of the role is tried in
//! turn, followed by a uniformly random playout to the end in which every
//! other role moves at random too; when time is up the move with the best
//! mean goal is played. No tree, no memory between moves, one thread.

use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::machine::{Evaluator, Machine, State};
use crate::watch::DeadlineWatch;

/// Longest playout, in transitions.
const MAX_PLAYOUT: usize = 10_000;

/// The flat Monte Carlo player.
///
/// ```
/// use bouton_ggp::{FlatMc, Game, Machine};
/// use std::time::{Duration, Instant};
///
/// // One move wins, the other loses.
/// let game = Game::parse("(role r) (init start) (legal r good) (legal r bad)
///     (<= (next won) (does r good)) (<= (next lost) (does r bad))
///     (<= terminal (true won)) (<= terminal (true lost))
///     (<= (goal r 100) (true won)) (<= (goal r 0) (not (true won)))")?;
/// let machine = Machine::compile(&game)?;
/// let mut flat = FlatMc::new(&machine, 3);
/// let start = machine.initial_state();
/// let mv = flat.choose(&start, 0, Instant::now() + Duration::from_millis(20)).unwrap();
/// assert!(machine.legal_moves(&start, 0).contains(&mv));
/// // With a number of playouts instead of a deadline, the choice depends
/// // only on the seed.
/// let mv = flat.choose_playouts(&start, 0, 10).unwrap();
/// assert_eq!(machine.moves(0)[mv as usize].to_string(), "good");
/// assert_eq!(flat.playouts(), 10);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct FlatMc {
    eval: Evaluator,
    rng: SmallRng,
    playouts: u64,
    legal: Vec<u32>,
    joint: Vec<u32>,
}

impl FlatMc {
    /// A player seeded with `seed`.
    pub fn new(machine: &Machine, seed: u64) -> FlatMc {
        FlatMc {
            eval: Evaluator::new(machine),
            rng: SmallRng::seed_from_u64(seed),
            playouts: 0,
            legal: Vec::new(),
            joint: Vec::new(),
        }
    }

    /// Playouts run by the last choice.
    pub fn playouts(&self) -> u64 {
        self.playouts
    }

    /// The move of `role` with the best mean goal over playouts run until
    /// `deadline`, the moves taking turns; `None` if the role has no legal
    /// move in `state`. A single legal move is returned at once.
    pub fn choose(&mut self, state: &State, role: usize, deadline: Instant) -> Option<u32> {
        self.run(state, role, deadline, u64::MAX)
    }

    /// As [`FlatMc::choose`], for `playouts` playouts instead of a deadline:
    /// the choice then depends only on the seed and the calls before.
    ///
    /// ```
    /// use bouton_ggp::{FlatMc, Game, Machine};
    ///
    /// let game = Game::parse("(role r) (init start) (legal r good) (legal r bad)
    ///     (<= (next won) (does r good)) (<= (next lost) (does r bad))
    ///     (<= terminal (true won)) (<= terminal (true lost))
    ///     (<= (goal r 100) (true won)) (<= (goal r 0) (not (true won)))")?;
    /// let machine = Machine::compile(&game)?;
    /// let mut flat = FlatMc::new(&machine, 3);
    /// let mv = flat.choose_playouts(&machine.initial_state(), 0, 10);
    /// assert_eq!(machine.moves(0)[mv.unwrap() as usize].to_string(), "good");
    /// assert_eq!(flat.playouts(), 10);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn choose_playouts(&mut self, state: &State, role: usize, playouts: u64) -> Option<u32> {
        let far = Instant::now() + std::time::Duration::from_secs(365 * 24 * 3600);
        self.run(state, role, far, playouts)
    }

    fn run(&mut self, state: &State, role: usize, deadline: Instant, budget: u64) -> Option<u32> {
        self.playouts = 0;
        self.eval.load(state);
        self.eval.legal_moves(role, &mut self.legal);
        match self.legal.len() {
            0 => return None,
            1 => return Some(self.legal[0]),
            _ => {}
        }
        let legal = std::mem::take(&mut self.legal);
        let roles = self.eval.machine().roles().len();
        let mut totals = vec![0u64; legal.len()];
        let mut counts = vec![0u64; legal.len()];
        let mut watch = DeadlineWatch::new(deadline);
        'search: loop {
            for (i, &mv) in legal.iter().enumerate() {
                if self.playouts >= budget || Instant::now() >= deadline {
                    break 'search;
                }
                self.eval.load(state);
                self.joint.clear();
                for r in 0..roles {
                    let pick = if r == role { Some(mv) } else { self.eval.random_legal_move(r, &mut self.rng) };
                    match pick {
                        Some(m) => self.joint.push(m),
                        None => break,
                    }
                }
                if self.joint.len() == roles {
                    self.eval.advance(&self.joint);
                    // A playout the deadline cuts short counts for nothing.
                    if self.eval.playout_while(&mut self.rng, MAX_PLAYOUT, || !watch.passed()).is_none() {
                        break 'search;
                    }
                }
                totals[i] += u64::from(self.eval.goal(role).unwrap_or(0));
                counts[i] += 1;
                self.playouts += 1;
            }
        }
        // The best mean; the first of equals, in legal-move order (the
        // first move when time allowed no playout at all).
        let mean = |i: usize| if counts[i] == 0 { -1.0 } else { totals[i] as f64 / counts[i] as f64 };
        let mut best = 0;
        for i in 1..legal.len() {
            if mean(i) > mean(best) {
                best = i;
            }
        }
        let mv = legal[best];
        self.legal = legal;
        Some(mv)
    }
}
