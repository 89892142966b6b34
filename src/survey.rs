//! `bouton grundy --survey`: many octal games at once — each one computed
//! until its periodicity is proved, up to N, or until its budget of work is
//! spent — and one table of what became of each.

use std::cell::Cell;
use std::io::{self, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use bouton_grundy::{
    Budget, ComputeError, ComputeOptions, HeapGame, OverBudget, Periodicity, Progress, Sequence, compute,
};
use serde::Serialize;

use crate::UsageError;

/// The most digits after the point a range may enumerate (7 · 8^(k−1)
/// codes of k digits: 3,584 of four digits).
const MAX_RANGE_DIGITS: usize = 4;

/// The games of a survey: `A..B` (every code from A to B with as many digits
/// after the point as the longer of the two, in the order of their values,
/// the last digit not 0) or a comma-separated list of codes.
pub fn codes(spec: &str) -> Result<Vec<HeapGame>, UsageError> {
    let spec = spec.trim();
    if let Some((from, to)) = spec.split_once("..") {
        let from = plain_code(from)?;
        let to = plain_code(to)?;
        let digits = from.1.len().max(to.1.len());
        if digits > MAX_RANGE_DIGITS {
            return Err(UsageError(format!(
                "a survey range enumerates codes of at most {MAX_RANGE_DIGITS} digits after the point; \
                 give a list of codes for longer ones"
            )));
        }
        let key = |d0: u8, fraction: &[u8]| {
            let mut padded = fraction.to_vec();
            padded.resize(digits, 0);
            (d0, padded, fraction.len())
        };
        let (low, high) = (key(from.0, &from.1), key(to.0, &to.1));
        if low > high {
            return Err(UsageError(format!("the survey range {spec} is empty: its first code comes after its last")));
        }
        let mut found = Vec::new();
        for d0 in [0u8, 4] {
            for len in 1..=digits {
                let count = 8usize.pow(len as u32);
                for index in 0..count {
                    let fraction: Vec<u8> = (0..len).map(|i| ((index >> (3 * (len - 1 - i))) & 7) as u8).collect();
                    if fraction[len - 1] == 0 {
                        continue;
                    }
                    let k = key(d0, &fraction);
                    if low <= k && k <= high {
                        found.push(k);
                    }
                }
            }
        }
        found.sort();
        return found
            .into_iter()
            .map(|(d0, padded, len)| {
                let text: String = std::iter::once(char::from(b'0' + d0))
                    .chain(std::iter::once('.'))
                    .chain(padded[..len].iter().map(|d| char::from(b'0' + d)))
                    .collect();
                text.parse::<HeapGame>().map_err(|e| UsageError(e.to_string()))
            })
            .collect();
    }
    let games: Vec<HeapGame> = spec
        .split(',')
        .map(|code| code.trim().parse::<HeapGame>().map_err(|e| UsageError(format!("in --survey: {e}"))))
        .collect::<Result<_, _>>()?;
    if games.is_empty() {
        return Err(UsageError("--survey needs a range such as 0.1..0.777 or a list such as 0.16,0.354".into()));
    }
    Ok(games)
}

/// A range end: `d0.d1d2…` with octal digits, d0 being 0 or 4.
fn plain_code(text: &str) -> Result<(u8, Vec<u8>), UsageError> {
    let text = text.trim();
    let bad = || {
        UsageError(format!(
            "{} is not a survey range end: write an octal code such as 0.1 or 4.777 (d0 is 0 or 4, octal digits \
             after the point), as in 0.1..0.777",
            bouton_rules::excerpt(text)
        ))
    };
    let (whole, fraction) = text.split_once('.').ok_or_else(bad)?;
    let d0 = match whole {
        "0" => 0,
        "4" => 4,
        _ => return Err(bad()),
    };
    if fraction.is_empty() || !fraction.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return Err(bad());
    }
    Ok((d0, fraction.bytes().map(|b| b - b'0').collect()))
}

/// What each game of a survey may take: a budget of work that decides where
/// a game stops — the same on a busy machine and an idle one — and a
/// wall-clock limit that is only a safety net.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurveyLimits {
    /// Operations per game: options looked at, as the engine counts them
    /// ([`Progress::operations`]), which depend on the game and its values
    /// alone.
    pub operations: u64,
    /// Bytes the values of one game may hold in memory (beyond, they go to
    /// a file and the computation goes on).
    pub bytes: u64,
    /// The safety net: a game still running after this long stops, and its
    /// row says so ("time up"); the table then depends on the machine.
    pub time: Duration,
}

impl SurveyLimits {
    /// The default operations per game: 6·10^9, enough for every
    /// three-digit code whose values stay small to reach 10^6 (0.564 to
    /// 0.567 need the most, 5.25·10^9), and roughly 8 s of one core for
    /// those whose values keep growing (see the README).
    pub const OPERATIONS: u64 = 6_000_000_000;
    /// The default memory per game: 256 MiB.
    pub const BYTES: u64 = 256 << 20;
    /// The default safety net per game: 10 minutes.
    pub const TIME: Duration = Duration::from_secs(600);

    /// The budget of one game, its clock not yet started.
    fn budget(&self) -> Budget {
        Budget::new(self.operations, self.bytes).with_time_limit(self.time)
    }
}

impl Default for SurveyLimits {
    fn default() -> SurveyLimits {
        SurveyLimits { operations: SurveyLimits::OPERATIONS, bytes: SurveyLimits::BYTES, time: SurveyLimits::TIME }
    }
}

/// What the survey found for one game.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum Finding {
    /// Periodic, proved by the periodicity theorem (or, for a game that
    /// never splits a heap, by a whole block of values repeating).
    Proved {
        /// The least period.
        period: u64,
        /// The least n from which the values repeat.
        preperiod: u64,
    },
    /// Periodic over the values computed, not proved.
    Apparent {
        /// The least period seen.
        period: u64,
        /// From where it holds.
        preperiod: u64,
    },
    /// Arithmetic-periodic, proved.
    #[serde(rename = "arithmetic-proved")]
    ArithmeticProved {
        /// The period.
        period: u64,
        /// What each period adds.
        saltus: u64,
        /// From where it holds.
        preperiod: u64,
    },
    /// Arithmetic-periodic over the values computed, not proved.
    Arithmetic {
        /// The period.
        period: u64,
        /// What each period adds.
        saltus: u64,
        /// From where it holds.
        preperiod: u64,
    },
    /// No period over the values computed.
    Unsolved,
    /// The game's budget of work was spent first.
    #[serde(rename = "work-spent")]
    WorkSpent,
    /// The safety net's time limit (or Ctrl-C) stopped the game first.
    Stopped,
    /// The game could not be computed (a value beyond what the engine
    /// stores, memory).
    Failed {
        /// Why.
        reason: String,
    },
}

/// One row of the survey.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// The game's code.
    pub code: String,
    /// What was found.
    #[serde(flatten)]
    pub finding: Finding,
    /// The largest value computed (none when stopped).
    pub largest: Option<u32>,
    /// How many values were computed (or known from the game computed).
    pub computed: u64,
    /// Operations spent (see [`SurveyLimits::operations`]; 0 for a game
    /// known from another one's values).
    pub operations: u64,
    /// Seconds spent (0 for a game known from another one's values): a
    /// measurement, which depends on the machine and its load.
    pub seconds: f64,
    /// The game actually computed, when it is another one whose values
    /// are this game's shifted (its standard form: see
    /// [`HeapGame::first_cousin`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computed_as: Option<String>,
}

/// A game's standard form: its first cousin's first cousin … as far as they
/// go, and how many steps. G(n) = G_std(n − shift) for n ≥ shift, and 0 below.
fn standard_form(game: &HeapGame) -> (HeapGame, u64) {
    let mut form = game.clone();
    let mut shift = 0;
    // Each step moves the digits one place left, so chains are short; the
    // bound is a guard.
    while shift < 64 {
        match form.first_cousin() {
            Some(cousin) if cousin != form => {
                form = cousin;
                shift += 1;
            }
            _ => break,
        }
    }
    (form, shift)
}

/// The least pre-period of the game whose values are `seq`'s shifted by
/// `shift` (zeros below), for period `p`, given that it holds from `from`.
fn shifted_preperiod(seq: &Sequence, shift: u64, p: u64, from: u64) -> u64 {
    let g = |n: u64| if n < shift { Some(0) } else { seq.get(n - shift) };
    let mut e = from;
    while e > 0 && g(e - 1).is_some() && g(e - 1) == g(e - 1 + p) {
        e -= 1;
    }
    e
}

/// The row of a game whose values are those of `computed` shifted by
/// `shift` (see [`standard_form`]).
fn shifted_row(code: String, row: &Row, seq: Option<&Sequence>, shift: u64, upto: u64) -> Row {
    let adjust = |p: u64, e: u64| seq.map_or(e + shift, |seq| shifted_preperiod(seq, shift, p, e + shift));
    let finding = match &row.finding {
        Finding::Proved { period, preperiod } => {
            Finding::Proved { period: *period, preperiod: adjust(*period, *preperiod) }
        }
        Finding::Apparent { period, preperiod } => {
            Finding::Apparent { period: *period, preperiod: adjust(*period, *preperiod) }
        }
        Finding::Arithmetic { period, saltus, preperiod } => {
            Finding::Arithmetic { period: *period, saltus: *saltus, preperiod: preperiod + shift }
        }
        Finding::ArithmeticProved { period, saltus, preperiod } => {
            Finding::ArithmeticProved { period: *period, saltus: *saltus, preperiod: preperiod + shift }
        }
        other => other.clone(),
    };
    let computed = if row.computed == 0 { 0 } else { (row.computed + shift).min(upto + 1) };
    Row {
        code,
        finding,
        largest: row.largest,
        computed,
        operations: 0,
        seconds: 0.0,
        computed_as: Some(row.code.clone()),
    }
}

/// Computes one game for the survey: until proved, up to `upto`, or until
/// its budget is spent (or `interrupted` is raised); its row, and its
/// values when computed.
///
/// The engine reports its operations every 256 values or so, at points
/// that depend on n alone; the budget is checked there and the engine
/// stops at its next report, so a game whose work runs out stops at the
/// same n however loaded the machine is.
fn survey_one(game: &HeapGame, upto: u64, limits: &SurveyLimits, interrupted: &AtomicBool) -> (Row, Option<Sequence>) {
    let started = Instant::now();
    let mut meter = limits.budget().meter();
    let stop = AtomicBool::new(false);
    let why: Cell<Option<OverBudget>> = Cell::new(None);
    let spent = Cell::new(0u64);
    let mut watch = |p: Progress| {
        let more = p.operations.saturating_sub(spent.get());
        spent.set(p.operations);
        let over = if interrupted.load(Ordering::Relaxed) { Err(OverBudget::Cancelled) } else { meter.spend(more) };
        if let Err(e) = over
            && why.get().is_none()
        {
            why.set(Some(e));
            stop.store(true, Ordering::Relaxed);
        }
    };
    let options = ComputeOptions {
        stop_when_proved: true,
        cancel: Some(&stop),
        progress: Some(&mut watch),
        memory_limit: limits.bytes,
        threads: 1,
        ..Default::default()
    };
    let mut values = None;
    let result = compute(game, upto, options);
    let (finding, largest, computed) = match result {
        Ok(seq) => {
            // A proof analysis could not make by itself is kept for it.
            crate::grundy::keep_proof(&seq);
            let finding = match *seq.periodicity() {
                Periodicity::Proved { period, preperiod, .. } => Finding::Proved { period, preperiod },
                Periodicity::Apparent { period, preperiod, .. } => Finding::Apparent { period, preperiod },
                Periodicity::Arithmetic { period, saltus, preperiod, .. } => {
                    Finding::Arithmetic { period, saltus, preperiod }
                }
                Periodicity::ArithmeticProved { period, saltus, preperiod, .. } => {
                    Finding::ArithmeticProved { period, saltus, preperiod }
                }
                Periodicity::None { .. } => Finding::Unsolved,
            };
            let found = (finding, Some(seq.stats().max()), seq.len());
            values = Some(seq);
            found
        }
        Err(ComputeError::Cancelled { reached }) => match why.get() {
            Some(OverBudget::Operations { .. }) => (Finding::WorkSpent, None, reached),
            _ => (Finding::Stopped, None, reached),
        },
        Err(e) => (Finding::Failed { reason: e.to_string() }, None, 0),
    };
    let seconds = started.elapsed().as_secs_f64();
    let row =
        Row { code: game.to_string(), finding, largest, computed, operations: spent.get(), seconds, computed_as: None };
    (row, values)
}

/// Runs the survey on two threads (each game on one), every game within
/// `limits`; `interrupted` stops it all, and `on_progress` hears how many
/// games are done now and then. Rows come back in the games' order. Games
/// with the same standard form (see [`HeapGame::first_cousin`]: 448 codes
/// of three digits have 266) are computed once, as that form, and each
/// one's row is read from its values shifted.
pub fn survey(
    games: &[HeapGame],
    upto: u64,
    limits: &SurveyLimits,
    interrupted: &AtomicBool,
    on_progress: &mut dyn FnMut(usize),
) -> Vec<Row> {
    const WORKERS: usize = 2;
    // The forms to compute, in the order of their first game, with the
    // games (index, shift) each one answers.
    let mut forms: Vec<(HeapGame, Vec<(usize, u64)>)> = Vec::new();
    for (index, game) in games.iter().enumerate() {
        let (form, shift) = standard_form(game);
        match forms.iter_mut().find(|(f, _)| *f == form) {
            Some((_, members)) => members.push((index, shift)),
            None => forms.push((form, vec![(index, shift)])),
        }
    }
    let forms = &forms;
    let next = AtomicUsize::new(0);
    let rows: Mutex<Vec<Option<Row>>> = Mutex::new(vec![None; games.len()]);
    let finished = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            let (next, rows, finished, done) = (&next, &rows, &finished, &done);
            scope.spawn(move || {
                loop {
                    let at = next.fetch_add(1, Ordering::Relaxed);
                    if at >= forms.len() || interrupted.load(Ordering::Relaxed) {
                        break;
                    }
                    let (form, members) = &forms[at];
                    let (row, seq) = survey_one(form, upto, limits, interrupted);
                    let mut rows = rows.lock().unwrap_or_else(|e| e.into_inner());
                    for &(index, shift) in members {
                        rows[index] = Some(if shift == 0 {
                            row.clone()
                        } else {
                            shifted_row(games[index].to_string(), &row, seq.as_ref(), shift, upto)
                        });
                    }
                    done.fetch_add(members.len(), Ordering::Relaxed);
                }
                finished.fetch_add(1, Ordering::Relaxed);
            });
        }
        while finished.load(Ordering::Relaxed) < WORKERS {
            std::thread::sleep(Duration::from_millis(20));
            on_progress(done.load(Ordering::Relaxed));
        }
    });
    rows.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().flatten().collect()
}

/// Operations written short: `950`, `8.1e6`, `2.0e10`.
fn short(operations: u64) -> String {
    if operations < 10_000 {
        return operations.to_string();
    }
    let exponent = operations.ilog10();
    let mantissa = operations as f64 / 10f64.powi(exponent as i32);
    // 9.96e6 rounds to 10.0e6: write it 1.0e7.
    let tenths = (mantissa * 10.0).round() as u64;
    let (tenths, exponent) = if tenths >= 100 { (10, exponent + 1) } else { (tenths, exponent) };
    format!("{}.{}e{exponent}", tenths / 10, tenths % 10)
}

/// The survey as a table, one game per line, and a count of the findings.
/// Everything in it depends on the games and `limits` alone — the same
/// table on any machine under any load — unless the safety net's time
/// limit stopped a game, which the last line then says.
pub fn write_table(out: &mut dyn Write, rows: &[Row], upto: u64, limits: &SurveyLimits) -> io::Result<()> {
    writeln!(
        out,
        "{:<8} {:<53} {:>10} {:>11} {:>7} {:>11} {:>8}",
        "code", "result", "period", "pre-period", "largest", "values", "work"
    )?;
    let dash = "–";
    let (mut proved, mut apparent, mut open, mut timed_out) = (0, 0, 0, 0);
    for row in rows {
        let (result, period, preperiod) = match &row.finding {
            Finding::Proved { period, preperiod } => {
                proved += 1;
                ("proved".to_owned(), period.to_string(), preperiod.to_string())
            }
            Finding::Apparent { period, preperiod } => {
                apparent += 1;
                (
                    format!("apparent, unsolved to {}", row.computed.saturating_sub(1)),
                    period.to_string(),
                    preperiod.to_string(),
                )
            }
            Finding::ArithmeticProved { period, saltus, preperiod } => {
                proved += 1;
                (format!("arithmetic (saltus {saltus}), proved"), period.to_string(), preperiod.to_string())
            }
            Finding::Arithmetic { period, saltus, preperiod } => {
                apparent += 1;
                (format!("arithmetic (saltus {saltus}), apparent"), period.to_string(), preperiod.to_string())
            }
            Finding::Unsolved => {
                open += 1;
                (format!("unsolved to {}", row.computed.saturating_sub(1)), dash.to_owned(), dash.to_owned())
            }
            Finding::WorkSpent => {
                open += 1;
                (format!("unsolved: work budget spent at n = {}", row.computed), dash.to_owned(), dash.to_owned())
            }
            Finding::Stopped => {
                open += 1;
                timed_out += 1;
                (format!("unsolved: time up at n = {}", row.computed), dash.to_owned(), dash.to_owned())
            }
            Finding::Failed { reason } => {
                open += 1;
                (format!("failed: {reason}"), dash.to_owned(), dash.to_owned())
            }
        };
        let result = match &row.computed_as {
            Some(form) => format!("{result}, via {form}"),
            None => result,
        };
        let largest = row.largest.map_or_else(|| dash.to_owned(), |v| v.to_string());
        let work = if row.computed_as.is_some() { dash.to_owned() } else { short(row.operations) };
        writeln!(
            out,
            "{:<8} {:<53} {:>10} {:>11} {:>7} {:>11} {:>8}",
            row.code, result, period, preperiod, largest, row.computed, work
        )?;
    }
    writeln!(
        out,
        "{} games: {proved} proved periodic, {apparent} apparently periodic, {open} unsolved \
         (each computed to N = {upto} at most, within {} operations)",
        rows.len(),
        short(limits.operations)
    )?;
    if timed_out > 0 {
        writeln!(
            out,
            "{timed_out} stopped by the safety net of {} s per game, before their work budget: their rows depend on \
             the machine and its load",
            limits.time.as_secs()
        )?;
    }
    Ok(())
}
