//! How text looks: colours and box drawing, or plain text for screen readers
//! and pipes. Colour codes written here are stripped by `anstream` when the
//! output is not a terminal, when `NO_COLOR` is set, or under `--plain`.

use anstyle::{AnsiColor, Style};

/// The look of the terminal front-end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Plain text: no box drawing, no pictures of tokens, no colour.
    pub plain: bool,
    /// The columns there are to draw in.
    pub width: usize,
    /// Whether prose is broken into lines of `width` (on a terminal; in a
    /// pipe each message stays one line, for scripts to read).
    pub wrap: bool,
}

/// The width assumed where none is known (a pipe, a file).
pub const DEFAULT_WIDTH: usize = 80;

/// Narrower than this, nothing is drawn narrower still.
const MIN_WIDTH: usize = 20;

impl Theme {
    /// The theme for `--plain` or not, as wide as standard output's terminal
    /// (else `COLUMNS`, else 80 columns).
    pub fn new(plain: bool) -> Theme {
        let wrap = std::io::IsTerminal::is_terminal(&std::io::stdout());
        Theme { plain, width: terminal_width(), wrap }
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

/// The width of standard output's terminal; where it is not a terminal,
/// `COLUMNS` if set to a number, else [`DEFAULT_WIDTH`].
pub fn terminal_width() -> usize {
    let width = match terminal_size::terminal_size_of(std::io::stdout()) {
        Some((terminal_size::Width(w), _)) if w > 0 => usize::from(w),
        _ => std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse().ok()).unwrap_or(DEFAULT_WIDTH),
    };
    width.max(MIN_WIDTH)
}
