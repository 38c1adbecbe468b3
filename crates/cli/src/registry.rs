//! The puzzle registry: one line per puzzle family, sorted by name.

use pencilbox_core::PuzzleKind;

/// Every puzzle family the CLI knows, sorted by name.
pub static PUZZLES: &[&dyn PuzzleKind] = &[
    &pencilbox_pathpuzzle::KIND,
    &pencilbox_ripple::KIND,
    &pencilbox_sudoku_nishio::KIND,
    &pencilbox_suguru::KIND,
];

/// The family called `name`.
pub fn by_name(name: &str) -> Option<&'static dyn PuzzleKind> {
    PUZZLES.iter().copied().find(|k| k.name() == name)
}

/// The families whose `detect` accepts `text`.
pub fn detect(text: &str) -> Vec<&'static dyn PuzzleKind> {
    PUZZLES.iter().copied().filter(|k| k.detect(text)).collect()
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
