//! The rules as the referee applies them: the compiled [`Machine`] when the
//! game compiles, the reference [`Prover`] when it is too large to — so that
//! any valid game can be refereed, however slowly.

use crate::compile_error::CompileError;
use crate::game::Game;
use crate::machine::{Machine, State};
use crate::prover::{Prover, ProverState};
use crate::term::Term;

/// A match's current state under one of the two reasoners.
pub(crate) enum Judge {
    /// The compiled machine.
    Compiled { machine: Machine, state: State },
    /// The reference prover, with the legal moves and terminality of the
    /// current state.
    Proved { prover: Box<Prover>, state: ProverState, legal: Vec<Vec<Term>>, terminal: bool },
}

impl Judge {
    /// The initial state of `game`.
    ///
    /// # Errors
    /// [`CompileError::NoRoles`]: there is no match to run.
    pub fn new(game: &Game) -> Result<Judge, CompileError> {
        match Machine::compile(game) {
            Ok(machine) => {
                let state = machine.initial_state();
                Ok(Judge::Compiled { machine, state })
            }
            Err(CompileError::TooLarge(_)) => {
                let mut prover = Box::new(Prover::new(game));
                let state = prover.initial_state();
                let (legal, terminal) = now(&mut prover, &state);
                Ok(Judge::Proved { prover, state, legal, terminal })
            }
            Err(e) => Err(e),
        }
    }

    /// The roles, in declaration order.
    pub fn roles(&self) -> Vec<Term> {
        match self {
            Judge::Compiled { machine, .. } => machine.roles().to_vec(),
            Judge::Proved { prover, .. } => prover.roles(),
        }
    }

    /// The legal moves of role `r` now.
    pub fn legal(&self, r: usize) -> Vec<Term> {
        match self {
            Judge::Compiled { machine, state } => {
                machine.legal_moves(state, r).into_iter().map(|m| machine.moves(r)[m as usize].clone()).collect()
            }
            Judge::Proved { legal, .. } => legal.get(r).cloned().unwrap_or_default(),
        }
    }

    /// Whether the match is over.
    pub fn is_terminal(&self) -> bool {
        match self {
            Judge::Compiled { machine, state } => machine.is_terminal(state),
            Judge::Proved { terminal, .. } => *terminal,
        }
    }

    /// Each role's goal value now.
    pub fn goals(&mut self) -> Vec<Option<u8>> {
        match self {
            Judge::Compiled { machine, state } => machine.goals(state),
            Judge::Proved { prover, state, .. } => prover.goals(state),
        }
    }

    /// Plays `joint`, one legal move per role in role order.
    pub fn play(&mut self, joint: &[Term]) {
        match self {
            Judge::Compiled { machine, state } => {
                let indices: Vec<u32> = joint
                    .iter()
                    .enumerate()
                    .map(|(r, m)| machine.move_index(r, m).expect("the referee plays legal moves"))
                    .collect();
                *state = machine.next_state(state, &indices);
            }
            Judge::Proved { prover, state, legal, terminal } => {
                *state = prover.next_state(state, joint);
                (*legal, *terminal) = now(prover, state);
            }
        }
    }
}

/// Each role's legal moves in `state` (none once it is terminal) and whether
/// it is terminal.
fn now(prover: &mut Prover, state: &ProverState) -> (Vec<Vec<Term>>, bool) {
    let terminal = prover.is_terminal(state);
    let roles = prover.roles().len();
    let legal =
        if terminal { vec![Vec::new(); roles] } else { (0..roles).map(|r| prover.legal_moves(state, r)).collect() };
    (legal, terminal)
}
