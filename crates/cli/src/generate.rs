//! `pencilbox generate FAMILY ...`: every family's generator through one command, the
//! plug-in's generator capability ([`pencilbox_core::PuzzleKind::generator`] /
//! [`pencilbox_core::PuzzleKind::generate`]). Nothing here knows a family.
//!
//! `pencilbox generate FAMILY [--size RxC] [--difficulty D] [--seed N] [--set KEY=VALUE]...
//! [--timeout SECS] [--format text|json|url] [--answer FILE]` prints a puzzle in the family's
//! file format (or its JSON, or a puzz.link URL) and writes its solution to `--answer`. The
//! size, the difficulty names and the setting keys are checked against what the generator
//! declares (`pencilbox list` shows them). Exit 2 on a bad request, 1 when the generator found
//! no puzzle (Path: no unique puzzle from the seeds it was allowed to try), 3 when `--timeout`
//! passed first (every generator reads the clock between its steps and inside its searches,
//! [`pencilbox_core::generate::stopped`]), 130 on Ctrl-C (at once: a generator has nothing to
//! show part-way). On a terminal a run that takes over a
//! second shows a progress line ([`crate::interrupt`]).

use clap::ValueEnum;
use pencilbox_core::plugin::GenerateRequest;
use pencilbox_core::search::{Limits, StopReason};
use pencilbox_core::PuzzleError;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The largest side length `generate` accepts (each generator declares its own cell limit).
pub const MAX_SIDE: usize = 60;

/// Output formats of a generated puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GenFormat {
    /// The family's file format.
    Text,
    /// The family's JSON.
    Json,
    /// A puzz.link URL (families that have one).
    Url,
}

// Options of `generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// The puzzle family (`pencilbox list` marks those with a generator).
    pub family: String,
    /// Grid size ROWSxCOLS, e.g. 10x10 (default: the generator's).
    #[arg(long, value_name = "RxC")]
    pub size: Option<String>,
    /// Difficulty, for generators that have levels (Suguru and Path: easy, medium, hard).
    #[arg(long)]
    pub difficulty: Option<String>,
    /// Random seed (the same seed gives the same puzzle); drawn from the clock when omitted.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Generator setting KEY=VALUE (Path: clues=PERCENT, tries=N, any=yes; Sudoku: block=RxC); repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub settings: Vec<String>,
    /// Give up after this many seconds (exit code 3).
    #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
    pub timeout: Option<f64>,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = GenFormat::Text)]
    pub format: GenFormat,
    /// Also write the solution (in the answer-file format) here.
    #[arg(long, value_name = "FILE")]
    pub answer: Option<std::path::PathBuf>,
}

/// Parses `RxC` (also `R×C`), each side in `1..=MAX_SIDE`.
pub fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (r, c) = s
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| format!("--size must look like 8x8, found `{s}`"))?;
    let side = |t: &str, what: &str| -> Result<usize, String> {
        let v: usize = t
            .trim()
            .parse()
            .map_err(|_| format!("--size: the number of {what} must be a whole number, found `{t}`"))?;
        if v == 0 || v > MAX_SIDE {
            return Err(format!(
                "--size: the number of {what} must be between 1 and {MAX_SIDE}, found {v}"
            ));
        }
        Ok(v)
    };
    Ok((side(r, "rows")?, side(c, "columns")?))
}

/// Runs `generate`; returns the exit code.
pub fn run(a: &GenerateArgs) -> u8 {
    match generate(a) {
        Ok(()) => 0,
        Err((code, message)) => {
            eprintln!("pencilbox: {message}");
            code
        }
    }
}

fn generate(a: &GenerateArgs) -> Result<(), (u8, String)> {
    let usage = |m: String| (2, m);
    let kind = crate::registry::by_name(&a.family).ok_or_else(|| {
        let names: Vec<_> = crate::registry::PUZZLES
            .iter()
            .filter(|k| k.generator().is_some())
            .map(|k| k.name())
            .collect();
        usage(format!(
            "no generator for `{}`; generators: {}",
            a.family,
            names.join(", ")
        ))
    })?;
    let info = kind
        .generator()
        .ok_or_else(|| usage(format!("there is no generator for {}", kind.name())))?;
    let (height, width) = match &a.size {
        Some(s) => parse_size(s).map_err(usage)?,
        None => info.default_size,
    };
    let settings = crate::commands::parse_settings(&a.settings).map_err(|e| usage(e.0))?;
    let mut limits = Limits {
        memory: crate::memory_budget(),
        ..Limits::default()
    };
    if let Some(t) = a.timeout {
        if !(t.is_finite() && t > 0.0) {
            return Err(usage(format!(
                "--timeout {t}: the time limit must be a positive number of seconds"
            )));
        }
        limits.deadline = Some(Instant::now() + Duration::from_secs_f64(t.min(1e9)));
    }
    let seed = a.seed.unwrap_or_else(clock_seed);
    // Nothing to print part-way: Ctrl-C ends the run at once (exit 130).
    let mut watch =
        crate::interrupt::Watch::uncancellable(&format!("generate {} {height}x{width}", kind.name()), &mut limits);
    let req = GenerateRequest {
        height,
        width,
        difficulty: a.difficulty.clone(),
        seed,
        settings,
        limits,
    };
    let g = kind.generate(&req);
    watch.done();
    let g = g.map_err(|e| match e {
        PuzzleError::NotFound(m) => (1, m),
        // The time limit (or Ctrl-C, should a generator see it first) stopped it: as a search.
        PuzzleError::Interrupted {
            reason: StopReason::Cancelled,
            message,
        } => (130, message),
        PuzzleError::Interrupted { message, .. } => (3, format!("timeout: {message}")),
        other => (2, other.to_string()),
    })?;
    let out = match a.format {
        GenFormat::Text => g.text.clone(),
        GenFormat::Json => format!("{}\n", g.json),
        GenFormat::Url => match &g.url {
            Some(u) => format!("{u}\n"),
            None => {
                return Err(usage(format!(
                    "{} puzzles have no puzz.link URL in pencilbox",
                    kind.name()
                )))
            }
        },
    };
    if a.seed.is_none() || g.seed != seed {
        eprintln!("pencilbox: seed {}", g.seed);
    }
    crate::output::emit(out.trim_end_matches('\n'));
    if let Some(path) = &a.answer {
        std::fs::write(path, &g.answer).map_err(|e| (2, format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_rows_by_columns_within_limits() {
        assert_eq!(parse_size("6x8"), Ok((6, 8)));
        assert_eq!(parse_size("10×10"), Ok((10, 10)));
        assert!(parse_size("0x5").is_err());
        assert!(parse_size("61x5").is_err());
        assert!(parse_size("axb").is_err());
        assert!(parse_size("8").is_err());
    }
}
