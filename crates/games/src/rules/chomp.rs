use std::fmt;
use std::str::FromStr;

use bouton_rules::{Convention, Rules};

use crate::rules::parse::{MoveParseError, numbers};

/// Chomp: a rectangular bar of chocolate whose bottom-left square is
/// poisoned. A move bites one square and eats it with every square above it
/// and to its right; whoever is left with the poisoned square alone has no
/// move (and must eat it): in normal play that player loses. What is left is
/// always a staircase: columns of squares standing on the bottom row, each
/// no taller than the one to its left.
///
/// No theory is known beyond small families (a square bar, two rows): Chomp
/// is analysed by exhaustive search. The first player wins every bar larger
/// than one square (by strategy stealing), but the winning bite is found
/// only by search.
///
/// ```
/// use bouton_games::{Bar, Chomp};
/// use bouton_rules::{Convention, Rules};
///
/// let rules = Chomp::new(Convention::Normal);
/// let mut bar = Bar::rectangle(4, 3)?;
/// assert_eq!(bar.heights(), &[3, 3, 3, 3]);
/// rules.play(&mut bar, "3 2".parse()?)?; // column 3, row 2, and all above and right of it
/// assert_eq!(bar.heights(), &[3, 3, 1, 1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chomp {
    convention: Convention,
}

/// What is left of a Chomp bar: the height of each column, left to right
/// (never increasing, the first at least 1: the poisoned square is always
/// there). Eaten columns stay as zeros, so that columns keep their numbers.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Bar(Vec<u64>);

/// Why numbers are not a Chomp bar.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BarError {
    /// No columns.
    #[error("no columns given: a bar is the height of each column, left to right, like `3 3 2 1`")]
    Empty,
    /// The first column is empty.
    #[error("the first column holds the poisoned square: its height is at least 1")]
    NoPoison,
    /// A column taller than the one to its left.
    #[error(
        "column {column} is taller than column {left}: what is left of a bar never rises to the right \
         (heights like `3 3 2 1`)"
    )]
    Rising {
        /// The column, from 1.
        column: usize,
        /// The column to its left, from 1.
        left: usize,
    },
}

impl Bar {
    /// A bar with these column heights.
    ///
    /// # Errors
    /// No columns, an empty first column, or a column taller than the one to
    /// its left.
    pub fn new(heights: Vec<u64>) -> Result<Bar, BarError> {
        match heights.first() {
            None => return Err(BarError::Empty),
            Some(0) => return Err(BarError::NoPoison),
            Some(_) => {}
        }
        if let Some(i) = heights.windows(2).position(|w| w[1] > w[0]) {
            return Err(BarError::Rising { column: i + 2, left: i + 1 });
        }
        Ok(Bar(heights))
    }

    /// A whole bar `width` columns wide and `height` rows tall.
    ///
    /// # Errors
    /// A width or height of 0.
    pub fn rectangle(width: usize, height: u64) -> Result<Bar, BarError> {
        Bar::new(vec![height; width])
    }

    /// The column heights, left to right.
    pub fn heights(&self) -> &[u64] {
        &self.0
    }

    /// The squares left, the poisoned one included.
    pub fn squares(&self) -> u128 {
        self.0.iter().map(|&h| u128::from(h)).sum()
    }

    /// The heights without the eaten columns at the right: the same game.
    pub fn trimmed(&self) -> &[u64] {
        let used = self.0.iter().rposition(|&h| h > 0).map_or(0, |i| i + 1);
        &self.0[..used]
    }
}

impl fmt::Display for Bar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.0.iter().map(u64::to_string).collect();
        f.write_str(&words.join(" "))
    }
}

/// A bite: the square in column `column` + 1, row `row` + 1 (counted from 0
/// here, from the poisoned square), with everything above and to the right
/// of it. Text form: `C R`, counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct ChompMove {
    /// The column, from 0.
    pub column: usize,
    /// The row, from 0 (the bottom row).
    pub row: u64,
}

impl fmt::Display for ChompMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.column as u128 + 1, u128::from(self.row) + 1)
    }
}

impl FromStr for ChompMove {
    type Err = MoveParseError;

    fn from_str(text: &str) -> Result<ChompMove, MoveParseError> {
        let shape = "a column and a row, like `3 2` (the square in column 3, row 2, and all above and right of it)";
        let words = numbers(text, 2, 2, shape)?;
        if words[0] == 0 {
            return Err(MoveParseError::ZeroIndex { what: "column" });
        }
        if words[1] == 0 {
            return Err(MoveParseError::ZeroIndex { what: "row" });
        }
        Ok(ChompMove { column: usize::try_from(words[0] - 1).unwrap_or(usize::MAX), row: words[1] - 1 })
    }
}

/// Why a bite is illegal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalChompMove {
    /// The poisoned square.
    #[error("the square in column 1, row 1 is poisoned: bite another one")]
    Poisoned,
    /// A column beyond the bar.
    #[error("there is no column {column}: columns are numbered 1 to {columns}")]
    NoSuchColumn {
        /// The column, from 1.
        column: u128,
        /// How many columns there are.
        columns: usize,
    },
    /// A square already eaten.
    #[error("column {column} has no row {row} left: it is {height} squares tall")]
    Eaten {
        /// The column, from 1.
        column: u128,
        /// The row, from 1.
        row: u128,
        /// The column's height.
        height: u64,
    },
}

impl Chomp {
    /// Chomp under `convention`.
    pub fn new(convention: Convention) -> Chomp {
        Chomp { convention }
    }

    /// The bite in words.
    pub fn describe(&self, bar: &Bar, mv: &ChompMove) -> crate::Phrase {
        let eaten: u128 = bar.0.iter().skip(mv.column).map(|&h| u128::from(h.saturating_sub(mv.row))).sum();
        let squares = if eaten == 1 { "1 square".to_owned() } else { format!("{eaten} squares") };
        let rest = format!("column {}, row {} ({squares})", mv.column as u128 + 1, u128::from(mv.row) + 1);
        crate::Phrase::new(crate::Verb::Bite, rest)
    }
}

impl Rules for Chomp {
    type Position = Bar;
    type Move = ChompMove;
    type Illegal = IllegalChompMove;

    fn convention(&self) -> Convention {
        self.convention
    }

    fn check(&self, bar: &Bar, mv: ChompMove) -> Result<(), IllegalChompMove> {
        let column = mv.column as u128 + 1;
        let Some(&height) = bar.0.get(mv.column) else {
            return Err(IllegalChompMove::NoSuchColumn { column, columns: bar.0.len() });
        };
        if mv.row >= height {
            return Err(IllegalChompMove::Eaten { column, row: u128::from(mv.row) + 1, height });
        }
        if mv.column == 0 && mv.row == 0 {
            return Err(IllegalChompMove::Poisoned);
        }
        Ok(())
    }

    fn apply(&self, bar: &mut Bar, mv: ChompMove) {
        for height in bar.0.iter_mut().skip(mv.column) {
            *height = (*height).min(mv.row);
        }
        if bar.0.first() == Some(&0) {
            // Only a bite of the poisoned square empties the first column;
            // the checked rules never make it.
            bar.0[0] = 1;
        }
    }

    /// Column by column from the left, each from the bottom row up.
    fn legal_moves(&self, bar: &Bar) -> impl Iterator<Item = ChompMove> {
        bar.0.iter().enumerate().flat_map(|(column, &height)| {
            let first = u64::from(column == 0);
            (first..height).map(move |row| ChompMove { column, row })
        })
    }

    fn is_over(&self, bar: &Bar) -> bool {
        bar.squares() <= 1
    }
}
