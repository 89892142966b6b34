use std::fmt;

use bouton_analysis::Winner;
use bouton_rules::{Convention, Heaps, HeapsError, IllegalNimMove, Nim, NimMove, Rules};
use serde::Serialize;

use crate::analysis::{Analysis, AnalysisError, Component, MOVE_BUDGET, Method};
use crate::exhaustive::{Canonical, Exhaustive};
use crate::rules::parse::MoveParseError;
use crate::sample::RandomMove;
use crate::{
    Bar, BarError, Board, BoardError, Chomp, ChompMove, FibError, FibMove, FibPosition, FibonacciNim, HeapMove,
    HeapRules, HeapValues, IllegalChompMove, IllegalFibMove, IllegalHeapMove, IllegalMooreMove, IllegalNorthcottMove,
    IllegalStairMove, IllegalWythoffMove, MooreMove, MooreNim, Northcott, NorthcottMove, Pairs, PairsError, RuleSet,
    RuleSetError, StairMove, Staircase, Stairs, StairsError, Wythoff, WythoffMove, wythoff_grundy, wythoff_losing,
};
use crate::{Budget, Meter, OverBudget};

/// Any of bouton's rule sets behind one type, for front-ends that let the
/// player choose: it implements [`Rules`], so `Game<AnyRules>` and the
/// players work with every rule set, and it parses positions and moves,
/// describes moves in words and analyses positions.
///
/// ```
/// use bouton_analysis::Winner;
/// use bouton_grundy::{AnyRules, RuleSet};
/// use bouton_rules::{Convention, Game};
///
/// let rules = AnyRules::new("kayles".parse()?, Convention::Normal);
/// let start = rules.position(&[7, 11])?;
/// let analysis = rules.analyze(&start)?;
/// assert_eq!(analysis.total, Some(2 ^ 6));
/// assert_eq!(analysis.winner, Winner::Mover);
/// let mv = analysis.winning_moves[0];
/// let mut game = Game::new(rules.clone(), start.clone())?;
/// game.play(mv)?;
/// assert_eq!(rules.analyze(game.position())?.total, Some(0));
/// assert_eq!(rules.describe_move(&start, &rules.parse_move("1 1 3")?), "take 1 from heap 1, leaving 3 and 3");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnyRules {
    set: RuleSet,
    kind: Kind,
    budget: Budget,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Nim(Nim),
    Heap(HeapRules),
    Moore(MooreNim),
    Wythoff(Wythoff),
    Staircase(Staircase),
    Northcott(Northcott),
    Fibonacci(FibonacciNim),
    Chomp(Chomp),
}

/// A position of any rule set.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged)]
pub enum AnyPosition {
    /// Heaps (Nim, heap games, Moore's Nim).
    Heaps(Heaps),
    /// Pairs of piles (Wythoff).
    Pairs(Pairs),
    /// A staircase.
    Stairs(Stairs),
    /// A Northcott board.
    Board(Board),
    /// A Fibonacci Nim heap.
    Fib(FibPosition),
    /// What is left of a Chomp bar.
    Bar(Bar),
}

/// A move of any rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A Nim move.
    Nim(NimMove),
    /// A heap-game move.
    Heap(HeapMove),
    /// A Moore's Nim_k move.
    Moore(MooreMove),
    /// A Wythoff move.
    Wythoff(WythoffMove),
    /// A staircase move.
    Stair(StairMove),
    /// A Northcott move.
    Northcott(NorthcottMove),
    /// A Fibonacci Nim move.
    Fib(FibMove),
    /// A bite of Chomp.
    Chomp(ChompMove),
}

/// Why numbers are not a position of the rule set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Heaps.
    #[error(transparent)]
    Heaps(#[from] HeapsError),
    /// Pairs.
    #[error(transparent)]
    Pairs(#[from] PairsError),
    /// Stairs.
    #[error(transparent)]
    Stairs(#[from] StairsError),
    /// Board.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// Fibonacci heap.
    #[error(transparent)]
    Fib(#[from] FibError),
    /// Chomp bar.
    #[error(transparent)]
    Bar(#[from] BarError),
}

/// Why a move is illegal, for any rule set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnyIllegal {
    /// Nim.
    #[error(transparent)]
    Nim(#[from] IllegalNimMove),
    /// Heap games.
    #[error(transparent)]
    Heap(#[from] IllegalHeapMove),
    /// Moore's Nim_k.
    #[error(transparent)]
    Moore(#[from] IllegalMooreMove),
    /// Wythoff.
    #[error(transparent)]
    Wythoff(#[from] IllegalWythoffMove),
    /// Staircase.
    #[error(transparent)]
    Stair(#[from] IllegalStairMove),
    /// Northcott.
    #[error(transparent)]
    Northcott(#[from] IllegalNorthcottMove),
    /// Fibonacci Nim.
    #[error(transparent)]
    Fib(#[from] IllegalFibMove),
    /// Chomp.
    #[error(transparent)]
    Chomp(#[from] IllegalChompMove),
    /// A move or position of another rule set.
    #[error("that move belongs to another rule set")]
    Mismatch,
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Nim(m) => m.fmt(f),
            AnyMove::Heap(m) => m.fmt(f),
            AnyMove::Moore(m) => m.fmt(f),
            AnyMove::Wythoff(m) => m.fmt(f),
            AnyMove::Stair(m) => m.fmt(f),
            AnyMove::Northcott(m) => m.fmt(f),
            AnyMove::Fib(m) => m.fmt(f),
            AnyMove::Chomp(m) => m.fmt(f),
        }
    }
}

impl Serialize for AnyMove {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl AnyPosition {
    /// The position as numbers, the form [`AnyRules::position`] reads.
    pub fn numbers(&self) -> Vec<u64> {
        match self {
            AnyPosition::Heaps(h) => h.as_slice().to_vec(),
            AnyPosition::Pairs(p) => p.sizes(),
            AnyPosition::Stairs(s) => s.as_slice().to_vec(),
            AnyPosition::Board(b) => b.numbers(),
            // A start is written as its heap alone (a start has at least 2).
            AnyPosition::Fib(f) if f.heap() >= 2 && f.limit() == f.heap() - 1 => vec![f.heap()],
            AnyPosition::Fib(f) => vec![f.heap(), f.limit()],
            AnyPosition::Bar(b) => b.heights().to_vec(),
        }
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyPosition::Heaps(h) => h.fmt(f),
            AnyPosition::Pairs(p) => p.fmt(f),
            AnyPosition::Stairs(s) => s.fmt(f),
            AnyPosition::Board(b) => b.fmt(f),
            AnyPosition::Fib(p) => p.fmt(f),
            AnyPosition::Bar(b) => b.fmt(f),
        }
    }
}

fn not_available(rules: &AnyRules, reason: impl fmt::Display) -> AnalysisError {
    AnalysisError::NotAvailable { rules: rules.title(), reason: reason.to_string() }
}

fn winner(mover_wins: bool) -> Winner {
    if mover_wins { Winner::Mover } else { Winner::Opponent }
}

impl AnyRules {
    /// The rule set under `convention`.
    pub fn new(set: RuleSet, convention: Convention) -> AnyRules {
        let kind = match &set {
            RuleSet::Nim => Kind::Nim(Nim::new(convention)),
            RuleSet::Moore(k) => {
                Kind::Moore(MooreNim::new(*k, convention).unwrap_or_else(|_| MooreNim::new(1, convention).expect("1")))
            }
            RuleSet::Wythoff => Kind::Wythoff(Wythoff::new(convention)),
            RuleSet::Staircase => Kind::Staircase(Staircase::new(convention)),
            RuleSet::Northcott => Kind::Northcott(Northcott::new(convention)),
            RuleSet::Fibonacci => Kind::Fibonacci(FibonacciNim::new(convention)),
            RuleSet::Chomp => Kind::Chomp(Chomp::new(convention)),
            heap => Kind::Heap(HeapRules::new(heap.heap_game().unwrap_or_else(crate::HeapGame::nim), convention)),
        };
        AnyRules { set, kind, budget: Budget::interactive() }
    }

    /// The same rules with a different budget for each analysis
    /// ([`Budget::interactive`] unless set): a server answering many players
    /// sets it low, so that a position too large to analyse is reported as
    /// such quickly.
    ///
    /// ```
    /// use bouton_grundy::{AnalysisError, AnyRules, Budget};
    /// use bouton_rules::Convention;
    ///
    /// let rules = AnyRules::parse("kayles", Convention::Misere)?.with_budget(Budget::new(20_000, 1 << 20));
    /// assert!(rules.analyze(&rules.position(&[7, 11])?).is_ok());
    /// let big = rules.position(&[20, 30, 40])?;
    /// assert!(matches!(rules.analyze(&big), Err(AnalysisError::OverBudget { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_budget(mut self, budget: Budget) -> AnyRules {
        self.budget = budget;
        self
    }

    /// The budget of each analysis.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Parses a rule set name (see [`RuleSet`]) and builds it.
    ///
    /// # Errors
    /// An unknown name or a bad parameter.
    pub fn parse(text: &str, convention: Convention) -> Result<AnyRules, RuleSetError> {
        Ok(AnyRules::new(text.parse()?, convention))
    }

    /// The rule set.
    pub fn rule_set(&self) -> &RuleSet {
        &self.set
    }

    /// The name and convention: "Kayles (0.77), misère play".
    pub fn title(&self) -> String {
        let name = self.set.name();
        let mut chars = name.chars();
        let name: String = chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default();
        match self.convention() {
            Convention::Normal => format!("{name}, normal play"),
            Convention::Misere => format!("{name}, misère play"),
        }
    }

    /// The position given as numbers (see [`RuleSet::position_format`]).
    ///
    /// # Errors
    /// Numbers that do not make a position of this rule set.
    pub fn position(&self, numbers: &[u64]) -> Result<AnyPosition, PositionError> {
        Ok(match &self.kind {
            Kind::Nim(_) | Kind::Heap(_) | Kind::Moore(_) => AnyPosition::Heaps(Heaps::new(numbers.to_vec())?),
            Kind::Wythoff(_) => AnyPosition::Pairs(Pairs::from_sizes(numbers)?),
            Kind::Staircase(_) => AnyPosition::Stairs(Stairs::new(numbers.to_vec())?),
            Kind::Northcott(_) => AnyPosition::Board(Board::from_numbers(numbers)?),
            Kind::Fibonacci(_) => AnyPosition::Fib(FibPosition::from_numbers(numbers)?),
            Kind::Chomp(_) => AnyPosition::Bar(Bar::new(numbers.to_vec())?),
        })
    }

    /// Reads a move typed by a person or stored in a file.
    ///
    /// # Errors
    /// Text that is not a move of this rule set.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, MoveParseError> {
        Ok(match &self.kind {
            Kind::Nim(_) => AnyMove::Nim(text.parse()?),
            Kind::Heap(_) => AnyMove::Heap(text.parse()?),
            Kind::Moore(_) => AnyMove::Moore(text.parse()?),
            Kind::Wythoff(_) => AnyMove::Wythoff(text.parse()?),
            Kind::Staircase(_) => AnyMove::Stair(text.parse()?),
            Kind::Northcott(_) => AnyMove::Northcott(text.parse()?),
            Kind::Fibonacci(_) => AnyMove::Fib(text.parse()?),
            Kind::Chomp(_) => AnyMove::Chomp(text.parse()?),
        })
    }

    /// How to type a move, with an example.
    pub fn move_help(&self) -> &'static str {
        match &self.kind {
            Kind::Nim(_) => "`3 2` takes 2 tokens from heap 3",
            Kind::Heap(h) if h.game().splits() && h.game().digits()[0] & 4 != 0 && h.game().tail() == 0 => {
                "`2 0 3` splits heap 2, leaving 3 and the rest"
            }
            Kind::Heap(h) if h.game().splits() => {
                "`3 2` takes 2 from heap 3; `3 2 1` takes 2 and leaves what is left as 1 and the rest"
            }
            Kind::Heap(_) => "`3 2` takes 2 tokens from heap 3",
            Kind::Moore(_) => "`1 2 3 1` takes 2 from heap 1 and 1 from heap 3",
            Kind::Wythoff(_) => "`1 2 0` takes 2 from the first pile of pair 1, `1 3 3` 3 from both",
            Kind::Staircase(_) => "`3 2` moves 2 coins from step 3 to step 2",
            Kind::Northcott(_) => "`2 5` moves your piece in row 2 to column 5",
            Kind::Fibonacci(_) => "`3` takes 3 tokens",
            Kind::Chomp(_) => "`3 2` bites the square in column 3, row 2, with every square above it and to its right",
        }
    }

    /// The move in words, as played from `before`.
    pub fn describe_move(&self, before: &AnyPosition, mv: &AnyMove) -> String {
        match (&self.kind, before, mv) {
            (_, _, AnyMove::Nim(m)) => format!("take {} from heap {}", m.take, m.heap as u128 + 1),
            (Kind::Heap(rules), AnyPosition::Heaps(h), AnyMove::Heap(m)) => rules.describe(m, h),
            (_, _, AnyMove::Moore(m)) => {
                let parts: Vec<String> =
                    m.pairs().iter().map(|&(heap, take)| format!("{take} from heap {}", heap as u128 + 1)).collect();
                format!("take {}", join_and(&parts))
            }
            (Kind::Wythoff(w), AnyPosition::Pairs(p), AnyMove::Wythoff(m)) => w.describe(m, p.as_slice().len()),
            (Kind::Staircase(s), _, AnyMove::Stair(m)) => s.describe(m),
            (Kind::Northcott(n), AnyPosition::Board(b), AnyMove::Northcott(m)) => n.describe(b, m),
            (_, _, AnyMove::Fib(m)) => format!("take {}", m.take),
            (Kind::Chomp(c), AnyPosition::Bar(b), AnyMove::Chomp(m)) => c.describe(b, m),
            (_, _, other) => other.to_string(),
        }
    }

    /// Who wins, the Grundy values, and the winning moves.
    ///
    /// Normal play: every rule set, through Grundy values or its closed
    /// form. Misère play: Nim and Moore's Nim_k by their theorems, the rest
    /// by exhaustive search of small positions.
    ///
    /// # Errors
    /// [`AnalysisError::NotAvailable`] when no theory applies and the
    /// position is too large to search (or, for Northcott's game in misère
    /// play, the game tree has cycles).
    pub fn analyze(&self, position: &AnyPosition) -> Result<Analysis<AnyMove>, AnalysisError> {
        self.analyze_within(position, &self.budget)
    }

    /// [`AnyRules::analyze`] within `budget` instead of the rules' own.
    ///
    /// # Errors
    /// As [`AnyRules::analyze`]; [`AnalysisError::OverBudget`] when the
    /// budget runs out or its cancel flag is raised.
    ///
    /// ```
    /// use bouton_grundy::{AnalysisError, AnyRules, Budget, Cancel};
    /// use bouton_rules::Convention;
    ///
    /// let rules = AnyRules::parse("lasker", Convention::Misere)?;
    /// let cancel = Cancel::new();
    /// cancel.cancel();
    /// let called_off = Budget::interactive().with_cancel(cancel);
    /// let position = rules.position(&[50; 12])?;
    /// assert!(matches!(rules.analyze_within(&position, &called_off), Err(AnalysisError::OverBudget { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn analyze_within(&self, position: &AnyPosition, budget: &Budget) -> Result<Analysis<AnyMove>, AnalysisError> {
        let misere = self.convention() == Convention::Misere;
        let mut meter = budget.meter();
        meter.check().map_err(|e| self.over_budget(e))?;
        match (&self.kind, position) {
            (Kind::Nim(nim), AnyPosition::Heaps(h)) => Ok(self.analyze_nim(nim, h)),
            (Kind::Heap(rules), AnyPosition::Heaps(h)) if !misere => self.analyze_heaps(rules, h, &mut meter),
            (Kind::Moore(rules), AnyPosition::Heaps(h)) => self.analyze_moore(rules, h, &mut meter),
            (Kind::Wythoff(rules), AnyPosition::Pairs(p)) if !misere => self.analyze_wythoff(rules, p, &mut meter),
            (Kind::Staircase(_), AnyPosition::Stairs(s)) if !misere => Ok(self.analyze_staircase(s)),
            (Kind::Northcott(_), AnyPosition::Board(b)) if !misere => Ok(self.analyze_northcott(b)),
            (Kind::Northcott(_), AnyPosition::Board(_)) => Err(not_available(
                self,
                "Northcott's game can go round in circles, and no misère theory for it is known to bouton",
            )),
            (Kind::Fibonacci(_), AnyPosition::Fib(p)) if !misere => Ok(self.analyze_fibonacci(p)),
            (Kind::Heap(rules), AnyPosition::Heaps(h)) => {
                self.search(rules, h, budget, AnyMove::Heap, |h| heap_components(h, None))
            }
            (Kind::Wythoff(rules), AnyPosition::Pairs(p)) => self.search(rules, p, budget, AnyMove::Wythoff, |p| {
                (0..p.as_slice().len()).map(|i| Component::new(format!("pair {}", i + 1), None)).collect()
            }),
            (Kind::Staircase(rules), AnyPosition::Stairs(s)) => {
                self.search(rules, s, budget, AnyMove::Stair, |_| vec![Component::new("the staircase", None)])
            }
            (Kind::Fibonacci(rules), AnyPosition::Fib(p)) => {
                self.search(rules, p, budget, AnyMove::Fib, |_| vec![Component::new("the heap", None)])
            }
            (Kind::Chomp(rules), AnyPosition::Bar(b)) => {
                self.search(rules, b, budget, AnyMove::Chomp, |_| vec![Component::new("the bar", None)])
            }
            _ => Err(not_available(self, "the position does not belong to these rules")),
        }
    }

    fn analyze_nim(&self, nim: &Nim, heaps: &Heaps) -> Analysis<AnyMove> {
        let sizes = heaps.as_slice();
        let analysis = bouton_analysis::Analysis::new(sizes, nim.convention);
        let misere = nim.convention == Convention::Misere;
        Analysis {
            convention: nim.convention,
            winner: analysis.winner(),
            components: heap_components(heaps, Some(&|h| Some(h))),
            total: (!misere).then(|| analysis.nim_sum()),
            winning_moves: analysis.winning_moves(sizes).map(AnyMove::Nim).collect(),
            complete: true,
            method: if misere { Method::MisereNim } else { Method::NimSum },
        }
    }

    fn over_budget(&self, cause: OverBudget) -> AnalysisError {
        AnalysisError::OverBudget { rules: self.title(), cause }
    }

    fn analyze_heaps(
        &self,
        rules: &HeapRules,
        heaps: &Heaps,
        meter: &mut Meter,
    ) -> Result<Analysis<AnyMove>, AnalysisError> {
        let sizes = heaps.as_slice();
        let largest = sizes.iter().copied().max().unwrap_or(0);
        let values = HeapValues::for_heaps_within(rules.game(), largest, meter).map_err(|e| match e {
            crate::values::Unavailable::Values(e) => not_available(self, e),
            crate::values::Unavailable::Budget(e) => self.over_budget(e),
        })?;
        let value = |n: u64| values.get(n).ok_or_else(|| not_available(self, format!("no Grundy value for heap {n}")));
        let grundy: Vec<u64> = sizes.iter().map(|&n| value(n)).collect::<Result<_, _>>()?;
        let total = grundy.iter().fold(0, |x, &g| x ^ g);
        let mut moves = Vec::new();
        let mut complete = true;
        let mut examined = 0u64;
        let mut stopped = None;
        let options: u128 = sizes.iter().map(|&n| crate::sample::option_count(rules.game(), n)).sum();
        if total != 0 && options > u128::from(MOVE_BUDGET) {
            // Too many options to list: one winning move per heap whose
            // value can come down to what the others XOR to (the mex
            // promises an option of every smaller value), built from the
            // values.
            complete = false;
            for (heap, (&size, &g)) in sizes.iter().zip(&grundy).enumerate().filter(|(_, (_, g))| **g ^ total < **g) {
                let built = crate::construct::option_with_value(rules.game(), &values, size, g ^ total, meter)
                    .map_err(|e| self.over_budget(e))?;
                moves.extend(built.map(|option| AnyMove::Heap(HeapMove::from_option(heap, option))));
            }
            if moves.is_empty() {
                return Err(not_available(self, "no winning move was found from the Grundy values"));
            }
        } else if total != 0 {
            'heaps: for (heap, (&size, &g)) in sizes.iter().zip(&grundy).enumerate() {
                let target = g ^ total;
                for option in rules.game().options(size) {
                    examined += 1;
                    if examined > MOVE_BUDGET {
                        complete = false;
                        break 'heaps;
                    }
                    if let Err(e) = meter.spend(1) {
                        (complete, stopped) = (false, Some(e));
                        break 'heaps;
                    }
                    let left = if option.left == 0 { 0 } else { value(option.left)? };
                    let right = if option.right == 0 { 0 } else { value(option.right)? };
                    if left ^ right == target {
                        moves.push(AnyMove::Heap(HeapMove::from_option(heap, option)));
                    }
                }
            }
            if let (true, Some(e)) = (moves.is_empty(), stopped) {
                return Err(self.over_budget(e));
            }
            if moves.is_empty() {
                return Err(not_available(self, "the heaps are too large to find a winning move"));
            }
        }
        let components = sizes
            .iter()
            .zip(&grundy)
            .enumerate()
            .map(|(i, (_, &g))| Component::new(format!("heap {}", i + 1), Some(g)))
            .collect();
        Ok(Analysis {
            convention: Convention::Normal,
            winner: winner(total != 0),
            components,
            total: Some(total),
            winning_moves: moves,
            complete,
            method: Method::GrundyValues,
        })
    }

    /// Moore's theorem decides who wins and constructs a winning move for
    /// any heap sizes; the other winning moves are listed as far as the
    /// budget allows. Nim_k is not a sum of its heaps, and the value of the
    /// whole would need a search: it is not computed.
    fn analyze_moore(
        &self,
        rules: &MooreNim,
        heaps: &Heaps,
        meter: &mut Meter,
    ) -> Result<Analysis<AnyMove>, AnalysisError> {
        let sizes = heaps.as_slice();
        let mover_wins = !rules.loses(sizes);
        let mut moves = Vec::new();
        let mut complete = true;
        if mover_wins {
            let constructed = rules.construct_winning_move(sizes);
            moves.extend(constructed.map(AnyMove::Moore));
            let mut after = heaps.clone();
            for (examined, mv) in rules.legal_moves(heaps).enumerate() {
                if examined as u64 >= MOVE_BUDGET || meter.spend(sizes.len() as u64 + 1).is_err() {
                    complete = false;
                    break;
                }
                after.clone_from(heaps);
                rules.apply(&mut after, mv);
                if Some(mv) != constructed && rules.loses(after.as_slice()) {
                    moves.push(AnyMove::Moore(mv));
                }
            }
            if moves.is_empty() {
                return Err(not_available(self, "no move is left to play"));
            }
        }
        let total =
            (rules.k() == 1 && rules.convention() == Convention::Normal).then(|| sizes.iter().fold(0, |x, &h| x ^ h));
        Ok(Analysis {
            convention: rules.convention(),
            winner: winner(mover_wins),
            components: vec![Component::new("the whole position", total)],
            total,
            winning_moves: moves,
            complete,
            method: Method::MooreTheorem,
        })
    }

    fn analyze_wythoff(
        &self,
        _rules: &Wythoff,
        pairs: &Pairs,
        meter: &mut Meter,
    ) -> Result<Analysis<AnyMove>, AnalysisError> {
        let list = pairs.as_slice();
        if let [(a, b)] = list {
            let moves = Wythoff::winning_moves_of_pair(*a, *b)
                .into_iter()
                .map(|(first, second)| AnyMove::Wythoff(WythoffMove { pair: 0, first, second }))
                .collect::<Vec<_>>();
            let losing = wythoff_losing(*a, *b);
            let value = if losing { Some(0) } else { wythoff_grundy(*a, *b).map(u64::from) };
            return Ok(Analysis {
                convention: Convention::Normal,
                winner: winner(!losing),
                components: vec![Component::new("pair 1", value)],
                total: value,
                winning_moves: moves,
                complete: true,
                method: Method::WythoffPairs,
            });
        }
        let grundy: Vec<u64> =
            list.iter().map(|&(a, b)| wythoff_grundy(a, b).map(u64::from)).collect::<Option<_>>().ok_or_else(|| {
                not_available(
                    self,
                    format!(
                        "a sum of Wythoff pairs needs each pair's Grundy value, known here for piles up to {}",
                        crate::WYTHOFF_TABLE
                    ),
                )
            })?;
        let total = grundy.iter().fold(0, |x, &g| x ^ g);
        let mut moves = Vec::new();
        if total != 0 {
            let rules = Wythoff::new(Convention::Normal);
            for mv in rules.legal_moves(pairs) {
                meter.spend(1).map_err(|e| self.over_budget(e))?;
                let (a, b) = list[mv.pair];
                let after = wythoff_grundy(a - mv.first, b - mv.second).map(u64::from);
                if after == Some(grundy[mv.pair] ^ total) {
                    moves.push(AnyMove::Wythoff(mv));
                }
            }
        }
        Ok(Analysis {
            convention: Convention::Normal,
            winner: winner(total != 0),
            components: grundy
                .iter()
                .enumerate()
                .map(|(i, &g)| Component::new(format!("pair {}", i + 1), Some(g)))
                .collect(),
            total: Some(total),
            winning_moves: moves,
            complete: true,
            method: Method::GrundyValues,
        })
    }

    fn analyze_staircase(&self, stairs: &Stairs) -> Analysis<AnyMove> {
        let value = Staircase::grundy(stairs);
        Analysis {
            convention: Convention::Normal,
            winner: winner(value != 0),
            components: vec![Component::new("the staircase", Some(value))],
            total: Some(value),
            winning_moves: Staircase::winning_moves(stairs).into_iter().map(AnyMove::Stair).collect(),
            complete: true,
            method: Method::OddSteps,
        }
    }

    fn analyze_northcott(&self, board: &Board) -> Analysis<AnyMove> {
        let gaps = board.gaps();
        let total = gaps.iter().fold(0, |x, &g| x ^ g);
        let mut moves = Vec::new();
        if total != 0 {
            for (row, &gap) in gaps.iter().enumerate() {
                if let Some(mv) = Northcott::move_to_gap(board, row, gap ^ total) {
                    moves.push(AnyMove::Northcott(mv));
                }
            }
        }
        Analysis {
            convention: Convention::Normal,
            winner: winner(total != 0),
            components: gaps
                .iter()
                .enumerate()
                .map(|(i, &g)| Component::new(format!("row {}", i + 1), Some(g)))
                .collect(),
            total: Some(total),
            winning_moves: moves,
            complete: true,
            method: Method::Gaps,
        }
    }

    /// The Zeckendorf representation decides who wins and gives the winning
    /// moves; a Grundy value other than 0 would need a search, and is only
    /// displayed: it is not computed.
    fn analyze_fibonacci(&self, pos: &FibPosition) -> Analysis<AnyMove> {
        let mover_wins = FibonacciNim::mover_wins(pos);
        let value = (!mover_wins).then_some(0);
        Analysis {
            convention: Convention::Normal,
            winner: winner(mover_wins),
            components: vec![Component::new("the heap", value)],
            total: value,
            winning_moves: FibonacciNim::winning_moves(pos).into_iter().map(AnyMove::Fib).collect(),
            complete: true,
            method: Method::Zeckendorf,
        }
    }

    /// Misère analysis by exhaustive search.
    fn search<R: Canonical>(
        &self,
        rules: &R,
        position: &R::Position,
        budget: &Budget,
        wrap: impl Fn(R::Move) -> AnyMove,
        components: impl Fn(&R::Position) -> Vec<Component>,
    ) -> Result<Analysis<AnyMove>, AnalysisError> {
        let mut search = Exhaustive::new(rules.clone(), budget.clone());
        let value = search.value(position).map_err(|e| self.over_budget(e))?;
        let moves = search.winning_moves(position).map_err(|e| self.over_budget(e))?;
        let mut components = components(position);
        if let [whole] = components.as_mut_slice() {
            // One component is the whole position: its value is the total.
            whole.value = Some(u64::from(value));
        }
        Ok(Analysis {
            convention: rules.convention(),
            winner: winner(value != 0),
            components,
            total: Some(u64::from(value)),
            winning_moves: moves.into_iter().map(wrap).collect(),
            complete: true,
            method: Method::ExhaustiveSearch,
        })
    }

    /// For each of `moves` from `position`, how many winning replies the
    /// opponent has after it (0 when it leaves them lost), or `None` where
    /// that cannot be analysed. Where positions are searched (misère play
    /// without a theory) one search serves every move, so comparing many
    /// moves costs about as much as analysing the position once. All of it
    /// runs within one `budget` (its clock started once, its operations
    /// shared among the moves).
    ///
    /// ```
    /// use bouton_grundy::{AnyRules, Budget};
    /// use bouton_rules::{Convention, Rules};
    ///
    /// let rules = AnyRules::parse("kayles", Convention::Misere)?;
    /// let start = rules.position(&[3])?;
    /// let moves: Vec<_> = rules.legal_moves(&start).collect();
    /// let replies = rules.winning_replies(&start, &moves, &Budget::interactive());
    /// // Misère Kayles, a row of 3: leaving one pin (knocking down two) leaves
    /// // the opponent to take the last pin, with no winning reply.
    /// for (mv, replies) in moves.iter().zip(&replies) {
    ///     let mut after = start.clone();
    ///     rules.apply(&mut after, *mv);
    ///     assert_eq!(*replies == Some(0), after.numbers() == [1], "{mv}");
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn winning_replies(&self, position: &AnyPosition, moves: &[AnyMove], budget: &Budget) -> Vec<Option<usize>> {
        let misere = self.convention() == Convention::Misere;
        let budget = &budget.started();
        let searched =
            match (&self.kind, position) {
                (Kind::Heap(r), AnyPosition::Heaps(p)) if misere => {
                    Some(self.replies_by_search(r, p, moves, budget, |m| {
                        if let AnyMove::Heap(m) = m { Some(*m) } else { None }
                    }))
                }
                (Kind::Wythoff(r), AnyPosition::Pairs(p)) if misere => {
                    Some(self.replies_by_search(r, p, moves, budget, |m| {
                        if let AnyMove::Wythoff(m) = m { Some(*m) } else { None }
                    }))
                }
                (Kind::Staircase(r), AnyPosition::Stairs(p)) if misere => {
                    Some(self.replies_by_search(r, p, moves, budget, |m| {
                        if let AnyMove::Stair(m) = m { Some(*m) } else { None }
                    }))
                }
                (Kind::Fibonacci(r), AnyPosition::Fib(p)) if misere => {
                    Some(self.replies_by_search(r, p, moves, budget, |m| {
                        if let AnyMove::Fib(m) = m { Some(*m) } else { None }
                    }))
                }
                (Kind::Chomp(r), AnyPosition::Bar(p)) => Some(self.replies_by_search(r, p, moves, budget, |m| {
                    if let AnyMove::Chomp(m) = m { Some(*m) } else { None }
                })),
                _ => None,
            };
        searched.unwrap_or_else(|| {
            moves
                .iter()
                .map(|&mv| {
                    let mut after = position.clone();
                    self.apply(&mut after, mv);
                    match self.analyze_within(&after, &budget.share(moves.len() as u64)) {
                        Ok(a) if a.winner == Winner::Mover => Some(a.winning_moves.len()),
                        Ok(_) => Some(0),
                        Err(_) => None,
                    }
                })
                .collect()
        })
    }

    /// [`AnyRules::winning_replies`] by one shared exhaustive search.
    fn replies_by_search<R: Canonical>(
        &self,
        rules: &R,
        position: &R::Position,
        moves: &[AnyMove],
        budget: &Budget,
        unwrap: impl Fn(&AnyMove) -> Option<R::Move>,
    ) -> Vec<Option<usize>> {
        let mut search = Exhaustive::new(rules.clone(), budget.clone());
        moves
            .iter()
            .map(|m| {
                let mut after = position.clone();
                rules.apply(&mut after, unwrap(m)?);
                search.winning_moves(&after).ok().map(|w| w.len())
            })
            .collect()
    }

    /// A random legal move, drawn without listing every legal move (see
    /// [`RandomMove`]); `None` when there is none.
    ///
    /// ```
    /// use bouton_grundy::AnyRules;
    /// use bouton_rules::{Convention, Rules};
    /// use rand::SeedableRng;
    ///
    /// let rules = AnyRules::parse("moore:8", Convention::Normal)?;
    /// let start = rules.position(&[50; 12])?;
    /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    /// let mv = rules.random_move(&start, &mut rng).unwrap();
    /// assert!(rules.check(&start, mv).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn random_move(&self, position: &AnyPosition, rng: &mut dyn rand::RngCore) -> Option<AnyMove> {
        match (&self.kind, position) {
            (Kind::Nim(r), AnyPosition::Heaps(p)) => r.random_move(p, rng).map(AnyMove::Nim),
            (Kind::Heap(r), AnyPosition::Heaps(p)) => r.random_move(p, rng).map(AnyMove::Heap),
            (Kind::Moore(r), AnyPosition::Heaps(p)) => r.random_move(p, rng).map(AnyMove::Moore),
            (Kind::Wythoff(r), AnyPosition::Pairs(p)) => r.random_move(p, rng).map(AnyMove::Wythoff),
            (Kind::Staircase(r), AnyPosition::Stairs(p)) => r.random_move(p, rng).map(AnyMove::Stair),
            (Kind::Northcott(r), AnyPosition::Board(p)) => r.random_move(p, rng).map(AnyMove::Northcott),
            (Kind::Fibonacci(r), AnyPosition::Fib(p)) => r.random_move(p, rng).map(AnyMove::Fib),
            (Kind::Chomp(r), AnyPosition::Bar(p)) => r.random_move(p, rng).map(AnyMove::Chomp),
            _ => None,
        }
    }

    /// The winning moves a perfect player should prefer: in Northcott's
    /// game those that close a gap (so that the game makes progress), in
    /// every other game all of them.
    pub fn progressive(&self, position: &AnyPosition, moves: &[AnyMove]) -> Vec<AnyMove> {
        if let AnyPosition::Board(board) = position {
            let closing: Vec<AnyMove> = moves
                .iter()
                .copied()
                .filter(|mv| match mv {
                    AnyMove::Northcott(m) => board.rows().get(m.row).is_some_and(|row| {
                        let other = if board.white_to_move() { row.black } else { row.white };
                        m.to.abs_diff(other) - 1 < row.gap()
                    }),
                    _ => true,
                })
                .collect();
            if !closing.is_empty() {
                return closing;
            }
        }
        moves.to_vec()
    }
}

fn heap_components(heaps: &Heaps, value: Option<&dyn Fn(u64) -> Option<u64>>) -> Vec<Component> {
    heaps
        .as_slice()
        .iter()
        .enumerate()
        .map(|(i, &h)| Component::new(format!("heap {}", i + 1), value.and_then(|f| f(h))))
        .collect()
}

fn join_and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl Rules for AnyRules {
    type Position = AnyPosition;
    type Move = AnyMove;
    type Illegal = AnyIllegal;

    fn convention(&self) -> Convention {
        match &self.kind {
            Kind::Nim(r) => r.convention(),
            Kind::Heap(r) => r.convention(),
            Kind::Moore(r) => r.convention(),
            Kind::Wythoff(r) => r.convention(),
            Kind::Staircase(r) => r.convention(),
            Kind::Northcott(r) => r.convention(),
            Kind::Fibonacci(r) => r.convention(),
            Kind::Chomp(r) => r.convention(),
        }
    }

    fn check(&self, position: &AnyPosition, mv: AnyMove) -> Result<(), AnyIllegal> {
        match (&self.kind, position, mv) {
            (Kind::Nim(r), AnyPosition::Heaps(p), AnyMove::Nim(m)) => Ok(r.check(p, m)?),
            (Kind::Heap(r), AnyPosition::Heaps(p), AnyMove::Heap(m)) => Ok(r.check(p, m)?),
            (Kind::Moore(r), AnyPosition::Heaps(p), AnyMove::Moore(m)) => Ok(r.check(p, m)?),
            (Kind::Wythoff(r), AnyPosition::Pairs(p), AnyMove::Wythoff(m)) => Ok(r.check(p, m)?),
            (Kind::Staircase(r), AnyPosition::Stairs(p), AnyMove::Stair(m)) => Ok(r.check(p, m)?),
            (Kind::Northcott(r), AnyPosition::Board(p), AnyMove::Northcott(m)) => Ok(r.check(p, m)?),
            (Kind::Fibonacci(r), AnyPosition::Fib(p), AnyMove::Fib(m)) => Ok(r.check(p, m)?),
            (Kind::Chomp(r), AnyPosition::Bar(p), AnyMove::Chomp(m)) => Ok(r.check(p, m)?),
            _ => Err(AnyIllegal::Mismatch),
        }
    }

    fn apply(&self, position: &mut AnyPosition, mv: AnyMove) {
        match (&self.kind, position, mv) {
            (Kind::Nim(r), AnyPosition::Heaps(p), AnyMove::Nim(m)) => r.apply(p, m),
            (Kind::Heap(r), AnyPosition::Heaps(p), AnyMove::Heap(m)) => r.apply(p, m),
            (Kind::Moore(r), AnyPosition::Heaps(p), AnyMove::Moore(m)) => r.apply(p, m),
            (Kind::Wythoff(r), AnyPosition::Pairs(p), AnyMove::Wythoff(m)) => r.apply(p, m),
            (Kind::Staircase(r), AnyPosition::Stairs(p), AnyMove::Stair(m)) => r.apply(p, m),
            (Kind::Northcott(r), AnyPosition::Board(p), AnyMove::Northcott(m)) => r.apply(p, m),
            (Kind::Fibonacci(r), AnyPosition::Fib(p), AnyMove::Fib(m)) => r.apply(p, m),
            (Kind::Chomp(r), AnyPosition::Bar(p), AnyMove::Chomp(m)) => r.apply(p, m),
            _ => {}
        }
    }

    fn legal_moves(&self, position: &AnyPosition) -> impl Iterator<Item = AnyMove> {
        match (&self.kind, position) {
            (Kind::Nim(r), AnyPosition::Heaps(p)) => Moves::Nim(r.legal_moves(p).map(AnyMove::Nim)),
            (Kind::Heap(r), AnyPosition::Heaps(p)) => Moves::Heap(r.legal_moves(p).map(AnyMove::Heap)),
            (Kind::Moore(r), AnyPosition::Heaps(p)) => Moves::Moore(r.legal_moves(p).map(AnyMove::Moore)),
            (Kind::Wythoff(r), AnyPosition::Pairs(p)) => Moves::Wythoff(r.legal_moves(p).map(AnyMove::Wythoff)),
            (Kind::Staircase(r), AnyPosition::Stairs(p)) => Moves::Stair(r.legal_moves(p).map(AnyMove::Stair)),
            (Kind::Northcott(r), AnyPosition::Board(p)) => Moves::Northcott(r.legal_moves(p).map(AnyMove::Northcott)),
            (Kind::Fibonacci(r), AnyPosition::Fib(p)) => Moves::Fib(r.legal_moves(p).map(AnyMove::Fib)),
            (Kind::Chomp(r), AnyPosition::Bar(p)) => Moves::Chomp(r.legal_moves(p).map(AnyMove::Chomp)),
            _ => Moves::None,
        }
    }

    fn is_over(&self, position: &AnyPosition) -> bool {
        match (&self.kind, position) {
            (Kind::Nim(r), AnyPosition::Heaps(p)) => r.is_over(p),
            (Kind::Heap(r), AnyPosition::Heaps(p)) => r.is_over(p),
            (Kind::Moore(r), AnyPosition::Heaps(p)) => r.is_over(p),
            (Kind::Wythoff(r), AnyPosition::Pairs(p)) => r.is_over(p),
            (Kind::Staircase(r), AnyPosition::Stairs(p)) => r.is_over(p),
            (Kind::Northcott(r), AnyPosition::Board(p)) => r.is_over(p),
            (Kind::Fibonacci(r), AnyPosition::Fib(p)) => r.is_over(p),
            (Kind::Chomp(r), AnyPosition::Bar(p)) => r.is_over(p),
            _ => true,
        }
    }
}

/// The legal moves of whichever rule set, without boxing.
enum Moves<A, B, C, D, E, F, G, H> {
    Nim(A),
    Heap(B),
    Moore(C),
    Wythoff(D),
    Stair(E),
    Northcott(F),
    Fib(G),
    Chomp(H),
    None,
}

impl<A, B, C, D, E, F, G, H> Iterator for Moves<A, B, C, D, E, F, G, H>
where
    A: Iterator<Item = AnyMove>,
    B: Iterator<Item = AnyMove>,
    C: Iterator<Item = AnyMove>,
    D: Iterator<Item = AnyMove>,
    E: Iterator<Item = AnyMove>,
    F: Iterator<Item = AnyMove>,
    G: Iterator<Item = AnyMove>,
    H: Iterator<Item = AnyMove>,
{
    type Item = AnyMove;

    fn next(&mut self) -> Option<AnyMove> {
        match self {
            Moves::Nim(i) => i.next(),
            Moves::Heap(i) => i.next(),
            Moves::Moore(i) => i.next(),
            Moves::Wythoff(i) => i.next(),
            Moves::Stair(i) => i.next(),
            Moves::Northcott(i) => i.next(),
            Moves::Fib(i) => i.next(),
            Moves::Chomp(i) => i.next(),
            Moves::None => None,
        }
    }
}
