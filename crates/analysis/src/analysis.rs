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
        let big_heaps = match convention {
            Convention::Normal => 0,
            Convention::Misere => heaps.iter().map(|&h| usize::from(h > 1)).sum(),
        };
        Analysis { convention, nim_sum: nim_sum(heaps), big_heaps }
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
        // In a lost position no heap has a winning target, so no guard is needed.
        heaps
            .iter()
            .enumerate()
            .filter_map(|(heap, &size)| self.winning_move_in(heap, size))
    }

    /// The first winning move (lowest heap number), if the mover wins.
    pub fn first_winning_move(&self, heaps: &[u64]) -> Option<NimMove> {
        self.winning_moves(heaps).next()
    }

    /// How many winning moves there are.
    pub fn count_winning_moves(&self, heaps: &[u64]) -> usize {
        self.winning_moves(heaps).count()
    }

    /// The nim-sum left by playing `mv` in `heaps` (a legal move assumed).
    pub fn nim_sum_after(&self, heaps: &[u64], mv: NimMove) -> u64 {
        let size = heaps[mv.heap];
        self.nim_sum ^ size ^ (size - mv.take)
    }
}
