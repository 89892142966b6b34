//! `save FILE` in a game and `bouton play --load FILE`.

use std::path::Path;

use serde_json::{Value, json};

use crate::util::{Output, TempDir, boards_in, bouton, moves_in, play, results_in, sizes_on};

/// `bouton play --plain --delay 0 --load FILE` with `input`.
fn load(path: &Path, input: &str) -> Output {
    bouton(&["play", "--plain", "--delay", "0", "--seed", "1", "--load"]).arg_path(path).stdin(input).run()
}

/// A valid save file's JSON, to be spoilt by the tests.
fn valid_save() -> Value {
    json!({
        "format": "bouton-save",
        "version": 2,
        "convention": "normal",
        "start": [3, 5, 7],
        "moves": ["3:1", "3:1"],
        "seats": ["you", {"computer": "hard"}]
    })
}

#[test]
fn save_then_load_resumes_the_same_position() {
    let dir = TempDir::new();
    let file = dir.join("game.json");
    let file_text = file.display().to_string();
    let out = play(&["--first", "human"], &format!("3 1\nsave {file_text}\nquit\n"));
    out.assert_clean_success();
    assert!(out.stdout.contains(&format!("Saved to {file_text}.")), "{out}");
    assert!(out.stdout.contains(&format!("bouton play --load {file_text}")), "{out}");
    let saved_board = boards_in(&out.stdout).pop().expect("a board");
    let computer_reply = moves_in(&out.stdout)[1].clone();

    // The file is the documented JSON document.
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).expect("the save file")).expect("JSON");
    assert_eq!(saved["format"], "bouton-save");
    assert_eq!(saved["version"], 2);
    assert_eq!(saved["convention"], "normal");
    assert_eq!(saved["start"], json!([3, 5, 7]));
    assert_eq!(
        saved["moves"],
        json!(["3:1", format!("{}:{}", computer_reply.heap, computer_reply.take)]),
        "both moves are saved"
    );
    assert_eq!(saved["seats"], json!(["you", {"computer": "hard"}]));

    let resumed = load(&file, "hint\nquit\n");
    resumed.assert_clean_success();
    assert!(resumed.stdout.starts_with(&format!("Resuming the game saved in {file_text}.")), "{resumed}");
    assert!(resumed.stdout.contains("Moving first: you; second: the computer (hard)."), "{resumed}");
    assert!(!resumed.stdout.contains("Who moves first?"), "{resumed}");
    let boards = boards_in(&resumed.stdout);
    assert_eq!(boards[0], saved_board, "the same position, the same last move\n{resumed}");
    assert!(resumed.stdout.contains("Your turn."), "{resumed}");
    assert!(resumed.stdout.contains("Your move: "), "{resumed}");
}

#[test]
fn loaded_game_plays_on_and_can_be_undone() {
    let dir = TempDir::new();
    let file = dir.join("game.json");
    let out = play(&["--first", "human"], &format!("3 1\nsave {}\nquit\n", file.display()));
    out.assert_clean_success();
    // Undo reaches back into the moves played before saving.
    let resumed = load(&file, "undo\nquit\n");
    resumed.assert_clean_success();
    assert!(resumed.stdout.contains("Taken back: I took "), "{resumed}");
    assert_eq!(sizes_on(boards_in(&resumed.stdout).last().expect("board")), [3, 5, 7], "{resumed}");
}

#[test]
fn misere_human_game_with_spaces_in_the_name() {
    let dir = TempDir::new();
    let file = dir.join("my misère game.json");
    let out = play(&["--mode", "human-human", "--misere", "3", "1"], &format!("1 2\nsave {}\nquit\n", file.display()));
    out.assert_clean_success();
    assert!(file.exists(), "the file name keeps its spaces\n{out}");
    // Player 2 is to move at 1 1; finish the game after loading.
    let resumed = load(&file, "2 1\n1 1\nn\n");
    resumed.assert_clean_success();
    assert!(resumed.stdout.contains("Nim, misère play"), "{resumed}");
    assert!(resumed.stdout.contains("Moving first: Player 1; second: Player 2."), "{resumed}");
    assert_eq!(sizes_on(&boards_in(&resumed.stdout)[0]), [1, 1]);
    assert!(resumed.stdout.contains("Player 2, your move: Player 2 takes 1 from heap 2."), "{resumed}");
    let results = results_in(&resumed.stdout);
    assert_eq!(results.len(), 1, "{resumed}");
    assert_eq!(results[0].took_last, "Player 1");
    assert_eq!(results[0].winner, "Player 2", "misère: taking the last token loses");
}

#[test]
fn saving_where_it_cannot_write_is_one_line_and_the_game_goes_on() {
    let dir = TempDir::new();
    let file = dir.join("missing-directory").join("game.json");
    let out = play(&["--first", "human"], &format!("save {}\n3 1\nquit\n", file.display()));
    out.assert_clean_success();
    let reply = out.stdout.split("Your move: ").nth(1).expect("a reply");
    assert!(reply.starts_with(&format!("could not save to {}", file.display())), "{reply}");
    assert_eq!(reply.matches('\n').count(), 1, "{reply}");
    assert!(out.stdout.contains("You take 1 from heap 3."), "{out}");
    // `save` alone asks for a name.
    let out = play(&["--first", "human"], "save\nquit\n");
    assert!(out.stdout.contains("save needs a file name"), "{out}");
}

/// Loading `contents` fails with `code` and one line naming the file and
/// mentioning `words`.
#[track_caller]
fn refused(contents: &str, code: i32, words: &[&str]) {
    let dir = TempDir::new();
    let file = dir.write("save.json", contents);
    let out = load(&file, "quit\n");
    let name = file.display().to_string();
    let mut all = vec![name.as_str()];
    all.extend_from_slice(words);
    out.assert_one_line_error(code, &all);
    assert_eq!(out.stdout, "", "no game starts\n{out}");
}

#[test]
fn corrupt_file_is_refused() {
    refused("this is not JSON", 1, &["not a valid bouton save file", "not JSON"]);
    refused("", 1, &["not JSON"]);
    refused("{\"format\": \"bouton-save\", \"version\": 1,", 1, &["not JSON"]);
}

#[test]
fn foreign_json_is_refused() {
    refused("{\"name\": \"something else\"}", 1, &["\"format\""]);
    refused("[3, 5, 7]", 1, &["\"format\""]);
    refused("{\"format\": \"chess-save\", \"version\": 1}", 1, &["\"format\""]);
}

#[test]
fn wrong_version_is_refused() {
    let mut save = valid_save();
    save["version"] = json!(3);
    refused(&save.to_string(), 1, &["version 3", "versions 1 to 2"]);
    save["version"] = json!("one");
    refused(&save.to_string(), 1, &["version"]);
    save.as_object_mut().expect("object").remove("version");
    refused(&save.to_string(), 1, &["version"]);
}

#[test]
fn illegal_move_is_refused() {
    let mut save = valid_save();
    save["moves"] = json!(["3:1", "3:9"]);
    refused(&save.to_string(), 1, &["move 2", "holds only 6"]);
    save["moves"] = json!(["4:1"]);
    refused(&save.to_string(), 1, &["move 1", "no heap 4"]);
    save["moves"] = json!(["3:0"]);
    refused(&save.to_string(), 1, &["move 1"]);
    save["moves"] = json!(["nonsense"]);
    refused(&save.to_string(), 1, &[]);
}

#[test]
fn other_damage_is_refused() {
    let mut save = valid_save();
    save["seats"] = json!(["you", {"computer": "grandmaster"}]);
    refused(&save.to_string(), 1, &["grandmaster"]);
    save["seats"] = json!([{"player": 3}, {"player": 1}]);
    refused(&save.to_string(), 1, &["player 3"]);
    let mut save = valid_save();
    save["convention"] = json!("sideways");
    refused(&save.to_string(), 1, &[]);
    let mut save = valid_save();
    save["extra"] = json!(true);
    refused(&save.to_string(), 1, &["extra"]);
    let mut save = valid_save();
    save["start"] = json!((1..=33).collect::<Vec<u64>>());
    save["moves"] = json!([]);
    refused(&save.to_string(), 1, &["33 heaps", "32"]);
}

#[test]
fn finished_game_is_refused() {
    let mut save = valid_save();
    save["start"] = json!([1, 1]);
    save["moves"] = json!(["1:1", "2:1"]);
    refused(&save.to_string(), 1, &["already over"]);
}

#[test]
fn missing_file_is_refused() {
    let dir = TempDir::new();
    let file = dir.join("no-such-save.json");
    let out = load(&file, "");
    out.assert_one_line_error(1, &[&file.display().to_string(), "cannot read"]);
}

#[test]
fn load_conflicts_with_a_new_start() {
    let dir = TempDir::new();
    let file = dir.write("save.json", &valid_save().to_string());
    let out = bouton(&["play", "--load"]).arg_path(&file).args(&["3", "4"]).run();
    out.assert_code(2);
    let out = bouton(&["play", "--misere", "--load"]).arg_path(&file).run();
    out.assert_code(2);
    // The hand-written document itself loads.
    let out = load(&file, "quit\n");
    out.assert_clean_success();
    assert_eq!(sizes_on(&boards_in(&out.stdout)[0]), [3, 5, 5]);
}

/// A version 1 file, which named people as the game showed them, is read,
/// plays on, and is saved again as version 2 with the seats as types.
#[test]
fn a_version_1_file_is_read_and_saved_as_version_2() {
    let dir = TempDir::new();
    let old = dir.join("old.json");
    let mut v1 = valid_save();
    v1["version"] = json!(1);
    v1["seats"] = json!([{"human": "Player 1"}, {"human": "Player 2"}]);
    std::fs::write(&old, v1.to_string()).expect("written");
    let new = dir.join("new.json");
    let resumed = load(&old, &format!("save {}\nquit\n", new.display()));
    resumed.assert_clean_success();
    assert!(resumed.stdout.contains("Moving first: Player 1; second: Player 2."), "{resumed}");
    assert!(resumed.stdout.contains("Player 1, your move: "), "{resumed}");
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&new).expect("the new file")).expect("JSON");
    assert_eq!(saved["version"], 2);
    assert_eq!(saved["seats"], json!([{"player": 1}, {"player": 2}]));
    assert_eq!(saved["moves"], v1["moves"]);
    v1["seats"] = json!([{"human": "Bob"}, {"computer": "hard"}]);
    std::fs::write(&old, v1.to_string()).expect("written");
    let refused = load(&old, "quit\n");
    assert!(refused.stderr.contains("\"Bob\" is not a seat"), "{refused}");
}

#[test]
fn level_given_with_load_replaces_the_saved_one() {
    let dir = TempDir::new();
    let file = dir.write("game.json", &valid_save().to_string());
    let kept = load(&file, "quit\n");
    kept.assert_clean_success();
    assert!(kept.stdout.contains("second: the computer (hard)."), "{kept}");
    let out = bouton(&["play", "--plain", "--delay", "0", "--level", "perfect", "--load"])
        .arg_path(&file)
        .stdin("quit\n")
        .run();
    out.assert_clean_success();
    assert!(out.stdout.contains("second: the computer (perfect)."), "{out}");
    // Computer against computer: --second-level for the second one.
    let mut both = valid_save();
    both["seats"] = json!([{"computer": "easy"}, {"computer": "easy"}]);
    let file = dir.write("both.json", &both.to_string());
    let out = bouton(&["play", "--plain", "--delay", "0", "--level", "random", "--second-level", "perfect", "--load"])
        .arg_path(&file)
        .run();
    out.assert_clean_success();
    assert!(out.stdout.contains("Moving first: Computer 1 (random); second: Computer 2 (perfect)."), "{out}");
}

#[test]
fn saving_over_a_file_asks_first_and_names_it_for_the_shell() {
    let dir = TempDir::new();
    let file = dir.write("my game.json", "precious");
    let name = file.display().to_string();
    let out = play(&["--first", "human"], &format!("save {name}\nn\nquit\n"));
    out.assert_clean_success();
    assert!(out.stdout.contains(&format!("{name} already exists. Replace it? [y/n]: ")), "{out}");
    assert!(out.stdout.contains("Not saved."), "{out}");
    assert_eq!(std::fs::read_to_string(&file).expect("the file"), "precious");
    let out = play(&["--first", "human"], &format!("save {name}\ny\nquit\n"));
    out.assert_clean_success();
    assert!(out.stdout.contains(&format!("Resume with `bouton play --load '{name}'`.")), "{out}");
    assert!(std::fs::read_to_string(&file).expect("the file").contains("bouton-save"));
}
