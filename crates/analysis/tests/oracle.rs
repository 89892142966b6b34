//! The analysis checked against an exhaustive game-tree search (see
//! `common/mod.rs`), which computes every expected answer without the nim-sum.

mod common;

use std::collections::BTreeSet;

use bouton_analysis::{Advice, Analysis, Explanation, Winner};
use bouton_rules::{Convention, NimMove};
use common::{Oracle, after, all_small_positions, is_legal, legal_moves};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const CONVENTIONS: [Convention; 2] = [Convention::Normal, Convention::Misere];

/// Positions of up to 6 heaps of up to 12 tokens, seeded.
fn random_positions(seed: u64, count: usize) -> Vec<Vec<u64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let len = rng.random_range(1..=6);
            (0..len).map(|_| rng.random_range(0..=12)).collect()
        })
        .collect()
}

/// Checks every `Analysis` query on `heaps` against the oracle.
fn check_analysis(oracle: &mut Oracle, heaps: &[u64]) {
    let convention = oracle.convention();
    let analysis = Analysis::new(heaps, convention);
    let ctx = format!("{heaps:?} ({convention})");

    let expected_winner = if oracle.mover_wins(heaps) { Winner::Mover } else { Winner::Opponent };
    assert_eq!(analysis.winner(), expected_winner, "winner of {ctx}");
    assert_eq!(analysis.convention(), convention);
    assert_eq!(analysis.nim_sum(), heaps.iter().fold(0, |a, &h| a ^ h), "nim-sum of {ctx}");

    let expected: BTreeSet<NimMove> = oracle.winning_moves(heaps);
    let listed: Vec<NimMove> = analysis.winning_moves(heaps).collect();
    let got: BTreeSet<NimMove> = listed.iter().copied().collect();
    assert_eq!(got.len(), listed.len(), "duplicate winning moves in {ctx}: {listed:?}");
    assert_eq!(got, expected, "winning moves of {ctx}");
    assert_eq!(analysis.count_winning_moves(heaps), expected.len(), "count for {ctx}");
    // The oracle's set is ordered by heap first, so its first element is the
    // lowest-heap winning move.
    assert_eq!(analysis.first_winning_move(heaps), expected.first().copied(), "first of {ctx}");
    // The mover wins exactly when a winning move exists (or, in misère, when
    // the opponent took the last token).
    let game_over = heaps.iter().all(|&h| h == 0);
    assert_eq!(expected_winner == Winner::Mover, !expected.is_empty() || (game_over && convention.is_misere()));

    // Each heap has at most one winning move, and `winning_move_in` /
    // `winning_target` agree with the oracle heap by heap.
    for (heap, &size) in heaps.iter().enumerate() {
        let in_heap: Vec<NimMove> = expected.iter().copied().filter(|m| m.heap == heap).collect();
        assert!(in_heap.len() <= 1, "{ctx}: several winning moves in heap {heap}: {in_heap:?}");
        assert_eq!(analysis.winning_move_in(heap, size), in_heap.first().copied(), "heap {heap} of {ctx}");
        assert_eq!(
            analysis.winning_target(size),
            in_heap.first().map(|m| size - m.take),
            "target in heap {heap} of {ctx}"
        );
    }

    for mv in legal_moves(heaps) {
        let next = after(heaps, mv);
        assert_eq!(analysis.nim_sum_after(heaps, mv), next.iter().fold(0, |a, &h| a ^ h), "{ctx} after {mv}");
    }
}

#[test]
fn oracle_knows_the_textbook_positions() {
    // Hand-checked facts, so that the oracle is not wrong in the same way as
    // the code it judges.
    let mut normal = Oracle::new(Convention::Normal);
    let mut misere = Oracle::new(Convention::Misere);
    assert!(!normal.mover_wins(&[0]));
    assert!(misere.mover_wins(&[0, 0]));
    assert!(normal.mover_wins(&[1]));
    assert!(!misere.mover_wins(&[1])); // must take the last token
    assert!(!normal.mover_wins(&[1, 1]));
    assert!(misere.mover_wins(&[1, 1]));
    assert!(!normal.mover_wins(&[1, 2, 3]));
    assert!(!normal.mover_wins(&[2, 2]));
    assert!(!misere.mover_wins(&[2, 2]));
    assert!(misere.mover_wins(&[2, 1])); // take the 2, leave one token
    assert!(normal.mover_wins(&[3, 5, 7]));
    assert_eq!(normal.winning_moves(&[3, 4, 5]), BTreeSet::from([NimMove::new(0, 2)]));
    assert_eq!(misere.winning_moves(&[2, 1]), BTreeSet::from([NimMove::new(0, 2)]));
    assert_eq!(misere.winning_moves(&[1, 1, 1, 1]), BTreeSet::from([0, 1, 2, 3].map(|heap| NimMove::new(heap, 1))));
    assert!(normal.winning_moves(&[1, 2, 3]).is_empty());
}

#[test]
fn analysis_matches_oracle_on_every_small_position() {
    let positions = all_small_positions(4, 7);
    assert_eq!(positions.len(), 8 + 64 + 512 + 4096);
    for convention in CONVENTIONS {
        let mut oracle = Oracle::new(convention);
        for heaps in &positions {
            check_analysis(&mut oracle, heaps);
        }
    }
}

#[test]
fn analysis_matches_oracle_on_random_positions() {
    let positions = random_positions(0x0b07_7011, 3000);
    for convention in CONVENTIONS {
        let mut oracle = Oracle::new(convention);
        for heaps in &positions {
            check_analysis(&mut oracle, heaps);
        }
    }
}

#[test]
fn analysis_matches_oracle_on_many_heaps() {
    // Up to 150 heaps, mostly of 0 to 2 tokens (so the search stays small)
    // with at most one larger heap: crosses any block size an implementation
    // may scan by, and reaches every misère case (no, one, many big heaps).
    let mut rng = ChaCha8Rng::seed_from_u64(0xc4a2);
    let mut positions = Vec::new();
    for len in [63, 64, 65, 127, 128, 129, 150] {
        for _ in 0..8 {
            let max = [1, 2, 2][rng.random_range(0..3)];
            let mut heaps: Vec<u64> = (0..len).map(|_| rng.random_range(0..=max)).collect();
            if rng.random_bool(0.5) {
                let at = rng.random_range(0..len);
                heaps[at] = rng.random_range(3..=7);
            }
            positions.push(heaps);
        }
        // A single token or a single winning heap at the very end.
        let mut late = vec![0; len];
        late[len - 1] = 5;
        positions.push(late.clone());
        late[0] = 1;
        positions.push(late);
    }
    for convention in CONVENTIONS {
        let mut oracle = Oracle::new(convention);
        for heaps in &positions {
            check_analysis(&mut oracle, heaps);
        }
    }
}

/// Checks an `Explanation` against direct computation and the oracle.
fn check_explanation(oracle: &mut Oracle, heaps: &[u64]) {
    let convention = oracle.convention();
    let table = Explanation::new(heaps, convention);
    let ctx = format!("{heaps:?} ({convention})");
    let mover_wins = oracle.mover_wins(heaps);
    let winning = oracle.winning_moves(heaps);
    let nim_sum = heaps.iter().fold(0u64, |a, &h| a ^ h);
    let max = heaps.iter().copied().max().unwrap_or(0);
    let width = (0..64).rev().find(|&b| (max >> b) & 1 == 1).map_or(1, |b| b + 1);

    assert_eq!(table.heaps(), heaps, "{ctx}");
    assert_eq!(table.convention(), convention, "{ctx}");
    assert_eq!(table.nim_sum(), nim_sum, "{ctx}");
    assert_eq!(table.winner(), if mover_wins { Winner::Mover } else { Winner::Opponent }, "{ctx}");
    assert_eq!(table.width(), width, "{ctx}");
    assert_eq!(table.columns().collect::<Vec<_>>(), (0..width).rev().collect::<Vec<_>>(), "{ctx}");
    let mut odd = Vec::new();
    for column in (0..width).rev() {
        let ones = heaps.iter().filter(|&&h| (h >> column) & 1 == 1).count() as u32;
        assert_eq!(table.ones_in_column(column), ones, "{ctx}: column {column}");
        assert_eq!(table.is_odd(column), ones % 2 == 1, "{ctx}: column {column}");
        if ones % 2 == 1 {
            odd.push(column);
        }
        for (heap, &h) in heaps.iter().enumerate() {
            assert_eq!(table.bit(heap, column), (h >> column) & 1 == 1, "{ctx}: bit {heap},{column}");
        }
    }
    assert_eq!(table.odd_columns(), odd, "{ctx}");
    // The odd columns are exactly the 1s of the nim-sum.
    assert_eq!(odd.iter().fold(0u64, |a, &c| a | (1 << c)), nim_sum, "{ctx}");

    let advice = table.advice();
    match advice.winning_move() {
        Some(mv) => {
            assert!(mover_wins, "{ctx}: advice {advice:?} in a lost position");
            assert!(is_legal(heaps, mv), "{ctx}: advice {advice:?} is illegal");
            assert!(winning.contains(&mv), "{ctx}: advice {advice:?} does not win; winners {winning:?}");
        }
        None => assert!(
            !mover_wins || heaps.iter().all(|&h| h == 0),
            "{ctx}: no advised move in a won position: {advice:?}"
        ),
    }
    let singles = heaps.iter().filter(|&&h| h == 1).count();
    let all_small = heaps.iter().all(|&h| h <= 1);
    match *advice {
        Advice::GameOver => assert!(heaps.iter().all(|&h| h == 0), "{ctx}"),
        Advice::AllColumnsEven => {
            assert_eq!(nim_sum, 0, "{ctx}");
            assert!(!mover_wins, "{ctx}");
            assert!(convention == Convention::Normal || !all_small, "{ctx}");
        }
        Advice::OddSinglesLeft { singles: s } => {
            assert!(convention.is_misere() && all_small, "{ctx}");
            assert_eq!(s, singles, "{ctx}");
            assert_eq!(s % 2, 1, "{ctx}");
        }
        Advice::Flip { column, heap, from, to } => {
            assert_eq!(from, heaps[heap], "{ctx}");
            assert_eq!(to, from ^ nim_sum, "{ctx}");
            assert!(to < from, "{ctx}");
            assert_eq!(Some(&column), odd.first(), "{ctx}: the leftmost odd column");
            let first_with_bit = heaps.iter().position(|&h| (h >> column) & 1 == 1);
            assert_eq!(Some(heap), first_with_bit, "{ctx}: the first heap with a 1 there");
        }
        Advice::MisereEndgame { heap, from, to, column_rule_to, singles_left } => {
            assert!(convention.is_misere(), "{ctx}");
            assert_eq!(from, heaps[heap], "{ctx}");
            assert!(to <= 1, "{ctx}: {advice:?}");
            let next = after(heaps, NimMove::new(heap, from - to));
            assert!(next.iter().all(|&h| h <= 1), "{ctx}: {advice:?} leaves a big heap");
            assert_eq!(singles_left, next.iter().filter(|&&h| h == 1).count(), "{ctx}: {advice:?}");
            assert_eq!(singles_left % 2, 1, "{ctx}: {advice:?}");
            if let Some(column_to) = column_rule_to {
                assert_eq!(column_to, from ^ nim_sum, "{ctx}: {advice:?}");
            }
        }
    }
}

#[test]
fn explanation_matches_direct_computation_and_oracle() {
    let mut positions = all_small_positions(4, 7);
    positions.extend(random_positions(0xe8b1, 2000));
    for convention in CONVENTIONS {
        let mut oracle = Oracle::new(convention);
        for heaps in &positions {
            check_explanation(&mut oracle, heaps);
        }
    }
}

#[test]
fn explanation_of_huge_heaps_uses_all_64_columns() {
    let heaps = [u64::MAX, 1 << 63, 5];
    let table = Explanation::new(&heaps, Convention::Normal);
    assert_eq!(table.width(), 64);
    assert_eq!(table.ones_in_column(63), 2);
    assert_eq!(table.ones_in_column(2), 2);
    assert_eq!(table.ones_in_column(0), 2);
    assert_eq!(table.nim_sum(), u64::MAX ^ (1 << 63) ^ 5);
    let mv = table.advice().winning_move().expect("nim-sum is not 0");
    let mut next = heaps;
    next[mv.heap] -= mv.take;
    assert_eq!(next.iter().fold(0, |a, &h| a ^ h), 0);
}
