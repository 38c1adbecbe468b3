//! What the Path test files share: the brute-force oracle and the random-instance strategy.
//! Each test binary uses part of it.
#![allow(dead_code)]

use pencilbox_core::testing::simple_paths;
use pencilbox_core::{CellId, Shape};
use pencilbox_pathpuzzle::PathPuzzle;
use proptest::prelude::*;

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

fn edge_cell(shape: Shape, k: usize) -> (usize, usize) {
    let edge: Vec<CellId> = shape.all().filter(|&c| shape.on_edge(c)).collect();
    shape.coords(edge[k % edge.len()])
}

/// A random instance: doors on the edge, clues from −3 to the side (negative = no clue, about a
/// third of the time); unclued rows and columns make the search trees large.
pub fn arb_instance() -> impl Strategy<Value = PathPuzzle> {
    (1usize..=5, 1usize..=5)
        .prop_filter("at least two cells", |(h, w)| h * w >= 2)
        .prop_flat_map(|(h, w)| {
            (
                Just((h, w)),
                any::<usize>(),
                any::<usize>(),
                proptest::collection::vec(-3i64..=w as i64, h),
                proptest::collection::vec(-3i64..=h as i64, w),
            )
        })
        .prop_map(|((h, w), a, b, rows, cols)| {
            let shape = Shape::new(h, w);
            let clue = |v: i64| (v >= 0).then_some(v as u32);
            PathPuzzle::new(
                h,
                w,
                edge_cell(shape, a),
                edge_cell(shape, b),
                rows.into_iter().map(clue).collect(),
                cols.into_iter().map(clue).collect(),
            )
            .unwrap()
        })
}
