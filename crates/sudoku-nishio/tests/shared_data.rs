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
            pencilbox_core::testing::skip_shared(&format!("../shared/data not found ({})", p.display()));
            None
        }
    }
}

/// Solves every `step`-th puzzle with the default (`bits` on 9×9) and with `deduce`; both
/// solutions verify. Returns the number of puzzles solved.
fn solve_all(text: &str, step: usize) -> usize {
    let mut solved = 0;
    for (k, inst) in KIND.instances(text).into_iter().enumerate() {
        if k % step != 0 {
            continue;
        }
        for alg in [None, Some("deduce")] {
            let opts = RunOptions {
                algorithm: alg.map(String::from),
                ..RunOptions::default()
            };
            let r = KIND.solve(inst.text, &opts).unwrap();
            assert_eq!(r.status, Status::Solved, "line {} ({alg:?})", inst.first_line);
            assert_eq!(r.algorithm, alg.unwrap_or("bits"));
            let sol = r.solution.unwrap();
            let v = KIND.verify(inst.text, &sol.text, &RunOptions::default()).unwrap();
            assert!(v.is_valid(), "line {}: {:?}", inst.first_line, v.violations);
        }
        solved += 1;
    }
    solved
}

/// `bits` against `backtrack` on every puzzle of a set: the same count up to 2 (exactly 1:
/// the sets are proper puzzles) and the same solution, which `deduce` finds too.
fn bits_agrees_with_backtrack(text: &str) -> usize {
    let opts = |alg: &str| RunOptions {
        algorithm: Some(alg.into()),
        ..RunOptions::default()
    };
    let mut n = 0;
    for inst in KIND.instances(text) {
        let bits = KIND.count(inst.text, Some(2), &opts("bits")).unwrap();
        let back = KIND.count(inst.text, Some(2), &opts("backtrack")).unwrap();
        assert_eq!(
            (&bits.count, bits.complete),
            (&back.count, back.complete),
            "line {}",
            inst.first_line
        );
        assert_eq!(bits.count, 1u32.into(), "line {}", inst.first_line);
        let a = KIND.solve(inst.text, &opts("bits")).unwrap().solution.unwrap();
        let b = KIND.solve(inst.text, &opts("backtrack")).unwrap().solution.unwrap();
        assert_eq!(a.text, b.text, "line {}", inst.first_line);
        let d = KIND.solve(inst.text, &opts("deduce")).unwrap().solution;
        assert_eq!(d.map(|d| d.text), Some(a.text), "line {}: deduce", inst.first_line);
        n += 1;
    }
    n
}

#[test]
fn bits_backtrack_and_deduce_agree_on_top95_hardest_and_sudoku17() {
    for name in ["top95.txt", "hardest.txt", "sudoku17-first5000.txt"] {
        let Some(t) = data(name) else { return };
        assert_eq!(bits_agrees_with_backtrack(&t), KIND.instances(&t).len(), "{name}");
    }
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
