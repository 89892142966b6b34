//! bouton's impartial rule sets and their catalogue: one game model in which
//! Nim is one entry among the others.
//!
//! Each rule set implements [`Game`] once, in its own file: its positions
//! and moves, legality, wording, board, analysis within a [`Budget`] and the
//! moves the computer prefers. One registry lists them; [`RuleSet`] names
//! and validates a rule set of the catalogue, and [`AnyRules`] plays any of
//! them, so a front-end never knows which game it is running. Heap games
//! get their Grundy values from the Sprague–Grundy engine, `bouton-grundy`.
//!
//! ```
//! use bouton_analysis::Winner;
//! use bouton_games::{AnyRules, RuleSet};
//! use bouton_rules::Convention;
//!
//! let rules = AnyRules::new("kayles".parse::<RuleSet>()?, Convention::Normal);
//! let position = rules.position(&[10_000_000])?;
//! let analysis = rules.analyze(&position)?;
//! assert_eq!(analysis.winner, Winner::Mover);
//! assert!(!analysis.winning_moves.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod analysis;
mod any;
mod board_view;
mod exhaustive;
mod game;
mod games;
mod misere_reading;
mod phrase;
mod quotients;
mod registry;
mod rules;
mod ruleset;
mod sample;
mod toughest;

// The engine's items the rule sets use, by the names they had when both
// lived in one crate.
use bouton_grundy::{CodeError, HeapOption, HeapValues, MAX_DIGITS, MexSet, TABLE_LIMIT, ValuesError};

pub use analysis::{Analysis, AnalysisError, Component, MOVE_BUDGET, Method, Unavailable};
pub use any::{AnyRules, PositionError};
pub use board_view::{BoardKind, BoardView, RowView};
/// The take-and-break code a heap game's rules are built from (from the
/// engine, which computes its values).
pub use bouton_grundy::HeapGame;
/// The budget every analysis runs within (from the engine, which meters its
/// own work with it).
pub use bouton_grundy::{Budget, Cancel, CancelOnDrop, Meter, OverBudget};
pub use exhaustive::{Canonical, Exhaustive};
pub use game::{Game, MoveShape, RuleName};
pub use games::heap::HeapFamily;
pub use misere_reading::{ChosenMove, Generator, HeapElement, MisereReading};
pub use phrase::{Phrase, Verb};
pub use quotients::{
    QUOTIENT_HEAPS, QUOTIENT_HEAPS_UNPROVABLE, QUOTIENT_ORDER, QuotientStatus, keep_quotients_in, quotient_budget,
};
pub use registry::{AnyIllegal, AnyMove, AnyPosition};
pub use rules::chomp::{Bar, BarError, Chomp, ChompMove, IllegalChompMove};
pub use rules::fibonacci::{FibError, FibMove, FibPosition, FibonacciNim, IllegalFibMove, zeckendorf};
pub use rules::heap::{HeapMove, HeapRules, IllegalHeapMove};
pub use rules::moore::{IllegalMooreMove, MOORE_MAX_K, MooreKError, MooreMove, MooreNim};
pub use rules::northcott::{Board, BoardError, IllegalNorthcottMove, Northcott, NorthcottMove, Row};
pub use rules::parse::MoveParseError;
pub use rules::staircase::{IllegalStairMove, StairMove, Staircase, Stairs, StairsError};
pub use rules::wythoff::{
    IllegalWythoffMove, Pairs, PairsError, WYTHOFF_MAX, WYTHOFF_TABLE, Wythoff, WythoffMove, wythoff_grundy,
    wythoff_losing, wythoff_lower, wythoff_partner,
};
pub use ruleset::{CatalogEntry, RuleSet, RuleSetError};
pub use sample::RandomMove;
pub use toughest::{COMPARED, Toughest};
