//! The limits the API enforces, documented in the README and the OpenAPI
//! document.

/// The most heaps in a game.
pub const MAX_HEAPS: usize = 12;
/// The most tokens in one heap (each is a button on the page).
pub const MAX_HEAP_SIZE: u64 = 50;
/// The largest request body accepted, in bytes.
pub const MAX_BODY_BYTES: usize = 16 * 1024;
/// Games not touched for this many days are deleted (their results stay in
/// the statistics).
pub const EXPIRY_DAYS: i64 = 30;
