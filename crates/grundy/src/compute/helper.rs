//! The second core's share of the sparse method: for the heaps of a lane a
//! little ahead, every option through a split whose rare part is far away
//! (more than [`LEAD`] + 1 lanes), and every option of the first
//! [`ROUNDS`] rounds of the search for rare values wherever it can read both
//! parts, from values it already knows. The main thread then looks only
//! through the near rare heaps and searches for the rare values still
//! wanted, skipping the chunks the helper went through; both find the same
//! options as one thread would, so the values are the same. The main thread
//! waits for the helper at most [`PATIENCE`] per lane: a lane whose answer
//! is not there by then (the machine is busy) it computes alone.
//!
//! The helper goes through a lane a tile of heaps at a time (their marks,
//! a byte per value and heap, fit the first-level cache) with the parts in
//! the outer loop: for one part, the second parts of consecutive heaps are
//! consecutive values, read in order, and each option is a plain store.
//! Parts that every heap of the tile has are marked [`TOGETHER`] to a pass.

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError, channel};
use std::time::Duration;

use super::sparse::{CHUNK, chunk_count, chunk_in_round, pack_bytes};

/// Heaps per lane: the unit of work handed over.
pub(super) const LANE: u64 = 256;

/// How many lanes ahead the helper works.
const LEAD: u64 = 2;

/// The first values the helper keeps.
const PREFIX: u64 = 1 << 17;

/// The latest values it keeps (a power of two).
const WINDOW: u64 = 1 << 18;

/// The first rounds of the main thread's search (one chunk of splits per
/// split move each) that the helper also goes through, where it can read
/// every value: it marks everything they give, and the main thread skips
/// them.
const ROUNDS: u64 = 6;

/// Whether the helper, knowing G(0) to G(`known` − 1) when it worked on a
/// lane, could read every split of the chunk whose first parts start at
/// `base`: the second parts are below `known` when the first are at least
/// `LEAD + 1` lanes long.
#[inline]
fn covers(base: u64, known: u64) -> bool {
    base >= (LEAD + 1) * LANE && base + CHUNK <= known
}

/// How long the main thread waits for the helper's answer for a lane the
/// helper is working on (a lane takes it well under a millisecond on an
/// idle core) before doing the lane alone.
const PATIENCE: Duration = Duration::from_millis(2);

/// Bytes of marks for the tile of heaps the helper works on at a time (one
/// per value and heap): the tile stays in the first-level cache.
const TILE_BYTES: usize = 1 << 15;

/// The helper is worth its hand-overs with this many far rare heaps.
const WORTH: usize = 64;

/// The options found for one heap by the helper: a bitset of values, and
/// the rare heaps (by index, `lo..hi`) it went through.
#[derive(Debug, Clone, Copy)]
pub(super) struct Far<'a> {
    pub(super) bits: &'a [u64],
    pub(super) lo: usize,
    pub(super) hi: usize,
    /// The helper knew G(0) to G(known − 1).
    known: u64,
}

impl Far<'_> {
    /// Whether the options of the search's chunk of round `round`, first
    /// parts from `base`, are among `bits` already.
    #[inline]
    pub(super) fn covered(&self, round: u64, base: u64) -> bool {
        round < ROUNDS && covers(base, self.known)
    }
}

/// Work for the helper.
struct Job {
    /// Values newly known, as runs (first n, values).
    values: Vec<(u64, Vec<u16>)>,
    /// Rare heaps newly known.
    rare: Vec<(u64, u16)>,
    /// The lane: heaps `start..start + LANE`.
    start: u64,
    lo: usize,
    hi: usize,
    words: usize,
    bits: Vec<u64>,
}

/// Its answer.
struct Done {
    start: u64,
    lo: usize,
    hi: usize,
    words: usize,
    bits: Vec<u64>,
}

/// What the helper knows.
struct Knowledge {
    prefix: Vec<u16>,
    window: Box<[u16; WINDOW as usize]>,
    rare_heaps: Vec<u64>,
    rare_values: Vec<u16>,
    split: Vec<u64>,
    unequal: bool,
    /// The helper's marks (kept to avoid allocating).
    marks: Vec<u8>,
}

impl Knowledge {
    #[inline]
    fn get(&self, n: u64) -> u16 {
        match self.prefix.get(n as usize) {
            Some(&v) => v,
            None => self.window[(n & (WINDOW - 1)) as usize],
        }
    }

    fn learn(&mut self, job: &mut Job) {
        for (from, values) in job.values.drain(..) {
            for (i, v) in values.into_iter().enumerate() {
                let n = from + i as u64;
                if n < PREFIX && n as usize == self.prefix.len() {
                    self.prefix.push(v);
                }
                self.window[(n & (WINDOW - 1)) as usize] = v;
            }
        }
        for (r, g) in job.rare.drain(..) {
            self.rare_heaps.push(r);
            self.rare_values.push(g);
        }
    }

    /// Finds the options of the job's lane, into `job.bits`.
    fn work(&mut self, job: &mut Job) {
        job.bits.clear();
        job.bits.resize(LANE as usize * job.words, 0);
        let mut marks = std::mem::take(&mut self.marks);
        // Rows of marks as long as the values need (a power of two), so
        // that a value masked to the row is in it.
        match job.words * 64 {
            64 => self.work_in_tiles::<64>(job, &mut marks),
            128 => self.work_in_tiles::<128>(job, &mut marks),
            256 => self.work_in_tiles::<256>(job, &mut marks),
            512 => self.work_in_tiles::<512>(job, &mut marks),
            1024 => self.work_in_tiles::<1024>(job, &mut marks),
            2048 => self.work_in_tiles::<2048>(job, &mut marks),
            4096 => self.work_in_tiles::<4096>(job, &mut marks),
            _ => self.work_in_tiles::<{ 1 << 16 }>(job, &mut marks),
        }
        self.marks = marks;
    }

    /// The lane's options, `V` values a heap (at least the job's).
    fn work_in_tiles<const V: usize>(&self, job: &mut Job, marks: &mut Vec<u8>) {
        let words = job.words;
        let known = job.start - LEAD * LANE;
        // A tile of heaps at a time, a byte per value and heap, the parts in
        // the outer loop: the second parts of consecutive heaps are
        // consecutive values, read in order, and each option is one plain
        // store (no load, no chain through memory between updates).
        let tile = (TILE_BYTES / V).clamp(1, LANE as usize);
        marks.clear();
        marks.resize(tile * V, 0);
        let (rows, _) = marks.as_chunks_mut::<V>();
        for (t, bits) in job.bits.chunks_mut(tile * words).enumerate() {
            let first = job.start + (t * tile) as u64;
            let rows = &mut rows[..bits.len() / words];
            for &k in &self.split {
                let rare = self.rare_heaps[job.lo..job.hi].iter().zip(&self.rare_values[job.lo..job.hi]);
                self.mark_parts(rows, first, k, rare.map(|(&r, &g)| (r, g)));
                self.mark_rounds(rows, first, k, known);
            }
            // Into bits, clearing the marks for the next tile.
            for (row, bits) in rows.iter_mut().zip(bits.chunks_exact_mut(words)) {
                let row = &mut row[..words * 64];
                for (word, marks) in bits.iter_mut().zip(row.chunks_exact(64)) {
                    *word = pack_bytes(marks);
                }
                row.fill(0);
            }
        }
    }

    /// Marks, in `rows` (those of heaps `first`, `first + 1`, …), every
    /// option that takes `k` and splits what is left into a part of `parts`
    /// (size, value, sizes in increasing order) and the rest, for the heaps
    /// where that split is allowed. Every rest must be in the window.
    #[inline]
    fn mark_parts<const V: usize>(
        &self,
        rows: &mut [[u8; V]],
        first: u64,
        k: u64,
        parts: impl Iterator<Item = (u64, u16)>,
    ) {
        let heaps = rows.len() as u64;
        // Parts whose splits every heap of the tile has, in one piece of
        // the window, waiting to be marked [`TOGETHER`] to a pass over the
        // rows (less of the loop's own work per option).
        let mut waiting = [(0usize, 0u16); TOGETHER];
        let mut count = 0;
        for (part, g) in parts {
            // Heap m = first + j leaves rest = m − k, split into part and
            // rest − part ≥ 1.
            let from = (part + k + 1).saturating_sub(first);
            if from >= heaps {
                break;
            }
            // The second part of heap `from`.
            let second = first + from - k - part;
            // Two equal heaps: not a move in Grundy's game.
            let equal = if self.unequal { (2 * part + k).checked_sub(first + from) } else { None };
            let skip = equal.filter(|&skip| skip < heaps - from);
            let at = (second % WINDOW) as usize;
            if from == 0 && skip.is_none() && at + rows.len() <= WINDOW as usize {
                waiting[count] = (at, g);
                count += 1;
                if count == TOGETHER {
                    mark_together(&self.window, rows, &waiting);
                    count = 0;
                }
                continue;
            }
            let rows = &mut rows[from as usize..];
            match skip {
                Some(skip) => {
                    let (before, after) = rows.split_at_mut(skip as usize);
                    mark_run(&self.window, before, second, g);
                    mark_run(&self.window, &mut after[1..], second + skip + 1, g);
                }
                None => mark_run(&self.window, rows, second, g),
            }
        }
        for &(at, g) in &waiting[..count] {
            mark_run(&self.window, rows, at as u64, g);
        }
    }

    /// Marks the options of the first [`ROUNDS`] rounds of the main
    /// thread's search (split move `k`) for the heaps of the tile whose
    /// chunk for the round lies where the helper can read both parts
    /// (knowing G(0) to G(`known` − 1)).
    fn mark_rounds<const V: usize>(&self, rows: &mut [[u8; V]], first: u64, k: u64, known: u64) {
        let heaps = rows.len() as u64;
        for round in 0..ROUNDS {
            // Runs of heaps whose chunk in this round is the same.
            let mut j = 0;
            while j < heaps {
                let base = self.round_base(first + j, k, round);
                let mut end = j + 1;
                while end < heaps && self.round_base(first + end, k, round) == base {
                    end += 1;
                }
                if let Some(base) = base.filter(|&base| covers(base, known)) {
                    // First parts are in the prefix (the search stops at
                    // `REACH`, below `PREFIX`), second parts in the window;
                    // a chunk's first parts are below half of every rest.
                    let parts = (base..base + CHUNK).map(|a| (a, self.get(a)));
                    self.mark_parts(&mut rows[j as usize..end as usize], first + j, k, parts);
                }
                j = end;
            }
        }
    }

    /// Where the first parts of the search's chunk of round `round` start
    /// for heap `m` and split move `k`, if it has that many rounds.
    #[inline]
    fn round_base(&self, m: u64, k: u64, round: u64) -> Option<u64> {
        let rest = m.checked_sub(k).filter(|&rest| rest >= 2)?;
        let count = chunk_count(rest, self.unequal);
        (round < count).then(|| 1 + chunk_in_round(round, count) * CHUNK)
    }
}

/// Marks option `g` ^ G(`second` + i) in row i of `rows`, reading the values
/// from the window.
#[inline]
fn mark_run<const V: usize>(window: &[u16; WINDOW as usize], rows: &mut [[u8; V]], second: u64, g: u16) {
    let begin = (second & (WINDOW - 1)) as usize;
    let (near, wrapped) = rows.split_at_mut(rows.len().min(WINDOW as usize - begin));
    for (row, &w) in near.iter_mut().zip(&window[begin..]) {
        row[usize::from(g ^ w) & (V - 1)] = 1;
    }
    for (row, &w) in wrapped.iter_mut().zip(window.iter()) {
        row[usize::from(g ^ w) & (V - 1)] = 1;
    }
}

/// Parts the helper marks in one pass over a tile's rows.
const TOGETHER: usize = 4;

/// Marks options `g` ^ G(n) for the values G(n) of the window from `at`
/// on, one per row of `rows`, for [`TOGETHER`] such (`at`, `g`) at once.
#[inline]
fn mark_together<const V: usize>(
    window: &[u16; WINDOW as usize],
    rows: &mut [[u8; V]],
    parts: &[(usize, u16); TOGETHER],
) {
    let len = rows.len();
    let [(a, f), (b, g), (c, h), (d, i)] = *parts;
    let seconds = window[a..a + len].iter().zip(&window[b..b + len]).zip(&window[c..c + len]).zip(&window[d..d + len]);
    for (row, (((&w, &x), &y), &z)) in rows.iter_mut().zip(seconds) {
        row[usize::from(f ^ w) & (V - 1)] = 1;
        row[usize::from(g ^ x) & (V - 1)] = 1;
        row[usize::from(h ^ y) & (V - 1)] = 1;
        row[usize::from(i ^ z) & (V - 1)] = 1;
    }
}

fn serve(mut knowledge: Knowledge, jobs: Receiver<Job>, done: Sender<Done>) {
    while let Ok(mut job) = jobs.recv() {
        knowledge.learn(&mut job);
        knowledge.work(&mut job);
        let answer = Done { start: job.start, lo: job.lo, hi: job.hi, words: job.words, bits: job.bits };
        if done.send(answer).is_err() {
            return;
        }
    }
}

/// The main thread's side: hands lanes over and takes the answers back.
pub(super) struct Helper {
    jobs: Option<Sender<Job>>,
    answers: Receiver<Done>,
    /// Values sent: G(0) to G(sent − 1) (the prefix and window of them).
    sent: u64,
    rare_sent: usize,
    /// The answer for the current lane, if the helper worked on it.
    current: Option<Done>,
    /// Answers for lanes to come.
    ready: VecDeque<Done>,
    /// The lanes handed over and not yet answered, in order.
    asked: VecDeque<u64>,
    spare: Vec<Vec<u64>>,
    max_split: u64,
}

impl Helper {
    /// Starts the helper thread in `scope`.
    pub(super) fn start<'scope>(
        scope: &'scope std::thread::Scope<'scope, '_>,
        split: &[u64],
        unequal: bool,
    ) -> Option<Helper> {
        let (jobs, job_queue) = channel::<Job>();
        let (answer, answers) = channel::<Done>();
        let knowledge = Knowledge {
            prefix: Vec::new(),
            window: vec![0; WINDOW as usize].into_boxed_slice().try_into().expect("WINDOW long"),
            rare_heaps: Vec::new(),
            rare_values: Vec::new(),
            split: split.to_vec(),
            unequal,
            marks: Vec::new(),
        };
        std::thread::Builder::new()
            .name("grundy-helper".to_owned())
            .spawn_scoped(scope, move || serve(knowledge, job_queue, answer))
            .ok()?;
        let max_split = split.iter().copied().max().unwrap_or(0);
        Some(Helper {
            jobs: Some(jobs),
            answers,
            sent: 0,
            rare_sent: 0,
            current: None,
            ready: VecDeque::new(),
            asked: VecDeque::new(),
            spare: Vec::new(),
            max_split,
        })
    }

    /// At the start of the lane `start..start + LANE` (every value below
    /// `start` known): takes the helper's answer for this lane if it is
    /// there and hands it a lane further on. `get` reads values,
    /// `rare_heaps` are the rare heaps so far with their values, `words`
    /// the bitset length for the values.
    pub(super) fn next_lane(
        &mut self,
        start: u64,
        get: &mut impl FnMut(u64) -> u16,
        rare_heaps: &[u64],
        rare_values: &[u16],
        words: usize,
    ) {
        if let Some(done) = self.current.take() {
            self.spare.push(done.bits);
        }
        // Answers come in the order asked. The one for this lane, if the
        // helper is on it, is worth a short wait (it is usually nearly
        // done); beyond `PATIENCE` this thread goes on alone.
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            let waiting = self.asked.front().is_some_and(|&first| first <= start);
            let answer = if waiting {
                self.answers.recv_timeout(deadline.saturating_duration_since(std::time::Instant::now())).map_err(|e| {
                    match e {
                        RecvTimeoutError::Timeout => TryRecvError::Empty,
                        RecvTimeoutError::Disconnected => TryRecvError::Disconnected,
                    }
                })
            } else {
                self.answers.try_recv()
            };
            match answer {
                Ok(done) => {
                    self.asked.pop_front();
                    self.ready.push_back(done);
                }
                Err(TryRecvError::Empty) => break,
                // The helper is gone: go on alone.
                Err(TryRecvError::Disconnected) => {
                    self.jobs = None;
                    break;
                }
            }
        }
        while let Some(done) = self.ready.pop_front() {
            if done.start < start {
                self.spare.push(done.bits);
            } else if done.start == start {
                self.current = Some(done);
                break;
            } else {
                self.ready.push_front(done);
                break;
            }
        }
        let Some(jobs) = &self.jobs else {
            return;
        };
        if self.asked.len() as u64 > LEAD {
            // Behind: let it catch up.
            return;
        }
        // The lane LEAD lanes on reads values below `start` only through
        // rare heaps more than LEAD + 1 lanes long, and no further back
        // than the window.
        let next = start + LEAD * LANE;
        let lo = rare_heaps.partition_point(|&r| r < (LEAD + 1) * LANE);
        let reach = WINDOW.saturating_sub(self.max_split + (LEAD + 3) * LANE);
        let hi = rare_heaps.partition_point(|&r| r <= reach);
        if hi < lo + WORTH {
            return;
        }
        let mut values = Vec::new();
        if self.sent < start {
            let mut from = self.sent;
            if from < PREFIX.min(start) {
                values.push((from, (from..PREFIX.min(start)).map(&mut *get).collect()));
                from = PREFIX.min(start);
            }
            from = from.max(start.saturating_sub(WINDOW));
            if from < start {
                values.push((from, (from..start).map(&mut *get).collect()));
            }
            self.sent = start;
        }
        let rare =
            rare_heaps[self.rare_sent..].iter().copied().zip(rare_values[self.rare_sent..].iter().copied()).collect();
        self.rare_sent = rare_heaps.len();
        let bits = self.spare.pop().unwrap_or_default();
        let job = Job { values, rare, start: next, lo, hi, words, bits };
        if jobs.send(job).is_ok() {
            self.asked.push_back(next);
        } else {
            self.jobs = None;
        }
    }

    /// The helper's options for heap `n` of the current lane, if it has them.
    #[inline]
    pub(super) fn far(&self, n: u64) -> Option<Far<'_>> {
        let done = self.current.as_ref().filter(|d| (d.start..d.start + LANE).contains(&n))?;
        let lane = (n - done.start) as usize;
        let bits = &done.bits[lane * done.words..(lane + 1) * done.words];
        Some(Far { bits, lo: done.lo, hi: done.hi, known: done.start - LEAD * LANE })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compute::sparse::last_part;

    /// A small deterministic generator (the test needs no statistics).
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, bound: u64) -> u64 {
            self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) % bound
        }
    }

    /// The options the helper must find for heap `m`, straight from their
    /// definition, one heap and one split at a time.
    fn expected(values: &[u16], rare: &[(u64, u16)], split: &[u64], unequal: bool, m: u64, known: u64) -> Vec<u16> {
        let mut options = std::collections::BTreeSet::new();
        for &k in split {
            if m < k + 2 {
                continue;
            }
            let rest = m - k;
            for &(r, g) in rare {
                if r < rest && !(unequal && 2 * r == rest) {
                    options.insert(g ^ values[(rest - r) as usize]);
                }
            }
            for round in 0..ROUNDS {
                let count = chunk_count(rest, unequal);
                if round >= count {
                    continue;
                }
                let base = 1 + chunk_in_round(round, count) * CHUNK;
                if covers(base, known) {
                    for a in base..base + CHUNK {
                        assert!(a <= last_part(rest, unequal));
                        options.insert(values[a as usize] ^ values[(rest - a) as usize]);
                    }
                }
            }
        }
        options.into_iter().collect()
    }

    /// The helper's bitsets for a lane hold exactly the options through the
    /// far rare heaps it is given and through the search's first rounds,
    /// for lanes early on (rare heaps beyond some heaps of the lane) and far
    /// on (reads that wrap around the window), in Grundy's game and in a
    /// game with two split moves and equal heaps allowed.
    #[test]
    fn a_lane_holds_the_options_through_far_rare_heaps_and_first_rounds() {
        let mut random = Lcg(13);
        for (split, unequal, words) in [(vec![0u64], true, 4usize), (vec![1, 2], false, 8)] {
            let limit = (words * 64) as u64;
            let max_split = split.iter().copied().max().unwrap_or(0);
            let reach = WINDOW - max_split - (LEAD + 3) * LANE;
            for start in [3 * LANE, 16 * LANE, 1_171 * LANE] {
                let known = start - LEAD * LANE;
                let values: Vec<u16> = (0..start + LANE).map(|_| random.below(limit) as u16).collect();
                // Far rare heaps, some around where the reads wrap.
                let mut heaps: Vec<u64> = (0..1_500).map(|_| (LEAD + 1) * LANE + random.below(reach)).collect();
                if let Some(wrap) = start.checked_sub(WINDOW) {
                    heaps.extend((0..64).map(|i| wrap + i * 7));
                }
                heaps.extend([1, 5, 700]);
                // Rare heaps are heaps known already, within reach.
                heaps.retain(|&r| r <= reach && r < known);
                heaps.sort_unstable();
                heaps.dedup();
                let rare: Vec<(u64, u16)> = heaps.iter().map(|&r| (r, values[r as usize])).collect();
                let mut knowledge = Knowledge {
                    prefix: Vec::new(),
                    window: vec![0; WINDOW as usize].into_boxed_slice().try_into().expect("WINDOW long"),
                    rare_heaps: Vec::new(),
                    rare_values: Vec::new(),
                    split: split.clone(),
                    unequal,
                    marks: Vec::new(),
                };
                let lo = heaps.partition_point(|&r| r < (LEAD + 1) * LANE);
                let hi = heaps.len();
                let mut job = Job {
                    values: vec![(0, values[..known as usize].to_vec())],
                    rare: rare.clone(),
                    start,
                    lo,
                    hi,
                    words,
                    bits: Vec::new(),
                };
                knowledge.learn(&mut job);
                knowledge.work(&mut job);
                for (lane, bits) in job.bits.chunks_exact(words).enumerate() {
                    let m = start + lane as u64;
                    let found: Vec<u16> =
                        (0..limit as u16).filter(|&v| bits[usize::from(v) / 64] >> (v % 64) & 1 != 0).collect();
                    let wanted = expected(&values, &rare[lo..hi], &split, unequal, m, known);
                    assert_eq!(found, wanted, "heap {m}, split {split:?}");
                }
            }
        }
    }

    /// Packing bytes into bits, against setting them one at a time.
    #[test]
    fn bytes_pack_into_bits() {
        let mut random = Lcg(7);
        for _ in 0..1_000 {
            let bytes: Vec<u8> = (0..64).map(|_| u8::from(random.below(3) == 0)).collect();
            let one_by_one = bytes.iter().enumerate().fold(0u64, |word, (j, &b)| word | (u64::from(b) << j));
            assert_eq!(pack_bytes(&bytes), one_by_one);
        }
        assert_eq!(pack_bytes(&[1; 64]), u64::MAX);
    }
}
