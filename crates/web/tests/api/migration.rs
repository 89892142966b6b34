//! A database written by the first schema (Nim moves as heap and take
//! columns) is migrated in place, and its games go on.

use std::path::PathBuf;

use bouton_web::store::SCHEMA_VERSION;
use bouton_web::{AppState, Store, app};
use serde_json::json;
use sqlx::Connection;
use sqlx::sqlite::SqliteConnection;

use super::common::Api;

/// The schema of bouton's first browser game, as it was shipped.
const SCHEMA_1: &str = "CREATE TABLE games (
        id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
        version INTEGER NOT NULL DEFAULT 0, mode TEXT NOT NULL, misere INTEGER NOT NULL, level TEXT,
        start TEXT NOT NULL, seed INTEGER NOT NULL, owner_token TEXT NOT NULL, guest_token TEXT);
    CREATE INDEX games_updated_at ON games (updated_at);
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE, ply INTEGER NOT NULL,
        heap INTEGER NOT NULL, take INTEGER NOT NULL, PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
    CREATE TABLE results (
        game_id TEXT PRIMARY KEY, finished_at INTEGER NOT NULL, mode TEXT NOT NULL, level TEXT,
        winner TEXT NOT NULL);
    PRAGMA user_version = 1;";

/// A database file removed when dropped.
struct TempDb(PathBuf);

impl Drop for TempDb {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.0.display()));
        }
    }
}

#[tokio::test]
async fn a_first_schema_database_is_migrated_and_its_games_go_on_even_a_stuck_one() {
    let db = TempDb(std::env::temp_dir().join(format!("bouton-migration-{}.sqlite", std::process::id())));
    let url = format!("sqlite://{}?mode=rwc", db.0.display());
    {
        let mut conn = SqliteConnection::connect(&url).await.unwrap();
        sqlx::raw_sql(SCHEMA_1).execute(&mut conn).await.unwrap();
        sqlx::raw_sql(
            "INSERT INTO games VALUES ('oldgame', 0, 4102444800, 2, 'local', 0, NULL, '[3,5,7]', 7, 'tok', NULL);
             INSERT INTO moves VALUES ('oldgame', 0, 2, 1);
             INSERT INTO moves VALUES ('oldgame', 1, 0, 3);
             INSERT INTO games VALUES ('stuck', 0, 4102444800, 1, 'computer', 0, 'perfect', '[3,5,7]', 9, 'own', NULL);
             INSERT INTO moves VALUES ('stuck', 0, 0, 1);
             INSERT INTO results VALUES ('donegame', 0, 'computer', 'hard', 'first');",
        )
        .execute(&mut conn)
        .await
        .unwrap();
        conn.close().await.unwrap();
    }
    let store = Store::open(&db.0).unwrap();
    let api = Api { router: app(AppState::new(store.clone())), store };
    let game = api.get("/api/games/oldgame").await.expect(200);
    assert_eq!(game["rules"]["id"], "nim");
    assert_eq!(game["heaps"], json!([0, 5, 6]));
    assert_eq!(game["moves"][0], json!({"heap": 3, "take": 1, "side": "first", "by": "human"}));
    assert_eq!(game["moves"][1], json!({"heap": 1, "take": 3, "side": "second", "by": "human"}));
    assert_eq!(game["ply"], 2);
    // The game goes on, and its moves are stored the new way.
    let game = api.play("oldgame", "tok", 2, 5, 2).await.expect(200);
    assert_eq!(game["heaps"], json!([0, 0, 6]));
    assert_eq!(game["help"], true, "games from before the help setting are not online: help is open");
    // It ends, and its review is kept (schema 3).
    assert_eq!(api.play("oldgame", "tok", 3, 6, 3).await.expect(200)["over"], true);
    api.get("/api/games/oldgame/review").await.expect(200);
    // A server stopped between a person's move and the computer's reply:
    // the computer replies when the game is next looked at.
    let stuck = api.get("/api/games/stuck").await.expect(200);
    assert_eq!(stuck["ply"], 2);
    assert_eq!(stuck["moves"][1]["by"], "computer");
    assert_eq!(stuck["to_move"], "first");
    let stats = api.get("/api/stats").await.expect(200);
    assert_eq!(stats["rows"][0]["rules"], "nim");
    drop(api);
    let mut conn = SqliteConnection::connect(&url).await.unwrap();
    let version: i64 = sqlx::query_scalar("PRAGMA user_version").fetch_one(&mut conn).await.unwrap();
    assert_eq!(version as usize, SCHEMA_VERSION);
    let stored: Vec<String> = sqlx::query_scalar("SELECT move FROM moves WHERE game_id = 'oldgame' ORDER BY ply")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    assert_eq!(stored, ["3:1", "1:3", "2:5", "3:6"]);
    let reviews: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reviews WHERE game_id = 'oldgame'")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(reviews, 1);
    let help: bool =
        sqlx::query_scalar("SELECT help FROM games WHERE id = 'oldgame'").fetch_one(&mut conn).await.unwrap();
    assert!(!help);
    let sweeps: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sweeps").fetch_one(&mut conn).await.unwrap();
    assert_eq!(sweeps, 1, "schema 4: the sweep's clock");
}
