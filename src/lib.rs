//! The `bouton` command-line program as a library: the terminal game,
//! `analyze` and `simulate`, over the `bouton-rules`, `bouton-analysis` and
//! `bouton-players` crates, which it re-exports.
//!
//! The binary's `main` only calls [`run`].

mod analyze;
mod analyze_rules;
pub mod cli;
mod ggp;
mod grundy;
mod heaps_input;
mod misere;
mod play;
mod plot;
mod serve;
mod simulate;
mod start;
mod survey;
mod table;
mod theme;
mod wording;

use std::ffi::OsString;
use std::process::ExitCode;

pub use bouton_analysis as analysis;
pub use bouton_games as games;
pub use bouton_grundy as sprague_grundy;
pub use bouton_players as players;
pub use bouton_rules as rules;
use clap::Parser;

pub use play::MAX_INTERACTIVE_HEAPS;
pub use play::save::LoadError;

/// Reads the contents of a save file as `bouton play --load` does — the
/// format and version, the rule set, the start, every move replayed and
/// checked, the seats — and returns the game written back as `save FILE`
/// would write it now. Errors name the file `name`.
///
/// ```
/// let text = br#"{"format": "bouton-save", "version": 1, "convention": "normal", "start": [3, 5, 7],
///                 "moves": ["3 1"], "seats": [{"human": "You"}, {"computer": "hard"}]}"#;
/// let saved = bouton::reload_save("game.json", text)?;
/// assert!(saved.contains(r#""3:1""#), "moves are written in their usual form");
/// assert_eq!(bouton::reload_save("game.json", saved.as_bytes())?, saved);
/// assert_eq!(
///     bouton::reload_save("game.json", br#"{"format": "bouton-save", "version": 3}"#).unwrap_err().to_string(),
///     "game.json is not a valid bouton save file: version 3 is not supported (this bouton reads versions 1 to 2)"
/// );
/// # Ok::<(), bouton::LoadError>(())
/// ```
///
/// # Errors
/// [`LoadError::Invalid`] saying what is wrong with the contents.
pub fn reload_save(name: &str, bytes: &[u8]) -> Result<String, LoadError> {
    play::reload(name, bytes)
}

/// A mistake in what the user asked for (exit code 2), as opposed to a
/// failure while doing it (exit code 1).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Parses the command line, runs the command, and maps the result to the
/// documented exit code: 0 success, 1 failure, 2 invalid command line, 130
/// interrupted. Errors are one line on standard error: `bouton: …`, or with
/// `--json` one JSON object, `{"error":"…"}`.
pub fn run() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let cli = match cli::Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => return fail(&cli::usage_message(&e, &args), 2, cli::asks_for_json(&args)),
    };
    let result = match &cli.command {
        None => play::run(&cli.play),
        Some(cli::Command::Play(args)) => play::run(args),
        Some(cli::Command::Analyze(args)) => analyze::run(args),
        Some(cli::Command::Simulate(args)) => simulate::run(args),
        Some(cli::Command::Serve(args)) => serve::run(args),
        Some(cli::Command::Ggp(args)) => ggp::run(args),
        Some(cli::Command::Grundy(args)) => grundy::run(args),
        Some(cli::Command::Misere(args)) => misere::run(args),
        Some(cli::Command::Completions(args)) => cli::print_completions(args.shell),
        Some(cli::Command::Man(args)) => cli::print_man_page(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let code = if e.downcast_ref::<grundy::Interrupted>().is_some() {
                130
            } else if e.downcast_ref::<UsageError>().is_some() {
                2
            } else {
                1
            };
            fail(&e.to_string(), code, cli.json())
        }
    }
}

/// Reports `message` on standard error, as JSON when `json`, and returns
/// the exit code.
fn fail(message: &str, code: u8, json: bool) -> ExitCode {
    if json {
        eprintln!("{}", serde_json::json!({ "error": message }));
    } else {
        eprintln!("bouton: {message}");
    }
    ExitCode::from(code)
}

/// The README's examples, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}
