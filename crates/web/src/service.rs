//! What each request does to a game, on the storage thread. The rules come
//! from the library; this only checks who may act, calls the library, and
//! stores the result. The computer's turns are in [`crate::computer`], hints
//! and reviews in [`crate::coach`]: they may search, so they run elsewhere.

use bouton_games::{AnyMove, AnyRules, RuleSet};
use bouton_players::Level;
use bouton_rules::{Convention, Game, PlayError, Side};
use serde::{Deserialize, Serialize};

use crate::board::Kind;
use crate::body::field;
use crate::error::ApiError;
use crate::limits::{MAX_HEAP_SIZE, MAX_HEAPS, MAX_ROW_WIDTH};
use crate::mode::{Mode, SeatKind};
use crate::record::{Access, Record, server_rules};
use crate::store::{Conn, Store, games};
use crate::views::GameView;

/// `POST /api/games`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// The rule set's id (default `nim`; see `GET /api/rules`).
    #[serde(default, deserialize_with = "field::text")]
    pub rules: Option<String>,
    /// The start as numbers in the rule set's form (for Nim the heaps,
    /// default the rule set's usual start).
    #[serde(default, deserialize_with = "field::start")]
    pub position: Option<Vec<u64>>,
    /// The old name of `position`: send one of the two (both is 400).
    #[serde(default, deserialize_with = "field::start")]
    pub heaps: Option<Vec<u64>>,
    /// Misère play.
    #[serde(default)]
    pub misere: bool,
    /// Who plays (default: against the computer, you first).
    #[serde(default = "default_mode", deserialize_with = "field::mode")]
    pub mode: Mode,
    /// The computer's level (default hard).
    #[serde(default, deserialize_with = "field::level")]
    pub level: Option<String>,
    /// Online games: allow hints and analysis for both players while the
    /// game runs (default false: they open when it ends). Other modes
    /// always have them.
    #[serde(default)]
    pub help: bool,
}

fn default_mode() -> Mode {
    Mode::Computer
}

impl CreateRequest {
    /// The start given, as `position` or as `heaps` (`None`: the rule
    /// set's usual start); both at once is 400.
    pub fn start(&self) -> Result<Option<&[u64]>, ApiError> {
        match (&self.position, &self.heaps) {
            (Some(_), Some(_)) => Err(ApiError::BadRequest(
                "give the start once: as `position`, or as `heaps` (its old name), not both".into(),
            )),
            (Some(numbers), None) | (None, Some(numbers)) => Ok(Some(numbers)),
            (None, None) => Ok(None),
        }
    }
}

/// `POST /api/games/{id}/moves`: `move` in the rule set's text form, or
/// (Nim only) `heap` and `take`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move as typed: `2 0 3`, `1:1:3`, ….
    #[serde(default, rename = "move", deserialize_with = "field::text")]
    pub text: Option<String>,
    /// Nim: the heap, from 1.
    #[serde(default, deserialize_with = "field::heap")]
    pub heap: Option<u64>,
    /// Nim: how many tokens, from 1.
    #[serde(default, deserialize_with = "field::take")]
    pub take: Option<u64>,
    /// The number of moves played in the state the player saw.
    #[serde(deserialize_with = "field::ply")]
    pub ply: usize,
}

/// `POST /api/games/{id}/undo` and `/step`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlyRequest {
    /// The number of moves played in the state the player saw.
    #[serde(deserialize_with = "field::ply")]
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

/// A game as the asker sees it: what the handlers turn into a [`GameView`]
/// once off the storage thread (drawing every move of a long game is work
/// the storage thread should not do).
#[derive(Debug, Clone)]
pub struct Seen {
    /// The game.
    pub record: Record,
    /// What the asker may do in it.
    pub access: Access,
}

impl Seen {
    /// The JSON state.
    pub fn view(&self) -> GameView {
        GameView::new(&self.record, self.access)
    }

    /// The answer to creating or joining: the state, the seat and its token.
    pub fn grant(&self, token: String) -> SeatGrant {
        SeatGrant { link: format!("/g/{}", self.record.id), token, seat: self.access.name(), game: self.view() }
    }
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
pub fn new_game(request: &CreateRequest) -> Result<(Game<AnyRules>, Option<Level>), ApiError> {
    let set = rule_set(request.rules.as_deref())?;
    let numbers = request.start()?.map_or_else(|| set.default_start(), <[u64]>::to_vec);
    check_limits(&set, &numbers)?;
    let convention = if request.misere { Convention::Misere } else { Convention::Normal };
    let rules = server_rules(set, convention);
    let start = rules.position(&numbers).map_err(|e| ApiError::Unprocessable(e.to_string()))?;
    let game = Game::new(rules, start).map_err(|e| ApiError::Unprocessable(e.to_string()))?;
    let level = match (&request.level, request.mode.has_computer()) {
        (_, false) => None,
        (None, true) => Some(Level::Hard),
        (Some(name), true) => Some(name.parse::<Level>().map_err(|e| ApiError::BadRequest(e.to_string()))?),
    };
    Ok((game, level))
}

/// The rule set named `text`, Nim when none is named.
pub(crate) fn rule_set(text: Option<&str>) -> Result<RuleSet, ApiError> {
    text.unwrap_or("nim").parse().map_err(|e: bouton_games::RuleSetError| ApiError::Unprocessable(e.to_string()))
}

/// The browser game's limits: at most [`MAX_HEAPS`] heaps (pairs, steps,
/// rows), each number at most [`MAX_HEAP_SIZE`], Northcott rows at most
/// [`MAX_ROW_WIDTH`] wide.
pub(crate) fn check_limits(set: &RuleSet, numbers: &[u64]) -> Result<(), ApiError> {
    let kind = set.board_kind();
    let per_part = match kind {
        Kind::Pairs => 2,
        Kind::Rows => 3,
        _ => 1,
    };
    let parts = numbers.len().div_ceil(per_part);
    if kind != Kind::Fibonacci && (parts == 0 || parts > MAX_HEAPS) {
        return Err(ApiError::Unprocessable(format!("a game has 1 to {MAX_HEAPS} {}, not {parts}", kind.parts())));
    }
    if kind == Kind::Rows {
        if let Some(wide) = numbers.iter().step_by(3).find(|&&w| w > MAX_ROW_WIDTH) {
            return Err(ApiError::Unprocessable(format!("a row is at most {MAX_ROW_WIDTH} squares wide, not {wide}")));
        }
        return Ok(());
    }
    let what = match kind {
        Kind::Pairs => "a pile holds at most",
        Kind::Stairs => "a step holds at most",
        Kind::Grid => "a column is at most",
        _ => "a heap holds at most",
    };
    let unit = match kind {
        Kind::Stairs => "coins",
        Kind::Grid => "squares tall",
        _ => "tokens",
    };
    if let Some(big) = numbers.iter().find(|&&h| h > MAX_HEAP_SIZE) {
        return Err(ApiError::Unprocessable(format!("{what} {MAX_HEAP_SIZE} {unit}, not {big}")));
    }
    Ok(())
}

/// Creates a game (in "computer-first" the computer's first move follows,
/// see [`crate::computer`]).
pub async fn create(conn: &mut Conn, request: &CreateRequest, secrets: Secrets) -> Result<Seen, ApiError> {
    let (game, level) = new_game(request)?;
    let record = Record {
        id: secrets.id,
        mode: request.mode,
        level,
        seed: secrets.seed,
        owner_token: secrets.token,
        guest_token: None,
        version: 0,
        game,
        help: request.help,
    };
    games::insert(conn, &record).await?;
    let access = record.access(Some(&record.owner_token));
    Ok(Seen { record, access })
}

/// The state of a game as seen by `token`'s holder (or a watcher).
pub async fn view(conn: &mut Conn, id: &str, token: Option<&str>) -> Result<Seen, ApiError> {
    let record = games::load(conn, id).await?;
    let access = record.access(token);
    Ok(Seen { record, access })
}

/// Plays a person's move (the computer's reply follows, see
/// [`crate::computer`]), in one job of its own: the game is read, the move
/// checked and stored. The server plays moves with [`play_move`] instead.
pub async fn play(conn: &mut Conn, id: &str, token: Option<&str>, request: &MoveRequest) -> Result<Seen, ApiError> {
    let mut record = games::load(conn, id).await?;
    let (access, before) = apply_move(&mut record, token, request)?;
    save_progress(conn, &mut record, before).await?;
    Ok(Seen { record, access })
}

/// Plays a person's move through the store's batch of changes
/// ([`Store::advance`]): checked against the game as the storage thread
/// last knew it (no read, mostly), stored with the other moves of the
/// batch in a few statements, answered after the commit. Stored only if
/// the game is still at the version it was checked against; else checked
/// again against a fresh read.
pub async fn play_move(
    store: &Store,
    id: String,
    token: Option<String>,
    request: MoveRequest,
) -> Result<Seen, ApiError> {
    store
        .advance(id, move |record: &mut Record| {
            let (access, _) = apply_move(record, token.as_deref(), &request)?;
            record.version += 1;
            Ok(Seen { record: record.clone(), access })
        })
        .await
}

/// Checks a person's move against `record` and plays it there (not
/// stored); answers the asker's access and the ply it was played at.
fn apply_move(record: &mut Record, token: Option<&str>, request: &MoveRequest) -> Result<(Access, usize), ApiError> {
    let access = record.require_access(token)?;
    check_turn(record, access, request.ply)?;
    let mv = read_move(record.game.rules(), request)?;
    let before = record.game.moves().len();
    record.game.play(mv).map_err(|e: PlayError<AnyRules>| ApiError::IllegalMove(e.to_string()))?;
    Ok((access, before))
}

/// The move a request asks for: its text, or a heap and an amount (the
/// text `HEAP AMOUNT`, which means that on every board of heaps).
fn read_move(rules: &AnyRules, request: &MoveRequest) -> Result<AnyMove, ApiError> {
    let heaps = rules.board_kind() == Kind::Heaps;
    let text = match (&request.text, request.heap, request.take) {
        (Some(text), None, None) => text.clone(),
        (None, Some(heap), Some(take)) if heaps => format!("{heap} {take}"),
        (None, Some(_), Some(_)) => {
            return Err(ApiError::IllegalMove(format!(
                "this game is {}: send the move as text in `move` ({})",
                rules.rule_set().name(),
                rules.move_help()
            )));
        }
        (Some(_), _, _) => {
            return Err(ApiError::BadRequest("send either `move` or `heap` and `take`, not both".into()));
        }
        _ if heaps => {
            return Err(ApiError::BadRequest(
                "give the move as `move` (like \"3 2\") or as `heap` and `take` (heaps from 1)".into(),
            ));
        }
        _ => return Err(ApiError::BadRequest(format!("give the move as `move` ({})", rules.move_help()))),
    };
    rules.parse_move(&text).map_err(|e| ApiError::IllegalMove(format!("{e} ({})", rules.move_help())))
}

/// Checks a request to step a demo game: the owner's, at the current ply.
/// Returns the game for [`crate::computer::choose`].
pub async fn step(conn: &mut Conn, id: &str, token: Option<&str>, request: &PlyRequest) -> Result<Record, ApiError> {
    let record = games::load(conn, id).await?;
    record.require_access(token)?;
    if record.mode != Mode::Demo {
        return Err(ApiError::Conflict("only demo games are stepped; the computer answers moves by itself".into()));
    }
    check_current(&record, request.ply)?;
    Ok(record)
}

/// Takes back the asker's last move (and the computer's reply); between two
/// people on one device, the last move.
pub async fn undo(conn: &mut Conn, id: &str, token: Option<&str>, request: &PlyRequest) -> Result<Seen, ApiError> {
    let mut record = games::load(conn, id).await?;
    let access = record.require_access(token)?;
    match record.mode {
        Mode::Online => {
            return Err(ApiError::Conflict("undo is not available in online games".into()));
        }
        Mode::Demo => {
            return Err(ApiError::Conflict("undo is not available in demo games".into()));
        }
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
    games::truncate_moves(conn, id, index).await?;
    games::touch(conn, id).await?;
    record.version += 1;
    Ok(Seen { record, access })
}

/// Takes the free seat of an online game.
pub async fn join(conn: &mut Conn, id: &str, token: String) -> Result<Seen, ApiError> {
    let mut record = games::load(conn, id).await?;
    if record.mode != Mode::Online {
        return Err(ApiError::Conflict("only online games have a seat to join; you can watch this one".into()));
    }
    if record.guest_token.is_some() {
        return Err(ApiError::Conflict("both seats are taken; you can watch this game".into()));
    }
    if !games::set_guest(conn, id, &token).await? {
        // Taken through another instance meanwhile.
        return Err(ApiError::Conflict("both seats are taken; you can watch this game".into()));
    }
    games::touch(conn, id).await?;
    record.guest_token = Some(token.clone());
    record.version += 1;
    let access = record.access(Some(&token));
    Ok(Seen { record, access })
}

/// One line of `GET /api/stats`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct StatsRow {
    /// The rule set's id.
    pub rules: String,
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

/// `GET /api/stats`: finished games per rule set, mode and level. Against the
/// computer, wins and losses are the person's; otherwise the first player's.
pub async fn stats(conn: &mut Conn) -> Result<Vec<StatsRow>, ApiError> {
    let mut rows: Vec<StatsRow> = Vec::new();
    for games::ResultCount { rules, mode, level, winner, games: count } in games::result_counts(conn).await? {
        let person = match Mode::from_name(&mode) {
            Some(Mode::ComputerFirst) => "second",
            _ => "first",
        };
        let row = match rows.iter_mut().find(|r| r.rules == rules && r.mode == mode && r.level == level) {
            Some(row) => row,
            None => {
                rows.push(StatsRow { rules, mode: mode.clone(), level: level.clone(), games: 0, wins: 0, losses: 0 });
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

/// Stores the moves played since ply `before`, and the result if the game
/// ended.
pub(crate) async fn save_progress(conn: &mut Conn, record: &mut Record, before: usize) -> Result<(), ApiError> {
    games::append_moves(conn, &record.id, &record.game.moves()[before..], before).await?;
    games::touch(conn, &record.id).await?;
    record.version += 1;
    if let Some(outcome) = record.game.outcome() {
        games::record_result(conn, record, outcome.winner).await?;
    }
    Ok(())
}
