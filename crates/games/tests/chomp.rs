//! Chomp against a search written here from the rules alone: a bar is a set
//! of squares (a bit per square of a small grid), a bite removes the squares
//! above and to the right of the one bitten, and whoever is left with the
//! poisoned square alone cannot move.

use std::collections::{BTreeSet, HashMap};

use bouton_games::{Bar, Budget, Chomp, ChompMove, Exhaustive, IllegalChompMove, RandomMove};
use bouton_rules::{Convention, Rules};
use rand::SeedableRng;

const W: u32 = 5;
const H: u32 = 5;

fn bit(x: u32, y: u32) -> u64 {
    1 << (y * W + x)
}

fn squares_of(heights: &[u64]) -> u64 {
    let mut set = 0;
    for (x, &h) in heights.iter().enumerate() {
        for y in 0..h as u32 {
            set |= bit(x as u32, y);
        }
    }
    set
}

/// Each bite of a square other than the poisoned one, and what it leaves.
fn bites(set: u64) -> Vec<((u32, u32), u64)> {
    let mut out = Vec::new();
    for x in 0..W {
        for y in 0..H {
            if set & bit(x, y) == 0 || (x, y) == (0, 0) {
                continue;
            }
            let mut left = set;
            for a in x..W {
                for b in y..H {
                    left &= !bit(a, b);
                }
            }
            out.push(((x, y), left));
        }
    }
    out
}

/// The mex value of a set of squares: a position with no bite is worth 0
/// in normal play, 1 in misère play.
fn value(set: u64, misere: bool, memo: &mut HashMap<u64, u32>) -> u32 {
    if let Some(&v) = memo.get(&set) {
        return v;
    }
    let children = bites(set);
    let v = if children.is_empty() {
        u32::from(misere)
    } else {
        let seen: BTreeSet<u32> = children.iter().map(|&(_, c)| value(c, misere, memo)).collect();
        (0..).find(|v| !seen.contains(v)).unwrap()
    };
    memo.insert(set, v);
    v
}

/// Every staircase inside the grid: heights never rising, the first at least 1.
fn staircases() -> Vec<Vec<u64>> {
    let mut all = vec![vec![]];
    for _ in 0..W {
        let mut next = Vec::new();
        for s in &all {
            let top = s.last().copied().unwrap_or(u64::from(H));
            for h in 0..=top {
                let mut t: Vec<u64> = s.clone();
                t.push(h);
                next.push(t);
            }
        }
        all = next;
    }
    all.retain(|s| s[0] >= 1);
    all
}

#[test]
fn chomp_matches_a_search_written_here_in_both_conventions() {
    for convention in [Convention::Normal, Convention::Misere] {
        let misere = convention == Convention::Misere;
        let rules = Chomp::new(convention);
        let mut search = Exhaustive::new(rules, Budget::new(u64::MAX, 1 << 30));
        let mut memo = HashMap::new();
        let mut checked = 0;
        for heights in staircases() {
            let bar = Bar::new(heights.clone()).unwrap();
            let set = squares_of(&heights);
            assert_eq!(search.value(&bar).unwrap(), value(set, misere, &mut memo), "{heights:?} {convention:?}");
            // The same winning bites, square for square.
            let ours: BTreeSet<(u32, u32)> =
                search.winning_moves(&bar).unwrap().iter().map(|m| (m.column as u32, m.row as u32)).collect();
            let theirs: BTreeSet<(u32, u32)> =
                bites(set).into_iter().filter(|&(_, c)| value(c, misere, &mut memo) == 0).map(|(sq, _)| sq).collect();
            assert_eq!(ours, theirs, "{heights:?} {convention:?}");
            // The same bites at all, each leaving the same squares.
            let moves: Vec<ChompMove> = rules.legal_moves(&bar).collect();
            assert_eq!(moves.len(), bites(set).len(), "{heights:?}");
            for mv in moves {
                let mut after = bar.clone();
                rules.play(&mut after, mv).unwrap();
                let expected = bites(set).into_iter().find(|&(sq, _)| sq == (mv.column as u32, mv.row as u32));
                assert_eq!(Some(squares_of(after.heights())), expected.map(|(_, c)| c), "{heights:?} {mv}");
            }
            checked += 1;
        }
        assert!(checked > 200, "only {checked} bars");
    }
}

/// The first player wins every bar but the poisoned square alone (strategy
/// stealing); on a square bar the winning bite is column 2, row 2.
#[test]
fn known_facts_of_chomp() {
    let rules = Chomp::new(Convention::Normal);
    let mut search = Exhaustive::new(rules, Budget::new(u64::MAX, 1 << 30));
    for w in 1..=7 {
        for h in 1..=6 {
            let bar = Bar::rectangle(w, h).unwrap();
            assert_eq!(search.value(&bar).unwrap() != 0, w * h as usize > 1, "{w}×{h}");
        }
    }
    for n in 2..=6 {
        let winning = search.winning_moves(&Bar::rectangle(n, n as u64).unwrap()).unwrap();
        assert_eq!(winning, vec![ChompMove { column: 1, row: 1 }], "{n}×{n}");
    }
}

#[test]
fn bad_bars_and_bites_say_what_is_wrong() {
    assert!(Bar::new(vec![]).unwrap_err().to_string().contains("no columns"));
    assert!(Bar::new(vec![0, 0]).unwrap_err().to_string().contains("poisoned"));
    assert!(Bar::new(vec![2, 3]).unwrap_err().to_string().contains("column 2 is taller than column 1"));
    let rules = Chomp::new(Convention::Normal);
    let bar = Bar::new(vec![3, 2, 1]).unwrap();
    let bite = |text: &str| rules.check(&bar, text.parse().unwrap());
    assert_eq!(bite("1 1"), Err(IllegalChompMove::Poisoned));
    assert_eq!(bite("4 1"), Err(IllegalChompMove::NoSuchColumn { column: 4, columns: 3 }));
    assert_eq!(bite("2 3"), Err(IllegalChompMove::Eaten { column: 2, row: 3, height: 2 }));
    assert_eq!(bite("3 1"), Ok(()));
    assert!("0 1".parse::<ChompMove>().unwrap_err().to_string().contains("no column 0"));
    assert!("1".parse::<ChompMove>().is_err());
    let mv: ChompMove = "2 2".parse().unwrap();
    assert_eq!(mv.to_string().parse::<ChompMove>().unwrap(), mv);
    assert_eq!(rules.describe(&bar, &mv).to_string(), "bite column 2, row 2 (1 square)");
}

#[test]
fn random_bites_are_legal_and_cover_every_square() {
    let rules = Chomp::new(Convention::Normal);
    let bar = Bar::new(vec![4, 3, 3, 1]).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
    let legal: BTreeSet<ChompMove> = rules.legal_moves(&bar).collect();
    let mut drawn = BTreeSet::new();
    for _ in 0..2000 {
        let mv = rules.random_move(&bar, &mut rng).unwrap();
        assert!(legal.contains(&mv), "{mv}");
        drawn.insert(mv);
    }
    assert_eq!(drawn, legal);
    assert_eq!(rules.random_move(&Bar::new(vec![1, 0]).unwrap(), &mut rng), None);
}
