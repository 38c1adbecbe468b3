//! Theorem 3 of the Path paper (`shared/papers/path-puzzle-backtracking.txt`, Section V): the
//! state space tree of Algorithm 3 (`paper`) on an `m × n` instance has at most
//! `1 + 3 + … + 3^{mn} = (3^{mn+1} − 1) / 2` states, so it runs in `O(3^{mn})`.
//!
//! The proof's two facts are checked on the full tree (a `count`, which visits every state, not
//! just those up to the first solution), on random instances up to 5×5 and on the paper's 26
//! letters: no state is deeper than `mn − 1` moves (the path visits each cell at most once), and
//! no state has more than three children (door A is on the edge, so it has at most three
//! neighbours in the grid; every later cell came from a neighbour, which is no longer empty). So
//! level `i` holds at most `3^i` states and the tree at most `(3^{mn} − 1) / 2`, within the
//! theorem's bound.
//!
//! The same instances also check that `PaperSearch::run`, the loop `paper` runs, walks exactly
//! the tree the general driver (`core::search::run`) walks on the same state.

use pencilbox_core::search::{self, Flow};
use pencilbox_core::{BigUint, Limits};
use pencilbox_pathpuzzle::paper::PaperSearch;
use pencilbox_pathpuzzle::solve::{count, Algorithm};
use pencilbox_pathpuzzle::PathPuzzle;
use proptest::prelude::*;

mod common;
use common::arb_instance;

/// The theorem's bound `(3^{mn+1} − 1) / 2`.
fn theorem3_bound(p: &PathPuzzle) -> BigUint {
    (BigUint::from(3u32).pow(p.shape().cells() as u32 + 1) - 1u32) / 2u32
}

/// `PaperSearch::run` (the loop `paper` uses) and the general driver walk the same tree:
/// equal solutions, stop reasons and counters under a full count, a first-solution search and
/// node limits.
fn check_walks_agree(p: &PathPuzzle) -> Result<(), TestCaseError> {
    let full = Limits::default();
    let nodes = PaperSearch::new(p).run(&full, |_| Flow::Continue).stats.nodes;
    for limits in [
        full.clone(),
        Limits::first(),
        Limits {
            node_limit: Some(nodes / 2),
            ..Limits::default()
        },
        Limits {
            node_limit: Some(nodes / 3 + 1),
            max_solutions: Some(1),
            ..Limits::default()
        },
    ] {
        let (mut own, mut general) = (Vec::new(), Vec::new());
        let mut a = PaperSearch::new(p);
        let ra = a.run(&limits, |s| {
            own.push(s.configuration());
            Flow::Continue
        });
        let mut b = PaperSearch::new(p);
        let rb = search::run(&mut b, &limits, |s| {
            general.push(s.configuration());
            Flow::Continue
        });
        let strip = |r: search::SearchResult| (r.solutions, r.stop, r.stats.nodes, r.stats.failures, r.stats.max_depth);
        prop_assert_eq!(strip(ra), strip(rb), "{:?} on\n{}", limits, p);
        prop_assert_eq!(&own, &general);
        // Stopping with the callback: the first solution only.
        let mut seen = 0;
        let rc = PaperSearch::new(p).run(&limits, |_| {
            seen += 1;
            Flow::Stop
        });
        let rd = search::run(&mut PaperSearch::new(p), &limits, |_| Flow::Stop);
        prop_assert_eq!(strip(rc), strip(rd));
        prop_assert!(seen <= 1);
    }
    Ok(())
}

/// Checks the proof's facts and the bound on the full tree of `paper`.
fn check(p: &PathPuzzle) -> Result<(), TestCaseError> {
    check_walks_agree(p)?;
    let c = count(p, &Algorithm::Paper, None, &Limits::default());
    prop_assert!(c.complete(), "the count ended early on\n{}", p);
    let cells = p.shape().cells() as u64;
    let nodes = BigUint::from(c.stats.nodes);
    prop_assert!(
        c.stats.max_depth < cells.max(1),
        "depth {} on\n{}",
        c.stats.max_depth,
        p
    );
    // Level i has at most 3^i states, for levels 0..=max_depth.
    let per_levels = (BigUint::from(3u32).pow(c.stats.max_depth as u32 + 1) - 1u32) / 2u32;
    prop_assert!(
        nodes <= per_levels,
        "{} nodes, depth {} on\n{}",
        c.stats.nodes,
        c.stats.max_depth,
        p
    );
    prop_assert!(nodes < theorem3_bound(p));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn theorem3_bounds_the_full_tree_of_paper_on_random_instances(p in arb_instance()) {
        check(&p)?;
    }
}

#[test]
fn theorem3_on_the_papers_figure_5_and_an_unclued_grid() {
    // Figure 5 (3×3): the bound is (3^10 − 1) / 2 = 29 524.
    let p = PathPuzzle::parse("3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n").unwrap();
    assert_eq!(theorem3_bound(&p), BigUint::from(29_524u32));
    check(&p).unwrap();
    // No clue at all: every simple path from door A is a state, the largest tree for the size.
    let p = PathPuzzle::parse("3 3\n1 1\n3 3\n\n-1 -1 -1\n-1 -1 -1\n").unwrap();
    check(&p).unwrap();
}

#[test]
fn theorem3_on_the_papers_26_letters() {
    let Some(dir) = pencilbox_core::testing::shared_data(env!("CARGO_MANIFEST_DIR"), "path/letters") else {
        return; // `shared_data` printed the `skip:` line
    };
    let mut seen = 0;
    for letter in 'a'..='z' {
        let f = dir.join(format!("{letter}.txt"));
        let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        check(&PathPuzzle::parse(&text).unwrap()).unwrap();
        seen += 1;
    }
    assert_eq!(seen, 26);
}
