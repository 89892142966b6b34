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

use crate::reasoner::{Chooser, Reasoner};
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
    enabled: bool,
    /// Per role, in the state being played: whether it had a choice, and
    /// whether its move is picked uniformly (the ε of ε-greedy).
    choice: Vec<bool>,
    uniform: Vec<bool>,
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
        let roles = records.len();
        Mast {
            records,
            temperature,
            unseen,
            enabled,
            choice: vec![false; roles],
            uniform: vec![false; roles],
            moves_seen: vec![0; roles],
        }
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

    /// The move `role` plays among `offered` (its legal moves, or a
    /// superset of them where the reasoner draws its moves): the first
    /// offer in a state counts the moves offered as seen, says whether the
    /// role has a choice, and decides (ε-greedy) whether this state's pick
    /// is uniform; a later offer (the move picked was illegal) keeps that
    /// decision, so that each rule of the policy picks among the legal moves
    /// alone.
    fn pick(&mut self, role: usize, offered: &[u32], first: bool, rng: &mut impl Rng) -> u32 {
        if first {
            self.moves_seen[role] += offered.len() as u64;
            self.choice[role] = offered.len() > 1;
            self.uniform[role] =
                !self.enabled || (self.temperature == 0.0 && offered.len() > 1 && rng.random_bool(EPSILON));
        }
        if offered.len() == 1 {
            return offered[0];
        }
        if self.uniform[role] {
            return offered[rng.random_range(0..offered.len())];
        }
        if self.temperature > 0.0 {
            let weight = |mv: u32| match self.records[role].get(mv as usize) {
                Some(r) if r.count > 0.0 => r.weight,
                _ => self.unseen,
            };
            let total: f32 = offered.iter().map(|&m| weight(m)).sum();
            let mut x = rng.random::<f32>() * total;
            for &mv in offered {
                x -= weight(mv);
                if x < 0.0 {
                    return mv;
                }
            }
            return *offered.last().expect("several moves");
        }
        // The best average, ties broken uniformly at random.
        let (mut best, mut best_value, mut ties) = (offered[0], f32::MIN, 0u32);
        for &mv in offered {
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
        best
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
        self.moves_seen.iter_mut().for_each(|m| *m = 0);
        let mut policy = Policy { mast: self, rng, trace };
        let finished = e.playout_choosing(max_steps, || !watch.passed(), &mut policy).is_some();
        finished && !e.expired()
    }
}

/// The MAST policy choosing a playout's moves, with what it records.
struct Policy<'a, R> {
    mast: &'a mut Mast,
    rng: &'a mut R,
    trace: &'a mut Vec<(u16, u32)>,
}

impl<R: Rng> Chooser for Policy<'_, R> {
    fn choose(&mut self, role: usize, offered: &[u32], first: bool) -> u32 {
        self.mast.pick(role, offered, first, self.rng)
    }

    /// Appends the move of each role that had a choice to the trace.
    fn played(&mut self, joint: &[u32]) {
        for (r, &mv) in joint.iter().enumerate() {
            if self.mast.choice[r] {
                self.trace.push((r as u16, mv));
            }
        }
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

    /// Offered a superset whose best move was illegal, the greedy policy
    /// picks the best of the moves left; the ε of ε-greedy is decided once
    /// per state (a later offer keeps a uniform pick uniform); the first
    /// offer counts the moves seen and whether the role has a choice.
    #[test]
    fn a_later_offer_keeps_the_state_s_decisions() {
        let game = Game::parse(
            "(role r) (init (t 0)) (s 0 1) (legal r a) (legal r b) (legal r c)
             (<= (next (t ?y)) (true (t ?x)) (s ?x ?y)) (<= terminal (true (t 1))) (goal r 50)",
        )
        .unwrap();
        let machine = Machine::compile(&game).unwrap();
        let [a, b, c] = ["a", "b", "c"].map(|m| machine.move_index(0, &m.parse().unwrap()).unwrap());
        let e = Evaluator::new(&machine);
        let mut mast = Mast::new(&e, true, 0.0);
        mast.update(&[(0, a); 10], &[1.0]);
        mast.update(&[(0, b); 10], &[0.6]);
        mast.update(&[(0, c); 10], &[0.2]);
        let mut rng = SmallRng::seed_from_u64(5);
        let (mut greedy, mut uniform_c) = (0, 0);
        for _ in 0..400 {
            mast.moves_seen[0] = 0;
            let first = mast.pick(0, &[a, b, c], true, &mut rng);
            assert_eq!((mast.moves_seen[0], mast.choice[0]), (3, true));
            if first != a || mast.uniform[0] {
                // A uniform pick: the later offer is uniform too.
                assert!(mast.uniform[0] || first == a);
                if mast.uniform[0] && mast.pick(0, &[b, c], false, &mut rng) == c {
                    uniform_c += 1;
                }
                continue;
            }
            // Greedy: a was the best; offered the rest, b is.
            assert_eq!(mast.pick(0, &[b, c], false, &mut rng), b);
            assert_eq!(mast.moves_seen[0], 3, "a later offer counts nothing");
            greedy += 1;
        }
        // About 60% greedy; half of the uniform later picks are c.
        assert!((180..300).contains(&greedy), "{greedy} greedy of 400");
        assert!(uniform_c > 30, "{uniform_c} uniform later picks of c");
    }
}
