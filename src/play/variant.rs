//! What the terminal game needs from a rule set: wording, the board, the
//! commands' answers, the computer, and the save file. `AnyRules`
//! implements it for every rule set (`any.rs`); the trait keeps the
//! session independent of the catalogue.

use bouton_games::Phrase;
use bouton_players::{Level, Player};
use bouton_rules::{Convention, Game, Rules};

use crate::theme::Theme;

/// A rule set the terminal game can play.
pub trait Variant: Rules + Send + Sized + 'static {
    /// The title: "Nim, normal play".
    fn title(&self) -> String;

    /// The rules in one sentence, after the title: "whoever takes the last
    /// token wins".
    fn rule_sentence(&self) -> String;

    /// The starting position in one line: "Heaps: 3 5 7 (15 tokens in all)."
    fn describe_start(&self, start: &Self::Position) -> String;

    /// How to type a move: "Type a move as `heap amount`: `3 2` takes 2 tokens from heap 3."
    fn how_to_move(&self) -> String;

    /// The first line of `help`: the move syntax and its meaning.
    fn move_command(&self) -> (&'static str, String);

    /// The first line of `help` before the commands.
    fn help_header(&self) -> String;

    /// Reads a typed move.
    ///
    /// # Errors
    /// One line saying what is wrong and what is allowed.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// A move in words, as an instruction: "take 2 from heap 3".
    fn describe(&self, before: &Self::Position, mv: Self::Move) -> Phrase;

    /// The board, marking the last move (given with the position before it).
    fn render_board(
        &self,
        position: &Self::Position,
        last: Option<(&Self::Position, Self::Move)>,
        theme: Theme,
    ) -> Vec<String>;

    /// What `explain` shows, for `help`.
    fn explain_meaning(&self) -> &'static str {
        "the binary table behind the winning move"
    }

    /// What `moves` shows, for `help`.
    fn moves_meaning(&self) -> &'static str {
        "every legal move, what to type for it and the nim-sum it leaves"
    }

    /// What [`Variant::prepare`] is about to work out, said before it starts
    /// when it may take a while (`None`: nothing to wait for).
    fn preparing(&self) -> Option<String> {
        None
    }

    /// Prepares the analysis of a new game once, before play (the misère
    /// quotient of a heap game, which may take a few seconds): a note for
    /// the player on what it found, if anything.
    fn prepare(&self) -> Option<String> {
        None
    }

    /// The answer to `hint`.
    fn hint(&self, position: &Self::Position, theme: Theme) -> String;

    /// The answer to `explain`.
    fn explain(&self, position: &Self::Position, theme: Theme) -> Vec<String>;

    /// The answer to `moves`.
    fn list_moves(&self, position: &Self::Position, theme: Theme) -> Vec<String>;

    /// What the player who ended the game did: "took the last token".
    fn last_move_words(&self) -> &'static str;

    /// The computer at `level`.
    fn player(&self, level: Level) -> Box<dyn Player<Self> + Send>;

    /// Why the computer cannot play this start, if it cannot.
    fn computer_unavailable(&self, _start: &Self::Position) -> Option<String> {
        None
    }

    /// How many rows the position shows (limited for interactive play).
    fn rows(&self, position: &Self::Position) -> usize;

    /// The rule set's name in a save file (`None` for Nim, whose files
    /// have no such field).
    fn save_name(&self) -> Option<String>;

    /// The position as numbers, for the save file.
    fn numbers(&self, position: &Self::Position) -> Vec<u64>;

    /// A move as text, for the save file.
    fn move_text(&self, mv: Self::Move) -> String;

    /// Rebuilds a saved game.
    ///
    /// # Errors
    /// What is wrong with the rules, the start or a move.
    fn restore(
        rules: Option<&str>,
        convention: Convention,
        start: Vec<u64>,
        moves: &[String],
    ) -> Result<Game<Self>, String>;
}

/// Reads saved moves in order, naming the first that cannot be read.
pub fn parse_saved_moves<M, E: std::fmt::Display>(
    moves: &[String],
    parse: impl Fn(&str) -> Result<M, E>,
) -> Result<Vec<M>, String> {
    moves
        .iter()
        .enumerate()
        .map(|(i, text)| parse(text).map_err(|e| format!("move {} cannot be read: {e}", i + 1)))
        .collect()
}
