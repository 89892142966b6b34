//! Moore's Nim_k, by Moore's theorem in both conventions.

use bouton_rules::{Convention, Heaps, Rules};

use crate::game::{Game, MoveShape, RuleName, winner};
use crate::{Analysis, AnalysisError, Budget, Component, MOORE_MAX_K, MOVE_BUDGET, Method, MooreMove};
use crate::{MooreNim, MoveParseError, Phrase, RuleSetError, Verb};

fn join_and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl Game for MooreNim {
    fn from_name(name: &RuleName) -> Option<Result<MooreNim, RuleSetError>> {
        matches!(name.name.as_str(), "moore" | "moores-nim" | "nim-k").then(|| {
            let k = name.number("k", 1, MOORE_MAX_K as u64)?;
            MooreNim::new(k, Convention::Normal).map_err(|e| name.bad(e.to_string()))
        })
    }

    fn examples() -> Vec<MooreNim> {
        vec![MooreNim::new(2, Convention::Normal).expect("k = 2 is allowed")]
    }

    fn id(&self) -> String {
        format!("moore:{}", self.k())
    }

    fn name(&self) -> String {
        format!("Moore's Nim_{}", self.k())
    }

    fn family_name(&self) -> String {
        "Moore's Nim_k (at most k heaps at once)".to_owned()
    }

    fn summary(&self) -> String {
        format!("take tokens from at least one and at most {} heaps at once (any number from each)", self.k())
    }

    fn in_convention(self, convention: Convention) -> MooreNim {
        MooreNim::new(self.k() as u64, convention).expect("k was valid")
    }

    fn default_start(&self) -> Vec<u64> {
        vec![3, 5, 7]
    }

    fn parse_move(&self, text: &str) -> Result<MooreMove, MoveParseError> {
        text.parse()
    }

    fn move_help(&self) -> &'static str {
        "`1 2 3 1` takes 2 from heap 1 and 1 from heap 3"
    }

    fn move_shape(&self) -> MoveShape {
        MoveShape { heaps_at_once: self.k() as u64, ..MoveShape::default() }
    }

    fn describe_move(&self, _before: &Heaps, mv: &MooreMove) -> Phrase {
        let parts: Vec<String> =
            mv.pairs().iter().map(|&(heap, take)| format!("{take} from heap {}", heap as u128 + 1)).collect();
        Phrase::new(Verb::Take, join_and(&parts))
    }

    /// Moore's theorem decides who wins and constructs a winning move for
    /// any heap sizes; the other winning moves are listed as far as the
    /// budget allows. Nim_k is not a sum of its heaps, and the value of the
    /// whole would need a search: it is not computed (but for k = 1, Nim).
    fn analyze(&self, heaps: &Heaps, budget: &Budget) -> Result<Analysis<MooreMove>, AnalysisError> {
        let mut meter = budget.meter();
        meter.check().map_err(|e| self.over_budget(e))?;
        let sizes = heaps.as_slice();
        let mover_wins = !self.loses(sizes);
        let mut moves = Vec::new();
        let mut complete = true;
        if mover_wins {
            let constructed = self.construct_winning_move(sizes);
            moves.extend(constructed);
            let mut after = heaps.clone();
            for (examined, mv) in self.legal_moves(heaps).enumerate() {
                if examined as u64 >= MOVE_BUDGET || meter.spend(sizes.len() as u64 + 1).is_err() {
                    complete = false;
                    break;
                }
                after.clone_from(heaps);
                self.apply(&mut after, mv);
                if Some(mv) != constructed && self.loses(after.as_slice()) {
                    moves.push(mv);
                }
            }
        }
        let total =
            (self.k() == 1 && self.convention() == Convention::Normal).then(|| sizes.iter().fold(0, |x, &h| x ^ h));
        Ok(Analysis {
            convention: self.convention(),
            winner: winner(mover_wins),
            components: vec![Component::new("the whole position", total)],
            total,
            winning_moves: moves,
            complete,
            method: Method::MooreTheorem,
        })
    }
}
