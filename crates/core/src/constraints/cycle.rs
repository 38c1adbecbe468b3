//! One closed loop on the links between adjacent cells (Masyu, Slitherlink's dual, Country
//! Road): every visited cell has exactly two loop links, every other cell none, and the used
//! links form a single cycle.
//!
//! | rule | priority | what it enforces (and deduces) |
//! |---|---|---|
//! | `degree` | immediate | as for a path ([`super::SinglePath`]), every cell taking two links |
//! | `chains` | linear | the used links form chains; a chain may close only into the whole loop (when no visited cell lies off it), and then every other cell is unvisited (logged as `finish`); with `loops` on, the link that would close a chain while a visited cell lies off it is closed in advance (logged as `loops`) |
//! | `connect` | global | a cycle lies inside one block (biconnected component) of the graph of open cells and links, so every visited cell must share one block with the others; the cells and links outside that block are closed (a bridge never carries a loop) |
//!
//! The crossing parity of cuts (even for a loop) is a [`super::BoolSum`] the genre adds
//! ([`crate::lines::LineModel::cut_parities`]).

use super::path::Degree;
use crate::domain::Domain;
use crate::encode::{Cmp, Encoded, Encoder, Lit};
use crate::engine::{Conflict, Context, Engine, Init, IntId, Ints, Premise, Priority, Propagator, FALSE, TRUE};
use crate::grid::CellId;
use crate::links::{LinkId, Links};
use crate::reach::Flood;
use std::sync::Arc;

use super::PathVars;

/// Grid-sized loops poll the engine's limits once per this many cells.
const POLL_CELLS: u32 = 1024;

/// Which optional loop rules run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopRules {
    /// Close the link that would close a chain too early.
    pub loops: bool,
    /// Block reachability.
    pub connect: bool,
}

/// A single closed loop on `vars` (see the module docs).
#[derive(Clone, Debug)]
pub struct SingleLoop {
    /// The variables.
    pub vars: PathVars,
}

impl SingleLoop {
    /// Posts `degree`, `chains` and (when asked) `connect`. The grid-sized setup polls the
    /// engine's limits: once they stop it, the rest is not posted and the engine stays
    /// interrupted for good.
    pub fn post(&self, engine: &mut Engine, rules: LoopRules) {
        if engine.check_limits_posting() {
            return;
        }
        let Some(degree) = Degree::new(self.vars.clone(), |_| 2, engine) else {
            return;
        };
        engine.post(degree);
        if engine.check_limits_posting() {
            return;
        }
        engine.post(LoopChains {
            vars: self.vars.clone(),
            loops: rules.loops,
            end: Vec::new(),
            used: IntId(0),
            visited: IntId(0),
            pending: Vec::new(),
            rescan: false,
        });
        // A loop visits at least one cell (the empty drawing is no loop).
        engine.post(super::BoolSum::new(
            "chains",
            self.vars.cell.clone(),
            super::SumRule::AtLeast(1),
        ));
        if rules.connect && !engine.check_limits_posting() {
            if let Some(flood) = Flood::new_until(self.vars.shape(), || engine.should_stop_posting()) {
                engine.post(LoopConnect {
                    vars: self.vars.clone(),
                    flood,
                    mark: Vec::new(),
                    stamp: 0,
                });
            }
        }
    }
}

/// `chains` of a loop: chain ends in trailed integers, the counts of used links and visited
/// cells.
struct LoopChains {
    vars: PathVars,
    loops: bool,
    end: Vec<IntId>,
    used: IntId,
    visited: IntId,
    pending: Vec<LinkId>,
    /// A cell became visited off the only chain: every chain's closing link is premature.
    rescan: bool,
}

impl LoopChains {
    #[inline]
    fn end(&self, cx: &Context, c: CellId) -> CellId {
        CellId(cx.int(self.end[c.index()]) as u32)
    }

    /// The cells of the chain or cycle through `from` following used links (from a chain end:
    /// the whole chain; on a cycle: the whole cycle).
    fn walk(&self, cx: &Context, from: CellId) -> Vec<CellId> {
        let mut path = vec![from];
        let (mut prev, mut cur) = (None, from);
        loop {
            let next = self
                .vars
                .links
                .at(cur)
                .iter()
                .filter(|&&l| cx.is_true(self.vars.link[l as usize]))
                .map(|&l| self.vars.links.other(l, cur))
                .find(|&c| Some(c) != prev);
            match next {
                Some(n) if n != from && path.len() <= self.vars.cell.len() => {
                    path.push(n);
                    (prev, cur) = (Some(cur), n);
                }
                _ => return path,
            }
        }
    }

    fn premises(&self, cx: &Context, from: CellId) -> Vec<Premise> {
        let cells = self.walk(cx, from);
        let mut out: Vec<Premise> = cells
            .windows(2)
            .filter_map(|w| self.vars.links.between(w[0], w[1]))
            .map(|l| Premise::is(self.vars.link[l as usize], TRUE))
            .collect();
        if let (Some(&a), Some(&b)) = (cells.first(), cells.last()) {
            if let Some(l) = self.vars.links.between(a, b) {
                if cells.len() > 2 && cx.is_true(self.vars.link[l as usize]) {
                    out.push(Premise::is(self.vars.link[l as usize], TRUE));
                }
            }
        }
        out
    }

    /// A cycle closed: it must be the whole loop (no visited cell off it); then every other
    /// cell is unvisited.
    fn closed(&mut self, cx: &mut Context, on: CellId) -> Result<(), Conflict> {
        // Every visited cell must lie on the cycle (another cycle, chain or lone visited cell
        // would be left out).
        if cx.int(self.visited) != self.walk(cx, on).len() as i64 {
            if cx.explaining() {
                // The closed cycle, and a visited cell off it.
                if let Some(off) = self.vars.visited_off(cx, &self.walk(cx, on)) {
                    let mut premises = self.premises(cx, on);
                    premises.push(off);
                    cx.because_rule("finish", premises);
                }
            }
            return Err(Conflict);
        }
        if cx.explaining() {
            cx.because_rule("finish", self.premises(cx, on));
        }
        for &x in &self.vars.cell {
            if !cx.is_fixed(x) {
                cx.set(x, false)?;
            }
        }
        Ok(())
    }

    /// The chain with ends `e1`, `e2` was formed: with `loops`, the link between its ends is
    /// closed when a visited cell lies off the chain (closing it would leave that cell out).
    fn joined(&mut self, cx: &mut Context, e1: CellId, e2: CellId) -> Result<(), Conflict> {
        if !self.loops || cx.int(self.visited) <= cx.int(self.used) + 1 {
            return Ok(());
        }
        if let Some(closing) = self.vars.links.between(e1, e2) {
            let v = self.vars.link[closing as usize];
            if !cx.is_fixed(v) {
                if cx.explaining() {
                    let mut premises = self.premises(cx, e1);
                    // A visited cell off the chain.
                    premises.extend(self.vars.visited_off(cx, &self.walk(cx, e1)));
                    cx.because_rule("loops", premises);
                }
                cx.set(v, false)?;
            }
        }
        Ok(())
    }

    fn join(&mut self, cx: &mut Context, l: LinkId) -> Result<(), Conflict> {
        let (p, q) = self.vars.links.ends(l);
        let (ea, eb) = (self.end(cx, p), self.end(cx, q));
        if ea == q {
            return self.closed(cx, p);
        }
        cx.set_int(self.end[ea.index()], eb.0 as i64);
        cx.set_int(self.end[eb.index()], ea.0 as i64);
        self.joined(cx, ea, eb)
    }

    fn used_at(&self, cx: &Context, c: CellId) -> u32 {
        self.vars
            .links
            .at(c)
            .iter()
            .filter(|&&l| cx.is_true(self.vars.link[l as usize]))
            .count() as u32
    }
}

/// No detached cycle, checked on each model of the SAT search: with the degree rows, the used
/// links form cycles; when there are several, each gets the cut "this cycle complete rules
/// out a visited cell of another".
struct SubCycles {
    links: Arc<Links>,
    link_lits: Vec<Lit>,
    cell_lits: Vec<Option<Lit>>,
}

impl crate::encode::LazyCheck for SubCycles {
    fn cuts(&self, truth: &dyn Fn(Lit) -> bool) -> Vec<Vec<Lit>> {
        let used: Vec<bool> = self.link_lits.iter().map(|&l| truth(l)).collect();
        let n = self.links.shape().cells();
        let mut seen = vec![false; n];
        let mut cycles: Vec<(Vec<LinkId>, CellId)> = Vec::new();
        for c in self.links.shape().all() {
            if seen[c.index()] || !self.links.at(c).iter().any(|&l| used[l as usize]) {
                continue;
            }
            let (mut stack, mut links) = (vec![c], Vec::new());
            seen[c.index()] = true;
            while let Some(u) = stack.pop() {
                for &l in self.links.at(u) {
                    if used[l as usize] {
                        let o = self.links.other(l, u);
                        if !seen[o.index()] {
                            seen[o.index()] = true;
                            stack.push(o);
                        }
                        if u.0 < o.0 {
                            links.push(l);
                        }
                    }
                }
            }
            cycles.push((links, c));
        }
        if cycles.len() < 2 {
            return Vec::new();
        }
        let mut cuts = Vec::new();
        for (k, (links, _)) in cycles.iter().enumerate() {
            let other = cycles[(k + 1) % cycles.len()].1;
            let mut cut: Vec<Lit> = links.iter().map(|&l| !self.link_lits[l as usize]).collect();
            if let Some(x) = self.cell_lits[other.index()] {
                cut.push(!x);
            }
            cuts.push(cut);
        }
        cuts
    }
}

/// One loop, statically (for export): each used link is oriented one way, every visited cell
/// has one arc in and one out, exactly one visited cell is the root, and ranks (binary numbers)
/// grow along every arc except the arcs into the root (Miller–Tucker–Zemlin): a second cycle,
/// without the root, would need ranks growing all the way round.
fn encode_one_cycle(vars: &PathVars, enc: &mut Encoder) {
    let shape = vars.shape();
    let n = shape.cells();
    let bits = (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1) as usize;
    let cell: Vec<Option<Lit>> = vars.cell.iter().map(|&x| enc.is(x, TRUE)).collect();
    let rank: Vec<Vec<Lit>> = shape
        .all()
        .map(|c| {
            (0..bits)
                .map(|i| enc.new_lit(format!("rank {} bit{i}", shape.name(c))))
                .collect()
        })
        .collect();
    let root: Vec<Option<Lit>> = shape
        .all()
        .map(|c| {
            cell[c.index()].map(|x| {
                let r = enc.new_lit(format!("root {}", shape.name(c)));
                enc.clause(vec![!r, x]);
                r
            })
        })
        .collect();
    enc.linear(root.iter().flatten().map(|&r| (r, 1)).collect(), Cmp::Eq, 1);
    let mut into: Vec<Vec<(Lit, i64)>> = vec![Vec::new(); n];
    let mut out: Vec<Vec<(Lit, i64)>> = vec![Vec::new(); n];
    for l in 0..vars.links.len() {
        let Some(used) = enc.is(vars.link[l], TRUE) else {
            continue;
        };
        let (u, v) = vars.links.ends(l as LinkId);
        for (a, b) in [(u, v), (v, u)] {
            let arc = enc.new_lit(format!("arc {}>{}", shape.name(a), shape.name(b)));
            enc.clause(vec![!arc, used]);
            into[b.index()].push((arc, 1));
            out[a.index()].push((arc, 1));
            // arc ∧ ¬root(b) → rank(a) < rank(b).
            let grow = enc.new_lit(format!("grow {}>{}", shape.name(a), shape.name(b)));
            let mut clause = vec![!arc, grow];
            if let Some(r) = root[b.index()] {
                clause.push(r);
            }
            enc.clause(clause);
            enc.less(grow, rank[a.index()].clone(), rank[b.index()].clone());
        }
        // One direction per used link.
        let (f, b) = (out[u.index()].last().map(|t| t.0), out[v.index()].last().map(|t| t.0));
        if let (Some(f), Some(b)) = (f, b) {
            enc.linear(vec![(f, 1), (b, 1), (used, -1)], Cmp::Eq, 0);
        }
    }
    for c in shape.all() {
        for arcs in [
            std::mem::take(&mut into[c.index()]),
            std::mem::take(&mut out[c.index()]),
        ] {
            let mut terms = arcs;
            if let Some(x) = cell[c.index()] {
                terms.push((x, -1));
            }
            enc.linear(terms, Cmp::Eq, 0);
        }
    }
}

impl Propagator for LoopChains {
    fn name(&self) -> &'static str {
        "chains"
    }
    fn encode(&self, enc: &mut Encoder) -> Encoded {
        if enc.lazy_allowed() {
            let links: Option<Vec<Lit>> = self.vars.link.iter().map(|&v| enc.is(v, TRUE)).collect();
            if let Some(link_lits) = links {
                let cell_lits = self.vars.cell.iter().map(|&x| enc.is(x, TRUE)).collect();
                enc.lazy(Arc::new(SubCycles {
                    links: self.vars.links.clone(),
                    link_lits,
                    cell_lits,
                }));
                return Encoded::Posted;
            }
        }
        encode_one_cycle(&self.vars, enc);
        Encoded::Posted
    }
    fn init(&mut self, init: &mut Init) {
        let n = self.vars.cell.len();
        self.end = Vec::with_capacity(n);
        for c in 0..n {
            if c as u32 % POLL_CELLS == 0 && init.should_stop() {
                return;
            }
            self.end.push(init.int(c as i64));
        }
        let count = |init: &Init, vars: &[crate::engine::VarId]| {
            vars.iter().filter(|&&v| init.dom(v) == Domain::single(TRUE)).count() as i64
        };
        self.used = init.int(count(init, &self.vars.link));
        self.visited = init.int(count(init, &self.vars.cell));
        self.pending.reserve(self.vars.link.len());
        let nl = self.vars.link.len() as u32;
        for (l, &v) in self.vars.link.iter().enumerate() {
            init.watch_removal(v, l as u32, Domain::single(FALSE));
        }
        for (c, &v) in self.vars.cell.iter().enumerate() {
            init.watch_removal(v, nl + c as u32, Domain::single(FALSE));
        }
    }
    #[inline]
    fn notify(&mut self, ints: &mut Ints, tag: u32, old: Domain, new: Domain) -> bool {
        if old.is_single() || new != Domain::single(TRUE) {
            return false;
        }
        if tag >= self.vars.link.len() as u32 {
            // A newly visited cell makes the closing links of chains premature when it is the
            // first cell off the only chain (visited − used counts the chains and lone cells).
            let visited = ints.add(self.visited, 1);
            if self.loops && visited - ints.get(self.used) == 2 {
                self.rescan = true;
                return true;
            }
            return false;
        }
        ints.add(self.used, 1);
        self.pending.push(tag);
        true
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        self.pending.clear();
        self.rescan = false;
        let n = self.vars.cell.len();
        for c in 0..n {
            if c as u32 % POLL_CELLS == 0 && cx.should_stop() {
                return Ok(());
            }
            cx.set_int(self.end[c], c as i64);
            if self.used_at(cx, CellId::from_index(c)) > 2 {
                return Err(Conflict);
            }
        }
        let count = |vars: &[crate::engine::VarId]| vars.iter().filter(|&&v| cx.is_true(v)).count() as i64;
        let (used, visited) = (count(&self.vars.link), count(&self.vars.cell));
        cx.set_int(self.used, used);
        cx.set_int(self.visited, visited);
        let mut seen = vec![false; n];
        let mut chains = Vec::new();
        for c in 0..n {
            if c as u32 % POLL_CELLS == 0 && cx.should_stop() {
                return Ok(());
            }
            let cell = CellId::from_index(c);
            if seen[c] || self.used_at(cx, cell) != 1 {
                continue;
            }
            let chain = self.walk(cx, cell);
            for x in &chain {
                seen[x.index()] = true;
            }
            let e = *chain.last().unwrap_or(&cell);
            cx.set_int(self.end[c], e.0 as i64);
            cx.set_int(self.end[e.index()], c as i64);
            chains.push((cell, e));
        }
        // Used links off every chain lie on cycles.
        let mut cycle = None;
        for c in 0..n {
            let cell = CellId::from_index(c);
            if !seen[c] && self.used_at(cx, cell) == 2 {
                if cycle.is_some() {
                    return Err(Conflict); // two cycles
                }
                for x in self.walk(cx, cell) {
                    seen[x.index()] = true;
                }
                cycle = Some(cell);
            }
        }
        if let Some(on) = cycle {
            if !chains.is_empty() {
                return Err(Conflict);
            }
            return self.closed(cx, on);
        }
        for (e1, e2) in chains {
            self.joined(cx, e1, e2)?;
        }
        Ok(())
    }
    fn incremental(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        while let Some(l) = self.pending.pop() {
            if cx.is_true(self.vars.link[l as usize]) {
                self.join(cx, l)?;
            }
        }
        if self.rescan {
            // A cell became visited off the only chain: every chain's closing link is now
            // premature.
            return self.propagate(cx);
        }
        Ok(())
    }
    fn backtracked(&mut self) {
        self.pending.clear();
        self.rescan = false;
    }
}

/// `connect` of a loop: every visited cell in one block of the open graph.
struct LoopConnect {
    vars: PathVars,
    flood: Flood,
    /// Scratch: per cell, the stamp of the last block it was marked in.
    mark: Vec<u32>,
    stamp: u32,
}

impl LoopConnect {
    /// Marks the cells of block `b` after [`Flood::blocks`] from `root`: both ends of every
    /// tree edge in it (a cell is in the blocks of its parent edge and of its child edges).
    /// Returns the stamp the marked cells carry.
    fn mark_block(&mut self, b: u32, root: CellId) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
        for i in 0..self.vars.cell.len() {
            let w = CellId::from_index(i);
            if w == root || !self.flood.reached(w) || self.flood.block(w) != b {
                continue;
            }
            self.mark[i] = self.stamp;
            if let Some(p) = self.flood.parent(w) {
                self.mark[p.index()] = self.stamp;
            }
        }
        self.stamp
    }
}

impl Propagator for LoopConnect {
    fn name(&self) -> &'static str {
        "connect"
    }
    fn encode(&self, _: &mut Encoder) -> Encoded {
        Encoded::Implied
    }
    fn priority(&self) -> Priority {
        Priority::Global
    }
    fn init(&mut self, init: &mut Init) {
        for &v in self.vars.link.iter().chain(&self.vars.cell) {
            init.wake_on_removal(v, Domain::single(TRUE));
        }
        for &v in &self.vars.cell {
            init.wake_on_removal(v, Domain::single(FALSE));
        }
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        let Some(root) = self
            .vars
            .cell
            .iter()
            .position(|&x| cx.is_true(x))
            .map(CellId::from_index)
        else {
            return Ok(());
        };
        let (vars, mut entered, mut passed) = (&self.vars, 0u32, false);
        {
            let cxr: &Context = cx;
            self.flood.blocks(
                root,
                |c| {
                    entered = entered.wrapping_add(1);
                    if entered % POLL_CELLS == 0 && !passed {
                        passed = cxr.limits_passed();
                    }
                    !passed && !cxr.is_false(vars.cell[c.index()])
                },
                |u, w| {
                    vars.links
                        .between(u, w)
                        .is_some_and(|l| !cxr.is_false(vars.link[l as usize]))
                },
            );
        }
        if passed {
            cx.check_limits();
            return Ok(());
        }
        if self.mark.len() != self.vars.cell.len() {
            self.mark = vec![0; self.vars.cell.len()];
        }
        let visited = self.vars.cell.iter().filter(|&&x| cx.is_true(x)).count();
        // The candidate blocks are the root's (those of the tree edges to its children): the
        // loop lies in one that holds every visited cell.
        let mut candidates = [u32::MAX; 4];
        let mut k = 0;
        for &l in self.vars.links.at(root) {
            let w = self.vars.links.other(l, root);
            if self.flood.reached(w) && self.flood.parent(w) == Some(root) && !candidates.contains(&self.flood.block(w))
            {
                candidates[k] = self.flood.block(w);
                k += 1;
            }
        }
        let mut found = None;
        for &b in &candidates[..k] {
            let stamp = self.mark_block(b, root);
            let inside = (0..self.vars.cell.len())
                .filter(|&i| self.mark[i] == stamp && cx.is_true(self.vars.cell[i]))
                .count();
            if inside == visited {
                if found.is_some() {
                    return Ok(()); // a lone visited cell in two blocks: nothing to close yet
                }
                found = Some(b);
            }
        }
        let Some(block) = found else {
            return Err(Conflict);
        };
        let stamp = self.mark_block(block, root);
        if cx.explaining() {
            let premises: Vec<Premise> = self
                .vars
                .cell
                .iter()
                .filter(|&&x| cx.is_true(x))
                .map(|&x| Premise::is(x, TRUE))
                .collect();
            cx.because(premises);
        }
        for l in 0..self.vars.links.len() as LinkId {
            let v = self.vars.link[l as usize];
            if cx.is_fixed(v) {
                continue;
            }
            let (u, w) = self.vars.links.ends(l);
            let inside = self.flood.reached(u) && self.flood.reached(w) && self.flood.link_block(u, w) == block;
            if !inside {
                cx.set(v, false)?;
            }
        }
        for i in 0..self.vars.cell.len() {
            let x = self.vars.cell[i];
            if !cx.is_fixed(x) && self.mark[i] != stamp {
                cx.set(x, false)?;
            }
        }
        Ok(())
    }
}
