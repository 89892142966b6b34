//! Games of the public GGP repository (`tests/grounding-games`, see
//! `SOURCES.txt` there) that grounding used to give up on, compiled as `Machine::compile`
//! compiles them for the player, and checked step by step against the
//! reference prover along random playouts.
//!
//! laikLee_hex (5×5 hex) tests its terminal positions and goals with paths
//! written as lists of the cells they visit (`connection`, `append_el`,
//! `isList`): no network can hold every such list, so its terminality and
//! goals are left to the per-state oracle, which must ask `connection` with
//! the list bound (only the paths of the stones on the board are derived).
//!
//! The data is part of this repository, so a missing file fails the test.
//! Nothing here is timed: compilation speed is measured by
//! `bench/ggp-compile-sweep.sh`.

mod common;

use std::path::Path;

use bouton_ggp::{Game, Machine, Prover};
use common::agree;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn repository_game(name: &str) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grounding-games").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let game = Game::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(game.validate().is_valid(), "{name} is valid GDL");
    game
}

#[test]
fn laik_lee_hex_compiles_with_its_outcome_left_to_the_oracle_and_agrees_with_the_prover() {
    let name = "laikLee_hex.kif";
    let game = repository_game(name);
    let machine = Machine::compile(&game).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(machine.is_hybrid(), "{name}: its paths as lists are left to the oracle");
    let stats = machine.stats();
    assert!(stats.oracle_inputs > 0 && stats.oracle_inputs < 16, "{name}: {stats:?}");
    // Both roles' moves are compiled: 25 cells to mark, and a noop.
    assert_eq!(machine.roles().len(), 2);
    let mut prover = Prover::new(&game);
    // Whole games: a 5×5 board fills in at most 25 moves, and hex always
    // ends with a connected line, so each playout reaches a terminal state
    // with a winner, which the oracle has to find.
    agree(name, &machine, &mut prover, 2, 30, 7);
    // And the oracle does find the winner: every random game ends, within
    // the 25 cells, with one role at 100 and the other at 0, as the prover
    // says.
    let mut rng = SmallRng::seed_from_u64(11);
    for game_number in 0..2 {
        let mut state = machine.initial_state();
        let mut ps = prover.initial_state();
        let mut steps = 0;
        while !machine.is_terminal(&state) {
            assert!(steps < 26, "{name}, game {game_number}: no winner after the board is full");
            let joint: Vec<u32> = (0..2)
                .map(|r| {
                    let moves = machine.legal_moves(&state, r);
                    moves[rng.random_range(0..moves.len())]
                })
                .collect();
            let terms: Vec<_> = joint.iter().enumerate().map(|(r, &m)| machine.moves(r)[m as usize].clone()).collect();
            state = machine.next_state(&state, &joint);
            ps = prover.next_state(&ps, &terms);
            steps += 1;
        }
        let mut goals = machine.goals(&state);
        assert_eq!(goals, prover.inspect(&ps).goals, "{name}, game {game_number}: goals");
        goals.sort();
        assert_eq!(goals, [Some(0), Some(100)], "{name}, game {game_number}: one winner");
    }
}
