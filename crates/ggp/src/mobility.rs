//! Mobility, the general evaluation of a state where playouts say nothing:
//! the more legal moves a role has than the others, the better its position
//! — and a role left without moves has lost (chess's checkmate), though that
//! case the rules score exactly. In a turn-taking game a role has a real
//! choice only on its own turns, so a role's mobility is taken over a window
//! of the last states reached, one per role: in chess, the moves of white in
//! the last state where white moved plus its single `noop` in the other.
//!
//! The value is the role's lead in mobility over the others' mean, divided
//! by a scale fixed once per match (the mean mobility per role in the first
//! window evaluated: 21 in chess's initial position) and squashed by `tanh`
//! into (0.05, 0.95). A lead, not a share: exchanging pieces that are worth
//! the same number of moves changes nothing, where a share would rise for
//! the side ahead with every exchange, and a search led by it trades down to
//! material that cannot mate (seen in chess: a lone knight against a king).

/// The lowest and highest value the evaluation gives: strictly between a
/// loss (0) and a win (1), so that a proven result always outranks it.
pub(crate) const MARGIN: f64 = 0.05;

/// Sibling states compared before mobility is judged blind.
const SIBLINGS_MEASURED: u64 = 100;

/// Whether moves change mobility differently: pairs of states made one
/// after the other from the same state, and how many of them differed in
/// some role's number of legal moves. Where no pair differs (in hex, every
/// move takes one cell from both sides), mobility cannot tell moves apart.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SiblingMobility {
    /// Pairs of sibling states compared.
    pairs: u64,
    /// Those whose legal-move counts differed.
    differing: u64,
}

impl SiblingMobility {
    /// Counts a pair of sibling states whose roles' legal-move counts are
    /// `a` and `b` (or their running sums: equal exactly when the counts
    /// are).
    pub(crate) fn compare(&mut self, a: &[u32], b: &[u32]) {
        self.pairs += 1;
        if a != b {
            self.differing += 1;
        }
    }

    /// Adds what `other` compared (another search thread's states).
    pub(crate) fn merge(&mut self, other: SiblingMobility) {
        self.pairs += other.pairs;
        self.differing += other.differing;
    }

    /// Whether enough pairs were compared ([`SIBLINGS_MEASURED`]) and none
    /// differed: mobility cannot tell moves apart.
    pub(crate) fn blind(&self) -> bool {
        self.pairs >= SIBLINGS_MEASURED && self.differing == 0
    }
}

/// The legal-move counts of each role in the last few states of a descent,
/// and the evaluation they give.
///
/// ```
/// use bouton_ggp::MobilityWindow;
///
/// // Two roles taking turns: white has 30 moves, then black 10.
/// let mut window = MobilityWindow::new(2);
/// window.push(&[30, 1]);
/// window.push(&[1, 10]);
/// let values = window.values();
/// assert!(values[0] > 0.8 && values[1] < 0.2);
/// assert!((values[0] + values[1] - 1.0).abs() < 1e-12);
/// // The scale is now fixed (21 moves per role): the same lead after an
/// // exchange is worth the same.
/// window.push(&[20, 1]);
/// window.push(&[1, 0]);
/// assert!((window.values()[0] - values[0]).abs() < 1e-12);
/// // Older states leave the window.
/// window.push(&[20, 1]);
/// window.push(&[1, 20]);
/// assert!(window.values().iter().all(|v| (v - 0.5).abs() < 1e-12));
/// ```
#[derive(Debug, Clone)]
pub struct MobilityWindow {
    roles: usize,
    /// The counts of the last `roles` states, oldest first, `roles` per state.
    counts: Vec<u32>,
    /// The mobility a lead is measured against (0 until the first
    /// evaluation with any move).
    scale: f64,
    /// Fewer moves count as better: where the playouts have shown that
    /// the side with fewer moves wins (amazonsSuicide: a role wins when it
    /// has no move left).
    inverted: bool,
}

impl MobilityWindow {
    /// An empty window for a game of `roles` roles (it holds the last
    /// `roles` states, at least two).
    pub fn new(roles: usize) -> MobilityWindow {
        MobilityWindow { roles, counts: Vec::with_capacity(roles * roles.max(2) + roles), scale: 0.0, inverted: false }
    }

    /// Counts fewer moves as better (`true`) or more (`false`, the default).
    pub fn set_inverted(&mut self, inverted: bool) {
        self.inverted = inverted;
    }

    /// Forgets every state (the scale stays).
    pub fn clear(&mut self) {
        self.counts.clear();
    }

    /// Adds a state where role `r` has `counts[r]` legal moves.
    pub fn push(&mut self, counts: &[u32]) {
        debug_assert_eq!(counts.len(), self.roles);
        if self.counts.len() >= self.roles * self.roles.max(2) {
            self.counts.drain(..self.roles);
        }
        self.counts.extend_from_slice(counts);
    }

    /// Each role's value: its lead in moves over the window against the
    /// others' mean, divided by the scale, squashed into (0.05, 0.95); even
    /// values without any move.
    pub fn values(&mut self) -> Vec<f64> {
        let mut out = vec![0.0; self.roles];
        self.values_into(&mut out);
        out
    }

    /// As [`MobilityWindow::values`], into `out` (one per role).
    pub fn values_into(&mut self, out: &mut [f64]) {
        let total = |r: usize| self.counts.iter().skip(r).step_by(self.roles).map(|&c| f64::from(c)).sum::<f64>();
        let sum: f64 = self.counts.iter().map(|&c| f64::from(c)).sum();
        if self.scale == 0.0 && sum > 0.0 {
            self.scale = (sum / self.roles as f64).max(1.0);
        }
        let others = (self.roles.max(2) - 1) as f64;
        for (r, o) in out.iter_mut().enumerate() {
            let mine = total(r);
            let lead = if self.scale > 0.0 { (mine - (sum - mine) / others) / self.scale } else { 0.0 };
            let lead = if self.inverted { -lead } else { lead };
            *o = 0.5 + (0.5 - MARGIN) * lead.tanh();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inverted, the same counts give each role the value the other had:
    /// fewer moves count as better (amazonsSuicide).
    #[test]
    fn an_inverted_window_counts_fewer_moves_as_better() {
        let mut plain = MobilityWindow::new(2);
        let mut inverted = MobilityWindow::new(2);
        inverted.set_inverted(true);
        for window in [&mut plain, &mut inverted] {
            window.push(&[30, 1]);
            window.push(&[1, 10]);
        }
        let (p, i) = (plain.values(), inverted.values());
        assert!(p[0] > 0.8 && i[0] < 0.2, "{p:?} {i:?}");
        assert!((p[0] - i[1]).abs() < 1e-12 && (p[1] - i[0]).abs() < 1e-12);
    }

    /// Hex: every move takes one cell from both sides, so sibling states
    /// always have the same counts; one pair that differs is enough for
    /// mobility to tell something.
    #[test]
    fn mobility_is_blind_only_when_no_sibling_pair_differs() {
        let mut hex = SiblingMobility::default();
        assert!(!hex.blind(), "nothing compared yet");
        for _ in 0..SIBLINGS_MEASURED {
            hex.compare(&[24, 1], &[24, 1]);
        }
        assert!(hex.blind());
        let mut other = SiblingMobility::default();
        other.compare(&[30, 1], &[24, 1]);
        hex.merge(other);
        assert_eq!((hex.pairs, hex.differing), (SIBLINGS_MEASURED + 1, 1));
        assert!(!hex.blind(), "one move changed the counts differently");
    }
}
