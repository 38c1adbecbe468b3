//! Criterion benchmarks (release):
//! * `janko/{fast,paper}` — the whole Janko set (../shared/data/suguru/janko, when present),
//!   one iteration = solving all instances in-process;
//! * `20x20/fast` — the bundled unique 20×20 instances (examples/suguru/bench-20x20);
//! * `linear/1xN` — the `1×n` algorithm for n = 10^3 … 10^6 (instances built in memory).
//!
//! Run: `CARGO_TARGET_DIR=target cargo bench -p pencilbox-suguru --bench solve`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::search::Limits;
use pencilbox_core::{Grid, PuzzleKind, RunOptions, Shape, Status};
use pencilbox_suguru::solver::{self, Algorithm};
use pencilbox_suguru::{linear, parse, Suguru, KIND};
use std::hint::black_box;
use std::path::{Path, PathBuf};

fn load_dir(dir: &Path) -> Vec<(String, Suguru)> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        eprintln!("skip: {} not found", dir.display());
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(&f).ok()?;
            Some((f.file_name()?.to_string_lossy().into_owned(), parse(&text).ok()?))
        })
        .collect()
}

fn solve_all(set: &[(String, Suguru)], alg: Algorithm) {
    for (_, p) in set {
        let r = solver::solve(p, Some(alg), &Limits::default()).unwrap();
        assert_eq!(r.status, Status::Solved);
        black_box(r.solution);
    }
}

fn janko(c: &mut Criterion) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/suguru/janko");
    let set = load_dir(&dir);
    if set.is_empty() {
        return;
    }
    let mut g = c.benchmark_group("janko");
    g.throughput(Throughput::Elements(set.len() as u64));
    g.bench_function("fast", |b| b.iter(|| solve_all(&set, Algorithm::Fast)));
    // What `pencilbox bench` times: parse + solve + render + --stats notes, through the plug-in.
    let texts: Vec<String> = set.iter().map(|(_, p)| p.to_text()).collect();
    g.bench_function("fast_via_plugin", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(KIND.solve(t, &RunOptions::default()).unwrap());
            }
        })
    });
    g.bench_function("paper", |b| b.iter(|| solve_all(&set, Algorithm::Paper)));
    g.finish();
}

fn twenty(c: &mut Criterion) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/suguru/bench-20x20");
    let set = load_dir(&dir);
    if set.is_empty() {
        return;
    }
    let mut g = c.benchmark_group("20x20");
    for (name, p) in &set {
        g.bench_with_input(BenchmarkId::new("fast", name), p, |b, p| {
            b.iter(|| solve_all(std::slice::from_ref(&(String::new(), p.clone())), Algorithm::Fast))
        });
    }
    g.finish();
}

/// A solvable `1×n` instance: random regions of 1..=5 cells (a one-cell region only after a
/// region of at least 3), a solution from the hintless algorithm, and a fifth of its cells kept as hints.
pub fn line_instance(n: usize, seed: u64) -> Suguru {
    let mut rng = SplitMix64::new(seed);
    let mut labels = Vec::with_capacity(n);
    let mut label = 0u32;
    let mut last_size = 0;
    while labels.len() < n {
        // A one-cell region only after a region of 3 or more cells (whose last cell is not 1
        // in the hintless solution), so the layout is solvable.
        let mut size = 1 + rng.below_mod(5);
        if size == 1 && last_size < 3 {
            size = 2;
        }
        let size = size.min(n - labels.len());
        if size == 1 && last_size < 3 && label > 0 {
            labels.push(label - 1);
            continue;
        }
        labels.extend(std::iter::repeat_n(label, size));
        label += 1;
        last_size = size;
    }
    let shape = Shape::new(1, n);
    let empty = Suguru::new(Grid::filled(shape, 0), &Grid::from_vec(shape, labels).unwrap()).unwrap();
    let sol = linear::solve_hintless(&empty).expect("no two adjacent one-cell regions");
    let hints: Vec<u32> = sol.iter().map(|&v| if rng.below_mod(5) == 0 { v } else { 0 }).collect();
    empty.with_hints(Grid::from_vec(shape, hints).unwrap()).unwrap()
}

fn linear_bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("linear");
    g.sample_size(10);
    for n in [1_000usize, 10_000, 100_000, 1_000_000] {
        let p = line_instance(n, 7);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("1xN", n), &p, |b, p| {
            b.iter(|| {
                let r = solver::solve(p, None, &Limits::default()).unwrap();
                assert_eq!(r.status, Status::Solved);
                black_box(r.solution)
            })
        });
    }
    g.finish();
}

fn parts(c: &mut Criterion) {
    let p = line_instance(1_000_000, 7);
    let mut g = c.benchmark_group("parts");
    g.sample_size(10);
    g.bench_function("precheck", |b| {
        b.iter(|| black_box(pencilbox_suguru::theorems::precheck(&p)))
    });
    g.bench_function("with_hints", |b| b.iter(|| black_box(linear::solve_with_hints(&p))));
    g.finish();
}

criterion_group!(benches, janko, twenty, linear_bench, parts);
criterion_main!(benches);
