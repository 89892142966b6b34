//! The browser game of bouton: `bouton serve`.
//!
//! A JSON API and a page over the Nim and Sprague–Grundy libraries (every
//! rule set bouton knows), with games stored in SQLite (embedded, the
//! default) or PostgreSQL (several instances sharing one database).
//! [`app`] builds the whole application without a socket, so it can be
//! tested with `tower::ServiceExt::oneshot`; [`serve`] runs it on an address.
//!
//! ```
//! use bouton_web::{AppState, Store, app};
//!
//! let store = Store::open(std::path::Path::new(":memory:"))?;
//! let router = app(AppState::new(store));
//! # let _ = router;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod api;
pub mod board;
mod body;
pub mod coach;
pub mod computer;
pub mod config;
pub mod connections;
mod error;
pub mod limits;
mod mode;
pub mod offer;
mod openapi;
pub mod pool;
pub mod position_analysis;
pub mod rate_limit;
mod record;
pub mod security;
pub mod service;
pub mod store;
pub mod throwaway;
pub mod views;
pub mod warm;

use std::net::SocketAddr;
use std::time::Duration;

pub use api::{AppState, MAX_ANALYZE_HEAPS, app};
pub use config::ServerConfig;
pub use error::ApiError;
pub use mode::{Mode, SeatKind};
pub use openapi::DOCUMENT as OPENAPI;
pub use record::server_rules;
pub use store::{Database, Store};

/// How often abandoned games are looked for.
const EXPIRY_SWEEP: Duration = Duration::from_secs(3600);

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database could not be opened or prepared.
    #[error("cannot open the database {path}: {source}")]
    Database {
        /// The database file or URL (without its password).
        path: String,
        /// Why.
        source: store::SchemaError,
    },
    /// The address could not be bound, or serving failed.
    #[error("cannot serve on {addr}: {source}")]
    Io {
        /// The address.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
}

/// Runs the server on `addr` with the database `db` under `config` until
/// Ctrl-C, after raising the limit on open descriptors as far as allowed
/// (see [`connections`]). `on_ready` is called with the bound address
/// (useful with port 0).
pub async fn serve(
    addr: SocketAddr,
    db: &Database,
    config: ServerConfig,
    on_ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let store = Store::connect(db).map_err(|source| ServeError::Database { path: db.to_string(), source })?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Io { addr: addr.to_string(), source })?;
    let bound = listener.local_addr().map_err(|source| ServeError::Io { addr: addr.to_string(), source })?;
    let descriptors = connections::raise_descriptor_limit();
    tracing::info!("open descriptors allowed: {}", descriptors.map_or("unknown".into(), |d| d.to_string()));
    tokio::spawn(expire_forever(store.clone()));
    // The misère quotients in the background, called off at shutdown.
    let warming = warm::Warming::start(warm::games(), warm::WARM_TIME_PER_GAME);
    on_ready(bound);
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let served = connections::run(listener, AppState::new(store).with_config(config), shutdown).await;
    warming.stop();
    served.map_err(|source| ServeError::Io { addr: bound.to_string(), source })
}

/// Deletes abandoned games now and every hour — once an hour between all
/// the instances sharing the database (see [`store::games::claim_sweep`]).
async fn expire_forever(store: Store) {
    let mut sweep = tokio::time::interval(EXPIRY_SWEEP);
    // A little less than the period, so that the instance that swept last
    // time may sweep again at its next tick.
    let period = EXPIRY_SWEEP.as_secs() as i64 - 60;
    loop {
        sweep.tick().await;
        let before = store::games::now() - limits::EXPIRY_DAYS * 24 * 3600;
        let swept = store
            .run(None, move |conn| {
                Box::pin(async move {
                    if !store::games::claim_sweep(conn, "expiry", period).await? {
                        return Ok(None);
                    }
                    store::games::expire(conn, before).await.map(Some)
                })
            })
            .await;
        match swept {
            Ok(None) => tracing::debug!("another instance swept abandoned games within the hour"),
            Ok(Some(n)) => tracing::info!("swept abandoned games: deleted {n} unused for {} days", limits::EXPIRY_DAYS),
            Err(e) => tracing::warn!("expiring old games failed: {e}"),
        }
    }
}
