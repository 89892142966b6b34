//! Moves and results in words.

use bouton_rules::NimMove;

/// "take 2 from heap 3".
pub fn take_phrase(take: u64, heap_number: usize) -> String {
    format!("take {take} from heap {heap_number}")
}

/// "take 2 from heap 3" for a move.
pub fn describe(mv: NimMove) -> String {
    take_phrase(mv.take, mv.heap_number())
}

/// "2 tokens", "1 token".
pub fn tokens(count: u64) -> String {
    if count == 1 { "1 token".to_owned() } else { format!("{count} tokens") }
}
