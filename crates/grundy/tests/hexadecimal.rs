//! Hexadecimal codes (a move may leave three heaps) and `!`, against a
//! brute-force computation written here from the definition: every way of
//! leaving one, two or three heaps, the value being the XOR of theirs.

use bouton_grundy::{CodeError, ComputeOptions, Engine, HeapGame, Periodicity, compute};

/// G(0..=upto) from the definition: digit d_k, bit 1 leave nothing, 2 one
/// heap, 4 two, 8 three; `unequal[k]`: the heaps d_k's splits leave differ.
fn by_definition(digits: &[u8], marks: &[bool], upto: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=upto {
        let mut options = Options::default();
        for (k, &d) in digits.iter().enumerate().take(n + 1) {
            let rest = n - k;
            let unequal = marks.get(k).copied().unwrap_or(false);
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
                if d & 8 == 0 {
                    continue;
                }
                for b in 1..rest - a {
                    let c = rest - a - b;
                    if !(unequal && (a == b || b == c || a == c)) {
                        options.insert(g[a] ^ g[b] ^ g[c]);
                    }
                }
            }
        }
        g.push(options.mex());
    }
    g
}

/// A set of small values, for the mex.
#[derive(Default)]
struct Options(Vec<bool>);

impl Options {
    fn insert(&mut self, v: u32) {
        let v = v as usize;
        if v >= self.0.len() {
            self.0.resize(v + 1, false);
        }
        self.0[v] = true;
    }

    fn mex(&self) -> u32 {
        self.0.iter().position(|&seen| !seen).unwrap_or(self.0.len()) as u32
    }
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
        let expected = by_definition(&digits, &vec![unequal; digits.len()], 70);
        for engine in [Engine::Auto, Engine::Sparse, Engine::Naive] {
            let options = ComputeOptions { engine, ..Default::default() };
            let seq = compute(&game, 70, options).expect("computed");
            assert_eq!(seq.to_vec().expect("values"), expected, "{text} with {engine:?}");
        }
    }
}

/// `!` on any digit, as CGSuite reads it (the heaps left by that digit's
/// moves pairwise unequal, the other digits unrestricted): random codes with
/// random marks, every engine, against the definition above; the code
/// written back is the code read.
#[test]
fn a_mark_on_any_digit_restricts_that_digit_alone() {
    let mut state = 5;
    let mut cases = vec![(vec![4u8, 0, 4], vec![true, false, false]), (vec![0, 3, 15], vec![false, false, true])];
    for _ in 0..60 {
        let len = 2 + lcg(&mut state) % 3;
        let hex = lcg(&mut state).is_multiple_of(2);
        let top = if hex { 16 } else { 8 };
        let mut digits = vec![[0u8, 4, 8, 12][(lcg(&mut state) % if hex { 4 } else { 2 }) as usize]];
        digits.extend((1..len).map(|_| (lcg(&mut state) % top) as u8));
        let marks: Vec<bool> = digits.iter().map(|_| lcg(&mut state).is_multiple_of(2)).collect();
        cases.push((digits, marks));
    }
    for (digits, marks) in cases {
        let game = HeapGame::from_marked_digits(&digits, 0, &marks).expect("a game");
        let text = game.to_string();
        assert_eq!(HeapGame::parse_hexadecimal(&text).expect("parses back"), game, "{text}");
        for (k, (&d, &mark)) in digits.iter().zip(&marks).enumerate() {
            assert_eq!(game.unequal_at(k as u64), mark && d & 12 != 0, "{text}: d{k}");
        }
        let expected = by_definition(&digits, &marks, 60);
        for engine in [Engine::Auto, Engine::Sparse, Engine::Naive] {
            let options = ComputeOptions { engine, ..Default::default() };
            let seq = compute(&game, 60, options).expect("computed");
            assert_eq!(seq.to_vec().expect("values"), expected, "{text} with {engine:?}");
        }
        // The options listed are the definition's (two heaps at most).
        if !game.leaves_three() {
            for n in 0..30u64 {
                for option in game.options(n) {
                    assert!(game.allows(n, option), "{text}: {option:?} from {n}");
                    let (a, b) = (option.left, option.right);
                    assert!(!(b != 0 && a == b && game.unequal_at(option.take)), "{text}: {option:?}");
                }
            }
        }
    }
}

/// `!` follows the digit it restricts, as in CGSuite: `4!.04` restricts
/// d0's splits alone, `0.3F!` d2's (CGSuite's own example); a `!` that
/// follows no digit is refused with a message saying so; the octal parser
/// refuses hexadecimal digits and says where they are read.
#[test]
fn notation_is_checked() {
    assert_eq!("4!.0".parse::<HeapGame>().unwrap(), HeapGame::grundys_game());
    assert_eq!(HeapGame::parse_hexadecimal("8!.0").unwrap().to_string(), "8!.0");
    for (code, written) in [
        ("4!.04", "4!.04"),
        ("0.4!7", "0.4!7"),
        ("4!.4!", "4!.4!"),
        ("0.3!7", "0.37"),
        ("0!.7", "0.7"),
        ("0.3f!", "0.3F!"),
    ] {
        assert_eq!(HeapGame::parse_hexadecimal(code).unwrap().to_string(), written, "{code}");
    }
    // CGSuite's traversal of 0.3F! from a heap of 9: 8, 7, 1+6, 2+5, 3+4, 1+2+4.
    let game = HeapGame::parse_hexadecimal("0.3F!").unwrap();
    let two: Vec<_> = game.options(9).map(|o| (o.take, o.left, o.right)).collect();
    assert_eq!(two, vec![(1, 8, 0), (2, 7, 0), (2, 1, 6), (2, 2, 5), (2, 3, 4)]);
    for code in ["!.7", "0.!7", "0.7!!", "4!!.0"] {
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

/// The periodicity theorem for moves leaving three heaps (the bound derived
/// and proved in `Periodicity`'s documentation): every period it proves
/// holds, by the definition, over three more periods and a long stretch
/// beyond the values the proof read, and its pre-period is the least.
#[test]
fn hexadecimal_periods_proved_hold_by_the_definition() {
    let mut proved = 0;
    for code in ["0.F", "0.9", "0.B", "0.D", "4.8", "0.8", "0.C", "0.1F", "0.3F", "0.0F", "0.19", "0.F1", "0.8F"] {
        let game = HeapGame::parse_hexadecimal(code).unwrap();
        let options = ComputeOptions { stop_when_proved: true, ..Default::default() };
        let seq = compute(&game, 1500, options).expect("computed");
        let Periodicity::Proved { period, preperiod, needed } = *seq.periodicity() else {
            continue;
        };
        proved += 1;
        let t = game.digits().len() as u64 - 1;
        assert_eq!(needed, 3 * (preperiod.max(1) + period) + t - 1, "{code}");
        assert!(needed < seq.len(), "{code}");
        let upto = (needed + 3 * period + 200) as usize;
        let digits: Vec<u8> = game.digits().to_vec();
        let g = by_definition(&digits, &[], upto);
        for n in preperiod as usize..=upto - period as usize {
            assert_eq!(g[n], g[n + period as usize], "{code}: G({n}) and G({}) differ", n + period as usize);
        }
        if preperiod > 0 {
            let e = preperiod as usize - 1;
            assert_ne!(g[e], g[e + period as usize], "{code}: the pre-period is not the least");
        }
    }
    assert!(proved >= 5, "only {proved} codes proved");
    // Until proved, with no N of its own (2^32 values would not fit the
    // memory limit): the direct method stops at the proof.
    let options = ComputeOptions { stop_when_proved: true, ..Default::default() };
    let seq = compute(&HeapGame::parse_hexadecimal("0.F").unwrap(), 1 << 32, options).expect("proved, not refused");
    assert_eq!(*seq.periodicity(), Periodicity::Proved { period: 2, preperiod: 0, needed: 9 });
}
