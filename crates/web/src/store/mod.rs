//! Storage: one database — SQLite (embedded, the default) or PostgreSQL —
//! reached through one thread that owns the connection, through sqlx's
//! `Any` driver, so one set of queries serves both.
//!
//! Requests hand the thread a job; it runs every job waiting at that moment
//! inside one transaction (each job in its own savepoint, so one job's failure
//! does not touch the others), commits once, and only then answers them. This
//! is group commit: every acknowledged write is durable (SQLite: WAL,
//! `synchronous = FULL`; PostgreSQL: its commit), and a burst of concurrent
//! moves shares one flush. After the commit, the watchers of each changed
//! game are told its new version (see [`watch`]).
//!
//! Several server instances may share one PostgreSQL database: a move is
//! keyed by (game, ply), so two instances storing a move at the same ply
//! give one success and one [`StoreError::Stale`]; each commit notifies the
//! games it changed (`NOTIFY bouton_games`), and every instance listens, so
//! a move made through one instance reaches the watchers connected to
//! another at once. When the connection breaks (PostgreSQL restarted), the
//! jobs of that moment fail with [`StorageError`] (503) and the next batch
//! connects again.

pub mod games;
mod schema;
pub mod watch;

use std::fmt;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::str::FromStr;
use std::thread;
use std::time::Duration;

use sqlx::Connection as _;
use tokio::sync::{mpsc, oneshot};

pub use schema::{SCHEMA_VERSION, SchemaError};
use watch::{Known, Watch, Watchers};

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
/// payload is `ID VERSION`.
pub const CHANNEL: &str = "bouton_games";

/// What a job reports after the commit.
type Deliver = Box<dyn FnOnce(Result<(), String>) + Send>;
/// A job gets the connection, or why there is no transaction to run in; it
/// answers how to deliver its result and which game it changed.
type Job = Box<dyn for<'c> FnOnce(Result<&'c mut Conn, &'c str>) -> JobFuture<'c, (Deliver, Option<String>)> + Send>;

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
    jobs: std::sync::Arc<[mpsc::UnboundedSender<Job>]>,
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
        let (jobs, queues): (Vec<_>, Vec<_>) = (0..connections).map(|_| mpsc::unbounded_channel::<Job>()).unzip();
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
    fn queue(&self, key: Option<usize>) -> &mpsc::UnboundedSender<Job> {
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
        let job: Job = Box::new(move |conn: Result<&mut Conn, &str>| {
            Box::pin(async move {
                let result = match conn {
                    Ok(conn) => in_savepoint(conn, work).await,
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
            })
        });
        self.queue(changed_key)
            .send(job)
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

async fn in_savepoint<T, E, W>(conn: &mut Conn, work: W) -> Result<T, E>
where
    E: From<StorageError>,
    W: for<'c> FnOnce(&'c mut Conn) -> JobFuture<'c, Result<T, E>>,
{
    sqlx::raw_sql("SAVEPOINT job").execute(&mut *conn).await.map_err(|e| E::from(e.into()))?;
    let result = work(&mut *conn).await;
    let end = if result.is_ok() { "RELEASE SAVEPOINT job" } else { "ROLLBACK TO SAVEPOINT job; RELEASE SAVEPOINT job" };
    sqlx::raw_sql(end).execute(&mut *conn).await.map_err(|e| E::from(e.into()))?;
    result
}

/// The storage thread's loop: batches of jobs, one transaction each.
async fn run(db: &Database, conn: Conn, mut queue: mpsc::UnboundedReceiver<Job>, watchers: &Watchers) {
    let postgres = db.is_postgres();
    let begin = if postgres { "BEGIN" } else { "BEGIN IMMEDIATE" };
    let mut conn = Some(conn);
    while let Some(first) = queue.recv().await {
        let mut jobs = vec![first];
        while jobs.len() < BATCH {
            match queue.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
        // No job has run yet: on PostgreSQL a connection found broken here
        // (the server restarted while it was idle) is replaced and the
        // batch begun again, so that nobody sees the old connection's end.
        let mut begun = match conn.as_mut() {
            Some(c) => sqlx::raw_sql(begin).execute(&mut *c).await.map(drop).map_err(|e| e.to_string()),
            None => Err("no connection".to_owned()),
        };
        if begun.is_err() && postgres {
            conn = None;
            match reconnect(db).await {
                Ok(mut fresh) => {
                    tracing::info!("connected to the database again");
                    begun = sqlx::raw_sql(begin).execute(&mut fresh).await.map(drop).map_err(|e| e.to_string());
                    conn = Some(fresh);
                }
                Err(e) => begun = Err(format!("the database is unreachable: {e}")),
            }
        }
        let Some(c) = conn.as_mut().filter(|_| begun.is_ok()) else {
            let why = begun.err().unwrap_or_default();
            for job in jobs {
                let (deliver, _) = job(Err(&why)).await;
                deliver(Err(why.clone()));
            }
            continue;
        };
        let mut done = Vec::with_capacity(jobs.len());
        let mut changed = Vec::new();
        for job in jobs {
            let (deliver, id) = match &begun {
                Ok(()) => job(Ok(&mut *c)).await,
                Err(e) => job(Err(e)).await,
            };
            changed.extend(id);
            done.push(deliver);
        }
        changed.sort_unstable();
        changed.dedup();
        let mut commit = begun.clone();
        if commit.is_ok() && postgres {
            // Delivered by PostgreSQL at the commit, to every instance.
            for id in &changed {
                if let Err(e) = games::notify(c, id).await {
                    commit = Err(e.to_string());
                    break;
                }
            }
        }
        if commit.is_ok() {
            commit = sqlx::raw_sql("COMMIT").execute(&mut *c).await.map(drop).map_err(|e| e.to_string());
        }
        let mut lost = false;
        if commit.is_err() {
            let rolled_back = sqlx::raw_sql("ROLLBACK").execute(&mut *c).await;
            if postgres && (rolled_back.is_err() || c.ping().await.is_err()) {
                tracing::warn!("lost the database connection: {}", commit.as_ref().err().map_or("", String::as_str));
                lost = true;
            }
        }
        // Watchers first: whoever is answered can count on them being told.
        if commit.is_ok() {
            for id in changed.iter().filter(|id| watchers.is_watched(id)) {
                if let Ok(version) = games::version(c, id).await {
                    watchers.update(id, version.map_or(Known::Gone, Known::Version));
                }
            }
        }
        for deliver in done {
            deliver(commit.clone());
        }
        if lost {
            conn = None;
        }
    }
}
