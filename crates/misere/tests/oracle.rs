//! The quotients against the exhaustive search in `common`: every sum of a
//! few heaps, its outcome and its complete set of winning moves; and, for
//! heaps too large to search, the misère rule itself checked position by
//! position on the quotient's answers.

use bouton_misere::{HeapGame, MisereQuotient, Outcome, SolveOptions, solve};

use crate::common::{Search, positions};

fn quotient(code: &str, upto: u64) -> MisereQuotient {
    let game: HeapGame = code.parse().expect("a code");
    solve(&game, &SolveOptions::upto(upto)).unwrap_or_else(|e| panic!("{code}: {e}"))
}

/// Checks every position of 1 to `most` heaps of sizes 1 to `largest`
/// against the exhaustive search: outcome and every winning move.
fn agrees(q: &MisereQuotient, largest: u64, most: usize) {
    let code = q.game().to_string();
    let mut search = Search::new(q.game());
    for position in positions(largest, most) {
        let expected = if search.loses(&position) { Outcome::Previous } else { Outcome::Next };
        assert_eq!(q.outcome(&position), Some(expected), "{code}: the outcome of {position:?}");
        let moves: Vec<_> =
            q.winning_moves(&position).expect("known heaps").into_iter().map(|m| (m.index, m.option)).collect();
        assert_eq!(moves, search.winning_moves(&position), "{code}: the winning moves of {position:?}");
    }
}

/// Checks the misère rule on the quotient's own answers for every position
/// of 1 to `most` heaps up to `largest`: a position is lost exactly when it
/// has a move and every move leads to a won one. A wrong answer anywhere
/// implies a smallest wrong position, where this rule fails; so this finds
/// every error whose smallest witness lies in the range.
fn locally_consistent(q: &MisereQuotient, largest: u64, most: usize) {
    let code = q.game().to_string();
    for position in positions(largest, most) {
        let lost = q.outcome(&position) == Some(Outcome::Previous);
        let mut has_move = false;
        let mut to_lost = false;
        for (i, &h) in position.iter().enumerate() {
            for option in q.game().options(h) {
                has_move = true;
                let mut next = position.clone();
                next.remove(i);
                next.extend([option.left, option.right]);
                to_lost |= q.outcome(&next) == Some(Outcome::Previous);
            }
        }
        assert_eq!(lost, has_move && !to_lost, "{code}: the misère rule fails at {position:?}");
    }
}

#[test]
fn kayles_sums_of_four_heaps_up_to_12() {
    agrees(&quotient("0.77", 12), 12, 4);
}

#[test]
fn guiles_sums_of_four_heaps_up_to_12() {
    agrees(&quotient("0.15", 12), 12, 4);
}

#[test]
fn octal_0_75_sums_of_five_heaps_up_to_12() {
    agrees(&quotient("0.75", 12), 12, 5);
}

#[test]
fn octal_0_114_sums_of_four_heaps_up_to_14() {
    agrees(&quotient("0.114", 14), 14, 4);
}

#[test]
fn octal_0_115_sums_of_four_heaps_up_to_14() {
    agrees(&quotient("0.115", 14), 14, 4);
}

#[test]
fn dawsons_kayles_sums_of_four_heaps_up_to_14() {
    agrees(&quotient("0.07", 14), 14, 4);
}

#[test]
fn octal_0_137_sums_of_four_heaps_up_to_14() {
    agrees(&quotient("0.137", 14), 14, 4);
}

#[test]
fn misere_nim_sums_of_four_heaps_up_to_9() {
    agrees(&quotient("0.3…", 9), 9, 4);
}

#[test]
fn proved_quotients_answer_for_heaps_beyond_the_computed_range() {
    for code in ["0.75", "0.31", "0.52", "0.34"] {
        let q = quotient(code, 300);
        let period = q.pretending().period().unwrap_or_else(|| panic!("{code}: a period"));
        assert!(period.proved_at <= 300);
        // Heaps past the range computed are known through the period, and
        // sums of them agree with the exhaustive search.
        agrees(&q, period.proved_at.min(10) + 2, 3);
        locally_consistent(&q, period.proved_at + 2 * period.period + 3, 2);
    }
}

#[test]
fn kayles_whole_quotient_agrees_with_the_search_and_the_rule() {
    let q = quotient("0.77", 300);
    assert!(q.pretending().period().is_some());
    agrees(&q, 20, 2);
    agrees(&q, 9, 5);
    locally_consistent(&q, 200, 2);
    locally_consistent(&q, 80, 3);
    locally_consistent(&q, 30, 4);
    locally_consistent(&q, 12, 6);
}
