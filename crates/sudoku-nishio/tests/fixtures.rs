//! Fixture tests over the bundled examples (`examples/sudoku/`, made by our generator or
//! transcribed from the paper), and parse → display → parse round trips in every format.

use pencilbox_core::{PuzzleKind, RunOptions, Status};
use pencilbox_sudoku_nishio::board::{BlockShape, Sudoku};
use pencilbox_sudoku_nishio::generate::{generate, Rng};
use pencilbox_sudoku_nishio::KIND;
use proptest::prelude::*;
use std::path::PathBuf;

fn examples() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/sudoku");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn every_bundled_example_has_one_solution_and_both_algorithms_find_it() {
    let files = examples();
    assert!(files.len() >= 8, "examples/sudoku is missing: {files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for inst in KIND.instances(&text) {
            let at = format!("{}:{}", f.display(), inst.first_line);
            let c = KIND.count(inst.text, Some(2), &RunOptions::default()).unwrap();
            assert_eq!(c.count, 1u32.into(), "{at} is not unique");
            let mut texts = Vec::new();
            for alg in ["deduce", "backtrack"] {
                let opts = RunOptions {
                    algorithm: Some(alg.into()),
                    ..RunOptions::default()
                };
                let r = KIND.solve(inst.text, &opts).unwrap();
                assert_eq!(r.status, Status::Solved, "{at} {alg}");
                let sol = r.solution.unwrap();
                assert!(KIND.verify(inst.text, &sol.text, &opts).unwrap().is_valid(), "{at}");
                texts.push(sol.text);
            }
            assert_eq!(texts[0], texts[1], "{at}");
        }
    }
}

fn round_trip(p: &Sudoku) {
    let b = Some(p.block());
    assert_eq!(&Sudoku::parse(&p.to_line(), b).unwrap(), p);
    assert_eq!(&Sudoku::parse(&p.to_pretty(), b).unwrap(), p);
    assert_eq!(&Sudoku::parse(&p.to_url(), b).unwrap(), p);
    let json = serde_json::json!({"block": p.block().to_string(), "grid": p.to_rows()}).to_string();
    assert_eq!(&Sudoku::parse(&json, None).unwrap(), p);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn puzzles_round_trip_through_every_format(seed in any::<u64>(), shape in 0usize..4) {
        let block = [BlockShape::new(2, 2), BlockShape::new(2, 3), BlockShape::new(3, 2), BlockShape::new(3, 3)][shape];
        let mut rng = Rng::new(seed);
        let (p, sol) = generate(block, &mut rng, 0);
        round_trip(&p);
        // The planted answer is the unique solution.
        let r = KIND.solve(&p.to_line(), &RunOptions { settings: vec![("block".into(), block.to_string())], ..RunOptions::default() }).unwrap();
        let expect: String = sol.iter().map(|&v| pencilbox_sudoku_nishio::board::symbol(v)).collect();
        prop_assert_eq!(r.solution.unwrap().text, expect);
    }
}

#[test]
fn large_grids_round_trip_with_letters_and_two_digit_url_clues() {
    let mut rng = Rng::new(9);
    for block in [BlockShape::new(4, 4), BlockShape::new(5, 5)] {
        let g = pencilbox_sudoku_nishio::generate::pattern_solution(block, &mut rng);
        let mut givens = g.clone();
        for (i, v) in givens.iter_mut().enumerate() {
            if i % 3 == 0 {
                *v = 0;
            }
        }
        round_trip(&Sudoku::new(block, givens).unwrap());
    }
}

/// Every step of the deductive solver is sound: no elimination removes the (unique) solution's
/// value and every placement agrees with it. Checked on generated puzzles of several shapes.
#[test]
fn every_deduction_step_agrees_with_the_planted_solution() {
    use pencilbox_sudoku_nishio::solver::{explain, RuleSet};
    let mut rng = Rng::new(77);
    let shapes = [
        BlockShape::new(2, 2),
        BlockShape::new(2, 3),
        BlockShape::new(3, 3),
        BlockShape::new(2, 4),
    ];
    for k in 0..24 {
        let block = shapes[k % shapes.len()];
        let (p, sol) = generate(block, &mut rng, 0);
        for rules in [RuleSet::ALL, RuleSet::BASIC_NISHIO] {
            let e = explain(&p, rules).unwrap();
            assert!(e.contradiction.is_none());
            for s in &e.steps {
                for &(c, d) in &s.eliminated {
                    assert_ne!(sol[c], d, "{}: {}", p.to_line(), s.text);
                }
                for &(c, d) in &s.placed {
                    assert_eq!(sol[c], d, "{}: {}", p.to_line(), s.text);
                }
            }
        }
    }
}
