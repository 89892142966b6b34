//! `bouton misere`: the misère quotient of a heap game from the command line.

use std::collections::BTreeSet;
use std::sync::Arc;

use bouton_misere::{Element, HeapGame, MisereQuotient, SolveOptions};
use serde_json::Value;

use crate::util::{TempDir, bouton, widest_line};

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

#[test]
fn octal_0_75_prints_its_order_8_quotient_and_period() {
    let out = bouton(&["misere", "0.75"]).run();
    out.assert_clean_success();
    assert!(out.stdout.starts_with("Misère quotient of ") && out.stdout.contains("0.75"), "{out}");
    assert!(out.stdout.contains("Order: 8 elements, 2 in the P-portion"), "{out}");
    assert!(out.stdout.contains("Relations:"), "{out}");
    assert!(out.stdout.contains("Period: 2 from heap 8 on"), "{out}");
}

#[test]
fn json_gives_the_presentation_and_the_pretending_function() {
    let out = bouton(&["misere", "0.75", "--json"]).run();
    out.assert_clean_success();
    let report = json(&out.stdout);
    assert_eq!(report["game"], "0.75");
    assert_eq!(report["order"], 8);
    assert_eq!(report["p_portion"].as_array().unwrap().len(), 2);
    assert_eq!(report["period"]["period"], 2);
    let pretending = report["pretending"].as_array().unwrap();
    assert_eq!(pretending[0], "1", "heap 0 is the identity");
    assert_eq!(pretending.len() as u64, report["heaps"].as_u64().unwrap() + 1);
    assert!(!report["relations"].as_array().unwrap().is_empty());
}

#[test]
fn misere_nim_without_a_period_says_how_far_it_is_exact() {
    let out = bouton(&["misere", "0.3...", "--upto", "4"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("Order: 10 elements, 2 in the P-portion"), "{out}");
    assert!(out.stdout.contains("exact for heaps up to 4 only"), "{out}");
}

#[test]
fn a_quotient_past_the_limit_is_one_line() {
    let out = bouton(&["misere", "0.07", "--upto", "20", "--max-order", "20"]).run();
    out.assert_one_line_error(1, &["the quotient grows past 20 elements"]);
    let out = bouton(&["misere", "0.07", "--upto", "20", "--max-order", "20", "--json"]).run();
    out.assert_code(1);
    let error = json(&out.stderr);
    assert!(error["error"].as_str().unwrap().contains("grows past 20"), "{out}");
}

#[test]
fn bad_codes_and_numbers_are_usage_errors() {
    bouton(&["misere", "0.8"]).run().assert_one_line_error(2, &["0.8"]);
    bouton(&["misere", "0.77", "--upto", "0"]).run().assert_one_line_error(2, &["--upto"]);
}

#[test]
fn help_has_examples_within_80_columns() {
    let out = bouton(&["misere", "--help"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("Examples:"), "{out}");
    let (width, line) = widest_line(&out.stdout);
    assert!(width <= 80, "{width} columns: {line}");
}

/// The quotient of `code` for every heap size, computed here through
/// `bouton_misere` — the theory the binary's answers are checked against.
/// (Remembered for the test process.)
fn whole_quotient(code: &str) -> Arc<MisereQuotient> {
    let game: HeapGame = code.parse().unwrap_or_else(|e| panic!("{code}: {e}"));
    let q = bouton_misere::cached(&game, &SolveOptions::upto(400)).unwrap_or_else(|e| panic!("{code}: {e}"));
    assert!(q.pretending().period().is_some(), "{code}: proved for every heap size");
    q
}

/// Whether the player to move loses `heaps`, by the quotient: the product of
/// the heaps' elements is in the P-portion.
fn lost(q: &MisereQuotient, heaps: &[u64]) -> bool {
    let monoid = q.monoid();
    let product = heaps.iter().fold(monoid.identity(), |acc, &h| {
        let x: Element = q.pretending().get(h).unwrap_or_else(|| panic!("heap {h} beyond the quotient"));
        monoid.multiply(acc, x)
    });
    q.is_p(product)
}

/// The heaps after a move written `heap:take` or `heap:take:first-part`.
fn after(heaps: &[u64], text: &str) -> Vec<u64> {
    let parts: Vec<u64> = text.split(':').map(|p| p.parse().expect("a move is numbers")).collect();
    let (index, take) = (parts[0] as usize - 1, parts[1]);
    let rest = heaps[index] - take;
    let (left, right) = match parts.get(2) {
        Some(&first) => (first, rest - first),
        None => (rest, 0),
    };
    let mut next = heaps.to_vec();
    next[index] = left;
    next.push(right);
    next.retain(|&h| h > 0);
    next
}

/// Every winning move of `heaps` by the quotient, as (heap, take, smaller
/// part, larger part): the options whose product lands in the P-portion.
fn winning_by_theory(q: &MisereQuotient, heaps: &[u64]) -> BTreeSet<(usize, u64, u64, u64)> {
    let mut found = BTreeSet::new();
    for (i, &n) in heaps.iter().enumerate() {
        for option in q.game().options(n) {
            let mut next = heaps.to_vec();
            next[i] = option.left;
            next.push(option.right);
            next.retain(|&h| h > 0);
            if lost(q, &next) {
                found.insert((i, option.take, option.left.min(option.right), option.left.max(option.right)));
            }
        }
    }
    found
}

/// Checks an `analyze --rules … --misere --json` report of `heaps` against
/// the quotient of `code`: found by the quotient, the winner its P-portion
/// gives, and exactly the winning moves its options give (each leading to a
/// position the quotient says is lost).
#[track_caller]
pub(crate) fn assert_answers_by_the_quotient(code: &str, heaps: &[u64], report: &Value) {
    let q = whole_quotient(code);
    assert_eq!(report["method"], "misere-quotient", "{report}");
    assert_eq!(report["complete"], true, "{report}");
    let winner = if lost(&q, heaps) { "opponent" } else { "mover" };
    assert_eq!(report["winner"], winner, "{code} {heaps:?}");
    let mut named = BTreeSet::new();
    for mv in report["winning_moves"].as_array().expect("winning_moves") {
        let text = mv["move"].as_str().expect("a move");
        let next = after(heaps, text);
        assert!(lost(&q, &next), "{code} {heaps:?}: {text} leaves {next:?}, not in the P-portion");
        let parts: Vec<u64> = text.split(':').map(|p| p.parse().unwrap()).collect();
        let (i, take) = (parts[0] as usize - 1, parts[1]);
        let rest = heaps[i] - take;
        let first = parts.get(2).copied().unwrap_or(rest);
        assert!(named.insert((i, take, first.min(rest - first), first.max(rest - first))), "{text} named twice");
    }
    assert_eq!(named, winning_by_theory(&q, heaps), "{code} {heaps:?}: every winning move, and only those");
}

/// A data directory of its own for each run of the binary: nothing kept by
/// one run (or by the user) is read by another.
fn analyze_misere_json(rules: &str, heaps: &[u64], extra: &[&str]) -> Value {
    let numbers: Vec<String> = heaps.iter().map(u64::to_string).collect();
    let data = TempDir::new();
    let out = bouton(&["analyze", "--rules", rules, "--misere", "--json"])
        .args(extra)
        .args(&numbers)
        .env("XDG_DATA_HOME", &data.path().display().to_string())
        .timeout(std::time::Duration::from_secs(120))
        .run();
    out.assert_clean_success();
    json(&out.stdout)
}

/// `analyze --misere` on heaps far beyond any search: the quotient answers,
/// its winner and every winning move agree with the quotient computed here,
/// the position a winning move leaves is lost (no winning move), and the
/// text names the quotient on its "How:" line.
#[test]
fn analyze_misere_on_large_heaps_answers_by_the_quotient() {
    // With the default options, on a fresh data directory: Kayles' quotient
    // is one bouton ships (proved again as it is read).
    let some: [Vec<u64>; 3] = [vec![1000, 2345, 77777], vec![123_456, 654_321], vec![999_999, 1_000_000, 3, 5]];
    for (rules, code, extra, positions) in
        [("octal:0.75", "0.75", &[][..], &some[..]), ("kayles", "0.77", &[], &some[..])]
    {
        for heaps in positions {
            let heaps = heaps.as_slice();
            let report = analyze_misere_json(rules, heaps, extra);
            assert_answers_by_the_quotient(code, heaps, &report);
            let Some(first) = report["winning_moves"].as_array().and_then(|m| m.first()) else { continue };
            let next = after(heaps, first["move"].as_str().unwrap());
            let lost = analyze_misere_json(rules, &next, extra);
            assert_eq!(lost["winner"], "opponent", "{rules} {next:?}: {lost}");
            assert_eq!(lost["winning_moves"], serde_json::json!([]), "{lost}");
            assert_answers_by_the_quotient(code, &next, &lost);
        }
        let mut args = vec!["analyze", "--rules", rules, "--misere", "--plain"];
        args.extend_from_slice(extra);
        args.extend(["1000", "2345", "77777"]);
        let data = TempDir::new();
        let out = bouton(&args)
            .env("XDG_DATA_HOME", &data.path().display().to_string())
            .timeout(std::time::Duration::from_secs(120))
            .run();
        out.assert_clean_success();
        let how = out.stdout.lines().find(|l| l.starts_with("How:")).unwrap_or_else(|| panic!("no How: line\n{out}"));
        assert!(how.contains("the misère quotient (Plambeck–Siegel)"), "{out}");
    }
}

/// The terminal game of a misère heap game works its quotient out once, says
/// so before and after, and `hint` and `explain` read it: each heap's
/// element, the product, the P-portion, and why the hinted move wins.
#[test]
fn the_terminal_game_works_the_quotient_out_once_and_explains_by_it() {
    let out = crate::util::play(
        &["--rules", "octal:0.75", "--misere", "--mode", "human-computer", "1000", "2345", "77777"],
        "hint\nexplain\nquit\n",
    );
    out.assert_clean_success();
    let working = out.stdout.find("Working out the misère quotient of the octal game 0.75 (once per game");
    let solved = out.stdout.find("solved by the game's misère quotient (8 elements, heaps of every size)");
    assert!(working.is_some() && solved.is_some() && working < solved, "{out}");
    assert_eq!(out.stdout.matches("Working out").count(), 1, "{out}");
    assert!(out.stdout.contains("it leaves a product in the P-portion of the misère quotient"), "{out}");
    for words in ["The misère quotient has 8 elements", "heap 3", "77777", "product", "not in the P-portion"] {
        assert!(out.stdout.contains(words), "{words:?}\n{out}");
    }
    assert!(out.stdout.contains("— the opponent is left a lost position"), "{out}");
}

/// The games whose quotient is proved answer `analyze --misere` exactly with
/// the default options on a fresh data directory (`kayles 20 30 40`, the
/// issue's example), and nothing is written there: their quotients are
/// shipped.
#[test]
fn proved_games_answer_with_the_default_options_on_a_fresh_machine() {
    for (rules, code) in [("kayles", "0.77"), ("octal:0.15", "0.15"), ("octal:0.71", "0.71"), ("octal:0.72", "0.72")] {
        for heaps in [&[20, 30, 40][..], &[123_456, 654_321, 7][..]] {
            let report = analyze_misere_json(rules, heaps, &[]);
            assert_answers_by_the_quotient(code, heaps, &report);
        }
    }
    let data = TempDir::new();
    let out = bouton(&["analyze", "--rules", "kayles", "--misere", "20", "30", "40"])
        .env("XDG_DATA_HOME", &data.path().display().to_string())
        .run();
    out.assert_clean_success();
    assert!(out.stdout.contains("Winner with perfect play: the player to move"), "{out}");
    assert!(!data.path().join("bouton").exists(), "a shipped quotient is not written again");
}

/// Dawson's Kayles: its quotient is shipped as far as it is known (heaps up
/// to 29, 176 elements); positions of those heaps are answered by it, larger
/// ones are searched, and the terminal says what is known at once instead of
/// working for twenty seconds.
#[test]
fn dawsons_kayles_is_answered_by_its_quotient_as_far_as_it_is_known() {
    let game: HeapGame = "0.07".parse().unwrap();
    let q = bouton_misere::shipped(&game, &mut bouton_misere::Meter::unlimited()).unwrap().unwrap().quotient;
    for heaps in [[25, 27, 29], [29, 29, 1], [5, 11, 28]] {
        let report = analyze_misere_json("dawsons-kayles", &heaps, &[]);
        assert_eq!(report["method"], "misere-quotient", "{report}");
        let winner = if q.outcome(&heaps) == Some(bouton_misere::Outcome::Previous) { "opponent" } else { "mover" };
        assert_eq!(report["winner"], winner, "{heaps:?}");
        let moves: BTreeSet<String> = report["winning_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let next = after(&heaps, m["move"].as_str().unwrap());
                assert_eq!(q.outcome(&next), Some(bouton_misere::Outcome::Previous), "{heaps:?} → {next:?}");
                m["move"].as_str().unwrap().to_owned()
            })
            .collect();
        assert_eq!(moves.len(), q.winning_moves(&heaps).unwrap().len(), "{heaps:?}: every winning move");
    }
    let data = TempDir::new();
    let out = bouton(&["play", "--plain", "--delay", "0", "--seed", "1", "--rules", "dawsons-kayles", "--misere"])
        .args(&["--mode", "human-computer", "3", "30"])
        .env("XDG_DATA_HOME", &data.path().display().to_string())
        .stdin("quit\n")
        .run();
    out.assert_clean_success();
    assert!(!out.stdout.contains("Working out"), "{out}");
    let text = out.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains("176 elements, heaps of up to 29 tokens"), "{out}");
    assert!(text.contains("not known to be finite"), "{out}");
    assert!(!data.path().join("bouton").exists(), "nothing to keep");
}

/// A quotient computed at some cost is kept in the user's data directory
/// (`$XDG_DATA_HOME/bouton/quotients`) with the budget it was tried with, read
/// back by the next run, and a damaged file is refused with a one-line
/// warning and computed again.
#[test]
fn a_computed_quotient_is_kept_and_a_damaged_one_refused() {
    let data = TempDir::new();
    let home = data.path().display().to_string();
    let run = || {
        bouton(&["analyze", "--rules", "octal:0.4", "--misere", "--json", "3", "5", "7"])
            .env("XDG_DATA_HOME", &home)
            .run()
    };
    let first = run();
    first.assert_clean_success();
    let file = data.path().join("bouton").join("quotients").join("0.4.quotient");
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}\n{first}", file.display()));
    assert!(text.starts_with("bouton-misere quotient\nversion 1\ncode 0.4\n"), "{text}");
    assert!(text.contains("\nstopped budget "), "the budget it ran out of is kept");
    let second = run();
    second.assert_clean_success();
    assert_eq!(json(&second.stdout)["winner"], json(&first.stdout)["winner"]);
    assert_eq!(second.stderr, "", "a sound file is read without a word");
    std::fs::write(&file, text.replacen("heaps ", "heaps 1", 1)).unwrap();
    let damaged = run();
    damaged.assert_code(0);
    assert_eq!(json(&damaged.stdout)["winner"], json(&first.stdout)["winner"]);
    let warning: Vec<&str> = damaged.stderr.lines().collect();
    assert_eq!(warning.len(), 1, "{damaged}");
    assert!(warning[0].starts_with("warning: the quotient file ") && warning[0].contains("is not used"), "{damaged}");
    assert!(std::fs::read_to_string(&file).unwrap().starts_with("bouton-misere quotient"), "written again");
}
