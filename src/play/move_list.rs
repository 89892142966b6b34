//! The answer to `moves` for every rule set whose analysis is not the
//! nim-sum's (that one is `nim.rs`'s table): each legal move with the text
//! that plays it at the prompt, the move in words and what it leaves.
//! Winning moves come first; a long list is grouped by the heap (row, pair,
//! step …) a move acts on, a blank line between groups.

use bouton_analysis::Winner;
use bouton_games::{AnyMove, AnyPosition, AnyRules, Method};
use bouton_rules::{Convention, Rules};

use crate::play::any::{by_nim_sum, value_words};
use crate::play::nim;
use crate::theme::Theme;

/// Moves listed by `moves` before the list is shortened.
const LISTED_MOVES: usize = 40;
/// Moves counted beyond the listed ones before the count says "at least".
const COUNTED: usize = 100_000;
/// Lists longer than this are grouped by the heap a move acts on.
const GROUPED_FROM: usize = 8;

/// The text that plays `mv` at the prompt: its numbers separated by spaces,
/// as the move help writes them ("1 1 2" takes 1 from heap 1 and leaves 2
/// and the rest). Every rule set reads its moves' own text form back, with
/// spaces, colons or commas between the numbers.
pub fn typed(mv: &AnyMove) -> String {
    mv.to_string().split([':', ',']).collect::<Vec<_>>().join(" ")
}

/// What `mv` leaves, in words, and whether it wins.
fn leaves(rules: &AnyRules, position: &AnyPosition, mv: AnyMove, budget: &bouton_games::Budget) -> (String, bool) {
    let mut after = position.clone();
    rules.apply(&mut after, mv);
    if rules.is_over(&after) {
        let wins = rules.convention() == Convention::Normal;
        let text = if wins { "the game ends: you win" } else { "the game ends: you lose" };
        return (text.to_owned(), wins);
    }
    match rules.analyze_within(&after, budget) {
        Ok(a) if a.method == Method::MisereQuotient => {
            let lost = a.winner == Winner::Opponent;
            let leaves = match rules.misere_reading(&after, None) {
                Some(r) if lost => format!("product {}, in the P-portion", r.product),
                Some(r) => format!("product {}", r.product),
                None if lost => "a lost position".to_owned(),
                None => "a won position".to_owned(),
            };
            (leaves, lost)
        }
        Ok(a) => {
            let lost = a.winner == Winner::Opponent;
            let leaves = match a.total {
                Some(v) => format!("{} {v}", value_words(rules)),
                None if lost => "a lost position".to_owned(),
                None => "a won position".to_owned(),
            };
            (leaves, lost)
        }
        Err(_) => ("not known".to_owned(), false),
    }
}

/// The answer to `moves` in `position`.
pub fn list_moves(rules: &AnyRules, position: &AnyPosition, theme: Theme) -> Vec<String> {
    // One budget for the whole list, its operations shared by the moves.
    let started = rules.budget().started();
    let analysis = rules.analyze_within(position, &started.share(2));
    if analysis.as_ref().is_ok_and(by_nim_sum) {
        return nim::list_moves(&rules.numbers(position), rules.convention(), theme);
    }
    let by_quotient = analysis.as_ref().is_ok_and(|a| a.method == Method::MisereQuotient);
    let worth = if by_quotient { "product of the heaps' elements (misère quotient)" } else { value_words(rules) };
    // The winning moves first, so that a long list never hides them.
    let mut winning = analysis.map(|a| a.winning_moves).unwrap_or_default();
    winning.truncate(LISTED_MOVES);
    let listed: Vec<AnyMove> = winning
        .iter()
        .copied()
        .chain(rules.legal_moves(position).filter(|mv| !winning.contains(mv)))
        .take(LISTED_MOVES)
        .collect();
    let rows: Vec<Row> = listed
        .iter()
        .map(|&mv| {
            let (leaves, wins) = leaves(rules, position, mv, &started.share(LISTED_MOVES as u64));
            Row { typed: typed(&mv), described: rules.describe_move(position, &mv).to_string(), leaves, wins }
        })
        .collect();
    let mut lines =
        vec![format!("Each legal move, what to type for it and the {worth} it leaves; * marks a winning move:")];
    lines.extend(table(&rows, theme));
    let more = rules.legal_moves(position).skip(LISTED_MOVES).take(COUNTED).count();
    if more == COUNTED {
        lines.push(format!("  ... and at least {COUNTED} more moves (`hint` names a winning one)"));
    } else if more > 0 {
        lines.push(format!("  ... and {more} more moves (`hint` names a winning one)"));
    }
    lines
}

/// One move of the list.
struct Row {
    /// What to type.
    typed: String,
    /// The move in words.
    described: String,
    /// What it leaves.
    leaves: String,
    /// Whether it wins.
    wins: bool,
}

/// The rows under a heading of three columns, "type", "move" and "leaves";
/// in a long list, a blank line before the winning moves end and wherever
/// the heap (the first number typed) changes.
fn table(rows: &[Row], theme: Theme) -> Vec<String> {
    let width = |column: &dyn Fn(&Row) -> &str, heading: &str| {
        rows.iter().map(|r| column(r).chars().count()).chain([heading.len()]).max().unwrap_or(0)
    };
    let typed_width = width(&|r| &r.typed, "type");
    let described_width = width(&|r| &r.described, "move");
    let mut lines = vec![theme.strong(&format!("  {:<typed_width$}  {:<described_width$}  leaves", "type", "move"))];
    fn group(r: &Row) -> &str {
        if r.wins { "*" } else { r.typed.split(' ').next().unwrap_or("") }
    }
    let groups = 1 + rows.windows(2).filter(|w| group(&w[0]) != group(&w[1])).count();
    let grouped = rows.len() > GROUPED_FROM && groups * 2 <= rows.len();
    for (i, row) in rows.iter().enumerate() {
        if grouped && i > 0 && group(&rows[i - 1]) != group(row) {
            lines.push(String::new());
        }
        let mark = if row.wins { " *" } else { "" };
        let line = format!("  {:<typed_width$}  {:<described_width$}  {}{mark}", row.typed, row.described, row.leaves);
        lines.push(if row.wins { theme.good(&line) } else { line });
    }
    lines
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use bouton_games::{AnyRules, RuleSet};
    use bouton_rules::{Convention, Rules};

    use super::list_moves;
    use crate::play::input::{Input, parse_input};
    use crate::theme::Theme;

    fn plain() -> Theme {
        Theme { plain: true, width: 80, wrap: false }
    }

    /// The moves a list shows: (typed text, move in words), read from its
    /// columns by the heading's.
    fn shown(lines: &[String]) -> Vec<(String, String)> {
        let heading = lines.iter().find(|l| l.trim_start().starts_with("type ")).expect("a heading");
        let heading: Vec<char> = heading.chars().collect();
        let at = |word: &str| {
            let text: String = heading.iter().collect();
            text[..text.find(word).expect("a column")].chars().count()
        };
        let (move_at, leaves_at) = (at("move"), at("leaves"));
        lines
            .iter()
            .skip_while(|l| !l.trim_start().starts_with("type "))
            .skip(1)
            .filter(|l| !l.is_empty() && !l.trim_start().starts_with("..."))
            .map(|l| {
                let chars: Vec<char> = l.chars().collect();
                let typed: String = chars[2..move_at].iter().collect();
                let described: String = chars[move_at..leaves_at].iter().collect();
                (typed.trim().to_owned(), described.trim().to_owned())
            })
            .collect()
    }

    /// Every text the list shows is read by the prompt as a move, that move
    /// is legal and is the one the line describes; a list that is not cut
    /// short shows every legal move once.
    fn check_list(id: &str, convention: Convention, start: &[u64]) {
        let rules = AnyRules::parse(id, convention).expect("a rule set");
        let position = rules.position(start).expect("a position");
        let lines = list_moves(&rules, &position, plain());
        let moves = shown(&lines);
        assert!(!moves.is_empty(), "{id} {start:?}: no moves\n{}", lines.join("\n"));
        let mut played = HashSet::new();
        for (typed, described) in &moves {
            let Ok(Input::Move(text)) = parse_input(typed) else {
                panic!("{id} {start:?}: the prompt does not read {typed:?} as a move");
            };
            assert_eq!(&text, typed, "{id}: the prompt reads the whole text");
            let mv = rules.parse_move(&text).unwrap_or_else(|e| panic!("{id} {start:?}: {typed:?}: {e}"));
            assert!(rules.check(&position, mv).is_ok(), "{id} {start:?}: {typed:?} is not legal");
            assert_eq!(&rules.describe_move(&position, &mv).to_string(), described, "{id} {start:?}: {typed:?}");
            assert!(played.insert(mv), "{id} {start:?}: {typed:?} listed twice");
        }
        if !lines.iter().any(|l| l.contains("more moves")) {
            let legal: HashSet<_> = rules.legal_moves(&position).collect();
            assert_eq!(played, legal, "{id} {start:?}: every legal move is listed");
        }
    }

    #[test]
    fn every_listed_text_plays_its_move_in_every_rule_set() {
        for set in RuleSet::examples() {
            let id = set.to_string();
            if id == "nim" {
                continue;
            }
            for convention in [Convention::Normal, Convention::Misere] {
                check_list(&id, convention, &set.default_start());
            }
        }
        let more: [(&str, &[u64]); 12] = [
            ("octal:0.F", &[7, 5]),
            ("octal:4.8", &[6, 9]),
            ("octal:0.3F!", &[5, 8]),
            ("octal:8!.0C", &[9, 4]),
            ("octal:C.0", &[8]),
            ("octal:0.8", &[7, 3]),
            ("subtraction:1,3,4", &[9, 2]),
            ("take-limit:3", &[4, 4]),
            ("all-but:2", &[5, 3]),
            ("grundy", &[10, 13]),
            ("moore:3", &[3, 4, 2, 5]),
            ("wythoff", &[3, 5, 4, 4]),
        ];
        for (id, start) in more {
            check_list(id, Convention::Normal, start);
        }
    }

    #[test]
    fn a_long_list_is_grouped_by_heap_and_fits_the_screen() {
        let rules = AnyRules::parse("octal:0.F", Convention::Normal).expect("a rule set");
        let position = rules.position(&[7, 5]).expect("a position");
        let lines = list_moves(&rules, &position, plain());
        assert!(lines.iter().any(|l| l.starts_with("  1 1 1 2  ")), "{}", lines.join("\n"));
        // Heap 1's moves, a blank line, heap 2's.
        let blank = lines.iter().position(String::is_empty).expect("groups");
        assert!(lines[blank - 1].starts_with("  1 "), "{}", lines.join("\n"));
        assert!(lines[blank + 1].starts_with("  2 "), "{}", lines.join("\n"));
        assert!(lines.iter().filter(|l| l.starts_with("  ")).all(|l| l.chars().count() <= 80), "{}", lines.join("\n"));
    }

    #[test]
    fn nims_table_types_every_take_it_shows() {
        let rules = AnyRules::parse("nim", Convention::Normal).expect("nim");
        for start in [&[3, 5, 7][..], &[1, 12, 30], &[9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 11]] {
            let position = rules.position(start).expect("a position");
            let lines = list_moves(&rules, &position, plain());
            let rows = |label: &str| -> Vec<Vec<String>> {
                let label = format!("    {label} ");
                lines
                    .iter()
                    .filter_map(|l| l.strip_prefix(&label))
                    .map(|cells| cells.split_whitespace().map(str::to_owned).collect())
                    .collect()
            };
            let (takes, typed) = (rows("take"), rows("type"));
            let heaps: Vec<usize> = (0..start.len()).collect();
            assert_eq!(typed.len(), heaps.len(), "{}", lines.join("\n"));
            for ((heap, takes), typed) in heaps.into_iter().zip(&takes).zip(&typed) {
                assert_eq!(takes.len(), typed.len(), "{}", lines.join("\n"));
                assert_eq!(takes.len() as u64, start[heap].min(12), "{}", lines.join("\n"));
                for (take, text) in takes.iter().zip(typed) {
                    let Ok(Input::Move(text)) = parse_input(text) else { panic!("{text:?} is not read as a move") };
                    let mv = rules.parse_move(&text).expect("a move");
                    assert_eq!(rules.as_take(&mv), Some((heap, take.parse().expect("a take"))), "{text}");
                    assert!(rules.check(&position, mv).is_ok(), "{text} is legal");
                }
            }
            assert!(
                lines.iter().filter(|l| l.starts_with("  ")).all(|l| l.chars().count() <= 80),
                "{}",
                lines.join("\n")
            );
        }
    }
}
