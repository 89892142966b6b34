//! SQL for games, moves and results. Every function runs on the storage
//! thread, inside the transaction of the current batch.

use bouton_games::{AnyMove, RuleSet};
use bouton_players::Level;
use bouton_rules::{Convention, Game, Rules, Side};
use rusqlite::{Connection, OptionalExtension, params};

use crate::mode::Mode;
use crate::record::{Record, server_rules};
use crate::store::{StorageError, StoreError};

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

/// Stores a new game with the moves already played (the computer may move
/// first).
pub fn insert(conn: &Connection, record: &Record) -> Result<(), StoreError> {
    let start = serde_json::to_string(&record.game.rules().numbers(record.game.start()))
        .map_err(|e| StorageError(e.to_string()))?;
    let time = now();
    conn.prepare_cached(
        "INSERT INTO games (id, created_at, updated_at, version, mode, misere, level, start, seed, owner_token, guest_token, rules, help)
         VALUES (?1, ?2, ?2, 0, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        record.id,
        time,
        record.mode.name(),
        record.game.rules().convention().is_misere(),
        record.level.map(Level::name),
        start,
        record.seed as i64,
        record.owner_token,
        record.guest_token,
        record.game.rules().rule_set().to_string(),
        record.help,
    ])?;
    append_moves(conn, &record.id, record.game.moves(), 0)
}

thread_local! {
    /// Games read and replayed on this thread (the storage thread).
    static LOADS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many games this thread has read and replayed with [`load`]: run on
/// a store's thread, how often that store read a whole game (tests check
/// that a move against the computer reads it once).
pub fn loads() -> u64 {
    LOADS.with(std::cell::Cell::get)
}

/// Reads a game and replays its moves.
pub fn load(conn: &Connection, id: &str) -> Result<Record, StoreError> {
    LOADS.with(|loads| loads.set(loads.get() + 1));
    let row = conn
        .prepare_cached(
            "SELECT mode, misere, level, start, seed, owner_token, guest_token, version, rules, help FROM games WHERE id = ?1",
        )?
        .query_row([id], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, bool>(1)?,
                row.get::<_, Option<String>>(2)?,
                row.get::<_, String>(3)?,
                row.get::<_, i64>(4)?,
                row.get::<_, String>(5)?,
                row.get::<_, Option<String>>(6)?,
                row.get::<_, i64>(7)?,
                row.get::<_, String>(8)?,
                row.get::<_, bool>(9)?,
            ))
        })
        .optional()?;
    let Some((mode, misere, level, start, seed, owner_token, guest_token, version, rules, help)) = row else {
        return Err(StoreError::NoGame { id: id.to_owned() });
    };
    let corrupt = |what: String| StoreError::Damaged { id: id.to_owned(), what };
    let mode = Mode::from_name(&mode).ok_or_else(|| corrupt(format!("unknown mode {mode:?}")))?;
    let level = level.map(|l| l.parse::<Level>()).transpose().map_err(|e| corrupt(e.to_string()))?;
    let convention = if misere { Convention::Misere } else { Convention::Normal };
    let set: RuleSet = rules.parse().map_err(|e: bouton_games::RuleSetError| corrupt(e.to_string()))?;
    let rules = server_rules(set, convention);
    let start: Vec<u64> = serde_json::from_str(&start).map_err(|e| corrupt(e.to_string()))?;
    let start = rules.position(&start).map_err(|e| corrupt(e.to_string()))?;
    let mut statement = conn.prepare_cached("SELECT move FROM moves WHERE game_id = ?1 ORDER BY ply")?;
    let mut rows = statement.query([id])?;
    let mut moves = Vec::new();
    while let Some(row) = rows.next()? {
        let text = row.get_ref(0)?.as_str().map_err(|e| corrupt(e.to_string()))?;
        moves.push(rules.parse_move(text).map_err(|e| corrupt(format!("move {text:?}: {e}")))?);
    }
    let game = Game::replay(rules, start, moves).map_err(|e| corrupt(e.to_string()))?;
    Ok(Record { id: id.to_owned(), mode, level, seed: seed as u64, owner_token, guest_token, version, game, help })
}

/// Appends `moves`, the first of which is ply `first_ply`. The primary key
/// (game, ply) refuses a second move at the same ply, even from another
/// server instance.
pub fn append_moves(conn: &Connection, id: &str, moves: &[AnyMove], first_ply: usize) -> Result<(), StoreError> {
    let mut insert = conn.prepare_cached("INSERT INTO moves (game_id, ply, move) VALUES (?1, ?2, ?3)")?;
    for (offset, mv) in moves.iter().enumerate() {
        let ply = (first_ply + offset) as i64;
        insert.execute(params![id, ply, mv.to_string()]).map_err(|e| match e {
            rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation => {
                StoreError::Stale
            }
            other => other.into(),
        })?;
    }
    Ok(())
}

/// Removes every move from ply `from` on.
pub fn truncate_moves(conn: &Connection, id: &str, from: usize) -> Result<(), StoreError> {
    conn.prepare_cached("DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2")?.execute(params![id, from as i64])?;
    Ok(())
}

/// Marks a game changed: a new version and a fresh expiry clock.
pub fn touch(conn: &Connection, id: &str) -> Result<(), StoreError> {
    conn.prepare_cached("UPDATE games SET version = version + 1, updated_at = ?2 WHERE id = ?1")?
        .execute(params![id, now()])?;
    Ok(())
}

/// Gives the online guest seat its token.
pub fn set_guest(conn: &Connection, id: &str, token: &str) -> Result<(), StoreError> {
    conn.prepare_cached("UPDATE games SET guest_token = ?2 WHERE id = ?1")?.execute(params![id, token])?;
    Ok(())
}

/// Records a finished game for the statistics.
pub fn record_result(conn: &Connection, record: &Record, winner: Side) -> Result<(), StoreError> {
    let winner = match winner {
        Side::First => "first",
        Side::Second => "second",
    };
    conn.prepare_cached(
        "INSERT OR REPLACE INTO results (game_id, finished_at, mode, level, winner, rules) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        record.id,
        now(),
        record.mode.name(),
        record.level.map(Level::name),
        winner,
        record.game.rules().rule_set().to_string(),
    ])?;
    Ok(())
}

/// How many finished games of one rule set, mode and level one seat won.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultCount {
    /// The rule set's id.
    pub rules: String,
    /// The mode's name.
    pub mode: String,
    /// The computer's level, if any.
    pub level: Option<String>,
    /// "first" or "second".
    pub winner: String,
    /// How many games.
    pub games: u64,
}

/// Finished games per rule set, mode, level and winning seat (Nim first).
pub fn result_counts(conn: &Connection) -> Result<Vec<ResultCount>, StoreError> {
    let rows = conn
        .prepare_cached(
            "SELECT rules, mode, level, winner, COUNT(*) FROM results
             GROUP BY rules, mode, level, winner ORDER BY rules = 'nim' DESC, rules, mode, level, winner",
        )?
        .query_map([], |row| {
            Ok(ResultCount {
                rules: row.get(0)?,
                mode: row.get(1)?,
                level: row.get(2)?,
                winner: row.get(3)?,
                games: row.get::<_, i64>(4)? as u64,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// Deletes games not touched since `before` (seconds since the epoch), and
/// their moves and reviews; returns how many.
pub fn expire(conn: &Connection, before: i64) -> Result<usize, StoreError> {
    Ok(conn.prepare_cached("DELETE FROM games WHERE updated_at < ?1")?.execute([before])?)
}

/// The version of a game, to see whether it changed.
pub fn version(conn: &Connection, id: &str) -> Result<Option<i64>, StoreError> {
    Ok(conn.prepare_cached("SELECT version FROM games WHERE id = ?1")?.query_row([id], |row| row.get(0)).optional()?)
}

/// A finished game's review as stored (the JSON answered), if it was
/// computed already.
pub fn review(conn: &Connection, id: &str) -> Result<Option<String>, StoreError> {
    Ok(conn
        .prepare_cached("SELECT review FROM reviews WHERE game_id = ?1")?
        .query_row([id], |row| row.get(0))
        .optional()?)
}

/// Keeps a finished game's review; the first one stored stays (two pages
/// asking at once compute the same review), and a game deleted meanwhile
/// gets none.
pub fn store_review(conn: &Connection, id: &str, review: &str) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT OR IGNORE INTO reviews (game_id, review) SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM games WHERE id = ?1)",
    )?
    .execute(params![id, review])?;
    Ok(())
}

/// How many moves a game has.
pub fn moves(conn: &Connection, id: &str) -> Result<usize, StoreError> {
    let count: i64 =
        conn.prepare_cached("SELECT COUNT(*) FROM moves WHERE game_id = ?1")?.query_row([id], |row| row.get(0))?;
    Ok(count as usize)
}
