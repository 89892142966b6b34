//! The server's connections: the accept loop, its timeouts and its caps.
//!
//! - **Idle and slow heads:** hyper's HTTP/1 `header_read_timeout` closes a
//!   connection that has not sent a complete request head within
//!   [`crate::ServerConfig::idle_timeout`] of opening or of its last answer: an
//!   idle keep-alive connection, or one that stopped mid request line.
//! - **Slow bodies:** a request body must arrive in full within
//!   [`crate::ServerConfig::body_timeout`] of its head (tower-http's
//!   `DeadlineBody`); past it the answer is 408 and the connection closes.
//!   This is a layer of [`crate::app`], so it holds without a socket too.
//! - **Slow readers:** a write to a connection that makes no progress for
//!   [`crate::ServerConfig::body_timeout`] (a client that never reads its
//!   answers, or its events once its buffers are full) closes the
//!   connection. The socket is wrapped so that a stalled write starts a
//!   deadline, and any progress lifts it.
//! - **The cap:** at most [`crate::ServerConfig::connection_cap`] connections are
//!   open at once. The loop accepts only while it is below the cap, so
//!   further clients wait in the listen backlog, and are accepted as soon
//!   as the idle ones time out: more idle connections than descriptors never
//!   lock other clients out.
//! - **The cap per client:** at most
//!   [`crate::ServerConfig::max_connections_per_client`] of them from one
//!   client (an IPv4 address or an IPv6 /64, as for the rate limits), so that
//!   one address cannot hold every place (with event streams, which never
//!   time out, or a steady flood of new connections). A connection past it
//!   is answered at once, before its request is read, with a fixed 429, a
//!   `Retry-After` of the idle timeout and the usual JSON error, and closed:
//!   it costs an accept and a write, and never holds a place. (Answering
//!   through hyper would mean reading the request first, holding a place
//!   while a flood of them sends nothing.) A client whose request had
//!   already arrived may see the connection reset instead of the 429. The
//!   counts live in a table of the clients with a connection open, each
//!   removed when its last one closes: at most one entry per open connection.
//!
//! - **Hyper's own answers:** a request whose head cannot be parsed (not
//!   HTTP, a malformed header, a head over 64 KiB) never reaches the router:
//!   hyper answers it itself (400, 431 or 414) and closes the connection,
//!   with no hook to add headers. The socket is wrapped so that such an
//!   answer is written as the server's own instead: the same status, the
//!   security headers and a JSON error, like every other answer. It is told
//!   apart exactly: it is written while the router has no answer under way
//!   on the connection, and it is a whole head without the security headers,
//!   which every answer of the router carries.
//!
//! An answer being streamed (a game's events) is neither idle nor a body
//! being read, so neither timeout cuts it, but it counts against both caps
//! like any connection.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, HttpBody};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::{Instant, Sleep};
use tower::Service;
use tower_http::timeout::{DeadlineBody, TimeoutError};

use crate::error::ApiError;
use crate::rate_limit::Client;
use crate::{AppState, app};

/// The largest request head hyper buffers (its read buffer per connection).
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// How long connections may take to finish their answers after Ctrl-C.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);
/// The pause after an error accepting a connection that is not the
/// client's (such as running out of descriptors), before trying again.
const ACCEPT_RETRY: Duration = Duration::from_millis(100);

/// Raises the soft limit on open descriptors to the hard one. Answers the
/// limit now in force, `None` when there is none to know.
pub fn raise_descriptor_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        match rlimit::increase_nofile_limit(rlimit::INFINITY) {
            Ok(limit) if limit < rlimit::INFINITY => return Some(limit),
            Ok(_) => return None,
            Err(e) => tracing::warn!("cannot raise the limit on open files: {e}"),
        }
    }
    descriptor_limit()
}

/// The soft limit on open descriptors, `None` when there is none to know.
pub fn descriptor_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        rlimit::getrlimit(rlimit::Resource::NOFILE).ok().map(|(soft, _)| soft).filter(|&s| s < rlimit::INFINITY)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Serves [`app`]`(state)` on `listener` until `shutdown` completes, under
/// the timeouts and the connection caps of `state.config` (the cap as
/// [`crate::ServerConfig::connection_cap`] computes it for the current descriptor
/// limit, and [`crate::ServerConfig::max_connections_per_client`]). Then it stops accepting, lets open answers finish for a moment,
/// and returns.
///
/// ```no_run
/// # async fn example() -> std::io::Result<()> {
/// use bouton_web::{AppState, ServerConfig, Store};
///
/// let store = Store::open(std::path::Path::new(":memory:")).expect("a database");
/// let state = AppState::new(store).with_config(ServerConfig::default().with_max_connections(100));
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
/// bouton_web::connections::run(listener, state, async { let _ = tokio::signal::ctrl_c().await; }).await
/// # }
/// ```
pub async fn run(listener: TcpListener, state: AppState, shutdown: impl Future<Output = ()>) -> io::Result<()> {
    let config = state.config.clone();
    let cap = config.connection_cap(descriptor_limit());
    let per_client = PerClient::new(config.max_connections_per_client);
    tracing::info!("accepting up to {cap} connections at once, {} from one client", per_client.max);
    let refusal = refusal(per_client.max, config.idle_timeout);
    let router = app(state);
    let open = Arc::new(Semaphore::new(cap));
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.idle_timeout)
        .keep_alive(true)
        .max_buf_size(MAX_HEAD_BYTES);
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        // A free place first: until one is, clients wait in the backlog.
        let place = tokio::select! {
            place = open.clone().acquire_owned() => place.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) if is_the_clients(&e) => continue,
                Err(e) => {
                    tracing::warn!("cannot accept a connection: {e}");
                    tokio::time::sleep(ACCEPT_RETRY).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(held) = per_client.admit(peer) else {
            tracing::debug!("refused a connection from {peer}: {} already open from its address", per_client.max);
            refuse(stream, &refusal);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let underway = Underway::default();
        let stream = OwnAnswers::new(WriteDeadline::new(stream, config.body_timeout), underway.clone());
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            let answer = underway.start();
            let response = router.clone().call(request);
            async move {
                let response = response.await?;
                Ok::<_, std::convert::Infallible>(response.map(|body| Body::new(Tracked { body, _answer: answer })))
            }
        });
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("connection from {peer} ended: {e}");
            }
            drop((held, place));
        });
    }
    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await.is_err() {
        tracing::info!("closing the connections still open (event streams) on shutdown");
    }
    Ok(())
}

/// The open connections of each client that has any.
struct PerClient {
    /// The most from one client.
    max: usize,
    open: Arc<Mutex<HashMap<Client, usize>>>,
}

/// One open connection counted against its client, until dropped.
struct Held {
    client: Client,
    open: Arc<Mutex<HashMap<Client, usize>>>,
}

impl PerClient {
    /// At most `max` connections per client (at least 1).
    fn new(max: usize) -> PerClient {
        PerClient { max: max.max(1), open: Arc::default() }
    }

    /// Counts a connection from `peer`, or `None` when its client has
    /// [`Self::max`] open already.
    fn admit(&self, peer: SocketAddr) -> Option<Held> {
        let client = Client::of(Some(peer));
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(client).or_insert(0);
        // Never leaves a 0 behind: a refused client has `max` ≥ 1 open.
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(Held { client, open: self.open.clone() })
    }

    /// How many clients have a connection open.
    #[cfg(test)]
    fn clients(&self) -> usize {
        self.open.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Entry::Occupied(mut entry) = open.entry(self.client) {
            *entry.get_mut() -= 1;
            if *entry.get() == 0 {
                entry.remove();
            }
        }
    }
}

/// The whole answer to a connection past its client's cap: 429, with
/// `Retry-After` (the idle timeout, by when an idle connection of the client
/// has closed), the security headers and a one-line JSON error.
fn refusal(max: usize, idle_timeout: Duration) -> Vec<u8> {
    let retry_after = (idle_timeout.as_secs() + u64::from(idle_timeout.subsec_nanos() > 0)).max(1);
    let message = format!(
        "too many connections open from your address: at most {max} at once; close one, or try again in {retry_after} s"
    );
    whole_answer(StatusCode::TOO_MANY_REQUESTS, &format!("retry-after: {retry_after}\r\n"), &message)
}

/// A whole answer that closes its connection: `status`, the `extra` header
/// lines (each ending in CRLF), the security headers and `message` as a
/// one-line JSON error.
fn whole_answer(status: StatusCode, extra: &str, message: &str) -> Vec<u8> {
    let body = serde_json::json!({ "error": message }).to_string();
    let mut head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{extra}connection: close\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or("Error"),
        body.len()
    );
    for (name, value) in crate::security::HEADERS {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head.push_str(&body);
    head.into_bytes()
}

/// Writes `answer` to a connection without waiting (a fresh connection's
/// send buffer takes it whole), then closes it.
fn refuse(stream: TcpStream, answer: &[u8]) {
    if let Ok(stream) = stream.into_std() {
        let _ = io::Write::write_all(&mut &stream, answer);
        let _ = stream.shutdown(std::net::Shutdown::Write);
    }
}

/// A connection whose writes fail with [`io::ErrorKind::TimedOut`] once one
/// has made no progress for its limit: a write that cannot go on starts the
/// deadline, and any write that does go on lifts it. Reads are untouched.
struct WriteDeadline<S> {
    inner: S,
    limit: Duration,
    /// The deadline, made at the first stall and reset at each later one.
    timer: Option<Pin<Box<Sleep>>>,
    /// Whether the last write, flush or shutdown could not go on.
    stalled: bool,
}

impl<S> WriteDeadline<S> {
    fn new(inner: S, limit: Duration) -> WriteDeadline<S> {
        WriteDeadline { inner, limit, timer: None, stalled: false }
    }

    /// `poll` of the inner stream's writing side, under the deadline.
    fn watch<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = false;
            return poll;
        }
        let limit = self.limit;
        let timer = self.timer.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        if !self.stalled {
            self.stalled = true;
            timer.as_mut().reset(Instant::now() + limit);
        }
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the client read nothing of its answer for {limit:?}"),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WriteDeadline<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteDeadline<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.watch(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.watch(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_flush(cx);
        self.watch(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_shutdown(cx);
        self.watch(cx, poll)
    }
}

/// How many answers the router has under way on one connection: from the
/// moment hyper hands it a request until hyper drops the answer's body
/// (having written it, or given up). Shared by the connection's service and
/// its socket, both polled by the connection's task.
#[derive(Clone, Default)]
struct Underway(Arc<AtomicUsize>);

/// One answer under way, until dropped.
struct Answer(Arc<AtomicUsize>);

impl Underway {
    fn start(&self) -> Answer {
        self.0.fetch_add(1, Ordering::Relaxed);
        Answer(self.0.clone())
    }

    fn none(&self) -> bool {
        self.0.load(Ordering::Relaxed) == 0
    }
}

impl Drop for Answer {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// An answer's body, holding its [`Answer`] until hyper drops it.
struct Tracked {
    body: Body,
    _answer: Answer,
}

impl HttpBody for Tracked {
    type Data = <Body as HttpBody>::Data;
    type Error = <Body as HttpBody>::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The longest head hyper writes as its own answer (a status line,
/// `connection`, `content-length` and `date`): longer writes are never one.
const HYPER_ANSWER_MAX: usize = 256;

/// A connection on which hyper's own answers (to requests it could not
/// parse) are written as the server's: see [`hyper_answer`] and
/// [`own_answer`]. Everything else passes through untouched.
struct OwnAnswers<S> {
    inner: S,
    underway: Underway,
    /// The server's answer being written in place of hyper's: its bytes,
    /// how many are written, and the length of hyper's, reported as written
    /// once the server's is.
    replacing: Option<(Vec<u8>, usize, usize)>,
}

impl<S> OwnAnswers<S> {
    fn new(inner: S, underway: Underway) -> OwnAnswers<S> {
        OwnAnswers { inner, underway, replacing: None }
    }
}

impl<S: AsyncWrite + Unpin> OwnAnswers<S> {
    /// Writes what is left of the answer being replaced, then reports
    /// hyper's as written.
    fn replace(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let Some((ours, written, theirs)) = &mut self.replacing else { unreachable!("only while replacing") };
        while *written < ours.len() {
            match std::task::ready!(Pin::new(&mut self.inner).poll_write(cx, &ours[*written..])) {
                Ok(0) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Ok(n) => *written += n,
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
        let theirs = *theirs;
        self.replacing = None;
        Poll::Ready(Ok(theirs))
    }

    /// Starts replacing `data` (what hyper writes) when it is hyper's own
    /// answer; answers whether it is.
    fn intercept(&mut self, data: &[u8]) -> bool {
        if !self.underway.none() {
            return false;
        }
        match hyper_answer(data) {
            Some(status) => {
                tracing::debug!("answering {status} to a request that is not valid HTTP/1.1");
                self.replacing = Some((own_answer(status), 0, data.len()));
                true
            }
            None => false,
        }
    }
}

/// The status of `data` when it is one of hyper's own answers: exactly one
/// whole head with an error status and without the security headers
/// (which every answer of the router has).
fn hyper_answer(data: &[u8]) -> Option<StatusCode> {
    if data.len() > HYPER_ANSWER_MAX || !(data.starts_with(b"HTTP/1.1 ") || data.starts_with(b"HTTP/1.0 ")) {
        return None;
    }
    let head = std::str::from_utf8(data).ok()?.strip_suffix("\r\n\r\n")?;
    if head.contains("\r\n\r\n") {
        return None;
    }
    let mut lines = head.split("\r\n");
    let status = StatusCode::from_bytes(lines.next()?.get(9..12)?.as_bytes()).ok()?;
    let guarded = lines.any(|line| {
        line.split_once(':').is_some_and(|(name, _)| name.eq_ignore_ascii_case(crate::security::HEADERS[0].0))
    });
    (!guarded && (status.is_client_error() || status.is_server_error())).then_some(status)
}

/// The server's answer in place of hyper's answer `status`.
fn own_answer(status: StatusCode) -> Vec<u8> {
    let message = match status {
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => {
            format!("the request's head is too large: at most {} KiB", MAX_HEAD_BYTES / 1024)
        }
        StatusCode::URI_TOO_LONG => "the request's target (its path and query) is too long".to_owned(),
        StatusCode::BAD_REQUEST => {
            "the request is not valid HTTP/1.1: its request line or a header is malformed".to_owned()
        }
        _ => "the request could not be read".to_owned(),
    };
    whole_answer(status, "", &message)
}

impl<S: AsyncRead + Unpin> AsyncRead for OwnAnswers<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for OwnAnswers<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        if self.replacing.is_some() || self.intercept(buf) {
            return self.replace(cx);
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        if self.replacing.is_some() {
            return self.replace(cx);
        }
        if self.underway.none() && bufs.iter().map(|b| b.len()).sum::<usize>() <= HYPER_ANSWER_MAX {
            let data: Vec<u8> = bufs.iter().flat_map(|b| b.iter().copied()).collect();
            if self.intercept(&data) {
                return self.replace(cx);
            }
        }
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Whether an error accepting a connection concerns that connection alone.
fn is_the_clients(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused | io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    )
}

/// The middleware that gives a request's body [`crate::ServerConfig::body_timeout`]
/// to arrive, and answers 408 (closing the connection) when it does not.
pub(crate) async fn body_deadline(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    if request.body().is_end_stream() {
        return next.run(request).await;
    }
    let late = Arc::new(AtomicBool::new(false));
    let request = request.map(|body| {
        let late = late.clone();
        Body::new(DeadlineBody::new(limit, body).map_err(move |e| {
            if e.is::<TimeoutError>() {
                late.store(true, Ordering::Relaxed);
            }
            e
        }))
    });
    let response = next.run(request).await;
    if !late.load(Ordering::Relaxed) {
        return response;
    }
    let within =
        if limit.subsec_millis() == 0 { format!("{} s", limit.as_secs()) } else { format!("{} ms", limit.as_millis()) };
    let mut response =
        ApiError::Timeout(format!("the request body did not arrive within {within} of its headers")).into_response();
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer(text: &str) -> SocketAddr {
        text.parse().unwrap()
    }

    #[test]
    fn each_client_has_its_cap_and_is_forgotten_with_its_last_connection() {
        let per_client = PerClient::new(2);
        let first = per_client.admit(peer("192.0.2.1:1")).unwrap();
        let second = per_client.admit(peer("[::ffff:192.0.2.1]:2")).unwrap();
        assert!(per_client.admit(peer("192.0.2.1:3")).is_none(), "a third from one address");
        let other = per_client.admit(peer("192.0.2.2:1")).unwrap();
        let v6 = per_client.admit(peer("[2001:db8:0:1::1]:1")).unwrap();
        let _v6_again = per_client.admit(peer("[2001:db8:0:1::2]:1")).unwrap();
        assert!(per_client.admit(peer("[2001:db8:0:1:ffff::3]:1")).is_none(), "one /64 is one client");
        assert!(per_client.admit(peer("[2001:db8:0:2::1]:1")).is_some(), "another /64 is another");
        drop(first);
        let third = per_client.admit(peer("192.0.2.1:4")).unwrap();
        assert_eq!(per_client.clients(), 3);
        drop((second, third, other, v6));
        assert_eq!(per_client.clients(), 1, "only the IPv6 client with a connection left");
        assert!(PerClient::new(0).admit(peer("192.0.2.1:1")).is_some(), "a cap of 0 is 1");
    }

    #[test]
    fn the_refusal_is_a_whole_429_with_retry_after_and_a_json_error() {
        let answer = String::from_utf8(refusal(3, Duration::from_millis(1500))).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 429 Too Many Requests\r\n"), "{head}");
        assert!(head.contains("\r\nretry-after: 2\r\n") && head.contains("\r\nconnection: close\r\n"), "{head}");
        assert!(head.contains(&format!("\r\ncontent-length: {}\r\n", body.len())), "{head}");
        assert!(head.contains("\r\nx-content-type-options: nosniff\r\n"), "{head}");
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(
            json["error"],
            "too many connections open from your address: at most 3 at once; close one, or try again in 2 s"
        );
    }

    #[test]
    fn only_hyper_s_own_answers_are_replaced() {
        let hyper = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\n\
                      date: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n";
        assert_eq!(hyper_answer(hyper), Some(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE));
        let ours = String::from_utf8(own_answer(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)).unwrap();
        assert!(ours.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "{ours}");
        assert!(ours.contains("at most 64 KiB"), "{ours}");
        assert_eq!(hyper_answer(ours.as_bytes()), None, "the server's own answers carry the headers");
        let (head, _) = ours.split_once("\r\n\r\n").unwrap();
        assert_eq!(hyper_answer(format!("{head}\r\n\r\n").as_bytes()), None);
        for other in [
            &b"HTTP/1.1 100 Continue\r\n\r\n"[..],
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nHTTP/1.1 400 Bad Request\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n",
            b"{\"error\": \"HTTP/1.1 400 Bad Request\"}\r\n\r\n",
        ] {
            assert_eq!(hyper_answer(other), None, "{:?}", String::from_utf8_lossy(other));
        }
    }
}
