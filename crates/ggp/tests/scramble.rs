//! Scrambling, as game managers do it: every symbol that is not a keyword is
//! renamed (goal values excepted), and here keywords get random letter case
//! too. Play must not change: a scrambled game and the original are played
//! in lockstep and must agree on every legal move (through the renaming),
//! terminality and goals; the solved values and winning first moves must be
//! the same.

mod common;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::{Duration, Instant};

use bouton_ggp::{Game, Machine, Solver, Term};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const KEYWORDS: [&str; 14] = [
    "role", "init", "true", "does", "next", "legal", "goal", "terminal", "base", "input", "distinct", "not", "or", "<=",
];

/// Atoms and parentheses, comments dropped.
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split(';').next().unwrap_or_default();
        let spaced = line.replace('(', " ( ").replace(')', " ) ");
        out.extend(spaced.split_whitespace().map(str::to_string));
    }
    out
}

struct Scrambled {
    text: String,
    /// Original symbol (lower case) → new spelling.
    names: HashMap<String, String>,
}

fn scramble(text: &str, seed: u64) -> Scrambled {
    let mut rng = SmallRng::seed_from_u64(seed);
    let toks = tokens(text);
    // Goal values keep their names: they must stay numbers.
    let mut keep: HashSet<String> = HashSet::new();
    for w in toks.windows(4) {
        if w[0] == "(" && w[1].eq_ignore_ascii_case("goal") {
            keep.insert(w[3].to_ascii_lowercase());
        }
    }
    let mut names: HashMap<String, String> = HashMap::new();
    let mut used: HashSet<String> = HashSet::new();
    let mut out = String::new();
    for tok in &toks {
        let lower = tok.to_ascii_lowercase();
        let new = if tok == "(" || tok == ")" || tok.starts_with('?') || keep.contains(&lower) {
            tok.clone()
        } else if KEYWORDS.contains(&lower.as_str()) {
            lower.chars().map(|c| if rng.random_bool(0.5) { c.to_ascii_uppercase() } else { c }).collect()
        } else {
            names
                .entry(lower)
                .or_insert_with(|| {
                    loop {
                        let len = rng.random_range(3..9);
                        let mut name: String = (0..len)
                            .map(|_| {
                                let c = (b'a' + rng.random_range(0..26)) as char;
                                if rng.random_bool(0.5) { c.to_ascii_uppercase() } else { c }
                            })
                            .collect();
                        name.push_str(&rng.random_range(0..100).to_string());
                        if used.insert(name.to_ascii_lowercase())
                            && !KEYWORDS.contains(&name.to_ascii_lowercase().as_str())
                        {
                            break name;
                        }
                    }
                })
                .clone()
        };
        out.push_str(&new);
        out.push(if rng.random_bool(0.2) { '\n' } else { ' ' });
    }
    // CRLF line endings, as some rule sheets have.
    Scrambled { text: out.replace('\n', "\r\n"), names }
}

fn rename(term: &Term, names: &HashMap<String, String>) -> Term {
    let name = |s: &str| names.get(&s.to_ascii_lowercase()).cloned().unwrap_or_else(|| s.to_string());
    match term {
        Term::Symbol(s) => Term::Symbol(name(s)),
        Term::Compound(s, args) => Term::Compound(name(s), args.iter().map(|a| rename(a, names)).collect()),
    }
}

/// Plays random games on both machines in lockstep.
fn lockstep(original: &Machine, scrambled: &Machine, names: &HashMap<String, String>, games: usize, seed: u64) {
    let roles = original.roles().len();
    let renamed_roles: Vec<Term> = original.roles().iter().map(|r| rename(r, names)).collect();
    assert_eq!(scrambled.roles(), &renamed_roles[..]);
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..games {
        let (mut a, mut b) = (original.initial_state(), scrambled.initial_state());
        loop {
            assert_eq!(original.is_terminal(&a), scrambled.is_terminal(&b));
            assert_eq!(original.goals(&a), scrambled.goals(&b));
            if original.is_terminal(&a) {
                break;
            }
            let mut ja = Vec::new();
            let mut jb = Vec::new();
            for r in 0..roles {
                let la = original.legal_moves(&a, r);
                let lb = scrambled.legal_moves(&b, r);
                let renamed: BTreeSet<Term> =
                    la.iter().map(|&m| rename(&original.moves(r)[m as usize], names)).collect();
                let theirs: BTreeSet<Term> = lb.iter().map(|&m| scrambled.moves(r)[m as usize].clone()).collect();
                assert_eq!(renamed, theirs);
                let m = la[rng.random_range(0..la.len())];
                ja.push(m);
                jb.push(scrambled.move_index(r, &rename(&original.moves(r)[m as usize], names)).unwrap());
            }
            a = original.next_state(&a, &ja);
            b = scrambled.next_state(&b, &jb);
        }
    }
}

fn check(text: &str, name: &str, solve: bool) {
    let original = Machine::compile(&Game::parse(text).unwrap()).unwrap();
    for seed in 0..3 {
        let s = scramble(text, seed);
        let game = Game::parse(&s.text).unwrap_or_else(|e| panic!("{name} scrambled: {e}"));
        assert!(game.validate().is_valid(), "{name} scrambled with seed {seed}");
        let scrambled = Machine::compile(&game).unwrap();
        lockstep(&original, &scrambled, &s.names, 20, seed);
        if solve {
            let far = Instant::now() + Duration::from_secs(60);
            let (mut sa, mut sb) = (Solver::new(&original), Solver::new(&scrambled));
            let (ia, ib) = (original.initial_state(), scrambled.initial_state());
            assert_eq!(sa.solve(&ia, far), sb.solve(&ib, far), "{name}: solved values");
            let best_a: BTreeSet<Term> = sa
                .best_moves(&ia, 0, far)
                .unwrap()
                .iter()
                .map(|&m| rename(&original.moves(0)[m as usize], &s.names))
                .collect();
            let best_b: BTreeSet<Term> =
                sb.best_moves(&ib, 0, far).unwrap().iter().map(|&m| scrambled.moves(0)[m as usize].clone()).collect();
            assert_eq!(best_a, best_b, "{name}: best first moves");
        }
    }
}

#[test]
fn scrambled_nim_plays_and_solves_the_same() {
    let dir = gdl_or_skip!();
    for name in ["nim1", "nim2", "nim4"] {
        check(&common::read(&dir.join(format!("{name}.kif"))), name, true);
    }
    check(&common::read(&common::own_games_dir().join("nim5.kif")), "nim5", true);
}

#[test]
fn scrambled_board_games_play_the_same() {
    let dir = gdl_or_skip!();
    for name in ["ticTacToe", "connectFour", "sum15", "coins", "buttons"] {
        check(&common::read(&dir.join(format!("{name}.kif"))), name, name != "connectFour");
    }
    check(&common::read(&common::own_games_dir().join("bridges.kif")), "bridges", true);
}

#[test]
fn scrambling_renames_everything_but_keywords_and_goal_values() {
    let s = scramble("(role white) (<= (goal white 100) (true (cell 1 x))) (legal white noop)", 1);
    let toks = tokens(&s.text);
    assert!(!toks.iter().any(|t| ["white", "cell", "x", "noop", "1"].contains(&t.as_str())));
    assert!(toks.iter().any(|t| t == "100"));
    assert!(toks.iter().any(|t| t.eq_ignore_ascii_case("goal")));
}
