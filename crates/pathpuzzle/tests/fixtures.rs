//! Our own fixtures (`examples/path`): the paper's figures transcribed from the text, the
//! examples and the generated benchmark sets. Every `x.txt` solves to its `x.sol` with `fast`
//! (and with `paper` on small grids) and is unique; the answer file passes the verifier.

use pencilbox_core::{Limits, StopReason};
use pencilbox_pathpuzzle::solve::{count, solve, Algorithm};
use pencilbox_pathpuzzle::verify::is_solution;
use pencilbox_pathpuzzle::{parse_configuration, PathPuzzle};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn fixtures(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            fixtures(&p, out);
        } else if p.extension().is_some_and(|e| e == "txt") {
            out.push(p);
        }
    }
}

fn all() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/path");
    let mut out = Vec::new();
    fixtures(&root, &mut out);
    out.sort();
    out
}

fn check(file: &Path, uniqueness: bool) {
    let name = file.display();
    let p = PathPuzzle::parse(&std::fs::read_to_string(file).unwrap()).unwrap_or_else(|e| panic!("{name}:{e}"));
    let sol = std::fs::read_to_string(file.with_extension("sol")).unwrap_or_else(|_| panic!("{name}: no .sol"));
    let expected = parse_configuration(&p, &sol).unwrap_or_else(|e| panic!("{name}.sol:{e}"));
    assert!(is_solution(&p, &expected), "{name}: the .sol does not verify");
    let o = solve(&p, &Algorithm::default(), &Limits::default());
    assert_eq!(o.solutions.first(), Some(&expected), "{name}: fast");
    if p.shape().cells() <= 49 {
        let o = solve(&p, &Algorithm::Paper, &Limits::default());
        assert_eq!(o.solutions.first(), Some(&expected), "{name}: paper");
    }
    if uniqueness {
        let limits = Limits {
            deadline: Some(Instant::now() + Duration::from_secs(120)),
            ..Limits::default()
        };
        let c = count(&p, &Algorithm::default(), Some(2), &limits);
        assert_ne!(c.stop, StopReason::Deadline, "{name}: count timed out");
        assert_eq!(c.count, 1, "{name}: not unique");
    }
}

#[test]
fn the_paper_figures_and_small_fixtures_solve_to_their_answers_and_are_unique() {
    let files = all();
    assert!(files.iter().any(|f| f.ends_with("paper/fig1-6x6.txt")));
    for f in files {
        let cells = PathPuzzle::parse(&std::fs::read_to_string(&f).unwrap())
            .unwrap()
            .shape()
            .cells();
        check(&f, cells <= 100);
    }
}

/// Uniqueness of the 11×11 and 12×12 sets too (a few seconds in debug builds).
#[test]
fn every_fixture_is_unique() {
    for f in all() {
        check(&f, true);
    }
}

/// The 64- and 128-bit bitboard code and the general code visit the same tree on grids the
/// brute-force property tests cannot reach (planted instances from 6×6 to 11×11).
#[test]
fn bitboards_and_the_general_code_agree_on_larger_grids() {
    use pencilbox_pathpuzzle::extend::Pruning;
    use pencilbox_pathpuzzle::generate::{generate, ClueDensity};
    for (k, n) in [6usize, 8, 9, 10, 11].into_iter().enumerate() {
        for percent in [100u8, 70] {
            let p = generate(n, n + k % 2, ClueDensity::Percent(percent), false, 40 + k as u64).unwrap();
            let limits = Limits {
                node_limit: Some(20_000),
                ..Limits::default()
            };
            let general = Pruning {
                bitboards: false,
                ..Pruning::DEFAULT
            };
            let a = count(&p, &Algorithm::Extend(Pruning::DEFAULT), Some(20), &limits);
            let b = count(&p, &Algorithm::Extend(general), Some(20), &limits);
            assert_eq!(
                (a.count, a.stop, a.stats.nodes),
                (b.count, b.stop, b.stats.nodes),
                "\n{p}"
            );
            assert_eq!(a.solutions, b.solutions, "\n{p}");
            assert!(a.solutions.iter().all(|s| is_solution(&p, s)));
        }
    }
}
