//! The starting position and the random generator, from the command line.

use bouton_rules::Heaps;
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
