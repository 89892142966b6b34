//! Arithmetic periodicity proved by a theorem, and the values analysis takes
//! from it checked far beyond the proof against the definition.

use bouton_grundy::{ArithmeticTheorem, ComputeOptions, HeapGame, HeapValues, Meter, Periodicity, compute};

/// G(0..=upto) of a game that never splits, straight from the definition:
/// `digit(k)` for each k, bit 1 take the whole heap, bit 2 leave a heap.
fn by_definition(game: &HeapGame, upto: u64) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=upto {
        let mut options = std::collections::BTreeSet::new();
        for k in 1..=n {
            let d = game.digit(k);
            if d & 1 != 0 && k == n {
                options.insert(0);
            }
            if d & 2 != 0 && k < n {
                options.insert(g[(n - k) as usize]);
            }
        }
        g.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    g
}

/// A small generator, so that the test needs no crate.
fn lcg(state: &mut u64) -> u64 {
    *state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    *state >> 33
}

/// Games that never split, whose repeated digit is 2 or 3 (all-but games
/// among them): whenever the theorem proves an arithmetic period from a
/// table of 400 values, the values analysis uses up to 1,500 are those of
/// the definition; and most such games are proved.
#[test]
fn proved_arithmetic_periods_give_the_values_of_the_definition() {
    let mut state = 5;
    let (mut proved, mut tried) = (0, 0);
    for case in 0..120 {
        let len = 1 + lcg(&mut state) % 7;
        let mut digits = vec![0u8];
        digits.extend((1..len).map(|_| (lcg(&mut state) % 4) as u8));
        let tail = 2 + (case % 2) as u8;
        let game = HeapGame::from_digits(&digits, tail, false).expect("a game");
        assert!(matches!(ArithmeticTheorem::for_game(&game), ArithmeticTheorem::Prefix { .. }), "{game}");
        tried += 1;
        let expected = by_definition(&game, 1500);
        let seq = compute(&game, 400, ComputeOptions::default()).expect("computed");
        let computed: Vec<u64> = seq.iter().map(|v| u64::from(v.unwrap())).collect();
        assert_eq!(computed, expected[..401], "{game}");
        if let Periodicity::ArithmeticProved { period, saltus, preperiod, needed } = *seq.periodicity() {
            proved += 1;
            assert!(needed <= 400, "{game}");
            for n in preperiod..=1500 - period {
                assert_eq!(expected[(n + period) as usize], expected[n as usize] + saltus, "{game} at {n}");
            }
            let values = HeapValues::for_heaps_using(&game, 1500, &Meter::unlimited(), 400, None).expect("values");
            for n in 0..=1500u64 {
                assert_eq!(values.get(n), Some(expected[n as usize]), "{game}: G({n})");
            }
        }
    }
    assert!(proved * 10 >= tried * 9, "only {proved} of {tried} proved");
}

/// All-but games, Nim and Lasker's Nim are proved; a heap of a trillion has
/// the value the arithmetic period gives, and analysis finds a move to any
/// smaller value.
#[test]
fn all_but_games_are_proved_for_heaps_of_any_size() {
    for set in [&[1u64, 2][..], &[2, 5, 7], &[1, 3, 4, 9], &[6]] {
        let game = HeapGame::all_but(set).expect("a game");
        let seq = compute(&game, 2000, ComputeOptions::default()).expect("computed");
        let Periodicity::ArithmeticProved { period, saltus, preperiod, .. } = *seq.periodicity() else {
            panic!("all-but {set:?}: {:?}", seq.periodicity());
        };
        let values = HeapValues::for_heaps(&game, u64::MAX).expect("values for every heap");
        let n = 1_000_000_000_000u64;
        let r = preperiod + (n - preperiod) % period;
        assert_eq!(values.get(n), Some(values.get(r).unwrap() + (n - preperiod) / period * saltus));
        let target = values.get(n).unwrap() / 2;
        let mut meter = Meter::unlimited();
        let option = bouton_grundy::option_with_value(&game, &values, n, target, &mut meter).unwrap().expect("a move");
        assert!(game.allows(n, option), "all-but {set:?}: {option:?}");
        let left = if option.left == 0 { 0 } else { values.get(option.left).unwrap() };
        assert_eq!(left, target);
    }
}

/// Finite octal codes are never arithmetic-periodic: no proof is claimed,
/// and the theorem says why.
#[test]
fn finite_octal_codes_are_never_proved_arithmetic() {
    for code in ["0.77", "0.137", "4.07", "0.3"] {
        let game: HeapGame = code.parse().expect("a code");
        assert_eq!(ArithmeticTheorem::for_game(&game), ArithmeticTheorem::Impossible, "{code}");
    }
    assert_eq!(ArithmeticTheorem::for_game(&HeapGame::grundys_game()), ArithmeticTheorem::None);
}
