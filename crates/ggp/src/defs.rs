//! The definitions of a propositional network's atoms, stored flat: each
//! atom's definition is a disjunction of bodies, each body a conjunction of
//! literals, and all of them live in three arrays (atoms → their bodies →
//! their literals) rather than in a vector per body. A network of millions
//! of atoms (amazonsTorus: 2 million) is then three allocations instead of
//! millions, and walking it reads memory in order.
//!
//! Shrinking a definition (folding constants, normalising) works in place;
//! replacing one by something larger appends the new bodies and leaves the
//! old ones unused.

use std::hash::Hasher;

use crate::hash::WordHasher;

/// A literal: atom index times two, plus one when negated.
pub(crate) type Lit = u32;

/// Where a run of items lies in an array: its first index and its length.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

impl Span {
    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// The definitions of atoms `0..len()`, each a disjunction of bodies.
#[derive(Debug, Clone, Default)]
pub(crate) struct Defs {
    /// For each atom, its bodies in `bodies`.
    atoms: Vec<Span>,
    /// For each body, its literals in `lits`.
    bodies: Vec<Span>,
    lits: Vec<Lit>,
    /// Working memory of [`Defs::normalize`].
    scratch: Vec<Span>,
}

impl Defs {
    /// Definitions built from vectors, one per atom (for tests).
    #[cfg(test)]
    pub(crate) fn from_vecs(defs: &[Vec<Vec<Lit>>]) -> Defs {
        let mut out = Defs::default();
        for def in defs {
            let i = out.push_atom();
            out.set(i, def);
        }
        out
    }

    /// Definitions whose atom `a` has the bodies `(a, body)` of `rules`,
    /// those of each atom in the order given; `atoms` atoms in all (every
    /// head below it).
    pub(crate) fn from_rules<'r>(atoms: usize, rules: impl Iterator<Item = (usize, &'r [Lit])> + Clone) -> Defs {
        let mut count = vec![0u32; atoms + 1];
        let mut total = 0usize;
        for (head, body) in rules.clone() {
            count[head + 1] += 1;
            total += body.len();
        }
        for a in 0..atoms {
            count[a + 1] += count[a];
        }
        let mut defs = Defs {
            atoms: (0..atoms).map(|a| Span { start: count[a], len: count[a + 1] - count[a] }).collect(),
            bodies: vec![Span::default(); count[atoms] as usize],
            lits: Vec::with_capacity(total),
            scratch: Vec::new(),
        };
        let mut next = count;
        for (head, body) in rules {
            let start = defs.lits.len() as u32;
            defs.lits.extend_from_slice(body);
            defs.bodies[next[head] as usize] = Span { start, len: body.len() as u32 };
            next[head] += 1;
        }
        defs
    }

    /// Adds an atom with no bodies (false); its index.
    pub(crate) fn push_atom(&mut self) -> usize {
        self.atoms.push(Span { start: self.bodies.len() as u32, len: 0 });
        self.atoms.len() - 1
    }

    /// The number of atoms.
    pub(crate) fn len(&self) -> usize {
        self.atoms.len()
    }

    /// The number of bodies of atom `i`.
    pub(crate) fn body_count(&self, i: usize) -> usize {
        self.atoms[i].len as usize
    }

    /// Body `k` of atom `i`.
    pub(crate) fn body(&self, i: usize, k: usize) -> &[Lit] {
        let span = self.bodies[self.atoms[i].start as usize + k];
        &self.lits[span.range()]
    }

    /// The bodies of atom `i`.
    pub(crate) fn bodies(&self, i: usize) -> impl ExactSizeIterator<Item = &[Lit]> + Clone + '_ {
        self.bodies[self.atoms[i].range()].iter().map(|&span| &self.lits[span.range()])
    }

    /// Every literal of every body of atom `i`.
    pub(crate) fn literals(&self, i: usize) -> impl Iterator<Item = Lit> + '_ {
        self.bodies(i).flatten().copied()
    }

    /// Whether atom `i` has an empty body (is true).
    pub(crate) fn has_empty_body(&self, i: usize) -> bool {
        self.bodies(i).any(<[Lit]>::is_empty)
    }

    /// The literals and bodies of atom `i`: each body counts its literals
    /// and one.
    pub(crate) fn size(&self, i: usize) -> usize {
        self.bodies(i).map(|body| body.len() + 1).sum()
    }

    /// The size ([`Defs::size`]) of every definition.
    pub(crate) fn total_size(&self) -> usize {
        (0..self.len()).map(|i| self.size(i)).sum()
    }

    /// The definition of atom `i` as vectors.
    pub(crate) fn to_vecs(&self, i: usize) -> Vec<Vec<Lit>> {
        self.bodies(i).map(<[Lit]>::to_vec).collect()
    }

    /// Makes `bodies` the definition of atom `i` (as given, not normalised).
    pub(crate) fn set(&mut self, i: usize, bodies: &[Vec<Lit>]) {
        let start = self.bodies.len() as u32;
        for body in bodies {
            let lits = self.lits.len() as u32;
            self.lits.extend_from_slice(body);
            self.bodies.push(Span { start: lits, len: body.len() as u32 });
        }
        self.atoms[i] = Span { start, len: bodies.len() as u32 };
    }

    /// Makes atom `i` true: one empty body.
    pub(crate) fn make_true(&mut self, i: usize) {
        if self.atoms[i].len == 0 {
            self.set(i, &[Vec::new()]);
        } else {
            self.atoms[i].len = 1;
            self.bodies[self.atoms[i].start as usize].len = 0;
        }
    }

    /// Simplifies atom `i` in place: a body with a literal that `value`
    /// says is false is dropped, a literal it says is true is removed from
    /// its body (`None`: unknown). Whether anything changed.
    pub(crate) fn simplify(&mut self, i: usize, value: impl Fn(Lit) -> Option<bool>) -> bool {
        let Span { start, len } = self.atoms[i];
        let mut kept = 0u32;
        let mut changed = false;
        for k in start..start + len {
            let span = self.bodies[k as usize];
            let mut out = span.start;
            let mut falsified = false;
            for at in span.range() {
                let l = self.lits[at];
                match value(l) {
                    None => {
                        self.lits[out as usize] = l;
                        out += 1;
                    }
                    Some(true) => changed = true,
                    Some(false) => {
                        falsified = true;
                        break;
                    }
                }
            }
            if falsified {
                changed = true;
                continue;
            }
            self.bodies[(start + kept) as usize] = Span { start: span.start, len: out - span.start };
            kept += 1;
        }
        self.atoms[i].len = kept;
        changed
    }

    /// Rewrites every literal of atom `i` by `f`, in place; whether any
    /// changed.
    pub(crate) fn map_literals(&mut self, i: usize, f: impl Fn(Lit) -> Lit) -> bool {
        let mut changed = false;
        let Span { start, len } = self.atoms[i];
        for k in start..start + len {
            for at in self.bodies[k as usize].range() {
                let l = f(self.lits[at]);
                changed |= l != self.lits[at];
                self.lits[at] = l;
            }
        }
        changed
    }

    /// Normalises atom `i` in place: each body sorted without repeats, a
    /// body that holds a literal and its negation dropped, the bodies
    /// sorted (shortest first) without repeats, and — where there are at
    /// most `max_subsumption` — without a body that contains another.
    pub(crate) fn normalize(&mut self, i: usize, max_subsumption: usize) {
        let Span { start, len } = self.atoms[i];
        let mut spans = std::mem::take(&mut self.scratch);
        spans.clear();
        for k in start..start + len {
            let span = self.bodies[k as usize];
            let body = &mut self.lits[span.range()];
            body.sort_unstable();
            let mut n = 0usize;
            let mut contradictory = false;
            for at in 0..body.len() {
                if n > 0 && body[at] == body[n - 1] {
                    continue;
                }
                if n > 0 && body[at] >> 1 == body[n - 1] >> 1 {
                    contradictory = true;
                    break;
                }
                body[n] = body[at];
                n += 1;
            }
            if !contradictory {
                spans.push(Span { start: span.start, len: n as u32 });
            }
        }
        let lits = &self.lits;
        let slice = |s: &Span| &lits[s.range()];
        if spans.len() > 1 {
            spans.sort_unstable_by(|a, b| a.len.cmp(&b.len).then_with(|| slice(a).cmp(slice(b))));
            spans.dedup_by(|a, b| slice(a) == slice(b));
        }
        let mut kept = 0usize;
        for k in 0..spans.len() {
            let body = slice(&spans[k]);
            let subsumed = spans.len() <= max_subsumption
                && spans[..kept].iter().any(|s| slice(s).iter().all(|l| body.binary_search(l).is_ok()));
            if !subsumed {
                spans[kept] = spans[k];
                kept += 1;
            }
        }
        for (k, span) in spans[..kept].iter().enumerate() {
            self.bodies[start as usize + k] = *span;
        }
        self.atoms[i].len = kept as u32;
        self.scratch = spans;
    }

    /// A hash of atom `i`'s definition (equal definitions hash alike).
    pub(crate) fn hash_of(&self, i: usize) -> u64 {
        let mut h = WordHasher::default();
        h.write_u32(self.atoms[i].len);
        for body in self.bodies(i) {
            h.write_u32(body.len() as u32);
            for &l in body {
                h.write_u32(l);
            }
        }
        h.finish()
    }

    /// Whether atoms `i` and `j` have the same definition (the same bodies
    /// in the same order).
    pub(crate) fn same(&self, i: usize, j: usize) -> bool {
        self.body_count(i) == self.body_count(j) && self.bodies(i).zip(self.bodies(j)).all(|(a, b)| a == b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_are_read_as_built() {
        let defs = Defs::from_rules(3, [(2, &[1u32, 3][..]), (0, &[][..]), (2, &[4][..])].into_iter());
        assert_eq!(defs.len(), 3);
        assert_eq!(defs.to_vecs(0), vec![Vec::<Lit>::new()]);
        assert!(defs.to_vecs(1).is_empty());
        assert_eq!(defs.to_vecs(2), vec![vec![1, 3], vec![4]]);
        assert_eq!(defs.size(2), 5);
        assert!(defs.has_empty_body(0) && !defs.has_empty_body(2));
    }

    #[test]
    fn normalising_sorts_dedups_and_drops_what_is_subsumed() {
        // a = 2, b = 4; a body with a literal and its negation is dropped.
        let mut defs = Defs::from_vecs(&[vec![vec![2, 4], vec![2], vec![4, 4, 2], vec![4, 5]]]);
        defs.normalize(0, 256);
        assert_eq!(defs.to_vecs(0), vec![vec![2]]);
        let mut defs = Defs::from_vecs(&[vec![vec![6, 2], vec![4], vec![2, 6]]]);
        defs.normalize(0, 256);
        assert_eq!(defs.to_vecs(0), vec![vec![4], vec![2, 6]]);
    }

    #[test]
    fn simplifying_drops_false_bodies_and_true_literals() {
        let mut defs = Defs::from_vecs(&[vec![vec![2, 4], vec![6, 8]]]);
        // 4 is true, 8 is false.
        let changed = defs.simplify(0, |l| match l {
            4 => Some(true),
            8 => Some(false),
            _ => None,
        });
        assert!(changed);
        assert_eq!(defs.to_vecs(0), vec![vec![2]]);
        assert!(!defs.simplify(0, |_| None));
        defs.make_true(0);
        assert_eq!(defs.to_vecs(0), vec![Vec::<Lit>::new()]);
    }

    #[test]
    fn equal_definitions_hash_alike() {
        let mut defs = Defs::from_vecs(&[vec![vec![2, 4]], vec![vec![4, 2]], vec![vec![2, 6]]]);
        defs.normalize(1, 256);
        assert!(defs.same(0, 1) && !defs.same(0, 2));
        assert_eq!(defs.hash_of(0), defs.hash_of(1));
        assert!(defs.map_literals(2, |l| if l == 6 { 4 } else { l }));
        assert!(defs.same(0, 2));
    }
}
