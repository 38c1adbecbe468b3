//! Rows, columns, blocks and peers of an `ab × ab` grid, computed once per block shape and
//! shared (thread-safe cache).

use crate::board::BlockShape;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The kind of a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    /// A row.
    Row,
    /// A column.
    Col,
    /// A block.
    Block,
}

/// The units and peers of one grid shape.
#[derive(Debug)]
pub struct Geometry {
    block: BlockShape,
    /// Units: `n` rows, then `n` columns, then `n` blocks; each lists its `n` cells.
    units: Vec<Vec<u16>>,
    /// For each cell, its row, column and block unit indices.
    cell_units: Vec<[u16; 3]>,
    /// For each cell, the other cells sharing a unit with it.
    peers: Vec<Vec<u16>>,
}

fn cache() -> &'static Mutex<HashMap<BlockShape, Arc<Geometry>>> {
    static CACHE: OnceLock<Mutex<HashMap<BlockShape, Arc<Geometry>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

impl Geometry {
    /// The (cached) geometry of a block shape.
    pub fn get(block: BlockShape) -> Arc<Geometry> {
        let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
        map.entry(block)
            .or_insert_with(|| Arc::new(Geometry::build(block)))
            .clone()
    }

    fn build(block: BlockShape) -> Geometry {
        let n = block.n();
        let mut units = vec![Vec::with_capacity(n); 3 * n];
        let mut cell_units = vec![[0u16; 3]; n * n];
        for r in 0..n {
            for c in 0..n {
                let i = r * n + c;
                let b = block.block_of(r, c);
                units[r].push(i as u16);
                units[n + c].push(i as u16);
                units[2 * n + b].push(i as u16);
                cell_units[i] = [r as u16, (n + c) as u16, (2 * n + b) as u16];
            }
        }
        let peers = (0..n * n)
            .map(|i| {
                let mut p: Vec<u16> = cell_units[i]
                    .iter()
                    .flat_map(|&u| units[u as usize].iter().copied())
                    .filter(|&j| j as usize != i)
                    .collect();
                p.sort_unstable();
                p.dedup();
                p
            })
            .collect();
        Geometry {
            block,
            units,
            cell_units,
            peers,
        }
    }
    /// The block shape.
    pub fn block(&self) -> BlockShape {
        self.block
    }
    /// The side.
    pub fn n(&self) -> usize {
        self.block.n()
    }
    /// All `3n` units (rows, columns, blocks).
    pub fn units(&self) -> &[Vec<u16>] {
        &self.units
    }
    /// The cells of unit `u`.
    pub fn unit(&self, u: usize) -> &[u16] {
        &self.units[u]
    }
    /// Row, column and block of cell `i`.
    pub fn cell_units(&self, i: usize) -> [u16; 3] {
        self.cell_units[i]
    }
    /// The peers of cell `i`.
    pub fn peers(&self, i: usize) -> &[u16] {
        &self.peers[i]
    }
    /// What kind of unit `u` is.
    pub fn unit_kind(&self, u: usize) -> UnitKind {
        match u / self.n() {
            0 => UnitKind::Row,
            1 => UnitKind::Col,
            _ => UnitKind::Block,
        }
    }
    /// `row 3`, `column 5`, `block 7` (1-based).
    pub fn unit_name(&self, u: usize) -> String {
        let k = u % self.n() + 1;
        match self.unit_kind(u) {
            UnitKind::Row => format!("row {k}"),
            UnitKind::Col => format!("column {k}"),
            UnitKind::Block => format!("block {k}"),
        }
    }
    /// `r3c4` (1-based).
    pub fn name(&self, i: usize) -> String {
        format!("r{}c{}", i / self.n() + 1, i % self.n() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nine_by_nine_cell_has_twenty_peers() {
        let g = Geometry::get(BlockShape::new(3, 3));
        assert!((0..81).all(|i| g.peers(i).len() == 20));
        assert_eq!(g.unit(18), &[0, 1, 2, 9, 10, 11, 18, 19, 20]);
    }

    #[test]
    fn two_by_three_blocks_are_two_rows_tall() {
        let g = Geometry::get(BlockShape::new(2, 3));
        assert_eq!(g.unit(12), &[0, 1, 2, 6, 7, 8]);
        assert_eq!(g.unit(13), &[3, 4, 5, 9, 10, 11]);
    }
}
