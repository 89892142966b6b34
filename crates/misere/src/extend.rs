//! One step of the engine: from the quotient of heaps below `n` to a
//! candidate for heaps up to `n`.
//!
//! The candidate assumes that the outcome of a position `G + k·H_n` (`G` of
//! smaller heaps) depends only on `G`'s element `q` and on `k`. It computes
//! that outcome `F(q, k)` by the misère rule on a least representative of
//! `q` (fewest tokens, then most heaps): every option of it has a smaller
//! representative or one heap `n` fewer, so the recursion is well founded.
//! The powers of the new element repeat (`x^a = x^(a+p)`) where the columns
//! `F(·, k)` do; the candidate is then the monoid `Q × ⟨x | x^a = x^(a+p)⟩`
//! reduced by its indistinguishability congruence (`u ~ v` when `uz` and
//! `vz` are both in P or both out for every `z`), a reduced bipartite monoid.
//! Nothing here is trusted: [`crate::verify`] proves or rejects it.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use bouton_grundy::{HeapGame, Meter};

use crate::MisereError;
use crate::fast_hash::StateSet;

/// How many powers of a new heap's element are computed first to find where
/// they repeat (then twice as many, up to [`MAX_POWERS`], while they have
/// not: 0.74 needs more than 24 at heap 15).
const POWERS: usize = 24;

/// The most powers computed.
const MAX_POWERS: usize = 384;

/// A bipartite monoid and a pretending function: the engine's working form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stage {
    /// The number of elements.
    pub order: usize,
    /// `table[x * order + y]` is `xy`.
    pub table: Vec<u32>,
    /// The identity.
    pub identity: u32,
    /// `p[x]`: whether `x` is in the P-portion.
    pub p: Vec<bool>,
    /// `phi[h]`: heap `h`'s element, for `h = 0..=n` (`phi[0]` the identity).
    pub phi: Vec<u32>,
}

impl Stage {
    /// The quotient of heaps up to 0: the empty position alone, an N-position.
    pub fn empty() -> Stage {
        Stage { order: 1, table: vec![0], identity: 0, p: vec![false], phi: vec![0] }
    }

    /// `xy`.
    pub fn mul(&self, x: u32, y: u32) -> u32 {
        self.table[x as usize * self.order + y as usize]
    }

    /// The element of the position a move leaves (`left`, `right`, 0 for none).
    pub fn image(&self, left: u64, right: u64) -> u32 {
        let at = |h: u64| usize::try_from(h).ok().and_then(|h| self.phi.get(h)).copied().unwrap_or(self.identity);
        self.mul(at(left), at(right))
    }

    /// The largest heap included.
    pub fn upto(&self) -> u64 {
        self.phi.len() as u64 - 1
    }
}

fn spend(meter: &mut Meter, heap: u64, operations: u64) -> Result<(), MisereError> {
    meter.spend(operations).map_err(|source| MisereError::OverBudget { heap, source })
}

/// The elements of the options of heap `n` under `stage` (sorted, distinct).
pub(crate) fn option_images(stage: &Stage, game: &HeapGame, n: u64) -> Vec<u32> {
    let mut images: Vec<u32> = game.options(n).map(|o| stage.image(o.left, o.right)).collect();
    images.sort_unstable();
    images.dedup();
    images
}

/// What a candidate is built on: a finite commutative monoid given by the
/// action of its generators, each heap below `n` a generator (or the
/// identity), with a P-portion right for every position of those heaps.
/// The plainest base is the quotient of heaps below `n` itself; a finer one
/// keeps apart heaps the quotient merges (see `fattened`).
#[derive(Debug, Clone)]
pub(crate) struct Base {
    /// The number of elements.
    pub order: usize,
    /// The number of generators.
    pub gens: usize,
    /// `step[s * gens + g]` is `s` times generator `g`.
    pub step: Vec<u32>,
    /// The identity.
    pub identity: u32,
    /// Whether an element is in P.
    pub p: Vec<bool>,
    /// `heap_gen[h]`: heap `h`'s generator, `u32::MAX` for the identity.
    pub heap_gen: Vec<u32>,
}

impl Base {
    /// `s` times heap `h` (heap 0 is nothing).
    pub fn times_heap(&self, s: u32, h: u64) -> u32 {
        match usize::try_from(h).ok().and_then(|h| self.heap_gen.get(h)) {
            Some(&g) if g != u32::MAX => self.step[s as usize * self.gens + g as usize],
            _ => s,
        }
    }

    /// The quotient of `stage` as a base: one generator per heap element.
    pub fn from_stage(stage: &Stage) -> Base {
        let mut elements: Vec<u32> = stage.phi[1..].to_vec();
        elements.sort_unstable();
        elements.dedup();
        let gens = elements.len();
        let mut step = Vec::with_capacity(stage.order * gens);
        for s in 0..stage.order as u32 {
            step.extend(elements.iter().map(|&g| stage.mul(s, g)));
        }
        let heap_gen = stage
            .phi
            .iter()
            .enumerate()
            .map(|(h, q)| if h == 0 { u32::MAX } else { elements.binary_search(q).map_or(u32::MAX, |i| i as u32) })
            .collect();
        Base { order: stage.order, gens, step, identity: stage.identity, p: stage.p.clone(), heap_gen }
    }
}

/// The candidate quotient of heaps up to `n = stage.upto() + 1`, built on
/// `base` (a base for the heaps below `n`).
pub(crate) fn extend(
    stage: &Stage,
    base: &Base,
    game: &HeapGame,
    meter: &mut Meter,
    max_order: usize,
) -> Result<Stage, MisereError> {
    let n = stage.upto() + 1;
    let mut new_options: Vec<(u64, u64)> = game.options(n).map(|o| (o.left, o.right)).collect();
    spend(meter, n, new_options.len() as u64 + 1)?;
    if new_options.is_empty() {
        // A heap with no move is the empty game.
        let mut next = stage.clone();
        next.phi.push(stage.identity);
        return Ok(next);
    }
    // Options that act alike on the base count once.
    let gen_of = |h: u64| usize::try_from(h).ok().and_then(|h| base.heap_gen.get(h)).copied().unwrap_or(u32::MAX);
    new_options.sort_by_key(|&(l, r)| {
        let (a, b) = (gen_of(l), gen_of(r));
        (a.min(b), a.max(b))
    });
    new_options.dedup_by_key(|&mut (l, r)| {
        let (a, b) = (gen_of(l), gen_of(r));
        (a.min(b), a.max(b))
    });
    let m = base.order;
    let reps = representatives(base, meter, n)?;
    // The elements by their representative's weight, least first.
    let mut by_weight: Vec<u32> = (0..m as u32).collect();
    by_weight.sort_by_key(|&q| reps[q as usize].0);
    // The elements the moves in a representative's heaps reach.
    let mut lower: Vec<Vec<u32>> = vec![Vec::new(); m];
    for q in 0..m {
        let heaps = &reps[q].1;
        let mut reached = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            if i > 0 && heaps[i - 1] == h {
                continue;
            }
            let rest = heaps
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .fold(base.identity, |acc, (_, &g)| base.times_heap(acc, g));
            for o in game.options(h) {
                reached.push(base.times_heap(base.times_heap(rest, o.left), o.right));
            }
            spend(meter, n, h + 1)?;
        }
        reached.sort_unstable();
        reached.dedup();
        lower[q] = reached;
    }
    // The elements a move in heap n reaches from q + heap n (with one heap
    // n fewer), the same for every k.
    let mut by_new: Vec<u32> = Vec::with_capacity(m * new_options.len());
    for q in 0..m as u32 {
        by_new.extend(new_options.iter().map(|&(l, r)| base.times_heap(base.times_heap(q, l), r)));
    }
    let width = new_options.len();
    // F[k][q]: whether q + k heaps of n is a P-position.
    let mut f: Vec<Vec<bool>> = vec![base.p.clone()];
    let mut powers = POWERS;
    let (a, p) = loop {
        for k in f.len()..=powers {
            let mut column = vec![false; m];
            let previous = &f[k - 1];
            for &q in &by_weight {
                let q = q as usize;
                column[q] = !lower[q].iter().any(|&r| column[r as usize])
                    && !by_new[q * width..(q + 1) * width].iter().any(|&r| previous[r as usize]);
            }
            spend(meter, n, (m * (new_options.len() + 4)) as u64)?;
            f.push(column);
        }
        if let Some(found) = repeat(&f) {
            break found;
        }
        if powers >= MAX_POWERS {
            return Err(MisereError::Unverified {
                heap: n,
                why: format!("the powers of heap {n}'s element do not repeat within {powers}"),
            });
        }
        powers *= 2;
    };
    let s = a + p;
    let size = m * s;
    if size > max_order.saturating_mul(256).max(1 << 20) {
        return Err(MisereError::TooLarge { limit: max_order, heap: n });
    }
    let exp = |k: usize| if k < s { k } else { a + (k - a) % p };
    // Generators of base × ⟨x⟩: the base's and x (the last).
    let act = |e: usize, g: usize| -> usize {
        let (k, q) = (e / m, e % m);
        if g == base.gens { exp(k + 1) * m + q } else { k * m + base.step[q * base.gens + g] as usize }
    };
    let mut class: Vec<u32> = (0..size).map(|e| u32::from(f[e / m][e % m])).collect();
    let mut count = 2;
    let mut key = Vec::with_capacity(base.gens + 2);
    loop {
        // Classes are numbered in the order of their first element.
        let mut ids = StateSet::with_capacity(count.max(16) * 2, (count.max(16) * 2) * (base.gens + 2));
        let mut next = vec![0u32; size];
        // Element e = k·m + q, in order; its images under the generators
        // (`act`, written out without the divisions).
        for k in 0..s {
            let (here, up) = (k * m, exp(k + 1) * m);
            for q in 0..m {
                let e = here + q;
                key.clear();
                key.push(class[e]);
                key.extend(base.step[q * base.gens..(q + 1) * base.gens].iter().map(|&r| class[here + r as usize]));
                key.push(class[up + q]);
                debug_assert!(key[1..].iter().enumerate().all(|(g, &c)| c == class[act(e, g)]));
                next[e] = ids.number(&key).0 as u32;
            }
        }
        spend(meter, n, (size * (base.gens + 1)) as u64)?;
        let new_count = ids.len();
        class = next;
        if new_count == count {
            break;
        }
        count = new_count;
    }
    if count > max_order {
        return Err(MisereError::TooLarge { limit: max_order, heap: n });
    }
    let mut rep = vec![usize::MAX; count];
    for (e, &c) in class.iter().enumerate() {
        if rep[c as usize] == usize::MAX {
            rep[c as usize] = e;
        }
    }
    // Each class's representative as a word: heaps, then powers of x.
    let words: Vec<(Vec<u64>, usize)> = rep.iter().map(|&e| (reps[e % m].1.clone(), e / m)).collect();
    let mut table = vec![0u32; count * count];
    for x in 0..count {
        for (y, (heaps, k)) in words.iter().enumerate() {
            let (kx, qx) = (rep[x] / m, rep[x] % m);
            let q = heaps.iter().fold(qx as u32, |acc, &h| base.times_heap(acc, h));
            table[x * count + y] = class[exp(kx + k) * m + q as usize];
        }
        spend(meter, n, (count * 4) as u64)?;
    }
    let p_new: Vec<bool> = rep.iter().map(|&e| f[e / m][e % m]).collect();
    let mut phi: Vec<u32> = (0..n).map(|h| class[base.times_heap(base.identity, h) as usize]).collect();
    phi.push(class[exp(1) * m + base.identity as usize]);
    Ok(Stage { order: count, table, identity: class[base.identity as usize], p: p_new, phi })
}

/// The least `(a, p)` (by `a + p`, then `a`) with column `a + j` equal to
/// column `a + p + j` for every `j` computed, with at least half the
/// columns compared.
fn repeat(f: &[Vec<bool>]) -> Option<(usize, usize)> {
    let last = f.len() - 1;
    (1..=last / 2).find_map(|s| {
        (0..s).find_map(|a| {
            let p = s - a;
            (0..=last - s).all(|j| f[a + j] == f[a + p + j]).then_some((a, p))
        })
    })
}

/// For each element, a least representative: (weight, its heaps, sorted),
/// weight = (tokens, fewer heaps last).
#[allow(clippy::type_complexity)]
fn representatives(
    base: &Base,
    meter: &mut Meter,
    n: u64,
) -> Result<Vec<((u64, Reverse<u64>), Vec<u64>)>, MisereError> {
    let m = base.order;
    // The smallest heap of each generator.
    let mut smallest: HashMap<u32, u64> = HashMap::new();
    for (h, &g) in base.heap_gen.iter().enumerate().skip(1) {
        if g != u32::MAX {
            smallest.entry(g).or_insert(h as u64);
        }
    }
    let mut gens: Vec<(u64, u32)> = smallest.into_iter().map(|(g, h)| (h, g)).collect();
    gens.sort_unstable();
    let mut best: Vec<Option<((u64, Reverse<u64>), u32, u64)>> = vec![None; m];
    let mut done = vec![false; m];
    let mut queue = BinaryHeap::new();
    best[base.identity as usize] = Some(((0, Reverse(0)), u32::MAX, 0));
    queue.push(Reverse(((0u64, Reverse(0u64)), base.identity)));
    while let Some(Reverse((w, q))) = queue.pop() {
        if done[q as usize] {
            continue;
        }
        done[q as usize] = true;
        for &(h, g) in &gens {
            let r = base.step[q as usize * base.gens + g as usize];
            let w2 = (w.0 + h, Reverse(w.1.0 + 1));
            if best[r as usize].is_none_or(|(old, _, _)| w2 < old) {
                best[r as usize] = Some((w2, q, h));
                queue.push(Reverse((w2, r)));
            }
        }
        spend(meter, n, gens.len() as u64 + 1)?;
    }
    let mut reps = Vec::with_capacity(m);
    for q in 0..m {
        let Some((w, _, _)) = best[q] else {
            return Err(MisereError::Unverified { heap: n, why: "an element no position reaches".to_owned() });
        };
        let mut heaps = Vec::new();
        let mut at = q as u32;
        while let Some((_, prev, h)) = best[at as usize] {
            if prev == u32::MAX {
                break;
            }
            heaps.push(h);
            at = prev;
        }
        heaps.sort_unstable();
        reps.push((w, heaps));
    }
    Ok(reps)
}
