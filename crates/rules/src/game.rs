use crate::{Outcome, Rules, Side};

/// A game in progress: the rules, the start, every move played so far, and
/// the position they lead to. Moves can be taken back with [`Game::undo`].
///
/// ```
/// use bouton_rules::{Convention, Game, Heaps, Nim, NimMove, Side};
///
/// let mut game = Game::new(Nim::new(Convention::Normal), Heaps::new(vec![1, 1])?)?;
/// game.play(NimMove::new(0, 1))?;
/// game.play(NimMove::new(1, 1))?;
/// assert_eq!(game.outcome().map(|o| o.winner), Some(Side::Second));
/// assert_eq!(game.undo(), Some(NimMove::new(1, 1)));
/// assert_eq!(game.outcome(), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game<R: Rules> {
    rules: R,
    /// `positions[0]` is the start; `positions[i + 1]` follows `moves[i]`.
    positions: Vec<R::Position>,
    moves: Vec<R::Move>,
}

/// Why a game cannot start from a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The start has no legal move: the game would be over before it began.
    #[error("the game is already over at the start: every heap is empty, so nobody can move")]
    OverAtStart,
}

/// A move the game refused, with the move and the reason. The game is left
/// exactly as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError<R: Rules> {
    /// The move breaks the rules in this position.
    #[error("{reason}")]
    Illegal {
        /// The rejected move.
        mv: R::Move,
        /// Why it is illegal.
        reason: R::Illegal,
    },
    /// The game is over; no more moves can be played.
    #[error("the game is over: no more moves can be played")]
    GameOver {
        /// The rejected move.
        mv: R::Move,
    },
}

impl<R: Rules> PlayError<R> {
    /// The move that was refused.
    pub fn rejected_move(&self) -> R::Move {
        match self {
            PlayError::Illegal { mv, .. } | PlayError::GameOver { mv } => *mv,
        }
    }
}

impl<R: Rules> Game<R> {
    /// A new game from `start`, first player to move.
    ///
    /// # Errors
    /// [`GameError::OverAtStart`] if nobody can move from `start`.
    pub fn new(rules: R, start: R::Position) -> Result<Game<R>, GameError> {
        if rules.is_over(&start) {
            return Err(GameError::OverAtStart);
        }
        Ok(Game { rules, positions: vec![start], moves: Vec::new() })
    }

    /// A game from `start` with `moves` played in order.
    ///
    /// # Errors
    /// The first move that cannot be played, as a [`PlayError`], with its
    /// index in `moves`; or a [`GameError`] for the start itself.
    pub fn replay(
        rules: R,
        start: R::Position,
        moves: impl IntoIterator<Item = R::Move>,
    ) -> Result<Game<R>, ReplayError<R>> {
        let mut game = Game::new(rules, start).map_err(ReplayError::Start)?;
        for (index, mv) in moves.into_iter().enumerate() {
            game.play(mv).map_err(|error| ReplayError::Move { index, error })?;
        }
        Ok(game)
    }

    /// The rules this game is played under.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The starting position.
    pub fn start(&self) -> &R::Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &R::Position {
        self.positions.last().expect("a game always has its start position")
    }

    /// Every move played so far, first move first.
    pub fn moves(&self) -> &[R::Move] {
        &self.moves
    }

    /// The position before each move and the move, in order.
    pub fn history(&self) -> impl Iterator<Item = (&R::Position, R::Move)> {
        self.positions.iter().zip(self.moves.iter().copied())
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<R::Move> {
        self.moves.last().copied()
    }

    /// Whose turn it is (in a finished game: who would move next, and cannot).
    pub fn to_move(&self) -> Side {
        Side::after_moves(self.moves.len())
    }

    /// Whether the player to move has no legal move.
    pub fn is_over(&self) -> bool {
        self.rules.is_over(self.position())
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| Outcome::at_end(self.rules.convention(), self.to_move()))
    }

    /// Plays a move for the side to move.
    ///
    /// # Errors
    /// A [`PlayError`] carrying the move; the game is unchanged.
    pub fn play(&mut self, mv: R::Move) -> Result<(), PlayError<R>> {
        if self.is_over() {
            return Err(PlayError::GameOver { mv });
        }
        let mut next = self.position().clone();
        self.rules.play(&mut next, mv).map_err(|reason| PlayError::Illegal { mv, reason })?;
        self.positions.push(next);
        self.moves.push(mv);
        Ok(())
    }

    /// Takes back the last move and returns it; `None` at the start.
    pub fn undo(&mut self) -> Option<R::Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }
}

/// Why a recorded game cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError<R: Rules> {
    /// The start position is not playable.
    #[error("{0}")]
    Start(GameError),
    /// A recorded move is not legal where it was played.
    #[error("move {number} cannot be played: {error}", number = index + 1)]
    Move {
        /// The index of the move in the record, from 0.
        index: usize,
        /// Why it was refused.
        error: PlayError<R>,
    },
}
