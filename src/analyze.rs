//! `bouton analyze`: the facts of a position, as text or JSON.

use std::io::{self, Write};

use anyhow::{Context, Result};
use bouton_analysis::{Analysis, Explanation, Winner};
use bouton_rules::{Convention, Heaps};
use serde::Serialize;

use crate::UsageError;
use crate::cli::AnalyzeArgs;
use crate::heaps_input;
use crate::table::{render_table, wrap};
use crate::theme::Theme;
use crate::wording::describe;

/// The text form shows the binary table up to this many heaps.
const TABLE_HEAPS: usize = 64;
/// The text form lists this many winning moves before summarising.
const LISTED_MOVES: usize = 20;

/// The stable JSON form.
#[derive(Serialize)]
struct Report<'a> {
    heaps: &'a [u64],
    misere: bool,
    nim_sum: u64,
    winner: Winner,
    winning_moves: Vec<JsonMove>,
}

/// A move in the JSON form: heaps counted from 1.
#[derive(Serialize)]
struct JsonMove {
    heap: usize,
    take: u64,
}

/// Runs `bouton analyze`.
pub fn run(args: &AnalyzeArgs) -> Result<()> {
    // Every rule set but plain Nim goes through the catalogue; Nim takes its
    // fast path below.
    if let Some(rules) = args.rules.as_deref().filter(|r| !crate::analyze_rules::takes_nim_fast_path(r)) {
        return crate::analyze_rules::run(args, rules);
    }
    let heaps = read_heaps(&args.heaps)?;
    let convention = if args.misere { Convention::Misere } else { Convention::Normal };
    let sizes = heaps.as_slice();
    let analysis = Analysis::new(sizes, convention);
    let stdout = io::stdout();
    if args.json {
        let report = Report {
            heaps: sizes,
            misere: args.misere,
            nim_sum: analysis.nim_sum(),
            winner: analysis.winner(),
            winning_moves: analysis
                .winning_moves(sizes)
                .map(|mv| JsonMove { heap: mv.heap_number(), take: mv.take })
                .collect(),
        };
        let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
        serde_json::to_writer(&mut out, &report).map_err(io::Error::from)?;
        writeln!(out)?;
        out.flush()?;
        return Ok(());
    }
    let theme = Theme::new(args.plain);
    let mut text = text_report(sizes, convention, &analysis, theme).join("\n");
    text.push('\n');
    let mut out = anstream::AutoStream::new(stdout.lock(), theme.color_choice());
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

fn read_heaps(words: &[String]) -> Result<Heaps> {
    if words.iter().any(|w| w == "-") {
        if words.len() > 1 {
            return Err(UsageError("`-` reads every heap from standard input: give no other heaps".into()).into());
        }
        let heaps = heaps_input::read_heaps(io::stdin().lock()).context("cannot read the heaps from standard input")?;
        return heaps.map_err(|e| UsageError(format!("standard input: {e}")).into());
    }
    Heaps::parse_bytes(words.join(" ").as_bytes()).map_err(|e| UsageError(e.to_string()).into())
}

fn text_report(sizes: &[u64], convention: Convention, analysis: &Analysis, theme: Theme) -> Vec<String> {
    let mut lines = Vec::new();
    let shown: Vec<String> = sizes.iter().take(LISTED_MOVES).map(u64::to_string).collect();
    let more = if sizes.len() > LISTED_MOVES { format!(" ... ({} heaps)", sizes.len()) } else { String::new() };
    lines.push(format!("{} {}{more}", theme.strong("Heaps:"), shown.join(" ")));
    lines.push(format!("{} {convention}: {}", theme.strong("Rules:"), convention.rule()));
    lines.push(format!("{} {}", theme.strong("Nim-sum:"), analysis.nim_sum()));
    let winner = match analysis.winner() {
        Winner::Mover => theme.good("the player to move"),
        Winner::Opponent => "the opponent (the player to move loses)".to_owned(),
    };
    lines.push(format!("{} {winner}", theme.strong("Winner with perfect play:")));
    let count = analysis.count_winning_moves(sizes);
    if count == 0 {
        lines.push(format!("{} none", theme.strong("Winning moves:")));
    } else {
        lines.push(format!("{} {count}", theme.strong("Winning moves:")));
        for mv in analysis.winning_moves(sizes).take(LISTED_MOVES) {
            let left = sizes[mv.heap] - mv.take;
            lines.push(format!("  {} (leaves {left} in heap {})", describe(mv), mv.heap_number()));
        }
        if count > LISTED_MOVES {
            lines.push(format!("  ... and {} more (--json lists them all)", count - LISTED_MOVES));
        }
    }
    // Within the terminal's width (the table fits itself).
    let mut lines: Vec<String> = lines.iter().flat_map(|line| wrap(line, theme.width)).collect();
    lines.push(String::new());
    if sizes.len() <= TABLE_HEAPS {
        lines.extend(render_table(&Explanation::new(sizes, convention), theme));
    } else {
        lines.push(format!("(The binary table is shown for up to {TABLE_HEAPS} heaps.)"));
    }
    lines
}
