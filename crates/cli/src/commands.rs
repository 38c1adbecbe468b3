//! `solve`, `verify`, `count` and `list`: resolve flags into options, run, print.

use crate::input::{describe, display_name, read_text, InputError};
use crate::interrupt::Watch;
use crate::output::{self, emit};
use crate::registry;
use crate::{Format, PuzzleArgs};
use pencilbox_core::{Limits, PuzzleKind, Render, RunOptions, Status};
use std::path::Path;
use std::time::{Duration, Instant};

/// Reports an input error and returns exit code 2.
pub fn fail(e: InputError) -> u8 {
    eprintln!("pencilbox: {e}");
    2
}

/// Picks the puzzle family: by name, or by detecting the text.
pub fn resolve_kind(name: Option<&str>, text: &str, file: &str) -> Result<&'static dyn PuzzleKind, InputError> {
    match name {
        Some(n) => registry::by_name(n).ok_or_else(|| {
            let names: Vec<_> = registry::PUZZLES.iter().map(|k| k.name()).collect();
            InputError(format!("unknown puzzle `{n}`; choose one of: {}", names.join(", ")))
        }),
        None => {
            let found = registry::detect(text);
            match found.as_slice() {
                [k] => Ok(*k),
                [] => Err(unrecognised(text, file)),
                many => {
                    let names: Vec<_> = many.iter().map(|k| k.name()).collect();
                    Err(InputError(format!(
                        "{file}: this could be {}; name it with --puzzle",
                        names.join(" or ")
                    )))
                }
            }
        }
    }
}

/// The error for a text no family recognises: where it fails as the family it most resembles
/// (see [`registry::closest`]).
fn unrecognised(text: &str, file: &str) -> InputError {
    if text.trim().is_empty() {
        return InputError(format!(
            "{file}:1:1: the file is empty; expected a puzzle (see `pencilbox list` and the formats in docs/formats.md)"
        ));
    }
    match registry::closest(text) {
        Some((kinds, e)) => {
            let names: Vec<_> = kinds.iter().map(|k| k.name()).collect();
            let (first, rest) = names.split_first().map_or(("", &[][..]), |(f, r)| (*f, r));
            let also = if rest.is_empty() {
                String::new()
            } else {
                format!(" (or a {} file)", rest.join(" or "))
            };
            InputError(format!(
                "{file}:{}:{}: looks like a {first} file{also}: {}; name the family with --puzzle if it is another",
                e.pos.line, e.pos.col, e.message
            ))
        }
        None => InputError(format!(
            "{file}: cannot tell which puzzle this is; name it with --puzzle (see `pencilbox list`)"
        )),
    }
}

/// Builds run options from the shared flags.
pub fn run_options(args: &PuzzleArgs) -> Result<RunOptions, InputError> {
    let mut limits = Limits {
        memory: crate::memory_budget(),
        ..Limits::default()
    };
    if let Some(t) = args.timeout {
        if !(t.is_finite() && t >= 0.0) {
            return Err(InputError(format!(
                "--timeout must be a number of seconds ≥ 0, found {t}"
            )));
        }
        limits.deadline = Some(Instant::now() + Duration::from_secs_f64(t.min(1e9)));
    }
    limits.node_limit = args.node_limit;
    let settings = parse_settings(&args.settings)?;
    Ok(RunOptions {
        algorithm: args.algorithm.clone(),
        limits,
        settings,
        ..RunOptions::default()
    })
}

/// Parses `--set KEY=VALUE` settings.
pub fn parse_settings(raw: &[String]) -> Result<Vec<(String, String)>, InputError> {
    let mut out = Vec::new();
    for s in raw {
        let Some((k, v)) = s.split_once('=') else {
            return Err(InputError(format!("--set takes KEY=VALUE, found `{s}`")));
        };
        out.push((k.trim().to_string(), v.trim().to_string()));
    }
    Ok(out)
}

/// Reads a puzzle file and resolves its family and run options: what `solve` and `count` share.
fn load(args: &PuzzleArgs, file: &Path) -> Result<(String, String, &'static dyn PuzzleKind, RunOptions), InputError> {
    let name = display_name(file);
    let text = read_text(file)?;
    let kind = resolve_kind(args.puzzle.as_deref(), &text, &name)?;
    let opts = run_options(args)?;
    Ok((name, text, kind, opts))
}

/// The renderings and notes a command prints in `format` (the rest is not made).
fn wanted(opts: &mut RunOptions, format: Format, show_stats: bool) {
    opts.render = match format {
        Format::Text => Render::Text,
        Format::Pretty => Render::Pretty,
        Format::Json => Render::Json,
    };
    opts.notes = show_stats || format == Format::Json;
}

/// `pencilbox solve`.
pub fn solve(args: &PuzzleArgs, format: Format, show_stats: bool, file: &Path) -> u8 {
    let (name, text, kind, mut opts) = match load(args, file) {
        Ok(loaded) => loaded,
        Err(e) => return fail(e),
    };
    wanted(&mut opts, format, show_stats);
    let instances = kind.instances(&text);
    if instances.is_empty() {
        return fail(InputError(format!("{name}: no puzzle in the file")));
    }
    let mut worst = 0u8;
    for inst in instances {
        // One watch per instance: its progress line is cleared before the instance's result.
        let mut watch = Watch::search("solve", &mut opts.limits, false);
        let report = kind.solve(inst.text, &opts);
        watch.done();
        let report = match report {
            Ok(r) => r,
            Err(e) => return fail(describe(&name, inst.first_line, &e)),
        };
        let code = output::status_code(report.status);
        worst = worst.max(code);
        match format {
            Format::Json => emit(&watch.mark(output::solve_json(kind.name(), &report)).to_string()),
            Format::Text | Format::Pretty => match (&report.solution, report.status) {
                (Some(s), _) => emit(output::solution_text(s, format == Format::Pretty)),
                (None, Status::Unsolvable) => {
                    let why = report.reason.as_deref().unwrap_or("the search found none");
                    emit(&format!("no solution: {why}"));
                }
                (None, _) if watch.interrupted() => {
                    emit("interrupted: Ctrl-C stopped the search before a solution was found")
                }
                (None, _) => emit("timeout: the limit was reached before a solution was found"),
            },
        }
        if show_stats && format != Format::Json {
            eprintln!("{}", output::stats_line(&report.stats, &report.notes));
        }
        if watch.interrupted() {
            // The instances after the one Ctrl-C stopped are not started.
            return watch.code(worst);
        }
    }
    worst
}

/// `pencilbox verify`.
pub fn verify(puzzle: Option<&str>, settings: &[String], format: Format, file: &Path, solution: &Path) -> u8 {
    let name = display_name(file);
    let sol_name = display_name(solution);
    if file.as_os_str() == "-" && solution.as_os_str() == "-" {
        return fail(InputError(
            "the puzzle and the solution cannot both be standard input (`-`); give one as a file".into(),
        ));
    }
    let (text, sol) = match (read_text(file), read_text(solution)) {
        (Ok(t), Ok(s)) => (t, s),
        (Err(e), _) | (_, Err(e)) => return fail(e),
    };
    let kind = match resolve_kind(puzzle, &text, &name) {
        Ok(k) => k,
        Err(e) => return fail(e),
    };
    let opts = match parse_settings(settings) {
        Ok(settings) => RunOptions {
            settings,
            ..RunOptions::default()
        },
        Err(e) => return fail(e),
    };
    let report = match kind.verify(&text, &sol, &opts) {
        Ok(r) => r,
        Err(e @ pencilbox_core::PuzzleError::Solution(_)) => return fail(describe(&sol_name, 1, &e)),
        Err(e) => return fail(describe(&name, 1, &e)),
    };
    match format {
        Format::Json => emit(&output::verify_json(kind.name(), &report).to_string()),
        _ => {
            if report.is_valid() {
                emit("valid");
            } else {
                for v in &report.violations {
                    // A message that starts with its own cell ("r3c1 has ...") is not prefixed
                    // with it again.
                    if v.message
                        .strip_prefix(v.at.as_str())
                        .is_some_and(|rest| rest.starts_with(' '))
                    {
                        emit(&format!("{} ({})", v.message, v.rule));
                    } else {
                        emit(&format!("{}: {} ({})", v.at, v.message, v.rule));
                    }
                }
                emit(&format!("invalid: {} violation(s)", report.violations.len()));
            }
        }
    }
    if report.is_valid() {
        0
    } else {
        1
    }
}

/// `pencilbox count`.
pub fn count(args: &PuzzleArgs, limit: Option<u64>, format: Format, show_stats: bool, file: &Path) -> u8 {
    let (name, text, kind, mut opts) = match load(args, file) {
        Ok(loaded) => loaded,
        Err(e) => return fail(e),
    };
    wanted(&mut opts, format, show_stats);
    if limit == Some(0) {
        return fail(InputError("--limit must be at least 1".into()));
    }
    let mut worst = 0u8;
    for inst in kind.instances(&text) {
        let mut watch = Watch::search("count", &mut opts.limits, true);
        let report = kind.count(inst.text, limit, &opts);
        watch.done();
        let report = match report {
            Ok(r) => r,
            Err(e) => return fail(describe(&name, inst.first_line, &e)),
        };
        let code = if report.interrupted {
            3
        } else if report.count == 0u32.into() {
            1
        } else {
            0
        };
        worst = worst.max(code);
        match format {
            Format::Json => emit(&watch.mark(output::count_json_report(kind.name(), &report)).to_string()),
            _ => {
                let qualifier = if report.complete { "" } else { "at least " };
                let what = if report.interrupted {
                    format!(" (stopped by {})", watch.stopped_by())
                } else if !report.complete {
                    " (stopped at --limit)".to_string()
                } else {
                    String::new()
                };
                emit(&format!("{qualifier}{} solution(s){what}", report.count));
                if let Some(r) = &report.reason {
                    emit(&format!("no solution: {r}"));
                }
                if report.witness.len() >= 2 {
                    let pretty = format == Format::Pretty;
                    emit("first solution:");
                    emit(output::solution_text(&report.witness[0], pretty));
                    emit("second solution:");
                    emit(output::solution_text(&report.witness[1], pretty));
                    emit(&format!("they differ at: {}", report.differences.join(" ")));
                }
            }
        }
        if show_stats && format != Format::Json {
            eprintln!("{}", output::stats_line(&report.stats, &report.notes));
        }
        if watch.interrupted() {
            return watch.code(worst);
        }
    }
    worst
}

/// `pencilbox list`.
pub fn list() -> u8 {
    for k in registry::PUZZLES {
        emit(&format!("{:<8} {}", k.name(), k.summary()));
        for (i, a) in k.algorithms().iter().enumerate() {
            let default = if i == 0 && !a.summary.contains("(default)") {
                " (default)"
            } else {
                ""
            };
            emit(&format!("    {:<10} {}{default}", a.name, a.summary));
        }
        for set in k.settings() {
            emit(&format!("    --set {}=…  {}", set.key, set.summary));
        }
        if let Some(g) = k.generator() {
            let mut line = format!("    generate: up to {} cells", g.max_cells);
            if !g.difficulties.is_empty() {
                line.push_str(&format!(", --difficulty {}", g.difficulties.join("|")));
            }
            for set in g.settings {
                line.push_str(&format!(", --set {}=… ({})", set.key, set.summary));
            }
            emit(&line);
        }
    }
    0
}
