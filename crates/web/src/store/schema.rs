//! The database schema, as numbered migrations. `PRAGMA user_version` records
//! how many have run; each runs once, in its own transaction.

use rusqlite::Connection;

/// Migration `i` brings the schema from version `i` to `i + 1`.
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
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: usize = MIGRATIONS.len();

/// Errors while preparing the database.
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    /// SQLite refused.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The database was written by a newer bouton.
    #[error("the database has schema version {found}, newer than this bouton's {SCHEMA_VERSION}")]
    TooNew {
        /// The version found.
        found: usize,
    },
}

/// Sets the connection up (WAL, full sync, foreign keys) and runs any
/// migrations not yet applied.
pub fn prepare(conn: &mut Connection) -> Result<(), SchemaError> {
    // WAL lets readers work while a write commits; FULL syncs the log on every
    // commit, so an acknowledged move survives a crash or SIGKILL.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    let found: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
    let found = usize::try_from(found).unwrap_or(usize::MAX);
    if found > SCHEMA_VERSION {
        return Err(SchemaError::TooNew { found });
    }
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(found) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (index + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
}
