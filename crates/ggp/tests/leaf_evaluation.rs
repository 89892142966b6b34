//! The leaf evaluation of the search: playouts to the end where they inform,
//! mobility where they do not (chess under a match clock), chosen by
//! measuring; and exact values — terminal goals, proofs — always above the
//! heuristic. The switch is decided by what the playouts' outcomes show, not
//! by their speed, in every game here: one game's outcomes never differ, the
//! other's differ half the time at thousands of playouts a second.

mod common;

use std::time::{Duration, Instant};

use bouton_ggp::{Game, LeafEvaluation, Machine, Mcts, MctsConfig, Strategy, Thinker};

/// Two roles take turns flipping one of sixteen lights for 30 plies (some
/// 2 million states: far too many to prove in a second). With
/// `decided`, the first role wins when light 1 ends on and loses otherwise;
/// without, every match is a draw whatever is played — playouts to the end
/// say nothing.
fn lights(decided: bool) -> Machine {
    let steps: String = (0..30).map(|i| format!("(succ {i} {})", i + 1)).collect::<Vec<_>>().join(" ");
    let lights: String = (1..=16).map(|i| format!("(light {i})")).collect::<Vec<_>>().join(" ");
    let goals = if decided {
        "(<= (goal a 100) (true (on 1))) (<= (goal a 0) (not (true (on 1))))
         (<= (goal b 0) (true (on 1))) (<= (goal b 100) (not (true (on 1))))"
    } else {
        // A win that holds only a ply before the end, never at the end: the
        // search cannot prove a draw the best either role can get.
        "(<= (goal a 50) (not (true (step 29)))) (<= (goal b 50) (not (true (step 29))))
         (<= (goal a 100) (true (step 29))) (<= (goal b 100) (true (step 29)))"
    };
    let text = format!(
        "(role a) (role b) (init (control a)) (init (step 0)) {steps}
         {lights}
         (<= (legal ?p (flip ?c)) (true (control ?p)) (light ?c))
         (<= (legal ?p noop) (role ?p) (not (true (control ?p))))
         (<= (flipped ?c) (does ?p (flip ?c)))
         (<= (next (on ?c)) (does ?p (flip ?c)) (not (true (on ?c))))
         (<= (next (on ?c)) (true (on ?c)) (not (flipped ?c)))
         (<= (next (control a)) (true (control b))) (<= (next (control b)) (true (control a)))
         (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
         (<= terminal (true (step 30)))
         {goals}"
    );
    Machine::compile(&Game::parse(&text).expect("the game parses")).expect("the game compiles")
}

/// Searches `machine` from its start on the clock: a first search to
/// measure, then one to choose with.
fn measured(machine: &Machine) -> Mcts {
    let mut mcts = Mcts::new(machine, 11);
    let start = machine.initial_state();
    mcts.search(&start, 0, Instant::now() + Duration::from_millis(700));
    mcts.search(&start, 0, Instant::now() + Duration::from_millis(300));
    mcts
}

#[test]
fn uniform_outcomes_switch_the_search_to_mobility() {
    let machine = lights(false);
    let mcts = measured(&machine);
    let profile = mcts.profile();
    assert!(profile.finished() > 0);
    assert_eq!(profile.informative_share(), 0.0);
    assert_eq!(mcts.proven(), None, "the search ran out its time");
    assert_eq!(mcts.evaluation(), LeafEvaluation::Mobility, "{profile:?}");
}

#[test]
fn informative_playouts_keep_the_search_on_playouts() {
    let machine = lights(true);
    let mcts = measured(&machine);
    let profile = mcts.profile();
    assert!(profile.informative_share() > 0.3, "{profile:?}");
    assert_eq!(mcts.evaluation(), LeafEvaluation::Playouts);
}

#[test]
fn searches_by_iterations_never_switch() {
    // Without a clock there is no cost to measure: the result depends only
    // on the seed, as before.
    let machine = lights(false);
    let mut mcts = Mcts::new(&machine, 3);
    for _ in 0..3 {
        mcts.search_iterations(&machine.initial_state(), 0, 2000);
    }
    assert_eq!(mcts.evaluation(), LeafEvaluation::Playouts);
}

#[test]
fn connect_four_keeps_playouts() {
    let dir = gdl_or_skip!();
    let text = std::fs::read_to_string(dir.join("connectFour.kif")).expect("connectFour.kif is readable");
    let machine = Machine::compile(&Game::parse(&text).expect("it parses")).expect("it compiles");
    let mcts = measured(&machine);
    assert!(mcts.profile().informative_share() > 0.3, "{:?}", mcts.profile());
    assert_eq!(mcts.evaluation(), LeafEvaluation::Playouts);
}

/// The first role chooses among `options` (`win` ends the game won; after
/// `safe` the second role has five replies, all draws; after `trap` two,
/// one of which wins for it). By mobility `trap` looks best: it leaves the
/// opponent the fewest moves.
fn trap(options: &[&str]) -> Machine {
    let options: String = options.iter().map(|o| format!("(option {o}) ")).collect();
    let text = format!(
        "(role a) (role b) (init (turn a)) {options}
         (safe s1) (safe s2) (safe s3) (safe s4) (safe s5) (risky strike) (risky pass)
         (<= (legal a (choose ?m)) (true (turn a)) (option ?m))
         (<= (legal b noop) (true (turn a)))
         (<= (next (after ?m)) (does a (choose ?m)))
         (<= (legal b (reply ?r)) (true (after safe)) (safe ?r))
         (<= (legal b (reply ?r)) (true (after trap)) (risky ?r))
         (<= (legal a noop) (true (after ?m)))
         (<= (next (replied ?r)) (does b (reply ?r)))
         (<= terminal (true (after win)))
         (<= terminal (true (replied ?r)))
         (<= (goal a 100) (true (after win))) (<= (goal b 0) (true (after win)))
         (<= (goal a 0) (true (replied strike))) (<= (goal b 100) (true (replied strike)))
         (<= (goal a 50) (true (replied ?r)) (distinct ?r strike))
         (<= (goal b 50) (true (replied ?r)) (distinct ?r strike))"
    );
    Machine::compile(&Game::parse(&text).expect("the game parses")).expect("the game compiles")
}

fn chosen(machine: &Machine, mv: u32) -> String {
    machine.moves(0)[mv as usize].to_string()
}

#[test]
fn proven_results_outrank_mobility() {
    let config = MctsConfig { evaluation: LeafEvaluation::Mobility, ..MctsConfig::default() };
    for seed in 0..5 {
        let machine = trap(&["win", "safe", "trap"]);
        let mut mcts = Mcts::with_config(&machine, seed, config.clone());
        let mv = mcts.search(&machine.initial_state(), 0, Instant::now() + Duration::from_secs(30));
        assert_eq!(chosen(&machine, mv.expect("a move")), "(choose win)");
        assert_eq!(mcts.proven(), Some(vec![100, 0]));

        let machine = trap(&["safe", "trap"]);
        let mut mcts = Mcts::with_config(&machine, seed, config.clone());
        let mv = mcts.search(&machine.initial_state(), 0, Instant::now() + Duration::from_secs(30));
        assert_eq!(chosen(&machine, mv.expect("a move")), "(choose safe)");
        assert_eq!(mcts.proven(), Some(vec![50, 50]));
    }
}

#[test]
fn the_mobility_evaluation_never_reaches_a_win_or_a_loss() {
    // Before anything is proven, the mean of every move stays strictly
    // between the worst and the best goal.
    let machine = lights(false);
    let config = MctsConfig { evaluation: LeafEvaluation::Mobility, threads: 1, ..MctsConfig::default() };
    let mut mcts = Mcts::with_config(&machine, 5, config);
    mcts.search_iterations(&machine.initial_state(), 0, 500);
    for m in mcts.statistics(0) {
        assert!(m.visits > 0);
        assert!(m.mean > 0.0 && m.mean < 1.0, "{m:?}");
        assert_eq!(m.proven, None);
    }
}

#[test]
fn the_thinker_reports_its_evaluation() {
    let machine = lights(false);
    let mut thinker = Thinker::new(&machine, 0, Strategy::Mcts, 2);
    let start = machine.initial_state();
    thinker.prepare(&start, Instant::now() + Duration::from_millis(700));
    let mv = thinker.choose(&start, Instant::now() + Duration::from_millis(300));
    assert!(machine.legal_moves(&start, 0).contains(&mv));
    assert_eq!(thinker.evaluation(), LeafEvaluation::Mobility);
}
