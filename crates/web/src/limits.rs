//! The limits the API enforces, documented in the README and the OpenAPI
//! document.

/// The most heaps in a game (and pairs, steps or rows in other rule sets).
pub const MAX_HEAPS: usize = 12;
/// The most tokens in one heap, pile or step (each is a button on the page).
pub const MAX_HEAP_SIZE: u64 = 50;
/// The widest row of a Northcott board.
pub const MAX_ROW_WIDTH: u64 = 20;
/// The operations one analysis or computer move may spend (a move
/// generated, a position looked up): larger positions are reported as not
/// analysable within the limits instead of holding the server up.
pub const SEARCH_OPERATIONS: u64 = 2_000_000;
/// The memory one analysis or computer move may hold.
pub const SEARCH_BYTES: u64 = 64 << 20;
/// The wall-clock time one analysis or computer move may take.
pub const SEARCH_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// The budget of one analysis or computer move on the server.
///
/// ```
/// assert_eq!(bouton_web::limits::search_budget().operations(), bouton_web::limits::SEARCH_OPERATIONS);
/// ```
pub fn search_budget() -> bouton_games::Budget {
    bouton_games::Budget::new(SEARCH_OPERATIONS, SEARCH_BYTES).with_time_limit(SEARCH_TIME)
}
/// The largest request body accepted, in bytes.
pub const MAX_BODY_BYTES: usize = 16 * 1024;
/// Games not touched for this many days are deleted (their results stay in
/// the statistics).
pub const EXPIRY_DAYS: i64 = 30;
