//! `connected`: the cells of one colour form one orthogonally connected group (Nurikabe's
//! wall, the islands of other genres), with articulation reasoning, not only a final check.
//!
//! From a cell known to have the colour, a depth-first search through the cells that may
//! have it finds (Hopcroft & Tarjan):
//! * cells it cannot reach: they cannot have the colour (a known one there is a conflict);
//! * cut cells: an undecided cell whose removal would cut known cells of the colour off the
//!   start must have the colour (every connection passes through it).

use crate::domain::Domain;
use crate::encode::{Cmp, Encoded, Encoder, Lit};
use crate::engine::{Conflict, Context, Init, Premise, Priority, Propagator, VarId, FALSE, TRUE};
use crate::grid::{CellId, Shape};
use crate::reach::Flood;
use std::sync::Arc;

/// The colour's cells connected (see the module docs); `colour` is the value ([`TRUE`] or
/// [`FALSE`]) the connected cells take.
pub struct Connected {
    shape: Shape,
    cells: Vec<VarId>,
    colour: u32,
    /// Cut cells between known parts take the colour (off: only cells out of reach are
    /// decided, and a known cell out of reach is a conflict).
    articulation: bool,
    flood: Flood,
    /// Scratch: per cell, the known cells of the colour in its depth-first subtree.
    below: Vec<u32>,
    /// Scratch, while explaining: per cell, one known cell of the colour in its subtree.
    one_below: Vec<u32>,
}

impl Connected {
    /// The cells `cells` (row-major over `shape`) that take `colour` form one group.
    pub fn new(shape: Shape, cells: Vec<VarId>, colour: u32) -> Self {
        Connected {
            shape,
            flood: Flood::new(shape),
            below: vec![0; cells.len()],
            one_below: Vec::new(),
            cells,
            colour,
            articulation: true,
        }
    }

    /// The same rule without articulation reasoning.
    pub fn without_articulation(mut self) -> Self {
        self.articulation = false;
        self
    }
}

/// The colour's cells, one group, checked on each model of the SAT search: every other group
/// of the colour gets the cut "all of it coloured, and a cell of another group coloured, means
/// a cell around it is coloured too".
struct Groups {
    shape: Shape,
    lits: Vec<Lit>,
}

impl crate::encode::LazyCheck for Groups {
    fn cuts(&self, truth: &dyn Fn(Lit) -> bool) -> Vec<Vec<Lit>> {
        let on: Vec<bool> = self.lits.iter().map(|&l| truth(l)).collect();
        let groups = groups(self.shape, |c| on[c.index()]);
        if groups.len() < 2 {
            return Vec::new();
        }
        let mut cuts = Vec::new();
        for (k, g) in groups.iter().enumerate() {
            let other = groups[(k + 1) % groups.len()][0];
            let mut cut: Vec<Lit> = g.iter().map(|c| !self.lits[c.index()]).collect();
            cut.push(!self.lits[other.index()]);
            for &c in g {
                for n in crate::grid::ORTHOGONAL.iter().filter_map(|&d| self.shape.step(c, d)) {
                    if !on[n.index()] {
                        cut.push(self.lits[n.index()]);
                    }
                }
            }
            cuts.push(cut);
        }
        cuts
    }
}

/// The orthogonally connected groups of the cells where `on` holds, each in discovery order.
pub fn groups(shape: Shape, on: impl Fn(CellId) -> bool) -> Vec<Vec<CellId>> {
    let mut seen = vec![false; shape.cells()];
    let mut out = Vec::new();
    for s in shape.all() {
        if seen[s.index()] || !on(s) {
            continue;
        }
        seen[s.index()] = true;
        let mut group = vec![s];
        let mut k = 0;
        while k < group.len() {
            let c = group[k];
            k += 1;
            for n in crate::grid::ORTHOGONAL.iter().filter_map(|&d| shape.step(c, d)) {
                if !seen[n.index()] && on(n) {
                    seen[n.index()] = true;
                    group.push(n);
                }
            }
        }
        out.push(group);
    }
    out
}

/// The cells joined to `from` through cells where `on` holds, `from` first (whatever `on`
/// says of it): a flood, for generators that edit a shading cell by cell.
pub fn flood(shape: Shape, from: CellId, on: impl Fn(CellId) -> bool) -> Vec<CellId> {
    let mut seen = vec![false; shape.cells()];
    seen[from.index()] = true;
    let mut out = vec![from];
    let mut k = 0;
    while k < out.len() {
        let c = out[k];
        k += 1;
        for n in shape.orth(c) {
            if !seen[n.index()] && on(n) {
                seen[n.index()] = true;
                out.push(n);
            }
        }
    }
    out
}

/// The eight cells around a cell, in order around it: each is orthogonally next to the one
/// before.
const RING: [(isize, isize); 8] = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)];

/// Do the connected cells where `on` holds stay connected when `c` (one of them) leaves? The
/// eight cells around `c` settle most cases: when its orthogonal neighbours among them are
/// joined around it (one run of `on` cells in the ring), yes. Otherwise a flood from one of
/// them, avoiding `c`, looks for the others. A generator's local search asks this at every
/// change; a flood of the whole grid each time made large grids quadratic.
pub fn stays_connected(shape: Shape, on: impl Fn(CellId) -> bool, c: CellId) -> bool {
    let ring = RING.map(|d| shape.step(c, d).is_some_and(&on));
    if (0..8).step_by(2).filter(|&i| ring[i]).count() <= 1 {
        return true;
    }
    // The runs of `on` around `c` that hold an orthogonal neighbour.
    let runs = match (0..8).find(|&i| !ring[i]) {
        None => 1,
        Some(start) => {
            let (mut runs, mut counted) = (0, false);
            for i in (start..start + 8).map(|i| i % 8) {
                counted &= ring[i];
                if ring[i] && i % 2 == 0 && !counted {
                    runs += 1;
                    counted = true;
                }
            }
            runs
        }
    };
    if runs == 1 {
        return true;
    }
    // The flood stops as soon as it has met every other neighbour.
    let targets: Vec<CellId> = shape.orth(c).filter(|&n| on(n)).collect();
    let mut seen = vec![false; shape.cells()];
    seen[c.index()] = true;
    seen[targets[0].index()] = true;
    let (mut queue, mut found) = (vec![targets[0]], 1);
    while let Some(x) = queue.pop() {
        for n in shape.orth(x) {
            if !seen[n.index()] && on(n) {
                seen[n.index()] = true;
                found += usize::from(targets.contains(&n));
                if found == targets.len() {
                    return true;
                }
                queue.push(n);
            }
        }
    }
    false
}

/// Would `c` close a 2×2 block of cells where `on` holds, were it one of them?
pub fn closes_2x2(shape: Shape, on: impl Fn(CellId) -> bool, c: CellId) -> bool {
    const BLOCK: [(isize, isize); 4] = [(0, 0), (0, 1), (1, 0), (1, 1)];
    BLOCK.iter().any(|&(dr, dc)| {
        shape.step(c, (-dr, -dc)).is_some_and(|corner| {
            BLOCK
                .iter()
                .all(|&d| shape.step(corner, d).is_some_and(|x| x == c || on(x)))
        })
    })
}

/// One group of the colour, statically (for export): exactly one coloured cell is the root
/// when any cell is coloured, and every other coloured cell has a coloured neighbour of
/// smaller rank (a binary number); following smaller ranks always ends at the root, so every
/// coloured cell is joined to it.
pub fn encode_one_group(shape: Shape, lits: &[Option<Lit>], enc: &mut Encoder, what: &str) {
    let n = shape.cells();
    let bits = (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1) as usize;
    let rank: Vec<Vec<Lit>> = shape
        .all()
        .map(|c| {
            (0..bits)
                .map(|i| enc.new_lit(format!("{what} rank {} bit{i}", shape.name(c))))
                .collect()
        })
        .collect();
    let root: Vec<Option<Lit>> = shape
        .all()
        .map(|c| {
            lits[c.index()].map(|x| {
                let r = enc.new_lit(format!("{what} root {}", shape.name(c)));
                enc.clause(vec![!r, x]);
                r
            })
        })
        .collect();
    enc.linear(root.iter().flatten().map(|&r| (r, 1)).collect(), Cmp::Le, 1);
    let any = enc.new_lit(format!("{what} any"));
    let mut some_root: Vec<Lit> = vec![!any];
    some_root.extend(root.iter().flatten());
    enc.clause(some_root);
    for c in shape.all() {
        let Some(x) = lits[c.index()] else {
            continue;
        };
        enc.clause(vec![!x, any]);
        let mut clause = vec![!x];
        clause.extend(root[c.index()]);
        for d in crate::grid::ORTHOGONAL.iter().filter_map(|&d| shape.step(c, d)) {
            let Some(y) = lits[d.index()] else {
                continue;
            };
            let t = enc.new_lit(format!("{what} via {}>{}", shape.name(d), shape.name(c)));
            enc.clause(vec![!t, y]);
            enc.less(t, rank[d.index()].clone(), rank[c.index()].clone());
            clause.push(t);
        }
        enc.clause(clause);
    }
}

impl Propagator for Connected {
    fn name(&self) -> &'static str {
        "connected"
    }
    fn priority(&self) -> Priority {
        Priority::Global
    }
    fn encode(&self, enc: &mut Encoder) -> Encoded {
        let lits: Vec<Option<Lit>> = self.cells.iter().map(|&v| enc.is(v, self.colour)).collect();
        if enc.lazy_allowed() {
            if let Some(lits) = lits.iter().copied().collect::<Option<Vec<Lit>>>() {
                enc.lazy(Arc::new(Groups {
                    shape: self.shape,
                    lits,
                }));
                return Encoded::Posted;
            }
        }
        encode_one_group(
            self.shape,
            &lits,
            enc,
            if self.colour == TRUE { "shaded" } else { "unshaded" },
        );
        Encoded::Posted
    }
    fn init(&mut self, init: &mut Init) {
        // Reachability changes when a cell loses the colour; the start, when one gains it.
        for &v in &self.cells {
            init.wake_on_removal(v, Domain(BOTH));
        }
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        let colour = self.colour;
        let other = TRUE + FALSE - colour;
        let Some(start) = self.cells.iter().position(|&v| cx.dom(v) == Domain::single(colour)) else {
            return Ok(());
        };
        let start = CellId::from_index(start);
        let cells = &self.cells;
        {
            let cxr: &Context = cx;
            self.flood
                .blocks(start, |c| cxr.dom(cells[c.index()]).contains(colour), |_, _| true);
        }
        // Known cells of the colour below each cell, children before parents (reverse
        // discovery order); while explaining, one of them too.
        let explaining = cx.explaining();
        const NONE: u32 = u32::MAX;
        self.below.fill(0);
        if explaining {
            self.one_below.clear();
            self.one_below.resize(cells.len(), NONE);
        }
        let order: Vec<CellId> = self.flood.cells().to_vec();
        for &c in order.iter().rev() {
            if cx.dom(cells[c.index()]) == Domain::single(colour) {
                self.below[c.index()] += 1;
                if explaining {
                    self.one_below[c.index()] = c.index() as u32;
                }
            }
            if let Some(p) = self.flood.parent(c) {
                self.below[p.index()] += self.below[c.index()];
                if explaining && self.one_below[p.index()] == NONE {
                    self.one_below[p.index()] = self.one_below[c.index()];
                }
            }
        }
        // The reason of every deduction here: the start has the colour and the cells around
        // what it can reach cannot (they fence the reachable part in; inside it, connections
        // depend only on the grid), plus, for a cut cell, a known cell it cuts off.
        let mut fence: Vec<Premise> = Vec::new();
        let mut reason = |cx: &mut Context, flood: &Flood, extra: Option<usize>| {
            if fence.is_empty() {
                let mut around: Vec<CellId> = flood
                    .cells()
                    .iter()
                    .flat_map(|&c| flood.neighbours(c).iter().copied())
                    .filter(|&n| !flood.reached(n) && cx.dom(cells[n.index()]) == Domain::single(other))
                    .collect();
                around.sort_unstable_by_key(|n| n.index());
                around.dedup();
                fence.push(Premise::is(cells[start.index()], colour));
                fence.extend(around.into_iter().map(|n| Premise::is(cells[n.index()], other)));
            }
            let mut premises = fence.clone();
            premises.extend(extra.map(|k| Premise::is(cells[k], colour)));
            cx.because(premises);
        };
        for (i, &x) in cells.iter().enumerate() {
            let c = CellId::from_index(i);
            if c == start || self.flood.reached(c) {
                continue;
            }
            let d = cx.dom(x);
            if d == Domain::single(colour) {
                if explaining {
                    // Why it fails: this known cell is fenced off the start.
                    reason(cx, &self.flood, Some(i));
                }
                return Err(Conflict);
            }
            if !d.is_single() {
                if explaining {
                    reason(cx, &self.flood, None);
                }
                cx.assign(x, other)?;
            }
        }
        // Cut cells: an undecided parent `p` of a child `w` whose subtree holds known cells of
        // the colour and hangs off `p` (low(w) ≥ discovered(p)).
        if !self.articulation {
            return Ok(());
        }
        for &w in &order {
            let Some(p) = self.flood.parent(w) else {
                continue;
            };
            let v = cells[p.index()];
            if cx.dom(v).is_single() || self.below[w.index()] == 0 {
                continue;
            }
            if self.flood.low(w) >= self.flood.discovered(p) {
                if explaining {
                    reason(cx, &self.flood, Some(self.one_below[w.index()] as usize));
                }
                cx.assign(v, colour)?;
            }
        }
        Ok(())
    }
}

/// Both Boolean values.
const BOTH: u64 = 0b11;
