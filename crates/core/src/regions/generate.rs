//! Random region layouts, random fillings and hint thinning, for the region families'
//! generators.

use super::model::decode;
use super::Board;
use crate::engine::{EngineSearch, SmallestDomain, VarId};
use crate::grid::{CellId, Grid, Shape, ORTHOGONAL};
use crate::rng::SplitMix64;
use crate::search::{count_keeping, run, Flow, Limits, StopReason};

/// A random layout as labels: cells are visited in row-major order; each cell not yet in a
/// region seeds one whose target size is drawn from `sizes` (repeat a size to weight it), and
/// the region grows into random orthogonally adjacent free cells (it may stay smaller when it
/// is walled in). Draws with [`SplitMix64::below_mod`], so a seed keeps its layout.
pub fn random_layout(shape: Shape, rng: &mut SplitMix64, sizes: &[usize]) -> Grid<u32> {
    let n = shape.cells();
    let mut label = vec![u32::MAX; n];
    let mut next = 0u32;
    let mut region: Vec<usize> = Vec::new();
    let mut frontier: Vec<usize> = Vec::new();
    for s in 0..n {
        if label[s] != u32::MAX {
            continue;
        }
        let target = sizes[rng.below_mod(sizes.len())];
        region.clear();
        region.push(s);
        label[s] = next;
        while region.len() < target {
            frontier.clear();
            for &c in &region {
                for d in ORTHOGONAL {
                    if let Some(y) = shape.step(CellId::from_index(c), d) {
                        if label[y.index()] == u32::MAX && !frontier.contains(&y.index()) {
                            frontier.push(y.index());
                        }
                    }
                }
            }
            if frontier.is_empty() {
                break;
            }
            let pick = frontier[rng.below_mod(frontier.len())];
            label[pick] = next;
            region.push(pick);
        }
        next += 1;
    }
    Grid::from_vec(shape, label).expect("sized")
}

/// Empties the hints of `full` one at a time in a random order, keeping each emptying only
/// while `keep(hints)` accepts the result (typically: the puzzle still has exactly one
/// solution). The result is minimal for `keep`: no further hint can be emptied.
pub fn thin_hints(full: &Grid<u32>, rng: &mut SplitMix64, mut keep: impl FnMut(&Grid<u32>) -> bool) -> Grid<u32> {
    let mut hints = full.clone();
    let mut order: Vec<usize> = (0..hints.as_slice().len()).collect();
    rng.shuffle(&mut order);
    for i in order {
        let v = hints.as_slice()[i];
        if v == 0 {
            continue;
        }
        hints.as_mut_slice()[i] = 0;
        if !keep(&hints) {
            hints.as_mut_slice()[i] = v;
        }
    }
    hints
}

/// A family's engine model of a board: the search and its cell variables (`None` when the
/// board cannot be modelled, e.g. a region over 64 cells).
pub type ModelFn<'a> = &'a dyn Fn(&Board) -> Option<(EngineSearch<SmallestDomain>, Vec<VarId>)>;

/// Does the model of `board` have exactly one solution?
pub fn unique(board: &Board, model: ModelFn) -> bool {
    unique_within(board, model, &Limits::default())
}

/// [`unique`] within `limits` (a node budget, a deadline): `true` only when the search proved
/// exactly one solution before they stopped it.
pub fn unique_within(board: &Board, model: ModelFn, limits: &Limits) -> bool {
    model(board).is_some_and(|(mut s, _)| {
        let limits = limits.clone().with_max_solutions(Some(2));
        let (r, _) = count_keeping(&mut s, &limits, 0, |_| ());
        r.solutions == 1 && r.stop == StopReason::Exhausted
    })
}

/// The node budget per cell for filling a layout; a layout not filled within it is redrawn
/// (random layouts of a strongly constrained family, such as Ripple Effect's, are mostly
/// unfillable, and a failing search is better cut short than finished).
pub const FILL_NODES_PER_CELL: u64 = 2;

/// The node budget per cell of each uniqueness check while hints are thinned.
pub const THIN_NODES_PER_CELL: u64 = 20;

/// A puzzle with exactly one solution, and that solution: a random layout with region sizes
/// drawn from `sizes`, filled by the model's search with values tried in a random order
/// (layouts it cannot fill within a node budget are redrawn), then hints thinned while the
/// puzzle stays unique — provably, within a node budget per check ([`THIN_NODES_PER_CELL`]
/// nodes per cell), so that a sparse puzzle whose proof would take long keeps its hint and the
/// generator finishes in bounded time. `None` when `limits` stopped it first.
pub fn unique_puzzle(
    shape: Shape,
    sizes: &[usize],
    seed: u64,
    limits: &Limits,
    model: ModelFn,
) -> Option<(Board, Grid<u32>)> {
    let mut rng = SplitMix64::new(seed);
    while limits.interrupted().is_none() {
        let labels = random_layout(shape, &mut rng, sizes);
        let board = Board::new(Grid::filled(shape, 0), &labels).expect("no hints");
        let Some((mut s, cells)) = model(&board) else {
            continue;
        };
        s.brancher = SmallestDomain::new().shuffled_values(rng.next_u64());
        let budget = Limits {
            node_limit: Some(FILL_NODES_PER_CELL * cells.len() as u64),
            max_solutions: Some(1),
            ..limits.clone()
        };
        let mut full = None;
        run(&mut s, &budget, |s| {
            full = Some(decode(&board, &s.engine, &cells));
            Flow::Stop
        });
        let Some(full) = full else {
            continue;
        };
        let check = Limits {
            node_limit: Some(THIN_NODES_PER_CELL * cells.len() as u64),
            ..limits.clone()
        };
        let hints = thin_hints(&full, &mut rng, |h| {
            board
                .with_hints(h.clone())
                .is_ok_and(|b| unique_within(&b, model, &check))
        });
        if limits.interrupted().is_some() {
            return None;
        }
        return Some((board.with_hints(hints).expect("hints from a solution fit"), full));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_layouts_cover_the_grid_with_regions_no_larger_than_asked() {
        let shape = Shape::new(7, 9);
        let mut rng = SplitMix64::new(3);
        let labels = random_layout(shape, &mut rng, &[1, 3, 5]);
        let r = crate::regions::Regions::new(&labels);
        assert!(r.max_size() <= 5);
        assert_eq!(r.iter().map(<[_]>::len).sum::<usize>(), 63);
    }

    #[test]
    fn thinning_keeps_exactly_the_hints_the_test_needs() {
        let full = Grid::from_vec(Shape::new(1, 4), vec![1, 2, 3, 4]).unwrap();
        // Keep a hint in cell 2 and at least two hints in all.
        let thin = thin_hints(&full, &mut SplitMix64::new(1), |h| {
            h.as_slice()[2] != 0 && h.as_slice().iter().filter(|&&v| v != 0).count() >= 2
        });
        assert_eq!(thin.as_slice()[2], 3);
        assert_eq!(thin.as_slice().iter().filter(|&&v| v != 0).count(), 2);
    }
}
