//! The player's reasoner for a game it has not compiled (yet): the reference
//! [`Prover`] on a thread of its own that follows the match move by move, so
//! that no work is lost when an answer is late, and no two reasoners ever run
//! at once for one match.
//!
//! Every question to the prover is asked within the limits of the request
//! it serves ([`Limits`]): the deadline of its play clock, and a
//! cancellation raised when a newer request supersedes it — asks about
//! another line of play (a history that does not extend the one asked
//! about: a rewound match) — or the match ends (the [`Follower`] is
//! dropped). So one huge question — a next state of a game too large for
//! the prover — cannot keep the thread busy past the clock: it stops, the
//! request goes unanswered (the player falls back on a move found legal
//! before), and the next request goes on from the last state the prover
//! completed. A newer request that extends the history does not cancel the
//! work under way, which it needs too: START's question about the initial
//! state (asked without a deadline) goes on through the first PLAY.
//!
//! The move is chosen by the search of [`ProverSearch`], kept by the thread
//! from question to question (its tree re-rooted at the state reached), on
//! one core while the game compiles on the other, on both once the player
//! says the compilation is over ([`Follower::second_core`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::thread;
use std::time::Instant;

use tokio::sync::oneshot;

use crate::cancel::Canceller;
use crate::game::Game;
use crate::limits::{Limits, OutOfLimits};
use crate::prover::{Prover, ProverState};
use crate::prover_search::{MAX_THREADS, ProverSearch};
use crate::term::Term;

/// One question: the legal moves of the follower's role after `history`,
/// and, with `search_until`, the move to play there; the prover is asked
/// within `limits`.
struct Question {
    history: Vec<Vec<Term>>,
    search_until: Option<Instant>,
    limits: Limits,
    answer: oneshot::Sender<Reply>,
}

/// The follower's answer: the role's legal moves after the history asked
/// about, and the move its search chose among them, if it was asked to
/// search and a playout finished in time.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Reply {
    /// The legal moves, sorted.
    pub legal: Vec<Term>,
    /// The move chosen by tree search over the prover.
    pub best: Option<Term>,
}

/// A reference prover on its own thread, following one match for one role.
/// Dropping it cancels the question it is working on and ends the thread.
pub(crate) struct Follower {
    questions: mpsc::Sender<Question>,
    /// The line of play asked about: replaced by a question about another
    /// line, or dropped with the follower, it cancels its questions' work.
    line: Mutex<Line>,
    /// Raised once the second core is free for the searches.
    second_core: Arc<AtomicBool>,
    /// Raised when the follower is dropped (the match is over): stops the
    /// building of the prover, should it still be under way.
    _building: Canceller,
    /// The legal moves the thread found last, with the history they follow.
    known: Arc<Mutex<Known>>,
}

/// The legal moves of the role after `history`, as the thread found them on
/// catching up, before any search: what a player whose search is late can
/// still play ([`Follower::legal_known_after`]).
#[derive(Default)]
struct Known {
    history: Vec<Vec<Term>>,
    legal: Vec<Term>,
}

/// The player's word that the core the game's compilation took is free (the
/// compilation finished or failed, or never started): from the next search
/// on, the follower searches on both cores. Cloned into the compilation's
/// task, it says so when that ends.
#[derive(Clone)]
pub(crate) struct SecondCore {
    free: Arc<AtomicBool>,
}

impl SecondCore {
    /// Lets the follower's searches use the second core from now on.
    pub(crate) fn free(&self) {
        self.free.store(true, Ordering::Relaxed);
    }
}

impl Follower {
    /// Starts following a match of `game` as `role`, its searches' random
    /// draws seeded with `seed`; the prover is prepared at once, before the
    /// first question.
    pub fn start(game: &Game, role: Term, seed: u64) -> Follower {
        let (questions, inbox) = mpsc::channel::<Question>();
        let game = game.clone();
        let second_core = Arc::new(AtomicBool::new(false));
        let free = Arc::clone(&second_core);
        let building = Canceller::new();
        let build_limits = Limits::none().cancelled_by(building.handle());
        let known = Arc::new(Mutex::new(Known::default()));
        let shared = Thread { second_core: free, build_limits, known: Arc::clone(&known) };
        thread::Builder::new()
            .name("ggp-follower".into())
            .spawn(move || follow(&game, &role, &inbox, seed, &shared))
            .expect("a thread for the reasoner");
        let line = Mutex::new(Line { history: Vec::new(), canceller: Canceller::new() });
        Follower { questions, line, second_core, _building: building, known }
    }

    /// The legal moves of the role after exactly `history`, if the thread
    /// has found them (it does on catching up with a question about that
    /// history, before it searches): when the search's answer is late, the
    /// player can still send one of these, legal where the match is —
    /// unlike the moves of an earlier answer.
    pub fn legal_known_after(&self, history: &[Vec<Term>]) -> Option<Vec<Term>> {
        let known = self.known.lock().unwrap_or_else(PoisonError::into_inner);
        (known.history == history && !known.legal.is_empty()).then(|| known.legal.clone())
    }

    /// The handle by which the player says that the second core is free
    /// for the searches (until then they run on one thread: the other core
    /// compiles the game).
    pub fn second_core(&self) -> SecondCore {
        SecondCore { free: Arc::clone(&self.second_core) }
    }

    /// The legal moves of the role after `history` (every joint move so
    /// far), answered when the prover has caught up, with no deadline (but
    /// cancelled by a question about another line of play); no answer (the
    /// receiver sees an error) if the role is not in the game, the thread
    /// has ended or the question was cancelled.
    pub fn legal_after(&self, history: &[Vec<Term>]) -> oneshot::Receiver<Reply> {
        self.ask(history, None)
    }

    /// As [`Follower::legal_after`], and the move to play there, chosen by
    /// tree search over the prover until `until` (the search starts once
    /// the prover has caught up with `history`, and goes on with the tree
    /// of the previous search); every question to the prover stops at
    /// `until` too (no answer then, unless the prover had caught up: then
    /// the search's best move so far).
    pub fn choose_after(&self, history: &[Vec<Term>], until: Instant) -> oneshot::Receiver<Reply> {
        self.ask(history, Some(until))
    }

    fn ask(&self, history: &[Vec<Term>], search_until: Option<Instant>) -> oneshot::Receiver<Reply> {
        let (answer, receiver) = oneshot::channel();
        let mut line = self.line.lock().unwrap_or_else(PoisonError::into_inner);
        let superseded = if history.starts_with(&line.history) {
            line.history = history.to_vec();
            None
        } else {
            let another = Line { history: history.to_vec(), canceller: Canceller::new() };
            Some(std::mem::replace(&mut *line, another))
        };
        let mut limits = Limits::none().cancelled_by(line.canceller.handle());
        if let Some(until) = search_until {
            limits = limits.until(until);
        }
        // A closed channel drops `answer`, which the receiver sees as an
        // error: no answer.
        let _ = self.questions.send(Question { history: history.to_vec(), search_until, limits, answer });
        // The line before is cancelled (its canceller dropped) once this
        // question is in the inbox, where the thread finds it when it sees
        // the cancellation.
        drop(line);
        drop(superseded);
        receiver
    }
}

/// A line of play: the latest history asked about, and the canceller of
/// the questions about it and the histories it extends.
struct Line {
    history: Vec<Vec<Term>>,
    canceller: Canceller,
}

/// The match as the prover has followed it: the state it reached, how many
/// joint moves of the history that took, and the role's legal moves there.
struct Followed {
    /// `None` until the initial state is known.
    state: Option<ProverState>,
    applied: usize,
    legal: Option<Vec<Term>>,
}

impl Followed {
    /// Brings the state up to `history` and finds the legal moves of role
    /// number `role` there, asking `prover` within `limits`; stopped by
    /// them, it keeps the joint moves applied so far.
    fn catch_up(
        &mut self,
        prover: &mut Prover,
        role: usize,
        history: &[Vec<Term>],
        limits: Limits,
    ) -> Result<(ProverState, Vec<Term>), OutOfLimits> {
        if history.len() < self.applied {
            // Another match's history, or a rewound one: start again.
            self.state = None;
        }
        let mut state = match self.state.take() {
            Some(state) => state,
            None => {
                self.applied = 0;
                self.legal = None;
                prover.initial_state_within(limits)?
            }
        };
        while self.applied < history.len() {
            match prover.next_state_within(&state, &history[self.applied], limits) {
                Ok(next) => {
                    state = next;
                    self.applied += 1;
                    self.legal = None;
                }
                Err(why) => {
                    self.state = Some(state);
                    return Err(why);
                }
            }
        }
        let legal = match self.legal.take() {
            Some(legal) => legal,
            None => match prover.legal_moves_within(&state, role, limits) {
                Ok(legal) => legal,
                Err(why) => {
                    self.state = Some(state);
                    return Err(why);
                }
            },
        };
        self.state = Some(state.clone());
        self.legal = Some(legal.clone());
        Ok((state, legal))
    }
}

/// What the thread shares with its [`Follower`] beyond the questions.
struct Thread {
    /// Raised once the searches may use both cores.
    second_core: Arc<AtomicBool>,
    /// The limits of building the prover.
    build_limits: Limits,
    /// Where the thread leaves the legal moves it found last.
    known: Arc<Mutex<Known>>,
}

/// The thread: applies the joint moves as they come and answers the latest
/// question (older ones, still queued, are answered with it — they asked
/// about a prefix of the same match, and their askers have moved on). A
/// question its limits stop goes unanswered, unless a newer one came
/// meanwhile: then every question waiting is answered with the newer one.
/// While a question without a deadline waits, the prover is asked without
/// one. The legal moves found on catching up are left in `shared.known`
/// before the search starts. The search is kept from question to question;
/// it runs on both cores once `shared.second_core` is raised. The prover is
/// built within `shared.build_limits`: no deadline, but a cancellation
/// raised when the follower is dropped, so that a long build ends with the
/// match.
fn follow(game: &Game, role: &Term, inbox: &mpsc::Receiver<Question>, seed: u64, shared: &Thread) {
    // Built without a deadline (every answer of the match needs it), but
    // stopped once the match is over.
    let Ok(prover) = Prover::new_within(game, shared.build_limits) else { return };
    let Some(r) = prover.roles().iter().position(|x| x == role) else {
        return;
    };
    let mut search = ProverSearch::new(prover, seed);
    let mut followed = Followed { state: None, applied: 0, legal: None };
    let mut waiting: Vec<Question> = Vec::new();
    loop {
        if waiting.is_empty() {
            match inbox.recv() {
                Ok(question) => waiting.push(question),
                Err(_) => return,
            }
        }
        waiting.extend(inbox.try_iter());
        let latest = waiting.last().expect("one question at least");
        // Within the limits of the most patient question waiting: one asked
        // without a deadline (START's, about the initial state) is answered
        // however long it takes, unless cancelled.
        let patient = waiting.iter().map(|q| q.limits).find(|l| l.deadline().is_none() && l.exceeded().is_none());
        let limits = patient.unwrap_or(latest.limits);
        let search_until = latest.search_until;
        match followed.catch_up(search.prover_mut(), r, &latest.history, limits) {
            Ok((state, legal)) => {
                {
                    let mut known = shared.known.lock().unwrap_or_else(PoisonError::into_inner);
                    known.history.clone_from(&latest.history);
                    known.legal.clone_from(&legal);
                }
                // Only the latest question is searched for: the others'
                // askers have moved on.
                let threads = if shared.second_core.load(Ordering::Relaxed) { MAX_THREADS } else { 1 };
                // The latest question's limits hold its search's deadline.
                let best = if search_until.is_some() {
                    search.choose(&latest.history, &state, r, &legal, latest.limits, threads)
                } else {
                    None
                };
                for question in waiting.drain(..) {
                    let _ = question.answer.send(Reply { legal: legal.clone(), best: best.clone() });
                }
            }
            Err(_) => {
                // Cancelled by a question about another line of play, which
                // is in the inbox by now: answered next. Past the deadline,
                // or the match over: nobody waits for these answers any
                // more.
                let asked = waiting.len();
                waiting.extend(inbox.try_iter());
                if waiting.len() == asked {
                    waiting.clear();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prover::tests::expensive_game;
    use std::time::Duration;

    fn term(text: &str) -> Term {
        text.parse().expect("a term")
    }

    /// The follower's legal moves along a ticTacToe match agree with the
    /// prover's own, move after move (one question per move, as a player
    /// asks).
    #[test]
    fn the_follower_answers_as_the_prover() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(root.join("../../../shared/gdl/ticTacToe.kif")).unwrap();
        let game = Game::parse(&text).unwrap();
        let mut prover = Prover::new(&game);
        let follower = Follower::start(&game, term("xplayer"), 1);
        let mut state = prover.initial_state();
        let mut history = Vec::new();
        for _ in 0..9 {
            let reply = follower.legal_after(&history).blocking_recv().expect("an answer");
            assert_eq!(reply.legal, prover.legal_moves(&state, 0));
            if prover.is_terminal(&state) {
                break;
            }
            let joint: Vec<Term> = (0..2).map(|r| prover.legal_moves(&state, r)[0].clone()).collect();
            state = prover.next_state(&state, &joint);
            history.push(joint);
        }
    }

    /// A question that would take hours (the legal moves of the expensive
    /// state) is cancelled by a newer one about another line of play (the
    /// initial state: the match rewound): both are answered with the newer
    /// one's moves (without the cancellation, the first would be answered
    /// with its own, `stay`, hours later).
    #[test]
    fn a_newer_question_cancels_a_long_one() {
        let follower = Follower::start(&expensive_game(30), term("r"), 1);
        let long = follower.legal_after(&[vec![term("go")]]);
        std::thread::sleep(Duration::from_millis(20));
        let short = follower.legal_after(&[]);
        assert_eq!(short.blocking_recv().expect("an answer").legal, vec![term("go")]);
        assert_eq!(long.blocking_recv().expect("answered with the newer").legal, vec![term("go")]);
    }

    /// A question past its deadline goes unanswered; the thread is free for
    /// the next one at once. Dropping the follower cancels the question it
    /// works on: no answer (not `stay`, hours later).
    #[test]
    fn a_deadline_or_the_end_of_the_match_stops_a_long_question() {
        let follower = Follower::start(&expensive_game(30), term("r"), 1);
        let history = [vec![term("go")]];
        let late = follower.choose_after(&history, Instant::now() + Duration::from_millis(20));
        assert!(late.blocking_recv().is_err(), "no answer past the deadline");
        let start = follower.legal_after(&[]);
        assert_eq!(start.blocking_recv().expect("an answer").legal, vec![term("go")]);
        let long = follower.legal_after(&history);
        std::thread::sleep(Duration::from_millis(20));
        drop(follower);
        assert!(long.blocking_recv().is_err(), "no answer once the match is over");
    }

    /// A question asked without a deadline (START's) is answered even when
    /// a later question of the same line, past its deadline, waits with it:
    /// the prover works without a deadline while it waits.
    #[test]
    fn a_question_without_a_deadline_is_answered_whatever_comes_after() {
        let follower = Follower::start(&expensive_game(6), term("r"), 1);
        let history = [vec![term("go")]];
        let patient = follower.legal_after(&history);
        let _late = follower.choose_after(&history, Instant::now() - Duration::from_millis(1));
        assert_eq!(patient.blocking_recv().expect("an answer").legal, vec![term("stay")]);
    }

    /// Once its second core is freed, the follower searches on both: its
    /// moves along a Connect Four match are legal (the prover's own legal
    /// moves are the oracle), the later ones searched with the tree kept
    /// from the earlier ones.
    #[test]
    fn with_the_second_core_free_the_follower_chooses_legal_moves() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(root.join("../../../shared/gdl/connectFour.kif")).unwrap();
        let game = Game::parse(&text).unwrap();
        let mut prover = Prover::new(&game);
        let follower = Follower::start(&game, prover.roles()[0].clone(), 1);
        follower.second_core().free();
        let mut state = prover.initial_state();
        let mut history = Vec::new();
        for ply in 0..4 {
            let until = Instant::now() + Duration::from_millis(300);
            let reply = follower.choose_after(&history, until).blocking_recv().expect("an answer");
            assert_eq!(reply.legal, prover.legal_moves(&state, 0));
            let mv = reply.best.expect("a move chosen");
            assert!(reply.legal.contains(&mv), "ply {ply}: {mv}");
            let other = prover.legal_moves(&state, 1)[0].clone();
            let joint = vec![mv, other];
            state = prover.next_state(&state, &joint);
            history.push(joint);
        }
    }
}
