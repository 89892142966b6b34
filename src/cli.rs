//! The command line, defined once with clap: help text comes from here.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use bouton_players::Level;
use bouton_web::ServerConfig;
use bouton_web::config::parse_duration;
use bouton_web::rate_limit::RateLimits;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::UsageError;
use crate::wording::{BadNumber, any_number, heap_size, positive_number};

/// `bouton --help`'s examples and exit codes.
const EXAMPLES: &str = "Examples:
  bouton                         play Nim from 3 5 7 against the computer
  bouton 1 4 6 --misere          play misère Nim from 1 4 6
  bouton analyze 3 5 7           who wins, every winning move, the binary table
  bouton simulate --games 500    computer against computer, 500 games
  bouton serve                   the browser game at http://127.0.0.1:8080/
  bouton grundy kayles --plot kayles.svg
  bouton completions bash        a completion script (also zsh, fish, ...)
  bouton man > bouton.1          the manual page

Exit codes: 0 success (including quitting a game or end of input), 1 runtime
failure (I/O, unreadable save file, plot file that cannot be written), 2
invalid command line, 130 interrupted by Ctrl-C (a game, a long `grundy` run).";

/// `bouton play --help`'s examples.
const PLAY_EXAMPLES: &str = "Examples:
  bouton play                          3 5 7 against the computer
  bouton play 1 2 3 --first computer   the computer moves first
  bouton play --random 5 --level medium
  bouton play --mode human-human --misere
  bouton play --rules kayles 5 8       Kayles instead of Nim
  bouton play --load game.json         resume a game saved with `save FILE`";

/// `bouton analyze --help`'s examples.
const ANALYZE_EXAMPLES: &str = "Examples:
  bouton analyze 3 5 7                 nim-sum, winner, winning moves, table
  bouton analyze --misere 1 1 1
  bouton analyze --json 11 12 15 25    one line of JSON for scripts
  seq 1 1000000 | bouton analyze -     heaps from standard input
  bouton analyze --rules kayles 7 11   any other rule set";

/// `bouton simulate --help`'s examples.
const SIMULATE_EXAMPLES: &str = "Examples:
  bouton simulate                      1000 games, perfect against perfect
  bouton simulate --second random --random 5 --seed 1
  bouton simulate --rules wythoff --games 200 --json 3 5";

/// `bouton serve --help`'s examples.
const SERVE_EXAMPLES: &str = "Examples:
  bouton serve                         then open http://127.0.0.1:8080/
  bouton serve --addr 0.0.0.0:8080 --db games.sqlite3
  bouton serve --rate-limit off --idle-timeout 1min";

/// `bouton ggp --help`'s examples.
const GGP_EXAMPLES: &str = "Examples:
  bouton ggp check nim1.kif            roles, first moves, the solved outcome
  bouton ggp play nim1.kif --players best,human
  bouton ggp serve --port 9147         a GGP player for a game manager
  bouton ggp referee nim1.kif --player 127.0.0.1:9147 --player 127.0.0.1:9148";

/// `bouton grundy --help`'s examples.
const GRUNDY_EXAMPLES: &str = "Examples:
  bouton grundy kayles                 G(0) to G(100), the period, the table
  bouton grundy 0.07 --upto 2000 --summary
  bouton grundy 4!.0 --upto 100000 --json > grundy.json
  bouton grundy kayles --upto 500 --plot kayles.png
  bouton grundy 0.1777 --until-proved --checkpoint 0.1777.ckpt
  bouton grundy --survey 0.1..0.777 --upto 1000000";

/// `bouton misere --help`'s examples.
const MISERE_EXAMPLES: &str = "Examples:
  bouton misere kayles                 Kayles' quotient and pretending function
  bouton misere 0.75 --json            the same as JSON
  bouton misere 0.3... --upto 6        misère Nim with heaps up to 6";

/// `bouton completions --help`'s examples.
const COMPLETIONS_EXAMPLES: &str = "Examples:
  bouton completions bash > ~/.local/share/bash-completion/completions/bouton
  bouton completions zsh > ~/.zfunc/_bouton   (with fpath+=~/.zfunc)
  bouton completions fish > ~/.config/fish/completions/bouton.fish
  bouton completions powershell >> $PROFILE";

/// `bouton man --help`'s examples.
const MAN_EXAMPLES: &str = "Examples:
  bouton man > bouton.1 && man ./bouton.1
  bouton man | gzip > ~/.local/share/man/man1/bouton.1.gz
  bouton man ggp play > bouton-ggp-play.1";

/// Nim, solved: play it, analyse it, simulate it.
///
/// With no command, `bouton` starts a game against the computer (the same as
/// `bouton play`).
#[derive(Debug, Parser)]
#[command(name = "bouton", version, args_conflicts_with_subcommands = true)]
// Help is wrapped to the terminal, and to 80 columns at most (through a pipe
// too).
#[command(max_term_width = 80, after_help = EXAMPLES)]
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
    #[command(after_help = PLAY_EXAMPLES)]
    Play(PlayArgs),
    /// Analyse a position: nim-sum, winner, every winning move, the binary table.
    #[command(after_help = ANALYZE_EXAMPLES)]
    Analyze(AnalyzeArgs),
    /// Play many computer-vs-computer games and report the results.
    #[command(after_help = SIMULATE_EXAMPLES)]
    Simulate(SimulateArgs),
    /// Serve the browser game and its JSON API.
    #[command(after_help = SERVE_EXAMPLES)]
    Serve(ServeArgs),
    /// General Game Playing: read GDL rules, play over the GGP protocol.
    #[command(after_help = GGP_EXAMPLES)]
    Ggp(crate::ggp::GgpArgs),
    /// The Grundy sequence of a heap game: periodicity, checksum, rare values, plot.
    #[command(after_help = GRUNDY_EXAMPLES)]
    Grundy(crate::grundy::GrundyArgs),
    /// The misère quotient of a heap game: order, presentation, P-portion, pretending function.
    #[command(after_help = MISERE_EXAMPLES)]
    Misere(crate::misere::MisereArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),
    /// Print the manual page, in roff (for `man`).
    #[command(after_help = MAN_EXAMPLES)]
    Man(ManArgs),
}

/// Options of `bouton man`.
#[derive(Debug, Clone, Args)]
pub struct ManArgs {
    /// The command whose page to print (`analyze`, `ggp play`, …; its
    /// page is bouton-analyze(1)); default: bouton(1), which lists them.
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Options of `bouton completions`.
#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

impl Cli {
    /// Whether the command asks for JSON (`--json`), so that its errors are
    /// JSON too.
    pub fn json(&self) -> bool {
        match &self.command {
            Some(Command::Analyze(args)) => args.json,
            Some(Command::Simulate(args)) => args.json,
            Some(Command::Grundy(args)) => args.json,
            Some(Command::Misere(args)) => args.json,
            _ => false,
        }
    }
}

/// Options of `bouton serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: std::net::SocketAddr,
    /// The database: an SQLite file, created if missing, or `postgres://USER[:PASSWORD]@HOST[:PORT]/DB` (several
    /// instances may share one). Default: $DATABASE_URL, else $XDG_DATA_HOME/bouton/bouton.sqlite3
    /// (~/.local/share/bouton/bouton.sqlite3).
    #[arg(long, value_name = "PATH|URL")]
    pub db: Option<PathBuf>,
    /// The log's format on standard error: `text` for people, `json` (one object a line) for log collectors.
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = ["text", "json"])]
    pub log_format: String,
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
    #[arg(value_name = "HEAPS", conflicts_with = "random", allow_negative_numbers = true, value_parser = heap_size)]
    pub heaps: Vec<u64>,
    /// Start from N random heaps instead (reproducible with --seed).
    #[arg(long, value_name = "N", value_parser = positive_number, allow_negative_numbers = true)]
    pub random: Option<u64>,
    /// Largest size of a random heap.
    #[arg(long, value_name = "SIZE", default_value_t = 15, requires = "random", value_parser = positive_number, allow_negative_numbers = true)]
    pub max: u64,
    /// Misère play: whoever takes the last token loses.
    #[arg(long)]
    pub misere: bool,
    /// Seed for every random choice (computer moves, random heaps, who starts).
    #[arg(long, value_name = "N", value_parser = any_number, allow_negative_numbers = true)]
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
    /// The computer's level: random, beginner, easy, medium, hard, perfect
    /// (default hard; with --load, it replaces the saved level).
    #[arg(long)]
    pub level: Option<Level>,
    /// In computer-computer mode, the second computer's level (default: --level).
    #[arg(long, value_name = "LEVEL")]
    pub second_level: Option<Level>,
    /// No colour and no box drawing: for screen readers and pipes. NO_COLOR
    /// turns colour off too.
    #[arg(long)]
    pub plain: bool,
    /// The computer's pause before each move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 700, value_parser = any_number, allow_negative_numbers = true)]
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

impl PlayArgs {
    /// The computer's level: `--level`, else hard.
    pub fn level(&self) -> Level {
        self.level.unwrap_or(Level::Hard)
    }

    /// The second computer's level in computer-computer mode.
    pub fn second_level(&self) -> Level {
        self.second_level.unwrap_or_else(|| self.level())
    }
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
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = positive_number, allow_negative_numbers = true)]
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

/// Whether the command line asks for JSON, read from the words themselves
/// (for a command line that could not be parsed): `--json` before any `--`.
pub(crate) fn asks_for_json(args: &[OsString]) -> bool {
    args.iter().skip(1).take_while(|a| *a != "--").any(|a| a == "--json")
}

/// The one-line message for a command line that clap rejected: what was
/// wrong and where to read what is allowed. A bad number reads as everywhere
/// else (`--seed: "x" is not a whole number from 0 to …`), and a first word
/// that is neither a command nor a heap size, as an unknown command, with
/// clap's suggestion of the nearest one.
pub(crate) fn usage_message(e: &clap::Error, args: &[OsString]) -> String {
    // The first word is a command or the default game's heap: if it is
    // neither, that is the mistake, whatever clap tripped over first.
    if let Some(first) = args.get(1).and_then(|a| a.to_str()) {
        let mut commands = Cli::command();
        commands.build();
        if !first.starts_with('-') && heap_size(first).is_err() && commands.find_subcommand(first).is_none() {
            return unknown_command(first);
        }
    }
    let context = |kind| match e.get(kind) {
        Some(ContextValue::String(text)) => Some(text.as_str()),
        _ => None,
    };
    let bad_number = std::error::Error::source(e).and_then(|source| source.downcast_ref::<BadNumber>());
    if let (ErrorKind::ValueValidation, Some(bad), Some(arg)) = (e.kind(), bad_number, context(ContextKind::InvalidArg))
    {
        if arg.starts_with("--") {
            let option = arg.split_whitespace().next().unwrap_or(arg);
            return format!("{option}: {bad}");
        }
        return bad.to_string();
    }
    condensed(e, args)
}

/// The command the words name, as far as they name one: `bouton ggp play`.
fn command_path(args: &[OsString]) -> String {
    let mut command = Cli::command();
    let mut path = vec!["bouton".to_owned()];
    for word in args.iter().skip(1).filter_map(|a| a.to_str()) {
        let Some(sub) = command.find_subcommand(word).cloned() else { continue };
        path.push(sub.get_name().to_owned());
        command = sub;
    }
    path.join(" ")
}

/// `bouton WORD …` where WORD is neither a command nor a heap size.
fn unknown_command(word: &str) -> String {
    let commands = Cli::command();
    let names: Vec<&str> = commands.get_subcommands().map(clap::Command::get_name).collect();
    // clap's own suggestion, from a command that has the same subcommands
    // but no heaps to take the word instead.
    let only_commands = clap::Command::new("bouton").subcommands(commands.get_subcommands().cloned());
    let suggestion = match only_commands.try_get_matches_from(["bouton", word]) {
        Err(e) if e.kind() == ErrorKind::InvalidSubcommand => match e.get(ContextKind::SuggestedSubcommand) {
            Some(ContextValue::Strings(names)) => names.first().cloned(),
            Some(ContextValue::String(name)) => Some(name.clone()),
            _ => None,
        },
        _ => None,
    };
    match suggestion {
        Some(name) => format!("unknown command {word:?}: did you mean `{name}`? (commands: {})", names.join(", ")),
        None => format!(
            "{word:?} is neither a command ({}) nor a heap size (a whole number from 0 to {})",
            names.join(", "),
            u64::MAX
        ),
    }
}

/// clap's message on one line: the error, its details and tips (not the
/// usage), and the command whose `--help` lists what is allowed.
fn condensed(e: &clap::Error, args: &[OsString]) -> String {
    let text = e.render().to_string();
    let mut lines = text.lines();
    let mut message = lines.next().unwrap_or_default().trim().trim_start_matches("error: ").to_owned();
    for line in lines.map(str::trim).filter(|line| !line.is_empty()) {
        if line.starts_with("Usage: ") || line.starts_with("For more information") {
            break;
        }
        message.push_str(if message.ends_with(':') { " " } else { "; " });
        message.push_str(line);
    }
    format!("{message} (`{} --help` lists what is allowed)", command_path(args))
}

/// `bouton completions SHELL`: the completion script, from the clap
/// definitions.
pub(crate) fn print_completions(shell: clap_complete::Shell) -> anyhow::Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "bouton", &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(())
}

/// `bouton man [COMMAND…]`: the manual page in roff, from the clap
/// definitions.
pub(crate) fn print_man_page(args: &ManArgs) -> anyhow::Result<()> {
    let mut command = Cli::command();
    // Built, every subcommand has its page's name: bouton-ggp-play.
    command.build();
    for name in &args.command {
        let names: Vec<&str> = command.get_subcommands().map(clap::Command::get_name).collect();
        let Some(sub) = command.find_subcommand(name).cloned() else {
            let at = command.get_display_name().unwrap_or("bouton").replace('-', " ");
            let message = format!("`{at}` has no command {name:?}: choose {}", names.join(", "));
            return Err(UsageError(message).into());
        };
        command = sub;
    }
    let mut page = Vec::new();
    let source = concat!("bouton ", env!("CARGO_PKG_VERSION"));
    clap_mangen::Man::new(command).source(source).manual("bouton manual").render(&mut page)?;
    let mut out = std::io::stdout().lock();
    out.write_all(&page)?;
    out.flush()?;
    Ok(())
}
