//! Solves random partial grids (as made by the `partial_grid` example: a solved pattern grid
//! with a share of the cells emptied) through the plug-in, one per seed, and prints per-seed
//! times and a summary (median, max, timeouts):
//! `cargo run --release -p pencilbox-sudoku-nishio --example partial_bench -- 5x5 55 1 20 10 [backtrack|deduce]`
//! (block, percent emptied, first seed, number of seeds, timeout in seconds, algorithm).

use pencilbox_core::{PuzzleKind, RunOptions, Status};
use pencilbox_sudoku_nishio::board::BlockShape;
use pencilbox_sudoku_nishio::generate::{partial_grid, Rng};
use pencilbox_sudoku_nishio::KIND;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let block = args
        .get(1)
        .and_then(|s| BlockShape::parse(s))
        .unwrap_or(BlockShape::new(3, 3));
    let empty_pct: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    let first: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let count: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(10);
    let timeout: f64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let alg = args.get(6).cloned().unwrap_or_else(|| "backtrack".into());
    let mut times = Vec::new();
    let mut timeouts = 0;
    for seed in first..first + count {
        let p = partial_grid(block, empty_pct, &mut Rng::new(seed));
        let mut opts = RunOptions {
            algorithm: Some(alg.clone()),
            settings: vec![("block".into(), format!("{}x{}", block.height, block.width))],
            ..RunOptions::default()
        };
        let start = Instant::now();
        opts.limits.deadline = Some(start + Duration::from_secs_f64(timeout));
        let r = KIND.solve(&p.to_line(), &opts).expect("parses");
        let t = start.elapsed().as_secs_f64();
        println!("seed {seed}: {:?} in {:.3} s, {} nodes", r.status, t, r.stats.nodes);
        if r.status == Status::Timeout {
            timeouts += 1;
        } else {
            assert_eq!(r.status, Status::Solved);
        }
        times.push(t);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{} x{} {}% empty, {alg}: median {:.3} s, max {:.3} s, total {:.3} s, timeouts {timeouts}/{count} (limit {timeout} s)",
        block,
        count,
        empty_pct,
        times[times.len() / 2],
        times[times.len() - 1],
        times.iter().sum::<f64>(),
    );
}
