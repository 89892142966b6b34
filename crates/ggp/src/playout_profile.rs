//! What a search's playouts have shown so far: how many ran to the end, how
//! their outcomes (every role's goal) were spread, and how long the search
//! took to run them. From these a search tells whether playouts to the end
//! are worth their cost in a game (see [`crate::LeafEvaluation`]): a playout
//! informs only when its outcome differs from what most playouts end in,
//! and only the playouts that fit in a move's time count.

use std::time::Duration;

/// Playouts recorded with their mobility before its correlation with the
/// outcome is told.
const MOBILITY_MEASURED: f64 = 20.0;

/// Standard errors (of a correlation of none, about 1 / √n) the measured
/// correlation must lie beyond for the playouts to show which way mobility
/// points.
const SHOWN: f64 = 2.0;

/// Standard errors beyond which the way mobility points is settled, so
/// that measuring it further is not worth the playouts' cost.
const SETTLED: f64 = 3.0;

/// Playouts recorded with their mobility after which measuring stops,
/// whatever they showed: a correlation still within three standard errors
/// of none (below 0.15) is too weak to matter.
const MOBILITY_ENOUGH: f64 = 400.0;

/// Most distinct outcomes kept apart; the rest are counted together (a game
/// with that many outcomes is informative anyway).
const MAX_OUTCOMES: usize = 16;

/// The outcomes and cost of a search's playouts to the end.
///
/// ```
/// use bouton_ggp::PlayoutProfile;
/// use std::time::Duration;
///
/// let mut profile = PlayoutProfile::default();
/// // Nine playouts end with no winner, one with the first role winning.
/// for _ in 0..9 {
///     profile.record(&[0, 0]);
/// }
/// profile.record(&[100, 0]);
/// profile.add_time(Duration::from_secs(5));
/// assert_eq!(profile.finished(), 10);
/// assert_eq!(profile.informative_share(), 0.1);
/// assert_eq!(profile.playouts_per_second(), 2.0);
/// // In a 5-second move: ten playouts, one of them informative.
/// assert_eq!(profile.informative_in(Duration::from_secs(5)), 1.0);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlayoutProfile {
    finished: u64,
    /// Each outcome seen, with how many playouts ended in it.
    outcomes: Vec<(Box<[u8]>, u64)>,
    /// Playouts whose outcome was not kept apart (beyond `MAX_OUTCOMES`).
    others: u64,
    /// Time spent searching while these playouts ran.
    time: Duration,
    /// How the first role's lead in mobility along each playout went with
    /// its lead in goals at the end ([`PlayoutProfile::mobility_correlation`]).
    mobility: Correlation,
}

/// Sums from which the correlation of two quantities over samples follows.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Correlation {
    n: f64,
    x: f64,
    y: f64,
    xy: f64,
    xx: f64,
    yy: f64,
}

impl Correlation {
    /// Adds a sample.
    fn add(&mut self, x: f64, y: f64) {
        self.n += 1.0;
        self.x += x;
        self.y += y;
        self.xy += x * y;
        self.xx += x * x;
        self.yy += y * y;
    }

    /// Adds another's samples.
    fn merge(&mut self, other: &Correlation) {
        self.n += other.n;
        self.x += other.x;
        self.y += other.y;
        self.xy += other.xy;
        self.xx += other.xx;
        self.yy += other.yy;
    }

    /// Pearson's coefficient, if both quantities varied.
    fn coefficient(&self) -> Option<f64> {
        let covariance = self.n * self.xy - self.x * self.y;
        let (vx, vy) = (self.n * self.xx - self.x * self.x, self.n * self.yy - self.y * self.y);
        (vx > 1e-12 && vy > 1e-12).then(|| covariance / (vx * vy).sqrt())
    }
}

impl PlayoutProfile {
    /// Counts a playout that ended with `goals` (every role's goal, 0 where
    /// the rules define none).
    pub fn record(&mut self, goals: &[u8]) {
        self.record_many(goals, 1);
    }

    /// Counts `count` playouts that ended with `goals`.
    fn record_many(&mut self, goals: &[u8], count: u64) {
        self.finished += count;
        if let Some(entry) = self.outcomes.iter_mut().find(|(o, _)| **o == *goals) {
            entry.1 += count;
        } else if self.outcomes.len() < MAX_OUTCOMES {
            self.outcomes.push((goals.into(), count));
        } else {
            self.others += count;
        }
    }

    /// Counts a playout along which each role had `moves[r]` legal moves in
    /// all (over its states) and which ended with `goals`: how the first
    /// role's share of the moves, less the others' mean share, went with its
    /// goal less theirs.
    pub fn record_mobility(&mut self, moves: &[u64], goals: &[u8]) {
        let total: u64 = moves.iter().sum();
        if moves.len() < 2 || total == 0 {
            return;
        }
        let others = (moves.len() - 1) as f64;
        let share = |m: u64| m as f64 / total as f64;
        let lead = share(moves[0]) - (1.0 - share(moves[0])) / others;
        let goal_sum: f64 = goals.iter().map(|&g| f64::from(g)).sum();
        let goal_lead = f64::from(goals[0]) - (goal_sum - f64::from(goals[0])) / others;
        self.mobility.add(lead, goal_lead);
    }

    /// How a lead in mobility along the playouts went with a lead in goals
    /// at their end (Pearson's coefficient, between −1 and 1), once a few
    /// dozen playouts have been recorded and both varied: positive where
    /// the side with more moves tends to win (amazons, chess), negative
    /// where it tends to lose (amazonsSuicide, whose roles win by running
    /// out of moves). `None` until then.
    ///
    /// ```
    /// use bouton_ggp::PlayoutProfile;
    ///
    /// let mut profile = PlayoutProfile::default();
    /// for i in 0..40 {
    ///     // The role with more moves along the way wins.
    ///     let (moves, goals) = if i % 2 == 0 { ([300, 100], [100, 0]) } else { ([100, 300], [0, 100]) };
    ///     profile.record_mobility(&moves, &goals);
    /// }
    /// assert!(profile.mobility_correlation().unwrap() > 0.99);
    /// ```
    pub fn mobility_correlation(&self) -> Option<f64> {
        if self.mobility.n < MOBILITY_MEASURED {
            return None;
        }
        self.mobility.coefficient()
    }

    /// The mobility correlation in standard errors from none (r·√n), once
    /// it is told ([`PlayoutProfile::mobility_correlation`]).
    fn mobility_evidence(&self) -> Option<f64> {
        self.mobility_correlation().map(|r| r * self.mobility.n.sqrt())
    }

    /// Whether the playouts show, beyond chance, that the side with fewer
    /// moves along the way wins: a negative correlation at least two
    /// standard errors (about 2 / √n) from none.
    pub fn fewer_moves_win(&self) -> bool {
        self.mobility_evidence().is_some_and(|z| z < -SHOWN)
    }

    /// Whether the playouts show, beyond chance, that the side with more
    /// moves along the way wins: a positive correlation at least two
    /// standard errors from none.
    pub fn more_moves_win(&self) -> bool {
        self.mobility_evidence().is_some_and(|z| z > SHOWN)
    }

    /// Whether the way mobility points is measured well enough: its
    /// correlation with the outcome is three standard errors from none, or
    /// 400 playouts have been recorded with their mobility (any correlation
    /// still hidden by chance is then too weak to matter). Until then a
    /// search valuing leaves by mobility keeps running a share of playouts
    /// to measure it.
    ///
    /// ```
    /// use bouton_ggp::PlayoutProfile;
    ///
    /// let mut profile = PlayoutProfile::default();
    /// // Fewer moves win, but one playout in three says otherwise.
    /// let playouts = [([300, 100], [100, 0]), ([100, 300], [100, 0]), ([300, 100], [0, 100])];
    /// for i in 0..39 {
    ///     let (moves, goals) = playouts[i % 3];
    ///     profile.record_mobility(&moves, &goals);
    ///     if i == 20 {
    ///         // r = −0.5 over 21 playouts: shown (2.3 standard errors), not
    ///         // settled.
    ///         assert!(profile.fewer_moves_win() && !profile.mobility_settled());
    ///     }
    /// }
    /// // Over 39 playouts: 3.1 standard errors.
    /// assert!(profile.fewer_moves_win() && profile.mobility_settled());
    /// assert!(!profile.more_moves_win());
    /// assert!(!PlayoutProfile::default().mobility_settled());
    /// ```
    pub fn mobility_settled(&self) -> bool {
        self.mobility.n >= MOBILITY_ENOUGH || self.mobility_evidence().is_some_and(|z| z.abs() >= SETTLED)
    }

    /// Adds searching time.
    pub fn add_time(&mut self, time: Duration) {
        self.time += time;
    }

    /// Adds what `other` recorded (another search thread's playouts, run in
    /// the same time: its time is not added).
    pub fn merge_playouts(&mut self, other: &PlayoutProfile) {
        for (goals, count) in &other.outcomes {
            self.record_many(goals, *count);
        }
        self.finished += other.others;
        self.others += other.others;
        self.mobility.merge(&other.mobility);
    }

    /// Playouts that ran to the end.
    pub fn finished(&self) -> u64 {
        self.finished
    }

    /// Time spent searching.
    pub fn time(&self) -> Duration {
        self.time
    }

    /// The share of playouts whose outcome differs from the most common one
    /// (0 without playouts): those are the ones that tell moves apart.
    pub fn informative_share(&self) -> f64 {
        let modal = self.outcomes.iter().map(|(_, c)| *c).max().unwrap_or(0);
        if self.finished == 0 { 0.0 } else { (self.finished - modal) as f64 / self.finished as f64 }
    }

    /// Playouts finished per second of searching (0 before any time).
    pub fn playouts_per_second(&self) -> f64 {
        let seconds = self.time.as_secs_f64();
        if seconds > 0.0 { self.finished as f64 / seconds } else { 0.0 }
    }

    /// How many informative playouts a search of `time` can expect.
    pub fn informative_in(&self, time: Duration) -> f64 {
        self.playouts_per_second() * time.as_secs_f64() * self.informative_share()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The side with fewer moves along the way wins (amazonsSuicide): told
    /// once enough playouts are recorded; outcomes unrelated to mobility, or
    /// too few playouts, tell nothing of the kind.
    #[test]
    fn fewer_moves_win_only_where_the_playouts_show_it_beyond_chance() {
        let mut suicide = PlayoutProfile::default();
        let mut unrelated = PlayoutProfile::default();
        for i in 0..40u64 {
            let moves = [200 + 10 * (i % 7), 200 + 10 * (i % 5)];
            let fewer_wins = if moves[0] < moves[1] { [100, 0] } else { [0, 100] };
            suicide.record_mobility(&moves, &fewer_wins);
            unrelated.record_mobility(&moves, if i % 2 == 0 { &[100, 0] } else { &[0, 100] });
            if i == 5 {
                assert!(!suicide.fewer_moves_win(), "six playouts are too few");
            }
        }
        assert!(suicide.mobility_correlation().unwrap() < -0.5);
        assert!(suicide.fewer_moves_win());
        assert!(!unrelated.fewer_moves_win(), "{:?}", unrelated.mobility_correlation());
        let mut merged = PlayoutProfile::default();
        merged.merge_playouts(&suicide);
        assert_eq!(merged.mobility_correlation(), suicide.mobility_correlation());
    }

    /// More moves win: shown, and settled at three standard errors;
    /// outcomes unrelated to mobility are settled only after 400 playouts,
    /// with neither way shown.
    #[test]
    fn measuring_mobility_is_settled_by_evidence_or_by_enough_playouts() {
        let mut more = PlayoutProfile::default();
        let mut unrelated = PlayoutProfile::default();
        for i in 0..400u64 {
            let moves = [200 + 10 * (i % 7), 200 + 10 * (i % 5)];
            let more_wins = if moves[0] > moves[1] { [100, 0] } else { [0, 100] };
            more.record_mobility(&moves, &more_wins);
            if i < 30 {
                assert!(more.more_moves_win() == (i + 1 >= 20), "{i}: {:?}", more.mobility_correlation());
            }
            assert!(!unrelated.mobility_settled(), "{i}");
            unrelated.record_mobility(&moves, if i % 2 == 0 { &[100, 0] } else { &[0, 100] });
        }
        assert!(more.mobility_settled() && !more.fewer_moves_win());
        assert!(unrelated.mobility_settled());
        assert!(!unrelated.more_moves_win() && !unrelated.fewer_moves_win(), "{:?}", unrelated.mobility_correlation());
    }

    #[test]
    fn the_most_common_outcome_informs_nothing() {
        let mut profile = PlayoutProfile::default();
        assert_eq!(profile.informative_share(), 0.0);
        for _ in 0..6 {
            profile.record(&[100, 0]);
        }
        for _ in 0..4 {
            profile.record(&[0, 100]);
        }
        assert!((profile.informative_share() - 0.4).abs() < 1e-12);
        // Many distinct outcomes: those beyond the kept ones still count as
        // informative.
        let mut many = PlayoutProfile::default();
        for g in 0..40u8 {
            many.record(&[g, 100 - g]);
        }
        assert_eq!(many.finished(), 40);
        assert!((many.informative_share() - 39.0 / 40.0).abs() < 1e-12);
        let mut merged = PlayoutProfile::default();
        merged.merge_playouts(&many);
        merged.merge_playouts(&profile);
        assert_eq!(merged.finished(), 50);
        assert_eq!(merged.time(), Duration::ZERO);
        assert_eq!(merged.playouts_per_second(), 0.0);
    }
}
