//! Property tests on random small instances (up to 5×5): `paper`, `extend` (all rules, no
//! rules, each rule alone), `fast` (every subset of its optional rules, with both branchings)
//! and a naive brute-force enumerator of all simple A→B paths agree on the exact solution sets;
//! every solution passes the verifier; instant checks never reject a solvable instance; `fast`'s
//! walk finds Algorithm 3's solutions in a subset of its tree. The
//! engine model's incremental propagation reaches the fixpoint of a fresh model propagated
//! from scratch.

use pencilbox_core::engine::{VarId, FALSE, TRUE};
use pencilbox_core::search::Flow;
use pencilbox_core::{Limits, Shape};
use pencilbox_pathpuzzle::checks::no_solution_reason;
use pencilbox_pathpuzzle::extend::{Pruning, RULES};
use pencilbox_pathpuzzle::fast::{Branching, LinkModel, Rules, PAIRS_DEPTH};
use pencilbox_pathpuzzle::generate::{random_path, SplitMix64};
use pencilbox_pathpuzzle::paper::PaperSearch;
use pencilbox_pathpuzzle::quick::{self, Deductions, Walked};
use pencilbox_pathpuzzle::solve::{all_solutions, count, Algorithm};
use pencilbox_pathpuzzle::verify::is_solution;
use pencilbox_pathpuzzle::{configuration_from_path, Configuration, PathPuzzle};
use proptest::prelude::*;
use std::collections::BTreeSet;

mod common;
use common::arb_instance;

/// The configurations of every path of the shared oracle ([`common::paths`]).
fn brute_force(p: &PathPuzzle) -> BTreeSet<String> {
    common::paths(p)
        .iter()
        .map(|path| key(&configuration_from_path(p.shape(), path)))
        .collect()
}

fn key(a: &Configuration) -> String {
    a.as_slice().iter().map(|x| x.to_char()).collect()
}

fn solution_set(p: &PathPuzzle, alg: &Algorithm) -> BTreeSet<String> {
    let sols = all_solutions(p, alg);
    for a in &sols {
        assert!(is_solution(p, a), "{alg:?} returned a non-solution for\n{p}");
    }
    let set: BTreeSet<String> = sols.iter().map(key).collect();
    assert_eq!(set.len(), sols.len(), "{alg:?} returned a solution twice for\n{p}");
    set
}

fn check_agreement(p: &PathPuzzle) {
    let truth = brute_force(p);
    if no_solution_reason(p).is_some() {
        assert!(truth.is_empty(), "an instant check rejected a solvable puzzle:\n{p}");
    }
    // Every rule set also with the block decomposition forced on small grids, and without
    // bitboards (the general code path).
    let always = |p: Pruning| Pruning {
        blocks_min_cells: 0,
        ..p
    };
    let general = |p: Pruning| Pruning { bitboards: false, ..p };
    let mut algs = vec![Algorithm::Paper];
    for base in [Pruning::ALL, Pruning::DEFAULT, Pruning::NONE] {
        algs.extend([base, always(base), general(base), general(always(base))].map(Algorithm::Extend));
    }
    for rule in RULES {
        for p in [
            Pruning::parse(rule).unwrap(),
            Pruning::parse(&format!("-{rule}")).unwrap(),
        ] {
            algs.extend([p, always(p), general(p)].map(Algorithm::Extend));
        }
    }
    // The link model on the engine: every subset of the optional rules, both branchings.
    let mut link_rules: Vec<Rules> = (0..1u32 << Rules::OPTIONAL.len()).map(rule_subset).collect();
    // Tiny race slices: both racers find solutions before one ends, and only the winner's
    // solutions and count may be reported.
    // (No walk first: it would settle these small instances before any race.)
    for slice in [1, 3] {
        link_rules.push(Rules {
            slice,
            racers: 2,
            quick: 0,
            ..Rules::ALL
        });
    }
    // Slices of one node: the randomised racers join after 4 and 8 nodes and often win.
    link_rules.push(Rules {
        slice: 1,
        racers: 6,
        quick: 0,
        ..Rules::ALL
    });
    // The walk before the engine ([`pencilbox_pathpuzzle::quick`]): over budget at once, after
    // a few nodes (the engine takes over), and unbounded.
    for quick in [1, 5, u64::MAX] {
        link_rules.push(Rules { quick, ..Rules::ALL });
    }
    // The restart with `pairs` ([`Rules::pairs_after`]) after 1 and 3 nodes, so that most
    // instances restart, in slices of 1 and 1024 nodes: the first race's solutions must not
    // be reported or counted twice; an enumeration (more than 8 in the first race) runs again
    // plain.
    for pairs_after in [1, 3] {
        for slice in [1, 1024] {
            link_rules.push(Rules {
                pairs: false,
                pairs_after,
                slice,
                quick: 0,
                ..Rules::ALL
            });
        }
    }
    for r in link_rules {
        algs.push(Algorithm::Fast(r));
        algs.push(Algorithm::Fast(Rules {
            branch: Branching::Links,
            ..r
        }));
    }
    // The CNF of the link model on the SAT solver.
    algs.push(Algorithm::Sat);
    for alg in &algs {
        assert_eq!(solution_set(p, alg), truth, "{alg:?} on\n{p}");
        let c = count(p, alg, Some(2), &Limits::default());
        assert_eq!(c.count, truth.len().min(2) as u64, "{alg:?} count(2) on\n{p}");
    }
}

/// A planted instance: the clues of a random path, each kept with probability `keep`/4.
fn arb_planted() -> impl Strategy<Value = (PathPuzzle, Configuration)> {
    (2usize..=5, 2usize..=5, any::<u64>(), 0u64..=4).prop_filter_map("a path was found", |(h, w, seed, keep)| {
        let shape = Shape::new(h, w);
        let mut rng = SplitMix64::new(seed);
        let path = random_path(shape, 2 + rng.below(h * w / 2), &mut rng)?;
        let full = pencilbox_pathpuzzle::generate::puzzle_from_path(shape, &path).ok()?;
        let mut drop = |c: &Option<u32>| if rng.below(4) < keep as usize { *c } else { None };
        let rows: Vec<_> = full.row_clues().iter().map(&mut drop).collect();
        let cols: Vec<_> = full.col_clues().iter().map(&mut drop).collect();
        Some((full.with_clues(rows, cols).ok()?, configuration_from_path(shape, &path)))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// The long mode of the cross-check (BENCHMARKS.md): 1000 random and 1000 planted
    /// instances, every algorithm (`sat` included) against brute force.
    #[test]
    #[ignore = "long mode: cargo test -p pencilbox-pathpuzzle --test agreement -- --ignored"]
    fn long_crosscheck_on_random_instances(p in arb_instance()) {
        check_agreement(&p);
    }

    #[test]
    #[ignore = "long mode: cargo test -p pencilbox-pathpuzzle --test agreement -- --ignored"]
    fn long_crosscheck_on_planted_instances((p, _) in arb_planted()) {
        check_agreement(&p);
    }
}

/// `fast`'s walk against Algorithm 3: the same solutions, found in a subset of its tree; the
/// paper's first solution while the walk keeps the paper's order (before its first dead ends).
fn check_walk(p: &PathPuzzle) -> Result<(), TestCaseError> {
    let mut paper_found = Vec::new();
    let paper = PaperSearch::new(p).run(&Limits::all(), |s| {
        paper_found.push(s.configuration());
        Flow::Continue
    });
    match quick::walk(p, &Limits::all(), u64::MAX, usize::MAX) {
        Walked::Done { result, solutions, .. } => {
            let refused = no_solution_reason(p).is_some();
            let walk: BTreeSet<String> = solutions.iter().map(key).collect();
            let truth = brute_force(p);
            prop_assert_eq!(&walk, &truth, "walk against brute force on\n{}", p);
            if !refused {
                let paper_set: BTreeSet<String> = paper_found.iter().map(key).collect();
                prop_assert_eq!(&walk, &paper_set, "walk against paper on\n{}", p);
                prop_assert!(
                    result.stats.nodes <= paper.stats.nodes,
                    "{} > {} nodes on\n{}",
                    result.stats.nodes,
                    paper.stats.nodes,
                    p
                );
                if result.stats.failures < 16 && !solutions.is_empty() {
                    prop_assert_eq!(&solutions[0], &paper_found[0], "first solution on\n{}", p);
                }
            }
            prop_assert_eq!(result.solutions, solutions.len() as u64);
        }
        Walked::Skipped => {
            // Only doors that break Definition 1, which the checks report.
            prop_assert!(no_solution_reason(p).is_some(), "walk skipped a valid instance:\n{}", p);
        }
        Walked::OverBudget { .. } => prop_assert!(false, "an unbounded walk ran out of budget"),
    }
    Ok(())
}

/// The walk's deductions from the clues ([`quick::deductions`]) against brute force: every
/// solution visits the cells said to be visited and none of those said to be closed; a puzzle
/// they refute has no solution.
fn check_deductions(p: &PathPuzzle) -> Result<(), TestCaseError> {
    let paths = common::paths(p);
    match quick::deductions(p) {
        Deductions::Skipped => {}
        Deductions::Refuted => prop_assert!(paths.is_empty(), "refuted a solvable puzzle:\n{}", p),
        Deductions::Cells { closed, must } => {
            prop_assert!(must.contains(&p.cell_a()) && must.contains(&p.cell_b()));
            for path in &paths {
                for c in &must {
                    prop_assert!(path.contains(c), "{:?} said visited, {:?} skips it, on\n{}", c, path, p);
                }
                for c in &closed {
                    prop_assert!(
                        !path.contains(c),
                        "{:?} said closed, {:?} visits it, on\n{}",
                        c,
                        path,
                        p
                    );
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn the_walks_deductions_hold_for_every_solution(p in arb_instance()) {
        check_deductions(&p)?;
    }

    #[test]
    fn the_walks_deductions_hold_for_every_solution_of_planted_puzzles((p, _) in arb_planted()) {
        check_deductions(&p)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    #[test]
    fn the_walk_finds_the_papers_solutions_in_a_subset_of_its_tree(p in arb_instance()) {
        check_walk(&p)?;
    }

    #[test]
    fn the_walk_finds_the_planted_answers((p, planted) in arb_planted()) {
        check_walk(&p)?;
        match quick::walk(&p, &Limits::all(), u64::MAX, usize::MAX) {
            Walked::Done { solutions, .. } => prop_assert!(solutions.contains(&planted)),
            other => prop_assert!(false, "{:?}", other),
        }
    }

    #[test]
    fn paper_extend_fast_and_brute_force_agree_on_random_instances(p in arb_instance()) {
        check_agreement(&p);
    }

    #[test]
    fn planted_answers_are_found_by_every_algorithm((p, planted) in arb_planted()) {
        prop_assert!(is_solution(&p, &planted));
        prop_assert!(no_solution_reason(&p).is_none(), "instant check rejected a planted instance:\n{}", p);
        prop_assert!(brute_force(&p).contains(&key(&planted)));
        check_agreement(&p);
    }
}

/// The rules whose optional deductions are the bits of `mask` (in the order of
/// [`Rules::OPTIONAL`]).
fn rule_subset(mask: u32) -> Rules {
    let on: Vec<&str> = Rules::OPTIONAL
        .iter()
        .enumerate()
        .filter(|(i, _)| mask >> i & 1 == 1)
        .map(|(_, r)| *r)
        .collect();
    Rules::parse(&if on.is_empty() {
        "none".to_string()
    } else {
        on.join(",")
    })
    .unwrap()
}

/// Fixes `decisions` (a variable number and a value each, skipping variables already fixed)
/// one at a time with incremental propagation, and checks after each that a fresh model given
/// every decision so far before its first, from-scratch propagation reaches the same domains
/// (or the same conflict).
fn check_incremental(p: &PathPuzzle, rules: &Rules, decisions: &[(usize, bool)]) -> Result<(), TestCaseError> {
    let (mut inc, _) = LinkModel::post(p, rules);
    let root = inc.propagate().is_ok();
    prop_assert_eq!(root, LinkModel::post(p, rules).0.propagate().is_ok());
    if !root {
        return Ok(());
    }
    let mut made: Vec<(VarId, u32)> = Vec::new();
    for &(i, value) in decisions {
        let x = VarId::from_index(i % inc.num_vars());
        if inc.dom(x).is_single() {
            continue;
        }
        let value = if value { TRUE } else { FALSE };
        made.push((x, value));
        let ok = inc.assign(x, value).is_ok() && inc.propagate().is_ok();
        let (mut fresh, _) = LinkModel::post(p, rules);
        let fresh_ok = made.iter().all(|&(x, v)| fresh.assign(x, v).is_ok()) && fresh.propagate().is_ok();
        prop_assert_eq!(ok, fresh_ok, "{:?} after {:?} on\n{}", rules, made, p);
        if !ok {
            break;
        }
        prop_assert_eq!(inc.domains(), fresh.domains(), "{:?} after {:?} on\n{}", rules, made, p);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn incremental_propagation_reaches_the_from_scratch_fixpoint(
        (p, _) in arb_planted(),
        mask in 0u32..64,
        decisions in proptest::collection::vec((0usize..200, any::<bool>()), 1..8),
    ) {
        check_incremental(&p, &rule_subset(mask), &decisions)?;
    }

    /// `pairs` runs in the first [`PAIRS_DEPTH`] levels below the root as it does at the root:
    /// with each decision on a level of its own, the domains there are those of a fresh model
    /// given every decision at its root. Deeper it no longer runs: the domains may be wider than
    /// the fresh model's, never narrower, and a conflict there is one the fresh model finds too.
    #[test]
    fn pairs_runs_in_the_first_levels_as_at_the_root(
        (p, _) in arb_planted(),
        decisions in proptest::collection::vec((0usize..200, any::<bool>()), 1..12),
    ) {
        let rules = Rules { probe: false, ..Rules::ALL };
        let (mut inc, _) = LinkModel::post(&p, &rules);
        if inc.propagate().is_err() {
            return Ok(());
        }
        let mut made: Vec<(VarId, u32)> = Vec::new();
        for &(i, value) in &decisions {
            let x = VarId::from_index(i % inc.num_vars());
            if inc.dom(x).is_single() {
                continue;
            }
            let value = if value { TRUE } else { FALSE };
            made.push((x, value));
            inc.push_level();
            let ok = inc.assign(x, value).is_ok() && inc.propagate().is_ok();
            let (mut fresh, _) = LinkModel::post(&p, &rules);
            let fresh_ok = made.iter().all(|&(x, v)| fresh.assign(x, v).is_ok()) && fresh.propagate().is_ok();
            if made.len() <= PAIRS_DEPTH {
                prop_assert_eq!(ok, fresh_ok, "after {:?} on\n{}", made, p);
                if ok {
                    prop_assert_eq!(inc.domains(), fresh.domains(), "after {:?} on\n{}", made, p);
                }
            } else {
                prop_assert!(ok || !fresh_ok, "a conflict deeper than pairs runs, after {:?} on\n{}", made, p);
                if ok && fresh_ok {
                    for (k, (&w, &n)) in inc.domains().iter().zip(fresh.domains()).enumerate() {
                        prop_assert!(n.minus(w).is_empty(), "variable {} narrower incrementally after {:?} on\n{}", k, made, p);
                    }
                }
            }
            if !ok {
                break;
            }
        }
    }
}

#[test]
fn brute_force_finds_both_paths_around_a_2x2() {
    let p = PathPuzzle::parse("2 2\n1 1\n1 2\n\n-1 -1\n-1 -1\n").unwrap();
    assert_eq!(brute_force(&p).len(), 2);
    check_agreement(&p);
}
