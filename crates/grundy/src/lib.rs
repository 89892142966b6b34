//! The Sprague–Grundy engine: Grundy sequences of heap games given by their
//! take-and-break code, computed fast and far, proved periodic where the
//! periodicity theorem applies, and the values single heaps need for play.
//!
//! Every impartial game under normal play is equivalent to a Nim heap whose
//! size is its Grundy value, `G = mex { G(option) }`, and a sum of games is
//! worth the XOR of its parts. The rule sets that use these values, and the
//! catalogue of games, live in `bouton-games`. Every computation here runs
//! within a [`Budget`] or [`ComputeOptions`]' limits.
//!
//! Periods are looked for with no limit but the values computed, at no
//! memory cost beyond them (0.1777's period of 60,620,715 is proved in a
//! little over a minute, in under half a gigabyte). Long computations can
//! keep their values in a checkpoint file and go on from it
//! ([`ComputeOptions::checkpoint`]), and the sparse method hands part of
//! its work to a second core ([`ComputeOptions::threads`]).
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

mod budget;
mod checkpoint;
mod checksum;
mod code;
mod compute;
mod construct;
mod data_dir;
mod layers;
mod mask;
mod mex;
mod periodicity;
mod proofs;
mod sequence;
mod stats;
mod table;
mod values;

pub use budget::{Budget, Cancel, CancelOnDrop, Meter, OverBudget};
pub use checkpoint::CheckpointError;
pub use checksum::Checksum;
pub use code::{CodeError, HeapGame, HeapOption, MAX_DIGITS};
pub use compute::{ComputeError, ComputeOptions, Engine, MAX_UPTO, Progress, compute};
pub use construct::{option_with_value, three_heap_option_with_value};
pub use data_dir::{game_file_name, user_data_dir};
pub use mask::{MaskError, RareMask};
pub use mex::MexSet;
pub use periodicity::{ArithmeticTheorem, DEFAULT_MAX_PERIOD, Periodicity};
pub use proofs::{KEEP_FROM, KeptProof, ProofStore, ProofStoreError};
pub use sequence::{Sequence, SequenceIter};
pub use stats::{KEPT_RARE, Stats};
pub use values::{HeapValues, TABLE_LIMIT, ValuesError, ValuesFailure};
