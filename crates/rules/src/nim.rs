use crate::{Convention, Heaps, NimMove, Rules};

/// The rules of Nim: a move takes one or more tokens from a single heap.
///
/// ```
/// use bouton_rules::{Convention, Heaps, IllegalNimMove, Nim, NimMove, Rules};
///
/// let nim = Nim::new(Convention::Misere);
/// let heaps = Heaps::new(vec![2, 0])?;
/// assert_eq!(nim.check(&heaps, NimMove::new(0, 2)), Ok(()));
/// assert_eq!(
///     nim.check(&heaps, NimMove::new(1, 1)),
///     Err(IllegalNimMove::EmptyHeap { heap: 2 })
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Nim {
    /// Normal or misère play.
    pub convention: Convention,
}

impl Nim {
    /// Nim under the given convention.
    pub fn new(convention: Convention) -> Nim {
        Nim { convention }
    }
}

/// Why a Nim move is illegal. Heap numbers in these errors count from 1, as
/// players do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalNimMove {
    /// The heap does not exist.
    #[error("there is no heap {heap}: heaps are numbered 1 to {heaps}")]
    NoSuchHeap {
        /// The heap number asked for, from 1 (saturated at `usize::MAX`).
        heap: usize,
        /// How many heaps there are.
        heaps: usize,
    },
    /// The move takes nothing.
    #[error("you must take at least one token")]
    TakeNothing,
    /// The heap is empty.
    #[error("heap {heap} is empty: choose a heap that still has tokens")]
    EmptyHeap {
        /// The heap number, from 1.
        heap: usize,
    },
    /// The move takes more than the heap holds.
    #[error("cannot take {take} from heap {heap}: it holds only {available}")]
    TooMany {
        /// The heap number, from 1.
        heap: usize,
        /// The amount asked for.
        take: u64,
        /// What the heap holds.
        available: u64,
    },
}

impl Rules for Nim {
    type Position = Heaps;
    type Move = NimMove;
    type Illegal = IllegalNimMove;

    fn convention(&self) -> Convention {
        self.convention
    }

    fn check(&self, heaps: &Heaps, mv: NimMove) -> Result<(), IllegalNimMove> {
        let number = mv.heap.saturating_add(1);
        let Some(available) = heaps.get(mv.heap) else {
            return Err(IllegalNimMove::NoSuchHeap { heap: number, heaps: heaps.len() });
        };
        if available == 0 {
            return Err(IllegalNimMove::EmptyHeap { heap: number });
        }
        if mv.take == 0 {
            return Err(IllegalNimMove::TakeNothing);
        }
        if mv.take > available {
            return Err(IllegalNimMove::TooMany { heap: number, take: mv.take, available });
        }
        Ok(())
    }

    fn apply(&self, heaps: &mut Heaps, mv: NimMove) {
        if let Some(h) = heaps.heap_mut(mv.heap) {
            *h = h.saturating_sub(mv.take);
        }
    }

    /// Heap by heap, smallest take first.
    fn legal_moves(&self, heaps: &Heaps) -> impl Iterator<Item = NimMove> {
        heaps
            .as_slice()
            .iter()
            .enumerate()
            .flat_map(|(heap, &size)| (1..=size).map(move |take| NimMove::new(heap, take)))
    }

    fn is_over(&self, heaps: &Heaps) -> bool {
        heaps.all_empty()
    }
}
