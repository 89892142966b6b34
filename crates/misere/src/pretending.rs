//! The pretending function: each heap size's element of the quotient, and
//! its period once proved.

use crate::Element;

/// `Φ(h + period) = Φ(h)` for every `h >= preperiod`, proved for every heap
/// size (see [`crate::solve`] for the argument).
///
/// ```
/// use bouton_misere::Period;
///
/// let p = Period { preperiod: 5, period: 2, proved_at: 14 };
/// assert_eq!(p.fold(5), 5);
/// assert_eq!(p.fold(1_000_001), 5);
/// assert_eq!(p.fold(3), 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Period {
    /// The first heap size of the periodic part.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
    /// The heap range (`1..=proved_at`) whose verified quotient the proof
    /// rests on.
    pub proved_at: u64,
}

impl Period {
    /// The heap size below `preperiod + period` with the same element as `h`.
    pub fn fold(&self, h: u64) -> u64 {
        if h < self.preperiod + self.period { h } else { self.preperiod + (h - self.preperiod) % self.period }
    }
}

/// Heap size ↦ element: computed for heaps `0..=upto`, and for every size
/// when [`Pretending::period`] is known.
///
/// ```
/// use bouton_misere::{solve, HeapGame, SolveOptions};
///
/// let q = solve(&"0.75".parse::<HeapGame>()?, &SolveOptions::upto(60))?;
/// let pretend = q.pretending();
/// assert!(pretend.period().is_some());
/// assert_eq!(pretend.get(1_000_000), pretend.get(pretend.period().unwrap().fold(1_000_000)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pretending {
    pub(crate) images: Vec<Element>,
    pub(crate) period: Option<Period>,
}

impl Pretending {
    /// Heap `h`'s element (heap 0 is the identity), or `None` beyond the
    /// heaps computed when no period is proved.
    pub fn get(&self, h: u64) -> Option<Element> {
        let h = match self.period {
            Some(p) => p.fold(h),
            None => h,
        };
        usize::try_from(h).ok().and_then(|h| self.images.get(h)).copied()
    }

    /// The elements of heaps `0..=upto`.
    pub fn computed(&self) -> &[Element] {
        &self.images
    }

    /// The largest heap computed.
    pub fn upto(&self) -> u64 {
        self.images.len() as u64 - 1
    }

    /// The period, when proved.
    pub fn period(&self) -> Option<Period> {
        self.period
    }
}

/// The period the argument of [`crate::solve`] proves from the elements of
/// heaps `0..=n`, `t` the last digit's position: the least `p`, with its
/// least preperiod `n0 >= 1`, such that `Φ(h + p) = Φ(h)` for
/// `n0 <= h <= n - p` and `n >= 2·n0 + 3·p + t - 1`.
pub(crate) fn proved_period(phi: &[u32], t: u64) -> Option<Period> {
    let n = phi.len() as u64 - 1;
    (1..=n / 3).find_map(|p| {
        let mut n0 = n - p + 1;
        while n0 > 1 && phi[(n0 - 1) as usize] == phi[(n0 - 1 + p) as usize] {
            n0 -= 1;
        }
        (n >= 2 * n0 + 3 * p + t.saturating_sub(1)).then_some(Period { preperiod: n0, period: p, proved_at: n })
    })
}
