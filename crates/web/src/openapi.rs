//! The OpenAPI document served at `/api/openapi.json`. A test checks that it
//! describes exactly the routes the API has.

/// The document.
pub const DOCUMENT: &str = include_str!("../assets/openapi.json");
