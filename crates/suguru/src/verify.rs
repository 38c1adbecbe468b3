//! The O(mn) verifier of the paper's Section III, reporting *every* violation with its cell.
//!
//! Section III-A computes the region sizes `S`, III-B the counters `CV[α][β]` (cells of region
//! `α` holding `β`), and III-C/D/E check, per cell in O(1), that the value lies in `1..=s_α`, that
//! `CV[α][β] = 1`, and that no king neighbour holds the same value. We add the two checks a
//! *configuration* needs against its *instance*: no cell left empty and no hint changed.
//! The paper is the spec for *what* is checked; the messages keep the sentences of the
//! playground's validator (playground manual, Appendix B) but name cells the way the rest of
//! pencilbox does, e.g. "r2c3 shares a number with its adjacent cell(s)." (the manual writes
//! "cell (2, 3)").
//!
//! III-A to III-D, the empty cells and the hints are the same for every region puzzle and live
//! in the core's [`pencilbox_core::regions::verify()`]; this module adds III-E, the eight
//! neighbours, as that verifier's per-cell rule, so the whole stays one O(mn) pass.

use crate::model::{Solution, Suguru};
use pencilbox_core::{regions, VerifyReport};

/// Checks a filled grid against the instance; every broken rule is listed (row-major order).
///
/// ```
/// let p = pencilbox_suguru::parse("1 3\n0 0 0\n1 1 2\n").unwrap();
/// let ok = pencilbox_suguru::parse_answer("1 2 1", p.shape()).unwrap();
/// assert!(pencilbox_suguru::verify(&p, &ok).is_valid());
/// let bad = pencilbox_suguru::parse_answer("2 1 1", p.shape()).unwrap();
/// assert_eq!(pencilbox_suguru::verify(&p, &bad).violations[0].rule, "adjacent");
/// ```
pub fn verify(p: &Suguru, sol: &Solution) -> VerifyReport {
    let shape = p.shape();
    if sol.shape() != shape {
        return regions::verify(p.board(), sol, |_| {});
    }
    let (h, w, values) = (shape.height, shape.width, sol.as_slice());
    regions::verify(p.board(), sol, |cell| {
        // III-E: the eight neighbours (the rows above and below, clipped at the border).
        let (r, c) = shape.coords(cell.cell);
        let cols = c.saturating_sub(1)..(c + 2).min(w);
        let clash = (r.saturating_sub(1)..(r + 2).min(h)).any(|nr| {
            cols.clone()
                .any(|nc| (nr, nc) != (r, c) && values[nr * w + nc] == cell.value)
        });
        if clash {
            let message = format!("{} shares a number with its adjacent cell(s).", cell.human);
            cell.fail("adjacent", message);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{parse, parse_answer};

    const FIG1: &str = "3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n";

    fn rules(p: &Suguru, ans: &str) -> Vec<(String, String)> {
        let sol = parse_answer(ans, p.shape()).unwrap();
        verify(p, &sol).violations.into_iter().map(|v| (v.at, v.rule)).collect()
    }

    #[test]
    fn the_paper_fig1b_solution_is_valid() {
        let p = parse(FIG1).unwrap();
        assert!(rules(&p, "1 4 1\n2 5 2\n3 1 3\n").is_empty());
    }

    #[test]
    fn every_kind_of_violation_is_reported_at_its_cell() {
        let p = parse(FIG1).unwrap();
        // r1c1 empty; r2c2 changes hint 5 to 4 and duplicates r1c2's 4; r3c2 = 2 exceeds region size 1
        // and touches the 2s at r2c1 and r2c3.
        let got = rules(&p, "0 4 1\n2 4 2\n3 2 3\n");
        let want = [
            ("r1c1", "empty"),
            ("r1c2", "region-duplicate"),
            ("r1c2", "adjacent"),
            ("r2c1", "adjacent"),
            ("r2c2", "hint-changed"),
            ("r2c2", "region-duplicate"),
            ("r2c2", "adjacent"),
            ("r2c3", "adjacent"),
            ("r3c2", "range"),
            ("r3c2", "adjacent"),
        ];
        let want: Vec<(String, String)> = want.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        assert_eq!(got, want);
        // The messages name cells as r3c2, like every other pencilbox message.
        let sol = parse_answer("0 4 1\n2 4 2\n3 2 3\n", p.shape()).unwrap();
        let messages: Vec<String> = verify(&p, &sol).violations.into_iter().map(|v| v.message).collect();
        assert_eq!(messages[0], "r1c1 is empty.");
        assert_eq!(messages[4], "r2c2 holds 4 but its hint is 5.");
        assert_eq!(messages[8], "r3c2 has a number exceeding 1.");
        assert_eq!(messages[9], "r3c2 shares a number with its adjacent cell(s).");
    }

    #[test]
    fn a_wrongly_shaped_solution_is_one_violation() {
        let p = parse(FIG1).unwrap();
        let sol = parse_answer("1 2\n", pencilbox_core::Shape::new(1, 2)).unwrap();
        assert_eq!(verify(&p, &sol).violations[0].rule, "shape");
    }
}
