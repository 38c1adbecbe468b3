//! Lemma 1 and Corollary 1 of the Suguru paper (`shared/papers/suguru-backtracking-and-linear.txt`,
//! Section IV) as property tests.
//!
//! * **Lemma 1**: for positive integers `a_1..a_n`, `(Σ a_k)! ≥ Π a_k!`; the proof's reason,
//!   that the multinomial coefficient `(Σ a_k)! / Π a_k!` is a whole number, is checked too. Its
//!   use in the paper's Theorem 4: `theorems::theorem4_bound` (`Π ε_k!`) never exceeds
//!   `(mn − H)!`.
//! * **Corollary 1**: Algorithm 2 runs in `O(R · (mn − H + 2)!)`. Checked two ways on random
//!   instances: Theorem 2's exact bound `T(m, n, R)` (`theorems::theorem2_bound`) is below
//!   `R · (mn − H + 2)!`, as the corollary's chain of inequalities shows; and the nodes of a full
//!   `paper` count (every state Algorithm 2 visits, not just up to the first solution) are below
//!   it too. The second holds because the states at depth `k` fill each region's first `i_α`
//!   empty cells with distinct values of `χ_α` (`|χ_α| = ε_α` once the precheck has refused
//!   repeated hints), so there are at most `Π_α P(ε_α, i_α) ≤ Π_α ε_α! ≤ (mn − H)!` of them (Lemma
//!   1) on each of the `mn − H + 1` levels: `(mn − H + 1)! ≤ R · (mn − H + 2)!`.

use num_bigint::BigUint;
use pencilbox_core::search::Limits;
use pencilbox_suguru::solver::{self, Algorithm};
use pencilbox_suguru::theorems;
use pencilbox_suguru::Suguru;
use proptest::prelude::*;

#[allow(dead_code)] // only `instance` is used here
mod common;
use common::instance;

fn factorial(n: usize) -> BigUint {
    (1..=n as u64).fold(BigUint::from(1u32), |acc, k| acc * k)
}

/// `mn − H`: the empty cells of the instance.
fn empty_cells(p: &Suguru) -> usize {
    p.shape().all().filter(|&c| p.hint(c) == 0).count()
}

/// `R · (mn − H + 2)!`, Corollary 1's bound.
fn corollary1_bound(p: &Suguru) -> BigUint {
    BigUint::from(p.num_regions()) * factorial(empty_cells(p) + 2)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn lemma1_the_factorial_of_a_sum_is_at_least_the_product_of_the_factorials(
        a in proptest::collection::vec(1usize..=20, 1..8),
    ) {
        let sum = factorial(a.iter().sum());
        let product: BigUint = a.iter().map(|&k| factorial(k)).product();
        prop_assert!(sum >= product, "{:?}", a);
        // The proof: the multinomial coefficient is a whole number (hence at least 1).
        prop_assert_eq!(&sum % &product, BigUint::default(), "{:?}", a);
    }

    #[test]
    fn lemma1_bounds_theorem4_by_the_factorial_of_the_empty_cells(
        h in 1usize..=6, w in 1usize..=6,
        labels in proptest::collection::vec(0u8..4, 36),
        hints in proptest::collection::vec(any::<u8>(), 36),
    ) {
        let p = instance(h, w, &labels, &hints, 4);
        prop_assert!(theorems::theorem4_bound(&p) <= factorial(empty_cells(&p)), "{}", p);
    }

    #[test]
    fn corollary1_theorem2_bound_is_below_r_times_the_factorial_of_empty_cells_plus_two(
        h in 1usize..=6, w in 1usize..=6,
        labels in proptest::collection::vec(0u8..4, 36),
        hints in proptest::collection::vec(any::<u8>(), 36),
    ) {
        let p = instance(h, w, &labels, &hints, 4);
        let t = theorems::theorem2_bound(&p).expect("36 cells at most");
        prop_assert!(t < corollary1_bound(&p), "T = {} on\n{}", t, p);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    /// Grids of at most 3×3 with hints in about one cell of three keep every full count small
    /// (a hintless single 9-cell region, the worst case, is 9! leaves).
    #[test]
    fn corollary1_bounds_the_nodes_of_a_full_paper_count(
        h in 1usize..=3, w in 1usize..=3,
        labels in proptest::collection::vec(0u8..3, 9),
        hints in proptest::collection::vec(any::<u8>(), 9),
    ) {
        let p = instance(h, w, &labels, &hints, 3);
        let c = solver::count(&p, Some(Algorithm::Paper), None, &Limits::default()).unwrap();
        prop_assert!(c.complete);
        let nodes = BigUint::from(c.stats.nodes);
        // The level-by-level bound of the module docs, then Corollary 1's.
        prop_assert!(nodes <= factorial(empty_cells(&p) + 1), "{} nodes on\n{}", c.stats.nodes, p);
        prop_assert!(nodes < corollary1_bound(&p));
        if theorems::precheck(&p).is_none() {
            prop_assert!(c.stats.nodes >= 1, "a search that ran visits its root");
        }
    }
}

#[test]
fn corollary1_on_the_papers_figure_1() {
    // Fig. 1 (3×3, R = 3, H = 2): T = 389 < 3 · 9! and `paper` visits 12 states to its solution.
    let p = pencilbox_suguru::parse("3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n").unwrap();
    assert_eq!(theorems::theorem2_bound(&p).unwrap(), BigUint::from(389u32));
    assert_eq!(corollary1_bound(&p), BigUint::from(3u32 * 362_880));
    let s = solver::solve(&p, Some(Algorithm::Paper), &Limits::default()).unwrap();
    assert_eq!(s.stats.nodes, 12);
}
