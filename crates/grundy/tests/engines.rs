//! The engines against a plain quadratic computation written here from the
//! definition of an octal code, and against each other.

use bouton_grundy::{ComputeOptions, Engine, HeapGame, RareMask, compute};
use proptest::prelude::*;

/// G(0..=upto) straight from the definition: digit d_k, bit 1 leave
/// nothing, bit 2 leave one heap, bit 4 leave two.
fn by_definition(digits: &[u8], unequal: bool, upto: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(upto + 1);
    for n in 0..=upto {
        let mut options = std::collections::BTreeSet::new();
        for (k, &d) in digits.iter().enumerate() {
            if k > n {
                break;
            }
            let rest = n - k;
            if d & 1 != 0 && rest == 0 {
                options.insert(0);
            }
            if d & 2 != 0 && rest > 0 && k > 0 {
                options.insert(g[rest]);
            }
            if d & 4 != 0 {
                for a in 1..rest {
                    let b = rest - a;
                    if a <= b && !(unequal && a == b) {
                        options.insert(g[a] ^ g[b]);
                    }
                }
            }
        }
        g.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    g
}

fn computed(game: &HeapGame, upto: u64, engine: Engine, mask: Option<RareMask>) -> Vec<u32> {
    let options = ComputeOptions { engine, mask, ..Default::default() };
    compute(game, upto, options).expect("computed").to_vec().expect("values")
}

fn code_text(digits: &[u8]) -> String {
    let rest: String = digits[1..].iter().map(|d| char::from(b'0' + d)).collect();
    format!("{}.{}", digits[0], if rest.is_empty() { "0".to_owned() } else { rest })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// Random octal codes, 1 to 4 digits, with or without d0 = 4.
    #[test]
    fn every_engine_agrees_with_the_definition(
        split_at_zero in any::<bool>(),
        tail in proptest::collection::vec(0u8..8, 1..5),
        upto in 50usize..2500,
    ) {
        let mut digits = vec![if split_at_zero { 4 } else { 0 }];
        digits.extend(tail);
        let game: HeapGame = code_text(&digits).parse().unwrap();
        let expected = by_definition(&digits, false, upto);
        prop_assert_eq!(&computed(&game, upto as u64, Engine::Auto, None), &expected, "{} auto", game);
        if upto <= 800 {
            prop_assert_eq!(&computed(&game, upto as u64, Engine::Naive, None), &expected, "{} naive", game);
        }
        // Any mask gives the same values; only the speed changes.
        let mask = RareMask::new(1 + (upto as u32 % 13));
        prop_assert_eq!(&computed(&game, upto as u64, Engine::Sparse, Some(mask)), &expected, "{} mask {}", game, mask);
    }
}

#[test]
fn grundys_game_and_long_codes_agree_with_the_definition() {
    let expected = by_definition(&[4], true, 6000);
    assert_eq!(computed(&HeapGame::grundys_game(), 6000, Engine::Auto, None), expected);
    assert_eq!(computed(&HeapGame::grundys_game(), 3000, Engine::Naive, None), expected[..=3000]);
    for code in ["0.354", "0.137", "4.07", "0.6", "0.16", "0.4"] {
        let game: HeapGame = code.parse().unwrap();
        let digits: Vec<u8> = std::iter::once(game.digits()[0]).chain(game.digits()[1..].iter().copied()).collect();
        assert_eq!(computed(&game, 5000, Engine::Auto, None), by_definition(&digits, false, 5000), "{code}");
    }
}

#[test]
fn codes_with_a_repeated_digit() {
    // Nim: G(n) = n. Lasker's Nim: 4k+1, 4k+2, 4k+4, 4k+3.
    assert_eq!(computed(&HeapGame::nim(), 300, Engine::Auto, None), (0..=300).collect::<Vec<u32>>());
    let lasker = computed(&HeapGame::laskers_nim(), 400, Engine::Auto, None);
    for (n, &g) in lasker.iter().enumerate().skip(1) {
        let expected = match n % 4 {
            0 => n - 1,
            3 => n + 1,
            _ => n,
        };
        assert_eq!(g as usize, expected, "Lasker G({n})");
    }
    // All-but {1, 2}: take any number except 1 or 2, written out to 200.
    let game = HeapGame::all_but(&[1, 2]).unwrap();
    let mut digits = vec![0u8, 0, 0];
    digits.extend(std::iter::repeat_n(3, 200));
    assert_eq!(computed(&game, 200, Engine::Auto, None), by_definition(&digits, false, 200));
}

#[test]
fn values_streamed_to_disk_are_the_same() {
    let dir = std::env::temp_dir();
    for (game, upto) in
        [(HeapGame::grundys_game(), 400_000u64), (HeapGame::kayles(), 1_000_000), (HeapGame::nim(), 200_000)]
    {
        let in_memory = compute(&game, upto, ComputeOptions::default()).unwrap();
        let options = ComputeOptions { memory_limit: 256 * 1024, spill_dir: Some(dir.clone()), ..Default::default() };
        let on_disk = compute(&game, upto, options).unwrap();
        assert!(on_disk.is_on_disk(), "{game}: a 256 KiB limit sends {upto} values to disk");
        assert_eq!(on_disk.stats(), in_memory.stats(), "{game}");
        assert_eq!(on_disk.to_vec().unwrap(), in_memory.to_vec().unwrap(), "{game}");
        assert_eq!(on_disk.get(upto), in_memory.get(upto));
    }
}

/// Found by the property test above: with mask 0b111, 0.6402 reaches 256 at
/// n = 2255, a rare value just beyond every earlier value (the mex can be the
/// table's limit even when that is rare).
#[test]
fn a_rare_value_at_the_next_power_of_two() {
    let game: HeapGame = "0.6402".parse().unwrap();
    let expected = by_definition(&[0, 6, 4, 0, 2], false, 2255);
    assert_eq!(expected[2255], 256);
    assert_eq!(computed(&game, 2255, Engine::Sparse, Some(RareMask::new(0b111))), expected);
}

/// Two threads (the far splits on a second core) give the values one
/// thread gives, for Grundy's game whose 1,274 rare heaps keep the helper
/// busy, and for codes where it has too little to do to be called.
#[test]
fn two_threads_give_the_values_of_one() {
    let cases =
        [(HeapGame::grundys_game(), 200_000u64), (HeapGame::kayles(), 200_000), ("0.6".parse().unwrap(), 50_000)];
    for (game, upto) in cases {
        let one = ComputeOptions { threads: 1, ..Default::default() };
        let two = ComputeOptions { threads: 2, ..Default::default() };
        let (one, two) = (compute(&game, upto, one).unwrap(), compute(&game, upto, two).unwrap());
        assert_eq!(one.to_vec().unwrap(), two.to_vec().unwrap(), "{game}");
        assert_eq!(one.stats(), two.stats(), "{game}");
    }
    // Against the definition too, past the point where the helper starts.
    let expected = by_definition(&[4], true, 12_000);
    let two = ComputeOptions { threads: 2, ..Default::default() };
    assert_eq!(compute(&HeapGame::grundys_game(), 12_000, two).unwrap().to_vec().unwrap(), expected);
}

/// A first cousin (see `HeapGame::first_cousin`) is worth the game shifted
/// by one heap, G(n) = G'(n − 1), for every octal code with up to three
/// digits that has one, both from the definition; and exactly the codes
/// with an odd d1 (or with `!`, or a repeated digit) have none.
#[test]
fn first_cousins_are_the_game_shifted_by_one() {
    let mut cousins = 0;
    for index in 0..8 * 8 * 8 * 2 {
        let digits = vec![[0u8, 4][index / 512], ((index / 64) % 8) as u8, ((index / 8) % 8) as u8, (index % 8) as u8];
        let game = HeapGame::from_digits(&digits, 0, false).expect("a code");
        let Some(cousin) = game.first_cousin() else {
            assert!(digits[1] % 2 == 1, "{game} has an even d1 and no cousin");
            continue;
        };
        cousins += 1;
        let mine = by_definition(&digits, false, 90);
        let theirs = by_definition(cousin.digits(), false, 89);
        assert_eq!(mine[1..], theirs[..], "{game} and its cousin {cousin}");
    }
    assert_eq!(cousins, 512);
    assert_eq!(HeapGame::grundys_game().first_cousin(), None);
    assert_eq!(HeapGame::nim().first_cousin(), None);
}
