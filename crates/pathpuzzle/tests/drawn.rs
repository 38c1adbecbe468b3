//! Hints from a player's drawing against brute force on random small Path puzzles: with some
//! lines drawn (some from a solution, some anywhere) and some cells crossed out (`x`),
//! `explain --entries` solves exactly when a solution has every drawn line and no crossed cell, its deductions hold in every such solution, and when the
//! puzzle has one solution and the drawing fits none, the lines it names as wrong are exactly
//! the drawn lines that solution lacks and the crossed cells it uses.

use pencilbox_core::human::{ExplainOptions, ExplainStatus};
use pencilbox_core::links::Links;
use pencilbox_core::{CellId, PuzzleKind, RunOptions, Shape};
use pencilbox_pathpuzzle::generate::{puzzle_from_path, random_path, SplitMix64};
use pencilbox_pathpuzzle::{Arrow, PathPuzzle, KIND};
use proptest::prelude::*;
use std::collections::BTreeSet;

mod common;
use common::paths;

type Line = (CellId, CellId);

fn lines_of(path: &[CellId]) -> BTreeSet<Line> {
    path.windows(2).map(|w| (w[0].min(w[1]), w[0].max(w[1]))).collect()
}

fn name(shape: Shape, (a, b): Line) -> String {
    format!("{}-{}", shape.name(a), shape.name(b))
}

/// The drawing as entries: each line an arrow on one of its cells (not door B, whose mark is
/// not a line), then `x` on the crossed cells left without an arrow; lines that find no free
/// cell are left out. Returns the text, the lines drawn and the cells crossed.
fn entries(p: &PathPuzzle, wanted: &[Line], cross: &[CellId]) -> (String, BTreeSet<Line>, BTreeSet<CellId>) {
    let shape = p.shape();
    let mut arrows = vec![Arrow::Empty; shape.cells()];
    let mut drawn = BTreeSet::new();
    for &(a, b) in wanted {
        for (from, to) in [(a, b), (b, a)] {
            if from != p.cell_b() && arrows[from.index()] == Arrow::Empty {
                arrows[from.index()] = Arrow::between(shape, from, to);
                drawn.insert((a, b));
                break;
            }
        }
    }
    let mut marks: Vec<char> = arrows.iter().map(|a| a.to_char()).collect();
    let mut crossed = BTreeSet::new();
    for &c in cross {
        if arrows[c.index()] == Arrow::Empty {
            marks[c.index()] = 'x';
            crossed.insert(c);
        }
    }
    let rows: Vec<String> = marks
        .chunks(shape.width)
        .map(|r| r.iter().map(char::to_string).collect::<Vec<_>>().join(" "))
        .collect();
    (rows.join("\n") + "\n", drawn, crossed)
}

/// A planted puzzle (some clues dropped) and a drawing: `from_path` lines of a brute-force
/// solution and `stray` random links.
fn arb_case() -> impl Strategy<Value = (PathPuzzle, Vec<Line>, Vec<CellId>)> {
    (
        2usize..=4,
        2usize..=5,
        any::<u64>(),
        0usize..=4,
        0usize..=3,
        0usize..=2,
        0usize..=2,
    )
        .prop_filter_map("a path was found", |(h, w, seed, keep, from_path, stray, crosses)| {
            let shape = Shape::new(h, w);
            let mut rng = SplitMix64::new(seed);
            let path = random_path(shape, 2 + rng.below(h * w / 2), &mut rng)?;
            let full = puzzle_from_path(shape, &path).ok()?;
            let mut drop = |c: &Option<u32>| if rng.below(4) < keep { *c } else { None };
            let rows: Vec<_> = full.row_clues().iter().map(&mut drop).collect();
            let cols: Vec<_> = full.col_clues().iter().map(&mut drop).collect();
            let p = full.with_clues(rows, cols).ok()?;
            let on_path: Vec<Line> = lines_of(&path).into_iter().collect();
            let links = Links::new(shape);
            let mut wanted = Vec::new();
            for _ in 0..from_path.min(on_path.len()) {
                wanted.push(on_path[rng.below(on_path.len())]);
            }
            for _ in 0..stray {
                let (a, b) = links.ends(rng.below(links.len()) as _);
                wanted.push((a.min(b), a.max(b)));
            }
            let cross = (0..crosses).map(|_| CellId::from_index(rng.below(h * w))).collect();
            Some((p, wanted, cross))
        })
}

fn check(p: &PathPuzzle, wanted: &[Line], cross: &[CellId]) -> Result<(), TestCaseError> {
    let shape = p.shape();
    let (text, drawn, crossed) = entries(p, wanted, cross);
    let sols = paths(p);
    let fitting: Vec<BTreeSet<Line>> = sols
        .iter()
        .filter(|s| !s.iter().any(|c| crossed.contains(c)))
        .map(|s| lines_of(s))
        .filter(|l| drawn.is_subset(l))
        .collect();
    let x = KIND
        .explain(
            &p.to_text(),
            Some(&text),
            &RunOptions::default(),
            &ExplainOptions::default(),
        )
        .unwrap();
    if fitting.is_empty() {
        prop_assert_eq!(x.status, ExplainStatus::NoSolution, "{}", text);
    } else {
        prop_assert_eq!(x.status, ExplainStatus::Solved, "{}", text);
    }
    // Every deduction before the first guess (later ones rest on it) about a line holds in
    // every solution with the drawing.
    for s in x.steps.iter().take_while(|s| !s.guess) {
        for f in &s.placed {
            if f.value == "line" || f.value == "blank" {
                for l in &fitting {
                    let has = l.iter().any(|&ln| name(shape, ln) == f.cell);
                    prop_assert_eq!(has, f.value == "line", "{} {} in {}", f.cell, f.value, text);
                }
            }
        }
    }
    if fitting.is_empty() && sols.len() == 1 {
        let only = lines_of(&sols[0]);
        let mut want: Vec<(String, &str)> = drawn
            .iter()
            .filter(|l| !only.contains(l))
            .map(|&l| (name(shape, l), "line"))
            .collect();
        want.extend(
            crossed
                .iter()
                .filter(|c| sols[0].contains(c))
                .map(|&c| (shape.name(c), "unused")),
        );
        let got: Vec<(String, &str)> = x.wrong.iter().map(|f| (f.cell.clone(), f.value.as_str())).collect();
        prop_assert_eq!(got, want, "{}", text);
    } else {
        prop_assert!(x.wrong.is_empty(), "{:?}", x.wrong);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn a_drawing_is_explained_from_and_its_wrong_lines_are_named((p, wanted, cross) in arb_case()) {
        check(&p, &wanted, &cross)?;
    }
}

#[test]
fn a_finished_answer_is_a_drawing_and_door_b_marks_no_line() {
    // Door A r1c1, door B r2c1: the path goes right, down, left. The `.sol` form marks door B
    // `u`, which points back along the path: not a line of its own.
    let p = PathPuzzle::parse("2 2\n1 1\n2 1\n\n2 2\n2 2\n").unwrap();
    let q = p.with_drawn("r d\nu l\n").unwrap();
    assert_eq!(q.drawn().len(), 3);
    let x = KIND
        .explain(
            &p.to_text(),
            Some("r d\nu l\n"),
            &RunOptions::default(),
            &ExplainOptions::default(),
        )
        .unwrap();
    assert_eq!(x.status, ExplainStatus::Solved);
    assert!(x.steps.iter().all(|s| !s.guess));
}
