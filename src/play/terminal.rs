//! Line-based terminal I/O: prompts, answers, and styled output. Works the
//! same on a real terminal, a pipe or a screen reader.

use std::io::{self, BufRead, Write};

use crate::play::type_ahead::HeldInput;
use crate::theme::Theme;

/// Where the game reads and writes.
pub struct Terminal<'a> {
    input: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
    /// How output looks.
    pub theme: Theme,
    /// Whether input is a person's terminal, whose type-ahead is held back
    /// and discarded while the computer moves.
    pub holds_type_ahead: bool,
}

impl<'a> Terminal<'a> {
    /// A terminal over any input and output.
    pub fn new(input: &'a mut dyn BufRead, out: &'a mut dyn Write, theme: Theme) -> Terminal<'a> {
        Terminal { input, out, theme, holds_type_ahead: false }
    }

    /// Writes one line, broken between words where it is wider than the
    /// terminal (continuation lines keep the line's indentation); in a pipe,
    /// as it is.
    pub fn say(&mut self, line: &str) -> io::Result<()> {
        for part in self.wrapped(line) {
            writeln!(self.out, "{part}")?;
        }
        Ok(())
    }

    /// `line` as the lines that fit the width.
    fn wrapped(&self, line: &str) -> Vec<String> {
        if !self.theme.wrap || textwrap::core::display_width(line) <= self.theme.width {
            return vec![line.to_owned()];
        }
        let indent: String = line.chars().take_while(|&c| c == ' ').collect();
        let options = textwrap::Options::new(self.theme.width).subsequent_indent(&indent);
        textwrap::wrap(line, options).into_iter().map(|part| part.into_owned()).collect()
    }

    /// Writes lines.
    pub fn say_all(&mut self, lines: &[String]) -> io::Result<()> {
        for line in lines {
            self.say(line)?;
        }
        Ok(())
    }

    /// Writes a one-line complaint about the input.
    pub fn complain(&mut self, problem: &str) -> io::Result<()> {
        let text = self.theme.error(problem);
        self.say(&text)
    }

    /// Shows `prompt` and reads a line; `None` at end of input.
    pub fn ask(&mut self, prompt: &str) -> io::Result<Option<String>> {
        let mut lines = self.wrapped(prompt);
        let mut last = lines.pop().unwrap_or_default();
        if prompt.ends_with(' ') && !last.ends_with(' ') {
            last.push(' ');
        }
        for line in lines {
            writeln!(self.out, "{line}")?;
        }
        write!(self.out, "{last}")?;
        self.out.flush()?;
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            // End of input: finish the prompt's line so the shell starts clean.
            writeln!(self.out)?;
            return Ok(None);
        }
        Ok(Some(line.trim().to_owned()))
    }

    /// Asks a yes-or-no question until the answer is one: `true` for yes;
    /// `false` for no, `quit`, or the end of input.
    pub fn confirm(&mut self, question: &str) -> io::Result<bool> {
        loop {
            let Some(answer) = self.ask(question)? else {
                return Ok(false);
            };
            match answer.to_ascii_lowercase().as_str() {
                "y" | "yes" => return Ok(true),
                "n" | "no" | "q" | "quit" | "exit" => return Ok(false),
                _ => self.complain(&format!("{} is not an answer: type y or n", quoted(&answer)))?,
            }
        }
    }

    /// Holds back what is typed until the result is dropped (then it is
    /// discarded), where input is a person's terminal.
    pub fn hold_type_ahead(&self) -> Option<HeldInput> {
        self.holds_type_ahead.then(HeldInput::hold)
    }

    /// Flushes the output (before a pause).
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// What a person typed, quoted for a message (cut short when long, so
/// that a message stays one line).
pub fn quoted(text: &str) -> String {
    format!("{:?}", bouton_rules::excerpt(text))
}
