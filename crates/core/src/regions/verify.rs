//! An O(mn) verifier for region puzzles: every region holds `1..=size`, each value once; hints
//! are kept; no cell is empty. A family adds its own rule through a per-cell hook.
//!
//! The structure is the counting verifier of Butrahandisya, Arzaki and Wulandari (*Elementary
//! Algorithmic Methods for Solving Suguru Puzzles*, Section III): compute the region sizes `S`,
//! then the counters `CV[α][β]` (cells of region `α` holding `β`, one flat slot per value
//! `1..=s_α`), then check every cell in O(1): its value lies in `1..=s_α` and `CV[α][β] = 1`.
//! The family's own rule (king neighbours differ, ripples keep their distance, …) runs on the
//! same pass, after the region checks of each cell. Every violation is reported with its cell,
//! cells in row-major order. The paper (and the Suguru playground's validator it follows) is the
//! spec for *what* is checked, not for the wording: messages name cells the way the rest of
//! pencilbox does, `r2c3` (row 2, column 3, 1-based), e.g. "r2c3 has a number exceeding 4.".

use super::Board;
use crate::grid::push_decimal;
use crate::grid::{CellId, Grid, Shape};
use crate::puzzle::{VerifyReport, Violation};

/// One filled cell as a family's rule sees it, and where that rule reports what it finds.
pub struct CellCheck<'a> {
    /// The cell.
    pub cell: CellId,
    /// Its value, never `0` (empty cells are reported before the family's rule runs).
    pub value: u32,
    /// The cell's name for messages: `r2c3`, 1-based row and column (the same as a violation's
    /// `at`).
    pub human: &'a str,
    shape: Shape,
    out: &'a mut Vec<Violation>,
}

impl CellCheck<'_> {
    /// Reports that this cell breaks `rule` (a word or two), with a sentence for people.
    pub fn fail(&mut self, rule: &str, message: impl Into<String>) {
        self.out.push(Violation::new(self.shape.name(self.cell), rule, message));
    }
}

/// Checks a filled grid (`0` = empty) against a board; every broken rule is listed, cells in
/// row-major order. `rule` is the family's extra rule, called once per filled cell after the
/// region checks of that cell.
///
/// ```
/// use pencilbox_core::regions::{parse_answer, verify, Family};
/// let f = Family { name: "Regions", keyword: None, genre: "regions" };
/// let b = f.parse("1 3\n0 0 0\n1 1 2\n").unwrap();
/// let ok = parse_answer("1 2 1", b.shape()).unwrap();
/// assert!(verify(&b, &ok, |_| {}).is_valid());
/// // A family rule: no 2 in the last column.
/// let r = verify(&b, &ok, |c| if c.value == 2 { c.fail("no-two", format!("{} holds 2.", c.human)) });
/// assert_eq!((r.violations[0].at.as_str(), r.violations[0].message.as_str()), ("r1c2", "r1c2 holds 2."));
/// let bad = parse_answer("2 2 0", b.shape()).unwrap();
/// let rules: Vec<_> = verify(&b, &bad, |_| {}).violations.into_iter().map(|v| v.rule).collect();
/// assert_eq!(rules, ["region-duplicate", "region-duplicate", "empty"]);
/// ```
pub fn verify(board: &Board, sol: &Grid<u32>, mut rule: impl FnMut(&mut CellCheck<'_>)) -> VerifyReport {
    let shape = board.shape();
    let regions = board.regions();
    let mut violations = Vec::new();
    if sol.shape() != shape {
        violations.push(Violation::new(
            "grid",
            "shape",
            format!(
                "the solution is {}×{} but the puzzle is {}×{}",
                sol.height(),
                sol.width(),
                shape.height,
                shape.width
            ),
        ));
        return VerifyReport { violations };
    }
    // The region sizes and the counters CV, flattened: one slot per value 1..=s.
    let sizes: Vec<usize> = regions.iter().map(<[_]>::len).collect();
    let mut offset = Vec::with_capacity(sizes.len());
    let mut total = 0usize;
    for &s in &sizes {
        offset.push(total);
        total += s;
    }
    let mut cv = vec![0u32; total];
    for c in shape.all() {
        let (k, v) = (regions.region_of(c), sol[c] as usize);
        if (1..=sizes[k]).contains(&v) {
            cv[offset[k] + v - 1] += 1;
        }
    }
    // The cell's `r1c2` name, rewritten in place for each cell (no allocation per cell).
    let mut human = String::with_capacity(32);
    let mut row_len = 0;
    for c in shape.all() {
        let (r, col) = shape.coords(c);
        if col == 0 {
            // "r<row>c" once per row.
            human.clear();
            human.push('r');
            push_decimal(&mut human, r + 1);
            human.push('c');
            row_len = human.len();
        }
        human.truncate(row_len);
        push_decimal(&mut human, col + 1);
        let v = sol[c];
        let k = regions.region_of(c);
        let s = sizes[k];
        if v == 0 {
            violations.push(Violation::new(shape.name(c), "empty", format!("{human} is empty.")));
            continue;
        }
        let hint = board.hint(c);
        if hint != 0 && hint != v {
            violations.push(Violation::new(
                shape.name(c),
                "hint-changed",
                format!("{human} holds {v} but its hint is {hint}."),
            ));
        }
        // The value's range, then its uniqueness within the region.
        if v as usize > s {
            violations.push(Violation::new(
                shape.name(c),
                "range",
                format!("{human} has a number exceeding {s}."),
            ));
        } else if cv[offset[k] + v as usize - 1] > 1 {
            violations.push(Violation::new(
                shape.name(c),
                "region-duplicate",
                format!("{human} shares a number with another cell in the same region."),
            ));
        }
        rule(&mut CellCheck {
            cell: c,
            value: v,
            human: &human,
            shape,
            out: &mut violations,
        });
    }
    VerifyReport { violations }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;
    use crate::regions::{parse_answer, PLAIN};

    /// `at rule` for every violation of `answer` without a family rule.
    fn found(board: &Board, answer: &str) -> Vec<String> {
        let sol = parse_answer(answer, board.shape()).unwrap();
        let report = verify(board, &sol, |_| {});
        report
            .violations
            .iter()
            .map(|v| format!("{} {}", v.at, v.rule))
            .collect()
    }

    /// Regions: {r1c1, r1c2} of 2 cells, {r1c3, r2c2, r2c3} of 3 (hint 3 at r1c3), {r2c1} of 1.
    const BOARD: &str = "2 3\n0 0 3\n0 0 0\n1 1 2\n3 2 2\n";

    #[test]
    fn a_grid_filling_every_region_with_one_to_its_size_is_valid() {
        let b = PLAIN.parse(BOARD).unwrap();
        assert!(found(&b, "1 2 3\n1 1 2\n").is_empty());
    }

    #[test]
    fn each_region_rule_is_reported_at_its_cell_in_row_major_order() {
        let b = PLAIN.parse(BOARD).unwrap();
        let got = found(&b, "2 2 1\n0 3 2\n");
        assert_eq!(
            got,
            [
                "r1c1 region-duplicate",
                "r1c2 region-duplicate",
                "r1c3 hint-changed",
                "r2c1 empty"
            ]
        );
        assert_eq!(found(&b, "1 2 3\n2 1 2\n"), ["r2c1 range"]);
    }

    #[test]
    fn the_family_rule_runs_on_filled_cells_only_after_the_region_checks() {
        let b = PLAIN.parse("1 3\n0 0 0\n1 1 1\n").unwrap();
        let sol = parse_answer("4 0 1", b.shape()).unwrap();
        let mut seen = Vec::new();
        let r = verify(&b, &sol, |c| {
            seen.push((c.cell.index(), c.value));
            c.fail("odd", format!("{} is odd.", c.human));
        });
        assert_eq!(seen, vec![(0, 4), (2, 1)]);
        let rules: Vec<_> = r.violations.iter().map(|v| (v.at.as_str(), v.rule.as_str())).collect();
        assert_eq!(
            rules,
            [("r1c1", "range"), ("r1c1", "odd"), ("r1c2", "empty"), ("r1c3", "odd")]
        );
        assert_eq!(r.violations[3].message, "r1c3 is odd.");
    }

    #[test]
    fn a_wrongly_shaped_grid_is_one_violation() {
        let b = PLAIN.parse("1 2\n0 0\n1 1\n").unwrap();
        let r = verify(&b, &Grid::filled(Shape::new(2, 1), 1), |_| {});
        assert_eq!(r.violations.len(), 1);
        assert_eq!(r.violations[0].message, "the solution is 2×1 but the puzzle is 1×2");
    }
}
