//! A game manager of our own: runs a match over HTTP between players at
//! given addresses, by the rules of the reference managers — every player
//! gets START, then PLAY with the previous joint move until the game ends,
//! then STOP; a move that is late, illegal or missing is replaced by a random
//! legal move and recorded as replaced.

use std::time::Duration;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tokio::time::Instant;

use crate::compile_error::CompileError;
use crate::game::Game;
use crate::http::{self, ClientError};
use crate::judge::Judge;
use crate::protocol::Message;
use crate::record::{MatchRecord, Replacement, Step};
use crate::sexp::Sexp;
use crate::term::Term;

/// How a match is run.
#[derive(Debug, Clone)]
pub struct RefereeConfig {
    /// The match identifier sent to the players.
    pub match_id: String,
    /// Time before the first move.
    pub start_clock: Duration,
    /// Time for each move.
    pub play_clock: Duration,
    /// Extra time allowed for the network on each request.
    pub grace: Duration,
    /// Seed for the replacement moves.
    pub seed: u64,
    /// Most steps before the match is abandoned.
    pub max_steps: usize,
}

impl Default for RefereeConfig {
    fn default() -> Self {
        RefereeConfig {
            match_id: "bouton".into(),
            start_clock: Duration::from_secs(10),
            play_clock: Duration::from_secs(5),
            grace: Duration::from_millis(500),
            seed: 1,
            max_steps: 10_000,
        }
    }
}

/// Why a match could not be run.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    /// The game has no roles (a game too large to compile is refereed by
    /// the reference prover).
    #[error(transparent)]
    Compile(#[from] CompileError),
    /// Not one player per role.
    #[error("the game has {roles} roles but {players} players were given")]
    PlayerCount {
        /// Roles of the game.
        roles: usize,
        /// Players given.
        players: usize,
    },
    /// A role with no legal move in a non-terminal state.
    #[error("{0} has no legal move in a non-terminal state")]
    NoMoves(Term),
}

/// Runs a match of `game` between the players at `players` (one per role,
/// in role order; `host:port` or `http://host:port/`), calling `progress`
/// after each step.
///
/// ```no_run
/// use bouton_ggp::Game;
/// use bouton_ggp::referee::{RefereeConfig, run_match};
///
/// # async fn run(game: Game) -> Result<(), Box<dyn std::error::Error>> {
/// let players = ["127.0.0.1:9147".to_string(), "127.0.0.1:9148".to_string()];
/// let record = run_match(&game, &players, &RefereeConfig::default(), &mut |step| println!("{:?}", step.moves)).await?;
/// print!("{record}");
/// # Ok(())
/// # }
/// ```
///
/// # Errors
///
/// A [`RefereeError`] when the match cannot be run; misbehaving players are
/// not errors — their moves are replaced and recorded.
pub async fn run_match(
    game: &Game,
    players: &[String],
    config: &RefereeConfig,
    progress: &mut (dyn FnMut(&Step) + Send),
) -> Result<MatchRecord, RefereeError> {
    let mut judge = Judge::new(game)?;
    let roles = judge.roles();
    if roles.len() != players.len() {
        return Err(RefereeError::PlayerCount { roles: roles.len(), players: players.len() });
    }
    let rules = Sexp::parse_all(&game.to_kif()).expect("printed rules parse");
    let mut rng = SmallRng::seed_from_u64(config.seed);

    let starts: Vec<Message> = roles
        .iter()
        .map(|role| Message::Start {
            id: config.match_id.clone(),
            role: role.clone(),
            rules: rules.clone(),
            start_clock: config.start_clock,
            play_clock: config.play_clock,
        })
        .collect();
    let _ = broadcast(players, &starts, Instant::now() + config.start_clock + config.grace).await;

    let mut record = MatchRecord {
        roles: roles.clone(),
        players: players.to_vec(),
        steps: Vec::new(),
        goals: Vec::new(),
        finished: false,
    };
    let mut previous: Option<Vec<Term>> = None;
    while !judge.is_terminal() && record.steps.len() < config.max_steps {
        let plays: Vec<Message> =
            roles.iter().map(|_| Message::Play { id: config.match_id.clone(), moves: previous.clone() }).collect();
        let replies = broadcast(players, &plays, Instant::now() + config.play_clock + config.grace).await;
        let mut step = Step { moves: Vec::new(), replaced: Vec::new() };
        for (r, reply) in replies.into_iter().enumerate() {
            let legal = judge.legal(r);
            if legal.is_empty() {
                return Err(RefereeError::NoMoves(roles[r].clone()));
            }
            let chosen = match reply {
                Ok(text) => match text.trim().parse::<Term>().ok().and_then(|t| legal.iter().find(|m| **m == t)) {
                    Some(mv) => Ok(mv.clone()),
                    None => Err(Replacement::Illegal(text.trim().to_string())),
                },
                Err(ClientError::Timeout) => Err(Replacement::Late),
                Err(e) => Err(Replacement::Failed(e.to_string())),
            };
            let (mv, why) = match chosen {
                Ok(mv) => (mv, None),
                Err(why) => (legal[rng.random_range(0..legal.len())].clone(), Some(why)),
            };
            step.moves.push(mv);
            step.replaced.push(why);
        }
        judge.play(&step.moves);
        previous = Some(step.moves.clone());
        progress(&step);
        record.steps.push(step);
    }
    let stops: Vec<Message> =
        roles.iter().map(|_| Message::Stop { id: config.match_id.clone(), moves: previous.clone() }).collect();
    let _ = broadcast(players, &stops, Instant::now() + config.play_clock + config.grace).await;
    record.goals = judge.goals();
    record.finished = judge.is_terminal();
    Ok(record)
}

/// Sends each player its message at the same time; the replies, in order.
async fn broadcast(players: &[String], messages: &[Message], deadline: Instant) -> Vec<Result<String, ClientError>> {
    let handles: Vec<_> = players
        .iter()
        .zip(messages)
        .map(|(address, message)| {
            let (address, text) = (address.clone(), message.to_string());
            tokio::spawn(async move { http::post(&address, &text, deadline).await })
        })
        .collect();
    let mut replies = Vec::with_capacity(handles.len());
    for h in handles {
        replies.push(h.await.unwrap_or_else(|e| Err(ClientError::Bad(format!("request task failed: {e}")))));
    }
    replies
}
