//! Nim at the terminal: the board of tokens, and hints, explanations and
//! move lists in terms of the nim-sum and the binary table.

use bouton_analysis::{Analysis, Explanation, Winner};
use bouton_grundy::Phrase;
use bouton_players::{Level, Player, toughest_moves};
use bouton_rules::{Convention, Game, Heaps, Nim, NimMove};

use crate::play::board::render_board;
use crate::play::variant::{Variant, parse_saved_moves};
use crate::table::render_table;
use crate::theme::Theme;
use crate::wording::{describe, tokens};

/// Takes shown per heap by `moves` before the list is shortened.
const LISTED_TAKES: u64 = 12;

impl Variant for Nim {
    fn title(&self) -> String {
        match self.convention {
            Convention::Normal => "Nim, normal play",
            Convention::Misere => "Nim, misère play",
        }
        .to_owned()
    }

    fn rule_sentence(&self) -> String {
        self.convention.rule().to_owned()
    }

    fn describe_start(&self, heaps: &Heaps) -> String {
        format!("Heaps: {heaps} ({} in all).", tokens_u128(heaps.total()))
    }

    fn how_to_move(&self) -> String {
        "Type a move as `heap amount`: `3 2` takes 2 tokens from heap 3.".to_owned()
    }

    fn move_command(&self) -> (&'static str, String) {
        ("HEAP AMOUNT", "take AMOUNT tokens from heap HEAP (`3 2` or `3:2`)".to_owned())
    }

    fn help_header(&self) -> String {
        format!("Rules: {} Nim, {}.", self.convention, self.convention.rule())
    }

    fn parse_move(&self, text: &str) -> Result<NimMove, String> {
        text.parse::<NimMove>().map_err(|e| e.to_string())
    }

    fn describe(&self, before: &Heaps, mv: NimMove) -> Phrase {
        bouton_grundy::Game::describe_move(self, before, &mv)
    }

    fn render_board(&self, heaps: &Heaps, last: Option<(&Heaps, NimMove)>, theme: Theme) -> Vec<String> {
        render_board(heaps, last.map(|(_, mv)| mv), theme)
    }

    fn hint(&self, position: &Heaps, theme: Theme) -> String {
        let heaps = position.as_slice();
        let convention = self.convention;
        let analysis = Analysis::new(heaps, convention);
        let endgame = analysis.in_misere_endgame();
        match analysis.winner() {
            Winner::Mover => {
                let count = analysis.count_winning_moves(heaps);
                let mv = analysis.first_winning_move(heaps).expect("a won position has a winning move");
                let why = if endgame || misere_endgame_move(convention, heaps, mv) {
                    "it leaves an odd number of heaps of 1 and nothing bigger"
                } else {
                    "it leaves nim-sum 0"
                };
                let others = match count {
                    1 => "It is the only winning move.".to_owned(),
                    n => format!("There are {n} winning moves."),
                };
                format!("You can win: {} ({why}). {others}", theme.good(&describe(mv)))
            }
            Winner::Opponent => {
                let best = toughest_moves(heaps, convention);
                let mv = best[0];
                let mut after = heaps.to_vec();
                after[mv.heap] -= mv.take;
                if after.iter().all(|&h| h == 0) {
                    // Misère with a single token left: nothing to hope for.
                    format!("You must {}, the last token, and in misère play that loses.", theme.strong(&describe(mv)))
                } else {
                    let replies = Analysis::new(&after, convention).count_winning_moves(&after);
                    let why = if endgame { "an odd number of heaps of 1" } else { "nim-sum 0" };
                    format!(
                        "Against perfect play you lose from here ({why}: every move hands your opponent a win). \
                         Best try: {}, which leaves your opponent {} winning repl{}.",
                        theme.strong(&describe(mv)),
                        replies,
                        if replies == 1 { "y" } else { "ies" }
                    )
                }
            }
        }
    }

    fn explain(&self, position: &Heaps, theme: Theme) -> Vec<String> {
        render_table(&Explanation::new(position.as_slice(), self.convention), theme)
    }

    fn list_moves(&self, position: &Heaps, theme: Theme) -> Vec<String> {
        let heaps = position.as_slice().to_vec();
        let analysis = Analysis::new(&heaps, self.convention);
        let mut lines = vec![format!(
            "Each legal move and the nim-sum it leaves (now {}); * marks a winning move:",
            analysis.nim_sum()
        )];
        for (heap, &size) in heaps.iter().enumerate() {
            if size == 0 {
                continue;
            }
            let shown = size.min(LISTED_TAKES);
            let winning_take = analysis.winning_target(size).map(|target| size - target);
            let cells: Vec<(String, String)> = (1..=shown)
                .map(|take| {
                    let sum = analysis.nim_sum_after(&heaps, NimMove::new(heap, take));
                    let mark = if winning_take == Some(take) { "*" } else { "" };
                    (take.to_string(), format!("{sum}{mark}"))
                })
                .collect();
            let width = cells.iter().map(|(t, s)| t.len().max(s.len())).max().unwrap_or(1);
            let takes: Vec<String> = cells.iter().map(|(t, _)| format!("{t:>width$}")).collect();
            let sums: Vec<String> = cells
                .iter()
                .map(|(_, s)| {
                    let cell = format!("{s:>width$}");
                    if s.ends_with('*') { theme.good(&cell) } else { cell }
                })
                .collect();
            lines.push(format!("  Heap {} ({size}):", heap + 1));
            lines.push(format!("    take     {}", takes.join(" ")));
            lines.push(format!("    nim-sum  {}", sums.join(" ")));
            if size > shown {
                let rest = match winning_take {
                    Some(take) if take > shown => format!("; taking {take} wins"),
                    _ => String::new(),
                };
                lines.push(format!("    ... and {} more takes, up to {size}{rest}", size - shown));
            }
        }
        lines
    }

    fn last_move_words(&self) -> &'static str {
        "took the last token"
    }

    fn player(&self, level: Level) -> Box<dyn Player<Nim> + Send> {
        level.player()
    }

    fn rows(&self, position: &Heaps) -> usize {
        position.len()
    }

    fn save_name(&self) -> Option<String> {
        None
    }

    fn numbers(&self, position: &Heaps) -> Vec<u64> {
        position.as_slice().to_vec()
    }

    fn move_text(&self, mv: NimMove) -> String {
        mv.to_string()
    }

    fn restore(
        rules: Option<&str>,
        convention: Convention,
        start: Vec<u64>,
        moves: &[String],
    ) -> Result<Game<Nim>, String> {
        if let Some(rules) = rules {
            return Err(format!("it is a game of {rules}, not Nim"));
        }
        let start = Heaps::new(start).map_err(|e| e.to_string())?;
        let moves = parse_saved_moves(moves, str::parse::<NimMove>)?;
        Game::replay(Nim::new(convention), start, moves).map_err(|e| e.to_string())
    }
}

/// Whether `mv` wins by the misère endgame rule rather than by nim-sum 0.
fn misere_endgame_move(convention: Convention, heaps: &[u64], mv: NimMove) -> bool {
    if convention != Convention::Misere {
        return false;
    }
    heaps.iter().enumerate().all(|(i, &h)| if i == mv.heap { h - mv.take <= 1 } else { h <= 1 })
}

fn tokens_u128(count: u128) -> String {
    match u64::try_from(count) {
        Ok(count) => tokens(count),
        Err(_) => format!("{count} tokens"),
    }
}
