//! Heap lists as `bouton analyze -` and `GET /api/analyze` read them:
//! `Heaps::parse_bytes` (eight digits at a time), `FromStr` and
//! `parse_sizes_into` over pieces, checked against a plain reference parser.
#![no_main]

use bouton_rules::{Heaps, HeapsError};
use libfuzzer_sys::fuzz_target;

/// The obvious parser: ASCII-whitespace-separated words, each only ASCII
/// digits and at most `u64::MAX`; the first bad word is the error.
fn reference(bytes: &[u8]) -> Result<Vec<u64>, HeapsError> {
    let mut sizes = Vec::new();
    for word in bytes.split(u8::is_ascii_whitespace).filter(|w| !w.is_empty()) {
        let bad = || HeapsError::BadSize { text: String::from_utf8_lossy(word).into_owned() };
        if !word.iter().all(u8::is_ascii_digit) {
            return Err(bad());
        }
        let text = std::str::from_utf8(word).map_err(|_| bad())?;
        sizes.push(text.parse::<u64>().map_err(|_| bad())?);
    }
    Ok(sizes)
}

fuzz_target!(|data: &[u8]| {
    let expected = reference(data);
    let parsed = Heaps::parse_bytes(data);
    match (&expected, &parsed) {
        (Ok(sizes), Ok(heaps)) => assert_eq!(heaps.as_slice(), sizes.as_slice()),
        (Ok(sizes), Err(e)) => assert!(sizes.is_empty() && *e == HeapsError::NoHeaps, "{e:?} for {sizes:?}"),
        (Err(want), Err(got)) => assert_eq!(want, got),
        (Err(want), Ok(heaps)) => panic!("accepted {heaps:?}, the reference says {want:?}"),
    }

    // The same bytes as text, when they are UTF-8.
    if let Ok(text) = std::str::from_utf8(data) {
        assert_eq!(text.parse::<Heaps>(), parsed);
    }

    // Cut just after a whitespace byte (as the parallel reader does), the
    // pieces give the same sizes in order and the same first error.
    let cut = data.iter().rposition(u8::is_ascii_whitespace).map_or(0, |i| i + 1);
    let cut = data
        .get(..data.len() / 2)
        .and_then(|half| half.iter().rposition(u8::is_ascii_whitespace))
        .map_or(cut, |i| i + 1);
    let mut sizes = Vec::new();
    let pieces = Heaps::parse_sizes_into(&data[..cut], &mut sizes)
        .and_then(|()| Heaps::parse_sizes_into(&data[cut..], &mut sizes));
    match &expected {
        Ok(want) => assert_eq!((pieces, &sizes), (Ok(()), want)),
        Err(want) => assert_eq!(pieces.as_ref(), Err(want)),
    }

    if let Ok(heaps) = parsed {
        // Display writes what parses back; JSON round-trips.
        let shown = heaps.to_string();
        assert_eq!(shown.parse::<Heaps>().as_ref(), Ok(&heaps), "{shown:?}");
        let json = serde_json::to_string(&heaps).expect("heaps serialize");
        assert_eq!(serde_json::from_str::<Heaps>(&json).ok().as_ref(), Some(&heaps), "{json}");
        assert_eq!(heaps.total(), heaps.as_slice().iter().map(|&h| u128::from(h)).sum::<u128>());
    }
});
