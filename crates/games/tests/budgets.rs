//! Bounded work: every analysis and computer move of the largest positions
//! answers within its budget (or says it cannot), cancelled work stops, the
//! theory that replaces searches is right (checked against a search written
//! here), and random moves are drawn without listing the legal moves.

use std::collections::HashSet;

use crate::oracle::{Moore, Oracle};
use bouton_analysis::Winner;
use bouton_games::{
    AnalysisError, AnyMove, AnyRules, Budget, Cancel, Exhaustive, HeapGame, HeapRules, MooreNim, OverBudget, RuleSet,
};
use bouton_players::{GrundyPlayer, Level, Player};
use bouton_rules::{Convention, Game, Heaps, Rules};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A budget small enough that a test of it takes a moment.
fn small() -> Budget {
    Budget::new(200_000, 16 << 20)
}

fn conventions() -> [Convention; 2] {
    [Convention::Normal, Convention::Misere]
}

/// Games no misère quotient covers on heaps this large (the periodicity
/// argument does not apply to them) are searched, and the search stops
/// within its budget; 0.75, whose quotient is small, is answered.
#[test]
fn huge_misere_searches_stop_within_their_budget() {
    for name in ["lasker", "grundy", "all-but:1,2"] {
        let rules = AnyRules::parse(name, Convention::Misere).unwrap().with_budget(small());
        let position = rules.position(&[1000, 2345, 77777]).unwrap();
        let err = rules.analyze(&position).unwrap_err();
        assert!(matches!(err, AnalysisError::OverBudget { .. }), "{name}: {err}");
        assert!(err.to_string().starts_with("analysis not available within the limits for "), "{err}");
    }
    let rules = AnyRules::parse("octal:0.75", Convention::Misere).unwrap().with_budget(small());
    let analysis = rules.analyze(&rules.position(&[1000, 2345, 77777]).unwrap()).unwrap();
    assert_eq!(analysis.method, bouton_games::Method::MisereQuotient);
    assert_eq!(analysis.winner, Winner::Mover);
}

#[test]
fn a_search_stops_at_its_memory_limit() {
    let rules = HeapRules::new(HeapGame::kayles(), Convention::Misere);
    let mut search = Exhaustive::new(rules, Budget::new(u64::MAX, 64 << 10));
    let err = search.value(&Heaps::new(vec![30, 31, 32]).unwrap()).unwrap_err();
    assert_eq!(err, OverBudget::Memory { limit: 64 << 10 });
    assert!(search.meter().bytes_held() <= 64 << 10);
}

#[test]
fn cancelled_work_stops() {
    let cancel = Cancel::new();
    let budget = Budget::interactive().with_cancel(cancel.clone());
    cancel.cancel();
    let rules = AnyRules::parse("lasker", Convention::Misere).unwrap();
    let position = rules.position(&[50; 12]).unwrap();
    let err = rules.analyze_within(&position, &budget).unwrap_err();
    assert_eq!(err, AnalysisError::OverBudget { rules: rules.title(), cause: OverBudget::Cancelled });
    // A dropped guard cancels; a disarmed one does not.
    let fresh = Cancel::new();
    fresh.on_drop().disarm();
    assert!(!fresh.is_cancelled());
    drop(fresh.on_drop());
    assert!(fresh.is_cancelled());
}

#[test]
fn a_cancelled_search_stops_in_the_middle() {
    let cancel = Cancel::new();
    let budget = Budget::new(u64::MAX, u64::MAX).with_cancel(cancel.clone());
    let rules = HeapRules::new(HeapGame::kayles(), Convention::Misere);
    let mut search = Exhaustive::new(rules, budget);
    let worker = std::thread::spawn(move || search.value(&Heaps::new(vec![60, 61, 62, 63]).unwrap()));
    std::thread::sleep(std::time::Duration::from_millis(50));
    cancel.cancel();
    assert_eq!(worker.join().unwrap(), Err(OverBudget::Cancelled));
}

/// Moore's Nim_k of any size: the winner and a winning move come from the
/// theorem within a small budget, and the move is right.
#[test]
fn moore_analysis_of_any_size_is_theory_not_search() {
    for convention in conventions() {
        for (k, heaps) in
            [(8, vec![50; 12]), (2, vec![1000, 1000, 1000]), (1, vec![1000, 999]), (8, (1..=10).collect())]
        {
            let rules =
                AnyRules::new(rule_set(&format!("moore:{k}")), convention).with_budget(Budget::new(1_000, 1 << 20));
            let moore = MooreNim::new(k, convention).unwrap();
            let position = rules.position(&heaps).unwrap();
            let analysis = rules.analyze(&position).unwrap();
            assert_eq!(analysis.winner == Winner::Mover, !moore.loses(&heaps), "{k} {heaps:?}");
            for &mv in &analysis.winning_moves {
                let mut after = position.clone();
                rules.play(&mut after, mv).unwrap();
                assert!(moore.loses(&rules.numbers(&after)), "{mv} from {heaps:?}");
            }
            assert_eq!(analysis.winning_moves.is_empty(), analysis.winner == Winner::Opponent);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The constructed winning move of Moore's Nim_k, in both conventions,
    /// leaves a position the search written here calls lost.
    #[test]
    fn moore_constructed_move_wins_by_search(
        k in 1u64..=3,
        heaps in proptest::collection::vec(0u64..5, 1..5),
        misere in any::<bool>(),
    ) {
        let convention = if misere { Convention::Misere } else { Convention::Normal };
        let rules = MooreNim::new(k, convention).unwrap();
        let mut oracle = Oracle::new(Moore(k as usize), misere);
        let key = |h: &[u64]| {
            let mut key: Vec<u64> = h.iter().copied().filter(|&x| x > 0).collect();
            key.sort_unstable();
            key
        };
        let over = heaps.iter().all(|&h| h == 0);
        match rules.construct_winning_move(&heaps) {
            None => prop_assert!(over || oracle.value(&key(&heaps)) == 0),
            Some(mv) => {
                prop_assert!(oracle.value(&key(&heaps)) != 0);
                let mut after = Heaps::new(heaps.clone()).unwrap();
                prop_assert!(rules.play(&mut after, mv).is_ok());
                prop_assert_eq!(oracle.value(&key(after.as_slice())), 0, "{:?} from {:?}", mv, heaps);
            }
        }
    }
}

/// Every rule set: a random move is legal, and on a small position every
/// legal move is drawn sooner or later.
#[test]
fn random_moves_are_legal_and_reach_every_move() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for set in RuleSet::examples() {
        let rules = AnyRules::new(set.clone(), Convention::Normal);
        let position = rules.position(&set.default_start()).unwrap();
        let legal: HashSet<AnyMove> = rules.legal_moves(&position).collect();
        let mut drawn = HashSet::new();
        for _ in 0..legal.len() * 60 + 100 {
            let mv = rules.random_move(&position, &mut rng).unwrap();
            assert!(legal.contains(&mv), "{set:?}: {mv} is not legal in {position}");
            drawn.insert(mv);
        }
        if !set.to_string().starts_with("moore") {
            assert_eq!(drawn.len(), legal.len(), "{set:?}: some moves never drawn from {position}");
        }
    }
}

/// Heap games drawn uniformly: each option of a few small positions comes up
/// about equally often (within a wide margin).
#[test]
fn heap_game_moves_are_drawn_uniformly() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for game in
        [HeapGame::kayles(), HeapGame::grundys_game(), HeapGame::laskers_nim(), HeapGame::all_but(&[2]).unwrap()]
    {
        let rules = HeapRules::new(game, Convention::Normal);
        let heaps = Heaps::new(vec![9, 4, 13]).unwrap();
        let legal: Vec<_> = rules.legal_moves(&heaps).collect();
        let draws = legal.len() * 400;
        let mut counts = std::collections::HashMap::new();
        for _ in 0..draws {
            *counts.entry(rules_random(&rules, &heaps, &mut rng)).or_insert(0usize) += 1;
        }
        for mv in &legal {
            let n = counts.get(mv).copied().unwrap_or(0);
            assert!((200..=600).contains(&n), "{mv:?} drawn {n} times of {draws}");
        }
    }
}

fn rules_random(rules: &HeapRules, heaps: &Heaps, rng: &mut ChaCha8Rng) -> bouton_games::HeapMove {
    use bouton_games::RandomMove;
    rules.random_move(heaps, rng).unwrap()
}

/// The computer at every level answers in the largest positions the server
/// allows, in every rule set and both conventions, within a small budget.
#[test]
fn the_computer_answers_in_the_largest_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut sets = RuleSet::examples();
    sets.push(rule_set("moore:8"));
    for set in sets {
        for convention in conventions() {
            let rules = AnyRules::new(set.clone(), convention).with_budget(small());
            let numbers: Vec<u64> = match set.to_string().as_str() {
                "northcott" => [20, 1, 20].repeat(12),
                "fibonacci" => vec![50],
                _ => vec![50; 12],
            };
            let Ok(position) = rules.position(&numbers) else { panic!("{set:?}: {numbers:?}") };
            let game = Game::new(rules.clone(), position.clone()).unwrap();
            for level in [Level::Random, Level::Easy, Level::Hard, Level::Perfect] {
                let mv = GrundyPlayer::new(level).choose(&game, &mut rng).expect("a move");
                assert!(rules.check(&position, mv).is_ok(), "{set:?} {level:?}: {mv}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Heaps far too large to list their options: a winning move is built
    /// from the values (the pre-period and one period of a periodic game, the
    /// inverse of Lasker's closed form), and it leaves a position worth 0.
    #[test]
    fn winning_moves_of_huge_heaps_are_built_from_the_values(
        game in prop::sample::select(vec!["kayles", "dawsons-kayles", "octal:0.137", "octal:0.15", "lasker"]),
        huge in proptest::collection::vec(5_000_000u64..u64::MAX / 2, 1..3),
        small in proptest::collection::vec(0u64..200, 0..3),
    ) {
        let rules = AnyRules::parse(game, Convention::Normal).unwrap();
        let numbers: Vec<u64> = huge.iter().chain(&small).copied().collect();
        let position = rules.position(&numbers).unwrap();
        let analysis = rules.analyze(&position).unwrap();
        prop_assert_eq!(analysis.winner == Winner::Mover, analysis.total != Some(0));
        prop_assert_eq!(analysis.winning_moves.is_empty(), analysis.winner == Winner::Opponent);
        for &mv in &analysis.winning_moves {
            let mut after = position.clone();
            prop_assert!(rules.play(&mut after, mv).is_ok(), "{} from {:?}", mv, numbers);
            prop_assert_eq!(rules.analyze(&after).unwrap().total, Some(0), "{} from {:?}", mv, numbers);
        }
    }
}

/// The rule set named `id`.
fn rule_set(id: &str) -> RuleSet {
    id.parse().unwrap()
}
