//! The misère quotients bouton plays by, one per heap game and process:
//! computed by `bouton-misere` within the budget of the first analysis that
//! can afford it, then remembered, so that every later analysis of the game
//! (every hint, every computer move) reads it at once.
//!
//! A quotient is used exactly within what its proof covers: when the engine
//! proves the pretending function periodic the quotient is the whole game's
//! (heaps of any size); otherwise it is the quotient of the heaps up to the
//! largest one proved, used for positions of those heaps only. A game with no
//! finite quotient within [`QUOTIENT_ORDER`] elements, or whose quotient the
//! engine cannot establish, keeps the quotient of the heaps below where it
//! stopped. What ran out of budget is tried again only with a larger budget.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use bouton_misere::{MisereError, MisereQuotient, SolveOptions};

use bouton_rules::{Convention, Rules};

use crate::{AnyRules, Budget, HeapGame, OverBudget};

/// The most heap sizes the engine adds for a finite octal game: one whose
/// pretending function is proved periodic before (Kayles at 179) is solved
/// for every heap size; otherwise its quotient covers the heaps up to here.
pub const QUOTIENT_HEAPS: u64 = 400;

/// The most heap sizes the engine adds for the other heap games (Grundy's
/// game, Lasker's Nim, games with a repeated digit), which the periodicity
/// argument does not cover: their quotient is used for heaps up to here at
/// most (the browser's heaps have at most 50 tokens).
pub const QUOTIENT_HEAPS_UNPROVABLE: u64 = 64;

/// The largest quotient used, in elements.
pub const QUOTIENT_ORDER: usize = bouton_misere::DEFAULT_MAX_ORDER;

/// The budget the terminal gives a game's quotient, once per process (the
/// engine's own limit of operations, and twenty seconds): enough for every game
/// the engine proves today, Kayles (0.77) the longest at about
/// 10^8 steps.
///
/// ```
/// assert!(bouton_games::quotient_budget().operations() >= 1_000_000_000);
/// ```
pub fn quotient_budget() -> Budget {
    Budget::new(1_000_000_000, 1 << 30).with_time_limit(Duration::from_secs(20))
}

/// What is known of one game's quotient.
#[derive(Debug, Clone)]
enum Entry {
    /// The quotient, for every heap or for heaps up to its range.
    Known(Arc<MisereQuotient>),
    /// No quotient: the engine cannot give one whatever the budget.
    Never,
    /// The last try ran out of this budget: only a larger one tries again.
    Short { operations: u64, time: Option<Duration> },
}

fn memo() -> &'static Mutex<HashMap<HeapGame, Entry>> {
    static MEMO: OnceLock<Mutex<HashMap<HeapGame, Entry>>> = OnceLock::new();
    MEMO.get_or_init(|| Mutex::new(HashMap::new()))
}

fn recall(game: &HeapGame) -> Option<Entry> {
    memo().lock().ok().and_then(|map| map.get(game).cloned())
}

/// Keeps `entry` for `game`, never in place of a known quotient: two
/// computations of one game may overlap (a server warming it while a request
/// tries within its small budget), and the one that ran short may finish
/// last.
fn remember(game: &HeapGame, entry: Entry) {
    if let Ok(mut map) = memo().lock()
        && !matches!(map.get(game), Some(Entry::Known(_)))
    {
        map.insert(game.clone(), entry);
    }
}

/// Where a game's misère quotient stands in this process (see
/// [`AnyRules::misere_quotient_status`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuotientStatus {
    /// Not tried yet: [`AnyRules::misere_quotient`] will compute it.
    Untried,
    /// Known: every analysis reads it at once.
    Known,
    /// The last try ran out of its budget (only a larger one tries again).
    OutOfBudget,
    /// The engine gives none for this game, whatever the budget.
    Never,
}

/// Whether `budget` allows more than the one that ran out.
fn larger(budget: &Budget, operations: u64, time: Option<Duration>) -> bool {
    let more_time = match (budget.time(), time) {
        (None, Some(_)) => true,
        (Some(now), Some(then)) => now > then,
        _ => false,
    };
    budget.operations() > operations || more_time
}

/// The misère quotient of `game`, remembered, or computed within half of
/// `budget` (half its operations and half its time, by its cancel flag)
/// when no smaller budget has already failed, so that a search of the
/// position still has the other half; `None` when the engine gives none
/// (within this budget, or at all).
pub(crate) fn quotient(game: &HeapGame, budget: &Budget) -> Option<Arc<MisereQuotient>> {
    let half = budget.share(2);
    let half = match budget.time() {
        Some(time) => half.with_time_limit(time / 2),
        None => half,
    };
    quotient_within(game, &half)
}

/// [`quotient`] within the whole of `budget`.
fn quotient_within(game: &HeapGame, budget: &Budget) -> Option<Arc<MisereQuotient>> {
    match recall(game) {
        Some(Entry::Known(q)) => return Some(q),
        Some(Entry::Never) => return None,
        Some(Entry::Short { operations, time }) if !larger(budget, operations, time) => return None,
        _ => {}
    }
    let options = |upto: u64| SolveOptions::upto(upto).with_max_order(QUOTIENT_ORDER).with_budget(budget.clone());
    let upto = if game.is_finite_octal() { QUOTIENT_HEAPS } else { QUOTIENT_HEAPS_UNPROVABLE };
    let result = match bouton_misere::cached(game, &options(upto)) {
        // The quotient of the heaps below where it stopped is still exact for
        // their positions.
        Err(MisereError::TooLarge { heap, .. } | MisereError::Unverified { heap, .. }) if heap > 1 => {
            bouton_misere::solve(game, &options(heap - 1)).map(Arc::new)
        }
        other => other,
    };
    let entry = match result {
        Ok(q) => Entry::Known(q),
        Err(MisereError::OverBudget { source: OverBudget::Cancelled, .. }) => return None,
        Err(MisereError::OverBudget { .. }) => Entry::Short { operations: budget.operations(), time: budget.time() },
        Err(_) => Entry::Never,
    };
    let found = match &entry {
        Entry::Known(q) => Some(Arc::clone(q)),
        _ => None,
    };
    remember(game, entry);
    found
}

impl AnyRules {
    /// The misère quotient these rules are played by in misère play, computed
    /// once per process within `budget` (or remembered): `None` for rules
    /// that are not a heap game (or are Nim, whose misère rule is a closed
    /// form), or whose quotient is not available within
    /// `budget` (a later call with a larger budget tries again). A front-end
    /// that can afford a longer wait once, such as the terminal at the start
    /// of a game, calls it with [`quotient_budget`] before analysing, so that
    /// every later analysis finds the quotient ready.
    ///
    /// ```
    /// use bouton_games::{AnyRules, Budget};
    /// use bouton_rules::Convention;
    ///
    /// let rules = AnyRules::parse("octal:0.75", Convention::Misere)?;
    /// let quotient = rules.misere_quotient(&Budget::interactive()).unwrap();
    /// assert_eq!(quotient.order(), 8);
    /// assert!(quotient.pretending().period().is_some(), "every heap size");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn misere_quotient(&self, budget: &Budget) -> Option<Arc<MisereQuotient>> {
        // Rules analysed by a closed form (Nim's misère rule) need none.
        if self.instant() {
            return None;
        }
        quotient_within(&self.heap_game()?, budget)
    }

    /// Where the misère quotient of these rules stands in this process:
    /// `None` for rules that need none (normal play, a closed form, not a
    /// heap game). A front-end reads it to say what it is about to wait for,
    /// or why it falls back to the search.
    ///
    /// ```
    /// use bouton_games::{AnyRules, QuotientStatus};
    /// use bouton_rules::Convention;
    ///
    /// let normal = AnyRules::parse("octal:0.75", Convention::Normal)?;
    /// assert_eq!(normal.misere_quotient_status(), None);
    /// let misere = AnyRules::parse("octal:0.75", Convention::Misere)?;
    /// assert_ne!(misere.misere_quotient_status(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn misere_quotient_status(&self) -> Option<QuotientStatus> {
        if self.convention() != Convention::Misere || self.instant() {
            return None;
        }
        let game = self.heap_game()?;
        Some(match recall(&game) {
            None => QuotientStatus::Untried,
            Some(Entry::Known(_)) => QuotientStatus::Known,
            Some(Entry::Short { .. }) => QuotientStatus::OutOfBudget,
            Some(Entry::Never) => QuotientStatus::Never,
        })
    }
}
