//! Storage: one SQLite database, reached through one thread that owns the
//! connection.
//!
//! Requests hand the thread a job; it runs every job waiting at that moment
//! inside one transaction (each job in its own savepoint, so one job's failure
//! does not touch the others), commits once, and only then answers them. This
//! is group commit: every acknowledged write is on disk (WAL, `synchronous =
//! FULL`), and a burst of concurrent moves shares one disk flush. After the
//! commit, the watchers of each changed game are told its new version (see
//! [`watch`]).

pub mod games;
mod schema;
pub mod watch;

use std::path::Path;
use std::sync::mpsc;
use std::thread;

use rusqlite::Connection;
use tokio::sync::oneshot;

pub use schema::{SCHEMA_VERSION, SchemaError};
use watch::{Known, Watch, Watchers};

/// The most jobs committed together.
const BATCH: usize = 512;

/// What a job reports after the commit: the answer, and whether it changed a
/// game (so watchers can be told).
type Deliver = Box<dyn FnOnce(Result<(), String>) + Send>;
/// A job gets the connection, or why there is no transaction to run in.
type Job = Box<dyn FnOnce(Result<&Connection, &str>) -> (Deliver, Option<String>) + Send>;

/// A failure of the storage itself, not of the request.
#[derive(Debug, Clone, thiserror::Error)]
#[error("storage failure: {0}")]
pub struct StorageError(pub String);

impl From<rusqlite::Error> for StorageError {
    fn from(e: rusqlite::Error) -> StorageError {
        StorageError(e.to_string())
    }
}

/// Why the storage could not do what was asked: kinds the callers can
/// match, turned into HTTP statuses only at the API's edge (`error.rs`).
#[derive(Debug, Clone, thiserror::Error)]
pub enum StoreError {
    /// No game with this id (never created, or expired).
    #[error("no game with id {id:?}")]
    NoGame {
        /// The id asked for.
        id: String,
    },
    /// A stored game cannot be read back.
    #[error("game {id} is damaged in the database: {what}")]
    Damaged {
        /// The game.
        id: String,
        /// What is wrong.
        what: String,
    },
    /// Another write to the same game came first.
    #[error("another move was stored at the same moment; reload the game")]
    Stale,
    /// The storage itself failed.
    #[error(transparent)]
    Failed(#[from] StorageError),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Failed(e.into())
    }
}

/// A handle to the storage thread; cheap to clone.
#[derive(Clone)]
pub struct Store {
    jobs: mpsc::Sender<Job>,
    watchers: Watchers,
}

impl Store {
    /// Opens (creating if needed) the database at `path` and starts its
    /// thread. `:memory:` gives a private in-memory database (for tests).
    pub fn open(path: &Path) -> Result<Store, SchemaError> {
        let mut conn = Connection::open(path)?;
        schema::prepare(&mut conn)?;
        let (jobs, queue) = mpsc::channel::<Job>();
        let watchers = Watchers::default();
        let notify = watchers.clone();
        thread::Builder::new()
            .name("bouton-store".into())
            .spawn(move || run(conn, queue, notify))
            .map_err(|e| SchemaError::Sqlite(rusqlite::Error::ToSqlConversionFailure(Box::new(e))))?;
        Ok(Store { jobs, watchers })
    }

    /// Runs `work` on the storage thread inside a transaction and returns its
    /// result once committed. If `work` fails, its writes are rolled back.
    /// `changed` names the game the work modifies, for watchers.
    pub async fn run<T, E>(
        &self,
        changed: Option<String>,
        work: impl FnOnce(&Connection) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<StorageError> + Send + 'static,
    {
        let (answer, reply) = oneshot::channel::<Result<T, E>>();
        let job: Job = Box::new(move |conn: Result<&Connection, &str>| {
            let result = match conn {
                Ok(conn) => in_savepoint(conn, work),
                Err(e) => Err(E::from(StorageError(e.to_owned()))),
            };
            let changed = if result.is_ok() { changed } else { None };
            let deliver: Deliver = Box::new(move |commit: Result<(), String>| {
                let result = match commit {
                    Ok(()) => result,
                    Err(e) => Err(E::from(StorageError(e))),
                };
                let _ = answer.send(result);
            });
            (deliver, changed)
        });
        self.jobs.send(job).map_err(|_| E::from(StorageError("the storage thread has stopped".into())))?;
        reply.await.map_err(|_| E::from(StorageError("the storage thread has stopped".into())))?
    }

    /// Watches game `id`: the answer is woken when the game's version
    /// changes (by this server, at once; by another sharing the database,
    /// within [`watch::POLL`]), and by nothing else. Must be called within a
    /// tokio runtime (it may start the poller).
    pub fn watch(&self, id: &str) -> Watch {
        let (watch, start_poller) = self.watchers.watch(id);
        if start_poller {
            tokio::spawn(poll(self.clone()));
        }
        watch
    }

    /// The watched games' channels.
    pub fn watchers(&self) -> &Watchers {
        &self.watchers
    }
}

/// While any game is watched: reads every watched game's version once per
/// [`watch::POLL`], in one job, and tells its watchers what changed.
async fn poll(store: Store) {
    let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + watch::POLL, watch::POLL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(ids) = store.watchers.poll_list() else {
            return;
        };
        let versions = store
            .run(None, move |conn| {
                ids.into_iter()
                    .map(|id| games::version(conn, &id).map(|version| (id, version)))
                    .collect::<Result<Vec<_>, StoreError>>()
            })
            .await;
        for (id, version) in versions.unwrap_or_default() {
            store.watchers.update(&id, version.map_or(Known::Gone, Known::Version));
        }
    }
}

fn in_savepoint<T, E: From<StorageError>>(
    conn: &Connection,
    work: impl FnOnce(&Connection) -> Result<T, E>,
) -> Result<T, E> {
    conn.execute_batch("SAVEPOINT job").map_err(|e| E::from(e.into()))?;
    let result = work(conn);
    let end = if result.is_ok() { "RELEASE job" } else { "ROLLBACK TO job; RELEASE job" };
    conn.execute_batch(end).map_err(|e| E::from(e.into()))?;
    result
}

fn run(conn: Connection, queue: mpsc::Receiver<Job>, watchers: Watchers) {
    while let Ok(first) = queue.recv() {
        let mut jobs = vec![first];
        while jobs.len() < BATCH {
            match queue.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
        let begun = conn.execute_batch("BEGIN IMMEDIATE").map_err(|e| e.to_string());
        let mut done = Vec::with_capacity(jobs.len());
        let mut changed = Vec::new();
        for job in jobs {
            let (deliver, id) = job(begun.as_ref().map(|()| &conn).map_err(String::as_str));
            changed.extend(id);
            done.push(deliver);
        }
        let commit = match &begun {
            Ok(()) => conn.execute_batch("COMMIT").map_err(|e| e.to_string()),
            Err(e) => Err(e.clone()),
        };
        if commit.is_err() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        // Watchers first: whoever is answered can count on them being told.
        if commit.is_ok() {
            changed.sort_unstable();
            changed.dedup();
            for id in changed.iter().filter(|id| watchers.is_watched(id)) {
                if let Ok(version) = games::version(&conn, id) {
                    watchers.update(id, version.map_or(Known::Gone, Known::Version));
                }
            }
        }
        for deliver in done {
            deliver(commit.clone());
        }
    }
}
