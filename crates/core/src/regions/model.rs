//! A region board on the [`engine`](crate::engine): one variable per cell and a permutation of
//! `1..=size` per region, ready for the family's own constraints.

use super::Board;
use crate::constraints::Distinct;
use crate::domain::Domain;
use crate::engine::{Engine, VarId};
use crate::grid::Grid;

/// The cell variables of a region board and the distinctness collected so far.
pub struct RegionModel {
    /// The engine holding the variables.
    pub engine: Engine,
    /// One variable per cell, row-major: `1..=size` of its region, or its hint.
    pub cells: Vec<VarId>,
    /// A permutation of `1..=size` per region; add the family's own pairs, then post it.
    pub distinct: Distinct,
}

impl RegionModel {
    /// The variables and region permutations of `board`; `None` when a region has more cells
    /// than a [`Domain`] has values (64).
    pub fn new(board: &Board) -> Option<Self> {
        let regions = board.regions();
        if regions.max_size() > Domain::MAX as usize {
            return None;
        }
        let mut engine = Engine::new();
        engine.reserve(board.shape().cells());
        let cells: Vec<VarId> = board
            .shape()
            .all()
            .map(|c| {
                engine.new_var(match board.hint(c) {
                    0 => Domain::range(1, regions.size_of(c) as u32),
                    h => Domain::single(h),
                })
            })
            .collect();
        let mut distinct = Distinct::new();
        let mut vars: Vec<VarId> = Vec::with_capacity(regions.max_size());
        for region in regions.iter() {
            vars.clear();
            vars.extend(region.iter().map(|c| cells[c.index()]));
            distinct.permutation(&vars, Domain::range(1, vars.len() as u32));
        }
        Some(RegionModel {
            engine,
            cells,
            distinct,
        })
    }
}

/// The filled grid of an engine state (`0` where a cell is not fixed).
pub fn decode(board: &Board, engine: &Engine, cells: &[VarId]) -> Grid<u32> {
    let values = cells.iter().map(|&v| engine.value(v).unwrap_or(0)).collect();
    Grid::from_vec(board.shape(), values).expect("one variable per cell")
}
