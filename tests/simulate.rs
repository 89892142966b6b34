//! `bouton simulate`: many computer-vs-computer games.

use serde_json::Value;

use crate::util::{Output, bouton};

#[track_caller]
fn simulate_json(args: &[&str]) -> (Value, Output) {
    let out = bouton(&["simulate", "--json"]).args(args).run();
    out.assert_clean_success();
    assert_eq!(out.stdout.lines().count(), 1, "{out}");
    let value: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e})\n{out}"));
    (value, out)
}

fn u(value: &Value) -> u64 {
    value.as_u64().unwrap_or_else(|| panic!("not a whole number: {value}"))
}

/// Checks the summary's internal consistency and returns (first, second) wins.
#[track_caller]
fn check_summary(summary: &Value, games: u64, misere: bool) -> (u64, u64) {
    let keys: Vec<&str> = summary.as_object().expect("object").keys().map(String::as_str).collect();
    for key in ["games", "misere", "seed", "first", "second", "winning_starts", "length"] {
        assert!(keys.contains(&key), "the summary has {key}: {summary}");
    }
    assert_eq!(u(&summary["games"]), games);
    assert_eq!(summary["misere"], misere);
    let first = u(&summary["first"]["wins"]);
    let second = u(&summary["second"]["wins"]);
    assert_eq!(first + second, games, "every game has a winner: {summary}");
    assert!(u(&summary["winning_starts"]) <= games);
    let (min, max) = (u(&summary["length"]["min"]), u(&summary["length"]["max"]));
    let mean = summary["length"]["mean"].as_f64().expect("mean is a number");
    assert!(1 <= min && min as f64 <= mean && mean <= max as f64, "min <= mean <= max: {summary}");
    (first, second)
}

#[test]
fn perfect_against_random_on_random_starts() {
    let args = ["--games", "200", "--first", "perfect", "--second", "random", "--random", "5", "--seed", "1"];
    let (summary, out) = simulate_json(&args);
    let (first, _) = check_summary(&summary, 200, false);
    assert_eq!(summary["first"]["level"], "perfect");
    assert_eq!(summary["second"]["level"], "random");
    assert_eq!(u(&summary["seed"]), 1);
    // Perfect play wins every won start, and sometimes more against random.
    let won_starts = u(&summary["winning_starts"]);
    assert!(won_starts > 0 && won_starts < 200, "random starts include both kinds: {summary}");
    assert!(first >= won_starts, "perfect play wins every won start: {summary}");
    // Five heaps of at most 15 tokens: at least 5 moves, at most 75.
    assert!(u(&summary["length"]["min"]) >= 5 && u(&summary["length"]["max"]) <= 75, "{summary}");

    // The same seed gives the same output, byte for byte.
    let (_, again) = simulate_json(&args);
    assert_eq!(out.stdout, again.stdout);
    // A different seed gives different games.
    let mut other = args;
    other[9] = "2";
    let (different, _) = simulate_json(&other);
    assert_ne!(different["length"], summary["length"], "another seed, other games");
}

#[test]
fn perfect_against_perfect_first_player_wins_from_3_5_7() {
    let (summary, _) = simulate_json(&["--games", "50", "--seed", "3", "3", "5", "7"]);
    let (first, second) = check_summary(&summary, 50, false);
    assert_eq!((first, second), (50, 0), "{summary}");
    assert_eq!(u(&summary["winning_starts"]), 50);
    // The default start is 3 5 7 and the default levels perfect.
    let (default, _) = simulate_json(&["--games", "50", "--seed", "3"]);
    assert_eq!(default, summary);
}

#[test]
fn perfect_against_perfect_second_player_wins_from_a_lost_start() {
    let (summary, _) = simulate_json(&["--games", "30", "--seed", "4", "1", "2", "3"]);
    assert_eq!(check_summary(&summary, 30, false), (0, 30), "{summary}");
    assert_eq!(u(&summary["winning_starts"]), 0);
}

#[test]
fn misere_simulation() {
    let (summary, _) = simulate_json(&["--games", "50", "--seed", "3", "--misere", "3", "5", "7"]);
    assert_eq!(check_summary(&summary, 50, true), (50, 0), "{summary}");
    // Forced games: one token, the first player must take it.
    let (summary, _) = simulate_json(&["--games", "10", "--seed", "1", "--misere", "1"]);
    assert_eq!(check_summary(&summary, 10, true), (0, 10), "misère: taking the last token loses");
    assert_eq!(summary["length"]["max"], 1);
    let (summary, _) = simulate_json(&["--games", "10", "--seed", "1", "1"]);
    assert_eq!(check_summary(&summary, 10, false), (10, 0), "normal: taking the last token wins");
    // Two singles: misère, the first player wins; normal, the second.
    let (summary, _) = simulate_json(&["--games", "10", "--seed", "1", "--misere", "1", "1"]);
    assert_eq!(check_summary(&summary, 10, true), (10, 0));
    let (summary, _) = simulate_json(&["--games", "10", "--seed", "1", "1", "1"]);
    assert_eq!(check_summary(&summary, 10, false), (0, 10));
}

#[test]
fn random_against_random_is_balanced_enough() {
    let (summary, _) = simulate_json(&["--games", "400", "--seed", "5", "--first", "random", "--second", "random"]);
    let (first, second) = check_summary(&summary, 400, false);
    assert!(first > 100 && second > 100, "random play wins some of each: {summary}");
}

#[test]
fn text_summary() {
    let out = bouton(&["simulate", "--games", "20", "--seed", "3", "--misere"]).run();
    out.assert_clean_success();
    assert!(out.stdout.starts_with("20 games of Nim, misère play from 3 5 7, seed 3\n"), "{out}");
    assert!(out.stdout.contains("20 wins (100.0%)"), "{out}");
    assert!(out.stdout.contains("game length in moves: min "), "{out}");
    let out = bouton(&["simulate", "--games", "5", "--seed", "3", "--random", "4", "--max", "9"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("4 random heaps of 1 to 9 (new each game)"), "{out}");
}

#[test]
fn seed_is_reported_when_not_given() {
    let (summary, _) = simulate_json(&["--games", "3"]);
    let seed = u(&summary["seed"]).to_string();
    let (a, _) = simulate_json(&["--games", "3", "--seed", &seed]);
    assert_eq!(a, summary, "the reported seed repeats the run");
}

#[test]
fn bad_simulations_are_usage_errors() {
    let out = bouton(&["simulate", "--games", "0"]).run();
    out.assert_code(2);
    let out = bouton(&["simulate", "--games", "3", "0", "0"]).run();
    out.assert_one_line_error(2, &["every heap is empty"]);
    let out = bouton(&["simulate", "--games", "3", "--random", "20000000"]).run();
    out.assert_one_line_error(2, &["too many heaps"]);
    let out = bouton(&["simulate", "--first", "grandmaster"]).run();
    out.assert_code(2);
}

#[test]
fn every_rule_set_simulates_and_perfect_play_wins_exactly_the_won_starts() {
    // Perfect against perfect on random starts: the first player wins exactly
    // the games whose start the analysis calls won.
    for (rules, misere) in [
        ("kayles", false),
        ("grundy", false),
        ("subtraction:1,3,4", false),
        ("moore:2", false),
        ("wythoff", false),
        ("staircase", false),
        ("northcott", false),
        ("fibonacci", false),
        ("kayles", true),
        ("lasker", true),
    ] {
        let mut args = vec!["--rules", rules, "--games", "40", "--seed", "11", "--random", "3", "--max", "7"];
        if misere {
            args.push("--misere");
        }
        let (summary, _) = simulate_json(&args);
        let (first, _) = check_summary(&summary, 40, misere);
        assert_eq!(summary["rules"], rules);
        assert_eq!(first, u(&summary["winning_starts"]), "{rules} (misère {misere}): {summary}");
    }
    // Known starts: Wythoff's (3, 5) and Fibonacci Nim from 21 are lost for
    // the first player; Kayles 7 11 is won (G = 2 ^ 6).
    let (summary, _) = simulate_json(&["--rules", "wythoff", "--games", "20", "--seed", "1", "3", "5"]);
    assert_eq!(check_summary(&summary, 20, false), (0, 20));
    let (summary, _) = simulate_json(&["--rules", "fibonacci", "--games", "20", "--seed", "1", "21"]);
    assert_eq!(check_summary(&summary, 20, false), (0, 20));
    let (summary, _) = simulate_json(&["--rules", "kayles", "--games", "20", "--seed", "1", "7", "11"]);
    assert_eq!(check_summary(&summary, 20, false), (20, 0));
    let out = bouton(&["simulate", "--rules", "chess"]).run();
    out.assert_one_line_error(2, &["unknown rule set \"chess\""]);
    let out = bouton(&["simulate", "--rules", "wythoff", "1", "2", "3"]).run();
    out.assert_one_line_error(2, &["pair"]);
}

#[test]
fn text_summary_names_the_levels_and_counts_in_words() {
    let out = bouton(&["simulate", "--games", "1", "--seed", "1", "--second", "random"]).run();
    out.assert_clean_success();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], "1 game of Nim, normal play from 3 5 7, seed 1", "{out}");
    assert_eq!(lines[1], "first player (perfect): 1 win (100.0%)", "{out}");
    assert_eq!(lines[2], "second player (random): 0 wins (0.0%)", "{out}");
    assert!(!out.stdout.contains("( "), "no padding inside parentheses\n{out}");
    let out = bouton(&["simulate", "--games", "100", "--seed", "1", "--first", "beginner", "--second", "easy"]).run();
    out.assert_clean_success();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines[1].starts_with("first player (beginner): ") && lines[1].contains(" wins ("), "{out}");
    assert!(lines[2].starts_with("second player (easy):    "), "the counts line up\n{out}");
    let count_at = |line: &str| line.find(" win").expect("a count");
    assert_eq!(count_at(lines[1]), count_at(lines[2]), "the counts end in one column\n{out}");
}
