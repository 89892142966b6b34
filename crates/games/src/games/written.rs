//! How each kind of position is written as numbers, drawn and said: one
//! implementation per position type, shared by every game played on it
//! (Nim, the heap games and Moore's Nim_k all play on heaps).

use bouton_rules::Heaps;

use crate::board_view::RowView;
use crate::game::plural;
use crate::{Bar, Board, BoardView, FibPosition, Pairs, PositionError, Stairs};

/// A position type's numbers, board and sentence.
pub trait Written: Sized {
    /// The position written as `numbers`.
    ///
    /// # Errors
    /// Numbers that do not make such a position.
    fn from_numbers(numbers: &[u64]) -> Result<Self, PositionError>;
    /// The position as numbers, the form [`Written::from_numbers`] reads.
    fn to_numbers(&self) -> Vec<u64>;
    /// The position as it is drawn.
    fn view(&self) -> BoardView;
    /// The position in one sentence.
    fn sentence(&self) -> String;
}

impl Written for Heaps {
    fn from_numbers(numbers: &[u64]) -> Result<Heaps, PositionError> {
        Ok(Heaps::new(numbers.to_vec())?)
    }
    fn to_numbers(&self) -> Vec<u64> {
        self.as_slice().to_vec()
    }
    fn view(&self) -> BoardView {
        BoardView::Heaps { heaps: self.to_numbers() }
    }
    fn sentence(&self) -> String {
        format!("Heaps: {self}.")
    }
}

impl Written for Pairs {
    fn from_numbers(numbers: &[u64]) -> Result<Pairs, PositionError> {
        Ok(Pairs::from_sizes(numbers)?)
    }
    fn to_numbers(&self) -> Vec<u64> {
        self.sizes()
    }
    fn view(&self) -> BoardView {
        BoardView::Pairs { pairs: self.as_slice().iter().map(|&(a, b)| [a, b]).collect() }
    }
    fn sentence(&self) -> String {
        format!("Pairs of piles: {self}.")
    }
}

impl Written for Stairs {
    fn from_numbers(numbers: &[u64]) -> Result<Stairs, PositionError> {
        Ok(Stairs::new(numbers.to_vec())?)
    }
    fn to_numbers(&self) -> Vec<u64> {
        self.as_slice().to_vec()
    }
    fn view(&self) -> BoardView {
        BoardView::Stairs { steps: self.to_numbers() }
    }
    fn sentence(&self) -> String {
        format!("Coins on steps 1 to {}: {self}.", self.as_slice().len())
    }
}

impl Written for Board {
    fn from_numbers(numbers: &[u64]) -> Result<Board, PositionError> {
        Ok(Board::from_numbers(numbers)?)
    }
    fn to_numbers(&self) -> Vec<u64> {
        self.numbers()
    }
    fn view(&self) -> BoardView {
        BoardView::Rows {
            white_to_move: self.white_to_move(),
            rows: self
                .rows()
                .iter()
                .map(|r| RowView { width: r.width, white: r.white + 1, black: r.black + 1 })
                .collect(),
        }
    }
    fn sentence(&self) -> String {
        let mover = if self.white_to_move() { "White" } else { "Black" };
        format!("{} on the board; {mover} moves next.", plural(self.rows().len() as u128, "row", "rows"))
    }
}

impl Written for FibPosition {
    fn from_numbers(numbers: &[u64]) -> Result<FibPosition, PositionError> {
        Ok(FibPosition::from_numbers(numbers)?)
    }
    /// A start is written as its heap alone (a start has at least 2).
    fn to_numbers(&self) -> Vec<u64> {
        if self.heap() >= 2 && self.limit() == self.heap() - 1 {
            vec![self.heap()]
        } else {
            vec![self.heap(), self.limit()]
        }
    }
    fn view(&self) -> BoardView {
        BoardView::Fibonacci { heap: self.heap(), max_take: self.max_take() }
    }
    fn sentence(&self) -> String {
        format!("A heap of {}; the next move may take 1 to {}.", self.heap(), self.max_take())
    }
}

impl Written for Bar {
    fn from_numbers(numbers: &[u64]) -> Result<Bar, PositionError> {
        Ok(Bar::new(numbers.to_vec())?)
    }
    fn to_numbers(&self) -> Vec<u64> {
        self.heights().to_vec()
    }
    fn view(&self) -> BoardView {
        BoardView::Grid { columns: self.to_numbers() }
    }
    fn sentence(&self) -> String {
        format!(
            "A bar of {} in {}; the poisoned square is column 1, row 1.",
            plural(self.squares(), "square", "squares"),
            plural(self.trimmed().len() as u128, "column", "columns")
        )
    }
}
