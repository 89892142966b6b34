//! Reading heap sizes from a stream, as `bouton analyze -` does, with
//! parsing keeping pace with reading.
//!
//! The input is read in blocks of [`BLOCK`] bytes, each cut just after its
//! last whitespace byte (the partial word after it starts the next block).
//! Worker threads, one per core, parse the blocks with
//! [`Heaps::parse_sizes_into`] while the calling thread reads the next ones
//! and appends the parsed sizes, in input order, to the result. Buffers are
//! recycled, so the memory touched stays a few blocks beyond the result
//! itself: reading a 200 MB input does not mean first storing 200 MB.
//!
//! The outcome is exactly [`Heaps::parse_bytes`] on the whole input: the
//! same heaps, or the error for the first bad word in input order (the first
//! error of the first block that has one, as blocks never split a word), or
//! [`HeapsError::NoHeaps`]. Once a bad word is found, no more input is
//! read. An input shorter than one block is parsed on the calling thread.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::num::NonZeroUsize;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Mutex, PoisonError};
use std::thread;

use bouton_rules::{Heaps, HeapsError};

/// Bytes read per block: large enough that handing a block to a worker
/// costs little next to parsing it (about half a millisecond), small enough
/// that the buffers stay in the caches.
const BLOCK: usize = 1 << 20;

/// At most this many worker threads.
const MAX_WORKERS: usize = 8;

/// Reads heap sizes, written in decimal and separated by ASCII whitespace,
/// from `input` to its end.
///
/// # Errors
/// The outer error is a failure to read; the inner one is what
/// [`Heaps::parse_bytes`] says of the input.
pub fn read_heaps(mut input: impl Read) -> io::Result<Result<Heaps, HeapsError>> {
    let mut carry = Vec::new();
    let mut buffer = vec![0; BLOCK];
    let mut block = fill_block(&mut input, &mut buffer, &mut carry)?;
    if block.last {
        return Ok(Heaps::parse_bytes(&buffer[..block.len]));
    }
    let workers = thread::available_parallelism().map_or(1, NonZeroUsize::get).min(MAX_WORKERS);
    // Enough blocks in flight for every worker to have one queued behind
    // the one it is parsing while the reader fills another.
    let max_buffers = 2 * workers + 1;
    let (job_sender, jobs) = mpsc::channel::<Job>();
    let jobs = Mutex::new(jobs);
    let (done_sender, done) = mpsc::channel::<Done>();
    thread::scope(|scope| {
        for _ in 0..workers {
            let (jobs, done_sender) = (&jobs, done_sender.clone());
            scope.spawn(move || work(jobs, &done_sender));
        }
        drop(done_sender);

        let mut collector = Collector::default();
        let mut buffers = 1;
        let mut sequence = 0;
        let read = loop {
            let sizes = collector.spare_sizes.pop().unwrap_or_default();
            // Only fails if every worker has gone, which a panic would
            // report when the scope ends.
            let _ = job_sender.send(Job { sequence, buffer, len: block.len, sizes });
            sequence += 1;
            while let Ok(finished) = done.try_recv() {
                collector.add(finished);
            }
            if block.last || collector.error.is_some() {
                break Ok(());
            }
            buffer = match collector.spare_buffers.pop() {
                Some(buffer) => buffer,
                None if buffers < max_buffers => {
                    buffers += 1;
                    vec![0; BLOCK]
                }
                None => match done.recv() {
                    Ok(finished) => {
                        collector.add(finished);
                        collector.spare_buffers.pop().unwrap_or_else(|| vec![0; BLOCK])
                    }
                    Err(_) => break Ok(()),
                },
            };
            match fill_block(&mut input, &mut buffer, &mut carry) {
                Ok(next) => block = next,
                Err(e) => break Err(e),
            }
        };
        // Let the workers finish what they have and stop.
        drop(job_sender);
        for finished in done {
            collector.add(finished);
        }
        read?;
        Ok(collector.finish())
    })
}

/// Where a freshly filled buffer ends.
struct Block {
    /// The bytes to parse: up to and including the last whitespace byte, or
    /// everything in the buffer at the end of the input.
    len: usize,
    /// Whether the input has ended.
    last: bool,
}

/// Fills `buffer` with the `carry` bytes left over from the previous block
/// followed by input, until it is full or the input ends; then cuts it just
/// after its last whitespace byte, leaving the rest in `carry`. A buffer
/// that one word fills entirely is doubled until the word ends.
fn fill_block(input: &mut impl Read, buffer: &mut Vec<u8>, carry: &mut Vec<u8>) -> io::Result<Block> {
    let wanted = BLOCK.max(carry.len() + BLOCK / 2);
    if buffer.len() < wanted {
        buffer.resize(wanted, 0);
    }
    let mut len = carry.len();
    buffer[..len].copy_from_slice(carry);
    carry.clear();
    loop {
        while len < buffer.len() {
            match input.read(&mut buffer[len..]) {
                Ok(0) => return Ok(Block { len, last: true }),
                Ok(n) => len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if let Some(space) = buffer.iter().rposition(u8::is_ascii_whitespace) {
            carry.extend_from_slice(&buffer[space + 1..]);
            return Ok(Block { len: space + 1, last: false });
        }
        buffer.resize(2 * buffer.len(), 0);
    }
}

/// A block for a worker to parse, with a vector to parse it into.
struct Job {
    sequence: usize,
    buffer: Vec<u8>,
    len: usize,
    sizes: Vec<u64>,
}

/// A parsed block, with its buffer to reuse.
struct Done {
    sequence: usize,
    buffer: Vec<u8>,
    sizes: Result<Vec<u64>, HeapsError>,
}

/// A worker: parses blocks until there are no more.
fn work(jobs: &Mutex<Receiver<Job>>, done: &Sender<Done>) {
    loop {
        let job = jobs.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok(Job { sequence, buffer, len, mut sizes }) = job else { return };
        sizes.clear();
        let sizes = Heaps::parse_sizes_into(&buffer[..len], &mut sizes).map(|()| sizes);
        if done.send(Done { sequence, buffer, sizes }).is_err() {
            return;
        }
    }
}

/// Puts parsed blocks back in input order.
#[derive(Default)]
struct Collector {
    /// The sizes of blocks `0..next`.
    sizes: Vec<u64>,
    next: usize,
    /// Parsed blocks after `next`, waiting for the ones before them.
    waiting: BTreeMap<usize, Vec<u64>>,
    /// The error of the earliest block with one so far.
    error: Option<(usize, HeapsError)>,
    spare_buffers: Vec<Vec<u8>>,
    spare_sizes: Vec<Vec<u64>>,
}

impl Collector {
    fn add(&mut self, done: Done) {
        self.spare_buffers.push(done.buffer);
        match done.sizes {
            Ok(sizes) => {
                self.waiting.insert(done.sequence, sizes);
            }
            Err(e) => {
                if self.error.as_ref().is_none_or(|&(sequence, _)| done.sequence < sequence) {
                    self.error = Some((done.sequence, e));
                }
            }
        }
        while let Some(sizes) = self.waiting.remove(&self.next) {
            self.sizes.extend_from_slice(&sizes);
            self.spare_sizes.push(sizes);
            self.next += 1;
        }
    }

    /// The heaps, once every block has been added; or the first error. No
    /// block is sent after one with an error, so every block before it has
    /// been parsed without one.
    fn finish(self) -> Result<Heaps, HeapsError> {
        match self.error {
            Some((_, e)) => Err(e),
            None => Heaps::new(self.sizes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that returns at most `step` bytes per call, to cut the
    /// input at every kind of place.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    fn both(bytes: &[u8]) {
        for step in [1 << 16, 4093, BLOCK + 7] {
            let read = read_heaps(Trickle { bytes, step }).expect("reading from memory");
            assert_eq!(read, Heaps::parse_bytes(bytes), "step {step}, {} bytes", bytes.len());
        }
    }

    /// `words` words of the form `i * 7919` (up to 20 digits), with
    /// varied separators.
    fn text(words: u64) -> Vec<u8> {
        let mut text = String::new();
        for i in 0..words {
            text.push_str(&(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (i % 64)).to_string());
            text.push_str(["\n", " ", "\t", "\r\n", "  "][(i % 5) as usize]);
        }
        text.into_bytes()
    }

    #[test]
    fn many_blocks_give_what_parse_bytes_gives() {
        let text = text(600_000);
        assert!(text.len() > 5 * BLOCK);
        both(&text);
        // Without a final newline, the last word ends the input.
        both(text.trim_ascii_end());
        both(b"");
        both(b" \n");
        both(b"1 2 3");
    }

    #[test]
    fn the_first_bad_word_in_input_order_is_named() {
        let text = text(600_000);
        // Bad words in several blocks: the first one is reported, wherever
        // the blocks are cut and whichever worker finishes first.
        for places in [&[100][..], &[3 * BLOCK, BLOCK + 10], &[text.len() - 5], &[BLOCK - 3, BLOCK - 1, BLOCK + 1]] {
            let mut bad = text.clone();
            for &at in places {
                bad[at] = b'x';
            }
            both(&bad);
        }
    }

    #[test]
    fn a_word_longer_than_a_block_is_one_word() {
        let mut text = b"7 ".to_vec();
        text.extend(std::iter::repeat_n(b'0', 3 * BLOCK));
        text.extend_from_slice(b"42 5\n");
        both(&text);
        let read = read_heaps(&text[..]).expect("reading from memory");
        assert_eq!(read.map(Heaps::into_vec), Ok(vec![7, 42, 5]));
        // The same with a bad byte deep inside: the whole word is named.
        text[2 * BLOCK] = b'x';
        both(&text);
    }
}
