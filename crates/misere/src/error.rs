//! Why a misère quotient is not available.

use bouton_grundy::OverBudget;

/// Why [`crate::solve`] (or [`crate::Monoid::from_table`]) gave no answer.
///
/// ```
/// use bouton_misere::{solve, HeapGame, MisereError, SolveOptions};
///
/// // Dawson's Kayles' quotient keeps growing: 24 elements by heap 14.
/// let game: HeapGame = "0.07".parse()?;
/// let err = solve(&game, &SolveOptions::upto(20).with_max_order(20)).unwrap_err();
/// assert_eq!(err, MisereError::TooLarge { limit: 20, heap: 14 });
/// assert_eq!(err.to_string(), "the quotient grows past 20 elements (at heaps up to 14)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MisereError {
    /// The quotient has more elements than allowed.
    #[error("the quotient grows past {limit} elements (at heaps up to {heap})")]
    TooLarge {
        /// The most elements allowed.
        limit: usize,
        /// The largest heap size included when it grew past.
        heap: u64,
    },
    /// The work ran out of its budget.
    #[error("the quotient of heaps up to {heap} is not available within the limits: {source}")]
    OverBudget {
        /// The heap size being added.
        heap: u64,
        /// The limit reached.
        #[source]
        source: OverBudget,
    },
    /// The verification of a candidate failed: the engine cannot establish
    /// the quotient (it never answers with an unproved one).
    #[error("the quotient of heaps up to {heap} could not be established: {why}")]
    Unverified {
        /// The heap size being added.
        heap: u64,
        /// What failed.
        why: String,
    },
    /// A table that is not a commutative monoid.
    #[error("not a commutative monoid: {why}")]
    NotAMonoid {
        /// What is wrong.
        why: String,
    },
    /// A range of heaps larger than the engine takes.
    #[error("heaps up to {upto} are too many: at most {most}")]
    TooFar {
        /// The range asked for.
        upto: u64,
        /// The most allowed.
        most: u64,
    },
}
