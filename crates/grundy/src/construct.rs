//! A winning move of a heap game built from its Grundy values, for heaps far
//! too large to list every option: where the values are periodic, the
//! options that matter are those of the pre-period and of one period.

use crate::values::{Extension, HeapValues};
use crate::{HeapGame, HeapOption, Meter, OverBudget};

/// An option of a heap of `n` whose value is `target`, if one exists, found
/// by looking only at options that stand for all the others.
///
/// # Errors
/// [`OverBudget`] when `meter` runs out first.
///
/// ```
/// use bouton_grundy::{Budget, HeapGame, HeapValues, option_with_value};
///
/// let kayles = HeapGame::kayles();
/// let n = 1_000_000_000_000;
/// let values = HeapValues::for_heaps(&kayles, n)?;
/// // A heap of a trillion has an option worth 0: the winning move alone.
/// let option = option_with_value(&kayles, &values, n, 0, &mut Budget::interactive().meter())?.unwrap();
/// let value = |m: u64| if m == 0 { 0 } else { values.get(m).unwrap() };
/// assert_eq!(value(option.left) ^ value(option.right), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn option_with_value(
    game: &HeapGame,
    values: &HeapValues,
    n: u64,
    target: u64,
    meter: &mut Meter,
) -> Result<Option<HeapOption>, OverBudget> {
    let value = |m: u64| if m == 0 { Some(0) } else { values.get(m) };
    let written = game.digits().len() as u64;
    let tail = game.tail();
    if n >= written && tail != 0 {
        if tail & 1 != 0 && target == 0 {
            return Ok(Some(HeapOption::new(n, 0, 0)));
        }
        if tail & 2 != 0 && n > written {
            // Takes from `written` to n - 1 leave one heap of 1 to n - written.
            if let Some(left) = single_with_value(values, 1, n - written, target, meter)? {
                return Ok(Some(HeapOption::new(n - left, left, 0)));
            }
        }
    }
    for take in 0..=n.min(written - 1) {
        let (d, rest) = (game.digit(take), n - take);
        meter.spend(1)?;
        if d & 1 != 0 && rest == 0 && target == 0 {
            return Ok(Some(HeapOption::new(take, 0, 0)));
        }
        if d & 2 != 0 && rest > 0 && take > 0 && value(rest) == Some(target) {
            return Ok(Some(HeapOption::new(take, rest, 0)));
        }
        if d & 4 != 0 && rest >= 2 {
            let last = if game.unequal_at(take) { (rest - 1) / 2 } else { rest / 2 };
            if let Some(left) = split_with_value(values, rest, last, target, meter)? {
                return Ok(Some(HeapOption::new(take, left, rest - left)));
            }
        }
    }
    Ok(None)
}

/// A move of a heap of `n` that leaves three heaps a, c, c worth `target`,
/// if a move of that shape exists: the two equal heaps cancel, so it is
/// worth G(a), and a is found from the values as a single heap is (one size
/// per residue where an arithmetic period is proved), for heaps far too
/// large to list every three-heap option. Returns the tokens taken and the
/// three heaps. Digits with `!` (unequal heaps) are passed over.
///
/// # Errors
/// [`OverBudget`] when `meter` runs out first.
///
/// ```
/// use bouton_grundy::{Budget, HeapGame, HeapValues, three_heap_option_with_value};
///
/// // 0.8: take one token, split the rest into three heaps; G(n) = ⌊(n − 1)/3⌋.
/// let game = HeapGame::parse_hexadecimal("0.8")?;
/// let n = 1_000_000_000_000;
/// let values = HeapValues::for_heaps(&game, n)?;
/// let (take, [a, b, c]) =
///     three_heap_option_with_value(&game, &values, n, 5, &mut Budget::interactive().meter())?.expect("a move");
/// assert_eq!((take, a + b + c), (1, n - 1));
/// assert_eq!(values.get(a).unwrap() ^ values.get(b).unwrap() ^ values.get(c).unwrap(), 5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn three_heap_option_with_value(
    game: &HeapGame,
    values: &HeapValues,
    n: u64,
    target: u64,
    meter: &mut Meter,
) -> Result<Option<(u64, [u64; 3])>, OverBudget> {
    // A repeated digit never splits: only the written ones leave three heaps.
    for take in 0..=n.min(game.digits().len() as u64 - 1) {
        meter.spend(1)?;
        let rest = n - take;
        if game.digit(take) & 8 == 0 || game.unequal_at(take) || rest < 3 {
            continue;
        }
        if let Some(a) = single_of_parity(values, rest - 2, rest % 2, target, meter)? {
            let c = (rest - a) / 2;
            return Ok(Some((take, [a, c, c])));
        }
    }
    Ok(None)
}

/// The least heap size from 1 to `hi` of parity `parity` and value `target`.
fn single_of_parity(
    values: &HeapValues,
    hi: u64,
    parity: u64,
    target: u64,
    meter: &mut Meter,
) -> Result<Option<u64>, OverBudget> {
    let fits = |m: u64| (1..=hi).contains(&m) && m % 2 == parity;
    let scan_to = match values.extension() {
        Extension::Nim => return Ok(Some(target).filter(|&m| fits(m))),
        Extension::Arithmetic { period, saltus, preperiod } => {
            // From the pre-period on, each residue takes the value `target`
            // at one size at most.
            let best = least_in_residues(values, (period, saltus, preperiod), target, fits, meter)?;
            // Sizes below the pre-period are smaller than any of those.
            for m in 1..preperiod.min(hi.saturating_add(1)) {
                meter.spend(1)?;
                if fits(m) && values.get(m) == Some(target) {
                    return Ok(Some(m));
                }
            }
            return Ok(best);
        }
        // Two periods hold each residue at both parities.
        Extension::Period { period, preperiod } => hi.min(preperiod.saturating_add(period.saturating_mul(2))),
        Extension::Lasker | Extension::None => hi,
    };
    for m in 1..=scan_to {
        meter.spend(1)?;
        if fits(m) && values.get(m) == Some(target) {
            return Ok(Some(m));
        }
    }
    Ok(None)
}

/// The least size m ≥ the pre-period e that `accept` takes and whose value
/// is `target`, for values arithmetic-periodic with (`period`, `saltus`, e):
/// residue r holds G(r) + q·saltus at r + q·period, so each residue gives
/// one size at most.
fn least_in_residues(
    values: &HeapValues,
    (period, saltus, preperiod): (u64, u64, u64),
    target: u64,
    accept: impl Fn(u64) -> bool,
    meter: &mut Meter,
) -> Result<Option<u64>, OverBudget> {
    let mut best: Option<u64> = None;
    for r in preperiod..preperiod.saturating_add(period) {
        meter.spend(1)?;
        let Some(base) = values.get(r) else { break };
        if target < base || !(target - base).is_multiple_of(saltus) {
            continue;
        }
        let m = ((target - base) / saltus).checked_mul(period).and_then(|q| q.checked_add(r));
        if let Some(m) = m.filter(|&m| accept(m)) {
            best = Some(best.map_or(m, |b| b.min(m)));
        }
    }
    Ok(best)
}

/// A heap size from `lo` to `hi` of value `target`.
fn single_with_value(
    values: &HeapValues,
    lo: u64,
    hi: u64,
    target: u64,
    meter: &mut Meter,
) -> Result<Option<u64>, OverBudget> {
    match values.extension() {
        Extension::Nim => return Ok(Some(target).filter(|m| (lo..=hi).contains(m))),
        Extension::Lasker => {
            // G is 4k+1, 4k+2, 4k+4, 4k+3: its inverse is the same swap.
            let m = match target % 4 {
                0 if target > 0 => target - 1,
                3 => target + 1,
                _ => target,
            };
            return Ok(Some(m).filter(|m| (lo..=hi).contains(m)));
        }
        Extension::Arithmetic { period, saltus, preperiod } => {
            // Before the pre-period, every size; from it, each residue r
            // holds G(r) + q·saltus at r + q·period: one size per residue.
            for m in lo..=hi.min(preperiod.saturating_sub(1)) {
                meter.spend(1)?;
                if values.get(m) == Some(target) {
                    return Ok(Some(m));
                }
            }
            let within = |m: u64| (lo.max(preperiod)..=hi).contains(&m);
            return least_in_residues(values, (period, saltus, preperiod), target, within, meter);
        }
        _ => {}
    }
    for m in values.representatives(lo, hi) {
        meter.spend(1)?;
        if values.get(m) == Some(target) {
            return Ok(Some(m));
        }
    }
    Ok(None)
}

/// The smaller part `a` (1 ≤ a ≤ `last`) of a split of `rest` into a and
/// rest − a whose values XOR to `target`. With a proved period p after a
/// pre-period e, both parts lie in the periodic region for e ≤ a ≤ rest − e,
/// where the pair's value depends on a mod p alone: one period of a stands
/// for them all, beside the a below e and the a above rest − e.
fn split_with_value(
    values: &HeapValues,
    rest: u64,
    last: u64,
    target: u64,
    meter: &mut Meter,
) -> Result<Option<u64>, OverBudget> {
    // Without a period the representatives are every a already.
    let upper = match values.extension() {
        Extension::Period { preperiod, .. } => Some(rest.saturating_sub(preperiod).max(1)..=last),
        _ => None,
    };
    for a in values.representatives(1, last).chain(upper.into_iter().flatten()) {
        meter.spend(1)?;
        if let (Some(x), Some(y)) = (values.get(a), values.get(rest - a))
            && x ^ y == target
        {
            return Ok(Some(a));
        }
    }
    Ok(None)
}
