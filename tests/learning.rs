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
