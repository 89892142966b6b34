//! General Game Playing for bouton: read the rules of any game written in the
//! Game Description Language (GDL), reason about them fast, play them well,
//! and speak the GGP protocol.
//!
//! - [`Game`] parses a KIF rule sheet; [`Game::validate`] checks it.
//! - [`Prover`] is a simple reference reasoner; [`Machine`] compiles the rules
//!   to a bit-set state machine that is orders of magnitude faster.
//! - [`Solver`] solves games exactly when the state space allows;
//!   [`Thinker`] plays: perfectly when it can solve, by Monte Carlo tree
//!   search otherwise, always within a deadline.
//! - [`server`] is a GGP player over HTTP; [`referee`] runs matches between
//!   players over HTTP.
//!
//! ```
//! use bouton_ggp::{Game, Machine};
//!
//! let game = Game::parse("
//!     (role x) (role o)
//!     (init (pile 3)) (init (turn x))
//!     (succ 0 1) (succ 1 2) (succ 2 3)
//!     (<= (legal ?p (take 1)) (true (turn ?p)) (true (pile ?n)) (succ ?m ?n))
//!     (<= (legal ?p (take 2)) (true (turn ?p)) (true (pile ?n)) (succ ?m ?n) (succ ?k ?m))
//!     (<= (legal ?p noop) (role ?p) (not (true (turn ?p))))
//!     (<= (next (pile ?m)) (does ?p (take 1)) (true (pile ?n)) (succ ?m ?n))
//!     (<= (next (pile ?k)) (does ?p (take 2)) (true (pile ?n)) (succ ?m ?n) (succ ?k ?m))
//!     (<= (next (turn x)) (true (turn o)))
//!     (<= (next (turn o)) (true (turn x)))
//!     (<= terminal (true (pile 0)))
//!     (<= (goal ?p 100) (role ?p) (not (true (turn ?p))) terminal)
//!     (<= (goal ?p 0) (true (turn ?p)))
//!     (<= (goal ?p 0) (role ?p) (not terminal))")?;
//! assert!(game.validate().is_valid());
//! let machine = Machine::compile(&game)?;
//! let start = machine.initial_state();
//! let moves = machine.legal_moves(&start, 0);
//! assert_eq!(moves.len(), 2); // (take 1) and (take 2)
//! // Taking 1 leaves 2: the opponent takes 2 and the pile is empty.
//! let take1 = machine.move_index(0, &"(take 1)".parse()?).expect("a move of x");
//! let noop = machine.move_index(1, &"noop".parse()?).expect("a move of o");
//! let after = machine.next_state(&start, &[take1, noop]);
//! assert!(!machine.is_terminal(&after));
//! // Solved: from 3 the player to move loses (whoever faces a multiple of 3 does).
//! let mut solver = bouton_ggp::Solver::new(&machine);
//! let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
//! assert_eq!(solver.solve(&start, deadline)?, vec![0, 100]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod asks;
mod circuit;
mod code;
mod compact;
mod compile_error;
mod datalog;
mod decompose;
mod defs;
mod dnf;
mod drawn;
mod flat_mc;
mod fluents;
mod follower;
mod game;
mod ground;
mod guards;
mod hash;
mod hybrid;
mod index;
mod instantiate;
mod judge;
mod lazy;
mod leaf_evaluation;
mod machine;
mod magic;
mod mast;
mod mcts;
mod mobility;
mod need_index;
mod normalize;
mod pace;
mod playout_profile;
mod prover;
mod prover_search;
mod reasoner;
mod record;
mod sexp;
mod solver;
mod specialize;
mod store;
mod symbol;
mod term;
mod thinker;
mod topdown;
mod tree;
mod validate;
mod watch;

pub mod cancel;
pub mod http;
pub mod limits;
pub mod local;
pub mod protocol;
pub mod referee;
pub mod server;

pub use compile_error::CompileError;
pub use flat_mc::FlatMc;
pub use game::{Game, GameError};
pub use leaf_evaluation::LeafEvaluation;
pub use machine::{DEFAULT_GROUNDING_LIMIT, Evaluator, Machine, State, Stats};
pub use mcts::{Mcts, MctsConfig, MoveStatistics};
pub use mobility::MobilityWindow;
pub use playout_profile::PlayoutProfile;
pub use prover::{Inspection, Prover, ProverState};
pub use record::{MatchRecord, Replacement, Step};
pub use sexp::{MAX_DEPTH, Sexp, SyntaxError};
pub use solver::{SolveError, Solver};
pub use term::{Term, TermError};
pub use thinker::{Strategy, Thinker};
pub use validate::{Diagnostic, DiagnosticKind, Validation};

/// The README's examples, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
