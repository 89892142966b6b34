//! Speed of the Grundy engine, on one thread and on two.
//!
//! `cargo bench -p bouton-grundy --bench grundy` runs everything (about
//! ten minutes: criterion takes at least ten samples of each). One at a
//! time: `cargo bench -p bouton-grundy --bench grundy -- "grundys game/2^24"`,
//! `… -- "0.354"`. Each run also checks its answer, so a fast wrong result
//! cannot pass for a fast right one. The proof of 0.1777 (over a minute a
//! run) is timed by `bench/grundy.sh` instead.

use std::hint::black_box;
use std::time::Duration;

use bouton_grundy::{ComputeOptions, HeapGame, Periodicity, compute};
use criterion::{Criterion, criterion_group, criterion_main};

fn grundys_game(upto: u64, threads: usize, checksum: &str) {
    let options = ComputeOptions { threads, ..ComputeOptions::default() };
    let seq = compute(&HeapGame::grundys_game(), black_box(upto), options).expect("computed");
    assert_eq!(seq.stats().checksum().to_string(), checksum, "the checksum of CHECKSUMS.md");
}

fn grundys_game_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("grundys game");
    group.sample_size(10).warm_up_time(Duration::from_millis(1)).measurement_time(Duration::from_secs(1));
    group.bench_function("2^20", |b| b.iter(|| grundys_game(1 << 20, 1, "A4B697C4")));
    group.bench_function("2^20 two threads", |b| b.iter(|| grundys_game(1 << 20, 2, "A4B697C4")));
    group.bench_function("2^24", |b| b.iter(|| grundys_game(1 << 24, 1, "8EB8E15C")));
    group.bench_function("2^24 two threads", |b| b.iter(|| grundys_game(1 << 24, 2, "8EB8E15C")));
    group.finish();
}

fn prove_0_354(c: &mut Criterion) {
    let mut group = c.benchmark_group("prove periodic");
    group.sample_size(10).warm_up_time(Duration::from_millis(1)).measurement_time(Duration::from_secs(1));
    group.bench_function("0.354", |b| {
        b.iter(|| {
            let game: HeapGame = "0.354".parse().expect("a code");
            let options = ComputeOptions { stop_when_proved: true, ..ComputeOptions::default() };
            let seq = compute(&game, black_box(30_000_000), options).expect("computed");
            assert!(
                matches!(seq.periodicity(), Periodicity::Proved { period: 1180, preperiod: 10_061_916, .. }),
                "{:?}",
                seq.periodicity()
            );
        });
    });
    group.bench_function("0.16", |b| {
        b.iter(|| {
            let game: HeapGame = "0.16".parse().expect("a code");
            let options = ComputeOptions { stop_when_proved: true, ..ComputeOptions::default() };
            let seq = compute(&game, black_box(1 << 32), options).expect("computed");
            assert!(
                matches!(seq.periodicity(), Periodicity::Proved { period: 149_459, preperiod: 105_351, .. }),
                "{:?}",
                seq.periodicity()
            );
        });
    });
    group.bench_function("kayles", |b| {
        b.iter(|| {
            let options = ComputeOptions { stop_when_proved: true, ..ComputeOptions::default() };
            let seq = compute(&HeapGame::kayles(), black_box(1 << 20), options).expect("computed");
            assert!(seq.periodicity().is_proved());
        });
    });
    group.finish();
}

criterion_group!(benches, grundys_game_benches, prove_0_354);
criterion_main!(benches);
