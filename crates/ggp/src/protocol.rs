//! The messages of the GGP protocol, as the Stanford ggp-base GameServer and
//! the Dresden GameController send them: `(START id role (rules…) startclock
//! playclock)`, `(PLAY id moves)`, `(STOP id moves)`, `(ABORT id)`, `(INFO)`
//! and `(PREVIEW (rules…) clock)`. Keywords are case-insensitive; `moves` is
//! `NIL` on the first PLAY, else the previous joint move in role order.
//!
//! Clocks are numbers of seconds. The reference managers send whole ones; a
//! clock shorter than a second, or not a whole number of seconds, is written
//! as a decimal (`0.5`) — never rounded down, which once told our player a
//! 500 ms play clock was 0 s, so that it answered without thinking — and
//! read back exactly.

use std::fmt;
use std::time::Duration;

use crate::sexp::{Sexp, SyntaxError};
use crate::term::{Term, TermError};

/// A message from a game manager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// Are you there, and are you free?
    Info,
    /// A game to look at before a match (answer `ready`).
    Preview {
        /// The rules.
        rules: Vec<Sexp>,
        /// Time allowed.
        clock: Duration,
    },
    /// A new match.
    Start {
        /// The match identifier.
        id: String,
        /// The role to play.
        role: Term,
        /// The rules.
        rules: Vec<Sexp>,
        /// Time before the first move.
        start_clock: Duration,
        /// Time for each move.
        play_clock: Duration,
    },
    /// Choose a move; `moves` is the previous joint move (`None` at first).
    Play {
        /// The match identifier.
        id: String,
        /// The previous joint move, roles in declaration order.
        moves: Option<Vec<Term>>,
    },
    /// The match is over; `moves` is the last joint move.
    Stop {
        /// The match identifier.
        id: String,
        /// The last joint move.
        moves: Option<Vec<Term>>,
    },
    /// The match is cancelled.
    Abort {
        /// The match identifier.
        id: String,
    },
}

/// Why a text is not a GGP message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// Not an s-expression.
    #[error("not an s-expression: {0}")]
    Syntax(#[from] SyntaxError),
    /// An s-expression but not a known message.
    #[error("unknown message {0}")]
    Unknown(String),
    /// A known message with the wrong parts.
    #[error("malformed {kind} message: {reason}")]
    Malformed {
        /// The message keyword.
        kind: &'static str,
        /// What is wrong.
        reason: String,
    },
}

fn malformed(kind: &'static str, reason: impl Into<String>) -> ProtocolError {
    ProtocolError::Malformed { kind, reason: reason.into() }
}

fn clock(kind: &'static str, s: &Sexp) -> Result<Duration, ProtocolError> {
    let text = s.as_atom().ok_or_else(|| malformed(kind, "a clock must be a number"))?;
    let secs: f64 = text.parse().map_err(|_| malformed(kind, format!("{text} is not a number of seconds")))?;
    if !(0.0..=1e9).contains(&secs) {
        return Err(malformed(kind, format!("{text} is not a usable number of seconds")));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Writes `clock` as a number of seconds: whole seconds as an integer, as the
/// reference managers write them, anything else as a decimal with as many
/// digits as it needs (down to nanoseconds), so that it reads back exactly.
fn write_clock(f: &mut fmt::Formatter<'_>, clock: Duration) -> fmt::Result {
    let nanos = clock.subsec_nanos();
    if nanos == 0 {
        return write!(f, "{}", clock.as_secs());
    }
    let fraction = format!("{nanos:09}");
    write!(f, "{}.{}", clock.as_secs(), fraction.trim_end_matches('0'))
}

fn id(kind: &'static str, s: &Sexp) -> Result<String, ProtocolError> {
    s.as_atom().map(str::to_string).ok_or_else(|| malformed(kind, "the match id must be an atom"))
}

fn moves(kind: &'static str, s: &Sexp) -> Result<Option<Vec<Term>>, ProtocolError> {
    if s.is_word("nil") {
        return Ok(None);
    }
    let items = s.as_list().ok_or_else(|| malformed(kind, "moves must be NIL or a list"))?;
    let moves = items.iter().map(Term::from_sexp).collect::<Result<Vec<_>, TermError>>();
    moves.map(Some).map_err(|e| malformed(kind, e.to_string()))
}

fn rules(kind: &'static str, s: &Sexp) -> Result<Vec<Sexp>, ProtocolError> {
    s.as_list().map(<[Sexp]>::to_vec).ok_or_else(|| malformed(kind, "the rules must be a list"))
}

impl Message {
    /// Parses a message.
    ///
    /// ```
    /// use bouton_ggp::protocol::Message;
    ///
    /// let m = Message::parse("(PLAY dresdenNim1 ((REDUCE D 1) NOOP))")?;
    /// let Message::Play { id, moves: Some(moves) } = m else { panic!("a PLAY message") };
    /// assert_eq!((id.as_str(), moves.len()), ("dresdenNim1", 2));
    /// # Ok::<(), bouton_ggp::protocol::ProtocolError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`ProtocolError`] for anything but a well-formed message.
    pub fn parse(text: &str) -> Result<Message, ProtocolError> {
        let sexp = Sexp::parse_one(text)?;
        let items = match &sexp {
            Sexp::List(items) => &items[..],
            // A bare keyword, as some tools send `info`.
            atom => std::slice::from_ref(atom),
        };
        let Some(keyword) = items.first().and_then(Sexp::as_atom) else {
            return Err(ProtocolError::Unknown(sexp.to_string()));
        };
        let args = &items[1..];
        match keyword.to_ascii_lowercase().as_str() {
            "info" => Ok(Message::Info),
            "preview" => match args {
                [r, c] => Ok(Message::Preview { rules: rules("PREVIEW", r)?, clock: clock("PREVIEW", c)? }),
                _ => Err(malformed("PREVIEW", "expected (PREVIEW rules clock)")),
            },
            "start" => match args {
                [i, role, r, sc, pc] => Ok(Message::Start {
                    id: id("START", i)?,
                    role: Term::from_sexp(role).map_err(|e| malformed("START", e.to_string()))?,
                    rules: rules("START", r)?,
                    start_clock: clock("START", sc)?,
                    play_clock: clock("START", pc)?,
                }),
                _ => Err(malformed("START", "expected (START id role rules startclock playclock)")),
            },
            "play" => match args {
                [i, m] => Ok(Message::Play { id: id("PLAY", i)?, moves: moves("PLAY", m)? }),
                _ => Err(malformed("PLAY", "expected (PLAY id moves)")),
            },
            "stop" => match args {
                [i, m] => Ok(Message::Stop { id: id("STOP", i)?, moves: moves("STOP", m)? }),
                [i] => Ok(Message::Stop { id: id("STOP", i)?, moves: None }),
                _ => Err(malformed("STOP", "expected (STOP id moves)")),
            },
            "abort" => match args {
                [i] => Ok(Message::Abort { id: id("ABORT", i)? }),
                _ => Err(malformed("ABORT", "expected (ABORT id)")),
            },
            _ => Err(ProtocolError::Unknown(keyword.to_string())),
        }
    }
}

fn write_moves(f: &mut fmt::Formatter<'_>, moves: &Option<Vec<Term>>) -> fmt::Result {
    match moves {
        None => f.write_str("NIL"),
        Some(list) => {
            f.write_str("(")?;
            for (i, m) in list.iter().enumerate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{m}")?;
            }
            f.write_str(")")
        }
    }
}

fn write_rules(f: &mut fmt::Formatter<'_>, rules: &[Sexp]) -> fmt::Result {
    f.write_str("(")?;
    for (i, r) in rules.iter().enumerate() {
        if i > 0 {
            f.write_str(" ")?;
        }
        write!(f, "{r}")?;
    }
    f.write_str(")")
}

impl fmt::Display for Message {
    /// The message as a manager sends it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Info => f.write_str("(INFO)"),
            Message::Preview { rules, clock } => {
                f.write_str("(PREVIEW ")?;
                write_rules(f, rules)?;
                f.write_str(" ")?;
                write_clock(f, *clock)?;
                f.write_str(")")
            }
            Message::Start { id, role, rules, start_clock, play_clock } => {
                write!(f, "(START {id} {role} ")?;
                write_rules(f, rules)?;
                f.write_str(" ")?;
                write_clock(f, *start_clock)?;
                f.write_str(" ")?;
                write_clock(f, *play_clock)?;
                f.write_str(")")
            }
            Message::Play { id, moves } => {
                write!(f, "(PLAY {id} ")?;
                write_moves(f, moves)?;
                f.write_str(")")
            }
            Message::Stop { id, moves } => {
                write!(f, "(STOP {id} ")?;
                write_moves(f, moves)?;
                f.write_str(")")
            }
            Message::Abort { id } => write!(f, "(ABORT {id})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_managers_spellings() {
        let a = Message::parse("( PLAY m1795318948813 (noop ( reduce b 4 ) ) )").unwrap();
        let b = Message::parse("(play m1795318948813 (NOOP (REDUCE B 4)))").unwrap();
        assert_eq!(a, b);
        assert_eq!(Message::parse("(PLAY x NIL)").unwrap(), Message::Play { id: "x".into(), moves: None });
        let start = Message::parse("(START m r ((role r)) 5 2)").unwrap();
        assert!(matches!(start, Message::Start { play_clock, .. } if play_clock == Duration::from_secs(2)));
        assert_eq!(Message::parse("( info )").unwrap(), Message::Info);
        assert_eq!(Message::parse("INFO").unwrap(), Message::Info);
    }

    #[test]
    fn round_trip() {
        for text in [
            "(START m r ((role r) (init p)) 10 3)",
            "(PLAY m ((mark 1 1) noop))",
            "(STOP m NIL)",
            "(ABORT m)",
            "(INFO)",
        ] {
            assert_eq!(Message::parse(text).unwrap().to_string(), text);
        }
    }

    /// Clocks of any length are written so that they read back exactly:
    /// whole seconds as integers (as the reference managers write them),
    /// anything else as a decimal. A 500 ms play clock once went out as
    /// `0` (whole seconds, rounded down), and our player, told it had no
    /// time, answered each move without thinking.
    #[test]
    fn clocks_of_any_length_read_back_exactly() {
        let start = |start_clock, play_clock| Message::Start {
            id: "m".into(),
            role: "r".parse().unwrap(),
            rules: Sexp::parse_all("(role r)").unwrap(),
            start_clock,
            play_clock,
        };
        let ms = Duration::from_millis;
        for (start_clock, play_clock, text) in [
            (ms(3000), ms(500), "(START m r ((role r)) 3 0.5)"),
            (ms(10_000), ms(1000), "(START m r ((role r)) 10 1)"),
            (ms(1250), ms(123), "(START m r ((role r)) 1.25 0.123)"),
            (Duration::from_nanos(2_000_000_001), ms(0), "(START m r ((role r)) 2.000000001 0)"),
        ] {
            let message = start(start_clock, play_clock);
            assert_eq!(message.to_string(), text);
            assert_eq!(Message::parse(text).unwrap(), message, "{text} reads back");
        }
        let preview = Message::Preview { rules: Sexp::parse_all("(role r)").unwrap(), clock: ms(2500) };
        assert_eq!(preview.to_string(), "(PREVIEW ((role r)) 2.5)");
        assert_eq!(Message::parse(&preview.to_string()).unwrap(), preview);
    }

    #[test]
    fn errors() {
        assert!(matches!(Message::parse("(PLAY"), Err(ProtocolError::Syntax(_))));
        assert!(matches!(Message::parse("(HELLO)"), Err(ProtocolError::Unknown(_))));
        assert!(matches!(Message::parse("(START m r)"), Err(ProtocolError::Malformed { .. })));
        assert!(matches!(Message::parse("(START m r ((role r)) x 2)"), Err(ProtocolError::Malformed { .. })));
        assert!(matches!(Message::parse("(PLAY m (?x))"), Err(ProtocolError::Malformed { .. })));
        assert!(matches!(Message::parse("()"), Err(ProtocolError::Unknown(_))));
    }
}
