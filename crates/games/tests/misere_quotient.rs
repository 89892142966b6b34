//! Misère play by the misère quotient: for every game whose quotient the
//! engine proves for every heap size, the outcome and the complete set of
//! winning moves agree with the exhaustive misère search written here
//! (`oracle`) on every sum of a few small heaps; on large heaps they are
//! consistent with the misère rule (a lost position has no move to a lost
//! one, every winning move named leads to one); the explanation reads the
//! same; and positions no quotient covers are still searched.

use std::collections::{BTreeSet, HashSet};

use crate::oracle::{Code, Oracle};
use bouton_analysis::Winner;
use bouton_games::{AnalysisError, AnyMove, AnyPosition, AnyRules, Budget, Method};
use bouton_misere::Outcome;
use bouton_rules::{Convention, Rules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The games proved for every heap size (`bouton misere CODE`), with their
/// digits d0 d1 d2.
const PROVED: [(&str, [u8; 3]); 8] = [
    ("0.75", [0, 7, 5]),
    ("0.34", [0, 3, 4]),
    ("0.53", [0, 5, 3]),
    ("0.71", [0, 7, 1]),
    ("0.72", [0, 7, 2]),
    ("0.31", [0, 3, 1]),
    ("0.52", [0, 5, 2]),
    ("0.77", [0, 7, 7]),
];

/// Plenty of work and no clock: these tests check answers, never time.
/// (A quotient that costs that much is kept in the user's data directory:
/// here in none, see [`isolated`].)
fn roomy() -> Budget {
    isolated();
    Budget::new(1 << 40, 1 << 31)
}

/// Keeps the quotients these tests compute nowhere but in memory: neither
/// the user's data directory is read or written nor a temporary one left
/// behind (the shipped quotients are still read, and proved again).
fn isolated() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| bouton_games::keep_quotients_in(None));
}

/// Misère rules for `code` with its quotient computed.
fn solved(code: &str) -> AnyRules {
    let rules = AnyRules::parse(&format!("octal:{code}"), Convention::Misere).unwrap().with_budget(roomy());
    let q = rules.misere_quotient(&roomy()).unwrap_or_else(|| panic!("{code}: no quotient"));
    assert!(q.pretending().period().is_some(), "{code}: proved for every heap size");
    rules
}

fn canonical(mut heaps: Vec<u64>) -> Vec<u64> {
    heaps.retain(|&h| h > 0);
    heaps.sort_unstable();
    heaps
}

fn after(rules: &AnyRules, position: &AnyPosition, mv: AnyMove) -> Vec<u64> {
    let mut next = position.clone();
    rules.apply(&mut next, mv);
    rules.numbers(&next)
}

/// Every multiset of `count` heaps of 1 to `max` tokens.
fn sums(count: usize, max: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    for _ in 0..count {
        out = out
            .into_iter()
            .flat_map(|p: Vec<u64>| {
                let low = p.last().copied().unwrap_or(1);
                (low..=max).map(move |h| {
                    let mut q = p.clone();
                    q.push(h);
                    q
                })
            })
            .collect();
    }
    out
}

/// Outcome and the complete set of winning moves, against the search, on
/// every sum of up to three heaps of up to 12 tokens and four of up to 8.
#[test]
fn the_quotient_agrees_with_an_exhaustive_search_on_small_sums() {
    for (code, digits) in PROVED {
        let rules = solved(code);
        let mut oracle = Oracle::new(Code::new(&digits, 0, false, 12), true);
        let positions = (1..=3).flat_map(|n| sums(n, 12)).chain(sums(4, 8));
        for heaps in positions {
            let position = rules.position(&heaps).unwrap();
            let analysis = rules.analyze(&position).unwrap();
            assert_eq!(analysis.method, Method::MisereQuotient, "{code} {heaps:?}");
            assert!(analysis.complete, "{code} {heaps:?}");
            let lost = oracle.value(&canonical(heaps.clone())) == 0;
            assert_eq!(analysis.winner == Winner::Opponent, lost, "{code} {heaps:?}");
            let expected: HashSet<AnyMove> = rules
                .legal_moves(&position)
                .filter(|&mv| oracle.value(&canonical(after(&rules, &position, mv))) == 0)
                .collect();
            let got: HashSet<AnyMove> = analysis.winning_moves.iter().copied().collect();
            assert_eq!(got.len(), analysis.winning_moves.len(), "{code} {heaps:?}: no move twice");
            assert_eq!(got, expected, "{code} {heaps:?}");
            // The positions they reach are the search's own winning children.
            let reached: BTreeSet<Vec<u64>> = got.iter().map(|&mv| canonical(after(&rules, &position, mv))).collect();
            let children: BTreeSet<Vec<u64>> = oracle.winning_children(&canonical(heaps.clone())).into_iter().collect();
            assert_eq!(reached, children, "{code} {heaps:?}");
        }
    }
}

/// Large heaps: a lost position has no move to a lost one; every winning
/// move named leads to one, and when the list is complete it names every
/// such move.
#[test]
fn large_positions_follow_the_misere_rule() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    for (code, _) in PROVED {
        let rules = solved(code);
        let q = rules.misere_quotient(&roomy()).unwrap();
        let lost = |heaps: &[u64]| q.outcome(heaps) == Some(Outcome::Previous);
        let mut positions = vec![vec![1000, 2345, 7777], vec![999, 1000, 1001, 1002]];
        positions.extend((0..4).map(|_| (0..3).map(|_| rng.random_range(100..20_000)).collect::<Vec<u64>>()));
        for heaps in positions {
            let position = rules.position(&heaps).unwrap();
            let analysis = rules.analyze(&position).unwrap();
            assert_eq!(analysis.method, Method::MisereQuotient, "{code} {heaps:?}");
            assert_eq!(analysis.winner == Winner::Opponent, lost(&heaps), "{code} {heaps:?}");
            let to_lost: Vec<AnyMove> =
                rules.legal_moves(&position).filter(|&mv| lost(&after(&rules, &position, mv))).collect();
            if analysis.winner == Winner::Opponent {
                assert!(to_lost.is_empty(), "{code} {heaps:?}: a lost position with a move to a lost one");
                assert!(analysis.winning_moves.is_empty());
            } else {
                assert!(analysis.complete, "{code} {heaps:?}");
                assert!(!to_lost.is_empty(), "{code} {heaps:?}: a won position with no move to a lost one");
                assert_eq!(analysis.winning_moves, to_lost, "{code} {heaps:?}");
            }
        }
        // Heaps of a million: every winning move named leads to a lost
        // position.
        let heaps = [1_000_000, 999_999, 20, 30];
        let position = rules.position(&heaps).unwrap();
        let analysis = rules.analyze(&position).unwrap();
        assert_eq!(analysis.winner == Winner::Opponent, lost(&heaps), "{code} {heaps:?}");
        for &mv in &analysis.winning_moves {
            assert!(lost(&after(&rules, &position, mv)), "{code} {heaps:?}: {mv} does not win");
        }
    }
}

/// The explanation reads the analysis: the product is in the P-portion
/// exactly when the player to move loses, and the move explained (a winning
/// one) leaves a product in it.
#[test]
fn the_explanation_shows_the_elements_and_why_the_move_wins() {
    for (code, _) in PROVED {
        let rules = solved(code);
        for heaps in [vec![1000, 2345, 77777], vec![7, 11], vec![1, 1], vec![4, 4]] {
            let position = rules.position(&heaps).unwrap();
            let analysis = rules.analyze(&position).unwrap();
            let chosen = analysis.winning_moves.first();
            let reading = rules.misere_reading(&position, chosen).unwrap();
            assert_eq!(reading.heaps.len(), heaps.len());
            assert_eq!(reading.in_p, analysis.winner == Winner::Opponent, "{code} {heaps:?}");
            assert_eq!(reading.p_portion.contains(&reading.product), reading.in_p, "{code} {heaps:?}");
            assert!(reading.formula(10).ends_with(&format!("= {}", reading.product)));
            assert!(reading.period.is_some() && reading.proved_upto.is_none());
            match (&reading.chosen, chosen) {
                (Some(c), Some(mv)) => {
                    assert!(c.in_p && reading.p_portion.contains(&c.product), "{code} {heaps:?}: {mv}");
                    assert_eq!(c.text, mv.to_string());
                }
                (None, None) => assert!(reading.in_p),
                _ => panic!("{code} {heaps:?}: the chosen move is explained"),
            }
        }
    }
    // Normal play and rules that are not heap games have none.
    let normal = AnyRules::parse("octal:0.75", Convention::Normal).unwrap();
    assert!(normal.misere_reading(&normal.position(&[3]).unwrap(), None).is_none());
    let nim = AnyRules::parse("nim", Convention::Misere).unwrap();
    assert!(nim.misere_reading(&nim.position(&[3]).unwrap(), None).is_none());
}

/// The computer's lost-position policy counts each move's winning replies
/// from the quotient: the counts match the analyses after each move.
#[test]
fn winning_replies_come_from_the_quotient() {
    let rules = solved("0.75");
    let position = rules.position(&[40, 41, 300]).unwrap();
    let moves: Vec<AnyMove> = rules.legal_moves(&position).take(60).collect();
    let replies = rules.winning_replies(&position, &moves, &roomy());
    for (&mv, replies) in moves.iter().zip(replies) {
        let mut next = position.clone();
        rules.apply(&mut next, mv);
        let analysis = rules.analyze(&next).unwrap();
        assert_eq!(replies, Some(analysis.winning_moves.len()), "{mv}");
    }
}

/// Games with no quotient covering the position are still searched,
/// within the budget: Lasker's Nim and Grundy's game, which the periodicity
/// argument does not cover, on heaps beyond any range the engine computes
/// for them (a heap just past a quotient's range is searched in
/// [`a_quotient_of_the_smaller_heaps_is_used_for_them_only`]).
#[test]
fn positions_no_quotient_covers_are_searched() {
    isolated();
    for name in ["lasker", "grundy"] {
        let rules = AnyRules::parse(name, Convention::Misere).unwrap().with_budget(Budget::new(200_000, 16 << 20));
        let position = rules.position(&[1000, 2345, 77777]).unwrap();
        let err = rules.analyze(&position).unwrap_err();
        assert!(matches!(err, AnalysisError::OverBudget { .. }), "{name}: {err}");
        assert!(err.to_string().starts_with("analysis not available within the limits for "), "{err}");
    }
}

/// Where the quotient covers only heaps up to some size (no period proved),
/// it is used exactly there, and agrees with the search.
#[test]
fn a_quotient_of_the_smaller_heaps_is_used_for_them_only() {
    let rules = AnyRules::parse("all-but:1,2", Convention::Misere).unwrap().with_budget(roomy());
    let Some(q) = rules.misere_quotient(&roomy()) else {
        return;
    };
    assert!(q.pretending().period().is_none(), "a repeated digit: no period is proved");
    let upto = q.pretending().upto();
    let mut oracle = Oracle::new(Code::new(&[0, 0, 0], 3, false, 12), true);
    for heaps in (1..=3).flat_map(|n| sums(n, 12)) {
        let position = rules.position(&heaps).unwrap();
        let analysis = rules.analyze(&position).unwrap();
        assert_eq!(analysis.method, Method::MisereQuotient, "{heaps:?}");
        let lost = oracle.value(&canonical(heaps.clone())) == 0;
        assert_eq!(analysis.winner == Winner::Opponent, lost, "{heaps:?}");
        let reached: BTreeSet<Vec<u64>> =
            analysis.winning_moves.iter().map(|&mv| canonical(after(&rules, &position, mv))).collect();
        let children: BTreeSet<Vec<u64>> = oracle.winning_children(&canonical(heaps.clone())).into_iter().collect();
        assert_eq!(reached, children, "{heaps:?}");
    }
    let reading = rules.misere_reading(&rules.position(&[3]).unwrap(), None).unwrap();
    assert_eq!(reading.proved_upto, Some(upto));
    let beyond = rules.position(&[upto + 1]).unwrap();
    assert_eq!(rules.analyze(&beyond).unwrap().method, Method::ExhaustiveSearch);
    assert!(rules.misere_reading(&beyond, None).is_none());
}
