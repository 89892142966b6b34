//! Computes a Grundy sequence and prints its facts and the time taken, for
//! one-off timings beside the criterion benches:
//! `cargo run --release -p bouton-grundy --example sequence -- 4!.0 16777216`, or
//! `… -- 0.354 30000000 --prove` to stop once periodicity is proved.
//! `MEMORY=BYTES` sets the memory limit (values beyond it go to disk);
//! `DUMP=FILE` writes the values, one per line; `THREADS=1` keeps to one
//! core; `CHECKPOINT=FILE` keeps the values in FILE and resumes from it.
//! For Grundy's game to 2^20, 2^21 or 2^24 the checksum is checked against
//! the published one (`../shared/cgt-data/CHECKSUMS.md`), and a mismatch is
//! an error.

use std::time::Instant;

use bouton_grundy::{ComputeOptions, HeapGame, compute};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game: HeapGame = args.first().map_or("4!.0", String::as_str).parse()?;
    let upto: u64 = args.get(1).map_or(Ok(1 << 20), |s| s.parse())?;
    let prove = args.iter().any(|a| a == "--prove");
    let started = Instant::now();
    let mut options = ComputeOptions { stop_when_proved: prove, ..Default::default() };
    if let Ok(limit) = std::env::var("MEMORY") {
        options.memory_limit = limit.parse()?;
    }
    if let Ok(threads) = std::env::var("THREADS") {
        options.threads = threads.parse()?;
    }
    if let Ok(path) = std::env::var("CHECKPOINT") {
        options.checkpoint = Some(path.into());
    }
    let seq = compute(&game, upto, options)?;
    let elapsed = started.elapsed();
    let stats = seq.stats();
    println!("game {game}, G(0..={}) by {:?} in {:.2?}", seq.upto(), seq.engine(), elapsed);
    println!(
        "checksum {}, max {} (first at {}), zeros {}, rare {} (mask {}, last {:?})",
        stats.checksum(),
        stats.max(),
        stats.first_max(),
        stats.zeros(),
        stats.rare_count(),
        stats.mask(),
        stats.last_rare()
    );
    println!("periodicity {:?}", seq.periodicity());
    let known = [(1u64 << 20, "A4B697C4"), (1 << 21, "DA3E1AFA"), (1 << 24, "8EB8E15C")];
    if game == HeapGame::grundys_game()
        && let Some(&(_, expected)) = known.iter().find(|&&(n, _)| n == seq.upto())
    {
        let checksum = stats.checksum().to_string();
        if checksum != expected {
            return Err(format!("checksum {checksum} differs from the known {expected}").into());
        }
        println!("checksum agrees with the known one");
    }
    if let Ok(path) = std::env::var("DUMP") {
        let text: String = seq.iter().map(|v| format!("{}\n", v.expect("value"))).collect();
        std::fs::write(path, text)?;
    }
    Ok(())
}
