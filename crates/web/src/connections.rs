//! The server's connections: the accept loop, its timeouts and its cap.
//!
//! - **Idle and slow heads:** hyper's HTTP/1 `header_read_timeout` closes a
//!   connection that has not sent a complete request head within
//!   [`crate::ServerConfig::idle_timeout`] of opening or of its last answer: an
//!   idle keep-alive connection, or one that stopped mid request line.
//! - **Slow bodies:** a request body must arrive in full within
//!   [`crate::ServerConfig::body_timeout`] of its head (tower-http's
//!   `DeadlineBody`); past it the answer is 408 and the connection closes.
//!   This is a layer of [`crate::app`], so it holds without a socket too.
//! - **The cap:** at most [`crate::ServerConfig::connection_cap`] connections are
//!   open at once. The loop accepts only while it is below the cap, so
//!   further clients wait in the listen backlog, and are accepted as soon
//!   as the idle ones time out: more idle connections than descriptors never
//!   lock other clients out.
//!
//! An answer being streamed (a game's events) is neither idle nor a body
//! being read, so none of this cuts it.

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::body::{Body, HttpBody};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::Service;
use tower_http::timeout::{DeadlineBody, TimeoutError};

use crate::error::ApiError;
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
/// the timeouts and the connection cap of `state.config` (the cap as
/// [`crate::ServerConfig::connection_cap`] computes it for the current descriptor
/// limit). Then it stops accepting, lets open answers finish for a moment,
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
    tracing::info!("accepting up to {cap} connections at once");
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
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            router.clone().call(request)
        });
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("connection from {peer} ended: {e}");
            }
            drop(place);
        });
    }
    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await.is_err() {
        tracing::info!("closing the connections still open (event streams) on shutdown");
    }
    Ok(())
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
