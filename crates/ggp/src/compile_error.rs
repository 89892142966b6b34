//! Why a game could not be compiled: the error of grounding and of
//! [`Machine::compile`](crate::Machine::compile), in a module of its own so
//! that the compilation stages (grounding, the circuit) and the machine built
//! on them all depend on it rather than on one another.

/// Why a game could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The description declares no role.
    #[error("the game has no roles")]
    NoRoles,
    /// Grounding would exceed the size limits.
    #[error("the game is too large to compile: {0} exceed the limits")]
    TooLarge(&'static str),
}
