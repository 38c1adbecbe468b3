//! Issue 30: learning (`--set learn=on|auto`) never changes an answer. Every engine family's
//! generated puzzles, and planted Path puzzles with many solutions, are counted with learning
//! off, on and on with activity branching; counts, completeness and the first solution's
//! validity agree. (Core's property tests check the same on random models, clause by clause;
//! these check it through each family's own model and rules.)

use pencilbox_core::plugin::GenerateRequest;
use pencilbox_core::{PuzzleKind, Render, RunOptions};

fn opts(settings: &[(&str, &str)]) -> RunOptions {
    RunOptions {
        settings: settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        render: Render::Text,
        ..RunOptions::default()
    }
}

const MODES: [&[(&str, &str)]; 3] = [
    &[("learn", "on")],
    &[("learn", "on"), ("decide", "activity")],
    &[("learn", "auto")],
];

/// Counts `text` up to `limit` with learning off and in every mode; all agree.
fn agree(kind: &dyn PuzzleKind, what: &str, text: &str, limit: u64) -> (u64, bool) {
    let off = kind.count(text, Some(limit), &opts(&[])).expect("counts");
    for mode in MODES {
        let on = kind
            .count(text, Some(limit), &opts(mode))
            .expect("counts with learning");
        assert_eq!(
            (&on.count, on.complete),
            (&off.count, off.complete),
            "{what}: learning {mode:?} changed the count"
        );
        assert!(
            on.notes.iter().any(|n| n.name.starts_with("learning")),
            "{what}: learning {mode:?} reports what it did"
        );
    }
    (off.count.try_into().unwrap_or(u64::MAX), off.complete)
}

#[test]
fn learning_gives_the_same_counts_on_every_engine_familys_generated_puzzles() {
    let mut checked = 0;
    for (family, size) in [
        ("suguru", 6),
        ("ripple", 6),
        ("path", 6),
        ("snake", 7),
        ("masyu", 7),
        ("nurikabe", 7),
        ("starbattle", 8),
    ] {
        let kind = pencilbox_cli::registry::by_name(family).expect("registered");
        for seed in 1..=3u64 {
            let req = GenerateRequest {
                height: size,
                width: size,
                seed,
                ..Default::default()
            };
            let Ok(g) = kind.generate(&req) else { continue };
            let (n, complete) = agree(kind, &format!("{family} seed {seed}"), &g.text, 2);
            assert_eq!(
                (n, complete),
                (1, true),
                "{family} seed {seed}: a generated puzzle is unique"
            );
            checked += 1;
        }
    }
    assert!(checked >= 14, "only {checked} puzzles generated");
}

#[test]
fn learning_counts_planted_path_puzzles_with_many_solutions_exactly() {
    // Planted puzzles keeping some of the clues have several solutions: every one is found
    // once with learning (blocking clauses), none is cut off (learned clauses).
    let kind = pencilbox_cli::registry::by_name("path").expect("registered");
    let mut several = 0;
    for seed in 1..=12u64 {
        let size = 5 + (seed % 3) as usize;
        let req = GenerateRequest {
            height: size,
            width: size,
            seed,
            settings: vec![
                ("any".to_string(), "yes".to_string()),
                ("clues".to_string(), (30 + 10 * (seed % 4)).to_string()),
            ],
            ..Default::default()
        };
        let g = kind.generate(&req).expect("a planted puzzle");
        let (n, complete) = agree(kind, &format!("planted path seed {seed}"), &g.text, 500);
        if complete && n > 1 {
            several += 1;
        }
    }
    assert!(several >= 4, "only {several} planted puzzles had several solutions");
}

#[test]
fn learning_counts_every_engine_familys_puzzles_with_several_solutions_exactly() {
    // The bundled puzzles with several solutions, and Suguru and Ripple grids with every hint
    // blanked (thousands of solutions, counted to the limit): each solution is found once,
    // none is cut off, and the search goes on after the first (a family's search state that
    // did not hand the learning search its `successor` ended at the first solution and called
    // the puzzle unique).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let read = |file: &str| std::fs::read_to_string(dir.join(file)).expect("a bundled example");
    let blank = |file: &str| pencilbox_core::testing::blank_givens(&read(file));
    let cases = [
        (
            "suguru",
            "several/suguru-6x6-several.in",
            read("several/suguru-6x6-several.in"),
            8,
        ),
        (
            "suguru",
            "several/suguru-10x10-several.in",
            read("several/suguru-10x10-several.in"),
            60,
        ),
        (
            "suguru",
            "suguru/example-6x6.in, hints blanked",
            blank("suguru/example-6x6.in"),
            60,
        ),
        (
            "ripple",
            "several/ripple-6x6-several.in",
            read("several/ripple-6x6-several.in"),
            6,
        ),
        (
            "ripple",
            "several/ripple-10x10-several.in",
            read("several/ripple-10x10-several.in"),
            2,
        ),
        (
            "ripple",
            "ripple/example-8x8.in, givens blanked",
            blank("ripple/example-8x8.in"),
            60,
        ),
        (
            "path",
            "several/path-6x6-several.txt",
            read("several/path-6x6-several.txt"),
            3,
        ),
        (
            "path",
            "several/path-10x10-several.txt",
            read("several/path-10x10-several.txt"),
            60,
        ),
    ];
    for (family, what, text, expected) in cases {
        let kind = pencilbox_cli::registry::by_name(family).expect("registered");
        let (n, _) = agree(kind, what, &text, 60);
        assert_eq!(n, expected, "{what}: the plain search's count");
    }
}

#[test]
fn learning_counts_nurikabe_and_masyu_with_a_clue_taken_away_exactly() {
    // The bundled 6×6 and 8×8 examples with one clue blanked have several solutions (or
    // none): the islands' and the loop's reasons (contradictions included) must cut none off.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut checked = 0;
    let mut several = 0;
    for (family, file) in [
        ("nurikabe", "nurikabe/example-6x6.txt"),
        ("nurikabe", "nurikabe/example-8x8.txt"),
        ("masyu", "masyu/example-6x6.txt"),
        ("masyu", "masyu/example-8x8.txt"),
        ("snake", "snake/example-6x6.txt"),
        ("snake", "snake/example-8x8.txt"),
    ] {
        let kind = pencilbox_cli::registry::by_name(family).expect("registered");
        let text = std::fs::read_to_string(dir.join(file)).expect("a bundled example");
        let lines: Vec<&str> = text.lines().collect();
        // Every clue of the grid (the lines after the header), by line and token.
        let clues: Vec<(usize, usize)> = (1..lines.len())
            .flat_map(|i| {
                let tokens: Vec<&str> = lines[i].split_whitespace().collect();
                (0..tokens.len())
                    // Snake's ends (`x`) stay: a snake has two.
                    .filter(move |&j| tokens[j] != "-" && (family != "snake" || tokens[j].parse::<u32>().is_ok()))
                    .map(move |j| (i, j))
            })
            .collect();
        for &(i, j) in clues.iter().take(6) {
            let mut rows: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            let mut tokens: Vec<&str> = lines[i].split_whitespace().collect();
            tokens[j] = "-";
            rows[i] = tokens.join(" ");
            let variant = rows.join("\n") + "\n";
            let (n, _) = agree(
                kind,
                &format!("{file} without the clue at line {} token {j}", i + 1),
                &variant,
                30,
            );
            checked += 1;
            several += usize::from(n > 1);
        }
    }
    assert!(checked >= 24, "only {checked} variants");
    assert!(
        several > 0,
        "no variant had several solutions: the test checks nothing new"
    );
}

#[test]
fn path_counts_with_pairs_agree_with_and_without_learning_and_without_pairs() {
    // `rules=+pairs` (two rows or columns solved together in the search's first levels) gives
    // learning its premises as reasons like any rule: counts with it, learning off and on, are
    // those without it.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let kind = pencilbox_cli::registry::by_name("path").expect("registered");
    for (file, expected) in [
        ("several/path-6x6-several.txt", 3),
        ("several/path-10x10-several.txt", 40),
        ("path/bench-12x12/partial-02.txt", 1),
        ("path/bench-10x10/partial-03.txt", 1),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).expect("a bundled example");
        let without = kind.count(&text, Some(40), &opts(&[])).expect("counts");
        assert_eq!(without.count.to_string(), expected.to_string(), "{file}");
        for learn in ["off", "on"] {
            // `pairs` from the start, after a restart at 1 node, and never.
            for rules in ["+pairs", "pairs_after=1,quick=0", "-pairs"] {
                let with = kind
                    .count(&text, Some(40), &opts(&[("rules", rules), ("learn", learn)]))
                    .expect("counts with pairs");
                assert_eq!(
                    (&with.count, with.complete),
                    (&without.count, without.complete),
                    "{file}: rules={rules} with learning {learn} changed the count"
                );
            }
        }
    }
}
