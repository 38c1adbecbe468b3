//! The setter's tools for Path puzzles ([`pencilbox_core::setter`]): the `fast` link model
//! ([`crate::fast`]) for `forced`, whose places are the cells (`used` / `unused`; the doors are
//! the givens) and the links between adjacent cells (`r2c3-r2c4`: `line` / `blank`); row and
//! column count clues for `count --suggest` (the only clues the format has) and
//! `count --redundant`.

use crate::checks::no_solution_reason;
use crate::fast::{link_search, Rules};
use crate::kind::algorithm_with_settings;
use crate::model::{Arrow, Configuration};
use crate::solve::Algorithm;
use crate::PathPuzzle;
use pencilbox_core::lines::LineModel;
use pencilbox_core::setter::{Clue, FactModel, Setup};
use pencilbox_core::{PuzzleError, RunOptions};

/// The `fast` model of `p` (its rules as `--set rules=…` says, line branching) with every cell
/// and link as a place, or why the clues rule out a solution (Theorems 1–2 and the other
/// instant checks).
pub fn fact_model(p: &PathPuzzle, opts: &RunOptions) -> Result<Setup, PuzzleError> {
    let rules = match algorithm_with_settings(None, opts)? {
        Algorithm::Fast(rules) => rules,
        _ => Rules::default(),
    };
    if let Some(reason) = no_solution_reason(p) {
        return Ok(Setup::NoSolution(reason));
    }
    let search = link_search(p, &rules, None);
    let vars = search.brancher.model().vars.clone();
    let ends = (p.cell_a(), p.cell_b());
    let line = LineModel { vars, ends: Some(ends) };
    // The explainer's names over the same variables: `forced` names its rules as techniques.
    Ok(Setup::Model(FactModel {
        places: line.places(|c| c == ends.0 || c == ends.1),
        vocabulary: Some(Box::new(crate::explain::vocabulary(p, &line.vars, None))),
        search: Box::new(search),
    }))
}

/// Cells on the path in each row and each column.
fn counts(p: &PathPuzzle, a: &Configuration) -> (Vec<u32>, Vec<u32>) {
    let shape = p.shape();
    let (mut rows, mut cols) = (vec![0; shape.height], vec![0; shape.width]);
    for c in shape.all() {
        if a[c] != Arrow::Empty {
            let (r, k) = shape.coords(c);
            rows[r] += 1;
            cols[k] += 1;
        }
    }
    (rows, cols)
}

/// A count clue of `keep` for each unclued row and column whose count differs in `drop`.
pub fn separating_clues(p: &PathPuzzle, keep: &Configuration, drop: &Configuration) -> Vec<Clue<PathPuzzle>> {
    let ((kr, kc), (dr, dc)) = (counts(p, keep), counts(p, drop));
    let mut out = Vec::new();
    for r in 0..p.height() {
        if p.row_clues()[r].is_none() && kr[r] != dr[r] {
            let mut rows = p.row_clues().to_vec();
            rows[r] = Some(kr[r]);
            if let Ok(puzzle) = p.with_clues(rows, p.col_clues().to_vec()) {
                out.push(Clue {
                    at: format!("row {}", r + 1),
                    value: kr[r],
                    puzzle,
                });
            }
        }
    }
    for c in 0..p.width() {
        if p.col_clues()[c].is_none() && kc[c] != dc[c] {
            let mut cols = p.col_clues().to_vec();
            cols[c] = Some(kc[c]);
            if let Ok(puzzle) = p.with_clues(p.row_clues().to_vec(), cols) {
                out.push(Clue {
                    at: format!("column {}", c + 1),
                    value: kc[c],
                    puzzle,
                });
            }
        }
    }
    out
}

/// Each row and column clue, with the puzzle without it.
pub fn removable_clues(p: &PathPuzzle) -> Vec<Clue<PathPuzzle>> {
    let mut out = Vec::new();
    for (r, clue) in p.row_clues().iter().enumerate() {
        if let Some(v) = *clue {
            let mut rows = p.row_clues().to_vec();
            rows[r] = None;
            if let Ok(puzzle) = p.with_clues(rows, p.col_clues().to_vec()) {
                out.push(Clue {
                    at: format!("row {}", r + 1),
                    value: v,
                    puzzle,
                });
            }
        }
    }
    for (c, clue) in p.col_clues().iter().enumerate() {
        if let Some(v) = *clue {
            let mut cols = p.col_clues().to_vec();
            cols[c] = None;
            if let Ok(puzzle) = p.with_clues(p.row_clues().to_vec(), cols) {
                out.push(Clue {
                    at: format!("column {}", c + 1),
                    value: v,
                    puzzle,
                });
            }
        }
    }
    out
}
