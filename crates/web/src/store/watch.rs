//! Per-game change notification for event streams. Each watched game has
//! one channel holding the latest version known of it, created with its
//! first watcher and removed with its last, so a change to one game wakes
//! only that game's watchers: watchers of other games cost a move nothing.
//!
//! Versions reach the channels two ways: the storage thread, after each
//! commit, for the games the commit changed that someone watches; and a
//! poller that, while anyone watches anything, reads every watched game's
//! version once per [`POLL`] in a single storage job — it catches changes
//! made by other server instances sharing the database, and games deleted.
//! Idle watchers thus cost one lookup each per poll, and nothing else.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::watch;

/// How often the versions of watched games are read from the database.
pub const POLL: Duration = Duration::from_secs(2);

/// What is known of a watched game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// Nothing yet.
    Unknown,
    /// Its version (bumped by every change).
    Version(i64),
    /// It no longer exists.
    Gone,
}

impl Known {
    /// Whether `self` is news after `old`: versions only grow, and a game
    /// once gone stays gone.
    fn newer_than(self, old: Known) -> bool {
        match (old, self) {
            (Known::Gone, _) | (_, Known::Unknown) => false,
            (Known::Unknown, _) | (Known::Version(_), Known::Gone) => true,
            (Known::Version(old), Known::Version(new)) => new > old,
        }
    }
}

/// The channels of the watched games; cheap to clone (clones share them).
#[derive(Clone, Default)]
pub struct Watchers {
    inner: Arc<Mutex<Registry>>,
}

#[derive(Default)]
struct Registry {
    games: HashMap<String, watch::Sender<Known>>,
    /// Whether a poller is running.
    polling: bool,
}

impl Watchers {
    fn lock(&self) -> MutexGuard<'_, Registry> {
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Starts watching game `id`; answers whether a poller must be started
    /// (the caller starts it).
    pub(super) fn watch(&self, id: &str) -> (Watch, bool) {
        let mut registry = self.lock();
        let receiver = match registry.games.get(id) {
            Some(sender) => sender.subscribe(),
            None => {
                let (sender, receiver) = watch::channel(Known::Unknown);
                registry.games.insert(id.to_owned(), sender);
                receiver
            }
        };
        let start_poller = !registry.polling;
        registry.polling = true;
        (Watch { id: id.to_owned(), receiver, watchers: self.clone() }, start_poller)
    }

    /// Whether anyone watches game `id`.
    pub fn is_watched(&self, id: &str) -> bool {
        self.lock().games.contains_key(id)
    }

    /// How many games are watched.
    pub fn games(&self) -> usize {
        self.lock().games.len()
    }

    /// The watched games, for the poller; `None` (and the poller stops)
    /// when there are none.
    pub(super) fn poll_list(&self) -> Option<Vec<String>> {
        let mut registry = self.lock();
        if registry.games.is_empty() {
            registry.polling = false;
            return None;
        }
        Some(registry.games.keys().cloned().collect())
    }

    /// Tells game `id`'s watchers what is now known of it, if it is news.
    pub fn update(&self, id: &str, known: Known) {
        if let Some(sender) = self.lock().games.get(id) {
            sender.send_if_modified(|old| {
                let news = known.newer_than(*old);
                if news {
                    *old = known;
                }
                news
            });
        }
    }
}

/// One watcher of one game: woken when the game's version changes.
/// Dropping the last watcher of a game removes its channel.
pub struct Watch {
    id: String,
    receiver: watch::Receiver<Known>,
    watchers: Watchers,
}

impl Watch {
    /// Waits until something new is known of the game, and answers it.
    pub async fn changed(&mut self) -> Known {
        match self.receiver.changed().await {
            Ok(()) => *self.receiver.borrow_and_update(),
            // The channel lives as long as its watchers: not reached.
            Err(_) => Known::Gone,
        }
    }

    /// Whether something new is known that [`Watch::changed`] has not
    /// answered yet.
    pub fn has_changed(&self) -> bool {
        self.receiver.has_changed().unwrap_or(true)
    }

    /// Records that this watcher has seen version `version`, so that it is
    /// not news to anyone (nobody is woken).
    pub fn seen(&self, version: i64) {
        if let Some(sender) = self.watchers.lock().games.get(&self.id) {
            sender.send_if_modified(|old| {
                if Known::Version(version).newer_than(*old) {
                    *old = Known::Version(version);
                }
                false
            });
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut registry = self.watchers.lock();
        // This watcher's receiver is still alive here: it is the last one
        // when it is the only one.
        if registry.games.get(&self.id).is_some_and(|sender| sender.receiver_count() <= 1) {
            registry.games.remove(&self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_watched_from_its_first_watcher_to_its_last() {
        let watchers = Watchers::default();
        let (a1, start) = watchers.watch("a");
        assert!(start, "the first watch starts the poller");
        let (a2, start) = watchers.watch("a");
        assert!(!start);
        let (b, _) = watchers.watch("b");
        assert_eq!(watchers.games(), 2);
        drop(a1);
        assert!(watchers.is_watched("a"));
        drop(a2);
        assert!(!watchers.is_watched("a"));
        drop(b);
        assert_eq!(watchers.games(), 0);
        assert_eq!(watchers.poll_list(), None, "the poller stops");
        assert!(watchers.watch("c").1, "and starts again with the next watcher");
    }

    #[test]
    fn only_news_wakes_watchers_and_only_of_their_game() {
        let watchers = Watchers::default();
        let (a, _) = watchers.watch("a");
        let (b, _) = watchers.watch("b");
        a.seen(3);
        assert!(!a.has_changed(), "what a watcher has seen is no news");
        watchers.update("a", Known::Version(3));
        watchers.update("b", Known::Version(1));
        assert!(!a.has_changed());
        assert!(b.has_changed());
        watchers.update("a", Known::Version(4));
        assert!(a.has_changed());
        watchers.update("a", Known::Version(2));
        watchers.update("nobody", Known::Version(9));
        assert!(!watchers.is_watched("nobody"));
        watchers.update("a", Known::Gone);
        watchers.update("a", Known::Version(5));
        assert_eq!(*a.receiver.borrow(), Known::Gone, "a game once gone stays gone");
    }
}
