//! Games that never split a heap: G(n) depends on the `t` values before it
//! (and, for a repeated last digit, on every earlier value through their
//! running union). Linear time, memory for a window only.

use super::store::Sink32;
use super::{ComputeError, Recorder, checkpoint_at, sink_values};
use crate::checkpoint::Prior;
use crate::sequence::Values;
use crate::{HeapGame, MexSet};

pub(super) fn compute(
    game: &HeapGame,
    upto: u64,
    prior: &Prior,
    rec: &mut Recorder<'_, '_>,
) -> Result<Values, ComputeError> {
    let digits = game.digits();
    let len = digits.len() as u64;
    let whole: Vec<u64> = (1..len).filter(|&k| digits[k as usize] & 1 != 0).collect();
    let take: Vec<u64> = (1..len).filter(|&k| digits[k as usize] & 2 != 0).collect();
    let tail_whole = game.tail() & 1 != 0;
    let tail_take = game.tail() & 2 != 0;

    // The last values, for the moves; the periodicity search reads them
    // all back from the sink.
    let ring_len = (len + 2).next_power_of_two();
    let mask = ring_len - 1;
    let mut ring = vec![0u32; ring_len as usize];
    let mut sink = Sink32::new(upto + 1, rec.memory_limit(), rec.spill_dir())?;

    // The values G(1), …, G(n - len): every "take k >= len, leave one heap".
    let mut union = NextFree::default();
    let mut small = MexSet::with_capacity(len as usize + 2);
    let mut listed: Vec<u32> = Vec::with_capacity(len as usize + 1);

    let mut n = 0u64;
    while n <= upto {
        let at = |i: u64| ring[(i & mask) as usize];
        let g = if let Some(known) = prior.get(n) {
            if tail_take && n > len {
                union.insert(at(n - len) as usize);
            }
            known
        } else if tail_take {
            if n > len {
                union.insert(at(n - len) as usize);
            }
            listed.clear();
            listed.extend(whole.iter().filter(|&&k| n == k).map(|_| 0));
            if tail_whole && n >= len && n >= 1 {
                listed.push(0);
            }
            listed.extend(take.iter().filter(|&&k| n > k).map(|&k| at(n - k)));
            // The least value in neither the union nor the few listed.
            let mut v = union.next_free(0);
            while listed.contains(&(v as u32)) {
                v = union.next_free(v + 1);
            }
            v as u32
        } else {
            small.clear();
            for &k in &whole {
                if n == k {
                    small.insert(0);
                }
            }
            if tail_whole && n >= len && n >= 1 {
                small.insert(0);
            }
            for &k in &take {
                if n > k {
                    small.insert(at(n - k) as usize);
                }
            }
            small.mex() as u32
        };
        ring[(n & mask) as usize] = g;
        sink.push(g)?;
        rec.record(g);
        n += 1;
        if checkpoint_at(n) && n >= prior.len() {
            let mut reader = sink.reader()?;
            let proved = rec.checkpoint(|i| reader.get(i))?;
            if let Some(e) = reader.take_error() {
                return Err(e.into());
            }
            if proved {
                break;
            }
        }
    }
    let mut reader = sink.reader()?;
    rec.conclude(|i| reader.get(i))?;
    if let Some(e) = reader.take_error() {
        return Err(e.into());
    }
    sink_values(sink)
}

/// A set of values answering "the least value ≥ x not in the set" in
/// near-constant time: each value points past itself once inserted, and
/// lookups follow the pointers, halving the paths as they go.
#[derive(Debug, Default)]
struct NextFree {
    next: Vec<usize>,
}

impl NextFree {
    fn insert(&mut self, v: usize) {
        if self.next.len() <= v + 1 {
            let from = self.next.len();
            self.next.extend(from..=v + 1);
        }
        self.next[v] = v + 1;
    }

    fn next_free(&mut self, mut x: usize) -> usize {
        while x < self.next.len() && self.next[x] != x {
            let skip = self.next[x];
            if skip < self.next.len() {
                self.next[x] = self.next[skip];
            }
            x = skip;
        }
        x
    }
}
