//! Paper pins: `paper` must build exactly the search tree it builds today, on every instance of
//! `tests/paper-pins.txt` (the papers' figures, the bundled examples and, when `../shared/data`
//! is present, the Janko set and the 26 letters).
//!
//! `paper` reproduces the authors' algorithms (Suguru: Algorithm 2 of *Elementary Algorithmic
//! Methods for Solving Suguru Puzzles*; Path: Algorithm 3 of the Path-puzzle backtracking
//! paper) node for node: when it was written its node counts were checked equal to the
//! authors' own C++ instrumented to count nodes (445,012 nodes over the Janko set, 377,843
//! over the letters, both pinned here instance by instance). Without these pins a change of
//! exploration order (the χ sets' order in `crates/suguru/src/paper.rs`, the direction order in
//! `crates/pathpuzzle/src/paper.rs`) would pass every other test. `scripts/paper-pins.py`
//! writes the file; regenerate it only after checking against the authors' code.

use pencilbox_core::{RunOptions, Status};
use pencilbox_tests::{root, shared_data};

#[test]
fn paper_builds_the_pinned_search_tree_on_every_listed_instance() {
    let pins = std::fs::read_to_string(root().join("tests/paper-pins.txt")).expect("tests/paper-pins.txt");
    let (mut checked, mut skipped, mut shared_missing) = (0, 0, false);
    for (n, line) in pins.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            f.len(),
            4,
            "tests/paper-pins.txt:{}: expected `family path nodes failures`",
            n + 1
        );
        let (family, path) = (f[0], f[1]);
        let (nodes, failures): (u64, u64) = (f[2].parse().unwrap(), f[3].parse().unwrap());
        let file = match path.strip_prefix("shared:") {
            Some(rel) => match shared_data(rel) {
                Some(p) => p,
                None => {
                    skipped += 1;
                    shared_missing = true;
                    continue;
                }
            },
            None => root().join(path),
        };
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let kind = pencilbox_cli::registry::by_name(family).expect("a registered family");
        let opts = RunOptions {
            algorithm: Some("paper".into()),
            ..RunOptions::default()
        };
        let r = kind.solve(&text, &opts).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(
            matches!(r.status, Status::Solved | Status::Unsolvable),
            "{path}: {:?}",
            r.status
        );
        assert_eq!(
            (r.stats.nodes, r.stats.failures),
            (nodes, failures),
            "{path}: paper's (nodes, failures) moved away from the pinned tree"
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} pinned instances ran");
    if shared_missing {
        pencilbox_core::testing::skip_shared(&format!(
            "{skipped} pinned instances of ../shared/data not found; {checked} checked"
        ));
    }
}
