//! The computer's turns. Choosing a move can take a while — a misère search,
//! Moore's Nim_k with many heaps — so it never runs on the storage thread,
//! where it would hold up every other game: the game read for the person's
//! move is kept in memory, the computer's move chosen from it on the compute
//! pool within the server's budget ([`choose`]), and stored only if the game
//! has not changed meanwhile ([`commit`]: only the version is read back).

use bouton_games::{AnyMove, Budget};
use bouton_players::GrundyPlayer;
use bouton_players::{Level, Player};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::error::ApiError;
use crate::mode::{Mode, SeatKind};
use crate::record::Record;
use crate::service::save_progress;
use crate::store::{Conn, games};

/// Whether the computer is to move now by itself (demo games move only when
/// stepped).
pub fn should_move(record: &Record) -> bool {
    record.mode != Mode::Demo && !record.game.is_over() && record.seat(record.game.to_move()) == SeatKind::Computer
}

/// The generator for the computer's choice at the current ply: seeded by the
/// game's seed and the ply, so any server instance makes the same choice.
pub fn rng(record: &Record) -> ChaCha8Rng {
    let ply = record.game.moves().len() as u64;
    ChaCha8Rng::seed_from_u64(record.seed ^ ply.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The computer's move at its level: the library's player for every rule
/// set, thinking within `budget` (theory first: Nim's and the other closed
/// forms need no search). When the budget runs out
/// (or its cancel flag is raised) the move is a random legal one, drawn
/// without listing the legal moves.
pub fn choose(record: &Record, budget: &Budget) -> Option<AnyMove> {
    let mut rng = rng(record);
    let level = record.level.unwrap_or(Level::Perfect);
    GrundyPlayer::new(level).with_budget(budget.clone()).choose(&record.game, &mut rng)
}

/// Stores the computer's move `mv`, chosen in `record`, and answers the
/// game after it; does nothing and answers `None` if the stored game has
/// changed since `record` was read (only its version is read back).
pub async fn commit(conn: &mut Conn, mut record: Record, mv: AnyMove) -> Result<Option<Record>, ApiError> {
    if games::version(conn, &record.id).await? != Some(record.version) {
        return Ok(None);
    }
    let before = record.game.moves().len();
    record.game.play(mv).map_err(|e| ApiError::Internal(format!("the computer chose an illegal move: {e}")))?;
    save_progress(conn, &mut record, before).await?;
    Ok(Some(record))
}

#[cfg(test)]
mod tests {
    use bouton_games::{Budget, Cancel};
    use bouton_rules::{Convention, Rules};

    use super::*;

    fn record(rules: &str, convention: Convention, start: &[u64]) -> Record {
        Record::for_tests("test", rules, convention, start, Mode::ComputerFirst)
    }

    #[test]
    fn past_its_budget_the_computer_still_plays_a_legal_move() {
        for (rules, convention) in [("lasker", Convention::Misere), ("kayles", Convention::Misere)] {
            let record = record(rules, convention, &[50; 12]);
            let tiny = Budget::new(1_000, 1 << 20);
            let mv = choose(&record, &tiny).expect("a move");
            assert!(record.game.rules().check(record.game.position(), mv).is_ok(), "{rules}: {mv}");
        }
    }

    #[test]
    fn a_called_off_computer_move_is_still_legal() {
        let record = record("moore:8", Convention::Normal, &[50; 12]);
        let cancel = Cancel::new();
        cancel.cancel();
        let mv = choose(&record, &crate::limits::search_budget().with_cancel(cancel)).expect("a move");
        assert!(record.game.rules().check(record.game.position(), mv).is_ok());
    }

    #[test]
    fn moores_nim_of_twelve_heaps_of_fifty_is_won_by_the_theorem() {
        // Moore's theorem gives the winning move at once: the perfect
        // computer leaves a lost position.
        for convention in [Convention::Normal, Convention::Misere] {
            let record = record("moore:8", convention, &[50; 12]);
            let rules = record.game.rules().clone();
            let mv = choose(&record, &crate::limits::search_budget()).expect("a move");
            let mut after = record.game.position().clone();
            rules.apply(&mut after, mv);
            let analysis = rules.analyze(&after).expect("Moore's theorem");
            assert_eq!(analysis.winner, bouton_analysis::Winner::Opponent, "{convention:?}: {mv}");
        }
    }
}
