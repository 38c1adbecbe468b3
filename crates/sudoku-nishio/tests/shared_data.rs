//! Full solves of the shared data sets (skipped when ../shared/data is absent): every solution
//! passes the verifier; Figure 4 is solved without guessing; the with/without-Nishio counts of
//! puzzles solved by rules alone are printed (run with `--nocapture` to see them).

use pencilbox_core::{PuzzleKind, RunOptions, Status};
use pencilbox_sudoku_nishio::solver::{check_solution, explain, RuleSet};
use pencilbox_sudoku_nishio::{Sudoku, KIND};
use std::path::PathBuf;

fn data(name: &str) -> Option<String> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/sudoku")
        .join(name);
    match std::fs::read_to_string(&p) {
        Ok(t) => Some(t),
        Err(_) => {
            pencilbox_core::testing::skip(&format!("../shared/data not found ({})", p.display()));
            None
        }
    }
}

fn solve_all(text: &str, step: usize) -> usize {
    let mut solved = 0;
    for (k, inst) in KIND.instances(text).into_iter().enumerate() {
        if k % step != 0 {
            continue;
        }
        let r = KIND.solve(inst.text, &RunOptions::default()).unwrap();
        assert_eq!(r.status, Status::Solved, "line {}", inst.first_line);
        let sol = r.solution.unwrap();
        let v = KIND.verify(inst.text, &sol.text, &RunOptions::default()).unwrap();
        assert!(v.is_valid(), "line {}: {:?}", inst.first_line, v.violations);
        solved += 1;
    }
    solved
}

fn no_guess_counts(text: &str) -> Vec<(&'static str, usize)> {
    let sets = [
        ("all rules", RuleSet::ALL),
        ("all rules but Nishio", RuleSet::NO_NISHIO),
        ("basic + Nishio", RuleSet::BASIC_NISHIO),
        ("basic", RuleSet::BASIC),
    ];
    let puzzles: Vec<Sudoku> = KIND
        .instances(text)
        .iter()
        .map(|i| Sudoku::parse(i.text, None).unwrap())
        .collect();
    sets.iter()
        .map(|(name, rules)| {
            let solved = puzzles
                .iter()
                .filter(|p| {
                    let e = explain(p, *rules).unwrap();
                    // Soundness: no step contradicts the unique solution.
                    let sol = KIND
                        .solve(
                            &p.to_line(),
                            &RunOptions {
                                algorithm: Some("backtrack".into()),
                                ..RunOptions::default()
                            },
                        )
                        .unwrap();
                    let sol: Vec<u8> = sol
                        .solution
                        .unwrap()
                        .text
                        .chars()
                        .map(|c| pencilbox_sudoku_nishio::board::symbol_value(c).unwrap())
                        .collect();
                    for s in &e.steps {
                        assert!(s.eliminated.iter().all(|&(c, d)| sol[c] != d), "{}", s.text);
                    }
                    if e.solved {
                        let v: Vec<u8> = e.candidates.cells().iter().map(|d| d.value().unwrap() as u8).collect();
                        assert!(check_solution(p, &v).is_empty());
                    }
                    e.solved
                })
                .count();
            (*name, solved)
        })
        .collect()
}

#[test]
fn figure_four_is_solved_without_guessing() {
    let Some(t) = data("eppstein-fig4.txt") else { return };
    let p = Sudoku::parse(&t, None).unwrap();
    let e = explain(&p, RuleSet::ALL).unwrap();
    assert!(e.solved);
}

#[test]
fn top95_and_hardest_are_all_solved_and_verified() {
    for name in ["top95.txt", "hardest.txt"] {
        let Some(t) = data(name) else { return };
        let n = solve_all(&t, 1);
        assert_eq!(n, KIND.instances(&t).len());
        let counts = no_guess_counts(&t);
        println!("{name}: {n} puzzles; solved without guessing: {counts:?}");
        // More rules never solve fewer puzzles (every rule only removes candidates).
        assert!(counts[0].1 >= counts[1].1 && counts[2].1 >= counts[3].1);
    }
}

#[test]
fn a_sample_of_sudoku17_is_solved_and_verified() {
    let Some(t) = data("sudoku17-first5000.txt") else {
        return;
    };
    assert_eq!(solve_all(&t, 50), 100);
}

#[test]
#[ignore = "all 5000 puzzles; run with --release --ignored"]
fn all_of_sudoku17_first5000_are_solved_and_verified() {
    let Some(t) = data("sudoku17-first5000.txt") else {
        return;
    };
    assert_eq!(solve_all(&t, 1), 5000);
}
