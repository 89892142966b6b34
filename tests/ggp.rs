//! `bouton ggp`: the General Game Playing commands, run as a user runs them —
//! check a rule sheet, play a local match (against the terminal too), serve
//! players and referee a match between them over HTTP.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_bouton");

struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

fn bouton(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child.stdin.take().expect("piped").write_all(stdin.as_bytes()).expect("stdin is writable");
    let started = Instant::now();
    loop {
        if child.try_wait().expect("the child can be waited for").is_some() {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "bouton {args:?} took over a minute");
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output is readable");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code(),
    }
}

fn own_game(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/ggp/games").join(name).display().to_string()
}

/// `../shared/gdl`; missing: a failure under CI, else the test is skipped.
fn shared(name: &str) -> Option<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/gdl");
    if dir.is_dir() {
        return Some(dir.join(name).display().to_string());
    }
    assert!(std::env::var_os("CI").is_none(), "the shared GDL data is missing at {}", dir.display());
    eprintln!("notice: {} is missing; skipping this test", dir.display());
    None
}

#[test]
fn check_reports_roles_moves_and_the_solved_outcome() {
    let run = bouton(&["ggp", "check", &own_game("nim5.kif")], "");
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("valid GDL (") && run.stdout.contains("0 errors"), "{}", run.stdout);
    assert!(run.stdout.contains("alpha (25): "), "{}", run.stdout);
    assert!(run.stdout.contains("omega (1): pass"), "{}", run.stdout);
    // 3 xor 4 xor 5 xor 6 xor 7 = 3: the first player wins, by leaving a
    // nim-sum of 0 — taking 3 from the pile of 3, 1 from the 6 or 3 from the 7.
    assert!(
        run.stdout.contains("each role can guarantee, whatever the others do: alpha 100, omega 0"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("best first moves of alpha: (remove p1 three) (remove p4 one) (remove p5 three)\n"),
        "{}",
        run.stdout
    );
    let Some(nim1) = shared("nim1.kif") else { return };
    let run = bouton(&["ggp", "check", &nim1], "");
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.contains("best first moves of player1: (reduce d 0)\n"), "{}", run.stdout);
}

#[test]
fn check_lists_errors_and_fails_on_invalid_gdl() {
    let dir = std::env::temp_dir().join(format!("bouton-ggp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("unsafe.kif");
    std::fs::write(&bad, "(role r) (<= (legal r ?m) (true (c ?x))) (<= terminal (true d)) (goal r 100)").unwrap();
    let run = bouton(&["ggp", "check", &bad.display().to_string()], "");
    assert_eq!(run.code, Some(1));
    assert!(run.stdout.contains("error: unsafe rule"), "{}", run.stdout);
    assert!(run.stderr.starts_with("bouton: ") && run.stderr.contains("not valid GDL"), "{}", run.stderr);
    let broken = dir.join("broken.kif");
    std::fs::write(&broken, "(role r) (init (p)").unwrap();
    let run = bouton(&["ggp", "check", &broken.display().to_string()], "");
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("never closed"), "{}", run.stderr);
    let run = bouton(&["ggp", "check", &dir.join("missing.kif").display().to_string()], "");
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_a_local_match_between_built_in_players() {
    let run = bouton(&["ggp", "play", &own_game("nim5.kif"), "--players", "best,random", "--play-clock", "0.2"], "");
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.starts_with("   1. (remove "), "{}", run.stdout);
    assert!(run.stdout.ends_with("alpha: best, omega: random\ngoals: alpha 100, omega 0\n"), "{}", run.stdout);
}

#[test]
fn play_against_a_person_at_the_terminal() {
    // Take the whole 7 pile by typing the move, then give up.
    let run = bouton(
        &["ggp", "play", &own_game("nim5.kif"), "--players", "human,best", "--play-clock", "0.2"],
        "(remove p5 nine)\n(remove p5 seven)\nquit\n",
    );
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("not a legal move"), "{}", run.stdout);
    assert!(run.stdout.contains("   1. (remove p5 seven) pass\n"), "{}", run.stdout);
    // Our Nim defines goals in every state: the player to move has 0.
    assert!(run.stdout.ends_with("abandoned; goals now: alpha 0, omega 100\n"), "{}", run.stdout);
    let run = bouton(&["ggp", "play", &own_game("nim5.kif"), "--players", "best,best,best"], "");
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("2 roles"), "{}", run.stderr);
}

struct Server(Child, String);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `bouton ggp serve` on a free port; its address.
fn serve(strategy: &str) -> Server {
    let mut child = Command::new(BIN)
        .args(["ggp", "serve", "--port", "0", "--quiet", "--strategy", strategy])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped")).read_line(&mut line).expect("the server prints its address");
    let address = line.trim().rsplit(' ').next().expect("an address").to_string();
    assert!(address.starts_with("http://127.0.0.1:"), "{line}");
    Server(child, address)
}

#[test]
fn referee_a_match_between_served_players() {
    let (best, random) = (serve("best"), serve("random"));
    let run = bouton(
        &[
            "ggp",
            "referee",
            &own_game("nim5.kif"),
            "--player",
            &best.1,
            "--player",
            &random.1,
            "--start-clock",
            "3",
            "--play-clock",
            "1",
        ],
        "",
    );
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.ends_with("goals: alpha 100, omega 0\n"), "{}", run.stdout);
    assert!(!run.stdout.contains("replaced"), "{}", run.stdout);
    let run = bouton(&["ggp", "referee", &own_game("nim5.kif"), "--player", &best.1], "");
    assert_eq!(run.code, Some(2), "{}", run.stderr);
}
