//! The player's reasoner for a game it has not compiled (yet): the reference
//! [`Prover`] on a thread of its own that follows the match move by move, so
//! that no work is lost when an answer is late, and no two reasoners ever run
//! at once for one match.

use std::sync::mpsc;
use std::thread;

use tokio::sync::oneshot;

use crate::game::Game;
use crate::prover::{Prover, ProverState};
use crate::term::Term;

/// One question: the legal moves of the follower's role after `history`.
struct Question {
    history: Vec<Vec<Term>>,
    answer: oneshot::Sender<Vec<Term>>,
}

/// A reference prover on its own thread, following one match for one role.
/// Dropping it ends the thread once its current question is answered.
pub(crate) struct Follower {
    questions: mpsc::Sender<Question>,
}

impl Follower {
    /// Starts following a match of `game` as `role`; it computes the legal
    /// moves of the initial state at once, before the first question.
    pub fn start(game: &Game, role: Term) -> Follower {
        let (questions, inbox) = mpsc::channel::<Question>();
        let game = game.clone();
        thread::Builder::new()
            .name("ggp-follower".into())
            .spawn(move || follow(&game, &role, &inbox))
            .expect("a thread for the reasoner");
        Follower { questions }
    }

    /// The legal moves of the role after `history` (every joint move so
    /// far), answered when the prover has caught up; an empty list if the
    /// role is not in the game or the thread has ended.
    pub fn legal_after(&self, history: &[Vec<Term>]) -> oneshot::Receiver<Vec<Term>> {
        let (answer, receiver) = oneshot::channel();
        // A closed channel drops `answer`, which the receiver sees as an
        // error: no answer.
        let _ = self.questions.send(Question { history: history.to_vec(), answer });
        receiver
    }
}

/// The thread: applies the joint moves as they come and answers the latest
/// question (older ones, still queued, are answered with it — they asked
/// about a prefix of the same match, and their askers have moved on).
fn follow(game: &Game, role: &Term, inbox: &mpsc::Receiver<Question>) {
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
        for question in waiting {
            let _ = question.answer.send(legal.clone());
        }
    }
}
