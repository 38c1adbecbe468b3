//! Measures `paper` against `fast` on puzzle files, in process (build with `--release`).
//!
//! ```text
//! cargo run --release -p pencilbox-pathpuzzle --example measure -- [--limit-ms N] [--prune SPEC] [--count] FILE_OR_DIR...
//! ```
//! For each file: nodes and time of both algorithms (a solve, or a full count with `--count`),
//! then the totals and the time ratio. `paper` runs under the time limit (default 10 s) and is
//! reported as `> limit` when it hits it; `fast` runs without a limit. Times are the best of
//! `--reps` runs (default 5).

use pencilbox_core::{Limits, StopReason};
use pencilbox_pathpuzzle::fast::Pruning;
use pencilbox_pathpuzzle::solve::{count, solve, Algorithm, Outcome};
use pencilbox_pathpuzzle::PathPuzzle;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn files(args: &[String]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for a in args {
        let p = PathBuf::from(a);
        if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(&p)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|f| f.extension().is_some_and(|e| e == "txt"))
                .collect();
            v.sort();
            out.extend(v);
        } else {
            out.push(p);
        }
    }
    out
}

/// Runs `alg` `reps` times and returns the last outcome and the best wall time.
fn timed(p: &PathPuzzle, alg: &Algorithm, counting: bool, limit: Duration, reps: usize) -> (Outcome, Duration) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..reps {
        let limits = Limits {
            deadline: Some(Instant::now() + limit),
            ..Limits::default()
        };
        let t = Instant::now();
        let o = if counting {
            count(p, alg, None, &limits)
        } else {
            solve(p, alg, &limits)
        };
        best = best.min(t.elapsed());
        let stop = o.stop;
        last = Some(o);
        if stop == StopReason::Deadline {
            break;
        }
    }
    (last.expect("at least one repetition"), best)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut limit = Duration::from_secs(10);
    let mut rules = Pruning::DEFAULT;
    let mut counting = false;
    let mut reps = 5;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--limit-ms" => {
                limit = Duration::from_millis(args[i + 1].parse().expect("--limit-ms N"));
                args.drain(i..i + 2);
            }
            "--prune" => {
                rules = Pruning::parse(&args[i + 1]).expect("--prune SPEC");
                args.drain(i..i + 2);
            }
            "--reps" => {
                reps = args[i + 1].parse().expect("--reps N");
                args.drain(i..i + 2);
            }
            "--count" => {
                counting = true;
                args.remove(i);
            }
            _ => i += 1,
        }
    }
    println!(
        "{:<28} {:>12} {:>12} {:>12} {:>12} {:>8}",
        "file", "paper nodes", "paper ms", "fast nodes", "fast ms", "ratio"
    );
    let (mut tp, mut tf) = (Duration::ZERO, Duration::ZERO);
    let (mut np, mut nf) = (0u64, 0u64);
    let mut paper_timeouts = 0;
    for f in files(&args) {
        let text = std::fs::read_to_string(&f).expect("readable file");
        let p = match PathPuzzle::parse(&text) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{}:{e}", f.display());
                continue;
            }
        };
        let (op, dp) = timed(&p, &Algorithm::Paper, counting, limit, reps);
        let (of, df) = timed(&p, &Algorithm::Fast(rules), counting, Duration::from_secs(600), reps);
        let paper_done = op.stop != StopReason::Deadline;
        if paper_done && of.stop != StopReason::Deadline {
            assert_eq!(op.solutions.first(), of.solutions.first(), "{}", f.display());
            assert_eq!(op.count, of.count, "{}", f.display());
        }
        if !paper_done {
            paper_timeouts += 1;
        }
        tp += dp;
        tf += df;
        np += op.stats.nodes;
        nf += of.stats.nodes;
        let pms = if paper_done {
            format!("{:.3}", dp.as_secs_f64() * 1e3)
        } else {
            format!("> {}", limit.as_millis())
        };
        println!(
            "{:<28} {:>12} {:>12} {:>12} {:>12.3} {:>8.1}",
            f.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            op.stats.nodes,
            pms,
            of.stats.nodes,
            df.as_secs_f64() * 1e3,
            dp.as_secs_f64() / df.as_secs_f64().max(1e-9)
        );
    }
    println!(
        "{:<28} {:>12} {:>12.3} {:>12} {:>12.3} {:>8.1}   (paper hit the limit on {paper_timeouts} files)",
        "TOTAL",
        np,
        tp.as_secs_f64() * 1e3,
        nf,
        tf.as_secs_f64() * 1e3,
        tp.as_secs_f64() / tf.as_secs_f64().max(1e-9)
    );
}
