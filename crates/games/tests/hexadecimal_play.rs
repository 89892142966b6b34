//! Hexadecimal codes (moves that leave three heaps) played and analysed,
//! checked against an exhaustive game-tree search written here from the
//! definition of the code's digits alone.

use std::collections::{BTreeSet, HashMap};

use bouton_games::{Budget, Game, HeapGame, HeapRules};
use bouton_rules::{Convention, Heaps, Rules};

/// Every position reachable in one move from `heaps` (sorted, zeros
/// dropped), straight from the digits: removing k tokens from a heap is
/// allowed to leave nothing (bit 1), one heap (bit 2, k ≥ 1), two heaps
/// (bit 4) or three heaps (bit 8), all non-empty, pairwise unequal when
/// the digit carries a `!`.
fn successors(digits: &[(u8, bool)], heaps: &[u64]) -> BTreeSet<Vec<u64>> {
    let mut next = BTreeSet::new();
    for (i, &n) in heaps.iter().enumerate() {
        let others: Vec<u64> = heaps.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &h)| h).collect();
        for (k, &(d, unequal)) in digits.iter().enumerate() {
            let k = k as u64;
            if k > n {
                break;
            }
            let rest = n - k;
            let mut leave = |parts: &[u64]| {
                if parts.iter().all(|&p| p > 0) {
                    let distinct: BTreeSet<u64> = parts.iter().copied().collect();
                    if !unequal || distinct.len() == parts.len() {
                        let mut after = others.clone();
                        after.extend_from_slice(parts);
                        after.sort_unstable();
                        next.insert(after);
                    }
                }
            };
            if d & 1 != 0 && rest == 0 {
                leave(&[]);
            }
            if d & 2 != 0 && k > 0 && rest > 0 {
                leave(&[rest]);
            }
            for a in 1..rest {
                if d & 4 != 0 {
                    leave(&[a, rest - a]);
                }
                for b in 1..rest - a {
                    if d & 8 != 0 {
                        leave(&[a, b, rest - a - b]);
                    }
                }
            }
        }
    }
    next
}

/// Whether the player to move wins `heaps` (sorted), normal play.
fn wins(digits: &[(u8, bool)], heaps: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    if let Some(&known) = memo.get(heaps) {
        return known;
    }
    let answer = successors(digits, heaps).iter().any(|after| !wins(digits, after, memo));
    memo.insert(heaps.to_vec(), answer);
    answer
}

fn sorted(heaps: &Heaps) -> Vec<u64> {
    let mut sizes: Vec<u64> = heaps.as_slice().iter().copied().filter(|&h| h > 0).collect();
    sizes.sort_unstable();
    sizes
}

/// For every position of up to two heaps of at most `largest` tokens: the
/// rules' moves reach exactly the positions the search reaches, and the
/// analysis names the winner and exactly the winning moves.
fn agrees_with_search(code: &str, digits: &[(u8, bool)], largest: u64) {
    let rules = HeapRules::new(HeapGame::parse_hexadecimal(code).expect(code), Convention::Normal);
    assert!(rules.game().leaves_three(), "{code}");
    let mut memo = HashMap::new();
    let budget = Budget::interactive();
    let mut checked_wins = 0;
    for a in 1..=largest {
        for b in 0..=a {
            let sizes = if b == 0 { vec![a] } else { vec![a, b] };
            let heaps = Heaps::new(sizes.clone()).expect("heaps");
            let expected = successors(digits, &sorted(&heaps));
            let mut reached = BTreeSet::new();
            let mut winning = BTreeSet::new();
            for mv in rules.legal_moves(&heaps) {
                let mut after = heaps.clone();
                rules.play(&mut after, mv).unwrap_or_else(|e| panic!("{code} {sizes:?} {mv}: {e}"));
                let after = sorted(&after);
                if !wins(digits, &after, &mut memo) {
                    winning.insert(mv);
                }
                reached.insert(after);
            }
            assert_eq!(reached, expected, "{code} {sizes:?}: positions reached");
            let analysis = rules.analyze(&heaps, &budget).unwrap_or_else(|e| panic!("{code} {sizes:?}: {e}"));
            let wins_here = wins(digits, &sorted(&heaps), &mut memo);
            assert_eq!(analysis.total.map(|g| g != 0), Some(wins_here), "{code} {sizes:?}");
            assert!(analysis.complete, "{code} {sizes:?}");
            let found: BTreeSet<_> = analysis.winning_moves.iter().copied().collect();
            assert_eq!(found, winning, "{code} {sizes:?}: winning moves");
            checked_wins += usize::from(wins_here);
        }
    }
    assert!(checked_wins > 0, "{code}: some position is a win");
}

#[test]
fn zero_point_f_matches_the_search() {
    agrees_with_search("0.F", &[(0, false), (15, false)], 14);
}

#[test]
fn four_point_eight_matches_the_search() {
    agrees_with_search("4.8", &[(4, false), (8, false)], 13);
}

#[test]
fn unequal_three_heap_digit_matches_the_search() {
    agrees_with_search("0.3F!", &[(0, false), (3, false), (15, true)], 13);
}

#[test]
fn three_heap_moves_read_play_and_refuse_clearly() {
    let rules = HeapRules::new(HeapGame::parse_hexadecimal("0.3F!").expect("code"), Convention::Normal);
    let mut heaps = Heaps::new(vec![9]).expect("heaps");
    let mv = rules.parse_move("1 2 1 2").expect("a three-heap move");
    assert_eq!(rules.describe_move(&heaps, &mv).to_string(), "take 2 from heap 1, leaving 1, 2 and 4");
    rules.play(&mut heaps, mv).expect("legal");
    assert_eq!(heaps.as_slice(), &[1, 2, 4]);
    let mut heaps = Heaps::new(vec![9]).expect("heaps");
    let equal = rules.play(&mut heaps, "1 2 2 2".parse().expect("a move")).expect_err("2, 2, 3 are not unequal");
    assert!(equal.to_string().contains("not allowed"), "{equal}");
    let full = rules.play(&mut heaps, "1 2 3 4".parse().expect("a move")).expect_err("nothing left");
    assert!(full.to_string().contains("at least 1 for the third heap"), "{full}");
    let zero = rules.parse_move("1 2 0 3").expect_err("no first part");
    assert!(zero.to_string().contains("3 2 1 4"), "{zero}");
    assert_eq!(heaps.as_slice(), &[9], "refused moves change nothing");
}

#[test]
fn misere_play_is_searched_not_read_from_a_quotient() {
    let rules = HeapRules::new(HeapGame::parse_hexadecimal("0.F").expect("code"), Convention::Misere);
    let heaps = Heaps::new(vec![4, 5]).expect("heaps");
    let analysis = rules.analyze(&heaps, &Budget::interactive()).expect("a small search");
    assert_eq!(analysis.method, bouton_games::Method::ExhaustiveSearch);
}
