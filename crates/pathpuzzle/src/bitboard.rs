//! Bitboard words for the searches that walk the path from door A ([`crate::extend`],
//! [`crate::quick`]): bit `i` is cell `i` in row-major order, in one `u64` for grids of up to 64
//! cells (8×8) and one `u128` up to 128 (11×11).

/// The bitboard words: `u64` for grids of up to 64 cells (8×8), `u128` up to 128 (11×11).
pub(crate) trait BitWord:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    const BITS: u32;
    fn ones(self) -> u32;
    fn wide(self) -> u128;
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
        self as u128
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
