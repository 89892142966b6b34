//! Rule-set names and take-and-break codes as `--rules`, the API and save
//! files give them (`RuleSet`, `HeapGame`, `AnyRules::parse`), then a
//! position from numbers and moves typed in the game's text form, checked
//! and played.
//!
//! Input, one item a line: the rule set; `misere` or anything else (normal
//! play); the position's numbers; then moves, one a line. Positions stay
//! tiny where moves are listed, so that nothing is ever analysed.
#![no_main]

use bouton_games::{AnyPosition, AnyRules, HeapGame, RuleSet};
use bouton_rules::{Convention, Rules};
use libfuzzer_sys::fuzz_target;

/// The most numbers read, and the most moves played.
const MAX_NUMBERS: usize = 12;
const MAX_MOVES: usize = 8;
/// Legal moves are listed only in positions of at most `TINY_COUNT`
/// numbers of at most `TINY` (Moore's Nim_k has many moves).
const TINY: u64 = 8;
const TINY_COUNT: usize = 4;

fn check_heap_game(game: &HeapGame) {
    let shown = game.to_string();
    assert_eq!(HeapGame::parse_hexadecimal(&shown).as_ref(), Ok(game), "{shown:?}");
    if !game.leaves_three() {
        assert_eq!(shown.parse::<HeapGame>().as_ref(), Ok(game), "{shown:?}");
    }
    let marks: Vec<bool> = (0..game.digits().len() as u64).map(|k| game.unequal_at(k)).collect();
    assert_eq!(HeapGame::from_marked_digits(game.digits(), game.tail(), &marks).as_ref(), Ok(game));
    for n in 0..8 {
        for option in game.options(n).take(64) {
            assert!(game.allows(n, option), "{shown}: {option:?} from {n}");
            assert!(option.left <= option.right || option.right == 0, "{shown}: {option:?}");
            assert_eq!(option.take + option.left + option.right, n, "{shown}: {option:?} from {n}");
        }
    }
}

fn check_rule_set(set: &RuleSet) {
    let shown = set.to_string();
    assert_eq!(shown.parse::<RuleSet>().as_ref(), Ok(set), "{shown:?} reads back");
    let _ = (set.name(), set.rules(), set.position_format());
    let rules = AnyRules::new(set.clone(), Convention::Normal);
    assert!(rules.position(&set.default_start()).is_ok(), "{shown}'s usual start is a position");
    if let Some(game) = set.heap_game() {
        check_heap_game(&game);
    }
}

/// The same position, heaps in any order.
fn same(a: &AnyPosition, b: &AnyPosition) -> bool {
    match (a, b) {
        (AnyPosition::Nim(a), AnyPosition::Nim(b))
        | (AnyPosition::Heap(a), AnyPosition::Heap(b))
        | (AnyPosition::Moore(a), AnyPosition::Moore(b)) => {
            let (mut a, mut b) = (a.as_slice().to_vec(), b.as_slice().to_vec());
            a.sort_unstable();
            b.sort_unstable();
            a == b
        }
        _ => a == b,
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut lines = text.split('\n');
    let name = lines.next().unwrap_or_default();
    let convention =
        if lines.next().is_some_and(|l| l.starts_with('m')) { Convention::Misere } else { Convention::Normal };

    if let Ok(game) = name.parse::<HeapGame>() {
        check_heap_game(&game);
    }
    let set = match name.parse::<RuleSet>() {
        Ok(set) => set,
        Err(e) => {
            assert!(AnyRules::parse(name, convention).is_err());
            let _ = e.to_string();
            return;
        }
    };
    check_rule_set(&set);
    let rules = AnyRules::parse(name, convention).expect("a rule set that parses builds");
    assert_eq!(rules.rule_set(), &set);
    let _ = (rules.title(), rules.move_help());

    let numbers: Vec<u64> = match lines.next() {
        Some(line) => {
            let words: Vec<&str> = line.split_ascii_whitespace().take(MAX_NUMBERS).collect();
            match words.iter().map(|w| w.parse::<u64>()).collect::<Result<_, _>>() {
                Ok(numbers) => numbers,
                Err(_) => return,
            }
        }
        None => set.default_start(),
    };
    let Ok(start) = rules.position(&numbers) else { return };
    // The numbers written back (as the save file and the API do) give the
    // same position.
    let written = rules.numbers(&start);
    assert_eq!(rules.position(&written).as_ref(), Ok(&start), "{set}: {numbers:?} written as {written:?}");
    let _ = start.to_string();

    let tiny = numbers.len() <= TINY_COUNT && numbers.iter().all(|&n| n <= TINY);
    let mut position = start;
    for line in lines.take(MAX_MOVES) {
        let Ok(mv) = rules.parse_move(line) else { continue };
        let shown = mv.to_string();
        assert_eq!(rules.parse_move(&shown), Ok(mv), "{set}: {line:?} shown as {shown:?}");
        let _ = rules.describe_move(&position, &mv);
        let before = position.clone();
        match rules.check(&position, mv) {
            Ok(()) => {
                rules.apply(&mut position, mv);
                assert_ne!(position, before, "{set}: {mv} changes the position");
            }
            Err(e) => {
                let _ = e.to_string();
                continue;
            }
        }
        if tiny {
            // Listed among the legal moves, or one with the same result: a
            // split may be typed either way round (`1 2 3` or `1 2 2` from
            // 7), and only the first part's place differs.
            let listed = rules.legal_moves(&before).any(|m| {
                let mut other = before.clone();
                rules.apply(&mut other, m);
                same(&other, &position)
            });
            assert!(listed, "{set}: {mv} from {before} leaves {position}, which no listed move leaves");
        }
    }
    if tiny {
        // Every listed move is legal and is written as text that reads back.
        for mv in rules.legal_moves(&position).take(256) {
            assert_eq!(rules.check(&position, mv), Ok(()), "{set}: listed move {mv} in {position}");
            let shown = mv.to_string();
            assert_eq!(rules.parse_move(&shown), Ok(mv), "{set}: listed move shown as {shown:?}");
        }
        assert_eq!(rules.is_over(&position), rules.legal_moves(&position).next().is_none());
    }
});
