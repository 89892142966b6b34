//! Misère play of a heap game by its misère quotient (Plambeck–Siegel): a
//! position's element is the product of its heaps' elements, the player to
//! move loses exactly when it lies in the P-portion, and a winning move is
//! one whose result lies there. Each heap's moves are read against the
//! elements that would complete the rest of the position to one in P, so
//! every option costs two look-ups and a product.

use bouton_misere::{Element, MisereQuotient};
use bouton_rules::{Convention, Heaps};

use crate::game::{Game, winner};
use crate::games::heap::heap_components;
use crate::{Analysis, AnalysisError, Budget, HeapMove, HeapOption, HeapRules, MOVE_BUDGET, Meter, Method};

/// The elements of `heaps`, or `None` when one is beyond the heaps the
/// quotient's proof covers.
pub(crate) fn elements(q: &MisereQuotient, heaps: &[u64]) -> Option<Vec<Element>> {
    heaps.iter().map(|&h| q.pretending().get(h)).collect()
}

/// The product of `elements`.
pub(crate) fn product(q: &MisereQuotient, elements: &[Element]) -> Element {
    elements.iter().fold(q.monoid().identity(), |acc, &x| q.monoid().multiply(acc, x))
}

/// For each heap, which elements it may become for the whole to land in the
/// P-portion: `targets[i][y]` when the product of the other heaps times `y`
/// is in P.
fn targets(q: &MisereQuotient, elements: &[Element]) -> Vec<Vec<bool>> {
    let monoid = q.monoid();
    // Products of the heaps before and after each one.
    let mut before = Vec::with_capacity(elements.len());
    let mut acc = monoid.identity();
    for &x in elements {
        before.push(acc);
        acc = monoid.multiply(acc, x);
    }
    let mut after = vec![monoid.identity(); elements.len()];
    let mut acc = monoid.identity();
    for (i, &x) in elements.iter().enumerate().rev() {
        after[i] = acc;
        acc = monoid.multiply(acc, x);
    }
    let mut cache: Vec<(Element, Vec<bool>)> = Vec::new();
    before
        .iter()
        .zip(&after)
        .map(|(&b, &a)| {
            let rest = monoid.multiply(b, a);
            if let Some((_, t)) = cache.iter().find(|(r, _)| *r == rest) {
                return t.clone();
            }
            let t: Vec<bool> = monoid.elements().map(|y| q.is_p(monoid.multiply(rest, y))).collect();
            cache.push((rest, t.clone()));
            t
        })
        .collect()
}

/// The element an option leaves (`None` beyond the quotient's range, which
/// no option of a heap within it reaches).
fn option_element(q: &MisereQuotient, option: HeapOption) -> Option<Element> {
    let pretend = q.pretending();
    Some(q.monoid().multiply(pretend.get(option.left)?, pretend.get(option.right)?))
}

/// The options of a heap of `n` tokens that can reach every element any of
/// its options reaches, when the quotient's pretending function is periodic
/// (from `n0` with period `p`): a split `(a, b)` with `a >= n0 + p` has the
/// elements of `(a - kp, b + kp)` for the `k` that brings `a` below
/// `n0 + p`, so only splits with a smaller part below `n0 + p` are needed.
/// Without a period, every option.
fn representative_options(q: &MisereQuotient, n: u64) -> Box<dyn Iterator<Item = HeapOption> + '_> {
    let game = q.game();
    let Some(period) = q.pretending().period() else {
        return Box::new(game.options(n));
    };
    let bound = period.preperiod + period.period;
    // A period is proved for finite octal games only: finitely many takes,
    // and splits into any two sizes.
    let top = n.min(game.digits().len() as u64 - 1);
    Box::new((0..=top).flat_map(move |take| {
        let d = game.digit(take);
        let rest = n - take;
        let nothing = (d & 1 != 0 && rest == 0).then_some(HeapOption::new(take, 0, 0));
        let one = (d & 2 != 0 && rest > 0 && take > 0).then_some(HeapOption::new(take, rest, 0));
        let last = if d & 4 != 0 && rest >= 2 { (rest / 2).min(bound - 1) } else { 0 };
        nothing.into_iter().chain(one).chain((1..=last).map(move |a| HeapOption::new(take, a, rest - a)))
    }))
}

/// The winning moves of a heap position from the quotient: every one when
/// the position has at most [`MOVE_BUDGET`] options, else those among each
/// heap's representative options (see [`representative_options`]), marked
/// incomplete. `None` when a heap is beyond the quotient's range.
pub(crate) fn analyze(
    rules: &HeapRules,
    q: &MisereQuotient,
    heaps: &Heaps,
    budget: &Budget,
) -> Option<Result<Analysis<HeapMove>, AnalysisError>> {
    let sizes = heaps.as_slice();
    let images = elements(q, sizes)?;
    let total = product(q, &images);
    let mover_wins = !q.is_p(total);
    let mut meter = budget.meter();
    let mut moves = Vec::new();
    let mut complete = true;
    if mover_wins {
        let options: u128 = sizes.iter().map(|&n| crate::sample::option_count(rules.game(), n)).sum();
        complete = options <= u128::from(MOVE_BUDGET);
        if let Err(e) = winning_moves(q, sizes, &images, complete, &mut meter, &mut moves) {
            return Some(Err(rules.over_budget(e)));
        }
    }
    Some(Ok(Analysis {
        convention: Convention::Misere,
        winner: winner(mover_wins),
        components: heap_components(sizes, |_| None),
        total: None,
        winning_moves: moves,
        complete,
        method: Method::MisereQuotient,
    }))
}

/// Pushes onto `moves` the winning moves of the position of `sizes` (whose
/// elements are `images`): all of them, or with `all` false those among
/// the representative options.
fn winning_moves(
    q: &MisereQuotient,
    sizes: &[u64],
    images: &[Element],
    all: bool,
    meter: &mut Meter,
    moves: &mut Vec<HeapMove>,
) -> Result<(), crate::OverBudget> {
    let targets = targets(q, images);
    for (heap, (&n, target)) in sizes.iter().zip(&targets).enumerate() {
        let options: Box<dyn Iterator<Item = HeapOption>> =
            if all { Box::new(q.game().options(n)) } else { representative_options(q, n) };
        let mut seen = 0u64;
        for option in options {
            seen += 1;
            if seen.is_multiple_of(4096) {
                meter.spend(4096)?;
            }
            if option_element(q, option).is_some_and(|y| target[y.0 as usize]) {
                moves.push(HeapMove::from_option(heap, option));
            }
        }
        meter.spend(seen % 4096)?;
    }
    Ok(())
}

/// How many winning moves the position of `sizes` has (0 when it is lost),
/// counting every option; `None` beyond the quotient's range.
pub(crate) fn count_winning_moves(
    q: &MisereQuotient,
    sizes: &[u64],
    meter: &mut Meter,
) -> Option<Result<usize, crate::OverBudget>> {
    let images = elements(q, sizes)?;
    if q.is_p(product(q, &images)) {
        return Some(Ok(0));
    }
    let mut moves = Vec::new();
    Some(winning_moves(q, sizes, &images, true, meter, &mut moves).map(|()| moves.len()))
}
