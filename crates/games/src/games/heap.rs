//! Heap games by their take-and-break code (subtraction games, Kayles,
//! Dawson's Kayles, any octal game, Grundy's game, Lasker's Nim): Grundy
//! values in normal play; in misère play the misère quotient where the
//! engine proves one for the position's heaps, else an exhaustive search.

use bouton_rules::{Convention, Heaps, Rules};

use crate::game::{Game, MoveShape, RuleName, winner};
use crate::games::by_quotient;
use crate::games::search::{replies_searching_misere, searched};
use crate::{Analysis, AnalysisError, Budget, Component, HeapGame, HeapMove, HeapRules, HeapValues};
use crate::{MOVE_BUDGET, Method, MoveParseError, Phrase, RuleSetError, Unavailable};
use bouton_grundy::ValuesFailure;

/// The family a heap game was named by: what `--rules` shows for it and
/// what it is called.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HeapFamily {
    /// Take exactly one of the amounts in the set from one heap.
    Subtraction(Vec<u64>),
    /// Take any number except those in the set from one heap.
    AllBut(Vec<u64>),
    /// Take 1 up to the limit from one heap.
    TakeLimit(u64),
    /// Kayles, 0.77.
    Kayles,
    /// Dawson's Kayles, 0.07.
    DawsonsKayles,
    /// Grundy's game, 4!.0.
    Grundy,
    /// Lasker's Nim.
    Lasker,
    /// Any other take-and-break code.
    Octal(HeapGame),
}

impl HeapFamily {
    /// The family of a code: a named game where the code is one, else the
    /// code itself.
    ///
    /// ```
    /// use bouton_games::{HeapFamily, HeapGame};
    /// assert_eq!(HeapFamily::of(&"0.77".parse()?), HeapFamily::Kayles);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(game: &HeapGame) -> HeapFamily {
        if *game == HeapGame::kayles() {
            HeapFamily::Kayles
        } else if *game == HeapGame::dawsons_kayles() {
            HeapFamily::DawsonsKayles
        } else if *game == HeapGame::grundys_game() {
            HeapFamily::Grundy
        } else if *game == HeapGame::laskers_nim() {
            HeapFamily::Lasker
        } else {
            HeapFamily::Octal(game.clone())
        }
    }
}

/// The amounts of a subtraction set: `2,3,7`, `{2, 3, 7}`.
fn amounts(name: &RuleName, text: &str) -> Result<Vec<u64>, RuleSetError> {
    let inner = text.trim().trim_start_matches(['{', '(']).trim_end_matches(['}', ')']);
    let mut set = Vec::new();
    let words: Vec<&str> = if inner.contains(',') {
        inner.split(',').map(str::trim).collect()
    } else {
        inner.split_whitespace().collect()
    };
    if inner.contains(',') && words.iter().any(|w| w.is_empty()) {
        return Err(name.bad("an amount is missing between two commas: write them like 2,3,7"));
    }
    for word in words {
        let n: u64 = word.parse().map_err(|_| name.bad("amounts are whole numbers separated by commas, like 2,3,7"))?;
        if n == 0 || n > crate::MAX_DIGITS as u64 {
            return Err(name.bad(format!("amounts go from 1 to {}", crate::MAX_DIGITS)));
        }
        set.push(n);
    }
    if set.is_empty() {
        return Err(name.bad("give at least one amount, like 2,3,7"));
    }
    set.sort_unstable();
    set.dedup();
    Ok(set)
}

/// A take-and-break code, octal or hexadecimal (a digit 8 to F lets a move
/// leave three heaps); an octal code's mistakes are named as octal ones.
fn read_code(code: &str) -> Result<HeapGame, RuleSetError> {
    match code.parse::<HeapGame>() {
        Ok(game) => Ok(game),
        Err(octal) => match HeapGame::parse_hexadecimal(code) {
            Ok(game) => Ok(game),
            // A digit that is not even hexadecimal is named as such.
            Err(hex @ crate::CodeError::BadHexDigit { .. }) => Err(RuleSetError::from(hex)),
            // A hexadecimal digit makes it a hexadecimal code, wrong as one.
            Err(hex) if matches!(octal, crate::CodeError::BadDigit { found, .. } if found.is_ascii_hexdigit()) => {
                Err(RuleSetError::from(hex))
            }
            Err(_) => Err(RuleSetError::from(octal)),
        },
    }
}

fn list(set: &[u64], separator: &str) -> String {
    set.iter().map(u64::to_string).collect::<Vec<_>>().join(separator)
}

/// Labelled components of heaps, each valued by `value`.
pub(crate) fn heap_components(sizes: &[u64], value: impl Fn(u64) -> Option<u64>) -> Vec<Component> {
    sizes.iter().enumerate().map(|(i, &h)| Component::new(format!("heap {}", i + 1), value(h))).collect()
}

impl Game for HeapRules {
    fn from_name(name: &RuleName) -> Option<Result<HeapRules, RuleSetError>> {
        let family = (|| {
            Ok(match (name.name.as_str(), name.parameter.as_deref()) {
                ("subtraction" | "sub" | "s", Some(p)) => HeapFamily::Subtraction(amounts(name, p)?),
                ("all-but" | "allbut", Some(p)) => HeapFamily::AllBut(amounts(name, p)?),
                ("take-limit" | "nim-limit" | "limit", _) => {
                    HeapFamily::TakeLimit(name.number("the limit", 1, crate::MAX_DIGITS as u64)?)
                }
                ("kayles", None) => HeapFamily::Kayles,
                ("dawsons-kayles" | "dawson" | "dawsons", None) => HeapFamily::DawsonsKayles,
                ("grundy" | "grundys-game", None) => HeapFamily::Grundy,
                ("lasker" | "laskers-nim", None) => HeapFamily::Lasker,
                ("octal", Some(code)) => HeapFamily::of(&read_code(code)?),
                _ if name.given.contains('.') && name.given.starts_with(|c: char| c.is_ascii_digit()) => {
                    HeapFamily::of(&read_code(&name.given)?)
                }
                _ => return Err(None),
            })
        })();
        match family {
            Ok(family) => Some(HeapRules::named(family, Convention::Normal).map_err(|e| name.bad(e.to_string()))),
            Err(None) => None,
            Err(Some(e)) => Some(Err(e)),
        }
    }

    fn examples() -> Vec<HeapRules> {
        [
            HeapFamily::Subtraction(vec![2, 3, 7]),
            HeapFamily::AllBut(vec![1, 2]),
            HeapFamily::TakeLimit(3),
            HeapFamily::Kayles,
            HeapFamily::DawsonsKayles,
            HeapFamily::Octal("0.137".parse().expect("a valid code")),
            HeapFamily::Grundy,
            HeapFamily::Lasker,
        ]
        .into_iter()
        .map(|family| HeapRules::named(family, Convention::Normal).expect("valid examples"))
        .collect()
    }

    fn id(&self) -> String {
        match self.family() {
            HeapFamily::Subtraction(set) => format!("subtraction:{}", list(set, ",")),
            HeapFamily::AllBut(set) => format!("all-but:{}", list(set, ",")),
            HeapFamily::TakeLimit(k) => format!("take-limit:{k}"),
            HeapFamily::Kayles => "kayles".to_owned(),
            HeapFamily::DawsonsKayles => "dawsons-kayles".to_owned(),
            HeapFamily::Grundy => "grundy".to_owned(),
            HeapFamily::Lasker => "lasker".to_owned(),
            HeapFamily::Octal(game) => format!("octal:{game}"),
        }
    }

    fn name(&self) -> String {
        match self.family() {
            HeapFamily::Subtraction(set) => format!("the subtraction game S = {{{}}}", list(set, ", ")),
            HeapFamily::AllBut(set) => format!("the all-but subtraction game (any amount but {})", list(set, ", ")),
            HeapFamily::TakeLimit(k) => format!("Nim with a take limit of {k}"),
            HeapFamily::Kayles => "Kayles (0.77)".to_owned(),
            HeapFamily::DawsonsKayles => "Dawson's Kayles (0.07)".to_owned(),
            HeapFamily::Grundy => "Grundy's game (4!.0)".to_owned(),
            HeapFamily::Lasker => "Lasker's Nim".to_owned(),
            HeapFamily::Octal(game) if game.leaves_three() => format!("the hexadecimal game {game}"),
            HeapFamily::Octal(game) => format!("the octal game {game}"),
        }
    }

    fn family_name(&self) -> String {
        match self.family() {
            HeapFamily::Subtraction(_) => "the subtraction game (a set S of amounts)".to_owned(),
            HeapFamily::AllBut(_) => "the all-but subtraction game (all amounts but a set)".to_owned(),
            HeapFamily::TakeLimit(_) => "Nim with a take limit".to_owned(),
            HeapFamily::Octal(_) => "an octal or hexadecimal game (any code)".to_owned(),
            _ => self.name(),
        }
    }

    fn summary(&self) -> String {
        match self.family() {
            HeapFamily::Subtraction(set) => format!("take exactly {} tokens from a single heap", list(set, " or ")),
            HeapFamily::AllBut(set) => {
                format!("take any number of tokens from a single heap except {}", list(set, " or "))
            }
            HeapFamily::TakeLimit(k) => format!("take 1 to {k} tokens from a single heap"),
            HeapFamily::Kayles => {
                "knock down one pin or two neighbouring pins from a row; a gap splits the row in two".to_owned()
            }
            HeapFamily::DawsonsKayles => {
                "knock down two neighbouring pins from a row; a gap splits the row in two".to_owned()
            }
            HeapFamily::Grundy => "split one heap into two heaps of different sizes".to_owned(),
            HeapFamily::Lasker => {
                "take one or more tokens from a heap, or split a heap into two non-empty heaps".to_owned()
            }
            HeapFamily::Octal(game) => crate::rules::code_sentence::describe_code(game),
        }
    }

    fn in_convention(self, convention: Convention) -> HeapRules {
        self.with_convention(convention)
    }

    fn heap_game(&self) -> Option<HeapGame> {
        Some(self.game().clone())
    }

    fn default_start(&self) -> Vec<u64> {
        match self.family() {
            HeapFamily::Subtraction(_) | HeapFamily::AllBut(_) | HeapFamily::TakeLimit(_) => vec![10, 15, 20],
            HeapFamily::Kayles | HeapFamily::DawsonsKayles | HeapFamily::Octal(_) => vec![7, 11],
            HeapFamily::Grundy => vec![10, 13],
            HeapFamily::Lasker => vec![3, 5, 7],
        }
    }

    fn parse_move(&self, text: &str) -> Result<HeapMove, MoveParseError> {
        text.parse()
    }

    fn move_help(&self) -> &'static str {
        let game = self.game();
        if game.leaves_three() {
            "`3 2` takes 2 from heap 3; `3 2 1` leaves 1 and the rest; `3 2 1 4` leaves 1, 4 and the rest"
        } else if game.splits() && game.digits()[0] & 4 != 0 && game.tail() == 0 {
            "`2 0 3` splits heap 2, leaving 3 and the rest"
        } else if game.splits() {
            "`3 2` takes 2 from heap 3; `3 2 1` takes 2 and leaves what is left as 1 and the rest"
        } else {
            "`3 2` takes 2 tokens from heap 3"
        }
    }

    fn move_shape(&self) -> MoveShape {
        let digits = self.game().digits();
        MoveShape {
            heaps_at_once: 1,
            runs: digits.iter().skip(1).any(|d| d & 12 != 0),
            splits: digits.first().is_some_and(|d| d & 12 != 0),
            takes: self.game().tail() != 0 || digits.iter().skip(1).any(|&d| d != 0),
        }
    }

    fn describe_move(&self, before: &Heaps, mv: &HeapMove) -> Phrase {
        self.describe(mv, before)
    }

    /// Normal play: the XOR of the heaps' Grundy values, winning moves
    /// listed from the options (or, past [`MOVE_BUDGET`] options, built
    /// from the values). Misère play: the misère quotient when its proof
    /// covers every heap of the position (computed once, within the budget
    /// of a first analysis, see `quotients.rs`), else an exhaustive search.
    /// A hexadecimal code (moves leaving three heaps) has no quotient here:
    /// misère play is searched.
    fn analyze(&self, heaps: &Heaps, budget: &Budget) -> Result<Analysis<HeapMove>, AnalysisError> {
        if self.convention() == Convention::Misere {
            if !self.game().leaves_three()
                && let Some(q) = crate::quotients::quotient(self.game(), budget)
                && let Some(answer) = by_quotient::analyze(self, &q, heaps, budget)
            {
                return answer;
            }
            return searched(self, heaps, budget, heap_components(heaps.as_slice(), |_| None));
        }
        let mut meter = budget.meter();
        meter.check().map_err(|e| self.over_budget(e))?;
        let sizes = heaps.as_slice();
        let largest = sizes.iter().copied().max().unwrap_or(0);
        let values = HeapValues::for_heaps_within(self.game(), largest, &meter).map_err(|e| match e {
            ValuesFailure::Values(e) => self.not_available(Unavailable::Values(e)),
            ValuesFailure::Budget(e) => self.over_budget(e),
        })?;
        let value = |n: u64| {
            values.get(n).ok_or_else(|| {
                self.not_available(Unavailable::Values(crate::ValuesError {
                    game: self.game().to_string(),
                    heap: n,
                    limit: crate::TABLE_LIMIT,
                }))
            })
        };
        let grundy: Vec<u64> = sizes.iter().map(|&n| value(n)).collect::<Result<_, _>>()?;
        let total = grundy.iter().fold(0, |x, &g| x ^ g);
        let mut moves = Vec::new();
        let mut complete = true;
        let options: u128 = sizes.iter().map(|&n| crate::sample::option_count(self.game(), n)).sum();
        let build = total != 0 && options > u128::from(MOVE_BUDGET);
        if build {
            // Too many options to list: one winning move per heap whose
            // value can come down to what the others XOR to (the mex
            // promises an option of every smaller value), built from the
            // values: for a hexadecimal code first a move leaving a, c, c
            // (worth G(a)), else one leaving at most two heaps.
            complete = false;
            for (heap, (&size, &g)) in sizes.iter().zip(&grundy).enumerate().filter(|(_, (_, g))| **g ^ total < **g) {
                let target = g ^ total;
                let three = if self.game().leaves_three() {
                    bouton_grundy::three_heap_option_with_value(self.game(), &values, size, target, &mut meter)
                        .map_err(|e| self.over_budget(e))?
                } else {
                    None
                };
                let built = match three {
                    Some((take, [a, c, _])) => Some(HeapMove { heap, take, part: a, part2: c }),
                    None => bouton_grundy::option_with_value(self.game(), &values, size, target, &mut meter)
                        .map_err(|e| self.over_budget(e))?
                        .map(|option| HeapMove::from_option(heap, option)),
                };
                moves.extend(built);
            }
        }
        // A hexadecimal code whose moves the values did not build is
        // listed (under the meter).
        if total != 0 && (!build || (moves.is_empty() && self.game().leaves_three())) {
            let mut stopped = None;
            'heaps: for (heap, (&size, &g)) in sizes.iter().zip(&grundy).enumerate() {
                let target = g ^ total;
                for mv in self.heap_moves(heap, size) {
                    if let Err(e) = meter.spend(1) {
                        (complete, stopped) = (false, Some(e));
                        break 'heaps;
                    }
                    let left: Vec<u64> = match mv.three_heaps(size) {
                        Some(parts) => parts.to_vec(),
                        None => {
                            let option = mv.option(size);
                            vec![option.left, option.right]
                        }
                    };
                    let mut after = 0;
                    for part in left.into_iter().filter(|&part| part != 0) {
                        after ^= value(part)?;
                    }
                    if after == target {
                        moves.push(mv);
                    }
                }
            }
            if let (true, Some(e)) = (moves.is_empty(), stopped) {
                return Err(self.over_budget(e));
            }
        }
        if total != 0 && moves.is_empty() {
            return Err(self.not_available(Unavailable::NoWinningMove));
        }
        Ok(Analysis {
            convention: Convention::Normal,
            winner: winner(total != 0),
            components: heap_components(sizes, |_| None)
                .into_iter()
                .zip(&grundy)
                .map(|(c, &g)| Component { value: Some(g), ..c })
                .collect(),
            total: Some(total),
            winning_moves: moves,
            complete,
            method: Method::GrundyValues,
        })
    }

    /// Misère play by the quotient where it covers the position (each
    /// move's replies counted from the elements), else one shared search.
    fn winning_replies(&self, heaps: &Heaps, moves: &[HeapMove], budget: &Budget) -> Vec<Option<usize>> {
        if self.convention() == Convention::Misere
            && !self.game().leaves_three()
            && let Some(q) = crate::quotients::quotient(self.game(), budget)
            && by_quotient::elements(&q, heaps.as_slice()).is_some()
        {
            let mut meter = budget.meter();
            return moves
                .iter()
                .map(|&mv| {
                    let mut after = heaps.clone();
                    self.apply(&mut after, mv);
                    by_quotient::count_winning_moves(&q, after.as_slice(), &mut meter).and_then(Result::ok)
                })
                .collect();
        }
        replies_searching_misere(self, heaps, moves, budget)
    }
}
