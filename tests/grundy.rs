//! `bouton grundy`, `bouton analyze --rules` and `bouton play --rules`:
//! the Sprague–Grundy engine from the command line.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{BIN, TempDir, bouton, play};

/// The reference data, if present (required when CI is set).
fn reference(name: &str) -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/cgt-data").join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(_) if std::env::var_os("CI").is_some() => panic!("the reference data {} is missing", path.display()),
        Err(_) => {
            eprintln!("note: skipping: no reference data at {}", path.display());
            None
        }
    }
}

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

#[test]
fn kayles_summary_names_the_checksum_and_the_proved_period() {
    let out = bouton(&["grundy", "kayles", "--upto", "2000", "--summary"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("Game: Kayles (0.77), code 0.77"), "{out}");
    assert!(out.stdout.contains("Checksum: 06DF1E84"), "{out}");
    assert!(
        out.stdout.contains("Periodicity: proved: period 12, pre-period 71 (last exception n = 70), by the periodicity theorem with t = 2, from the values up to n = 167"),
        "{out}"
    );
    assert!(!out.stdout.contains(" | "), "no table with --summary\n{out}");
}

#[test]
fn json_matches_the_reference_values() {
    let out = bouton(&["grundy", "0.07", "--upto", "2000", "--json"]).run();
    out.assert_clean_success();
    let report = json(&out.stdout);
    assert_eq!(report["game"], "0.07");
    assert_eq!(report["checksum"], "66C314F7");
    assert_eq!(report["periodicity"]["status"], "proved");
    assert_eq!(report["periodicity"]["period"], 34);
    assert_eq!(report["periodicity"]["preperiod"], 53);
    let values: Vec<u64> = report["values"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(values.len(), 2001);
    if let Some(text) = reference("dawsons-kayles-0.07.txt") {
        let expected: Vec<u64> = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(values, expected);
    }
}

#[test]
fn grundys_game_rare_values_and_checksum_in_json() {
    let out = bouton(&["grundy", "4!.0", "--upto", "1048576", "--json", "--summary"]).run();
    out.assert_clean_success();
    let report = json(&out.stdout);
    assert_eq!(report["checksum"], "A4B697C4");
    assert_eq!(report["max"]["value"], 231);
    assert_eq!(report["max"]["first_at"], 763_622);
    assert_eq!(report["rare"]["mask"], "…11110");
    assert_eq!(report["rare"]["count"], 1274);
    assert_eq!(report["rare"]["last"], 82_860);
    assert_eq!(report["periodicity"]["status"], "none");
    assert!(report.get("values").is_none(), "--summary leaves the values out");
}

#[test]
fn the_table_lists_every_value_in_rows_of_ten() {
    let out = bouton(&["grundy", "grundy", "--upto", "25", "--plain"]).run();
    out.assert_clean_success();
    let rows: Vec<&str> = out.stdout.lines().filter(|l| l.contains(" | ")).collect();
    assert_eq!(
        rows[0].split_whitespace().collect::<Vec<_>>(),
        ["n", "|", "+0", "+1", "+2", "+3", "+4", "+5", "+6", "+7", "+8", "+9"]
    );
    assert_eq!(
        rows[1].split_whitespace().collect::<Vec<_>>(),
        ["0", "|", "0", "0", "0", "1", "0", "2", "1", "0", "2", "1"]
    );
    assert_eq!(rows[3].split_whitespace().collect::<Vec<_>>(), ["20", "|", "0", "4", "3", "0", "4", "3"]);
    // Large N: the table only on request.
    let out = bouton(&["grundy", "kayles", "--upto", "20000"]).run();
    assert!(out.stdout.contains("--table prints it anyway"), "{out}");
}

#[test]
fn subtraction_games_and_until_proved() {
    let out = bouton(&["grundy", "subtraction:2,3,7", "--upto", "100", "--summary"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("code 0.0330003"), "{out}");
    assert!(out.stdout.contains("proved: period 5, pre-period 0, by 7 values in a row repeating"), "{out}");
    let out = bouton(&["grundy", "kayles", "--upto", "100000000", "--until-proved", "--summary"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("(stopped once periodicity was proved)"), "{out}");
    // 0.16's period, 149,459, is far beyond the old fixed limit of 16,384:
    // the default limit grows with N.
    let data = TempDir::new();
    let out = bouton(&["grundy", "0.16", "--upto", "30000000", "--until-proved", "--summary"])
        .env("XDG_DATA_HOME", &data.path().display().to_string())
        .run();
    out.assert_clean_success();
    assert!(out.stdout.contains("proved: period 149459, pre-period 105351"), "{out}");
    assert!(out.stdout.contains("(stopped once periodicity was proved)"), "{out}");
}

/// Periods are looked for without a limit: 0.16's 149,459 is proved without
/// `--until-proved` or `--max-period`, `--until-proved` alone computes as
/// far as the proof needs, and `--max-period` still limits the search.
#[test]
fn periods_without_a_limit() {
    let out = bouton(&["grundy", "0.16", "--upto", "600000", "--summary"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("proved: period 149459, pre-period 105351 (last exception n = 105350)"), "{out}");
    assert!(out.stdout.contains("from the values up to n = 509621"), "{out}");
    let out = bouton(&["grundy", "dawsons-kayles", "--until-proved", "--summary"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("proved: period 34, pre-period 53"), "{out}");
    assert!(out.stdout.contains("(stopped once periodicity was proved)"), "{out}");
    let out = bouton(&["grundy", "0.16", "--upto", "600000", "--summary", "--max-period", "100000"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("none found (periods up to 100000 looked for)"), "{out}");
}

/// `--checkpoint FILE` keeps the values; a later run of the same game goes
/// on from them (and proves what the first could not), one of another
/// game is refused with a one-line message, and the file is left alone.
#[test]
fn checkpoints_resume_and_refuse_another_game() {
    let dir = TempDir::new();
    let data = dir.path().display().to_string();
    let file = dir.join("sixteen.ckpt");
    let out = bouton(&["grundy", "0.16", "--upto", "300000", "--summary", "--checkpoint"]).arg_path(&file).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("Computed: G(0) to G(300000)"), "{out}");
    let saved = std::fs::metadata(&file).expect("the checkpoint").len();
    assert!(saved > 300_000, "a byte a value at least: {saved}");
    let out = bouton(&["grundy", "0.16", "--until-proved", "--summary", "--checkpoint"])
        .arg_path(&file)
        .env("XDG_DATA_HOME", &data)
        .run();
    out.assert_clean_success();
    assert!(out.stdout.contains("proved: period 149459, pre-period 105351"), "{out}");
    let fresh = bouton(&["grundy", "0.16", "--until-proved", "--summary"]).env("XDG_DATA_HOME", &data).run();
    assert_eq!(out.stdout, fresh.stdout, "the same report as without a checkpoint");
    let out = bouton(&["grundy", "kayles", "--upto", "1000", "--checkpoint"]).arg_path(&file).run();
    out.assert_one_line_error(2, &["checkpoint of 0.16", "not of 0.77"]);
    let text = dir.join("notes.txt");
    std::fs::write(&text, "my notes\n").expect("written");
    let out = bouton(&["grundy", "kayles", "--checkpoint"]).arg_path(&text).run();
    out.assert_one_line_error(2, &["not a bouton-grundy checkpoint"]);
    assert_eq!(std::fs::read_to_string(&text).expect("read"), "my notes\n");
}

/// `--until-proved` keeps a proof that analysis could not make (0.376's
/// needs 4.6 million values, beyond the 2^20 analysis computes) in the data
/// directory; `analyze` then knows every heap, where before it said which
/// command would get the proof. A damaged file is refused with a warning.
#[test]
fn a_kept_proof_lets_analyze_answer_for_any_heap() {
    let dir = TempDir::new();
    let data = dir.path().display().to_string();
    let analyze = || bouton(&["analyze", "--rules", "octal:0.376", "100000000", "5"]).env("XDG_DATA_HOME", &data).run();
    let before = analyze();
    before.assert_one_line_error(1, &["`bouton grundy 0.376 --until-proved`", "heap 100000000 is larger"]);
    let out = bouton(&["grundy", "0.376", "--until-proved", "--summary"])
        .env("XDG_DATA_HOME", &data)
        .timeout(std::time::Duration::from_secs(300))
        .run();
    out.assert_clean_success();
    assert!(out.stdout.contains("proved: period 4, pre-period 2268248"), "{out}");
    let file = dir.path().join("bouton").join("proofs").join("0.376.proof");
    assert!(out.stdout.contains(&format!("Proof kept in: {}", file.display())), "{out}");
    let after = analyze();
    after.assert_clean_success();
    // G(100,000,000) = G(2,268,248 + (100,000,000 − 2,268,248) mod 4) = 17.
    assert!(after.stdout.contains("Grundy values: heap 1 17, heap 2 1"), "{after}");
    assert!(after.stdout.contains("Winner with perfect play: the player to move"), "{after}");
    // One byte of the values changed: refused, said once, not trusted.
    let mut bytes = std::fs::read(&file).expect("the proof");
    let at = bytes.len() - 100;
    bytes[at] ^= 1;
    std::fs::write(&file, &bytes).expect("written");
    let damaged = analyze();
    assert_eq!(damaged.code, Some(1), "{damaged}");
    assert!(damaged.stderr.contains("warning: the proof file"), "{damaged}");
    assert!(damaged.stderr.contains("hash does not match"), "{damaged}");
    assert!(damaged.stderr.contains("`bouton grundy 0.376 --until-proved` writes it again"), "{damaged}");
}

#[test]
fn plots_are_svg_or_png() {
    let dir = TempDir::new();
    let svg = dir.join("kayles.svg");
    let png = dir.join("grundy.png");
    bouton(&["grundy", "kayles", "--upto", "500", "--summary", "--plot"]).arg_path(&svg).run().assert_clean_success();
    bouton(&["grundy", "grundy", "--upto", "5000", "--summary", "--plot"]).arg_path(&png).run().assert_clean_success();
    let text = std::fs::read_to_string(&svg).expect("the SVG file");
    assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{text}");
    assert!(text.contains("Kayles (0.77)") && text.trim_end().ends_with("</svg>"));
    let bytes = std::fs::read(&png).expect("the PNG file");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&bytes[bytes.len() - 8..bytes.len() - 4], b"IEND");
    let out = bouton(&["grundy", "kayles", "--plot", "values.txt"]).run();
    out.assert_one_line_error(2, &["values.txt", ".svg or .png"]);
}

#[test]
fn command_line_mistakes_exit_2() {
    bouton(&["grundy", "0.G"]).run().assert_one_line_error(2, &["\"0.G\"", "not a hexadecimal digit"]);
    bouton(&["grundy", "0.!7"]).run().assert_one_line_error(2, &["\"0.!7\"", "pairwise unequal"]);
    bouton(&["grundy", "0.F…"]).run().assert_one_line_error(2, &["repeated last digit"]);
    // 9 is a hexadecimal digit: take one, leave nothing or three heaps.
    let out = bouton(&["grundy", "0.9", "--upto", "12"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("Game: the hexadecimal game 0.9, code 0.9"), "{out}");
    bouton(&["grundy", "chess"]).run().assert_one_line_error(2, &["unknown rule set", "chess"]);
    bouton(&["grundy", "wythoff"]).run().assert_one_line_error(2, &["not a heap game", "analyze --rules wythoff"]);
    bouton(&["grundy", "kayles", "--mask", "0"]).run().assert_one_line_error(2, &["mask"]);
    bouton(&["grundy", "kayles", "--upto", "-3"]).run().assert_code(2);
}

/// Runs Grundy's game far with `extra` arguments, sends Ctrl-C (SIGINT)
/// after a moment and waits for the exit: it must be 130, within 20 s.
/// Returns standard output and standard error.
fn interrupted_grundy(extra: &[&std::ffi::OsStr]) -> (Vec<u8>, String) {
    let mut child = Command::new(BIN)
        .args(["grundy", "grundy", "--upto", "1000000000000", "--summary"])
        .args(extra)
        .env_remove("CI")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bouton starts");
    std::thread::sleep(Duration::from_millis(1500));
    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(killed.success());
    let started = Instant::now();
    let output = loop {
        if child.try_wait().expect("waiting").is_some() {
            break child.wait_with_output().expect("output");
        }
        assert!(started.elapsed() < Duration::from_secs(20), "bouton did not stop after Ctrl-C");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(output.status.code(), Some(130));
    (output.stdout, String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn ctrl_c_interrupts_cleanly() {
    let (stdout, stderr) = interrupted_grundy(&[]);
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("bouton: interrupted after "), "{stderr}");
    assert!(stdout.is_empty(), "nothing is printed after an interruption");
}

/// Ctrl-C with `--checkpoint`: the values computed are saved, and the next
/// run goes on from them to the same answer as a run from scratch.
#[test]
fn ctrl_c_keeps_the_values_in_the_checkpoint() {
    let dir = TempDir::new();
    let file = dir.join("grundy.ckpt");
    let (_, stderr) = interrupted_grundy(&["--checkpoint".as_ref(), file.as_os_str()]);
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("bouton: interrupted after ") && last.contains("the values are kept in"), "{stderr}");
    let saved = std::fs::metadata(&file).expect("the checkpoint").len();
    assert!(saved > 1000, "values were saved: {saved} bytes");
    let resumed = bouton(&["grundy", "grundy", "--upto", "300000", "--summary", "--checkpoint"]).arg_path(&file).run();
    resumed.assert_clean_success();
    let fresh = bouton(&["grundy", "grundy", "--upto", "300000", "--summary"]).run();
    assert_eq!(resumed.stdout, fresh.stdout);
}

#[test]
fn analyze_rules_gives_values_winner_and_every_winning_move() {
    let out = bouton(&["analyze", "--rules", "kayles", "--json", "7", "11"]).run();
    out.assert_clean_success();
    let report = json(&out.stdout);
    assert_eq!(report["rules"], "kayles");
    assert_eq!(report["components"][0]["grundy"], 2);
    assert_eq!(report["components"][1]["grundy"], 6);
    assert_eq!(report["grundy"], 4);
    assert_eq!(report["winner"], "mover");
    let moves: Vec<&str> =
        report["winning_moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(moves, ["2:1", "2:1:4"]);
    assert_eq!(report["winning_moves"][1]["description"], "take 1 from heap 2, leaving 4 and 6");

    let out = bouton(&["analyze", "--rules", "wythoff", "--plain", "4", "7"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("Winner with perfect play: the opponent"), "{out}");
    let out = bouton(&["analyze", "--rules", "wythoff", "--json", "1000000000000000000", "999999999999999999"]).run();
    out.assert_clean_success();
    assert_eq!(json(&out.stdout)["winner"], "mover");

    let out = bouton(&["analyze", "--rules", "fibonacci", "--json", "21"]).run();
    assert_eq!(json(&out.stdout)["winner"], "opponent", "21 is a Fibonacci number");
    let out = bouton(&["analyze", "--rules", "staircase", "--json", "3", "0", "5", "2"]).run();
    assert_eq!(json(&out.stdout)["grundy"], 6);
    let out = bouton(&["analyze", "--rules", "northcott", "--json", "8", "1", "6", "8", "3", "8"]).run();
    assert_eq!(json(&out.stdout)["grundy"], 0);
    let out = bouton(&["analyze", "--rules", "moore:2", "--json", "1", "2", "3"]).run();
    assert_eq!(json(&out.stdout)["winner"], "mover");
    // Misère where no quotient covers the heaps and the position is too
    // large: said plainly.
    for code in ["grundy", "lasker"] {
        let out = bouton(&["analyze", "--rules", code, "--misere", "1000", "2345", "77777"]).run();
        out.assert_one_line_error(1, &["analysis not available within the limits for ", "misère play"]);
    }
    // 0.45's quotient (not shipped) needs more than half of the default two
    // seconds: the message says how to give it the time. (A data directory of
    // its own: what it computed is kept there.)
    let data = crate::util::TempDir::new();
    let out = bouton(&["analyze", "--rules", "octal:0.45", "--misere", "1000", "2345", "77777"])
        .env("XDG_DATA_HOME", &data.path().display().to_string())
        .run();
    out.assert_one_line_error(1, &["analysis not available within the limits for ", "--time-limit 20"]);
    // 0.75's quotient (order 8) is found at once: the exact answer, checked
    // against the quotient computed in the test.
    let out = bouton(&["analyze", "--rules", "octal:0.75", "--misere", "--json", "1000", "2345", "77777"]).run();
    out.assert_clean_success();
    crate::misere::assert_answers_by_the_quotient("0.75", &[1000, 2345, 77777], &json(&out.stdout));
    // A value table too long to compute within the time limit.
    let out = bouton(&["analyze", "--rules", "grundy", "--time-limit", "0.5", "1000000", "999999"]).run();
    out.assert_one_line_error(1, &["analysis not available within the limits for Grundy's game", "0.5 s"]);
    let out = bouton(&["analyze", "--rules", "grundy", "--time-limit", "0", "7"]).run();
    out.assert_code(2);
    assert!(out.stderr.contains("not a number of seconds"), "{out}");
    // A heap too large to list its options: a winning move built from the values.
    for (rules, heap) in [("kayles", "10000000"), ("lasker", "7920001")] {
        let out = bouton(&["analyze", "--rules", rules, "--json", heap]).run();
        let report = json(&out.stdout);
        assert_eq!(report["winner"], "mover", "{out}");
        assert_eq!(report["complete"], false, "{out}");
        assert!(!report["winning_moves"].as_array().unwrap().is_empty(), "{out}");
    }
    // Moore's Nim_k of any size: the theorem, not a search.
    let out =
        bouton(&["analyze", "--rules", "moore:8", "--json", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]).run();
    assert_eq!(json(&out.stdout)["winner"], "mover", "{out}");
    let out = bouton(&["analyze", "--rules", "moore:2", "--json", "1000", "1000", "1000"]).run();
    assert_eq!(json(&out.stdout)["winner"], "opponent", "{out}");
    let out = bouton(&["analyze", "--rules", "moore:1", "--json", "1000", "999"]).run();
    assert_eq!(json(&out.stdout)["winning_moves"].as_array().map(Vec::len), Some(1), "{out}");
    // Kayles' quotient is shipped: misère Kayles is read from it at once.
    let out = bouton(&["analyze", "--rules", "kayles", "--misere", "--json", "4", "5"]).run();
    out.assert_clean_success();
    assert_eq!(json(&out.stdout)["method"], "misere-quotient");
    // `--rules nim` is the Nim analysis itself.
    let nim = bouton(&["analyze", "--rules", "nim", "3", "5", "7"]).run();
    assert_eq!(nim.stdout, bouton(&["analyze", "3", "5", "7"]).run().stdout);
}

#[test]
fn analyze_rules_mistakes_exit_2() {
    bouton(&["analyze", "--rules", "chess", "1"]).run().assert_one_line_error(2, &["unknown rule set"]);
    bouton(&["analyze", "--rules", "wythoff", "1", "2", "3"]).run().assert_one_line_error(2, &["pairs"]);
    bouton(&["analyze", "--rules", "moore:9", "1"]).run().assert_one_line_error(2, &["k"]);
    bouton(&["analyze", "--rules", "northcott", "8", "1", "1"]).run().assert_one_line_error(2, &["row 1"]);
}

#[test]
fn a_kayles_game_between_two_people() {
    let out = play(&["--rules", "kayles", "--mode", "human-human", "5"], "1 1 1\nmoves\n1 1\n2 9\n2 2\n2 1\n");
    out.assert_clean_success();
    assert!(out.stdout.contains("Kayles (0.77), normal play: knock down one pin or two neighbouring pins"), "{out}");
    assert!(out.stdout.contains("Player 1 takes 1 from heap 1, leaving 1 and 3."), "{out}");
    assert!(out.stdout.contains("Heap 2: 3 tokens (new)"), "{out}");
    assert!(out.stdout.contains("take 2 from heap 2                   Grundy value 0 *"), "{out}");
    assert!(out.stdout.contains("cannot take 9 from heap 2: it holds only 3"), "{out}");
    assert!(out.stdout.contains("Player 2 made the last move. Player 2 wins!"), "{out}");
}

#[test]
fn every_rule_set_plays_to_the_end_in_both_conventions() {
    for rules in [
        "subtraction:2,3,7",
        "all-but:1,2",
        "take-limit:3",
        "moore:2",
        "wythoff",
        "kayles",
        "dawsons-kayles",
        "octal:0.137",
        "grundy",
        "lasker",
        "staircase",
        "northcott",
        "fibonacci",
    ] {
        for misere in [false, true] {
            let mut args = vec!["--rules", rules, "--mode", "computer-computer", "--level", "perfect"];
            if misere {
                args.push("--misere");
            }
            if rules == "northcott" && misere {
                continue; // no analysis: random play, long games
            }
            let out = play(&args, "");
            out.assert_clean_success();
            let last = out.stdout.lines().last().unwrap_or_default();
            assert!(last.starts_with("Computer ") && last.ends_with(" wins!"), "{rules} misère={misere}\n{out}");
        }
    }
}

#[test]
fn the_perfect_computer_wins_won_starts() {
    // First player wins 7 11 in Kayles, 20 in Fibonacci Nim, 7 10 in Wythoff.
    for (rules, start) in [("kayles", vec!["7", "11"]), ("fibonacci", vec!["20"]), ("wythoff", vec!["7", "10"])] {
        for seed in ["1", "2", "3"] {
            let mut args = vec![
                "--rules",
                rules,
                "--mode",
                "computer-computer",
                "--level",
                "perfect",
                "--second-level",
                "random",
                "--seed",
                seed,
            ];
            args.extend(start.iter().copied());
            let out = bouton(&["play", "--plain", "--delay", "0"]).args(&args).run();
            out.assert_clean_success();
            assert!(out.stdout.trim_end().ends_with("Computer 1 wins!"), "{rules} seed {seed}\n{out}");
        }
    }
}

#[test]
fn save_and_load_a_grundys_game() {
    let dir = TempDir::new();
    let file = dir.join("grundy.json");
    let out =
        play(&["--rules", "grundy", "--first", "human", "13"], &format!("1 0 5\nsave {}\nquit\n", file.display()));
    out.assert_clean_success();
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["rules"], "grundy");
    assert_eq!(saved["start"], serde_json::json!([13]));
    assert_eq!(saved["moves"][0], "1:0:5");
    let resumed = bouton(&["play", "--plain", "--delay", "0", "--load"]).arg_path(&file).stdin("hint\nquit\n").run();
    resumed.assert_clean_success();
    assert!(resumed.stdout.contains("Grundy's game (4!.0), normal play"), "{resumed}");
    assert!(resumed.stdout.contains("Your move: "), "{resumed}");
    // A Nim save names its rules like any other (files without the field,
    // written before, still load as Nim).
    let nim = dir.join("nim.json");
    play(&["--first", "human"], &format!("3 1\nsave {}\nquit\n", nim.display())).assert_clean_success();
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&nim).unwrap()).unwrap();
    assert_eq!(saved["rules"], "nim");
}

#[test]
fn a_plot_path_that_cannot_be_written_fails_before_computing() {
    for file in ["/no/such/dir/k.svg", "/no/such/dir/k.png"] {
        // Ten million values would take a while: the error comes first.
        let out = bouton(&["grundy", "kayles", "--upto", "10000000", "--plot", file]).run();
        assert_eq!(out.stdout, "", "nothing is computed or printed\n{out}");
        out.assert_one_line_error(1, &[file, "No such file or directory"]);
    }
    // A directory is not a file.
    let dir = TempDir::new();
    let inside = dir.join("plot.svg");
    std::fs::create_dir(&inside).expect("a directory named like a plot");
    let out = bouton(&["grundy", "kayles", "--plot"]).arg_path(&inside).run();
    assert_eq!(out.stdout, "", "{out}");
    out.assert_one_line_error(1, &["plot.svg", "Is a directory"]);
    // A run that fails after the check leaves no empty file behind...
    let plot = dir.join("k.svg");
    let out = bouton(&["grundy", "kayles", "--upto", "2000000000000", "--plot"]).arg_path(&plot).run();
    out.assert_code(2);
    assert!(!plot.exists(), "the plot file is removed again\n{out}");
    // ...and does not touch a file that was there.
    std::fs::write(&plot, "before").expect("an old plot");
    bouton(&["grundy", "kayles", "--upto", "2000000000000", "--plot"]).arg_path(&plot).run().assert_code(2);
    assert_eq!(std::fs::read_to_string(&plot).expect("the old plot"), "before");
}

#[test]
fn the_png_plot_has_the_svg_title_labels_and_visible_dots() {
    let dir = TempDir::new();
    let (svg, png) = (dir.join("kayles.svg"), dir.join("kayles.png"));
    for path in [&svg, &png] {
        bouton(&["grundy", "kayles", "--upto", "500", "--summary", "--plot"])
            .arg_path(path)
            .run()
            .assert_clean_success();
    }
    let text = std::fs::read_to_string(&svg).expect("the SVG file");
    let title = "Kayles (0.77): G(n) for n = 0 to 500";
    assert!(text.contains(&format!("<title>{title}</title>")), "{text}");
    assert!(!text.contains("(0.77) (0.77)"), "the code is not repeated");
    assert!(text.contains(">G(n)</text>") && text.contains(">n</text>"), "axis labels");
    // A name without its code gets it once.
    let lasker = dir.join("lasker.svg");
    bouton(&["grundy", "lasker", "--upto", "50", "--summary", "--plot"]).arg_path(&lasker).run().assert_clean_success();
    let text = std::fs::read_to_string(&lasker).expect("the SVG file");
    assert!(text.contains("<title>Lasker's Nim (4.3…): G(n) for n = 0 to 50</title>"), "{text}");

    let bytes = std::fs::read(&png).expect("the PNG file");
    // The old uncompressed encoder wrote about 461 KB whatever the values.
    assert!(bytes.len() < 100_000, "a compressed PNG, not {} bytes", bytes.len());
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a valid PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let frame = reader.next_frame(&mut pixels).expect("the image decodes");
    assert_eq!((frame.width, frame.height), (960, 480));
    let channels = frame.color_type.samples();
    let pixel = |x: u32, y: u32| {
        let at = (y as usize * frame.width as usize + x as usize) * channels;
        &pixels[at..at + channels.min(3)]
    };
    let dark = |x: u32, y: u32| pixel(x, y).iter().all(|&c| c < 128);
    let count = |xs: std::ops::Range<u32>, ys: std::ops::Range<u32>, test: &dyn Fn(u32, u32) -> bool| {
        xs.flat_map(|x| ys.clone().map(move |y| (x, y))).filter(|&(x, y)| test(x, y)).count()
    };
    // The title across the top middle, G(n) down the left, n under the axis.
    assert!(count(300..660, 0..36, &dark) > 200, "the title is drawn");
    assert!(count(0..30, 150..330, &dark) > 30, "the G(n) label is drawn");
    assert!(count(440..520, 444..480, &dark) > 5, "the n label is drawn");
    // Dots in the values' blue, several pixels each.
    let blue = |x: u32, y: u32| matches!(pixel(x, y), [r, g, b] if *b > 150 && *r < 100 && *g < 140);
    assert!(count(57..944, 40..436, &blue) > 2000, "visible dots");
}

/// G(0) … G(`upto`) of the hexadecimal game 0.28 by its definition, written
/// here apart from the engine: take one token leaving one non-empty heap (digit 2), or
/// take two leaving three non-empty heaps (digit 8).
fn hexadecimal_0_28_by_definition(upto: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(upto + 1);
    for n in 0..=upto {
        let mut options = std::collections::HashSet::new();
        if n >= 2 {
            options.insert(g[n - 1]);
        }
        if n >= 5 {
            let rest = n - 2;
            for a in 1..=rest / 3 {
                for b in a..=(rest - a) / 2 {
                    options.insert(g[a] ^ g[b] ^ g[rest - a - b]);
                }
            }
        }
        g.push((0..).find(|v| !options.contains(v)).expect("a mex"));
    }
    g
}

#[test]
fn a_hexadecimal_arithmetic_period_is_proved_and_analysis_uses_it_for_huge_heaps() {
    let truth = hexadecimal_0_28_by_definition(400);
    let out = bouton(&["grundy", "0.28", "--until-proved", "--json"]).run();
    out.assert_clean_success();
    let report = json(&out.stdout);
    let periodicity = &report["periodicity"];
    assert_eq!(periodicity["status"], "arithmeticproved", "{periodicity}");
    let (p, s, e) = (53, 16, 1);
    assert_eq!((periodicity["period"].as_u64(), periodicity["saltus"].as_u64()), (Some(p), Some(s)));
    assert_eq!(periodicity["preperiod"].as_u64(), Some(e));
    // The definition shows the form over seven periods, beyond what the proof read.
    for n in e as usize..=400 - p as usize {
        assert_eq!(truth[n + p as usize], truth[n] + s, "G({}) against G({n})", n + p as usize);
    }
    let value = |n: u64| if n < e { truth[n as usize] } else { truth[(e + (n - e) % p) as usize] + s * ((n - e) / p) };

    let heaps = [1_000_000_000_000u64, 77_777_777_777];
    let args = ["analyze", "--rules", "octal:0.28", "--json", "1000000000000", "77777777777"];
    let out = bouton(&args).run();
    out.assert_clean_success();
    let report = json(&out.stdout);
    let grundy: Vec<u64> =
        report["components"].as_array().unwrap().iter().map(|c| c["grundy"].as_u64().unwrap()).collect();
    assert_eq!(grundy, heaps.map(value));
    assert_eq!(report["grundy"].as_u64(), Some(value(heaps[0]) ^ value(heaps[1])));
    // Every winning move offered is legal and leaves a position worth 0.
    let moves = report["winning_moves"].as_array().expect("winning moves");
    assert!(!moves.is_empty(), "{report}");
    for m in moves {
        let fields: Vec<u64> = m["move"].as_str().unwrap().split(':').map(|f| f.parse().unwrap()).collect();
        let (heap, take) = (fields[0] as usize - 1, fields[1]);
        let mut after: Vec<u64> = heaps.iter().enumerate().filter(|&(i, _)| i != heap).map(|(_, &h)| h).collect();
        let rest = heaps[heap] - take;
        match (take, &fields[2..]) {
            (1, []) => after.push(rest),
            (2, &[a, b]) => {
                assert!(a >= 1 && b >= 1 && a + b < rest, "{m}: three non-empty heaps");
                after.extend([a, b, rest - a - b]);
            }
            _ => panic!("not a move of 0.28: {m}"),
        }
        assert_eq!(after.iter().fold(0, |x, &h| x ^ value(h)), 0, "{m} leaves a position worth 0");
    }
}
