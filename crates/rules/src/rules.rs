use std::fmt::Debug;

use crate::Convention;

/// A rule set for a two-player impartial game: both players have the same
/// moves, and the game ends when the player to move has none.
///
/// [`Nim`](crate::Nim) is the first implementation. Later rule sets (Kayles,
/// Grundy's game, Wythoff, ...) implement the same trait, so a
/// [`Game`](crate::Game) and the front-ends built on it work with any of them.
///
/// ```
/// use bouton_rules::{Convention, Heaps, Nim, NimMove, Rules};
///
/// let nim = Nim::new(Convention::Normal);
/// let mut heaps = Heaps::new(vec![1, 2])?;
/// assert_eq!(nim.legal_moves(&heaps).count(), 3);
/// nim.play(&mut heaps, NimMove::new(1, 2))?;
/// nim.play(&mut heaps, NimMove::new(0, 1))?;
/// assert!(nim.is_over(&heaps));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Rules: Clone + Debug {
    /// A position of the game.
    type Position: Clone + Debug + PartialEq + Eq;
    /// A move in the game.
    type Move: Copy + Debug + PartialEq + Eq;
    /// Why a move is not legal in a position.
    type Illegal: std::error::Error + Clone + PartialEq + Eq;

    /// Normal or misère play.
    fn convention(&self) -> Convention;

    /// Whether `mv` is legal in `position`, and if not, why.
    ///
    /// # Errors
    /// The reason the move is illegal.
    fn check(&self, position: &Self::Position, mv: Self::Move) -> Result<(), Self::Illegal>;

    /// Plays a move that [`Rules::check`] accepted. Unchecked: with an illegal
    /// move the resulting position is unspecified (but memory-safe).
    fn apply(&self, position: &mut Self::Position, mv: Self::Move);

    /// Every legal move, in a fixed order. May be very long for big positions.
    fn legal_moves(&self, position: &Self::Position) -> impl Iterator<Item = Self::Move>;

    /// Whether the player to move has no legal move.
    fn is_over(&self, position: &Self::Position) -> bool {
        self.legal_moves(position).next().is_none()
    }

    /// Checks and plays a move; on error the position is unchanged.
    ///
    /// # Errors
    /// The reason the move is illegal.
    fn play(&self, position: &mut Self::Position, mv: Self::Move) -> Result<(), Self::Illegal> {
        self.check(position, mv)?;
        self.apply(position, mv);
        Ok(())
    }
}
