//! Instant no-solution checks run before any search (paper, Section III).
//!
//! * **Definition 1**: the doors are two *distinct* cells on the edge, and clues are in range
//!   (`0..=n` for rows, `0..=m` for columns). The text parser already refuses out-of-range clues
//!   and inner doors; the checks are repeated here for instances built through the API or JSON.
//! * **Theorem 1**: with complete information, the sum of the row clues equals the sum of the
//!   column clues.
//! * **Theorem 2**: if both doors are in one row, no row clue is 1; if both doors are in one
//!   column, no column clue is 1. (The paper states it for `m, n > 1`; the proof — the single
//!   cell of such a row would need both of its path neighbours on the doors' side — holds for
//!   every size, and for a door row itself two door cells already exceed 1.)
//! * A door lies in its row and column, so neither may have the clue 0. (This also keeps
//!   Algorithm 3's `DECREMENTENTRY` on the start cell from turning a 0 into the "no clue" −1.)

use crate::model::PathPuzzle;

/// The first reason (a sentence naming the rule) why `p` has no solution, if one of the
/// instant checks applies.
///
/// ```
/// use pencilbox_pathpuzzle::{checks::no_solution_reason, PathPuzzle};
/// let p = PathPuzzle::parse("2 2\n1 1\n2 2\n\n2 2\n1 1\n").unwrap();
/// assert!(no_solution_reason(&p).unwrap().starts_with("Theorem 1"));
/// ```
pub fn no_solution_reason(p: &PathPuzzle) -> Option<String> {
    let (a, b) = (p.door_a(), p.door_b());
    let shape = p.shape();
    if a == b {
        return Some(format!(
            "Definition 1: the doors must be two distinct cells, both are at ({}, {})",
            a.0 + 1,
            a.1 + 1
        ));
    }
    for (name, d) in [("A", a), ("B", b)] {
        if !shape.on_edge(shape.id(d.0, d.1)) {
            return Some(format!(
                "Definition 1: door {name} ({}, {}) is not on the edge of the grid",
                d.0 + 1,
                d.1 + 1
            ));
        }
    }
    for (i, c) in p.row_clues().iter().enumerate() {
        if let Some(v) = c.filter(|&v| v as usize > p.width()) {
            return Some(format!("row {} has the clue {v} but only {} cells", i + 1, p.width()));
        }
    }
    for (j, c) in p.col_clues().iter().enumerate() {
        if let Some(v) = c.filter(|&v| v as usize > p.height()) {
            return Some(format!(
                "column {} has the clue {v} but only {} cells",
                j + 1,
                p.height()
            ));
        }
    }
    if p.complete_information() {
        let sum_r: u64 = p.row_clues().iter().flatten().map(|&v| u64::from(v)).sum();
        let sum_c: u64 = p.col_clues().iter().flatten().map(|&v| u64::from(v)).sum();
        if sum_r != sum_c {
            return Some(format!(
                "Theorem 1: the row clues sum to {sum_r} but the column clues sum to {sum_c}"
            ));
        }
    }
    if a.0 == b.0 {
        if let Some(i) = p.row_clues().iter().position(|&c| c == Some(1)) {
            return Some(format!(
                "Theorem 2: both doors are in row {} and row {} has the clue 1",
                a.0 + 1,
                i + 1
            ));
        }
    }
    if a.1 == b.1 {
        if let Some(j) = p.col_clues().iter().position(|&c| c == Some(1)) {
            return Some(format!(
                "Theorem 2: both doors are in column {} and column {} has the clue 1",
                a.1 + 1,
                j + 1
            ));
        }
    }
    for (name, d) in [("A", a), ("B", b)] {
        if p.row_clues()[d.0] == Some(0) {
            return Some(format!("door {name} is in row {} whose clue is 0", d.0 + 1));
        }
        if p.col_clues()[d.1] == Some(0) {
            return Some(format!("door {name} is in column {} whose clue is 0", d.1 + 1));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(text: &str) -> Option<String> {
        no_solution_reason(&PathPuzzle::parse(text).unwrap())
    }

    #[test]
    fn theorem_1_needs_complete_information() {
        assert!(reason("2 2\n1 1\n2 2\n\n2 1\n2 2\n").unwrap().starts_with("Theorem 1"));
        assert_eq!(reason("2 2\n1 1\n2 2\n\n2 -1\n2 2\n"), None);
    }

    #[test]
    fn theorem_2_applies_to_doors_in_one_row_or_one_column() {
        // Doors (1,1) and (1,3) in row 1; row 3 has clue 1.
        let r = reason("3 3\n1 1\n1 3\n\n3 -1 1\n-1 -1 -1\n").unwrap();
        assert!(r.starts_with("Theorem 2: both doors are in row 1 and row 3"), "{r}");
        // The paper's Figure 4: doors (1,1) and (4,1), column 2 has clue 1.
        let r = reason("4 4\n1 1\n4 1\n\n-1 -1 -1 -1\n-1 1 -1 -1\n").unwrap();
        assert!(
            r.starts_with("Theorem 2: both doors are in column 1 and column 2"),
            "{r}"
        );
    }

    #[test]
    fn a_door_in_a_row_or_column_with_clue_zero_is_unsolvable() {
        let r = reason("3 3\n1 1\n3 3\n\n-1 -1 -1\n0 -1 -1\n").unwrap();
        assert_eq!(r, "door A is in column 1 whose clue is 0");
    }

    #[test]
    fn equal_doors_are_unsolvable_not_malformed() {
        let r = reason("2 2\n1 1\n1 1\n\n-1 -1\n-1 -1\n").unwrap();
        assert!(r.starts_with("Definition 1"), "{r}");
    }

    #[test]
    fn a_consistent_instance_passes_every_check() {
        assert_eq!(reason("3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n"), None);
    }
}
