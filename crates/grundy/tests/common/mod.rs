//! Shared helpers: the reference data in `../shared/cgt-data`.

#![allow(dead_code)]

use std::path::PathBuf;

/// The reference data folder, found from this crate's directory
/// (`crates/grundy` → the workspace → its parent → `shared/cgt-data`).
pub fn data_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/cgt-data");
    if dir.join("CHECKSUMS.md").is_file() {
        return Some(dir);
    }
    assert!(std::env::var_os("CI").is_none(), "the reference data is missing at {} (needed in CI)", dir.display());
    eprintln!("note: skipping: the reference data is not at {}", dir.display());
    None
}

/// `n G(n)` lines of a data file, checked to start at 0 and count up.
pub fn sequence(name: &str) -> Option<Vec<u32>> {
    let path = data_dir()?.join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut values = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut words = line.split_whitespace();
        let n: usize = words.next().expect("n").parse().expect("a number");
        let g: u32 = words.next().expect("G(n)").parse().expect("a number");
        assert_eq!(n, values.len(), "{name}: n counts up from 0");
        values.push(g);
    }
    Some(values)
}

/// `n G(n)` pairs of a data file (for lists with gaps).
pub fn pairs(name: &str) -> Option<Vec<(u64, u32)>> {
    let path = data_dir()?.join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    Some(
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let mut words = l.split_whitespace();
                (words.next().unwrap().parse().unwrap(), words.next().unwrap().parse().unwrap())
            })
            .collect(),
    )
}

/// The rows of a markdown table in CHECKSUMS.md: (game cell, N cell, checksum cell).
pub fn checksum_rows() -> Option<Vec<(String, String, String)>> {
    let text = std::fs::read_to_string(data_dir()?.join("CHECKSUMS.md")).expect("CHECKSUMS.md");
    Some(
        text.lines()
            .filter(|l| l.starts_with('|') && !l.contains("---") && !l.contains("game (code)"))
            .map(|l| {
                let cells: Vec<String> = l.split('|').map(|c| c.trim().to_owned()).collect();
                (cells[1].clone(), cells[2].clone(), cells[3].clone())
            })
            .collect(),
    )
}

/// The checksum CHECKSUMS.md gives for a game (matched by its code in the
/// first cell) and an N cell starting with `n_text`.
pub fn checksum_for(code: &str, n_text: &str) -> Option<String> {
    let rows = checksum_rows()?;
    let row = rows
        .iter()
        .find(|(game, n, _)| game.contains(&format!("({code})")) && n.starts_with(n_text))
        .unwrap_or_else(|| panic!("CHECKSUMS.md has no row for {code} at N = {n_text}"));
    Some(row.2.clone())
}
