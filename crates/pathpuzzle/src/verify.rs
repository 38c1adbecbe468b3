//! The O(mn) verifier (paper, Section IV): Algorithm 1 (ISCONNECTED — one non-intersecting
//! path from door A to door B and no stray path cells) and Algorithm 2 (COMPLYCONSTRAINT —
//! every clued row and column holds exactly its number of path cells).
//!
//! The paper's functions return a boolean at the first failure; here the same two passes
//! collect *every* violation with its place (`r3c4`, `row 2`, `column 5`), so a user sees all
//! that is wrong at once.
//!
//! # Door B: any arrow, where Algorithm 1 asks for `u`
//! Algorithm 1, line 2, rejects a configuration whose door-B cell is not exactly `u`
//! (`A[i_b][j_b] ≠ u`), and the authors' `codes/verifier.cpp` does the same. This verifier
//! deliberately accepts **any** arrow at door B (`d`, `l`, `r` or `u`) and rejects only `0`
//! ("door B is not on the path"). The reason is Section 2.1: the `u` at door B is a convention
//! of the paper's array ("this `u` can be changed with any character other than 0"); the path
//! ends at door B, so that cell's arrow is never followed and carries no information (it may
//! even point out of the grid). A configuration that differs from a paper solution only in
//! the arrow at door B therefore describes the same path, and is accepted. Every solver here
//! writes `u` at door B (Algorithm 3, line 5), so solutions we print are accepted by the
//! authors' verifier too. The behaviour is pinned by the test
//! `door_b_accepts_every_arrow_and_refuses_only_an_empty_cell` below.

use crate::model::{Arrow, Configuration, PathPuzzle};
use pencilbox_core::{CellSet, Violation};

/// Every rule that configuration `a` breaks for puzzle `p` (empty = `a` is a solution).
///
/// ```
/// use pencilbox_pathpuzzle::{parse_configuration, verify::violations, PathPuzzle};
/// let p = PathPuzzle::parse("3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n").unwrap();
/// let good = parse_configuration(&p, "r r d\nu 0 d\n0 u l").unwrap();
/// assert!(violations(&p, &good).is_empty());
/// let bad = parse_configuration(&p, "r r d\nu 0 d\n0 u 0").unwrap();
/// let v = violations(&p, &bad);
/// assert_eq!(v[0].at, "r2c3");
/// ```
pub fn violations(p: &PathPuzzle, a: &Configuration) -> Vec<Violation> {
    let mut out = Vec::new();
    let shape = p.shape();
    let (ca, cb) = (p.cell_a(), p.cell_b());
    // Algorithm 1, lines 2-4: both doors are on the path.
    if a[ca] == Arrow::Empty {
        out.push(Violation::new(
            shape.name(ca),
            "door-empty",
            "door A is not on the path",
        ));
    }
    if a[cb] == Arrow::Empty {
        out.push(Violation::new(
            shape.name(cb),
            "door-empty",
            "door B is not on the path",
        ));
    }
    // Algorithm 1, lines 5-23: follow the arrows from door A.
    let mut visited = CellSet::new(shape.cells());
    if a[ca] != Arrow::Empty && ca != cb {
        let mut c = ca;
        loop {
            visited.insert(c);
            if c == cb {
                break;
            }
            let arrow = a[c];
            let Some(next) = shape.step(c, arrow.delta()) else {
                out.push(Violation::new(
                    shape.name(c),
                    "leaves-grid",
                    format!("the arrow `{arrow}` points out of the grid before reaching door B"),
                ));
                break;
            };
            if visited.contains(next) {
                out.push(Violation::new(
                    shape.name(next),
                    "crossing",
                    format!("the path comes back to {} (from {})", shape.name(next), shape.name(c)),
                ));
                break;
            }
            if a[next] == Arrow::Empty {
                out.push(Violation::new(
                    shape.name(c),
                    "broken-path",
                    format!(
                        "the arrow `{arrow}` points to the empty cell {} before reaching door B",
                        shape.name(next)
                    ),
                ));
                break;
            }
            c = next;
        }
    } else if ca == cb {
        out.push(Violation::new(
            shape.name(ca),
            "doors",
            "the two doors are the same cell",
        ));
    }
    // Algorithm 1, lines 24-30: no path cell outside the traversed path.
    for c in shape.all() {
        if a[c] != Arrow::Empty && !visited.contains(c) {
            out.push(Violation::new(
                shape.name(c),
                "stray",
                format!(
                    "{} is marked `{}` but is not on the path from door A to door B",
                    shape.name(c),
                    a[c]
                ),
            ));
        }
    }
    // Algorithm 2: clue compliance.
    let mut rows = vec![0u32; p.height()];
    let mut cols = vec![0u32; p.width()];
    for c in shape.all() {
        if a[c] != Arrow::Empty {
            let (r, col) = shape.coords(c);
            rows[r] += 1;
            cols[col] += 1;
        }
    }
    for (i, (&clue, &n)) in p.row_clues().iter().zip(&rows).enumerate() {
        if let Some(v) = clue.filter(|&v| v != n) {
            out.push(Violation::new(
                format!("row {}", i + 1),
                "row-clue",
                format!("row {} has {n} path cells, its clue is {v}", i + 1),
            ));
        }
    }
    for (j, (&clue, &n)) in p.col_clues().iter().zip(&cols).enumerate() {
        if let Some(v) = clue.filter(|&v| v != n) {
            out.push(Violation::new(
                format!("column {}", j + 1),
                "column-clue",
                format!("column {} has {n} path cells, its clue is {v}", j + 1),
            ));
        }
    }
    out
}

/// True when `a` solves `p` (Section 4.3: Algorithms 1 and 2 both accept).
pub fn is_solution(p: &PathPuzzle, a: &Configuration) -> bool {
    violations(p, a).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse_configuration;

    fn fig5() -> PathPuzzle {
        PathPuzzle::parse("3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n").unwrap()
    }

    fn rules(grid: &str) -> Vec<(String, String)> {
        let p = fig5();
        let a = parse_configuration(&p, grid).unwrap();
        violations(&p, &a).into_iter().map(|v| (v.at, v.rule)).collect()
    }

    fn pair(at: &str, rule: &str) -> (String, String) {
        (at.to_string(), rule.to_string())
    }

    #[test]
    fn the_figure_5_solution_has_no_violation() {
        assert!(rules("r r d\nu 0 d\n0 u l").is_empty());
        // Door B may hold any non-empty arrow.
        assert!(rules("r r d\nu 0 d\n0 r l").is_empty());
    }

    #[test]
    fn door_b_accepts_every_arrow_and_refuses_only_an_empty_cell() {
        // Figure 5's solution ends at door B = r3c2, entered from r3c3. Algorithm 1 (line 2)
        // accepts only `u` there; this verifier accepts any arrow, even `d`, which points out
        // of the grid, since the path ends at B and its arrow is never followed.
        for b in ['u', 'd', 'l', 'r'] {
            assert!(rules(&format!("r r d\nu 0 d\n0 {b} l")).is_empty(), "door B = {b}");
        }
        assert_eq!(rules("r r d\nu 0 d\n0 0 l")[0], pair("r3c2", "door-empty"));
        // The arrow at door A, by contrast, is followed like any other.
        assert_eq!(rules("r r d\nd 0 d\n0 u l")[0], pair("r2c1", "broken-path"));
    }

    #[test]
    fn an_empty_grid_reports_both_doors_and_every_clue() {
        let v = rules("000 000 000");
        assert_eq!(v[0], pair("r2c1", "door-empty"));
        assert_eq!(v[1], pair("r3c2", "door-empty"));
        assert_eq!(v.len(), 2 + 3 + 3);
        assert!(v.contains(&pair("column 3", "column-clue")));
    }

    #[test]
    fn an_arrow_out_of_the_grid_is_reported_where_it_leaves() {
        let v = rules("r r r\nu 0 d\n0 u l");
        assert_eq!(v[0], pair("r1c3", "leaves-grid"));
        // The rest of the path is then stray.
        assert!(v.contains(&pair("r2c3", "stray")));
    }

    #[test]
    fn a_revisit_is_reported_at_the_crossing_cell() {
        // r2c1 -> r1c1 -> r1c2 -> r2c2 -> r2c1 again.
        let v = rules("r d 0\nu l 0\n0 u 0");
        assert_eq!(v[0], pair("r2c1", "crossing"));
    }

    #[test]
    fn a_separate_loop_or_dangling_cell_is_stray() {
        let v = rules("r r d\nu 0 d\nd u l");
        assert_eq!(
            v,
            vec![
                pair("r3c1", "stray"),
                pair("row 3", "row-clue"),
                pair("column 1", "column-clue")
            ]
        );
    }

    #[test]
    fn an_arrow_into_an_empty_cell_breaks_the_path() {
        let v = rules("r r 0\nu 0 d\n0 u l");
        assert_eq!(v[0], pair("r1c2", "broken-path"));
    }
}
