//! The setter's tools for Sudoku ([`pencilbox_core::setter`]): the engine model of
//! [`crate::model`] with every rule (Nishio included) searched as `deduce` searches when its
//! rules stall ([`crate::backtrack::engine_search`]), one place per cell for `forced`; givens
//! added at the cells where two solutions differ for `count --suggest`, and the givens to remove
//! for `count --redundant`.
//!
//! The model starts from the givens alone (not from [`Candidates::from_puzzle`], which already
//! removes each given from its peers), so that every elimination is a step of a named rule.

use crate::backtrack::engine_search;
use crate::board::{Candidates, Sudoku};
use crate::model::Model;
use crate::solver::RuleSet;
use pencilbox_core::engine::VarId;
use pencilbox_core::setter::{cell_places, Clue, FactModel, Setup};
use pencilbox_core::{Domain, Limits, Shape};

/// The model of `p` and its cells, or why the givens already clash.
pub fn fact_model(p: &Sudoku, limits: &Limits) -> Setup {
    if let Err(e) = Candidates::from_puzzle(p) {
        return Setup::NoSolution(e.message);
    }
    let n = p.n();
    let cells: Vec<Domain> = p
        .givens()
        .iter()
        .map(|&v| match v {
            0 => Domain::range(1, n as u32),
            v => Domain::single(u32::from(v)),
        })
        .collect();
    let cand = Candidates::from_cells(p.block(), cells).expect("one domain per cell");
    let m = Model::new(&cand, RuleSet::ALL, limits);
    let vars: Vec<VarId> = (0..n * n).map(VarId::from_index).collect();
    let places = cell_places(Shape::new(n, n), &vars, |i| p.givens()[i] != 0);
    Setup::Model(FactModel {
        search: Box::new(engine_search(m.engine, m.geo)),
        places,
    })
}

/// A given of `keep`'s value at each cell where it differs from `drop`.
pub fn separating_clues(p: &Sudoku, keep: &[u8], drop: &[u8]) -> Vec<Clue<Sudoku>> {
    let shape = Shape::new(p.n(), p.n());
    (0..keep.len())
        .filter(|&i| keep[i] != drop[i] && p.givens()[i] == 0)
        .filter_map(|i| {
            let mut givens = p.givens().to_vec();
            givens[i] = keep[i];
            Some(Clue {
                at: shape.name(pencilbox_core::CellId::from_index(i)),
                value: u32::from(keep[i]),
                puzzle: Sudoku::new(p.block(), givens)?,
            })
        })
        .collect()
}

/// Each given, with the puzzle without it.
pub fn removable_clues(p: &Sudoku) -> Vec<Clue<Sudoku>> {
    let shape = Shape::new(p.n(), p.n());
    (0..p.givens().len())
        .filter(|&i| p.givens()[i] != 0)
        .filter_map(|i| {
            let mut givens = p.givens().to_vec();
            givens[i] = 0;
            Some(Clue {
                at: shape.name(pencilbox_core::CellId::from_index(i)),
                value: u32::from(p.givens()[i]),
                puzzle: Sudoku::new(p.block(), givens)?,
            })
        })
        .collect()
}
