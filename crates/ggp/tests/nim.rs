//! Perfect play in Nim, checked against bouton's own Nim analysis (Bouton's
//! theorem, normal and misère) as an independent oracle: Stanford's nim1–nim4
//! (nim4 is misère) and a five-heap Nim of our own with different names and
//! a different move encoding. The player reads only the rules; the oracle
//! reads the heap sizes out of the states by name.

mod common;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use bouton_analysis::{Analysis, Winner};
use bouton_ggp::{Machine, Solver, State, Strategy, Term, Thinker};
use bouton_rules::Convention;
use common::t;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// How a Nim encoding names things.
struct Encoding {
    /// The fact holding a heap: (name, pile, size).
    heap: &'static str,
    piles: &'static [&'static str],
    /// Spelling of sizes (None: decimal numerals).
    numbers: Option<&'static [&'static str]>,
    convention: Convention,
    /// The move leaving pile `i` at `size` when it held `before`.
    spell: fn(&Encoding, usize, u64, u64) -> Term,
}

const WORDS: [&str; 8] = ["zero", "one", "two", "three", "four", "five", "six", "seven"];

fn number(e: &Encoding, n: u64) -> String {
    match e.numbers {
        Some(words) => words[n as usize].to_string(),
        None => n.to_string(),
    }
}

fn stanford_move(e: &Encoding, pile: usize, size: u64, _before: u64) -> Term {
    t(&format!("(reduce {} {})", e.piles[pile], number(e, size)))
}

fn own_move(e: &Encoding, pile: usize, size: u64, before: u64) -> Term {
    t(&format!("(remove {} {})", e.piles[pile], number(e, before - size)))
}

fn stanford(convention: Convention) -> Encoding {
    Encoding { heap: "heap", piles: &["a", "b", "c", "d"], numbers: None, convention, spell: stanford_move }
}

fn own() -> Encoding {
    Encoding {
        heap: "pile",
        piles: &["p1", "p2", "p3", "p4", "p5"],
        numbers: Some(&WORDS),
        convention: Convention::Normal,
        spell: own_move,
    }
}

fn heaps(machine: &Machine, state: &State, e: &Encoding) -> Vec<u64> {
    let mut heaps = vec![0; e.piles.len()];
    for fact in machine.facts(state) {
        if fact.name().eq_ignore_ascii_case(e.heap) {
            let pile = e.piles.iter().position(|p| fact.args()[0].name().eq_ignore_ascii_case(p)).unwrap();
            let size = fact.args()[1].name();
            heaps[pile] = match e.numbers {
                Some(words) => words.iter().position(|w| w.eq_ignore_ascii_case(size)).unwrap() as u64,
                None => size.parse().unwrap(),
            };
        }
    }
    heaps
}

/// The role whose turn it is: the one with more than one move, or the only
/// one whose single move is not the pass.
fn mover(machine: &Machine, state: &State) -> usize {
    (0..machine.roles().len())
        .find(|&r| {
            let legal = machine.legal_moves(state, r);
            legal.len() > 1
                || legal.iter().any(|&m| !["noop", "pass"].contains(&machine.moves(r)[m as usize].to_string().as_str()))
        })
        .expect("someone moves")
}

/// The moves the oracle says win, spelled in the game's encoding.
fn oracle_winning_moves(h: &[u64], e: &Encoding) -> BTreeSet<Term> {
    let analysis = Analysis::new(h, e.convention);
    analysis
        .winning_moves(h)
        .map(|mv| {
            let pile = mv.heap;
            (e.spell)(e, pile, h[pile] - mv.take, h[pile])
        })
        .collect()
}

fn check_game(path: &std::path::Path, e: &Encoding, games: usize, seed: u64) {
    let machine = common::machine(path);
    let far = || Instant::now() + Duration::from_secs(30);
    let mut solver = Solver::new(&machine);
    let mut thinkers: Vec<Thinker> =
        (0..2).map(|r| Thinker::new(&machine, r, Strategy::Best, seed + r as u64)).collect();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut checked = 0;
    for game in 0..games {
        // The thinker plays one side, a random player the other, so that
        // play reaches many different positions.
        let perfect_side = game % 2;
        let mut state = machine.initial_state();
        while !machine.is_terminal(&state) {
            let r = mover(&machine, &state);
            let h = heaps(&machine, &state, e);
            let winning = oracle_winning_moves(&h, e);
            let expected_winner = Analysis::new(&h, e.convention).winner();
            // The solver's value and its set of best moves match the oracle.
            let value = solver.solve(&state, far()).unwrap();
            assert_eq!(value[r] == 100, expected_winner == Winner::Mover, "{}: value of {h:?}", path.display());
            let best: BTreeSet<Term> = solver
                .best_moves(&state, r, far())
                .unwrap()
                .iter()
                .map(|&m| machine.moves(r)[m as usize].clone())
                .collect();
            if expected_winner == Winner::Mover {
                assert_eq!(best, winning, "{}: winning moves from {h:?}", path.display());
            } else {
                assert_eq!(
                    best.len(),
                    machine.legal_moves(&state, r).len(),
                    "{}: from {h:?} every move loses",
                    path.display()
                );
            }
            let mut joint: Vec<u32> = (0..2).map(|q| machine.legal_moves(&state, q)[0]).collect();
            let legal = machine.legal_moves(&state, r);
            joint[r] = if r == perfect_side {
                let mv = thinkers[r].choose(&state, far());
                assert!(legal.contains(&mv));
                if expected_winner == Winner::Mover {
                    assert!(
                        winning.contains(&machine.moves(r)[mv as usize]),
                        "{}: the player must win from {h:?}",
                        path.display()
                    );
                }
                checked += 1;
                mv
            } else {
                legal[rng.random_range(0..legal.len())]
            };
            state = machine.next_state(&state, &joint);
        }
    }
    assert!(checked > 0);
}

#[test]
fn stanford_nim_is_played_perfectly() {
    let dir = gdl_or_skip!();
    check_game(&dir.join("nim1.kif"), &stanford(Convention::Normal), 20, 1);
    check_game(&dir.join("nim2.kif"), &stanford(Convention::Normal), 12, 2);
    check_game(&dir.join("nim3.kif"), &stanford(Convention::Normal), 6, 3);
    check_game(&dir.join("nim4.kif"), &stanford(Convention::Misere), 6, 4);
}

#[test]
fn our_five_heap_nim_is_played_perfectly() {
    check_game(&common::own_games_dir().join("nim5.kif"), &own(), 20, 5);
}

#[test]
fn simultaneous_moves_are_not_solved_but_searched() {
    let machine = common::machine(&common::own_games_dir().join("roshambo.kif"));
    let mut solver = Solver::new(&machine);
    let far = Instant::now() + Duration::from_secs(10);
    assert_eq!(solver.solve(&machine.initial_state(), far), Err(bouton_ggp::SolveError::Simultaneous));
    let mut thinker = Thinker::new(&machine, 0, Strategy::Best, 9);
    let start = machine.initial_state();
    let mv = thinker.choose(&start, Instant::now() + Duration::from_millis(200));
    assert!(machine.legal_moves(&start, 0).contains(&mv));
}

/// Three players in turn take one or two of seven coins; whoever takes the
/// last wins. Whatever one role does, the other two together can keep it
/// from taking the last coin (from 3 coins, say, the mover leaves 1 or 2 and
/// the next takes them), so no role can guarantee a win alone: each can
/// count on 0. Max-n values gave one role 100, by assuming that each mover
/// takes its own best: a win that hung on the others' choices.
#[test]
fn three_players_are_solved_to_what_each_can_guarantee() {
    let machine = common::machine(&common::own_games_dir().join("trio.kif"));
    let mut solver = Solver::new(&machine);
    let value = solver.solve(&machine.initial_state(), Instant::now() + Duration::from_secs(10)).unwrap();
    assert_eq!(value, [0, 0, 0]);
}

#[test]
fn monte_carlo_search_clearly_beats_random_play_at_connect_four() {
    let dir = gdl_or_skip!();
    let machine = common::machine(&dir.join("connectFour.kif"));
    let mut rng = SmallRng::seed_from_u64(12);
    let mut wins = 0;
    let games = 6;
    for game in 0..games {
        let side = game % 2;
        let mut thinker = Thinker::new(&machine, side, Strategy::Mcts, game as u64);
        let mut state = machine.initial_state();
        while !machine.is_terminal(&state) {
            let joint: Vec<u32> = (0..2)
                .map(|r| {
                    let legal = machine.legal_moves(&state, r);
                    if r == side && legal.len() > 1 {
                        thinker.choose(&state, Instant::now() + Duration::from_millis(25))
                    } else {
                        legal[rng.random_range(0..legal.len())]
                    }
                })
                .collect();
            state = machine.next_state(&state, &joint);
        }
        if machine.goals(&state)[side] == Some(100) {
            wins += 1;
        }
    }
    assert!(wins >= games - 1, "search won {wins} of {games} games against random play");
}
