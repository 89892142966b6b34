use std::fmt;

/// Who wins a position with perfect play by both sides.
///
/// ```
/// use bouton_analysis::Winner;
///
/// assert_eq!(Winner::Mover.to_string(), "the player to move");
/// assert_eq!(serde_json::to_string(&Winner::Opponent).unwrap(), "\"opponent\"");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    /// The player to move wins (an N-position).
    Mover,
    /// The player who just moved wins (a P-position).
    Opponent,
}

impl fmt::Display for Winner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Winner::Mover => "the player to move",
            Winner::Opponent => "the opponent of the player to move",
        })
    }
}
