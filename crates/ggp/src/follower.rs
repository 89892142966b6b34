//! The player's reasoner for a game it has not compiled (yet): the reference
//! [`Prover`] on a thread of its own that follows the match move by move, so
//! that no work is lost when an answer is late, and no two reasoners ever run
//! at once for one match.

use std::sync::mpsc;
use std::thread;
use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::SmallRng;

use tokio::sync::oneshot;

use crate::game::Game;
use crate::prover::{Prover, ProverState};
use crate::prover_search::flat_monte_carlo;
use crate::term::Term;

/// One question: the legal moves of the follower's role after `history`,
/// and, with `search_until`, the move to play there.
struct Question {
    history: Vec<Vec<Term>>,
    search_until: Option<Instant>,
    answer: oneshot::Sender<Reply>,
}

/// The follower's answer: the role's legal moves after the history asked
/// about, and the move its search chose among them, if it was asked to
/// search and a playout finished in time.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Reply {
    /// The legal moves, sorted.
    pub legal: Vec<Term>,
    /// The move with the best mean goal over the prover's random playouts.
    pub best: Option<Term>,
}

/// A reference prover on its own thread, following one match for one role.
/// Dropping it ends the thread once its current question is answered.
pub(crate) struct Follower {
    questions: mpsc::Sender<Question>,
}

impl Follower {
    /// Starts following a match of `game` as `role`, its searches' random
    /// draws seeded with `seed`; it computes the legal moves of the initial
    /// state at once, before the first question.
    pub fn start(game: &Game, role: Term, seed: u64) -> Follower {
        let (questions, inbox) = mpsc::channel::<Question>();
        let game = game.clone();
        thread::Builder::new()
            .name("ggp-follower".into())
            .spawn(move || follow(&game, &role, &inbox, seed))
            .expect("a thread for the reasoner");
        Follower { questions }
    }

    /// The legal moves of the role after `history` (every joint move so
    /// far), answered when the prover has caught up; an empty list if the
    /// role is not in the game or the thread has ended.
    pub fn legal_after(&self, history: &[Vec<Term>]) -> oneshot::Receiver<Reply> {
        self.ask(history, None)
    }

    /// As [`Follower::legal_after`], and the move to play there, chosen by
    /// flat Monte Carlo over the prover until `until` (the search starts
    /// once the prover has caught up with `history`).
    pub fn choose_after(&self, history: &[Vec<Term>], until: Instant) -> oneshot::Receiver<Reply> {
        self.ask(history, Some(until))
    }

    fn ask(&self, history: &[Vec<Term>], search_until: Option<Instant>) -> oneshot::Receiver<Reply> {
        let (answer, receiver) = oneshot::channel();
        // A closed channel drops `answer`, which the receiver sees as an
        // error: no answer.
        let _ = self.questions.send(Question { history: history.to_vec(), search_until, answer });
        receiver
    }
}

/// The thread: applies the joint moves as they come and answers the latest
/// question (older ones, still queued, are answered with it — they asked
/// about a prefix of the same match, and their askers have moved on).
fn follow(game: &Game, role: &Term, inbox: &mpsc::Receiver<Question>, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut prover = Prover::new(game);
    let Some(r) = prover.roles().iter().position(|x| x == role) else {
        return;
    };
    let mut state: ProverState = prover.initial_state();
    let mut applied = 0;
    let mut legal = prover.legal_moves(&state, r);
    while let Ok(first) = inbox.recv() {
        let mut waiting = vec![first];
        waiting.extend(inbox.try_iter());
        let history = &waiting.last().expect("one question at least").history;
        if history.len() < applied {
            // Another match's history, or a rewound one: start again.
            state = prover.initial_state();
            applied = 0;
        }
        if history.len() > applied {
            for joint in &history[applied..] {
                state = prover.next_state(&state, joint);
            }
            applied = history.len();
            legal = prover.legal_moves(&state, r);
        }
        // Only the latest question is searched for: the others' askers
        // have moved on.
        let search_until = waiting.last().and_then(|question| question.search_until);
        let best = search_until.and_then(|until| flat_monte_carlo(&mut prover, &state, r, &legal, until, &mut rng));
        for question in waiting {
            let _ = question.answer.send(Reply { legal: legal.clone(), best: best.clone() });
        }
    }
}
