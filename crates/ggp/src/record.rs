//! The record of a match: who played which role, every joint move (with the
//! moves a referee had to replace), and the final goals.

use std::fmt;

use crate::term::Term;

/// Why a referee replaced a player's move with a legal one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replacement {
    /// No answer before the play clock ran out.
    Late,
    /// The answer was not a legal move (the answer, as received).
    Illegal(String),
    /// The player could not be reached or broke the protocol.
    Failed(String),
}

impl fmt::Display for Replacement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Replacement::Late => f.write_str("late"),
            Replacement::Illegal(answer) => write!(f, "illegal answer {answer:?}"),
            Replacement::Failed(why) => write!(f, "failed: {why}"),
        }
    }
}

/// One step: the joint move played, in role order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The move of each role.
    pub moves: Vec<Term>,
    /// For each role, why its move was replaced, if it was.
    pub replaced: Vec<Option<Replacement>>,
}

/// A finished (or abandoned) match.
///
/// ```
/// use bouton_ggp::{MatchRecord, Step, Term};
///
/// let t = |s: &str| s.parse::<Term>().unwrap();
/// let record = MatchRecord {
///     roles: vec![t("robot")],
///     players: vec!["best".into()],
///     steps: vec![Step { moves: vec![t("(push a)")], replaced: vec![None] }],
///     goals: vec![Some(100)],
///     finished: true,
/// };
/// assert_eq!(record.summary(), "robot: best\ngoals: robot 100\n");
/// assert_eq!(record.to_string(), "robot: best\n   1. (push a)\ngoals: robot 100\n");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchRecord {
    /// The roles, in declaration order.
    pub roles: Vec<Term>,
    /// Who played each role.
    pub players: Vec<String>,
    /// The joint moves.
    pub steps: Vec<Step>,
    /// Each role's goal in the final state.
    pub goals: Vec<Option<u8>>,
    /// Whether the match reached a terminal state (rather than being
    /// abandoned).
    pub finished: bool,
}

impl MatchRecord {
    /// Who played which role and how it ended, in two lines.
    pub fn summary(&self) -> String {
        let players: Vec<String> = self.roles.iter().zip(&self.players).map(|(r, p)| format!("{r}: {p}")).collect();
        let goals: Vec<String> = self
            .roles
            .iter()
            .zip(&self.goals)
            .map(|(r, g)| g.map_or_else(|| format!("{r} none"), |g| format!("{r} {g}")))
            .collect();
        let end = if self.finished { "goals" } else { "abandoned; goals now" };
        format!("{}\n{end}: {}\n", players.join(", "), goals.join(", "))
    }

    /// How many moves of each role were replaced.
    pub fn replacements(&self) -> Vec<usize> {
        (0..self.roles.len()).map(|r| self.steps.iter().filter(|s| s.replaced[r].is_some()).count()).collect()
    }
}

impl fmt::Display for MatchRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (role, player) in self.roles.iter().zip(&self.players) {
            writeln!(f, "{role}: {player}")?;
        }
        for (i, step) in self.steps.iter().enumerate() {
            write!(f, "{:>4}.", i + 1)?;
            for (r, mv) in step.moves.iter().enumerate() {
                write!(f, " {mv}")?;
                if let Some(why) = &step.replaced[r] {
                    write!(f, " [replaced: {why}]")?;
                }
            }
            writeln!(f)?;
        }
        f.write_str(if self.finished { "goals:" } else { "abandoned; goals now:" })?;
        for (role, goal) in self.roles.iter().zip(&self.goals) {
            match goal {
                Some(g) => write!(f, " {role} {g}")?,
                None => write!(f, " {role} none")?,
            }
        }
        writeln!(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_record() {
        let t = |s: &str| s.parse::<Term>().unwrap();
        let record = MatchRecord {
            roles: vec![t("white"), t("black")],
            players: vec!["127.0.0.1:1".into(), "127.0.0.1:2".into()],
            steps: vec![Step {
                moves: vec![t("(mark 1 1)"), t("noop")],
                replaced: vec![None, Some(Replacement::Late)],
            }],
            goals: vec![Some(100), Some(0)],
            finished: true,
        };
        assert_eq!(
            record.to_string(),
            "white: 127.0.0.1:1\nblack: 127.0.0.1:2\n   1. (mark 1 1) noop [replaced: late]\ngoals: white 100 black 0\n"
        );
        assert_eq!(record.replacements(), vec![0, 1]);
        assert_eq!(record.summary(), "white: 127.0.0.1:1, black: 127.0.0.1:2\ngoals: white 100, black 0\n");
    }
}
