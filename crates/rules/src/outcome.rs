use crate::{Convention, Side};

/// How a finished game ended. Impartial games under normal or misère play
/// always have a winner; there are no draws.
///
/// ```
/// use bouton_rules::{Convention, Outcome, Side};
///
/// // The second player made the last move, so the first player is to move.
/// let normal = Outcome::at_end(Convention::Normal, Side::First);
/// assert_eq!(normal.winner, Side::Second);
/// let misere = Outcome::at_end(Convention::Misere, Side::First);
/// assert_eq!(misere.winner, Side::First);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// The side that won.
    pub winner: Side,
}

impl Outcome {
    /// The outcome of a game that is over with `to_move` unable to move.
    pub fn at_end(convention: Convention, to_move: Side) -> Outcome {
        let winner = match convention {
            Convention::Normal => to_move.other(),
            Convention::Misere => to_move,
        };
        Outcome { winner }
    }
}
