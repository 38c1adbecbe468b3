//! The brute-force oracle and the random instances shared by the Suguru test files.

use pencilbox_core::testing::brute_force;
use pencilbox_core::{CellId, Domain, Grid, Shape};
use pencilbox_suguru::Suguru;

/// Brute force straight from Definition 1 (core's [`brute_force`], which shares nothing with the
/// solvers): every cell tries every value `1..=size` (or its hint) in row-major order; a
/// partial grid is extended only while no two filled cells break a rule (checked pairwise over
/// all filled cells, no counters, no χ sets). Returns all solutions.
pub fn solutions(p: &Suguru) -> Vec<Vec<u32>> {
    solutions_up_to(p, None)
}

/// [`solutions`], stopping after `limit` of them.
pub fn solutions_up_to(p: &Suguru, limit: Option<usize>) -> Vec<Vec<u32>> {
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
        limit,
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

/// A planted instance on the generator's layouts: a repaired random layout, a random solution of
/// it (the fast solver's random fill: brute force on hintless grids can be slow), and a random
/// subset of that solution as hints, each cell kept with probability `keep` %. `None` when the
/// layout cannot be repaired or has no solution. Returns the puzzle and the planted solution.
pub fn planted(h: usize, w: usize, seed: u64, keep: u8) -> Option<(Suguru, Vec<u32>)> {
    use pencilbox_core::rng::SplitMix64;
    use pencilbox_core::search::{run, Flow, Limits};
    use pencilbox_suguru::fast::FastSearch;
    use pencilbox_suguru::generate::{random_layout, repair_layout};
    let shape = Shape::new(h, w);
    let mut rng = SplitMix64::new(seed);
    let mut labels = random_layout(shape, &mut rng);
    let empty = repair_layout(&mut labels)?;
    let mut fill = FastSearch::new(&empty).unwrap();
    fill.randomise(rng.next_u64());
    let mut solution = None;
    run(&mut fill, &Limits::first(), |s| {
        solution = Some(s.grid().into_vec());
        Flow::Stop
    });
    let solution = solution?;
    let hints: Vec<u32> = solution
        .iter()
        .map(|&v| if (rng.below_mod(100) as u8) < keep { v } else { 0 })
        .collect();
    let p = empty.with_hints(Grid::from_vec(shape, hints).unwrap()).unwrap();
    Some((p, solution))
}
