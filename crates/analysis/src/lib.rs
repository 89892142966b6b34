//! Perfect-play analysis of Nim: the nim-sum, who wins, every winning move,
//! and the binary-column explanation as data for front-ends to render.
//!
//! Normal play follows Bouton (1901): the player to move loses exactly when
//! the nim-sum (XOR of the heap sizes) is 0. Misère play is the same until a
//! move would leave no heap larger than 1; then the winner leaves an odd
//! number of heaps of size 1.
//!
//! ```
//! use bouton_analysis::{Analysis, Winner};
//! use bouton_rules::{Convention, NimMove};
//!
//! let heaps = [3, 4, 5];
//! let analysis = Analysis::new(&heaps, Convention::Normal);
//! assert_eq!(analysis.nim_sum(), 2);
//! assert_eq!(analysis.winner(), Winner::Mover);
//! let moves: Vec<NimMove> = analysis.winning_moves(&heaps).collect();
//! assert_eq!(moves, vec![NimMove::new(0, 2)]); // take 2 from heap 1, leaving 1 4 5
//! ```

mod analysis;
mod explanation;
mod nim_sum;
mod winner;

pub use analysis::Analysis;
pub use explanation::{Advice, Explanation};
pub use nim_sum::nim_sum;
pub use winner::Winner;
