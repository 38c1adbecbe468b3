//! Nishio(S): the cells of `S` lying on some valid placement inside `S` (Eppstein, Section 2),
//! computed by reachability in the DAG `G_S` of almost-balanced matrices (Section 3).
//!
//! Three implementations on the same cached graph ([`AbGraph`]):
//! * [`nishio_paper`] — exactly the algorithm of Section 3: a recursive depth-first search from
//!   `0` with the dynamic sets `T` (cells), `V` (vertices that need no more search, initially
//!   `{1}`) and `Z` (vertices with a path to `1`, initially `{1}`); for each arc `vw` of `G_U`
//!   whose label is in `S`, search `w` if it is not in `V`, then if `w ∈ Z` add `v` to `Z` and
//!   the label to `T`. Kept untouched as the reference.
//! * [`nishio_dag`] (the default) — the same search, memoized: it reads only the arcs whose label
//!   is in `S` (found with one AND of the vertex's arc-row mask and `S`'s column mask, instead of
//!   testing every arc of `G_U`), memoizes per vertex the number of paths to `1` (exact, `u128`;
//!   non-zero ⇔ the paper's `Z`) and collects the labels of arcs into vertices with a path. It
//!   returns Nishio(S) and the number of valid placements inside `S` (Lemma 1).
//! * [`nishio_lanes`] — the bit-parallel variant asked for in the paper's conclusion: up to
//!   64 candidate sets at once, one `u64` lane per set, sweeping every arc of `G_U` once per
//!   batch (see BENCHMARKS.md, Sudoku section, for when this wins).
//!
//! [`nishio_with`] is [`nishio`] with a stop test (a deadline, a cancel flag) polled every
//! [`POLL_EVERY`] vertices of the search: on an empty 25×25 grid one digit visits all
//! 4.5 M vertices of `G_U`, far longer than a solver's deadline granularity.
//!
//! # Bibliography
//! D. Eppstein, *Solving single-digit Sudoku subproblems*, FUN 2012, arXiv:1202.5074 —
//! Definition 1, Lemma 1, Section 3 (algorithm), Theorem 1 (time `O(ab·A_{b,a})`).

use crate::board::CellMask;
use crate::graph::AbGraph;
use std::cell::RefCell;

/// The result of one Nishio computation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nishio {
    /// Nishio(S): the cells of `S` on at least one valid placement inside `S`.
    pub keep: CellMask,
    /// The number of valid placements inside `S`, when the method counts them.
    pub placements: Option<u128>,
}

impl Nishio {
    /// The cells of `s` that Nishio eliminates (`S − Nishio(S)`).
    pub fn removed(&self, s: &CellMask) -> CellMask {
        s.minus(&self.keep)
    }
}

/// Section 3 exactly as published (recursive DFS with the sets `T`, `V`, `Z`).
pub fn nishio_paper(g: &AbGraph, s: &CellMask) -> CellMask {
    struct Dfs<'a> {
        g: &'a AbGraph,
        s: &'a CellMask,
        t: CellMask,
        v: Vec<bool>,
        z: Vec<bool>,
    }
    impl Dfs<'_> {
        fn search(&mut self, v: u32) {
            self.v[v as usize] = true;
            // The label of an arc out of a vertex of count c is column c (0-based).
            let c = self.g.mask(v).count_ones() as usize;
            for (w, r) in self.g.arcs(v) {
                if !self.s.contains(r as usize, c) {
                    continue;
                }
                if !self.v[w as usize] {
                    self.search(w);
                }
                if self.z[w as usize] {
                    self.z[v as usize] = true;
                    self.t.insert(r as usize, c);
                }
            }
        }
    }
    let nv = g.num_vertices();
    let mut d = Dfs {
        g,
        s,
        t: CellMask::empty(g.n()),
        v: vec![false; nv],
        z: vec![false; nv],
    };
    d.v[g.sink() as usize] = true;
    d.z[g.sink() as usize] = true;
    d.search(g.source());
    d.t
}

/// Reusable buffers for [`nishio_dag`] (one per thread, see [`nishio`]).
#[derive(Default, Debug)]
pub struct Scratch {
    epoch: u32,
    stamp: Vec<u32>,
    count64: Vec<u64>,
    count128: Vec<u128>,
}

impl Scratch {
    fn prepare(&mut self, nv: usize) {
        if self.stamp.len() < nv {
            self.stamp = vec![0; nv];
            self.epoch = 0;
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|x| *x = 0);
            self.epoch = 1;
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Nishio(S) and the exact number of valid placements in `S`, with this thread's buffers.
pub fn nishio(g: &AbGraph, s: &CellMask) -> Nishio {
    SCRATCH.with(|sc| nishio_dag(g, s, &mut sc.borrow_mut()))
}

/// How many vertices [`nishio_with`] visits between two polls of its stop test.
pub const POLL_EVERY: u32 = 1 << 12;

/// [`nishio`] with a stop test polled every [`POLL_EVERY`] vertices; `None` when it said stop
/// (the partial search is discarded).
pub fn nishio_with(g: &AbGraph, s: &CellMask, stop: &dyn Fn() -> bool) -> Option<Nishio> {
    SCRATCH.with(|sc| nishio_dag_with(g, s, &mut sc.borrow_mut(), Some(stop)))
}

/// Nishio(S) with exact path counting by a memoized depth-first search of `G_S` that reads
/// only the arcs whose label is in `S` (one AND of the vertex's arc-row mask with `S`'s column
/// mask). Same answer as [`nishio_paper`]: a vertex's memo is its number of paths to `1`
/// (non-zero ⇔ the paper's set `Z`), and an arc's label joins `T` when its head has a path.
/// Counts are `u64`, redone in `u128` when they saturate on shapes whose counts can exceed it.
pub fn nishio_dag(g: &AbGraph, s: &CellMask, sc: &mut Scratch) -> Nishio {
    nishio_dag_with(g, s, sc, None).unwrap_or(Nishio {
        keep: CellMask::empty(g.n()),
        placements: None,
    })
}

/// [`nishio_dag`] with an optional stop test (`None` result only when it said stop).
fn nishio_dag_with(g: &AbGraph, s: &CellMask, sc: &mut Scratch, stop: Option<&dyn Fn() -> bool>) -> Option<Nishio> {
    let n = g.n();
    let mut cols = [0u32; 32];
    for (c, col) in cols.iter_mut().enumerate().take(n) {
        *col = s.col(c) as u32;
    }
    // Counts in u64 (saturating) first; only when the total saturates on a shape whose counts
    // can exceed u64 (25×25 and up) is the search redone in u128. This keeps the memo small.
    let mut keep = [0u32; 32];
    let mut total = run_memo::<u64>(g, &cols, &mut keep, sc, stop)? as u128;
    if total == u64::MAX as u128 && !g.fits_u64() {
        keep = [0u32; 32];
        total = run_memo::<u128>(g, &cols, &mut keep, sc, stop)?;
    }
    let mut out = CellMask::empty(n);
    if total > 0 {
        for (c, &k) in keep.iter().enumerate().take(n) {
            out.set_col(c, k as u64);
        }
    }
    Some(Nishio {
        keep: out,
        placements: Some(total),
    })
}

/// A path count type (saturating addition).
trait Count: Copy + Default + PartialEq {
    const ONE: Self;
    fn add(self, o: Self) -> Self;
    fn memo(sc: &mut Scratch) -> &mut Vec<Self>;
}
impl Count for u64 {
    const ONE: Self = 1;
    fn memo(sc: &mut Scratch) -> &mut Vec<Self> {
        &mut sc.count64
    }
    #[inline]
    fn add(self, o: Self) -> Self {
        self.saturating_add(o)
    }
}
impl Count for u128 {
    const ONE: Self = 1;
    fn memo(sc: &mut Scratch) -> &mut Vec<Self> {
        &mut sc.count128
    }
    #[inline]
    fn add(self, o: Self) -> Self {
        self.saturating_add(o)
    }
}

/// One memoized search from `0` with count type `C`.
fn run_memo<C: Count>(
    g: &AbGraph,
    cols: &[u32; 32],
    keep: &mut [u32; 32],
    sc: &mut Scratch,
    stop: Option<&dyn Fn() -> bool>,
) -> Option<C> {
    let nv = g.num_vertices();
    sc.prepare(nv);
    if C::memo(sc).len() < nv {
        *C::memo(sc) = vec![C::default(); nv];
    }
    let epoch = sc.epoch;
    let sink = g.sink() as usize;
    sc.stamp[sink] = epoch;
    let mut stamp = std::mem::take(&mut sc.stamp);
    let mut count = std::mem::take(C::memo(sc));
    count[sink] = C::ONE;
    let total = {
        let mut m = Memo {
            stamp: &mut stamp,
            count: &mut count,
            epoch,
            stop,
            ticks: 0,
            stopped: false,
        };
        let t = visit(g, g.source(), 0, cols, keep, &mut m);
        (!m.stopped).then_some(t)
    };
    sc.stamp = stamp;
    *C::memo(sc) = count;
    total
}

/// The memo: a vertex's count is valid when its stamp equals the epoch (stamps kept apart from
/// the counts so the "seen?" test reads a dense `u32` array).
struct Memo<'a, C> {
    stamp: &'a mut [u32],
    count: &'a mut [C],
    epoch: u32,
    /// The stop test, polled every [`POLL_EVERY`] visits.
    stop: Option<&'a dyn Fn() -> bool>,
    ticks: u32,
    /// Set when the stop test said stop: every pending visit returns at once.
    stopped: bool,
}

/// Number of paths from `v` (of count `c`) to `1` inside `G_S`, memoized.
fn visit<C: Count>(g: &AbGraph, v: u32, c: usize, cols: &[u32; 32], keep: &mut [u32; 32], memo: &mut Memo<'_, C>) -> C {
    if let Some(stop) = memo.stop {
        memo.ticks = memo.ticks.wrapping_add(1);
        if memo.stopped || (memo.ticks % POLL_EVERY == 0 && stop()) {
            memo.stopped = true;
            return C::default();
        }
    }
    let all = g.succ_rows(v);
    let targets = g.succ(v);
    let mut rows = all & cols[c];
    let mut sum = C::default();
    while rows != 0 {
        let r = rows.trailing_zeros();
        let w = targets[(all & ((1u32 << r) - 1)).count_ones() as usize] as usize;
        rows &= rows - 1;
        let p = if memo.stamp[w] == memo.epoch {
            memo.count[w]
        } else {
            visit(g, w as u32, c + 1, cols, keep, memo)
        };
        if p != C::default() {
            sum = sum.add(p);
            keep[c] |= 1 << r;
        }
    }
    memo.stamp[v as usize] = memo.epoch;
    memo.count[v as usize] = sum;
    sum
}

/// The bit-parallel variant: Nishio for up to 64 sets at once (lane `k` = `sets[k]`), one
/// sweep over all arcs of `G_U` forward and one backward.
///
/// # Panics
/// When more than 64 sets are given.
pub fn nishio_lanes(g: &AbGraph, sets: &[CellMask]) -> Vec<CellMask> {
    assert!(sets.len() <= 64, "at most 64 lanes");
    let n = g.n();
    // lane[c * n + r]: the sets containing cell (r, c).
    let mut lane = vec![0u64; n * n];
    for (k, s) in sets.iter().enumerate() {
        for (r, c) in s.iter() {
            lane[c * n + r] |= 1 << k;
        }
    }
    let nv = g.num_vertices();
    let all = if sets.len() == 64 {
        u64::MAX
    } else {
        (1u64 << sets.len()) - 1
    };
    let mut fwd = vec![0u64; nv];
    fwd[g.source() as usize] = all;
    for c in 0..n {
        let lanes = &lane[c * n..(c + 1) * n];
        for v in g.level(c) {
            let f = fwd[v as usize];
            if f == 0 {
                continue;
            }
            for (w, r) in g.arcs(v) {
                fwd[w as usize] |= f & lanes[r as usize];
            }
        }
    }
    let mut bwd = vec![0u64; nv];
    bwd[g.sink() as usize] = all;
    let mut kept = vec![0u64; n * n];
    for c in (0..n).rev() {
        let lanes = &lane[c * n..(c + 1) * n];
        let kept_c = &mut kept[c * n..(c + 1) * n];
        for v in g.level(c) {
            let f = fwd[v as usize];
            if f == 0 {
                continue;
            }
            let mut acc = 0u64;
            for (w, r) in g.arcs(v) {
                let x = bwd[w as usize] & lanes[r as usize];
                acc |= x;
                kept_c[r as usize] |= x & f;
            }
            bwd[v as usize] = acc;
        }
    }
    let mut out = vec![CellMask::empty(n); sets.len()];
    for c in 0..n {
        for r in 0..n {
            let mut k = kept[c * n + r];
            while k != 0 {
                let i = k.trailing_zeros() as usize;
                k &= k - 1;
                out[i].insert(r, c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BlockShape, Candidates, Sudoku};

    /// Figure 4 of the paper, transcribed.
    const FIG4: &str = "3.9....74..5...9.2....49...6....3.2....2.5....3.1....7...78....8.3...7..91....5.8";

    #[test]
    fn the_full_grid_keeps_everything_and_counts_all_placements() {
        let g = AbGraph::get(BlockShape::new(3, 3)).unwrap();
        let r = nishio(&g, &CellMask::full(9));
        assert_eq!(r.keep, CellMask::full(9));
        assert_eq!(r.placements, Some(46656));
        assert_eq!(nishio_paper(&g, &CellMask::full(9)), CellMask::full(9));
    }

    #[test]
    fn an_empty_column_leaves_nothing() {
        let g = AbGraph::get(BlockShape::new(2, 2)).unwrap();
        let mut s = CellMask::full(4);
        s.set_col(2, 0);
        let r = nishio(&g, &s);
        assert!(r.keep.is_empty());
        assert_eq!(r.placements, Some(0));
        assert!(nishio_paper(&g, &s).is_empty());
    }

    #[test]
    fn a_single_placement_is_kept_exactly() {
        // Figure 3 left: a valid placement of four cells of a 4×4 grid.
        let g = AbGraph::get(BlockShape::new(2, 2)).unwrap();
        let mut s = CellMask::empty(4);
        for (r, c) in [(0, 1), (1, 2), (2, 0), (3, 3)] {
            s.insert(r, c);
        }
        let r = nishio(&g, &s);
        assert_eq!(r.keep, s);
        assert_eq!(r.placements, Some(1));
    }

    #[test]
    fn all_three_methods_agree_on_the_figure_four_candidates() {
        // With only the givens' eliminations: every method agrees and the result is sound.
        let p = Sudoku::parse(FIG4, None).unwrap();
        let cand = Candidates::from_puzzle(&p).unwrap();
        let g = AbGraph::get(p.block()).unwrap();
        let sets: Vec<CellMask> = (1..=9).map(|d| cand.digit_cells(d)).collect();
        let lanes = nishio_lanes(&g, &sets);
        for (d, s) in sets.iter().enumerate() {
            let fast = nishio(&g, s);
            assert_eq!(fast.keep, nishio_paper(&g, s), "digit {}", d + 1);
            assert_eq!(fast.keep, lanes[d], "digit {}", d + 1);
            assert!(fast.keep.is_subset(s));
            assert!(fast.placements.unwrap() >= 1);
        }
    }
}
