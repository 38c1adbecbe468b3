//! `pencilbox bench`: solve every instance under some paths in-process, compare with answer
//! files, and report per-instance time and nodes plus a summary.
//!
//! Times are measured around the puzzle's `solve` call (parse included). With `--repeat N` each
//! instance is solved N times and the fastest run is reported, which is what the benchmark
//! tables in BENCHMARKS.md use on this shared, noisy machine.
//!
//! With `--limit N` each instance is counted instead, up to N solutions (the work of `pencilbox
//! count --limit N`; `--limit 2` solves and proves uniqueness), and the time covers the count.
//! An answer file is then checked with the family's verifier, outside the timing: it matches
//! when it is a solution (with one solution counted, the solution).
//!
//! Exit codes: 0 every instance solved (and matched its answer file, when there is one), 1 some
//! answer differs from its answer file (or an instance with an answer file was found
//! unsolvable), 3 no mismatch but some instances timed out (their answer column says `-`), 2
//! bad input.

use crate::commands::{fail, parse_settings, resolve_kind};
use crate::input::{describe, display_name, read_text, InputError};
use crate::interrupt::Watch;
use crate::output::emit;
use crate::registry;
use crate::Format;
use pencilbox_core::Render;
use pencilbox_core::{Limits, PuzzleKind, RunOptions, Status};
use serde_json::json;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

// Flags of `pencilbox bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Puzzle family; detected per file when omitted.
    #[arg(long, short = 'p')]
    puzzle: Option<String>,
    /// Algorithm; the family's default when omitted.
    #[arg(long, short = 'a')]
    algorithm: Option<String>,
    /// Output format: text or json (`pretty` prints the same as text).
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Time limit per instance in seconds.
    #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
    timeout: Option<f64>,
    /// Solve each instance this many times and report the fastest.
    #[arg(long, default_value_t = 1)]
    repeat: u32,
    /// Puzzle-specific setting KEY=VALUE; repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    settings: Vec<String>,
    /// Count up to this many solutions per instance instead of solving, like `count --limit`
    /// (`--limit 2` solves and proves uniqueness); the solutions column shows the count.
    #[arg(long, short = 'l', value_name = "N")]
    limit: Option<u64>,
    /// Print only the summary.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Count each rule's calls, values removed, conflicts and time during the timed runs
    /// (what `study` does in its counting run): measures the counters' cost.
    #[arg(long)]
    counters: bool,
    /// Also run every instance with this algorithm (repeatable); its rows and summary follow
    /// the main table's.
    #[arg(long, value_name = "ALG")]
    compare: Vec<String>,
    /// Draw time and nodes against instance size (cells, log axes) into this SVG file, one
    /// series per algorithm; without `--compare`, `paper` is added when the family has it.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Files or folders (searched recursively) of instances.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

struct Row {
    file: String,
    /// Cells of the instance (for `--plot`; 0 when not asked for).
    cells: usize,
    status: Status,
    matches: Option<bool>,
    elapsed: Duration,
    nodes: u64,
    failures: u64,
    /// Solutions counted (with `--limit`), and whether the count is exact.
    solutions: Option<(u64, bool)>,
}

/// What one timed run produced: the status, the rendered solution (solve) or the count (with
/// `--limit`: solutions, complete), and the search counters.
struct Outcome {
    status: Status,
    solution: Option<pencilbox_core::Rendered>,
    solutions: Option<(u64, bool)>,
    stats: pencilbox_core::Stats,
}

/// Collects instance files under `paths`, sorted, skipping answer files of known families.
pub(crate) fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, InputError> {
    let answer_exts: Vec<&str> = registry::PUZZLES.iter().filter_map(|k| k.answer_extension()).collect();
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            while let Some(d) = stack.pop() {
                let entries =
                    std::fs::read_dir(&d).map_err(|e| InputError(format!("{}: cannot list: {e}", d.display())))?;
                for e in entries.flatten() {
                    let path = e.path();
                    if path.is_dir() {
                        stack.push(path);
                    } else {
                        let ext = path.extension().and_then(|x| x.to_str()).unwrap_or("");
                        let hidden = path
                            .file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with('.'));
                        if !answer_exts.contains(&ext) && !hidden && ext != "md" && ext != "json" {
                            out.push(path);
                        }
                    }
                }
            }
        } else if p.exists() || p.as_os_str() == "-" {
            out.push(p.clone());
        } else {
            return Err(InputError(format!("{}: no such file or folder", p.display())));
        }
    }
    out.sort();
    Ok(out)
}

/// The limits of one timed run of `bench` or `study`: the deadline `timeout` seconds from now,
/// the Ctrl-C flag of `watched`, the memory budget, and the per-rule counters when `counters`.
pub(crate) fn run_limits(timeout: Option<f64>, watched: &Limits, counters: bool) -> Limits {
    Limits {
        deadline: timeout.map(|t| Instant::now() + Duration::from_secs_f64(t.min(1e9))),
        cancel: watched.cancel.clone(),
        memory: crate::memory_budget(),
        counters,
        ..Limits::default()
    }
}

/// The answer file next to an instance (`x.in` ↔ `x.ans`), if the family has one and it exists.
fn answer_for(kind: &dyn PuzzleKind, path: &Path) -> Option<PathBuf> {
    let ext = kind.answer_extension()?;
    let candidate = path.with_extension(ext);
    (candidate != path && candidate.is_file()).then_some(candidate)
}

/// Runs the benchmark; returns the exit code.
pub fn run(args: &BenchArgs) -> u8 {
    let files = match collect(&args.paths) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let settings = match parse_settings(&args.settings) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if let Some(t) = args.timeout {
        if !(t.is_finite() && t >= 0.0) {
            return fail(InputError(format!(
                "--timeout {t}: the time limit must be a non-negative number of seconds"
            )));
        }
    }
    if args.limit == Some(0) {
        return fail(InputError("--limit 0: the limit must be at least 1".into()));
    }
    let repeat = args.repeat.max(1);
    // Read and classify everything first, so bad input fails before any timing starts.
    let mut compare = args.compare.clone();
    let plot_paper = args.plot.is_some() && compare.is_empty() && args.algorithm.as_deref() != Some("paper");
    let mut jobs = Vec::new();
    for f in &files {
        let name = display_name(f);
        let text = match read_text(f) {
            Ok(t) => t,
            Err(e) => return fail(e),
        };
        let kind = match resolve_kind(args.puzzle.as_deref(), &text, &name) {
            Ok(k) => k,
            Err(e) => return fail(e),
        };
        if let Err(e) = kind.algorithm(args.algorithm.as_deref()) {
            return fail(InputError(e.to_string()));
        }
        for c in &args.compare {
            if let Err(e) = kind.algorithm(Some(c)) {
                return fail(InputError(format!("--compare {c}: {e}")));
            }
        }
        if plot_paper && kind.algorithm(Some("paper")).is_ok() && !compare.iter().any(|c| c == "paper") {
            compare.push("paper".into());
        }
        let answer = match answer_for(kind, f) {
            Some(a) => match read_text(&a) {
                Ok(t) => Some(t),
                Err(e) => return fail(e),
            },
            None => None,
        };
        jobs.push((name, kind, text, answer));
    }
    let total_instances: usize = jobs.iter().map(|(_, k, t, _)| k.instances(t).len()).sum();
    let bar = (std::io::stderr().is_terminal() && !matches!(args.format, Format::Json)).then(|| {
        let b = indicatif::ProgressBar::new(total_instances as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    // Ctrl-C stops the instance being solved; the finished ones are reported.
    let mut watched = Limits::default();
    let mut watch = Watch::cancel_only(&mut watched);
    // The bench's algorithm first, then each compared one.
    let algorithms: Vec<Option<String>> = std::iter::once(args.algorithm.clone())
        .chain(compare.iter().cloned().map(Some))
        .collect();
    let mut tables: Vec<Vec<Row>> = algorithms.iter().map(|_| Vec::new()).collect();
    'jobs: for (name, kind, text, answer) in &jobs {
        let instances = kind.instances(text);
        let many = instances.len() > 1;
        for inst in instances {
            let cells = if args.plot.is_some() {
                kind.dimensions(inst.text, &RunOptions::default())
                    .map_or(0, |(h, w)| h * w)
            } else {
                0
            };
            for (table, algorithm) in tables.iter_mut().zip(&algorithms) {
                // A compared algorithm the family lacks is skipped for its instances.
                if algorithm.is_some() && kind.algorithm(algorithm.as_deref()).is_err() {
                    continue;
                }
                let label = if many {
                    format!("{name}:{}", inst.first_line)
                } else {
                    name.clone()
                };
                let mut best: Option<(Duration, Outcome)> = None;
                for _ in 0..repeat {
                    let limits = run_limits(args.timeout, &watched, args.counters);
                    // Bench compares the text form with the answer file and prints no notes.
                    let opts = RunOptions {
                        algorithm: algorithm.clone(),
                        limits,
                        settings: settings.clone(),
                        render: Render::Text,
                        notes: false,
                    };
                    let t0 = Instant::now();
                    let outcome = match args.limit {
                        None => kind.solve(inst.text, &opts).map(|r| Outcome {
                            status: r.status,
                            solution: r.solution,
                            solutions: None,
                            stats: r.stats,
                        }),
                        Some(limit) => kind.count(inst.text, Some(limit), &opts).map(|r| {
                            let n = u64::try_from(&r.count).unwrap_or(u64::MAX);
                            Outcome {
                                // A count stopped by the deadline is a timeout even after a first
                                // solution: the work asked for (the count) did not finish.
                                status: if r.interrupted {
                                    Status::Timeout
                                } else if n == 0 {
                                    Status::Unsolvable
                                } else {
                                    Status::Solved
                                },
                                solution: None,
                                solutions: Some((n, r.complete)),
                                stats: r.stats,
                            }
                        }),
                    };
                    let outcome = match outcome {
                        Ok(r) => r,
                        Err(e) => {
                            if let Some(b) = &bar {
                                b.finish_and_clear();
                            }
                            return fail(describe(name, inst.first_line, &e));
                        }
                    };
                    let dt = t0.elapsed();
                    if watch.interrupted() {
                        // The interrupted instance has no time to report.
                        break 'jobs;
                    }
                    if best.as_ref().is_none_or(|(b, _)| dt < *b) {
                        best = Some((dt, outcome));
                    }
                }
                let Some((elapsed, report)) = best else { continue };
                let matches = match (&report.solution, answer) {
                    (Some(sol), Some(ans)) if !many => match kind.matches_answer(sol, ans) {
                        Ok(m) => Some(m),
                        Err(e) => return fail(describe(name, 1, &e)),
                    },
                    // Counted (`--limit`): the answer file must be a solution; with one solution
                    // counted it is then that solution. Checked after the timing.
                    (None, Some(ans)) if !many && report.status == Status::Solved => {
                        let opts = RunOptions {
                            algorithm: algorithm.clone(),
                            settings: settings.clone(),
                            ..RunOptions::default()
                        };
                        match kind.verify(inst.text, ans, &opts) {
                            Ok(v) => Some(v.is_valid()),
                            Err(_) => Some(false),
                        }
                    }
                    // A timeout is reported as a timeout, not as a wrong answer.
                    (None, Some(_)) if !many && report.status != Status::Timeout => Some(false),
                    _ => None,
                };
                table.push(Row {
                    file: label.clone(),
                    cells,
                    status: report.status,
                    matches,
                    elapsed,
                    nodes: report.stats.nodes,
                    failures: report.stats.failures,
                    solutions: report.solutions,
                });
            }
            if let Some(b) = &bar {
                b.inc(1);
            }
        }
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    watch.done();
    let rows = &tables[0];
    let stopped = watch.interrupted().then_some((rows.len(), total_instances));
    let named: Vec<(String, &[Row])> = compare
        .iter()
        .cloned()
        .zip(tables[1..].iter().map(Vec::as_slice))
        .collect();
    let code = if args.format == Format::Json {
        // One JSON document: the main report with the compared algorithms inside.
        report(args, rows, stopped, &named)
    } else {
        let mut code = report(args, rows, stopped, &[]);
        for (alg, rows) in &named {
            emit(&format!("\n{alg}:"));
            code = worse(code, report(args, rows, None, &[]));
        }
        code
    };
    let code = named.iter().fold(code, |c, (_, rows)| worse(c, code_of(rows)));
    if let Some(path) = &args.plot {
        let main = args.algorithm.clone().unwrap_or_else(|| "default".into());
        let series: Vec<crate::plot::Growth> = std::iter::once((main, rows.as_slice()))
            .chain(named.iter().map(|(a, r)| (a.clone(), *r)))
            .map(|(name, rows)| {
                let pts = rows
                    .iter()
                    .filter(|r| r.status != Status::Timeout && r.cells > 0)
                    .map(|r| (r.cells as f64, r.elapsed.as_secs_f64() * 1000.0, r.nodes.max(1) as f64))
                    .collect();
                (name, pts)
            })
            .collect();
        let title = format!("time and nodes against size ({} instances)", rows.len());
        if let Err(e) = crate::plot::growth(path, &title, "cells", &series) {
            return fail(InputError(format!("--plot {}: {e}", path.display())));
        }
    }
    watch.code(code)
}

/// Prints the rows and the summary; `stopped` = `(finished, all)` when Ctrl-C ended the run.
fn report(args: &BenchArgs, rows: &[Row], stopped: Option<(usize, usize)>, compared: &[(String, &[Row])]) -> u8 {
    let solved = rows.iter().filter(|r| r.status == Status::Solved).count();
    let mismatches = rows.iter().filter(|r| r.matches == Some(false)).count();
    let timeouts = rows.iter().filter(|r| r.status == Status::Timeout).count();
    let total: Duration = rows.iter().map(|r| r.elapsed).sum();
    let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
    // With `--limit`: instances counted to exactly one solution.
    let unique = rows.iter().filter(|r| r.solutions == Some((1, true))).count();
    if args.format == Format::Json {
        let instances: Vec<_> = rows
            .iter()
            .map(|r| {
                let mut o = json!({"file": r.file, "status": r.status, "matches_answer": r.matches,
                       "elapsed_us": r.elapsed.as_micros() as u64,
                       "elapsed_ns": r.elapsed.as_nanos() as u64, "nodes": r.nodes,
                       "failures": r.failures});
                if let Some((n, complete)) = r.solutions {
                    o["solutions"] = json!(n);
                    o["complete"] = json!(complete);
                }
                o
            })
            .collect();
        let mut v = json!({"instances": instances, "summary": {"instances": rows.len(), "solved": solved,
            "mismatches": mismatches, "timeouts": timeouts, "nodes": nodes,
            "elapsed_us": total.as_micros() as u64}});
        if let Some(limit) = args.limit {
            v["summary"]["limit"] = json!(limit);
            v["summary"]["unique"] = json!(unique);
        }
        if let Some((_, all)) = stopped {
            v["summary"]["of"] = json!(all);
            v["stopped_by"] = json!("ctrl-c");
        }
        if !compared.is_empty() {
            let mut by = serde_json::Map::new();
            for (alg, rows) in compared {
                by.insert(
                    alg.clone(),
                    json!(rows
                        .iter()
                        .map(|r| json!({"file": r.file, "status": r.status,
                    "elapsed_us": r.elapsed.as_micros() as u64, "nodes": r.nodes, "failures": r.failures,
                    "matches_answer": r.matches}))
                        .collect::<Vec<_>>()),
                );
            }
            v["compare"] = serde_json::Value::Object(by);
        }
        emit(&v.to_string());
    } else {
        if !args.quiet {
            // The file column is as wide as the longest name, so long paths keep the columns.
            let w = rows.iter().map(|r| r.file.chars().count()).max().unwrap_or(0).max(40);
            let counted = if args.limit.is_some() {
                format!(" {:>9}", "solutions")
            } else {
                String::new()
            };
            emit(&format!(
                "{:<w$} {:>10} {:>8} {:>12} {:>12}{counted}",
                "file", "status", "answer", "time (ms)", "nodes"
            ));
            for r in rows {
                let status = match r.status {
                    Status::Solved => "solved",
                    Status::Unsolvable => "unsolvable",
                    Status::Timeout => "timeout",
                };
                let m = match r.matches {
                    Some(true) => "match",
                    Some(false) => "MISMATCH",
                    None => "-",
                };
                // `≥2`: the count stopped at the limit.
                let counted = match r.solutions {
                    Some((n, true)) => format!(" {n:>9}"),
                    Some((n, false)) => format!(" {:>9}", format!("≥{n}")),
                    None => String::new(),
                };
                emit(&format!(
                    "{:<w$} {:>10} {:>8} {:>12.3} {:>12}{counted}",
                    r.file,
                    status,
                    m,
                    r.elapsed.as_secs_f64() * 1000.0,
                    r.nodes
                ));
            }
        }
        emit(&format!(
            "{} instances, {} solved, {} mismatches, {} timeouts, {} nodes, {:.3} ms total",
            rows.len(),
            solved,
            mismatches,
            timeouts,
            nodes,
            total.as_secs_f64() * 1000.0
        ));
        if let Some(limit) = args.limit {
            emit(&format!(
                "counted up to {limit} solution(s): {unique} of {} instances have exactly one",
                rows.len()
            ));
        }
        if let Some((done, all)) = stopped {
            emit(&format!(
                "interrupted: Ctrl-C stopped the run after {done} of {all} instances"
            ));
        }
    }
    code_of(rows)
}

/// The exit code of a table: 1 when an answer differs, 3 when something timed out, else 0.
fn code_of(rows: &[Row]) -> u8 {
    if rows.iter().any(|r| r.matches == Some(false)) {
        1
    } else if rows.iter().any(|r| r.status == Status::Timeout) {
        3
    } else {
        0
    }
}

/// The worse of two exit codes (a mismatch over a timeout over success).
fn worse(a: u8, b: u8) -> u8 {
    match (a, b) {
        (1, _) | (_, 1) => 1,
        _ => a.max(b),
    }
}
