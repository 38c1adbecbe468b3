//! Nurikabe's generator: a random valid wall, islands numbered at random cells, then core's
//! local search ([`pencilbox_core::generate::settle`]) reshapes it (an island grows or shrinks
//! by a cell, a number moves within its island) until the rules settle every cell, and core's
//! driver ([`pencilbox_core::generate::make`]) rates it and turns sizes into `?` by difficulty.
//!
//! Every change keeps the wall connected ([`stays_connected`] reads that from the eight cells
//! around the changed one, with a flood only when they do not tell).

use super::{Nurikabe, EMPTY};
use pencilbox_core::genre;
use pencilbox_core::grid::ORTHOGONAL;
use pencilbox_core::plugin::{GenerateRequest, Generated};
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::shading::connect::{closes_2x2, flood, groups, stays_connected};
use pencilbox_core::shading::Shading;
use pencilbox_core::{CellId, Grid, PuzzleError, Shape};

/// Makes `c` an island cell when it touches at most one island (joining it) and the wall stays
/// connected.
fn try_island(g: &mut Shading, c: CellId) -> bool {
    let shape = g.shape();
    let around: Vec<CellId> = shape.orth(c).filter(|&n| !g[n]).collect();
    let joined = around.first().map(|&n| flood(shape, n, |x| !g[x]));
    let ok = g[c] && joined.is_none_or(|i| around.iter().all(|n| i.contains(n))) && stays_connected(shape, |x| g[x], c);
    g[c] &= !ok;
    ok
}

/// A random solution: islands grown from random seeds to random sizes, then every 2×2 block
/// of wall broken by one more island cell, the wall always connected (`None` when a block
/// cannot be broken).
fn random_solution(shape: Shape, rng: &mut SplitMix64) -> Option<Shading> {
    let mut g = Grid::filled(shape, true);
    let n = shape.cells();
    for _ in 0..n / 8 {
        let seed = CellId::from_index(rng.below(n));
        if !shape.orth(seed).all(|x| g[x]) || !try_island(&mut g, seed) {
            continue;
        }
        let target = 1 + rng.below(7);
        let mut island = vec![seed];
        for _ in 0..4 * target {
            if island.len() >= target {
                break;
            }
            let c = island[rng.below(island.len())];
            let Some(x) = shape.step(c, ORTHOGONAL[rng.below(4)]) else {
                continue;
            };
            // Joining only its own island: no other island next to x.
            if shape.orth(x).all(|y| g[y] || island.contains(&y)) && try_island(&mut g, x) {
                island.push(x);
            }
        }
    }
    // Every 2×2 block of wall loses a cell (which may join islands), in a random order.
    let mut pools: Vec<CellId> = (0..shape.height.saturating_sub(1))
        .flat_map(|r| (0..shape.width.saturating_sub(1)).map(move |c| shape.id(r, c)))
        .collect();
    rng.shuffle(&mut pools);
    for corner in pools {
        let mut block = [(0, 0), (0, 1), (1, 0), (1, 1)].map(|d| shape.step(corner, d).expect("inside"));
        if block.iter().all(|&x| g[x]) {
            rng.shuffle(&mut block);
            let x = block.into_iter().find(|&x| stays_connected(shape, |y| g[y], x))?;
            g[x] = false;
        }
    }
    Some(g)
}

/// The puzzle of a solution: each island's size at the cell `at` picks from it.
fn numbered(g: &Shading, mut at: impl FnMut(&[CellId]) -> CellId) -> Nurikabe {
    let mut clues = Grid::filled(g.shape(), EMPTY);
    for island in groups(g.shape(), |c| !g[c]) {
        clues[at(&island)] = island.len() as u32;
    }
    Nurikabe::from(clues)
}

/// One change near `c` that keeps `(p, g)` a valid puzzle and solution: an island takes or
/// gives up a cell (a cell next to the wall, not numbered, closing no 2×2 block of wall), or
/// an island's number moves to another of its cells. Each island keeps the number in it, its
/// size updated; an island without one gets its size at its first cell.
fn reshape((p, g): &mut (Nurikabe, Shading), c: CellId, rng: &mut SplitMix64) -> bool {
    let shape = g.shape();
    let mut next = g.clone();
    match rng.below(3) {
        0 if try_island(&mut next, c) || shape.orth(c).any(|x| try_island(&mut next, x)) => {}
        1 if !g[c] && p.clues[c] == EMPTY && !closes_2x2(shape, |x| g[x], c) && shape.orth(c).any(|n| g[n]) => {
            next[c] = true
        }
        2 if !g[c] => {
            let island = flood(shape, c, |x| !g[x]);
            let to = island[rng.below(island.len())];
            let from = island.iter().find(|&&x| p.clues[x] != EMPTY && x != to);
            return from
                .map(|f| p.clues.as_mut_slice().swap(f.index(), to.index()))
                .is_some();
        }
        _ => return false,
    }
    let keep = |i: &[CellId]| i.iter().copied().find(|&c| p.clues[c] != EMPTY).unwrap_or(i[0]);
    (*p, *g) = (numbered(&next, keep), next);
    true
}

/// A settled candidate with more cells left open than this is dropped before the driver's
/// uniqueness check, which a loose grid of this size would spend its whole budget on.
const CLOSE: usize = 8;

/// The generator behind [`Puzzle::generate`] (see the module docs).
pub fn generate(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
    let shape = Shape::new(req.height, req.width);
    pencilbox_core::generate::make(req, |rng| {
        let g = random_solution(shape, rng)?;
        let p = numbered(&g, |i| i[rng.below(i.len())]);
        let undecided = |p: &Nurikabe| genre::undecided_limited(p, &req.limits);
        let cells = 3 * shape.cells();
        let (p, g) = pencilbox_core::generate::settle((p, g), rng, cells, |s| undecided(&s.0), reshape, &req.limits);
        undecided(&p).is_some_and(|u| u.len() <= CLOSE).then_some((p, g))
    })
}
