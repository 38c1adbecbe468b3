//! Ripple Effect: the engine model against brute force, formats, the verifier, the generator
//! and the fixtures in `examples/ripple` (made by the generator).

use pencilbox_core::constraints::DistinctRules;
use pencilbox_core::plugin::Puzzle;
use pencilbox_core::regions::generate::random_layout;
use pencilbox_core::regions::Board;
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::search::{count_keeping, Limits};
use pencilbox_core::testing::{assert_all_listed, assert_complete_fixpoint};
use pencilbox_core::{Grid, PuzzleKind, RunOptions, Shape, Status};
use pencilbox_ripple::{generate, Ripple, FAMILY, KIND};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

mod common;
use common::brute;

fn random_board(seed: u64, h: usize, w: usize) -> Board {
    let mut rng = SplitMix64::new(seed);
    let shape = Shape::new(h, w);
    let labels = random_layout(shape, &mut rng, &[1, 2, 2, 3, 3, 4]);
    let empty = Board::new(Grid::filled(shape, 0), &labels).unwrap();
    let hints: Vec<u32> = shape
        .all()
        .map(|c| {
            if rng.chance(0.25) {
                1 + rng.below(empty.regions().size_of(c)) as u32
            } else {
                0
            }
        })
        .collect();
    empty.with_hints(Grid::from_vec(shape, hints).unwrap()).unwrap()
}

fn solutions(p: &Ripple, rules: DistinctRules) -> Vec<Vec<u32>> {
    let (mut s, cells) = p.model(rules).unwrap();
    let (r, mut sols) = count_keeping(&mut s, &Limits::all(), usize::MAX, |s| {
        cells.iter().map(|&v| s.engine.value(v).unwrap()).collect::<Vec<u32>>()
    });
    assert!(r.complete());
    sols.sort();
    sols
}

/// The engine model with each rule set and the SAT algorithm find exactly brute force's
/// solutions.
fn check_against_brute_force(seed: u64, h: usize, w: usize) -> Result<(), TestCaseError> {
    let b = random_board(seed, h, w);
    let mut truth = brute(&b);
    truth.sort();
    let p = Ripple(b);
    for rules in [DistinctRules::NAKED_SINGLES, DistinctRules::SINGLES, DistinctRules::ALL] {
        prop_assert_eq!(&solutions(&p, rules), &truth, "{:?}\n{}", rules, FAMILY.to_text(&p.0));
    }
    for s in &truth {
        let g = Grid::from_vec(p.0.shape(), s.clone()).unwrap();
        prop_assert!(p.verify(&g).is_valid());
    }
    // The SAT algorithm (the model's CNF) counts the same, and returns two of them.
    let f = p
        .search(
            Some(pencilbox_ripple::Algorithm::Sat),
            &RunOptions::default(),
            &Limits::all(),
            2,
        )
        .unwrap();
    prop_assert!(f.complete);
    prop_assert_eq!(f.count, truth.len().into(), "sat\n{}", FAMILY.to_text(&p.0));
    for g in &f.solutions {
        prop_assert!(truth.contains(&g.as_slice().to_vec()));
    }
    prop_assert_eq!(f.solutions.len(), truth.len().min(2));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// The long mode of the cross-check (BENCHMARKS.md): 3000 boards up to 5×5.
    #[test]
    #[ignore = "long mode: cargo test -p pencilbox-ripple --test ripple -- --ignored"]
    fn long_crosscheck_of_the_engine_and_sat_with_brute_force(seed in any::<u64>(), h in 1usize..=5, w in 1usize..=5) {
        check_against_brute_force(seed, h, w)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    #[test]
    fn the_engine_model_finds_exactly_the_brute_force_solutions(seed in any::<u64>(), h in 1usize..5, w in 1usize..5) {
        check_against_brute_force(seed, h, w)?;
    }

    #[test]
    fn incremental_propagation_reaches_the_from_scratch_fixpoint(seed in any::<u64>()) {
        let p = Ripple(random_board(seed, 4, 4));
        let (mut s, _) = p.model(DistinctRules::ALL).unwrap();
        if s.engine.propagate().is_ok() {
            assert_complete_fixpoint(&mut s.engine);
        }
    }
}

const SMALL: &str = "ripple 3 3\n0 0 0\n0 0 0\n0 0 0\n1 1 2\n1 3 2\n4 3 2\n";

#[test]
fn text_url_and_json_forms_round_trip() {
    let b = FAMILY.parse(SMALL).unwrap();
    assert_eq!(FAMILY.to_text(&b), SMALL);
    assert_eq!(FAMILY.parse(&FAMILY.to_url(&b)).unwrap(), b);
    assert_eq!(FAMILY.parse(&FAMILY.to_json(&b).to_string()).unwrap(), b);
    assert!(KIND.detect(SMALL) && KIND.detect(&FAMILY.to_url(&b)));
    // A Suguru file (no keyword) is not a Ripple Effect file.
    assert!(!KIND.detect("3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n"));
}

#[test]
fn the_verifier_names_two_equal_numbers_too_close_in_a_line() {
    let p = Ripple::parse("ripple 1 3\n0 0 0\n1 1 2\n", &RunOptions::default()).unwrap();
    let ok = p.parse_solution("1 2 1").unwrap();
    assert!(p.verify(&ok).is_valid(), "{:?}", p.verify(&ok));
    // The 1s of r1c2 and r1c3 touch: no cell between them.
    let bad = p.parse_solution("2 1 1").unwrap();
    let v = p.verify(&bad);
    assert_eq!(v.violations.len(), 1, "{v:?}");
    assert_eq!(
        (v.violations[0].at.as_str(), v.violations[0].rule.as_str()),
        ("r1c2", "ripple")
    );
    assert_eq!(
        v.violations[0].message,
        "r1c3 also holds 1 with no cell between them; two 1s need at least 1"
    );
}

#[test]
fn bad_input_names_its_line_and_column() {
    let e = KIND
        .solve("ripple 2 2\n0 0\n0 x\n1 1\n1 1\n", &RunOptions::default())
        .unwrap_err();
    assert_eq!(e.to_string(), "3:3: expected a hint (a whole number), found `x`");
    let e = KIND
        .solve("ripple 1 3\n0 0 3\n1 1 2\n", &RunOptions::default())
        .unwrap_err();
    assert!(
        e.to_string().starts_with("2:5: hint 3 is larger than its region"),
        "{e}"
    );
}

#[test]
fn generated_puzzles_are_unique_and_solve_to_their_answer() {
    for seed in 0..4 {
        let g = generate(5, 5, seed, &Limits::default()).unwrap();
        let c = KIND.count(&g.text, Some(2), &RunOptions::default()).unwrap();
        assert_eq!((c.count, c.complete), (1u32.into(), true), "{}", g.text);
        let r = KIND.solve(&g.text, &RunOptions::default()).unwrap();
        assert_eq!(r.status, Status::Solved);
        assert!(KIND.matches_answer(&r.solution.unwrap(), &g.answer).unwrap());
        assert_eq!(
            generate(5, 5, seed, &Limits::default()).unwrap().text,
            g.text,
            "a seed keeps its puzzle"
        );
    }
}

#[test]
fn a_puzzle_with_two_solutions_has_a_witness_pair() {
    // Two one-cell... a 1×2 region in a row: (1,2) or (2,1).
    let c = KIND
        .count("ripple 1 2\n0 0\n1 1\n", None, &RunOptions::default())
        .unwrap();
    assert_eq!((c.count, c.complete, c.witness.len()), (2u32.into(), true, 2));
    assert_eq!(c.differences, ["r1c1", "r1c2"]);
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ripple")
}

fn solves_to_its_answer(name: &str) {
    let text = std::fs::read_to_string(examples().join(format!("{name}.in"))).unwrap();
    let answer = std::fs::read_to_string(examples().join(format!("{name}.ans"))).unwrap();
    let c = KIND.count(&text, Some(2), &RunOptions::default()).unwrap();
    assert_eq!((c.count, c.complete), (1u32.into(), true), "{name} is unique");
    let r = KIND.solve(&text, &RunOptions::default()).unwrap();
    assert!(KIND.matches_answer(&r.solution.unwrap(), &answer).unwrap(), "{name}");
}

pencilbox_core::fixtures!(solves_to_its_answer;
    example_6x6 => "example-6x6",
    example_8x8 => "example-8x8",
    example_10x10 => "example-10x10",
);

#[test]
fn every_fixture_has_a_test() {
    assert_all_listed(&examples(), "in", &["example-6x6", "example-8x8", "example-10x10"]);
}

/// The walkthrough in docs/architecture.md promises a family in under 200 lines of Rust
/// outside its tests (blank lines and comments not counted): this keeps the promise.
#[test]
fn the_crate_stays_under_200_lines_of_code() {
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let mut lines = 0;
    for entry in std::fs::read_dir(src).expect("src") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("source");
        lines += text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("//"))
            .count();
    }
    assert!(lines < 200, "crates/ripple/src has {lines} lines of code");
}
