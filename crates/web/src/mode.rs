//! Who plays a browser game.

use serde::{Deserialize, Serialize};

/// How a game is played.
///
/// ```
/// use bouton_web::{Mode, SeatKind};
///
/// assert_eq!(Mode::ComputerFirst.seats(), [SeatKind::Computer, SeatKind::Human]);
/// assert_eq!(serde_json::to_string(&Mode::ComputerFirst).unwrap(), "\"computer-first\"");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// You move first, the computer second.
    Computer,
    /// The computer moves first.
    ComputerFirst,
    /// Two people on one device.
    Local,
    /// Two people on two devices; the second joins through the game's link.
    Online,
    /// The computer plays itself.
    Demo,
}

/// Who sits in a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    /// A person.
    Human,
    /// The computer.
    Computer,
}

impl Mode {
    /// The name used in the API and the database.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Computer => "computer",
            Mode::ComputerFirst => "computer-first",
            Mode::Local => "local",
            Mode::Online => "online",
            Mode::Demo => "demo",
        }
    }

    /// The mode with this name.
    pub fn from_name(name: &str) -> Option<Mode> {
        [Mode::Computer, Mode::ComputerFirst, Mode::Local, Mode::Online, Mode::Demo]
            .into_iter()
            .find(|mode| mode.name() == name)
    }

    /// Who plays first and second.
    pub fn seats(self) -> [SeatKind; 2] {
        use SeatKind::{Computer, Human};
        match self {
            Mode::Computer => [Human, Computer],
            Mode::ComputerFirst => [Computer, Human],
            Mode::Local | Mode::Online => [Human, Human],
            Mode::Demo => [Computer, Computer],
        }
    }

    /// Whether the computer plays in this mode.
    pub fn has_computer(self) -> bool {
        self.seats().contains(&SeatKind::Computer)
    }
}
