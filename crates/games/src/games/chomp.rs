//! Chomp: no theory beyond the first player's win on a full rectangle
//! (strategy stealing, which names no move), so every analysis is an
//! exhaustive search within the budget, in both conventions.

use bouton_rules::Convention;
use rand::{Rng, RngCore};

use crate::RuleSetError;
use crate::game::{Game, RuleName};
use crate::games::search::{replies_by_search, searched};
use crate::{Analysis, AnalysisError, Bar, Budget, Chomp, ChompMove, Component, MoveParseError, Phrase};

impl Game for Chomp {
    fn from_name(name: &RuleName) -> Option<Result<Chomp, RuleSetError>> {
        matches!((name.name.as_str(), &name.parameter), ("chomp", None)).then(|| Ok(Chomp::new(Convention::Normal)))
    }

    fn examples() -> Vec<Chomp> {
        vec![Chomp::new(Convention::Normal)]
    }

    fn id(&self) -> String {
        "chomp".to_owned()
    }

    fn name(&self) -> String {
        "Chomp".to_owned()
    }

    fn summary(&self) -> String {
        "bite a square of the bar and eat it with every square above it and to its right; the bottom-left square \
         is poisoned and never eaten"
            .to_owned()
    }

    fn in_convention(self, convention: Convention) -> Chomp {
        Chomp::new(convention)
    }

    fn position_format(&self) -> &'static str {
        "column heights from the left, each no taller than the one before (the poisoned square is at the bottom \
         of column 1)"
    }

    fn default_start(&self) -> Vec<u64> {
        vec![4; 7]
    }

    /// `parts` columns of 1 to `max` squares, the tallest on the left.
    fn random_start(&self, parts: usize, max: u64, rng: &mut dyn RngCore) -> Vec<u64> {
        let mut heights: Vec<u64> = (0..parts.max(1)).map(|_| rng.random_range(1..=max.max(1))).collect();
        heights.sort_unstable_by(|a, b| b.cmp(a));
        heights
    }

    fn parse_move(&self, text: &str) -> Result<ChompMove, MoveParseError> {
        text.parse()
    }

    fn move_help(&self) -> &'static str {
        "`3 2` bites the square in column 3, row 2, with every square above it and to its right"
    }

    fn describe_move(&self, before: &Bar, mv: &ChompMove) -> Phrase {
        self.describe(before, mv)
    }

    fn analyze(&self, bar: &Bar, budget: &Budget) -> Result<Analysis<ChompMove>, AnalysisError> {
        searched(self, bar, budget, vec![Component::new("the bar", None)])
    }

    fn winning_replies(&self, bar: &Bar, moves: &[ChompMove], budget: &Budget) -> Vec<Option<usize>> {
        replies_by_search(self, bar, moves, budget)
    }
}
