//! `bouton play` through standard input: whole games, commands, bad input.

use crate::util::{Output, boards_in, bouton, has_ansi, has_drawing, moves_in, play, referee, results_in, sizes_on};

/// Plays every input line in order and checks the game's one result line
/// against a replay of the transcript's moves.
#[track_caller]
fn check_single_game(out: &Output, start: &[u64], misere: bool, seats: [&str; 2]) -> String {
    out.assert_clean_success();
    let moves = moves_in(&out.stdout);
    let expected = referee(start, misere, seats, &moves);
    let results = results_in(&out.stdout);
    assert_eq!(results.len(), 1, "one result line\n{out}");
    let last = moves.last().expect("moves").by.clone();
    assert_eq!(results[0].took_last, last, "the result names who took the last token\n{out}");
    assert_eq!(results[0].winner, expected, "the result names the winner the rules give\n{out}");
    expected
}

/// Lines a scripted human types: for each heap in turn, try to take 1.
/// Moves from empty heaps are refused with a message and the next line tried,
/// so the script plays legal moves whatever the position.
fn greedy_script(heaps: usize, rounds: usize) -> String {
    (0..rounds).flat_map(|_| (1..=heaps).map(|h| format!("{h} 1\n"))).collect()
}

#[test]
fn forced_normal_game_human_takes_last_and_wins() {
    let out = play(&["--first", "human", "2"], "1 2\n");
    let winner = check_single_game(&out, &[2], false, ["You", "I"]);
    assert_eq!(winner, "You");
    assert!(out.stdout.contains("You took the last token. You win!"), "{out}");
    // The game asks for a rematch; end of input declines it.
    assert!(out.stdout.contains("Play again from the same start? [y/n]: "), "{out}");
    assert!(out.stdout.trim_end().ends_with("Thanks for playing."), "{out}");
}

#[test]
fn forced_misere_game_taking_last_loses() {
    // Heap of 2 in misère: you take 1, the computer must take the last one.
    let out = play(&["--first", "human", "--misere", "2"], "1 1\nn\n");
    let winner = check_single_game(&out, &[2], true, ["You", "I"]);
    assert_eq!(winner, "You");
    assert!(out.stdout.contains("I took the last token, and in misère play that loses. You win!"), "{out}");
    // Take both and you lose.
    let out = play(&["--first", "human", "--misere", "2"], "1 2\nn\n");
    let winner = check_single_game(&out, &[2], true, ["You", "I"]);
    assert_eq!(winner, "I");
    assert!(out.stdout.contains("You took the last token, and in misère play that loses. I win."), "{out}");
}

#[test]
fn computer_first_via_mode() {
    // 1 1: whoever moves second takes the last token.
    let out = play(&["--mode", "computer-human", "1", "1"], "1 1\n2 1\nn\n");
    let winner = check_single_game(&out, &[1, 1], false, ["I", "You"]);
    assert_eq!(winner, "You");
    assert!(out.stdout.contains("Moving first: the computer"), "{out}");
    assert!(!out.stdout.contains("Who moves first?"), "--mode does not ask\n{out}");
}

#[test]
fn computer_first_via_first_misere() {
    // Misère 1 1: the mover wins by taking one, so the computer wins.
    let out = play(&["--first", "computer", "--misere", "--level", "perfect", "1", "1"], "1 1\n2 1\nn\n");
    let winner = check_single_game(&out, &[1, 1], true, ["I", "You"]);
    assert_eq!(winner, "I");
}

#[test]
fn human_against_human() {
    let out = play(&["--mode", "human-human", "3", "1"], "1 2\n2 1\n1 1\nn\n");
    let winner = check_single_game(&out, &[3, 1], false, ["Player 1", "Player 2"]);
    assert_eq!(winner, "Player 1");
    assert!(out.stdout.contains("Player 1, your move: "), "{out}");
    assert!(out.stdout.contains("Player 2, your move: "), "{out}");
    assert!(out.stdout.contains("Player 1 wins!"), "{out}");

    let out = play(&["--mode", "human-human", "--misere", "3", "1"], "1 2\n2 1\n1 1\nn\n");
    let winner = check_single_game(&out, &[3, 1], true, ["Player 1", "Player 2"]);
    assert_eq!(winner, "Player 2");
}

#[test]
fn computer_against_computer_reports_the_right_winner() {
    for misere in [false, true] {
        for seed in 1..=6 {
            let seed = seed.to_string();
            let mut args = vec![
                "play",
                "--plain",
                "--delay",
                "0",
                "--seed",
                &seed,
                "--mode",
                "computer-computer",
                "--level",
                "random",
                "--second-level",
                "easy",
                "3",
                "5",
                "7",
            ];
            if misere {
                args.push("--misere");
            }
            let out = bouton(&args).run();
            check_single_game(&out, &[3, 5, 7], misere, ["Computer 1", "Computer 2"]);
            assert!(out.stdout.contains("Moving first: Computer 1 (random); second: Computer 2 (easy)."), "{out}");
            assert!(!out.stdout.contains("Play again"), "no rematch question without a person\n{out}");
            assert!(!out.stdout.contains("Type a move"), "no typing instructions without a person\n{out}");
        }
    }
}

#[test]
fn computer_against_computer_is_reproducible() {
    let args = ["play", "--plain", "--delay", "0", "--seed", "42", "--mode", "computer-computer", "--level", "medium"];
    let a = bouton(&args).args(&["4", "6", "9"]).run();
    let b = bouton(&args).args(&["4", "6", "9"]).run();
    a.assert_clean_success();
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn perfect_computer_wins_from_a_won_start() {
    // 3 5 7 has nim-sum 1: the first player wins with perfect play.
    let script = greedy_script(3, 20);
    let out = play(&["--first", "computer", "--level", "perfect", "3", "5", "7"], &script);
    let winner = check_single_game(&out, &[3, 5, 7], false, ["I", "You"]);
    assert_eq!(winner, "I");
    // 1 2 3 has nim-sum 0: whoever moves first loses.
    let out = play(&["--first", "human", "--level", "perfect", "1", "2", "3"], &script);
    let winner = check_single_game(&out, &[1, 2, 3], false, ["You", "I"]);
    assert_eq!(winner, "I");
    // Misère too.
    let out = play(&["--first", "computer", "--level", "perfect", "--misere", "3", "5", "7"], &script);
    let winner = check_single_game(&out, &[3, 5, 7], true, ["I", "You"]);
    assert_eq!(winner, "I");
}

/// The message printed after each prompt, one per input line.
fn replies(out: &Output, prompt: &str) -> Vec<String> {
    out.stdout.split(prompt).skip(1).map(str::to_owned).collect()
}

#[test]
fn every_bad_input_gets_one_line_and_the_game_goes_on() {
    let cases: [(&str, &str); 14] = [
        ("3 x", "not a number"),
        ("1.5 1", "not a number"),
        ("-1 2", "negative"),
        ("1 -2", "negative"),
        ("4 1", "no heap 4"),
        ("0 1", "no heap 0"),
        ("1 1", "is empty"),
        ("2 0", "at least one"),
        ("2 9", "holds only 5"),
        ("99999999999999999999 1", "too large"),
        ("2 1 1", "too many numbers"),
        ("2", "only one number"),
        ("dance", "unknown command"),
        ("hint me", "takes nothing"),
    ];
    let mut input: String = cases.iter().map(|(line, _)| format!("{line}\n")).collect();
    input.push_str("2 1\nquit\n");
    let out = play(&["--first", "human", "0", "5", "7"], &input);
    out.assert_clean_success();
    let replies = replies(&out, "Your move: ");
    for (index, (line, expected)) in cases.iter().enumerate() {
        let reply = &replies[index];
        assert_eq!(reply.matches('\n').count(), 1, "{line:?} gets exactly one line, got {reply:?}\n{out}");
        assert!(reply.contains(expected), "{line:?} should get a message with {expected:?}, got {reply:?}");
    }
    // After all that, a legal move is still accepted.
    assert!(replies[cases.len()].starts_with("You take 1 from heap 2."), "{out}");
    assert!(out.stdout.contains("You left the game."), "{out}");
    // The board before the move is the start: nothing was played by mistake.
    assert_eq!(sizes_on(&boards_in(&out.stdout)[0]), [0, 5, 7]);
    assert_eq!(sizes_on(&boards_in(&out.stdout)[1]), [0, 4, 7]);
}

#[test]
fn empty_line_just_asks_again() {
    let out = play(&["--first", "human"], "\n   \nquit\n");
    out.assert_clean_success();
    assert!(out.stdout.contains("Your move: Your move: Your move: You left the game."), "{out}");
}

#[test]
fn help_lists_the_commands() {
    let out = play(&["--first", "human"], "help\nquit\n");
    out.assert_clean_success();
    let reply = &replies(&out, "Your move: ")[0];
    assert!(reply.contains("Rules: Nim, normal play: take one or more tokens from a single heap"), "{reply}");
    for command in ["HEAP AMOUNT", "hint", "explain", "moves", "undo", "save FILE", "help", "quit"] {
        assert!(reply.contains(command), "help mentions {command}: {reply}");
    }
    let out = play(&["--first", "human", "--misere"], "?\nquit\n");
    assert!(
        out.stdout.contains(
            "Rules: Nim, misère play: take one or more tokens from a single heap; whoever takes the last token loses."
        ),
        "{out}"
    );
}

#[test]
fn hint_in_winning_and_losing_positions() {
    let out = play(&["--first", "human", "1", "5", "4", "2"], "hint\nquit\n");
    out.assert_clean_success();
    let reply = &replies(&out, "Your move: ")[0];
    assert!(reply.starts_with("You can win: take 2 from heap 4"), "{reply}");
    assert!(reply.contains("nim-sum 0") && reply.contains("only winning move"), "{reply}");

    let out = play(&["--first", "human", "3", "5", "7"], "hint\nquit\n");
    let reply = &replies(&out, "Your move: ")[0];
    assert!(reply.contains("You can win") && reply.contains("There are 3 winning moves."), "{reply}");

    let out = play(&["--first", "human", "2", "2", "10", "10"], "hint\nquit\n");
    let reply = &replies(&out, "Your move: ")[0];
    assert!(reply.starts_with("Against perfect play you lose"), "{reply}");
    assert!(reply.contains("Best try"), "{reply}");

    let out = play(&["--first", "human", "--misere", "1", "1", "1"], "hint\nquit\n");
    let reply = &replies(&out, "Your move: ")[0];
    assert!(reply.starts_with("Against perfect play you lose"), "{reply}");
    assert!(reply.contains("odd number of heaps of 1"), "{reply}");

    let out = play(&["--first", "human", "--misere", "5", "1"], "hint\nquit\n");
    let reply = &replies(&out, "Your move: ")[0];
    assert!(reply.starts_with("You can win: take 5 from heap 1"), "{reply}");
    assert!(reply.contains("odd number of heaps of 1"), "{reply}");
    // A hint is not a move.
    assert_eq!(boards_in(&out.stdout).len(), 1, "{out}");
}

#[test]
fn explain_shows_the_table() {
    let out = play(&["--first", "human", "1", "5", "4", "2"], "explain\nquit\n");
    out.assert_clean_success();
    let reply = &replies(&out, "Your move: ")[0];
    assert!(reply.contains("4s  2s  1s"), "{reply}");
    assert!(reply.contains("heap 4    0   1   0  = 2"), "{reply}");
    let lines: Vec<&str> = reply.lines().collect();
    let odd = lines.iter().find(|l| l.trim() == "odd").expect("one odd column marked");
    let header = lines.iter().find(|l| l.contains("4s  2s  1s")).expect("header");
    assert_eq!(odd.find("odd").map(|i| i + 3), header.find("2s").map(|i| i + 2), "odd under 2s: {reply}");
    assert!(reply.contains("take 2 from heap 4"), "{reply}");
}

#[test]
fn explain_mentions_the_misere_endgame_rule() {
    let out = play(&["--first", "human", "--misere", "5", "1"], "explain\nquit\n");
    out.assert_clean_success();
    let reply = &replies(&out, "Your move: ")[0];
    assert!(reply.contains("odd"), "{reply}");
    assert!(reply.contains("misère"), "{reply}");
    assert!(reply.contains("endgame rule"), "{reply}");
    assert!(reply.contains("take 5 from heap 1"), "{reply}");
}

#[test]
fn moves_marks_the_winning_move_not_nim_sum_zero_in_the_misere_endgame() {
    // Misère 1 1: taking either single leaves nim-sum 1 and wins; nothing leaves 0.
    let out = play(&["--first", "human", "--misere", "1", "1"], "moves\nquit\n");
    let reply = &replies(&out, "Your move: ")[0];
    let lines: Vec<&str> = reply.lines().collect();
    let at = lines.iter().position(|l| l.contains("Heap 1 (1):")).expect("heap 1");
    assert_eq!(lines[at + 2].split_whitespace().collect::<Vec<_>>(), ["nim-sum", "1*"]);
}

#[test]
fn hint_with_only_the_last_token_left_in_misere() {
    let out = play(&["--first", "human", "--misere", "1"], "hint\nquit\n");
    let reply = &replies(&out, "Your move: ")[0];
    assert!(reply.contains("You must take 1 from heap 1, the last token, and in misère play that loses."), "{reply}");
}

#[test]
fn moves_lists_every_move_with_its_nim_sum() {
    let out = play(&["--first", "human", "3", "5", "20"], "moves\nquit\n");
    out.assert_clean_success();
    let reply = &replies(&out, "Your move: ")[0];
    assert!(reply.contains("(now 18); * marks a winning move"), "{reply}");
    assert!(reply.contains("Heap 1 (3):"), "{reply}");
    // Heap 1 (3): takes 1..3 leave 3^5^20 with heap 1 reduced.
    let lines: Vec<&str> = reply.lines().collect();
    let at = lines.iter().position(|l| l.contains("Heap 1 (3):")).expect("heap 1");
    assert_eq!(lines[at + 1].split_whitespace().collect::<Vec<_>>(), ["take", "1", "2", "3"]);
    let sums: Vec<String> = (1..=3u64).map(|t| ((3 - t) ^ 5 ^ 20).to_string()).collect();
    let mut expected = vec!["nim-sum".to_owned()];
    expected.extend(sums);
    assert_eq!(lines[at + 2].split_whitespace().collect::<Vec<_>>(), expected);
    // Big heaps are shortened, naming the winning take beyond the list.
    assert!(reply.contains("... and 8 more takes, up to 20; taking 14 wins"), "{reply}");
}

#[test]
fn undo_against_the_computer_takes_back_two_moves() {
    let out = play(&["--first", "human"], "undo\n3 1\nundo\nquit\n");
    out.assert_clean_success();
    let replies = replies(&out, "Your move: ");
    assert!(replies[0].starts_with("nothing to undo"), "{}", replies[0]);
    assert_eq!(replies[0].matches('\n').count(), 1);
    assert!(replies[1].starts_with("You take 1 from heap 3."), "{}", replies[1]);
    let taken_back = &replies[2];
    assert!(taken_back.starts_with("Taken back: I took "), "{taken_back}");
    assert!(taken_back.contains("; you took 1 from heap 3."), "{taken_back}");
    let boards = boards_in(&out.stdout);
    assert_eq!(boards.len(), 4, "{out}");
    assert_eq!(sizes_on(&boards[0]), [3, 5, 7]);
    assert_eq!(sizes_on(&boards[3]), [3, 5, 7], "undo goes back to the start\n{out}");
    assert_eq!(boards[3], boards[0]);
}

#[test]
fn undo_when_the_computer_moved_first() {
    let out = play(&["--first", "computer"], "undo\nquit\n");
    out.assert_clean_success();
    assert!(replies(&out, "Your move: ")[0].starts_with("nothing to undo"), "{out}");
}

#[test]
fn undo_between_people_takes_back_one_move() {
    let out = play(&["--mode", "human-human", "2", "2"], "1 1\nundo\ny\nquit\n");
    out.assert_clean_success();
    assert!(out.stdout.contains("Taken back: Player 1 took 1 from heap 1."), "{out}");
    let boards = boards_in(&out.stdout);
    assert_eq!(sizes_on(boards.last().expect("board")), [2, 2]);
    assert!(out.stdout.trim_end().ends_with("Player 1, your move: You left the game."), "{out}");
}

#[test]
fn quit_leaves_cleanly() {
    for word in ["quit", "q", "exit", "QUIT"] {
        let out = play(&["--first", "human"], &format!("{word}\n3 1\n"));
        out.assert_clean_success();
        assert!(out.stdout.trim_end().ends_with("You left the game."), "{word}: {out}");
        assert!(!out.stdout.contains("You take"), "nothing after quit is read\n{out}");
    }
}

#[test]
fn end_of_input_leaves_cleanly() {
    let out = play(&["--first", "human"], "3 1\n");
    out.assert_clean_success();
    assert!(out.stdout.ends_with("Your move: \nEnd of input: leaving the game.\n"), "{out}");
    // Without a final newline, the last line still counts.
    let out = play(&["--first", "human"], "3 1");
    out.assert_clean_success();
    assert!(out.stdout.contains("You take 1 from heap 3."), "{out}");
}

#[test]
fn who_moves_first_is_asked() {
    let question = "Who moves first? [1] you, [2] the computer, [r] random (default 1): ";
    let out = play(&[], "2\nquit\n");
    out.assert_clean_success();
    // The rules and the heaps come first, so the question can be answered
    // knowing the position.
    let intro = "Nim, normal play: take one or more tokens from a single heap; whoever takes the last token wins.\n\
                 Heaps: 3 5 7 (15 tokens in all).\n";
    assert!(out.stdout.starts_with(&format!("{intro}{question}")), "{out}");
    assert!(out.stdout.contains("Moving first: the computer (hard); second: you."), "{out}");
    let moves = moves_in(&out.stdout);
    assert_eq!(moves.first().map(|m| m.by.as_str()), Some("I"), "the computer moved first\n{out}");

    let out = play(&[], "1\nquit\n");
    assert!(out.stdout.contains("Moving first: you; second: the computer (hard)."), "{out}");
    assert!(moves_in(&out.stdout).is_empty(), "{out}");

    // An empty answer is the default, you.
    let out = play(&[], "\nquit\n");
    assert!(out.stdout.contains("Moving first: you;"), "{out}");

    // A bad answer re-asks, with a one-line complaint.
    let out = play(&[], "3\nmaybe\n2\nquit\n");
    out.assert_clean_success();
    assert_eq!(out.stdout.matches(question).count(), 3, "{out}");
    let replies = replies(&out, question);
    assert_eq!(replies[0], "\"3\" is not a choice: type 1, 2 or r (or quit)\n");
    assert_eq!(replies[1], "\"maybe\" is not a choice: type 1, 2 or r (or quit)\n");
    assert!(out.stdout.contains("Moving first: the computer"), "{out}");

    // End of input at the question leaves without a game.
    let out = play(&[], "");
    out.assert_clean_success();
    assert_eq!(out.stdout, format!("{intro}{question}\n"));
    assert!(boards_in(&out.stdout).is_empty(), "{out}");
}

#[test]
fn random_first_is_reproducible() {
    let play = |args: &[&str], input: &str| bouton(&["play", "--plain", "--delay", "0"]).args(args).stdin(input).run();
    let a = play(&["--first", "random", "--seed", "9"], "quit\n");
    let b = play(&["--first", "random", "--seed", "9"], "quit\n");
    a.assert_clean_success();
    assert_eq!(a.stdout, b.stdout);
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 1..=12 {
        let out = play(&["--first", "random", "--seed", &seed.to_string()], "quit\n");
        let line = out.stdout.lines().find(|l| l.starts_with("Moving first:")).expect("who moves first").to_owned();
        firsts.insert(line);
    }
    assert_eq!(firsts.len(), 2, "the coin falls both ways over 12 seeds: {firsts:?}");
}

#[test]
fn rematch_starts_again_from_the_same_heaps() {
    let out = play(&["--first", "human", "--level", "perfect", "4", "1"], "1 4\ny\n2 1\nno\n");
    out.assert_clean_success();
    let results = results_in(&out.stdout);
    assert_eq!(results.len(), 2, "two games\n{out}");
    let boards = boards_in(&out.stdout);
    let starts: Vec<&Vec<String>> = boards.iter().filter(|b| sizes_on(b) == [4, 1]).collect();
    assert_eq!(starts.len(), 2, "both games start from 4 1\n{out}");
    assert_eq!(out.stdout.matches("Nim, normal play").count(), 2, "the rules are introduced again\n{out}");
    assert_eq!(out.stdout.matches("Play again from the same start? [y/n]: ").count(), 2, "{out}");
    assert!(out.stdout.trim_end().ends_with("Thanks for playing."), "{out}");
    // Each game, replayed on its own, ends with the announced winner.
    let (first, second) = out.stdout.split_once("Play again").expect("the rematch question");
    let moves = moves_in(first);
    assert_eq!(referee(&[4, 1], false, ["You", "I"], &moves), results[0].winner);
    let moves = moves_in(second);
    assert_eq!(referee(&[4, 1], false, ["You", "I"], &moves), results[1].winner);
}

#[test]
fn all_empty_start_is_refused() {
    let out = play(&["0", "0"], "");
    out.assert_one_line_error(2, &["every heap is empty"]);
    assert_eq!(out.stdout, "", "no question is asked\n{out}");
}

#[test]
fn too_many_heaps_for_the_screen() {
    let heaps: Vec<String> = (1..=33).map(|h| h.to_string()).collect();
    let args: Vec<&str> = heaps.iter().map(String::as_str).collect();
    let out = play(&args, "");
    let line = out.assert_one_line_error(2, &["33 heaps", "32"]);
    assert!(line.contains("analyze"), "it points at analyze: {line}");
    assert_eq!(out.stdout, "");
    // 32 is fine.
    let out = play(&args[..32], "1\nquit\n");
    out.assert_clean_success();
    assert_eq!(sizes_on(&boards_in(&out.stdout)[0]).len(), 32);
}

#[test]
fn random_start_respects_count_and_max() {
    let out = play(&["--first", "human", "--random", "6", "--max", "4"], "quit\n");
    out.assert_clean_success();
    let sizes = sizes_on(&boards_in(&out.stdout)[0]);
    assert_eq!(sizes.len(), 6);
    assert!(sizes.iter().all(|s| (1..=4).contains(s)), "{sizes:?}");
    let again = play(&["--first", "human", "--random", "6", "--max", "4"], "quit\n");
    assert_eq!(out.stdout, again.stdout, "the same seed gives the same heaps");
}

#[test]
fn plain_output_has_no_escapes_and_no_drawing() {
    let input = "3 1\nhint\nexplain\nmoves\nhelp\nbogus\nundo\nquit\n";
    let plain = bouton(&["play", "--plain", "--delay", "0", "--seed", "1", "--first", "human"])
        .env("CLICOLOR_FORCE", "1")
        .stdin(input)
        .run();
    plain.assert_clean_success();
    assert!(!has_ansi(&plain.stdout), "{plain}");
    assert!(!has_drawing(&plain.stdout), "{plain}");
    assert!(plain.stdout.contains("Heap 3: 7 tokens"), "{plain}");
    assert!(plain.stdout.contains("(1 just taken)"), "the last move is marked in words\n{plain}");

    // Without --plain the board is drawn (colour only where wanted).
    let drawn = bouton(&["play", "--delay", "0", "--seed", "1", "--first", "human"]).stdin(input).run();
    drawn.assert_clean_success();
    assert!(has_drawing(&drawn.stdout), "{drawn}");
    assert!(!has_ansi(&drawn.stdout), "no colour into a pipe\n{drawn}");
    let forced = bouton(&["play", "--delay", "0", "--seed", "1", "--first", "human"])
        .env("CLICOLOR_FORCE", "1")
        .stdin(input)
        .run();
    assert!(has_ansi(&forced.stdout), "CLICOLOR_FORCE forces colour\n{forced}");
}

#[test]
fn no_color_is_honoured() {
    let input = "3 1\nhint\nexplain\nbogus\nquit\n";
    let out = bouton(&["play", "--delay", "0", "--seed", "1", "--first", "human"])
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .stdin(input)
        .run();
    out.assert_clean_success();
    assert!(!has_ansi(&out.stdout), "{out}");
    assert!(out.stdout.contains("You take 1 from heap 3."), "{out}");
}

#[test]
fn introduction_names_heaps_and_tokens() {
    let out = play(&["--first", "human", "2"], "quit\n");
    out.assert_clean_success();
    assert!(out.stdout.contains("\nHeaps: 2 (2 tokens in all).\n"), "{out}");
    let out = play(&["--first", "human", "--misere", "1", "0"], "quit\n");
    assert!(
        out.stdout.starts_with(
            "Nim, misère play: take one or more tokens from a single heap; whoever takes the last token loses.\n"
        ),
        "{out}"
    );
    assert!(out.stdout.contains("\nHeaps: 1 0 (1 token in all).\n"), "{out}");
}

#[test]
fn command_line_errors_exit_2() {
    let out = bouton(&["play", "--mode", "human-human", "--first", "human"]).run();
    out.assert_code(2);
    let out = bouton(&["play", "--level", "grandmaster"]).run();
    out.assert_code(2);
    assert!(out.stderr.contains("grandmaster"), "{out}");
    let out = bouton(&["play", "3", "x"]).run();
    out.assert_code(2);
    let out = bouton(&["--help"]).run();
    out.assert_clean_success();
    assert!(out.stdout.contains("Exit codes"), "{out}");
}

/// What `bouton play ARGS` prints for `input`, drawn (not `--plain`) to
/// `columns` columns (standard output is a pipe, so `COLUMNS` gives the
/// width).
fn drawn(columns: usize, args: &[&str], input: &str) -> Output {
    bouton(&["play", "--delay", "0", "--seed", "1"]).args(args).stdin(input).env("COLUMNS", &columns.to_string()).run()
}

/// The rows of the first board in `transcript`: (heap number, marks, count).
fn token_rows(transcript: &str) -> Vec<(usize, usize, u64)> {
    transcript
        .lines()
        .skip_while(|line| !line.starts_with('┌'))
        .skip(1)
        .take_while(|line| line.starts_with('│'))
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let heap = words[2].parse().expect("a heap number");
            let marks = line.chars().filter(|&c| c == '●' || c == '○').count();
            let count = words.last().expect("a count").parse().expect("the count ends the row");
            (heap, marks, count)
        })
        .collect()
}

#[test]
fn the_board_is_drawn_to_the_width_there_is() {
    let heaps: Vec<String> = (1..=32).map(|n| n.to_string()).collect();
    let mut args = vec!["--first", "human"];
    args.extend(heaps.iter().map(String::as_str));
    // Wide enough: one mark a token, so heap 21 looks larger than heap 20.
    let wide = drawn(200, &args, "quit\n");
    let rows = token_rows(&wide.stdout);
    assert_eq!(rows.len(), 32, "{wide}");
    for &(heap, marks, count) in &rows {
        assert_eq!((marks, count), (heap, heap as u64), "heap {heap} at 200 columns\n{wide}");
    }
    // Narrower: marks grouped or standing for several tokens, but a larger
    // heap never gets fewer marks, the counts are exact, and nothing is
    // wider than the screen.
    for columns in [80, 40] {
        let out = drawn(columns, &args, "quit\n");
        let rows = token_rows(&out.stdout);
        assert_eq!(rows.len(), 32, "{out}");
        for pair in rows.windows(2) {
            assert!(pair[0].1 <= pair[1].1, "heap {} has fewer marks than heap {}\n{out}", pair[1].0, pair[0].0);
        }
        assert!(rows.iter().all(|&(heap, _, count)| count == heap as u64), "{out}");
        for line in out.stdout.lines().skip_while(|l| !l.starts_with('┌')).take(34) {
            assert!(line.chars().count() <= columns, "wider than {columns}: {line:?}\n{out}");
        }
    }
    let narrow = drawn(40, &args, "quit\n");
    assert!(narrow.stdout.contains("Each ● stands for up to"), "the scale is said\n{narrow}");
    // Large heaps in groups of five.
    let grouped = drawn(80, &["--first", "human", "3", "40"], "quit\n");
    assert!(grouped.stdout.contains("●●●●● ●●●●● ●●●●● ●●●●● ●●●●● ●●●●● ●●●●● ●●●●●  40"), "{grouped}");
}

#[test]
fn help_lines_up_and_wraps_under_itself() {
    let out = drawn(40, &["--first", "human"], "help\nquit\n");
    out.assert_clean_success();
    let reply = &replies(&out, "Your move: ")[0];
    let commands: Vec<&str> = reply.lines().filter(|l| l.starts_with("  ")).collect();
    assert!(commands.len() >= 8, "{reply}");
    // Every meaning, and every continuation, starts in one column.
    let continuation = commands.iter().find(|l| l.starts_with("   ")).expect("a meaning wrapped at 40 columns");
    let column = continuation.chars().take_while(|&c| c == ' ').count();
    for line in &commands {
        let chars: Vec<char> = line.chars().collect();
        assert!(chars[column - 1] == ' ' && chars[column] != ' ', "{line:?} is out of line\n{reply}");
        assert!(chars.len() <= 40, "{line:?} is wider than 40\n{reply}");
    }
}

#[test]
fn play_again_asks_until_it_gets_an_answer() {
    let out = play(&["--first", "human", "1"], "1 1\nyse\nhint\nn\n");
    out.assert_clean_success();
    let question = "Play again from the same start? [y/n]: ";
    assert_eq!(out.stdout.matches(question).count(), 3, "{out}");
    assert!(out.stdout.contains("\"yse\" is not an answer: type y or n"), "{out}");
    assert!(out.stdout.contains("\"hint\" is not an answer: type y or n"), "{out}");
    assert!(out.stdout.trim_end().ends_with("Thanks for playing."), "{out}");
    // Yes starts again; quit declines.
    let out = play(&["--first", "human", "1"], "1 1\ny\n1 1\nquit\n");
    assert_eq!(results_in(&out.stdout).len(), 2, "{out}");
}

#[test]
fn quit_is_understood_when_asked_who_moves_first() {
    for word in ["quit", "q", "exit"] {
        let out = play(&[], &format!("{word}\n1\n"));
        out.assert_clean_success();
        assert!(out.stdout.trim_end().ends_with("You left the game."), "{word}: {out}");
        assert!(boards_in(&out.stdout).is_empty(), "no game starts\n{out}");
    }
}

#[test]
fn undo_says_what_it_does_and_people_must_agree() {
    let out = play(&["--first", "human"], "help\nquit\n");
    assert!(out.stdout.contains("undo        take back your last move and the computer's reply"), "{out}");
    let out = play(&["--mode", "human-human"], "help\nquit\n");
    assert!(out.stdout.contains("undo        take back the last move, if both players agree"), "{out}");
    assert!(!out.stdout.contains("computer's reply"), "{out}");
    // Player 2 asks; Player 1, whose move it was, refuses: the move stands.
    let out = play(&["--mode", "human-human", "2", "2"], "1 1\nundo\nn\nquit\n");
    out.assert_clean_success();
    assert!(out.stdout.contains("Take back Player 1's move (took 1 from heap 1). Player 1, do you agree? [y/n]: "));
    assert!(out.stdout.contains("The move stands."), "{out}");
    assert_eq!(sizes_on(boards_in(&out.stdout).last().expect("board")), [1, 2]);
    assert!(out.stdout.trim_end().ends_with("Player 2, your move: You left the game."), "{out}");
}

#[test]
fn whatever_is_typed_a_complaint_stays_one_short_line() {
    let long_word = "x".repeat(10_000);
    let long_number = format!("3 {}", "9".repeat(10_000));
    let long_text = format!("3 {}", "y".repeat(10_000));
    for typed in [long_word, long_number, long_text] {
        let out = play(&["--first", "human"], &format!("{typed}\nquit\n"));
        out.assert_clean_success();
        let reply = &replies(&out, "Your move: ")[0];
        assert_eq!(reply.lines().count(), 1, "{reply}");
        assert!(reply.len() < 160, "the complaint repeats only the start of what was typed: {reply}");
        assert!(reply.contains('…'), "{reply}");
    }
}

#[test]
fn the_move_list_keeps_its_columns() {
    // Rows 12 and 9 wide: columns of one and two digits, so the moves'
    // descriptions differ in length.
    let out = play(&["--first", "human", "--rules", "northcott", "12", "1", "12", "9", "1", "9"], "moves\nquit\n");
    out.assert_clean_success();
    let reply = &replies(&out, "Your move: ")[0];
    let rows: Vec<&str> = reply
        .lines()
        .filter(|l| l.starts_with("  ") && (l.contains("Grundy value") || l.contains("the game ends")))
        .collect();
    let starts: Vec<usize> =
        rows.iter().filter_map(|l| l.find("Grundy value").or_else(|| l.find("the game ends"))).collect();
    assert!(starts.len() > 3, "{reply}");
    assert!(starts.iter().all(|&s| s == starts[0]), "one column for what each move leaves\n{reply}");
    // What to type first, then the move in words, each in its column.
    let words: Vec<usize> = rows.iter().filter_map(|l| l.find("move ")).collect();
    assert_eq!(words.len(), rows.len(), "{reply}");
    assert!(words.iter().all(|&s| s == words[0]), "one column for the moves in words\n{reply}");
    assert!(rows.iter().all(|l| l[2..words[0]].trim().split(' ').count() == 2), "a row and a column typed\n{reply}");
}

/// Each text `moves` shows, typed at the prompt, plays the move on its line:
/// a hexadecimal code's move leaving three heaps, played by the program.
#[test]
fn a_move_typed_as_moves_shows_it_is_played() {
    let out = play(&["--mode", "human-human", "--rules", "0.F", "7", "5"], "moves\n1 1 1 2\nquit\n");
    out.assert_clean_success();
    let reply = &replies(&out, "Player 1, your move: ")[0];
    let line =
        reply.lines().find(|l| l.starts_with("  1 1 1 2 ")).unwrap_or_else(|| panic!("the move listed\n{reply}"));
    assert!(line.contains("take 1 from heap 1, leaving 1, 2 and 3"), "{line}");
    assert!(out.stdout.contains("took 1 from heap 1, leaving 1, 2 and 3"), "the move typed is played\n{out}");
}
