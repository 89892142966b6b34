//! The computer's random ("easy") moves and the misère reading in
//! hexadecimal codes, whose moves may leave three heaps: every legal move is
//! drawn, about equally often, checked against a move enumeration written
//! here from the digits alone; on heaps of 10^18 tokens every draw is legal.

use std::collections::{BTreeMap, BTreeSet};

use bouton_games::{AnyMove, AnyRules, HeapGame, HeapMove, HeapRules, RandomMove};
use bouton_rules::{Convention, Heaps, Rules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A move as this file names it: the heap (from 0), the tokens taken and
/// the sizes of the heaps left in its place, smallest first.
type Named = (usize, u64, Vec<u64>);

/// Every move of `heaps`, straight from the digits `(d_k, !)`: removing k
/// tokens from a heap may leave nothing (bit 1), one heap (bit 2, k ≥ 1),
/// two (bit 4) or three (bit 8) non-empty heaps, pairwise unequal under a
/// `!`. Each multiset of sizes left is one move.
fn enumerate(digits: &[(u8, bool)], heaps: &[u64]) -> BTreeSet<Named> {
    let mut moves = BTreeSet::new();
    for (heap, &n) in heaps.iter().enumerate() {
        for (k, &(d, unequal)) in digits.iter().enumerate() {
            let k = k as u64;
            if k > n {
                break;
            }
            let rest = n - k;
            let mut add = |parts: Vec<u64>| {
                let distinct = parts.iter().collect::<BTreeSet<_>>().len() == parts.len();
                if parts.iter().all(|&p| p > 0) && (!unequal || distinct) {
                    moves.insert((heap, k, parts));
                }
            };
            if d & 1 != 0 && rest == 0 {
                add(vec![]);
            }
            if d & 2 != 0 && k > 0 && rest > 0 {
                add(vec![rest]);
            }
            for a in 1..=rest {
                if d & 4 != 0 && a <= rest - a {
                    add(vec![a, rest - a]);
                }
                for b in a..=rest {
                    if d & 8 != 0 && a + b < rest && b <= rest - a - b {
                        add(vec![a, b, rest - a - b]);
                    }
                }
            }
        }
    }
    moves
}

/// What `mv` does to `heaps`, read from its fields: the two parts split off
/// and the rest for a three-heap move, the part and the rest for a split.
fn name(mv: &HeapMove, heaps: &[u64]) -> Named {
    let rest = heaps[mv.heap] - mv.take;
    let mut parts = match (mv.part, mv.part2) {
        (0, _) if rest == 0 => vec![],
        (0, _) => vec![rest],
        (a, 0) => vec![a, rest - a],
        (a, b) => vec![a, b, rest - a - b],
    };
    parts.sort_unstable();
    (mv.heap, mv.take, parts)
}

/// Draws many random moves of `heaps` and checks them against the
/// enumeration: each one is legal and one of the enumerated moves, every
/// enumerated move comes up, and each about as often as the others.
fn draws_every_move_uniformly(code: &str, digits: &[(u8, bool)], heaps: &[u64], rng: &mut ChaCha8Rng) -> usize {
    let rules = HeapRules::new(HeapGame::parse_hexadecimal(code).expect(code), Convention::Normal);
    let position = Heaps::new(heaps.to_vec()).expect("heaps");
    let expected = enumerate(digits, heaps);
    let listed: BTreeSet<Named> = rules.legal_moves(&position).map(|mv| name(&mv, heaps)).collect();
    assert_eq!(listed, expected, "{code} {heaps:?}: the rules' list of moves");
    let per_move = 200;
    let draws = expected.len() * per_move;
    let mut counts: BTreeMap<Named, usize> = BTreeMap::new();
    for _ in 0..draws {
        let mv = rules.random_move(&position, rng).unwrap_or_else(|| panic!("{code} {heaps:?}: no move drawn"));
        rules.check(&position, mv).unwrap_or_else(|e| panic!("{code} {heaps:?}: {mv} drawn: {e}"));
        let named = name(&mv, heaps);
        assert!(expected.contains(&named), "{code} {heaps:?}: {mv} is not a move of the enumeration");
        *counts.entry(named).or_default() += 1;
    }
    for mv in &expected {
        let n = counts.get(mv).copied().unwrap_or(0);
        // Binomial(draws, 1/moves): mean 200, standard deviation below 15.
        assert!((100..=300).contains(&n), "{code} {heaps:?}: {mv:?} drawn {n} times of {draws}");
    }
    expected.iter().filter(|(_, _, parts)| parts.len() == 3).count()
}

#[test]
fn random_moves_of_hexadecimal_codes_are_every_move_uniformly() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let codes: [(&str, &[(u8, bool)]); 5] = [
        ("0.F", &[(0, false), (15, false)]),
        ("4.8", &[(4, false), (8, false)]),
        ("0.3F!", &[(0, false), (3, false), (15, true)]),
        ("0.8", &[(0, false), (8, false)]),
        ("8!.0C", &[(8, true), (0, false), (12, false)]),
    ];
    for (code, digits) in codes {
        let mut three_heap_moves = 0;
        for heaps in [vec![1], vec![3], vec![6], vec![7], vec![9], vec![12], vec![15], vec![10, 4], vec![8, 1, 6]] {
            three_heap_moves += draws_every_move_uniformly(code, digits, &heaps, &mut rng);
        }
        assert!(three_heap_moves >= 10, "{code}: {three_heap_moves} moves leaving three heaps checked");
    }
}

#[test]
fn random_moves_on_huge_heaps_are_legal_and_leave_three_heaps() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    for code in ["0.F", "0.3F!", "4.8", "8!.0"] {
        let rules = HeapRules::new(HeapGame::parse_hexadecimal(code).expect(code), Convention::Normal);
        for heaps in [vec![1_000_000_000_000_000_000], vec![u64::MAX, 7], vec![u64::MAX - 1, 5, 1 << 40]] {
            let position = Heaps::new(heaps.clone()).expect("heaps");
            let mut threes = 0;
            for _ in 0..200 {
                let mv = rules.random_move(&position, &mut rng).expect("a move");
                rules.check(&position, mv).unwrap_or_else(|e| panic!("{code} {heaps:?}: {mv} drawn: {e}"));
                threes += usize::from(mv.three_heaps(heaps[mv.heap]).is_some());
            }
            // Nearly every move of a huge heap leaves three: about n²/12
            // of them against about n/2 splits.
            assert!(threes > 190, "{code} {heaps:?}: {threes} of 200 draws leave three heaps");
        }
    }
}

#[test]
fn the_easy_computer_plays_three_heap_moves_through_any_rules() {
    let rules = AnyRules::parse("octal:0.F", Convention::Normal).expect("a hexadecimal rule set");
    let position = rules.position(&[9]).expect("a position");
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    let drawn: BTreeSet<String> = (0..2000)
        .map(|_| rules.random_move(&position, &mut rng).expect("a move"))
        .map(|mv| match mv {
            AnyMove::Heap(m) => {
                let (_, take, parts) = name(&m, &[9]);
                format!("{take}:{parts:?}")
            }
            other => panic!("{other} is not a heap move"),
        })
        .collect();
    let expected: BTreeSet<String> = enumerate(&[(0, false), (15, false)], &[9])
        .into_iter()
        .map(|(_, take, parts)| format!("{take}:{parts:?}"))
        .collect();
    assert_eq!(drawn, expected);
}

#[test]
fn the_misere_reading_of_a_move_lists_the_heaps_it_leaves() {
    // Octal misère: the heaps the reading says a move leaves are the heaps
    // playing it leaves, for every move of a few positions.
    let rules = AnyRules::parse("octal:0.75", Convention::Misere).expect("rules");
    let mut checked = 0;
    for sizes in [vec![5, 3], vec![8], vec![6, 2, 1]] {
        let position = rules.position(&sizes).expect("a position");
        for mv in rules.legal_moves(&position).collect::<Vec<_>>() {
            let reading = rules.misere_reading(&position, Some(&mv)).expect("0.75 has a misère quotient");
            let chosen = reading.chosen.expect("the move is read");
            let AnyMove::Heap(m) = mv else { panic!("{mv} is not a heap move") };
            let mut left: Vec<u64> = chosen.leaves.iter().map(|h| h.size).collect();
            left.sort_unstable();
            assert_eq!(name(&m, &sizes).2, left, "{sizes:?} {mv}");
            checked += 1;
        }
    }
    assert!(checked > 10);
    // A hexadecimal code has no misère quotient here: no reading, rather
    // than one that misreads a three-heap move.
    let hex = AnyRules::parse("octal:0.F", Convention::Misere).expect("rules");
    let position = hex.position(&[9]).expect("a position");
    let three = hex.parse_move("1 1 2 3").expect("a three-heap move");
    assert_eq!(hex.misere_reading(&position, Some(&three)), None);
}
