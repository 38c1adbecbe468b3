//! Regression cases found by the coverage-guided fuzzers in `fuzz/` (see the "Coverage-guided fuzzing" section of docs/testing.md).
//!
//! Each test is one minimised input and the property the fuzz harness asserted on it, through the
//! same registry the CLI uses. F1 (Sudoku's missing-rows position) and F2 (JSON error columns in
//! bytes; fixed once for all parsers by `pencilbox_core::scan::json_error`) are fixed; the tests
//! keep them fixed.
//!
//! The contract checked (crates/core/src/puzzle.rs, crates/core/src/error.rs): parse errors carry
//! 1-based line and column *within the text passed in*, the column counted in characters.

use pencilbox_cli::registry::by_name;
use pencilbox_core::{Pos, PuzzleError, PuzzleKind, RunOptions};

fn kind(name: &str) -> &'static dyn PuzzleKind {
    by_name(name).unwrap_or_else(|| panic!("{name} is registered"))
}

/// The position of the puzzle parse error `solve` gives on `text`.
fn solve_error(family: &str, text: &str) -> Pos {
    match kind(family).solve(text, &RunOptions::default()) {
        Err(PuzzleError::Parse(e)) => e.pos,
        Err(e) => panic!("{family}: expected a parse error of the puzzle, got {e}"),
        Ok(r) => panic!("{family}: expected a parse error, got a {:?} report", r.status),
    }
}

/// The position of the solution parse error `verify` gives on `solution`.
fn verify_solution_error(family: &str, puzzle: &str, solution: &str) -> Pos {
    match kind(family).verify(puzzle, solution, &RunOptions::default()) {
        Err(PuzzleError::Solution(e)) => e.pos,
        Err(e) => panic!("{family}: expected a parse error of the solution, got {e}"),
        Ok(r) => panic!("{family}: expected a parse error, got {r:?}"),
    }
}

/// Asserts that `pos` names a place in `text`: an existing line, at most one past its end.
fn assert_inside(text: &str, pos: Pos) {
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(pos.line >= 1 && pos.col >= 1, "{pos} is not 1-based");
    let Some(line) = lines.get(pos.line as usize - 1) else {
        panic!(
            "{pos}: line {} is past the end of a {}-line text {text:?}",
            pos.line,
            lines.len()
        );
    };
    assert!(
        pos.col as usize <= line.chars().count() + 1,
        "{pos}: column past the end of line {:?}",
        line
    );
}

// Finding 1 (sudoku target, verify target): a grid with too few rows and no final newline is
// reported on the line after the last one, which does not exist (`1...\n....` gives 3:1; the
// end of the text is 2:5). With a final newline, 3:1 is the (empty) last line and is fine.

#[test]
fn sudoku_missing_rows_without_final_newline_are_reported_inside_the_text() {
    let text = "1...\n....";
    assert_inside(text, solve_error("sudoku", text));
}

#[test]
fn sudoku_missing_rows_with_final_newline_are_reported_inside_the_text() {
    let text = "1...\n....\n";
    assert_inside(text, solve_error("sudoku", text));
}

// Finding 2 (verify target): JSON parse errors carry serde_json's column, which counts bytes,
// not characters, so every multi-byte character before the error moves it right (and past the
// end of the line: the fuzzer's check). Sites: crates/sudoku-nishio/src/board.rs `parse_json`,
// crates/suguru/src/model.rs `parse_json` and `parse_answer` (both now in
// crates/core/src/regions/format.rs, which Suguru calls).

#[test]
fn sudoku_json_error_columns_count_characters_not_bytes() {
    // The bad token `x` is character 7 (byte 9).
    let text = "[\"éé\",x";
    assert_eq!(solve_error("sudoku", text), Pos { line: 1, col: 7 });
}

#[test]
fn suguru_json_puzzle_error_columns_count_characters_not_bytes() {
    // serde points at the closing quote of the string value: character 13 (byte 15).
    let text = "{\"hints\":\"éé\"}";
    assert_eq!(solve_error("suguru", text), Pos { line: 1, col: 13 });
}

#[test]
fn suguru_json_error_found_by_the_fuzzer_points_inside_the_text() {
    // fuzz/artifacts/suguru/crash-83d1fa82... verbatim (10 bytes): serde says 2:8 (bytes), line 2
    // has 6 characters; the error is the end of the text, 2:7.
    let text = "{\n\"00`6\u{feff}";
    assert_inside(text, solve_error("suguru", text));
}

#[test]
fn suguru_json_answer_error_columns_count_characters_not_bytes() {
    let puzzle = "1 6\n0 0 1 0 2 0\n1 1 2 3 3 3\n";
    // The bad token `x` is character 7 (byte 9).
    let solution = "[\"éé\" x";
    assert_eq!(
        verify_solution_error("suguru", puzzle, solution),
        Pos { line: 1, col: 7 }
    );
}

#[test]
fn json_error_columns_are_right_for_ascii_text() {
    // The same errors without multi-byte characters: the expected columns above are the
    // character positions the parsers already give for ASCII.
    assert_eq!(solve_error("sudoku", "[\"ab\",x"), Pos { line: 1, col: 7 });
    assert_eq!(solve_error("suguru", "{\"hints\":\"ab\"}"), Pos { line: 1, col: 13 });
    assert_eq!(
        verify_solution_error("suguru", "1 6\n0 0 1 0 2 0\n1 1 2 3 3 3\n", "[\"ab\" x"),
        Pos { line: 1, col: 7 }
    );
}

// Not a bug, recorded because the harness first flagged it: `count(text, Some(2))` may return an
// exact count above the cap when the family has a cheap exact counter (Suguru 1×n, the `linear`
// DP); it then says `complete`. The harness accepts `count > limit` only together with `complete`.

#[test]
fn an_exact_count_above_the_cap_is_marked_complete() {
    let text = "1 6\n0 0 0 0 0 0\n1 2 2 3 3 3\n";
    let c = kind("suguru")
        .count(text, Some(2), &RunOptions::default())
        .expect("a valid 1x6 Suguru");
    assert!(
        c.count <= 2u32.into() || c.complete,
        "{} solutions, not complete",
        c.count
    );
    assert_eq!(c.witness.len(), 2, "two witnesses when there are several solutions");
}
