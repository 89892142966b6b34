//! Cancellation of a reasoner's work from another thread: a [`Canceller`]
//! owns a flag, and the [`Cancel`] handles it gives out (small, `Copy`, so
//! that they ride in every evaluation's budget) read it.
//!
//! A flag is a counter in a slot of a shared pool rather than an
//! `Arc<AtomicBool>`: a handle is a reference to the slot and the value the
//! counter had when its canceller was made, and it reads "cancelled" once
//! the counter has moved on. Cancelling, or dropping the canceller, moves it
//! on; a dropped canceller's slot goes back to the pool and serves the next
//! canceller, whose handles expect the new value — so old handles stay
//! cancelled for good, and the pool holds no more slots than cancellers ever
//! lived at once.
//!
//! ```
//! use bouton_ggp::cancel::Canceller;
//!
//! let canceller = Canceller::new();
//! let handle = canceller.handle();
//! assert!(!handle.is_cancelled());
//! canceller.cancel();
//! assert!(handle.is_cancelled());
//! drop(canceller);
//! assert!(handle.is_cancelled(), "and for good, whoever gets the slot next");
//! ```

use std::fmt;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::sync::atomic::{AtomicU64, Ordering};

/// The slots of cancellers dropped, for the next ones.
static FREE_SLOTS: Mutex<Vec<&'static AtomicU64>> = Mutex::new(Vec::new());

/// The owner of a cancellation flag: it cancels the work of every
/// [`Cancel`] handle it gave out, when told to or when dropped. It can be
/// shared between threads.
#[derive(Debug)]
pub struct Canceller {
    slot: &'static AtomicU64,
    generation: u64,
}

/// A handle on a [`Canceller`]'s flag: whether the work it rides with was
/// cancelled. Reading it is one atomic load.
#[derive(Clone, Copy)]
pub struct Cancel {
    slot: &'static AtomicU64,
    generation: u64,
}

impl Canceller {
    /// A flag not yet raised.
    pub fn new() -> Canceller {
        let reused = FREE_SLOTS.lock().unwrap_or_else(PoisonError::into_inner).pop();
        let slot = reused.unwrap_or_else(|| Box::leak(Box::new(AtomicU64::new(0))));
        Canceller { slot, generation: slot.load(Ordering::Acquire) }
    }

    /// A handle that reads this flag.
    pub fn handle(&self) -> Cancel {
        Cancel { slot: self.slot, generation: self.generation }
    }

    /// Raises the flag: every handle reads "cancelled" from now on.
    pub fn cancel(&self) {
        let next = self.generation.wrapping_add(1);
        let _ = self.slot.compare_exchange(self.generation, next, Ordering::AcqRel, Ordering::Acquire);
    }

    /// Whether the flag is raised.
    pub fn is_cancelled(&self) -> bool {
        self.handle().is_cancelled()
    }
}

impl Default for Canceller {
    fn default() -> Canceller {
        Canceller::new()
    }
}

impl Drop for Canceller {
    /// Cancels, and gives the slot back to the pool.
    fn drop(&mut self) {
        self.cancel();
        FREE_SLOTS.lock().unwrap_or_else(PoisonError::into_inner).push(self.slot);
    }
}

impl Cancel {
    /// Whether the work this handle rides with was cancelled (or its
    /// canceller dropped).
    pub fn is_cancelled(&self) -> bool {
        self.slot.load(Ordering::Relaxed) != self.generation
    }
}

impl PartialEq for Cancel {
    /// Two handles are equal when they read the same flag.
    fn eq(&self, other: &Cancel) -> bool {
        std::ptr::eq(self.slot, other.slot) && self.generation == other.generation
    }
}

impl Eq for Cancel {}

impl fmt::Debug for Cancel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cancel").field("cancelled", &self.is_cancelled()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handle_reads_only_its_own_canceller() {
        let a = Canceller::new();
        let b = Canceller::new();
        let (ha, hb) = (a.handle(), b.handle());
        assert_ne!(ha, hb);
        a.cancel();
        assert!(ha.is_cancelled() && a.is_cancelled());
        assert!(!hb.is_cancelled() && !b.is_cancelled());
        // Cancelling twice changes nothing.
        a.cancel();
        assert!(ha.is_cancelled());
    }

    #[test]
    fn a_reused_slot_keeps_old_handles_cancelled() {
        // Many cancellers made and dropped in turn: each new one finds its
        // handle uncancelled, and every handle of a dropped one stays
        // cancelled, whichever slot it shared.
        let mut old = Vec::new();
        for _ in 0..50 {
            let canceller = Canceller::new();
            let handle = canceller.handle();
            assert!(!handle.is_cancelled());
            assert!(old.iter().all(Cancel::is_cancelled));
            drop(canceller);
            assert!(handle.is_cancelled());
            old.push(handle);
        }
    }

    #[test]
    fn a_canceller_can_cancel_from_another_thread() {
        let canceller = std::sync::Arc::new(Canceller::new());
        let handle = canceller.handle();
        let remote = canceller.clone();
        std::thread::spawn(move || remote.cancel()).join().expect("the cancelling thread");
        assert!(handle.is_cancelled());
    }
}
