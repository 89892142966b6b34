//! The rule sets beyond Nim, each implementing [`bouton_rules::Rules`].

pub(crate) mod chomp;
pub(crate) mod code_sentence;
pub(crate) mod fibonacci;
pub(crate) mod heap;
pub(crate) mod moore;
pub(crate) mod northcott;
pub(crate) mod parse;
pub(crate) mod staircase;
pub(crate) mod wythoff;
