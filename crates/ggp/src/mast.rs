//! Move-average sampling (MAST): the playout policy of the search. Every
//! move of every role keeps the average return its role got in the
//! simulations where it was played, whatever the state (Finnsson and
//! Björnsson's CadiaPlayer). Playouts then draw each move with probability
//! proportional to `exp(average / τ)` — Gibbs sampling, τ = 0.1 for returns
//! in [0, 1] by default, unseen moves counting as the best possible, so that
//! each gets tried — or, with τ = 0, ε-greedily: the best average with
//! probability 1 − ε, a uniformly random legal move otherwise. A move good in
//! one state tends to be good in others — capturing, advancing, taking the
//! centre — so playouts look more like play and less like noise; where the
//! averages barely differ (a Connect Four column is good or bad depending on
//! the board), Gibbs sampling stays close to uniform, where ε-greedy would
//! keep playing the same column.

use rand::Rng;

use crate::reasoner::Reasoner;
use crate::watch::DeadlineWatch;

/// ε-greedy: the share of playout moves chosen at random rather than
/// greedily.
const EPSILON: f64 = 0.4;

/// A move's record: simulations, the sum of its role's returns, and its
/// Gibbs weight `exp(mean / temperature)` (kept up to date by each update).
#[derive(Debug, Clone, Copy)]
struct Record {
    count: f32,
    sum: f32,
    weight: f32,
}

impl Default for Record {
    fn default() -> Self {
        Record { count: 0.0, sum: 0.0, weight: 0.0 }
    }
}

/// Per-move average returns and the ε-greedy playout policy they drive.
pub(crate) struct Mast {
    /// Per role, per move number (grown as the reasoner numbers new moves).
    records: Vec<Vec<Record>>,
    /// Gibbs temperature; 0 for ε-greedy.
    temperature: f32,
    /// The weight of an unseen move.
    unseen: f32,
    /// Scratch: legal moves of one role.
    legal: Vec<u32>,
    /// Scratch: the joint move being built.
    joint: Vec<u32>,
    enabled: bool,
    /// Each role's legal moves, added up over the states of the last
    /// playout (its mobility along the way).
    moves_seen: Vec<u64>,
}

impl Mast {
    /// Empty statistics for the moves `reasoner` numbers; `enabled: false`
    /// makes playouts uniformly random; `temperature` is τ (0 for
    /// ε-greedy).
    pub(crate) fn new(reasoner: &impl Reasoner, enabled: bool, temperature: f64) -> Mast {
        let records: Vec<Vec<Record>> =
            (0..reasoner.roles()).map(|r| vec![Record::default(); reasoner.move_count(r)]).collect();
        let temperature = temperature as f32;
        let unseen = if temperature > 0.0 { (1.0 / temperature).exp() } else { 0.0 };
        let moves_seen = vec![0; records.len()];
        Mast { records, temperature, unseen, legal: Vec::new(), joint: Vec::new(), enabled, moves_seen }
    }

    /// Weakens the old evidence by `factor` (between moves of a match: the
    /// averages stay, the counts shrink so new results weigh more).
    pub(crate) fn decay(&mut self, factor: f32) {
        for record in self.records.iter_mut().flatten() {
            record.count *= factor;
            record.sum *= factor;
        }
    }

    /// The average return of `mv` for `role`; 1 (the best) when unseen.
    fn value(&self, role: usize, mv: u32) -> f32 {
        let r = self.records[role].get(mv as usize).copied().unwrap_or_default();
        if r.count > 0.0 { r.sum / r.count } else { 1.0 }
    }

    /// Credits every move of `moves` (pairs of role and move number) with
    /// its role's return.
    pub(crate) fn update(&mut self, moves: &[(u16, u32)], rewards: &[f64]) {
        if !self.enabled {
            return;
        }
        for &(role, mv) in moves {
            let records = &mut self.records[role as usize];
            if mv as usize >= records.len() {
                // A move the reasoner numbered after the table was made.
                records.resize(mv as usize + 1, Record::default());
            }
            let r = &mut records[mv as usize];
            r.count += 1.0;
            r.sum += rewards[role as usize] as f32;
            if self.temperature > 0.0 {
                r.weight = (r.sum / r.count / self.temperature).exp();
            }
        }
    }

    /// The move `role` plays in the evaluator's current state, or `None`
    /// without a legal move; whether it had a choice.
    fn pick(&mut self, e: &mut impl Reasoner, role: usize, rng: &mut impl Rng) -> Option<(u32, bool)> {
        e.legal_moves(role, &mut self.legal);
        self.moves_seen[role] += self.legal.len() as u64;
        match self.legal.len() {
            0 => return None,
            1 => return Some((self.legal[0], false)),
            _ => {}
        }
        if !self.enabled || (self.temperature == 0.0 && rng.random_bool(EPSILON)) {
            return Some((self.legal[rng.random_range(0..self.legal.len())], true));
        }
        if self.temperature > 0.0 {
            let weight = |mv: u32| match self.records[role].get(mv as usize) {
                Some(r) if r.count > 0.0 => r.weight,
                _ => self.unseen,
            };
            let total: f32 = self.legal.iter().map(|&m| weight(m)).sum();
            let mut x = rng.random::<f32>() * total;
            for &mv in &self.legal {
                x -= weight(mv);
                if x < 0.0 {
                    return Some((mv, true));
                }
            }
            return Some((*self.legal.last().expect("several moves"), true));
        }
        // The best average, ties broken uniformly at random.
        let (mut best, mut best_value, mut ties) = (self.legal[0], f32::MIN, 0u32);
        for &mv in &self.legal {
            let v = self.value(role, mv);
            if v > best_value {
                (best, best_value, ties) = (mv, v, 1);
            } else if v == best_value {
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    best = mv;
                }
            }
        }
        Some((best, true))
    }

    /// Each role's legal moves added up over the states of the last
    /// playout.
    pub(crate) fn moves_seen(&self) -> &[u64] {
        &self.moves_seen
    }

    /// Plays from the evaluator's current state until a terminal state, a
    /// role without legal moves, or `max_steps` transitions; appends each
    /// choice made (a role with a single legal move makes none) to `trace`.
    /// `false` when `watch`'s deadline passed first, or the reasoner
    /// expired: the playout is cut short and says nothing.
    pub(crate) fn playout(
        &mut self,
        e: &mut impl Reasoner,
        rng: &mut impl Rng,
        max_steps: usize,
        trace: &mut Vec<(u16, u32)>,
        watch: &mut DeadlineWatch,
    ) -> bool {
        let roles = self.records.len();
        let mut joint = std::mem::take(&mut self.joint);
        let mut finished = true;
        self.moves_seen.iter_mut().for_each(|m| *m = 0);
        'play: for _ in 0..max_steps {
            if e.is_terminal() {
                break;
            }
            if watch.passed() {
                finished = false;
                break;
            }
            joint.clear();
            for r in 0..roles {
                match self.pick(e, r, rng) {
                    Some((mv, choice)) => {
                        joint.push(mv);
                        if choice {
                            trace.push((r as u16, mv));
                        }
                    }
                    None => break 'play,
                }
            }
            e.advance(&joint);
        }
        self.joint = joint;
        finished && !e.expired()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::machine::{Evaluator, Machine};
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    /// A deadline no test reaches.
    fn far() -> DeadlineWatch {
        DeadlineWatch::new(std::time::Instant::now() + std::time::Duration::from_secs(3600))
    }

    /// Runs `playouts` playouts of `mast` from the initial state, each to a
    /// terminal state, and counts how often role 0 played `chosen`: that
    /// count and the number of moves made in all.
    fn count_in_playouts(
        mast: &mut Mast,
        e: &mut Evaluator,
        machine: &Machine,
        rng: &mut SmallRng,
        playouts: usize,
        chosen: u32,
    ) -> (usize, usize) {
        let mut trace = Vec::new();
        for _ in 0..playouts {
            e.load(&machine.initial_state());
            mast.playout(e, rng, 100, &mut trace, &mut far());
            assert!(e.is_terminal());
        }
        (trace.iter().filter(|&&(role, m)| role == 0 && m == chosen).count(), trace.len())
    }

    #[test]
    fn playouts_prefer_moves_with_good_averages() {
        // Each step the robot may go left or right; five steps end the game.
        let game = Game::parse(
            "(role r) (init (t 0)) (s 0 1) (s 1 2) (s 2 3) (s 3 4) (s 4 5)
             (legal r left) (legal r right)
             (<= (next (t ?y)) (true (t ?x)) (s ?x ?y))
             (<= terminal (true (t 5))) (goal r 50)",
        )
        .unwrap();
        let machine = Machine::compile(&game).unwrap();
        let left = machine.move_index(0, &"left".parse().unwrap()).unwrap();
        let right = machine.move_index(0, &"right".parse().unwrap()).unwrap();
        let mut e = Evaluator::new(&machine);
        let mut mast = Mast::new(&e, true, 0.0);
        mast.update(&[(0, left); 10], &[1.0]);
        mast.update(&[(0, right); 10], &[0.0]);
        let mut rng = SmallRng::seed_from_u64(3);
        let (lefts, moves) = count_in_playouts(&mut mast, &mut e, &machine, &mut rng, 200, left);
        assert_eq!(moves, 1000);
        // Greedy 60% of the time, random 40%: about 80% left.
        assert!((700..900).contains(&lefts), "{lefts} of 1000");
        mast.decay(0.5);
        assert_eq!(mast.value(0, left), 1.0);

        // Gibbs sampling at τ = 0.1: odds of e^10 to 1 for left; an unseen
        // move weighs as much as the best.
        let mut gibbs = Mast::new(&e, true, 0.1);
        gibbs.update(&[(0, left); 10], &[1.0]);
        let (lefts, moves) = count_in_playouts(&mut gibbs, &mut e, &machine, &mut rng, 100, left);
        assert_eq!(moves, 500);
        assert!((200..300).contains(&lefts), "{lefts} of 500: right, unseen, weighs as much as left");
        let mut gibbs = Mast::new(&e, true, 0.1);
        gibbs.update(&[(0, left); 10], &[1.0]);
        gibbs.update(&[(0, right); 10], &[0.0]);
        gibbs.update(&[(0, left); 10], &[1.0]);
        let (lefts, _) = count_in_playouts(&mut gibbs, &mut e, &machine, &mut rng, 100, left);
        assert!(lefts >= 495, "{lefts} of 500");
    }
}
