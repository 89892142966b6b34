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
use crate::store::{Conn, StorageError, StoreError};

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

/// The separator of the moves [`load`] reads in one piece: no move's text
/// form holds a line break (checked as each move is stored).
const MOVE_SEPARATOR: char = '\n';

/// Reads a game and replays its moves: one statement, one row — the game's
/// columns and its moves joined in ply order (`string_agg`, which SQLite
/// has had since 3.44 under PostgreSQL's name), so a move costs one trip to
/// the database for reading however long its game.
pub async fn load(conn: &mut Conn, id: &str) -> Result<Record, StoreError> {
    LOADS.with(|loads| loads.set(loads.get() + 1));
    let row = sqlx::query(
        "SELECT mode, misere, level, start, seed, owner_token, guest_token, version, rules, help,
             (SELECT string_agg(move, '\n' ORDER BY ply) FROM moves WHERE game_id = $1)
         FROM games WHERE id = $1",
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
    let played: Option<String> = row.try_get(10)?;
    let corrupt = |what: String| StoreError::Damaged { id: id.to_owned(), what };
    let mode = Mode::from_name(&mode).ok_or_else(|| corrupt(format!("unknown mode {mode:?}")))?;
    let level = level.map(|l| l.parse::<Level>()).transpose().map_err(|e| corrupt(e.to_string()))?;
    let convention = if misere != 0 { Convention::Misere } else { Convention::Normal };
    let set: RuleSet = rules.parse().map_err(|e: bouton_games::RuleSetError| corrupt(e.to_string()))?;
    let rules = server_rules(set, convention);
    let start: Vec<u64> = serde_json::from_str(&start).map_err(|e| corrupt(e.to_string()))?;
    let start = rules.position(&start).map_err(|e| corrupt(e.to_string()))?;
    let mut moves = Vec::new();
    for text in played.as_deref().into_iter().flat_map(|played| played.split(MOVE_SEPARATOR)) {
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
        let text = mv.to_string();
        if text.contains(MOVE_SEPARATOR) {
            return Err(StorageError(format!("the move {text:?} cannot be stored: it holds a line break")).into());
        }
        // No error for a ply already taken (PostgreSQL would abort the
        // whole transaction): no row inserted.
        let done = sqlx::query("INSERT INTO moves (game_id, ply, move) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
            .bind(id)
            .bind(ply)
            .bind(text)
            .execute(&mut *conn)
            .await
            .map_err(|e| match e {
                sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::Stale,
                other => other.into(),
            })?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Stale);
        }
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

/// The most rows one multi-row statement of [`insert_move_rows`] or
/// [`advance_versions`] carries: far under SQLite's 32,766 parameters and
/// PostgreSQL's 65,535.
const ROWS_PER_STATEMENT: usize = 256;

/// How many rows a statement of `rows` rows is padded to: the next power of
/// two, so that the statements of every batch size share a few prepared
/// texts (sqlx keeps a bounded cache of them per connection). Padding rows
/// are NULLs, which match no game.
fn padded(rows: usize) -> usize {
    rows.next_power_of_two().min(ROWS_PER_STATEMENT)
}

/// `($first, $first+1, …), (…), …`: `rows` tuples of `width` parameters.
fn values(rows: usize, width: usize, first: usize) -> String {
    let mut text = String::with_capacity(rows * width * 6);
    for row in 0..rows {
        if row > 0 {
            text.push_str(", ");
        }
        text.push('(');
        for column in 0..width {
            if column > 0 {
                text.push_str(", ");
            }
            text.push_str(&format!("${}", first + row * width + column));
        }
        text.push(')');
    }
    text
}

/// One move of a batch to store: game, ply, the move's text form.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct MoveRow {
    /// The game.
    pub game: String,
    /// Its ply.
    pub ply: i64,
    /// The move in its rule set's text form.
    pub text: String,
}

impl MoveRow {
    /// The row of `mv` at `ply`, or why it cannot be stored.
    pub fn new(game: &str, ply: usize, mv: &AnyMove) -> Result<MoveRow, StoreError> {
        let text = mv.to_string();
        if text.contains(MOVE_SEPARATOR) {
            return Err(StorageError(format!("the move {text:?} cannot be stored: it holds a line break")).into());
        }
        Ok(MoveRow { game: game.to_owned(), ply: ply as i64, text })
    }
}

/// Stores the moves of a whole batch in a few statements, `INSERT … VALUES
/// (…), (…) ON CONFLICT DO NOTHING RETURNING`: a (game, ply) already taken
/// (by another job or instance), or a game that no longer exists, is left
/// out, and the answer lists the (game, ply) that were stored. Rows go in
/// in (game, ply) order, the order every batch takes its locks in.
pub async fn insert_move_rows(conn: &mut Conn, rows: &[MoveRow]) -> Result<Vec<(String, i64)>, StoreError> {
    let mut stored = Vec::with_capacity(rows.len());
    for chunk in rows.chunks(ROWS_PER_STATEMENT) {
        let width = padded(chunk.len());
        let sql = format!(
            "INSERT INTO moves (game_id, ply, move)
             SELECT v.column1, v.column2, v.column3 FROM (VALUES {}) AS v
             WHERE EXISTS (SELECT 1 FROM games WHERE games.id = v.column1)
             ON CONFLICT DO NOTHING RETURNING game_id, ply",
            values(width, 3, 1)
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for row in chunk {
            query = query.bind(row.game.as_str()).bind(row.ply).bind(row.text.as_str());
        }
        for _ in chunk.len()..width {
            query = query.bind(None::<&str>).bind(None::<i64>).bind(None::<&str>);
        }
        for row in query.fetch_all(&mut *conn).await? {
            stored.push((row.try_get::<String, _>(0)?, row.try_get::<i64, _>(1)?));
        }
    }
    Ok(stored)
}

/// One game's change of version in a batch: from `from` (the version its
/// moves were checked against) to `to`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct VersionRow {
    /// The game.
    pub game: String,
    /// The version the change was checked against.
    pub from: i64,
    /// Its new version.
    pub to: i64,
}

/// Moves each game of `rows` from its version `from` to `to` (and restarts
/// its expiry clock), in a few statements (`UPDATE … FROM (VALUES …)`), only
/// where the game is still at `from`: answers the games changed. A game
/// changed meanwhile (by another instance, say) is left alone.
pub async fn advance_versions(conn: &mut Conn, rows: &[VersionRow]) -> Result<Vec<String>, StoreError> {
    let time = now();
    let mut changed = Vec::with_capacity(rows.len());
    for chunk in rows.chunks(ROWS_PER_STATEMENT) {
        let width = padded(chunk.len());
        let sql = format!(
            "UPDATE games SET version = v.column3, updated_at = $1 FROM (VALUES {}) AS v
             WHERE games.id = v.column1 AND games.version = v.column2 RETURNING id",
            values(width, 3, 2)
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(time);
        for row in chunk {
            query = query.bind(row.game.as_str()).bind(row.from).bind(row.to);
        }
        for _ in chunk.len()..width {
            query = query.bind(None::<&str>).bind(None::<i64>).bind(None::<i64>);
        }
        for row in query.fetch_all(&mut *conn).await? {
            changed.push(row.try_get::<String, _>(0)?);
        }
    }
    Ok(changed)
}

/// Removes one move: a move of a batch stored for a game whose version
/// check then failed.
pub async fn remove_move(conn: &mut Conn, id: &str, ply: i64) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply = $2").bind(id).bind(ply).execute(&mut *conn).await?;
    Ok(())
}
