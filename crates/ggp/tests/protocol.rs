//! The GGP protocol over real HTTP on 127.0.0.1: the two captured matches
//! replayed byte for byte against our player, full matches between our
//! players run by our referee, and hostile requests (malformed, truncated,
//! oversized) that must get an error reply without stopping the player.

mod common;

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use bouton_ggp::protocol::Message;
use bouton_ggp::referee::{RefereeConfig, run_match};
use bouton_ggp::server::{PlayerConfig, serve};
use bouton_ggp::{Game, Prover, Strategy, Term};
use common::t;

async fn spawn_player(config: PlayerConfig) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, config));
    addr
}

/// Sends raw bytes, half-closes if asked, reads the reply to the end (as the
/// Dresden manager does): (status code, headers, body).
fn exchange(addr: SocketAddr, bytes: &[u8], close_write: bool) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    // The peer may answer (and close) before reading everything.
    let _ = s.write_all(bytes);
    if close_write {
        let _ = s.shutdown(Shutdown::Write);
    }
    let mut reply = Vec::new();
    let _ = s.read_to_end(&mut reply);
    let reply = String::from_utf8_lossy(&reply).into_owned();
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no HTTP reply: {reply:?}"));
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_string(), body.to_string())
}

async fn exchange_async(addr: SocketAddr, bytes: Vec<u8>, close_write: bool) -> (u16, String, String) {
    tokio::task::spawn_blocking(move || exchange(addr, &bytes, close_write)).await.unwrap()
}

fn post(body: &str) -> Vec<u8> {
    format!("POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// The exchanges of a capture: (player, raw request, recorded reply body).
fn capture(text: &str) -> Vec<(usize, Vec<u8>, String)> {
    let mut out = Vec::new();
    let mut blocks = text.split("=== to player ").skip(1);
    for block in blocks.by_ref() {
        let (player, rest) = block.split_once(" REQUEST\n").unwrap();
        let (request, response) = rest.split_once("=== RESPONSE\n").unwrap();
        // Each section ends with the separator's newline.
        let request = request.strip_suffix('\n').unwrap();
        let reply_body = response.split_once("\r\n\r\n").unwrap().1.trim_end_matches('\n').to_string();
        out.push((player.parse().unwrap(), request.as_bytes().to_vec(), reply_body));
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replays_the_ggp_base_capture() {
    replay("ggp-base-server-nim1-match.txt", false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replays_the_dresden_capture() {
    replay("dresden-gamecontroller-nim1-match.txt", true).await;
}

/// Replays a capture against two fresh players and checks every reply: the
/// same status and framing, `ready`/`done` as the reference player said,
/// and for PLAY a legal move (checked with the prover on the recorded moves),
/// spelled in the manager's letter case, sent within the play clock.
async fn replay(file: &str, upper_case: bool) {
    let Some(dir) = common::gdl_dir() else { return };
    let text = common::read(&dir.join("wire").join(file));
    let exchanges = capture(&text);
    assert!(exchanges.len() > 10);
    let players = [spawn_player(PlayerConfig::default()).await, spawn_player(PlayerConfig::default()).await];
    // Each player's own view: prover, state, its role, the steps it has seen.
    let mut views: Vec<Option<(Prover, bouton_ggp::ProverState, usize)>> = vec![None, None];
    for (player, request, recorded) in exchanges {
        let body = String::from_utf8_lossy(&request).split_once("\r\n\r\n").unwrap().1.to_string();
        let message = Message::parse(&body).unwrap();
        let started = Instant::now();
        let (status, head, reply) = exchange_async(players[player], request.clone(), false).await;
        assert_eq!(status, 200, "{file}: {body}");
        assert!(head.to_ascii_lowercase().contains("content-type: text/acl"), "{head}");
        assert!(head.to_ascii_lowercase().contains(&format!("content-length: {}", reply.len())), "{head}");
        match message {
            Message::Start { role, rules, .. } => {
                assert_eq!(reply, recorded);
                assert_eq!(reply, "ready");
                let mut p = Prover::new(&Game::from_sexps(&rules).unwrap());
                let s = p.initial_state();
                let index = p.roles().iter().position(|r| *r == role).unwrap();
                views[player] = Some((p, s, index));
            }
            Message::Play { moves, .. } => {
                let (p, s, role) = views[player].as_mut().unwrap();
                if let Some(moves) = &moves {
                    *s = p.next_state(s, moves);
                }
                let legal = p.inspect(s).legal[*role].clone();
                let mv: Term = reply.parse().unwrap();
                assert!(legal.contains(&mv), "{file}: {reply} is not legal among {legal:?}");
                if legal.len() == 1 {
                    assert_eq!(mv, recorded.parse::<Term>().unwrap(), "{file}: the only move");
                }
                assert_eq!(reply == reply.to_uppercase(), upper_case, "{file}: letter case of {reply}");
                assert!(started.elapsed() < Duration::from_secs(2), "{file}: answered within the play clock");
            }
            Message::Stop { .. } => assert_eq!(reply, "done"),
            other => panic!("unexpected message {other:?}"),
        }
    }
}

fn referee_config(id: &str, start: u64, play_ms: u64) -> RefereeConfig {
    RefereeConfig {
        match_id: id.into(),
        start_clock: Duration::from_secs(start),
        play_clock: Duration::from_millis(play_ms),
        grace: Duration::from_millis(500),
        seed: 3,
        max_steps: 1000,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn referee_runs_full_matches_between_our_players_over_http() {
    let Some(dir) = common::gdl_dir() else { return };
    let a = spawn_player(PlayerConfig::default()).await.to_string();
    let b = spawn_player(PlayerConfig::default()).await.to_string();

    // nim1 is a first-player win: perfect play must realise it.
    let nim1 = common::game(&dir.join("nim1.kif"));
    let mut steps = 0;
    let record =
        run_match(&nim1, &[a.clone(), format!("http://{b}/")], &referee_config("nim1-match", 3, 1000), &mut |_| {
            steps += 1
        })
        .await
        .unwrap();
    assert_eq!(record.replacements(), vec![0, 0], "{record}");
    assert_eq!(record.goals, vec![Some(100), Some(0)], "{record}");
    assert_eq!(steps, record.steps.len());
    assert_eq!(record.steps[0].moves, vec![t("(reduce d 0)"), t("noop")], "the only winning first move");

    // Tic-tac-toe between perfect players is a draw; the same players are
    // free again for the next match.
    let ttt = common::game(&dir.join("ticTacToe.kif"));
    let record =
        run_match(&ttt, &[b.clone(), a.clone()], &referee_config("ttt-match", 3, 1000), &mut |_| {}).await.unwrap();
    assert_eq!(record.replacements(), vec![0, 0], "{record}");
    assert_eq!(record.goals, vec![Some(50), Some(50)], "{record}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn our_player_beats_a_random_player_and_late_moves_are_replaced() {
    let Some(dir) = common::gdl_dir() else { return };
    let best = spawn_player(PlayerConfig::default()).await.to_string();
    let random = spawn_player(PlayerConfig { strategy: Strategy::Random, ..PlayerConfig::default() }).await.to_string();
    let nim3 = common::game(&dir.join("nim3.kif"));
    let record = run_match(&nim3, &[best.clone(), random.clone()], &referee_config("vs-random", 5, 1000), &mut |_| {})
        .await
        .unwrap();
    assert_eq!(record.goals, vec![Some(100), Some(0)], "{record}");
    assert_eq!(record.replacements(), vec![0, 0]);

    // A player that never answers: every one of its moves is replaced (and
    // recorded), and the match still ends.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let silent_addr = silent.local_addr().unwrap().to_string();
    tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((s, _)) = silent.accept().await {
            open.push(s);
        }
    });
    // nim1 is a first-player win, solved at the start clock: `best` plays
    // the solver's proven moves and wins, busy machine or not. (It twice lost this match beside heavy
    // compilations: the referee wrote the 500 ms play clock as `0` — whole
    // seconds, rounded down — so `best`, told it had no time, gave up
    // thinking at once and sent its first legal move.)
    let nim1 = common::game(&dir.join("nim1.kif"));
    let config = RefereeConfig { grace: Duration::from_millis(100), ..referee_config("vs-silent", 3, 500) };
    let record = run_match(&nim1, &[best, silent_addr], &config, &mut |_| {}).await.unwrap();
    assert_eq!(record.replacements()[0], 0);
    assert_eq!(record.replacements()[1], record.steps.len());
    assert!(record.steps.iter().all(|s| s.replaced[1] == Some(bouton_ggp::Replacement::Late)));
    assert_eq!(record.goals, vec![Some(100), Some(0)], "{record}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_requests_get_error_replies_and_never_stop_the_player() {
    let config =
        PlayerConfig { max_message: 64 * 1024, read_timeout: Duration::from_millis(700), ..PlayerConfig::default() };
    let addr = spawn_player(config).await;
    let check = |(status, _, body): (u16, String, String), expected: u16, what: &str| {
        assert_eq!(status, expected, "{what}: {body}");
        assert!(body.starts_with("error"), "{what}: {body}");
    };
    // Malformed.
    check(exchange_async(addr, post("(PLAY"), false).await, 400, "unbalanced");
    check(exchange_async(addr, post("(DANCE now)"), false).await, 400, "unknown message");
    check(exchange_async(addr, post("(START m r)"), false).await, 400, "malformed START");
    check(exchange_async(addr, post(&"(".repeat(20_000)), false).await, 400, "deep nesting");
    check(exchange_async(addr, b"hello\r\n\r\n".to_vec(), false).await, 400, "not HTTP");
    check(exchange_async(addr, b"\xff\xfe garbage \r\n\r\n".to_vec(), false).await, 400, "binary");
    let mut bad_utf8 = b"POST / HTTP/1.0\r\nContent-Length: 4\r\n\r\n".to_vec();
    bad_utf8.extend_from_slice(&[0xff, 0xfe, 0xfd, 0xfc]);
    check(exchange_async(addr, bad_utf8, false).await, 400, "body not UTF-8");
    check(exchange_async(addr, post("(PLAY nosuchmatch NIL)"), false).await, 400, "unknown match");
    // Truncated: less body than announced, then the end of the connection…
    let truncated = b"POST / HTTP/1.0\r\nContent-Length: 100\r\n\r\n(INFO".to_vec();
    check(exchange_async(addr, truncated.clone(), true).await, 400, "truncated");
    // …or silence: answered when the read timeout passes.
    check(exchange_async(addr, truncated, false).await, 408, "stalled");
    // Headers cut short.
    check(exchange_async(addr, b"POST / HTTP/1.0\r\nContent-Le".to_vec(), true).await, 400, "cut headers");
    // Oversized: announced…
    let huge = b"POST / HTTP/1.0\r\nContent-Length: 100000000\r\n\r\n(INFO)".to_vec();
    check(exchange_async(addr, huge, false).await, 413, "announced oversize");
    // …or sent without a length.
    let mut flood = b"POST / HTTP/1.0\r\n\r\n(".to_vec();
    flood.extend(std::iter::repeat_n(b'a', 200 * 1024));
    check(exchange_async(addr, flood, true).await, 413, "streamed oversize");
    check(exchange_async(addr, post(&format!("({})", "x ".repeat(40_000))), false).await, 413, "body over the limit");

    // Still alive and well: INFO, and a whole match.
    let (status, _, body) = exchange_async(addr, post("(INFO)"), false).await;
    assert_eq!((status, body.as_str()), (200, "((name bouton) (status available))"));
    let Some(dir) = common::gdl_dir() else { return };
    let nim1 = common::game(&dir.join("nim1.kif"));
    let record = run_match(&nim1, &[addr.to_string(), addr.to_string()], &referee_config("self", 2, 500), &mut |_| {})
        .await
        .unwrap();
    // (One player given both roles takes the second START as a repeat of
    // the first and answers every PLAY for its first role: the other role's
    // moves get replaced. The point here is that the match completes.)
    assert_eq!(record.goals.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn busy_during_a_match_and_free_after() {
    let addr = spawn_player(PlayerConfig::default()).await;
    let start = |id: &str| {
        post(&format!(
            "(START {id} robot ((role robot) (init p) (legal robot a) (<= (next q) (true p)) (<= terminal (true q)) (goal robot 100)) 2 1)"
        ))
    };
    let (_, _, r) = exchange_async(addr, start("m1"), false).await;
    assert_eq!(r, "ready");
    let (_, _, r) = exchange_async(addr, start("m1"), false).await;
    assert_eq!(r, "ready", "a repeated START of the same match");
    let (_, _, r) = exchange_async(addr, start("m2"), false).await;
    assert_eq!(r, "busy");
    let (_, _, r) = exchange_async(addr, post("(info)"), false).await;
    assert_eq!(r, "((name bouton) (status busy))");
    let (_, _, r) = exchange_async(addr, post("(play m1 nil)"), false).await;
    assert_eq!(r, "a");
    let (_, _, r) = exchange_async(addr, post("(abort m1)"), false).await;
    assert_eq!(r, "aborted");
    let (_, _, r) = exchange_async(addr, start("m2"), false).await;
    assert_eq!(r, "ready");
    let (_, _, r) = exchange_async(addr, post("(stop m2 (a))"), false).await;
    assert_eq!(r, "done");
    let (status, _, r) = exchange_async(addr, b"OPTIONS / HTTP/1.0\r\n\r\n".to_vec(), false).await;
    assert_eq!((status, r.as_str()), (200, ""));
    let (_, _, r) = exchange_async(addr, post("(preview ((role r)) 10)"), false).await;
    assert_eq!(r, "ready");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_before_the_play_clock_in_a_game_it_cannot_solve() {
    let Some(dir) = common::gdl_dir() else { return };
    let addr = spawn_player(PlayerConfig::default()).await;
    let rules = common::read(&dir.join("connectFour.kif"));
    let game = Game::parse(&rules).unwrap();
    // A 3 s play clock: the player answers 450 ms before it, room enough
    // for a test machine busy with other tests.
    let start = format!("(START c4 red ({}) 2 3)", game.to_kif().replace('\n', " "));
    let (_, _, r) = exchange_async(addr, post(&start), false).await;
    assert_eq!(r, "ready");
    let mut prover = Prover::new(&game);
    let mut state = prover.initial_state();
    let mut previous: Option<Vec<Term>> = None;
    for _ in 0..2 {
        let message = Message::Play { id: "c4".into(), moves: previous.clone() }.to_string();
        if let Some(moves) = &previous {
            state = prover.next_state(&state, moves);
        }
        let started = Instant::now();
        let (status, _, reply) = exchange_async(addr, post(&message), false).await;
        let took = started.elapsed();
        assert_eq!(status, 200);
        assert!(took < Duration::from_secs(3), "answered in {took:?} with a 3 s play clock");
        assert!(took > Duration::from_secs(1), "it used its time to think ({took:?})");
        let legal = prover.inspect(&state).legal;
        let mv: Term = reply.parse().unwrap();
        assert!(legal[0].contains(&mv), "{reply}");
        // Black answers its first legal move.
        previous = Some(vec![mv, legal[1][0].clone()]);
        let _ = &legal;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_prover_fallback_plays_legal_moves() {
    let Some(dir) = common::gdl_dir() else { return };
    let fallback = spawn_player(PlayerConfig { prover_only: true, ..PlayerConfig::default() }).await.to_string();
    let best = spawn_player(PlayerConfig::default()).await.to_string();
    for (file, players) in
        [("nim1.kif", [fallback.clone(), best.clone()]), ("ticTacToe.kif", [best.clone(), fallback.clone()])]
    {
        let game = common::game(&dir.join(file));
        let record = run_match(&game, &players, &referee_config(file, 2, 1000), &mut |_| {}).await.unwrap();
        assert_eq!(record.replacements(), vec![0, 0], "{file}: {record}");
        assert!(record.finished);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_for_a_role_not_in_the_game_is_refused_and_leaves_the_player_free() {
    let addr = spawn_player(PlayerConfig::default()).await;
    let rules =
        "((role robot) (init p) (legal robot a) (<= (next q) (true p)) (<= terminal (true q)) (goal robot 100))";
    let (status, _, body) = exchange_async(addr, post(&format!("(START m ghost {rules} 2 1)")), false).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("no role ghost"), "{body}");
    let (_, _, body) = exchange_async(addr, post("(INFO)"), false).await;
    assert_eq!(body, "((name bouton) (status available))");
    let (_, _, body) = exchange_async(addr, post(&format!("(START m2 ROBOT {rules} 2 1)")), false).await;
    assert_eq!(body, "ready", "roles match whatever their letter case");
}

/// The repository's own copies of competition games (`tests/games`).
fn repository_game(name: &str) -> Game {
    common::game(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games").join(name))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chess_and_checkers_get_a_legal_move_before_every_clock_over_http() {
    // One player reasons with the reference prover only (the fallback for a
    // game still compiling); the other as it would in a competition.
    let prover = spawn_player(PlayerConfig { prover_only: true, ..PlayerConfig::default() }).await.to_string();
    let best = spawn_player(PlayerConfig::default()).await.to_string();
    // Each kind of player on each side once.
    for (file, players) in [("chess.kif", [prover.clone(), best.clone()]), ("checkers.kif", [best, prover])] {
        let game = repository_game(file);
        let config = RefereeConfig { max_steps: 4, ..referee_config(file, 5, 3000) };
        let record = run_match(&game, &players, &config, &mut |_| {}).await.unwrap();
        assert_eq!(record.steps.len(), 4, "{file}: {record}");
        assert_eq!(record.replacements(), vec![0, 0], "{file}: every move legal and in time\n{record}");
    }
}
