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
}
