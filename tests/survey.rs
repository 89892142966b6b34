//! `bouton grundy --survey`: many octal games at once, checked against the
//! published periods of Czajka's tables (tests/data/czajka-octal.tsv), and
//! its ranges and refusals.

use crate::util::bouton;

/// The published (code, pre-period, period) rows.
fn published() -> Vec<(String, u64, u64)> {
    let text = include_str!("data/czajka-octal.tsv");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            (fields[0].to_owned(), fields[1].parse().unwrap(), fields[2].parse().unwrap())
        })
        .collect()
}

#[test]
fn the_survey_proves_the_published_periods() {
    // Every game of the table whose proof needs at most a million values
    // (0.354 and 0.376 need 20 and 4.6 million: the README reports those).
    let games: Vec<(String, u64, u64)> =
        published().into_iter().filter(|(_, preperiod, period)| 2 * preperiod + 2 * period + 8 <= 1_000_000).collect();
    assert!(games.len() >= 85, "{} games", games.len());
    let list = games.iter().map(|(code, _, _)| code.as_str()).collect::<Vec<_>>().join(",");
    // Proofs that need many values are kept: in a directory of the test's.
    let data = crate::util::TempDir::new();
    let out = bouton(&["grundy", "--survey", &list, "--upto", "1000000", "--json"])
        .env("XDG_DATA_HOME", &data.path().display().to_string())
        .run();
    out.assert_clean_success();
    let rows: Vec<serde_json::Value> = serde_json::from_str(&out.stdout).expect("the survey prints JSON");
    assert_eq!(rows.len(), games.len());
    for ((code, preperiod, period), row) in games.iter().zip(&rows) {
        assert_eq!(row["code"], code.as_str(), "{row}");
        assert_eq!(row["result"], "proved", "{code}: {row}");
        assert_eq!(row["period"], *period, "{code}: {row}");
        assert_eq!(row["preperiod"], *preperiod, "{code}: {row}");
    }
    // Codes that are another's first cousins shifted are read from its
    // values (0.45 from 0.177): their published periods are checked above
    // all the same.
    let derived = rows.iter().filter(|row| row.get("computed_as").is_some()).count();
    assert!(derived >= 10, "{derived} rows read from another code's values");
    let row_45 = rows.iter().find(|row| row["code"] == "0.45").expect("0.45 is in the table");
    assert_eq!(row_45["computed_as"], "0.177", "{row_45}");
    // 0.16's proof (509,622 values) is kept for analysis; Kayles' is not.
    let proofs = data.path().join("bouton").join("proofs");
    assert!(proofs.join("0.16.proof").exists());
    assert!(!proofs.join("0.77.proof").exists());
}

#[test]
fn a_range_lists_every_code_between_its_ends_in_order() {
    let out = bouton(&["grundy", "--survey", "0.5..0.57", "--upto", "2000", "--json"]).run();
    out.assert_clean_success();
    let rows: Vec<serde_json::Value> = serde_json::from_str(&out.stdout).unwrap();
    let codes: Vec<&str> = rows.iter().map(|r| r["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["0.5", "0.51", "0.52", "0.53", "0.54", "0.55", "0.56", "0.57"]);
    // 0.56 is periodic only from 326,640: unsolved to 2,000, said so.
    let text = bouton(&["grundy", "--survey", "0.5..0.57", "--upto", "2000"]).run();
    text.assert_clean_success();
    assert!(text.stdout.lines().any(|l| l.starts_with("0.56 ") && l.contains("unsolved to 2000")), "{}", text.stdout);
    assert!(text.stdout.contains("8 games: 7 proved periodic, 0 apparently periodic, 1 unsolved"), "{}", text.stdout);
}

/// A small survey within `work` operations per game, as text.
fn stopped_by_work(work: &str) -> String {
    // Generous: the runs share the cores on purpose.
    let out = bouton(&["grundy", "--survey", "0.6,0.104,0.16,0.77", "--upto", "1000000", "--work-per-game", work])
        .timeout(std::time::Duration::from_secs(180))
        .run();
    out.assert_clean_success();
    out.stdout
}

#[test]
fn a_game_past_its_work_budget_stops_at_the_same_n_on_a_busy_machine() {
    let quiet = stopped_by_work("200000000");
    // 0.6 and 0.104 cost more than 2·10^8 operations before 10^6; 0.16 and
    // Kayles prove their periods well within it.
    for code in ["0.6 ", "0.104 "] {
        let line = quiet.lines().find(|l| l.starts_with(code)).unwrap_or_else(|| panic!("{code}\n{quiet}"));
        assert!(line.contains("unsolved: work budget spent at n = "), "{quiet}");
    }
    for code in ["0.16 ", "0.77 "] {
        let line = quiet.lines().find(|l| l.starts_with(code)).unwrap_or_else(|| panic!("{code}\n{quiet}"));
        assert!(line.contains("proved"), "{quiet}");
    }
    assert!(quiet.contains("4 games: 2 proved periodic, 0 apparently periodic, 2 unsolved"), "{quiet}");
    assert!(quiet.contains("within 2.0e8 operations"), "{quiet}");
    // The same survey three times at once, with three copies of a heavier one
    // keeping both cores busy: every table is the same, to the byte.
    let busy: Vec<String> = std::thread::scope(|scope| {
        let load: Vec<_> = (0..3).map(|_| scope.spawn(|| stopped_by_work("600000000"))).collect();
        let runs: Vec<_> = (0..3).map(|_| scope.spawn(|| stopped_by_work("200000000"))).collect();
        let tables = runs.into_iter().map(|run| run.join().expect("a survey")).collect();
        for run in load {
            run.join().expect("a loading survey");
        }
        tables
    });
    for table in busy {
        assert_eq!(table, quiet, "a survey on a busy machine");
    }
}

#[test]
fn the_time_limit_is_a_safety_net_and_says_so() {
    // Grundy's game's relatives take time: with all the work it wants, one
    // second is not enough for 0.6 to 10^7, and the table says the row
    // depends on the machine.
    let out = bouton(&[
        "grundy",
        "--survey",
        "0.6",
        "--upto",
        "10000000",
        "--work-per-game",
        "1000000000000000",
        "--seconds-per-game",
        "1",
    ])
    .run();
    out.assert_clean_success();
    assert!(out.stdout.contains("unsolved: time up at n = "), "{}", out.stdout);
    assert!(out.stdout.contains("1 stopped by the safety net of 1 s per game"), "{}", out.stdout);
    // The operations spent are in the JSON: those of the game computed (0.6
    // is read from its standard form 0.37's values, which cost them).
    let json = bouton(&["grundy", "--survey", "0.37,0.6", "--upto", "1000", "--json"]).run();
    json.assert_clean_success();
    let rows: Vec<serde_json::Value> = serde_json::from_str(&json.stdout).expect("JSON");
    assert!(rows[0]["operations"].as_u64().is_some_and(|ops| ops > 1000), "{}", json.stdout);
    assert_eq!(rows[1]["computed_as"], "0.37", "{}", json.stdout);
    assert_eq!(rows[1]["operations"], 0, "{}", json.stdout);
}

#[test]
fn bad_surveys_are_one_line_errors() {
    for (spec, words) in [
        ("0.7..0.1", &["empty"][..]),
        ("0.1..0.8", &["0.8", "octal code"][..]),
        ("1.1..1.7", &["1.1", "d0 is 0 or 4"][..]),
        ("0.1..0.77777", &["at most 4 digits"][..]),
        ("0.16,0.x", &["0.x"][..]),
    ] {
        bouton(&["grundy", "--survey", spec]).run().assert_one_line_error(2, words);
    }
    bouton(&["grundy", "--survey", "0.16", "--work-per-game", "0"]).run().assert_one_line_error(2, &["work-per-game"]);
    bouton(&["grundy", "0.77", "--survey", "0.1..0.7"]).run().assert_code(2);
    bouton(&["grundy"]).run().assert_code(2);
}
