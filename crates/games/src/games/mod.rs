//! Each game's [`crate::Game`] implementation, one file a game: its names,
//! positions, wording, board and analysis. Its pure rules are beside it in
//! `rules/`; the registry (`registry.rs`) lists every game once.

pub(crate) mod by_quotient;
pub(crate) mod chomp;
pub(crate) mod fibonacci;
pub(crate) mod heap;
pub(crate) mod moore;
pub(crate) mod nim;
pub(crate) mod northcott;
pub(crate) mod search;
pub(crate) mod staircase;
pub(crate) mod written;
pub(crate) mod wythoff;
