//! The game in a real pseudo-terminal, as a person sees it.

use std::process::Command;

use rexpect::process::WaitStatus;
use rexpect::reader::Options;
use rexpect::session::{PtySession, spawn_with_options};

use crate::util::BIN;

/// Every expectation gives up after this long.
const TIMEOUT_MS: u64 = 15_000;

/// Starts `bouton ARGS` in a pseudo-terminal that supports colour, with the
/// colour variables cleared and `envs` set. `strip` removes ANSI escapes from
/// what the test reads.
fn spawn(args: &[&str], envs: &[(&str, &str)], strip: bool) -> PtySession {
    let mut command = Command::new(BIN);
    command.args(args).env("TERM", "xterm-256color");
    for key in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "CI"] {
        command.env_remove(key);
    }
    for (key, value) in envs {
        command.env(key, value);
    }
    let options = Options::new().timeout_ms(Some(TIMEOUT_MS)).strip_ansi_escape_codes(strip);
    spawn_with_options(command, options).expect("bouton starts in a pseudo-terminal")
}

/// rexpect reads the terminal byte by byte and turns each byte into a `char`,
/// so non-ASCII text arrives as one `char` per UTF-8 byte. This spells `text`
/// the same way, for matching.
fn bytewise(text: &str) -> String {
    text.bytes().map(char::from).collect()
}

/// Turns what rexpect read back into the text the program wrote.
fn utf8(read: &str) -> String {
    let bytes: Vec<u8> = read.chars().map(|c| u8::try_from(u32::from(c)).expect("one byte per char")).collect();
    String::from_utf8(bytes).expect("the program writes UTF-8")
}

/// Waits for the process to end and returns its exit code.
fn exit_code(session: &PtySession) -> i32 {
    match session.process().wait().expect("waiting for bouton") {
        WaitStatus::Exited(_, code) => code,
        other => panic!("bouton did not exit normally: {other:?}"),
    }
}

#[test]
fn a_short_session_in_a_terminal() {
    let mut s = spawn(&["--delay", "0", "--seed", "1"], &[], true);
    s.exp_string("Who moves first? [1] you, [2] the computer, [r] random (default 1): ").expect("the question");
    s.send_line("1").expect("answer");
    s.exp_string("Moving first: you; second: the computer (hard).").expect("who plays");
    s.exp_string("Your move: ").expect("the move prompt");
    s.send_line("3 1").expect("a move");
    s.exp_string("You take 1 from heap 3.").expect("the move is confirmed");
    s.exp_string("I take ").expect("the computer replies");
    s.exp_string("Your move: ").expect("the prompt again");
    s.send_line("hint").expect("hint");
    s.exp_regex("You can win: take \\d+ from heap \\d+|Against perfect play you lose").expect("the hint");
    s.exp_string("Your move: ").expect("the prompt after the hint");
    s.send_line("quit").expect("quit");
    s.exp_string("You left the game.").expect("goodbye");
    s.exp_eof().expect("the program ends");
    assert_eq!(exit_code(&s), 0);
}

#[test]
fn no_arguments_shows_3_5_7_and_asks_who_moves_first() {
    let mut s = spawn(&[], &[], true);
    // The rules, broken between words to fit the terminal's 80 columns.
    s.exp_string("Nim, normal play: take one or more tokens from a single heap; whoever takes the\r\nlast token wins.")
        .expect("the rules");
    s.exp_string("Heaps: 3 5 7 (15 tokens in all).").expect("the start");
    s.exp_string("Who moves first?").expect("the question");
    s.send_line("1").expect("answer");
    s.exp_string("Moving first: you; second: the computer (hard).").expect("who plays");
    // The drawn board: three rows of tokens, then their counts.
    let token = bytewise("● ");
    for (heap, size) in [(1, 3), (2, 5), (3, 7)] {
        s.exp_regex(&format!("Heap {heap}\\s+({token}){{{size}}}\\s*{size}\\r\\n"))
            .unwrap_or_else(|e| panic!("heap {heap} holds {size}: {e}"));
    }
    s.exp_string("Your move: ").expect("the move prompt");
    // Ctrl-D at the prompt is end of input: a clean exit.
    s.send_control('d').expect("end of input");
    s.exp_string("End of input: leaving the game.").expect("goodbye");
    s.exp_eof().expect("the program ends");
    assert_eq!(exit_code(&s), 0);
}

/// Plays a few commands with raw output and returns everything printed.
fn raw_session(envs: &[(&str, &str)], plain: bool) -> String {
    let mut args = vec!["--delay", "0", "--seed", "1", "--first", "human"];
    if plain {
        args.push("--plain");
    }
    let mut s = spawn(&args, envs, false);
    let mut seen = s.exp_string("move: ").expect("the move prompt");
    s.send_line("explain").expect("explain");
    seen += &s.exp_string("move: ").expect("the prompt after explain");
    s.send_line("nonsense").expect("bad input");
    seen += &s.exp_string("move: ").expect("the prompt after a complaint");
    s.send_line("quit").expect("quit");
    seen += &s.exp_eof().expect("the program ends");
    assert_eq!(exit_code(&s), 0);
    utf8(&seen)
}

#[test]
fn colour_in_a_terminal_unless_no_color_or_plain() {
    let coloured = raw_session(&[], false);
    assert!(coloured.contains("\u{1b}["), "a colour terminal gets colour:\n{coloured}");
    let no_color = raw_session(&[("NO_COLOR", "1")], false);
    assert!(!no_color.contains('\u{1b}'), "NO_COLOR turns colour off:\n{no_color}");
    assert!(no_color.contains('●'), "NO_COLOR keeps the drawing:\n{no_color}");
    let plain = raw_session(&[], true);
    assert!(!plain.contains('\u{1b}'), "--plain has no colour:\n{plain}");
    assert!(!plain.contains('●') && !plain.contains('│'), "--plain has no drawing:\n{plain}");
    assert!(plain.contains("Heap 3: 7 tokens"), "{plain}");
}

/// Starts `bouton ARGS` in a pseudo-terminal `columns` wide (set with
/// `stty` before the program starts), ANSI escapes stripped.
fn spawn_sized(columns: usize, args: &[&str]) -> PtySession {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("stty cols {columns} rows 60 && exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(args)
        .env("TERM", "xterm-256color");
    for key in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "CI", "COLUMNS"] {
        command.env_remove(key);
    }
    let options = Options::new().timeout_ms(Some(TIMEOUT_MS)).strip_ansi_escape_codes(true);
    spawn_with_options(command, options).expect("bouton starts in a pseudo-terminal")
}

#[test]
fn at_40_and_80_columns_nothing_wraps_on_the_board_or_in_help() {
    let heaps: Vec<String> = (1..=32).map(|n| n.to_string()).collect();
    for columns in [40, 80] {
        let mut args = vec!["--delay", "0", "--seed", "1", "--first", "human"];
        args.extend(heaps.iter().map(String::as_str));
        let mut s = spawn_sized(columns, &args);
        let mut seen = s.exp_string("Your move: ").expect("the move prompt");
        s.send_line("help").expect("help");
        seen += &s.exp_string("Your move: ").expect("the prompt after help");
        s.send_line("quit").expect("quit");
        seen += &s.exp_eof().expect("the program ends");
        let seen = utf8(&seen);
        assert!(seen.contains("┌") && seen.contains("save FILE"), "the board and the help\n{seen}");
        for line in seen.split("\r\n") {
            assert!(line.chars().count() <= columns, "wider than {columns} columns: {line:?}\n{seen}");
        }
    }
}

#[test]
fn what_is_typed_while_the_computer_thinks_is_neither_shown_nor_played() {
    let mut s = spawn_sized(80, &["--delay", "1500", "--seed", "1", "--first", "computer", "3", "5", "7"]);
    s.exp_string(&bytewise("└")).expect("the board, before the computer's pause");
    std::thread::sleep(std::time::Duration::from_millis(300));
    s.send_line("2 1").expect("typing ahead");
    let seen = s.exp_string("Your move: ").expect("the prompt after the computer's move");
    s.send_line("quit").expect("quit");
    let rest = s.exp_eof().expect("the program ends");
    let seen = utf8(&format!("{seen}{rest}"));
    assert!(!seen.contains("2 1"), "type-ahead is not echoed\n{seen}");
    assert!(!seen.contains("You take"), "type-ahead is not played\n{seen}");
    assert!(seen.contains("You left the game."), "{seen}");
    assert_eq!(exit_code(&s), 0);
}

#[test]
fn ctrl_c_in_a_game_exits_130() {
    let mut s = spawn_sized(80, &["--delay", "0", "--first", "human"]);
    s.exp_string("Your move: ").expect("the move prompt");
    s.send_control('c').expect("Ctrl-C");
    s.exp_eof().expect("the program ends");
    assert_eq!(exit_code(&s), 130);
}

#[test]
fn a_move_leaving_three_heaps_in_a_hexadecimal_game() {
    // 0.F: take 1, leaving nothing, one, two or three heaps. `1 1 2 3` takes
    // 1 from the heap of 9 and leaves 2, 3 and the rest, 3.
    let args = ["play", "--rules", "octal:0.F", "--delay", "0", "--seed", "1", "--first", "human", "9", "5"];
    let mut s = spawn_sized(80, &args);
    s.exp_string("Your move: ").expect("the move prompt");
    s.send_line("1 1 2 3").expect("a move leaving three heaps");
    s.exp_string("You take 1 from heap 1, leaving 2, 3 and 3.").expect("the move is confirmed in words");
    // The board: the heap of 9 is now 2, and two new heaps of 3 follow.
    let token = bytewise("● ");
    for (heap, size, note) in [(1, 2, " \\(was 9\\)"), (2, 5, ""), (3, 3, " \\(new\\)"), (4, 3, " \\(new\\)")] {
        s.exp_regex(&format!("Heap {heap}\\s+({token}){{{size}}}\\s*{size}{note}\\r\\n"))
            .unwrap_or_else(|e| panic!("heap {heap} holds {size}: {e}"));
    }
    s.exp_string("Last move: you took 1 from heap 1, leaving 2, 3 and 3.").expect("the status line");
    s.exp_string("Your move: ").expect("the prompt after the computer's reply");
    // A three-heap move that leaves nothing for the third heap: refused.
    s.send_line("2 1 3 3").expect("a bad three-heap move");
    s.exp_string("heap 2 has 4 left after taking 1: the two parts split off (6 together)").expect("the reason");
    s.exp_string("Your move: ").expect("the prompt again");
    s.send_line("quit").expect("quit");
    s.exp_string("You left the game.").expect("goodbye");
    s.exp_eof().expect("the program ends");
    assert_eq!(exit_code(&s), 0);
}
