//! Analysis throughput against a memory-bandwidth reference.
//!
//! Each group is one heap count (10^3, 10^5, 10^7 random `u64` heaps, seeded
//! so every run sees the same data). In every group, `plain_sum` — a wrapping
//! add over the same slice — is the reference: nothing that reads every heap
//! once can go much faster, so the interesting number is the ratio of each
//! analysis variant to it. At 10^7 heaps (80 MB) the data is far beyond the
//! caches and every variant is bound by memory bandwidth.
//!
//! Variants:
//! * `first_move/{normal,misere}`: `Analysis::new` then `first_winning_move`.
//!   With random heaps half of them hold a winning move, so the search stops
//!   at once and this is the nim-sum pass (plus, in misère, the count of
//!   heaps above 1 done in the same pass);
//! * `first_move/normal_last`: the same on the worst case for the search,
//!   where only the last heap has a winning move (random heaps below 2^63,
//!   the last one with bit 63 set), so it scans every heap a second time;
//! * `count_moves/{normal,misere}`: `Analysis::new` then count every winning
//!   move (`count_winning_moves`): two passes, as which heaps win depends on
//!   the nim-sum of all of them;
//! * `collect_moves/normal`: `Analysis::new` then collect every winning move
//!   into a fresh `Vec<NimMove>`. About half the random heaps have a winning
//!   move, so this writes 16 bytes per two heaps read, into memory the
//!   kernel must fault in and zero on every iteration at 10^7 heaps;
//! * `extend_moves/normal`: the same into one `Vec` reused across
//!   iterations, which leaves the iterator's own cost plus the writes.
//!
//! Run with `cargo bench -p bouton-analysis --bench analysis`; the timing
//! settings below keep the whole run to a couple of minutes.

use std::hint::black_box;
use std::time::Duration;

use bouton_analysis::Analysis;
use bouton_rules::{Convention, NimMove};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Heap counts benchmarked: in L1/L2, in L2/L3, and far beyond the caches.
const SIZES: [(&str, usize); 3] = [("1e3", 1_000), ("1e5", 100_000), ("1e7", 10_000_000)];

/// `n` uniformly random `u64` heap sizes, the same on every run.
fn random_heaps(n: usize) -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(0x0b07_7012_2025 ^ n as u64);
    (0..n).map(|_| rng.random()).collect()
}

/// The bandwidth reference: one pass that reads every heap and does the
/// cheapest possible vectorisable work with it.
fn plain_sum(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0u64, |acc, &h| acc.wrapping_add(h))
}

fn first_move(heaps: &[u64], convention: Convention) -> Option<NimMove> {
    Analysis::new(heaps, convention).first_winning_move(heaps)
}

fn count_moves(heaps: &[u64], convention: Convention) -> usize {
    Analysis::new(heaps, convention).count_winning_moves(heaps)
}

fn collect_moves(heaps: &[u64], convention: Convention) -> Vec<NimMove> {
    let analysis = Analysis::new(heaps, convention);
    analysis.winning_moves(heaps).collect()
}

fn extend_moves(heaps: &[u64], convention: Convention, moves: &mut Vec<NimMove>) -> usize {
    moves.clear();
    let analysis = Analysis::new(heaps, convention);
    moves.extend(analysis.winning_moves(heaps));
    moves.len()
}

/// `heaps` with bit 63 cleared everywhere except in the last heap, where it
/// is set: the nim-sum has bit 63 set and only the last heap has a winning
/// move.
fn only_last_wins(heaps: &[u64]) -> Vec<u64> {
    let mut heaps: Vec<u64> = heaps.iter().map(|&h| h >> 1).collect();
    if let Some(last) = heaps.last_mut() {
        *last |= 1 << 63;
    }
    heaps
}

fn bench_analysis(c: &mut Criterion) {
    for (label, n) in SIZES {
        // Generated once, outside every timed loop.
        let heaps = random_heaps(n);
        // Sanity: random heaps are a win for the mover in both conventions,
        // so `first_move` exercises the search, not an early `None`.
        assert!(first_move(&heaps, Convention::Normal).is_some());
        assert!(first_move(&heaps, Convention::Misere).is_some());
        let last_wins = only_last_wins(&heaps);
        assert_eq!(first_move(&last_wins, Convention::Normal).map(|mv| mv.heap), Some(n - 1));
        let mut moves = Vec::new();

        let mut group = c.benchmark_group(format!("analysis/{label}"));
        group.throughput(Throughput::Elements(n as u64));
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(3));
        if n >= 1_000_000 {
            // ~10 ms per iteration: criterion's minimum of 10 samples
            // keeps the run short; 20 gives steadier figures.
            group.sample_size(20);
        }

        group.bench_with_input(BenchmarkId::from_parameter("plain_sum"), &heaps[..], |b, h| {
            b.iter(|| plain_sum(black_box(h)));
        });
        for (name, convention) in [("normal", Convention::Normal), ("misere", Convention::Misere)] {
            group.bench_with_input(BenchmarkId::new("first_move", name), &heaps[..], |b, h| {
                b.iter(|| first_move(black_box(h), convention));
            });
        }
        group.bench_with_input(BenchmarkId::new("first_move", "normal_last"), &last_wins[..], |b, h| {
            b.iter(|| first_move(black_box(h), Convention::Normal));
        });
        for (name, convention) in [("normal", Convention::Normal), ("misere", Convention::Misere)] {
            group.bench_with_input(BenchmarkId::new("count_moves", name), &heaps[..], |b, h| {
                b.iter(|| count_moves(black_box(h), convention));
            });
        }
        group.bench_with_input(BenchmarkId::new("collect_moves", "normal"), &heaps[..], |b, h| {
            b.iter(|| collect_moves(black_box(h), Convention::Normal));
        });
        group.bench_with_input(BenchmarkId::new("extend_moves", "normal"), &heaps[..], |b, h| {
            b.iter(|| extend_moves(black_box(h), Convention::Normal, &mut moves));
        });
        group.finish();
    }
}

criterion_group!(benches, bench_analysis);
criterion_main!(benches);
