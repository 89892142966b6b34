//! Quotients kept on disk: what the engine proved for a game (seconds of
//! work for Kayles or 0.44) is written once to a small text file and read
//! back — proved again, in one walk — by every later process, instead of
//! being computed again within an analysis's small budget.
//!
//! One file per game, `<dir>/<code>.quotient` (characters other than
//! letters, digits and `.` written `_xx` in hex), in the text form of
//! [`Kept`]. A file that is damaged, another game's or whose quotient fails
//! the proof is refused and never trusted.

use std::io;
use std::path::{Path, PathBuf};

use bouton_grundy::{HeapGame, Meter};

use crate::{Kept, KeptError, MisereError};

/// Where quotients are kept: a directory with one small file per game.
///
/// ```
/// use bouton_misere::{solve_partial, HeapGame, Kept, Meter, QuotientStore, SolveOptions};
///
/// let dir = std::env::temp_dir().join(format!("doc-quotients-{}", std::process::id()));
/// let store = QuotientStore::new(&dir);
/// let game: HeapGame = "0.72".parse()?;
/// assert!(store.load(&game, &mut Meter::unlimited())?.is_none());
/// let kept = Kept::from_partial(solve_partial(&game, &SolveOptions::upto(100))?, 0, None);
/// let path = store.keep(&kept)?;
/// let again = store.load(&game, &mut Meter::unlimited())?.expect("just kept");
/// assert_eq!(again.quotient.order(), 24);
/// assert!(again.quotient.pretending().period().is_some());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuotientStore {
    dir: PathBuf,
}

/// Why a kept quotient cannot be written or used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Reading or writing the file failed.
    #[error("cannot use the quotient file {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The file is damaged or does not prove what it says.
    #[error("the quotient file {} is not used: {reason}", path.display())]
    Rejected {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// Proving it again ran out of budget (the file may be fine).
    #[error(transparent)]
    Budget(MisereError),
}

impl QuotientStore {
    /// Quotients kept in `dir` (created when the first one is kept).
    pub fn new(dir: impl Into<PathBuf>) -> QuotientStore {
        QuotientStore { dir: dir.into() }
    }

    /// The user's store: `$XDG_DATA_HOME/bouton/quotients`, or
    /// `~/.local/share/bouton/quotients` (`None` without a home directory).
    ///
    /// ```
    /// if let Some(store) = bouton_misere::QuotientStore::user() {
    ///     assert!(store.dir().ends_with("bouton/quotients"));
    /// }
    /// ```
    pub fn user() -> Option<QuotientStore> {
        bouton_grundy::user_data_dir("quotients").map(QuotientStore::new)
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file that holds `game`'s quotient.
    ///
    /// ```
    /// let store = bouton_misere::QuotientStore::new("/tmp/q");
    /// assert!(store.path(&"0.77".parse()?).ends_with("0.77.quotient"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn path(&self, game: &HeapGame) -> PathBuf {
        self.dir.join(bouton_grundy::game_file_name(game, "quotient"))
    }

    /// Writes `kept` (replacing any earlier file for its game at once: a
    /// reader sees the old file or the new one).
    ///
    /// # Errors
    /// [`StoreError::Io`] when the file cannot be written.
    pub fn keep(&self, kept: &Kept) -> Result<PathBuf, StoreError> {
        let path = self.path(kept.quotient.game());
        let io_error = |source| StoreError::Io { path: path.clone(), source };
        std::fs::create_dir_all(&self.dir).map_err(io_error)?;
        let temporary = path.with_extension(format!("quotient.{}.part", std::process::id()));
        let written = std::fs::write(&temporary, kept.to_text()).and_then(|()| std::fs::rename(&temporary, &path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temporary);
            return Err(io_error(e));
        }
        Ok(path)
    }

    /// The quotient kept for `game`, proved again on `meter`; `Ok(None)`
    /// when there is none.
    ///
    /// # Errors
    /// [`StoreError::Rejected`] when the file is damaged, another game's or
    /// fails the proof; [`StoreError::Io`] when it cannot be read;
    /// [`StoreError::Budget`] when the meter runs out first.
    pub fn load(&self, game: &HeapGame, meter: &mut Meter) -> Result<Option<Kept>, StoreError> {
        let path = self.path(game);
        let text = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(StoreError::Io { path, source }),
        };
        let Ok(text) = String::from_utf8(text) else {
            return Err(StoreError::Rejected { path, reason: "it is not text".to_owned() });
        };
        match Kept::from_text(game, &text, meter) {
            Ok(kept) => Ok(Some(kept)),
            Err(KeptError::Rejected(reason)) => Err(StoreError::Rejected { path, reason }),
            Err(KeptError::Budget(e)) => Err(StoreError::Budget(e)),
        }
    }
}
