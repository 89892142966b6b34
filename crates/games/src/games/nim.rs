//! Nim, by Bouton's theorem in both conventions.

use bouton_rules::{Convention, Heaps, Nim, NimMove};

use crate::game::{Game, RuleName};
use crate::games::heap::heap_components;
use crate::{Analysis, AnalysisError, Budget, HeapGame, Method, MoveParseError, Phrase};
use crate::{RuleSetError, Verb};

impl Game for Nim {
    /// `nim`, or the code of Nim (`0.333…`, written `0.3̅` as `0.3333` and
    /// so on).
    fn from_name(name: &RuleName) -> Option<Result<Nim, RuleSetError>> {
        let code = match (name.name.as_str(), name.parameter.as_deref()) {
            ("nim", None) => return Some(Ok(Nim::new(Convention::Normal))),
            ("octal", Some(code)) => code,
            _ if name.given.contains('.') && name.given.starts_with(|c: char| c.is_ascii_digit()) => &name.given,
            _ => return None,
        };
        (code.parse::<HeapGame>().ok()? == HeapGame::nim()).then(|| Ok(Nim::new(Convention::Normal)))
    }

    fn examples() -> Vec<Nim> {
        vec![Nim::new(Convention::Normal)]
    }

    fn id(&self) -> String {
        "nim".to_owned()
    }

    fn name(&self) -> String {
        "Nim".to_owned()
    }

    fn summary(&self) -> String {
        "take one or more tokens from a single heap".to_owned()
    }

    fn in_convention(self, convention: Convention) -> Nim {
        Nim::new(convention)
    }

    fn heap_game(&self) -> Option<HeapGame> {
        Some(HeapGame::nim())
    }

    fn default_start(&self) -> Vec<u64> {
        vec![3, 5, 7]
    }

    fn describe_position(&self, heaps: &Heaps) -> String {
        let total = heaps.total();
        format!("Heaps: {heaps} ({total} token{} in all).", if total == 1 { "" } else { "s" })
    }

    fn parse_move(&self, text: &str) -> Result<NimMove, MoveParseError> {
        Ok(text.parse()?)
    }

    fn move_help(&self) -> &'static str {
        "`3 2` takes 2 tokens from heap 3"
    }

    fn move_syntax(&self) -> &'static str {
        "HEAP AMOUNT"
    }

    fn last_move_words(&self) -> &'static str {
        "took the last token"
    }

    fn describe_move(&self, _before: &Heaps, mv: &NimMove) -> Phrase {
        Phrase::new(Verb::Take, format!("{} from heap {}", mv.take, mv.heap as u128 + 1))
    }

    fn as_take(&self, mv: &NimMove) -> Option<(usize, u64)> {
        Some((mv.heap, mv.take))
    }

    /// The nim-sum in normal play, Bouton's misère rule in misère play:
    /// every winning move, for any number of heaps of any size.
    fn analyze(&self, heaps: &Heaps, _budget: &Budget) -> Result<Analysis<NimMove>, AnalysisError> {
        let sizes = heaps.as_slice();
        let analysis = bouton_analysis::Analysis::new(sizes, self.convention);
        let misere = self.convention == Convention::Misere;
        Ok(Analysis {
            convention: self.convention,
            winner: analysis.winner(),
            components: heap_components(sizes, Some),
            total: (!misere).then(|| analysis.nim_sum()),
            winning_moves: analysis.winning_moves(sizes).collect(),
            complete: true,
            method: if misere { Method::MisereNim } else { Method::NimSum },
        })
    }

    fn instant(&self) -> bool {
        true
    }

    fn last_move_rule(&self) -> &'static str {
        self.convention.rule()
    }
}
