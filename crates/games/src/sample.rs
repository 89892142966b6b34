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

/// How many options `take` gives a heap of `n`: leaving nothing, one heap,
/// or two.
fn options_at(game: &HeapGame, n: u64, take: u64) -> u128 {
    let (d, rest) = (game.digit(take), n - take);
    let nothing = u128::from(d & 1 != 0 && rest == 0);
    let one = u128::from(d & 2 != 0 && rest > 0 && take > 0);
    let two = if d & 4 != 0 && rest >= 2 { u128::from(split_count(game, rest, take)) } else { 0 };
    nothing + one + two
}

/// The ways to split `rest` into two non-empty heaps, after taking `take`.
fn split_count(game: &HeapGame, rest: u64, take: u64) -> u64 {
    if game.unequal_at(take) { (rest - 1) / 2 } else { rest / 2 }
}

/// Every option of a heap of `n`, counted without listing them: the written
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

/// The `r`-th option of a heap of `n`, in the order of [`HeapGame::options`].
fn nth_option(game: &HeapGame, n: u64, mut r: u128) -> Option<HeapOption> {
    let written = game.digits().len() as u64;
    for take in 0..=n.min(written - 1) {
        let here = options_at(game, n, take);
        if r >= here {
            r -= here;
            continue;
        }
        let (d, rest) = (game.digit(take), n - take);
        if d & 1 != 0 && rest == 0 {
            if r == 0 {
                return Some(HeapOption::new(take, 0, 0));
            }
            r -= 1;
        }
        if d & 2 != 0 && rest > 0 && take > 0 {
            if r == 0 {
                return Some(HeapOption::new(take, rest, 0));
            }
            r -= 1;
        }
        let left = r as u64 + 1;
        return Some(HeapOption::new(take, left, rest - left));
    }
    let tail = game.tail();
    let ones = if tail & 2 != 0 { u128::from(n - written) } else { 0 };
    if r < ones {
        let take = written + r as u64;
        return Some(HeapOption::new(take, n - take, 0));
    }
    (tail & 1 != 0 && r == ones).then_some(HeapOption::new(n, 0, 0))
}

impl RandomMove for HeapRules {
    /// Uniform over every legal move.
    fn random_move(&self, heaps: &Heaps, rng: &mut dyn RngCore) -> Option<HeapMove> {
        let weights: Vec<u128> = heaps.as_slice().iter().map(|&n| option_count(self.game(), n)).collect();
        let (heap, r) = weighted(&weights, rng)?;
        let option = nth_option(self.game(), heaps.as_slice()[heap], r)?;
        Some(HeapMove::from_option(heap, option))
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
