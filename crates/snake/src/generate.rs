//! Snake's generator: a random snake ([`cells::random_snake`], 25–45 % of the cells), its ends and every count as
//! the complete puzzle, white circles added until it is unique ([`generate::repair`]) and
//! then until the rules without trial leave no cell open; the shared [`generate::make`] then
//! takes counts and circles away by difficulty.

use crate::Snake;
use pencilbox_core::genre::{self, Genre};
use pencilbox_core::lines::cells;
use pencilbox_core::plugin::{GenerateRequest, Generated};
use pencilbox_core::search::Limits;
use pencilbox_core::{generate, CellId, Grid, PuzzleError, Shape};

/// `pencilbox generate snake`.
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
        let path = cells::random_snake(shape, len, 40 * shape.cells() as u32, rng)?;
        let mut on = Grid::filled(shape, false);
        path.iter().for_each(|&c| on[c] = true);
        let (columns, rows) = pencilbox_core::counts::line_counts(&on);
        let full = Snake {
            ends: (path[0], path[path.len() - 1]),
            middles: Grid::filled(shape, false),
            columns,
            rows,
            entries: None,
        };
        let mut p = generate::repair(full, &on, rng, shape.cells(), &check)?;
        // White circles on the snake where the rules (without trial) leave cells open.
        loop {
            // One propagation of the grid per circle: it reads the deadline (`None` once past).
            let open = genre::undecided_limited(&p, &req.limits)?;
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
