//! Nishio benchmarks: one digit on realistic candidate sets, per method, for 9×9 (every digit
//! of 20 generated unique puzzles, after the givens' eliminations), 16×16 and 25×25 (every digit
//! of random partial grids keeping 40–45% of a solved grid).
//!
//! Run: `cargo bench -p pencilbox-sudoku-nishio --bench nishio`. Each iteration runs every set
//! of the group once; criterion's throughput is in sets ("elements"), so time/element = time per
//! Nishio call.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use pencilbox_sudoku_nishio::board::{BlockShape, CellMask, Sudoku};
use pencilbox_sudoku_nishio::generate::{generate, pattern_solution, Rng};
use pencilbox_sudoku_nishio::graph::AbGraph;
use pencilbox_sudoku_nishio::matching::matching_keep;
use pencilbox_sudoku_nishio::nishio::{nishio, nishio_lanes, nishio_paper};
use pencilbox_sudoku_nishio::overlay::Overlay;
use pencilbox_sudoku_nishio::Candidates;
use std::hint::black_box;
use std::time::Duration;

/// Candidate sets of every digit of `puzzles` random partial grids keeping `keep_pct`% givens.
fn sets(block: BlockShape, puzzles: usize, keep_pct: u64, seed: u64) -> Vec<CellMask> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..puzzles {
        let mut g = pattern_solution(block, &mut rng);
        for v in g.iter_mut() {
            if rng.next_u64() % 100 >= keep_pct {
                *v = 0;
            }
        }
        let p = Sudoku::new(block, g).expect("fits");
        let c = Candidates::from_puzzle(&p).expect("a solved grid's subset is consistent");
        out.extend((1..=block.n() as u8).map(|d| c.digit_cells(d)));
    }
    out
}

/// Candidate sets of every digit of `count` generated puzzles (unique solution, givens removed
/// while unique): the sets a solver meets at the start.
fn puzzle_sets(block: BlockShape, count: usize, seed: u64) -> Vec<CellMask> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..count {
        let (p, _) = generate(block, &mut rng, 0);
        let c = Candidates::from_puzzle(&p).expect("generated puzzles are consistent");
        out.extend((1..=block.n() as u8).map(|d| c.digit_cells(d)));
    }
    out
}

fn bench_9x9(c: &mut Criterion) {
    let block = BlockShape::new(3, 3);
    let list = puzzle_sets(block, 20, 1);
    let g = AbGraph::get(block).unwrap();
    let o = Overlay::get(block).unwrap();
    let mut group = c.benchmark_group("nishio_9x9");
    group.throughput(Throughput::Elements(list.len() as u64));
    group.bench_function("dag", |bch| {
        bch.iter(|| list.iter().map(|s| nishio(&g, black_box(s)).keep.len()).sum::<usize>())
    });
    group.bench_function("paper", |bch| {
        bch.iter(|| list.iter().map(|s| nishio_paper(&g, black_box(s)).len()).sum::<usize>())
    });
    group.bench_function("lanes64", |bch| {
        bch.iter(|| {
            list.chunks(64)
                .map(|ch| nishio_lanes(&g, black_box(ch)).len())
                .sum::<usize>()
        })
    });
    group.bench_function("overlay", |bch| {
        bch.iter(|| list.iter().map(|s| o.nishio(black_box(s)).keep.len()).sum::<usize>())
    });
    group.bench_function("matching", |bch| {
        bch.iter(|| list.iter().map(|s| matching_keep(black_box(s)).len()).sum::<usize>())
    });
    group.finish();
}

fn bench_16x16(c: &mut Criterion) {
    let block = BlockShape::new(4, 4);
    let list = sets(block, 4, 40, 2);
    let g = AbGraph::get(block).unwrap();
    let mut group = c.benchmark_group("nishio_16x16");
    group.throughput(Throughput::Elements(list.len() as u64));
    group.bench_function("dag", |bch| {
        bch.iter(|| list.iter().map(|s| nishio(&g, black_box(s)).keep.len()).sum::<usize>())
    });
    group.bench_function("paper", |bch| {
        bch.iter(|| list.iter().map(|s| nishio_paper(&g, black_box(s)).len()).sum::<usize>())
    });
    group.bench_function("lanes64", |bch| {
        bch.iter(|| {
            list.chunks(64)
                .map(|ch| nishio_lanes(&g, black_box(ch)).len())
                .sum::<usize>()
        })
    });
    group.finish();
}

fn bench_25x25(c: &mut Criterion) {
    let block = BlockShape::new(5, 5);
    let list = sets(block, 1, 45, 3);
    let t = std::time::Instant::now();
    let g = AbGraph::get(block).unwrap();
    eprintln!(
        "25x25 graph: {} vertices, {} arcs, {:.1} MiB, built in {:.2} s",
        g.num_vertices(),
        g.num_edges(),
        g.memory_bytes() as f64 / (1024.0 * 1024.0),
        t.elapsed().as_secs_f64()
    );
    let mut group = c.benchmark_group("nishio_25x25");
    group.sample_size(10);
    group.throughput(Throughput::Elements(list.len() as u64));
    group.bench_function("dag", |bch| {
        bch.iter(|| list.iter().map(|s| nishio(&g, black_box(s)).keep.len()).sum::<usize>())
    });
    group.bench_with_input(BenchmarkId::new("paper", "3 digits"), &list[..3], |bch, l| {
        bch.iter(|| l.iter().map(|s| nishio_paper(&g, black_box(s)).len()).sum::<usize>())
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = bench_9x9, bench_16x16, bench_25x25
}
criterion_main!(benches);
