//! Times an algorithm on fresh random planted instances (not unique in general), the check
//! that a solver is not tuned to its benchmark files (build with `--release`).
//!
//! ```text
//! cargo run --release -p pencilbox-pathpuzzle --example planted -- SIZE COUNT PERCENT [solve|count] [ALGORITHM] [SPEC]
//! ```
//! Generates `COUNT` planted `SIZE × SIZE` puzzles (seeds 9000, 9001, …) keeping `PERCENT` of
//! the clues, then solves each (or counts to 2 with `count`) with `ALGORITHM` (`fast`, the
//! default, `extend` or `paper`; `SPEC` sets `fast`'s rules or `extend`'s pruning) under a
//! 100 000-node limit, and prints the total and the worst time, and how many runs hit the limit.

use pencilbox_core::Limits;
use pencilbox_pathpuzzle::extend::Pruning;
use pencilbox_pathpuzzle::fast::Rules;
use pencilbox_pathpuzzle::solve::{count, solve, Algorithm};
use pencilbox_pathpuzzle::verify::is_solution;
use pencilbox_pathpuzzle::{generate, ClueDensity};
use std::time::Instant;

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    if a.len() < 3 {
        eprintln!("usage: planted SIZE COUNT PERCENT [solve|count] [fast|extend|paper] [SPEC]");
        std::process::exit(2);
    }
    let n: usize = a[0].parse().expect("SIZE");
    let runs: u64 = a[1].parse().expect("COUNT");
    let percent: u8 = a[2].parse().expect("PERCENT");
    let counting = a.get(3).is_some_and(|s| s == "count");
    let spec = a.get(5).map(String::as_str);
    let alg = match a.get(4).map(String::as_str).unwrap_or("fast") {
        "paper" => Algorithm::Paper,
        "extend" => Algorithm::Extend(spec.map_or(Pruning::DEFAULT, |s| Pruning::parse(s).expect("SPEC"))),
        "fast" => Algorithm::Fast(spec.map_or(Rules::DEFAULT, |s| Rules::parse(s).expect("SPEC"))),
        other => panic!("unknown algorithm {other}"),
    };
    let (mut limited, mut total, mut worst, mut worst_seed, mut nodes) = (0, 0.0, 0.0, 0, 0u64);
    for k in 0..runs {
        let seed = 9000 + k;
        let p = generate(n, n, ClueDensity::Percent(percent), false, seed).expect("a planted puzzle");
        let limits = Limits {
            node_limit: Some(100_000),
            ..Limits::default()
        };
        let t = Instant::now();
        let o = if counting {
            count(&p, &alg, Some(2), &limits)
        } else {
            solve(&p, &alg, &limits)
        };
        let dt = t.elapsed().as_secs_f64() * 1e3;
        assert!(o.solutions.iter().all(|s| is_solution(&p, s)));
        if o.stop.is_interrupted() {
            limited += 1;
        } else {
            assert!(
                !o.solutions.is_empty(),
                "a planted puzzle reported unsolvable (seed {seed})"
            );
        }
        total += dt;
        nodes += o.stats.nodes;
        if dt > worst {
            (worst, worst_seed) = (dt, seed);
        }
    }
    println!(
        "{n}x{n}, {percent}% clues, {} {}: {runs} runs, total {total:.1} ms, worst {worst:.2} ms (seed {worst_seed}), {nodes} nodes, {limited} hit the node limit",
        alg.name(),
        if counting { "count to 2" } else { "solve" },
    );
}
