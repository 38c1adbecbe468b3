//! The setter's tools against brute force on random small Path puzzles (planted paths with
//! some clues dropped, so that they have solutions, often several): `forced` lists exactly the
//! cells (used / unused) and links (line / blank) that are the same in every simple A→B path
//! meeting the clues; a suggested count clue lowers the count; a redundant clue removed alone
//! leaves one solution.

use pencilbox_core::links::Links;
use pencilbox_core::setter::{By, Solutions};
use pencilbox_core::{CellId, PuzzleKind, RunOptions, Shape};
use pencilbox_pathpuzzle::generate::{puzzle_from_path, random_path, SplitMix64};
use pencilbox_pathpuzzle::{PathPuzzle, KIND};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

mod common;
use common::paths;

/// The facts of one path: every cell used or unused, every link line or blank.
fn facts(shape: Shape, path: &[CellId]) -> BTreeMap<String, &'static str> {
    let mut out = BTreeMap::new();
    for c in shape.all() {
        out.insert(shape.name(c), if path.contains(&c) { "used" } else { "unused" });
    }
    let steps: BTreeSet<(CellId, CellId)> = path.windows(2).flat_map(|w| [(w[0], w[1]), (w[1], w[0])]).collect();
    let links = Links::new(shape);
    for l in 0..links.len() {
        let (a, b) = links.ends(l as _);
        let line = steps.contains(&(a, b));
        out.insert(
            format!("{}-{}", shape.name(a), shape.name(b)),
            if line { "line" } else { "blank" },
        );
    }
    out
}

fn check(p: &PathPuzzle) -> Result<(), TestCaseError> {
    let sols = paths(p);
    let text = p.to_text();
    let r = KIND.forced(&text, &RunOptions::default()).unwrap();
    prop_assert!(r.complete);
    let want = Solutions::of_count(sols.len());
    prop_assert_eq!(r.solutions, want, "{}", text);
    let shape = p.shape();
    let expected: BTreeSet<(String, String)> = match sols.split_first() {
        None => BTreeSet::new(),
        Some((first, rest)) => {
            let all: Vec<_> = rest.iter().map(|s| facts(shape, s)).collect();
            facts(shape, first)
                .into_iter()
                .filter(|(k, v)| all.iter().all(|f| f[k] == *v))
                .map(|(k, v)| (k, v.to_string()))
                .collect()
        }
    };
    let got: BTreeSet<(String, String)> = r.forced.iter().map(|f| (f.at.clone(), f.value.clone())).collect();
    prop_assert_eq!(got, expected, "{}", text);
    let doors = [shape.name(p.cell_a()), shape.name(p.cell_b())];
    for f in &r.forced {
        prop_assert_eq!(f.by == By::Given, doors.contains(&f.at), "{:?}", f);
    }
    if sols.len() >= 2 {
        // The counts stop at the limit: exact below it, exactly the limit (and flagged
        // incomplete) above it. A 4x5 grid without clues has 1,008 paths, over the limit.
        const LIMIT: u64 = 1000;
        let s = KIND.suggest(&text, LIMIT, &RunOptions::default()).unwrap();
        if sols.len() as u64 <= LIMIT {
            prop_assert!(s.complete, "{}", text);
            prop_assert_eq!(s.count, (sols.len() as u64).into());
        } else {
            prop_assert!(!s.complete, "{}", text);
            prop_assert_eq!(s.count, LIMIT.into());
        }
        // A count clue exists unless the two witnesses visit every row and column equally.
        if let Some(clue) = &s.clue {
            let after = paths(&PathPuzzle::parse(&clue.puzzle).unwrap());
            prop_assert!(!after.is_empty() && after.len() < sols.len(), "{}", text);
            let got = s.count_after.clone().unwrap();
            if s.complete_after {
                prop_assert_eq!(got, (after.len() as u64).into());
            } else {
                prop_assert!(got <= (after.len() as u64).into(), "{}", text);
            }
        }
    }
    if sols.len() == 1 {
        let red = KIND.redundant(&text, &RunOptions::default()).unwrap();
        for c in &red.redundant {
            prop_assert_eq!(paths(&PathPuzzle::parse(&c.puzzle).unwrap()).len(), 1);
        }
    }
    Ok(())
}

fn arb_planted() -> impl Strategy<Value = PathPuzzle> {
    (2usize..=4, 2usize..=5, any::<u64>(), 0u64..=4).prop_filter_map("a path was found", |(h, w, seed, keep)| {
        let shape = Shape::new(h, w);
        let mut rng = SplitMix64::new(seed);
        let path = random_path(shape, 2 + rng.below(h * w / 2), &mut rng)?;
        let full = puzzle_from_path(shape, &path).ok()?;
        let mut drop = |c: &Option<u32>| if rng.below(4) < keep as usize { *c } else { None };
        let rows: Vec<_> = full.row_clues().iter().map(&mut drop).collect();
        let cols: Vec<_> = full.col_clues().iter().map(&mut drop).collect();
        full.with_clues(rows, cols).ok()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn forced_cells_and_links_are_the_intersection_of_all_brute_force_paths(p in arb_planted()) {
        check(&p)?;
    }
}

#[test]
fn a_puzzle_whose_clues_sum_differently_has_no_solution_and_no_forced_fact() {
    let p = PathPuzzle::parse("2 2\n1 1\n2 2\n\n1 1\n2 2\n").unwrap();
    let r = KIND.forced(&p.to_text(), &RunOptions::default()).unwrap();
    assert_eq!(r.solutions, Solutions::None);
    assert!(r.forced.is_empty() && r.reason.is_some());
}

#[test]
fn suggest_gives_a_clue_back_to_a_puzzle_that_lost_one() {
    // Every clue of bundled examples removed in turn: `count --suggest` makes it unique again.
    pencilbox_core::testing::assert_suggest_restores_examples::<pencilbox_pathpuzzle::PathPuzzle>(
        env!("CARGO_MANIFEST_DIR"),
        &[
            "path/example-6x6.txt",
            "path/bench-6x6/partial-01.txt",
            "path/bench-6x6/partial-02.txt",
            "path/bench-7x7/partial-01.txt",
        ],
    );
}
