//! Writing results: stdout for results, stderr for diagnostics; a closed pipe is not an error.

use pencilbox_core::{BigUint, CountReport, Rendered, SolveReport, Stats, Status, VerifyReport};
use serde_json::{json, Value};
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

/// A big count as a JSON number when it fits in `u64`, else as a decimal string.
pub fn count_json(n: &BigUint) -> Value {
    match u64::try_from(n) {
        Ok(v) => json!(v),
        Err(_) => json!(n.to_string()),
    }
}

/// `{"nodes":..,"failures":..,"max_depth":..,"elapsed_us":..}` plus the puzzle's notes.
///
/// Notes never replace the driver's counters; a note whose value is a whole number that fits
/// in `u64` becomes a JSON number, anything else (big bounds, lists) stays a string. A note's
/// name becomes a snake_case key (`refuted by colours` → `refuted_by_colours`), as every other
/// key is.
pub fn stats_json(stats: &Stats, notes: &[pencilbox_core::Note]) -> Value {
    let mut v = serde_json::to_value(stats).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        for n in notes {
            let key = snake_case(&n.name);
            if m.contains_key(&key) {
                continue;
            }
            let value = n.value.parse::<u64>().map_or_else(|_| json!(n.value), |x| json!(x));
            m.insert(key, value);
        }
    }
    v
}

/// `name` in lower case with every run of other characters than letters and digits one `_`.
pub fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for ch in name.chars() {
        if ch.is_alphanumeric() {
            out.extend(ch.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    out
}

/// The JSON object of a solve.
pub fn solve_json(puzzle: &str, r: &SolveReport) -> Value {
    let mut v = json!({
        "puzzle": puzzle,
        "status": r.status,
        "algorithm": r.algorithm,
        "solution": r.solution.as_ref().map(|s| s.json.clone()),
        "stats": stats_json(&r.stats, &r.notes),
    });
    if let Some(reason) = &r.reason {
        v["reason"] = json!(reason);
    }
    v
}

/// The JSON object of a count.
pub fn count_json_report(puzzle: &str, r: &CountReport) -> Value {
    let mut v = json!({
        "puzzle": puzzle,
        "count": count_json(&r.count),
        "complete": r.complete,
        "algorithm": r.algorithm,
        "stats": stats_json(&r.stats, &r.notes),
    });
    if r.witness.len() >= 2 {
        v["witness"] = Value::Array(r.witness.iter().map(|w| w.json.clone()).collect());
        v["differences"] = json!(r.differences);
    }
    if let Some(reason) = &r.reason {
        v["reason"] = json!(reason);
    }
    v
}

/// The JSON object of a verification.
pub fn verify_json(puzzle: &str, r: &VerifyReport) -> Value {
    json!({"puzzle": puzzle, "valid": r.is_valid(), "violations": r.violations})
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use pencilbox_core::Note;

    #[test]
    fn note_names_become_snake_case_keys() {
        assert_eq!(snake_case("refuted by colours"), "refuted_by_colours");
        assert_eq!(snake_case("theorem2_bound"), "theorem2_bound");
        assert_eq!(snake_case("Cut by (parity) "), "cut_by_parity");
        let v = stats_json(&Stats::default(), &[Note::new("searches raced", "2")]);
        assert_eq!(v["searches_raced"], 2);
        assert!(v.get("searches raced").is_none());
    }

    #[test]
    fn notes_never_replace_the_search_counters() {
        let stats = Stats {
            nodes: 7,
            ..Stats::default()
        };
        let v = stats_json(
            &stats,
            &[
                Note::new("nodes", "3"),
                Note::new("bound", "19"),
                Note::new("big", "1e99"),
            ],
        );
        assert_eq!(v["nodes"], 7);
        assert_eq!(v["bound"], 19);
        assert_eq!(v["big"], "1e99");
    }
}
