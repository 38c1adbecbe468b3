//! The plug-in interface every puzzle family implements, and the reports it returns.
//!
//! A puzzle crate exposes one `static` value implementing [`PuzzleKind`]; the CLI's registry
//! is a sorted slice of them, so a new puzzle type is one crate plus one registry line.
//!
//! The trait is object-safe and text-in, report-out: the CLI (and the web server) never see a
//! puzzle's types. Outcomes such as "no solution" and "several solutions" are *values* in the
//! reports; [`PuzzleError`] is only for input that is not a puzzle or a request that cannot be
//! served.
//!
//! # Contract
//! * `parse` errors carry the line and column *within the text passed in*; for batch files
//!   ([`PuzzleKind::instances`]) the CLI shifts them by the instance's first line.
//! * Every solution in a report has passed the puzzle's verifier (the implementations check it
//!   in debug builds and tests).
//! * `solve`/`count` honour [`RunOptions::limits`]: deadline, node limit and cancellation.

use crate::error::PuzzleError;
use crate::search::{Limits, Stats};
use num_bigint::BigUint;
use serde::Serialize;

/// A named algorithm of a puzzle family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AlgorithmInfo {
    /// Name given to `--algorithm`.
    pub name: &'static str,
    /// One line for `--help` and `pencilbox list`.
    pub summary: &'static str,
}

/// Which renderings of a solution the caller will print; the others are left empty, so a
/// run that prints text does not pay for a drawing or JSON.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Render {
    /// Text, drawing and JSON.
    #[default]
    All,
    /// Only [`Rendered::text`] (the answer-file form; what `bench` compares).
    Text,
    /// Only [`Rendered::pretty`].
    Pretty,
    /// Only [`Rendered::json`].
    Json,
}

impl Render {
    /// Is the text form wanted?
    pub fn text(self) -> bool {
        matches!(self, Render::All | Render::Text)
    }
    /// Is the drawing wanted?
    pub fn pretty(self) -> bool {
        matches!(self, Render::All | Render::Pretty)
    }
    /// Is the JSON form wanted?
    pub fn json(self) -> bool {
        matches!(self, Render::All | Render::Json)
    }
}

/// Options for a solve or count.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The algorithm to use (`None` = the family's default).
    pub algorithm: Option<String>,
    /// Deadline, node limit, cancellation (the solution cap is set by the operation).
    pub limits: Limits,
    /// Puzzle-specific settings given as `key=value` (e.g. `block=3x3` for Sudoku).
    pub settings: Vec<(String, String)>,
    /// The renderings to make of the solutions (default: all).
    pub render: Render,
    /// Compute the instance's notes (sizes, a paper's bounds) for `--stats` and JSON
    /// (default: yes; `bench` needs none).
    pub notes: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            algorithm: None,
            limits: Limits::default(),
            settings: Vec::new(),
            render: Render::All,
            notes: true,
        }
    }
}

impl RunOptions {
    /// The value of a `key=value` setting.
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.settings.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A solution was found.
    Solved,
    /// The puzzle has no solution (proved).
    Unsolvable,
    /// A time or node limit stopped the search first.
    Timeout,
}

/// A solution (or configuration) rendered for output. Forms not asked for
/// ([`RunOptions::render`]) are empty (`""`, `null`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rendered {
    /// The plain text form (the answer-file body).
    pub text: String,
    /// A drawing for people (`--format pretty`); equal to `text` when there is none.
    pub pretty: String,
    /// The JSON form used in `"solution"` fields.
    pub json: serde_json::Value,
}

/// A `(name, value)` line shown by `--stats` (for example a paper's bound for this instance).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Note {
    /// What the value is.
    pub name: String,
    /// The value.
    pub value: String,
}

impl Note {
    /// A note.
    pub fn new(name: impl Into<String>, value: impl ToString) -> Self {
        Note {
            name: name.into(),
            value: value.to_string(),
        }
    }
}

/// The result of a solve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveReport {
    /// How it ended.
    pub status: Status,
    /// The solution when solved.
    pub solution: Option<Rendered>,
    /// Why the puzzle is unsolvable, when a theorem or check says so before search.
    pub reason: Option<String>,
    /// The algorithm that ran.
    pub algorithm: String,
    /// Search counters.
    pub stats: Stats,
    /// Extra figures for `--stats`.
    pub notes: Vec<Note>,
}

/// The result of a count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CountReport {
    /// Solutions found (exact when `complete`).
    pub count: BigUint,
    /// False when the limit or a deadline stopped the count.
    pub complete: bool,
    /// True when a deadline, node limit or cancellation (not the solution cap) stopped it.
    pub interrupted: bool,
    /// Two different solutions when `count ≥ 2`.
    pub witness: Vec<Rendered>,
    /// Where the two witnesses differ (cell names), when there are two.
    pub differences: Vec<String>,
    /// Why there is no solution, when known before search.
    pub reason: Option<String>,
    /// The algorithm that ran.
    pub algorithm: String,
    /// Search counters.
    pub stats: Stats,
    /// Extra figures for `--stats`.
    pub notes: Vec<Note>,
}

/// One broken rule in a proposed solution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// Where: a cell (`r3c4`), a row, a column, a region.
    pub at: String,
    /// Which rule, in a word or two (`duplicate-in-region`, `row-clue`, ...).
    pub rule: String,
    /// A sentence for people.
    pub message: String,
}

impl Violation {
    /// A violation.
    pub fn new(at: impl Into<String>, rule: impl Into<String>, message: impl Into<String>) -> Self {
        Violation {
            at: at.into(),
            rule: rule.into(),
            message: message.into(),
        }
    }
}

/// The result of verifying a proposed solution.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// Every violation found; empty means valid.
    pub violations: Vec<Violation>,
}

impl VerifyReport {
    /// True when there is no violation.
    pub fn is_valid(&self) -> bool {
        self.violations.is_empty()
    }
}

/// One puzzle of a file (batch files hold several).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance<'a> {
    /// The puzzle's text.
    pub text: &'a str,
    /// The line of the file on which `text` starts (1-based).
    pub first_line: u32,
}

/// A puzzle family, as the CLI and server see it. Object-safe.
pub trait PuzzleKind: Sync {
    /// The family's name (`--puzzle NAME`), lower case.
    fn name(&self) -> &'static str;
    /// One line describing the family.
    fn summary(&self) -> &'static str;
    /// A cheap guess: does this text look like this family's format?
    fn detect(&self, text: &str) -> bool;
    /// The algorithms, the default first.
    fn algorithms(&self) -> Vec<AlgorithmInfo>;
    /// The settings it accepts as `--set KEY=VALUE` (others are refused).
    fn settings(&self) -> &'static [crate::plugin::SettingInfo] {
        &[]
    }
    /// `(height, width)` of the puzzle in `text` once parsed (the server's size guard).
    fn dimensions(&self, text: &str, opts: &RunOptions) -> Result<(usize, usize), PuzzleError>;
    /// An estimate, in bytes, of the memory a solve or count of the puzzle in `text` with the
    /// algorithm of `opts` takes at most (the server's per-request memory budget refuses
    /// requests above it before any work). Default: [`DEFAULT_BYTES_PER_CELL`] per cell of
    /// [`PuzzleKind::dimensions`].
    fn memory_estimate(&self, text: &str, opts: &RunOptions) -> Result<u64, PuzzleError> {
        let (m, n) = self.dimensions(text, opts)?;
        Ok(bytes_for_cells(m, n, DEFAULT_BYTES_PER_CELL))
    }
    /// The largest side the family serves interactively (the playground server refuses larger
    /// grids with a message pointing at `pencilbox solve`); `None`: only the server's own limits.
    fn max_side(&self) -> Option<usize> {
        None
    }
    /// The extension of answer files next to instances (`ans` for `x.in` ↔ `x.ans`), if any.
    fn answer_extension(&self) -> Option<&'static str> {
        None
    }
    /// Splits a file into puzzles; by default the whole file is one puzzle.
    fn instances<'a>(&self, text: &'a str) -> Vec<Instance<'a>> {
        vec![Instance { text, first_line: 1 }]
    }
    /// Parses and solves.
    fn solve(&self, text: &str, opts: &RunOptions) -> Result<SolveReport, PuzzleError>;
    /// Counts solutions up to `limit` (`None` = all), with two witnesses when there are several.
    fn count(&self, text: &str, limit: Option<u64>, opts: &RunOptions) -> Result<CountReport, PuzzleError>;
    /// Checks a proposed solution (in the answer-file format) against the puzzle. Malformed
    /// solution text is a [`PuzzleError::Solution`] (positions within `solution`).
    fn verify(&self, text: &str, solution: &str, opts: &RunOptions) -> Result<VerifyReport, PuzzleError>;
    /// Does a found solution equal the one in an answer file? Default: same tokens.
    fn matches_answer(&self, solution: &Rendered, answer: &str) -> Result<bool, PuzzleError> {
        Ok(solution.text.split_whitespace().eq(answer.split_whitespace()))
    }
    /// Reads a puzzle in any form the family reads (file format, JSON, puzz.link URL) and
    /// writes it in the family's file format, or as a puzz.link URL when `url` (the
    /// playground's import and export). Default: no conversion.
    fn convert(&self, text: &str, url: bool, opts: &RunOptions) -> Result<String, PuzzleError> {
        let _ = (text, opts);
        Err(PuzzleError::unsupported(format!(
            "{} puzzles cannot be converted{}",
            self.name(),
            if url { " to a puzz.link URL" } else { "" }
        )))
    }
    /// The steps a person would take on `text` (after the player's `entries`, a partly
    /// filled grid, when given), rated; refused by families without an explainer.
    fn explain(
        &self,
        text: &str,
        entries: Option<&str>,
        opts: &RunOptions,
        explain: &crate::human::ExplainOptions,
    ) -> Result<crate::human::Explanation, PuzzleError> {
        let _ = (text, entries, opts, explain);
        Err(PuzzleError::unsupported(format!(
            "there is no explainer for {}",
            self.name()
        )))
    }
    /// The generator, if the family has one.
    fn generator(&self) -> Option<crate::plugin::GeneratorInfo> {
        None
    }
    /// Makes a puzzle (see [`crate::plugin::Puzzle::generate`]).
    fn generate(&self, req: &crate::plugin::GenerateRequest) -> Result<crate::plugin::Generated, PuzzleError> {
        let _ = req;
        Err(PuzzleError::unsupported(format!(
            "there is no generator for {}",
            self.name()
        )))
    }
    /// The puzzle's engine model as a formula in `format` (DIMACS CNF, CPLEX LP or OPB; see
    /// [`crate::encode`]), variables named after the cells and links. Default: not available.
    fn export(
        &self,
        text: &str,
        format: crate::encode::ExportFormat,
        opts: &RunOptions,
    ) -> Result<String, PuzzleError> {
        let _ = (text, format, opts);
        Err(PuzzleError::unsupported(format!(
            "`export` is not available for {} puzzles",
            self.name()
        )))
    }
    /// The facts that hold in every solution, each marked given, by the rules alone or only by
    /// search (see [`crate::setter`]). Default: not available.
    fn forced(&self, text: &str, opts: &RunOptions) -> Result<crate::setter::ForcedReport, PuzzleError> {
        let _ = (text, opts);
        Err(PuzzleError::unsupported(format!(
            "`forced` is not available for {} puzzles",
            self.name()
        )))
    }
    /// For a puzzle with several solutions: a clue that removes the second witness and keeps
    /// the first, counts capped at `limit` (see [`crate::setter::suggest`]). Default: not
    /// available.
    fn suggest(&self, text: &str, limit: u64, opts: &RunOptions) -> Result<crate::setter::SuggestReport, PuzzleError> {
        let _ = (text, limit, opts);
        Err(PuzzleError::unsupported(format!(
            "`count --suggest` is not available for {} puzzles",
            self.name()
        )))
    }
    /// For a unique puzzle: the clues that can each be removed alone without losing uniqueness
    /// (see [`crate::setter::redundant`]). Default: not available.
    fn redundant(&self, text: &str, opts: &RunOptions) -> Result<crate::setter::RedundantReport, PuzzleError> {
        let _ = (text, opts);
        Err(PuzzleError::unsupported(format!(
            "`count --redundant` is not available for {} puzzles",
            self.name()
        )))
    }
    /// Looks up an algorithm by name (`None` = the default).
    fn algorithm(&self, name: Option<&str>) -> Result<AlgorithmInfo, PuzzleError> {
        let algs = self.algorithms();
        match name {
            None => algs
                .first()
                .copied()
                .ok_or_else(|| PuzzleError::unsupported(format!("{} has no algorithm", self.name()))),
            Some(n) => algs.iter().find(|a| a.name == n).copied().ok_or_else(|| {
                let names: Vec<_> = algs.iter().map(|a| a.name).collect();
                PuzzleError::unsupported(format!(
                    "unknown algorithm `{n}` for {}; choose one of: {}",
                    self.name(),
                    names.join(", ")
                ))
            }),
        }
    }
}

/// Lists the positions where two equally long sequences differ, named by `name`.
pub fn differences<T: PartialEq>(a: &[T], b: &[T], name: impl Fn(usize) -> String) -> Vec<String> {
    a.iter()
        .zip(b)
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(i, _)| name(i))
        .collect()
}

/// The memory estimate per cell of a family that gives none of its own
/// ([`PuzzleKind::memory_estimate`]): engine models take a few hundred bytes per cell.
pub const DEFAULT_BYTES_PER_CELL: u64 = 1024;

/// `bytes` per cell of an `m`×`n` grid (saturating).
pub fn bytes_for_cells(m: usize, n: usize, bytes: u64) -> u64 {
    (m as u64).saturating_mul(n as u64).saturating_mul(bytes)
}
