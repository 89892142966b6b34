use bouton_analysis::Winner;
use bouton_games::{AnyMove, AnyPosition, AnyRules, Budget};
use bouton_rules::Game;
use rand::{Rng, RngCore};

use crate::{Level, Player};

/// The computer for every rule set, at any [`Level`]: with the level's
/// probability it plays a winning move (chosen at random among all of them,
/// found through Grundy values or the rule set's theory); otherwise a random
/// move that does not win. In a lost position it picks one of the moves
/// that leave the opponent the fewest winning replies (the same policy as
/// every hint, [`AnyRules::toughest`]). Where no
/// analysis is available it plays at random.
///
/// ```
/// use bouton_games::AnyRules;
/// use bouton_players::{GrundyPlayer, Level, Player};
/// use bouton_rules::{Convention, Game};
/// use rand::SeedableRng;
///
/// let rules = AnyRules::parse("grundy", Convention::Normal)?;
/// let mut game = Game::new(rules.clone(), rules.position(&[11])?)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let mut perfect = GrundyPlayer::new(Level::Perfect);
/// let mv = perfect.choose(&game, &mut rng).unwrap();
/// game.play(mv)?;
/// assert_eq!(rules.analyze(game.position())?.total, Some(0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct GrundyPlayer {
    level: Level,
    budget: Option<Budget>,
}

/// Random draws tried when looking for a move that does not win.
const DRAWS: usize = 64;

impl GrundyPlayer {
    /// A player of this level, thinking within the rules' own budget.
    pub fn new(level: Level) -> GrundyPlayer {
        GrundyPlayer { level, budget: None }
    }

    /// The same player thinking within `budget` (its clock starts with each
    /// move, and every analysis behind one move shares it): past it, or when
    /// its cancel flag is raised, the player answers at random.
    pub fn with_budget(mut self, budget: Budget) -> GrundyPlayer {
        self.budget = Some(budget);
        self
    }

    /// A random legal move, preferably one for which `keep` holds: drawn a
    /// few times without listing the legal moves.
    fn random_move(
        rules: &AnyRules,
        position: &AnyPosition,
        rng: &mut dyn RngCore,
        keep: impl Fn(&AnyMove) -> bool,
    ) -> Option<AnyMove> {
        let first = rules.random_move(position, rng)?;
        if keep(&first) {
            return Some(first);
        }
        (1..DRAWS).filter_map(|_| rules.random_move(position, rng)).find(|m| keep(m)).or(Some(first))
    }

    /// In a lost position: one of the toughest moves
    /// ([`AnyRules::toughest`]), chosen at random.
    fn toughest(rules: &AnyRules, position: &AnyPosition, rng: &mut dyn RngCore, budget: &Budget) -> Option<AnyMove> {
        let toughest = rules.toughest(position, budget)?;
        toughest.moves.get(rng.random_range(0..toughest.moves.len())).copied()
    }
}

impl Player<AnyRules> for GrundyPlayer {
    fn name(&self) -> &str {
        self.level.name()
    }

    fn choose(&mut self, game: &Game<AnyRules>, rng: &mut dyn RngCore) -> Option<AnyMove> {
        let rules = game.rules();
        let position = game.position();
        if self.level == Level::Random {
            return GrundyPlayer::random_move(rules, position, rng, |_| true);
        }
        let budget = self.budget.as_ref().unwrap_or(rules.budget()).started();
        let Ok(analysis) = rules.analyze_within(position, &budget) else {
            return GrundyPlayer::random_move(rules, position, rng, |_| true);
        };
        match analysis.winner {
            Winner::Mover if !analysis.winning_moves.is_empty() => {
                if rng.random_bool(self.level.skill()) {
                    let preferred = rules.progressive(position, &analysis.winning_moves);
                    Some(preferred[rng.random_range(0..preferred.len())])
                } else {
                    let winning = &analysis.winning_moves;
                    GrundyPlayer::random_move(rules, position, rng, |m| !winning.contains(m))
                }
            }
            _ if rng.random_bool(self.level.skill()) => GrundyPlayer::toughest(rules, position, rng, &budget)
                .or_else(|| GrundyPlayer::random_move(rules, position, rng, |_| true)),
            _ => GrundyPlayer::random_move(rules, position, rng, |_| true),
        }
    }
}
