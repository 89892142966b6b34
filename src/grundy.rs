//! `bouton grundy CODE --upto N`: the Grundy sequence of a heap game, with
//! its periodicity, checksum and rare/common statistics, as a table, JSON or
//! a plot.

use std::fs::File;
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use bouton_games::RuleSet;
use bouton_grundy::{
    ArithmeticTheorem, ComputeError, ComputeOptions, DEFAULT_MAX_PERIOD, HeapGame, KEEP_FROM, MAX_UPTO, Periodicity,
    Progress, ProofStore, RareMask, Sequence, compute,
};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget};
use serde::Serialize;

use crate::UsageError;
use crate::plot::{Columns, PngRenderer, write_svg};
use crate::theme::Theme;
use crate::wording::{any_number, positive_number, progress_style, whole_number};

/// The table of values is printed by default up to this N.
const TABLE_UPTO: u64 = 10_000;
/// Values per row of the table.
const PER_ROW: u64 = 10;
/// The progress bar appears once a run has lasted this long.
const QUIET_PERIOD: Duration = Duration::from_secs(1);
/// Rare positions listed in the text report.
const LISTED_RARE: usize = 40;

/// Options of `bouton grundy`.
#[derive(Debug, Clone, Args)]
pub struct GrundyArgs {
    /// The heap game: an octal code (0.77, 0.354, 4.07, 0.3… for a repeated
    /// digit), 4!.0, a hexadecimal code (0.F, 4.8: a move may leave three
    /// heaps), or a name: kayles, dawsons-kayles, grundy, lasker, nim,
    /// subtraction:2,3,7, all-but:1,2, take-limit:3.
    #[arg(value_name = "CODE", required_unless_present = "survey")]
    pub code: Option<String>,
    /// Survey many octal games instead of one: a range such as 0.1..0.777
    /// (every code between, up to that many digits, the last one not 0) or a
    /// list such as 0.16,0.354,0.6; each is computed until proved periodic,
    /// to N (default 100000) or until its --work-per-game is spent, two at a
    /// time.
    #[arg(long, value_name = "RANGE|LIST", conflicts_with_all = ["code", "plot", "table", "summary", "mask", "checkpoint"])]
    pub survey: Option<String>,
    /// In a survey, the operations (options looked at) each game may take:
    /// where a game stops depends on this alone, not on the machine's load.
    #[arg(long, value_name = "OPS", default_value_t = crate::survey::SurveyLimits::OPERATIONS, value_parser = positive_number, allow_negative_numbers = true, requires = "survey")]
    pub work_per_game: u64,
    /// In a survey, a safety net: the most wall-clock time each game may
    /// take (a game stopped by it is reported as such).
    #[arg(long, value_name = "SECS", default_value_t = crate::survey::SurveyLimits::TIME.as_secs(), value_parser = positive_number, allow_negative_numbers = true, requires = "survey")]
    pub seconds_per_game: u64,
    /// Compute G(0) to G(N) (default 100; with --until-proved, 2^32).
    #[arg(long, value_name = "N", value_parser = any_number, allow_negative_numbers = true)]
    pub upto: Option<u64>,
    /// Print JSON: the game, the facts, the periodicity and the values.
    #[arg(long)]
    pub json: bool,
    /// Only the facts, without the values.
    #[arg(long, conflicts_with = "table")]
    pub summary: bool,
    /// Print the table of values even for N above 10000.
    #[arg(long)]
    pub table: bool,
    /// Draw G(n) against n into FILE, as SVG or PNG by its extension (the
    /// file is checked before anything is computed).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// The rare/common mask (…11110, 0b110, 0x1ee); chosen automatically
    /// when not given.
    #[arg(long, value_name = "MASK")]
    pub mask: Option<String>,
    /// Stop as soon as periodicity is proved, before N if possible.
    #[arg(long)]
    pub until_proved: bool,
    /// The longest period looked for (default: no limit; every period the
    /// values have room for is looked for, at no cost in memory).
    #[arg(long, value_name = "P", value_parser = max_period, allow_negative_numbers = true)]
    pub max_period: Option<u64>,
    /// Keep the values computed in FILE (now and then, and at the end) and
    /// go on from the values it already holds for the same game: a long run
    /// that is interrupted resumes where it was.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Memory for the values, in MiB; beyond it they stream to a
    /// temporary file.
    #[arg(long, value_name = "MIB", default_value_t = 1024, value_parser = positive_number, allow_negative_numbers = true)]
    pub memory: u64,
    /// No colour.
    #[arg(long)]
    pub plain: bool,
}

/// N when not given.
const DEFAULT_UPTO: u64 = 100;

/// N when not given with `--until-proved`: far enough for every period
/// known (0.1777's proof needs 443,139,470 values), bounded all the same.
const DEFAULT_UPTO_PROVING: u64 = 1 << 32;

/// `--max-period`: from 1 to the largest N.
fn max_period(text: &str) -> Result<u64, crate::wording::BadNumber> {
    whole_number(text, 1, MAX_UPTO)
}

impl GrundyArgs {
    /// The longest period to look for: as given, else no limit.
    fn max_period(&self) -> u64 {
        self.max_period.unwrap_or(DEFAULT_MAX_PERIOD)
    }

    /// N: as given, else 100, or 2^32 when computing until proved.
    fn upto(&self) -> u64 {
        self.upto.unwrap_or(if self.until_proved { DEFAULT_UPTO_PROVING } else { DEFAULT_UPTO })
    }
}

/// The run was interrupted (Ctrl-C) after this many values, with the
/// checkpoint file that keeps them, if any; exit code 130.
#[derive(Debug, thiserror::Error)]
#[error("interrupted after {} values: {}", .0, kept(.1.as_deref()))]
pub struct Interrupted(pub u64, pub Option<PathBuf>);

/// What became of the values of an interrupted run.
fn kept(checkpoint: Option<&Path>) -> String {
    match checkpoint {
        Some(path) => format!(
            "nothing was printed; the values are kept in {} (the same --checkpoint goes on from them)",
            path.display()
        ),
        None => "nothing was written".to_owned(),
    }
}

/// The heap game a CODE names: a rule set, or a hexadecimal code (whose
/// moves may leave three heaps; also played by `analyze` and `play`).
fn heap_game(code: &str) -> Result<(HeapGame, String), UsageError> {
    let hexadecimal = HeapGame::parse_hexadecimal(code);
    match &hexadecimal {
        Ok(game) if game.leaves_three() => return Ok((game.clone(), format!("the hexadecimal game {game}"))),
        // A code with a digit that is not even hexadecimal.
        Err(e @ bouton_grundy::CodeError::BadHexDigit { .. }) => return Err(UsageError(e.to_string())),
        _ => {}
    }
    let set: RuleSet = match code.parse() {
        Ok(set) => set,
        Err(e) => {
            // A code with hexadecimal digits is wrong as one (0.F…), not as an
            // octal code.
            let hex_digits = !code.contains(':')
                && code.split_once('.').is_some_and(|(_, d)| d.chars().any(|c| c.is_ascii_hexdigit() && c > '7'));
            return Err(UsageError(match hexadecimal {
                Err(hex) if hex_digits => hex.to_string(),
                _ => e.to_string(),
            }));
        }
    };
    match set.heap_game() {
        Some(game) => Ok((game, set.name())),
        None => Err(UsageError(format!(
            "{} is not a heap game: `bouton grundy` computes the values of single heaps; \
             use `bouton analyze --rules {set}` for its positions",
            set.name()
        ))),
    }
}

/// Runs `bouton grundy`.
pub fn run(args: &GrundyArgs) -> Result<()> {
    let Some(code) = args.code.as_deref() else {
        return run_survey(args);
    };
    let (game, name) = heap_game(code)?;
    let mask = match &args.mask {
        Some(text) => Some(text.parse::<RareMask>().map_err(|e| UsageError(e.to_string()))?),
        None => None,
    };
    // A plot that cannot be written fails now, not after the computing.
    let plot = args.plot.as_deref().map(PlotFile::open).transpose()?;
    let seq = compute_with_progress(&game, args, mask)?;
    // `--until-proved` asks for the proof: it is kept for analysis.
    let kept = if args.until_proved { keep_proof(&seq) } else { None };
    let stdout = io::stdout();
    if args.json {
        let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
        write_json(&mut out, &seq, &name, !args.summary, kept.as_deref())?;
        out.flush()?;
    } else {
        let theme = Theme::new(args.plain);
        let mut out =
            io::BufWriter::with_capacity(1 << 16, anstream::AutoStream::new(stdout.lock(), theme.color_choice()));
        write_text(&mut out, &seq, &name, args, theme, kept.as_deref())?;
        out.flush()?;
    }
    if let Some(plot) = plot {
        plot.write(&seq, &title(&name, seq.game(), seq.upto()))?;
    }
    Ok(())
}

/// Keeps a proved period in the user's proof store when analysis might not
/// prove it by itself within its budget (its proof needs more than
/// [`KEEP_FROM`] values; beyond `TABLE_LIMIT` analysis cannot at all), so
/// that `analyze` and play know every heap of the game. Where it went, if
/// anywhere; a file that cannot be written is a warning, not a failure.
pub fn keep_proof(seq: &Sequence) -> Option<PathBuf> {
    let Periodicity::Proved { needed, .. } = *seq.periodicity() else {
        return None;
    };
    if needed <= KEEP_FROM {
        return None;
    }
    let Some(store) = ProofStore::user() else {
        eprintln!("warning: the proof is not kept: no data directory (set HOME or XDG_DATA_HOME)");
        return None;
    };
    match store.keep(seq) {
        Ok(path) => Some(path),
        Err(e) => {
            eprintln!("warning: the proof is not kept: {e}");
            None
        }
    }
}

/// N of a survey when not given.
const DEFAULT_SURVEY_UPTO: u64 = 100_000;

/// Runs `bouton grundy --survey`.
fn run_survey(args: &GrundyArgs) -> Result<()> {
    let spec = args.survey.as_deref().unwrap_or_default();
    let games = crate::survey::codes(spec)?;
    let upto = args.upto.unwrap_or(DEFAULT_SURVEY_UPTO);
    let limits = crate::survey::SurveyLimits {
        operations: args.work_per_game,
        time: Duration::from_secs(args.seconds_per_game),
        ..Default::default()
    };
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = Arc::clone(&interrupted);
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    }
    // A progress bar on standard error once the survey has taken a second.
    let bar = ProgressBar::with_draw_target(Some(games.len() as u64), ProgressDrawTarget::hidden());
    bar.set_style(progress_style("games"));
    let started = Instant::now();
    let mut on_progress = |done: usize| {
        bar.set_position(done as u64);
        if bar.is_hidden() && started.elapsed() > QUIET_PERIOD && done < games.len() {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    };
    let rows = crate::survey::survey(&games, upto, &limits, &interrupted, &mut on_progress);
    bar.finish_and_clear();
    if interrupted.load(Ordering::Relaxed) {
        return Err(Interrupted(rows.len() as u64, None).into());
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.json {
        serde_json::to_writer(&mut out, &rows)?;
        writeln!(out)?;
    } else {
        crate::survey::write_table(&mut out, &rows, upto, &limits)?;
    }
    out.flush()?;
    Ok(())
}

/// The plot's title: the game's name, with its code unless the name already
/// shows it ("Kayles (0.77)", "the octal game 0.137"), and the range.
fn title(name: &str, game: &HeapGame, upto: u64) -> String {
    let code = game.to_string();
    let name = if name.contains(&code) { name.to_owned() } else { format!("{name} ({code})") };
    let mut chars = name.chars();
    let name: String = chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default();
    format!("{name}: G(n) for n = 0 to {upto}")
}

/// How a plot is drawn.
enum PlotKind {
    Svg,
    /// With the fonts found when the file was opened.
    Png(PngRenderer),
}

/// The file a plot goes to, opened (created if missing, not yet emptied)
/// before the values are computed, so that a path that cannot be written
/// fails at once with the operating system's reason. A file this run
/// created is removed again if the plot is never written (an error, Ctrl-C).
struct PlotFile {
    path: PathBuf,
    kind: PlotKind,
    file: File,
    /// Whether this run created the file (and so removes it on failure).
    created: bool,
    written: bool,
}

impl PlotFile {
    fn open(path: &Path) -> Result<PlotFile> {
        let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        let kind = match extension.as_deref() {
            Some("svg") => PlotKind::Svg,
            Some("png") => PlotKind::Png(PngRenderer::new()?),
            _ => {
                let message = format!("--plot {}: the file name must end in .svg or .png", path.display());
                return Err(UsageError(message).into());
            }
        };
        let cannot = |e: io::Error| anyhow::anyhow!("cannot write the plot to {}: {e}", path.display());
        let existed = std::fs::symlink_metadata(path).is_ok();
        let file = File::options().write(true).create(true).truncate(false).open(path).map_err(cannot)?;
        Ok(PlotFile { path: path.to_owned(), kind, file, created: !existed, written: false })
    }

    fn write(mut self, seq: &Sequence, title: &str) -> Result<()> {
        let mut columns = Columns::new(seq.len());
        for (n, value) in seq.iter().enumerate() {
            columns.push(n as u64, value.context("cannot read the values back from disk")?);
        }
        let written = self.write_columns(&columns, title);
        self.written = written.is_ok();
        written.map_err(|e| anyhow::anyhow!("cannot write the plot to {}: {e}", self.path.display()))
    }

    fn write_columns(&mut self, columns: &Columns, title: &str) -> io::Result<()> {
        self.file.set_len(0)?;
        self.file.rewind()?;
        let mut out = io::BufWriter::new(&self.file);
        match &self.kind {
            PlotKind::Svg => write_svg(&mut out, columns, title)?,
            PlotKind::Png(renderer) => renderer.write_png(&mut out, columns, title)?,
        }
        out.flush()
    }
}

impl Drop for PlotFile {
    fn drop(&mut self) {
        if self.created && !self.written {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

fn compute_with_progress(game: &HeapGame, args: &GrundyArgs, mask: Option<RareMask>) -> Result<Sequence> {
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = Arc::clone(&interrupted);
        // Only one handler per process; a second `run` in the same process
        // (tests) keeps the first, which sets the same kind of flag.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    }
    let upto = args.upto();
    let bar = ProgressBar::with_draw_target(Some(upto.saturating_add(1)), ProgressDrawTarget::hidden());
    bar.set_style(progress_style("values"));
    let started = Instant::now();
    let mut on_progress = |p: Progress| {
        bar.set_position(p.done);
        if bar.is_hidden() && started.elapsed() > QUIET_PERIOD && p.done < p.total {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    };
    let options = ComputeOptions {
        mask,
        max_period: args.max_period(),
        stop_when_proved: args.until_proved,
        memory_limit: args.memory.saturating_mul(1 << 20),
        progress: Some(&mut on_progress),
        cancel: Some(&interrupted),
        checkpoint: args.checkpoint.clone(),
        ..ComputeOptions::default()
    };
    let result = compute(game, upto, options);
    let shown = !bar.is_hidden();
    bar.finish_and_clear();
    let seq = match result {
        Ok(seq) => seq,
        Err(ComputeError::Cancelled { reached }) => return Err(Interrupted(reached, args.checkpoint.clone()).into()),
        Err(e @ (ComputeError::TooFar { .. } | ComputeError::OutOfMemory { .. } | ComputeError::Checkpoint(_))) => {
            return Err(UsageError(e.to_string()).into());
        }
        Err(e) => return Err(e.into()),
    };
    if shown {
        eprintln!("Computed {} values in {:.2?}.", seq.len(), started.elapsed());
    }
    Ok(seq)
}

/// The periodicity in words.
fn describe_periodicity(p: &Periodicity, game: &HeapGame) -> String {
    let exception = |e: u64| if e == 0 { String::new() } else { format!(" (last exception n = {})", e - 1) };
    match p {
        Periodicity::Proved { period, preperiod, needed } => {
            let how = match game.last_digit() {
                Some(t) if game.leaves_three() => {
                    format!("the periodicity theorem for moves leaving up to three heaps with t = {t}")
                }
                Some(t) if game.splits() => format!("the periodicity theorem with t = {t}"),
                Some(t) => format!("{t} values in a row repeating (no move splits a heap)"),
                None => "the periodicity theorem".to_owned(),
            };
            format!(
                "proved: period {period}, pre-period {preperiod}{}, by {how}, from the values up to n = {needed}",
                exception(*preperiod)
            )
        }
        Periodicity::Apparent { period, preperiod, repeats, needed } => {
            let proof = match needed {
                Some(n) => format!("; if it holds up to n = {n}, the periodicity theorem proves it"),
                None => "; the periodicity theorem does not apply to this game".to_owned(),
            };
            format!(
                "apparent, not proved: period {period}, pre-period {preperiod}{}, seen repeating {repeats} times{proof}",
                exception(*preperiod)
            )
        }
        Periodicity::ArithmeticProved { period, saltus, preperiod, needed } => {
            let how = match ArithmeticTheorem::for_game(game) {
                ArithmeticTheorem::ClosedForm => "Lasker's Nim's closed form (Winning Ways, ch. 4)".to_owned(),
                ArithmeticTheorem::Layers => "the layer theorem for splitting games with a saltus that is a power \
                                              of two (see bouton_grundy::ArithmeticTheorem::Layers)"
                    .to_owned(),
                _ => "the prefix theorem for games whose repeated digit leaves any smaller heap \
                      (see bouton_grundy::ArithmeticTheorem)"
                    .to_owned(),
            };
            format!(
                "arithmetic, proved: G(n + {period}) = G(n) + {saltus} for every n ≥ {preperiod}, by {how}, \
                 from the values up to n = {needed}"
            )
        }
        Periodicity::Arithmetic { period, saltus, preperiod, repeats } => {
            let why = match ArithmeticTheorem::for_game(game) {
                ArithmeticTheorem::Impossible => {
                    "; it cannot go on for ever: finite octal games are never arithmetic-periodic (Austin 1976)"
                }
                ArithmeticTheorem::None => "; no theorem known to bouton proves it for this game",
                ArithmeticTheorem::Layers => {
                    "; the layer theorem's hypotheses do not hold in the values computed (among them, a saltus that \
                     is a power of two above the first values: see bouton_grundy::ArithmeticTheorem::Layers)"
                }
                _ => "; the theorem's condition does not hold yet in the values computed",
            };
            format!(
                "arithmetic, apparent, not proved: G(n + {period}) = G(n) + {saltus} from n = {preperiod}, \
                 seen {repeats} times{why}"
            )
        }
        Periodicity::None { longest_checked } => {
            format!("none found (periods up to {longest_checked} looked for)")
        }
    }
}

fn write_text(
    out: &mut dyn Write,
    seq: &Sequence,
    name: &str,
    args: &GrundyArgs,
    theme: Theme,
    kept: Option<&Path>,
) -> Result<()> {
    let game = seq.game();
    let stats = seq.stats();
    let label = |s: &str| theme.strong(s);
    writeln!(out, "{} {name}, code {game}", label("Game:"))?;
    let stopped = if seq.upto() < args.upto() { " (stopped once periodicity was proved)" } else { "" };
    writeln!(out, "{} G(0) to G({}){stopped}", label("Computed:"), seq.upto())?;
    writeln!(out, "{} {}", label("Checksum:"), stats.checksum())?;
    writeln!(out, "{} {} (first at n = {})", label("Largest value:"), stats.max(), stats.first_max())?;
    writeln!(out, "{} {}", label("Zeros (losing single heaps):"), stats.zeros())?;
    let last = stats.last_rare().map_or_else(|| "none".to_owned(), |n| format!("n = {n}"));
    writeln!(
        out,
        "{} mask {}: {} rare, {} common; last rare at {last}",
        label("Rare/common:"),
        stats.mask(),
        stats.rare_count(),
        stats.common_count()
    )?;
    if stats.rare_count() > 0 && stats.rare().len() <= LISTED_RARE {
        let list: Vec<String> = stats.rare().iter().map(|(n, g)| format!("{n}:{g}")).collect();
        writeln!(out, "  rare n:G(n): {}", list.join(" "))?;
    }
    writeln!(out, "{} {}", label("Periodicity:"), describe_periodicity(seq.periodicity(), game))?;
    if let Some(path) = kept {
        writeln!(
            out,
            "{} {} (`bouton analyze --rules octal:{game}` and play use it for heaps of any size)",
            label("Proof kept in:"),
            path.display()
        )?;
    }
    if args.summary {
        return Ok(());
    }
    if seq.upto() > TABLE_UPTO && !args.table {
        writeln!(
            out,
            "(The table is printed for N up to {TABLE_UPTO}; --table prints it anyway, --json lists every value.)"
        )?;
        return Ok(());
    }
    writeln!(out)?;
    let width = stats.max().to_string().len().max(2);
    let n_width = seq.upto().to_string().len().max(3);
    let header: Vec<String> = (0..PER_ROW).map(|i| format!("{:>width$}", format!("+{i}"))).collect();
    writeln!(out, "{} | {}", theme.dim(&format!("{:>n_width$}", "n")), theme.dim(&header.join(" ")))?;
    let mut row = Vec::with_capacity(PER_ROW as usize);
    for (n, value) in seq.iter().enumerate() {
        let value = value.context("cannot read the values back from disk")?;
        row.push(format!("{value:>width$}"));
        if row.len() == PER_ROW as usize || n as u64 == seq.upto() {
            let start = n as u64 + 1 - row.len() as u64;
            writeln!(out, "{} | {}", theme.dim(&format!("{start:>n_width$}")), row.join(" "))?;
            row.clear();
        }
    }
    Ok(())
}

#[derive(Serialize)]
struct JsonMax {
    value: u32,
    first_at: u64,
}

#[derive(Serialize)]
struct JsonRare<'a> {
    mask: String,
    mask_bits: u32,
    count: u64,
    common: u64,
    last: Option<u64>,
    /// `[n, G(n)]` for every rare n (up to the library's limit).
    values: &'a [(u64, u32)],
}

#[derive(Serialize)]
struct JsonReport<'a> {
    game: String,
    name: &'a str,
    upto: u64,
    engine: bouton_grundy::Engine,
    checksum: String,
    max: JsonMax,
    zeros: u64,
    rare: JsonRare<'a>,
    periodicity: &'a Periodicity,
    /// The file the proof was kept in, if it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    proof_kept: Option<String>,
}

fn write_json(out: &mut dyn Write, seq: &Sequence, name: &str, values: bool, kept: Option<&Path>) -> Result<()> {
    let stats = seq.stats();
    let report = JsonReport {
        game: seq.game().to_string(),
        name,
        upto: seq.upto(),
        engine: seq.engine(),
        checksum: stats.checksum().to_string(),
        max: JsonMax { value: stats.max(), first_at: stats.first_max() },
        zeros: stats.zeros(),
        rare: JsonRare {
            mask: stats.mask().to_string(),
            mask_bits: stats.mask().bits(),
            count: stats.rare_count(),
            common: stats.common_count(),
            last: stats.last_rare(),
            values: stats.rare(),
        },
        periodicity: seq.periodicity(),
        proof_kept: kept.map(|p| p.display().to_string()),
    };
    let text = serde_json::to_string(&report)?;
    if !values {
        writeln!(out, "{text}")?;
        return Ok(());
    }
    // The values can be millions: stream them into the object.
    out.write_all(&text.as_bytes()[..text.len() - 1])?;
    out.write_all(b",\"values\":[")?;
    for (n, value) in seq.iter().enumerate() {
        let value = value.context("cannot read the values back from disk")?;
        if n > 0 {
            out.write_all(b",")?;
        }
        write!(out, "{value}")?;
    }
    writeln!(out, "]}}")?;
    Ok(())
}
