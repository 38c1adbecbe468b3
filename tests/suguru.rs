//! End-to-end: Suguru through the `pencilbox` binary.

use pencilbox_tests::{assert_bench_matches_answers, assert_verifies, run, run_with_stdin, shared_data, temp_file};

/// 1×4, two regions of two cells, no hints: exactly `1 2 1 2` and `2 1 2 1`.
const TWO_SOLUTIONS: &str = "1 4\n0 0 0 0\n1 1 2 2\n";

#[test]
fn count_finds_two_solutions_with_a_witness_pair_and_their_differences() {
    let f = temp_file("two.in", TWO_SOLUTIONS.as_bytes());
    let out = run(&["count", "--format", "json", f.to_str().unwrap_or_default()]);
    out.code(0);
    let v = out.json();
    assert_eq!(v["puzzle"], "suguru");
    assert_eq!(v["count"], 2);
    assert_eq!(v["complete"], true);
    let w = v["witness"].as_array().expect("witness");
    assert_eq!(w.len(), 2);
    assert_ne!(w[0], w[1]);
    assert_eq!(v["differences"].as_array().map(Vec::len), Some(4));
}

#[test]
fn uniqueness_check_stops_at_the_limit() {
    // One 2×2 region: its four cells are pairwise adjacent, so 4! = 24 solutions.
    let one_region = b"2 2\n0 0\n0 0\n1 1\n1 1\n";
    let out = run_with_stdin(&["count", "--limit", "2", "--format", "json", "-"], one_region);
    let v = out.code(0).json();
    assert_eq!((v["count"].as_u64(), v["complete"].as_bool()), (Some(2), Some(false)));
    let out = run_with_stdin(&["count", "--format", "json", "-"], one_region);
    let v = out.code(0).json();
    assert_eq!((v["count"].as_u64(), v["complete"].as_bool()), (Some(24), Some(true)));
}

#[test]
fn every_algorithm_solves_from_stdin_and_the_result_verifies() {
    for alg in ["fast", "paper"] {
        let out = run_with_stdin(
            &["solve", "--puzzle", "suguru", "--algorithm", alg, "-"],
            TWO_SOLUTIONS.as_bytes(),
        );
        out.code(0);
        let puzzle = temp_file("p.in", TWO_SOLUTIONS.as_bytes());
        let sol = temp_file(&format!("p-{alg}.ans"), out.stdout.as_bytes());
        assert_verifies(&puzzle, &sol);
    }
}

#[test]
fn solve_json_has_the_documented_shape() {
    let out = run_with_stdin(&["solve", "--format", "json", "-"], TWO_SOLUTIONS.as_bytes());
    out.code(0);
    let v = out.json();
    assert_eq!(v["puzzle"], "suguru");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["solution"].as_array().map(Vec::len), Some(1));
    assert!(v["stats"]["nodes"].is_u64() && v["stats"]["elapsed_us"].is_u64());
}

#[test]
fn an_unsolvable_puzzle_exits_1_with_the_reason() {
    // Theorem 1: the 2×2 window holds two complete regions of two cells.
    let out = run_with_stdin(&["solve", "-"], b"2 2\n0 0\n0 0\n1 1\n2 2\n");
    out.code(1).stdout_has("no solution");
    let out = run_with_stdin(&["solve", "--format", "json", "-"], b"2 2\n0 0\n0 0\n1 1\n2 2\n");
    let v = out.code(1).json();
    assert_eq!(v["status"], "unsolvable");
    assert!(v["reason"].as_str().is_some_and(|r| r.contains("Theorem 1")), "{v}");
}

#[test]
fn verify_lists_each_violation_and_exits_1() {
    let puzzle = temp_file("v.in", TWO_SOLUTIONS.as_bytes());
    let bad = temp_file("v.ans", b"1 1 2 2\n");
    let out = run(&[
        "verify",
        puzzle.to_str().unwrap_or_default(),
        bad.to_str().unwrap_or_default(),
    ]);
    out.code(1).stdout_has("r1c1").stdout_has("invalid");
}

#[test]
fn malformed_suguru_input_names_file_line_and_column() {
    let cases: &[(&[u8], &str)] = &[
        (b"2 2\n0 x\n0 0\n1 1\n1 1\n", ":2:3:"),
        (b"2 2\n0 0\n0 0\n1 1\n", ":5:1:"),
        (b"100000 100000\n0 0\n", ":1:1:"),
        (b"2 2\n9 0\n0 0\n1 1\n1 1\n", ":2:1:"),
        (b"2 2\n-1 0\n0 0\n1 1\n1 1\n", ":2:1:"),
        (b"2 99999999999999999999\n", ":1:3:"),
    ];
    for (input, pos) in cases {
        let out = run_with_stdin(&["solve", "--puzzle", "suguru", "-"], input);
        out.code(2).stderr_has(&format!("<stdin>{pos}"));
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    }
}

#[test]
fn janko_instances_solve_to_their_answers_with_paper_and_fast() {
    let Some(dir) = shared_data("suguru/janko") else { return };
    for alg in ["fast", "paper"] {
        assert_bench_matches_answers(&["--algorithm", alg], &dir, 120);
    }
}
