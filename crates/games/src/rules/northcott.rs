use std::fmt;
use std::str::FromStr;

use bouton_rules::{Convention, Rules};

use crate::rules::parse::{MoveParseError, numbers};

/// Northcott's game: each row of a board holds a white and a black piece.
/// White (the first player) moves white pieces, Black black ones: a move
/// slides one's own piece along its row, towards or away from the other
/// piece, any distance, without jumping over it or leaving the board.
///
/// Each row is a Nim heap whose size is the gap between the pieces: closing
/// the gap is taking from the heap, and widening it is undone by the
/// opponent closing it again, so it changes nothing. The player to move
/// loses exactly when the gaps' XOR is 0.
///
/// ```
/// use bouton_games::{Board, Northcott, NorthcottMove};
/// use bouton_rules::{Convention, Rules};
///
/// let rules = Northcott::new(Convention::Normal);
/// // Rows of width 8: White on column 1, Black on 5 (gap 3); White on 2,
/// // Black on 4 (gap 1).
/// let mut board = Board::from_numbers(&[8, 1, 5, 8, 2, 4])?;
/// assert_eq!(board.gaps(), vec![3, 1]);
/// rules.play(&mut board, "1 3".parse()?)?; // White to column 3 in row 1
/// assert_eq!(board.gaps(), vec![1, 1]);
/// assert!(!board.white_to_move());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Northcott {
    convention: Convention,
}

/// One row: its width and the columns of the two pieces (from 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Row {
    /// Squares in the row.
    pub width: u64,
    /// White's column, from 0.
    pub white: u64,
    /// Black's column, from 0.
    pub black: u64,
}

impl Row {
    /// The empty squares between the pieces.
    pub fn gap(&self) -> u64 {
        self.white.abs_diff(self.black) - 1
    }
}

/// A Northcott position: the rows and whose turn it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Board {
    rows: Vec<Row>,
    white_to_move: bool,
}

/// Why numbers are not a Northcott board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// No rows.
    #[error("no rows given: a Northcott board is rows of width, White's column, Black's column, like `8 1 5`")]
    Empty,
    /// Not triples.
    #[error("Northcott rows are three numbers each (width, White's column, Black's column), like `8 1 5`")]
    NotTriples,
    /// A bad row.
    #[error(
        "row {row} is not a row: the width must be at least 2 and the pieces on different columns from 1 to the width"
    )]
    BadRow {
        /// The row number, from 1.
        row: usize,
    },
}

impl Board {
    /// A board of these rows, White to move.
    ///
    /// # Errors
    /// No rows, or a row whose pieces are off the board or on one square.
    pub fn new(rows: Vec<Row>) -> Result<Board, BoardError> {
        if rows.is_empty() {
            return Err(BoardError::Empty);
        }
        for (i, row) in rows.iter().enumerate() {
            if row.width < 2 || row.white >= row.width || row.black >= row.width || row.white == row.black {
                return Err(BoardError::BadRow { row: i + 1 });
            }
        }
        Ok(Board { rows, white_to_move: true })
    }

    /// A board from triples `width white black`, columns counted from 1.
    ///
    /// # Errors
    /// As for [`Board::new`], or a count not a multiple of 3.
    pub fn from_numbers(numbers: &[u64]) -> Result<Board, BoardError> {
        if !numbers.len().is_multiple_of(3) {
            return Err(BoardError::NotTriples);
        }
        let mut rows = Vec::with_capacity(numbers.len() / 3);
        for (i, t) in numbers.chunks(3).enumerate() {
            if t[1] == 0 || t[2] == 0 {
                return Err(BoardError::BadRow { row: i + 1 });
            }
            rows.push(Row { width: t[0], white: t[1] - 1, black: t[2] - 1 });
        }
        Board::new(rows)
    }

    /// The triples `width white black`, columns counted from 1.
    pub fn numbers(&self) -> Vec<u64> {
        self.rows.iter().flat_map(|r| [r.width, r.white + 1, r.black + 1]).collect()
    }

    /// The rows.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The gap of each row: its Nim heap.
    pub fn gaps(&self) -> Vec<u64> {
        self.rows.iter().map(Row::gap).collect()
    }

    /// Whether White moves next.
    pub fn white_to_move(&self) -> bool {
        self.white_to_move
    }

    /// The mover's piece and the other piece in `row`.
    fn pieces(&self, row: &Row) -> (u64, u64) {
        if self.white_to_move { (row.white, row.black) } else { (row.black, row.white) }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.numbers().iter().map(u64::to_string).collect();
        f.write_str(&words.join(" "))
    }
}

/// A Northcott move: the mover's piece in row `row` (from 0) goes to
/// column `to` (from 0). Text form: `R C`, rows and columns from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct NorthcottMove {
    /// The row, from 0.
    pub row: usize,
    /// The column the piece goes to, from 0.
    pub to: u64,
}

impl fmt::Display for NorthcottMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.row as u128 + 1, u128::from(self.to) + 1)
    }
}

impl FromStr for NorthcottMove {
    type Err = MoveParseError;

    fn from_str(text: &str) -> Result<NorthcottMove, MoveParseError> {
        let shape = "a row number and the column to move your piece to, like `2 5`";
        let words = numbers(text, 2, 2, shape)?;
        if words[0] == 0 {
            return Err(MoveParseError::ZeroIndex { what: "row" });
        }
        if words[1] == 0 {
            return Err(MoveParseError::ZeroIndex { what: "column" });
        }
        Ok(NorthcottMove { row: usize::try_from(words[0] - 1).unwrap_or(usize::MAX), to: words[1] - 1 })
    }
}

/// Why a Northcott move is illegal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalNorthcottMove {
    /// No such row.
    #[error("there is no row {row}: rows are numbered 1 to {rows}")]
    NoSuchRow {
        /// The row number.
        row: usize,
        /// How many rows there are.
        rows: usize,
    },
    /// Off the board.
    #[error("column {column} is off the board: row {row} has columns 1 to {width}")]
    OffBoard {
        /// The row number.
        row: usize,
        /// The column asked for.
        column: u128,
        /// The row's width.
        width: u64,
    },
    /// Not moving.
    #[error("your piece is already on column {column}: move it somewhere else")]
    Stay {
        /// The column.
        column: u128,
    },
    /// Onto or past the other piece.
    #[error("your piece cannot land on or jump over the other piece (column {other})")]
    Blocked {
        /// The other piece's column.
        other: u128,
    },
}

impl Northcott {
    /// Northcott's game under `convention`.
    pub fn new(convention: Convention) -> Northcott {
        Northcott { convention }
    }

    /// The move that leaves gap `gap` in `row` for the side to move, if the
    /// board has room.
    pub fn move_to_gap(board: &Board, row: usize, gap: u64) -> Option<NorthcottMove> {
        let r = board.rows.get(row)?;
        let (mine, other) = board.pieces(r);
        let to = if mine < other {
            other.checked_sub(gap + 1)?
        } else {
            let to = other.checked_add(gap + 1)?;
            if to >= r.width {
                return None;
            }
            to
        };
        (to != mine).then_some(NorthcottMove { row, to })
    }

    /// The move in words.
    pub fn describe(&self, board: &Board, mv: &NorthcottMove) -> crate::Phrase {
        let piece = if board.white_to_move { "White" } else { "Black" };
        // No gap for a move onto the other piece (an illegal move can be
        // described too).
        let gap = board.rows.get(mv.row).and_then(|r| {
            let (_, other) = board.pieces(r);
            mv.to.abs_diff(other).checked_sub(1)
        });
        let gap = gap.map(|g| format!(", leaving a gap of {g}")).unwrap_or_default();
        let rest = format!("{piece} in row {} to column {}{gap}", mv.row as u128 + 1, u128::from(mv.to) + 1);
        crate::Phrase::new(crate::Verb::Move, rest)
    }
}

impl Rules for Northcott {
    type Position = Board;
    type Move = NorthcottMove;
    type Illegal = IllegalNorthcottMove;

    fn convention(&self) -> Convention {
        self.convention
    }

    fn check(&self, board: &Board, mv: NorthcottMove) -> Result<(), IllegalNorthcottMove> {
        let number = mv.row.saturating_add(1);
        let Some(row) = board.rows.get(mv.row) else {
            return Err(IllegalNorthcottMove::NoSuchRow { row: number, rows: board.rows.len() });
        };
        if mv.to >= row.width {
            return Err(IllegalNorthcottMove::OffBoard {
                row: number,
                column: u128::from(mv.to) + 1,
                width: row.width,
            });
        }
        let (mine, other) = board.pieces(row);
        if mv.to == mine {
            return Err(IllegalNorthcottMove::Stay { column: u128::from(mine) + 1 });
        }
        if (mine < other) != (mv.to < other) || mv.to == other {
            return Err(IllegalNorthcottMove::Blocked { other: u128::from(other) + 1 });
        }
        Ok(())
    }

    fn apply(&self, board: &mut Board, mv: NorthcottMove) {
        let white = board.white_to_move;
        if let Some(row) = board.rows.get_mut(mv.row) {
            if white {
                row.white = mv.to;
            } else {
                row.black = mv.to;
            }
        }
        board.white_to_move = !white;
    }

    /// Row by row, columns from left to right.
    fn legal_moves(&self, board: &Board) -> impl Iterator<Item = NorthcottMove> {
        let white = board.white_to_move;
        board.rows.iter().enumerate().flat_map(move |(index, row)| {
            let (mine, other) = if white { (row.white, row.black) } else { (row.black, row.white) };
            let range = if mine < other { 0..other } else { other + 1..row.width };
            range.filter(move |&c| c != mine).map(move |to| NorthcottMove { row: index, to })
        })
    }

    fn is_over(&self, board: &Board) -> bool {
        self.legal_moves(board).next().is_none()
    }
}
