//! Interned symbols. Game managers spell the same rules in upper or lower case
//! (the Dresden GameController upper-cases everything), so a symbol's identity
//! ignores ASCII case, while its spelling — the first one seen — is kept for
//! printing: moves are answered as the manager spells them.

use std::collections::{BTreeMap, HashMap};

/// An interned symbol (constant, function or relation name, or variable).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Sym(pub(crate) u32);

/// The GDL keywords, interned first so that their ids are these constants.
pub(crate) mod kw {
    use super::Sym;
    pub(crate) const ROLE: Sym = Sym(0);
    pub(crate) const INIT: Sym = Sym(1);
    pub(crate) const TRUE: Sym = Sym(2);
    pub(crate) const DOES: Sym = Sym(3);
    pub(crate) const NEXT: Sym = Sym(4);
    pub(crate) const LEGAL: Sym = Sym(5);
    pub(crate) const GOAL: Sym = Sym(6);
    pub(crate) const TERMINAL: Sym = Sym(7);
    pub(crate) const BASE: Sym = Sym(8);
    pub(crate) const INPUT: Sym = Sym(9);
    pub(crate) const DISTINCT: Sym = Sym(10);
    pub(crate) const NOT: Sym = Sym(11);
    pub(crate) const OR: Sym = Sym(12);
    pub(crate) const RULE: Sym = Sym(13);
    /// Spellings, in id order.
    pub(crate) const NAMES: [&str; 14] = [
        "role", "init", "true", "does", "next", "legal", "goal", "terminal", "base", "input", "distinct", "not", "or",
        "<=",
    ];
    /// Every keyword, connectives included.
    pub(crate) fn is_keyword(s: Sym) -> bool {
        s.0 <= RULE.0
    }
}

/// The symbol table of one game: case-insensitive identity, first spelling kept.
#[derive(Debug, Clone)]
pub(crate) struct Symbols {
    spellings: Vec<Box<str>>,
    ids: HashMap<Box<str>, Sym>,
    /// The first other spelling seen of each constant written in more than
    /// one letter case (keywords and variables aside), for the validator's
    /// warning.
    other_spellings: BTreeMap<Sym, Box<str>>,
}

impl Default for Symbols {
    fn default() -> Self {
        let mut symbols = Symbols { spellings: Vec::new(), ids: HashMap::new(), other_spellings: BTreeMap::new() };
        for name in kw::NAMES {
            symbols.intern(name);
        }
        symbols
    }
}

impl Symbols {
    /// The symbol spelled `name` (in any case), created if new.
    pub(crate) fn intern(&mut self, name: &str) -> Sym {
        let found = match self.ids.get(name) {
            Some(&sym) => Some(sym),
            None => self.ids.get(name.to_ascii_lowercase().as_str()).copied(),
        };
        if let Some(sym) = found {
            if sym.0 as usize >= kw::NAMES.len() && !name.starts_with('?') && *self.spellings[sym.0 as usize] != *name {
                self.other_spellings.entry(sym).or_insert_with(|| name.into());
            }
            return sym;
        }
        let folded = name.to_ascii_lowercase();
        let sym = Sym(u32::try_from(self.spellings.len()).expect("fewer than 2^32 symbols"));
        self.spellings.push(name.into());
        self.ids.insert(folded.into_boxed_str(), sym);
        sym
    }

    /// The symbol spelled `name` (in any case), if it exists.
    #[cfg(test)]
    pub(crate) fn lookup(&self, name: &str) -> Option<Sym> {
        self.ids.get(name).or_else(|| self.ids.get(name.to_ascii_lowercase().as_str())).copied()
    }

    /// A symbol that no parsed text can produce (it contains a space), for
    /// helper relations the reasoner introduces.
    pub(crate) fn fresh(&mut self, hint: &str) -> Sym {
        let name = format!("{hint} {}", self.spellings.len());
        self.intern(&name)
    }

    /// Constants written in more than one letter case: each one's first
    /// spelling and the first other spelling seen.
    pub(crate) fn mixed_case(&self) -> impl Iterator<Item = (&str, &str)> {
        self.other_spellings.iter().map(|(&sym, other)| (self.name(sym), &**other))
    }

    /// The spelling of `sym`.
    pub(crate) fn name(&self, sym: Sym) -> &str {
        &self.spellings[sym.0 as usize]
    }

    /// The integer `sym` spells, if it is one from 0 to 100 (a goal value).
    pub(crate) fn goal_value(&self, sym: Sym) -> Option<u8> {
        let name = self.name(sym);
        if name.is_empty() || name.len() > 3 || !name.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        name.parse::<u8>().ok().filter(|v| *v <= 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_ignores_case_and_keeps_the_first_spelling() {
        let mut symbols = Symbols::default();
        let a = symbols.intern("REDUCE");
        assert_eq!(symbols.intern("reduce"), a);
        assert_eq!(symbols.name(a), "REDUCE");
        assert_eq!(symbols.intern("Legal"), kw::LEGAL);
        assert_eq!(symbols.lookup("rEdUcE"), Some(a));
        assert_eq!(symbols.lookup("nothing"), None);
    }

    #[test]
    fn goal_values_are_integers_up_to_100() {
        let mut symbols = Symbols::default();
        let cases = [("0", Some(0)), ("100", Some(100)), ("101", None), ("5a", None), ("-1", None), ("0050", None)];
        for (text, expected) in cases {
            let sym = symbols.intern(text);
            assert_eq!(symbols.goal_value(sym), expected, "{text}");
        }
    }
}
