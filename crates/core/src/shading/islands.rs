//! `islands`: every group of unshaded cells (an island) holds exactly one numbered cell, and
//! its number (when given: `?` is a number of unknown size) is the island's size (Nurikabe and
//! its relatives). From scratch at each run, on the groups of cells known to be unshaded:
//!
//! | technique | what it concludes |
//! |---|---|
//! | `island-too-big`, `two-numbers` | an island larger than its number, or joining two numbers, is a conflict |
//! | `island-complete` | the cells around a complete island are shaded |
//! | `between-islands` | an undecided cell next to two islands with different numbers is shaded |
//! | `unreachable` | an undecided cell no numbered island can reach within its size is shaded (an unnumbered island no number can reach is a conflict) |
//! | `island-grows` | an island that must grow (too small, or without a number) with one way out takes it |

use crate::domain::Domain;
use crate::encode::{Cmp, Encoded, Encoder, Lit};
use crate::engine::{Conflict, Context, Init, Premise, Priority, Propagator, VarId, FALSE, TRUE};
use crate::grid::{CellId, Shape, ORTHOGONAL};
use std::collections::VecDeque;
use std::sync::Arc;

/// A numbered cell: where, and the island's size (`None`: `?`).
pub type Number = (CellId, Option<u32>);

/// The islands constraint (see the module docs) over the cells' variables ([`TRUE`] =
/// shaded).
pub struct Islands {
    shape: Shape,
    cells: Vec<VarId>,
    numbers: Vec<Number>,
    /// Per cell, the index of its number (`u32::MAX`: none).
    number_at: Vec<u32>,
    // Scratch.
    group: Vec<u32>,
    reach: Vec<bool>,
    dist: Vec<u32>,
}

const NONE: u32 = u32::MAX;
/// A group with two numbers.
const MANY: u32 = u32::MAX - 1;

impl Islands {
    /// The constraint over `cells` (row-major on `shape`) with these numbered cells.
    pub fn new(shape: Shape, cells: Vec<VarId>, numbers: Vec<Number>) -> Self {
        let mut number_at = vec![NONE; cells.len()];
        for (k, &(c, _)) in numbers.iter().enumerate() {
            number_at[c.index()] = k as u32;
        }
        Islands {
            shape,
            number_at,
            group: vec![NONE; cells.len()],
            reach: vec![false; cells.len()],
            dist: vec![u32::MAX; cells.len()],
            cells,
            numbers,
        }
    }

    /// An island's cells (unshaded) and the shaded cells around it.
    fn island_and_border(&self, cx: &Context, island: &[CellId]) -> Vec<Premise> {
        let mut ps: Vec<Premise> = island
            .iter()
            .map(|c| Premise::is(self.cells[c.index()], FALSE))
            .collect();
        for &c in island {
            for n in self.shape.orth(c) {
                let v = self.cells[n.index()];
                if cx.is_true(v) && !ps.iter().any(|p| p.var == v) {
                    ps.push(Premise::is(v, TRUE));
                }
            }
        }
        ps
    }

    fn neighbours(&self, c: CellId) -> impl Iterator<Item = CellId> + '_ {
        ORTHOGONAL.iter().filter_map(move |&d| self.shape.step(c, d))
    }
}

/// The island groups of a state: cells known unshaded, their groups, each group's number.
struct Groups {
    cells: Vec<Vec<CellId>>,
    number: Vec<u32>,
}

impl Islands {
    /// Groups the known-unshaded cells; `Err` when a group joins two numbers or outgrows its
    /// number, with the technique and the group's cells (the contradiction's reason).
    fn groups(&mut self, cx: &Context) -> Result<Groups, (&'static str, Vec<CellId>)> {
        self.group.fill(NONE);
        let mut g = Groups {
            cells: Vec::new(),
            number: Vec::new(),
        };
        for s in self.shape.all() {
            if self.group[s.index()] != NONE || !cx.is_false(self.cells[s.index()]) {
                continue;
            }
            let id = g.cells.len() as u32;
            self.group[s.index()] = id;
            let mut members = vec![s];
            let mut number = NONE;
            let mut k = 0;
            while k < members.len() {
                let c = members[k];
                k += 1;
                let at = self.number_at[c.index()];
                if at != NONE {
                    number = if number == NONE { at } else { MANY };
                }
                for n in ORTHOGONAL.iter().filter_map(|&d| self.shape.step(c, d)) {
                    if self.group[n.index()] == NONE && cx.is_false(self.cells[n.index()]) {
                        self.group[n.index()] = id;
                        members.push(n);
                    }
                }
            }
            if number == MANY {
                return Err(("two-numbers", members));
            }
            if number != NONE {
                if let Some(size) = self.numbers[number as usize].1 {
                    if members.len() as u32 > size {
                        return Err(("island-too-big", members));
                    }
                }
            }
            g.cells.push(members);
            g.number.push(number);
        }
        Ok(g)
    }

    /// The size a group's island still may grow by (`u32::MAX` for `?`; `None` for a group
    /// without a number).
    fn room(&self, g: &Groups, k: usize) -> Option<u32> {
        let n = g.number[k];
        (n != NONE).then(|| {
            self.numbers[n as usize]
                .1
                .map_or(u32::MAX, |s| s - g.cells[k].len() as u32)
        })
    }

    /// Marks in `reach` every cell a numbered group can still take, by breadth-first search
    /// within its room, through cells that are not shaded and touch no other numbered group.
    /// With `walls`, collects the shaded cells that stopped a search (with the numbered
    /// groups' cells, the reason of what is not reached).
    fn mark_reach(&mut self, cx: &Context, g: &Groups, mut walls: Option<&mut Vec<CellId>>) {
        let shape = self.shape;
        self.reach.fill(false);
        let mut touched: Vec<CellId> = Vec::new();
        let mut queue: VecDeque<CellId> = VecDeque::new();
        for k in 0..g.cells.len() {
            let Some(room) = self.room(g, k) else {
                continue;
            };
            let me = g.number[k];
            for &c in &g.cells[k] {
                self.reach[c.index()] = true;
            }
            queue.extend(g.cells[k].iter().copied());
            for &c in &g.cells[k] {
                self.dist[c.index()] = 0;
                touched.push(c);
            }
            while let Some(c) = queue.pop_front() {
                let d = self.dist[c.index()];
                if d >= room {
                    continue;
                }
                for n in shape.orth(c) {
                    let i = n.index();
                    if self.dist[i] != u32::MAX {
                        continue;
                    }
                    if cx.is_true(self.cells[i]) {
                        if let Some(w) = walls.as_deref_mut() {
                            w.push(n);
                        }
                        continue;
                    }
                    // A cell of (or next to) another numbered island cannot join this one.
                    let other = |x: CellId| {
                        let gx = self.group[x.index()];
                        gx != NONE && g.number[gx as usize] != NONE && g.number[gx as usize] != me
                    };
                    if other(n) || shape.orth(n).any(other) {
                        continue;
                    }
                    self.dist[i] = d + 1;
                    touched.push(n);
                    self.reach[i] = true;
                    queue.push_back(n);
                }
            }
            for c in touched.drain(..) {
                self.dist[c.index()] = u32::MAX;
            }
        }
    }
}

impl Propagator for Islands {
    fn name(&self) -> &'static str {
        "islands"
    }
    fn priority(&self) -> Priority {
        Priority::Costly
    }
    fn init(&mut self, init: &mut Init) {
        for &v in &self.cells {
            init.wake_on_removal(v, Domain(0b11));
        }
    }
    fn encode(&self, enc: &mut Encoder) -> Encoded {
        let lits: Vec<Option<Lit>> = self.cells.iter().map(|&v| enc.is(v, TRUE)).collect();
        if enc.lazy_allowed() {
            if let Some(shaded) = lits.iter().copied().collect::<Option<Vec<Lit>>>() {
                enc.lazy(Arc::new(IslandCuts {
                    shape: self.shape,
                    shaded,
                    numbers: self.numbers.clone(),
                }));
                return Encoded::Posted;
            }
        }
        encode_islands(self.shape, &lits, &self.numbers, enc);
        Encoded::Posted
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        let explaining = cx.explaining();
        let premises = |cells: &[CellId], vars: &[VarId]| -> Vec<Premise> {
            cells.iter().map(|c| Premise::is(vars[c.index()], FALSE)).collect()
        };
        let g = match self.groups(cx) {
            Ok(g) => g,
            Err((technique, members)) => {
                if explaining {
                    cx.because_rule(technique, premises(&members, &self.cells));
                }
                return Err(Conflict);
            }
        };
        // Complete islands are closed.
        for k in 0..g.cells.len() {
            if self.room(&g, k) != Some(0) {
                continue;
            }
            for &c in &g.cells[k] {
                for n in self.shape.orth(c) {
                    let v = self.cells[n.index()];
                    if !cx.is_fixed(v) {
                        if explaining {
                            cx.because_rule("island-complete", premises(&g.cells[k], &self.cells));
                        }
                        cx.assign(v, TRUE)?;
                    }
                }
            }
        }
        // A cell between two numbered islands.
        for c in self.shape.all() {
            let v = self.cells[c.index()];
            if cx.is_fixed(v) {
                continue;
            }
            let mut seen = NONE;
            let mut clash = None;
            for n in self.neighbours(c) {
                let gn = self.group[n.index()];
                if gn == NONE || g.number[gn as usize] == NONE {
                    continue;
                }
                let num = g.number[gn as usize];
                if seen != NONE && seen != num {
                    clash = Some(n);
                }
                seen = num;
            }
            if let Some(n) = clash {
                if explaining {
                    // The two islands whole: each joins its neighbour to its number.
                    let a = self
                        .neighbours(c)
                        .find(|x| {
                            let ga = self.group[x.index()];
                            ga != NONE && g.number[ga as usize] != NONE && g.number[ga as usize] != seen
                        })
                        .unwrap_or(n);
                    let mut both = premises(&g.cells[self.group[a.index()] as usize], &self.cells);
                    both.extend(premises(&g.cells[self.group[n.index()] as usize], &self.cells));
                    cx.because_rule("between-islands", both);
                }
                cx.assign(v, TRUE)?;
            }
        }
        // Cells no numbered island can reach (a harder technique: an explainer may hold it
        // back, see `Context::allows`).
        let mut walls = Vec::new();
        self.mark_reach(cx, &g, explaining.then_some(&mut walls));
        // What is not reached rests on the numbered islands (their cells set their rooms and
        // the cells next to them that others cannot take) and the shaded cells that stopped
        // the searches: in any position with those facts, an island that takes a cell has a
        // path to it of new cells, so it is still out of reach.
        let mut reason: Option<Vec<Premise>> = None;
        let mut reach_reason = |g: &Groups, walls: &mut Vec<CellId>| -> Vec<Premise> {
            reason
                .get_or_insert_with(|| {
                    let mut ps = Vec::new();
                    for k in 0..g.cells.len() {
                        if g.number[k] != NONE {
                            ps.extend(premises(&g.cells[k], &self.cells));
                        }
                    }
                    walls.sort_unstable();
                    walls.dedup();
                    ps.extend(walls.iter().map(|c| Premise::is(self.cells[c.index()], TRUE)));
                    ps
                })
                .clone()
        };
        let unreachable = cx.allows("unreachable");
        for c in self.shape.all() {
            let v = self.cells[c.index()];
            if self.reach[c.index()] || cx.is_true(v) {
                continue;
            }
            if cx.is_false(v) {
                // An island no number can reach.
                if explaining {
                    let mut ps = reach_reason(&g, &mut walls);
                    ps.push(Premise::is(v, FALSE));
                    cx.because_rule("unreachable", ps);
                }
                return Err(Conflict);
            }
            if !unreachable {
                continue;
            }
            if explaining {
                cx.because_rule("unreachable", reach_reason(&g, &mut walls));
            }
            cx.assign(v, TRUE)?;
        }
        // Islands that must grow, with one way out. A cell made island joins the groups
        // around it, so a group next to a cell changed in this run is stale (its ways out are
        // those of the joined group): it is left to the next run (the change wakes this rule).
        let mut changed: Vec<CellId> = Vec::new();
        let mut exits: Vec<CellId> = Vec::new();
        for k in 0..g.cells.len() {
            if self.room(&g, k) == Some(0) {
                continue;
            }
            exits.clear();
            for &c in &g.cells[k] {
                for n in self.shape.orth(c) {
                    if !cx.is_fixed(self.cells[n.index()]) && !exits.contains(&n) {
                        exits.push(n);
                        if exits.len() > 1 {
                            break; // two ways out: nothing to conclude
                        }
                    }
                }
                if exits.len() > 1 {
                    break;
                }
            }
            // `changed` cells are fixed now, so never among the exits; a group next to one is
            // stale.
            let stale = !changed.is_empty()
                && g.cells[k]
                    .iter()
                    .any(|&c| self.shape.orth(c).any(|n| changed.contains(&n)));
            if stale {
                continue;
            }
            match exits.as_slice() {
                // Nowhere to grow: wrong unless it is a `?` island that may be complete.
                [] if g.number[k] == NONE || self.room(&g, k) != Some(u32::MAX) => {
                    if explaining {
                        // The island, and the shaded cells around it that leave no way out.
                        let ps = self.island_and_border(cx, &g.cells[k]);
                        cx.because_rule("island-grows", ps);
                    }
                    return Err(Conflict);
                }
                [] => {}
                [x] if self.room(&g, k) != Some(u32::MAX) => {
                    if explaining {
                        // The island, and the shaded cells around it that leave one way out.
                        let ps = self.island_and_border(cx, &g.cells[k]);
                        cx.because_rule("island-grows", ps);
                    }
                    cx.assign(self.cells[x.index()], FALSE)?;
                    changed.push(*x);
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// The islands, checked on each model of the SAT search: a group of unshaded cells with two
/// numbers, or larger than its number, cannot be all unshaded; one without a number, or
/// smaller than its number, must grow (a cell of it shaded, or a cell around it unshaded).
struct IslandCuts {
    shape: Shape,
    shaded: Vec<Lit>,
    numbers: Vec<Number>,
}

impl crate::encode::LazyCheck for IslandCuts {
    fn cuts(&self, truth: &dyn Fn(Lit) -> bool) -> Vec<Vec<Lit>> {
        let wall: Vec<bool> = self.shaded.iter().map(|&l| truth(l)).collect();
        let mut cuts = Vec::new();
        for group in super::connect::groups(self.shape, |c| !wall[c.index()]) {
            let nums: Vec<&Number> = self.numbers.iter().filter(|(c, _)| group.contains(c)).collect();
            let some_shaded: Vec<Lit> = group.iter().map(|c| self.shaded[c.index()]).collect();
            let grow = || {
                let mut cut = some_shaded.clone();
                for &c in &group {
                    for n in ORTHOGONAL.iter().filter_map(|&d| self.shape.step(c, d)) {
                        if wall[n.index()] {
                            cut.push(!self.shaded[n.index()]);
                        }
                    }
                }
                cut
            };
            match nums.as_slice() {
                [] => cuts.push(grow()),
                [(_, Some(size))] if group.len() < *size as usize => cuts.push(grow()),
                [(_, Some(size))] if group.len() > *size as usize => cuts.push(some_shaded),
                [_] => {}
                _ => cuts.push(some_shaded),
            }
        }
        cuts
    }
}

/// The islands, statically (for export): each unshaded cell belongs to exactly one number's
/// island (a literal per number within reach), neighbouring unshaded cells belong to the
/// same, each island has its number's size, and every unshaded cell but a numbered one has an
/// unshaded neighbour of smaller rank (so every island reaches a number).
pub fn encode_islands(shape: Shape, shaded: &[Option<Lit>], numbers: &[Number], enc: &mut Encoder) {
    let n = shape.cells();
    // A cell that cannot be shaded is unshaded: a literal fixed true stands for it.
    let yes = enc.new_lit("true");
    enc.clause(vec![yes]);
    let unshaded = |c: CellId| -> Lit { shaded[c.index()].map_or(yes, |l| !l) };
    // Reach of each number: cells within its size − 1 steps (every cell for `?`).
    let mut label: Vec<Vec<(usize, Lit)>> = vec![Vec::new(); n];
    for (k, &(s, size)) in numbers.iter().enumerate() {
        let limit = size.map_or(usize::MAX, |v| v.saturating_sub(1) as usize);
        let mut members = Vec::new();
        for c in shape.all() {
            let (r, q) = shape.coords(c);
            let (rs, qs) = shape.coords(s);
            if r.abs_diff(rs) + q.abs_diff(qs) <= limit {
                let a = enc.new_lit(format!("island {} of {}", shape.name(c), shape.name(s)));
                label[c.index()].push((k, a));
                members.push((a, 1));
            }
        }
        if let Some(size) = size {
            enc.linear(members, Cmp::Eq, i64::from(size));
        }
    }
    for c in shape.all() {
        // Unshaded ⇔ exactly one label.
        let mut terms: Vec<(Lit, i64)> = label[c.index()].iter().map(|&(_, a)| (a, 1)).collect();
        terms.push((unshaded(c), -1));
        enc.linear(terms, Cmp::Eq, 0);
    }
    for (k, &(s, _)) in numbers.iter().enumerate() {
        match label[s.index()].iter().find(|&&(j, _)| j == k) {
            Some(&(_, a)) => enc.clause(vec![a]),
            None => enc.clause(Vec::new()),
        }
    }
    // Neighbours that are both unshaded share their label.
    for c in shape.all() {
        for d in [(0, 1), (1, 0)] {
            let Some(o) = shape.step(c, d) else { continue };
            let (uc, uo) = (unshaded(c), unshaded(o));
            for &(k, a) in &label[c.index()] {
                let other = label[o.index()].iter().find(|&&(j, _)| j == k).map(|&(_, b)| b);
                let mut cl = vec![!uc, !uo, !a];
                cl.extend(other);
                enc.clause(cl);
            }
            for &(k, b) in &label[o.index()] {
                let other = label[c.index()].iter().find(|&&(j, _)| j == k).map(|&(_, a)| a);
                let mut cl = vec![!uc, !uo, !b];
                cl.extend(other);
                enc.clause(cl);
            }
        }
    }
    // Ranks: every unshaded unnumbered cell has an unshaded neighbour of smaller rank.
    let bits = (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1) as usize;
    let rank: Vec<Vec<Lit>> = shape
        .all()
        .map(|c| {
            (0..bits)
                .map(|i| enc.new_lit(format!("island rank {} bit{i}", shape.name(c))))
                .collect()
        })
        .collect();
    let numbered: Vec<bool> = shape.all().map(|c| numbers.iter().any(|&(s, _)| s == c)).collect();
    for c in shape.all() {
        if numbered[c.index()] {
            continue;
        }
        let uc = unshaded(c);
        let mut clause = vec![!uc];
        for o in ORTHOGONAL.iter().filter_map(|&d| shape.step(c, d)) {
            let uo = unshaded(o);
            let t = enc.new_lit(format!("island via {}>{}", shape.name(o), shape.name(c)));
            enc.clause(vec![!t, uo]);
            enc.less(t, rank[o.index()].clone(), rank[c.index()].clone());
            clause.push(t);
        }
        enc.clause(clause);
    }
}
