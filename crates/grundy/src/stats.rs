use serde::Serialize;

use crate::{Checksum, RareMask};

/// Rare positions kept in full by [`Stats`]; beyond this only the count.
pub const KEPT_RARE: usize = 100_000;

/// Facts about a Grundy sequence, gathered value by value as it is computed
/// (so they are there even when the values themselves went to disk).
///
/// ```
/// use bouton_grundy::{RareMask, Stats};
///
/// let mut stats = Stats::new(RareMask::GRUNDY);
/// for g in [0, 0, 0, 1, 0, 2, 1] {
///     stats.push(g);
/// }
/// assert_eq!(stats.count(), 7);
/// assert_eq!((stats.max(), stats.first_max()), (2, 5));
/// assert_eq!(stats.zeros(), 4);
/// // Rare under …11110: the values 0 and 1.
/// assert_eq!(stats.rare_count(), 6);
/// assert_eq!(stats.last_rare(), Some(6));
/// assert_eq!(stats.checksum().to_string(), "00090004");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stats {
    count: u64,
    checksum: Checksum,
    max: u32,
    first_max: u64,
    zeros: u64,
    mask: RareMask,
    rare_count: u64,
    last_rare: Option<u64>,
    rare: Vec<(u64, u32)>,
}

impl Stats {
    /// Statistics of no values, counting rare values under `mask`.
    pub fn new(mask: RareMask) -> Stats {
        Stats {
            count: 0,
            checksum: Checksum::new(),
            max: 0,
            first_max: 0,
            zeros: 0,
            mask,
            rare_count: 0,
            last_rare: None,
            rare: Vec::new(),
        }
    }

    /// Adds G(n) for the next n.
    #[inline]
    pub fn push(&mut self, value: u32) {
        let n = self.count;
        self.count += 1;
        self.checksum.push(value);
        if value > self.max {
            self.max = value;
            self.first_max = n;
        }
        self.zeros += u64::from(value == 0);
        if self.mask.is_rare(value) {
            self.rare_count += 1;
            self.last_rare = Some(n);
            if self.rare.len() < KEPT_RARE {
                self.rare.push((n, value));
            }
        }
    }

    /// How many values: N + 1 for G(0) to G(N).
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The checksum of the values, as defined in [`Checksum`].
    pub fn checksum(&self) -> Checksum {
        self.checksum
    }

    /// The largest value.
    pub fn max(&self) -> u32 {
        self.max
    }

    /// The first n where the largest value occurs.
    pub fn first_max(&self) -> u64 {
        self.first_max
    }

    /// How many n have G(n) = 0 (losing single heaps for the player to move).
    pub fn zeros(&self) -> u64 {
        self.zeros
    }

    /// The mask rare values are counted under.
    pub fn mask(&self) -> RareMask {
        self.mask
    }

    /// How many n have a rare value.
    pub fn rare_count(&self) -> u64 {
        self.rare_count
    }

    /// How many n have a common value.
    pub fn common_count(&self) -> u64 {
        self.count - self.rare_count
    }

    /// The last n with a rare value.
    pub fn last_rare(&self) -> Option<u64> {
        self.last_rare
    }

    /// The rare positions and their values, first first (at most
    /// [`KEPT_RARE`] of them).
    pub fn rare(&self) -> &[(u64, u32)] {
        &self.rare
    }
}
