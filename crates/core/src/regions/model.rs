//! A region board on the [`engine`](crate::engine): one variable per cell and a permutation of
//! `1..=size` per region, ready for the family's own constraints.

use super::Board;
use crate::constraints::distinct::post_rules;
use crate::constraints::{Distinct, DistinctGraph, DistinctRules};
use crate::domain::Domain;
use crate::engine::{Engine, VarId};
use crate::grid::Grid;
use std::sync::Arc;

/// The cell variables of a region board and the distinctness collected so far.
pub struct RegionModel {
    /// The engine holding the variables.
    pub engine: Engine,
    /// One variable per cell, row-major: `1..=size` of its region, or its hint.
    pub cells: Vec<VarId>,
    /// A permutation of `1..=size` per region; add the family's own pairs, then post it.
    pub distinct: Distinct,
}

impl RegionModel {
    /// The variables and region permutations of `board`; `None` when a region has more cells
    /// than a [`Domain`] has values (64).
    pub fn new(board: &Board) -> Option<Self> {
        let regions = board.regions();
        if regions.max_size() > Domain::MAX as usize {
            return None;
        }
        let mut engine = Engine::new();
        engine.reserve(board.shape().cells());
        let cells: Vec<VarId> = board
            .shape()
            .all()
            .map(|c| {
                engine.new_var(match board.hint(c) {
                    0 => Domain::range(1, regions.size_of(c) as u32),
                    h => Domain::single(h),
                })
            })
            .collect();
        let mut distinct = Distinct::new();
        let mut vars: Vec<VarId> = Vec::with_capacity(regions.max_size());
        for region in regions.iter() {
            vars.clear();
            vars.extend(region.iter().map(|c| cells[c.index()]));
            distinct.permutation(&vars, Domain::range(1, vars.len() as u32));
        }
        Some(RegionModel {
            engine,
            cells,
            distinct,
        })
    }
}

impl RegionModel {
    /// Adds "two cells of different regions that touch (one of the steps `touch` apart, either
    /// way: giving one of `d` and `−d` is enough) differ" — Suguru's rule with the king's steps —
    /// and posts the distinctness with `rules`;
    /// returns the engine and the structure.
    ///
    /// The same as adding those pairs to [`RegionModel::distinct`] and posting it, but the
    /// conflict lists are written directly in row-major order (a cell's peers are its region's
    /// other cells merged with its touching cells of other regions, both already in order), with
    /// none of [`Distinct::build`]'s sorting: on small puzzles building the structure is a real
    /// part of a solve. When `distinct` no longer holds just the region permutations (a model
    /// added its own constraints), the general path is taken.
    pub fn post_touching(
        mut self,
        board: &Board,
        touch: &[(isize, isize)],
        rules: DistinctRules,
    ) -> (Engine, Arc<DistinctGraph>) {
        let shape = board.shape();
        let regions = board.regions();
        let n = shape.cells();
        let pristine = self.distinct.is_regions_only(regions.num_regions())
            && self.cells.iter().enumerate().all(|(i, v)| v.index() == i)
            && self.engine.num_vars() == n;
        if !pristine {
            for c in shape.all() {
                for &d in touch {
                    if let Some(t) = shape.step(c, d) {
                        // Each pair may come twice (from both ends): `build` merges repeats.
                        if regions.region_of(c) != regions.region_of(t) {
                            self.distinct.not_equal(self.cells[c.index()], self.cells[t.index()]);
                        }
                    }
                }
            }
            let g = self.distinct.post(&mut self.engine, rules);
            return (self.engine, g);
        }
        let mut peer_off = Vec::with_capacity(n + 1);
        peer_off.push(0u32);
        let mut peers = Vec::with_capacity(n * (regions.max_size().saturating_sub(1) + 2 * touch.len()));
        // Touching is symmetric: `c` meets the cells a step away and those it is a step from.
        // In lexicographic order, which is the order of `dr · width + dc` for every step that
        // stays in the grid (`|dc| < width`): each cell's touching cells come out sorted.
        let mut steps: Vec<(isize, isize)> = touch.iter().flat_map(|&(dr, dc)| [(dr, dc), (-dr, -dc)]).collect();
        steps.sort_unstable();
        steps.dedup();
        let (h, w) = (shape.height as isize, shape.width as isize);
        let label = regions.region.as_slice();
        let mut near: Vec<u32> = Vec::with_capacity(steps.len());
        let mut c = 0usize;
        for r in 0..h {
            for col in 0..w {
                let k = label[c];
                near.clear();
                for &(dr, dc) in &steps {
                    let (r2, c2) = (r + dr, col + dc);
                    if (0..h).contains(&r2) && (0..w).contains(&c2) {
                        let t = (r2 * w + c2) as usize;
                        if label[t] != k {
                            near.push(t as u32);
                        }
                    }
                }
                debug_assert!(near.windows(2).all(|p| p[0] < p[1]));
                // Merge the region's other cells (row-major) with the touching cells (sorted);
                // the two lists are disjoint (different regions).
                let mates = regions.region(k as usize);
                let (mut i, mut j) = (0, 0);
                while i < mates.len() || j < near.len() {
                    let p = if j == near.len() || (i < mates.len() && mates[i].0 < near[j]) {
                        i += 1;
                        mates[i - 1].0
                    } else {
                        j += 1;
                        near[j - 1]
                    };
                    if p != c as u32 {
                        peers.push((p, Domain::ALL));
                    }
                }
                peer_off.push(peers.len() as u32);
                c += 1;
            }
        }
        let groups = regions
            .iter()
            .map(|r| (r.iter().map(|c| c.0).collect(), Some(Domain::range(1, r.len() as u32))))
            .collect();
        let g = DistinctGraph::from_sorted_peers(self.cells, peer_off, peers, groups);
        post_rules(&g, &mut self.engine, rules);
        (self.engine, g)
    }
}

/// The filled grid of an engine state (`0` where a cell is not fixed).
pub fn decode(board: &Board, engine: &Engine, cells: &[VarId]) -> Grid<u32> {
    let values = cells.iter().map(|&v| engine.value(v).unwrap_or(0)).collect();
    Grid::from_vec(board.shape(), values).expect("one variable per cell")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Shape, KING};

    /// A distinctness structure as plain data: variables, peer lists, each variable's groups,
    /// the groups with their values.
    type Structure = (
        Vec<VarId>,
        Vec<Vec<(u32, Domain)>>,
        Vec<Vec<u32>>,
        Vec<(Vec<VarId>, Option<Domain>)>,
    );

    /// The structure of `g` as plain data.
    fn structure(g: &DistinctGraph) -> Structure {
        let n = g.vars().len();
        (
            g.vars().to_vec(),
            (0..n).map(|i| g.peers(i).to_vec()).collect(),
            (0..n).map(|i| g.groups_of(i).to_vec()).collect(),
            (0..g.num_groups())
                .map(|k| (g.group(k).collect(), g.group_values(k)))
                .collect(),
        )
    }

    proptest::proptest! {
        /// `post_touching` writes the same conflict structure as adding every touching pair to
        /// `distinct` and building it the general way, and leaves the same fixpoint, on random
        /// region boards (any labels, some hints) and touch sets (repeated steps included).
        #[test]
        fn touching_lists_equal_the_general_build(
            h in 1usize..6,
            w in 1usize..6,
            labels in proptest::collection::vec(0u8..4, 36),
            hints in proptest::collection::vec(0u32..3, 36),
            steps in proptest::collection::vec(0usize..8, 0..10),
        ) {
            let (board, touch) = super::super::random_board(h, w, &labels, &hints, &steps);
            let shape = board.shape();
            let (mut fast, g) = RegionModel::new(&board).unwrap().post_touching(&board, &touch, DistinctRules::ALL);
            let mut general = RegionModel::new(&board).unwrap();
            for c in shape.all() {
                for &d in &touch {
                    if let Some(t) = shape.step(c, d) {
                        if board.regions().region_of(c) != board.regions().region_of(t) {
                            general.distinct.not_equal(general.cells[c.index()], general.cells[t.index()]);
                        }
                    }
                }
            }
            let want = general.distinct.clone().build();
            proptest::prop_assert_eq!(structure(&g), structure(&want));
            let mut engine = general.engine;
            general.distinct.post(&mut engine, DistinctRules::ALL);
            let (a, b) = (fast.propagate().is_ok(), engine.propagate().is_ok());
            proptest::prop_assert_eq!(a, b);
            if a {
                proptest::prop_assert_eq!(fast.domains(), engine.domains());
            }
        }
    }

    #[test]
    fn a_model_with_its_own_pairs_takes_the_general_path() {
        // Two regions side by side; the model adds r1c1 ≠ r1c3 itself before posting.
        let shape = Shape::new(1, 3);
        let labels = Grid::from_vec(shape, vec![0, 0, 1]).unwrap();
        let board = Board::new(Grid::from_vec(shape, vec![0, 0, 0]).unwrap(), &labels).unwrap();
        let mut m = RegionModel::new(&board).unwrap();
        m.distinct.not_equal(m.cells[0], m.cells[2]);
        let (_, g) = m.post_touching(&board, &KING, DistinctRules::ALL);
        assert_eq!(g.peers(0), &[(1, Domain::ALL), (2, Domain::ALL)]);
        assert_eq!(g.peers(2), &[(0, Domain::ALL), (1, Domain::ALL)]);
        // One backward step alone still joins both ends of each touching pair.
        let mut m = RegionModel::new(&board).unwrap();
        m.distinct.not_equal(m.cells[0], m.cells[2]);
        let (_, g) = m.post_touching(&board, &[(0, -1)], DistinctRules::ALL);
        assert_eq!(g.peers(1), &[(0, Domain::ALL), (2, Domain::ALL)]);
        assert_eq!(g.peers(2), &[(0, Domain::ALL), (1, Domain::ALL)]);
    }
}
