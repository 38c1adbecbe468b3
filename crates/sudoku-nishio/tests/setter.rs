//! The setter's tools against brute force on random 4×4 Sudokus (a random full grid, a random
//! subset of its values as givens): `forced` lists exactly the facts shared by every solution;
//! a suggested given lowers the count; a redundant given removed alone leaves one solution.

use pencilbox_core::setter::{By, Solutions};
use pencilbox_core::testing::brute_force;
use pencilbox_core::{Domain, PuzzleKind, RunOptions};
use pencilbox_sudoku_nishio::board::{BlockShape, Sudoku};
use pencilbox_sudoku_nishio::KIND;
use proptest::prelude::*;
use std::collections::BTreeSet;

const BLOCK: BlockShape = BlockShape::new(2, 2);

/// Every filling of the givens with no repeat in a row, column or 2×2 block.
fn brute(givens: &[u8]) -> Vec<Vec<u32>> {
    let doms: Vec<Domain> = givens
        .iter()
        .map(|&v| match v {
            0 => Domain::range(1, 4),
            v => Domain::single(u32::from(v)),
        })
        .collect();
    brute_force(
        &doms,
        |v, i| {
            let (r, c) = (i / 4, i % 4);
            (0..i).any(|j| {
                let (rj, cj) = (j / 4, j % 4);
                v[i] == v[j] && (r == rj || c == cj || (r / 2 == rj / 2 && c / 2 == cj / 2))
            })
        },
        None,
    )
}

fn name(i: usize) -> String {
    format!("r{}c{}", i / 4 + 1, i % 4 + 1)
}

fn check(givens: &[u8]) -> Result<(), TestCaseError> {
    let sols = brute(givens);
    let text = Sudoku::new(BLOCK, givens.to_vec()).unwrap().to_line();
    let r = KIND.forced(&text, &RunOptions::default()).unwrap();
    prop_assert!(r.complete);
    let want = Solutions::of_count(sols.len());
    prop_assert_eq!(r.solutions, want, "{}", text);
    let expected: BTreeSet<(String, String)> = (0..16)
        .filter(|&i| !sols.is_empty() && sols.iter().all(|s| s[i] == sols[0][i]))
        .map(|i| (name(i), sols[0][i].to_string()))
        .collect();
    let got: BTreeSet<(String, String)> = r.forced.iter().map(|f| (f.at.clone(), f.value.clone())).collect();
    prop_assert_eq!(got, expected, "{}", text);
    for f in &r.forced {
        let i = (0..16).find(|&i| name(i) == f.at).unwrap();
        prop_assert_eq!(f.by == By::Given, givens[i] != 0);
    }
    let parse = |t: &str| Sudoku::parse(t, Some(BLOCK)).unwrap().givens().to_vec();
    if sols.len() >= 2 {
        let s = KIND.suggest(&text, 1000, &RunOptions::default()).unwrap();
        prop_assert_eq!(s.count, (sols.len() as u64).into());
        let clue = s.clue.expect("two solutions differ at a cell without a given");
        let after = brute(&parse(&clue.puzzle));
        prop_assert!(!after.is_empty() && after.len() < sols.len(), "{}", text);
        prop_assert_eq!(s.count_after.unwrap(), (after.len() as u64).into());
    }
    if sols.len() == 1 {
        let red = KIND.redundant(&text, &RunOptions::default()).unwrap();
        prop_assert_eq!(red.checked, givens.iter().filter(|&&v| v != 0).count());
        for c in &red.redundant {
            prop_assert_eq!(brute(&parse(&c.puzzle)).len(), 1);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn forced_facts_are_the_intersection_of_all_brute_force_solutions(
        grid in 0usize..288, mask in proptest::collection::vec(0u8..100, 16), keep in 0u8..80,
    ) {
        let full = &brute(&[0; 16])[grid];
        let givens: Vec<u8> = full.iter().zip(&mask).map(|(&v, &m)| if m < keep { v as u8 } else { 0 }).collect();
        check(&givens)?;
    }

    #[test]
    fn clashing_or_random_givens_agree_with_brute_force(givens in proptest::collection::vec(0u8..=4, 16)) {
        let sparse: Vec<u8> = givens.iter().enumerate().map(|(i, &v)| if i % 3 == 0 { v } else { 0 }).collect();
        check(&sparse)?;
    }
}

#[test]
fn suggest_gives_a_clue_back_to_a_puzzle_that_lost_one() {
    // Every clue of bundled examples removed in turn: `count --suggest` makes it unique again.
    pencilbox_core::testing::assert_suggest_restores_examples::<pencilbox_sudoku_nishio::Sudoku>(
        env!("CARGO_MANIFEST_DIR"),
        &["sudoku/9x9.txt"],
    );
}
