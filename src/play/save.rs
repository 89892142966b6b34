//! The save file: a small, versioned JSON document.
//!
//! ```json
//! {"format":"bouton-save","version":1,"convention":"normal","start":[3,5,7],
//!  "moves":["3:1","1:2"],"seats":[{"human":"You"},{"computer":"hard"}]}
//! ```

use std::path::Path;

use bouton_players::Level;
use bouton_rules::{Convention, Game, Heaps, Nim, NimMove};
use serde::{Deserialize, Serialize};

use crate::play::seat::Seat;

const FORMAT: &str = "bouton-save";
const VERSION: u32 = 1;

/// A seat as saved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum SavedSeat {
    /// A person, by the name the game used.
    Human(String),
    /// The computer, by level name.
    Computer(String),
}

/// The whole file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    format: String,
    version: u32,
    convention: Convention,
    start: Heaps,
    moves: Vec<NimMove>,
    seats: [SavedSeat; 2],
}

/// Why a save file could not be used. Each message names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read save file {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file is not a bouton save, or is damaged.
    #[error("{path} is not a valid bouton save file: {reason}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// A game read back from a file.
pub struct Loaded {
    /// The game, with every move replayed.
    pub game: Game<Nim>,
    /// Who plays each side.
    pub seats: [Seat; 2],
}

/// Writes the game and its seats to `path`.
pub fn save(path: &Path, game: &Game<Nim>, seats: &[Seat; 2]) -> std::io::Result<()> {
    let saved = seats.each_ref().map(|seat| match seat {
        Seat::Human { name } => SavedSeat::Human(name.clone()),
        Seat::Computer { level, .. } => SavedSeat::Computer(level.name().to_owned()),
    });
    let file = SaveFile {
        format: FORMAT.to_owned(),
        version: VERSION,
        convention: game.rules().convention,
        start: game.start().clone(),
        moves: game.moves().to_vec(),
        seats: saved,
    };
    let mut text = serde_json::to_string_pretty(&file).map_err(std::io::Error::other)?;
    text.push('\n');
    std::fs::write(path, text)
}

/// Reads a save file, checking everything: format, version, heap limit,
/// each move's legality.
pub fn load(path: &Path, max_heaps: usize) -> Result<Loaded, LoadError> {
    let shown = path.display().to_string();
    let invalid = |reason: String| LoadError::Invalid { path: shown.clone(), reason };
    let bytes = std::fs::read(path).map_err(|source| LoadError::Read { path: shown.clone(), source })?;
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| invalid(format!("not JSON ({e})")))?;
    if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(invalid(format!("it has no \"format\": \"{FORMAT}\" field")));
    }
    match value.get("version").and_then(|v| v.as_u64()) {
        Some(v) if v == u64::from(VERSION) => {}
        Some(v) => return Err(invalid(format!("version {v} is not supported (this bouton reads version {VERSION})"))),
        None => return Err(invalid("it has no version number".to_owned())),
    }
    let file: SaveFile = serde_json::from_value(value).map_err(|e| invalid(e.to_string()))?;
    if file.start.len() > max_heaps {
        return Err(invalid(format!(
            "it has {} heaps; interactive play supports at most {max_heaps}",
            file.start.len()
        )));
    }
    let game = Game::replay(Nim::new(file.convention), file.start, file.moves).map_err(|e| invalid(e.to_string()))?;
    if game.is_over() {
        return Err(invalid("the game in it is already over: there is nothing to resume".to_owned()));
    }
    let mut seats = Vec::with_capacity(2);
    for seat in file.seats {
        seats.push(match seat {
            SavedSeat::Human(name) => Seat::human(&name),
            SavedSeat::Computer(level) => {
                let level: Level = level.parse().map_err(|e: bouton_players::ParseLevelError| invalid(e.to_string()))?;
                Seat::computer(level, "")
            }
        });
    }
    let [first, second]: [Seat; 2] = seats.try_into().map_err(|_| invalid("it needs two seats".to_owned()))?;
    Ok(Loaded { game, seats: name_computers([first, second]) })
}

/// Gives computers their names: "I" against a person, "Computer 1" and
/// "Computer 2" against each other.
pub fn name_computers(seats: [Seat; 2]) -> [Seat; 2] {
    let both = seats.iter().all(|s| !s.is_human());
    let mut index = 0;
    seats.map(|seat| {
        index += 1;
        match seat {
            Seat::Computer { level, player, .. } => {
                let name = if both { format!("Computer {index}") } else { "I".to_owned() };
                Seat::Computer { level, player, name }
            }
            human => human,
        }
    })
}
