//! Quotients computed once per process: front-ends ask for a game's
//! quotient many times (every hint, every computer move) and the engine's
//! answer for a game never changes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use bouton_grundy::HeapGame;

use crate::{MisereError, MisereQuotient, SolveOptions, solve};

/// What the cache holds for a game: a quotient, or why there is none (only
/// answers that do not depend on the budget: too large, or not provable).
type Entry = Result<Arc<MisereQuotient>, MisereError>;

/// The game, the largest heap asked for and the largest order allowed.
type Key = (HeapGame, u64, usize);

fn cache() -> &'static Mutex<HashMap<Key, Entry>> {
    static CACHE: OnceLock<Mutex<HashMap<Key, Entry>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The quotient of `game` as [`solve`] computes it with `options`
/// (the same game, range and largest order), remembered for the rest of the process: the first call computes it, the
/// next ones return it at once. Only a quotient proved periodic (the whole
/// game's) and the answers that no budget changes
/// ([`MisereError::TooLarge`], [`MisereError::Unverified`]) are remembered;
/// running out of budget is not, so a later call with more may succeed.
///
/// ```
/// use bouton_misere::{cached, HeapGame, SolveOptions};
///
/// let game: HeapGame = "0.75".parse()?;
/// let first = cached(&game, &SolveOptions::upto(300))?;
/// let again = cached(&game, &SolveOptions::upto(300))?;
/// assert!(std::sync::Arc::ptr_eq(&first, &again));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`solve`].
pub fn cached(game: &HeapGame, options: &SolveOptions) -> Result<Arc<MisereQuotient>, MisereError> {
    let key = (game.clone(), options.upto, options.max_order);
    if let Ok(map) = cache().lock()
        && let Some(entry) = map.get(&key)
    {
        return entry.clone();
    }
    let result = solve(game, options).map(Arc::new);
    let lasting = match &result {
        Ok(q) => q.pretending().period().is_some(),
        Err(MisereError::TooLarge { .. } | MisereError::Unverified { .. }) => true,
        Err(_) => false,
    };
    if lasting && let Ok(mut map) = cache().lock() {
        map.insert(key, result.clone());
    }
    result
}
