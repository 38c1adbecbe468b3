//! The plug-in interface every puzzle family implements, and the reports it returns.
//!
//! A puzzle crate exposes one `static` value implementing [`PuzzleKind`](crate::kind::PuzzleKind); the CLI's registry
//! is a sorted slice of them, so a new puzzle type is one crate plus one registry line.
//!
//! The trait is object-safe and text-in, report-out: the CLI (and the web server) never see a
//! puzzle's types. Outcomes such as "no solution" and "several solutions" are *values* in the
//! reports; [`PuzzleError`](crate::error::PuzzleError) is only for input that is not a puzzle or a request that cannot be
//! served.
//!
//! # Contract
//! * `parse` errors carry the line and column *within the text passed in*; for batch files
//!   ([`PuzzleKind::instances`](crate::kind::PuzzleKind::instances)) the CLI shifts them by the instance's first line.
//! * Every solution in a report has passed the puzzle's verifier (the implementations check it
//!   in debug builds and tests).
//! * `solve`/`count` honour [`RunOptions::limits`]: deadline, node limit and cancellation.

use crate::search::{Limits, SearchResult, Stats, StopReason};
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
    /// The solution as a position of the family's board ([`crate::board::Form`]) when its
    /// answer is written otherwise ([`crate::plugin::Puzzle::position`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// Why the puzzle is unsolvable, when a theorem or check says so before search.
    pub reason: Option<String>,
    /// The algorithm that ran.
    pub algorithm: String,
    /// Search counters.
    pub stats: Stats,
    /// Extra figures for `--stats`.
    pub notes: Vec<Note>,
    /// Per-rule counters ([`Found::rules`]; asked for by `Limits::counters`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<RuleCount>,
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
    /// Per-rule counters ([`Found::rules`]; asked for by `Limits::counters`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<RuleCount>,
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
/// ([`PuzzleKind::memory_estimate`](crate::kind::PuzzleKind::memory_estimate)): engine models take a few hundred bytes per cell.
pub const DEFAULT_BYTES_PER_CELL: u64 = 1024;

/// What a run takes besides the model, in every estimate ([`estimate`]): the process, its
/// allocator's first pages, the puzzle's text and tables, the search's buffers (measured:
/// 14 MB peak on a 6×6 grid; up to 27 MB more than the per-cell figures give on 100×100
/// grids).
pub const BASE_BYTES: u64 = 48 << 20;

/// `bytes` per cell of an `m`×`n` grid (saturating).
pub fn bytes_for_cells(m: usize, n: usize, bytes: u64) -> u64 {
    (m as u64).saturating_mul(n as u64).saturating_mul(bytes)
}

/// A memory estimate from measured figures ([`crate::plugin::Puzzle::memory_estimate`]):
/// [`BASE_BYTES`], `per_cell` bytes per cell of an `m`×`n` grid and `per_pair` bytes per
/// pair of cells (a formula with a cardinality over every cell, whose totalizer grows with
/// the square of the grid), saturating.
pub fn estimate(m: usize, n: usize, per_cell: u64, per_pair: u64) -> u64 {
    let cells = (m as u64).saturating_mul(n as u64);
    BASE_BYTES
        .saturating_add(cells.saturating_mul(per_cell))
        .saturating_add(cells.saturating_mul(cells).saturating_mul(per_pair))
}

/// A family's measured memory figures ([`crate::plugin::Puzzle::MEMORY`]): bytes per cell
/// for its engine algorithms, and bytes per cell and per pair of cells for `sat` (its formula).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Memory {
    per_cell: u64,
    sat_per_cell: u64,
    sat_per_pair: u64,
}

impl Memory {
    /// The figures: engine bytes per cell; `sat` bytes per cell and per pair of cells.
    pub const fn new(per_cell: u64, sat_per_cell: u64, sat_per_pair: u64) -> Self {
        Memory {
            per_cell,
            sat_per_cell,
            sat_per_pair,
        }
    }

    /// The estimate ([`estimate`]) for an `m`×`n` grid and `algorithm` (`None`: the default).
    pub fn estimate(self, (m, n): (usize, usize), algorithm: Option<&str>) -> u64 {
        match algorithm {
            Some("sat") => estimate(m, n, self.sat_per_cell, self.sat_per_pair),
            _ => estimate(m, n, self.per_cell, 0),
        }
    }
}

/// A setting a family accepts as `--set KEY=VALUE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SettingInfo {
    /// The key.
    pub key: &'static str,
    /// One line for help: the values it takes and what it does.
    pub summary: &'static str,
}

impl SettingInfo {
    /// Why `--set key=value` is refused by a family (`family`) whose settings are `known`:
    /// the keys it accepts, and, when `key` is a part of one of them (`racers=N` inside
    /// Path's `rules`), how to write it there (with the value, when given).
    ///
    /// ```
    /// use pencilbox_core::puzzle::SettingInfo;
    /// let known = [SettingInfo { key: "rules", summary: "rules: all or none; racers=N" }];
    /// assert_eq!(
    ///     SettingInfo::unknown("path", "racers", Some("1"), &known),
    ///     "unknown setting `racers` for path; it accepts: rules (`racers` is part of `rules`: --set rules=racers=1)"
    /// );
    /// assert!(SettingInfo::unknown("path", "racers", None, &known).ends_with("(`racers` is part of `rules`)"));
    /// assert!(!SettingInfo::unknown("path", "acers", None, &known).contains("part of"));
    /// assert_eq!(SettingInfo::unknown("suguru", "x", None, &[]), "unknown setting `x`: suguru takes no settings");
    /// ```
    pub fn unknown(family: &str, key: &str, value: Option<&str>, known: &[SettingInfo]) -> String {
        if known.is_empty() {
            return format!("unknown setting `{key}`: {family} takes no settings");
        }
        let keys: Vec<&str> = known.iter().map(|s| s.key).collect();
        let mut why = format!("unknown setting `{key}` for {family}; it accepts: {}", keys.join(", "));
        let part = format!("{key}=");
        let inside = known.iter().find(|s| {
            s.summary
                .match_indices(&part)
                .any(|(i, _)| !s.summary[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        });
        match (inside, value) {
            (Some(s), Some(value)) => why.push_str(&format!(
                " (`{key}` is part of `{}`: --set {}={key}={value})",
                s.key, s.key
            )),
            (Some(s), None) => why.push_str(&format!(" (`{key}` is part of `{}`)", s.key)),
            (None, _) => {}
        }
        why
    }
}

/// What a family's generator offers (for help, validation and the playground).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GeneratorInfo {
    /// The difficulty names it accepts (empty: no difficulty levels), the default first.
    pub difficulties: &'static [&'static str],
    /// The generator's own settings (`--set KEY=VALUE`).
    pub settings: &'static [SettingInfo],
    /// The largest grid (in cells) it makes in reasonable time.
    pub max_cells: usize,
    /// The size made when none is asked for (rows, columns).
    pub default_size: (usize, usize),
}

/// A request to generate a puzzle.
#[derive(Clone, Debug, Default)]
pub struct GenerateRequest {
    /// Rows.
    pub height: usize,
    /// Columns.
    pub width: usize,
    /// A difficulty name (`None`: the generator's default).
    pub difficulty: Option<String>,
    /// The random seed: the same request and seed give the same puzzle.
    pub seed: u64,
    /// Generator settings (`KEY=VALUE`).
    pub settings: Vec<(String, String)>,
    /// Deadline and cancellation.
    pub limits: Limits,
}

impl GenerateRequest {
    /// The value of a setting.
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.settings.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// A generated puzzle.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Generated {
    /// The puzzle in the family's file format.
    pub text: String,
    /// The puzzle as JSON.
    pub json: serde_json::Value,
    /// The puzzle as a puzz.link URL, when the family has one.
    pub url: Option<String>,
    /// Its solution in the answer-file format.
    pub answer: String,
    /// The seed that made it (a generator may move on to later seeds).
    pub seed: u64,
    /// True when it has exactly one solution.
    pub unique: bool,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found<S> {
    /// The first solutions (at most the number asked to keep).
    pub solutions: Vec<S>,
    /// How many solutions were found (exact when `complete`).
    pub count: BigUint,
    /// True when `count` is exact (the search space was exhausted, or the algorithm counts
    /// exactly without enumerating).
    pub complete: bool,
    /// Why the search stopped early, when a deadline, node limit or cancellation stopped it.
    pub interrupted: Option<StopReason>,
    /// Why the puzzle has no solution, when a theorem or check proves it before search.
    pub reason: Option<String>,
    /// The algorithm that actually ran, when it differs from the one asked for (a default
    /// that depends on the instance, a fallback).
    pub algorithm: Option<&'static str>,
    /// Search counters.
    pub stats: Stats,
    /// Extra figures for `--stats` (rules in force, what each rule refuted, bounds).
    pub notes: Vec<Note>,
    /// The engine's per-rule counters, when [`Limits::counters`](crate::search::Limits::counters)
    /// asked for them and the algorithm runs on the engine (empty otherwise).
    pub rules: Vec<RuleCount>,
}

/// One rule's counters in a report ([`crate::engine::RuleStats`] with the rule's name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RuleCount {
    /// The rule (the propagator's name, or `probe`).
    pub rule: &'static str,
    /// Its counters.
    #[serde(flatten)]
    pub stats: crate::engine::RuleStats,
}

/// The per-rule counters of `engine` as a report lists them (empty unless `limits` asked
/// for counters): what [`Found::with_rules_of`] adds.
pub fn rule_counts(engine: &crate::engine::Engine, limits: &crate::search::Limits) -> Vec<RuleCount> {
    if !limits.counters {
        return Vec::new();
    }
    engine
        .rule_stats()
        .into_iter()
        .map(|(rule, stats)| RuleCount { rule, stats })
        .collect()
}

/// Adds the counters of `more` to `into`, rule by rule (the engines of one run: racers, a
/// deduction phase and its search).
pub fn add_rule_counts(into: &mut Vec<RuleCount>, more: impl IntoIterator<Item = RuleCount>) {
    for c in more {
        match into.iter_mut().find(|r| r.rule == c.rule) {
            Some(r) => r.stats.absorb(&c.stats),
            None => into.push(c),
        }
    }
}

impl<S> Found<S> {
    /// The same result with the per-rule counters of `engine` added, when `limits` asked for
    /// them ([`rule_counts`]); counters of several engines of one run add up by rule.
    pub fn with_rules_of(mut self, engine: &crate::engine::Engine, limits: &crate::search::Limits) -> Self {
        add_rule_counts(&mut self.rules, rule_counts(engine, limits));
        self
    }
    /// The result of a search run by core's driver, with the solutions kept.
    pub fn from_search(solutions: Vec<S>, r: &SearchResult) -> Self {
        Found {
            solutions,
            count: BigUint::from(r.solutions),
            complete: r.complete(),
            interrupted: r.stop.is_interrupted().then_some(r.stop),
            reason: None,
            algorithm: None,
            stats: r.stats,
            notes: Vec::new(),
            rules: Vec::new(),
        }
    }
    /// A count (`complete` when exact) with the solutions kept.
    pub fn counted(solutions: Vec<S>, count: u64, complete: bool, stats: Stats) -> Self {
        Found {
            solutions,
            count: BigUint::from(count),
            complete,
            interrupted: None,
            reason: None,
            algorithm: None,
            stats,
            notes: Vec::new(),
            rules: Vec::new(),
        }
    }
    /// No solution, proved by `reason` before any search.
    pub fn unsolvable(reason: impl Into<String>) -> Self {
        Found {
            solutions: Vec::new(),
            count: BigUint::default(),
            complete: true,
            interrupted: None,
            reason: Some(reason.into()),
            algorithm: None,
            stats: Stats::default(),
            notes: Vec::new(),
            rules: Vec::new(),
        }
    }
    /// The same result, naming the algorithm that ran.
    pub fn ran(mut self, algorithm: &'static str) -> Self {
        self.algorithm = Some(algorithm);
        self
    }
    /// The same result with notes added.
    pub fn with_notes(mut self, notes: impl IntoIterator<Item = Note>) -> Self {
        self.notes.extend(notes);
        self
    }
}
