//! Playing from the quotient: the outcome of a position and its winning
//! moves, from the heaps' elements.

use bouton_grundy::HeapOption;

use crate::{Element, MisereQuotient};

/// Who wins a position with perfect misère play.
///
/// ```
/// use bouton_misere::Outcome;
///
/// assert_ne!(Outcome::Next, Outcome::Previous);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Outcome {
    /// The player to move wins (an N-position).
    Next,
    /// The player to move loses (a P-position).
    Previous,
}

/// A move: in the heap at `index`, the option `option`.
///
/// ```
/// use bouton_misere::{HeapOption, Move};
///
/// let m = Move { index: 0, option: HeapOption::new(1, 2, 0) };
/// assert_eq!(m.option.take, 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Which heap of the position (0 first).
    pub index: usize,
    /// What the move takes and leaves.
    pub option: HeapOption,
}

impl MisereQuotient {
    /// The element of a position: the product of its heaps' elements; `None`
    /// when a heap is beyond the range where the quotient is known.
    ///
    /// ```
    /// use bouton_misere::{solve, HeapGame, Outcome, SolveOptions};
    ///
    /// let kayles = solve(&"0.77".parse::<HeapGame>()?, &SolveOptions::upto(300))?;
    /// assert!(kayles.pretending().period().is_some());
    /// assert_eq!(kayles.outcome(&[1]), Some(Outcome::Previous));
    /// assert_eq!(kayles.outcome(&[20, 30, 40]), Some(Outcome::Next));
    /// assert!(kayles.element_of(&[1_000_000, 7]).is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn element_of(&self, heaps: &[u64]) -> Option<Element> {
        heaps
            .iter()
            .try_fold(self.monoid().identity(), |acc, &h| Some(self.monoid().multiply(acc, self.pretending().get(h)?)))
    }

    /// Who wins the position (`None` beyond the known range).
    pub fn outcome(&self, heaps: &[u64]) -> Option<Outcome> {
        let x = self.element_of(heaps)?;
        Some(if self.is_p(x) { Outcome::Previous } else { Outcome::Next })
    }

    /// Every winning move: the moves whose result is in the P-portion, by
    /// heap, then option (`None` beyond the known range). Enumerates every
    /// option, so a heap of `h` tokens costs about `h` steps per digit.
    ///
    /// ```
    /// use bouton_misere::{solve, HeapGame, SolveOptions};
    ///
    /// let kayles = solve(&"0.77".parse::<HeapGame>()?, &SolveOptions::upto(120))?;
    /// // Misère Kayles with two pins in a row: knock down one.
    /// let moves = kayles.winning_moves(&[2]).unwrap();
    /// assert_eq!(moves.len(), 1);
    /// assert_eq!(moves[0].option.take, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn winning_moves(&self, heaps: &[u64]) -> Option<Vec<Move>> {
        let monoid = self.monoid();
        let images: Vec<Element> = heaps.iter().map(|&h| self.pretending().get(h)).collect::<Option<_>>()?;
        let mut moves = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            let rest = images
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .fold(monoid.identity(), |acc, (_, &x)| monoid.multiply(acc, x));
            for option in self.game().options(h) {
                let left = self.pretending().get(option.left)?;
                let right = self.pretending().get(option.right)?;
                if self.is_p(monoid.multiply(rest, monoid.multiply(left, right))) {
                    moves.push(Move { index: i, option });
                }
            }
        }
        Some(moves)
    }
}
