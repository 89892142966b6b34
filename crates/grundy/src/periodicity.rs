use serde::Serialize;

use crate::HeapGame;

/// The longest period looked for unless asked otherwise: no limit but the
/// values themselves (every period with room to be proved or to repeat
/// three times). The search keeps no array per candidate, so it costs no
/// memory beyond the values.
pub const DEFAULT_MAX_PERIOD: u64 = u64::MAX;

/// What is known about the periodicity of a computed Grundy sequence.
///
/// A sequence is periodic with period `p` and pre-period `e` when
/// G(n + p) = G(n) for every n ≥ e (and `e` is the least such n; the last
/// exception is n = e − 1).
///
/// For an octal game with finitely many digits, last non-zero digit `d_t`,
/// the **periodicity theorem** turns a finite check into a proof: if
/// G(n + p) = G(n) for all n with e ≤ n < 2e' + p + t, where
/// e' = max(e, 1), it holds for all n ≥ e (the usual statement has e where
/// bouton has e'; with e = 0 the edge case N = p + t, split into p and p,
/// would be matched by a "split" with an empty part, so bouton checks two
/// values more there). For games that never split a heap, G(n) depends only on the `t`
/// values before it, so `t` values in a row repeating `p` later suffice.
///
/// For a **hexadecimal** game (a move may leave three heaps; no `!`), the
/// check is longer: G(n + p) = G(n) for e ≤ n < 3e + 2p + t proves it for
/// all n ≥ e (Howse and Nowakowski, *Periodicity and arithmetic-periodicity
/// in hexadecimal games*, Theoretical Computer Science 313, 2004, prove a
/// periodicity theorem of this kind). bouton proves the bound it uses here.
/// Let h = 3, the most heaps a move leaves, e' = max(e, 1) and
/// N₀ = h·e' + (h−1)·p + t.
/// *Claim*: if G(n + p) = G(n) for e ≤ n < N₀, then for every n ≥ e.
/// *Proof*, by induction on N ≥ N₀, the claim holding for e ≤ n < N. The
/// options of N and of N + p removing the same k ≤ t are matched, value for
/// value, in both directions:
/// - leaving one heap: N + p − k and N − k; e ≤ N − k < N (N₀ > e + t), so
///   G(N + p − k) = G(N − k). (Leaving nothing is impossible: N > t.)
/// - leaving j ≥ 2 heaps (j ≤ h) a₁ ≤ … ≤ a_j of N + p − k: the largest,
///   a_j ≥ (N + p − k)/j ≥ (N₀ + p − t)/h ≥ e' + p, so a_j − p ≥ e' ≥ 1
///   and a_j − p < N: replacing a_j by a_j − p gives an option of N − k
///   (leaving j heaps, removing k) of the same value. Conversely a split
///   of N − k whose largest part b_j ≥ (N − k)/j ≥ e (as N ≥ h·e + t) is
///   matched by b_j + p, of the same value (e ≤ b_j < N).
///
/// So both value sets are equal and so are the mexes: G(N + p) = G(N). ∎
/// The largest n read is N₀ − 1 + p = 3·(e' + p) + t − 1. (With h = 2 the
/// same matching gives the octal bound above; e' keeps a part from
/// becoming empty when e = 0.) The matching needs the parts free: with `!`
/// (parts pairwise unequal) replacing a_j by a_j − p may make two parts
/// equal, so no theorem is claimed for codes with `!`.
///
/// ```
/// use bouton_grundy::{compute, ComputeOptions, HeapGame, Periodicity};
///
/// let kayles = HeapGame::kayles();
/// let seq = compute(&kayles, 200, ComputeOptions::default())?;
/// assert_eq!(
///     seq.periodicity(),
///     &Periodicity::Proved { period: 12, preperiod: 71, needed: 167 }
/// );
/// let short = compute(&kayles, 150, ComputeOptions::default())?;
/// assert_eq!(
///     short.periodicity(),
///     &Periodicity::Apparent { period: 12, preperiod: 71, repeats: 6, needed: Some(167) }
/// );
/// // Repeating over too short a stretch to be likely: no claim.
/// let shorter = compute(&kayles, 120, ComputeOptions::default())?;
/// assert!(matches!(shorter.periodicity(), Periodicity::None { .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Periodicity {
    /// Proved for every n ≥ `preperiod`, from the values up to `needed`.
    Proved {
        /// The least period.
        period: u64,
        /// The least n from which the sequence repeats.
        preperiod: u64,
        /// The largest n whose value the proof used.
        needed: u64,
    },
    /// Holds, unproved, over at least three whole periods and over at least
    /// the latter half of the computed values: likely, not certain.
    Apparent {
        /// The least apparent period.
        period: u64,
        /// From where it holds in the computed values.
        preperiod: u64,
        /// How many whole periods the computed values repeat it.
        repeats: u64,
        /// Where the periodicity theorem applies: if the period holds up to
        /// this n, the theorem proves it (a claim about the computation to
        /// come, not a promise that it will hold).
        needed: Option<u64>,
    },
    /// Arithmetic-periodic, proved for every n ≥ `preperiod`:
    /// G(n + p) = G(n) + s (s > 0, the saltus). See [`ArithmeticTheorem`]
    /// for the theorems that prove it and the games they cover.
    ArithmeticProved {
        /// The least such period.
        period: u64,
        /// The saltus: how much the values grow each period.
        saltus: u64,
        /// The least n from which it holds.
        preperiod: u64,
        /// The largest n whose value the proof used.
        needed: u64,
    },
    /// Arithmetic-periodic, unproved: G(n + p) = G(n) + s (s > 0, the
    /// saltus) for every computed n ≥ `preperiod`, over at least three whole
    /// periods and the latter half of the values. Proved
    /// ([`Periodicity::ArithmeticProved`]) where a theorem applies; for a
    /// finite octal code it cannot go on for ever
    /// ([`ArithmeticTheorem::Impossible`]).
    Arithmetic {
        /// The least such period.
        period: u64,
        /// The saltus: how much the values grow each period.
        saltus: u64,
        /// From where it holds in the computed values.
        preperiod: u64,
        /// How many whole periods the computed values show it.
        repeats: u64,
    },
    /// No period up to `longest_checked` repeats three times over the latter
    /// half of the computed values.
    None {
        /// The longest period that had room for three repetitions.
        longest_checked: u64,
    },
}

impl Periodicity {
    /// The period and pre-period, proved or apparent.
    pub fn period(&self) -> Option<(u64, u64)> {
        match *self {
            Periodicity::Proved { period, preperiod, .. } | Periodicity::Apparent { period, preperiod, .. } => {
                Some((period, preperiod))
            }
            Periodicity::Arithmetic { .. } | Periodicity::ArithmeticProved { .. } | Periodicity::None { .. } => None,
        }
    }

    /// Whether periodicity (plain or arithmetic) is proved.
    pub fn is_proved(&self) -> bool {
        matches!(self, Periodicity::Proved { .. } | Periodicity::ArithmeticProved { .. })
    }
}

/// Which theorem, if any, turns arithmetic periodicity seen in the values,
/// G(n + p) = G(n) + s (s > 0) for n ≥ e, into a proof.
///
/// - [`ArithmeticTheorem::Prefix`], for games that never split a heap and
///   whose repeated last digit lets a move leave any smaller heap (digit 2
///   or 3 repeated: the all-but subtraction games, Nim `0.3…`, `0.2…`).
///   Let K be the number of digits written (d_0 … d_{K−1}), j₀ = 0 if the
///   repeated digit lets a move take the whole heap (3) and 1 if not (2),
///   and B(x) = { G(j) : j₀ ≤ j ≤ x }. For n ≥ K the options' values are
///   B(n − K) and the values G(n − k) for the k < K whose digit has bit 2.
///   **Theorem.** If e ≥ j₀ and
///   (H1) G(n + p) = G(n) + s for e ≤ n < max(e + K − 1, K), and
///   (H2) B(e + p − 1) = {0, …, s − 1} ∪ (B(e − 1) + s),
///   then G(n + p) = G(n) + s for every n ≥ e.
///   *Proof*, by induction on N ≥ max(e + K − 1, K), the claim holding for
///   e ≤ n < N: B(N + p − K) is B(e + p − 1) together with the G(j),
///   e + p ≤ j ≤ N + p − K, each G(j − p) + s by induction; with (H2) it is
///   {0, …, s − 1} ∪ (B(N − K) + s). Each G(N + p − k), k < K, is
///   G(N − k) + s, as e ≤ N − k < N. So the options of N + p are worth
///   {0, …, s − 1} together with s plus the values of N's options, and
///   their mex is G(N) + s. ∎ This is the finite check of the kind Austin's
///   thesis (R. B. Austin, *Impartial and partisan games*, M.Sc. thesis,
///   Calgary, 1976) and Winning Ways (ch. 4, "arithmetic periodicity")
///   use; bouton states and proves it here for this class, which contains
///   Angela Siegel's all-but subtraction games (every one of which is
///   arithmetic-periodic: A. Siegel, *Finite excluded subtraction sets and
///   infinite geography games*, M.Sc. thesis, Dalhousie, 2005). The values
///   it reads: up to n = max(e + K − 1, K) + p − 1.
/// - [`ArithmeticTheorem::ClosedForm`]: Lasker's Nim, `4.3…`, whose values
///   4k + 1, 4k + 2, 4k + 4, 4k + 3 (k ≥ 0, from n = 1) are a classical
///   theorem (Winning Ways, ch. 4): period 4, saltus 4, pre-period 1.
/// - [`ArithmeticTheorem::Impossible`]: finite octal codes are never
///   arithmetic-periodic with a saltus (Austin 1976; D. G. Horrocks and
///   R. J. Nowakowski, *Regularity in the G-sequences of octal games with a
///   pass*, Integers 3, 2003): what the values show cannot go on for ever.
/// - [`ArithmeticTheorem::Layers`], for games without `!` where a move may
///   leave three heaps (hexadecimal codes such as `0.8`, `0.C`, `0.0F`) or
///   whose repeated digit leaves one heap while some digit splits: a finite
///   check for a saltus that is a power of two above the first values,
///   stated and proved on the variant.
/// - [`ArithmeticTheorem::None`]: no theorem known to bouton (splitting
///   games with `!`, such as Grundy's game, and splitting games whose
///   repeated digit only takes whole heaps): arithmetic periodicity stays
///   apparent.
///
/// ```
/// use bouton_grundy::{ArithmeticTheorem, HeapGame};
///
/// let all_but = HeapGame::all_but(&[1, 2])?;
/// assert_eq!(ArithmeticTheorem::for_game(&all_but), ArithmeticTheorem::Prefix { written: 3, first: 0 });
/// assert_eq!(ArithmeticTheorem::for_game(&HeapGame::laskers_nim()), ArithmeticTheorem::ClosedForm);
/// assert_eq!(ArithmeticTheorem::for_game(&HeapGame::kayles()), ArithmeticTheorem::Impossible);
/// assert_eq!(ArithmeticTheorem::for_game(&HeapGame::parse_hexadecimal("0.8")?), ArithmeticTheorem::Layers);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithmeticTheorem {
    /// The prefix theorem above.
    Prefix {
        /// K: the digits written, d_0 … d_{K−1}.
        written: u64,
        /// j₀: 0 when the repeated digit may take a whole heap, else 1.
        first: u64,
    },
    /// The layer theorem, for games without `!` in which a move may leave
    /// three heaps, or whose repeated digit (from d_K on) leaves one heap.
    /// K is the number of digits written (d_0 … d_{K−1}); the repeated
    /// digit, if any, never splits.
    ///
    /// Let e ≥ 0, p ≥ 1, s a power of two, D = max(1, ⌈K/p⌉) and
    /// N₀ = e + p(D + 3). Let H(a) = 0 and L(a) = G(a) for a < e, and
    /// H(a) = ⌊(a − e)/p⌋, L(a) = G(e + (a − e) mod p) for a ≥ e; the
    /// claim is G(a) = F(a) = s·H(a) + L(a) for every a (the values come in
    /// *layers* of s: H(a) is the layer, L(a) the low value).
    ///
    /// **Theorem.** If
    /// - (A0) G(n) < s for n < e + p,
    /// - (A1) G(n + p) = G(n) + s for e ≤ n < N₀ − p,
    /// - (A2) for each r < p and π ∈ {0, 1}, every y < s is L(e + δ) for
    ///   some δ < p such that the repeated digit has bit 2, or some written
    ///   d_k has bit 8 with pπ + r + k + δ even,
    /// - (A3) for each r < p and π ∈ {0, 1}, every y < s is G(a) for some
    ///   1 ≤ a < e + p such that the repeated digit has bit 2, or some
    ///   written d_k has bit 8 with e + pπ + r + k + a even; or y = 0 and the
    ///   repeated digit has bit 1, or some written d_k has bit 4 with
    ///   e + pπ + r + k even,
    /// - (A4) for each r < p, among the options of N = N₀ + r, each part a
    ///   valued as F(a): none has ΣH(a_i) = H(N) and ⊕L(a_i) = L(N); and
    ///   the *exact* options (once equal parts are paired off, at most one
    ///   part with H ≥ 1 is left; X is its H) with X = H(N) have every low
    ///   value ⊕L(a_i) below L(N), and for each λ = 1 … D those with
    ///   X = H(N) − λ have every low value below s,
    ///
    /// then G(n + p) = G(n) + s for every n ≥ e.
    ///
    /// *Proof*, by induction on N ≥ N₀, with G(a) = F(a) for a < N (for
    /// a < e + p this is how F is defined, and up to N₀ − 1 it is (A1)). As s is a power of two above every L(a)
    /// (A0), an option leaving heaps a_i is worth s·X + Y with
    /// X = ⊕H(a_i) and Y = ⊕L(a_i) < s. Write N = e + p·H(N) + r (r < p)
    /// and each part a ≥ e as e + p·H(a) + δ (δ < p); if m parts are ≥ e
    /// and the others, b, are below e, the sizes add up to N − k:
    /// p(H(N) − ΣH(a_i)) = k + (m − 1)e + Σδ + Σb − r > −p when m ≥ 1
    /// (and ΣH(a_i) = 0 when m = 0), so X ≤ ΣH(a_i) ≤ H(N), and an
    /// option worth s·H(N) + Y has ΣH(a_i) = H(N).
    /// - F(N) is no option's value. Such an option has m ≥ 1 (as
    ///   H(N) ≥ 1), and its *shape* (k, the parts below e, the δ of the
    ///   others) has k + (m − 1)e + Σδ + Σb = r, so
    ///   it is also an option of N₀ + r, the H(a_i) now adding up to
    ///   H(N₀ + r) = D + 3 ≥ 3 (a part with e + δ = 0 given H ≥ 1), with
    ///   the same Y. By (A4), Y ≠ L(N₀ + r) = L(N).
    /// - Every value below F(N) is an option's value. In the top layer and
    ///   the D below it: an exact option of N₀ + r with X = H(N₀ + r) − λ
    ///   ≥ 3 has an unpaired part with H ≥ 1; adding N − N₀ − r (a
    ///   multiple of p) to it gives an option of N with X = H(N) − λ and
    ///   the same Y, so (A4) gives s·H(N) + y for y < L(N) and
    ///   s(H(N) − λ) + y for y < s. In a layer 1 ≤ h ≤ H(N) − D − 1: a
    ///   part a = e + hp + δ has N − a ≥ pD + 1 ≥ K + 1, so the repeated
    ///   digit with bit 2 may leave a alone (k = N − a ≥ K), and a written
    ///   d_k with bit 8 may leave a, c, c with c = (N − k − a)/2 ≥ 1 when
    ///   N − k − a ≡ p(H(N) − h) + r + k + δ is even; both are worth
    ///   F(a) = s·h + L(e + δ) (c ⊕ c = 0), and (A2) with
    ///   π = (H(N) − h) mod 2 gives every y < s. In the bottom layer the
    ///   same options with 1 ≤ a < e + p are worth G(a) (now
    ///   N − k − a ≡ e + pH(N) + r + k + a), and taking a whole heap
    ///   (repeated bit 1) or splitting N − k into c, c (bit 4) is worth 0:
    ///   (A3) with π = H(N) mod 2.
    ///
    /// As H(N) ≥ D + 3, these are all the layers from 0 to H(N), so
    /// G(N) = mex = F(N). ∎ It reads the values up to n = N₀ − 1. When s
    /// is not a power of two above G(0) … G(e + p − 1), bouton tries the
    /// multiples (2p, 2s), (4p, 4s), … up to (16p, 16s): proving the form for
    /// one of them proves G(n + p) = G(n) + s for n ≥ e once the values
    /// show it over the first (multiple) period. The check looks at the
    /// options of p heaps and gives up past 2^26 of them. This is a
    /// sufficient condition of bouton's own, of the kind Howse and
    /// Nowakowski prove for hexadecimal games (*Periodicity and
    /// arithmetic-periodicity in hexadecimal games*, Theoretical Computer
    /// Science 313, 2004: a saltus that is a power of two above the
    /// pre-period's values); (A2) and (A3) need the three-heap moves
    /// (a, c, c), whose equal heaps cancel, or a repeated digit leaving one
    /// heap, to reach the low layers. A saltus with an odd factor, as
    /// `0.3F`'s (period 6, saltus 3), is never proved by it.
    Layers,
    /// Lasker's Nim's closed form.
    ClosedForm,
    /// A finite octal code: never arithmetic-periodic.
    Impossible,
    /// No theorem applies.
    None,
}

impl ArithmeticTheorem {
    /// The theorem for `game`.
    pub fn for_game(game: &HeapGame) -> ArithmeticTheorem {
        let tail = game.tail();
        if *game == HeapGame::laskers_nim() {
            ArithmeticTheorem::ClosedForm
        } else if game.is_finite_octal() {
            ArithmeticTheorem::Impossible
        } else if tail & 2 != 0 && !game.splits() {
            ArithmeticTheorem::Prefix { written: game.digits().len() as u64, first: u64::from(tail & 1 == 0) }
        } else if !game.unequal_splits() && (game.leaves_three() || tail & 2 != 0) {
            ArithmeticTheorem::Layers
        } else {
            ArithmeticTheorem::None
        }
    }

    /// Whether the theorem proves G(n + `period`) = G(n) + `saltus` for
    /// every n ≥ `preperiod` of `game` from the values G(0), G(1), … in
    /// `values`: the largest n the proof read, or `None` when it does not
    /// (the values do not show it from `preperiod` to the last, or a
    /// hypothesis fails, or no theorem applies). The values are taken to be
    /// the game's, as [`compute`](crate::compute()) gives them: they are
    /// read, not computed again.
    ///
    /// ```
    /// use bouton_grundy::{compute, ArithmeticTheorem, ComputeOptions, HeapGame};
    ///
    /// // 0.8: take one token and split the rest into three heaps.
    /// let game = HeapGame::parse_hexadecimal("0.8")?;
    /// let theorem = ArithmeticTheorem::for_game(&game);
    /// assert_eq!(theorem, ArithmeticTheorem::Layers);
    /// let mut values = compute(&game, 60, ComputeOptions::default())?.to_vec()?;
    /// assert_eq!(theorem.proves(&game, &values, 3, 1, 1), Some(12));
    /// // One value changed: the values no longer show it, nothing is proved.
    /// values[30] += 1;
    /// assert_eq!(theorem.proves(&game, &values, 3, 1, 1), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn proves(self, game: &HeapGame, values: &[u32], period: u64, saltus: u64, preperiod: u64) -> Option<u64> {
        let count = values.len() as u64;
        let shown = period > 0
            && (preperiod..count.saturating_sub(period))
                .all(|n| u64::from(values[(n + period) as usize]) == u64::from(values[n as usize]) + saltus);
        if !shown {
            return None;
        }
        self.prove(game, &mut |n| values[n as usize], count, ArithmeticClaim { period, saltus, preperiod })
    }

    /// The proof, if the theorem proves `claim` from the values G(0) …
    /// G(`count` − 1) (read with `at`), which show it from its pre-period to
    /// the last: the largest n it read.
    pub(crate) fn prove(
        self,
        game: &HeapGame,
        at: &mut impl FnMut(u64) -> u32,
        count: u64,
        claim: ArithmeticClaim,
    ) -> Option<u64> {
        match self {
            ArithmeticTheorem::ClosedForm => {
                // The closed form itself, checked on the values at hand.
                let lasker = |n: u64| match n % 4 {
                    0 if n > 0 => n - 1,
                    3 => n + 1,
                    _ => n,
                };
                let holds = (0..count.min(64)).all(|n| u64::from(at(n)) == lasker(n));
                let lasker_claim = ArithmeticClaim { period: 4, saltus: 4, preperiod: 1 };
                (holds && claim == lasker_claim).then_some(count.min(64) - 1)
            }
            ArithmeticTheorem::Prefix { written, first } => {
                // (H1) holds for every e' ≥ e the values reach; (H2) is tried
                // from e on, for a few e'.
                let ArithmeticClaim { period, saltus: s, preperiod } = claim;
                let start = preperiod.max(first);
                (start..start + 8).find_map(|e| {
                    let needed = (e + written - 1).max(written) + period - 1;
                    (needed < count && prefix_condition(at, first, e, period, s)).then_some(needed)
                })
            }
            ArithmeticTheorem::Layers => crate::layers::prove(game, at, count, claim),
            ArithmeticTheorem::Impossible | ArithmeticTheorem::None => None,
        }
    }
}

/// What an arithmetic-periodicity proof sets out to prove: G(n + `period`)
/// = G(n) + `saltus` for every n ≥ `preperiod`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ArithmeticClaim {
    /// The period p.
    pub(crate) period: u64,
    /// The saltus s: what the values gain each period.
    pub(crate) saltus: u64,
    /// The pre-period e: the first n it holds from.
    pub(crate) preperiod: u64,
}

/// (H2): B(e + p − 1) = {0, …, s − 1} ∪ (B(e − 1) + s), where B(x) is the
/// set of G(j) for `first` ≤ j ≤ x.
fn prefix_condition(at: &mut impl FnMut(u64) -> u32, first: u64, e: u64, p: u64, s: u64) -> bool {
    let set = |at: &mut dyn FnMut(u64) -> u32, to: u64| {
        let mut values: Vec<u64> = (first..to).map(|j| u64::from(at(j))).collect();
        values.sort_unstable();
        values.dedup();
        values
    };
    let high = set(at, e + p);
    let low = set(at, e);
    let expected: Vec<u64> = (0..s).chain(low.iter().map(|v| v + s)).collect();
    // `low + s` lies above s − 1 and is sorted: `expected` is sorted too.
    high == expected
}

/// Which finite check proves a period, for a given game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ProofRule {
    /// The periodicity theorem for moves leaving at most `heaps` heaps (2,
    /// octal: up to 2(max(e, 1) + p) + t − 1; 3, hexadecimal: up to
    /// 3(max(e, 1) + p) + t − 1).
    Splitting { t: u64, heaps: u64 },
    /// No splits: a window of `t` values after `from(e)` repeating.
    Window { t: u64, from_zero: bool },
    /// Nothing is proved (infinite codes, unequal splits).
    Unavailable,
}

impl ProofRule {
    pub(crate) fn for_game(game: &HeapGame) -> ProofRule {
        let Some(t) = game.last_digit() else {
            return ProofRule::Unavailable;
        };
        if game.unequal_splits() {
            // The theorem is for free splits.
            ProofRule::Unavailable
        } else if game.splits() {
            ProofRule::Splitting { t, heaps: if game.leaves_three() { 3 } else { 2 } }
        } else {
            // With only "take and leave nothing or one heap" digits 3 and 0,
            // G(n) = mex{G(n - k)} is the same rule from n = t on; with lone
            // 1 or 2 bits it is uniform only for n > t.
            let from_zero = game.digits().iter().all(|&d| d == 0 || d == 3);
            ProofRule::Window { t, from_zero }
        }
    }

    /// The largest n whose value the proof of (`preperiod`, `period`) needs.
    pub(crate) fn needed(self, preperiod: u64, period: u64) -> Option<u64> {
        match self {
            ProofRule::Splitting { t, heaps } => {
                let e = preperiod.max(1);
                Some(heaps.saturating_mul(e.saturating_add(period)).saturating_add(t).saturating_sub(1))
            }
            ProofRule::Window { t, from_zero } => {
                let start = if from_zero { preperiod } else { preperiod.max(1) };
                Some((start + period + t.max(1)).saturating_sub(1))
            }
            ProofRule::Unavailable => None,
        }
    }
}

/// Candidates followed value by value between full searches.
const LIVE: usize = 8;

/// A full search may make this many comparisons per value computed (plus
/// [`SCAN_SLACK`]); past it the search stops and says how far it got.
const SCAN_WORK: u64 = 24;
const SCAN_SLACK: u64 = 1 << 22;

/// A candidate period followed value by value: its least pre-period so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Live {
    period: u64,
    preperiod: u64,
}

/// Finds the periods of the values computed so far without any array per
/// candidate period: for each candidate p (every p up to half the values,
/// or the limit asked for) it reads back from the last value while
/// G(n) = G(n − p). A wrong candidate fails after a comparison or two; the
/// true one costs its run, and its multiples start where it is known to
/// hold. A search costs about one comparison per candidate, so it runs at
/// the end and, when the computation is to stop once proved, each time the
/// values have grown by a quarter; between searches the few candidates that
/// have repeated over a whole period are followed value by value, so a
/// proof is seen at the next block of values.
#[derive(Debug, Clone)]
pub(crate) struct PeriodTracker {
    max_period: u64,
    /// Values seen: G(0) to G(count − 1).
    count: u64,
    rule: ProofRule,
    /// What proves an arithmetic period.
    arithmetic: ArithmeticTheorem,
    /// The game, which the layer theorem reads.
    game: HeapGame,
    /// Follow candidates between searches (only needed to stop once proved).
    follow: bool,
    live: Vec<Live>,
    next_search: u64,
}

/// The least pre-period of one candidate in a search, and what it cost.
struct Run {
    preperiod: u64,
    cost: u64,
}

/// Scans back from `start` while G(n) − G(n − p) = `diff`: the least e with
/// G(m + p) = G(m) + diff for every m from e to the last.
#[inline]
fn run_back(at: &mut impl FnMut(u64) -> u32, p: u64, start: u64, diff: i64) -> Run {
    let mut n = start;
    let mut cost = 0;
    while n >= p {
        cost += 1;
        if i64::from(at(n)) - i64::from(at(n - p)) != diff {
            return Run { preperiod: n + 1 - p, cost };
        }
        if n == 0 {
            break;
        }
        n -= 1;
    }
    Run { preperiod: 0, cost }
}

/// Candidates already known to hold from some point, whose multiples need
/// only be scanned from where the known one ends: if G(n + q) = G(n) + s
/// for n ≥ e, then G(n + kq) = G(n) + ks for n ≥ e.
struct Known {
    /// (q, e, next multiple of q to come).
    list: Vec<(u64, u64, u64)>,
    next: u64,
}

impl Known {
    fn new() -> Known {
        Known { list: Vec::new(), next: u64::MAX }
    }

    fn add(&mut self, q: u64, e: u64) {
        if self.list.len() < LIVE {
            self.list.push((q, e, 2 * q));
            self.next = self.next.min(2 * q);
        }
    }

    /// At candidate `p`: the least e of a known divisor's, if p is a
    /// multiple of one (then the run for p holds from e + p on).
    #[inline]
    fn at(&mut self, p: u64) -> Option<u64> {
        if p < self.next {
            return None;
        }
        let mut found: Option<u64> = None;
        self.next = u64::MAX;
        for (q, e, next) in &mut self.list {
            while *next < p {
                *next += *q;
            }
            if *next == p {
                found = Some(found.map_or(*e, |f| f.min(*e)));
                *next += *q;
            }
            self.next = self.next.min(*next);
        }
        found
    }
}

/// The divisors of `p` in increasing order.
fn divisors(p: u64) -> Vec<u64> {
    let mut low = Vec::new();
    let mut high = Vec::new();
    let mut d = 1;
    while d * d <= p {
        if p.is_multiple_of(d) {
            low.push(d);
            if d * d != p {
                high.push(p / d);
            }
        }
        d += 1;
    }
    low.extend(high.into_iter().rev());
    low
}

impl PeriodTracker {
    /// A tracker looking for periods up to `max_period`; `follow` when the
    /// computation stops as soon as a proof is complete.
    pub(crate) fn new(game: &HeapGame, max_period: u64, follow: bool) -> PeriodTracker {
        PeriodTracker {
            max_period: max_period.max(1),
            count: 0,
            rule: ProofRule::for_game(game),
            arithmetic: ArithmeticTheorem::for_game(game),
            game: game.clone(),
            follow,
            live: Vec::new(),
            next_search: 0,
        }
    }

    /// Takes in the values from the last call up to G(`count` − 1); `at(n)`
    /// reads G(n) for any n < `count`. Returns whether a proof is complete
    /// (then [`PeriodTracker::report`] says which); only looked for when
    /// following candidates.
    pub(crate) fn update(&mut self, count: u64, mut at: impl FnMut(u64) -> u32) -> bool {
        if !self.advance(count, &mut at) || !self.follow {
            return false;
        }
        if count >= self.next_search {
            self.next_search = count + count / 4;
            return self.search(&mut at).is_proved();
        }
        let last = count - 1;
        self.live.iter().any(|l| self.rule.needed(l.preperiod, l.period).is_some_and(|needed| needed <= last))
    }

    /// Brings the candidates followed up to `count` values; false if there
    /// is nothing new.
    fn advance(&mut self, count: u64, at: &mut impl FnMut(u64) -> u32) -> bool {
        let from = self.count;
        if count <= from {
            return false;
        }
        self.count = count;
        for live in &mut self.live {
            let p = live.period;
            for n in from.max(p)..count {
                if at(n) != at(n - p) {
                    live.preperiod = n + 1 - p;
                }
            }
        }
        self.live.retain(|l| count - l.preperiod - l.period >= l.period);
        true
    }

    /// What the values G(0) to G(`count` − 1) show (a full search).
    pub(crate) fn report(&mut self, count: u64, mut at: impl FnMut(u64) -> u32) -> Periodicity {
        self.advance(count, &mut at);
        self.search(&mut at)
    }

    /// Searches every candidate: a proof for the least period that has
    /// one, else the least apparent period, else the least arithmetic one.
    /// Refreshes the candidates followed.
    fn search(&mut self, at: &mut impl FnMut(u64) -> u32) -> Periodicity {
        let count = self.count;
        if count < 2 {
            self.live.clear();
            return Periodicity::None { longest_checked: 0 };
        }
        let last = count - 1;
        let mut budget = SCAN_WORK.saturating_mul(count).saturating_add(SCAN_SLACK);
        // A proof by the periodicity theorem needs two periods of values;
        // t values repeating, only one.
        let room = if matches!(self.rule, ProofRule::Window { .. }) { last } else { count / 2 };
        let top = self.max_period.min(room);
        let old: Vec<Live> = std::mem::take(&mut self.live);
        let mut old_at = 0;
        let mut known = Known::new();
        let mut apparent: Option<(u64, u64)> = None;
        let mut reached = top;
        let proofs = self.rule != ProofRule::Unavailable;
        for p in 1..=top {
            if budget == 0 {
                reached = p - 1;
                break;
            }
            while old_at < old.len() && old[old_at].period < p {
                old_at += 1;
            }
            let e = if old_at < old.len() && old[old_at].period == p {
                old[old_at].preperiod
            } else if let Some(e) = known.at(p) {
                let run = run_back(at, p, (e + p).min(count) - 1, 0);
                budget = budget.saturating_sub(run.cost);
                run.preperiod.min(e)
            } else {
                // The common case, inline: most candidates fail at once.
                if at(last) != at(last - p) {
                    budget -= 1;
                    continue;
                }
                let run = run_back(at, p, last, 0);
                budget = budget.saturating_sub(run.cost);
                run.preperiod
            };
            let span = count - e;
            if span - p >= p.max(32) {
                known.add(p, e);
                if self.live.len() < LIVE {
                    self.live.push(Live { period: p, preperiod: e });
                }
            }
            if proofs
                && let Some(needed) = self.rule.needed(e, p)
                && needed <= last
            {
                self.live.retain(|l| l.period <= p);
                return self.proof(at, p, e, needed);
            }
            if apparent.is_none() && span >= 3 * p && span >= count / 2 {
                if !proofs {
                    // Nothing larger can be proved: the least apparent period is the answer.
                    return Periodicity::Apparent { period: p, preperiod: e, repeats: span / p, needed: None };
                }
                apparent = Some((p, e));
            }
        }
        if let Some((period, preperiod)) = apparent {
            let span = count - preperiod;
            return Periodicity::Apparent {
                period,
                preperiod,
                repeats: span / period,
                needed: self.rule.needed(preperiod, period),
            };
        }
        let found = self.arithmetic(at, reached);
        if let Periodicity::Arithmetic { period, saltus, preperiod, .. } = found
            && let Some(needed) =
                self.arithmetic.prove(&self.game, at, count, ArithmeticClaim { period, saltus, preperiod })
        {
            return Periodicity::ArithmeticProved { period, saltus, preperiod, needed };
        }
        found
    }

    /// A proof for period `p` from `e` (to `needed`) proves the least period
    /// dividing it, once the values show that divisor holding over a full
    /// proved period.
    fn proof(&self, at: &mut impl FnMut(u64) -> u32, p: u64, e: u64, needed: u64) -> Periodicity {
        let last = self.count - 1;
        for q in divisors(p) {
            if q == p {
                break;
            }
            let eq = run_back(at, q, last, 0).preperiod;
            let needed_q = eq.max(e) + p + q - 1;
            if needed_q <= last {
                return Periodicity::Proved { period: q, preperiod: eq, needed: needed.max(needed_q) };
            }
        }
        Periodicity::Proved { period: p, preperiod: e, needed }
    }

    /// The least arithmetic period (G(n + p) = G(n) + s, s > 0) over three
    /// whole periods and the latter half of the values, among periods up to
    /// `top`.
    fn arithmetic(&self, at: &mut impl FnMut(u64) -> u32, top: u64) -> Periodicity {
        let count = self.count;
        let last = count - 1;
        let top = top.min(count / 3);
        let mut budget = SCAN_WORK.saturating_mul(count).saturating_add(SCAN_SLACK);
        let mut known = Known::new();
        for p in 1..=top {
            if budget == 0 {
                return Periodicity::None { longest_checked: p - 1 };
            }
            let saltus = i64::from(at(last)) - i64::from(at(last - p));
            let from_known = known.at(p);
            if saltus <= 0 {
                budget -= 1;
                continue;
            }
            let run = match from_known {
                Some(e) => {
                    let run = run_back(at, p, (e + p).min(count) - 1, saltus);
                    Run { preperiod: run.preperiod.min(e), cost: run.cost }
                }
                None => run_back(at, p, last, saltus),
            };
            budget = budget.saturating_sub(run.cost);
            let e = run.preperiod;
            let span = count - e;
            if span - p >= p.max(32) {
                known.add(p, e);
            }
            if span >= 3 * p && span >= count / 2 {
                return Periodicity::Arithmetic { period: p, saltus: saltus as u64, preperiod: e, repeats: span / p };
            }
        }
        Periodicity::None { longest_checked: top }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The report straight from the definitions, every candidate looked at
    /// in full (the tracker this search replaced).
    fn by_definition(values: &[u32], rule: ProofRule) -> Periodicity {
        let count = values.len() as u64;
        if count < 2 {
            return Periodicity::None { longest_checked: 0 };
        }
        let last = count - 1;
        let g = |n: u64| i64::from(values[n as usize]);
        // The least e with G(m + p) = G(m) + s for every m from e on.
        let from = |p: u64, s: i64| (p..count).rev().find(|&n| g(n) - g(n - p) != s).map_or(0, |n| n + 1 - p);
        let room = if matches!(rule, ProofRule::Window { .. }) { last } else { count / 2 };
        for p in 1..=room {
            let e = from(p, 0);
            let Some(needed) = rule.needed(e, p) else { break };
            if needed > last {
                continue;
            }
            for q in (1..=p).filter(|q| p % q == 0) {
                let eq = from(q, 0);
                let needed_q = eq.max(e) + p + q - 1;
                if q == p {
                    return Periodicity::Proved { period: q, preperiod: eq, needed };
                }
                if needed_q <= last {
                    return Periodicity::Proved { period: q, preperiod: eq, needed: needed.max(needed_q) };
                }
            }
        }
        for p in 1..=room {
            let e = from(p, 0);
            let span = count - e;
            if span >= 3 * p && span >= count / 2 {
                return Periodicity::Apparent { period: p, preperiod: e, repeats: span / p, needed: rule.needed(e, p) };
            }
        }
        for p in 1..=room.min(count / 3) {
            let saltus = g(last) - g(last - p);
            let e = from(p, saltus);
            let span = count - e;
            if saltus > 0 && span >= 3 * p && span >= count / 2 {
                return Periodicity::Arithmetic { period: p, saltus: saltus as u64, preperiod: e, repeats: span / p };
            }
        }
        Periodicity::None { longest_checked: room.min(count / 3) }
    }

    fn tracker(rule: ProofRule, follow: bool) -> PeriodTracker {
        let arithmetic = ArithmeticTheorem::None;
        let game = HeapGame::nim();
        PeriodTracker {
            max_period: u64::MAX,
            count: 0,
            rule,
            arithmetic,
            game,
            follow,
            live: Vec::new(),
            next_search: 0,
        }
    }

    /// A small generator, so that the test needs no crate.
    fn lcg(state: &mut u64) -> u64 {
        *state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        *state >> 33
    }

    const RULES: [ProofRule; 5] = [
        ProofRule::Splitting { t: 2, heaps: 2 },
        ProofRule::Splitting { t: 1, heaps: 3 },
        ProofRule::Window { t: 3, from_zero: true },
        ProofRule::Window { t: 1, from_zero: false },
        ProofRule::Unavailable,
    ];

    /// Random sequences that are periodic, arithmetic-periodic or neither
    /// after random pre-periods, over few values (so that long runs happen
    /// by chance too): the search says what the definitions say, fed all at
    /// once or block by block.
    #[test]
    fn the_search_agrees_with_the_definitions() {
        let mut state = 7;
        for case in 0..3000 {
            let len = 2 + lcg(&mut state) % 400;
            let alphabet = 1 + lcg(&mut state) % 4;
            let period = 1 + lcg(&mut state) % 40;
            let pre = lcg(&mut state) % 120;
            let saltus = lcg(&mut state) % 3;
            let mut values: Vec<u32> = Vec::new();
            for n in 0..len as usize {
                let v = if (n as u64) < pre + period {
                    (lcg(&mut state) % alphabet) as u32
                } else {
                    values[n - period as usize] + saltus as u32
                };
                values.push(v);
            }
            let rule = RULES[case % RULES.len()];
            let expected = by_definition(&values, rule);
            let at = |n: u64| values[n as usize];
            assert_eq!(tracker(rule, false).report(len, at), expected, "case {case}: {values:?} {rule:?}");
            let mut followed = tracker(rule, true);
            let mut count = 0;
            while count < len {
                count = (count + 1 + lcg(&mut state) % 50).min(len);
                followed.update(count, at);
            }
            assert_eq!(followed.report(len, at), expected, "case {case} by blocks: {values:?} {rule:?}");
        }
    }

    /// A period of 70,001 after a pre-period of 30,000, as 0.1777's is
    /// long: seen and proved with no limit set, at the first block after
    /// the values the theorem needs.
    #[test]
    fn a_long_period_is_proved_as_soon_as_the_theorem_allows() {
        let (e, p) = (30_000u64, 70_001u64);
        let rule = ProofRule::Splitting { t: 4, heaps: 2 };
        let needed = 2 * e + 2 * p + 4 - 1;
        let mut state = 11;
        let mut values: Vec<u32> = Vec::new();
        for n in 0..needed + 50_000 {
            let v = if n < e + p { (lcg(&mut state) % 30) as u32 } else { values[(n - p) as usize] };
            values.push(v);
        }
        // The last exception: G(e − 1) differs from G(e − 1 + p).
        values[(e - 1) as usize] = values[(e - 1 + p) as usize] + 1;
        let at = |n: u64| values[n as usize];
        let mut followed = tracker(rule, true);
        let mut count = 0;
        let proved_at = loop {
            count += 1 << 12;
            if followed.update(count.min(values.len() as u64), at) {
                break count;
            }
            assert!(count < values.len() as u64, "never proved");
        };
        assert!(proved_at > needed && proved_at <= needed + (1 << 12), "proved at {proved_at}, needed {needed}");
        assert_eq!(followed.report(proved_at, at), Periodicity::Proved { period: p, preperiod: e, needed });
        // One value short: not proved, and too few repeats to be apparent.
        let short = tracker(rule, false).report(needed, at);
        assert!(matches!(short, Periodicity::None { .. }), "{short:?}");
        // Where no theorem applies, three repeats make it apparent.
        let later = tracker(ProofRule::Unavailable, false).report(e + 3 * p, at);
        assert_eq!(later, Periodicity::Apparent { period: p, preperiod: e, repeats: 3, needed: None });
    }
}
