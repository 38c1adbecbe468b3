//! A single simple path between two terminals, drawn on the links between adjacent cells
//! (Path puzzles; the same pieces serve Numberlink and loop puzzles).
//!
//! # Model
//! One Boolean per link ("the path uses it", [`crate::links::Links`]) and one per cell ("the
//! path visits it"). [`SinglePath::post`] adds:
//!
//! | rule | priority | what it enforces (and deduces) |
//! |---|---|---|
//! | `degree` | immediate | channelling: a visited cell has exactly two path links (a terminal one), an unvisited cell none; a cell with a used link is visited, a cell that cannot get its links is not; when a cell's open links are exactly what it still needs they are all used, when it has them the rest are closed |
//! | `chains` | linear | the used links never close a cycle (chain ends kept in trailed integers); with `loops` on, the link that would join the two ends of one chain is closed in advance (logged as `loops`); when the chain from one terminal reaches the other, every cell off it is unvisited (logged as `finish`) |
//! | `connect` | global | only cells on *some* simple path between the terminals through cells and links not closed can be visited (the blocks of the block–cut tree between them, [`crate::reach::Flood::between_links`]), and the cut cells every such path passes must be |
//!
//! Counting rules (a row visits exactly `k` cells, a cut is crossed an odd number of times)
//! are [`super::BoolSum`]s the puzzle adds on the same variables.

use super::worklist::Worklist;
use crate::domain::Domain;
use crate::encode::{Cmp, Encoded, Encoder, Lit};
use crate::engine::{Conflict, Context, Engine, Init, IntId, Ints, Premise, Priority, Propagator, VarId, FALSE, TRUE};
use crate::grid::{CellId, Shape};
use crate::links::{LinkId, Links};
use crate::reach::Flood;
use std::sync::Arc;

/// Grid-sized loops (setup, runs from scratch) poll the engine's limits once per this many
/// cells.
const POLL_CELLS: u32 = 1024;

/// The variables of a path model on a grid.
#[derive(Clone, Debug)]
pub struct PathVars {
    /// The links of the grid.
    pub links: Arc<Links>,
    /// One Boolean per link, by [`LinkId`].
    pub link: Vec<VarId>,
    /// One Boolean per cell, by cell index.
    pub cell: Vec<VarId>,
}

impl PathVars {
    /// A visited cell off `on` (a chain or cycle's cells), as the premise "it is visited": with
    /// `on`'s links, the reason why `on` cannot be (or become) the whole path or loop.
    pub(crate) fn visited_off(&self, cx: &Context, on: &[CellId]) -> Option<Premise> {
        let mut inside = vec![false; self.cell.len()];
        for c in on {
            inside[c.index()] = true;
        }
        let i = (0..self.cell.len()).find(|&i| !inside[i] && cx.is_true(self.cell[i]))?;
        Some(Premise::is(self.cell[i], TRUE))
    }

    /// Creates the variables of a `shape` grid on `engine` (links first, then cells).
    ///
    /// The building polls the engine's limits ([`Engine::should_stop_posting`]): when they
    /// stop it, the link table and the variable lists are cut short, the engine stays
    /// interrupted for good, and the variables must not be read (the model is never
    /// searched).
    pub fn new(engine: &mut Engine, shape: Shape) -> Self {
        let cut_short = || PathVars {
            links: Arc::new(Links::new(Shape::new(0, 0))),
            link: Vec::new(),
            cell: Vec::new(),
        };
        let Some(links) = Links::new_until(shape, || engine.should_stop_posting()) else {
            if engine.interrupted().is_none() {
                // Not stopped by the limits: the system refused the link tables.
                engine.refuse_memory();
            }
            return cut_short();
        };
        let links = Arc::new(links);
        // The engine's vectors for every variable, asked at once: when the system refuses
        // them the engine stops for good (`StopReason::Memory`) and so does this builder.
        if !engine.reserve(links.len() + shape.cells()) {
            return cut_short();
        }
        let mut bools = |n: usize| {
            let mut vars = Vec::new();
            if !engine.try_reserve(&mut vars, n) {
                return vars;
            }
            for _ in 0..n {
                if engine.should_stop_posting() {
                    break;
                }
                vars.push(engine.new_bool());
            }
            vars
        };
        let link = bools(links.len());
        let cell = bools(shape.cells());
        PathVars { links, link, cell }
    }
    /// The shape.
    pub fn shape(&self) -> Shape {
        self.links.shape()
    }
}

/// Which optional path rules run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathRules {
    /// Close the link that would make a chain a loop.
    pub loops: bool,
    /// Reachability between the terminals.
    pub connect: bool,
}

/// A single simple path from terminal `a` to terminal `b` (see the module docs).
#[derive(Clone, Debug)]
pub struct SinglePath {
    /// The variables.
    pub vars: PathVars,
    /// The first terminal.
    pub a: CellId,
    /// The second terminal.
    pub b: CellId,
}

impl SinglePath {
    /// Posts `degree`, `chains` and (when asked) `connect`; fixes both terminals visited.
    ///
    /// The grid-sized setup polls the engine's limits ([`Engine::should_stop_posting`]):
    /// once they stop it, the rest is not posted and the engine stays interrupted for good.
    pub fn post(&self, engine: &mut Engine, rules: PathRules) -> Result<(), Conflict> {
        // Each propagator holds a copy of the variable lists (tens of megabytes on the
        // largest grids): the clock is read before each copy.
        if engine.check_limits_posting() {
            return Ok(());
        }
        engine.assign(self.vars.cell[self.a.index()], TRUE)?;
        engine.assign(self.vars.cell[self.b.index()], TRUE)?;
        let Some(degree) = Degree::new(self.vars.clone(), |c| self.cap(c) as u8, engine) else {
            return Ok(());
        };
        engine.post(degree);
        if engine.check_limits_posting() {
            return Ok(());
        }
        engine.post(ChainRule::new(self.clone(), rules.loops));
        if rules.connect {
            if engine.check_limits_posting() {
                return Ok(());
            }
            let Some(connect) = Connect::new(self.clone(), engine) else {
                return Ok(());
            };
            engine.post(connect);
        }
        Ok(())
    }
    #[inline]
    fn cap(&self, c: CellId) -> u32 {
        if c == self.a || c == self.b {
            1
        } else {
            2
        }
    }
}

/// The used and undecided links at a cell.
#[inline]
fn tally(cx: &Context, p: &SinglePath, c: CellId) -> (u32, u32) {
    let (mut yes, mut open) = (0, 0);
    for &l in p.vars.links.at(c) {
        let d = cx.dom(p.vars.link[l as usize]);
        if d == Domain::single(TRUE) {
            yes += 1;
        } else if !d.is_single() {
            open += 1;
        }
    }
    (yes, open)
}

/// `degree`: links ↔ cells channelling. Idempotent: a run works through a list of cells to
/// look at (the ends of the links it fixes join the list), so its own changes need not come
/// back as events.
pub(crate) struct Degree {
    vars: PathVars,
    /// Each cell's link variables and the cells at their other ends (up to four; `len` of
    /// them), and its capacity.
    around: Vec<Around>,
    /// Cells to look at.
    work: Worklist,
}

/// A cell's links and how many links a path through it uses.
#[derive(Clone, Copy, Debug)]
struct Around {
    links: [VarId; 4],
    across: [u32; 4],
    len: u8,
    cap: u8,
}

impl Degree {
    /// `degree` on `vars`, a cell `c` of a line taking `cap(c)` links (2, or 1 at an end of a
    /// path); `None` when the engine's limits stopped the building.
    pub(crate) fn new(vars: PathVars, cap: impl Fn(CellId) -> u8, engine: &mut Engine) -> Option<Self> {
        let width = vars.shape().width.max(1);
        let mut stopped = false;
        let around = vars
            .shape()
            .all()
            .map_while(|c| {
                if c.index() % width == 0 && engine.should_stop_posting() {
                    stopped = true;
                    return None;
                }
                let at = vars.links.at(c);
                let (mut links, mut across) = ([VarId(0); 4], [0; 4]);
                for (k, &l) in at.iter().enumerate() {
                    links[k] = vars.link[l as usize];
                    across[k] = vars.links.other(l, c).0;
                }
                Some(Around {
                    links,
                    across,
                    len: at.len() as u8,
                    cap: cap(c),
                })
            })
            .collect();
        if stopped {
            return None;
        }
        let n = vars.cell.len();
        Some(Degree {
            vars,
            around,
            work: Worklist::new(n),
        })
    }

    /// Looks at the listed cells until the list is empty.
    fn drain(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        while let Some(c) = self.work.pop() {
            self.cell(cx, c as usize)?;
        }
        Ok(())
    }

    /// Brings cell `c` to its local fixpoint; lists the far ends of the links it fixes.
    #[inline]
    fn cell(&mut self, cx: &mut Context, c: usize) -> Result<(), Conflict> {
        let around = self.around[c];
        let links = &around.links[..around.len as usize];
        // Boolean domains: {FALSE} = 1, {TRUE} = 2, open = 3.
        let (mut yes, mut open) = (0u32, 0u32);
        for &l in links {
            let d = cx.dom(l).0;
            yes += u32::from(d == 2);
            open += u32::from(d == 3);
        }
        let x = self.vars.cell[c];
        let cap = u32::from(around.cap);
        let mut state = cx.dom(x);
        if !state.is_single() {
            if yes > 0 {
                self.explain_cell(cx, c);
                cx.set(x, true)?;
            } else if open < cap {
                self.explain_cell(cx, c);
                cx.set(x, false)?;
            } else {
                return Ok(());
            }
            state = cx.dom(x);
        }
        let visited = state == Domain::single(TRUE);
        let value = if !visited {
            if yes > 0 {
                // A contradiction's reason, as a deduction's: the cell and its decided links.
                self.explain_cell(cx, c);
                return Err(Conflict);
            }
            false
        } else if yes > cap || yes + open < cap {
            self.explain_cell(cx, c);
            return Err(Conflict);
        } else if yes == cap {
            false
        } else if yes + open == cap {
            true
        } else {
            return Ok(());
        };
        if open == 0 {
            return Ok(());
        }
        self.explain_cell(cx, c);
        for (k, &v) in links.iter().enumerate() {
            if !cx.is_fixed(v) {
                cx.set(v, value)?;
                self.work.push(around.across[k]);
            }
        }
        Ok(())
    }

    #[inline]
    fn explain_cell(&self, cx: &mut Context, c: usize) {
        if cx.explaining() {
            self.explain_cell_now(cx, c);
        }
    }

    #[cold]
    fn explain_cell_now(&self, cx: &mut Context, c: usize) {
        let mut premises = Vec::new();
        let x = self.vars.cell[c];
        if let Some(v) = cx.value(x) {
            premises.push(Premise::is(x, v));
        }
        let around = &self.around[c];
        for &v in &around.links[..around.len as usize] {
            if let Some(val) = cx.value(v) {
                premises.push(Premise::is(v, val));
            }
        }
        cx.because(premises);
    }
}

impl Propagator for Degree {
    fn name(&self) -> &'static str {
        "degree"
    }
    fn encode(&self, enc: &mut Encoder) -> Encoded {
        // A used link's cells are visited; a cell's used links number its capacity times its
        // visited literal: `Σ_{l∋c} l = cap·x_c`.
        let vars = &self.vars;
        for c in vars.shape().all() {
            let (Some(x), cap) = (
                enc.is(vars.cell[c.index()], TRUE),
                i64::from(self.around[c.index()].cap),
            ) else {
                continue;
            };
            let mut terms = vec![(x, -cap)];
            for &l in vars.links.at(c) {
                if let Some(y) = enc.is(vars.link[l as usize], TRUE) {
                    enc.clause(vec![!y, x]);
                    terms.push((y, 1));
                }
            }
            enc.linear(terms, Cmp::Eq, 0);
        }
        Encoded::Posted
    }
    fn priority(&self) -> Priority {
        Priority::Immediate
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn init(&mut self, init: &mut Init) {
        // Only *which* cells to look at matters: buffered events, no `notify`.
        let nl = self.vars.link.len() as u32;
        for (l, &v) in self.vars.link.iter().enumerate() {
            init.watch_buffered(v, l as u32);
        }
        for (c, &v) in self.vars.cell.iter().enumerate() {
            init.watch_buffered(v, nl + c as u32);
        }
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        self.work.clear();
        for c in (0..self.vars.cell.len() as u32).rev() {
            self.work.push(c);
        }
        // `drain` without polling (it is the incremental hot loop), but a run from scratch
        // is grid-sized: poll every few cells.
        let mut k = 0u32;
        while let Some(c) = self.work.pop() {
            k = k.wrapping_add(1);
            if k % POLL_CELLS == 0 && cx.should_stop() {
                self.work.clear();
                return Ok(());
            }
            self.cell(cx, c as usize)?;
        }
        Ok(())
    }
    fn incremental(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        // The cells at the ends of each changed link, and each changed cell.
        let nl = self.vars.link.len() as u32;
        for &tag in cx.events() {
            if tag < nl {
                let (a, b) = self.vars.links.ends(tag);
                self.work.push(a.0);
                self.work.push(b.0);
            } else {
                self.work.push(tag - nl);
            }
        }
        self.drain(cx)
    }
    fn backtracked(&mut self) {
        self.work.clear();
    }
}

/// `chains`: no cycles, `loops` closing in advance, `finish`.
struct ChainRule {
    p: SinglePath,
    loops: bool,
    /// Per cell, the other end of the chain it ends (stale inside a chain).
    end: Vec<IntId>,
    /// Links used.
    used: IntId,
    pending: Vec<LinkId>,
}

/// No cycles, checked on each model of the SAT search ([`crate::encode::LazyCheck`]): with the
/// degree rows, the used links form a path from `a` plus detached cycles; each detached cycle
/// gets the cut "not all of these links".
struct NoCycles {
    links: Arc<Links>,
    lits: Vec<Lit>,
    a: CellId,
}

impl crate::encode::LazyCheck for NoCycles {
    fn cuts(&self, truth: &dyn Fn(Lit) -> bool) -> Vec<Vec<Lit>> {
        let used: Vec<bool> = self.lits.iter().map(|&l| truth(l)).collect();
        let n = self.links.shape().cells();
        let (mut seen, mut taken) = (vec![false; n], vec![false; used.len()]);
        // The links of the component of `start` (by used links), marking its cells seen.
        let component = |start: CellId, seen: &mut [bool], taken: &mut [bool]| {
            let (mut stack, mut links) = (vec![start], Vec::new());
            seen[start.index()] = true;
            while let Some(c) = stack.pop() {
                for &l in self.links.at(c) {
                    if used[l as usize] && !taken[l as usize] {
                        taken[l as usize] = true;
                        links.push(l);
                        let o = self.links.other(l, c);
                        if !seen[o.index()] {
                            seen[o.index()] = true;
                            stack.push(o);
                        }
                    }
                }
            }
            links
        };
        component(self.a, &mut seen, &mut taken);
        let mut cuts = Vec::new();
        for c in self.links.shape().all() {
            if !seen[c.index()] && self.links.at(c).iter().any(|&l| used[l as usize]) {
                let links = component(c, &mut seen, &mut taken);
                cuts.push(links.iter().map(|&l| !self.lits[l as usize]).collect());
            }
        }
        cuts
    }
}

/// No cycles, statically (for SAT and LP; the propagator detects them as links are used): each
/// used link is oriented one way (`arc u>v` + `arc v>u` = link); every visited cell but the
/// first terminal has exactly one arc in (the first has none); and each cell has a rank (a
/// binary number) that grows along every arc. Orienting the path from `a` satisfies this, and
/// a detached cycle cannot: its cells each take one arc in from the cycle's links, so the
/// cycle is oriented all the way round and its ranks would grow forever (the
/// Miller–Tucker–Zemlin argument).
fn encode_acyclic(p: &SinglePath, enc: &mut Encoder) {
    let (vars, shape) = (&p.vars, p.vars.shape());
    let n = shape.cells();
    let bits = (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1) as usize;
    let rank: Vec<Vec<Lit>> = shape
        .all()
        .map(|c| {
            (0..bits)
                .map(|i| enc.new_lit(format!("rank {} bit{i}", shape.name(c))))
                .collect()
        })
        .collect();
    // Arcs into each cell.
    let mut into: Vec<Vec<(Lit, i64)>> = vec![Vec::new(); n];
    for l in 0..vars.links.len() {
        let Some(used) = enc.is(vars.link[l], TRUE) else {
            continue;
        };
        let (u, v) = vars.links.ends(l as LinkId);
        let fwd = enc.new_lit(format!("arc {}>{}", shape.name(u), shape.name(v)));
        let bwd = enc.new_lit(format!("arc {}>{}", shape.name(v), shape.name(u)));
        enc.linear(vec![(fwd, 1), (bwd, 1), (used, -1)], Cmp::Eq, 0);
        enc.less(fwd, rank[u.index()].clone(), rank[v.index()].clone());
        enc.less(bwd, rank[v.index()].clone(), rank[u.index()].clone());
        into[v.index()].push((fwd, 1));
        into[u.index()].push((bwd, 1));
    }
    for c in shape.all() {
        let mut terms = std::mem::take(&mut into[c.index()]);
        if c != p.a {
            if let Some(x) = enc.is(vars.cell[c.index()], TRUE) {
                terms.push((x, -1));
            }
        }
        enc.linear(terms, Cmp::Eq, 0);
    }
}

impl ChainRule {
    fn new(p: SinglePath, loops: bool) -> Self {
        ChainRule {
            p,
            loops,
            end: Vec::new(),
            used: IntId(0),
            pending: Vec::new(),
        }
    }

    #[inline]
    fn end(&self, cx: &Context, c: CellId) -> CellId {
        CellId(cx.int(self.end[c.index()]) as u32)
    }

    fn used(&self, cx: &Context, l: LinkId) -> bool {
        cx.is_true(self.p.vars.link[l as usize])
    }

    /// The link `l` became used: joins the chains at its ends. (Both ends have at most two
    /// used links: `degree` runs first, at a lower priority level, and refutes more.)
    fn join(&mut self, cx: &mut Context, l: LinkId) -> Result<(), Conflict> {
        let (p, q) = self.p.vars.links.ends(l);
        let (ea, eb) = (self.end(cx, p), self.end(cx, q));
        if ea == q {
            // A cycle: the chain from `p` to `q` and the link that closes it.
            if cx.explaining() {
                let mut premises = self.chain_premises_between(cx, p, q);
                premises.push(Premise::is(self.p.vars.link[l as usize], TRUE));
                cx.because(premises);
            }
            return Err(Conflict);
        }
        cx.set_int(self.end[ea.index()], eb.0 as i64);
        cx.set_int(self.end[eb.index()], ea.0 as i64);
        self.joined(cx, ea, eb)
    }

    /// The chain with ends `e1`, `e2` was formed: finish, or close the link between its ends.
    fn joined(&mut self, cx: &mut Context, e1: CellId, e2: CellId) -> Result<(), Conflict> {
        if (e1, e2) == (self.p.a, self.p.b) || (e2, e1) == (self.p.a, self.p.b) {
            return self.finish(cx);
        }
        if self.loops {
            if let Some(closing) = self.p.vars.links.between(e1, e2) {
                let v = self.p.vars.link[closing as usize];
                if !cx.is_fixed(v) {
                    if cx.explaining() {
                        cx.because_rule("loops", self.chain_premises(cx, e1));
                    }
                    cx.set(v, false)?;
                }
            }
        }
        Ok(())
    }

    /// The cells of the chain that ends at `from` (a chain end), in order.
    fn walk(&self, cx: &Context, from: CellId) -> Vec<CellId> {
        let mut path = vec![from];
        let (mut prev, mut cur) = (None, from);
        loop {
            let next = self
                .p
                .vars
                .links
                .at(cur)
                .iter()
                .filter(|&&l| self.used(cx, l))
                .map(|&l| self.p.vars.links.other(l, cur))
                .find(|&c| Some(c) != prev);
            match next {
                Some(n) if path.len() <= self.p.vars.cell.len() => {
                    path.push(n);
                    (prev, cur) = (Some(cur), n);
                }
                _ => return path,
            }
        }
    }

    /// The used links of the chain from `p` to `q` (its ends), not through the link between
    /// them.
    fn chain_premises_between(&self, cx: &Context, p: CellId, q: CellId) -> Vec<Premise> {
        let mut premises = Vec::new();
        let (mut prev, mut cur) = (q, p);
        while cur != q && premises.len() < self.p.vars.cell.len() {
            let step = self
                .p
                .vars
                .links
                .at(cur)
                .iter()
                .copied()
                .filter(|&l| self.used(cx, l))
                .find(|&l| self.p.vars.links.other(l, cur) != prev);
            let Some(l) = step else {
                break;
            };
            premises.push(Premise::is(self.p.vars.link[l as usize], TRUE));
            (prev, cur) = (cur, self.p.vars.links.other(l, cur));
        }
        premises
    }

    fn chain_premises(&self, cx: &Context, from: CellId) -> Vec<Premise> {
        let cells = self.walk(cx, from);
        cells
            .windows(2)
            .filter_map(|w| self.p.vars.links.between(w[0], w[1]))
            .map(|l| Premise::is(self.p.vars.link[l as usize], TRUE))
            .collect()
    }

    /// The chain from `a` reached `b`: every other cell is unvisited.
    fn finish(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        // Every visited cell is on that chain exactly when the visited cells outnumber the
        // used links by one: without cycles (refuted when their last link is joined), each
        // other chain or lone visited cell adds one to the difference. (No cell can become
        // visited afterwards: every other cell is closed below.)
        let visited = self.p.vars.cell.iter().filter(|&&x| cx.is_true(x)).count() as i64;
        if visited != cx.int(self.used) + 1 {
            if cx.explaining() {
                // The finished chain, and a visited cell off it.
                if let Some(off) = self.p.vars.visited_off(cx, &self.walk(cx, self.p.a)) {
                    let mut premises = self.chain_premises(cx, self.p.a);
                    premises.push(off);
                    cx.because_rule("finish", premises);
                }
            }
            return Err(Conflict);
        }
        if cx.explaining() {
            cx.because_rule("finish", self.chain_premises(cx, self.p.a));
        }
        for &x in &self.p.vars.cell {
            if !cx.is_fixed(x) {
                cx.set(x, false)?;
            }
        }
        Ok(())
    }
}

impl Propagator for ChainRule {
    fn name(&self) -> &'static str {
        "chains"
    }
    fn encode(&self, enc: &mut Encoder) -> Encoded {
        if enc.lazy_allowed() {
            let links: Option<Vec<Lit>> = self.p.vars.link.iter().map(|&v| enc.is(v, TRUE)).collect();
            if let Some(links) = links {
                enc.lazy(Arc::new(NoCycles {
                    links: self.p.vars.links.clone(),
                    lits: links,
                    a: self.p.a,
                }));
                return Encoded::Posted;
            }
        }
        encode_acyclic(&self.p, enc);
        Encoded::Posted
    }
    fn init(&mut self, init: &mut Init) {
        let n = self.p.vars.cell.len();
        // Grid-sized: polled (a stop leaves the engine interrupted for good).
        self.end = Vec::with_capacity(n);
        for c in 0..n {
            if c as u32 % POLL_CELLS == 0 && init.should_stop() {
                return;
            }
            self.end.push(init.int(c as i64));
        }
        let used = self
            .p
            .vars
            .link
            .iter()
            .filter(|&&v| init.dom(v) == Domain::single(TRUE))
            .count();
        self.used = init.int(used as i64);
        self.pending.reserve(self.p.vars.link.len());
        // Only a link becoming used (losing FALSE) matters.
        for (l, &v) in self.p.vars.link.iter().enumerate() {
            init.watch_removal(v, l as u32, Domain::single(FALSE));
        }
    }
    #[inline]
    fn notify(&mut self, ints: &mut Ints, tag: u32, old: Domain, new: Domain) -> bool {
        if old.is_single() || new != Domain::single(TRUE) {
            return false;
        }
        ints.add(self.used, 1);
        self.pending.push(tag);
        true
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        // Rebuild every chain from the used links.
        self.pending.clear();
        let n = self.p.vars.cell.len();
        let mut seen = vec![false; n];
        for c in 0..n {
            if c as u32 % POLL_CELLS == 0 && cx.should_stop() {
                return Ok(());
            }
            let cell = CellId::from_index(c);
            cx.set_int(self.end[c], c as i64);
            let (yes, _) = tally(cx, &self.p, cell);
            if yes > 2 {
                return Err(Conflict);
            }
        }
        let used = self.p.vars.link.iter().filter(|&&v| cx.is_true(v)).count();
        cx.set_int(self.used, used as i64);
        let mut chains = Vec::new();
        for c in 0..n {
            if c as u32 % POLL_CELLS == 0 && cx.should_stop() {
                return Ok(());
            }
            let cell = CellId::from_index(c);
            if seen[c] || tally(cx, &self.p, cell).0 != 1 {
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
        // A used link not on any chain lies on a cycle.
        for (c, &on_chain) in seen.iter().enumerate() {
            if c as u32 % POLL_CELLS == 0 && cx.should_stop() {
                return Ok(());
            }
            if !on_chain && tally(cx, &self.p, CellId::from_index(c)).0 == 2 {
                return Err(Conflict);
            }
        }
        for (e1, e2) in chains {
            self.joined(cx, e1, e2)?;
        }
        Ok(())
    }
    fn incremental(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        while let Some(l) = self.pending.pop() {
            if self.used(cx, l) {
                self.join(cx, l)?;
            }
        }
        Ok(())
    }
    fn backtracked(&mut self) {
        self.pending.clear();
    }
}

/// `connect`: only cells on some simple path between the terminals; cut cells are visited.
struct Connect {
    p: SinglePath,
    flood: Flood,
    /// Each cell's links by direction (up, left, right, down); `LinkId::MAX` off the grid.
    toward: Vec<[LinkId; 4]>,
    separators: Vec<CellId>,
}

impl Connect {
    /// `None` when the engine's limits stopped the building.
    fn new(p: SinglePath, engine: &mut Engine) -> Option<Self> {
        let shape = p.vars.shape();
        let (h, w) = (shape.height, shape.width);
        let links = &p.vars.links;
        // The link toward each orthogonal neighbour (up, left,
        // right, down), by the links' numbering; polled once per row.
        let mut toward = Vec::with_capacity(shape.cells());
        for r in 0..h {
            if engine.should_stop_posting() {
                return None;
            }
            for c in 0..w {
                toward.push([
                    if r > 0 { links.vertical(r - 1, c) } else { LinkId::MAX },
                    if c > 0 { links.horizontal(r, c - 1) } else { LinkId::MAX },
                    if c + 1 < w { links.horizontal(r, c) } else { LinkId::MAX },
                    if r + 1 < h { links.vertical(r, c) } else { LinkId::MAX },
                ]);
            }
        }
        Some(Connect {
            flood: Flood::new_until(shape, || engine.should_stop_posting())?,
            toward,
            separators: Vec::new(),
            p,
        })
    }
}

impl Propagator for Connect {
    fn name(&self) -> &'static str {
        "connect"
    }
    fn encode(&self, _: &mut Encoder) -> Encoded {
        // Reachability deductions: implied by `degree` and `chains`.
        Encoded::Implied
    }
    fn priority(&self) -> Priority {
        Priority::Global
    }
    fn init(&mut self, init: &mut Init) {
        // Reachability changes only when a link or a cell is closed (loses TRUE); the fill
        // reruns from scratch, so no event needs remembering.
        for &v in self.p.vars.link.iter().chain(&self.p.vars.cell) {
            init.wake_on_removal(v, Domain::single(TRUE));
        }
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        let width = self.p.vars.shape().width as u32;
        let (p, toward) = (&self.p, &self.toward);
        // The fill is grid-sized: every few cells entered, the limits are read; once they
        // have passed, the fill enters nothing more and the run ends without changes.
        let (mut entered, mut passed) = (0u32, false);
        let reached = {
            let cxr: &Context = cx;
            self.flood.between_links(
                p.a,
                p.b,
                |c| {
                    entered = entered.wrapping_add(1);
                    if entered % POLL_CELLS == 0 && !passed {
                        passed = cxr.limits_passed();
                    }
                    !passed && !cxr.is_false(p.vars.cell[c.index()])
                },
                |u, w| {
                    // The direction from u to w (vertical steps first: on a one-cell-wide grid
                    // they also differ by one).
                    let d = if w.0 + width == u.0 {
                        0
                    } else if u.0 + width == w.0 {
                        3
                    } else if w.0 + 1 == u.0 {
                        1
                    } else {
                        2
                    };
                    !cxr.is_false(p.vars.link[toward[u.index()][d] as usize])
                },
            )
        };
        if passed {
            // Recorded for the engine, which then reports the interruption.
            cx.check_limits();
            return Ok(());
        }
        let explaining = cx.explaining();
        if !reached {
            if explaining {
                // `b` is out of reach: the closed cells and links around `a`'s side.
                let fence = self.fence(cx, p.a, None);
                cx.because(fence);
            }
            return Err(Conflict);
        }
        // Reasons (when explaining or learning): a cell out of `a`'s reach is closed by the
        // fence around `a`'s side; a cell in a pocket behind one cut cell by the fence around
        // the pocket; a cut cell is visited because of the fence around `a`'s side without it.
        // A pocket touching the terminals' blocks at several cells: the closed cells and links
        // around and inside `a`'s side.
        let mut outside: Vec<usize> = Vec::new();
        for i in 0..p.vars.cell.len() {
            if i as u32 % POLL_CELLS == 0 && cx.should_stop() {
                return Ok(());
            }
            let c = CellId::from_index(i);
            if c != p.a && !self.flood.reached(c) {
                let x = p.vars.cell[i];
                if !explaining {
                    if cx.is_true(x) {
                        return Err(Conflict);
                    }
                    if !cx.is_fixed(x) {
                        cx.set(x, false)?;
                    }
                } else if !cx.is_false(x) {
                    outside.push(i);
                }
            }
        }
        if explaining && !outside.is_empty() {
            let on_path: Vec<bool> = (0..p.vars.cell.len())
                .map(|i| self.flood.reached(CellId::from_index(i)) || CellId::from_index(i) == p.a)
                .collect();
            let mut done = vec![false; p.vars.cell.len()];
            for &i in &outside {
                if done[i] {
                    continue;
                }
                // The pocket of `i`: the open cells off the terminals' blocks joined to it.
                let (pocket, touches) = self.region(cx, CellId::from_index(i), |c| !on_path[c.index()]);
                let premises = match touches[..] {
                    [] => self.fence(cx, p.a, None),
                    [v] => self.fence_of(cx, &pocket, Some(v)),
                    _ => self.closed_around_and_inside(cx),
                };
                // A visited cell in the pocket: the contradiction, in a step of its own (a step
                // that already closed cells would lose its premises to the failure).
                if let Some(&t) = pocket.iter().find(|c| cx.is_true(p.vars.cell[c.index()])) {
                    cx.because(premises);
                    return cx.set(p.vars.cell[t.index()], false).map(|_| ());
                }
                cx.because(premises);
                for c in pocket {
                    done[c.index()] = true;
                    let x = p.vars.cell[c.index()];
                    if !cx.is_false(x) {
                        cx.set(x, false)?;
                    }
                }
            }
        }
        self.separators.clear();
        self.separators.extend_from_slice(self.flood.separators());
        let separators = std::mem::take(&mut self.separators);
        for &c in &separators {
            let x = p.vars.cell[c.index()];
            if !cx.is_fixed(x) {
                if explaining {
                    let fence = self.fence(cx, p.a, Some(c));
                    cx.because(fence);
                }
                cx.set(x, true)?;
            }
        }
        self.separators = separators;
        Ok(())
    }
}

impl Connect {
    /// The cells reached from `start` through open cells and links, stepping only onto cells
    /// `inside` accepts, and the open cells outside it the region has an open link to.
    fn region(&self, cx: &Context, start: CellId, inside: impl Fn(CellId) -> bool) -> (Vec<CellId>, Vec<CellId>) {
        let p = &self.p;
        let shape = p.vars.shape();
        let mut seen = vec![false; shape.cells()];
        let mut region = vec![start];
        let mut touches: Vec<CellId> = Vec::new();
        seen[start.index()] = true;
        let mut k = 0;
        while k < region.len() {
            let u = region[k];
            k += 1;
            for (d, &l) in self.toward[u.index()].iter().enumerate() {
                if l == LinkId::MAX || cx.is_false(p.vars.link[l as usize]) {
                    continue;
                }
                let w = neighbour(shape, u, d);
                if seen[w.index()] || cx.is_false(p.vars.cell[w.index()]) {
                    continue;
                }
                seen[w.index()] = true;
                if inside(w) {
                    region.push(w);
                } else {
                    touches.push(w);
                }
            }
        }
        (region, touches)
    }

    /// The closed cells and links around the region reached from `start` without stepping
    /// onto `without`.
    fn fence(&self, cx: &Context, start: CellId, without: Option<CellId>) -> Vec<Premise> {
        let (region, _) = self.region(cx, start, |c| Some(c) != without);
        self.fence_of(cx, &region, without)
    }

    /// The closed cells and links around `a`'s side and the closed links inside it: the
    /// reason of a pocket that touches the terminals' blocks at several cells. Given them,
    /// `a`'s side can only lose cells and links, and a cell on no simple path from `a` to `b`
    /// stays on none.
    fn closed_around_and_inside(&self, cx: &Context) -> Vec<Premise> {
        let p = &self.p;
        let shape = p.vars.shape();
        let (region, _) = self.region(cx, p.a, |_| true);
        let mut premises = self.fence_of(cx, &region, None);
        let mut inside = vec![false; shape.cells()];
        for c in &region {
            inside[c.index()] = true;
        }
        for &u in &region {
            for (d, &l) in self.toward[u.index()].iter().enumerate() {
                if l == LinkId::MAX {
                    continue;
                }
                let w = neighbour(shape, u, d);
                if inside[w.index()] && u.index() < w.index() && cx.is_false(p.vars.link[l as usize]) {
                    premises.push(Premise::is(p.vars.link[l as usize], FALSE));
                }
            }
        }
        premises
    }

    /// The closed cells and links around `region` (the links to `except` left out).
    fn fence_of(&self, cx: &Context, region: &[CellId], except: Option<CellId>) -> Vec<Premise> {
        let p = &self.p;
        let shape = p.vars.shape();
        let mut inside = vec![false; shape.cells()];
        for c in region {
            inside[c.index()] = true;
        }
        let mut out = Vec::new();
        for &u in region {
            for (d, &l) in self.toward[u.index()].iter().enumerate() {
                if l == LinkId::MAX {
                    continue;
                }
                let w = neighbour(shape, u, d);
                if inside[w.index()] || Some(w) == except {
                    continue;
                }
                let (link, cell) = (p.vars.link[l as usize], p.vars.cell[w.index()]);
                if cx.is_false(link) {
                    out.push(Premise::is(link, FALSE));
                } else if cx.is_false(cell) {
                    out.push(Premise::is(cell, FALSE));
                }
            }
        }
        out.sort_by_key(|q| q.var);
        out.dedup();
        out
    }
}

/// The neighbour of `u` in direction `d` (up, left, right, down).
fn neighbour(shape: Shape, u: CellId, d: usize) -> CellId {
    let w = shape.width;
    CellId::from_index(match d {
        0 => u.index() - w,
        1 => u.index() - 1,
        2 => u.index() + 1,
        _ => u.index() + w,
    })
}
