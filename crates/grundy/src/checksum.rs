use std::fmt;

/// The Fletcher-style checksum other octal-game solvers print, so that two
/// computations of the same sequence can be compared at a glance.
///
/// Over G(0), G(1), …, G(N), each taken as a 16-bit number:
/// `a = Σ G(n) mod 2^16`, `b = Σ (a after each value) mod 2^16`, and the
/// checksum is `(b << 16) | a`, written as 8 upper-case hex digits.
///
/// ```
/// use bouton_grundy::Checksum;
///
/// let mut sum = Checksum::new();
/// for g in [0, 1, 2, 3] {
///     sum.push(g);
/// }
/// // a = 6; b = 0 + 1 + 3 + 6 = 10.
/// assert_eq!(sum.value(), (10 << 16) | 6);
/// assert_eq!(sum.to_string(), "000A0006");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Checksum {
    a: u16,
    b: u16,
}

impl Checksum {
    /// The checksum of no values.
    pub fn new() -> Checksum {
        Checksum::default()
    }

    /// Adds the next value (taken modulo 2^16).
    #[inline]
    pub fn push(&mut self, value: u32) {
        self.a = self.a.wrapping_add(value as u16);
        self.b = self.b.wrapping_add(self.a);
    }

    /// The checksum as a number.
    pub fn value(&self) -> u32 {
        (u32::from(self.b) << 16) | u32::from(self.a)
    }

    /// The checksum of a whole slice of values.
    pub fn of(values: impl IntoIterator<Item = u32>) -> Checksum {
        let mut sum = Checksum::new();
        for v in values {
            sum.push(v);
        }
        sum
    }
}

impl fmt::Display for Checksum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:08X}", self.value())
    }
}

impl serde::Serialize for Checksum {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
