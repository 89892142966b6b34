//! The starting position and the random generator, from the command line.

use bouton_games::{AnyRules, RuleSet};
use bouton_rules::Convention;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::UsageError;
use crate::cli::StartArgs;

/// The seed for every random choice: `--seed`, or a fresh one from the
/// operating system (reported by `simulate` so a run can be repeated).
pub fn choose_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| ChaCha8Rng::from_os_rng().random())
}

/// The generator for every random choice, from [`choose_seed`].
pub fn make_rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// The rule set `--rules` names, Nim when none is named.
pub fn rule_set(rules: Option<&str>) -> Result<RuleSet, UsageError> {
    rules.unwrap_or("nim").parse().map_err(|e: bouton_games::RuleSetError| UsageError(e.to_string()))
}

/// The most parts `--random` draws.
const RANDOM_LIMIT: u64 = 10_000_000;

/// The start of a game of `set`: the numbers given, random ones (drawn as
/// the rule set draws them, at most `most` parts), or the rule set's usual
/// start.
pub fn start_numbers(set: &RuleSet, args: &StartArgs, most: u64, rng: &mut ChaCha8Rng) -> Result<Vec<u64>, UsageError> {
    if !args.heaps.is_empty() {
        return Ok(args.heaps.clone());
    }
    let Some(count) = args.random else { return Ok(set.default_start()) };
    if count > RANDOM_LIMIT {
        let parts = set.board_kind().parts();
        return Err(UsageError(format!("--random {count} is too many {parts}: at most {RANDOM_LIMIT}")));
    }
    let rules = AnyRules::new(set.clone(), Convention::Normal);
    Ok(rules.random_start(count.min(most) as usize, args.max.max(2), rng))
}
