//! The pattern overlay baseline (Eppstein, Section 2; Sudopedia "Pattern Overlay Method"):
//! precompute every valid placement of one digit, then keep the union of those inside `S`.
//!
//! A placement is stored as its row per column (`n` bytes). There are `(a!)^(n/a)·(b!)^(n/b)`
//! of them: 46,656 for 9×9 but 110,075,314,176 for 16×16, where the method is infeasible;
//! [`Overlay::get`] refuses shapes with more than [`MAX_PLACEMENTS`].

use crate::board::{BlockShape, CellMask};
use crate::graph::placement_count;
use crate::nishio::Nishio;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The largest placement list built.
pub const MAX_PLACEMENTS: u128 = 2_000_000;

/// Every valid placement of one block shape.
#[derive(Debug)]
pub struct Overlay {
    n: usize,
    rows: Vec<u8>,
}

type Slot = Arc<OnceLock<Arc<Overlay>>>;

fn cache() -> &'static Mutex<HashMap<BlockShape, Slot>> {
    static CACHE: OnceLock<Mutex<HashMap<BlockShape, Slot>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Drops the cached placement lists of shapes larger than `keep_up_to`×`keep_up_to`.
pub(crate) fn release(keep_up_to: usize) {
    let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
    map.retain(|b, _| b.n() <= keep_up_to);
}

impl Overlay {
    /// The cached placement list of a shape, or why it is infeasible.
    pub fn get(block: BlockShape) -> Result<Arc<Overlay>, String> {
        let count = placement_count(block);
        if count > MAX_PLACEMENTS {
            return Err(format!(
                "pattern overlay is infeasible for {n}×{n}: {count} valid placements per digit (limit {MAX_PLACEMENTS})",
                n = block.n()
            ));
        }
        let slot = {
            let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
            map.entry(block).or_default().clone()
        };
        Ok(slot.get_or_init(|| Arc::new(Overlay::build(block))).clone())
    }

    /// Enumerates every valid placement (column by column, a free row in a free block).
    pub fn build(block: BlockShape) -> Overlay {
        let n = block.n();
        let mut rows = Vec::new();
        let mut cur = vec![0u8; n];
        fn rec(block: BlockShape, c: usize, used_rows: u64, used_blocks: u64, cur: &mut [u8], out: &mut Vec<u8>) {
            let n = block.n();
            if c == n {
                out.extend_from_slice(cur);
                return;
            }
            for r in 0..n {
                let b = block.block_of(r, c);
                if used_rows >> r & 1 == 0 && used_blocks >> b & 1 == 0 {
                    cur[c] = r as u8;
                    rec(block, c + 1, used_rows | 1 << r, used_blocks | 1 << b, cur, out);
                }
            }
        }
        rec(block, 0, 0, 0, &mut cur, &mut rows);
        Overlay { n, rows }
    }

    /// Number of placements.
    pub fn len(&self) -> usize {
        self.rows.len() / self.n.max(1)
    }
    /// No placements?
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
    /// Placement `i` as its row per column.
    pub fn placement(&self, i: usize) -> &[u8] {
        &self.rows[i * self.n..(i + 1) * self.n]
    }

    /// Nishio(S) by overlay, with the number of placements inside `S`.
    pub fn nishio(&self, s: &CellMask) -> Nishio {
        let n = self.n;
        let mut keep = CellMask::empty(n);
        let mut count = 0u128;
        let cols: Vec<u64> = (0..n).map(|c| s.col(c)).collect();
        'next: for p in self.rows.chunks_exact(n) {
            for (c, &r) in p.iter().enumerate() {
                if cols[c] >> r & 1 == 0 {
                    continue 'next;
                }
            }
            count += 1;
            for (c, &r) in p.iter().enumerate() {
                keep.insert(r as usize, c);
            }
        }
        Nishio {
            keep,
            placements: Some(count),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_by_nine_has_46656_placements() {
        assert_eq!(Overlay::get(BlockShape::new(3, 3)).unwrap().len(), 46656);
        assert_eq!(Overlay::get(BlockShape::new(2, 3)).unwrap().len(), 288);
    }

    #[test]
    fn sixteen_by_sixteen_is_refused_with_its_placement_count() {
        let e = Overlay::get(BlockShape::new(4, 4)).unwrap_err();
        assert!(e.contains("110075314176"), "{e}");
    }
}
