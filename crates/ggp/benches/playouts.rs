//! The usual GGP speed figure: state transitions per second in random
//! playouts, single thread, on ticTacToe, connectFour and nim1–nim4 (each
//! transition computes every role's legal moves, picks a random joint move,
//! computes the next state and tests terminality); the reference prover on
//! ticTacToe for comparison, and on chess and checkers (`tests/games`), where
//! it is the fallback while they compile or when they cannot; the time to solve nim3 exactly (about
//! 130,000 states) from its initial state; and simulations per second of the
//! players' searches from the initial state of ticTacToe and connectFour, on
//! one thread: flat Monte Carlo, plain decoupled UCT (random playouts), and
//! the full search of the `best` player (GRAVE, MAST playouts, MCTS-Solver).
//!
//! Each playout iteration runs exactly `TRANSITIONS` transitions, starting a
//! new playout from the initial state whenever one ends, so that throughput
//! is in transitions per second.
//!
//! The games are read from `../shared/gdl` beside the workspace.
//!
//! Run with `cargo bench -p bouton-ggp --bench playouts`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bouton_ggp::{Evaluator, FlatMc, Game, Machine, Mcts, MctsConfig, Prover, Solver};
use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const TRANSITIONS: u64 = 100_000;

fn gdl_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gdl");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("notice: {} is missing; nothing to measure", dir.display());
        None
    }
}

fn game(dir: &Path, name: &str) -> Game {
    let text = std::fs::read_to_string(dir.join(format!("{name}.kif"))).expect("the game file is readable");
    Game::parse(&text).expect("the game parses")
}

/// Exactly `n` transitions of random playouts from the initial state.
fn transitions(e: &mut Evaluator, rng: &mut SmallRng, n: u64) {
    let start = e.machine().initial_state();
    let mut left = n as usize;
    while left > 0 {
        e.load(&start);
        let done = e.playout(rng, left);
        left -= done.max(1);
    }
}

fn bench_playouts(c: &mut Criterion) {
    let Some(dir) = gdl_dir() else { return };
    let mut group = c.benchmark_group("playouts");
    group.throughput(Throughput::Elements(TRANSITIONS));
    group.sample_size(20);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    for name in ["ticTacToe", "connectFour", "nim1", "nim2", "nim3", "nim4"] {
        let machine = Machine::compile(&game(&dir, name)).expect("the game compiles");
        let mut e = Evaluator::new(&machine);
        let mut rng = SmallRng::seed_from_u64(7);
        group.bench_function(BenchmarkId::new("compiled", name), |b| {
            b.iter(|| transitions(&mut e, &mut rng, black_box(TRANSITIONS)));
        });
    }
    group.finish();

    // The reference prover, for scale: far fewer transitions per iteration.
    // Chess and checkers (`tests/games`) are the games too large or slow to
    // compile where it is the fallback.
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    let mut group = c.benchmark_group("playouts-prover");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    for (name, dir, n) in [("ticTacToe", &dir, 100), ("checkers", &repository, 40), ("chess", &repository, 10)] {
        group.throughput(Throughput::Elements(n));
        let mut prover = Prover::new(&game(dir, name));
        let mut rng = SmallRng::seed_from_u64(7);
        let mut state = prover.initial_state();
        group.bench_function(BenchmarkId::new("prover", name), |b| {
            b.iter(|| {
                for _ in 0..n {
                    let inspection = prover.inspect(&state);
                    if inspection.terminal || inspection.legal.iter().any(Vec::is_empty) {
                        state = prover.initial_state();
                        continue;
                    }
                    let joint: Vec<_> =
                        inspection.legal.iter().map(|l| l[rng.random_range(0..l.len())].clone()).collect();
                    state = prover.next_state(&state, &joint);
                }
                black_box(&state);
            });
        });
    }
    group.finish();
}

fn bench_solve(c: &mut Criterion) {
    let Some(dir) = gdl_dir() else { return };
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    let machine = Machine::compile(&game(&dir, "nim3")).expect("nim3 compiles");
    group.bench_function("nim3", |b| {
        b.iter(|| {
            let mut solver = Solver::new(&machine);
            let value = solver.solve(&machine.initial_state(), Instant::now() + Duration::from_secs(60));
            assert_eq!(value, Ok(vec![100, 0]));
            black_box(solver.solved_states())
        });
    });
    group.finish();
}

/// Simulations per iteration of the search benchmarks.
const SIMULATIONS: u64 = 2_000;

fn bench_search(c: &mut Criterion) {
    let Some(dir) = gdl_dir() else { return };
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(SIMULATIONS));
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    for name in ["ticTacToe", "connectFour"] {
        let machine = Machine::compile(&game(&dir, name)).expect("the game compiles");
        let start = machine.initial_state();
        let mut flat = FlatMc::new(&machine, 7);
        group.bench_function(BenchmarkId::new("flat-mc", name), |b| {
            b.iter(|| black_box(flat.choose_playouts(&start, 0, SIMULATIONS)));
        });
        // A new tree each time (no reuse), so that every sample searches the
        // same position from scratch.
        let configs = [
            ("uct-plain", MctsConfig::plain()),
            ("mcts-full", MctsConfig { threads: 1, reuse: false, ..MctsConfig::default() }),
        ];
        for (label, config) in configs {
            let mut mcts = Mcts::with_config(&machine, 7, config);
            group.bench_function(BenchmarkId::new(label, name), |b| {
                b.iter(|| black_box(mcts.search_iterations(&start, 0, SIMULATIONS)));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_playouts, bench_solve, bench_search);
criterion_main!(benches);
