use std::fmt;

/// Who wins when the last token is taken.
///
/// Many programs called "Nim" mix these up, so bouton always names the
/// convention in words: see [`Convention::rule`].
///
/// ```
/// use bouton_rules::Convention;
///
/// assert_eq!(Convention::Normal.rule(), "whoever takes the last token wins");
/// assert_eq!(Convention::Misere.rule(), "whoever takes the last token loses");
/// assert_eq!(Convention::Misere.to_string(), "misère");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Convention {
    /// Normal play: the player who makes the last move wins.
    #[default]
    Normal,
    /// Misère play: the player who makes the last move loses.
    Misere,
}

impl Convention {
    /// The rule in one sentence, for players.
    pub fn rule(self) -> &'static str {
        match self {
            Convention::Normal => "whoever takes the last token wins",
            Convention::Misere => "whoever takes the last token loses",
        }
    }

    /// Whether this is misère play.
    pub fn is_misere(self) -> bool {
        self == Convention::Misere
    }
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Convention::Normal => "normal",
            Convention::Misere => "misère",
        })
    }
}
