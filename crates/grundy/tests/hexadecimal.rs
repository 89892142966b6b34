//! Hexadecimal codes (a move may leave three heaps) and `!`, against a
//! brute-force computation written here from the definition: every way of
//! leaving one, two or three heaps, the value being the XOR of theirs.

use bouton_grundy::{CodeError, ComputeOptions, Engine, HeapGame, compute};

/// G(0..=upto) from the definition: digit d_k, bit 1 leave nothing, 2 one
/// heap, 4 two, 8 three; `unequal`: the heaps a split leaves differ.
fn by_definition(digits: &[u8], unequal: bool, upto: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=upto {
        let mut options = std::collections::BTreeSet::new();
        for (k, &d) in digits.iter().enumerate().take(n + 1) {
            let rest = n - k;
            if d & 1 != 0 && rest == 0 {
                options.insert(0);
            }
            if d & 2 != 0 && rest > 0 && k > 0 {
                options.insert(g[rest]);
            }
            // Every ordered split: order does not change the XOR.
            for a in 1..rest {
                let b = rest - a;
                if d & 4 != 0 && !(unequal && a == b) {
                    options.insert(g[a] ^ g[b]);
                }
                for b in 1..rest - a {
                    let c = rest - a - b;
                    if d & 8 != 0 && !(unequal && (a == b || b == c || a == c)) {
                        options.insert(g[a] ^ g[b] ^ g[c]);
                    }
                }
            }
        }
        g.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    g
}

fn lcg(state: &mut u64) -> u64 {
    *state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    *state >> 33
}

#[test]
fn hexadecimal_codes_agree_with_the_definition() {
    let mut codes: Vec<(Vec<u8>, bool)> =
        vec![(vec![0, 15], false), (vec![4, 8], false), (vec![8], false), (vec![8], true), (vec![12], true)];
    let mut state = 3;
    for _ in 0..40 {
        let len = 2 + lcg(&mut state) % 3;
        let mut digits = vec![[0u8, 4, 8, 12][(lcg(&mut state) % 4) as usize]];
        digits.extend((1..len).map(|_| (lcg(&mut state) % 16) as u8));
        if digits.iter().any(|d| d & 8 != 0) {
            codes.push((digits, false));
        }
    }
    for (digits, unequal) in codes {
        let game = HeapGame::from_digits(&digits, 0, unequal).expect("a game");
        let text = game.to_string();
        assert!(game.leaves_three(), "{text}");
        assert_eq!(HeapGame::parse_hexadecimal(&text).expect("parses back"), game);
        let expected = by_definition(&digits, unequal, 70);
        for engine in [Engine::Auto, Engine::Sparse, Engine::Naive] {
            let options = ComputeOptions { engine, ..Default::default() };
            let seq = compute(&game, 70, options).expect("computed");
            assert_eq!(seq.to_vec().expect("values"), expected, "{text} with {engine:?}");
            // No theorem is claimed for moves that leave three heaps.
            assert!(!seq.periodicity().is_proved(), "{text}");
        }
    }
}

/// `!` follows the digit it restricts, as in CGSuite: accepted after d0
/// when only d0 splits, refused elsewhere with a message saying so; the
/// octal parser refuses hexadecimal digits and says where they are read.
#[test]
fn notation_is_checked() {
    assert_eq!("4!.0".parse::<HeapGame>().unwrap(), HeapGame::grundys_game());
    assert_eq!(HeapGame::parse_hexadecimal("8!.0").unwrap().to_string(), "8!.0");
    for code in ["4!.04", "0.4!7", "0!.7", "4!.4"] {
        let error = HeapGame::parse_hexadecimal(code).unwrap_err();
        assert!(matches!(error, CodeError::Unequal { .. }), "{code}: {error:?}");
        let message = error.to_string();
        assert!(message.contains("pairwise unequal") && message.matches(code).count() == 1, "{message}");
    }
    let octal = "0.F".parse::<HeapGame>().unwrap_err().to_string();
    assert!(octal.contains("hexadecimal") && octal.contains("`bouton grundy`"), "{octal}");
    let hex = HeapGame::parse_hexadecimal("0.G").unwrap_err().to_string();
    assert!(hex.contains("not a hexadecimal digit"), "{hex}");
    for (code, words) in [("1.F", "first digit"), ("0.F…", "repeated last digit"), ("0.", "no digits")] {
        let message = HeapGame::parse_hexadecimal(code).unwrap_err().to_string();
        assert!(message.contains(words), "{code}: {message}");
    }
}
