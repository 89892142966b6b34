//! The starting position and the random generator, from the command line.

use bouton_grundy::{AnyRules, RuleSet};
use bouton_rules::{Convention, Heaps};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::UsageError;
use crate::cli::StartArgs;

/// The classic start.
pub const CLASSIC: [u64; 3] = [3, 5, 7];

/// The seed for every random choice: `--seed`, or a fresh one from the
/// operating system (reported by `simulate` so a run can be repeated).
pub fn choose_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| ChaCha8Rng::from_os_rng().random())
}

/// The generator for every random choice, from [`choose_seed`].
pub fn make_rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// The heaps given, or random ones with `--random`, or 3 5 7.
pub fn starting_heaps(args: &StartArgs, rng: &mut ChaCha8Rng) -> Result<Heaps, UsageError> {
    let sizes = match args.random {
        Some(count) => random_heaps(count, args.max, rng)?,
        None if args.heaps.is_empty() => CLASSIC.to_vec(),
        None => args.heaps.clone(),
    };
    Heaps::new(sizes).map_err(|e| UsageError(e.to_string()))
}

/// `count` heaps of 1 to `max` tokens.
pub fn random_heaps(count: u64, max: u64, rng: &mut ChaCha8Rng) -> Result<Vec<u64>, UsageError> {
    const LIMIT: u64 = 10_000_000;
    if count > LIMIT {
        return Err(UsageError(format!("--random {count} is too many heaps: at most {LIMIT}")));
    }
    Ok((0..count).map(|_| rng.random_range(1..=max)).collect())
}

/// The start of a game of `set`: the numbers given, random ones (drawn as
/// the rule set draws them), or the rule set's usual start.
pub fn start_numbers(set: &RuleSet, args: &StartArgs, rng: &mut ChaCha8Rng) -> Result<Vec<u64>, UsageError> {
    if !args.heaps.is_empty() {
        return Ok(args.heaps.clone());
    }
    let Some(count) = args.random else { return Ok(set.default_start()) };
    let count = count.min(crate::play::MAX_INTERACTIVE_HEAPS as u64 + 1) as usize;
    let rules = AnyRules::new(set.clone(), Convention::Normal);
    Ok(rules.random_start(count, args.max.max(2), rng))
}
