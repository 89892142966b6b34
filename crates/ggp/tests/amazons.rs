//! Amazons on a torus (`tests/games/amazonsTorus.kif`, from the public GGP
//! repository, see `SOURCES.txt` there): every move is a queen move and an
//! arrow shot "ignoring the square the queen left", 129,600 moves per role
//! over-approximated, the largest network of the repository's games that
//! compile in full. Its grounding leans on the demand rewriting merging the
//! ways a relation is asked (merged adornments) and on each rule
//! being instantiated once; the compiled machine is checked step by step
//! against the reference prover along short random playouts.
//!
//! The data is part of this repository, so a missing file fails the test.
//! Nothing here is timed: compilation speed is measured by
//! `bench/ggp-compile-sweep.sh`.

mod common;

use std::path::Path;

use bouton_ggp::{Game, Machine, Prover};
use common::agree;

#[test]
fn amazons_on_a_torus_compiles_and_agrees_with_the_prover() {
    let name = "amazonsTorus.kif";
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let game = Game::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(game.validate().is_valid(), "{name} is valid GDL");
    let machine = Machine::compile(&game).unwrap_or_else(|e| panic!("{name}: {e}"));
    // Every queen move and arrow of the torus, for each role.
    assert_eq!(machine.moves(0).len(), 129_601, "white's plays and noop");
    let mut prover = Prover::new(&game);
    agree(name, &machine, &mut prover, 2, 6, 7);
}
