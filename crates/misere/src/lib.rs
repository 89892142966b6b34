//! Misère quotients of heap games, after Plambeck ("Taming the wild in
//! impartial combinatorial games", INTEGERS 2005) and Plambeck and Siegel
//! ("Misère quotients for impartial games", JCTA 2008).
//!
//! Two positions of a game are indistinguishable in misère play when adding
//! any position of the same game to either gives the same outcome. The
//! classes form a commutative monoid, the *misère quotient*; the classes of
//! the positions the player to move loses are its *P-portion*, and each heap
//! size has an element, the *pretending function*. A position's outcome is
//! then whether the product of its heaps' elements lies in the P-portion,
//! and a winning move is one to a product in it.
//!
//! [`solve`] computes the quotient heap size by heap size, proves each step
//! and, for octal games, proves when the pretending function has become
//! periodic; [`MisereQuotient`] then answers for heaps of any size.
//!
//! ```
//! use bouton_misere::{solve, HeapGame, Outcome, SolveOptions};
//!
//! let kayles: HeapGame = "0.77".parse()?;
//! let q = solve(&kayles, &SolveOptions::upto(300))?;
//! assert_eq!(q.order(), 40);
//! assert_eq!(q.p_portion().len(), 9);
//! assert!(q.pretending().period().is_some());
//! assert_eq!(q.outcome(&[20, 30, 40]), Some(Outcome::Next));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod cache;
mod error;
mod extend;
mod fast_hash;
mod fattened;
mod kept;
mod monoid;
mod play;
mod pretending;
mod quotient;
mod refine;
mod shipped;
mod store;
mod verify;

pub use bouton_grundy::{Budget, HeapGame, HeapOption, Meter};
pub use cache::cached;
pub use error::MisereError;
pub use kept::{Kept, KeptError, Stop};
pub use monoid::{Element, Monoid, Relation, Word, generator_name};
pub use play::{Move, Outcome};
pub use pretending::{Period, Pretending};
pub use quotient::{DEFAULT_MAX_ORDER, MAX_UPTO, MisereQuotient, Partial, SolveOptions, solve, solve_partial};
pub use shipped::{shipped, shipped_games};
pub use store::{QuotientStore, StoreError};
