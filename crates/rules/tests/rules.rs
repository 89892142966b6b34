//! The rules of Nim and the `Game` record: legality, errors with their exact
//! messages, play/undo/replay, and outcomes under both conventions.

use bouton_rules::{
    Convention, Game, GameError, Heaps, HeapsError, IllegalNimMove, Nim, NimMove, Outcome, ParseMoveError, PlayError,
    ReplayError, Rules, Side,
};

fn heaps(sizes: &[u64]) -> Heaps {
    Heaps::new(sizes.to_vec()).unwrap()
}

fn game(convention: Convention, sizes: &[u64]) -> Game<Nim> {
    Game::new(Nim::new(convention), heaps(sizes)).unwrap()
}

// ---------------------------------------------------------------- moves

#[test]
fn every_illegal_move_variant_with_its_message() {
    let nim = Nim::new(Convention::Normal);
    let position = heaps(&[3, 0, 5]);
    let cases = [
        (
            NimMove::new(3, 1),
            IllegalNimMove::NoSuchHeap { heap: 4, heaps: 3 },
            "there is no heap 4: heaps are numbered 1 to 3",
        ),
        (
            NimMove::new(17, 0),
            IllegalNimMove::NoSuchHeap { heap: 18, heaps: 3 },
            "there is no heap 18: heaps are numbered 1 to 3",
        ),
        (
            NimMove::new(usize::MAX, 1),
            IllegalNimMove::NoSuchHeap { heap: usize::MAX, heaps: 3 },
            &format!("there is no heap {}: heaps are numbered 1 to 3", usize::MAX),
        ),
        (NimMove::new(0, 0), IllegalNimMove::TakeNothing, "you must take at least one token"),
        (
            NimMove::new(1, 1),
            IllegalNimMove::EmptyHeap { heap: 2 },
            "heap 2 is empty: choose a heap that still has tokens",
        ),
        // An empty heap is reported as empty even when the take is also 0.
        (
            NimMove::new(1, 0),
            IllegalNimMove::EmptyHeap { heap: 2 },
            "heap 2 is empty: choose a heap that still has tokens",
        ),
        (
            NimMove::new(0, 4),
            IllegalNimMove::TooMany { heap: 1, take: 4, available: 3 },
            "cannot take 4 from heap 1: it holds only 3",
        ),
        (
            NimMove::new(2, u64::MAX),
            IllegalNimMove::TooMany { heap: 3, take: u64::MAX, available: 5 },
            "cannot take 18446744073709551615 from heap 3: it holds only 5",
        ),
    ];
    for (mv, error, message) in cases {
        assert_eq!(nim.check(&position, mv), Err(error.clone()), "{mv:?}");
        assert_eq!(error.to_string(), message);
        let mut scratch = position.clone();
        assert_eq!(nim.play(&mut scratch, mv), Err(error), "{mv:?}");
        assert_eq!(scratch, position, "a refused move leaves the position unchanged");
    }
    // Legal edge cases: take one, take all.
    for mv in [NimMove::new(0, 1), NimMove::new(0, 3), NimMove::new(2, 5)] {
        assert_eq!(nim.check(&position, mv), Ok(()), "{mv:?}");
    }
    let mut scratch = position.clone();
    nim.play(&mut scratch, NimMove::new(2, 5)).unwrap();
    assert_eq!(scratch.as_slice(), &[3, 0, 0]);
}

#[test]
fn legal_moves_are_heap_by_heap_smallest_take_first() {
    let nim = Nim::new(Convention::Misere);
    let position = heaps(&[2, 0, 3]);
    let moves: Vec<NimMove> = nim.legal_moves(&position).collect();
    assert_eq!(
        moves,
        vec![NimMove::new(0, 1), NimMove::new(0, 2), NimMove::new(2, 1), NimMove::new(2, 2), NimMove::new(2, 3)]
    );
    for mv in moves {
        assert_eq!(nim.check(&position, mv), Ok(()));
    }
    assert!(!nim.is_over(&position));
    assert!(nim.is_over(&heaps(&[0, 0])));
    assert_eq!(nim.legal_moves(&heaps(&[0])).count(), 0);
    // Huge heaps: the iterator is lazy.
    assert_eq!(nim.legal_moves(&heaps(&[u64::MAX])).nth(2), Some(NimMove::new(0, 3)));
}

#[test]
fn parse_move_errors_and_successes() {
    let cases: [(&str, Result<NimMove, ParseMoveError>); 9] = [
        ("", Err(ParseMoveError::Empty)),
        ("3", Err(ParseMoveError::MissingAmount)),
        ("3 2 1", Err(ParseMoveError::TooManyNumbers)),
        ("x 2", Err(ParseMoveError::NotANumber { text: "x".into() })),
        ("-3 2", Err(ParseMoveError::Negative { text: "-3".into() })),
        ("99999999999999999999 1", Err(ParseMoveError::TooLarge { text: "99999999999999999999".into() })),
        ("0 1", Err(ParseMoveError::HeapZero)),
        ("3:2", Ok(NimMove::new(2, 2))),
        (" 3   2 ", Ok(NimMove::new(2, 2))),
    ];
    for (text, expected) in cases {
        assert_eq!(text.parse::<NimMove>(), expected, "{text:?}");
    }
    let messages = [
        ("", "no move given: type a heap number and an amount, like `3 2`"),
        ("3", "only one number given: type a heap number and an amount, like `3 2`"),
        ("3 2 1", "too many numbers: a move is a heap number and an amount, like `3 2`"),
        ("x 2", "\"x\" is not a number: a move is a heap number and an amount, like `3 2`"),
        ("-3 2", "-3 is negative: heap numbers and amounts are positive whole numbers"),
        (
            "99999999999999999999 1",
            "99999999999999999999 is too large: the largest allowed number is 18446744073709551615",
        ),
        ("0 1", "there is no heap 0: heaps are numbered from 1"),
    ];
    for (text, message) in messages {
        assert_eq!(text.parse::<NimMove>().unwrap_err().to_string(), message, "{text:?}");
    }
}

#[test]
fn parse_move_further_cases() {
    let cases: [(&str, Result<NimMove, ParseMoveError>); 14] = [
        ("   \t ", Err(ParseMoveError::Empty)),
        (":", Err(ParseMoveError::Empty)),
        ("x", Err(ParseMoveError::NotANumber { text: "x".into() })),
        ("-1", Err(ParseMoveError::Negative { text: "-1".into() })),
        ("3 -2", Err(ParseMoveError::Negative { text: "-2".into() })),
        ("3 x 1", Err(ParseMoveError::NotANumber { text: "x".into() })),
        ("3 2 x", Err(ParseMoveError::TooManyNumbers)),
        ("3 2.5", Err(ParseMoveError::NotANumber { text: "2.5".into() })),
        ("3 -", Err(ParseMoveError::NotANumber { text: "-".into() })),
        ("3 18446744073709551616", Err(ParseMoveError::TooLarge { text: "18446744073709551616".into() })),
        ("+3 +2", Ok(NimMove::new(2, 2))),
        ("1 0", Ok(NimMove::new(0, 0))), // legal to parse; the rules refuse it
        ("3::2", Ok(NimMove::new(2, 2))),
        ("18446744073709551615 18446744073709551615", Ok(NimMove::new((u64::MAX - 1) as usize, u64::MAX))),
    ];
    for (text, expected) in cases {
        assert_eq!(text.parse::<NimMove>(), expected, "{text:?}");
    }
}

#[test]
fn nim_move_text_form() {
    let mv = NimMove::new(2, 7);
    assert_eq!(mv.heap_number(), 3);
    assert_eq!(mv.to_string(), "3:7");
    assert_eq!(mv.to_string().parse::<NimMove>(), Ok(mv));
    let last = NimMove::new((u64::MAX - 1) as usize, 1);
    assert_eq!(last.to_string(), "18446744073709551615:1");
    assert_eq!(last.to_string().parse::<NimMove>(), Ok(last));
}

#[test]
fn nim_move_with_the_largest_heap_index_displays_without_overflow() {
    // `NimMove::new(usize::MAX, _)` is constructible; its 1-based number does
    // not fit in a usize. Display must not panic (debug) or wrap to 0 (release).
    let mv = NimMove::new(usize::MAX, 1);
    assert_eq!(mv.to_string(), format!("{}:1", u128::from(u64::try_from(usize::MAX).unwrap()) + 1));
    assert_eq!(mv.heap_number(), usize::MAX, "saturates, like IllegalNimMove::NoSuchHeap");
}

// ---------------------------------------------------------------- heaps

#[test]
fn heaps_basics() {
    assert_eq!(Heaps::new(vec![]), Err(HeapsError::NoHeaps));
    assert_eq!(HeapsError::NoHeaps.to_string(), "no heaps given: a position needs at least one heap");
    let h = heaps(&[u64::MAX, u64::MAX, 0, 1]);
    assert_eq!(h.len(), 4);
    assert!(!h.is_empty());
    assert_eq!(h.get(3), Some(1));
    assert_eq!(h.get(4), None);
    assert_eq!(h.total(), 2 * u128::from(u64::MAX) + 1);
    assert!(!h.all_empty());
    assert!(heaps(&[0, 0]).all_empty());
    assert_eq!(h.to_string(), "18446744073709551615 18446744073709551615 0 1");
    assert_eq!(h.to_string().parse::<Heaps>(), Ok(h.clone()));
    assert_eq!(Heaps::try_from(vec![2, 3]), Ok(heaps(&[2, 3])));
    assert_eq!(Vec::<u64>::from(h.clone()), h.clone().into_vec());
}

// ---------------------------------------------------------------- games

#[test]
fn a_game_cannot_start_over() {
    for convention in [Convention::Normal, Convention::Misere] {
        let err = Game::new(Nim::new(convention), heaps(&[0, 0, 0])).unwrap_err();
        assert_eq!(err, GameError::OverAtStart);
        assert_eq!(err.to_string(), "the game is already over at the start: every heap is empty, so nobody can move");
        let err = Game::replay(Nim::new(convention), heaps(&[0]), []).unwrap_err();
        assert_eq!(err, ReplayError::Start(GameError::OverAtStart));
        assert_eq!(err.to_string(), GameError::OverAtStart.to_string());
    }
}

#[test]
fn play_and_undo_walk_the_history() {
    let mut g = game(Convention::Normal, &[3, 4, 5]);
    assert_eq!(g.rules(), &Nim::new(Convention::Normal));
    assert_eq!(g.start(), &heaps(&[3, 4, 5]));
    assert_eq!(g.position(), g.start());
    assert_eq!(g.to_move(), Side::First);
    assert_eq!(g.moves(), &[]);
    assert_eq!(g.last_move(), None);
    assert!(!g.is_over());
    assert_eq!(g.outcome(), None);
    assert_eq!(g.undo(), None, "nothing to take back at the start");

    let moves = [NimMove::new(0, 2), NimMove::new(2, 5), NimMove::new(1, 3)];
    let positions = [[1, 4, 5], [1, 4, 0], [1, 1, 0]];
    for (i, (mv, after)) in moves.iter().zip(positions).enumerate() {
        g.play(*mv).unwrap();
        assert_eq!(g.position().as_slice(), &after);
        assert_eq!(g.moves(), &moves[..=i]);
        assert_eq!(g.last_move(), Some(*mv));
        assert_eq!(g.to_move(), if i % 2 == 0 { Side::Second } else { Side::First });
    }
    assert_eq!(g.start(), &heaps(&[3, 4, 5]), "the start never changes");
    let history: Vec<(Vec<u64>, NimMove)> = g.history().map(|(p, m)| (p.as_slice().to_vec(), m)).collect();
    assert_eq!(history, vec![(vec![3, 4, 5], moves[0]), (vec![1, 4, 5], moves[1]), (vec![1, 4, 0], moves[2])]);

    assert_eq!(g.undo(), Some(moves[2]));
    assert_eq!(g.position().as_slice(), &[1, 4, 0]);
    assert_eq!(g.to_move(), Side::First);
    assert_eq!(g.undo(), Some(moves[1]));
    assert_eq!(g.undo(), Some(moves[0]));
    assert_eq!(g.undo(), None);
    assert_eq!(g, game(Convention::Normal, &[3, 4, 5]), "undoing everything gives the fresh game back");
}

#[test]
fn outcome_depends_on_the_convention() {
    // First takes heap 1, second takes heap 2: the second player takes the last token.
    for (convention, winner) in [(Convention::Normal, Side::Second), (Convention::Misere, Side::First)] {
        let mut g = game(convention, &[1, 2]);
        g.play(NimMove::new(0, 1)).unwrap();
        assert_eq!(g.outcome(), None);
        g.play(NimMove::new(1, 2)).unwrap();
        assert!(g.is_over());
        assert_eq!(g.to_move(), Side::First, "the side that cannot move");
        assert_eq!(g.outcome(), Some(Outcome { winner }), "{convention}");
        g.undo();
        assert_eq!(g.outcome(), None, "undo reopens the game");
        assert!(!g.is_over());
    }
    // Odd number of moves: the first player takes the last token.
    for (convention, winner) in [(Convention::Normal, Side::First), (Convention::Misere, Side::Second)] {
        let mut g = game(convention, &[4]);
        g.play(NimMove::new(0, 4)).unwrap();
        assert_eq!(g.outcome().map(|o| o.winner), Some(winner), "{convention}");
    }
    assert_eq!(Outcome::at_end(Convention::Normal, Side::Second).winner, Side::First);
    assert_eq!(Outcome::at_end(Convention::Misere, Side::Second).winner, Side::Second);
}

#[test]
fn refused_moves_leave_the_game_unchanged() {
    let mut g = game(Convention::Misere, &[2, 0]);
    g.play(NimMove::new(0, 1)).unwrap();
    let before = g.clone();
    let mv = NimMove::new(0, 2);
    let err = g.play(mv).unwrap_err();
    assert_eq!(err, PlayError::Illegal { mv, reason: IllegalNimMove::TooMany { heap: 1, take: 2, available: 1 } });
    assert_eq!(err.to_string(), "cannot take 2 from heap 1: it holds only 1");
    assert_eq!(err.rejected_move(), mv);
    assert_eq!(g, before);
    let err = g.play(NimMove::new(1, 1)).unwrap_err();
    assert_eq!(err.to_string(), "heap 2 is empty: choose a heap that still has tokens");
    assert_eq!(g, before);
}

#[test]
fn no_move_after_the_end() {
    let mut g = game(Convention::Normal, &[1]);
    g.play(NimMove::new(0, 1)).unwrap();
    let before = g.clone();
    // Even a move naming a missing heap is refused because the game is over.
    for mv in [NimMove::new(0, 1), NimMove::new(0, 0), NimMove::new(5, 1)] {
        let err = g.play(mv).unwrap_err();
        assert_eq!(err, PlayError::GameOver { mv });
        assert_eq!(err.to_string(), "the game is over: no more moves can be played");
        assert_eq!(err.rejected_move(), mv);
        assert_eq!(g, before);
    }
    assert_eq!(g.outcome(), Some(Outcome { winner: Side::First }));
}

#[test]
fn replay_rebuilds_or_names_the_bad_move() {
    let nim = Nim::new(Convention::Normal);
    let moves = vec![NimMove::new(1, 2), NimMove::new(0, 1), NimMove::new(1, 1)];
    let replayed = Game::replay(nim, heaps(&[2, 3]), moves.clone()).unwrap();
    let mut played = game(Convention::Normal, &[2, 3]);
    for &mv in &moves {
        played.play(mv).unwrap();
    }
    assert_eq!(replayed, played);
    assert_eq!(replayed.moves(), moves.as_slice());
    assert_eq!(replayed.position().as_slice(), &[1, 0]);

    let err = Game::replay(nim, heaps(&[2, 3]), [NimMove::new(1, 2), NimMove::new(0, 5)]).unwrap_err();
    assert_eq!(
        err,
        ReplayError::Move {
            index: 1,
            error: PlayError::Illegal {
                mv: NimMove::new(0, 5),
                reason: IllegalNimMove::TooMany { heap: 1, take: 5, available: 2 }
            }
        }
    );
    assert_eq!(err.to_string(), "move 2 cannot be played: cannot take 5 from heap 1: it holds only 2");

    let err = Game::replay(nim, heaps(&[1]), [NimMove::new(0, 1), NimMove::new(0, 1)]).unwrap_err();
    assert_eq!(err, ReplayError::Move { index: 1, error: PlayError::GameOver { mv: NimMove::new(0, 1) } });
    assert_eq!(err.to_string(), "move 2 cannot be played: the game is over: no more moves can be played");

    let err = Game::replay(nim, heaps(&[1]), [NimMove::new(3, 1)]).unwrap_err();
    assert_eq!(err.to_string(), "move 1 cannot be played: there is no heap 4: heaps are numbered 1 to 1");
}

#[test]
fn sides_and_conventions() {
    assert_eq!(Side::after_moves(0), Side::First);
    assert_eq!(Side::after_moves(1), Side::Second);
    assert_eq!(Side::after_moves(2), Side::First);
    assert_eq!(Side::First.other().other(), Side::First);
    assert_eq!((Side::First.index(), Side::Second.index()), (0, 1));
    assert_eq!(Side::Second.to_string(), "second player");
    assert_eq!(Convention::default(), Convention::Normal);
    assert!(Convention::Misere.is_misere() && !Convention::Normal.is_misere());
    assert_eq!(Convention::Normal.to_string(), "normal");
    assert_eq!(Convention::Misere.rule(), "whoever takes the last token loses");
}

#[cfg(feature = "serde")]
#[test]
fn serde_forms() {
    assert_eq!(serde_json::to_string(&NimMove::new(2, 7)).unwrap(), "\"3:7\"");
    assert_eq!(serde_json::from_str::<NimMove>("\"3 7\"").unwrap(), NimMove::new(2, 7));
    assert!(serde_json::from_str::<NimMove>("\"0 7\"").is_err());
    assert_eq!(serde_json::to_string(&heaps(&[1, 0, 5])).unwrap(), "[1,0,5]");
    assert_eq!(serde_json::from_str::<Heaps>("[4,2]").unwrap(), heaps(&[4, 2]));
    assert!(serde_json::from_str::<Heaps>("[]").is_err(), "an empty position is refused");
    assert_eq!(serde_json::to_string(&Convention::Misere).unwrap(), "\"misere\"");
    assert_eq!(serde_json::to_string(&Side::Second).unwrap(), "\"second\"");
    assert_eq!(serde_json::to_string(&Nim::new(Convention::Normal)).unwrap(), "{\"convention\":\"normal\"}");
}
