//! Nurikabe's generator: a random valid wall, islands numbered at random cells, then core's
//! local search ([`pencilbox_core::generate::settle`]) reshapes it (an island grows or shrinks
//! by a cell, a number moves within its island) until the rules settle every cell, and core's
//! driver ([`pencilbox_core::generate::make`]) rates it and turns sizes into `?` by difficulty.
//!
//! Every change keeps the wall connected. Whether it stays connected when a wall cell becomes
//! island is read from the eight cells around it ([`wall_stays_connected`]), with a flood only
//! when they do not tell: a flood of the whole grid per change made large grids quadratic.

use super::{Nurikabe, EMPTY};
use pencilbox_core::genre;
use pencilbox_core::grid::ORTHOGONAL;
use pencilbox_core::plugin::{GenerateRequest, Generated};
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::shading::{connect::groups, Shading};
use pencilbox_core::{CellId, Grid, PuzzleError, Shape};

/// The eight cells around a cell, in order around it: each is orthogonally next to the one
/// before.
const RING: [(isize, isize); 8] = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)];

/// Does the wall (shaded cells) of `g` stay connected when its cell `c` becomes island? The
/// eight cells around `c` settle most cases: when its wall neighbours are joined around it,
/// yes. Otherwise a flood from one of them looks for the others.
fn wall_stays_connected(g: &Shading, c: CellId) -> bool {
    let shape = g.shape();
    let ring = RING.map(|d| shape.step(c, d).is_some_and(|n| g[n]));
    let orthogonal = (0..8).step_by(2).filter(|&i| ring[i]).count();
    if orthogonal <= 1 {
        return true;
    }
    // The runs of wall around `c` that hold an orthogonal neighbour.
    let runs = match (0..8).find(|&i| !ring[i]) {
        None => 1,
        Some(start) => {
            let (mut runs, mut counted) = (0, false);
            for i in (start..start + 8).map(|i| i % 8) {
                if !ring[i] {
                    counted = false;
                    continue;
                }
                if i % 2 == 0 && !counted {
                    runs += 1;
                    counted = true;
                }
            }
            runs
        }
    };
    if runs == 1 {
        return true;
    }
    let targets: Vec<CellId> = ORTHOGONAL
        .iter()
        .filter_map(|&d| shape.step(c, d))
        .filter(|&n| g[n])
        .collect();
    let mut seen = vec![false; shape.cells()];
    seen[c.index()] = true;
    seen[targets[0].index()] = true;
    let (mut queue, mut found) = (vec![targets[0]], 1);
    while let Some(x) = queue.pop() {
        for n in ORTHOGONAL.iter().filter_map(|&d| shape.step(x, d)) {
            if g[n] && !seen[n.index()] {
                seen[n.index()] = true;
                found += usize::from(targets.contains(&n));
                if found == targets.len() {
                    return true;
                }
                queue.push(n);
            }
        }
    }
    false
}

/// The island cells joined to `c`'s island neighbours (a flood over island cells).
fn island_of(g: &Shading, from: CellId) -> Vec<CellId> {
    let shape = g.shape();
    let mut out = vec![from];
    let mut k = 0;
    while k < out.len() {
        let c = out[k];
        k += 1;
        for n in ORTHOGONAL.iter().filter_map(|&d| shape.step(c, d)) {
            if !g[n] && !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

/// Makes `c` an island cell when it touches at most one island (joining it) and the wall stays
/// connected.
fn try_island(g: &mut Shading, c: CellId) -> bool {
    let shape = g.shape();
    let around: Vec<CellId> = ORTHOGONAL
        .iter()
        .filter_map(|&d| shape.step(c, d))
        .filter(|&n| !g[n])
        .collect();
    let first = around.first().map(|&n| island_of(g, n));
    if !g[c] || first.is_some_and(|i| around.iter().any(|n| !i.contains(n))) || !wall_stays_connected(g, c) {
        return false;
    }
    g[c] = false;
    true
}

/// A random solution: islands grown from random seeds to random sizes, then every 2×2 block
/// of wall broken by one more island cell, the wall always connected (`None` when a block
/// cannot be broken).
fn random_solution(shape: Shape, rng: &mut SplitMix64) -> Option<Shading> {
    let mut g = Grid::filled(shape, true);
    let n = shape.cells();
    for _ in 0..n / 8 {
        let seed = pencilbox_core::CellId::from_index(rng.below(n));
        let alone = ORTHOGONAL.iter().filter_map(|&d| shape.step(seed, d)).all(|x| g[x]);
        if !alone || !try_island(&mut g, seed) {
            continue;
        }
        let target = 1 + rng.below(7);
        let mut island = vec![seed];
        for _ in 0..4 * target {
            if island.len() >= target {
                break;
            }
            let c = island[rng.below(island.len())];
            let Some(&d) = ORTHOGONAL.get(rng.below(4)) else {
                continue;
            };
            let Some(x) = shape.step(c, d) else { continue };
            // Joining only its own island: no other island next to x.
            let clear = ORTHOGONAL
                .iter()
                .filter_map(|&d| shape.step(x, d))
                .all(|y| g[y] || island.contains(&y));
            if clear && try_island(&mut g, x) {
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
        if !block.iter().all(|&x| g[x]) {
            continue;
        }
        rng.shuffle(&mut block);
        let x = block.into_iter().find(|&x| wall_stays_connected(&g, x))?;
        g[x] = false;
    }
    Some(g)
}

/// The puzzle of a solution: each island's size at a random cell of it.
fn numbered(g: &Shading, rng: &mut SplitMix64) -> Nurikabe {
    let mut clues = Grid::filled(g.shape(), EMPTY);
    for island in groups(g.shape(), |c| !g[c]) {
        clues[island[rng.below(island.len())]] = island.len() as u32;
    }
    Nurikabe::from(clues)
}

/// Can island cell `c` become wall? Not a numbered cell, next to the wall (which stays
/// connected), and closing no 2×2 block of wall.
fn can_wall(p: &Nurikabe, g: &Shading, c: CellId) -> bool {
    let shape = g.shape();
    let (r, k) = shape.coords(c);
    let wall = |r: usize, k: usize| (r, k) == (shape.coords(c).0, shape.coords(c).1) || *g.at(r, k);
    let pool = [(0, 0), (0, 1), (1, 0), (1, 1)].iter().any(|&(dr, dk)| {
        let (Some(r0), Some(k0)) = (r.checked_sub(dr), k.checked_sub(dk)) else {
            return false;
        };
        r0 + 1 < shape.height
            && k0 + 1 < shape.width
            && [(0, 0), (0, 1), (1, 0), (1, 1)]
                .iter()
                .all(|&(a, b)| wall(r0 + a, k0 + b))
    });
    !g[c] && p.clues[c] == EMPTY && !pool && ORTHOGONAL.iter().filter_map(|&d| shape.step(c, d)).any(|n| g[n])
}

/// One change near `c` that keeps `(p, g)` a valid puzzle and solution: an island takes or
/// gives up a cell, or an island's number moves to another of its cells.
fn reshape((p, g): &mut (Nurikabe, Shading), c: CellId, rng: &mut SplitMix64) -> bool {
    let shape = g.shape();
    let mut next = g.clone();
    match rng.below(3) {
        0 => {
            if !(try_island(&mut next, c)
                || ORTHOGONAL
                    .iter()
                    .filter_map(|&d| shape.step(c, d))
                    .any(|x| try_island(&mut next, x)))
            {
                return false;
            }
        }
        1 if can_wall(p, g, c) => next[c] = true,
        1 => return false,
        _ => {
            if g[c] {
                return false;
            }
            let island = island_of(g, c);
            let (from, to) = (
                island.iter().copied().find(|&x| p.clues[x] != EMPTY),
                island[rng.below(island.len())],
            );
            let Some(from) = from.filter(|&f| f != to) else {
                return false;
            };
            p.clues.as_mut_slice().swap(from.index(), to.index());
            return true;
        }
    }
    (*p, *g) = (numbered_like(p, &next), next);
    true
}

/// The numbers of `p` carried to the islands of `g` (each island keeps the number in it, its
/// size updated; an island without one gets its size at its first cell).
fn numbered_like(p: &Nurikabe, g: &Shading) -> Nurikabe {
    let mut clues = Grid::filled(g.shape(), EMPTY);
    for island in groups(g.shape(), |c| !g[c]) {
        let at = island
            .iter()
            .copied()
            .find(|&c| p.clues[c] != EMPTY)
            .unwrap_or(island[0]);
        clues[at] = island.len() as u32;
    }
    Nurikabe::from(clues)
}

/// A settled candidate with more cells left open than this is dropped before the driver's
/// uniqueness check, which a loose grid of this size would spend its whole budget on.
const CLOSE: usize = 8;

/// The generator behind [`Puzzle::generate`] (see the module docs).
pub fn generate(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
    let shape = Shape::new(req.height, req.width);
    pencilbox_core::generate::make(req, |rng| {
        let g = random_solution(shape, rng)?;
        let p = numbered(&g, rng);
        let (p, g) = pencilbox_core::generate::settle(
            (p, g),
            rng,
            3 * shape.cells(),
            |s| genre::undecided_limited(&s.0, &req.limits),
            reshape,
            &req.limits,
        );
        genre::undecided_limited(&p, &req.limits)
            .is_some_and(|u| u.len() <= CLOSE)
            .then_some((p, g))
    })
}
