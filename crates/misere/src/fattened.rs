//! A finer base than the quotient: positions of heaps below `n` told apart
//! by more than their element, so that heaps the quotient of heaps below `n`
//! merges, but heap `n` may tell apart, stay apart.
//!
//! A heap's *type* is its element with the set of elements its moves reach.
//! A position's state is its element `q`, whether it has a move, and for
//! each type `t` it contains, the element of the position without one heap
//! of type `t`. States multiply (adding a heap moves the state
//! deterministically), so they form a finite commutative monoid onto which
//! positions map; the state determines the outcome, as the element does.

use bouton_grundy::{HeapGame, Meter};

use crate::MisereError;
use crate::extend::{Base, Stage};
use crate::fast_hash::{FastMap, StateSet};

/// The most states a fattened base may have.
pub(crate) const MAX_FAT: usize = 200_000;

/// The fattened base of `stage` (heaps up to `stage.upto()`), or `None`
/// when it has more than [`MAX_FAT`] states.
/// How much a fattened state keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detail {
    /// The element and how many heaps of each type, counted up to a cap.
    Counts(u32),
    /// The element and, per type present, the element without one heap of it.
    Full,
}

pub(crate) fn fattened(
    stage: &Stage,
    game: &HeapGame,
    meter: &mut Meter,
    detail: Detail,
) -> Result<Option<Base>, MisereError> {
    let n = stage.upto() + 1;
    let spend =
        |meter: &mut Meter, ops: u64| meter.spend(ops).map_err(|source| MisereError::OverBudget { heap: n, source });
    let mut types: Vec<(u32, Vec<u32>)> = Vec::new();
    let mut type_ids: FastMap<(u32, Vec<u32>), u32> = FastMap::default();
    let mut heap_gen = vec![u32::MAX];
    for h in 1..n {
        let mut reach: Vec<u32> = game.options(h).map(|o| stage.image(o.left, o.right)).collect();
        reach.sort_unstable();
        reach.dedup();
        spend(meter, reach.len() as u64 + 1)?;
        if reach.is_empty() {
            heap_gen.push(u32::MAX);
            continue;
        }
        let key = (stage.phi[h as usize], reach);
        let fresh = types.len() as u32;
        let id = *type_ids.entry(key.clone()).or_insert(fresh);
        if id == fresh {
            types.push(key);
        }
        heap_gen.push(id);
    }
    let gens = types.len();
    // State: [q, movable, (type, element without it)...] sorted by type.
    // States are numbered in the order found, which is the order they are
    // taken (breadth first): state `i`'s row of `step` is the `i`-th.
    let mut states = StateSet::new();
    states.insert(&[stage.identity, 0]);
    let mut step: Vec<u32> = Vec::new();
    let mut state: Vec<u32> = Vec::new();
    let mut next: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < states.len() {
        state.clear();
        state.extend_from_slice(states.get(i));
        i += 1;
        for (u, (x, _)) in types.iter().enumerate() {
            let q = state[0];
            next.clear();
            next.extend([stage.mul(q, *x), 1]);
            let mut placed = false;
            match detail {
                Detail::Counts(cap) => {
                    // One more heap of type u, counted up to the cap; the
                    // pairs stay sorted by type.
                    for pair in state[2..].chunks_exact(2) {
                        let v = pair[0] as usize;
                        if v == u {
                            next.extend([u as u32, (pair[1] + 1).min(cap)]);
                            placed = true;
                            continue;
                        }
                        if !placed && v > u {
                            next.extend([u as u32, 1]);
                            placed = true;
                        }
                        next.extend([pair[0], pair[1]]);
                    }
                    if !placed {
                        next.extend([u as u32, 1]);
                    }
                }
                Detail::Full => {
                    for pair in state[2..].chunks_exact(2) {
                        let v = pair[0] as usize;
                        if v == u {
                            continue;
                        }
                        if !placed && v > u {
                            next.extend([u as u32, q]);
                            placed = true;
                        }
                        next.extend([pair[0], stage.mul(pair[1], *x)]);
                    }
                    if !placed {
                        next.extend([u as u32, q]);
                    }
                }
            }
            let (id, new) = states.number(&next);
            if new && states.len() > MAX_FAT {
                return Ok(None);
            }
            step.push(id as u32);
        }
        spend(meter, gens as u64 * 4)?;
    }
    let p = (0..states.len()).map(|i| stage.p[states.get(i)[0] as usize]).collect();
    Ok(Some(Base { order: states.len(), gens, step, identity: 0, p, heap_gen }))
}
