//! Criterion benchmarks: the paper's 26 letters (`paper`, `extend` and `fast`, all 26 in one
//! iteration) and our generated sets `examples/path/bench-NxN` (first solution, `fast` and
//! `extend`; `paper` up to 8×8).
//!
//! ```text
//! cargo bench -p pencilbox-pathpuzzle --bench solve
//! ```

use criterion::{criterion_group, criterion_main, Criterion};
use pencilbox_core::Limits;
use pencilbox_pathpuzzle::solve::{solve, Algorithm};
use pencilbox_pathpuzzle::PathPuzzle;
use std::hint::black_box;
use std::path::{Path, PathBuf};

fn load(dir: &Path) -> Vec<PathPuzzle> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
        .iter()
        .filter_map(|f| PathPuzzle::parse(&std::fs::read_to_string(f).ok()?).ok())
        .collect()
}

fn solve_all(puzzles: &[PathPuzzle], alg: &Algorithm) -> usize {
    puzzles
        .iter()
        .map(|p| solve(p, alg, &Limits::default()).solutions.len())
        .sum()
}

fn letters(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/path/letters");
    let puzzles = load(&dir);
    if puzzles.is_empty() {
        println!("skip: ../shared/data not found");
        return;
    }
    let mut g = c.benchmark_group("letters-26");
    g.bench_function("paper", |b| {
        b.iter(|| black_box(solve_all(&puzzles, &Algorithm::Paper)))
    });
    g.bench_function("extend", |b| {
        b.iter(|| black_box(solve_all(&puzzles, &Algorithm::Extend(Default::default()))))
    });
    g.bench_function("fast", |b| {
        b.iter(|| black_box(solve_all(&puzzles, &Algorithm::default())))
    });
    g.finish();
}

fn generated(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/path");
    for n in 6..=12 {
        let puzzles = load(&root.join(format!("bench-{n}x{n}")));
        if puzzles.is_empty() {
            continue;
        }
        let mut g = c.benchmark_group(format!("bench-{n}x{n}"));
        g.sample_size(10);
        g.bench_function("fast", |b| {
            b.iter(|| black_box(solve_all(&puzzles, &Algorithm::default())))
        });
        if n <= 11 {
            g.bench_function("extend", |b| {
                b.iter(|| black_box(solve_all(&puzzles, &Algorithm::Extend(Default::default()))))
            });
        }
        if n <= 8 {
            g.bench_function("paper", |b| {
                b.iter(|| black_box(solve_all(&puzzles, &Algorithm::Paper)))
            });
        }
        g.finish();
    }
}

criterion_group!(benches, letters, generated);
criterion_main!(benches);
