//! For every rule set: the library's analysis (winner, Grundy value of the
//! whole, the positions every winning move leads to) equals the independent
//! exhaustive search of `oracle/`, on every small position, in normal play
//! and, where bouton offers it, misère play.

use std::collections::BTreeSet;

use crate::oracle::{Code, Fib, Moore, Oracle, Stair, Tree, WythoffSum};
use bouton_analysis::Winner;
use bouton_games::{AnalysisError, AnyPosition, AnyRules, Budget, HeapGame, RuleSet, Unavailable};
use bouton_rules::{Convention, Rules};

const CONVENTIONS: [Convention; 2] = [Convention::Normal, Convention::Misere];

/// Every list of `count` numbers from 0 to `max`.
fn grid(count: usize, max: u64) -> Vec<Vec<u64>> {
    let mut all = vec![vec![]];
    for _ in 0..count {
        all = all.into_iter().flat_map(|v: Vec<u64>| (0..=max).map(move |x| [v.clone(), vec![x]].concat())).collect();
    }
    all
}

/// Checks one position: `canon` turns a library position into the
/// oracle's canonical form.
fn check<T: Tree>(
    rules: &AnyRules,
    oracle: &mut Oracle<T>,
    numbers: &[u64],
    canon: &impl Fn(&AnyPosition) -> T::Pos,
) -> usize {
    let Ok(position) = rules.position(numbers) else {
        return 0;
    };
    if rules.is_over(&position) {
        return 0;
    }
    let key = canon(&position);
    let value = oracle.value(&key);
    let analysis = rules.analyze(&position).unwrap_or_else(|e| panic!("{}: {numbers:?}: {e}", rules.title()));
    let context = format!("{} at {numbers:?}", rules.title());
    assert_eq!(analysis.winner == Winner::Mover, value != 0, "winner, {context}");
    if let Some(total) = analysis.total {
        assert_eq!(total, u64::from(value), "value of the whole, {context}");
    }
    assert!(analysis.complete, "{context}");
    let mut reached = BTreeSet::new();
    for mv in &analysis.winning_moves {
        let mut after = position.clone();
        rules.play(&mut after, *mv).unwrap_or_else(|e| panic!("{context}: winning move {mv} is illegal: {e}"));
        reached.insert(format!("{:?}", canon(&after)));
    }
    let expected: BTreeSet<String> = oracle.winning_children(&key).iter().map(|p| format!("{p:?}")).collect();
    assert_eq!(reached, expected, "where the winning moves lead, {context}");
    1
}

fn heaps_of(p: &AnyPosition) -> Vec<u64> {
    let (AnyPosition::Nim(h) | AnyPosition::Heap(h) | AnyPosition::Moore(h)) = p else { panic!("heaps expected") };
    let mut v: Vec<u64> = h.as_slice().iter().copied().filter(|&x| x > 0).collect();
    v.sort_unstable();
    v
}

fn heap_rule_sets() -> Vec<(RuleSet, Code)> {
    let reach = 12;
    vec![
        (rule_set("nim"), Code::new(&[0], 3, false, reach)),
        (rule_set("subtraction:2,3,7"), Code::new(&[0, 0, 3, 3, 0, 0, 0, 3], 0, false, reach)),
        (rule_set("all-but:1,2"), Code::new(&[0, 0, 0], 3, false, reach)),
        (rule_set("take-limit:3"), Code::new(&[0, 3, 3, 3], 0, false, reach)),
        (rule_set("kayles"), Code::new(&[0, 7, 7], 0, false, reach)),
        (rule_set("dawsons-kayles"), Code::new(&[0, 0, 7], 0, false, reach)),
        (rule_set("0.354"), Code::new(&[0, 3, 5, 4], 0, false, reach)),
        (rule_set("4.07"), Code::new(&[4, 0, 7], 0, false, reach)),
        (rule_set("grundy"), Code::new(&[4], 0, true, reach)),
        (rule_set("lasker"), Code::new(&[4], 3, false, reach)),
    ]
}

#[test]
fn heap_games_match_the_oracle() {
    let mut checked = 0;
    for (set, code) in heap_rule_sets() {
        for convention in CONVENTIONS {
            let rules = AnyRules::new(set.clone(), convention);
            let mut oracle = Oracle::new(
                Code { digits: code.digits.clone(), unequal: code.unequal },
                convention == Convention::Misere,
            );
            for count in 1..=3 {
                let max = [0, 12, 8, 5][count];
                for numbers in grid(count, max) {
                    checked += check(&rules, &mut oracle, &numbers, &heaps_of);
                }
            }
        }
    }
    assert!(checked > 5000, "only {checked} positions checked");
}

#[test]
fn moores_nim_matches_the_oracle() {
    let mut checked = 0;
    for k in 1..=3 {
        for convention in CONVENTIONS {
            let rules = AnyRules::new(rule_set(&format!("moore:{k}")), convention);
            let mut oracle = Oracle::new(Moore(k as usize), convention == Convention::Misere);
            for count in 1..=4 {
                let max = [0, 9, 6, 4, 3][count];
                for numbers in grid(count, max) {
                    checked += check(&rules, &mut oracle, &numbers, &heaps_of);
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} positions checked");
}

#[test]
fn wythoff_matches_the_oracle() {
    let mut checked = 0;
    let canon = |p: &AnyPosition| {
        let AnyPosition::Wythoff(pairs) = p else { panic!("pairs expected") };
        let mut v: Vec<(u64, u64)> =
            pairs.as_slice().iter().map(|&(a, b)| (a.min(b), a.max(b))).filter(|&q| q != (0, 0)).collect();
        v.sort_unstable();
        v
    };
    for convention in CONVENTIONS {
        let rules = AnyRules::new(rule_set("wythoff"), convention);
        let mut oracle = Oracle::new(WythoffSum, convention == Convention::Misere);
        for numbers in grid(2, 14).into_iter().chain(grid(4, 4)) {
            checked += check(&rules, &mut oracle, &numbers, &canon);
        }
    }
    assert!(checked > 500, "only {checked} positions checked");
}

#[test]
fn staircase_matches_the_oracle() {
    let mut checked = 0;
    let canon = |p: &AnyPosition| {
        let AnyPosition::Staircase(s) = p else { panic!("stairs expected") };
        let mut v = s.as_slice().to_vec();
        while v.last() == Some(&0) {
            v.pop();
        }
        v
    };
    for convention in CONVENTIONS {
        let rules = AnyRules::new(rule_set("staircase"), convention);
        let mut oracle = Oracle::new(Stair, convention == Convention::Misere);
        for count in 1..=4 {
            for numbers in grid(count, [0, 9, 6, 4, 3][count]) {
                checked += check(&rules, &mut oracle, &numbers, &canon);
            }
        }
    }
    assert!(checked > 500, "only {checked} positions checked");
}

#[test]
fn fibonacci_nim_matches_the_oracle() {
    let mut checked = 0;
    let canon = |p: &AnyPosition| {
        let AnyPosition::Fibonacci(f) = p else { panic!("a heap expected") };
        (f.heap(), f.max_take())
    };
    for convention in CONVENTIONS {
        let rules = AnyRules::new(rule_set("fibonacci"), convention);
        let mut oracle = Oracle::new(Fib, convention == Convention::Misere);
        for n in 2..=60 {
            checked += check(&rules, &mut oracle, &[n], &canon);
            for limit in 1..n {
                checked += check(&rules, &mut oracle, &[n, limit], &canon);
            }
        }
    }
    assert!(checked > 2000, "only {checked} positions checked");
}

#[test]
fn northcott_misere_is_plainly_not_available() {
    let rules = AnyRules::new(rule_set("northcott"), Convention::Misere);
    let start = rules.position(&[8, 1, 6]).unwrap();
    let err = rules.analyze(&start).unwrap_err();
    let AnalysisError::NotAvailable { rules: name, reason } = &err else { panic!("{err}") };
    assert_eq!(name, "Northcott's game, misère play");
    assert!(matches!(reason, Unavailable::Cycles { .. }), "{err}");
    assert!(reason.to_string().contains("misère"), "{err}");
    assert!(err.to_string().starts_with("analysis not available for Northcott's game, misère play: "));
}

/// An illegal move is described too, without a gap when it lands on the
/// other piece (found by fuzzing: the gap was computed as 0 − 1).
#[test]
fn a_northcott_move_onto_the_other_piece_is_described() {
    let rules = AnyRules::new(rule_set("northcott"), Convention::Normal);
    let board = rules.position(&[8, 1, 6]).unwrap();
    let onto = rules.parse_move("1 6").unwrap();
    assert!(rules.check(&board, onto).is_err());
    assert_eq!(rules.describe_move(&board, &onto).to_string(), "move White in row 1 to column 6");
    assert_eq!(
        rules.describe_move(&board, &rules.parse_move("1 3").unwrap()).to_string(),
        "move White in row 1 to column 3, leaving a gap of 2"
    );
}

/// Every Fibonacci Nim position is written as numbers that read back as it
/// (found by fuzzing: heap 1 with limit 0 was written as a start of 1, which
/// is no position, and a limit of 2^64 − 1 overflowed).
#[test]
fn fibonacci_positions_are_written_as_numbers_that_read_back() {
    let rules = AnyRules::new(rule_set("fibonacci"), Convention::Normal);
    for numbers in [vec![20], vec![20, 4], vec![1, 0], vec![2, 1], vec![0, 0], vec![5, u64::MAX], vec![u64::MAX]] {
        let position = rules.position(&numbers).unwrap();
        assert_eq!(rules.position(&rules.numbers(&position)).unwrap(), position, "{numbers:?}");
    }
    assert_eq!(rules.numbers(&rules.position(&[20, 19]).unwrap()), [20], "a start is written as its heap");
}

/// The code of every heap rule set reads back as the same game, the
/// largest all-but set's too, whose repeated digit comes after the most
/// digits a code may write out (found by fuzzing: it was refused as too
/// long).
#[test]
fn heap_game_codes_read_back() {
    for text in ["all-but:4096", "all-but:1,4096", "take-limit:4096", "subtraction:4096", "lasker", "nim", "kayles"] {
        let game = text.parse::<RuleSet>().unwrap().heap_game().unwrap();
        let code = game.to_string();
        assert_eq!(code.parse::<HeapGame>(), Ok(game), "{text}: {code}");
    }
    let longest = format!("0.{}3…", "0".repeat(4096));
    assert!(longest.parse::<HeapGame>().is_ok());
    assert!(format!("0.{}33…", "0".repeat(4096)).parse::<HeapGame>().is_err(), "one digit more is too long");
    assert!(format!("0.{}3", "0".repeat(4096)).parse::<HeapGame>().is_err(), "as is one written out");
}

#[test]
fn large_misere_positions_are_plainly_not_available() {
    // Lasker's Nim: no misère quotient covers heaps this large.
    let rules = AnyRules::new(rule_set("lasker"), Convention::Misere);
    let err = rules.analyze(&rules.position(&[400, 401, 402, 403]).unwrap()).unwrap_err();
    assert!(
        err.to_string().starts_with("analysis not available within the limits for Lasker's Nim, misère play: "),
        "{err}"
    );
    assert!(matches!(err, AnalysisError::OverBudget { .. }), "{err}");
    // Misère Nim has a theory: any size is fine.
    let nim = AnyRules::new(rule_set("nim"), Convention::Misere);
    assert_eq!(nim.analyze(&nim.position(&[u64::MAX, 1, 7]).unwrap()).unwrap().winner, Winner::Mover);
}

/// Illegal moves are explained in the players' words, never in the octal
/// code behind the rules; a part equal to what is left leaves one heap.
#[test]
fn illegal_heap_moves_speak_plainly() {
    let rules = AnyRules::parse("subtraction:2,3,7", Convention::Normal).unwrap();
    let heaps = rules.position(&[7, 4]).unwrap();
    let err = rules.check(&heaps, rules.parse_move("1 1").unwrap()).unwrap_err().to_string();
    assert!(err.starts_with("take 1 from heap 1 is not allowed here: take 2"), "{err}");
    assert!(!err.contains("0.0330003"), "{err}");
    let kayles = AnyRules::parse("kayles", Convention::Normal).unwrap();
    let row = kayles.position(&[3, 3]).unwrap();
    let err = kayles.check(&row, kayles.parse_move("2 1 99").unwrap()).unwrap_err().to_string();
    assert!(err.contains("heap 2 has 2 left after taking 1, not 99"), "{err}");
    // `2 2 1` (take 2, leave the 1 that is left) is `2 2 0` written out.
    let (written, short) = (kayles.parse_move("2 2 1").unwrap(), kayles.parse_move("2 2 0").unwrap());
    assert!(kayles.check(&row, written).is_ok());
    let (mut a, mut b) = (row.clone(), row.clone());
    kayles.apply(&mut a, written);
    kayles.apply(&mut b, short);
    assert_eq!(a, b);
    let grundy = AnyRules::parse("grundy", Convention::Normal).unwrap();
    let err = grundy.check(&grundy.position(&[4]).unwrap(), grundy.parse_move("1 0 2").unwrap()).unwrap_err();
    assert!(!err.to_string().contains("4!.0"), "{err}");
}

/// The rule set named `id`.
fn rule_set(id: &str) -> RuleSet {
    id.parse().unwrap()
}

/// The one lost-position policy agrees, in Nim, with the exact policy of
/// bouton-players (fewest winning replies, then fewest tokens taken)
/// checked there against every legal move: the same moves in every lost
/// position of up to four heaps of up to 6, in both conventions.
#[test]
fn the_toughest_moves_are_nims_exact_ones() {
    let mut checked = 0;
    for convention in CONVENTIONS {
        let rules = AnyRules::new(rule_set("nim"), convention);
        for count in 1..=4 {
            for numbers in grid(count, 6) {
                let position = rules.position(&numbers).unwrap();
                if rules.is_over(&position) || rules.analyze(&position).unwrap().winner == Winner::Mover {
                    continue;
                }
                let toughest = rules.toughest(&position, &Budget::interactive()).unwrap();
                let ours: BTreeSet<String> = toughest.moves.iter().map(|mv| mv.to_string()).collect();
                let exact: BTreeSet<String> =
                    bouton_players::toughest_moves(&numbers, convention).iter().map(|mv| mv.to_string()).collect();
                assert_eq!(ours, exact, "{convention:?} {numbers:?}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} lost positions checked");
}

/// Fibonacci Nim's optional second number (the most the next move may take,
/// as in a game under way) is read and documented.
#[test]
fn fibonacci_positions_say_what_the_second_number_is() {
    let entry = RuleSet::catalog().into_iter().find(|e| e.id == "fibonacci").expect("Fibonacci Nim is listed");
    assert!(entry.position.contains("the most the next move may take"), "{}", entry.position);
    let rules = AnyRules::parse("fibonacci", Convention::Normal).expect("rules");
    let position = rules.position(&[10, 2]).expect("a game under way");
    assert_eq!(rules.describe_position(&position), "A heap of 10; the next move may take 1 to 2.");
    assert_eq!(rules.numbers(&position), [10, 2]);
}

/// Codes and sets written wrong are refused with a message naming the
/// mistake once.
#[test]
fn malformed_codes_and_sets_are_refused_clearly() {
    for (text, words) in [
        ("0.", "no digits after the point"),
        ("0....", "no digits after the point"),
        ("4!.", "no digits after the point"),
        ("0.7.7", "more than one point"),
        ("04.7", "one digit before the point"),
        ("0.FX", "not a hexadecimal digit"),
        ("4.8!!", "write it once"),
        ("subtraction:1,,2", "missing between two commas"),
        ("octal:04.7", "one digit before the point"),
    ] {
        let message = text.parse::<RuleSet>().expect_err(text).to_string();
        assert!(message.contains(words), "{text}: {message}");
        let code = text.trim_start_matches("octal:");
        assert_eq!(message.matches(&format!("{code:?}")).count(), 1, "{text}: the code once in {message}");
    }
    assert_eq!("subtraction:{2,3,7}".parse::<RuleSet>().expect("a set").to_string(), "subtraction:2,3,7");
}

/// 0.16's period (149,459 from 105,351, Gangolli–Plambeck) is found and
/// proved within the table, so a heap of 10^8 is analysed exactly: the
/// winning move leaves two heaps whose values, by the proved period, cancel.
#[test]
fn a_game_proved_periodic_beyond_the_default_period_is_analysed_at_any_size() {
    let rules = AnyRules::parse("octal:0.16", Convention::Normal).expect("rules");
    let position = rules.position(&[100_000_000]).expect("a heap");
    let analysis = rules.analyze(&position).expect("analysed");
    assert_eq!(analysis.winner, Winner::Mover);
    let seq = bouton_grundy::compute(&"0.16".parse().expect("a code"), 600_000, Default::default()).expect("computed");
    let values = seq.to_vec().expect("in memory");
    let (period, pre) = (149_459u64, 105_351u64);
    assert!((pre + period..=600_000).all(|n| values[n as usize] == values[(n - period) as usize]));
    let g = |n: u64| if n < pre { values[n as usize] } else { values[(pre + (n - pre) % period) as usize] };
    assert_eq!(analysis.total, Some(u64::from(g(100_000_000))));
    let mv = *analysis.winning_moves.first().expect("a winning move");
    let mut after = position.clone();
    bouton_rules::Rules::apply(&rules, &mut after, mv);
    let left = rules.numbers(&after).iter().fold(0, |x, &n| x ^ g(n));
    assert_eq!(left, 0, "{mv} leaves value 0");
}
