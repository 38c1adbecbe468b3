//! Named Sudoku patterns as engine rules, tried before Nishio and the generic chains: fish
//! (X-Wing, Swordfish, Jellyfish), XY-Wing, XYZ-Wing and the unique rectangle of type 1.
//!
//! Each is a [`Propagator`] that applies the first instance it finds and returns, so the
//! explainer's ladder ([`pencilbox_core::human::Ladder`]) sends the run back to the simplest
//! rules after every pattern, as a person would. When explaining, each instance is also pushed
//! onto a shared [`PatternLog`] (in log order) with the data the [`crate::solver::Deducer`]
//! needs to write its sentence and the tests need to check it against the pattern's own
//! definition.
//!
//! | rule | definition (on the open cells: those with two or more candidates) |
//! |---|---|
//! | `x-wing`, `swordfish`, `jellyfish` | `k` = 2, 3, 4 base lines (rows, or columns) in which digit `d` has 2..=`k` places, all inside `k` cover lines (columns, or rows): `d` leaves the cover lines' other cells |
//! | `turbot-fish` | digit `d` has two places `a`, `b` in one unit and two places `c`, `e` in another, and `b` sees `c`: one of `a`, `e` holds `d`, so `d` leaves every cell that sees both (Skyscraper: two rows or two columns; 2-String Kite: a row and a column; Turbot Fish: a block) |
//! | `xy-wing` | a pivot `{x,y}` and two pincers `{x,z}`, `{y,z}` that see it: `z` leaves every cell that sees both pincers |
//! | `xyz-wing` | a pivot `{x,y,z}` and two pincers `{x,z}`, `{y,z}` that see it: `z` leaves every cell that sees all three |
//! | `wxyz-wing` | four cells with four digits between them, every digit but `z` on cells that all see each other: `z` leaves every cell that sees all the wing's cells holding it |
//! | `bug` | BUG+1: every open cell has two candidates but one with three, and every digit two places or none in every unit but one digit with three in that cell's units: the cell takes that digit (else the grid would have no solution or two) |
//! | `unique-rectangle` | four cells on two rows, two columns and two blocks, three of them `{a,b}` and the fourth holding `a`, `b` and more: `a` and `b` leave the fourth (else the four could swap `a` and `b`: a second solution) |
//!
//! The unique rectangle and BUG+1 are sound **only for a puzzle with one solution**: it is posted only
//! when [`crate::solver::RuleSet::uniqueness`] is on, which [`crate::explain::explain`] sets
//! after it has counted the solutions (never when solving or counting).

use crate::geometry::Geometry;
use pencilbox_core::encode::{Encoded, Encoder};
use pencilbox_core::engine::{Conflict, Context, Premise, Priority, Propagator, VarId};
use pencilbox_core::Domain;
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// One instance of a named pattern, as found (cells are indices, units are
/// [`Geometry`] unit indices: rows `0..n`, columns `n..2n`, blocks `2n..3n`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "pattern", rename_all = "kebab-case")]
pub enum Pattern {
    /// A fish of size `base.len()` on `digit`.
    Fish {
        /// The digit.
        digit: u8,
        /// The base lines (all rows or all columns).
        base: Vec<usize>,
        /// The cover lines (the other kind).
        cover: Vec<usize>,
    },
    /// An XY-Wing (`xyz: false`) or XYZ-Wing (`xyz: true`) removing `digit`.
    Wing {
        /// The pivot cell.
        pivot: usize,
        /// The two pincer cells.
        pincers: [usize; 2],
        /// The digit removed (`z`).
        digit: u8,
        /// An XYZ-Wing (the pivot holds `z` too).
        xyz: bool,
    },
    /// A WXYZ-Wing: four cells with four digits between them, each digit but `digit` on cells
    /// that all see each other; `digit` leaves every cell that sees all the wing's cells holding
    /// it.
    Wxyz {
        /// The four cells.
        cells: [usize; 4],
        /// The digit removed (`z`, the one whose cells do not all see each other).
        digit: u8,
    },
    /// A turbot fish on `digit` (Skyscraper: two rows or two columns; 2-String Kite: a row
    /// and a column; else Turbot Fish): `cells[0]`–`cells[1]` are the only places of the digit
    /// in `units[0]`, `cells[2]`–`cells[3]` in `units[1]`, and `cells[1]` sees `cells[2]`; one of
    /// `cells[0]`, `cells[3]` holds the digit.
    Turbot {
        /// The digit.
        digit: u8,
        /// The chain's four cells, in order.
        cells: [usize; 4],
        /// The units of the two strong links.
        units: [usize; 2],
    },
    /// A bivalue universal grave plus one (BUG+1): every open cell has two candidates but
    /// `cell`, which has three, and every digit has two places in each unit but `digit`, which
    /// has three in `cell`'s units: `cell` is `digit` (else no solution, or two).
    Bug {
        /// The one cell with three candidates.
        cell: usize,
        /// Its digit with three places in each of its units.
        digit: u8,
    },
    /// A unique rectangle of type 1.
    UniqueRectangle {
        /// The four corners (the target last).
        cells: [usize; 4],
        /// The two digits.
        digits: [u8; 2],
    },
}

/// The patterns found while explaining, oldest first (the deducer takes them in log order).
pub type PatternLog = Arc<Mutex<VecDeque<Pattern>>>;

/// Locks a pattern log (a poisoned lock still holds a sound log).
pub(crate) fn lock(log: &PatternLog) -> std::sync::MutexGuard<'_, VecDeque<Pattern>> {
    log.lock().unwrap_or_else(|e| e.into_inner())
}

/// The name of the fish of size `k`.
pub fn fish_name(k: usize) -> &'static str {
    match k {
        2 => "x-wing",
        3 => "swordfish",
        _ => "jellyfish",
    }
}

/// Two different cells that share a row, column or block.
pub fn sees(geo: &Geometry, a: usize, b: usize) -> bool {
    a != b && {
        let (ua, ub) = (geo.cell_units(a), geo.cell_units(b));
        ua.iter().zip(ub.iter()).any(|(x, y)| x == y)
    }
}

fn open(d: Domain) -> bool {
    d.len() >= 2
}

/// The fish rule of size `k` (2 X-Wing, 3 Swordfish, 4 Jellyfish).
pub struct FishRule {
    geo: Arc<Geometry>,
    k: usize,
    log: PatternLog,
}

impl FishRule {
    /// The rule of size `k` for a shape, logging to `log`.
    pub fn new(geo: Arc<Geometry>, k: usize, log: PatternLog) -> Self {
        FishRule { geo, k, log }
    }
}

/// A fish found: `(digit, base, cover, removals)`.
pub type FishHit = (u8, Vec<usize>, Vec<usize>, Vec<usize>);

/// A fish search's test of `k` chosen lines and their union: the removals, if any.
type FishTest<'a> = dyn FnMut(&[usize], u64) -> Option<Vec<usize>> + 'a;

/// The first fish of size `k` that removes something: `(digit, base, cover, removals)`.
pub fn find_fish(geo: &Geometry, doms: &[Domain], k: usize) -> Option<FishHit> {
    let n = geo.n();
    for d in 1..=n as u32 {
        for rows_base in [true, false] {
            // Per base line, the cover lines holding `d` in an open cell (as a bit mask).
            let line = |l: usize, x: usize| if rows_base { l * n + x } else { x * n + l };
            let masks: Vec<u64> = (0..n)
                .map(|l| {
                    (0..n)
                        .filter(|&x| {
                            let c = doms[line(l, x)];
                            open(c) && c.contains(d)
                        })
                        .fold(0u64, |m, x| m | 1 << x)
                })
                .collect();
            let lines: Vec<usize> = (0..n)
                .filter(|&l| (2..=k as u32).contains(&masks[l].count_ones()))
                .collect();
            let mut pick = Vec::with_capacity(k);
            if let Some(found) = fish_search(&lines, &masks, k, 0, 0, &mut pick, &mut |base, union| {
                let removals: Vec<usize> = (0..n)
                    .filter(|l| !base.contains(l))
                    .flat_map(|l| (0..n).filter(move |&x| union >> x & 1 == 1).map(move |x| line(l, x)))
                    .filter(|&c| open(doms[c]) && doms[c].contains(d))
                    .collect();
                (!removals.is_empty()).then_some(removals)
            }) {
                let (base, union, removals) = found;
                let cover: Vec<usize> = (0..n).filter(|&x| union >> x & 1 == 1).collect();
                let (base, cover) = if rows_base {
                    (base, cover.into_iter().map(|c| n + c).collect())
                } else {
                    (base.into_iter().map(|c| n + c).collect(), cover)
                };
                return Some((d as u8, base, cover, removals));
            }
        }
    }
    None
}

type FishFound = (Vec<usize>, u64, Vec<usize>);

/// Chooses `k` of `lines` (from index `from`) whose masks' union has `k` bits, and asks `test`
/// for its removals.
fn fish_search(
    lines: &[usize],
    masks: &[u64],
    k: usize,
    from: usize,
    union: u64,
    pick: &mut Vec<usize>,
    test: &mut FishTest,
) -> Option<FishFound> {
    if pick.len() == k {
        return test(pick, union).map(|r| (pick.clone(), union, r));
    }
    for i in from..lines.len() {
        let u = union | masks[lines[i]];
        if u.count_ones() as usize > k {
            continue;
        }
        pick.push(lines[i]);
        let r = fish_search(lines, masks, k, i + 1, u, pick, test);
        pick.pop();
        if r.is_some() {
            return r;
        }
    }
    None
}

/// Applies removals of `digit` from `cells` under `rule`, with `premises`.
fn apply(
    cx: &mut Context,
    rule: &'static str,
    digit: u32,
    cells: &[usize],
    premises: Vec<Premise>,
    focus: Vec<usize>,
) -> Result<(), Conflict> {
    if cx.explaining() {
        cx.because_rule(rule, premises);
        cx.focus(
            focus.into_iter().map(VarId::from_index).collect(),
            Some(digit),
            Vec::new(),
        );
    }
    for &c in cells {
        cx.remove(VarId::from_index(c), digit)?;
    }
    Ok(())
}

fn domains(cx: &Context, cells: usize) -> Vec<Domain> {
    (0..cells).map(|i| cx.dom(VarId::from_index(i))).collect()
}

impl Propagator for FishRule {
    fn name(&self) -> &'static str {
        fish_name(self.k)
    }
    fn encode(&self, _: &mut Encoder) -> Encoded {
        Encoded::Implied
    }
    fn priority(&self) -> Priority {
        Priority::Costly
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        let geo = self.geo.clone();
        let n = geo.n();
        let doms = domains(cx, n * n);
        let Some((d, base, cover, removals)) = find_fish(&geo, &doms, self.k) else {
            return Ok(());
        };
        let mut premises = Vec::new();
        let mut fish_cells = Vec::new();
        for &b in &base {
            for &c in geo.unit(b) {
                let c = c as usize;
                let on_cover = cover.iter().any(|&u| geo.unit(u).contains(&(c as u16)));
                if on_cover {
                    if doms[c].contains(d as u32) && open(doms[c]) {
                        fish_cells.push(c);
                    }
                } else {
                    premises.push(Premise::not(VarId::from_index(c), d as u32));
                }
            }
        }
        if cx.explaining() {
            lock(&self.log).push_back(Pattern::Fish { digit: d, base, cover });
        }
        apply(cx, fish_name(self.k), d as u32, &removals, premises, fish_cells)
    }
}

/// The XY-Wing (`xyz: false`) or XYZ-Wing rule.
pub struct WingRule {
    geo: Arc<Geometry>,
    xyz: bool,
    log: PatternLog,
}

impl WingRule {
    /// The rule for a shape, logging to `log`.
    pub fn new(geo: Arc<Geometry>, xyz: bool, log: PatternLog) -> Self {
        WingRule { geo, xyz, log }
    }
}

/// The first XY-Wing (`xyz: false`) or XYZ-Wing that removes something: `(pivot, pincers, z,
/// removals)`.
pub fn find_wing(geo: &Geometry, doms: &[Domain], xyz: bool) -> Option<(usize, [usize; 2], u8, Vec<usize>)> {
    let want = if xyz { 3 } else { 2 };
    for p in 0..doms.len() {
        let pd = doms[p];
        if pd.len() != want {
            continue;
        }
        let peers = geo.peers(p);
        let pincers: Vec<usize> = peers
            .iter()
            .map(|&q| q as usize)
            .filter(|&q| {
                let qd = doms[q];
                qd.len() == 2
                    && if xyz {
                        qd.minus(pd).is_empty()
                    } else {
                        qd.and(pd).len() == 1
                    }
            })
            .collect();
        for (i, &a) in pincers.iter().enumerate() {
            for &b in &pincers[i + 1..] {
                let (ad, bd) = (doms[a], doms[b]);
                let z = if xyz {
                    // A ∪ B = pivot, A ∩ B = {z}.
                    if ad.or(bd) != pd || ad.and(bd).len() != 1 {
                        continue;
                    }
                    ad.and(bd)
                } else {
                    // A = {x,z}, B = {y,z}, pivot = {x,y}.
                    let z = ad.minus(pd);
                    if z.len() != 1 || bd.minus(pd) != z || ad.and(bd) != z || ad.and(pd) == bd.and(pd) {
                        continue;
                    }
                    z
                };
                let zv = z.min().expect("one digit");
                let removals: Vec<usize> = (0..doms.len())
                    .filter(|&c| {
                        c != p
                            && c != a
                            && c != b
                            && open(doms[c])
                            && doms[c].contains(zv)
                            && sees(geo, c, a)
                            && sees(geo, c, b)
                            && (!xyz || sees(geo, c, p))
                    })
                    .collect();
                if !removals.is_empty() {
                    return Some((p, [a, b], zv as u8, removals));
                }
            }
        }
    }
    None
}

impl Propagator for WingRule {
    fn name(&self) -> &'static str {
        if self.xyz {
            "xyz-wing"
        } else {
            "xy-wing"
        }
    }
    fn encode(&self, _: &mut Encoder) -> Encoded {
        Encoded::Implied
    }
    fn priority(&self) -> Priority {
        Priority::Costly
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        let n = self.geo.n();
        let doms = domains(cx, n * n);
        let Some((p, [a, b], z, removals)) = find_wing(&self.geo, &doms, self.xyz) else {
            return Ok(());
        };
        let premises = [p, a, b]
            .iter()
            .map(|&c| Premise::within(VarId::from_index(c), doms[c]))
            .collect();
        if cx.explaining() {
            lock(&self.log).push_back(Pattern::Wing {
                pivot: p,
                pincers: [a, b],
                digit: z,
                xyz: self.xyz,
            });
        }
        let name = self.name();
        apply(cx, name, z as u32, &removals, premises, vec![p, a, b])
    }
}

/// The WXYZ-Wing rule.
pub struct WxyzRule {
    geo: Arc<Geometry>,
    log: PatternLog,
}

impl WxyzRule {
    /// The rule for a shape, logging to `log`.
    pub fn new(geo: Arc<Geometry>, log: PatternLog) -> Self {
        WxyzRule { geo, log }
    }
}

/// The first WXYZ-Wing that removes something: four open cells whose candidates make four
/// digits, all but one (`z`) *restricted* (the wing's cells holding it all see each other, so
/// it fills at most one of them); the other three cannot fill four cells, so `z` is in the
/// wing and leaves every cell that sees all the wing's cells holding it. `(cells, z,
/// removals)`.
pub fn find_wxyz(geo: &Geometry, doms: &[Domain]) -> Option<([usize; 4], u8, Vec<usize>)> {
    let cells: Vec<usize> = (0..doms.len())
        .filter(|&c| open(doms[c]) && doms[c].len() <= 4)
        .collect();
    let mut pick = Vec::with_capacity(4);
    wxyz_search(geo, doms, &cells, 0, Domain::EMPTY, &mut pick)
}

fn wxyz_search(
    geo: &Geometry,
    doms: &[Domain],
    cells: &[usize],
    from: usize,
    union: Domain,
    pick: &mut Vec<usize>,
) -> Option<([usize; 4], u8, Vec<usize>)> {
    if pick.len() == 4 {
        if union.len() != 4 {
            return None;
        }
        let holders = |d: u32| pick.iter().copied().filter(move |&c| doms[c].contains(d));
        let unrestricted: Vec<u32> = union
            .iter()
            .filter(|&d| {
                let h: Vec<usize> = holders(d).collect();
                h.iter()
                    .enumerate()
                    .any(|(i, &a)| h[i + 1..].iter().any(|&b| !sees(geo, a, b)))
            })
            .collect();
        let [z] = unrestricted[..] else {
            return None;
        };
        let zs: Vec<usize> = holders(z).collect();
        let removals: Vec<usize> = (0..doms.len())
            .filter(|&x| {
                !pick.contains(&x) && open(doms[x]) && doms[x].contains(z) && zs.iter().all(|&c| sees(geo, x, c))
            })
            .collect();
        if removals.is_empty() {
            return None;
        }
        return Some(([pick[0], pick[1], pick[2], pick[3]], z as u8, removals));
    }
    for i in from..cells.len() {
        let c = cells[i];
        let u = union.or(doms[c]);
        if u.len() > 4 {
            continue;
        }
        // The wing hangs together: each new cell sees one already chosen (the usual shape,
        // and it keeps the search small).
        if !pick.is_empty() && !pick.iter().any(|&p| sees(geo, p, c)) {
            continue;
        }
        pick.push(c);
        let r = wxyz_search(geo, doms, cells, i + 1, u, pick);
        pick.pop();
        if r.is_some() {
            return r;
        }
    }
    None
}

impl Propagator for WxyzRule {
    fn name(&self) -> &'static str {
        "wxyz-wing"
    }
    fn encode(&self, _: &mut Encoder) -> Encoded {
        Encoded::Implied
    }
    fn priority(&self) -> Priority {
        Priority::Costly
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        let n = self.geo.n();
        let doms = domains(cx, n * n);
        let Some((cells, z, removals)) = find_wxyz(&self.geo, &doms) else {
            return Ok(());
        };
        let premises = cells
            .iter()
            .map(|&c| Premise::within(VarId::from_index(c), doms[c]))
            .collect();
        if cx.explaining() {
            lock(&self.log).push_back(Pattern::Wxyz { cells, digit: z });
        }
        apply(cx, "wxyz-wing", z as u32, &removals, premises, cells.to_vec())
    }
}

/// The turbot fish rule (Skyscraper, 2-String Kite, Turbot Fish).
pub struct TurbotRule {
    geo: Arc<Geometry>,
    log: PatternLog,
}

impl TurbotRule {
    /// The rule for a shape, logging to `log`.
    pub fn new(geo: Arc<Geometry>, log: PatternLog) -> Self {
        TurbotRule { geo, log }
    }
}

/// The kind of a turbot fish by the units of its strong links: 0 Skyscraper (two rows or two
/// columns), 1 2-String Kite (a row and a column), 2 Turbot Fish (a block).
pub fn turbot_kind(geo: &Geometry, units: [usize; 2]) -> usize {
    use crate::geometry::UnitKind;
    match (geo.unit_kind(units[0]), geo.unit_kind(units[1])) {
        (UnitKind::Block, _) | (_, UnitKind::Block) => 2,
        (a, b) if a == b => 0,
        _ => 1,
    }
}

/// A turbot fish found: `(digit, cells, units, removals)`.
pub type TurbotHit = (u8, [usize; 4], [usize; 2], Vec<usize>);

/// The simplest turbot fish that removes something (Skyscraper before 2-String Kite before
/// Turbot Fish): `(digit, cells, units, removals)`.
pub fn find_turbot(geo: &Geometry, doms: &[Domain]) -> Option<TurbotHit> {
    let n = geo.n();
    let mut best: Option<(usize, TurbotHit)> = None;
    for d in 1..=n as u32 {
        // The strong links: units where d has exactly two open places.
        let links: Vec<(usize, usize, usize)> = (0..geo.units().len())
            .filter_map(|u| {
                let mut it = geo
                    .unit(u)
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| open(doms[c]) && doms[c].contains(d));
                match (it.next(), it.next(), it.next()) {
                    (Some(a), Some(b), None) => Some((u, a, b)),
                    _ => None,
                }
            })
            .collect();
        for (i, &(u1, p, q)) in links.iter().enumerate() {
            for &(u2, r, t) in &links[i + 1..] {
                let kind = turbot_kind(geo, [u1, u2]);
                if best.as_ref().is_some_and(|b| b.0 <= kind) {
                    continue;
                }
                for (a, b) in [(p, q), (q, p)] {
                    for (c, e) in [(r, t), (t, r)] {
                        let distinct = a != c && a != e && b != c && b != e;
                        if !distinct || !sees(geo, b, c) {
                            continue;
                        }
                        let removals: Vec<usize> = (0..doms.len())
                            .filter(|&x| {
                                x != a
                                    && x != e
                                    && open(doms[x])
                                    && doms[x].contains(d)
                                    && sees(geo, x, a)
                                    && sees(geo, x, e)
                            })
                            .collect();
                        if !removals.is_empty() && best.as_ref().is_none_or(|b| kind < b.0) {
                            best = Some((kind, (d as u8, [a, b, c, e], [u1, u2], removals)));
                        }
                    }
                }
            }
        }
        if best.as_ref().is_some_and(|b| b.0 == 0) {
            break;
        }
    }
    best.map(|b| b.1)
}

impl Propagator for TurbotRule {
    fn name(&self) -> &'static str {
        "turbot-fish"
    }
    fn encode(&self, _: &mut Encoder) -> Encoded {
        Encoded::Implied
    }
    fn priority(&self) -> Priority {
        Priority::Costly
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        let n = self.geo.n();
        let doms = domains(cx, n * n);
        let Some((d, cells, units, removals)) = find_turbot(&self.geo, &doms) else {
            return Ok(());
        };
        let premises = units
            .iter()
            .flat_map(|&u| self.geo.unit(u).iter().map(|&c| c as usize))
            .filter(|c| !cells.contains(c))
            .map(|c| Premise::not(VarId::from_index(c), d as u32))
            .collect();
        if cx.explaining() {
            lock(&self.log).push_back(Pattern::Turbot { digit: d, cells, units });
        }
        apply(cx, "turbot-fish", d as u32, &removals, premises, cells.to_vec())
    }
}

/// BUG+1 (sound only for a puzzle with one solution, like the unique rectangle).
pub struct BugRule {
    geo: Arc<Geometry>,
    log: PatternLog,
}

impl BugRule {
    /// The rule for a shape, logging to `log`.
    pub fn new(geo: Arc<Geometry>, log: PatternLog) -> Self {
        BugRule { geo, log }
    }
}

/// BUG+1: the one open cell with three candidates and its digit with three places in each of
/// its units, when every other open cell has two candidates and every other digit two places
/// (or none) in every unit.
pub fn find_bug(geo: &Geometry, doms: &[Domain]) -> Option<(usize, u8)> {
    let mut three = None;
    for (c, d) in doms.iter().enumerate() {
        match d.len() {
            0..=2 => {}
            3 if three.is_none() => three = Some(c),
            _ => return None,
        }
    }
    let b = three?;
    let units = geo.cell_units(b);
    let n = geo.n();
    let count = |u: usize, d: u32| {
        geo.unit(u)
            .iter()
            .filter(|&&c| open(doms[c as usize]) && doms[c as usize].contains(d))
            .count()
    };
    let digit = doms[b]
        .iter()
        .find(|&d| units.iter().all(|&u| count(u as usize, d) == 3))?;
    for u in 0..geo.units().len() {
        for d in 1..=n as u32 {
            let want_three = d == digit && units.contains(&(u as u16));
            let k = count(u, d);
            if !(k == 0 || k == 2 || (want_three && k == 3)) {
                return None;
            }
        }
    }
    Some((b, digit as u8))
}

impl Propagator for BugRule {
    fn name(&self) -> &'static str {
        "bug"
    }
    fn encode(&self, _: &mut Encoder) -> Encoded {
        // Nothing to add: it holds only under the assumption of one solution, which an export
        // must not make (the defining constraints are the whole formula).
        Encoded::Implied
    }
    fn priority(&self) -> Priority {
        Priority::Costly
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        let n = self.geo.n();
        let doms = domains(cx, n * n);
        let Some((b, d)) = find_bug(&self.geo, &doms) else {
            return Ok(());
        };
        if cx.explaining() {
            let premises: Vec<Premise> = (0..n * n)
                .filter(|&c| open(doms[c]))
                .map(|c| Premise::within(VarId::from_index(c), doms[c]))
                .collect();
            cx.because_rule("bug", premises);
            cx.focus(vec![VarId::from_index(b)], Some(d as u32), Vec::new());
            lock(&self.log).push_back(Pattern::Bug { cell: b, digit: d });
        }
        for e in doms[b].without(d as u32).iter() {
            cx.remove(VarId::from_index(b), e)?;
        }
        Ok(())
    }
}

/// The unique rectangle of type 1 (sound only for a puzzle with one solution).
pub struct UniqueRectangleRule {
    geo: Arc<Geometry>,
    log: PatternLog,
}

impl UniqueRectangleRule {
    /// The rule for a shape, logging to `log`.
    pub fn new(geo: Arc<Geometry>, log: PatternLog) -> Self {
        UniqueRectangleRule { geo, log }
    }
}

/// The first unique rectangle of type 1: the four corners (the target last) and the two
/// digits.
pub fn find_unique_rectangle(geo: &Geometry, doms: &[Domain]) -> Option<([usize; 4], [u8; 2])> {
    let n = geo.n();
    let block = |c: usize| geo.cell_units(c)[2];
    for r1 in 0..n {
        for c1 in 0..n {
            let a = r1 * n + c1;
            if doms[a].len() != 2 {
                continue;
            }
            let pair = doms[a];
            for c2 in c1 + 1..n {
                let b = r1 * n + c2;
                if doms[b] != pair {
                    continue;
                }
                for r2 in 0..n {
                    if r2 == r1 {
                        continue;
                    }
                    let (c, d) = (r2 * n + c1, r2 * n + c2);
                    let mut blocks = [block(a), block(b), block(c), block(d)];
                    blocks.sort_unstable();
                    let distinct = 1 + blocks.windows(2).filter(|w| w[0] != w[1]).count();
                    if distinct != 2 {
                        continue;
                    }
                    for (same, target) in [(c, d), (d, c)] {
                        let t = doms[target];
                        if doms[same] == pair && t.len() > 2 && pair.minus(t).is_empty() {
                            let mut ds = pair.iter();
                            let (x, y) = (ds.next().unwrap_or(1) as u8, ds.next().unwrap_or(1) as u8);
                            return Some(([a, b, same, target], [x, y]));
                        }
                    }
                }
            }
        }
    }
    None
}

impl Propagator for UniqueRectangleRule {
    fn name(&self) -> &'static str {
        "unique-rectangle"
    }
    fn encode(&self, _: &mut Encoder) -> Encoded {
        // Nothing to add: it holds only under the assumption of one solution, which an export
        // must not make (the defining constraints are the whole formula).
        Encoded::Implied
    }
    fn priority(&self) -> Priority {
        Priority::Costly
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        let n = self.geo.n();
        let doms = domains(cx, n * n);
        let Some((cells, digits)) = find_unique_rectangle(&self.geo, &doms) else {
            return Ok(());
        };
        if cx.explaining() {
            let premises: Vec<Premise> = cells[..3]
                .iter()
                .map(|&c| Premise::within(VarId::from_index(c), doms[c]))
                .collect();
            cx.because_rule("unique-rectangle", premises);
            cx.focus(cells.iter().map(|&c| VarId::from_index(c)).collect(), None, Vec::new());
            lock(&self.log).push_back(Pattern::UniqueRectangle { cells, digits });
        }
        let t = VarId::from_index(cells[3]);
        cx.remove(t, digits[0] as u32)?;
        cx.remove(t, digits[1] as u32)?;
        Ok(())
    }
}
