//! Measures the Path algorithms against each other on puzzle files, in process (build with
//! `--release`).
//!
//! ```text
//! cargo run --release -p pencilbox-pathpuzzle --example measure -- [--algorithms paper,extend,fast]
//!     [--limit-ms N] [--prune SPEC] [--rules SPEC] [--reps N] [--count] FILE_OR_DIR...
//! ```
//! For each file: nodes and time of each algorithm (default `paper,fast`; a solve, or a full
//! count with `--count`), then the totals and the time ratio of the first algorithm to the last.
//! Every algorithm runs under the time limit (default 10 s) and is reported as `> limit` when it
//! hits it. Times are the best of `--reps` runs (default 5). `--prune` sets `extend`'s rules,
//! `--rules` `fast`'s.

use pencilbox_core::{Limits, StopReason};
use pencilbox_pathpuzzle::extend::Pruning;
use pencilbox_pathpuzzle::fast::Rules;
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
    let mut prune = Pruning::DEFAULT;
    let mut rules = Rules::DEFAULT;
    let mut names = vec!["paper".to_string(), "fast".to_string()];
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
                prune = Pruning::parse(&args[i + 1]).expect("--prune SPEC");
                args.drain(i..i + 2);
            }
            "--rules" => {
                rules = Rules::parse(&args[i + 1]).expect("--rules SPEC");
                args.drain(i..i + 2);
            }
            "--algorithms" => {
                names = args[i + 1].split(',').map(String::from).collect();
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
    let algs: Vec<Algorithm> = names
        .iter()
        .map(|n| match n.as_str() {
            "paper" => Algorithm::Paper,
            "extend" => Algorithm::Extend(prune),
            "fast" => Algorithm::Fast(rules),
            other => panic!("unknown algorithm {other} (paper, extend, fast)"),
        })
        .collect();
    let mut header = format!("{:<28}", "file");
    for n in &names {
        header += &format!(" {:>12} {:>10}", format!("{n} nodes"), format!("{n} ms"));
    }
    println!("{header} {:>8}", "ratio");
    let mut total_time = vec![Duration::ZERO; algs.len()];
    let mut total_nodes = vec![0u64; algs.len()];
    let mut timeouts = vec![0usize; algs.len()];
    let seconds = |d: Duration| d.as_secs_f64().max(1e-9);
    for f in files(&args) {
        let text = std::fs::read_to_string(&f).expect("readable file");
        let p = match PathPuzzle::parse(&text) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{}:{e}", f.display());
                continue;
            }
        };
        let mut line = format!(
            "{:<28}",
            f.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        );
        let mut runs = Vec::new();
        for (k, alg) in algs.iter().enumerate() {
            let (o, d) = timed(&p, alg, counting, limit, reps);
            let done = o.stop != StopReason::Deadline;
            if done {
                line += &format!(" {:>12} {:>10.4}", o.stats.nodes, d.as_secs_f64() * 1e3);
            } else {
                timeouts[k] += 1;
                line += &format!(" {:>12} {:>10}", o.stats.nodes, format!("> {}", limit.as_millis()));
            }
            total_time[k] += d;
            total_nodes[k] += o.stats.nodes;
            runs.push((o, d, done));
        }
        // Every finished run agrees on solvability (and, counting, on the count).
        let finished: Vec<&(Outcome, Duration, bool)> = runs.iter().filter(|r| r.2).collect();
        for w in finished.windows(2) {
            assert_eq!(
                w[0].0.solutions.is_empty(),
                w[1].0.solutions.is_empty(),
                "{}",
                f.display()
            );
            if counting {
                assert_eq!(w[0].0.count, w[1].0.count, "{}", f.display());
            }
        }
        let (first, last) = (&runs[0], &runs[runs.len() - 1]);
        println!("{line} {:>8.1}", seconds(first.1) / seconds(last.1));
    }
    let mut line = format!("{:<28}", "TOTAL");
    for k in 0..algs.len() {
        line += &format!(" {:>12} {:>10.3}", total_nodes[k], total_time[k].as_secs_f64() * 1e3);
    }
    let ratio = seconds(total_time[0]) / seconds(total_time[algs.len() - 1]);
    println!(
        "{line} {ratio:>8.1}   (hit the {} ms limit: {:?})",
        limit.as_millis(),
        timeouts
    );
}
