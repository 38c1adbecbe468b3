//! Reusable flood fill (reachability) over a grid's orthogonal neighbourhood.
//!
//! # Background
//! Path-like puzzles (Path, Numberlink, loop puzzles) prune a partial solution by asking which
//! free cells can still be reached from the end of the path. Search nodes ask this millions of
//! times, so [`Flood`] keeps its buffers between calls and marks visited cells with an epoch
//! stamp: starting a new fill is O(1), not O(cells).
//!
//! # Practical
//! A fill is described by two predicates: `enter(c)` — may the fill step onto `c`? — and
//! `expand(c)` — once on `c`, may it continue from `c`? Separating them lets a caller treat a
//! cell as a *terminal* (reachable, but a dead end for the fill), such as the exit door of a
//! Path puzzle. The start cells are always expanded and are not themselves reported as reached.

use crate::grid::{CellId, Neighbours};

/// A flood-fill workspace for one grid shape.
///
/// ```
/// use pencilbox_core::grid::{Neighbours, Shape};
/// use pencilbox_core::reach::Flood;
/// let shape = Shape::new(3, 3);
/// let nb = Neighbours::new(shape);
/// let mut f = Flood::new(shape.cells());
/// // Walls in the middle column except at the bottom.
/// let wall = |c: pencilbox_core::CellId| shape.coords(c).1 == 1 && shape.coords(c).0 < 2;
/// let n = f.fill(&nb, &[shape.id(0, 0)], |c| !wall(c), |_| true);
/// assert_eq!(n, 6); // everything except the start and the two wall cells
/// assert!(f.reached(shape.id(0, 2)));
/// ```
#[derive(Clone, Debug)]
pub struct Flood {
    stamp: Vec<u32>,
    epoch: u32,
    stack: Vec<CellId>,
    order: Vec<CellId>,
}

impl Flood {
    /// A workspace for grids of `cells` cells.
    pub fn new(cells: usize) -> Self {
        Flood {
            stamp: vec![0; cells],
            epoch: 0,
            stack: Vec::with_capacity(cells),
            order: Vec::with_capacity(cells),
        }
    }

    fn next_epoch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // The stamps wrapped around: clear them once every 2^32 fills.
            self.stamp.fill(0);
            self.epoch = 1;
        }
    }

    /// Fills from `starts`, stepping onto a neighbour `c` when `enter(c)` holds and continuing
    /// from it when `expand(c)` holds. Returns the number of cells reached (starts excluded).
    pub fn fill(
        &mut self,
        nb: &Neighbours,
        starts: &[CellId],
        mut enter: impl FnMut(CellId) -> bool,
        mut expand: impl FnMut(CellId) -> bool,
    ) -> usize {
        self.next_epoch();
        let epoch = self.epoch;
        self.order.clear();
        self.stack.clear();
        // Starts are marked with the epoch too (so they are never re-entered) but not reported.
        for &s in starts {
            self.stamp[s.index()] = epoch;
            self.stack.push(s);
        }
        while let Some(c) = self.stack.pop() {
            for &n in nb.orth(c) {
                if self.stamp[n.index()] != epoch && enter(n) {
                    self.stamp[n.index()] = epoch;
                    self.order.push(n);
                    if expand(n) {
                        self.stack.push(n);
                    }
                }
            }
        }
        self.order.len()
    }

    /// Was `c` reached (or a start) in the last fill?
    #[inline]
    pub fn reached(&self, c: CellId) -> bool {
        self.stamp[c.index()] == self.epoch && self.epoch != 0
    }

    /// The cells reached in the last fill, in discovery order (starts excluded).
    pub fn cells(&self) -> &[CellId] {
        &self.order
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;

    #[test]
    fn terminal_cells_are_reached_but_not_expanded() {
        let shape = Shape::new(1, 4);
        let nb = Neighbours::new(shape);
        let mut f = Flood::new(4);
        let stop = shape.id(0, 2);
        let n = f.fill(&nb, &[shape.id(0, 0)], |_| true, |c| c != stop);
        assert_eq!(n, 2);
        assert!(f.reached(stop));
        assert!(!f.reached(shape.id(0, 3)));
    }

    #[test]
    fn consecutive_fills_do_not_see_each_others_marks() {
        let shape = Shape::new(2, 2);
        let nb = Neighbours::new(shape);
        let mut f = Flood::new(4);
        assert_eq!(f.fill(&nb, &[shape.id(0, 0)], |_| true, |_| true), 3);
        assert_eq!(f.fill(&nb, &[shape.id(0, 0)], |_| false, |_| true), 0);
        assert!(!f.reached(shape.id(1, 1)));
        assert!(f.reached(shape.id(0, 0)));
    }
}
