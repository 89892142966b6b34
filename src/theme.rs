//! How text looks: colours and box drawing, or plain text for screen readers
//! and pipes. Colour codes written here are stripped by `anstream` when the
//! output is not a terminal, when `NO_COLOR` is set, or under `--plain`.

use anstyle::{AnsiColor, Style};

/// The look of the terminal front-end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Plain text: no box drawing, no pictures of tokens, no colour.
    pub plain: bool,
}

impl Theme {
    /// The theme for `--plain` or not.
    pub fn new(plain: bool) -> Theme {
        Theme { plain }
    }

    /// The colour choice for an output stream under this theme.
    pub fn color_choice(self) -> anstream::ColorChoice {
        if self.plain { anstream::ColorChoice::Never } else { anstream::ColorChoice::Auto }
    }

    fn paint(self, style: Style, text: &str) -> String {
        if self.plain { text.to_owned() } else { format!("{style}{text}{style:#}") }
    }

    /// A heading or emphasis.
    pub fn strong(self, text: &str) -> String {
        self.paint(Style::new().bold(), text)
    }

    /// Secondary text.
    pub fn dim(self, text: &str) -> String {
        self.paint(Style::new().dimmed(), text)
    }

    /// Tokens on the board.
    pub fn token(self, text: &str) -> String {
        self.paint(Style::new().fg_color(Some(AnsiColor::Yellow.into())).bold(), text)
    }

    /// Something just changed (the last move).
    pub fn fresh(self, text: &str) -> String {
        self.paint(Style::new().fg_color(Some(AnsiColor::Cyan.into())), text)
    }

    /// Good news, or the thing to notice (odd columns, winning moves).
    pub fn good(self, text: &str) -> String {
        self.paint(Style::new().fg_color(Some(AnsiColor::Green.into())).bold(), text)
    }

    /// A problem with the input.
    pub fn error(self, text: &str) -> String {
        self.paint(Style::new().fg_color(Some(AnsiColor::Red.into())).bold(), text)
    }
}
