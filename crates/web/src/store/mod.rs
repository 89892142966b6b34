//! Storage: one database — SQLite (embedded, the default) or PostgreSQL —
//! reached through one thread that owns the connection, through sqlx's
//! `Any` driver, so one set of queries serves both.
//!
//! Requests hand the thread a job; it runs every job waiting at that moment
//! inside one transaction (each job in its own savepoint when there are
//! several, so one job's failure does not touch the others), commits once,
//! and only then answers them. This is group commit: every acknowledged
//! write is durable (SQLite: WAL, `synchronous = FULL`; PostgreSQL: its
//! commit), and a burst of concurrent moves shares one flush. After the
//! commit, the watchers of each changed game are told its new version (see
//! [`watch`]).
//!
//! Every trip to the database counts: sqlx runs an SQLite connection on a
//! thread of its own, so each statement costs two thread switches, and a
//! PostgreSQL statement a round trip. Moves therefore cost trips per
//! batch, not per move ([`Store::advance`]): each storage thread keeps the
//! games it last read or wrote ([`cache`]), a move is checked against the
//! kept game in memory, and the moves of a batch are stored together — one
//! multi-row `INSERT … ON CONFLICT DO NOTHING RETURNING` of the moves, one
//! `UPDATE … FROM (VALUES …)` of the versions, each game's only where it is
//! still at the version its move was checked against. A batch of moves is
//! thus `BEGIN`, two statements and `COMMIT`, plus one read per game not
//! kept. Other work ([`Store::run`]) runs job by job, each in a savepoint
//! when the batch holds other work, and makes its thread forget the game
//! it names.
//!
//! Several server instances may share one PostgreSQL database: a move is
//! keyed by (game, ply) and stored only at the version it was checked
//! against, so two instances storing a move at the same ply give one
//! success and one refusal (a kept game that another instance changed is
//! read again, and the move checked again, before anything is answered).
//! Every change of a game's version is announced by a trigger (`NOTIFY
//! bouton_games`, delivered at the commit), and every instance listens, so
//! a move made through one instance reaches the watchers connected to
//! another at once. When the connection breaks (PostgreSQL restarted), the
//! work of that moment fails with [`StorageError`] (503) and the next batch
//! connects again.

pub mod cache;
pub mod games;
mod schema;
pub mod watch;

use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::str::FromStr;
use std::thread;
use std::time::Duration;

use sqlx::Connection as _;
use tokio::sync::{mpsc, oneshot};

use cache::Cache;
pub use schema::{SCHEMA_VERSION, SchemaError};
use watch::{Known, Watch, Watchers};

use crate::record::Record;

/// The connection every storage job gets: SQLite or PostgreSQL behind sqlx's
/// `Any` driver.
pub type Conn = sqlx::AnyConnection;

/// The future a storage job returns; it borrows the connection.
pub type JobFuture<'c, T> = Pin<Box<dyn Future<Output = T> + 'c>>;

/// The most jobs committed together.
const BATCH: usize = 512;

/// Connections to PostgreSQL, each committing its own batches: one
/// connection's round trips bound what it can commit, and the server's
/// processes work in parallel. A game's jobs always go to the same
/// connection, so batches of one instance never wait on one another's locks.
/// SQLite has one writer: one connection.
pub const POSTGRES_CONNECTIONS: usize = 4;

/// The channel PostgreSQL notifications of changed games go through; the
/// payload is `ID VERSION` (sent by the trigger of the schema's second
/// PostgreSQL migration, which names the channel too).
pub const CHANNEL: &str = "bouton_games";

/// What a job reports after the commit.
type Deliver = Box<dyn FnOnce(Result<(), String>) + Send>;
/// A job gets the connection, or why there is no transaction to run in.
type Job = Box<dyn for<'c> FnOnce(Result<&'c mut Conn, &'c str>) -> JobFuture<'c, Ran> + Send>;

/// What a job answers once it has run.
struct Ran {
    /// How to deliver its result once the batch is committed (or not).
    deliver: Deliver,
    /// The game it changed, if it succeeded.
    changed: Option<String>,
    /// Whether it succeeded: a failed job's writes are undone.
    ok: bool,
}

/// A failure of the storage itself, not of the request.
#[derive(Debug, Clone, thiserror::Error)]
#[error("storage failure: {0}")]
pub struct StorageError(pub String);

impl From<sqlx::Error> for StorageError {
    fn from(e: sqlx::Error) -> StorageError {
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

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        StoreError::Failed(e.into())
    }
}

/// Which database: an SQLite file or a PostgreSQL URL.
///
/// ```
/// use bouton_web::store::Database;
///
/// let pg: Database = "postgres://bouton@db.example/bouton".parse()?;
/// assert!(pg.is_postgres());
/// let file: Database = "/var/lib/bouton/bouton.sqlite3".parse()?;
/// assert_eq!(file, Database::Sqlite("/var/lib/bouton/bouton.sqlite3".into()));
/// assert!("".parse::<Database>().is_err());
/// assert!("mysql://db/bouton".parse::<Database>().is_err());
/// // Shown without its password.
/// let secret: Database = "postgres://bouton:hunter2@db/bouton".parse()?;
/// assert_eq!(secret.to_string(), "postgres://bouton:***@db/bouton");
/// # Ok::<(), bouton_web::store::DatabaseError>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file (`:memory:`: a private in-memory database).
    Sqlite(PathBuf),
    /// A PostgreSQL URL, `postgres://USER[:PASSWORD]@HOST[:PORT]/DB`.
    Postgres(String),
}

/// A `--db` that names no database.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the database is an SQLite file path or a postgres://USER@HOST/DB URL, not {0:?}")]
pub struct DatabaseError(String);

impl FromStr for Database {
    type Err = DatabaseError;

    fn from_str(text: &str) -> Result<Database, DatabaseError> {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Ok(Database::Postgres(text.to_owned()))
        } else if text.is_empty() || text.contains("://") {
            Err(DatabaseError(text.to_owned()))
        } else {
            Ok(Database::Sqlite(PathBuf::from(text)))
        }
    }
}

impl Database {
    /// Whether this is PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        matches!(self, Database::Postgres(_))
    }

    /// The URL sqlx connects to.
    fn url(&self) -> String {
        match self {
            Database::Sqlite(path) if path.as_os_str() == ":memory:" => "sqlite::memory:".into(),
            Database::Sqlite(path) => format!("sqlite://{}?mode=rwc", path.display()),
            Database::Postgres(url) => url.clone(),
        }
    }
}

impl fmt::Display for Database {
    /// The file, or the URL without its password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => match (url.find("://"), url.rfind('@')) {
                (Some(scheme), Some(at)) if url[scheme + 3..at].contains(':') => {
                    let user_end = scheme + 3 + url[scheme + 3..at].find(':').unwrap_or(0);
                    write!(f, "{}:***{}", &url[..user_end], &url[at..])
                }
                _ => f.write_str(url),
            },
        }
    }
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Database({self})")
    }
}

/// A handle to the storage thread; cheap to clone.
#[derive(Clone)]
pub struct Store {
    /// One queue per connection.
    jobs: std::sync::Arc<[mpsc::UnboundedSender<Work>]>,
    /// The next queue for a job that names no game.
    next: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    watchers: Watchers,
    postgres: bool,
}

impl Store {
    /// Opens (creating if needed) the SQLite database at `path` and starts
    /// its thread. `:memory:` gives a private in-memory database (for tests).
    pub fn open(path: &Path) -> Result<Store, SchemaError> {
        Store::connect(&Database::Sqlite(path.to_owned()))
    }

    /// Connects to `db`, applies any migrations not yet applied (on
    /// PostgreSQL under an advisory lock, so that instances starting
    /// together take turns), and starts the storage thread. On PostgreSQL
    /// it also listens for the changes other instances make.
    pub fn connect(db: &Database) -> Result<Store, SchemaError> {
        sqlx::any::install_default_drivers();
        let connections = if db.is_postgres() { POSTGRES_CONNECTIONS } else { 1 };
        let (jobs, queues): (Vec<_>, Vec<_>) = (0..connections).map(|_| mpsc::unbounded_channel::<Work>()).unzip();
        let watchers = Watchers::default();
        let notify = watchers.clone();
        let (ready, started) = std::sync::mpsc::channel::<Result<(), SchemaError>>();
        let db = db.clone();
        let postgres = db.is_postgres();
        thread::Builder::new()
            .name("bouton-store".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    Ok(runtime) => runtime,
                    Err(e) => {
                        let _ = ready.send(Err(SchemaError::Thread(e.to_string())));
                        return;
                    }
                };
                runtime.block_on(async move {
                    let mut conns = Vec::with_capacity(queues.len());
                    for _ in 0..queues.len() {
                        // The first connection migrates; the others find it done.
                        let conn = if conns.is_empty() {
                            open(&db).await
                        } else {
                            reconnect(&db).await.map_err(SchemaError::from)
                        };
                        match conn {
                            Ok(conn) => conns.push(conn),
                            Err(e) => {
                                let _ = ready.send(Err(e));
                                return;
                            }
                        }
                    }
                    if postgres {
                        tokio::spawn(listen(db.url(), notify.clone()));
                    }
                    let _ = ready.send(Ok(()));
                    let workers = conns.into_iter().zip(queues).map(|(conn, queue)| run(&db, conn, queue, &notify));
                    futures_util::future::join_all(workers).await;
                });
            })
            .map_err(|e| SchemaError::Thread(e.to_string()))?;
        started.recv().map_err(|_| SchemaError::Thread("the storage thread stopped while starting".into()))??;
        Ok(Store {
            jobs: jobs.into(),
            next: std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0)),
            watchers,
            postgres,
        })
    }

    /// The queue of the connection for a job on the game of `key` (see
    /// [`queue_key`]), or the next one in turn.
    fn queue(&self, key: Option<usize>) -> &mpsc::UnboundedSender<Work> {
        let n = key.unwrap_or_else(|| self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        &self.jobs[n % self.jobs.len()]
    }

    /// Whether the database is PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        self.postgres
    }

    /// Runs `work` on the storage thread inside a transaction and returns its
    /// result once committed. If `work` fails, its writes are rolled back.
    /// `changed` names the game the work modifies, for watchers.
    ///
    /// ```
    /// use bouton_web::store::{Store, StoreError, games};
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let store = Store::open(std::path::Path::new(":memory:")).unwrap();
    /// let moves = store.run(None, |conn| Box::pin(games::moves(conn, "nobody"))).await?;
    /// assert_eq!(moves, 0);
    /// # Ok::<(), StoreError>(())
    /// # }).unwrap();
    /// ```
    pub async fn run<T, E, W>(&self, changed: Option<String>, work: W) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<StorageError> + Send + 'static,
        W: for<'c> FnOnce(&'c mut Conn) -> JobFuture<'c, Result<T, E>> + Send + 'static,
    {
        let (answer, reply) = oneshot::channel::<Result<T, E>>();
        let changed_key = changed.as_deref().map(queue_key);
        let touches = changed.clone();
        let job: Job = Box::new(move |conn: Result<&mut Conn, &str>| {
            Box::pin(async move {
                let result = match conn {
                    Ok(conn) => work(conn).await,
                    Err(e) => Err(E::from(StorageError(e.to_owned()))),
                };
                let ok = result.is_ok();
                let deliver: Deliver = Box::new(move |commit: Result<(), String>| {
                    let result = match commit {
                        Ok(()) => result,
                        Err(e) => Err(E::from(StorageError(e))),
                    };
                    let _ = answer.send(result);
                });
                Ran { deliver, changed: changed.filter(|_| ok), ok }
            })
        });
        self.queue(changed_key)
            .send(Work::Job { job, touches })
            .map_err(|_| E::from(StorageError("the storage thread has stopped".into())))?;
        reply.await.map_err(|_| E::from(StorageError("the storage thread has stopped".into())))?
    }

    /// Whether the database answers now (for `/readyz`).
    pub async fn ping(&self) -> Result<(), StorageError> {
        self.run(None, |conn| {
            Box::pin(async move {
                sqlx::query("SELECT 1").execute(&mut *conn).await?;
                Ok::<_, StorageError>(())
            })
        })
        .await
    }

    /// Watches game `id`: the answer is woken when the game's version
    /// changes (by this server, at once; on PostgreSQL by another instance,
    /// at once through its notification; else within [`watch::POLL`]), and
    /// by nothing else. Must be called within a tokio runtime (it may start
    /// the poller).
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

/// Which connection a game's jobs go to.
fn queue_key(id: &str) -> usize {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    id.hash(&mut hasher);
    hasher.finish() as usize
}

/// Connects and migrates.
async fn open(db: &Database) -> Result<Conn, SchemaError> {
    let mut conn = Conn::connect(&db.url()).await?;
    schema::prepare(&mut conn, db.is_postgres()).await?;
    Ok(conn)
}

/// Connects again after a failure (PostgreSQL restarted): no migrations,
/// they ran at start.
async fn reconnect(db: &Database) -> Result<Conn, sqlx::Error> {
    Conn::connect(&db.url()).await
}

/// While any game is watched: reads every watched game's version once per
/// [`watch::POLL`], in one job, and tells its watchers what changed (games
/// deleted, and on SQLite changes made by another process).
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
                Box::pin(async move {
                    let mut versions = Vec::with_capacity(ids.len());
                    for id in ids {
                        let version = games::version(conn, &id).await?;
                        versions.push((id, version));
                    }
                    Ok::<_, StoreError>(versions)
                })
            })
            .await;
        for (id, version) in versions.unwrap_or_default() {
            store.watchers.update(&id, version.map_or(Known::Gone, Known::Version));
        }
    }
}

/// PostgreSQL: tells watchers of the changes every instance commits
/// (`NOTIFY bouton_games, 'ID VERSION'`). The listener connects again by
/// itself after a failure.
async fn listen(url: String, watchers: Watchers) {
    loop {
        let mut listener = match sqlx::postgres::PgListener::connect(&url).await {
            Ok(listener) => listener,
            Err(e) => {
                tracing::warn!("cannot listen for changes: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        if let Err(e) = listener.listen(CHANNEL).await {
            tracing::warn!("cannot listen for changes: {e}");
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        loop {
            match listener.recv().await {
                Ok(note) => {
                    if let Some((id, version)) = note.payload().split_once(' ')
                        && let Ok(version) = version.parse::<i64>()
                    {
                        watchers.update(id, Known::Version(version));
                    }
                }
                Err(e) => {
                    // Notifications may have been missed: the poller
                    // catches up within its period.
                    tracing::warn!("listening for changes failed: {e}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    break;
                }
            }
        }
    }
}

/// Runs one statement (or several, `;`-separated, in one trip) that takes
/// no parameters: transaction control.
async fn control(conn: &mut Conn, sql: &'static str) -> Result<(), String> {
    sqlx::raw_sql(sql).execute(conn).await.map(drop).map_err(|e| e.to_string())
}

/// What the storage threads are handed.
enum Work {
    /// A job run in the batch's transaction (in a savepoint of its own when
    /// the batch holds other work); `touches` names the game it may change,
    /// which the cache forgets.
    Job { job: Job, touches: Option<String> },
    /// A change of one game made in memory (see [`Store::advance`]).
    Change(Change),
}

/// A change of game `id` waiting for its batch.
struct Change {
    id: String,
    /// Whether it is checked against a fresh read (not the cache): it was
    /// checked against the cache once and lost the race that followed.
    fresh: bool,
    pending: Box<dyn Pending>,
}

/// A change, type-erased: checked against the game's state, answered once
/// its batch commits.
trait Pending: Send {
    /// Checks the change against `state` (or the failure to read it),
    /// making it there; answers whether to store the game as it is now
    /// (else it was refused, and the answer kept).
    fn check(&mut self, state: Result<&mut Record, StoreError>) -> bool;
    /// Answers: the checked result if `outcome` is `Ok`, else the failure.
    fn answer(self: Box<Self>, outcome: Result<(), StoreError>);
}

/// The [`Pending`] of [`Store::advance`].
struct Advance<T, E, W> {
    work: W,
    result: Option<Result<T, E>>,
    reply: oneshot::Sender<Result<T, E>>,
}

impl<T, E, W> Pending for Advance<T, E, W>
where
    T: Send,
    E: From<StoreError> + Send,
    W: FnMut(&mut Record) -> Result<T, E> + Send,
{
    fn check(&mut self, state: Result<&mut Record, StoreError>) -> bool {
        let result = state.map_err(E::from).and_then(&mut self.work);
        let write = result.is_ok();
        self.result = Some(result);
        write
    }

    fn answer(self: Box<Self>, outcome: Result<(), StoreError>) {
        let result = match (outcome, self.result) {
            (Ok(()), Some(result)) => result,
            (Ok(()), None) => Err(E::from(StoreError::Failed(StorageError("the change was never checked".into())))),
            (Err(e), _) => Err(E::from(e)),
        };
        let _ = self.reply.send(result);
    }
}

impl Store {
    /// Changes game `id` in memory and stores the result: `work` gets the
    /// game as last known and makes the change in it (moves appended,
    /// version raised) and answers, or refuses (the game it got is then
    /// thrown away); its answer is given once the batch commits.
    ///
    /// The storage thread keeps the games it last read or wrote (see
    /// [`cache`]), so most changes need no read; the changes of a batch are
    /// stored together in a few multi-row statements, each only if its game
    /// is still at the version `work` saw and its plies are free. A change
    /// checked against a kept game that has changed since (another instance
    /// moved) is checked again against a fresh read: in the same batch if
    /// `work` refused it, in the next one if its write lost. So `work` may
    /// run twice, and every refusal and every [`StoreError::Stale`] rests on
    /// a fresh read, as with [`Store::run`].
    pub async fn advance<T, E, W>(&self, id: String, work: W) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
        W: FnMut(&mut Record) -> Result<T, E> + Send + 'static,
    {
        let stopped = || E::from(StoreError::Failed(StorageError("the storage thread has stopped".into())));
        let (reply, answer) = oneshot::channel::<Result<T, E>>();
        let pending = Box::new(Advance { work, result: None, reply });
        self.queue(Some(queue_key(&id)))
            .send(Work::Change(Change { id, fresh: false, pending }))
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

/// What became of a batch's changes.
#[derive(Default)]
struct Changed {
    /// Each change to answer once the batch commits, and its own outcome.
    answers: Vec<(Box<dyn Pending>, Result<(), StoreError>)>,
    /// The games stored, as they are now: kept and announced after the
    /// commit.
    stored: Vec<Record>,
    /// Changes to check again against a fresh read, in the next batch.
    retry: Vec<Change>,
    /// Why the transaction can no longer commit, if it cannot.
    broken: Option<String>,
}

/// One change's write in a batch.
struct Write {
    change: Change,
    /// Whether it was checked against the cache.
    cached: bool,
    /// The version it was checked against.
    from: i64,
    /// The plies of its moves.
    rows: Vec<games::MoveRow>,
    /// Whether the game was over before.
    was_over: bool,
    after: Record,
}

/// Checks a batch's changes, each against its game as kept in `cache` or
/// else read, and stores those that pass: all their moves in one multi-row
/// `INSERT … ON CONFLICT DO NOTHING RETURNING`, then all their versions in
/// one `UPDATE … FROM (VALUES …)` checked against the version each change
/// saw. A change whose plies were taken or whose game had moved on is
/// stale: its rows are removed (one statement each, only then), the game
/// forgotten, and it is answered [`StoreError::Stale`], or tried again
/// from a fresh read if it was checked against the cache. The statements
/// do not fail for one change, so no savepoint is needed. Rows are sorted
/// by (game, ply), the order every batch locks in.
async fn apply_changes(c: &mut Conn, cache: &mut Cache, changes: Vec<Change>) -> Changed {
    let mut out = Changed::default();
    let mut writes: Vec<Write> = Vec::with_capacity(changes.len());
    for mut change in changes {
        if out.broken.is_some() {
            out.answers.push((change.pending, Ok(())));
            continue;
        }
        let mut checked = None;
        // The kept game is taken out, changed, and kept again once stored.
        if !change.fresh
            && let Some(mut kept) = cache.take(&change.id)
        {
            let base = (kept.version, kept.game.moves().len(), kept.game.is_over());
            // A refusal rests on a fresh read: the kept game may be behind.
            if change.pending.check(Ok(&mut kept)) {
                checked = Some((base, kept, true));
            }
        }
        if checked.is_none() {
            match games::load(c, &change.id).await {
                Ok(mut record) => {
                    let base = (record.version, record.game.moves().len(), record.game.is_over());
                    if change.pending.check(Ok(&mut record)) {
                        checked = Some((base, record, false));
                    }
                }
                Err(StoreError::Failed(e)) => {
                    out.broken = Some(e.0);
                    out.answers.push((change.pending, Ok(())));
                    continue;
                }
                Err(e) => {
                    change.pending.check(Err(e));
                }
            }
        }
        let Some(((from, first_ply, was_over), after, cached)) = checked else {
            out.answers.push((change.pending, Ok(())));
            continue;
        };
        if after.id != change.id || after.version <= from || after.game.moves().len() < first_ply {
            let why = format!("a change of game {} does not follow from it", change.id);
            out.answers.push((change.pending, Err(StoreError::Failed(StorageError(why)))));
            continue;
        }
        let rows: Result<Vec<_>, _> = after.game.moves()[first_ply..]
            .iter()
            .enumerate()
            .map(|(offset, mv)| games::MoveRow::new(&change.id, first_ply + offset, mv))
            .collect();
        match rows {
            Ok(rows) => writes.push(Write { change, cached, from, rows, was_over, after }),
            Err(e) => out.answers.push((change.pending, Err(e))),
        }
    }
    if writes.is_empty() || out.broken.is_some() {
        out.answers.extend(writes.into_iter().map(|w| (w.change.pending, Ok(()))));
        return out;
    }
    let mut rows: Vec<games::MoveRow> = writes.iter().flat_map(|w| w.rows.iter().cloned()).collect();
    rows.sort_unstable();
    let stored = match games::insert_move_rows(c, &rows).await {
        Ok(stored) => stored.into_iter().collect::<std::collections::HashSet<_>>(),
        Err(e) => {
            out.broken = Some(e.to_string());
            out.answers.extend(writes.into_iter().map(|w| (w.change.pending, Ok(()))));
            return out;
        }
    };
    let is_stored = |row: &games::MoveRow| stored.contains(&(row.game.clone(), row.ply));
    let mut versions: Vec<games::VersionRow> = writes
        .iter()
        .filter(|w| w.rows.iter().all(is_stored))
        .map(|w| games::VersionRow { game: w.change.id.clone(), from: w.from, to: w.after.version })
        .collect();
    versions.sort_unstable();
    let advanced = match games::advance_versions(c, &versions).await {
        Ok(advanced) => advanced.into_iter().collect::<std::collections::HashSet<_>>(),
        Err(e) => {
            out.broken = Some(e.to_string());
            out.answers.extend(writes.into_iter().map(|w| (w.change.pending, Ok(()))));
            return out;
        }
    };
    for write in writes {
        if out.broken.is_some() {
            out.answers.push((write.change.pending, Ok(())));
            continue;
        }
        if advanced.contains(&write.change.id) {
            if !write.was_over
                && let Some(outcome) = write.after.game.outcome()
                && let Err(e) = games::record_result(c, &write.after, outcome.winner).await
            {
                out.broken = Some(e.to_string());
            }
            out.answers.push((write.change.pending, Ok(())));
            out.stored.push(write.after);
            continue;
        }
        // Stale: undo what was stored of it, forget the game.
        for row in write.rows.iter().filter(|row| is_stored(row)) {
            if let Err(e) = games::remove_move(c, &row.game, row.ply).await {
                out.broken = Some(e.to_string());
            }
        }
        cache.remove(&write.change.id);
        if write.cached {
            out.retry.push(Change { fresh: true, ..write.change });
        } else {
            out.answers.push((write.change.pending, Err(StoreError::Stale)));
        }
    }
    out
}

/// The storage thread's loop: batches of work, one transaction each.
///
/// Jobs ([`Store::run`]) run one after another. A batch of one job runs in
/// the transaction alone: if the job fails, the transaction is rolled
/// back. In a batch of several, each job runs in a savepoint, so that one
/// job's failure undoes its own writes and nobody else's; opening the next
/// savepoint, releasing the last and beginning the transaction share trips
/// to the database (SQLite's driver runs each statement on a thread of its
/// own, and each trip there and back costs two thread switches;
/// PostgreSQL's, a round trip over the socket). Changes
/// ([`Store::advance`]) follow, all of them in a few statements (see
/// [`apply_changes`]); a second change of the same game waits for the next
/// batch.
async fn run(db: &Database, conn: Conn, mut queue: mpsc::UnboundedReceiver<Work>, watchers: &Watchers) {
    let postgres = db.is_postgres();
    let mut conn = Some(conn);
    let mut cache = Cache::default();
    // Work for the next batches before any new work: changes to check
    // again, and second changes of a game.
    let mut again: VecDeque<Work> = VecDeque::new();
    loop {
        let first = match again.pop_front() {
            Some(work) => work,
            None => match queue.recv().await {
                Some(work) => work,
                None => break,
            },
        };
        let mut jobs = Vec::new();
        let mut changes: Vec<Change> = Vec::new();
        let mut later = Vec::new();
        let mut work = Some(first);
        while let Some(next) = work.take() {
            match next {
                Work::Job { job, touches } => jobs.push((job, touches)),
                Work::Change(change) if changes.iter().any(|c| c.id == change.id) => later.push(Work::Change(change)),
                Work::Change(change) => changes.push(change),
            }
            if jobs.len() + changes.len() < BATCH {
                work = again.pop_front().or_else(|| queue.try_recv().ok());
            }
        }
        for work in later.into_iter().rev() {
            again.push_front(work);
        }
        let several = jobs.len() > 1 || (!jobs.is_empty() && !changes.is_empty());
        let begin = match (postgres, several) {
            (false, false) => "BEGIN IMMEDIATE",
            (false, true) => "BEGIN IMMEDIATE; SAVEPOINT job",
            (true, false) => "BEGIN",
            (true, true) => "BEGIN; SAVEPOINT job",
        };
        // Nothing has run yet: on PostgreSQL a connection found broken here
        // (the server restarted while it was idle) is replaced and the
        // batch begun again, so that nobody sees the old connection's end.
        let mut begun = match conn.as_mut() {
            Some(c) => control(c, begin).await,
            None => Err("no connection".to_owned()),
        };
        if begun.is_err() && postgres {
            conn = None;
            match reconnect(db).await {
                Ok(mut fresh) => {
                    tracing::info!("connected to the database again");
                    begun = control(&mut fresh, begin).await;
                    conn = Some(fresh);
                }
                Err(e) => begun = Err(format!("the database is unreachable: {e}")),
            }
        }
        let Some(c) = conn.as_mut().filter(|_| begun.is_ok()) else {
            let why = begun.err().unwrap_or_default();
            for (job, _) in jobs {
                let ran = job(Err(&why)).await;
                (ran.deliver)(Err(why.clone()));
            }
            for change in changes {
                change.pending.answer(Err(StoreError::Failed(StorageError(why.clone()))));
            }
            // The kept games may have changed meanwhile, by another
            // instance: they are checked by version anyway.
            continue;
        };
        let mut done = Vec::with_capacity(jobs.len());
        let mut changed = Vec::new();
        // Why the transaction can no longer commit, if it cannot.
        let mut broken: Option<String> = None;
        // Whether a savepoint holds the last job's (successful) writes.
        let mut open = several;
        let mut succeeded = false;
        for (index, (job, touches)) in jobs.into_iter().enumerate() {
            if let Some(id) = &touches {
                cache.remove(id);
            }
            if broken.is_none() && several && index > 0 {
                let next = if open { "RELEASE SAVEPOINT job; SAVEPOINT job" } else { "SAVEPOINT job" };
                broken = control(c, next).await.err();
                open = true;
            }
            let ran = match &broken {
                Some(why) => job(Err(why)).await,
                None => job(Ok(&mut *c)).await,
            };
            if ran.ok {
                succeeded = true;
                changed.extend(ran.changed);
            } else if several && broken.is_none() {
                broken = control(c, "ROLLBACK TO SAVEPOINT job; RELEASE SAVEPOINT job").await.err();
                open = false;
            }
            done.push(ran.deliver);
        }
        let mut applied = Changed::default();
        if !changes.is_empty() {
            if broken.is_some() {
                applied.answers = changes.into_iter().map(|change| (change.pending, Ok(()))).collect();
            } else {
                applied = apply_changes(c, &mut cache, changes).await;
                broken = applied.broken.take();
                succeeded |= !applied.stored.is_empty();
            }
        }
        changed.sort_unstable();
        changed.dedup();
        let commit = match broken {
            Some(why) => Err(why),
            None if succeeded => control(c, "COMMIT").await,
            None => Ok(()),
        };
        // A batch where every job failed has nothing to keep: rolled back,
        // each job answers its own failure.
        let commit = if succeeded { commit } else { Ok(()) };
        let mut lost = false;
        if commit.is_err() || !succeeded {
            let rolled_back = control(c, "ROLLBACK").await;
            if postgres && (rolled_back.is_err() || (commit.is_err() && c.ping().await.is_err())) {
                let why = commit.as_ref().err().or(rolled_back.as_ref().err()).map_or("", String::as_str);
                tracing::warn!("lost the database connection: {why}");
                lost = true;
            }
        }
        if commit.is_ok() {
            // Watchers first: whoever is answered can count on them being told.
            for id in changed.iter().filter(|id| watchers.is_watched(id)) {
                if let Ok(version) = games::version(c, id).await {
                    watchers.update(id, version.map_or(Known::Gone, Known::Version));
                }
            }
            for record in applied.stored {
                if watchers.is_watched(&record.id) {
                    watchers.update(&record.id, Known::Version(record.version));
                }
                cache.put(record);
            }
            again.extend(applied.retry.into_iter().map(Work::Change));
        } else {
            // The games changed in the batch are not kept: they are read
            // again when next needed.
            let why = commit.clone().err().unwrap_or_default();
            for change in applied.retry {
                change.pending.answer(Err(StoreError::Failed(StorageError(why.clone()))));
            }
        }
        for deliver in done {
            deliver(commit.clone());
        }
        for (pending, outcome) in applied.answers {
            let outcome = match &commit {
                Ok(()) => outcome,
                Err(why) => Err(StoreError::Failed(StorageError(why.clone()))),
            };
            pending.answer(outcome);
        }
        if lost {
            conn = None;
        }
    }
}
