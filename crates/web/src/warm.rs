//! The misère quotients of the heap games, made ready in the background when
//! the server starts: a browser analysis has too small a budget to compute
//! one that takes seconds, but reads a known one at once (see
//! `bouton_games::quotients`). The quotients bouton ships (Kayles, Guiles,
//! 0.71, 0.72, 0.44, Dawson's Kayles as far as it is known, …) are only read
//! and proved again (milliseconds each); the others are computed, and kept
//! in the data directory when they took a while. One thread at the lowest
//! priority, one game at a time, each within its own budget, called off at
//! shutdown; startup and requests never wait for it (until a game's
//! quotient is known, its analyses search as before).

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bouton_games::{AnyRules, Budget, Cancel, RuleSet};
use bouton_rules::Convention;

/// The most time one game's quotient may take in the background.
pub const WARM_TIME_PER_GAME: Duration = Duration::from_secs(30);

/// The most memory one game's quotient may hold in the background (Kayles
/// needs about 30 MB, 0.72 about 90 MB), well within the server's own.
pub const WARM_BYTES: u64 = 256 << 20;

/// The octal games whose quotient is proved for every heap size (Kayles
/// first, the most played), made ready before the other listed heap games:
/// the browser may also be asked for them by code.
const PROVED_CODES: [&str; 9] = ["0.77", "0.15", "0.71", "0.72", "0.34", "0.75", "0.53", "0.31", "0.52"];

/// The misère rules worth warming: the proved octal codes, then every other
/// heap game the browser lists, each once (Kayles is both).
///
/// ```
/// let games = bouton_web::warm::games();
/// let ids: Vec<String> = games.iter().map(|r| r.id()).collect();
/// assert_eq!(ids[0], "kayles", "0.77 first");
/// assert!(ids.iter().any(|id| id == "octal:0.34"));
/// assert!(ids.iter().any(|id| id == "dawsons-kayles"));
/// assert_eq!(ids.iter().filter(|id| *id == "kayles").count(), 1, "each game once");
/// assert!(games.iter().all(|r| r.misere_quotient_status().is_some()));
/// ```
pub fn games() -> Vec<AnyRules> {
    let coded =
        PROVED_CODES.iter().filter_map(|code| AnyRules::parse(&format!("octal:{code}"), Convention::Misere).ok());
    let listed = RuleSet::examples().into_iter().map(|set| AnyRules::new(set, Convention::Misere));
    let mut games: Vec<AnyRules> = Vec::new();
    for rules in coded.chain(listed) {
        let Some(game) = rules.heap_game() else { continue };
        if rules.misere_quotient_status().is_none() || games.iter().any(|g| g.heap_game().as_ref() == Some(&game)) {
            continue;
        }
        games.push(rules);
    }
    games
}

/// The background thread working out the quotients: [`Warming::stop`] (or
/// dropping it) calls it off.
#[derive(Debug)]
pub struct Warming {
    cancel: Cancel,
    thread: Option<JoinHandle<()>>,
}

impl Warming {
    /// Starts the thread on `games`, each within `per_game` of time,
    /// [`WARM_BYTES`] and the terminal's operations
    /// ([`bouton_games::quotient_budget`]). A system
    /// that cannot start a thread leaves the games to be searched (logged).
    pub fn start(games: Vec<AnyRules>, per_game: Duration) -> Warming {
        let cancel = Cancel::new();
        let flag = cancel.clone();
        let thread = std::thread::Builder::new()
            .name("bouton-warm".to_owned())
            .spawn(move || {
                crate::pool::lower_this_threads_priority();
                warm(&games, per_game, &flag);
            })
            .map_err(|e| tracing::warn!("misère quotients are not warmed: {e}"))
            .ok();
        Warming { cancel, thread }
    }

    /// Calls the work off and waits for the thread, which stops at the
    /// engine's next check (a few milliseconds).
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        self.cancel.cancel();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Warming {
    fn drop(&mut self) {
        self.halt();
    }
}

/// Works out each game's quotient in turn until `cancel` is raised.
fn warm(games: &[AnyRules], per_game: Duration, cancel: &Cancel) {
    let started = Instant::now();
    let mut known = 0;
    for rules in games {
        if cancel.is_cancelled() {
            return;
        }
        let budget = Budget::new(bouton_games::quotient_budget().operations(), WARM_BYTES)
            .with_time_limit(per_game)
            .with_cancel(cancel.clone());
        let began = Instant::now();
        match rules.misere_quotient(&budget) {
            Some(q) => {
                known += 1;
                tracing::debug!(
                    "misère quotient of {} ready: {} elements, in {:.1} s",
                    rules.id(),
                    q.order(),
                    began.elapsed().as_secs_f64()
                );
            }
            None if cancel.is_cancelled() => return,
            None => tracing::info!(
                "no misère quotient for {} within {} s: searched instead",
                rules.id(),
                per_game.as_secs()
            ),
        }
    }
    tracing::info!(
        "misère quotients ready for {known} of {} heap games in {:.1} s",
        games.len(),
        started.elapsed().as_secs_f64()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warmed_quotient_is_ready_for_the_next_analysis() {
        let rules = AnyRules::parse("octal:0.75", Convention::Misere).unwrap();
        Warming::start(vec![rules.clone()], WARM_TIME_PER_GAME).stop();
        // Stopped at once or finished: either way the thread is gone.
        let warming = Warming::start(vec![rules.clone()], WARM_TIME_PER_GAME);
        let deadline = Instant::now() + Duration::from_secs(60);
        while rules.misere_quotient_status() != Some(bouton_games::QuotientStatus::Known) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        warming.stop();
        assert_eq!(rules.misere_quotient_status(), Some(bouton_games::QuotientStatus::Known));
    }

    #[test]
    fn stopping_calls_the_work_off() {
        // 0.45 takes seconds (it is not shipped): stopping at once returns long before.
        let game = AnyRules::parse("octal:0.45", Convention::Misere).unwrap();
        let began = Instant::now();
        Warming::start(vec![game], WARM_TIME_PER_GAME).stop();
        assert!(began.elapsed() < Duration::from_secs(5), "{:?}", began.elapsed());
    }
}
