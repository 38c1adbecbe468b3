//! Nurikabe: every algorithm against brute force on small random puzzles, soundness on the
//! published fixtures under random partial answers, the formats (text, puzz.link URLs with
//! pzprjs's vectors), the verifier's messages, bad input, the setter tools, the generator, and
//! the fixtures in `examples/nurikabe` (published puzzles, sources in SOURCES.md).

use pencilbox_core::genre::Genre;
use pencilbox_core::plugin::{GenerateRequest, Puzzle};
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::shading::ShadeRules;
use pencilbox_core::testing::{all_shadings, assert_fixpoints_after, check_fixtures, check_generated, crosscheck};
use pencilbox_core::{CellId, Grid, PuzzleKind, RunOptions, Shape};
use pencilbox_nurikabe::{Nurikabe, EMPTY, KIND, UNKNOWN};
use proptest::prelude::*;
use std::path::Path;

fn random_puzzle(seed: u64, h: usize, w: usize) -> Nurikabe {
    let mut rng = SplitMix64::new(seed);
    let shape = Shape::new(h, w);
    let clues = shape
        .all()
        .map(|_| match rng.below(12) {
            0 => UNKNOWN,
            1..=3 => 1 + rng.below(4) as u32,
            _ => EMPTY,
        })
        .collect();
    Nurikabe::from(Grid::from_vec(shape, clues).unwrap())
}

fn fixture(name: &str) -> (String, String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/nurikabe");
    let read = |ext: &str| std::fs::read_to_string(dir.join(format!("{name}.{ext}"))).unwrap();
    (read("txt"), read("ans"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// The engine model and the SAT algorithm find exactly the shadings brute force finds,
    /// with every rule and with the definition alone.
    #[test]
    fn every_algorithm_agrees_with_brute_force(seed in any::<u64>(), (h, w) in prop_oneof![Just((2usize, 3usize)), Just((3, 3)), Just((3, 4)), Just((2, 5))]) {
        let p = random_puzzle(seed, h, w);
        for rules in ["all", "none", "-probe"] {
            let opts = RunOptions { settings: vec![("rules".into(), rules.into())], ..RunOptions::default() };
            crosscheck(&p, all_shadings(p.shape()), &opts);
        }
    }

    #[test]
    fn incremental_propagation_reaches_the_from_scratch_fixpoint(seed in any::<u64>(), picks in prop::collection::vec((0usize..30, any::<bool>()), 0..8)) {
        let p = random_puzzle(seed, 5, 6);
        if let Ok((e, m)) = p.model(ShadeRules::ALL) {
            let picks: Vec<_> = picks.into_iter().map(|(i, v)| (m.cells[i], if v { 2 } else { 1 })).collect();
            assert_fixpoints_after(e, &picks);
        }
    }

    /// The cells of a published answer, assumed one at a time in a random order: no rule may
    /// refute the answer (this caught an island rule that used a stale group).
    #[test]
    fn no_rule_refutes_a_published_answer(order in prop::collection::vec(any::<u32>(), 100), which in 0usize..2) {
        let (text, ans) = fixture(["published-janko-0007", "published-janko-0010"][which]);
        let p = Nurikabe::parse(&text, &RunOptions::default()).unwrap();
        let answer = p.parse_solution(&ans).unwrap();
        let (mut e, m) = p.model(ShadeRules::ALL).unwrap();
        prop_assert!(e.propagate().is_ok());
        let mut cells: Vec<usize> = (0..m.cells.len()).collect();
        cells.sort_by_key(|&i| order[i % order.len()]);
        for i in cells {
            let value = if answer[CellId::from_index(i)] { 2 } else { 1 };
            prop_assert!(e.assign(m.cells[i], value).is_ok() && e.propagate().is_ok(), "refuted at cell {}", i);
        }
    }
}

#[test]
fn text_and_url_forms_round_trip_with_pzprjs_vectors() {
    let opts = RunOptions::default();
    // pzprjs's test/script/nurikabe.js.
    let p = Nurikabe::parse("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g", &opts).unwrap();
    let text = p.write(false).unwrap();
    assert_eq!(
        text,
        "nurikabe 5 5\n- 5 - - -\n- - 2 - -\n- - - - -\n- - 1 - -\n- - - 3 -\n"
    );
    assert_eq!(p.write(true).unwrap(), "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g");
    assert_eq!(Nurikabe::parse(&text, &opts).unwrap(), p);
    // `?` and a number of two hex digits; a run longer than 20; the codec's wide numbers.
    let q = Nurikabe::parse("https://puzz.link/p?nurikabe/4/5/.i-10p2i1", &opts).unwrap();
    assert_eq!(
        q.write(false).unwrap(),
        "nurikabe 5 4\n? - - -\n16 - - -\n- - - -\n- - - 2\n- - - 1\n"
    );
    assert_eq!(q.write(true).unwrap(), "https://puzz.link/p?nurikabe/4/5/.i-10p2i1");
    let r = Nurikabe::parse("https://puzz.link/p?nurikabe/5/5/1zi2", &opts).unwrap();
    assert_eq!((r.clues[CellId(0)], r.clues[CellId(24)]), (1, 2));
    let s = Nurikabe::parse("https://puzz.link/p?nurikabe/3/3/+12ci+fffi=000", &opts).unwrap();
    assert_eq!(s.write(false).unwrap(), "nurikabe 3 3\n300 - -\n- 4095 -\n- - 4096\n");
    // A trailing `/` is read as well.
    for url in [
        "https://puzz.link/p?nurikabe/2/1/1./",
        "https://puzz.link/p?nurikabe/2/1/1.",
    ] {
        assert_eq!(
            Nurikabe::parse(url, &opts).unwrap().write(false).unwrap(),
            "nurikabe 1 2\n1 ?\n"
        );
    }
    assert!(KIND.detect(&text) && KIND.detect("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"));
    assert!(!KIND.detect("masyu 2 2\n- -\n- -\n"));
}

#[test]
fn bad_input_is_one_positioned_message() {
    let opts = RunOptions::default();
    let cases = [
        ("nurikabe 2 2\n1 -\n- x\n", "3:3: expected a number, ? or -, found `x`"),
        ("nurikabe 2 2\n1 -\n- 0\n", "3:3: expected a number, ? or -, found `0`"),
        ("nurikabe 2 2\n1 -\n-\n", "3:2: row 2 has 1 cell, expected 2"),
        ("nurikabe 2 2\n1 - 3\n- -\n", "2:5: row 1 has more than 2 cells"),
    ];
    for (text, want) in cases {
        let e = Nurikabe::parse(text, &opts).unwrap_err();
        assert_eq!(e.to_string(), want, "{text:?}");
    }
    let e = Nurikabe::parse("https://puzz.link/p?nurikabe/2/2/g5!", &opts).unwrap_err();
    assert!(e.to_string().starts_with("1:"), "{e}");
    let p = Nurikabe::parse("nurikabe 2 2\n1 -\n- -\n", &opts).unwrap();
    let e = p.parse_solution("- x\nx q\n").unwrap_err();
    assert_eq!((e.pos.line, e.pos.col), (2, 3), "{e}");
    // More island cells than the grid: no solution, not a panic.
    let c = KIND.count("nurikabe 1 2\n9 -\n", Some(2), &opts).unwrap();
    assert_eq!(c.count, 0u32.into());
}

#[test]
fn the_verifier_names_each_broken_rule() {
    let opts = RunOptions::default();
    let p = Nurikabe::parse("nurikabe 3 3\n3 - -\n- - -\n- - 1\n", &opts).unwrap();
    let ok = p.parse_solution("- - x\n- x x\nx x -\n").unwrap();
    assert!(p.verify(&ok).is_valid(), "{:?}", p.verify(&ok));
    // A 2×2 wall, a wall in two parts, an island of the wrong size, an island without number.
    let bad = p.parse_solution("- x -\nx x x\nx x -\n").unwrap();
    let msgs: Vec<String> = p.verify(&bad).violations.into_iter().map(|v| v.message).collect();
    assert!(msgs.iter().any(|m| m.contains("2×2")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("r1c1")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("r1c3")), "{msgs:?}");
    let split = p.parse_solution("- x -\nx - x\n- x -\n").unwrap();
    assert!(!p.verify(&split).is_valid());
}

#[test]
fn the_setter_tools_move_between_sizes_and_question_marks() {
    let opts = RunOptions::default();
    let p = Nurikabe::parse("nurikabe 3 3\n2 - -\n- - -\n- - 1\n", &opts).unwrap();
    let removable = p.removable_clues().unwrap();
    let names: Vec<&str> = removable.iter().map(|c| c.at.as_str()).collect();
    assert_eq!(names, ["r1c1", "r3c3"]);
    assert_eq!(removable[0].puzzle.clues[CellId(0)], UNKNOWN);
    // With the 2 taken away, the island of r1c1 may take any size: a separating clue gives it
    // back.
    let q = &removable[0].puzzle;
    let all = KIND.count(&q.write(false).unwrap(), None, &opts).unwrap();
    assert!(all.count > 1u32.into());
    let keep = p.parse_solution("- - x\nx x x\nx x -\n").unwrap();
    let drop = p.parse_solution("- - -\nx x x\nx x -\n").unwrap();
    let clues = q.separating_clues(&keep, &drop).unwrap();
    assert_eq!(clues.len(), 1);
    assert_eq!((clues[0].at.as_str(), clues[0].value), ("r1c1", 2));
}

#[test]
fn generated_puzzles_are_unique_deterministic_and_of_their_difficulty() {
    check_generated(&KIND, &[("easy", 7), ("medium", 8), ("hard", 9)], 11);
}

#[test]
fn the_fixtures_solve_to_their_answers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/nurikabe");
    assert!(check_fixtures(&KIND, &dir) >= 2);
}

#[test]
fn the_genre_gives_its_numbers_and_every_algorithm_is_listed() {
    let p = Nurikabe::parse("nurikabe 1 2\n? -\n", &RunOptions::default()).unwrap();
    assert!(p.given(CellId(0)) && !p.given(CellId(1)));
    let names: Vec<_> = KIND.algorithms().iter().map(|a| a.name).collect();
    assert_eq!(names, ["fast", "sat"]);
}

#[test]
fn the_cheap_settling_test_answers_as_the_explanation_does() {
    let (mut no, mut yes) = (0, 0);
    for (difficulty, seed) in [("medium", 3), ("hard", 4)] {
        let req = GenerateRequest {
            height: 7,
            width: 7,
            difficulty: Some(difficulty.into()),
            seed,
            ..GenerateRequest::default()
        };
        let g = KIND.generate(&req).unwrap();
        let p = Nurikabe::parse(&g.text, &RunOptions::default()).unwrap();
        let (n, y) = pencilbox_core::testing::assert_settles_as_explained(&p);
        (no, yes) = (no + n, yes + y);
    }
    assert!(no > 0 && yes > 0, "{no} unsettled, {yes} settled");
}

#[test]
fn a_large_generated_puzzle_is_unique_and_deterministic() {
    let req = GenerateRequest {
        height: 20,
        width: 36,
        seed: 1,
        ..GenerateRequest::default()
    };
    let g = KIND.generate(&req).unwrap();
    assert_eq!(g, KIND.generate(&req).unwrap(), "deterministic");
    let opts = RunOptions::default();
    assert_eq!(
        KIND.count(&g.text, Some(2), &opts).unwrap().count,
        1u32.into(),
        "{}",
        g.text
    );
    assert!(KIND.verify(&g.text, &g.answer, &opts).unwrap().is_valid());
    let p = Nurikabe::parse(&g.text, &opts).unwrap();
    assert_eq!(p.shape(), Shape::new(20, 36));
}

#[test]
fn suggest_gives_a_clue_back_to_a_puzzle_that_lost_one() {
    // Every clue of bundled examples removed in turn: `count --suggest` makes it unique again.
    pencilbox_core::testing::assert_suggest_restores_examples::<pencilbox_nurikabe::Nurikabe>(
        env!("CARGO_MANIFEST_DIR"),
        &["nurikabe/example-6x6.txt"],
    );
}
