//! Root deductions on plain bitmasks, before any engine is built: the cheap first phase of a
//! region-grid solver.
//!
//! Building an [`engine`](crate::engine) model (variables, conflict lists, propagators, watch
//! lists) costs more than solving most hand-made puzzles, which fall to a few human rules. This
//! module runs those rules on one [`Domain`] per cell and nothing else, in time proportional to
//! the board plus the values it removes:
//!
//! * **naked single** — a fixed value leaves the other cells of its region and every touching
//!   cell of another region (`touch`: the steps that make two cells touch, as in
//!   [`RegionModel::post_touching`](super::RegionModel::post_touching); none for a family whose
//!   extra rule is not "touching cells differ");
//! * **hidden single** — a value that fits one cell of its region goes there; a value that fits
//!   none is a conflict (a region holds `1..=size`);
//! * **pointing** — when value `v` of a region fits only cells `C`, every cell of another region
//!   that touches all of `C` loses `v`.
//!
//! These are the engine's `naked-single`, `hidden-single` and `pointing` rules
//! ([`crate::constraints::distinct`]) on the same model, so the result is implied by the
//! engine's own root fixpoint: every removed value is absent from every solution. The caller
//! gets one of three answers: a conflict (no solution), every cell fixed (the only possible
//! assignment of these rules — the family checks its own extra rule, if any, before calling it
//! a solution), or the reduced domains to start the engine from.
//!
//! Work list: cells whose value became fixed, then regions whose cells lost values; each
//! region visit costs O(size²) and happens only after a removal, so the whole run is bounded by
//! the number of removals (at most 64 per cell) times the largest region's work.

use super::Board;
use crate::domain::Domain;
use crate::grid::Grid;
use smallvec::SmallVec;

/// A region waits for its hidden-single visit.
const HIDDEN: u8 = 1;
/// A region waits for its pointing visit.
const POINTING: u8 = 2;

/// Which rules besides naked singles run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PresolveRules {
    /// Hidden singles in regions.
    pub hidden_single: bool,
    /// Pointing (needs touching steps to do anything).
    pub pointing: bool,
}

impl PresolveRules {
    /// Naked singles, hidden singles and pointing.
    pub const ALL: PresolveRules = PresolveRules {
        hidden_single: true,
        pointing: true,
    };
}

/// What the root deductions left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Presolved {
    /// A cell or a region value lost every place: no solution.
    Conflict,
    /// Every cell is fixed: the grid of values.
    Fixed(Grid<u32>),
    /// Some cells are open: every cell's remaining values, row-major.
    Open(Vec<Domain>),
}

/// Runs the rules on `board` to their fixpoint (see the module docs). Regions of more than
/// [`Domain::MAX`] cells are beyond a domain: `None`.
///
/// ```
/// use pencilbox_core::regions::{presolve::{presolve, Presolved, PresolveRules}, Board};
/// use pencilbox_core::{grid::KING, Domain, Grid, Shape};
/// // Fig. 1 of the Suguru paper: hints 5 and 3, three regions; four solutions.
/// let s = Shape::new(3, 3);
/// let hints = Grid::from_vec(s, vec![0, 0, 0, 0, 5, 0, 0, 0, 3]).unwrap();
/// let labels = Grid::from_vec(s, vec![1, 1, 2, 1, 1, 2, 1, 3, 2]).unwrap();
/// let b = Board::new(hints, &labels).unwrap();
/// let Some(Presolved::Open(d)) = presolve(&b, &KING[4..], PresolveRules::ALL) else { panic!() };
/// // The corner's 1 is a hidden single, the right column follows from r3c2's 1.
/// assert_eq!([d[0], d[2], d[5], d[7]].map(|d| d.value()), [Some(1), Some(1), Some(2), Some(1)]);
/// assert_eq!(d[1], Domain::range(3, 4));
/// ```
pub fn presolve(board: &Board, touch: &[(isize, isize)], rules: PresolveRules) -> Option<Presolved> {
    let regions = board.regions();
    if regions.max_size() > Domain::MAX as usize {
        return None;
    }
    let shape = board.shape();
    let (h, w) = (shape.height as isize, shape.width as isize);
    let n = shape.cells();
    let label = regions.grid().as_slice();
    // Both directions of every step, once each.
    let mut steps: SmallVec<[(isize, isize); 16]> = touch.iter().flat_map(|&(dr, dc)| [(dr, dc), (-dr, -dc)]).collect();
    steps.sort_unstable();
    steps.dedup();
    steps.retain(|s| *s != (0, 0));
    let hints = board.hints().as_slice();
    let mut doms: Vec<Domain> = Vec::with_capacity(n);
    let mut fixed: Vec<u32> = Vec::with_capacity(n);
    for (i, &hint) in hints.iter().enumerate() {
        let d = match hint {
            0 => Domain::range(1, regions.size(label[i] as usize) as u32),
            v => Domain::single(v),
        };
        if d.is_single() {
            fixed.push(i as u32);
        }
        doms.push(d);
    }
    let num_regions = regions.num_regions();
    let mut st = State {
        doms,
        fixed,
        dirty: (0..num_regions as u32).rev().collect(),
        point: Vec::with_capacity(num_regions),
        queued: vec![HIDDEN; num_regions],
        label,
    };
    // Which offsets touch, as a table over the box the steps span.
    let reach = steps.iter().map(|&(dr, dc)| dr.abs().max(dc.abs())).max().unwrap_or(0);
    let side = 2 * reach + 1;
    let mut touches: SmallVec<[bool; 25]> = smallvec::smallvec![false; (side * side) as usize];
    for &(dr, dc) in &steps {
        touches[((dr + reach) * side + dc + reach) as usize] = true;
    }
    let touch_at = |(dr, dc): (isize, isize)| {
        dr.abs() <= reach && dc.abs() <= reach && touches[((dr + reach) * side + dc + reach) as usize]
    };
    let pointing = rules.pointing && !steps.is_empty();
    let mut common: SmallVec<[u32; 8]> = SmallVec::new();
    let mut holders: SmallVec<[(isize, isize); 8]> = SmallVec::new();
    loop {
        // Naked singles first: they are the cheapest and feed everything else.
        while let Some(c) = st.fixed.pop() {
            let c = c as usize;
            let v = st.doms[c];
            let k = label[c] as usize;
            for m in regions.region(k) {
                if m.index() != c && !st.remove(m.index(), v) {
                    return Some(Presolved::Conflict);
                }
            }
            let (r, col) = (c as isize / w, c as isize % w);
            for &(dr, dc) in &steps {
                let (r2, c2) = (r + dr, col + dc);
                if (0..h).contains(&r2) && (0..w).contains(&c2) {
                    let t = (r2 * w + c2) as usize;
                    if label[t] as usize != k && !st.remove(t, v) {
                        return Some(Presolved::Conflict);
                    }
                }
            }
        }
        // Then hidden singles, region by region; pointing only once no single is left.
        if let Some(k) = st.dirty.pop() {
            let k = k as usize;
            st.queued[k] &= !HIDDEN;
            if pointing && st.queued[k] & POINTING == 0 {
                st.queued[k] |= POINTING;
                st.point.push(k as u32);
            }
            if !rules.hidden_single {
                continue;
            }
            let cells = regions.region(k);
            let (once, twice, placed) = tally(&st.doms, cells);
            if once != Domain::range(1, cells.len() as u32) {
                return Some(Presolved::Conflict);
            }
            let singles = once.minus(twice).minus(placed);
            if singles.is_empty() {
                continue;
            }
            for c in cells {
                let s = st.doms[c.index()].and(singles);
                if !s.is_empty() {
                    if !s.is_single() {
                        // Two values that each fit only this cell.
                        return Some(Presolved::Conflict);
                    }
                    st.doms[c.index()] = s;
                    st.fixed.push(c.0);
                    st.mark(k);
                }
            }
            continue;
        }
        let Some(k) = st.point.pop() else { break };
        let k = k as usize;
        st.queued[k] &= !POINTING;
        let cells = regions.region(k);
        let (_, twice, placed) = tally(&st.doms, cells);
        for v in twice.minus(placed).iter() {
            holders.clear();
            holders.extend(
                cells
                    .iter()
                    .filter(|c| st.doms[c.index()].contains(v))
                    .map(|c| (c.0 as isize / w, c.0 as isize % w)),
            );
            // The cells of other regions touching the first holder, kept when they touch
            // every other holder too.
            common.clear();
            let (r0, col0) = holders[0];
            for &(dr, dc) in &steps {
                let (r2, c2) = (r0 + dr, col0 + dc);
                if (0..h).contains(&r2) && (0..w).contains(&c2) {
                    let t = (r2 * w + c2) as usize;
                    if label[t] as usize != k
                        && st.doms[t].contains(v)
                        && holders[1..].iter().all(|&(ro, co)| touch_at((r2 - ro, c2 - co)))
                    {
                        common.push(t as u32);
                    }
                }
            }
            let one = Domain::single(v);
            for &t in &common {
                if !st.remove(t as usize, one) {
                    return Some(Presolved::Conflict);
                }
            }
        }
    }
    if st.doms.iter().all(|d| d.is_single()) {
        let values = st.doms.iter().map(|d| d.value().unwrap_or(0)).collect();
        return Some(Presolved::Fixed(
            Grid::from_vec(shape, values).expect("one value per cell"),
        ));
    }
    Some(Presolved::Open(st.doms))
}

/// A region's values: seen in some cell, seen in two cells or more, fixed in a cell.
#[inline]
fn tally(doms: &[Domain], cells: &[crate::grid::CellId]) -> (Domain, Domain, Domain) {
    let (mut once, mut twice, mut placed) = (Domain::EMPTY, Domain::EMPTY, Domain::EMPTY);
    for c in cells {
        let d = doms[c.index()];
        twice = twice.or(once.and(d));
        once = once.or(d);
        if d.is_single() {
            placed = placed.or(d);
        }
    }
    (once, twice, placed)
}

/// The domains and the three work lists.
struct State<'a> {
    doms: Vec<Domain>,
    /// Cells whose domain became a single value, not yet propagated.
    fixed: Vec<u32>,
    /// Regions whose cells lost values since their last hidden-single visit.
    dirty: Vec<u32>,
    /// Regions whose cells lost values since their last pointing visit.
    point: Vec<u32>,
    /// Per region: [`HIDDEN`] when it is in `dirty`, [`POINTING`] when it is in `point`.
    queued: Vec<u8>,
    label: &'a [u32],
}

impl State<'_> {
    /// Removes `v`'s values from cell `t`; `false` when nothing is left.
    #[inline(always)]
    fn remove(&mut self, t: usize, v: Domain) -> bool {
        let d = self.doms[t];
        if d.and(v).is_empty() {
            return true;
        }
        let left = d.minus(v);
        if left.is_empty() {
            return false;
        }
        self.doms[t] = left;
        if left.is_single() {
            self.fixed.push(t as u32);
        }
        self.mark(self.label[t] as usize);
        true
    }

    #[inline]
    fn mark(&mut self, k: usize) {
        if self.queued[k] & HIDDEN == 0 {
            self.queued[k] |= HIDDEN;
            self.dirty.push(k as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Shape, KING};
    use crate::regions::RegionModel;

    fn board(rows: usize, cols: usize, hints: &[u32], labels: &[u32]) -> Board {
        let s = Shape::new(rows, cols);
        Board::new(
            Grid::from_vec(s, hints.to_vec()).unwrap(),
            &Grid::from_vec(s, labels.to_vec()).unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn clashing_hints_are_a_conflict() {
        // Two touching 1s in different regions.
        let b = board(1, 2, &[1, 1], &[1, 2]);
        assert_eq!(presolve(&b, &KING[4..], PresolveRules::ALL), Some(Presolved::Conflict));
        // Without the touching rule the same board is fixed.
        assert!(matches!(
            presolve(&b, &[], PresolveRules::ALL),
            Some(Presolved::Fixed(_))
        ));
    }

    #[test]
    fn a_value_with_no_place_is_a_conflict() {
        // A region of two cells both touching a 2 and a 1 of the region next door.
        let b = board(2, 2, &[0, 1, 0, 2], &[1, 2, 1, 2]);
        assert_eq!(presolve(&b, &KING[4..], PresolveRules::ALL), Some(Presolved::Conflict));
    }

    #[test]
    fn a_cell_touching_a_whole_region_is_a_conflict() {
        // r1c1 touches all three cells of the top row, so it can hold none of 1..3.
        let b = board(2, 3, &[0; 6], &[1, 1, 1, 2, 2, 2]);
        assert_eq!(presolve(&b, &KING[4..], PresolveRules::ALL), Some(Presolved::Conflict));
    }

    #[test]
    fn an_empty_board_stays_open() {
        // Two solutions: 1 2 | 1 2 and 2 1 | 2 1.
        let b = board(1, 4, &[0; 4], &[1, 1, 2, 2]);
        match presolve(&b, &KING[4..], PresolveRules::ALL) {
            Some(Presolved::Open(d)) => assert!(d.iter().all(|d| d.len() == 2)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn pointing_removes_a_value_from_the_common_neighbours() {
        // Region 1 is the left column (values 1 and 2); region 2 the four cells to its right.
        // r0c1 and r1c1 touch both cells of region 1, so they lose its 1 and 2.
        let b = board(2, 3, &[0; 6], &[1, 2, 2, 1, 2, 2]);
        let no_pointing = PresolveRules {
            pointing: false,
            ..PresolveRules::ALL
        };
        let Some(Presolved::Open(without)) = presolve(&b, &KING[4..], no_pointing) else {
            panic!("open without pointing")
        };
        assert_eq!(without[1], Domain::range(1, 4));
        let Some(Presolved::Open(with)) = presolve(&b, &KING[4..], PresolveRules::ALL) else {
            panic!("open with pointing")
        };
        assert_eq!((with[1], with[4]), (Domain::range(3, 4), Domain::range(3, 4)));
        assert_eq!((with[2], with[5]), (Domain::range(1, 4), Domain::range(1, 4)));
    }

    proptest::proptest! {
        /// On random region boards (any labels, some hints) and touch sets, the presolve ends
        /// where the engine's root propagation with the same three rules ends (same conflict,
        /// same domains), and it keeps every solution's values: a conflict means no solution,
        /// a fixed grid is the only one.
        #[test]
        fn presolve_equals_the_engine_root_and_keeps_every_solution(
            h in 1usize..5,
            w in 1usize..5,
            labels in proptest::collection::vec(0u8..4, 16),
            hints in proptest::collection::vec(0u32..4, 16),
            steps in proptest::collection::vec(0usize..8, 0..6),
            hidden in proptest::bool::ANY,
            pointing in proptest::bool::ANY,
        ) {
            use crate::constraints::DistinctRules;
            use crate::engine::{EngineSearch, SmallestDomain};
            use crate::search::{run, Flow, Limits};
            let (board, touch) = super::super::random_board(h, w, &labels, &hints, &steps);
            let rules = PresolveRules { hidden_single: hidden, pointing };
            let got = presolve(&board, &touch, rules).unwrap();
            let engine_rules = DistinctRules { hidden_single: hidden, pointing, naked_subsets: 0, hidden_subsets: 0, by_size: false };
            let (mut engine, _) = RegionModel::new(&board).unwrap().post_touching(&board, &touch, engine_rules);
            let root = engine.propagate().is_ok();
            match &got {
                Presolved::Conflict => proptest::prop_assert!(!root),
                Presolved::Fixed(g) => {
                    proptest::prop_assert!(root);
                    let fixed: Vec<u32> = engine.domains().iter().map(|d| d.value().unwrap_or(0)).collect();
                    proptest::prop_assert_eq!(g.as_slice(), &fixed[..]);
                }
                Presolved::Open(d) => {
                    proptest::prop_assert!(root);
                    proptest::prop_assert_eq!(&d[..], engine.domains());
                }
            }
            // Every solution (all of them, by the engine's search on the plain model).
            let (all, _) = RegionModel::new(&board).unwrap().post_touching(&board, &touch, DistinctRules::NAKED_SINGLES);
            let mut search = EngineSearch::new(all, SmallestDomain::new());
            let mut sols: Vec<Vec<u32>> = Vec::new();
            run(&mut search, &Limits::all(), |s| {
                sols.push(s.engine.domains().iter().map(|d| d.value().unwrap_or(0)).collect());
                Flow::Continue
            });
            match &got {
                Presolved::Conflict => proptest::prop_assert!(sols.is_empty()),
                Presolved::Fixed(g) => proptest::prop_assert!(sols.iter().all(|s| s[..] == *g.as_slice())),
                Presolved::Open(d) => {
                    for s in &sols {
                        proptest::prop_assert!(s.iter().zip(d).all(|(&v, d)| d.contains(v)));
                    }
                }
            }
        }
    }
}
