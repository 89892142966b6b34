//! Where bouton keeps, per user, what it has proved about a game: one
//! directory per kind of proof, one file per game.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::HeapGame;

/// The user's directory for `kind`: `$XDG_DATA_HOME/bouton/KIND`, or
/// `~/.local/share/bouton/KIND` (only absolute paths count; `None` without
/// either).
///
/// ```
/// if let Some(dir) = bouton_grundy::user_data_dir("proofs") {
///     assert!(dir.ends_with("bouton/proofs"));
/// }
/// ```
pub fn user_data_dir(kind: &str) -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    let base = std::env::var_os("XDG_DATA_HOME")
        .and_then(absolute)
        .or_else(|| std::env::var_os("HOME").and_then(absolute).map(|home| home.join(".local").join("share")))?;
    Some(base.join("bouton").join(kind))
}

/// The name of `game`'s file, ending in `.EXTENSION`: its code, with every
/// character other than an ASCII letter, a digit or `.` written as `_xx`
/// per byte (so `4!.0` gives `4_21.0`).
///
/// ```
/// let grundy: bouton_grundy::HeapGame = "4!.0".parse()?;
/// assert_eq!(bouton_grundy::game_file_name(&grundy, "proof"), "4_21.0.proof");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn game_file_name(game: &HeapGame, extension: &str) -> String {
    let mut name = String::new();
    for c in game.to_string().chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            name.push(c);
        } else {
            let mut bytes = [0; 4];
            for b in c.encode_utf8(&mut bytes).bytes() {
                let _ = write!(name, "_{b:02x}");
            }
        }
    }
    name.push('.');
    name.push_str(extension);
    name
}
