//! The reference data in `../shared/cgt-data`: single heaps' misère
//! outcomes (g⁻ = 0 exactly for the heaps the player to move loses).

use bouton_misere::{HeapGame, Outcome, SolveOptions, solve};

use crate::common::data_dir;

#[test]
fn single_heaps_lose_where_the_misere_nim_value_is_0() {
    let Some(dir) = data_dir() else { return };
    let text = std::fs::read_to_string(dir.join("misere-nim-values.txt")).expect("misere-nim-values.txt");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (code, values) = (words[1], words[2]);
        let game: HeapGame = code.parse().expect("a code");
        let values: Vec<u32> = values.split(',').map(|v| v.parse().expect("a number")).collect();
        // Dawson's Kayles' quotient keeps growing: heaps up to 20 suffice.
        let upto = if code == "0.77" { 300 } else { 20 };
        let q = match solve(&game, &SolveOptions::upto(upto)) {
            Ok(q) => q,
            Err(e) => panic!("{code}: {e}"),
        };
        for (n, &g) in values.iter().enumerate().skip(1) {
            let Some(outcome) = q.outcome(&[n as u64]) else { continue };
            let expected = if g == 0 { Outcome::Previous } else { Outcome::Next };
            assert_eq!(outcome, expected, "{code}: heap {n} (g⁻ = {g})");
            checked += 1;
        }
    }
    assert!(checked >= 60, "{checked} heaps checked");
}
