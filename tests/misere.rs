//! `bouton misere`: the misère quotient of a heap game from the command line.

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
