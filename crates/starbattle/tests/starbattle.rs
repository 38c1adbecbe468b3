//! Star Battle: every algorithm against brute force on small random puzzles, the formats (text
//! and puzz.link URLs with pzprjs's own test vectors), the verifier, bad input, the generator,
//! and the published fixtures in `examples/starbattle` (sources in SOURCES.md).

use pencilbox_core::plugin::{GenerateRequest, Puzzle};
use pencilbox_core::regions::generate::random_layout;
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::shading::{ShadeRules, Shading};
use pencilbox_core::testing::{assert_fixpoints_after, check_fixtures, crosscheck};
use pencilbox_core::{Grid, PuzzleKind, RunOptions, Shape};
use pencilbox_starbattle::{StarBattle, KIND};
use proptest::prelude::*;
use std::path::Path;

/// Every shading with exactly `k` stars in each row (the rest is the verifier's job).
fn rows_of_k(shape: Shape, k: usize) -> Vec<Shading> {
    let w = shape.width;
    let rows: Vec<u64> = (0u64..1 << w).filter(|m| m.count_ones() as usize == k).collect();
    let mut out = vec![Vec::new()];
    for _ in 0..shape.height {
        out = out
            .into_iter()
            .flat_map(|prefix: Vec<u64>| rows.iter().map(move |&m| [prefix.clone(), vec![m]].concat()))
            .collect();
    }
    out.into_iter()
        .map(|ms| {
            Grid::from_vec(
                shape,
                ms.iter().flat_map(|m| (0..w).map(move |c| m >> c & 1 == 1)).collect(),
            )
            .unwrap()
        })
        .collect()
}

fn random_puzzle(seed: u64, n: usize, k: u32) -> StarBattle {
    let mut rng = SplitMix64::new(seed);
    let shape = Shape::new(n, n);
    let labels = random_layout(shape, &mut rng, &[2, 3, 4, 5, 6, 7]);
    StarBattle::new(&labels, k)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// The engine model (every rule, and the definition alone) and the SAT algorithm find
    /// exactly the placements brute force finds.
    #[test]
    fn every_algorithm_agrees_with_brute_force(seed in any::<u64>(), (n, k) in prop_oneof![Just((4usize, 1u32)), Just((5, 1)), Just((6, 1))]) {
        let p = random_puzzle(seed, n, k);
        let candidates = rows_of_k(p.shape(), k as usize);
        for rules in ["all", "none", "-probe"] {
            let opts = RunOptions { settings: vec![("rules".into(), rules.into())], ..RunOptions::default() };
            crosscheck(&p, candidates.iter().cloned(), &opts);
        }
    }

    #[test]
    fn incremental_propagation_reaches_the_from_scratch_fixpoint(seed in any::<u64>(), picks in prop::collection::vec((0usize..64, any::<bool>()), 0..6)) {
        let p = random_puzzle(seed, 8, 2);
        let (e, m) = p.model(ShadeRules::ALL).unwrap();
        let picks: Vec<_> = picks.into_iter().map(|(i, v)| (m.cells[i % m.cells.len()], if v { 2 } else { 1 })).collect();
        assert_fixpoints_after(e, &picks);
    }
}

#[test]
fn text_and_url_forms_round_trip_with_pzprjs_vectors() {
    let opts = RunOptions::default();
    // pzprjs's test/script/starbattle.js and the research vectors (cols before rows, K ≥ 10).
    let p = StarBattle::parse("https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou", &opts).unwrap();
    let text = p.write(false).unwrap();
    assert_eq!(
        text,
        "starbattle 6 6 1\n1 1 1 2 2 2\n1 2 2 2 3 3\n1 4 4 5 5 3\n6 6 4 4 5 3\n6 5 5 5 5 3\n6 3 3 3 3 3\n"
    );
    assert_eq!(
        p.write(true).unwrap(),
        "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"
    );
    assert_eq!(StarBattle::parse(&text, &opts).unwrap(), p);
    let q = StarBattle::parse("https://puzz.link/p?starbattle/4/3/2/5oos", &opts).unwrap();
    assert_eq!(q.write(false).unwrap(), "starbattle 3 4 2\n1 1 1 2\n3 3 1 2\n3 4 4 4\n");
    let r = StarBattle::parse("https://puzz.link/p?starbattle/2/2/12/o0", &opts).unwrap();
    assert_eq!(r.k, 12);
    assert!(KIND.detect(&text) && KIND.detect("https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"));
}

#[test]
fn bad_input_is_one_positioned_message() {
    let opts = RunOptions::default();
    let cases = [
        (
            "starbattle 2 2 1\n1 1\n1 x\n",
            "3:3: expected a region label (a positive whole number), found `x`",
        ),
        (
            "starbattle 2 2 3\n1 1\n1 1\n",
            "1:16: the stars per row, column and region must be between 1 and 2, found 3",
        ),
        (
            "starbattle 2 2 1\n1 1\n1 0\n",
            "3:3: expected a region label (a positive whole number), found `0`",
        ),
        (
            "https://puzz.link/p?starbattle/2/2/x/o0",
            "1:36: expected the stars per row, found `x`",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(
            StarBattle::parse(text, &opts).unwrap_err().to_string(),
            want,
            "{text:?}"
        );
    }
}

#[test]
fn the_verifier_names_each_broken_rule() {
    let opts = RunOptions::default();
    let p = StarBattle::parse("starbattle 4 4 1\n1 1 2 2\n1 1 2 2\n3 3 4 4\n3 3 4 4\n", &opts).unwrap();
    let bad = p.parse_solution("x - - -\n- x - -\n- - - -\n- - - -\n").unwrap();
    let v = p.verify(&bad);
    let msgs: Vec<&str> = v.violations.iter().map(|x| x.message.as_str()).collect();
    assert!(msgs.contains(&"row 3 has 0 stars, not 1"), "{msgs:?}");
    assert!(msgs.contains(&"region 1 has 2 stars, not 1"), "{msgs:?}");
    assert!(msgs.contains(&"the stars at r1c1 and r2c2 touch"), "{msgs:?}");
}

#[test]
fn generated_puzzles_are_unique_and_deterministic() {
    for difficulty in ["easy", "medium", "hard"] {
        let req = GenerateRequest {
            height: 6,
            width: 6,
            difficulty: Some(difficulty.into()),
            seed: 2,
            ..GenerateRequest::default()
        };
        let g = KIND.generate(&req).unwrap();
        assert_eq!(g, KIND.generate(&req).unwrap(), "deterministic");
        let c = KIND.count(&g.text, Some(2), &RunOptions::default()).unwrap();
        assert_eq!(c.count, 1u32.into(), "{difficulty}\n{}", g.text);
        assert!(KIND
            .verify(&g.text, &g.answer, &RunOptions::default())
            .unwrap()
            .is_valid());
    }
}

/// Generates, checks uniqueness, the answer and determinism, and returns the puzzle.
fn generated(height: usize, k: u32, difficulty: &str, seed: u64) -> StarBattle {
    let req = GenerateRequest {
        height,
        width: height,
        difficulty: Some(difficulty.into()),
        seed,
        settings: vec![("stars".into(), k.to_string())],
        ..GenerateRequest::default()
    };
    let g = KIND.generate(&req).unwrap();
    assert_eq!(g, KIND.generate(&req).unwrap(), "deterministic");
    let opts = RunOptions::default();
    let c = KIND.count(&g.text, Some(2), &opts).unwrap();
    assert_eq!(c.count, 1u32.into(), "{difficulty} seed {seed}\n{}", g.text);
    assert!(KIND.verify(&g.text, &g.answer, &opts).unwrap().is_valid());
    let p = StarBattle::parse(&g.text, &opts).unwrap();
    assert_eq!((p.shape(), p.k), (Shape::new(height, height), k));
    p
}

#[test]
fn generated_10x10_and_14x14_puzzles_are_unique_and_solved_without_a_guess() {
    let no_guess = pencilbox_core::human::ExplainOptions {
        no_guess: true,
        ..Default::default()
    };
    for (size, k, difficulty, seed) in [(10, 2, "medium", 1), (10, 2, "hard", 2), (14, 3, "hard", 3)] {
        let p = generated(size, k, difficulty, seed);
        let x = pencilbox_core::genre::explain(&p, &no_guess).unwrap().unwrap();
        assert_eq!(x.status, pencilbox_core::human::ExplainStatus::Solved, "{difficulty}");
        let trial = x.steps.iter().any(|s| s.rule == "trial");
        assert_eq!(trial, difficulty == "hard", "{difficulty} seed {seed}: trial {trial}");
    }
}

#[test]
fn generated_puzzles_of_other_seeds_differ() {
    let a = generated(8, 1, "medium", 5);
    let b = generated(8, 1, "medium", 6);
    assert_ne!(a.regions, b.regions);
}

#[test]
fn the_fixtures_solve_to_their_answers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/starbattle");
    assert!(check_fixtures(&KIND, &dir) >= 2);
}

#[test]
fn suggested_region_changes_keep_the_first_solution_and_break_the_second() {
    let opts = RunOptions::default();
    // One region per row: many placements.
    let p = StarBattle::parse("starbattle 4 4 1\n1 1 1 1\n2 2 2 2\n3 3 3 3\n4 4 4 4\n", &opts).unwrap();
    let f = p.search(None, &opts, &pencilbox_core::Limits::all(), 2).unwrap();
    let (a, b) = (&f.solutions[0], &f.solutions[1]);
    let clues = p.separating_clues(a, b).unwrap();
    assert!(!clues.is_empty());
    for c in clues {
        assert!(
            c.puzzle.verify(a).is_valid() && !c.puzzle.verify(b).is_valid(),
            "{}",
            c.at
        );
    }
}
