//! Why a game could not be compiled: the error of grounding and of
//! [`Machine::compile`](crate::Machine::compile), in a module of its own so
//! that the compilation stages (grounding, the circuit) and the machine built
//! on them all depend on it rather than on one another.

use crate::limits::OutOfLimits;

/// Why a game could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The description declares no role.
    #[error("the game has no roles")]
    NoRoles,
    /// Grounding would exceed the size limits.
    #[error("the game is too large to compile: {0} exceed the limits")]
    TooLarge(&'static str),
    /// The compilation was stopped by the deadline or the cancellation it
    /// was asked with ([`crate::limits::Limits`]): no network, and no other
    /// kind of network tried — unlike [`CompileError::TooLarge`], this says
    /// nothing about the game, only that there was no time to finish.
    #[error("compilation stopped: {}", stop_reason(.0))]
    OutOfLimits(OutOfLimits),
}

/// Why a compilation stopped, as the error message says it.
fn stop_reason(why: &OutOfLimits) -> &'static str {
    match why {
        OutOfLimits::Deadline => "the deadline passed",
        OutOfLimits::Cancelled => "it was cancelled",
        OutOfLimits::Operations => "the budget of operations ran out",
    }
}

impl From<OutOfLimits> for CompileError {
    fn from(why: OutOfLimits) -> CompileError {
        CompileError::OutOfLimits(why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_compilation_says_why() {
        assert_eq!(CompileError::from(OutOfLimits::Deadline).to_string(), "compilation stopped: the deadline passed");
        assert_eq!(CompileError::from(OutOfLimits::Cancelled).to_string(), "compilation stopped: it was cancelled");
        assert_ne!(CompileError::OutOfLimits(OutOfLimits::Cancelled), CompileError::TooLarge("the ground rules"));
    }
}
