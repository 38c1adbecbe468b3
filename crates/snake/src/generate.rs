//! Snake's generator: a random snake (a depth-first walk that never touches itself, to a
//! random length of 25–45 % of the cells, within a node budget), its ends and every count as
//! the complete puzzle, white circles added until it is unique ([`generate::repair`]) and
//! then until the rules without trial leave no cell open; the shared [`generate::make`] then
//! takes counts and circles away by difficulty.

use crate::Snake;
use pencilbox_core::genre::{self, Genre};
use pencilbox_core::grid::{KING, ORTHOGONAL};
use pencilbox_core::plugin::{GenerateRequest, Generated};
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::search::Limits;
use pencilbox_core::{generate, CellId, Grid, PuzzleError, Shape};

/// Can the snake whose head is `head` grow into `n`? Only if no snake cell but the head is
/// next to it, and every snake cell diagonal to it is next to the head.
fn fits(shape: Shape, on: &[bool], head: CellId, n: CellId) -> bool {
    let side = |a: CellId, b: CellId| {
        let ((r, c), (s, d)) = (shape.coords(a), shape.coords(b));
        r.abs_diff(s) + c.abs_diff(d) == 1
    };
    !on[n.index()]
        && KING
            .iter()
            .filter_map(|&d| shape.step(n, d))
            .all(|x| !on[x.index()] || x == head || (!side(n, x) && side(x, head)))
}

/// A random snake of `len` cells (depth first, random order, within `budget` steps).
fn random_snake(shape: Shape, len: usize, budget: u32, rng: &mut SplitMix64) -> Option<Vec<CellId>> {
    let mut on = vec![false; shape.cells()];
    let start = CellId::from_index(rng.below(shape.cells()));
    on[start.index()] = true;
    let mut path = vec![start];
    let mut choices: Vec<Vec<CellId>> = Vec::new();
    let mut steps = 0;
    loop {
        if path.len() >= len {
            return Some(path);
        }
        steps += 1;
        if steps > budget {
            return None;
        }
        if choices.len() < path.len() {
            let head = *path.last().expect("nonempty");
            let mut next: Vec<CellId> = ORTHOGONAL
                .iter()
                .filter_map(|&d| shape.step(head, d))
                .filter(|&n| fits(shape, &on, head, n))
                .collect();
            rng.shuffle(&mut next);
            choices.push(next);
        }
        match choices.last_mut().and_then(Vec::pop) {
            Some(n) => {
                on[n.index()] = true;
                path.push(n);
            }
            None => {
                choices.pop();
                let dead = path.pop()?;
                on[dead.index()] = false;
                if path.is_empty() {
                    return None;
                }
            }
        }
    }
}

/// `pencilbox generate -p snake`.
pub fn generate(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
    let shape = Shape::new(req.height, req.width);
    if shape.cells() < 2 {
        return Err(PuzzleError::unsupported("a snake needs at least two cells"));
    }
    let check = Limits {
        node_limit: Some(generate::NODES_PER_CELL * shape.cells() as u64),
        ..req.limits.clone()
    };
    generate::make(req, |rng| {
        let len = (shape.cells() * (25 + rng.below(21)) / 100).max(2);
        let path = random_snake(shape, len, 40 * shape.cells() as u32, rng)?;
        let mut on = Grid::from_vec(shape, vec![false; shape.cells()]).expect("sized");
        path.iter().for_each(|&c| on[c] = true);
        let count = |cells: &mut dyn Iterator<Item = CellId>| Some(cells.filter(|&c| on[c]).count() as u32);
        let columns = (0..shape.width)
            .map(|k| count(&mut (0..shape.height).map(|r| shape.id(r, k))))
            .collect();
        let rows = (0..shape.height)
            .map(|r| count(&mut (0..shape.width).map(|k| shape.id(r, k))))
            .collect();
        let full = Snake {
            ends: (path[0], path[path.len() - 1]),
            middles: Grid::from_vec(shape, vec![false; shape.cells()]).expect("sized"),
            columns,
            rows,
            entries: None,
        };
        let mut p = generate::repair(full, &on, rng, shape.cells(), &check)?;
        // White circles on the snake where the rules (without trial) leave cells open.
        loop {
            let open = genre::undecided(&p)?;
            let mut on_snake: Vec<CellId> = open.into_iter().filter(|&c| on[c] && !p.given(c)).collect();
            if on_snake.is_empty() {
                break;
            }
            rng.shuffle(&mut on_snake);
            p.middles[on_snake[0]] = true;
        }
        Some((p, on))
    })
}
