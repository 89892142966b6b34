//! The browser game in a real browser: `bouton serve` on a free port, then
//! the end-to-end script crates/web/e2e/run.mjs (Playwright driving Debian's
//! chromium) against it.
//!
//! It needs Node.js 20 or newer, /usr/bin/chromium and `npm ci` run in
//! crates/web/e2e. Without them the test prints a notice and passes, unless
//! the environment variable CI is set: then it fails, saying what to install.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::util::{Server, TempDir};

/// The browser Playwright launches (the script uses the same default).
const CHROMIUM: &str = "/usr/bin/chromium";
/// How long the whole browser run may take (the script stops itself sooner).
const E2E_TIMEOUT: Duration = Duration::from_secs(150);

/// A child process that is killed when dropped, also when a test panics.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn e2e_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates").join("web").join("e2e")
}

/// What is missing to run the browser test, as instructions.
fn missing_prerequisites(e2e: &Path) -> Vec<String> {
    let mut missing = Vec::new();
    match Command::new("node").arg("--version").output() {
        Ok(out) if out.status.success() => {
            let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
            let major: u32 =
                version.trim_start_matches('v').split('.').next().and_then(|m| m.parse().ok()).unwrap_or(0);
            if major < 20 {
                missing.push(format!("Node.js 20 or newer (found {version})"));
            }
        }
        _ => missing.push("Node.js 20 or newer as `node` on the PATH".to_owned()),
    }
    if !Path::new(CHROMIUM).exists() {
        missing.push(format!("Debian's chromium at {CHROMIUM} (apt-get install chromium)"));
    }
    if !e2e.join("node_modules").join("playwright-core").is_dir() {
        missing.push(format!("the test's npm packages (cd {} && npm ci)", e2e.display()));
    }
    missing
}

/// Whether this is a CI run, where a skipped test would hide a failure.
fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|value| !value.is_empty())
}

/// Reads all of `pipe` on a thread.
fn collect(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

#[test]
fn the_page_plays_in_a_real_browser() {
    let e2e = e2e_dir();
    let missing = missing_prerequisites(&e2e);
    if !missing.is_empty() {
        let message = format!("the browser test cannot run; install {}", missing.join("; and "));
        if in_ci() {
            panic!("{message}");
        }
        eprintln!("note: skipping the browser test: {message}");
        return;
    }

    let dir = TempDir::new();
    let server = Server::start(&dir.join("games.sqlite3"));
    let url = server.url.clone();

    let mut child = Command::new("node")
        .arg(e2e.join("run.mjs"))
        .arg(&url)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node starts");
    let stdout = collect(child.stdout.take().expect("stdout is piped"));
    let stderr = collect(child.stderr.take().expect("stderr is piped"));
    let mut node = Killed(child);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = node.0.try_wait().expect("waiting for node") {
            break Some(status);
        }
        if started.elapsed() > E2E_TIMEOUT {
            break None;
        }
        thread::sleep(Duration::from_millis(50));
    };
    drop(node);
    let server_log = server.log();
    drop(server);
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    let report =
        format!("--- e2e stdout ---\n{stdout}\n--- e2e stderr ---\n{stderr}\n--- server log ---\n{server_log}");
    let status = status.unwrap_or_else(|| panic!("the browser tests did not finish within {E2E_TIMEOUT:?}\n{report}"));
    assert!(status.success(), "the browser tests failed ({status})\n{report}");
    assert!(stdout.contains("e2e: all"), "the browser tests did not report success\n{report}");
    println!("{stdout}");
}
