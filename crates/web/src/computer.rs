//! The computer's turns. Choosing a move can take a while — a misère search,
//! Moore's Nim_k with many heaps — so it never runs on the storage thread,
//! where it would hold up every other game: the game is read there
//! ([`to_move`]), the move chosen on a blocking thread ([`choose`]), and
//! stored only if the game has not changed meanwhile ([`commit`]).

use bouton_grundy::{AnyMove, AnyPosition, GrundyPlayer, RuleSet};
use bouton_players::{Level, Player};
use bouton_rules::{Game, Nim, Rules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rusqlite::Connection;

use crate::error::ApiError;
use crate::mode::{Mode, SeatKind};
use crate::record::Record;
use crate::service::save_progress;
use crate::store::games;

/// Whether the computer is to move now by itself (demo games move only when
/// stepped).
pub fn should_move(record: &Record) -> bool {
    record.mode != Mode::Demo && !record.game.is_over() && record.seat(record.game.to_move()) == SeatKind::Computer
}

/// The game, if the computer is to move in it now.
pub fn to_move(conn: &Connection, id: &str) -> Result<Option<Record>, ApiError> {
    let record = games::load(conn, id)?;
    Ok(should_move(&record).then_some(record))
}

/// The generator for the computer's choice at the current ply: seeded by the
/// game's seed and the ply, so any server instance makes the same choice.
pub fn rng(record: &Record) -> ChaCha8Rng {
    let ply = record.game.moves().len() as u64;
    ChaCha8Rng::seed_from_u64(record.seed ^ ply.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The computer's move at its level: in Nim the players of
/// `bouton-players`, in every other rule set the Grundy-value player.
pub fn choose(record: &Record) -> Option<AnyMove> {
    let mut rng = rng(record);
    let level = record.level.unwrap_or(Level::Perfect);
    let rules = record.game.rules();
    match (rules.rule_set(), record.game.position()) {
        (RuleSet::Nim, AnyPosition::Heaps(heaps)) => Game::new(Nim::new(rules.convention()), heaps.clone())
            .ok()
            .and_then(|nim| level.player().choose(&nim, &mut rng))
            .map(AnyMove::Nim),
        _ => GrundyPlayer::new(level).choose(&record.game, &mut rng),
    }
}

/// Stores the computer's move `mv`, chosen in the game at `version`; does
/// nothing and answers false if the game has changed since.
pub fn commit(conn: &Connection, id: &str, version: i64, mv: AnyMove) -> Result<bool, ApiError> {
    let mut record = games::load(conn, id)?;
    if record.version != version {
        return Ok(false);
    }
    let before = record.game.moves().len();
    record.game.play(mv).map_err(|e| ApiError::Storage(format!("the computer chose an illegal move: {e}")))?;
    save_progress(conn, &mut record, before)?;
    Ok(true)
}
