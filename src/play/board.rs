//! One heap drawn as a row of tokens, the ones just taken hollow.

use crate::theme::Theme;

/// Heaps up to this size are drawn token by token; larger ones compactly.
const DRAWN: u64 = 20;
/// Tokens drawn before the ellipsis in a compact heap.
const COMPACT_HEAD: usize = 8;

/// The picture of one heap and its visible width in columns.
pub(crate) fn draw_heap(size: u64, taken: u64, theme: Theme) -> (String, usize) {
    if size.saturating_add(taken) <= DRAWN {
        let present = "● ".repeat(size as usize);
        let gone = "○ ".repeat(taken as usize);
        let width = 2 * (size + taken) as usize;
        return (format!("{}{}", theme.token(&present), theme.fresh(&gone)), width);
    }
    if size <= DRAWN {
        let present = "● ".repeat(size as usize);
        let gone = "○ … ";
        return (format!("{}{}", theme.token(&present), theme.fresh(gone)), 2 * size as usize + 4);
    }
    let head = "● ".repeat(COMPACT_HEAD);
    let art = format!("{}… {}", theme.token(&head), theme.token("●"));
    (art, 2 * COMPACT_HEAD + 3)
}
