//! Games of every rule set through the API: creating, moving by text,
//! the computer's replies, hints, analysis, review and statistics.

use bouton_games::{AnyRules, Budget, Exhaustive, HeapGame, HeapRules, RuleSet};
use bouton_rules::{Convention, Heaps, Rules};
use serde_json::{Value, json};

use super::common::Api;

/// The position of a view, as the library reads it.
fn position_of(game: &Value) -> Vec<u64> {
    game["heaps"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect()
}

/// The library's rules of a view.
fn rules_of(game: &Value) -> AnyRules {
    let convention = if game["misere"].as_bool().unwrap() { Convention::Misere } else { Convention::Normal };
    AnyRules::parse(game["rules"]["id"].as_str().unwrap(), convention).unwrap()
}

async fn play_text(api: &Api, id: &str, token: &str, text: &str, ply: u64) -> super::common::Reply {
    api.post(&format!("/api/games/{id}/moves"), Some(token), json!({"move": text, "ply": ply})).await
}

/// Whether the player to move loses Kayles from `heaps`, by an exhaustive
/// search of the game tree: an oracle independent of Grundy values.
fn kayles_lost(heaps: &[u64], convention: Convention) -> bool {
    let mut search = Exhaustive::new(HeapRules::new(HeapGame::kayles(), convention), Budget::new(100_000_000, 1 << 30));
    search.value(&Heaps::new(heaps.to_vec()).unwrap()).unwrap() == 0
}

#[tokio::test]
async fn the_catalogue_lists_every_rule_set_and_each_starts_a_game() {
    let api = Api::new();
    let catalogue = api.get("/api/rules").await.expect(200);
    let entries = catalogue["rules"].as_array().unwrap();
    assert_eq!(entries.len(), RuleSet::examples().len());
    assert_eq!(entries[0]["id"], "nim");
    for entry in entries {
        let id = entry["id"].as_str().unwrap();
        let (_, _, game) = api.create(json!({"rules": id, "mode": "local"})).await;
        assert_eq!(game["rules"]["id"], id);
        assert_eq!(game["start"], entry["start"], "{id} starts from its catalogue start");
        assert_eq!(game["rules"]["kind"], entry["kind"]);
        assert_eq!(game["board"]["kind"], entry["kind"]);
        assert_eq!(game["ply"], 0);
    }
}

/// The page writes no limit or level itself: it takes them from the catalogue,
/// which must say what the server enforces.
#[tokio::test]
async fn the_catalogue_gives_the_limits_and_levels_the_server_enforces() {
    let api = Api::new();
    let catalogue = api.get("/api/rules").await.expect(200);
    let limits = &catalogue["limits"];
    let (parts, largest) = (limits["most_parts"].as_u64().unwrap(), limits["largest_number"].as_u64().unwrap());
    let heaps =
        |count: u64, size: u64| json!({"rules": "kayles", "position": vec![size; count as usize], "mode": "local"});
    api.post("/api/games", None, heaps(parts, largest)).await.expect(201);
    api.post("/api/games", None, heaps(parts + 1, 1)).await.expect_error(422, "heaps");
    api.post("/api/games", None, heaps(1, largest + 1)).await.expect_error(400, "50");
    let wide = limits["widest_row"].as_u64().unwrap();
    let row = |width: u64| json!({"rules": "northcott", "position": [width, 1, width], "mode": "local"});
    api.post("/api/games", None, row(wide)).await.expect(201);
    api.post("/api/games", None, row(wide + 1)).await.expect_error(422, "wide");

    let levels: Vec<&str> = catalogue["levels"].as_array().unwrap().iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert_eq!(levels, ["random", "beginner", "easy", "medium", "hard", "perfect"]);
    for level in &levels {
        api.create(json!({"mode": "computer", "level": level})).await;
    }
    let (_, _, game) = api.create(json!({"mode": "computer"})).await;
    assert_eq!(game["level"], catalogue["default_level"], "a game without a level gets the catalogue's default");
    let takes: Vec<&str> = catalogue["rules"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["takes"] == false)
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(takes, ["grundy"], "only Grundy's game never takes tokens");
}

#[tokio::test]
async fn kayles_is_played_by_text_and_the_perfect_computer_leaves_lost_positions() {
    let api = Api::new();
    let (id, token, game) = api.create(json!({"rules": "kayles", "position": [7, 11], "level": "perfect"})).await;
    assert_eq!(game["board"], json!({"kind": "heaps", "heaps": [7, 11]}));
    assert_eq!(game["rules"]["runs"], true);
    assert_eq!(game["rules"]["splits"], false);
    // Knock down pin 4 of the row of 7: rows of 3 and 3 (and the 11).
    let game = play_text(&api, &id, &token, "1 1 3", 0).await.expect(200);
    assert_eq!(game["moves"][0]["text"], "1:1:3");
    assert_eq!(game["moves"][0]["description"], "take 1 from heap 1, leaving 3 and 3");
    assert_eq!(game["moves"][0]["after"], "3 11 3");
    assert_eq!(game["ply"], 2, "the computer replied");
    // Play on with the hint's suggestion or any move; whenever the computer
    // moved from a won position it left a lost one, by exhaustive search.
    let mut game = game;
    while !game["over"].as_bool().unwrap() {
        let heaps = position_of(&game);
        let hint = api.get(&format!("/api/games/{id}/hint")).await.expect(200);
        assert_eq!(hint["winner"] == "opponent", kayles_lost(&heaps, Convention::Normal), "hint at {heaps:?}: {hint}");
        let mv = hint["suggestion"]["text"].as_str().unwrap().to_owned();
        let before_computer = {
            let rules = rules_of(&game);
            let mut position = rules.position(&heaps).unwrap();
            rules.apply(&mut position, rules.parse_move(&mv).unwrap());
            rules.numbers(&position)
        };
        game = play_text(&api, &id, &token, &mv, game["ply"].as_u64().unwrap()).await.expect(200);
        if !game["over"].as_bool().unwrap() && !kayles_lost(&before_computer, Convention::Normal) {
            assert!(
                kayles_lost(&position_of(&game), Convention::Normal),
                "the computer erred from {before_computer:?}"
            );
        }
    }
    // Both sides played perfectly after our first move: whoever it left a
    // lost position to lost.
    assert_eq!(game["winner"] == "first", kayles_lost(&[3, 11, 3], Convention::Normal));
}

#[tokio::test]
async fn every_rule_set_answers_its_own_move_text_and_refuses_bad_moves() {
    let api = Api::new();
    // (rules, start, a legal move, the position after it, an illegal move)
    let cases = [
        ("wythoff", vec![7, 10], "1 3 3", vec![4, 7], "1 2 3"),
        ("staircase", vec![3, 0, 5, 2], "3 2", vec![3, 2, 3, 2], "2 1"),
        ("northcott", vec![8, 1, 6], "1 3", vec![8, 3, 6], "1 7"),
        ("fibonacci", vec![20], "3", vec![17, 6], "20"),
        ("grundy", vec![10, 13], "1 0 3", vec![3, 13, 7], "1 0 5"),
        ("moore:2", vec![3, 5, 7], "1 1 3 2", vec![2, 5, 5], "1 1 2 1 3 1"),
        ("subtraction:2,3,7", vec![10, 15, 20], "2 7", vec![10, 8, 20], "2 4"),
        ("lasker", vec![3, 5, 7], "3 0 2", vec![3, 5, 2, 5], "3 0 9"),
        ("octal:0.137", vec![7, 11], "1 3", vec![4, 11], "1 1"),
    ];
    for (rules, start, legal, after, illegal) in cases {
        let (id, token, created) = api.create(json!({"rules": rules, "position": start, "mode": "local"})).await;
        let moves = format!("/api/games/{id}/moves");
        // `heap` and `take` mean the text `HEAP AMOUNT` on a board of heaps
        // (here an illegal move); elsewhere the move must come as text.
        let heap_and_take = if created["rules"]["kind"] == "heaps" { "" } else { "as text" };
        api.post(&moves, Some(&token), json!({"move": illegal, "ply": 0})).await.expect_error(422, "");
        api.post(&moves, Some(&token), json!({"move": "x", "ply": 0})).await.expect_error(422, "\"x\"");
        api.post(&moves, Some(&token), json!({"heap": 1, "take": 99, "ply": 0})).await.expect_error(422, heap_and_take);
        api.post(&moves, Some(&token), json!({"ply": 0})).await.expect_error(400, "move");
        let unchanged = api.get(&format!("/api/games/{id}")).await.expect(200);
        assert_eq!(unchanged["ply"], 0, "{rules}: a refused move changes nothing");
        let game = play_text(&api, &id, &token, legal, 0).await.expect(200);
        assert_eq!(position_of(&game), after, "{rules}: {legal}");
        assert_eq!(game["to_move"], "second");
    }
}

#[tokio::test]
async fn the_board_shows_each_kind_of_position() {
    let api = Api::new();
    let (id, token, game) =
        api.create(json!({"rules": "northcott", "position": [8, 1, 6, 5, 5, 1], "mode": "local"})).await;
    assert_eq!(
        game["board"],
        json!({"kind": "rows", "white_to_move": true, "rows": [{"width": 8, "white": 1, "black": 6}, {"width": 5, "white": 5, "black": 1}]})
    );
    let game = play_text(&api, &id, &token, "2 3", 0).await.expect(200);
    assert_eq!(game["board"]["white_to_move"], false);
    assert_eq!(game["board"]["rows"][1], json!({"width": 5, "white": 3, "black": 1}));
    assert_eq!(game["moves"][0]["description"], "move White in row 2 to column 3, leaving a gap of 1");
    let (_, _, game) = api.create(json!({"rules": "wythoff", "position": [3, 5, 2, 7], "mode": "local"})).await;
    assert_eq!(game["board"], json!({"kind": "pairs", "pairs": [[3, 5], [2, 7]]}));
    let (_, _, game) = api.create(json!({"rules": "fibonacci", "position": [20], "mode": "local"})).await;
    assert_eq!(game["board"], json!({"kind": "fibonacci", "heap": 20, "max_take": 19}));
    let (_, _, game) = api.create(json!({"rules": "staircase", "mode": "local"})).await;
    assert_eq!(game["board"], json!({"kind": "stairs", "steps": [3, 0, 5, 2]}));
    assert_eq!(game["rule"], "whoever makes the last move wins");
}

#[tokio::test]
async fn bad_rule_sets_and_positions_are_refused_with_the_reason() {
    let api = Api::new();
    api.post("/api/games", None, json!({"rules": "chess"})).await.expect_error(422, "unknown rule set");
    api.post("/api/games", None, json!({"rules": "subtraction:0"})).await.expect_error(422, "amounts");
    api.post("/api/games", None, json!({"rules": "kayles", "position": [51]})).await.expect_error(400, "at most 50");
    api.post("/api/games", None, json!({"rules": "wythoff", "position": vec![1; 26]})).await.expect_error(422, "pairs");
    api.post("/api/games", None, json!({"rules": "wythoff", "position": [1, 2, 3]})).await.expect_error(422, "pair");
    api.post("/api/games", None, json!({"rules": "northcott", "position": [30, 1, 2]}))
        .await
        .expect_error(422, "20 squares");
    api.post("/api/games", None, json!({"rules": "northcott", "position": [8, 1]}))
        .await
        .expect_error(422, "three numbers");
    api.post("/api/games", None, json!({"rules": "fibonacci", "position": [1]})).await.expect_error(422, "at least 2");
    api.post("/api/games", None, json!({"rules": "grundy", "position": [2, 1]})).await.expect_error(422, "over");
    api.post("/api/games", None, json!({"rules": "kayles", "heaps": [3], "position": [3]}))
        .await
        .expect_error(400, "not both");
}

#[tokio::test]
async fn analysis_of_a_game_and_of_a_position_agree_with_the_library() {
    let api = Api::new();
    let (id, _, _) = api.create(json!({"rules": "kayles", "position": [7, 11], "mode": "local"})).await;
    let analysis = api.get(&format!("/api/games/{id}/analysis")).await.expect(200);
    let stateless = api.get("/api/analyze?rules=kayles&position=7,11").await.expect(200);
    assert_eq!(analysis, stateless);
    assert_eq!(analysis["total"], 2 ^ 6, "Kayles values: G(7) = 2, G(11) = 6");
    assert_eq!(analysis["components"], json!([{"label": "heap 1", "value": 2}, {"label": "heap 2", "value": 6}]));
    assert_eq!(analysis["method"], "grundy-values");
    let moves = analysis["moves"].as_array().unwrap();
    let rules = AnyRules::parse("kayles", Convention::Normal).unwrap();
    let start = rules.position(&[7, 11]).unwrap();
    assert_eq!(moves.len(), rules.legal_moves(&start).count());
    for option in moves {
        let mut after = start.clone();
        rules.apply(&mut after, rules.parse_move(option["text"].as_str().unwrap()).unwrap());
        let lost = kayles_lost(&rules.numbers(&after), Convention::Normal);
        assert_eq!(option["wins"], lost, "{option}");
        assert_eq!(option["value"] == 0, lost, "{option}");
    }
    let winning: Vec<&Value> = moves.iter().filter(|m| m["wins"] == true).collect();
    assert_eq!(analysis["winning_moves"].as_array().unwrap().len(), winning.len());
    // Misère Kayles by exhaustive search; too large a position is refused
    // plainly.
    let (id, _, _) = api.create(json!({"rules": "kayles", "position": [7, 11], "misere": true, "mode": "local"})).await;
    let hint = api.get(&format!("/api/games/{id}/hint")).await.expect(200);
    assert_eq!(hint["nim_sum"], Value::Null, "a misère search's value is not a Grundy value");
    assert_eq!(hint["winner"] == "opponent", kayles_lost(&[7, 11], Convention::Misere));
    let misere = api.get("/api/analyze?rules=kayles&position=7,11&misere=true").await.expect(200);
    assert_eq!(misere["winner"] == "opponent", kayles_lost(&[7, 11], Convention::Misere));
    api.get("/api/analyze?rules=kayles&position=40,45,50&misere=true").await.expect_error(422, "not available");
    api.get("/api/analyze?rules=kayles&position=60").await.expect_error(422, "at most 50");
    api.get("/api/analyze?rules=nope&position=1").await.expect_error(422, "unknown rule set");
}

#[tokio::test]
async fn misere_games_without_a_theory_say_so_and_still_play() {
    let api = Api::new();
    let (id, token, game) =
        api.create(json!({"rules": "kayles", "position": [40, 45, 50], "misere": true, "level": "perfect"})).await;
    assert_eq!(game["rules"]["title"], "Kayles (0.77), misère play");
    let hint = api.get(&format!("/api/games/{id}/hint")).await.expect(200);
    assert_eq!(hint["winner"], Value::Null);
    assert!(hint["unavailable"].as_str().unwrap().contains("analysis not available"), "{hint}");
    let game = play_text(&api, &id, &token, "1 2", 0).await.expect(200);
    assert_eq!(game["ply"], 2, "the computer still moves");
    // Small misère positions are searched. A row of 3, we knock down the
    // end pin: facing a row of 2, the perfect computer knocks down one pin
    // (not both, which would be the last move) and leaves us the last.
    assert!(!kayles_lost(&[2], Convention::Misere));
    let (id, token, _) =
        api.create(json!({"rules": "kayles", "position": [3], "misere": true, "level": "perfect"})).await;
    let game = play_text(&api, &id, &token, "1 1", 0).await.expect(200);
    assert_eq!(position_of(&game), vec![1]);
    let game = play_text(&api, &id, &token, "1 1", 2).await.expect(200);
    assert_eq!(game["over"], true);
    assert_eq!(game["winner"], "second");
}

#[tokio::test]
async fn review_finds_mistakes_in_other_rule_sets() {
    let api = Api::new();
    // Wythoff's lost pairs are (0, 0), (1, 2), (3, 5), (4, 7), (6, 10), …
    // From (7, 10) the winning moves go to (6, 10), (4, 7) and (7, 4);
    // (7, 9) is a mistake.
    let (id, token, _) = api.create(json!({"rules": "wythoff", "position": [7, 10], "mode": "local"})).await;
    play_text(&api, &id, &token, "1 0 1", 0).await.expect(200);
    // Both play perfectly from there on: the second player wins.
    assert_eq!(api.finish_with_hints(&id, &token).await["winner"], "second");
    let review = api.get(&format!("/api/games/{id}/review")).await.expect(200);
    assert_eq!(review["first"]["move_number"], 1);
    assert_eq!(review["first"]["played"]["text"], "1:0:1");
    let better = review["first"]["better"]["text"].as_str().unwrap();
    assert!(["1:1:0", "1:3:3", "1:0:6"].contains(&better), "{better}");
    assert_eq!(review["second"], Value::Null);
    assert_eq!(review["unjudged"], 0);
}

#[tokio::test]
async fn statistics_are_kept_per_rule_set() {
    let api = Api::new();
    // Fibonacci Nim from 2: the first move may take only 1, then the
    // computer takes the last.
    let (id, token, _) = api.create(json!({"rules": "fibonacci", "position": [2], "level": "perfect"})).await;
    let game = play_text(&api, &id, &token, "1", 0).await.expect(200);
    assert_eq!(game["winner"], "second");
    let stats = api.get("/api/stats").await.expect(200);
    assert_eq!(
        stats["rows"],
        json!([{"rules": "fibonacci", "mode": "computer", "level": "perfect", "games": 1, "wins": 0, "losses": 1}])
    );
}

/// Misère play of an octal game with a small misère quotient: the analysis
/// and the hint come from the quotient, with its explanation (each heap's
/// element, the product, the P-portion and why the suggested move wins).
#[tokio::test]
async fn misere_octal_games_are_explained_by_their_quotient() {
    let api = Api::new();
    let analysis = api.get("/api/analyze?rules=octal:0.75&position=40,45,50,7,11&misere=true").await.expect(200);
    assert_eq!(analysis["method"], "misere-quotient", "{analysis}");
    let quotient = &analysis["quotient"];
    assert_eq!(quotient["order"], 8, "{quotient}");
    assert_eq!(quotient["heaps"].as_array().unwrap().len(), 5);
    assert_eq!(quotient["in_p"], analysis["winner"] == "opponent");
    if analysis["winner"] == "mover" {
        assert_eq!(quotient["chosen"]["in_p"], true, "the move explained lands in the P-portion: {quotient}");
    }
    let (id, _, _) =
        api.create(json!({"rules": "octal:0.75", "position": [40, 45, 50], "misere": true, "mode": "local"})).await;
    let hint = api.get(&format!("/api/games/{id}/hint")).await.expect(200);
    assert_eq!(hint["quotient"]["order"], 8, "{hint}");
    let game = api.get(&format!("/api/games/{id}/analysis")).await.expect(200);
    assert_eq!(game["method"], "misere-quotient", "{game}");
    assert!(game["quotient"]["product"].is_string(), "{game}");
}

/// `GET /api/rules/{rules}` names what the setup page's parameter field
/// holds: a hexadecimal code as one, a code that is a named game as that
/// game, a subtraction set with its own amounts; and the game made from the
/// same id has that name and those rules.
#[tokio::test]
async fn any_rule_set_is_named_and_described_as_its_game_is() {
    let api = Api::new();
    for (id, name, summary) in [
        ("octal:0.F", "the hexadecimal game 0.F", "take 1 from a heap, leaving 0 to 3 heaps"),
        ("octal:4.8", "the hexadecimal game 4.8", "split a heap into two; take 1 from a heap, leaving 3 heaps"),
        (
            "octal:0.354",
            "the octal game 0.354",
            "take 1 from a heap; take 2, leaving 0 or 2 heaps; take 3, leaving 2 heaps",
        ),
        (
            "octal:0.77",
            "Kayles (0.77)",
            "knock down one pin or two neighbouring pins from a row; a gap splits the row in two",
        ),
        (
            "subtraction:1,2,5",
            "the subtraction game S = {1, 2, 5}",
            "take exactly 1 or 2 or 5 tokens from a single heap",
        ),
    ] {
        let entry = api.get(&format!("/api/rules/{id}")).await.expect(200);
        assert_eq!((entry["name"].as_str(), entry["summary"].as_str()), (Some(name), Some(summary)), "{id}");
        let (game, _, _) = api.create(json!({"rules": id, "position": [5, 6], "mode": "local"})).await;
        let view = api.get(&format!("/api/games/{game}")).await.expect(200);
        assert_eq!(view["rules"]["name"], entry["name"], "{id}");
        assert_eq!(view["rules"]["summary"], entry["summary"], "{id}");
    }
    let refused = api.get("/api/rules/octal:0.").await.expect(422);
    assert!(refused["error"].as_str().unwrap().contains("no digits after the point"), "{refused}");
}
