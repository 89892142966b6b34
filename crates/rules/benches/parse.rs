//! `Heaps::parse_bytes` on the text `bouton analyze -` reads: 10^7 heap
//! sizes, written in decimal and separated by spaces, with a newline after
//! every 16, and a final newline.
//!
//! Two inputs: uniformly random `u64` sizes (about 19 digits each, ~200 MB of
//! text) and small sizes below 1000 (about 3 digits each, ~39 MB). Both are
//! generated once, outside the timed loop, from a seeded ChaCha8 generator.
//! Throughput is reported in bytes of text and in heaps per second; compare
//! the heaps per second with the `analysis` benchmark of the `bouton-analysis`
//! crate to see which of parsing and analysis dominates `bouton analyze -`.
//!
//! Each iteration returns a fresh `Heaps` and drops it, as the CLI does: the
//! time includes allocating and filling the output vector.
//!
//! Run with `cargo bench -p bouton-rules --bench parse`.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

use bouton_rules::Heaps;
use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const HEAPS: usize = 10_000_000;

/// The heaps as text, and the heaps themselves to check the parse against.
fn text_of(heaps: &[u64]) -> String {
    let mut text = String::with_capacity(heaps.len() * 21);
    for (i, h) in heaps.iter().enumerate() {
        write!(text, "{h}").expect("writing to a String cannot fail");
        text.push(if i % 16 == 15 { '\n' } else { ' ' });
    }
    text.push('\n');
    text
}

fn bench_parse(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(0x0b07_7012_2025);
    let inputs: [(&str, Vec<u64>); 2] = [
        ("random_u64", (0..HEAPS).map(|_| rng.random()).collect()),
        ("below_1000", (0..HEAPS).map(|_| rng.random_range(0..1000)).collect()),
    ];

    let mut group = c.benchmark_group("parse/1e7");
    // About 0.1 to 0.5 s per iteration: criterion's minimum of 10 samples,
    // each of the same few iterations (flat sampling, meant for long runs).
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    for (name, heaps) in &inputs {
        let text = text_of(heaps);
        let parsed = Heaps::parse_bytes(text.as_bytes()).expect("generated text parses");
        assert_eq!(parsed.as_slice(), &heaps[..], "round trip of {name}");
        drop(parsed);

        group.throughput(Throughput::ElementsAndBytes { elements: heaps.len() as u64, bytes: text.len() as u64 });
        group.bench_with_input(BenchmarkId::new("parse_bytes", name), text.as_bytes(), |b, bytes| {
            b.iter(|| Heaps::parse_bytes(black_box(bytes)));
        });
    }
    group.finish();
}

criterion_group!(benches, bench_parse);
criterion_main!(benches);
