//! Help for players: a hint for the player to move and a review of the
//! game's first mistakes. Pure functions of a game and a budget, run on the
//! compute pool (an analysis may search).

use bouton_analysis::Winner;
use bouton_games::{AnalysisError, AnyMove, AnyPosition, Budget, Method, MisereReading};
use bouton_rules::{Convention, Rules, Side};
use serde::Serialize;

use crate::record::Record;
use crate::views::{MoveView, side_name};

/// `GET /api/games/{id}/hint`.
#[derive(Debug, Clone, Serialize)]
pub struct HintView {
    /// Who wins from here with perfect play (null when not known).
    pub winner: Option<Winner>,
    /// Nim: the nim-sum; other rule sets in normal play: the Grundy value of
    /// the whole position, when known (null in misère play).
    pub nim_sum: Option<u64>,
    /// How many moves win (null when not known).
    pub winning_moves: Option<usize>,
    /// A best move: a winning one, or the hardest for the opponent.
    pub suggestion: Option<MoveView>,
    /// Why no analysis is available, when it is not.
    pub unavailable: Option<String>,
    /// Where the misère quotient decides: the position read through it,
    /// with the suggestion as the move explained (why it wins: the product
    /// it leaves is in the P-portion); null otherwise.
    pub quotient: Option<MisereReading>,
}

/// A hint for the player to move, found within `budget` (the analysis and,
/// in a lost position, the search for the toughest move share its clock).
/// Past the budget the hint says so in `unavailable`.
pub fn hint(record: &Record, budget: &Budget) -> HintView {
    let budget = &budget.started();
    let rules = record.game.rules();
    let position = record.game.position();
    let analysis = match rules.analyze_within(position, budget) {
        Ok(analysis) => analysis,
        Err(e) => {
            return HintView {
                winner: None,
                nim_sum: None,
                winning_moves: None,
                suggestion: None,
                unavailable: Some(e.to_string()),
                quotient: None,
            };
        }
    };
    let suggestion = match analysis.winner {
        Winner::Mover => rules.progressive(position, &analysis.winning_moves).first().copied(),
        // The one policy for a lost position, as the computer's and the
        // terminal's: the first of the moves leaving the fewest winning replies.
        Winner::Opponent => rules.toughest(position, budget).and_then(|t| t.moves.first().copied()),
    };
    let quotient = (analysis.method == Method::MisereQuotient)
        .then(|| rules.misere_reading(position, suggestion.as_ref()))
        .flatten();
    HintView {
        winner: Some(analysis.winner),
        // In misère play a search's value is not a Grundy value: not shown.
        nim_sum: analysis.total.filter(|_| rules.convention() == Convention::Normal),
        winning_moves: Some(analysis.winning_moves.len()),
        suggestion: suggestion.map(|mv| MoveView::new(rules, position, mv)),
        unavailable: None,
        quotient,
    }
}

/// A side's first mistake: a move from a won position that gave the win away.
#[derive(Debug, Clone, Serialize)]
pub struct MistakeView {
    /// "first" or "second".
    pub side: &'static str,
    /// Which move of the game, from 1.
    pub move_number: usize,
    /// The move played.
    pub played: MoveView,
    /// A winning move that was available.
    pub better: MoveView,
}

/// `GET /api/games/{id}/review`.
#[derive(Debug, Clone, Serialize)]
pub struct ReviewView {
    /// Each side's first mistake, or null if it made none.
    pub first: Option<MistakeView>,
    /// The second side's.
    pub second: Option<MistakeView>,
    /// Moves played from positions that could not be analysed (misère
    /// positions too large to search): they are not judged.
    pub unjudged: usize,
}

/// Finds each side's first mistake, within one `budget` for the whole
/// game: its clock starts once, so a game of a thousand moves takes no
/// longer than one of ten, and moves it leaves unjudged are counted as such.
///
/// Moves are judged from the last back: the positions of a game's end are
/// the smallest, and searchable where the opening's are not, so past the
/// first position too large for the budget the earlier ones are left
/// unjudged without trying. A move from a won position is a mistake when it
/// is not among the position's winning moves, or, where those are not all
/// listed (Moore's Nim_k), when the position it leaves is won for the
/// opponent.
pub fn review(record: &Record, budget: &Budget) -> ReviewView {
    let budget = &budget.started();
    let game = &record.game;
    let rules = game.rules();
    let history: Vec<(&AnyPosition, AnyMove)> = game.history().collect();
    // Who wins from the position after the move being judged.
    let mut after: Option<Winner> = match game.outcome() {
        Some(outcome) if outcome.winner == Side::after_moves(history.len()) => Some(Winner::Mover),
        Some(_) => Some(Winner::Opponent),
        None => rules.analyze_within(game.position(), budget).ok().map(|a| a.winner),
    };
    // Each move's verdict: a better move if it was a mistake, `None` if it
    // was not; unjudged moves have none.
    let mut verdicts: Vec<Option<Option<AnyMove>>> = vec![None; history.len()];
    for (ply, &(position, mv)) in history.iter().enumerate().rev() {
        match rules.analyze_within(position, budget) {
            Ok(a) => {
                verdicts[ply] = if a.winner != Winner::Mover || a.winning_moves.contains(&mv) {
                    Some(None)
                } else if a.complete || after == Some(Winner::Mover) {
                    rules.progressive(position, &a.winning_moves).first().map(|&better| Some(better))
                } else if after == Some(Winner::Opponent) {
                    Some(None)
                } else {
                    None
                };
                after = Some(a.winner);
            }
            Err(AnalysisError::OverBudget { .. }) => break,
            Err(AnalysisError::NotAvailable { .. }) => after = None,
        }
    }
    let mut found: [Option<MistakeView>; 2] = [None, None];
    let mut unjudged = 0;
    for (ply, (&(position, mv), verdict)) in history.iter().zip(&verdicts).enumerate() {
        let side = Side::after_moves(ply);
        match (&found[side.index()], verdict) {
            (Some(_), _) | (None, Some(None)) => {}
            (None, None) => unjudged += 1,
            (None, Some(Some(better))) => {
                found[side.index()] = Some(MistakeView {
                    side: side_name(side),
                    move_number: ply + 1,
                    played: MoveView::new(rules, position, mv),
                    better: MoveView::new(rules, position, *better),
                });
            }
        }
    }
    let [first, second] = found;
    ReviewView { first, second, unjudged }
}
