//! Moves through the store's batches of changes (`Store::advance`): checked
//! against the game each storage thread keeps in memory, stored with the
//! other moves of their batch in a few multi-row statements. These tests
//! hold the storage threads with a job that waits, queue work behind it, and
//! let go, so that the work shares one batch; they check the answers and
//! what is stored, never how long anything takes.

use std::path::PathBuf;

use bouton_web::service::{self, MoveRequest, PlyRequest};
use bouton_web::store::{POSTGRES_CONNECTIONS, StoreError};
use bouton_web::{ApiError, AppState, Database, Store, app};
use serde_json::json;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::common::{self, Api};

/// A database file removed when dropped (SQLite), or nothing (PostgreSQL:
/// the throw-away server's databases go with it).
struct Shared(Option<PathBuf>);

impl Drop for Shared {
    fn drop(&mut self) {
        if let Some(path) = &self.0 {
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
            }
        }
    }
}

/// Two apps on one database, as two server instances would be (SQLite: a
/// file both open).
fn two_instances(name: &str) -> (Api, Api, Shared) {
    let (db, shared) = if common::on_postgres() {
        (common::test_database(), Shared(None))
    } else {
        let path = std::env::temp_dir().join(format!("bouton-batch-{name}-{}.sqlite", std::process::id()));
        // A file left by an earlier run goes first.
        drop(Shared(Some(path.clone())));
        (Database::Sqlite(path.clone()), Shared(Some(path)))
    };
    let api = |db: &Database| {
        let store = Store::connect(db).expect("the shared database");
        Api { router: app(AppState::new(store.clone())), store }
    };
    (api(&db), api(&db), shared)
}

/// Holds every storage thread of `store` with a job that waits; answers
/// once they all wait, with what lets them go.
async fn hold(store: &Store) -> (watch::Sender<bool>, Vec<JoinHandle<()>>) {
    let threads = if store.is_postgres() { POSTGRES_CONNECTIONS } else { 1 };
    let (release, released) = watch::channel(false);
    let mut waiting = Vec::new();
    let mut holders = Vec::new();
    for _ in 0..threads {
        let (started, start) = tokio::sync::oneshot::channel::<()>();
        let mut released = released.clone();
        let store = store.clone();
        // Jobs that name no game go to each connection in turn.
        holders.push(tokio::spawn(async move {
            store
                .run(None, move |_| {
                    Box::pin(async move {
                        let _ = started.send(());
                        let _ = released.wait_for(|go| *go).await;
                        Ok::<_, StoreError>(())
                    })
                })
                .await
                .unwrap();
        }));
        waiting.push(start);
    }
    for start in waiting {
        start.await.unwrap();
    }
    (release, holders)
}

/// Lets the held storage threads go once the work spawned meanwhile has
/// been queued (a spawned move queues its change when first run).
async fn let_go(release: watch::Sender<bool>, holders: Vec<JoinHandle<()>>) {
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    release.send(true).unwrap();
    for holder in holders {
        holder.await.unwrap();
    }
}

fn nim(heap: u64, take: u64, ply: usize) -> MoveRequest {
    serde_json::from_value(json!({"heap": heap, "take": take, "ply": ply})).unwrap()
}

/// Plays a move through the batch path, in a task of its own.
fn spawn_move(store: &Store, id: &str, token: &str, request: MoveRequest) -> JoinHandle<Result<u64, ApiError>> {
    let (store, id, token) = (store.clone(), id.to_owned(), token.to_owned());
    tokio::spawn(async move {
        let seen = service::play_move(&store, id, Some(token), request).await?;
        Ok(seen.record.game.moves().len() as u64)
    })
}

fn conflict(result: &Result<u64, ApiError>, words: &str) -> bool {
    matches!(result, Err(ApiError::Conflict(message)) if message.contains(words))
}

#[tokio::test]
async fn two_moves_on_one_ply_in_one_batch_one_is_stored_the_other_conflicts() {
    let api = Api::new();
    for _ in 0..5 {
        let (id, token, _) = api.create(json!({"mode": "local", "heaps": [5, 5, 5]})).await;
        let (release, holders) = hold(&api.store).await;
        let first = spawn_move(&api.store, &id, &token, nim(1, 1, 0));
        let second = spawn_move(&api.store, &id, &token, nim(2, 2, 0));
        let_go(release, holders).await;
        let results = [first.await.unwrap(), second.await.unwrap()];
        let won: Vec<_> = results.iter().filter(|r| r.is_ok()).collect();
        assert_eq!(won.len(), 1, "{results:?}");
        assert_eq!(*won[0].as_ref().unwrap(), 1);
        assert!(results.iter().any(|r| conflict(r, "moved on")), "{results:?}");
        let game = api.get(&format!("/api/games/{id}")).await.expect(200);
        assert_eq!(game["ply"], 1, "exactly one move was stored");
    }
}

#[tokio::test]
async fn a_batch_with_failing_work_stores_the_rest() {
    let api = Api::new();
    let mut games = Vec::new();
    for _ in 0..6 {
        games.push(api.create(json!({"mode": "local", "heaps": [5, 5, 5]})).await);
    }
    // Each game is kept by its storage thread after a first move.
    for (id, token, _) in &games {
        api.play(id, token, 1, 1, 0).await.expect(200);
    }
    let (release, holders) = hold(&api.store).await;
    let good = spawn_move(&api.store, &games[0].0, &games[0].1, nim(2, 1, 1));
    let illegal = spawn_move(&api.store, &games[1].0, &games[1].1, nim(2, 9, 1));
    let wrong_token = spawn_move(&api.store, &games[2].0, "not-a-seat", nim(2, 1, 1));
    let missing = spawn_move(&api.store, "no-such-game", &games[3].1, nim(2, 1, 0));
    let also_good = spawn_move(&api.store, &games[3].0, &games[3].1, nim(3, 5, 1));
    // A job on another game that fails after writing: its writes are undone.
    let failing = {
        let (store, id) = (api.store.clone(), games[4].0.clone());
        tokio::spawn(async move {
            store
                .run(Some(id.clone()), move |conn| {
                    Box::pin(async move {
                        bouton_web::store::games::touch(conn, &id).await?;
                        Err::<(), _>(ApiError::Conflict("this job fails".into()))
                    })
                })
                .await
        })
    };
    // A job that succeeds beside the changes: an undo.
    let undo = {
        let (store, id, token) = (api.store.clone(), games[5].0.clone(), games[5].1.clone());
        tokio::spawn(async move {
            store
                .run(Some(id.clone()), move |conn| {
                    Box::pin(async move { service::undo(conn, &id, Some(&token), &PlyRequest { ply: 1 }).await })
                })
                .await
        })
    };
    let_go(release, holders).await;
    assert_eq!(good.await.unwrap().unwrap(), 2);
    assert_eq!(also_good.await.unwrap().unwrap(), 2);
    assert!(matches!(illegal.await.unwrap(), Err(ApiError::IllegalMove(_))));
    assert!(matches!(wrong_token.await.unwrap(), Err(ApiError::Forbidden(_))));
    assert!(matches!(missing.await.unwrap(), Err(ApiError::NotFound(_))));
    assert!(failing.await.unwrap().is_err());
    assert_eq!(undo.await.unwrap().unwrap().record.game.moves().len(), 0);
    let ply = async |id: &str| api.get(&format!("/api/games/{id}")).await.expect(200)["ply"].clone();
    assert_eq!(ply(&games[0].0).await, 2);
    assert_eq!(ply(&games[1].0).await, 1);
    assert_eq!(ply(&games[2].0).await, 1);
    assert_eq!(ply(&games[3].0).await, 2);
    assert_eq!(ply(&games[4].0).await, 1);
    assert_eq!(ply(&games[5].0).await, 0);
    // The failed job's version bump was undone: the game's version is the
    // one its first move left.
    let version = api.get(&format!("/api/games/{}", games[4].0)).await.expect(200)["version"].clone();
    let reference = api.get(&format!("/api/games/{}", games[1].0)).await.expect(200)["version"].clone();
    assert_eq!(version, reference);
    // And every game goes on.
    for (id, token, _) in &games[..5] {
        let at = ply(id).await.as_u64().unwrap();
        api.play(id, token, 2, 1, at).await.expect(200);
    }
}

#[tokio::test]
async fn a_game_kept_by_one_instance_and_changed_by_another_gets_the_right_answers() {
    let (a, b, _shared) = two_instances("kept");
    let (id, token, _) = a.create(json!({"mode": "local", "heaps": [5, 5, 5]})).await;
    a.play(&id, &token, 1, 1, 0).await.expect(200);
    // B moves: A's kept game is one move behind.
    b.play(&id, &token, 1, 1, 1).await.expect(200);
    // At the ply A's kept game is at, the move passes A's check, and its
    // write finds the ply taken: checked again from a fresh read.
    a.play(&id, &token, 2, 1, 1).await.expect_error(409, "moved on");
    b.play(&id, &token, 2, 1, 2).await.expect(200);
    // At a ply A's kept game has not reached: refused there, then checked
    // against a fresh read, where it is right.
    let game = a.play(&id, &token, 3, 1, 3).await.expect(200);
    assert_eq!(game["ply"], 4);
    assert_eq!(game["heaps"], json!([3, 4, 4]));
    // B undoes (a version bump, a ply freed): A's kept game is at ply 4,
    // the ply is free, but the version has moved on. A's write is undone —
    // in a batch with another game's move, which is stored.
    let (other, other_token, _) = a.create(json!({"mode": "local", "heaps": [5, 5]})).await;
    a.play(&other, &other_token, 1, 1, 0).await.expect(200);
    b.post(&format!("/api/games/{id}/undo"), Some(&token), json!({"ply": 4})).await.expect(200);
    let (release, holders) = hold(&a.store).await;
    let stale = spawn_move(&a.store, &id, &token, nim(1, 1, 4));
    let fine = spawn_move(&a.store, &other, &other_token, nim(2, 1, 1));
    let_go(release, holders).await;
    let stale = stale.await.unwrap();
    assert!(conflict(&stale, "moved on"), "{stale:?}");
    assert_eq!(fine.await.unwrap().unwrap(), 2);
    let game = b.get(&format!("/api/games/{id}")).await.expect(200);
    assert_eq!(game["ply"], 3, "the undone move stays undone: {game}");
    assert_eq!(game["heaps"], json!([3, 4, 5]));
    // Ply 3 is free on both instances.
    a.play(&id, &token, 1, 3, 3).await.expect(200);
    let game = b.get(&format!("/api/games/{id}")).await.expect(200);
    assert_eq!(game["heaps"], json!([0, 4, 5]));
    assert_eq!(b.get(&format!("/api/games/{other}")).await.expect(200)["ply"], 2);
}
