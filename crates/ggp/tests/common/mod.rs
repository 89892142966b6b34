//! Shared helpers: where the shared GDL data lives, and small constructors.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use bouton_ggp::{Game, Machine, Term};

/// `../shared/gdl` next to the workspace root (the workspace root's parent
/// plus `shared/gdl`). When it is missing, tests fail under CI (the `CI`
/// environment variable is set) and are skipped with a notice otherwise.
pub fn gdl_dir() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = root.join("..").join("shared").join("gdl");
    if dir.join("EXPECTED.md").is_file() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!("the shared GDL data is missing at {} (CI is set, so this is a failure)", dir.display());
    }
    eprintln!("notice: the shared GDL data is missing at {}; skipping this test", dir.display());
    None
}

/// The data folder, or return from the test (after the notice).
#[macro_export]
macro_rules! gdl_or_skip {
    () => {
        match common::gdl_dir() {
            Some(dir) => dir,
            None => return,
        }
    };
}

/// The games of this crate (`crates/ggp/games`).
pub fn own_games_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games")
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn game(path: &Path) -> Game {
    Game::parse(&read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn machine(path: &Path) -> Machine {
    Machine::compile(&game(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn t(text: &str) -> Term {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The real games of the shared folder.
pub const REAL_GAMES: [&str; 10] =
    ["nim1", "nim2", "nim3", "nim4", "ticTacToe", "connectFour", "buttons", "sum15", "coins", "chomp"];
