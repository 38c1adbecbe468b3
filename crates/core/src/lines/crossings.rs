//! `crossings`: how many times the line crosses the cut between two adjacent rows (or
//! columns), bounded by what the rows on either side can hold — the clue-line arithmetic a
//! person does across neighbouring lines.
//!
//! Write `X(t)` for the number of lines crossing the cut between rows `t` and `t + 1`. Each
//! crossing uses its own visited cell on each side, so `X(t)` is at most the cells row `t`
//! (and row `t + 1`) visits: its count clue, or its cells not known unused. Within one row the
//! visited cells form `s` stretches joined along the row; every stretch has two ends, each
//! leaving the row up or down, except where a stretch ends at an end of the path. So
//!
//! `X(t − 1) + X(t) = 2·s − d`, with `d` the path's ends in the row, and `s ≤ V − H`
//!
//! (`V` the row's visited cells, `H` the lines drawn along it), and `s ≥ 1` when the row is
//! visited at all. With the cut's own facts — at least its drawn lines, at most its links not
//! blank, odd exactly when it separates the path's ends (always even for a loop), and at least
//! two when it is even and both sides hold a visited cell — each cut gets a lower and an upper
//! bound from its two rows and its neighbouring cuts. When the upper bound equals the lines
//! drawn across, the cut's other links are blank; when the lower bound equals the links not
//! blank, they are all lines; a path's cut that is crossed no times leaves the side without
//! the path's ends unused.
//!
//! The same reasoning with columns for rows. [`Crossings::deduce`] is the rule on one cut as
//! a pure function of the domains (what the propagator applies, and what a test replays from
//! a step's premises alone); [`Crossings::describe`] words it.

use crate::constraints::PathVars;
use crate::domain::Domain;
use crate::encode::{Encoded, Encoder};
use crate::engine::{Conflict, Context, Init, IntId, Ints, Premise, Priority, Propagator, VarId, FALSE, TRUE};
use crate::grid::CellId;

/// One direction of cuts: rows (cuts between consecutive rows) or columns.
#[derive(Clone, Debug)]
pub(super) struct Dim {
    /// "row" or "column".
    pub(super) word: &'static str,
    /// Each line's cell variables.
    pub(super) cells: Vec<Vec<VarId>>,
    /// Each line's link variables along it.
    pub(super) along: Vec<Vec<VarId>>,
    /// `cuts[t]`: the link variables between line `t` and line `t + 1`.
    pub(super) cuts: Vec<Vec<VarId>>,
    /// Each line's count clue.
    pub(super) counts: Vec<Option<u32>>,
    /// The path's ends in each line.
    pub(super) ends_in: Vec<i64>,
    /// Per line, per cell: is it an end of the path?
    pub(super) is_end: Vec<Vec<bool>>,
    /// Per cut: does it separate the path's ends?
    pub(super) odd: Vec<bool>,
}

/// The rows, then the columns, of a line on `vars` between `ends` (`None`: a loop) with
/// these count clues.
pub(super) fn dims(
    vars: &PathVars,
    ends: Option<(CellId, CellId)>,
    rows: &[Option<u32>],
    cols: &[Option<u32>],
) -> [Dim; 2] {
    let shape = vars.shape();
    let (h, w) = (shape.height, shape.width);
    let links = &vars.links;
    let cell = |r: usize, c: usize| vars.cell[shape.id(r, c).index()];
    let link = |l: u32| vars.link[l as usize];
    let ends_at = |f: &dyn Fn(CellId) -> usize, n: usize| {
        let mut v = vec![0i64; n];
        if let Some((a, b)) = ends {
            v[f(a)] += 1;
            v[f(b)] += 1;
        }
        v
    };
    let odd = |f: &dyn Fn(CellId) -> usize, n: usize| -> Vec<bool> {
        (0..n.saturating_sub(1))
            .map(|t| ends.is_some_and(|(a, b)| (f(a) <= t) != (f(b) <= t)))
            .collect()
    };
    let is_end = |c: CellId| ends.is_some_and(|(a, b)| c == a || c == b);
    let row_of = |c: CellId| shape.coords(c).0;
    let col_of = |c: CellId| shape.coords(c).1;
    let rows_dim = Dim {
        word: "row",
        cells: (0..h).map(|r| (0..w).map(|c| cell(r, c)).collect()).collect(),
        along: (0..h)
            .map(|r| (0..w.saturating_sub(1)).map(|c| link(links.horizontal(r, c))).collect())
            .collect(),
        cuts: (0..h.saturating_sub(1))
            .map(|t| (0..w).map(|c| link(links.vertical(t, c))).collect())
            .collect(),
        counts: rows.to_vec(),
        ends_in: ends_at(&row_of, h),
        is_end: (0..h)
            .map(|r| (0..w).map(|c| is_end(shape.id(r, c))).collect())
            .collect(),
        odd: odd(&row_of, h),
    };
    let cols_dim = Dim {
        word: "column",
        cells: (0..w).map(|c| (0..h).map(|r| cell(r, c)).collect()).collect(),
        along: (0..w)
            .map(|c| (0..h.saturating_sub(1)).map(|r| link(links.vertical(r, c))).collect())
            .collect(),
        cuts: (0..w.saturating_sub(1))
            .map(|t| (0..h).map(|r| link(links.horizontal(r, t))).collect())
            .collect(),
        counts: cols.to_vec(),
        ends_in: ends_at(&col_of, w),
        is_end: (0..w)
            .map(|c| (0..h).map(|r| is_end(shape.id(r, c))).collect())
            .collect(),
        odd: odd(&col_of, w),
    };
    [rows_dim, cols_dim]
}

/// What one line can hold, read from the domains.
#[derive(Clone, Copy, Debug)]
struct LineFacts {
    /// At most this many visited cells.
    max: i64,
    /// At least this many.
    min: i64,
    /// Lines drawn along it.
    along: i64,
    /// Path ends in it.
    ends: i64,
}

impl LineFacts {
    /// The most ends its stretches can give to the cuts above and below together.
    fn ends_hi(&self) -> i64 {
        2 * (self.max - self.along).max(0) - self.ends
    }
    /// The fewest.
    fn ends_lo(&self) -> i64 {
        if self.min >= 1 || self.ends >= 1 {
            2 - self.ends
        } else {
            0
        }
    }
}

/// A cut's own facts.
#[derive(Clone, Copy, Debug, Default)]
struct CutFacts {
    lines: i64,
    open: i64,
    odd: bool,
    /// Both sides hold a visited cell.
    both: bool,
}

impl CutFacts {
    fn lo(&self) -> i64 {
        let parity = if self.odd {
            1
        } else if self.both {
            2
        } else {
            0
        };
        self.lines.max(parity)
    }
}

/// The bounds of one cut and what they rest on, for [`Crossings::describe`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutBounds {
    /// At least this many crossings.
    pub lo: i64,
    /// At most this many.
    pub hi: i64,
    /// Lines drawn across the cut.
    pub lines: i64,
    /// Links across the cut not blank.
    pub not_blank: i64,
}

/// What the rule concludes on one cut: the facts it rests on and the values it sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutDeduction {
    /// The fixed variables the bounds were read from.
    pub premises: Vec<Premise>,
    /// The variables it fixes, with their values.
    pub set: Vec<(VarId, u32)>,
}

/// The `crossings` rule over every row cut and column cut of a line model (see the module
/// docs). Post it with [`crate::engine::Engine::post`].
///
/// As a propagator it is, like [`super::ways::Ways`], a person's deduction for an
/// explanation: it runs only at the root (decision level 0) and does nothing below it. It is
/// incremental: each cut has a trailed *dirty* flag, set when a variable its bounds read
/// changes (see [`Crossings::new`]) and cleared when the cut is worked out again; only
/// flagged cuts are, so the changes of a trial, undone with their flags, cost nothing
/// afterwards.
#[derive(Clone, Debug)]
pub struct Crossings {
    dims: [Dim; 2],
    /// For each variable (by index), the cuts whose bounds read it.
    of: Vec<Vec<Cut>>,
    /// For each variable, whether it is a cell's: a cell becoming used may show a side
    /// visited for every cut ([`Crossings::bounds`]).
    is_cell: Vec<bool>,
    /// Each cut's dirty flag (row cuts, then column cuts), once posted.
    dirty: Vec<IntId>,
}

/// A cut: `rows` (between rows `t` and `t + 1`) or between columns, and `t`.
pub type Cut = (bool, usize);

impl Crossings {
    /// The rule for a line on `vars` between `ends` (`None`: a closed loop), with the count
    /// clues of the rows and the columns (`None`: unclued).
    ///
    /// Cut `t` reads the cells of lines `t − 1 ..= t + 2`, the lines along `t` and `t + 1`,
    /// the cuts `t − 1 ..= t + 1` and, for its sides, whether any cell is used: those are the
    /// variables that flag it.
    pub fn new(vars: &PathVars, ends: Option<(CellId, CellId)>, rows: &[Option<u32>], cols: &[Option<u32>]) -> Self {
        let mut x = Crossings {
            dims: dims(vars, ends, rows, cols),
            of: Vec::new(),
            is_cell: Vec::new(),
            dirty: Vec::new(),
        };
        let max = vars
            .link
            .iter()
            .chain(&vars.cell)
            .map(|v| v.index())
            .max()
            .map_or(0, |m| m + 1);
        x.of = vec![Vec::new(); max];
        x.is_cell = vec![false; max];
        for &v in &vars.cell {
            x.is_cell[v.index()] = true;
        }
        for rows in [true, false] {
            let d = x.dim(rows);
            let n = d.cuts.len() as isize;
            let mut add: Vec<(VarId, Cut)> = Vec::new();
            let mut near = |v: VarId, from: isize, to: isize| {
                for t in from.max(0)..=to.min(n - 1) {
                    add.push((v, (rows, t as usize)));
                }
            };
            for (i, line) in d.cells.iter().enumerate() {
                let i = i as isize;
                line.iter().for_each(|&v| near(v, i - 2, i + 1));
            }
            for (i, line) in d.along.iter().enumerate() {
                let i = i as isize;
                line.iter().for_each(|&v| near(v, i - 1, i));
            }
            for (k, cut) in d.cuts.iter().enumerate() {
                let k = k as isize;
                cut.iter().for_each(|&v| near(v, k - 1, k + 1));
            }
            for (v, cut) in add {
                if !x.of[v.index()].contains(&cut) {
                    x.of[v.index()].push(cut);
                }
            }
        }
        x
    }

    /// A cut's position among [`Crossings::cuts`].
    fn index(&self, (rows, t): Cut) -> usize {
        if rows {
            t
        } else {
            self.dim(true).cuts.len() + t
        }
    }

    fn dim(&self, rows: bool) -> &Dim {
        &self.dims[usize::from(!rows)]
    }

    /// Every cut: the row cuts, then the column cuts.
    pub fn cuts(&self) -> impl Iterator<Item = Cut> + '_ {
        let n = |rows| self.dim(rows).cuts.len();
        (0..n(true)).map(|t| (true, t)).chain((0..n(false)).map(|t| (false, t)))
    }

    /// The cut whose rule, in the state `dom`, fixes exactly the variables `changed` (how an
    /// explanation finds the cut of a logged step).
    pub fn cut_of(&self, changed: &[VarId], dom: &dyn Fn(VarId) -> Domain) -> Option<Cut> {
        // A cell joining the path changes every cut: any cut may be the one.
        self.unit_fixing(&self.units(), changed, dom)
    }

    fn line(&self, d: &Dim, i: usize, dom: &dyn Fn(VarId) -> Domain) -> LineFacts {
        let along = d.along[i].iter().filter(|&&v| dom(v) == Domain::single(TRUE)).count() as i64;
        let ends = d.ends_in[i];
        match d.counts[i] {
            Some(k) => LineFacts {
                max: i64::from(k),
                min: i64::from(k),
                along,
                ends,
            },
            None => {
                let (mut used, mut open) = (0, 0);
                for &v in &d.cells[i] {
                    let x = dom(v);
                    if x == Domain::single(TRUE) {
                        used += 1;
                    } else if !x.is_single() {
                        open += 1;
                    }
                }
                LineFacts {
                    max: used + open,
                    min: used,
                    along,
                    ends,
                }
            }
        }
    }

    /// The first line of `range` known to be visited: its clue is positive, it holds an end,
    /// or one of its cells is used (then that cell is returned as the witness).
    fn visited_in(
        &self,
        d: &Dim,
        range: std::ops::Range<usize>,
        dom: &dyn Fn(VarId) -> Domain,
    ) -> Option<Option<VarId>> {
        for i in range {
            if d.counts[i].is_some_and(|k| k > 0) || d.ends_in[i] > 0 {
                return Some(None);
            }
            if let Some(&v) = d.cells[i].iter().find(|&&v| dom(v) == Domain::single(TRUE)) {
                return Some(Some(v));
            }
        }
        None
    }

    fn cut(&self, d: &Dim, t: usize, dom: &dyn Fn(VarId) -> Domain, witnesses: &mut Vec<VarId>) -> CutFacts {
        let (mut lines, mut open) = (0, 0);
        for &v in &d.cuts[t] {
            let x = dom(v);
            if x == Domain::single(TRUE) {
                lines += 1;
            } else if !x.is_single() {
                open += 1;
            }
        }
        let n = d.cells.len();
        let odd = d.odd[t];
        let mut both = false;
        if !odd {
            if let (Some(x), Some(y)) = (self.visited_in(d, 0..t + 1, dom), self.visited_in(d, t + 1..n, dom)) {
                both = true;
                witnesses.extend(x);
                witnesses.extend(y);
            }
        }
        CutFacts {
            lines,
            open: lines + open,
            odd,
            both,
        }
    }

    /// The bounds of cut `t` and the witnesses of "both sides visited" they used.
    fn bounds_with(&self, (rows, t): Cut, dom: &dyn Fn(VarId) -> Domain) -> (CutBounds, Vec<VarId>) {
        let d = self.dim(rows);
        let mut witnesses = Vec::new();
        let (above, below) = (self.line(d, t, dom), self.line(d, t + 1, dom));
        let me = self.cut(d, t, dom, &mut witnesses);
        // The neighbouring cuts' own bounds (a missing cut, beyond the grid, is crossed 0 times).
        let mut side = |k: Option<usize>| match k {
            Some(k) if k < d.cuts.len() => {
                let f = self.cut(d, k, dom, &mut witnesses);
                let (a, b) = (self.line(d, k, dom), self.line(d, k + 1, dom));
                (f.lo(), f.open.min(a.max).min(b.max))
            }
            _ => (0, 0),
        };
        let (prev_lo, prev_hi) = side(t.checked_sub(1));
        let (next_lo, next_hi) = side(Some(t + 1));
        let mut hi = me
            .open
            .min(above.max)
            .min(below.max)
            .min(above.ends_hi() - prev_lo)
            .min(below.ends_hi() - next_lo);
        let mut lo = me.lo().max(above.ends_lo() - prev_hi).max(below.ends_lo() - next_hi);
        let want = i64::from(me.odd);
        if lo.rem_euclid(2) != want {
            lo += 1;
        }
        if hi.rem_euclid(2) != want {
            hi -= 1;
        }
        (
            CutBounds {
                lo,
                hi,
                lines: me.lines,
                not_blank: me.open,
            },
            witnesses,
        )
    }

    /// The bounds of a cut's crossings in the state `dom`.
    pub fn bounds(&self, cut: Cut, dom: &dyn Fn(VarId) -> Domain) -> CutBounds {
        self.bounds_with(cut, dom).0
    }

    /// The rule on one cut: `Err` when its bounds cross, `Ok(None)` when it fixes nothing.
    pub fn deduce(&self, cut: Cut, dom: &dyn Fn(VarId) -> Domain) -> Result<Option<CutDeduction>, Conflict> {
        let (rows, t) = cut;
        let d = self.dim(rows);
        let (b, witnesses) = self.bounds_with(cut, dom);
        if b.lo > b.hi {
            return Err(Conflict);
        }
        let open = |v: &&VarId| !dom(**v).is_single();
        let mut set: Vec<(VarId, u32)> = Vec::new();
        if b.hi == b.lines {
            set.extend(d.cuts[t].iter().filter(open).map(|&v| (v, FALSE)));
        } else if b.lo == b.not_blank {
            set.extend(d.cuts[t].iter().filter(open).map(|&v| (v, TRUE)));
        }
        let ends_total: i64 = d.ends_in.iter().sum();
        if b.hi == 0 && !d.odd[t] && ends_total == 2 {
            // Both ends lie on one side; the other side is never reached.
            let before: i64 = d.ends_in[..=t].iter().sum();
            let lines = if before == 0 { 0..t + 1 } else { t + 1..d.cells.len() };
            for i in lines {
                set.extend(d.cells[i].iter().filter(open).map(|&v| (v, FALSE)));
            }
        }
        if set.is_empty() {
            return Ok(None);
        }
        // What the bounds read: the cuts t−1..=t+1, the lines along rows t and t+1, the cells
        // of the unclued rows t−1..=t+2, and the witnesses of visited sides.
        let mut vars: Vec<VarId> = Vec::new();
        for k in t.saturating_sub(1)..(t + 2).min(d.cuts.len()) {
            vars.extend(&d.cuts[k]);
        }
        for i in t..t + 2 {
            vars.extend(d.along[i].iter().filter(|&&v| dom(v) == Domain::single(TRUE)));
        }
        for i in t.saturating_sub(1)..(t + 3).min(d.cells.len()) {
            if d.counts[i].is_none() {
                vars.extend(&d.cells[i]);
            }
        }
        vars.extend(witnesses);
        let mut premises: Vec<Premise> = Vec::new();
        for v in vars {
            if let Some(x) = dom(v).value() {
                if !premises.iter().any(|p| p.var == v) {
                    premises.push(Premise::is(v, x));
                }
            }
        }
        Ok(Some(CutDeduction { premises, set }))
    }

    /// The cut in words: `between rows 3 and 4`.
    pub fn cut_name(&self, (rows, t): Cut) -> String {
        let w = self.dim(rows).word;
        format!("between {w}s {} and {}", t + 1, t + 2)
    }

    /// The rule on a cut in words, in the state before its step: the bounds and why.
    pub fn describe(&self, cut: Cut, dom: &dyn Fn(VarId) -> Domain) -> String {
        let (rows, t) = cut;
        let d = self.dim(rows);
        let b = self.bounds(cut, dom);
        let clue = |i: usize| match d.counts[i] {
            Some(k) => format!("{} {} has {k} path cells", d.word, i + 1),
            None => format!(
                "{} {} has at most {} path cells",
                d.word,
                i + 1,
                self.line(d, i, dom).max
            ),
        };
        let parity = if d.odd[t] {
            "an odd number of times (it separates the doors)"
        } else {
            "an even number of times"
        };
        let times = |n: i64| {
            if n == 1 {
                "once".to_string()
            } else {
                format!("{n} times")
            }
        };
        let count = if b.lo == b.hi {
            format!("exactly {}", times(b.lo))
        } else if b.hi == b.lines {
            format!("at most {}", times(b.hi))
        } else {
            format!("at least {}", times(b.lo))
        };
        format!(
            "the path crosses {} {parity}, each time through its own path cell on each side, and every stretch of path cells along a {} leaves it up or down at both ends ({}; {}): it crosses {count}, and {} of its {} links are lines",
            self.cut_name(cut),
            d.word,
            clue(t),
            clue(t + 1),
            b.lines,
            d.cuts[t].len(),
        )
    }
}

/// A line rule's conclusion: the premises and the values it sets.
pub(super) type Conclusion = (Vec<Premise>, Vec<(VarId, u32)>);

/// What a line rule's `deduce` gives: its conclusion, if any.
pub(super) type Found = Option<Conclusion>;

/// Runs a line rule's `deduce` on each of `items` in turn on the current domains, logging
/// each conclusion with its premises and applying it.
pub(super) fn apply_each<T: Copy>(
    cx: &mut Context,
    items: &[T],
    deduce: impl Fn(T, &dyn Fn(VarId) -> Domain) -> Result<Found, Conflict>,
) -> Result<(), Conflict> {
    for &item in items {
        if cx.should_stop() {
            return Ok(());
        }
        let found = {
            let dom = |v: VarId| cx.dom(v);
            deduce(item, &dom)?
        };
        let Some((premises, set)) = found else { continue };
        if cx.explaining() {
            cx.because(premises);
        }
        for (v, value) in set {
            cx.assign(v, value)?;
        }
    }
    Ok(())
}

/// The set-up shared by the root-only line rules (crossings, ways, pairs): one trailed dirty
/// flag per unit (cut, line, pair of lines), raised at first, and a watch on every variable
/// that belongs to some unit (`of[v]`: the units of variable `v`).
pub(super) fn dirty_flags<U>(init: &mut Init, units: usize, of: &[Vec<U>]) -> Vec<IntId> {
    for (i, us) in of.iter().enumerate() {
        if !us.is_empty() {
            init.watch(VarId::from_index(i), i as u32);
        }
    }
    (0..units).map(|_| init.int(1)).collect()
}

/// Raises a unit's dirty flag ([`dirty_flags`]) unless it is up already.
pub(super) fn raise(ints: &mut Ints, flag: IntId) {
    if ints.get(flag) == 0 {
        ints.set(flag, 1);
    }
}

/// A line rule over units (cuts, lines, pairs of lines) that runs at the root, or within the
/// first [`UnitRule::depth`] levels below it, each unit with a trailed dirty flag
/// ([`dirty_flags`]): crossings, ways and pairs share their runs through it.
pub(super) trait UnitRule {
    /// A cut, a line or a pair of lines.
    type Unit: Copy;
    /// Every unit, in order.
    fn units(&self) -> Vec<Self::Unit>;
    /// The units variable `var` (a watch tag) belongs to.
    fn units_of(&self, var: usize) -> &[Self::Unit];
    /// A unit's dirty flag.
    fn flag(&self, unit: Self::Unit) -> IntId;
    /// What the rule concludes on one unit from the domains `dom`.
    fn found(&self, unit: Self::Unit, dom: &dyn Fn(VarId) -> Domain) -> Result<Found, Conflict>;
    /// How many levels below the root the rule still runs (0: at the root only, the
    /// explanations' rules).
    fn depth(&self) -> usize {
        0
    }

    /// [`Propagator::notify`]: within [`UnitRule::depth`] of the root, raises the flags of the
    /// units of `var`; deeper nothing is remembered (undone before the rule runs again).
    fn raise_units_of(&self, ints: &mut Ints, var: usize) -> bool {
        if ints.below_root() > self.depth() {
            return false;
        }
        for &u in self.units_of(var) {
            raise(ints, self.flag(u));
        }
        true
    }

    /// Of `candidates`, the unit whose rule, in the state `dom`, fixes exactly the variables
    /// `changed` (which unit a logged step was about, for its sentence).
    fn unit_fixing(
        &self,
        candidates: &[Self::Unit],
        changed: &[VarId],
        dom: &dyn Fn(VarId) -> Domain,
    ) -> Option<Self::Unit> {
        candidates.iter().copied().find(|&u| {
            self.found(u, dom)
                .ok()
                .flatten()
                .is_some_and(|(_, set)| set.len() == changed.len() && set.iter().all(|(v, _)| changed.contains(v)))
        })
    }

    /// At the root only: works out every unit (`all`, a run from scratch) or those whose flag
    /// is up, clearing their flags first (what the run changes raises them again, through
    /// [`Propagator::notify`]).
    fn run_units(&self, cx: &mut Context, all: bool) -> Result<(), Conflict> {
        if cx.below_root() > self.depth() {
            return Ok(());
        }
        let units: Vec<Self::Unit> = self
            .units()
            .into_iter()
            .filter(|&u| all || cx.int(self.flag(u)) != 0)
            .collect();
        for &u in &units {
            cx.set_int(self.flag(u), 0);
        }
        apply_each(cx, &units, |u, dom| self.found(u, dom))
    }
}

impl UnitRule for Crossings {
    type Unit = Cut;
    fn units(&self) -> Vec<Cut> {
        self.cuts().collect()
    }
    fn units_of(&self, var: usize) -> &[Cut] {
        &self.of[var]
    }
    fn flag(&self, cut: Cut) -> IntId {
        self.dirty[self.index(cut)]
    }
    fn found(&self, cut: Cut, dom: &dyn Fn(VarId) -> Domain) -> Result<Found, Conflict> {
        Ok(self.deduce(cut, dom)?.map(|x| (x.premises, x.set)))
    }
}

impl Propagator for Crossings {
    fn name(&self) -> &'static str {
        "crossings"
    }
    fn init(&mut self, init: &mut Init) {
        self.dirty = dirty_flags(init, self.cuts().count(), &self.of);
    }
    fn notify(&mut self, ints: &mut Ints, tag: u32, _old: Domain, new: Domain) -> bool {
        // A cell joining the path changes every cut's count.
        if ints.at_root() && self.is_cell[tag as usize] && new == Domain::single(TRUE) {
            for &id in &self.dirty {
                raise(ints, id);
            }
            return true;
        }
        self.raise_units_of(ints, tag as usize)
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        self.run_units(cx, true)
    }
    fn incremental(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        self.run_units(cx, false)
    }
    fn encode(&self, _enc: &mut Encoder) -> Encoded {
        Encoded::Implied
    }
    fn priority(&self) -> Priority {
        Priority::Global
    }
}
