//! Checkpoints of long computations: the values computed so far, appended
//! to a file now and then, from which a later run of the same game goes
//! on instead of starting again.
//!
//! The file is a header naming the game, then chunks of values, each with
//! its own checksum. Values are only ever appended, so a run killed while
//! writing loses at most the chunk it was writing: on resuming, the values
//! up to the last whole chunk are kept and the rest is cut off.
//!
//! Format (all numbers little-endian): the 25 bytes
//! `bouton-grundy checkpoint\n`, the version (u32, 1), the length of the
//! game's code (u32) and the code (UTF-8), a 64-bit FNV-1a hash of all of
//! that; then chunks: `CHNK`, the first n (u64), the number of values
//! (u32), the bytes per value (u8: 1, 2 or 4), the values, and the FNV-1a
//! hash of the chunk from `CHNK` on (u64).

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::HeapGame;

const MAGIC: &[u8; 25] = b"bouton-grundy checkpoint\n";
const VERSION: u32 = 1;
const CHUNK_TAG: &[u8; 4] = b"CHNK";
/// Values per chunk at most.
const CHUNK_VALUES: u64 = 1 << 20;
/// The longest code a header may name.
const MAX_CODE: u32 = 4096;

/// Why a checkpoint file cannot be used.
///
/// ```
/// use bouton_grundy::{compute, CheckpointError, ComputeError, ComputeOptions, HeapGame};
///
/// let path = std::env::temp_dir().join(format!("doc-checkpoint-{}.grundy", std::process::id()));
/// let options = ComputeOptions { checkpoint: Some(path.clone()), ..Default::default() };
/// compute(&HeapGame::kayles(), 1000, options)?;
/// // The same file for another game is refused.
/// let options = ComputeOptions { checkpoint: Some(path.clone()), ..Default::default() };
/// let refused = compute(&HeapGame::dawsons_kayles(), 1000, options).unwrap_err();
/// assert!(matches!(refused, ComputeError::Checkpoint(CheckpointError::OtherGame { .. })));
/// std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file holds the values of another game.
    #[error("{} is a checkpoint of {found}, not of {expected}: give another file", path.display())]
    OtherGame {
        /// The file.
        path: PathBuf,
        /// The game it is for.
        found: String,
        /// The game being computed.
        expected: String,
    },
    /// The file is not a checkpoint (or its header is damaged).
    #[error("{} is not a bouton-grundy checkpoint (or its header is damaged): give another file", path.display())]
    NotACheckpoint {
        /// The file.
        path: PathBuf,
    },
    /// A checkpoint of a format this version does not read.
    #[error("{} is a checkpoint of format {found}; this version reads format {VERSION}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// Its format.
        found: u32,
    },
    /// Reading or writing the file failed.
    #[error("cannot use the checkpoint {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
}

/// FNV-1a, 64 bits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fnv(pub(crate) u64);

impl Fnv {
    pub(crate) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

fn header(game: &HeapGame) -> Vec<u8> {
    let code = game.to_string();
    let mut bytes = Vec::with_capacity(64 + code.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(code.len() as u32).to_le_bytes());
    bytes.extend_from_slice(code.as_bytes());
    let mut hash = Fnv::new();
    hash.write(&bytes);
    bytes.extend_from_slice(&hash.0.to_le_bytes());
    bytes
}

/// Values read from a checkpoint, and the writer that goes on appending.
#[derive(Debug)]
pub(crate) struct Checkpoint {
    path: PathBuf,
    writer: BufWriter<File>,
    /// Values in the file: G(0) to G(written − 1).
    written: u64,
    every: Duration,
    last: Instant,
    buffer: Vec<u32>,
}

impl Checkpoint {
    /// Opens (or creates) the checkpoint of `game` at `path`, returning the
    /// values it holds: at most `most` of them, in at most about `bytes` of
    /// memory (the values beyond are computed again).
    pub(crate) fn open(
        path: &Path,
        game: &HeapGame,
        every: Duration,
        most: u64,
        bytes: u64,
    ) -> Result<(Checkpoint, Prior), CheckpointError> {
        let io_error = |source| CheckpointError::Io { path: path.to_owned(), source };
        let mut file =
            File::options().read(true).write(true).create(true).truncate(false).open(path).map_err(io_error)?;
        let expected = header(game);
        let len = file.metadata().map_err(io_error)?.len();
        let (values, written, keep) = if len == 0 {
            file.write_all(&expected).map_err(io_error)?;
            (Prior::default(), 0, expected.len() as u64)
        } else {
            let mut reader = BufReader::with_capacity(1 << 20, &mut file);
            read_header(&mut reader, path, game, &expected)?;
            read_chunks(&mut reader, expected.len() as u64, most, bytes).map_err(io_error)?
        };
        // Whatever follows the last whole chunk is cut off.
        file.set_len(keep).map_err(io_error)?;
        file.seek(SeekFrom::Start(keep)).map_err(io_error)?;
        let checkpoint = Checkpoint {
            path: path.to_owned(),
            writer: BufWriter::with_capacity(1 << 20, file),
            written,
            every,
            last: Instant::now(),
            buffer: Vec::new(),
        };
        Ok((checkpoint, values))
    }

    /// Appends the values up to G(`count` − 1) if it is time to (or if
    /// `now`), reading them with `at`.
    pub(crate) fn save(
        &mut self,
        count: u64,
        now: bool,
        at: &mut impl FnMut(u64) -> u32,
    ) -> Result<(), CheckpointError> {
        if count <= self.written || !(now || self.last.elapsed() >= self.every) {
            return Ok(());
        }
        let result = self.append(count, at);
        self.last = Instant::now();
        result.map_err(|source| CheckpointError::Io { path: self.path.clone(), source })
    }

    fn append(&mut self, count: u64, at: &mut impl FnMut(u64) -> u32) -> io::Result<()> {
        while self.written < count {
            let start = self.written;
            let len = (count - start).min(CHUNK_VALUES);
            self.buffer.clear();
            self.buffer.extend((start..start + len).map(&mut *at));
            let largest = self.buffer.iter().copied().max().unwrap_or(0);
            let width: u8 = if largest <= 0xff {
                1
            } else if largest <= 0xffff {
                2
            } else {
                4
            };
            let mut chunk = Vec::with_capacity(32 + self.buffer.len() * usize::from(width));
            chunk.extend_from_slice(CHUNK_TAG);
            chunk.extend_from_slice(&start.to_le_bytes());
            chunk.extend_from_slice(&(len as u32).to_le_bytes());
            chunk.push(width);
            for &v in &self.buffer {
                chunk.extend_from_slice(&v.to_le_bytes()[..usize::from(width)]);
            }
            let mut hash = Fnv::new();
            hash.write(&chunk);
            chunk.extend_from_slice(&hash.0.to_le_bytes());
            self.writer.write_all(&chunk)?;
            self.written += len;
        }
        self.writer.flush()?;
        self.writer.get_ref().sync_data()
    }
}

fn read_header(reader: &mut impl Read, path: &Path, game: &HeapGame, expected: &[u8]) -> Result<(), CheckpointError> {
    let not_one = || CheckpointError::NotACheckpoint { path: path.to_owned() };
    let mut fixed = [0u8; 33];
    reader.read_exact(&mut fixed).map_err(|_| not_one())?;
    if &fixed[..25] != MAGIC {
        return Err(not_one());
    }
    let version = u32::from_le_bytes([fixed[25], fixed[26], fixed[27], fixed[28]]);
    let code_len = u32::from_le_bytes([fixed[29], fixed[30], fixed[31], fixed[32]]);
    if version != VERSION {
        return Err(CheckpointError::Version { path: path.to_owned(), found: version });
    }
    if code_len > MAX_CODE {
        return Err(not_one());
    }
    let mut rest = vec![0u8; code_len as usize + 8];
    reader.read_exact(&mut rest).map_err(|_| not_one())?;
    let mut hash = Fnv::new();
    hash.write(&fixed);
    hash.write(&rest[..code_len as usize]);
    let stored = u64::from_le_bytes(rest[code_len as usize..].try_into().map_err(|_| not_one())?);
    if stored != hash.0 {
        return Err(not_one());
    }
    let found = String::from_utf8_lossy(&rest[..code_len as usize]).into_owned();
    if found != game.to_string() || fixed.len() + rest.len() != expected.len() {
        return Err(CheckpointError::OtherGame { path: path.to_owned(), found, expected: game.to_string() });
    }
    Ok(())
}

/// Values resumed from a checkpoint, as compactly as they fit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Prior {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
}

impl Default for Prior {
    fn default() -> Prior {
        Prior::U8(Vec::new())
    }
}

impl Prior {
    /// Bytes per value.
    fn width(&self) -> u8 {
        match self {
            Prior::U8(_) => 1,
            Prior::U16(_) => 2,
            Prior::U32(_) => 4,
        }
    }

    pub(crate) fn len(&self) -> u64 {
        match self {
            Prior::U8(v) => v.len() as u64,
            Prior::U16(v) => v.len() as u64,
            Prior::U32(v) => v.len() as u64,
        }
    }

    #[inline]
    pub(crate) fn get(&self, n: u64) -> Option<u32> {
        let n = usize::try_from(n).ok()?;
        match self {
            Prior::U8(v) => v.get(n).map(|&x| u32::from(x)),
            Prior::U16(v) => v.get(n).map(|&x| u32::from(x)),
            Prior::U32(v) => v.get(n).copied(),
        }
    }

    fn widen(&mut self, width: u8) {
        let wider = match (&*self, width) {
            (Prior::U8(v), 2) => Prior::U16(v.iter().map(|&x| u16::from(x)).collect()),
            (Prior::U8(v), 4) => Prior::U32(v.iter().map(|&x| u32::from(x)).collect()),
            (Prior::U16(v), 4) => Prior::U32(v.iter().map(|&x| u32::from(x)).collect()),
            _ => return,
        };
        *self = wider;
    }

    fn extend(&mut self, data: &[u8], width: u8) {
        if data.is_empty() {
            return;
        }
        self.widen(width);
        let w = usize::from(width);
        let word = |bytes: &[u8]| {
            let mut word = [0u8; 4];
            word[..bytes.len()].copy_from_slice(bytes);
            u32::from_le_bytes(word)
        };
        match self {
            Prior::U8(v) => v.extend(data.chunks_exact(w).map(|b| word(b) as u8)),
            Prior::U16(v) => v.extend(data.chunks_exact(w).map(|b| word(b) as u16)),
            Prior::U32(v) => v.extend(data.chunks_exact(w).map(word)),
        }
    }
}

/// Reads whole chunks in order; returns at most `most` values, how many
/// the file holds and its length up to the last good chunk.
fn read_chunks(reader: &mut impl Read, mut offset: u64, most: u64, bytes: u64) -> io::Result<(Prior, u64, u64)> {
    let mut values = Prior::default();
    let mut held = 0u64;
    let mut head = [0u8; 17];
    let mut body = Vec::new();
    loop {
        match reader.read_exact(&mut head) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(e),
        }
        let start = u64::from_le_bytes(head[4..12].try_into().unwrap_or_default());
        let len = u32::from_le_bytes(head[12..16].try_into().unwrap_or_default());
        let width = head[16];
        if &head[..4] != CHUNK_TAG || start != held || u64::from(len) > CHUNK_VALUES || !matches!(width, 1 | 2 | 4) {
            break;
        }
        body.resize(len as usize * usize::from(width) + 8, 0);
        match reader.read_exact(&mut body) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(e),
        }
        let (data, stored) = body.split_at(body.len() - 8);
        let mut hash = Fnv::new();
        hash.write(&head);
        hash.write(data);
        if stored != hash.0.to_le_bytes() {
            break;
        }
        // Only values that follow on: once one is left out, so is the rest.
        let room = bytes.saturating_sub(values.len() * u64::from(values.width().max(width))) / u64::from(width);
        let keep =
            if values.len() < held { 0 } else { most.saturating_sub(values.len()).min(u64::from(len)).min(room) };
        let keep = keep as usize;
        values.extend(&data[..keep * usize::from(width)], width);
        held += u64::from(len);
        offset += head.len() as u64 + body.len() as u64;
    }
    Ok((values, held, offset))
}
