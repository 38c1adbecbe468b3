//! Deadlines and cancellation (`RunOptions.limits`): an expired deadline or a set cancel flag
//! gives a prompt `Timeout` report (count: `interrupted`) on every path — the rules (Nishio's
//! lazy graph build and search, chains), the search fallback and counting. These are not
//! timed tests: they assert on the status; the elapsed-time bound (2 s) is only a generous
//! sanity check against a run that ignores the limits (those take 5+ s on an empty 25×25).

use pencilbox_core::{Limits, PuzzleKind, RunOptions, Status};
use pencilbox_sudoku_nishio::board::{BlockShape, Candidates, Sudoku};
use pencilbox_sudoku_nishio::{nishio_for_digit_limited, AbGraph, Deducer, Method, RuleSet, KIND};
use std::cell::Cell;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

const GENEROUS: Duration = Duration::from_secs(2);

fn bundled(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/sudoku")
        .join(name);
    std::fs::read_to_string(path).expect("bundled example")
}

fn expired() -> Limits {
    Limits {
        deadline: Some(Instant::now() - Duration::from_millis(1)),
        ..Limits::default()
    }
}

fn cancelled() -> Limits {
    Limits {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Limits::default()
    }
}

fn opts(alg: &str, limits: Limits) -> RunOptions {
    RunOptions {
        algorithm: Some(alg.into()),
        limits,
        ..RunOptions::default()
    }
}

fn assert_prompt_timeout(text: &str, alg: &str, limits: Limits) {
    let start = Instant::now();
    let r = KIND.solve(text, &opts(alg, limits)).unwrap();
    assert_eq!(r.status, Status::Timeout, "{alg}");
    assert!(r.solution.is_none());
    assert!(start.elapsed() < GENEROUS, "{alg} took {:?}", start.elapsed());
}

#[test]
fn an_empty_25x25_with_an_expired_deadline_times_out_at_once() {
    let text = ".".repeat(625);
    for alg in ["deduce", "backtrack"] {
        assert_prompt_timeout(&text, alg, expired());
        assert_prompt_timeout(&text, alg, cancelled());
    }
}

#[test]
fn a_deadline_that_passes_during_the_rules_stops_them_on_an_empty_25x25() {
    // The rules reach Nishio (no singles on an empty grid), whose 25×25 graph takes seconds
    // to build: the build polls the deadline and is dropped.
    let text = ".".repeat(625);
    let limits = Limits {
        deadline: Some(Instant::now() + Duration::from_millis(30)),
        ..Limits::default()
    };
    let start = Instant::now();
    let r = KIND.solve(&text, &opts("deduce", limits)).unwrap();
    // A fast machine might build the graph and finish by search within the deadline; either
    // way the answer is prompt and, when solved, valid.
    if r.status == Status::Solved {
        let sol = r.solution.unwrap();
        assert!(KIND
            .verify(&text, &sol.text, &RunOptions::default())
            .unwrap()
            .is_valid());
    } else {
        assert_eq!(r.status, Status::Timeout);
    }
    assert!(start.elapsed() < GENEROUS, "took {:?}", start.elapsed());
}

#[test]
fn a_deadline_too_short_for_the_25x25_graph_skips_nishio_and_solves_by_search() {
    // No test of this file builds the 25×25 graph (4.5 M vertices, estimated 2.3 s): with 4 s
    // left the rule is skipped (less than twice the estimate) and the search solves the grid.
    let text = ".".repeat(625);
    let limits = Limits {
        deadline: Some(Instant::now() + Duration::from_secs(4)),
        ..Limits::default()
    };
    let r = KIND.solve(&text, &opts("deduce", limits)).unwrap();
    assert_eq!(r.status, Status::Solved);
    let sol = r.solution.unwrap();
    assert!(KIND
        .verify(&text, &sol.text, &RunOptions::default())
        .unwrap()
        .is_valid());
    assert!(r.notes.iter().any(|n| n.value.contains("Nishio rule skipped")));
}

#[test]
fn a_hard_16x16_with_an_expired_deadline_or_cancel_flag_times_out() {
    let text = bundled("16x16.txt");
    for alg in ["deduce", "backtrack"] {
        assert_prompt_timeout(&text, alg, expired());
        assert_prompt_timeout(&text, alg, cancelled());
    }
}

#[test]
fn counting_an_empty_9x9_with_an_expired_deadline_is_interrupted() {
    let text = ".".repeat(81);
    for limits in [expired(), cancelled()] {
        let start = Instant::now();
        let r = KIND.count(&text, None, &opts("backtrack", limits)).unwrap();
        assert!(r.interrupted);
        assert!(!r.complete);
        assert!(start.elapsed() < GENEROUS);
    }
}

#[test]
fn a_deducer_with_expired_limits_makes_no_step_and_says_why() {
    let p = Sudoku::parse(&bundled("16x16.txt"), None).unwrap();
    let before = Candidates::from_puzzle(&p).unwrap();
    let mut d = Deducer::new(&p, RuleSet::ALL).unwrap().with_limits(expired());
    assert!(d.step().is_none());
    assert!(d.interrupted().is_some_and(|w| w.is_interrupted()));
    assert_eq!(d.candidates(), before);
    let mut d = Deducer::new(&p, RuleSet::ALL).unwrap().with_limits(cancelled());
    assert!(d.step().is_none());
    assert_eq!(d.interrupted(), Some(pencilbox_core::StopReason::Cancelled));
    // Without limits the same deducer makes progress.
    let mut d = Deducer::new(&p, RuleSet::ALL).unwrap();
    assert!(d.step().is_some());
    assert!(d.interrupted().is_none());
}

#[test]
fn an_interrupted_graph_build_leaves_the_cache_usable() {
    // 12×12 with 4×3 blocks is built by no other test of this file.
    let block = BlockShape::new(4, 3);
    let polls = Cell::new(0u32);
    let stop_at_second_poll = || {
        polls.set(polls.get() + 1);
        polls.get() >= 2
    };
    assert!(AbGraph::get_with(block, &stop_at_second_poll).unwrap().is_none());
    assert!(!AbGraph::is_cached(block));
    let g = AbGraph::get_with(block, &|| false).unwrap().unwrap();
    assert!(AbGraph::is_cached(block));
    assert_eq!(g.num_vertices(), AbGraph::build(block).num_vertices());
    assert_eq!(g.count_paths(), AbGraph::build(block).count_paths());
}

#[test]
fn nishio_for_a_digit_honours_the_limits_and_otherwise_agrees() {
    let p = Sudoku::parse(&bundled("16x16.txt"), None).unwrap();
    let cand = Candidates::from_puzzle(&p).unwrap();
    for method in [Method::Dag, Method::Paper, Method::Matching] {
        assert_eq!(nishio_for_digit_limited(&cand, 3, method, &expired()).unwrap(), None);
        let limited = nishio_for_digit_limited(&cand, 3, method, &Limits::default()).unwrap();
        let plain = pencilbox_sudoku_nishio::nishio_for_digit(&cand, 3, method).unwrap();
        assert_eq!(limited, Some(plain));
    }
    assert!(nishio_for_digit_limited(&cand, 0, Method::Dag, &Limits::default()).is_err());
}
