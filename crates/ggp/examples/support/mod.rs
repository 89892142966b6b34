//! What the reasoner examples share: reading a rule sheet, and timing a run
//! of playouts by the wall clock and by the playout thread's CPU time.

use std::time::Instant;

/// When a run of playouts began, by the wall clock and by this thread's CPU
/// time.
pub struct PlayoutClock {
    begun: Instant,
    cpu_begun: Option<f64>,
}

impl PlayoutClock {
    /// Starts timing now.
    pub fn start() -> PlayoutClock {
        PlayoutClock { begun: Instant::now(), cpu_begun: cpu_seconds() }
    }

    /// `R transitions/s, C per CPU second` for `steps` transitions since
    /// the start (the CPU part only where Linux tells the thread's time).
    pub fn rates(&self, steps: usize) -> String {
        let rate = steps as f64 / self.begun.elapsed().as_secs_f64();
        let cpu = match (self.cpu_begun, cpu_seconds()) {
            (Some(a), Some(b)) if b > a => format!(", {:.0} per CPU second", steps as f64 / (b - a)),
            _ => String::new(),
        };
        format!("{rate:.0} transitions/s{cpu}")
    }
}

/// The CPU time this thread has used, where Linux tells it
/// (`/proc/thread-self/schedstat`: nanoseconds on a CPU first).
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// The game of the rule sheet `file`; if it cannot be read or parsed, says
/// why on standard error and gives the exit code for bad input.
pub fn read_game(file: &str) -> Result<bouton_ggp::Game, std::process::ExitCode> {
    std::fs::read_to_string(file)
        .map_err(|e| e.to_string())
        .and_then(|t| bouton_ggp::Game::parse(&t).map_err(|e| e.to_string()))
        .map_err(|e| {
            eprintln!("error: {file}: {e}");
            std::process::ExitCode::from(2)
        })
}
