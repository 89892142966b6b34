//! Line-based terminal I/O: prompts, answers, and styled output. Works the
//! same on a real terminal, a pipe or a screen reader.

use std::io::{self, BufRead, Write};

use crate::theme::Theme;

/// Where the game reads and writes.
pub struct Terminal<'a> {
    input: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
    /// How output looks.
    pub theme: Theme,
}

impl<'a> Terminal<'a> {
    /// A terminal over any input and output.
    pub fn new(input: &'a mut dyn BufRead, out: &'a mut dyn Write, theme: Theme) -> Terminal<'a> {
        Terminal { input, out, theme }
    }

    /// Writes one line.
    pub fn say(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.out, "{line}")
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
        write!(self.out, "{prompt}")?;
        self.out.flush()?;
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            // End of input: finish the prompt's line so the shell starts clean.
            writeln!(self.out)?;
            return Ok(None);
        }
        Ok(Some(line.trim().to_owned()))
    }

    /// Flushes the output (before a pause).
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
