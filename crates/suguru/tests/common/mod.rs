//! The brute-force oracle and the random instances shared by the Suguru test files.

use pencilbox_core::testing::brute_force;
use pencilbox_core::{CellId, Domain, Grid, Shape};
use pencilbox_suguru::Suguru;

/// Brute force straight from Definition 1 (core's [`brute_force`], which shares nothing with the
/// solvers): every cell tries every value `1..=size` (or its hint) in row-major order; a
/// partial grid is extended only while no two filled cells break a rule (checked pairwise over
/// all filled cells, no counters, no χ sets). Returns all solutions.
pub fn solutions(p: &Suguru) -> Vec<Vec<u32>> {
    let s = p.shape();
    let doms: Vec<Domain> = s
        .all()
        .map(|c| match p.hint(c) {
            0 => Domain::range(1, p.region_size_of(c) as u32),
            h => Domain::single(h),
        })
        .collect();
    let region = p.region_grid().as_slice();
    brute_force(
        &doms,
        |vals, i| {
            let (r, c) = s.coords(CellId::from_index(i));
            (0..i).any(|j| {
                let (rj, cj) = s.coords(CellId::from_index(j));
                let touch = r.abs_diff(rj) <= 1 && c.abs_diff(cj) <= 1;
                vals[i] == vals[j] && (touch || region[i] == region[j])
            })
        },
        None,
    )
}

/// A random instance: labels from a small alphabet (normalised into connected regions), then
/// hints drawn inside each region's range, in about one cell of `one_in`.
pub fn instance(h: usize, w: usize, labels: &[u8], hint_seed: &[u8], one_in: usize) -> Suguru {
    let shape = Shape::new(h, w);
    let labels = Grid::from_vec(shape, labels[..h * w].to_vec()).unwrap();
    let empty = Suguru::new(Grid::filled(shape, 0), &labels).unwrap();
    let hints: Vec<u32> = shape
        .all()
        .map(|c| {
            let s = hint_seed[c.index()] as usize;
            let size = empty.region_size_of(c);
            if s % one_in == 0 {
                (s / one_in % size) as u32 + 1
            } else {
                0
            }
        })
        .collect();
    empty.with_hints(Grid::from_vec(shape, hints).unwrap()).unwrap()
}
