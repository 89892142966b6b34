//! A quotient written down and read back: the text form of what the engine
//! proved for a game (the quotient of the heaps it reached, and why it
//! stopped there, if it did), and the check that makes a text trusted again.
//!
//! ```text
//! bouton-misere quotient
//! version 1
//! code 0.77
//! heaps 179
//! period 71 12 179
//! identity 0
//! p 0100…
//! phi 0 1 2 …
//! orders 1 2 6 …
//! p-sizes 0 1 2 …
//! stopped none
//! table
//! 0 1 2 …
//! …
//! checksum 0123456789ABCDEF
//! ```
//!
//! `period PRE PERIOD PROVED_AT` or `period none`; `p` one character per
//! element (`1` in the P-portion); `phi` the element of heaps 0 … `heaps`;
//! `stopped` is `none`, `too-large HEAP LIMIT`, `unverified HEAP WHY` or
//! `budget HEAP OPERATIONS MILLISECONDS` (`-` for no time limit: the budget
//! that ran out); `table` has one row per element; `checksum` is FNV-1a 64
//! of every byte before its line.
//!
//! Reading a text **proves its quotient again** rather than trusting it:
//! the table must be a commutative monoid (identity, commutativity, Light's
//! associativity test on the heaps' elements, which generate it), reduced
//! (no two elements with the same outcomes under every multiplier: then it
//! is the quotient, not a coarser or finer image), the proof's walk
//! (`verify.rs`) must show the outcome right for every position of heaps up
//! to `heaps`, and the period must be the one the periodicity argument gives
//! for these elements (`proved_period`). This costs one walk, where the
//! computation walked at every heap and refined. The `orders`, `p-sizes` and
//! `stopped` lines record the computation and are only checked for form (a
//! wrong `stopped` can only make a front-end search where it could have
//! computed).

use std::fmt::Write as _;
use std::time::Duration;

use bouton_grundy::{HeapGame, Meter};

use crate::extend::Stage;
use crate::pretending::proved_period;
use crate::quotient::finish;
use crate::verify::verify_witness;
use crate::{MisereError, MisereQuotient, Period};

const MAGIC: &str = "bouton-misere quotient";
const VERSION: u32 = 1;
/// The largest order a text may have (a table of 4·10⁶ entries).
const MAX_ORDER: usize = 2_000;
/// The most heaps a text may cover.
const MAX_HEAPS: u64 = crate::MAX_UPTO;

/// Why the engine stopped before the range it was asked for, as kept.
///
/// ```
/// use bouton_misere::Stop;
/// use std::time::Duration;
///
/// let stop = Stop::Budget { heap: 30, operations: 1_000_000_000, time: Some(Duration::from_secs(20)) };
/// assert!(stop.retried_with(2_000_000_000, None));
/// assert!(!stop.retried_with(1_000_000_000, Some(Duration::from_secs(2))));
/// assert!(!Stop::Final { heap: 30, why: "too many states".into() }.retried_with(u64::MAX, None));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The next heap cannot be added whatever the budget: the quotient grows
    /// past the largest order, or the engine cannot prove it.
    Final {
        /// The heap that could not be added.
        heap: u64,
        /// Why, in words.
        why: String,
    },
    /// The next heap was not added within this budget.
    Budget {
        /// The heap that could not be added.
        heap: u64,
        /// The operations the budget allowed.
        operations: u64,
        /// Its time limit, if any.
        time: Option<Duration>,
    },
}

impl Stop {
    /// The stop for `error`, the engine's reason, tried with `operations` and
    /// `time`: `None` when it was cancelled (nothing learnt about the game).
    ///
    /// ```
    /// use bouton_misere::{MisereError, Stop};
    ///
    /// let error = MisereError::TooLarge { limit: 20, heap: 14 };
    /// assert_eq!(Stop::from_error(&error, 1000, None), Some(Stop::Final { heap: 14, why: error.to_string() }));
    /// ```
    pub fn from_error(error: &MisereError, operations: u64, time: Option<Duration>) -> Option<Stop> {
        match error {
            MisereError::OverBudget { source: bouton_grundy::OverBudget::Cancelled, .. } => None,
            MisereError::OverBudget { heap, .. } => Some(Stop::Budget { heap: *heap, operations, time }),
            MisereError::TooLarge { heap, .. } | MisereError::Unverified { heap, .. } => {
                Some(Stop::Final { heap: *heap, why: error.to_string() })
            }
            MisereError::TooFar { upto, .. } => Some(Stop::Final { heap: *upto, why: error.to_string() }),
            MisereError::NotAMonoid { .. } => Some(Stop::Final { heap: 0, why: error.to_string() }),
        }
    }

    /// The heap that could not be added.
    pub fn heap(&self) -> u64 {
        match self {
            Stop::Final { heap, .. } | Stop::Budget { heap, .. } => *heap,
        }
    }

    /// Whether a budget of `operations` and `time` is worth trying again:
    /// only when this stop was the budget's and the new one allows more.
    pub fn retried_with(&self, operations: u64, time: Option<Duration>) -> bool {
        let Stop::Budget { operations: tried, time: tried_time, .. } = self else {
            return false;
        };
        let more_time = match (time, tried_time) {
            (None, Some(_)) => true,
            (Some(now), Some(then)) => now > *then,
            _ => false,
        };
        operations > *tried || more_time
    }
}

/// What the engine proved for a game: the quotient of the heaps it reached
/// (the whole game's when its period is proved) and, when it stopped short,
/// why. This is what [`crate::QuotientStore`] keeps and what bouton ships.
///
/// ```
/// use bouton_misere::{solve_partial, HeapGame, Kept, SolveOptions};
///
/// let game: HeapGame = "0.34".parse()?;
/// let kept = Kept::from_partial(solve_partial(&game, &SolveOptions::upto(100))?, 0, None);
/// let text = kept.to_text();
/// let again = Kept::from_text(&game, &text, &mut bouton_misere::Meter::unlimited())?;
/// assert_eq!(again.quotient.order(), 12);
/// assert_eq!(again.quotient.pretending().period(), kept.quotient.pretending().period());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// The proved quotient.
    pub quotient: MisereQuotient,
    /// Why the next heap was not added, if the engine stopped short.
    pub stopped: Option<Stop>,
}

/// Why a text is not a kept quotient, or not this game's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeptError {
    /// The text is damaged or does not prove what it says.
    #[error("{0}")]
    Rejected(String),
    /// Checking it ran out of budget.
    #[error(transparent)]
    Budget(MisereError),
}

impl Kept {
    /// What [`crate::solve_partial`] reached, with the budget it was given
    /// (`operations` and `time`) for the record of a budget's stop.
    pub fn from_partial(partial: crate::Partial, operations: u64, time: Option<Duration>) -> Kept {
        let stopped = partial.stopped.as_ref().and_then(|e| Stop::from_error(e, operations, time));
        Kept { quotient: partial.quotient, stopped }
    }

    /// The text form (see the module's documentation).
    pub fn to_text(&self) -> String {
        let q = &self.quotient;
        let mut text = String::new();
        let _ = writeln!(text, "{MAGIC}\nversion {VERSION}\ncode {}", q.game());
        let _ = writeln!(text, "heaps {}", q.pretending().upto());
        match q.pretending().period() {
            Some(p) => _ = writeln!(text, "period {} {} {}", p.preperiod, p.period, p.proved_at),
            None => text.push_str("period none\n"),
        }
        let _ = writeln!(text, "identity {}", q.monoid().identity().0);
        let p: String = q.monoid().elements().map(|x| if q.is_p(x) { '1' } else { '0' }).collect();
        let _ = writeln!(text, "p {p}");
        let _ = writeln!(text, "phi {}", join(q.pretending().computed().iter().map(|x| x.0)));
        let _ = writeln!(text, "orders {}", join(q.orders().iter().copied()));
        let _ = writeln!(text, "p-sizes {}", join(q.p_sizes().iter().copied()));
        match &self.stopped {
            None => text.push_str("stopped none\n"),
            Some(Stop::Final { heap, why }) => _ = writeln!(text, "stopped final {heap} {}", why.replace('\n', " ")),
            Some(Stop::Budget { heap, operations, time }) => {
                let ms = time.map_or_else(|| "-".to_owned(), |t| t.as_millis().to_string());
                let _ = writeln!(text, "stopped budget {heap} {operations} {ms}");
            }
        }
        text.push_str("table\n");
        let m = q.monoid();
        for x in m.elements() {
            let _ = writeln!(text, "{}", join(m.elements().map(|y| m.multiply(x, y).0)));
        }
        let _ = writeln!(text, "checksum {:016X}", fnv(text.as_bytes()));
        text
    }

    /// Reads the text of `game`'s kept quotient and proves it again (see the
    /// module's documentation), spending on `meter`.
    ///
    /// # Errors
    /// [`KeptError::Rejected`] when the text is damaged, another game's, or
    /// its quotient fails the proof; [`KeptError::Budget`] when the meter
    /// runs out first.
    pub fn from_text(game: &HeapGame, text: &str, meter: &mut Meter) -> Result<Kept, KeptError> {
        let reject = |why: String| KeptError::Rejected(why);
        let (body, sum) =
            text.trim_end_matches('\n').rsplit_once("checksum ").ok_or_else(|| reject("no checksum".to_owned()))?;
        let sum =
            u64::from_str_radix(sum.trim(), 16).map_err(|_| reject("a checksum that is not hexadecimal".into()))?;
        if fnv(body.as_bytes()) != sum {
            return Err(reject("its checksum does not match (the text is damaged)".to_owned()));
        }
        let fields = Fields::parse(body).map_err(reject)?;
        if fields.code != game.to_string() {
            return Err(reject(format!("it is the quotient of {}, not of {game}", fields.code)));
        }
        let stage = fields.stage;
        check(&stage, game, fields.period, meter)?;
        let order = stage.order;
        let upto = stage.upto();
        let p_size = stage.p.iter().filter(|&&b| b).count();
        let history_fits = fields.orders.len() as u64 == upto + 1
            && fields.p_sizes.len() as u64 == upto + 1
            && fields.orders.last() == Some(&order)
            && fields.p_sizes.last() == Some(&p_size);
        if !history_fits {
            return Err(reject("its orders and P-sizes do not end on the quotient's".to_owned()));
        }
        let quotient =
            finish(game, stage, fields.orders, fields.p_sizes, fields.period).map_err(|e| reject(e.to_string()))?;
        Ok(Kept { quotient, stopped: fields.stopped })
    }
}

/// Proves `stage` the quotient of `game`'s heaps up to its range, with
/// `period` the one the periodicity argument gives.
fn check(stage: &Stage, game: &HeapGame, period: Option<Period>, meter: &mut Meter) -> Result<(), KeptError> {
    let reject = |why: &str| Err(KeptError::Rejected(why.to_owned()));
    let m = stage.order;
    let n = stage.upto();
    meter.spend((m * m) as u64).map_err(|source| KeptError::Budget(MisereError::OverBudget { heap: n, source }))?;
    let id = stage.identity as usize;
    for x in 0..m as u32 {
        if stage.mul(stage.identity, x) != x {
            return reject("its identity is not one");
        }
        for y in 0..x {
            if stage.mul(x, y) != stage.mul(y, x) {
                return reject("its table is not commutative");
            }
        }
    }
    // The heaps' elements generate the table.
    let mut generators: Vec<u32> = stage.phi[1..].to_vec();
    generators.sort_unstable();
    generators.dedup();
    let mut reached = vec![false; m];
    reached[id] = true;
    let mut stack = vec![stage.identity];
    while let Some(x) = stack.pop() {
        for &g in &generators {
            let y = stage.mul(x, g);
            if !reached[y as usize] {
                reached[y as usize] = true;
                stack.push(y);
            }
        }
    }
    if reached.contains(&false) {
        return reject("the heaps' elements do not generate it");
    }
    // Light's test: (x·g)·y = x·(g·y) for every generator g suffices.
    meter
        .spend((m * m * generators.len()) as u64)
        .map_err(|source| KeptError::Budget(MisereError::OverBudget { heap: n, source }))?;
    for &g in &generators {
        for x in 0..m as u32 {
            let xg = stage.mul(x, g);
            for y in 0..m as u32 {
                if stage.mul(xg, y) != stage.mul(x, stage.mul(g, y)) {
                    return reject("its table is not associative");
                }
            }
        }
    }
    // Reduced: no two elements with the same outcome under every multiplier.
    let mut rows: std::collections::HashSet<Vec<bool>> = std::collections::HashSet::new();
    for x in 0..m as u32 {
        if !rows.insert((0..m as u32).map(|z| stage.p[stage.mul(x, z) as usize]).collect()) {
            return reject("two of its elements are indistinguishable (it is not reduced)");
        }
    }
    match verify_witness(stage, game, meter).map_err(KeptError::Budget)? {
        Ok(()) => {}
        Err(failure) => return Err(KeptError::Rejected(format!("its proof fails: {failure}"))),
    }
    let argued = game.is_finite_octal().then(|| game.last_digit()).flatten().and_then(|t| proved_period(&stage.phi, t));
    if argued != period {
        return reject("its period is not the one its elements prove");
    }
    Ok(())
}

/// The fields of a text, read strictly.
struct Fields {
    code: String,
    stage: Stage,
    period: Option<Period>,
    orders: Vec<usize>,
    p_sizes: Vec<usize>,
    stopped: Option<Stop>,
}

impl Fields {
    fn parse(body: &str) -> Result<Fields, String> {
        let mut lines = body.lines();
        let mut line = |key: &str| -> Result<&str, String> {
            let text = lines.next().ok_or_else(|| format!("it ends before `{key}`"))?;
            if key == MAGIC {
                return if text == MAGIC { Ok("") } else { Err("it is not a bouton-misere quotient".to_owned()) };
            }
            text.strip_prefix(key)
                .and_then(|rest| if rest.is_empty() { Some(rest) } else { rest.strip_prefix(' ') })
                .ok_or_else(|| format!("`{key}` expected"))
        };
        line(MAGIC)?;
        if line("version")? != VERSION.to_string() {
            return Err(format!("not version {VERSION}"));
        }
        let code = line("code")?.to_owned();
        let heaps: u64 = number(line("heaps")?)?;
        if heaps > MAX_HEAPS {
            return Err("too many heaps".to_owned());
        }
        let period = match line("period")? {
            "none" => None,
            text => match numbers::<u64>(text)?[..] {
                [preperiod, period, proved_at] => Some(Period { preperiod, period, proved_at }),
                _ => return Err("a period of three numbers expected".to_owned()),
            },
        };
        let identity: u32 = number(line("identity")?)?;
        let p: Vec<bool> = line("p")?
            .chars()
            .map(|c| match c {
                '0' => Ok(false),
                '1' => Ok(true),
                _ => Err("`p` is 0s and 1s".to_owned()),
            })
            .collect::<Result<_, _>>()?;
        let order = p.len();
        if order == 0 || order > MAX_ORDER {
            return Err(format!("an order of 1 to {MAX_ORDER} expected"));
        }
        let phi: Vec<u32> = numbers(line("phi")?)?;
        let orders: Vec<usize> = numbers(line("orders")?)?;
        let p_sizes: Vec<usize> = numbers(line("p-sizes")?)?;
        let stopped = Stop::parse(line("stopped")?)?;
        line("table")?;
        let mut table = Vec::with_capacity(order * order);
        for _ in 0..order {
            let row: Vec<u32> = numbers(lines.next().ok_or("the table ends early")?)?;
            if row.len() != order {
                return Err("a row of the table of the wrong length".to_owned());
            }
            table.extend(row);
        }
        if lines.next().is_some() {
            return Err("more rows than elements".to_owned());
        }
        let in_range = |x: &u32| (*x as usize) < order;
        if !in_range(&identity) || !table.iter().all(in_range) || !phi.iter().all(in_range) {
            return Err("an element out of range".to_owned());
        }
        if phi.len() as u64 != heaps + 1 || phi.first() != Some(&identity) {
            return Err("`phi` must give heaps 0 (the identity) to `heaps`".to_owned());
        }
        Ok(Fields { code, stage: Stage { order, table, identity, p, phi }, period, orders, p_sizes, stopped })
    }
}

impl Stop {
    fn parse(text: &str) -> Result<Option<Stop>, String> {
        let mut words = text.splitn(3, ' ');
        let kind = words.next().unwrap_or_default();
        if kind == "none" {
            return Ok(None);
        }
        let heap: u64 = number(words.next().unwrap_or_default())?;
        let rest = words.next().unwrap_or_default();
        match kind {
            "final" => Ok(Some(Stop::Final { heap, why: rest.to_owned() })),
            "budget" => {
                let (ops, ms) = rest.split_once(' ').ok_or("a budget of operations and time expected")?;
                let time = if ms == "-" { None } else { Some(Duration::from_millis(number(ms)?)) };
                Ok(Some(Stop::Budget { heap, operations: number(ops)?, time }))
            }
            _ => Err("`stopped` is none, final or budget".to_owned()),
        }
    }
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("`{text}` is not a number"))
}

fn numbers<T: std::str::FromStr>(text: &str) -> Result<Vec<T>, String> {
    text.split(' ').filter(|w| !w.is_empty()).map(number).collect()
}

fn join<T: ToString>(items: impl Iterator<Item = T>) -> String {
    items.map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
}

/// FNV-1a, 64 bits.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}
