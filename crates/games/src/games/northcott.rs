//! Northcott's game: Nim on the gaps between the pieces. Its game tree has
//! cycles, so misère play has no answer here.

use bouton_rules::{Convention, Rules};
use rand::{Rng, RngCore};

use crate::game::{Game, RuleName, winner};
use crate::{Analysis, AnalysisError, Board, Budget, Component, Method, MoveParseError, Northcott};
use crate::{NorthcottMove, Phrase, RuleSetError, Unavailable};

impl Game for Northcott {
    fn from_name(name: &RuleName) -> Option<Result<Northcott, RuleSetError>> {
        matches!((name.name.as_str(), &name.parameter), ("northcott" | "northcotts-game", None))
            .then(|| Ok(Northcott::new(Convention::Normal)))
    }

    fn examples() -> Vec<Northcott> {
        vec![Northcott::new(Convention::Normal)]
    }

    fn id(&self) -> String {
        "northcott".to_owned()
    }

    fn name(&self) -> String {
        "Northcott's game".to_owned()
    }

    fn summary(&self) -> String {
        "slide your own piece along its row, towards or away from the other piece, without jumping over it \
         (White moves first)"
            .to_owned()
    }

    fn in_convention(self, convention: Convention) -> Northcott {
        Northcott::new(convention)
    }

    fn position_format(&self) -> &'static str {
        "rows of three numbers: width, White's column, Black's column"
    }

    fn default_start(&self) -> Vec<u64> {
        vec![8, 1, 6, 8, 3, 8, 8, 2, 5]
    }

    /// `parts` rows of 3 to `max` squares, the pieces on different squares.
    fn random_start(&self, parts: usize, max: u64, rng: &mut dyn RngCore) -> Vec<u64> {
        let mut draw = |low: u64, high: u64| rng.random_range(low..=high.max(low));
        (0..parts)
            .flat_map(|_| {
                let width = draw(3, max.max(3));
                let white = draw(1, width);
                let mut black = draw(1, width - 1);
                if black >= white {
                    black += 1;
                }
                [width, white, black]
            })
            .collect()
    }

    fn parse_move(&self, text: &str) -> Result<NorthcottMove, MoveParseError> {
        text.parse()
    }

    fn move_help(&self) -> &'static str {
        "`2 5` moves your piece in row 2 to column 5"
    }

    fn describe_move(&self, before: &Board, mv: &NorthcottMove) -> Phrase {
        self.describe(before, mv)
    }

    fn analyze(&self, board: &Board, _budget: &Budget) -> Result<Analysis<NorthcottMove>, AnalysisError> {
        if self.convention() == Convention::Misere {
            return Err(self.not_available(Unavailable::Cycles { game: "Northcott's game" }));
        }
        let gaps = board.gaps();
        let total = gaps.iter().fold(0, |x, &g| x ^ g);
        let mut moves = Vec::new();
        if total != 0 {
            for (row, &gap) in gaps.iter().enumerate() {
                moves.extend(Northcott::move_to_gap(board, row, gap ^ total));
            }
        }
        Ok(Analysis {
            convention: Convention::Normal,
            winner: winner(total != 0),
            components: gaps
                .iter()
                .enumerate()
                .map(|(i, &g)| Component::new(format!("row {}", i + 1), Some(g)))
                .collect(),
            total: Some(total),
            winning_moves: moves,
            complete: true,
            method: Method::Gaps,
        })
    }

    /// The winning moves that close a gap, so that the game makes progress
    /// (a perfect player could otherwise retreat for ever).
    fn progressive(&self, board: &Board, moves: &[NorthcottMove]) -> Vec<NorthcottMove> {
        let closing: Vec<NorthcottMove> = moves
            .iter()
            .copied()
            .filter(|m| {
                board.rows().get(m.row).is_some_and(|row| {
                    let other = if board.white_to_move() { row.black } else { row.white };
                    m.to.abs_diff(other) - 1 < row.gap()
                })
            })
            .collect();
        if closing.is_empty() { moves.to_vec() } else { closing }
    }
}
