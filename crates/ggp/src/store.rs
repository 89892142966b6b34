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

/// How many arguments a term's [`Entry`] holds itself; a term of more has
/// them in the store's shared argument array.
const INLINE: usize = 6;

/// One stored term: its name, its number of arguments (`len`,
/// [`Entry::CONSTANT`] for a constant) and, up to [`INLINE`] of them, its
/// arguments, so that reading a term (its name and arguments, as a lookup
/// checking a candidate does) touches one cache line: an entry is 32 bytes,
/// aligned to 32. A term of more arguments has in `args[0]` where they
/// start in the shared array.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(32))]
struct Entry {
    name: Sym,
    len: u32,
    args: [TermId; INLINE],
}

impl Entry {
    const CONSTANT: u32 = u32::MAX;
}

/// The store: terms in one array (with their arguments, up to [`INLINE`]),
/// the arguments of longer ones in another, and an open-addressing hash
/// table of term ids (no allocation per term, and a lookup that needs no
/// key built).
///
/// A store can be [frozen](TermStore::freeze): the terms interned after
/// that are *scratch* terms, in a small table of their own, forgotten
/// together by [`TermStore::clear_scratch`]. A hybrid network's oracle
/// ([`crate::hybrid`]) evaluates its rules state after state in a store of
/// 131,419 terms (chess); the few thousand atoms one state derives were
/// each looked up in the large table (a cache miss, a fifth of the
/// oracle's time), and every atom new to the store stayed in it for good.
/// Frozen, a term whose name no frozen term has (a relation only derived,
/// such as a demand relation) is looked up in the scratch table only, and
/// the store stays as large as it was.
#[derive(Debug, Clone, Default)]
pub(crate) struct TermStore {
    entries: Vec<Entry>,
    /// The arguments of the terms of more than [`INLINE`].
    args: Vec<TermId>,
    /// Term ids by hash, each with the high half of its hash above it (so
    /// that most mismatches are seen without reading the term), [`EMPTY`]
    /// where free; a power of two long, at most half full.
    table: Vec<u64>,
    /// Once frozen, the scratch terms.
    scratch: Option<Box<Scratch>>,
}

/// The terms interned since a store was frozen: their entries and
/// arguments follow the frozen ones in the store's arrays.
#[derive(Debug, Clone)]
struct Scratch {
    /// The number of entries and of arguments frozen.
    entries: usize,
    args: usize,
    /// The scratch term ids by hash, as [`TermStore::table`].
    table: Vec<u64>,
    /// By symbol id, whether some frozen term has that name (a term of
    /// another name is not looked for among the frozen ones).
    named: Vec<bool>,
}

/// The size a scratch table starts at.
const SCRATCH_TABLE: usize = 1 << 10;

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
    /// The arguments of the entry `e` (of this store), `None` for a
    /// constant.
    fn entry_args<'a>(&'a self, e: &'a Entry) -> Option<&'a [TermId]> {
        match e.len {
            Entry::CONSTANT => None,
            len if len as usize <= INLINE => Some(&e.args[..len as usize]),
            len => Some(&self.args[e.args[0].0 as usize..][..len as usize]),
        }
    }

    /// The id of the term in `table`, or the free slot where it belongs.
    fn probe(&self, table: &[u64], hash: u64, name: Sym, args: Option<&[TermId]>) -> Result<TermId, usize> {
        if table.is_empty() {
            return Err(usize::MAX);
        }
        let mask = table.len() - 1;
        let tag = hash >> 32;
        let mut i = hash as usize & mask;
        loop {
            let slot = table[i];
            if slot == EMPTY {
                return Err(i);
            }
            if slot >> 32 == tag {
                let id = slot as u32;
                let e = &self.entries[id as usize];
                if e.name == name && self.entry_args(e) == args {
                    return Ok(TermId(id));
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// The id of the term, or the free slot where it belongs in the table
    /// new terms go to (the scratch table once frozen).
    fn slot(&self, hash: u64, name: Sym, args: Option<&[TermId]>) -> Result<TermId, usize> {
        match &self.scratch {
            None => self.probe(&self.table, hash, name, args),
            Some(scratch) => {
                if scratch.named.get(name.0 as usize).copied().unwrap_or(false)
                    && let Ok(id) = self.probe(&self.table, hash, name, args)
                {
                    return Ok(id);
                }
                self.probe(&scratch.table, hash, name, args)
            }
        }
    }

    fn intern(&mut self, name: Sym, args: Option<&[TermId]>) -> TermId {
        let hash = hash_of(name, args);
        let mut slot = match self.slot(hash, name, args) {
            Ok(id) => return id,
            Err(slot) => slot,
        };
        let (held, room) = match &self.scratch {
            None => (self.entries.len(), self.table.len()),
            Some(scratch) => (self.entries.len() - scratch.entries, scratch.table.len()),
        };
        if (held + 1) * 2 > room {
            self.grow();
            slot = self.slot(hash, name, args).expect_err("the term is new");
        }
        let id = u32::try_from(self.entries.len()).ok().filter(|&id| id != u32::MAX).expect("fewer than 2^32 terms");
        let mut entry = Entry { name, len: Entry::CONSTANT, args: [TermId(0); INLINE] };
        if let Some(args) = args {
            entry.len = u32::try_from(args.len()).ok().filter(|&len| len != Entry::CONSTANT).expect("fewer arguments");
            if args.len() <= INLINE {
                entry.args[..args.len()].copy_from_slice(args);
            } else {
                let start = u32::try_from(self.args.len()).expect("fewer than 2^32 arguments in all");
                self.args.extend_from_slice(args);
                entry.args[0] = TermId(start);
            }
        }
        self.entries.push(entry);
        let table = match &mut self.scratch {
            None => &mut self.table,
            Some(scratch) => &mut scratch.table,
        };
        table[slot] = (hash >> 32) << 32 | u64::from(id);
        TermId(id)
    }

    /// Doubles the table new terms go to.
    fn grow(&mut self) {
        let (first, old) = match &self.scratch {
            None => (0, self.table.len()),
            Some(scratch) => (scratch.entries, scratch.table.len()),
        };
        let size = (old * 2).max(64);
        let mut table = vec![EMPTY; size];
        let mask = size - 1;
        for (id, e) in self.entries.iter().enumerate().skip(first) {
            let hash = hash_of(e.name, self.entry_args(e));
            let mut i = hash as usize & mask;
            while table[i] != EMPTY {
                i = (i + 1) & mask;
            }
            table[i] = (hash >> 32) << 32 | id as u64;
        }
        match &mut self.scratch {
            None => self.table = table,
            Some(scratch) => scratch.table = table,
        }
    }

    /// Freezes the terms interned so far: those interned from now on are
    /// scratch terms, until [`TermStore::clear_scratch`] forgets them.
    /// Frozen terms keep their ids.
    ///
    /// ```text
    /// store.freeze();
    /// let atom = store.app(f, &[a]);      // a scratch term
    /// store.clear_scratch();              // `atom` names nothing now
    /// ```
    pub(crate) fn freeze(&mut self) {
        let names = self.entries.iter().map(|e| e.name.0 as usize + 1).max().unwrap_or(0);
        let mut named = vec![false; names];
        for e in &self.entries {
            named[e.name.0 as usize] = true;
        }
        self.scratch = Some(Box::new(Scratch {
            entries: self.entries.len(),
            args: self.args.len(),
            table: vec![EMPTY; SCRATCH_TABLE],
            named,
        }));
    }

    /// Forgets the scratch terms (see [`TermStore::freeze`]): their ids
    /// are given to the next scratch terms. Nothing holding one may be
    /// read afterwards.
    pub(crate) fn clear_scratch(&mut self) {
        let Some(scratch) = &mut self.scratch else { return };
        let held = self.entries.len() - scratch.entries;
        self.entries.truncate(scratch.entries);
        self.args.truncate(scratch.args);
        // A table grown far beyond the terms it held is made small again,
        // so that clearing it stays cheap.
        if scratch.table.len() > SCRATCH_TABLE && scratch.table.len() > held * 16 {
            scratch.table = vec![EMPTY; (held * 4).next_power_of_two().max(SCRATCH_TABLE)];
        } else {
            scratch.table.fill(EMPTY);
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
        let (name, args) = match *node {
            Node::Sym(s) => (s, None),
            Node::App(name, args) => (name, Some(args)),
        };
        self.slot(hash_of(name, args), name, args).ok()
    }

    /// The shape of `id`.
    pub(crate) fn node(&self, id: TermId) -> Node<'_> {
        let e = &self.entries[id.0 as usize];
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

    /// Terms of every length up to past [`INLINE`] (their arguments in the
    /// entry or in the shared array), interned in a random order with
    /// repeats: each reads back as interned, and two are the same id
    /// exactly when a map keyed by name and arguments says they are equal.
    #[test]
    fn terms_of_any_length_read_back_and_share_ids_as_a_map_says() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        use std::collections::HashMap;
        let mut rng = SmallRng::seed_from_u64(5);
        let mut symbols = Symbols::default();
        let mut store = TermStore::default();
        let names: Vec<Sym> = (0..4).map(|i| symbols.intern(&format!("f{i}"))).collect();
        let constants: Vec<TermId> = (0..5).map(|i| store.sym(symbols.intern(&format!("c{i}")))).collect();
        let mut oracle: HashMap<(Sym, Option<Vec<TermId>>), TermId> = HashMap::new();
        let mut made = constants.clone();
        for _ in 0..20_000 {
            let name = names[rng.random_range(0..names.len())];
            let len = rng.random_range(0..=INLINE + 3);
            let args: Vec<TermId> = (0..len).map(|_| made[rng.random_range(0..made.len())]).collect();
            let constant = len == 0 && rng.random_bool(0.5);
            let id = if constant { store.sym(name) } else { store.app(name, &args) };
            let key = (name, (!constant).then(|| args.clone()));
            assert_eq!(*oracle.entry(key).or_insert(id), id, "equal terms, one id; different terms, different ids");
            match store.node(id) {
                Node::Sym(s) => assert!(constant && s == name),
                Node::App(s, read) => assert!(!constant && s == name && read == &args[..]),
            }
            assert_eq!(store.args(id), if constant { &[][..] } else { &args[..] });
            if made.len() < 400 {
                made.push(id);
            }
        }
        assert_eq!(store.len(), oracle.len() + constants.len(), "no term stored twice");
        assert!(oracle.keys().any(|(_, a)| a.as_ref().is_some_and(|a| a.len() > INLINE)), "some terms are long");
    }

    #[test]
    fn scratch_terms_are_found_as_frozen_ones_and_forgotten_together() {
        let mut symbols = Symbols::default();
        let mut store = TermStore::default();
        let (f, g) = (symbols.intern("f"), symbols.intern("g"));
        let constants: Vec<TermId> = (0..300).map(|i| store.sym(symbols.intern(&format!("c{i}")))).collect();
        let frozen: Vec<TermId> = constants.windows(2).map(|w| store.app(f, w)).collect();
        store.freeze();
        let frozen_len = store.len();
        // The exhaustive oracle: a plain store fed the same terms in the
        // same order gives the same ids.
        for round in 0..3 {
            let mut plain = TermStore::default();
            for &c in &constants {
                let Node::Sym(name) = store.node(c) else { unreachable!("a constant") };
                plain.sym(name);
            }
            constants.windows(2).for_each(|w| {
                plain.app(f, w);
            });
            for (i, w) in constants.windows(3).enumerate().skip(round * 7) {
                // Frozen terms keep their ids; new ones (of a frozen name
                // or not) are interned once.
                assert_eq!(store.app(f, &w[..2]), frozen[i]);
                let new_f = store.app(f, &[w[0], w[2]]);
                let new_g = store.app(g, w);
                assert_eq!(store.app(f, &[w[0], w[2]]), new_f);
                assert_eq!(store.app(g, w), new_g);
                assert_eq!(store.find(&Node::App(g, w)), Some(new_g));
                assert_eq!(plain.app(f, &[w[0], w[2]]), new_f, "same order, same ids");
                assert_eq!(plain.app(g, w), new_g);
            }
            assert!(store.len() > frozen_len + 500, "the scratch table grew past its first size");
            store.clear_scratch();
            assert_eq!(store.len(), frozen_len);
            assert_eq!(store.find(&Node::App(g, &constants[..3])), None, "scratch terms are forgotten");
            assert_eq!(store.find(&Node::App(f, &constants[..2])), Some(frozen[0]));
        }
    }
}
