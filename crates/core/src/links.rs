//! The links between orthogonally adjacent cells of a grid, numbered.
//!
//! Puzzles whose answer is a path or loop drawn through cells (Path puzzles, Masyu, Snake's
//! body, Numberlink) are best modelled with one yes/no variable per pair of adjacent cells,
//! "the line uses this link", rather than by growing the line from one end: a cell's degree,
//! line counts and connectivity then propagate anywhere in the grid ([`crate::lines`]).
//! [`Links`] numbers the links of a [`Shape`] (horizontal links first, row-major, then
//! vertical links) and lists each cell's incident links.
//!
//! ```
//! use pencilbox_core::links::Links;
//! use pencilbox_core::Shape;
//! let shape = Shape::new(2, 2);
//! let links = Links::new(shape);
//! assert_eq!(links.len(), 4);
//! let (a, c) = (shape.id(0, 0), shape.id(1, 0));
//! assert_eq!(links.between(a, c), links.between(c, a));
//! assert!(links.between(a, shape.id(1, 1)).is_none(), "diagonal cells share no link");
//! ```

use crate::grid::{CellId, Shape};

/// The number of a link (an unordered pair of orthogonally adjacent cells).
pub type LinkId = u32;

/// The links of a grid shape.
#[derive(Clone, Debug)]
pub struct Links {
    shape: Shape,
    horizontal: usize,
    /// Up to four incident links per cell, in the order up, left, right, down.
    incident: Vec<([LinkId; 4], u8)>,
    /// The two cells of each link (the upper or left one first).
    ends: Vec<(CellId, CellId)>,
}

impl Links {
    /// Numbers the links of `shape`.
    pub fn new(shape: Shape) -> Self {
        Self::new_until(shape, || false).expect("never stopped")
    }

    /// [`Links::new`] that calls `stop` once per grid row (and per row of links) and gives
    /// up, returning `None`, as soon as it returns true: for models built under a deadline
    /// (numbering the links of a million-cell grid takes tens of milliseconds). `None` too
    /// when the system refuses the memory of the tables.
    pub fn new_until(shape: Shape, mut stop: impl FnMut() -> bool) -> Option<Self> {
        let (h, w) = (shape.height, shape.width);
        let horizontal = h * w.saturating_sub(1);
        // Asked with `try_reserve`: a refused table gives up like a stop (the caller tells the
        // two apart by its engine's state, see `PathVars::new`).
        let mut ends = Vec::new();
        ends.try_reserve_exact(horizontal + h.saturating_sub(1) * w).ok()?;
        for r in 0..h {
            if stop() {
                return None;
            }
            for c in 0..w.saturating_sub(1) {
                ends.push((shape.id(r, c), shape.id(r, c + 1)));
            }
        }
        for r in 0..h.saturating_sub(1) {
            if stop() {
                return None;
            }
            for c in 0..w {
                ends.push((shape.id(r, c), shape.id(r + 1, c)));
            }
        }
        // Filled cell by cell (not preset for the whole grid first): the rows are polled.
        let mut incident = Vec::new();
        incident.try_reserve_exact(shape.cells()).ok()?;
        for cell in shape.all() {
            let (r, c) = shape.coords(cell);
            if c == 0 && stop() {
                return None;
            }
            let mut at = ([0; 4], 0u8);
            let mut add = |l: usize| {
                at.0[at.1 as usize] = l as LinkId;
                at.1 += 1;
            };
            if r > 0 {
                add(horizontal + (r - 1) * w + c);
            }
            if c > 0 {
                add(r * (w - 1) + c - 1);
            }
            if c + 1 < w {
                add(r * (w - 1) + c);
            }
            if r + 1 < h {
                add(horizontal + r * w + c);
            }
            incident.push(at);
        }
        Some(Links {
            shape,
            horizontal,
            incident,
            ends,
        })
    }
    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }
    /// Number of links.
    #[inline]
    pub fn len(&self) -> usize {
        self.ends.len()
    }
    /// No links (a 1×1 grid)?
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
    /// Is the link horizontal (joining two cells of one row)?
    #[inline]
    pub fn is_horizontal(&self, l: LinkId) -> bool {
        (l as usize) < self.horizontal
    }
    /// The vertical link between `(r, c)` and `(r + 1, c)`.
    #[inline]
    pub fn vertical(&self, r: usize, c: usize) -> LinkId {
        (self.horizontal + r * self.shape.width + c) as LinkId
    }
    /// The horizontal link between `(r, c)` and `(r, c + 1)`.
    #[inline]
    pub fn horizontal(&self, r: usize, c: usize) -> LinkId {
        (r * (self.shape.width - 1) + c) as LinkId
    }
    /// The links at a cell (up, left, right, down; those inside the grid).
    #[inline]
    pub fn at(&self, c: CellId) -> &[LinkId] {
        let (links, len) = &self.incident[c.index()];
        &links[..*len as usize]
    }
    /// The two cells of a link.
    #[inline]
    pub fn ends(&self, l: LinkId) -> (CellId, CellId) {
        self.ends[l as usize]
    }
    /// The cell across link `l` from `c`.
    #[inline]
    pub fn other(&self, l: LinkId, c: CellId) -> CellId {
        let (a, b) = self.ends[l as usize];
        if a == c {
            b
        } else {
            a
        }
    }
    /// The link between two cells, if they are orthogonally adjacent.
    #[inline]
    pub fn between(&self, a: CellId, b: CellId) -> Option<LinkId> {
        let (x, y) = if a.0 < b.0 { (a, b) } else { (b, a) };
        let w = self.shape.width;
        let (r, c) = (x.index() / w, x.index() % w);
        if y.index() == x.index() + 1 && c + 1 < w {
            Some(self.horizontal(r, c))
        } else if y.index() == x.index() + w && r + 1 < self.shape.height {
            Some(self.vertical(r, c))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_link_is_listed_at_both_of_its_cells_and_nowhere_else() {
        for (h, w) in [(1, 1), (1, 5), (4, 1), (3, 4), (5, 5)] {
            let shape = Shape::new(h, w);
            let links = Links::new(shape);
            assert_eq!(links.len(), h * (w - 1) + (h - 1) * w);
            for l in 0..links.len() as LinkId {
                let (a, b) = links.ends(l);
                let ((ra, ca), (rb, cb)) = (shape.coords(a), shape.coords(b));
                assert_eq!(ra.abs_diff(rb) + ca.abs_diff(cb), 1);
                assert_eq!(links.is_horizontal(l), ra == rb);
                assert!(links.at(a).contains(&l) && links.at(b).contains(&l));
                assert_eq!(links.other(l, a), b);
                assert_eq!(links.between(b, a), Some(l));
            }
            let total: usize = shape.all().map(|c| links.at(c).len()).sum();
            assert_eq!(total, 2 * links.len());
        }
    }
}
