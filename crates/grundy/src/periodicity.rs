use serde::Serialize;

use crate::HeapGame;

/// The longest period looked for unless asked otherwise.
pub const DEFAULT_MAX_PERIOD: u64 = 1 << 14;

/// What is known about the periodicity of a computed Grundy sequence.
///
/// A sequence is periodic with period `p` and pre-period `e` when
/// G(n + p) = G(n) for every n ≥ e (and `e` is the least such n; the last
/// exception is n = e − 1).
///
/// For an octal game with finitely many digits, last non-zero digit `d_t`,
/// the **periodicity theorem** turns a finite check into a proof: if
/// G(n + p) = G(n) for all n with e ≤ n < 2e + p + t, it holds for all
/// n ≥ e. For games that never split a heap, G(n) depends only on the `t`
/// values before it, so `t` values in a row repeating `p` later suffice.
///
/// ```
/// use bouton_grundy::{compute, ComputeOptions, HeapGame, Periodicity};
///
/// let kayles = HeapGame::kayles();
/// let seq = compute(&kayles, 200, ComputeOptions::default())?;
/// assert_eq!(
///     seq.periodicity(),
///     &Periodicity::Proved { period: 12, preperiod: 71, needed: 167 }
/// );
/// let short = compute(&kayles, 150, ComputeOptions::default())?;
/// assert_eq!(
///     short.periodicity(),
///     &Periodicity::Apparent { period: 12, preperiod: 71, repeats: 6, needed: Some(167) }
/// );
/// // Repeating over too short a stretch to be likely: no claim.
/// let shorter = compute(&kayles, 120, ComputeOptions::default())?;
/// assert!(matches!(shorter.periodicity(), Periodicity::None { .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Periodicity {
    /// Proved for every n ≥ `preperiod`, from the values up to `needed`.
    Proved {
        /// The least period.
        period: u64,
        /// The least n from which the sequence repeats.
        preperiod: u64,
        /// The largest n whose value the proof used.
        needed: u64,
    },
    /// Holds, unproved, over at least three whole periods and over at least
    /// the latter half of the computed values: likely, not certain.
    Apparent {
        /// The least apparent period.
        period: u64,
        /// From where it holds in the computed values.
        preperiod: u64,
        /// How many whole periods the computed values repeat it.
        repeats: u64,
        /// Where the periodicity theorem applies: if the period holds up to
        /// this n, the theorem proves it (a claim about the computation to
        /// come, not a promise that it will hold).
        needed: Option<u64>,
    },
    /// Arithmetic-periodic, unproved: G(n + p) = G(n) + s (s > 0, the
    /// saltus) for every computed n ≥ `preperiod`, over at least three whole
    /// periods and the latter half of the values, as in Nim (p = 1, s = 1)
    /// and Lasker's Nim (p = 4, s = 4).
    Arithmetic {
        /// The least such period.
        period: u64,
        /// The saltus: how much the values grow each period.
        saltus: u64,
        /// From where it holds in the computed values.
        preperiod: u64,
        /// How many whole periods the computed values show it.
        repeats: u64,
    },
    /// No period up to `longest_checked` repeats three times over the latter
    /// half of the computed values.
    None {
        /// The longest period that had room for three repetitions.
        longest_checked: u64,
    },
}

impl Periodicity {
    /// The period and pre-period, proved or apparent.
    pub fn period(&self) -> Option<(u64, u64)> {
        match *self {
            Periodicity::Proved { period, preperiod, .. } | Periodicity::Apparent { period, preperiod, .. } => {
                Some((period, preperiod))
            }
            Periodicity::Arithmetic { .. } | Periodicity::None { .. } => None,
        }
    }

    /// Whether periodicity is proved.
    pub fn is_proved(&self) -> bool {
        matches!(self, Periodicity::Proved { .. })
    }
}

/// Which finite check proves a period, for a given game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ProofRule {
    /// The octal periodicity theorem: up to 2e + 2p + t − 1.
    Splitting { t: u64 },
    /// No splits: a window of `t` values after `from(e)` repeating.
    Window { t: u64, from_zero: bool },
    /// Nothing is proved (infinite codes, unequal splits).
    Unavailable,
}

impl ProofRule {
    pub(crate) fn for_game(game: &HeapGame) -> ProofRule {
        let Some(t) = game.last_digit() else {
            return ProofRule::Unavailable;
        };
        if game.unequal_splits() {
            ProofRule::Unavailable
        } else if game.splits() {
            ProofRule::Splitting { t }
        } else {
            // With only "take and leave nothing or one heap" digits 3 and 0,
            // G(n) = mex{G(n - k)} is the same rule from n = t on; with lone
            // 1 or 2 bits it is uniform only for n > t.
            let from_zero = game.digits().iter().all(|&d| d == 0 || d == 3);
            ProofRule::Window { t, from_zero }
        }
    }

    /// The largest n whose value the proof of (`preperiod`, `period`) needs.
    pub(crate) fn needed(self, preperiod: u64, period: u64) -> Option<u64> {
        match self {
            ProofRule::Splitting { t } => Some((2 * preperiod + 2 * period + t).saturating_sub(1)),
            ProofRule::Window { t, from_zero } => {
                let start = if from_zero { preperiod } else { preperiod.max(1) };
                Some((start + period + t.max(1)).saturating_sub(1))
            }
            ProofRule::Unavailable => None,
        }
    }
}

/// Follows every candidate period as values arrive: for each p, the last n
/// with G(n) ≠ G(n − p). A candidate that fails is usually caught at the
/// first value looked at, so a block of values costs about one comparison
/// per candidate, plus a full pass for the true period.
#[derive(Debug, Clone)]
pub(crate) struct PeriodTracker {
    max_period: u64,
    /// `last_mismatch[p]`: the last n ≥ p with G(n) ≠ G(n − p); 0 for none.
    last_mismatch: Vec<u64>,
    /// `saltus[p]`: G(n) − G(n − p) at the last n seen (it may be negative).
    saltus: Vec<i64>,
    /// `last_step[p]`: the last n > p with G(n) − G(n − p) different from
    /// G(n − 1) − G(n − 1 − p); 0 for none.
    last_step: Vec<u64>,
    /// Values seen: G(0) to G(count − 1).
    count: u64,
    rule: ProofRule,
}

impl PeriodTracker {
    pub(crate) fn new(game: &HeapGame, max_period: u64) -> PeriodTracker {
        let max_period = max_period.max(1);
        PeriodTracker {
            max_period,
            last_mismatch: vec![0; max_period as usize + 1],
            saltus: vec![0; max_period as usize + 1],
            last_step: vec![0; max_period as usize + 1],
            count: 0,
            rule: ProofRule::for_game(game),
        }
    }

    /// The longest period followed.
    pub(crate) fn max_period(&self) -> u64 {
        self.max_period
    }

    /// Takes in the values from the last call up to G(`count` − 1); `at(n)`
    /// reads G(n) for any n ≥ `count_before` − max_period.
    pub(crate) fn update(&mut self, count: u64, mut at: impl FnMut(u64) -> u32) {
        let from = self.count;
        if count <= from {
            return;
        }
        let top = self.max_period.min(count - 1);
        for p in 1..=top {
            let mut m = count - 1;
            let low = from.max(p);
            while m >= low {
                if at(m) != at(m - p) {
                    self.last_mismatch[p as usize] = m;
                    break;
                }
                if m == 0 {
                    break;
                }
                m -= 1;
            }
            if p < self.max_period {
                self.follow_steps(p, from, count, &mut at);
            }
        }
        self.count = count;
    }

    /// Follows the differences G(n) − G(n − p) over the new values: where
    /// the last one differs from the one before it (arithmetic periodicity
    /// broken), looking back only as far as needed.
    fn follow_steps(&mut self, p: u64, from: u64, count: u64, at: &mut impl FnMut(u64) -> u32) {
        let difference = |at: &mut dyn FnMut(u64) -> u32, n: u64| i64::from(at(n)) - i64::from(at(n - p));
        let last = count - 1;
        let now = difference(at, last);
        // Values from `from` on are new; the difference before them is the
        // one remembered (none when fewer than p + 1 values came before).
        let low = from.max(p + 1);
        let mut m = last;
        while m >= low {
            if difference(at, m - 1) != now {
                self.last_step[p as usize] = m;
                break;
            }
            m -= 1;
        }
        self.saltus[p as usize] = now;
    }

    /// From where G(n + p) − G(n) is constant, and that constant.
    fn arithmetic(&self, p: u64) -> (u64, i64) {
        let start = match self.last_step[p as usize] {
            0 => 0,
            step => step - p,
        };
        (start, self.saltus[p as usize])
    }

    fn preperiod(&self, p: u64) -> u64 {
        match self.last_mismatch[p as usize] {
            0 => 0,
            last => last + 1 - p,
        }
    }

    /// What the values seen so far show.
    pub(crate) fn report(&self) -> Periodicity {
        if self.count < 2 {
            return Periodicity::None { longest_checked: 0 };
        }
        let last = self.count - 1;
        let top = self.max_period.min(last);
        // A proof for any period proves the least period dividing it, once
        // the data shows that divisor holding over a full proved period.
        for p in 1..=top {
            let e = self.preperiod(p);
            let Some(needed) = self.rule.needed(e, p) else {
                break;
            };
            if needed > last {
                continue;
            }
            for q in (1..=p).filter(|q| p % q == 0) {
                let eq = self.preperiod(q);
                let needed_q = eq.max(e) + p + q - 1;
                if q == p {
                    return Periodicity::Proved { period: q, preperiod: eq, needed };
                }
                if needed_q <= last {
                    return Periodicity::Proved { period: q, preperiod: eq, needed: needed.max(needed_q) };
                }
            }
        }
        // Likely only when repeated three times at least, over the latter
        // half of the values at least: a short run of repeats late in a long
        // sequence (0.16 to 10^8 shows period 3 over its last dozen values)
        // says nothing.
        for p in 1..=top {
            let e = self.preperiod(p);
            let span = self.count - e;
            if span >= 3 * p && span >= self.count / 2 {
                let needed = self.rule.needed(e, p);
                return Periodicity::Apparent { period: p, preperiod: e, repeats: span / p, needed };
            }
        }
        for p in 1..=top {
            let (e, saltus) = self.arithmetic(p);
            let span = self.count - e;
            if saltus > 0 && span >= 3 * p && span >= self.count / 2 {
                return Periodicity::Arithmetic { period: p, saltus: saltus as u64, preperiod: e, repeats: span / p };
            }
        }
        Periodicity::None { longest_checked: self.max_period.min(self.count / 3) }
    }
}
