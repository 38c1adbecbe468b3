//! A small deterministic random stream for generators and randomised tests.
//!
//! SplitMix64 (Steele, Lea & Flood, *Fast splittable pseudorandom number generators*, OOPSLA
//! 2014): the same seed gives the same puzzles on every platform and every build, which keeps
//! generated fixtures and `--seed` reproducible without a dependency.

/// SplitMix64.
///
/// ```
/// use pencilbox_core::rng::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A stream from a seed.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`n > 0`), by multiply-shift (no modulo bias worth mentioning).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 11) as u128 * n as u128) >> 53) as usize
    }
    /// A number in `0..n` (`n > 0`) by plain modulo reduction. Suguru's generator uses this
    /// mapping, so the seeds recorded next to its bundled puzzles keep reproducing them.
    pub fn below_mod(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// Shuffles a slice (Fisher–Yates) drawing indices with [`SplitMix64::below_mod`].
    pub fn shuffle_mod<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below_mod(i + 1);
            v.swap(i, j);
        }
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
    /// Shuffles a slice (Fisher–Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_shuffle_keeps_the_elements() {
        let mut r = SplitMix64::new(1);
        assert!((0..1000).all(|_| r.below(7) < 7));
        let mut v: Vec<u32> = (0..50).collect();
        r.shuffle(&mut v);
        v.sort_unstable();
        assert_eq!(v, (0..50).collect::<Vec<_>>());
    }
}
