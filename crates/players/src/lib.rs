//! Computer players, from perfect to beginner: for Nim, and for every rule
//! set of the catalogue ([`GrundyPlayer`]).
//!
//! Every player implements [`Player`]. Randomness is never global: the caller
//! passes the random generator in, so a seeded generator makes every game
//! reproducible.
//!
//! ```
//! use bouton_players::{Level, Player};
//! use bouton_rules::{Convention, Game, Heaps, Nim};
//! use rand::SeedableRng;
//! use rand_chacha::ChaCha8Rng;
//!
//! let mut rng = ChaCha8Rng::seed_from_u64(7);
//! let mut game = Game::new(Nim::new(Convention::Normal), Heaps::new(vec![3, 5, 7])?)?;
//! let mut perfect = Level::Perfect.player();
//! let mv = perfect.choose(&game, &mut rng).expect("the game is not over");
//! game.play(mv)?;
//! // 3 5 7 has nim-sum 1; every winning move leaves nim-sum 0.
//! assert_eq!(bouton_analysis::nim_sum(game.position().as_slice()), 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod grundy_player;
mod level;
mod levelled;
mod perfect;
mod player;
mod random;
mod toughest;

pub use grundy_player::GrundyPlayer;
pub use level::{Level, ParseLevelError};
pub use levelled::Levelled;
pub use perfect::Perfect;
pub use player::Player;
pub use random::RandomMover;
pub use toughest::toughest_moves;
