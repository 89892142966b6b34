/// The nim-sum of the heaps: the bitwise XOR of their sizes.
///
/// Written as a plain fold so the compiler vectorises it; it runs at memory
/// bandwidth on large inputs (see the `analysis` benchmark).
///
/// ```
/// use bouton_analysis::nim_sum;
///
/// assert_eq!(nim_sum(&[3, 5, 7]), 1);
/// assert_eq!(nim_sum(&[1, 2, 3]), 0);
/// assert_eq!(nim_sum(&[]), 0);
/// ```
pub fn nim_sum(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0, |acc, &h| acc ^ h)
}
