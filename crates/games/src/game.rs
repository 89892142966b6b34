//! The one model of a game: everything bouton's front-ends ask of a rule
//! set, implemented once per game in `games/`, and registered once in
//! `registry.rs`.

use std::fmt;
use std::hash::Hash;

use bouton_analysis::Winner;
use bouton_rules::{Convention, Rules};
use rand::{Rng, RngCore};
use serde::Serialize;

use crate::games::written::Written;
use crate::{Analysis, AnalysisError, BoardView, Budget, HeapGame, MoveParseError, OverBudget, Phrase, PositionError};
use crate::{RandomMove, RuleSetError, Unavailable};

/// A rule set's name as typed, taken apart for [`Game::from_name`]:
/// `Subtraction:2,3,7` is the name `subtraction` with the parameter
/// `2,3,7`.
///
/// ```
/// use bouton_games::RuleName;
///
/// let name = RuleName::read(" Take_Limit:3 ");
/// assert_eq!((name.name.as_str(), name.parameter.as_deref()), ("take-limit", Some("3")));
/// assert_eq!(RuleName::read("subtraction{2,3}").parameter.as_deref(), Some("{2,3}"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleName {
    /// The text as given (trimmed), for messages.
    pub given: String,
    /// The name in lower case, `-` for spaces and underscores, without
    /// apostrophes.
    pub name: String,
    /// What follows `:`, `=`, or an opening brace.
    pub parameter: Option<String>,
}

impl RuleName {
    /// Takes `text` apart.
    pub fn read(text: &str) -> RuleName {
        let given = text.trim();
        let lower = given.to_ascii_lowercase().replace(['_', ' '], "-").replace('\'', "");
        let (name, parameter) = match lower.split_once([':', '=']) {
            Some((name, parameter)) => (name.to_owned(), Some(parameter.to_owned())),
            None => match lower.find(['{', '(']) {
                Some(at) if at > 0 => (lower[..at].to_owned(), Some(lower[at..].to_owned())),
                _ => (lower.clone(), None),
            },
        };
        RuleName { given: given.to_owned(), name, parameter }
    }

    /// A [`RuleSetError::BadParameter`] for this name.
    pub fn bad(&self, problem: impl Into<String>) -> RuleSetError {
        RuleSetError::BadParameter { given: self.given.clone(), problem: problem.into() }
    }

    /// The parameter as a whole number from `low` to `high`.
    ///
    /// # Errors
    /// A missing parameter or one out of range, naming `what` it is.
    pub fn number(&self, what: &str, low: u64, high: u64) -> Result<u64, RuleSetError> {
        let bad = || self.bad(format!("{what} is a whole number from {low} to {high}, like {}:{low}", self.name));
        let value: u64 = self.parameter.as_deref().ok_or_else(bad)?.trim().parse().map_err(|_| bad())?;
        if (low..=high).contains(&value) { Ok(value) } else { Err(bad()) }
    }
}

/// What a move may do, for a front-end that builds moves by pointing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MoveShape {
    /// From how many heaps one move may take (k in Moore's Nim_k, else 1).
    pub heaps_at_once: u64,
    /// Whether a move may take tokens from inside a heap, leaving two heaps.
    pub runs: bool,
    /// Whether a heap may be split in two without taking anything.
    pub splits: bool,
    /// Whether a move may take tokens (false where moves only split, as in
    /// Grundy's game).
    pub takes: bool,
}

impl Default for MoveShape {
    fn default() -> MoveShape {
        MoveShape { heaps_at_once: 1, runs: false, splits: false, takes: true }
    }
}

/// One rule set, whole: its name and parameters, how positions are written
/// and drawn, how moves are read and said, and how positions are analysed.
/// Each game implements it once, in its own file under `games/`; the
/// registry turns the implementations into [`crate::AnyRules`], which every
/// front-end uses.
///
/// The analysis is theory first (a closed form, Grundy values, a theorem),
/// and an exhaustive search only where no theory applies, always within
/// the [`Budget`] given.
pub trait Game:
    Rules<Position: Written + Hash + fmt::Display + Serialize + Send + Sync, Move: Hash + fmt::Display + Send + Sync>
    + RandomMove
    + PartialEq
    + Eq
    + Send
    + Sync
    + 'static
{
    /// The rule set `name` stands for, in normal play; `None` when the name
    /// is not this game's.
    fn from_name(name: &RuleName) -> Option<Result<Self, RuleSetError>>;

    /// One of each of this game's families, for the catalogue
    /// (parameterised ones with an example parameter).
    fn examples() -> Vec<Self>;

    /// What `--rules` takes to name these rules: `subtraction:2,3,7`.
    fn id(&self) -> String;

    /// The name for people: "the subtraction game S = {2, 3, 7}".
    fn name(&self) -> String;

    /// The name of the family these rules belong to, without its parameter:
    /// "the subtraction game" (the name itself for rules without one).
    fn family_name(&self) -> String {
        self.name()
    }

    /// The moves allowed, in one sentence.
    fn summary(&self) -> String;

    /// The same rules under `convention`.
    fn in_convention(self, convention: Convention) -> Self;

    /// The take-and-break code behind a heap game.
    fn heap_game(&self) -> Option<HeapGame> {
        None
    }

    /// How a position is written as numbers.
    fn position_format(&self) -> &'static str {
        "heap sizes"
    }

    /// A good start for a game.
    fn default_start(&self) -> Vec<u64>;

    /// A random start of `parts` parts, numbers from 1 to `max`.
    fn random_start(&self, parts: usize, max: u64, rng: &mut dyn RngCore) -> Vec<u64> {
        (0..parts).map(|_| rng.random_range(1..=max.max(1))).collect()
    }

    /// The position written as `numbers`.
    ///
    /// # Errors
    /// Numbers that do not make a position of this game.
    fn position(&self, numbers: &[u64]) -> Result<Self::Position, PositionError> {
        Self::Position::from_numbers(numbers)
    }

    /// The position as numbers, the form [`Game::position`] reads.
    fn numbers(&self, position: &Self::Position) -> Vec<u64> {
        position.to_numbers()
    }

    /// The position as it is drawn.
    fn board(&self, position: &Self::Position) -> BoardView {
        position.view()
    }

    /// The position in one sentence: "Heaps: 3 5 7."
    fn describe_position(&self, position: &Self::Position) -> String {
        position.sentence()
    }

    /// Reads a move typed by a person or stored in a file.
    ///
    /// # Errors
    /// Text that is not a move of this game.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveParseError>;

    /// How to type a move, with an example.
    fn move_help(&self) -> &'static str;

    /// What a typed move is made of, in capitals for a command list:
    /// "HEAP AMOUNT", or "MOVE" where it varies.
    fn move_syntax(&self) -> &'static str {
        "MOVE"
    }

    /// What the player who ended the game did: "made the last move".
    fn last_move_words(&self) -> &'static str {
        "made the last move"
    }

    /// What one move may do, for pointing at the board.
    fn move_shape(&self) -> MoveShape {
        MoveShape::default()
    }

    /// The move in words, as played from `before`.
    fn describe_move(&self, before: &Self::Position, mv: &Self::Move) -> Phrase;

    /// The move as a plain take, `(heap counted from 0, tokens)`, when those
    /// two numbers alone say what it does to the position, so that a client
    /// can replay it without the rules; `None` for any other move.
    fn as_take(&self, _mv: &Self::Move) -> Option<(usize, u64)> {
        None
    }

    /// Who wins, the parts' values and the winning moves, within `budget`.
    ///
    /// # Errors
    /// [`AnalysisError::NotAvailable`] where no theory applies and no search
    /// is possible, [`AnalysisError::OverBudget`] past the budget.
    fn analyze(&self, position: &Self::Position, budget: &Budget) -> Result<Analysis<Self::Move>, AnalysisError>;

    /// For each of `moves`, how many winning replies the opponent has after
    /// it (0 when it leaves them lost), `None` where that is not known; all
    /// within one started `budget`. Games that search share one search
    /// among the moves.
    fn winning_replies(&self, position: &Self::Position, moves: &[Self::Move], budget: &Budget) -> Vec<Option<usize>> {
        replies_by_analysis(self, position, moves, budget)
    }

    /// The winning moves a perfect player should prefer among `moves` (in
    /// most games all of them).
    fn progressive(&self, _position: &Self::Position, moves: &[Self::Move]) -> Vec<Self::Move> {
        moves.to_vec()
    }

    /// Whether every analysis is a closed form costing time linear in the
    /// position's size (no search, no table of values): a server may then
    /// answer it in place instead of queueing it.
    fn instant(&self) -> bool {
        false
    }

    /// The name and convention: "Kayles (0.77), misère play".
    fn title(&self) -> String {
        let name = self.name();
        let mut chars = name.chars();
        let name: String = chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default();
        match self.convention() {
            Convention::Normal => format!("{name}, normal play"),
            Convention::Misere => format!("{name}, misère play"),
        }
    }

    /// "whoever makes the last move wins" (or loses), in this game's words.
    fn last_move_rule(&self) -> &'static str {
        match self.convention() {
            Convention::Normal => "whoever makes the last move wins",
            Convention::Misere => "whoever makes the last move loses",
        }
    }

    /// The error saying this position cannot be analysed, and why.
    fn not_available(&self, reason: Unavailable) -> AnalysisError {
        AnalysisError::NotAvailable { rules: self.title(), reason }
    }

    /// The error saying the analysis ran out of `cause`.
    fn over_budget(&self, cause: OverBudget) -> AnalysisError {
        AnalysisError::OverBudget { rules: self.title(), cause }
    }
}

/// [`Game::winning_replies`] by analysing the position after each move,
/// the budget's operations shared among the moves.
pub(crate) fn replies_by_analysis<G: Game>(
    game: &G,
    position: &G::Position,
    moves: &[G::Move],
    budget: &Budget,
) -> Vec<Option<usize>> {
    moves
        .iter()
        .map(|&mv| {
            let mut after = position.clone();
            game.apply(&mut after, mv);
            match game.analyze(&after, &budget.share(moves.len() as u64)) {
                Ok(a) if a.winner == Winner::Mover => Some(a.winning_moves.len()),
                Ok(_) => Some(0),
                Err(_) => None,
            }
        })
        .collect()
}

/// Player to move wins (true) or loses.
pub(crate) fn winner(mover_wins: bool) -> Winner {
    if mover_wins { Winner::Mover } else { Winner::Opponent }
}

/// "1 square", "3 squares".
pub(crate) fn plural(count: u128, one: &str, many: &str) -> String {
    if count == 1 { format!("1 {one}") } else { format!("{count} {many}") }
}
