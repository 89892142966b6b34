//! The sparse-space (rare/common) method for octal games that split heaps.
//!
//! Fix a mask; a value is *rare* when its masked bits have even parity. The
//! XOR of two values is common exactly when one is rare and one common. So
//! every common option of heap n comes from a split with one rare part (or
//! from a move that leaves one heap), and the rare parts are few: looping
//! over them finds every common option. That gives `c`, the least common
//! value that is not an option. G(n) ≤ c; it is less only if some rare value
//! below `c` is not an option. Those rare values are looked for among the
//! other splits, in chunks of consecutive first parts visited in a scattered
//! order (neighbouring splits are alike, distant ones independent), and
//! nearly always found within a few thousand splits. Only when one is really
//! missing (G(n) rare, which is itself rare) are all splits looked at.
//!
//! Options are marked in an array of stamps rather than a bitset: a plain
//! store per option, with no read-modify-write chain between neighbours.
//! The search looks each split's value up in a table of the values wanted
//! while there are many; once at most [`FEW`] are left (most of the
//! search), it compares a whole chunk with each of them, in loops without
//! branches that the compiler turns into vector instructions.

use super::helper::{Far, Helper, LANE};
use super::store::{MemStore8, MemStore16, SpillStore16, Store16};
use super::{ComputeError, Recorder, checkpoint_at};
use crate::checkpoint::Prior;
use crate::sequence::Values;
use crate::{HeapGame, MexSet, RareMask};

/// Heaps below this are computed directly, and the mask is chosen from
/// their values.
const DIRECT: u64 = 2048;

/// First parts in a chunk of the search.
pub(super) const CHUNK: u64 = 64;

/// The search visits chunks whose first parts are at most this.
const REACH: u64 = 1 << 16;

/// Chunk `i` of the search is chunk `i * STRIDE mod chunks`: a prime above
/// `REACH / CHUNK`, so every chunk is visited once.
const STRIDE: u64 = 1031;

/// Every value fits 16 bits; one stamp per value.
const VALUES: usize = 1 << 16;

/// At most this many values still wanted are compared with whole chunks
/// rather than looked up split by split.
const FEW: usize = 12;

/// Chunks remembered for finding the last few wanted values.
const HOT: usize = 8;

/// "The last few": a chunk that finds a value when at most this many are
/// left is remembered.
const HARD: u32 = 1;

pub(super) fn compute(
    game: &HeapGame,
    upto: u64,
    prior: Prior,
    rec: &mut Recorder<'_, '_>,
) -> Result<Values, ComputeError> {
    let values_needed = upto + 1;
    let limit = rec.memory_limit();
    let mut st =
        State { moves: Moves::new(game), set: MexSet::new(), largest: 0, n: 0, sparse: None, prior, adopted: 0 };
    // Values in bytes while they fit, in memory while the limit allows.
    if limit >= 1 << 16 {
        let room = values_needed.min(limit);
        // Bytes resumed from a checkpoint become the store as they are.
        let mut narrow = match std::mem::take(&mut st.prior) {
            Prior::U8(values) if (values.len() as u64) < room => {
                st.adopted = values.len() as u64;
                MemStore8::adopt(values, room)
            }
            other => {
                st.prior = other;
                MemStore8::with_room(room)
            }
        };
        match run(&mut st, upto, rec, &mut narrow)? {
            Handover::Done => return Ok(Values::U8(narrow.values)),
            Handover::Full => return spill(&mut st, upto, rec, narrow.values.iter().map(|&v| u16::from(v))),
            Handover::Widen => {}
        }
        if (st.n + 1).saturating_mul(2) <= limit {
            let mut wide = MemStore16::with_room(values_needed.min(limit / 2));
            wide.values.extend(narrow.values.iter().map(|&v| u16::from(v)));
            drop(narrow);
            return match run(&mut st, upto, rec, &mut wide)? {
                Handover::Done => Ok(Values::U16(wide.values)),
                Handover::Full => spill(&mut st, upto, rec, wide.values.into_iter()),
                Handover::Widen => Err(ComputeError::ValueTooLarge { n: st.n }),
            };
        }
        return spill(&mut st, upto, rec, narrow.values.iter().map(|&v| u16::from(v)));
    }
    spill(&mut st, upto, rec, std::iter::empty())
}

/// Goes on with the values streaming to a file, after `done`.
fn spill(
    st: &mut State,
    upto: u64,
    rec: &mut Recorder<'_, '_>,
    done: impl Iterator<Item = u16>,
) -> Result<Values, ComputeError> {
    let mut store = SpillStore16::new(rec.memory_limit(), rec.spill_dir())?;
    for v in done {
        store.push(v);
    }
    store.commit()?;
    match run(st, upto, rec, &mut store)? {
        Handover::Widen => return Err(ComputeError::ValueTooLarge { n: st.n }),
        Handover::Done | Handover::Full => {}
    }
    let (spill, len) = store.finish()?;
    Ok(Values::File { spill, len, width: 2 })
}

/// The moves of the game, by kind.
struct Moves {
    /// Remove k, leave nothing (heap of exactly k).
    whole: Vec<u64>,
    /// Remove k, leave one heap.
    take: Vec<u64>,
    /// Remove k, leave two heaps.
    split: Vec<u64>,
    unequal: bool,
}

impl Moves {
    fn new(game: &HeapGame) -> Moves {
        let with = |bit: u8| -> Vec<u64> {
            game.digits().iter().enumerate().filter(|&(_, d)| d & bit != 0).map(|(k, _)| k as u64).collect()
        };
        Moves { whole: with(1), take: with(2), split: with(4), unequal: game.unequal_splits() }
    }

    /// The largest first part of a split of `rest` tokens.
    #[inline]
    fn last_part(&self, rest: u64) -> u64 {
        last_part(rest, self.unequal)
    }
}

/// The largest first part of a split of `rest` tokens (`unequal`: the two
/// heaps left must differ).
#[inline]
pub(super) fn last_part(rest: u64, unequal: bool) -> u64 {
    if unequal { rest.saturating_sub(1) / 2 } else { rest / 2 }
}

/// How many chunks the search visits among the splits of `rest` tokens.
#[inline]
pub(super) fn chunk_count(rest: u64, unequal: bool) -> u64 {
    last_part(rest, unequal).min(REACH) / CHUNK
}

/// The chunk the search visits in round `round` (of `count` chunks); its
/// first parts start at `1 + chunk * CHUNK`.
#[inline]
pub(super) fn chunk_in_round(round: u64, count: u64) -> u64 {
    (round * STRIDE) % count
}

fn direct_value<S: Store16>(moves: &Moves, store: &mut S, n: u64, set: &mut MexSet) -> u32 {
    set.clear();
    for &k in &moves.whole {
        if n == k {
            set.insert(0);
        }
    }
    for &k in &moves.take {
        if n > k && k > 0 {
            set.insert(usize::from(store.get(n - k)));
        }
    }
    for &k in &moves.split {
        if n >= k + 2 {
            let rest = n - k;
            for a in 1..=moves.last_part(rest) {
                set.insert(usize::from(store.get(a) ^ store.get(rest - a)));
            }
        }
    }
    set.mex() as u32
}

/// The working state of the sparse method.
struct Sparse {
    mask: RareMask,
    /// Every value so far, hence every option, is below this power of two.
    limit: usize,
    /// The rare and the common values below `limit`, in order.
    rare_values: Vec<u16>,
    common_values: Vec<u16>,
    /// Heaps n ≥ 1 with a rare value, in order, and their values.
    rare_heaps: Vec<u64>,
    rare_heap_values: Vec<u16>,
    /// `seen[v] == tag`: v is a known option of the current heap.
    seen: Box<[u32; VALUES]>,
    /// `wanted[v] == tag`: v is a rare value still to be found.
    wanted: Box<[u32; VALUES]>,
    tag: u32,
    /// Chunks (split move, chunk number) that recently found hard values.
    hot: Vec<(usize, u64)>,
    /// The values still wanted, once at most [`FEW`] are (else empty).
    few: Vec<u16>,
    /// Chunks per split move for the current heap (kept to avoid allocating).
    counts: Vec<u64>,
    low: [u16; CHUNK as usize],
    high: [u16; CHUNK as usize],
}

impl Sparse {
    fn new(mask: RareMask, largest: u32) -> Sparse {
        let mut sparse = Sparse {
            mask,
            limit: 0,
            rare_values: Vec::new(),
            common_values: Vec::new(),
            rare_heaps: Vec::new(),
            rare_heap_values: Vec::new(),
            seen: vec![0; VALUES].into_boxed_slice().try_into().expect("VALUES long"),
            wanted: vec![0; VALUES].into_boxed_slice().try_into().expect("VALUES long"),
            tag: 0,
            hot: Vec::with_capacity(HOT),
            few: Vec::with_capacity(FEW),
            counts: Vec::new(),
            low: [0; CHUNK as usize],
            high: [0; CHUNK as usize],
        };
        sparse.grow(largest);
        sparse
    }

    /// Makes room for values up to `largest`.
    fn grow(&mut self, largest: u32) {
        let limit = (largest as usize + 1).next_power_of_two().clamp(64, VALUES);
        if limit <= self.limit {
            return;
        }
        self.limit = limit;
        let (rare, common): (Vec<u16>, Vec<u16>) =
            (0..limit as u32).map(|v| v as u16).partition(|&v| self.mask.is_rare(u32::from(v)));
        self.rare_values = rare;
        self.common_values = common;
    }

    fn push_rare_heap(&mut self, n: u64, g: u16) {
        self.rare_heaps.push(n);
        self.rare_heap_values.push(g);
    }

    /// A fresh stamp for a new heap.
    fn next_tag(&mut self) -> u32 {
        if self.tag == u32::MAX {
            self.seen.fill(0);
            self.wanted.fill(0);
            self.tag = 0;
        }
        self.tag += 1;
        self.tag
    }

    /// G(n) for n ≥ [`DIRECT`].
    #[inline(never)]
    fn value<S: Store16>(&mut self, moves: &Moves, store: &mut S, n: u64, far: Option<Far<'_>>) -> u32 {
        let tag = self.next_tag();
        for &k in &moves.whole {
            if n == k {
                self.seen[0] = tag;
            }
        }
        for &k in &moves.take {
            if n > k && k > 0 {
                self.seen[usize::from(store.get(n - k))] = tag;
            }
        }
        // The options the helper found, through rare heaps lo..hi.
        let (lo, hi) = match far {
            Some(far) => {
                for (w, &word) in far.bits.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        self.seen[w * 64 + bits.trailing_zeros() as usize] = tag;
                        bits &= bits - 1;
                    }
                }
                (far.lo, far.hi)
            }
            None => (0, 0),
        };
        // Every split with a rare part: all the common options.
        for &k in &moves.split {
            if n < k + 2 {
                continue;
            }
            let rest = n - k;
            // Usually every rare heap is smaller than the rest.
            let count = match self.rare_heaps.last() {
                Some(&r) if r < rest => self.rare_heaps.len(),
                _ => self.rare_heaps.partition_point(|&r| r < rest),
            };
            // Grundy's game forbids splitting into two equal heaps.
            let skip = if moves.unequal && rest.is_multiple_of(2) {
                self.rare_heaps[..count].binary_search(&(rest / 2)).ok()
            } else {
                None
            };
            let seen = &mut self.seen;
            let heaps = &self.rare_heaps[..count];
            let values = &self.rare_heap_values[..count];
            let mut mark = |range: std::ops::Range<usize>| {
                let start = range.start;
                for (i, (&r, &g)) in heaps[range.clone()].iter().zip(&values[range]).enumerate() {
                    if Some(start + i) != skip {
                        seen[usize::from(g ^ store.get(rest - r))] = tag;
                    }
                }
            };
            mark(0..lo.min(count));
            mark(hi.min(count).max(lo.min(count))..count);
        }
        // No option reaches `limit`, so when every common value below it is
        // an option the mex is at most `limit` itself, rare or common.
        let c = match self.common_values.iter().find(|&&v| self.seen[usize::from(v)] != tag) {
            Some(&v) => u32::from(v),
            None => self.limit as u32,
        };
        let mut remaining = 0;
        for &v in self.rare_values.iter().take_while(|&&v| u32::from(v) < c) {
            if self.seen[usize::from(v)] != tag {
                self.wanted[usize::from(v)] = tag;
                remaining += 1;
            }
        }
        if remaining == 0 {
            return c;
        }
        self.few.clear();
        remaining = self.scan_chunks(moves, store, n, far, remaining);
        if remaining > 0 {
            remaining = self.scan_all(moves, store, n, remaining);
        }
        if remaining == 0 {
            return c;
        }
        let v = self.rare_values.iter().find(|&&v| self.wanted[usize::from(v)] == tag).expect("a value is missing");
        u32::from(*v)
    }

    /// Looks for the wanted values among splits whose first part is at most
    /// [`REACH`], a chunk of consecutive first parts at a time: first the
    /// chunks that recently found the last values wanted (the hard ones
    /// tend to come from the same splits at nearby heaps), then every chunk
    /// in a scattered order. Returns how many are still wanted.
    #[inline(never)]
    fn scan_chunks<S: Store16>(
        &mut self,
        moves: &Moves,
        store: &mut S,
        n: u64,
        far: Option<Far<'_>>,
        mut remaining: u32,
    ) -> u32 {
        let mut counts = std::mem::take(&mut self.counts);
        counts.clear();
        counts.extend(moves.split.iter().map(|&k| if n >= k + 2 { chunk_count(n - k, moves.unequal) } else { 0 }));
        let mut hot = [(0usize, 0u64); HOT];
        let hot_len = self.hot.len();
        hot[..hot_len].copy_from_slice(&self.hot);
        for &(index, chunk) in &hot[..hot_len] {
            if chunk < counts[index] {
                remaining = self.scan_chunk(moves, store, n, index, chunk, remaining);
                if remaining == 0 {
                    break;
                }
            }
        }
        let most = if remaining == 0 { 0 } else { counts.iter().copied().max().unwrap_or(0) };
        'chunks: for i in 0..most {
            for (index, &count) in counts.iter().enumerate() {
                if i >= count {
                    continue;
                }
                let chunk = chunk_in_round(i, count);
                if far.is_some_and(|far| far.covered(i, 1 + chunk * CHUNK)) {
                    // The helper looked through it.
                    continue;
                }
                remaining = self.scan_chunk(moves, store, n, index, chunk, remaining);
                if remaining == 0 {
                    break 'chunks;
                }
            }
        }
        self.counts = counts;
        remaining
    }

    /// Looks at the splits of chunk `chunk` of split move `index`.
    #[inline]
    fn scan_chunk<S: Store16>(
        &mut self,
        moves: &Moves,
        store: &mut S,
        n: u64,
        index: usize,
        chunk: u64,
        mut remaining: u32,
    ) -> u32 {
        let rest = n - moves.split[index];
        // First parts base..base + CHUNK - 1, second parts rest - base down.
        let base = 1 + chunk * CHUNK;
        let before = remaining;
        if !self.few.is_empty() && S::MAX <= u32::from(u8::MAX) {
            // Every value, hence every option and every value wanted, is a
            // byte: compare bytes, twice as many at a time.
            let mut low = [0u8; CHUNK as usize];
            let mut high = [0u8; CHUNK as usize];
            if store.copy_bytes_into(base, &mut low) && store.copy_bytes_into(rest - base - (CHUNK - 1), &mut high) {
                let mut options = [0u8; CHUNK as usize];
                for (i, option) in options.iter_mut().enumerate() {
                    *option = low[i] ^ high[CHUNK as usize - 1 - i];
                }
                let mut i = 0;
                while i < self.few.len() {
                    let v = self.few[i] as u8;
                    if options.iter().fold(false, |found, &option| found | (option == v)) {
                        self.wanted[usize::from(self.few[i])] = 0;
                        self.few.swap_remove(i);
                        remaining -= 1;
                    } else {
                        i += 1;
                    }
                }
                self.remember(index, chunk, before, remaining);
                return remaining;
            }
        }
        store.copy_into(base, &mut self.low);
        store.copy_into(rest - base - (CHUNK - 1), &mut self.high);
        if self.few.is_empty() {
            // One look-up per split in the table of wanted values: a hit
            // (one per value found, so few) clears the value.
            let tag = self.tag;
            for i in 0..CHUNK as usize {
                let v = usize::from(self.low[i] ^ self.high[CHUNK as usize - 1 - i]);
                if self.wanted[v] == tag {
                    self.wanted[v] = 0;
                    remaining -= 1;
                }
            }
            if remaining > 0 && remaining as usize <= FEW {
                let wanted = &self.wanted;
                self.few.extend(self.rare_values.iter().filter(|&&v| wanted[usize::from(v)] == tag));
            }
        } else {
            // A few values left: the chunk's values side by side, compared
            // with each (loops without branches, in vector registers).
            let mut options = [0u16; CHUNK as usize];
            for (i, option) in options.iter_mut().enumerate() {
                *option = self.low[i] ^ self.high[CHUNK as usize - 1 - i];
            }
            let mut i = 0;
            while i < self.few.len() {
                let v = self.few[i];
                if options.iter().fold(false, |found, &option| found | (option == v)) {
                    self.wanted[usize::from(v)] = 0;
                    self.few.swap_remove(i);
                    remaining -= 1;
                } else {
                    i += 1;
                }
            }
        }
        self.remember(index, chunk, before, remaining);
        remaining
    }

    /// Remembers chunk `chunk` of split move `index` when it found one of
    /// the last values (`before` wanted, `remaining` left): it is tried
    /// early next time.
    #[inline]
    fn remember(&mut self, index: usize, chunk: u64, before: u32, remaining: u32) {
        if remaining < before && remaining <= HARD && !self.hot.contains(&(index, chunk)) {
            if self.hot.len() == HOT {
                self.hot.pop();
            }
            self.hot.insert(0, (index, chunk));
        }
    }

    /// Looks through every split; returns how many values are still wanted.
    #[inline(never)]
    fn scan_all<S: Store16>(&mut self, moves: &Moves, store: &mut S, n: u64, mut remaining: u32) -> u32 {
        let tag = self.tag;
        let limits: Vec<u64> =
            moves.split.iter().map(|&k| if n >= k + 2 { moves.last_part(n - k) } else { 0 }).collect();
        let longest = limits.iter().copied().max().unwrap_or(0);
        for a in 1..=longest {
            let ga = store.get(a);
            for (&k, &limit) in moves.split.iter().zip(&limits) {
                if a > limit {
                    continue;
                }
                let v = usize::from(ga ^ store.get(n - k - a));
                if self.wanted[v] == tag {
                    self.wanted[v] = 0;
                    remaining -= 1;
                    if remaining == 0 {
                        return 0;
                    }
                }
            }
        }
        remaining
    }
}

/// Where the computation is, across changes of store.
struct State {
    moves: Moves,
    set: MexSet,
    largest: u32,
    /// The next n to compute.
    n: u64,
    sparse: Option<Sparse>,
    /// Values known already (resuming from a checkpoint).
    prior: Prior,
    /// Values resumed from a checkpoint that were in the store from the
    /// start: G(0) to G(adopted − 1).
    adopted: u64,
}

/// Why [`run`] handed back before the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Handover {
    /// Every value is computed.
    Done,
    /// The next value does not fit the store.
    Widen,
    /// The store holds as much as the memory limit allows.
    Full,
}

fn run<S: Store16>(
    st: &mut State,
    upto: u64,
    rec: &mut Recorder<'_, '_>,
    store: &mut S,
) -> Result<Handover, ComputeError> {
    let direct_end = (upto + 1).min(DIRECT);
    while st.n < st.adopted {
        let g = u32::from(store.get(st.n));
        st.largest = st.largest.max(g);
        rec.record(g);
        st.n += 1;
    }
    while st.n < st.prior.len().min(upto + 1) {
        let g = st.prior.get(st.n).unwrap_or(0);
        if g > S::MAX {
            return Ok(Handover::Widen);
        }
        st.largest = st.largest.max(g);
        store.push(g as u16);
        rec.record(g);
        st.n += 1;
        if checkpoint_at(st.n) {
            store.commit()?;
        }
    }
    if st.n >= st.prior.len() {
        st.prior = Prior::default();
    }
    while st.n < direct_end {
        let g = direct_value(&st.moves, store, st.n, &mut st.set);
        if g > S::MAX {
            return Ok(Handover::Widen);
        }
        st.largest = st.largest.max(g);
        store.push(g as u16);
        rec.record(g);
        st.n += 1;
    }
    store.commit()?;
    if st.n > upto {
        rec.conclude(|i| u32::from(store.get(i)))?;
        return store.take_error().map_or(Ok(Handover::Done), |e| Err(e.into()));
    }
    let moves = &st.moves;
    let sparse = match &mut st.sparse {
        Some(sparse) => sparse,
        None => {
            let mask = match rec.requested_mask() {
                Some(mask) => mask,
                None => {
                    let recent = (DIRECT / 2..DIRECT).map(|i| u32::from(store.get(i))).collect::<Vec<_>>();
                    RareMask::choose(recent).unwrap_or(RareMask::GRUNDY)
                }
            };
            rec.set_mask(mask);
            let mut sparse = Sparse::new(mask, st.largest);
            for n in 1..st.n {
                let g = store.get(n);
                if mask.is_rare(u32::from(g)) {
                    sparse.push_rare_heap(n, g);
                }
            }
            st.sparse.insert(sparse)
        }
    };
    let mask = sparse.mask;
    let threads = rec.threads();
    let ended = std::thread::scope(|scope| -> Result<Option<Handover>, ComputeError> {
        let mut helper = if threads > 1 { Helper::start(scope, &moves.split, moves.unequal) } else { None };
        while st.n <= upto {
            let n = st.n;
            if let Some(helper) = &mut helper
                && n.is_multiple_of(LANE)
            {
                let words = sparse.limit / 64;
                helper.next_lane(n, &mut |i| store.get(i), &sparse.rare_heaps, &sparse.rare_heap_values, words);
            }
            let far = helper.as_ref().and_then(|h| h.far(n));
            let g = sparse.value(moves, store, n, far);
            if g > S::MAX {
                return Ok(Some(Handover::Widen));
            }
            let small = g as u16;
            if g > st.largest {
                st.largest = g;
                sparse.grow(g);
            }
            if mask.is_rare(g) {
                sparse.push_rare_heap(n, small);
            }
            store.push(small);
            rec.record(g);
            st.n += 1;
            let n = st.n;
            // A value can cost O(n) here too: look at the flag often.
            if n.is_multiple_of(256) {
                rec.poll_often()?;
            }
            if checkpoint_at(n) {
                store.commit()?;
                if let Some(e) = store.take_error() {
                    return Err(e.into());
                }
                if rec.checkpoint(|i| u32::from(store.get(i)))? {
                    break;
                }
                if n <= upto && store.is_full(upto + 1) {
                    return Ok(Some(Handover::Full));
                }
            }
        }
        Ok(None)
    })?;
    if let Some(handover) = ended {
        return Ok(handover);
    }
    store.commit()?;
    rec.conclude(|i| u32::from(store.get(i)))?;
    store.take_error().map_or(Ok(Handover::Done), |e| Err(e.into()))
}
