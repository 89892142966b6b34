//! One game at the terminal: the turn loop and the commands.

use std::io;
use std::thread;
use std::time::Duration;

use bouton_games::Phrase;
use bouton_rules::{Convention, Game, Side};
use rand_chacha::ChaCha8Rng;

use crate::play::input::{COMMANDS, Input, parse_input};
use crate::play::save;
use crate::play::seat::Seat;
use crate::play::terminal::Terminal;
use crate::play::variant::Variant;

/// How a game ended for the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Somebody won.
    Finished,
    /// A person quit, or input ended.
    Quit,
}

/// A game in progress at the terminal.
pub struct Session<'t, 'io, V: Variant> {
    /// Input and output.
    pub term: &'t mut Terminal<'io>,
    /// The game.
    pub game: Game<V>,
    /// Who plays first and second.
    pub seats: [Seat<V>; 2],
    /// Every random choice of the computer.
    pub rng: ChaCha8Rng,
    /// The computer's pause before moving.
    pub delay: Duration,
}

impl<V: Variant> Session<'_, '_, V> {
    fn seat(&self, side: Side) -> &Seat<V> {
        &self.seats[side.index()]
    }

    fn convention(&self) -> Convention {
        self.game.rules().convention()
    }

    /// The last move in words, as played.
    fn describe_last(&self) -> Option<Phrase> {
        let (before, mv) = self.game.history().last()?;
        Some(self.game.rules().describe(before, mv))
    }

    /// Plays until the game is over or a person quits.
    pub fn play(&mut self) -> io::Result<Ending> {
        loop {
            self.show_board()?;
            if self.game.is_over() {
                self.announce_result()?;
                return Ok(Ending::Finished);
            }
            let side = self.game.to_move();
            if self.seat(side).is_human() {
                if self.human_turn()? == Some(Ending::Quit) {
                    return Ok(Ending::Quit);
                }
            } else {
                self.computer_turn()?;
            }
        }
    }

    fn show_board(&mut self) -> io::Result<()> {
        let theme = self.term.theme;
        self.term.say("")?;
        let last = self.game.history().last();
        let board = self.game.rules().render_board(self.game.position(), last, theme);
        self.term.say_all(&board)?;
        let mut status = Vec::new();
        if !self.game.is_over() {
            status.push(self.seat(self.game.to_move()).turn());
        }
        if let Some(phrase) = self.describe_last() {
            let mover = self.seat(self.game.to_move().other());
            status.push(format!("Last move: {} {}.", mover.name_mid_sentence(), phrase.past()));
        }
        self.term.say(&theme.dim(&status.join(" ")))
    }

    /// Reads and carries out commands until the person moves or quits.
    fn human_turn(&mut self) -> io::Result<Option<Ending>> {
        let side = self.game.to_move();
        let prompt = self.seat(side).prompt();
        loop {
            let Some(line) = self.term.ask(&self.term.theme.strong(&prompt))? else {
                self.term.say("End of input: leaving the game.")?;
                return Ok(Some(Ending::Quit));
            };
            let input = match parse_input(&line) {
                Ok(input) => input,
                Err(problem) => {
                    self.term.complain(&problem.to_string())?;
                    continue;
                }
            };
            let theme = self.term.theme;
            match input {
                Input::Nothing => {}
                Input::Move(text) => {
                    let mv = match self.game.rules().parse_move(&text) {
                        Ok(mv) => mv,
                        Err(problem) => {
                            self.term.complain(&problem)?;
                            continue;
                        }
                    };
                    let phrase = self.game.rules().describe(self.game.position(), mv);
                    match self.game.play(mv) {
                        Ok(()) => {
                            let line = self.seat(side).does(&phrase);
                            self.term.say(&line)?;
                            return Ok(None);
                        }
                        Err(problem) => self.term.complain(&problem.to_string())?,
                    }
                }
                Input::Help => self.help()?,
                Input::Hint => {
                    let hint = self.game.rules().hint(self.game.position(), theme);
                    self.term.say(&hint)?;
                }
                Input::Explain => {
                    let lines = self.game.rules().explain(self.game.position(), theme);
                    self.term.say_all(&lines)?;
                }
                Input::Moves => {
                    let lines = self.game.rules().list_moves(self.game.position(), theme);
                    self.term.say_all(&lines)?;
                }
                Input::Undo => {
                    if self.undo()? {
                        return Ok(None);
                    }
                }
                Input::Save(path) => self.save(&path)?,
                Input::Quit => {
                    self.term.say("You left the game.")?;
                    return Ok(Some(Ending::Quit));
                }
            }
        }
    }

    fn computer_turn(&mut self) -> io::Result<()> {
        // Whatever is typed from now until the next prompt is not shown and
        // not played: its player has not seen the computer's move yet.
        let _held = self.term.hold_type_ahead();
        if !self.delay.is_zero() {
            self.term.flush()?;
            thread::sleep(self.delay);
        }
        let side = self.game.to_move();
        let Seat::Computer { player, .. } = &mut self.seats[side.index()] else {
            unreachable!("computer_turn is called for computer seats only");
        };
        let mv = player.choose(&self.game, &mut self.rng).expect("the game is not over, so a move exists");
        let phrase = self.game.rules().describe(self.game.position(), mv);
        self.game.play(mv).expect("players choose legal moves");
        let line = self.seat(side).does(&phrase);
        self.term.say(&self.term.theme.fresh(&line))
    }

    fn help(&mut self) -> io::Result<()> {
        self.term.say(&self.game.rules().help_header())?;
        let (syntax, meaning) = self.game.rules().move_command();
        let first = (syntax, meaning.as_str());
        let undo = self.undo_meaning();
        let commands: Vec<(&str, &str)> = std::iter::once(first)
            .chain(COMMANDS)
            .map(|(command, meaning)| match command {
                "explain" => (command, self.game.rules().explain_meaning()),
                "moves" => (command, self.game.rules().moves_meaning()),
                "undo" => (command, undo),
                _ => (command, meaning),
            })
            .collect();
        // Two spaces, the commands in a column, a space, the meanings
        // wrapped under themselves.
        let column = commands.iter().map(|(command, _)| command.chars().count()).max().unwrap_or(0);
        let indent = " ".repeat(2 + column + 1);
        let width = self.term.theme.width.max(indent.len() + 20);
        for (command, meaning) in commands {
            let options = textwrap::Options::new(width).initial_indent(&indent).subsequent_indent(&indent);
            for (i, line) in textwrap::wrap(meaning, options).into_iter().enumerate() {
                let line = if i == 0 {
                    let name = self.term.theme.strong(&format!("{command:<column$}"));
                    format!("  {name} {}", &line[indent.len()..])
                } else {
                    line.into_owned()
                };
                self.term.say(&line)?;
            }
        }
        Ok(())
    }

    /// Saves the game to `path`, asking first whether to replace a file
    /// that is there.
    fn save(&mut self, path: &std::path::Path) -> io::Result<()> {
        if path.exists() {
            let question = format!("{} already exists. Replace it? [y/n]: ", path.display());
            if !self.term.confirm(&question)? {
                return self.term.say("Not saved.");
            }
        }
        match save::save(path, &self.game, &self.seats) {
            Ok(()) => self.term.say(&format!(
                "Saved to {}. Resume with `bouton play --load {}`.",
                path.display(),
                shell_word(&path.display().to_string())
            )),
            Err(e) => self.term.complain(&format!("could not save to {}: {e}", path.display())),
        }
    }

    /// What `undo` does in this game's mode.
    fn undo_meaning(&self) -> &'static str {
        match self.seats.iter().filter(|seat| seat.is_human()).count() {
            2 => "take back the last move, if both players agree",
            _ => "take back your last move and the computer's reply",
        }
    }

    /// Takes back moves back to (and including) the last one a person made.
    /// Returns whether anything was undone.
    fn undo(&mut self) -> io::Result<bool> {
        if self.seats.iter().all(Seat::is_human) {
            return self.undo_agreed();
        }
        let moves = self.game.moves().len();
        let last_human = (0..moves).rev().find(|&i| self.seat(Side::after_moves(i)).is_human());
        let Some(index) = last_human else {
            self.term.complain("nothing to undo: no move of yours has been played yet")?;
            return Ok(false);
        };
        let mut taken_back = Vec::new();
        while self.game.moves().len() > index {
            let side = Side::after_moves(self.game.moves().len() - 1);
            let phrase = self.describe_last().expect("moves remain above the index");
            self.game.undo().expect("moves remain above the index");
            taken_back.push(format!("{} {}", self.seat(side).name_mid_sentence(), phrase.past()));
        }
        self.term.say(&format!("Taken back: {}.", taken_back.join("; ")))?;
        Ok(true)
    }

    /// Between two people: takes back the last move, which the other player
    /// made, if that player agrees too.
    fn undo_agreed(&mut self) -> io::Result<bool> {
        let Some(phrase) = self.describe_last() else {
            self.term.complain("nothing to undo: no move has been played yet")?;
            return Ok(false);
        };
        let mover = self.game.to_move().other();
        let name = self.seat(mover).name();
        let question = format!("Take back {name}'s move ({}). {name}, do you agree? [y/n]: ", phrase.past());
        if !self.term.confirm(&question)? {
            self.term.say("The move stands.")?;
            return Ok(false);
        }
        self.game.undo().expect("a move was played");
        self.term.say(&format!("Taken back: {} {}.", self.seat(mover).name_mid_sentence(), phrase.past()))?;
        Ok(true)
    }

    fn announce_result(&mut self) -> io::Result<()> {
        let outcome = self.game.outcome().expect("the game is over");
        let last = self.seat(self.game.to_move().other()).name();
        let wins = self.seat(outcome.winner).wins();
        let took = format!("{last} {}", self.game.rules().last_move_words());
        let line = match self.convention() {
            Convention::Normal => format!("{took}. {wins}"),
            Convention::Misere => format!("{took}, and in misère play that loses. {wins}"),
        };
        let styled = self.term.theme.good(&line);
        self.term.say(&styled)
    }
}

/// `text` as one word of a POSIX shell command line: as it is where that is
/// safe, else in single quotes.
fn shell_word(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./:,+@%=".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        return text.to_owned();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn file_names_are_quoted_for_the_shell_where_needed() {
        assert_eq!(shell_word("game.json"), "game.json");
        assert_eq!(shell_word("my game.txt"), "'my game.txt'");
        assert_eq!(shell_word("it's.json"), r"'it'\''s.json'");
        assert_eq!(shell_word("$HOME"), "'$HOME'");
    }
}
