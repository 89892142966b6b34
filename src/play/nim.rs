//! The nim-sum's own teaching at the terminal, for every analysis found by
//! Bouton's theorem (its method `nim-sum` or `misère Nim`): the hint in
//! terms of the nim-sum and the misère endgame, the binary table, and the
//! nim-sum each move leaves. The terminal's `AnyRules` variant chooses it
//! by the analysis's method, not by the rule set.

use bouton_analysis::{Analysis, Explanation, Winner};
use bouton_players::toughest_moves;
use bouton_rules::{Convention, NimMove};

use crate::table::render_table;
use crate::theme::Theme;
use crate::wording::describe;

/// Takes shown per heap by `moves` before the list is shortened.
const LISTED_TAKES: u64 = 12;

/// The answer to `hint` for `heaps` under `convention`.
pub fn hint(heaps: &[u64], convention: Convention, theme: Theme) -> String {
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

/// The answer to `explain`: the binary table.
pub fn explain(heaps: &[u64], convention: Convention, theme: Theme) -> Vec<String> {
    render_table(&Explanation::new(heaps, convention), theme)
}

/// The answer to `moves`: the nim-sum each take leaves, heap by heap, and
/// under each take the text that plays it at the prompt (`1:3`, the same as
/// `1 3`). Takes are shown up to [`LISTED_TAKES`] a heap, fewer where the
/// row would not fit the screen's width.
pub fn list_moves(heaps: &[u64], convention: Convention, theme: Theme) -> Vec<String> {
    let heaps = heaps.to_vec();
    let analysis = Analysis::new(&heaps, convention);
    let mut lines = vec![format!(
        "Each legal move and the nim-sum it leaves (now {}); * marks a winning move; type a move as shown under \
         it (`1:3` or `1 3` takes 3 from heap 1):",
        analysis.nim_sum()
    )];
    for (heap, &size) in heaps.iter().enumerate() {
        if size == 0 {
            continue;
        }
        let winning_take = analysis.winning_target(size).map(|target| size - target);
        // Each cell as wide as the widest text, the label 13 columns.
        let widest = NimMove::new(heap, size.min(LISTED_TAKES)).to_string().len();
        let fitting = (theme.width.saturating_sub(13) / (widest + 1)).max(1) as u64;
        let shown = size.min(LISTED_TAKES).min(fitting);
        let cells: Vec<[String; 3]> = (1..=shown)
            .map(|take| {
                let mv = NimMove::new(heap, take);
                let sum = analysis.nim_sum_after(&heaps, mv);
                let mark = if winning_take == Some(take) { "*" } else { "" };
                [take.to_string(), format!("{sum}{mark}"), mv.to_string()]
            })
            .collect();
        let width = cells.iter().flat_map(|c| c.iter().map(String::len)).max().unwrap_or(1);
        let row = |i: usize| -> Vec<String> { cells.iter().map(|c| format!("{:>width$}", c[i])).collect() };
        let sums: Vec<String> =
            row(1).into_iter().map(|cell| if cell.ends_with('*') { theme.good(&cell) } else { cell }).collect();
        lines.push(format!("  Heap {} ({size}):", heap + 1));
        lines.push(format!("    take     {}", row(0).join(" ")));
        lines.push(format!("    nim-sum  {}", sums.join(" ")));
        lines.push(format!("    type     {}", row(2).join(" ")));
        if size > shown {
            let rest = match winning_take {
                Some(take) if take > shown => format!("; taking {take} wins: type `{}`", NimMove::new(heap, take)),
                _ => String::new(),
            };
            lines.push(format!("    ... and {} more takes, up to {size}{rest}", size - shown));
        }
    }
    lines
}

/// Whether `mv` wins by the misère endgame rule rather than by nim-sum 0.
fn misere_endgame_move(convention: Convention, heaps: &[u64], mv: NimMove) -> bool {
    if convention != Convention::Misere {
        return false;
    }
    heaps.iter().enumerate().all(|(i, &h)| if i == mv.heap { h - mv.take <= 1 } else { h <= 1 })
}
