//! The second core's share of the sparse method: for the heaps of a lane a
//! little ahead, every option through a split whose rare part is far away
//! (more than [`LEAD`] + 1 lanes), from values it already knows. The main
//! thread then looks only through the near rare heaps and searches for rare
//! values; both find the same options as one thread would, so the values
//! are the same. The main thread never waits: a lane whose answer is not
//! there when it starts (the helper was slow, or the machine busy) it
//! computes alone.

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};

/// Heaps per lane: the unit of work handed over.
pub(super) const LANE: u64 = 256;

/// How many lanes ahead the helper works.
const LEAD: u64 = 2;

/// The first values the helper keeps.
const PREFIX: u64 = 1 << 17;

/// The latest values it keeps (a power of two).
const WINDOW: u64 = 1 << 18;

/// The helper is worth its hand-overs with this many far rare heaps.
const WORTH: usize = 64;

/// The options found for one heap by the helper: a bitset of values, and
/// the rare heaps (by index, `lo..hi`) it went through.
#[derive(Debug, Clone, Copy)]
pub(super) struct Far<'a> {
    pub(super) bits: &'a [u64],
    pub(super) lo: usize,
    pub(super) hi: usize,
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
    window: Vec<u16>,
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
        for (lane, m) in (job.start..job.start + LANE).enumerate() {
            let bits = &mut job.bits[lane * words..(lane + 1) * words];
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
                for (&r, &g) in heaps.iter().zip(values) {
                    if self.unequal && 2 * r == rest {
                        continue;
                    }
                    let v = usize::from(g ^ self.get(rest - r));
                    bits[v / 64] |= 1 << (v % 64);
                }
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
    /// Jobs handed over and not yet answered.
    outstanding: u64,
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
            window: vec![0; WINDOW as usize],
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
            outstanding: 0,
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
        loop {
            match self.answers.try_recv() {
                Ok(done) => {
                    self.outstanding = self.outstanding.saturating_sub(1);
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
        if self.outstanding > LEAD {
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
            self.outstanding += 1;
        } else {
            self.jobs = None;
        }
    }

    /// The helper's options for heap `n` of the current lane, if it has them.
    #[inline]
    pub(super) fn far(&self, n: u64) -> Option<Far<'_>> {
        let done = self.current.as_ref().filter(|d| (d.start..d.start + LANE).contains(&n))?;
        let lane = (n - done.start) as usize;
        Some(Far { bits: &done.bits[lane * done.words..(lane + 1) * done.words], lo: done.lo, hi: done.hi })
    }
}
