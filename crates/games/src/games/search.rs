//! Analysis by exhaustive search, for the games and conventions no theory
//! decides (misère play of most games, Chomp): one shared implementation.

use crate::game::{Game, winner};
use crate::{Analysis, AnalysisError, Budget, Canonical, Component, Exhaustive, Method};

/// The analysis of `position` by an exhaustive search within `budget`;
/// `components` name the position's parts (a single part gets the value of
/// the whole).
pub(crate) fn searched<G: Game + Canonical>(
    game: &G,
    position: &G::Position,
    budget: &Budget,
    mut components: Vec<Component>,
) -> Result<Analysis<G::Move>, AnalysisError> {
    let mut search = Exhaustive::new(game.clone(), budget.clone());
    let value = search.value(position).map_err(|e| game.over_budget(e))?;
    let moves = search.winning_moves(position).map_err(|e| game.over_budget(e))?;
    if let [whole] = components.as_mut_slice() {
        whole.value = Some(u64::from(value));
    }
    Ok(Analysis {
        convention: game.convention(),
        winner: winner(value != 0),
        components,
        total: Some(u64::from(value)),
        winning_moves: moves,
        complete: true,
        method: Method::ExhaustiveSearch,
    })
}

/// [`Game::winning_replies`] by one exhaustive search shared among the
/// moves, so comparing many moves costs about as much as analysing the
/// position once.
pub(crate) fn replies_by_search<G: Game + Canonical>(
    game: &G,
    position: &G::Position,
    moves: &[G::Move],
    budget: &Budget,
) -> Vec<Option<usize>> {
    let mut search = Exhaustive::new(game.clone(), budget.clone());
    moves
        .iter()
        .map(|&mv| {
            let mut after = position.clone();
            game.apply(&mut after, mv);
            search.winning_moves(&after).ok().map(|w| w.len())
        })
        .collect()
}

/// [`Game::winning_replies`] for the games searched in misère play only:
/// one shared search in misère play, an analysis after each move in normal
/// play (where theory answers at once).
pub(crate) fn replies_searching_misere<G: Game + Canonical>(
    game: &G,
    position: &G::Position,
    moves: &[G::Move],
    budget: &Budget,
) -> Vec<Option<usize>> {
    match game.convention() {
        bouton_rules::Convention::Misere => replies_by_search(game, position, moves, budget),
        bouton_rules::Convention::Normal => crate::game::replies_by_analysis(game, position, moves, budget),
    }
}
