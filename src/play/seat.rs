//! Who sits at each side of the board.

use bouton_players::{Level, Player};
use bouton_rules::Nim;

/// A player at the board: a person at the keyboard or the computer.
pub enum Seat {
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
        player: Box<dyn Player<Nim> + Send>,
        /// "I" when playing a person; "Computer 1" when playing itself.
        name: String,
    },
}

impl Seat {
    /// A person.
    pub fn human(name: &str) -> Seat {
        Seat::Human { name: name.to_owned() }
    }

    /// The computer at `level`.
    pub fn computer(level: Level, name: &str) -> Seat {
        Seat::Computer { level, player: level.player(), name: name.to_owned() }
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

    /// "You take" / "I take" / "Player 1 takes".
    pub fn takes(&self) -> String {
        match self.name() {
            "You" | "I" => format!("{} take", self.name()),
            name => format!("{name} takes"),
        }
    }
}
