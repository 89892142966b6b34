//! Refinement of a candidate that fails: when a new heap breaks a relation
//! among smaller heaps, the quotient of the enlarged set is recomputed.
//!
//! This follows the idea of Siegel's MisereSolver (Plambeck and Siegel,
//! "Misère quotients for impartial games", JCTA 2008): some heaps are set
//! *free* — each gets its own cyclic factor `⟨x | x^a = x^(a+p)⟩` — and the
//! others keep their elements in a monoid already at hand. On the product
//! the outcome of every element is recomputed by the misère rule on a least
//! representative (fewest tokens: a representative's options have fewer
//! tokens, so the recursion is well founded); the product is reduced by
//! indistinguishability and the result is proved by [`crate::verify`] like
//! any candidate. Nothing here is trusted.
//!
//! Which heaps: first the new heap alone, on the smaller heaps' quotient;
//! then, while the proof fails, from the failed candidate, the smallest set
//! of the failure's heaps whose freeing makes the misère rule hold at the
//! failure (MisereSolver's recalibration). If no such set is found, every
//! failure's heaps are freed at once, cumulatively, on the proved quotient
//! of the smaller heaps, exponents rising when nothing new is freed.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};

use bouton_grundy::{HeapGame, Meter};

use crate::MisereError;
use crate::extend::Stage;
use crate::fast_hash::StateSet;
use crate::verify::{Failure, verify_witness};

/// The most rounds of refinement for one heap.
const ROUNDS: usize = 24;

/// The most elements of a product monoid built.
const MAX_PRODUCT: usize = 30_000_000;

/// For each element of `stage`, the heaps of a least position (fewest
/// tokens) with that element, if one exists.
pub(crate) fn least_words(stage: &Stage, game: &HeapGame) -> Vec<Option<Vec<u64>>> {
    let mut gens: Vec<(u64, u32)> = Vec::new();
    for h in 1..=stage.upto() {
        let x = stage.phi[h as usize];
        if game.options(h).next().is_some() && !gens.iter().any(|&(_, y)| y == x) {
            gens.push((h, x));
        }
    }
    let m = stage.order;
    let mut dist = vec![u64::MAX; m];
    let mut parent: Vec<(u32, u64)> = vec![(u32::MAX, 0); m];
    dist[stage.identity as usize] = 0;
    let mut queue = BinaryHeap::from([Reverse((0u64, stage.identity))]);
    while let Some(Reverse((d, q))) = queue.pop() {
        if d > dist[q as usize] {
            continue;
        }
        for &(h, x) in &gens {
            let r = stage.mul(q, x);
            if d + h < dist[r as usize] {
                dist[r as usize] = d + h;
                parent[r as usize] = (q, h);
                queue.push(Reverse((d + h, r)));
            }
        }
    }
    (0..m)
        .map(|q| {
            (dist[q] != u64::MAX).then(|| {
                let mut word = Vec::new();
                let mut at = q as u32;
                while at != stage.identity {
                    let (prev, h) = parent[at as usize];
                    word.push(h);
                    at = prev;
                }
                word.sort_unstable();
                word
            })
        })
        .collect()
}

/// The index and period of `x`'s powers in `stage`.
fn index_period(stage: &Stage, x: u32) -> (usize, usize) {
    let mut seen: HashMap<u32, usize> = HashMap::new();
    let mut y = stage.identity;
    for k in 0.. {
        if let Some(&i) = seen.get(&y) {
            return (i, k - i);
        }
        seen.insert(y, k);
        y = stage.mul(y, x);
    }
    unreachable!("a finite monoid's powers repeat")
}

/// The proved quotient of heaps up to `n = base.upto()`, refined from a
/// failure, or why not: `base` is the proved quotient of the heaps below `n`
/// (with any element for heap `n`, which is always free).
pub(crate) fn refine(
    base: &Stage,
    first: Failure,
    game: &HeapGame,
    meter: &mut Meter,
    max_order: usize,
) -> Result<Result<Stage, Failure>, MisereError> {
    let n = base.upto();
    // First MisereSolver's way, then every failure's heaps freed at once.
    let mut failure = match recalibrate(base, game, meter, max_order)? {
        Ok(stage) => return Ok(Ok(stage)),
        Err(_) => first,
    };
    // Free heap -> (a, p): its factor ⟨x | x^a = x^(a+p)⟩.
    let mut free: BTreeMap<u64, (usize, usize)> = BTreeMap::new();
    for _ in 0..ROUNDS {
        let before = free.clone();
        let mut wanted: BTreeMap<u64, usize> = BTreeMap::from([(n, 1)]);
        for &h in &failure.witness {
            *wanted.entry(h).or_insert(0) += 1;
        }
        for (&h, &e) in &wanted {
            if game.options(h).next().is_none() {
                continue;
            }
            let (i, q) = index_period(base, base.phi[h as usize]);
            // A multiple of the heap's period there, and even.
            let p = if q % 2 == 0 { q } else { 2 * q };
            let entry = free.entry(h).or_insert((1, 2));
            entry.0 = entry.0.max(e + 1).max(i);
            entry.1 = entry.1.max(p);
        }
        if free == before {
            // No new heap and no higher exponent: go further up the powers.
            for v in free.values_mut() {
                v.0 += 1;
            }
        }
        let candidate = build(base, &free, n, game, meter, max_order)?;
        match verify_witness(&candidate, game, meter)? {
            Ok(()) => return Ok(Ok(candidate)),
            Err(f) => failure = f,
        }
    }
    Ok(Err(failure))
}

/// Whether the misère rule holds at `position` under `stage`.
fn rule_holds(stage: &Stage, game: &HeapGame, position: &[u64]) -> bool {
    let element = |heaps: &[u64]| heaps.iter().fold(stage.identity, |acc, &h| stage.mul(acc, stage.phi[h as usize]));
    let whole = element(position);
    let mut has_move = false;
    let mut to_p = false;
    for (i, &h) in position.iter().enumerate() {
        let rest: Vec<u64> = position.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &g)| g).collect();
        let r = element(&rest);
        for o in game.options(h) {
            has_move = true;
            to_p |= stage.p[stage.mul(r, stage.image(o.left, o.right)) as usize];
        }
    }
    stage.p[whole as usize] == (has_move && !to_p)
}

/// MisereSolver's way: the new heap free on the smaller heaps' quotient;
/// then, from each failed candidate, free the smallest set of the failure's
/// heaps (up to four) that mends the misère rule at the failure; repeat.
fn recalibrate(
    start: &Stage,
    game: &HeapGame,
    meter: &mut Meter,
    max_order: usize,
) -> Result<Result<Stage, Failure>, MisereError> {
    let n = start.upto();
    let mut current = build(start, &BTreeMap::from([(n, (2, 2))]), n, game, meter, max_order)?;
    let mut failure = match verify_witness(&current, game, meter)? {
        Ok(()) => return Ok(Ok(current)),
        Err(f) => f,
    };
    for _ in 0..4 * ROUNDS {
        let mut heaps: Vec<u64> = failure.witness.clone();
        heaps.dedup();
        heaps.retain(|&h| game.options(h).next().is_some());
        let mut mended = None;
        'sizes: for size in 1..=heaps.len().min(4) {
            for subset in subsets(&heaps, size) {
                let mut free = BTreeMap::new();
                for &h in &subset {
                    let e = failure.witness.iter().filter(|&&g| g == h).count();
                    let (i, q) = index_period(&current, current.phi[h as usize]);
                    let p = if q % 2 == 0 { q } else { 2 * q };
                    free.insert(h, ((e + 1).max(i), p));
                }
                let Ok(candidate) = build(&current, &free, n, game, meter, max_order) else {
                    continue;
                };
                if rule_holds(&candidate, game, &failure.witness) {
                    mended = Some(candidate);
                    break 'sizes;
                }
            }
        }
        let Some(candidate) = mended else {
            return Ok(Err(failure));
        };
        current = candidate;
        match verify_witness(&current, game, meter)? {
            Ok(()) => return Ok(Ok(current)),
            Err(f) => failure = f,
        }
    }
    Ok(Err(failure))
}

/// The subsets of `items` of `size` elements.
fn subsets(items: &[u64], size: usize) -> Vec<Vec<u64>> {
    if size == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for (i, &x) in items.iter().enumerate() {
        for mut rest in subsets(&items[i + 1..], size - 1) {
            rest.insert(0, x);
            all.push(rest);
        }
    }
    all
}

/// The reduced bipartite monoid of heaps up to `n` on `base` (for the heaps
/// not free) times one cyclic factor per free heap, its P-portion computed
/// by the misère rule.
fn build(
    base: &Stage,
    free: &BTreeMap<u64, (usize, usize)>,
    n: u64,
    game: &HeapGame,
    meter: &mut Meter,
    max_order: usize,
) -> Result<Stage, MisereError> {
    let too_large = MisereError::TooLarge { limit: max_order, heap: n };
    let m = base.order;
    let factors: Vec<(usize, usize)> = free.values().copied().collect();
    let free_index: HashMap<u64, usize> = free.keys().enumerate().map(|(i, &h)| (h, i)).collect();
    let mut strides = Vec::with_capacity(factors.len());
    let mut total = m;
    for &(a, p) in &factors {
        strides.push(total);
        total = total.checked_mul(a + p).filter(|&t| t <= MAX_PRODUCT).ok_or_else(|| too_large.clone())?;
    }
    // A generator: a base element (not free) or a free factor.
    #[derive(Clone, Copy, PartialEq, Eq, Hash)]
    enum Gen {
        Fixed(u32),
        Free(usize),
    }
    let act = |e: usize, g: Gen| -> usize {
        match g {
            Gen::Fixed(x) => e - e % m + base.mul((e % m) as u32, x) as usize,
            Gen::Free(i) => {
                let (a, p) = factors[i];
                let k = (e / strides[i]) % (a + p);
                let k2 = if k + 1 < a + p { k + 1 } else { a };
                e - k * strides[i] + k2 * strides[i]
            }
        }
    };
    let gen_of: Vec<Option<Gen>> = (0..=n)
        .map(|h| {
            if h == 0 || game.options(h).next().is_none() {
                None
            } else if let Some(&i) = free_index.get(&h) {
                Some(Gen::Free(i))
            } else {
                Some(Gen::Fixed(base.phi[h as usize]))
            }
        })
        .collect();
    let times = |e: usize, h: u64| -> usize { gen_of.get(h as usize).copied().flatten().map_or(e, |g| act(e, g)) };
    // The smallest heap of each generator.
    let mut gens: Vec<(u64, Gen)> = Vec::new();
    for h in 1..=n {
        if let Some(g) = gen_of[h as usize]
            && !gens.iter().any(|&(_, o)| o == g)
        {
            gens.push((h, g));
        }
    }
    let identity = base.identity as usize;
    // The arrays below, about 32 bytes an element, held while they live.
    let bytes = total as u64 * 32;
    meter.hold(bytes).map_err(|source| MisereError::OverBudget { heap: n, source })?;
    let result = reduce(n, game, meter, max_order, total, identity, &gens, &act, &times);
    meter.release(bytes);
    result
}

/// The least representatives, the P-portion by the misère rule and the
/// reduction of [`build`]'s product.
#[allow(clippy::too_many_arguments)]
fn reduce<G: Copy>(
    n: u64,
    game: &HeapGame,
    meter: &mut Meter,
    max_order: usize,
    total: usize,
    identity: usize,
    gens: &[(u64, G)],
    act: &dyn Fn(usize, G) -> usize,
    times: &dyn Fn(usize, u64) -> usize,
) -> Result<Stage, MisereError> {
    let spend =
        |meter: &mut Meter, ops: u64| meter.spend(ops).map_err(|source| MisereError::OverBudget { heap: n, source });
    let too_large = MisereError::TooLarge { limit: max_order, heap: n };
    // Least representatives: fewest tokens, then most heaps. Every move of a
    // heap game lowers this key, a split that takes nothing (Grundy's game)
    // too, so each element's options are judged before it.
    let step = |h: u64| (h << 32) - 1;
    let mut dist = vec![u64::MAX; total];
    let mut parent: Vec<(u32, u32)> = vec![(u32::MAX, 0); total];
    let mut order: Vec<u32> = Vec::new();
    dist[identity] = 0;
    let mut queue = BinaryHeap::from([Reverse((0u64, identity as u32))]);
    while let Some(Reverse((d, e))) = queue.pop() {
        if d > dist[e as usize] {
            continue;
        }
        order.push(e);
        for &(h, g) in gens {
            let f = act(e as usize, g);
            let key = d + step(h);
            if key < dist[f] {
                dist[f] = key;
                parent[f] = (e, h as u32);
                queue.push(Reverse((key, f as u32)));
            }
        }
        spend(meter, gens.len() as u64 + 1)?;
    }
    let word = |e: usize| -> Vec<u64> {
        let mut w = Vec::new();
        let mut at = e;
        while at != identity {
            let (prev, h) = parent[at];
            w.push(u64::from(h));
            at = prev as usize;
        }
        w.sort_unstable();
        w
    };
    // The outcome of each element, in order of its representative's tokens.
    let mut p = vec![false; total];
    for &e in &order {
        let e = e as usize;
        if e == identity {
            continue;
        }
        let w = word(e);
        let mut to_p = false;
        for (i, &h) in w.iter().enumerate() {
            if to_p {
                break;
            }
            if i > 0 && w[i - 1] == h {
                continue;
            }
            let rest = w.iter().enumerate().filter(|&(j, _)| j != i).fold(identity, |acc, (_, &g)| times(acc, g));
            for o in game.options(h) {
                let f = times(times(rest, o.left), o.right);
                debug_assert!(dist[f] < dist[e]);
                if p[f] {
                    to_p = true;
                    break;
                }
            }
            spend(meter, (h + w.len() as u64) / 4 + 1)?;
        }
        p[e] = !to_p;
    }
    // Reduce by indistinguishability, on the reachable elements.
    let mut class = vec![u32::MAX; total];
    for &e in &order {
        class[e as usize] = u32::from(p[e as usize]);
    }
    let mut count = 0usize;
    let mut key = Vec::with_capacity(gens.len() + 1);
    loop {
        // Classes numbered in the order of their first element.
        let mut ids = StateSet::new();
        let mut next = vec![u32::MAX; total];
        for &e in &order {
            let e = e as usize;
            key.clear();
            key.push(class[e]);
            key.extend(gens.iter().map(|&(_, g)| class[act(e, g)]));
            next[e] = ids.number(&key).0 as u32;
        }
        spend(meter, (order.len() * (gens.len() + 1)) as u64)?;
        class = next;
        if ids.len() == count {
            break;
        }
        count = ids.len();
    }
    if count > max_order {
        return Err(too_large);
    }
    let mut rep = vec![usize::MAX; count];
    for &e in &order {
        let c = class[e as usize] as usize;
        if rep[c] == usize::MAX {
            rep[c] = e as usize;
        }
    }
    let words: Vec<Vec<u64>> = rep.iter().map(|&e| word(e)).collect();
    let mut table = vec![0u32; count * count];
    for x in 0..count {
        for (y, w) in words.iter().enumerate() {
            table[x * count + y] = class[w.iter().fold(rep[x], |acc, &h| times(acc, h))];
        }
        spend(meter, (count * 4) as u64)?;
    }
    let p_new = rep.iter().map(|&e| p[e]).collect();
    let phi = (0..=n).map(|h| class[times(identity, h)]).collect();
    Ok(Stage { order: count, table, identity: class[identity], p: p_new, phi })
}
