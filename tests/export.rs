//! `pencilbox export`: the DIMACS of every bundled example is solved by an independent SAT
//! solver (varisat, with its own DIMACS parser) and its answer, read back through the `c N
//! NAME` lines, is the puzzle's answer and the only solution; the LP and OPB files are parsed
//! back and hold for that solution but not for a perturbed one; bad input is one positioned
//! message and exit 2.

use pencilbox_tests::{root, run, run_with_stdin, temp_file};
use std::collections::{BTreeSet, HashMap};
use varisat::{ExtendFormula, Solver};

/// The named variables of a DIMACS export: number → name.
fn dimacs_names(cnf: &str) -> HashMap<usize, String> {
    cnf.lines()
        .filter_map(|l| l.strip_prefix("c "))
        .filter_map(|l| {
            let (n, name) = l.split_once(' ')?;
            Some((n.parse().ok()?, name.to_string()))
        })
        .collect()
}

/// Solves a DIMACS text with varisat: the names of the true named variables and whether the
/// solution is unique over the named variables (a second solve with the blocking clause).
fn solve_dimacs(cnf: &str) -> Option<(BTreeSet<String>, HashMap<String, bool>, bool)> {
    let names = dimacs_names(cnf);
    let mut s = Solver::new();
    s.add_dimacs_cnf(cnf.as_bytes()).expect("varisat parses the export");
    if !s.solve().expect("varisat solves") {
        return None;
    }
    let model = s.model().expect("a model");
    let mut truth = HashMap::new();
    let mut on = BTreeSet::new();
    let mut block = Vec::new();
    for l in model {
        let n = l.var().to_dimacs() as usize;
        if let Some(name) = names.get(&n) {
            truth.insert(name.clone(), l.is_positive());
            if l.is_positive() {
                on.insert(name.clone());
            }
            // Block over the puzzle's places (not the ranks and arcs of a path's orientation).
            if !name.starts_with("rank ") && !name.starts_with("arc ") {
                block.push(!l);
            }
        }
    }
    s.add_clause(&block);
    let unique = !s.solve().expect("varisat solves");
    Some((on, truth, unique))
}

fn export(format: &str, file: &str) -> String {
    let out = run(&["export", "--format", format, file]);
    out.code(0);
    out.stdout.clone()
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).expect("bundled file")
}

/// `r{r}c{c}={v}` names as a grid of numbers, row-major text.
fn grid_from(on: &BTreeSet<String>, h: usize, w: usize) -> Vec<Vec<u32>> {
    let mut g = vec![vec![0; w]; h];
    for name in on {
        let Some((cell, v)) = name.split_once('=') else {
            continue;
        };
        let (r, c) = cell_of(cell);
        g[r][c] = v.parse().expect("value");
    }
    g
}

fn cell_of(name: &str) -> (usize, usize) {
    let (r, c) = name.trim_start_matches('r').split_once('c').expect("rRcC");
    (
        r.parse::<usize>().expect("row") - 1,
        c.parse::<usize>().expect("col") - 1,
    )
}

fn numbers(text: &str) -> Vec<u32> {
    text.split_whitespace().filter_map(|t| t.parse().ok()).collect()
}

#[test]
fn dimacs_of_region_examples_solved_by_varisat_is_the_answer_and_unique() {
    for family in ["suguru", "ripple"] {
        for entry in std::fs::read_dir(root().join("examples").join(family)).expect("examples") {
            let path = entry.expect("entry").path();
            let ans = path.with_extension("ans");
            if path.extension().is_none_or(|e| e != "in") || !ans.exists() {
                continue;
            }
            let file = path.to_string_lossy().to_string();
            let cnf = export("dimacs", &file);
            assert!(cnf.starts_with(&format!("c pencilbox export: {family}")), "{file}");
            let (on, _, unique) = solve_dimacs(&cnf).unwrap_or_else(|| panic!("{file}: varisat found no solution"));
            let answer = numbers(&std::fs::read_to_string(&ans).expect("answer"));
            let cells: Vec<(usize, usize)> = on
                .iter()
                .filter_map(|n| n.split_once('='))
                .map(|(c, _)| cell_of(c))
                .collect();
            let h = cells.iter().map(|c| c.0 + 1).max().unwrap_or(0);
            let w = cells.iter().map(|c| c.1 + 1).max().unwrap_or(0);
            let grid = grid_from(&on, h, w);
            let count = run(&["count", "--limit", "2", &file]);
            if count.stdout.starts_with("1 solution") {
                assert_eq!(
                    grid.concat(),
                    answer,
                    "{file}: varisat's solution read back differs from the answer file"
                );
                assert!(
                    unique,
                    "{file}: the bundled example is unique, varisat found a second solution"
                );
            } else {
                // Several solutions (a hintless figure): varisat's must be one of them.
                let text: Vec<String> = grid
                    .iter()
                    .map(|r| r.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" "))
                    .collect();
                let answer_file = temp_file("varisat.ans", text.join("\n").as_bytes());
                run(&["verify", &file, &answer_file.to_string_lossy()]).code(0);
                assert!(!unique, "{file}: varisat found one solution where count finds several");
            }
        }
    }
}

/// Sudoku's symbols: `1`–`9`, then `A`, `B`, … for 10, 11, ….
fn sudoku_symbol(v: u32) -> char {
    if v <= 9 {
        char::from_digit(v, 10).expect("digit")
    } else {
        (b'A' + (v - 10) as u8) as char
    }
}

#[test]
fn dimacs_of_sudoku_examples_solved_by_varisat_is_the_engines_solution() {
    for name in ["4x4", "6x6", "9x9", "12x12", "16x16"] {
        let file = root()
            .join(format!("examples/sudoku/{name}.txt"))
            .to_string_lossy()
            .to_string();
        let cnf = export("dimacs", &file);
        let (on, _, unique) = solve_dimacs(&cnf).unwrap_or_else(|| panic!("{file}: no solution"));
        let n: usize = name.split('x').next().and_then(|s| s.parse().ok()).expect("size");
        let got: String = grid_from(&on, n, n).concat().into_iter().map(sudoku_symbol).collect();
        let solved = run(&["solve", &file]);
        solved.code(0);
        assert_eq!(got, solved.stdout.trim(), "{file}");
        assert!(unique, "{file}");
    }
}

/// A Path answer file's links: each marked cell and the neighbour its letter points to.
fn path_links(sol: &str) -> BTreeSet<String> {
    let rows: Vec<Vec<&str>> = sol
        .split("\n\n")
        .nth(2)
        .expect("the grid after two blank lines")
        .lines()
        .map(|l| l.split_whitespace().collect())
        .filter(|r: &Vec<&str>| !r.is_empty())
        .collect();
    let (h, w) = (rows.len() as isize, rows[0].len() as isize);
    let mut links = BTreeSet::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, mark) in row.iter().enumerate() {
            let (dr, dc) = match *mark {
                "u" => (-1, 0),
                "d" => (1, 0),
                "l" => (0, -1),
                "r" => (0, 1),
                _ => continue,
            };
            let (r2, c2) = (r as isize + dr, c as isize + dc);
            // A link joins two cells of the path (a door's letter may point off it).
            let on_path =
                |r: isize, c: isize| (0..h).contains(&r) && (0..w).contains(&c) && rows[r as usize][c as usize] != "0";
            if on_path(r2, c2) {
                let a = (r, c);
                let b = (r2 as usize, c2 as usize);
                let (a, b) = (a.min(b), a.max(b));
                links.insert(format!("r{}c{}-r{}c{}", a.0 + 1, a.1 + 1, b.0 + 1, b.1 + 1));
            }
        }
    }
    links
}

#[test]
fn dimacs_of_path_examples_solved_by_varisat_draws_the_answer_path() {
    for name in ["example-6x6", "example-7x9", "example-8x8-partial"] {
        let file = root()
            .join(format!("examples/path/{name}.txt"))
            .to_string_lossy()
            .to_string();
        let cnf = export("dimacs", &file);
        let (on, _, unique) = solve_dimacs(&cnf).unwrap_or_else(|| panic!("{file}: no solution"));
        let links: BTreeSet<String> = on.into_iter().filter(|n| n.contains('-') && !n.contains(' ')).collect();
        assert_eq!(links, path_links(&read(&format!("examples/path/{name}.sol"))), "{file}");
        assert!(unique, "{file}");
    }
}

/// An LP or OPB row: `(name, coefficient)` terms, the comparison and the right-hand side.
type Row = (Vec<(String, i64)>, String, i64);

/// Parses the rows of our CPLEX LP output (`cK: 2 x_a - x_b + … >= k`).
fn lp_rows(lp: &str) -> Vec<Row> {
    let body = lp
        .split("Subject To\n")
        .nth(1)
        .expect("Subject To")
        .split("Binary\n")
        .next()
        .expect("rows");
    body.lines()
        .map(|line| {
            let (_, expr) = line.split_once(':').expect("a named row");
            let toks: Vec<&str> = expr.split_whitespace().collect();
            let (lhs, tail) = toks.split_at(toks.len() - 2);
            let mut terms = Vec::new();
            let (mut sign, mut coef) = (1, 1);
            for t in lhs {
                match *t {
                    "+" => sign = 1,
                    "-" => sign = -1,
                    t if t.parse::<i64>().is_ok() => coef = t.parse().expect("number"),
                    name => {
                        terms.push((name.to_string(), sign * coef));
                        (sign, coef) = (1, 1);
                    }
                }
            }
            (terms, tail[0].to_string(), tail[1].parse().expect("rhs"))
        })
        .collect()
}

/// Parses our OPB output's rows (`+1 x3 -2 x5 >= -1 ;`), with names from the `* xN NAME` lines
/// (`xN` itself for the unnamed).
fn opb_rows(opb: &str) -> Vec<Row> {
    let names: HashMap<String, String> = opb
        .lines()
        .filter_map(|l| l.strip_prefix("* x"))
        .filter_map(|l| l.split_once(' '))
        .map(|(n, name)| (format!("x{n}"), name.to_string()))
        .collect();
    opb.lines()
        .filter(|l| !l.starts_with('*'))
        .map(|l| {
            let toks: Vec<&str> = l.trim_end_matches(';').split_whitespace().collect();
            let (lhs, tail) = toks.split_at(toks.len() - 2);
            let terms = lhs
                .chunks(2)
                .map(|p| {
                    let x = p[1].to_string();
                    (
                        names.get(&x).cloned().unwrap_or(x),
                        p[0].parse::<i64>().expect("coefficient"),
                    )
                })
                .collect();
            (terms, tail[0].to_string(), tail[1].parse().expect("rhs"))
        })
        .collect()
}

/// Does `value` (known for the named variables) satisfy `row`? Variables it does not know are
/// a parity's helper bits, which occur in one row each with coefficients −2, −4, …: such a
/// row holds when the rest leaves an even gap they can fill.
fn holds(row: &Row, value: &dyn Fn(&str) -> Option<bool>) -> bool {
    let (terms, cmp, rhs) = row;
    let (mut sum, mut free) = (0i64, Vec::new());
    for (name, a) in terms {
        match value(name) {
            Some(true) => sum += a,
            Some(false) => {}
            None => free.push(*a),
        }
    }
    if free.is_empty() {
        return match cmp.as_str() {
            "<=" => sum <= *rhs,
            ">=" => sum >= *rhs,
            _ => sum == *rhs,
        };
    }
    assert!(
        free.iter().all(|a| *a < 0 && a % 2 == 0),
        "helper bits of a parity row only"
    );
    let gap = sum - rhs;
    cmp == "=" && gap >= 0 && gap % 2 == 0 && gap <= -free.iter().sum::<i64>()
}

/// LP names are `x_` and the name with other characters than letters and digits made `_`.
fn lp_name(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("x_{clean}")
}

#[test]
fn lp_and_opb_hold_for_the_solution_and_fail_when_one_place_changes() {
    for (file, flip) in [
        ("examples/suguru/example-6x6.in", None),
        ("examples/ripple/example-6x6.in", None),
        ("examples/sudoku/4x4.txt", None),
        ("examples/path/example-6x6.txt", Some("r1c4-r2c4")),
    ] {
        let path = root().join(file).to_string_lossy().to_string();
        let (_, truth, _) = solve_dimacs(&export("dimacs", &path)).expect("a solution");
        // The perturbed solution: a path loses a link it uses; a number grid moves one cell's
        // value to another literal of the same cell.
        let mut wrong = truth.clone();
        match flip {
            Some(link) => {
                assert_eq!(truth.get(link), Some(&true), "{file}: {link} is on the path");
                wrong.insert(link.to_string(), false);
            }
            None => {
                // The first cell (by name) with a true literal and another literal: a given has
                // only one, and moving nothing would perturb nothing.
                let mut names: Vec<&String> = truth.keys().filter(|n| n.contains('=')).collect();
                names.sort();
                let cell_of_name = |n: &str| n.split('=').next().unwrap_or_default().to_string();
                let (on, off) = names
                    .iter()
                    .filter(|n| truth[**n])
                    .find_map(|on| {
                        let cell = cell_of_name(on);
                        let off = names.iter().find(|n| cell_of_name(n) == cell && *n != on)?;
                        Some(((*on).clone(), (*off).clone()))
                    })
                    .expect("a cell with two candidate values");
                wrong.insert(on, false);
                wrong.insert(off, true);
            }
        }
        let lp_truth: HashMap<String, bool> = truth.iter().map(|(n, v)| (lp_name(n), *v)).collect();
        let lp_wrong: HashMap<String, bool> = wrong.iter().map(|(n, v)| (lp_name(n), *v)).collect();
        let lp = export("lp", &path);
        assert!(lp.contains("Minimize") && lp.contains("Binary") && lp.trim_end().ends_with("End"));
        let rows = lp_rows(&lp);
        assert!(!rows.is_empty());
        assert!(
            rows.iter().all(|r| holds(r, &|n| lp_truth.get(n).copied())),
            "{file}: LP rejects the solution"
        );
        assert!(
            !rows.iter().all(|r| holds(r, &|n| lp_wrong.get(n).copied())),
            "{file}: LP accepts a perturbed solution"
        );
        let opb = export("opb", &path);
        let rows = opb_rows(&opb);
        assert!(
            rows.iter().all(|r| holds(r, &|n| truth.get(n).copied())),
            "{file}: OPB rejects the solution"
        );
        assert!(
            !rows.iter().all(|r| holds(r, &|n| wrong.get(n).copied())),
            "{file}: OPB accepts a perturbed solution"
        );
    }
}

#[test]
fn export_writes_to_a_file_with_o() {
    let dir = std::env::temp_dir().join(format!("pencilbox-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("fig1.cnf");
    let file = root().join("examples/suguru/paper-fig1-3x3.in");
    run(&[
        "export",
        "-f",
        "dimacs",
        "-o",
        &out.to_string_lossy(),
        &file.to_string_lossy(),
    ])
    .code(0);
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(text.contains("p cnf ") && text.contains("c 1 r1c1=1"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn export_of_bad_input_is_one_positioned_message_and_exit_2() {
    let out = run_with_stdin(&["export", "-f", "lp", "-p", "suguru", "-"], b"3 3\n1 2 x\n");
    out.code(2);
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", out.stderr);
    assert!(lines[0].starts_with("pencilbox: <stdin>:"), "{}", out.stderr);
    let parts: Vec<&str> = lines[0].split(':').collect();
    assert!(
        parts.len() >= 4 && parts[2].parse::<u32>().is_ok() && parts[3].parse::<u32>().is_ok(),
        "{}",
        out.stderr
    );
    run(&["export", "-f", "yaml", "x"]).code(2);
}

#[test]
fn sat_stops_at_the_deadline_and_the_node_limit_with_exit_3() {
    let file = root().join("examples/several/path-10x10-several.txt");
    let file = file.to_string_lossy();
    // A deadline already past when the model is built, and one conflict for over 1000 solutions.
    for limit in [["--timeout", "0.000001"], ["--node-limit", "1"]] {
        let mut args = vec!["count", "-a", "sat"];
        args.extend(limit);
        args.push(&file);
        let out = run(&args);
        out.code(3);
        assert!(
            out.stdout.contains("stopped by the time or node limit"),
            "{limit:?}: {}",
            out.stdout
        );
    }
}

/// An external command when it is installed (`.ci/run` installs Debian's `glpk-utils` and
/// `picosat`); without it the test prints a `skip:` line and passes, except under `CI=true`.
fn external(cmd: &str) -> bool {
    let found = std::process::Command::new(cmd).arg("--version").output().is_ok();
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{cmd} is missing under CI=true (.ci/run installs it)"
        );
        pencilbox_core::testing::skip(&format!("{cmd} not found (apt-get install glpk-utils picosat)"));
    }
    found
}

/// The values of the columns in a `glpsol -o` report: after the `Column name` header, entries
/// `No. name [*] activity lower upper` (a long name is followed by a line break, which
/// splitting on whitespace absorbs).
fn glpsol_columns(report: &str) -> HashMap<String, bool> {
    let at = report.find("Column name").expect("a columns table");
    let body = report[at..].splitn(3, '\n').nth(2).expect("rows under the header");
    let body = &body[..body.find("\n\n").unwrap_or(body.len())];
    let toks: Vec<&str> = body.split_whitespace().collect();
    let mut out = HashMap::new();
    let mut i = 0;
    while i < toks.len() {
        let name = toks[i + 1];
        let mut j = i + 2;
        if toks[j] == "*" {
            j += 1;
        }
        let activity: f64 = toks[j].parse().expect("activity");
        out.insert(name.to_string(), activity > 0.5);
        i = j + 3;
    }
    out
}

/// The places of a solution (not the ranks and arcs of a path's orientation) that are true.
fn places(truth: &HashMap<String, bool>) -> BTreeSet<String> {
    truth
        .iter()
        .filter(|(n, v)| **v && !n.contains("rank") && !n.contains("arc"))
        .map(|(n, _)| n.clone())
        .collect()
}

#[test]
fn lp_solved_by_glpk_and_dimacs_by_picosat_give_the_unique_solution() {
    if !external("glpsol") || !external("picosat") {
        return;
    }
    for file in [
        "examples/suguru/example-6x6.in",
        "examples/ripple/example-6x6.in",
        "examples/sudoku/4x4.txt",
        "examples/path/example-6x6.txt",
    ] {
        let path = root().join(file).to_string_lossy().to_string();
        let cnf = export("dimacs", &path);
        let (_, truth, unique) = solve_dimacs(&cnf).expect("a solution");
        assert!(unique, "{file}: the example is unique");
        let want = places(&truth);
        // GLPK's MIP solver on the CPLEX LP file.
        let stem = file.replace(['/', '.'], "-");
        let lp = temp_file(&format!("glpk-{stem}.lp"), export("lp", &path).as_bytes());
        let report = lp.with_extension("out");
        let out = std::process::Command::new("glpsol")
            .arg("--lp")
            .arg(&lp)
            .arg("-o")
            .arg(&report)
            .output()
            .expect("glpsol runs");
        assert!(
            out.status.success(),
            "{file}: glpsol failed: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        let report = std::fs::read_to_string(&report).expect("glpsol's report");
        assert!(report.contains("INTEGER OPTIMAL"), "{file}: {report}");
        let lp_want: BTreeSet<String> = want.iter().map(|n| lp_name(n)).collect();
        // The LP's own variables are `x_…`; others are auxiliaries of its rows (a parity row's
        // integer half-sum).
        let mut lp_truth = glpsol_columns(&report);
        lp_truth.retain(|n, _| n.starts_with("x_"));
        assert_eq!(places(&lp_truth), lp_want, "{file}: GLPK's solution");
        // PicoSAT on the DIMACS file.
        let cnf_file = temp_file(&format!("picosat-{stem}.cnf"), cnf.as_bytes());
        let out = std::process::Command::new("picosat")
            .arg(&cnf_file)
            .output()
            .expect("picosat runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("s SATISFIABLE"), "{file}: {text}");
        let names = dimacs_names(&cnf);
        let truth: HashMap<String, bool> = text
            .lines()
            .filter_map(|l| l.strip_prefix("v "))
            .flat_map(|l| l.split_whitespace())
            .filter_map(|t| t.parse::<i64>().ok())
            .filter(|&x| x != 0)
            .filter_map(|x| names.get(&(x.unsigned_abs() as usize)).map(|n| (n.clone(), x > 0)))
            .collect();
        assert_eq!(places(&truth), want, "{file}: PicoSAT's solution");
    }
}
