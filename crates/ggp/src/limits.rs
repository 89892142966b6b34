//! The limits of one question to the reasoner beyond its budget of
//! operations: a deadline and a cancellation, each optional
//! ([`Limits`]), and the answer given when they are reached
//! ([`OutOfLimits`]: not available within the limits — never a partial
//! answer).
//!
//! ```
//! use bouton_ggp::cancel::Canceller;
//! use bouton_ggp::limits::{Limits, OutOfLimits};
//! use bouton_ggp::{Game, Prover};
//! use std::time::{Duration, Instant};
//!
//! let game = Game::parse("(role you) (init (at 0)) (<= (legal you go) (true (at 0)))
//!     (<= (next (at 1)) (does you go)) (<= terminal (true (at 1))) (goal you 100)")?;
//! let mut prover = Prover::new(&game);
//! let start = prover.initial_state();
//! let soon = Limits::none().until(Instant::now() + Duration::from_secs(60));
//! assert_eq!(prover.legal_moves_within(&start, 0, soon), Ok(vec!["go".parse()?]));
//! let past = Limits::none().until(Instant::now() - Duration::from_millis(1));
//! assert_eq!(prover.legal_moves_within(&start, 0, past), Err(OutOfLimits::Deadline));
//! let canceller = Canceller::new();
//! canceller.cancel();
//! let cancelled = Limits::none().cancelled_by(canceller.handle());
//! assert_eq!(prover.is_terminal_within(&start, cancelled), Err(OutOfLimits::Cancelled));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::time::Instant;

use crate::cancel::Cancel;

/// When a question must stop: at a deadline, once cancelled, both, or
/// neither ([`Limits::none`], the default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    deadline: Option<Instant>,
    cancel: Option<Cancel>,
}

impl Limits {
    /// No deadline and no cancellation.
    pub const fn none() -> Limits {
        Limits { deadline: None, cancel: None }
    }

    /// These limits, with `deadline` too (the earlier deadline, if they
    /// already had one).
    pub fn until(self, deadline: Instant) -> Limits {
        let deadline = self.deadline.map_or(deadline, |d| d.min(deadline));
        Limits { deadline: Some(deadline), ..self }
    }

    /// These limits, cancelled when `cancel` is (replacing any cancellation
    /// they had).
    pub fn cancelled_by(self, cancel: Cancel) -> Limits {
        Limits { cancel: Some(cancel), ..self }
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The cancellation, if any.
    pub fn cancel(&self) -> Option<Cancel> {
        self.cancel
    }

    /// Whether there is neither a deadline nor a cancellation (then
    /// [`Limits::exceeded`] never reads the clock).
    pub fn is_none(&self) -> bool {
        self.deadline.is_none() && self.cancel.is_none()
    }

    /// Which limit is reached now, if any: cancellation first, then the
    /// deadline (which reads the clock).
    pub fn exceeded(&self) -> Option<OutOfLimits> {
        if self.cancel.is_some_and(|c| c.is_cancelled()) {
            return Some(OutOfLimits::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(OutOfLimits::Deadline);
        }
        None
    }
}

/// Why an answer is not available within the limits it was asked with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutOfLimits {
    /// The deadline passed before the answer was complete.
    Deadline,
    /// The question was cancelled.
    Cancelled,
    /// The budget of operations (atoms derived, rule instances found) ran
    /// out first: the game defines huge (or infinite) relations.
    Operations,
}

impl fmt::Display for OutOfLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self {
            OutOfLimits::Deadline => "the deadline passed",
            OutOfLimits::Cancelled => "the question was cancelled",
            OutOfLimits::Operations => "the budget of operations ran out",
        };
        write!(f, "not available within the limits: {why}")
    }
}

impl std::error::Error for OutOfLimits {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::Canceller;
    use std::time::Duration;

    #[test]
    fn the_earlier_deadline_holds_and_cancellation_comes_first() {
        let now = Instant::now();
        let later = now + Duration::from_secs(3600);
        let limits = Limits::none().until(later).until(now - Duration::from_secs(1)).until(later);
        assert_eq!(limits.deadline(), Some(now - Duration::from_secs(1)));
        assert_eq!(limits.exceeded(), Some(OutOfLimits::Deadline));
        let canceller = Canceller::new();
        let limits = limits.cancelled_by(canceller.handle());
        assert_eq!(limits.exceeded(), Some(OutOfLimits::Deadline));
        canceller.cancel();
        assert_eq!(limits.exceeded(), Some(OutOfLimits::Cancelled));
        assert!(Limits::none().is_none() && Limits::none().exceeded().is_none());
        assert_eq!(Limits::none().until(later).exceeded(), None);
    }
}
