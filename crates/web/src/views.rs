//! The JSON the API sends, built from library types. Heaps (and pairs,
//! steps, rows, columns) are counted from 1 everywhere in the API, as
//! players count them.

use bouton_analysis::{Advice, Analysis, Explanation, Winner};
use bouton_games::{AnyMove, AnyPosition, AnyRules};
use bouton_rules::{Convention, NimMove, Rules, Side};
use serde::Serialize;

use crate::board::{BoardView, RulesView, last_move_rule};
use crate::mode::{Mode, SeatKind};
use crate::record::{Access, Record};

/// A move: its text form (what `POST /api/games/{id}/moves` takes as
/// `move`), in words, and for a plain take (every move of Nim) the heap
/// and amount.
///
/// ```
/// use bouton_rules::NimMove;
/// use bouton_web::views::MoveView;
///
/// let view = MoveView::from(NimMove::new(2, 4));
/// assert_eq!((view.heap, view.take), (Some(3), Some(4)));
/// assert_eq!(view.description, "take 4 from heap 3");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveView {
    /// The heap, from 1 (plain takes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heap: Option<usize>,
    /// How many tokens (plain takes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub take: Option<u64>,
    /// The move as typed: `3:2`, `1:1:3`, ….
    pub text: String,
    /// The move in words.
    pub description: String,
}

impl From<NimMove> for MoveView {
    fn from(mv: NimMove) -> MoveView {
        MoveView {
            heap: Some(mv.heap_number()),
            take: Some(mv.take),
            text: mv.to_string(),
            description: format!("take {} from heap {}", mv.take, mv.heap_number()),
        }
    }
}

impl MoveView {
    /// The view of `mv` played from `before` under `rules` (with `heap` and
    /// `take` where the rules say it is a plain take).
    pub fn new(rules: &AnyRules, before: &AnyPosition, mv: AnyMove) -> MoveView {
        let take = rules.as_take(&mv);
        MoveView {
            heap: take.map(|(heap, _)| heap + 1),
            take: take.map(|(_, tokens)| tokens),
            text: mv.to_string(),
            description: rules.describe_move(before, &mv).to_string(),
        }
    }
}

/// A played move and who played it. A plain take (every move of Nim) is its
/// `heap` and `take` (from them a client has everything, and long games stay
/// small); any other move is its `text`, its `description` and the position
/// `after` it, which only the rules can work out.
#[derive(Debug, Clone, Serialize)]
pub struct PlayedView {
    /// A plain take: the heap, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heap: Option<usize>,
    /// A plain take: how many tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub take: Option<u64>,
    /// Any other move: the move as typed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Any other move: the move in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Any other move: the position after the move, as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// "first" or "second".
    pub side: &'static str,
    /// "human" or "computer".
    pub by: SeatKind,
}

impl PlayedView {
    /// `mv`, played from `before` to `after` by `side`.
    fn new(rules: &AnyRules, before: &AnyPosition, mv: AnyMove, after: &AnyPosition, side: Side, by: SeatKind) -> Self {
        let side = side_name(side);
        match rules.as_take(&mv) {
            Some((heap, take)) => PlayedView {
                heap: Some(heap + 1),
                take: Some(take),
                text: None,
                description: None,
                after: None,
                side,
                by,
            },
            None => PlayedView {
                heap: None,
                take: None,
                text: Some(mv.to_string()),
                description: Some(rules.describe_move(before, &mv).to_string()),
                after: Some(after.to_string()),
                side,
                by,
            },
        }
    }
}

/// A seat.
#[derive(Debug, Clone, Serialize)]
pub struct SeatView {
    /// Human or computer.
    pub kind: SeatKind,
    /// For an online guest seat: whether somebody has taken it.
    pub taken: bool,
}

/// A game's state as anyone may see it, plus what the asker may do.
#[derive(Debug, Clone, Serialize)]
pub struct GameView {
    /// The id.
    pub id: String,
    /// Who plays.
    pub mode: Mode,
    /// Misère play?
    pub misere: bool,
    /// Who wins, in one sentence.
    pub rule: &'static str,
    /// The rule set.
    pub rules: RulesView,
    /// The computer's level.
    pub level: Option<String>,
    /// The position at the start, as numbers (for Nim, the heaps).
    pub start: Vec<u64>,
    /// The position now, as numbers (for Nim, the heaps).
    pub heaps: Vec<u64>,
    /// The position now, as the page draws it.
    pub board: BoardView,
    /// Every move so far.
    pub moves: Vec<PlayedView>,
    /// How many moves have been played: send it back with a move.
    pub ply: usize,
    /// Whose turn, or null when the game is over.
    pub to_move: Option<&'static str>,
    /// The two seats.
    pub seats: [SeatView; 2],
    /// Whether the game is over.
    pub over: bool,
    /// The winner, once the game is over.
    pub winner: Option<&'static str>,
    /// Bumped by every change.
    pub version: i64,
    /// The seat the request's token holds: "first", "second", "both", or null.
    pub your_seat: Option<&'static str>,
    /// Whether hints and the analysis of the position are open now: false
    /// only while an online game runs whose creator did not allow them.
    pub help: bool,
}

/// "first" or "second".
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

impl GameView {
    /// The view of `record` for a request holding `access`.
    pub fn new(record: &Record, access: Access) -> GameView {
        let game = &record.game;
        let rules = game.rules();
        let befores: Vec<&AnyPosition> = game.history().map(|(position, _)| position).collect();
        let moves = game
            .history()
            .enumerate()
            .map(|(ply, (before, mv))| {
                let side = Side::after_moves(ply);
                let after = befores.get(ply + 1).copied().unwrap_or(game.position());
                PlayedView::new(rules, before, mv, after, side, record.seat(side))
            })
            .collect();
        let seats = [Side::First, Side::Second].map(|side| SeatView {
            kind: record.seat(side),
            taken: !(record.mode == Mode::Online && side == Side::Second && record.guest_token.is_none()),
        });
        GameView {
            id: record.id.clone(),
            mode: record.mode,
            misere: rules.convention() == Convention::Misere,
            rule: last_move_rule(rules),
            rules: RulesView::new(rules),
            level: record.level.map(|l| l.name().to_owned()),
            start: rules.numbers(game.start()),
            heaps: rules.numbers(game.position()),
            board: rules.board(game.position()),
            moves,
            ply: game.moves().len(),
            to_move: (!game.is_over()).then(|| side_name(game.to_move())),
            seats,
            over: game.is_over(),
            winner: game.outcome().map(|o| side_name(o.winner)),
            version: record.version,
            your_seat: access.name(),
            help: record.help_now(),
        }
    }
}

/// The binary table, as in the `explain` command.
#[derive(Debug, Clone, Serialize)]
pub struct TableView {
    /// Column bit numbers, most significant first (column 0 is the 1s).
    pub columns: Vec<u32>,
    /// Each heap's bits in those columns.
    pub rows: Vec<Vec<u8>>,
    /// Ones per column.
    pub ones: Vec<u32>,
    /// Whether each column is odd.
    pub odd: Vec<bool>,
    /// The reading of the table (in its JSON form, heaps from 1).
    pub advice: Advice,
}

/// A legal move and the nim-sum it leaves.
#[derive(Debug, Clone, Serialize)]
pub struct OptionView {
    /// The heap, from 1.
    pub heap: usize,
    /// How many tokens.
    pub take: u64,
    /// The nim-sum after it.
    pub nim_sum: u64,
    /// Whether it wins against perfect play.
    pub wins: bool,
}

/// Everything about a position: `GET /api/analyze`.
#[derive(Debug, Clone, Serialize)]
pub struct AnalysisView {
    /// The heaps.
    pub heaps: Vec<u64>,
    /// Misère play?
    pub misere: bool,
    /// The XOR of the heaps.
    pub nim_sum: u64,
    /// "mover" or "opponent".
    pub winner: Winner,
    /// Every winning move.
    pub winning_moves: Vec<MoveView>,
    /// The binary table.
    pub table: TableView,
    /// Every legal move with the nim-sum it leaves (omitted above
    /// [`MAX_LISTED_OPTIONS`] moves).
    pub moves: Option<Vec<OptionView>>,
}

/// The most legal moves listed by [`AnalysisView::moves`].
pub const MAX_LISTED_OPTIONS: u128 = 2_000;

impl AnalysisView {
    /// Analyses `heaps`.
    pub fn new(heaps: &[u64], convention: Convention) -> AnalysisView {
        let analysis = Analysis::new(heaps, convention);
        let explanation = Explanation::new(heaps, convention);
        let columns: Vec<u32> = explanation.columns().collect();
        let table = TableView {
            rows: (0..heaps.len())
                .map(|heap| columns.iter().map(|&c| u8::from(explanation.bit(heap, c))).collect())
                .collect(),
            ones: columns.iter().map(|&c| explanation.ones_in_column(c)).collect(),
            odd: columns.iter().map(|&c| explanation.is_odd(c)).collect(),
            advice: explanation.advice().clone(),
            columns,
        };
        let total: u128 = heaps.iter().map(|&h| u128::from(h)).sum();
        let moves = (total <= MAX_LISTED_OPTIONS).then(|| {
            heaps
                .iter()
                .enumerate()
                .flat_map(|(heap, &size)| {
                    let winning = analysis.winning_target(size).map(|t| size - t);
                    (1..=size).map(move |take| (heap, take, winning == Some(take)))
                })
                .map(|(heap, take, wins)| OptionView {
                    heap: heap + 1,
                    take,
                    nim_sum: analysis.nim_sum_after(heaps, NimMove::new(heap, take)),
                    wins,
                })
                .collect()
        });
        AnalysisView {
            heaps: heaps.to_vec(),
            misere: convention == Convention::Misere,
            nim_sum: analysis.nim_sum(),
            winner: analysis.winner(),
            winning_moves: analysis.winning_moves(heaps).map(MoveView::from).collect(),
            table,
            moves,
        }
    }
}
