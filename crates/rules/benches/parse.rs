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
//! Each iteration returns a fresh `Heaps` and drops it: the time includes
//! allocating and filling the output vector (80 MB at 10^7 heaps, whose
//! first-touch page faults alone take tens of milliseconds).
//!
//! Variants, all on the same text in the same run:
//! * `parse_bytes`: `Heaps::parse_bytes`, one thread, eight bytes at a time;
//! * `two_threads`: the text cut in two just after a whitespace byte near
//!   the middle, each half parsed by `Heaps::parse_sizes_into` on its own
//!   thread (`std::thread::scope`) into its own fresh vector, the second
//!   half's sizes then appended to the first's. On a 2-core machine this
//!   gains little or nothing: the second vector's page faults and the copy
//!   cost about what the second thread saves. `bouton analyze -` instead
//!   parses blocks into recycled vectors while it reads (see
//!   `src/heaps_input.rs` and `bench/analyze-stdin.sh`);
//! * `byte_loop`: the byte-at-a-time loop with checked arithmetic that
//!   `parse_bytes` used before, kept here as the baseline.
//!
//! Run with `cargo bench -p bouton-rules --bench parse`.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

use bouton_rules::{Heaps, HeapsError};
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

/// The previous `Heaps::parse_bytes`: one byte at a time, checked
/// arithmetic at every digit.
fn byte_loop(bytes: &[u8]) -> Result<Heaps, HeapsError> {
    let mut sizes = Vec::with_capacity(bytes.len() / 8 + 1);
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let mut value: u64 = 0;
        let mut valid = true;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
            let digit = bytes[i].wrapping_sub(b'0');
            if digit > 9 {
                valid = false;
            } else if valid {
                match value.checked_mul(10).and_then(|v| v.checked_add(u64::from(digit))) {
                    Some(v) => value = v,
                    None => valid = false,
                }
            }
            i += 1;
        }
        if !valid {
            let text = String::from_utf8_lossy(&bytes[start..i]).into_owned();
            return Err(HeapsError::BadSize { text });
        }
        sizes.push(value);
    }
    Heaps::new(sizes)
}

/// The text parsed in two halves on two threads, cut just after a
/// whitespace byte near the middle.
fn two_threads(bytes: &[u8]) -> Result<Heaps, HeapsError> {
    let middle = bytes.len() / 2;
    let cut = bytes[middle..].iter().position(u8::is_ascii_whitespace).map_or(bytes.len(), |n| middle + n + 1);
    let (first, second) = bytes.split_at(cut);
    let (first, second) = std::thread::scope(|scope| {
        let second = scope.spawn(|| {
            let mut sizes = Vec::with_capacity(second.len() / 8 + 1);
            Heaps::parse_sizes_into(second, &mut sizes).map(|()| sizes)
        });
        let mut sizes = Vec::with_capacity(bytes.len() / 8 + 1);
        let first = Heaps::parse_sizes_into(first, &mut sizes).map(|()| sizes);
        (first, second.join().expect("the parsing thread does not panic"))
    });
    // The first half's error, if any, comes first in the text.
    let mut sizes = first?;
    sizes.extend_from_slice(&second?);
    Heaps::new(sizes)
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
        for parse in [Heaps::parse_bytes, two_threads, byte_loop] {
            let parsed = parse(text.as_bytes()).expect("generated text parses");
            assert_eq!(parsed.as_slice(), &heaps[..], "round trip of {name}");
        }

        group.throughput(Throughput::ElementsAndBytes { elements: heaps.len() as u64, bytes: text.len() as u64 });
        group.bench_with_input(BenchmarkId::new("parse_bytes", name), text.as_bytes(), |b, bytes| {
            b.iter(|| Heaps::parse_bytes(black_box(bytes)));
        });
        group.bench_with_input(BenchmarkId::new("two_threads", name), text.as_bytes(), |b, bytes| {
            b.iter(|| two_threads(black_box(bytes)));
        });
        group.bench_with_input(BenchmarkId::new("byte_loop", name), text.as_bytes(), |b, bytes| {
            b.iter(|| byte_loop(black_box(bytes)));
        });
    }
    group.finish();
}

criterion_group!(benches, bench_parse);
criterion_main!(benches);
