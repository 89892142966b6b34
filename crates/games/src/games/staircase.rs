//! Staircase Nim: Nim on the odd-numbered steps, a search in misère play.

use bouton_rules::{Convention, Rules};

use crate::game::{Game, RuleName, winner};
use crate::games::search::{replies_searching_misere, searched};
use crate::{Analysis, AnalysisError, Budget, Component, Method, MoveParseError, Phrase};
use crate::{RuleSetError, StairMove, Staircase, Stairs};

impl Game for Staircase {
    fn from_name(name: &RuleName) -> Option<Result<Staircase, RuleSetError>> {
        matches!((name.name.as_str(), &name.parameter), ("staircase" | "staircase-nim", None))
            .then(|| Ok(Staircase::new(Convention::Normal)))
    }

    fn examples() -> Vec<Staircase> {
        vec![Staircase::new(Convention::Normal)]
    }

    fn id(&self) -> String {
        "staircase".to_owned()
    }

    fn name(&self) -> String {
        "staircase Nim".to_owned()
    }

    fn summary(&self) -> String {
        "move one or more coins from a step down to the step below (from step 1, off the staircase)".to_owned()
    }

    fn in_convention(self, convention: Convention) -> Staircase {
        Staircase::new(convention)
    }

    fn position_format(&self) -> &'static str {
        "coins on steps 1, 2, 3, …"
    }

    fn default_start(&self) -> Vec<u64> {
        vec![3, 0, 5, 2]
    }

    fn parse_move(&self, text: &str) -> Result<StairMove, MoveParseError> {
        text.parse()
    }

    fn move_help(&self) -> &'static str {
        "`3 2` moves 2 coins from step 3 to step 2"
    }

    fn describe_move(&self, _before: &Stairs, mv: &StairMove) -> Phrase {
        self.describe(mv)
    }

    fn analyze(&self, stairs: &Stairs, budget: &Budget) -> Result<Analysis<StairMove>, AnalysisError> {
        let whole = vec![Component::new("the staircase", None)];
        if self.convention() == Convention::Misere {
            return searched(self, stairs, budget, whole);
        }
        let value = Staircase::grundy(stairs);
        Ok(Analysis {
            convention: Convention::Normal,
            winner: winner(value != 0),
            components: vec![Component::new("the staircase", Some(value))],
            total: Some(value),
            winning_moves: Staircase::winning_moves(stairs),
            complete: true,
            method: Method::OddSteps,
        })
    }

    fn winning_replies(&self, stairs: &Stairs, moves: &[StairMove], budget: &Budget) -> Vec<Option<usize>> {
        replies_searching_misere(self, stairs, moves, budget)
    }
}
