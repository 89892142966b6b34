//! Periods proved by the periodicity theorem, and the checks around it.

use std::sync::atomic::{AtomicBool, Ordering};

use bouton_grundy::{ComputeError, ComputeOptions, HeapGame, Periodicity, compute};

fn proved(game: &HeapGame, upto: u64) -> Periodicity {
    compute(game, upto, ComputeOptions::default()).expect("computed").periodicity().clone()
}

#[test]
fn kayles_is_proved_periodic_12_from_71() {
    // t = 2: the theorem needs n up to 2·71 + 2·12 + 2 − 1 = 167.
    assert_eq!(proved(&HeapGame::kayles(), 2000), Periodicity::Proved { period: 12, preperiod: 71, needed: 167 });
    // One value short of the proof: only apparent.
    assert_eq!(
        proved(&HeapGame::kayles(), 166),
        Periodicity::Apparent { period: 12, preperiod: 71, repeats: 8, needed: Some(167) }
    );
}

#[test]
fn an_apparent_period_needs_many_repeats_over_the_latter_half() {
    // 0.156 has period 349 from 3,479: at 4,000 a run of equal values at the
    // end once passed for period 1.
    let early = proved(&"0.156".parse().expect("a code"), 4000);
    assert!(matches!(early, Periodicity::None { .. }), "{early:?}");
    // 0.16's period 149,459 starts at 105,351; before that a few repeats of
    // a short pattern at the end are no evidence.
    let early = proved(&"0.16".parse().expect("a code"), 60_000);
    assert!(!matches!(early, Periodicity::Apparent { period, .. } if period < 1000), "{early:?}");
    // Every apparent period claimed on the way to Kayles' proof is the true one.
    for upto in 100..167 {
        if let Periodicity::Apparent { period, preperiod, repeats, .. } = proved(&HeapGame::kayles(), upto) {
            assert_eq!((period, preperiod), (12, 71), "at {upto}");
            assert!(repeats >= 3 && upto + 1 - preperiod >= upto.div_ceil(2), "at {upto}");
        }
    }
}

#[test]
fn dawsons_kayles_is_proved_periodic_34_from_53() {
    let p = proved(&HeapGame::dawsons_kayles(), 2000);
    assert_eq!(p, Periodicity::Proved { period: 34, preperiod: 53, needed: 2 * 53 + 2 * 34 + 2 - 1 });
}

#[test]
fn subtraction_2_3_7_is_proved_periodic_5_from_0() {
    let game = HeapGame::subtraction(&[2, 3, 7]).expect("a game");
    assert_eq!(game.to_string(), "0.0330003");
    // No splits: a window of t = 7 values repeating proves it.
    assert_eq!(proved(&game, 100), Periodicity::Proved { period: 5, preperiod: 0, needed: 11 });
    let values = compute(&game, 30, ComputeOptions::default()).unwrap().to_vec().unwrap();
    assert_eq!(&values[..10], &[0, 0, 1, 1, 2, 0, 0, 1, 1, 2]);
}

#[test]
fn stopping_once_proved_stops_early() {
    let options = ComputeOptions { stop_when_proved: true, ..Default::default() };
    let seq = compute(&HeapGame::kayles(), 10_000_000, options).expect("computed");
    assert!(seq.periodicity().is_proved());
    assert!(seq.len() < 10_000_000, "stopped at the first check after the proof");
}

#[test]
fn no_proof_for_games_outside_the_theorem() {
    // Grundy's game (unequal splits) and Nim (infinitely many digits).
    assert!(matches!(proved(&HeapGame::grundys_game(), 3000), Periodicity::None { .. }));
    // Nim grows by 1 each value: arithmetic, proved by the prefix theorem.
    assert!(matches!(proved(&HeapGame::nim(), 3000), Periodicity::ArithmeticProved { period: 1, saltus: 1, .. }));
    // Nim with a take limit of 3: G(n) = n mod 4, proved at once.
    let limit = HeapGame::take_limit(3).unwrap();
    assert!(matches!(proved(&limit, 100), Periodicity::Proved { period: 4, preperiod: 0, .. }));
    // Lasker's Nim grows without bound: no period, only an arithmetic one
    // (its closed form).
    let laskers = proved(&HeapGame::laskers_nim(), 60);
    assert!(matches!(laskers, Periodicity::ArithmeticProved { period: 4, saltus: 4, .. }), "{laskers:?}");
}

#[test]
fn a_raised_flag_cancels() {
    let flag = AtomicBool::new(false);
    let mut seen = 0u64;
    let mut progress = |p: bouton_grundy::Progress| {
        seen = p.done;
        if p.done >= 1 << 17 {
            flag.store(true, Ordering::Relaxed);
        }
    };
    let options = ComputeOptions { cancel: Some(&flag), progress: Some(&mut progress), ..Default::default() };
    let result = compute(&HeapGame::kayles(), 1 << 24, options);
    match result {
        Err(ComputeError::Cancelled { reached }) => assert!((1 << 17..1 << 24).contains(&reached)),
        other => panic!("expected a cancellation, got {other:?}"),
    }
    assert!(seen >= 1 << 17);
}

/// Nim, Lasker's Nim and the all-but games grow by a saltus each period:
/// the tracker reports it, and it holds, by the definition, over every
/// computed value from the reported pre-period.
#[test]
fn arithmetic_periodicity_is_found_and_holds() {
    let all_but = HeapGame::all_but(&[1, 2]).expect("a game");
    let cases = [(HeapGame::nim(), 1, 1, 0), (HeapGame::laskers_nim(), 4, 4, 1), (all_but, 3, 1, 0)];
    // 70,000 values arrive in two blocks: the saltus is followed across them.
    for ((game, period, saltus, preperiod), upto) in cases.into_iter().flat_map(|c| [(c.clone(), 3000), (c, 70_000)]) {
        let code = game.to_string();
        let seq = compute(&game, upto, ComputeOptions::default()).expect("computed");
        let found = seq.periodicity().clone();
        let Periodicity::ArithmeticProved { period: p, saltus: s, preperiod: e, needed } = found else {
            panic!("{code}: {found:?}");
        };
        assert_eq!((p, s, e), (period, saltus, preperiod), "{code}");
        assert!(needed < 100, "{code}: needed {needed}");
        let values = seq.to_vec().expect("in memory");
        for n in e as usize..values.len() - p as usize {
            assert_eq!(u64::from(values[n + p as usize]), u64::from(values[n]) + s, "{code} at {n}");
        }
        if e > 0 {
            let n = e as usize - 1;
            assert_ne!(u64::from(values[n + p as usize]), u64::from(values[n]) + s, "{code}: e is the least");
        }
    }
    // A purely periodic game is not reported as arithmetic.
    assert!(proved(&HeapGame::kayles(), 3000).is_proved());
}

/// 0.16 (Gangolli–Plambeck): period 149,459 from 105,351, proved with the
/// default options (no period limit), and the computation stops soon after
/// the last value the theorem needs.
#[test]
fn sixteen_is_proved_with_default_options() {
    let game: HeapGame = "0.16".parse().expect("a code");
    let expected =
        Periodicity::Proved { period: 149_459, preperiod: 105_351, needed: 2 * 105_351 + 2 * 149_459 + 2 - 1 };
    let options = ComputeOptions { stop_when_proved: true, ..Default::default() };
    let seq = compute(&game, 30_000_000, options).expect("computed");
    assert_eq!(seq.periodicity(), &expected);
    assert!(seq.upto() < 509_621 + (1 << 16), "stopped at {}", seq.upto());
    // Without stopping, the report at the end is the same.
    assert_eq!(proved(&game, 600_000), expected);
    // Before the period has repeated three times, nothing is claimed.
    assert!(matches!(proved(&game, 400_000), Periodicity::None { .. }));
}

/// A limit on the period is still honoured.
#[test]
fn a_period_limit_is_honoured() {
    let game: HeapGame = "0.16".parse().expect("a code");
    let options = ComputeOptions { max_period: 100_000, ..Default::default() };
    let seq = compute(&game, 600_000, options).expect("computed");
    assert_eq!(seq.periodicity(), &Periodicity::None { longest_checked: 100_000 });
}
