//! Just enough HTTP for the GGP protocol, written by hand on tokio sockets.
//!
//! Why not a framework: GGP managers speak an old, loose HTTP. The Dresden
//! GameController reads each reply until the connection closes (so every
//! reply must close it, whatever the request said), managers send `text/acl`
//! bodies with `Content-length` in any case, and the player must answer
//! *every* request — malformed, truncated (the body shorter than announced)
//! or oversized — with an error reply rather than a dropped connection, and
//! must never be stopped by one. A hand-written reader gives exact control
//! over each of those cases in about two hundred lines; a general server
//! would handle them by closing the connection without a reply.

use std::time::Duration;

use std::io;

use tokio::net::TcpStream;
use tokio::time::{Instant, timeout_at};

/// Reads what is available (waiting for something), like `AsyncReadExt::read`
/// (tokio's `io-util` feature is not needed for so little).
async fn read_some(stream: &TcpStream, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        stream.readable().await?;
        match stream.try_read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
}

async fn write_all(stream: &TcpStream, mut buf: &[u8]) -> io::Result<()> {
    while !buf.is_empty() {
        stream.writable().await?;
        match stream.try_write(buf) {
            Ok(n) => buf = &buf[n..],
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Largest header section accepted.
const MAX_HEADER: usize = 64 * 1024;

/// Where [`read_request_from`] reads a request: a socket, or bytes held in
/// memory (tests and fuzzing feed the reader that way, in any pieces).
pub trait Source {
    /// Reads what is available into `buf`, waiting for something; 0 at the
    /// end of the input.
    fn read_some(&mut self, buf: &mut [u8]) -> impl Future<Output = io::Result<usize>> + Send;
}

impl Source for &TcpStream {
    fn read_some(&mut self, buf: &mut [u8]) -> impl Future<Output = io::Result<usize>> + Send {
        read_some(self, buf)
    }
}

/// The bytes in one piece after another (an empty slice ends the input).
impl Source for &[u8] {
    fn read_some(&mut self, buf: &mut [u8]) -> impl Future<Output = io::Result<usize>> + Send {
        let n = self.len().min(buf.len());
        buf[..n].copy_from_slice(&self[..n]);
        *self = &self[n..];
        std::future::ready(Ok(n))
    }
}

/// A request, reduced to what the protocol needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `POST`, `GET`, `OPTIONS`, …
    pub method: String,
    /// The body (the message).
    pub body: String,
}

/// Why a request could not be read.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// The socket failed.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
    /// Headers or body larger than allowed.
    #[error("the request is larger than {0} bytes")]
    TooLarge(usize),
    /// The connection ended before the announced body.
    #[error("the request ended after {got} of {expected} body bytes")]
    Truncated {
        /// Bytes received.
        got: usize,
        /// Bytes announced.
        expected: usize,
    },
    /// The request did not arrive in time.
    #[error("the request did not arrive in time")]
    Timeout,
    /// Not an HTTP request.
    #[error("bad request: {0}")]
    Bad(String),
}

impl HttpError {
    /// The status line to answer this error with.
    pub fn status(&self) -> (u16, &'static str) {
        match self {
            HttpError::TooLarge(_) => (413, "Payload Too Large"),
            HttpError::Timeout => (408, "Request Timeout"),
            _ => (400, "Bad Request"),
        }
    }
}

/// Where the headers end and the body starts: at the first blank line,
/// whichever line ending it uses (the body may hold the other kind).
fn find_header_end(buf: &[u8]) -> Option<(usize, usize)> {
    let crlf = buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| (i, i + 4));
    let lf = buf.windows(2).position(|w| w == b"\n\n").map(|i| (i, i + 2));
    match (crlf, lf) {
        (Some(crlf), Some(lf)) => Some(crlf.min(lf)),
        (found, None) | (None, found) => found,
    }
}

/// Whether `body` holds a complete parenthesised expression (for requests
/// without a Content-Length).
fn complete(body: &[u8]) -> bool {
    let mut depth = 0i64;
    let mut opened = false;
    for &b in body {
        match b {
            b'(' => {
                depth += 1;
                opened = true;
            }
            b')' => depth -= 1,
            _ => {}
        }
    }
    opened && depth <= 0
}

/// Reads one request, within `limit` bytes of body and by `deadline`.
///
/// # Errors
///
/// An [`HttpError`] saying what was wrong; answer it with
/// [`HttpError::status`].
pub async fn read_request(stream: &TcpStream, limit: usize, deadline: Instant) -> Result<Request, HttpError> {
    read_request_from(&mut &*stream, limit, deadline).await
}

/// [`read_request`] from any [`Source`].
///
/// ```
/// use bouton_ggp::http::{Request, read_request_from};
///
/// let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
/// let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(1);
/// let mut bytes: &[u8] = b"POST / HTTP/1.0\r\nContent-Length: 6\r\n\r\n(INFO)";
/// let request = runtime.block_on(read_request_from(&mut bytes, 1024, deadline))?;
/// assert_eq!(request, Request { method: "POST".into(), body: "(INFO)".into() });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`read_request`].
pub async fn read_request_from(
    source: &mut impl Source,
    limit: usize,
    deadline: Instant,
) -> Result<Request, HttpError> {
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    let mut chunk = [0u8; 16 * 1024];
    let (head_end, body_start) = loop {
        if let Some(found) = find_header_end(&buf) {
            break found;
        }
        if buf.len() > MAX_HEADER {
            return Err(HttpError::TooLarge(MAX_HEADER));
        }
        let n = timeout_at(deadline, source.read_some(&mut chunk)).await.map_err(|_| HttpError::Timeout)??;
        if n == 0 {
            return Err(if buf.is_empty() {
                HttpError::Bad("empty request".into())
            } else {
                HttpError::Bad("the connection closed inside the headers".into())
            });
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = std::str::from_utf8(&buf[..head_end]).map_err(|_| HttpError::Bad("headers are not UTF-8".into()))?;
    let mut lines = head.lines();
    let request_line = lines.next().unwrap_or_default();
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_ascii_uppercase();
    if method.is_empty() || parts.next().is_none() {
        return Err(HttpError::Bad(format!("not an HTTP request line: {request_line:?}")));
    }
    let mut length = None;
    for line in lines {
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            let n: usize =
                value.trim().parse().map_err(|_| HttpError::Bad(format!("bad Content-Length {:?}", value.trim())))?;
            length = Some(n);
        }
    }
    if length.is_some_and(|n| n > limit) {
        return Err(HttpError::TooLarge(limit));
    }
    let mut body = buf[body_start..].to_vec();
    match length {
        Some(expected) => {
            while body.len() < expected {
                let n = timeout_at(deadline, source.read_some(&mut chunk)).await.map_err(|_| HttpError::Timeout)??;
                if n == 0 {
                    return Err(HttpError::Truncated { got: body.len(), expected });
                }
                body.extend_from_slice(&chunk[..n]);
            }
            body.truncate(expected);
        }
        None if method == "POST" => {
            // No length: read to the end of the connection or of the message.
            while !complete(&body) {
                if body.len() > limit {
                    return Err(HttpError::TooLarge(limit));
                }
                let n = timeout_at(deadline, source.read_some(&mut chunk)).await.map_err(|_| HttpError::Timeout)??;
                if n == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..n]);
            }
        }
        None => body.clear(),
    }
    if body.len() > limit {
        return Err(HttpError::TooLarge(limit));
    }
    let body = String::from_utf8(body).map_err(|_| HttpError::Bad("the body is not UTF-8".into()))?;
    Ok(Request { method, body })
}

/// Writes a reply the way ggp-base players do, then closes the connection
/// (after draining what the client still sends, so that it sees the reply
/// rather than a reset).
///
/// # Errors
///
/// The socket's error.
pub async fn respond(stream: TcpStream, status: (u16, &str), body: &str) -> io::Result<()> {
    let head = format!(
        "HTTP/1.0 {} {}\r\nContent-type: text/acl\r\nContent-length: {}\r\n\
         Access-Control-Allow-Origin: *\r\nAccess-Control-Allow-Methods: POST, GET, OPTIONS\r\n\
         Access-Control-Allow-Headers: Content-Type\r\nAccess-Control-Allow-Age: 86400\r\n\r\n",
        status.0,
        status.1,
        body.len()
    );
    write_all(&stream, head.as_bytes()).await?;
    write_all(&stream, body.as_bytes()).await?;
    // Half-close: the client sees the end of the reply.
    let std = stream.into_std()?;
    std.shutdown(std::net::Shutdown::Write)?;
    let stream = TcpStream::from_std(std)?;
    let linger = Instant::now() + Duration::from_millis(500);
    let mut sink = [0u8; 16 * 1024];
    let mut drained = 0usize;
    while drained < 64 * 1024 * 1024 {
        match timeout_at(linger, read_some(&stream, &mut sink)).await {
            Ok(Ok(n)) if n > 0 => drained += n,
            _ => break,
        }
    }
    Ok(())
}

/// Why a request to a player failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// Connecting, writing or reading failed.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
    /// No complete reply in time.
    #[error("no reply in time")]
    Timeout,
    /// A reply that is not HTTP, or not status 200.
    #[error("bad reply: {0}")]
    Bad(String),
}

/// `host:port` from `http://host:port/…` or `host:port`.
///
/// ```
/// assert_eq!(bouton_ggp::http::host_port("http://127.0.0.1:9147/"), "127.0.0.1:9147");
/// assert_eq!(bouton_ggp::http::host_port("example.org:80"), "example.org:80");
/// ```
pub fn host_port(address: &str) -> &str {
    let rest = address.strip_prefix("http://").unwrap_or(address);
    rest.split('/').next().unwrap_or(rest)
}

/// Sends `body` to the player at `address` as a manager does and returns
/// the reply's body. Like the Dresden GameController, reads until the player
/// closes the connection.
///
/// # Errors
///
/// A [`ClientError`] when the player cannot be reached, does not answer by
/// `deadline`, or answers with an error status.
pub async fn post(address: &str, body: &str, deadline: Instant) -> Result<String, ClientError> {
    let target = host_port(address);
    let stream = timeout_at(deadline, TcpStream::connect(target)).await.map_err(|_| ClientError::Timeout)??;
    stream.set_nodelay(true)?;
    let request = format!(
        "POST / HTTP/1.0\r\nAccept: text/delim\r\nHost: {target}\r\nSender: bouton\r\nReceiver: {target}\r\n\
         Content-Type: text/acl\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    timeout_at(deadline, write_all(&stream, request.as_bytes())).await.map_err(|_| ClientError::Timeout)??;
    let mut reply = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        let n = timeout_at(deadline, read_some(&stream, &mut chunk)).await.map_err(|_| ClientError::Timeout)??;
        if n == 0 {
            break;
        }
        reply.extend_from_slice(&chunk[..n]);
        if reply.len() > 16 * 1024 * 1024 {
            return Err(ClientError::Bad("the reply is too large".into()));
        }
    }
    let Some((head_end, body_start)) = find_header_end(&reply) else {
        return Err(ClientError::Bad("no complete HTTP header".into()));
    };
    let head = String::from_utf8_lossy(&reply[..head_end]);
    let status = head.lines().next().unwrap_or_default();
    let code = status.split_whitespace().nth(1).unwrap_or_default();
    let mut body = reply[body_start..].to_vec();
    for line in head.lines().skip(1) {
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
            && let Ok(n) = value.trim().parse::<usize>()
        {
            body.truncate(n);
        }
    }
    let body = String::from_utf8_lossy(&body).into_owned();
    if code != "200" {
        return Err(ClientError::Bad(format!("{status}: {}", body.trim())));
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_end_and_completeness() {
        assert_eq!(find_header_end(b"POST / HTTP/1.0\r\n\r\nbody"), Some((15, 19)));
        assert_eq!(find_header_end(b"POST / HTTP/1.0\n\nbody"), Some((15, 17)));
        // The first blank line ends the headers, though the body holds one
        // with the other line ending (found by fuzzing).
        assert_eq!(find_header_end(b"POST / HTTP/1.0\n\n(a\r\n\r\nb)"), Some((15, 17)));
        assert_eq!(find_header_end(b"POST / HTTP/1.0\r\n\r\n(a\n\nb)"), Some((15, 19)));
        assert!(complete(b"(play x nil)"));
        assert!(!complete(b"(play x (a"));
        assert_eq!(host_port("http://127.0.0.1:9147/"), "127.0.0.1:9147");
        assert_eq!(host_port("localhost:80"), "localhost:80");
    }

    /// A request with LF line endings whose body holds a CRLF blank line
    /// reads the same whether it arrives at once or in pieces (found by
    /// fuzzing: at once, the headers ran to the body's blank line).
    #[test]
    fn the_first_blank_line_ends_the_headers() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().expect("a runtime");
        let request = b"POST / HTTP/1.0\nContent-Length: 14\n\n(a\r\n\r\nb) (c d)";
        let expected = Request { method: "POST".into(), body: "(a\r\n\r\nb) (c d)".into() };
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut at_once: &[u8] = request;
        assert_eq!(runtime.block_on(read_request_from(&mut at_once, 1024, deadline)).ok(), Some(expected.clone()));
        struct Bytewise<'a>(&'a [u8]);
        impl Source for Bytewise<'_> {
            fn read_some(&mut self, buf: &mut [u8]) -> impl Future<Output = io::Result<usize>> + Send {
                let n = self.0.len().min(buf.len()).min(1);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                std::future::ready(Ok(n))
            }
        }
        let in_pieces = runtime.block_on(read_request_from(&mut Bytewise(request), 1024, deadline));
        assert_eq!(in_pieces.ok(), Some(expected));
    }
}
