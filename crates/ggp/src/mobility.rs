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
}

impl MobilityWindow {
    /// An empty window for a game of `roles` roles (it holds the last
    /// `roles` states, at least two).
    pub fn new(roles: usize) -> MobilityWindow {
        MobilityWindow { roles, counts: Vec::with_capacity(roles * roles.max(2) + roles), scale: 0.0 }
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
            *o = 0.5 + (0.5 - MARGIN) * lead.tanh();
        }
    }
}
