//! The misère analysis explained, as the binary table explains the nim-sum:
//! each heap's element of the misère quotient, their product, whether it
//! lies in the P-portion, and for a chosen move the element it leaves —
//! a move wins exactly when the product it leaves is in the P-portion.

use bouton_misere::{Element, MisereQuotient, Period};
use bouton_rules::{Convention, Rules};
use serde::Serialize;

use crate::games::by_quotient::{elements, product};
use crate::{AnyMove, AnyPosition, AnyRules, HeapMove};

/// A position of a heap game read through its misère quotient.
///
/// ```
/// use bouton_games::{AnyRules, Budget};
/// use bouton_rules::Convention;
///
/// let rules = AnyRules::parse("octal:0.75", Convention::Misere)?;
/// let position = rules.position(&[1000, 2345, 77777])?;
/// let analysis = rules.analyze(&position)?;
/// let chosen = analysis.winning_moves.first();
/// let reading = rules.misere_reading(&position, chosen).unwrap();
/// assert_eq!(reading.order, 8);
/// assert_eq!(reading.heaps.len(), 3);
/// assert!(!reading.in_p, "the player to move wins");
/// let chosen = reading.chosen.unwrap();
/// assert!(chosen.in_p, "a winning move leaves a product in the P-portion");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MisereReading {
    /// The quotient's number of elements.
    pub order: usize,
    /// The elements of the P-portion, by name: a position whose product is
    /// one of them is lost for the player to move.
    pub p_portion: Vec<String>,
    /// The generators, each with the smallest heap that is it.
    pub generators: Vec<Generator>,
    /// The defining relations, as `a² = 1`.
    pub relations: Vec<String>,
    /// The largest heap the quotient's proof covers, or `None` when it
    /// covers every heap size (the pretending function proved periodic).
    pub proved_upto: Option<u64>,
    /// The pretending function's period, when proved.
    pub period: Option<Period>,
    /// Each heap of the position and its element.
    pub heaps: Vec<HeapElement>,
    /// The product of the heaps' elements.
    pub product: String,
    /// Whether the product is in the P-portion (the player to move loses).
    pub in_p: bool,
    /// The move explained, and what it leaves.
    pub chosen: Option<ChosenMove>,
}

/// A generator of the quotient.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Generator {
    /// Its name: `a`, `b`, ….
    pub name: String,
    /// The smallest heap whose element it is.
    pub heap: u64,
}

/// A heap and its element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeapElement {
    /// "heap 3".
    pub label: String,
    /// Its tokens.
    pub size: u64,
    /// Its element of the quotient, by name (`1` for the identity).
    pub element: String,
}

/// One move read through the quotient: the heap it changes and the heaps
/// left in its place, with their elements, and the product it leaves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChosenMove {
    /// The move as typed.
    pub text: String,
    /// The move in words.
    pub description: String,
    /// The heap it changes.
    pub heap: HeapElement,
    /// What that heap becomes: none, one, two or (a hexadecimal code's
    /// move) three heaps.
    pub leaves: Vec<HeapElement>,
    /// The product of the heaps it leaves there (`1` for none).
    pub replaced_by: String,
    /// The product of the whole position after the move.
    pub product: String,
    /// Whether that product is in the P-portion: the move wins.
    pub in_p: bool,
}

impl MisereReading {
    /// The product written out: `a · b²c · d = b²` (the first `most`
    /// heaps' elements, then `…`).
    ///
    /// ```
    /// use bouton_games::AnyRules;
    /// use bouton_rules::Convention;
    ///
    /// let rules = AnyRules::parse("octal:0.75", Convention::Misere)?;
    /// let position = rules.position(&[1, 1])?;
    /// let reading = rules.misere_reading(&position, None).unwrap();
    /// assert_eq!(reading.formula(10), "a · a = 1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn formula(&self, most: usize) -> String {
        let mut factors: Vec<&str> = self.heaps.iter().take(most).map(|h| h.element.as_str()).collect();
        if self.heaps.len() > most {
            factors.push("…");
        }
        format!("{} = {}", factors.join(" · "), self.product)
    }

    /// The P-portion as a set: `{a, b²}`.
    pub fn p_set(&self) -> String {
        format!("{{{}}}", self.p_portion.join(", "))
    }
}

/// The non-empty heaps `mv` leaves in place of a heap of `size` tokens, in
/// the order they are placed: three for a move of a hexadecimal digit's
/// bit 8, else the one or two of its option.
fn heaps_left(mv: &HeapMove, size: u64) -> Vec<u64> {
    if let Some(parts) = mv.three_heaps(size) {
        return parts.to_vec();
    }
    let option = mv.option(size);
    [option.left, option.right].into_iter().filter(|&n| n > 0).collect()
}

fn name(q: &MisereQuotient, x: Element) -> String {
    q.monoid().name(x)
}

impl AnyRules {
    /// The position read through the misère quotient the analysis uses
    /// (with `chosen`, the move explained, usually the winning move the
    /// analysis names): `None` in normal play, for rules that are not a heap
    /// game, or where no quotient covers the position's heaps (the one
    /// [`AnyRules::analyze`] finds within the rules' budget).
    pub fn misere_reading(&self, position: &AnyPosition, chosen: Option<&AnyMove>) -> Option<MisereReading> {
        if self.convention() != Convention::Misere || !matches!(position, AnyPosition::Heap(_)) {
            return None;
        }
        if self.instant() {
            return None;
        }
        // The quotient the analysis finds, by the same rule.
        let q = crate::quotients::quotient(&self.heap_game()?, self.budget())?;
        let sizes = self.numbers(position);
        let images = elements(&q, &sizes)?;
        let heap = |i: usize, size: u64, x: Element| HeapElement {
            label: format!("heap {}", i + 1),
            size,
            element: name(&q, x),
        };
        let total = product(&q, &images);
        let chosen = chosen.and_then(|mv| {
            let AnyMove::Heap(m) = mv else {
                return None;
            };
            let size = *sizes.get(m.heap)?;
            let parts = heaps_left(m, size);
            let part_images = elements(&q, &parts)?;
            let replaced = product(&q, &part_images);
            let others: Vec<Element> =
                images.iter().enumerate().filter(|&(i, _)| i != m.heap).map(|(_, &x)| x).collect();
            let after = q.monoid().multiply(product(&q, &others), replaced);
            Some(ChosenMove {
                text: mv.to_string(),
                description: self.describe_move(position, mv).to_string(),
                heap: heap(m.heap, size, images[m.heap]),
                leaves: parts
                    .iter()
                    .zip(&part_images)
                    .map(|(&n, &x)| HeapElement { label: format!("heap of {n}"), size: n, element: name(&q, x) })
                    .collect(),
                replaced_by: name(&q, replaced),
                product: name(&q, after),
                in_p: q.is_p(after),
            })
        });
        let computed = q.pretending().computed();
        Some(MisereReading {
            order: q.order(),
            p_portion: q.p_portion().into_iter().map(|x| name(&q, x)).collect(),
            generators: q
                .monoid()
                .generators()
                .iter()
                .map(|&g| Generator {
                    name: name(&q, g),
                    heap: computed.iter().position(|&x| x == g).map_or(0, |h| h as u64),
                })
                .collect(),
            relations: q.monoid().relations().iter().map(ToString::to_string).collect(),
            proved_upto: q.pretending().period().is_none().then(|| q.pretending().upto()),
            period: q.pretending().period(),
            heaps: sizes.iter().zip(&images).enumerate().map(|(i, (&n, &x))| heap(i, n, x)).collect(),
            product: name(&q, total),
            in_p: q.is_p(total),
            chosen,
        })
    }
}
