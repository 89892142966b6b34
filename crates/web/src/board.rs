//! What the page needs to draw a game of any rule set and to build moves:
//! the rules ([`RulesView`]) and the position ([`BoardView`]).

use bouton_grundy::{AnyPosition, AnyRules, CatalogEntry, RuleSet};
use bouton_rules::{Convention, Rules};
use serde::Serialize;

/// How a rule set's position is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Rows of tokens (Nim, heap games, Moore's Nim_k).
    Heaps,
    /// Pairs of piles (Wythoff's game).
    Pairs,
    /// Coins on steps (staircase Nim).
    Stairs,
    /// Rows with two pieces (Northcott's game).
    Rows,
    /// One heap and a limit (Fibonacci Nim).
    Fibonacci,
    /// A grid of squares standing in columns (Chomp).
    Grid,
}

impl Kind {
    /// The kind of a rule set's positions.
    pub fn of(set: &RuleSet) -> Kind {
        match set {
            RuleSet::Wythoff => Kind::Pairs,
            RuleSet::Staircase => Kind::Stairs,
            RuleSet::Northcott => Kind::Rows,
            RuleSet::Fibonacci => Kind::Fibonacci,
            RuleSet::Chomp => Kind::Grid,
            _ => Kind::Heaps,
        }
    }

    /// What one part of a position is called, in the plural.
    pub fn parts(self) -> &'static str {
        match self {
            Kind::Heaps | Kind::Fibonacci => "heaps",
            Kind::Pairs => "pairs",
            Kind::Stairs => "steps",
            Kind::Rows => "rows",
            Kind::Grid => "columns",
        }
    }
}

/// The rules of a game, for the page.
///
/// ```
/// use bouton_grundy::AnyRules;
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
}

impl RulesView {
    /// The view of `rules`.
    pub fn new(rules: &AnyRules) -> RulesView {
        let set = rules.rule_set();
        let game = set.heap_game();
        let digits = game.as_ref().map(|g| g.digits().to_vec()).unwrap_or_default();
        RulesView {
            id: set.to_string(),
            name: set.name(),
            title: rules.title(),
            summary: set.rules(),
            kind: Kind::of(set),
            move_help: rules.move_help(),
            heaps_at_once: if let RuleSet::Moore(k) = set { *k } else { 1 },
            runs: digits.iter().skip(1).any(|d| d & 4 != 0),
            splits: digits.first().is_some_and(|d| d & 4 != 0),
        }
    }
}

/// One row of a Northcott board; columns from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RowView {
    /// Squares in the row.
    pub width: u64,
    /// White's column.
    pub white: u64,
    /// Black's column.
    pub black: u64,
}

/// A position as the page draws it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum BoardView {
    /// Heap sizes.
    Heaps {
        /// Tokens in each heap.
        heaps: Vec<u64>,
    },
    /// Wythoff's pairs of piles.
    Pairs {
        /// Each pair's two piles.
        pairs: Vec<[u64; 2]>,
    },
    /// Coins on steps 1, 2, ….
    Stairs {
        /// Coins on each step, step 1 first.
        steps: Vec<u64>,
    },
    /// A Northcott board.
    Rows {
        /// Whether White (the first player) moves next.
        white_to_move: bool,
        /// The rows.
        rows: Vec<RowView>,
    },
    /// A Fibonacci Nim heap.
    Fibonacci {
        /// Tokens left.
        heap: u64,
        /// The most the next move may take.
        max_take: u64,
    },
    /// A Chomp bar.
    Grid {
        /// The height of each column, column 1 (with the poisoned square at
        /// its bottom) first.
        columns: Vec<u64>,
    },
}

impl BoardView {
    /// The view of `position`.
    ///
    /// ```
    /// use bouton_grundy::AnyRules;
    /// use bouton_rules::Convention;
    /// use bouton_web::board::BoardView;
    ///
    /// let rules = AnyRules::parse("wythoff", Convention::Normal)?;
    /// let board = BoardView::new(&rules.position(&[3, 5, 2, 7])?);
    /// assert_eq!(board, BoardView::Pairs { pairs: vec![[3, 5], [2, 7]] });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(position: &AnyPosition) -> BoardView {
        match position {
            AnyPosition::Heaps(h) => BoardView::Heaps { heaps: h.as_slice().to_vec() },
            AnyPosition::Pairs(p) => BoardView::Pairs { pairs: p.as_slice().iter().map(|&(a, b)| [a, b]).collect() },
            AnyPosition::Stairs(s) => BoardView::Stairs { steps: s.as_slice().to_vec() },
            AnyPosition::Board(b) => BoardView::Rows {
                white_to_move: b.white_to_move(),
                rows: b
                    .rows()
                    .iter()
                    .map(|r| RowView { width: r.width, white: r.white + 1, black: r.black + 1 })
                    .collect(),
            },
            AnyPosition::Fib(f) => BoardView::Fibonacci { heap: f.heap(), max_take: f.max_take() },
            AnyPosition::Bar(b) => BoardView::Grid { columns: b.heights().to_vec() },
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
    RuleSet::examples()
        .into_iter()
        .zip(RuleSet::catalog())
        .map(|(set, CatalogEntry { id, name, rules, position, start })| {
            let (family, parameter) = match id.split_once(':') {
                Some((family, parameter)) => (family.to_owned(), Some(parameter.to_owned())),
                None => (id.clone(), None),
            };
            RuleChoice { kind: Kind::of(&set), id, family, parameter, name, summary: rules, position, start }
        })
        .collect()
}

/// "whoever makes the last move wins" (or loses), in the words of the game.
pub fn last_move_rule(rules: &AnyRules) -> &'static str {
    match (rules.rule_set(), rules.convention()) {
        (RuleSet::Nim, convention) => convention.rule(),
        (_, Convention::Normal) => "whoever makes the last move wins",
        (_, Convention::Misere) => "whoever makes the last move loses",
    }
}
