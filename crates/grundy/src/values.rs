use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::periodicity::ProofRule;
use crate::proofs::warn_once;
use crate::table::Table;
use crate::{ComputeOptions, HeapGame, Meter, OverBudget, Periodicity, ProofStore, compute};

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
/// it a game needs a closed form, a period proved within it, or a proof kept
/// in the user's [`ProofStore`] (`bouton grundy CODE --until-proved` keeps
/// the proofs that need more values than this).
pub const TABLE_LIMIT: u64 = 1 << 20;

/// The Grundy values of single heaps of a heap game, for analysis and play:
/// a computed table, extended beyond it by a closed form (Nim, Lasker's
/// Nim), by a period proved with the periodicity theorem (computed, or read
/// from a kept proof), or by a proved arithmetic period.
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
    table: Arc<Table>,
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
    /// Arithmetic-periodic: G(n) = G(r) + q·saltus, where n − preperiod =
    /// q·period + (r − preperiod) and preperiod ≤ r < preperiod + period.
    Arithmetic { period: u64, saltus: u64, preperiod: u64 },
}

/// The values needed are not available. Its message says how to get them
/// when a proof may be had: `bouton grundy CODE --until-proved` proves the
/// period and keeps the proof, which analysis then reads.
///
/// ```
/// use bouton_grundy::ValuesError;
///
/// let error = ValuesError { game: "0.354".into(), heap: 100_000_000, limit: 1 << 20 };
/// assert!(error.to_string().contains("`bouton grundy 0.354 --until-proved`"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValuesError {
    /// The game's code.
    pub game: String,
    /// The heap asked for.
    pub heap: u64,
    /// What is available.
    pub limit: u64,
}

impl std::fmt::Display for ValuesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ValuesError { game, heap, limit } = self;
        write!(
            f,
            "the Grundy values of {game} are computed only for heaps up to {limit}, beyond which it has no closed \
             form, no period proved within them and no kept proof, and heap {heap} is larger"
        )?;
        let provable = game.parse::<HeapGame>().is_ok_and(|g| ProofRule::for_game(&g) != ProofRule::Unavailable);
        if provable {
            write!(
                f,
                "; `bouton grundy {game} --until-proved` looks for its period further and, once proved, keeps the \
                 proof for analysis and play"
            )
        } else {
            write!(f, "; no periodicity theorem applies to this game")
        }
    }
}

impl std::error::Error for ValuesError {}

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
        let store = if largest > TABLE_LIMIT { ProofStore::user() } else { None };
        let values = HeapValues::for_heaps_using(game, largest, meter, TABLE_LIMIT, store.as_ref())?;
        if let Ok(mut c) = cache().lock() {
            c.insert(game.clone(), values.clone());
        }
        Ok(values)
    }

    /// [`HeapValues::for_heaps_within`] with the table computed up to
    /// `table_limit` at most and proofs read from `proofs` (when `largest`
    /// is beyond the table), without the cache across calls. A kept proof
    /// that does not check is ignored, with a warning on standard error.
    ///
    /// # Errors
    /// As for [`HeapValues::for_heaps_within`].
    ///
    /// ```
    /// use bouton_grundy::{compute, ComputeOptions, HeapGame, HeapValues, Meter, ProofStore};
    ///
    /// let dir = std::env::temp_dir().join(format!("doc-values-{}", std::process::id()));
    /// let store = ProofStore::new(&dir);
    /// let dawson = HeapGame::dawsons_kayles();
    /// // With a table of 60 values, Dawson's Kayles (period 34 from 53,
    /// // proved from 139 values) is known only that far ...
    /// assert!(HeapValues::for_heaps_using(&dawson, 10_000, &Meter::unlimited(), 60, Some(&store)).is_err());
    /// // ... until its proof is kept.
    /// store.keep(&compute(&dawson, 200, ComputeOptions::default())?)?;
    /// let values = HeapValues::for_heaps_using(&dawson, 10_000, &Meter::unlimited(), 60, Some(&store))?;
    /// assert_eq!(values.get(10_000), values.get(53 + (10_000 - 53) % 34));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_heaps_using(
        game: &HeapGame,
        largest: u64,
        meter: &Meter,
        table_limit: u64,
        proofs: Option<&ProofStore>,
    ) -> Result<HeapValues, ValuesFailure> {
        if largest > table_limit
            && let Some(store) = proofs
        {
            match store.load(game) {
                Ok(Some(proof)) => {
                    let (table, period, preperiod) = proof.into_table();
                    return Ok(HeapValues { table: Arc::new(table), rule: Extension::Period { period, preperiod } });
                }
                Ok(None) => {}
                Err(e) => warn_once(&e, game),
            }
        }
        match HeapValues::compute(game, largest, meter, table_limit) {
            // Out of time on the way to a table that might prove a period:
            // a kept proof is the way to this heap (the message says how).
            Err(ValuesFailure::Budget(_))
                if largest > table_limit && ProofRule::for_game(game) != ProofRule::Unavailable =>
            {
                Err(ValuesFailure::Values(ValuesError { game: game.to_string(), heap: largest, limit: table_limit }))
            }
            other => other,
        }
    }

    fn compute(game: &HeapGame, largest: u64, meter: &Meter, table_limit: u64) -> Result<HeapValues, ValuesFailure> {
        let closed = if *game == HeapGame::nim() {
            Some(Extension::Nim)
        } else if *game == HeapGame::laskers_nim() {
            Some(Extension::Lasker)
        } else {
            None
        };
        // A closed form needs no table beyond a few values to check it by.
        let upto = if closed.is_some() { largest.clamp(16, 1024) } else { largest.min(table_limit) };
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
            || ValuesFailure::Values(ValuesError { game: game.to_string(), heap: largest, limit: table_limit });
        let computed = compute(game, upto, options);
        if let Some(e) = stopped.get() {
            return Err(ValuesFailure::Budget(e));
        }
        let seq = computed.map_err(|_| too_far())?;
        let table = Table::from_values(&seq.to_vec().map_err(|_| too_far())?);
        let rule = match (closed, seq.periodicity()) {
            (Some(rule), _) => rule,
            (None, &Periodicity::Proved { period, preperiod, .. }) => Extension::Period { period, preperiod },
            (None, &Periodicity::ArithmeticProved { period, saltus, preperiod, .. }) => {
                Extension::Arithmetic { period, saltus, preperiod }
            }
            (None, _) if largest > table_limit => return Err(too_far()),
            (None, _) => Extension::None,
        };
        Ok(HeapValues { table: Arc::new(table), rule })
    }

    fn covers(&self, largest: u64) -> bool {
        self.rule != Extension::None || largest < self.table.len()
    }

    /// G(n), if known.
    pub fn get(&self, n: u64) -> Option<u64> {
        if let Some(value) = self.table.get(n) {
            return Some(u64::from(value));
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
                self.table.get(index).map(u64::from)
            }
            Extension::Arithmetic { period, saltus, preperiod } => {
                let index = preperiod + (n - preperiod) % period;
                let base = u64::from(self.table.get(index)?);
                ((n - preperiod) / period).checked_mul(saltus)?.checked_add(base)
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
        self.table.len()
    }
}
