//! Snake: every algorithm against brute force on small random puzzles, the formats (text,
//! puzz.link URLs with pzprjs's vectors), the verifier's messages, bad input, the setter
//! tools, the generator, and the fixtures in `examples/snake` (a published puzzle, its source
//! in SOURCES.md, and generated ones).

use pencilbox_core::genre::Genre;
use pencilbox_core::lines::LineRules;
use pencilbox_core::plugin::Puzzle;
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::testing::{all_shadings, assert_fixpoints_after, check_fixtures, check_generated, crosscheck};
use pencilbox_core::{CellId, PuzzleKind, RunOptions, Shape};
use pencilbox_snake::{Snake, KIND};
use proptest::prelude::*;
use std::path::Path;

/// A random puzzle as text: two ends, a few circles, counts at random.
fn random_text(seed: u64, h: usize, w: usize) -> String {
    let mut rng = SplitMix64::new(seed);
    let shape = Shape::new(h, w);
    let a = rng.below(shape.cells());
    let b = (a + 1 + rng.below(shape.cells() - 1)) % shape.cells();
    let count = |rng: &mut SplitMix64, max: usize| {
        if rng.below(3) == 0 {
            "-".to_string()
        } else {
            rng.below(max + 1).to_string()
        }
    };
    let cols: Vec<String> = (0..w).map(|_| count(&mut rng, h)).collect();
    let rows: Vec<String> = (0..h).map(|_| count(&mut rng, w)).collect();
    let mut out = format!("snake {h} {w}\n{}\n{}\n", cols.join(" "), rows.join(" "));
    for r in 0..h {
        let row: Vec<&str> = (0..w)
            .map(|c| {
                let i = r * w + c;
                if i == a || i == b {
                    "x"
                } else if rng.below(12) == 0 {
                    "o"
                } else {
                    "-"
                }
            })
            .collect();
        out += &(row.join(" ") + "\n");
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// The engine model and the SAT algorithm find exactly the shadings brute force finds,
    /// with every rule and with the definition alone.
    #[test]
    fn every_algorithm_agrees_with_brute_force(seed in any::<u64>(), (h, w) in prop_oneof![Just((2usize, 3usize)), Just((3, 3)), Just((3, 4)), Just((2, 5)), Just((4, 4))]) {
        let p = Snake::parse(&random_text(seed, h, w), &RunOptions::default()).unwrap();
        for rules in ["all", "none", "-connect,-probe"] {
            let opts = RunOptions { settings: vec![("rules".into(), rules.into())], ..RunOptions::default() };
            crosscheck(&p, all_shadings(p.shape()), &opts);
        }
    }

    #[test]
    fn incremental_propagation_reaches_the_from_scratch_fixpoint(seed in any::<u64>(), picks in prop::collection::vec((0usize..80, any::<bool>()), 0..6)) {
        let p = Snake::parse(&random_text(seed, 4, 5), &RunOptions::default()).unwrap();
        if let Ok((e, m)) = p.model(LineRules::ALL) {
            let vars: Vec<_> = m.line.vars.link.iter().chain(&m.line.vars.cell).copied().collect();
            let picks: Vec<_> = picks.into_iter().map(|(i, v)| (vars[i % vars.len()], if v { 2 } else { 1 })).collect();
            assert_fixpoints_after(e, &picks);
        }
    }
}

#[test]
fn text_and_url_forms_round_trip_with_pzprjs_vectors() {
    let opts = RunOptions::default();
    // pzprjs's test/script/snake.js has one end only (`060300`); with a second end (cell 15:
    // `i`) it reads.
    let p = Snake::parse("https://puzz.link/p?snake/4/4/06030ig1h4i", &opts).unwrap();
    let text = p.write(false).unwrap();
    assert_eq!(
        text,
        "snake 4 4\n- 1 - -\n4 - - -\n- - - -\nx - - -\n- - o -\n- - - x\n"
    );
    assert_eq!(p.write(true).unwrap(), "https://puzz.link/p?snake/4/4/06030ig1h4i");
    assert_eq!(Snake::parse(&text, &opts).unwrap(), p);
    // Two ends, a white circle, counts with gaps.
    let q = Snake::parse("https://puzz.link/p?snake/5/5/i0003000ih3g33i1", &opts).unwrap();
    assert_eq!(
        q.write(false).unwrap(),
        "snake 5 5\n- - 3 - 3\n3 - - - 1\nx - - - -\n- - - - -\n- - - o -\n- - - - -\n- - - - x\n"
    );
    assert_eq!(q.write(true).unwrap(), "https://puzz.link/p?snake/5/5/i0003000ih3g33i1");
    // A count of two hex digits.
    let r = Snake::parse("https://puzz.link/p?snake/16/2/i0000000006u2-10g", &opts).unwrap();
    assert_eq!((r.columns[15], r.rows[0], r.rows[1]), (Some(2), Some(16), None));
    assert!(KIND.detect(&text) && KIND.detect("https://puzz.link/p?snake/5/5/i0003000ih3g33i1"));
    assert!(!KIND.detect("masyu 2 2\n- -\n- -\n"));
}

#[test]
fn bad_input_is_one_positioned_message() {
    let opts = RunOptions::default();
    let cases = [
        (
            "snake 2 2\n1 -\n- -\nx -\n- q\n",
            "5:3: expected x (an end), o (a snake cell, not an end) or -, found `q`",
        ),
        (
            "snake 2 2\n1 3\n- -\nx -\n- x\n",
            "2:3: expected a count from 0 to 2 or -, found `3`",
        ),
        (
            "snake 2 2\n1\n- -\nx -\n- x\n",
            "2:2: the column counts: 1 on this line, expected 2",
        ),
        (
            "snake 2 2\n1 - 1\n- -\nx -\n- x\n",
            "2:5: the column counts: more than 2 on this line",
        ),
        (
            "snake 2 2\n- -\n- -\nx -\n- -\n",
            "1:1: a snake has two given ends, found 1",
        ),
        (
            "snake 2 2\n- -\n- -\nx x\nx -\n",
            "1:1: a snake has two given ends, found 3",
        ),
        (
            "https://puzz.link/p?snake/2/2/200g",
            "1:31: a snake has two given ends, found 1",
        ),
        (
            "https://puzz.link/p?snake/2/2/60.",
            "1:33: a count outside the grid is `?`: Snake counts are numbers",
        ),
    ];
    for (text, want) in cases {
        let e = Snake::parse(text, &opts).unwrap_err();
        assert_eq!(e.to_string(), want, "{text:?}");
    }
    let p = Snake::parse("snake 2 2\n- -\n- -\nx -\n- x\n", &opts).unwrap();
    assert!(p.parse_solution("x x\n- q\n").is_err());
}

#[test]
fn the_verifier_names_each_broken_rule() {
    let opts = RunOptions::default();
    let p = Snake::parse("snake 3 3\n1 1 3\n3 1 1\nx - -\n- - o\n- - x\n", &opts).unwrap();
    let ok = p.parse_solution("x x x\n- - x\n- - x\n").unwrap();
    assert!(p.verify(&ok).is_valid(), "{:?}", p.verify(&ok));
    // Touching itself side by side (r2c1 next to r1c1 unlinked), a diagonal touch, counts.
    let bad = p.parse_solution("x - -\n- x -\n- - x\n").unwrap();
    let msgs: Vec<String> = p.verify(&bad).violations.into_iter().map(|v| v.message).collect();
    assert!(msgs.iter().any(|m| m.contains("diagonally")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("white circle at r2c3")), "{msgs:?}");
    assert!(
        msgs.iter().any(|m| m.contains("column 3 has 1 snake cell, not 3")),
        "{msgs:?}"
    );
    let blob = p.parse_solution("x x x\nx x x\n- - x\n").unwrap();
    assert!(!p.verify(&blob).is_valid());
    let apart = p.parse_solution("x x x\n- - x\nx - x\n").unwrap();
    let msgs: Vec<String> = p.verify(&apart).violations.into_iter().map(|v| v.message).collect();
    assert!(
        msgs.iter().any(|m| m == "r3c1 is shaded apart from the snake"),
        "{msgs:?}"
    );
}

#[test]
fn the_setter_tools_add_circles_and_take_counts_away() {
    let opts = RunOptions::default();
    let p = Snake::parse("snake 3 3\n1 1 3\n3 1 1\nx - -\n- - -\n- - x\n", &opts).unwrap();
    let removable = p.removable_clues().unwrap();
    let names: Vec<&str> = removable.iter().map(|c| c.at.as_str()).collect();
    assert_eq!(names, ["column 1", "column 2", "column 3", "row 1", "row 2", "row 3"]);
    assert_eq!(removable[0].puzzle.columns[0], None);
    let keep = p.parse_solution("x x x\n- - x\n- - x\n").unwrap();
    let drop = p.parse_solution("x - -\nx x x\n- - x\n").unwrap();
    let clues = p.separating_clues(&keep, &drop).unwrap();
    let at: Vec<&str> = clues.iter().map(|c| c.at.as_str()).collect();
    assert_eq!(at, ["r1c2", "r1c3"]);
    assert!(clues[0].puzzle.middles[CellId(1)]);
}

#[test]
fn generated_puzzles_are_unique_deterministic_and_of_their_difficulty() {
    check_generated(&KIND, &[("easy", 8), ("medium", 10), ("hard", 12)], 7);
}

#[test]
fn the_fixtures_solve_to_their_answers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/snake");
    assert!(check_fixtures(&KIND, &dir) >= 1);
}

#[test]
fn the_genre_gives_its_ends_and_circles_and_every_algorithm_is_listed() {
    let p = Snake::parse("snake 1 3\n- - -\n-\nx o x\n", &RunOptions::default()).unwrap();
    assert!(p.given(CellId(0)) && p.given(CellId(1)) && p.given(CellId(2)));
    let names: Vec<_> = KIND.algorithms().iter().map(|a| a.name).collect();
    assert_eq!(names, ["fast", "sat"]);
}

#[test]
fn suggest_gives_a_clue_back_to_a_puzzle_that_lost_one() {
    // Every clue of bundled examples removed in turn: `count --suggest` makes it unique again.
    pencilbox_core::testing::assert_suggest_restores_examples::<pencilbox_snake::Snake>(
        env!("CARGO_MANIFEST_DIR"),
        &["snake/example-6x6.txt"],
    );
}
