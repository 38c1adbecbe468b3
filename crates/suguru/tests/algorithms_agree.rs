//! Differential tests: on random small instances, `paper`, the engine-based `fast` (with every
//! rule subset, with and without probing), `linear` (where it applies) and core's independent
//! brute force agree on solvability and on the number of solutions; every solution returned
//! passes the verifier; the engine's incremental propagation reaches the from-scratch fixpoint;
//! the exact `1×n` count equals brute force and never exceeds Theorem 4's bound; `fast`'s
//! presolve keeps every solution and refutes whatever the prechecks refuse.

use num_bigint::BigUint;
use pencilbox_core::regions::presolve::Presolved;
use pencilbox_core::search::Limits;
use pencilbox_core::testing::assert_complete_fixpoint;
use pencilbox_core::Status;
use pencilbox_suguru::fast::{FastSearch, Rules};
use pencilbox_suguru::solver::{self, Algorithm};
use pencilbox_suguru::{linear, theorems, verify, Suguru};
use proptest::prelude::*;

mod common;
use common::{instance, planted, solutions, solutions_up_to};

/// The most solutions an instance of these checks may have: a random 4×4 grid with a large
/// region and few hints can have millions, which brute force alone takes minutes and a
/// gigabyte to list. Such instances are passed over (`prop_assume!`; about one in a few
/// hundred), so that every check runs on the others.
const MAX_SOLUTIONS: usize = 5000;

/// The most solutions `sat` counts to in these checks: it counts with a blocking clause per
/// solution (quadratic in the count), so past this many it counts to this many and must stop
/// there.
const SAT_COUNT: usize = 1000;

fn check_all_agree(p: &Suguru) -> Result<(), TestCaseError> {
    let truth = solutions_up_to(p, Some(MAX_SOLUTIONS + 1));
    prop_assume!(truth.len() <= MAX_SOLUTIONS, "over {} solutions", MAX_SOLUTIONS);
    let lim = Limits::default();
    if let Some(reason) = theorems::precheck(p) {
        prop_assert!(
            truth.is_empty(),
            "precheck said `{}` but brute force found {:?}",
            reason,
            truth[0]
        );
    }
    // `fast`'s presolve: sound (it keeps every solution; a fixed grid is the only one) and it
    // refutes everything the prechecks refuse (so `fast` may run them afterwards only).
    if let Some(pre) = pencilbox_suguru::fast::presolve(p) {
        if theorems::precheck(p).is_some() {
            prop_assert_eq!(
                &pre,
                &Presolved::Conflict,
                "presolve missed a precheck obstacle on\n{}",
                p
            );
        }
        match &pre {
            Presolved::Conflict => prop_assert!(truth.is_empty()),
            Presolved::Fixed(g) => prop_assert!(truth.iter().all(|t| t[..] == *g.as_slice()) && truth.len() <= 1),
            Presolved::Open(d) => {
                for t in &truth {
                    prop_assert!(
                        t.iter().zip(d).all(|(&v, d)| d.contains(v)),
                        "presolve removed a solution's value on\n{}",
                        p
                    );
                }
            }
        }
    }
    let mut algs = vec![Algorithm::Paper, Algorithm::Fast, Algorithm::Sat];
    if linear::applies(p) {
        algs.push(Algorithm::Linear);
    }
    for alg in algs {
        // `sat` counts with a blocking clause per solution (quadratic in the count): past
        // SAT_COUNT solutions it counts to that many and must stop there.
        let limit = (alg == Algorithm::Sat && truth.len() > SAT_COUNT).then_some(SAT_COUNT as u64);
        let c = solver::count(p, Some(alg), limit, &lim).unwrap();
        prop_assert_eq!(c.complete, limit.is_none());
        prop_assert_eq!(
            c.count.clone(),
            BigUint::from(limit.map_or(truth.len(), |l| l as usize)),
            "{} count on\n{}",
            alg.name(),
            p
        );
        for w in &c.witness {
            prop_assert!(verify(p, w).is_valid());
            prop_assert!(truth.contains(&w.as_slice().to_vec()));
        }
        if truth.len() >= 2 && alg != Algorithm::Linear {
            prop_assert_eq!(c.witness.len(), 2);
            prop_assert_ne!(&c.witness[0], &c.witness[1]);
        }
        let s = solver::solve(p, Some(alg), &lim).unwrap();
        prop_assert_eq!(
            s.status == Status::Solved,
            !truth.is_empty(),
            "{} solvability on\n{}",
            alg.name(),
            p
        );
        if let Some(sol) = &s.solution {
            prop_assert!(verify(p, sol).is_valid(), "{} printed an invalid solution", alg.name());
        }
    }
    if theorems::precheck(p).is_none() {
        // The engine model with each rule subset, with probing and without it (its mode above
        // 10 000 cells), counts the same solutions; at every solution and at the root the
        // incremental propagation is at the from-scratch fixpoint of every rule.
        for rules in [Rules::ALL, Rules::SINGLES, Rules::SINGLES_AND_HIDDEN] {
            for probing in [true, false] {
                let mut s = FastSearch::with_rules(p, rules).unwrap();
                s.set_probing(probing);
                let r = pencilbox_core::search::run(&mut s, &Limits::default(), |s| {
                    assert!(verify(p, &s.grid()).is_valid());
                    assert_complete_fixpoint(s.engine_mut());
                    pencilbox_core::search::Flow::Continue
                });
                prop_assert_eq!(
                    r.solutions as usize,
                    truth.len(),
                    "fast {:?} (probing {}) on\n{}",
                    rules,
                    probing,
                    p
                );
            }
            let mut s = FastSearch::with_rules(p, rules).unwrap();
            if s.propagate_root() {
                assert_complete_fixpoint(s.engine_mut());
            }
        }
    }
    if linear::applies(p) {
        let exact = linear::count_solutions(p);
        prop_assert_eq!(exact.clone(), BigUint::from(truth.len()));
        prop_assert!(exact <= theorems::theorem4_bound(p));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// The long mode of the cross-check (BENCHMARKS.md): 3000 grids up to 5×5, every
    /// algorithm (`sat` included) against brute force.
    #[test]
    #[ignore = "long mode: cargo test -p pencilbox-suguru --test algorithms_agree -- --ignored"]
    fn long_crosscheck_of_every_algorithm_with_brute_force(
        h in 1usize..=5, w in 1usize..=5,
        labels in proptest::collection::vec(0u8..4, 25),
        hints in proptest::collection::vec(any::<u8>(), 25),
    ) {
        let p = instance(h, w, &labels, &hints, 5);
        check_all_agree(&p)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn small_grids_agree_with_brute_force(
        h in 1usize..=4, w in 1usize..=4,
        labels in proptest::collection::vec(0u8..3, 16),
        hints in proptest::collection::vec(any::<u8>(), 16),
    ) {
        let p = instance(h, w, &labels, &hints, 6);
        check_all_agree(&p)?;
    }

    #[test]
    fn one_row_and_one_column_grids_agree_with_brute_force(
        n in 1usize..=8, column in any::<bool>(),
        labels in proptest::collection::vec(0u8..3, 8),
        hints in proptest::collection::vec(any::<u8>(), 8),
    ) {
        let (h, w) = if column { (n, 1) } else { (1, n) };
        let p = instance(h, w, &labels, &hints, 6);
        check_all_agree(&p)?;
    }

    /// Planted answers: a repaired random layout (the generator's), a random solution of it,
    /// and a random subset of that solution as hints; the planted solution must be found.
    #[test]
    fn planted_solutions_on_generator_layouts_are_found_by_every_algorithm(
        h in 1usize..=4, w in 2usize..=4, seed in any::<u64>(), keep in 40u8..=100,
    ) {
        let Some((p, planted)) = planted(h, w, seed, keep) else { return Ok(()) };
        prop_assert!(solutions(&p).contains(&planted));
        check_all_agree(&p)?;
    }

    #[test]
    fn hintless_rows_agree_with_brute_force(
        n in 1usize..=9,
        labels in proptest::collection::vec(0u8..3, 9),
    ) {
        let p = instance(1, n, &labels, &[1u8; 9], 6);
        prop_assert_eq!(p.num_hints(), 0);
        check_all_agree(&p)?;
    }
}
