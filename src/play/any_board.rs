//! The terminal's view of each board kind ([`BoardView`]): rows of tokens
//! for heaps, pairs, steps and the Fibonacci heap, rows of squares for
//! Northcott's game, a grid for Chomp. It knows board kinds, not rule sets.

use bouton_games::{BoardView, RowView};

use crate::play::board::{Scale, draw_row};
use crate::theme::Theme;
use crate::wording::tokens;

/// One row of tokens: its label, how many, how many were just removed, and
/// a note for the count column.
struct TokenRow {
    label: String,
    count: u64,
    removed: u64,
    note: Option<String>,
}

/// The board of any position, marking what the last move changed (given
/// the position before it).
pub fn render(board: &BoardView, before: Option<&BoardView>, theme: Theme) -> Vec<String> {
    match board {
        BoardView::Heaps { heaps } => {
            let old = match before {
                Some(BoardView::Heaps { heaps: h }) => Some(h.as_slice()),
                _ => None,
            };
            let rows = heaps
                .iter()
                .enumerate()
                .map(|(i, &count)| {
                    let was = old.map(|o| o.get(i).copied());
                    let (removed, note) = match was {
                        Some(None) => (0, Some("new".to_owned())),
                        Some(Some(w)) if w > count && old.is_some_and(|o| o.len() == heaps.len()) => (w - count, None),
                        Some(Some(w)) if w != count => (0, Some(format!("was {w}"))),
                        _ => (0, None),
                    };
                    TokenRow { label: format!("Heap {}", i + 1), count, removed, note }
                })
                .collect();
            token_rows(rows, theme)
        }
        BoardView::Pairs { pairs } => {
            let old = match before {
                Some(BoardView::Pairs { pairs: p }) => Some(p.as_slice()),
                _ => None,
            };
            let many = pairs.len() > 1;
            let mut rows = Vec::new();
            for (i, &[a, b]) in pairs.iter().enumerate() {
                let [wa, wb] = old.and_then(|o| o.get(i).copied()).unwrap_or([a, b]);
                let prefix = if many { format!("Pair {} ", i + 1) } else { String::new() };
                rows.push(TokenRow { label: format!("{prefix}pile 1"), count: a, removed: wa - a, note: None });
                rows.push(TokenRow { label: format!("{prefix}pile 2"), count: b, removed: wb - b, note: None });
            }
            token_rows(rows, theme)
        }
        BoardView::Stairs { steps } => {
            let old = match before {
                Some(BoardView::Stairs { steps: s }) => Some(s.as_slice()),
                _ => None,
            };
            // The top step first, like a staircase seen from the side.
            let rows = steps
                .iter()
                .enumerate()
                .rev()
                .map(|(i, &count)| {
                    let was = old.and_then(|o| o.get(i).copied()).unwrap_or(count);
                    let (removed, note) = if was > count {
                        (was - count, None)
                    } else if was < count {
                        (0, Some(format!("+{}", count - was)))
                    } else {
                        (0, None)
                    };
                    TokenRow { label: format!("Step {}", i + 1), count, removed, note }
                })
                .collect();
            token_rows(rows, theme)
        }
        BoardView::Rows { white_to_move, rows } => northcott(*white_to_move, rows, theme),
        BoardView::Grid { columns } => {
            let before = match before {
                Some(BoardView::Grid { columns: b }) => Some(b.as_slice()),
                _ => None,
            };
            chomp(columns, before, theme)
        }
        BoardView::Fibonacci { heap, max_take } => {
            let was = match before {
                Some(BoardView::Fibonacci { heap: h, .. }) => *h,
                _ => *heap,
            };
            let note = Some(format!("next move: 1 to {max_take}"));
            token_rows(vec![TokenRow { label: "Heap".to_owned(), count: *heap, removed: was - heap, note }], theme)
        }
    }
}

fn token_rows(rows: Vec<TokenRow>, theme: Theme) -> Vec<String> {
    let label_width = rows.iter().map(|r| r.label.len()).max().unwrap_or(0);
    if theme.plain {
        return rows
            .iter()
            .map(|r| {
                let mut notes = Vec::new();
                if r.removed > 0 {
                    notes.push(format!("{} just taken", r.removed));
                }
                notes.extend(r.note.clone());
                let notes = if notes.is_empty() { String::new() } else { format!(" ({})", notes.join(", ")) };
                format!("{:<w$} {}{notes}", format!("{}:", r.label), tokens(r.count), w = label_width + 1)
            })
            .collect();
    }
    // │ LABEL  ART  COUNT (NOTE)
    let notes: Vec<String> = rows
        .iter()
        .map(|r| {
            let mut note = String::new();
            if r.removed > 0 {
                note.push_str(&format!(" (-{})", r.removed));
            }
            if let Some(extra) = &r.note {
                note.push_str(&format!(" ({extra})"));
            }
            note
        })
        .collect();
    let count_width = rows.iter().map(|r| r.count.to_string().len()).max().unwrap_or(1);
    let note_width = notes.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let fixed = 2 + label_width + 2 + 2 + count_width + note_width;
    let most = rows.iter().map(|r| r.count.saturating_add(r.removed)).max().unwrap_or(0);
    let scale = Scale::fitting(most, theme.width.saturating_sub(fixed).max(1));
    let drawings: Vec<(String, usize)> = rows.iter().map(|r| draw_row(r.count, r.removed, scale, theme)).collect();
    let art_width = drawings.iter().map(|(_, visible)| *visible).max().unwrap_or(0);
    let rule = "─".repeat((fixed + art_width).min(theme.width) - 1);
    let mut lines = vec![theme.dim(&format!("┌{rule}"))];
    for ((r, (art, visible)), note) in rows.iter().zip(drawings).zip(notes) {
        let padding = " ".repeat(art_width.saturating_sub(visible));
        let label = theme.strong(&format!("{:<label_width$}", r.label));
        let count = format!("{:>count_width$}", r.count);
        let note = if note.is_empty() { note } else { theme.fresh(&note) };
        lines.push(format!("{} {label}  {art}{padding}  {count}{note}", theme.dim("│")));
    }
    lines.push(theme.dim(&format!("└{rule}")));
    lines.extend(scale.legend().map(|legend| theme.dim(&legend)));
    lines
}

/// Squares drawn for rows up to this width; wider rows are described.
const DRAWN_WIDTH: u64 = 40;

/// A Northcott board; the views' columns count from 1.
fn northcott(white_to_move: bool, rows: &[RowView], theme: Theme) -> Vec<String> {
    let to_move = if white_to_move { "White (W)" } else { "Black (B)" };
    let mut lines = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let label = format!("Row {}", i + 1);
        let gap = row.white.abs_diff(row.black).saturating_sub(1);
        let facts = format!("W on {}, B on {}, gap {gap}", row.white, row.black);
        // Label, two spaces, the squares, three spaces, the facts.
        let drawn_width = label.len() + 2 + (2 * row.width as usize).saturating_sub(1) + 3 + facts.len();
        if theme.plain || row.width > DRAWN_WIDTH || drawn_width > theme.width {
            lines.push(format!("{label}: {facts} (width {})", row.width));
            continue;
        }
        let squares: Vec<String> = (1..=row.width)
            .map(|c| {
                if c == row.white {
                    theme.token("W")
                } else if c == row.black {
                    theme.strong("B")
                } else {
                    theme.dim("·")
                }
            })
            .collect();
        lines.push(format!("{}  {}   {}", theme.strong(&label), squares.join(" "), theme.dim(&facts)));
    }
    lines.push(format!("To move: {to_move}."));
    lines
}

/// Bars drawn up to this many columns and rows; larger ones are described.
const DRAWN_BAR: u64 = 30;

/// A Chomp bar, top row first: `■` a square, `☠` the poisoned one, `×` a
/// square the last bite ate; column numbers below.
fn chomp(heights: &[u64], before: Option<&[u64]>, theme: Theme) -> Vec<String> {
    let was = |c: usize| before.and_then(|b| b.get(c).copied()).unwrap_or(heights[c]);
    let tallest = (0..heights.len()).map(was).max().unwrap_or(0);
    // Three columns of row numbers, a space, then two columns a square.
    let drawn_width = 4 + 2 * heights.len();
    if theme.plain || tallest > DRAWN_BAR || heights.len() as u64 > DRAWN_BAR || drawn_width > theme.width + 1 {
        let columns: Vec<String> = heights.iter().map(u64::to_string).collect();
        return vec![format!(
            "Columns (heights from the left): {}; the poisoned square is column 1, row 1.",
            columns.join(" ")
        )];
    }
    let mut lines = Vec::new();
    for row in (0..tallest).rev() {
        let squares: Vec<String> = (0..heights.len())
            .map(|c| {
                if c == 0 && row == 0 {
                    theme.fresh("☠")
                } else if row < heights[c] {
                    theme.token("■")
                } else if row < was(c) {
                    theme.fresh("×")
                } else {
                    " ".to_owned()
                }
            })
            .collect();
        lines.push(format!("{} {}", theme.dim(&format!("{:>3}", row + 1)), squares.join(" ")));
    }
    let numbers: Vec<String> = (1..=heights.len()).map(|c| (c % 10).to_string()).collect();
    lines.push(format!("    {}", theme.dim(&numbers.join(" "))));
    lines
}
