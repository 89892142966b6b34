use std::fmt;

/// One of the two players, by the order in which they move.
///
/// ```
/// use bouton_rules::Side;
///
/// assert_eq!(Side::First.other(), Side::Second);
/// assert_eq!(Side::after_moves(3), Side::Second);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Side {
    /// The player who moves first.
    First,
    /// The player who moves second.
    Second,
}

impl Side {
    /// The opponent.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// Whose turn it is after `moves` moves have been played.
    pub fn after_moves(moves: usize) -> Side {
        if moves.is_multiple_of(2) { Side::First } else { Side::Second }
    }

    /// 0 for [`Side::First`], 1 for [`Side::Second`]: handy for indexing pairs.
    pub fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::First => "first player",
            Side::Second => "second player",
        })
    }
}
