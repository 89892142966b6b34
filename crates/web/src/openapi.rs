//! The OpenAPI document served at `/api/openapi.json`. Tests check that it
//! describes exactly the routes the API has, that every status it lists for an
//! operation is answered by some request and its links lead to real
//! operations; `bench/schemathesis.sh` checks a real server against it.

/// The document.
pub const DOCUMENT: &str = include_str!("../assets/openapi.json");
