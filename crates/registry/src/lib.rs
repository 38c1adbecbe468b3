//! pencilbox-registry: every puzzle family in one list, sorted by name: what the command line
//! (`pencilbox`), its web server, the Python package, the browser build and the fuzz targets
//! share, so a new genre registered here with one line reaches all of them.
//!
//! A family is a crate that exports `static KIND: Plugin<ItsType>` (see
//! [`pencilbox_core::plugin`]); registering it is one line in [`PUZZLES`] and one dependency in
//! this crate's `Cargo.toml`.
//!
//! Beside the list: [`json`], the JSON objects of every result (the CLI's `--format json`),
//! [`api`], the playground's JSON API without HTTP (what `pencilbox serve` and the browser
//! build both answer), and [`levels`], the playground's bundled levels. Nothing here uses
//! threads, sockets or an async runtime, so the crate builds for `wasm32-unknown-unknown`.
#![deny(missing_docs)]

pub mod api;
pub mod json;
pub mod levels;

use pencilbox_core::{ParseError, Pos, PuzzleError, PuzzleKind, RunOptions};

/// Every puzzle family the CLI knows, sorted by name.
pub static PUZZLES: &[&dyn PuzzleKind] = &[
    &pencilbox_masyu::KIND,
    &pencilbox_nurikabe::KIND,
    &pencilbox_pathpuzzle::KIND,
    &pencilbox_ripple::KIND,
    &pencilbox_snake::KIND,
    &pencilbox_starbattle::KIND,
    &pencilbox_sudoku_nishio::KIND,
    &pencilbox_suguru::KIND,
];

/// Frees what the families cache across puzzles beyond small grids (Sudoku's Nishio graphs of
/// 16×16 and larger, [`pencilbox_sudoku_nishio::release_cached`]); `pencilbox serve` calls it
/// when its job pool is idle, so memory goes back to the system after heavy jobs.
pub fn release_caches() {
    pencilbox_sudoku_nishio::release_cached();
}

/// The family called `name`.
pub fn by_name(name: &str) -> Option<&'static dyn PuzzleKind> {
    PUZZLES.iter().copied().find(|k| k.name() == name)
}

/// The families whose `detect` accepts `text`.
pub fn detect(text: &str) -> Vec<&'static dyn PuzzleKind> {
    PUZZLES.iter().copied().filter(|k| k.detect(text)).collect()
}

/// For a text no family's `detect` accepts: the families it most resembles and the error the
/// first of them reports, with its position in the whole file.
///
/// Every family's parser reads the text (each instance of a batch file in turn); the families
/// whose first error lies furthest into the file (line, then column) are the ones the text
/// resembles most: their parsers understood the most of it before giving up (a complaint
/// about a whole line ranks at its start; at the first position, a complaint about a value
/// beats "expected …"). `None` when some
/// family parses the whole text (then it is well-formed, only not recognised: e.g. a Suguru
/// answer, which is a Sudoku-like grid that breaks the Sudoku rules).
pub fn closest(text: &str) -> Option<(Vec<&'static dyn PuzzleKind>, ParseError)> {
    let opts = RunOptions::default();
    let mut best: Option<(Vec<&'static dyn PuzzleKind>, ParseError)> = None;
    for kind in PUZZLES.iter().copied() {
        let instances = kind.instances(text);
        let mut error = None;
        if instances.is_empty() {
            error = Some(ParseError::new(Pos { line: 1, col: 1 }, "no puzzle in the file"));
        }
        for inst in instances {
            match kind.dimensions(inst.text, &opts) {
                Ok(_) => {}
                Err(PuzzleError::Parse(e)) => {
                    let pos = Pos {
                        line: e.pos.line + inst.first_line - 1,
                        col: e.pos.col,
                    };
                    error = Some(ParseError::new(pos, e.message));
                    break;
                }
                // Not a positioned complaint (e.g. an unsupported size): ranks at the start.
                Err(e) => {
                    error = Some(ParseError::new(
                        Pos {
                            line: inst.first_line,
                            col: 1,
                        },
                        e.to_string(),
                    ));
                    break;
                }
            }
        }
        let e = error?;
        // A family that refused the very first token ("expected …" at 1:1) understood nothing;
        // one that complains there about a value (a size, a symbol) read that token.
        // An error just past the end of a line is about the line as a whole (too short, wrong
        // length): it ranks at the line's start.
        let key = |e: &ParseError| {
            let len = text
                .lines()
                .nth(e.pos.line as usize - 1)
                .map_or(0, |l| l.chars().count());
            let col = if e.pos.col as usize > len { 1 } else { e.pos.col };
            let nothing = col == 1 && e.pos.line == 1 && e.message.starts_with("expected");
            (e.pos.line, col, !nothing)
        };
        match &mut best {
            Some((kinds, b)) if key(b) == key(&e) => kinds.push(kind),
            Some((_, b)) if key(b) > key(&e) => {}
            _ => best = Some((vec![kind], e)),
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names_are_unique_and_sorted() {
        let names: Vec<_> = PUZZLES.iter().map(|k| k.name()).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted);
    }

    #[test]
    fn closest_picks_the_parse_that_got_furthest() {
        // A Suguru file cut short: Suguru's parser reads to the missing region rows.
        let (kinds, e) = closest("2 2\n0 0\n0 0\n1 1\n").expect("no family parses it");
        let names: Vec<_> = kinds.iter().map(|k| k.name()).collect();
        assert_eq!(names, ["suguru"], "{e}");
        assert!(e.pos.line >= 4, "{e}");
        // A 4×4 Sudoku with a letter: only Sudoku read the first token.
        let (kinds, e) = closest("a...............\n").expect("no family parses it");
        assert_eq!(kinds[0].name(), "sudoku", "{e}");
        assert_eq!(kinds.len(), 1, "{e}");
    }

    /// A run asked for one rendering makes exactly that one, equal to the full rendering's, and
    /// leaves the others empty; the instance's notes are made only when asked for.
    #[test]
    fn every_family_makes_only_the_renderings_and_notes_asked_for() {
        use pencilbox_core::{Render, RunOptions};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
        for (name, file) in [
            ("path", "path/example-6x6.txt"),
            ("ripple", "ripple/example-6x6.in"),
            ("sudoku", "sudoku/9x9.txt"),
            ("suguru", "suguru/example-6x6.in"),
        ] {
            let kind = by_name(name).unwrap();
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            let all = kind.solve(&text, &RunOptions::default()).unwrap();
            let full = all.solution.clone().unwrap();
            assert!(
                !full.text.is_empty() && !full.pretty.is_empty() && !full.json.is_null(),
                "{name}"
            );
            for what in [Render::Text, Render::Pretty, Render::Json] {
                let opts = RunOptions {
                    render: what,
                    notes: false,
                    ..RunOptions::default()
                };
                let r = kind.solve(&text, &opts).unwrap();
                let s = r.solution.unwrap();
                assert_eq!(
                    s.text,
                    if what == Render::Text {
                        full.text.clone()
                    } else {
                        String::new()
                    },
                    "{name}"
                );
                assert_eq!(
                    s.pretty,
                    if what == Render::Pretty {
                        full.pretty.clone()
                    } else {
                        String::new()
                    },
                    "{name}"
                );
                assert_eq!(
                    s.json,
                    if what == Render::Json {
                        full.json.clone()
                    } else {
                        serde_json::Value::Null
                    },
                    "{name}"
                );
                // Without notes only the search's own figures remain (no sizes, no bounds).
                assert!(r.notes.iter().all(|n| all.notes.contains(n)), "{name}");
                assert!(
                    !r.notes.iter().any(|n| n.name == "regions" || n.name == "hints"),
                    "{name}"
                );
            }
        }
    }
}
