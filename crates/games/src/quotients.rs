//! The misère quotients bouton plays by, one per heap game and process.
//! A game's quotient comes, in this order, from this process's memory, from
//! the quotients bouton ships (the ones that take the engine seconds:
//! Kayles, Guiles, 0.44, …, and Dawson's Kayles as far as it is known), from
//! the user's data directory (`$XDG_DATA_HOME/bouton/quotients`, where a
//! quotient that took a while to compute is kept) — each record proved again
//! as it is read, a damaged one refused with a one-line warning — and else
//! from `bouton-misere` within the budget of the analysis that asks.
//!
//! A quotient is used exactly within what its proof covers: when the engine
//! proves the pretending function periodic the quotient is the whole game's
//! (heaps of any size); otherwise it is the quotient of the heaps up to the
//! largest one proved, used for positions of those heaps only (the others
//! are searched). Where the engine stopped and why is remembered with it: a
//! reason no budget changes (no finite quotient within [`QUOTIENT_ORDER`]
//! elements, or a proof the engine cannot complete) is final; a budget that
//! ran out is tried again only with a larger budget.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use bouton_misere::{Kept, KeptError, MisereError, MisereQuotient, QuotientStore, SolveOptions, Stop, StoreError};

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

/// What is known of one game's quotient: the quotient the engine proved
/// (the whole game's, or of the heaps up to its range) and, when it stopped
/// short, why — the budget that ran out (only a larger one tries again) or
/// a reason no budget changes.
#[derive(Debug, Clone)]
struct Entry {
    quotient: Arc<MisereQuotient>,
    stopped: Option<Stop>,
}

impl From<Kept> for Entry {
    fn from(kept: Kept) -> Entry {
        Entry { quotient: Arc::new(kept.quotient), stopped: kept.stopped }
    }
}

fn memo() -> &'static Mutex<HashMap<HeapGame, Entry>> {
    static MEMO: OnceLock<Mutex<HashMap<HeapGame, Entry>>> = OnceLock::new();
    MEMO.get_or_init(|| Mutex::new(HashMap::new()))
}

fn recall(game: &HeapGame) -> Option<Entry> {
    memo().lock().ok().and_then(|map| map.get(game).cloned())
}

/// Keeps `entry` for `game` unless a better one is known: two computations
/// of one game may overlap (a server warming it while a request tries
/// within its small budget), and the one that got less far may finish last.
fn remember(game: &HeapGame, entry: &Entry) {
    if let Ok(mut map) = memo().lock() {
        let better = map.get(game).is_some_and(|known| {
            known.stopped.is_none() || known.quotient.pretending().upto() > entry.quotient.pretending().upto()
        });
        if !better {
            map.insert(game.clone(), entry.clone());
        }
    }
}

/// Where a game's misère quotient stands in this process (see
/// [`AnyRules::misere_quotient_status`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuotientStatus {
    /// Not tried yet: [`AnyRules::misere_quotient`] will compute it (or read
    /// it: bouton ships the quotients that take seconds, and keeps the ones
    /// it computes in the user's data directory).
    Untried,
    /// Known: every analysis reads it at once (for every heap size, or for
    /// the heaps up to its range when the engine stopped there, whatever the
    /// budget).
    Known,
    /// The last try ran out of its budget (only a larger one tries again);
    /// the heaps below where it stopped are known.
    OutOfBudget,
    /// The engine gives none for this game, whatever the budget.
    Never,
}

/// Where `entry` stands.
fn status(entry: &Entry) -> QuotientStatus {
    match &entry.stopped {
        None => QuotientStatus::Known,
        Some(Stop::Budget { .. }) => QuotientStatus::OutOfBudget,
        Some(Stop::Final { .. }) if entry.quotient.pretending().upto() == 0 => QuotientStatus::Never,
        Some(Stop::Final { .. }) => QuotientStatus::Known,
    }
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

/// What a computation must have taken (wall-clock) to be kept on disk: the
/// quotients that come in milliseconds are not worth a file. One that ran
/// out of its budget is kept however long it took (the next run would spend
/// the same budget again to learn the same), so that what is kept does not
/// depend on the machine's speed.
const KEEP_AFTER: Duration = Duration::from_millis(200);

/// [`quotient`] within the whole of `budget`: from this process's memory,
/// else from what bouton ships or the user's store (each proved again as it
/// is read, see `bouton_misere::Kept`), else computed — and then kept in the
/// user's store when it took a while or ran out of its budget.
fn quotient_within(game: &HeapGame, budget: &Budget) -> Option<Arc<MisereQuotient>> {
    // The quotient engine knows octal moves only (at most two heaps left).
    if game.leaves_three() {
        return None;
    }
    let retry = |entry: &Entry| {
        entry.stopped.as_ref().is_some_and(|stop| stop.retried_with(budget.operations(), budget.time()))
    };
    let known = recall(game).or_else(|| {
        let read = read_kept(game, budget)?;
        remember(game, &read);
        Some(read)
    });
    if let Some(entry) = &known
        && !retry(entry)
    {
        return usable(entry);
    }
    let options = SolveOptions::upto(if game.is_finite_octal() { QUOTIENT_HEAPS } else { QUOTIENT_HEAPS_UNPROVABLE })
        .with_max_order(QUOTIENT_ORDER)
        .with_budget(budget.clone());
    let began = Instant::now();
    let computed = match bouton_misere::solve_partial(game, &options) {
        Ok(partial) => partial,
        Err(_) => return known.as_ref().and_then(usable),
    };
    let cancelled = matches!(computed.stopped, Some(MisereError::OverBudget { source: OverBudget::Cancelled, .. }));
    let ran_out = matches!(computed.stopped, Some(MisereError::OverBudget { .. }));
    let entry = Entry::from(Kept::from_partial(computed, budget.operations(), budget.time()));
    if cancelled {
        // Nothing learnt about the game's budget; the heaps proved are still right.
        return usable(&entry).or_else(|| known.as_ref().and_then(usable));
    }
    if known.as_ref().is_some_and(|k| k.quotient.pretending().upto() > entry.quotient.pretending().upto()) {
        return known.as_ref().and_then(usable);
    }
    remember(game, &entry);
    if ran_out || began.elapsed() >= KEEP_AFTER {
        keep(&entry);
    }
    usable(&entry)
}

/// The quotient of `entry` when it covers any heap.
fn usable(entry: &Entry) -> Option<Arc<MisereQuotient>> {
    (entry.quotient.pretending().upto() > 0 || entry.stopped.is_none()).then(|| Arc::clone(&entry.quotient))
}

/// What bouton ships for `game`, else what the user's store keeps, proved
/// again within `budget`; a record that fails is refused with a one-line
/// warning on standard error (once per game and process).
fn read_kept(game: &HeapGame, budget: &Budget) -> Option<Entry> {
    let mut meter = budget.meter();
    match bouton_misere::shipped(game, &mut meter) {
        Some(Ok(kept)) => return Some(kept.into()),
        Some(Err(KeptError::Rejected(why))) => {
            warn_once(game, &format!("the shipped quotient of {game} is not used: {why}"))
        }
        Some(Err(KeptError::Budget(_))) => return None,
        None => {}
    }
    match store()?.load(game, &mut meter) {
        Ok(found) => found.map(Entry::from),
        Err(StoreError::Budget(_)) => None,
        Err(e) => {
            warn_once(game, &format!("{e}; it is computed again"));
            None
        }
    }
}

/// The store set by [`keep_quotients_in`]: `None` for the user's.
fn chosen_store() -> &'static Mutex<Option<Option<QuotientStore>>> {
    static CHOSEN: OnceLock<Mutex<Option<Option<QuotientStore>>>> = OnceLock::new();
    CHOSEN.get_or_init(|| Mutex::new(None))
}

/// Where this process reads and keeps the quotients it computes: `store`,
/// or none at all with `None` (by default the user's,
/// `$XDG_DATA_HOME/bouton/quotients`). For a test or a server that must not
/// touch the user's data directory; the shipped quotients are read either
/// way.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("doc-keep-{}", std::process::id()));
/// bouton_games::keep_quotients_in(Some(bouton_misere::QuotientStore::new(&dir)));
/// ```
pub fn keep_quotients_in(store: Option<QuotientStore>) {
    if let Ok(mut chosen) = chosen_store().lock() {
        *chosen = Some(store);
    }
}

/// The store this process uses.
fn store() -> Option<QuotientStore> {
    match chosen_store().lock().ok().and_then(|chosen| chosen.clone()) {
        Some(chosen) => chosen,
        None => QuotientStore::user(),
    }
}

/// Keeps `entry` in the store; a failure is a warning, not an error.
fn keep(entry: &Entry) {
    let game = entry.quotient.game();
    if bouton_misere::shipped_games().contains(game) {
        return;
    }
    let kept = Kept { quotient: (*entry.quotient).clone(), stopped: entry.stopped.clone() };
    if let Some(store) = store()
        && let Err(e) = store.keep(&kept)
    {
        warn_once(game, &format!("warning: the misère quotient is not kept: {e}"));
    }
}

/// Says `message` on standard error once per game and process.
fn warn_once(game: &HeapGame, message: &str) {
    static WARNED: OnceLock<Mutex<HashSet<HeapGame>>> = OnceLock::new();
    let first = WARNED.get_or_init(|| Mutex::new(HashSet::new())).lock().map_or(true, |mut w| w.insert(game.clone()));
    if first {
        let message = message.strip_prefix("warning: ").unwrap_or(message);
        eprintln!("warning: {message}");
    }
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
        let game = self.heap_game().filter(|game| !game.leaves_three())?;
        // A quotient bouton ships is read (and proved again) at once.
        let entry = recall(&game).or_else(|| {
            if !bouton_misere::shipped_games().contains(&game) {
                return None;
            }
            let read = read_kept(&game, &quotient_budget())?;
            remember(&game, &read);
            Some(read)
        });
        Some(entry.map_or(QuotientStatus::Untried, |entry| status(&entry)))
    }

    /// The budget the misère quotient of these rules last ran out of — its
    /// operations and time limit — when that is where it stands
    /// ([`QuotientStatus::OutOfBudget`]): only a larger budget tries again,
    /// so a front-end suggesting more time must suggest more than this.
    ///
    /// ```
    /// use bouton_games::AnyRules;
    /// use bouton_rules::Convention;
    ///
    /// // bouton ships 0.114 as far as 120 s and 10^10 operations got.
    /// let rules = AnyRules::parse("octal:0.114", Convention::Misere)?;
    /// rules.misere_quotient_status();
    /// let (operations, time) = rules.misere_quotient_budget_tried().expect("ran out");
    /// assert!(operations >= 10_000_000_000);
    /// assert!(time.expect("a time limit").as_secs() >= 120);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn misere_quotient_budget_tried(&self) -> Option<(u64, Option<Duration>)> {
        if self.convention() != Convention::Misere || self.instant() {
            return None;
        }
        match recall(&self.heap_game()?)?.stopped {
            Some(Stop::Budget { operations, time, .. }) => Some((operations, time)),
            _ => None,
        }
    }

    /// Why the misère quotient these rules are played by stops where it does,
    /// in words, once it is known and does not cover every heap size (how
    /// far it goes is [`MisereQuotient::pretending`]'s `upto`). `None` when it covers every heap size, is
    /// not known yet, or the rules need none.
    ///
    /// ```
    /// use bouton_games::AnyRules;
    /// use bouton_rules::Convention;
    ///
    /// let dawson = AnyRules::parse("dawsons-kayles", Convention::Misere)?;
    /// dawson.misere_quotient_status();
    /// let limit = dawson.misere_quotient_limit().expect("not finite as far as known");
    /// assert!(limit.contains("not known to be finite"), "{limit}");
    /// let kayles = AnyRules::parse("kayles", Convention::Misere)?;
    /// kayles.misere_quotient_status();
    /// assert_eq!(kayles.misere_quotient_limit(), None, "every heap size");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn misere_quotient_limit(&self) -> Option<String> {
        if self.convention() != Convention::Misere || self.instant() {
            return None;
        }
        let entry = recall(&self.heap_game()?)?;
        if entry.quotient.pretending().period().is_some() {
            return None;
        }
        Some(match &entry.stopped {
            None => "that is the range bouton computes, and no period is proved".to_owned(),
            Some(Stop::Final { why, .. }) => format!("{why}, so it is not known to be finite"),
            Some(Stop::Budget { heap, operations, time }) => {
                let time = time.map_or_else(String::new, |t| format!(" and {} s", t.as_secs()));
                format!("heap {heap} was not added within {operations} operations{time}")
            }
        })
    }
}
