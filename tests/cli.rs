//! The command line's conventions, across commands: mistyped commands, one
//! wording for a bad number, help with examples within 80 columns,
//! completion scripts and the manual page, errors as JSON under `--json`,
//! the documented exit codes, and the progress bar's rate.

use std::process::Command;

use clap::CommandFactory;
use rexpect::process::WaitStatus;
use rexpect::reader::Options;
use rexpect::session::spawn_with_options;
use serde_json::Value;

use crate::util::{BIN, Output, bouton, widest_line};

/// The subcommands, as `bouton --help` lists them (without `help`).
const COMMANDS: [&str; 8] = ["play", "analyze", "simulate", "serve", "ggp", "grundy", "completions", "man"];

#[test]
fn a_mistyped_command_gets_did_you_mean() {
    let line = bouton(&["anlyze", "3"]).run().assert_one_line_error(2, &["\"anlyze\"", "did you mean `analyze`?"]);
    assert!(!line.contains("invalid digit"), "{line}");
    bouton(&["simulte", "--games", "3"]).run().assert_one_line_error(2, &["did you mean `simulate`?"]);
    bouton(&["grundi", "kayles"]).run().assert_one_line_error(2, &["did you mean `grundy`?"]);
    // Nothing near: neither a command nor a heap, and what is allowed.
    bouton(&["xyzzy"]).run().assert_one_line_error(2, &["\"xyzzy\"", "neither a command", "analyze", "heap size"]);
    // A command word later on is a heap, and reads as one.
    let line = bouton(&["play", "play"]).run().assert_one_line_error(2, &["heap size \"play\""]);
    assert!(!line.contains("did you mean"), "{line}");
    // Nested commands keep clap's suggestion, on one line too.
    bouton(&["ggp", "chek"]).run().assert_one_line_error(2, &["'chek'", "'check'", "bouton ggp --help"]);
}

#[test]
fn a_bad_number_reads_the_same_in_every_command() {
    let heap = "bouton: heap size \"x\" is not a whole number from 0 to 18446744073709551615";
    for args in [&["play", "3", "x"][..], &["3", "x"], &["simulate", "x"], &["analyze", "3", "x"]] {
        let out = bouton(args).run();
        out.assert_one_line_error(2, &[]);
        assert_eq!(out.stderr.trim_end(), heap, "{args:?}\n{out}");
    }
    let out = bouton(&["analyze", "-"]).stdin("3 x").run();
    assert_eq!(out.stderr.trim_end(), format!("bouton: standard input: {}", &heap["bouton: ".len()..]), "{out}");
    // Options say the same of their numbers, with their range.
    for (args, expected) in [
        (&["play", "--seed", "x"][..], "bouton: --seed: \"x\" is not a whole number from 0 to 18446744073709551615"),
        (&["simulate", "--games", "0"], "bouton: --games: \"0\" is not a whole number from 1 to 18446744073709551615"),
        (
            &["grundy", "kayles", "--upto", "-3"],
            "bouton: --upto: \"-3\" is not a whole number from 0 to 18446744073709551615",
        ),
        (
            &["grundy", "kayles", "--max-period", "0"],
            "bouton: --max-period: \"0\" is not a whole number from 1 to 1099511627776",
        ),
        (&["ggp", "serve", "--port", "70000"], "bouton: --port: \"70000\" is not a whole number from 0 to 65535"),
        (
            &["analyze", "--rules", "kayles", "3", "x"],
            "bouton: \"x\" is not a whole number from 0 to 18446744073709551615",
        ),
    ] {
        let out = bouton(args).run();
        out.assert_one_line_error(2, &[]);
        assert_eq!(out.stderr.trim_end(), expected, "{args:?}\n{out}");
    }
}

#[test]
fn other_command_line_mistakes_are_one_line_naming_the_help() {
    bouton(&["analyze"]).run().assert_one_line_error(2, &["<HEAPS>", "`bouton analyze --help`"]);
    bouton(&["analyze", "--bogus", "3"]).run().assert_one_line_error(2, &["'--bogus'", "`bouton analyze --help`"]);
    bouton(&["play", "--mode", "sideways"]).run().assert_one_line_error(2, &["sideways", "human-computer"]);
}

#[test]
fn exit_codes_are_documented_with_ctrl_c() {
    let out = bouton(&["--help"]).run();
    out.assert_clean_success();
    let help = out.stdout.replace('\n', " ");
    for code in ["0 success", "1 runtime failure", "2 invalid command line", "130 interrupted by Ctrl-C"] {
        assert!(help.contains(code), "--help lists exit code {code:?}\n{out}");
    }
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("the README");
    let readme = readme.replace('\n', " ");
    let codes = readme.split("**Exit codes:**").nth(1).expect("the README lists the exit codes");
    let codes = &codes[..codes.find("**").unwrap_or(codes.len())];
    for code in ["0 success", "1 a failure", "2 an invalid command line", "130 interrupted by Ctrl-C"] {
        assert!(codes.contains(code), "the README lists exit code {code:?}: {codes}");
    }
}

/// Every command path: `[]`, `["play"]`, …, `["ggp", "play"]`, …
fn command_paths() -> Vec<Vec<String>> {
    fn walk(command: &clap::Command, path: Vec<String>, paths: &mut Vec<Vec<String>>) {
        paths.push(path.clone());
        for sub in command.get_subcommands() {
            let mut deeper = path.clone();
            deeper.push(sub.get_name().to_owned());
            walk(sub, deeper, paths);
        }
    }
    let mut paths = Vec::new();
    walk(&bouton::cli::Cli::command(), Vec::new(), &mut paths);
    paths
}

#[test]
fn every_help_has_examples_and_fits_80_columns() {
    let paths = command_paths();
    assert!(paths.len() > COMMANDS.len(), "the nested ggp commands are walked too: {paths:?}");
    for path in paths {
        for flag in ["--help", "-h"] {
            let mut args = path.clone();
            args.push(flag.to_owned());
            // A terminal of 80 columns, and a pipe with no width at all.
            for columns in [Some("80"), None] {
                let run = bouton(&args);
                let out = match columns {
                    Some(width) => run.env("COLUMNS", width).run(),
                    None => run.env_remove("COLUMNS").run(),
                };
                out.assert_clean_success();
                let (width, line) = widest_line(&out.stdout);
                assert!(
                    width <= 80,
                    "`bouton {}` (COLUMNS {columns:?}) has a line of {width}: {line:?}",
                    args.join(" ")
                );
                assert!(
                    out.stdout.contains("\nExamples:\n  bouton "),
                    "`bouton {}` shows examples\n{out}",
                    args.join(" ")
                );
            }
        }
    }
}

#[test]
fn completion_scripts_for_every_shell_name_the_commands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = bouton(&["completions", shell]).run();
        out.assert_clean_success();
        assert!(out.stdout.len() > 1000, "{shell}: a real script\n{out}");
        assert!(out.stdout.contains("bouton"), "{shell}\n{out}");
        for command in COMMANDS {
            assert!(out.stdout.contains(command), "{shell}'s script names {command}");
        }
        // Options of the subcommands are completed too.
        assert!(out.stdout.contains("until-proved") && out.stdout.contains("misere"), "{shell}");
    }
    bouton(&["completions", "tcsh"]).run().assert_one_line_error(2, &["tcsh", "bash", "powershell"]);
}

#[test]
fn the_man_page_is_roff_naming_every_command() {
    let out = bouton(&["man"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("\n.TH bouton 1 "), "{out}");
    assert!(out.stdout.contains(".SH SYNOPSIS") && out.stdout.contains(".SH OPTIONS"), "{out}");
    for command in COMMANDS {
        assert!(out.stdout.contains(&format!("bouton\\-{command}(1)")), "the page lists {command}\n{out}");
    }
    // Each command's own page, and the ones inside ggp.
    let out = bouton(&["man", "grundy"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("\n.TH bouton-grundy 1 ") && out.stdout.contains("until\\-proved"), "{out}");
    let out = bouton(&["man", "ggp", "referee"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("\n.TH bouton-ggp-referee 1 "), "{out}");
    bouton(&["man", "ggp", "dance"]).run().assert_one_line_error(2, &["\"dance\"", "referee"]);
}

/// Checks that a failed run printed nothing on standard output and exactly
/// one JSON line `{"error": "…"}` on standard error, and returns the message.
#[track_caller]
fn json_error(out: &Output, code: i32) -> String {
    out.assert_code(code);
    assert_eq!(out.stdout, "", "nothing on standard output\n{out}");
    assert_eq!(out.stderr.lines().count(), 1, "one line on standard error\n{out}");
    let value: Value = serde_json::from_str(&out.stderr).unwrap_or_else(|e| panic!("not JSON ({e})\n{out}"));
    let object = value.as_object().expect("an object");
    assert_eq!(object.keys().collect::<Vec<_>>(), ["error"], "only the error\n{out}");
    let message = object["error"].as_str().expect("a string").to_owned();
    assert!(!message.is_empty() && !message.starts_with("bouton:"), "{out}");
    message
}

#[test]
fn json_errors_are_one_json_line() {
    let message = json_error(&bouton(&["analyze", "--json", "x"]).run(), 2);
    assert!(message.contains("heap size \"x\""), "{message}");
    json_error(&bouton(&["analyze", "--json", "-"]).stdin("").run(), 2);
    let message = json_error(&bouton(&["analyze", "--json", "--bogus", "3"]).run(), 2);
    assert!(message.contains("--bogus"), "{message}");
    let message = json_error(&bouton(&["grundy", "nonsense", "--json"]).run(), 2);
    assert!(message.contains("unknown rule set \"nonsense\""), "{message}");
    let message = json_error(&bouton(&["grundy", "kayles", "--json", "--upto", "many"]).run(), 2);
    assert!(message.contains("--upto: \"many\""), "{message}");
    json_error(&bouton(&["simulate", "--json", "x"]).run(), 2);
    let message = json_error(&bouton(&["simulate", "--json", "--rules", "chess"]).run(), 2);
    assert!(message.contains("chess"), "{message}");
    // Failures while running (exit 1) too.
    let message = json_error(&bouton(&["grundy", "kayles", "--json", "--plot", "/no/such/dir/k.svg"]).run(), 1);
    assert!(message.contains("/no/such/dir/k.svg"), "{message}");
    // Without --json, the same mistakes are prose.
    bouton(&["analyze", "x"]).run().assert_one_line_error(2, &["heap size \"x\""]);
    // After `--`, `--json` is a heap, not the flag.
    let out = bouton(&["analyze", "--", "--json"]).run();
    out.assert_one_line_error(2, &["\"--json\""]);
}

#[test]
fn the_progress_rate_is_rounded_and_ctrl_c_exits_130() {
    let mut command = Command::new(BIN);
    command.args(["grundy", "grundy", "--upto", "1000000000000", "--summary"]).env("TERM", "xterm-256color");
    for key in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "CI"] {
        command.env_remove(key);
    }
    let options = Options::new().timeout_ms(Some(20_000)).strip_ansi_escape_codes(true);
    let mut session = spawn_with_options(command, options).expect("bouton starts in a pseudo-terminal");
    let (_, found) = session.exp_regex(r"values, [^ ]+/s, about").expect("the progress bar with its rate");
    let rate = found.trim_start_matches("values, ").trim_end_matches("/s, about");
    // "200.6k/s", "37/s": digits, at most one decimal, a unit.
    let number = rate.trim_end_matches(['k', 'M', 'G']);
    assert!(rate.len() - number.len() <= 1, "one unit at most: {found:?}");
    let decimals = number.split_once('.').map_or(0, |(_, d)| d.len());
    assert!(
        !number.is_empty() && number.chars().all(|c| c.is_ascii_digit() || c == '.') && decimals <= 1,
        "a rounded rate: {found:?}"
    );
    session.send_control('c').expect("Ctrl-C");
    session.exp_string("bouton: interrupted after ").expect("the interruption is reported");
    match session.process().wait().expect("bouton ends") {
        WaitStatus::Exited(_, code) => assert_eq!(code, 130, "Ctrl-C exits 130"),
        other => panic!("bouton did not exit normally: {other:?}"),
    }
}
