//! Where computed values live: in memory, or streamed to a file with only a
//! prefix and a recent window kept in memory.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// A temporary file of values, deleted when dropped.
#[derive(Debug)]
pub(crate) struct SpillFile {
    path: PathBuf,
    file: File,
}

impl SpillFile {
    pub(crate) fn create(dir: Option<&Path>) -> io::Result<SpillFile> {
        let dir = dir.map_or_else(std::env::temp_dir, Path::to_path_buf);
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        for attempt in 0..100u32 {
            let path = dir.join(format!("bouton-grundy-{}-{stamp}-{attempt}.values", std::process::id()));
            match File::options().read(true).write(true).create_new(true).open(&path) {
                Ok(file) => return Ok(SpillFile { path, file }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(io::ErrorKind::AlreadyExists, "cannot create a spill file"))
    }

    pub(crate) fn file(&self) -> &File {
        &self.file
    }

    /// Reads `width`-byte little-endian values starting at value `index`.
    pub(crate) fn read_values(&self, index: u64, width: u8, out: &mut [u32]) -> io::Result<()> {
        let mut bytes = vec![0u8; out.len() * usize::from(width)];
        self.file.read_exact_at(&mut bytes, index * u64::from(width))?;
        for (v, chunk) in out.iter_mut().zip(bytes.chunks_exact(usize::from(width))) {
            *v = match width {
                2 => u32::from(u16::from_le_bytes([chunk[0], chunk[1]])),
                _ => u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]),
            };
        }
        Ok(())
    }
}

impl Drop for SpillFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Random access to 16-bit values computed so far, and appending the next.
/// Values reach the disk (if the store has one) at [`Store16::commit`].
pub(crate) trait Store16 {
    /// The largest value the store holds.
    const MAX: u32;
    /// G(i), for i below the number of values pushed. May read from disk.
    fn get(&mut self, i: u64) -> u16;
    /// Copies G(start), G(start + 1), … into `out`.
    fn copy_into(&mut self, start: u64, out: &mut [u16]);
    /// Copies G(start), G(start + 1), … into `out` as bytes when the store
    /// holds bytes (every value below 256) and returns true; otherwise
    /// copies nothing and returns false.
    fn copy_bytes_into(&mut self, start: u64, out: &mut [u8]) -> bool {
        let _ = (start, out);
        false
    }
    /// Appends the next value (provisionally).
    fn push(&mut self, value: u16);
    /// Makes every value pushed so far final.
    fn commit(&mut self) -> io::Result<()>;
    /// The first error met reading back from disk, if any (a read that
    /// failed returned 0).
    fn take_error(&mut self) -> Option<io::Error>;
    /// Whether the next block of values, of `needed` in all, might not fit
    /// the memory allowed.
    fn is_full(&self, needed: u64) -> bool {
        let _ = needed;
        false
    }
}

/// A value as an in-memory store keeps it: a byte ([`MemStore8`], while
/// every value is below 256) or 16 bits ([`MemStore16`]).
pub(crate) trait MemValue: Copy + Into<u16> {
    /// The largest value it holds.
    const MAX: u32;
    /// `value`, at most [`MemValue::MAX`], as this type.
    fn narrow(value: u16) -> Self;
    /// `values` as bytes, when a value is a byte.
    fn as_bytes(values: &[Self]) -> Option<&[u8]>;
}

impl MemValue for u8 {
    const MAX: u32 = u8::MAX as u32;

    #[inline]
    fn narrow(value: u16) -> u8 {
        value as u8
    }

    #[inline]
    fn as_bytes(values: &[u8]) -> Option<&[u8]> {
        Some(values)
    }
}

impl MemValue for u16 {
    const MAX: u32 = u16::MAX as u32;

    #[inline]
    fn narrow(value: u16) -> u16 {
        value
    }

    #[inline]
    fn as_bytes(_: &[u16]) -> Option<&[u8]> {
        None
    }
}

/// Every value in memory, a `V` each.
#[derive(Debug, Default)]
pub(crate) struct MemStore<V> {
    pub(crate) values: Vec<V>,
    room: u64,
}

/// Every value in memory, a byte each (while every value is below 256).
pub(crate) type MemStore8 = MemStore<u8>;

/// Every value in memory, 16 bits each.
pub(crate) type MemStore16 = MemStore<u16>;

impl<V> MemStore<V> {
    /// Room for `room` values, allocated (not touched) at once.
    pub(crate) fn with_room(room: u64) -> MemStore<V> {
        MemStore { values: Vec::with_capacity(room as usize), room }
    }

    /// The store holding `values` already, with room for `room` in all.
    pub(crate) fn adopt(mut values: Vec<V>, room: u64) -> MemStore<V> {
        values.reserve_exact((room as usize).saturating_sub(values.len()));
        MemStore { values, room }
    }
}

impl<V: MemValue> Store16 for MemStore<V> {
    const MAX: u32 = V::MAX;

    #[inline]
    fn get(&mut self, i: u64) -> u16 {
        self.values[i as usize].into()
    }

    #[inline]
    fn copy_into(&mut self, start: u64, out: &mut [u16]) {
        let start = start as usize;
        let len = out.len();
        for (o, &v) in out.iter_mut().zip(&self.values[start..start + len]) {
            *o = v.into();
        }
    }

    #[inline]
    fn copy_bytes_into(&mut self, start: u64, out: &mut [u8]) -> bool {
        let start = start as usize;
        match V::as_bytes(&self.values[start..start + out.len()]) {
            Some(bytes) => {
                out.copy_from_slice(bytes);
                true
            }
            None => false,
        }
    }

    #[inline]
    fn push(&mut self, value: u16) {
        self.values.push(V::narrow(value));
    }

    fn commit(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn take_error(&mut self) -> Option<io::Error> {
        None
    }

    fn is_full(&self, needed: u64) -> bool {
        needed.min(self.values.len() as u64 + super::BLOCK) > self.room
    }
}

/// Values to one file once final; in memory only the first values (the
/// prefix) and the most recent ones (a ring whose length is a power of two).
/// Reads outside both go to the file through a one-page cache.
#[derive(Debug)]
pub(crate) struct SpillStore16 {
    prefix: Vec<u16>,
    prefix_len: u64,
    ring: Vec<u16>,
    ring_mask: u64,
    len: u64,
    written: u64,
    writer: BufWriter<File>,
    spill: SpillFile,
    /// A direct-mapped cache of pages read back from the file.
    pages: Vec<Vec<u32>>,
    page_starts: Vec<u64>,
    dirty: bool,
    error: Option<io::Error>,
}

const PAGE: u64 = 4096;
const PAGES: usize = 64;

impl SpillStore16 {
    /// A store keeping about `memory` bytes of values in memory.
    pub(crate) fn new(memory: u64, dir: Option<&Path>) -> io::Result<SpillStore16> {
        let values = (memory / 2).max(4 * PAGE);
        let half = values / 2;
        let window = if half.is_power_of_two() { half } else { half.next_power_of_two() / 2 };
        let prefix_len = values - window;
        let spill = SpillFile::create(dir)?;
        let writer = BufWriter::with_capacity(1 << 16, spill.file().try_clone()?);
        Ok(SpillStore16 {
            prefix: Vec::new(),
            prefix_len,
            ring: vec![0; window as usize],
            ring_mask: window - 1,
            len: 0,
            written: 0,
            writer,
            spill,
            pages: vec![Vec::new(); PAGES],
            page_starts: vec![u64::MAX; PAGES],
            dirty: false,
            error: None,
        })
    }

    /// Finishes writing and hands over the file.
    pub(crate) fn finish(mut self) -> io::Result<(SpillFile, u64)> {
        self.commit()?;
        self.writer.flush()?;
        Ok((self.spill, self.len))
    }

    fn read_slow(&mut self, i: u64) -> u16 {
        if self.dirty {
            if let Err(e) = self.writer.flush() {
                self.error.get_or_insert(e);
                return 0;
            }
            self.dirty = false;
        }
        let start = i / PAGE * PAGE;
        let slot = (i / PAGE) as usize % PAGES;
        if self.page_starts[slot] != start || (i - start) as usize >= self.pages[slot].len() {
            let count = PAGE.min(self.written.saturating_sub(start)) as usize;
            let page = &mut self.pages[slot];
            page.resize(count, 0);
            if (i - start) as usize >= count {
                self.error.get_or_insert(io::Error::other("a value was read before it was written"));
                return 0;
            }
            if let Err(e) = self.spill.read_values(start, 2, page) {
                self.error.get_or_insert(e);
                return 0;
            }
            self.page_starts[slot] = start;
        }
        self.pages[slot][(i - start) as usize] as u16
    }
}

impl Store16 for SpillStore16 {
    const MAX: u32 = u16::MAX as u32;

    #[inline]
    fn get(&mut self, i: u64) -> u16 {
        if i < self.prefix.len() as u64 {
            self.prefix[i as usize]
        } else if i + self.ring_mask >= self.len {
            self.ring[(i & self.ring_mask) as usize]
        } else {
            self.read_slow(i)
        }
    }

    fn copy_into(&mut self, start: u64, out: &mut [u16]) {
        for (i, v) in out.iter_mut().enumerate() {
            *v = self.get(start + i as u64);
        }
    }

    fn push(&mut self, value: u16) {
        if self.len < self.prefix_len {
            self.prefix.push(value);
        }
        self.ring[(self.len & self.ring_mask) as usize] = value;
        self.len += 1;
        // Values leaving the ring must be in the file by then.
        if self.len - self.written > self.ring_mask / 2
            && let Err(e) = self.commit()
        {
            self.error.get_or_insert(e);
        }
    }

    fn commit(&mut self) -> io::Result<()> {
        while self.written < self.len {
            let v = self.ring[(self.written & self.ring_mask) as usize];
            self.writer.write_all(&v.to_le_bytes())?;
            self.written += 1;
        }
        self.dirty = true;
        Ok(())
    }

    fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }
}

/// Appends 32-bit values to memory or to a file.
#[derive(Debug)]
pub(crate) enum Sink32 {
    Memory(Vec<u32>),
    File { writer: BufWriter<File>, spill: SpillFile, len: u64 },
}

impl Sink32 {
    pub(crate) fn new(values: u64, memory: u64, dir: Option<&Path>) -> io::Result<Sink32> {
        if values.saturating_mul(4) <= memory {
            Ok(Sink32::Memory(Vec::with_capacity(values as usize)))
        } else {
            let spill = SpillFile::create(dir)?;
            let writer = BufWriter::with_capacity(1 << 16, spill.file().try_clone()?);
            Ok(Sink32::File { writer, spill, len: 0 })
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, value: u32) -> io::Result<()> {
        match self {
            Sink32::Memory(values) => values.push(value),
            Sink32::File { writer, len, .. } => {
                writer.write_all(&value.to_le_bytes())?;
                *len += 1;
            }
        }
        Ok(())
    }
}

impl Sink32 {
    /// Reads back the values pushed so far (flushing them to the file
    /// first, if they go to one).
    pub(crate) fn reader(&mut self) -> io::Result<SinkReader<'_>> {
        Ok(match self {
            Sink32::Memory(values) => SinkReader::Memory(values),
            Sink32::File { writer, spill, len } => {
                writer.flush()?;
                SinkReader::File(PagedFile::new(spill, 4, *len))
            }
        })
    }
}

/// Random access to the values of a [`Sink32`].
#[derive(Debug)]
pub(crate) enum SinkReader<'a> {
    Memory(&'a [u32]),
    File(PagedFile<'a>),
}

impl SinkReader<'_> {
    /// G(i), i below the values pushed (0 if a read failed: see
    /// [`SinkReader::take_error`]).
    #[inline]
    pub(crate) fn get(&mut self, i: u64) -> u32 {
        match self {
            SinkReader::Memory(values) => values[i as usize],
            SinkReader::File(file) => file.get(i),
        }
    }

    /// The first read error, if any.
    pub(crate) fn take_error(&mut self) -> Option<io::Error> {
        match self {
            SinkReader::Memory(_) => None,
            SinkReader::File(file) => file.error.take(),
        }
    }
}

/// Values of a file read through a few cached pages (a search reads two
/// places of the file at a time, each in order).
#[derive(Debug)]
pub(crate) struct PagedFile<'a> {
    spill: &'a SpillFile,
    width: u8,
    len: u64,
    starts: [u64; 4],
    pages: [Vec<u32>; 4],
    error: Option<io::Error>,
}

impl<'a> PagedFile<'a> {
    pub(crate) fn new(spill: &'a SpillFile, width: u8, len: u64) -> PagedFile<'a> {
        PagedFile { spill, width, len, starts: [u64::MAX; 4], pages: Default::default(), error: None }
    }

    pub(crate) fn get(&mut self, i: u64) -> u32 {
        let start = i / PAGE * PAGE;
        let slot = (i / PAGE) as usize % 4;
        if self.starts[slot] != start {
            let count = PAGE.min(self.len.saturating_sub(start)) as usize;
            self.pages[slot].resize(count, 0);
            if let Err(e) = self.spill.read_values(start, self.width, &mut self.pages[slot]) {
                self.error.get_or_insert(e);
                self.starts[slot] = u64::MAX;
                return 0;
            }
            self.starts[slot] = start;
        }
        self.pages[slot].get((i - start) as usize).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pushes `values` into `store` and reads them back every way the store
    /// answers: one by one, and as a run from 3 on.
    fn read_back(store: &mut impl Store16, values: &[u16]) -> (Vec<u16>, Vec<u16>) {
        for &v in values {
            store.push(v);
        }
        store.commit().expect("a store in memory cannot fail");
        let one_by_one = (0..values.len() as u64).map(|i| store.get(i)).collect();
        let mut run = vec![0; values.len() - 3];
        store.copy_into(3, &mut run);
        (one_by_one, run)
    }

    #[test]
    fn both_memory_stores_give_back_what_was_pushed() {
        let values: Vec<u16> = (0..200u16).map(|i| (i * 37) % 256).collect();
        let expected = (values.clone(), values[3..].to_vec());
        let mut narrow = MemStore8::with_room(values.len() as u64);
        assert_eq!(read_back(&mut narrow, &values), expected);
        let mut wide = MemStore16::with_room(values.len() as u64);
        assert_eq!(read_back(&mut wide, &values), expected);
        assert!(narrow.take_error().is_none() && wide.take_error().is_none());

        // Only the byte store hands out bytes.
        let mut bytes = vec![0u8; 10];
        assert!(narrow.copy_bytes_into(5, &mut bytes));
        assert_eq!(bytes, values[5..15].iter().map(|&v| v as u8).collect::<Vec<_>>());
        assert!(!wide.copy_bytes_into(5, &mut bytes));

        let wide_values: Vec<u16> = (0..100u16).map(|i| i * 613).collect();
        let mut wide = MemStore16::with_room(100);
        assert_eq!(read_back(&mut wide, &wide_values), (wide_values.clone(), wide_values[3..].to_vec()));
        assert_eq!((MemStore8::MAX, MemStore16::MAX), (255, 65_535));
    }

    #[test]
    fn an_adopted_store_goes_on_after_its_values() {
        let mut store = MemStore8::adopt(vec![4, 5, 6], 10);
        store.push(7);
        assert_eq!((0..4).map(|i| store.get(i)).collect::<Vec<_>>(), [4, 5, 6, 7]);
        assert!(store.values.capacity() >= 10);
    }
}
