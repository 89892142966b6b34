use bouton_analysis::Analysis;
use bouton_rules::{Convention, NimMove};

/// The moves that make a lost position hardest for the opponent.
///
/// When every move loses against perfect play, the best hope is an opponent
/// who errs. This policy:
/// 1. leaves the opponent as **few winning replies** as possible, so a player
///    who guesses, or a person looking for the one right move, is least
///    likely to find one;
/// 2. among those, **takes the fewest tokens**, so the game lasts longest and
///    the opponent has the most chances to go wrong.
///
/// It never does worse than the classic "take one from the largest heap":
/// that move is among the candidates it compares. The candidates are, for each
/// heap, taking one, taking all, and for each 1-bit of the heap the smallest
/// take that clears it as the highest changed bit. In normal play the number
/// of winning replies depends only on the highest bit a move changes (it is
/// the number of heaps with a 1 in that column, minus one), so this candidate
/// set contains an optimal move for both criteria. Each candidate is scored
/// exactly with [`Analysis::count_winning_moves`], in misère play too.
///
/// Returns all moves tied on both criteria (empty only when no move exists),
/// for the caller to pick among at random.
///
/// ```
/// use bouton_players::toughest_moves;
/// use bouton_rules::{Convention, NimMove};
///
/// // 1 2 3 is lost for the mover. Taking one token from any heap leaves the
/// // opponent a single winning reply, and takes as little as possible.
/// let moves = toughest_moves(&[1, 2, 3], Convention::Normal);
/// assert_eq!(moves, vec![NimMove::new(0, 1), NimMove::new(1, 1), NimMove::new(2, 1)]);
/// // 1 1 3 3: the classic "one from the largest heap" leaves 1 1 3 2, where
/// // three replies win. Taking 2 from a heap of 3 leaves only one.
/// let moves = toughest_moves(&[1, 1, 3, 3], Convention::Normal);
/// assert_eq!(moves, vec![NimMove::new(2, 2), NimMove::new(3, 2)]);
/// ```
pub fn toughest_moves(heaps: &[u64], convention: Convention) -> Vec<NimMove> {
    let mut scratch = heaps.to_vec();
    let mut best: Vec<NimMove> = Vec::new();
    let mut best_score = (usize::MAX, u64::MAX);
    for (heap, &size) in heaps.iter().enumerate() {
        if size == 0 {
            continue;
        }
        let mut takes: Vec<u64> =
            (0..u64::BITS).filter(|&bit| (size >> bit) & 1 == 1).map(|bit| (size & ((1u64 << bit) - 1)) + 1).collect();
        takes.push(1);
        takes.push(size);
        takes.sort_unstable();
        takes.dedup();
        for take in takes {
            scratch[heap] = size - take;
            let replies = Analysis::new(&scratch, convention).count_winning_moves(&scratch);
            let score = (replies, take);
            if score < best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(NimMove::new(heap, take));
            }
        }
        scratch[heap] = size;
    }
    best
}
