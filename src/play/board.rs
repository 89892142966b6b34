//! The board: numbered heaps as rows of tokens, with their counts.

use bouton_rules::{Heaps, NimMove};

use crate::theme::Theme;
use crate::wording::tokens;

/// Heaps up to this size are drawn token by token; larger ones compactly.
const DRAWN: u64 = 20;
/// Tokens drawn before the ellipsis in a compact heap.
const COMPACT_HEAD: usize = 8;

/// Renders the heaps, marking the tokens the last move took.
pub fn render_board(heaps: &Heaps, last: Option<NimMove>, theme: Theme) -> Vec<String> {
    let sizes = heaps.as_slice();
    let label_width = format!("Heap {}", sizes.len()).len();
    let taken_from = |heap: usize| last.filter(|mv| mv.heap == heap).map(|mv| mv.take);
    if theme.plain {
        return sizes
            .iter()
            .enumerate()
            .map(|(heap, &size)| {
                let label = format!("Heap {}:", heap + 1);
                let note = taken_from(heap).map(|t| format!(" ({} just taken)", t)).unwrap_or_default();
                format!("{label:<w$} {}{note}", tokens(size), w = label_width + 1)
            })
            .collect();
    }
    let drawings: Vec<(String, usize)> =
        sizes.iter().enumerate().map(|(heap, &size)| draw_heap(size, taken_from(heap).unwrap_or(0), theme)).collect();
    let art_width = drawings.iter().map(|(_, visible)| *visible).max().unwrap_or(0);
    let count_width = sizes.iter().map(|s| s.to_string().len()).max().unwrap_or(1);
    let rule = "─".repeat(label_width + art_width + count_width + 5);
    let mut lines = vec![theme.dim(&format!("┌{rule}"))];
    for ((heap, &size), (art, visible)) in sizes.iter().enumerate().zip(drawings) {
        let taken = taken_from(heap).unwrap_or(0);
        let padding = " ".repeat(art_width.saturating_sub(visible));
        let label = theme.strong(&format!("{:<label_width$}", format!("Heap {}", heap + 1)));
        let count = if taken > 0 { theme.fresh(&format!("{size} (-{taken})")) } else { size.to_string() };
        lines.push(format!("{} {label}  {art}{padding} {count}", theme.dim("│")));
    }
    lines.push(theme.dim(&format!("└{rule}")));
    lines
}

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
