//! Computing Grundy sequences of heap games.

mod helper;
mod line;
mod naive;
mod sparse;
pub(crate) mod store;
mod work;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::checkpoint::{Checkpoint, Prior};
use crate::periodicity::{DEFAULT_MAX_PERIOD, PeriodTracker};
use crate::sequence::Values;
use crate::{HeapGame, RareMask, Sequence, Stats};

/// How often (in values) the periodicity check, the progress callback and
/// the cancellation flag are looked at.
pub(crate) const BLOCK: u64 = 1 << 16;

/// Whether to bring the periodicity check (and progress) up to date once
/// `n` values are done: every [`BLOCK`] values, and at each power of two
/// before that, so that short periods are proved without a block's delay.
#[inline]
pub(crate) fn checkpoint_at(n: u64) -> bool {
    n.is_multiple_of(BLOCK) || (n < BLOCK && n.is_power_of_two() && n >= 64)
}

/// Without a mask given, the statistics' mask is chosen from this many
/// first values (the sparse method chooses its own earlier).
const MASK_SAMPLE: usize = 4096;

/// Which algorithm computes the values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// The best one for the game: [`Engine::Sparse`] for games that split
    /// heaps and have finitely many digits, [`Engine::Naive`] otherwise.
    #[default]
    Auto,
    /// Every option of every heap, into a bitset mex. Quadratic for games
    /// that split heaps.
    Naive,
    /// The sparse-space (rare/common) method: options that can give a
    /// common value are found through the few heaps with a rare value, and
    /// rare values are confirmed by a short search.
    Sparse,
}

/// How far the computation has got, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Values computed so far.
    pub done: u64,
    /// Values asked for (N + 1).
    pub total: u64,
    /// Operations done so far: options looked at, counted from the game and
    /// its values alone (see the `work` module), so the same on any machine
    /// and under any load — what a budget of work is spent in.
    pub operations: u64,
}

/// Settings for [`compute`]. `ComputeOptions::default()` suits most uses.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use bouton_grundy::{compute, ComputeError, ComputeOptions, HeapGame};
///
/// let stop = AtomicBool::new(true);
/// let mut calls = 0;
/// let mut progress = |_| calls += 1;
/// let options = ComputeOptions { cancel: Some(&stop), progress: Some(&mut progress), ..Default::default() };
/// let result = compute(&HeapGame::grundys_game(), 1 << 20, options);
/// assert!(matches!(result, Err(ComputeError::Cancelled { .. })));
/// ```
pub struct ComputeOptions<'a> {
    /// The rare/common mask for the sparse method and the statistics;
    /// `None` chooses the one with the fewest rare values early on.
    pub mask: Option<RareMask>,
    /// The longest period looked for ([`DEFAULT_MAX_PERIOD`]: every period
    /// the values have room for; the search keeps nothing per period).
    pub max_period: u64,
    /// Stop as soon as periodicity is proved, before N if need be.
    pub stop_when_proved: bool,
    /// Bytes of memory the values may take; beyond it they stream to a
    /// file, keeping only what the algorithm reads often in memory.
    pub memory_limit: u64,
    /// Where that file goes (default: the system's temporary directory).
    pub spill_dir: Option<PathBuf>,
    /// Called now and then with how far the computation has got.
    pub progress: Option<&'a mut dyn FnMut(Progress)>,
    /// When this becomes true the computation stops with
    /// [`ComputeError::Cancelled`].
    pub cancel: Option<&'a AtomicBool>,
    /// The algorithm.
    pub engine: Engine,
    /// A file to keep the values in as they are computed, and to go on
    /// from: the values it holds for the same game are taken as computed
    /// (see [`CheckpointError`](crate::CheckpointError) for a file that
    /// cannot be used).
    pub checkpoint: Option<PathBuf>,
    /// How often the checkpoint file is brought up to date (and at the
    /// end, always).
    pub checkpoint_every: Duration,
    /// Threads: 2 lets the sparse method hand the splits through far rare
    /// heaps to a second core (when there are enough of them to be worth
    /// it); 1 computes on this thread alone. The values are the same.
    /// Default: 2 when the machine has two cores or more.
    pub threads: usize,
}

impl Default for ComputeOptions<'_> {
    fn default() -> Self {
        ComputeOptions {
            mask: None,
            max_period: DEFAULT_MAX_PERIOD,
            stop_when_proved: false,
            memory_limit: 1 << 30,
            spill_dir: None,
            progress: None,
            cancel: None,
            engine: Engine::Auto,
            checkpoint: None,
            checkpoint_every: Duration::from_secs(60),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
        }
    }
}

impl std::fmt::Debug for ComputeOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComputeOptions")
            .field("mask", &self.mask)
            .field("max_period", &self.max_period)
            .field("stop_when_proved", &self.stop_when_proved)
            .field("memory_limit", &self.memory_limit)
            .field("spill_dir", &self.spill_dir)
            .field("progress", &self.progress.is_some())
            .field("cancel", &self.cancel)
            .field("engine", &self.engine)
            .field("checkpoint", &self.checkpoint)
            .field("checkpoint_every", &self.checkpoint_every)
            .field("threads", &self.threads)
            .finish()
    }
}

/// Why a computation did not finish.
#[derive(Debug, thiserror::Error)]
pub enum ComputeError {
    /// The cancellation flag was raised.
    #[error("interrupted after {reached} values")]
    Cancelled {
        /// How many values had been computed.
        reached: u64,
    },
    /// A value did not fit the 16 bits the sparse method stores.
    #[error("G({n}) is at least 65536, more than the sparse method stores; use the naive engine")]
    ValueTooLarge {
        /// Where.
        n: u64,
    },
    /// The naive method for this game keeps every value in memory.
    #[error("computing {values} values of {game} needs {bytes} bytes of memory, more than the limit of {limit}")]
    OutOfMemory {
        /// The game.
        game: String,
        /// Values asked for.
        values: u64,
        /// Bytes needed.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// N is beyond what can be indexed.
    #[error("N = {upto} is too large: at most {max}", max = MAX_UPTO)]
    TooFar {
        /// The N asked for.
        upto: u64,
    },
    /// Streaming the values to disk failed.
    #[error("cannot stream the values to disk: {0}")]
    Io(#[from] std::io::Error),
    /// The checkpoint file cannot be used.
    #[error(transparent)]
    Checkpoint(#[from] crate::CheckpointError),
}

/// The largest N [`compute`] accepts.
pub const MAX_UPTO: u64 = 1 << 40;

/// Computes G(0) to G(`upto`) for the heap game, with the statistics and
/// the periodicity report.
///
/// ```
/// use bouton_grundy::{compute, ComputeOptions, HeapGame};
///
/// let seq = compute(&HeapGame::grundys_game(), 20, ComputeOptions::default())?;
/// assert_eq!(
///     seq.to_vec()?,
///     vec![0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]
/// );
/// assert_eq!(seq.stats().max(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ComputeError::Cancelled`] when the flag in `options` is raised; the
/// other variants for memory, disk and size limits.
pub fn compute(game: &HeapGame, upto: u64, mut options: ComputeOptions<'_>) -> Result<Sequence, ComputeError> {
    if upto > MAX_UPTO {
        return Err(ComputeError::TooFar { upto });
    }
    // The sparse method restricts every split alike: `!` on every digit
    // that splits, or on none.
    let uniform = (0..game.digits().len() as u64)
        .filter(|&k| game.digit(k) & 4 != 0)
        .all(|k| game.unequal_at(k) == game.unequal_splits());
    let sparse_fits = game.splits() && game.tail() == 0 && uniform;
    let engine = match options.engine {
        // Moves leaving three heaps: only the direct method counts them.
        _ if game.leaves_three() => Engine::Naive,
        Engine::Auto if sparse_fits => Engine::Sparse,
        Engine::Sparse if !sparse_fits => Engine::Naive,
        Engine::Auto => Engine::Naive,
        chosen => chosen,
    };
    let (saver, prior) = match &options.checkpoint {
        Some(path) => {
            let (saver, prior) =
                Checkpoint::open(path, game, options.checkpoint_every, upto + 1, options.memory_limit)?;
            (Some(saver), prior)
        }
        None => (None, Prior::default()),
    };
    let mut recorder = Recorder::new(game, upto + 1, &mut options);
    recorder.saver = saver;
    recorder.work = work::Work::new(game, engine);
    let values = match engine {
        Engine::Sparse => sparse::compute(game, upto, prior, &mut recorder)?,
        _ if !game.splits() => line::compute(game, upto, &prior, &mut recorder)?,
        _ => naive::compute(game, upto, &prior, &mut recorder)?,
    };
    let (stats, periodicity) = recorder.finish();
    Ok(Sequence::new(game.clone(), values, stats, periodicity, engine))
}

/// What every engine does with each value: statistics, periodicity,
/// progress, cancellation.
pub(crate) struct Recorder<'o, 'a> {
    options: &'o mut ComputeOptions<'a>,
    total: u64,
    stats: Option<Stats>,
    pending: Vec<u32>,
    tracker: PeriodTracker,
    report: Option<crate::Periodicity>,
    count: u64,
    saver: Option<Checkpoint>,
    work: work::Work,
}

impl<'o, 'a> Recorder<'o, 'a> {
    fn new(game: &HeapGame, total: u64, options: &'o mut ComputeOptions<'a>) -> Recorder<'o, 'a> {
        let tracker = PeriodTracker::new(game, options.max_period, options.stop_when_proved);
        let stats = options.mask.map(Stats::new);
        let work = work::Work::new(game, Engine::Auto);
        Recorder { options, total, stats, pending: Vec::new(), tracker, report: None, count: 0, saver: None, work }
    }

    pub(crate) fn memory_limit(&self) -> u64 {
        self.options.memory_limit
    }

    /// Whether the computation stops as soon as periodicity is proved.
    pub(crate) fn stops_when_proved(&self) -> bool {
        self.options.stop_when_proved
    }

    pub(crate) fn threads(&self) -> usize {
        self.options.threads
    }

    pub(crate) fn spill_dir(&self) -> Option<&std::path::Path> {
        self.options.spill_dir.as_deref()
    }

    /// The mask asked for, if any.
    pub(crate) fn requested_mask(&self) -> Option<RareMask> {
        self.options.mask
    }

    /// Fixes the mask of the statistics (if not fixed already).
    pub(crate) fn set_mask(&mut self, mask: RareMask) {
        if self.stats.is_none() {
            let mut stats = Stats::new(mask);
            for &v in &self.pending {
                stats.push(v);
            }
            self.pending = Vec::new();
            self.stats = Some(stats);
        }
    }

    #[inline]
    pub(crate) fn record(&mut self, value: u32) {
        let rare = self.stats.as_ref().map(|s| (s.mask().is_rare(value), s.rare_count()));
        self.work.value(self.count, rare);
        self.count += 1;
        match &mut self.stats {
            Some(stats) => stats.push(value),
            None => {
                self.pending.push(value);
                if self.pending.len() == MASK_SAMPLE {
                    self.choose_mask();
                }
            }
        }
    }

    /// Fixes the mask from the values so far, if nobody has.
    fn choose_mask(&mut self) {
        if self.stats.is_none() {
            let mask = RareMask::choose(self.pending.iter().copied()).unwrap_or(RareMask::GRUNDY);
            self.set_mask(mask);
        }
    }

    /// Checks the cancellation flag and reports progress, between
    /// checkpoints: with a checkpoint file, a cancellation waits for the
    /// next checkpoint (at most [`BLOCK`] values), which saves the values.
    ///
    /// # Errors
    /// [`ComputeError::Cancelled`] when the flag is up.
    pub(crate) fn poll_often(&mut self) -> Result<(), ComputeError> {
        match self.poll() {
            Err(ComputeError::Cancelled { .. }) if self.saver.is_some() => Ok(()),
            other => other,
        }
    }

    /// Checks the cancellation flag and reports progress.
    ///
    /// # Errors
    /// [`ComputeError::Cancelled`] when the flag is up.
    pub(crate) fn poll(&mut self) -> Result<(), ComputeError> {
        if self.options.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(ComputeError::Cancelled { reached: self.count });
        }
        if let Some(progress) = self.options.progress.as_mut() {
            progress(Progress { done: self.count, total: self.total, operations: self.work.operations() });
        }
        Ok(())
    }

    /// Brings the periodicity check up to date (reading recent values with
    /// `at`) and says whether to stop because periodicity is proved.
    pub(crate) fn checkpoint(&mut self, mut at: impl FnMut(u64) -> u32) -> Result<bool, ComputeError> {
        let polled = self.poll();
        if let Some(saver) = &mut self.saver {
            // Interrupted: what was computed is kept all the same.
            saver.save(self.count, polled.is_err(), &mut at)?;
        }
        polled?;
        let proved = self.tracker.update(self.count, &mut at);
        Ok(self.options.stop_when_proved && proved)
    }

    /// The periodicity report on every value recorded (`at(n)` reads G(n)
    /// for any n recorded), once the computation is over.
    pub(crate) fn conclude(&mut self, mut at: impl FnMut(u64) -> u32) -> Result<(), ComputeError> {
        self.poll()?;
        if let Some(saver) = &mut self.saver {
            saver.save(self.count, true, &mut at)?;
        }
        self.report = Some(self.tracker.report(self.count, at));
        Ok(())
    }

    fn finish(mut self) -> (Stats, crate::Periodicity) {
        self.choose_mask();
        if let Some(progress) = self.options.progress.as_mut() {
            progress(Progress { done: self.count, total: self.total, operations: self.work.operations() });
        }
        let report = self.report.take().unwrap_or(crate::Periodicity::None { longest_checked: 0 });
        (self.stats.expect("set above"), report)
    }
}

/// Converts a finished 32-bit sink into stored values.
pub(crate) fn sink_values(sink: store::Sink32) -> Result<Values, ComputeError> {
    use std::io::Write;
    Ok(match sink {
        store::Sink32::Memory(values) => Values::U32(values),
        store::Sink32::File { mut writer, spill, len } => {
            writer.flush()?;
            Values::File { spill, len, width: 4 }
        }
    })
}
