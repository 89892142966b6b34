//! Genus theory for tame games, against the quotient.
//!
//! The rule used (Conway, *On Numbers and Games*, ch. 12, and Plambeck 2005,
//! §2, on tame games). Each position has a normal-play Grundy value `g` and a
//! misère Grundy value `g⁻` (the mex of its options' `g⁻`, and 1 for a
//! position without a move); the player to move loses in misère play exactly
//! when `g⁻ = 0`. A game is *tame* when every position has one of the genera
//! `0¹`, `1⁰` (the empty heap and `*1`: `g⁻ = g ⊕ 1`, `g ≤ 1`) or `0⁰`, `1¹`,
//! `a^a` for `a ≥ 2` (`g⁻ = g`, like `*2 + *2`, `*2 + *2 + *1`, `*a`), and
//! then a sum is decided as in misère Nim: its `g` is the nim-sum, and its
//! `g⁻` is the nim-sum when some component has `g⁻ = g`, else the nim-sum ⊕ 1
//! (Bouton's misère rule: with a component that is not like `*0` or `*1`,
//! play as in normal play until one remains, then leave an odd number of
//! `*1`s; with only `*0`- and `*1`-like components parity decides). So a sum
//! of heaps is lost by the player to move iff the nim-sum is 0 and some heap
//! has `g⁻ = g`, or the nim-sum is 1 and every heap has `g⁻ = g ⊕ 1`. (Asking
//! "value ≥ 2" instead of "`g⁻ = g`" is wrong for tame games: in 0.31 heap 3
//! has `g = 0` and is a misère P-position on its own, genus `0⁰`, the element
//! `b²` of `T₂`.)
//!
//! The test computes each heap's genus `(g, g⁻)` from its options by that
//! rule (a split into two heaps combined by the sum rule), with no use of the
//! engine, checks every heap's genus is one of the tame ones, and asserts
//! that the rule gives the quotient's outcome on every sum of up to four
//! heaps of up to 20 tokens. The tame games of the sweep are those with
//! misère Nim's quotient `T₂ = ⟨a, b | a² = 1, b³ = b⟩` (order 6) or its image
//! `⟨a | a² = 1⟩` (order 2). Kayles, 0.75 and Guiles are wild: the rule must
//! fail somewhere for them, so the test can fail.

use bouton_misere::{HeapGame, MisereQuotient, Outcome, SolveOptions, solve};

use crate::common::positions;
use crate::published::is_t2;

/// A genus `g^(g⁻)`: the normal-play and the misère Grundy value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Genus {
    normal: u64,
    misere: u64,
}

impl Genus {
    /// The empty heap, `0¹`.
    const EMPTY: Genus = Genus { normal: 0, misere: 1 };

    /// Like `*0` or `*1` (`0¹` or `1⁰`), as opposed to `0⁰`, `1¹`, `a^a`.
    fn is_small(self) -> bool {
        self.misere == self.normal ^ 1
    }

    /// Whether the genus is one of the tame ones.
    fn is_tame(self) -> bool {
        if self.normal >= 2 { self.misere == self.normal } else { self.misere <= 1 }
    }

    /// The genus of a sum of tame positions.
    fn sum(parts: impl IntoIterator<Item = Genus>) -> Genus {
        let mut normal = 0;
        let mut all_small = true;
        for part in parts {
            normal ^= part.normal;
            all_small &= part.is_small();
        }
        Genus { normal, misere: if all_small { normal ^ 1 } else { normal } }
    }
}

fn mex(values: impl Iterator<Item = u64>) -> u64 {
    let seen: Vec<u64> = values.collect();
    (0..).find(|v| !seen.contains(v)).expect("a mex")
}

/// The genus of heaps `0..=largest`, from their options (no engine).
fn genera(game: &HeapGame, largest: u64) -> Vec<Genus> {
    let mut genera: Vec<Genus> = vec![Genus::EMPTY];
    for n in 1..=largest {
        let options: Vec<Genus> =
            game.options(n).map(|o| Genus::sum([genera[o.left as usize], genera[o.right as usize]])).collect();
        let genus = if options.is_empty() {
            Genus::EMPTY
        } else {
            Genus { normal: mex(options.iter().map(|g| g.normal)), misere: mex(options.iter().map(|g| g.misere)) }
        };
        genera.push(genus);
    }
    genera
}

/// The tame rule on the heaps' genera (see the module doc).
fn tame_rule(genera: &[Genus], heaps: &[u64]) -> Outcome {
    if Genus::sum(heaps.iter().map(|&h| genera[h as usize])).misere == 0 { Outcome::Previous } else { Outcome::Next }
}

const LARGEST: u64 = 20;

fn quotient(code: &str) -> MisereQuotient {
    let game: HeapGame = code.parse().expect("a code");
    solve(&game, &SolveOptions::upto(300)).unwrap_or_else(|e| panic!("{code}: {e}"))
}

/// The positions (up to four heaps of up to `LARGEST`) where the tame rule
/// and the quotient disagree.
fn disagreements(code: &str) -> Vec<Vec<u64>> {
    let game: HeapGame = code.parse().expect("a code");
    let q = quotient(code);
    let values = genera(&game, LARGEST);
    positions(LARGEST, 4)
        .into_iter()
        .filter(|heaps| q.outcome(heaps).expect("within the proved range") != tame_rule(&values, heaps))
        .collect()
}

/// Asserts that the tame rule and the quotient of `code` agree on every
/// sum of four heaps up to `LARGEST`, naming a few positions where not.
fn assert_tame_rule_holds(code: &str) {
    let wrong = disagreements(code);
    assert!(wrong.is_empty(), "{code}: the tame rule and the quotient differ at {:?}", &wrong[..wrong.len().min(3)]);
}

/// The games of the sweep against MisereSolver (README) whose quotient has
/// order 6 and two P-elements: misère Nim's `T₂`.
const ORDER_SIX: [&str; 34] = [
    "0.22", "0.23", "0.31", "0.32", "0.33", "0.52", "0.73", "0.022", "0.023", "0.032", "0.033", "0.121", "0.122",
    "0.131", "0.132", "0.133", "0.201", "0.203", "0.211", "0.213", "0.221", "0.222", "0.223", "0.231", "0.232",
    "0.233", "0.311", "0.313", "0.321", "0.322", "0.323", "0.331", "0.332", "0.333",
];

/// The games of the sweep whose quotient has order 2: `⟨a | a² = 1⟩`,
/// P = {a}, the image of `T₂` when every heap has value 0 or 1.
const ORDER_TWO: [&str; 36] = [
    "0.1", "0.2", "0.3", "0.5", "0.7", "0.01", "0.02", "0.03", "0.05", "0.11", "0.12", "0.13", "0.21", "0.24", "0.25",
    "0.51", "0.55", "0.001", "0.002", "0.003", "0.011", "0.012", "0.013", "0.021", "0.031", "0.101", "0.102", "0.103",
    "0.111", "0.112", "0.113", "0.202", "0.212", "0.301", "0.302", "0.303",
];

#[test]
fn tame_games_follow_genus_theory_on_every_sum_of_four_heaps_up_to_20() {
    for code in ORDER_SIX {
        let q = quotient(code);
        assert!(is_t2(&q), "{code}: order {} is not T₂", q.order());
        let values = genera(&code.parse().expect("a code"), LARGEST);
        assert!(values.iter().all(|g| g.is_tame()), "{code}: a heap's genus is not tame: {values:?}");
        assert!(values.iter().any(|g| g.normal >= 2), "{code}: T₂ needs a heap of value ≥ 2");
        assert_tame_rule_holds(code);
    }
}

#[test]
fn order_two_games_follow_genus_theory_too() {
    for code in ORDER_TWO {
        let q = quotient(code);
        assert_eq!((q.order(), q.p_portion().len()), (2, 1), "{code}");
        let values = genera(&code.parse().expect("a code"), LARGEST);
        assert!(values.iter().all(|g| g.is_tame() && g.normal <= 1), "{code}: {values:?}");
        assert_tame_rule_holds(code);
    }
}

#[test]
fn wild_games_break_the_tame_rule() {
    // The rule and the quotient must differ somewhere for wild games, or the
    // tests above could not fail.
    for code in ["0.77", "0.75", "0.15"] {
        let wrong = disagreements(code);
        assert!(!wrong.is_empty(), "{code} behaves tamely on every sum of four heaps up to {LARGEST}");
    }
    let kayles = disagreements("0.77");
    let smallest = kayles.iter().min_by_key(|h| (h.iter().sum::<u64>(), h.len())).expect("one");
    // At the smallest such Kayles position the exhaustive search sides with
    // the quotient, not the rule.
    let mut search = crate::common::Search::new(&"0.77".parse().expect("a code"));
    let values = genera(&"0.77".parse().expect("a code"), LARGEST);
    let truly_loses = search.loses(smallest);
    assert_ne!(truly_loses, tame_rule(&values, smallest) == Outcome::Previous, "{smallest:?}");
}
