//! The setter's tools against brute force on random small instances: `forced` lists exactly
//! the facts shared by every solution (and says how many solutions there are); a suggested
//! clue holds in some solutions and not in others and lowers the count; every redundant hint, removed alone,
//! leaves exactly one solution.

use pencilbox_core::setter::{By, Solutions};
use pencilbox_core::{CellId, PuzzleKind, RunOptions, Shape};
use pencilbox_suguru::{Suguru, KIND};
use proptest::prelude::*;
use std::collections::BTreeSet;

mod common;
use common::{instance, planted, solutions};

/// The facts every solution shares, as `(place, value)`.
fn intersection(shape: Shape, sols: &[Vec<u32>]) -> BTreeSet<(String, String)> {
    (0..shape.cells())
        .filter(|&i| sols.iter().all(|s| s[i] == sols[0][i]))
        .map(|i| (shape.name(CellId::from_index(i)), sols[0][i].to_string()))
        .collect()
}

fn check(p: &Suguru) -> Result<(), TestCaseError> {
    let sols = solutions(p);
    let text = p.to_text();
    let r = KIND.forced(&text, &RunOptions::default()).unwrap();
    prop_assert!(r.complete);
    let want = Solutions::of_count(sols.len());
    prop_assert_eq!(r.solutions, want, "{}", text);
    let got: BTreeSet<(String, String)> = r.forced.iter().map(|f| (f.at.clone(), f.value.clone())).collect();
    let expected = if sols.is_empty() {
        BTreeSet::new()
    } else {
        intersection(p.shape(), &sols)
    };
    prop_assert_eq!(got, expected, "{}", text);
    for f in &r.forced {
        let c = p.shape().all().find(|&c| p.shape().name(c) == f.at).unwrap();
        prop_assert_eq!(f.by == By::Given, p.hint(c) != 0, "{}: {:?}", text, f);
    }
    if sols.len() >= 2 {
        let s = KIND.suggest(&text, 1000, &RunOptions::default()).unwrap();
        prop_assert_eq!(s.complete, sols.len() <= 1000);
        prop_assert_eq!(s.count, (sols.len().min(1000) as u64).into());
        let clue = s.clue.expect("two different solutions differ at a cell without a hint");
        // A clue that holds in some solutions and not in others.
        let at = p.shape().all().find(|&c| p.shape().name(c) == clue.at).unwrap().index();
        prop_assert!(sols.iter().any(|x| x[at] == clue.value) && sols.iter().any(|x| x[at] != clue.value));
        let after = solutions(&pencilbox_suguru::parse(&clue.puzzle).unwrap());
        prop_assert!(!after.is_empty() && after.len() < sols.len());
        let counted = s.count_after.unwrap();
        if s.complete_after {
            prop_assert_eq!(counted, (after.len() as u64).into());
        } else {
            prop_assert!(counted <= (after.len() as u64).into());
        }
    }
    if sols.len() == 1 {
        let red = KIND.redundant(&text, &RunOptions::default()).unwrap();
        prop_assert_eq!(red.checked, p.num_hints());
        for c in &red.redundant {
            prop_assert_eq!(solutions(&pencilbox_suguru::parse(&c.puzzle).unwrap()).len(), 1);
        }
        // And the hints not listed are needed.
        let listed: BTreeSet<&str> = red.redundant.iter().map(|c| c.at.as_str()).collect();
        for c in p.shape().all().filter(|&c| p.hint(c) != 0) {
            if !listed.contains(p.shape().name(c).as_str()) {
                let mut hints = p.hints().clone();
                hints[c] = 0;
                prop_assert!(solutions(&p.with_hints(hints).unwrap()).len() >= 2);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Planted answers on the generator's layouts: always solvable, often with several
    /// solutions when few hints are kept.
    #[test]
    fn forced_facts_on_planted_puzzles_are_the_intersection_of_all_solutions(
        h in 1usize..=4, w in 2usize..=4, seed in any::<u64>(), keep in 25u8..=80,
    ) {
        let Some((p, _)) = planted(h, w, seed, keep) else { return Ok(()) };
        check(&p)?;
    }

    #[test]
    fn forced_facts_are_the_intersection_of_all_brute_force_solutions(
        h in 1usize..=4, w in 1usize..=4,
        labels in proptest::collection::vec(0u8..4, 16),
        hints in proptest::collection::vec(any::<u8>(), 16),
    ) {
        check(&instance(h, w, &labels, &hints, 5))?;
    }
}

#[test]
fn figure_one_as_printed_has_several_solutions_and_its_forced_cells_hold_in_each() {
    let p = pencilbox_suguru::parse("3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n").unwrap();
    check(&p).unwrap();
    let r = KIND.forced(&p.to_text(), &RunOptions::default()).unwrap();
    assert_eq!(r.solutions, Solutions::Several);
    assert!(r.forced.iter().any(|f| f.at == "r2c2" && f.by == By::Given));
}

#[test]
fn suggest_gives_a_clue_back_to_a_puzzle_that_lost_one() {
    // Every clue of bundled examples removed in turn: `count --suggest` makes it unique again.
    pencilbox_core::testing::assert_suggest_restores_examples::<pencilbox_suguru::Suguru>(
        env!("CARGO_MANIFEST_DIR"),
        &["suguru/example-6x6.in"],
    );
}
