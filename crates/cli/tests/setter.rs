//! End-to-end tests of the setter's tools through the `pencilbox` binary, in every family:
//! `forced` on a unique puzzle is the whole solution and on a puzzle with several solutions
//! holds in both witnesses; `count --suggest --apply` writes a puzzle whose count really drops
//! and stays at least one; every clue `count --redundant` lists, removed alone,
//! leaves a unique puzzle; wrong requests and bad input are refused with the documented codes.

use pencilbox_cli::registry;
use pencilbox_core::RunOptions;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

mod cli_common;
use cli_common::{root, run};

fn json(args: &[&str], code: i32) -> Value {
    let o = run(args);
    assert_eq!(o.code, code, "{args:?}\n{}\n{}", o.stdout, o.stderr);
    serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", o.stdout))
}

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pencilbox-setter-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const UNIQUE: [(&str, &str); 5] = [
    ("suguru", "examples/suguru/example-6x6.in"),
    ("ripple", "examples/ripple/example-6x6.in"),
    ("sudoku", "examples/sudoku/4x4.txt"),
    ("sudoku", "examples/sudoku/9x9.txt"),
    ("path", "examples/path/example-6x6.txt"),
];

const SEVERAL: [(&str, &str); 4] = [
    ("suguru", "examples/several/suguru-6x6-several.in"),
    ("ripple", "examples/several/ripple-6x6-several.in"),
    ("sudoku", "examples/several/sudoku-4x4-several.txt"),
    ("path", "examples/several/path-6x6-several.txt"),
];

fn cell(r: usize, c: usize) -> String {
    format!("r{}c{}", r + 1, c + 1)
}

/// Every fact of a solution in its JSON form: numbers per cell, or for a Path puzzle (rows of
/// arrows) each cell used or unused and each link between adjacent cells line or blank.
fn facts(solution: &Value) -> BTreeMap<String, String> {
    let rows = solution.as_array().expect("rows");
    let mut out = BTreeMap::new();
    if rows.iter().all(Value::is_string) {
        let grid: Vec<Vec<char>> = rows.iter().map(|r| r.as_str().unwrap().chars().collect()).collect();
        let (h, w) = (grid.len(), grid[0].len());
        let mut lines = std::collections::BTreeSet::new();
        for r in 0..h {
            for c in 0..w {
                let used = grid[r][c] != '0';
                out.insert(cell(r, c), if used { "used" } else { "unused" }.to_string());
                // Door B holds `u` by convention: a link only when the cell it names is on the
                // path and points back (the predecessor of B points to B).
                let next = match grid[r][c] {
                    'd' if r + 1 < h => Some((r + 1, c)),
                    'r' if c + 1 < w => Some((r, c + 1)),
                    'l' if c > 0 => Some((r, c - 1)),
                    'u' if r > 0 => Some((r - 1, c)),
                    _ => None,
                };
                if let Some(n) = next {
                    if grid[n.0][n.1] != '0' {
                        lines.insert(((r, c).min(n), (r, c).max(n)));
                    }
                }
            }
        }
        for r in 0..h {
            for c in 0..w {
                for n in [(r, c + 1), (r + 1, c)] {
                    if n.0 < h && n.1 < w {
                        let line = lines.contains(&((r, c), n));
                        out.insert(
                            format!("{}-{}", cell(r, c), cell(n.0, n.1)),
                            if line { "line" } else { "blank" }.to_string(),
                        );
                    }
                }
            }
        }
    } else {
        for (r, row) in rows.iter().enumerate() {
            for (c, v) in row.as_array().unwrap().iter().enumerate() {
                out.insert(cell(r, c), v.to_string());
            }
        }
    }
    out
}

fn forced_facts(v: &Value) -> BTreeMap<String, String> {
    v["forced"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let value = f["value"].as_str().expect("every value is a string").to_string();
            (f["at"].as_str().unwrap().to_string(), value)
        })
        .collect()
}

#[test]
fn forced_on_a_unique_puzzle_is_the_whole_solution() {
    for (name, file) in UNIQUE {
        let solved = json(&["solve", "-f", "json", file], 0);
        let v = json(&["forced", "-f", "json", file], 0);
        assert_eq!(v["puzzle"], name);
        assert_eq!(v["status"], "unique", "{file}");
        assert_eq!(v["complete"], true);
        let whole = facts(&solved["solution"]);
        assert_eq!(v["places"].as_u64().unwrap() as usize, whole.len(), "{file}");
        assert_eq!(forced_facts(&v), whole, "{file}");
        // Each fact is marked, and the rules are named for those the rules alone give.
        for f in v["forced"].as_array().unwrap() {
            let by = f["by"].as_str().unwrap();
            assert!(["given", "rules", "search"].contains(&by), "{f}");
            assert_eq!(
                f.get("rules").is_some(),
                by == "rules" && f["rules"].as_array().is_some_and(|r| !r.is_empty()),
                "{f}"
            );
        }
        let text = run(&["forced", file]);
        assert_eq!(text.code, 0);
        assert!(text.stdout.starts_with("unique solution"), "{}", text.stdout);
        // The rules are also named as techniques for people (the family's vocabulary), and the
        // text prints those names: `r2c5 = 1  rules: hidden single in a region`.
        let mut human = 0;
        for f in v["forced"].as_array().unwrap() {
            let Some(ids) = f["rules"].as_array() else {
                assert!(f.get("techniques").is_none(), "{f}");
                continue;
            };
            let techniques = f["techniques"].as_array().unwrap_or_else(|| panic!("{file}: {f}"));
            assert!(!ids.is_empty() && !techniques.is_empty(), "{file}: {f}");
            let names: Vec<&str> = techniques
                .iter()
                .map(|t| {
                    assert!(
                        t["rule"].is_string() && t["level"].as_u64().is_some_and(|l| l >= 1),
                        "{t}"
                    );
                    t["name"].as_str().unwrap()
                })
                .collect();
            human += names.iter().filter(|n| n.contains(' ')).count();
            let value = f["value"].as_str().expect("every value is a string").to_string();
            let line = format!("{} = {value}  rules: {}", f["at"].as_str().unwrap(), names.join(", "));
            assert!(
                text.stdout.lines().any(|l| l == line),
                "{file}: no line {line:?} in\n{}",
                text.stdout
            );
        }
        assert!(human > 0, "{file}: no rule named for people");
    }
}

#[test]
fn forced_on_a_puzzle_with_several_solutions_holds_in_both_witnesses_and_leaves_their_differences() {
    for (_, file) in SEVERAL {
        let count = json(&["count", "-f", "json", "--limit", "2", file], 0);
        let (a, b) = (facts(&count["witness"][0]), facts(&count["witness"][1]));
        let v = json(&["forced", "-f", "json", file], 0);
        assert_eq!(v["status"], "several", "{file}");
        let forced = forced_facts(&v);
        assert!(!forced.is_empty() && forced.len() < a.len(), "{file}");
        for (at, value) in &forced {
            assert_eq!(a.get(at), Some(value), "{file}: {at}");
            assert_eq!(b.get(at), Some(value), "{file}: {at}");
        }
        // (A Path witness pair may differ only in the direction of a cell's arrow.)
        for d in count["differences"].as_array().unwrap() {
            let d = d.as_str().unwrap();
            if a.get(d) != b.get(d) {
                assert!(!forced.contains_key(d), "{file}: {d}");
            }
        }
        let text = run(&["forced", file]);
        assert!(
            text.stdout.starts_with("several solutions\nforced: "),
            "{}",
            text.stdout
        );
    }
}

#[test]
fn a_suggested_clue_really_makes_the_count_drop_and_holds_in_a_solution() {
    for (i, (_, file)) in SEVERAL.iter().enumerate() {
        let before = json(&["count", "-f", "json", file], 0)["count"].as_u64().unwrap();
        let out = std::env::temp_dir().join(format!("pencilbox-setter-{}-{i}.out", std::process::id()));
        let out_s = out.to_str().unwrap();
        let v = json(&["count", "--suggest", "-f", "json", "--apply", out_s, file], 0);
        assert_eq!(v["count"].as_u64(), Some(before), "{file}");
        let at = v["clue"]["at"].as_str().unwrap();
        assert!(v["clue"]["value"].is_string(), "{file}: {v}");
        // The amended puzzle keeps at least one solution of the original and has fewer.
        let after = json(&["count", "-f", "json", out_s], 0)["count"].as_u64().unwrap();
        assert!(after >= 1 && after < before, "{file}: {before} -> {after}");
        assert_eq!(v["count_after"].as_u64(), Some(after), "{file}");
        let text = run(&["count", "--suggest", file]);
        assert!(
            text.stdout.contains(&format!("suggested clue: {at} = ")),
            "{}",
            text.stdout
        );
        let _ = std::fs::remove_file(out);
    }
}

#[test]
fn every_redundant_clue_removed_alone_leaves_the_puzzle_unique() {
    for (name, file) in UNIQUE {
        let v = json(&["count", "--redundant", "-f", "json", file], 0);
        let listed: Vec<(String, u64)> = v["redundant"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["at"].as_str().unwrap().to_string(),
                    c["value"].as_str().unwrap().parse::<u64>().unwrap(),
                )
            })
            .collect();
        assert_eq!(v["checked"], v["clues"], "{file}");
        // The puzzles without each clue, from the library (the CLI prints only the list).
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        let r = registry::by_name(name)
            .unwrap()
            .redundant(&text, &RunOptions::default())
            .unwrap();
        let same: Vec<(String, u64)> = r.redundant.iter().map(|c| (c.at.clone(), u64::from(c.value))).collect();
        assert_eq!(listed, same, "{file}");
        for (k, c) in r.redundant.iter().enumerate() {
            let f = temp(&format!("{name}-without-{k}"), &c.puzzle);
            let count = json(
                &["count", "-p", name, "-f", "json", "--limit", "2", f.to_str().unwrap()],
                0,
            );
            assert_eq!(count["count"], 1, "{file} without {}", c.at);
        }
    }
}

#[test]
fn the_tools_refuse_puzzles_with_the_wrong_number_of_solutions() {
    let o = run(&["count", "--suggest", "examples/suguru/example-6x6.in"]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("exactly one solution") && o.stderr.contains("--redundant"),
        "{}",
        o.stderr
    );
    let o = run(&["count", "--redundant", "examples/several/path-6x6-several.txt"]);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("needs a unique puzzle"), "{}", o.stderr);
    for args in [
        &["forced", "examples/suguru/theorem1-2x3-unsolvable.in"][..],
        &["count", "--suggest", "examples/suguru/theorem1-2x3-unsolvable.in"],
        &["count", "--redundant", "examples/suguru/theorem1-2x3-unsolvable.in"],
    ] {
        let o = run(args);
        assert_eq!(o.code, 1, "{args:?}");
        assert!(o.stdout.starts_with("no solution"), "{args:?}: {}", o.stdout);
    }
}

#[test]
fn bad_input_and_bad_flags_exit_with_code_2() {
    let bad = temp("bad.in", "3 3\n0 0 0\n0 x 0\n0 0 0\n1 1 1\n1 1 1\n1 1 1\n");
    let bad = bad.to_str().unwrap();
    for args in [
        &["forced", "-p", "suguru", bad][..],
        &["count", "--suggest", "-p", "suguru", bad],
        &["count", "--redundant", "-p", "suguru", bad],
    ] {
        let o = run(args);
        assert_eq!(o.code, 2, "{args:?}");
        assert!(o.stderr.contains("bad.in:3:3:"), "{args:?}: {}", o.stderr);
        assert_eq!(o.stderr.lines().count(), 1, "{}", o.stderr);
    }
    assert_eq!(
        run(&["count", "--apply", "x", "examples/suguru/example-6x6.in"]).code,
        2
    );
    assert_eq!(
        run(&["count", "--suggest", "--redundant", "examples/suguru/example-6x6.in"]).code,
        2
    );
    assert_eq!(
        run(&["forced", "-p", "kakuro", "examples/suguru/example-6x6.in"]).code,
        2
    );
    assert_eq!(run(&["forced", "examples/sudoku/batch-9x9.txt"]).code, 2);
}

#[test]
fn a_timeout_gives_a_partial_result_marked_incomplete_with_exit_code_3() {
    let o = run(&["forced", "--timeout", "0", "examples/suguru/example-10x10.in"]);
    assert_eq!(o.code, 3, "{}{}", o.stdout, o.stderr);
    assert!(
        o.stdout.contains("incomplete: stopped by the time or node limit"),
        "{}",
        o.stdout
    );
    let v = json(
        &[
            "forced",
            "-f",
            "json",
            "--timeout",
            "0",
            "examples/path/example-6x6.txt",
        ],
        3,
    );
    assert_eq!(v["complete"], false);
    assert!(!v["undecided"].as_array().unwrap().is_empty());
    for flag in ["--suggest", "--redundant"] {
        let file = if flag == "--suggest" {
            "examples/several/suguru-10x10-several.in"
        } else {
            "examples/suguru/example-10x10.in"
        };
        let v = json(&["count", flag, "-f", "json", "--timeout", "0", file], 3);
        assert_eq!(v["interrupted"], true, "{flag}");
    }
}
