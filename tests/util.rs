//! Shared helpers: running the `bouton` binary, temporary directories, and
//! reading game transcripts.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_bouton");

/// No single run of the binary may take longer than this.
const RUN_TIMEOUT: Duration = Duration::from_secs(30);

/// Environment variables that change how the binary looks; removed from every
/// run so that tests do not depend on the caller's terminal settings.
const STYLE_VARIABLES: [&str; 4] = ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "CI"];

/// What one run of the binary produced.
#[derive(Debug)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    /// The exit code (`None` if killed by a signal).
    pub code: Option<i32>,
}

impl Output {
    /// Asserts the exit code, showing everything on failure.
    #[track_caller]
    pub fn assert_code(&self, code: i32) -> &Self {
        assert_eq!(self.code, Some(code), "unexpected exit code\n{self}");
        self
    }

    /// Asserts success with nothing on standard error.
    #[track_caller]
    pub fn assert_clean_success(&self) -> &Self {
        self.assert_code(0);
        assert_eq!(self.stderr, "", "unexpected standard error\n{self}");
        self
    }

    /// Asserts a failure with `code` reported as exactly one line on standard
    /// error, starting "bouton: " and mentioning every one of `words`.
    /// Returns that line.
    #[track_caller]
    pub fn assert_one_line_error(&self, code: i32, words: &[&str]) -> String {
        self.assert_code(code);
        assert_eq!(self.stderr.lines().count(), 1, "expected a one-line message on standard error\n{self}");
        assert!(self.stderr.ends_with('\n'), "the message should end its line\n{self}");
        let line = self.stderr.trim_end().to_owned();
        assert!(line.starts_with("bouton: "), "the message should start with `bouton: `\n{self}");
        for word in words {
            assert!(line.contains(word), "the message should mention {word:?}\n{self}");
        }
        line
    }
}

impl std::fmt::Display for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "exit code: {:?}", self.code)?;
        writeln!(f, "--- stdout ---\n{}", self.stdout)?;
        write!(f, "--- stderr ---\n{}", self.stderr)
    }
}

/// One run of the binary, being set up.
pub struct Run {
    args: Vec<OsString>,
    stdin: Vec<u8>,
    envs: Vec<(String, String)>,
    removed: Vec<String>,
    timeout: Duration,
}

/// Starts setting up a run of `bouton` with `args`.
pub fn bouton<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Run {
    Run {
        args: args.iter().map(|a| a.as_ref().to_owned()).collect(),
        stdin: Vec::new(),
        envs: Vec::new(),
        removed: Vec::new(),
        timeout: RUN_TIMEOUT,
    }
}

impl Run {
    /// Appends arguments.
    pub fn args<S: AsRef<std::ffi::OsStr>>(mut self, args: &[S]) -> Run {
        self.args.extend(args.iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// Appends a path argument.
    pub fn arg_path(mut self, path: &Path) -> Run {
        self.args.push(path.as_os_str().to_owned());
        self
    }

    /// What standard input holds (it is closed afterwards).
    pub fn stdin(mut self, input: impl Into<Vec<u8>>) -> Run {
        self.stdin = input.into();
        self
    }

    /// Sets an environment variable for this run.
    pub fn env(mut self, key: &str, value: &str) -> Run {
        self.envs.push((key.to_owned(), value.to_owned()));
        self
    }

    /// Removes an environment variable for this run.
    pub fn env_remove(mut self, key: &str) -> Run {
        self.removed.push(key.to_owned());
        self
    }

    /// Allows this run longer than the usual timeout: for the few runs that
    /// compute for many seconds on purpose (a slow CI machine runs the whole
    /// suite in parallel).
    pub fn timeout(mut self, timeout: Duration) -> Run {
        self.timeout = timeout;
        self
    }

    /// Runs the binary to completion (killing it after a generous timeout).
    #[track_caller]
    pub fn run(self) -> Output {
        let mut command = Command::new(BIN);
        command.args(&self.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        for key in STYLE_VARIABLES {
            command.env_remove(key);
        }
        for key in &self.removed {
            command.env_remove(key);
        }
        for (key, value) in &self.envs {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("the bouton binary starts");
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let input = self.stdin;
        // A separate thread so that large inputs cannot deadlock against
        // output filling its pipe. The binary may stop reading early (it quits),
        // so a failed write is fine.
        let writer = thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let stdout = reader(child.stdout.take().expect("stdout is piped"));
        let stderr = reader(child.stderr.take().expect("stderr is piped"));
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("waiting for bouton") {
                break status;
            }
            if started.elapsed() > self.timeout {
                let _ = child.kill();
                let _ = child.wait();
                panic!("bouton {:?} did not finish within {:?}", self.args, self.timeout);
            }
            thread::sleep(Duration::from_millis(2));
        };
        writer.join().expect("the stdin writer does not panic");
        let stdout = stdout.join().expect("the stdout reader does not panic");
        let stderr = stderr.join().expect("the stderr reader does not panic");
        Output {
            stdout: String::from_utf8(stdout).expect("stdout is UTF-8"),
            stderr: String::from_utf8(stderr).expect("stderr is UTF-8"),
            code: status.code(),
        }
    }
}

fn reader(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        pipe.read_to_end(&mut bytes).expect("reading the binary's output");
        bytes
    })
}

/// `bouton play --plain --delay 0 --seed 1 ARGS` with `input` on standard
/// input.
#[track_caller]
pub fn play(args: &[&str], input: &str) -> Output {
    bouton(&["play", "--plain", "--delay", "0", "--seed", "1"]).args(args).stdin(input).run()
}

/// A fresh, empty directory under the system temporary directory, removed
/// with everything in it when dropped.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// Creates a uniquely named directory.
    pub fn new() -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
        let name = format!("bouton-tests-{}-{}-{nanos}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed));
        let path = std::env::temp_dir().join(name);
        std::fs::create_dir_all(&path).expect("creating a temporary directory");
        TempDir { path }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A path inside the directory.
    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// Writes a file inside the directory and returns its path.
    pub fn write(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.join(name);
        std::fs::write(&path, contents).expect("writing a test file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The longest line of `text`, in characters, with the line itself.
pub fn widest_line(text: &str) -> (usize, &str) {
    text.lines().map(|line| (line.chars().count(), line)).max_by_key(|&(width, _)| width).unwrap_or((0, ""))
}

/// Whether `text` holds an ANSI escape sequence.
pub fn has_ansi(text: &str) -> bool {
    text.contains('\u{1b}')
}

/// Whether `text` holds box-drawing characters or token pictures.
pub fn has_drawing(text: &str) -> bool {
    text.chars().any(|c| ('\u{2500}'..='\u{257f}').contains(&c) || c == '●' || c == '○')
}

/// A move read from a transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// Who moved, as the transcript names them: "You", "I", "Player 1"...
    pub by: String,
    /// Heap number, from 1.
    pub heap: usize,
    pub take: u64,
}

/// The moves announced in a plain transcript: lines such as "I take 1 from
/// heap 3." or, after a prompt, "Player 1 takes 2 from heap 1.".
pub fn moves_in(transcript: &str) -> Vec<Played> {
    transcript.lines().filter_map(parse_move_line).collect()
}

fn parse_move_line(line: &str) -> Option<Played> {
    // Remove a prompt ("Your move: ", "Player 1, your move: ") typed after.
    let line = match line.rfind("move: ") {
        Some(at) if line[..at].ends_with("your ") || line[..at].ends_with("Your ") => &line[at + "move: ".len()..],
        _ => line,
    };
    let (by, rest) = line.split_once(" takes ").or_else(|| line.split_once(" take "))?;
    let rest = rest.strip_suffix('.')?;
    let (take, heap) = rest.split_once(" from heap ")?;
    Some(Played { by: by.to_owned(), heap: heap.parse().ok()?, take: take.parse().ok()? })
}

/// The result of a finished game in a transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// Who the transcript says took the last token.
    pub took_last: String,
    /// Who the transcript says won.
    pub winner: String,
}

/// Reads every result line ("X took the last token. Y wins!").
pub fn results_in(transcript: &str) -> Vec<GameResult> {
    transcript
        .lines()
        .filter_map(|line| {
            let (took_last, rest) = line.split_once(" took the last token")?;
            let winner = if rest.ends_with("You win!") {
                "You".to_owned()
            } else if rest.ends_with("I win.") {
                "I".to_owned()
            } else {
                let at = rest.rfind(". ")?;
                rest[at + 2..].strip_suffix(" wins!")?.to_owned()
            };
            Some(GameResult { took_last: took_last.to_owned(), winner })
        })
        .collect()
}

/// Replays the moves of a single finished game from `start`, checking that
/// the named seats alternate starting with `seats[0]`, that every move is
/// legal, and that the last one empties the board. Returns the name of whoever
/// should have won under the rules.
#[track_caller]
pub fn referee(start: &[u64], misere: bool, seats: [&str; 2], moves: &[Played]) -> String {
    let mut heaps = start.to_vec();
    assert!(!moves.is_empty(), "the game has moves");
    for (index, mv) in moves.iter().enumerate() {
        assert_eq!(mv.by, seats[index % 2], "move {} is by the wrong player: {moves:?}", index + 1);
        assert!((1..=heaps.len()).contains(&mv.heap), "move {} names a missing heap: {mv:?}", index + 1);
        let heap = &mut heaps[mv.heap - 1];
        assert!(mv.take >= 1 && mv.take <= *heap, "move {} is illegal: {mv:?} from {heap}", index + 1);
        *heap -= mv.take;
    }
    assert!(heaps.iter().all(|&h| h == 0), "the game ends with every heap empty: {heaps:?}");
    let last = (moves.len() - 1) % 2;
    let winner = if misere { 1 - last } else { last };
    seats[winner].to_owned()
}

/// The blocks of board lines ("Heap 1: 3 tokens" ...) in a plain transcript,
/// in order.
pub fn boards_in(transcript: &str) -> Vec<Vec<String>> {
    let mut boards = Vec::new();
    let mut current: Vec<String> = Vec::new();
    for line in transcript.lines() {
        if line.starts_with("Heap ") && line.contains(": ") {
            current.push(line.to_owned());
        } else if !current.is_empty() {
            boards.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        boards.push(current);
    }
    boards
}

/// The heap sizes shown on a plain board.
pub fn sizes_on(board: &[String]) -> Vec<u64> {
    board
        .iter()
        .map(|line| {
            let (_, rest) = line.split_once(": ").expect("a board line has a colon");
            let count = rest.split_whitespace().next().expect("a board line has a count");
            count.parse().unwrap_or_else(|_| panic!("bad board line {line:?}"))
        })
        .collect()
}

#[test]
fn temp_dirs_are_unique_and_removed() {
    let (a, b) = (TempDir::new(), TempDir::new());
    assert_ne!(a.path(), b.path());
    let file = a.write("file.txt", "text");
    assert!(file.exists());
    let kept = a.path().to_owned();
    drop(a);
    assert!(!kept.exists(), "the directory and its files are removed");
    assert!(b.path().is_dir());
}

#[test]
fn transcript_readers() {
    let transcript = "Heap 1: 2 tokens\nHeap 2: 1 token\nYour turn.\n\
        Your move: You take 2 from heap 1.\n`3 2` takes 2 tokens from heap 3.\n\
        I take 1 from heap 2.\nPlayer 2, your move: Player 2 takes 10 from heap 3.\n\
        I took the last token. I win.\nComputer 1 took the last token, and in misère play that loses. Computer 2 wins!\n";
    let moves = moves_in(transcript);
    let by: Vec<&str> = moves.iter().map(|m| m.by.as_str()).collect();
    assert_eq!(by, ["You", "I", "Player 2"]);
    assert_eq!((moves[2].heap, moves[2].take), (3, 10));
    let results = results_in(transcript);
    assert_eq!(results[0], GameResult { took_last: "I".into(), winner: "I".into() });
    assert_eq!(results[1], GameResult { took_last: "Computer 1".into(), winner: "Computer 2".into() });
    assert_eq!(sizes_on(&boards_in(transcript)[0]), [2, 1]);
    assert_eq!(referee(&[2, 1], false, ["You", "I"], &moves[..2]), "I");
    assert_eq!(referee(&[2, 1], true, ["You", "I"], &moves[..2]), "You");
}

/// A running `bouton serve` on a free port, killed when dropped (also when a
/// test panics). Its log goes to `server.log` beside the database.
pub struct Server {
    child: std::process::Child,
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub url: String,
    log: PathBuf,
}

impl Server {
    /// How long the server may take to print its address.
    const START_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

    /// Starts the server with the database `db`.
    pub fn start(db: &Path) -> Server {
        Server::start_with(db, &[], None)
    }

    /// Starts the server with the database `db`, more `serve` options, and
    /// at most `descriptors` open files (soft and hard limit) if given.
    pub fn start_with(db: &Path, options: &[&str], descriptors: Option<u32>) -> Server {
        use std::io::BufRead;
        let log = db.with_file_name("server.log");
        let log_file = std::fs::File::create(&log).expect("creating the server log");
        let mut command = match descriptors {
            None => std::process::Command::new(BIN),
            Some(limit) => {
                let mut shell = std::process::Command::new("sh");
                shell.args(["-c", &format!("ulimit -n {limit} && exec \"$0\" \"$@\""), BIN]);
                shell
            }
        };
        let mut child = command
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(options)
            .env("RUST_LOG", "warn")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(log_file)
            .spawn()
            .expect("bouton serve starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = std::io::BufReader::new(stdout).lines();
            let _ = sender.send(lines.next().and_then(Result::ok));
            // Keep draining so that the server never blocks on a full pipe.
            for _ in lines {}
        });
        let mut server = Server { child, url: String::new(), log };
        let line = match receiver.recv_timeout(Server::START_TIMEOUT) {
            Ok(Some(line)) => line,
            Ok(None) => panic!("bouton serve stopped without printing its address; its log:\n{}", server.log()),
            Err(_) => panic!("bouton serve did not print its address within {:?}", Server::START_TIMEOUT),
        };
        // "bouton is serving the game at http://127.0.0.1:PORT/ (database ...)"
        server.url = line
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in the server's first line: {line:?}"))
            .trim_end_matches('/')
            .to_owned();
        server
    }

    /// What the server logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Kills the server with SIGKILL: no chance to flush or clean up.
    pub fn kill(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("the killed server is reaped");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
