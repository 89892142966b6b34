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

    /// Which limit is reached now, if any, as an error: `?` ends the work
    /// there ([`Limits::exceeded`]).
    pub fn check(&self) -> Result<(), OutOfLimits> {
        self.exceeded().map_or(Ok(()), Err)
    }

    /// Which limit is reached now, if any: cancellation first, then the
    /// deadline (which reads the clock).
    pub fn exceeded(&self) -> Option<OutOfLimits> {
        #[cfg(test)]
        tap::on_read(self);
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

/// The answer of work run without limits ([`Limits::none`]), which nothing
/// stops: its value.
pub(crate) fn unlimited<T>(answer: Result<T, OutOfLimits>) -> T {
    match answer {
        Ok(answer) => answer,
        Err(why) => unreachable!("work without limits was stopped: {why}"),
    }
}

/// For the tests: limits cancelled from another thread at exactly the
/// `n`th time they are read ([`tap::cancelled_at_read`]), so that a test can
/// stop a piece of work at each of its checks in turn, whatever the speed of
/// the machine.
#[cfg(test)]
pub(crate) mod tap {
    use std::sync::{Arc, Condvar, Mutex, PoisonError};

    use super::{Limits, OutOfLimits};
    use crate::cancel::{Cancel, Canceller};

    /// The reads of one tapped cancellation, shared by the thread doing the
    /// work and the thread cancelling it.
    #[derive(Default)]
    struct Reads {
        state: Mutex<ReadState>,
        changed: Condvar,
    }

    /// How far the work and the cancelling thread have come.
    #[derive(Default)]
    struct ReadState {
        /// The limits' reads so far.
        count: usize,
        /// The read at which the cancellation is raised.
        due: usize,
        /// Whether the cancellation is raised.
        raised: bool,
        /// Whether the work is over.
        done: bool,
    }

    /// The tapped cancellations, by their handle.
    static TAPPED: Mutex<Vec<(Cancel, Arc<Reads>)>> = Mutex::new(Vec::new());

    /// Counts a read of `limits` if their cancellation is tapped; at the
    /// read that is due, waits until the other thread has raised it (so
    /// that this very read sees it).
    pub(super) fn on_read(limits: &Limits) {
        let Some(cancel) = limits.cancel else { return };
        let tapped = TAPPED.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(reads) = tapped.iter().find(|(c, _)| *c == cancel).map(|(_, r)| r.clone()) else { return };
        drop(tapped);
        let mut state = reads.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.count += 1;
        if state.count == state.due {
            reads.changed.notify_all();
            while !state.raised {
                state = reads.changed.wait(state).unwrap_or_else(PoisonError::into_inner);
            }
        }
    }

    /// Runs `work` with limits (a cancellation only) that another thread
    /// cancels at their `n`th read (never for `usize::MAX`); `work`'s
    /// answer, and how many times it read the limits.
    pub(crate) fn cancelled_at_read<T>(n: usize, work: impl FnOnce(Limits) -> T) -> (T, usize) {
        let canceller = Canceller::new();
        let reads = Arc::new(Reads::default());
        reads.state.lock().unwrap_or_else(PoisonError::into_inner).due = n;
        TAPPED.lock().unwrap_or_else(PoisonError::into_inner).push((canceller.handle(), reads.clone()));
        let limits = Limits::none().cancelled_by(canceller.handle());
        let answer = std::thread::scope(|scope| {
            scope.spawn(|| {
                let mut state = reads.state.lock().unwrap_or_else(PoisonError::into_inner);
                while state.count < state.due && !state.done {
                    state = reads.changed.wait(state).unwrap_or_else(PoisonError::into_inner);
                }
                if !state.done {
                    canceller.cancel();
                    state.raised = true;
                    reads.changed.notify_all();
                }
            });
            let answer = work(limits);
            reads.state.lock().unwrap_or_else(PoisonError::into_inner).done = true;
            reads.changed.notify_all();
            answer
        });
        TAPPED.lock().unwrap_or_else(PoisonError::into_inner).retain(|(c, _)| *c != canceller.handle());
        let count = reads.state.lock().unwrap_or_else(PoisonError::into_inner).count;
        (answer, count)
    }

    /// For the tests of the work that checks its limits as it goes (the
    /// passes of a compilation, a race): `work` within limits never reached
    /// (a cancellation never raised) answers what it answers without limits,
    /// reading them at least `least` times; cancelled from another thread at
    /// `points` of those reads in turn (the first, the last and evenly
    /// between; every read when there are no more than `points`), it answers
    /// [`OutOfLimits::Cancelled`] at that very read, and reads them no more.
    /// The answer without limits, and how many times `work` read them.
    pub(crate) fn assert_stops_at_each_check<T, E>(
        what: &str,
        least: usize,
        points: usize,
        work: impl Fn(Limits) -> Result<T, E>,
    ) -> (T, usize)
    where
        T: PartialEq + std::fmt::Debug,
        E: PartialEq + std::fmt::Debug + From<OutOfLimits>,
    {
        let unlimited = work(Limits::none()).unwrap_or_else(|e| panic!("{what}: without limits: {e:?}"));
        let (within, reads) = cancelled_at_read(usize::MAX, &work);
        assert!(reads >= least, "{what}: the limits read {reads} times");
        println!("{what}: the limits read {reads} times");
        assert_eq!(within.as_ref().ok(), Some(&unlimited), "{what}: within limits never reached");
        let points = points.min(reads);
        for k in 0..points {
            let n = 1 + k * (reads - 1) / (points - 1).max(1);
            let (stopped, read) = cancelled_at_read(n, &work);
            let cancelled = Some(E::from(OutOfLimits::Cancelled));
            assert_eq!(stopped.err(), cancelled, "{what}: cancelled at read {n} of {reads}");
            assert_eq!(read, n, "{what}: no read after the one that stopped it");
        }
        (unlimited, reads)
    }
}

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
        assert_eq!(Limits::none().until(later).check(), Ok(()));
        assert_eq!(limits.check(), Err(OutOfLimits::Cancelled));
    }

    #[test]
    fn a_tapped_cancellation_is_raised_at_its_read() {
        // Work that reads its limits ten times, noting what each read saw.
        let work = |limits: Limits| (0..10).map(|_| limits.exceeded()).collect::<Vec<_>>();
        let (seen, reads) = tap::cancelled_at_read(usize::MAX, work);
        assert_eq!((seen, reads), (vec![None; 10], 10), "never raised");
        for n in [1, 4, 10] {
            let (seen, reads) = tap::cancelled_at_read(n, work);
            assert_eq!(reads, 10);
            assert!(seen[..n - 1].iter().all(Option::is_none), "before the {n}th read: {seen:?}");
            assert!(seen[n - 1..].iter().all(|s| *s == Some(OutOfLimits::Cancelled)), "from the {n}th: {seen:?}");
        }
        let (seen, _) = tap::cancelled_at_read(11, work);
        assert_eq!(seen, vec![None; 10], "due after the work is done");
    }

    /// Work that reads its limits ten times, stopping at the first that is
    /// reached: ten, when none is.
    fn ten_checks(limits: Limits) -> Result<usize, OutOfLimits> {
        for _ in 0..10 {
            limits.check()?;
        }
        Ok(10)
    }

    #[test]
    fn work_that_stops_at_each_check_passes_the_check_of_it() {
        assert_eq!(tap::assert_stops_at_each_check("ten checks", 10, 4, ten_checks), (10, 10));
        assert_eq!(tap::assert_stops_at_each_check("ten checks", 10, usize::MAX, ten_checks), (10, 10));
    }

    #[test]
    #[should_panic(expected = "late: no read after the one that stopped it")]
    fn work_that_reads_past_a_cancellation_fails_the_check_of_it() {
        // Reads its limits ten times, and only then looks at what they said.
        let late = |limits: Limits| {
            let seen: Vec<_> = (0..10).map(|_| limits.check()).collect();
            seen.into_iter().collect::<Result<Vec<()>, _>>().map(|_| 10)
        };
        tap::assert_stops_at_each_check("late", 10, 4, late);
    }

    #[test]
    #[should_panic(expected = "deaf: cancelled at read 1 of 10")]
    fn work_that_ignores_a_cancellation_fails_the_check_of_it() {
        // Reads its limits ten times, and answers whatever they said.
        let deaf = |limits: Limits| {
            (0..10).for_each(|_| _ = limits.exceeded());
            Ok::<_, OutOfLimits>(10)
        };
        tap::assert_stops_at_each_check("deaf", 10, 4, deaf);
    }
}
