//! Per-client rate limits: how many games one client may create (and join),
//! and how many analyses (hints, reviews, analyses) it may ask for.
//!
//! Each kind of request has its own [`Rate`], such as 60 a minute: a client
//! may make that many at once, and the allowance refills evenly over the
//! period (one a second for 60 a minute), as a token bucket would (the
//! `governor` crate's GCRA). Past it, the answer is 429 with `Retry-After`
//! and the usual one-line JSON error.
//!
//! A client is its peer address, as the connection shows it: an IPv4
//! address, or an IPv6 address's /64 network (what one subscriber usually
//! holds). Behind a reverse proxy every client is the proxy. Requests
//! without a peer address (the application called without a socket, as in
//! tests) all count as one client, "unknown".
//!
//! The memory of clients is bounded: a client whose allowance has refilled is
//! forgotten (swept every minute), and at most [`MAX_CLIENTS`] are
//! remembered per kind; while that many are, every further request shares one
//! allowance, so a flood of addresses slows itself down rather than growing
//! the table.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::error::ApiError;

/// The most clients remembered per kind of request.
pub const MAX_CLIENTS: usize = 100_000;
/// How often clients whose allowance has refilled are forgotten.
const SWEEP_EVERY: Duration = Duration::from_secs(60);
/// While the table is full, how often to try forgetting clients.
const SWEEP_WHEN_FULL: Duration = Duration::from_secs(1);

/// A number of requests per period, such as `60/min`: that many at once,
/// refilled evenly over the period.
///
/// ```
/// use bouton_web::rate_limit::Rate;
///
/// let rate: Rate = "60/min".parse()?;
/// assert_eq!(rate.count(), 60);
/// assert_eq!(rate.period(), std::time::Duration::from_secs(60));
/// assert_eq!(rate.to_string(), "60/min");
/// assert!("60 per minute".parse::<Rate>().is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    count: NonZeroU32,
    unit: Unit,
}

/// The period of a [`Rate`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Second,
    Minute,
    Hour,
}

impl Unit {
    fn duration(self) -> Duration {
        Duration::from_secs(match self {
            Unit::Second => 1,
            Unit::Minute => 60,
            Unit::Hour => 3600,
        })
    }

    fn symbol(self) -> &'static str {
        match self {
            Unit::Second => "s",
            Unit::Minute => "min",
            Unit::Hour => "h",
        }
    }

    fn words(self) -> &'static str {
        match self {
            Unit::Second => "a second",
            Unit::Minute => "a minute",
            Unit::Hour => "an hour",
        }
    }
}

impl Rate {
    /// The most requests a second allowed (a millisecond apart).
    const MAX_PER_SECOND: u32 = 1000;

    /// `count` requests a minute.
    pub const fn per_minute(count: NonZeroU32) -> Rate {
        Rate { count, unit: Unit::Minute }
    }

    /// How many requests per period.
    pub fn count(&self) -> u32 {
        self.count.get()
    }

    /// The period.
    pub fn period(&self) -> Duration {
        self.unit.duration()
    }

    fn quota(&self) -> Quota {
        // Parsing keeps the interval at a millisecond or more.
        Quota::with_period(self.period() / self.count.get())
            .expect("a rate's interval is not zero")
            .allow_burst(self.count)
    }
}

impl FromStr for Rate {
    type Err = String;

    fn from_str(text: &str) -> Result<Rate, String> {
        let wrong = || format!("{text:?} is not a rate: write N/s, N/min or N/h, such as 60/min");
        let (count, unit) = text.trim().split_once('/').ok_or_else(wrong)?;
        let unit = match unit.trim() {
            "s" | "sec" | "second" => Unit::Second,
            "min" | "minute" => Unit::Minute,
            "h" | "hour" => Unit::Hour,
            _ => return Err(wrong()),
        };
        let count: u32 = count.trim().parse().map_err(|_| wrong())?;
        let count = NonZeroU32::new(count)
            .ok_or_else(|| format!("{text:?}: a rate of 0 would refuse everything; to turn a limit off, write off"))?;
        let rate = Rate { count, unit };
        if u64::from(count.get()) > u64::from(Rate::MAX_PER_SECOND) * rate.period().as_secs() {
            return Err(format!(
                "{text:?}: at most {} a second can be limited; to turn a limit off, write off",
                Rate::MAX_PER_SECOND
            ));
        }
        Ok(rate)
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.count, self.unit.symbol())
    }
}

/// The kinds of request that are limited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Creating a game (`POST /api/games`) or joining one
    /// (`POST /api/games/{id}/join`): each stores a game or a seat.
    Games,
    /// Analyses: `GET /api/analyze`, and a game's `analysis`, `hint` and
    /// `review`.
    Analyses,
}

impl Kind {
    /// Every kind, in the order of `--rate-limit`.
    pub const ALL: [Kind; 2] = [Kind::Games, Kind::Analyses];

    /// The kind's name in `--rate-limit`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Games => "games",
            Kind::Analyses => "analyses",
        }
    }

    fn too_many(self) -> &'static str {
        match self {
            Kind::Games => "too many games created or joined from your address",
            Kind::Analyses => "too many analyses, hints and reviews asked from your address",
        }
    }
}

/// The rate limits of every kind of request; `None` is no limit.
///
/// It reads and prints as `bouton serve --rate-limit` takes it: `off`, or
/// `KIND=RATE` pairs separated by commas, where a kind left out keeps its
/// default and `KIND=off` turns one kind's limit off.
///
/// ```
/// use bouton_web::rate_limit::RateLimits;
///
/// let limits = RateLimits::default();
/// assert_eq!(limits.to_string(), "games=60/min,analyses=600/min");
/// let fewer: RateLimits = "games=10/min".parse()?;
/// assert_eq!(fewer.to_string(), "games=10/min,analyses=600/min");
/// assert_eq!("off".parse::<RateLimits>()?, RateLimits::OFF);
/// assert!("games=10/min,moves=5/s".parse::<RateLimits>().is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    /// Games created or joined per client.
    pub games: Option<Rate>,
    /// Analyses, hints and reviews per client.
    pub analyses: Option<Rate>,
}

impl RateLimits {
    /// No limits at all.
    pub const OFF: RateLimits = RateLimits { games: None, analyses: None };

    /// The default limits: 60 games a minute and 600 analyses a minute per
    /// client, far above what a person playing does (a game takes seconds
    /// at the very least), far below what a script can do (one client once
    /// created about 4,800 games a second).
    pub const DEFAULT: RateLimits = RateLimits {
        games: Some(Rate::per_minute(NonZeroU32::new(60).expect("not zero"))),
        analyses: Some(Rate::per_minute(NonZeroU32::new(600).expect("not zero"))),
    };

    /// The limit of one kind.
    pub fn of(&self, kind: Kind) -> Option<Rate> {
        match kind {
            Kind::Games => self.games,
            Kind::Analyses => self.analyses,
        }
    }

    fn slot(&mut self, kind: Kind) -> &mut Option<Rate> {
        match kind {
            Kind::Games => &mut self.games,
            Kind::Analyses => &mut self.analyses,
        }
    }
}

impl Default for RateLimits {
    fn default() -> RateLimits {
        RateLimits::DEFAULT
    }
}

impl FromStr for RateLimits {
    type Err = String;

    fn from_str(text: &str) -> Result<RateLimits, String> {
        let kinds = Kind::ALL.map(Kind::name).join(", ");
        if text.trim() == "off" {
            return Ok(RateLimits::OFF);
        }
        let mut limits = RateLimits::DEFAULT;
        for part in text.split(',') {
            let Some((name, value)) = part.split_once('=') else {
                return Err(format!("{part:?} is not KIND=RATE: write off, or e.g. games=60/min,analyses=600/min"));
            };
            let kind = Kind::ALL
                .into_iter()
                .find(|k| k.name() == name.trim())
                .ok_or_else(|| format!("{:?} is not a kind of request that is limited ({kinds})", name.trim()))?;
            *limits.slot(kind) = match value.trim() {
                "off" => None,
                rate => Some(rate.parse()?),
            };
        }
        Ok(limits)
    }
}

impl fmt::Display for RateLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == RateLimits::OFF {
            return f.write_str("off");
        }
        for (i, kind) in Kind::ALL.into_iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            match self.of(kind) {
                Some(rate) => write!(f, "{sep}{}={rate}", kind.name())?,
                None => write!(f, "{sep}{}=off", kind.name())?,
            }
        }
        Ok(())
    }
}

/// Who a request counts against; also whose connections the per-client
/// connection cap counts (see [`crate::connections`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Client {
    /// An IPv4 address (also when seen as an IPv4-mapped IPv6 address).
    V4([u8; 4]),
    /// The /64 network of an IPv6 address.
    V6([u8; 8]),
    /// No peer address is known: the application was called without a socket.
    Unknown,
    /// Every client not yet remembered while [`MAX_CLIENTS`] are.
    Overflow,
}

impl Client {
    /// The client at `peer`: its IPv4 address (IPv4-mapped IPv6 included), or
    /// its IPv6 address's /64; [`Client::Unknown`] without one.
    pub(crate) fn of(peer: Option<SocketAddr>) -> Client {
        match peer.map(|p| p.ip().to_canonical()) {
            Some(IpAddr::V4(ip)) => Client::V4(ip.octets()),
            Some(IpAddr::V6(ip)) => {
                let octets = ip.octets();
                Client::V6(octets[..8].try_into().expect("8 of 16 bytes"))
            }
            None => Client::Unknown,
        }
    }
}

/// One kind's limit, shared by every request of that kind.
#[derive(Clone)]
pub(crate) struct Limiter(Option<Arc<Buckets>>);

struct Buckets {
    kind: Kind,
    rate: Rate,
    clients: DefaultKeyedRateLimiter<Client>,
    last_sweep: Mutex<Instant>,
}

impl Limiter {
    /// The limiter of `kind` under `limits`.
    pub(crate) fn new(kind: Kind, limits: &RateLimits) -> Limiter {
        Limiter(limits.of(kind).map(|rate| {
            Arc::new(Buckets {
                kind,
                rate,
                clients: DefaultKeyedRateLimiter::keyed(rate.quota()),
                last_sweep: Mutex::new(Instant::now()),
            })
        }))
    }

    /// Lets a request from `peer` through, or says how long to wait.
    fn check(&self, peer: Option<SocketAddr>) -> Result<(), ApiError> {
        let Some(buckets) = &self.0 else { return Ok(()) };
        let full = buckets.sweep();
        let client = if full { Client::Overflow } else { Client::of(peer) };
        buckets.clients.check_key(&client).map_err(|not_until| {
            let wait = not_until.wait_time_from(buckets.clients.clock().now());
            // Whole seconds, rounded up: never "0", which would invite a retry now.
            let retry_after = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            ApiError::TooManyRequests {
                message: format!(
                    "{}: at most {} {}; try again in {} s",
                    buckets.kind.too_many(),
                    buckets.rate.count(),
                    buckets.rate.unit.words(),
                    retry_after.max(1)
                ),
                retry_after: retry_after.max(1),
            }
        })
    }
}

impl Buckets {
    /// Forgets clients whose allowance has refilled, every minute or, while
    /// the table is full, every second. Answers whether it is still full.
    fn sweep(&self) -> bool {
        let full = self.clients.len() >= MAX_CLIENTS;
        let every = if full { SWEEP_WHEN_FULL } else { SWEEP_EVERY };
        // One sweeper at a time; the others go on without waiting.
        if let Ok(mut last) = self.last_sweep.try_lock()
            && last.elapsed() >= every
        {
            *last = Instant::now();
            self.clients.retain_recent();
            self.clients.shrink_to_fit();
            return self.clients.len() >= MAX_CLIENTS;
        }
        full
    }
}

/// The middleware of a limited route: counts the request against its
/// client, and answers 429 past the limit.
pub(crate) async fn limit(State(limiter): State<Limiter>, request: Request, next: Next) -> Response {
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(peer)| *peer);
    match limiter.check(peer) {
        Ok(()) => next.run(request).await,
        Err(refusal) => refusal.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rate(text: &str) -> Rate {
        text.parse().unwrap()
    }

    #[test]
    fn rates_read_and_print_in_three_units() {
        assert_eq!(rate("10/s").period(), Duration::from_secs(1));
        assert_eq!(rate(" 5 / hour ").to_string(), "5/h");
        assert_eq!(rate("600/minute").to_string(), "600/min");
        for wrong in ["", "60", "60/day", "-1/s", "x/min", "1.5/s", "60/min/s"] {
            assert!(wrong.parse::<Rate>().unwrap_err().contains("is not a rate"), "{wrong:?}");
        }
        assert!("0/min".parse::<Rate>().unwrap_err().contains("write off"));
        assert!("1001/s".parse::<Rate>().unwrap_err().contains("at most 1000 a second"));
        assert_eq!(rate("3600000/h").count(), 3_600_000);
    }

    #[test]
    fn limits_read_kinds_off_and_defaults() {
        let limits: RateLimits = "analyses=off".parse().unwrap();
        assert_eq!(limits, RateLimits { games: RateLimits::DEFAULT.games, analyses: None });
        assert_eq!(limits.to_string(), "games=60/min,analyses=off");
        let both: RateLimits = "games=2/s, analyses=30/h".parse().unwrap();
        assert_eq!(both.to_string(), "games=2/s,analyses=30/h");
        assert_eq!(both.to_string().parse::<RateLimits>().unwrap(), both);
        assert_eq!(RateLimits::OFF.to_string(), "off");
        assert!("moves=1/s".parse::<RateLimits>().unwrap_err().contains("(games, analyses)"));
        assert!("games".parse::<RateLimits>().unwrap_err().contains("is not KIND=RATE"));
        assert!("".parse::<RateLimits>().is_err());
        assert!("games=1/fortnight".parse::<RateLimits>().unwrap_err().contains("is not a rate"));
    }

    #[test]
    fn ipv6_clients_are_their_64_network_and_mapped_ipv4_is_ipv4() {
        let peer = |text: &str| Some(text.parse::<SocketAddr>().unwrap());
        assert_eq!(Client::of(peer("[2001:db8:1:2::1]:1")), Client::of(peer("[2001:db8:1:2:ffff::9]:2")));
        assert_ne!(Client::of(peer("[2001:db8:1:2::1]:1")), Client::of(peer("[2001:db8:1:3::1]:1")));
        assert_eq!(Client::of(peer("[::ffff:10.0.0.1]:1")), Client::of(peer("10.0.0.1:5")));
        assert_eq!(Client::of(None), Client::Unknown);
    }

    #[test]
    fn past_the_burst_a_client_waits_and_others_do_not() {
        let limits: RateLimits = "games=2/h".parse().unwrap();
        let limiter = Limiter::new(Kind::Games, &limits);
        let alice = Some("192.0.2.1:1000".parse().unwrap());
        let bob = Some("192.0.2.2:1000".parse().unwrap());
        assert!(limiter.check(alice).is_ok());
        assert!(limiter.check(alice).is_ok());
        let Err(ApiError::TooManyRequests { message, retry_after }) = limiter.check(alice) else {
            panic!("the third game in an hour is refused")
        };
        // One game refills every 30 minutes.
        assert!((1..=1800).contains(&retry_after), "{retry_after}");
        assert!(message.contains("at most 2 an hour"), "{message}");
        assert!(limiter.check(bob).is_ok());
        assert!(Limiter::new(Kind::Analyses, &limits).check(alice).is_ok());
        let off = Limiter::new(Kind::Games, &RateLimits::OFF);
        assert!((0..100).all(|_| off.check(alice).is_ok()));
    }
}
