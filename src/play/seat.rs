//! Who sits at each side of the board.

use bouton_grundy::Phrase;
use bouton_players::{Level, Player};

use crate::play::variant::Variant;

/// A player at the board: a person at the keyboard or the computer.
pub enum Seat<V: Variant> {
    /// A person typing moves.
    Human {
        /// How the game addresses them: "You", "Player 1".
        name: String,
    },
    /// The computer.
    Computer {
        /// Its strength.
        level: Level,
        /// The player choosing its moves.
        player: Box<dyn Player<V> + Send>,
        /// "I" when playing a person; "Computer 1" when playing itself.
        name: String,
    },
}

impl<V: Variant> Seat<V> {
    /// A person.
    pub fn human(name: &str) -> Seat<V> {
        Seat::Human { name: name.to_owned() }
    }

    /// The computer at `level`, playing `rules`.
    pub fn computer(rules: &V, level: Level, name: &str) -> Seat<V> {
        Seat::Computer { level, player: rules.player(level), name: name.to_owned() }
    }

    /// The name used in sentences.
    pub fn name(&self) -> &str {
        match self {
            Seat::Human { name } | Seat::Computer { name, .. } => name,
        }
    }

    /// The name inside a sentence: "you" rather than "You".
    pub fn name_mid_sentence(&self) -> String {
        match self.name() {
            "You" => "you".to_owned(),
            name => name.to_owned(),
        }
    }

    /// Whether a person plays this seat.
    pub fn is_human(&self) -> bool {
        matches!(self, Seat::Human { .. })
    }

    /// The seat doing `phrase` ("take 2 from heap 3"), as a sentence:
    /// "You take 2 from heap 3." / "Player 1 takes 2 from heap 3."
    pub fn does(&self, phrase: &Phrase) -> String {
        match self.name() {
            "You" | "I" => format!("{} {phrase}.", self.name()),
            name => format!("{name} {}.", phrase.third_person()),
        }
    }
}
