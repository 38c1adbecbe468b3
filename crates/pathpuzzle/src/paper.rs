//! Algorithm 3 (TRAVERSECELL) of the paper, exactly as published, as a [`Backtrack`] state for
//! the core driver. This is the reference algorithm: its search tree is never changed (see below).
//!
//! # The algorithm (paper, Section V)
//! The path grows depth-first from door A. `DECREMENTENTRY` lowers the remaining clue of the
//! entered cell's row and column (unless it is −1, "no clue"). At door B the configuration is
//! accepted when `ISCONSTRAINTVALID` holds (every clue is 0 or −1) and rejected otherwise. At
//! any other cell the four neighbours are tried in the order `d, l, r, u`
//! (`mx = [1, 0, 0, −1]`, `my = [0, −1, 1, 0]`), entering a neighbour when it is inside the
//! grid, empty (`A = 0`) and both its row and column clue are non-zero. Backtracking writes
//! `A = 0` back and calls `INCREMENTENTRY`. The search tree has at most three children per node,
//! hence the `O(3^{mn})` bound of Theorem 3.
//!
//! # Mapping onto the driver
//! One driver node = one call of TRAVERSECELL; the branches of a node are the directions that
//! pass the test of line 11, pushed in the order of line 9; [`Backtrack::apply`] is lines 12-13
//! plus the callee's line 2, [`Backtrack::undo`] is the callee's line 19 plus line 15. The paper
//! terminates at the first solution; counting simply lets the driver continue.
//!
//! # Speed without changing the tree
//! The state keeps, per cell, its row, its column and its four neighbours in the order of
//! `dir` (computed once in [`PaperSearch::new`]), so a node costs table look-ups instead of the
//! divisions of `Shape::coords`/`Shape::step`. The tests, the order and the arithmetic are line
//! for line those of Algorithm 3, so the nodes are the same (`tests/paper_pins.rs` pins them
//! against the authors' C++ on the papers' figures and data).

use crate::model::{Arrow, Configuration, PathPuzzle};
use pencilbox_core::search::{Backtrack, Expand};
use pencilbox_core::{CellId, Grid, Shape};

/// The state of Algorithm 3: the configuration array `A`, the remaining clues `cr`, `cc` and the
/// current cell `(i_c, j_c)`.
#[derive(Clone, Debug)]
pub struct PaperSearch {
    shape: Shape,
    a: Vec<Arrow>,
    cr: Vec<i32>,
    cc: Vec<i32>,
    door_b: CellId,
    current: CellId,
    /// `(i, j)` of every cell (row-major index → row, column).
    at: Vec<(u32, u32)>,
    /// The cells `(i + mx[k], j + my[k])` for `k` in the order of `dir`, or [`OUTSIDE`].
    adj: Vec<[u32; 4]>,
}

/// An `adj` entry for a neighbour outside the grid (ISVALIDCELL is false).
const OUTSIDE: u32 = u32::MAX;

impl PaperSearch {
    /// The state of the call `TRAVERSECELL(A, (ia, ja), (ib, jb), (ia, ja), cr, cc)` after its
    /// line 2 (`DECREMENTENTRY` of door A). Run [`crate::checks::no_solution_reason`] first, as
    /// the paper does with Theorems 1 and 2.
    pub fn new(p: &PathPuzzle) -> Self {
        let shape = p.shape();
        let at = shape.all().map(|c| shape.coords(c)).map(|(i, j)| (i as u32, j as u32)).collect();
        let adj = shape
            .all()
            .map(|c| Arrow::DIRS.map(|d| shape.step(c, d.delta()).map_or(OUTSIDE, |n| n.index() as u32)))
            .collect();
        let mut s = PaperSearch {
            shape,
            a: vec![Arrow::Empty; shape.cells()],
            cr: p.cr(),
            cc: p.cc(),
            door_b: p.cell_b(),
            current: p.cell_a(),
            at,
            adj,
        };
        s.decrement_entry(s.current);
        s
    }

    /// DECREMENTENTRY(i, j).
    #[inline]
    fn decrement_entry(&mut self, c: CellId) {
        let (i, j) = self.at[c.index()];
        let (i, j) = (i as usize, j as usize);
        if self.cr[i] != -1 {
            self.cr[i] -= 1;
        }
        if self.cc[j] != -1 {
            self.cc[j] -= 1;
        }
    }

    /// INCREMENTENTRY(i, j).
    #[inline]
    fn increment_entry(&mut self, c: CellId) {
        let (i, j) = self.at[c.index()];
        let (i, j) = (i as usize, j as usize);
        if self.cr[i] != -1 {
            self.cr[i] += 1;
        }
        if self.cc[j] != -1 {
            self.cc[j] += 1;
        }
    }

    /// ISCONSTRAINTVALID(cr, cc): every entry is 0 or −1.
    fn constraint_valid(&self) -> bool {
        self.cr.iter().chain(&self.cc).all(|&v| v == 0 || v == -1)
    }

    /// The solution array `A` at a solution node, with door B marked `u` (line 5).
    pub fn configuration(&self) -> Configuration {
        let mut a = self.a.clone();
        a[self.door_b.index()] = Arrow::Up;
        Grid::from_vec(self.shape, a).expect("the array has one entry per cell")
    }
}

impl Backtrack for PaperSearch {
    /// An index into `dir = [d, l, r, u]`.
    type Branch = u8;

    #[inline]
    fn expand(&mut self, out: &mut Vec<u8>) -> Expand {
        // Lines 3-7.
        if self.current == self.door_b {
            return if self.constraint_valid() {
                Expand::Solution
            } else {
                Expand::Dead
            };
        }
        // Lines 9-11.
        let start = out.len();
        for (i, &adj) in self.adj[self.current.index()].iter().enumerate() {
            if adj == OUTSIDE {
                continue; // ISVALIDCELL
            }
            let (r, c) = self.at[adj as usize];
            if self.a[adj as usize] == Arrow::Empty && self.cr[r as usize] != 0 && self.cc[c as usize] != 0 {
                out.push(i as u8);
            }
        }
        if out.len() == start {
            Expand::Dead
        } else {
            Expand::Branches
        }
    }

    #[inline]
    fn apply(&mut self, i: u8) -> bool {
        // Lines 12-13, then line 2 of the recursive call.
        self.a[self.current.index()] = Arrow::DIRS[i as usize];
        // `expand` offers only neighbours inside the grid.
        self.current = CellId::from_index(self.adj[self.current.index()][i as usize] as usize);
        self.decrement_entry(self.current);
        true
    }

    #[inline]
    fn undo(&mut self, i: u8) {
        // Line 19 of the recursive call, then line 15.
        self.increment_entry(self.current);
        // Back the opposite way: `dir = [d, l, r, u]`, so the opposite of `k` is `3 − k`.
        self.current = CellId::from_index(self.adj[self.current.index()][3 - i as usize] as usize);
        self.a[self.current.index()] = Arrow::Empty;
    }
}
