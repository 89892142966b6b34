use std::fmt;
use std::str::FromStr;

/// The split of Grundy values into **rare** and **common** used by the
/// sparse-space method: a value `v` is rare when `v AND mask` has an even
/// number of 1 bits, common otherwise. The XOR of two rare or two common
/// values is rare; of one of each, common.
///
/// Masks are written as Flammenkamp writes them: `…11110` means every bit
/// except bit 0 (the high bits repeat the leading digit for ever); `0b101`
/// or `0x5` is a finite mask.
///
/// ```
/// use bouton_grundy::RareMask;
///
/// let mask: RareMask = "…11110".parse()?;
/// assert_eq!(mask, RareMask::GRUNDY);
/// assert!(mask.is_rare(0) && mask.is_rare(1) && mask.is_rare(6));
/// assert!(!mask.is_rare(2) && !mask.is_rare(256));
/// assert_eq!(mask.to_string(), "…11110");
/// assert_eq!("0x5".parse::<RareMask>()?.to_string(), "0b101");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RareMask(u32);

/// Why a text is not a mask.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a rare/common mask: write it like …11110, 0b110 or 0x1ee (and not 0)")]
pub struct MaskError {
    /// The text.
    pub text: String,
}

impl RareMask {
    /// `…11110`, the mask that makes Grundy's game sparse.
    pub const GRUNDY: RareMask = RareMask(!1);

    /// The mask with these bits (bits above 31 are taken to repeat bit 31).
    ///
    /// # Panics
    /// If `bits` is 0: every value would be rare.
    pub fn new(bits: u32) -> RareMask {
        assert_ne!(bits, 0, "a mask needs at least one bit");
        RareMask(bits)
    }

    /// The mask bits.
    pub fn bits(self) -> u32 {
        self.0
    }

    /// Whether `value` is rare.
    #[inline]
    pub fn is_rare(self, value: u32) -> bool {
        (value & self.0).count_ones().is_multiple_of(2)
    }

    /// The mask under which the fewest of `values` are rare: every pattern
    /// of the low bits the values use, with the higher bits all 0 or all 1.
    /// `None` for an empty slice.
    pub fn choose(values: impl IntoIterator<Item = u32>) -> Option<RareMask> {
        let mut histogram: Vec<(u32, u64)> = Vec::new();
        let mut counts = std::collections::HashMap::<u32, u64>::new();
        for v in values {
            *counts.entry(v).or_default() += 1;
        }
        if counts.is_empty() {
            return None;
        }
        histogram.extend(counts);
        histogram.sort_unstable();
        let largest = histogram.iter().map(|&(v, _)| v).max().unwrap_or(0);
        let bits = (u32::BITS - largest.leading_zeros()).clamp(1, 12);
        let mut best: Option<(u64, RareMask)> = None;
        for high in [!0u32 << bits, 0] {
            for low in 1..(1u32 << bits) {
                let mask = RareMask(low | if bits == 32 { 0 } else { high });
                let rare: u64 = histogram.iter().filter(|&&(v, _)| mask.is_rare(v)).map(|&(_, c)| c).sum();
                if best.is_none_or(|(count, _)| rare < count) {
                    best = Some((rare, mask));
                }
            }
        }
        best.map(|(_, mask)| mask)
    }
}

impl fmt::Display for RareMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bits = self.0;
        if bits >> 31 == 1 {
            // Infinite: the high bits are ones. Show the low bits up to the
            // highest zero, and at least four.
            let highest_zero = 31 - (!bits).leading_zeros().min(31);
            let shown = (highest_zero + 1).max(4);
            let low: String = (0..shown).rev().map(|i| if (bits >> i) & 1 == 1 { '1' } else { '0' }).collect();
            write!(f, "…1{low}")
        } else {
            write!(f, "0b{bits:b}")
        }
    }
}

impl FromStr for RareMask {
    type Err = MaskError;

    fn from_str(text: &str) -> Result<RareMask, MaskError> {
        let bad = || MaskError { text: text.to_owned() };
        let t = text.trim();
        let bits = if let Some(rest) = t.strip_prefix('…').or_else(|| t.strip_prefix("...")) {
            // Infinite: the first shown digit repeats upwards.
            if rest.is_empty() || rest.len() > 31 || !rest.bytes().all(|b| b == b'0' || b == b'1') {
                return Err(bad());
            }
            let low = u32::from_str_radix(rest, 2).map_err(|_| bad())?;
            let repeated = rest.starts_with('1');
            if repeated { low | (!0u32 << rest.len()) } else { low }
        } else if let Some(bin) = t.strip_prefix("0b") {
            u32::from_str_radix(bin, 2).map_err(|_| bad())?
        } else if let Some(hex) = t.strip_prefix("0x") {
            u32::from_str_radix(hex, 16).map_err(|_| bad())?
        } else {
            t.parse().map_err(|_| bad())?
        };
        if bits == 0 { Err(bad()) } else { Ok(RareMask(bits)) }
    }
}

impl serde::Serialize for RareMask {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
