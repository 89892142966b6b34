//! Replays a playout recorded by another reasoner and compares bouton's
//! answers with it state by state: `cargo run --release -p bouton-ggp
//! --example replay_trace -- FILE TRACE [--machine]`.
//!
//! TRACE is what `bench/ggp-base-playouts/Playouts.java FILE --trace SEED`
//! prints (ggp-base's prover): tab-separated lines `roles R…`, then per
//! state `step K`, `state FACT…`, `legal ROLE MOVE…` (one line per role),
//! `terminal yes|no`, `goals G…` (terminal states) and `joint MOVE…` (the
//! moves played, in role order), and a final `end REASON`. bouton's prover
//! follows the same joint moves and, in every state, its facts, each role's
//! legal moves, terminality and (in terminal states) the goals are compared
//! with the trace's, without regard to letter case. With `--machine`, the
//! network `Machine::compile` builds follows them too (legal moves,
//! terminality, goals; its facts are not compared: fluents that never
//! change are constants in it). Prints each disagreement on a line of its
//! own starting with `DISAGREE`, then `agree: N states` or
//! `disagreements: D in N states`; exit code 1 when any was found, 2 for
//! unreadable input.

use std::collections::BTreeSet;
use std::process::ExitCode;

use bouton_ggp::{Game, Machine, Prover, ProverState, State, Term};

/// One state of the trace.
#[derive(Default)]
struct Recorded {
    step: usize,
    facts: BTreeSet<String>,
    legal: Vec<BTreeSet<String>>,
    terminal: bool,
    goals: Option<Vec<String>>,
    joint: Option<Vec<String>>,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let with_machine = args.iter().any(|a| a == "--machine");
    let files: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let [rules, trace] = files[..] else {
        eprintln!("usage: replay_trace FILE TRACE [--machine]");
        return ExitCode::from(2);
    };
    match replay(rules, trace, with_machine) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The disagreements found along the trace.
fn replay(rules: &str, trace: &str, with_machine: bool) -> Result<usize, String> {
    let text = std::fs::read_to_string(rules).map_err(|e| format!("{rules}: {e}"))?;
    let game = Game::parse(&text).map_err(|e| format!("{rules}: {e}"))?;
    let trace_text = std::fs::read_to_string(trace).map_err(|e| format!("{trace}: {e}"))?;
    let states = parse_trace(&trace_text)?;
    let mut prover = Prover::new(&game);
    let roles = prover.roles().len();
    let machine = if with_machine { Some(Machine::compile(&game).map_err(|e| format!("{rules}: {e}"))?) } else { None };
    let mut state: ProverState = prover.initial_state();
    let mut machine_state: Option<State> = machine.as_ref().map(Machine::initial_state);
    let mut disagreements = 0;
    let mut report = |step: usize, what: String| {
        println!("DISAGREE step {step}: {what}");
        disagreements += 1;
    };
    for recorded in &states {
        if recorded.legal.len() != roles {
            return Err(format!(
                "step {}: {} roles in the trace, {roles} in the rules",
                recorded.step,
                recorded.legal.len()
            ));
        }
        let step = recorded.step;
        let facts = names(&prover.facts(&state));
        if facts != recorded.facts {
            report(step, format!("bouton prover's state {}", difference(&recorded.facts, &facts)));
        }
        let inspection = prover.inspect(&state);
        for (role, expected) in recorded.legal.iter().enumerate() {
            let legal = names(&inspection.legal[role]);
            if &legal != expected {
                report(step, format!("bouton prover's legal moves of role {role} {}", difference(expected, &legal)));
            }
        }
        if inspection.terminal != recorded.terminal {
            report(
                step,
                format!("bouton prover says terminal {}, the trace {}", inspection.terminal, recorded.terminal),
            );
        }
        if let Some(goals) = &recorded.goals {
            let ours = goal_names(&inspection.goals);
            if &ours != goals {
                report(step, format!("bouton prover's goals {ours:?}, the trace's {goals:?}"));
            }
        }
        if let (Some(machine), Some(ms)) = (&machine, &machine_state) {
            for (role, expected) in recorded.legal.iter().enumerate() {
                let legal: BTreeSet<String> = machine
                    .legal_moves(ms, role)
                    .iter()
                    .map(|&m| machine.moves(role)[m as usize].to_string().to_lowercase())
                    .collect();
                if &legal != expected {
                    report(
                        step,
                        format!("bouton machine's legal moves of role {role} {}", difference(expected, &legal)),
                    );
                }
            }
            if machine.is_terminal(ms) != recorded.terminal {
                report(
                    step,
                    format!("bouton machine says terminal {}, the trace {}", !recorded.terminal, recorded.terminal),
                );
            }
            if let Some(goals) = &recorded.goals {
                let ours = goal_names(&machine.goals(ms));
                if &ours != goals {
                    report(step, format!("bouton machine's goals {ours:?}, the trace's {goals:?}"));
                }
            }
        }
        let Some(joint) = &recorded.joint else { break };
        let terms = joint
            .iter()
            .map(|m| m.parse::<Term>().map_err(|e| format!("step {step}: move {m}: {e}")))
            .collect::<Result<Vec<Term>, String>>()?;
        state = prover.next_state(&state, &terms);
        if let (Some(machine), Some(ms)) = (&machine, &mut machine_state) {
            let indices: Option<Vec<u32>> =
                terms.iter().enumerate().map(|(role, t)| machine.move_index(role, t)).collect();
            match indices {
                Some(indices) => *ms = machine.next_state(ms, &indices),
                None => {
                    report(step, format!("bouton machine does not know the joint move {joint:?}"));
                    machine_state = None;
                }
            }
        }
    }
    let compared = states.len();
    if disagreements == 0 {
        println!(
            "agree: {compared} states (facts, legal moves, terminality, goals{})",
            if with_machine { "; prover and machine" } else { "; prover" }
        );
    } else {
        println!("disagreements: {disagreements} in {compared} states");
    }
    Ok(disagreements)
}

fn parse_trace(text: &str) -> Result<Vec<Recorded>, String> {
    let mut states: Vec<Recorded> = Vec::new();
    let mut ended = false;
    for (n, line) in text.lines().enumerate() {
        let mut fields = line.split('\t');
        let head = fields.next().unwrap_or("");
        let rest: Vec<String> = fields.map(str::to_lowercase).collect();
        let bad = || format!("trace line {}: unexpected {line:?}", n + 1);
        match head {
            "roles" | "" => {}
            "step" => states.push(Recorded {
                step: rest.first().and_then(|s| s.parse().ok()).ok_or_else(bad)?,
                ..Recorded::default()
            }),
            "end" => ended = true,
            _ => {
                let current = states.last_mut().ok_or_else(bad)?;
                match head {
                    "state" => current.facts = rest.into_iter().collect(),
                    "legal" => current.legal.push(rest.into_iter().skip(1).collect()),
                    "terminal" => current.terminal = rest.first().is_some_and(|s| s == "yes"),
                    "goals" => current.goals = Some(rest),
                    "joint" => current.joint = Some(rest),
                    _ => return Err(bad()),
                }
            }
        }
    }
    if !ended || states.is_empty() {
        return Err("the trace is incomplete (no `end` line)".to_string());
    }
    Ok(states)
}

fn names(terms: &[Term]) -> BTreeSet<String> {
    terms.iter().map(|t| t.to_string().to_lowercase()).collect()
}

fn goal_names(goals: &[Option<u8>]) -> Vec<String> {
    goals.iter().map(|g| g.map_or_else(|| "none".to_string(), |v| v.to_string())).collect()
}

/// What only the trace has and what only bouton has.
fn difference(trace: &BTreeSet<String>, ours: &BTreeSet<String>) -> String {
    let only_trace: Vec<&String> = trace.difference(ours).collect();
    let only_ours: Vec<&String> = ours.difference(trace).collect();
    format!("differs: only in the trace {only_trace:?}, only in bouton's {only_ours:?}")
}
