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
//!
//! [`PaperSearch::run`] walks the same tree in a loop written for this state, the way the
//! authors' recursion does (a stack of "next direction to try" per open call, each direction
//! tested when its turn comes), instead of the general driver, whose per-node bookkeeping
//! (branch buffer, frames) cost as much as the search itself here. It keeps the driver's
//! contract: the same counters (nodes, failures, depth), limits, callback and result;
//! `crates/pathpuzzle/tests/theorem3.rs` checks both walks agree on random instances.

use crate::model::{Arrow, Configuration, PathPuzzle};
use pencilbox_core::search::{Backtrack, Expand, Flow, Limits, SearchResult, Stats, StopReason, CHECK_EVERY};
use pencilbox_core::time::Instant;
use pencilbox_core::{CellId, Grid, Shape};

/// The state of Algorithm 3: the configuration array `A`, the remaining clues `cr`, `cc` and the
/// current cell `(i_c, j_c)`.
#[derive(Clone, Debug)]
pub struct PaperSearch {
    shape: Shape,
    a: Vec<Arrow>,
    /// `cr` followed by `cc`: row `i`'s clue at `i`, column `j`'s at `m + j`.
    clue: Vec<i32>,
    door_b: CellId,
    current: CellId,
    /// Per cell (row-major): its neighbours and where its clues are.
    cell: Vec<CellInfo>,
}

/// What a cell's steps of Algorithm 3 look up, in one place.
#[derive(Clone, Copy, Debug)]
struct CellInfo {
    /// The cells `(i + mx[k], j + my[k])` for `k` in the order of `dir`, or [`OUTSIDE`].
    adj: [u32; 4],
    /// Index of the row's clue in `clue` (`i`).
    row: u32,
    /// Index of the column's clue in `clue` (`m + j`).
    col: u32,
}

/// An `adj` entry for a neighbour outside the grid (ISVALIDCELL is false).
const OUTSIDE: u32 = u32::MAX;

impl PaperSearch {
    /// The state of the call `TRAVERSECELL(A, (ia, ja), (ib, jb), (ia, ja), cr, cc)` after its
    /// line 2 (`DECREMENTENTRY` of door A). Run [`crate::checks::no_solution_reason`] first, as
    /// the paper does with Theorems 1 and 2.
    pub fn new(p: &PathPuzzle) -> Self {
        let shape = p.shape();
        // Row by row, without the divisions of `Shape::step` (this set-up is most of the cost
        // on the letters whose search takes a few dozen nodes).
        let (h, w) = (shape.height as u32, shape.width as u32);
        let mut cell = Vec::with_capacity(shape.cells());
        for i in 0..h {
            for j in 0..w {
                let c = i * w + j;
                // `dir = [d, l, r, u]`: (i + 1, j), (i, j − 1), (i, j + 1), (i − 1, j).
                let adj = [
                    if i + 1 < h { c + w } else { OUTSIDE },
                    if j > 0 { c - 1 } else { OUTSIDE },
                    if j + 1 < w { c + 1 } else { OUTSIDE },
                    if i > 0 { c - w } else { OUTSIDE },
                ];
                cell.push(CellInfo {
                    adj,
                    row: i,
                    col: h + j,
                });
            }
        }
        let clue = p
            .row_clues()
            .iter()
            .chain(p.col_clues())
            .map(|c| c.map_or(-1, |v| v as i32))
            .collect();
        let mut s = PaperSearch {
            shape,
            a: vec![Arrow::Empty; shape.cells()],
            clue,
            door_b: p.cell_b(),
            current: p.cell_a(),
            cell,
        };
        s.decrement_entry(s.current);
        s
    }

    /// DECREMENTENTRY(i, j).
    #[inline]
    fn decrement_entry(&mut self, c: CellId) {
        let info = self.cell[c.index()];
        for k in [info.row as usize, info.col as usize] {
            if self.clue[k] != -1 {
                self.clue[k] -= 1;
            }
        }
    }

    /// INCREMENTENTRY(i, j).
    #[inline]
    fn increment_entry(&mut self, c: CellId) {
        let info = self.cell[c.index()];
        for k in [info.row as usize, info.col as usize] {
            if self.clue[k] != -1 {
                self.clue[k] += 1;
            }
        }
    }

    /// ISCONSTRAINTVALID(cr, cc): every entry is 0 or −1.
    fn constraint_valid(&self) -> bool {
        self.clue.iter().all(|&v| v == 0 || v == -1)
    }

    /// Line 11's test for direction `k` from the current cell: the neighbour is inside the grid,
    /// empty, and its row and column clues are non-zero.
    #[inline]
    fn can_enter(&self, k: usize) -> bool {
        let adj = self.cell[self.current.index()].adj[k];
        if adj == OUTSIDE {
            return false; // ISVALIDCELL
        }
        let info = self.cell[adj as usize];
        self.a[adj as usize] == Arrow::Empty && self.clue[info.row as usize] != 0 && self.clue[info.col as usize] != 0
    }

    /// The first direction from `k` on that line 11 accepts (4 = none).
    #[inline]
    fn next_direction(&self, mut k: u8) -> u8 {
        while k < 4 && !self.can_enter(k as usize) {
            k += 1;
        }
        k
    }

    /// Runs Algorithm 3 from the current state (the root), exactly as
    /// [`pencilbox_core::search::run`] would on this state: the same tree in the same order, the
    /// same [`Stats`] (a node per TRAVERSECELL call, a failure per call that neither reaches a
    /// solution nor has a direction to try, the depth in moves), the same limits (checked every
    /// [`CHECK_EVERY`] nodes) and the same `on_solution` protocol. The state is back at the root
    /// afterwards.
    pub fn run(&mut self, limits: &Limits, mut on_solution: impl FnMut(&Self) -> Flow) -> SearchResult {
        let started = Instant::now();
        let mut stats = Stats::default();
        let mut solutions = 0u64;
        // One entry per open call, root first: the direction applied below it (the child being
        // explored); every open call has a child applied whenever a new node is entered.
        let mut stack: Vec<u8> = Vec::with_capacity(self.a.len());
        let stop = 'search: loop {
            // A new call of TRAVERSECELL (line 2 already done by `apply`, or by `new` at the root).
            stats.nodes += 1;
            if let Some(limit) = limits.node_limit {
                if stats.nodes > limit {
                    stats.nodes = limit;
                    break 'search StopReason::NodeLimit;
                }
            }
            if stats.nodes % CHECK_EVERY == 0 {
                if let Some(why) = limits.checkpoint() {
                    break 'search why;
                }
            }
            // Lines 3-7, or line 9's first direction.
            let mut k = 4;
            if self.current == self.door_b {
                if self.constraint_valid() {
                    solutions += 1;
                    limits.solution_found();
                    if on_solution(self) == Flow::Stop {
                        break 'search StopReason::Callback;
                    }
                    if limits.max_solutions.is_some_and(|m| solutions >= m) {
                        break 'search StopReason::SolutionLimit;
                    }
                } else {
                    stats.failures += 1;
                }
            } else {
                k = self.next_direction(0);
                if k == 4 {
                    stats.failures += 1; // no direction passes line 11
                }
            }
            // Go down direction `k` of the current call, or back up to the first open call
            // with a direction left (lines 14-19 on the way).
            loop {
                if k < 4 {
                    stack.push(k);
                    self.apply(k);
                    stats.max_depth = stats.max_depth.max(stack.len() as u64);
                    continue 'search;
                }
                let Some(d) = stack.pop() else {
                    break 'search StopReason::Exhausted;
                };
                self.undo(d);
                k = self.next_direction(d + 1);
            }
        };
        // Back to the root.
        while let Some(d) = stack.pop() {
            self.undo(d);
        }
        stats.elapsed_us = started.elapsed().as_micros() as u64;
        limits.search_ended(stats.nodes);
        SearchResult { solutions, stop, stats }
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
        for k in 0..4 {
            if self.can_enter(k) {
                out.push(k as u8);
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
        self.current = CellId::from_index(self.cell[self.current.index()].adj[i as usize] as usize);
        self.decrement_entry(self.current);
        true
    }

    #[inline]
    fn undo(&mut self, i: u8) {
        // Line 19 of the recursive call, then line 15.
        self.increment_entry(self.current);
        // Back the opposite way: `dir = [d, l, r, u]`, so the opposite of `k` is `3 − k`.
        self.current = CellId::from_index(self.cell[self.current.index()].adj[3 - i as usize] as usize);
        self.a[self.current.index()] = Arrow::Empty;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_neighbour_table_is_line_11s_valid_cells_in_the_order_of_dir() {
        for (h, w) in [(1, 2), (2, 1), (1, 5), (3, 3), (4, 7), (6, 2)] {
            let clues = |n: usize| vec!["-1"; n].join(" ");
            let text = format!("{h} {w}\n1 1\n{h} {w}\n\n{}\n{}\n", clues(h), clues(w));
            let p = PathPuzzle::parse(&text).unwrap();
            let s = PaperSearch::new(&p);
            let shape = p.shape();
            for c in shape.all() {
                let (i, j) = shape.coords(c);
                let info = s.cell[c.index()];
                assert_eq!((info.row as usize, info.col as usize), (i, h + j));
                for (k, d) in Arrow::DIRS.iter().enumerate() {
                    let want = shape.step(c, d.delta()).map_or(OUTSIDE, |n| n.index() as u32);
                    assert_eq!(info.adj[k], want, "{h}x{w} r{}c{} {d:?}", i + 1, j + 1);
                }
            }
        }
    }
}
