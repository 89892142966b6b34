//! Moves drawn, then checked: random playouts of a hybrid network that ask
//! the oracle only about the moves they play.
//!
//! To list chess's legal moves, a state asks the oracle ([`crate::hybrid`])
//! whether the king is left threatened once each piece that can move has
//! left its square: about sixteen atoms, each a few enumerations of the
//! opponent's pieces, two thirds of a playout's time. A random playout then
//! plays one move. Where the rules allow it, a playout instead
//!
//! 1. runs the legal-moves program with every external atom the state asks
//!    about set *optimistic* — the value under which the literals that read
//!    it hold: a superset of the legal moves;
//! 2. draws a move of each role from that superset, and asks the oracle only
//!    about the externals that the drawn move's rules read (its *cone*) and
//!    the state asks about;
//! 3. unless every answer is the optimistic value, sets every other asked
//!    external *pessimistic* and evaluates each drawn move's legal node
//!    alone (its other literals do not depend on the externals), exact for
//!    that move — or, where terminality is not known from the moves found
//!    legal ([`DrawnMoves::terminal_known`]), runs the whole program again:
//!    a subset of the legal moves, exact for each drawn move, and an upper
//!    bound of terminality. A drawn move found illegal leaves the superset,
//!    and another is drawn.
//!
//! Drawing uniformly from a superset and rejecting what falls outside the
//! set draws uniformly from the set: each legal move is as likely as when
//! every legal move was listed.
//!
//! That holds when the rules read each state external with one sign only
//! (so "optimistic" has a meaning), when every legal atom can only gain from
//! optimism (a superset, then a subset), when no next-state atom depends on a
//! state external at all, and when terminality can only lose from optimism
//! (chess: "no legal move" is terminal). Then terminality with every asked
//! external optimistic is a lower bound of the truth, and once the drawn
//! moves are answered, with the rest pessimistic, an upper bound: when
//! both say "not terminal", it is not; when the first says "terminal", it
//! is. In between the state is derived in full. [`DrawnMoves::new_within`]
//! checks these conditions on the ground rules, by the sign of each atom's
//! dependence on the externals (a fixpoint over the rules: a negative literal
//! flips it), and builds nothing where one fails.

use std::collections::HashSet;

use crate::circuit::{Circuit, MoveInfo};
use crate::code::Step;
use crate::datalog::PeriodicCheck;
use crate::ground::Grounding;
use crate::hash::FastMap;
use crate::limits::OutOfLimits;
use crate::store::{Node, TermId};
use crate::symbol::kw;

/// The atom can only become true, never false, as externals turn
/// optimistic.
const RAISED: u8 = 1;

/// The atom can only become false as externals turn optimistic.
const LOWERED: u8 = 2;

/// The dependence of a literal's negation on the externals.
fn flipped(sign: u8) -> u8 {
    (sign & RAISED) << 1 | (sign & LOWERED) >> 1
}

/// The most external atoms the rules of one move may read: past that, the
/// answers a drawn move needs are too many for drawing to pay.
const MOST_CONE: usize = 1024;

/// How a hybrid network's random playouts draw moves before the oracle
/// answers for them (see the module documentation).
#[derive(Debug, Clone)]
pub(crate) struct DrawnMoves {
    /// The input region's first word.
    first_word: u32,
    /// By word of the input region: the externals the state decides (not
    /// those that read the joint move).
    state: Vec<u64>,
    /// By word of the input region: the optimistic value of each state
    /// external (set where the rules read it positively).
    optimistic: Vec<u64>,
    /// The input bits of the externals each move's rules read.
    cones: Cones,
    /// Whether terminality depends on some state external (then only
    /// lowered by optimism).
    terminal_reads: bool,
    /// Whether it does only through atoms that say a role has some legal
    /// move ([`DrawnMoves::has_moves`]): then it is known once each of
    /// those is.
    terminal_by_moves: bool,
    /// The atoms every rule of which is one legal literal of one role
    /// ("the player has a legal move"), as that role and the moves whose
    /// legal atoms they read, by move number (bit `i % 64` of word `i / 64`).
    has_moves: Vec<(usize, Vec<u64>)>,
    /// For each role, by move number: the node of the legal-moves program
    /// that computes the move's legal bit, evaluated alone to check a drawn
    /// move ([`DrawnMoves::legal_node`]); [`NO_NODE`] where none does
    /// outside a fixpoint.
    legal_nodes: Vec<Vec<u32>>,
}

/// No node, in [`DrawnMoves::legal_nodes`].
const NO_NODE: u32 = u32::MAX;

impl DrawnMoves {
    /// The drawing of the hybrid network `circuit` of the grounding `g`
    /// (its ground rules, asks added), `moves` each role's moves,
    /// `move_inputs` the input bits of the
    /// externals that read the joint move; `None` where the rules do not
    /// allow it (see the module documentation) or no state external is
    /// asked about. A step of `check` per rule looked at.
    ///
    /// # Errors
    ///
    /// Why `check`'s limits stopped it.
    pub(crate) fn new_within(
        g: &Grounding,
        circuit: &Circuit,
        moves: &[Vec<MoveInfo>],
        move_inputs: &[u32],
        check: &mut PeriodicCheck,
    ) -> Result<Option<DrawnMoves>, OutOfLimits> {
        let (first_word, words) = circuit.input_words;
        if words == 0 || circuit.asks.is_empty() {
            return Ok(None);
        }
        let moving: HashSet<u32> = move_inputs.iter().copied().collect();
        let externals: FastMap<TermId, u32> =
            circuit.inputs.iter().copied().filter(|(_, bit)| !moving.contains(bit)).collect();
        if externals.is_empty() {
            return Ok(None);
        }
        // The signs each external is read with.
        let mut read: FastMap<TermId, u8> = FastMap::default();
        for rule in g.rules.iter() {
            check.step()?;
            for &(atom, positive) in rule.body {
                if externals.contains_key(&atom) {
                    *read.entry(atom).or_default() |= if positive { RAISED } else { LOWERED };
                }
            }
        }
        if read.values().any(|&signs| signs == RAISED | LOWERED) {
            return Ok(None);
        }
        let Some(sign) = dependence(g, &read, &HashSet::new(), check)? else { return Ok(None) };
        let sign_of = |atom: TermId| sign.get(atom.0 as usize).copied().unwrap_or(0);
        let terminal = g.store.find(&Node::Sym(kw::TERMINAL));
        for rule in g.rules.iter() {
            check.step()?;
            let s = sign_of(rule.head);
            let allowed = match g.store.node(rule.head) {
                _ if s == 0 => true,
                Node::App(kw::LEGAL, _) => s == RAISED,
                Node::App(kw::NEXT, _) => false,
                _ if Some(rule.head) == terminal => s == LOWERED,
                _ => true,
            };
            if !allowed {
                return Ok(None);
            }
        }
        let Some(cones) = Cones::new(g, moves, &externals, &sign_of, check)? else { return Ok(None) };
        let region = |bit: u32| {
            let at = bit - first_word * 64;
            ((at / 64) as usize, 1u64 << (at % 64))
        };
        let mut state = vec![0u64; words as usize];
        let mut optimistic = vec![0u64; words as usize];
        for (&atom, &bit) in &externals {
            let (word, mask) = region(bit);
            state[word] |= mask;
            if read.get(&atom) == Some(&RAISED) {
                optimistic[word] |= mask;
            }
        }
        let terminal_reads = terminal.is_some_and(|t| sign_of(t) != 0);
        let has_moves = has_move_atoms(g, moves, check)?;
        let terminal_by_moves = match terminal {
            Some(t) if terminal_reads => {
                let pinned: HashSet<TermId> = has_moves.keys().copied().collect();
                dependence(g, &read, &pinned, check)?.is_some_and(|cut| cut[t.0 as usize] == 0)
            }
            _ => false,
        };
        let has_moves = has_moves.into_values().collect();
        let legal_nodes = legal_nodes(circuit, moves);
        Ok(Some(DrawnMoves {
            first_word,
            state,
            optimistic,
            cones,
            terminal_reads,
            terminal_by_moves,
            has_moves,
            legal_nodes,
        }))
    }

    /// The input bits of the externals the rules of move `mv` of `role` read.
    pub(crate) fn cone(&self, role: usize, mv: u32) -> &[u32] {
        let starts = &self.cones.starts[role];
        &self.cones.bits[starts[mv as usize] as usize..starts[mv as usize + 1] as usize]
    }

    /// The node of the legal-moves program ([`Circuit::legal`]) that
    /// computes the legal bit of move `mv` of `role`, if one does outside a
    /// fixpoint. Its cone's inputs answered, it says whether the move is
    /// legal, read alone: a legal rule reads no derived atom that depends
    /// on an external ([`Cones`]), so every other atom it reads is the same
    /// whatever the externals.
    pub(crate) fn legal_node(&self, role: usize, mv: u32) -> Option<u32> {
        self.legal_nodes[role].get(mv as usize).copied().filter(|&node| node != NO_NODE)
    }

    /// The word of the input region (from its first) and the mask of the
    /// input bit `input`.
    pub(crate) fn place(&self, input: u32) -> (usize, u64) {
        let at = input - self.first_word * 64;
        ((at / 64) as usize, 1u64 << (at % 64))
    }

    /// The input region's first word and number of words.
    pub(crate) fn region(&self) -> (usize, usize) {
        (self.first_word as usize, self.state.len())
    }

    /// By word of the input region: the state externals.
    pub(crate) fn state(&self) -> &[u64] {
        &self.state
    }

    /// By word of the input region: the optimistic values of the state
    /// externals.
    pub(crate) fn optimistic(&self) -> &[u64] {
        &self.optimistic
    }

    /// Whether terminality depends on some state external.
    pub(crate) fn terminal_reads(&self) -> bool {
        self.terminal_reads
    }

    /// Whether terminality, with every asked state external optimistic, is
    /// known to be the truth once each role `r` has the move `found[r]`
    /// known legal, the superset of its legal moves being `superset[r]` (as
    /// [`crate::machine::Evaluator`]'s legal words: masked words, each with
    /// the move number of its bit 0): terminality reads the externals only
    /// through atoms that say a role has a legal move, and each of those is
    /// false in the superset already, or reads the role's move found.
    pub(crate) fn terminal_known(&self, superset: &[Vec<(u64, i64)>], found: &[u32]) -> bool {
        if !self.terminal_reads {
            return true;
        }
        if !self.terminal_by_moves {
            return false;
        }
        self.has_moves.iter().all(|(role, members)| {
            let member = |mv: i64| members.get((mv / 64) as usize).is_some_and(|w| w >> (mv % 64) & 1 == 1);
            let none_in_superset = superset[*role].iter().all(|&(word, base)| {
                let mut word = word;
                while word != 0 {
                    if member(base + i64::from(word.trailing_zeros())) {
                        return false;
                    }
                    word &= word - 1;
                }
                true
            });
            none_in_superset || member(i64::from(found[*role]))
        })
    }
}

/// The sign of each atom's dependence on the externals (by term id,
/// [`RAISED`] and [`LOWERED`] bits; none for the atoms `pinned`), each
/// external `read` with the signs given (the atom is raised by optimism when read positively, lowered when
/// read negatively, so that every literal reading it is raised): a fixpoint
/// over the ground rules of `g`. `None` past as many passes over the rules
/// as there are sign bits to gain per atom allows (it cannot be, but a bound
/// keeps the loop finite).
///
/// # Errors
///
/// Why `check`'s limits stopped it.
fn dependence(
    g: &Grounding,
    read: &FastMap<TermId, u8>,
    pinned: &HashSet<TermId>,
    check: &mut PeriodicCheck,
) -> Result<Option<Vec<u8>>, OutOfLimits> {
    let mut sign = vec![0u8; g.store.len()];
    for (&atom, &signs) in read {
        sign[atom.0 as usize] = if signs == RAISED { RAISED } else { LOWERED };
    }
    let most_passes = 2 * g.rules.len() + 2;
    for _ in 0..most_passes {
        let mut changed = false;
        for rule in g.rules.iter() {
            check.step()?;
            let mut gained = 0;
            for &(atom, positive) in rule.body {
                let s = sign[atom.0 as usize];
                if s != 0 {
                    gained |= if positive { s } else { flipped(s) };
                }
            }
            let head = &mut sign[rule.head.0 as usize];
            if gained & !*head != 0 && !pinned.contains(&rule.head) {
                *head |= gained;
                changed = true;
            }
        }
        if !changed {
            return Ok(Some(sign));
        }
    }
    Ok(None)
}

/// For each role, by move number, the node of `circuit`'s legal-moves
/// program that writes the move's legal bit ([`NO_NODE`] where none does,
/// or only within a fixpoint).
fn legal_nodes(circuit: &Circuit, moves: &[Vec<MoveInfo>]) -> Vec<Vec<u32>> {
    let code = &circuit.legal;
    let mut node_of_bit: FastMap<u32, u32> = FastMap::default();
    let mut add = |i: u32| {
        let node = &code.nodes[i as usize];
        node_of_bit.insert(node.word * 64 + node.mask.trailing_zeros(), i);
    };
    for step in &code.steps {
        match *step {
            Step::Node(i) => add(i),
            Step::Guarded { first, end, .. } => (first..end).for_each(&mut add),
            Step::Fixpoint { .. } => {}
        }
    }
    moves
        .iter()
        .map(|infos| infos.iter().map(|info| node_of_bit.get(&info.legal_bit).copied().unwrap_or(NO_NODE)).collect())
        .collect()
}

/// Each move's *cone*: the input bits of the externals its legal rules
/// read.
#[derive(Debug, Clone)]
struct Cones {
    /// For each role, where the cone of each move starts in
    /// [`Cones::bits`], then where the last one ends (move `i`'s is from
    /// the `i`-th to the next).
    starts: Vec<Vec<u32>>,
    /// The cones one after another.
    bits: Vec<u32>,
}

impl Cones {
    /// The cones of the moves `moves` of each role, the state externals
    /// `externals` (atom and input bit), by the ground rules of `g`; `None`
    /// where a legal rule reads a derived atom that depends on an external
    /// (`sign_of` it not 0: the cone would have to follow it) or a cone is
    /// larger than [`MOST_CONE`].
    ///
    /// # Errors
    ///
    /// Why `check`'s limits stopped it.
    fn new(
        g: &Grounding,
        moves: &[Vec<MoveInfo>],
        externals: &FastMap<TermId, u32>,
        sign_of: &dyn Fn(TermId) -> u8,
        check: &mut PeriodicCheck,
    ) -> Result<Option<Cones>, OutOfLimits> {
        let move_of = legal_atoms(g, moves, check)?;
        let mut by_move: Vec<Vec<Vec<u32>>> = moves.iter().map(|infos| vec![Vec::new(); infos.len()]).collect();
        for rule in g.rules.iter() {
            check.step()?;
            let Some(&(r, i)) = move_of.get(&rule.head) else { continue };
            for &(atom, _) in rule.body {
                match externals.get(&atom) {
                    Some(&bit) => by_move[r][i].push(bit),
                    None if sign_of(atom) != 0 => return Ok(None),
                    None => {}
                }
            }
        }
        let (mut starts, mut cone) = (Vec::with_capacity(by_move.len()), Vec::new());
        let at = |cone: &Vec<u32>| u32::try_from(cone.len()).expect("fewer than 2^32 cone bits");
        for role in by_move {
            let mut role_starts = Vec::with_capacity(role.len() + 1);
            for mut bits in role {
                role_starts.push(at(&cone));
                check.step()?;
                bits.sort_unstable();
                bits.dedup();
                if bits.len() > MOST_CONE {
                    return Ok(None);
                }
                cone.extend_from_slice(&bits);
            }
            role_starts.push(at(&cone));
            starts.push(role_starts);
        }
        Ok(Some(Cones { starts, bits: cone }))
    }
}

/// The atoms every rule of which is one positive legal literal of one role
/// of `g` (chess's `(has_legal_move white)`), each with that role and the
/// moves (of `moves`, by number) whose legal atoms its rules read, as bits.
///
/// # Errors
///
/// Why `check`'s limits stopped it.
fn has_move_atoms(
    g: &Grounding,
    moves: &[Vec<MoveInfo>],
    check: &mut PeriodicCheck,
) -> Result<FastMap<TermId, (usize, Vec<u64>)>, OutOfLimits> {
    let move_of = legal_atoms(g, moves, check)?;
    let mut found: FastMap<TermId, (usize, Vec<u64>)> = FastMap::default();
    let mut other: HashSet<TermId> = HashSet::new();
    for rule in g.rules.iter() {
        check.step()?;
        let read = match rule.body {
            &[(atom, true)] => move_of.get(&atom).copied(),
            _ => None,
        };
        let Some((r, i)) = read else {
            other.insert(rule.head);
            continue;
        };
        let (role, members) = found.entry(rule.head).or_insert_with(|| (r, vec![0; moves[r].len().div_ceil(64)]));
        if *role != r {
            other.insert(rule.head);
        }
        members[i / 64] |= 1 << (i % 64);
    }
    found.retain(|atom, _| !other.contains(atom));
    Ok(found)
}

/// The legal atom of each move of `moves` (of each role of `g`, by number)
/// that the rules of `g` can derive, with its role and move number.
///
/// # Errors
///
/// Why `check`'s limits stopped it.
fn legal_atoms(
    g: &Grounding,
    moves: &[Vec<MoveInfo>],
    check: &mut PeriodicCheck,
) -> Result<FastMap<TermId, (usize, usize)>, OutOfLimits> {
    let mut move_of = FastMap::default();
    for (r, infos) in moves.iter().enumerate() {
        for (i, info) in infos.iter().enumerate() {
            check.step()?;
            if let Some(atom) = g.store.find(&Node::App(kw::LEGAL, &[g.roles[r], info.term])) {
                move_of.insert(atom, (r, i));
            }
        }
    }
    Ok(move_of)
}
