use bouton_analysis::Winner;
use bouton_players::{Level, Player};
use bouton_rules::{Game, Rules};
use rand::{Rng, RngCore};

use crate::{AnyMove, AnyPosition, AnyRules};

/// Candidate moves compared when looking for the toughest losing move.
const SAMPLED: usize = 24;

/// The computer for every rule set, at any [`Level`]: with the level's
/// probability it plays a winning move (chosen at random among all of them,
/// found through Grundy values or the rule set's theory); otherwise a random
/// move that does not win. In a lost position it picks, among a sample of
/// moves, one that leaves the opponent the fewest winning replies. Where no
/// analysis is available it plays at random.
///
/// ```
/// use bouton_grundy::{AnyRules, GrundyPlayer};
/// use bouton_players::{Level, Player};
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
}

impl GrundyPlayer {
    /// A player of this level.
    pub fn new(level: Level) -> GrundyPlayer {
        GrundyPlayer { level }
    }

    /// A uniformly random legal move, or one for which `keep` holds if any does.
    fn random_move(
        rules: &AnyRules,
        position: &AnyPosition,
        rng: &mut dyn RngCore,
        keep: impl Fn(&AnyMove) -> bool,
    ) -> Option<AnyMove> {
        let count = rules.legal_moves(position).filter(|m| keep(m)).count();
        if count == 0 {
            let all = rules.legal_moves(position).count();
            if all == 0 {
                return None;
            }
            return rules.legal_moves(position).nth(rng.random_range(0..all));
        }
        rules.legal_moves(position).filter(|m| keep(m)).nth(rng.random_range(0..count))
    }

    /// In a lost position: among a sample of moves, one leaving the fewest
    /// winning replies.
    fn toughest(rules: &AnyRules, position: &AnyPosition, rng: &mut dyn RngCore) -> Option<AnyMove> {
        let count = rules.legal_moves(position).count();
        if count == 0 {
            return None;
        }
        let mut sample: Vec<AnyMove> = Vec::with_capacity(SAMPLED);
        for _ in 0..SAMPLED.min(count) {
            let mv = rules.legal_moves(position).nth(rng.random_range(0..count))?;
            if !sample.contains(&mv) {
                sample.push(mv);
            }
        }
        let replies: Vec<usize> =
            rules.winning_replies(position, &sample).into_iter().map(|r| r.unwrap_or(usize::MAX - 1)).collect();
        let fewest = replies.iter().copied().min()?;
        let best: Vec<AnyMove> = sample.iter().zip(&replies).filter(|&(_, &r)| r == fewest).map(|(&mv, _)| mv).collect();
        best.get(rng.random_range(0..best.len())).copied()
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
        let Ok(analysis) = rules.analyze(position) else {
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
            _ if rng.random_bool(self.level.skill()) => GrundyPlayer::toughest(rules, position, rng),
            _ => GrundyPlayer::random_move(rules, position, rng, |_| true),
        }
    }
}
