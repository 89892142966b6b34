//! Games of the public GGP repository that are large for a propositional
//! network (`tests/games`, see `SOURCES.txt` there): checkers, a chess
//! variant, simultaneous bidding, a race, a maze, a test of rule depth. Each compiled machine is checked
//! step by step against the reference prover along a few short random
//! playouts. Chess itself is too large to compile in full: there the prover
//! — which a player falls back on — is checked to play it, and chess as a
//! hybrid network (its threat tests answered per state) is checked against
//! it; whatever `Machine::compile` gives chess (that hybrid network where it
//! outpaces the prover) is checked like the others. Sudoku, whose goal is too large to ground, is checked as a
//! hybrid network too, as `Machine::compile` builds it.
//!
//! The data is part of this repository, so a missing file fails the test.
//! Nothing here is timed: compilation speed is measured by
//! `bench/ggp-compile-sweep.sh`.

mod common;

use std::path::Path;

use bouton_ggp::{CompileError, Game, Machine, Prover, Term};
use common::{agree, assert_same_legal_moves, play_random};

fn repository_game(name: &str) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let game = Game::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(game.validate().is_valid(), "{name} is valid GDL");
    game
}

/// Scholar's mate (e4 e5, Qh5 Nc6, Bc4 Nf6, Qxf7 mate) as joint moves of
/// white and black.
const SCHOLARS_MATE: [(&str, &str); 7] = [
    ("(move wp e 2 e 4)", "noop"),
    ("noop", "(move bp e 7 e 5)"),
    ("(move wq d 1 h 5)", "noop"),
    ("noop", "(move bn b 8 c 6)"),
    ("(move wb f 1 c 4)", "noop"),
    ("noop", "(move bn g 8 f 6)"),
    ("(move wq h 5 f 7)", "noop"),
];

#[test]
fn formerly_uncompilable_games_compile_and_agree_with_the_prover() {
    for name in ["checkers.kif", "pawnToQueen.kif", "gt_attrition.kif", "racer.kif"] {
        let game = repository_game(name);
        let machine = Machine::compile(&game).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut prover = Prover::new(&game);
        agree(name, &machine, &mut prover, 3, 12, 20);
    }
}

#[test]
fn mummymaze_compiles_with_its_walls_read_as_constants_and_agrees_with_the_prover() {
    // Its walls are fluents only ever carried over, and its static
    // `direction-from` (every pair of fifty numbers) is too large to
    // evaluate in full: both were in the way of compiling it.
    let name = "mummymaze1p.kif";
    let game = repository_game(name);
    let machine = Machine::compile(&game).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut prover = Prover::new(&game);
    agree(name, &machine, &mut prover, 1, 8, 22);
}

#[test]
fn rule_depth_exponential_compiles_to_a_handful_of_propositions_and_agrees_with_the_prover() {
    // `prereqN` has 2^N instances as written, all equivalent: its arguments
    // are only ever tested by `bit`.
    let name = "ruleDepthExponential.kif";
    let game = repository_game(name);
    let machine = Machine::compile(&game).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(machine.stats().ground_rules < 1000, "{:?}", machine.stats());
    let mut prover = Prover::new(&game);
    agree(name, &machine, &mut prover, 4, 25, 23);
}

fn t(text: &str) -> Term {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn the_prover_plays_chess() {
    let game = repository_game("chess.kif");
    let mut prover = Prover::new(&game);
    let start = prover.initial_state();
    // The twenty opening moves, and black waits.
    let white = prover.legal_moves(&start, 0);
    assert_eq!(white.len(), 20, "{white:?}");
    assert!(white.contains(&t("(move wp e 2 e 4)")) && white.contains(&t("(move wn g 1 f 3)")));
    assert_eq!(prover.legal_moves(&start, 1), vec![t("noop")]);
    let inspection = prover.inspect(&start);
    assert_eq!(inspection.legal, vec![white, vec![t("noop")]]);
    assert!(!inspection.terminal && !prover.is_terminal(&start));
    let mut state = start;
    for (w, b) in SCHOLARS_MATE {
        let inspection = prover.inspect(&state);
        assert!(inspection.legal[0].contains(&t(w)), "{w} is legal");
        assert!(inspection.legal[1].contains(&t(b)), "{b} is legal");
        state = prover.next_state(&state, &[t(w), t(b)]);
    }
    let facts = prover.facts(&state);
    assert!(facts.contains(&t("(cell f 7 wq)")) && facts.contains(&t("(cell e 8 bk)")));
    assert!(facts.contains(&t("(check black queen f 7)")), "{facts:?}");
    assert!(prover.is_terminal(&state), "checkmate ends the game");
    assert_eq!(prover.goals(&state), vec![Some(100), Some(0)]);
    assert_eq!(prover.legal_moves(&state, 1), Vec::<Term>::new(), "black has no move");
}

#[test]
fn chess_compiles_and_agrees_or_is_refused_as_too_large() {
    let game = repository_game("chess.kif");
    match Machine::compile(&game) {
        // Plain grounding refuses chess; `Machine::compile` then gives it
        // the hybrid network when that outpaces the prover (timed at
        // compile time, so either outcome is possible on a loaded machine).
        // Whichever network it gives, it agrees with the prover.
        Ok(machine) => agree("chess.kif", &machine, &mut Prover::new(&game), 2, 8, 21),
        Err(e) => assert!(matches!(e, CompileError::TooLarge(_)), "{e}"),
    }
}

/// Chess as a hybrid network (`Machine::compile_hybrid`): the threat tests
/// are answered per state by the oracle. Scholar's mate through the compiled
/// machine — check, checkmate, goals — then a short random playout against
/// the prover, step by step, along two short random playouts (each state of
/// a hybrid machine costs an evaluation of the threats, and each question
/// here builds a new state).
#[test]
fn chess_as_a_hybrid_network_agrees_with_the_prover() {
    let game = repository_game("chess.kif");
    let machine = Machine::compile_hybrid(&game).unwrap_or_else(|e| panic!("chess as a hybrid network: {e}"));
    assert!(machine.is_hybrid(), "chess is too large to ground in full");
    assert!(machine.stats().oracle_inputs > 0);
    let mut state = machine.initial_state();
    let index = |role: usize, mv: &str| machine.move_index(role, &t(mv)).unwrap_or_else(|| panic!("{mv} is a move"));
    let mut e = bouton_ggp::Evaluator::new(&machine);
    e.load(&state);
    for (w, b) in SCHOLARS_MATE {
        let joint = [index(0, w), index(1, b)];
        assert!(e.is_legal(0, joint[0]) && e.is_legal(1, joint[1]), "{w} and {b} are legal");
        assert!(!e.is_terminal());
        e.advance(&joint);
    }
    state = e.state();
    let facts = machine.facts(&state);
    assert!(facts.contains(&t("(check black queen f 7)")), "{facts:?}");
    assert!(e.is_terminal(), "checkmate ends the game");
    assert_eq!(e.goals(), vec![Some(100), Some(0)]);
    let mut black = Vec::new();
    e.legal_moves(1, &mut black);
    assert!(black.is_empty(), "black has no move");
    agree("chess.kif (hybrid)", &machine, &mut Prover::new(&game), 2, 12, 5);
}

/// Chess as a hybrid network, in check: the oracle's threat tests are asked
/// only where the state can need them (a check-blocking move only when its
/// player is in check by that kind of piece, [`bouton_ggp`]'s asks), so in
/// every state along random playouts where a king is in check, each role's
/// legal moves are the prover's. At least 25 such states are met.
#[test]
fn chess_in_check_as_a_hybrid_network_agrees_with_the_prover() {
    use rand::SeedableRng;
    let game = repository_game("chess.kif");
    let machine = Machine::compile_hybrid(&game).unwrap_or_else(|e| panic!("chess as a hybrid network: {e}"));
    let mut prover = Prover::new(&game);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(29);
    let (mut checked, mut blocks) = (0, 0);
    for playout in 0..40 {
        if checked >= 25 {
            break;
        }
        let mut state = machine.initial_state();
        let mut ps = prover.initial_state();
        for step in 0..200 {
            let in_check = machine.facts(&state).iter().any(|f| f.to_string().starts_with("(check "));
            let legal: Vec<Vec<u32>> = (0..2).map(|r| machine.legal_moves(&state, r)).collect();
            if in_check {
                checked += 1;
                let inspection = prover.inspect(&ps);
                blocks +=
                    assert_same_legal_moves(&machine, &legal, &inspection, &format!("playout {playout}, step {step}"));
            }
            if machine.is_terminal(&state) || legal.iter().any(Vec::is_empty) {
                break;
            }
            (state, ps) = play_random(&machine, &mut prover, (&state, &ps), &legal, &mut rng);
        }
    }
    assert!(checked >= 25 && blocks > 25, "{checked} states in check, {blocks} legal moves in them");
}

/// Sudoku as a hybrid network: whether the grid is solved (`goodRow`,
/// `goodColumn`, `goodSquare`: nine marks joined, 9⁹ combinations to
/// ground) is read only by the goals, so it is left to the oracle and
/// evaluated when goals are asked. A grid filled by the shifted pattern
/// `(3i + ⌊i/3⌋ + j) mod 9 + 1` — checked here to be a solution — wins; the
/// same grid with two cells of the first row swapped loses; both by the
/// machine and by the prover. Then random playouts agree with the prover.
#[test]
fn sudoku_as_a_hybrid_network_agrees_with_the_prover() {
    let game = repository_game("sudoku.kif");
    let machine = Machine::compile_hybrid(&game).unwrap_or_else(|e| panic!("sudoku as a hybrid network: {e}"));
    check_sudoku("sudoku.kif (hybrid)", &game, &machine);
}

/// `Machine::compile` — what the player, the referee and `bouton ggp check`
/// use — gives sudoku the same network, with only terminality and the goals
/// answered by the oracle (three oracle inputs: "no empty cell" and the two
/// goal rules), not the prover.
#[test]
fn sudoku_compiles_as_a_network_with_only_its_outcome_left_to_the_oracle() {
    let game = repository_game("sudoku.kif");
    let machine = Machine::compile(&game).unwrap_or_else(|e| panic!("sudoku: {e}"));
    assert_eq!(machine.stats().oracle_inputs, 3, "{:?}", machine.stats());
    assert_eq!(machine.moves(0).len(), 729, "every (play row column number)");
    check_sudoku("sudoku.kif (compile)", &game, &machine);
}

/// The checks of a sudoku machine: hybrid, a solved grid wins and a grid
/// with two cells swapped loses, as by the prover, and random playouts agree
/// with the prover.
fn check_sudoku(name: &str, game: &Game, machine: &Machine) {
    assert!(machine.is_hybrid(), "sudoku's goal is too large to ground in full");
    let mut prover = Prover::new(game);
    let solved = |i: usize, j: usize| (i * 3 + i / 3 + j) % 9 + 1;
    let is_permutation = |mut cells: Vec<usize>| {
        cells.sort_unstable();
        cells == (1..=9).collect::<Vec<_>>()
    };
    for k in 0..9 {
        assert!(is_permutation((0..9).map(|j| solved(k, j)).collect()), "row {k}");
        assert!(is_permutation((0..9).map(|i| solved(i, k)).collect()), "column {k}");
        assert!(is_permutation((0..9).map(|n| solved(k / 3 * 3 + n / 3, k % 3 * 3 + n % 3)).collect()), "box {k}");
    }
    for swapped in [false, true] {
        let value = |i: usize, j: usize| if swapped && i == 0 && j < 2 { solved(0, 1 - j) } else { solved(i, j) };
        let mut state = machine.initial_state();
        let mut ps = prover.initial_state();
        for i in 0..9 {
            for j in 0..9 {
                assert!(!machine.is_terminal(&state), "cell ({i}, {j}) is still empty");
                let mv = t(&format!("(play {} {} {})", i + 1, j + 1, value(i, j)));
                let index = machine.move_index(0, &mv).unwrap_or_else(|| panic!("{mv} is a move"));
                assert!(machine.legal_moves(&state, 0).contains(&index), "{mv} is legal");
                state = machine.next_state(&state, &[index]);
                ps = prover.next_state(&ps, &[mv]);
            }
        }
        let expected = if swapped { 0 } else { 100 };
        let inspection = prover.inspect(&ps);
        assert!(machine.is_terminal(&state) && inspection.terminal, "a full grid ends the game");
        assert_eq!(
            (machine.goals(&state), inspection.goals),
            (vec![Some(expected)], vec![Some(expected)]),
            "the machine's and the prover's goals, swapped: {swapped}"
        );
    }
    agree(name, machine, &mut prover, 2, 40, 7);
}
