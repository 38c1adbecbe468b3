//! The paper's data set (`shared/data/path`): the 26 letter puzzles and the figures solve to
//! their `.sol` with `paper` and with `fast`, and each letter is unique. Skipped (passing) when
//! the shared directory is absent.

use pencilbox_core::Limits;
use pencilbox_pathpuzzle::extend::Pruning;
use pencilbox_pathpuzzle::fast::{Branching, Rules};
use pencilbox_pathpuzzle::solve::{count, solve, Algorithm};
use pencilbox_pathpuzzle::verify::is_solution;
use pencilbox_pathpuzzle::{parse_configuration, PathPuzzle};
use std::path::PathBuf;

fn shared(dir: &str) -> Option<PathBuf> {
    pencilbox_core::testing::shared_data(env!("CARGO_MANIFEST_DIR"), &format!("path/{dir}"))
}

/// The `(name, puzzle, answer text)` pairs of a directory.
fn pairs(dir: &std::path::Path) -> Vec<(String, PathPuzzle, Option<String>)> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let p = PathPuzzle::parse(&text).unwrap_or_else(|e| panic!("{}:{e}", path.display()));
            let sol = std::fs::read_to_string(path.with_extension("sol")).ok();
            (path.file_name().unwrap().to_string_lossy().into_owned(), p, sol)
        })
        .collect()
}

fn algorithms() -> [Algorithm; 9] {
    let always = Pruning {
        blocks_min_cells: 0,
        ..Pruning::ALL
    };
    let general = Pruning {
        bitboards: false,
        ..Pruning::DEFAULT
    };
    [
        Algorithm::Paper,
        Algorithm::Extend(Pruning::DEFAULT),
        Algorithm::Extend(Pruning::ALL),
        Algorithm::Extend(always),
        Algorithm::Extend(general),
        Algorithm::Extend(Pruning::NONE),
        Algorithm::Fast(Rules::DEFAULT),
        Algorithm::Fast(Rules::NONE),
        Algorithm::Fast(Rules {
            branch: Branching::Links,
            ..Rules::DEFAULT
        }),
    ]
}

#[test]
fn every_letter_solves_to_its_sol_with_paper_and_fast_and_is_unique() {
    let Some(dir) = shared("letters") else { return };
    let all = pairs(&dir);
    assert_eq!(all.len(), 26);
    for (name, p, sol) in all {
        let expected = parse_configuration(&p, sol.as_deref().expect("every letter has a .sol")).unwrap();
        assert!(is_solution(&p, &expected), "{name}: the shipped .sol does not verify");
        for alg in algorithms() {
            let o = solve(&p, &alg, &Limits::default());
            assert_eq!(o.solutions.first(), Some(&expected), "{name} with {alg:?}");
        }
        let c = count(&p, &Algorithm::default(), None, &Limits::default());
        assert_eq!((c.count, c.complete()), (1, true), "{name} is not unique");
        let c = count(&p, &Algorithm::Paper, Some(2), &Limits::default());
        assert_eq!(c.count, 1, "{name}: paper count");
    }
}

#[test]
fn the_paper_figures_solve_to_their_answers() {
    let Some(dir) = shared("paper") else { return };
    for (name, p, sol) in pairs(&dir) {
        let solutions: Vec<_> = algorithms()
            .iter()
            .map(|alg| solve(&p, alg, &Limits::default()))
            .collect();
        let first = solutions[0]
            .solutions
            .first()
            .cloned()
            .unwrap_or_else(|| panic!("{name}: unsolved"));
        assert!(is_solution(&p, &first));
        for o in &solutions {
            assert_eq!(o.solutions.first(), Some(&first), "{name}");
        }
        if let Some(sol) = sol {
            assert_eq!(first, parse_configuration(&p, &sol).unwrap(), "{name}");
        }
    }
}

#[test]
fn extend_with_every_rule_off_visits_exactly_the_papers_nodes() {
    let Some(dir) = shared("letters") else { return };
    for (name, p, _) in pairs(&dir) {
        let a = count(&p, &Algorithm::Paper, None, &Limits::default());
        let b = count(&p, &Algorithm::Extend(Pruning::NONE), None, &Limits::default());
        assert_eq!(a.stats.nodes, b.stats.nodes, "{name}");
        assert_eq!(a.count, b.count, "{name}");
    }
}

/// Follows each letter's answer path through the extension search: no rule may cut a node on it and
/// every step must be among the offered branches (a direct soundness check of the pruning).
#[test]
fn no_pruning_rule_cuts_the_answer_path_of_a_letter() {
    use pencilbox_core::search::{Backtrack, Expand};
    use pencilbox_pathpuzzle::extend::ExtendSearch;
    let Some(dir) = shared("letters") else { return };
    let always = Pruning {
        blocks_min_cells: 0,
        ..Pruning::ALL
    };
    let general = Pruning {
        bitboards: false,
        ..Pruning::ALL
    };
    for rules in [Pruning::DEFAULT, always, general] {
        for (name, p, sol) in pairs(&dir) {
            let a = parse_configuration(&p, &sol.unwrap()).unwrap();
            let shape = p.shape();
            let mut s = ExtendSearch::new(&p, rules);
            let mut c = p.cell_a();
            let mut out = Vec::new();
            while c != p.cell_b() {
                let next = shape.step(c, a[c].delta()).unwrap();
                out.clear();
                let e = s.expand(&mut out);
                assert_eq!(
                    e,
                    Expand::Branches,
                    "{name}: cut at {} (prunes {:?})",
                    shape.name(c),
                    s.prunes()
                );
                assert!(
                    out.contains(&next),
                    "{name}: {} not offered after {}: {:?} prunes {:?}",
                    shape.name(next),
                    shape.name(c),
                    out.iter().map(|x| shape.name(*x)).collect::<Vec<_>>(),
                    s.prunes()
                );
                s.apply(next);
                c = next;
            }
            out.clear();
            assert_eq!(s.expand(&mut out), Expand::Solution, "{name}");
        }
    }
}

/// `detect` claims every Path file of the data set and no Suguru or Sudoku file.
#[test]
fn detect_claims_path_files_only() {
    use pencilbox_core::PuzzleKind;
    use pencilbox_pathpuzzle::KIND;
    let Some(path_dir) = shared("letters") else { return };
    let root = path_dir.join("../..").canonicalize().unwrap();
    fn walk(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root, &mut files);
    let mut claimed = 0;
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let is_path_instance =
            f.components().any(|c| c.as_os_str() == "path") && f.extension().is_some_and(|e| e == "txt");
        if f.components().any(|c| c.as_os_str() == "path") && !is_path_instance {
            continue; // .sol answer files
        }
        assert_eq!(KIND.detect(&text), is_path_instance, "{}", f.display());
        claimed += usize::from(is_path_instance);
    }
    assert!(claimed >= 28, "{claimed}");
}
