//! Times `generate path` (unique puzzles) over several seeds per size, and measures how often a
//! random path's complete clues are unique (why the generator shrinks its paths). Build with
//! `--release`; numbers go to BENCHMARKS.md ("Path generation").
//!
//! ```text
//! cargo run --release -p pencilbox-pathpuzzle --example generate_bench -- [SEEDS] [PERCENT] [SIZE...]
//! cargo run --release -p pencilbox-pathpuzzle --example generate_bench -- rates SIZE PATHS
//! ```
//! The first form generates `SEEDS` (default 5) unique puzzles per size (default 10, 15, 20;
//! seeds 1, 2, …, 20 seeds tried each as the CLI does) keeping at most `PERCENT` % of the clues
//! (default 100), and prints per size the mean and worst time, the mean path length and the
//! clues kept. Every puzzle is re-checked for uniqueness without limits. The second form grows
//! `PATHS` random paths per target length (8 % to 80 % of a `SIZE × SIZE` grid) and prints how
//! many have unique complete clues (checked within 20 000 nodes).

use pencilbox_core::{Limits, Shape};
use pencilbox_pathpuzzle::generate::{generate_trying, puzzle_from_path, random_path, SplitMix64};
use pencilbox_pathpuzzle::solve::{count, is_unique, Algorithm};
use pencilbox_pathpuzzle::ClueDensity;
use std::time::Instant;

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    if a.first().map(String::as_str) == Some("rates") {
        let n: usize = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(15);
        let paths: usize = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
        rates(n, paths);
        return;
    }
    let seeds: u64 = a.first().and_then(|s| s.parse().ok()).unwrap_or(5);
    let percent: u8 = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let mut sizes: Vec<usize> = a.iter().skip(2).filter_map(|s| s.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![10, 15, 20];
    }
    let density = if percent >= 100 {
        ClueDensity::Complete
    } else {
        ClueDensity::Percent(percent)
    };
    println!("size   seeds  mean ms  worst ms  mean path  mean clues  failed");
    for n in sizes {
        let (mut total, mut worst, mut len, mut clues, mut failed, mut made) = (0.0, 0.0f64, 0, 0, 0, 0);
        for seed in 1..=seeds {
            let t = Instant::now();
            let got = generate_trying(n, n, density, true, seed * 1000, 20);
            let ms = t.elapsed().as_secs_f64() * 1e3;
            total += ms;
            worst = worst.max(ms);
            match got {
                Ok((p, _)) => {
                    assert_eq!(is_unique(&p, &Limits::default()), Some(true), "{n}x{n} seed {seed}");
                    let sol =
                        &pencilbox_pathpuzzle::solve::solve(&p, &Algorithm::default(), &Limits::default()).solutions[0];
                    len += sol.as_slice().iter().filter(|a| **a != Default::default()).count();
                    clues += p.row_clues().iter().chain(p.col_clues()).flatten().count();
                    made += 1;
                }
                Err(_) => failed += 1,
            }
        }
        let per = |x: usize| x as f64 / made.max(1) as f64;
        println!(
            "{:<6} {:>5}  {:>7.0}  {:>8.0}  {:>9.1}  {:>10.1}  {:>6}",
            format!("{n}x{n}"),
            seeds,
            total / seeds as f64,
            worst,
            per(len),
            per(clues),
            failed
        );
    }
}

fn rates(n: usize, paths: usize) {
    let shape = Shape::new(n, n);
    let limits = Limits {
        node_limit: Some(20_000),
        ..Limits::default()
    };
    println!("{n}x{n}: target length, paths grown, unique, not unique, undecided");
    for percent in [8, 12, 16, 25, 40, 60, 80] {
        let mut rng = SplitMix64::new(percent as u64);
        let (mut grown, mut unique, mut multi, mut open) = (0, 0, 0, 0);
        for _ in 0..paths {
            let Some(path) = random_path(shape, (n * n * percent / 100).max(2), &mut rng) else {
                continue;
            };
            grown += 1;
            let p = puzzle_from_path(shape, &path).expect("a path gives a puzzle");
            let o = count(&p, &Algorithm::default(), Some(2), &limits);
            match (o.stop.is_interrupted(), o.count) {
                (true, _) => open += 1,
                (false, 1) => unique += 1,
                _ => multi += 1,
            }
        }
        println!("{percent:>3} %  {grown:>5}  {unique:>5}  {multi:>5}  {open:>5}");
    }
}
