//! Hash-consed ground terms: every distinct ground term is stored once and
//! named by a [`TermId`], so equality is a comparison of integers.

use std::collections::HashMap;

use crate::symbol::{Sym, Symbols};
use crate::term::Term;

/// A ground term in a [`TermStore`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct TermId(pub(crate) u32);

/// The shape of a stored term.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Node {
    Sym(Sym),
    App(Sym, Box<[TermId]>),
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

/// The store.
#[derive(Debug, Clone, Default)]
pub(crate) struct TermStore {
    nodes: Vec<Node>,
    ids: HashMap<Node, TermId>,
}

impl TermStore {
    fn intern(&mut self, node: Node) -> TermId {
        if let Some(&id) = self.ids.get(&node) {
            return id;
        }
        let id = TermId(u32::try_from(self.nodes.len()).expect("fewer than 2^32 terms"));
        self.nodes.push(node.clone());
        self.ids.insert(node, id);
        id
    }

    /// The constant `sym`.
    pub(crate) fn sym(&mut self, sym: Sym) -> TermId {
        self.intern(Node::Sym(sym))
    }

    /// `(name args…)`.
    pub(crate) fn app(&mut self, name: Sym, args: &[TermId]) -> TermId {
        self.intern(Node::App(name, args.into()))
    }

    /// The id of an existing term, without creating it.
    pub(crate) fn find(&self, node: &Node) -> Option<TermId> {
        self.ids.get(node).copied()
    }

    pub(crate) fn node(&self, id: TermId) -> &Node {
        &self.nodes[id.0 as usize]
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
            Node::Sym(s) => Pred::proposition(*s),
            Node::App(s, args) => Pred::new(*s, args.len()),
        }
    }

    /// The term for the outside world, spelled as in `symbols`.
    pub(crate) fn to_term(&self, id: TermId, symbols: &Symbols) -> Term {
        match self.node(id) {
            Node::Sym(s) => Term::Symbol(symbols.name(*s).to_string()),
            Node::App(s, args) => {
                Term::Compound(symbols.name(*s).to_string(), args.iter().map(|a| self.to_term(*a, symbols)).collect())
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
