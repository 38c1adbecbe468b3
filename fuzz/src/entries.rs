//! Body of the `entries` target: `PUZZLE 0xFF ENTRIES` (0xFF never occurs in UTF-8), the
//! player's entries read by every family's entries parser through `explain --entries` and
//! `hint --entries` at each level (`batch::Config::run` with `--op explain` and
//! `batch::Config::hint`, 50 ms and 2000 nodes each), as the command line and the playground's
//! hints call them.
//!
//! Asserted: no panic; an answer is a JSON object with a `status` or a `text`; a refusal names
//! where it is, inside the text it refers to (`text:L:C` or `solution:L:C` with the line and
//! column inside that text).

use crate::{assert_pos_in, kinds, MARKER};
use pencilbox_cli::batch::{Config, Op};
use pencilbox_core::scan::text_from_bytes;
use pencilbox_core::Pos;

/// Checks a failure's position against the text it names.
fn check(failure: &pencilbox_cli::batch::Failure, puzzle: &str, entries: &str, what: &str) {
    if let Some((line, col)) = failure.pos {
        let text = if failure.message.starts_with("solution") { entries } else { puzzle };
        assert_pos_in(text, Pos { line, col }, &format!("{what}: {}", failure.message));
    }
}

/// Runs the entries of every family that reads the puzzle (see the module docs).
pub fn entries(data: &[u8]) {
    let Some(i) = data.iter().position(|&b| b == MARKER) else {
        return;
    };
    let (Ok(puzzle), Ok(entries)) = (text_from_bytes(&data[..i]), text_from_bytes(&data[i + 1..])) else {
        return;
    };
    let cfg = Config {
        op: Some(Op::Explain),
        timeout: Some(0.05),
        node_limit: Some(2000),
        ..Config::default()
    };
    for kind in kinds().iter().filter(|k| k.detect(puzzle)) {
        let name = kind.name();
        match cfg.run(Some(name), puzzle, Some(entries)) {
            Ok(v) => assert!(v["status"].is_string(), "{name} explain --entries: {v}"),
            Err(f) => check(&f, puzzle, entries, &format!("{name} explain --entries")),
        }
        for level in ["nudge", "rule", "answer"] {
            match cfg.hint(Some(name), puzzle, Some(entries), level) {
                Ok(v) => assert!(v.is_object(), "{name} hint {level}: {v}"),
                Err(f) => check(&f, puzzle, entries, &format!("{name} hint {level}")),
            }
        }
    }
}
