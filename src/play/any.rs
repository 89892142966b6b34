//! Every rule set at the terminal, Nim among them, through
//! `bouton_games::AnyRules`: hints, explanations and move lists in terms of
//! the analysis's method — the binary table where the nim-sum decides
//! (`nim.rs`), Grundy values, the rule set's own theory, or an exhaustive
//! search.

use bouton_analysis::Winner;
use bouton_games::{Analysis, AnyMove, AnyPosition, AnyRules, Method, Phrase, QuotientStatus, Toughest};
use bouton_players::GrundyPlayer;
use bouton_players::{Level, Player};
use bouton_rules::{Convention, Game, Rules};

use crate::play::variant::{Variant, parse_saved_moves};
use crate::play::{any_board, move_list, nim, quotient};
use crate::theme::Theme;

/// Whether `analysis` came from Bouton's theorem (the nim-sum, or its
/// misère rule): then the terminal teaches it with the binary table.
pub(crate) fn by_nim_sum(analysis: &Analysis<AnyMove>) -> bool {
    matches!(analysis.method, Method::NimSum | Method::MisereNim)
}

/// Why a lost position is lost, in the words of its analysis.
fn lost_words(by_quotient: bool, value: &str) -> String {
    if by_quotient { "the product of the heaps' elements is in the P-portion".to_owned() } else { format!("{value} 0") }
}

/// A time limit in words ("20 s").
fn seconds(time: Option<std::time::Duration>) -> String {
    time.map_or_else(|| "no time limit".to_owned(), |t| format!("{} s", t.as_secs_f64()))
}

/// What the analysis calls a position's worth.
pub(crate) fn value_words(rules: &AnyRules) -> &'static str {
    if rules.convention() == Convention::Misere { "misère value" } else { "Grundy value" }
}

impl Variant for AnyRules {
    fn title(&self) -> String {
        AnyRules::title(self)
    }

    fn rule_sentence(&self) -> String {
        format!("{}; {}", self.summary(), self.last_move_rule())
    }

    fn describe_start(&self, start: &AnyPosition) -> String {
        self.describe_position(start)
    }

    fn how_to_move(&self) -> String {
        format!("Type a move: {}.", self.move_help())
    }

    fn move_command(&self) -> (&'static str, String) {
        (self.move_syntax(), self.move_help().to_owned())
    }

    fn explain_meaning(&self) -> &'static str {
        "the reasoning behind the winning move (nim-sums, Grundy values or the misère quotient)"
    }

    fn moves_meaning(&self) -> &'static str {
        "every legal move, what to type for it and the value it leaves"
    }

    fn help_header(&self) -> String {
        format!("Rules: {}: {}.", AnyRules::title(self), self.rule_sentence())
    }

    fn parse_move(&self, text: &str) -> Result<AnyMove, String> {
        AnyRules::parse_move(self, text).map_err(|e| e.to_string())
    }

    fn describe(&self, before: &AnyPosition, mv: AnyMove) -> Phrase {
        self.describe_move(before, &mv)
    }

    fn render_board(&self, position: &AnyPosition, last: Option<(&AnyPosition, AnyMove)>, theme: Theme) -> Vec<String> {
        any_board::render(&self.board(position), last.map(|(before, _)| self.board(before)).as_ref(), theme)
    }

    fn hint(&self, position: &AnyPosition, theme: Theme) -> String {
        let analysis = match self.analyze(position) {
            Ok(analysis) => analysis,
            Err(e) => return format!("No hint: {e}."),
        };
        if by_nim_sum(&analysis) {
            return nim::hint(&self.numbers(position), self.convention(), theme);
        }
        let value = value_words(self);
        let by_quotient = analysis.method == Method::MisereQuotient;
        match analysis.winner {
            Winner::Mover => {
                let preferred = self.progressive(position, &analysis.winning_moves);
                let Some(mv) = preferred.first() else {
                    return "You can win, but the position is too large to name the move.".to_owned();
                };
                let count = analysis.winning_moves.len();
                let others = match (count, analysis.complete) {
                    (1, true) => "It is the only winning move.".to_owned(),
                    (n, true) => format!("There are {n} winning moves."),
                    (n, false) => format!("There are at least {n} winning moves."),
                };
                let why = if by_quotient {
                    "it leaves a product in the P-portion of the misère quotient".to_owned()
                } else {
                    format!("it leaves {value} 0")
                };
                format!("You can win: {} ({why}). {others}", theme.good(&self.describe_move(position, mv).to_string()))
            }
            Winner::Opponent => match self.toughest(position, self.budget()) {
                Some(Toughest { moves, replies }) => format!(
                    "Against perfect play you lose from here ({}: every move hands your opponent a win). \
                     Best try: {}, which leaves your opponent {} winning repl{}.",
                    lost_words(by_quotient, value),
                    theme.strong(&self.describe_move(position, &moves[0]).to_string()),
                    replies,
                    if replies == 1 { "y" } else { "ies" }
                ),
                None => format!("Against perfect play you lose from here ({}).", lost_words(by_quotient, value)),
            },
        }
    }

    fn explain(&self, position: &AnyPosition, theme: Theme) -> Vec<String> {
        let analysis = match self.analyze(position) {
            Ok(analysis) => analysis,
            Err(e) => return vec![format!("No explanation: {e}.")],
        };
        if by_nim_sum(&analysis) {
            return nim::explain(&self.numbers(position), self.convention(), theme);
        }
        let how = analysis.method.describe();
        if analysis.method == Method::MisereQuotient {
            let chosen = self.progressive(position, &analysis.winning_moves).first().copied();
            if let Some(reading) = self.misere_reading(position, chosen.as_ref()) {
                return quotient::explain(&reading, how, theme);
            }
        }
        let mut lines = Vec::new();
        lines.push(format!("{} {how}.", theme.strong("How the winner is found:")));
        if analysis.method == Method::ExhaustiveSearch {
            lines.push(
                "No theory decides this misère position, so every line of play was searched: a position is \
                 lost for the player to move when every move leads to a position won for the other."
                    .to_owned(),
            );
            lines.push(format!(
                "Here the player to move {}.",
                if analysis.winner == Winner::Mover { "wins" } else { "loses" }
            ));
            return lines;
        }
        let known: Vec<(String, u64)> =
            analysis.components.iter().filter_map(|c| c.value.map(|v| (c.label.clone(), v))).collect();
        if known.len() == analysis.components.len() && !known.is_empty() && known.len() > 1 {
            lines.push(
                "Each part of the position is worth a Nim heap, its Grundy value; the whole is worth their XOR \
                 (the binary sum without carries):"
                    .to_owned(),
            );
            let bits = known.iter().map(|(_, v)| 64 - v.leading_zeros()).max().unwrap_or(1).max(1) as usize;
            let width = known.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
            for (label, v) in &known {
                lines.push(format!("  {label:<width$}  {v:>5}  {v:0bits$b}"));
            }
            if let Some(total) = analysis.total {
                lines.push(format!("  {:<width$}  {total:>5}  {total:0bits$b}", "XOR"));
            }
        } else if let Some(total) = analysis.total {
            lines.push(format!("The position's Grundy value is {total}."));
        }
        lines.push(match analysis.winner {
            Winner::Mover => format!(
                "The value is not 0, so the player to move wins: a winning move leaves value 0, for example {}.",
                theme.good(
                    &self
                        .progressive(position, &analysis.winning_moves)
                        .first()
                        .map_or_else(String::new, |mv| self.describe_move(position, mv).to_string())
                )
            ),
            Winner::Opponent => {
                "The value is 0, so the player to move loses: every move leaves a value that is not 0, \
                 and the opponent can always bring it back to 0."
                    .to_owned()
            }
        });
        lines
    }

    /// In misère play of a heap game whose quotient is not known yet, what
    /// the player waits for.
    fn preparing(&self) -> Option<String> {
        (self.misere_quotient_status()? == QuotientStatus::Untried).then(|| {
            let name = self.rule_set().name();
            let name = name.strip_prefix("The ").map_or_else(|| name.clone(), |rest| format!("the {rest}"));
            format!(
                "Working out the misère quotient of {name} (once per game; at most {}, Ctrl-C quits)…",
                seconds(bouton_games::quotient_budget().time())
            )
        })
    }

    /// In misère play of a heap game, the misère quotient, computed once
    /// within [`bouton_games::quotient_budget`]; when there is none, that
    /// positions are searched instead.
    fn prepare(&self) -> Option<String> {
        self.misere_quotient_status()?;
        let budget = bouton_games::quotient_budget();
        let Some(q) = self.misere_quotient(&budget) else {
            let why = match self.misere_quotient_status() {
                Some(QuotientStatus::Never) => "This game has no misère quotient bouton can use".to_owned(),
                _ => format!("Its misère quotient was not found within the limits ({})", seconds(budget.time())),
            };
            return Some(format!(
                "{why}: positions are searched exhaustively instead, within the usual limits (beyond them the \
                 analysis is not available)."
            ));
        };
        let range = match q.pretending().period() {
            Some(_) => "heaps of every size".to_owned(),
            None => format!("heaps of up to {} tokens", q.pretending().upto()),
        };
        // Where the quotient stops, and why (Dawson's Kayles: not known to be
        // finite), when it does not cover every heap size.
        let beyond = self.misere_quotient_limit().map_or_else(String::new, |limit| {
            format!(" Beyond that, {limit}; larger heaps are searched exhaustively instead.")
        });
        Some(format!(
            "Misère play here is solved by the game's misère quotient ({} elements, {range}): `explain` shows \
             it.{beyond}",
            q.order()
        ))
    }

    fn list_moves(&self, position: &AnyPosition, theme: Theme) -> Vec<String> {
        move_list::list_moves(self, position, theme)
    }

    fn last_move_words(&self) -> &'static str {
        AnyRules::last_move_words(self)
    }

    fn player(&self, level: Level) -> Box<dyn Player<AnyRules> + Send> {
        Box::new(GrundyPlayer::new(level))
    }

    fn computer_unavailable(&self, start: &AnyPosition) -> Option<String> {
        self.analyze(start).err().map(|e| e.to_string())
    }

    fn rows(&self, position: &AnyPosition) -> usize {
        self.board(position).parts()
    }

    fn save_name(&self) -> Option<String> {
        Some(self.rule_set().to_string())
    }

    fn numbers(&self, position: &AnyPosition) -> Vec<u64> {
        AnyRules::numbers(self, position)
    }

    fn move_text(&self, mv: AnyMove) -> String {
        mv.to_string()
    }

    fn restore(
        rules: Option<&str>,
        convention: Convention,
        start: Vec<u64>,
        moves: &[String],
    ) -> Result<Game<AnyRules>, String> {
        let rules = AnyRules::parse(rules.unwrap_or("nim"), convention).map_err(|e| e.to_string())?;
        let start = rules.position(&start).map_err(|e| e.to_string())?;
        let moves = parse_saved_moves(moves, |text| rules.parse_move(text))?;
        Game::replay(rules, start, moves).map_err(|e| e.to_string())
    }
}
