//! A throw-away PostgreSQL server for tests and benchmarks: `initdb` in a
//! temporary directory and `postgres` on a free loopback port, from the
//! system's packages (Debian's `postgresql`: `/usr/lib/postgresql/*/bin`,
//! or `initdb` on the `PATH`). Run as root, the server runs as the
//! `postgres` user (PostgreSQL refuses root), through `runuser`.
//!
//! The server stops, and its directory is deleted, when the
//! [`ThrowawayPostgres`] is dropped — or when the process that started it
//! ends, however it ends: a shell watches the pipe the process holds open.
//!
//! ```no_run
//! use bouton_web::throwaway::ThrowawayPostgres;
//!
//! let server = ThrowawayPostgres::start()?;
//! let url = server.create_database()?; // a fresh, empty database
//! assert!(url.starts_with("postgres://"));
//! # Ok::<(), bouton_web::throwaway::ThrowawayError>(())
//! ```

use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Why no throw-away server could be had.
#[derive(Debug, thiserror::Error)]
pub enum ThrowawayError {
    /// PostgreSQL's programs are not installed.
    #[error(
        "PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin nor on the PATH): apt-get install postgresql"
    )]
    NotInstalled,
    /// A step failed.
    #[error("{step}: {why}")]
    Failed {
        /// What was being done.
        step: String,
        /// What went wrong.
        why: String,
    },
}

fn failed(step: &str, why: impl ToString) -> ThrowawayError {
    ThrowawayError::Failed { step: step.to_owned(), why: why.to_string() }
}

/// A running throw-away server.
pub struct ThrowawayPostgres {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    as_postgres: bool,
    watcher: Option<(Child, ChildStdin)>,
}

/// Databases created so far in this process (their names must differ).
static CREATED: AtomicU64 = AtomicU64::new(0);

impl ThrowawayPostgres {
    /// Starts a server (a few seconds): initdb, then postgres on a free
    /// port, waiting until it accepts connections. Durable settings (fsync
    /// on), as in production.
    pub fn start() -> Result<ThrowawayPostgres, ThrowawayError> {
        ThrowawayPostgres::start_with(&[])
    }

    /// Starts a server with extra `-c NAME=VALUE` settings (e.g.
    /// `fsync=off` for a test suite that never crashes the server).
    pub fn start_with(settings: &[&str]) -> Result<ThrowawayPostgres, ThrowawayError> {
        let bin = find_bin().ok_or(ThrowawayError::NotInstalled)?;
        let as_postgres = is_root();
        let n = CREATED.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("bouton-pg-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| failed("create the directory", e))?;
        if as_postgres {
            let status =
                Command::new("chown").args(["postgres:postgres"]).arg(&dir).status().map_err(|e| failed("chown", e))?;
            if !status.success() {
                return Err(failed("chown", "no postgres user? (apt-get install postgresql creates it)"));
            }
        }
        let data = dir.join("data");
        let mut server = ThrowawayPostgres { bin, dir, port: 0, as_postgres, watcher: None };
        let out = server
            .command("initdb")
            .args(["-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale", "C", "-D"])
            .arg(&data)
            .output()
            .map_err(|e| failed("initdb", e))?;
        if !out.status.success() {
            return Err(failed("initdb", String::from_utf8_lossy(&out.stderr)));
        }
        server.port = free_port()?;
        server.launch(settings)?;
        Ok(server)
    }

    /// Starts `postgres` under a watching shell; waits until it accepts
    /// connections.
    fn launch(&mut self, settings: &[&str]) -> Result<(), ThrowawayError> {
        let mut options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=400 -c shared_buffers=64MB",
            self.port,
            self.dir.display()
        );
        for setting in settings {
            options.push_str(&format!(" -c {setting}"));
        }
        let postgres = self.bin.join("postgres");
        // The shell stops the server when its standard input closes: when
        // this is dropped, or when the process holding it ends.
        let (dir, data) = (self.dir.display(), self.dir.join("data"));
        // Gone with its process, unless stopped to be restarted.
        let script = format!(
            "{} -D {} {options} >{dir}/log 2>&1 & pid=$!; read _; kill -INT $pid; wait $pid; \
             [ -e {dir}/keep ] || rm -rf {dir}",
            postgres.display(),
            data.display(),
        );
        let mut shell = self.wrap("sh");
        let mut child = shell
            .args(["-c", &script])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| failed("start postgres", e))?;
        let stdin = child.stdin.take().ok_or_else(|| failed("start postgres", "no pipe"))?;
        self.watcher = Some((child, stdin));
        self.wait_ready(Duration::from_secs(60))
    }

    /// Waits until the server accepts SQL.
    fn wait_ready(&mut self, within: Duration) -> Result<(), ThrowawayError> {
        let deadline = Instant::now() + within;
        loop {
            if TcpStream::connect((Ipv4Addr::LOCALHOST, self.port)).is_ok() {
                let out = self.command("pg_isready").args(["-h", "127.0.0.1", "-p", &self.port.to_string()]).output();
                if out.is_ok_and(|o| o.status.success()) {
                    return Ok(());
                }
            }
            if let Some((child, _)) = &mut self.watcher
                && let Ok(Some(status)) = child.try_wait()
            {
                return Err(failed("start postgres", format!("it stopped ({status}): {}", self.log())));
            }
            if Instant::now() > deadline {
                return Err(failed("start postgres", format!("not ready within {within:?}: {}", self.log())));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The server's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("log")).unwrap_or_default()
    }

    /// The port it listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL of database `name`.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// Creates a fresh empty database and answers its URL.
    pub fn create_database(&self) -> Result<String, ThrowawayError> {
        let name = format!("bouton_{}_{}", std::process::id(), CREATED.fetch_add(1, Ordering::Relaxed));
        let out = self
            .command("createdb")
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", "postgres", &name])
            .output()
            .map_err(|e| failed("createdb", e))?;
        if !out.status.success() {
            return Err(failed("createdb", String::from_utf8_lossy(&out.stderr)));
        }
        Ok(self.url(&name))
    }

    /// Stops the server (fast shutdown), keeping its data: a PostgreSQL
    /// restart is [`stop`](Self::stop) then [`restart`](Self::restart).
    pub fn stop(&mut self) {
        let _ = std::fs::write(self.dir.join("keep"), "");
        self.stop_now();
    }

    fn stop_now(&mut self) {
        if let Some((mut child, stdin)) = self.watcher.take() {
            drop(stdin);
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port after [`stop`](Self::stop).
    pub fn restart(&mut self, settings: &[&str]) -> Result<(), ThrowawayError> {
        self.stop();
        let _ = std::fs::remove_file(self.dir.join("keep"));
        self.launch(settings)
    }

    fn wrap(&self, program: &str) -> Command {
        if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--", program]);
            command
        } else {
            Command::new(program)
        }
    }

    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        let mut command = self.wrap(&path.to_string_lossy());
        command.current_dir(&self.dir);
        command
    }
}

impl Drop for ThrowawayPostgres {
    fn drop(&mut self) {
        self.stop_now();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The newest `/usr/lib/postgresql/*/bin` holding `initdb`, else the
/// directory of an `initdb` on the `PATH`.
fn find_bin() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths).find(|dir| dir.join("initdb").is_file() && dir.join("postgres").is_file())
    })
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn free_port() -> Result<u16, ThrowawayError> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(|e| failed("find a free port", e))?;
    listener.local_addr().map(|a| a.port()).map_err(|e| failed("find a free port", e))
}
