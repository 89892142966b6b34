//! Proofs kept on disk: a period proved once (0.354's needs 20 million
//! values, 0.1777's 443 million) is written to a small file, and the values
//! single heaps need for analysis and play ([`HeapValues`](crate::HeapValues))
//! are read from it for heaps of any size, instead of being out of reach.
//!
//! One file per game, `<dir>/<code>.proof` (characters other than letters,
//! digits and `.` written `_xx` in hex). The file is a text header, then the
//! values G(0) … G(e + p − 1) (pre-period e, period p), then a hash:
//!
//! ```text
//! bouton-grundy proof
//! version 1
//! code 0.354
//! period 1180
//! preperiod 10061916
//! needed 20185087
//! checksum 1A2B3C4D
//! width 1
//! values 10063096
//!
//! <values: `width` bytes each, little-endian><FNV-1a 64 of all before it, 8 bytes LE>
//! ```
//!
//! `checksum` is the [`Checksum`] of G(0) … G(`needed`) as the engine
//! computed them: the values the proof read. A file is used only if all of
//! this holds, and is otherwise ignored (with a warning) and never trusted:
//! its hash; its code is the game asked for; it holds exactly e + p values;
//! `needed` is what the periodicity theorem asks of this game for (e, p);
//! G(e − 1) ≠ G(e − 1 + p) (e is the least pre-period); the periodic
//! extension of the stored values over the whole window the proof needs,
//! G(0) … G(`needed`), has the stored checksum — the periodicity condition
//! G(n + p) = G(n) over that window, checked again; and the first values
//! satisfy the definition G(n) = mex of the options' values.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use crate::checkpoint::Fnv;
use crate::periodicity::ProofRule;
use crate::table::Table;
use crate::{Checksum, HeapGame, MexSet, Periodicity, Sequence};

const MAGIC: &str = "bouton-grundy proof";
const VERSION: u32 = 1;
/// The definition is checked on the first values, up to this many options
/// in all (a few milliseconds).
const DEFINITION_OPTIONS: u64 = 1 << 24;
/// A header longer than this is not a proof's.
const MAX_HEADER: usize = 1 << 13;

/// Proofs that need more values than this are worth keeping: analysis, which
/// computes values on demand within a time budget, might not get that far.
/// (`bouton grundy --until-proved` and the survey keep them.)
pub const KEEP_FROM: u64 = 1 << 16;

/// Where proofs are kept: a directory with one small file per game.
///
/// ```
/// use bouton_grundy::{compute, ComputeOptions, HeapGame, ProofStore};
///
/// let dir = std::env::temp_dir().join(format!("doc-proofs-{}", std::process::id()));
/// let store = ProofStore::new(&dir);
/// let kayles = HeapGame::kayles();
/// let seq = compute(&kayles, 200, ComputeOptions::default())?;
/// let path = store.keep(&seq)?;
/// let proof = store.load(&kayles)?.expect("just kept");
/// assert_eq!((proof.period(), proof.preperiod()), (12, 71));
/// assert_eq!(proof.value(1_000_000_000_000), Some(seq.get(72 + (1_000_000_000_000 - 72) % 12).unwrap()));
/// # std::fs::remove_file(path)?;
/// # std::fs::remove_dir(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofStore {
    dir: PathBuf,
}

/// A proof read back from a [`ProofStore`] and checked.
#[derive(Debug, Clone)]
pub struct KeptProof {
    period: u64,
    preperiod: u64,
    needed: u64,
    checksum: Checksum,
    values: Table,
}

/// Why a proof cannot be kept or used.
#[derive(Debug, thiserror::Error)]
pub enum ProofStoreError {
    /// The sequence has no proved period to keep.
    #[error("{game} has no proved period to keep")]
    NotProved {
        /// The game's code.
        game: String,
    },
    /// Reading or writing the file failed.
    #[error("cannot use the proof file {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The file is damaged or does not prove what it says.
    #[error("the proof file {} is not used: {reason}", path.display())]
    Rejected {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

impl ProofStore {
    /// Proofs kept in `dir` (created when the first one is kept).
    pub fn new(dir: impl Into<PathBuf>) -> ProofStore {
        ProofStore { dir: dir.into() }
    }

    /// The user's store: `$XDG_DATA_HOME/bouton/proofs`, or
    /// `~/.local/share/bouton/proofs` (`None` without a home directory).
    pub fn user() -> Option<ProofStore> {
        crate::user_data_dir("proofs").map(ProofStore::new)
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file that holds `game`'s proof.
    pub fn path(&self, game: &HeapGame) -> PathBuf {
        self.dir.join(crate::game_file_name(game, "proof"))
    }

    /// Writes the proved period of `seq` (replacing any earlier file for
    /// its game, at once: a reader sees the old file or the new one).
    ///
    /// # Errors
    /// [`ProofStoreError::NotProved`] when `seq` proves no period;
    /// [`ProofStoreError::Io`] when the file cannot be written.
    pub fn keep(&self, seq: &Sequence) -> Result<PathBuf, ProofStoreError> {
        let game = seq.game();
        let Periodicity::Proved { period, preperiod, needed } = *seq.periodicity() else {
            return Err(ProofStoreError::NotProved { game: game.to_string() });
        };
        let path = self.path(game);
        let io_error = |source| ProofStoreError::Io { path: path.clone(), source };
        let mut values = Vec::with_capacity((preperiod + period) as usize);
        let mut checksum = Checksum::new();
        for (n, value) in seq.iter().take(needed as usize + 1).enumerate() {
            let value = value.map_err(io_error)?;
            if (n as u64) < preperiod + period {
                values.push(value);
            }
            checksum.push(value);
        }
        let proof = KeptProof { period, preperiod, needed, checksum, values: Table::from_values(&values) };
        let bytes = proof.to_bytes(game);
        std::fs::create_dir_all(&self.dir).map_err(io_error)?;
        let temporary = path.with_extension(format!("proof.{}.part", std::process::id()));
        let written = std::fs::write(&temporary, &bytes).and_then(|()| std::fs::rename(&temporary, &path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temporary);
            return Err(io_error(e));
        }
        Ok(path)
    }

    /// The proof kept for `game`, checked; `Ok(None)` when there is none.
    ///
    /// # Errors
    /// [`ProofStoreError::Rejected`] when the file is damaged, is another
    /// game's or does not prove its period; [`ProofStoreError::Io`] when it
    /// cannot be read.
    pub fn load(&self, game: &HeapGame) -> Result<Option<KeptProof>, ProofStoreError> {
        let path = self.path(game);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(ProofStoreError::Io { path, source }),
        };
        KeptProof::from_bytes(game, &bytes)
            .map(Some)
            .map_err(|reason| ProofStoreError::Rejected { path: path.clone(), reason })
    }
}

impl KeptProof {
    /// The least period.
    pub fn period(&self) -> u64 {
        self.period
    }

    /// The least pre-period.
    pub fn preperiod(&self) -> u64 {
        self.preperiod
    }

    /// The largest n whose value the proof read.
    pub fn needed(&self) -> u64 {
        self.needed
    }

    /// G(n), for any n.
    pub fn value(&self, n: u64) -> Option<u32> {
        let n = if n < self.preperiod { n } else { self.preperiod + (n - self.preperiod) % self.period };
        self.values.get(n)
    }

    pub(crate) fn into_table(self) -> (Table, u64, u64) {
        (self.values, self.period, self.preperiod)
    }

    fn to_bytes(&self, game: &HeapGame) -> Vec<u8> {
        let mut text = String::new();
        let _ = writeln!(text, "{MAGIC}\nversion {VERSION}\ncode {game}");
        let _ = writeln!(text, "period {}\npreperiod {}\nneeded {}", self.period, self.preperiod, self.needed);
        let _ =
            writeln!(text, "checksum {}\nwidth {}\nvalues {}\n", self.checksum, self.values.width(), self.values.len());
        let mut bytes = text.into_bytes();
        bytes.extend_from_slice(&self.values.to_le_bytes());
        let mut hash = Fnv::new();
        hash.write(&bytes);
        bytes.extend_from_slice(&hash.0.to_le_bytes());
        bytes
    }

    /// Reads and checks a proof of `game`; the reason it is refused.
    fn from_bytes(game: &HeapGame, bytes: &[u8]) -> Result<KeptProof, String> {
        let end = bytes
            .windows(2)
            .take(MAX_HEADER)
            .position(|w| w == b"\n\n")
            .ok_or("it is not a bouton-grundy proof (no header)")?;
        let header = std::str::from_utf8(&bytes[..end]).map_err(|_| "its header is not text")?;
        let mut lines = header.lines();
        if lines.next() != Some(MAGIC) {
            return Err("it is not a bouton-grundy proof".into());
        }
        let mut field = |name: &str| -> Result<String, String> {
            let line = lines.next().ok_or_else(|| format!("its header has no {name}"))?;
            line.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(' '))
                .map(str::to_owned)
                .ok_or_else(|| format!("its header has {line:?} where {name} should be"))
        };
        let number =
            |text: String, name: &str| text.parse::<u64>().map_err(|_| format!("its {name} {text:?} is not a number"));
        let version = number(field("version")?, "version")?;
        if version != u64::from(VERSION) {
            return Err(format!("it is of format {version}; this version reads format {VERSION}"));
        }
        let code = field("code")?;
        if code != game.to_string() {
            return Err(format!("it is a proof for {code}, not for {game}"));
        }
        let period = number(field("period")?, "period")?;
        let preperiod = number(field("preperiod")?, "preperiod")?;
        let needed = number(field("needed")?, "needed")?;
        let checksum = field("checksum")?;
        let width = number(field("width")?, "width")?;
        let count = number(field("values")?, "values")?;
        let body = &bytes[end + 2..];
        let stored = (count as u128) * (width as u128);
        if body.len() as u128 != stored + 8 || !matches!(width, 1 | 2 | 4) {
            return Err("it is cut short or too long (damaged)".into());
        }
        let (data, hash_bytes) = body.split_at(stored as usize);
        let mut hash = Fnv::new();
        hash.write(&bytes[..end + 2 + data.len()]);
        if hash.0.to_le_bytes() != hash_bytes {
            return Err("its hash does not match its contents (damaged)".into());
        }
        if period == 0 || preperiod.checked_add(period) != Some(count) {
            return Err(format!("it holds {count} values, not pre-period + period = {preperiod} + {period}"));
        }
        let rule = ProofRule::for_game(game);
        if rule.needed(preperiod, period) != Some(needed) {
            return Err(format!(
                "the periodicity theorem needs other values than the {needed} it claims for period {period} from {preperiod}"
            ));
        }
        let values = Table::from_le_bytes(data, width as u8).ok_or("its values cannot be read (damaged)")?;
        let proof = KeptProof { period, preperiod, needed, checksum: Checksum::new(), values };
        if preperiod > 0 && proof.values.get(preperiod - 1) == proof.values.get(preperiod - 1 + period) {
            return Err(format!(
                "G({}) = G({}): the pre-period is not the least",
                preperiod - 1,
                preperiod - 1 + period
            ));
        }
        let mut sum = Checksum::new();
        let stored = proof.values.len().min(needed + 1);
        for n in 0..stored {
            sum.push(proof.values.get(n).unwrap_or(0));
        }
        // Beyond the stored values, the period over and over.
        let mut n = stored;
        while n <= needed {
            let from = preperiod + (n - preperiod) % period;
            let run = (preperiod + period - from).min(needed + 1 - n);
            for m in from..from + run {
                sum.push(proof.values.get(m).unwrap_or(0));
            }
            n += run;
        }
        if sum.to_string() != checksum {
            return Err(format!(
                "the values it proves, G(0) to G({needed}), have checksum {sum}, not the {checksum} computed \
                 (G(n + {period}) = G(n) does not hold over the window the proof needs)"
            ));
        }
        if let Some(n) = definition_fails(game, &proof) {
            return Err(format!("G({n}) is not the mex of its options' values"));
        }
        Ok(KeptProof { checksum: sum, ..proof })
    }
}

/// The first n whose stored value is not the mex of its options' values,
/// among the first values (as many as [`DEFINITION_OPTIONS`] options).
fn definition_fails(game: &HeapGame, proof: &KeptProof) -> Option<u64> {
    let mut options = 0u64;
    let mut set = MexSet::new();
    let mut seen = Vec::new();
    let g = |m: u64| if m == 0 { Some(0) } else { proof.values.get(m) };
    for n in 0..proof.values.len() {
        let value = proof.values.get(n)?;
        seen.clear();
        for option in game.options(n) {
            seen.push(g(option.left)? ^ g(option.right)?);
        }
        options += seen.len() as u64;
        // The mex is at most the number of options; values above the one
        // stored cannot change whether it is the mex.
        if u64::from(value) > seen.len() as u64 {
            return Some(n);
        }
        set.clear();
        for &v in seen.iter().filter(|&&v| v <= value) {
            set.insert(v as usize);
        }
        if set.mex() != value as usize {
            return Some(n);
        }
        if options > DEFINITION_OPTIONS {
            break;
        }
    }
    None
}

/// Says once per file and process why a kept proof is not used.
pub(crate) fn warn_once(error: &ProofStoreError, game: &HeapGame) {
    static WARNED: OnceLock<Mutex<HashSet<String>>> = OnceLock::new();
    let key = match error {
        ProofStoreError::Io { path, .. } | ProofStoreError::Rejected { path, .. } => path.display().to_string(),
        ProofStoreError::NotProved { game } => game.clone(),
    };
    let first = WARNED.get_or_init(|| Mutex::new(HashSet::new())).lock().map_or(true, |mut w| w.insert(key));
    if first {
        eprintln!("warning: {error}; `bouton grundy {game} --until-proved` writes it again");
    }
}
