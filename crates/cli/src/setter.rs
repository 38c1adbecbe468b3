//! The setter's tools on the command line: `forced`, `count --suggest [--apply OUT]` and
//! `count --redundant` (see [`pencilbox_core::setter`]). Every family that offers them through
//! its plug-in gets them; nothing here names a family.

use crate::commands::{fail, resolve_kind, run_options};
use crate::input::{describe, display_name, read_text, InputError};
use crate::interrupt::Watch;
use crate::output::emit;
use crate::{Format, PuzzleArgs};
use pencilbox_core::setter::{By, ForcedReport, Solutions};
use pencilbox_core::{BigUint, PuzzleKind, RunOptions};
use serde_json::Value;
use std::path::Path;

/// The one puzzle of a file, its family, options and display name.
pub(crate) struct One {
    pub(crate) name: String,
    pub(crate) text: String,
    pub(crate) first_line: u32,
    pub(crate) kind: &'static dyn PuzzleKind,
    pub(crate) opts: RunOptions,
}

pub(crate) fn load_one(args: &PuzzleArgs, file: &Path, what: &str) -> Result<One, InputError> {
    let name = display_name(file);
    let text = read_text(file)?;
    let kind = resolve_kind(args.puzzle.as_deref(), &text, &name)?;
    let opts = run_options(args)?;
    crate::commands::check_options(kind, &opts)?;
    let instances = kind.instances(&text);
    let (inst_text, first_line) = match instances.as_slice() {
        [one] => (one.text.to_string(), one.first_line),
        [] => return Err(InputError(format!("{name}: no puzzle in the file"))),
        many => {
            return Err(InputError(format!(
                "{name}: the file holds {} puzzles; {what} works on one",
                many.len()
            )))
        }
    };
    Ok(One {
        name,
        text: inst_text,
        first_line,
        kind,
        opts,
    })
}

pub use pencilbox_registry::json::{forced_json, redundant_json, suggest_json};

/// The exit code of a `forced` run: 1 no solution, 3 stopped by a limit, else 0.
pub fn forced_code(r: &ForcedReport) -> u8 {
    if r.solutions == Solutions::None {
        1
    } else if !r.complete {
        3
    } else {
        0
    }
}

/// `pencilbox forced`.
pub fn forced(args: &PuzzleArgs, format: Format, file: &Path) -> u8 {
    let mut one = match load_one(args, file, "forced") {
        Ok(o) => o,
        Err(e) => return fail(e),
    };
    let mut watch = Watch::search("forced", &mut one.opts.limits, false);
    let r = one.kind.forced(&one.text, &one.opts);
    watch.done();
    let r = match r {
        Ok(r) => r,
        Err(e) => return fail(describe(&one.name, one.first_line, &e)),
    };
    if format == Format::Json {
        emit(&forced_json(one.kind.name(), &r).to_string());
        return watch.code(forced_code(&r));
    }
    let (given, rules, search) = r.tally();
    match r.solutions {
        Solutions::None => {
            emit(&format!(
                "no solution: {}",
                r.reason.as_deref().unwrap_or("the search found none")
            ));
            return 1;
        }
        Solutions::Unique => emit("unique solution: every place is forced"),
        Solutions::Several => emit("several solutions"),
        Solutions::Unknown => emit(&format!("solutions: not known (stopped by {})", watch.stopped_by())),
    }
    emit(&format!(
        "forced: {} of {} places ({given} given, {rules} by the rules alone, {search} only by search)",
        r.forced.len(),
        r.places
    ));
    for f in &r.forced {
        let why = match f.by {
            By::Given => "given".to_string(),
            By::Rules if f.rules.is_empty() => "rules: the puzzle's domains".to_string(),
            // The techniques' names for people when the family has a vocabulary, else the
            // engine's rule ids.
            By::Rules if f.techniques.is_empty() => format!("rules: {}", f.rules.join(", ")),
            By::Rules => {
                let names: Vec<&str> = f.techniques.iter().map(|t| t.name).collect();
                format!("rules: {}", names.join(", "))
            }
            By::Search => "search".to_string(),
        };
        emit(&format!("{} = {}  {why}", f.at, f.value));
    }
    if !r.complete {
        emit(&format!(
            "incomplete: stopped by {}; {} place(s) undecided: {}",
            watch.stopped_by(),
            r.undecided.len(),
            r.undecided.join(" ")
        ));
    }
    watch.code(forced_code(&r))
}

/// Refuses a run whose puzzle has the wrong number of solutions: 1 for none, 3 when a limit
/// stopped the count (130 when Ctrl-C did), 2 with `message` (on standard error) otherwise.
/// The result goes out as `json` when there is one (`--format json`), else as a line of text.
fn wrong_count(
    name: &str,
    count: &BigUint,
    complete: bool,
    (interrupted, watch): (bool, &Watch),
    message: &str,
    json: Option<&Value>,
) -> Option<u8> {
    let (code, text) = if interrupted && *count < BigUint::from(2u32) && watch.interrupted() {
        (3, "interrupted: Ctrl-C stopped the run before the count was known")
    } else if interrupted && *count < BigUint::from(2u32) {
        (3, "timeout: the limit was reached before the count was known")
    } else if complete && *count == BigUint::default() {
        (1, "no solution")
    } else if !message.is_empty() {
        (2, "")
    } else {
        return None;
    };
    match json {
        Some(v) => emit(&v.to_string()),
        None if code != 2 => emit(text),
        None => {}
    }
    if code == 2 {
        eprintln!("pencilbox: {name}: {message}");
    }
    Some(watch.code(code))
}

/// `pencilbox count --suggest [--apply OUT]`.
pub fn suggest(args: &PuzzleArgs, limit: Option<u64>, format: Format, apply: Option<&Path>, file: &Path) -> u8 {
    let mut one = match load_one(args, file, "--suggest") {
        Ok(o) => o,
        Err(e) => return fail(e),
    };
    let mut watch = Watch::search("count --suggest", &mut one.opts.limits, false);
    let r = one.kind.suggest(&one.text, limit.unwrap_or(100), &one.opts);
    watch.done();
    let r = match r {
        Ok(r) => r,
        Err(e) => return fail(describe(&one.name, one.first_line, &e)),
    };
    let unique = r.complete && r.count == BigUint::from(1u32);
    let message = if unique {
        "the puzzle has exactly one solution; --suggest needs several (try --redundant)"
    } else {
        ""
    };
    let json = (format == Format::Json).then(|| suggest_json(one.kind.name(), &r));
    if let Some(code) = wrong_count(
        &one.name,
        &r.count,
        r.complete,
        (r.interrupted, &watch),
        message,
        json.as_ref(),
    ) {
        return code;
    }
    if let Some(v) = &json {
        emit(&v.to_string());
    } else {
        let at_least = if r.complete { "" } else { "at least " };
        emit(&format!(
            "{at_least}{} solution(s); the first two differ at: {}",
            r.count,
            r.differences.join(" ")
        ));
        match (&r.clue, &r.count_after) {
            (Some(c), Some(n)) => {
                let after = if r.complete_after { "" } else { "at least " };
                let unique = if r.complete_after && *n == BigUint::from(1u32) {
                    " (unique)"
                } else {
                    ""
                };
                emit(&format!("suggested clue: {} = {}", c.at, c.value));
                emit(&format!("with it: {after}{n} solution(s){unique}"));
            }
            _ => emit("no clue of the format separates the two solutions"),
        }
        if r.interrupted {
            emit(&format!(
                "incomplete: stopped by {} (the best clue so far)",
                watch.stopped_by()
            ));
        }
    }
    if let (Some(out), Some(c)) = (apply, &r.clue) {
        let mut text = c.puzzle.clone();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        if let Err(e) = std::fs::write(out, text) {
            return fail(InputError(format!("{}: cannot write: {e}", display_name(out))));
        }
    }
    watch.code(match (&r.clue, r.interrupted) {
        (None, true) => 3,
        (None, false) => 1,
        (Some(_), _) => 0,
    })
}

/// `pencilbox count --redundant`.
pub fn redundant(args: &PuzzleArgs, format: Format, file: &Path) -> u8 {
    let mut one = match load_one(args, file, "--redundant") {
        Ok(o) => o,
        Err(e) => return fail(e),
    };
    let mut watch = Watch::search("count --redundant", &mut one.opts.limits, false);
    let r = one.kind.redundant(&one.text, &one.opts);
    watch.done();
    let r = match r {
        Ok(r) => r,
        Err(e) => return fail(describe(&one.name, one.first_line, &e)),
    };
    let several = r.count >= BigUint::from(2u32);
    let message = if several {
        format!(
            "the puzzle has {} solutions; --redundant needs a unique puzzle (try --suggest)",
            if r.complete {
                r.count.to_string()
            } else {
                format!("at least {}", r.count)
            }
        )
    } else {
        String::new()
    };
    let json = (format == Format::Json).then(|| redundant_json(one.kind.name(), &r));
    if let Some(code) = wrong_count(
        &one.name,
        &r.count,
        r.complete,
        (r.interrupted, &watch),
        &message,
        json.as_ref(),
    ) {
        return code;
    }
    if let Some(v) = &json {
        emit(&v.to_string());
    } else {
        emit(&format!(
            "unique; {} of {} clue(s) can each be removed alone and the puzzle stays unique{}",
            r.redundant.len(),
            r.clues,
            if r.redundant.is_empty() { "" } else { ":" }
        ));
        for c in &r.redundant {
            emit(&format!("{} = {}", c.at, c.value));
        }
        if r.interrupted {
            emit(&format!(
                "incomplete: stopped by {} after {} of {} clues",
                watch.stopped_by(),
                r.checked,
                r.clues
            ));
        }
    }
    watch.code(if r.interrupted { 3 } else { 0 })
}
