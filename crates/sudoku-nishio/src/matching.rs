//! The bipartite matching approximation of Nishio (Eppstein, Section 2, after his reference \[9\], *Nonrepetitive paths and cycles in graphs with application to Sudoku*): rows and
//! columns are the two sides, cells of `S` the edges; the cells on *some* perfect matching form
//! `T` with `Nishio(S) ⊆ T ⊆ S`. Blocks are ignored, so `T` may keep cells Nishio removes.
//!
//! Algorithm: a maximum matching by augmenting paths (Kuhn; `n ≤ 35`), then the strongly
//! connected components of the residual digraph (matched edges column → row, the others
//! row → column), computed with petgraph's Tarjan SCC. An unmatched edge lies on a perfect
//! matching exactly when its ends share a component (it closes an alternating cycle). When
//! there is no perfect matching, `T = ∅`.

use crate::board::CellMask;
use petgraph::graph::DiGraph;

/// A maximum matching: `row_of[c]` = the row matched to column `c`.
pub fn max_matching(s: &CellMask) -> Vec<Option<usize>> {
    let n = s.n();
    let mut row_of: Vec<Option<usize>> = vec![None; n];
    let mut col_of: Vec<Option<usize>> = vec![None; n];
    fn augment(
        s: &CellMask,
        r: usize,
        seen: &mut u64,
        row_of: &mut [Option<usize>],
        col_of: &mut [Option<usize>],
    ) -> bool {
        for c in 0..s.n() {
            if s.contains(r, c) && *seen >> c & 1 == 0 {
                *seen |= 1 << c;
                let free = match row_of[c] {
                    None => true,
                    Some(r2) => augment(s, r2, seen, row_of, col_of),
                };
                if free {
                    row_of[c] = Some(r);
                    col_of[r] = Some(c);
                    return true;
                }
            }
        }
        false
    }
    for r in 0..n {
        let mut seen = 0u64;
        augment(s, r, &mut seen, &mut row_of, &mut col_of);
    }
    row_of
}

/// `T`: the cells of `S` on at least one perfect matching of the row–column graph.
pub fn matching_keep(s: &CellMask) -> CellMask {
    let n = s.n();
    let row_of = max_matching(s);
    if row_of.iter().any(Option::is_none) {
        return CellMask::empty(n);
    }
    let mut g: DiGraph<(), ()> = DiGraph::with_capacity(2 * n, s.len());
    let nodes: Vec<_> = (0..2 * n).map(|_| g.add_node(())).collect();
    for (r, c) in s.iter() {
        if row_of[c] == Some(r) {
            g.add_edge(nodes[n + c], nodes[r], ());
        } else {
            g.add_edge(nodes[r], nodes[n + c], ());
        }
    }
    let mut comp = vec![0usize; 2 * n];
    for (k, scc) in petgraph::algo::tarjan_scc(&g).into_iter().enumerate() {
        for v in scc {
            comp[v.index()] = k;
        }
    }
    let mut keep = CellMask::empty(n);
    for (r, c) in s.iter() {
        if row_of[c] == Some(r) || comp[r] == comp[n + c] {
            keep.insert(r, c);
        }
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forced_permutation_keeps_only_itself() {
        // Rows 0,1 can only use columns 0,1; the cell (2,0) cannot be on a perfect matching.
        let mut s = CellMask::empty(4);
        for (r, c) in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 2), (3, 3)] {
            s.insert(r, c);
        }
        let t = matching_keep(&s);
        assert!(!t.contains(2, 0));
        assert!(t.contains(0, 1) && t.contains(2, 2) && t.contains(3, 3));
        assert_eq!(t.len(), 6);
    }

    #[test]
    fn no_perfect_matching_keeps_nothing() {
        let mut s = CellMask::full(4);
        s.set_col(3, 0);
        assert!(matching_keep(&s).is_empty());
    }
}
