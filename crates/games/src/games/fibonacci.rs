//! Fibonacci Nim: the Zeckendorf representation in normal play, a search in
//! misère play.

use bouton_rules::{Convention, Rules};
use rand::{Rng, RngCore};

use crate::game::{Game, RuleName, winner};
use crate::games::search::{replies_searching_misere, searched};
use crate::{Analysis, AnalysisError, Budget, Component, FibMove, FibPosition, FibonacciNim, Method};
use crate::{MoveParseError, Phrase, RuleSetError, Verb};

impl Game for FibonacciNim {
    fn from_name(name: &RuleName) -> Option<Result<FibonacciNim, RuleSetError>> {
        matches!((name.name.as_str(), &name.parameter), ("fibonacci" | "fibonacci-nim", None))
            .then(|| Ok(FibonacciNim::new(Convention::Normal)))
    }

    fn examples() -> Vec<FibonacciNim> {
        vec![FibonacciNim::new(Convention::Normal)]
    }

    fn id(&self) -> String {
        "fibonacci".to_owned()
    }

    fn name(&self) -> String {
        "Fibonacci Nim".to_owned()
    }

    fn summary(&self) -> String {
        "take from the heap: not all of it at the first move, then at most twice the previous move".to_owned()
    }

    fn in_convention(self, convention: Convention) -> FibonacciNim {
        FibonacciNim::new(convention)
    }

    /// A second number sets the most the next move may take, as in a game
    /// under way (a start takes only the heap).
    fn position_format(&self) -> &'static str {
        "the heap size, then optionally the most the next move may take"
    }

    fn default_start(&self) -> Vec<u64> {
        vec![20]
    }

    /// One heap, whatever `parts` says.
    fn random_start(&self, _parts: usize, max: u64, rng: &mut dyn RngCore) -> Vec<u64> {
        vec![rng.random_range(2..=max.max(2))]
    }

    fn parse_move(&self, text: &str) -> Result<FibMove, MoveParseError> {
        text.parse()
    }

    fn move_help(&self) -> &'static str {
        "`3` takes 3 tokens"
    }

    fn describe_move(&self, _before: &FibPosition, mv: &FibMove) -> Phrase {
        Phrase::new(Verb::Take, mv.take.to_string())
    }

    /// The Zeckendorf representation decides who wins and gives the winning
    /// moves; a Grundy value other than 0 would need a search, and is only
    /// displayed: it is not computed.
    fn analyze(&self, pos: &FibPosition, budget: &Budget) -> Result<Analysis<FibMove>, AnalysisError> {
        if self.convention() == Convention::Misere {
            return searched(self, pos, budget, vec![Component::new("the heap", None)]);
        }
        let mover_wins = FibonacciNim::mover_wins(pos);
        let value = (!mover_wins).then_some(0);
        Ok(Analysis {
            convention: Convention::Normal,
            winner: winner(mover_wins),
            components: vec![Component::new("the heap", value)],
            total: value,
            winning_moves: FibonacciNim::winning_moves(pos),
            complete: true,
            method: Method::Zeckendorf,
        })
    }

    fn winning_replies(&self, pos: &FibPosition, moves: &[FibMove], budget: &Budget) -> Vec<Option<usize>> {
        replies_searching_misere(self, pos, moves, budget)
    }
}
