//! Help for players: a hint for the player to move and a review of the
//! game's first mistakes. Pure functions of a game, run off the storage
//! thread (an analysis may search).

use bouton_analysis::{Analysis, Winner};
use bouton_grundy::{AnyMove, AnyPosition, GrundyPlayer, RuleSet};
use bouton_players::{Level, Player};
use bouton_rules::{Convention, Heaps, NimMove, Rules, Side};
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
}

/// A hint for the player to move.
pub fn hint(record: &Record) -> HintView {
    let rules = record.game.rules();
    let position = record.game.position();
    if let (RuleSet::Nim, AnyPosition::Heaps(heaps)) = (rules.rule_set(), position) {
        let heaps = heaps.as_slice();
        let convention = rules.convention();
        let analysis = Analysis::new(heaps, convention);
        let suggestion = match analysis.winner() {
            Winner::Mover => analysis.first_winning_move(heaps),
            Winner::Opponent => bouton_players::toughest_moves(heaps, convention).first().copied(),
        };
        return HintView {
            winner: Some(analysis.winner()),
            nim_sum: Some(analysis.nim_sum()),
            winning_moves: Some(analysis.count_winning_moves(heaps)),
            suggestion: suggestion.map(MoveView::from),
            unavailable: None,
        };
    }
    let analysis = match rules.analyze(position) {
        Ok(analysis) => analysis,
        Err(e) => {
            return HintView {
                winner: None,
                nim_sum: None,
                winning_moves: None,
                suggestion: None,
                unavailable: Some(e.to_string()),
            };
        }
    };
    let suggestion = match analysis.winner {
        Winner::Mover => rules.progressive(position, &analysis.winning_moves).first().copied(),
        // The perfect player's choice in a lost position: among a sample of
        // moves, one leaving the fewest winning replies.
        Winner::Opponent => GrundyPlayer::new(Level::Perfect).choose(&record.game, &mut crate::computer::rng(record)),
    };
    HintView {
        winner: Some(analysis.winner),
        // In misère play a search's value is not a Grundy value: not shown.
        nim_sum: analysis.total.filter(|_| rules.convention() == Convention::Normal),
        winning_moves: Some(analysis.winning_moves.len()),
        suggestion: suggestion.map(|mv| MoveView::new(rules, position, mv)),
        unavailable: None,
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

/// Finds each side's first mistake.
pub fn review(record: &Record) -> ReviewView {
    let rules = record.game.rules();
    let mut found: [Option<MistakeView>; 2] = [None, None];
    let mut unjudged = 0;
    for (ply, (position, mv)) in record.game.history().enumerate() {
        let side = Side::after_moves(ply);
        if found[side.index()].is_some() {
            continue;
        }
        let better = match (position, mv) {
            (AnyPosition::Heaps(heaps), AnyMove::Nim(nim)) => nim_mistake(heaps, nim, rules.convention()),
            _ => match rules.analyze(position) {
                Ok(a) if a.winner == Winner::Mover && a.complete && !a.winning_moves.contains(&mv) => {
                    rules.progressive(position, &a.winning_moves).first().copied()
                }
                Ok(_) => None,
                Err(_) => {
                    unjudged += 1;
                    None
                }
            },
        };
        if let Some(better) = better {
            found[side.index()] = Some(MistakeView {
                side: side_name(side),
                move_number: ply + 1,
                played: MoveView::new(rules, position, mv),
                better: MoveView::new(rules, position, better),
            });
        }
    }
    let [first, second] = found;
    ReviewView { first, second, unjudged }
}

/// A winning Nim move, if `mv` gave a won position away.
fn nim_mistake(heaps: &Heaps, mv: NimMove, convention: Convention) -> Option<AnyMove> {
    let heaps = heaps.as_slice();
    let analysis = Analysis::new(heaps, convention);
    let blunder = analysis.winner() == Winner::Mover && analysis.winning_move_in(mv.heap, heaps[mv.heap]) != Some(mv);
    blunder.then(|| analysis.first_winning_move(heaps)).flatten().map(AnyMove::Nim)
}
