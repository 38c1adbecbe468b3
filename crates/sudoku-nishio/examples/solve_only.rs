//! Solve-only timing of Sudoku algorithms on batch files, as tdoku's benchmark times: every
//! puzzle is parsed first, then each algorithm solves the whole file (first solution) under a
//! clock, `--rounds` times, interleaved; the minimum per algorithm and file is printed.
//!
//! ```text
//! cargo run --release -p pencilbox-sudoku-nishio --example solve_only -- \
//!     --rounds 5 bits backtrack -- ../shared/data/sudoku/top95.txt
//! ```
//! Output: one line per file and algorithm: `FILE ALGORITHM PUZZLES US_PER_PUZZLE NODES`.
//! With `--each`, one line per puzzle instead, for the first algorithm: `INDEX US NODES` (the
//! puzzle's 1-based index among the file's puzzles, its minimum time over the rounds in µs, its
//! nodes), to find the heavy tails.

use pencilbox_core::plugin::{algorithm_of, Puzzle};
use pencilbox_core::{Limits, RunOptions};
use pencilbox_sudoku_nishio::Sudoku;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = 1usize;
    let mut each = false;
    let (mut algs, mut files, mut after) = (Vec::new(), Vec::new(), false);
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        if after {
            files.push(a);
        } else if a == "--" {
            after = true;
        } else if a == "--each" {
            each = true;
        } else if a == "--rounds" {
            rounds = it.next().and_then(|r| r.parse().ok()).unwrap_or_else(|| usage());
        } else {
            algs.push(a);
        }
    }
    if algs.is_empty() || files.is_empty() || rounds == 0 {
        usage();
    }
    let typed: Vec<_> = algs
        .iter()
        .map(|a| {
            let opts = RunOptions {
                algorithm: Some(a.clone()),
                ..RunOptions::default()
            };
            algorithm_of::<Sudoku>(&opts).unwrap_or_else(|e| fail(&e.to_string())).0
        })
        .collect();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| fail(&format!("{file}: {e}")));
        let puzzles: Vec<Sudoku> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|(k, l)| Sudoku::parse(l, None).unwrap_or_else(|e| fail(&format!("{file}:{}: {e}", k + 1))))
            .collect();
        if each {
            for (k, p) in puzzles.iter().enumerate() {
                let (mut best, mut nodes) = (f64::INFINITY, 0);
                for _ in 0..rounds {
                    let start = Instant::now();
                    let f = p
                        .search(typed[0], &RunOptions::default(), &Limits::first(), 1)
                        .unwrap_or_else(|e| fail(&e.to_string()));
                    best = best.min(start.elapsed().as_secs_f64() * 1e6);
                    assert_eq!(f.solutions.len(), 1, "{} did not solve {}", algs[0], p.to_line());
                    nodes = f.stats.nodes;
                }
                println!("{} {best:.3} {nodes}", k + 1);
            }
            continue;
        }
        let mut best = vec![(f64::INFINITY, 0u64); algs.len()];
        for _ in 0..rounds {
            for (k, alg) in typed.iter().enumerate() {
                let limits = Limits::first();
                let opts = RunOptions::default();
                let mut nodes = 0;
                let start = Instant::now();
                for p in &puzzles {
                    let f = p
                        .search(*alg, &opts, &limits, 1)
                        .unwrap_or_else(|e| fail(&e.to_string()));
                    assert_eq!(f.solutions.len(), 1, "{} did not solve {}", algs[k], p.to_line());
                    nodes += f.stats.nodes;
                }
                let us = start.elapsed().as_secs_f64() * 1e6 / puzzles.len() as f64;
                if us < best[k].0 {
                    best[k] = (us, nodes);
                }
            }
        }
        for (k, (us, nodes)) in best.iter().enumerate() {
            println!("{file} {} {} {us:.2} {nodes}", algs[k], puzzles.len());
        }
    }
}

fn usage() -> ! {
    fail("usage: solve_only [--rounds N] [--each] ALGORITHM... -- FILE...")
}

fn fail(msg: &str) -> ! {
    eprintln!("{msg}");
    std::process::exit(2)
}
