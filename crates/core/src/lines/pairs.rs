//! `pairs`: two neighbouring rows (or columns) solved together, as a person reads a clue
//! line against the next one — every way to choose the two lines' path cells and their links
//! that fits both clues, the cells' lines, the crossing parities of the three cuts they touch
//! and closes no loop inside the two lines; a value no such way has is ruled out.
//!
//! The variables of the pair of rows `t` and `t + 1` are their cells, the links along each,
//! the links between them (cut `t`), and the links up from row `t` and down from row `t + 1`.
//! A way is a value for each of them, within its domain, such that every cell has its lines
//! (an unused one none, a used one two, an end of the path one), each row's used cells number
//! its clue, the links up, between and down cross their cuts an odd number of times exactly
//! when the cut separates the path's ends, and the links chosen inside the two rows form no
//! cycle. It extends [`super::ways`] (one line) by what one line cannot see: a stretch in one
//! row whose ends the next row's clue or cells decide, and a loop the two rows would close.
//!
//! The ways are counted by dynamic programming along the rows (state: the links from the
//! left in each row, the three parities so far, and whether the two stretches entering from
//! the left are already joined inside the pair, each state holding the set of count pairs
//! that reach it as a bit mask), forwards and backwards: `O(n)` mask operations for rows of
//! `n` cells. [`Pairs::deduce`] is the rule on one pair as a pure function of the domains.

use super::crossings::{dims, dirty_flags, Cut, Dim, Found, UnitRule};
use super::ways::{settle, val, Choice, SHAPES};
use crate::bitword::BitWord;
use crate::constraints::PathVars;
use crate::domain::Domain;
use crate::encode::{Encoded, Encoder};
use crate::engine::{Conflict, Context, Init, IntId, Ints, Premise, Priority, Propagator, VarId, FALSE, TRUE};
use crate::grid::CellId;

/// One column of a pair: the two cells and their links.
#[derive(Clone, Copy, Debug)]
struct Column {
    a: VarId,
    b: VarId,
    /// The links to the next column, in the first line and in the second.
    next_a: Option<VarId>,
    next_b: Option<VarId>,
    up: Option<VarId>,
    mid: VarId,
    down: Option<VarId>,
    degree_a: u8,
    degree_b: u8,
}

impl Column {
    /// The column's variables, in the order of [`Pairs::supported`]'s values.
    fn vars(&self) -> [Option<VarId>; 7] {
        [
            Some(self.a),
            self.next_a,
            self.up,
            Some(self.mid),
            Some(self.b),
            self.next_b,
            self.down,
        ]
    }
}

/// What the rule concludes on one pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairDeduction {
    /// The fixed variables the ways were read from.
    pub premises: Vec<Premise>,
    /// The variables it fixes, with their values.
    pub set: Vec<(VarId, u32)>,
}

/// The `pairs` rule over every two neighbouring rows and columns of a line model (see the
/// module docs). Like [`super::ways::Ways`], a person's deduction for an explanation: it runs
/// at the root (decision level 0), incrementally (a trailed dirty flag per pair); a solver
/// can let it run in the first levels of its search too ([`Pairs::with_depth`]).
#[derive(Clone, Debug)]
pub struct Pairs {
    dims: [Dim; 2],
    /// For each variable (by index), the pairs it belongs to.
    of: Vec<Vec<Cut>>,
    /// Each pair's dirty flag (row pairs, then column pairs), once posted.
    dirty: Vec<IntId>,
    /// How many levels below the root it still runs.
    depth: usize,
    /// Each pair's columns (by [`Pairs::index`]).
    cols: Vec<Vec<Column>>,
}

/// The choices of a column whose cells have degrees `da` and `db` (1 for an end of the path,
/// else 2): a shape of the first cell and one of the second that agree on the link between
/// them, ordered by the links from the left they need (`x.left << 1 | y.left`), with where
/// each of the four groups starts (the fifth entry: the end).
const fn combos(da: u8, db: u8) -> ([(Choice, Choice); 49], [usize; 5]) {
    let mut out = [(Choice::NONE, Choice::NONE); 49];
    let mut starts = [0usize; 5];
    let (sa, la) = SHAPES[da as usize];
    let (sb, lb) = SHAPES[db as usize];
    let mut len = 0;
    let mut k = 0;
    while k < 4 {
        starts[k] = len;
        let mut i = 0;
        while i < la {
            let mut j = 0;
            while j < lb {
                let (x, y) = (sa[i], sb[j]);
                if (x.left << 1 | y.left) as usize == k && y.u == x.dn {
                    out[len] = (x, y);
                    len += 1;
                }
                j += 1;
            }
            i += 1;
        }
        k += 1;
    }
    starts[4] = len;
    (out, starts)
}

/// [`combos`] for the degrees 1 and 2 of the two cells.
#[allow(clippy::type_complexity)]
static COMBOS: [[([(Choice, Choice); 49], [usize; 5]); 2]; 2] =
    [[combos(1, 1), combos(1, 2)], [combos(2, 1), combos(2, 2)]];

/// The largest number of count pairs a state's mask holds.
const MASK_BITS: usize = 128;

/// How many counts a line's clue `k` takes in a mask: `0..=k`, or one (nothing counted).
fn slots(k: Option<usize>) -> usize {
    k.map_or(1, |k| k + 1)
}

impl Pairs {
    /// The rule for a line on `vars` between `ends` (`None`: a closed loop), with the count
    /// clues of the rows and the columns.
    pub fn new(vars: &PathVars, ends: Option<(CellId, CellId)>, rows: &[Option<u32>], cols: &[Option<u32>]) -> Self {
        let mut p = Pairs {
            dims: dims(vars, ends, rows, cols),
            of: Vec::new(),
            dirty: Vec::new(),
            depth: 0,
            cols: Vec::new(),
        };
        let max = vars
            .link
            .iter()
            .chain(&vars.cell)
            .map(|v| v.index())
            .max()
            .map_or(0, |m| m + 1);
        p.of = vec![Vec::new(); max];
        for pair in p.pairs().collect::<Vec<_>>() {
            let cols = p.columns(pair);
            for col in &cols {
                for v in col.vars().into_iter().flatten() {
                    if !p.of[v.index()].contains(&pair) {
                        p.of[v.index()].push(pair);
                    }
                }
            }
            p.cols.push(cols);
        }
        p
    }

    /// The rule running in the first `depth` levels below the root as well (a search's first
    /// decisions, where one deduction cuts the largest subtrees), not only at the root.
    pub fn with_depth(mut self, depth: usize) -> Self {
        self.depth = depth;
        self
    }

    fn dim(&self, rows: bool) -> &Dim {
        &self.dims[usize::from(!rows)]
    }

    /// Every pair `(rows, t)` (lines `t` and `t + 1`): the rows, then the columns.
    pub fn pairs(&self) -> impl Iterator<Item = Cut> + '_ {
        let n = |rows| self.dim(rows).cuts.len();
        (0..n(true)).map(|t| (true, t)).chain((0..n(false)).map(|t| (false, t)))
    }

    fn index(&self, (rows, t): Cut) -> usize {
        if rows {
            t
        } else {
            self.dim(true).cuts.len() + t
        }
    }

    fn columns(&self, (rows, t): Cut) -> Vec<Column> {
        let d = self.dim(rows);
        (0..d.cells[t].len())
            .map(|j| Column {
                a: d.cells[t][j],
                b: d.cells[t + 1][j],
                next_a: d.along[t].get(j).copied(),
                next_b: d.along[t + 1].get(j).copied(),
                up: t.checked_sub(1).map(|s| d.cuts[s][j]),
                mid: d.cuts[t][j],
                down: d.cuts.get(t + 1).map(|c| c[j]),
                degree_a: if d.is_end[t][j] { 1 } else { 2 },
                degree_b: if d.is_end[t + 1][j] { 1 } else { 2 },
            })
            .collect()
    }

    /// The values of every variable of the pair that some way takes; `None` when no way
    /// fits. Count pairs `(a, b)` sit at bit `a · sb + b` (`sb`: the second clue plus one);
    /// when the two clues need more than [`MASK_BITS`] bits, the larger clue is left out (a
    /// relaxation whose conclusions still hold).
    fn supported(&self, pair: Cut, dom: &dyn Fn(VarId) -> Domain) -> Option<Vec<(VarId, Domain)>> {
        let (ka, kb) = self.counted(pair);
        if slots(ka) * slots(kb) <= 64 {
            self.ways::<u64>(pair, (ka, kb), dom)
        } else {
            self.ways::<u128>(pair, (ka, kb), dom)
        }
    }

    /// The two lines' clues the masks count (`None`: not counted): both when their count pairs
    /// fit in [`MASK_BITS`], else the larger left out (a relaxation whose conclusions still
    /// hold).
    fn counted(&self, (rows, t): Cut) -> (Option<usize>, Option<usize>) {
        let d = self.dim(rows);
        let (mut ka, mut kb) = (d.counts[t].map(|k| k as usize), d.counts[t + 1].map(|k| k as usize));
        while slots(ka) * slots(kb) > MASK_BITS {
            if slots(ka) >= slots(kb) {
                ka = None;
            } else {
                kb = None;
            }
        }
        (ka, kb)
    }

    /// [`Pairs::supported`] with the count pairs (the clues `ka` and `kb`, `None`: left out)
    /// in masks of type `M`.
    fn ways<M: BitWord>(
        &self,
        (rows, t): Cut,
        (ka, kb): (Option<usize>, Option<usize>),
        dom: &dyn Fn(VarId) -> Domain,
    ) -> Option<Vec<(VarId, Domain)>> {
        let d = self.dim(rows);
        let cols = &self.cols[self.index((rows, t))];
        let n = cols.len();
        // (A mask of `sa × sb` count pairs fits in `M`: [`Pairs::supported`] chose it.)
        let (sa, sb) = (slots(ka) as u32, slots(kb) as u32);
        let cap = if sa * sb == M::BITS {
            !M::ZERO
        } else {
            (M::ONE << (sa * sb)) - M::ONE
        };
        // The counts whose second line is not yet at its clue (may take one more cell).
        let mut room_b = M::ZERO;
        for x in 0..sa {
            for y in 0..sb.saturating_sub(1) {
                room_b |= M::ONE << (x * sb + y);
            }
        }
        let add = |mask: M, ca: u8, cb: u8| -> M {
            let mut m = mask;
            if cb == 1 && kb.is_some() {
                m = (m & room_b) << 1;
            }
            if ca == 1 && ka.is_some() {
                m = (m << sb) & cap;
            }
            m
        };
        // The inverse: the counts before a column from those after it.
        let unadd = |mask: M, ca: u8, cb: u8| -> M {
            let mut m = mask;
            if ca == 1 && ka.is_some() {
                m = m >> sb;
            }
            if cb == 1 && kb.is_some() {
                m = (m >> 1) & room_b;
            }
            m
        };
        let pu = t.checked_sub(1).map(|s| d.odd[s]);
        let pm = d.odd[t];
        let pd = d.odd.get(t + 1).copied();
        let allowed = |v: Option<VarId>| match v {
            Some(v) => {
                let x = dom(v);
                u8::from(x.contains(FALSE)) | u8::from(x.contains(TRUE)) << 1
            }
            None => 1,
        };
        let fits = |mask: u8, x: u8| mask >> x & 1 == 1;
        // Each column's choices: a shape of its first cell (its `dn` is the link between)
        // and of its second (its `u`), agreeing on that link ([`COMBOS`]), that the domains
        // allow; grouped by the links from the left they need (bucket `k = x.left << 1 |
        // y.left`), all columns in one list (`at[j][k]..at[j][k + 1]`; at most 49 a column, so
        // a `u64` marks those used).
        let mut all: Vec<(Choice, Choice)> = Vec::with_capacity(16 * n);
        let mut at: Vec<[usize; 5]> = Vec::with_capacity(n);
        for c in cols {
            let [a, na, up, mid, b, nb, down] = c.vars().map(allowed);
            let (combos, starts_of) = &COMBOS[usize::from(c.degree_a - 1)][usize::from(c.degree_b - 1)];
            let mut starts = [all.len(); 5];
            for k in 0..4 {
                starts[k] = all.len();
                for &(x, y) in &combos[starts_of[k]..starts_of[k + 1]] {
                    if fits(a, x.c)
                        && fits(na, x.nx)
                        && fits(up, x.u)
                        && fits(mid, x.dn)
                        && fits(b, y.c)
                        && fits(nb, y.nx)
                        && fits(down, y.dn)
                    {
                        all.push((x, y));
                    }
                }
            }
            starts[4] = all.len();
            at.push(starts);
        }
        let choices = |j: usize, s: usize| {
            let k = s >> 4 & 3;
            &all[at[j][k]..at[j][k + 1]]
        };
        // State: left links (a, b), parities (up, between, down), joined.
        let state = |la: u8, lb: u8, p: u8, joined: u8| usize::from(la << 5 | lb << 4 | p << 1 | joined);
        // The next state of a choice from state `s`; `None` when it closes a loop.
        let step = |x: &Choice, y: &Choice, s: usize| -> Option<usize> {
            let (p, joined) = ((s >> 1 & 7) as u8, (s & 1) as u8);
            let mid = x.dn;
            let both = x.left == 1 && y.left == 1 && joined == 1;
            if mid == 1 && both {
                return None;
            }
            let same = mid == 1 || both;
            let joined = u8::from(x.nx == 1 && y.nx == 1 && same);
            let p = p ^ (x.u << 2 | mid << 1 | y.dn);
            Some(state(x.nx, y.nx, p, joined))
        };
        let mut fwd = vec![[M::ZERO; 64]; n + 1];
        // The states each column is reached in (a bit per state).
        let mut live = vec![0u64; n + 1];
        fwd[0][state(0, 0, 0, 0)] = M::ONE;
        live[0] = 1 << state(0, 0, 0, 0);
        for j in 0..n {
            let mut m = live[j];
            while m != 0 {
                let s = m.trailing_zeros() as usize;
                m &= m - 1;
                let from = fwd[j][s];
                for (x, y) in choices(j, s) {
                    if let Some(to) = step(x, y, s) {
                        let got = add(from, x.c, y.c);
                        if got != M::ZERO {
                            fwd[j + 1][to] |= got;
                            live[j + 1] |= 1 << to;
                        }
                    }
                }
            }
        }
        let mut bwd = vec![[M::ZERO; 64]; n + 1];
        let end = M::ONE << (ka.unwrap_or(0) as u32 * sb + kb.unwrap_or(0) as u32);
        for p in 0..8u8 {
            let ok = pu.is_none_or(|q| (p >> 2 & 1 == 1) == q)
                && (p >> 1 & 1 == 1) == pm
                && pd.is_none_or(|q| (p & 1 == 1) == q);
            if ok {
                bwd[n][state(0, 0, p, 0)] = end;
            }
        }
        // Backwards, only from the states the forward pass reaches (no way passes the others).
        // The choices some way takes, per column (a bit per choice, from the column's first).
        let mut used = vec![0u64; n];
        for j in (0..n).rev() {
            let mut m = live[j];
            while m != 0 {
                let s = m.trailing_zeros() as usize;
                m &= m - 1;
                let from = fwd[j][s];
                let k = s >> 4 & 3;
                let range = at[j][k]..at[j][k + 1];
                for (i, (x, y)) in range.clone().zip(&all[range]) {
                    let Some(to) = step(x, y, s) else { continue };
                    let next = bwd[j + 1][to];
                    if next == M::ZERO {
                        continue;
                    }
                    // The counts here from which this choice reaches the end.
                    let back = unadd(next, x.c, y.c);
                    bwd[j][s] |= back;
                    if from & back != M::ZERO {
                        used[j] |= 1 << (i - at[j][0]);
                    }
                }
            }
        }
        if bwd[0][state(0, 0, 0, 0)] & M::ONE == M::ZERO {
            return None;
        }
        let mut out = Vec::with_capacity(7 * n);
        for (j, c) in cols.iter().enumerate() {
            let mut seen = [0u8; 7];
            let mut u = used[j];
            while u != 0 {
                let (x, y) = &all[at[j][0] + u.trailing_zeros() as usize];
                u &= u - 1;
                for (m, v) in [x.c, x.nx, x.u, x.dn, y.c, y.nx, y.dn].into_iter().enumerate() {
                    seen[m] |= 1 << v;
                }
            }
            for (m, v) in c.vars().into_iter().enumerate() {
                if let Some(v) = v {
                    let mut x = Domain::EMPTY;
                    for b in 0..2 {
                        if seen[m] >> b & 1 == 1 {
                            x.insert(val(b));
                        }
                    }
                    out.push((v, x));
                }
            }
        }
        Some(out)
    }

    /// The rule on one pair: `Err` when no way fits, `Ok(None)` when it fixes nothing.
    pub fn deduce(&self, pair: Cut, dom: &dyn Fn(VarId) -> Domain) -> Result<Option<PairDeduction>, Conflict> {
        let sup = self.supported(pair, dom).ok_or(Conflict)?;
        let (premises, set) = settle(&sup, dom)?;
        Ok((!set.is_empty()).then_some(PairDeduction { premises, set }))
    }

    /// The pair whose rule, in the state `dom`, fixes exactly the variables `changed`.
    pub fn pair_of(&self, changed: &[VarId], dom: &dyn Fn(VarId) -> Domain) -> Option<Cut> {
        let first = changed.first()?;
        self.unit_fixing(self.units_of(first.index()), changed, dom)
    }

    /// The rule on a pair in words.
    pub fn describe(&self, (rows, t): Cut) -> String {
        let d = self.dim(rows);
        let w = d.word;
        let clue = |i: usize| match d.counts[i] {
            Some(k) => format!("{k}"),
            None => "its".to_string(),
        };
        let mut cuts = Vec::new();
        let parity = |s: usize| if d.odd[s] { "an odd" } else { "an even" };
        if let Some(s) = t.checked_sub(1) {
            cuts.push(format!("{} number of times above", parity(s)));
        }
        cuts.push(format!("{} number of times between them", parity(t)));
        if t + 1 < d.odd.len() {
            cuts.push(format!("{} number of times below", parity(t + 1)));
        }
        format!(
            "{w}s {} and {} together: every way to place their path cells ({} and {}) so that each gets its lines from links still open, crossing {}, with no loop inside the two {w}s, agrees on these",
            t + 1,
            t + 2,
            clue(t),
            clue(t + 1),
            cuts.join(", ")
        )
    }
}

impl UnitRule for Pairs {
    type Unit = Cut;
    fn units(&self) -> Vec<Cut> {
        self.pairs().collect()
    }
    fn units_of(&self, var: usize) -> &[Cut] {
        &self.of[var]
    }
    fn flag(&self, pair: Cut) -> IntId {
        self.dirty[self.index(pair)]
    }
    fn found(&self, pair: Cut, dom: &dyn Fn(VarId) -> Domain) -> Result<Found, Conflict> {
        Ok(self.deduce(pair, dom)?.map(|x| (x.premises, x.set)))
    }
    fn depth(&self) -> usize {
        self.depth
    }
}

impl Propagator for Pairs {
    fn name(&self) -> &'static str {
        "pairs"
    }
    fn init(&mut self, init: &mut Init) {
        self.dirty = dirty_flags(init, self.pairs().count(), &self.of);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::grid::Shape;
    use proptest::prelude::*;

    /// Every value of every variable of `pair` that some way takes, by enumerating the
    /// assignments of its open variables and checking the definition directly (degrees,
    /// clues, the three parities, no cycle among the links chosen inside the pair).
    fn brute(p: &Pairs, pair: Cut, dom: &dyn Fn(VarId) -> Domain) -> Option<Vec<(VarId, Domain)>> {
        let (rows, t) = pair;
        let d = p.dim(rows);
        let cols = p.columns(pair);
        let vars: Vec<VarId> = cols.iter().flat_map(|c| c.vars()).flatten().collect();
        let open: Vec<usize> = (0..vars.len()).filter(|&k| !dom(vars[k]).is_single()).collect();
        let mut seen = vec![Domain::EMPTY; vars.len()];
        let mut any = false;
        for bits in 0u64..1 << open.len() {
            let mut x: Vec<u32> = vars
                .iter()
                .map(|&v| dom(v).value().map_or(0, |y| u32::from(y == TRUE)))
                .collect();
            if vars.iter().any(|&v| dom(v).is_empty()) {
                return None;
            }
            for (b, &k) in open.iter().enumerate() {
                x[k] = ((bits >> b) & 1) as u32;
            }
            let at = |v: Option<VarId>| v.map_or(0, |v| x[vars.iter().position(|&u| u == v).unwrap()]);
            let mut ok = true;
            let (mut used_a, mut used_b, mut ups, mut mids, mut downs) = (0, 0, 0, 0, 0);
            // Union-find over the pair's cells (a: j, b: n + j) for cycles.
            let n = cols.len();
            let mut parent: Vec<usize> = (0..2 * n).collect();
            fn find(p: &mut [usize], mut i: usize) -> usize {
                while p[i] != i {
                    i = p[i];
                }
                i
            }
            let join = |p: &mut Vec<usize>, i: usize, j: usize| -> bool {
                let (a, b) = (find(p, i), find(p, j));
                p[a] = b;
                a != b
            };
            for (j, c) in cols.iter().enumerate() {
                let left_a = if j > 0 { at(cols[j - 1].next_a) } else { 0 };
                let left_b = if j > 0 { at(cols[j - 1].next_b) } else { 0 };
                let deg_a = left_a + at(c.next_a) + at(c.up) + at(Some(c.mid));
                let deg_b = left_b + at(c.next_b) + at(c.down) + at(Some(c.mid));
                let (ca, cb) = (at(Some(c.a)), at(Some(c.b)));
                ok &= if ca == 1 {
                    deg_a == u32::from(c.degree_a)
                } else {
                    deg_a == 0
                };
                ok &= if cb == 1 {
                    deg_b == u32::from(c.degree_b)
                } else {
                    deg_b == 0
                };
                used_a += ca;
                used_b += cb;
                ups += at(c.up);
                mids += at(Some(c.mid));
                downs += at(c.down);
                if at(c.next_a) == 1 {
                    ok &= join(&mut parent, j, j + 1);
                }
                if at(c.next_b) == 1 {
                    ok &= join(&mut parent, n + j, n + j + 1);
                }
                if at(Some(c.mid)) == 1 {
                    ok &= join(&mut parent, j, n + j);
                }
            }
            ok &= d.counts[t].is_none_or(|k| used_a == k);
            ok &= d.counts[t + 1].is_none_or(|k| used_b == k);
            ok &= t.checked_sub(1).is_none_or(|s| (ups % 2 == 1) == d.odd[s]);
            ok &= (mids % 2 == 1) == d.odd[t];
            ok &= d.odd.get(t + 1).is_none_or(|&q| (downs % 2 == 1) == q);
            if ok {
                any = true;
                for (k, s) in seen.iter_mut().enumerate() {
                    s.insert(val(x[k]));
                }
            }
        }
        any.then(|| vars.into_iter().zip(seen).collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 800, ..ProptestConfig::default() })]

        /// The dynamic programme finds exactly the values the ways of the definition take.
        #[test]
        fn pairs_agree_with_brute_force(
            h in 2usize..=4, w in 1usize..=4, t in 0usize..3, rows in any::<bool>(),
            clues in (proptest::option::of(0u32..=4), proptest::option::of(0u32..=4)),
            ends in (any::<usize>(), any::<usize>()),
            fixed in (any::<u64>(), any::<u64>()), values in any::<u64>(),
        ) {
            let shape = Shape::new(h, w);
            let mut e = Engine::new();
            let vars = PathVars::new(&mut e, shape);
            let edge: Vec<CellId> = shape.all().filter(|&c| shape.on_edge(c)).collect();
            let (a, b) = (edge[ends.0 % edge.len()], edge[ends.1 % edge.len()]);
            prop_assume!(a != b);
            let n = if rows { h } else { w };
            prop_assume!(n >= 2);
            let pair = (rows, t % (n - 1));
            let len = if rows { w } else { h };
            let clue = |k: Option<u32>| k.filter(|&k| k as usize <= len);
            let line_clues: Vec<Option<u32>> = (0..n)
                .map(|i| if i == pair.1 { clue(clues.0) } else if i == pair.1 + 1 { clue(clues.1) } else { None })
                .collect();
            let other = vec![None; len];
            let (rc, cc) = if rows { (line_clues, other) } else { (other, line_clues) };
            let pairs = Pairs::new(&vars, Some((a, b)), &rc, &cc);
            // Fix about a quarter of the variables (half when the pair is long, for the
            // enumeration's size): enough open ones that many states have ways.
            let fixed = if len >= 4 { fixed.0 } else { fixed.0 & fixed.1 };
            let dom = |v: VarId| {
                let k = v.index() % 64;
                if (fixed >> k) & 1 == 1 {
                    Domain::single(val(((values >> k) & 1) as u32))
                } else {
                    Domain::single(FALSE).or(Domain::single(TRUE))
                }
            };
            // The wide masks give what the narrow ones give.
            let counted = pairs.counted(pair);
            prop_assert_eq!(pairs.ways::<u128>(pair, counted, &dom), pairs.ways::<u64>(pair, counted, &dom));
            let mut fast = pairs.supported(pair, &dom);
            let mut slow = brute(&pairs, pair, &dom);
            for x in [&mut fast, &mut slow].into_iter().flatten() {
                x.sort_by_key(|&(v, _)| v.index());
            }
            prop_assert_eq!(fast, slow);
        }
    }
}
