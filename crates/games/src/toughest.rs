//! The one policy for a lost position, shared by the computer, the
//! terminal's hint and the page's: the move that leaves the opponent the
//! fewest winning replies.

use crate::{AnyMove, AnyPosition, AnyRules, Budget};
use bouton_rules::Rules;

/// Legal moves compared, in move order: every move of a position with at
/// most this many.
pub const COMPARED: usize = 200;

/// The result of [`AnyRules::toughest`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toughest {
    /// The moves that leave the fewest winning replies, in move order.
    pub moves: Vec<AnyMove>,
    /// How many winning replies each of them leaves.
    pub replies: usize,
}

impl AnyRules {
    /// In a lost position, the toughest moves: among the first [`COMPARED`]
    /// legal moves in move order (all of them in most positions), those
    /// that leave the opponent the fewest winning replies and, among those,
    /// the most left on the board (the sum of the position's numbers: in
    /// Nim the fewest tokens taken, so the game lasts longest), all within
    /// one `budget`. `None` when no move's replies could be counted.
    ///
    /// ```
    /// use bouton_games::{AnyRules, Budget};
    /// use bouton_rules::Convention;
    ///
    /// // Nim 1 2 3 is lost; taking 1 from heap 1 leaves 2 3, whose only
    /// // winning reply takes 1 from the 3.
    /// let rules = AnyRules::parse("nim", Convention::Normal)?;
    /// let toughest = rules.toughest(&rules.position(&[1, 2, 3])?, &Budget::interactive()).unwrap();
    /// assert_eq!(toughest.replies, 1);
    /// assert_eq!(toughest.moves[0].to_string(), "1:1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn toughest(&self, position: &AnyPosition, budget: &Budget) -> Option<Toughest> {
        let moves: Vec<AnyMove> = self.legal_moves(position).take(COMPARED).collect();
        let replies = self.winning_replies(position, &moves, budget);
        let fewest = replies.iter().flatten().copied().min()?;
        let left = |mv: AnyMove| {
            let mut after = position.clone();
            self.apply(&mut after, mv);
            self.numbers(&after).iter().map(|&n| u128::from(n)).sum::<u128>()
        };
        let candidates: Vec<(AnyMove, u128)> =
            moves.into_iter().zip(replies).filter(|(_, r)| *r == Some(fewest)).map(|(mv, _)| (mv, left(mv))).collect();
        let most = candidates.iter().map(|&(_, l)| l).max()?;
        let moves = candidates.into_iter().filter(|&(_, l)| l == most).map(|(mv, _)| mv).collect();
        Some(Toughest { moves, replies: fewest })
    }
}
