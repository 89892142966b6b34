//! Every expectation of `../shared/gdl/EXPECTED.md` (established with the
//! Stanford reference reasoner and validator, and by exhaustive search),
//! checked with both of our reasoners: the compiled machine and the prover.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use bouton_ggp::{DiagnosticKind, Evaluator, Game, Machine, Prover, Solver, Term};
use common::{game, machine, t};

/// Legal moves of every role in the initial state and terminality, by both
/// reasoners (which must agree).
fn initial(path: &Path) -> (Vec<BTreeSet<Term>>, bool) {
    let g = game(path);
    let m = Machine::compile(&g).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let start = m.initial_state();
    let compiled: Vec<BTreeSet<Term>> = (0..m.roles().len())
        .map(|r| m.legal_moves(&start, r).iter().map(|&i| m.moves(r)[i as usize].clone()).collect())
        .collect();
    let terminal = m.is_terminal(&start);
    let mut prover = Prover::new(&g);
    let s = prover.initial_state();
    let inspection = prover.inspect(&s);
    let proved: Vec<BTreeSet<Term>> = inspection.legal.iter().map(|l| l.iter().cloned().collect()).collect();
    assert_eq!(compiled, proved, "{}: the two reasoners disagree on the legal moves", path.display());
    assert_eq!(terminal, inspection.terminal, "{}: the two reasoners disagree on terminality", path.display());
    assert_eq!(m.goals(&start), inspection.goals, "{}: the two reasoners disagree on the goals", path.display());
    assert_eq!(m.facts(&start), prover.facts(&s), "{}: the two reasoners disagree on the state", path.display());
    (compiled, terminal)
}

fn set(moves: &[&str]) -> BTreeSet<Term> {
    moves.iter().map(|m| t(m)).collect()
}

#[test]
fn reasoner_test_cases_initial_state() {
    let dir = gdl_or_skip!().join("testcases");
    let one = |name: &str, moves: &[&str], terminal: bool| {
        let (legal, term) = initial(&dir.join(format!("{name}.kif")));
        assert_eq!(legal, vec![set(moves)], "{name}: legal moves");
        assert_eq!(term, terminal, "{name}: terminal");
    };
    one("test_case_1a", &["proceed"], false);
    one("test_case_1b", &["win", "lose"], false);
    one("test_case_2a", &["(move move_next 0 1)"], false);
    one("test_case_2b", &["mov_left", "mov_right"], false);
    one("test_case_2c", &["mov_left", "mov_right"], false);
    one("test_case_3a", &["(move correct_failure)"], false);
    one("test_case_3b", &["noop"], true);
    one("test_case_3c", &["win"], false);
    one("test_case_3d", &["win"], false);
    one("test_case_3e", &["xplayer"], true);
    one("test_case_4a", &["a"], false);
    one("test_case_5a", &["proceed"], false);
    one("test_case_5b", &["(draw 1 1 1 2)"], false);
    one("test_case_5c", &["proceed"], false);
    one("test_case_5d", &["proceed"], false);
    one(
        "test_case_5e",
        &[
            "(reduce a 0)",
            "(reduce a 1)",
            "(reduce c 0)",
            "(reduce c 1)",
            "(reduce c 2)",
            "(reduce c 3)",
            "(reduce c 4)",
        ],
        false,
    );
    one("simpleMutex", &["a", "b", "c"], false);
    one("test_distinct_beginning_rule", &["(do a b)", "(do b a)"], false);

    // 3f: each role ?p gets the move ?p.
    let (legal, terminal) = initial(&dir.join("test_case_3f.kif"));
    assert_eq!(legal, vec![set(&["xplayer"]), set(&["yplayer"]), set(&["zplayer"])]);
    assert!(terminal);
}

#[test]
fn time_invariant_goal_holds_in_a_non_terminal_state() {
    let dir = gdl_or_skip!().join("testcases");
    let m = machine(&dir.join("test_case_1a.kif"));
    let start = m.initial_state();
    assert!(!m.is_terminal(&start));
    assert_eq!(m.goals(&start), vec![Some(100)]);
}

#[test]
fn validation_verdicts() {
    let dir = gdl_or_skip!().join("testcases");
    let verdict = |name: &str| game(&dir.join(format!("{name}.kif"))).validate();
    for name in [
        "connectFour",
        "simpleMutex",
        "test_case_1b",
        "test_case_2a",
        "test_case_2b",
        "test_case_2c",
        "test_case_3c",
        "test_case_3d",
        "test_case_4a",
        "test_case_5a",
        "test_case_5b",
        "test_case_5c",
        "ticTacToe",
    ] {
        let v = verdict(name);
        assert!(v.errors.is_empty() && v.warnings.is_empty(), "{name} should be valid without warnings: {v:?}");
    }
    for name in
        ["test_case_1a", "test_case_3a", "test_invalid_function_arities_differ", "test_invalid_sentence_arities_differ"]
    {
        let v = verdict(name);
        assert!(v.is_valid(), "{name} should be valid: {v:?}");
        assert!(!v.warnings.is_empty(), "{name} should have warnings");
    }
    let kinds = |name: &str| {
        verdict(name).errors.iter().map(|d| d.kind).collect::<BTreeSet<_>>().into_iter().collect::<Vec<_>>()
    };
    assert_eq!(verdict("test_invalid_function_arities_differ").warnings[0].kind, DiagnosticKind::ArityMismatch);
    assert_eq!(verdict("test_invalid_sentence_arities_differ").warnings[0].kind, DiagnosticKind::ArityMismatch);
    for name in ["test_case_3b", "test_case_3e", "test_case_3f"] {
        assert_eq!(kinds(name), vec![DiagnosticKind::UnsafeVariable], "{name}");
    }
    assert_eq!(kinds("test_clean_not_distinct"), vec![DiagnosticKind::ImproperNegation]);
}

#[test]
fn real_games_roles_and_initial_legal_moves() {
    let dir = gdl_or_skip!();
    let cases: [(&str, [&str; 2], usize, Option<&str>); 10] = [
        ("nim1", ["player1", "player2"], 12, Some("noop")),
        ("nim2", ["player1", "player2"], 24, Some("noop")),
        ("nim3", ["player1", "player2"], 63, Some("noop")),
        ("nim4", ["player1", "player2"], 64, Some("noop")),
        ("ticTacToe", ["xplayer", "oplayer"], 9, Some("noop")),
        ("connectFour", ["red", "black"], 8, Some("noop")),
        ("buttons", ["robot", ""], 3, None),
        ("sum15", ["white", "black"], 9, Some("noop")),
        ("coins", ["you", ""], 10, None),
        ("chomp", ["player1", "player2"], 56, Some("noop")),
    ];
    for (name, roles, first, second) in cases {
        let path = dir.join(format!("{name}.kif"));
        let g = game(&path);
        let v = g.validate();
        assert!(v.is_valid(), "{name}: {:?}", v.errors);
        let (legal, terminal) = initial(&path);
        let m = machine(&path);
        let expected_roles: Vec<Term> = roles.iter().filter(|r| !r.is_empty()).map(|r| t(r)).collect();
        assert_eq!(m.roles(), &expected_roles[..], "{name}: roles");
        assert_eq!(legal[0].len(), first, "{name}: legal moves of the first role");
        if let Some(noop) = second {
            assert_eq!(legal[1], set(&[noop]), "{name}: the second role only waits");
        }
        assert!(!terminal, "{name}");
    }
}

#[test]
fn tic_tac_toe_script() {
    let dir = gdl_or_skip!();
    let path = dir.join("ticTacToe.kif");
    let m = machine(&path);
    let mut prover = Prover::new(&game(&path));
    let mut e = Evaluator::new(&m);
    let mut ps = prover.initial_state();
    let script = [
        ("(mark 1 1)", "noop"),
        ("noop", "(mark 1 3)"),
        ("(mark 3 1)", "noop"),
        ("noop", "(mark 2 2)"),
        ("(mark 2 1)", "noop"),
    ];
    for (i, (x, o)) in script.iter().enumerate() {
        assert!(!e.is_terminal(), "not terminal before move {i}");
        let joint = [m.move_index(0, &t(x)).unwrap(), m.move_index(1, &t(o)).unwrap()];
        assert!(e.is_legal(0, joint[0]) && e.is_legal(1, joint[1]), "move {i} is legal");
        e.advance(&joint);
        ps = prover.next_state(&ps, &[t(x), t(o)]);
        assert_eq!(m.facts(&e.state()), prover.facts(&ps));
    }
    assert!(e.is_terminal());
    assert_eq!(e.goals(), vec![Some(100), Some(0)]);
    let inspection = prover.inspect(&ps);
    assert!(inspection.terminal);
    assert_eq!(inspection.goals, vec![Some(100), Some(0)]);
}

#[test]
fn nim_outcomes_and_winning_first_moves() {
    let dir = gdl_or_skip!();
    let deadline = Instant::now() + Duration::from_secs(60);
    let cases = [
        ("nim1", [100, 0], Some("(reduce d 0)")),
        ("nim2", [0, 100], None),
        ("nim3", [100, 0], Some("(reduce d 8)")),
        ("nim4", [0, 100], None),
    ];
    for (name, value, winning) in cases {
        let m = machine(&dir.join(format!("{name}.kif")));
        let mut solver = Solver::new(&m);
        let start = m.initial_state();
        assert_eq!(solver.solve(&start, deadline).unwrap(), value.to_vec(), "{name}: value");
        let best = solver.best_moves(&start, 0, deadline).unwrap();
        if let Some(winning) = winning {
            let best: Vec<Term> = best.iter().map(|&i| m.moves(0)[i as usize].clone()).collect();
            assert_eq!(best, vec![t(winning)], "{name}: the only winning first move");
        } else {
            assert_eq!(best.len(), m.legal_moves(&start, 0).len(), "{name}: every first move loses");
        }
    }
}

#[test]
fn keywords_and_symbols_in_upper_case() {
    let dir = gdl_or_skip!();
    let text = common::read(&dir.join("nim1.kif")).to_uppercase();
    let g = Game::parse(&text).unwrap();
    let m = Machine::compile(&g).unwrap();
    assert_eq!(m.roles(), &[t("PLAYER1"), t("PLAYER2")]);
    let start = m.initial_state();
    assert_eq!(m.legal_moves(&start, 0).len(), 12);
    // Moves are spelled as the rules spell them.
    assert!(m.moves(1).iter().any(|mv| mv.to_string() == "NOOP"));
}
