//! Single-heap misère values against the reference data in
//! `../shared/cgt-data`, by the library's exhaustive search.

use bouton_games::{Budget, Exhaustive, HeapRules};
use bouton_grundy::HeapGame;
use bouton_rules::{Convention, Heaps};

use crate::common;

/// Single-heap misère nim-values g⁻, by exhaustive search of the sums of
/// heaps each heap can become.
#[test]
fn single_heap_misere_values_match_the_data() {
    let Some(dir) = common::data_dir() else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("misere-nim-values.txt")).expect("misere-nim-values.txt");
    let mut rows = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let game: HeapGame = words[1].parse().expect("a code");
        let expected: Vec<u32> = words[2].split(',').map(|v| v.parse().expect("a number")).collect();
        let mut search = Exhaustive::new(HeapRules::new(game, Convention::Misere), Budget::new(500_000_000, 4 << 30));
        let got: Vec<u32> = (0..expected.len() as u64)
            .map(|n| search.value(&Heaps::new(vec![n]).expect("one heap")).expect("small enough"))
            .collect();
        assert_eq!(got, expected, "misère values of {}", words[0]);
        rows += 1;
    }
    assert_eq!(rows, 3, "Kayles, Dawson's Kayles and Grundy's game");
}
