//! The bundled levels of the playground's Level Selection (the Suguru manual's §2.3), for
//! every family that has a levels file, grouped by difficulty.
//!
//! The manual's levels come from Janko's collection; ours are made by pencilbox's own
//! generator: each level in `crates/registry/levels/FAMILY.txt` is the output of the
//! `pencilbox generate FAMILY --size RxC --difficulty D --seed S` command written in its
//! header line, so anyone can re-create it (without `--difficulty` for a generator that has no
//! difficulty levels, Ripple Effect's: its levels are graded by size). A family gets levels by adding its file (the
//! build script embeds every `levels/*.txt`; the file's name is the family's); the tests below
//! check, for every file, that each level is exactly its command's output and has exactly one
//! solution.
//!
//! File format: a level starts with a line `== DIFFICULTY | NAME | COMMAND`, followed by the
//! puzzle in the family's file format; lines starting with `#` are comments.

use serde::Serialize;
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/levels.rs"));

/// The Suguru levels file, embedded.
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

/// Reads a levels file of the family `puzzle`; malformed entries are reported with their line.
/// The size of each level is the family's own reading of its text (when the family is
/// registered), else the first two numbers of the text.
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
        let size = match crate::by_name(puzzle) {
            Some(kind) => kind
                .dimensions(&l.text, &pencilbox_core::RunOptions::default())
                .map_err(|e| format!("level `{}`: {e}", l.name))?,
            None => {
                let mut t = l.text.split_whitespace().filter_map(|w| w.parse::<usize>().ok());
                let (Some(r), Some(c)) = (t.next(), t.next()) else {
                    return Err(format!("level `{}` does not start with its size", l.name));
                };
                (r, c)
            }
        };
        (l.rows, l.cols) = size;
    }
    Ok(out)
}

/// Every bundled level of every registered family with a levels file: by family, then as in
/// its file (easiest first).
pub fn all() -> &'static [Level] {
    static LEVELS: OnceLock<Vec<Level>> = OnceLock::new();
    LEVELS.get_or_init(|| {
        FILES
            .iter()
            .filter_map(|&(family, text)| {
                let kind = crate::by_name(family)?;
                parse_levels(kind.name(), text).ok()
            })
            .flatten()
            .collect()
    })
}

/// The bundled levels of one family.
pub fn of(family: &str) -> impl Iterator<Item = &'static Level> + '_ {
    all().iter().filter(move |l| l.puzzle == family)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pencilbox_core::plugin::GenerateRequest;
    use pencilbox_core::RunOptions;

    /// The words of a `pencilbox generate` command as the generator's request.
    fn request(command: &str) -> (String, GenerateRequest) {
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[..2], ["pencilbox", "generate"], "{command}");
        let mut req = GenerateRequest::default();
        let mut k = 3;
        while k < words.len() {
            let value = words
                .get(k + 1)
                .copied()
                .unwrap_or_else(|| panic!("{command}: {} wants a value", words[k]));
            match words[k] {
                "--size" => {
                    let (h, w) = value.split_once('x').expect("RxC");
                    (req.height, req.width) = (h.parse().unwrap(), w.parse().unwrap());
                }
                "--difficulty" => req.difficulty = Some(value.to_string()),
                "--seed" => req.seed = value.parse().expect("seed"),
                "--set" => {
                    let (key, v) = value.split_once('=').expect("KEY=VALUE");
                    req.settings.push((key.to_string(), v.to_string()));
                }
                other => panic!("{command}: the test does not know `{other}`"),
            }
            k += 2;
        }
        (words[2].to_string(), req)
    }

    #[test]
    fn every_levels_file_is_a_registered_family_well_formed_and_grouped_by_difficulty() {
        assert!(FILES.iter().any(|(f, _)| *f == "suguru"));
        for &(family, text) in FILES {
            let kind = crate::by_name(family).unwrap_or_else(|| panic!("levels/{family}.txt: no such family"));
            let levels = parse_levels(kind.name(), text).unwrap_or_else(|e| panic!("levels/{family}.txt: {e}"));
            let order = ["easy", "medium", "hard"];
            let ranks: Vec<usize> = levels
                .iter()
                .map(|l| order.iter().position(|d| *d == l.difficulty).expect("known difficulty"))
                .collect();
            assert!(
                ranks.windows(2).all(|w| w[0] <= w[1]),
                "{family}: not sorted by difficulty"
            );
            for d in order {
                assert!(levels.iter().any(|l| l.difficulty == d), "{family}: no {d} level");
            }
            let mut names: Vec<&str> = levels.iter().map(|l| l.name.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), levels.len(), "{family}: level names repeat");
            let mut texts: Vec<&str> = levels.iter().map(|l| l.text.as_str()).collect();
            texts.sort_unstable();
            texts.dedup();
            assert_eq!(texts.len(), levels.len(), "{family}: a puzzle repeats");
            // A generator with difficulty levels made each level at its own; one without (Ripple
            // Effect) cannot be asked for one, and its levels are graded by size: a harder level
            // is not smaller than an easier one.
            let graded = kind.generator().is_some_and(|g| !g.difficulties.is_empty());
            if !graded {
                let cells: Vec<usize> = levels.iter().map(|l| l.rows * l.cols).collect();
                assert!(
                    cells.windows(2).all(|w| w[0] <= w[1]),
                    "{family}: graded by size, yet a harder level is smaller: {cells:?}"
                );
            }
            for l in &levels {
                assert!(
                    l.command.starts_with(&format!("pencilbox generate {family} ")),
                    "{}",
                    l.command
                );
                assert_eq!(
                    l.command.contains(&format!("--difficulty {}", l.difficulty)),
                    graded,
                    "{}",
                    l.command
                );
                assert!(
                    l.command.contains(&format!("--size {}x{}", l.rows, l.cols)),
                    "{}",
                    l.command
                );
            }
            assert_eq!(of(family).count(), levels.len(), "{family}");
        }
        let suguru = parse_levels("suguru", SUGURU_LEVELS).unwrap();
        assert!(suguru.len() >= 9, "{} levels", suguru.len());
    }

    #[test]
    fn every_level_is_exactly_the_output_of_its_command() {
        for l in all() {
            let (family, req) = request(&l.command);
            assert_eq!(family, l.puzzle, "{}", l.command);
            let made = crate::by_name(&family)
                .unwrap()
                .generate(&req)
                .unwrap_or_else(|e| panic!("{}: {e}", l.command));
            assert!(
                made.text.split_whitespace().eq(l.text.split_whitespace()),
                "{} {}: `{}` now prints a different puzzle; regenerate the levels file",
                l.puzzle,
                l.name,
                l.command
            );
        }
    }

    #[test]
    fn every_level_has_exactly_one_solution() {
        for l in all() {
            let kind = crate::by_name(l.puzzle).unwrap();
            let r = kind.count(&l.text, Some(2), &RunOptions::default()).unwrap();
            assert!(r.complete, "{} {}: the count did not finish", l.puzzle, l.name);
            assert_eq!(
                r.count,
                1u32.into(),
                "{} {} has {} solutions",
                l.puzzle,
                l.name,
                r.count
            );
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
