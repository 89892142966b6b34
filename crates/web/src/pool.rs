//! The compute pool: every heavy computation of the server (the computer's
//! move outside Nim, hints, reviews, analyses) runs here, at most one per
//! core at once, with a short queue behind them. When the queue is full too,
//! the request is refused at once with 503 and `Retry-After`
//! ([`ApiError::Busy`]), so that a burst of analyses can delay nobody for
//! long and never piles up.
//!
//! Each computation gets the server's budget ([`crate::limits::search_budget`]
//! unless configured otherwise) with a fresh cancel flag, raised when the
//! request's future is dropped — hyper drops it when the client hangs up —
//! so the computation stops at its next check; work still waiting in the
//! queue is never started.
//!
//! The workers are threads of their own at the lowest priority the system
//! gives without privileges (Linux's `SCHED_IDLE`, else the highest
//! niceness): whatever they compute, the threads that read requests and
//! play moves come first, so a core full of analyses delays no move.

use std::num::NonZeroUsize;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use bouton_games::{Budget, Cancel};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};

use crate::error::ApiError;

/// How many computations run at once, how many may wait, and the budget of
/// each.
///
/// ```
/// use bouton_web::pool::PoolConfig;
///
/// let config = PoolConfig::default();
/// assert!(config.workers >= 1);
/// assert_eq!(config.queue, 2 * config.workers);
/// assert_eq!(config.budget.operations(), bouton_web::limits::SEARCH_OPERATIONS);
/// assert_eq!(config.budget.time(), Some(bouton_web::limits::SEARCH_TIME));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolConfig {
    /// Computations running at once (default: the cores but one, at least 1).
    pub workers: usize,
    /// Computations waiting for a worker (default: twice the workers);
    /// beyond them, requests are refused with 503.
    pub queue: usize,
    /// The budget of each computation (a fresh cancel flag is added to it).
    pub budget: Budget,
}

impl PoolConfig {
    /// One worker per core but one ([`std::thread::available_parallelism`],
    /// at least one worker): a core stays free for moves and pages while
    /// analyses run; a queue of twice as many, the server's search budget.
    pub fn for_this_machine() -> PoolConfig {
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        let workers = cores.saturating_sub(1).max(1);
        PoolConfig { workers, queue: 2 * workers, budget: crate::limits::search_budget() }
    }

    /// With this many workers.
    pub fn with_workers(mut self, workers: usize) -> PoolConfig {
        self.workers = workers;
        self
    }

    /// With a queue this long.
    pub fn with_queue(mut self, queue: usize) -> PoolConfig {
        self.queue = queue;
        self
    }

    /// With this budget for each computation.
    pub fn with_budget(mut self, budget: Budget) -> PoolConfig {
        self.budget = budget;
        self
    }
}

impl Default for PoolConfig {
    /// [`PoolConfig::for_this_machine`].
    fn default() -> PoolConfig {
        PoolConfig::for_this_machine()
    }
}

/// What the pool is doing and has done, for tests and monitoring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PoolStats {
    /// Computations running now.
    pub running: usize,
    /// Computations waiting for a worker now.
    pub waiting: usize,
    /// Computations that ran to their end with their requester still there.
    pub finished: u64,
    /// Computations whose requester left while they ran: called off through
    /// their cancel flag.
    pub cancelled: u64,
    /// Computations whose requester left while they waited: never started.
    pub dropped: u64,
    /// Requests refused because every worker was busy and the queue full.
    pub refused: u64,
}

/// The pool; cheap to clone (clones share it).
///
/// ```
/// use bouton_web::pool::{Pool, PoolConfig};
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let pool = Pool::new(PoolConfig::default().with_workers(1).with_queue(0));
/// let answer = pool.compute(|budget| budget.cancel().is_cancelled()).await?;
/// assert!(!answer);
/// assert_eq!(pool.stats().finished, 1);
/// # Ok::<(), bouton_web::ApiError>(())
/// # }).unwrap();
/// ```
#[derive(Clone)]
pub struct Pool {
    inner: Arc<Inner>,
}

struct Inner {
    budget: Budget,
    /// Hands work to the worker threads (which end when it is dropped).
    jobs: Mutex<mpsc::Sender<Job>>,
    /// Permits for running and waiting computations together.
    admitted: Arc<Semaphore>,
    /// Permits for running computations.
    workers: Arc<Semaphore>,
    running: AtomicUsize,
    waiting: AtomicUsize,
    finished: AtomicU64,
    cancelled: AtomicU64,
    dropped: AtomicU64,
    refused: AtomicU64,
}

impl Pool {
    /// Whole seconds a refused client is told to wait (`Retry-After`): a
    /// computation takes at most [`crate::limits::SEARCH_TIME`], so a queue
    /// slot frees up within about that.
    pub const RETRY_AFTER: u64 = 1;

    /// A pool under `config` (at least one worker).
    pub fn new(config: PoolConfig) -> Pool {
        let workers = config.workers.max(1);
        let admitted = workers.saturating_add(config.queue).min(Semaphore::MAX_PERMITS);
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for n in 0..workers {
            let queue = queue.clone();
            let spawned =
                std::thread::Builder::new().name(format!("bouton-compute-{n}")).spawn(move || work_off(&queue));
            if let Err(e) = spawned {
                tracing::error!("cannot start a compute worker: {e}");
            }
        }
        Pool {
            inner: Arc::new(Inner {
                budget: config.budget,
                jobs: Mutex::new(jobs),
                admitted: Arc::new(Semaphore::new(admitted)),
                workers: Arc::new(Semaphore::new(workers.min(Semaphore::MAX_PERMITS))),
                running: AtomicUsize::new(0),
                waiting: AtomicUsize::new(0),
                finished: AtomicU64::new(0),
                cancelled: AtomicU64::new(0),
                dropped: AtomicU64::new(0),
                refused: AtomicU64::new(0),
            }),
        }
    }

    /// The budget each computation gets (before its cancel flag).
    pub fn budget(&self) -> &Budget {
        &self.inner.budget
    }

    /// The counts now.
    pub fn stats(&self) -> PoolStats {
        let inner = &self.inner;
        PoolStats {
            running: inner.running.load(Ordering::SeqCst),
            waiting: inner.waiting.load(Ordering::SeqCst),
            finished: inner.finished.load(Ordering::SeqCst),
            cancelled: inner.cancelled.load(Ordering::SeqCst),
            dropped: inner.dropped.load(Ordering::SeqCst),
            refused: inner.refused.load(Ordering::SeqCst),
        }
    }

    /// Runs `work` on a worker with the pool's budget and a cancel flag
    /// raised if this future is dropped before the work ends. The worker
    /// stays taken until `work` returns, even if nobody waits for it any
    /// more: `work` is expected to look at the budget's flag.
    ///
    /// # Errors
    /// [`ApiError::Busy`] at once when every worker is busy and the queue is
    /// full; [`ApiError::Internal`] if `work` panicked.
    pub async fn compute<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(&Budget) -> T + Send + 'static,
        T: Send + 'static,
    {
        let Ok(admitted) = self.inner.admitted.clone().try_acquire_owned() else {
            self.inner.refused.fetch_add(1, Ordering::SeqCst);
            return Err(ApiError::Busy(format!(
                "the server is busy with other analyses; try again in {} s",
                Pool::RETRY_AFTER
            )));
        };
        // The clock starts on arrival: time spent waiting for a worker is
        // part of the budget, so a queued request still answers in time.
        let arrived = self.inner.budget.started();
        let queued = Queued::new(self.inner.clone());
        let worker = self
            .inner
            .workers
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::Internal("the compute pool has stopped".into()))?;
        queued.started();
        let cancel = Cancel::new();
        let budget = arrived.with_cancel(cancel.clone());
        let slot = Slot::start(self.inner.clone(), cancel.clone(), [admitted, worker]);
        // Dropping this future (the client hung up) raises the flag.
        let called_off = cancel.on_drop();
        let (answer_to, answer) = oneshot::channel();
        let job: Job = Box::new(move || {
            let answer = std::panic::catch_unwind(AssertUnwindSafe(|| work(&budget)));
            drop(slot);
            let _ = answer_to.send(answer);
        });
        let handed = self.inner.jobs.lock().map_err(|_| stopped())?.send(job);
        handed.map_err(|_| stopped())?;
        let answer = answer.await.map_err(|_| stopped())?;
        called_off.disarm();
        answer.map_err(|panic| {
            let text = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            ApiError::Internal(format!("a computation failed: {text}"))
        })
    }
}

/// Work handed to a worker thread.
type Job = Box<dyn FnOnce() + Send>;

fn stopped() -> ApiError {
    ApiError::Internal("the compute pool has stopped".into())
}

/// A worker thread's life: lower its priority, then run work as it comes
/// until the pool is gone.
fn work_off(queue: &Mutex<mpsc::Receiver<Job>>) {
    lower_this_threads_priority();
    loop {
        let job = match queue.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => return,
        };
        match job {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

/// Puts the calling thread behind every other: `SCHED_IDLE` on Linux, else
/// the lowest priority of the usual policy; a system that refuses both
/// leaves it as it was (logged).
pub(crate) fn lower_this_threads_priority() {
    use thread_priority::{
        NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy, set_current_thread_priority,
        set_thread_priority_and_policy, thread_native_id,
    };
    let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
    if set_thread_priority_and_policy(thread_native_id(), ThreadPriority::Min, idle).is_ok() {
        return;
    }
    if let Err(e) = set_current_thread_priority(ThreadPriority::Min) {
        tracing::warn!("the compute workers keep the usual priority: {e:?}");
    }
}

/// A computation waiting for a worker: counted while it waits, and counted
/// as dropped if its future is dropped before it starts.
struct Queued {
    inner: Arc<Inner>,
    started: bool,
}

impl Queued {
    fn new(inner: Arc<Inner>) -> Queued {
        inner.waiting.fetch_add(1, Ordering::SeqCst);
        Queued { inner, started: false }
    }

    fn started(mut self) {
        self.started = true;
    }
}

impl Drop for Queued {
    fn drop(&mut self) {
        self.inner.waiting.fetch_sub(1, Ordering::SeqCst);
        if !self.started {
            self.inner.dropped.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// A running computation: holds its permits until the work returns, then
/// counts it as finished or cancelled.
struct Slot {
    inner: Arc<Inner>,
    cancel: Cancel,
    _permits: [OwnedSemaphorePermit; 2],
}

impl Slot {
    fn start(inner: Arc<Inner>, cancel: Cancel, permits: [OwnedSemaphorePermit; 2]) -> Slot {
        inner.running.fetch_add(1, Ordering::SeqCst);
        Slot { inner, cancel, _permits: permits }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let count = if self.cancel.is_cancelled() { &self.inner.cancelled } else { &self.inner.finished };
        count.fetch_add(1, Ordering::SeqCst);
        self.inner.running.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use bouton_games::{AnalysisError, AnyRules, OverBudget};
    use bouton_rules::Convention;

    use super::*;

    /// Waits (without a deadline: the test harness has one) until `done`.
    async fn until(mut done: impl FnMut() -> bool) {
        while !done() {
            tokio::task::yield_now().await;
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
    }

    /// Work that runs until its flag is raised, telling `started` when it
    /// begins.
    fn until_cancelled(started: mpsc::Sender<()>) -> impl FnOnce(&Budget) -> bool + Send + 'static {
        move |budget: &Budget| {
            let _ = started.send(());
            while !budget.cancel().is_cancelled() {
                std::thread::yield_now();
            }
            true
        }
    }

    #[tokio::test]
    async fn workers_run_behind_every_other_thread_and_survive_a_panic() {
        let pool = Pool::new(PoolConfig::default().with_workers(1).with_queue(0));
        let policy = pool.compute(|_| thread_priority::thread_schedule_policy()).await.unwrap();
        assert_eq!(
            policy.ok(),
            Some(thread_priority::ThreadSchedulePolicy::Normal(thread_priority::NormalThreadSchedulePolicy::Idle))
        );
        let failed = pool.compute(|_| -> u8 { panic!("a bug") }).await.unwrap_err();
        assert_eq!(failed, ApiError::Internal("a computation failed: a bug".into()));
        assert_eq!(pool.compute(|_| 5).await, Ok(5), "the worker lives on");
    }

    #[tokio::test]
    async fn a_full_pool_refuses_at_once_and_frees_up_when_the_work_ends() {
        let pool = Pool::new(PoolConfig::default().with_workers(1).with_queue(1));
        let (started, running) = mpsc::channel();
        let first = tokio::spawn({
            let pool = pool.clone();
            async move { pool.compute(until_cancelled(started)).await }
        });
        until(|| running.try_recv().is_ok()).await;
        let second = tokio::spawn({
            let pool = pool.clone();
            async move { pool.compute(|_| 2).await }
        });
        until(|| pool.stats().waiting == 1).await;
        let refused = pool.compute(|_| 3).await.unwrap_err();
        assert!(matches!(refused, ApiError::Busy(_)), "{refused:?}");
        assert_eq!(pool.stats().refused, 1);
        first.abort();
        assert_eq!(second.await.unwrap(), Ok(2), "the waiting work runs once the worker is free");
        let stats = pool.stats();
        assert_eq!((stats.running, stats.waiting, stats.cancelled, stats.finished), (0, 0, 1, 1), "{stats:?}");
        assert_eq!(pool.compute(|_| 4).await, Ok(4));
    }

    #[tokio::test]
    async fn work_whose_requester_left_is_called_off_and_waiting_work_is_never_started() {
        let pool = Pool::new(PoolConfig::default().with_workers(1).with_queue(4));
        let (started, running) = mpsc::channel();
        let busy = tokio::spawn({
            let pool = pool.clone();
            async move { pool.compute(until_cancelled(started)).await }
        });
        until(|| running.try_recv().is_ok()).await;
        let ran = Arc::new(AtomicUsize::new(0));
        let waiting = tokio::spawn({
            let (pool, ran) = (pool.clone(), ran.clone());
            async move { pool.compute(move |_| ran.fetch_add(1, Ordering::SeqCst)).await }
        });
        until(|| pool.stats().waiting == 1).await;
        waiting.abort();
        until(|| pool.stats().waiting == 0).await;
        assert_eq!(pool.stats().dropped, 1);
        busy.abort();
        until(|| pool.stats().running == 0).await;
        assert_eq!(pool.stats().cancelled, 1);
        assert_eq!(ran.load(Ordering::SeqCst), 0, "the dropped work never ran");
    }

    #[tokio::test]
    async fn a_hung_up_analysis_stops_because_it_was_cancelled() {
        // A budget that a misère Lasker's Nim search of 12 heaps of 50 would
        // take seconds and gigabytes to spend: only the flag stops it soon
        // (and the memory limit, should the flag not work).
        let budget = Budget::new(u64::MAX, 256 << 20);
        let pool = Pool::new(PoolConfig::default().with_workers(1).with_queue(0).with_budget(budget));
        let rules = AnyRules::parse("lasker", Convention::Misere).unwrap();
        let position = rules.position(&[50; 12]).unwrap();
        let (started, running) = mpsc::channel();
        let (answer, outcome) = mpsc::channel();
        let request = tokio::spawn({
            let pool = pool.clone();
            async move {
                pool.compute(move |budget| {
                    let _ = started.send(());
                    let _ = answer.send(rules.analyze_within(&position, budget).map(|_| ()));
                })
                .await
            }
        });
        until(|| running.try_recv().is_ok()).await;
        request.abort();
        until(|| pool.stats().running == 0).await;
        let outcome = outcome.recv().unwrap();
        assert!(matches!(outcome, Err(AnalysisError::OverBudget { cause: OverBudget::Cancelled, .. })), "{outcome:?}");
        assert_eq!(pool.stats().cancelled, 1);
    }
}
