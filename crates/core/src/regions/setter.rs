//! The setter's tools on region boards ([`crate::setter`]): the model's places, hints added to
//! separate two solutions, hints removed.

use super::Board;
use crate::engine::VarId;
use crate::grid::Grid;
use crate::setter::{cell_places, Clue, FactModel, ModelSearch, Setup};

/// For region boards (Suguru, Ripple Effect): each cell where `keep` and `drop` differ, as a
/// hint of `keep`'s value added to `board` (the amended board wrapped by `wrap` into the
/// family's type).
pub fn hints_added<Q>(board: &Board, keep: &Grid<u32>, drop: &Grid<u32>, wrap: impl Fn(Board) -> Q) -> Vec<Clue<Q>> {
    let shape = board.shape();
    shape
        .all()
        .filter(|&c| keep[c] != drop[c] && board.hint(c) == 0)
        .filter_map(|c| {
            let mut hints = board.hints().clone();
            hints[c] = keep[c];
            let puzzle = wrap(board.with_hints(hints).ok()?);
            Some(Clue {
                at: shape.name(c),
                value: keep[c],
                puzzle,
            })
        })
        .collect()
}

/// For region boards: each hint of `board`, with the board without it (wrapped by `wrap`).
pub fn hints_removed<Q>(board: &Board, wrap: impl Fn(Board) -> Q) -> Vec<Clue<Q>> {
    let shape = board.shape();
    shape
        .all()
        .filter(|&c| board.hint(c) != 0)
        .filter_map(|c| {
            let mut hints = board.hints().clone();
            hints[c] = 0;
            let puzzle = wrap(board.with_hints(hints).ok()?);
            Some(Clue {
                at: shape.name(c),
                value: board.hint(c),
                puzzle,
            })
        })
        .collect()
}

/// For region boards: the model's `search` with one place per cell (`cells[i]` is cell `i`,
/// row-major; the hints are the givens).
pub fn fact_model(board: &Board, search: impl ModelSearch + 'static, cells: &[VarId]) -> Setup {
    Setup::Model(FactModel {
        search: Box::new(search),
        places: cell_places(board.shape(), cells, |i| board.hints().as_slice()[i] != 0),
        vocabulary: None,
    })
}
