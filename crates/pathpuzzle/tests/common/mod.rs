//! The brute-force oracle shared by the Path test files.

use pencilbox_core::testing::simple_paths;
use pencilbox_core::CellId;
use pencilbox_pathpuzzle::PathPuzzle;

/// Every simple path from door A to door B (core's `testing::simple_paths`), kept when its row
/// and column counts match the clues. Independent of the solvers: no pruning, clues checked only
/// at the end.
pub fn paths(p: &PathPuzzle) -> Vec<Vec<CellId>> {
    let shape = p.shape();
    if p.door_a() == p.door_b() {
        return Vec::new();
    }
    simple_paths(shape, p.cell_a(), p.cell_b())
        .into_iter()
        .filter(|path| {
            let mut rows = vec![0u32; shape.height];
            let mut cols = vec![0u32; shape.width];
            for &c in path {
                let (r, col) = shape.coords(c);
                rows[r] += 1;
                cols[col] += 1;
            }
            let ok_rows = p.row_clues().iter().zip(&rows).all(|(c, &n)| c.is_none_or(|v| v == n));
            let ok_cols = p.col_clues().iter().zip(&cols).all(|(c, &n)| c.is_none_or(|v| v == n));
            ok_rows && ok_cols
        })
        .collect()
}
