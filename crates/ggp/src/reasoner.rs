//! What the tree search ([`crate::tree`]) asks of a game, whoever answers:
//! the compiled machine's [`Evaluator`] (a bit-set circuit, millions of
//! transitions a second) or the reference [`Prover`] (rules evaluated on
//! demand, for a game not compiled yet or too large to compile).
//!
//! A reasoner is a cursor: it holds one current state, which the search
//! loads, questions (terminal? legal moves? goals?) and advances by a joint
//! move. Moves are numbers per role; the machine numbers all of them when it
//! compiles, the prover on first sight ([`ProverReasoner`]), so a search
//! sizes its per-move tables by [`Reasoner::move_count`] and lets them grow.
//!
//! The search is generic over the trait, monomorphised: the machine's
//! questions are inlined into the search's loops as before, and the checks
//! a prover needs (a deadline before every question) compile away for it.

use std::hash::Hash;
use std::time::Instant;

use crate::hash::FastMap;
use crate::machine::{Evaluator, State};
use crate::prover::{Prover, ProverState};
use crate::solver::Solver;
use crate::term::Term;

/// The questions a search asks about a game, about one current state.
pub(crate) trait Reasoner {
    /// A state of the game; equal states are transpositions of one another.
    type State: Clone + Eq + Hash + Send + 'static;
    /// Something that knows the exact value of some states (an exact
    /// solver's table), consulted once per new node.
    type Oracle: ?Sized + Sync;

    /// The number of roles.
    fn roles(&self) -> usize;
    /// How many moves of `role` are numbered so far (move numbers are below
    /// it); may grow as the reasoner meets new moves.
    fn move_count(&self, role: usize) -> usize;
    /// A goal of `role` that no other goal of its exceeds (reaching it, the
    /// role need look no further).
    fn max_goal(&self, role: usize) -> u8;
    /// Makes `state` the current state.
    fn load(&mut self, state: &Self::State);
    /// The current state.
    fn state(&self) -> Self::State;
    /// Whether the current state is terminal.
    fn is_terminal(&mut self) -> bool;
    /// Replaces `out` with the numbers of `role`'s legal moves in the
    /// current state.
    fn legal_moves(&mut self, role: usize, out: &mut Vec<u32>);
    /// The goal of `role` in the current state, if one holds.
    fn goal(&mut self, role: usize) -> Option<u8>;
    /// Plays `joint` (a move number per role) in the current state: the
    /// next state becomes current.
    fn advance(&mut self, joint: &[u32]);
    /// Every role's goal under perfect play from `state`, if `oracle` knows
    /// it.
    fn known<'a>(oracle: &'a Self::Oracle, state: &Self::State) -> Option<&'a [u8]>;
    /// Whether the reasoner has stopped answering (its deadline passed):
    /// what it said since is meaningless and the caller drops that work.
    fn expired(&self) -> bool {
        false
    }
}

impl Reasoner for Evaluator {
    type State = State;
    type Oracle = Solver;

    #[inline]
    fn roles(&self) -> usize {
        self.machine().roles().len()
    }

    #[inline]
    fn move_count(&self, role: usize) -> usize {
        self.machine().moves(role).len()
    }

    #[inline]
    fn max_goal(&self, role: usize) -> u8 {
        self.machine().max_goal(role)
    }

    #[inline]
    fn load(&mut self, state: &State) {
        Evaluator::load(self, state);
    }

    #[inline]
    fn state(&self) -> State {
        Evaluator::state(self)
    }

    #[inline]
    fn is_terminal(&mut self) -> bool {
        Evaluator::is_terminal(self)
    }

    #[inline]
    fn legal_moves(&mut self, role: usize, out: &mut Vec<u32>) {
        Evaluator::legal_moves(self, role, out);
    }

    #[inline]
    fn goal(&mut self, role: usize) -> Option<u8> {
        Evaluator::goal(self, role)
    }

    #[inline]
    fn advance(&mut self, joint: &[u32]) {
        Evaluator::advance(self, joint);
    }

    #[inline]
    fn known<'a>(oracle: &'a Solver, state: &State) -> Option<&'a [u8]> {
        oracle.known(state)
    }
}

/// No oracle: the prover's states are never solved ahead.
pub(crate) enum NoOracle {}

/// The highest goal value GDL allows.
const MAX_GOAL: u8 = 100;

/// What the prover said so far about the current state, moves as numbers:
/// each question is asked once, when first needed (a playout needs no goals
/// before its end, and in chess asking for them with the legal moves costs
/// more than the legal moves alone).
#[derive(Default)]
struct View {
    terminal: Option<bool>,
    /// Per role, its legal moves' numbers.
    legal: Vec<Option<Vec<u32>>>,
    goals: Option<Vec<Option<u8>>>,
}

/// The reference [`Prover`] as a [`Reasoner`]: moves are numbered per role
/// in the order first seen; each question about the current state is asked
/// once, however often the search repeats it; and no question is asked
/// after `until`: the reasoner then says the state is terminal without
/// goals or legal moves, and reports itself [expired](Reasoner::expired).
pub(crate) struct ProverReasoner<'p> {
    prover: &'p mut Prover,
    roles: usize,
    state: ProverState,
    /// The answers about the current state so far.
    view: View,
    /// Per role, the number of each move seen.
    numbers: Vec<FastMap<Term, u32>>,
    /// Per role, the moves by number.
    names: Vec<Vec<Term>>,
    until: Instant,
    expired: bool,
}

impl<'p> ProverReasoner<'p> {
    /// A reasoner asking `prover` until `until`, its current state `state`.
    pub(crate) fn new(prover: &'p mut Prover, state: &ProverState, until: Instant) -> ProverReasoner<'p> {
        let roles = prover.roles().len();
        ProverReasoner {
            prover,
            roles,
            state: state.clone(),
            view: View { legal: vec![None; roles], ..View::default() },
            numbers: vec![FastMap::default(); roles],
            names: vec![Vec::new(); roles],
            until,
            expired: false,
        }
    }

    /// Move number `mv` of `role`, if numbered.
    pub(crate) fn name(&self, role: usize, mv: u32) -> Option<&Term> {
        self.names.get(role)?.get(mv as usize)
    }

    /// The number of `role`'s move `mv`, numbering it if new.
    pub(crate) fn number(&mut self, role: usize, mv: &Term) -> u32 {
        if let Some(&n) = self.numbers[role].get(mv) {
            return n;
        }
        let n = self.names[role].len() as u32;
        self.names[role].push(mv.clone());
        self.numbers[role].insert(mv.clone(), n);
        n
    }

    /// Whether a question may be asked now; past the deadline, never again.
    fn may_ask(&mut self) -> bool {
        if !self.expired && Instant::now() >= self.until {
            self.expired = true;
        }
        !self.expired
    }

    /// Forgets the answers about the previous current state.
    fn forget(&mut self) {
        self.view.terminal = None;
        self.view.legal.iter_mut().for_each(|l| *l = None);
        self.view.goals = None;
    }
}

impl Reasoner for ProverReasoner<'_> {
    type State = ProverState;
    type Oracle = NoOracle;

    fn roles(&self) -> usize {
        self.roles
    }

    fn move_count(&self, role: usize) -> usize {
        self.names[role].len()
    }

    fn max_goal(&self, _role: usize) -> u8 {
        MAX_GOAL
    }

    fn load(&mut self, state: &ProverState) {
        if self.state != *state {
            self.state = state.clone();
            self.forget();
        }
    }

    fn state(&self) -> ProverState {
        self.state.clone()
    }

    fn is_terminal(&mut self) -> bool {
        if self.view.terminal.is_none() {
            // Past the deadline: terminal, so that whatever runs stops.
            self.view.terminal = Some(!self.may_ask() || self.prover.is_terminal(&self.state));
        }
        self.view.terminal.unwrap_or(true)
    }

    fn legal_moves(&mut self, role: usize, out: &mut Vec<u32>) {
        out.clear();
        if self.view.legal[role].is_none() {
            let moves = if self.may_ask() { self.prover.legal_moves(&self.state, role) } else { Vec::new() };
            self.view.legal[role] = Some(moves.iter().map(|m| self.number(role, m)).collect());
        }
        if let Some(legal) = &self.view.legal[role] {
            out.extend_from_slice(legal);
        }
    }

    fn goal(&mut self, role: usize) -> Option<u8> {
        if self.view.goals.is_none() {
            let goals = if self.may_ask() { self.prover.goals(&self.state) } else { Vec::new() };
            self.view.goals = Some(goals);
        }
        self.view.goals.as_ref().and_then(|g| g.get(role).copied().flatten())
    }

    fn advance(&mut self, joint: &[u32]) {
        let moves: Option<Vec<Term>> = joint.iter().enumerate().map(|(r, &m)| self.name(r, m).cloned()).collect();
        self.forget();
        // A move never numbered cannot be played: the rules' answer is
        // unknown, as after the deadline.
        match moves {
            Some(moves) if self.may_ask() => self.state = self.prover.next_state(&self.state, &moves),
            _ => self.expired = true,
        }
    }

    fn known<'a>(oracle: &'a NoOracle, _state: &ProverState) -> Option<&'a [u8]> {
        match *oracle {}
    }

    fn expired(&self) -> bool {
        self.expired
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Machine;
    use crate::prover::tests::shared_game;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::time::Duration;

    /// The moves of `role` legal in the reasoner's current state, by name.
    fn names<R: Reasoner>(r: &mut R, role: usize, name: impl Fn(&R, u32) -> Term) -> Vec<Term> {
        let mut legal = Vec::new();
        r.legal_moves(role, &mut legal);
        let mut moves: Vec<Term> = legal.iter().map(|&m| name(r, m)).collect();
        moves.sort();
        moves
    }

    /// Along random playouts, the prover reasoner and the machine's evaluator
    /// (independent: one evaluates the rules, the other a compiled circuit)
    /// give the same legal moves, terminality and goals.
    #[test]
    fn the_prover_reasoner_agrees_with_the_machine_along_random_playouts() {
        for name in ["ticTacToe", "nim1"] {
            let game = shared_game(name);
            let machine = Machine::compile(&game).expect("compiles");
            let mut prover = Prover::new(&game);
            let start = prover.initial_state();
            let far = Instant::now() + Duration::from_secs(3600);
            let mut p = ProverReasoner::new(&mut prover, &start, far);
            let mut e = Evaluator::new(&machine);
            let mut rng = SmallRng::seed_from_u64(11);
            let roles = machine.roles().len();
            assert_eq!(Reasoner::roles(&p), roles);
            for _ in 0..20 {
                Reasoner::load(&mut p, &start);
                Reasoner::load(&mut e, &machine.initial_state());
                loop {
                    assert_eq!(Reasoner::is_terminal(&mut p), Reasoner::is_terminal(&mut e), "{name}");
                    for r in 0..roles {
                        assert_eq!(Reasoner::goal(&mut p, r), Reasoner::goal(&mut e, r), "{name}");
                    }
                    let legal: Vec<Vec<Term>> = (0..roles)
                        .map(|r| {
                            let from_prover = names(&mut p, r, |p, m| p.name(r, m).expect("numbered").clone());
                            let from_machine = names(&mut e, r, |e, m| e.machine().moves(r)[m as usize].clone());
                            assert_eq!(from_prover, from_machine, "{name}");
                            from_machine
                        })
                        .collect();
                    if Reasoner::is_terminal(&mut e) || legal.iter().any(Vec::is_empty) {
                        break;
                    }
                    let joint: Vec<&Term> = legal.iter().map(|l| &l[rng.random_range(0..l.len())]).collect();
                    let by_prover: Vec<u32> = joint.iter().enumerate().map(|(r, m)| p.number(r, m)).collect();
                    let by_machine: Vec<u32> =
                        joint.iter().enumerate().map(|(r, m)| machine.move_index(r, m).expect("a move")).collect();
                    Reasoner::advance(&mut p, &by_prover);
                    Reasoner::advance(&mut e, &by_machine);
                }
            }
            assert!(!p.expired());
        }
    }

    #[test]
    fn past_its_deadline_the_prover_reasoner_asks_nothing() {
        let game = shared_game("ticTacToe");
        let mut prover = Prover::new(&game);
        let start = prover.initial_state();
        let mut p = ProverReasoner::new(&mut prover, &start, Instant::now() - Duration::from_millis(1));
        assert!(!p.expired());
        assert!(Reasoner::is_terminal(&mut p), "no question asked: nothing to go on");
        assert!(p.expired());
        let mut legal = vec![7];
        Reasoner::legal_moves(&mut p, 0, &mut legal);
        assert!(legal.is_empty());
        assert_eq!(Reasoner::goal(&mut p, 0), None);
    }
}
