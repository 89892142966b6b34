//! What a person types at the move prompt.

use std::path::PathBuf;

/// One line of input, understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Nothing typed.
    Nothing,
    /// A move as typed, for the rule set to read and check.
    Move(String),
    /// Show the commands.
    Help,
    /// Is the position winning, and a best move.
    Hint,
    /// The binary table.
    Explain,
    /// Every legal move with the nim-sum it leaves.
    Moves,
    /// Take back the last move (and the computer's reply).
    Undo,
    /// Save the game to a file.
    Save(PathBuf),
    /// Leave the game.
    Quit,
}

/// Why a line was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// A word that is not a command.
    #[error("unknown command {}: type a move like `3 2`, or `help` for the commands", crate::play::terminal::quoted(.0))]
    UnknownCommand(String),
    /// `save` without a file name.
    #[error("save needs a file name, like `save game.json`")]
    SaveWithoutFile,
    /// A command given something it does not take.
    #[error("`{0}` takes nothing after it")]
    UnexpectedArgument(&'static str),
}

/// The commands after the rule set's move syntax, for `help`.
pub const COMMANDS: [(&str, &str); 7] = [
    ("hint", "is your position winning, and a best move"),
    ("explain", "the binary table behind the winning move"),
    ("moves", "every legal move, what to type for it and the nim-sum it leaves"),
    ("undo", "take back your last move (and the computer's reply)"),
    ("save FILE", "save the game; resume with `bouton play --load FILE`"),
    ("help", "this list"),
    ("quit", "leave the game (end of input does too)"),
];

/// Understands one line.
pub fn parse_input(line: &str) -> Result<Input, InputError> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    };
    let bare = |command: &'static str, input: Input| {
        if rest.is_empty() { Ok(input) } else { Err(InputError::UnexpectedArgument(command)) }
    };
    match word.to_ascii_lowercase().as_str() {
        "" => Ok(Input::Nothing),
        "help" | "h" | "?" => bare("help", Input::Help),
        "hint" => bare("hint", Input::Hint),
        "explain" => bare("explain", Input::Explain),
        "moves" => bare("moves", Input::Moves),
        "undo" | "u" => bare("undo", Input::Undo),
        "quit" | "q" | "exit" => bare("quit", Input::Quit),
        "save" if rest.is_empty() => Err(InputError::SaveWithoutFile),
        "save" => Ok(Input::Save(PathBuf::from(rest))),
        _ if word.chars().any(|c| c.is_ascii_digit()) || word.starts_with(['-', '+', ':']) => {
            Ok(Input::Move(line.to_owned()))
        }
        _ => Err(InputError::UnknownCommand(word.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn understands_moves_and_commands() {
        assert_eq!(parse_input(" 3 2 "), Ok(Input::Move("3 2".into())));
        assert_eq!(parse_input("3:2"), Ok(Input::Move("3:2".into())));
        assert_eq!(parse_input("HINT"), Ok(Input::Hint));
        assert_eq!(parse_input("save my game.json"), Ok(Input::Save("my game.json".into())));
        assert_eq!(parse_input(""), Ok(Input::Nothing));
    }

    #[test]
    fn names_what_is_wrong() {
        assert_eq!(parse_input("save"), Err(InputError::SaveWithoutFile));
        assert_eq!(parse_input("hint 3"), Err(InputError::UnexpectedArgument("hint")));
        assert_eq!(parse_input("dance"), Err(InputError::UnknownCommand("dance".into())));
        // Moves are read by the rule set.
        assert_eq!(parse_input("-1 2"), Ok(Input::Move("-1 2".into())));
        assert_eq!(parse_input("3 x"), Ok(Input::Move("3 x".into())));
    }
}
