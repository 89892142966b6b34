//! The GGP player's HTTP reader (`bouton_ggp::http::read_request_from`)
//! and the protocol messages it carries (`protocol::Message::parse`), as the
//! player reads them from any game manager on the network.
//!
//! Input: one byte choosing how the request is cut into pieces (as TCP may
//! deliver it), then the bytes of the request. The reader must give the
//! same request however the bytes arrive (a body without a Content-Length
//! ends at the first complete expression, so it may only be shorter).
#![no_main]

use std::io;
use std::sync::OnceLock;
use std::time::Duration;

use bouton_ggp::http::{HttpError, Request, Source, read_request_from};
use bouton_ggp::protocol::Message;
use libfuzzer_sys::fuzz_target;
use tokio::runtime::Runtime;
use tokio::time::Instant;

/// The largest body read (the player's default is 8 MiB; small here so that
/// the fuzzer reaches the limit).
const LIMIT: usize = 1024;

/// The bytes in pieces of `sizes` bytes, in turn.
struct Pieces<'a> {
    data: &'a [u8],
    sizes: [usize; 3],
    turn: usize,
}

impl Source for Pieces<'_> {
    fn read_some(&mut self, buf: &mut [u8]) -> impl Future<Output = io::Result<usize>> + Send {
        let size = self.sizes[self.turn % self.sizes.len()];
        self.turn += 1;
        let n = size.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        std::future::ready(Ok(n))
    }
}

fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME
        .get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_time().build().expect("a tokio runtime"))
}

fn read(source: &mut impl Source) -> Result<Request, HttpError> {
    let deadline = Instant::now() + Duration::from_secs(60);
    runtime().block_on(read_request_from(source, LIMIT, deadline))
}

/// The message read back from its own text: the same, but for clocks, which
/// are written in whole seconds.
fn check_message(message: &Message) {
    let text = message.to_string();
    let again = Message::parse(&text).unwrap_or_else(|e| panic!("{text:?} does not read back: {e}"));
    let whole = |d: Duration| Duration::from_secs(d.as_secs());
    let expected = match message.clone() {
        Message::Preview { rules, clock } => Message::Preview { rules, clock: whole(clock) },
        Message::Start { id, role, rules, start_clock, play_clock } => {
            Message::Start { id, role, rules, start_clock: whole(start_clock), play_clock: whole(play_clock) }
        }
        other => other,
    };
    assert_eq!(again, expected, "{text:?}");
}

/// A result, comparable.
fn shown(result: &Result<Request, HttpError>) -> Result<&Request, String> {
    result.as_ref().map_err(ToString::to_string)
}

fuzz_target!(|data: &[u8]| {
    let Some((&cut, request)) = data.split_first() else { return };
    let mut whole: &[u8] = request;
    let at_once = read(&mut whole);
    let sizes = [1 + usize::from(cut & 0x0f), 1 + usize::from(cut >> 4) * 7, 1];
    let mut pieces = Pieces { data: request, sizes, turn: 0 };
    let in_pieces = read(&mut pieces);
    // The bytes the reader took in pieces, given at once, read the same.
    let mut taken: &[u8] = &request[..request.len() - pieces.data.len()];
    assert_eq!(shown(&read(&mut taken)), shown(&in_pieces), "in pieces of {sizes:?}");
    match (&at_once, &in_pieces) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.method, b.method);
            assert!(a.body.starts_with(&b.body), "{:?} read in pieces as {:?}", a.body, b.body);
        }
        (Ok(a), Err(e)) => {
            // Only a body without a length can end differently (cut inside a
            // character, after a complete expression).
            assert!(a.method == "POST" && matches!(e, HttpError::Bad(_)), "{a:?} read in pieces: {e}");
        }
        // Pieces may stop at the end of the first complete expression, before
        // what would make the whole too large or not UTF-8.
        (Err(_), _) => {}
    }
    for result in [at_once, in_pieces] {
        match result {
            Ok(request) => {
                assert!(request.body.len() <= LIMIT);
                assert!(!request.method.is_empty());
                assert!(!request.method.chars().any(char::is_whitespace));
                if let Ok(message) = Message::parse(&request.body) {
                    check_message(&message);
                }
            }
            Err(e) => {
                let (status, _) = e.status();
                assert!((400..500).contains(&status), "{e}: {status}");
            }
        }
    }
});
