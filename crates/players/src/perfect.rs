use bouton_analysis::{Analysis, Winner};
use bouton_rules::{Game, Nim, NimMove, Rules};
use rand::{Rng, RngCore};

use crate::{Player, toughest_moves};

/// Perfect play. In a won position it picks uniformly at random among all
/// winning moves; in a lost one, among the [`toughest_moves`] for the
/// opponent.
///
/// ```
/// use bouton_players::{Perfect, Player};
/// use bouton_rules::{Convention, Game, Heaps, Nim, NimMove};
/// use rand::SeedableRng;
///
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
/// // Stanford's nim1 start: the only winning move takes 2 from heap 4.
/// let game = Game::new(Nim::new(Convention::Normal), Heaps::new(vec![1, 5, 4, 2])?)?;
/// assert_eq!(Perfect.choose(&game, &mut rng), Some(NimMove::new(3, 2)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Perfect;

impl Perfect {
    /// The perfect choice in `heaps` under the rules of `nim`.
    pub(crate) fn choose_in(nim: &Nim, heaps: &[u64], rng: &mut dyn RngCore) -> Option<NimMove> {
        let analysis = Analysis::new(heaps, nim.convention());
        let moves: Vec<NimMove> = match analysis.winner() {
            Winner::Mover => analysis.winning_moves(heaps).collect(),
            Winner::Opponent => toughest_moves(heaps, nim.convention()),
        };
        if moves.is_empty() {
            return None;
        }
        Some(moves[rng.random_range(0..moves.len())])
    }
}

impl Player<Nim> for Perfect {
    fn name(&self) -> &str {
        "perfect"
    }

    fn choose(&mut self, game: &Game<Nim>, rng: &mut dyn RngCore) -> Option<NimMove> {
        Perfect::choose_in(game.rules(), game.position().as_slice(), rng)
    }
}
