//! The analysis of a position of any rule set, as the page's Explain and
//! Moves panels show it: `GET /api/games/{id}/analysis` and
//! `GET /api/analyze?rules=…`.

use bouton_analysis::Winner;
use bouton_games::{AnyPosition, AnyRules, Budget, Component, Method, MisereReading};
use bouton_rules::{Convention, Rules};
use serde::Serialize;

use crate::error::ApiError;
use crate::views::{MAX_LISTED_OPTIONS, MoveView};

/// Who wins, the Grundy values, the winning moves and every legal move.
///
/// ```
/// use bouton_games::{AnyRules, Budget};
/// use bouton_rules::Convention;
/// use bouton_web::position_analysis::RulesAnalysisView;
///
/// let rules = AnyRules::parse("kayles", Convention::Normal)?;
/// let view = RulesAnalysisView::new(&rules, &rules.position(&[7, 11])?, &Budget::interactive())?;
/// assert_eq!(view.total, Some(2 ^ 6));
/// let moves = view.moves.unwrap();
/// assert!(moves.iter().all(|m| m.wins == (m.value == Some(0))));
///
/// // Misère play of 0.75 by its misère quotient, heaps of any size.
/// let rules = AnyRules::parse("octal:0.75", Convention::Misere)?;
/// let view = RulesAnalysisView::new(&rules, &rules.position(&[1000, 2345, 77777])?, &Budget::interactive())?;
/// let quotient = view.quotient.unwrap();
/// assert!(!quotient.in_p && quotient.chosen.unwrap().in_p);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Serialize)]
pub struct RulesAnalysisView {
    /// The rule set's id.
    pub rules: String,
    /// Its name and convention.
    pub title: String,
    /// Misère play?
    pub misere: bool,
    /// The position, as numbers.
    pub position: Vec<u64>,
    /// "mover" or "opponent".
    pub winner: Winner,
    /// Each independent part and its Grundy value, when known.
    pub components: Vec<Component>,
    /// The value of the whole (the XOR of the parts' in normal play).
    pub total: Option<u64>,
    /// The winning moves.
    pub winning_moves: Vec<MoveView>,
    /// Whether `winning_moves` lists every winning move.
    pub complete: bool,
    /// How the answer was found.
    pub method: Method,
    /// The same, in words.
    pub method_text: &'static str,
    /// Every legal move, the value it leaves and whether it wins (null
    /// above [`MAX_LISTED_OPTIONS`] moves).
    pub moves: Option<Vec<OptionValueView>>,
    /// Where the misère quotient decides (method `misere-quotient`): each
    /// heap's element, their product, whether it is in the P-portion, and
    /// the first winning move read through it; null otherwise.
    pub quotient: Option<MisereReading>,
}

/// A legal move and what it leaves.
#[derive(Debug, Clone, Serialize)]
pub struct OptionValueView {
    /// The move.
    #[serde(flatten)]
    pub mv: MoveView,
    /// The value of the position after it, when known cheaply.
    pub value: Option<u64>,
    /// Whether it wins against perfect play.
    pub wins: bool,
}

impl RulesAnalysisView {
    /// Analyses `position` within `budget` (the values of the options
    /// share its clock; those not found in time are left out).
    ///
    /// # Errors
    /// [`ApiError::Unprocessable`] when no theory applies and the position
    /// is too large to search within the budget ("analysis not available
    /// within the limits").
    pub fn new(rules: &AnyRules, position: &AnyPosition, budget: &Budget) -> Result<RulesAnalysisView, ApiError> {
        let budget = &budget.started();
        let analysis = rules.analyze_within(position, budget).map_err(|e| ApiError::Unprocessable(e.to_string()))?;
        // Values of the options: cheap where a theory gives them, not worth
        // a search each where only a search would.
        let values_known = !matches!(
            analysis.method,
            Method::MooreTheorem | Method::ExhaustiveSearch | Method::MisereNim | Method::MisereQuotient
        );
        let quotient = (analysis.method == Method::MisereQuotient)
            .then(|| {
                let chosen = rules.progressive(position, &analysis.winning_moves).first().copied();
                rules.misere_reading(position, chosen.as_ref())
            })
            .flatten();
        let count = rules.legal_moves(position).take(MAX_LISTED_OPTIONS as usize + 1).count();
        let moves = (count as u128 <= MAX_LISTED_OPTIONS).then(|| {
            rules
                .legal_moves(position)
                .map(|mv| {
                    let value = values_known
                        .then(|| {
                            let mut after = position.clone();
                            rules.apply(&mut after, mv);
                            rules.analyze_within(&after, budget).ok().and_then(|a| a.total)
                        })
                        .flatten();
                    OptionValueView {
                        mv: MoveView::new(rules, position, mv),
                        value,
                        wins: analysis.winning_moves.contains(&mv),
                    }
                })
                .collect()
        });
        Ok(RulesAnalysisView {
            rules: rules.rule_set().to_string(),
            title: rules.title(),
            misere: rules.convention() == Convention::Misere,
            position: rules.numbers(position),
            winner: analysis.winner,
            components: analysis.components,
            total: analysis.total,
            winning_moves: analysis.winning_moves.iter().map(|&mv| MoveView::new(rules, position, mv)).collect(),
            complete: analysis.complete,
            method: analysis.method,
            method_text: analysis.method.describe(),
            moves,
            quotient,
        })
    }
}
