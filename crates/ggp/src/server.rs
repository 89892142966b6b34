//! A GGP player over HTTP, as the Stanford and Dresden game managers expect
//! it.
//!
//! - `START`: compiles the rules within the start clock (a very large game
//!   keeps compiling in the background while the reference
//!   [`Prover`](crate::Prover), on a thread of its own that follows the
//!   match, answers), then uses the rest of the start clock to solve the game
//!   if it can; answers `ready`. The compilation ends with the match at the
//!   latest (cancelled when the match's session is dropped). A START for another match while one is
//!   running gets `busy`.
//! - `PLAY`: applies the previous joint move and answers a legal move,
//!   spelled as the rules spell it, before the play clock ends minus a safety
//!   margin. A move the exact solver has already proven best (the game
//!   solved at the start clock, or by an earlier move's search) is sent at
//!   once, whatever the clock; otherwise the thinking runs on a blocking
//!   thread and, should it overrun, a legal move computed up front is sent
//!   instead. Without a compiled
//!   machine the prover's choice by flat Monte Carlo is sent (a random
//!   legal move if no playout finished in time) — unless the compilation
//!   ends while the prover searches: the machine then answers that PLAY.
//!   Should the prover's search be late, a random move it found legal in
//!   the current state; should even that be late, one the rules alone prove
//!   legal there (`server/legal_by_rules.rs`); else a move it found legal before
//!   (never an error: a manager counts an error as an illegal move, and a
//!   guess may still be legal); `noop` only when no legal move is known at
//!   all.
//! - `STOP`/`ABORT` end the match (`done`/`aborted`); `INFO` tells whether
//!   the player is free; `PREVIEW` is acknowledged.
//! - Anything else — unparsable, truncated, oversized — gets an error reply;
//!   no request can stop the player.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, timeout_at};

mod legal_by_rules;

use crate::cancel::Canceller;
use crate::follower::{Follower, Reply};
use crate::game::Game;
use crate::http;
use crate::leaf_evaluation::LeafEvaluation;
use crate::limits::Limits;
use crate::machine::{Evaluator, Machine, State};
use crate::protocol::Message;
use crate::term::Term;
use crate::thinker::{Strategy, Thinker};
use legal_by_rules::{Where, legal_by_rules};

/// The seed of one match's random choices: the player's seed mixed with
/// the match id and the role played, so that players started alike draw
/// different moves in the same match (six players of gt_two_thirds_6p, all
/// with the default seed, once guessed the same number).
fn match_seed(seed: u64, id: &str, role: &Term) -> u64 {
    let mix = |h: u64, b: u8| h.rotate_left(5) ^ u64::from(b);
    let by_id = id.bytes().fold(0u64, mix);
    seed ^ role.to_string().to_lowercase().bytes().fold(by_id.rotate_left(17) ^ 0x9e37_79b9, mix)
}

/// How the player behaves.
#[derive(Debug, Clone)]
pub struct PlayerConfig {
    /// The name given in answer to INFO.
    pub name: String,
    /// How moves are chosen.
    pub strategy: Strategy,
    /// Largest message accepted, in bytes.
    pub max_message: usize,
    /// Time allowed for a request to arrive completely.
    pub read_timeout: Duration,
    /// Seed of the player's random choices.
    pub seed: u64,
    /// Print one line per message to standard error.
    pub verbose: bool,
    /// Never compile: reason with the reference prover only, choosing moves
    /// by tree search over it on one core — what the player falls back to
    /// while a game too large to compile in time is compiling. For
    /// diagnostics and tests.
    pub prover_only: bool,
}

impl Default for PlayerConfig {
    fn default() -> Self {
        PlayerConfig {
            name: "bouton".into(),
            strategy: Strategy::Best,
            max_message: 8 * 1024 * 1024,
            read_timeout: Duration::from_secs(20),
            seed: 0x0b07_7011,
            verbose: false,
            prover_only: false,
        }
    }
}

/// The time kept in reserve on each clock: network and scheduling delays.
///
/// ```
/// use bouton_ggp::server::safety_margin;
/// use std::time::Duration;
///
/// assert_eq!(safety_margin(Duration::from_secs(10)), Duration::from_millis(1500));
/// assert_eq!(safety_margin(Duration::from_secs(1)), Duration::from_millis(250));
/// assert_eq!(safety_margin(Duration::from_secs(60)), Duration::from_secs(2));
/// ```
pub fn safety_margin(clock: Duration) -> Duration {
    clock.mul_f64(0.15).clamp(Duration::from_millis(250), Duration::from_secs(2)).min(clock / 2)
}

/// Why a START could not be honoured with a compiled game.
enum StartFailure {
    /// The role given is not in the game: the match cannot be played.
    NoRole(String),
    /// The game does not compile (too large): the prover answers instead.
    Compile(String),
}

/// A compiled game ready to play one role.
#[derive(Clone)]
struct Engine {
    machine: Machine,
    role: usize,
    thinker: Arc<Mutex<Thinker>>,
}

/// One match.
struct Session {
    role: Term,
    play_clock: Duration,
    game: Arc<Game>,
    history: Vec<Vec<Term>>,
    /// The compiled game, once there: a PLAY waiting for the prover
    /// switches to it the moment the compilation installs it.
    engine: tokio::sync::watch::Sender<Option<Engine>>,
    /// How far the compiled machine has followed the history.
    position: Position,
    /// The reference prover following the match, started with it.
    follower: Option<Follower>,
    /// The legal moves the follower last gave, for a guess when it is late.
    last_legal: Vec<Term>,
    /// The follower's answer for the initial state, asked at START: the
    /// guess of a first PLAY that finds the prover still late (building a
    /// prover for chess on a loaded machine can take longer than a play
    /// clock; the guess was `noop`, illegal there).
    first_legal: Option<tokio::sync::oneshot::Receiver<Reply>>,
    /// The moves the rules alone prove legal in every state, once looked
    /// for (a last resort: [`Session::late_move`]).
    always_legal: Option<Vec<Term>>,
    seed: u64,
    /// Dropped with the match, it stops the game's compilation, should it
    /// still be under way.
    compiling: Canceller,
}

/// The compiled machine's view of the match, advanced one joint move at a
/// time: a machine installed in the middle of a match (compiled after the
/// start clock) catches up over a few PLAYs rather than replaying the whole
/// history before each answer.
enum Position {
    /// The state after the first `replayed` joint moves of the history.
    At { replayed: usize, state: State },
    /// No machine yet, or it has not started following.
    Unknown,
    /// The machine does not know a move the manager sent: the prover answers
    /// for the rest of the match.
    Lost,
}

struct Current {
    id: String,
    last_contact: std::time::Instant,
    /// Without any message for this long, the match is considered abandoned.
    patience: Duration,
    session: Arc<tokio::sync::Mutex<Session>>,
}

struct Player {
    config: PlayerConfig,
    current: Mutex<Option<Current>>,
    /// The machine of the last game compiled.
    last_compiled: Arc<Mutex<Option<Compiled>>>,
}

/// A compiled game kept for the next match with the same rules: managers
/// often play one game several times in a row, and a game that takes longer
/// than the start clock to compile (chess) is then played by its machine
/// from the first move.
struct Compiled {
    rules: Vec<crate::sexp::Sexp>,
    machine: Machine,
}

/// Serves GGP requests on `listener` forever.
///
/// ```no_run
/// use bouton_ggp::server::{PlayerConfig, serve};
///
/// # async fn run() -> std::io::Result<()> {
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:9147").await?;
/// serve(listener, PlayerConfig { verbose: true, ..PlayerConfig::default() }).await
/// # }
/// ```
///
/// # Errors
///
/// Never in practice: failures of single connections are answered or logged
/// and the loop goes on.
pub async fn serve(listener: TcpListener, config: PlayerConfig) -> std::io::Result<()> {
    let player = Arc::new(Player { config, current: Mutex::new(None), last_compiled: Arc::new(Mutex::new(None)) });
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => {
                let player = Arc::clone(&player);
                tokio::spawn(async move { player.connection(stream, peer).await });
            }
            Err(e) => {
                if player.config.verbose {
                    eprintln!("accept failed: {e}");
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The move the thinker's solver has already proven best in `state`
/// ([`Thinker::proven_move`]: no search, only the table of solved states
/// and, for a solved state, one transition per legal move — microseconds in
/// Nim — so it runs on the server's own task); `None` if it has none, or if
/// the thinker is busy (a search of an earlier request still running: not
/// waited for).
fn proven_move(thinker: &Mutex<Thinker>, state: &State) -> Option<u32> {
    let mut thinker = match thinker.try_lock() {
        Ok(thinker) => thinker,
        Err(std::sync::TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return None,
    };
    thinker.proven_move(state)
}

impl Player {
    async fn connection(self: Arc<Self>, stream: TcpStream, peer: SocketAddr) {
        let _ = stream.set_nodelay(true);
        let received = Instant::now();
        let deadline = received + self.config.read_timeout;
        let (status, body) = match http::read_request(&stream, self.config.max_message, deadline).await {
            Ok(request) => match request.method.as_str() {
                "OPTIONS" => ((200, "OK"), String::new()),
                "GET" => ((200, "OK"), self.info()),
                "POST" => self.message(&request.body, received).await,
                other => ((405, "Method Not Allowed"), format!("error: method {other} not allowed")),
            },
            Err(e) => {
                if self.config.verbose {
                    eprintln!("{peer}: {e}");
                }
                (e.status(), format!("error: {e}"))
            }
        };
        let _ = http::respond(stream, status, &body).await;
    }

    fn info(&self) -> String {
        let busy = lock(&self.current).as_ref().is_some_and(|c| c.last_contact.elapsed() < c.patience);
        format!("((name {}) (status {}))", self.config.name, if busy { "busy" } else { "available" })
    }

    async fn message(&self, body: &str, received: Instant) -> ((u16, &'static str), String) {
        let message = match Message::parse(body) {
            Ok(m) => m,
            Err(e) => return ((400, "Bad Request"), format!("error: {e}")),
        };
        let ok = |body: String| ((200, "OK"), body);
        match message {
            Message::Info => ok(self.info()),
            Message::Preview { .. } => ok("ready".into()),
            Message::Start { id, role, rules, start_clock, play_clock } => {
                match self.start(id, role, &rules, start_clock, play_clock, received).await {
                    Ok(reply) => ok(reply),
                    Err(e) => ((400, "Bad Request"), format!("error: {e}")),
                }
            }
            Message::Play { id, moves } => {
                let Some(session) = self.session(&id) else {
                    return ((400, "Bad Request"), format!("error: no match {id}"));
                };
                let mut session = session.lock().await;
                match session.play(moves, received).await {
                    Ok((mv, how)) => {
                        if self.config.verbose {
                            eprintln!("{id}: play {mv} ({how})");
                        }
                        ok(mv.to_string())
                    }
                    Err(e) => ((400, "Bad Request"), format!("error: {e}")),
                }
            }
            Message::Stop { id, .. } => {
                self.end(&id, "stop");
                ok("done".into())
            }
            Message::Abort { id } => {
                self.end(&id, "abort");
                ok("aborted".into())
            }
        }
    }

    fn session(&self, id: &str) -> Option<Arc<tokio::sync::Mutex<Session>>> {
        let mut current = lock(&self.current);
        let c = current.as_mut().filter(|c| c.id == id)?;
        c.last_contact = std::time::Instant::now();
        Some(Arc::clone(&c.session))
    }

    fn end(&self, id: &str, what: &str) {
        let mut current = lock(&self.current);
        if current.as_ref().is_some_and(|c| c.id == id) {
            *current = None;
            if self.config.verbose {
                eprintln!("{id}: {what}");
            }
        }
    }

    async fn start(
        &self,
        id: String,
        role: Term,
        rules: &[crate::sexp::Sexp],
        start_clock: Duration,
        play_clock: Duration,
        received: Instant,
    ) -> Result<String, String> {
        let game = Arc::new(Game::from_sexps(rules).map_err(|e| e.to_string())?);
        let session = {
            let mut current = lock(&self.current);
            if let Some(c) = current.as_ref() {
                if c.id == id {
                    return Ok("ready".into());
                }
                if c.last_contact.elapsed() < c.patience {
                    return Ok("busy".into());
                }
            }
            let seed = match_seed(self.config.seed, &id, &role);
            let session = Arc::new(tokio::sync::Mutex::new(Session {
                role: role.clone(),
                play_clock,
                game: Arc::clone(&game),
                history: Vec::new(),
                engine: tokio::sync::watch::Sender::new(None),
                position: Position::Unknown,
                follower: None,
                last_legal: Vec::new(),
                first_legal: None,
                always_legal: None,
                seed,
                compiling: Canceller::new(),
            }));
            *current = Some(Current {
                id: id.clone(),
                last_contact: std::time::Instant::now(),
                patience: start_clock + play_clock * 3 + Duration::from_secs(30),
                session: Arc::clone(&session),
            });
            session
        };
        if self.config.verbose {
            eprintln!("{id}: start as {role} ({} rules, clocks {start_clock:?}/{play_clock:?})", game.rule_count());
        }
        let deadline = received + start_clock.saturating_sub(safety_margin(start_clock));
        let mut session = session.lock().await;
        // The prover starts at once, whatever the compilation does: it has
        // the whole start clock to find the first legal moves.
        session.follow_with_prover();
        if self.config.prover_only {
            return Ok("ready".into());
        }
        // The follower searches on one core while the game compiles on the
        // other, on both once the compilation has ended.
        let second_core = session.follower.as_ref().expect("started with the match").second_core();
        let slot = session.engine.clone();
        let strategy = self.config.strategy;
        let seed = session.seed;
        let stop = Limits::none().cancelled_by(session.compiling.handle());
        let (done, compile) = tokio::sync::oneshot::channel::<Result<Engine, StartFailure>>();
        let work = {
            let game = Arc::clone(&game);
            let (id, verbose, answered_by) = (id.clone(), self.config.verbose, deadline.into_std());
            let (cache, rules) = (Arc::clone(&self.last_compiled), rules.to_vec());
            move || {
                let cached = lock(&cache).as_ref().filter(|c| c.rules == rules).map(|c| c.machine.clone());
                if verbose && cached.is_some() {
                    eprintln!("{id}: the rules of the last game compiled: its machine plays");
                }
                let compiled = cached.map_or_else(|| Machine::compile_limited(&game, stop), Ok);
                second_core.free();
                if let Ok(machine) = &compiled {
                    *lock(&cache) = Some(Compiled { rules, machine: machine.clone() });
                }
                let late = std::time::Instant::now() > answered_by;
                let engine = compiled.map_err(|e| StartFailure::Compile(e.to_string())).and_then(|machine| {
                    let r = machine
                        .roles()
                        .iter()
                        .position(|r| *r == role)
                        .ok_or_else(|| StartFailure::NoRole(format!("the game has no role {role}")))?;
                    let thinker = Thinker::new(&machine, r, strategy, seed);
                    let engine = Engine { machine, role: r, thinker: Arc::new(Mutex::new(thinker)) };
                    slot.send_replace(Some(engine.clone()));
                    Ok(engine)
                });
                // Past the start clock nobody waits for the outcome: say it
                // here (once the machine is installed: a PLAY from now on
                // plays it).
                if verbose && late {
                    match &engine {
                        Ok(_) => {
                            eprintln!("{id}: compiled after the start clock; the compiled machine plays from now on")
                        }
                        Err(StartFailure::Compile(e)) => {
                            eprintln!("{id}: {e}; the reference prover plays the whole match")
                        }
                        Err(StartFailure::NoRole(e)) => eprintln!("{id}: {e}"),
                    }
                }
                let _ = done.send(engine);
            }
        };
        // Detached: the compilation installs its machine itself, and says
        // through `compile` how it ended.
        drop(tokio::task::spawn_blocking(work));
        match timeout_at(deadline, compile).await {
            Ok(Ok(Ok(engine))) => {
                // The rest of the start clock goes to solving.
                let initial = engine.machine.initial_state();
                let thinker = Arc::clone(&engine.thinker);
                let solve_until = deadline.into_std();
                let prepare = tokio::task::spawn_blocking(move || lock(&thinker).prepare(&initial, solve_until));
                let _ = timeout_at(deadline, prepare).await;
                Ok("ready".into())
            }
            Ok(Ok(Err(StartFailure::NoRole(e)))) => {
                drop(session);
                self.end(&id, "refused");
                Err(e)
            }
            Ok(Ok(Err(StartFailure::Compile(e)))) => {
                if self.config.verbose {
                    eprintln!("{id}: {e}; the reference prover will answer");
                }
                Ok("ready".into())
            }
            // Still compiling: the prover answers meanwhile (the compilation
            // installs itself when done).
            _ => Ok("ready".into()),
        }
    }
}

impl Session {
    /// The legal move to send and how it was chosen. Whatever happens, a
    /// move is sent: the compiled machine's choice, else the reference
    /// prover's — unless the machine is installed while the prover searches:
    /// then the machine's — else (when its search is late) a random move
    /// among those it found legal here, else (when even those are late) a
    /// move the rules alone prove legal here, else a guess from the legal
    /// moves it gave last.
    async fn play(&mut self, moves: Option<Vec<Term>>, received: Instant) -> Result<(Term, &'static str), String> {
        if let Some(moves) = moves {
            self.history.push(moves);
        }
        let deadline = received + self.play_clock.saturating_sub(safety_margin(self.play_clock));
        // Watched from before the machine is looked for: one installed
        // after the look is seen.
        let mut arrivals = self.engine.subscribe();
        loop {
            if let Some(answer) = self.play_with_machine(deadline).await {
                return Ok(answer);
            }
            // Not compiled (yet), or the compiled machine does not know the
            // moves played: the reference prover answers, unless the
            // machine arrives first (it is installed once: this loops at
            // most twice).
            if let Some(answer) = self.play_with_prover(deadline, &mut arrivals).await {
                return Ok(answer);
            }
        }
    }

    /// The compiled machine's move and how it was chosen; `None` without a
    /// machine, or while it has not caught up with the match (or cannot).
    async fn play_with_machine(&mut self, deadline: Instant) -> Option<(Term, &'static str)> {
        let engine = self.engine.borrow().clone()?;
        let state = self.catch_up(&engine, deadline)?;
        let &first = engine.machine.legal_moves(&state, engine.role).first()?;
        // A move the solver has proven already is answered at once: no
        // thread to wait for, which a busy machine might run too late.
        if let Some(mv) = proven_move(&engine.thinker, &state) {
            return Some((engine.machine.moves(engine.role)[mv as usize].clone(), "proven by the solver"));
        }
        let thinker = Arc::clone(&engine.thinker);
        let think_until = deadline.into_std();
        let task = tokio::task::spawn_blocking(move || {
            let mut thinker = lock(&thinker);
            (thinker.choose(&state, think_until), thinker.evaluation())
        });
        let (mv, how) = match timeout_at(deadline, task).await {
            Ok(Ok((mv, LeafEvaluation::Mobility))) => (mv, "chosen; leaves valued by mobility"),
            Ok(Ok((mv, _))) => (mv, "chosen"),
            _ => (first, "out of time: first legal move"),
        };
        Some((engine.machine.moves(engine.role)[mv as usize].clone(), how))
    }

    /// The compiled machine's current state, once it has followed every joint
    /// move of the history. The moves not yet followed are played here, at
    /// least one and then for at most half the time left before `deadline`
    /// (a machine compiled in the middle of a match catches up over several
    /// PLAYs; in step, one transition is all there is to play); `None` while
    /// it is still behind (the prover answers meanwhile) or when it cannot
    /// follow the match.
    fn catch_up(&mut self, engine: &Engine, deadline: Instant) -> Option<State> {
        let (replayed, state) = match &self.position {
            Position::At { replayed, state } => (*replayed, state.clone()),
            Position::Unknown => (0, engine.machine.initial_state()),
            Position::Lost => return None,
        };
        if replayed == self.history.len() {
            return Some(state);
        }
        let now = Instant::now();
        let cutoff = (now + deadline.saturating_duration_since(now) / 2).into_std();
        match follow(&engine.machine, &state, &self.history[replayed..], cutoff) {
            Ok((followed, state)) => {
                let replayed = replayed + followed;
                self.position = Position::At { replayed, state: state.clone() };
                (replayed == self.history.len()).then_some(state)
            }
            Err(_) => {
                self.position = Position::Lost;
                None
            }
        }
    }

    /// The move the reference prover following the match chooses by flat
    /// Monte Carlo until shortly before the deadline (a random legal move if
    /// no playout finished); if it has not caught up by the deadline, a
    /// last resort ([`Session::late_move`]). `None` if a compiled machine
    /// is installed meanwhile (`arrivals` sees it): the machine answers
    /// then. (A machine compiled in the middle of a PLAY was not used before
    /// the next one: in mummymaze1p, compiled just after the start clock,
    /// the PLAY under way sent the last resort `noop`, illegal.)
    async fn play_with_prover(
        &mut self,
        deadline: Instant,
        arrivals: &mut tokio::sync::watch::Receiver<Option<Engine>>,
    ) -> Option<(Term, &'static str)> {
        self.follow_with_prover();
        let follower = self.follower.as_ref().expect("started");
        // A tenth of the time left is kept for answering.
        let now = Instant::now();
        let search_until = (now + deadline.saturating_duration_since(now) * 9 / 10).into_std();
        let question = follower.choose_after(&self.history, search_until);
        let reply = tokio::select! {
            answer = timeout_at(deadline, question) => answer.ok().and_then(Result::ok),
            Ok(()) = arrivals.changed() => return None,
        };
        if let Some(reply) = reply
            && !reply.legal.is_empty()
        {
            self.last_legal = reply.legal;
            return Some(match reply.best {
                Some(mv) => (mv, "reference reasoner: flat Monte Carlo"),
                None => (self.pick(&self.last_legal), "reference reasoner: random legal move"),
            });
        }
        Some(self.late_move())
    }

    /// One of `legal`, drawn from the match's seed and the number of moves
    /// played.
    fn pick(&self, legal: &[Term]) -> Term {
        let seed = self.seed.wrapping_add(self.history.len() as u64);
        legal[(seed % legal.len() as u64) as usize].clone()
    }

    /// The move to send when the prover's search is late: one the prover
    /// found legal here, if it has caught up with the match; else, at the
    /// first PLAY, one of the initial state's (asked at START); else one
    /// the rules alone prove legal here ([`legal_by_rules`]: in every state,
    /// or in the initial state at the first PLAY); else one the prover found
    /// legal before (a guess: it may be illegal now); else, knowing no legal
    /// move at all, `noop` (a guess, illegal in most games; said so in the
    /// log).
    fn late_move(&mut self) -> (Term, &'static str) {
        if let Some(legal) = self.follower.as_ref().and_then(|f| f.legal_known_after(&self.history)) {
            let mv = self.pick(&legal);
            self.last_legal = legal;
            return (mv, "reasoner late: a random legal move");
        }
        if self.last_legal.is_empty()
            && let Some(first) = self.first_legal.as_mut().and_then(|answer| answer.try_recv().ok())
        {
            self.last_legal = first.legal;
        }
        if self.history.is_empty() && !self.last_legal.is_empty() {
            return (self.pick(&self.last_legal), "reasoner late: a move legal in the initial state");
        }
        let proven = if self.history.is_empty() {
            legal_by_rules(&self.game, &self.role, Where::Initially)
        } else {
            self.always_legal.get_or_insert_with(|| legal_by_rules(&self.game, &self.role, Where::Everywhere)).clone()
        };
        if !proven.is_empty() {
            return (self.pick(&proven), "reasoner late: a move the rules prove legal");
        }
        if self.last_legal.is_empty() {
            ("noop".parse().expect("a term"), "reasoner late: noop, no legal move known")
        } else {
            (self.pick(&self.last_legal), "reasoner late: a move legal before")
        }
    }

    /// Starts the prover following the match (and asks it for the initial
    /// state's legal moves) if it was not yet.
    fn follow_with_prover(&mut self) {
        if self.follower.is_none() {
            let follower = Follower::start(&self.game, self.role.clone(), self.seed);
            self.first_legal = Some(follower.legal_after(&[]));
            self.follower = Some(follower);
        }
    }
}

/// Plays the joint moves of `pending` (spelled as the manager spells them)
/// from `state` until they are all played or `cutoff` passes; returns how
/// many were played and the state reached.
fn follow(
    machine: &Machine,
    state: &State,
    pending: &[Vec<Term>],
    cutoff: std::time::Instant,
) -> Result<(usize, State), String> {
    let mut e = Evaluator::new(machine);
    e.load(state);
    let mut followed = 0;
    for joint in pending {
        if followed > 0 && std::time::Instant::now() >= cutoff {
            break;
        }
        if joint.len() != machine.roles().len() {
            return Err(format!("{} moves for {} roles", joint.len(), machine.roles().len()));
        }
        let indices = joint
            .iter()
            .enumerate()
            .map(|(r, m)| {
                machine.move_index(r, m).ok_or_else(|| format!("{m} is not a move of {}", machine.roles()[r]))
            })
            .collect::<Result<Vec<u32>, String>>()?;
        e.advance(&indices);
        followed += 1;
    }
    Ok((followed, e.state()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const COUNTER: &str = "
        (role mover) (role watcher) (init (at 0))
        (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
        (<= (legal mover step) (true (at ?x)) (succ ?x ?y))
        (legal watcher noop)
        (<= (next (at ?y)) (does mover step) (true (at ?x)) (succ ?x ?y))
        (<= terminal (true (at 4)))
        (goal mover 100) (goal watcher 0)";

    fn joint() -> Vec<Term> {
        vec!["step".parse().unwrap(), "noop".parse().unwrap()]
    }

    /// Players of one match with the same seed draw differently per role,
    /// the same for the same role however it is spelled, and differently
    /// from match to match.
    #[test]
    fn each_role_of_a_match_has_its_own_seed() {
        let roles: Vec<Term> = (1..=6).map(|p| format!("player{p}").parse().unwrap()).collect();
        let mut seeds: Vec<u64> = roles.iter().map(|r| match_seed(7, "m1", r)).collect();
        assert_eq!(match_seed(7, "m1", &"PLAYER1".parse().unwrap()), seeds[0]);
        assert_ne!(match_seed(7, "m2", &roles[0]), seeds[0]);
        assert_ne!(match_seed(8, "m1", &roles[0]), seeds[0]);
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), roles.len());
    }

    #[test]
    fn following_stops_at_the_cutoff_after_one_move_and_resumes_from_there() {
        let machine = Machine::compile(&Game::parse(COUNTER).unwrap()).unwrap();
        let history = vec![joint(); 3];
        let past = std::time::Instant::now();
        let (followed, state) = follow(&machine, &machine.initial_state(), &history, past).unwrap();
        assert_eq!(followed, 1, "at least one move is played, then the cutoff stops it");
        let later = past + Duration::from_secs(60);
        let (followed, state) = follow(&machine, &state, &history[1..], later).unwrap();
        assert_eq!(followed, 2);
        assert!(machine.facts(&state).iter().any(|f| f.to_string() == "(at 3)"), "{:?}", machine.facts(&state));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_start_with_the_rules_of_the_last_game_compiled_reuses_its_machine() {
        let player =
            Player { config: PlayerConfig::default(), current: Mutex::new(None), last_compiled: Arc::default() };
        let rules = crate::sexp::Sexp::parse_all(COUNTER).unwrap();
        let clock = Duration::from_secs(5);
        let start = |id: &str| player.start(id.into(), "mover".parse().unwrap(), &rules, clock, clock, Instant::now());
        assert_eq!(start("first").await.unwrap(), "ready");
        let kept = lock(&player.last_compiled).as_ref().map(|c| c.rules.clone());
        assert_eq!(kept.as_ref(), Some(&rules), "the compiled game is kept");
        player.end("first", "stop");

        // A stand-in under the same rules, told apart by its roles: the next
        // START with these rules must play it rather than compile again.
        let stand_in = "(role mover) (role extra) (role watcher) (init (at 0)) (legal mover step) (legal extra noop)
            (legal watcher noop) (<= terminal (true (at 1))) (goal mover 0) (goal extra 0) (goal watcher 0)";
        let machine = Machine::compile(&Game::parse(stand_in).unwrap()).unwrap();
        *lock(&player.last_compiled) = Some(Compiled { rules: rules.clone(), machine });
        assert_eq!(start("second").await.unwrap(), "ready");
        let session = player.session("second").expect("the second match runs");
        let engine = session.lock().await.engine.borrow().clone().expect("a machine at once");
        assert_eq!(engine.machine.roles().len(), 3, "the kept machine plays");
    }

    /// A match of `rules` started as `role` by a player that reasons with
    /// the prover only, both clocks `clock`: the player (the match ends when
    /// it is dropped) and the match's session.
    async fn prover_only_match(rules: &str, role: &str, clock: Duration) -> (Player, Arc<tokio::sync::Mutex<Session>>) {
        let config = PlayerConfig { prover_only: true, ..PlayerConfig::default() };
        let player = Player { config, current: Mutex::new(None), last_compiled: Arc::default() };
        let rules = crate::sexp::Sexp::parse_all(rules).unwrap();
        let started = player.start("m".into(), role.parse().unwrap(), &rules, clock, clock, Instant::now());
        assert_eq!(started.await.unwrap(), "ready");
        let session = player.session("m").expect("the match runs");
        (player, session)
    }

    /// Ending a match cancels its compilation: dropped with the match, the
    /// session's canceller raises the cancellation the compilation runs
    /// within ([`Machine::compile_limited`]).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn ending_a_match_cancels_its_compilation() {
        let player =
            Player { config: PlayerConfig::default(), current: Mutex::new(None), last_compiled: Arc::default() };
        let rules = crate::sexp::Sexp::parse_all(COUNTER).unwrap();
        let clock = Duration::from_secs(5);
        let start = player.start("m".into(), "mover".parse().unwrap(), &rules, clock, clock, Instant::now());
        assert_eq!(start.await.unwrap(), "ready");
        let compiling = player.session("m").expect("the match runs").lock().await.compiling.handle();
        assert!(!compiling.is_cancelled());
        player.end("m", "stop");
        assert!(compiling.is_cancelled(), "the match's compilation is cancelled once it ends");
    }

    /// A first PLAY that finds the prover late (here, a play clock already
    /// spent) still gets a legal move: the initial state's, asked at START.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_late_prover_at_the_first_play_still_gives_a_legal_move() {
        let (_player, session) = prover_only_match(COUNTER, "mover", Duration::from_secs(5)).await;
        let mut session = session.lock().await;
        // Once the prover answers a later question, it has answered START's.
        let probe = session.follower.as_ref().expect("started with the match").legal_after(&[]);
        assert_eq!(probe.await.unwrap().legal, vec!["step".parse::<Term>().unwrap()]);
        session.play_clock = Duration::ZERO;
        let (mv, _) = session.play(None, Instant::now() - Duration::from_secs(1)).await.unwrap();
        assert_eq!(mv.to_string(), "step", "not a noop guess");
    }

    /// A PLAY whose search is late still gets a move legal where the match
    /// is, once the prover has caught up with it — not one of the moves the
    /// previous answer listed, which the move played since has made illegal.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_late_search_still_gives_a_move_legal_where_the_match_is() {
        const TURNS: &str = "(role mover) (role watcher) (init even)
            (<= (legal mover left) (true even)) (<= (legal mover right) (true odd)) (legal watcher noop)
            (<= (next odd) (true even)) (<= (next even) (true odd)) (<= terminal (true done))
            (goal mover 50) (goal watcher 50)";
        let (_player, session) = prover_only_match(TURNS, "mover", Duration::from_secs(2)).await;
        let mut session = session.lock().await;
        let (first, _) = session.play(None, Instant::now()).await.unwrap();
        assert_eq!(first.to_string(), "left");
        // The prover catches up with the move played; the next PLAY's search
        // is late.
        let played: Vec<Term> = vec!["left".parse().unwrap(), "noop".parse().unwrap()];
        session.history.push(played);
        let probe = session.follower.as_ref().expect("started with the match").legal_after(&session.history);
        assert_eq!(probe.await.unwrap().legal, vec!["right".parse::<Term>().unwrap()]);
        let (mv, how) = session.late_move();
        assert_eq!((mv.to_string().as_str(), how), ("right", "reasoner late: a random legal move"));
    }

    /// A game whose prover is hopelessly slow from state `b` on (the legal
    /// moves there need a cycle of six edges in the complete graph on 30
    /// vertices: 7·10⁸ walks, hours), `wait` legal in every state by a bare
    /// fact, `go` legal in the initial state `a`; the game starts in `init`.
    fn slow_rules(init: &str) -> String {
        let mut rules = format!(
            "(role r) (init {init}) (legal r wait) (<= (legal r go) (true a))
             (<= (legal r stay) (true b) (cycle ?x))
             (<= (next b) (true a)) (<= (next b) (true b))
             (<= (cycle ?a) (e ?a ?b) (e ?b ?c) (e ?c ?d) (e ?d ?f) (e ?f ?g) (e ?g ?a))
             (<= terminal (true c)) (goal r 0)"
        );
        for i in 0..30 {
            for j in 0..30 {
                rules.push_str(&format!(" (e {i} {j})"));
            }
        }
        rules
    }

    /// A PLAY that finds the prover late (its legal moves take hours here)
    /// and no legal move known sends a move the rules prove legal rather
    /// than `noop`, illegal here: at the first PLAY (the initial state's
    /// moves not known either) `wait` or `stay`, later `wait`, a bare fact
    /// (`stay` depends on the state).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn knowing_no_legal_move_the_player_sends_one_the_rules_prove() {
        let (_player, session) = prover_only_match(&slow_rules("b"), "r", Duration::from_secs(1)).await;
        let mut session = session.lock().await;
        session.play_clock = Duration::ZERO;
        let (mv, how) = session.play(None, Instant::now()).await.unwrap();
        // In `b`, `stay` is legal too (a cycle exists: the prover would
        // list every one), and the rules prove it at once: (e 0 0) six times.
        assert!(["wait", "stay"].contains(&mv.to_string().as_str()), "{mv}");
        assert_eq!(how, "reasoner late: a move the rules prove legal");
        let joint = vec!["wait".parse().unwrap()];
        let (mv, how) = session.play(Some(joint), Instant::now()).await.unwrap();
        assert_eq!((mv.to_string().as_str(), how), ("wait", "reasoner late: a move the rules prove legal"));
    }

    /// A compiled machine installed while a PLAY waits for a late prover
    /// answers that PLAY. (Before, the PLAY under way waited for the prover
    /// to its deadline and sent its last resort: in mummymaze1p, compiled
    /// just after the start clock, an illegal `noop`.) Here the prover
    /// takes hours for the state after `go`; the stand-in machine, installed
    /// a moment after the PLAY began, knows `go` and answers `stay`, its
    /// only legal move there, as the machine does — not `go` or `wait`, the
    /// prover's last resorts.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_machine_compiled_during_a_play_answers_it() {
        let (_player, session) = prover_only_match(&slow_rules("a"), "r", Duration::from_secs(30)).await;
        let stand_in = "(role r) (init a) (<= (legal r go) (true a)) (<= (legal r stay) (true b))
            (<= (next b) (true a)) (<= (next b) (true b)) (<= terminal (true c)) (goal r 0)";
        let machine = Machine::compile(&Game::parse(stand_in).unwrap()).unwrap();
        let thinker = Thinker::new(&machine, 0, Strategy::Random, 1);
        let engine = Engine { machine, role: 0, thinker: Arc::new(Mutex::new(thinker)) };
        let mut session = session.lock().await;
        let slot = session.engine.clone();
        let install = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            slot.send_replace(Some(engine));
        });
        let go = vec!["go".parse().unwrap()];
        let (mv, how) = session.play(Some(go), Instant::now()).await.unwrap();
        install.await.unwrap();
        assert!(!how.starts_with("reasoner late") && !how.starts_with("reference"), "{mv} ({how})");
        assert_eq!(mv.to_string(), "stay", "{how}");
    }

    /// Without a machine the player searches with the prover: of a winning
    /// and a losing move (the exact values, read from the rules), it plays
    /// the winning one, and says how it chose.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn without_a_machine_the_prover_searches() {
        const CHOICE: &str = "(role r) (init start) (legal r good) (legal r bad)
            (<= (next won) (does r good)) (<= (next lost) (does r bad))
            (<= terminal (true won)) (<= terminal (true lost))
            (<= (goal r 100) (true won)) (<= (goal r 0) (not (true won)))";
        let (_player, session) = prover_only_match(CHOICE, "r", Duration::from_secs(2)).await;
        let mut session = session.lock().await;
        let (mv, how) = session.play(None, Instant::now()).await.unwrap();
        assert_eq!((mv.to_string().as_str(), how), ("good", "reference reasoner: flat Monte Carlo"));
    }

    /// A game solved at the start clock is played perfectly even when no
    /// time is left for any move (a play clock of zero, each PLAY received
    /// a second ago): every answer is the solver's proven move, given at
    /// once. Before, each move went to a thinking thread that the server
    /// gave up on at once, then played the first legal move — how `best`
    /// lost nim1, told by our referee that its 500 ms play clock was 0 s.
    /// The oracle: Bouton's theorem, on the states of a machine of our own;
    /// the opponent plays its first legal move in one match, its last in the
    /// other.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_solved_game_is_won_with_no_time_for_any_move() {
        use crate::solver::tests::{TWO_HEAPS, nim_sum};
        let oracle = Machine::compile(&Game::parse(TWO_HEAPS).unwrap()).unwrap();
        let rules = crate::sexp::Sexp::parse_all(TWO_HEAPS).unwrap();
        for (id, opponent_takes_last) in [("first", false), ("last", true)] {
            let player =
                Player { config: PlayerConfig::default(), current: Mutex::new(None), last_compiled: Arc::default() };
            let clock = Duration::from_secs(5);
            let started = player.start(id.into(), "a".parse().unwrap(), &rules, clock, clock, Instant::now());
            assert_eq!(started.await.unwrap(), "ready");
            let session = player.session(id).expect("the match runs");
            let mut session = session.lock().await;
            session.play_clock = Duration::ZERO;
            let mut eval = Evaluator::new(&oracle);
            let mut previous = None;
            while !eval.is_terminal() {
                let (mv, how) = session.play(previous.take(), Instant::now() - Duration::from_secs(1)).await.unwrap();
                assert_eq!(how, "proven by the solver", "{id}: {mv}");
                let ours = oracle.move_index(0, &mv).expect("a move of the game");
                let mut theirs = Vec::new();
                eval.legal_moves(1, &mut theirs);
                let theirs = if opponent_takes_last { theirs[theirs.len() - 1] } else { theirs[0] };
                let mut legal = Vec::new();
                eval.legal_moves(0, &mut legal);
                assert!(legal.contains(&ours), "{id}: {mv} is legal");
                let state = eval.state();
                let ours_to_move = legal.len() > 1;
                eval.advance(&[ours, theirs]);
                if ours_to_move {
                    assert_eq!(nim_sum(&oracle, &eval.state()), 0, "{id}: {mv} wins from {:?}", oracle.facts(&state));
                }
                previous = Some(vec![mv, oracle.moves(1)[theirs as usize].clone()]);
            }
            assert_eq!(eval.goal(0), Some(100), "{id}: won");
        }
    }

    #[test]
    fn a_move_the_machine_does_not_know_is_reported() {
        let machine = Machine::compile(&Game::parse(COUNTER).unwrap()).unwrap();
        let history = vec![joint(), vec!["jump".parse().unwrap(), "noop".parse().unwrap()]];
        let far = std::time::Instant::now() + Duration::from_secs(60);
        let err = follow(&machine, &machine.initial_state(), &history, far).unwrap_err();
        assert!(err.contains("jump is not a move of mover"), "{err}");
        assert!(follow(&machine, &machine.initial_state(), &[vec![joint()[0].clone()]], far).is_err());
    }
}
