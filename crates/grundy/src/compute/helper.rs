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

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError, channel};
use std::time::Duration;

use super::sparse::{CHUNK, chunk_count, chunk_in_round};

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
const ROUNDS: u64 = 3;

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

    fn work(&self, job: &mut Job) {
        let words = job.words;
        job.bits.clear();
        job.bits.resize(LANE as usize * words, 0);
        let known = job.start - LEAD * LANE;
        // Options are stamped (a plain store each: setting bits in place
        // would chain every update through memory to the last one that
        // touched the same word), then packed into the bitset.
        let mut marks = vec![0u16; words * 64];
        for (lane, m) in (job.start..job.start + LANE).enumerate() {
            let stamp = lane as u16 + 1;
            for &k in &self.split {
                if m < k + 2 {
                    continue;
                }
                let rest = m - k;
                let end = job.hi.min(self.rare_heaps.partition_point(|&r| r < rest));
                if job.lo >= end {
                    continue;
                }
                let heaps = &self.rare_heaps[job.lo..end];
                let values = &self.rare_values[job.lo..end];
                // Every rest − r is in the window (the rare heaps are at
                // most `reach`, see `Helper::next_lane`).
                for (&r, &g) in heaps.iter().zip(values) {
                    if self.unequal && 2 * r == rest {
                        continue;
                    }
                    marks[usize::from(g ^ self.window[((rest - r) & (WINDOW - 1)) as usize])] = stamp;
                }
            }
            // The first rounds of the search, where every value is known.
            for round in 0..ROUNDS {
                for &k in &self.split {
                    if m < k + 2 {
                        continue;
                    }
                    let rest = m - k;
                    let count = chunk_count(rest, self.unequal);
                    if round >= count {
                        continue;
                    }
                    let base = 1 + chunk_in_round(round, count) * CHUNK;
                    if covers(base, known) {
                        // First parts are in the prefix (the search stops
                        // at `REACH`, below `PREFIX`), second parts in the
                        // window.
                        for a in base..base + CHUNK {
                            let first = match self.prefix.get(a as usize) {
                                Some(&g) => g,
                                None => self.get(a),
                            };
                            marks[usize::from(first ^ self.window[((rest - a) & (WINDOW - 1)) as usize])] = stamp;
                        }
                    }
                }
            }
            let bits = &mut job.bits[lane * words..(lane + 1) * words];
            for (word, marks) in bits.iter_mut().zip(marks.chunks_exact(64)) {
                *word = marks.iter().enumerate().fold(0, |word, (j, &mark)| word | (u64::from(mark == stamp) << j));
            }
        }
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
