//! What is typed while the computer thinks: kept off the screen and thrown
//! away, so that a move is only ever played against a position its player
//! has seen.

use std::sync::Mutex;

/// The terminal's settings while input is held back, to put back on Ctrl-C.
#[cfg(unix)]
static HELD: Mutex<Option<rustix::termios::Termios>> = Mutex::new(None);

/// While alive, the terminal does not echo what is typed; when dropped, what
/// was typed meanwhile is discarded and echo comes back.
pub struct HeldInput {
    #[cfg(unix)]
    saved: Option<rustix::termios::Termios>,
}

impl HeldInput {
    /// Holds back standard input if it is a terminal (otherwise does
    /// nothing: piped input is meant to be read in full).
    pub fn hold() -> HeldInput {
        #[cfg(unix)]
        {
            use rustix::termios::{LocalModes, OptionalActions, tcgetattr, tcsetattr};
            let stdin = std::io::stdin();
            let saved = tcgetattr(&stdin).ok();
            if let Some(saved) = &saved {
                let mut quiet = saved.clone();
                quiet.local_modes.remove(LocalModes::ECHO);
                if tcsetattr(&stdin, OptionalActions::Now, &quiet).is_ok()
                    && let Ok(mut held) = HELD.lock()
                {
                    *held = Some(saved.clone());
                }
            }
            HeldInput { saved }
        }
        #[cfg(not(unix))]
        HeldInput {}
    }
}

impl Drop for HeldInput {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(saved) = self.saved.take() {
            use rustix::termios::{OptionalActions, QueueSelector, tcflush, tcsetattr};
            let stdin = std::io::stdin();
            let _ = tcflush(&stdin, QueueSelector::IFlush);
            let _ = tcsetattr(&stdin, OptionalActions::Now, &saved);
            if let Ok(mut held) = HELD.lock() {
                *held = None;
            }
        }
    }
}

/// Puts the terminal's settings back if input is being held (for Ctrl-C,
/// which ends the program without unwinding).
pub fn release() {
    #[cfg(unix)]
    if let Ok(mut held) = HELD.lock()
        && let Some(saved) = held.take()
    {
        let _ = rustix::termios::tcsetattr(std::io::stdin(), rustix::termios::OptionalActions::Now, &saved);
    }
}
