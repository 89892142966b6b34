//! Moves in words, as data: a verb and what it acts on, so that a
//! front-end can say "you take 2 from heap 3", "the computer takes …" or
//! "I took …" without taking English apart.

use std::fmt;

/// What a move does, in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verb {
    /// Take tokens, pins or coins away.
    Take,
    /// Split a heap in two.
    Split,
    /// Move coins or a piece.
    Move,
    /// Bite a bar of chocolate.
    Bite,
}

impl Verb {
    /// The plain form: "take".
    ///
    /// ```
    /// use bouton_games::Verb;
    /// assert_eq!(Verb::Take.plain(), "take");
    /// assert_eq!(Verb::Bite.third_person(), "bites");
    /// assert_eq!(Verb::Take.past(), "took");
    /// ```
    pub fn plain(self) -> &'static str {
        match self {
            Verb::Take => "take",
            Verb::Split => "split",
            Verb::Move => "move",
            Verb::Bite => "bite",
        }
    }

    /// After "he", "she", "it" or a name: "takes".
    pub fn third_person(self) -> &'static str {
        match self {
            Verb::Take => "takes",
            Verb::Split => "splits",
            Verb::Move => "moves",
            Verb::Bite => "bites",
        }
    }

    /// The past tense: "took".
    pub fn past(self) -> &'static str {
        match self {
            Verb::Take => "took",
            Verb::Split => "split",
            Verb::Move => "moved",
            Verb::Bite => "bit",
        }
    }
}

/// A move in words: its verb and the rest ("2 from heap 3"). Displayed as
/// an instruction: "take 2 from heap 3".
///
/// ```
/// use bouton_games::{Phrase, Verb};
///
/// let phrase = Phrase::new(Verb::Take, "2 from heap 3");
/// assert_eq!(phrase.to_string(), "take 2 from heap 3");
/// assert_eq!(phrase.past(), "took 2 from heap 3");
/// assert_eq!(phrase.third_person(), "takes 2 from heap 3");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Phrase {
    /// The verb.
    pub verb: Verb,
    /// What follows the verb.
    pub rest: String,
}

impl Phrase {
    /// The phrase `verb rest`.
    pub fn new(verb: Verb, rest: impl Into<String>) -> Phrase {
        Phrase { verb, rest: rest.into() }
    }

    /// "took 2 from heap 3".
    pub fn past(&self) -> String {
        format!("{} {}", self.verb.past(), self.rest)
    }

    /// "takes 2 from heap 3".
    pub fn third_person(&self) -> String {
        format!("{} {}", self.verb.third_person(), self.rest)
    }
}

impl fmt::Display for Phrase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&format!("{} {}", self.verb.plain(), self.rest))
    }
}
