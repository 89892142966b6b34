//! Property tests over arbitrary `u64` heaps, where no game-tree search can
//! reach: the expected facts are computed directly from the heap sizes.

use bouton_analysis::{Analysis, Winner, nim_sum};
use bouton_rules::{Convention, Heaps, HeapsError, NimMove};
use proptest::prelude::*;

fn xor(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0, |a, &h| a ^ h)
}

fn play(heaps: &[u64], mv: NimMove) -> Vec<u64> {
    let size = heaps[mv.heap];
    assert!(mv.take >= 1 && mv.take <= size, "{mv:?} is illegal in {heaps:?}");
    let mut next = heaps.to_vec();
    next[mv.heap] = size - mv.take;
    next
}

/// 1 to 20 heaps, over the full `u64` range or over small sizes (where
/// collisions, zeros and ones are common).
fn heaps() -> impl Strategy<Value = Vec<u64>> {
    prop_oneof![
        prop::collection::vec(any::<u64>(), 1..=20),
        prop::collection::vec(0u64..=16, 1..=20),
        prop::collection::vec(prop_oneof![Just(0u64), Just(1), Just(u64::MAX), any::<u64>()], 1..=20),
    ]
}

/// Positions with nim-sum 0: arbitrary heaps plus one heap equal to the XOR
/// of the others.
fn zero_sum_heaps() -> impl Strategy<Value = Vec<u64>> {
    prop_oneof![prop::collection::vec(any::<u64>(), 0..=19), prop::collection::vec(0u64..=16, 0..=19),].prop_map(
        |mut heaps| {
            heaps.push(xor(&heaps));
            heaps
        },
    )
}

/// Whitespace that `Heaps::parse_bytes` must accept between words.
fn separator() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![" ", "  ", "\t", "\n", "\r\n", " \t\n", "\x0c"])
}

/// The winning moves by the textbook rules, written out heap by heap: normal
/// play by Bouton's theorem, misère play by its endgame correction.
fn textbook_winning_moves(heaps: &[u64], convention: Convention) -> Vec<NimMove> {
    let sum = xor(heaps);
    let column_rule = || -> Vec<NimMove> {
        heaps
            .iter()
            .enumerate()
            .filter(|&(_, &h)| (sum ^ h) < h)
            .map(|(i, &h)| NimMove::new(i, h - (sum ^ h)))
            .collect()
    };
    if convention == Convention::Normal {
        return column_rule();
    }
    let big: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] > 1).collect();
    let ones = heaps.iter().filter(|&&h| h == 1).count();
    match big.as_slice() {
        // Only 0s and 1s: leave an odd number of 1s, so win with an even number.
        [] if ones % 2 == 0 => (0..heaps.len()).filter(|&i| heaps[i] == 1).map(|i| NimMove::new(i, 1)).collect(),
        [] => Vec::new(),
        // One big heap: cut it to 0 or 1 so that an odd number of 1s remain.
        &[b] => {
            let keep = if ones % 2 == 0 { 1 } else { 0 };
            vec![NimMove::new(b, heaps[b] - keep)]
        }
        _ => column_rule(),
    }
}

/// Many heaps (beyond any block size an implementation may scan by), with
/// small or huge sizes, and positions with zero, one or two big heaps among
/// 0s and 1s (the misère endgame paths).
fn many_heaps() -> impl Strategy<Value = Vec<u64>> {
    let few_big = (
        prop::collection::vec(0u64..=1, 0..=300),
        prop::collection::vec((any::<prop::sample::Index>(), 2u64..=1 << 40), 0..=2),
    )
        .prop_map(|(mut heaps, big)| {
            for (at, size) in big {
                let at = at.index(heaps.len() + 1);
                heaps.insert(at, size);
            }
            if heaps.is_empty() {
                heaps.push(1);
            }
            heaps
        });
    prop_oneof![prop::collection::vec(any::<u64>(), 1..=300), prop::collection::vec(0u64..=3, 1..=300), few_big,]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn winning_moves_match_the_textbook_rules_on_many_heaps(heaps in many_heaps()) {
        for convention in [Convention::Normal, Convention::Misere] {
            let analysis = Analysis::new(&heaps, convention);
            let expected = textbook_winning_moves(&heaps, convention);
            let listed: Vec<NimMove> = analysis.winning_moves(&heaps).collect();
            prop_assert_eq!(&listed, &expected, "{}", convention);
            prop_assert_eq!(analysis.count_winning_moves(&heaps), expected.len());
            prop_assert_eq!(analysis.first_winning_move(&heaps), expected.first().copied());
            let over = heaps.iter().all(|&h| h == 0);
            let mover_wins = !expected.is_empty() || (over && convention == Convention::Misere);
            prop_assert_eq!(analysis.winner() == Winner::Mover, mover_wins);
        }
    }

    #[test]
    fn nim_sum_is_xor(heaps in heaps()) {
        prop_assert_eq!(nim_sum(&heaps), xor(&heaps));
        prop_assert_eq!(Analysis::new(&heaps, Convention::Normal).nim_sum(), xor(&heaps));
        prop_assert_eq!(Analysis::new(&heaps, Convention::Misere).nim_sum(), xor(&heaps));
    }

    #[test]
    fn normal_winning_moves_leave_nim_sum_zero(heaps in heaps()) {
        let analysis = Analysis::new(&heaps, Convention::Normal);
        let sum = xor(&heaps);
        let moves: Vec<NimMove> = analysis.winning_moves(&heaps).collect();
        for &mv in &moves {
            let next = play(&heaps, mv);
            prop_assert_eq!(xor(&next), 0, "{} in {:?}", mv, heaps);
            prop_assert_eq!(analysis.nim_sum_after(&heaps, mv), 0);
        }
        // Bouton: the winning moves are exactly one per heap with a 1 in the
        // nim-sum's highest column, and there are none when the nim-sum is 0.
        let expected_count = if sum == 0 {
            0
        } else {
            let top = 63 - sum.leading_zeros();
            heaps.iter().filter(|&&h| (h >> top) & 1 == 1).count()
        };
        prop_assert_eq!(moves.len(), expected_count);
        prop_assert_eq!(analysis.count_winning_moves(&heaps), expected_count);
        prop_assert_eq!(analysis.winner() == Winner::Mover, sum != 0);
        prop_assert_eq!(analysis.first_winning_move(&heaps), moves.first().copied());
        let mut heap_numbers: Vec<usize> = moves.iter().map(|m| m.heap).collect();
        heap_numbers.dedup();
        prop_assert_eq!(heap_numbers.len(), moves.len(), "at most one move per heap, in heap order");
    }

    #[test]
    fn misere_winning_moves_leave_a_lost_position(heaps in heaps()) {
        let analysis = Analysis::new(&heaps, Convention::Misere);
        let moves: Vec<NimMove> = analysis.winning_moves(&heaps).collect();
        prop_assert_eq!(analysis.winner() == Winner::Mover, !moves.is_empty() || heaps.iter().all(|&h| h == 0));
        for mv in moves {
            let next = play(&heaps, mv);
            let reply = Analysis::new(&next, Convention::Misere);
            prop_assert_eq!(reply.winner(), Winner::Opponent, "{} in {:?}", mv, heaps);
            prop_assert_eq!(reply.count_winning_moves(&next), 0);
            // With a heap above 1 left, misère play is normal play.
            if next.iter().any(|&h| h > 1) {
                prop_assert_eq!(xor(&next), 0, "{} in {:?}", mv, heaps);
            } else {
                prop_assert_eq!(next.iter().filter(|&&h| h == 1).count() % 2, 1, "{} in {:?}", mv, heaps);
            }
        }
    }

    #[test]
    fn every_move_from_nim_sum_zero_hands_the_opponent_a_win(
        heaps in zero_sum_heaps(),
        picks in prop::collection::vec((any::<prop::sample::Index>(), any::<u64>()), 1..=8),
    ) {
        prop_assert_eq!(xor(&heaps), 0);
        let analysis = Analysis::new(&heaps, Convention::Normal);
        prop_assert_eq!(analysis.winner(), Winner::Opponent);
        prop_assert_eq!(analysis.count_winning_moves(&heaps), 0);
        let nonempty: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] > 0).collect();
        if nonempty.is_empty() {
            return Ok(());
        }
        // Sampled moves (heaps can be far too big to try every amount), plus
        // the extremes of each heap: take one, take all.
        let mut moves: Vec<NimMove> = picks
            .iter()
            .map(|(heap, r)| {
                let heap = nonempty[heap.index(nonempty.len())];
                NimMove::new(heap, 1 + r % heaps[heap])
            })
            .collect();
        for &heap in &nonempty {
            moves.push(NimMove::new(heap, 1));
            moves.push(NimMove::new(heap, heaps[heap]));
        }
        for mv in moves {
            let next = play(&heaps, mv);
            let reply = Analysis::new(&next, Convention::Normal);
            prop_assert_eq!(reply.winner(), Winner::Mover, "after {} in {:?}", mv, heaps);
            let answer = reply.first_winning_move(&next);
            prop_assert!(answer.is_some(), "no reply after {} in {:?}", mv, heaps);
            let back = play(&next, answer.unwrap());
            prop_assert_eq!(xor(&back), 0, "reply {:?} after {} in {:?}", answer, mv, heaps);
        }
    }

    #[test]
    fn heaps_display_round_trips_through_parse_bytes(heaps in heaps()) {
        let position = Heaps::new(heaps.clone()).unwrap();
        let text = position.to_string();
        prop_assert_eq!(Heaps::parse_bytes(text.as_bytes()), Ok(position.clone()));
        prop_assert_eq!(text.parse::<Heaps>(), Ok(position));
    }

    #[test]
    fn parse_bytes_accepts_any_ascii_whitespace(
        heaps in heaps(),
        seps in prop::collection::vec(separator(), 21..=22),
    ) {
        let mut text = String::from(seps[0]);
        for (i, h) in heaps.iter().enumerate() {
            text.push_str(&h.to_string());
            text.push_str(seps[i + 1]);
        }
        prop_assert_eq!(Heaps::parse_bytes(text.as_bytes()).map(Heaps::into_vec), Ok(heaps));
    }

    #[test]
    fn parse_bytes_names_the_first_word_with_a_non_digit(
        heaps in prop::collection::vec(any::<u64>(), 0..=10),
        at in any::<prop::sample::Index>(),
        bad in "[0-9]{0,3}[^0-9\\s][^\\s]{0,4}",
        later_bad in "[^0-9\\s]{1,3}",
    ) {
        let mut words: Vec<String> = heaps.iter().map(u64::to_string).collect();
        let at = at.index(words.len() + 1);
        words.insert(at, bad.clone());
        words.push(later_bad);
        let text = words.join(" ");
        prop_assert_eq!(Heaps::parse_bytes(text.as_bytes()), Err(HeapsError::BadSize { text: bad.clone() }));
        let message = Heaps::parse_bytes(text.as_bytes()).unwrap_err().to_string();
        prop_assert!(message.contains(&format!("{bad:?}")), "{} does not name {:?}", message, bad);
    }

    #[test]
    fn parse_bytes_rejects_values_above_u64_max(
        heaps in prop::collection::vec(any::<u64>(), 0..=10),
        at in any::<prop::sample::Index>(),
        big in (u128::from(u64::MAX) + 1)..=u128::MAX,
        zeros in 0usize..3,
    ) {
        let bad = format!("{}{big}", "0".repeat(zeros));
        let mut words: Vec<String> = heaps.iter().map(u64::to_string).collect();
        let at = at.index(words.len() + 1);
        words.insert(at, bad.clone());
        let text = words.join("\n");
        prop_assert_eq!(Heaps::parse_bytes(text.as_bytes()), Err(HeapsError::BadSize { text: bad }));
    }

    #[test]
    fn nim_move_display_round_trips(heap in 0..usize::MAX, take in any::<u64>()) {
        let mv = NimMove::new(heap, take);
        let text = mv.to_string();
        prop_assert_eq!(&text, &format!("{}:{}", heap as u128 + 1, take));
        prop_assert_eq!(text.parse::<NimMove>(), Ok(mv));
        prop_assert_eq!(format!("  {} \t {} ", heap as u128 + 1, take).parse::<NimMove>(), Ok(mv));
    }
}

#[test]
fn parse_bytes_edges() {
    let max = u64::MAX.to_string();
    assert_eq!(Heaps::parse_bytes(max.as_bytes()).map(Heaps::into_vec), Ok(vec![u64::MAX]));
    assert_eq!(
        Heaps::parse_bytes(b"18446744073709551616"),
        Err(HeapsError::BadSize { text: "18446744073709551616".into() })
    );
    assert_eq!(
        Heaps::parse_bytes(b"99999999999999999999999"),
        Err(HeapsError::BadSize { text: "99999999999999999999999".into() })
    );
    assert_eq!(Heaps::parse_bytes(b"1 +2"), Err(HeapsError::BadSize { text: "+2".into() }));
    assert_eq!(Heaps::parse_bytes(b"1 2x 3y"), Err(HeapsError::BadSize { text: "2x".into() }));
    assert_eq!(
        Heaps::parse_bytes("4 \u{e9}t\u{e9}".as_bytes()),
        Err(HeapsError::BadSize { text: "\u{e9}t\u{e9}".into() })
    );
    assert_eq!(Heaps::parse_bytes(b"007 0"), Ok(Heaps::new(vec![7, 0]).unwrap()));
    assert_eq!(Heaps::parse_bytes(b""), Err(HeapsError::NoHeaps));
    assert_eq!(Heaps::parse_bytes(b" \t\r\n"), Err(HeapsError::NoHeaps));
    assert_eq!(
        Heaps::parse_bytes(b"3 x").unwrap_err().to_string(),
        "heap size \"x\" is not a whole number from 0 to 18446744073709551615"
    );
}
