//! How a search values the new states it reaches: by playouts to the end of
//! the game (what MCTS normally does), or — where those say almost nothing
//! within a move's time — by a short playout and a mobility evaluation (see
//! [`crate::MobilityWindow`]). [`LeafEvaluation::Auto`] chooses by measuring: the
//! playouts' outcomes and cost ([`PlayoutProfile`]) against the time of the
//! move being searched.

use std::time::Duration;

use crate::playout_profile::PlayoutProfile;

/// Searching at least this long measures a game well enough to choose.
pub(crate) const MEASURED: Duration = Duration::from_millis(500);

/// Playouts to the end are kept when a move's search can expect at least
/// this many informative ones (outcomes other than the most common).
const ENOUGH_INFORMATIVE: f64 = 50.0;

/// How the search values a new leaf.
///
/// ```
/// use bouton_ggp::{LeafEvaluation, PlayoutProfile};
/// use std::time::Duration;
///
/// // Chess under a 5 s clock: a playout of 200 plies takes about a second
/// // and nearly all end at the move limit with no goal.
/// let mut chess = PlayoutProfile::default();
/// for _ in 0..9 {
///     chess.record(&[0, 0]);
/// }
/// chess.record(&[100, 0]);
/// chess.add_time(Duration::from_secs(10));
/// let auto = LeafEvaluation::Auto;
/// assert_eq!(auto.choose(&chess, 2, Duration::from_secs(5)), Some(LeafEvaluation::Mobility));
/// // Connect Four: thousands of playouts a second, most decisive.
/// let mut connect_four = PlayoutProfile::default();
/// for i in 0..5000 {
///     connect_four.record(if i % 2 == 0 { &[100, 0] } else { &[0, 100] });
/// }
/// connect_four.add_time(Duration::from_secs(1));
/// assert_eq!(auto.choose(&connect_four, 2, Duration::from_secs(5)), Some(LeafEvaluation::Playouts));
/// // Too little measured yet: no choice.
/// assert_eq!(auto.choose(&PlayoutProfile::default(), 2, Duration::from_secs(5)), None);
/// // One role: mobility means nothing without an opponent.
/// assert_eq!(auto.choose(&chess, 1, Duration::from_secs(5)), Some(LeafEvaluation::Playouts));
/// // A fixed setting is its own choice.
/// assert_eq!(LeafEvaluation::Playouts.choose(&chess, 2, Duration::from_secs(5)), Some(LeafEvaluation::Playouts));
/// assert_eq!("mobility".parse::<LeafEvaluation>(), Ok(LeafEvaluation::Mobility));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LeafEvaluation {
    /// Playouts until the game ends, scored by the goals.
    Playouts,
    /// A few plies of playout (none by default), then each role's lead in
    /// mobility (legal moves) over the last states, scored strictly between
    /// the worst and the best goal, so that proven values always outrank it
    /// (see [`crate::MobilityWindow`]). More moves count as better until
    /// the playouts show beyond chance that fewer moves win (and back again
    /// if they later show the opposite); while that is not settled, a fifth
    /// of the states the search visits go to playouts to the end that
    /// measure it ([`crate::PlayoutProfile::mobility_settled`]).
    Mobility,
    /// Playouts until measured in a game of two or more roles (at least
    /// half a second of searching), then mobility for good when a move's
    /// time cannot expect 50 playouts with an outcome other than the most
    /// common one — playouts too slow, too uniform, or both — and playouts
    /// otherwise. Mobility is given up for playouts again where it is blind
    /// — a hundred pairs of sibling states made, none differing in any
    /// role's number of legal moves (hex: every move takes one cell from
    /// both sides) — where the playouts inform at all (their outcomes
    /// differ) and fifty of them fit in a move's time: they tell more than
    /// a constant.
    Auto,
}

impl LeafEvaluation {
    /// The evaluation to use for a search of `time` in a game of `roles`
    /// roles, given what `profile` measured; `None` for [`LeafEvaluation::Auto`]
    /// while too little is measured (playouts meanwhile).
    pub fn choose(self, profile: &PlayoutProfile, roles: usize, time: Duration) -> Option<LeafEvaluation> {
        match self {
            LeafEvaluation::Auto if roles < 2 => Some(LeafEvaluation::Playouts),
            LeafEvaluation::Auto if profile.time() < MEASURED => None,
            LeafEvaluation::Auto if profile.informative_in(time) < ENOUGH_INFORMATIVE => Some(LeafEvaluation::Mobility),
            LeafEvaluation::Auto => Some(LeafEvaluation::Playouts),
            fixed => Some(fixed),
        }
    }
}

impl std::str::FromStr for LeafEvaluation {
    type Err = String;

    fn from_str(s: &str) -> Result<LeafEvaluation, String> {
        match s.to_ascii_lowercase().as_str() {
            "playouts" => Ok(LeafEvaluation::Playouts),
            "mobility" => Ok(LeafEvaluation::Mobility),
            "auto" => Ok(LeafEvaluation::Auto),
            _ => Err(format!("unknown leaf evaluation {s:?}: expected playouts, mobility or auto")),
        }
    }
}
