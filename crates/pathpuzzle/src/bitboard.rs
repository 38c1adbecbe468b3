//! Bitboard words for the searches that walk the path from door A ([`crate::extend`],
//! [`crate::quick`]): bit `i` is cell `i` in row-major order, in one `u64` for grids of up to 64
//! cells (8×8) and one `u128` up to 128 (11×11).

/// The bitboard words: `u64` for grids of up to 64 cells (8×8), `u128` up to 128 (11×11)
/// (core's [`BitWord`](pencilbox_core::bitword::BitWord)).
pub(crate) use pencilbox_core::bitword::BitWord;

/// A grid on a bitboard: its cells and what moving a set of cells one step needs (bit `i` is
/// cell `i`, row-major; rows narrower than the word).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Steps<W> {
    pub(crate) width: u32,
    pub(crate) all: W,
    pub(crate) not_first_col: W,
    pub(crate) not_last_col: W,
}

impl<W: BitWord> Steps<W> {
    /// The masks of a `height × width` grid (at most `W::BITS` cells, `width < W::BITS`).
    pub(crate) fn new(height: u32, width: u32) -> Self {
        let (mut row0, mut col0) = (W::ZERO, W::ZERO);
        for c in 0..width {
            row0 |= W::ONE << c;
        }
        let mut all = W::ZERO;
        for r in 0..height {
            col0 |= W::ONE << (r * width);
            all |= row0 << (r * width);
        }
        Steps {
            width,
            all,
            not_first_col: all & !col0,
            not_last_col: all & !(col0 << (width - 1)),
        }
    }

    /// The cells whose left, right, upper and lower neighbour is in `x` (each set may hold
    /// bits beyond the grid: mask with `all`).
    #[inline]
    pub(crate) fn neighbour_sets(self, x: W) -> [W; 4] {
        [
            (x & self.not_last_col) << 1,
            (x & self.not_first_col) >> 1,
            x << self.width,
            x >> self.width,
        ]
    }

    /// The cells orthogonally next to some cell of `x`.
    #[inline]
    pub(crate) fn spread(self, x: W) -> W {
        let [l, r, u, d] = self.neighbour_sets(x);
        (l | r | u | d) & self.all
    }

    /// The cells in at least two of the four sets.
    #[inline]
    pub(crate) fn at_least_two(x: [W; 4]) -> W {
        (x[0] & (x[1] | x[2] | x[3])) | (x[1] & (x[2] | x[3])) | (x[2] & x[3])
    }
}
