//! Prints the quotient of each game named on the command line (default: the
//! games of the README's table), with the time each took:
//! `cargo run --release -p bouton-misere --example table -- 0.77 0.15`.

use std::time::Instant;

use bouton_misere::{HeapGame, SolveOptions, solve};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let codes: Vec<String> = if args.is_empty() {
        ["0.77", "0.15", "0.75", "0.114", "0.115", "0.137", "0.3…", "0.07"].iter().map(|s| s.to_string()).collect()
    } else {
        args
    };
    for code in codes {
        let Ok(game) = code.parse::<HeapGame>() else {
            println!("{code}: not a code");
            continue;
        };
        let upto = std::env::var("UPTO").ok().and_then(|s| s.parse().ok()).unwrap_or(if game.is_finite_octal() {
            400
        } else {
            6
        });
        let start = Instant::now();
        // TIME_LIMIT=seconds gives a longer budget than the default minute.
        let mut options = SolveOptions::upto(upto);
        if let Some(seconds) = std::env::var("TIME_LIMIT").ok().and_then(|s| s.parse().ok()) {
            options = options.with_budget(
                bouton_misere::Budget::new(u64::MAX, 4 << 30).with_time_limit(std::time::Duration::from_secs(seconds)),
            );
        }
        let result = solve(&game, &options);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        match result {
            Ok(q) => {
                let m = q.monoid();
                println!(
                    "{code}: order {} |P| {} idempotents {} generators {} relations {} period {:?} heaps {} ({ms:.1} ms)",
                    q.order(),
                    q.p_portion().len(),
                    m.idempotents().len(),
                    m.generators().len(),
                    m.relations().len(),
                    q.pretending().period(),
                    q.pretending().upto(),
                );
                println!("  orders {:?}", q.orders());
                if q.pretending().period().is_some() {
                    let big = [1_000_000, 999_999, 20, 30, 40];
                    let start = Instant::now();
                    let outcome = q.outcome(&big);
                    let outcome_us = start.elapsed().as_secs_f64() * 1e6;
                    let start = Instant::now();
                    let moves = q.winning_moves(&big).map(|m| m.len());
                    let moves_ms = start.elapsed().as_secs_f64() * 1e3;
                    println!(
                        "  {big:?}: {outcome:?} in {outcome_us:.1} µs; {moves:?} winning moves listed in {moves_ms:.1} ms"
                    );
                }
            }
            Err(e) => println!("{code}: {e} ({ms:.1} ms)"),
        }
    }
}
