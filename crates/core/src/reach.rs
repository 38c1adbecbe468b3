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
//!
//! [`Flood::between`] answers a sharper question for path searches: which cells lie on *some*
//! simple path from `s` to `t`? Those are exactly the cells of the biconnected components
//! (blocks) on the block–cut-tree path from `s` to `t` (every vertex of a block lies on a
//! simple path between any two of its vertices, by Menger's theorem); a cell in a pocket
//! hanging off a cut vertex can be entered but never left again. The blocks come from one
//! iterative depth-first search (Hopcroft & Tarjan, "Algorithm 447: efficient algorithms for
//! graph manipulation", CACM 16(6), 1973), so the cost stays O(cells).

use crate::grid::{CellId, Shape};

/// A flood-fill workspace for one grid shape.
///
/// ```
/// use pencilbox_core::grid::Shape;
/// use pencilbox_core::reach::Flood;
/// let shape = Shape::new(3, 3);
/// let mut f = Flood::new(shape);
/// // Walls in the middle column except at the bottom.
/// let wall = |c: pencilbox_core::CellId| shape.coords(c).1 == 1 && shape.coords(c).0 < 2;
/// let n = f.fill(&[shape.id(0, 0)], |c| !wall(c), |_| true);
/// assert_eq!(n, 6); // everything except the start and the two wall cells
/// assert!(f.reached(shape.id(0, 2)));
/// ```
#[derive(Clone, Debug)]
pub struct Flood {
    /// Orthogonal neighbours of every cell, flat (`degree[c]` entries of `adj[c]` are valid).
    adj: Vec<[CellId; 4]>,
    degree: Vec<u8>,
    stamp: Vec<u32>,
    epoch: u32,
    stack: Vec<CellId>,
    order: Vec<CellId>,
    // Workspace of `between` (depth-first numbering, low points, parents, block labels).
    disc: Vec<u32>,
    low: Vec<u32>,
    parent: Vec<u32>,
    block: Vec<u32>,
    block_mark: Vec<u32>,
    calls: Vec<(CellId, u8)>,
    separators: Vec<CellId>,
}

const NO_PARENT: u32 = u32::MAX;

impl Flood {
    /// A workspace for grids of shape `shape`.
    pub fn new(shape: Shape) -> Self {
        Self::new_until(shape, || false).expect("never stopped")
    }

    /// [`Flood::new`] that calls `stop` once per grid row and gives up, returning `None`, as
    /// soon as it returns true (for models built under a deadline).
    pub fn new_until(shape: Shape, mut stop: impl FnMut() -> bool) -> Option<Self> {
        let cells = shape.cells();
        let mut adj = Vec::with_capacity(cells);
        let mut degree = Vec::with_capacity(cells);
        let (h, w) = (shape.height, shape.width);
        for r in 0..h {
            if stop() {
                return None;
            }
            for col in 0..w {
                // The orthogonal neighbours: up, left, right, down (`ORTHOGONAL` order).
                let mut row = [CellId(0); 4];
                let mut n = 0;
                let mut add = |x: usize| {
                    row[n] = CellId(x as u32);
                    n += 1;
                };
                let i = r * w + col;
                if r > 0 {
                    add(i - w);
                }
                if col > 0 {
                    add(i - 1);
                }
                if col + 1 < w {
                    add(i + 1);
                }
                if r + 1 < h {
                    add(i + w);
                }
                adj.push(row);
                degree.push(n as u8);
            }
        }
        Some(Flood {
            adj,
            degree,
            stamp: vec![0; cells],
            epoch: 0,
            stack: Vec::new(),
            order: Vec::new(),
            // The depth-first workspace of `between` is allocated on its first use.
            disc: Vec::new(),
            low: Vec::new(),
            parent: Vec::new(),
            block: Vec::new(),
            block_mark: Vec::new(),
            calls: Vec::new(),
            separators: Vec::new(),
        })
    }

    /// The orthogonal neighbours of `c` (up, left, right, down order).
    #[inline]
    pub fn neighbours(&self, c: CellId) -> &[CellId] {
        &self.adj[c.index()][..self.degree[c.index()] as usize]
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
            let (adj, k) = (self.adj[c.index()], self.degree[c.index()] as usize);
            for &n in &adj[..k] {
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

    /// Finds the cells that lie on some simple path from `s` to `t` whose inner cells and `t`
    /// satisfy `enter` (`s` itself need not). Returns `false` when `t` cannot be reached;
    /// otherwise [`Flood::reached`] and [`Flood::cells`] describe those cells (`s` excluded,
    /// `t` included).
    ///
    /// ```
    /// use pencilbox_core::grid::Shape;
    /// use pencilbox_core::reach::Flood;
    /// // A 3×3 grid: from the top-left corner to the top-right one, with the centre blocked,
    /// // every other cell lies on some simple path...
    /// let shape = Shape::new(3, 3);
    /// let mut f = Flood::new(shape);
    /// let centre = shape.id(1, 1);
    /// assert!(f.between(shape.id(0, 0), shape.id(0, 2), |c| c != centre));
    /// assert_eq!(f.cells().len(), 7);
    /// // ...but with the top-middle cell also blocked, (1,0) is a dead end from (2,0)'s view:
    /// // starting at (1,0), the cell (0,0) lies in a pocket and is not on any path to (0,2).
    /// let top = shape.id(0, 1);
    /// assert!(f.between(shape.id(1, 0), shape.id(0, 2), |c| c != centre && c != top));
    /// assert!(!f.reached(shape.id(0, 0)));
    /// assert_eq!(f.cells().len(), 5);
    /// ```
    pub fn between(&mut self, s: CellId, t: CellId, enter: impl FnMut(CellId) -> bool) -> bool {
        self.between_links(s, t, enter, |_, _| true)
    }

    /// The blocks (biconnected components) of the part of the graph reachable from `s`,
    /// through cells that satisfy `enter` and links for which `link` holds (symmetric): one
    /// iterative depth-first search from `s` (Hopcroft & Tarjan). Afterwards
    /// [`Flood::reached`] tells the cells reached, [`Flood::parent`] their tree parents,
    /// [`Flood::block`] the block of each tree edge, and [`Flood::link_block`] the block of
    /// any link between two reached cells. Returns the number of blocks.
    pub fn blocks(
        &mut self,
        s: CellId,
        mut enter: impl FnMut(CellId) -> bool,
        mut link: impl FnMut(CellId, CellId) -> bool,
    ) -> u32 {
        let cells = self.stamp.len();
        if self.disc.len() != cells {
            self.disc = vec![0; cells];
            self.low = vec![0; cells];
            self.parent = vec![NO_PARENT; cells];
            self.block = vec![0; cells];
            self.block_mark = vec![0; cells];
            self.calls = Vec::with_capacity(cells);
            // Sized once here rather than grown by doubling inside the walk.
            self.order.reserve(cells);
            self.stack.reserve(cells);
        }
        self.next_epoch();
        let epoch = self.epoch;
        self.order.clear();
        self.stack.clear();
        self.calls.clear();
        let mut time = 0u32;
        let mut blocks = 0u32;
        self.stamp[s.index()] = epoch;
        self.disc[s.index()] = time;
        self.low[s.index()] = time;
        self.parent[s.index()] = NO_PARENT;
        time += 1;
        self.calls.push((s, 0));
        while let Some(top) = self.calls.last_mut() {
            let u = top.0;
            if top.1 < self.degree[u.index()] {
                let w = self.adj[u.index()][top.1 as usize];
                top.1 += 1;
                let (wi, ui) = (w.index(), u.index());
                if !link(u, w) {
                    continue;
                }
                if self.stamp[wi] != epoch {
                    if !enter(w) {
                        continue;
                    }
                    self.stamp[wi] = epoch;
                    self.disc[wi] = time;
                    self.low[wi] = time;
                    time += 1;
                    self.parent[wi] = u.0;
                    self.stack.push(w);
                    self.order.push(w);
                    self.calls.push((w, 0));
                } else if self.parent[ui] != w.0 {
                    self.low[ui] = self.low[ui].min(self.disc[wi]);
                }
            } else {
                self.calls.pop();
                if let Some(&(p, _)) = self.calls.last() {
                    let (ui, pi) = (u.index(), p.index());
                    self.low[pi] = self.low[pi].min(self.low[ui]);
                    if self.low[ui] >= self.disc[pi] {
                        // The vertices above u on the stack (u included) hang below p in one block.
                        while let Some(x) = self.stack.pop() {
                            self.block[x.index()] = blocks;
                            if x == u {
                                break;
                            }
                        }
                        blocks += 1;
                    }
                }
            }
        }
        blocks
    }

    /// The tree parent of a cell reached by the last [`Flood::blocks`] (`None` at its start).
    #[inline]
    pub fn parent(&self, c: CellId) -> Option<CellId> {
        let p = self.parent[c.index()];
        (p != NO_PARENT).then_some(CellId(p))
    }

    /// The depth-first number of a cell reached by the last [`Flood::blocks`].
    #[inline]
    pub fn discovered(&self, c: CellId) -> u32 {
        self.disc[c.index()]
    }

    /// The low point of a cell reached by the last [`Flood::blocks`]: the smallest depth-first
    /// number reachable from its subtree by one back link. A child `w` of `p` with
    /// `low(w) ≥ discovered(p)` hangs off `p`: every path from `w`'s subtree to the start
    /// passes `p`.
    #[inline]
    pub fn low(&self, c: CellId) -> u32 {
        self.low[c.index()]
    }

    /// The block of the tree edge from `c`'s parent to `c` (after [`Flood::blocks`]; `c`
    /// reached and not the start).
    #[inline]
    pub fn block(&self, c: CellId) -> u32 {
        self.block[c.index()]
    }

    /// The block of the link between two reached cells `u` and `w` that the last
    /// [`Flood::blocks`] could use: a tree edge's, or for a back edge the block of the tree
    /// edge into its deeper end.
    #[inline]
    pub fn link_block(&self, u: CellId, w: CellId) -> u32 {
        let deeper = if self.parent[w.index()] == u.0 {
            w
        } else if self.parent[u.index()] == w.0 || self.disc[u.index()] > self.disc[w.index()] {
            u
        } else {
            w
        };
        self.block[deeper.index()]
    }

    /// [`Flood::between`] on a graph with some links removed: the fill steps from `u` to a
    /// neighbour `w` only when `link(u, w)` holds (it must be symmetric) and, when `w` is new,
    /// `enter(w)`. Afterwards [`Flood::separators`] lists the cut cells on every `s`–`t` path.
    ///
    /// ```
    /// use pencilbox_core::grid::Shape;
    /// use pencilbox_core::reach::Flood;
    /// // A 2×3 grid with the link between the two middle cells removed: a ring of six cells.
    /// let shape = Shape::new(2, 3);
    /// let mut f = Flood::new(shape);
    /// let (top, bottom) = (shape.id(0, 1), shape.id(1, 1));
    /// let cut = |u, w| !((u == top && w == bottom) || (u == bottom && w == top));
    /// assert!(f.between_links(shape.id(0, 0), shape.id(0, 2), |_| true, cut));
    /// assert_eq!(f.cells().len(), 5);
    /// assert!(f.separators().is_empty());
    /// // Closing the bottom-middle cell leaves one way round, through the top-middle cell.
    /// assert!(f.between_links(shape.id(0, 0), shape.id(0, 2), |c| c != bottom, cut));
    /// assert_eq!(f.separators(), &[top]);
    /// ```
    pub fn between_links(
        &mut self,
        s: CellId,
        t: CellId,
        enter: impl FnMut(CellId) -> bool,
        link: impl FnMut(CellId, CellId) -> bool,
    ) -> bool {
        self.blocks(s, enter, link);
        let epoch = self.epoch;
        self.separators.clear();
        if self.stamp[t.index()] != epoch || s == t {
            self.order.clear();
            return false;
        }
        // Mark the blocks of the tree edges from t up to s: the block–cut-tree path. Where two
        // consecutive tree edges lie in different blocks, the cell between them is a cut cell
        // that every s–t path passes.
        let mark = epoch;
        let mut w = t;
        while w != s {
            let b = self.block[w.index()];
            self.block_mark[b as usize] = mark;
            let p = CellId(self.parent[w.index()]);
            if p != s && self.block[p.index()] != b {
                self.separators.push(p);
            }
            w = p;
        }
        // Keep the vertices of marked blocks, under a fresh epoch for `reached`.
        self.next_epoch();
        let keep = self.epoch;
        self.stamp[s.index()] = keep;
        let mut kept = 0;
        for k in 0..self.order.len() {
            let x = self.order[k];
            if self.block_mark[self.block[x.index()] as usize] == mark {
                self.stamp[x.index()] = keep;
                self.order[kept] = x;
                kept += 1;
            }
        }
        self.order.truncate(kept);
        true
    }

    /// The cells other than `s` and `t` that every simple `s`–`t` path passes, found by the last
    /// [`Flood::between`] or [`Flood::between_links`] (from `t` towards `s`).
    pub fn separators(&self) -> &[CellId] {
        &self.separators
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
    use crate::grid::{Neighbours, Shape};

    #[test]
    fn terminal_cells_are_reached_but_not_expanded() {
        let shape = Shape::new(1, 4);
        let mut f = Flood::new(shape);
        let stop = shape.id(0, 2);
        let n = f.fill(&[shape.id(0, 0)], |_| true, |c| c != stop);
        assert_eq!(n, 2);
        assert!(f.reached(stop));
        assert!(!f.reached(shape.id(0, 3)));
    }

    #[test]
    fn between_keeps_exactly_the_cells_on_some_simple_path() {
        // Brute force on all 3×4 masks: a cell is kept iff some simple s-t path uses it.
        let shape = Shape::new(3, 4);
        let nb = Neighbours::new(shape);
        let mut f = Flood::new(shape);
        let (s, t) = (shape.id(0, 0), shape.id(2, 3));
        fn on_paths(nb: &Neighbours, free: &[bool], c: CellId, t: CellId, seen: &mut Vec<bool>, used: &mut Vec<bool>) {
            if c == t {
                for (u, &x) in used.iter_mut().zip(seen.iter()) {
                    *u |= x;
                }
                return;
            }
            for &n in nb.orth(c) {
                if free[n.index()] && !seen[n.index()] {
                    seen[n.index()] = true;
                    on_paths(nb, free, n, t, seen, used);
                    seen[n.index()] = false;
                }
            }
        }
        for mask in 0u32..(1 << 12) {
            let free: Vec<bool> = (0..12).map(|i| mask >> i & 1 == 1).collect();
            let mut seen = vec![false; 12];
            seen[s.index()] = true;
            let mut used = vec![false; 12];
            on_paths(&nb, &free, s, t, &mut seen, &mut used);
            let ok = f.between(s, t, |c| free[c.index()]);
            assert_eq!(ok, used[t.index()], "mask {mask:b}");
            if ok {
                for c in shape.all().filter(|&c| c != s) {
                    assert_eq!(f.reached(c), used[c.index()], "mask {mask:b} cell {c:?}");
                }
            }
        }
    }

    #[test]
    fn consecutive_fills_do_not_see_each_others_marks() {
        let shape = Shape::new(2, 2);
        let mut f = Flood::new(shape);
        assert_eq!(f.fill(&[shape.id(0, 0)], |_| true, |_| true), 3);
        assert_eq!(f.fill(&[shape.id(0, 0)], |_| false, |_| true), 0);
        assert!(!f.reached(shape.id(1, 1)));
        assert!(f.reached(shape.id(0, 0)));
    }
}
