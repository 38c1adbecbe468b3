//! One hint for a player: a cell whose value is forced by the current grid, and the rule
//! that forces it (for the playground).
//!
//! The rules are tried from the simplest: a **naked single** (every other value of the
//! region's range is already in the cell's region or next to it), a **hidden single** (the
//! value fits in no other cell of the region), then the first cell fixed in the explanation
//! log ([`pencilbox_core::engine::Step`]s) of the [`crate::fast`] engine model's root
//! propagation: a chain of singles, or pointing and naked pairs as well. The engine runs the
//! cheap rules to their fixpoint before the costly ones, so a cell that singles alone fix is
//! found before any pointing or pair is used.

use crate::fast::{FastSearch, Rules};
use crate::model::Suguru;
use pencilbox_core::grid::KING;
use pencilbox_core::{CellId, Domain, Grid};

/// A forced cell.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Hint {
    /// The cell.
    pub cell: CellId,
    /// Its value.
    pub value: u32,
    /// The rule, in words.
    pub reason: String,
}

/// The candidates of every cell given the hints and the player's entries (`0` = empty);
/// `None` when an entry is out of range or clashes with another.
fn candidates(p: &Suguru, grid: &[u32]) -> Option<Vec<Domain>> {
    let shape = p.shape();
    let mut cand: Vec<Domain> = Vec::with_capacity(grid.len());
    for c in shape.all() {
        let size = p.region_size_of(c) as u32;
        let v = grid[c.index()];
        if v > size {
            return None;
        }
        cand.push(if v == 0 {
            Domain::range(1, size)
        } else {
            Domain::single(v)
        });
    }
    for c in shape.all() {
        let v = grid[c.index()];
        if v == 0 {
            continue;
        }
        let others = KING
            .iter()
            .filter_map(|&d| shape.step(c, d))
            .chain(p.region(p.region_of(c)).iter().copied().filter(|&x| x != c));
        for n in others {
            if grid[n.index()] == v {
                return None;
            }
            cand[n.index()].remove(v);
        }
    }
    Some(cand)
}

/// A forced cell of the position `partial` (the player's entries, `0` = empty; hints are taken
/// from the puzzle), with the rule forcing it. `None` when the position breaks a rule, is
/// complete, needs guessing, or has a region of more than 64 cells.
///
/// ```
/// use pencilbox_core::Grid;
/// let p = pencilbox_suguru::parse("1 3\n0 0 0\n1 1 2\n").unwrap();
/// let h = pencilbox_suguru::hint(&p, &Grid::filled(p.shape(), 0)).unwrap();
/// assert_eq!((p.shape().name(h.cell), h.value), ("r1c3".to_string(), 1));
/// assert!(h.reason.starts_with("naked single"));
/// ```
pub fn hint(p: &Suguru, partial: &Grid<u8>) -> Option<Hint> {
    let shape = p.shape();
    if partial.shape() != shape || p.max_region_size() > Domain::MAX as usize {
        return None;
    }
    let grid: Vec<u32> = shape
        .all()
        .map(|c| match p.hint(c) {
            0 => u32::from(partial[c]),
            h => h,
        })
        .collect();
    let cand = candidates(p, &grid)?;
    // Naked single.
    for c in shape.all() {
        if grid[c.index()] == 0 {
            if let Some(v) = cand[c.index()].value() {
                return Some(Hint {
                    cell: c,
                    value: v,
                    reason: format!(
                        "naked single: every other number of 1..{} is already in the region of {} or next to it",
                        p.region_size_of(c),
                        shape.name(c)
                    ),
                });
            }
            if cand[c.index()].is_empty() {
                return None; // the position is already contradictory
            }
        }
    }
    // Hidden single.
    for (k, cells) in p.regions().enumerate() {
        for v in 1..=cells.len() as u32 {
            if cells.iter().any(|&c| grid[c.index()] == v) {
                continue;
            }
            let mut fits = cells
                .iter()
                .filter(|&&c| grid[c.index()] == 0 && cand[c.index()].contains(v));
            if let (Some(&c), None) = (fits.next(), fits.next()) {
                return Some(Hint {
                    cell: c,
                    value: v,
                    reason: format!(
                        "hidden single: region {} needs a {v}, and {} is the only cell of it where {v} fits",
                        k + 1,
                        shape.name(c)
                    ),
                });
            }
        }
    }
    // Chains of singles, then full propagation: the first step of the engine's explanation
    // log (root propagation of the `fast` model of the position) that fixes an empty cell.
    let position = p.with_hints(Grid::from_vec(shape, grid.clone()).expect("sized")).ok()?;
    let mut s = FastSearch::with_rules(&position, Rules::ALL).ok()?;
    s.engine_mut().explain(true);
    if !s.propagate_root() {
        return None;
    }
    // The domains the model starts from: the given value, or the region's range.
    let mut doms: Vec<Domain> = shape
        .all()
        .map(|c| match grid[c.index()] {
            0 => Domain::range(1, p.region_size_of(c) as u32),
            v => Domain::single(v),
        })
        .collect();
    let mut beyond_singles = false;
    for step in s.engine().log()?.steps() {
        beyond_singles |= !SINGLES.contains(&step.rule);
        for change in &step.changes {
            let i = change.var.index();
            doms[i] = doms[i].minus(change.removed);
            if grid[i] != 0 {
                continue;
            }
            if let Some(value) = doms[i].value() {
                let c = CellId::from_index(i);
                let why = if beyond_singles {
                    "follows by propagation: a region's value confined to cells with common neighbours (pointing) or a naked pair removes candidates until only this one is left"
                } else {
                    "follows from a chain of naked and hidden singles"
                };
                return Some(Hint {
                    cell: c,
                    value,
                    reason: format!("{}: {why} (the last step: {})", shape.name(c), step.rule),
                });
            }
        }
    }
    None
}

/// The rules of a chain of singles in the explanation log.
const SINGLES: [&str; 2] = ["naked-single", "hidden-single"];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, Difficulty};
    use crate::solver;
    use pencilbox_core::search::Limits;

    #[test]
    fn following_hints_solves_a_medium_puzzle_to_its_unique_solution() {
        let p = generate(6, 6, Difficulty::Medium, 11);
        let sol = solver::solve(&p, None, &Limits::default()).unwrap().solution.unwrap();
        let mut grid = Grid::filled(p.shape(), 0u8);
        let mut steps = 0;
        while let Some(h) = hint(&p, &grid) {
            assert_eq!(h.value, sol[h.cell], "{}", h.reason);
            grid[h.cell] = h.value as u8;
            steps += 1;
        }
        assert_eq!(steps, p.shape().cells() - p.num_hints());
    }

    #[test]
    fn a_clashing_position_gets_no_hint() {
        let p = crate::parse("1 3\n0 0 0\n1 1 2\n").unwrap();
        let g = Grid::from_vec(p.shape(), vec![1, 1, 0]).unwrap();
        assert_eq!(hint(&p, &g), None);
    }
}
