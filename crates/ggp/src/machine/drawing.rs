//! The evaluator's playouts that draw their moves
//! ([`DrawnMoves`](crate::drawn::DrawnMoves)): each state after the first derived
//! optimistically, a move of each role drawn from the superset of its legal moves
//! and checked by the oracle's answers for that move alone (see [`crate::drawn`]
//! for why that is exact and when a machine allows it).

use super::{Evaluator, legal_words_of};
use crate::reasoner::Chooser;

/// What a playout that draws its moves ([`DrawnMoves`](crate::drawn::DrawnMoves))
/// works with, by word of the input region: the inputs the current state asks
/// about, those answered for the moves drawn and their values; each role's superset
/// of legal moves (as [`Evaluator::legal_words`] gives them); buffers.
#[derive(Debug, Clone, Default)]
pub(super) struct Drawing {
    asked: Vec<u64>,
    answered: Vec<u64>,
    values: Vec<u64>,
    superset: Vec<Vec<(u64, i64)>>,
    /// Each role's move known legal, once one is.
    accepted: Vec<Option<u32>>,
    /// The moves drawn in the current round, one per role.
    pending: Vec<u32>,
    /// The inputs to answer in the current round.
    inputs: Vec<u32>,
    /// The inputs asked about, and those answered, in the current state.
    asked_list: Vec<u32>,
    answered_list: Vec<u32>,
    /// The moves offered to a role's chooser.
    offered: Vec<u32>,
}

/// How drawing a joint move in a state derived optimistically ended.
enum Draw {
    /// Each role's move drawn, and known legal.
    Joint,
    /// The state is terminal, or a role has no legal move.
    Over,
    /// Not decided (the lazy grounder declined, too many moves drawn were
    /// illegal, or terminality is not known): the state is to be derived in
    /// full.
    Unsure,
}

/// The most rounds of drawing in one state before it is derived in full. A
/// round after the first costs the drawn move's answers and its legal node
/// (chess: one atom, a few µs); deriving a chess state in full, about
/// sixteen answers and both programs. In check most of chess's superset is
/// illegal: 8 rounds left 1.4% of the states to be derived in full, 24
/// about 3% faster playouts (paired runs).
const MOST_DRAWS: usize = 24;

impl Drawing {
    /// Buffers for an input region of `words` words and `roles` roles.
    pub(super) fn new(words: usize, roles: usize) -> Drawing {
        Drawing {
            asked: vec![0; words],
            answered: vec![0; words],
            values: vec![0; words],
            superset: vec![Vec::new(); roles],
            ..Drawing::default()
        }
    }
}

impl Evaluator {
    /// [`Evaluator::playout_choosing`] where the machine's playouts draw their
    /// moves ([`DrawnMoves`](crate::drawn::DrawnMoves)): each state after the first
    /// derived optimistically, its joint move drawn and checked; a state where that
    /// is not decided is derived in full, its legal moves offered. The state the
    /// playout stops in is derived in full.
    pub(super) fn playout_drawing(
        &mut self,
        max_steps: usize,
        mut go_on: impl FnMut() -> bool,
        chooser: &mut impl Chooser,
    ) -> Option<usize> {
        let roles = self.m.0.roles.len();
        let mut steps = 0;
        let mut joint = std::mem::take(&mut self.joint);
        let mut exact = true;
        let finished = loop {
            if steps >= max_steps || (exact && self.is_terminal()) {
                break true;
            }
            if !go_on() {
                break false;
            }
            joint.clear();
            if !exact {
                match self.draw_joint(chooser, &mut joint) {
                    Draw::Joint => {}
                    Draw::Over => break true,
                    Draw::Unsure => {
                        joint.clear();
                        self.derive_state();
                        exact = true;
                        if self.is_terminal() {
                            break true;
                        }
                    }
                }
            }
            if exact {
                let mut offered = std::mem::take(&mut self.offered);
                for r in 0..roles {
                    self.legal_moves(r, &mut offered);
                    if offered.is_empty() {
                        break;
                    }
                    joint.push(chooser.choose(r, &offered, true));
                }
                self.offered = offered;
                if joint.len() < roles {
                    break true;
                }
            }
            chooser.played(&joint);
            self.enter_next(&joint);
            // The state the playout stops in is derived in full anyway (a
            // playout of one step, as the mobility evaluation plays them,
            // costs what it did).
            exact = steps + 1 >= max_steps;
            if exact {
                self.derive_state();
            } else {
                self.derive_optimistic();
            }
            steps += 1;
        };
        if !exact {
            self.derive_state();
        }
        self.joint = joint;
        finished.then_some(steps)
    }

    /// Derives the current state for drawing: the asks, then the legal
    /// moves and terminality with every asked state external optimistic
    /// (a superset of the legal moves, a lower bound of terminality).
    fn derive_optimistic(&mut self) {
        let (Some(drawn), Some(d)) = (&self.m.0.drawn, &mut self.draw) else {
            return self.derive_state();
        };
        let c = &self.m.0.circuit;
        c.ask.run(&mut self.bits);
        let (first, words) = drawn.region();
        // Only the words of the inputs asked or answered in the last state
        // are cleared (of hundreds in chess's input region).
        for &input in d.asked_list.iter().chain(&d.answered_list) {
            let (w, _) = drawn.place(input);
            (d.asked[w], d.answered[w], d.values[w]) = (0, 0, 0);
        }
        d.asked_list.clear();
        d.answered_list.clear();
        self.bits[first..first + words].iter_mut().for_each(|w| *w = 0);
        c.asks.each_asked(&self.bits, |input| {
            d.asked_list.push(input);
            true
        });
        for &input in &d.asked_list {
            let (w, mask) = drawn.place(input);
            d.asked[w] |= mask;
            self.bits[first + w] |= drawn.optimistic()[w] & mask;
        }
        c.legal.run(&mut self.bits);
    }

    /// Draws a joint move in the current state, derived optimistically
    /// ([`Evaluator::derive_optimistic`]), into `joint`: rounds of drawing a
    /// move of each role not yet known legal from its superset, answering
    /// the asked inputs of the drawn moves' cones, and running the legal
    /// moves with every other asked input pessimistic; a move outside that
    /// subset leaves the superset.
    fn draw_joint(&mut self, chooser: &mut impl Chooser, joint: &mut Vec<u32>) -> Draw {
        let c = &self.m.0.circuit;
        if self.bit(c.terminal_bit) {
            return Draw::Over;
        }
        let (Some(drawn), Some(d), Some(oracle)) = (&self.m.0.drawn, &mut self.draw, &mut self.oracle) else {
            return Draw::Unsure;
        };
        let roles = self.m.0.roles.len();
        let (first, _) = drawn.region();
        for r in 0..roles {
            let first_legal = c.legal_first[r];
            d.superset[r].clear();
            d.superset[r].extend(legal_words_of(&self.bits, first_legal, self.m.0.infos[r].len() as u32));
        }
        d.accepted.clear();
        d.accepted.resize(roles, None);
        for round in 0..MOST_DRAWS {
            d.inputs.clear();
            d.pending.clear();
            for r in 0..roles {
                if let Some(mv) = d.accepted[r] {
                    d.pending.push(mv);
                    continue;
                }
                d.offered.clear();
                for &(word, base) in &d.superset[r] {
                    let mut word = word;
                    while word != 0 {
                        d.offered.push((base + i64::from(word.trailing_zeros())) as u32);
                        word &= word - 1;
                    }
                }
                if d.offered.is_empty() {
                    return Draw::Over;
                }
                let mv = chooser.choose(r, &d.offered, round == 0);
                d.pending.push(mv);
                for &input in drawn.cone(r, mv) {
                    let (w, mask) = drawn.place(input);
                    if d.asked[w] & mask != 0 && d.answered[w] & mask == 0 {
                        d.answered[w] |= mask;
                        d.answered_list.push(input);
                        d.inputs.push(input);
                    }
                }
            }
            if !d.inputs.is_empty() && !oracle.answer_inputs(&self.bits, &d.inputs, &mut d.values) {
                return Draw::Unsure;
            }
            // Every answer the optimistic value: the legal bits already
            // computed are exact for the moves drawn (all of them legal).
            let optimistic = |input: u32| {
                let (w, mask) = drawn.place(input);
                (d.values[w] ^ drawn.optimistic()[w]) & mask == 0
            };
            if round == 0
                && d.answered_list.iter().all(|&input| optimistic(input))
                && drawn.terminal_known(&d.superset, &d.pending)
            {
                joint.extend_from_slice(&d.pending);
                return Draw::Joint;
            }
            // Each asked input its answer, or pessimistic (the others stay
            // clear).
            for &input in &d.asked_list {
                let (w, mask) = drawn.place(input);
                let pessimistic = drawn.state()[w] & !drawn.optimistic()[w];
                let source = if d.answered[w] & mask != 0 { d.values[w] } else { pessimistic };
                self.bits[first + w] = self.bits[first + w] & !mask | source & mask;
            }
            // Where terminality is known once the moves drawn are legal,
            // each move not yet known legal is checked alone, by its legal
            // node; else the program runs again.
            let alone = drawn.terminal_known(&d.superset, &d.pending)
                && (0..roles).all(|r| d.accepted[r].is_some() || drawn.legal_node(r, d.pending[r]).is_some());
            if !alone {
                c.legal.run(&mut self.bits);
            }
            let mut all = true;
            for r in 0..roles {
                let mv = d.pending[r];
                let legal = match (alone, d.accepted[r], drawn.legal_node(r, mv)) {
                    (true, Some(_), _) => true,
                    (true, None, Some(node)) => c.legal.value(node, &self.bits),
                    _ => {
                        let bit = self.m.0.infos[r][mv as usize].legal_bit;
                        self.bits[(bit / 64) as usize] & (1 << (bit % 64)) != 0
                    }
                };
                if legal {
                    d.accepted[r] = Some(mv);
                    continue;
                }
                all = false;
                let at = i64::from(mv);
                for (word, base) in &mut d.superset[r] {
                    if (*base..*base + 64).contains(&at) {
                        *word &= !(1 << (at - *base));
                    }
                }
            }
            if all {
                let terminal = c.terminal_bit;
                if !alone && drawn.terminal_reads() && self.bits[(terminal / 64) as usize] & (1 << (terminal % 64)) != 0
                {
                    return Draw::Unsure;
                }
                joint.extend_from_slice(&d.pending);
                return Draw::Joint;
            }
        }
        Draw::Unsure
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::hash::FastMap;
    use crate::machine::{Machine, Uniform};
    use rand::{Rng, SeedableRng};

    /// The game of the rule sheet at `path`.
    fn game(path: &str) -> Game {
        Game::parse(&std::fs::read_to_string(path).expect(path)).expect("the game parses")
    }

    /// The legal moves of each role in the evaluator's current state.
    fn legal_sets(e: &Evaluator) -> Vec<Vec<u32>> {
        let mut moves = Vec::new();
        (0..e.machine().roles().len())
            .map(|r| {
                e.legal_moves(r, &mut moves);
                moves.clone()
            })
            .collect()
    }

    /// How many moves of each role the evaluator's legal bits hold.
    fn legal_counts(e: &Evaluator) -> Vec<u32> {
        (0..e.machine().roles().len()).map(|r| e.legal_words(r).map(|(w, _)| w.count_ones()).sum()).collect()
    }

    /// Along random chess playouts, each state derived in full: every move's
    /// legal node ([`DrawnMoves::legal_node`](crate::drawn::DrawnMoves::legal_node)),
    /// evaluated alone, says what the legal-moves program says of the move;
    /// nearly every move has one.
    #[test]
    fn legal_nodes_alone_agree_with_the_program_in_chess() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games/chess.kif");
        let machine = Machine::compile_hybrid(&game(path)).expect("chess compiles");
        let drawn = machine.0.drawn.as_ref().expect("chess draws its playouts' moves");
        let mut e = Evaluator::new(&machine);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(23);
        let (mut compared, mut held, mut without) = (0usize, 0usize, 0usize);
        for _ in 0..4 {
            e.load(&machine.initial_state());
            for _ in 0..60 {
                if e.is_terminal() {
                    break;
                }
                for (r, infos) in machine.0.infos.iter().enumerate() {
                    for mv in 0..infos.len() as u32 {
                        let Some(node) = drawn.legal_node(r, mv) else {
                            without += 1;
                            continue;
                        };
                        let alone = machine.0.circuit.legal.value(node, &e.bits);
                        assert_eq!(alone, e.is_legal(r, mv), "role {r}, move {mv}");
                        compared += 1;
                        held += usize::from(alone);
                    }
                }
                let joint: Vec<u32> = (0..machine.roles().len())
                    .map(|r| e.random_legal_move(r, &mut rng).expect("a legal move"))
                    .collect();
                e.advance(&joint);
            }
        }
        assert!(held > 1000 && without * 100 < compared, "{compared} compared, {held} legal, {without} without a node");
    }

    /// In chess, playouts draw their moves
    /// ([`DrawnMoves`](crate::drawn::DrawnMoves)): along random playouts, every
    /// joint move drawn in a state (derived optimistically afresh for each draw) is
    /// legal there as the state derived in full says, a draw ends the playout only
    /// in a terminal state, and the optimistic superset held illegal moves in some
    /// states (so that rejecting them was tried). In the first state whose superset
    /// holds an illegal move, drawing 3,000 times plays every legal move about as
    /// often as every other.
    #[test]
    fn drawn_moves_are_legal_and_uniform_in_chess() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games/chess.kif");
        let machine = Machine::compile_hybrid(&game(path)).expect("chess compiles");
        assert!(machine.0.drawn.is_some(), "chess draws its playouts' moves");
        let mut e = Evaluator::new(&machine);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(17);
        let (mut drawn, mut wider, mut uniform_checked) = (0, 0, false);
        for _ in 0..3 {
            e.load(&machine.initial_state());
            for _ in 0..70 {
                let (legal, terminal, state) = (legal_sets(&e), e.is_terminal(), e.state());
                e.derive_optimistic();
                let superset = legal_counts(&e);
                let illegal_in_superset = superset.iter().zip(&legal).any(|(&n, l)| n as usize > l.len());
                wider += usize::from(illegal_in_superset);
                let draws = if illegal_in_superset && !uniform_checked { 3000 } else { 4 };
                let mut counts: Vec<FastMap<u32, u32>> = vec![FastMap::default(); legal.len()];
                for _ in 0..draws {
                    e.derive_optimistic();
                    let mut joint = Vec::new();
                    match e.draw_joint(&mut Uniform(&mut rng), &mut joint) {
                        Draw::Joint => {
                            assert!(!terminal, "a joint move drawn in a terminal state");
                            for (r, mv) in joint.iter().enumerate() {
                                assert!(legal[r].contains(mv), "role {r}: move {mv} drawn, legal {:?}", legal[r]);
                                *counts[r].entry(*mv).or_default() += 1;
                            }
                            drawn += 1;
                        }
                        Draw::Over => assert!(terminal || legal.iter().any(Vec::is_empty), "the drawing ended a game"),
                        Draw::Unsure => {}
                    }
                }
                if draws > 4 {
                    uniform_checked = true;
                    for (r, moves) in legal.iter().enumerate() {
                        let total: u32 = counts[r].values().sum();
                        let expected = f64::from(total) / moves.len() as f64;
                        for mv in moves {
                            let n = f64::from(counts[r].get(mv).copied().unwrap_or(0));
                            // Five standard deviations of a binomial count.
                            let spread = 5.0 * (expected * (1.0 - 1.0 / moves.len() as f64)).sqrt();
                            assert!(
                                (n - expected).abs() <= spread + 1.0,
                                "role {r}: move {mv} drawn {n} times, {expected:.0} expected"
                            );
                        }
                    }
                }
                e.load(&state);
                if terminal || legal.iter().any(Vec::is_empty) {
                    break;
                }
                let joint: Vec<u32> = legal.iter().map(|l| l[rng.random_range(0..l.len())]).collect();
                e.advance(&joint);
            }
        }
        assert!(drawn > 400, "{drawn} joint moves drawn");
        assert!(wider > 0 && uniform_checked, "no state's superset held an illegal move");
    }

    /// A playout that draws its moves stops in a state derived in full: its
    /// legal moves and terminality are those a fresh evaluator loaded with
    /// that state finds.
    #[test]
    fn a_drawing_playout_stops_in_a_state_derived_in_full() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games/chess.kif");
        let machine = Machine::compile_hybrid(&game(path)).expect("chess compiles");
        let mut e = Evaluator::new(&machine);
        let mut fresh = Evaluator::new(&machine);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        for steps in [1, 7, 30, 400] {
            e.load(&machine.initial_state());
            e.playout(&mut rng, steps);
            fresh.load(&e.state());
            assert_eq!(legal_sets(&e), legal_sets(&fresh), "after a playout of at most {steps} steps");
            assert_eq!(e.is_terminal(), fresh.is_terminal());
        }
    }

    /// Chess's terminality reads its externals only through "the player has
    /// a legal move", one such atom per role; sudoku's terminality (the
    /// solved grid, left to the oracle) would gain from optimism, so its
    /// playouts do not draw.
    #[test]
    fn drawing_follows_what_terminality_reads() {
        let dir = env!("CARGO_MANIFEST_DIR");
        let chess = Machine::compile_hybrid(&game(&format!("{dir}/tests/games/chess.kif"))).expect("chess");
        let drawn = chess.0.drawn.as_ref().expect("chess draws");
        assert!(drawn.terminal_reads());
        let no_moves: Vec<Vec<(u64, i64)>> = vec![vec![(0, 0)]; 2];
        assert!(drawn.terminal_known(&no_moves, &[0, 0]), "no legal move in the superset: terminality is known");
        // White's moves: noop (not a move the "has a legal move" atom reads)
        // and a piece's move (one it reads).
        let white = &chess.0.moves[0];
        let noop = white.iter().position(|m| m.to_string() == "noop").expect("noop") as u32;
        let pawn = white.iter().position(|m| m.to_string() == "(move wp e 2 e 4)").expect("e2-e4") as u32;
        let superset = |mv: u32| vec![vec![(1u64 << (mv % 64), i64::from(mv - mv % 64))], vec![(0, 0)]];
        assert!(drawn.terminal_known(&superset(pawn), &[pawn, 0]), "white has a legal move: not stuck");
        assert!(!drawn.terminal_known(&superset(pawn), &[noop, 0]), "noop says nothing of white's moves");
        let sudoku = Machine::compile_hybrid(&game(&format!("{dir}/tests/games/sudoku.kif"))).expect("sudoku");
        assert!(sudoku.is_hybrid() && sudoku.0.drawn.is_none());
    }
}
