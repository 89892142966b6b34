//! The binary table of `explain` and `analyze`, rendered from the library's
//! [`Explanation`] data.

use bouton_analysis::{Advice, Explanation, Winner};
use bouton_rules::Convention;

use crate::theme::Theme;
use crate::wording::take_phrase;

/// Columns are labelled with their values ("4s") up to this width; wider
/// tables label them by bit number only in the marker row.
const LABELLED_COLUMNS: u32 = 10;

/// Renders the table and the reading of it, one line per entry, within the
/// theme's width. Odd columns are marked with `odd` under them (not by
/// colour alone). A table wider than that is cut into parts of whole
/// columns, highest bits first, the sizes and the nim-sum written after the
/// last part (the one that ends with the 1s column); the reading is wrapped
/// at spaces.
pub fn render_table(explanation: &Explanation, theme: Theme) -> Vec<String> {
    let heaps = explanation.heaps();
    let columns: Vec<u32> = explanation.columns().collect();
    let cell = columns.iter().map(|&c| column_label(c, explanation.width()).len()).max().unwrap_or(1).max(4);
    let name_width = format!("heap {}", heaps.len()).len().max("nim-sum".len());
    let totals: Vec<String> =
        heaps.iter().copied().chain([explanation.nim_sum()]).map(|n| format!("  = {n}")).collect();
    let total_width = totals.iter().map(String::len).max().unwrap_or(0);
    // The parts, lowest bits last: the last one leaves room for the totals.
    let room = |total: usize| (theme.width.saturating_sub(name_width + total) / cell).max(1);
    let mut parts: Vec<&[u32]> = Vec::new();
    let mut rest = &columns[..];
    let mut take = room(total_width);
    while !rest.is_empty() {
        let (before, part) = rest.split_at(rest.len().saturating_sub(take));
        parts.insert(0, part);
        rest = before;
        take = room(0);
    }
    let mut lines = Vec::new();
    if parts.len() > 1 {
        lines.push(format!(
            "(The table is in {} parts, highest bits first, to fit {} columns.)",
            parts.len(),
            theme.width
        ));
        lines.push(String::new());
    }
    for (index, part) in parts.iter().enumerate() {
        let last = index + 1 == parts.len();
        let total = |line: usize| if last { totals[line].as_str() } else { "" };
        if index > 0 {
            lines.push(String::new());
        }
        lines.extend(render_part(explanation, part, cell, name_width, theme, total));
    }
    lines.push(String::new());
    for line in reading(explanation, theme) {
        lines.extend(wrap(&line, theme.width));
    }
    lines
}

/// The rows of the table for some of its columns; `total(i)` ends row `i`
/// (heap `i`, then the nim-sum).
fn render_part<'a>(
    explanation: &Explanation,
    columns: &[u32],
    cell: usize,
    name_width: usize,
    theme: Theme,
    total: impl Fn(usize) -> &'a str,
) -> Vec<String> {
    let heaps = explanation.heaps();
    let pad = |text: &str| format!("{text:>cell$}");
    let mut lines = Vec::new();
    let header: String = columns.iter().map(|&c| pad(&column_label(c, explanation.width()))).collect();
    lines.push(format!("{:name_width$}{header}", ""));
    for index in 0..heaps.len() {
        let bits: String = columns
            .iter()
            .map(|&c| {
                let digit = if explanation.bit(index, c) { "1" } else { "0" };
                let text = pad(digit);
                if explanation.is_odd(c) && explanation.bit(index, c) { theme.good(&text) } else { text }
            })
            .collect();
        lines.push(format!("{:name_width$}{bits}{}", format!("heap {}", index + 1), total(index)));
    }
    let ones: String = columns.iter().map(|&c| pad(&explanation.ones_in_column(c).to_string())).collect();
    lines.push(format!("{:name_width$}{ones}", "ones"));
    let marks: String =
        columns.iter().map(|&c| if explanation.is_odd(c) { theme.good(&pad("odd")) } else { pad("") }).collect();
    lines.push(format!("{:name_width$}{}", "", marks.trim_end()));
    let sum: String = columns.iter().map(|&c| pad(if explanation.is_odd(c) { "1" } else { "0" })).collect();
    lines.push(format!("{:name_width$}{sum}{}", "nim-sum", total(heaps.len())));
    lines
}

/// `line` wrapped at spaces to `width` columns (escape sequences take
/// none); continuation lines keep the line's indentation.
pub fn wrap(line: &str, width: usize) -> Vec<String> {
    let indent = &line[..line.len() - line.trim_start().len()];
    let options = textwrap::Options::new(width).subsequent_indent(indent);
    textwrap::wrap(line, options).into_iter().map(std::borrow::Cow::into_owned).collect()
}

/// The odd columns in words: "4s column, 1s column", or for tables labelled
/// by bit number, runs of three or more shortened: "b63, b61 to b0".
fn odd_column_names(odd: &[u32], width: u32) -> String {
    if width <= LABELLED_COLUMNS {
        return odd.iter().map(|&c| column_name(c)).collect::<Vec<_>>().join(", ");
    }
    // `odd` runs from the highest column down.
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &c in odd {
        match runs.last_mut() {
            Some((_, low)) if *low == c + 1 => *low = c,
            _ => runs.push((c, c)),
        }
    }
    let mut names = Vec::new();
    for (high, low) in runs {
        if high - low >= 2 {
            names.push(format!("b{high} to b{low}"));
        } else {
            names.extend((low..=high).rev().map(|c| format!("b{c}")));
        }
    }
    names.join(", ")
}

fn column_label(column: u32, width: u32) -> String {
    if width <= LABELLED_COLUMNS { format!("{}s", 1u64 << column) } else { format!("b{column}") }
}

fn binary(value: u64, width: u32) -> String {
    format!("{value:0width$b}", width = width as usize)
}

fn column_name(column: u32) -> String {
    format!("{}s column", 1u128 << column)
}

/// The explanation in words.
fn reading(explanation: &Explanation, theme: Theme) -> Vec<String> {
    let misere = explanation.convention() == Convention::Misere;
    let odd = explanation.odd_columns();
    let width = explanation.width();
    let verdict = match explanation.winner() {
        Winner::Mover => theme.good("the player to move can win"),
        Winner::Opponent => theme.strong("the player to move loses against perfect play"),
    };
    let mut lines = Vec::new();
    match explanation.advice() {
        Advice::GameOver => lines.push("Every heap is empty: the game is over.".to_owned()),
        Advice::AllColumnsEven => {
            lines.push(format!("Every column has an even number of ones, so the nim-sum is 0: {verdict}."));
            lines.push(
                "Any move changes one heap, which turns at least one column odd; the opponent can then make \
                 every column even again."
                    .to_owned(),
            );
            if misere {
                lines.push(
                    "(Misère: with a heap above 1 on the board, this is played exactly as normal Nim.)".to_owned(),
                );
            }
        }
        Advice::OddSinglesLeft { singles } => {
            lines.push(format!(
                "Misère endgame: no heap holds more than 1, and there are {singles} heaps of 1 (an odd number): \
                 {verdict}."
            ));
            lines.push(
                "Each move takes one single; the opponent can always leave an odd number again, until you take \
                 the last."
                    .to_owned(),
            );
        }
        Advice::Flip { column, heap, from, to } => {
            lines.push(format!(
                "Odd columns: {}. The nim-sum is {}, not 0: {verdict}.",
                odd_column_names(&odd, width),
                explanation.nim_sum()
            ));
            lines.push(format!(
                "The leftmost odd column is the {}; heap {} has a 1 there.",
                column_name(*column),
                heap + 1
            ));
            lines.push(format!(
                "Flip heap {}'s bits in every odd column: {} -> {}, that is {from} -> {to}.",
                heap + 1,
                binary(*from, width),
                binary(*to, width)
            ));
            lines.push(format!(
                "So {}: every column is then even, and the nim-sum is 0.",
                theme.good(&take_phrase(from - to, heap + 1))
            ));
        }
        Advice::MisereEndgame { heap, from, to, column_rule_to, singles_left } => {
            if let Some(column_to) = column_rule_to {
                lines.push(format!(
                    "The column rule says: reduce heap {} from {from} to {column_to} (nim-sum 0).",
                    heap + 1
                ));
                lines.push(
                    "But that would leave no heap above 1, and in misère play the endgame rule takes over:".to_owned(),
                );
            } else {
                lines.push("Misère endgame: no heap holds more than 1.".to_owned());
            }
            lines.push(format!(
                "leave an odd number of heaps of 1, so the opponent must take the last token: {verdict}."
            ));
            lines.push(format!(
                "So {}: reduce heap {} from {from} to {to}, leaving {singles_left} heap{} of 1.",
                theme.good(&take_phrase(from - to, heap + 1)),
                heap + 1,
                if *singles_left == 1 { "" } else { "s" }
            ));
        }
    }
    lines
}
