//! A take-and-break code's moves in one short sentence for a player.

use crate::HeapGame;

/// The moves a code allows, in one short sentence for a player.
///
/// The digit `d_k` of a take-and-break code says what a move removing `k`
/// tokens from a heap may leave: bit 1 nothing (the whole heap is taken),
/// bit 2 one heap, bit 4 two heaps, bit 8 (a hexadecimal digit) three heaps;
/// a `!` after the digit makes the heaps left pairwise unequal. `d_0` is
/// read the same way for moves that take nothing and only split. The
/// sentence says this as the number of heaps a move may leave, grouping the
/// amounts whose digits agree: `0.FFF` is "take 1 to 3 from a heap, leaving
/// 0 to 3 heaps". A digit 3 (nothing or one heap, as in Nim) is a plain
/// "take k", a digit 1 "take a whole heap of k". The README's notation
/// section keeps the full reading of the digits.
pub(crate) fn describe_code(game: &HeapGame) -> String {
    let digits = game.digits();
    let mut parts = Vec::new();
    let splits: Vec<u8> = [2, 3].into_iter().filter(|&i| digits[0] & (1 << i) != 0).collect();
    if !splits.is_empty() {
        let into = or_list(&splits.iter().map(|&n| count_word(n).to_owned()).collect::<Vec<_>>());
        let unequal = if game.unequal_at(0) { " unequal heaps" } else { "" };
        parts.push(format!("split a heap into {into}{unequal}"));
    }
    // Takes grouped by what they may leave: (digit, unequal) → amounts.
    let mut groups: Vec<((u8, bool), Vec<u64>)> = Vec::new();
    for (k, &d) in digits.iter().enumerate().skip(1).filter(|(_, d)| **d != 0) {
        let key = (d, game.unequal_at(k as u64));
        match groups.iter_mut().find(|(g, _)| *g == key) {
            Some((_, takes)) => takes.push(k as u64),
            None => groups.push((key, vec![k as u64])),
        }
    }
    let tail = game.tail();
    let mut tail_done = tail == 0;
    let mut from_a_heap = false;
    for ((d, unequal), takes) in &groups {
        // The repeated digit joins the group of the same digit.
        let with_tail = !tail_done && *d == tail && !unequal;
        tail_done |= with_tail;
        parts.push(take_clause(
            *d,
            *unequal,
            &takes_words(takes, with_tail.then_some(digits.len() as u64)),
            &mut from_a_heap,
        ));
    }
    if !tail_done {
        let amounts = takes_words(&[], Some(digits.len() as u64));
        parts.push(take_clause(tail, false, &amounts, &mut from_a_heap));
    }
    if parts.is_empty() { "no moves at all".to_owned() } else { parts.join("; ") }
}

/// "two", "three": the heaps a split leaves.
fn count_word(n: u8) -> &'static str {
    ["none", "one", "two", "three"][usize::from(n.min(3))]
}

/// "a, b or c".
fn or_list(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// Numbers in words: "1 to 4" for a run of three or more, else "1, 3 or 4".
fn numbers_words(numbers: &[u64]) -> String {
    let run = numbers.len() >= 3 && numbers.windows(2).all(|w| w[1] == w[0] + 1);
    if run {
        format!("{} to {}", numbers[0], numbers[numbers.len() - 1])
    } else {
        or_list(&numbers.iter().map(u64::to_string).collect::<Vec<_>>())
    }
}

/// The amounts of a clause: `takes`, and every amount from `from` up.
fn takes_words(takes: &[u64], from: Option<u64>) -> String {
    let Some(from) = from else {
        return numbers_words(takes);
    };
    // The finite amounts that run into the tail join it: 2, 3 and 4 or more
    // is "2 or more".
    let mut start = from;
    let mut finite = takes.to_vec();
    while finite.last() == Some(&(start - 1)) {
        finite.pop();
        start -= 1;
    }
    let open = if start == 1 { "any number".to_owned() } else { format!("{start} or more") };
    if finite.is_empty() { open } else { format!("{} or {open}", numbers_words(&finite)) }
}

/// One clause: removing `amounts` (in words) under digit `d`. The first
/// clause that takes from a heap says so.
fn take_clause(d: u8, unequal: bool, amounts: &str, from_a_heap: &mut bool) -> String {
    if d == 1 {
        return format!("take a whole heap of {amounts}");
    }
    let from = if std::mem::replace(from_a_heap, true) { "" } else { " from a heap" };
    if d == 3 {
        return format!("take {amounts}{from}");
    }
    let counts: Vec<u64> = (0..4).filter(|i| d & (1 << i) != 0).collect();
    let heaps = if counts == [1] { "heap" } else { "heaps" };
    let unequal = if unequal && counts.iter().any(|&c| c >= 2) { " unequal" } else { "" };
    format!("take {amounts}{from}, leaving {}{unequal} {heaps}", numbers_words(&counts))
}

#[cfg(test)]
mod tests {
    use bouton_rules::{Convention, Heaps, Rules};

    use super::describe_code;
    use crate::{HeapGame, HeapMove, HeapRules};

    /// The amounts a clause names: "1 to 4", "1, 3 or 4", "5 or more",
    /// "any number", "2 or 5 or more".
    fn amount_named(words: &str, take: u64) -> bool {
        if words == "any number" {
            return take >= 1;
        }
        let (finite, open) = match words.strip_suffix(" or more") {
            Some(head) => match head.rsplit_once(" or ") {
                Some((finite, from)) => (finite, Some(from)),
                None => ("", Some(head)),
            },
            None => (words, None),
        };
        if open.is_some_and(|from| take >= from.parse::<u64>().expect("a number")) {
            return true;
        }
        if let Some((a, b)) = finite.split_once(" to ") {
            return (a.parse::<u64>().unwrap()..=b.parse().unwrap()).contains(&take);
        }
        finite.split([',', ' ']).filter(|w| !w.is_empty() && *w != "or").any(|w| w.parse::<u64>() == Ok(take))
    }

    /// Whether the sentence lets a move remove `take` and leave `parts`:
    /// an interpreter of the sentence, written from its wording alone.
    fn sentence_allows(sentence: &str, take: u64, parts: &[u64]) -> bool {
        let unequal_parts = parts.iter().enumerate().all(|(i, a)| parts[..i].iter().all(|b| a != b));
        sentence.split("; ").any(|clause| {
            if let Some(into) = clause.strip_prefix("split a heap into ") {
                let (into, unequal) = match into.strip_suffix(" unequal heaps") {
                    Some(into) => (into, true),
                    None => (into, false),
                };
                let counts: Vec<usize> = into
                    .split([',', ' '])
                    .filter_map(|w| match w {
                        "two" => Some(2),
                        "three" => Some(3),
                        _ => None,
                    })
                    .collect();
                return take == 0 && counts.contains(&parts.len()) && (!unequal || unequal_parts);
            }
            if let Some(amounts) = clause.strip_prefix("take a whole heap of ") {
                return parts.is_empty() && amount_named(amounts, take);
            }
            let clause = clause.strip_prefix("take ").expect("every clause splits or takes");
            let (amounts, leaving) = match clause.split_once(", leaving ") {
                Some((amounts, leaving)) => (amounts, Some(leaving)),
                None => (clause, None),
            };
            let amounts = amounts.strip_suffix(" from a heap").unwrap_or(amounts);
            if !amount_named(amounts, take) {
                return false;
            }
            let Some(leaving) = leaving else {
                return parts.len() <= 1;
            };
            let (counts, unequal) = match leaving.strip_suffix(" unequal heaps") {
                Some(counts) => (counts, true),
                None => (leaving.trim_end_matches(" heaps").trim_end_matches(" heap"), false),
            };
            amount_named(counts, parts.len() as u64) && (!unequal || unequal_parts)
        })
    }

    /// Every way to remove some tokens from a heap of `n` and leave up to
    /// three non-empty heaps (sizes in increasing order).
    fn every_move(n: u64) -> Vec<(u64, Vec<u64>)> {
        let mut moves = Vec::new();
        for take in 0..=n {
            let rest = n - take;
            if rest == 0 {
                moves.push((take, vec![]));
                continue;
            }
            moves.push((take, vec![rest]));
            for a in 1..=rest / 2 {
                moves.push((take, vec![a, rest - a]));
            }
            for a in 1..=rest / 3 {
                for b in a..=(rest - a) / 2 {
                    moves.push((take, vec![a, b, rest - a - b]));
                }
            }
        }
        moves
    }

    /// The rules' own verdict on removing `take` from a heap of `n` and
    /// leaving `parts`.
    fn rules_allow(rules: &HeapRules, n: u64, take: u64, parts: &[u64]) -> bool {
        let (part, part2) = match parts {
            [a, _] => (*a, 0),
            [a, b, _] => (*a, *b),
            _ => (0, 0),
        };
        let heaps = Heaps::new(vec![n]).expect("one heap");
        rules.check(&heaps, HeapMove { heap: 0, take, part, part2 }).is_ok()
    }

    #[test]
    fn the_sentence_allows_exactly_the_moves_of_the_code() {
        let codes = [
            "0.137", "0.F", "0.FFF", "4.8", "0.3F!", "8!.0C", "0.8", "C.0", "0.3…", "0.13…", "4.3…", "0.2…", "0.12…",
            "0.15", "0.6", "0.4!4", "0.3F", "0.31…", "0.E2", "0.9", "C!.8", "0.B7F", "4.07", "0.354",
        ];
        for code in codes {
            let game = HeapGame::parse_hexadecimal(code).expect("a valid code");
            let sentence = describe_code(&game);
            let rules = HeapRules::new(game, Convention::Normal);
            for n in 1..=13 {
                for (take, parts) in every_move(n) {
                    assert_eq!(
                        sentence_allows(&sentence, take, &parts),
                        rules_allow(&rules, n, take, &parts),
                        "{code} ({sentence:?}): remove {take} from {n} leaving {parts:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn hexadecimal_codes_read_in_a_few_words() {
        let sentence = |code: &str| describe_code(&HeapGame::parse_hexadecimal(code).expect("a valid code"));
        assert_eq!(sentence("0.F"), "take 1 from a heap, leaving 0 to 3 heaps");
        assert_eq!(sentence("0.FFF"), "take 1 to 3 from a heap, leaving 0 to 3 heaps");
        assert_eq!(sentence("4.8"), "split a heap into two; take 1 from a heap, leaving 3 heaps");
        assert_eq!(sentence("0.3F!"), "take 1 from a heap; take 2, leaving 0 to 3 unequal heaps");
        assert_eq!(sentence("C!.0"), "split a heap into two or three unequal heaps");
        assert_eq!(sentence("0.137"), "take a whole heap of 1; take 2 from a heap; take 3, leaving 0 to 2 heaps");
        assert_eq!(sentence("0.3…"), "take any number from a heap");
        assert_eq!(sentence("0.13…"), "take a whole heap of 1; take 2 or more from a heap");
    }
}
