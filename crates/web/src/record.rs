//! A stored game and who may act in it.

use bouton_games::{AnyRules, RuleSet};
use bouton_players::Level;
use bouton_rules::{Convention, Game, Side};

use crate::error::ApiError;
use crate::mode::{Mode, SeatKind};

/// A game as stored: the game itself and its settings and secrets.
#[derive(Debug, Clone)]
pub struct Record {
    /// The public id, part of the game's link.
    pub id: String,
    /// Who plays.
    pub mode: Mode,
    /// The computer's level, in modes with a computer.
    pub level: Option<Level>,
    /// Seeds the computer's choices: move `ply` uses `seed` and `ply`.
    pub seed: u64,
    /// The creator's secret.
    pub owner_token: String,
    /// The online guest's secret, once someone has joined.
    pub guest_token: Option<String>,
    /// Bumped by every change; watchers compare it.
    pub version: i64,
    /// The game, under any of bouton's rule sets.
    pub game: Game<AnyRules>,
    /// Online games: whether the creator allowed hints and analysis for both
    /// seats while the game runs (see [`Record::help_now`]).
    pub help: bool,
}

/// The rules as the server plays them: every analysis runs within
/// [`crate::limits::search_budget`], so that an analysis that cannot be done
/// is reported quickly.
///
/// ```
/// use bouton_games::RuleSet;
/// use bouton_rules::Convention;
///
/// let rules = bouton_web::server_rules("kayles".parse::<RuleSet>()?, Convention::Misere);
/// assert!(rules.analyze(&rules.position(&[30, 40])?).is_err());
/// assert!(rules.analyze(&rules.position(&[7, 11])?).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn server_rules(set: RuleSet, convention: Convention) -> AnyRules {
    AnyRules::new(set, convention).with_budget(crate::limits::search_budget())
}

/// What a request's token lets it do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Nothing: a watcher.
    Watch,
    /// Move for one side.
    Seat(Side),
    /// Move for both sides (two players on one device; the demo's owner).
    Both,
}

impl Access {
    /// Whether this access moves for `side`.
    pub fn controls(self, side: Side) -> bool {
        match self {
            Access::Watch => false,
            Access::Seat(own) => own == side,
            Access::Both => true,
        }
    }

    /// "first", "second", "both", or `None` for a watcher.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Access::Watch => None,
            Access::Seat(Side::First) => Some("first"),
            Access::Seat(Side::Second) => Some("second"),
            Access::Both => Some("both"),
        }
    }
}

impl Record {
    /// A fresh game of `rules` (a rule-set spec such as `"kayles"`) under
    /// `convention` from the heaps `start`, for the crate's unit tests: id
    /// `id`, the owner's token `"owner"`, no guest, version 0, seed 7, the
    /// perfect computer where `mode` has one.
    #[cfg(test)]
    pub(crate) fn for_tests(id: &str, rules: &str, convention: Convention, start: &[u64], mode: Mode) -> Record {
        let rules = AnyRules::parse(rules, convention).expect("a rule set");
        let game = Game::new(rules.clone(), rules.position(start).expect("a position")).expect("a game");
        let computer = mode.seats().contains(&SeatKind::Computer);
        Record {
            id: id.into(),
            mode,
            level: computer.then_some(Level::Perfect),
            seed: 7,
            owner_token: "owner".into(),
            guest_token: None,
            version: 0,
            game,
            help: false,
        }
    }

    /// Whether hints and the analysis of the position are open now: always,
    /// except in an online game still running whose creator did not allow
    /// them (they would let either seat play the other's moves for it).
    pub fn help_now(&self) -> bool {
        self.mode != Mode::Online || self.help || self.game.is_over()
    }

    /// Fails with 409 when hints and analysis are off ([`Record::help_now`]).
    pub fn require_help(&self) -> Result<(), ApiError> {
        if self.help_now() {
            return Ok(());
        }
        Err(ApiError::Conflict(
            "hints and analysis are off for both players while this online game runs (its creator did not allow \
             them); they open when the game ends"
                .into(),
        ))
    }

    /// Who sits in `side`.
    pub fn seat(&self, side: Side) -> SeatKind {
        self.mode.seats()[side.index()]
    }

    /// What `token` allows; no token means watching.
    pub fn access(&self, token: Option<&str>) -> Access {
        let Some(token) = token else {
            return Access::Watch;
        };
        if constant_time_eq(token, &self.owner_token) {
            return match self.mode {
                Mode::Computer | Mode::Online => Access::Seat(Side::First),
                Mode::ComputerFirst => Access::Seat(Side::Second),
                Mode::Local | Mode::Demo => Access::Both,
            };
        }
        match &self.guest_token {
            Some(guest) if constant_time_eq(token, guest) => Access::Seat(Side::Second),
            _ => Access::Watch,
        }
    }

    /// Like [`Record::access`], but a request that must act fails without a
    /// valid token.
    pub fn require_access(&self, token: Option<&str>) -> Result<Access, ApiError> {
        match (token, self.access(token)) {
            (None, _) => Err(ApiError::Unauthorized),
            (Some(_), Access::Watch) => {
                Err(ApiError::Forbidden(format!("this token holds no seat in game {}", self.id)))
            }
            (Some(_), access) => Ok(access),
        }
    }
}

/// Compares secrets without stopping at the first difference.
fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
