use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::{ComputeOptions, HeapGame, Meter, OverBudget, Periodicity, compute};

/// Why single-heap values are not to be had within a budget.
///
/// ```
/// use bouton_grundy::{Budget, HeapGame, HeapValues, ValuesFailure};
///
/// // A budget whose cancel flag is already raised stops the computation.
/// let budget = Budget::interactive();
/// budget.cancel().cancel();
/// let failure = HeapValues::for_heaps_within(&"4.07".parse::<HeapGame>()?, 100_000, &budget.meter()).unwrap_err();
/// assert!(matches!(failure, ValuesFailure::Budget(_)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValuesFailure {
    /// Not known for a heap that large.
    #[error(transparent)]
    Values(ValuesError),
    /// The computation ran out of its budget.
    #[error(transparent)]
    Budget(OverBudget),
}

/// Heaps up to this size have their Grundy values computed on demand; beyond
/// it a game needs a closed form or a proved period.
pub const TABLE_LIMIT: u64 = 1 << 20;

/// The Grundy values of single heaps of a heap game, for analysis and play:
/// a computed table, extended beyond it by a closed form (Nim, Lasker's
/// Nim) or by a period proved with the periodicity theorem.
///
/// ```
/// use bouton_grundy::{HeapGame, HeapValues};
///
/// let kayles = HeapValues::for_heaps(&HeapGame::kayles(), 10)?;
/// assert_eq!(kayles.get(5), Some(4));
/// // Kayles is proved periodic, so even a huge heap has a value.
/// let big = HeapValues::for_heaps(&HeapGame::kayles(), 1_000_000_000_000)?;
/// assert_eq!(big.get(1_000_000_000_000), big.get(1_000_000_000_000 % 12 + 72));
/// assert_eq!(HeapValues::for_heaps(&HeapGame::laskers_nim(), u64::MAX)?.get(7), Some(8));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct HeapValues {
    table: Arc<Vec<u32>>,
    rule: Extension,
}

/// How values go on beyond the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Extension {
    /// Only the table.
    None,
    /// G(n) = n.
    Nim,
    /// Lasker's Nim: 4k+1, 4k+2, 4k+4, 4k+3.
    Lasker,
    /// Periodic: G(n) = G(preperiod + (n - preperiod) mod period).
    Period { period: u64, preperiod: u64 },
}

/// The values needed are not available.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the Grundy values of {game} are known only for heaps up to {limit} (no closed form or proved period), \
     and heap {heap} is larger"
)]
pub struct ValuesError {
    /// The game's code.
    pub game: String,
    /// The heap asked for.
    pub heap: u64,
    /// What is available.
    pub limit: u64,
}

fn cache() -> &'static Mutex<HashMap<HeapGame, HeapValues>> {
    static CACHE: OnceLock<Mutex<HashMap<HeapGame, HeapValues>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

impl HeapValues {
    /// Values covering every heap up to `largest` (cached across calls).
    ///
    /// # Errors
    /// [`ValuesError`] when `largest` is beyond [`TABLE_LIMIT`] and the game
    /// has no closed form and no period proved within the limit.
    pub fn for_heaps(game: &HeapGame, largest: u64) -> Result<HeapValues, ValuesError> {
        HeapValues::for_heaps_within(game, largest, &Meter::unlimited()).map_err(|e| match e {
            ValuesFailure::Values(e) => e,
            ValuesFailure::Budget(_) => unreachable!("an unlimited meter never runs out"),
        })
    }

    /// [`HeapValues::for_heaps`], computing within `meter`'s deadline and
    /// cancel flag.
    ///
    /// # Errors
    /// [`ValuesFailure::Values`] as for [`HeapValues::for_heaps`];
    /// [`ValuesFailure::Budget`] when the deadline passes or the computation
    /// is cancelled first.
    ///
    /// ```
    /// use bouton_grundy::{Budget, HeapGame, HeapValues};
    ///
    /// let dawson = HeapValues::for_heaps_within(&HeapGame::dawsons_kayles(), 50, &Budget::interactive().meter())?;
    /// assert_eq!(dawson.get(8), Some(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_heaps_within(game: &HeapGame, largest: u64, meter: &Meter) -> Result<HeapValues, ValuesFailure> {
        if let Some(found) = cache().lock().ok().and_then(|c| c.get(game).cloned())
            && found.covers(largest)
        {
            return Ok(found);
        }
        let values = HeapValues::compute(game, largest, meter)?;
        if let Ok(mut c) = cache().lock() {
            c.insert(game.clone(), values.clone());
        }
        Ok(values)
    }

    fn compute(game: &HeapGame, largest: u64, meter: &Meter) -> Result<HeapValues, ValuesFailure> {
        let closed = if *game == HeapGame::nim() {
            Some(Extension::Nim)
        } else if *game == HeapGame::laskers_nim() {
            Some(Extension::Lasker)
        } else {
            None
        };
        // A closed form needs no table beyond a few values to check it by.
        let upto = if closed.is_some() { largest.clamp(16, 1024) } else { largest.min(TABLE_LIMIT) };
        // A proved period gives every value beyond it: no need to go further.
        let stop_when_proved = closed.is_none();
        // The engine looks at its flag every few hundred values; the meter's
        // deadline and cancel flag raise it.
        let stop = AtomicBool::new(false);
        let stopped = Cell::new(None);
        let mut watch = |_| {
            if let Err(e) = meter.check() {
                stopped.set(Some(e));
                stop.store(true, Ordering::Relaxed);
            }
        };
        let options = ComputeOptions {
            stop_when_proved,
            progress: Some(&mut watch),
            cancel: Some(&stop),
            // Every period the table has room to prove is looked for (0.16's
            // 149,459 among them): the default sets no limit.
            // Analyses run many at a time (a server's clients): one core each.
            threads: 1,
            ..ComputeOptions::default()
        };
        let too_far =
            || ValuesFailure::Values(ValuesError { game: game.to_string(), heap: largest, limit: TABLE_LIMIT });
        let computed = compute(game, upto, options);
        if let Some(e) = stopped.get() {
            return Err(ValuesFailure::Budget(e));
        }
        let seq = computed.map_err(|_| too_far())?;
        let table: Vec<u32> = seq.to_vec().map_err(|_| too_far())?;
        let rule = match (closed, seq.periodicity()) {
            (Some(rule), _) => rule,
            (None, &Periodicity::Proved { period, preperiod, .. }) => Extension::Period { period, preperiod },
            (None, _) if largest > TABLE_LIMIT => return Err(too_far()),
            (None, _) => Extension::None,
        };
        Ok(HeapValues { table: Arc::new(table), rule })
    }

    fn covers(&self, largest: u64) -> bool {
        self.rule != Extension::None || largest < self.table.len() as u64
    }

    /// G(n), if known.
    pub fn get(&self, n: u64) -> Option<u64> {
        if n < self.table.len() as u64 {
            return Some(u64::from(self.table[n as usize]));
        }
        match self.rule {
            Extension::None => None,
            Extension::Nim => Some(n),
            // n is beyond the table, so at least 16.
            Extension::Lasker => match n % 4 {
                0 => Some(n - 1),
                3 => n.checked_add(1),
                _ => Some(n),
            },
            Extension::Period { period, preperiod } => {
                let index = preperiod + (n - preperiod) % period;
                self.table.get(index as usize).map(|&v| u64::from(v))
            }
        }
    }

    /// How the values go on beyond the table.
    pub(crate) fn extension(&self) -> Extension {
        self.rule
    }

    /// Sizes from `lo` to `hi` whose values stand for all of them: every
    /// size such that each value any size in the range has, and each value
    /// of the periodic part, is had by one of them no larger than the sizes
    /// it stands for — the whole range unless a period is proved, then the
    /// pre-period and one period of it.
    pub(crate) fn representatives(&self, lo: u64, hi: u64) -> std::ops::RangeInclusive<u64> {
        match self.rule {
            Extension::Period { period, preperiod } => lo..=hi.min(lo.max(preperiod).saturating_add(period)),
            _ => lo..=hi,
        }
    }

    /// The largest heap whose value is in the table.
    pub fn table_len(&self) -> u64 {
        self.table.len() as u64
    }
}
