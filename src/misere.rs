//! `bouton misere CODE --upto N`: the misère quotient of a heap game — its
//! order, presentation, P-portion and pretending function — computed by the
//! `bouton-misere` engine, as text or JSON.

use std::io::{self, Write};

use anyhow::Result;
use bouton_games::RuleSet;
use bouton_misere::{HeapGame, MAX_UPTO, MisereQuotient, SolveOptions, solve};
use clap::Args;
use serde_json::json;

use crate::UsageError;
use crate::wording::{BadNumber, whole_number};

/// Heap sizes per row of the pretending function.
const PER_ROW: usize = 8;

/// Options of `bouton misere`.
#[derive(Debug, Clone, Args)]
pub struct MisereArgs {
    /// The heap game: an octal code (0.77, 0.75, 0.3… for a repeated digit)
    /// or a name: kayles, dawsons-kayles, nim, ….
    #[arg(value_name = "CODE")]
    pub code: String,
    /// Add heap sizes up to N (it stops earlier once the pretending
    /// function is proved periodic).
    #[arg(long, value_name = "N", default_value_t = 300, value_parser = upto, allow_negative_numbers = true)]
    pub upto: u64,
    /// The largest quotient computed, in elements.
    #[arg(long, value_name = "M", default_value_t = 2000, value_parser = max_order, allow_negative_numbers = true)]
    pub max_order: u64,
    /// Print JSON: the order, presentation, P-portion and pretending function.
    #[arg(long)]
    pub json: bool,
}

/// `--upto`: 1 to the engine's most.
fn upto(text: &str) -> Result<u64, BadNumber> {
    whole_number(text, 1, MAX_UPTO)
}

/// `--max-order`: 2 to 100000.
fn max_order(text: &str) -> Result<u64, BadNumber> {
    whole_number(text, 2, 100_000)
}

/// The heap game a CODE names, and its name.
fn heap_game(code: &str) -> Result<(HeapGame, String), UsageError> {
    let set: RuleSet = code.parse().map_err(|e: bouton_games::RuleSetError| UsageError(e.to_string()))?;
    match set.heap_game() {
        Some(game) if game.leaves_three() => Err(UsageError(format!(
            "{game} has moves leaving three heaps: misère quotients are computed for octal codes only (digits 0 to 7)"
        ))),
        Some(game) => Ok((game, set.name())),
        None => Err(UsageError(format!(
            "{} is not a heap game: `bouton misere` computes quotients of heap games given by a code",
            set.name()
        ))),
    }
}

/// Runs `bouton misere`.
pub fn run(args: &MisereArgs) -> Result<()> {
    let (game, name) = heap_game(&args.code)?;
    let options = SolveOptions::upto(args.upto).with_max_order(usize::try_from(args.max_order).unwrap_or(usize::MAX));
    let quotient = solve(&game, &options)?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.json {
        writeln!(out, "{}", report(&quotient, &name))?;
    } else {
        write_text(&mut out, &quotient, &name)?;
    }
    out.flush()?;
    Ok(())
}

/// The first heap whose element is each generator.
fn generator_heaps(q: &MisereQuotient) -> Vec<u64> {
    let images = q.pretending().computed();
    q.monoid().generators().iter().map(|g| images.iter().position(|x| x == g).map_or(0, |h| h as u64)).collect()
}

fn report(q: &MisereQuotient, name: &str) -> serde_json::Value {
    let monoid = q.monoid();
    let heaps = generator_heaps(q);
    let generators: Vec<_> =
        monoid.generators().iter().zip(&heaps).map(|(&g, &h)| json!({ "name": monoid.name(g), "heap": h })).collect();
    let relations: Vec<String> = monoid.relations().iter().map(|r| r.to_string()).collect();
    let p_portion: Vec<String> = q.p_portion().into_iter().map(|x| monoid.name(x)).collect();
    let pretending: Vec<String> = q.pretending().computed().iter().map(|&x| monoid.name(x)).collect();
    let period = q
        .pretending()
        .period()
        .map(|p| json!({ "preperiod": p.preperiod, "period": p.period, "proved_with_heaps_up_to": p.proved_at }));
    json!({
        "game": q.game().to_string(),
        "name": name,
        "heaps": q.pretending().upto(),
        "order": q.order(),
        "idempotents": monoid.idempotents().len(),
        "generators": generators,
        "relations": relations,
        "p_portion": p_portion,
        "pretending": pretending,
        "period": period,
        "orders": q.orders(),
    })
}

fn write_text(out: &mut impl Write, q: &MisereQuotient, name: &str) -> io::Result<()> {
    let monoid = q.monoid();
    let code = q.game().to_string();
    let title = if name.contains(&code) { name.to_owned() } else { format!("{name} ({code})") };
    let upto = q.pretending().upto();
    writeln!(out, "Misère quotient of {title}, heaps 1 to {upto}")?;
    writeln!(
        out,
        "Order: {} elements, {} in the P-portion, {} idempotents",
        q.order(),
        q.p_portion().len(),
        monoid.idempotents().len()
    )?;
    let heaps = generator_heaps(q);
    let generators: Vec<String> =
        monoid.generators().iter().zip(&heaps).map(|(&g, h)| format!("{} = heap {h}", monoid.name(g))).collect();
    writeln!(out, "Generators: {}", if generators.is_empty() { "none".to_owned() } else { generators.join(", ") })?;
    writeln!(out, "Relations:")?;
    for relation in monoid.relations() {
        writeln!(out, "  {relation}")?;
    }
    let p: Vec<String> = q.p_portion().into_iter().map(|x| monoid.name(x)).collect();
    writeln!(out, "P-portion: {}", p.join(", "))?;
    let images = q.pretending().computed();
    let shown = match q.pretending().period() {
        Some(period) => (period.preperiod + period.period).min(upto),
        None => upto,
    };
    writeln!(out, "Pretending function (heap: element):")?;
    let cells: Vec<String> = (1..=shown).map(|h| format!("{h}: {}", monoid.name(images[h as usize]))).collect();
    let width = cells.iter().map(|c| c.chars().count()).max().unwrap_or(0);
    for row in cells.chunks(PER_ROW) {
        let line: Vec<String> = row.iter().map(|c| format!("{c:<width$}")).collect();
        writeln!(out, "  {}", line.join("  ").trim_end())?;
    }
    match q.pretending().period() {
        Some(p) => writeln!(
            out,
            "Period: {} from heap {} on, proved from heaps up to {}: the quotient is the whole game's",
            p.period, p.preperiod, p.proved_at
        )?,
        None => writeln!(out, "Period: none proved; the quotient above is exact for heaps up to {upto} only")?,
    }
    Ok(())
}
