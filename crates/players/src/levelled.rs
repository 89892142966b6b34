use bouton_analysis::{Analysis, Winner};
use bouton_rules::{Game, Nim, NimMove, Rules};
use rand::{Rng, RngCore};

use crate::{Perfect, Player, RandomMover};

/// A fallible player: with probability `skill` it plays as [`Perfect`] does;
/// otherwise it makes a plausible mistake. In a won position the mistake is a
/// random move that does not win (a non-empty heap chosen uniformly among
/// those that have one, then such an amount uniformly); in a lost position,
/// where every move loses, it is simply a random move.
///
/// ```
/// use bouton_players::{Levelled, Player};
/// use bouton_rules::{Convention, Game, Heaps, Nim, NimMove};
/// use rand::SeedableRng;
///
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
/// let game = Game::new(Nim::new(Convention::Normal), Heaps::new(vec![1, 5, 4, 2])?)?;
/// // Skill 0: never the winning move (take 2 from heap 4).
/// let mut hopeless = Levelled::new("hopeless", 0.0);
/// for _ in 0..100 {
///     assert_ne!(hopeless.choose(&game, &mut rng), Some(NimMove::new(3, 2)));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Levelled {
    name: String,
    skill: f64,
}

impl Levelled {
    /// A player named `name` that plays perfectly with probability `skill`
    /// (clamped to 0..=1).
    pub fn new(name: impl Into<String>, skill: f64) -> Levelled {
        Levelled { name: name.into(), skill: skill.clamp(0.0, 1.0) }
    }

    /// The probability of a perfect move.
    pub fn skill(&self) -> f64 {
        self.skill
    }
}

/// A random move that does not win, or `None` if every move wins (or none exists).
fn random_mistake(heaps: &[u64], analysis: &Analysis, rng: &mut dyn RngCore) -> Option<NimMove> {
    let winning_take = |size: u64| analysis.winning_target(size).map(|target| size - target);
    RandomMover::sample(
        heaps,
        rng,
        |_, size| size - u64::from(winning_take(size).is_some()),
        |_, size, k| {
            let take = k + 1;
            match winning_take(size) {
                Some(win) if take >= win => take + 1,
                _ => take,
            }
        },
    )
}

impl Player<Nim> for Levelled {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, game: &Game<Nim>, rng: &mut dyn RngCore) -> Option<NimMove> {
        let heaps = game.position().as_slice();
        if rng.random_bool(self.skill) {
            return Perfect::choose_in(game.rules(), heaps, rng);
        }
        let analysis = Analysis::new(heaps, game.rules().convention());
        match analysis.winner() {
            Winner::Mover => {
                random_mistake(heaps, &analysis, rng).or_else(|| Perfect::choose_in(game.rules(), heaps, rng))
            }
            Winner::Opponent => RandomMover.choose(game, rng),
        }
    }
}
