//! A compact copy of a term store: only the terms some part of a program
//! names, renumbered densely into a store of their own.
//!
//! Grounding a large game interns hundreds of thousands of terms (chess: the
//! atoms of 0.6 million ground rules), but the oracle of a hybrid network
//! ([`crate::hybrid`]) reads only the static relations, its rules and the
//! state's atoms. In a store of those only, the hash table it looks derived
//! atoms up in stays in the processor's cache.

use crate::datalog::Model;
use crate::hash::FastMap;
use crate::normalize::{Lit, NRule, Pat};
use crate::store::{Node, Pred, TermId, TermStore};

/// Copies terms of `old` into a fresh store, each once, with its subterms.
pub(crate) struct Compactor<'a> {
    old: &'a TermStore,
    new: TermStore,
    copied: FastMap<TermId, TermId>,
}

impl<'a> Compactor<'a> {
    /// A compactor reading `old`.
    pub(crate) fn new(old: &'a TermStore) -> Compactor<'a> {
        Compactor { old, new: TermStore::default(), copied: FastMap::default() }
    }

    /// The copy of `id`.
    pub(crate) fn term(&mut self, id: TermId) -> TermId {
        if let Some(&copy) = self.copied.get(&id) {
            return copy;
        }
        let copy = match self.old.node(id) {
            Node::Sym(s) => self.new.sym(s),
            Node::App(name, args) => {
                let args: Vec<TermId> = args.iter().map(|&a| self.term(a)).collect();
                self.new.app(name, &args)
            }
        };
        self.copied.insert(id, copy);
        copy
    }

    fn pat(&mut self, p: &Pat) -> Pat {
        match p {
            Pat::Var(v) => Pat::Var(*v),
            Pat::Ground(id) => Pat::Ground(self.term(*id)),
            Pat::App(f, args) => Pat::App(*f, args.iter().map(|a| self.pat(a)).collect()),
        }
    }

    /// The copy of `rule`: its ground terms copied.
    pub(crate) fn rule(&mut self, rule: &NRule) -> NRule {
        let body = rule
            .body
            .iter()
            .map(|l| match l {
                Lit::Pos(p) => Lit::Pos(self.pat(p)),
                Lit::Neg(p) => Lit::Neg(self.pat(p)),
                Lit::Distinct(a, b) => Lit::Distinct(self.pat(a), self.pat(b)),
                Lit::Same(a, b) => Lit::Same(self.pat(a), self.pat(b)),
            })
            .collect();
        NRule { head: self.pat(&rule.head), body, vars: rule.vars }
    }

    /// The copy of the relations of `model` that `keep` accepts (indexes
    /// are built again on first use).
    pub(crate) fn model(&mut self, model: &Model, keep: impl Fn(Pred) -> bool) -> Model {
        let mut out = Model::default();
        let mut preds: Vec<Pred> = model.preds().filter(|&p| keep(p)).collect();
        preds.sort_unstable();
        for p in preds {
            for &atom in model.atoms(p) {
                let copy = self.term(atom);
                out.insert(copy, &self.new);
            }
        }
        out
    }

    /// The number of terms copied so far.
    pub(crate) fn len(&self) -> usize {
        self.new.len()
    }

    /// The new store.
    pub(crate) fn finish(self) -> TermStore {
        self.new
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbol::Symbols;

    #[test]
    fn only_the_terms_copied_are_kept_and_equal_terms_stay_equal() {
        let mut symbols = Symbols::default();
        let mut old = TermStore::default();
        let (f, a, b) = (symbols.intern("f"), symbols.intern("a"), symbols.intern("b"));
        let (ta, tb) = (old.sym(a), old.sym(b));
        for i in 0..100 {
            let c = old.sym(symbols.intern(&format!("c{i}")));
            old.app(f, &[c, c]);
        }
        let fab = old.app(f, &[ta, tb]);
        let mut compactor = Compactor::new(&old);
        let copy = compactor.term(fab);
        assert_eq!(compactor.term(fab), copy);
        let new = compactor.finish();
        assert_eq!(new.len(), 3, "f(a, b), a and b");
        assert_eq!(new.to_term(copy, &symbols).to_string(), "(f a b)");
    }
}
