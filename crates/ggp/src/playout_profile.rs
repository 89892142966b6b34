//! What a search's playouts have shown so far: how many ran to the end, how
//! their outcomes (every role's goal) were spread, and how long the search
//! took to run them. From these a search tells whether playouts to the end
//! are worth their cost in a game (see [`crate::LeafEvaluation`]): a playout
//! informs only when its outcome differs from what most playouts end in,
//! and only the playouts that fit in a move's time count.

use std::time::Duration;

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
