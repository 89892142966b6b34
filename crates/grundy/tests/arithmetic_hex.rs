//! The layer theorem (arithmetic periodicity with a saltus that is a power
//! of two, for hexadecimal codes and splitting codes with a repeated digit)
//! against the definition: every value the proved form gives, far beyond
//! the values the proof read, is the one a brute-force computation from the
//! rules finds; and the check refuses values that break a hypothesis.

use bouton_grundy::{ArithmeticTheorem, ComputeOptions, HeapGame, HeapValues, Meter, Periodicity, compute};

/// G(0..=upto) from the rules: d_k (k tokens removed) with bit 1 takes a
/// whole heap of k, bit 2 leaves one heap, bit 4 two and bit 8 three, every
/// heap left non-empty; a move's value is the XOR of the heaps left.
fn by_definition(game: &HeapGame, upto: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(upto + 1);
    let mut seen: Vec<bool> = Vec::new();
    let mut largest = 0u64;
    for n in 0..=upto {
        // XORs of values below 2^b are below 2^b: one flag each, and one
        // more for a mex of 2^b.
        let size = (largest + 1).next_power_of_two() as usize + 1;
        seen.clear();
        seen.resize(size, false);
        for k in 0..=n {
            let d = game.digit(k as u64);
            let rest = n - k;
            if d & 1 != 0 && rest == 0 {
                seen[0] = true;
            }
            if d & 2 != 0 && k > 0 && rest > 0 {
                seen[g[rest] as usize] = true;
            }
            if d & 4 != 0 {
                for a in 1..=rest / 2 {
                    seen[(g[a] ^ g[rest - a]) as usize] = true;
                }
            }
            if d & 8 != 0 {
                for a in 1..=rest / 3 {
                    for b in a..=(rest - a) / 2 {
                        seen[(g[a] ^ g[b] ^ g[rest - a - b]) as usize] = true;
                    }
                }
            }
        }
        let mex = seen.iter().position(|&s| !s).expect("a flag is left") as u64;
        largest = largest.max(mex);
        g.push(mex);
    }
    g
}

fn hexadecimal(code: &str) -> HeapGame {
    HeapGame::parse_hexadecimal(code).unwrap_or_else(|e| panic!("{code}: {e}"))
}

/// Codes the layer theorem proves (found by `bouton grundy CODE --upto 3000
/// --until-proved` over the one- and two-digit hexadecimal codes and a few
/// repeated-digit codes), with their period, saltus and pre-period.
const PROVED: [(&str, u64, u64, u64); 24] = [
    ("0.8", 3, 1, 1),
    ("0.C", 2, 1, 1),
    ("0.0F", 2, 1, 0),
    ("0.08", 4, 1, 1),
    ("0.0C", 3, 1, 1),
    ("0.28", 53, 16, 1),
    ("0.48", 2, 1, 1),
    ("0.84", 3, 1, 1),
    ("0.8E", 2, 1, 1),
    ("0.A8", 4, 2, 1),
    ("0.AD", 4, 2, 1),
    ("0.AA", 1, 1, 1),
    ("0.C6", 2, 1, 1),
    ("0.E9", 1, 1, 1),
    ("0.FF", 1, 1, 0),
    ("4.2…", 1, 1, 1),
    ("0.42…", 2, 1, 1),
    ("0.62…", 1, 1, 1),
    ("0.73…", 1, 1, 0),
    ("0.443…", 2, 1, 1),
    ("4.03…", 1, 1, 1),
    ("0.82…", 2, 1, 1),
    ("0.F3…", 1, 1, 0),
    ("0.A3…", 1, 1, 1),
];

/// Each code is proved from 400 values with the period listed, and every
/// value up to 1,000 (at least four times what the proof read), from the
/// form and from the values analysis uses (a table of 400, the proved form
/// beyond), is the definition's.
#[test]
fn proved_forms_agree_with_the_definition_far_beyond_the_proof() {
    for (code, period, saltus, preperiod) in PROVED {
        let game = hexadecimal(code);
        assert_eq!(ArithmeticTheorem::for_game(&game), ArithmeticTheorem::Layers, "{code}");
        let seq = compute(&game, 400, ComputeOptions::default()).expect("computed");
        let found = seq.periodicity().clone();
        let Periodicity::ArithmeticProved { needed, .. } = found else {
            panic!("{code}: {found:?}");
        };
        assert_eq!(found, Periodicity::ArithmeticProved { period, saltus, preperiod, needed }, "{code}");
        let upto = 1000.max(4 * needed as usize);
        let expected = by_definition(&game, upto);
        let computed: Vec<u64> = seq.iter().map(|v| u64::from(v.expect("a value"))).collect();
        assert_eq!(computed, expected[..=400], "{code}: the engine");
        let form = |n: u64| {
            if n < preperiod {
                computed[n as usize]
            } else {
                let (q, r) = ((n - preperiod) / period, (n - preperiod) % period);
                computed[(preperiod + r) as usize] + q * saltus
            }
        };
        let values = HeapValues::for_heaps_using(&game, upto as u64, &Meter::unlimited(), 400, None).expect("values");
        for (n, &g) in expected.iter().enumerate() {
            assert_eq!(form(n as u64), g, "{code}: the proved form at {n}");
            assert_eq!(values.get(n as u64), Some(g), "{code}: analysis at {n}");
        }
    }
}

/// A heap of a trillion in 0.8 (take one, split the rest into three) has
/// the value the proved form gives, ⌊(n − 1)/3⌋, which the definition shows
/// up to 1,000 above.
#[test]
fn a_heap_of_a_trillion_has_its_value() {
    let game = hexadecimal("0.8");
    let values = HeapValues::for_heaps(&game, u64::MAX).expect("proved for every heap");
    let n = 1_000_000_000_000u64;
    assert_eq!(values.get(n), Some((n - 1) / 3));
    let expected = by_definition(&game, 300);
    for (m, &g) in expected.iter().enumerate().skip(1) {
        assert_eq!(g, (m as u64 - 1) / 3, "G({m})");
    }
}

/// The true values are proved; the same values with the low value of one
/// residue changed in every period (so that G(n + p) = G(n) + s still holds
/// everywhere), with every value from the pre-period on raised by one, or
/// read as another game's, are refused.
#[test]
fn values_that_break_a_hypothesis_are_refused() {
    // Every change for the short periods; every seventh residue and three
    // other low values for 0.28 (period 53, saltus 16).
    for (code, period, saltus, preperiod) in PROVED.into_iter().filter(|&(_, _, s, _)| s > 1) {
        let game = hexadecimal(code);
        let theorem = ArithmeticTheorem::for_game(&game);
        let values = compute(&game, 300, ComputeOptions::default()).expect("computed").to_vec().expect("values");
        assert!(theorem.proves(&game, &values, period, saltus, preperiod).is_some(), "{code}");
        let mut tried = 0;
        let step = if period > 4 { 7 } else { 1 };
        for r in (0..period).step_by(step) {
            let low = u64::from(values[(preperiod + r) as usize]) % saltus;
            for other in (0..saltus).filter(|&y| y != low).take(3) {
                let mut changed = values.clone();
                for n in (preperiod + r..changed.len() as u64).step_by(period as usize) {
                    changed[n as usize] = (u64::from(values[n as usize]) - low + other) as u32;
                }
                assert_eq!(theorem.proves(&game, &changed, period, saltus, preperiod), None, "{code}: {r} to {other}");
                tried += 1;
            }
        }
        assert!(tried > 0);
        let raised: Vec<u32> = values.iter().enumerate().map(|(n, &v)| v + u32::from(n as u64 >= preperiod)).collect();
        assert_eq!(theorem.proves(&game, &raised, period, saltus, preperiod), None, "{code} raised");
    }
    // 0.8's values (period 3) are not 0.C's (period 2, also proved).
    let (g8, gc) = (hexadecimal("0.8"), hexadecimal("0.C"));
    let values = compute(&g8, 200, ComputeOptions::default()).expect("computed").to_vec().expect("values");
    assert!(ArithmeticTheorem::Layers.proves(&g8, &values, 3, 1, 1).is_some());
    assert_eq!(ArithmeticTheorem::Layers.proves(&gc, &values, 3, 1, 1), None);
    // A value changed past the proof's window: the values no longer show
    // the period, and nothing is proved.
    let mut late = values.clone();
    late[150] += 1;
    assert_eq!(ArithmeticTheorem::Layers.proves(&g8, &late, 3, 1, 1), None);
}

/// Where the theorem does not apply, nothing is claimed: 0.3F's saltus of
/// 3 has an odd factor, 0.0B's first values after its pre-period are not
/// below its saltus, and codes with `!` have no theorem.
#[test]
fn arithmetic_periods_outside_the_theorem_stay_apparent() {
    for (code, period, saltus) in [("0.3F", 6, 3), ("0.0B", 2, 1)] {
        let game = hexadecimal(code);
        let seq = compute(&game, 1000, ComputeOptions::default()).expect("computed");
        let expected = by_definition(&game, 1000);
        let computed: Vec<u64> = seq.iter().map(|v| u64::from(v.expect("a value"))).collect();
        assert_eq!(computed, expected, "{code}");
        let found = seq.periodicity();
        assert!(
            matches!(*found, Periodicity::Arithmetic { period: p, saltus: s, .. } if (p, s) == (period, saltus)),
            "{code}: {found:?}"
        );
    }
    assert_eq!(ArithmeticTheorem::for_game(&hexadecimal("0.C!")), ArithmeticTheorem::None);
    assert_eq!(ArithmeticTheorem::for_game(&HeapGame::grundys_game()), ArithmeticTheorem::None);
}

/// Heaps of a trillion and more in the hexadecimal codes proved above: a
/// move leaving a, c, c built from the values for every value below the
/// heap's (or for none, where no move has that shape) is legal and worth
/// what was asked; and most values are reached so.
#[test]
fn three_heap_moves_are_built_for_huge_heaps() {
    for (code, ..) in PROVED.into_iter().filter(|(code, ..)| !code.ends_with('…')) {
        let game = hexadecimal(code);
        let n = 1_000_000_000_000u64 + 7;
        let values = HeapValues::for_heaps(&game, n).expect("proved for every heap");
        let g = values.get(n).expect("a value");
        let (mut built, mut asked) = (0, 0);
        for target in (0..g).step_by((g / 40).max(1) as usize) {
            asked += 1;
            let mut meter = Meter::unlimited();
            let Some((take, parts)) =
                bouton_grundy::three_heap_option_with_value(&game, &values, n, target, &mut meter).expect("no budget")
            else {
                continue;
            };
            built += 1;
            assert!(game.digit(take) & 8 != 0, "{code}: takes {take}");
            assert!(parts.iter().all(|&a| a >= 1) && parts.iter().sum::<u64>() == n - take, "{code}: {parts:?}");
            let value = parts.iter().fold(0, |x, &a| x ^ values.get(a).expect("a value"));
            assert_eq!(value, target, "{code}: {parts:?}");
        }
        assert!(built * 2 >= asked, "{code}: {built} of {asked}");
    }
}
