//! Checkpoints: values kept in a file as they are computed, and a later
//! run going on from them.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bouton_grundy::{CheckpointError, ComputeError, ComputeOptions, HeapGame, Progress, compute};

/// A fresh path in the temporary directory, removed when dropped.
struct TempPath(PathBuf);

impl TempPath {
    fn new(name: &str) -> TempPath {
        let path = std::env::temp_dir().join(format!("bouton-grundy-test-{}-{name}.ckpt", std::process::id()));
        let _ = std::fs::remove_file(&path);
        TempPath(path)
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn fresh(game: &HeapGame, upto: u64) -> Vec<u32> {
    compute(game, upto, ComputeOptions::default()).expect("computed").to_vec().expect("values")
}

/// Interrupted, then resumed: the values are those of a run from scratch,
/// and the second run started where the first stopped.
#[test]
fn an_interrupted_run_resumes_from_its_checkpoint() {
    for (game, upto) in
        [(HeapGame::grundys_game(), 150_000u64), (HeapGame::laskers_nim(), 3000), ("0.6".parse().unwrap(), 3000)]
    {
        let file = TempPath::new(&format!("resume-{}", game.to_string().replace(['.', '!'], "_")));
        let stop = AtomicBool::new(false);
        let mut progress = |p: Progress| {
            if p.done >= upto / 2 {
                stop.store(true, Ordering::Relaxed);
            }
        };
        let options = ComputeOptions {
            checkpoint: Some(file.0.clone()),
            checkpoint_every: Duration::ZERO,
            progress: Some(&mut progress),
            cancel: Some(&stop),
            ..Default::default()
        };
        let first = compute(&game, upto, options);
        assert!(matches!(first, Err(ComputeError::Cancelled { .. })), "{game}: {first:?}");
        let mut first_seen = None;
        let mut progress = |p: Progress| {
            first_seen.get_or_insert(p.done);
        };
        let options =
            ComputeOptions { checkpoint: Some(file.0.clone()), progress: Some(&mut progress), ..Default::default() };
        let resumed = compute(&game, upto, options).expect("resumed");
        assert_eq!(resumed.to_vec().unwrap(), fresh(&game, upto), "{game}");
        assert!(first_seen.is_some_and(|done| done >= upto / 4), "{game}: resumed from {first_seen:?}");
        // The finished file serves a shorter run as well as a longer one.
        let options = ComputeOptions { checkpoint: Some(file.0.clone()), ..Default::default() };
        assert_eq!(compute(&game, upto / 3, options).unwrap().to_vec().unwrap(), fresh(&game, upto / 3));
        let options = ComputeOptions { checkpoint: Some(file.0.clone()), ..Default::default() };
        let longer = compute(&game, upto + upto / 2, options).unwrap();
        assert_eq!(longer.to_vec().unwrap(), fresh(&game, upto + upto / 2), "{game}");
        assert_eq!(longer.stats(), compute(&game, upto + upto / 2, ComputeOptions::default()).unwrap().stats());
    }
}

/// A checkpoint cut short (a run killed while writing) or damaged keeps
/// the values before the damage; a file of another game, or not a
/// checkpoint, is refused and left alone.
#[test]
fn damaged_and_foreign_checkpoints() {
    let kayles = HeapGame::kayles();
    let file = TempPath::new("damaged");
    let options = ComputeOptions { checkpoint: Some(file.0.clone()), ..Default::default() };
    compute(&kayles, 1_000_000, options).expect("computed");
    let bytes = std::fs::read(&file.0).unwrap();
    for cut in [bytes.len() - 1, bytes.len() / 2, 100, 60] {
        std::fs::write(&file.0, &bytes[..cut]).unwrap();
        let options = ComputeOptions { checkpoint: Some(file.0.clone()), ..Default::default() };
        let seq = compute(&kayles, 1_000_000, options).expect("resumed");
        assert_eq!(seq.to_vec().unwrap(), fresh(&kayles, 1_000_000), "cut at {cut}");
    }
    let mut flipped = bytes.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 1;
    std::fs::write(&file.0, &flipped).unwrap();
    let options = ComputeOptions { checkpoint: Some(file.0.clone()), ..Default::default() };
    let seq = compute(&kayles, 1_000_000, options).expect("resumed");
    assert_eq!(seq.to_vec().unwrap(), fresh(&kayles, 1_000_000), "a flipped bit");

    let options = ComputeOptions { checkpoint: Some(file.0.clone()), ..Default::default() };
    let refused = compute(&HeapGame::dawsons_kayles(), 1000, options).unwrap_err();
    let message = refused.to_string();
    assert!(matches!(refused, ComputeError::Checkpoint(CheckpointError::OtherGame { .. })), "{refused:?}");
    assert!(message.contains("0.77") && message.contains("0.07"), "{message}");
    assert_eq!(std::fs::read(&file.0).unwrap().len(), bytes.len(), "a refused file is left alone");

    let text = TempPath::new("text");
    std::fs::write(&text.0, "not a checkpoint at all, only some text\n").unwrap();
    let options = ComputeOptions { checkpoint: Some(text.0.clone()), ..Default::default() };
    let refused = compute(&kayles, 1000, options).unwrap_err();
    assert!(matches!(refused, ComputeError::Checkpoint(CheckpointError::NotACheckpoint { .. })), "{refused:?}");
    assert_eq!(std::fs::read_to_string(&text.0).unwrap(), "not a checkpoint at all, only some text\n");
}

/// A checkpoint larger than the memory allowed is read only as far as the
/// memory allows; the rest is computed again, to the same values.
#[test]
fn a_checkpoint_is_read_within_the_memory_limit() {
    let game = HeapGame::kayles();
    let file = TempPath::new("memory");
    let options = ComputeOptions { checkpoint: Some(file.0.clone()), ..Default::default() };
    compute(&game, 600_000, options).expect("computed");
    let mut first_seen = None;
    let mut progress = |p: Progress| {
        first_seen.get_or_insert(p.done);
    };
    let options = ComputeOptions {
        checkpoint: Some(file.0.clone()),
        memory_limit: 256 * 1024,
        progress: Some(&mut progress),
        ..Default::default()
    };
    let seq = compute(&game, 600_000, options).expect("resumed");
    assert!(first_seen.is_some_and(|done| done < 300_000), "read at most the memory allowed: {first_seen:?}");
    assert_eq!(seq.to_vec().unwrap(), fresh(&game, 600_000));
}
