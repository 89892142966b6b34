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
//! Options are marked a byte per value (a plain store per option, with no
//! read-modify-write chain between neighbours), then packed into a bitset,
//! where the helper's options are added, `c` is the first common value
//! missing and the values wanted are the rare ones missing below it. The
//! search reads its first parts backwards from a reversed copy of the
//! first values, so that a chunk's options are the XOR of two runs read
//! forwards. While many values are wanted it stamps a chunk's options in a
//! table and looks each wanted value up; once at most [`FEW`] are left
//! (most of the search), it compares the whole chunk with each of them.
//! Both are loops without branches on the data (the compiler turns the
//! comparisons into vector instructions), as is dropping the values found
//! from the list.

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
const HARD: usize = 1;

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

/// The search's first parts are read backwards from a copy of their values
/// in reverse order, G(a) at `FIRSTS − a`, so that a chunk's first parts
/// line up with its second parts read forwards.
const FIRSTS: u64 = REACH + CHUNK;

/// The working state of the sparse method.
struct Sparse {
    mask: RareMask,
    /// Every value so far, hence every option, is below this power of two.
    limit: usize,
    /// The rare and the common values below `limit`, as bitsets (bit v of
    /// word v / 64).
    rare_words: Vec<u64>,
    common_words: Vec<u64>,
    /// Heaps n ≥ 1 with a rare value, in order, and their values.
    rare_heaps: Vec<u64>,
    rare_heap_values: Vec<u16>,
    /// `seen[v] != 0`: v is a known option of the current heap (cleared
    /// below `limit` for each heap).
    seen: Box<[u8; VALUES]>,
    /// The options known before the search, as a bitset.
    known: Vec<u64>,
    /// `found[v] == stamp`: v is an option of the chunk being looked at, or
    /// (in the full search) a value still wanted.
    found: Box<[u32; VALUES]>,
    stamp: u32,
    /// Chunks (split move, chunk number) that recently found hard values.
    hot: Vec<(usize, u64)>,
    /// The rare values still wanted for the current heap.
    wanted: Vec<u16>,
    /// Chunks per split move for the current heap (kept to avoid allocating).
    counts: Vec<u64>,
    /// G(a) at `FIRSTS − a`, for 1 ≤ a < `FIRSTS` and a computed, and the
    /// same as bytes (exact while every value is below 256).
    reversed: Vec<u16>,
    reversed_bytes: Vec<u8>,
}

/// A value as the search compares it: a byte while every value fits one
/// (twice as many to a vector register), else 16 bits.
trait Lane: Copy + Eq + std::ops::BitXor<Output = Self> {
    /// `v` (below 256 for bytes).
    fn of(v: u16) -> Self;
    /// The value, as an index into a table of values.
    fn index(self) -> usize;
}

impl Lane for u8 {
    #[inline]
    fn of(v: u16) -> u8 {
        v as u8
    }
    #[inline]
    fn index(self) -> usize {
        usize::from(self)
    }
}

impl Lane for u16 {
    #[inline]
    fn of(v: u16) -> u16 {
        v
    }
    #[inline]
    fn index(self) -> usize {
        usize::from(self)
    }
}

/// The bytes of `bytes` (64 of them, each 0 or 1) as the bits of a word,
/// the first the lowest.
#[inline]
pub(super) fn pack_bytes(bytes: &[u8]) -> u64 {
    bytes.chunks_exact(8).enumerate().fold(0, |word, (i, eight)| {
        let eight = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        // The product puts byte j (0 or 1) on bit 56 + j; every other pair
        // of a byte and a term of the constant lands on a bit of its own
        // below 56 or beyond 63, so nothing carries into bits 56 to 63.
        word | ((eight.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i))
    })
}

/// Keeps the values for which `keep` holds, in order, without a branch per
/// value (whether one is kept is not predictable).
#[inline]
fn keep_if(values: &mut Vec<u16>, mut keep: impl FnMut(u16) -> bool) {
    let mut kept = 0;
    for i in 0..values.len() {
        let v = values[i];
        values[kept] = v;
        kept += usize::from(keep(v));
    }
    values.truncate(kept);
}

impl Sparse {
    fn new(mask: RareMask, largest: u32) -> Sparse {
        let mut sparse = Sparse {
            mask,
            limit: 0,
            rare_words: Vec::new(),
            common_words: Vec::new(),
            rare_heaps: Vec::new(),
            rare_heap_values: Vec::new(),
            seen: vec![0; VALUES].into_boxed_slice().try_into().expect("VALUES long"),
            known: vec![0; VALUES / 64],
            found: vec![0; VALUES].into_boxed_slice().try_into().expect("VALUES long"),
            stamp: 0,
            hot: Vec::with_capacity(HOT),
            wanted: Vec::new(),
            counts: Vec::new(),
            reversed: vec![0; FIRSTS as usize],
            reversed_bytes: vec![0; FIRSTS as usize],
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
        self.rare_words = vec![0; limit / 64];
        self.common_words = vec![0; limit / 64];
        for v in 0..limit {
            let words = if self.mask.is_rare(v as u32) { &mut self.rare_words } else { &mut self.common_words };
            words[v / 64] |= 1 << (v % 64);
        }
    }

    /// Takes in G(n) = `g`, n ≥ 1.
    fn learn(&mut self, n: u64, g: u16) {
        if self.mask.is_rare(u32::from(g)) {
            self.rare_heaps.push(n);
            self.rare_heap_values.push(g);
        }
        if n < FIRSTS {
            self.reversed[(FIRSTS - n) as usize] = g;
            self.reversed_bytes[(FIRSTS - n) as usize] = g as u8;
        }
    }

    /// A fresh stamp for `found`.
    fn next_stamp(&mut self) -> u32 {
        if self.stamp == u32::MAX {
            self.found.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }

    /// G(n) for n ≥ [`DIRECT`].
    #[inline(never)]
    fn value<S: Store16>(&mut self, moves: &Moves, store: &mut S, n: u64, far: Option<Far<'_>>) -> u32 {
        let words = self.limit / 64;
        let seen = &mut self.seen;
        seen[..self.limit].fill(0);
        for &k in &moves.whole {
            if n == k {
                seen[0] = 1;
            }
        }
        for &k in &moves.take {
            if n > k && k > 0 {
                seen[usize::from(store.get(n - k))] = 1;
            }
        }
        // The helper found the options through rare heaps lo..hi.
        let (lo, hi) = far.map_or((0, 0), |far| (far.lo, far.hi));
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
            let heaps = &self.rare_heaps[..count];
            let values = &self.rare_heap_values[..count];
            let mut mark = |range: std::ops::Range<usize>| {
                for (&r, &g) in heaps[range.clone()].iter().zip(&values[range]) {
                    seen[usize::from(g ^ store.get(rest - r))] = 1;
                }
            };
            // The near rare heaps below `lo` and the farthest from `hi` on,
            // but for the one equal to the rest.
            let near = lo.min(count);
            let beyond = hi.min(count).max(near);
            for range in [0..near, beyond..count] {
                match skip.filter(|skip| range.contains(skip)) {
                    Some(skip) => {
                        mark(range.start..skip);
                        mark(skip + 1..range.end);
                    }
                    None => mark(range),
                }
            }
        }
        // Everything known so far, as a bitset.
        for (word, seen) in self.known[..words].iter_mut().zip(seen.chunks_exact(64)) {
            *word = pack_bytes(seen);
        }
        if let Some(far) = far {
            for (word, &bits) in self.known.iter_mut().zip(far.bits) {
                *word |= bits;
            }
        }
        // No option reaches `limit`, so when every common value below it is
        // an option the mex is at most `limit` itself, rare or common.
        let known = &self.known[..words];
        let c = match self.common_words.iter().zip(known).position(|(&common, &known)| common & !known != 0) {
            Some(w) => (w * 64) as u32 + (self.common_words[w] & !known[w]).trailing_zeros(),
            None => self.limit as u32,
        };
        // The rare values below c that are not options yet.
        self.wanted.clear();
        for (w, (&rare, &known)) in self.rare_words.iter().zip(known).enumerate() {
            let start = (w * 64) as u32;
            if start >= c {
                break;
            }
            let mut bits = rare & !known;
            if c - start < 64 {
                bits &= (1 << (c - start)) - 1;
            }
            while bits != 0 {
                self.wanted.push((start + bits.trailing_zeros()) as u16);
                bits &= bits - 1;
            }
        }
        if self.wanted.is_empty() {
            return c;
        }
        self.scan_chunks(moves, store, n, far);
        if !self.wanted.is_empty() {
            self.scan_all(moves, store, n);
        }
        // Those still wanted are not options: the least is the mex.
        self.wanted.iter().min().map_or(c, |&v| u32::from(v))
    }

    /// Looks for the wanted values among splits whose first part is at most
    /// [`REACH`], a chunk of consecutive first parts at a time: first the
    /// chunks that recently found the last values wanted (the hard ones
    /// tend to come from the same splits at nearby heaps), then every chunk
    /// in a scattered order, until none is wanted.
    #[inline(never)]
    fn scan_chunks<S: Store16>(&mut self, moves: &Moves, store: &mut S, n: u64, far: Option<Far<'_>>) {
        let mut counts = std::mem::take(&mut self.counts);
        counts.clear();
        counts.extend(moves.split.iter().map(|&k| if n >= k + 2 { chunk_count(n - k, moves.unequal) } else { 0 }));
        let mut hot = [(0usize, 0u64); HOT];
        let hot_len = self.hot.len();
        hot[..hot_len].copy_from_slice(&self.hot);
        for &(index, chunk) in &hot[..hot_len] {
            if chunk < counts[index] {
                self.scan_chunk(moves, store, n, index, chunk);
                if self.wanted.is_empty() {
                    break;
                }
            }
        }
        let most = if self.wanted.is_empty() { 0 } else { counts.iter().copied().max().unwrap_or(0) };
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
                self.scan_chunk(moves, store, n, index, chunk);
                if self.wanted.is_empty() {
                    break 'chunks;
                }
            }
        }
        self.counts = counts;
    }

    /// Looks at the splits of chunk `chunk` of split move `index`.
    #[inline]
    fn scan_chunk<S: Store16>(&mut self, moves: &Moves, store: &mut S, n: u64, index: usize, chunk: u64) {
        let rest = n - moves.split[index];
        // First parts base + CHUNK − 1 down to base (read forwards from the
        // reversed copy), second parts rest − base − (CHUNK − 1) up.
        let base = 1 + chunk * CHUNK;
        let firsts = (FIRSTS - base - (CHUNK - 1)) as usize;
        let seconds = rest - base - (CHUNK - 1);
        let before = self.wanted.len();
        let mut high = [0u8; CHUNK as usize];
        if S::MAX <= u32::from(u8::MAX) && store.copy_bytes_into(seconds, &mut high) {
            // Every value, hence every option and every value wanted, is a
            // byte.
            let low = &self.reversed_bytes[firsts..firsts + CHUNK as usize];
            let options: [u8; CHUNK as usize] = std::array::from_fn(|i| low[i] ^ high[i]);
            self.sift(&options);
        } else {
            let mut high = [0u16; CHUNK as usize];
            store.copy_into(seconds, &mut high);
            let low = &self.reversed[firsts..firsts + CHUNK as usize];
            let options: [u16; CHUNK as usize] = std::array::from_fn(|i| low[i] ^ high[i]);
            self.sift(&options);
        }
        self.remember(index, chunk, before, self.wanted.len());
    }

    /// Drops the wanted values that are among `options`: while many are
    /// wanted, by stamping the options in a table and looking each wanted
    /// value up; once at most [`FEW`] are, by comparing the options with
    /// each of them (loops without branches, in vector registers).
    #[inline]
    fn sift<T: Lane>(&mut self, options: &[T; CHUNK as usize]) {
        if self.wanted.len() > FEW {
            let stamp = self.next_stamp();
            for &option in options {
                self.found[option.index()] = stamp;
            }
            let found = &self.found;
            keep_if(&mut self.wanted, |v| found[usize::from(v)] != stamp);
        } else {
            keep_if(&mut self.wanted, |v| {
                let v = T::of(v);
                !options.iter().fold(false, |found, &option| found | (option == v))
            });
        }
    }

    /// Remembers chunk `chunk` of split move `index` when it found one of
    /// the last values (`before` wanted, `remaining` left): it is tried
    /// early next time.
    #[inline]
    fn remember(&mut self, index: usize, chunk: u64, before: usize, remaining: usize) {
        if remaining < before && remaining <= HARD && !self.hot.contains(&(index, chunk)) {
            if self.hot.len() == HOT {
                self.hot.pop();
            }
            self.hot.insert(0, (index, chunk));
        }
    }

    /// Looks through every split for the values still wanted; those not
    /// found stay wanted.
    #[inline(never)]
    fn scan_all<S: Store16>(&mut self, moves: &Moves, store: &mut S, n: u64) {
        let stamp = self.next_stamp();
        for &v in &self.wanted {
            self.found[usize::from(v)] = stamp;
        }
        let mut remaining = self.wanted.len();
        let limits: Vec<u64> =
            moves.split.iter().map(|&k| if n >= k + 2 { moves.last_part(n - k) } else { 0 }).collect();
        let longest = limits.iter().copied().max().unwrap_or(0);
        'splits: for a in 1..=longest {
            let ga = store.get(a);
            for (&k, &limit) in moves.split.iter().zip(&limits) {
                if a > limit {
                    continue;
                }
                let v = usize::from(ga ^ store.get(n - k - a));
                if self.found[v] == stamp {
                    self.found[v] = 0;
                    remaining -= 1;
                    if remaining == 0 {
                        break 'splits;
                    }
                }
            }
        }
        let found = &self.found;
        self.wanted.retain(|&v| found[usize::from(v)] == stamp);
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

impl State {
    /// Stores `g` as G(n), records it and moves on to the next n; false,
    /// storing nothing, when `g` is above what `store` holds.
    #[inline]
    fn keep<S: Store16>(&mut self, g: u32, store: &mut S, rec: &mut Recorder<'_, '_>) -> bool {
        if g > S::MAX {
            return false;
        }
        self.largest = self.largest.max(g);
        store.push(g as u16);
        rec.record(g);
        self.n += 1;
        true
    }
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
        if !st.keep(g, store, rec) {
            return Ok(Handover::Widen);
        }
        if checkpoint_at(st.n) {
            store.commit()?;
        }
    }
    if st.n >= st.prior.len() {
        st.prior = Prior::default();
    }
    while st.n < direct_end {
        let g = direct_value(&st.moves, store, st.n, &mut st.set);
        if !st.keep(g, store, rec) {
            return Ok(Handover::Widen);
        }
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
                sparse.learn(n, store.get(n));
            }
            st.sparse.insert(sparse)
        }
    };
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
            sparse.learn(n, small);
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
