//! Writing results: stdout for results, stderr for diagnostics; a closed pipe is not an error.
//! The JSON objects themselves are [`pencilbox_registry::json`]'s, shared with the API.

use pencilbox_core::{Rendered, Stats, Status};
use std::io::Write;

/// Prints `text` and a newline to stdout. A broken pipe ends the process quietly with code 0.
pub fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{text}").and_then(|_| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("pencilbox: cannot write the output: {e}");
        std::process::exit(2);
    }
}

pub use pencilbox_registry::json::{count_json, count_json_report, snake_case, solve_json, stats_json, verify_json};

/// The text of a solution in the chosen format.
pub fn solution_text(s: &Rendered, pretty: bool) -> &str {
    if pretty {
        &s.pretty
    } else {
        &s.text
    }
}

/// Exit code of a solve status.
pub fn status_code(s: Status) -> u8 {
    match s {
        Status::Solved => 0,
        Status::Unsolvable => 1,
        Status::Timeout => 3,
    }
}

/// One line of statistics for stderr.
pub fn stats_line(stats: &Stats, notes: &[pencilbox_core::Note]) -> String {
    let mut s = format!(
        "nodes: {}  failures: {}  max depth: {}  time: {:.3} ms",
        stats.nodes,
        stats.failures,
        stats.max_depth,
        stats.elapsed_us as f64 / 1000.0
    );
    for n in notes {
        if !matches!(n.name.as_str(), "nodes" | "failures" | "max_depth" | "elapsed_us") {
            s.push_str(&format!("\n{}: {}", n.name, n.value));
        }
    }
    s
}

/// The engine's per-rule counters as a small table for stderr (`--stats`).
pub fn rules_table(rules: &[pencilbox_core::puzzle::RuleCount]) -> String {
    let mut s = format!(
        "{:<16} {:>10} {:>10} {:>10} {:>10}",
        "rule", "calls", "removed", "conflicts", "time (ms)"
    );
    for r in rules {
        s.push_str(&format!(
            "\n{:<16} {:>10} {:>10} {:>10} {:>10.3}",
            r.rule,
            r.stats.runs,
            r.stats.removed,
            r.stats.conflicts,
            r.stats.time_ns as f64 / 1e6
        ));
    }
    s
}
