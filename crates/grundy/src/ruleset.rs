use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::{HeapGame, MOORE_MAX_K};

/// Every rule set bouton plays, by name: what a front-end lists, parses
/// from a command line or a URL, and builds games from.
///
/// The text form (`id`) is what `--rules` takes: `nim`, `subtraction:2,3,7`,
/// `all-but:1,2`, `take-limit:3`, `moore:2`, `wythoff`, `kayles`,
/// `dawsons-kayles`, `octal:0.137` (or just the code, `0.137`), `grundy`,
/// `lasker`, `staircase`, `northcott`, `fibonacci`.
///
/// ```
/// use bouton_grundy::RuleSet;
///
/// let set: RuleSet = "subtraction:2,3,7".parse()?;
/// assert_eq!(set.name(), "the subtraction game S = {2, 3, 7}");
/// assert_eq!(set.heap_game().unwrap().to_string(), "0.0330003");
/// assert_eq!("0.77".parse::<RuleSet>()?, RuleSet::Kayles);
/// assert_eq!("Grundys-Game".parse::<RuleSet>()?.to_string(), "grundy");
/// assert!(RuleSet::catalog().iter().any(|entry| entry.id == "northcott"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// Nim: take any number from one heap.
    Nim,
    /// Take exactly one of the amounts in the set from one heap.
    Subtraction(Vec<u64>),
    /// Take any number except those in the set from one heap.
    AllBut(Vec<u64>),
    /// Take 1 up to the limit from one heap.
    TakeLimit(u64),
    /// Moore's Nim_k: take from up to k heaps at once.
    Moore(u64),
    /// Wythoff's game on pairs of piles.
    Wythoff,
    /// Kayles, 0.77.
    Kayles,
    /// Dawson's Kayles, 0.07.
    DawsonsKayles,
    /// Any octal (or take-and-break) code.
    Octal(HeapGame),
    /// Grundy's game, 4!.0.
    Grundy,
    /// Lasker's Nim, 4.3….
    Lasker,
    /// Staircase Nim.
    Staircase,
    /// Northcott's game.
    Northcott,
    /// Fibonacci Nim.
    Fibonacci,
    /// Chomp on a rectangular bar.
    Chomp,
}

/// One line of [`RuleSet::catalog`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CatalogEntry {
    /// What `--rules` takes (parameterised sets show an example).
    pub id: String,
    /// The name for people.
    pub name: String,
    /// The rules in one sentence.
    pub rules: String,
    /// How a position is written, as numbers.
    pub position: &'static str,
    /// A good start.
    pub start: Vec<u64>,
}

/// Why a text is not a rule set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleSetError {
    /// Not a known name or code.
    #[error(
        "unknown rule set {given:?}: choose nim, subtraction:2,3,7, all-but:1,2, take-limit:3, moore:2, wythoff, \
         kayles, dawsons-kayles, octal:0.137 (or any code like 0.137 or 4!.0), grundy, lasker, staircase, \
         northcott, fibonacci or chomp"
    )]
    Unknown {
        /// The text.
        given: String,
    },
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
    /// One of each rule set, parameterised ones with an example parameter.
    pub fn examples() -> Vec<RuleSet> {
        vec![
            RuleSet::Nim,
            RuleSet::Subtraction(vec![2, 3, 7]),
            RuleSet::AllBut(vec![1, 2]),
            RuleSet::TakeLimit(3),
            RuleSet::Moore(2),
            RuleSet::Wythoff,
            RuleSet::Kayles,
            RuleSet::DawsonsKayles,
            RuleSet::Octal("0.137".parse().expect("a valid code")),
            RuleSet::Grundy,
            RuleSet::Lasker,
            RuleSet::Staircase,
            RuleSet::Northcott,
            RuleSet::Fibonacci,
            RuleSet::Chomp,
        ]
    }

    /// Every rule set with its name, rules, position format and a start:
    /// what a front-end needs to offer a choice.
    pub fn catalog() -> Vec<CatalogEntry> {
        RuleSet::examples()
            .into_iter()
            .map(|set| CatalogEntry {
                id: set.to_string(),
                name: set.name(),
                rules: set.rules(),
                position: set.position_format(),
                start: set.default_start(),
            })
            .collect()
    }

    /// The heap game behind a heap-based rule set (`None` for Moore's Nim,
    /// Wythoff, staircase, Northcott and Fibonacci Nim).
    pub fn heap_game(&self) -> Option<HeapGame> {
        match self {
            RuleSet::Nim => Some(HeapGame::nim()),
            RuleSet::Subtraction(set) => HeapGame::subtraction(set).ok(),
            RuleSet::AllBut(set) => HeapGame::all_but(set).ok(),
            RuleSet::TakeLimit(k) => HeapGame::take_limit(*k).ok(),
            RuleSet::Kayles => Some(HeapGame::kayles()),
            RuleSet::DawsonsKayles => Some(HeapGame::dawsons_kayles()),
            RuleSet::Octal(game) => Some(game.clone()),
            RuleSet::Grundy => Some(HeapGame::grundys_game()),
            RuleSet::Lasker => Some(HeapGame::laskers_nim()),
            RuleSet::Moore(_)
            | RuleSet::Wythoff
            | RuleSet::Staircase
            | RuleSet::Northcott
            | RuleSet::Fibonacci
            | RuleSet::Chomp => None,
        }
    }

    /// The name for people.
    pub fn name(&self) -> String {
        let list = |set: &[u64]| set.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        match self {
            RuleSet::Nim => "Nim".to_owned(),
            RuleSet::Subtraction(set) => format!("the subtraction game S = {{{}}}", list(set)),
            RuleSet::AllBut(set) => format!("the all-but subtraction game (any amount but {})", list(set)),
            RuleSet::TakeLimit(k) => format!("Nim with a take limit of {k}"),
            RuleSet::Moore(k) => format!("Moore's Nim_{k}"),
            RuleSet::Wythoff => "Wythoff's game".to_owned(),
            RuleSet::Kayles => "Kayles (0.77)".to_owned(),
            RuleSet::DawsonsKayles => "Dawson's Kayles (0.07)".to_owned(),
            RuleSet::Octal(game) => format!("the octal game {game}"),
            RuleSet::Grundy => "Grundy's game (4!.0)".to_owned(),
            RuleSet::Lasker => "Lasker's Nim".to_owned(),
            RuleSet::Staircase => "staircase Nim".to_owned(),
            RuleSet::Northcott => "Northcott's game".to_owned(),
            RuleSet::Fibonacci => "Fibonacci Nim".to_owned(),
            RuleSet::Chomp => "Chomp".to_owned(),
        }
    }

    /// The rules in one sentence.
    pub fn rules(&self) -> String {
        match self {
            RuleSet::Nim => "take one or more tokens from a single heap".to_owned(),
            RuleSet::Subtraction(set) => format!(
                "take exactly {} tokens from a single heap",
                set.iter().map(u64::to_string).collect::<Vec<_>>().join(" or ")
            ),
            RuleSet::AllBut(set) => format!(
                "take any number of tokens from a single heap except {}",
                set.iter().map(u64::to_string).collect::<Vec<_>>().join(" or ")
            ),
            RuleSet::TakeLimit(k) => format!("take 1 to {k} tokens from a single heap"),
            RuleSet::Moore(k) => {
                format!("take tokens from at least one and at most {k} heaps at once (any number from each)")
            }
            RuleSet::Wythoff => "take any number from one pile of a pair, or the same number from both".to_owned(),
            RuleSet::Kayles => {
                "knock down one pin or two neighbouring pins from a row; a gap splits the row in two".to_owned()
            }
            RuleSet::DawsonsKayles => {
                "knock down two neighbouring pins from a row; a gap splits the row in two".to_owned()
            }
            RuleSet::Octal(game) => crate::rules::heap::describe_code(game),
            RuleSet::Grundy => "split one heap into two heaps of different sizes".to_owned(),
            RuleSet::Lasker => {
                "take one or more tokens from a heap, or split a heap into two non-empty heaps".to_owned()
            }
            RuleSet::Staircase => {
                "move one or more coins from a step down to the step below (from step 1, off the staircase)".to_owned()
            }
            RuleSet::Northcott => "slide your own piece along its row, towards or away from the other piece, \
                                   without jumping over it (White moves first)"
                .to_owned(),
            RuleSet::Fibonacci => "take from the heap: not all of it at the first move, then at most twice \
                                   the previous move"
                .to_owned(),
            RuleSet::Chomp => "bite a square of the bar and eat it with every square above it and to its right; \
                               the bottom-left square is poisoned and never eaten"
                .to_owned(),
        }
    }

    /// How a position is written as numbers.
    pub fn position_format(&self) -> &'static str {
        match self {
            RuleSet::Wythoff => "pairs of pile sizes: 3 5 2 7 is the pairs (3, 5) and (2, 7)",
            RuleSet::Staircase => "coins on steps 1, 2, 3, …",
            RuleSet::Northcott => "rows of three numbers: width, White's column, Black's column",
            RuleSet::Fibonacci => "the heap size",
            RuleSet::Chomp => {
                "column heights from the left, each no taller than the one before (the poisoned square is at the bottom of column 1)"
            }
            _ => "heap sizes",
        }
    }

    /// A good start for a game.
    pub fn default_start(&self) -> Vec<u64> {
        match self {
            RuleSet::Nim | RuleSet::Moore(_) => vec![3, 5, 7],
            RuleSet::Subtraction(_) | RuleSet::AllBut(_) | RuleSet::TakeLimit(_) => {
                vec![10, 15, 20]
            }
            RuleSet::Wythoff => vec![7, 10],
            RuleSet::Kayles | RuleSet::DawsonsKayles | RuleSet::Octal(_) => vec![7, 11],
            RuleSet::Grundy => vec![10, 13],
            RuleSet::Lasker => vec![3, 5, 7],
            RuleSet::Staircase => vec![3, 0, 5, 2],
            RuleSet::Northcott => vec![8, 1, 6, 8, 3, 8, 8, 2, 5],
            RuleSet::Fibonacci => vec![20],
            RuleSet::Chomp => vec![4; 7],
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |set: &[u64]| set.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        match self {
            RuleSet::Nim => f.write_str("nim"),
            RuleSet::Subtraction(set) => write!(f, "subtraction:{}", list(set)),
            RuleSet::AllBut(set) => write!(f, "all-but:{}", list(set)),
            RuleSet::TakeLimit(k) => write!(f, "take-limit:{k}"),
            RuleSet::Moore(k) => write!(f, "moore:{k}"),
            RuleSet::Wythoff => f.write_str("wythoff"),
            RuleSet::Kayles => f.write_str("kayles"),
            RuleSet::DawsonsKayles => f.write_str("dawsons-kayles"),
            RuleSet::Octal(game) => write!(f, "octal:{game}"),
            RuleSet::Grundy => f.write_str("grundy"),
            RuleSet::Lasker => f.write_str("lasker"),
            RuleSet::Staircase => f.write_str("staircase"),
            RuleSet::Northcott => f.write_str("northcott"),
            RuleSet::Fibonacci => f.write_str("fibonacci"),
            RuleSet::Chomp => f.write_str("chomp"),
        }
    }
}

fn amounts(given: &str, text: &str) -> Result<Vec<u64>, RuleSetError> {
    let bad = |problem: &str| RuleSetError::BadParameter { given: given.to_owned(), problem: problem.to_owned() };
    let inner = text.trim().trim_start_matches(['{', '(']).trim_end_matches(['}', ')']);
    let mut set = Vec::new();
    for word in inner.split([',', ' ']).filter(|w| !w.is_empty()) {
        let n: u64 = word.parse().map_err(|_| bad("amounts are whole numbers separated by commas, like 2,3,7"))?;
        if n == 0 || n > crate::MAX_DIGITS as u64 {
            return Err(bad(&format!("amounts go from 1 to {}", crate::MAX_DIGITS)));
        }
        set.push(n);
    }
    if set.is_empty() {
        return Err(bad("give at least one amount, like 2,3,7"));
    }
    set.sort_unstable();
    set.dedup();
    Ok(set)
}

impl FromStr for RuleSet {
    type Err = RuleSetError;

    fn from_str(text: &str) -> Result<RuleSet, RuleSetError> {
        let given = text.trim();
        let lower = given.to_ascii_lowercase().replace(['_', ' '], "-").replace('\'', "");
        let (name, parameter) = match lower.split_once([':', '=']) {
            Some((name, parameter)) => (name.to_owned(), Some(parameter.to_owned())),
            None => match lower.find(['{', '(']) {
                Some(at) if at > 0 => (lower[..at].to_owned(), Some(lower[at..].to_owned())),
                _ => (lower.clone(), None),
            },
        };
        let number = |what: &str, low: u64, high: u64| -> Result<u64, RuleSetError> {
            let bad = || RuleSetError::BadParameter {
                given: given.to_owned(),
                problem: format!("{what} is a whole number from {low} to {high}, like {name}:{low}"),
            };
            let value: u64 = parameter.as_deref().ok_or_else(bad)?.trim().parse().map_err(|_| bad())?;
            if (low..=high).contains(&value) { Ok(value) } else { Err(bad()) }
        };
        let set = match (name.as_str(), parameter.as_deref()) {
            ("nim", None) => RuleSet::Nim,
            ("subtraction" | "sub" | "s", Some(p)) => RuleSet::Subtraction(amounts(given, p)?),
            ("all-but" | "allbut", Some(p)) => RuleSet::AllBut(amounts(given, p)?),
            ("take-limit" | "nim-limit" | "limit", _) => {
                RuleSet::TakeLimit(number("the limit", 1, crate::MAX_DIGITS as u64)?)
            }
            ("moore" | "moores-nim" | "nim-k", _) => RuleSet::Moore(number("k", 1, MOORE_MAX_K as u64)?),
            ("wythoff" | "wythoffs-game", None) => RuleSet::Wythoff,
            ("kayles", None) => RuleSet::Kayles,
            ("dawsons-kayles" | "dawson" | "dawsons", None) => RuleSet::DawsonsKayles,
            ("grundy" | "grundys-game", None) => RuleSet::Grundy,
            ("lasker" | "laskers-nim", None) => RuleSet::Lasker,
            ("staircase" | "staircase-nim", None) => RuleSet::Staircase,
            ("northcott" | "northcotts-game", None) => RuleSet::Northcott,
            ("fibonacci" | "fibonacci-nim", None) => RuleSet::Fibonacci,
            ("chomp", None) => RuleSet::Chomp,
            ("octal", Some(code)) => RuleSet::from_code(given, code)?,
            _ if given.contains('.') && given.starts_with(|c: char| c.is_ascii_digit()) => {
                RuleSet::from_code(given, given)?
            }
            _ => {
                return Err(RuleSetError::Unknown { given: given.to_owned() });
            }
        };
        Ok(set)
    }
}

impl RuleSet {
    /// The rule set of a code, recognising the named games.
    fn from_code(given: &str, code: &str) -> Result<RuleSet, RuleSetError> {
        let game: HeapGame = code.parse().map_err(|e: crate::CodeError| RuleSetError::BadParameter {
            given: given.to_owned(),
            problem: e.to_string(),
        })?;
        Ok(if game == HeapGame::kayles() {
            RuleSet::Kayles
        } else if game == HeapGame::dawsons_kayles() {
            RuleSet::DawsonsKayles
        } else if game == HeapGame::grundys_game() {
            RuleSet::Grundy
        } else if game == HeapGame::laskers_nim() {
            RuleSet::Lasker
        } else if game == HeapGame::nim() {
            RuleSet::Nim
        } else {
            RuleSet::Octal(game)
        })
    }
}
