//! The layer theorem: a finite check that proves G(n + p) = G(n) + s for
//! every n ≥ e, with s a power of two, for splitting games (hexadecimal
//! codes, and codes whose repeated digit leaves one heap). Its statement
//! and proof are on [`ArithmeticTheorem::Layers`](crate::ArithmeticTheorem::Layers);
//! the names here follow them.

use crate::HeapGame;
use crate::periodicity::ArithmeticClaim;

/// The check gives up (proves nothing) past this many options looked at.
const WORK: u64 = 1 << 26;

/// The largest saltus looked at: the check keeps a flag per value below s.
const MAX_SALTUS: u64 = 1 << 20;

/// The longest pre-period and period looked at: the check keeps their
/// values.
const MAX_FIRST: u64 = 1 << 22;

/// The values the theorem claims: G(n) = s·H(n) + L(n), read from
/// G(0) … G(e + p − 1).
struct Form {
    e: u64,
    p: u64,
    s: u64,
    /// G(0) … G(e + p − 1).
    first: Vec<u64>,
}

impl Form {
    /// H(a): 0 below e, ⌊(a − e)/p⌋ from e on.
    fn high(&self, a: u64) -> u64 {
        if a < self.e { 0 } else { (a - self.e) / self.p }
    }

    /// L(a): G(a) below e, G(e + (a − e) mod p) from e on.
    fn low(&self, a: u64) -> u64 {
        let index = if a < self.e { a } else { self.e + (a - self.e) % self.p };
        self.first[index as usize]
    }
}

/// What the check found for `claim`, from the values G(0) … G(`count` − 1)
/// read with `at`: the largest n whose value it read, or why not.
pub(crate) fn prove(
    game: &HeapGame,
    at: &mut impl FnMut(u64) -> u32,
    count: u64,
    claim: ArithmeticClaim,
) -> Option<u64> {
    let ArithmeticClaim { period, saltus, preperiod } = claim;
    if game.unequal_splits() || period == 0 || saltus == 0 {
        return None;
    }
    let mut work = WORK;
    // (p, s) or a multiple (q·p, q·s), q a power of two, whose saltus
    // exceeds the first values.
    let mut q = 1u64;
    while q <= 16 {
        let (p, s) = (period.checked_mul(q)?, saltus.checked_mul(q)?);
        let e = preperiod;
        let needed = needed(game, e, p)?;
        if needed >= count {
            return None;
        }
        let small = s <= MAX_SALTUS && e.saturating_add(p) <= MAX_FIRST;
        if s.is_power_of_two() && small && check(game, at, e, p, s, &mut work)? {
            // The values read show G(n + period) = G(n) + saltus from e to
            // e + p + period − 1: with the form proved for (p, s), it
            // holds for every n ≥ e.
            let shown = e + p + period - 1;
            return (shown < count).then_some(needed.max(shown));
        }
        q *= 2;
    }
    None
}

/// D: the layers below the top one that are checked option by option.
fn band(game: &HeapGame, p: u64) -> u64 {
    (game.digits().len() as u64).div_ceil(p).max(1)
}

/// The largest n the check reads: N₀ − 1 = e + p(D + 3) − 1.
pub(crate) fn needed(game: &HeapGame, e: u64, p: u64) -> Option<u64> {
    let d = band(game, p);
    p.checked_mul(d + 3)?.checked_add(e)?.checked_sub(1)
}

/// The hypotheses (A0)–(A4) for (e, p, s); `None` past the work budget.
fn check(game: &HeapGame, at: &mut impl FnMut(u64) -> u32, e: u64, p: u64, s: u64, work: &mut u64) -> Option<bool> {
    let d = band(game, p);
    let n0 = e + p * (d + 3);
    // (A0) G(n) < s for n < e + p.
    let first: Vec<u64> = (0..e + p).map(|n| u64::from(at(n))).collect();
    if first.iter().any(|&v| v >= s) {
        return Some(false);
    }
    // (A1) G(n + p) = G(n) + s for e ≤ n < N₀ − p.
    if (e..n0 - p).any(|n| u64::from(at(n + p)) != u64::from(at(n)) + s) {
        return Some(false);
    }
    let form = Form { e, p, s, first };
    if !lower_layers_covered(game, &form) {
        return Some(false);
    }
    for r in 0..p {
        if !top_layers_hold(game, &form, d, n0 + r, work)? {
            return Some(false);
        }
    }
    Some(true)
}

/// (A2) and (A3): in every layer below the band, and in the bottom one,
/// the families of options named in the proof reach every low value.
fn lower_layers_covered(game: &HeapGame, form: &Form) -> bool {
    let Form { e, p, s, .. } = *form;
    let written = game.digits().len() as u64;
    let tail = game.tail();
    // Whether a written digit of each parity of k leaves three heaps, or two.
    let has = |bit: u8, parity: u64| (0..written).any(|k| k % 2 == parity && game.digit(k) & bit != 0);
    let three = [has(8, 0), has(8, 1)];
    let two = [has(4, 0), has(4, 1)];
    // The conditions depend on r and π only through the parity of pπ + r
    // (and of e + pπ + r in the bottom layer): both parities stand for all.
    for class in 0..2 {
        // A layer h ≥ 1: a = e + hp + δ, with pπ + r + k + δ even.
        let mut seen = vec![false; s as usize];
        for delta in 0..p {
            if tail & 2 != 0 || three[((class + delta) % 2) as usize] {
                seen[form.low(e + delta) as usize] = true;
            }
        }
        if seen.contains(&false) {
            return false;
        }
        // The bottom layer: 1 ≤ a < e + p, with e + pπ + r + k + a even.
        let mut seen = vec![false; s as usize];
        for a in 1..e + p {
            if tail & 2 != 0 || three[((class + a) % 2) as usize] {
                seen[form.low(a) as usize] = true;
            }
        }
        if tail & 1 != 0 || two[class as usize] {
            seen[0] = true;
        }
        if seen.contains(&false) {
            return false;
        }
    }
    true
}

/// (A4) at N = N₀ + r: no option with ΣH = H(N) has low value L(N); the
/// exact options reach every low value below L(N) in the top layer and
/// every low value in each of the D layers below it.
fn top_layers_hold(game: &HeapGame, form: &Form, band: u64, n: u64, work: &mut u64) -> Option<bool> {
    let top = form.high(n);
    let target = form.low(n);
    let s = form.s as usize;
    let mut cover = vec![vec![false; s]; band as usize + 1];
    let mut excluded = true;
    let mut look = |parts: &[u64]| {
        let sum: u64 = parts.iter().map(|&a| form.high(a)).sum();
        let low = parts.iter().fold(0, |x, &a| x ^ form.low(a));
        if sum == top && low == target {
            excluded = false;
        }
        if let Some(x) = exact_layer(form, parts)
            && top - x <= band
        {
            cover[(top - x) as usize][low as usize] = true;
        }
    };
    for_each_option(game, n, work, &mut look)?;
    if !excluded {
        return Some(false);
    }
    let top_ok = cover[0][..target as usize].iter().all(|&c| c);
    Some(top_ok && cover[1..].iter().all(|layer| layer.iter().all(|&c| c)))
}

/// X = ⊕H(a_i) when it is exactly known from the shape: at most one part
/// with H ≥ 1 is left once equal parts are paired off. `None` otherwise, or
/// when no part with H ≥ 1 is left (X = 0, the bottom layer).
fn exact_layer(form: &Form, parts: &[u64]) -> Option<u64> {
    let mut high: Vec<u64> = parts.iter().copied().filter(|&a| form.high(a) >= 1).collect();
    high.sort_unstable();
    let mut left = Vec::new();
    let mut i = 0;
    while i < high.len() {
        if i + 1 < high.len() && high[i] == high[i + 1] {
            i += 2;
        } else {
            left.push(high[i]);
            i += 1;
        }
    }
    match left.as_slice() {
        [a] => Some(form.high(*a)),
        _ => None,
    }
}

/// Calls `look` with the heaps every option of a heap of `n` leaves
/// (nothing, one heap, two or three), within `work`.
fn for_each_option(game: &HeapGame, n: u64, work: &mut u64, look: &mut impl FnMut(&[u64])) -> Option<()> {
    let top = if game.tail() == 0 { n.min(game.digits().len() as u64 - 1) } else { n };
    for k in 0..=top {
        let d = game.digit(k);
        let rest = n - k;
        if d & 1 != 0 && rest == 0 {
            look(&[]);
        }
        if d & 2 != 0 && k > 0 && rest > 0 {
            look(&[rest]);
        }
        if d & 4 != 0 && rest >= 2 {
            *work = work.checked_sub(rest / 2)?;
            for a in 1..=rest / 2 {
                look(&[a, rest - a]);
            }
        }
        if d & 8 != 0 && rest >= 3 {
            for a in 1..=rest / 3 {
                let last = (rest - a) / 2;
                *work = work.checked_sub(last.saturating_sub(a) + 1)?;
                for b in a..=last {
                    look(&[a, b, rest - a - b]);
                }
            }
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(code: &str) -> HeapGame {
        HeapGame::parse_hexadecimal(code).expect("a code")
    }

    fn top_layers(game: &HeapGame, form: &Form) -> bool {
        let band = band(game, form.p);
        let n0 = form.e + form.p * (band + 3);
        let mut work = WORK;
        (0..form.p).all(|r| top_layers_hold(game, form, band, n0 + r, &mut work) == Some(true))
    }

    /// 0.A8's form (period 4, saltus 2 from n = 1) passes (A2)–(A4); read
    /// for 0.2 (no move leaves three heaps, no repeated digit) the low
    /// layers are not reached (A2); with one low value changed, (A2) and
    /// (A3) still hold but the top layers do not (A4).
    #[test]
    fn each_hypothesis_can_fail() {
        let a8 = game("0.A8");
        let form = Form { e: 1, p: 4, s: 2, first: vec![0, 0, 1, 0, 1] };
        assert!(lower_layers_covered(&a8, &form) && top_layers(&a8, &form));
        assert!(!lower_layers_covered(&game("0.2"), &form));
        let changed = Form { first: vec![0, 1, 1, 0, 1], ..form };
        assert!(lower_layers_covered(&a8, &changed) && !top_layers(&a8, &changed));
        // 0.C's saltus 1 read as 2 with low values 0, 1: an even layer
        // misses the low value 0 (A2).
        let c = Form { e: 1, p: 2, s: 2, first: vec![0, 0, 1] };
        assert!(!lower_layers_covered(&game("0.C"), &c));
    }

    /// The work budget stops a check that would look at too many options.
    #[test]
    fn the_work_is_bounded() {
        let form = Form { e: 1, p: 2, s: 1, first: vec![0, 0, 0] };
        let mut work = 10;
        assert_eq!(top_layers_hold(&game("0.C"), &form, 1, 1000, &mut work), None);
    }
}
