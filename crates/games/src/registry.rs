//! The catalogue: every game bouton plays, registered once. From the list
//! in [`games!`] this module builds the types that hold any game, its
//! positions, moves and errors, and the dispatch from them to each game's
//! [`Game`] implementation.
//!
//! Adding a game: its rules in `rules/NAME.rs`, its [`Game`] implementation
//! in `games/NAME.rs`, and one line in [`games!`]. Every front-end (the
//! terminal, `analyze`, `simulate`, the API and the page) then offers it.

use bouton_rules::Rules;
use serde::Serialize;

use crate::game::{Game, RuleName};
use crate::{Chomp, FibonacciNim, HeapRules, MooreNim, Northcott, RuleSetError, Staircase, Wythoff};

/// Calls `$callback!` with the list of registered games, each as
/// `Variant => Type`, before the callback's own arguments. **The one place
/// where a game is registered**; the order is the catalogue's order.
macro_rules! games {
    ($callback:ident ! ( $($args:tt)* )) => {
        $callback! {
            [
                Nim => bouton_rules::Nim,
                Heap => HeapRules,
                Moore => MooreNim,
                Wythoff => Wythoff,
                Staircase => Staircase,
                Northcott => Northcott,
                Fibonacci => FibonacciNim,
                Chomp => Chomp,
            ]
            $($args)*
        }
    };
}
pub(crate) use games;

/// Turns an expression over one game (`$g`, of its own type) into a match
/// over every registered game.
macro_rules! each_game {
    ([$($variant:ident => $rules:ty),+ $(,)?] $kind:expr, $g:ident => $body:expr) => {
        match $kind {
            $($crate::registry::Kind::$variant($g) => $body,)+
        }
    };
}
pub(crate) use each_game;

/// `dispatch!(kind, g => body)`: evaluates `body` with `g` bound to the
/// game inside `kind`, whichever game it is.
macro_rules! dispatch {
    ($kind:expr, $g:ident => $body:expr) => {
        $crate::registry::games!(each_game!($kind, $g => $body))
    };
}
pub(crate) use dispatch;

/// Converts between one game's positions and moves and those of any game.
pub(crate) trait Registered: Game {
    /// The position as any game's.
    fn wrap_position(&self, position: Self::Position) -> AnyPosition;
    /// This game's position, if `position` is one.
    fn position_of<'a>(&self, position: &'a AnyPosition) -> Option<&'a Self::Position>;
    /// This game's position, mutably, if `position` is one.
    fn position_of_mut<'a>(&self, position: &'a mut AnyPosition) -> Option<&'a mut Self::Position>;
    /// The move as any game's.
    fn wrap_move(&self, mv: Self::Move) -> AnyMove;
    /// This game's move, if `mv` is one.
    fn move_of(&self, mv: &AnyMove) -> Option<Self::Move>;
    /// The illegal-move error as any game's.
    fn wrap_illegal(&self, illegal: Self::Illegal) -> AnyIllegal;
}

macro_rules! define_registry {
    ([$($variant:ident => $rules:ty),+ $(,)?]) => {
        /// One game's rules, whichever it is.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub(crate) enum Kind {
            $($variant($rules),)+
        }

        /// A position of any rule set.
        #[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
        #[serde(untagged)]
        pub enum AnyPosition {
            $(
                #[doc = concat!("A position of [`", stringify!($rules), "`].")]
                $variant(<$rules as Rules>::Position),
            )+
        }

        /// A move of any rule set.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum AnyMove {
            $(
                #[doc = concat!("A move of [`", stringify!($rules), "`].")]
                $variant(<$rules as Rules>::Move),
            )+
        }

        /// Why a move is illegal, for any rule set.
        #[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
        pub enum AnyIllegal {
            $(
                #[doc = concat!("Illegal in [`", stringify!($rules), "`].")]
                #[error(transparent)]
                $variant(<$rules as Rules>::Illegal),
            )+
            /// A move or position of another rule set.
            #[error("that move belongs to another rule set")]
            Mismatch,
        }

        $(
            impl Registered for $rules {
                fn wrap_position(&self, position: Self::Position) -> AnyPosition {
                    AnyPosition::$variant(position)
                }
                #[allow(unreachable_patterns)]
                fn position_of<'a>(&self, position: &'a AnyPosition) -> Option<&'a Self::Position> {
                    match position {
                        AnyPosition::$variant(p) => Some(p),
                        _ => None,
                    }
                }
                #[allow(unreachable_patterns)]
                fn position_of_mut<'a>(&self, position: &'a mut AnyPosition) -> Option<&'a mut Self::Position> {
                    match position {
                        AnyPosition::$variant(p) => Some(p),
                        _ => None,
                    }
                }
                fn wrap_move(&self, mv: Self::Move) -> AnyMove {
                    AnyMove::$variant(mv)
                }
                #[allow(unreachable_patterns)]
                fn move_of(&self, mv: &AnyMove) -> Option<Self::Move> {
                    match mv {
                        AnyMove::$variant(m) => Some(*m),
                        _ => None,
                    }
                }
                fn wrap_illegal(&self, illegal: Self::Illegal) -> AnyIllegal {
                    AnyIllegal::$variant(illegal)
                }
            }
        )+

        /// The legal moves of whichever game, without boxing: one type
        /// parameter a game, named after its variant.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        pub(crate) enum AnyMoves<$($variant),+> {
            $($variant($variant),)+
            /// No moves (a position of another game).
            Empty,
        }

        impl<$($variant: Iterator<Item = AnyMove>),+> Iterator for AnyMoves<$($variant),+> {
            type Item = AnyMove;

            fn next(&mut self) -> Option<AnyMove> {
                match self {
                    $(AnyMoves::$variant(moves) => moves.next(),)+
                    AnyMoves::Empty => None,
                }
            }
        }

        impl Kind {
            /// The legal moves of `position` under these rules.
            pub(crate) fn legal_moves(&self, position: &AnyPosition) -> impl Iterator<Item = AnyMove> {
                match (self, position) {
                    $((Kind::$variant(g), AnyPosition::$variant(p)) => {
                        AnyMoves::$variant(g.legal_moves(p).map(move |m| g.wrap_move(m)))
                    })+
                    _ => AnyMoves::Empty,
                }
            }
        }

        $(
            impl From<$rules> for Kind {
                fn from(rules: $rules) -> Kind {
                    Kind::$variant(rules)
                }
            }
        )+

        impl std::fmt::Display for AnyMove {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self {
                    $(AnyMove::$variant(m) => m.fmt(f),)+
                }
            }
        }

        impl std::fmt::Display for AnyPosition {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self {
                    $(AnyPosition::$variant(p) => p.fmt(f),)+
                }
            }
        }

        impl Kind {
            /// The game `name` stands for, in normal play.
            pub(crate) fn from_name(name: &RuleName) -> Result<Kind, RuleSetError> {
                $(
                    if let Some(found) = <$rules as Game>::from_name(name) {
                        return found.map(Kind::$variant);
                    }
                )+
                Err(RuleSetError::Unknown { given: name.given.clone() })
            }

            /// One of each game family, in the catalogue's order.
            pub(crate) fn examples() -> Vec<Kind> {
                let mut all = Vec::new();
                $(all.extend(<$rules as Game>::examples().into_iter().map(Kind::$variant));)+
                all
            }
        }
    };
}

games!(define_registry!());

impl Serialize for AnyMove {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
