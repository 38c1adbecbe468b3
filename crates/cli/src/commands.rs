//! `solve`, `verify`, `count` and `list`: resolve flags into options, run, print.

use crate::input::{describe, display_name, read_text, InputError};
use crate::interrupt::Watch;
use crate::output::{self, emit};
use crate::registry;
use crate::{Format, PuzzleArgs};
use pencilbox_core::rules::Role;
use pencilbox_core::{Limits, PuzzleError, PuzzleKind, Render, RunOptions, Status};
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
        Some(n) => {
            let kind = registry::by_name(n).ok_or_else(|| {
                let names: Vec<_> = registry::PUZZLES.iter().map(|k| k.name()).collect();
                InputError(format!(
                    "--puzzle {n}: unknown puzzle `{n}`; choose one of: {}",
                    names.join(", ")
                ))
            })?;
            named_but_another(kind, text, file).map_or(Ok(kind), Err)
        }
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

/// When `--puzzle` names a family whose parser refuses the text while other families recognise
/// it (`-p sudoku` on a Suguru file): the family's complaint, where it is, and what the text
/// looks like.
fn named_but_another(kind: &'static dyn PuzzleKind, text: &str, file: &str) -> Option<InputError> {
    let others: Vec<_> = registry::detect(text)
        .into_iter()
        .filter(|k| k.name() != kind.name())
        .map(|k| k.name())
        .collect();
    if others.is_empty() || registry::detect(text).iter().any(|k| k.name() == kind.name()) {
        return None;
    }
    let first = kind.instances(text).into_iter().next()?;
    let Err(PuzzleError::Parse(e)) = kind.dimensions(first.text, &RunOptions::default()) else {
        return None;
    };
    Some(InputError(format!(
        "{file}:{}:{}: read as {}: {}; but the text looks like a {} puzzle: name that family, or none",
        e.pos.line + first.first_line - 1,
        e.pos.col,
        kind.name(),
        e.message,
        others.join(" or ")
    )))
}

/// The error for a text no family recognises: where it fails as the family it most resembles
/// (see [`registry::closest`]).
fn unrecognised(text: &str, file: &str) -> InputError {
    if text.trim().is_empty() {
        return InputError(format!(
            "{file}:1:1: the file is empty; expected a puzzle (see `pencilbox list` and the formats in docs/formats.md)"
        ));
    }
    if let Some(e) = unknown_url_genre(text, file) {
        return e;
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

/// The error for a puzz.link URL of a genre no family reads (rather than the complaint of the
/// family whose text format it resembles most).
fn unknown_url_genre(text: &str, file: &str) -> Option<InputError> {
    let t = text.trim();
    if t.lines().count() != 1 || !pencilbox_core::genre::is_url(t) {
        return None;
    }
    let (line_no, line) = text.lines().enumerate().find(|(_, l)| !l.trim().is_empty())?;
    let q = line.find('?')?;
    let genre = line[q + 1..].split('/').next().unwrap_or("");
    // No family detected the text; the URL readers say whether it is the genre they refuse
    // (else, e.g. a known genre with a broken body, the closest family's message is better).
    let names: Vec<_> = registry::PUZZLES.iter().map(|k| k.name()).collect();
    let refused_genre = |k: &&dyn PuzzleKind| {
        k.dimensions(text, &RunOptions::default()).err().is_some_and(|e| {
            let m = e.to_string();
            m.contains("genre") && m.contains(&format!("found `{genre}`"))
        })
    };
    if !registry::PUZZLES.iter().any(refused_genre) {
        return None;
    }
    let col = line[..q + 1].chars().count() + 1;
    Some(InputError(format!(
        "{file}:{}:{col}: a puzz.link URL of the genre `{genre}`, which pencilbox does not read; it reads the URLs of {} (see `pencilbox list`)",
        line_no + 1,
        names.join(", ")
    )))
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
                "--timeout {t}: the time limit must be a non-negative number of seconds"
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

/// Checks `--algorithm` and the keys of `--set` against the family before anything runs, so
/// that a wrong one is reported at the option (`--set blok=3x3: unknown setting ...`) rather
/// than as a fault of the file. (A value the family refuses, such as `--set rules=zzz`, is
/// reported by the family with the value named.)
pub fn check_options(kind: &dyn PuzzleKind, opts: &RunOptions) -> Result<(), InputError> {
    if let Some(a) = &opts.algorithm {
        if let Err(e) = kind.algorithm(Some(a)) {
            return Err(InputError(format!("--algorithm {a}: {e}")));
        }
    }
    for (key, value) in &opts.settings {
        if !kind.settings().iter().any(|s| s.key == key) {
            let why = pencilbox_core::puzzle::SettingInfo::unknown(kind.name(), key, Some(value), kind.settings());
            return Err(InputError(format!("--set {key}={value}: {why}")));
        }
    }
    Ok(())
}

/// Parses `--set KEY=VALUE` settings.
pub fn parse_settings(raw: &[String]) -> Result<Vec<(String, String)>, InputError> {
    let mut out = Vec::new();
    for s in raw {
        let Some((k, v)) = s.split_once('=') else {
            return Err(InputError(format!(
                "--set {s}: a setting is KEY=VALUE (e.g. `--set block=2x3`)"
            )));
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
    check_options(kind, &opts)?;
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
    // `--stats`: the engine's per-rule counters too (calls, values removed, conflicts, time).
    opts.limits.counters = show_stats;
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
            if !report.rules.is_empty() {
                eprintln!("{}", output::rules_table(&report.rules));
            }
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
    if let Err(e) = check_options(kind, &opts) {
        return fail(e);
    }
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
        return fail(InputError("--limit 0: the limit must be at least 1".into()));
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
        if let Some(t) = k.rule_table() {
            emit(&format!("    rules of `{}` (--set rules=…):", t.algorithm));
            for r in t.rules {
                let role = match r.role {
                    Role::Defining => "defines",
                    Role::Optional => "optional",
                    Role::OffByDefault => "opt, off",
                    Role::Always => "always",
                };
                emit(&format!("      {:<14} {role:<9} {}", r.name, r.summary));
            }
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
