//! Shared helpers: where the shared GDL data lives, and small constructors.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use bouton_ggp::{Game, Inspection, Machine, Prover, ProverState, State, Term};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// `../shared/gdl` next to the workspace root (the workspace root's parent
/// plus `shared/gdl`). When it is missing, tests fail under CI (the `CI`
/// environment variable is set) and are skipped with a notice otherwise.
pub fn gdl_dir() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = root.join("..").join("shared").join("gdl");
    if dir.join("EXPECTED.md").is_file() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!("the shared GDL data is missing at {} (CI is set, so this is a failure)", dir.display());
    }
    eprintln!("notice: the shared GDL data is missing at {}; skipping this test", dir.display());
    None
}

/// The data folder, or return from the test (after the notice).
#[macro_export]
macro_rules! gdl_or_skip {
    () => {
        match common::gdl_dir() {
            Some(dir) => dir,
            None => return,
        }
    };
}

/// The games of this crate (`crates/ggp/games`).
pub fn own_games_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games")
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn game(path: &Path) -> Game {
    Game::parse(&read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn machine(path: &Path) -> Machine {
    Machine::compile(&game(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn t(text: &str) -> Term {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The real games of the shared folder.
pub const REAL_GAMES: [&str; 10] =
    ["nim1", "nim2", "nim3", "nim4", "ticTacToe", "connectFour", "buttons", "sum15", "coins", "chomp"];

/// `playouts` random playouts of at most `steps` joint moves, comparing the
/// compiled machine with the prover at every step: state, terminality,
/// goals and every role's legal moves.
pub fn agree(name: &str, machine: &Machine, prover: &mut Prover, playouts: usize, steps: usize, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let roles = machine.roles().len();
    assert_eq!(machine.roles(), prover.roles().as_slice(), "{name}: roles");
    for playout in 0..playouts {
        let mut state = machine.initial_state();
        let mut ps = prover.initial_state();
        for step in 0..steps {
            let at = format!("{name}, playout {playout}, step {step}");
            assert_eq!(machine.facts(&state), prover.facts(&ps), "{at}: states differ");
            let inspection = prover.inspect(&ps);
            assert_eq!(machine.is_terminal(&state), inspection.terminal, "{at}: terminal");
            assert_eq!(machine.goals(&state), inspection.goals, "{at}: goals");
            let legal: Vec<Vec<u32>> = (0..roles).map(|r| machine.legal_moves(&state, r)).collect();
            assert_same_legal_moves(machine, &legal, &inspection, &at);
            if inspection.terminal || legal.iter().any(Vec::is_empty) {
                break;
            }
            (state, ps) = play_random(machine, prover, (&state, &ps), &legal, &mut rng);
        }
    }
}

/// Asserts that each role's legal moves `legal` (numbers of `machine`'s
/// moves) are the moves the prover's `inspection` lists; returns how many
/// there are in all.
pub fn assert_same_legal_moves(machine: &Machine, legal: &[Vec<u32>], inspection: &Inspection, at: &str) -> usize {
    let mut count = 0;
    for (r, moves) in legal.iter().enumerate() {
        let compiled: BTreeSet<&Term> = moves.iter().map(|&i| &machine.moves(r)[i as usize]).collect();
        let proved: BTreeSet<&Term> = inspection.legal[r].iter().collect();
        assert_eq!(compiled, proved, "{at}: legal moves of {}", machine.roles()[r]);
        count += proved.len();
    }
    count
}

/// Plays a random joint move of the legal moves `legal` in both the
/// machine's state and the prover's (`states`); the states after it.
pub fn play_random(
    machine: &Machine,
    prover: &mut Prover,
    states: (&State, &ProverState),
    legal: &[Vec<u32>],
    rng: &mut SmallRng,
) -> (State, ProverState) {
    let joint: Vec<u32> = legal.iter().map(|l| l[rng.random_range(0..l.len())]).collect();
    let terms: Vec<Term> = joint.iter().enumerate().map(|(r, &i)| machine.moves(r)[i as usize].clone()).collect();
    (machine.next_state(states.0, &joint), prover.next_state(states.1, &terms))
}
