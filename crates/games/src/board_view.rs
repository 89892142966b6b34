//! A position as a front-end draws it: one shape per board kind, whatever
//! the rule set. The terminal has one view per kind, the page one renderer
//! module per kind.

use serde::Serialize;

/// How a rule set's positions are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BoardKind {
    /// Rows of tokens (Nim, heap games, Moore's Nim_k).
    Heaps,
    /// Pairs of piles (Wythoff's game).
    Pairs,
    /// Coins on steps (staircase Nim).
    Stairs,
    /// Rows with two pieces (Northcott's game).
    Rows,
    /// One heap and a limit (Fibonacci Nim).
    Fibonacci,
    /// A grid of squares standing in columns (Chomp).
    Grid,
}

impl BoardKind {
    /// What one part of a position is called, in the plural.
    ///
    /// ```
    /// use bouton_games::BoardKind;
    /// assert_eq!(BoardKind::Grid.parts(), "columns");
    /// ```
    pub fn parts(self) -> &'static str {
        match self {
            BoardKind::Heaps | BoardKind::Fibonacci => "heaps",
            BoardKind::Pairs => "pairs",
            BoardKind::Stairs => "steps",
            BoardKind::Rows => "rows",
            BoardKind::Grid => "columns",
        }
    }
}

/// One row of a Northcott board; columns from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct RowView {
    /// Squares in the row.
    pub width: u64,
    /// White's column.
    pub white: u64,
    /// Black's column.
    pub black: u64,
}

/// A position as it is drawn, tagged by its [`BoardKind`].
///
/// ```
/// use bouton_games::{AnyRules, BoardView};
/// use bouton_rules::Convention;
///
/// let rules = AnyRules::parse("wythoff", Convention::Normal)?;
/// let board = rules.board(&rules.position(&[3, 5, 2, 7])?);
/// assert_eq!(board, BoardView::Pairs { pairs: vec![[3, 5], [2, 7]] });
/// assert_eq!(serde_json::to_value(&board)?["kind"], "pairs");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum BoardView {
    /// Heap sizes.
    Heaps {
        /// Tokens in each heap.
        heaps: Vec<u64>,
    },
    /// Wythoff's pairs of piles.
    Pairs {
        /// Each pair's two piles.
        pairs: Vec<[u64; 2]>,
    },
    /// Coins on steps 1, 2, ….
    Stairs {
        /// Coins on each step, step 1 first.
        steps: Vec<u64>,
    },
    /// A Northcott board.
    Rows {
        /// Whether White (the first player) moves next.
        white_to_move: bool,
        /// The rows.
        rows: Vec<RowView>,
    },
    /// A Fibonacci Nim heap.
    Fibonacci {
        /// Tokens left.
        heap: u64,
        /// The most the next move may take.
        max_take: u64,
    },
    /// A Chomp bar.
    Grid {
        /// The height of each column, column 1 (with the poisoned square at
        /// its bottom) first.
        columns: Vec<u64>,
    },
}

impl BoardView {
    /// The board's kind.
    ///
    /// ```
    /// use bouton_games::{BoardKind, BoardView};
    /// assert_eq!(BoardView::Grid { columns: vec![2, 1] }.kind(), BoardKind::Grid);
    /// ```
    pub fn kind(&self) -> BoardKind {
        match self {
            BoardView::Heaps { .. } => BoardKind::Heaps,
            BoardView::Pairs { .. } => BoardKind::Pairs,
            BoardView::Stairs { .. } => BoardKind::Stairs,
            BoardView::Rows { .. } => BoardKind::Rows,
            BoardView::Fibonacci { .. } => BoardKind::Fibonacci,
            BoardView::Grid { .. } => BoardKind::Grid,
        }
    }

    /// How many rows it takes on a screen (heaps, pairs, steps, rows or
    /// columns; one for a Fibonacci heap).
    ///
    /// ```
    /// use bouton_games::BoardView;
    /// assert_eq!(BoardView::Heaps { heaps: vec![3, 5, 7] }.parts(), 3);
    /// ```
    pub fn parts(&self) -> usize {
        match self {
            BoardView::Heaps { heaps } => heaps.len(),
            BoardView::Pairs { pairs } => pairs.len(),
            BoardView::Stairs { steps } => steps.len(),
            BoardView::Rows { rows, .. } => rows.len(),
            BoardView::Fibonacci { .. } => 1,
            BoardView::Grid { columns } => columns.len(),
        }
    }
}
