//! The setter's tools against brute force on random small Ripple Effect puzzles (planted on
//! random layouts, so that they have solutions, often several): `forced` lists exactly the facts
//! shared by every solution; a suggested hint lowers the count; a redundant hint removed alone
//! leaves one solution.

use pencilbox_core::constraints::DistinctRules;
use pencilbox_core::engine::SmallestDomain;
use pencilbox_core::regions::generate::random_layout;
use pencilbox_core::regions::Board;
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::search::{run, Flow, Limits};
use pencilbox_core::setter::{By, Solutions};
use pencilbox_core::{CellId, Grid, PuzzleKind, RunOptions, Shape};
use pencilbox_ripple::{Ripple, FAMILY, KIND};
use proptest::prelude::*;
use std::collections::BTreeSet;

mod common;
use common::brute;

/// A random layout, a random solution of it, and each of its values kept as a hint with
/// probability `keep`%; `None` when the layout has no solution.
fn planted(seed: u64, h: usize, w: usize, keep: u64) -> Option<Board> {
    let mut rng = SplitMix64::new(seed);
    let shape = Shape::new(h, w);
    let labels = random_layout(shape, &mut rng, &[1, 2, 2, 3, 3, 4]);
    let empty = Board::new(Grid::filled(shape, 0), &labels).unwrap();
    let (mut s, cells) = Ripple(empty.clone()).model(DistinctRules::ALL)?;
    s.brancher = SmallestDomain::new().shuffled_values(rng.next_u64());
    let mut filled = None;
    run(&mut s, &Limits::first(), |s| {
        filled = Some(cells.iter().map(|&v| s.engine.value(v).unwrap()).collect::<Vec<u32>>());
        Flow::Stop
    });
    let hints: Vec<u32> = filled?
        .into_iter()
        .map(|v| if rng.below(100) < keep as usize { v } else { 0 })
        .collect();
    empty.with_hints(Grid::from_vec(shape, hints).unwrap()).ok()
}

fn check(b: &Board) -> Result<(), TestCaseError> {
    let sols = brute(b);
    let text = FAMILY.to_text(b);
    let r = KIND.forced(&text, &RunOptions::default()).unwrap();
    prop_assert!(r.complete);
    let want = Solutions::of_count(sols.len());
    prop_assert_eq!(r.solutions, want, "{}", text);
    let shape = b.shape();
    let expected: BTreeSet<(String, String)> = (0..shape.cells())
        .filter(|&i| !sols.is_empty() && sols.iter().all(|s| s[i] == sols[0][i]))
        .map(|i| (shape.name(CellId::from_index(i)), sols[0][i].to_string()))
        .collect();
    let got: BTreeSet<(String, String)> = r.forced.iter().map(|f| (f.at.clone(), f.value.clone())).collect();
    prop_assert_eq!(got, expected, "{}", text);
    for f in &r.forced {
        let c = shape.all().find(|&c| shape.name(c) == f.at).unwrap();
        prop_assert_eq!(f.by == By::Given, b.hint(c) != 0);
    }
    if sols.len() >= 2 {
        let s = KIND.suggest(&text, 10_000, &RunOptions::default()).unwrap();
        let clue = s.clue.expect("two solutions differ at a cell without a hint");
        let after = brute(&FAMILY.parse(&clue.puzzle).unwrap());
        prop_assert!(!after.is_empty() && after.len() < sols.len(), "{}", text);
        prop_assert_eq!(s.count_after.unwrap(), (after.len() as u64).into());
    }
    if sols.len() == 1 {
        let red = KIND.redundant(&text, &RunOptions::default()).unwrap();
        for c in &red.redundant {
            prop_assert_eq!(brute(&FAMILY.parse(&c.puzzle).unwrap()).len(), 1);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn forced_facts_are_the_intersection_of_all_brute_force_solutions(
        seed in any::<u64>(), h in 1usize..5, w in 1usize..5, keep in 0u64..50,
    ) {
        if let Some(b) = planted(seed, h, w, keep) {
            check(&b)?;
        }
    }
}
