//! Small finite domains as a `Copy` bitset: values `1..=64` (bit `v - 1` stands for value `v`).

use std::fmt;

/// A set of values from `1..=64`.
///
/// ```
/// use pencilbox_core::Domain;
/// let d = Domain::range(1, 4).without(2);
/// assert_eq!(d.len(), 3);
/// assert_eq!(d.iter().collect::<Vec<_>>(), vec![1, 3, 4]);
/// assert_eq!(Domain::single(3).value(), Some(3));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Domain(pub u64);

impl Domain {
    /// The largest value a domain can hold.
    pub const MAX: u32 = 64;
    /// No values.
    pub const EMPTY: Domain = Domain(0);
    /// Every value `1..=64`.
    pub const ALL: Domain = Domain(u64::MAX);

    /// `{lo..=hi}` (empty when `lo > hi`); values are clamped to `1..=64`.
    #[inline]
    pub fn range(lo: u32, hi: u32) -> Self {
        let lo = lo.max(1);
        let hi = hi.min(Self::MAX);
        if lo > hi {
            return Self::EMPTY;
        }
        let width = hi - lo + 1;
        let bits = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
        Domain(bits << (lo - 1))
    }
    /// `{v}`.
    #[inline]
    pub fn single(v: u32) -> Self {
        debug_assert!((1..=Self::MAX).contains(&v));
        Domain(1u64 << (v - 1))
    }
    /// Number of values.
    #[inline]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }
    /// No values?
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Exactly one value?
    #[inline]
    pub fn is_single(self) -> bool {
        self.0 != 0 && self.0 & (self.0 - 1) == 0
    }
    /// The value, when there is exactly one.
    #[inline]
    pub fn value(self) -> Option<u32> {
        self.is_single().then(|| self.0.trailing_zeros() + 1)
    }
    /// The smallest value.
    #[inline]
    pub fn min(self) -> Option<u32> {
        (self.0 != 0).then(|| self.0.trailing_zeros() + 1)
    }
    /// The largest value.
    #[inline]
    pub fn max(self) -> Option<u32> {
        (self.0 != 0).then(|| 64 - self.0.leading_zeros())
    }
    /// Does it hold `v`?
    #[inline]
    pub fn contains(self, v: u32) -> bool {
        (1..=Self::MAX).contains(&v) && self.0 >> (v - 1) & 1 == 1
    }
    /// Adds `v`.
    #[inline]
    pub fn insert(&mut self, v: u32) {
        self.0 |= Self::single(v).0
    }
    /// Removes `v`; returns whether it was there.
    #[inline]
    pub fn remove(&mut self, v: u32) -> bool {
        let had = self.contains(v);
        if had {
            self.0 &= !(1u64 << (v - 1));
        }
        had
    }
    /// A copy without `v`.
    #[inline]
    pub fn without(mut self, v: u32) -> Self {
        self.remove(v);
        self
    }
    /// Intersection.
    #[inline]
    pub fn and(self, o: Domain) -> Domain {
        Domain(self.0 & o.0)
    }
    /// Union.
    #[inline]
    pub fn or(self, o: Domain) -> Domain {
        Domain(self.0 | o.0)
    }
    /// Difference.
    #[inline]
    pub fn minus(self, o: Domain) -> Domain {
        Domain(self.0 & !o.0)
    }
    /// The values in increasing order.
    #[inline]
    pub fn iter(self) -> DomainIter {
        DomainIter(self.0)
    }
}

/// Iterator over a [`Domain`]'s values, lowest first.
#[derive(Clone, Debug)]
pub struct DomainIter(u64);

impl Iterator for DomainIter {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let v = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(v + 1)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl FromIterator<u32> for Domain {
    fn from_iter<I: IntoIterator<Item = u32>>(it: I) -> Self {
        let mut d = Domain::EMPTY;
        for v in it {
            d.insert(v);
        }
        d
    }
}

/// A domain is written as the list of its values (`[1, 3, 4]`).
impl serde::Serialize for Domain {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl fmt::Debug for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn full_range_covers_all_64_values() {
        assert_eq!(Domain::range(1, 64), Domain::ALL);
        assert_eq!(Domain::range(1, 64).max(), Some(64));
        assert!(Domain::range(5, 4).is_empty());
    }

    proptest! {
        #[test]
        fn domain_behaves_like_a_set(vals in proptest::collection::btree_set(1u32..=64, 0..20), probe in 1u32..=64) {
            let d: Domain = vals.iter().copied().collect();
            prop_assert_eq!(d.len() as usize, vals.len());
            prop_assert_eq!(d.contains(probe), vals.contains(&probe));
            prop_assert_eq!(d.iter().collect::<Vec<_>>(), vals.iter().copied().collect::<Vec<_>>());
            prop_assert_eq!(d.min(), vals.iter().next().copied());
            prop_assert_eq!(d.max(), vals.iter().next_back().copied());
            prop_assert_eq!(d.without(probe).contains(probe), false);
        }
    }
}
