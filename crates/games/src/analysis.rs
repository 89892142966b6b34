use bouton_analysis::Winner;
use bouton_rules::Convention;
use serde::Serialize;

/// The most moves (or single-heap options) an analysis examines when it
/// lists winning moves; beyond it the list is marked incomplete.
pub const MOVE_BUDGET: u64 = 4_000_000;

/// What bouton knows about a position: who wins, the Grundy value of each
/// component and of the whole, and the winning moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Analysis<M> {
    /// Normal or misère play.
    pub convention: Convention,
    /// Who wins with perfect play.
    pub winner: Winner,
    /// The independent parts of the position and their Grundy values
    /// (normal play; `None` when not known or not meaningful).
    pub components: Vec<Component>,
    /// The value of the whole position: in normal play its Grundy value
    /// (the XOR of the components'), in a misère exhaustive search its
    /// misère nim-value; `None` when not computed (and from a misère
    /// quotient, whose elements are not numbers).
    pub total: Option<u64>,
    /// Winning moves (empty when the player to move loses).
    pub winning_moves: Vec<M>,
    /// Whether `winning_moves` is every winning move (false when the
    /// position was too large to list them all).
    pub complete: bool,
    /// How the answer was found.
    pub method: Method,
}

/// One independent part of a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Component {
    /// "heap 3", "pair 1", "row 2", …
    pub label: String,
    /// Its Grundy value, when known.
    pub value: Option<u64>,
}

impl Component {
    /// A component with a label and value.
    pub fn new(label: impl Into<String>, value: Option<u64>) -> Component {
        Component { label: label.into(), value }
    }
}

/// How an analysis was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Bouton's theorem: the nim-sum.
    NimSum,
    /// Bouton's misère rule.
    MisereNim,
    /// Sprague–Grundy: the XOR of the components' Grundy values.
    GrundyValues,
    /// Moore's theorem for Nim_k.
    MooreTheorem,
    /// Wythoff's losing pairs (⌊iφ⌋, ⌊iφ²⌋).
    WythoffPairs,
    /// Nim on the odd steps.
    OddSteps,
    /// Nim on the gaps.
    Gaps,
    /// The Zeckendorf representation.
    Zeckendorf,
    /// The misère quotient (Plambeck–Siegel): the product of the heaps'
    /// elements of a finite commutative monoid, in its P-portion or not.
    MisereQuotient,
    /// An exhaustive game-tree search.
    ExhaustiveSearch,
}

impl Method {
    /// The method in words.
    pub fn describe(self) -> &'static str {
        match self {
            Method::NimSum => "the nim-sum (Bouton's theorem)",
            Method::MisereNim => "Bouton's misère rule",
            Method::GrundyValues => "Grundy values (Sprague–Grundy theorem)",
            Method::MooreTheorem => "Moore's theorem: every binary column's count of 1s a multiple of k + 1",
            Method::WythoffPairs => "Wythoff's losing pairs (⌊iφ⌋, ⌊iφ²⌋), in exact integer arithmetic",
            Method::OddSteps => "Nim on the odd-numbered steps",
            Method::Gaps => "Nim on the gaps between the pieces",
            Method::Zeckendorf => "the Zeckendorf representation (sums of Fibonacci numbers)",
            Method::MisereQuotient => {
                "the misère quotient (Plambeck–Siegel): each heap is an element of a finite monoid, and the player \
                 to move loses exactly when the product of the heaps' elements is in the P-portion"
            }
            Method::ExhaustiveSearch => "an exhaustive search of the game tree",
        }
    }
}

/// Why no theory or search answers for a position, as a kind callers can
/// match.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unavailable {
    /// A heap's Grundy value is beyond what can be computed.
    #[error(transparent)]
    Values(#[from] crate::ValuesError),
    /// The values are known but no winning move could be built from them.
    #[error("no winning move was found from the Grundy values")]
    NoWinningMove,
    /// A sum of Wythoff pairs with a pile beyond the table of values.
    #[error("a sum of Wythoff pairs needs each pair's Grundy value, known here for piles up to {limit}")]
    WythoffTable {
        /// The largest pile with known values.
        limit: u64,
    },
    /// The game can go round in circles and no theory decides it.
    #[error("{game} can go round in circles, and no misère theory for it is known to bouton")]
    Cycles {
        /// The game's name.
        game: &'static str,
    },
    /// The position belongs to other rules.
    #[error("the position does not belong to these rules")]
    Mismatch,
}

/// Why a position cannot be analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// No theory applies and the position is too large to search.
    #[error("analysis not available for {rules}: {reason}")]
    NotAvailable {
        /// The rule set's name and convention.
        rules: String,
        /// Why.
        reason: Unavailable,
    },
    /// The analysis ran out of its budget (or was cancelled) before it
    /// found the answer.
    #[error("analysis not available within the limits for {rules}: {cause}")]
    OverBudget {
        /// The rule set's name and convention.
        rules: String,
        /// Which limit it reached.
        cause: crate::OverBudget,
    },
}

impl<M> Analysis<M> {
    /// The same analysis with its moves turned into other moves (the moves
    /// of one game into those of any game).
    pub fn map_moves<N>(self, f: impl FnMut(M) -> N) -> Analysis<N> {
        Analysis {
            convention: self.convention,
            winner: self.winner,
            components: self.components,
            total: self.total,
            winning_moves: self.winning_moves.into_iter().map(f).collect(),
            complete: self.complete,
            method: self.method,
        }
    }
}
