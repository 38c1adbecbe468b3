//! Algorithm 3 (TRAVERSECELL) of the paper, exactly as published, as a [`Backtrack`] state for
//! the core driver. This is the reference algorithm: it is measured, never optimised.
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
}

impl PaperSearch {
    /// The state of the call `TRAVERSECELL(A, (ia, ja), (ib, jb), (ia, ja), cr, cc)` after its
    /// line 2 (`DECREMENTENTRY` of door A). Run [`crate::checks::no_solution_reason`] first, as
    /// the paper does with Theorems 1 and 2.
    pub fn new(p: &PathPuzzle) -> Self {
        let mut s = PaperSearch {
            shape: p.shape(),
            a: vec![Arrow::Empty; p.shape().cells()],
            cr: p.cr(),
            cc: p.cc(),
            door_b: p.cell_b(),
            current: p.cell_a(),
        };
        s.decrement_entry(s.current);
        s
    }

    /// DECREMENTENTRY(i, j).
    fn decrement_entry(&mut self, c: CellId) {
        let (i, j) = self.shape.coords(c);
        if self.cr[i] != -1 {
            self.cr[i] -= 1;
        }
        if self.cc[j] != -1 {
            self.cc[j] -= 1;
        }
    }

    /// INCREMENTENTRY(i, j).
    fn increment_entry(&mut self, c: CellId) {
        let (i, j) = self.shape.coords(c);
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
        for (i, dir) in Arrow::DIRS.iter().enumerate() {
            if let Some(adj) = self.shape.step(self.current, dir.delta()) {
                let (r, c) = self.shape.coords(adj);
                if self.a[adj.index()] == Arrow::Empty && self.cr[r] != 0 && self.cc[c] != 0 {
                    out.push(i as u8);
                }
            }
        }
        if out.len() == start {
            Expand::Dead
        } else {
            Expand::Branches
        }
    }

    fn apply(&mut self, i: u8) -> bool {
        // Lines 12-13, then line 2 of the recursive call.
        let dir = Arrow::DIRS[i as usize];
        self.a[self.current.index()] = dir;
        self.current = self
            .shape
            .step(self.current, dir.delta())
            .expect("expand only offers cells inside the grid");
        self.decrement_entry(self.current);
        true
    }

    fn undo(&mut self, i: u8) {
        // Line 19 of the recursive call, then line 15.
        self.increment_entry(self.current);
        let (dr, dc) = Arrow::DIRS[i as usize].delta();
        self.current = self
            .shape
            .step(self.current, (-dr, -dc))
            .expect("undo returns to the cell the branch came from");
        self.a[self.current.index()] = Arrow::Empty;
    }
}
