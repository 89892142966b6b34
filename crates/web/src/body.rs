//! Reading requests as `/api/openapi.json` describes them: JSON bodies, the
//! numbers in them, and the query of `GET /api/analyze`.
//!
//! The line between 400 and 422 is the document: a request that does not fit
//! it (not JSON, a wrong type, a missing or unknown field, a number out of the
//! documented range, `position` and `heaps` together) is answered 400 here,
//! with one line saying what is wrong; a request that fits it but that the
//! game cannot take (an unknown rule set, a start the rule set does not
//! allow, an illegal move) is the service's to refuse, with 422.
//!
//! Numbers follow JSON Schema: an integer is any number with no fractional
//! part, so `3755.0` and `3.755e3` are the integer 3755 wherever the document
//! says `integer`, and `2.5` is refused.

use std::fmt;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, Request};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Deserializer, SeqAccess, Unexpected, Visitor};

use crate::error::ApiError;
use crate::limits::{MAX_BODY_BYTES, MAX_HEAP_SIZE, MAX_HEAPS};
use crate::mode::Mode;

/// The most numbers a start may have: [`MAX_HEAPS`] Northcott rows of three.
pub const MAX_START_NUMBERS: usize = 3 * MAX_HEAPS;

/// A JSON body the operation requires. An empty body (or one of blanks) is
/// refused with 400, as is anything that does not fit `T`.
pub(crate) fn parse_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = read(body)?;
    if is_blank(&bytes) {
        return Err(ApiError::BadRequest(
            "the request body is empty: this request takes a JSON object (see /api/openapi.json)".into(),
        ));
    }
    from_json(&bytes)
}

/// A JSON body the operation may go without: an empty body (or one of
/// blanks) is the empty object `{}`, every field at its default.
pub(crate) fn parse_optional_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = read(body)?;
    from_json(if is_blank(&bytes) { b"{}" } else { &bytes })
}

fn read(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge(format!("the request body is larger than {MAX_BODY_BYTES} bytes"))
        } else {
            ApiError::BadRequest(one_line(&e.body_text()))
        }
    })
}

fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(u8::is_ascii_whitespace)
}

/// The body read whatever its content type: a JSON object is the only one
/// taken (serde would read a struct from an array too).
fn from_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::BadRequest("invalid JSON body: it must be a JSON object, {…}".into()));
    }
    serde_json::from_slice(bytes).map_err(|e| ApiError::BadRequest(one_line(&format!("invalid JSON body: {e}"))))
}

/// Error messages are one line, whatever text they quote.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The API's error answers that are not JSON yet (axum's own rejections,
/// such as a path that is not UTF-8) as `{"error": message}`, with their
/// status and headers: every error the API gives has the same form.
pub(crate) async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let message = one_line(&String::from_utf8_lossy(&text));
    let message = if message.is_empty() { status.canonical_reason().unwrap_or("error").to_owned() } else { message };
    let mut answer = (status, Json(serde_json::json!({ "error": message }))).into_response();
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            answer.headers_mut().append(name, value.clone());
        }
    }
    answer
}

/// Reads a whole number from JSON as JSON Schema counts integers: `7`,
/// `7.0` and `7e0` alike, from `min` to `max`; anything else is an error
/// naming the value and what was expected.
struct Whole {
    min: u64,
    max: u64,
    /// What the number is, before "a whole number from … to …".
    what: &'static str,
    /// Why the bounds, after it.
    why: &'static str,
}

/// 2^64 as a float: every float below it with no fractional part is a u64.
const TWO_TO_64: f64 = 18_446_744_073_709_551_616.0;

impl Whole {
    const fn any(what: &'static str) -> Whole {
        Whole { min: 0, max: u64::MAX, what, why: "" }
    }

    const fn from_one(what: &'static str) -> Whole {
        Whole { min: 1, max: u64::MAX, what, why: "" }
    }

    fn check<E: de::Error>(&self, value: u64) -> Result<u64, E> {
        if (self.min..=self.max).contains(&value) {
            Ok(value)
        } else {
            Err(E::invalid_value(Unexpected::Unsigned(value), &self))
        }
    }
}

impl Visitor<'_> for &Whole {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}a whole number from {} to ", self.what, self.min)?;
        if self.max == u64::MAX { write!(f, "2^64 - 1") } else { write!(f, "{}", self.max) }?;
        write!(f, "{}", self.why)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<u64, E> {
        self.check(value)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<u64, E> {
        match u64::try_from(value) {
            Ok(value) => self.check(value),
            Err(_) => Err(E::invalid_value(Unexpected::Signed(value), &self)),
        }
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<u64, E> {
        if value.fract() == 0.0 && (0.0..TWO_TO_64).contains(&value) {
            // In range and whole, so the conversion is exact.
            self.check(value as u64)
        } else {
            Err(E::invalid_value(Unexpected::Float(value), &self))
        }
    }
}

/// `serde(deserialize_with)` helpers for request fields. Optional fields
/// (with `#[serde(default)]`) may be left out, but not sent as `null`: the
/// document does not allow it, and a `null` that meant "the default" would
/// hide a client's mistake.
pub(crate) mod field {
    use super::*;

    /// A string of at least one character.
    pub fn text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
        let text = String::deserialize(deserializer)?;
        if text.is_empty() {
            return Err(de::Error::invalid_value(Unexpected::Str(&text), &"a string of at least one character"));
        }
        Ok(Some(text))
    }

    /// `ply`: a whole number.
    pub fn ply<'de, D: Deserializer<'de>>(deserializer: D) -> Result<usize, D::Error> {
        let ply = deserializer.deserialize_any(&Whole::any("`ply` as "))?;
        usize::try_from(ply)
            .map_err(|_| de::Error::invalid_value(Unexpected::Unsigned(ply), &"a ply this machine counts"))
    }

    /// A Nim move's heap, numbered from 1.
    pub fn heap<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
        deserializer.deserialize_any(&Whole::from_one("`heap` as ")).map(Some)
    }

    /// A Nim move's number of tokens, from 1.
    pub fn take<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
        deserializer.deserialize_any(&Whole::from_one("`take` as ")).map(Some)
    }

    /// The computer's level: one of the names of [`bouton_players::Level`],
    /// exactly.
    pub fn level<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
        let name = String::deserialize(deserializer)?;
        if bouton_players::Level::ALL.iter().any(|level| level.name() == name) {
            Ok(Some(name))
        } else {
            let names: Vec<&str> = bouton_players::Level::ALL.iter().map(|level| level.name()).collect();
            Err(de::Error::custom(format!("unknown level {name:?}: the levels are {}", names.join(", "))))
        }
    }

    /// The names of [`Mode`]s.
    pub const MODES: &[&str] = &["computer", "computer-first", "local", "online", "demo"];

    /// Who plays: one of [`MODES`] (a `null` is refused as a string would
    /// be, not as "expected value").
    pub fn mode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Mode, D::Error> {
        let name = String::deserialize(deserializer)?;
        Mode::from_name(&name).ok_or_else(|| de::Error::unknown_variant(&name, MODES))
    }

    /// A start: 1 to [`MAX_START_NUMBERS`] whole numbers from 0 to
    /// [`MAX_HEAP_SIZE`], not all 0.
    pub fn start<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Vec<u64>>, D::Error> {
        deserializer.deserialize_seq(StartVisitor).map(Some)
    }

    struct StartVisitor;

    impl<'de> Visitor<'de> for StartVisitor {
        type Value = Vec<u64>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "a list of 1 to {MAX_START_NUMBERS} whole numbers from 0 to {MAX_HEAP_SIZE}")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u64>, A::Error> {
            let number = Whole { min: 0, max: MAX_HEAP_SIZE, what: "", why: " (a heap holds at most 50 tokens)" };
            let mut numbers = Vec::new();
            while let Some(n) = seq.next_element_seed(&number)? {
                if numbers.len() == MAX_START_NUMBERS {
                    return Err(de::Error::custom(format!(
                        "a start has at most {MAX_START_NUMBERS} numbers ({MAX_HEAPS} Northcott rows of three)"
                    )));
                }
                numbers.push(n);
            }
            if numbers.is_empty() {
                return Err(de::Error::custom(format!(
                    "the start is empty: a game has 1 to {MAX_HEAPS} heaps (pairs, steps, rows)"
                )));
            }
            if numbers.iter().all(|&n| n == 0) {
                return Err(de::Error::custom("every heap is empty: there would be nothing to play"));
            }
            Ok(numbers)
        }
    }
}

impl<'de> de::DeserializeSeed<'de> for &Whole {
    type Value = u64;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<u64, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// The query of `GET /api/analyze`, as sent: `position` (or its Nim name
/// `heaps`: one of the two), `rules` and `misere`. Anything else is refused.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnalyzeQuery {
    position: Option<String>,
    heaps: Option<String>,
    rules: Option<String>,
    misere: Option<String>,
}

/// What `GET /api/analyze` was asked, checked against the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AnalyzeRequest {
    /// The rule set as given (`None`: Nim); the service reads it.
    pub rules: Option<String>,
    /// The position's numbers.
    pub numbers: Vec<u64>,
    /// Misère play.
    pub misere: bool,
}

/// The request `GET /api/analyze` was sent, or what does not fit the
/// document (400): a query that is not one, an unknown or repeated
/// parameter, both or neither of `position` and `heaps`, numbers that are not
/// 1 to `max_numbers` whole numbers from 0 to 2^64 - 1 separated by commas,
/// an empty `rules`, a `misere` other than `true` or `false`.
pub(crate) fn analyze_request(
    query: Result<Query<AnalyzeQuery>, QueryRejection>,
    max_numbers: usize,
) -> Result<AnalyzeRequest, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(one_line(&e.body_text())))?;
    query.read(max_numbers)
}

impl AnalyzeQuery {
    fn read(self, max_numbers: usize) -> Result<AnalyzeRequest, ApiError> {
        let text = match (self.position, self.heaps) {
            (Some(_), Some(_)) => {
                return Err(ApiError::BadRequest(
                    "give the position once: as `position`, or as `heaps` (its name in Nim), not both".into(),
                ));
            }
            (Some(text), None) | (None, Some(text)) => text,
            (None, None) => {
                return Err(ApiError::BadRequest(
                    "give the position as numbers separated by commas, like ?heaps=3,5,7 or \
                     ?rules=kayles&position=7,11"
                        .into(),
                ));
            }
        };
        let numbers = numbers(&text, max_numbers)?;
        if self.rules.as_deref() == Some("") {
            return Err(ApiError::BadRequest("`rules` is empty: leave it out for Nim, or name a rule set".into()));
        }
        let misere = match self.misere.as_deref() {
            None | Some("false") => false,
            Some("true") => true,
            Some(other) => {
                return Err(ApiError::BadRequest(format!("misere is true or false, not {:?}", one_line(other))));
            }
        };
        Ok(AnalyzeRequest { rules: self.rules, numbers, misere })
    }
}

/// `3,5,7`: 1 to `max` whole numbers from 0 to 2^64 - 1 in decimal digits,
/// separated by single commas.
fn numbers(text: &str, max: usize) -> Result<Vec<u64>, ApiError> {
    let mut numbers = Vec::new();
    for word in text.split(',') {
        let bad = || {
            ApiError::BadRequest(format!(
                "the position is numbers from 0 to 2^64 - 1 separated by commas, like 3,5,7; {:?} is not one",
                one_line(word)
            ))
        };
        if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        numbers.push(word.parse::<u64>().map_err(|_| bad())?);
        if numbers.len() > max {
            return Err(ApiError::BadRequest(format!("at most {max} numbers can be analysed here")));
        }
    }
    Ok(numbers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Sample {
        #[serde(deserialize_with = "field::ply")]
        ply: usize,
        #[serde(default, deserialize_with = "field::start")]
        start: Option<Vec<u64>>,
    }

    fn sample(json: &str) -> Result<Sample, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn whole_floats_are_integers_and_fractions_are_not() {
        assert_eq!(sample(r#"{"ply": 3755.0}"#).unwrap().ply, 3755);
        assert_eq!(sample(r#"{"ply": 3.755e3}"#).unwrap().ply, 3755);
        assert_eq!(sample(r#"{"ply": 18446744073709551615}"#).unwrap().ply as u64, u64::MAX);
        let half = sample(r#"{"ply": 2.5}"#).unwrap_err();
        assert!(half.contains("2.5") && half.contains("whole number"), "{half}");
        assert!(sample(r#"{"ply": -1}"#).unwrap_err().contains("-1"));
        assert!(sample(r#"{"ply": 1.8446744073709552e19}"#).is_err(), "2^64 is out of range");
        assert!(sample(r#"{"ply": "3"}"#).is_err());
        assert!(sample(r#"{"ply": null}"#).is_err());
    }

    #[test]
    fn the_modes_are_named_as_mode_names_them() {
        for name in field::MODES {
            assert_eq!(Mode::from_name(name).map(Mode::name), Some(*name));
        }
    }

    #[test]
    fn a_start_is_checked_as_the_document_says() {
        assert_eq!(sample(r#"{"ply": 0, "start": [3, 5.0, 7e0]}"#).unwrap().start, Some(vec![3, 5, 7]));
        assert!(sample(r#"{"ply": 0, "start": []}"#).unwrap_err().contains("1 to 12 heaps"));
        assert!(sample(r#"{"ply": 0, "start": [0, 0]}"#).unwrap_err().contains("every heap is empty"));
        assert!(sample(r#"{"ply": 0, "start": [51]}"#).unwrap_err().contains("at most 50"));
        assert!(sample(r#"{"ply": 0, "start": [1.5]}"#).unwrap_err().contains("1.5"));
        let many = format!(r#"{{"ply": 0, "start": {:?}}}"#, vec![1; 37]);
        assert!(sample(&many).unwrap_err().contains("at most 36"));
        assert!(sample(r#"{"ply": 0, "start": null}"#).is_err());
    }

    #[test]
    fn the_analysis_query_takes_one_position_of_plain_numbers() {
        let query = |position: Option<&str>, heaps: Option<&str>, misere: Option<&str>| AnalyzeQuery {
            position: position.map(str::to_owned),
            heaps: heaps.map(str::to_owned),
            rules: None,
            misere: misere.map(str::to_owned),
        };
        let read = query(None, Some("3,05,18446744073709551615"), Some("true")).read(64).unwrap();
        assert_eq!((read.numbers, read.misere), (vec![3, 5, u64::MAX], true));
        assert!(query(Some("1"), Some("1"), None).read(64).is_err());
        assert!(query(None, None, None).read(64).is_err());
        for bad in ["", "3,,5", "3 5", "+3", "3,", "18446744073709551616", "٣"] {
            assert!(query(Some(bad), None, None).read(64).is_err(), "{bad:?}");
        }
        assert!(query(Some("1,2,3"), None, None).read(2).is_err());
        assert!(query(Some("1"), None, Some("1")).read(64).is_err());
    }
}
