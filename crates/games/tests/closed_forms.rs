//! The closed forms, as property tests: each checked against a brute-force
//! search (written here) on small positions, and on large ones against
//! what must hold of a winning move.

use std::collections::HashMap;

use crate::oracle::{Fib, Moore, Oracle, Stair, WythoffSum};
use bouton_games::{
    Board, FibPosition, FibonacciNim, HeapGame, MooreNim, Northcott, Staircase, Stairs, wythoff_grundy, wythoff_losing,
    wythoff_lower, wythoff_partner, zeckendorf,
};
use bouton_grundy::{ComputeOptions, compute};
use bouton_rules::{Convention, Heaps, Rules};
use proptest::prelude::*;

/// ⌊iφ⌋ by bisection on x: the largest x with 2x − i ≤ i√5, i.e.
/// (2x − i)² ≤ 5i² — a different computation from the library's.
fn floor_phi(i: u64) -> u64 {
    let (mut lo, mut hi) = (i, 2 * i + 1);
    let five_i2 = 5 * u128::from(i) * u128::from(i);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        let d = 2 * u128::from(mid) - u128::from(i);
        if d * d <= five_i2 { lo = mid } else { hi = mid - 1 }
    }
    lo
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Wythoff's losing pairs with coordinates up to 10^18, exact.
    #[test]
    fn wythoff_losing_pairs_to_10_pow_18(i in 0u64..381_966_011_250_105_151) {
        let a = floor_phi(i);
        let b = a + i; // ⌊iφ²⌋ = ⌊iφ⌋ + i
        prop_assert!(b <= 1_000_000_000_000_000_000);
        prop_assert_eq!(wythoff_lower(i), a);
        prop_assert!(wythoff_losing(a, b) && wythoff_losing(b, a));
        prop_assert_eq!(wythoff_partner(a), b);
        prop_assert_eq!(wythoff_partner(b), a);
        // Every neighbour of a losing pair is a win.
        prop_assert!(!wythoff_losing(a + 1, b) && !wythoff_losing(a, b + 1));
        if a > 0 {
            prop_assert!(!wythoff_losing(a - 1, b) && !wythoff_losing(a, b - 1));
        }
    }

    /// Moore's theorem, large positions: the constructed move is legal and
    /// leaves every column's count of 1s a multiple of k + 1.
    #[test]
    fn moore_winning_move_by_construction(
        k in 1u64..=8,
        heaps in proptest::collection::vec(0u64..=u64::MAX, 1..12),
    ) {
        let rules = MooreNim::new(k, Convention::Normal).unwrap();
        let position = Heaps::new(heaps.clone()).unwrap();
        match rules.construct_winning_move(&heaps) {
            None => prop_assert!(rules.loses(&heaps)),
            Some(mv) => {
                prop_assert!(!rules.loses(&heaps));
                let mut after = position.clone();
                prop_assert!(rules.play(&mut after, mv).is_ok(), "{:?} on {:?}", mv, heaps);
                let m = k + 1;
                for bit in 0..64 {
                    let ones = after.as_slice().iter().filter(|&&h| (h >> bit) & 1 == 1).count() as u64;
                    prop_assert_eq!(ones % m, 0);
                }
            }
        }
    }

    /// Moore's theorem, small positions, both conventions, against search.
    #[test]
    fn moore_closed_form_matches_search(
        k in 1u64..=3,
        heaps in proptest::collection::vec(0u64..6, 1..5),
        misere in any::<bool>(),
    ) {
        let convention = if misere { Convention::Misere } else { Convention::Normal };
        let rules = MooreNim::new(k, convention).unwrap();
        let mut oracle = Oracle::new(Moore(k as usize), misere);
        let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        prop_assert_eq!(rules.loses(&heaps), oracle.value(&key) == 0);
    }

    /// Lasker's Nim: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4,
    /// G(4k+4) = 4k+3, against the computed sequence.
    #[test]
    fn laskers_nim_closed_form(n in 1u64..1500) {
        let values = lasker_values();
        let expected = match n % 4 { 1 | 2 => n, 3 => n + 1, _ => n - 1 };
        prop_assert_eq!(u64::from(values[n as usize]), expected);
    }

    /// Staircase Nim is Nim on the odd steps.
    #[test]
    fn staircase_is_nim_on_odd_steps(coins in proptest::collection::vec(0u64..5, 1..5)) {
        let mut oracle = Oracle::new(Stair, false);
        let mut key = coins.clone();
        while key.last() == Some(&0) {
            key.pop();
        }
        let stairs = Stairs::new(coins.clone()).unwrap();
        prop_assert_eq!(Staircase::grundy(&stairs), u64::from(oracle.value(&key)));
        let odd = coins.iter().step_by(2).fold(0, |x, &c| x ^ c);
        prop_assert_eq!(Staircase::grundy(&stairs), odd);
    }

    /// Fibonacci Nim: the first player wins exactly when the heap is not a
    /// Fibonacci number; a winning move leaves a lost position (checked by
    /// the theorem on large heaps, by search on small ones).
    #[test]
    fn fibonacci_nim_first_player_wins_off_fibonacci_numbers(n in 2u64..=u64::MAX / 4) {
        let start = FibPosition::start(n).unwrap();
        let fibonacci = zeckendorf(n).len() == 1;
        prop_assert_eq!(FibonacciNim::mover_wins(&start), !fibonacci);
        for mv in FibonacciNim::winning_moves(&start) {
            let mut after = start;
            FibonacciNim::new(Convention::Normal).play(&mut after, mv).unwrap();
            prop_assert!(!FibonacciNim::mover_wins(&after));
        }
        prop_assert_eq!(FibonacciNim::winning_moves(&start).is_empty(), fibonacci);
    }
}

fn lasker_values() -> &'static [u32] {
    static VALUES: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    VALUES.get_or_init(|| compute(&HeapGame::laskers_nim(), 1500, ComputeOptions::default()).unwrap().to_vec().unwrap())
}

#[test]
fn fibonacci_numbers_are_exactly_the_losing_starts_by_search() {
    let mut oracle = Oracle::new(Fib, false);
    let fibs = [2u64, 3, 5, 8, 13, 21, 34, 55, 89];
    for n in 2..=100 {
        assert_eq!(oracle.value(&(n, n - 1)) == 0, fibs.contains(&n), "heap {n}");
    }
}

#[test]
fn wythoff_small_pairs_against_search() {
    let mut oracle = Oracle::new(WythoffSum, false);
    for a in 0..=40u64 {
        for b in 0..=40u64 {
            let key = if (a, b) == (0, 0) { vec![] } else { vec![(a.min(b), a.max(b))] };
            let value = oracle.value(&key);
            assert_eq!(wythoff_losing(a, b), value == 0, "({a}, {b})");
            assert_eq!(wythoff_grundy(a, b), Some(value), "G({a}, {b})");
        }
    }
}

/// Northcott's game has cycles (pieces can retreat), so a plain search
/// does not end: this solves small boards by retrograde analysis — a
/// position is lost when every move leads to a won one, won when some move
/// leads to a lost one, and anything never settled is a draw. The theory
/// says there are no draws and the mover loses exactly when the gaps' XOR
/// is 0.
#[test]
fn northcott_is_nim_on_the_gaps() {
    let rules = Northcott::new(Convention::Normal);
    for width in 2..=5u64 {
        for rows in 1..=2usize {
            // Every placement of both pieces in every row.
            let mut boards = vec![vec![]];
            for _ in 0..rows {
                let mut next = Vec::new();
                for b in &boards {
                    for w in 1..=width {
                        for k in 1..=width {
                            if w != k {
                                let mut v: Vec<u64> = b.clone();
                                v.extend([width, w, k]);
                                next.push(v);
                            }
                        }
                    }
                }
                boards = next;
            }
            // Every board with White to move, and everything reachable from them.
            let mut positions: Vec<Board> = boards.iter().map(|n| Board::from_numbers(n).unwrap()).collect();
            let mut known: std::collections::HashSet<Board> = positions.iter().cloned().collect();
            let mut next = 0;
            while next < positions.len() {
                let board = positions[next].clone();
                next += 1;
                for mv in rules.legal_moves(&board).collect::<Vec<_>>() {
                    let mut child = board.clone();
                    rules.apply(&mut child, mv);
                    if known.insert(child.clone()) {
                        positions.push(child);
                    }
                }
            }
            let index: HashMap<Board, usize> = positions.iter().cloned().enumerate().map(|(i, b)| (b, i)).collect();
            let children: Vec<Vec<usize>> = positions
                .iter()
                .map(|b| {
                    rules
                        .legal_moves(b)
                        .filter_map(|mv| {
                            let mut c = b.clone();
                            rules.apply(&mut c, mv);
                            index.get(&c).copied()
                        })
                        .collect()
                })
                .collect();
            // Retrograde: 1 won, -1 lost, 0 undecided.
            let mut status = vec![0i8; positions.len()];
            loop {
                let mut changed = false;
                for i in 0..positions.len() {
                    if status[i] != 0 {
                        continue;
                    }
                    if children[i].iter().any(|&c| status[c] == -1) {
                        status[i] = 1;
                        changed = true;
                    } else if children[i].iter().all(|&c| status[c] == 1) {
                        status[i] = -1;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            for (i, board) in positions.iter().enumerate() {
                let xor = board.gaps().iter().fold(0, |x, &g| x ^ g);
                assert_ne!(status[i], 0, "no draws: {board:?}");
                assert_eq!(status[i] == 1, xor != 0, "{board:?}");
            }
        }
    }
}
