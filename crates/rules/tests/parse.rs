//! `Heaps::parse_bytes` and `Heaps::parse_sizes_into` against a
//! straightforward reference: split at ASCII whitespace, `str::parse::<u64>`
//! each word. Same heaps or same error, on seeded random inputs built to
//! reach every path of the eight-bytes-at-a-time parser: words of every
//! length from 1 to 40 at every alignment, leading zeros, values around
//! `u64::MAX` and the powers of ten, 19-, 20- and 21-digit numbers, garbage
//! (non-digits, signs, other control bytes, non-UTF-8) anywhere in a word,
//! every kind of ASCII whitespace, and inputs that end with or without it.

use bouton_rules::{Heaps, HeapsError};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What `Heaps::parse_bytes` must return, computed the obvious way.
fn reference(bytes: &[u8]) -> Result<Heaps, HeapsError> {
    let mut sizes = Vec::new();
    let words: Vec<&[u8]> = match std::str::from_utf8(bytes) {
        Ok(text) => text.split_ascii_whitespace().map(str::as_bytes).collect(),
        // The same split on bytes, for inputs that are not UTF-8.
        Err(_) => bytes.split(u8::is_ascii_whitespace).filter(|w| !w.is_empty()).collect(),
    };
    for word in words {
        // `str::parse` accepts a leading '+', which a heap size may not have.
        let size = std::str::from_utf8(word).ok().filter(|w| !w.starts_with('+')).and_then(|w| w.parse::<u64>().ok());
        match size {
            Some(size) => sizes.push(size),
            None => return Err(HeapsError::BadSize { text: String::from_utf8_lossy(word).into_owned() }),
        }
    }
    Heaps::new(sizes)
}

/// The ASCII whitespace bytes (as `u8::is_ascii_whitespace` has them).
const WHITESPACE: [u8; 5] = [b' ', b'\t', b'\n', b'\r', 0x0c];

/// Bytes that are neither digits nor ASCII whitespace, some of them close
/// to one or the other ('/' and ':' surround the digits; 0x0b, the vertical
/// tab, is not ASCII whitespace in Rust), some not UTF-8 on their own.
const GARBAGE: [u8; 16] =
    [b'/', b':', b'-', b'+', b'.', b'x', b'e', b'_', 0x0b, 0x00, 0x1f, 0x7f, 0x80, 0xb0, 0xe9, 0xff];

fn digits(rng: &mut ChaCha8Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| b'0' + rng.random_range(0..10u8)).collect()
}

/// A word that is a valid heap size, in one of many shapes.
fn valid_word(rng: &mut ChaCha8Rng) -> Vec<u8> {
    let value: u64 = match rng.random_range(0..8) {
        0 => rng.random_range(0..1000),
        1 => rng.random(),
        2 => u64::MAX - rng.random_range(0..1000),
        // Around each power of ten.
        3 => 10u64.pow(rng.random_range(0..20)).wrapping_add(rng.random_range(0..3)).wrapping_sub(1),
        // Exactly 19 digits, the most that always fit.
        4 => rng.random_range(10u64.pow(18)..10u64.pow(19)),
        // 20 digits that fit.
        5 => rng.random_range(10u64.pow(19)..=u64::MAX),
        6 => {
            let bits = rng.random_range(1..64);
            rng.random_range(0..1u64 << bits)
        }
        _ => 0,
    };
    let zeros = if rng.random_bool(0.2) { rng.random_range(1..30) } else { 0 };
    let mut word = vec![b'0'; zeros];
    word.extend_from_slice(value.to_string().as_bytes());
    word
}

/// A word that is not a valid heap size.
fn bad_word(rng: &mut ChaCha8Rng) -> Vec<u8> {
    match rng.random_range(0..6) {
        // Just above u64::MAX, perhaps after leading zeros.
        0 => {
            let value = u128::from(u64::MAX) + rng.random_range(1..1000);
            let zeros = if rng.random_bool(0.3) { rng.random_range(1..12) } else { 0 };
            [vec![b'0'; zeros], value.to_string().into_bytes()].concat()
        }
        // 20 digits above u64::MAX, 21 or more digits without leading zeros.
        1 => {
            let value = rng.random_range(u128::from(u64::MAX) + 1..10u128.pow(20));
            value.to_string().into_bytes()
        }
        2 => {
            let len = rng.random_range(21..40);
            let mut word = digits(rng, len);
            word[0] = b'1' + rng.random_range(0..9u8);
            word
        }
        // A sign in front of a number.
        3 => [vec![*[b'+', b'-'].choose(rng).unwrap()], valid_word(rng)].concat(),
        // Garbage at any place in a run of digits, possibly more than once.
        _ => {
            let len = rng.random_range(1..30);
            let mut word = digits(rng, len);
            for _ in 0..rng.random_range(1..3) {
                let at = rng.random_range(0..word.len());
                word[at] = *GARBAGE.choose(rng).unwrap();
            }
            if rng.random_bool(0.1) {
                word.extend_from_slice("é".as_bytes());
            }
            word
        }
    }
}

fn whitespace(rng: &mut ChaCha8Rng, at_least: usize) -> Vec<u8> {
    let n = if rng.random_bool(0.8) { at_least.max(1) } else { rng.random_range(at_least..5) };
    (0..n).map(|_| *WHITESPACE.choose(rng).unwrap()).collect()
}

/// An input of `words` words, each bad with probability `bad`.
fn input(rng: &mut ChaCha8Rng, words: usize, bad: f64) -> Vec<u8> {
    let mut bytes = whitespace(rng, 0);
    for i in 0..words {
        if i > 0 {
            bytes.extend(whitespace(rng, 1));
        }
        bytes.extend(if rng.random_bool(bad) { bad_word(rng) } else { valid_word(rng) });
    }
    if rng.random_bool(0.5) {
        bytes.extend(whitespace(rng, 0));
    }
    bytes
}

#[track_caller]
fn check(bytes: &[u8]) {
    assert_eq!(Heaps::parse_bytes(bytes), reference(bytes), "input {:?}", String::from_utf8_lossy(bytes));
}

#[test]
fn random_inputs_match_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x9a25e);
    for case in 0..40_000 {
        let words = rng.random_range(0..if case % 100 == 0 { 500 } else { 12 });
        let bad = *[0.0, 0.02, 0.2, 0.6].choose(&mut rng).unwrap();
        check(&input(&mut rng, words, bad));
    }
}

#[test]
fn large_inputs_match_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x1a26e);
    for bad in [0.0, 0.00001, 0.0001] {
        let bytes = input(&mut rng, 200_000, bad);
        check(&bytes);
    }
}

#[test]
fn every_word_length_at_every_alignment() {
    // Words of 1 to 40 bytes starting at each offset within eight bytes,
    // alone or followed by more input, so that the word's end falls at
    // every place in a block and in the padded tail of the input.
    let mut rng = ChaCha8Rng::seed_from_u64(0xa119);
    for len in 1..=40 {
        for offset in 0..8 {
            for _ in 0..20 {
                let mut word = digits(&mut rng, len);
                match rng.random_range(0..4) {
                    0 => {}
                    1 => word[..len.saturating_sub(1)].fill(b'0'),
                    2 => {
                        let at = rng.random_range(0..len);
                        word[at] = *GARBAGE.choose(&mut rng).unwrap();
                    }
                    _ => word[0] = b'1' + rng.random_range(0..9u8),
                }
                let mut bytes = vec![b' '; offset];
                bytes.extend_from_slice(&word);
                check(&bytes);
                bytes.extend(whitespace(&mut rng, 1));
                check(&bytes);
                bytes.extend_from_slice(b"12");
                check(&bytes);
            }
        }
    }
}

#[test]
fn every_byte_inside_and_after_a_number() {
    for byte in 0..=u8::MAX {
        for len in 0..20 {
            let mut bytes = b"7 ".to_vec();
            bytes.extend(std::iter::repeat_n(b'9', len));
            bytes.push(byte);
            check(&bytes);
            bytes.extend_from_slice(b"123 4");
            check(&bytes);
        }
    }
}

#[test]
fn the_edges_of_u64() {
    let max = u64::MAX.to_string();
    for text in [
        max.clone(),
        format!("0000000000000000000000{max}"),
        "18446744073709551616".into(),
        "018446744073709551616".into(),
        "99999999999999999999".into(),
        "10000000000000000000".into(),
        "9999999999999999999".into(),
        "36893488147419103232".into(), // 2^65: wraps to 0 in 64 bits
        "184467440737095516150".into(),
        "00000000000000000000000000000000000000000".into(),
        "00000000000000000000000000000000000000001".into(),
        "+1".into(),
        "-0".into(),
    ] {
        check(text.as_bytes());
        check(format!("1 {text}\n").as_bytes());
    }
}

#[test]
fn pieces_cut_after_whitespace_give_the_whole() {
    // `parse_sizes_into` on pieces cut just after whitespace, concatenated,
    // gives the heaps of the whole input; and the first piece with an error
    // gives the first bad word of the whole input.
    let mut rng = ChaCha8Rng::seed_from_u64(0x91ece5);
    for _ in 0..5_000 {
        let bad = *[0.0, 0.05, 0.3].choose(&mut rng).unwrap();
        let words = rng.random_range(0..40);
        let bytes = input(&mut rng, words, bad);
        let mut cuts: Vec<usize> = (0..rng.random_range(0..6))
            .filter_map(|_| {
                let at = rng.random_range(0..=bytes.len());
                bytes[..at].iter().rposition(u8::is_ascii_whitespace).map(|ws| ws + 1)
            })
            .collect();
        cuts.extend([0, bytes.len()]);
        cuts.sort_unstable();
        let mut sizes = Vec::new();
        let result = cuts.windows(2).try_for_each(|w| Heaps::parse_sizes_into(&bytes[w[0]..w[1]], &mut sizes));
        let whole = result.and_then(|()| Heaps::new(sizes));
        assert_eq!(whole, reference(&bytes), "input {:?} cut at {cuts:?}", String::from_utf8_lossy(&bytes));
    }
}
