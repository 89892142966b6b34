//! The computed sequences against the reference data in
//! `../shared/cgt-data` (checked there against OEIS and published lists).

use crate::common;
use bouton_grundy::{Checksum, ComputeOptions, HeapGame, RareMask, Sequence, compute};

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
