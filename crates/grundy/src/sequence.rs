use std::io;

use crate::compute::store::SpillFile;
use crate::{Engine, HeapGame, Periodicity, Stats};

/// Where the values of a [`Sequence`] are.
#[derive(Debug)]
pub(crate) enum Values {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    File { spill: SpillFile, len: u64, width: u8 },
}

/// A computed Grundy sequence G(0), …, G(N) of a heap game, with its
/// statistics and periodicity report. The values may be in memory or, for
/// very long sequences, in a temporary file that lives as long as this.
///
/// ```
/// use bouton_grundy::{compute, ComputeOptions, HeapGame};
///
/// let seq = compute(&HeapGame::dawsons_kayles(), 2000, ComputeOptions::default())?;
/// assert_eq!(seq.len(), 2001);
/// assert_eq!(seq.get(34), Some(4));
/// assert_eq!(seq.stats().checksum().to_string(), "66C314F7");
/// assert_eq!(seq.periodicity().period(), Some((34, 53)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Sequence {
    game: HeapGame,
    values: Values,
    stats: Stats,
    periodicity: Periodicity,
    engine: Engine,
}

impl Sequence {
    pub(crate) fn new(
        game: HeapGame,
        values: Values,
        stats: Stats,
        periodicity: Periodicity,
        engine: Engine,
    ) -> Sequence {
        Sequence { game, values, stats, periodicity, engine }
    }

    /// The game.
    pub fn game(&self) -> &HeapGame {
        &self.game
    }

    /// How many values: N + 1. Fewer than asked for only when the
    /// computation stopped early because periodicity was proved.
    pub fn len(&self) -> u64 {
        match &self.values {
            Values::U8(v) => v.len() as u64,
            Values::U16(v) => v.len() as u64,
            Values::U32(v) => v.len() as u64,
            Values::File { len, .. } => *len,
        }
    }

    /// Whether there are no values (never: G(0) is always computed).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The last n computed.
    pub fn upto(&self) -> u64 {
        self.len().saturating_sub(1)
    }

    /// G(n), if computed. Reads the file for values on disk (`None` also if
    /// that read fails).
    pub fn get(&self, n: u64) -> Option<u32> {
        if n >= self.len() {
            return None;
        }
        match &self.values {
            Values::U8(v) => Some(u32::from(v[n as usize])),
            Values::U16(v) => Some(u32::from(v[n as usize])),
            Values::U32(v) => Some(v[n as usize]),
            Values::File { spill, width, .. } => {
                let mut out = [0u32];
                spill.read_values(n, *width, &mut out).ok().map(|()| out[0])
            }
        }
    }

    /// Every value, G(0) first. Values on disk are read in large pieces.
    pub fn iter(&self) -> SequenceIter<'_> {
        SequenceIter { seq: self, next: 0, buffer: Vec::new(), buffer_start: 0 }
    }

    /// Every value in a vector.
    ///
    /// # Errors
    /// Reading values back from disk failed.
    pub fn to_vec(&self) -> io::Result<Vec<u32>> {
        self.iter().collect()
    }

    /// The statistics: checksum, largest value, zeros, rare values.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// What is known about periodicity.
    pub fn periodicity(&self) -> &Periodicity {
        &self.periodicity
    }

    /// The algorithm that computed the values.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// Whether the values went to disk.
    pub fn is_on_disk(&self) -> bool {
        matches!(self.values, Values::File { .. })
    }
}

/// The values of a [`Sequence`] in order; see [`Sequence::iter`].
#[derive(Debug)]
pub struct SequenceIter<'a> {
    seq: &'a Sequence,
    next: u64,
    buffer: Vec<u32>,
    buffer_start: u64,
}

const READ_CHUNK: u64 = 1 << 16;

impl Iterator for SequenceIter<'_> {
    type Item = io::Result<u32>;

    fn next(&mut self) -> Option<io::Result<u32>> {
        let n = self.next;
        if n >= self.seq.len() {
            return None;
        }
        self.next += 1;
        Some(match &self.seq.values {
            Values::U8(v) => Ok(u32::from(v[n as usize])),
            Values::U16(v) => Ok(u32::from(v[n as usize])),
            Values::U32(v) => Ok(v[n as usize]),
            Values::File { spill, width, len } => {
                if n < self.buffer_start || n >= self.buffer_start + self.buffer.len() as u64 {
                    let count = READ_CHUNK.min(len - n) as usize;
                    self.buffer.resize(count, 0);
                    if let Err(e) = spill.read_values(n, *width, &mut self.buffer) {
                        self.buffer.clear();
                        self.next = self.seq.len();
                        return Some(Err(e));
                    }
                    self.buffer_start = n;
                }
                Ok(self.buffer[(n - self.buffer_start) as usize])
            }
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.seq.len() - self.next) as usize;
        (left, Some(left))
    }
}
