//! Fuzzing every registered puzzle family in-process: arbitrary text and mutations of the
//! bundled examples must give a report or a positioned error, never a panic, and every
//! solution a solver returns must pass that family's own verifier.

use pencilbox_cli::registry::PUZZLES;
use pencilbox_core::{Limits, PuzzleError, PuzzleKind, RunOptions, Status};
use proptest::prelude::*;
use std::path::Path;
use std::time::{Duration, Instant};

/// Every file under examples/ (our own fixtures), as text.
fn examples() -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![pencilbox_tests::root().join("examples")];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if is_small_text(&p) {
                if let Ok(t) = std::fs::read_to_string(&p) {
                    out.push(t);
                }
            }
        }
    }
    out.sort();
    // A few tiny hand-made seeds so mutation fuzzing has material even without examples.
    out.extend(
        [
            "2 2\n0 0\n0 0\n1 1\n1 1\n",
            "1 4\n0 2 0 0\n1 1 2 2\n",
            "2 2\n1 1\n2 2\n\n2 1\n1 2\n",
            "3 3\n1 1\n3 3\n\n-1 -1 -1\n-1 -1 -1\n",
            "1..4..1.2..3.2..\n",
        ]
        .map(String::from),
    );
    out
}

fn is_small_text(p: &Path) -> bool {
    p.metadata().is_ok_and(|m| m.len() < 20_000) && p.extension().is_none_or(|e| e != "png")
}

fn quick() -> RunOptions {
    RunOptions {
        limits: Limits {
            node_limit: Some(5_000),
            deadline: Some(Instant::now() + Duration::from_millis(200)),
            ..Limits::default()
        },
        ..RunOptions::default()
    }
}

/// Runs every operation of `kind` on `text`; panics only through a failed assertion.
fn exercise(kind: &dyn PuzzleKind, text: &str) {
    let _ = kind.detect(text);
    let opts = quick();
    for inst in kind.instances(text).into_iter().take(3) {
        match kind.solve(inst.text, &opts) {
            Ok(report) => {
                if report.status == Status::Solved {
                    let sol = report.solution.as_ref().expect("a solved report carries its solution");
                    let v = kind
                        .verify(inst.text, &sol.text, &opts)
                        .unwrap_or_else(|e| panic!("{}: own solution unreadable: {e}", kind.name()));
                    assert!(
                        v.is_valid(),
                        "{}: solver returned an invalid solution: {v:?}",
                        kind.name()
                    );
                } else {
                    assert!(report.solution.is_none() || report.status == Status::Timeout);
                }
            }
            Err(PuzzleError::Parse(e)) => assert!(e.pos.line >= 1 && e.pos.col >= 1 && !e.message.is_empty()),
            Err(_) => {}
        }
        let _ = kind.count(inst.text, Some(2), &opts);
        let _ = kind.verify(inst.text, inst.text, &opts);
        if let Ok(r) = kind.forced(inst.text, &opts) {
            assert!(
                r.forced.len() <= r.places,
                "{}: more forced facts than places",
                kind.name()
            );
        }
    }
}

#[test]
fn every_bundled_example_passes_its_own_verifier() {
    let ex = examples();
    for kind in PUZZLES {
        for text in &ex {
            exercise(*kind, text);
        }
    }
}

/// A mutation: replace, insert or delete one character at a position.
fn mutate(text: &str, pos: usize, op: u8, ch: char) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return ch.to_string();
    }
    let i = pos % chars.len();
    match op % 3 {
        0 => chars[i] = ch,
        1 => chars.insert(i, ch),
        _ => {
            chars.remove(i);
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, .. ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "[0-9 \\-\\n.A-Z]{0,80}") {
        for kind in PUZZLES {
            exercise(*kind, &text);
        }
    }

    #[test]
    fn mutated_examples_never_panic(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), prop::sample::select(vec!['0', '1', '9', '-', ' ', '\n', 'x', '.', '7'])), 1..4),
    ) {
        let ex = examples();
        let mut text = ex[which.index(ex.len())].clone();
        for (pos, op, ch) in edits {
            text = mutate(&text, pos, op, ch);
        }
        for kind in PUZZLES {
            exercise(*kind, &text);
        }
    }
}

/// The bundled puzzles with an answer, and the family that reads them.
const WITH_ANSWERS: [(&str, &str, &str); 4] = [
    (
        "suguru",
        "examples/suguru/example-6x6.in",
        "examples/suguru/example-6x6.ans",
    ),
    (
        "ripple",
        "examples/ripple/example-6x6.in",
        "examples/ripple/example-6x6.ans",
    ),
    (
        "path",
        "examples/path/example-6x6.txt",
        "examples/path/example-6x6.drawing",
    ),
    ("path", "examples/path/example-6x6.txt", "examples/path/example-6x6.sol"),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

    /// A player's entries (`explain`/`hint --entries`, the playground's position) mutated:
    /// an explanation or an error about the entries, never a panic, and the wrong entries
    /// named are entries.
    #[test]
    fn mutated_entries_never_panic(
        which in 0usize..4,
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), prop::sample::select(vec!['0', '1', '3', '9', ' ', '\n', 'x', '.', 'u', 'l', 'r', 'd'])), 1..4),
    ) {
        let (family, puzzle, answer) = WITH_ANSWERS[which];
        let kind = PUZZLES.iter().find(|k| k.name() == family).expect("registered");
        let root = pencilbox_tests::root();
        let puzzle = std::fs::read_to_string(root.join(puzzle)).expect("bundled puzzle");
        let mut entries = std::fs::read_to_string(root.join(answer)).expect("bundled answer");
        for (pos, op, ch) in edits {
            entries = mutate(&entries, pos, op, ch);
        }
        let opts = quick();
        let eo = pencilbox_core::human::ExplainOptions { limits: opts.limits.clone(), ..Default::default() };
        match kind.explain(&puzzle, Some(&entries), &opts, &eo) {
            Ok(x) => prop_assert!(x.wrong.iter().all(|f| f.cell.starts_with('r'))),
            Err(PuzzleError::Solution(e)) => prop_assert!(e.pos.line >= 1 && e.pos.col >= 1),
            Err(PuzzleError::Entries(m)) => prop_assert!(!m.is_empty()),
            Err(other) => prop_assert!(false, "{family}: {other}"),
        }
    }
}
