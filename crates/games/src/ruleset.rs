use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::game::{Game, RuleName};
use crate::registry::{Kind, dispatch, each_game};
use crate::{BoardKind, HeapGame, MoveShape};

/// A rule set by name, its parameters checked: what a front-end lists,
/// parses from a command line or a URL, and builds games from (with a
/// convention, as [`crate::AnyRules`]). It can only be made by reading a
/// name ([`FromStr`]) or from the catalogue ([`RuleSet::examples`]), so it
/// is always valid.
///
/// The text form (`id`) is what `--rules` takes: `nim`, `subtraction:2,3,7`,
/// `all-but:1,2`, `take-limit:3`, `moore:2`, `wythoff`, `kayles`,
/// `dawsons-kayles`, `octal:0.137` (or just the code, `0.137`), `grundy`,
/// `lasker`, `staircase`, `northcott`, `fibonacci`, `chomp`.
///
/// ```
/// use bouton_games::RuleSet;
///
/// let set: RuleSet = "subtraction:2,3,7".parse()?;
/// assert_eq!(set.name(), "the subtraction game S = {2, 3, 7}");
/// assert_eq!(set.heap_game().unwrap().to_string(), "0.0330003");
/// assert_eq!("0.77".parse::<RuleSet>()?, "kayles".parse()?);
/// assert_eq!("Grundys-Game".parse::<RuleSet>()?.to_string(), "grundy");
/// assert!(RuleSet::catalog().iter().any(|entry| entry.id == "northcott"));
/// assert!("moore:0".parse::<RuleSet>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSet(pub(crate) Kind);

/// One line of [`RuleSet::catalog`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CatalogEntry {
    /// What `--rules` takes (parameterised sets show an example).
    pub id: String,
    /// The name for people.
    pub name: String,
    /// The family's name, without the parameter: what a list of the rule
    /// sets shows ("the subtraction game (a set S of amounts)").
    pub family_name: String,
    /// The rules in one sentence.
    pub rules: String,
    /// How a position is written, as numbers.
    pub position: &'static str,
    /// A good start.
    pub start: Vec<u64>,
    /// How its positions are drawn.
    pub board: BoardKind,
}

/// Why a text is not a rule set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleSetError {
    /// Not a known name or code.
    #[error("unknown rule set {given:?}: choose {}", RuleSet::choices())]
    Unknown {
        /// The text.
        given: String,
    },
    /// A take-and-break code that is not right (the error names the code).
    #[error(transparent)]
    BadCode(#[from] bouton_grundy::CodeError),
    /// A parameter that is not right.
    #[error("{given:?}: {problem}")]
    BadParameter {
        /// The text.
        given: String,
        /// What is wrong.
        problem: String,
    },
}

impl RuleSet {
    /// One of each rule set, parameterised ones with an example parameter,
    /// Nim first.
    pub fn examples() -> Vec<RuleSet> {
        Kind::examples().into_iter().map(RuleSet).collect()
    }

    /// The names to choose from, for messages: "nim, subtraction:2,3,7, …
    /// or chomp".
    fn choices() -> String {
        let ids: Vec<String> = RuleSet::examples().iter().map(RuleSet::to_string).collect();
        match ids.split_last() {
            Some((last, rest)) => format!("{} or {last} (any octal code like 0.137 or 4!.0 too)", rest.join(", ")),
            None => String::new(),
        }
    }

    /// Every rule set with its name, rules, position format, a start and
    /// its board: what a front-end needs to offer a choice.
    pub fn catalog() -> Vec<CatalogEntry> {
        RuleSet::examples().iter().map(RuleSet::catalog_entry).collect()
    }

    /// This rule set's entry as [`RuleSet::catalog`] gives it: its name,
    /// rules, position format, a start and its board.
    ///
    /// ```
    /// use bouton_games::RuleSet;
    ///
    /// let entry: RuleSet = "octal:0.F".parse()?;
    /// assert_eq!(entry.catalog_entry().name, "the hexadecimal game 0.F");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn catalog_entry(&self) -> CatalogEntry {
        CatalogEntry {
            id: self.to_string(),
            name: self.name(),
            family_name: self.family_name(),
            rules: self.rules(),
            position: self.position_format(),
            start: self.default_start(),
            board: self.board_kind(),
        }
    }

    /// The heap game behind a heap-based rule set (`None` for the others).
    pub fn heap_game(&self) -> Option<HeapGame> {
        dispatch!(&self.0, g => g.heap_game())
    }

    /// The name for people.
    pub fn name(&self) -> String {
        dispatch!(&self.0, g => g.name())
    }

    /// The name of the family, without the parameter (the name itself for
    /// rule sets that take none).
    ///
    /// ```
    /// use bouton_games::RuleSet;
    ///
    /// let octal: RuleSet = "octal:0.137".parse()?;
    /// assert_eq!(octal.family_name(), "an octal or hexadecimal game (any code)");
    /// let kayles: RuleSet = "kayles".parse()?;
    /// assert_eq!(kayles.family_name(), kayles.name());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn family_name(&self) -> String {
        dispatch!(&self.0, g => g.family_name())
    }

    /// The rules in one sentence.
    pub fn rules(&self) -> String {
        dispatch!(&self.0, g => g.summary())
    }

    /// How a position is written as numbers.
    pub fn position_format(&self) -> &'static str {
        dispatch!(&self.0, g => g.position_format())
    }

    /// A good start for a game.
    pub fn default_start(&self) -> Vec<u64> {
        dispatch!(&self.0, g => g.default_start())
    }

    /// How positions are drawn.
    pub fn board_kind(&self) -> BoardKind {
        dispatch!(&self.0, g => g.board(&g.position(&g.default_start()).expect("the usual start is valid")).kind())
    }

    /// What one move may do, for pointing at the board.
    pub fn move_shape(&self) -> MoveShape {
        dispatch!(&self.0, g => g.move_shape())
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&dispatch!(&self.0, g => g.id()))
    }
}

impl FromStr for RuleSet {
    type Err = RuleSetError;

    fn from_str(text: &str) -> Result<RuleSet, RuleSetError> {
        Kind::from_name(&RuleName::read(text)).map(RuleSet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_names_leave_out_the_parameter_and_differ_per_family() {
        let entries = RuleSet::catalog();
        for entry in &entries {
            match entry.id.split_once(':') {
                Some((_, parameter)) => {
                    assert!(!entry.family_name.contains(parameter), "{}: {}", entry.id, entry.family_name);
                    assert_ne!(entry.family_name, entry.name, "{}", entry.id);
                }
                None => assert_eq!(entry.family_name, entry.name, "{}", entry.id),
            }
        }
        // Another parameter of the same family keeps the family's name.
        for (one, other) in
            [("subtraction:2,3,7", "subtraction:1,4"), ("octal:0.137", "octal:4.8"), ("moore:2", "moore:3")]
        {
            let (one, other): (RuleSet, RuleSet) = (one.parse().unwrap(), other.parse().unwrap());
            assert_eq!(one.family_name(), other.family_name());
        }
        let mut names: Vec<&str> = entries.iter().map(|e| e.family_name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), entries.len(), "one name per family");
    }
}
