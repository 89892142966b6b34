use bouton_rules::{Game, Nim, NimMove};
use rand::{Rng, RngCore};

use crate::Player;

/// Plays without thinking: a non-empty heap chosen uniformly, then an amount
/// chosen uniformly from 1 to the heap's size.
///
/// ```
/// use bouton_players::{Player, RandomMover};
/// use bouton_rules::{Convention, Game, Heaps, Nim};
/// use rand::SeedableRng;
///
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
/// let mut game = Game::new(Nim::new(Convention::Misere), Heaps::new(vec![4, 4])?)?;
/// while let Some(mv) = RandomMover.choose(&game, &mut rng) {
///     game.play(mv)?;
/// }
/// assert!(game.is_over());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomMover;

impl RandomMover {
    /// A uniformly random move as described on the type, among heaps for which
    /// `allowed(heap, size)` gives how many takes are allowed and `pick(heap,
    /// size, k)` maps the k-th allowed choice (from 0) to an amount.
    pub(crate) fn sample(
        heaps: &[u64],
        rng: &mut dyn RngCore,
        allowed: impl Fn(usize, u64) -> u64,
        pick: impl Fn(usize, u64, u64) -> u64,
    ) -> Option<NimMove> {
        let candidates: Vec<(usize, u64, u64)> = heaps
            .iter()
            .enumerate()
            .map(|(heap, &size)| (heap, size, allowed(heap, size)))
            .filter(|&(_, _, count)| count > 0)
            .collect();
        if candidates.is_empty() {
            return None;
        }
        let (heap, size, count) = candidates[rng.random_range(0..candidates.len())];
        let k = rng.random_range(0..count);
        Some(NimMove::new(heap, pick(heap, size, k)))
    }
}

impl Player<Nim> for RandomMover {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, game: &Game<Nim>, rng: &mut dyn RngCore) -> Option<NimMove> {
        RandomMover::sample(game.position().as_slice(), rng, |_, size| size, |_, _, k| k + 1)
    }
}
