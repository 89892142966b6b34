//! Playing well: flat Monte Carlo (the ggp-base baseline) and the enhanced
//! Monte Carlo tree search — legal moves always, immediate and forced wins
//! found, positions proven by MCTS-Solver exactly as the exact solver values
//! them, and search that depends only on its seed when given a number of
//! iterations (two threads and tree reuse included). Nothing here depends on
//! timing: searches are bounded by iterations or end because the position
//! is proven long before their distant deadlines.

mod common;

use std::time::{Duration, Instant};

use bouton_ggp::{FlatMc, Game, Machine, Mcts, MctsConfig, Solver, State, Strategy, Thinker};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Take 1, 2 or 3 from a pile of `n`; who takes the last wins. The player
/// facing a multiple of 4 loses.
fn subtraction(n: u32) -> Machine {
    let succ: String = (0..n.max(3)).map(|i| format!("(s {i} {})", i + 1)).collect::<Vec<_>>().join(" ");
    let text = format!(
        "(role a) (role b) (init (n {n})) (init (turn a)) {succ}
         (<= (minus ?x 1 ?y) (s ?y ?x))
         (<= (minus ?x 2 ?z) (s ?z ?y) (s ?y ?x))
         (<= (minus ?x 3 ?w) (s ?w ?z) (s ?z ?y) (s ?y ?x))
         (<= (legal ?p (take ?k)) (true (turn ?p)) (true (n ?x)) (minus ?x ?k ?y))
         (<= (legal ?p noop) (role ?p) (not (true (turn ?p))))
         (<= (next (n ?y)) (does ?p (take ?k)) (true (n ?x)) (minus ?x ?k ?y))
         (<= (next (turn a)) (true (turn b))) (<= (next (turn b)) (true (turn a)))
         (<= terminal (true (n 0)))
         (<= (goal ?p 100) (role ?p) (not (true (turn ?p))))
         (<= (goal ?p 0) (true (turn ?p)))"
    );
    Machine::compile(&Game::parse(&text).expect("the game parses")).expect("the game compiles")
}

/// Tic-tac-toe: a draw with perfect play.
fn tic_tac_toe() -> Machine {
    let text = "
        (role x) (role o)
        (init (cell 1 1 b)) (init (cell 1 2 b)) (init (cell 1 3 b))
        (init (cell 2 1 b)) (init (cell 2 2 b)) (init (cell 2 3 b))
        (init (cell 3 1 b)) (init (cell 3 2 b)) (init (cell 3 3 b))
        (init (control x))
        (<= (legal ?p (mark ?m ?n)) (true (cell ?m ?n b)) (true (control ?p)))
        (<= (legal x noop) (true (control o)))
        (<= (legal o noop) (true (control x)))
        (<= (next (cell ?m ?n x)) (does x (mark ?m ?n)))
        (<= (next (cell ?m ?n o)) (does o (mark ?m ?n)))
        (<= (next (cell ?m ?n ?w)) (true (cell ?m ?n ?w)) (distinct ?w b))
        (<= (next (cell ?m ?n b)) (true (cell ?m ?n b)) (does ?p (mark ?j ?k)) (distinct ?m ?j))
        (<= (next (cell ?m ?n b)) (true (cell ?m ?n b)) (does ?p (mark ?j ?k)) (distinct ?n ?k))
        (<= (next (control o)) (true (control x)))
        (<= (next (control x)) (true (control o)))
        (<= (row ?m ?w) (true (cell ?m 1 ?w)) (true (cell ?m 2 ?w)) (true (cell ?m 3 ?w)))
        (<= (column ?n ?w) (true (cell 1 ?n ?w)) (true (cell 2 ?n ?w)) (true (cell 3 ?n ?w)))
        (<= (diagonal ?w) (true (cell 1 1 ?w)) (true (cell 2 2 ?w)) (true (cell 3 3 ?w)))
        (<= (diagonal ?w) (true (cell 1 3 ?w)) (true (cell 2 2 ?w)) (true (cell 3 1 ?w)))
        (<= (line ?w) (row ?m ?w)) (<= (line ?w) (column ?n ?w)) (<= (line ?w) (diagonal ?w))
        (<= open (true (cell ?m ?n b)))
        (<= (goal x 100) (line x)) (<= (goal x 50) (not (line x)) (not (line o)) (not open))
        (<= (goal x 0) (line o)) (<= (goal o 100) (line o))
        (<= (goal o 50) (not (line x)) (not (line o)) (not open)) (<= (goal o 0) (line x))
        (<= terminal (line x)) (<= terminal (line o)) (<= terminal (not open))";
    Machine::compile(&Game::parse(text).expect("the game parses")).expect("the game compiles")
}

fn mv(machine: &Machine, role: usize, text: &str) -> u32 {
    machine.move_index(role, &common::t(text)).unwrap_or_else(|| panic!("{text} is a move"))
}

fn far() -> Instant {
    Instant::now() + Duration::from_secs(600)
}

/// The state after playing `moves` (one per ply, the other role waiting).
fn after(machine: &Machine, moves: &[&str]) -> State {
    let mut state = machine.initial_state();
    for (ply, text) in moves.iter().enumerate() {
        let mover = ply % 2;
        let mut joint: Vec<u32> = (0..2).map(|r| machine.legal_moves(&state, r)[0]).collect();
        joint[mover] = mv(machine, mover, text);
        state = machine.next_state(&state, &joint);
    }
    state
}

#[test]
fn flat_monte_carlo_always_answers_a_legal_move() {
    let games = ["nim5", "roshambo", "trio", "bridges"]
        .map(|g| common::machine(&common::own_games_dir().join(format!("{g}.kif"))));
    let mut rng = SmallRng::seed_from_u64(4);
    for machine in games.iter().chain([&tic_tac_toe(), &subtraction(9)]) {
        let roles = machine.roles().len();
        let mut players: Vec<FlatMc> = (0..roles).map(|r| FlatMc::new(machine, r as u64)).collect();
        for game in 0..3 {
            let mut state = machine.initial_state();
            let mut steps = 0;
            while !machine.is_terminal(&state) && steps < 200 {
                let joint: Vec<u32> = (0..roles)
                    .map(|r| {
                        let legal = machine.legal_moves(&state, r);
                        let chosen = players[r].choose_playouts(&state, r, 20 + game * 30).expect("a legal move");
                        assert!(legal.contains(&chosen), "{:?}: {chosen} is not legal", machine.roles());
                        if rng.random_bool(0.5) { chosen } else { legal[rng.random_range(0..legal.len())] }
                    })
                    .collect();
                state = machine.next_state(&state, &joint);
                steps += 1;
            }
        }
    }
}

#[test]
fn the_thinker_answers_legal_moves_with_every_strategy() {
    let machine = common::machine(&common::own_games_dir().join("roshambo.kif"));
    let start = machine.initial_state();
    for strategy in Strategy::ALL {
        assert_eq!(strategy.name().parse::<Strategy>(), Ok(strategy));
        let mut thinker = Thinker::new(&machine, 1, strategy, 3);
        let chosen = thinker.choose(&start, Instant::now() + Duration::from_millis(30));
        assert!(machine.legal_moves(&start, 1).contains(&chosen), "{strategy}");
    }
}

#[test]
fn every_player_takes_an_immediate_win() {
    // Three left: taking three wins at once.
    let machine = subtraction(3);
    let start = machine.initial_state();
    let win = mv(&machine, 0, "(take 3)");
    for seed in 0..5 {
        assert_eq!(FlatMc::new(&machine, seed).choose_playouts(&start, 0, 300), Some(win), "flat, seed {seed}");
        assert_eq!(Mcts::new(&machine, seed).search_iterations(&start, 0, 300), Some(win), "mcts, seed {seed}");
        for strategy in [Strategy::Best, Strategy::Mcts] {
            // Proven (solved or MCTS-Solver) long before the deadline.
            let mut thinker = Thinker::new(&machine, 0, strategy, seed);
            assert_eq!(thinker.choose(&start, far()), win, "{strategy}, seed {seed}");
        }
    }
    // In tic-tac-toe, x completes the top row rather than anything else.
    let ttt = tic_tac_toe();
    let state = after(&ttt, &["(mark 1 1)", "(mark 2 1)", "(mark 1 2)", "(mark 2 2)"]);
    let win = mv(&ttt, 0, "(mark 1 3)");
    for seed in 0..3 {
        assert_eq!(FlatMc::new(&ttt, seed).choose_playouts(&state, 0, 2000), Some(win), "flat, seed {seed}");
        let mut thinker = Thinker::new(&ttt, 0, Strategy::Best, seed);
        assert_eq!(thinker.choose(&state, far()), win, "best, seed {seed}");
    }
}

#[test]
fn the_search_finds_a_forced_win_several_moves_deep() {
    // From ten, only taking two (leaving eight) wins; every other move loses.
    let machine = subtraction(10);
    let start = machine.initial_state();
    let win = mv(&machine, 0, "(take 2)");
    for seed in 0..4 {
        let mut mcts = Mcts::new(&machine, seed);
        let mut chosen = None;
        for _ in 0..50 {
            chosen = mcts.search_iterations(&start, 0, 1000);
            if mcts.proven().is_some() {
                break;
            }
        }
        assert_eq!(mcts.proven(), Some(vec![100, 0]), "seed {seed}");
        assert_eq!(chosen, Some(win), "seed {seed}");
        for strategy in [Strategy::Best, Strategy::Mcts] {
            let mut thinker = Thinker::new(&machine, 0, strategy, seed);
            assert_eq!(thinker.choose(&start, far()), win, "{strategy}, seed {seed}");
        }
    }
    // In tic-tac-toe, x (corner, then centre against an edge) forks: o
    // blocks one line, x completes the other.
    let ttt = tic_tac_toe();
    let state = after(&ttt, &["(mark 1 1)", "(mark 1 2)", "(mark 2 2)", "(mark 3 3)"]);
    let mut solver = Solver::new(&ttt);
    assert_eq!(solver.solve(&state, far()), Ok(vec![100, 0]));
    let winning = solver.best_moves(&state, 0, far()).expect("solved");
    let mut thinker = Thinker::new(&ttt, 0, Strategy::Mcts, 1);
    let chosen = thinker.choose(&state, far());
    assert!(winning.contains(&chosen), "{} does not win", ttt.moves(0)[chosen as usize]);
}

/// Searches until the state is proven (or the iterations run out).
fn prove(mcts: &mut Mcts, state: &State, role: usize, most: u64) -> Option<Vec<u8>> {
    let mut spent = 0;
    while spent < most {
        mcts.search_iterations(state, role, 2000);
        spent += 2000;
        if let Some(value) = mcts.proven() {
            return Some(value);
        }
    }
    None
}

#[test]
fn mcts_solver_proves_what_the_exact_solver_finds() {
    for n in 1..=13 {
        let machine = subtraction(n);
        let start = machine.initial_state();
        let exact = Solver::new(&machine).solve(&start, far()).expect("solved");
        assert_eq!(exact, if n % 4 == 0 { vec![0, 100] } else { vec![100, 0] });
        let mut mcts = Mcts::new(&machine, u64::from(n));
        assert_eq!(prove(&mut mcts, &start, 0, 200_000), Some(exact), "a pile of {n}");
        if n % 4 != 0 {
            let take = mcts.search_iterations(&start, 0, 1).expect("a move");
            assert_eq!(machine.moves(0)[take as usize].to_string(), format!("(take {})", n % 4), "a pile of {n}");
        }
    }
    // Tic-tac-toe positions won for the player to move: x forks after o
    // blocks badly, or after o answers a corner with an edge.
    let ttt = tic_tac_toe();
    let mut solver = Solver::new(&ttt);
    for moves in [
        &["(mark 1 1)", "(mark 1 2)"][..],
        &["(mark 1 1)", "(mark 2 2)", "(mark 3 3)", "(mark 1 3)"],
        &["(mark 1 1)", "(mark 1 2)", "(mark 2 2)", "(mark 3 3)"],
    ] {
        let state = after(&ttt, moves);
        let exact = solver.solve(&state, far()).expect("solved");
        assert_eq!(exact, vec![100, 0], "after {moves:?}");
        for seed in 0..3 {
            let mut mcts = Mcts::with_config(&ttt, seed, MctsConfig { threads: 1, ..MctsConfig::default() });
            assert_eq!(prove(&mut mcts, &state, 0, 200_000), Some(exact.clone()), "after {moves:?}, seed {seed}");
            let chosen = mcts.search_iterations(&state, 0, 1).expect("a move");
            let winning = solver.best_moves(&state, 0, far()).expect("solved");
            assert!(winning.contains(&chosen), "after {moves:?}: {} does not win", ttt.moves(0)[chosen as usize]);
        }
    }
    // And lost for o, to move after x's fork.
    let state = after(&ttt, &["(mark 1 1)", "(mark 1 2)", "(mark 2 2)", "(mark 3 3)", "(mark 2 1)"]);
    assert_eq!(solver.solve(&state, far()), Ok(vec![100, 0]));
    let mut mcts = Mcts::new(&ttt, 4);
    assert_eq!(prove(&mut mcts, &state, 1, 200_000), Some(vec![100, 0]));
}

#[test]
fn search_with_a_number_of_iterations_depends_only_on_the_seed() {
    // Two threads, tree reuse, MAST and GRAVE: two searches with the same
    // seed play the same game, move for move, with the same statistics.
    let machine = tic_tac_toe();
    let config = MctsConfig::default();
    assert_eq!(config.threads, 2);
    let mut a = Mcts::with_config(&machine, 17, config.clone());
    let mut b = Mcts::with_config(&machine, 17, config);
    let mut state = machine.initial_state();
    let mut ply = 0;
    while !machine.is_terminal(&state) {
        let mover = ply % 2;
        let ma = a.search_iterations(&state, mover, 500);
        let mb = b.search_iterations(&state, mover, 500);
        assert_eq!(ma, mb, "ply {ply}");
        assert_eq!(a.statistics(mover), b.statistics(mover), "ply {ply}");
        assert_eq!(a.iterations(), b.iterations());
        let mut joint: Vec<u32> = (0..2).map(|r| machine.legal_moves(&state, r)[0]).collect();
        joint[mover] = ma.expect("a move");
        state = machine.next_state(&state, &joint);
        ply += 1;
    }
    // A different seed searches differently.
    let mut c = Mcts::new(&machine, 18);
    let mut d = Mcts::new(&machine, 17);
    let start = machine.initial_state();
    c.search_iterations(&start, 0, 500);
    d.search_iterations(&start, 0, 500);
    assert_ne!(c.statistics(0), d.statistics(0));
}

#[test]
fn the_tree_is_reused_for_the_next_move() {
    let machine = tic_tac_toe();
    let start = machine.initial_state();
    let centre = mv(&machine, 0, "(mark 2 2)");
    let next = machine.next_state(&start, &[centre, mv(&machine, 1, "noop")]);
    for (config, reused) in
        [(MctsConfig::default(), true), (MctsConfig { reuse: false, ..MctsConfig::default() }, false)]
    {
        let mut mcts = Mcts::with_config(&machine, 5, config);
        mcts.search_iterations(&start, 0, 4000);
        // No new iteration: what o knows after the centre was learnt before.
        mcts.search_iterations(&next, 1, 0);
        let visits: u32 = mcts.statistics(1).iter().map(|m| m.visits).sum();
        assert_eq!(visits > 0, reused, "reuse {reused}: {visits} visits");
        assert_eq!(mcts.statistics(1).len(), 8);
    }
    // Thinking on the opponent's turn grows the tree too.
    let mut mcts = Mcts::new(&machine, 6);
    mcts.ponder(&next, Instant::now() + Duration::from_secs(1));
    assert!(mcts.nodes() > 1);
    assert_eq!(mcts.statistics(1).len(), 8, "the statistics of the state pondered");
}
