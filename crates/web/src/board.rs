//! What the page needs to draw a game of any rule set and to build moves:
//! the rules ([`RulesView`]) and the position ([`BoardView`]).

use bouton_games::{AnyRules, CatalogEntry, RuleSet};
use serde::Serialize;

/// How a rule set's position is drawn (the library's [`bouton_games::BoardKind`]).
pub use bouton_games::BoardKind as Kind;
pub use bouton_games::{BoardView, RowView};

/// The rules of a game, for the page.
///
/// ```
/// use bouton_games::AnyRules;
/// use bouton_rules::Convention;
/// use bouton_web::board::RulesView;
///
/// let view = RulesView::new(&AnyRules::parse("kayles", Convention::Normal)?);
/// assert_eq!(view.id, "kayles");
/// assert!(view.runs && !view.splits);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Serialize)]
pub struct RulesView {
    /// The rule set's id, as `POST /api/games` takes it.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Name and convention: "Kayles (0.77), normal play".
    pub title: String,
    /// The moves allowed, in one sentence.
    pub summary: String,
    /// How the position is drawn.
    pub kind: Kind,
    /// How to type a move.
    pub move_help: &'static str,
    /// From how many heaps one move may take (k in Moore's Nim_k, else 1).
    pub heaps_at_once: u64,
    /// Whether a move may take tokens from inside a heap, leaving two heaps.
    pub runs: bool,
    /// Whether a heap may be split in two without taking anything.
    pub splits: bool,
    /// Whether a move may take tokens (false in Grundy's game).
    pub takes: bool,
}

impl RulesView {
    /// The view of `rules`.
    pub fn new(rules: &AnyRules) -> RulesView {
        let set = rules.rule_set();
        let shape = rules.move_shape();
        RulesView {
            id: set.to_string(),
            name: set.name(),
            title: rules.title(),
            summary: set.rules(),
            kind: rules.board_kind(),
            move_help: rules.move_help(),
            heaps_at_once: shape.heaps_at_once,
            runs: shape.runs,
            splits: shape.splits,
            takes: shape.takes,
        }
    }
}

/// One rule set on offer: `GET /api/rules`.
#[derive(Debug, Clone, Serialize)]
pub struct RuleChoice {
    /// The id to send (parameterised rule sets with their example parameter).
    pub id: String,
    /// The id without its parameter: "subtraction".
    pub family: String,
    /// The example parameter ("2,3,7"), or null when the rule set has none.
    pub parameter: Option<String>,
    /// The name for people.
    pub name: String,
    /// The family's name, without the parameter: what the list of rule sets
    /// shows ("the subtraction game (a set S of amounts)").
    pub family_name: String,
    /// The moves allowed, in one sentence.
    pub summary: String,
    /// How a position is written as numbers.
    pub position: &'static str,
    /// A good start.
    pub start: Vec<u64>,
    /// How the position is drawn.
    pub kind: Kind,
}

/// Every rule set the browser game offers, Nim first.
///
/// ```
/// let rules = bouton_web::board::catalog();
/// assert_eq!(rules[0].id, "nim");
/// assert!(rules.iter().any(|r| r.family == "subtraction" && r.parameter.as_deref() == Some("2,3,7")));
/// ```
pub fn catalog() -> Vec<RuleChoice> {
    RuleSet::catalog().into_iter().map(RuleChoice::from).collect()
}

impl RuleChoice {
    /// The entry of any rule set, its parameter the one given: what the
    /// setup page shows for a parameter typed there (`GET /api/rules/{rules}`).
    ///
    /// ```
    /// use bouton_web::board::RuleChoice;
    ///
    /// let choice = RuleChoice::of(&"octal:0.F".parse()?);
    /// assert_eq!(choice.name, "the hexadecimal game 0.F");
    /// assert_eq!(choice.summary, "take 1 from a heap, leaving 0 to 3 heaps");
    /// assert_eq!(RuleChoice::of(&"octal:0.77".parse()?).name, "Kayles (0.77)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(set: &RuleSet) -> RuleChoice {
        RuleChoice::from(set.catalog_entry())
    }
}

impl From<CatalogEntry> for RuleChoice {
    fn from(CatalogEntry { id, name, family_name, rules, position, start, board }: CatalogEntry) -> RuleChoice {
        let (family, parameter) = match id.split_once(':') {
            Some((family, parameter)) => (family.to_owned(), Some(parameter.to_owned())),
            None => (id.clone(), None),
        };
        RuleChoice { kind: board, id, family, parameter, name, family_name, summary: rules, position, start }
    }
}

/// "whoever makes the last move wins" (or loses), in the words of the game.
pub fn last_move_rule(rules: &AnyRules) -> &'static str {
    rules.last_move_rule()
}
