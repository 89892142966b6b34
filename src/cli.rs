//! The command line, defined once with clap: help text comes from here.

use std::path::PathBuf;

use bouton_players::Level;
use bouton_web::ServerConfig;
use bouton_web::config::parse_duration;
use bouton_web::rate_limit::RateLimits;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::UsageError;

/// Nim, solved: play it, analyse it, simulate it.
///
/// With no command, `bouton` starts a game against the computer (the same as
/// `bouton play`).
#[derive(Debug, Parser)]
#[command(name = "bouton", version, args_conflicts_with_subcommands = true)]
#[command(after_help = "Exit codes: 0 success (including quitting a game or end of input), \
1 runtime failure (I/O, unreadable save file), 2 invalid command line.")]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options for the default `play` command.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play Nim in the terminal (the default).
    Play(PlayArgs),
    /// Analyse a position: nim-sum, winner, every winning move, the binary table.
    Analyze(AnalyzeArgs),
    /// Play many computer-vs-computer games and report the results.
    Simulate(SimulateArgs),
    /// Serve the browser game and its JSON API.
    Serve(ServeArgs),
    /// General Game Playing: read GDL rules, play over the GGP protocol.
    Ggp(crate::ggp::GgpArgs),
    /// The Grundy sequence of a heap game: periodicity, checksum, rare values, plot.
    Grundy(crate::grundy::GrundyArgs),
}

/// Options of `bouton serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: std::net::SocketAddr,
    /// The SQLite database file, created if missing. Default:
    /// $XDG_DATA_HOME/bouton/bouton.sqlite3 (~/.local/share/bouton/bouton.sqlite3).
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Per-client limits: `games=N/UNIT,analyses=N/UNIT` (UNIT s, min or h; a kind left out keeps its default,
    /// KIND=off lifts one), or `off`. Games counts creating and joining games; analyses counts analyses, hints and
    /// reviews. Clients are peer addresses: behind a proxy, all are the proxy.
    #[arg(long, value_name = "SPEC", default_value_t = RateLimits::DEFAULT.to_string())]
    pub rate_limit: String,
    /// The most connections open at once; more wait until one closes. Default 8192; never more than the limit on
    /// open files (raised to its maximum at start) less 64.
    #[arg(long, value_name = "N")]
    pub max_connections: Option<String>,
    /// The most connections open at once from one client (an IPv4 address or an IPv6 /64; event streams count): a
    /// connection past it is answered 429 and closed at once. Default 64 (a browser opens at most 6 to one server);
    /// behind a reverse proxy every client is the proxy, so raise it to --max-connections.
    #[arg(long, value_name = "N")]
    pub max_connections_per_client: Option<String>,
    /// Close a connection that has sent no complete request head this long after opening or after its last answer
    /// (idle, or stalled mid request): e.g. 20s, 500ms, 1min [default: 20s]
    #[arg(long, value_name = "DURATION")]
    pub idle_timeout: Option<String>,
    /// Answer 408 and close the connection when a request body has not arrived in full this long after its head;
    /// also close a connection whose answer makes no progress this long (a client that never reads) [default: 10s]
    #[arg(long, value_name = "DURATION")]
    pub body_timeout: Option<String>,
}

impl ServeArgs {
    /// The server's configuration from these options, or what is wrong with
    /// one of them.
    pub fn config(&self) -> Result<ServerConfig, UsageError> {
        let wrong = |option: &'static str| move |e: String| UsageError(format!("--{option}: {e}"));
        let mut config =
            ServerConfig::default().with_rate_limits(self.rate_limit.parse().map_err(wrong("rate-limit"))?);
        if let Some(text) = &self.idle_timeout {
            config.idle_timeout = parse_duration(text).map_err(wrong("idle-timeout"))?;
        }
        if let Some(text) = &self.body_timeout {
            config.body_timeout = parse_duration(text).map_err(wrong("body-timeout"))?;
        }
        if let Some(text) = &self.max_connections {
            let max = text.trim().parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| {
                UsageError(format!("--max-connections: {text:?} is not a number of connections from 1 up"))
            })?;
            config.max_connections = Some(max);
        }
        if let Some(text) = &self.max_connections_per_client {
            let max = text.trim().parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| {
                UsageError(format!("--max-connections-per-client: {text:?} is not a number of connections from 1 up"))
            })?;
            config.max_connections_per_client = max;
        }
        Ok(config)
    }
}

/// Where the starting heaps come from.
#[derive(Debug, Clone, Args)]
pub struct StartArgs {
    /// Heap sizes, e.g. `3 5 7` (each 0 to 18446744073709551615). Default: 3 5 7.
    #[arg(value_name = "HEAPS", conflicts_with = "random", allow_negative_numbers = true)]
    pub heaps: Vec<u64>,
    /// Start from N random heaps instead (reproducible with --seed).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub random: Option<u64>,
    /// Largest size of a random heap.
    #[arg(long, value_name = "SIZE", default_value_t = 15, requires = "random",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max: u64,
    /// Misère play: whoever takes the last token loses.
    #[arg(long)]
    pub misere: bool,
    /// Seed for every random choice (computer moves, random heaps, who starts).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

/// Who plays, in the order they move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// You move first, the computer second.
    HumanComputer,
    /// The computer moves first, you second.
    ComputerHuman,
    /// Two people taking turns at one terminal.
    HumanHuman,
    /// Watch the computer play itself.
    ComputerComputer,
}

/// Who moves first against the computer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum First {
    /// You move first.
    #[value(alias = "you")]
    Human,
    /// The computer moves first.
    Computer,
    /// Toss a coin.
    Random,
}

/// Options of `bouton play`.
#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    /// The starting position.
    #[command(flatten)]
    pub start: StartArgs,
    /// Who plays, in move order. Default: you against the computer, asking who
    /// moves first.
    #[arg(long, value_enum, conflicts_with = "first")]
    pub mode: Option<Mode>,
    /// Who moves first against the computer (asked when not given).
    #[arg(long, value_enum)]
    pub first: Option<First>,
    /// The computer's level: random, beginner, easy, medium, hard, perfect.
    #[arg(long, default_value = "hard")]
    pub level: Level,
    /// In computer-computer mode, the second computer's level (default: --level).
    #[arg(long, value_name = "LEVEL")]
    pub second_level: Option<Level>,
    /// No colour and no box drawing: for screen readers and pipes. NO_COLOR
    /// turns colour off too.
    #[arg(long)]
    pub plain: bool,
    /// The computer's pause before each move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 700)]
    pub delay: u64,
    /// Resume a game saved with the `save FILE` command.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["heaps", "random", "misere", "mode", "first", "rules"])]
    pub load: Option<PathBuf>,
    /// The rule set (default nim): subtraction:2,3,7, all-but:1,2,
    /// take-limit:3, moore:2, wythoff, kayles, dawsons-kayles, octal:0.137
    /// (any code), grundy, lasker, staircase, northcott, fibonacci.
    #[arg(long, value_name = "RULESET")]
    pub rules: Option<String>,
}

/// Options of `bouton analyze`.
#[derive(Debug, Clone, Args)]
pub struct AnalyzeArgs {
    /// Heap sizes, or `-` to read them from standard input, separated by
    /// whitespace (millions are fine).
    #[arg(value_name = "HEAPS", required = true, num_args = 1.., allow_negative_numbers = true)]
    pub heaps: Vec<String>,
    /// Misère play: whoever takes the last token loses.
    #[arg(long)]
    pub misere: bool,
    /// Print JSON: {"heaps", "misere", "nim_sum", "winner", "winning_moves"}.
    #[arg(long)]
    pub json: bool,
    /// No colour.
    #[arg(long)]
    pub plain: bool,
    /// The rule set (default nim): subtraction:2,3,7, all-but:1,2,
    /// take-limit:3, moore:2, wythoff, kayles, dawsons-kayles, octal:0.137
    /// (any code), grundy, lasker, staircase, northcott, fibonacci. The
    /// numbers are then that game's position.
    #[arg(long, value_name = "RULESET")]
    pub rules: Option<String>,
    /// With --rules: the most seconds the analysis may take (it also stops
    /// after 1.5·10^7 steps per second allowed, or at 512 MiB); past it the
    /// answer is "not available within the limits" (exit 1).
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0, requires = "rules",
          value_parser = parse_seconds)]
    pub time_limit: f64,
}

/// A time limit in seconds: a positive number up to a day.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err(format!("{text:?} is not a number of seconds from 0 (exclusive) to 86400")),
    }
}

/// Options of `bouton simulate`.
#[derive(Debug, Clone, Args)]
pub struct SimulateArgs {
    /// The starting position of every game (default 3 5 7), or --random for a
    /// fresh random position each game.
    #[command(flatten)]
    pub start: StartArgs,
    /// How many games to play.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// The level of the player who moves first.
    #[arg(long, default_value = "perfect")]
    pub first: Level,
    /// The level of the player who moves second.
    #[arg(long, default_value = "perfect")]
    pub second: Level,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
    /// The rule set (default nim): subtraction:2,3,7, all-but:1,2,
    /// take-limit:3, moore:2, wythoff, kayles, dawsons-kayles, octal:0.137
    /// (any code), grundy, lasker, staircase, northcott, fibonacci. The
    /// numbers are then that game's position.
    #[arg(long, value_name = "RULESET")]
    pub rules: Option<String>,
}
