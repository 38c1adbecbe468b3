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
    if let Some(position) = &r.position {
        v["position"] = json!(position);
    }
    if !r.rules.is_empty() {
        v["rules"] = json!(r.rules);
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
    v["rating"] = rating_json(puzzle, x);
    v
}

/// The rating of an explanation as JSON: core's fields, and for Sudoku `"se"`, the Sudoku
/// Explainer–like number ([`pencilbox_sudoku_nishio::explain::se_rating`]).
pub fn rating_json(puzzle: &str, x: &Explanation) -> Value {
    let mut v = serde_json::to_value(&x.rating).unwrap_or(Value::Null);
    if let Some(se) = se_like(puzzle, x) {
        v["se"] = json!(se);
    }
    v
}

/// The rating on a family's published scale, where it has one: Sudoku's Sudoku
/// Explainer–like number (docs/sudoku.md); `None` for the other families.
pub fn se_like(puzzle: &str, x: &Explanation) -> Option<f64> {
    (puzzle == "sudoku").then(|| pencilbox_sudoku_nishio::explain::se_rating(x))
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
        None => (no_hint_json_graded(kind.name(), level, &x), false, x.status),
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

/// A wrong entry as a person reads it: `r1c1 = 5` (a number), `r2c3-r2c4 line`, `r1c2 unused`.
fn entry_text(f: &human::Fact) -> String {
    if f.value.parse::<i64>().is_ok() {
        format!("{} = {}", f.cell, f.value)
    } else {
        format!("{} {}", f.cell, f.value)
    }
}

/// Why there is no hint, graded as the hint is: when the player's entries leave no solution
/// and the entries at fault are known ([`Explanation::wrong`]), `nudge` only says that some
/// of *your entries* are wrong, `rule` says where (the cells), `answer` names them and says to
/// take them back. Returns the message and the places to show (none for `nudge`).
pub fn no_hint_graded(x: &Explanation, level: HintLevel) -> (String, Vec<String>) {
    if x.status != ExplainStatus::NoSolution {
        return (no_hint_text(x), Vec::new());
    }
    let k = x.wrong.len();
    if k == 0 {
        let mut text = "your entries leave the puzzle no solution: one of them breaks a rule (press Check)".to_string();
        for n in &x.notes {
            if !n.contains("not in the puzzle's only solution") {
                text.push_str("; ");
                text.push_str(n);
            }
        }
        return (text, Vec::new());
    }
    let places: Vec<String> = x.wrong.iter().map(|f| f.cell.clone()).collect();
    match level {
        HintLevel::Nudge => (
            if k == 1 {
                "your entries leave the puzzle no solution: one of your entries is wrong".to_string()
            } else {
                format!("your entries leave the puzzle no solution: {k} of your entries are wrong")
            },
            Vec::new(),
        ),
        HintLevel::Rule => (
            format!(
                "your entries leave the puzzle no solution: look at your {} at {}{}",
                if k == 1 { "entry" } else { "entries" },
                places.join(", "),
                broken(x)
            ),
            places,
        ),
        HintLevel::Answer => {
            // Each entry with what it breaks by itself, when known; else the contradiction of
            // the whole position.
            let each = x.breaks.len() == k && x.breaks.iter().any(Option::is_some);
            let list: Vec<String> = x
                .wrong
                .iter()
                .enumerate()
                .map(|(i, f)| match x.breaks.get(i) {
                    Some(Some(c)) if each => format!("{} (with it alone, {})", entry_text(f), c.text),
                    _ => entry_text(f),
                })
                .collect();
            let whole = match &x.contradiction {
                Some(c) if !each => format!(" (with your entries, {})", c.text),
                _ => String::new(),
            };
            (
                format!(
                    "your entries leave the puzzle no solution: your {} {} not in the puzzle's only solution: {}{whole}; take {} back",
                    if k == 1 { "entry" } else { "entries" },
                    if k == 1 { "is" } else { "are" },
                    list.join(", "),
                    if k == 1 { "it" } else { "them" }
                ),
                places,
            )
        }
    }
}

/// `: with it, exclusion fails`, or per entry `: r2c1 breaks exclusion, r4c4 breaks pointing`:
/// the rule each wrong entry breaks by itself on the clues ([`Explanation::breaks`]), else the
/// rule the rules found broken with all the entries (names the rule, not yet why: the answer
/// level says why).
fn broken(x: &Explanation) -> String {
    let k = x.wrong.len();
    if x.breaks.len() == k && x.breaks.iter().any(Option::is_some) {
        if let [Some(c)] = x.breaks.as_slice() {
            return format!(": with it, {} fails", c.name);
        }
        let each: Vec<String> = x
            .wrong
            .iter()
            .zip(&x.breaks)
            .map(|(f, b)| match b {
                Some(c) => format!("{} breaks {}", f.cell, c.name),
                None => format!("{} breaks no rule at once", f.cell),
            })
            .collect();
        return format!(": {}", each.join(", "));
    }
    match &x.contradiction {
        Some(c) if x.wrong.len() == 1 => format!(": with it, {} fails", c.name),
        Some(c) => format!(": with them, {} fails", c.name),
        None => String::new(),
    }
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

/// The JSON answer when there is no hint, graded ([`no_hint_graded`]): the nudge keeps the
/// wrong entries to itself; the rule and the answer name them (`cells`, `wrong`).
pub fn no_hint_json_graded(puzzle: &str, level: HintLevel, x: &Explanation) -> Value {
    let (message, places) = no_hint_graded(x, level);
    let mut v = json!({"puzzle": puzzle, "level": level, "cells": places, "text": null, "status": x.status, "message": message});
    if !x.wrong.is_empty() && level != HintLevel::Nudge {
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
        ExplainStatus::Timeout => {
            "the time limit was reached before the next step was found and checked (a longer time limit may give one)"
        }
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
    json!({"at": c.at, "value": c.value.to_string()})
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

    /// A wrong entry: the three hint levels stay graded and speak of the player's entries.
    #[test]
    fn hints_on_a_wrong_position_are_graded_and_speak_of_your_entries() {
        let kind = crate::by_name("suguru").unwrap();
        let fig1 = "3 3\n0 3 0\n2 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n";
        let wrong = "4 0 0\n0 0 0\n0 0 0\n";
        let at = |level| {
            let (v, found, _) = hint_json(kind, fig1, Some(wrong), &RunOptions::default(), level).unwrap();
            assert!(!found);
            v
        };
        let (nudge, rule, answer) = (at(HintLevel::Nudge), at(HintLevel::Rule), at(HintLevel::Answer));
        let msg = |v: &Value| v["message"].as_str().unwrap().to_string();
        assert_eq!(
            msg(&nudge),
            "your entries leave the puzzle no solution: one of your entries is wrong"
        );
        assert_eq!(nudge["cells"], json!([]));
        assert!(nudge.get("wrong").is_none(), "{nudge}");
        assert_eq!(
            msg(&rule),
            "your entries leave the puzzle no solution: look at your entry at r1c1: with it, naked single fails"
        );
        assert_eq!(rule["cells"], json!(["r1c1"]));
        assert_eq!(
            msg(&answer),
            "your entries leave the puzzle no solution: your entry is not in the puzzle's only solution: r1c1 = 4 (with it alone, r3c2 has no value left (naked single: r3c1 = 1)); take it back"
        );
        assert_eq!(answer["wrong"], json!([{"cell": "r1c1", "value": "4"}]));
        for v in [&nudge, &rule, &answer] {
            assert!(!msg(v).contains("given"), "{v}");
        }
    }

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
