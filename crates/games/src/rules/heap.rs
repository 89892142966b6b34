use std::fmt;
use std::str::FromStr;

use bouton_rules::{Convention, Heaps, Rules};

use crate::rules::parse::{MoveParseError, numbers};
use crate::{HeapFamily, HeapGame, HeapOption, Phrase, Verb};

/// A heap game played by its take-and-break code: subtraction games, Nim
/// with a take limit, Kayles, Dawson's Kayles, any octal game, Grundy's
/// game, Lasker's Nim. A position is a row of heaps, a sum of single-heap
/// games; a move works on one heap.
///
/// When a move leaves two heaps, the first part stays in place and the
/// second is added at the end, so that heap numbers never change; a move of
/// a hexadecimal code (`0.F`, `4.8`) that leaves three heaps adds the second
/// and third at the end.
///
/// ```
/// use bouton_games::{HeapGame, HeapMove, HeapRules};
/// use bouton_rules::{Convention, Heaps, Rules};
///
/// let kayles = HeapRules::new(HeapGame::kayles(), Convention::Normal);
/// let mut heaps = Heaps::new(vec![7])?;
/// // Knock down 1 pin from row 1, leaving rows of 2 and 4.
/// let mv: HeapMove = "1 1 2".parse()?;
/// kayles.play(&mut heaps, mv)?;
/// assert_eq!(heaps.as_slice(), &[2, 4]);
/// assert_eq!(kayles.describe(&mv, &Heaps::new(vec![7])?).to_string(), "take 1 from heap 1, leaving 2 and 4");
/// assert!(kayles.play(&mut heaps, "1 3".parse()?).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HeapRules {
    game: HeapGame,
    family: HeapFamily,
    convention: Convention,
}

/// A move in a heap game: from heap `heap` (counted from 0) remove `take`
/// tokens; if `part` is not 0, split what is left into `part` and the rest.
///
/// Text form, heaps counted from 1: `3 2` (take 2 from heap 3, leave the
/// rest as one heap), `3 2 1` (take 2 and split the rest into 1 and the
/// remainder), `3 0 2` (split heap 3 into 2 and the remainder, as in
/// Grundy's game), `3 2 1 4` (a hexadecimal code's move: take 2 and split
/// the rest into 1, 4 and the remainder, three heaps). Colons may replace
/// spaces.
///
/// ```
/// use bouton_games::{HeapGame, HeapMove, HeapRules};
/// use bouton_rules::{Convention, Heaps, Rules};
///
/// let rules = HeapRules::new(HeapGame::parse_hexadecimal("0.F")?, Convention::Normal);
/// let mut heaps = Heaps::new(vec![7])?;
/// let mv: HeapMove = "1 1 1 2".parse()?;
/// assert_eq!(mv.to_string(), "1:1:1:2");
/// rules.play(&mut heaps, mv)?;
/// assert_eq!(heaps.as_slice(), &[1, 2, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct HeapMove {
    /// The heap, counted from 0.
    pub heap: usize,
    /// Tokens removed.
    pub take: u64,
    /// The size of one of the two heaps left, or 0 to leave one heap (or
    /// none).
    pub part: u64,
    /// The size of a second heap split off when the move leaves three heaps
    /// (then `part`, `part2` and the remainder), else 0.
    #[serde(default)]
    pub part2: u64,
}

impl HeapMove {
    /// The move of `option` on heap `heap`.
    pub fn from_option(heap: usize, option: HeapOption) -> HeapMove {
        let part = if option.right == 0 { 0 } else { option.left };
        HeapMove { heap, take: option.take, part, part2: 0 }
    }

    /// The heaps this move leaves from a heap of `size` tokens, in the
    /// order they are placed (the first stays where the heap was), when
    /// it leaves three of them; `None` for a move leaving two or fewer.
    pub fn three_heaps(&self, size: u64) -> Option<[u64; 3]> {
        if self.part2 == 0 || self.part == 0 {
            return None;
        }
        let rest = size.checked_sub(self.take)?;
        let third = rest.checked_sub(self.part)?.checked_sub(self.part2)?;
        (third > 0).then_some([self.part, self.part2, third])
    }

    /// The option this move is, on a heap of `size` tokens (unchecked; a
    /// move leaving three heaps is described by [`HeapMove::three_heaps`]).
    pub fn option(&self, size: u64) -> HeapOption {
        let rest = size.saturating_sub(self.take);
        if self.part == 0 || self.part >= rest {
            HeapOption::new(self.take, rest, 0)
        } else {
            let other = rest - self.part;
            HeapOption::new(self.take, self.part.min(other), self.part.max(other))
        }
    }
}

impl fmt::Display for HeapMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.heap as u128 + 1, self.take)?;
        if self.part != 0 || self.part2 != 0 {
            write!(f, ":{}", self.part)?;
        }
        if self.part2 != 0 {
            write!(f, ":{}", self.part2)?;
        }
        Ok(())
    }
}

impl FromStr for HeapMove {
    type Err = MoveParseError;

    fn from_str(text: &str) -> Result<HeapMove, MoveParseError> {
        let shape = "a heap number and an amount, like `3 2` (or `3 2 1` to split what is left, \
                     `3 2 1 4` to split it in three)";
        let words = numbers(text, 2, 4, shape)?;
        let heap = heap_index(words[0])?;
        let part = words.get(2).copied().unwrap_or(0);
        let part2 = words.get(3).copied().unwrap_or(0);
        if part == 0 && part2 != 0 {
            return Err(MoveParseError::WrongCount { shape });
        }
        Ok(HeapMove { heap, take: words[1], part, part2 })
    }
}

/// Heap number (from 1) to index.
pub(crate) fn heap_index(number: u64) -> Result<usize, MoveParseError> {
    if number == 0 {
        return Err(MoveParseError::ZeroIndex { what: "heap" });
    }
    Ok(usize::try_from(number - 1).unwrap_or(usize::MAX))
}

/// Why a move is illegal in a heap game. Heap numbers count from 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalHeapMove {
    /// No such heap.
    #[error("there is no heap {heap}: heaps are numbered 1 to {heaps}")]
    NoSuchHeap {
        /// The heap number asked for.
        heap: usize,
        /// How many heaps there are.
        heaps: usize,
    },
    /// More than the heap holds.
    #[error("cannot take {take} from heap {heap}: it holds only {size}")]
    TooMany {
        /// The heap number.
        heap: usize,
        /// The amount asked for.
        take: u64,
        /// What the heap holds.
        size: u64,
    },
    /// The part to leave in place is more than what is left.
    #[error(
        "heap {heap} has {rest} left after taking {take}, not {part}: the part left in place is 1 to {rest} \
         (all {rest} leaves one heap)"
    )]
    PartTooLarge {
        /// The heap number.
        heap: usize,
        /// The tokens taken.
        take: u64,
        /// The part asked for.
        part: u64,
        /// What is left after the take.
        rest: u64,
    },
    /// The two parts split off leave nothing for the third heap.
    #[error(
        "heap {heap} has {rest} left after taking {take}: the two parts split off ({parts} together) must leave \
         at least 1 for the third heap"
    )]
    PartsTooLarge {
        /// The heap number.
        heap: usize,
        /// The tokens taken.
        take: u64,
        /// The two parts together.
        parts: u64,
        /// What is left after the take.
        rest: u64,
    },
    /// The rules do not allow it.
    #[error("{what} is not allowed here: {allowed}")]
    NotAllowed {
        /// The move in words.
        what: String,
        /// What the rules allow, in words.
        allowed: String,
    },
}

impl HeapRules {
    /// The heap game `game` under `convention`.
    pub fn new(game: HeapGame, convention: Convention) -> HeapRules {
        HeapRules { family: HeapFamily::of(&game), game, convention }
    }

    /// The heap game of a named family under `convention`.
    ///
    /// # Errors
    /// A family whose parameters make no valid code.
    ///
    /// ```
    /// use bouton_games::{HeapFamily, HeapRules};
    /// use bouton_rules::Convention;
    ///
    /// let rules = HeapRules::named(HeapFamily::Subtraction(vec![2, 3, 7]), Convention::Normal)?;
    /// assert_eq!(rules.game().to_string(), "0.0330003");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn named(family: HeapFamily, convention: Convention) -> Result<HeapRules, crate::CodeError> {
        let game = match &family {
            HeapFamily::Subtraction(set) => HeapGame::subtraction(set)?,
            HeapFamily::AllBut(set) => HeapGame::all_but(set)?,
            HeapFamily::TakeLimit(k) => HeapGame::take_limit(*k)?,
            HeapFamily::Kayles => HeapGame::kayles(),
            HeapFamily::DawsonsKayles => HeapGame::dawsons_kayles(),
            HeapFamily::Grundy => HeapGame::grundys_game(),
            HeapFamily::Lasker => HeapGame::laskers_nim(),
            HeapFamily::Octal(game) => game.clone(),
        };
        Ok(HeapRules { game, family, convention })
    }

    /// The family the rules were named by.
    pub fn family(&self) -> &HeapFamily {
        &self.family
    }

    /// The same rules under `convention`.
    pub fn with_convention(mut self, convention: Convention) -> HeapRules {
        self.convention = convention;
        self
    }

    /// The game's code.
    pub fn game(&self) -> &HeapGame {
        &self.game
    }

    /// The move in words, e.g. "take 2 from heap 3, leaving 1 and 4".
    pub fn describe(&self, mv: &HeapMove, before: &Heaps) -> Phrase {
        let number = mv.heap as u128 + 1;
        let size = before.get(mv.heap).unwrap_or(0);
        if let Some([a, b, c]) = mv.three_heaps(size) {
            return match mv.take {
                0 => Phrase::new(Verb::Split, format!("heap {number} into {a}, {b} and {c}")),
                take => Phrase::new(Verb::Take, format!("{take} from heap {number}, leaving {a}, {b} and {c}")),
            };
        }
        let option = mv.option(size);
        match (option.take, option.right) {
            (0, _) => Phrase::new(Verb::Split, format!("heap {number} into {} and {}", option.left, option.right)),
            (take, 0) => Phrase::new(Verb::Take, format!("{take} from heap {number}")),
            (take, right) => {
                Phrase::new(Verb::Take, format!("{take} from heap {number}, leaving {} and {right}", option.left))
            }
        }
    }

    /// What the rules allow, in words.
    pub fn allowed(&self) -> String {
        crate::rules::code_sentence::describe_code(&self.game)
    }

    /// Whether removing `take` tokens may leave the three heaps `parts`
    /// (bit 8 of the digit `d_take`; pairwise unequal under a `!`).
    fn allows_three(&self, take: u64, parts: [u64; 3]) -> bool {
        let [a, b, c] = parts;
        let unequal_ok = !self.game.unequal_at(take) || (a != b && b != c && a != c);
        self.game.digit(take) & 8 != 0 && a > 0 && b > 0 && c > 0 && unequal_ok
    }

    /// Every move on heap `heap` (counted from 0) of `size` tokens: the
    /// options of [`HeapGame::options`], then, by increasing take, the
    /// moves leaving three heaps `a ≤ b ≤ c` (each set of sizes once, by
    /// increasing `a` then `b`). Lazy.
    ///
    /// ```
    /// use bouton_games::{HeapGame, HeapRules};
    /// use bouton_rules::Convention;
    ///
    /// let rules = HeapRules::new(HeapGame::parse_hexadecimal("0.8")?, Convention::Normal);
    /// let moves: Vec<String> = rules.heap_moves(0, 7).map(|m| m.to_string()).collect();
    /// // Take 1 and leave 1, 1, 4 or 1, 2, 3 or 2, 2, 2.
    /// assert_eq!(moves, ["1:1:1:1", "1:1:1:2", "1:1:2:2"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn heap_moves(&self, heap: usize, size: u64) -> impl Iterator<Item = HeapMove> + '_ {
        let twos = self.game.options(size).map(move |option| HeapMove::from_option(heap, option));
        let top = if self.game.tail() == 0 { size.min(self.game.digits().len() as u64 - 1) } else { size };
        let threes = (0..=top)
            .filter(move |&take| self.game.digit(take) & 8 != 0)
            .flat_map(move |take| {
                let rest = size - take;
                (1..=rest / 3)
                    .flat_map(move |a| (a..=(rest - a) / 2).map(move |b| HeapMove { heap, take, part: a, part2: b }))
            })
            .filter(move |mv| mv.three_heaps(size).is_some_and(|parts| self.allows_three(mv.take, parts)));
        twos.chain(threes)
    }
}

impl Rules for HeapRules {
    type Position = Heaps;
    type Move = HeapMove;
    type Illegal = IllegalHeapMove;

    fn convention(&self) -> Convention {
        self.convention
    }

    fn check(&self, heaps: &Heaps, mv: HeapMove) -> Result<(), IllegalHeapMove> {
        let number = mv.heap.saturating_add(1);
        let Some(size) = heaps.get(mv.heap) else {
            return Err(IllegalHeapMove::NoSuchHeap { heap: number, heaps: heaps.len() });
        };
        if mv.take > size {
            return Err(IllegalHeapMove::TooMany { heap: number, take: mv.take, size });
        }
        let rest = size - mv.take;
        if mv.part > rest {
            return Err(IllegalHeapMove::PartTooLarge { heap: number, take: mv.take, part: mv.part, rest });
        }
        if mv.part2 != 0 && mv.part.saturating_add(mv.part2) >= rest {
            return Err(IllegalHeapMove::PartsTooLarge {
                heap: number,
                take: mv.take,
                parts: mv.part.saturating_add(mv.part2),
                rest,
            });
        }
        let allowed = match mv.three_heaps(size) {
            Some(parts) => self.allows_three(mv.take, parts),
            None => self.game.allows(size, mv.option(size)),
        };
        if !allowed {
            return Err(IllegalHeapMove::NotAllowed {
                what: self.describe(&mv, heaps).to_string(),
                allowed: self.allowed(),
            });
        }
        Ok(())
    }

    fn apply(&self, heaps: &mut Heaps, mv: HeapMove) {
        let mut sizes = std::mem::replace(heaps, Heaps::new(vec![0]).expect("one heap")).into_vec();
        if let Some(size) = sizes.get(mv.heap).copied() {
            if let Some([a, b, c]) = mv.three_heaps(size) {
                sizes[mv.heap] = a;
                sizes.extend([b, c]);
            } else {
                let option = mv.option(size);
                sizes[mv.heap] = option.left;
                if option.right > 0 {
                    sizes.push(option.right);
                }
            }
        }
        *heaps = Heaps::new(sizes).expect("never empty");
    }

    /// Heap by heap, in the order of [`HeapGame::options`], then the moves
    /// leaving three heaps (see [`HeapRules::heap_moves`]).
    fn legal_moves(&self, heaps: &Heaps) -> impl Iterator<Item = HeapMove> {
        heaps.as_slice().iter().enumerate().flat_map(move |(heap, &size)| self.heap_moves(heap, size))
    }

    fn is_over(&self, heaps: &Heaps) -> bool {
        heaps.as_slice().iter().enumerate().all(|(heap, &size)| self.heap_moves(heap, size).next().is_none())
    }
}
