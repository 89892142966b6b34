use bouton_rules::{Game, Rules};
use rand::RngCore;

/// Something that chooses moves: a computer player.
///
/// ```
/// use bouton_players::{Player, RandomMover};
/// use bouton_rules::{Convention, Game, Heaps, Nim, NimMove};
/// use rand::SeedableRng;
///
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let game = Game::new(Nim::new(Convention::Normal), Heaps::new(vec![0, 2])?)?;
/// let mv = RandomMover.choose(&game, &mut rng).unwrap();
/// assert_eq!(mv.heap, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Player<R: Rules> {
    /// A short name for people, such as "perfect" or "easy".
    fn name(&self) -> &str;

    /// Chooses a legal move for the side to move, or `None` if the game is
    /// over. All randomness comes from `rng`.
    fn choose(&mut self, game: &Game<R>, rng: &mut dyn RngCore) -> Option<R::Move>;
}
