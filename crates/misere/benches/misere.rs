//! Speed of misère play once a quotient is known, and of reading a shipped
//! quotient (which proves it again).
//!
//! `cargo bench -p bouton-misere --bench misere`; one group at a time:
//! `… -- "answer"`, `… -- "read"`. Each run checks its answer.

use std::hint::black_box;
use std::time::Duration;

use bouton_misere::{HeapGame, Meter, MisereQuotient, Outcome, shipped};
use criterion::{Criterion, criterion_group, criterion_main};

fn read(code: &str) -> MisereQuotient {
    let game: HeapGame = code.parse().expect("a code");
    shipped(&game, &mut Meter::unlimited()).expect("shipped").expect("proved again").quotient
}

/// One answer: the outcome and every winning move of a position.
fn answer_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("answer");
    group.sample_size(20).warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_secs(2));
    let kayles = read("0.77");
    group.bench_function("kayles 20 30 40: outcome", |b| {
        b.iter(|| assert_eq!(kayles.outcome(black_box(&[20, 30, 40])), Some(Outcome::Next)));
    });
    group.bench_function("kayles 20 30 40: winning moves", |b| {
        b.iter(|| assert!(!kayles.winning_moves(black_box(&[20, 30, 40])).expect("covered").is_empty()));
    });
    let heaps = [1_000_000, 999_999, 123_457];
    group.bench_function("kayles 10^6 heaps: outcome", |b| {
        b.iter(|| assert!(kayles.outcome(black_box(&heaps)).is_some()));
    });
    let guiles = read("0.15");
    group.bench_function("guiles 10^6 heaps: outcome", |b| {
        b.iter(|| assert!(guiles.outcome(black_box(&heaps)).is_some()));
    });
    group.finish();
}

/// Reading a shipped quotient: the text parsed and the quotient proved again.
fn read_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("read");
    group.sample_size(10).warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_secs(2));
    for (code, order) in [("0.77", 40), ("0.15", 42), ("0.44", 40), ("0.07", 176)] {
        group.bench_function(code, |b| b.iter(|| assert_eq!(read(black_box(code)).order(), order)));
    }
    group.finish();
}

criterion_group!(benches, answer_benches, read_benches);
criterion_main!(benches);
