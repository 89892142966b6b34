//! The database schema, as numbered migrations, one list per database (the
//! queries in [`super::games`] serve both). On SQLite `PRAGMA user_version`
//! records how many have run, on PostgreSQL the table `bouton_schema`; each
//! runs once, in its own transaction. Instances starting together take
//! turns: SQLite's write lock (`BEGIN IMMEDIATE`), PostgreSQL's advisory
//! lock.

use super::Conn;

/// SQLite: migration `i` brings the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: games, their moves, and finished-game results for statistics.
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        mode TEXT NOT NULL,
        misere INTEGER NOT NULL,
        level TEXT,
        start TEXT NOT NULL,
        seed INTEGER NOT NULL,
        owner_token TEXT NOT NULL,
        guest_token TEXT
    );
    CREATE INDEX games_updated_at ON games (updated_at);
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        heap INTEGER NOT NULL,
        take INTEGER NOT NULL,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID;
    CREATE TABLE results (
        game_id TEXT PRIMARY KEY,
        finished_at INTEGER NOT NULL,
        mode TEXT NOT NULL,
        level TEXT,
        winner TEXT NOT NULL
    );",
    // 2: every rule set. Games name their rules (existing games are Nim);
    // moves are stored in the rule set's text form (a Nim move as
    // `heap:take`, heaps from 1), still one per (game, ply).
    "ALTER TABLE games ADD COLUMN rules TEXT NOT NULL DEFAULT 'nim';
    CREATE TABLE moves_text (
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        move TEXT NOT NULL,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID;
    INSERT INTO moves_text (game_id, ply, move) SELECT game_id, ply, (heap + 1) || ':' || take FROM moves;
    DROP TABLE moves;
    ALTER TABLE moves_text RENAME TO moves;
    ALTER TABLE results ADD COLUMN rules TEXT NOT NULL DEFAULT 'nim';",
    // 3: bounded work. Whether an online game's creator allowed hints and
    // analysis while it runs; and each finished game's review, computed
    // once and kept (as the JSON answered), deleted with its game.
    "ALTER TABLE games ADD COLUMN help INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE reviews (
        game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        review TEXT NOT NULL
    ) WITHOUT ROWID;",
    // 4: several instances. When the hourly sweep of abandoned games last
    // ran, so that instances sharing the database run it once.
    "CREATE TABLE sweeps (
        name TEXT PRIMARY KEY,
        done_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO sweeps (name, done_at) VALUES ('expiry', 0);",
];

/// PostgreSQL: the same tables as SQLite's at version 4, with 64-bit
/// integers (flags are 0 or 1, as in SQLite), and the trigger that tells
/// the other instances of each change.
const POSTGRES_MIGRATIONS: &[&str] = &[
    // 1: everything.
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        version BIGINT NOT NULL DEFAULT 0,
        mode TEXT NOT NULL,
        misere BIGINT NOT NULL,
        level TEXT,
        start TEXT NOT NULL,
        seed BIGINT NOT NULL,
        owner_token TEXT NOT NULL,
        guest_token TEXT,
        rules TEXT NOT NULL DEFAULT 'nim',
        help BIGINT NOT NULL DEFAULT 0
    );
    CREATE INDEX games_updated_at ON games (updated_at);
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        ply BIGINT NOT NULL,
        move TEXT NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    CREATE TABLE results (
        game_id TEXT PRIMARY KEY,
        finished_at BIGINT NOT NULL,
        mode TEXT NOT NULL,
        level TEXT,
        winner TEXT NOT NULL,
        rules TEXT NOT NULL DEFAULT 'nim'
    );
    CREATE TABLE reviews (
        game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        review TEXT NOT NULL
    );
    CREATE TABLE sweeps (
        name TEXT PRIMARY KEY,
        done_at BIGINT NOT NULL
    );
    INSERT INTO sweeps (name, done_at) VALUES ('expiry', 0);",
    // 2: every change of a game's version is announced to every instance
    // (`NOTIFY bouton_games, 'ID VERSION'`, delivered at the commit, and
    // not at all if the change is rolled back) by the database itself: no
    // statement of its own after each batch.
    "CREATE FUNCTION bouton_games_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM pg_notify('bouton_games', NEW.id || ' ' || NEW.version);
        RETURN NULL;
    END
    $$;
    CREATE TRIGGER games_notify AFTER UPDATE OF version ON games
        FOR EACH ROW WHEN (NEW.version IS DISTINCT FROM OLD.version) EXECUTE FUNCTION bouton_games_notify();",
];

/// The advisory lock migrations on PostgreSQL run under.
const MIGRATION_LOCK: i64 = 0x626f_7574_6f6e;

/// The SQLite schema version this build writes.
pub const SCHEMA_VERSION: usize = MIGRATIONS.len();

/// The PostgreSQL schema version this build writes.
pub const POSTGRES_SCHEMA_VERSION: usize = POSTGRES_MIGRATIONS.len();

/// Errors while preparing the database.
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    /// The database refused or could not be reached.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The database was written by a newer bouton.
    #[error("the database has schema version {found}, newer than this bouton's {known}")]
    TooNew {
        /// The version found.
        found: usize,
        /// The newest this bouton knows.
        known: usize,
    },
    /// The storage thread could not start.
    #[error("cannot start the storage thread: {0}")]
    Thread(String),
}

/// Sets the connection up and runs any migrations not yet applied.
pub(super) async fn prepare(conn: &mut Conn, postgres: bool) -> Result<(), SchemaError> {
    if postgres { prepare_postgres(conn).await } else { prepare_sqlite(conn).await }
}

async fn prepare_sqlite(conn: &mut Conn) -> Result<(), SchemaError> {
    // WAL lets readers work while a write commits; FULL syncs the log on every
    // commit, so an acknowledged move survives a crash or SIGKILL.
    sqlx::raw_sql(
        "PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
    )
    .execute(&mut *conn)
    .await?;
    loop {
        let found: i64 = sqlx::query_scalar("PRAGMA user_version").fetch_one(&mut *conn).await?;
        let found = usize::try_from(found).unwrap_or(usize::MAX);
        if found > SCHEMA_VERSION {
            return Err(SchemaError::TooNew { found, known: SCHEMA_VERSION });
        }
        let Some(sql) = MIGRATIONS.get(found) else {
            return Ok(());
        };
        // Another process may have migrated between the read and the lock:
        // read again inside the write transaction.
        sqlx::raw_sql("BEGIN IMMEDIATE").execute(&mut *conn).await?;
        let step = async {
            let again: i64 = sqlx::query_scalar("PRAGMA user_version").fetch_one(&mut *conn).await?;
            if again as usize == found {
                sqlx::raw_sql(sqlx::AssertSqlSafe(*sql)).execute(&mut *conn).await?;
                sqlx::raw_sql(sqlx::AssertSqlSafe(format!("PRAGMA user_version = {}", found + 1)))
                    .execute(&mut *conn)
                    .await?;
            }
            Ok::<_, sqlx::Error>(())
        }
        .await;
        let end = if step.is_ok() { "COMMIT" } else { "ROLLBACK" };
        sqlx::raw_sql(end).execute(&mut *conn).await?;
        step?;
    }
}

async fn prepare_postgres(conn: &mut Conn) -> Result<(), SchemaError> {
    // A session lock: instances starting together wait here in turn, and
    // the later ones find the schema done. (pg_advisory_lock answers
    // `void`, which the Any driver does not read: it is counted.)
    sqlx::query("SELECT COUNT(*) FROM (SELECT pg_advisory_lock($1)) AS locked")
        .bind(MIGRATION_LOCK)
        .execute(&mut *conn)
        .await?;
    let result = migrate_postgres(conn).await;
    let unlocked = sqlx::query("SELECT pg_advisory_unlock($1)").bind(MIGRATION_LOCK).execute(&mut *conn).await;
    result?;
    unlocked?;
    Ok(())
}

async fn migrate_postgres(conn: &mut Conn) -> Result<(), SchemaError> {
    sqlx::raw_sql(
        "CREATE TABLE IF NOT EXISTS bouton_schema (version BIGINT NOT NULL);
         INSERT INTO bouton_schema (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM bouton_schema);",
    )
    .execute(&mut *conn)
    .await?;
    let found: i64 = sqlx::query_scalar("SELECT MAX(version) FROM bouton_schema").fetch_one(&mut *conn).await?;
    let found = usize::try_from(found).unwrap_or(usize::MAX);
    if found > POSTGRES_SCHEMA_VERSION {
        return Err(SchemaError::TooNew { found, known: POSTGRES_SCHEMA_VERSION });
    }
    for (index, sql) in POSTGRES_MIGRATIONS.iter().enumerate().skip(found) {
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        sqlx::raw_sql(sqlx::AssertSqlSafe(*sql)).execute(&mut *tx).await?;
        sqlx::query("UPDATE bouton_schema SET version = $1").bind((index + 1) as i64).execute(&mut *tx).await?;
        tx.commit().await?;
    }
    Ok(())
}
