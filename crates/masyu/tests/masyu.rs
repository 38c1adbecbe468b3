//! Masyu: every algorithm against brute force on small random puzzles, the formats (text,
//! puzz.link URLs with pzprjs's own test vectors), the verifier's messages, bad input, the
//! generator, and the fixtures in `examples/masyu` (published puzzles, sources in SOURCES.md).

use pencilbox_core::genre::{Algorithm, Genre};
use pencilbox_core::lines::LineRules;
use pencilbox_core::plugin::{GenerateRequest, Puzzle};
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::testing::{all_line_grids, assert_fixpoints_after, check_fixtures, check_generated, crosscheck};
use pencilbox_core::{Grid, PuzzleKind, RunOptions, Shape};
use pencilbox_masyu::{Masyu, BLACK, KIND, WHITE};
use proptest::prelude::*;
use std::path::Path;

fn random_puzzle(seed: u64, h: usize, w: usize) -> Masyu {
    let mut rng = SplitMix64::new(seed);
    let shape = Shape::new(h, w);
    let pearls = shape
        .all()
        .map(|_| match rng.below(10) {
            0 => WHITE,
            1 => BLACK,
            _ => 0,
        })
        .collect();
    Masyu::from(Grid::from_vec(shape, pearls).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// The engine model and the SAT algorithm find exactly the loops brute force finds (every
    /// set of links the verifier accepts), with every rule and with the definition alone.
    #[test]
    fn every_algorithm_agrees_with_brute_force(seed in any::<u64>(), (h, w) in prop_oneof![Just((2usize, 3usize)), Just((3, 3)), Just((3, 4)), Just((2, 5))]) {
        let p = random_puzzle(seed, h, w);
        for rules in ["all", "none", "-connect,-probe"] {
            let opts = RunOptions { settings: vec![("rules".into(), rules.into())], ..RunOptions::default() };
            crosscheck(&p, all_line_grids(p.shape()), &opts);
        }
    }

    #[test]
    fn incremental_propagation_reaches_the_from_scratch_fixpoint(seed in any::<u64>(), picks in prop::collection::vec((0usize..60, any::<bool>()), 0..6)) {
        let p = random_puzzle(seed, 4, 5);
        if let Ok((e, m)) = p.model(LineRules::ALL) {
            let vars: Vec<_> = m.vars.link.iter().chain(&m.vars.cell).copied().collect();
            let picks: Vec<_> = picks.into_iter().map(|(i, v)| (vars[i % vars.len()], if v { 2 } else { 1 })).collect();
            assert_fixpoints_after(e, &picks);
        }
    }
}

#[test]
fn text_and_url_forms_round_trip_with_pzprjs_vectors() {
    let opts = RunOptions::default();
    // pzprjs's test/script/mashu.js, and its non-square and `f`-flag vectors.
    let p = Masyu::parse("https://puzz.link/p?mashu/6/6/1063000i3000", &opts).unwrap();
    let text = p.write(false).unwrap();
    assert_eq!(
        text,
        "masyu 6 6\n- - w - - -\n- b - - w -\n- - - - - -\n- - - b - -\n- w - - - -\n- - - - - -\n"
    );
    assert_eq!(p.write(true).unwrap(), "https://puzz.link/p?mashu/6/6/1063000i3000");
    assert_eq!(Masyu::parse(&text, &opts).unwrap(), p);
    let q = Masyu::parse("https://puzz.link/p?masyu/4/3/9i0l", &opts).unwrap();
    assert_eq!(q.write(false).unwrap(), "masyu 3 4\nw - - b\n- - - -\n- b w -\n");
    let r = Masyu::parse("https://puzz.link/p?pearl/f/3/3/j01", &opts).unwrap();
    assert_eq!(r.write(false).unwrap(), "masyu 3 3\nb - w\n- - -\n- - w\n");
    for t in [text.as_str(), "https://puzz.link/p?mashu/6/6/1063000i3000"] {
        assert!(KIND.detect(t), "{t}");
    }
    assert!(!KIND.detect("3 3\n0 0 0\n"));
}

#[test]
fn bad_input_is_one_positioned_message() {
    let opts = RunOptions::default();
    let cases = [
        (
            "masyu 2 2\nw -\n- x\n",
            "3:3: expected w (a white pearl), b (a black pearl) or -, found `x`",
        ),
        ("masyu 2 2\nw -\n-\n", "3:2: row 2 has 1 cell, expected 2"),
        ("masyu 2 0\n", "1:9: the number of columns must be at least 1, found 0"),
        ("masyu 2 2\nw - b\n- -\n", "2:5: row 1 has more than 2 cells"),
        (
            "https://puzz.link/p?mashu/2/2/z",
            "1:31: `z` is not a base-27 circle digit",
        ),
    ];
    for (text, want) in cases {
        let e = Masyu::parse(text, &opts).unwrap_err();
        assert_eq!(e.to_string(), want, "{text:?}");
    }
    let p = Masyu::parse("masyu 2 2\n- -\n- -\n", &opts).unwrap();
    let e = p.parse_solution("se sw\nne nx\n").unwrap_err();
    assert_eq!((e.pos.line, e.pos.col), (2, 4));
}

#[test]
fn the_verifier_names_each_broken_rule() {
    let opts = RunOptions::default();
    let p = Masyu::parse("masyu 3 3\n- w -\n- - -\nb - -\n", &opts).unwrap();
    // The border loop: straight through the white pearl at r1c2 (turning at r1c1 and r1c3),
    // and a corner at the black pearl r3c1 whose neighbours r2c1 and r3c2 go straight on.
    let ok = p.parse_solution("se ew sw\nns - ns\nne ew nw\n").unwrap();
    assert!(p.verify(&ok).is_valid(), "{:?}", p.verify(&ok));
    let bad = p.parse_solution("se sw -\nne nw -\n- - -\n").unwrap();
    let v = p.verify(&bad);
    let msgs: Vec<&str> = v.violations.iter().map(|x| x.message.as_str()).collect();
    assert!(
        msgs.contains(&"the black pearl at r3c1: the loop does not pass it"),
        "{msgs:?}"
    );
    assert!(
        msgs.iter().any(|m| m.starts_with("the white pearl at r1c2")),
        "{msgs:?}"
    );
}

#[test]
fn generated_puzzles_are_unique_deterministic_and_of_their_difficulty() {
    check_generated(&KIND, &[("easy", 7), ("medium", 7), ("hard", 7)], 5);
}

#[test]
fn the_fixtures_solve_to_their_answers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/masyu");
    assert!(check_fixtures(&KIND, &dir) >= 2);
}

#[test]
fn the_genre_gives_its_pearls_and_every_algorithm_is_listed() {
    let p = Masyu::parse("masyu 2 2\nw -\n- -\n", &RunOptions::default()).unwrap();
    assert!(p.given(pencilbox_core::CellId(0)) && !p.given(pencilbox_core::CellId(1)));
    let names: Vec<_> = KIND.algorithms().iter().map(|a| a.name).collect();
    assert_eq!(names, ["fast", "sat"]);
    let _ = Algorithm::Fast;
    let _ = <pencilbox_core::lines::LineModel as pencilbox_core::genre::Toolkit>::all_rules();
}

#[test]
fn the_cheap_settling_test_answers_as_the_explanation_does() {
    let (mut no, mut yes) = (0, 0);
    for (difficulty, seed) in [("medium", 3), ("hard", 4)] {
        let req = GenerateRequest {
            height: 6,
            width: 6,
            difficulty: Some(difficulty.into()),
            seed,
            ..GenerateRequest::default()
        };
        let g = KIND.generate(&req).unwrap();
        let p = Masyu::parse(&g.text, &RunOptions::default()).unwrap();
        let (n, y) = pencilbox_core::testing::assert_settles_as_explained(&p);
        (no, yes) = (no + n, yes + y);
    }
    assert!(no > 0 && yes > 0, "{no} unsettled, {yes} settled");
}

#[test]
fn suggest_gives_a_clue_back_to_a_puzzle_that_lost_one() {
    // Every clue of bundled examples removed in turn: `count --suggest` makes it unique again.
    pencilbox_core::testing::assert_suggest_restores_examples::<pencilbox_masyu::Masyu>(
        env!("CARGO_MANIFEST_DIR"),
        &["masyu/example-6x6.txt"],
    );
}
