//! The direct method for games that split heaps: every option of every
//! heap into a bitset, then the mex. Quadratic time (cubic for hexadecimal
//! codes, whose moves may leave three heaps); every value in memory.

use super::{ComputeError, Recorder, checkpoint_at};
use crate::checkpoint::Prior;
use crate::sequence::Values;
use crate::{HeapGame, MexSet};

/// Options of heap `n` from the values below it, into `set`, for any heap
/// game. `union` holds G(1), …, G(n − len) when the last digit repeats with
/// bit 2 (take any larger number, leave one heap).
pub(crate) fn insert_options(game: &HeapGame, values: &[u32], n: u64, union: &MexSet, set: &mut MexSet) {
    let digits = game.digits();
    let len = digits.len() as u64;
    for (k, &d) in digits.iter().enumerate() {
        let k = k as u64;
        if k > n {
            break;
        }
        let rest = n - k;
        if d & 1 != 0 && rest == 0 {
            set.insert(0);
        }
        if d & 2 != 0 && rest > 0 && k > 0 {
            set.insert(values[rest as usize] as usize);
        }
        if d & 4 != 0 && rest >= 2 {
            let last = if game.unequal_at(k) { (rest - 1) / 2 } else { rest / 2 };
            for a in 1..=last {
                set.insert((values[a as usize] ^ values[(rest - a) as usize]) as usize);
            }
        }
        if d & 8 != 0 && rest >= 3 {
            // Three heaps a ≤ b ≤ c (a < b < c when they must differ).
            let unequal = u64::from(game.unequal_at(k));
            for a in 1..=rest / 3 {
                let ga = values[a as usize];
                let mut b = a + unequal;
                while b <= (rest - a - unequal) / 2 && rest - a - b >= b + unequal {
                    set.insert((ga ^ values[b as usize] ^ values[(rest - a - b) as usize]) as usize);
                    b += 1;
                }
            }
        }
    }
    let tail = game.tail();
    if tail & 1 != 0 && n >= len && n >= 1 {
        set.insert(0);
    }
    if tail & 2 != 0 && n > len {
        set.union_with(union);
    }
}

pub(super) fn compute(
    game: &HeapGame,
    upto: u64,
    prior: &Prior,
    rec: &mut Recorder<'_, '_>,
) -> Result<Values, ComputeError> {
    let values_needed = upto + 1;
    let bytes = values_needed.saturating_mul(4);
    let limit = rec.memory_limit();
    let out_of_memory =
        |values: u64, bytes: u64| ComputeError::OutOfMemory { game: game.to_string(), values, bytes, limit };
    // A run that stops once proved (up to N = 2^32 by default) usually stops
    // long before N: the values grow as needed, within the limit.
    let lazy = rec.stops_when_proved();
    if bytes > limit && !lazy {
        return Err(out_of_memory(values_needed, bytes));
    }
    let most = limit / 4;
    let len = game.digits().len() as u64;
    let mut values: Vec<u32> =
        Vec::with_capacity(if lazy { values_needed.min(1 << 16) } else { values_needed } as usize);
    let mut union = MexSet::new();
    let mut set = MexSet::new();
    let mut n = 0u64;
    while n <= upto {
        if n >= most {
            return Err(out_of_memory(values_needed, bytes));
        }
        if game.tail() & 2 != 0 && n > len {
            union.insert(values[(n - len) as usize] as usize);
        }
        let g = match prior.get(n) {
            Some(known) => known,
            None => {
                set.clear();
                insert_options(game, &values, n, &union, &mut set);
                set.mex() as u32
            }
        };
        values.push(g);
        rec.record(g);
        n += 1;
        // Values resumed from a checkpoint are taken as they come.
        if n < prior.len() {
            continue;
        }
        // Each value costs O(n) here: look at the flag often.
        if n.is_multiple_of(256) {
            rec.poll()?;
        }
        if checkpoint_at(n) && rec.checkpoint(|i| values[i as usize])? {
            break;
        }
    }
    rec.conclude(|i| values[i as usize])?;
    Ok(Values::U32(values))
}
