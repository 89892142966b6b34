//! Who sits at each side of the board: who they are, as a type, and how
//! the game names them, from it.

use bouton_games::Phrase;
use bouton_players::{Level, Player};

use crate::play::variant::Variant;

/// A person at the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Person {
    /// The one person playing the computer: "You".
    You,
    /// One of two people at one keyboard: "Player 1", "Player 2".
    Player(u8),
}

/// The computer, as the game speaks of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Computer {
    /// Playing a person, it speaks for itself: "I".
    Me,
    /// Playing itself: "Computer 1", "Computer 2".
    Numbered(u8),
}

/// A player at the board: a person at the keyboard or the computer.
pub enum Seat<V: Variant> {
    /// A person typing moves.
    Human {
        /// Who.
        person: Person,
    },
    /// The computer.
    Computer {
        /// Its strength.
        level: Level,
        /// The player choosing its moves.
        player: Box<dyn Player<V> + Send>,
        /// How the game speaks of it.
        who: Computer,
    },
}

impl<V: Variant> Seat<V> {
    /// A person.
    pub fn human(person: Person) -> Seat<V> {
        Seat::Human { person }
    }

    /// The computer at `level`, playing `rules` (speaking for itself until
    /// [`crate::play::save::name_computers`] says otherwise).
    pub fn computer(rules: &V, level: Level) -> Seat<V> {
        Seat::Computer { level, player: rules.player(level), who: Computer::Me }
    }

    /// The name used in sentences: "You", "Player 1", "I", "Computer 2".
    pub fn name(&self) -> String {
        match self {
            Seat::Human { person: Person::You } => "You".to_owned(),
            Seat::Human { person: Person::Player(n) } => format!("Player {n}"),
            Seat::Computer { who: Computer::Me, .. } => "I".to_owned(),
            Seat::Computer { who: Computer::Numbered(n), .. } => format!("Computer {n}"),
        }
    }

    /// The name inside a sentence: "you" rather than "You".
    pub fn name_mid_sentence(&self) -> String {
        match self {
            Seat::Human { person: Person::You } => "you".to_owned(),
            _ => self.name(),
        }
    }

    /// Whether a person plays this seat.
    pub fn is_human(&self) -> bool {
        matches!(self, Seat::Human { .. })
    }

    /// Who sits here, for the players' introduction: "you", "Player 1",
    /// "the computer (hard)", "Computer 2 (easy)".
    pub fn introduce(&self) -> String {
        match self {
            Seat::Human { .. } => self.name_mid_sentence(),
            Seat::Computer { level, who: Computer::Me, .. } => format!("the computer ({level})"),
            Seat::Computer { level, .. } => format!("{} ({level})", self.name()),
        }
    }

    /// "Your turn." / "My turn." / "Player 2's turn."
    pub fn turn(&self) -> String {
        match self {
            Seat::Human { person: Person::You } => "Your turn.".to_owned(),
            Seat::Computer { who: Computer::Me, .. } => "My turn.".to_owned(),
            _ => format!("{}'s turn.", self.name()),
        }
    }

    /// The prompt for a person's move: "Your move: ", "Player 1, your move: ".
    pub fn prompt(&self) -> String {
        match self {
            Seat::Human { person: Person::You } => "Your move: ".to_owned(),
            _ => format!("{}, your move: ", self.name()),
        }
    }

    /// "You win!" / "I win." / "Player 2 wins!"
    pub fn wins(&self) -> String {
        match self {
            Seat::Human { person: Person::You } => "You win!".to_owned(),
            Seat::Computer { who: Computer::Me, .. } => "I win.".to_owned(),
            _ => format!("{} wins!", self.name()),
        }
    }

    /// The seat doing `phrase` ("take 2 from heap 3"), as a sentence:
    /// "You take 2 from heap 3." / "Player 1 takes 2 from heap 3."
    pub fn does(&self, phrase: &Phrase) -> String {
        match self {
            Seat::Human { person: Person::You } | Seat::Computer { who: Computer::Me, .. } => {
                format!("{} {phrase}.", self.name())
            }
            _ => format!("{} {}.", self.name(), phrase.third_person()),
        }
    }
}
