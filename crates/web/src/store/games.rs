//! SQL for games, moves and results, one text per query for SQLite and
//! PostgreSQL alike (`$1` parameters, 64-bit integers, flags as 0 or 1).
//! Every function runs on the storage thread, inside the transaction of the
//! current batch.

use bouton_games::{AnyMove, RuleSet};
use bouton_players::Level;
use bouton_rules::{Convention, Game, Rules, Side};
use sqlx::Row;

use crate::mode::Mode;
use crate::record::{Record, server_rules};
use crate::store::{CHANNEL, Conn, StorageError, StoreError};

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

/// Stores a new game with the moves already played (the computer may move
/// first).
pub async fn insert(conn: &mut Conn, record: &Record) -> Result<(), StoreError> {
    let start = serde_json::to_string(&record.game.rules().numbers(record.game.start()))
        .map_err(|e| StorageError(e.to_string()))?;
    let time = now();
    sqlx::query(
        "INSERT INTO games (id, created_at, updated_at, version, mode, misere, level, start, seed, owner_token, guest_token, rules, help)
         VALUES ($1, $2, $2, 0, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(&record.id)
    .bind(time)
    .bind(record.mode.name())
    .bind(i64::from(record.game.rules().convention().is_misere()))
    .bind(record.level.map(Level::name))
    .bind(start)
    .bind(record.seed as i64)
    .bind(&record.owner_token)
    .bind(record.guest_token.as_deref())
    .bind(record.game.rules().rule_set().to_string())
    .bind(i64::from(record.help))
    .execute(&mut *conn)
    .await?;
    append_moves(conn, &record.id, record.game.moves(), 0).await
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
pub async fn load(conn: &mut Conn, id: &str) -> Result<Record, StoreError> {
    LOADS.with(|loads| loads.set(loads.get() + 1));
    let row = sqlx::query(
        "SELECT mode, misere, level, start, seed, owner_token, guest_token, version, rules, help FROM games WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else {
        return Err(StoreError::NoGame { id: id.to_owned() });
    };
    let mode: String = row.try_get(0)?;
    let misere: i64 = row.try_get(1)?;
    let level: Option<String> = row.try_get(2)?;
    let start: String = row.try_get(3)?;
    let seed: i64 = row.try_get(4)?;
    let owner_token: String = row.try_get(5)?;
    let guest_token: Option<String> = row.try_get(6)?;
    let version: i64 = row.try_get(7)?;
    let rules: String = row.try_get(8)?;
    let help: i64 = row.try_get(9)?;
    let corrupt = |what: String| StoreError::Damaged { id: id.to_owned(), what };
    let mode = Mode::from_name(&mode).ok_or_else(|| corrupt(format!("unknown mode {mode:?}")))?;
    let level = level.map(|l| l.parse::<Level>()).transpose().map_err(|e| corrupt(e.to_string()))?;
    let convention = if misere != 0 { Convention::Misere } else { Convention::Normal };
    let set: RuleSet = rules.parse().map_err(|e: bouton_games::RuleSetError| corrupt(e.to_string()))?;
    let rules = server_rules(set, convention);
    let start: Vec<u64> = serde_json::from_str(&start).map_err(|e| corrupt(e.to_string()))?;
    let start = rules.position(&start).map_err(|e| corrupt(e.to_string()))?;
    let rows =
        sqlx::query("SELECT move FROM moves WHERE game_id = $1 ORDER BY ply").bind(id).fetch_all(&mut *conn).await?;
    let mut moves = Vec::with_capacity(rows.len());
    for row in rows {
        let text: &str = row.try_get(0).map_err(|e| corrupt(e.to_string()))?;
        moves.push(rules.parse_move(text).map_err(|e| corrupt(format!("move {text:?}: {e}")))?);
    }
    let game = Game::replay(rules, start, moves).map_err(|e| corrupt(e.to_string()))?;
    Ok(Record {
        id: id.to_owned(),
        mode,
        level,
        seed: seed as u64,
        owner_token,
        guest_token,
        version,
        game,
        help: help != 0,
    })
}

/// Appends `moves`, the first of which is ply `first_ply`. The primary key
/// (game, ply) refuses a second move at the same ply, even from another
/// server instance: that is [`StoreError::Stale`].
pub async fn append_moves(conn: &mut Conn, id: &str, moves: &[AnyMove], first_ply: usize) -> Result<(), StoreError> {
    for (offset, mv) in moves.iter().enumerate() {
        let ply = (first_ply + offset) as i64;
        sqlx::query("INSERT INTO moves (game_id, ply, move) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(ply)
            .bind(mv.to_string())
            .execute(&mut *conn)
            .await
            .map_err(|e| match e {
                sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::Stale,
                other => other.into(),
            })?;
    }
    Ok(())
}

/// Removes every move from ply `from` on.
pub async fn truncate_moves(conn: &mut Conn, id: &str, from: usize) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
        .bind(id)
        .bind(from as i64)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Marks a game changed: a new version and a fresh expiry clock.
pub async fn touch(conn: &mut Conn, id: &str) -> Result<(), StoreError> {
    sqlx::query("UPDATE games SET version = version + 1, updated_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now())
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Gives the online guest seat its token, if it is still free (another
/// instance may have given it meanwhile); answers whether it was.
pub async fn set_guest(conn: &mut Conn, id: &str, token: &str) -> Result<bool, StoreError> {
    let done = sqlx::query("UPDATE games SET guest_token = $2 WHERE id = $1 AND guest_token IS NULL")
        .bind(id)
        .bind(token)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Records a finished game for the statistics.
pub async fn record_result(conn: &mut Conn, record: &Record, winner: Side) -> Result<(), StoreError> {
    let winner = match winner {
        Side::First => "first",
        Side::Second => "second",
    };
    sqlx::query(
        "INSERT INTO results (game_id, finished_at, mode, level, winner, rules) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (game_id) DO UPDATE SET finished_at = excluded.finished_at, mode = excluded.mode,
             level = excluded.level, winner = excluded.winner, rules = excluded.rules",
    )
    .bind(&record.id)
    .bind(now())
    .bind(record.mode.name())
    .bind(record.level.map(Level::name))
    .bind(winner)
    .bind(record.game.rules().rule_set().to_string())
    .execute(&mut *conn)
    .await?;
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
pub async fn result_counts(conn: &mut Conn) -> Result<Vec<ResultCount>, StoreError> {
    let rows = sqlx::query(
        "SELECT rules, mode, level, winner, COUNT(*) FROM results
         GROUP BY rules, mode, level, winner ORDER BY rules = 'nim' DESC, rules, mode, level, winner",
    )
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(ResultCount {
                rules: row.try_get(0)?,
                mode: row.try_get(1)?,
                level: row.try_get(2)?,
                winner: row.try_get(3)?,
                games: row.try_get::<i64, _>(4)? as u64,
            })
        })
        .collect()
}

/// Deletes games not touched since `before` (seconds since the epoch), and
/// their moves and reviews; returns how many.
pub async fn expire(conn: &mut Conn, before: i64) -> Result<usize, StoreError> {
    let done = sqlx::query("DELETE FROM games WHERE updated_at < $1").bind(before).execute(&mut *conn).await?;
    Ok(done.rows_affected() as usize)
}

/// Claims the sweep `name` for this instance if nobody ran it in the last
/// `period` seconds: instances sharing a database thus run an hourly sweep
/// once an hour between them, not once each. Answers whether it is ours.
pub async fn claim_sweep(conn: &mut Conn, name: &str, period: i64) -> Result<bool, StoreError> {
    let time = now();
    let done = sqlx::query("UPDATE sweeps SET done_at = $2 WHERE name = $1 AND done_at <= $3")
        .bind(name)
        .bind(time)
        .bind(time - period)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// The version of a game, to see whether it changed.
pub async fn version(conn: &mut Conn, id: &str) -> Result<Option<i64>, StoreError> {
    Ok(sqlx::query_scalar("SELECT version FROM games WHERE id = $1").bind(id).fetch_optional(&mut *conn).await?)
}

/// PostgreSQL: announces game `id`'s new version to every instance
/// (delivered at the commit).
pub(crate) async fn notify(conn: &mut Conn, id: &str) -> Result<(), StoreError> {
    // pg_notify answers `void`, which the Any driver does not read: counted.
    sqlx::query(
        "SELECT COUNT(*) FROM (SELECT pg_notify($1, id || ' ' || CAST(version AS TEXT)) FROM games WHERE id = $2) AS sent",
    )
    .bind(CHANNEL)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A finished game's review as stored (the JSON answered), if it was
/// computed already.
pub async fn review(conn: &mut Conn, id: &str) -> Result<Option<String>, StoreError> {
    Ok(sqlx::query_scalar("SELECT review FROM reviews WHERE game_id = $1").bind(id).fetch_optional(&mut *conn).await?)
}

/// Keeps a finished game's review; the first one stored stays (two pages
/// asking at once compute the same review), and a game deleted meanwhile
/// gets none.
pub async fn store_review(conn: &mut Conn, id: &str, review: &str) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO reviews (game_id, review) SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM games WHERE id = $1)
         ON CONFLICT (game_id) DO NOTHING",
    )
    .bind(id)
    .bind(review)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// How many moves a game has.
pub async fn moves(conn: &mut Conn, id: &str) -> Result<usize, StoreError> {
    let count: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE game_id = $1").bind(id).fetch_one(&mut *conn).await?;
    Ok(count as usize)
}

/// How many reviews are kept (for tests of the sweep).
pub async fn reviews(conn: &mut Conn) -> Result<usize, StoreError> {
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reviews").fetch_one(&mut *conn).await?;
    Ok(count as usize)
}
