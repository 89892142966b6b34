//! One game, in the line format `bench/misere-vs-miseresolver.sh` reads:
//! `heap N ORDER |P|` per heap added, then `prefn` (each heap's element),
//! `period PRE PERIOD PROVED_AT` when the period is proved, `stopped WHY`
//! when a heap could not be added, and `done SECONDS` (wall-clock).
//! `cargo run --release -p bouton-misere --example compare -- CODE UPTO
//! [SECONDS]`: SECONDS (default 60) is a budget of CPU time of the process,
//! not wall-clock, so that a loaded machine does not cut it short;
//! `MAX_ORDER` (default 100000) bounds the quotient.
//!
//! With `--against FILE` (a MisereSolver output holding a snapshot of its
//! quotient of the heaps up to UPTO; see `against_miseresolver.rs`) it
//! compares the full quotients and prints `isomorphic yes: …` or
//! `isomorphic NO: WHY` (or `isomorphic not compared: WHY`).

mod against_miseresolver;

use std::time::Duration;

use bouton_grundy::Cancel;
use bouton_misere::{Budget, HeapGame, SolveOptions, solve_partial};

/// CPU time of this process (user + system), from `/proc/self/stat`.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let against = match args.iter().position(|a| a == "--against") {
        Some(i) if i + 1 < args.len() => {
            let file = args.remove(i + 1);
            args.remove(i);
            Some(file)
        }
        Some(_) => {
            eprintln!("--against needs a file");
            std::process::exit(2);
        }
        None => None,
    };
    let (Some(code), Some(upto)) = (args.first(), args.get(1).and_then(|s| s.parse::<u64>().ok())) else {
        eprintln!("usage: compare CODE UPTO [SECONDS] [--against MISERESOLVER_OUTPUT]");
        std::process::exit(2);
    };
    let seconds = args.get(2).and_then(|s| s.parse::<f64>().ok()).unwrap_or(60.0);
    let max_order = std::env::var("MAX_ORDER").ok().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let Ok(game) = code.parse::<HeapGame>() else {
        println!("stopped not a code");
        return;
    };
    let cancel = Cancel::new();
    let watcher = cancel.clone();
    std::thread::spawn(move || {
        while cpu_seconds().is_some_and(|cpu| cpu < seconds) {
            std::thread::sleep(Duration::from_millis(20));
        }
        watcher.cancel();
    });
    let options = SolveOptions::upto(upto)
        .with_max_order(max_order)
        .with_budget(Budget::new(u64::MAX, 8 << 30).with_cancel(cancel));
    let start = std::time::Instant::now();
    let partial = match solve_partial(&game, &options) {
        Ok(partial) => partial,
        Err(e) => {
            println!("stopped {e}");
            return;
        }
    };
    let q = &partial.quotient;
    if let Some(file) = against {
        println!("isomorphic {}", isomorphism_report(q, &file));
        return;
    }
    for (n, (order, p)) in q.orders().iter().zip(q.p_sizes()).enumerate().skip(1) {
        println!("heap {n} {order} {p}");
    }
    let ids: Vec<String> = q.pretending().computed().iter().map(|x| x.0.to_string()).collect();
    println!("prefn {}", ids.join(" "));
    if let Some(period) = q.pretending().period() {
        println!("period {} {} {}", period.preperiod, period.period, period.proved_at);
    }
    if let Some(e) = &partial.stopped {
        println!("stopped {}", e.to_string().replace('\n', " "));
    }
    println!("done {:.3}", start.elapsed().as_secs_f64());
}

/// The comparison with MisereSolver's snapshot in `file`, as one line.
fn isomorphism_report(q: &bouton_misere::MisereQuotient, file: &str) -> String {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => return format!("not compared: cannot read {file}: {e}"),
    };
    let snapshot = match against_miseresolver::Snapshot::read(&text) {
        Ok(Some(snapshot)) => snapshot,
        Ok(None) => return "not compared: no MisereSolver snapshot".to_string(),
        Err(e) => return format!("not compared: {e}"),
    };
    if q.pretending().upto() != snapshot.heap() as u64 {
        return format!(
            "not compared: bouton reached heap {}, the snapshot is at {}",
            q.pretending().upto(),
            snapshot.heap()
        );
    }
    match against_miseresolver::compare(q, &snapshot) {
        Ok(a) => format!(
            "yes: heaps up to {}, order {}, |P| {}; MisereSolver's generators are heaps {:?}, its {} relations hold \
             in bouton; bouton's generators are heaps {:?}, its {} relations hold in MisereSolver's monoid; \
             one-to-one, multiplicative, P onto P, every heap to its element",
            snapshot.heap(),
            q.order(),
            q.p_portion().len(),
            a.ms_generator_heaps,
            a.ms_relations,
            a.bouton_generator_heaps,
            a.bouton_relations
        ),
        Err(why) => format!("NO: {why}"),
    }
}
