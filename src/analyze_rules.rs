//! `bouton analyze --rules RULESET …`: who wins a position of any rule set,
//! the Grundy value of each component and of the whole, every winning move.

use std::io::{self, Read, Write};
use std::time::Duration;

use anyhow::{Context, Result};
use bouton_analysis::Winner;
use bouton_games::{AnyMove, AnyRules, Budget, QuotientStatus, RuleSet};
use bouton_rules::Convention;
use serde::Serialize;

use crate::UsageError;
use crate::cli::AnalyzeArgs;
use crate::theme::Theme;

/// The text form lists this many winning moves before summarising.
const LISTED_MOVES: usize = 20;

/// Whether `--rules` takes the Nim fast path: plain Nim is analysed
/// straight from the heaps by the nim-sum (`bouton_analysis`), with its
/// binary table, so that 10^7 heaps are read and answered in a stream
/// instead of through the catalogue's general positions.
pub fn takes_nim_fast_path(rules: &str) -> bool {
    rules.parse::<RuleSet>().is_ok_and(|set| set.to_string() == "nim")
}

#[derive(Serialize)]
struct JsonMove {
    /// The move as typed at the game's prompt.
    #[serde(rename = "move")]
    text: String,
    /// In words.
    description: String,
}

#[derive(Serialize)]
struct JsonComponent<'a> {
    label: &'a str,
    grundy: Option<u64>,
}

#[derive(Serialize)]
struct Report<'a> {
    rules: String,
    name: String,
    misere: bool,
    position: Vec<u64>,
    components: Vec<JsonComponent<'a>>,
    grundy: Option<u64>,
    winner: Winner,
    winning_moves: Vec<JsonMove>,
    complete: bool,
    method: bouton_games::Method,
}

fn read_numbers(words: &[String]) -> Result<Vec<u64>> {
    let text = if words.iter().any(|w| w == "-") {
        if words.len() > 1 {
            return Err(UsageError("`-` reads the position from standard input: give no other numbers".into()).into());
        }
        let mut text = String::new();
        io::stdin().lock().read_to_string(&mut text).context("cannot read the position from standard input")?;
        text
    } else {
        words.join(" ")
    };
    text.split_whitespace()
        .map(|w| crate::wording::any_number(w).map_err(|e| UsageError(e.to_string()).into()))
        .collect()
}

/// Runs `bouton analyze --rules RULESET`.
pub fn run(args: &AnalyzeArgs, rules: &str) -> Result<()> {
    let convention = if args.misere { Convention::Misere } else { Convention::Normal };
    // The steps allowed grow with the time: 1.5·10^7 a second, about what a
    // search does.
    let budget = Budget::interactive()
        .with_time_limit(Duration::from_secs_f64(args.time_limit))
        .with_operations((args.time_limit * 1.5e7) as u64);
    let rules = AnyRules::parse(rules, convention).map_err(|e| UsageError(e.to_string()))?.with_budget(budget);
    let numbers = read_numbers(&args.heaps)?;
    let position = rules.position(&numbers).map_err(|e| UsageError(e.to_string()))?;
    let analysis = rules.analyze(&position).map_err(|e| {
        // The misère quotient ran short of half the time limit (the other
        // half searched): say that more time would give the exact answer.
        // Only a larger budget than the one already tried (maybe by the
        // shipped record: 0.114 stopped after 120 s) tries again, so the
        // limit suggested gives the quotient more than that: half of it, at
        // 1.5·10^7 steps a second.
        match rules.misere_quotient_status() {
            Some(QuotientStatus::OutOfBudget) => {
                let least = bouton_games::quotient_budget().time().map_or(30, |t| t.as_secs().max(1));
                let tried = rules.misere_quotient_budget_tried().map_or(0.0, |(operations, time)| {
                    let by_time = time.map_or(0.0, |t| 2.0 * t.as_secs_f64());
                    by_time.max(2.0 * operations as f64 / 1.5e7)
                });
                let suggested = (tried.floor() as u64 + 1).max(least);
                if suggested > 86_400 {
                    anyhow::anyhow!(
                        "{e} (its misère quotient was not found within a larger budget than a time limit gives)"
                    )
                } else {
                    anyhow::anyhow!(
                        "{e} (its misère quotient was not found within half the time limit, the other half \
                         searched: try --time-limit {suggested})"
                    )
                }
            }
            _ => e.into(),
        }
    })?;
    let describe = |mv: &AnyMove| rules.describe_move(&position, mv);
    let stdout = io::stdout();
    if args.json {
        let report = Report {
            rules: rules.rule_set().to_string(),
            name: rules.rule_set().name(),
            misere: args.misere,
            position: rules.numbers(&position),
            components: analysis
                .components
                .iter()
                .map(|c| JsonComponent { label: &c.label, grundy: c.value })
                .collect(),
            grundy: analysis.total,
            winner: analysis.winner,
            winning_moves: analysis
                .winning_moves
                .iter()
                .map(|mv| JsonMove { text: mv.to_string(), description: describe(mv).to_string() })
                .collect(),
            complete: analysis.complete,
            method: analysis.method,
        };
        let mut out = io::BufWriter::new(stdout.lock());
        serde_json::to_writer(&mut out, &report).map_err(io::Error::from)?;
        writeln!(out)?;
        out.flush()?;
        return Ok(());
    }
    let theme = Theme::new(args.plain);
    let mut lines = Vec::new();
    let label = |s: &str| theme.strong(s);
    lines.push(format!("{} {}: {}.", label("Rules:"), rules.title(), rules.rule_set().rules()));
    lines.push(format!("{} {position}", label("Position:")));
    let misere = convention == Convention::Misere;
    if !misere {
        let values: Vec<String> = analysis
            .components
            .iter()
            .take(LISTED_MOVES)
            .map(|c| format!("{} {}", c.label, c.value.map_or_else(|| "?".to_owned(), |v| v.to_string())))
            .collect();
        let more = analysis.components.len().saturating_sub(LISTED_MOVES);
        let more = if more > 0 { format!(", … ({more} more)") } else { String::new() };
        lines.push(format!("{} {}{more}", label("Grundy values:"), values.join(", ")));
        let total = analysis.total.map_or_else(|| "not computed (too large)".to_owned(), |v| v.to_string());
        lines.push(format!("{} {total}", label("Grundy value of the position:")));
    } else if let Some(value) = analysis.total {
        lines.push(format!("{} {value} (0 means the player to move loses)", label("Misère value of the position:")));
    }
    let winner = match analysis.winner {
        Winner::Mover => theme.good("the player to move"),
        Winner::Opponent => "the opponent (the player to move loses)".to_owned(),
    };
    lines.push(format!("{} {winner}", label("Winner with perfect play:")));
    let count = analysis.winning_moves.len();
    let at_least = if analysis.complete { "" } else { "at least " };
    if count == 0 {
        lines.push(format!("{} none", label("Winning moves:")));
    } else {
        lines.push(format!("{} {at_least}{count}", label("Winning moves:")));
        for mv in analysis.winning_moves.iter().take(LISTED_MOVES) {
            lines.push(format!("  {} (type `{}`)", describe(mv), mv.to_string().replace([':', ','], " ")));
        }
        if count > LISTED_MOVES {
            lines.push(format!("  ... and {} more (--json lists them all)", count - LISTED_MOVES));
        }
    }
    lines.push(format!("{} {}", label("How:"), analysis.method.describe()));
    // Within the terminal's width.
    let lines: Vec<String> = lines.iter().flat_map(|line| crate::table::wrap(line, theme.width)).collect();
    let mut text = lines.join("\n");
    text.push('\n');
    let mut out = anstream::AutoStream::new(stdout.lock(), theme.color_choice());
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
