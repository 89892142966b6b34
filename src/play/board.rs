//! Rows of tokens drawn to the width there is: one `●` per token where they
//! fit, else in groups of five, else each `●` standing for a round number
//! of tokens. The tokens just taken are hollow (`○`). A larger heap never
//! gets fewer marks than a smaller one.

use crate::theme::Theme;

/// How many tokens one mark stands for, and whether marks come in groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Scale {
    /// Tokens per mark (1, or 2, 5, 10, 20, 50, …).
    pub unit: u64,
    /// Marks in groups of five (`●●●●● ●●`) rather than spaced (`● ● ●`).
    pub grouped: bool,
}

impl Scale {
    /// The finest scale at which a row of `most` tokens fits in `columns`.
    pub fn fitting(most: u64, columns: usize) -> Scale {
        let spaced = Scale { unit: 1, grouped: false };
        if spaced.columns(most) <= columns {
            return spaced;
        }
        let mut unit = 1u64;
        loop {
            let scale = Scale { unit, grouped: true };
            if scale.columns(most) <= columns {
                return scale;
            }
            // 1, 2, 5, 10, 20, 50, …: round numbers a reader multiplies easily.
            let next = match unit.to_string().as_bytes()[0] {
                b'1' => unit.checked_mul(2),
                b'2' => (unit / 2).checked_mul(5),
                _ => unit.checked_mul(2),
            };
            match next {
                Some(next) => unit = next,
                None => return scale,
            }
        }
    }

    /// Marks for `tokens` (rounded up, so that any token shows).
    pub fn marks(self, tokens: u64) -> u64 {
        tokens.div_ceil(self.unit)
    }

    /// The columns a row of `tokens` takes.
    pub fn columns(self, tokens: u64) -> usize {
        let marks = usize::try_from(self.marks(tokens)).unwrap_or(usize::MAX);
        if marks == 0 {
            return 0;
        }
        let gaps = if self.grouped { (marks - 1) / 5 } else { marks - 1 };
        marks.saturating_add(gaps)
    }

    /// A line under the board saying what a mark stands for, where it is not
    /// one token.
    pub fn legend(self) -> Option<String> {
        (self.unit > 1).then(|| format!("Each ● stands for up to {} tokens.", self.unit))
    }
}

/// The picture of a row of `size` tokens of which `taken` were just removed,
/// and its visible width in columns.
pub(crate) fn draw_row(size: u64, taken: u64, scale: Scale, theme: Theme) -> (String, usize) {
    let present = scale.marks(size);
    let all = scale.marks(size.saturating_add(taken));
    let mut art = String::new();
    let mut run = String::new();
    let mut hollow = false;
    for i in 0..all {
        let now_hollow = i >= present;
        if now_hollow != hollow {
            art.push_str(&theme.token(&run));
            run.clear();
            hollow = now_hollow;
        }
        if i > 0 && (!scale.grouped || i % 5 == 0) {
            run.push(' ');
        }
        run.push(if now_hollow { '○' } else { '●' });
    }
    art.push_str(&if hollow { theme.fresh(&run) } else { theme.token(&run) });
    (art, scale.columns(size.saturating_add(taken)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_spaced_then_grouped_then_scaled() {
        assert_eq!(Scale::fitting(7, 13), Scale { unit: 1, grouped: false });
        assert_eq!(Scale::fitting(7, 12), Scale { unit: 1, grouped: true });
        assert_eq!(Scale::fitting(21, 30), Scale { unit: 1, grouped: true });
        assert_eq!(Scale::fitting(1000, 30), Scale { unit: 50, grouped: true });
        assert_eq!(Scale::fitting(u64::MAX, 30).marks(u64::MAX), 19);
    }

    #[test]
    fn a_larger_heap_never_looks_smaller() {
        for columns in [10, 18, 40] {
            let scale = Scale::fitting(200, columns);
            for n in 0..200 {
                assert!(scale.marks(n) <= scale.marks(n + 1));
                assert!(scale.columns(n + 1) <= columns);
            }
        }
    }

    #[test]
    fn taken_tokens_are_hollow() {
        let plain = Theme { plain: false, width: 80, wrap: false };
        let (art, width) = draw_row(3, 2, Scale { unit: 1, grouped: false }, plain);
        assert_eq!(anstream::adapter::strip_str(&art).to_string(), "● ● ● ○ ○");
        assert_eq!(width, 9);
        let (art, width) = draw_row(12, 0, Scale { unit: 1, grouped: true }, plain);
        assert_eq!(anstream::adapter::strip_str(&art).to_string(), "●●●●● ●●●●● ●●");
        assert_eq!(width, 14);
    }
}
