//! Sets of cells over a whole grid, as a bit vector (`bitvec`).

use crate::grid::CellId;
use bitvec::vec::BitVec;

/// A set of cells of one grid.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CellSet {
    bits: BitVec,
}

impl CellSet {
    /// An empty set for a grid of `cells` cells.
    pub fn new(cells: usize) -> Self {
        CellSet {
            bits: BitVec::repeat(false, cells),
        }
    }
    /// Every cell of a grid of `cells` cells.
    pub fn full(cells: usize) -> Self {
        CellSet {
            bits: BitVec::repeat(true, cells),
        }
    }
    /// Does it hold `c`?
    #[inline]
    pub fn contains(&self, c: CellId) -> bool {
        self.bits[c.index()]
    }
    /// Adds `c`; returns true when it was not there.
    #[inline]
    pub fn insert(&mut self, c: CellId) -> bool {
        let was = self.bits.replace(c.index(), true);
        !was
    }
    /// Removes `c`; returns true when it was there.
    #[inline]
    pub fn remove(&mut self, c: CellId) -> bool {
        self.bits.replace(c.index(), false)
    }
    /// Number of cells in the set.
    pub fn len(&self) -> usize {
        self.bits.count_ones()
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.bits.not_any()
    }
    /// Removes everything.
    pub fn clear(&mut self) {
        self.bits.fill(false);
    }
    /// The cells in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = CellId> + '_ {
        self.bits.iter_ones().map(CellId::from_index)
    }
}
