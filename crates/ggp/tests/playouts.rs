//! Random playouts on every game: at each step every role has a legal move,
//! the chosen moves are legal, and every terminal state gives each role a
//! goal. Along some of the playouts the compiled machine is checked step by
//! step against the reference prover (legal moves, terminality, goals and
//! next state), an independent evaluation of the same rules.

mod common;

use bouton_ggp::{Evaluator, Game, Machine, Prover};
use common::{REAL_GAMES, game};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const MAX_STEPS: usize = 1000;

/// `count` random playouts with the compiled machine; returns the number of
/// transitions.
fn playouts(machine: &Machine, count: usize, seed: u64) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut e = Evaluator::new(machine);
    let roles = machine.roles().len();
    let mut total = 0;
    let mut legal = Vec::new();
    for _ in 0..count {
        e.load(&machine.initial_state());
        let mut steps = 0;
        while !e.is_terminal() {
            assert!(steps < MAX_STEPS, "a playout longer than {MAX_STEPS} steps");
            let mut joint = Vec::with_capacity(roles);
            for r in 0..roles {
                e.legal_moves(r, &mut legal);
                assert!(!legal.is_empty(), "{} has no legal move in a non-terminal state", machine.roles()[r]);
                let mv = legal[rng.random_range(0..legal.len())];
                assert!(e.is_legal(r, mv));
                joint.push(mv);
            }
            e.advance(&joint);
            steps += 1;
        }
        for (r, goal) in e.goals().into_iter().enumerate() {
            assert!(goal.is_some(), "{} has no goal in a terminal state", machine.roles()[r]);
        }
        total += steps;
    }
    total
}

/// `count` playouts checking every step against the prover.
fn crosscheck(g: &Game, count: usize, seed: u64, name: &str) {
    let machine = Machine::compile(g).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut prover = Prover::new(g);
    common::agree(name, &machine, &mut prover, count, MAX_STEPS, seed);
}

#[test]
fn random_playouts_on_every_real_game() {
    let dir = gdl_or_skip!();
    for name in REAL_GAMES {
        let machine = common::machine(&dir.join(format!("{name}.kif")));
        let transitions = playouts(&machine, 200, 11);
        assert!(transitions > 0, "{name}");
    }
}

#[test]
fn compiled_machine_agrees_with_the_prover_on_real_games() {
    let dir = gdl_or_skip!();
    for (k, name) in REAL_GAMES.iter().enumerate() {
        let count = if matches!(*name, "connectFour" | "chomp") { 2 } else { 6 };
        crosscheck(&game(&dir.join(format!("{name}.kif"))), count, 100 + k as u64, name);
    }
}

#[test]
fn compiled_machine_agrees_with_the_prover_on_test_cases() {
    let dir = gdl_or_skip!().join("testcases");
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    for path in names {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let count = if name == "connectFour.kif" { 2 } else { 5 };
        crosscheck(&game(&path), count, 7, &name);
    }
}

#[test]
fn own_games_play_out_and_agree_with_the_prover() {
    let dir = common::own_games_dir();
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    assert!(paths.len() >= 4, "the games folder holds our own games");
    for path in paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let g = game(&path);
        let v = g.validate();
        assert!(v.is_valid() && v.warnings.is_empty(), "{name}: {v:?}");
        playouts(&Machine::compile(&g).unwrap(), 100, 3);
        crosscheck(&g, 4, 5, &name);
    }
}

#[test]
fn evaluator_and_machine_methods_agree() {
    let dir = gdl_or_skip!();
    let machine = common::machine(&dir.join("connectFour.kif"));
    let mut e = Evaluator::new(&machine);
    let mut rng = SmallRng::seed_from_u64(3);
    let mut legal = Vec::new();
    while !e.is_terminal() {
        let state = e.state();
        let joint: Vec<u32> = (0..2)
            .map(|r| {
                e.legal_moves(r, &mut legal);
                assert_eq!(legal, machine.legal_moves(&state, r));
                legal[rng.random_range(0..legal.len())]
            })
            .collect();
        let next = e.next_state(&joint);
        assert_eq!(e.state(), state, "next_state leaves the current state alone");
        e.advance(&joint);
        assert_eq!(e.state(), next);
        assert_eq!(machine.next_state(&state, &joint), next);
    }
}
