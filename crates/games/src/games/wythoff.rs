//! Wythoff's game: the losing pairs (⌊iφ⌋, ⌊iφ²⌋) for one pair, Grundy
//! values from a table for a sum of pairs, a search in misère play.

use bouton_rules::{Convention, Rules};
use rand::{Rng, RngCore};

use crate::game::{Game, RuleName, winner};
use crate::games::search::{replies_searching_misere, searched};
use crate::{Analysis, AnalysisError, Budget, Component, Method, MoveParseError, Pairs, Phrase};
use crate::{RuleSetError, Unavailable, WYTHOFF_TABLE, Wythoff, WythoffMove};
use crate::{wythoff_grundy, wythoff_losing};

fn pair_components(pairs: &Pairs, value: impl Fn(u64, u64) -> Option<u64>) -> Vec<Component> {
    pairs
        .as_slice()
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| Component::new(format!("pair {}", i + 1), value(a, b)))
        .collect()
}

impl Game for Wythoff {
    fn from_name(name: &RuleName) -> Option<Result<Wythoff, RuleSetError>> {
        matches!((name.name.as_str(), &name.parameter), ("wythoff" | "wythoffs-game", None))
            .then(|| Ok(Wythoff::new(Convention::Normal)))
    }

    fn examples() -> Vec<Wythoff> {
        vec![Wythoff::new(Convention::Normal)]
    }

    fn id(&self) -> String {
        "wythoff".to_owned()
    }

    fn name(&self) -> String {
        "Wythoff's game".to_owned()
    }

    fn summary(&self) -> String {
        "take any number from one pile of a pair, or the same number from both".to_owned()
    }

    fn in_convention(self, convention: Convention) -> Wythoff {
        Wythoff::new(convention)
    }

    fn position_format(&self) -> &'static str {
        "pairs of pile sizes: 3 5 2 7 is the pairs (3, 5) and (2, 7)"
    }

    fn default_start(&self) -> Vec<u64> {
        vec![7, 10]
    }

    /// `parts` pairs.
    fn random_start(&self, parts: usize, max: u64, rng: &mut dyn RngCore) -> Vec<u64> {
        (0..2 * parts).map(|_| rng.random_range(1..=max.max(1))).collect()
    }

    fn parse_move(&self, text: &str) -> Result<WythoffMove, MoveParseError> {
        text.parse()
    }

    fn move_help(&self) -> &'static str {
        "`1 2 0` takes 2 from the first pile of pair 1, `1 3 3` 3 from both"
    }

    fn describe_move(&self, before: &Pairs, mv: &WythoffMove) -> Phrase {
        self.describe(mv, before.as_slice().len())
    }

    fn analyze(&self, pairs: &Pairs, budget: &Budget) -> Result<Analysis<WythoffMove>, AnalysisError> {
        if self.convention() == Convention::Misere {
            return searched(self, pairs, budget, pair_components(pairs, |_, _| None));
        }
        let mut meter = budget.meter();
        meter.check().map_err(|e| self.over_budget(e))?;
        let list = pairs.as_slice();
        if let [(a, b)] = list {
            let moves = Wythoff::winning_moves_of_pair(*a, *b)
                .into_iter()
                .map(|(first, second)| WythoffMove { pair: 0, first, second })
                .collect::<Vec<_>>();
            let losing = wythoff_losing(*a, *b);
            let value = if losing { Some(0) } else { wythoff_grundy(*a, *b).map(u64::from) };
            return Ok(Analysis {
                convention: Convention::Normal,
                winner: winner(!losing),
                components: vec![Component::new("pair 1", value)],
                total: value,
                winning_moves: moves,
                complete: true,
                method: Method::WythoffPairs,
            });
        }
        let grundy: Vec<u64> = list
            .iter()
            .map(|&(a, b)| wythoff_grundy(a, b).map(u64::from))
            .collect::<Option<_>>()
            .ok_or_else(|| self.not_available(Unavailable::WythoffTable { limit: WYTHOFF_TABLE }))?;
        let total = grundy.iter().fold(0, |x, &g| x ^ g);
        let mut moves = Vec::new();
        if total != 0 {
            for mv in self.legal_moves(pairs) {
                meter.spend(1).map_err(|e| self.over_budget(e))?;
                let (a, b) = list[mv.pair];
                let after = wythoff_grundy(a - mv.first, b - mv.second).map(u64::from);
                if after == Some(grundy[mv.pair] ^ total) {
                    moves.push(mv);
                }
            }
        }
        Ok(Analysis {
            convention: Convention::Normal,
            winner: winner(total != 0),
            components: pair_components(pairs, |a, b| wythoff_grundy(a, b).map(u64::from)),
            total: Some(total),
            winning_moves: moves,
            complete: true,
            method: Method::GrundyValues,
        })
    }

    fn winning_replies(&self, pairs: &Pairs, moves: &[WythoffMove], budget: &Budget) -> Vec<Option<usize>> {
        replies_searching_misere(self, pairs, moves, budget)
    }
}
