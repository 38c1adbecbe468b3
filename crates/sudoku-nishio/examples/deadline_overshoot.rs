//! How long after its deadline a solve or count returns, per shape and algorithm (empty grids
//! and random partial grids), with a deadline `T` ms after the start:
//! `cargo run --release -p pencilbox-sudoku-nishio --example deadline_overshoot -- [T]`.
//! Prints the status and `elapsed − T` (negative: finished before the deadline).

use pencilbox_core::{PuzzleKind, RunOptions};
use pencilbox_sudoku_nishio::board::{BlockShape, Sudoku};
use pencilbox_sudoku_nishio::generate::{partial_grid, Rng};
use pencilbox_sudoku_nishio::KIND;
use std::time::{Duration, Instant};

fn main() {
    let t_ms: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let shapes = [(3, 3), (4, 4), (5, 5), (5, 6), (5, 7)];
    for (a, b) in shapes {
        let block = BlockShape::new(a, b);
        let n = block.n();
        let partial = partial_grid(block, 60, &mut Rng::new(1)).to_line();
        let empty = Sudoku::new(block, vec![0; n * n])
            .map(|p| p.to_line())
            .unwrap_or_default();
        for (what, text) in [("empty", &empty), ("60% empty", &partial)] {
            for job in ["deduce", "backtrack", "count"] {
                let mut opts = RunOptions {
                    algorithm: Some(if job == "count" { "backtrack" } else { job }.into()),
                    settings: vec![("block".into(), format!("{a}x{b}"))],
                    ..RunOptions::default()
                };
                let start = Instant::now();
                opts.limits.deadline = Some(start + Duration::from_millis(t_ms));
                let status = if job == "count" {
                    let r = KIND.count(text, None, &opts).expect("parses");
                    if r.interrupted {
                        "interrupted".to_string()
                    } else {
                        format!("count {}", r.count)
                    }
                } else {
                    format!("{:?}", KIND.solve(text, &opts).expect("parses").status)
                };
                let over = start.elapsed().as_secs_f64() * 1000.0 - t_ms as f64;
                println!("{n}x{n} {what:9} {job:9} {status:12} elapsed - deadline = {over:+.1} ms");
            }
        }
    }
}
