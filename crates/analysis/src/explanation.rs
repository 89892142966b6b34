use bouton_rules::{Convention, NimMove};

use crate::{Analysis, Winner};

/// The binary-column explanation of a position, as data: each heap in
/// binary, the count of ones in each column, which columns are odd, the
/// nim-sum, and how the winning move is read off the table.
///
/// Columns are numbered by bit: column 0 is the ones column, and
/// [`Explanation::columns`] lists them most significant first, as they are
/// written.
///
/// ```
/// use bouton_analysis::{Advice, Explanation};
/// use bouton_rules::{Convention, NimMove};
///
/// let table = Explanation::new(&[3, 5, 7], Convention::Normal);
/// assert_eq!(table.width(), 3);
/// assert_eq!(table.ones_in_column(2), 2); // 4s column: 5 and 7
/// assert_eq!(table.ones_in_column(0), 3); // 1s column: odd
/// assert_eq!(table.odd_columns(), vec![0]);
/// assert_eq!(table.nim_sum(), 1);
/// match table.advice() {
///     Advice::Flip { column, heap, from, to, .. } => {
///         assert_eq!((*column, *heap, *from, *to), (0, 0, 3, 2));
///     }
///     other => panic!("unexpected advice {other:?}"),
/// }
/// assert_eq!(table.advice().winning_move(), Some(NimMove::new(0, 1)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    heaps: Vec<u64>,
    width: u32,
    ones: Vec<u32>,
    nim_sum: u64,
    winner: Winner,
    convention: Convention,
    advice: Advice,
}

/// How to play from the position, read off the binary table.
///
/// Its JSON form (the web game's) is tagged by `kind` and numbers heaps
/// from 1, as people count them:
///
/// ```
/// use bouton_analysis::Explanation;
/// use bouton_rules::Convention;
///
/// let advice = Explanation::new(&[3, 5, 7], Convention::Normal).advice().clone();
/// assert_eq!(
///     serde_json::to_string(&advice).unwrap(),
///     r#"{"kind":"flip","column":0,"heap":1,"from":3,"to":2}"#,
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Advice {
    /// Nobody can move: the game is over.
    GameOver,
    /// Every column is even (normal play, or misère with a heap above 1): any
    /// move makes some column odd, so the player to move loses against
    /// perfect play.
    AllColumnsEven,
    /// Misère endgame with an odd number of single tokens and no larger heap:
    /// whatever the player to move does, the opponent is left an even number
    /// and wins.
    OddSinglesLeft {
        /// How many heaps hold exactly one token.
        singles: usize,
    },
    /// The column rule: take the leftmost odd column, pick a heap with a 1
    /// there, and flip that heap's bit in every odd column.
    Flip {
        /// The leftmost odd column (bit index).
        column: u32,
        /// The heap chosen (index from 0): the first with a 1 in `column`.
        #[serde(serialize_with = "heap_number")]
        heap: usize,
        /// Its size now.
        from: u64,
        /// Its size after flipping the odd columns.
        to: u64,
    },
    /// Misère endgame rule: the column rule would leave no heap above 1, so
    /// instead leave an odd number of heaps of size 1.
    MisereEndgame {
        /// The heap to reduce (index from 0).
        #[serde(serialize_with = "heap_number")]
        heap: usize,
        /// Its size now.
        from: u64,
        /// Its size after the move (0 or 1).
        to: u64,
        /// Where the plain column rule would have left this heap, if it
        /// applies (only when the heap is the one above 1).
        column_rule_to: Option<u64>,
        /// Heaps of size 1 left after the move (an odd number).
        singles_left: usize,
    },
}

/// Writes a heap index (from 0) as the heap's number (from 1).
fn heap_number<S: serde::Serializer>(heap: &usize, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(heap.saturating_add(1) as u64)
}

impl Advice {
    /// The move the advice recommends, if there is a winning one.
    pub fn winning_move(&self) -> Option<NimMove> {
        match *self {
            Advice::Flip { heap, from, to, .. } | Advice::MisereEndgame { heap, from, to, .. } => {
                Some(NimMove::new(heap, from - to))
            }
            _ => None,
        }
    }
}

impl Explanation {
    /// Builds the table for `heaps` under `convention`. Meant for positions
    /// shown to people: it stores a copy of the heaps.
    pub fn new(heaps: &[u64], convention: Convention) -> Explanation {
        let analysis = Analysis::new(heaps, convention);
        let max = heaps.iter().copied().max().unwrap_or(0);
        let width = (u64::BITS - max.leading_zeros()).max(1);
        let ones = (0..width).map(|bit| heaps.iter().map(|&h| ((h >> bit) & 1) as u32).sum()).collect();
        let advice = advise(heaps, &analysis);
        Explanation {
            heaps: heaps.to_vec(),
            width,
            ones,
            nim_sum: analysis.nim_sum(),
            winner: analysis.winner(),
            convention,
            advice,
        }
    }

    /// The heap sizes, as rows of the table.
    pub fn heaps(&self) -> &[u64] {
        &self.heaps
    }

    /// The number of binary columns (at least 1).
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The column bit indices, most significant first.
    pub fn columns(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.width).rev()
    }

    /// Whether heap `heap` (index from 0) has a 1 in `column`.
    pub fn bit(&self, heap: usize, column: u32) -> bool {
        (self.heaps[heap] >> column) & 1 == 1
    }

    /// How many heaps have a 1 in `column`.
    pub fn ones_in_column(&self, column: u32) -> u32 {
        self.ones[column as usize]
    }

    /// Whether `column` has an odd count of ones (a 1 in the nim-sum).
    pub fn is_odd(&self, column: u32) -> bool {
        self.ones_in_column(column) % 2 == 1
    }

    /// The odd columns, most significant first.
    pub fn odd_columns(&self) -> Vec<u32> {
        self.columns().filter(|&c| self.is_odd(c)).collect()
    }

    /// The nim-sum: 1 in exactly the odd columns.
    pub fn nim_sum(&self) -> u64 {
        self.nim_sum
    }

    /// Who wins with perfect play.
    pub fn winner(&self) -> Winner {
        self.winner
    }

    /// The convention explained.
    pub fn convention(&self) -> Convention {
        self.convention
    }

    /// How to play, read off the table.
    pub fn advice(&self) -> &Advice {
        &self.advice
    }
}

fn advise(heaps: &[u64], analysis: &Analysis) -> Advice {
    if heaps.iter().all(|&h| h == 0) {
        return Advice::GameOver;
    }
    let singles = heaps.iter().filter(|&&h| h == 1).count();
    if analysis.in_misere_endgame() {
        return match analysis.first_winning_move(heaps) {
            Some(mv) => {
                let from = heaps[mv.heap];
                Advice::MisereEndgame {
                    heap: mv.heap,
                    from,
                    to: from - mv.take,
                    column_rule_to: None,
                    singles_left: singles - 1,
                }
            }
            None => Advice::OddSinglesLeft { singles },
        };
    }
    let sum = analysis.nim_sum();
    if sum == 0 {
        return Advice::AllColumnsEven;
    }
    let column = u64::BITS - 1 - sum.leading_zeros();
    let heap = heaps.iter().position(|&h| (h >> column) & 1 == 1).expect("an odd column has a 1 in some heap");
    let from = heaps[heap];
    let to = from ^ sum;
    let leaves_big_heap = heaps.iter().enumerate().any(|(i, &h)| if i == heap { to > 1 } else { h > 1 });
    if analysis.convention() == Convention::Misere && !leaves_big_heap {
        let target = analysis
            .winning_target(from)
            .expect("in misère with a heap above 1, the heap the column rule picks has a winning move");
        let singles_after = singles - usize::from(from == 1) + usize::from(target == 1);
        return Advice::MisereEndgame { heap, from, to: target, column_rule_to: Some(to), singles_left: singles_after };
    }
    Advice::Flip { column, heap, from, to }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    /// Every position of up to three heaps of up to 7 tokens.
    fn small_positions() -> Vec<Vec<u64>> {
        let mut all = vec![vec![]];
        let mut longest: Vec<Vec<u64>> = vec![vec![]];
        for _ in 0..3 {
            longest = longest.iter().flat_map(|p| (0..=7).map(move |h| [p.as_slice(), &[h]].concat())).collect();
            all.extend(longest.iter().cloned());
        }
        all
    }

    #[test]
    fn the_json_form_numbers_the_heaps_from_1_and_keeps_every_other_field() {
        let mut kinds = std::collections::BTreeSet::new();
        for heaps in small_positions() {
            for convention in [Convention::Normal, Convention::Misere] {
                let advice = Explanation::new(&heaps, convention).advice().clone();
                let json = serde_json::to_value(&advice).unwrap();
                let kind = json["kind"].as_str().unwrap().to_owned();
                let expected = match advice {
                    Advice::GameOver => json!({"kind": "game-over"}),
                    Advice::AllColumnsEven => json!({"kind": "all-columns-even"}),
                    Advice::OddSinglesLeft { singles } => json!({"kind": "odd-singles-left", "singles": singles}),
                    Advice::Flip { column, from, to, .. } => {
                        let number = advice.winning_move().unwrap().heap_number();
                        json!({"kind": "flip", "column": column, "heap": number, "from": from, "to": to})
                    }
                    Advice::MisereEndgame { from, to, column_rule_to, singles_left, .. } => {
                        let number = advice.winning_move().unwrap().heap_number();
                        json!({
                            "kind": "misere-endgame",
                            "heap": number,
                            "from": from,
                            "to": to,
                            "column_rule_to": column_rule_to.map_or(Value::Null, Value::from),
                            "singles_left": singles_left,
                        })
                    }
                };
                assert_eq!(json, expected, "{heaps:?} {convention:?}");
                kinds.insert(kind);
            }
        }
        assert_eq!(kinds.len(), 5, "every kind of advice is met: {kinds:?}");
    }
}
