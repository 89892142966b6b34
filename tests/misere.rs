//! `bouton misere`: the misère quotient of a heap game from the command line.

use std::collections::BTreeSet;
use std::sync::Arc;

use bouton_misere::{Element, HeapGame, MisereQuotient, SolveOptions};
use serde_json::Value;

use crate::util::{bouton, widest_line};

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

fn analyze_misere_json(rules: &str, heaps: &[u64], extra: &[&str]) -> Value {
    let numbers: Vec<String> = heaps.iter().map(u64::to_string).collect();
    let out = bouton(&["analyze", "--rules", rules, "--misere", "--json"])
        .args(extra)
        .args(&numbers)
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
    // Kayles needs more than the default two seconds for its quotient.
    // (Each run of the binary works Kayles' quotient out again: two positions.)
    let some: [Vec<u64>; 3] = [vec![1000, 2345, 77777], vec![123_456, 654_321], vec![999_999, 1_000_000, 3, 5]];
    for (rules, code, extra, positions) in
        [("octal:0.75", "0.75", &[][..], &some[..]), ("kayles", "0.77", &["--time-limit", "60"][..], &some[1..])]
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
        let out = bouton(&args).timeout(std::time::Duration::from_secs(120)).run();
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
