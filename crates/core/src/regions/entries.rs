//! A player's entries on a region board (hints from a position, `hint --entries`): the board
//! with the entries as hints, and the entries the only solution lacks.

use super::{parse_answer, Board, BoardError};
use crate::error::PuzzleError;
use crate::grid::Grid;
use crate::human::Fact;

/// A region board with a player's entries (an answer-format grid, `0` = empty) added to its
/// hints; an entry that differs from a hint, or is too large for its region, is refused.
pub fn with_entries(board: &Board, entries: &str) -> Result<Board, crate::error::PuzzleError> {
    let shape = board.shape();
    let grid = parse_answer(entries, shape).map_err(PuzzleError::Solution)?;
    let mut hints = board.hints().clone();
    for c in shape.all() {
        match (board.hint(c), grid[c]) {
            (_, 0) => {}
            (0, v) => hints[c] = v,
            (h, v) if h == v => {}
            (h, v) => {
                return Err(PuzzleError::Entries(format!(
                    "the entry {v} at {} differs from its hint {h}",
                    shape.name(c)
                )))
            }
        }
    }
    board.with_hints(hints).map_err(|e| {
        PuzzleError::Entries(match e {
            BoardError::HintTooLarge { cell, hint, size } => format!(
                "the entry {hint} at {} is larger than its region ({size} cells)",
                shape.name(cell)
            ),
            _ => "the grid of entries has the wrong size".to_string(),
        })
    })
}

/// The player's entries (an answer-format grid, `0` = empty) on a region board that differ
/// from `solution`, as facts `r2c3` = the entered number (hints are not entries).
pub fn wrong_entries(board: &Board, entries: &str, solution: &Grid<u32>) -> Option<Vec<Fact>> {
    let shape = board.shape();
    let grid = parse_answer(entries, shape).ok()?;
    Some(
        shape
            .all()
            .filter(|&c| grid[c] != 0 && board.hint(c) == 0 && grid[c] != solution[c])
            .map(|c| Fact {
                cell: shape.name(c),
                value: grid[c].to_string(),
            })
            .collect(),
    )
}
