//! The computed sequences against the reference data in
//! `../shared/cgt-data` (checked there against OEIS and published lists).

mod common;

use bouton_grundy::{Budget, Checksum, ComputeOptions, Exhaustive, HeapGame, HeapRules, RareMask, Sequence, compute};
use bouton_rules::{Convention, Heaps};

fn values(game: &HeapGame, upto: u64) -> (Sequence, Vec<u32>) {
    let seq = compute(game, upto, ComputeOptions::default()).expect("computed");
    let values = seq.to_vec().expect("in memory");
    (seq, values)
}

#[test]
fn kayles_to_2000_matches_the_data_and_checksum() {
    let Some(expected) = common::sequence("kayles-0.77.txt") else {
        return;
    };
    let (seq, got) = values(&HeapGame::kayles(), 2000);
    assert_eq!(got, expected);
    let Some(checksum) = common::checksum_for("0.77", "2000") else {
        return;
    };
    assert_eq!(seq.stats().checksum().to_string(), checksum);
}

#[test]
fn dawsons_kayles_to_2000_matches_the_data_and_checksum() {
    let Some(expected) = common::sequence("dawsons-kayles-0.07.txt") else {
        return;
    };
    let (seq, got) = values(&HeapGame::dawsons_kayles(), 2000);
    assert_eq!(got, expected);
    let Some(checksum) = common::checksum_for("0.07", "2000") else {
        return;
    };
    assert_eq!(seq.stats().checksum().to_string(), checksum);
}

#[test]
fn grundys_game_to_10000_matches_the_data() {
    let Some(expected) = common::sequence("grundys-game.txt") else {
        return;
    };
    assert_eq!(expected.len(), 10_001);
    let (_, got) = values(&HeapGame::grundys_game(), 10_000);
    assert_eq!(got, expected);
}

/// One computation to 2^21 checks the rare values, both checksums and the
/// other facts CHECKSUMS.md gives.
#[test]
fn grundys_game_to_2_pow_21_rare_values_and_checksums() {
    let Some(rare) = common::pairs("grundys-game-rare-2pow21.txt") else {
        return;
    };
    let options = ComputeOptions { mask: Some(RareMask::GRUNDY), ..Default::default() };
    let seq = compute(&HeapGame::grundys_game(), 1 << 21, options).expect("computed");
    let stats = seq.stats();
    assert_eq!(stats.rare(), rare.as_slice(), "every rare n up to 2^21, with its value");
    assert_eq!(stats.rare_count(), 1274);
    assert_eq!(stats.last_rare(), Some(82_860));
    assert_eq!((stats.max(), stats.first_max()), (231, 763_622));
    let Some(at_21) = common::checksum_for("4!.0", "2^21") else {
        return;
    };
    assert_eq!(stats.checksum().to_string(), at_21);
    let Some(at_20) = common::checksum_for("4!.0", "2^20") else {
        return;
    };
    let prefix = Checksum::of(seq.iter().take((1 << 20) + 1).map(|v| v.expect("value")));
    assert_eq!(prefix.to_string(), at_20);
}

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
