//! Our own fixtures (examples/suguru): the paper's figures transcribed from the paper, and
//! generated puzzles with their answers. One test per fixture so a failure names its file.

use num_bigint::BigUint;
use pencilbox_core::search::Limits;
use pencilbox_core::{PuzzleKind, RunOptions, Status};
use pencilbox_suguru::solver::{self, Algorithm};
use pencilbox_suguru::{linear, parse, parse_answer, theorems, verify, Suguru, KIND};
use std::path::PathBuf;

fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/suguru")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn puzzle(name: &str) -> Suguru {
    parse(&example(name)).unwrap()
}

/// Solves with every algorithm that applies and checks the answer file (when unique).
fn solves_to_its_answer(name: &str) {
    let p = puzzle(&format!("{name}.in"));
    let ans = parse_answer(&example(&format!("{name}.ans")), p.shape()).unwrap();
    assert!(verify(&p, &ans).is_valid());
    assert!(
        solver::is_unique(&p, &Limits::default()),
        "{name} should have one solution"
    );
    for alg in [Algorithm::Fast, Algorithm::Paper] {
        let lim = Limits {
            node_limit: Some(5_000_000),
            ..Limits::default()
        };
        let r = solver::solve(&p, Some(alg), &lim).unwrap();
        if r.status == Status::Timeout {
            continue; // `paper` may need more than the budget on large grids
        }
        assert_eq!(r.solution.as_ref(), Some(&ans), "{name} with {}", alg.name());
    }
}

#[test]
fn example_6x6_solves_to_its_answer() {
    solves_to_its_answer("example-6x6");
}

#[test]
fn example_10x10_solves_to_its_answer() {
    solves_to_its_answer("example-10x10");
}

#[test]
fn example_20x20_solves_to_its_answer() {
    solves_to_its_answer("example-20x20");
}

#[test]
fn every_bench_20x20_instance_is_unique_and_solves_to_its_answer() {
    for i in 1..=10 {
        let name = format!("bench-20x20/{i:03}");
        let p = puzzle(&format!("{name}.in"));
        let ans = parse_answer(&example(&format!("{name}.ans")), p.shape()).unwrap();
        assert!(solver::is_unique(&p, &Limits::default()), "{name}");
        let r = solver::solve(&p, None, &Limits::default()).unwrap();
        assert_eq!(r.solution, Some(ans), "{name}");
    }
}

#[test]
fn paper_fig1_has_fig1b_among_its_four_solutions() {
    let p = puzzle("paper-fig1-3x3.in");
    let fig1b = parse_answer("1 4 1\n2 5 2\n3 1 3", p.shape()).unwrap();
    assert!(verify(&p, &fig1b).is_valid());
    let c = KIND
        .count(&example("paper-fig1-3x3.in"), None, &RunOptions::default())
        .unwrap();
    assert_eq!((c.count, c.complete), (BigUint::from(4u32), true));
    assert_eq!(c.witness.len(), 2);
    assert!(!c.differences.is_empty());
    // Fig. 1c: the instance has three regions and two hint cells; ε = (4, 2, 1).
    assert_eq!((p.num_regions(), p.num_hints()), (3, 2));
    assert_eq!(theorems::empty_per_region(&p), vec![4, 2, 1]);
}

#[test]
fn paper_fig5_hintless_row_is_solved_as_in_example_1() {
    let p = puzzle("paper-fig5-1x6-hintless.in");
    let ans = parse_answer(&example("paper-fig5-1x6-hintless.ans"), p.shape()).unwrap();
    let r = solver::solve(&p, None, &Limits::default()).unwrap();
    assert_eq!(r.algorithm, Algorithm::Linear);
    assert_eq!(r.solution, Some(ans));
    // Exact count (regions of 1, 2, 3 cells) against Theorem 4's bound 1!·2!·3! = 12.
    assert_eq!(linear::count_solutions(&p), BigUint::from(4u32));
    assert_eq!(theorems::theorem4_bound(&p), BigUint::from(12u32));
}

#[test]
fn paper_fig6_row_with_hints_is_solved_as_in_example_2() {
    let p = puzzle("paper-fig6-1x6-hints.in");
    let ans = parse_answer(&example("paper-fig6-1x6-hints.ans"), p.shape()).unwrap();
    assert_eq!(solver::solve(&p, None, &Limits::default()).unwrap().solution, Some(ans));
    // χ_1 = {1, 2}, χ_2 = ∅, χ_3 = {1, 3} (Example 2): the bound is 2!·0!·2! = 4, the count 1.
    assert_eq!(theorems::theorem4_bound(&p), BigUint::from(4u32));
    assert_eq!(linear::count_solutions(&p), BigUint::from(1u32));
}

#[test]
fn the_theorem1_example_is_unsolvable_before_search() {
    let r = KIND
        .solve(&example("theorem1-2x3-unsolvable.in"), &RunOptions::default())
        .unwrap();
    assert_eq!(r.status, Status::Unsolvable);
    assert!(r.reason.unwrap().starts_with("Theorem 1"));
    assert_eq!(r.stats.nodes, 0);
}

#[test]
fn every_example_round_trips_through_text_json_and_url() {
    for name in [
        "example-6x6.in",
        "example-10x10.in",
        "example-20x20.in",
        "paper-fig1-3x3.in",
    ] {
        let p = puzzle(name);
        assert_eq!(parse(&p.to_text()).unwrap(), p, "{name}");
        assert_eq!(parse(&p.to_json().to_string()).unwrap(), p, "{name}");
        assert_eq!(parse(&pencilbox_suguru::puzzlink::to_url(&p)).unwrap(), p, "{name}");
        assert!(pencilbox_suguru::detect(&example(name)), "{name}");
    }
}

#[test]
fn stats_notes_put_theorem2_bound_next_to_the_nodes() {
    let r = KIND
        .solve(
            &example("paper-fig1-3x3.in"),
            &RunOptions {
                algorithm: Some("paper".into()),
                ..RunOptions::default()
            },
        )
        .unwrap();
    let bound = r.notes.iter().find(|n| n.name == "theorem2_bound").unwrap();
    assert_eq!(bound.value, "389");
    assert!(r.stats.nodes <= 389);
}
