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

use std::collections::{HashMap, VecDeque};

use bouton_grundy::{HeapGame, Meter};

use crate::MisereError;
use crate::extend::{Base, Stage};

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
    let mut type_ids: HashMap<(u32, Vec<u32>), u32> = HashMap::new();
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
    let start = vec![stage.identity, 0];
    let mut ids: HashMap<Vec<u32>, u32> = HashMap::from([(start.clone(), 0)]);
    let mut states = vec![start];
    let mut step: Vec<u32> = Vec::new();
    let mut queue = VecDeque::from([0u32]);
    let mut order_seen = Vec::new();
    while let Some(i) = queue.pop_front() {
        order_seen.push(i);
        let state = states[i as usize].clone();
        let mut row = Vec::with_capacity(gens);
        for (u, (x, _)) in types.iter().enumerate() {
            let q = state[0];
            let mut next = vec![stage.mul(q, *x), 1];
            let mut placed = false;
            for pair in state[2..].chunks(2) {
                let v = pair[0] as usize;
                if v == u {
                    continue;
                }
                if let Detail::Counts(_) = detail {
                    if !placed && v > u {
                        next.extend([u as u32, 1]);
                        placed = true;
                    }
                    next.extend([v as u32, pair[1]]);
                    continue;
                }
                if !placed && v > u {
                    next.extend([u as u32, q]);
                    placed = true;
                }
                next.extend([v as u32, stage.mul(pair[1], *x)]);
            }
            if let Detail::Counts(cap) = detail {
                match state[2..].chunks(2).find(|pair| pair[0] as usize == u) {
                    Some(pair) => {
                        // Count one more heap of type u, up to the cap.
                        let at = next[2..].chunks(2).position(|p| p[0] as usize == u);
                        let count = (pair[1] + 1).min(cap);
                        match at {
                            Some(i) => next[2 + 2 * i + 1] = count,
                            None => {
                                let i =
                                    next[2..].chunks(2).position(|p| p[0] as usize > u).unwrap_or((next.len() - 2) / 2);
                                next.splice(2 + 2 * i..2 + 2 * i, [u as u32, count]);
                            }
                        }
                    }
                    None if !placed => next.extend([u as u32, 1]),
                    None => {}
                }
            } else if !placed {
                next.extend([u as u32, q]);
            }
            let fresh = states.len() as u32;
            let id = *ids.entry(next.clone()).or_insert(fresh);
            if id == fresh {
                if states.len() >= MAX_FAT {
                    return Ok(None);
                }
                states.push(next);
                queue.push_back(id);
            }
            row.push(id);
        }
        spend(meter, gens as u64 * 4)?;
        // Rows are stored by state number: states are numbered in the order
        // they are found, which is the order they leave the queue.
        step.extend(row);
    }
    debug_assert!(order_seen.iter().enumerate().all(|(k, &i)| k as u32 == i));
    let p = states.iter().map(|s| stage.p[s[0] as usize]).collect();
    Ok(Some(Base { order: states.len(), gens, step, identity: 0, p, heap_gen }))
}
