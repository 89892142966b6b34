//! The browser game API's request bodies, read as the server reads them
//! (any content type; an empty or blank body is `{}`): `CreateRequest` for
//! `POST /api/games`, checked and turned into a game by
//! `service::new_game`; `MoveRequest` for `…/moves`, its move text read by
//! every rule set; `PlyRequest` for `…/undo` and `…/step`.
//!
//! Input: one byte choosing the request type, then the body.
#![no_main]

use bouton_games::{AnyRules, BoardKind, RuleSet};
use bouton_rules::{Convention, Rules};
use bouton_web::limits::{MAX_HEAP_SIZE, MAX_HEAPS, MAX_ROW_WIDTH};
use bouton_web::service::{self, CreateRequest, MoveRequest, PlyRequest};
use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;

fn body<T: DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) { b"{}" } else { bytes };
    serde_json::from_slice(bytes).ok()
}

fn create(bytes: &[u8]) {
    let Some(request) = body::<CreateRequest>(bytes) else { return };
    let Ok((game, level)) = service::new_game(&request) else { return };
    assert_eq!(level.is_some(), request.mode.has_computer());
    let rules = game.rules();
    if let Some(text) = &request.rules {
        assert_eq!(Some(rules.rule_set()), text.parse::<RuleSet>().ok().as_ref());
    }
    assert_eq!(rules.convention() == Convention::Misere, request.misere);
    // Within the documented limits.
    let numbers = rules.numbers(game.start());
    let kind = rules.board_kind();
    let per_part = match kind {
        BoardKind::Pairs => 2,
        BoardKind::Rows => 3,
        _ => 1,
    };
    if kind == BoardKind::Rows {
        assert!(numbers.iter().step_by(3).all(|&w| w <= MAX_ROW_WIDTH), "{numbers:?}");
    } else {
        assert!(numbers.iter().all(|&n| n <= MAX_HEAP_SIZE), "{numbers:?}");
    }
    if kind != BoardKind::Fibonacci {
        assert!(numbers.len().div_ceil(per_part) <= MAX_HEAPS, "{numbers:?}");
    }
    if let Some(position) = &request.position {
        assert_eq!(&numbers, position, "the start is the position asked for");
    }
}

fn play(bytes: &[u8]) {
    let Some(request) = body::<MoveRequest>(bytes) else { return };
    let Some(text) = request.text else { return };
    for set in RuleSet::examples() {
        let rules = AnyRules::new(set.clone(), Convention::Normal);
        if let Ok(mv) = rules.parse_move(&text) {
            let shown = mv.to_string();
            assert_eq!(rules.parse_move(&shown), Ok(mv), "{set}: {text:?} shown as {shown:?}");
            let start = rules.position(&set.default_start()).expect("the usual start");
            let _ = rules.check(&start, mv);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, bytes)) = data.split_first() else { return };
    match which % 3 {
        0 => create(bytes),
        1 => play(bytes),
        _ => {
            let _ = body::<PlyRequest>(bytes);
        }
    }
});
