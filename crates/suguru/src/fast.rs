//! The default solver: finite-domain propagation specialised to Suguru, with
//! smallest-domain-first branching, as a [`Backtrack`] state for the core driver.
//!
//! # Background
//! Each cell holds a [`Domain`] bitset (values `1..=64`, so regions of at most 64 cells; larger
//! regions are refused with [`FastError::RegionTooLarge`] and the caller falls back to `paper`).
//! Domain changes are recorded on a core [`Trail`]; a branch opens a trail level and undo pops it.
//! The generic [`pencilbox_core::fd`] layer expresses the same rules (see `crate::fdmodel`) but
//! re-runs whole propagators; this state does the same deductions incrementally, which is what
//! makes the whole Janko set solve in a few milliseconds.
//!
//! # Rules (all sound; each is a classic Suguru technique)
//! 1. **Naked single / neighbour elimination** — a fixed value leaves every king neighbour and
//!    every cell of its region (paper rules 1 and 2).
//! 2. **Hidden single** — a region is a permutation of `1..=s`, so a value that fits one cell of
//!    the region goes there; a value that fits none is a conflict.
//! 3. **Pointing** — if value `v` of region `k` can only go in cells `C`, every cell outside `k`
//!    that touches *all* of `C` loses `v` (the common king neighbours of `C` lie in the box
//!    `[max r − 1, min r + 1] × [max c − 1, min c + 1]`).
//! 4. **Naked pair** — two cells of a region with the same two-value domain take both values,
//!    so the rest of the region and the common neighbours of the pair lose them.
//!
//! [`Rules`] can switch rules 2–4 off; the generator uses that to grade difficulty.
//!
//! 5. **Failed-value probing** (at branching nodes only) — for every two-valued cell, each value
//!    is tried and propagated; a value that leads to a conflict is removed. This is what keeps
//!    minimal 20×20 puzzles to a handful of nodes. Off by default above
//!    [`PROBE_MAX_CELLS`] cells, where one probing pass would cost more than it saves.
//!
//! # Branching
//! The unfixed cell with the fewest values (lowest index on ties), values increasing, or in a
//! seeded random order for the generator.

use crate::model::{Solution, Suguru};
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::search::{Backtrack, Expand};
use pencilbox_core::trail::Trail;
use pencilbox_core::{Domain, Grid, Shape};

/// Which deduction rules run (neighbour elimination always does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Hidden singles in regions.
    pub hidden_single: bool,
    /// Pointing eliminations (a region's value confined to cells with common neighbours).
    pub pointing: bool,
    /// Naked pairs in regions.
    pub naked_pair: bool,
}

impl Rules {
    /// Every rule.
    pub const ALL: Rules = Rules {
        hidden_single: true,
        pointing: true,
        naked_pair: true,
    };
    /// Only naked singles (neighbour and region elimination).
    pub const SINGLES: Rules = Rules {
        hidden_single: false,
        pointing: false,
        naked_pair: false,
    };
    /// Naked and hidden singles.
    pub const SINGLES_AND_HIDDEN: Rules = Rules {
        hidden_single: true,
        pointing: false,
        naked_pair: false,
    };
}

/// The instance cannot be handled by the bitset solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastError {
    /// A region has more cells than a [`Domain`] has values.
    RegionTooLarge(usize),
}

/// Probing costs a propagation per two-valued cell at every branching node, so it is switched
/// off by default on grids larger than this (in cells).
pub const PROBE_MAX_CELLS: usize = 10_000;

/// The propagating search state.
pub struct FastSearch {
    shape: Shape,
    dom: Vec<Domain>,
    trail: Trail<(u32, Domain)>,
    king_off: Vec<u32>,
    king: Vec<u32>,
    region_of: Vec<u32>,
    reg_off: Vec<u32>,
    reg_cells: Vec<u32>,
    reg_full: Vec<Domain>,
    queue: Vec<u32>,
    /// Regions whose cells changed since the cheap region rules (hidden singles) last ran.
    dirty: Vec<bool>,
    dirty_list: Vec<u32>,
    /// Regions whose cells changed since the costly rules (pointing, naked pairs) last ran;
    /// those run only when everything cheaper has reached its fixpoint.
    dirty2: Vec<bool>,
    dirty2_list: Vec<u32>,
    rules: Rules,
    root_done: bool,
    rng: Option<SplitMix64>,
    probing: bool,
    /// Propagation steps (cells processed), for statistics.
    pub propagations: u64,
    /// A cell where the last conflict was found (an emptied domain, or a cell of a region that
    /// lost a value); the generator repairs layouts around it.
    pub conflict: Option<u32>,
}

impl FastSearch {
    /// Builds the state with every rule on.
    pub fn new(p: &Suguru) -> Result<Self, FastError> {
        Self::with_rules(p, Rules::ALL)
    }

    /// Builds the state with a chosen rule set.
    pub fn with_rules(p: &Suguru, rules: Rules) -> Result<Self, FastError> {
        let shape = p.shape();
        let big = p.max_region_size();
        if big > Domain::MAX as usize {
            return Err(FastError::RegionTooLarge(big));
        }
        let n = shape.cells();
        let mut king_off = Vec::with_capacity(n + 1);
        let mut king = Vec::with_capacity(n * 8);
        king_off.push(0);
        for c in shape.all() {
            for d in pencilbox_core::grid::KING {
                if let Some(x) = shape.step(c, d) {
                    king.push(x.0);
                }
            }
            king_off.push(king.len() as u32);
        }
        let mut reg_off = Vec::with_capacity(p.num_regions() + 1);
        let mut reg_cells = Vec::with_capacity(n);
        reg_off.push(0);
        for cells in p.regions() {
            reg_cells.extend(cells.iter().map(|c| c.0));
            reg_off.push(reg_cells.len() as u32);
        }
        let reg_full: Vec<Domain> = p.regions().map(|c| Domain::range(1, c.len() as u32)).collect();
        let region_of: Vec<u32> = p.region_grid().as_slice().to_vec();
        let dom = shape
            .all()
            .map(|c| match p.hint(c) {
                0 => reg_full[region_of[c.index()] as usize],
                h => Domain::single(h),
            })
            .collect();
        Ok(FastSearch {
            shape,
            dom,
            trail: Trail::new(),
            king_off,
            king,
            region_of,
            reg_off,
            reg_cells,
            reg_full,
            queue: Vec::new(),
            dirty: vec![false; p.num_regions()],
            dirty_list: Vec::new(),
            dirty2: vec![false; p.num_regions()],
            dirty2_list: Vec::new(),
            rules,
            root_done: false,
            rng: None,
            probing: n <= PROBE_MAX_CELLS,
            propagations: 0,
            conflict: None,
        })
    }

    /// Tries values in a random order drawn from `seed` (the generator's random fill).
    pub fn randomise(&mut self, seed: u64) {
        self.rng = Some(SplitMix64::new(seed));
    }

    /// The current domains, row-major.
    pub fn domains(&self) -> &[Domain] {
        &self.dom
    }

    /// The filled grid (`0` where a cell is not fixed).
    pub fn grid(&self) -> Solution {
        Grid::from_vec(self.shape, self.dom.iter().map(|d| d.value().unwrap_or(0)).collect()).expect("sized")
    }

    /// True when every cell is fixed.
    pub fn all_fixed(&self) -> bool {
        self.dom.iter().all(|d| d.is_single())
    }

    /// Narrows `c` to `d ∩ dom(c)`; `Err` on an empty domain.
    #[inline(always)]
    fn restrict(&mut self, c: u32, d: Domain) -> Result<(), ()> {
        let old = self.dom[c as usize];
        let new = old.and(d);
        if new == old {
            return Ok(());
        }
        if new.is_empty() {
            self.conflict = Some(c);
            return Err(());
        }
        self.trail.push((c, old));
        self.dom[c as usize] = new;
        if new.is_single() {
            self.queue.push(c);
        }
        let k = self.region_of[c as usize];
        if !self.dirty[k as usize] {
            self.dirty[k as usize] = true;
            self.dirty_list.push(k);
        }
        if !self.dirty2[k as usize] {
            self.dirty2[k as usize] = true;
            self.dirty2_list.push(k);
        }
        Ok(())
    }

    /// Forgets pending region work (after a conflict or an undo).
    fn clear_dirty(&mut self) {
        for k in self.dirty_list.drain(..) {
            self.dirty[k as usize] = false;
        }
        for k in self.dirty2_list.drain(..) {
            self.dirty2[k as usize] = false;
        }
    }

    /// Queues every fixed cell and marks every region (root propagation).
    fn seed_all(&mut self) {
        self.queue
            .extend((0..self.dom.len() as u32).filter(|&c| self.dom[c as usize].is_single()));
        for k in 0..self.dirty.len() {
            if !self.dirty[k] {
                self.dirty[k] = true;
                self.dirty_list.push(k as u32);
            }
            if !self.dirty2[k] {
                self.dirty2[k] = true;
                self.dirty2_list.push(k as u32);
            }
        }
    }

    /// Runs the rules to a fixpoint; `false` on a conflict (the queue is then cleared).
    pub fn propagate(&mut self) -> bool {
        let ok = self.fixpoint().is_ok();
        if !ok {
            self.queue.clear();
            self.clear_dirty();
        }
        ok
    }

    fn fixpoint(&mut self) -> Result<(), ()> {
        loop {
            while let Some(c) = self.queue.pop() {
                self.propagations += 1;
                let d = self.dom[c as usize];
                let keep = Domain(!d.0);
                let (a, b) = (
                    self.king_off[c as usize] as usize,
                    self.king_off[c as usize + 1] as usize,
                );
                for i in a..b {
                    let n = self.king[i];
                    if self.dom[n as usize].0 & d.0 != 0 {
                        self.restrict(n, keep)?;
                    }
                }
                let k = self.region_of[c as usize] as usize;
                let (a, b) = (self.reg_off[k] as usize, self.reg_off[k + 1] as usize);
                for i in a..b {
                    let n = self.reg_cells[i];
                    if n != c && self.dom[n as usize].0 & d.0 != 0 {
                        self.restrict(n, keep)?;
                    }
                }
            }
            if let Some(k) = self.dirty_list.pop() {
                self.dirty[k as usize] = false;
                self.region_rules(k as usize, false)?;
            } else if let Some(k) = self.dirty2_list.pop() {
                self.dirty2[k as usize] = false;
                self.region_rules(k as usize, true)?;
            } else {
                return Ok(());
            }
        }
    }

    /// The region rules on region `k`: the missing-value check and hidden singles, or (when
    /// `costly`) pointing and naked pairs.
    fn region_rules(&mut self, k: usize, costly: bool) -> Result<(), ()> {
        let full = self.reg_full[k];
        let (a, b) = (self.reg_off[k] as usize, self.reg_off[k + 1] as usize);
        let mut once = Domain::EMPTY;
        let mut twice = Domain::EMPTY;
        for i in a..b {
            let d = self.dom[self.reg_cells[i] as usize];
            twice = twice.or(once.and(d));
            once = once.or(d);
        }
        if !full.minus(once).is_empty() {
            self.conflict = Some(self.reg_cells[a]);
            return Err(()); // a value fits nowhere in the region
        }
        if !costly && self.rules.hidden_single {
            let singles = full.minus(twice);
            if !singles.is_empty() {
                for i in a..b {
                    let c = self.reg_cells[i];
                    let d = self.dom[c as usize];
                    let s = d.and(singles);
                    if !s.is_empty() && !d.is_single() {
                        if !s.is_single() {
                            self.conflict = Some(c);
                            return Err(());
                        }
                        self.restrict(c, s)?;
                    }
                }
            }
        }
        if costly && self.rules.pointing {
            for v in twice.iter() {
                // Cells of region k that can take v (at least two, since v is in `twice`).
                let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0usize, usize::MAX, 0usize);
                let mut count = 0;
                for i in a..b {
                    let c = self.reg_cells[i] as usize;
                    if self.dom[c].contains(v) {
                        let (r, col) = (c / self.shape.width, c % self.shape.width);
                        r0 = r0.min(r);
                        r1 = r1.max(r);
                        c0 = c0.min(col);
                        c1 = c1.max(col);
                        count += 1;
                    }
                }
                if count < 2 || r1 > r0 + 2 || c1 > c0 + 2 {
                    continue;
                }
                let rows = r1.saturating_sub(1)..=(r0 + 1).min(self.shape.height - 1);
                let cols = c1.saturating_sub(1)..=(c0 + 1).min(self.shape.width - 1);
                for r in rows {
                    for col in cols.clone() {
                        let x = r * self.shape.width + col;
                        if self.region_of[x] as usize != k && self.dom[x].contains(v) {
                            self.restrict(x as u32, Domain::ALL.without(v))?;
                        }
                    }
                }
            }
        }
        if costly && self.rules.naked_pair {
            for i in a..b {
                let ci = self.reg_cells[i];
                let d = self.dom[ci as usize];
                if d.len() != 2 {
                    continue;
                }
                for j in i + 1..b {
                    let cj = self.reg_cells[j];
                    if self.dom[cj as usize] != d {
                        continue;
                    }
                    let keep = Domain(!d.0);
                    for t in a..b {
                        let x = self.reg_cells[t];
                        if x != ci && x != cj {
                            self.restrict(x, keep)?;
                        }
                    }
                    // Common king neighbours of the pair outside the region.
                    let (ai, bi) = (
                        self.king_off[ci as usize] as usize,
                        self.king_off[ci as usize + 1] as usize,
                    );
                    for t in ai..bi {
                        let x = self.king[t];
                        if self.region_of[x as usize] as usize == k {
                            continue;
                        }
                        let (aj, bj) = (
                            self.king_off[cj as usize] as usize,
                            self.king_off[cj as usize + 1] as usize,
                        );
                        if self.king[aj..bj].contains(&x) {
                            self.restrict(x, keep)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Failed-value probing (singleton consistency on two-valued cells): a value whose
    /// assignment propagates to a conflict is removed, until nothing changes. `false` when the
    /// node itself is refuted. Changes are recorded at the current trail level.
    fn probe(&mut self) -> bool {
        loop {
            let mut changed = false;
            for c in 0..self.dom.len() {
                let d = self.dom[c];
                if d.len() != 2 {
                    continue;
                }
                for v in d.iter() {
                    self.trail.new_level();
                    let ok = self.restrict(c as u32, Domain::single(v)).is_ok() && self.propagate();
                    self.pop_level();
                    if !ok {
                        if self.restrict(c as u32, d.without(v)).is_err() || !self.propagate() {
                            return false;
                        }
                        changed = true;
                        break;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// Undoes everything recorded since the last `new_level`.
    fn pop_level(&mut self) {
        let level = self.trail.level() - 1;
        let dom = &mut self.dom;
        self.trail.backtrack_to(level, |(c, old)| dom[c as usize] = old);
        self.queue.clear();
        self.clear_dirty();
    }

    /// Switches failed-value probing at branching nodes on or off (on by default for grids of at
    /// most [`PROBE_MAX_CELLS`] cells).
    pub fn set_probing(&mut self, on: bool) {
        self.probing = on;
    }

    /// Root propagation only (no search): `false` when it finds a conflict.
    pub fn propagate_root(&mut self) -> bool {
        self.root_done = true;
        self.seed_all();
        self.propagate()
    }

    fn choose(&self) -> Option<usize> {
        let mut best: Option<(u32, usize)> = None;
        for (i, d) in self.dom.iter().enumerate() {
            let n = d.len();
            if n > 1 && best.is_none_or(|(m, _)| n < m) {
                best = Some((n, i));
                if n == 2 {
                    break;
                }
            }
        }
        best.map(|(_, i)| i)
    }
}

impl Backtrack for FastSearch {
    type Branch = (u32, u32);

    fn expand(&mut self, out: &mut Vec<(u32, u32)>) -> Expand {
        if !self.root_done && !self.propagate_root() {
            return Expand::Dead;
        }
        if self.probing && !self.all_fixed() && !self.probe() {
            return Expand::Dead;
        }
        match self.choose() {
            None => Expand::Solution,
            Some(c) => {
                let start = out.len();
                out.extend(self.dom[c].iter().map(|v| (c as u32, v)));
                if let Some(rng) = &mut self.rng {
                    rng.shuffle_mod(&mut out[start..]);
                }
                Expand::Branches
            }
        }
    }

    fn apply(&mut self, (c, v): (u32, u32)) -> bool {
        self.trail.new_level();
        self.restrict(c, Domain::single(v)).is_ok() && self.propagate()
    }

    fn undo(&mut self, _: (u32, u32)) {
        self.pop_level();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse;
    use pencilbox_core::search::{run, Flow, Limits};

    #[test]
    fn fig1_is_solved_by_propagation_alone() {
        let p = parse("3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n").unwrap();
        let mut s = FastSearch::new(&p).unwrap();
        let r = run(&mut s, &Limits::all(), |s| {
            assert!(crate::verify(&p, &s.grid()).is_valid());
            Flow::Continue
        });
        assert!(r.solutions >= 1);
    }

    #[test]
    fn undo_restores_the_root_domains() {
        let p = parse("3 3\n0 0 0\n0 0 0\n0 0 0\n1 1 2\n1 1 2\n1 3 2\n").unwrap();
        let mut s = FastSearch::new(&p).unwrap();
        assert!(s.propagate_root());
        let before = s.domains().to_vec();
        let r = run(&mut s, &Limits::all(), |_| Flow::Continue);
        assert!(r.complete());
        assert_eq!(s.domains(), &before[..]);
    }

    #[test]
    fn regions_over_64_cells_are_refused() {
        let labels = vec!["1"; 65].join(" ");
        let hints = vec!["0"; 65].join(" ");
        let p = parse(&format!("1 65\n{hints}\n{labels}\n")).unwrap();
        assert!(matches!(FastSearch::new(&p), Err(FastError::RegionTooLarge(65))));
    }
}
