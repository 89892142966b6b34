//! What each request does to a game, on the storage thread. The rules,
//! analysis and players come from the library; this only checks who may act,
//! calls the library, and stores the result.

use bouton_analysis::{Analysis, Winner};
use bouton_players::Level;
use bouton_rules::{Convention, Game, Heaps, Nim, NimMove, PlayError, Side};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::limits::{MAX_HEAP_SIZE, MAX_HEAPS};
use crate::mode::{Mode, SeatKind};
use crate::record::{Access, Record};
use crate::store::games;
use crate::views::{GameView, MoveView, side_name};

/// `POST /api/games`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// The heaps (default 3 5 7).
    #[serde(default)]
    pub heaps: Option<Vec<u64>>,
    /// Misère play.
    #[serde(default)]
    pub misere: bool,
    /// Who plays (default: against the computer, you first).
    #[serde(default = "default_mode")]
    pub mode: Mode,
    /// The computer's level (default hard).
    #[serde(default)]
    pub level: Option<String>,
}

fn default_mode() -> Mode {
    Mode::Computer
}

/// `POST /api/games/{id}/moves`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The heap, from 1.
    pub heap: u64,
    /// How many tokens.
    pub take: u64,
    /// The number of moves played in the state the player saw.
    pub ply: usize,
}

/// `POST /api/games/{id}/undo` and `/step`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlyRequest {
    /// The number of moves played in the state the player saw.
    pub ply: usize,
}

/// The answer to creating or joining a game.
#[derive(Debug, Clone, Serialize)]
pub struct SeatGrant {
    /// The game.
    pub game: GameView,
    /// The secret for moving: send it as `Authorization: Bearer TOKEN`.
    pub token: String,
    /// The seat it holds: "first", "second" or "both".
    pub seat: Option<&'static str>,
    /// The game's page, to share for online play or watching.
    pub link: String,
}

/// The randomness a new game needs, drawn by the caller.
#[derive(Debug, Clone)]
pub struct Secrets {
    /// The game's id.
    pub id: String,
    /// The owner's token.
    pub token: String,
    /// The computer's seed.
    pub seed: u64,
}

/// Checks a create request and turns it into a game.
pub fn new_game(request: &CreateRequest) -> Result<(Game<Nim>, Option<Level>), ApiError> {
    let sizes = request.heaps.clone().unwrap_or_else(|| vec![3, 5, 7]);
    if sizes.is_empty() || sizes.len() > MAX_HEAPS {
        return Err(ApiError::BadRequest(format!("a game has 1 to {MAX_HEAPS} heaps, not {}", sizes.len())));
    }
    if let Some(big) = sizes.iter().find(|&&h| h > MAX_HEAP_SIZE) {
        return Err(ApiError::BadRequest(format!("a heap holds at most {MAX_HEAP_SIZE} tokens, not {big}")));
    }
    let convention = if request.misere { Convention::Misere } else { Convention::Normal };
    let heaps = Heaps::new(sizes).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let game = Game::new(Nim::new(convention), heaps).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let level = match (&request.level, request.mode.has_computer()) {
        (_, false) => None,
        (None, true) => Some(Level::Hard),
        (Some(name), true) => Some(name.parse::<Level>().map_err(|e| ApiError::BadRequest(e.to_string()))?),
    };
    Ok((game, level))
}

/// Creates a game; in "computer-first" the computer moves at once.
pub fn create(conn: &Connection, request: &CreateRequest, secrets: Secrets) -> Result<SeatGrant, ApiError> {
    let (game, level) = new_game(request)?;
    let mut record = Record {
        id: secrets.id,
        mode: request.mode,
        level,
        seed: secrets.seed,
        owner_token: secrets.token,
        guest_token: None,
        version: 0,
        game,
    };
    computer_replies(&mut record);
    games::insert(conn, &record)?;
    let access = record.access(Some(&record.owner_token));
    Ok(SeatGrant {
        link: format!("/g/{}", record.id),
        token: record.owner_token.clone(),
        seat: access.name(),
        game: GameView::new(&record, access),
    })
}

/// The state of a game as seen by `token`'s holder (or a watcher).
pub fn view(conn: &Connection, id: &str, token: Option<&str>) -> Result<GameView, ApiError> {
    let record = games::load(conn, id)?;
    Ok(GameView::new(&record, record.access(token)))
}

/// Plays a person's move, then the computer's reply if it is the computer's
/// turn.
pub fn play(conn: &Connection, id: &str, token: Option<&str>, request: &MoveRequest) -> Result<GameView, ApiError> {
    let mut record = games::load(conn, id)?;
    let access = record.require_access(token)?;
    check_turn(&record, access, request.ply)?;
    let heap = usize::try_from(request.heap).unwrap_or(usize::MAX);
    if heap == 0 {
        return Err(ApiError::IllegalMove("there is no heap 0: heaps are numbered from 1".into()));
    }
    let before = record.game.moves().len();
    record.game.play(NimMove::new(heap - 1, request.take)).map_err(|e: PlayError<Nim>| ApiError::IllegalMove(e.to_string()))?;
    computer_replies(&mut record);
    save_progress(conn, &mut record, before)?;
    Ok(GameView::new(&record, access))
}

/// Plays one computer move in a demo game.
pub fn step(conn: &Connection, id: &str, token: Option<&str>, request: &PlyRequest) -> Result<GameView, ApiError> {
    let mut record = games::load(conn, id)?;
    let access = record.require_access(token)?;
    if record.mode != Mode::Demo {
        return Err(ApiError::Conflict("only demo games are stepped; the computer answers moves by itself".into()));
    }
    check_current(&record, request.ply)?;
    let before = record.game.moves().len();
    computer_move(&mut record);
    save_progress(conn, &mut record, before)?;
    Ok(GameView::new(&record, access))
}

/// Takes back the asker's last move (and the computer's reply); between two
/// people on one device, the last move.
pub fn undo(conn: &Connection, id: &str, token: Option<&str>, request: &PlyRequest) -> Result<GameView, ApiError> {
    let mut record = games::load(conn, id)?;
    let access = record.require_access(token)?;
    match record.mode {
        Mode::Online => return Err(ApiError::Conflict("undo is not available in online games".into())),
        Mode::Demo => return Err(ApiError::Conflict("undo is not available in demo games".into())),
        _ => {}
    }
    check_current(&record, request.ply)?;
    let moves = record.game.moves().len();
    let Some(index) = (0..moves).rev().find(|&i| access.controls(Side::after_moves(i))) else {
        return Err(ApiError::Conflict("nothing to undo: you have not moved yet".into()));
    };
    while record.game.moves().len() > index {
        record.game.undo();
    }
    games::truncate_moves(conn, id, index)?;
    games::touch(conn, id)?;
    record.version += 1;
    Ok(GameView::new(&record, access))
}

/// Takes the free seat of an online game.
pub fn join(conn: &Connection, id: &str, token: String) -> Result<SeatGrant, ApiError> {
    let mut record = games::load(conn, id)?;
    if record.mode != Mode::Online {
        return Err(ApiError::Conflict("only online games have a seat to join; you can watch this one".into()));
    }
    if record.guest_token.is_some() {
        return Err(ApiError::Conflict("both seats are taken; you can watch this game".into()));
    }
    games::set_guest(conn, id, &token)?;
    games::touch(conn, id)?;
    record.guest_token = Some(token.clone());
    record.version += 1;
    let access = record.access(Some(&token));
    Ok(SeatGrant { link: format!("/g/{id}"), token, seat: access.name(), game: GameView::new(&record, access) })
}

/// `GET /api/games/{id}/hint`.
#[derive(Debug, Clone, Serialize)]
pub struct HintView {
    /// Who wins from here with perfect play.
    pub winner: Winner,
    /// The nim-sum now.
    pub nim_sum: u64,
    /// How many moves win.
    pub winning_moves: usize,
    /// A best move: a winning one, or the hardest for the opponent.
    pub suggestion: Option<MoveView>,
}

/// A hint for the player to move.
pub fn hint(conn: &Connection, id: &str) -> Result<HintView, ApiError> {
    let record = games::load(conn, id)?;
    let heaps = record.game.position().as_slice();
    let convention = record.game.rules().convention;
    let analysis = Analysis::new(heaps, convention);
    let suggestion = match analysis.winner() {
        Winner::Mover => analysis.first_winning_move(heaps),
        Winner::Opponent => bouton_players::toughest_moves(heaps, convention).first().copied(),
    };
    Ok(HintView {
        winner: analysis.winner(),
        nim_sum: analysis.nim_sum(),
        winning_moves: analysis.count_winning_moves(heaps),
        suggestion: suggestion.map(MoveView::from),
    })
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
}

/// Finds each side's first mistake.
pub fn review(conn: &Connection, id: &str) -> Result<ReviewView, ApiError> {
    let record = games::load(conn, id)?;
    let convention = record.game.rules().convention;
    let mut found: [Option<MistakeView>; 2] = [None, None];
    for (ply, (position, mv)) in record.game.history().enumerate() {
        let side = Side::after_moves(ply);
        if found[side.index()].is_some() {
            continue;
        }
        let heaps = position.as_slice();
        let analysis = Analysis::new(heaps, convention);
        if analysis.winner() == Winner::Mover && analysis.winning_move_in(mv.heap, heaps[mv.heap]) != Some(mv) {
            let better = analysis.first_winning_move(heaps).expect("a won position has a winning move");
            found[side.index()] = Some(MistakeView {
                side: side_name(side),
                move_number: ply + 1,
                played: mv.into(),
                better: better.into(),
            });
        }
    }
    let [first, second] = found;
    Ok(ReviewView { first, second })
}

/// One line of `GET /api/stats`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct StatsRow {
    /// The mode.
    pub mode: String,
    /// The computer's level, in modes with a computer.
    pub level: Option<String>,
    /// Finished games.
    pub games: u64,
    /// Games the person won (against the computer) or the first player won.
    pub wins: u64,
    /// Games the person lost (against the computer) or the first player lost.
    pub losses: u64,
}

/// `GET /api/stats`: finished games per mode and level. Against the
/// computer, wins and losses are the person's; otherwise the first player's.
pub fn stats(conn: &Connection) -> Result<Vec<StatsRow>, ApiError> {
    let mut rows: Vec<StatsRow> = Vec::new();
    for games::ResultCount { mode, level, winner, games: count } in games::result_counts(conn)? {
        let person = match Mode::from_name(&mode) {
            Some(Mode::ComputerFirst) => "second",
            _ => "first",
        };
        let row = match rows.iter_mut().find(|r| r.mode == mode && r.level == level) {
            Some(row) => row,
            None => {
                rows.push(StatsRow { mode: mode.clone(), level: level.clone(), games: 0, wins: 0, losses: 0 });
                rows.last_mut().expect("just pushed")
            }
        };
        row.games += count;
        if winner == person { row.wins += count } else { row.losses += count }
    }
    Ok(rows)
}

fn check_current(record: &Record, ply: usize) -> Result<(), ApiError> {
    if record.game.is_over() {
        return Err(ApiError::Conflict("the game is over".into()));
    }
    let now = record.game.moves().len();
    if ply != now {
        return Err(ApiError::Conflict(format!(
            "the game has moved on: you sent ply {ply}, but {now} moves have been played; reload the game"
        )));
    }
    Ok(())
}

fn check_turn(record: &Record, access: Access, ply: usize) -> Result<(), ApiError> {
    check_current(record, ply)?;
    let side = record.game.to_move();
    if !access.controls(side) || record.seat(side) != SeatKind::Human {
        return Err(ApiError::Conflict("it is not your turn".into()));
    }
    Ok(())
}

/// The computer moves while it is its turn (never in demo games, which are
/// stepped one move at a time).
fn computer_replies(record: &mut Record) {
    while record.mode != Mode::Demo && !record.game.is_over() && record.seat(record.game.to_move()) == SeatKind::Computer {
        computer_move(record);
    }
}

/// One computer move, drawn from a generator seeded by the game's seed and
/// the ply, so any server instance makes the same choice.
fn computer_move(record: &mut Record) {
    let ply = record.game.moves().len() as u64;
    let mut rng = ChaCha8Rng::seed_from_u64(record.seed ^ ply.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut player = record.level.unwrap_or(Level::Perfect).player();
    if let Some(mv) = player.choose(&record.game, &mut rng) {
        record.game.play(mv).expect("players choose legal moves");
    }
}

/// Stores the moves played since ply `before`, and the result if the game
/// ended.
fn save_progress(conn: &Connection, record: &mut Record, before: usize) -> Result<(), ApiError> {
    games::append_moves(conn, &record.id, &record.game.moves()[before..], before)?;
    games::touch(conn, &record.id)?;
    record.version += 1;
    if let Some(outcome) = record.game.outcome() {
        games::record_result(conn, record, outcome.winner)?;
    }
    Ok(())
}
