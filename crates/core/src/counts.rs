//! The counts toolkit: how many cells of a set are shaded (on the line, a star) — exactly,
//! at most or at least `k` — for any sets: rows, columns, regions. One [`Counts`] is posted as
//! one family of sums ([`BoolSum`]: a cell is watched once for all its sets) and checks an
//! answer with the same sets.
//!
//! ```
//! use pencilbox_core::counts::Counts;
//! use pencilbox_core::constraints::SumRule;
//! use pencilbox_core::engine::Engine;
//! use pencilbox_core::{Grid, Shape};
//! let shape = Shape::new(2, 3);
//! let mut counts = Counts::new("rows");
//! counts.rows(shape, &[Some(1), None], SumRule::Exactly);
//! let answer = Grid::from_vec(shape, vec![true, true, false, false, false, false]).unwrap();
//! let v = counts.check(&answer, "star");
//! assert_eq!(v[0].message, "row 1 has 2 stars, not 1");
//! let mut e = Engine::new();
//! let cells: Vec<_> = (0..6).map(|_| e.new_bool()).collect();
//! counts.post(&mut e, &cells);
//! ```

use crate::constraints::{BoolSum, SumRule};
use crate::engine::{Engine, VarId};
use crate::grid::{CellId, Grid, Shape};
use crate::puzzle::Violation;

/// A family of counted sets (see the module docs).
#[derive(Clone, Debug)]
pub struct Counts {
    name: &'static str,
    sets: Vec<(String, Vec<CellId>, SumRule)>,
}

impl Counts {
    /// An empty family named `name` (the rule's name in explanations and `--stats`).
    pub fn new(name: &'static str) -> Self {
        Counts { name, sets: Vec::new() }
    }

    /// Counts the cells of a set called `what` (`row 3`, `region 2`).
    pub fn add(
        &mut self,
        what: impl Into<String>,
        cells: impl IntoIterator<Item = CellId>,
        rule: SumRule,
    ) -> &mut Self {
        self.sets.push((what.into(), cells.into_iter().collect(), rule));
        self
    }

    /// Counts each row with a target (`rule(k)` for target `k`).
    pub fn rows(&mut self, shape: Shape, targets: &[Option<u32>], rule: fn(u32) -> SumRule) -> &mut Self {
        for (r, t) in targets.iter().enumerate() {
            if let Some(k) = *t {
                self.add(
                    format!("row {}", r + 1),
                    (0..shape.width).map(|c| shape.id(r, c)),
                    rule(k),
                );
            }
        }
        self
    }

    /// Counts each column with a target.
    pub fn columns(&mut self, shape: Shape, targets: &[Option<u32>], rule: fn(u32) -> SumRule) -> &mut Self {
        for (c, t) in targets.iter().enumerate() {
            if let Some(k) = *t {
                self.add(
                    format!("column {}", c + 1),
                    (0..shape.height).map(|r| shape.id(r, c)),
                    rule(k),
                );
            }
        }
        self
    }

    /// Counts each region of `labels` (regions numbered from 1 in order of first cells), all
    /// with the same target.
    pub fn regions(&mut self, labels: &Grid<u32>, rule: SumRule) -> &mut Self {
        let mut order: Vec<u32> = Vec::new();
        for &l in labels.as_slice() {
            if !order.contains(&l) {
                order.push(l);
            }
        }
        for (k, l) in order.iter().enumerate() {
            let cells = labels.shape().all().filter(|&c| labels[c] == *l);
            self.add(format!("region {}", k + 1), cells, rule);
        }
        self
    }

    /// The sets: name, cells, rule.
    pub fn sets(&self) -> &[(String, Vec<CellId>, SumRule)] {
        &self.sets
    }

    /// Posts the family on `engine` over the cells' variables `vars` (row-major).
    pub fn post(&self, engine: &mut Engine, vars: &[VarId]) {
        if self.sets.is_empty() {
            return;
        }
        let mut sums = BoolSum::family(self.name);
        for (_, cells, rule) in &self.sets {
            sums.add_iter(cells.iter().map(|c| vars[c.index()]), *rule);
        }
        engine.post(sums);
    }

    /// Every set whose count in `g` breaks its rule, named (`row 3 has 2 stars, not 1`);
    /// `what` names a counted cell.
    pub fn check(&self, g: &Grid<bool>, what: &str) -> Vec<Violation> {
        let mut out = Vec::new();
        for (name, cells, rule) in &self.sets {
            let n = cells.iter().filter(|&&c| g[c]).count() as u32;
            let (ok, want) = match *rule {
                SumRule::Exactly(k) => (n == k, format!("not {k}")),
                SumRule::AtMost(k) => (n <= k, format!("more than {k}")),
                SumRule::AtLeast(k) => (n >= k, format!("fewer than {k}")),
                SumRule::Parity(odd) => (
                    n % 2 == u32::from(odd),
                    format!("not an {} number", if odd { "odd" } else { "even" }),
                ),
            };
            if !ok {
                let plural = if n == 1 { "" } else { "s" };
                out.push(Violation::new(
                    name.clone(),
                    self.name,
                    format!("{name} has {n} {what}{plural}, {want}"),
                ));
            }
        }
        out
    }
}

/// The shaded cells of each column and of each row of `g`: a generator's complete counts.
pub fn line_counts(g: &Grid<bool>) -> (Vec<Option<u32>>, Vec<Option<u32>>) {
    let shape = g.shape();
    let count = |cells: &mut dyn Iterator<Item = CellId>| Some(cells.filter(|&c| g[c]).count() as u32);
    let columns = (0..shape.width).map(|k| count(&mut (0..shape.height).map(|r| shape.id(r, k))));
    let rows = (0..shape.height).map(|r| count(&mut (0..shape.width).map(|k| shape.id(r, k))));
    (columns.collect(), rows.collect())
}

/// `bands`: pigeonhole reasoning between the rows (or columns) and the regions of a grid in
/// which every row, column and region holds exactly `k` shaded cells (Star Battle). For each
/// band of consecutive rows, the regions whose undecided and shaded cells all lie inside it
/// need `k` cells each there: as many regions as rows fill the band, so its other cells are
/// unshaded (more is a conflict); and the rows of a band whose cells all lie in as many
/// regions fill those regions, so the regions' cells outside the band are unshaded. Bands of
/// up to half the grid are looked at, for rows and for columns.
pub struct Bands {
    shape: Shape,
    cells: Vec<VarId>,
    /// Region of each cell, and the cells of each region.
    region: Vec<u32>,
    members: Vec<Vec<CellId>>,
}

impl Bands {
    /// The rule on `cells` (row-major on the grid of `labels`, whose connected regions are
    /// the regions); `None` with more than 128 regions.
    pub fn new(labels: &Grid<u32>, cells: Vec<VarId>) -> Option<Self> {
        let regions = crate::regions::Regions::new(labels);
        let shape = labels.shape();
        (regions.num_regions() <= 128).then(|| Bands {
            shape,
            region: shape.all().map(|c| regions.region_of(c) as u32).collect(),
            members: regions.iter().map(<[CellId]>::to_vec).collect(),
            cells,
        })
    }

    /// One direction: `line(c)` is the row (or column) of a cell, `lines` how many there are.
    /// Regions are bits of a `u128` (the rule is posted only with at most 128 regions).
    fn sweep(
        &self,
        cx: &mut crate::engine::Context,
        line: impl Fn(CellId) -> usize,
        lines: usize,
    ) -> Result<(), crate::engine::Conflict> {
        use crate::engine::{Premise, FALSE};
        // Per line, the regions with a possible cell in it; per region, the span of lines.
        let mut in_line = vec![0u128; lines];
        let mut span = vec![(usize::MAX, 0usize); self.members.len()];
        for c in self.shape.all() {
            if cx.is_false(self.cells[c.index()]) {
                continue;
            }
            let (l, r) = (line(c), self.region[c.index()] as usize);
            in_line[l] |= 1u128 << r;
            span[r] = (span[r].0.min(l), span[r].1.max(l));
        }
        if span.iter().any(|&(lo, _)| lo == usize::MAX) {
            return Err(crate::engine::Conflict); // a region without a possible cell
        }
        for lo in 0..lines {
            let mut touched = 0u128;
            for (hi, &row) in in_line.iter().enumerate().take(lines.min(lo + lines / 2)).skip(lo) {
                // A band costs a pass over the grid, and a sweep has lines² / 2 of them (a
                // tenth of a second at 100×100): the limits are polled per band.
                if cx.should_stop() {
                    return Ok(());
                }
                let n = (hi - lo + 1) as u32;
                touched |= row;
                let inside: u128 = span
                    .iter()
                    .enumerate()
                    .filter(|(_, &(a, b))| a >= lo && b <= hi)
                    .fold(0, |m, (r, _)| m | 1u128 << r);
                let (ni, nt) = (inside.count_ones(), touched.count_ones());
                if ni > n || nt < n {
                    return Err(crate::engine::Conflict);
                }
                // As many regions as lines inside the band: the band's other cells are empty.
                // As many regions as lines touching it: those regions' other cells are.
                let (fill, keep): (u128, bool) = match (ni == n, nt == n) {
                    (true, _) if touched != inside => (inside, true),
                    (_, true) => (touched, false),
                    _ => continue,
                };
                // Why, while explaining: the empty cells that make the count. Regions inside
                // the band: their cells outside it are empty; regions touching it: the band's
                // cells of every other region are empty.
                let mut why: Option<Vec<Premise>> = None;
                for c in self.shape.all() {
                    let v = self.cells[c.index()];
                    let within = (lo..=hi).contains(&line(c));
                    let of = fill >> self.region[c.index()] & 1 == 1;
                    let empty = if keep { within && !of } else { of && !within };
                    if empty && !cx.is_fixed(v) {
                        if cx.explaining() {
                            let premises = why.get_or_insert_with(|| {
                                self.shape
                                    .all()
                                    .filter(|&d| {
                                        let within = (lo..=hi).contains(&line(d));
                                        let of = fill >> self.region[d.index()] & 1 == 1;
                                        if keep {
                                            of && !within
                                        } else {
                                            within && !of
                                        }
                                    })
                                    .map(|d| Premise::is(self.cells[d.index()], FALSE))
                                    .collect()
                            });
                            cx.because_rule("bands", premises.clone());
                        }
                        cx.assign(v, FALSE)?;
                    }
                }
            }
        }
        Ok(())
    }
}

impl crate::engine::Propagator for Bands {
    fn name(&self) -> &'static str {
        "bands"
    }
    fn priority(&self) -> crate::engine::Priority {
        // Last in the queue, and suspended inside probes (a pass over every band).
        crate::engine::Priority::Global
    }
    fn encode(&self, _: &mut crate::encode::Encoder) -> crate::encode::Encoded {
        // A deduction from the counts.
        crate::encode::Encoded::Implied
    }
    fn init(&mut self, init: &mut crate::engine::Init) {
        for &v in &self.cells {
            init.wake_on_removal(v, crate::Domain::single(crate::engine::TRUE));
        }
    }
    fn propagate(&mut self, cx: &mut crate::engine::Context) -> Result<(), crate::engine::Conflict> {
        let shape = self.shape;
        self.sweep(cx, |c| shape.coords(c).0, shape.height)?;
        self.sweep(cx, |c| shape.coords(c).1, shape.width)
    }
}

/// The explanation entry of [`Packing`] (a genre lists it among its rules).
pub const PACKING: crate::human::RuleInfo = crate::human::RuleInfo::new(
    "packing",
    "2×2 blocks",
    2,
    "a 2×2 block holds at most one star; when a set's open cells fall into as many blocks as it still needs stars, each block holds one",
);

/// `packing`: counts with the no-touch rule (Star Battle). A 2×2 block holds at most one
/// shaded cell, since shaded cells never touch. For each counted set that needs `k` more, its
/// open cells are covered by 2×2 blocks (greedily, row by row: any cover bounds the count
/// from above). Fewer blocks than `k` is a conflict; exactly `k` means each block holds one,
/// so a block of one open cell is shaded, and a cell that touches every open cell of a block
/// is unshaded — the first thing a person looks for in Star Battle.
pub struct Packing {
    shape: Shape,
    cells: Vec<VarId>,
    /// The sets that need at least `k` (exactly or at least), cells in row-major order.
    sets: Vec<(Vec<CellId>, u32)>,
    /// Per cell, the set pass that last marked it open and not yet in a block.
    mark: Vec<u32>,
    pass: u32,
}

impl Packing {
    /// The rule over every set of `families` with a lower bound, on the cells' variables
    /// `cells` (row-major on `shape`).
    pub fn new(shape: Shape, families: &[Counts], cells: Vec<VarId>) -> Self {
        let mut sets = Vec::new();
        for (_, set, rule) in families.iter().flat_map(|f| f.sets.iter()) {
            if let SumRule::Exactly(k) | SumRule::AtLeast(k) = *rule {
                let mut set = set.clone();
                set.sort_unstable();
                sets.push((set, k));
            }
        }
        Packing {
            shape,
            cells,
            sets,
            mark: vec![0; shape.cells()],
            pass: 0,
        }
    }
}

impl crate::engine::Propagator for Packing {
    fn name(&self) -> &'static str {
        "packing"
    }
    fn priority(&self) -> crate::engine::Priority {
        crate::engine::Priority::Global
    }
    fn encode(&self, _: &mut crate::encode::Encoder) -> crate::encode::Encoded {
        // A deduction from the counts and the no-touch clauses.
        crate::encode::Encoded::Implied
    }
    fn init(&mut self, init: &mut crate::engine::Init) {
        for &v in &self.cells {
            init.wake_on_removal(v, crate::Domain::ALL);
        }
    }
    fn propagate(&mut self, cx: &mut crate::engine::Context) -> Result<(), crate::engine::Conflict> {
        use crate::engine::{Premise, FALSE, TRUE};
        let shape = self.shape;
        let touch = |a: CellId, b: CellId| {
            let ((r1, c1), (r2, c2)) = (shape.coords(a), shape.coords(b));
            r1.abs_diff(r2) <= 1 && c1.abs_diff(c2) <= 1
        };
        for (set, k) in &self.sets {
            let stars = set.iter().filter(|c| cx.is_true(self.cells[c.index()])).count() as u32;
            let Some(need) = k.checked_sub(stars).filter(|&n| n > 0) else {
                continue;
            };
            // The reason of what the packing concludes: the set's fixed cells.
            let cells = &self.cells;
            let fixed_premises = |cx: &crate::engine::Context| -> Vec<Premise> {
                let fixed = set.iter().map(|c| cells[c.index()]).filter(|&v| cx.is_fixed(v));
                fixed.map(|v| Premise::is(v, cx.value(v).unwrap_or(FALSE))).collect()
            };
            self.pass += 1;
            let pass = self.pass;
            let open: Vec<CellId> = set
                .iter()
                .copied()
                .filter(|c| !cx.is_fixed(self.cells[c.index()]))
                .collect();
            open.iter().for_each(|c| self.mark[c.index()] = pass);
            let mut blocks: Vec<smallvec::SmallVec<[CellId; 4]>> = Vec::new();
            for &x in &open {
                if self.mark[x.index()] != pass {
                    continue;
                }
                // The block with `x` in its top row covering the most open cells not yet in one.
                let (r, c) = shape.coords(x);
                let window = |c0: usize| -> smallvec::SmallVec<[CellId; 4]> {
                    [(0, 0), (0, 1), (1, 0), (1, 1)]
                        .iter()
                        .filter(|&&(dr, dc)| r + dr < shape.height && c0 + dc < shape.width)
                        .map(|&(dr, dc)| shape.id(r + dr, c0 + dc))
                        .filter(|y| self.mark[y.index()] == pass)
                        .collect()
                };
                let here = window(c);
                let block = match c.checked_sub(1).map(window) {
                    Some(left) if left.len() > here.len() => left,
                    _ => here,
                };
                block.iter().for_each(|y| self.mark[y.index()] = 0);
                blocks.push(block);
                if blocks.len() > need as usize {
                    break;
                }
            }
            if blocks.len() != need as usize {
                if blocks.len() < need as usize {
                    // The set's fixed cells leave too few blocks for the stars it needs.
                    if cx.explaining() {
                        cx.because_rule("packing", fixed_premises(cx));
                    }
                    return Err(crate::engine::Conflict);
                }
                continue;
            }
            for block in &blocks {
                let touching = crate::grid::KING.iter().filter_map(|&d| shape.step(block[0], d));
                let out: Vec<CellId> = touching
                    .filter(|y| !block.contains(y))
                    .filter(|&y| block.iter().all(|&z| touch(y, z)))
                    .collect();
                let single = (block.len() == 1).then_some(block[0]);
                for (y, value) in out.into_iter().map(|y| (y, FALSE)).chain(single.map(|y| (y, TRUE))) {
                    let v = self.cells[y.index()];
                    if cx.value(v) != Some(value) {
                        if cx.explaining() {
                            cx.because_rule("packing", fixed_premises(cx));
                        }
                        cx.assign(v, value)?;
                    }
                }
            }
        }
        Ok(())
    }
}
