//! No text makes the library panic or hang: random token soup (mostly
//! malformed, some of it odd but parsable GDL) goes through parsing,
//! validation, compilation and the prover, which must each answer — an error
//! is a fine answer — within bounds.

use bouton_ggp::{Evaluator, Game, Machine, Prover, Sexp, Term};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const WORDS: [&str; 22] = [
    "role", "init", "true", "does", "next", "legal", "goal", "terminal", "distinct", "not", "or", "<=", "p", "q", "f",
    "a", "b", "0", "100", "?x", "?y", "base",
];

fn soup(rng: &mut SmallRng, depth: usize) -> String {
    if depth == 0 || rng.random_bool(0.35) {
        return WORDS[rng.random_range(0..WORDS.len())].to_string();
    }
    let n = rng.random_range(0..5);
    let items: Vec<String> = (0..n).map(|_| soup(rng, depth - 1)).collect();
    format!("({})", items.join(" "))
}

const RELATIONS: [&str; 10] = ["init", "true", "does", "next", "legal", "goal", "terminal", "p", "q", "role"];
const TERMS: [&str; 7] = ["a", "b", "0", "100", "?x", "?y", "?z"];

fn term(rng: &mut SmallRng, depth: usize) -> String {
    if depth == 0 || rng.random_bool(0.7) {
        return TERMS[rng.random_range(0..TERMS.len())].to_string();
    }
    let args: Vec<String> = (0..rng.random_range(1..3)).map(|_| term(rng, depth - 1)).collect();
    format!("(f {})", args.join(" "))
}

fn sentence(rng: &mut SmallRng) -> String {
    let name = RELATIONS[rng.random_range(0..RELATIONS.len())];
    let arity = if rng.random_bool(0.8) { rng.random_range(0..3) } else { 0 };
    if arity == 0 && rng.random_bool(0.8) {
        return name.to_string();
    }
    let args: Vec<String> = (0..arity).map(|_| term(rng, 2)).collect();
    format!("({name} {})", args.join(" "))
}

fn literal(rng: &mut SmallRng, depth: usize) -> String {
    match rng.random_range(0..10) {
        0 | 1 => {
            format!("(not {})", if depth > 0 && rng.random_bool(0.1) { literal(rng, depth - 1) } else { sentence(rng) })
        }
        2 => format!("(distinct {} {})", term(rng, 1), term(rng, 1)),
        3 if depth > 0 => format!("(or {} {})", literal(rng, depth - 1), literal(rng, depth - 1)),
        4 => soup(rng, 2),
        _ => sentence(rng),
    }
}

/// A random rule sheet: a skeleton of roles and an initial state, then
/// random facts and rules — mostly well-formed GDL, often unsafe,
/// unstratified or recursive through functions, sometimes plain soup.
fn sheet(rng: &mut SmallRng) -> String {
    let mut text = String::from("(role a) (role b) (init (p 0)) ");
    for _ in 0..rng.random_range(1..10) {
        if rng.random_bool(0.75) {
            let body: Vec<String> = (0..rng.random_range(0..4)).map(|_| literal(rng, 2)).collect();
            text.push_str(&format!("(<= {} {}) ", sentence(rng), body.join(" ")));
        } else if rng.random_bool(0.8) {
            text.push_str(&sentence(rng));
            text.push(' ');
        } else {
            text.push_str(&soup(rng, 3));
            text.push(' ');
        }
    }
    // Now and then a broken tail: unbalanced parentheses.
    if rng.random_bool(0.05) {
        text.push('(');
    }
    text
}

#[test]
fn random_rule_sheets_never_panic() {
    let mut rng = SmallRng::seed_from_u64(2024);
    let (mut parsed, mut compiled) = (0, 0);
    for _ in 0..1500 {
        let text = sheet(&mut rng);
        let _ = Sexp::parse_all(&text);
        let Ok(game) = Game::parse(&text) else { continue };
        parsed += 1;
        let _ = game.validate();
        let _ = game.to_kif();
        let mut prover = Prover::with_budget(&game, 20_000);
        let state = prover.initial_state();
        let inspection = prover.inspect(&state);
        if inspection.legal.iter().all(|l| !l.is_empty()) {
            let joint: Vec<Term> = inspection.legal.iter().map(|l| l[0].clone()).collect();
            let _ = prover.next_state(&state, &joint);
        }
        let Ok(machine) = Machine::compile_within(&game, 20_000) else { continue };
        compiled += 1;
        let mut e = Evaluator::new(&machine);
        e.playout(&mut rng, 50);
        let _ = e.goals();
    }
    assert!(
        parsed > 300 && compiled > 100,
        "the generator exercises the reasoner ({parsed} parsed, {compiled} compiled)"
    );
}

/// A rule that negates itself through the state (invalid, unstratified GDL)
/// compiles, and asking the machine about it answers rather than loops
/// (found by fuzzing: the fixpoint oscillated for ever).
#[test]
fn self_negating_rules_do_not_hang_the_machine() {
    let game = Game::parse("(role r) (init p) (legal r a) (<= terminal (true p) (not terminal)) (goal r 0)").unwrap();
    assert!(!game.validate().is_valid());
    let machine = Machine::compile_within(&game, 20_000).unwrap();
    let start = machine.initial_state();
    let _ = machine.is_terminal(&start);
    let _ = machine.goals(&start);
    let _ = machine.next_state(&start, &[0]);
}

#[test]
fn hostile_nesting_and_sizes_are_refused_cleanly() {
    assert!(Sexp::parse_all(&"(".repeat(100_000)).is_err());
    assert!(Game::parse(&format!("{}{}", "(".repeat(1000), ")".repeat(1000))).is_err());
    let wide = format!("(role r) (legal r a) (<= terminal (true x)) (goal r 0) (init (f {}))", "x ".repeat(100_000));
    let game = Game::parse(&wide).unwrap();
    assert!(Machine::compile(&game).is_ok());
}

/// A random condition on ?x (bound by the caller), over the state, the
/// static relations and the views `p1`…`p{below}` (`p{recursive}` allowed
/// positively, through `succ`, for recursion).
fn condition(rng: &mut SmallRng, below: usize, recursive: Option<usize>) -> String {
    let v = ["0", "1", "?v"][rng.random_range(0..3)];
    let view = |rng: &mut SmallRng| format!("p{}", rng.random_range(1..=below));
    match rng.random_range(0..9) {
        0 => format!("(true (cell ?x {v}))"),
        1 => "(not (true (cell ?x 1)))".to_string(),
        2 if below > 0 => format!("({} ?x)", view(rng)),
        3 if below > 0 => format!("(not ({} ?x))", view(rng)),
        4 => format!("(distinct ?x {})", rng.random_range(1..4)),
        5 => "(succ ?y ?x) (true (cell ?y 1))".to_string(),
        6 if recursive.is_some() => format!("(succ ?y ?x) (p{} ?y)", recursive.unwrap_or(0)),
        7 => format!("(or (true (cell ?x 0)) (true (cell ?x {v})))"),
        _ => "(true (cell ?x 0))".to_string(),
    }
}

/// A random game that is valid GDL by construction (or nearly: the rare
/// invalid ones are skipped): cells 1–3 holding 0 or 1, views defined in
/// layers (stratified negation, recursion through `succ`), moves that set a
/// cell when random conditions hold, frame rules, random goals and
/// terminality.
fn valid_game(rng: &mut SmallRng) -> String {
    let mut t = String::from(
        "(role a) (role b) (num 1) (num 2) (num 3) (val 0) (val 1) (succ 1 2) (succ 2 3) (init (turn a)) ",
    );
    for x in 1..=3 {
        t.push_str(&format!("(init (cell {x} {})) ", rng.random_range(0..2)));
    }
    let views = rng.random_range(1..4);
    for k in 1..=views {
        for _ in 0..rng.random_range(1..3) {
            let recursive = rng.random_bool(0.3).then_some(k);
            let extra = condition(rng, k - 1, recursive);
            let bind_v = if extra.contains("?v") { " (val ?v)" } else { "" };
            t.push_str(&format!("(<= (p{k} ?x) (num ?x){bind_v} {extra}) "));
        }
    }
    let cond = |rng: &mut SmallRng| {
        let c = condition(rng, views, None);
        let bind_v = if c.contains("?v") { " (val ?v)" } else { "" };
        format!("(num ?x){bind_v} {c}")
    };
    t.push_str(&format!("(<= (legal ?r (set ?x ?w)) (true (turn ?r)) (val ?w) {}) ", cond(rng)));
    t.push_str("(<= (legal ?r noop) (role ?r) (not (true (turn ?r)))) ");
    t.push_str("(<= (legal ?r pass) (true (turn ?r))) ");
    t.push_str("(<= (next (cell ?x ?w)) (does ?r (set ?x ?w))) ");
    t.push_str("(<= (next (cell ?x ?w)) (true (cell ?x ?w)) (does ?r (set ?y ?u)) (distinct ?x ?y)) ");
    t.push_str("(<= (next (cell ?x ?w)) (true (cell ?x ?w)) (does ?r pass)) ");
    t.push_str("(<= (next (turn a)) (true (turn b))) (<= (next (turn b)) (true (turn a))) ");
    t.push_str(&format!("(<= (next (mark ?x)) {}) ", cond(rng)));
    t.push_str("(<= (next (mark ?x)) (true (mark ?x))) ");
    t.push_str(&format!("(<= win {}) ", cond(rng)));
    t.push_str("(<= terminal (true (mark 1)) (true (mark 2))) (<= terminal win) ");
    t.push_str("(<= (goal a 100) win) (<= (goal a 0) (not win)) (<= (goal b 0) win) (<= (goal b 100) (not win)) ");
    t
}

/// On random games that validate, the compiled machine and the prover agree
/// along random plays: a differential test of the compiler on rules no one
/// wrote by hand.
#[test]
fn compiled_machine_agrees_with_the_prover_on_random_valid_games() {
    use std::collections::BTreeSet;
    let mut rng = SmallRng::seed_from_u64(77);
    let mut checked = 0;
    for _ in 0..400 {
        let text = valid_game(&mut rng);
        let game = Game::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        if !game.validate().is_valid() {
            continue;
        }
        let machine = Machine::compile(&game).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let mut prover = Prover::new(&game);
        let mut ps = prover.initial_state();
        let mut state = machine.initial_state();
        for _ in 0..8 {
            assert_eq!(machine.facts(&state), prover.facts(&ps), "state of\n{text}");
            let inspection = prover.inspect(&ps);
            assert_eq!(machine.is_terminal(&state), inspection.terminal, "terminal in\n{text}");
            assert_eq!(machine.goals(&state), inspection.goals, "goals in\n{text}");
            let mut joint = Vec::new();
            for (r, proved) in inspection.legal.iter().enumerate() {
                let legal = machine.legal_moves(&state, r);
                let compiled: BTreeSet<&Term> = legal.iter().map(|&m| &machine.moves(r)[m as usize]).collect();
                assert_eq!(compiled, proved.iter().collect::<BTreeSet<_>>(), "legal moves in\n{text}");
                if !legal.is_empty() {
                    joint.push(legal[rng.random_range(0..legal.len())]);
                }
            }
            if inspection.terminal || joint.len() < machine.roles().len() {
                break;
            }
            let terms: Vec<Term> =
                joint.iter().enumerate().map(|(r, &m)| machine.moves(r)[m as usize].clone()).collect();
            state = machine.next_state(&state, &joint);
            ps = prover.next_state(&ps, &terms);
        }
        checked += 1;
    }
    assert!(checked > 200, "only {checked} random valid games");
}
