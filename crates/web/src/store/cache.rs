//! The games a storage thread last read or wrote, kept between batches so
//! that a move needs no read: least recently used first out, bounded by
//! the number of games and by an estimate of their bytes (a game keeps its
//! position after every move, so its memory grows with its moves and the
//! size of its board).
//!
//! An entry is only a guess at the stored game: another instance may have
//! changed it since. Every write made from an entry is checked against the
//! database by the game's version (see [`super::games::advance_versions`]),
//! and an answer that refuses a request is given only from a fresh read.

use std::collections::{BTreeMap, HashMap};

use bouton_games::{AnyMove, AnyPosition};

use crate::record::Record;

/// The most games one storage thread keeps.
pub const MAX_GAMES: usize = 4_096;

/// The most bytes the kept games may take between them, estimated.
pub const MAX_BYTES: usize = 32 << 20;

/// Games by id, least recently used first out.
pub struct Cache {
    /// Each game, when it was last used and its weight in bytes.
    games: HashMap<String, (Record, u64, usize)>,
    /// The games by last use.
    order: BTreeMap<u64, String>,
    /// The clock of uses.
    clock: u64,
    /// The bytes the kept games take, estimated.
    bytes: usize,
    max_games: usize,
    max_bytes: usize,
}

impl Default for Cache {
    fn default() -> Cache {
        Cache::new(MAX_GAMES, MAX_BYTES)
    }
}

/// About how many bytes `record` takes: its positions (one more than its
/// moves, each with its numbers) and moves.
fn weight(record: &Record) -> usize {
    let numbers = record.game.rules().numbers(record.game.start()).len();
    let per_ply = std::mem::size_of::<AnyPosition>() + std::mem::size_of::<AnyMove>() + 8 * numbers;
    256 + (record.game.moves().len() + 1) * per_ply
}

impl Cache {
    /// An empty cache that keeps at most `max_games` games taking at most
    /// about `max_bytes` between them.
    pub fn new(max_games: usize, max_bytes: usize) -> Cache {
        Cache { games: HashMap::new(), order: BTreeMap::new(), clock: 0, bytes: 0, max_games, max_bytes }
    }

    /// Takes game `id` out, if kept: the caller changes it, and keeps it
    /// again once the change is stored.
    pub fn take(&mut self, id: &str) -> Option<Record> {
        let (record, used, heavy) = self.games.remove(id)?;
        self.order.remove(&used);
        self.bytes -= heavy;
        Some(record)
    }

    /// Keeps `record` (replacing what was kept of its game), then drops the
    /// least recently used games while over the bounds.
    pub fn put(&mut self, record: Record) {
        self.remove(&record.id);
        let heavy = weight(&record);
        if heavy > self.max_bytes {
            return;
        }
        self.clock += 1;
        self.bytes += heavy;
        self.order.insert(self.clock, record.id.clone());
        self.games.insert(record.id.clone(), (record, self.clock, heavy));
        while self.games.len() > self.max_games || self.bytes > self.max_bytes {
            let Some((_, oldest)) = self.order.pop_first() else { break };
            self.take(&oldest);
        }
    }

    /// Forgets game `id`.
    pub fn remove(&mut self, id: &str) {
        self.take(id);
    }

    /// How many games are kept.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use bouton_rules::Convention;

    use super::*;
    use crate::mode::Mode;

    fn record(id: &str, heaps: &[u64]) -> Record {
        Record::for_tests(id, "nim", Convention::Normal, heaps, Mode::Local)
    }

    #[test]
    fn the_least_recently_used_game_goes_first() {
        let mut cache = Cache::new(2, usize::MAX);
        cache.put(record("a", &[3]));
        cache.put(record("b", &[3]));
        // "a" is used again: "b" is now the oldest.
        let a = cache.take("a").unwrap();
        cache.put(a);
        cache.put(record("c", &[3]));
        assert_eq!(cache.len(), 2);
        assert!(cache.take("b").is_none());
        assert!(cache.take("a").is_some() && cache.take("c").is_some());
        assert!(cache.is_empty());
    }

    #[test]
    fn bytes_are_bounded_and_a_game_too_big_is_not_kept() {
        let small = weight(&record("x", &[3, 4]));
        let mut cache = Cache::new(100, 3 * small);
        for id in ["a", "b", "c", "d"] {
            cache.put(record(id, &[3, 4]));
        }
        assert_eq!(cache.len(), 3);
        assert!(cache.take("a").is_none());
        // Replacing a game does not count it twice.
        cache.put(record("b", &[3, 4]));
        cache.put(record("b", &[3, 4]));
        assert_eq!(cache.len(), 3);
        assert!(cache.take("c").is_some() && cache.take("d").is_some() && cache.take("b").is_some());
        // A game heavier than the whole cache is not kept.
        let mut tiny = Cache::new(100, small - 1);
        tiny.put(record("x", &[3, 4]));
        assert!(tiny.is_empty());
        // A game with more heaps weighs more.
        assert!(weight(&record("wide", &[3; 12])) > small);
    }
}
