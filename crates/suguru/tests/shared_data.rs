//! The shared data sets: all Janko instances solve to their `.ans` with `paper` and `fast`,
//! and the paper's figure instances behave as the paper says. Skipped (with a line saying so)
//! when `../shared/data` is not present.

use pencilbox_core::search::Limits;
use pencilbox_core::Status;
use pencilbox_suguru::solver::{self, Algorithm};
use pencilbox_suguru::{parse, parse_answer, verify};
use std::path::PathBuf;

fn data_dir(sub: &str) -> Option<PathBuf> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(sub);
    if d.is_dir() {
        Some(d)
    } else {
        pencilbox_core::testing::skip_shared(&format!("../shared/data not found ({})", d.display()));
        None
    }
}

#[test]
fn every_janko_instance_solves_to_its_answer_with_paper_and_fast() {
    let Some(dir) = data_dir("suguru/janko") else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for f in &files {
        let p = parse(&std::fs::read_to_string(f).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let ans = parse_answer(&std::fs::read_to_string(f.with_extension("ans")).unwrap(), p.shape()).unwrap();
        assert!(
            verify(&p, &ans).is_valid(),
            "{}: the answer file fails the verifier",
            f.display()
        );
        for alg in [Algorithm::Paper, Algorithm::Fast] {
            let r = solver::solve(&p, Some(alg), &Limits::default()).unwrap();
            assert_eq!(r.status, Status::Solved, "{} with {}", f.display(), alg.name());
            assert_eq!(r.solution.as_ref(), Some(&ans), "{} with {}", f.display(), alg.name());
        }
        assert!(
            solver::is_unique(&p, &Limits::default()),
            "{} is not unique",
            f.display()
        );
    }
    println!("{} Janko instances solved by paper and fast", files.len());
}

#[test]
fn the_shared_paper_figures_behave_as_the_paper_says() {
    let Some(dir) = data_dir("suguru/paper") else { return };
    let read = |name: &str| parse(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
    // Fig. 1: solvable, and Fig. 1b is one of its solutions.
    let fig1 = read("fig1-3x3.in");
    let fig1b = parse_answer("1 4 1\n2 5 2\n3 1 3\n", fig1.shape()).unwrap();
    assert!(verify(&fig1, &fig1b).is_valid());
    let r = solver::solve(&fig1, Some(Algorithm::Paper), &Limits::default()).unwrap();
    assert!(verify(&fig1, r.solution.as_ref().unwrap()).is_valid());
    // Fig. 5 (hintless 1×6): the hintless algorithm gives 1 2 1 2 1 3.
    let fig5 = read("fig5-1x6-hintless.in");
    let r = solver::solve(&fig5, None, &Limits::default()).unwrap();
    assert_eq!(r.algorithm, Algorithm::Linear);
    assert_eq!(r.solution.unwrap().as_slice(), &[1, 2, 1, 2, 1, 3]);
    // Fig. 6 (1×6 with hints): Example 2 constructs 1 2 1 3 2 1.
    let fig6 = read("fig6-1x6-hints.in");
    let r = solver::solve(&fig6, None, &Limits::default()).unwrap();
    assert_eq!(r.solution.unwrap().as_slice(), &[1, 2, 1, 3, 2, 1]);
}

#[test]
fn detect_claims_no_path_or_sudoku_file_and_every_janko_file() {
    let Some(root) = data_dir("") else { return };
    let mut stack = vec![root];
    let (mut claimed, mut refused) = (0, 0);
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let s = path.to_string_lossy();
            let is_suguru_puzzle = s.contains("/suguru/") && s.ends_with(".in");
            assert_eq!(pencilbox_suguru::detect(&text), is_suguru_puzzle, "{s}");
            if is_suguru_puzzle {
                claimed += 1;
            } else {
                refused += 1;
            }
        }
    }
    println!("detect: {claimed} Suguru files claimed, {refused} other files refused");
}
