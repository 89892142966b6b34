//! `bouton serve`: the browser game.

use std::path::PathBuf;

use anyhow::{Context, Result};

use bouton_web::Database;

use crate::UsageError;
use crate::cli::ServeArgs;

/// The documented default database: `$XDG_DATA_HOME/bouton/bouton.sqlite3`,
/// else `~/.local/share/bouton/bouton.sqlite3`, else `./bouton.sqlite3`.
pub fn default_db() -> PathBuf {
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".local/share")));
    match data {
        Some(dir) => dir.join("bouton").join("bouton.sqlite3"),
        None => PathBuf::from("bouton.sqlite3"),
    }
}

/// The database `--db` names, else `DATABASE_URL`, else [`default_db`].
pub fn database(args: &ServeArgs) -> Result<Database> {
    let named = args
        .db
        .as_ref()
        .map(|p| p.to_string_lossy().into_owned())
        .or_else(|| std::env::var("DATABASE_URL").ok().filter(|url| !url.is_empty()));
    match named {
        Some(text) => Ok(text.parse::<Database>().map_err(|e| UsageError(format!("--db: {e}")))?),
        None => Ok(Database::Sqlite(default_db())),
    }
}

/// Runs the server until Ctrl-C.
pub fn run(args: &ServeArgs) -> Result<()> {
    let config = args.config()?;
    let db = database(args)?;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let logs = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    if args.log_format == "json" {
        logs.json().init();
    } else {
        logs.init();
    }
    if let Database::Sqlite(path) = &db
        && let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(bouton_web::serve(args.addr, &db, config, |addr| {
        // The first line of output names the address, for people and scripts.
        println!("bouton is serving the game at http://{addr}/ (database {db})");
    }))?;
    Ok(())
}
