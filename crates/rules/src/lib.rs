//! The rules of Nim, and the shape every impartial rule set in bouton takes.
//!
//! This crate is pure: no I/O, no randomness, no global state. It knows what a
//! position is, which moves are legal, what a move does, and who has won when
//! the game is over. Analysis (who *should* win) and players live in the
//! `bouton-analysis` and `bouton-players` crates, which build on this one.
//!
//! ```
//! use bouton_rules::{Convention, Game, Heaps, Nim, NimMove, Side};
//!
//! let start = Heaps::new(vec![3, 5, 7])?;
//! let mut game = Game::new(Nim::new(Convention::Normal), start)?;
//! game.play(NimMove::new(2, 1))?; // take 1 from the third heap
//! assert_eq!(game.position().as_slice(), &[3, 5, 6]);
//! assert_eq!(game.to_move(), Side::Second);
//!
//! // Illegal moves are refused with the reason, and the game is unchanged.
//! let err = game.play(NimMove::new(0, 4)).unwrap_err();
//! assert_eq!(err.to_string(), "cannot take 4 from heap 1: it holds only 3");
//! assert_eq!(game.moves().len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod convention;
mod excerpt;
mod game;
mod heaps;
mod nim;
mod nim_move;
mod outcome;
mod rules;
mod side;

pub use convention::Convention;
pub use excerpt::{EXCERPT_CHARS, excerpt};
pub use game::{Game, GameError, PlayError, ReplayError};
pub use heaps::{Heaps, HeapsError};
pub use nim::{IllegalNimMove, Nim};
pub use nim_move::{NimMove, ParseMoveError};
pub use outcome::Outcome;
pub use rules::Rules;
pub use side::Side;
