//! The save file: a small, versioned JSON document.
//!
//! ```json
//! {"format":"bouton-save","version":2,"convention":"normal","start":[3,5,7],
//!  "moves":["3:1","1:2"],"seats":["you",{"computer":"hard"}]}
//! ```
//!
//! A seat is `"you"` (one person against the computer), `{"player": 1}` (two
//! people at one keyboard) or `{"computer": LEVEL}`. Version 1 files, which
//! named people as the game showed them (`{"human": "You"}`,
//! `{"human": "Player 1"}`), are read too and written back as version 2.
//!
//! Games of other rule sets add `"rules"` (as `--rules` takes it, e.g.
//! `"kayles"`); their start is the position's numbers and their moves are
//! written as the game's prompt reads them.

use std::path::Path;

use bouton_players::Level;
use bouton_rules::{Convention, Game};
use serde::{Deserialize, Serialize};

use crate::play::seat::{Computer, Person, Seat};
use crate::play::variant::Variant;

const FORMAT: &str = "bouton-save";
/// The version written.
const VERSION: u32 = 2;
/// The versions read.
const READ: std::ops::RangeInclusive<u64> = 1..=2;

/// A seat as saved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum SavedSeat {
    /// The one person playing the computer.
    You,
    /// One of two people at one keyboard, 1 or 2.
    Player(u8),
    /// Version 1: a person, by the name the game showed ("You",
    /// "Player 1").
    Human(String),
    /// The computer, by level name.
    Computer(String),
}

impl SavedSeat {
    /// The person a saved human seat stands for.
    fn person(&self) -> Result<Person, String> {
        match self {
            SavedSeat::You => Ok(Person::You),
            SavedSeat::Player(n @ 1..=2) => Ok(Person::Player(*n)),
            SavedSeat::Human(name) if name == "You" => Ok(Person::You),
            SavedSeat::Human(name) => match name.strip_prefix("Player ").and_then(|n| n.parse::<u8>().ok()) {
                Some(n @ 1..=2) => Ok(Person::Player(n)),
                _ => Err(format!("{name:?} is not a seat: a person is \"You\", \"Player 1\" or \"Player 2\"")),
            },
            SavedSeat::Player(n) => Err(format!("player {n} is not a seat: players are 1 and 2")),
            SavedSeat::Computer(_) => Err("a computer is not a person".to_owned()),
        }
    }
}

/// The whole file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    format: String,
    version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rules: Option<String>,
    convention: Convention,
    start: Vec<u64>,
    moves: Vec<String>,
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
pub struct Loaded<V: Variant> {
    /// The game, with every move replayed.
    pub game: Game<V>,
    /// Who plays each side.
    pub seats: [Seat<V>; 2],
}

/// A save file read and checked for format and version, not yet replayed.
pub struct Opened {
    file: SaveFile,
    shown: String,
}

/// Writes the game and its seats to `path`.
pub fn save<V: Variant>(path: &Path, game: &Game<V>, seats: &[Seat<V>; 2]) -> std::io::Result<()> {
    std::fs::write(path, to_text(game, seats)?)
}

/// The save file of the game and its seats.
pub fn to_text<V: Variant>(game: &Game<V>, seats: &[Seat<V>; 2]) -> std::io::Result<String> {
    let saved = seats.each_ref().map(|seat| match seat {
        Seat::Human { person: Person::You } => SavedSeat::You,
        Seat::Human { person: Person::Player(n) } => SavedSeat::Player(*n),
        Seat::Computer { level, .. } => SavedSeat::Computer(level.name().to_owned()),
    });
    let rules = game.rules();
    let file = SaveFile {
        format: FORMAT.to_owned(),
        version: VERSION,
        rules: rules.save_name(),
        convention: rules.convention(),
        start: rules.numbers(game.start()),
        moves: game.moves().iter().map(|&mv| rules.move_text(mv)).collect(),
        seats: saved,
    };
    let mut text = serde_json::to_string_pretty(&file).map_err(std::io::Error::other)?;
    text.push('\n');
    Ok(text)
}

/// Reads a save file and checks its format and version.
pub fn open(path: &Path) -> Result<Opened, LoadError> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| LoadError::Read { path: shown.clone(), source })?;
    open_bytes(&bytes, shown)
}

/// Reads a save file's contents, named `shown` in errors, and checks its
/// format and version.
pub fn open_bytes(bytes: &[u8], shown: String) -> Result<Opened, LoadError> {
    let invalid = |reason: String| LoadError::Invalid { path: shown.clone(), reason };
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| invalid(format!("not JSON ({e})")))?;
    if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(invalid(format!("it has no \"format\": \"{FORMAT}\" field")));
    }
    match value.get("version").and_then(|v| v.as_u64()) {
        Some(v) if READ.contains(&v) => {}
        Some(v) => {
            return Err(invalid(format!(
                "version {v} is not supported (this bouton reads versions {} to {})",
                READ.start(),
                READ.end()
            )));
        }
        None => return Err(invalid("it has no version number".to_owned())),
    }
    let file: SaveFile = serde_json::from_value(value).map_err(|e| invalid(e.to_string()))?;
    Ok(Opened { file, shown })
}

/// Replays an opened file as a game of `V`, checking everything: the rule
/// set, the start, the row limit, each move's legality, the seats.
pub fn load<V: Variant>(opened: Opened, max_rows: usize) -> Result<Loaded<V>, LoadError> {
    let Opened { file, shown } = opened;
    let invalid = |reason: String| LoadError::Invalid { path: shown.clone(), reason };
    let game = V::restore(file.rules.as_deref(), file.convention, file.start, &file.moves).map_err(invalid)?;
    let rows = game.rules().rows(game.start());
    if rows > max_rows {
        let what = if file.rules.is_none() { "heaps" } else { "rows" };
        return Err(invalid(format!("it has {rows} {what}; interactive play supports at most {max_rows}")));
    }
    if game.is_over() {
        return Err(invalid("the game in it is already over: there is nothing to resume".to_owned()));
    }
    let mut seats = Vec::with_capacity(2);
    for seat in file.seats {
        seats.push(match seat {
            SavedSeat::Computer(level) => {
                let level: Level =
                    level.parse().map_err(|e: bouton_players::ParseLevelError| invalid(e.to_string()))?;
                Seat::computer(game.rules(), level)
            }
            person => Seat::human(person.person().map_err(invalid)?),
        });
    }
    let [first, second]: [Seat<V>; 2] = seats.try_into().map_err(|_| invalid("it needs two seats".to_owned()))?;
    Ok(Loaded { game, seats: name_computers([first, second]) })
}

/// Gives computers their names: "I" against a person, "Computer 1" and
/// "Computer 2" against each other.
pub fn name_computers<V: Variant>(seats: [Seat<V>; 2]) -> [Seat<V>; 2] {
    let both = seats.iter().all(|s| !s.is_human());
    let mut index = 0;
    seats.map(|seat| {
        index += 1;
        match seat {
            Seat::Computer { level, player, .. } => {
                let who = if both { Computer::Numbered(index) } else { Computer::Me };
                Seat::Computer { level, player, who }
            }
            human => human,
        }
    })
}
