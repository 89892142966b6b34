//! The proof that a bipartite monoid and a pretending function give the
//! outcome of every position of heaps up to `n`.
//!
//! Each heap `h` has a *type*: its element `x_h`, whether it has a move, and
//! `Bad_h`, the elements `r` such that `r·o` is in P for some option `o` of
//! `h` (so that in a position `h + R` with `R`'s element `r` a move in `h`
//! reaches P). By induction on positions, the candidate is right for every
//! position exactly when, for every finite multiset `M` of heap types with
//! product `q`:
//!
//! - if `q` is in P, `M` has a move and no `t` in `M` has `prod(M − t)` in
//!   `Bad_t` (no move from P reaches P);
//! - if `q` is not in P and `M` has a move, some `t` in `M` has
//!   `prod(M − t)` in `Bad_t` (a move reaches P).
//!
//! These depend only on the state `(q, has a move, {(t, [prod(M − t)]_t)})`,
//! where `[r]_t` is `r`'s class under the congruence `r ≡ r'` when `rz` and
//! `r'z` are in `Bad_t` together for every `z`. Adding a heap of type `u`
//! moves the state deterministically, and there are finitely many states, so
//! a walk over every reachable state checks every position of heaps up to
//! `n` — however many heaps. This is the whole proof; nothing is sampled.

use bouton_grundy::{HeapGame, Meter};

use crate::MisereError;
use crate::extend::{Stage, option_images};
use crate::fast_hash::{FastMap, FastSet, StateSet};

/// The most states the walk visits before giving up.
pub(crate) const MAX_STATES: usize = 4_000_000;

/// One heap type, merged over the heaps that share it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Type {
    element: u32,
    movable: bool,
    bad: Vec<bool>,
}

/// A position the candidate gets wrong, or one of whose options it gets
/// wrong: the misère rule fails there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    /// Which kind of position.
    pub why: String,
    /// Its heaps (empty when not known).
    pub witness: Vec<u64>,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.witness.is_empty() { f.write_str(&self.why) } else { write!(f, "{} (at {:?})", self.why, self.witness) }
    }
}

/// Proves `stage` right for every position of heaps up to `stage.upto()`,
/// or says which kind of position it gets wrong.
pub(crate) fn verify(stage: &Stage, game: &HeapGame, meter: &mut Meter) -> Result<Result<(), String>, MisereError> {
    Ok(verify_witness(stage, game, meter)?.map_err(|f| f.to_string()))
}

/// [`verify`], with a position where the misère rule fails.
pub(crate) fn verify_witness(
    stage: &Stage,
    game: &HeapGame,
    meter: &mut Meter,
) -> Result<Result<(), Failure>, MisereError> {
    let n = stage.upto();
    let spend =
        |meter: &mut Meter, ops: u64| meter.spend(ops).map_err(|source| MisereError::OverBudget { heap: n, source });
    let m = stage.order;
    let mut types: Vec<Type> = Vec::new();
    let mut seen: FastSet<Type> = FastSet::default();
    let mut type_heap: Vec<u64> = Vec::new();
    for h in 1..=n {
        let options = option_images(stage, game, h);
        let mut bad = vec![false; m];
        for (r, slot) in bad.iter_mut().enumerate() {
            *slot = options.iter().any(|&o| stage.p[stage.mul(r as u32, o) as usize]);
        }
        spend(meter, (m * options.len().max(1)) as u64)?;
        let t = Type { element: stage.phi[h as usize], movable: !options.is_empty(), bad };
        if seen.insert(t.clone()) {
            types.push(t);
            type_heap.push(h);
        }
    }
    let mut multipliers: Vec<u32> = types.iter().map(|t| t.element).collect();
    multipliers.sort_unstable();
    multipliers.dedup();
    // No move from P reaches P: for every element r and type t, a position
    // t + R with R's element r in P has no move to P. Every element is some
    // position's, so this is exactly the condition, checked on pairs.
    for (t, ty) in types.iter().enumerate() {
        for r in 0..m {
            if stage.p[stage.mul(r as u32, ty.element) as usize] && ty.bad[r] {
                let mut witness = crate::refine::least_words(stage, game)[r].clone().unwrap_or_default();
                witness.push(type_heap[t]);
                witness.sort_unstable();
                return Ok(Err(Failure { why: format!("a position in P has a move to P (heap type {t})"), witness }));
            }
        }
    }
    // Positions without a move are not in P.
    let mut still = vec![false; m];
    still[stage.identity as usize] = true;
    let mut frontier = vec![stage.identity];
    while let Some(q) = frontier.pop() {
        if stage.p[q as usize] {
            return Ok(Err(Failure {
                why: "a position without a move has its element in P".to_owned(),
                witness: Vec::new(),
            }));
        }
        for ty in types.iter().filter(|t| !t.movable) {
            let r = stage.mul(q, ty.element);
            if !still[r as usize] {
                still[r as usize] = true;
                frontier.push(r);
            }
        }
    }
    spend(meter, (m * types.len()) as u64)?;
    // Every movable position outside P has a move to P. Heaps with the same
    // element leave the same rest when one is removed, so the walk keeps,
    // per element present, the rest's element and the union of the Bad sets
    // of the types present with it. For an element q outside P, only the
    // types that may fail to give that move at q (some r with r·x_t = q is
    // outside Bad_t) can make a counterexample, and only through elements
    // from which q is still reachable with them.
    let mut unions = Unions::new(m, &multipliers, &stage.table);
    // before[g][y]: the elements r with r·g = y.
    let mut before: FastMap<u32, Vec<Vec<u32>>> = FastMap::default();
    for &g in &multipliers {
        let mut lists = vec![Vec::new(); m];
        for r in 0..m as u32 {
            lists[stage.mul(r, g) as usize].push(r);
        }
        before.insert(g, lists);
    }
    let type_union: Vec<u32> = types.iter().map(|t| unions.intern(t.bad.clone())).collect();
    // A counterexample may swap a heap for one with the same element, a move
    // whenever it had one, and a smaller Bad set: the element of the
    // position and of every rest stay, and it still has no move to P. So
    // only the types minimal in that order need be tried.
    let dominated = |t: &Type| {
        types.iter().any(|o| {
            o != t
                && o.element == t.element
                && (o.movable || !t.movable)
                && o.bad.iter().zip(&t.bad).all(|(a, b)| !*a || *b)
        })
    };
    let minimal: Vec<usize> = (0..types.len()).filter(|&t| !dominated(&types[t])).collect();
    spend(meter, (types.len() * types.len() * m) as u64)?;
    let mut states_seen = 0usize;
    for q in (0..m as u32).filter(|&q| !stage.p[q as usize]) {
        let weak: Vec<usize> = minimal
            .iter()
            .copied()
            .filter(|&t| (0..m).any(|r| stage.mul(r as u32, types[t].element) == q && !types[t].bad[r]))
            .collect();
        spend(meter, (m * types.len()) as u64)?;
        // The elements from which q is reachable with the weak types.
        let mut weak_elements: Vec<u32> = weak.iter().map(|&t| types[t].element).collect();
        weak_elements.sort_unstable();
        weak_elements.dedup();
        let mut reaches = vec![false; m];
        reaches[q as usize] = true;
        let mut stack = vec![q];
        while let Some(target) = stack.pop() {
            for &g in &weak_elements {
                for &r in &before[&g][target as usize] {
                    if !reaches[r as usize] {
                        reaches[r as usize] = true;
                        stack.push(r);
                    }
                }
            }
        }
        spend(meter, (m * weak_elements.len()) as u64)?;
        if !reaches[stage.identity as usize] {
            continue;
        }
        // The states, numbered in the order found: the walk is breadth
        // first, so the queue is the numbers in order.
        let mut visited = StateSet::new();
        visited.insert(&[stage.identity, 0]);
        // (parent, heap added) per state found, to rebuild a witness.
        let mut trail: Vec<(usize, u64)> = vec![(usize::MAX, 0)];
        let mut next: Vec<u32> = Vec::new();
        let mut state: Vec<u32> = Vec::new();
        let mut at = 0;
        while at < visited.len() {
            state.clear();
            state.extend_from_slice(visited.get(at));
            for &u in &weak {
                let t = &types[u];
                let now = state[0];
                let element = stage.mul(now, t.element);
                if !reaches[element as usize] {
                    continue;
                }
                next.clear();
                next.push(element);
                next.push(u32::from(state[1] != 0 || t.movable));
                let mut placed = false;
                for triple in state[2..].chunks(3) {
                    let (y, r, set) = (triple[0], triple[1], triple[2]);
                    if y == t.element {
                        next.extend([y, now, unions.union(set, type_union[u])]);
                        placed = true;
                        continue;
                    }
                    if !placed && y > t.element {
                        next.extend([t.element, now, type_union[u]]);
                        placed = true;
                    }
                    next.extend([y, stage.mul(r, t.element), set]);
                }
                if !placed {
                    next.extend([t.element, now, type_union[u]]);
                }
                // A state holding a rest that stays in its Bad set whatever
                // is added can never fail: not kept (and never inserted, so
                // the numbering is that of the states kept).
                if next[2..].chunks(3).any(|c| unions.forever(c[2])[c[1] as usize]) {
                    continue;
                }
                let Some(id) = visited.insert(&next) else {
                    continue;
                };
                let winning = next[2..].chunks(3).any(|c| unions.sets[c[2] as usize][c[1] as usize]);
                if element == q && next[1] != 0 && !winning {
                    let mut witness = vec![type_heap[u]];
                    let mut i = at;
                    while i != 0 {
                        witness.push(trail[i].1);
                        i = trail[i].0;
                    }
                    witness.sort_unstable();
                    return Ok(Err(Failure { why: "a position not in P has no move to P".to_owned(), witness }));
                }
                states_seen += 1;
                if states_seen >= MAX_STATES {
                    return Err(MisereError::Unverified {
                        heap: n,
                        why: format!("the proof needs more than {MAX_STATES} states"),
                    });
                }
                trail.push((at, type_heap[u]));
                debug_assert_eq!(trail.len() - 1, id);
            }
            at += 1;
            spend(meter, weak.len() as u64 * 4)?;
        }
    }
    Ok(Ok(()))
}

/// Unions of Bad sets, numbered, with the part of each that stays in it
/// whatever is multiplied in.
struct Unions<'a> {
    sets: Vec<Vec<bool>>,
    ids: FastMap<Vec<bool>, u32>,
    pairs: FastMap<(u32, u32), u32>,
    forever: Vec<Option<Vec<bool>>>,
    multipliers: &'a [u32],
    order: usize,
    table: &'a [u32],
}

impl<'a> Unions<'a> {
    fn new(order: usize, multipliers: &'a [u32], table: &'a [u32]) -> Unions<'a> {
        Unions {
            sets: Vec::new(),
            ids: FastMap::default(),
            pairs: FastMap::default(),
            forever: Vec::new(),
            multipliers,
            order,
            table,
        }
    }

    fn intern(&mut self, set: Vec<bool>) -> u32 {
        if let Some(&id) = self.ids.get(&set) {
            return id;
        }
        let id = self.sets.len() as u32;
        self.ids.insert(set.clone(), id);
        self.sets.push(set);
        self.forever.push(None);
        id
    }

    fn union(&mut self, a: u32, b: u32) -> u32 {
        if a == b {
            return a;
        }
        let key = (a.min(b), a.max(b));
        if let Some(&id) = self.pairs.get(&key) {
            return id;
        }
        let set: Vec<bool> = self.sets[a as usize].iter().zip(&self.sets[b as usize]).map(|(x, y)| *x || *y).collect();
        let id = self.intern(set);
        self.pairs.insert(key, id);
        id
    }

    fn forever(&mut self, id: u32) -> &[bool] {
        if self.forever[id as usize].is_none() {
            let mut always = self.sets[id as usize].clone();
            loop {
                let mut changed = false;
                for r in 0..self.order {
                    if always[r] && self.multipliers.iter().any(|&g| !always[self.mul_of(r as u32, g)]) {
                        always[r] = false;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            self.forever[id as usize] = Some(always);
        }
        self.forever[id as usize].as_deref().unwrap_or(&[])
    }

    fn mul_of(&self, r: u32, g: u32) -> usize {
        self.table[r as usize * self.order + g as usize] as usize
    }
}
