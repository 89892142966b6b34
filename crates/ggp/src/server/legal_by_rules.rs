//! Moves the rules alone prove legal, for the player's last resort: when
//! neither a compiled machine nor the prover has answered yet (a game still
//! compiling on a loaded machine), a move found here is legal for certain,
//! where a constant guess such as `noop` is illegal in most games.
//!
//! A small backtracking resolution over the rules, within a budget of steps
//! and a bound on the depth of derivations, looks for proofs of
//! `(legal ROLE ?move)`:
//!
//! - [`Where::Everywhere`]: proofs that use no `true` and no `does`, so that
//!   they hold in every state (`(<= (legal ?p (guess ?n)) (role ?p) (number
//!   ?n))`, or a bare `(legal r noop)`);
//! - [`Where::Initially`]: proofs in the initial state, where `(true f)`
//!   holds exactly when `(init f)` does.
//!
//! Every proof found is a proof: a search cut short (out of budget, too
//! deep, a `true` or `does` it cannot decide, a negation or `distinct` of
//! terms not yet ground) only finds fewer moves, never a wrong one. A
//! negation holds only when the search for its literal failed without being
//! cut anywhere (it then explored every derivation).

use std::collections::HashMap;

use crate::game::{Ast, Game, Literal};
use crate::symbol::{Sym, kw};
use crate::term::Term;

/// Where the moves found must be legal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Where {
    /// In every state of the game.
    Everywhere,
    /// In the initial state.
    Initially,
}

/// Most resolution steps of one search: a few milliseconds.
const STEPS: usize = 200_000;
/// Deepest derivation explored (recursive rules end there).
const DEPTH: usize = 40;
/// Most moves collected.
const MOST_MOVES: usize = 64;

/// The moves of `role` that the rules of `game` prove legal `at`, sorted;
/// none if the search finds no proof within its budget (or the role is not
/// a constant of the game).
pub(super) fn legal_by_rules(game: &Game, role: &Term, at: Where) -> Vec<Term> {
    let Term::Symbol(role_name) = role else { return Vec::new() };
    let Some(role) = role_symbol(game, role_name) else { return Vec::new() };
    let program = Program::new(game);
    // (legal ROLE ?move), the move as variable 0 of the query.
    let query = Lit::Pos(Node::App(kw::LEGAL, vec![Node::Const(role), Node::Var(0)]));
    let mut search = Search { program: &program, at, bindings: vec![None], trail: Vec::new(), steps: 0, cut: false };
    let mut moves: Vec<Term> = Vec::new();
    let goals = [Goal { lit: &query, base: 0, depth: 0 }];
    search.solve(&goals, &mut |search| {
        if let Some(mv) = search.term(&Node::Var(0), 0, game)
            && !moves.contains(&mv)
        {
            moves.push(mv);
        }
        moves.len() >= MOST_MOVES
    });
    moves.sort();
    moves
}

/// The symbol of the role spelled `name` (in any letter case), if the rules
/// declare it.
fn role_symbol(game: &Game, name: &str) -> Option<Sym> {
    game.rules.iter().find_map(|rule| match &rule.head {
        Ast::App(kw::ROLE, args) if rule.body.is_empty() => match args.as_slice() {
            [Ast::Sym(s)] if game.symbols.name(*s).eq_ignore_ascii_case(name) => Some(*s),
            _ => None,
        },
        _ => None,
    })
}

/// A term of a rule, its variables numbered from 0 within the rule.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    /// A constant.
    Const(Sym),
    /// The rule's variable number n.
    Var(usize),
    /// A function or relation applied to terms.
    App(Sym, Vec<Node>),
}

/// A body literal over [`Node`]s.
#[derive(Debug, Clone)]
enum Lit {
    /// A sentence that must hold.
    Pos(Node),
    /// A literal that must not hold.
    Not(Box<Lit>),
    /// Two terms that must differ.
    Distinct(Node, Node),
    /// One of these literals must hold.
    Or(Vec<Lit>),
}

/// A rule over [`Node`]s: its head, its body (literals that bind variables
/// first, then the tests: `distinct` and negations) and how many variables
/// it has.
struct Clause {
    head: Node,
    body: Vec<Lit>,
    variables: usize,
}

/// The rules as clauses, indexed by the relation and arity of their heads.
struct Program {
    clauses: Vec<Clause>,
    by_head: HashMap<(Sym, usize), Vec<usize>>,
}

impl Program {
    fn new(game: &Game) -> Program {
        let mut clauses = Vec::with_capacity(game.rules.len());
        let mut by_head: HashMap<(Sym, usize), Vec<usize>> = HashMap::new();
        for rule in &game.rules {
            let mut variables = HashMap::new();
            let head = node(&rule.head, &mut variables);
            let mut body: Vec<Lit> = rule.body.iter().map(|l| lit(l, &mut variables)).collect();
            // Literals that bind first; the tests once their terms are bound.
            body.sort_by_key(|l| matches!(l, Lit::Distinct(..) | Lit::Not(_)));
            if let Some(key) = relation(&head) {
                by_head.entry(key).or_default().push(clauses.len());
            }
            clauses.push(Clause { head, body, variables: variables.len() });
        }
        Program { clauses, by_head }
    }
}

/// `ast` as a [`Node`], its variables numbered in `variables`.
fn node(ast: &Ast, variables: &mut HashMap<Sym, usize>) -> Node {
    match ast {
        Ast::Sym(s) => Node::Const(*s),
        Ast::Var(v) => {
            let next = variables.len();
            Node::Var(*variables.entry(*v).or_insert(next))
        }
        Ast::App(f, args) => Node::App(*f, args.iter().map(|a| node(a, variables)).collect()),
    }
}

/// `literal` as a [`Lit`], its variables numbered in `variables`.
fn lit(literal: &Literal, variables: &mut HashMap<Sym, usize>) -> Lit {
    match literal {
        Literal::Pos(a) => Lit::Pos(node(a, variables)),
        Literal::Not(inner) => Lit::Not(Box::new(lit(inner, variables))),
        Literal::Distinct(a, b) => Lit::Distinct(node(a, variables), node(b, variables)),
        Literal::Or(parts) => Lit::Or(parts.iter().map(|p| lit(p, variables)).collect()),
    }
}

/// The relation and arity of a sentence; `None` for a variable.
fn relation(sentence: &Node) -> Option<(Sym, usize)> {
    match sentence {
        Node::Const(s) => Some((*s, 0)),
        Node::App(s, args) => Some((*s, args.len())),
        Node::Var(_) => None,
    }
}

/// A literal still to prove: its variables are those of the clause instance
/// whose bindings start at `base`; `depth` rules were used to reach it.
#[derive(Clone, Copy)]
struct Goal<'p> {
    lit: &'p Lit,
    base: usize,
    depth: usize,
}

/// One search: the bindings of every clause instance's variables (a term
/// and the base of the instance it belongs to), the trail of bindings made
/// (undone on backtracking), the steps taken and whether any branch was cut.
struct Search<'p> {
    program: &'p Program,
    at: Where,
    bindings: Vec<Option<(&'p Node, usize)>>,
    trail: Vec<usize>,
    steps: usize,
    /// A branch was given up without being decided: a failure proves nothing.
    cut: bool,
}

impl<'p> Search<'p> {
    /// Proves `goals` in order, calling `found` with each proof's bindings;
    /// returns true once `found` asks to stop. The bindings are as before
    /// when it returns.
    fn solve(&mut self, goals: &[Goal<'p>], found: &mut dyn FnMut(&Self) -> bool) -> bool {
        let Some((&goal, rest)) = goals.split_first() else { return found(self) };
        self.steps += 1;
        if self.steps > STEPS || goal.depth > DEPTH {
            self.cut = true;
            return false;
        }
        let then = |first: Goal<'p>| std::iter::once(first).chain(rest.iter().copied()).collect::<Vec<_>>();
        match goal.lit {
            Lit::Pos(sentence) => {
                let (sentence, base) = self.walk(sentence, goal.base);
                let (name, args): (Sym, &'p [Node]) = match sentence {
                    Node::Const(s) => (*s, &[]),
                    Node::App(s, args) => (*s, args),
                    Node::Var(_) => {
                        self.cut = true;
                        return false;
                    }
                };
                let name = match (name, self.at) {
                    (kw::TRUE, Where::Initially) => kw::INIT,
                    (kw::TRUE | kw::DOES, _) => {
                        self.cut = true;
                        return false;
                    }
                    (name, _) => name,
                };
                let program: &'p Program = self.program;
                let Some(candidates) = program.by_head.get(&(name, args.len())) else { return false };
                for &c in candidates {
                    // Every clause tried is a step: a relation of many facts
                    // spends the budget as fast as it costs time.
                    self.steps += 1;
                    if self.steps > STEPS {
                        self.cut = true;
                        return false;
                    }
                    let clause = &program.clauses[c];
                    let mark = (self.trail.len(), self.bindings.len());
                    let instance = self.bindings.len();
                    self.bindings.resize(instance + clause.variables, None);
                    let unified = clause.head.args().iter().zip(args).all(|(h, a)| self.unify(h, instance, a, base));
                    let stop = unified && {
                        let depth = goal.depth + 1;
                        let mut next: Vec<Goal<'p>> =
                            clause.body.iter().map(|lit| Goal { lit, base: instance, depth }).collect();
                        next.extend(rest.iter().copied());
                        self.solve(&next, found)
                    };
                    self.undo(mark);
                    if stop {
                        return true;
                    }
                }
                false
            }
            Lit::Distinct(a, b) => {
                if !self.ground(a, goal.base) || !self.ground(b, goal.base) {
                    self.cut = true;
                    return false;
                }
                if self.same(a, goal.base, b, goal.base) { false } else { self.solve(rest, found) }
            }
            Lit::Not(inner) => {
                if !self.ground_lit(inner, goal.base) {
                    self.cut = true;
                    return false;
                }
                let outer_cut = std::mem::replace(&mut self.cut, false);
                let inner_goal = [Goal { lit: inner, base: goal.base, depth: goal.depth + 1 }];
                let holds = self.solve(&inner_goal, &mut |_| true);
                let undecided = self.cut;
                self.cut = outer_cut || undecided;
                if holds || undecided { false } else { self.solve(rest, found) }
            }
            Lit::Or(parts) => {
                for part in parts {
                    if self.solve(&then(Goal { lit: part, ..goal }), found) {
                        return true;
                    }
                }
                false
            }
        }
    }

    /// `node` of the instance at `base`, its variables followed through
    /// their bindings to a term that is not a bound variable.
    fn walk(&self, mut node: &'p Node, mut base: usize) -> (&'p Node, usize) {
        while let Node::Var(v) = node {
            match self.bindings[base + v] {
                Some((bound, at)) => (node, base) = (bound, at),
                None => break,
            }
        }
        (node, base)
    }

    /// Unifies two terms of two instances, binding variables (with the
    /// occurs check, so that no binding is cyclic).
    fn unify(&mut self, a: &'p Node, a_base: usize, b: &'p Node, b_base: usize) -> bool {
        let (a, a_base) = self.walk(a, a_base);
        let (b, b_base) = self.walk(b, b_base);
        match (a, b) {
            (Node::Var(x), Node::Var(y)) if a_base + x == b_base + y => true,
            (Node::Var(x), _) => self.bind(a_base + x, b, b_base),
            (_, Node::Var(y)) => self.bind(b_base + y, a, a_base),
            (Node::Const(p), Node::Const(q)) => p == q,
            (Node::App(f, xs), Node::App(g, ys)) => {
                f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| self.unify(x, a_base, y, b_base))
            }
            _ => false,
        }
    }

    /// Binds variable slot `slot` to `node` of the instance at `base`,
    /// unless the variable occurs in it.
    fn bind(&mut self, slot: usize, node: &'p Node, base: usize) -> bool {
        if self.occurs(slot, node, base) {
            return false;
        }
        self.bindings[slot] = Some((node, base));
        self.trail.push(slot);
        true
    }

    /// Whether variable slot `slot` occurs in `node` of the instance at
    /// `base`.
    fn occurs(&self, slot: usize, node: &'p Node, base: usize) -> bool {
        match self.walk(node, base) {
            (Node::Var(v), at) => at + v == slot,
            (Node::Const(_), _) => false,
            (Node::App(_, args), at) => args.iter().any(|a| self.occurs(slot, a, at)),
        }
    }

    /// Undoes the bindings made since `mark` (the trail's and the bindings'
    /// lengths then).
    fn undo(&mut self, (trail, bindings): (usize, usize)) {
        for slot in self.trail.drain(trail..) {
            self.bindings[slot] = None;
        }
        self.bindings.truncate(bindings);
    }

    /// Whether `node` of the instance at `base` has no unbound variable.
    fn ground(&self, node: &'p Node, base: usize) -> bool {
        match self.walk(node, base) {
            (Node::Var(_), _) => false,
            (Node::Const(_), _) => true,
            (Node::App(_, args), at) => args.iter().all(|a| self.ground(a, at)),
        }
    }

    /// Whether every term of `lit` is ground in the instance at `base`.
    fn ground_lit(&self, lit: &'p Lit, base: usize) -> bool {
        match lit {
            Lit::Pos(n) => self.ground(n, base),
            Lit::Not(inner) => self.ground_lit(inner, base),
            Lit::Distinct(a, b) => self.ground(a, base) && self.ground(b, base),
            Lit::Or(parts) => parts.iter().all(|p| self.ground_lit(p, base)),
        }
    }

    /// Whether two ground terms are the same.
    fn same(&self, a: &'p Node, a_base: usize, b: &'p Node, b_base: usize) -> bool {
        match (self.walk(a, a_base), self.walk(b, b_base)) {
            ((Node::Const(p), _), (Node::Const(q), _)) => p == q,
            ((Node::App(f, xs), xa), (Node::App(g, ys), ya)) => {
                f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| self.same(x, xa, y, ya))
            }
            _ => false,
        }
    }

    /// `node` of the instance at `base` as a term, if ground.
    fn term(&self, node: &'p Node, base: usize, game: &Game) -> Option<Term> {
        match self.walk(node, base) {
            (Node::Var(_), _) => None,
            (Node::Const(s), _) => Some(Term::Symbol(game.symbols.name(*s).to_string())),
            (Node::App(f, args), at) => {
                let args = args.iter().map(|a| self.term(a, at, game)).collect::<Option<Vec<_>>>()?;
                Some(Term::Compound(game.symbols.name(*f).to_string(), args))
            }
        }
    }
}

impl Node {
    /// The arguments of a sentence (none for a constant or a variable).
    fn args(&self) -> &[Node] {
        match self {
            Node::App(_, args) => args,
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prover::Prover;

    fn terms(texts: &[&str]) -> Vec<Term> {
        texts.iter().map(|t| t.parse().expect("a term")).collect()
    }

    fn game(file: &str) -> Game {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let path =
            if file.starts_with("tests/") { root.join(file) } else { root.join("../../../shared/gdl").join(file) };
        Game::parse(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
    }

    /// Against the prover: every move found for the initial state is legal
    /// there, and every move found for every state is legal in each state of
    /// a match (each role playing its legal moves in turn), for every role of
    /// games whose legal rules use facts, recursion, negation and `or`.
    #[test]
    fn every_move_found_is_legal_where_the_prover_says() {
        let files = [
            "ticTacToe.kif",
            "connectFour.kif",
            "nim1.kif",
            "buttons.kif",
            "chomp.kif",
            "coins.kif",
            "sum15.kif",
            "tests/games/mummymaze1p.kif",
            "tests/games/gt_attrition.kif",
            "tests/games/checkers.kif",
            "tests/games/pawnToQueen.kif",
            "tests/games/racer.kif",
            "tests/games/sudoku.kif",
            "tests/games/chess.kif",
        ];
        let mut found = 0;
        for file in files {
            let game = game(file);
            let mut prover = Prover::new(&game);
            let roles = prover.roles();
            let everywhere: Vec<Vec<Term>> =
                roles.iter().map(|r| legal_by_rules(&game, r, Where::Everywhere)).collect();
            let mut state = prover.initial_state();
            for (r, role) in roles.iter().enumerate() {
                let initially = legal_by_rules(&game, role, Where::Initially);
                let legal = prover.legal_moves(&state, r);
                for mv in &initially {
                    assert!(legal.contains(mv), "{file}: {mv} of {role} found legal initially; the prover: {legal:?}");
                }
                found += initially.len();
            }
            for step in 0..12 {
                if prover.is_terminal(&state) {
                    break;
                }
                let mut joint = Vec::new();
                for (r, role) in roles.iter().enumerate() {
                    let legal = prover.legal_moves(&state, r);
                    for mv in &everywhere[r] {
                        assert!(
                            legal.contains(mv),
                            "{file}, step {step}: {mv} of {role} found always legal; {legal:?}"
                        );
                    }
                    joint.push(legal[(step * 7 + r) % legal.len()].clone());
                }
                state = prover.next_state(&state, &joint);
            }
            found += everywhere.iter().map(Vec::len).sum::<usize>();
        }
        assert!(found > 50, "the search proves moves legal in these games ({found})");
    }

    /// The two games where the player once sent `noop`: mummymaze1p's moves
    /// are legal in every state by facts alone, all five of them (the
    /// prover's initial moves); tic-tac-toe's are known only initially: the
    /// nine marks of the first player (the prover's), `noop` for the second.
    #[test]
    fn the_moves_found_are_the_provers_where_the_rules_decide_them() {
        let mummies = game("tests/games/mummymaze1p.kif");
        let mut prover = Prover::new(&mummies);
        let initial = prover.initial_state();
        let explorer = prover.roles()[0].clone();
        let always = legal_by_rules(&mummies, &explorer, Where::Everywhere);
        assert_eq!(always.len(), 5);
        assert_eq!(always, prover.legal_moves(&initial, 0));

        let tic_tac_toe = game("ticTacToe.kif");
        let mut prover = Prover::new(&tic_tac_toe);
        let initial = prover.initial_state();
        let roles = prover.roles();
        assert_eq!(legal_by_rules(&tic_tac_toe, &roles[0], Where::Initially), prover.legal_moves(&initial, 0));
        assert_eq!(legal_by_rules(&tic_tac_toe, &roles[0], Where::Initially).len(), 9);
        assert_eq!(legal_by_rules(&tic_tac_toe, &roles[1], Where::Initially), terms(&["noop"]));
        assert_eq!(legal_by_rules(&tic_tac_toe, &roles[1], Where::Everywhere), vec![]);
    }

    /// Negations hold only where the search for their literal failed
    /// without being cut: `(not (big 1))` holds (every derivation of `big`
    /// explored); `(not (true on))` is undecided in every state, false
    /// initially; `(not (reach a))`, a loop, is never decided. Role names
    /// match in any letter case.
    #[test]
    fn a_negation_holds_only_when_decided() {
        let rules = "(role Robot) (init on) (number 1) (number 2) (number 3)
            (<= (big ?n) (number ?n) (distinct ?n 1))
            (<= (legal robot (pick ?n)) (number ?n) (not (big ?n)))
            (<= (legal robot flip) (not (true on)))
            (<= (legal robot stay) (or (true on) (true off)))
            (<= (legal robot (wait ?x)) (true (timer ?x)))
            (<= (reach ?x) (reach ?x))
            (<= (legal robot go) (not (reach a)))
            (<= terminal (true off)) (goal robot 0)";
        let game = Game::parse(rules).unwrap();
        let robot: Term = "ROBOT".parse().unwrap();
        assert_eq!(legal_by_rules(&game, &robot, Where::Everywhere), terms(&["(pick 1)"]));
        assert_eq!(legal_by_rules(&game, &robot, Where::Initially), terms(&["stay", "(pick 1)"]), "sorted");
        assert_eq!(legal_by_rules(&game, &"nobody".parse().unwrap(), Where::Initially), vec![]);
    }
}
