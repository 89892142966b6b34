//! Random moves drawn without listing every legal move: a position of
//! Moore's Nim_k with twelve heaps of fifty has about 10^15 moves, a Kayles
//! row of ten million about ten million, and the computer must still answer
//! at once.

use bouton_rules::{Heaps, Nim, NimMove, Rules};
use rand::{Rng, RngCore};

use crate::{
    Bar, Board, Chomp, ChompMove, FibMove, FibPosition, FibonacciNim, HeapGame, HeapMove, HeapOption, HeapRules,
    MOORE_MAX_K, MooreMove, MooreNim, Northcott, NorthcottMove, Pairs, StairMove, Staircase, Stairs, Wythoff,
    WythoffMove,
};

/// Rules that can draw a random legal move in time proportional to the size
/// of the position's description (the number of heaps, rows or pairs, or
/// for a splitting game the written digits), never to the number of moves.
///
/// ```
/// use bouton_games::{MooreNim, RandomMove};
/// use bouton_rules::{Convention, Heaps, Rules};
/// use rand::SeedableRng;
///
/// let rules = MooreNim::new(8, Convention::Normal)?;
/// let heaps = Heaps::new(vec![50; 12])?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
/// let mv = rules.random_move(&heaps, &mut rng).unwrap();
/// assert!(rules.check(&heaps, mv).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait RandomMove: Rules {
    /// A random legal move, `None` when there is none. Where it is cheap the
    /// draw is uniform over all legal moves; otherwise every legal move has
    /// a chance.
    fn random_move(&self, position: &Self::Position, rng: &mut dyn RngCore) -> Option<Self::Move>;
}

/// Picks an index with probability proportional to its weight.
fn weighted(weights: &[u128], rng: &mut dyn RngCore) -> Option<(usize, u128)> {
    let total: u128 = weights.iter().fold(0u128, |sum, &w| sum.saturating_add(w));
    if total == 0 {
        return None;
    }
    let mut r = rng.random_range(0..total);
    for (i, &w) in weights.iter().enumerate() {
        if r < w {
            return Some((i, r));
        }
        r -= w;
    }
    None
}

impl RandomMove for Nim {
    /// Uniform over every legal move.
    fn random_move(&self, heaps: &Heaps, rng: &mut dyn RngCore) -> Option<NimMove> {
        let weights: Vec<u128> = heaps.as_slice().iter().map(|&h| u128::from(h)).collect();
        let (heap, r) = weighted(&weights, rng)?;
        Some(NimMove { heap, take: r as u64 + 1 })
    }
}

/// How many moves removing `take` tokens allow from a heap of `n`: leaving
/// nothing, one heap, two or three.
fn options_at(game: &HeapGame, n: u64, take: u64) -> u128 {
    let (d, rest) = (game.digit(take), n - take);
    let nothing = u128::from(d & 1 != 0 && rest == 0);
    let one = u128::from(d & 2 != 0 && rest > 0 && take > 0);
    let two = if d & 4 != 0 && rest >= 2 { u128::from(split_count(game, rest, take)) } else { 0 };
    let three = if d & 8 != 0 { ThreeHeaps::of(rest, game.unequal_at(take)).count() } else { 0 };
    nothing + one + two + three
}

/// The ways to split `rest` into two non-empty heaps, after taking `take`.
fn split_count(game: &HeapGame, rest: u64, take: u64) -> u64 {
    if game.unequal_at(take) { (rest - 1) / 2 } else { rest / 2 }
}

/// The ways to leave three non-empty heaps `a ≤ b ≤ c` of `rest` tokens in
/// all (`a < b < c` under a `!`), counted and numbered in closed form, so
/// that a heap of 10^18 tokens costs no more than a heap of ten.
///
/// Pairwise unequal parts `a < b < c` are the parts `a ≤ b − 1 ≤ c − 2` of
/// `rest − 3` shifted back, so both cases are the partitions of a number
/// `total` into three parts, numbered by `a`, then `b`.
struct ThreeHeaps {
    /// The number partitioned.
    total: u64,
    /// Whether `b` and `c` are shifted back by 1 and 2.
    unequal: bool,
}

impl ThreeHeaps {
    fn of(rest: u64, unequal: bool) -> ThreeHeaps {
        // Fewer than 3 (or 6) tokens leave no three (unequal) heaps: total 0.
        let total = if unequal { rest.saturating_sub(3) } else { rest };
        ThreeHeaps { total: if total >= 3 { total } else { 0 }, unequal }
    }

    /// The partitions whose smallest part is at most `most` (at most
    /// `total / 3`): Σ over a = 1..most of (⌊(total − a)/2⌋ − a + 1), the
    /// choices of `b` from `a` to `(total − a)/2`.
    fn count_upto(&self, most: u64) -> u128 {
        // Σ of ⌊m/2⌋ over m = 0..count is ⌊(count − 1)²/4⌋.
        let halves = |count: u64| -> u128 {
            let m = u128::from(count.saturating_sub(1));
            m * m / 4
        };
        let a = u128::from(most);
        halves(self.total) - halves(self.total - most) + a - a * (a + 1) / 2
    }

    /// Every way.
    fn count(&self) -> u128 {
        self.count_upto(self.total / 3)
    }

    /// The `r`-th way (from 0, below [`ThreeHeaps::count`]) as the two
    /// parts split off, `(a, b)`: found by bisection on `a`.
    fn nth(&self, r: u128) -> (u64, u64) {
        // The least a with more than r ways of smallest part at most a.
        let (mut low, mut high) = (1, self.total / 3);
        while low < high {
            let mid = low + (high - low) / 2;
            if self.count_upto(mid) > r { high = mid } else { low = mid + 1 }
        }
        let a = low;
        let b = a + (r - self.count_upto(a - 1)) as u64;
        if self.unequal { (a, b + 1) } else { (a, b) }
    }
}

/// Every move on a heap of `n`, counted without listing them: the written
/// digits one by one, the repeated tail (which never splits) at once.
pub(crate) fn option_count(game: &HeapGame, n: u64) -> u128 {
    let written = game.digits().len() as u64;
    let mut count: u128 = (0..=n.min(written - 1)).map(|take| options_at(game, n, take)).sum();
    if n >= written && game.tail() != 0 {
        if game.tail() & 2 != 0 {
            count += u128::from(n - written);
        }
        if game.tail() & 1 != 0 {
            count += 1;
        }
    }
    count
}

/// The `r`-th move on heap `heap` of `n` tokens: for each take in turn, the
/// option leaving nothing, the one leaving one heap, those leaving two (by
/// [`HeapGame::options`]' order), then those leaving three.
fn nth_move(game: &HeapGame, heap: usize, n: u64, mut r: u128) -> Option<HeapMove> {
    let written = game.digits().len() as u64;
    for take in 0..=n.min(written - 1) {
        let here = options_at(game, n, take);
        if r >= here {
            r -= here;
            continue;
        }
        let (d, rest) = (game.digit(take), n - take);
        let option = |left, right| Some(HeapMove::from_option(heap, HeapOption::new(take, left, right)));
        if d & 1 != 0 && rest == 0 {
            if r == 0 {
                return option(0, 0);
            }
            r -= 1;
        }
        if d & 2 != 0 && rest > 0 && take > 0 {
            if r == 0 {
                return option(rest, 0);
            }
            r -= 1;
        }
        let two = if d & 4 != 0 && rest >= 2 { u128::from(split_count(game, rest, take)) } else { 0 };
        if r < two {
            let left = r as u64 + 1;
            return option(left, rest - left);
        }
        let (part, part2) = ThreeHeaps::of(rest, game.unequal_at(take)).nth(r - two);
        return Some(HeapMove { heap, take, part, part2 });
    }
    let tail = game.tail();
    let ones = if tail & 2 != 0 { u128::from(n - written) } else { 0 };
    if r < ones {
        let take = written + r as u64;
        return Some(HeapMove::from_option(heap, HeapOption::new(take, n - take, 0)));
    }
    (tail & 1 != 0 && r == ones).then_some(HeapMove::from_option(heap, HeapOption::new(n, 0, 0)))
}

impl RandomMove for HeapRules {
    /// Uniform over every legal move, those of a hexadecimal code that
    /// leave three heaps included.
    fn random_move(&self, heaps: &Heaps, rng: &mut dyn RngCore) -> Option<HeapMove> {
        let weights: Vec<u128> = heaps.as_slice().iter().map(|&n| option_count(self.game(), n)).collect();
        let (heap, r) = weighted(&weights, rng)?;
        nth_move(self.game(), heap, heaps.as_slice()[heap], r)
    }
}

impl RandomMove for MooreNim {
    /// A number of heaps from 1 to k, then that many non-empty heaps, then
    /// an amount from each, all uniform.
    fn random_move(&self, heaps: &Heaps, rng: &mut dyn RngCore) -> Option<MooreMove> {
        let sizes = heaps.as_slice();
        let non_empty: Vec<usize> = (0..sizes.len()).filter(|&i| sizes[i] > 0).collect();
        if non_empty.is_empty() {
            return None;
        }
        let count = rng.random_range(1..=self.k().min(non_empty.len()).min(MOORE_MAX_K));
        let chosen = rand::seq::index::sample(rng, non_empty.len(), count);
        let pairs: Vec<(usize, u64)> = chosen
            .iter()
            .map(|i| {
                let heap = non_empty[i];
                (heap, rng.random_range(1..=sizes[heap]))
            })
            .collect();
        Some(MooreMove::new(&pairs))
    }
}

impl RandomMove for Wythoff {
    /// Uniform over every legal move.
    fn random_move(&self, pairs: &Pairs, rng: &mut dyn RngCore) -> Option<WythoffMove> {
        let list = pairs.as_slice();
        let weights: Vec<u128> =
            list.iter().map(|&(a, b)| u128::from(a) + u128::from(b) + u128::from(a.min(b))).collect();
        let (pair, r) = weighted(&weights, rng)?;
        let (a, b) = list[pair];
        let r = r as u64;
        Some(if r < a {
            WythoffMove { pair, first: r + 1, second: 0 }
        } else if r - a < b {
            WythoffMove { pair, first: 0, second: r - a + 1 }
        } else {
            let z = r - a - b + 1;
            WythoffMove { pair, first: z, second: z }
        })
    }
}

impl RandomMove for Staircase {
    /// Uniform over every legal move.
    fn random_move(&self, stairs: &Stairs, rng: &mut dyn RngCore) -> Option<StairMove> {
        let weights: Vec<u128> = stairs.as_slice().iter().map(|&c| u128::from(c)).collect();
        let (step, r) = weighted(&weights, rng)?;
        Some(StairMove { step, coins: r as u64 + 1 })
    }
}

impl RandomMove for Northcott {
    /// Uniform over every legal move.
    fn random_move(&self, board: &Board, rng: &mut dyn RngCore) -> Option<NorthcottMove> {
        let white = board.white_to_move();
        // Each row's squares the piece to move may go to: an interval, less
        // the square it stands on.
        let ranges: Vec<(u64, u64, u64)> = board
            .rows()
            .iter()
            .map(|row| {
                let (mine, other) = if white { (row.white, row.black) } else { (row.black, row.white) };
                let (from, to) = if mine < other { (0, other) } else { (other + 1, row.width) };
                (from, to.max(from), mine)
            })
            .collect();
        let weights: Vec<u128> = ranges
            .iter()
            .map(|&(from, to, mine)| u128::from(to - from) - u128::from((from..to).contains(&mine)))
            .collect();
        let (row, r) = weighted(&weights, rng)?;
        let (from, _, mine) = ranges[row];
        let mut to = from + r as u64;
        if to >= mine && mine >= from {
            to += 1;
        }
        Some(NorthcottMove { row, to })
    }
}

impl RandomMove for Chomp {
    /// Uniform over every legal move.
    fn random_move(&self, bar: &Bar, rng: &mut dyn RngCore) -> Option<ChompMove> {
        // Every square but the poisoned one is a bite.
        let weights: Vec<u128> =
            bar.heights().iter().enumerate().map(|(i, &h)| u128::from(h) - u128::from(i == 0 && h > 0)).collect();
        let (column, r) = weighted(&weights, rng)?;
        Some(ChompMove { column, row: r as u64 + u64::from(column == 0) })
    }
}

impl RandomMove for FibonacciNim {
    /// Uniform over every legal move.
    fn random_move(&self, position: &FibPosition, rng: &mut dyn RngCore) -> Option<FibMove> {
        let most = position.max_take();
        (most > 0).then(|| FibMove { take: rng.random_range(1..=most) })
    }
}
