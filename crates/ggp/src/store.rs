//! Hash-consed ground terms: every distinct ground term is stored once and
//! named by a [`TermId`], so equality is a comparison of integers.

use std::hash::Hasher;

use crate::hash::WordHasher;
use crate::symbol::{Sym, Symbols};
use crate::term::Term;

/// A ground term in a [`TermStore`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct TermId(pub(crate) u32);

/// The shape of a stored term.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Node<'a> {
    Sym(Sym),
    App(Sym, &'a [TermId]),
}

/// A relation (or function) key: the name and the number of arguments, with
/// [`Pred::PROPOSITION`] for a bare symbol (different from `(p)`, arity 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Pred {
    pub(crate) name: Sym,
    pub(crate) arity: u32,
}

impl Pred {
    pub(crate) const PROPOSITION: u32 = u32::MAX;

    pub(crate) fn new(name: Sym, arity: usize) -> Pred {
        Pred { name, arity: u32::try_from(arity).expect("fewer than 2^32 arguments") }
    }

    pub(crate) fn proposition(name: Sym) -> Pred {
        Pred { name, arity: Pred::PROPOSITION }
    }
}

/// One stored term: its name and where its arguments lie in the shared
/// argument array (`len` is [`Entry::CONSTANT`] for a constant).
#[derive(Debug, Clone, Copy)]
struct Entry {
    name: Sym,
    start: u32,
    len: u32,
}

impl Entry {
    const CONSTANT: u32 = u32::MAX;
}

/// The store: terms in one array, their arguments in another, and an
/// open-addressing hash table of term ids (no allocation per term, and a
/// lookup that needs no key built).
#[derive(Debug, Clone, Default)]
pub(crate) struct TermStore {
    entries: Vec<Entry>,
    args: Vec<TermId>,
    /// Term ids by hash, each with the high half of its hash above it (so
    /// that most mismatches are seen without reading the term), [`EMPTY`]
    /// where free; a power of two long, at most half full.
    table: Vec<u64>,
}

const EMPTY: u64 = u64::MAX;

fn hash_of(name: Sym, args: Option<&[TermId]>) -> u64 {
    let mut h = WordHasher::default();
    h.write_u32(name.0);
    match args {
        None => h.write_u32(u32::MAX),
        Some(args) => {
            h.write_u32(args.len() as u32);
            for a in args {
                h.write_u32(a.0);
            }
        }
    }
    h.finish()
}

impl TermStore {
    fn entry_args(&self, e: Entry) -> Option<&[TermId]> {
        (e.len != Entry::CONSTANT).then(|| &self.args[e.start as usize..(e.start + e.len) as usize])
    }

    /// The id of the term, or the free slot of the table where it belongs.
    fn slot(&self, name: Sym, args: Option<&[TermId]>) -> Result<TermId, usize> {
        if self.table.is_empty() {
            return Err(usize::MAX);
        }
        let mask = self.table.len() - 1;
        let hash = hash_of(name, args);
        let tag = hash >> 32;
        let mut i = hash as usize & mask;
        loop {
            let slot = self.table[i];
            if slot == EMPTY {
                return Err(i);
            }
            if slot >> 32 == tag {
                let id = slot as u32;
                let e = self.entries[id as usize];
                if e.name == name && self.entry_args(e) == args {
                    return Ok(TermId(id));
                }
            }
            i = (i + 1) & mask;
        }
    }

    fn intern(&mut self, name: Sym, args: Option<&[TermId]>) -> TermId {
        let mut slot = match self.slot(name, args) {
            Ok(id) => return id,
            Err(slot) => slot,
        };
        if (self.entries.len() + 1) * 2 > self.table.len() {
            self.grow();
            slot = self.slot(name, args).expect_err("the term is new");
        }
        let id = u32::try_from(self.entries.len()).ok().filter(|&id| id != u32::MAX).expect("fewer than 2^32 terms");
        let entry = match args {
            None => Entry { name, start: 0, len: Entry::CONSTANT },
            Some(args) => {
                let start = u32::try_from(self.args.len()).expect("fewer than 2^32 arguments in all");
                self.args.extend_from_slice(args);
                Entry { name, start, len: args.len() as u32 }
            }
        };
        self.entries.push(entry);
        self.table[slot] = (hash_of(name, args) >> 32) << 32 | u64::from(id);
        TermId(id)
    }

    fn grow(&mut self) {
        let size = (self.table.len() * 2).max(64);
        self.table = vec![EMPTY; size];
        let mask = size - 1;
        for (id, &e) in self.entries.iter().enumerate() {
            let hash = hash_of(e.name, self.entry_args(e));
            let mut i = hash as usize & mask;
            while self.table[i] != EMPTY {
                i = (i + 1) & mask;
            }
            self.table[i] = (hash >> 32) << 32 | id as u64;
        }
    }

    /// The number of terms interned.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The constant `sym`.
    pub(crate) fn sym(&mut self, sym: Sym) -> TermId {
        self.intern(sym, None)
    }

    /// `(name args…)`.
    pub(crate) fn app(&mut self, name: Sym, args: &[TermId]) -> TermId {
        self.intern(name, Some(args))
    }

    /// The id of an existing term, without creating it.
    pub(crate) fn find(&self, node: &Node<'_>) -> Option<TermId> {
        match *node {
            Node::Sym(s) => self.slot(s, None).ok(),
            Node::App(name, args) => self.slot(name, Some(args)).ok(),
        }
    }

    /// The shape of `id`.
    pub(crate) fn node(&self, id: TermId) -> Node<'_> {
        let e = self.entries[id.0 as usize];
        match self.entry_args(e) {
            None => Node::Sym(e.name),
            Some(args) => Node::App(e.name, args),
        }
    }

    /// The arguments of `id` (none for a constant).
    pub(crate) fn args(&self, id: TermId) -> &[TermId] {
        match self.node(id) {
            Node::Sym(_) => &[],
            Node::App(_, args) => args,
        }
    }

    /// The relation key of `id` read as a sentence.
    pub(crate) fn pred(&self, id: TermId) -> Pred {
        match self.node(id) {
            Node::Sym(s) => Pred::proposition(s),
            Node::App(s, args) => Pred::new(s, args.len()),
        }
    }

    /// The term for the outside world, spelled as in `symbols`.
    pub(crate) fn to_term(&self, id: TermId, symbols: &Symbols) -> Term {
        match self.node(id) {
            Node::Sym(s) => Term::Symbol(symbols.name(s).to_string()),
            Node::App(s, args) => {
                Term::Compound(symbols.name(s).to_string(), args.iter().map(|a| self.to_term(*a, symbols)).collect())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_terms_share_an_id() {
        let mut symbols = Symbols::default();
        let mut store = TermStore::default();
        let (f, a) = (symbols.intern("f"), symbols.intern("a"));
        let ta = store.sym(a);
        let x = store.app(f, &[ta, ta]);
        assert_eq!(store.app(f, &[ta, ta]), x);
        assert_ne!(store.app(f, &[]), store.sym(f));
        assert_eq!(store.to_term(x, &symbols).to_string(), "(f a a)");
        assert_eq!(store.pred(x), Pred::new(f, 2));
    }
}
