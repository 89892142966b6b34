//! Deadlines kept by searches whose unit of work costs anything from a few
//! nanoseconds (a compiled Nim transition) to milliseconds (a chess
//! transition whose threat tests an oracle answers).

use std::time::{Duration, Instant};

/// Reading the clock this much apart or less lets the watch read it half as
/// often.
const QUICK: Duration = Duration::from_micros(50);

/// Reading the clock more than this much apart makes the watch read it
/// twice as often.
const SLOW: Duration = Duration::from_micros(500);

/// Most calls of [`DeadlineWatch::passed`] between two readings.
const MAX_INTERVAL: u32 = 1024;

/// Tells whether a deadline has passed, reading the clock only every so many
/// calls: as rarely as every 1,024th call when the work between calls is
/// quick, at every call when it is slow — so a slow game overruns its
/// deadline by about one unit of work, and a quick one pays almost nothing
/// for the clock.
#[derive(Debug, Clone)]
pub(crate) struct DeadlineWatch {
    deadline: Instant,
    interval: u32,
    countdown: u32,
    last: Instant,
}

impl DeadlineWatch {
    /// A watch on `deadline`; its first call reads the clock.
    pub(crate) fn new(deadline: Instant) -> DeadlineWatch {
        DeadlineWatch { deadline, interval: 1, countdown: 1, last: Instant::now() }
    }

    /// Whether the deadline has passed, as of the last reading of the clock.
    pub(crate) fn passed(&mut self) -> bool {
        self.countdown -= 1;
        if self.countdown > 0 {
            return false;
        }
        let now = Instant::now();
        let gap = now.saturating_duration_since(self.last);
        self.last = now;
        if gap <= QUICK {
            self.interval = (self.interval * 2).min(MAX_INTERVAL);
        } else if gap > SLOW {
            self.interval = (self.interval / 2).max(1);
        }
        self.countdown = self.interval;
        now >= self.deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passed_deadline_is_seen_at_the_first_call() {
        let mut watch = DeadlineWatch::new(Instant::now());
        assert!(watch.passed());
    }

    #[test]
    fn quick_calls_read_the_clock_rarely_and_slow_ones_at_every_call() {
        let mut watch = DeadlineWatch::new(Instant::now() + Duration::from_secs(3600));
        for _ in 0..100_000 {
            assert!(!watch.passed());
        }
        assert_eq!(watch.interval, MAX_INTERVAL, "quick work: the clock is read every 1,024th call");
        // The work becomes slow (a millisecond a call): within a few
        // readings the clock is read at every call again.
        for _ in 0..2 * MAX_INTERVAL {
            std::thread::sleep(Duration::from_millis(1));
            watch.passed();
            if watch.interval == 1 {
                break;
            }
        }
        assert_eq!(watch.interval, 1);
    }

    #[test]
    fn slow_work_stops_at_the_first_call_after_the_deadline() {
        let deadline = Instant::now() + Duration::from_millis(30);
        let mut watch = DeadlineWatch::new(deadline);
        let mut units = 0;
        loop {
            if watch.passed() {
                assert!(Instant::now() >= deadline);
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
            units += 1;
        }
        assert!(units > 0, "the deadline was 30 ms away at the first call");
    }
}
