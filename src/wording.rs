//! Moves and results in words.

use bouton_rules::NimMove;

/// "take 2 from heap 3".
pub fn take_phrase(take: u64, heap_number: usize) -> String {
    format!("take {take} from heap {heap_number}")
}

/// "take 2 from heap 3" for a move.
pub fn describe(mv: NimMove) -> String {
    take_phrase(mv.take, mv.heap_number())
}

/// "2 tokens", "1 token".
pub fn tokens(count: u64) -> String {
    if count == 1 { "1 token".to_owned() } else { format!("{count} tokens") }
}

/// A number on the command line that is not a whole number in its range,
/// in the one wording every command uses: `heap size "x" is not a whole
/// number from 0 to 18446744073709551615` for a heap (the words of
/// [`bouton_rules::HeapsError::BadSize`], which `analyze` gives for heaps
/// read in bulk), `"0" is not a whole number from 1 to …` for an option's
/// value (the option is named in front by the caller).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what}{text:?} is not a whole number from {min} to {max}")]
pub struct BadNumber {
    /// "heap size " or nothing.
    what: &'static str,
    text: String,
    min: u64,
    max: u64,
}

/// Parses a whole number from `min` to `max`, written in decimal digits
/// only (no sign, no spaces): the one parser for every number typed on the
/// command line.
pub fn whole_number(text: &str, min: u64, max: u64) -> Result<u64, BadNumber> {
    text.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| text.parse::<u64>().ok())
        .flatten()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| BadNumber { what: "", text: text.to_owned(), min, max })
}

/// A heap size from 0 to 2^64 − 1 (also a position's number with `--rules`).
pub fn heap_size(text: &str) -> Result<u64, BadNumber> {
    whole_number(text, 0, u64::MAX).map_err(|e| BadNumber { what: "heap size ", ..e })
}

/// A whole number from 0 up (`--seed`, `--delay`, `--upto`).
pub fn any_number(text: &str) -> Result<u64, BadNumber> {
    whole_number(text, 0, u64::MAX)
}

/// A whole number from 1 up (`--games`, `--random`, `--max`, `--memory`).
pub fn positive_number(text: &str) -> Result<u64, BadNumber> {
    whole_number(text, 1, u64::MAX)
}

/// A rate for people: 200,614.4881 a second reads "200.6k/s"; below a
/// thousand a whole number ("37/s"), or one decimal below ten ("2.5/s").
pub fn rate(per_second: f64) -> String {
    let r = if per_second.is_finite() { per_second.max(0.0) } else { 0.0 };
    if r < 9.95 {
        format!("{r:.1}/s")
    } else if r < 999.5 {
        format!("{r:.0}/s")
    } else if r < 999_950.0 {
        format!("{:.1}k/s", r / 1e3)
    } else if r < 999_950_000.0 {
        format!("{:.1}M/s", r / 1e6)
    } else {
        format!("{:.1}G/s", r / 1e9)
    }
}

/// The progress bar of a long run counting `what` ("values", "games"): the
/// bar, how far, a rounded rate ([`rate`]) and the time left.
pub fn progress_style(what: &str) -> indicatif::ProgressStyle {
    indicatif::ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {what}, {{rate}}, about {{eta}} left"))
        .expect("the template is valid")
        .with_key("rate", |state: &indicatif::ProgressState, out: &mut dyn std::fmt::Write| {
            let _ = out.write_str(&rate(state.per_sec()));
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_heap_reads_as_the_bulk_parser_says_it() {
        for word in ["x", "-1", "1.5", "99999999999999999999", "+3", ""] {
            let bulk = bouton_rules::HeapsError::BadSize { text: word.to_owned() };
            assert_eq!(heap_size(word).unwrap_err().to_string(), bulk.to_string());
        }
        assert_eq!(heap_size("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(
            positive_number("0").unwrap_err().to_string(),
            "\"0\" is not a whole number from 1 to 18446744073709551615"
        );
        assert_eq!(whole_number("7", 1, 9), Ok(7));
    }

    #[test]
    fn rates_are_rounded() {
        assert_eq!(rate(200_614.488_1), "200.6k/s");
        assert_eq!(rate(2_500_000.0), "2.5M/s");
        assert_eq!(rate(123_456_789.0), "123.5M/s");
        assert_eq!(rate(999.7), "1.0k/s");
        assert_eq!(rate(999_960.0), "1.0M/s");
        assert_eq!(rate(37.2), "37/s");
        assert_eq!(rate(2.54), "2.5/s");
        assert_eq!(rate(f64::NAN), "0.0/s");
    }
}
