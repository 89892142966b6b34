//! The engine: the misère quotient of a heap game restricted to heaps up to
//! `n`, for `n = 1, 2, …`, each step proved, until the pretending function
//! is proved periodic or the range asked for is done.

use std::time::Duration;

use bouton_grundy::{Budget, HeapGame};

use crate::extend::{Base, Stage, extend, option_images};
use crate::fattened::{Detail, fattened};
use crate::pretending::proved_period;
use crate::refine::refine;
use crate::verify::{Failure, verify, verify_witness};
use crate::{Element, MisereError, Monoid, Period, Pretending};

/// The most heap sizes the engine adds.
pub const MAX_UPTO: u64 = 100_000;

/// The default largest quotient: past it, [`MisereError::TooLarge`].
pub const DEFAULT_MAX_ORDER: usize = 2_000;

/// How far [`solve`] goes and what it may spend.
///
/// ```
/// use bouton_misere::SolveOptions;
///
/// let options = SolveOptions::upto(200).with_max_order(500);
/// assert_eq!(options.upto, 200);
/// assert_eq!(options.max_order, 500);
/// ```
#[derive(Debug, Clone)]
pub struct SolveOptions {
    /// The largest heap size to add (the engine stops earlier once the
    /// period is proved).
    pub upto: u64,
    /// The most elements a quotient may have.
    pub max_order: usize,
    /// Operations, memory, time and a cancel flag.
    pub budget: Budget,
    /// Go on to `upto` even after the period is proved.
    pub full_range: bool,
}

impl SolveOptions {
    /// Heaps up to `upto`, [`DEFAULT_MAX_ORDER`] elements, a budget of 10^9
    /// operations and a minute.
    pub fn upto(upto: u64) -> SolveOptions {
        SolveOptions {
            upto,
            max_order: DEFAULT_MAX_ORDER,
            budget: Budget::new(1_000_000_000, 1 << 30).with_time_limit(Duration::from_secs(60)),
            full_range: false,
        }
    }

    /// The same with another largest order.
    pub fn with_max_order(mut self, max_order: usize) -> SolveOptions {
        self.max_order = max_order;
        self
    }

    /// The same with another budget.
    pub fn with_budget(mut self, budget: Budget) -> SolveOptions {
        self.budget = budget;
        self
    }

    /// The same, computing every heap up to `upto` even when the period is
    /// proved earlier.
    pub fn full_range(mut self) -> SolveOptions {
        self.full_range = true;
        self
    }
}

/// The misère quotient of a heap game for heaps up to [`Pretending::upto`]
/// (and of the whole game when [`Pretending::period`] is proved): the
/// monoid, its P-portion and the pretending function. Every quotient it
/// holds has been proved right for every position of the heaps it covers.
///
/// ```
/// use bouton_misere::{solve, HeapGame, SolveOptions};
///
/// // Misère Nim with heaps of 1 and 2: the quotient of order 6 (T₂).
/// let nim: HeapGame = "0.3…".parse()?;
/// let q = solve(&nim, &SolveOptions::upto(2))?;
/// assert_eq!(q.order(), 6);
/// assert_eq!(q.p_portion().len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MisereQuotient {
    game: HeapGame,
    monoid: Monoid,
    p: Vec<bool>,
    pretending: Pretending,
    orders: Vec<usize>,
    p_sizes: Vec<usize>,
}

impl MisereQuotient {
    /// The game.
    pub fn game(&self) -> &HeapGame {
        &self.game
    }

    /// The monoid, with its presentation.
    pub fn monoid(&self) -> &Monoid {
        &self.monoid
    }

    /// The number of elements.
    pub fn order(&self) -> usize {
        self.monoid.order()
    }

    /// Whether positions of element `x` are lost by the player to move.
    pub fn is_p(&self, x: Element) -> bool {
        self.p.get(x.0 as usize).copied().unwrap_or(false)
    }

    /// The P-portion: the elements of the positions the player to move loses.
    pub fn p_portion(&self) -> Vec<Element> {
        self.monoid.elements().filter(|&x| self.is_p(x)).collect()
    }

    /// The pretending function.
    pub fn pretending(&self) -> &Pretending {
        &self.pretending
    }

    /// The order of the quotient of heaps up to `n`, for `n = 0..=upto`.
    pub fn orders(&self) -> &[usize] {
        &self.orders
    }

    /// The size of the P-portion of the quotient of heaps up to `n`, for
    /// `n = 0..=upto`.
    pub fn p_sizes(&self) -> &[usize] {
        &self.p_sizes
    }
}

/// What [`solve_partial`] reached: the quotient of the heaps it proved, and
/// why it stopped short of `upto` (`None` when it did not).
#[derive(Debug, Clone)]
pub struct Partial {
    /// The proved quotient of heaps up to `quotient.pretending().upto()`.
    pub quotient: MisereQuotient,
    /// Why the next heap was not added, if it stopped before `upto` without
    /// a proved period.
    pub stopped: Option<MisereError>,
}

/// The misère quotient of `game` for heaps `1, 2, …, options.upto`, adding
/// one heap size at a time as MisereSolver does.
///
/// Each step builds a candidate from the previous quotient (see the module
/// `extend`) and proves it by a walk over every state of the positions of
/// the heaps so far (module `verify`): a quotient returned is exact for
/// every position of those heaps, not sampled. A candidate that fails is
/// refined (module `refine`: the heaps of a failing position set free, the
/// outcomes recomputed by the misère rule, the result proved again); one
/// that cannot be is an error ([`MisereError::Unverified`]), never an
/// answer. [`MisereError::TooLarge`] comes only from a proved quotient
/// larger than `max_order`.
///
/// For a finite octal game whose last non-zero digit is `d_t`, the engine
/// stops as soon as the pretending function is proved periodic: if the
/// quotient of heaps up to `N` is proved and `Φ(h + p) = Φ(h)` for
/// `n0 <= h <= N - p` with `N >= 2·n0 + 3·p + t - 1`, then every larger heap
/// has the same type (element, and the elements its moves reach) as one of
/// `n0..n0 + p` or of `2·n0 + 2·p + t..N` — its options are pairs of heaps at
/// least `n0` covering every residue, or one smaller heap at least `n0` — so
/// the proof for heaps up to `N` covers every position of every size: the
/// quotient is the game's, with the periodic pretending function. (This is
/// the argument of Plambeck and Siegel's periodicity theorem, with a bound
/// checked here rather than quoted.) Otherwise the answer is the exact
/// quotient of heaps up to `upto`, and [`Pretending::period`] is `None`.
///
/// ```
/// use bouton_misere::{solve, HeapGame, SolveOptions};
///
/// let game: HeapGame = "0.34".parse()?;
/// let q = solve(&game, &SolveOptions::upto(100))?;
/// let period = q.pretending().period().expect("proved");
/// assert_eq!((period.preperiod, period.period, period.proved_at), (7, 8, 39));
/// assert_eq!(q.order(), 12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`MisereError::TooLarge`] when a proved quotient passes `max_order`,
/// [`MisereError::OverBudget`] past the budget, [`MisereError::Unverified`]
/// when a candidate cannot be proved, [`MisereError::TooFar`] above
/// [`MAX_UPTO`].
pub fn solve(game: &HeapGame, options: &SolveOptions) -> Result<MisereQuotient, MisereError> {
    let run = run(game, options)?;
    match run.stopped {
        Some(e) => Err(e),
        None => finish(game, run.stage, run.orders, run.p_sizes, run.period),
    }
}

/// Like [`solve`], but when a heap cannot be added (budget, size or proof)
/// it returns the proved quotient of the heaps before it, with the reason:
/// for benchmarks and comparisons that want to know how far it got.
///
/// ```
/// use bouton_misere::{solve_partial, HeapGame, SolveOptions};
///
/// let game: HeapGame = "0.07".parse()?;
/// let partial = solve_partial(&game, &SolveOptions::upto(20).with_max_order(20))?;
/// assert_eq!(partial.quotient.pretending().upto(), 13);
/// assert_eq!(partial.quotient.order(), 12);
/// assert!(partial.stopped.is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`MisereError::TooFar`] above [`MAX_UPTO`].
pub fn solve_partial(game: &HeapGame, options: &SolveOptions) -> Result<Partial, MisereError> {
    let run = run(game, options)?;
    let quotient = finish(game, run.stage, run.orders, run.p_sizes, run.period)?;
    Ok(Partial { quotient, stopped: run.stopped })
}

struct Run {
    stage: Stage,
    orders: Vec<usize>,
    p_sizes: Vec<usize>,
    period: Option<Period>,
    stopped: Option<MisereError>,
}

fn run(game: &HeapGame, options: &SolveOptions) -> Result<Run, MisereError> {
    if options.upto > MAX_UPTO {
        return Err(MisereError::TooFar { upto: options.upto, most: MAX_UPTO });
    }
    let mut meter = options.budget.meter();
    let mut stage = Stage::empty();
    let mut orders = vec![1];
    let mut p_sizes = vec![0];
    let mut period = None;
    let mut stopped = None;
    let last_digit = game.is_finite_octal().then(|| game.last_digit()).flatten();
    for _ in 1..=options.upto {
        let next = match step(&stage, game, &mut meter, options.max_order) {
            Ok(next) => next,
            Err(e) => {
                stopped = Some(e);
                break;
            }
        };
        stage = next;
        orders.push(stage.order);
        p_sizes.push(stage.p.iter().filter(|&&b| b).count());
        if let Some(t) = last_digit
            && period.is_none()
        {
            period = proved_period(&stage.phi, t);
            if period.is_some() && !options.full_range {
                break;
            }
        }
    }
    Ok(Run { stage, orders, p_sizes, period, stopped })
}

/// The proved quotient of heaps up to `stage.upto() + 1`: the candidate on
/// the plain base, else on the fattened base; an error when neither proves.
pub(crate) fn step(
    stage: &Stage,
    game: &HeapGame,
    meter: &mut bouton_grundy::Meter,
    max_order: usize,
) -> Result<Stage, MisereError> {
    let n = stage.upto() + 1;
    // Candidates may be larger than the quotient; only a proved quotient
    // larger than `max_order` shows that the game's quotient is (the
    // quotient of a larger set of heaps has at least as many elements).
    let proved = step_any(stage, game, meter, max_order.saturating_mul(4).max(64))?;
    if proved.order > max_order {
        return Err(MisereError::TooLarge { limit: max_order, heap: n });
    }
    Ok(proved)
}

fn step_any(
    stage: &Stage,
    game: &HeapGame,
    meter: &mut bouton_grundy::Meter,
    cap: usize,
) -> Result<Stage, MisereError> {
    let n = stage.upto() + 1;
    let plain = match extend(stage, &Base::from_stage(stage), game, meter, cap) {
        Ok(plain) => plain,
        Err(MisereError::TooLarge { .. }) => {
            // The plain candidate is too large to be the quotient: refine
            // from the smaller heaps' quotient, the new heap free.
            let mut start = stage.clone();
            start.phi.push(stage.identity);
            let first = Failure { why: "the plain candidate is too large".to_owned(), witness: Vec::new() };
            return refined(&start, first, String::new(), game, meter, cap);
        }
        Err(e) => return Err(e),
    };
    if game.options(n).next().is_none() {
        // A heap with no move is the empty game: the proof of the heaps
        // below covers every position.
        return Ok(plain);
    }
    if plain.table == stage.table && plain.p == stage.p && plain.phi[..stage.phi.len()] == stage.phi[..] {
        // The same monoid: if the new heap has the element and the option
        // elements of a smaller heap, the heap types are those already
        // proved, and so is every position.
        let element = plain.phi[n as usize];
        let options = option_images(&plain, game, n);
        if (1..n).rev().any(|h| plain.phi[h as usize] == element && option_images(&plain, game, h) == options) {
            return Ok(plain);
        }
    }
    let first = match verify_witness(&plain, game, meter)? {
        Ok(()) => return Ok(plain),
        Err(failure) => failure,
    };
    let mut last = first.to_string();
    let mut counts_too_many = false;
    for detail in [Detail::Counts(2), Detail::Counts(4), Detail::Full] {
        // Counting up to 4 tells apart at least the states counting up to 2
        // does (those are its states with the counts cut at 2): when the
        // latter are too many, so are the former.
        if counts_too_many && detail == Detail::Counts(4) {
            continue;
        }
        let Some(base) = fattened(stage, game, meter, detail)? else {
            counts_too_many |= detail == Detail::Counts(2);
            continue;
        };
        let fat = match extend(stage, &base, game, meter, cap) {
            Ok(fat) => fat,
            Err(MisereError::TooLarge { .. }) => continue,
            Err(e) => return Err(e),
        };
        match verify(&fat, game, meter)? {
            Ok(()) => return Ok(fat),
            Err(why) => last = why,
        }
    }
    // The relations of the smaller heaps' quotient are proved for them; the
    // heaps a failure involves are set free of them.
    let mut start = stage.clone();
    start.phi.push(stage.identity);
    refined(&start, first, last, game, meter, cap)
}

/// Refinement: recompute the quotient of the enlarged set (module `refine`).
fn refined(
    start: &Stage,
    first: Failure,
    last: String,
    game: &HeapGame,
    meter: &mut bouton_grundy::Meter,
    cap: usize,
) -> Result<Stage, MisereError> {
    let n = start.upto();
    match refine(start, first.clone(), game, meter, cap) {
        Ok(Ok(refined)) => Ok(refined),
        Ok(Err(failure)) => Err(MisereError::Unverified {
            heap: n,
            why: format!("{first} (on the finer bases: {last}; after refinement: {failure})"),
        }),
        Err(MisereError::TooLarge { .. }) => Err(MisereError::Unverified {
            heap: n,
            why: format!("{first}; every refined candidate has more than {cap} elements"),
        }),
        Err(e) => Err(e),
    }
}

pub(crate) fn finish(
    game: &HeapGame,
    stage: Stage,
    orders: Vec<usize>,
    p_sizes: Vec<usize>,
    period: Option<Period>,
) -> Result<MisereQuotient, MisereError> {
    // Generators: each heap whose element the smaller heaps do not generate.
    let mut generated = vec![false; stage.order];
    generated[stage.identity as usize] = true;
    let mut generators = Vec::new();
    for &x in &stage.phi[1..] {
        if generated[x as usize] {
            continue;
        }
        generators.push(Element(x));
        // Close the generated submonoid under the new generator.
        let mut frontier: Vec<u32> = (0..stage.order as u32).filter(|&y| generated[y as usize]).collect();
        while let Some(y) = frontier.pop() {
            let z = stage.mul(y, x);
            if !generated[z as usize] {
                generated[z as usize] = true;
                frontier.push(z);
            }
            for g in &generators {
                let z = stage.mul(y, g.0);
                if !generated[z as usize] {
                    generated[z as usize] = true;
                    frontier.push(z);
                }
            }
        }
    }
    let images = stage.phi.iter().map(|&x| Element(x)).collect();
    let heap = stage.upto();
    // Every element is a product of heaps' elements, so the generators
    // generate it; an error rather than a panic should that ever fail.
    let monoid = Monoid::build(stage.order, stage.table, Element(stage.identity), generators)
        .ok_or_else(|| MisereError::Unverified { heap, why: "the heaps do not generate the quotient".to_owned() })?;
    Ok(MisereQuotient {
        game: game.clone(),
        monoid,
        p: stage.p,
        pretending: Pretending { images, period },
        orders,
        p_sizes,
    })
}
