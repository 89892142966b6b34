//! The Sprague–Grundy engine: impartial rule sets beyond Nim, their Grundy
//! values, periodicity proofs, and perfect play.
//!
//! Every impartial game under normal play is equivalent to a Nim heap whose
//! size is its Grundy value, `G = mex { G(option) }`, and a sum of games is
//! worth the XOR of its parts. This crate computes those values fast for
//! heap games given by their take-and-break code, proves their sequences
//! periodic where the periodicity theorem applies, and plays every rule set
//! of bouton perfectly through them.
//!
//! ```
//! use bouton_grundy::{compute, ComputeOptions, HeapGame, Periodicity};
//!
//! let kayles: HeapGame = "0.77".parse()?;
//! let seq = compute(&kayles, 2000, ComputeOptions::default())?;
//! assert_eq!(seq.get(15), Some(7));
//! assert_eq!(seq.stats().checksum().to_string(), "06DF1E84");
//! assert!(matches!(seq.periodicity(), Periodicity::Proved { period: 12, preperiod: 71, .. }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod analysis;
mod any;
mod board_view;
mod budget;
mod checksum;
mod code;
mod compute;
mod construct;
mod exhaustive;
mod game;
mod games;
mod mask;
mod mex;
mod periodicity;
mod phrase;
mod player;
mod registry;
mod rules;
mod ruleset;
mod sample;
mod sequence;
mod stats;
mod toughest;
mod values;

pub use analysis::{Analysis, AnalysisError, Component, MOVE_BUDGET, Method, Unavailable};
pub use any::{AnyRules, PositionError};
pub use board_view::{BoardKind, BoardView, RowView};
pub use budget::{Budget, Cancel, CancelOnDrop, Meter, OverBudget};
pub use checksum::Checksum;
pub use code::{CodeError, HeapGame, HeapOption, MAX_DIGITS};
pub use compute::{ComputeError, ComputeOptions, Engine, MAX_UPTO, Progress, compute};
pub use exhaustive::{Canonical, Exhaustive};
pub use game::{Game, MoveShape, RuleName};
pub use games::heap::HeapFamily;
pub use mask::{MaskError, RareMask};
pub use mex::MexSet;
pub use periodicity::{DEFAULT_MAX_PERIOD, Periodicity};
pub use phrase::{Phrase, Verb};
pub use player::GrundyPlayer;
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
pub use sequence::{Sequence, SequenceIter};
pub use stats::{KEPT_RARE, Stats};
pub use toughest::{COMPARED, Toughest};
pub use values::{HeapValues, TABLE_LIMIT, ValuesError};
