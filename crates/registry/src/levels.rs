//! The bundled levels of the playground's Level Selection (manual §2.3), grouped by
//! difficulty.
//!
//! The manual's levels come from Janko's collection; ours are made by pencilbox's own
//! generator: each level in `crates/registry/levels/suguru.txt` is the output of the
//! `pencilbox generate suguru --size RxC --difficulty D --seed S` command written in its
//! header line, so anyone can re-create it. The manual promises that every medium or harder
//! level has exactly one solution; the tests below count the solutions of *every* level
//! (up to 2) with the Suguru solver.
//!
//! File format: a level starts with a line `== DIFFICULTY | NAME | COMMAND`, followed by the
//! puzzle in the paper-repository format; lines starting with `#` are comments.

use serde::Serialize;
use std::sync::OnceLock;

/// The levels file, embedded.
pub const SUGURU_LEVELS: &str = include_str!("../levels/suguru.txt");

/// One bundled level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Level {
    /// The family (`suguru`).
    pub puzzle: &'static str,
    /// `easy`, `medium` or `hard`.
    pub difficulty: String,
    /// A display name.
    pub name: String,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The command that made it.
    pub command: String,
    /// Every bundled level has exactly one solution (checked by the tests).
    pub unique: bool,
    /// The puzzle text.
    pub text: String,
}

/// Reads a levels file; malformed entries are reported with their line.
pub fn parse_levels(puzzle: &'static str, file: &str) -> Result<Vec<Level>, String> {
    let mut out: Vec<Level> = Vec::new();
    for (i, line) in file.lines().enumerate() {
        if let Some(head) = line.strip_prefix("== ") {
            let parts: Vec<&str> = head.split(" | ").map(str::trim).collect();
            let [difficulty, name, command] = parts.as_slice() else {
                return Err(format!("line {}: expected `== DIFFICULTY | NAME | COMMAND`", i + 1));
            };
            out.push(Level {
                puzzle,
                difficulty: difficulty.to_string(),
                name: name.to_string(),
                rows: 0,
                cols: 0,
                command: command.to_string(),
                unique: true,
                text: String::new(),
            });
        } else if line.starts_with('#') || (out.is_empty() && line.trim().is_empty()) {
            continue;
        } else if let Some(level) = out.last_mut() {
            if !line.trim().is_empty() {
                level.text.push_str(line.trim_end());
                level.text.push('\n');
            }
        } else {
            return Err(format!("line {}: text before the first `==` header", i + 1));
        }
    }
    for l in &mut out {
        let mut t = l.text.split_whitespace();
        let (Some(Ok(r)), Some(Ok(c))) = (t.next().map(str::parse), t.next().map(str::parse)) else {
            return Err(format!("level `{}` does not start with `m n`", l.name));
        };
        (l.rows, l.cols) = (r, c);
    }
    Ok(out)
}

/// Every bundled level, easiest first.
pub fn all() -> &'static [Level] {
    static LEVELS: OnceLock<Vec<Level>> = OnceLock::new();
    LEVELS.get_or_init(|| parse_levels("suguru", SUGURU_LEVELS).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pencilbox_core::RunOptions;

    #[test]
    fn the_levels_file_is_well_formed_and_grouped_by_difficulty() {
        let levels = parse_levels("suguru", SUGURU_LEVELS).unwrap();
        assert!(levels.len() >= 9, "{} levels", levels.len());
        let order = ["easy", "medium", "hard"];
        let ranks: Vec<usize> = levels
            .iter()
            .map(|l| order.iter().position(|d| *d == l.difficulty).expect("known difficulty"))
            .collect();
        assert!(
            ranks.windows(2).all(|w| w[0] <= w[1]),
            "levels are not sorted by difficulty"
        );
        for d in order {
            assert!(
                levels.iter().filter(|l| l.difficulty == d).count() >= 3,
                "too few {d} levels"
            );
        }
        let mut names: Vec<&str> = levels.iter().map(|l| l.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), levels.len(), "level names repeat");
        for l in &levels {
            assert!(l.command.starts_with("pencilbox generate suguru"), "{}", l.command);
            assert!(
                l.command.contains(&format!("--difficulty {}", l.difficulty)),
                "{}",
                l.command
            );
            assert!(
                l.command.contains(&format!("--size {}x{}", l.rows, l.cols)),
                "{}",
                l.command
            );
        }
    }

    #[test]
    fn every_level_is_exactly_the_output_of_its_command() {
        for l in all() {
            let words: Vec<&str> = l.command.split_whitespace().collect();
            let arg = |flag: &str| -> &str {
                let i = words.iter().position(|w| *w == flag).expect("flag in the command");
                words[i + 1]
            };
            let (h, w) = arg("--size").split_once('x').expect("RxC");
            let difficulty = pencilbox_suguru::Difficulty::from_name(arg("--difficulty")).expect("difficulty");
            let seed: u64 = arg("--seed").parse().expect("seed");
            let made = pencilbox_suguru::generate(h.parse().unwrap(), w.parse().unwrap(), difficulty, seed);
            assert!(
                made.to_text().split_whitespace().eq(l.text.split_whitespace()),
                "{}: `{}` now prints a different puzzle; regenerate the levels file",
                l.name,
                l.command
            );
        }
    }

    #[test]
    fn every_level_has_exactly_one_solution() {
        let kind = crate::by_name("suguru").unwrap();
        for l in all() {
            let r = kind.count(&l.text, Some(2), &RunOptions::default()).unwrap();
            assert!(r.complete, "{}: the count did not finish", l.name);
            assert_eq!(r.count, 1u32.into(), "{} has {} solutions", l.name, r.count);
        }
    }

    #[test]
    fn a_malformed_levels_file_is_reported_with_its_line() {
        assert!(parse_levels("suguru", "3 3\n").unwrap_err().contains("line 1"));
        assert!(parse_levels("suguru", "== easy | only two\n")
            .unwrap_err()
            .contains("line 1"));
        assert!(parse_levels("suguru", "== easy | A | cmd\nx y\n").is_err());
    }
}
