//! Nim moves as typed at the prompt, stored in save files and sent to the
//! API (`3 2`, `3:2`): `NimMove::from_str`, then the rules' check and apply
//! on a few heaps read from the same input.
//!
//! Input: the move text, optionally followed by a line `|` and the heaps.
#![no_main]

use bouton_rules::{Convention, Heaps, Nim, NimMove, ParseMoveError, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (move_text, heaps_text) = text.split_once('|').unwrap_or((text, "3 5 7"));
    let parsed = move_text.parse::<NimMove>();

    // The serde form is the text form.
    let json = serde_json::to_string(move_text).expect("a string serializes");
    assert_eq!(serde_json::from_str::<NimMove>(&json).ok(), parsed.clone().ok(), "{json}");

    let mv = match parsed {
        Ok(mv) => mv,
        Err(e) => {
            // Every error names the offending word, if any, as it was typed.
            if let ParseMoveError::NotANumber { text }
            | ParseMoveError::Negative { text }
            | ParseMoveError::TooLarge { text } = &e
            {
                assert!(move_text.contains(text.as_str()), "{e:?} names a word of {move_text:?}");
            }
            return;
        }
    };
    assert!(mv.heap < usize::MAX, "a parsed heap number fits: {mv:?}");
    let shown = mv.to_string();
    assert_eq!(shown.parse::<NimMove>(), Ok(mv), "{shown:?}");
    assert_eq!(format!("{} {}", mv.heap_number(), mv.take).parse::<NimMove>(), Ok(mv));

    let Ok(heaps) = heaps_text.parse::<Heaps>() else { return };
    if heaps.len() > 64 {
        return;
    }
    for convention in [Convention::Normal, Convention::Misere] {
        let nim = Nim::new(convention);
        let mut after = heaps.clone();
        match nim.play(&mut after, mv) {
            Ok(()) => {
                let before = heaps.get(mv.heap).expect("a legal move names a heap");
                assert_eq!(after.get(mv.heap), Some(before - mv.take));
                assert_eq!(after.total() + u128::from(mv.take), heaps.total());
                if heaps.as_slice().iter().all(|&h| h <= 1000) {
                    assert!(nim.legal_moves(&heaps).any(|m| m == mv), "{mv} is among the legal moves");
                }
            }
            Err(_) => assert_eq!(after, heaps, "an illegal move leaves the heaps as they were"),
        }
    }
});
