//! The brute-force oracle shared by the Ripple Effect test files.

use pencilbox_core::regions::Board;
use pencilbox_core::testing::brute_force;
use pencilbox_core::Domain;

/// Every solution straight from the rules: cells in row-major order take `1..=size` (or their
/// hint); a cell clashes with an earlier one of its region holding the same value, or with an
/// earlier one of its row or column holding the same value `v` at most `v` cells away.
pub fn brute(b: &Board) -> Vec<Vec<u32>> {
    let shape = b.shape();
    let r = b.regions();
    let doms: Vec<Domain> = shape
        .all()
        .map(|c| match b.hint(c) {
            0 => Domain::range(1, r.size_of(c) as u32),
            h => Domain::single(h),
        })
        .collect();
    brute_force(
        &doms,
        |v, i| {
            let (ri, ci) = (i / shape.width, i % shape.width);
            (0..i).any(|j| {
                let (rj, cj) = (j / shape.width, j % shape.width);
                let same_region = r.grid().as_slice()[i] == r.grid().as_slice()[j];
                let dist = if ri == rj {
                    ci.abs_diff(cj)
                } else if ci == cj {
                    ri.abs_diff(rj)
                } else {
                    usize::MAX
                };
                v[i] == v[j] && (same_region || dist <= v[i] as usize)
            })
        },
        None,
    )
}
