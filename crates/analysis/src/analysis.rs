use bouton_rules::{Convention, NimMove};

use crate::{Winner, nim_sum};

/// The perfect-play facts of one Nim position, computed in a single pass
/// over the heaps.
///
/// In every Nim position, normal or misère, each heap allows at most one
/// winning move: the one that leaves [`Analysis::winning_target`] tokens in
/// it. That makes every query here linear in the number of heaps.
///
/// ```
/// use bouton_analysis::{Analysis, Winner};
/// use bouton_rules::{Convention, NimMove};
///
/// // Misère 2 1: take the whole heap of 2, leaving one heap of 1 for the
/// // opponent, who must take the last token.
/// let heaps = [2, 1];
/// let analysis = Analysis::new(&heaps, Convention::Misere);
/// assert_eq!(analysis.winner(), Winner::Mover);
/// assert_eq!(analysis.first_winning_move(&heaps), Some(NimMove::new(0, 2)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Analysis {
    convention: Convention,
    nim_sum: u64,
    /// Heaps holding more than one token; counted only in misère play.
    big_heaps: usize,
}

impl Analysis {
    /// Analyses the position `heaps` under `convention`.
    pub fn new(heaps: &[u64], convention: Convention) -> Analysis {
        match convention {
            Convention::Normal => Analysis { convention, nim_sum: nim_sum(heaps), big_heaps: 0 },
            Convention::Misere => {
                // One pass for both facts: on large inputs the time is all in
                // reading the heaps from memory, so a second pass would double it.
                let (nim_sum, big_heaps) = heaps.iter().fold((0u64, 0u64), |(sum, big), &h| (sum ^ h, big + is_big(h)));
                // At most `heaps.len()`, so it fits.
                let big_heaps = big_heaps as usize;
                Analysis { convention, nim_sum, big_heaps }
            }
        }
    }

    /// The convention analysed under.
    pub fn convention(&self) -> Convention {
        self.convention
    }

    /// The XOR of all heap sizes.
    pub fn nim_sum(&self) -> u64 {
        self.nim_sum
    }

    /// Whether misère play has reached its endgame: no heap holds more than
    /// one token, so the count of single tokens decides. Always false in
    /// normal play.
    pub fn in_misere_endgame(&self) -> bool {
        self.convention == Convention::Misere && self.big_heaps == 0
    }

    /// Who wins with perfect play.
    pub fn winner(&self) -> Winner {
        let mover_wins = if self.in_misere_endgame() {
            // Only heaps of 0 and 1: the mover wins with an even number of 1s
            // (including none: the opponent took the last token and lost).
            self.nim_sum == 0
        } else {
            self.nim_sum != 0
        };
        if mover_wins { Winner::Mover } else { Winner::Opponent }
    }

    /// How many tokens a winning move leaves in a heap of `size` tokens, or
    /// `None` if no move from that heap wins.
    ///
    /// `size` must be one of the heaps this analysis was made from.
    pub fn winning_target(&self, size: u64) -> Option<u64> {
        let others = self.nim_sum ^ size;
        let target = match self.convention {
            Convention::Normal => others,
            Convention::Misere => {
                let big_elsewhere = self.big_heaps - usize::from(size > 1);
                if big_elsewhere > 0 {
                    // A heap above 1 remains whatever we leave: play as in normal Nim.
                    others
                } else {
                    // Every other heap is 0 or 1, so `others` is 0 or 1: leave an
                    // odd number of single tokens in total.
                    others ^ 1
                }
            }
        };
        (target < size).then_some(target)
    }

    /// The winning move from heap `heap` of `size` tokens, if there is one.
    pub fn winning_move_in(&self, heap: usize, size: u64) -> Option<NimMove> {
        self.winning_target(size).map(|target| NimMove::new(heap, size - target))
    }

    /// Every winning move, heap by heap; empty when the mover loses.
    ///
    /// `heaps` must be the heaps this analysis was made from.
    pub fn winning_moves<'a>(&'a self, heaps: &'a [u64]) -> impl Iterator<Item = NimMove> + 'a {
        let rule = self.rule();
        // With no winning move there is nothing to scan.
        let heaps = if let Rule::NoMove = rule { &[] } else { heaps };
        WinningMoves { analysis: self, rule, heaps, base: 0, next_chunk: 0, found: 0 }
    }

    /// The first winning move (lowest heap number), if the mover wins.
    pub fn first_winning_move(&self, heaps: &[u64]) -> Option<NimMove> {
        match self.rule() {
            Rule::NoMove => None,
            Rule::Column { mask, column } => {
                let bit = 1 << column;
                let found = |base: usize, chunk: &[u64]| {
                    let i = chunk.iter().position(|&h| h & bit != 0)?;
                    let size = chunk[i];
                    Some(NimMove::new(base + i, size - (size ^ mask)))
                };
                // At least one heap has the bit, and usually many do: look
                // heap by heap at first.
                let (head, tail) = heaps.split_at(heaps.len().min(CHUNK));
                if let Some(mv) = found(0, head) {
                    return Some(mv);
                }
                // Then skip blocks of heaps with one vectorised OR each while
                // none of them has the bit.
                let mut base = head.len();
                for chunk in tail.chunks(CHUNK) {
                    if chunk.iter().fold(0, |acc, &h| acc | h) & bit != 0 {
                        return found(base, chunk);
                    }
                    base += chunk.len();
                }
                None
            }
            Rule::HeapByHeap => heaps.iter().enumerate().find_map(|(heap, &size)| self.winning_move_in(heap, size)),
        }
    }

    /// How many winning moves there are.
    pub fn count_winning_moves(&self, heaps: &[u64]) -> usize {
        match self.rule() {
            Rule::NoMove => 0,
            // Branch-free, so it vectorises: add up the column's bits.
            Rule::Column { column, .. } => heaps.iter().map(|&h| (h >> column) & 1).sum::<u64>() as usize,
            Rule::HeapByHeap => heaps.iter().filter(|&&size| self.winning_target(size).is_some()).count(),
        }
    }

    /// How the winning heaps are told apart, decided once for all of them.
    fn rule(&self) -> Rule {
        // Every heap's winning target is `size ^ mask` for one `mask`, except
        // in misère play with exactly one heap above 1 (see `winning_target`).
        let mask = match self.convention {
            Convention::Normal => self.nim_sum,
            Convention::Misere => match self.big_heaps {
                0 => self.nim_sum ^ 1,
                1 => return Rule::HeapByHeap,
                _ => self.nim_sum,
            },
        };
        if mask == 0 {
            // `size ^ 0` is never below `size`.
            Rule::NoMove
        } else {
            // `size ^ mask < size` exactly when the highest bit that `mask`
            // flips is a 1 in `size`.
            Rule::Column { mask, column: u64::BITS - 1 - mask.leading_zeros() }
        }
    }

    /// The nim-sum left by playing `mv` in `heaps` (a legal move assumed).
    pub fn nim_sum_after(&self, heaps: &[u64], mv: NimMove) -> u64 {
        let size = heaps[mv.heap];
        self.nim_sum ^ size ^ (size - mv.take)
    }
}

/// 1 if a heap of `size` holds more than one token, else 0.
///
/// Equal to `u64::from(size > 1)`, but written without a comparison: SSE2,
/// the baseline x86-64 vector set, has no 64-bit compare, so `size > 1` is
/// emulated with a long instruction sequence, while this is two shifts and
/// an add. `size >> 1` is below 2^63, so adding 2^63 - 1 cannot overflow,
/// and it reaches bit 63 exactly when `size >> 1` is at least 1.
#[inline]
fn is_big(size: u64) -> u64 {
    ((size >> 1) + (u64::MAX >> 1)) >> 63
}

/// Heaps examined at a time by the block-wise scans.
const CHUNK: usize = 64;

/// Which heaps hold a winning move; see [`Analysis::rule`].
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// None: the mover loses.
    NoMove,
    /// A heap of `size` tokens has a winning move, to `size ^ mask`, exactly
    /// when bit `column` (the highest 1 of `mask`) is a 1 in `size`.
    Column { mask: u64, column: u32 },
    /// Misère play with exactly one heap above 1: that heap follows the
    /// endgame rule and the others the normal one, so ask heap by heap.
    HeapByHeap,
}

/// The iterator behind [`Analysis::winning_moves`]. It finds the winning heaps
/// [`CHUNK`] at a time as the bits of a word, without a branch per heap, then
/// hands them out lowest first.
struct WinningMoves<'a> {
    analysis: &'a Analysis,
    rule: Rule,
    heaps: &'a [u64],
    /// Index of the heap that bit 0 of `found` stands for.
    base: usize,
    /// Index of the first heap not yet examined.
    next_chunk: usize,
    /// Winning heaps examined but not yet handed out.
    found: u64,
}

impl WinningMoves<'_> {
    /// Examines the next chunk of heaps into `found`; false when none are left.
    fn refill(&mut self) -> bool {
        while self.found == 0 {
            if self.next_chunk >= self.heaps.len() {
                return false;
            }
            let end = self.heaps.len().min(self.next_chunk + CHUNK);
            let chunk = &self.heaps[self.next_chunk..end];
            self.found = match self.rule {
                Rule::NoMove => 0,
                Rule::Column { column, .. } => {
                    chunk.iter().enumerate().fold(0, |bits, (i, &h)| bits | ((h >> column) & 1) << i)
                }
                Rule::HeapByHeap => chunk
                    .iter()
                    .enumerate()
                    .fold(0, |bits, (i, &h)| bits | u64::from(self.analysis.winning_target(h).is_some()) << i),
            };
            self.base = self.next_chunk;
            self.next_chunk = end;
        }
        true
    }
}

impl Iterator for WinningMoves<'_> {
    type Item = NimMove;

    // Inlined into the caller (it is not generic, so it would not be
    // otherwise), so that handing out a move costs a few instructions; the
    // scan is in `refill`, once per chunk.
    #[inline]
    fn next(&mut self) -> Option<NimMove> {
        if self.found == 0 && !self.refill() {
            return None;
        }
        let heap = self.base + self.found.trailing_zeros() as usize;
        self.found &= self.found - 1;
        let size = self.heaps[heap];
        let target = match self.rule {
            Rule::Column { mask, .. } => size ^ mask,
            // Only heaps with a winning target had their bit set.
            _ => self.analysis.winning_target(size)?,
        };
        Some(NimMove::new(heap, size - target))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let found = self.found.count_ones() as usize;
        (found, Some(found + (self.heaps.len() - self.next_chunk)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Heap by heap from `winning_target`, as the fast paths must agree.
    fn reference_moves(analysis: &Analysis, heaps: &[u64]) -> Vec<NimMove> {
        heaps.iter().enumerate().filter_map(|(heap, &size)| analysis.winning_move_in(heap, size)).collect()
    }

    /// Deterministic pseudo-random heaps (xorshift), `bits` wide.
    fn heaps(n: usize, seed: u64, bits: u32) -> Vec<u64> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if bits == 64 { x } else { x & ((1 << bits) - 1) }
            })
            .collect()
    }

    #[test]
    fn is_big_is_more_than_one_token() {
        for size in [0, 1, 2, 3, 4, 1 << 32, u64::MAX >> 1, (u64::MAX >> 1) + 1, u64::MAX - 1, u64::MAX] {
            assert_eq!(is_big(size), u64::from(size > 1), "{size}");
        }
    }

    #[test]
    fn fast_paths_agree_with_heap_by_heap_across_chunks() {
        let mut positions = Vec::new();
        for n in [0, 1, 2, 63, 64, 65, 127, 128, 129, 300] {
            for (seed, bits) in [(1, 64), (2, 3), (3, 1), (4, 2)] {
                positions.push(heaps(n, seed, bits));
            }
            // The only winning heap last, and in misère a single big heap.
            let mut late = heaps(n, 5, 1);
            if let Some(last) = late.last_mut() {
                *last = 1 << 40;
            }
            positions.push(late);
        }
        for heaps in &positions {
            for convention in [Convention::Normal, Convention::Misere] {
                let analysis = Analysis::new(heaps, convention);
                let expected_big = match convention {
                    Convention::Normal => 0,
                    Convention::Misere => heaps.iter().filter(|&&h| h > 1).count(),
                };
                assert_eq!(analysis.big_heaps, expected_big);
                assert_eq!(analysis.nim_sum, heaps.iter().fold(0, |a, &h| a ^ h));
                let expected = reference_moves(&analysis, heaps);
                let listed: Vec<NimMove> = analysis.winning_moves(heaps).collect();
                assert_eq!(listed, expected, "{convention:?} {heaps:?}");
                assert_eq!(analysis.count_winning_moves(heaps), expected.len());
                assert_eq!(analysis.first_winning_move(heaps), expected.first().copied());
            }
        }
    }
}
