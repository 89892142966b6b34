//! Game descriptions as `bouton ggp check|play FILE.kif` and a START
//! message bring them: parse (s-expressions, then GDL), validate, compile
//! to the state machine within a small grounding budget, and play a few
//! steps; for valid games, the compiled machine must agree with the
//! reference prover at every step.
#![no_main]

use std::collections::BTreeSet;

use bouton_ggp::{Game, Machine, Prover, Sexp, Term};
use libfuzzer_sys::fuzz_target;

/// Atoms and ground rules allowed while grounding: small, so that every
/// input compiles (or is refused) quickly.
const GROUNDING: usize = 1_000;
/// Atoms the prover may derive per state.
const PROVER: usize = 20_000;
/// Steps played.
const STEPS: usize = 6;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(sexps) = Sexp::parse_all(text) {
        let written: Vec<String> = sexps.iter().map(Sexp::to_string).collect();
        assert_eq!(Sexp::parse_all(&written.join(" ")).as_ref(), Ok(&sexps), "{written:?}");
    }
    let Ok(game) = Game::parse(text) else { return };
    // The rules printed back read as the same rules.
    let kif = game.to_kif();
    let again = Game::parse(&kif).unwrap_or_else(|e| panic!("{kif:?} does not read back: {e}"));
    assert_eq!(again.to_kif(), kif);
    assert_eq!(again.rule_count(), game.rule_count());
    let validation = game.validate();

    let Ok(machine) = Machine::compile_within(&game, GROUNDING) else { return };
    let roles = machine.roles().len();
    // A valid game means the same to the prover (a check of the compiler).
    let mut prover = validation.is_valid().then(|| Prover::with_budget(&game, PROVER));
    let mut prover_state = prover.as_mut().map(Prover::initial_state);
    let mut state = machine.initial_state();
    // The moves chosen come from the input, so the fuzzer steers the play.
    let mut choices = data.iter().rev().copied().cycle();
    for _ in 0..STEPS {
        let terminal = machine.is_terminal(&state);
        let goals = machine.goals(&state);
        assert_eq!(goals.len(), roles);
        assert!(goals.iter().flatten().all(|&g| g <= 100), "{goals:?}");
        let legal: Vec<Vec<u32>> = (0..roles).map(|r| machine.legal_moves(&state, r)).collect();
        if let (Some(prover), Some(ps)) = (prover.as_mut(), prover_state.as_ref()) {
            assert_eq!(machine.facts(&state), prover.facts(ps), "state of\n{kif}");
            let inspection = prover.inspect(ps);
            assert_eq!(terminal, inspection.terminal, "terminal in\n{kif}");
            assert_eq!(goals, inspection.goals, "goals in\n{kif}");
            for (r, moves) in legal.iter().enumerate() {
                let compiled: BTreeSet<&Term> = moves.iter().map(|&m| &machine.moves(r)[m as usize]).collect();
                let proved: BTreeSet<&Term> = inspection.legal[r].iter().collect();
                assert_eq!(compiled, proved, "legal moves of role {r} in\n{kif}");
            }
        }
        if terminal || legal.iter().any(Vec::is_empty) {
            break;
        }
        let joint: Vec<u32> =
            legal.iter().map(|moves| moves[usize::from(choices.next().unwrap_or(0)) % moves.len()]).collect();
        for (r, &m) in joint.iter().enumerate() {
            assert_eq!(machine.move_index(r, &machine.moves(r)[m as usize]), Some(m));
        }
        if let (Some(prover), Some(ps)) = (prover.as_mut(), prover_state.as_mut()) {
            let terms: Vec<Term> =
                joint.iter().enumerate().map(|(r, &m)| machine.moves(r)[m as usize].clone()).collect();
            *ps = prover.next_state(ps, &terms);
        }
        state = machine.next_state(&state, &joint);
    }
});
