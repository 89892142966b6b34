//! Hash indexes on the atoms of a relation, for joins.
//!
//! A body literal such as `(true (cell ?x ?y b))`, reached when `?x` is bound
//! and `?y` is not, is answered by an index on the *shape* of the literal at
//! that point: the function symbols it requires (`cell` with three
//! arguments), the leaves whose value is known (`?x` and `b`: *keys*) and the
//! leaves that are free (`?y`). The index maps a hash of the key values to
//! the atoms of that shape with those values, in insertion order, so that a
//! join visits only the atoms that can match (a hash collision only adds a
//! candidate, which the match then rejects), and a range of insertion
//! positions — the new atoms of a semi-naive round — is a binary search
//! away.

use std::hash::Hasher;

use crate::hash::{FastMap, WordHasher};
use crate::normalize::Pat;
use crate::store::{Node, TermId, TermStore};
use crate::symbol::Sym;

/// One position of a shape, in preorder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Token {
    /// A function term `(name …)` with this many arguments.
    App(Sym, u32),
    /// A leaf whose value is known when the index is used.
    Key,
    /// A leaf that is not looked at.
    Free,
}

/// The shape of a literal's arguments: what an index on them keys by.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Shape(Box<[Token]>);

impl Shape {
    /// The shape of the arguments `args` of a literal when the variables for
    /// which `bound` holds are bound. A ground subterm is one key.
    pub(crate) fn of(args: &[Pat], bound: &dyn Fn(u16) -> bool) -> Shape {
        fn walk(p: &Pat, bound: &dyn Fn(u16) -> bool, out: &mut Vec<Token>) {
            match p {
                Pat::Var(v) => out.push(if bound(*v) { Token::Key } else { Token::Free }),
                Pat::Ground(_) => out.push(Token::Key),
                Pat::App(name, args) => {
                    out.push(Token::App(*name, args.len() as u32));
                    args.iter().for_each(|a| walk(a, bound, out));
                }
            }
        }
        let mut out = Vec::new();
        args.iter().for_each(|a| walk(a, bound, &mut out));
        Shape(out.into_boxed_slice())
    }

    /// Whether an index of this shape selects anything: it has a key or
    /// requires a function symbol below the top.
    pub(crate) fn selective(&self) -> bool {
        self.0.iter().any(|t| !matches!(t, Token::Free))
    }

    /// The key of `atom` (whose relation has these arguments), or `None` when
    /// the atom does not have the shape.
    fn key_of_atom(&self, store: &TermStore, atom: TermId) -> Option<u64> {
        fn walk(store: &TermStore, t: TermId, tokens: &[Token], at: &mut usize, h: &mut WordHasher) -> bool {
            let token = tokens[*at];
            *at += 1;
            match token {
                Token::Key => {
                    h.write_u32(t.0);
                    true
                }
                Token::Free => true,
                Token::App(name, arity) => match store.node(t) {
                    Node::App(n, args) if n == name && args.len() == arity as usize => {
                        args.iter().all(|&a| walk(store, a, tokens, at, h))
                    }
                    _ => false,
                },
            }
        }
        let mut h = WordHasher::default();
        let mut at = 0;
        let args = store.args(atom);
        args.iter().all(|&a| walk(store, a, &self.0, &mut at, &mut h)).then(|| h.finish())
    }
}

/// The key of the literal arguments `args` under the bindings `b`: the values
/// of its bound variables and ground subterms, in preorder, hashed as
/// [`Shape::key_of_atom`] hashes an atom's. The variables bound in `b` must be
/// those the shape took as bound.
pub(crate) fn key_of_pattern(args: &[Pat], b: &[Option<TermId>]) -> u64 {
    fn walk(p: &Pat, b: &[Option<TermId>], h: &mut WordHasher) {
        match p {
            Pat::Var(v) => {
                if let Some(t) = b[*v as usize] {
                    h.write_u32(t.0);
                }
            }
            Pat::Ground(id) => h.write_u32(id.0),
            Pat::App(_, args) => args.iter().for_each(|a| walk(a, b, h)),
        }
    }
    let mut h = WordHasher::default();
    args.iter().for_each(|a| walk(a, b, &mut h));
    h.finish()
}

/// The atoms with one key: mostly one, so kept inline.
#[derive(Debug, Clone)]
enum Bucket {
    One(u32),
    Many(Vec<u32>),
}

impl Bucket {
    fn as_slice(&self) -> &[u32] {
        match self {
            Bucket::One(x) => std::slice::from_ref(x),
            Bucket::Many(v) => v,
        }
    }

    fn push(&mut self, at: u32) {
        match self {
            Bucket::One(x) => *self = Bucket::Many(vec![*x, at]),
            Bucket::Many(v) => v.push(at),
        }
    }
}

/// An index of one shape on one relation.
#[derive(Debug, Clone)]
pub(crate) struct Index {
    pub(crate) shape: Shape,
    buckets: FastMap<u64, Bucket>,
}

impl Index {
    /// An index of `shape` on the atoms `atoms` (positions are their order).
    pub(crate) fn build(shape: Shape, atoms: &[TermId], store: &TermStore) -> Index {
        let mut index = Index { shape, buckets: FastMap::default() };
        for (at, &atom) in atoms.iter().enumerate() {
            index.add(atom, at as u32, store);
        }
        index
    }

    /// Records `atom`, at position `at` (positions only grow).
    pub(crate) fn add(&mut self, atom: TermId, at: u32, store: &TermStore) {
        if let Some(key) = self.shape.key_of_atom(store, atom) {
            self.buckets.entry(key).and_modify(|b| b.push(at)).or_insert(Bucket::One(at));
        }
    }

    /// Forgets every atom, keeping the memory.
    pub(crate) fn clear(&mut self) {
        self.buckets.clear();
    }

    /// The positions of the atoms with key `key`, ascending.
    pub(crate) fn get(&self, key: u64) -> &[u32] {
        self.buckets.get(&key).map_or(&[], Bucket::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbol::Symbols;

    #[test]
    fn atoms_are_found_by_their_bound_leaves() {
        let mut symbols = Symbols::default();
        let mut store = TermStore::default();
        let (t, cell, control) = (symbols.intern("true"), symbols.intern("cell"), symbols.intern("control"));
        let [a, b, one, two, x] = ["a", "b", "1", "2", "x"].map(|n| {
            let s = symbols.intern(n);
            store.sym(s)
        });
        let c = |store: &mut TermStore, col, row, mark| {
            let inner = store.app(cell, &[col, row, mark]);
            store.app(t, &[inner])
        };
        let atoms = vec![c(&mut store, a, one, x), c(&mut store, a, two, b), c(&mut store, b, one, x), {
            let inner = store.app(control, &[x]);
            store.app(t, &[inner])
        }];
        // (true (cell ?0 ?1 x)) with ?0 bound.
        let pattern = [Pat::App(cell, Box::new([Pat::Var(0), Pat::Var(1), Pat::Ground(x)]))];
        let shape = Shape::of(&pattern, &|v| v == 0);
        assert!(shape.selective());
        let index = Index::build(shape, &atoms, &store);
        assert_eq!(index.get(key_of_pattern(&pattern, &[Some(a), None])), &[0]);
        assert_eq!(index.get(key_of_pattern(&pattern, &[Some(b), None])), &[2]);
        // Only the cells: nothing bound but the shape.
        let shape = Shape::of(&pattern[..], &|_| false);
        let pattern_free = [Pat::App(cell, Box::new([Pat::Var(0), Pat::Var(1), Pat::Var(2)]))];
        let shape_free = Shape::of(&pattern_free, &|_| false);
        assert!(shape.selective() && shape_free.selective());
        let index = Index::build(shape_free, &atoms, &store);
        assert_eq!(index.get(key_of_pattern(&pattern_free, &[None, None, None])), &[0, 1, 2]);
    }
}
