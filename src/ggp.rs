//! `bouton ggp`: General Game Playing — check GDL rule sheets, play them
//! locally, serve a GGP player over HTTP, referee matches between players.

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use bouton_ggp::local::{Builtin, Contestant, play_match};
use bouton_ggp::referee::{RefereeConfig, run_match};
use bouton_ggp::server::{PlayerConfig, serve};
use bouton_ggp::{Game, Machine, SolveError, Solver, State, Strategy, Term, Thinker};
use clap::{Args, Subcommand};

use crate::UsageError;
use crate::wording::{BadNumber, any_number, positive_number, whole_number};

/// `--port`: from 0 (any free port) to 65535.
fn port(text: &str) -> Result<u16, BadNumber> {
    whole_number(text, 0, u64::from(u16::MAX)).map(|port| port as u16)
}

/// Options of `bouton ggp`.
#[derive(Debug, Clone, Args)]
pub struct GgpArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: GgpCommand,
}

/// The `bouton ggp` subcommands.
#[derive(Debug, Clone, Subcommand)]
pub enum GgpCommand {
    /// Serve a GGP player over HTTP (the Stanford and Dresden protocol).
    #[command(after_help = "Examples:
  bouton ggp serve                     a player at 127.0.0.1:9147
  bouton ggp serve --host 0.0.0.0 --strategy mcts --name alice
  bouton ggp serve --port 9148 --strategy flat-mc   the ggp-base baseline")]
    Serve(ServeArgs),
    /// Validate a GDL file; print roles, initial legal moves and, when it can
    /// be solved in time, the goal each role can guarantee (the outcome of
    /// perfect play where the goals add up to a constant).
    #[command(after_help = "Examples:
  bouton ggp check nim1.kif
  bouton ggp check nim1.kif --solve-time 0   validate only, do not solve")]
    Check(CheckArgs),
    /// Play a local match between built-in players, or against you.
    #[command(after_help = "Examples:
  bouton ggp play nim1.kif                   best against best
  bouton ggp play nim1.kif --players human,best --play-clock 2
  bouton ggp play connectFour.kif --players best,flat-mc")]
    Play(PlayArgs),
    /// Run a match over HTTP between players at the given addresses.
    #[command(after_help = "Examples:
  bouton ggp referee nim1.kif --player 127.0.0.1:9147 --player 127.0.0.1:9148
  bouton ggp referee nim1.kif --player a:9147 --player b:9147 --play-clock 2")]
    Referee(RefereeArgs),
}

/// Options of `bouton ggp serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The port to listen on.
    #[arg(long, default_value_t = 9147, value_parser = port, allow_negative_numbers = true)]
    pub port: u16,
    /// The address to listen on (0.0.0.0 for every interface).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// How moves are chosen: best (perfect when solvable, else search), mcts
    /// (search only), flat-mc (flat Monte Carlo, the ggp-base baseline),
    /// random.
    #[arg(long, default_value = "best")]
    pub strategy: Strategy,
    /// The name given in answer to INFO.
    #[arg(long, default_value = "bouton")]
    pub name: String,
    /// Print nothing per message.
    #[arg(long)]
    pub quiet: bool,
}

/// Options of `bouton ggp check`.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The GDL (KIF) file.
    pub file: PathBuf,
    /// Time allowed for solving, in seconds (0: do not try).
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub solve_time: f64,
}

/// Options of `bouton ggp play`.
#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    /// The GDL (KIF) file.
    pub file: PathBuf,
    /// Who plays each role, in role order, comma-separated: best, mcts,
    /// flat-mc, random or human. One kind plays every role. Default: best.
    #[arg(long, value_delimiter = ',', value_name = "KINDS")]
    pub players: Vec<String>,
    /// Seconds per move for the built-in players.
    #[arg(long, value_name = "SECS", default_value_t = 1.0)]
    pub play_clock: f64,
    /// Seed for the built-in players' random choices.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = any_number, allow_negative_numbers = true)]
    pub seed: u64,
}

/// Options of `bouton ggp referee`.
#[derive(Debug, Clone, Args)]
pub struct RefereeArgs {
    /// The GDL (KIF) file.
    pub file: PathBuf,
    /// A player's address (host:port or http://host:port/), one per role in
    /// role order.
    #[arg(long = "player", value_name = "ADDRESS", required = true)]
    pub players: Vec<String>,
    /// Seconds before the first move.
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = any_number, allow_negative_numbers = true)]
    pub start_clock: u64,
    /// Seconds per move.
    #[arg(long, value_name = "SECS", default_value_t = 5, value_parser = any_number, allow_negative_numbers = true)]
    pub play_clock: u64,
    /// The match identifier.
    #[arg(long, default_value = "bouton-match")]
    pub match_id: String,
    /// Seed for the moves that replace late or illegal ones.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = any_number, allow_negative_numbers = true)]
    pub seed: u64,
    /// Most joint moves played: a match still going then is stopped (STOP
    /// sent to the players) and recorded as unfinished.
    #[arg(long, value_name = "N", default_value_t = RefereeConfig::default().max_steps as u64, value_parser = positive_number, allow_negative_numbers = true)]
    pub max_steps: u64,
}

/// Runs `bouton ggp`.
pub fn run(args: &GgpArgs) -> Result<()> {
    match &args.command {
        GgpCommand::Serve(a) => run_serve(a),
        GgpCommand::Check(a) => run_check(a),
        GgpCommand::Play(a) => run_play(a),
        GgpCommand::Referee(a) => run_referee(a),
    }
}

// The causes go into the messages themselves: `bouton` prints only the
// outermost message of an error.
fn read_game(path: &Path) -> Result<Game> {
    let text = std::fs::read_to_string(path).map_err(|e| anyhow!("cannot read {}: {e}", path.display()))?;
    Game::parse(&text).map_err(|e| anyhow!("{} is not a GDL description: {e}", path.display()))
}

fn compile(game: &Game, path: &Path) -> Result<Machine> {
    Machine::compile(game).map_err(|e| anyhow!("cannot compile {}: {e}", path.display()))
}

/// How often a serving player hands the memory its allocator holds free back
/// to the system (`give_back_free_memory`).
const GIVE_BACK_EVERY: Duration = Duration::from_secs(10);

/// Hands the heap memory that glibc's allocator holds free back to the
/// system, every `GIVE_BACK_EVERY`, on a thread of its own for the life of
/// the process. A player's search trees (up to a gigabyte) are freed after
/// each match, but glibc keeps freed memory in the pool (arena) of the thread
/// that allocated it, and returns it only from the top of each pool: a player
/// that played four large matches in a row (amazonsTorus, amazons, chess,
/// amazonsTorus) held up to 1.18 GB between them and 1.30 GB at its peak;
/// with this, 0.16–0.30 GB and 0.80 GB. `malloc_trim` releases the free pages
/// wherever they lie in the pools; it took 0.4 s of CPU over those matches.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn give_back_free_memory() {
    let trimmer = || {
        loop {
            std::thread::sleep(GIVE_BACK_EVERY);
            // SAFETY: `malloc_trim` takes no pointer and touches only the
            // allocator's own free lists, under the allocator's locks; it is
            // safe to call from any thread at any time.
            unsafe { libc::malloc_trim(0) };
        }
    };
    // Without the thread the player still plays; it only keeps more memory.
    let _ = std::thread::Builder::new().name("give-back-memory".into()).spawn(trimmer);
}

/// Elsewhere the allocator is not glibc's: nothing to do.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn give_back_free_memory() {}

fn run_serve(args: &ServeArgs) -> Result<()> {
    give_back_free_memory();
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let config = PlayerConfig {
        name: args.name.clone(),
        strategy: args.strategy,
        verbose: !args.quiet,
        ..PlayerConfig::default()
    };
    runtime.block_on(async {
        let address = std::net::SocketAddr::new(args.host, args.port);
        let listener =
            tokio::net::TcpListener::bind(address).await.with_context(|| format!("cannot listen on {address}"))?;
        let bound = listener.local_addr()?;
        println!("bouton GGP player {} listening on http://{bound}/", args.name);
        io::stdout().flush()?;
        tokio::select! {
            result = serve(listener, config) => result.context("the server stopped"),
            _ = tokio::signal::ctrl_c() => Ok(()),
        }
    })
}

fn run_check(args: &CheckArgs) -> Result<()> {
    let game = read_game(&args.file)?;
    let verdict = game.validate();
    let mut out = io::stdout().lock();
    for e in &verdict.errors {
        writeln!(out, "error: {e}")?;
    }
    for w in &verdict.warnings {
        writeln!(out, "warning: {w}")?;
    }
    writeln!(
        out,
        "{}: {} ({} rules, {} errors, {} warnings)",
        args.file.display(),
        if verdict.is_valid() { "valid GDL" } else { "invalid GDL" },
        game.rule_count(),
        verdict.errors.len(),
        verdict.warnings.len()
    )?;
    let machine = compile(&game, &args.file)?;
    let stats = machine.stats();
    writeln!(
        out,
        "compiled in {} ms: {} ground rules, {} base propositions, {} clauses",
        stats.compile_ms, stats.ground_rules, stats.base_propositions, stats.clauses
    )?;
    let start = machine.initial_state();
    writeln!(out, "roles and legal moves in the initial state:")?;
    for (r, role) in machine.roles().iter().enumerate() {
        let moves: Vec<String> =
            machine.legal_moves(&start, r).iter().map(|&m| machine.moves(r)[m as usize].to_string()).collect();
        writeln!(out, "  {role} ({}): {}", moves.len(), moves.join(" "))?;
    }
    if machine.is_terminal(&start) {
        writeln!(out, "the initial state is terminal")?;
    }
    if args.solve_time > 0.0 {
        let deadline = Instant::now() + Duration::from_secs_f64(args.solve_time);
        let mut solver = Solver::new(&machine);
        let started = Instant::now();
        match solver.solve(&start, deadline) {
            Ok(value) => {
                let goals: Vec<String> =
                    machine.roles().iter().zip(&value).map(|(role, v)| format!("{role} {v}")).collect();
                writeln!(
                    out,
                    "solved in {:.2} s ({} states): each role can guarantee, whatever the others do: {}",
                    started.elapsed().as_secs_f64(),
                    solver.solved_states(),
                    goals.join(", ")
                )?;
                for r in 0..machine.roles().len() {
                    let legal = machine.legal_moves(&start, r);
                    if legal.len() > 1 {
                        let best = solver.best_moves(&start, r, deadline).unwrap_or_default();
                        let names: Vec<String> =
                            best.iter().map(|&m| machine.moves(r)[m as usize].to_string()).collect();
                        writeln!(out, "  best first moves of {}: {}", machine.roles()[r], names.join(" "))?;
                    }
                }
            }
            Err(e) => {
                let why = match e {
                    SolveError::Deadline => format!("not solved within {} s", args.solve_time),
                    other => format!("not solved: {other}"),
                };
                writeln!(out, "{why}")?;
            }
        }
    }
    if !verdict.is_valid() {
        bail!("{} is not valid GDL", args.file.display());
    }
    Ok(())
}

/// A person at the terminal: picks a move by number or by typing it.
struct Human {
    lines: io::Lines<io::StdinLock<'static>>,
}

impl Contestant for Human {
    fn name(&self) -> String {
        "you".into()
    }

    fn choose(&mut self, machine: &Machine, state: &State, role: usize, legal: &[u32], _: Instant) -> Option<u32> {
        if legal.len() == 1 {
            return Some(legal[0]);
        }
        let facts: Vec<String> = machine.facts(state).iter().map(ToString::to_string).collect();
        println!("state: {}", facts.join(" "));
        for (i, &m) in legal.iter().enumerate() {
            println!("  {:>3}. {}", i + 1, machine.moves(role)[m as usize]);
        }
        loop {
            print!("{} to move (number or move, `quit` to stop): ", machine.roles()[role]);
            let _ = io::stdout().flush();
            let Some(Ok(line)) = self.lines.next() else {
                println!();
                return None;
            };
            let line = line.trim();
            if line.eq_ignore_ascii_case("quit") {
                return None;
            }
            if let Ok(k) = line.parse::<usize>()
                && (1..=legal.len()).contains(&k)
            {
                return Some(legal[k - 1]);
            }
            if let Ok(term) = line.parse::<Term>()
                && let Some(m) = machine.move_index(role, &term)
                && legal.contains(&m)
            {
                return Some(m);
            }
            println!("not a legal move: type a number from 1 to {} or a move as listed", legal.len());
        }
    }
}

fn run_play(args: &PlayArgs) -> Result<()> {
    let game = read_game(&args.file)?;
    let machine = compile(&game, &args.file)?;
    let roles = machine.roles().len();
    let kinds: Vec<String> = match &args.players[..] {
        [] => vec!["best".into(); roles],
        [one] => vec![one.clone(); roles],
        many => many.to_vec(),
    };
    if kinds.len() != roles {
        return Err(UsageError(format!("the game has {roles} roles but --players names {}", kinds.len())).into());
    }
    if !(args.play_clock > 0.0 && args.play_clock < 1e6) {
        return Err(UsageError("--play-clock must be a positive number of seconds".into()).into());
    }
    let mut contestants: Vec<Box<dyn Contestant>> = Vec::with_capacity(roles);
    for (r, kind) in kinds.iter().enumerate() {
        if kind.eq_ignore_ascii_case("human") {
            contestants.push(Box::new(Human { lines: io::stdin().lock().lines() }));
            continue;
        }
        let strategy: Strategy = kind.parse().map_err(UsageError)?;
        let mut thinker = Thinker::new(&machine, r, strategy, args.seed.wrapping_add(r as u64));
        // The players take turns here: searching on another's turn would
        // only make the match longer.
        thinker.set_pondering(false);
        contestants.push(Box::new(Builtin { name: kind.to_ascii_lowercase(), thinker }));
    }
    let clock = Duration::from_secs_f64(args.play_clock);
    let mut step = 0;
    let record = play_match(&machine, &mut contestants, clock, &mut |s, _| {
        step += 1;
        let moves: Vec<String> = s.moves.iter().map(ToString::to_string).collect();
        println!("{step:>4}. {}", moves.join(" "));
    });
    print!("{}", record.summary());
    Ok(())
}

/// How `bouton ggp referee` runs its match, from its options.
fn referee_config(args: &RefereeArgs) -> RefereeConfig {
    RefereeConfig {
        match_id: args.match_id.clone(),
        start_clock: Duration::from_secs(args.start_clock),
        play_clock: Duration::from_secs(args.play_clock),
        seed: args.seed,
        max_steps: usize::try_from(args.max_steps).unwrap_or(usize::MAX),
        ..RefereeConfig::default()
    }
}

fn run_referee(args: &RefereeArgs) -> Result<()> {
    let game = read_game(&args.file)?;
    let config = referee_config(args);
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let mut step = 0;
    let record = runtime
        .block_on(run_match(&game, &args.players, &config, &mut |s| {
            step += 1;
            let moves: Vec<String> = s
                .moves
                .iter()
                .zip(&s.replaced)
                .map(|(m, why)| match why {
                    Some(why) => format!("{m} [replaced: {why}]"),
                    None => m.to_string(),
                })
                .collect();
            println!("{step:>4}. {}", moves.join(" "));
        }))
        .map_err(|e| match e {
            bouton_ggp::referee::RefereeError::PlayerCount { .. } => anyhow::Error::new(UsageError(e.to_string())),
            other => anyhow::Error::new(other),
        })?;
    print!("{}", record.summary());
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::{Cli, Command};

    /// The options of `bouton ggp referee game.kif --player 127.0.0.1:9147
    /// EXTRA…`, or the parser's error.
    fn referee_args(extra: &[&str]) -> Result<RefereeArgs, clap::Error> {
        let line = ["bouton", "ggp", "referee", "game.kif", "--player", "127.0.0.1:9147"].iter().chain(extra);
        match Cli::try_parse_from(line)?.command {
            Some(Command::Ggp(GgpArgs { command: GgpCommand::Referee(args) })) => Ok(args),
            other => panic!("not the referee: {other:?}"),
        }
    }

    #[test]
    fn max_steps_reaches_the_referee_and_defaults_to_its_own() {
        let args = referee_args(&["--max-steps", "25"]).expect("a valid command line");
        assert_eq!(referee_config(&args).max_steps, 25);
        let args = referee_args(&[]).expect("a valid command line");
        assert_eq!(referee_config(&args).max_steps, RefereeConfig::default().max_steps);
        assert_eq!(referee_config(&args).play_clock, Duration::from_secs(5));
        for wrong in ["0", "-3", "many"] {
            let error = referee_args(&["--max-steps", wrong]).expect_err(wrong);
            assert!(error.to_string().contains("--max-steps"), "{wrong}: {error}");
        }
    }
}
