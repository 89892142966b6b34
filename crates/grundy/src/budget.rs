//! Bounded work: every search and analysis runs under a [`Budget`] of
//! operations, bytes and time, and can be called off through a [`Cancel`]
//! flag. A [`Meter`] keeps the account while one computation runs.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How often (in operations) a meter looks at the clock and the cancel flag.
const CHECK_EVERY: u64 = 1024;
/// Operations a meter of a started budget takes from the shared account at
/// a time.
const CHUNK: u64 = 4096;

/// A flag that calls a computation off, shared between the computation and
/// whoever may lose interest in it (a server whose client hung up, a
/// terminal whose user pressed Ctrl-C). Clones share the flag.
///
/// ```
/// use bouton_grundy::Cancel;
///
/// let cancel = Cancel::new();
/// let seen_by_work = cancel.clone();
/// assert!(!seen_by_work.is_cancelled());
/// cancel.cancel();
/// assert!(seen_by_work.is_cancelled());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not yet raised.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Raises the flag: every computation holding a clone stops at its next
    /// check.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag was raised.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// A guard that raises the flag when dropped unless [`CancelOnDrop::disarm`]
    /// was called: hold it in the future that awaits a computation, and the
    /// computation stops when the future is dropped (its client has gone).
    ///
    /// ```
    /// use bouton_grundy::Cancel;
    ///
    /// let cancel = Cancel::new();
    /// drop(cancel.on_drop());
    /// assert!(cancel.is_cancelled());
    /// ```
    pub fn on_drop(&self) -> CancelOnDrop {
        CancelOnDrop { cancel: Some(self.clone()) }
    }
}

/// Two flags are equal when they are the same flag.
impl PartialEq for Cancel {
    fn eq(&self, other: &Cancel) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancel {}

/// Raises a [`Cancel`] flag when dropped (see [`Cancel::on_drop`]).
#[derive(Debug)]
pub struct CancelOnDrop {
    cancel: Option<Cancel>,
}

impl CancelOnDrop {
    /// The work finished: dropping the guard no longer cancels.
    pub fn disarm(mut self) {
        self.cancel = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(cancel) = &self.cancel {
            cancel.cancel();
        }
    }
}

/// The most work one computation may do: operations (a move generated, a
/// position looked up), bytes of memory it holds, and wall-clock time; and a
/// flag that calls it off. Past any of them the computation stops with
/// [`OverBudget`], and the caller answers "not available within the limits".
///
/// A budget is a description until [`Budget::started`] fixes its clock and
/// opens one account of operations that every computation under it draws
/// from: the analyses behind one computer move or one review then share one
/// deadline and one count of steps. Two budgets are equal when they allow the
/// same and share the same cancel flag (and account, once started).
///
/// ```
/// use std::time::Duration;
/// use bouton_grundy::{Budget, OverBudget};
///
/// let budget = Budget::new(10, 1 << 20).with_time_limit(Duration::from_secs(1));
/// let mut meter = budget.meter();
/// assert!(meter.spend(10).is_ok());
/// assert_eq!(meter.spend(1), Err(OverBudget::Operations { limit: 10 }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    operations: u64,
    bytes: u64,
    time: Option<Duration>,
    deadline: Option<Instant>,
    cancel: Cancel,
    account: Option<Account>,
}

/// The operations left to every computation under a started budget.
#[derive(Debug, Clone)]
struct Account(Arc<AtomicU64>);

impl PartialEq for Account {
    fn eq(&self, other: &Account) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Account {}

impl Account {
    /// Takes up to `wanted` operations; answers how many it got.
    fn take(&self, wanted: u64) -> u64 {
        match self.0.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| Some(left.saturating_sub(wanted))) {
            Ok(left) | Err(left) => left.min(wanted),
        }
    }
}

impl Budget {
    /// The budget of the command line: a few seconds of work at most.
    pub const INTERACTIVE_OPERATIONS: u64 = 30_000_000;
    /// The memory of the command line's budget: 512 MiB.
    pub const INTERACTIVE_BYTES: u64 = 512 << 20;
    /// The time limit of the command line's budget.
    pub const INTERACTIVE_TIME: Duration = Duration::from_secs(2);

    /// At most `operations` operations holding at most `bytes` bytes, with no
    /// time limit and a fresh cancel flag.
    pub fn new(operations: u64, bytes: u64) -> Budget {
        Budget { operations, bytes, time: None, deadline: None, cancel: Cancel::new(), account: None }
    }

    /// The budget for a person waiting at a terminal: 3·10^7 operations,
    /// 512 MiB, two seconds.
    pub fn interactive() -> Budget {
        Budget::new(Budget::INTERACTIVE_OPERATIONS, Budget::INTERACTIVE_BYTES).with_time_limit(Budget::INTERACTIVE_TIME)
    }

    /// The same budget with a wall-clock limit, counted from when a
    /// computation starts ([`Budget::meter`]).
    pub fn with_time_limit(mut self, time: Duration) -> Budget {
        self.time = Some(time);
        self
    }

    /// The same budget with its clock started now and one account of
    /// operations: every computation under the result ends by the same
    /// instant and all of them together spend at most the operations allowed,
    /// however many there are (the analyses behind one computer move or one
    /// review share them). Starting a started budget changes nothing.
    ///
    /// ```
    /// use std::time::Duration;
    /// use bouton_grundy::{Budget, OverBudget};
    ///
    /// let late = Budget::new(1 << 40, 1 << 30).with_time_limit(Duration::ZERO).started();
    /// assert!(matches!(late.meter().check(), Err(OverBudget::Time { .. })));
    ///
    /// let shared = Budget::new(10_000, 1 << 20).started();
    /// let (mut first, mut second) = (shared.meter(), shared.meter());
    /// assert!(first.spend(6_000).is_ok());
    /// assert!(second.spend(6_000).is_err());
    /// ```
    pub fn started(&self) -> Budget {
        if self.account.is_some() {
            return self.clone();
        }
        let mut budget = self.clone();
        budget.deadline = self.end_from(Instant::now());
        budget.account = Some(Account(Arc::new(AtomicU64::new(self.operations))));
        budget
    }

    fn end_from(&self, now: Instant) -> Option<Instant> {
        match (self.deadline, self.time.map(|t| now + t)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// One of `parts` equal shares of this budget for work done one part
    /// after another: started (the same deadline and cancel flag), with its
    /// own account of a `parts`-th of the operations. Comparing many moves
    /// gives each move a share, so that no move's analysis starves the rest.
    ///
    /// ```
    /// use bouton_grundy::Budget;
    ///
    /// let budget = Budget::new(1_000, 1 << 20).started();
    /// let mut meter = budget.share(4).meter();
    /// assert!(meter.spend(250).is_ok());
    /// assert!(meter.spend(1).is_err());
    /// // Another share has its own 250.
    /// assert!(budget.share(4).meter().spend(250).is_ok());
    /// ```
    pub fn share(&self, parts: u64) -> Budget {
        let started = self.started();
        let operations = started.operations / parts.max(1);
        started.with_operations(operations)
    }

    /// The same budget, called off through `cancel`.
    pub fn with_cancel(mut self, cancel: Cancel) -> Budget {
        self.cancel = cancel;
        self
    }

    /// The same budget with at most `operations` operations (and, if it was
    /// started, a fresh account of them).
    pub fn with_operations(mut self, operations: u64) -> Budget {
        self.operations = operations;
        if self.account.is_some() {
            self.account = Some(Account(Arc::new(AtomicU64::new(operations))));
        }
        self
    }

    /// The operations allowed.
    pub fn operations(&self) -> u64 {
        self.operations
    }

    /// The bytes allowed.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The time allowed, if limited.
    pub fn time(&self) -> Option<Duration> {
        self.time
    }

    /// The cancel flag.
    pub fn cancel(&self) -> &Cancel {
        &self.cancel
    }

    /// Starts the account of one computation: the clock starts now.
    pub fn meter(&self) -> Meter {
        Meter {
            left: if self.account.is_some() { 0 } else { self.operations },
            limit: self.operations,
            account: self.account.clone(),
            bytes: 0,
            max_bytes: self.bytes,
            time: self.time,
            deadline: self.end_from(Instant::now()),
            cancel: self.cancel.clone(),
            since_check: 0,
        }
    }
}

impl Default for Budget {
    /// [`Budget::interactive`].
    fn default() -> Budget {
        Budget::interactive()
    }
}

/// Which limit a computation ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum OverBudget {
    /// It would need more operations.
    #[error("it would take more than {limit} steps")]
    Operations {
        /// The operations allowed.
        limit: u64,
    },
    /// It would need more memory.
    #[error("it would need more than {} of memory", Mib(*limit))]
    Memory {
        /// The bytes allowed.
        limit: u64,
    },
    /// It would take longer.
    #[error("it would take longer than {} s", limit.as_secs_f64())]
    Time {
        /// The time allowed.
        limit: Duration,
    },
    /// It was called off.
    #[error("it was cancelled")]
    Cancelled,
}

struct Mib(u64);

impl fmt::Display for Mib {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 >= 1 << 20 { write!(f, "{} MiB", self.0 >> 20) } else { write!(f, "{} bytes", self.0) }
    }
}

/// The account of one computation under a [`Budget`]: operations spent,
/// bytes held, the deadline and the cancel flag.
///
/// ```
/// use bouton_grundy::{Budget, OverBudget};
///
/// let mut meter = Budget::new(1_000, 100).meter();
/// meter.hold(60)?;
/// assert_eq!(meter.hold(60), Err(OverBudget::Memory { limit: 100 }));
/// meter.release(60);
/// meter.hold(60)?;
/// # Ok::<(), OverBudget>(())
/// ```
#[derive(Debug, Clone)]
pub struct Meter {
    left: u64,
    limit: u64,
    account: Option<Account>,
    bytes: u64,
    max_bytes: u64,
    time: Option<Duration>,
    deadline: Option<Instant>,
    cancel: Cancel,
    since_check: u64,
}

impl Meter {
    /// A meter with no limit and no cancel flag anyone holds.
    pub fn unlimited() -> Meter {
        Budget::new(u64::MAX, u64::MAX).meter()
    }

    /// Spends `operations`; every thousand or so, also looks at the clock
    /// and the cancel flag.
    ///
    /// # Errors
    /// [`OverBudget`] when a limit is reached; the meter stays exhausted.
    pub fn spend(&mut self, operations: u64) -> Result<(), OverBudget> {
        if operations > self.left
            && let Some(account) = &self.account
        {
            self.left += account.take(operations.max(CHUNK) - self.left);
        }
        if operations > self.left {
            self.left = 0;
            return Err(OverBudget::Operations { limit: self.limit });
        }
        self.left -= operations;
        self.since_check += operations;
        if self.since_check >= CHECK_EVERY {
            self.since_check = 0;
            self.check()?;
        }
        Ok(())
    }

    /// Looks at the clock and the cancel flag now.
    ///
    /// # Errors
    /// [`OverBudget::Cancelled`] or [`OverBudget::Time`].
    pub fn check(&self) -> Result<(), OverBudget> {
        if self.cancel.is_cancelled() {
            return Err(OverBudget::Cancelled);
        }
        match self.deadline {
            Some(deadline) if Instant::now() >= deadline => {
                Err(OverBudget::Time { limit: self.time.unwrap_or_default() })
            }
            _ => Ok(()),
        }
    }

    /// Takes `bytes` more memory.
    ///
    /// # Errors
    /// [`OverBudget::Memory`] when that would pass the limit (nothing is
    /// taken then).
    pub fn hold(&mut self, bytes: u64) -> Result<(), OverBudget> {
        let total = self.bytes.saturating_add(bytes);
        if total > self.max_bytes {
            return Err(OverBudget::Memory { limit: self.max_bytes });
        }
        self.bytes = total;
        Ok(())
    }

    /// Gives `bytes` of memory back.
    pub fn release(&mut self, bytes: u64) {
        self.bytes = self.bytes.saturating_sub(bytes);
    }

    /// The operations left.
    pub fn operations_left(&self) -> u64 {
        self.left
    }

    /// The bytes held.
    pub fn bytes_held(&self) -> u64 {
        self.bytes
    }
}
