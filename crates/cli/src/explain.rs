//! `pencilbox explain` and `pencilbox hint`: the steps a person would take, rated, and the next
//! step at three depths — for every family with the explain capability
//! ([`pencilbox_core::PuzzleKind::explain`], built on [`pencilbox_core::human`]).

use crate::commands::{fail, resolve_kind, run_options};
use crate::input::{describe, display_name, read_text, InputError};
use crate::interrupt::Watch;
use crate::output::emit;
use crate::{Format, PuzzleArgs};
use pencilbox_core::human::{ExplainOptions, ExplainStatus, HintLevel};
use pencilbox_core::PuzzleError;
use serde_json::json;
use std::io::IsTerminal;
use std::path::PathBuf;

// Arguments of `pencilbox explain`.
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub args: PuzzleArgs,
    /// Output format: text or json (`pretty` prints the same as text).
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Stop with `stalled` (exit 1) when the rules stall instead of guessing.
    #[arg(long)]
    pub no_guess: bool,
    /// Use only the rules up to this level (1 = simplest; `pencilbox explain --help` and the
    /// docs/cli.md list each family's levels).
    #[arg(long, value_name = "N")]
    pub max_level: Option<u8>,
    /// Print only each puzzle's status and rating, and a summary at the end (for batch files;
    /// a progress line on standard error when it is a terminal).
    #[arg(long)]
    pub rating_only: bool,
    /// The player's position: a partly filled answer grid (`0` or `.` = empty; for Path, the
    /// lines drawn so far as arrows), taken as given. A position without solutions names the
    /// entries that the puzzle's only solution does not have.
    #[arg(long, value_name = "FILE")]
    pub entries: Option<PathBuf>,
    /// The puzzle file (one puzzle, or one per line for Sudoku batches), or `-`.
    pub file: PathBuf,
}

// Arguments of `pencilbox hint`.
#[derive(clap::Args, Debug)]
pub struct HintArgs {
    #[command(flatten)]
    pub args: PuzzleArgs,
    /// How much to tell: `nudge` (where to look), `rule` (which rule applies there) or
    /// `answer` (the conclusion).
    #[arg(long, default_value = "rule")]
    pub level: String,
    /// Output format: text or json (`pretty` prints the same as text).
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The player's position: a partly filled answer grid (`0` or `.` = empty; for Path, the
    /// lines drawn so far as arrows), taken as given. A position without solutions names the
    /// entries that the puzzle's only solution does not have.
    #[arg(long, value_name = "FILE")]
    pub entries: Option<PathBuf>,
    /// The puzzle (for Suguru and Ripple Effect it may carry the player's numbers as hints),
    /// or `-`.
    pub file: PathBuf,
}

/// The entries file's name and text, when `--entries` is given.
fn read_entries(path: &Option<PathBuf>) -> Result<Option<(String, String)>, InputError> {
    path.as_ref().map(|p| Ok((display_name(p), read_text(p)?))).transpose()
}

/// An error of an explanation with entries: the entries file's problems name that file.
fn explain_error(name: &str, entries: &Option<(String, String)>, first_line: u32, e: &PuzzleError) -> InputError {
    match (entries, e) {
        (Some((en, _)), PuzzleError::Solution(_)) => describe(en, 1, e),
        (Some((en, _)), PuzzleError::Entries(m)) => InputError(format!("{en}: {m}")),
        _ => describe(name, first_line, e),
    }
}

/// The exit code of an explanation: 0 solved, 1 stalled or no solution, 3 timeout.
pub fn status_code(s: ExplainStatus) -> u8 {
    match s {
        ExplainStatus::Solved => 0,
        ExplainStatus::Stalled | ExplainStatus::NoSolution => 1,
        ExplainStatus::Timeout => 3,
    }
}

pub use pencilbox_registry::json::{explanation_json, rating_json};

/// `pencilbox explain`.
pub fn explain(a: &ExplainArgs) -> u8 {
    let name = display_name(&a.file);
    let loaded = read_text(&a.file).and_then(|text| {
        let kind = resolve_kind(a.args.puzzle.as_deref(), &text, &name)?;
        let opts = run_options(&a.args)?;
        crate::commands::check_options(kind, &opts)?;
        Ok((text, kind, opts, read_entries(&a.entries)?))
    });
    let (text, kind, mut opts, entries) = match loaded {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    let mut eo = ExplainOptions {
        no_guess: a.no_guess,
        max_level: a.max_level,
        limits: opts.limits.clone(),
        check_chains: false,
        check_steps: false,
        refute: Vec::new(),
    };
    let instances = kind.instances(&text);
    if instances.is_empty() {
        return fail(InputError(format!("{name}: no puzzle in the file")));
    }
    let many = instances.len() > 1;
    if many && entries.is_some() {
        return fail(InputError(format!(
            "{name}: --entries is a position of one puzzle, and the file holds {}",
            instances.len()
        )));
    }
    let progress = a.rating_only && many && std::io::stderr().is_terminal();
    let (mut worst, mut sum, mut rated) = (0u8, 0.0f64, 0usize);
    let total = instances.len();
    for (k, inst) in instances.into_iter().enumerate() {
        let mut watch = Watch::search("explain", &mut opts.limits, false);
        eo.limits = opts.limits.clone();
        let x = kind.explain(inst.text, entries.as_ref().map(|(_, t)| t.as_str()), &opts, &eo);
        watch.done();
        let x = match x {
            Ok(x) => x,
            Err(e) => return fail(explain_error(&name, &entries, inst.first_line, &e)),
        };
        worst = worst.max(status_code(x.status));
        sum += x.rating.score;
        rated += 1;
        if progress && (k % 64 == 0 || k + 1 == total) {
            eprint!("\r{}/{} rated, mean {:.2}", k + 1, total, sum / rated as f64);
        }
        match (a.format, a.rating_only) {
            (Format::Json, true) => emit(
                &watch
                    .mark(
                        json!({"puzzle": kind.name(), "line": inst.first_line, "status": x.status, "rating": rating_json(kind.name(), &x)}),
                    )
                    .to_string(),
            ),
            (Format::Json, false) => {
                let mut v = watch.mark(explanation_json(kind.name(), &x));
                if many {
                    v["line"] = json!(inst.first_line);
                }
                emit(&v.to_string())
            }
            (_, true) => emit(&format!(
                "{}:{}: {}; {}{}",
                name,
                inst.first_line,
                x.status.name(),
                x.rating_line(),
                se_suffix(kind.name(), &x)
            )),
            (_, false) => {
                if many {
                    emit(&format!("puzzle at line {}:", inst.first_line));
                }
                let text = format!("{}{}", x.to_text().trim_end(), se_suffix(kind.name(), &x));
                if watch.interrupted() {
                    // The steps found before Ctrl-C, with the cause named where a timeout is.
                    emit(
                        text.trim_end()
                            .replace("status: timeout", "status: interrupted (Ctrl-C)")
                            .as_str(),
                    );
                } else {
                    emit(text.trim_end());
                }
            }
        }
        if watch.interrupted() {
            if progress {
                eprintln!();
            }
            return watch.code(worst);
        }
    }
    if progress {
        eprintln!();
    }
    if a.rating_only && many {
        let mean = sum / rated.max(1) as f64;
        match a.format {
            Format::Json => emit(&json!({"summary": {"puzzles": rated, "mean_rating": mean}}).to_string()),
            _ => emit(&format!("{rated} puzzles, mean rating {mean:.2}")),
        }
    }
    worst
}

/// `; SE-like 7.2` after a Sudoku rating line (the Sudoku Explainer–like number,
/// docs/sudoku.md); empty for the other families.
fn se_suffix(puzzle: &str, x: &pencilbox_core::human::Explanation) -> String {
    pencilbox_registry::json::se_like(puzzle, x).map_or_else(String::new, |se| format!("; SE-like {se:.1}"))
}

/// `pencilbox hint`.
pub fn hint(a: &HintArgs) -> u8 {
    let name = display_name(&a.file);
    let Some(level) = HintLevel::parse(&a.level) else {
        return fail(InputError(format!(
            "--level wants nudge, rule or answer, found `{}`",
            a.level
        )));
    };
    let loaded = read_text(&a.file).and_then(|text| {
        let kind = resolve_kind(a.args.puzzle.as_deref(), &text, &name)?;
        let opts = run_options(&a.args)?;
        crate::commands::check_options(kind, &opts)?;
        Ok((text, kind, opts, read_entries(&a.entries)?))
    });
    let (text, kind, mut opts, entries) = match loaded {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    let mut watch = Watch::search("hint", &mut opts.limits, false);
    let r = hint_json(kind, &text, entries.as_ref().map(|(_, t)| t.as_str()), &opts, level);
    watch.done();
    let (mut v, found, status) = match r {
        Ok(r) => r,
        Err(e) => return fail(explain_error(&name, &entries, 1, &e)),
    };
    if !found && watch.interrupted() {
        v["message"] = json!("Ctrl-C stopped the search before a step was found");
    }
    match a.format {
        Format::Json => emit(&watch.mark(v).to_string()),
        _ => emit(v["text"].as_str().or(v["message"].as_str()).unwrap_or_default()),
    }
    watch.code(match (found, status) {
        (true, _) => 0,
        (false, ExplainStatus::Timeout) => 3,
        (false, _) => 1,
    })
}

pub use pencilbox_registry::json::{hint_json, no_hint_json, no_hint_message, no_hint_text};
