//! [`AnyRules`]: any registered game behind one type, for front-ends that
//! let the player choose. Every method dispatches to the game's own
//! [`Game`] implementation; nothing here knows one game from another.

use bouton_rules::{Convention, Rules};
use rand::RngCore;

use crate::game::{Game, MoveShape};
use crate::registry::{AnyIllegal, AnyMove, AnyPosition, Kind, Registered, dispatch, each_game};
use crate::{Analysis, AnalysisError, BoardKind, BoardView, Budget, HeapGame, MoveParseError, Phrase};
use crate::{RandomMove, RuleSet, RuleSetError, Unavailable};

/// Any of bouton's rule sets under a convention: it implements [`Rules`],
/// so `Game<AnyRules>` and the players work with every rule set, and it
/// reads positions and moves, says moves in words, draws boards and
/// analyses positions within a [`Budget`].
///
/// ```
/// use bouton_analysis::Winner;
/// use bouton_games::{AnyRules, RuleSet};
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
/// assert_eq!(rules.describe_move(&start, &rules.parse_move("1 1 3")?).to_string(), "take 1 from heap 1, leaving 3 and 3");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnyRules {
    set: RuleSet,
    kind: Kind,
    budget: Budget,
}

/// Why numbers are not a position of the rule set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Heaps.
    #[error(transparent)]
    Heaps(#[from] bouton_rules::HeapsError),
    /// Pairs.
    #[error(transparent)]
    Pairs(#[from] crate::PairsError),
    /// Stairs.
    #[error(transparent)]
    Stairs(#[from] crate::StairsError),
    /// Board.
    #[error(transparent)]
    Board(#[from] crate::BoardError),
    /// Fibonacci heap.
    #[error(transparent)]
    Fib(#[from] crate::FibError),
    /// Chomp bar.
    #[error(transparent)]
    Bar(#[from] crate::BarError),
}

impl AnyRules {
    /// The rule set under `convention`, with [`Budget::interactive`] for
    /// each analysis.
    pub fn new(set: RuleSet, convention: Convention) -> AnyRules {
        let kind = dispatch!(set.0.clone(), g => Kind::from(g.in_convention(convention)));
        AnyRules { set, kind, budget: Budget::interactive() }
    }

    /// Reads a rule set's name (see [`RuleSet`]) and builds it.
    ///
    /// # Errors
    /// An unknown name or a bad parameter.
    pub fn parse(text: &str, convention: Convention) -> Result<AnyRules, RuleSetError> {
        Ok(AnyRules::new(text.parse()?, convention))
    }

    /// The same rules with a different budget for each analysis: a server
    /// answering many players sets it low, so that a position too large to
    /// analyse is reported as such quickly.
    ///
    /// ```
    /// use bouton_games::{AnalysisError, AnyRules, Budget};
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

    /// The rule set, without its convention.
    pub fn rule_set(&self) -> &RuleSet {
        &self.set
    }

    /// What `--rules` takes for these rules: `subtraction:2,3,7`.
    pub fn id(&self) -> String {
        self.set.to_string()
    }

    /// The name and convention: "Kayles (0.77), misère play".
    pub fn title(&self) -> String {
        dispatch!(&self.kind, g => g.title())
    }

    /// The moves allowed, in one sentence.
    pub fn summary(&self) -> String {
        dispatch!(&self.kind, g => g.summary())
    }

    /// "whoever makes the last move wins" (or loses), in the game's words.
    pub fn last_move_rule(&self) -> &'static str {
        dispatch!(&self.kind, g => g.last_move_rule())
    }

    /// Whether every analysis is a closed form linear in the position's
    /// size (see [`Game::instant`]).
    pub fn instant(&self) -> bool {
        dispatch!(&self.kind, g => g.instant())
    }

    /// The take-and-break code behind a heap game.
    pub fn heap_game(&self) -> Option<HeapGame> {
        dispatch!(&self.kind, g => g.heap_game())
    }

    /// How positions are drawn.
    pub fn board_kind(&self) -> BoardKind {
        self.set.board_kind()
    }

    /// What one move may do, for pointing at the board.
    pub fn move_shape(&self) -> MoveShape {
        dispatch!(&self.kind, g => g.move_shape())
    }

    /// How a position is written as numbers.
    pub fn position_format(&self) -> &'static str {
        dispatch!(&self.kind, g => g.position_format())
    }

    /// A good start for a game.
    pub fn default_start(&self) -> Vec<u64> {
        dispatch!(&self.kind, g => g.default_start())
    }

    /// A random start of `parts` parts with numbers up to `max`, as
    /// numbers ([`AnyRules::position`] reads them).
    pub fn random_start(&self, parts: usize, max: u64, rng: &mut dyn RngCore) -> Vec<u64> {
        dispatch!(&self.kind, g => g.random_start(parts, max, rng))
    }

    /// The position given as numbers (see [`RuleSet::position_format`]).
    ///
    /// # Errors
    /// Numbers that do not make a position of this rule set.
    pub fn position(&self, numbers: &[u64]) -> Result<AnyPosition, PositionError> {
        dispatch!(&self.kind, g => g.position(numbers).map(|p| g.wrap_position(p)))
    }

    /// The position as numbers, the form [`AnyRules::position`] reads.
    pub fn numbers(&self, position: &AnyPosition) -> Vec<u64> {
        dispatch!(&self.kind, g => g.position_of(position).map(|p| g.numbers(p)).unwrap_or_default())
    }

    /// The position as it is drawn.
    ///
    /// ```
    /// use bouton_games::{AnyRules, BoardView};
    /// use bouton_rules::Convention;
    ///
    /// let rules = AnyRules::parse("chomp", Convention::Normal)?;
    /// assert_eq!(rules.board(&rules.position(&[3, 2])?), BoardView::Grid { columns: vec![3, 2] });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn board(&self, position: &AnyPosition) -> BoardView {
        dispatch!(&self.kind, g => match g.position_of(position) {
            Some(p) => g.board(p),
            None => BoardView::Heaps { heaps: Vec::new() },
        })
    }

    /// The position in one sentence: "Heaps: 3 5 7."
    pub fn describe_position(&self, position: &AnyPosition) -> String {
        dispatch!(&self.kind, g => g.position_of(position).map(|p| g.describe_position(p)).unwrap_or_default())
    }

    /// Reads a move typed by a person or stored in a file.
    ///
    /// # Errors
    /// Text that is not a move of this rule set.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, MoveParseError> {
        dispatch!(&self.kind, g => g.parse_move(text).map(|m| g.wrap_move(m)))
    }

    /// What a typed move is made of: "HEAP AMOUNT", or "MOVE".
    pub fn move_syntax(&self) -> &'static str {
        dispatch!(&self.kind, g => g.move_syntax())
    }

    /// What the player who ended the game did: "made the last move".
    pub fn last_move_words(&self) -> &'static str {
        dispatch!(&self.kind, g => g.last_move_words())
    }

    /// How to type a move, with an example.
    pub fn move_help(&self) -> &'static str {
        dispatch!(&self.kind, g => g.move_help())
    }

    /// The move in words, as played from `before`.
    pub fn describe_move(&self, before: &AnyPosition, mv: &AnyMove) -> Phrase {
        dispatch!(&self.kind, g => match (g.position_of(before), g.move_of(mv)) {
            (Some(p), Some(m)) => g.describe_move(p, &m),
            _ => Phrase::new(crate::Verb::Move, mv.to_string()),
        })
    }

    /// The move as a plain take, `(heap counted from 0, tokens)`, when those
    /// two numbers alone say what it does (as every move of Nim); `None`
    /// otherwise.
    ///
    /// ```
    /// use bouton_games::AnyRules;
    /// use bouton_rules::Convention;
    ///
    /// let nim = AnyRules::parse("nim", Convention::Normal)?;
    /// assert_eq!(nim.as_take(&nim.parse_move("3 2")?), Some((2, 2)));
    /// let kayles = AnyRules::parse("kayles", Convention::Normal)?;
    /// assert_eq!(kayles.as_take(&kayles.parse_move("1 2")?), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_take(&self, mv: &AnyMove) -> Option<(usize, u64)> {
        dispatch!(&self.kind, g => g.move_of(mv).and_then(|m| g.as_take(&m)))
    }

    /// Who wins, the Grundy values, and the winning moves, within the
    /// rules' own budget.
    ///
    /// Normal play: every rule set, through Grundy values or its closed
    /// form. Misère play: Nim and Moore's Nim_k by their theorems, the rest
    /// by exhaustive search within the budget.
    ///
    /// # Errors
    /// [`AnalysisError::NotAvailable`] when no theory applies and no search
    /// can (Northcott's game in misère play goes round in circles);
    /// [`AnalysisError::OverBudget`] when the budget runs out.
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
    /// use bouton_games::{AnalysisError, AnyRules, Budget, Cancel};
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
        dispatch!(&self.kind, g => match g.position_of(position) {
            Some(p) => g.analyze(p, budget).map(|a| a.map_moves(|m| g.wrap_move(m))),
            None => Err(g.not_available(Unavailable::Mismatch)),
        })
    }

    /// For each of `moves` from `position`, how many winning replies the
    /// opponent has after it (0 when it leaves them lost), or `None` where
    /// that cannot be analysed. Where positions are searched (misère play
    /// without a theory, Chomp) one search serves every move, so comparing
    /// many moves costs about as much as analysing the position once. All
    /// of it runs within one `budget` (its clock started once, its
    /// operations shared among the moves).
    ///
    /// ```
    /// use bouton_games::{AnyRules, Budget};
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
    ///     assert_eq!(*replies == Some(0), rules.numbers(&after) == [1], "{mv}");
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn winning_replies(&self, position: &AnyPosition, moves: &[AnyMove], budget: &Budget) -> Vec<Option<usize>> {
        let budget = &budget.started();
        dispatch!(&self.kind, g => match g.position_of(position) {
            Some(p) => {
                let own: Vec<_> = moves.iter().filter_map(|m| g.move_of(m)).collect();
                if own.len() == moves.len() { g.winning_replies(p, &own, budget) } else { vec![None; moves.len()] }
            }
            None => vec![None; moves.len()],
        })
    }

    /// A random legal move, drawn without listing every legal move (see
    /// [`RandomMove`]); `None` when there is none.
    ///
    /// ```
    /// use bouton_games::AnyRules;
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
    pub fn random_move(&self, position: &AnyPosition, rng: &mut dyn RngCore) -> Option<AnyMove> {
        dispatch!(&self.kind, g => g.position_of(position).and_then(|p| g.random_move(p, rng)).map(|m| g.wrap_move(m)))
    }

    /// The winning moves a perfect player should prefer: in Northcott's
    /// game those that close a gap (so that the game makes progress), in
    /// every other game all of them.
    pub fn progressive(&self, position: &AnyPosition, moves: &[AnyMove]) -> Vec<AnyMove> {
        dispatch!(&self.kind, g => match g.position_of(position) {
            Some(p) => {
                let own: Vec<_> = moves.iter().filter_map(|m| g.move_of(m)).collect();
                g.progressive(p, &own).into_iter().map(|m| g.wrap_move(m)).collect()
            }
            None => moves.to_vec(),
        })
    }
}

impl Rules for AnyRules {
    type Position = AnyPosition;
    type Move = AnyMove;
    type Illegal = AnyIllegal;

    fn convention(&self) -> Convention {
        dispatch!(&self.kind, g => g.convention())
    }

    fn check(&self, position: &AnyPosition, mv: AnyMove) -> Result<(), AnyIllegal> {
        dispatch!(&self.kind, g => match (g.position_of(position), g.move_of(&mv)) {
            (Some(p), Some(m)) => g.check(p, m).map_err(|e| g.wrap_illegal(e)),
            _ => Err(AnyIllegal::Mismatch),
        })
    }

    /// Applies a move already checked; a move or position of another rule
    /// set (which [`Rules::check`] refuses) changes nothing.
    fn apply(&self, position: &mut AnyPosition, mv: AnyMove) {
        dispatch!(&self.kind, g => if let (Some(m), Some(p)) = (g.move_of(&mv), g.position_of_mut(position)) {
            g.apply(p, m);
        })
    }

    fn legal_moves(&self, position: &AnyPosition) -> impl Iterator<Item = AnyMove> {
        self.kind.legal_moves(position)
    }

    fn is_over(&self, position: &AnyPosition) -> bool {
        dispatch!(&self.kind, g => g.position_of(position).is_none_or(|p| g.is_over(p)))
    }
}
