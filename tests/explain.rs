//! End-to-end: `explain` and `hint` for every family. The key test runs `explain --no-guess`
//! on every unique puzzle under `examples/` and in `../shared/data` (the big Sudoku files
//! sampled) and checks that it solves or stops with `stalled`, and that every fact of every
//! step holds in the unique solution.

use pencilbox_core::human::{ExplainOptions, ExplainStatus, Explanation};
use pencilbox_core::{PuzzleKind, Render, RunOptions};
use pencilbox_tests::{root, run, run_with_stdin, shared_data, temp_file};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The facts of a solution: `place → value` for grid families; for Path, every cell
/// (`used`/`unused`) and every link between path neighbours (`line`; absent links are blank).
struct Truth {
    values: HashMap<String, String>,
    /// Path: the links of the path (`r1c1-r1c2`, first cell first in row-major order).
    lines: Option<HashSet<String>>,
}

impl Truth {
    fn holds(&self, cell: &str, value: &str) -> bool {
        if let Some(lines) = &self.lines {
            if cell.contains('-') {
                return lines.contains(cell) == (value == "line");
            }
        }
        self.values.get(cell).map(String::as_str) == Some(value)
    }
}

fn name(r: usize, c: usize) -> String {
    format!("r{}c{}", r + 1, c + 1)
}

/// The truth of a solution rendered as the family's answer text.
fn truth(family: &str, instance: &str, solution: &str) -> Truth {
    let mut values = HashMap::new();
    match family {
        "sudoku" => {
            let cells: Vec<u32> = solution
                .trim()
                .chars()
                .map(|ch| ch.to_digit(36).expect("a symbol"))
                .collect();
            let n = (cells.len() as f64).sqrt() as usize;
            for (i, v) in cells.iter().enumerate() {
                values.insert(name(i / n, i % n), v.to_string());
            }
            Truth { values, lines: None }
        }
        "path" => {
            let nums: Vec<usize> = instance
                .split_whitespace()
                .take(6)
                .map(|t| t.parse().expect("a number"))
                .collect();
            let door_b = (nums[4] - 1, nums[5] - 1);
            // The grid: the last `m` lines of letters of the solution text.
            let rows: Vec<Vec<char>> = solution
                .lines()
                .map(|l| l.split_whitespace().collect::<String>())
                .filter(|l| !l.is_empty() && l.chars().all(|c| "0dlru".contains(c)))
                .map(|l| l.chars().collect())
                .collect();
            let mut lines = HashSet::new();
            for (r, row) in rows.iter().enumerate() {
                for (c, &ch) in row.iter().enumerate() {
                    let used = ch != '0';
                    values.insert(name(r, c), if used { "used" } else { "unused" }.to_string());
                    if !used || (r, c) == door_b {
                        continue;
                    }
                    let (nr, nc) = match ch {
                        'd' => (r + 1, c),
                        'u' => (r.wrapping_sub(1), c),
                        'l' => (r, c.wrapping_sub(1)),
                        _ => (r, c + 1),
                    };
                    let (a, b) = if (nr, nc) < (r, c) {
                        ((nr, nc), (r, c))
                    } else {
                        ((r, c), (nr, nc))
                    };
                    lines.insert(format!("{}-{}", name(a.0, a.1), name(b.0, b.1)));
                }
            }
            Truth {
                values,
                lines: Some(lines),
            }
        }
        _ => {
            for (r, line) in solution.lines().filter(|l| !l.trim().is_empty()).enumerate() {
                for (c, v) in line.split_whitespace().enumerate() {
                    values.insert(name(r, c), v.to_string());
                }
            }
            Truth { values, lines: None }
        }
    }
}

/// Checks one instance; `false` when it is not unique (skipped).
fn check_instance(kind: &dyn PuzzleKind, text: &str, what: &str) -> Option<ExplainStatus> {
    let opts = RunOptions {
        render: Render::Text,
        notes: false,
        ..RunOptions::default()
    };
    let count = kind.count(text, Some(2), &opts).expect(what);
    if count.count != 1u32.into() {
        return None;
    }
    let solved = kind.solve(text, &opts).expect(what);
    let solution = solved.solution.expect("a unique puzzle has a solution").text;
    let t = truth(kind.name(), text, &solution);
    let eo = ExplainOptions {
        no_guess: true,
        ..ExplainOptions::default()
    };
    let x: Explanation = kind.explain(text, None, &opts, &eo).expect(what);
    assert!(
        matches!(x.status, ExplainStatus::Solved | ExplainStatus::Stalled),
        "{what}: {:?}",
        x.status
    );
    for (i, s) in x.steps.iter().enumerate() {
        assert!(!s.guess, "{what}: step {} is a guess under --no-guess", i + 1);
        for f in &s.placed {
            assert!(
                t.holds(&f.cell, &f.value),
                "{what}: step {} ({}) places {} = {} wrongly: {}",
                i + 1,
                s.name,
                f.cell,
                f.value,
                s.text
            );
        }
        for f in &s.removed {
            assert!(
                !t.holds(&f.cell, &f.value),
                "{what}: step {} ({}) removes {} = {}, the solution's: {}",
                i + 1,
                s.name,
                f.cell,
                f.value,
                s.text
            );
        }
    }
    if x.status == ExplainStatus::Solved {
        // Every place is decided by some step or was given: the placed facts cover the rest.
        let placed: usize = x.steps.iter().map(|s| s.placed.len()).sum();
        assert!(placed > 0 || x.steps.is_empty(), "{what}");
    }
    Some(x.status)
}

/// The puzzle files under `dir` (recursively) with the given extension.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Explains every unique instance of the files (every `stride`-th line of a batch file).
fn check_files(family: &str, paths: &[PathBuf], stride: usize) -> (usize, usize) {
    let kind = pencilbox_cli::registry::by_name(family).expect("registered");
    let (mut solved, mut stalled) = (0, 0);
    for p in paths {
        let text = std::fs::read_to_string(p).expect("readable");
        for inst in kind.instances(&text).into_iter().step_by(stride) {
            let what = format!("{}:{}", p.display(), inst.first_line);
            match check_instance(kind, inst.text, &what) {
                Some(ExplainStatus::Solved) => solved += 1,
                Some(_) => stalled += 1,
                None => {}
            }
        }
    }
    (solved, stalled)
}

#[test]
fn explain_no_guess_is_true_in_the_unique_solution_for_every_bundled_example() {
    let ex = root().join("examples");
    let (s, t) = check_files("suguru", &files(&ex.join("suguru"), "in"), 1);
    assert!(s >= 10, "suguru: {s} solved, {t} stalled");
    let (s, _) = check_files("path", &files(&ex.join("path"), "txt"), 1);
    assert!(s >= 5, "path: {s} solved");
    let (s, _) = check_files("ripple", &files(&ex.join("ripple"), "in"), 1);
    assert_eq!(s, 3, "ripple");
    let sudoku: Vec<PathBuf> = files(&ex.join("sudoku"), "txt")
        .into_iter()
        .filter(|p| !p.ends_with("25x25.txt"))
        .collect();
    let (s, t) = check_files("sudoku", &sudoku, 1);
    assert!(s + t >= 8, "sudoku: {s} solved, {t} stalled");
}

#[test]
fn explain_no_guess_is_true_in_the_unique_solution_on_the_shared_data() {
    if let Some(d) = shared_data("suguru") {
        let (s, t) = check_files("suguru", &files(&d, "in"), 1);
        println!("suguru: {s} solved, {t} stalled");
        assert!(s > 0);
    }
    if let Some(d) = shared_data("path") {
        let (s, t) = check_files("path", &files(&d, "txt"), 1);
        println!("path: {s} solved, {t} stalled");
        assert!(s > 0);
    }
    if let Some(d) = shared_data("sudoku") {
        let f = |n: &str| d.join(n);
        let (s, t) = check_files("sudoku", &[f("top95.txt"), f("hardest.txt"), f("eppstein-fig4.txt")], 3);
        let (s2, t2) = check_files("sudoku", &[f("sudoku17-first5000.txt")], 250);
        println!("sudoku: {} solved, {} stalled", s + s2, t + t2);
        assert!(s2 > 0);
    }
}

/// Mean rating of the puzzles a generator makes at one difficulty (seeds 1..=n).
fn mean_rating(family: &str, size: &str, difficulty: &str, n: u64) -> f64 {
    let mut sum = 0.0;
    for seed in 1..=n {
        let out = run(&[
            "generate",
            family,
            "--size",
            size,
            "--difficulty",
            difficulty,
            "--seed",
            &seed.to_string(),
        ]);
        out.code(0);
        let f = temp_file(&format!("{family}-{difficulty}-{seed}.txt"), out.stdout.as_bytes());
        let x = run(&["explain", "-f", "json", f.to_str().unwrap_or_default()]);
        sum += x.json()["rating"]["score"].as_f64().expect("a score");
    }
    sum / n as f64
}

#[test]
fn ratings_rise_with_the_generators_difficulty() {
    for (family, size) in [("suguru", "6x6"), ("sudoku", "9x9")] {
        let r: Vec<f64> = ["easy", "medium", "hard"]
            .iter()
            .map(|d| mean_rating(family, size, d, 4))
            .collect();
        assert!(
            r[0] < r[1] && r[1] < r[2],
            "{family}: mean ratings easy/medium/hard {r:?}"
        );
    }
}

#[test]
fn hard_sudoku_sets_rate_above_sudoku17_on_average() {
    let Some(d) = shared_data("sudoku") else { return };
    let mean = |file: &str, stride: usize| {
        let text = std::fs::read_to_string(d.join(file)).expect("readable");
        let sample: String = text.lines().step_by(stride).map(|l| format!("{l}\n")).collect();
        let f = temp_file(&format!("rate-{file}"), sample.as_bytes());
        let out = run(&["explain", "--rating-only", "-f", "json", f.to_str().unwrap_or_default()]);
        let last = out.stdout.lines().last().unwrap_or_default().to_string();
        let v: serde_json::Value = serde_json::from_str(&last).expect("a summary line");
        v["summary"]["mean_rating"].as_f64().expect("a mean")
    };
    let easy = mean("sudoku17-first5000.txt", 100);
    let top95 = mean("top95.txt", 2);
    let hardest = mean("hardest.txt", 1);
    assert!(
        top95 > easy && hardest > easy,
        "sudoku17 {easy}, top95 {top95}, hardest {hardest}"
    );
}

#[test]
fn explain_prints_numbered_steps_a_status_and_a_rating() {
    let f = root().join("examples/suguru/example-6x6.in");
    let out = run(&["explain", f.to_str().unwrap_or_default()]);
    out.code(0);
    assert!(out.stdout.starts_with("1. "), "{}", out.stdout);
    assert!(out.stdout.contains("status: solved"));
    assert!(out.stdout.contains("rating: "));
}

#[test]
fn explain_json_has_the_documented_shape_for_every_family() {
    for (family, file) in [
        ("suguru", "examples/suguru/example-6x6.in"),
        ("path", "examples/path/example-6x6.txt"),
        ("sudoku", "examples/sudoku/9x9.txt"),
        ("ripple", "examples/ripple/example-6x6.in"),
    ] {
        let f = root().join(file);
        let out = run(&["explain", "-f", "json", f.to_str().unwrap_or_default()]);
        out.code(0);
        let v = out.json();
        assert_eq!(
            (v["puzzle"].as_str(), v["status"].as_str()),
            (Some(family), Some("solved"))
        );
        let step = &v["steps"][0];
        for key in ["rule", "level", "cells", "placed", "removed", "text", "guess"] {
            assert!(!step[key].is_null(), "{family}: {key} missing in {step}");
        }
        let cell = step["cells"][0].as_str().unwrap_or_default();
        assert!(cell.starts_with('r') && cell.contains('c'), "{family}: {cell}");
        assert!(v["rating"]["score"].as_f64().is_some_and(|s| s >= 1.0), "{family}");
        assert!(v["rating"]["hardest"]["name"].is_string(), "{family}");
    }
    // Path facts name links and cells.
    let f = root().join("examples/path/example-6x6.txt");
    let v = run(&["explain", "-f", "json", f.to_str().unwrap_or_default()])
        .json()
        .clone();
    let values: HashSet<String> = v["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["placed"].as_array().cloned().unwrap_or_default())
        .map(|f| f["value"].as_str().unwrap_or_default().to_string())
        .collect();
    for want in ["line", "blank", "used", "unused"] {
        assert!(values.contains(want), "{values:?}");
    }
}

#[test]
fn no_guess_stops_with_stalled_and_exit_1_and_guessing_finishes() {
    // No hints (two solutions): the rules cannot start.
    let open = b"1 4\n0 0 0 0\n1 1 2 2\n";
    let out = run_with_stdin(&["explain", "--no-guess", "-f", "json", "-"], open);
    out.code(1);
    assert_eq!(out.json()["status"], "stalled");
    let out = run_with_stdin(&["explain", "-f", "json", "-"], open);
    out.code(0);
    let v = out.json();
    assert_eq!(v["status"], "solved");
    assert_eq!(v["steps"][0]["guess"], true);
    assert_eq!(v["rating"]["hardest"]["rule"], "guess");
}

#[test]
fn explain_of_bad_input_is_one_line_and_exit_2() {
    let out = run_with_stdin(&["explain", "-p", "suguru", "-"], b"2 2\n0 x\n");
    out.code(2);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("<stdin>:2:"), "{}", out.stderr);
    let out = run_with_stdin(&["hint", "-p", "path", "-"], b"3 3\n9 9\n");
    out.code(2);
    let f = root().join("examples/suguru/example-6x6.in");
    run(&["hint", "--level", "loud", f.to_str().unwrap_or_default()]).code(2);
}

#[test]
fn hints_tell_where_then_which_rule_then_the_conclusion() {
    for file in [
        "examples/suguru/example-6x6.in",
        "examples/path/example-6x6.txt",
        "examples/sudoku/9x9.txt",
        "examples/ripple/example-6x6.in",
    ] {
        let f = root().join(file);
        let f = f.to_str().unwrap_or_default();
        let nudge = run(&["hint", "--level", "nudge", "-f", "json", f])
            .code(0)
            .json()
            .clone();
        assert!(nudge["rule"].is_null() && nudge["placed"].is_null(), "{file}: {nudge}");
        assert!(!nudge["cells"].as_array().expect("cells").is_empty());
        let rule = run(&["hint", "--level", "rule", "-f", "json", f])
            .code(0)
            .json()
            .clone();
        assert!(
            rule["rule"]["name"].is_string() && rule["placed"].is_null(),
            "{file}: {rule}"
        );
        let answer = run(&["hint", "--level", "answer", "-f", "json", f])
            .code(0)
            .json()
            .clone();
        // The answer is exactly one placement; the nudge's area holds it without naming it.
        let placed = answer["placed"].as_array().expect("placed");
        assert_eq!(placed.len(), 1, "{file}: {answer}");
        let target = placed[0]["cell"].as_str().expect("a cell");
        let area: Vec<&str> = nudge["cells"]
            .as_array()
            .expect("cells")
            .iter()
            .filter_map(|c| c.as_str())
            .collect();
        let first = target.split('-').next().unwrap_or(target);
        assert!(
            area.contains(&first),
            "{file}: {target} outside the nudge's area {area:?}"
        );
        assert!(area.len() > 1, "{file}: the nudge is an area, not a cell: {nudge}");
        assert!(
            !nudge["text"].as_str().unwrap_or("").contains(target),
            "{file}: {nudge}"
        );
        assert_eq!(
            nudge["cells"], rule["cells"],
            "{file}: the rule applies in the nudge's area"
        );
        let text = run(&["hint", "--level", "answer", f]).code(0).stdout.clone();
        assert!(text.contains(rule["rule"]["name"].as_str().unwrap_or("?")), "{text}");
    }
    // A solved grid has nothing left: exit 1 with a message.
    let solved = b"1 2\n1 2\n1 1\n";
    let out = run_with_stdin(&["hint", "-p", "suguru", "-"], solved);
    out.code(1);
    assert!(out.stdout.contains("nothing left"), "{}", out.stdout);
}

/// Every third entry of an answer grid kept, the others emptied (`0`, `.` for Sudoku's line):
/// a partial position that agrees with the solution. For Path every arrow is one drawn line.
fn every_third(answer: &str, sudoku: bool) -> String {
    if sudoku {
        let line = answer.trim();
        return line
            .chars()
            .enumerate()
            .map(|(i, ch)| if i % 3 == 0 { ch } else { '.' })
            .collect();
    }
    let mut k = 0;
    let rows: Vec<String> = answer
        .lines()
        .map(|l| {
            l.split_whitespace()
                .map(|t| {
                    k += 1;
                    if k % 3 == 0 {
                        t.to_string()
                    } else {
                        "0".to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    rows.join("\n") + "\n"
}

#[test]
fn hints_go_on_from_the_players_entries_and_name_a_wrong_one() {
    let six = |rows: [&str; 6]| rows.join("\n") + "\n";
    let blank = "0 0 0 0 0 0";
    // (puzzle, answer, a wrong position, the wrong fact)
    let cases = [
        (
            "examples/suguru/example-6x6.in",
            "examples/suguru/example-6x6.ans",
            six(["3 0 0 0 0 0", blank, blank, blank, blank, blank]),
            ("r1c1", "3"),
        ),
        (
            "examples/ripple/example-6x6.in",
            "examples/ripple/example-6x6.ans",
            six(["0 3 0 0 0 0", blank, blank, blank, blank, blank]),
            ("r1c2", "3"),
        ),
        (
            // Door A is r6c6 and its line goes left: a line up from it is wrong.
            "examples/path/example-6x6.txt",
            "examples/path/example-6x6.sol",
            six([blank, blank, blank, blank, blank, "0 0 0 0 0 u"]),
            ("r5c6-r6c6", "line"),
        ),
        (
            // A line from r1c1, which the solution leaves unused: without guesses the rules
            // stall before they see the contradiction.
            "examples/path/bench-10x10/partial-03.txt",
            "examples/path/bench-10x10/partial-03.sol",
            format!("r{}\n{}", " 0".repeat(9), "0 0 0 0 0 0 0 0 0 0\n".repeat(9)),
            ("r1c1-r1c2", "line"),
        ),
        (
            "examples/sudoku/9x9.txt",
            "",
            format!(".2{}\n", ".".repeat(79)),
            ("r1c2", "2"),
        ),
    ];
    for (puzzle, answer, wrong, (cell, value)) in cases {
        let file = root().join(puzzle);
        let file = file.to_str().unwrap_or_default();
        let text = std::fs::read_to_string(file).expect("the bundled example");
        let answer = if answer.is_empty() {
            run(&["solve", "-f", "text", file]).code(0).stdout.clone()
        } else {
            std::fs::read_to_string(root().join(answer)).expect("the bundled answer")
        };
        let grid: String = if puzzle.contains("path") {
            // The grid of the `.sol` file: its last `m` lines.
            let m: usize = text.split_whitespace().next().and_then(|t| t.parse().ok()).expect("m");
            let lines: Vec<&str> = answer.lines().filter(|l| !l.trim().is_empty()).collect();
            lines[lines.len() - m..].join("\n") + "\n"
        } else {
            answer.clone()
        };
        let family = if puzzle.contains("path") {
            "path"
        } else if puzzle.contains("sudoku") {
            "sudoku"
        } else {
            "regions"
        };
        let t = truth(family, &text, &answer);
        // A right position: the hint is true in the solution and tells something the entries
        // do not already say.
        let partial = temp_file(
            &format!("partial-{}", puzzle.replace('/', "-")),
            every_third(&grid, family == "sudoku").as_bytes(),
        );
        let partial = partial.to_str().unwrap_or_default();
        let hint = run(&["hint", "--level", "answer", "-f", "json", "--entries", partial, file])
            .code(0)
            .json()
            .clone();
        let placed = hint["placed"].as_array().expect("placed");
        assert!(!placed.is_empty(), "{puzzle}: {hint}");
        for f in placed {
            let (c, v) = (f["cell"].as_str().unwrap(), f["value"].as_str().unwrap());
            assert!(t.holds(c, v), "{puzzle}: {c} {v} is not in the solution");
        }
        // The whole answer as entries: explained at once (nothing left to deduce but
        // bookkeeping), and nothing to hint for the region families and Sudoku.
        let whole = temp_file(&format!("whole-{}", puzzle.replace('/', "-")), grid.as_bytes());
        let whole = whole.to_str().unwrap_or_default();
        let x = run(&["explain", "-f", "json", "--entries", whole, file])
            .code(0)
            .json()
            .clone();
        assert_eq!(x["status"], "solved", "{puzzle}: {x}");
        assert!(
            x["steps"].as_array().unwrap().iter().all(|s| s["guess"] == false),
            "{puzzle}: {x}"
        );
        // A wrong position: no hint (exit 1), the entry at fault named in text and JSON.
        let bad = temp_file(&format!("wrong-{}", puzzle.replace('/', "-")), wrong.as_bytes());
        let bad = bad.to_str().unwrap_or_default();
        let out = run(&["hint", "-f", "json", "--entries", bad, file]);
        out.code(1);
        let v = out.json();
        assert_eq!(v["status"], "no solution", "{puzzle}: {v}");
        assert_eq!(
            v["wrong"],
            serde_json::json!([{"cell": cell, "value": value}]),
            "{puzzle}: {v}"
        );
        // The text names the entry at fault with its value at the answer level (the rule
        // level names only where it is: hints stay graded).
        let text = run(&["hint", "--level", "answer", "--entries", bad, file])
            .code(1)
            .stdout
            .clone();
        assert!(
            text.contains(&format!("{cell} {value}")) || text.contains(&format!("{cell} = {value}")),
            "{puzzle}: {text}"
        );
        let text = run(&["hint", "--entries", bad, file]).code(1).stdout.clone();
        assert!(text.contains(cell), "{puzzle}: {text}");
        let x = run(&["explain", "-f", "json", "--entries", bad, file])
            .code(1)
            .json()
            .clone();
        assert_eq!(x["wrong"], v["wrong"], "{puzzle}: {x}");
        // Without guesses the rules may stall before the contradiction: still named.
        let x = run(&["explain", "--no-guess", "-f", "json", "--entries", bad, file])
            .code(1)
            .json()
            .clone();
        assert_eq!(
            (&x["status"], &x["wrong"]),
            (&v["status"], &v["wrong"]),
            "{puzzle}: {x}"
        );
    }
}

/// Issue 27 item 6: with several wrong entries, each is named with the rule it breaks by
/// itself on the clues (`breaks`, one per entry of `wrong`), or that no rule breaks at once;
/// an entry said to break a rule does so alone: the explanation from it alone, without
/// guesses, finds no solution.
#[test]
fn each_wrong_entry_is_named_with_the_rule_it_breaks() {
    let file = root().join("examples/suguru/example-6x6.in");
    let file = file.to_str().unwrap_or_default();
    let grid = |entries: &[(usize, usize, u32)]| {
        let mut g = vec![vec![0u32; 6]; 6];
        for &(r, c, v) in entries {
            g[r][c] = v;
        }
        g.iter()
            .map(|row| row.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ") + "\n")
            .collect::<String>()
    };
    // r1c1 = 3 empties r2c1; r4c3 = 4 touches the hint 4 at r3c2; r6c5 = 6 is wrong, but only
    // search shows it.
    let wrong = [(0, 0, 3), (3, 2, 4), (5, 4, 6)];
    let bad = temp_file("wrong-three.txt", grid(&wrong).as_bytes());
    let bad = bad.to_str().unwrap_or_default();
    let x = run(&["explain", "-f", "json", "--entries", bad, file])
        .code(1)
        .json()
        .clone();
    let cells: Vec<&str> = x["wrong"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["cell"].as_str().unwrap())
        .collect();
    assert_eq!(cells, ["r1c1", "r4c3", "r6c5"], "{x}");
    let breaks = x["breaks"].as_array().expect("one per wrong entry");
    assert_eq!(breaks.len(), 3, "{x}");
    assert!(breaks[0]["name"].is_string() && breaks[1]["name"].is_string(), "{x}");
    assert!(breaks[2].is_null(), "{x}");
    let rule = run(&["hint", "--level", "rule", "--entries", bad, file])
        .code(1)
        .stdout
        .clone();
    for (i, cell) in ["r1c1", "r4c3"].into_iter().enumerate() {
        let name = breaks[i]["name"].as_str().unwrap();
        assert!(rule.contains(&format!("{cell} breaks {name}")), "{rule}");
    }
    assert!(rule.contains("r6c5 breaks no rule at once"), "{rule}");
    let answer = run(&["hint", "--level", "answer", "--entries", bad, file])
        .code(1)
        .stdout
        .clone();
    assert!(
        answer.contains("r1c1 = 3 (with it alone, ") && answer.contains("r6c5 = 6"),
        "{answer}"
    );
    // Sudoku, on its own explainer: r1c2 = 2 leaves row 1 no place for 8 and r1c3 = 8
    // repeats a given.
    let sudoku = root().join("examples/sudoku/9x9.txt");
    let sudoku = sudoku.to_str().unwrap_or_default();
    let two = temp_file("wrong-sudoku.txt", format!(".28{}\n", ".".repeat(78)).as_bytes());
    let two = two.to_str().unwrap_or_default();
    let y = run(&["explain", "-f", "json", "--entries", two, sudoku])
        .code(1)
        .json()
        .clone();
    assert_eq!(y["breaks"].as_array().map(Vec::len), Some(2), "{y}");
    let rule = run(&["hint", "--level", "rule", "--entries", two, sudoku])
        .code(1)
        .stdout
        .clone();
    assert!(
        rule.contains("r1c2 breaks ") && rule.contains("r1c3 breaks one of each digit per row, column and block"),
        "{rule}"
    );
    // Each entry said to break a rule does so alone.
    for (i, &entry) in wrong[..2].iter().enumerate() {
        let one = temp_file(&format!("wrong-one-{i}.txt"), grid(&[entry]).as_bytes());
        let one = one.to_str().unwrap_or_default();
        let y = run(&["explain", "--no-guess", "-f", "json", "--entries", one, file])
            .code(1)
            .json()
            .clone();
        assert_eq!(y["status"], "no solution", "{y}");
        assert!(y["contradiction"].is_object(), "{y}");
    }
}

#[test]
fn bad_entries_are_one_line_naming_the_entries_file_and_exit_2() {
    let suguru = root().join("examples/suguru/example-6x6.in");
    let path = root().join("examples/path/example-6x6.txt");
    for (i, puzzle, entries, says) in [
        (&suguru, "0 0\n".to_string(), ":1:4:"),
        (&suguru, "9 0 0 0 0 0\n".repeat(6), "larger than its region"),
        (&suguru, "0 4 0 0 0 0\n".repeat(6), "differs from its hint 5"),
        (&path, "q 0 0 0 0 0\n".repeat(6), ":1:1:"),
        (&path, "0 0 0 0 0 r\n".repeat(6), "off the grid"),
    ]
    .into_iter()
    .enumerate()
    .map(|(i, (p, e, s))| (i, p, e, s))
    {
        let f = temp_file(&format!("bad-entries-{i}.txt"), entries.as_bytes());
        let name = f.to_str().unwrap_or_default();
        for cmd in ["hint", "explain"] {
            let out = run(&[cmd, "--entries", name, puzzle.to_str().unwrap_or_default()]);
            out.code(2);
            assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
            assert!(
                out.stderr.contains(name) && out.stderr.contains(says),
                "{entries}: {}",
                out.stderr
            );
        }
    }
}

/// `--max-level N` is exact and ratings use the simplest rule available: on bundled examples
/// of every family, with levels `L = 1, 2, …` every step is of level `≤ L`; the hardest level
/// `H` of the full explanation solves the puzzle without guessing, and `H − 1` stalls (the
/// rules are monotone, so below `H` the run reaches the point where the full run needed `H`).
#[test]
fn max_level_is_exact_and_the_rating_is_the_lowest_level_that_solves_in_every_family() {
    let opts = RunOptions {
        render: Render::Text,
        notes: false,
        ..RunOptions::default()
    };
    let ex = root().join("examples");
    for (family, file) in [
        ("suguru", "suguru/example-6x6.in"),
        ("suguru", "suguru/example-10x10.in"),
        ("ripple", "ripple/example-8x8.in"),
        ("sudoku", "sudoku/9x9.txt"),
        ("sudoku", "sudoku/eppstein-fig4.txt"),
        ("path", "path/example-6x6.txt"),
        ("path", "path/example-7x9.txt"),
        ("snake", "snake/example-6x6.txt"),
        ("masyu", "masyu/example-8x8.txt"),
        ("nurikabe", "nurikabe/example-8x8.txt"),
        ("starbattle", "starbattle/example-8x8.txt"),
    ] {
        let kind = pencilbox_cli::registry::by_name(family).expect("registered");
        let text = std::fs::read_to_string(ex.join(file)).expect(file);
        let explain = |max_level: Option<u8>, no_guess: bool| {
            let eo = ExplainOptions {
                no_guess,
                max_level,
                ..ExplainOptions::default()
            };
            kind.explain(&text, None, &opts, &eo).expect(file)
        };
        let full = explain(None, false);
        assert_eq!(full.status, ExplainStatus::Solved, "{file}");
        let hardest = full.steps.iter().map(|s| s.level).max().unwrap_or(1);
        for level in 1..=hardest {
            let x = explain(Some(level), true);
            for s in &x.steps {
                assert!(
                    s.level <= level,
                    "{file} --max-level {level}: step of level {}: {}",
                    s.level,
                    s.text
                );
            }
            let want = if level == hardest {
                ExplainStatus::Solved
            } else {
                ExplainStatus::Stalled
            };
            assert_eq!(x.status, want, "{file} --max-level {level} (hardest {hardest})");
        }
    }
}

/// The puzzles of every engine family (every family but Sudoku) that the chain and step
/// checks read: the bundled examples, and the shared Path letters and Janko Suguru when they
/// are there.
fn engine_family_sets() -> Vec<(&'static str, Vec<PathBuf>)> {
    let ex = root().join("examples");
    let mut sets: Vec<(&str, Vec<PathBuf>)> = vec![
        ("suguru", files(&ex.join("suguru"), "in")),
        ("ripple", files(&ex.join("ripple"), "in")),
        ("path", files(&ex.join("path"), "txt")),
        ("snake", files(&ex.join("snake"), "txt")),
        ("masyu", files(&ex.join("masyu"), "txt")),
        ("nurikabe", files(&ex.join("nurikabe"), "txt")),
        ("starbattle", files(&ex.join("starbattle"), "txt")),
    ];
    if let Some(d) = shared_data("path/letters") {
        sets.push(("path", files(&d, "txt")));
    }
    if let Some(d) = shared_data("suguru") {
        sets.push(("suguru", files(&d, "in")));
    }
    sets
}

/// Issue 27 item 3: a trial step carries its chain, from the assumption to the contradiction,
/// and every link follows from the position before the trial and the links before it by the
/// one rule it names (replayed in the engine, `ExplainOptions::check_chains`), in every family
/// that tries values, on every bundled example and the shared Path letters and Janko Suguru.
#[test]
fn trial_chains_lead_link_by_link_to_their_contradiction_in_every_family() {
    let opts = RunOptions {
        render: Render::Text,
        notes: false,
        ..RunOptions::default()
    };
    let sets = engine_family_sets();
    let mut chains: HashMap<&str, usize> = HashMap::new();
    for (family, paths) in sets {
        let kind = pencilbox_cli::registry::by_name(family).expect("registered");
        for p in paths {
            let text = std::fs::read_to_string(&p).expect("readable");
            for inst in kind.instances(&text) {
                let what = format!("{}:{}", p.display(), inst.first_line);
                let eo = ExplainOptions {
                    check_chains: true,
                    ..ExplainOptions::default()
                };
                let Ok(x) = kind.explain(inst.text, None, &opts, &eo) else {
                    continue;
                };
                for n in &x.notes {
                    assert!(!n.starts_with("chain check"), "{what}: {n}");
                }
                for (i, s) in x.steps.iter().enumerate().filter(|(_, s)| s.rule == "trial") {
                    let first = s
                        .chain
                        .first()
                        .unwrap_or_else(|| panic!("{what}: step {} has no chain", i + 1));
                    assert_eq!(first.rule, "assume", "{what}: step {}", i + 1);
                    // The assumption is the opposite of the step's conclusion.
                    let refuted = s.removed.iter().any(|f| f.cell == first.cell && f.value == first.value)
                        || s.placed.iter().any(|f| f.cell == first.cell && f.value != first.value);
                    assert!(refuted && first.holds, "{what}: step {}: {}", i + 1, s.text);
                    assert!(s.contradiction.is_some(), "{what}: step {}", i + 1);
                    assert!(
                        s.text.starts_with(&format!("if {}", first.fact())),
                        "{what}: {}",
                        s.text
                    );
                    *chains.entry(family).or_default() += 1;
                }
            }
        }
    }
    println!("chains checked: {chains:?}");
    assert!(chains.values().sum::<usize>() >= 20, "{chains:?}");
}

/// Issue 27 item 1: every step of every engine family follows from the premises it names by
/// the one rule that made it, replayed from the puzzle's starting position with nothing else
/// given and no other rule on (`ExplainOptions::check_steps`): the premises a person reads are
/// enough for the rule, on every bundled example and the shared Path letters and Janko
/// Suguru. (Sudoku's steps are checked against each technique's definition in
/// `crates/sudoku-nishio`.)
#[test]
fn every_step_follows_from_its_premises_by_its_rule_alone_in_every_family() {
    let opts = RunOptions {
        render: Render::Text,
        notes: false,
        ..RunOptions::default()
    };
    let sets = engine_family_sets();
    // Each family's examples, then puzzles from its own generator (harder ones thinned
    // further), as (family, where, text).
    let mut puzzles: Vec<(&str, String, String)> = Vec::new();
    for (family, paths) in sets {
        let kind = pencilbox_cli::registry::by_name(family).expect("registered");
        for p in paths {
            let text = std::fs::read_to_string(&p).expect("readable");
            for inst in kind.instances(&text) {
                puzzles.push((
                    family,
                    format!("{}:{}", p.display(), inst.first_line),
                    inst.text.to_string(),
                ));
            }
        }
    }
    for (family, size) in [
        ("suguru", 7),
        ("ripple", 7),
        ("path", 7),
        ("snake", 8),
        ("masyu", 8),
        ("nurikabe", 8),
        ("starbattle", 8),
    ] {
        let kind = pencilbox_cli::registry::by_name(family).expect("registered");
        for seed in 1..=4u64 {
            let req = pencilbox_core::plugin::GenerateRequest {
                height: size,
                width: size,
                seed,
                difficulty: Some(if seed % 2 == 0 { "hard" } else { "medium" }.to_string()),
                ..Default::default()
            };
            if let Ok(g) = kind.generate(&req) {
                puzzles.push((family, format!("generated {family} {size}x{size} seed {seed}"), g.text));
            }
        }
    }
    let mut checked: HashMap<&str, (usize, usize)> = HashMap::new();
    // Issue 27 item 7: one scale: a rule id has one level in every engine family.
    let mut levels: HashMap<&str, Vec<(u8, &str)>> = HashMap::new();
    for (family, what, text) in &puzzles {
        let kind = pencilbox_cli::registry::by_name(family).expect("registered");
        let eo = ExplainOptions {
            check_steps: true,
            ..ExplainOptions::default()
        };
        let Ok(x) = kind.explain(text, None, &opts, &eo) else {
            continue;
        };
        for n in &x.notes {
            assert!(!n.starts_with("step check"), "{what}: {n}");
        }
        let count = x
            .notes
            .iter()
            .find_map(|n| n.strip_prefix("steps checked: "))
            .unwrap_or_else(|| panic!("{what}: no count of checked steps in {:?}", x.notes));
        let nums: Vec<usize> = count.split(' ').filter_map(|w| w.parse().ok()).collect();
        let c = checked.entry(family).or_default();
        c.0 += nums[0];
        c.1 += nums[1];
        // Issue 27 item 6: a bookkeeping step is folded into a later step that is not.
        for (i, s) in x.steps.iter().enumerate() {
            if let Some(j) = s.folded_into {
                assert!(
                    s.bookkeeping && j > i && !x.steps[j].bookkeeping,
                    "{what}: step {i} into {j}"
                );
            }
        }
        for s in &x.steps {
            let seen = levels.entry(s.rule).or_default();
            if !seen.iter().any(|&(l, _)| l == s.level) {
                seen.push((s.level, family));
            }
        }
    }
    println!("steps checked (from premises, from the position): {checked:?}");
    for (rule, seen) in &levels {
        assert_eq!(seen.len(), 1, "{rule} has several levels (level, family): {seen:?}");
    }
    assert_eq!(levels["trial"][0].0, pencilbox_core::human::TRIAL_LEVEL);
    for (family, (premises, _)) in &checked {
        assert!(*premises > 0, "{family}: no step named its premises");
    }
}
