//! The search fallback: a [`Backtrack`] state for core's generic driver ([`pencilbox_core::run`]).
//!
//! Copy-on-branch over per-cell candidate bitsets ([`Domain`]), which core's style guide allows
//! for tiny fixed-size state: `apply` copies the top grid, fixes one cell and propagates naked
//! singles (removing a fixed value from its peers) and hidden singles (a digit with one place
//! in a unit) to a fixpoint; `undo` pops. Branching picks a cell with the fewest candidates, or
//! a digit of a unit with even fewer places (the digit must take one of them).
//! This is both the `backtrack` algorithm and the fallback that finishes `deduce` after the
//! rules stall.
//!
//! # Restarts (first-solution searches)
//! Plain depth-first search has heavy-tailed run times on large grids with many solutions (a
//! bad early choice is refuted only after a huge subtree). When one solution is wanted,
//! [`search`] runs the driver repeatedly with a growing node budget, the Luby sequence
//! (M. Luby, A. Sinclair, D. Zuckerman, *Optimal speedup of Las Vegas algorithms*, IPL 47,
//! 1993) times [`RESTART_BASE`] nodes: run `i` breaks ties between equally narrow branching
//! points and orders branches by a hash of `i` (run 1 is the plain deterministic order), so the
//! result is deterministic for a given input. A run that exhausts its tree proves there is no
//! solution (every run explores a complete tree, only in another order); budgets grow without
//! bound, so the search stays complete. Counting searches (more than one solution) run once,
//! without restarts. Every run is core's [`run`] with the caller's deadline and cancel flag;
//! they are also polled between runs.

use crate::board::Candidates;
use crate::geometry::Geometry;
use pencilbox_core::search::{run, Backtrack, Expand, Flow, Limits, SearchResult, Stats, StopReason};
use pencilbox_core::Domain;
use std::sync::Arc;

/// The search state: a stack of candidate grids.
pub struct SearchState {
    geo: Arc<Geometry>,
    stack: Vec<Vec<Domain>>,
    queue: Vec<usize>,
    /// Tie-breaking seed (0 = the plain order: first narrowest cell, digits ascending).
    seed: u64,
    /// The deadline and cancel flag, polled every [`POLL_EVERY`] nodes (core's driver polls
    /// only every 256 nodes, up to a few tens of milliseconds on 35×35 grids).
    limits: Limits,
    ticks: u32,
    /// Set when the limits stopped the search: every node is then dead and every branch
    /// rejected, so the driver unwinds at once; [`search`] reports the reason.
    stopped: Option<StopReason>,
    /// Failure weights per unit (dom/wdeg): bumped when propagation fails in the unit (or at a
    /// cell of it); kept across restarts.
    weights: Vec<u64>,
}

/// Nodes between two polls of the deadline and cancel flag by the state itself.
pub const POLL_EVERY: u32 = 16;

/// Nodes of the first run of a restarting search; run `i` gets `luby(i)` times this.
pub const RESTART_BASE: u64 = 512;

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, … (`i ≥ 1`).
pub fn luby(i: u64) -> u64 {
    let mut i = i.max(1);
    loop {
        // The smallest k with 2^k − 1 ≥ i.
        let k = 64 - i.leading_zeros() as u64;
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// SplitMix64: a well-mixed hash of `x`.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Propagates singles from the cells in `queue`; false on a contradiction.
pub fn propagate(geo: &Geometry, grid: &mut [Domain], queue: &mut Vec<usize>) -> bool {
    propagate_blame(geo, grid, queue).is_ok()
}

/// Where propagation found a contradiction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blame {
    /// This cell lost its last candidate.
    Cell(usize),
    /// This unit has no place left for some digit.
    Unit(usize),
}

/// [`propagate`], saying where the contradiction was found.
pub fn propagate_blame(geo: &Geometry, grid: &mut [Domain], queue: &mut Vec<usize>) -> Result<(), Blame> {
    let n = geo.n();
    let full = Domain::range(1, n as u32);
    loop {
        while let Some(i) = queue.pop() {
            let v = grid[i];
            for &p in geo.peers(i) {
                let p = p as usize;
                if grid[p].0 & v.0 != 0 {
                    grid[p] = grid[p].minus(v);
                    if grid[p].is_empty() {
                        return Err(Blame::Cell(p));
                    }
                    if grid[p].is_single() {
                        queue.push(p);
                    }
                }
            }
        }
        for (u, unit) in geo.units().iter().enumerate() {
            let (mut once, mut twice) = (0u64, 0u64);
            for &c in unit {
                let m = grid[c as usize].0;
                twice |= once & m;
                once |= m;
            }
            if once != full.0 {
                return Err(Blame::Unit(u));
            }
            let mut singles = once & !twice;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles &= singles - 1;
                if let Some(&c) = unit.iter().find(|&&c| grid[c as usize].0 & bit != 0) {
                    if grid[c as usize].0 != bit {
                        grid[c as usize] = Domain(bit);
                        queue.push(c as usize);
                    }
                }
            }
        }
        if queue.is_empty() {
            return Ok(());
        }
    }
}

impl SearchState {
    /// A state from candidates; `None` when propagation at the root finds a contradiction.
    pub fn new(cand: &Candidates) -> Option<SearchState> {
        let geo = Geometry::get(cand.block());
        let geo_units = geo.units().len();
        let mut grid = cand.cells().to_vec();
        let mut queue: Vec<usize> = (0..grid.len()).filter(|&i| grid[i].is_single()).collect();
        if grid.iter().any(|d| d.is_empty()) || !propagate(&geo, &mut grid, &mut queue) {
            return None;
        }
        Some(SearchState {
            geo,
            stack: vec![grid],
            queue,
            seed: 0,
            limits: Limits::default(),
            ticks: 0,
            stopped: None,
            weights: vec![1; geo_units],
        })
    }
    /// The current grid.
    pub fn grid(&self) -> &[Domain] {
        self.stack.last().map_or(&[], |g| g.as_slice())
    }
    /// The current values (all cells fixed at a solution).
    pub fn values(&self) -> Vec<u8> {
        self.grid().iter().map(|d| d.value().unwrap_or(0) as u8).collect()
    }
}

impl SearchState {
    /// Polls the limits every [`POLL_EVERY`] calls; true once they stopped the search.
    fn poll(&mut self) -> bool {
        if self.stopped.is_none() {
            self.ticks = self.ticks.wrapping_add(1);
            if self.ticks % POLL_EVERY == 0 {
                self.stopped = self.limits.interrupted();
            }
        }
        self.stopped.is_some()
    }

    /// With a seed, starts the branch list at a hashed position (depth and first branch mixed
    /// in, so different nodes rotate differently).
    fn rotate(&self, branches: &mut [(u16, u8)]) {
        if self.seed != 0 && branches.len() > 1 {
            let (c, v) = branches[0];
            let h = mix(self.seed ^ ((self.stack.len() as u64) << 32) ^ ((c as u64) << 8) ^ v as u64);
            branches.rotate_left((h % branches.len() as u64) as usize);
        }
    }
}

impl Backtrack for SearchState {
    type Branch = (u16, u8);
    fn expand(&mut self, out: &mut Vec<(u16, u8)>) -> Expand {
        if self.poll() {
            return Expand::Dead;
        }
        let seed = self.seed;
        let start = out.len();
        let grid = self.grid();
        let n = self.geo.n();
        // dom/wdeg: the cell with the fewest candidates per unit of failure weight (the sum of
        // its three units' weights); ties broken by position (seed 0) or a hash of the seed.
        let mut best: Option<(u32, usize)> = None;
        let (mut bk, mut bw, mut bh) = (u64::MAX, 1u64, u64::MAX);
        for (i, d) in grid.iter().enumerate() {
            let k = d.len();
            if k < 2 {
                continue;
            }
            let w: u64 = self.geo.cell_units(i).iter().map(|&u| self.weights[u as usize]).sum();
            let (lhs, rhs) = (k as u64 * bw, bk.saturating_mul(w));
            if lhs < rhs || (lhs == rhs && seed != 0 && mix(seed ^ i as u64) < bh) {
                (bk, bw) = (k as u64, w);
                bh = if seed == 0 { 0 } else { mix(seed ^ i as u64) };
                best = Some((k, i));
            }
        }
        let Some((k, i)) = best else {
            return Expand::Solution;
        };
        // A digit with fewer places in some unit than the best cell has candidates is a
        // narrower branching point (the digit must go in one of those places). Places are
        // counted per unit in one pass over its cells' candidates.
        if k > 2 {
            let mut narrow: Option<(u32, u64, usize, u32)> = None;
            let mut counts = [0u32; 64];
            for (u, unit) in self.geo.units().iter().enumerate() {
                counts[..n].iter_mut().for_each(|x| *x = 0);
                let mut fixed = 0u64;
                for &c in unit {
                    let d = grid[c as usize];
                    if d.is_single() {
                        fixed |= d.0;
                        continue;
                    }
                    let mut m = d.0;
                    while m != 0 {
                        counts[m.trailing_zeros() as usize] += 1;
                        m &= m - 1;
                    }
                }
                for (bit, &places) in counts[..n].iter().enumerate() {
                    if places < 2 || fixed >> bit & 1 == 1 {
                        continue;
                    }
                    let limit = narrow.map_or(k, |(p, _, _, _)| p);
                    if seed == 0 {
                        if places < limit {
                            narrow = Some((places, 0, u, bit as u32 + 1));
                        }
                    } else if places <= limit {
                        let h = mix(seed ^ ((u as u64) << 8) ^ bit as u64);
                        if places < limit || narrow.is_some_and(|(_, bh, _, _)| h < bh) {
                            narrow = Some((places, h, u, bit as u32 + 1));
                        }
                    }
                }
            }
            if let Some((_, _, u, d)) = narrow {
                out.extend(
                    self.geo
                        .unit(u)
                        .iter()
                        .filter(|&&c| grid[c as usize].contains(d))
                        .map(|&c| (c, d as u8)),
                );
                self.rotate(&mut out[start..]);
                return Expand::Branches;
            }
        }
        out.extend(grid[i].iter().map(|v| (i as u16, v as u8)));
        self.rotate(&mut out[start..]);
        Expand::Branches
    }
    fn apply(&mut self, (cell, v): (u16, u8)) -> bool {
        if self.stopped.is_some() {
            // Unwinding after an interruption: reject without work (undo pops this level).
            self.stack.push(Vec::new());
            return false;
        }
        let mut g = self.grid().to_vec();
        g[cell as usize] = Domain::single(v as u32);
        self.queue.clear();
        self.queue.push(cell as usize);
        let r = propagate_blame(&self.geo, &mut g, &mut self.queue);
        self.stack.push(g);
        match r {
            Ok(()) => true,
            Err(Blame::Unit(u)) => {
                self.weights[u] += 1;
                false
            }
            Err(Blame::Cell(c)) => {
                for u in self.geo.cell_units(c) {
                    self.weights[u as usize] += 1;
                }
                false
            }
        }
    }
    fn undo(&mut self, _: (u16, u8)) {
        self.stack.pop();
    }
}

/// Searches from `cand`, returning up to `limits.max_solutions` solutions (values row-major,
/// at most `keep` of them stored) and the driver's result.
/// A first-solution search (`limits.max_solutions == Some(1)`) restarts with Luby budgets
/// (see the module docs); other searches are one run of the driver. A deadline already passed
/// or a set cancel flag returns at once (with no nodes).
pub fn search(cand: &Candidates, limits: &Limits, keep: usize) -> (Vec<Vec<u8>>, Option<SearchResult>) {
    if let Some(why) = limits.interrupted() {
        let r = SearchResult {
            solutions: 0,
            stop: why,
            stats: Stats::default(),
        };
        return (vec![], Some(r));
    }
    let Some(mut st) = SearchState::new(cand) else {
        return (vec![], None);
    };
    st.limits = Limits {
        deadline: limits.deadline,
        cancel: limits.cancel.clone(),
        ..Limits::default()
    };
    let mut sols = Vec::new();
    if limits.max_solutions == Some(1) {
        let r = search_restarting(&mut st, limits, RESTART_BASE, |s| {
            if sols.len() < keep {
                sols.push(s.values());
            }
        });
        return (sols, Some(r));
    }
    let mut r = run(&mut st, limits, |s| {
        if sols.len() < keep {
            sols.push(s.values());
        }
        Flow::Continue
    });
    if let Some(why) = st.stopped {
        r.stop = why;
    }
    (sols, Some(r))
}

/// The first solution by runs of core's driver with budgets `luby(i) · base` nodes (run `i`
/// with tie-breaking seed `i − 1`), within the caller's node limit, deadline and cancel flag.
/// Statistics are summed over the runs.
pub fn search_restarting(
    st: &mut SearchState,
    limits: &Limits,
    base: u64,
    mut on_solution: impl FnMut(&mut SearchState),
) -> SearchResult {
    let mut stats = Stats::default();
    let started = std::time::Instant::now();
    let mut i = 1u64;
    let result = |solutions, stop, mut stats: Stats| {
        stats.elapsed_us = started.elapsed().as_micros() as u64;
        SearchResult { solutions, stop, stats }
    };
    loop {
        if let Some(why) = limits.interrupted() {
            return result(0, why, stats);
        }
        let budget = luby(i).saturating_mul(base.max(1));
        let left = limits.node_limit.map(|l| l.saturating_sub(stats.nodes));
        if left == Some(0) {
            return result(0, StopReason::NodeLimit, stats);
        }
        let run_limits = Limits {
            max_solutions: Some(1),
            node_limit: Some(left.map_or(budget, |l| l.min(budget))),
            deadline: limits.deadline,
            cancel: limits.cancel.clone(),
        };
        st.seed = mix(i) | 1;
        if i == 1 {
            st.seed = 0;
        }
        let r = run(st, &run_limits, |s| {
            on_solution(s);
            Flow::Stop
        });
        stats.absorb(&r.stats);
        if r.solutions == 0 {
            if let Some(why) = st.stopped {
                return result(0, why, stats);
            }
        }
        match r.stop {
            StopReason::NodeLimit if left.is_none_or(|l| l > budget) => i += 1,
            StopReason::Callback | StopReason::SolutionLimit => {
                return result(r.solutions, StopReason::SolutionLimit, stats)
            }
            stop => return result(r.solutions, stop, stats),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Sudoku;

    #[test]
    fn an_empty_four_by_four_has_288_solutions() {
        let p = Sudoku::parse(&".".repeat(16), None).unwrap();
        let c = Candidates::from_puzzle(&p).unwrap();
        let (_, r) = search(&c, &Limits::all(), 0);
        assert_eq!(r.unwrap().solutions, 288);
    }

    /// Every 4×4 grid by brute force: rows are permutations, then columns and blocks checked.
    fn all_4x4_grids() -> Vec<Vec<u8>> {
        let mut perms = Vec::new();
        for a in 1..=4u8 {
            for b in 1..=4u8 {
                for c in 1..=4u8 {
                    for d in 1..=4u8 {
                        let p = [a, b, c, d];
                        if (0..4).all(|i| (0..i).all(|j| p[i] != p[j])) {
                            perms.push(p);
                        }
                    }
                }
            }
        }
        let mut out = Vec::new();
        for r0 in &perms {
            for r1 in &perms {
                for r2 in &perms {
                    for r3 in &perms {
                        let g: Vec<u8> = [r0, r1, r2, r3].iter().flat_map(|r| r.iter().copied()).collect();
                        let empty = Sudoku::new(crate::board::BlockShape::new(2, 2), vec![0; 16]).unwrap();
                        if crate::solver::check_solution(&empty, &g).is_empty() {
                            out.push(g);
                        }
                    }
                }
            }
        }
        out
    }

    #[test]
    fn solution_counts_match_brute_force_on_random_4x4_givens() {
        let all = all_4x4_grids();
        assert_eq!(all.len(), 288);
        let mut rng = crate::generate::Rng::new(99);
        for _ in 0..200 {
            // Givens copied from a random grid (so at least one solution), or random values.
            let base = &all[rng.below(all.len())];
            let mut g = vec![0u8; 16];
            for (i, v) in g.iter_mut().enumerate() {
                if rng.below(100) < 30 {
                    *v = if rng.below(5) == 0 {
                        1 + rng.below(4) as u8
                    } else {
                        base[i]
                    };
                }
            }
            let p = Sudoku::new(crate::board::BlockShape::new(2, 2), g.clone()).unwrap();
            let brute = all
                .iter()
                .filter(|s| s.iter().zip(&g).all(|(&x, &y)| y == 0 || x == y))
                .count() as u64;
            let counted = match Candidates::from_puzzle(&p) {
                Ok(c) => search(&c, &Limits::all(), 0).1.map_or(0, |r| r.solutions),
                Err(_) => 0,
            };
            assert_eq!(counted, brute, "{}", p.to_line());
        }
    }

    #[test]
    fn restarting_first_solution_searches_agree_with_brute_force_on_random_4x4_givens() {
        let all = all_4x4_grids();
        let mut rng = crate::generate::Rng::new(7);
        for _ in 0..300 {
            let base = &all[rng.below(all.len())];
            let mut g = vec![0u8; 16];
            for (i, v) in g.iter_mut().enumerate() {
                if rng.below(100) < 35 {
                    *v = if rng.below(4) == 0 {
                        1 + rng.below(4) as u8
                    } else {
                        base[i]
                    };
                }
            }
            let p = Sudoku::new(crate::board::BlockShape::new(2, 2), g.clone()).unwrap();
            let brute = all.iter().any(|s| s.iter().zip(&g).all(|(&x, &y)| y == 0 || x == y));
            let Ok(c) = Candidates::from_puzzle(&p) else {
                assert!(!brute);
                continue;
            };
            let Some(mut st) = SearchState::new(&c) else {
                assert!(!brute);
                continue;
            };
            // A budget of one node per Luby unit forces many restarts.
            let mut found = Vec::new();
            let r = search_restarting(&mut st, &Limits::first(), 1, |s| found = s.values());
            assert_eq!(r.solutions == 1, brute, "{}", p.to_line());
            assert!(r.stop == StopReason::SolutionLimit || r.stop == StopReason::Exhausted);
            if brute {
                assert!(crate::solver::check_solution(&p, &found).is_empty());
            }
        }
    }

    #[test]
    fn the_luby_sequence_starts_as_published() {
        let v: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(v, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn the_figure_four_puzzle_has_exactly_one_solution() {
        let p = Sudoku::parse(
            "3.9....74..5...9.2....49...6....3.2....2.5....3.1....7...78....8.3...7..91....5.8",
            None,
        )
        .unwrap();
        let c = Candidates::from_puzzle(&p).unwrap();
        let (sols, r) = search(&c, &Limits::all(), 2);
        assert_eq!(r.unwrap().solutions, 1);
        assert!(crate::solver::check_solution(&p, &sols[0]).is_empty());
    }
}
