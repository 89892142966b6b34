//! Local matches, without HTTP: built-in players (and, through the
//! [`Contestant`] trait, a person at the terminal) take turns choosing their
//! moves with a clock each.

use std::time::{Duration, Instant};

use crate::machine::{Machine, State};
use crate::record::{MatchRecord, Replacement, Step};
use crate::thinker::Thinker;

/// Anything that chooses moves for a role.
pub trait Contestant {
    /// The name shown in the record.
    fn name(&self) -> String;

    /// A move of `role` among `legal` (never empty) in `state`, ideally
    /// before `deadline`; `None` abandons the match (a person quitting).
    fn choose(
        &mut self,
        machine: &Machine,
        state: &State,
        role: usize,
        legal: &[u32],
        deadline: Instant,
    ) -> Option<u32>;
}

/// A built-in player: a [`Thinker`] and its name.
pub struct Builtin {
    /// The name shown in the record.
    pub name: String,
    /// The thinker.
    pub thinker: Thinker,
}

impl Contestant for Builtin {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &mut self,
        _machine: &Machine,
        state: &State,
        _role: usize,
        _legal: &[u32],
        deadline: Instant,
    ) -> Option<u32> {
        Some(self.thinker.choose(state, deadline))
    }
}

/// Plays a match from the initial state; each contestant gets `play_clock`
/// per move. An illegal choice is replaced by the first legal move and
/// recorded. `observe` sees each step and the state it leads to. A
/// contestant that gives up ends the match unfinished.
///
/// ```
/// use bouton_ggp::local::{Builtin, Contestant, play_match};
/// use bouton_ggp::{Game, Machine, Strategy, Thinker};
/// use std::time::Duration;
///
/// let game = Game::parse("(role a) (role b) (init (turn a)) (init (left 3))
///     (s 0 1) (s 1 2) (s 2 3)
///     (<= (legal ?p take) (true (turn ?p)))
///     (<= (legal ?p wait) (role ?p) (not (true (turn ?p))))
///     (<= (next (left ?y)) (true (left ?x)) (s ?y ?x))
///     (<= (next (turn a)) (true (turn b))) (<= (next (turn b)) (true (turn a)))
///     (<= terminal (true (left 0)))
///     (<= (goal ?p 100) (role ?p) (not (true (turn ?p)))) (<= (goal ?p 0) (true (turn ?p)))")?;
/// let machine = Machine::compile(&game)?;
/// let mut players: Vec<Box<dyn Contestant>> = (0..2)
///     .map(|r| Box::new(Builtin { name: format!("p{r}"), thinker: Thinker::new(&machine, r, bouton_ggp::Strategy::Best, 1) }) as Box<dyn Contestant>)
///     .collect();
/// let record = play_match(&machine, &mut players, Duration::from_millis(100), &mut |_, _| {});
/// assert_eq!(record.steps.len(), 3);
/// assert_eq!(record.goals, vec![Some(100), Some(0)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn play_match(
    machine: &Machine,
    contestants: &mut [Box<dyn Contestant>],
    play_clock: Duration,
    observe: &mut dyn FnMut(&Step, &State),
) -> MatchRecord {
    let roles = machine.roles().to_vec();
    let mut record = MatchRecord {
        roles: roles.clone(),
        players: contestants.iter().map(|c| c.name()).collect(),
        steps: Vec::new(),
        goals: Vec::new(),
        finished: false,
    };
    let mut state = machine.initial_state();
    while !machine.is_terminal(&state) {
        let mut joint = Vec::with_capacity(roles.len());
        let mut step = Step { moves: Vec::new(), replaced: Vec::new() };
        for (r, contestant) in contestants.iter_mut().enumerate() {
            let legal = machine.legal_moves(&state, r);
            if legal.is_empty() {
                record.goals = machine.goals(&state);
                return record;
            }
            let deadline = Instant::now() + play_clock;
            let Some(chosen) = contestant.choose(machine, &state, r, &legal, deadline) else {
                record.goals = machine.goals(&state);
                return record;
            };
            let (mv, why) = if legal.contains(&chosen) {
                (chosen, None)
            } else {
                let answer =
                    machine.moves(r).get(chosen as usize).map_or_else(|| chosen.to_string(), ToString::to_string);
                (legal[0], Some(Replacement::Illegal(answer)))
            };
            joint.push(mv);
            step.moves.push(machine.moves(r)[mv as usize].clone());
            step.replaced.push(why);
        }
        state = machine.next_state(&state, &joint);
        observe(&step, &state);
        record.steps.push(step);
    }
    record.goals = machine.goals(&state);
    record.finished = true;
    record
}
