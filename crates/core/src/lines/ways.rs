//! `ways`: a row (or column) solved on its own, as a person fills a clue line — every way to
//! choose its path cells and their links that fits its clue, the cells' lines and the
//! crossing parities of the cuts above and below; a value no such way has is ruled out.
//!
//! The variables of one row are its cells, the links along it, and the links up and down
//! from each of its cells. A way is a value for each of them, within its domain, such that an
//! unused cell has no link, a used cell has exactly two (an end of the path one), the used
//! cells number the row's clue (when it has one), and the links up (down) number an odd count
//! exactly when the cut above (below) separates the path's ends ([`super::LineModel::cut_parities`];
//! always even for a loop). The ways are counted by dynamic programming along the row (state:
//! cells used so far, the link from the left, the two parities), forwards and backwards, so a
//! row of `n` cells costs `O(n²)`. [`Ways::deduce`] is the rule on one line as a pure function
//! of the domains (what the propagator applies, and what a test checks against brute force).

use super::crossings::{dims, dirty_flags, Conclusion, Dim, Found, UnitRule};
use crate::constraints::PathVars;
use crate::domain::Domain;
use crate::encode::{Encoded, Encoder};
use crate::engine::{Conflict, Context, Init, IntId, Ints, Premise, Priority, Propagator, VarId, FALSE, TRUE};
use crate::grid::CellId;

/// A line: rows (`true`) or columns, and its index.
pub type Line = (bool, usize);

/// The variables of one line's cell, in a way's order.
#[derive(Clone, Copy, Debug)]
struct Slot {
    cell: VarId,
    /// The link to the next cell along the line.
    next: Option<VarId>,
    up: Option<VarId>,
    down: Option<VarId>,
    degree: u8,
}

/// What the rule concludes on one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineDeduction {
    /// The fixed variables the ways were read from.
    pub premises: Vec<Premise>,
    /// The variables it fixes, with their values.
    pub set: Vec<(VarId, u32)>,
}

/// The `ways` rule over every row and column of a line model (see the module docs).
///
/// As a propagator it is a person's deduction for an explanation, not a solver's: it runs
/// only at the root (decision level 0, [`Context::level`]) and does nothing below it. Inside
/// an explanation's trials it is suspended anyway (a whole-grid rule), and in the search
/// that finds a guess's value it would cost more than it prunes. It is incremental: each line
/// has a trailed *dirty* flag, set when one of its variables changes and cleared when the line
/// is solved again, and only flagged lines are solved; a change undone (a trial's) restores
/// its flag too, so it costs nothing afterwards.
#[derive(Clone, Debug)]
pub struct Ways {
    dims: [Dim; 2],
    /// For each variable (by index), the lines it belongs to.
    of: Vec<Vec<Line>>,
    /// Each line's dirty flag (rows, then columns; see [`Ways::index`]), once posted.
    dirty: Vec<IntId>,
}

impl Ways {
    /// The rule for a line on `vars` between `ends` (`None`: a closed loop), with the count
    /// clues of the rows and the columns.
    pub fn new(vars: &PathVars, ends: Option<(CellId, CellId)>, rows: &[Option<u32>], cols: &[Option<u32>]) -> Self {
        let mut w = Ways {
            dims: dims(vars, ends, rows, cols),
            of: Vec::new(),
            dirty: Vec::new(),
        };
        let max = vars
            .link
            .iter()
            .chain(&vars.cell)
            .map(|v| v.index())
            .max()
            .map_or(0, |m| m + 1);
        w.of = vec![Vec::new(); max];
        for line in w.lines().collect::<Vec<_>>() {
            for s in w.slots(line) {
                for v in [Some(s.cell), s.next, s.up, s.down].into_iter().flatten() {
                    if !w.of[v.index()].contains(&line) {
                        w.of[v.index()].push(line);
                    }
                }
            }
        }
        w
    }

    fn dim(&self, rows: bool) -> &Dim {
        &self.dims[usize::from(!rows)]
    }

    /// A line's position among [`Ways::lines`].
    fn index(&self, (rows, i): Line) -> usize {
        if rows {
            i
        } else {
            self.dim(true).cells.len() + i
        }
    }

    /// Every line: the rows, then the columns.
    pub fn lines(&self) -> impl Iterator<Item = Line> + '_ {
        let n = |rows| self.dim(rows).cells.len();
        (0..n(true)).map(|i| (true, i)).chain((0..n(false)).map(|i| (false, i)))
    }

    /// `row 3`, `column 5`.
    pub fn line_name(&self, (rows, i): Line) -> String {
        format!("{} {}", self.dim(rows).word, i + 1)
    }

    fn slots(&self, (rows, i): Line) -> Vec<Slot> {
        let d = self.dim(rows);
        let n = d.cells[i].len();
        (0..n)
            .map(|j| Slot {
                cell: d.cells[i][j],
                next: d.along[i].get(j).copied(),
                up: i.checked_sub(1).map(|t| d.cuts[t][j]),
                down: d.cuts.get(i).map(|c| c[j]),
                degree: if d.is_end[i][j] { 1 } else { 2 },
            })
            .collect()
    }

    /// The parities the links up and down must have (`None`: no cut there).
    fn parities(&self, (rows, i): Line) -> (Option<bool>, Option<bool>) {
        let d = self.dim(rows);
        (i.checked_sub(1).map(|t| d.odd[t]), d.odd.get(i).copied())
    }

    /// The values of every variable of the line that some way takes, as a map from the
    /// variable to the values; `None` when no way fits.
    ///
    /// The dynamic programme runs along the line over the states (link from the left, parity
    /// of the links up so far, of the links down), each holding the *set* of counts of used
    /// cells that reach it as a bit mask (bit `i`: `i` cells used), so one slot costs a few
    /// mask operations per choice. A line without a clue counts nothing (bit 0 only); a clue
    /// above [`MAX_COUNT`] is left out, a relaxation whose conclusions still hold.
    fn supported(&self, line: Line, dom: &dyn Fn(VarId) -> Domain) -> Option<Vec<(VarId, Domain)>> {
        let slots = self.slots(line);
        let n = slots.len();
        let clue = self.dim(line.0).counts[line.1]
            .map(|k| k as usize)
            .filter(|&k| k <= MAX_COUNT);
        let (pu, pd) = self.parities(line);
        // The values a variable may take, as bits (bit 0: 0, bit 1: 1); a missing link is 0.
        let allowed = |v: Option<VarId>| match v {
            Some(v) => {
                let d = dom(v);
                u8::from(d.contains(FALSE)) | u8::from(d.contains(TRUE)) << 1
            }
            None => 1,
        };
        // Each slot's choices: its shapes whose values its variables still allow.
        let choices: Vec<([Choice; 7], usize)> = slots
            .iter()
            .map(|s| {
                let (cells, next, up, down) = (allowed(Some(s.cell)), allowed(s.next), allowed(s.up), allowed(s.down));
                let fits = |mask: u8, x: u8| mask >> x & 1 == 1;
                let (shapes, len) = &SHAPES[usize::from(s.degree)];
                let mut out = ([Choice::NONE; 7], 0);
                for &ch in &shapes[..*len] {
                    if fits(cells, ch.c) && fits(next, ch.nx) && fits(up, ch.u) && fits(down, ch.dn) {
                        out.0[out.1] = ch;
                        out.1 += 1;
                    }
                }
                out
            })
            .collect();
        // State index: left · 4 + up parity · 2 + down parity.
        let state = |left: u8, up: u8, down: u8| usize::from(left * 4 + up * 2 + down);
        let shift = |c: u8| if clue.is_some() { u32::from(c) } else { 0 };
        let cap: u128 = match clue {
            Some(k) => u128::MAX >> (127 - k),
            None => 1,
        };
        let mut fwd = vec![[0u128; 8]; n + 1];
        fwd[0][state(0, 0, 0)] = 1;
        for j in 0..n {
            let (ch, len) = &choices[j];
            for ch in &ch[..*len] {
                for (up, down) in PARITIES {
                    let from = fwd[j][state(ch.left, up, down)];
                    if from != 0 {
                        fwd[j + 1][state(ch.nx, up ^ ch.u, down ^ ch.dn)] |= (from << shift(ch.c)) & cap;
                    }
                }
            }
        }
        let mut bwd = vec![[0u128; 8]; n + 1];
        let end = match clue {
            Some(k) => 1u128 << k,
            None => 1,
        };
        for (up, down) in PARITIES {
            if pu.is_none_or(|p| (up == 1) == p) && pd.is_none_or(|p| (down == 1) == p) {
                bwd[n][state(0, up, down)] = end;
            }
        }
        let mut seen: Vec<[u8; 4]> = vec![[0; 4]; n];
        for j in (0..n).rev() {
            let (ch, len) = &choices[j];
            for ch in &ch[..*len] {
                for (up, down) in PARITIES {
                    let to = bwd[j + 1][state(ch.nx, up ^ ch.u, down ^ ch.dn)];
                    if to == 0 {
                        continue;
                    }
                    let here = state(ch.left, up, down);
                    bwd[j][here] |= to >> shift(ch.c);
                    if (fwd[j][here] << shift(ch.c)) & to != 0 {
                        for (m, x) in [ch.c, ch.nx, ch.u, ch.dn].into_iter().enumerate() {
                            seen[j][m] |= 1 << x;
                        }
                    }
                }
            }
        }
        if bwd[0][state(0, 0, 0)] & 1 == 0 {
            return None;
        }
        // Each variable belongs to one slot (a cell, the link after it, up or down).
        let mut out = Vec::with_capacity(4 * n);
        for (j, s) in slots.iter().enumerate() {
            for (m, v) in [Some(s.cell), s.next, s.up, s.down].into_iter().enumerate() {
                if let Some(v) = v {
                    let mut d = Domain::EMPTY;
                    for x in 0..2 {
                        if seen[j][m] >> x & 1 == 1 {
                            d.insert(val(x));
                        }
                    }
                    out.push((v, d));
                }
            }
        }
        Some(out)
    }

    /// The rule on one line: `Err` when no way fits, `Ok(None)` when it fixes nothing.
    pub fn deduce(&self, line: Line, dom: &dyn Fn(VarId) -> Domain) -> Result<Option<LineDeduction>, Conflict> {
        let sup = self.supported(line, dom).ok_or(Conflict)?;
        let (premises, set) = settle(&sup, dom)?;
        Ok((!set.is_empty()).then_some(LineDeduction { premises, set }))
    }

    /// The line whose rule, in the state `dom`, fixes exactly the variables `changed`.
    pub fn line_of(&self, changed: &[VarId], dom: &dyn Fn(VarId) -> Domain) -> Option<Line> {
        let first = changed.first()?;
        self.unit_fixing(self.units_of(first.index()), changed, dom)
    }

    /// The rule on a line in words.
    pub fn describe(&self, line: Line) -> String {
        let d = self.dim(line.0);
        let clue = match d.counts[line.1] {
            Some(k) => format!("its {k} path cells"),
            None => "its path cells".to_string(),
        };
        let (pu, pd) = self.parities(line);
        let mut cuts = Vec::new();
        let w = d.word;
        for (p, t) in [(pu, line.1.wrapping_sub(1)), (pd, line.1)] {
            if let Some(p) = p {
                let n = if p { "an odd" } else { "an even" };
                cuts.push(format!("{n} number of times between {w}s {} and {}", t + 1, t + 2));
            }
        }
        let crossing = if cuts.is_empty() {
            String::new()
        } else {
            format!(", crossing {}", cuts.join(" and "))
        };
        format!(
            "every way to place {clue} in {} so that each gets its lines from links still open{crossing} agrees on these",
            self.line_name(line)
        )
    }
}

impl UnitRule for Ways {
    type Unit = Line;
    fn units(&self) -> Vec<Line> {
        self.lines().collect()
    }
    fn units_of(&self, var: usize) -> &[Line] {
        &self.of[var]
    }
    fn flag(&self, line: Line) -> IntId {
        self.dirty[self.index(line)]
    }
    fn found(&self, line: Line, dom: &dyn Fn(VarId) -> Domain) -> Result<Found, Conflict> {
        Ok(self.deduce(line, dom)?.map(|x| (x.premises, x.set)))
    }
}

impl Propagator for Ways {
    fn name(&self) -> &'static str {
        "ways"
    }
    fn init(&mut self, init: &mut Init) {
        self.dirty = dirty_flags(init, self.lines().count(), &self.of);
    }
    fn notify(&mut self, ints: &mut Ints, tag: u32, _old: Domain, _new: Domain) -> bool {
        self.raise_units_of(ints, tag as usize)
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        self.run_units(cx, true)
    }
    fn incremental(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        self.run_units(cx, false)
    }
    fn priority(&self) -> Priority {
        Priority::Global
    }
    fn encode(&self, _enc: &mut Encoder) -> Encoded {
        Encoded::Implied
    }
}

/// What the values each variable keeps in some way (`supported`) settle, in the state `dom`:
/// the fixed variables the ways rested on (the premises) and the open ones left one value
/// (`Err` when one is left none). The end of [`Ways::deduce`] and `Pairs::deduce`.
pub(super) fn settle(supported: &[(VarId, Domain)], dom: &dyn Fn(VarId) -> Domain) -> Result<Conclusion, Conflict> {
    let (mut premises, mut set) = (Vec::new(), Vec::new());
    for &(v, d) in supported {
        let now = dom(v);
        if let Some(x) = now.value() {
            premises.push(Premise::is(v, x));
        } else {
            let left = now.and(d);
            match left.value() {
                Some(x) => set.push((v, x)),
                None if left.is_empty() => return Err(Conflict),
                None => {}
            }
        }
    }
    Ok((premises, set))
}

/// The largest clue [`Ways`] counts to (a bit of a `u128` per count).
pub const MAX_COUNT: usize = 127;

/// The parities a state can have so far: (links up, links down).
const PARITIES: [(u8, u8); 4] = [(0, 0), (0, 1), (1, 0), (1, 1)];

/// One way to fill a slot: the cell used (`c`), the links to the next cell, up and down, and
/// the link from the left it needs, each 0 or 1.
#[derive(Clone, Copy, Debug)]
pub(super) struct Choice {
    pub(super) c: u8,
    pub(super) nx: u8,
    pub(super) u: u8,
    pub(super) dn: u8,
    pub(super) left: u8,
}

impl Choice {
    pub(super) const NONE: Choice = Choice {
        c: 0,
        nx: 0,
        u: 0,
        dn: 0,
        left: 0,
    };
}

/// The ways to fill a slot whose cell, when used, has `degree` lines, whatever the domains:
/// unused with no link, or used with `degree` of its four links (at most 1 + 6).
const fn shapes(degree: u8) -> ([Choice; 7], usize) {
    let mut out = [Choice::NONE; 7];
    let mut len = 0;
    let mut bits = 0u8;
    while bits < 32 {
        let (c, nx, u, dn, left) = (bits & 1, bits >> 1 & 1, bits >> 2 & 1, bits >> 3 & 1, bits >> 4 & 1);
        let deg = left + nx + u + dn;
        if (c == 1 && deg == degree) || (c == 0 && deg == 0) {
            out[len] = Choice { c, nx, u, dn, left };
            len += 1;
        }
        bits += 1;
    }
    (out, len)
}

/// [`shapes`] by degree (0 is unused: every cell needs a line).
pub(super) const SHAPES: [([Choice; 7], usize); 3] = [shapes(0), shapes(1), shapes(2)];

/// The engine's Boolean for a way's 0 or 1.
#[inline]
pub(super) fn val(x: u32) -> u32 {
    if x == 1 {
        TRUE
    } else {
        FALSE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::grid::Shape;
    use proptest::prelude::*;

    /// Every value of every variable of `line` that some way takes, by enumerating all
    /// assignments of the line's variables and checking the definition directly.
    fn brute(w: &Ways, line: Line, dom: &dyn Fn(VarId) -> Domain) -> Option<Vec<(VarId, Domain)>> {
        let slots = w.slots(line);
        let mut vars: Vec<VarId> = Vec::new();
        for s in &slots {
            for v in [Some(s.cell), s.next, s.up, s.down].into_iter().flatten() {
                if !vars.contains(&v) {
                    vars.push(v);
                }
            }
        }
        let clue = w.dim(line.0).counts[line.1];
        let (pu, pd) = w.parities(line);
        let mut seen = vec![Domain::EMPTY; vars.len()];
        let mut any = false;
        for bits in 0u32..1 << vars.len() {
            let x = |v: Option<VarId>| v.map_or(0, |v| (bits >> vars.iter().position(|&u| u == v).unwrap()) & 1);
            if vars
                .iter()
                .enumerate()
                .any(|(k, &v)| !dom(v).contains(val((bits >> k) & 1)))
            {
                continue;
            }
            let mut ok = true;
            let (mut used, mut ups, mut downs) = (0, 0, 0);
            for (j, s) in slots.iter().enumerate() {
                let left = if j > 0 { x(slots[j - 1].next) } else { 0 };
                let deg = left + x(s.next) + x(s.up) + x(s.down);
                let c = x(Some(s.cell));
                ok &= if c == 1 { deg == u32::from(s.degree) } else { deg == 0 };
                used += c;
                ups += x(s.up);
                downs += x(s.down);
            }
            ok &= clue.is_none_or(|k| used == k);
            ok &= pu.is_none_or(|p| (ups % 2 == 1) == p);
            ok &= pd.is_none_or(|p| (downs % 2 == 1) == p);
            if ok {
                any = true;
                for (k, d) in seen.iter_mut().enumerate() {
                    d.insert(val((bits >> k) & 1));
                }
            }
        }
        any.then(|| vars.into_iter().zip(seen).collect())
    }

    /// The former dynamic programme, state by state (a count, the link from the left, two
    /// parities) with one Boolean per state: a second oracle for lines too long to enumerate.
    fn by_states(w: &Ways, line: Line, dom: &dyn Fn(VarId) -> Domain) -> Option<Vec<(VarId, Domain)>> {
        let slots = w.slots(line);
        let n = slots.len();
        let clue = w.dim(line.0).counts[line.1].map(|k| k as usize);
        let (pu, pd) = w.parities(line);
        let cap = clue.unwrap_or(n);
        // State: used so far (0..=cap), link from the left, parity up, parity down.
        let states = (cap + 1) * 8;
        let idx = |used: usize, left: u32, up: u32, down: u32| {
            ((used * 2 + left as usize) * 2 + up as usize) * 2 + down as usize
        };
        let allowed = |v: Option<VarId>, x: u32| match v {
            Some(v) => dom(v).contains(val(x)),
            None => x == 0,
        };
        // The choices at each slot: (cell, next, up, down).
        let choices = |j: usize, left: u32| -> Vec<[u32; 4]> {
            let s = slots[j];
            let mut out = Vec::new();
            for c in 0..2 {
                if !dom(s.cell).contains(val(c)) {
                    continue;
                }
                for nx in 0..2 {
                    for u in 0..2 {
                        for dn in 0..2 {
                            if !(allowed(s.next, nx) && allowed(s.up, u) && allowed(s.down, dn)) {
                                continue;
                            }
                            let deg = left + nx + u + dn;
                            let ok = if c == 1 { deg == u32::from(s.degree) } else { deg == 0 };
                            if ok {
                                out.push([c, nx, u, dn]);
                            }
                        }
                    }
                }
            }
            out
        };
        let mut fwd = vec![vec![false; states]; n + 1];
        fwd[0][idx(0, 0, 0, 0)] = true;
        let all: Vec<Vec<Vec<[u32; 4]>>> = (0..n).map(|j| (0..2).map(|l| choices(j, l)).collect()).collect();
        for j in 0..n {
            for used in 0..=cap {
                for left in 0..2 {
                    for up in 0..2 {
                        for down in 0..2 {
                            if !fwd[j][idx(used, left, up, down)] {
                                continue;
                            }
                            for &[c, nx, u, dn] in &all[j][left as usize] {
                                let k = used + c as usize;
                                if k > cap {
                                    continue;
                                }
                                fwd[j + 1][idx(k, nx, up ^ u, down ^ dn)] = true;
                            }
                        }
                    }
                }
            }
        }
        let end_ok = |used: usize, left: u32, up: u32, down: u32| {
            left == 0
                && clue.is_none_or(|k| used == k)
                && pu.is_none_or(|p| (up == 1) == p)
                && pd.is_none_or(|p| (down == 1) == p)
        };
        let mut bwd = vec![vec![false; states]; n + 1];
        for used in 0..=cap {
            for up in 0..2 {
                for down in 0..2 {
                    bwd[n][idx(used, 0, up, down)] = end_ok(used, 0, up, down);
                }
            }
        }
        let mut seen: Vec<[Domain; 4]> = vec![[Domain::EMPTY; 4]; n];
        for j in (0..n).rev() {
            for used in 0..=cap {
                for left in 0..2 {
                    for up in 0..2 {
                        for down in 0..2 {
                            let here = idx(used, left, up, down);
                            for &[c, nx, u, dn] in &all[j][left as usize] {
                                let k = used + c as usize;
                                if k > cap || !bwd[j + 1][idx(k, nx, up ^ u, down ^ dn)] {
                                    continue;
                                }
                                bwd[j][here] = true;
                                if fwd[j][here] {
                                    for (m, x) in [c, nx, u, dn].into_iter().enumerate() {
                                        seen[j][m].insert(val(x));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if !bwd[0][idx(0, 0, 0, 0)] {
            return None;
        }
        let mut out = Vec::new();
        for (j, s) in slots.iter().enumerate() {
            for (m, v) in [Some(s.cell), s.next, s.up, s.down].into_iter().enumerate() {
                if let Some(v) = v {
                    if !out.iter().any(|&(w, _)| w == v) {
                        out.push((v, seen[j][m]));
                    }
                }
            }
        }
        Some(out)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// The dynamic programme finds exactly the values the ways of the definition take.
        #[test]
        fn ways_agree_with_brute_force(
            h in 1usize..=3, w in 1usize..=3, line in 0usize..3, rows in any::<bool>(),
            clue in proptest::option::of(0u32..=4), ends in (any::<usize>(), any::<usize>()),
            fixed in any::<u64>(), values in any::<u64>(),
        ) {
            let shape = Shape::new(h, w);
            let mut e = Engine::new();
            let vars = PathVars::new(&mut e, shape);
            let edge: Vec<CellId> = shape.all().filter(|&c| shape.on_edge(c)).collect();
            let (a, b) = (edge[ends.0 % edge.len()], edge[ends.1 % edge.len()]);
            prop_assume!(a != b);
            let n = if rows { h } else { w };
            let line = (rows, line % n);
            let len = if rows { w } else { h };
            let clues: Vec<Option<u32>> = (0..n).map(|i| if i == line.1 { clue.filter(|&k| k as usize <= len) } else { None }).collect();
            let other = vec![None; if rows { w } else { h }];
            let (rc, cc) = if rows { (clues, other) } else { (other, clues) };
            let ways = Ways::new(&vars, Some((a, b)), &rc, &cc);
            let dom = |v: VarId| {
                let k = v.index() % 64;
                if (fixed >> k) & 1 == 1 {
                    Domain::single(val(((values >> k) & 1) as u32))
                } else {
                    Domain::single(FALSE).or(Domain::single(TRUE))
                }
            };
            let mut fast = ways.supported(line, &dom);
            let mut slow = brute(&ways, line, &dom);
            for x in [&mut fast, &mut slow].into_iter().flatten() {
                x.sort_by_key(|&(v, _)| v.index());
            }
            prop_assert_eq!(fast, slow);
        }

        /// On lines too long to enumerate, the bit-mask programme agrees with the former
        /// state-by-state one (about a quarter of the variables fixed at random).
        #[test]
        fn ways_agree_with_the_state_by_state_programme(
            h in 1usize..=9, w in 1usize..=9, line in 0usize..9, rows in any::<bool>(),
            clue in proptest::option::of(0u32..=9), ends in (any::<usize>(), any::<usize>()),
            fixed in (any::<u64>(), any::<u64>()), values in any::<u64>(),
        ) {
            let shape = Shape::new(h, w);
            let mut e = Engine::new();
            let vars = PathVars::new(&mut e, shape);
            let edge: Vec<CellId> = shape.all().filter(|&c| shape.on_edge(c)).collect();
            let (a, b) = (edge[ends.0 % edge.len()], edge[ends.1 % edge.len()]);
            prop_assume!(a != b);
            let n = if rows { h } else { w };
            let line = (rows, line % n);
            let len = if rows { w } else { h };
            let clues: Vec<Option<u32>> = (0..n).map(|i| if i == line.1 { clue.filter(|&k| k as usize <= len) } else { None }).collect();
            let other = vec![None; if rows { w } else { h }];
            let (rc, cc) = if rows { (clues, other) } else { (other, clues) };
            let ways = Ways::new(&vars, Some((a, b)), &rc, &cc);
            let fixed = fixed.0 & fixed.1;
            let dom = |v: VarId| {
                let k = v.index() % 64;
                if (fixed >> k) & 1 == 1 {
                    Domain::single(val(((values >> k) & 1) as u32))
                } else {
                    Domain::single(FALSE).or(Domain::single(TRUE))
                }
            };
            let mut fast = ways.supported(line, &dom);
            let mut slow = by_states(&ways, line, &dom);
            for x in [&mut fast, &mut slow].into_iter().flatten() {
                x.sort_by_key(|&(v, _)| v.index());
            }
            prop_assert_eq!(fast, slow);
        }
    }
}
