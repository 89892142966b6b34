//! How the server protects itself: timeouts, the caps on open connections (in
//! all and per client) and the per-client rate limits, with defaults that a person playing never
//! meets.

use std::time::Duration;

use crate::rate_limit::RateLimits;

/// The server's limits. [`Default`] gives the documented defaults; the
/// `with_` methods change one each.
///
/// ```
/// use std::time::Duration;
/// use bouton_web::{ServerConfig, rate_limit::RateLimits};
///
/// let config = ServerConfig::default()
///     .with_idle_timeout(Duration::from_secs(5))
///     .with_rate_limits("games=10/min".parse()?);
/// assert_eq!(config.body_timeout, ServerConfig::default().body_timeout);
/// assert_eq!(config.rate_limits.games.unwrap().count(), 10);
/// assert_eq!(ServerConfig::default().rate_limits, RateLimits::default());
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerConfig {
    /// How long a connection may go without a complete request head: from
    /// when it opens, and from each answer to the next request (an idle
    /// keep-alive connection), so that a client that stops mid request line
    /// or mid headers is closed too. An answer being streamed (a game's
    /// events) is not idle. Default 20 s.
    pub idle_timeout: Duration,
    /// How long a request's body may take to arrive in full once its head
    /// has: past it the answer is 408 and the connection is closed. Also how
    /// long a write to a connection may make no progress (a client that
    /// never reads its answers or events) before the connection is closed.
    /// Default 10 s.
    pub body_timeout: Duration,
    /// The most connections open at once; more wait in the listen backlog
    /// until one closes. `None`: [`ServerConfig::MAX_CONNECTIONS`]. Either is
    /// lowered to the descriptor limit (raised to its hard maximum at start)
    /// less [`DESCRIPTOR_MARGIN`].
    pub max_connections: Option<usize>,
    /// The most connections open at once from one client (the same client as
    /// the rate limits': an IPv4 address or an IPv6 /64). A connection past
    /// it is answered 429 at once and closed. Event streams count like any
    /// connection. Default [`ServerConfig::MAX_CONNECTIONS_PER_CLIENT`].
    pub max_connections_per_client: usize,
    /// Per-client limits on creating games and on analyses.
    pub rate_limits: RateLimits,
}

/// Descriptors kept free for everything but connections (the database, its
/// journal, the listener, standard streams).
pub const DESCRIPTOR_MARGIN: u64 = 64;

impl ServerConfig {
    /// The default idle timeout.
    pub const IDLE_TIMEOUT: Duration = Duration::from_secs(20);
    /// The default body timeout.
    pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
    /// The default connection cap where descriptors allow more: an open
    /// connection costs the server 11 to 14 KiB (measured with 5,000 idle
    /// ones), so this many hold about 110 MiB at most.
    pub const MAX_CONNECTIONS: usize = 8192;
    /// The default cap on one client's open connections. A browser opens at
    /// most 6 connections to one server (event streams included), whatever
    /// its tabs, so this is about ten browsers at their most, or some thirty
    /// people behind one shared address (a school, a carrier's NAT) with a
    /// game open each (its event stream and one kept-alive connection); and a
    /// single address holds at most 64 of the 8,192 places. Behind a reverse
    /// proxy every client is the proxy: raise it to `--max-connections`.
    pub const MAX_CONNECTIONS_PER_CLIENT: usize = 64;

    /// With this idle timeout.
    pub fn with_idle_timeout(mut self, timeout: Duration) -> ServerConfig {
        self.idle_timeout = timeout;
        self
    }

    /// With this body timeout.
    pub fn with_body_timeout(mut self, timeout: Duration) -> ServerConfig {
        self.body_timeout = timeout;
        self
    }

    /// With at most this many connections open at once.
    pub fn with_max_connections(mut self, max: usize) -> ServerConfig {
        self.max_connections = Some(max);
        self
    }

    /// With at most this many connections open at once from one client.
    pub fn with_max_connections_per_client(mut self, max: usize) -> ServerConfig {
        self.max_connections_per_client = max;
        self
    }

    /// With these rate limits.
    pub fn with_rate_limits(mut self, limits: RateLimits) -> ServerConfig {
        self.rate_limits = limits;
        self
    }

    /// The connection cap when `descriptors` may be open (`None`: unknown):
    /// [`Self::max_connections`] (by default [`Self::MAX_CONNECTIONS`]), at
    /// most the descriptor limit less [`DESCRIPTOR_MARGIN`], and at least 1.
    ///
    /// ```
    /// use bouton_web::ServerConfig;
    ///
    /// assert_eq!(ServerConfig::default().connection_cap(Some(1024)), 960);
    /// assert_eq!(ServerConfig::default().connection_cap(Some(1 << 20)), ServerConfig::MAX_CONNECTIONS);
    /// assert_eq!(ServerConfig::default().with_max_connections(50_000).connection_cap(Some(1 << 20)), 50_000);
    /// assert_eq!(ServerConfig::default().with_max_connections(100).connection_cap(Some(1024)), 100);
    /// assert_eq!(ServerConfig::default().with_max_connections(5000).connection_cap(Some(1024)), 960);
    /// assert_eq!(ServerConfig::default().connection_cap(Some(10)), 1);
    /// ```
    pub fn connection_cap(&self, descriptors: Option<u64>) -> usize {
        let room = descriptors.map(|d| usize::try_from(d.saturating_sub(DESCRIPTOR_MARGIN)).unwrap_or(usize::MAX));
        let max = self.max_connections.unwrap_or(ServerConfig::MAX_CONNECTIONS);
        let cap = room.map_or(max, |room| max.min(room));
        cap.clamp(1, tokio::sync::Semaphore::MAX_PERMITS)
    }
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            idle_timeout: ServerConfig::IDLE_TIMEOUT,
            body_timeout: ServerConfig::BODY_TIMEOUT,
            max_connections: None,
            max_connections_per_client: ServerConfig::MAX_CONNECTIONS_PER_CLIENT,
            rate_limits: RateLimits::default(),
        }
    }
}

/// Reads a duration as `bouton serve` takes it: a whole number with a unit,
/// `ms`, `s` or `min`, or a bare number of seconds.
///
/// ```
/// use std::time::Duration;
/// use bouton_web::config::parse_duration;
///
/// assert_eq!(parse_duration("20s"), Ok(Duration::from_secs(20)));
/// assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
/// assert_eq!(parse_duration("2min"), Ok(Duration::from_secs(120)));
/// assert_eq!(parse_duration("15"), Ok(Duration::from_secs(15)));
/// assert!(parse_duration("0s").is_err());
/// assert!(parse_duration("soon").is_err());
/// ```
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let wrong = || format!("{text:?} is not a duration: write a whole number with ms, s or min, such as 20s");
    let number: u64 = number.parse().map_err(|_| wrong())?;
    let duration = match unit.trim() {
        "ms" => Duration::from_millis(number),
        "" | "s" => Duration::from_secs(number),
        "min" => Duration::from_secs(number.saturating_mul(60)),
        _ => return Err(wrong()),
    };
    if duration.is_zero() {
        return Err(format!("{text:?}: a timeout of zero would close every connection at once"));
    }
    Ok(duration)
}
