//! The JSON objects of every result: what `pencilbox … --format json` prints, what the server's
//! API answers ([`crate::api`]) and what the browser build returns, made in one place so that
//! the three stay byte-identical.

use pencilbox_core::human::{self, ExplainOptions, ExplainStatus, Explanation, HintLevel};
use pencilbox_core::setter::{ClueReport, ForcedReport, RedundantReport, SuggestReport};
use pencilbox_core::{BigUint, CountReport, PuzzleError, PuzzleKind, RunOptions, SolveReport, Stats, VerifyReport};
use serde_json::{json, Value};

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

/// The JSON of an explanation.
pub fn explanation_json(puzzle: &str, x: &Explanation) -> Value {
    let mut v = serde_json::to_value(x).unwrap_or(Value::Null);
    v["puzzle"] = json!(puzzle);
    v
}

/// The hint of `text` (from the player's `entries`) at `level`, as `pencilbox hint --format
/// json` prints it: the hint's fields, or `{"cells":[],"text":null,"status","message",
/// "wrong"?}` when there is none; with whether there was one and the explanation's status.
/// The command line, the API (`/api/hint`) and the Python package share it.
pub fn hint_json(
    kind: &dyn PuzzleKind,
    text: &str,
    entries: Option<&str>,
    opts: &RunOptions,
    level: HintLevel,
) -> Result<(Value, bool, ExplainStatus), PuzzleError> {
    let eo = ExplainOptions {
        limits: opts.limits.clone(),
        ..ExplainOptions::default()
    };
    let x = kind.explain(text, entries, opts, &eo)?;
    Ok(match human::hint(&x, level) {
        Some(h) => {
            let mut v = serde_json::to_value(&h).unwrap_or(Value::Null);
            v["puzzle"] = json!(kind.name());
            (v, true, x.status)
        }
        None => (no_hint_json(kind.name(), level, &x, &no_hint_text(&x)), false, x.status),
    })
}

/// Why there is no hint, with the notes of a position without solutions (the wrong entries).
pub fn no_hint_text(x: &Explanation) -> String {
    let mut text = no_hint_message(x.status).to_string();
    if x.status == ExplainStatus::NoSolution {
        for n in &x.notes {
            text.push_str("; ");
            text.push_str(n);
        }
    }
    text
}

/// The JSON answer when there is no hint: the status, the message and the wrong entries.
pub fn no_hint_json(puzzle: &str, level: HintLevel, x: &Explanation, message: &str) -> Value {
    let mut v =
        json!({"puzzle": puzzle, "level": level, "cells": [], "text": null, "status": x.status, "message": message});
    if !x.wrong.is_empty() {
        v["wrong"] = json!(x.wrong);
    }
    v
}

/// Why there is no hint.
pub fn no_hint_message(s: ExplainStatus) -> &'static str {
    match s {
        ExplainStatus::Solved => "nothing left to do: every cell is decided",
        ExplainStatus::Stalled => "no rule applies here",
        ExplainStatus::NoSolution => "the grid has no solution from here (an entry may break a rule)",
        ExplainStatus::Timeout => "the time limit was reached before a step was found",
    }
}

/// The JSON object of a `forced` run.
pub fn forced_json(puzzle: &str, r: &ForcedReport) -> Value {
    let mut stats = stats_json(&r.stats, &[]);
    stats["searches"] = json!(r.searches);
    let mut v = json!({
        "puzzle": puzzle,
        "status": r.solutions,
        "complete": r.complete,
        "places": r.places,
        "forced": r.forced,
        "undecided": r.undecided,
        "stats": stats,
    });
    if let Some(reason) = &r.reason {
        v["reason"] = json!(reason);
    }
    v
}

fn clue_json(c: &ClueReport) -> Value {
    json!({"at": c.at, "value": c.value})
}

/// The JSON object of `count --suggest`.
pub fn suggest_json(puzzle: &str, r: &SuggestReport) -> Value {
    let mut v = json!({
        "puzzle": puzzle,
        "count": count_json(&r.count),
        "complete": r.complete,
        "differences": r.differences,
        "tried": r.tried,
        "interrupted": r.interrupted,
    });
    if let Some(c) = &r.clue {
        v["clue"] = clue_json(c);
        v["clue"]["puzzle"] = json!(c.puzzle);
    }
    if let Some(n) = &r.count_after {
        v["count_after"] = count_json(n);
        v["complete_after"] = json!(r.complete_after);
    }
    v
}

/// The JSON object of `count --redundant`.
pub fn redundant_json(puzzle: &str, r: &RedundantReport) -> Value {
    json!({
        "puzzle": puzzle,
        "count": count_json(&r.count),
        "complete": r.complete,
        "clues": r.clues,
        "checked": r.checked,
        "redundant": r.redundant.iter().map(clue_json).collect::<Vec<_>>(),
        "interrupted": r.interrupted,
    })
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
