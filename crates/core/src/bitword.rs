//! Machine words as bit sets of a size chosen at run time: `u64` when the bits fit, `u128`
//! when they do not (its shifts cost more). Path's bitboard walks (a bit per cell) and the
//! line toolkit's `pairs` rule (a bit per pair of counts) are generic over them.

/// A word of bits: `u64` or `u128`.
pub trait BitWord:
    Copy
    + Eq
    + std::fmt::Debug
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::Not<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    /// No bit set.
    const ZERO: Self;
    /// Bit 0 alone.
    const ONE: Self;
    /// How many bits the word has.
    const BITS: u32;
    /// How many bits are set.
    fn ones(self) -> u32;
    /// The word as a `u128`.
    fn wide(self) -> u128;
    /// The low bits of `x` as a word.
    fn narrow(x: u128) -> Self;
}

impl BitWord for u64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const BITS: u32 = 64;
    #[inline]
    fn ones(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn wide(self) -> u128 {
        u128::from(self)
    }
    #[inline]
    fn narrow(x: u128) -> Self {
        x as u64
    }
}

impl BitWord for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const BITS: u32 = 128;
    #[inline]
    fn ones(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn wide(self) -> u128 {
        self
    }
    #[inline]
    fn narrow(x: u128) -> Self {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::BitWord;

    #[test]
    fn both_words_count_and_convert_alike() {
        let x: u128 = 0b1011 << 40;
        assert_eq!((u64::narrow(x).ones(), u128::narrow(x).ones()), (3, 3));
        assert_eq!(u64::narrow(x).wide(), x);
        assert_eq!(u64::narrow(1 << 100), 0, "a u64 keeps the low bits");
        assert_eq!((!u64::ZERO).ones(), u64::BITS);
        assert_eq!((!u128::ZERO).ones(), u128::BITS);
    }
}
