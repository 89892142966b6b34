//! Proofs kept on disk: written once, read back for heaps of any size, and
//! never trusted when damaged or not what they claim.

use std::path::PathBuf;

use bouton_grundy::{
    ComputeOptions, HeapGame, HeapValues, Meter, ProofStore, ProofStoreError, Sequence, ValuesFailure, compute,
};

/// A fresh directory, removed at the end.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let path = std::env::temp_dir().join(format!("bouton-grundy-proofs-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        Dir(path)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// 0.16: period 149,459 from 105,351, a proof that needs 509,621 values.
fn sixteen() -> (HeapGame, Sequence) {
    let game: HeapGame = "0.16".parse().expect("a code");
    let options = ComputeOptions { stop_when_proved: true, ..Default::default() };
    let seq = compute(&game, 1 << 20, options).expect("computed");
    assert!(seq.periodicity().is_proved());
    (game, seq)
}

/// A table limit below the proof's needs, as 0.354's 20 million values are
/// beyond the 2^20 analysis computes: without the kept proof a huge heap is
/// out of reach; with it, every heap has the value the period gives.
#[test]
fn a_kept_proof_gives_analysis_every_heap() {
    let dir = Dir::new("kept");
    let store = ProofStore::new(&dir.0);
    let (game, seq) = sixteen();
    let limit = 50_000;
    let huge = 100_000_000_000u64;
    let before = HeapValues::for_heaps_using(&game, huge, &Meter::unlimited(), limit, Some(&store));
    let Err(ValuesFailure::Values(error)) = before else { panic!("known without a proof: {before:?}") };
    assert!(error.to_string().contains("`bouton grundy 0.16 --until-proved`"), "{error}");
    let path = store.keep(&seq).expect("kept");
    assert_eq!(path, store.path(&game));
    let values = HeapValues::for_heaps_using(&game, huge, &Meter::unlimited(), limit, Some(&store)).expect("values");
    let (p, e) = (149_459u64, 105_351u64);
    for n in [0, 1, 77, e - 1, e, e + p - 1, 400_000, huge, huge - 1, u64::MAX] {
        let m = if n < e { n } else { e + (n - e) % p };
        assert_eq!(values.get(n), seq.get(m).map(u64::from), "G({n})");
    }
    // The file is small: one byte a value, the pre-period and one period.
    let size = std::fs::metadata(&path).expect("the file").len();
    assert!(size < e + p + 400, "{size} bytes");
}

/// A byte changed, the file cut short, another game's file, values changed
/// with the hash made to match: each is refused with its reason, and
/// analysis goes on as if there were no proof.
#[test]
fn a_damaged_or_mismatched_proof_is_refused() {
    let dir = Dir::new("damaged");
    let store = ProofStore::new(&dir.0);
    let kayles = HeapGame::kayles();
    let seq = compute(&kayles, 300, ComputeOptions::default()).expect("computed");
    let path = store.keep(&seq).expect("kept");
    let good = std::fs::read(&path).expect("the file");
    assert!(store.load(&kayles).expect("loads").is_some());
    let rejected = |bytes: &[u8], words: &str| {
        std::fs::write(&path, bytes).expect("written");
        match store.load(&kayles) {
            Err(ProofStoreError::Rejected { reason, .. }) => assert!(reason.contains(words), "{reason}"),
            other => panic!("expected a rejection for {words:?}, got {other:?}"),
        }
        let values = HeapValues::for_heaps_using(&kayles, 1 << 40, &Meter::unlimited(), 10, Some(&store));
        assert!(matches!(values, Err(ValuesFailure::Values(_))), "{values:?}");
    };
    let header_end = good.windows(2).position(|w| w == b"\n\n").unwrap() + 2;
    let mut flipped = good.clone();
    flipped[header_end + 5] ^= 1;
    rejected(&flipped, "hash");
    rejected(&good[..good.len() - 3], "cut short");
    rejected(b"hello", "not a bouton-grundy proof");
    // Dawson's Kayles' proof under Kayles' name.
    let dawson = compute(&HeapGame::dawsons_kayles(), 300, ComputeOptions::default()).expect("computed");
    let other = ProofStore::new(dir.0.join("other"));
    let other_bytes = std::fs::read(other.keep(&dawson).expect("kept")).expect("the file");
    rejected(&other_bytes, "a proof for 0.07, not for 0.77");
    // A value changed and the hash recomputed: the periodicity check fails.
    let mut forged = good[..good.len() - 8].to_vec();
    let last = forged.len() - 1;
    forged[last] ^= 1;
    rejected(&rehash(forged), "checksum");
    // A value changed before the pre-period (the checksum made to match is
    // beyond a forger's patience, so it fails there first too).
    let mut early = good[..good.len() - 8].to_vec();
    early[header_end + 3] ^= 1;
    rejected(&rehash(early), "checksum");
    // A pre-period claimed one too large.
    let text = String::from_utf8_lossy(&good[..header_end]).replace("preperiod 71", "preperiod 72");
    let mut longer = text.into_bytes();
    longer.extend_from_slice(&good[header_end..good.len() - 8]);
    rejected(&rehash(longer), "not pre-period + period");
    // The good file again: used.
    std::fs::write(&path, &good).expect("written");
    assert!(HeapValues::for_heaps_using(&kayles, 1 << 40, &Meter::unlimited(), 10, Some(&store)).is_ok());
}

/// A game without a proved period has nothing to keep.
#[test]
fn only_proofs_are_kept() {
    let dir = Dir::new("none");
    let store = ProofStore::new(&dir.0);
    let seq = compute(&HeapGame::grundys_game(), 100, ComputeOptions::default()).expect("computed");
    assert!(matches!(store.keep(&seq), Err(ProofStoreError::NotProved { .. })));
    assert!(store.load(&HeapGame::grundys_game()).expect("no file").is_none());
}

/// The FNV-1a hash the files end with, over everything before it.
fn rehash(mut bytes: Vec<u8>) -> Vec<u8> {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in &bytes {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    bytes.extend_from_slice(&hash.to_le_bytes());
    bytes
}
