//! The limits the API enforces, documented in the README and the OpenAPI
//! document.

/// The most heaps in a game (and pairs, steps or rows in other rule sets).
pub const MAX_HEAPS: usize = 12;
/// The most tokens in one heap, pile or step (each is a button on the page).
pub const MAX_HEAP_SIZE: u64 = 50;
/// The widest row of a Northcott board.
pub const MAX_ROW_WIDTH: u64 = 20;
/// The most positions one exhaustive search may visit (misère play of rule
/// sets without a misère theory): larger positions are reported as not
/// analysable instead of holding the server up.
pub const SEARCH_BUDGET: usize = 20_000;
/// The largest request body accepted, in bytes.
pub const MAX_BODY_BYTES: usize = 16 * 1024;
/// Games not touched for this many days are deleted (their results stay in
/// the statistics).
pub const EXPIRY_DAYS: i64 = 30;
