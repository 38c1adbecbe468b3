//! Editing a region layout (labels per cell), for generators whose local search reshapes the
//! regions around a planted solution (Star Battle): regions grown at random from seed cells,
//! regions merged until each holds a number of marked cells, a cell moved into a neighbouring
//! region, and a cell taken out of its region along a path. Every edit keeps every region
//! connected, and never moves a `fixed` cell (a planted star), so the planted solution stays
//! a solution of the puzzle.

use crate::grid::{CellId, Grid, KING};
use crate::rng::SplitMix64;
use crate::shading::connect::flood;

/// Fills the cells labelled 0 from the labelled ones: a random open cell joins the region of a
/// random labelled neighbour, which takes it with chance `speed(label)` (slow regions stay
/// small among large ones).
pub fn grow(labels: &mut Grid<u32>, rng: &mut SplitMix64, speed: impl Fn(u32) -> f64) {
    let shape = labels.shape();
    let mut open: Vec<CellId> = shape.all().filter(|&c| labels[c] == 0).collect();
    while !open.is_empty() {
        let i = rng.below(open.len());
        let next: Vec<CellId> = shape.orth(open[i]).filter(|&n| labels[n] != 0).collect();
        if let Some(&n) = next.get(rng.below(next.len().max(1))) {
            if rng.chance(speed(labels[n])) {
                labels[open[i]] = labels[n];
                open.swap_remove(i);
            }
        }
    }
}

/// Merges regions with neighbours until each holds `k` marked cells (regions without a mark
/// are left alone), the region with the fewest choices first; `None` when a region short of
/// `k` cannot reach it.
pub fn merge_to(labels: &mut Grid<u32>, marked: impl Fn(CellId) -> bool, k: u32, rng: &mut SplitMix64) -> Option<()> {
    let shape = labels.shape();
    let top = labels.as_slice().iter().max().map_or(0, |&l| l as usize);
    let mut count = vec![0u32; top + 1];
    shape
        .all()
        .filter(|&c| marked(c))
        .for_each(|c| count[labels[c] as usize] += 1);
    loop {
        // Each region short of k, with the neighbours it could merge with.
        let mut best: Option<(u32, Vec<u32>)> = None;
        for l in (1..count.len() as u32).filter(|&l| count[l as usize] > 0 && count[l as usize] < k) {
            let mut near: Vec<u32> = shape
                .all()
                .filter(|&c| labels[c] == l)
                .flat_map(|c| shape.orth(c))
                .map(|n| labels[n])
                .filter(|&m| m != l && count[m as usize] + count[l as usize] <= k)
                .collect();
            near.sort_unstable();
            near.dedup();
            if best.as_ref().is_none_or(|(_, b)| near.len() < b.len()) {
                best = Some((l, near));
            }
        }
        let Some((l, near)) = best else {
            return Some(());
        };
        let &m = near.get(rng.below(near.len().max(1)))?;
        labels
            .as_mut_slice()
            .iter_mut()
            .filter(|x| **x == m)
            .for_each(|x| *x = l);
        count[l as usize] += count[m as usize];
        count[m as usize] = 0;
    }
}

/// Are the cells labelled `l` connected?
pub fn connected(labels: &Grid<u32>, l: u32) -> bool {
    let shape = labels.shape();
    let Some(start) = shape.all().find(|&c| labels[c] == l) else {
        return true;
    };
    flood(shape, start, |x| labels[x] == l).len() == shape.all().filter(|&c| labels[c] == l).count()
}

/// Moves a cell that is not `fixed` — `c` or one of the eight around it — into a neighbouring
/// region, the first of them in a random order that leaves its own region connected; `false`
/// when none does.
pub fn shift_near(labels: &mut Grid<u32>, fixed: impl Fn(CellId) -> bool, c: CellId, rng: &mut SplitMix64) -> bool {
    let shape = labels.shape();
    let mut moves = Vec::new();
    for x in std::iter::once(c).chain(KING.iter().filter_map(|&d| shape.step(c, d))) {
        if !fixed(x) {
            moves.extend(
                shape
                    .orth(x)
                    .filter(|&n| labels[n] != labels[x])
                    .map(|n| (x, labels[n])),
            );
        }
    }
    rng.shuffle(&mut moves);
    for (x, l) in moves {
        let was = labels[x];
        labels[x] = l;
        if connected(labels, was) {
            return true;
        }
        labels[x] = was;
    }
    false
}

/// Layouts where `x` has left its region: the cells of a shortest path of cells of `x`'s
/// region that are not `fixed`, from `x` to one next to another region, join that region
/// (only those that leave `x`'s region connected; at most four). A single move cannot reach
/// a cell deep inside its region; a generator's search tries these when it stalls.
pub fn detours(labels: &Grid<u32>, fixed: impl Fn(CellId) -> bool, x: CellId) -> Vec<Grid<u32>> {
    let shape = labels.shape();
    let l = labels[x];
    let mut parent = vec![None; shape.cells()];
    let mut queue = vec![x];
    let mut out = Vec::new();
    let mut i = 0;
    while i < queue.len() && out.len() < 4 {
        let y = queue[i];
        i += 1;
        let mut into: Vec<u32> = shape.orth(y).map(|n| labels[n]).filter(|&m| m != l).collect();
        into.dedup();
        for m in into {
            let mut next = labels.clone();
            let mut z = Some(y);
            while let Some(c) = z {
                next[c] = m;
                z = parent[c.index()];
            }
            if connected(&next, l) {
                out.push(next);
            }
        }
        for n in shape.orth(y) {
            if labels[n] == l && !fixed(n) && n != x && parent[n.index()].is_none() {
                parent[n.index()] = Some(y);
                queue.push(n);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;

    /// Every region of `labels` is connected.
    fn all_connected(labels: &Grid<u32>) -> bool {
        labels.as_slice().iter().all(|&l| connected(labels, l))
    }

    #[test]
    fn edits_keep_regions_connected_and_fixed_cells_in_place() {
        for seed in 0..200 {
            let mut rng = SplitMix64::new(seed);
            let shape = Shape::new(2 + rng.below(6), 2 + rng.below(6));
            let marks: Vec<CellId> = shape.all().filter(|_| rng.chance(0.2)).collect();
            let fixed = |c: CellId| marks.contains(&c);
            let mut labels = Grid::from_vec(shape, shape.all().map(|c| if fixed(c) { c.0 + 1 } else { 0 }).collect())
                .expect("sized");
            if marks.is_empty() {
                continue;
            }
            grow(&mut labels, &mut rng, |l| if l % 2 == 0 { 1.0 } else { 0.3 });
            assert!(labels.as_slice().iter().all(|&l| l != 0) && all_connected(&labels));
            let before = labels.clone();
            if merge_to(&mut labels, fixed, 2, &mut rng).is_some() {
                for l in labels.as_slice() {
                    let held = marks.iter().filter(|&&c| labels[c] == *l).count();
                    assert!(held == 0 || held == 2, "region {l} holds {held} marks");
                }
            }
            assert!(all_connected(&labels), "merging joins neighbours: {before:?}");
            for _ in 0..20 {
                let c = CellId::from_index(rng.below(shape.cells()));
                let old = labels.clone();
                if shift_near(&mut labels, fixed, c, &mut rng) {
                    let moved: Vec<CellId> = shape.all().filter(|&x| labels[x] != old[x]).collect();
                    assert_eq!(moved.len(), 1);
                    assert!(!fixed(moved[0]));
                } else {
                    assert_eq!(labels, old);
                }
                assert!(all_connected(&labels));
                for next in detours(&labels, fixed, c) {
                    assert!(connected(&next, labels[c]) && next[c] != labels[c]);
                    assert!(marks.iter().all(|&m| next[m] == labels[m]) || fixed(c));
                }
            }
        }
    }
}
