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
//! a prover needs (every question within a deadline and a cancellation)
//! compile away for it.

use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
#[cfg(test)]
use std::time::Instant;

use crate::hash::FastMap;
use crate::limits::{Limits, OutOfLimits};
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
    /// The bytes `state` holds outside itself (on the heap), for the search
    /// tree's bound on its memory.
    fn state_bytes(state: &Self::State) -> usize;
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
    /// The goal each role can guarantee from `state` whatever the others do
    /// (its security level), if `oracle` knows it.
    fn known<'a>(oracle: &'a Self::Oracle, state: &Self::State) -> Option<&'a [u8]>;
    /// Whether the reasoner has stopped answering (a question its limits
    /// stopped): what it said since is meaningless and the caller drops
    /// that work.
    fn expired(&self) -> bool {
        false
    }

    /// Plays from the current state until a terminal state, a role without
    /// legal moves, or `max_steps` transitions, each role's move chosen by
    /// `chooser`, `go_on` asked before each transition; the number of
    /// transitions, `None` when `go_on` said no. A reasoner that lists
    /// every legal move offers them all (this way); one that draws its
    /// moves (a hybrid [`Evaluator`]) may offer a superset and offer again
    /// without a move found illegal.
    fn playout_choosing(
        &mut self,
        max_steps: usize,
        go_on: impl FnMut() -> bool,
        chooser: &mut impl Chooser,
    ) -> Option<usize>
    where
        Self: Sized,
    {
        play_listing(self, max_steps, go_on, chooser, &mut Vec::new(), &mut Vec::new())
    }
}

/// [`Reasoner::playout_choosing`] offering every legal move, with `joint`
/// and `offered` as buffers.
pub(crate) fn play_listing<R: Reasoner>(
    reasoner: &mut R,
    max_steps: usize,
    mut go_on: impl FnMut() -> bool,
    chooser: &mut impl Chooser,
    joint: &mut Vec<u32>,
    offered: &mut Vec<u32>,
) -> Option<usize> {
    let roles = reasoner.roles();
    let mut steps = 0;
    while steps < max_steps && !reasoner.is_terminal() {
        if !go_on() {
            return None;
        }
        joint.clear();
        for r in 0..roles {
            reasoner.legal_moves(r, offered);
            if offered.is_empty() {
                return Some(steps);
            }
            joint.push(chooser.choose(r, offered, true));
        }
        chooser.played(joint);
        reasoner.advance(joint);
        steps += 1;
    }
    Some(steps)
}

/// A playout policy: which move a role plays among those offered.
pub(crate) trait Chooser {
    /// The move `role` plays among `offered` (never empty): its legal
    /// moves, or a superset of them. `first`: whether this is the first
    /// offer to `role` in this state; a later one (the move chosen was
    /// illegal) offers the moves left.
    fn choose(&mut self, role: usize, offered: &[u32], first: bool) -> u32;

    /// The joint move played after the offers of a state.
    fn played(&mut self, joint: &[u32]) {
        let _ = joint;
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

    fn state_bytes(state: &State) -> usize {
        std::mem::size_of_val(&*state.0)
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

    fn playout_choosing(
        &mut self,
        max_steps: usize,
        go_on: impl FnMut() -> bool,
        chooser: &mut impl Chooser,
    ) -> Option<usize> {
        Evaluator::playout_choosing(self, max_steps, go_on, chooser)
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

/// The moves of every role numbered in the order first seen, shared by the
/// reasoners of searches whose root statistics are added up move by move
/// (one per core), so that a number means the same move in each of them.
#[derive(Default)]
struct MoveNumbers {
    /// Per role, the number of each move seen.
    numbers: Vec<FastMap<Term, u32>>,
    /// Per role, the moves by number.
    names: Vec<Vec<Term>>,
}

impl MoveNumbers {
    /// No move numbered yet, for `roles` roles.
    fn new(roles: usize) -> MoveNumbers {
        MoveNumbers { numbers: vec![FastMap::default(); roles], names: vec![Vec::new(); roles] }
    }

    /// The number of `role`'s move `mv`, numbering it if new.
    fn number(&mut self, role: usize, mv: &Term) -> u32 {
        if let Some(&n) = self.numbers[role].get(mv) {
            return n;
        }
        let n = self.names[role].len() as u32;
        self.names[role].push(mv.clone());
        self.numbers[role].insert(mv.clone(), n);
        n
    }
}

/// The reference [`Prover`] as a [`Reasoner`]: moves are numbered per role
/// in the order first seen; each question about the current state is asked
/// once, however often the search repeats it; and every question is asked
/// within the search's [`Limits`] (a deadline, a cancellation), so that it
/// stops at either even midway (a question of a large game can take
/// seconds). A question they stop, or one that runs out of the prover's
/// budget of operations, is the last: the reasoner then says the state is
/// terminal without goals or legal moves, records why it stopped and
/// reports itself
/// [expired](Reasoner::expired) until given new limits
/// ([`ProverReasoner::set_limits`]).
pub(crate) struct ProverReasoner {
    /// The prover, owned: the reasoner is kept from search to search (the
    /// player's follows a match move by move).
    prover: Box<Prover>,
    roles: usize,
    state: ProverState,
    /// The answers about the current state so far.
    view: View,
    /// The move numbers, shared with the reasoners of the same search on
    /// other cores.
    numbers: Arc<Mutex<MoveNumbers>>,
    /// What every question is asked within.
    limits: Limits,
    /// Why the last question was not answered, if one was not since the
    /// limits were set: the reasoner answers no more.
    interrupted: Option<OutOfLimits>,
    /// Whether a move never numbered was to be played: the reasoner
    /// answers no more either.
    unknown_move: bool,
}

impl ProverReasoner {
    /// A reasoner asking a copy of `prover` (so that the caller's prover
    /// stays its own) until `until`, its current state `state` (a state of
    /// `prover`: the copy knows every term `prover` met so far).
    #[cfg(test)]
    pub(crate) fn new(prover: &Prover, state: &ProverState, until: Instant) -> ProverReasoner {
        ProverReasoner::owning(prover.clone(), state, Limits::none().until(until))
    }

    /// A reasoner owning `prover`, its current state `state`, asking within
    /// `limits`: kept from one search to the next.
    pub(crate) fn owning(prover: Prover, state: &ProverState, limits: Limits) -> ProverReasoner {
        let numbers = Arc::new(Mutex::new(MoveNumbers::new(prover.roles().len())));
        ProverReasoner::holding(prover, state, limits, numbers)
    }

    /// A reasoner owning `prover` (of the same game as this one's), its
    /// current state `state` (a state of `prover`), asking within this one's
    /// limits and numbering the moves as this one does, now and later.
    pub(crate) fn alongside(&self, prover: Prover, state: &ProverState) -> ProverReasoner {
        ProverReasoner::holding(prover, state, self.limits, Arc::clone(&self.numbers))
    }

    /// A reasoner owning `prover`, its current state `state`, asking within
    /// `limits`, numbering moves by `numbers`.
    fn holding(
        prover: Prover,
        state: &ProverState,
        limits: Limits,
        numbers: Arc<Mutex<MoveNumbers>>,
    ) -> ProverReasoner {
        let roles = prover.roles().len();
        ProverReasoner {
            prover: Box::new(prover),
            roles,
            state: state.clone(),
            view: View { legal: vec![None; roles], ..View::default() },
            numbers,
            limits,
            interrupted: None,
            unknown_move: false,
        }
    }

    /// The prover asked (to follow a match with it between searches: its
    /// answers about the reasoner's current state stay the same).
    pub(crate) fn prover_mut(&mut self) -> &mut Prover {
        &mut self.prover
    }

    /// The prover asked.
    pub(crate) fn prover(&self) -> &Prover {
        &self.prover
    }

    /// Move number `mv` of `role`, if numbered.
    pub(crate) fn name(&self, role: usize, mv: u32) -> Option<Term> {
        self.numbers().names.get(role)?.get(mv as usize).cloned()
    }

    /// The number of `role`'s move `mv`, numbering it if new.
    #[cfg(test)]
    pub(crate) fn number(&mut self, role: usize, mv: &Term) -> u32 {
        self.numbers().number(role, mv)
    }

    /// The move numbers (a panic elsewhere while they were locked left them
    /// whole: each change is a single push and insert).
    fn numbers(&self) -> MutexGuard<'_, MoveNumbers> {
        self.numbers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Asks the questions of the next search within `limits`: the reasoner
    /// answers again, and forgets what it said about its current state
    /// after it stopped answering (placeholders, not the rules' answers).
    pub(crate) fn set_limits(&mut self, limits: Limits) {
        if self.expired() {
            self.forget();
        }
        self.limits = limits;
        self.interrupted = None;
        self.unknown_move = false;
    }

    /// Why the last question asked was not answered (its limits, or the
    /// prover's budget of operations), if one was not since the limits were
    /// set.
    #[cfg(test)]
    pub(crate) fn interrupted(&self) -> Option<OutOfLimits> {
        self.interrupted
    }

    /// The answer to `question` about the current state within the limits;
    /// `None`, and the reasoner expired, when it was stopped (or had
    /// expired before: then nothing is asked).
    fn ask<T>(
        &mut self,
        question: impl FnOnce(&mut Prover, &ProverState, Limits) -> Result<T, OutOfLimits>,
    ) -> Option<T> {
        if self.expired() {
            return None;
        }
        match question(&mut self.prover, &self.state, self.limits) {
            Ok(answer) => Some(answer),
            Err(why) => {
                self.interrupted = Some(why);
                None
            }
        }
    }

    /// Forgets the answers about the previous current state.
    fn forget(&mut self) {
        self.view.terminal = None;
        self.view.legal.iter_mut().for_each(|l| *l = None);
        self.view.goals = None;
    }
}

impl Reasoner for ProverReasoner {
    type State = ProverState;
    type Oracle = NoOracle;

    fn roles(&self) -> usize {
        self.roles
    }

    fn move_count(&self, role: usize) -> usize {
        self.numbers().names[role].len()
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

    fn state_bytes(state: &ProverState) -> usize {
        state.heap_bytes()
    }

    fn is_terminal(&mut self) -> bool {
        if self.view.terminal.is_none() {
            // Stopped: terminal, so that whatever runs stops.
            let terminal = self.ask(|p, s, l| p.is_terminal_within(s, l));
            self.view.terminal = Some(terminal.unwrap_or(true));
        }
        self.view.terminal.unwrap_or(true)
    }

    fn legal_moves(&mut self, role: usize, out: &mut Vec<u32>) {
        out.clear();
        if self.view.legal[role].is_none() {
            let moves = self.ask(|p, s, l| p.legal_moves_within(s, role, l)).unwrap_or_default();
            let mut numbers = self.numbers();
            let numbered = moves.iter().map(|m| numbers.number(role, m)).collect();
            drop(numbers);
            self.view.legal[role] = Some(numbered);
        }
        if let Some(legal) = &self.view.legal[role] {
            out.extend_from_slice(legal);
        }
    }

    fn goal(&mut self, role: usize) -> Option<u8> {
        if self.view.goals.is_none() {
            let goals = self.ask(|p, s, l| p.goals_within(s, l)).unwrap_or_default();
            self.view.goals = Some(goals);
        }
        self.view.goals.as_ref().and_then(|g| g.get(role).copied().flatten())
    }

    fn advance(&mut self, joint: &[u32]) {
        let moves: Option<Vec<Term>> = {
            let numbers = self.numbers();
            joint.iter().enumerate().map(|(r, &m)| numbers.names.get(r)?.get(m as usize).cloned()).collect()
        };
        self.forget();
        // A move never numbered cannot be played: the rules' answer is
        // unknown, as after a question stopped.
        let Some(moves) = moves else {
            self.unknown_move = true;
            return;
        };
        if let Some(next) = self.ask(|p, s, l| p.next_state_within(s, &moves, l)) {
            self.state = next;
        }
    }

    fn known<'a>(oracle: &'a NoOracle, _state: &ProverState) -> Option<&'a [u8]> {
        match *oracle {}
    }

    fn expired(&self) -> bool {
        self.interrupted.is_some() || self.unknown_move
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
            let mut p = ProverReasoner::new(&prover, &start, far);
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
                            let from_prover = names(&mut p, r, |p, m| p.name(r, m).expect("numbered"));
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
        let mut p = ProverReasoner::new(&prover, &start, Instant::now() - Duration::from_millis(1));
        assert!(!p.expired());
        assert!(Reasoner::is_terminal(&mut p), "no question answered: nothing to go on");
        assert!(p.expired());
        assert_eq!(p.interrupted(), Some(OutOfLimits::Deadline));
        let mut legal = vec![7];
        Reasoner::legal_moves(&mut p, 0, &mut legal);
        assert!(legal.is_empty());
        assert_eq!(Reasoner::goal(&mut p, 0), None);
        // New limits: the placeholders are forgotten, and the rules answer
        // (the prover's own answers are the oracle).
        p.set_limits(Limits::none());
        assert!(!p.expired() && p.interrupted().is_none());
        assert_eq!(Reasoner::is_terminal(&mut p), prover.is_terminal(&start));
        Reasoner::legal_moves(&mut p, 0, &mut legal);
        assert_eq!(legal.len(), prover.legal_moves(&start, 0).len());
        assert_eq!(Reasoner::goal(&mut p, 0), prover.goals(&start)[0]);
    }

    /// A reasoner made alongside another (a search on the other core, its
    /// own copy of the prover) numbers moves as the other does: a move one
    /// of them met first has the same number in both, whichever meets it.
    #[test]
    fn reasoners_alongside_each_other_share_their_move_numbers() {
        let game = shared_game("ticTacToe");
        let mut prover = Prover::new(&game);
        let start = prover.initial_state();
        let first = ProverReasoner::owning(prover.clone(), &start, Limits::none());
        let x_moves = prover.legal_moves(&start, 0);
        let noop = prover.legal_moves(&start, 1);
        let after = prover.next_state(&start, &[x_moves[0].clone(), noop[0].clone()]);
        let mut second = first.alongside(prover.clone(), &after);
        let mut first = first;
        // The second meets oplayer's eight marks first, then the first its
        // `noop`: number 8 in both.
        let mut legal = Vec::new();
        Reasoner::legal_moves(&mut second, 1, &mut legal);
        assert_eq!(legal, (0..8).collect::<Vec<u32>>());
        Reasoner::legal_moves(&mut first, 1, &mut legal);
        assert_eq!(legal, vec![8]);
        assert_eq!(second.name(1, 8), Some(noop[0].clone()));
        assert_eq!(Reasoner::move_count(&second, 1), 9);
        for m in 0..8 {
            assert_eq!(first.name(1, m), second.name(1, m));
        }
    }
}
