//! The typed puzzle trait, and the one adapter that makes any [`Puzzle`] a [`PuzzleKind`].
//!
//! A family implements [`Puzzle`] on its instance type: parse text into an instance, search it
//! with one of its (typed) algorithms, parse, verify and render solutions, name the places
//! where two solutions differ. [`Plugin`] does the rest once for every family: algorithm
//! lookup by name (into the family's own enum), refusal of unknown settings, the status of a
//! solve, counting with a witness pair and their differences, the answer-file check, and the
//! check that every returned solution passes the family's verifier (debug builds and tests).
//!
//! ```
//! use pencilbox_core::plugin::{Found, Plugin, Puzzle};
//! use pencilbox_core::{AlgorithmInfo, Limits, ParseError, PuzzleError, PuzzleKind, Rendered, RunOptions, VerifyReport, Violation};
//! /// "Pick a number from 1 to N": N solutions.
//! struct Pick(u32);
//! impl Puzzle for Pick {
//!     const NAME: &'static str = "pick";
//!     const SUMMARY: &'static str = "pick a number";
//!     type Solution = u32;
//!     type Algorithm = ();
//!     const ALGORITHMS: &'static [((), AlgorithmInfo)] = &[((), AlgorithmInfo { name: "all", summary: "try them all" })];
//!     fn detect(text: &str) -> bool { text.trim().starts_with("pick") }
//!     fn parse(text: &str, _: &RunOptions) -> Result<Self, PuzzleError> {
//!         let n = text.trim().trim_start_matches("pick").trim().parse().map_err(|_| ParseError::at(1, 6, "expected a number"))?;
//!         Ok(Pick(n))
//!     }
//!     fn search(&self, _: Option<()>, _: &RunOptions, limits: &Limits, keep: usize) -> Result<Found<u32>, PuzzleError> {
//!         let max = limits.max_solutions.unwrap_or(u64::MAX).min(self.0 as u64) as u32;
//!         let sols: Vec<u32> = (1..=max).take(keep).collect();
//!         Ok(Found::counted(sols, max as u64, max == self.0, Default::default()))
//!     }
//!     fn parse_solution(&self, text: &str) -> Result<u32, ParseError> {
//!         text.trim().parse().map_err(|_| ParseError::at(1, 1, "expected a number"))
//!     }
//!     fn verify(&self, s: &u32) -> VerifyReport {
//!         let mut r = VerifyReport::default();
//!         if !(1..=self.0).contains(s) { r.violations.push(Violation::new("number", "range", "out of range")); }
//!         r
//!     }
//!     fn render(&self, s: &u32) -> Rendered { Rendered { text: s.to_string(), pretty: s.to_string(), json: (*s).into() } }
//!     fn differences(&self, _: &u32, _: &u32) -> Vec<String> { vec!["number".into()] }
//!     fn dimensions(&self) -> (usize, usize) { (1, 1) }
//! }
//! static KIND: Plugin<Pick> = Plugin::new();
//! let c = KIND.count("pick 3", Some(2), &RunOptions::default()).unwrap();
//! assert_eq!((c.count, c.complete, c.witness.len()), (2u32.into(), false, 2));
//! assert_eq!(KIND.solve("pick 3", &RunOptions::default()).unwrap().solution.unwrap().text, "1");
//! ```

use crate::error::{ParseError, PuzzleError};
use crate::human::{ExplainOptions, ExplainStatus, Explanation};
use crate::kind::PuzzleKind;
use crate::puzzle::{
    AlgorithmInfo, CountReport, Instance, Note, Render, Rendered, RunOptions, SolveReport, Status, VerifyReport,
};
pub use crate::puzzle::{Found, GenerateRequest, Generated, GeneratorInfo, SettingInfo};
use crate::search::Limits;
use crate::setter::{Clue, ClueReport, RedundantReport, SuggestReport};
use num_bigint::BigUint;
use std::marker::PhantomData;

/// A puzzle family with types (see the module docs). Implement it on the instance type and
/// register `static KIND: Plugin<YourPuzzle> = Plugin::new();`.
pub trait Puzzle: Sized + 'static {
    /// The family's name (`--puzzle NAME`), lower case.
    const NAME: &'static str;
    /// One line describing the family.
    const SUMMARY: &'static str;
    /// A solution: a filled grid, a path.
    type Solution: Clone + PartialEq;
    /// The family's algorithms.
    type Algorithm: Copy + PartialEq + 'static;
    /// The algorithms with their names and summaries, the default first.
    const ALGORITHMS: &'static [(Self::Algorithm, AlgorithmInfo)];
    /// The settings it accepts (`--set KEY=VALUE`); any other key is refused.
    const SETTINGS: &'static [SettingInfo] = &[];
    /// The extension of answer files beside instances (`ans` for `x.in` ↔ `x.ans`).
    const ANSWER_EXTENSION: Option<&'static str> = None;
    /// The pruning rules ([`crate::rules`]), when the family lists them.
    const RULE_TABLE: Option<&'static crate::rules::RuleTable> = None;

    /// A cheap guess: does `text` look like this family's format?
    fn detect(text: &str) -> bool;
    /// Splits a file into puzzles (default: the whole file is one).
    fn instances(text: &str) -> Vec<Instance<'_>> {
        vec![Instance { text, first_line: 1 }]
    }
    /// Parses an instance (positions within `text`); settings such as a block shape apply.
    fn parse(text: &str, opts: &RunOptions) -> Result<Self, PuzzleError>;
    /// Searches with `alg` under `limits` (whose `max_solutions` is the cap), keeping at most
    /// `keep` solutions. `alg` is `None` when the user named none: the family's default, which
    /// may depend on the instance (report what ran in [`Found::algorithm`]). `opts` carries
    /// the settings.
    fn search(
        &self,
        alg: Option<Self::Algorithm>,
        opts: &RunOptions,
        limits: &Limits,
        keep: usize,
    ) -> Result<Found<Self::Solution>, PuzzleError>;
    /// Parses a proposed solution (positions within `text`).
    fn parse_solution(&self, text: &str) -> Result<Self::Solution, ParseError>;
    /// Every rule a proposed solution breaks.
    fn verify(&self, s: &Self::Solution) -> VerifyReport;
    /// The solution as answer-file text, a drawing and JSON.
    fn render(&self, s: &Self::Solution) -> Rendered;
    /// The forms of [`Puzzle::render`] that `what` asks for (the others empty). Default: all
    /// three are made and the others dropped; families override it to skip the work.
    fn render_as(&self, s: &Self::Solution, what: Render) -> Rendered {
        let mut r = self.render(s);
        if !what.text() {
            r.text.clear();
        }
        if !what.pretty() {
            r.pretty.clear();
        }
        if !what.json() {
            r.json = serde_json::Value::Null;
        }
        r
    }
    /// The names of the places (cells, links) where two solutions differ.
    fn differences(&self, a: &Self::Solution, b: &Self::Solution) -> Vec<String>;
    /// `(height, width)` of the grid.
    fn dimensions(&self) -> (usize, usize);
    /// An estimate, in bytes, of the memory a solve or count with `algorithm` (`None`: the
    /// default) takes at most ([`PuzzleKind::memory_estimate`]); checked against the run's
    /// budget ([`crate::memory`]) before any model is built, so it should be measured (peak
    /// resident memory over a few grid sizes) and err high. Default:
    /// [`Puzzle::MEMORY`]'s figures for the grid's size.
    fn memory_estimate(&self, algorithm: Option<&str>) -> u64 {
        Self::MEMORY.estimate(self.dimensions(), algorithm)
    }
    /// The measured figures behind the default [`Puzzle::memory_estimate`] (default:
    /// [`DEFAULT_BYTES_PER_CELL`](crate::puzzle::DEFAULT_BYTES_PER_CELL) per cell for every
    /// algorithm).
    const MEMORY: crate::puzzle::Memory = crate::puzzle::Memory::new(
        crate::puzzle::DEFAULT_BYTES_PER_CELL,
        crate::puzzle::DEFAULT_BYTES_PER_CELL,
        0,
    );
    /// Figures about the instance for `--stats` (size, a paper's bound).
    fn notes(&self) -> Vec<Note> {
        Vec::new()
    }
    /// The largest side served interactively (see [`PuzzleKind::max_side`]).
    const MAX_SIDE: Option<usize> = None;
    /// The generator, if the family has one.
    const GENERATOR: Option<GeneratorInfo> = None;
    /// Makes a puzzle (called only when [`Puzzle::GENERATOR`] is set, with a size, difficulty
    /// and settings it accepts).
    fn generate(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
        let _ = req;
        Err(PuzzleError::unsupported(format!(
            "there is no generator for {}",
            Self::NAME
        )))
    }
    /// The puzzle in the family's file format (`url: false`) or as a puzz.link URL (`url:
    /// true`); `None` when the family has no such form. Default: none.
    fn write(&self, url: bool) -> Option<String> {
        let _ = url;
        None
    }
    /// The steps a person would take to solve it, rated ([`crate::human`]); `None` when the
    /// family has no explainer. Default: none.
    fn explain(&self, opts: &ExplainOptions) -> Option<Result<Explanation, PuzzleError>> {
        let _ = opts;
        None
    }
    /// The same puzzle with a player's entries (a partly filled grid in the answer format,
    /// `0` or `.` = empty) taken as givens, for hints from a position. Default: refused.
    fn with_entries(&self, entries: &str) -> Result<Self, PuzzleError> {
        let _ = entries;
        Err(PuzzleError::unsupported(format!(
            "{} puzzles take no entries",
            Self::NAME
        )))
    }
    /// Whether an explanation without guesses, with the rules up to `max_level` (`None`:
    /// all) and trial when `trial`, solves the puzzle ([`crate::human::settles_engine`]),
    /// decided without writing the explanation; `None` when the family cannot tell so
    /// cheaply (then [`crate::generate::make`] explains) or the limits stopped it. Default:
    /// `None`.
    fn settles(&self, max_level: Option<u8>, trial: bool, limits: &Limits) -> Option<bool> {
        let _ = (max_level, trial, limits);
        None
    }
    /// The player's `entries` (as [`Puzzle::with_entries`] takes them) that `solution` does
    /// not have, as facts (`r2c3` = `4`, `r2c3-r2c4` = `line`): when a position has no
    /// solution and the puzzle has exactly one, these are the entries at fault. `None` (the
    /// default): the family cannot tell.
    fn wrong_entries(&self, entries: &str, solution: &Self::Solution) -> Option<Vec<crate::human::Fact>> {
        let _ = (entries, solution);
        None
    }
    /// The board as the playground draws and edits it ([`crate::board`]). Default: none (the
    /// page cannot show the family).
    fn board(&self) -> Option<crate::board::Board> {
        None
    }
    /// The puzzle a setter made of this one by editing its board ([`crate::board::Draft`]:
    /// givens, regions, clues, doors, of any size), for the playground's Creative Mode; what
    /// the board does not show (Star Battle's stars per row) is kept from `self`. The board
    /// says what may be edited ([`crate::board::Board::edit`]). `None` (the default): the
    /// family has no editing. The result is written with [`Puzzle::write`].
    fn compose(&self, d: &crate::board::Draft) -> Option<Result<Self, PuzzleError>> {
        let _ = d;
        None
    }
    /// A solution as a position of the board ([`crate::board::Form`]: one token per cell, rows
    /// on lines), when the family's answer text is written otherwise (Path's arrows), so the
    /// playground can show a solution on the board. Default: `None`, the answer's JSON is
    /// already rows of the form's tokens.
    fn position(&self, s: &Self::Solution) -> Option<String> {
        let _ = s;
        None
    }
    /// Does a found solution (its rendered text) equal an answer file? Default: the same
    /// whitespace-separated tokens. (Answer checks in `bench` need no parsed instance.)
    fn answers_match(found: &str, answer: &str) -> Result<bool, PuzzleError> {
        Ok(found.split_whitespace().eq(answer.split_whitespace()))
    }
    /// The setter's tools (see [`crate::setter`]): the family's default engine model with the
    /// places facts are about, or why there is no solution. `None` (the default): the family
    /// has no `forced`.
    fn fact_model(&self, opts: &RunOptions) -> Option<Result<crate::setter::Setup, PuzzleError>> {
        let _ = opts;
        None
    }
    /// The clues of the family's format that hold in `keep` but not in `drop`, each with the
    /// puzzle it amends (for `count --suggest`). `None` (the default): not available.
    fn separating_clues(&self, keep: &Self::Solution, drop: &Self::Solution) -> Option<Vec<crate::setter::Clue<Self>>> {
        let _ = (keep, drop);
        None
    }
    /// The clues of the puzzle that could be taken away, each with the puzzle without it (for
    /// `count --redundant`). `None` (the default): not available.
    fn removable_clues(&self) -> Option<Vec<crate::setter::Clue<Self>>> {
        None
    }
}

/// Turns a [`Puzzle`] into the object-safe [`PuzzleKind`] the CLI and server use.
pub struct Plugin<P>(PhantomData<fn() -> P>);

impl<P> Plugin<P> {
    /// The adapter (a `const fn`, for `static KIND`).
    pub const fn new() -> Self {
        Plugin(PhantomData)
    }
}

impl<P> Default for Plugin<P> {
    fn default() -> Self {
        Plugin::new()
    }
}

/// Runs an engine model under `limits` (deadline and cancellation polled inside propagation
/// too), keeping the first `keep` solutions decoded by `decode`; the notes list the conflicts
/// each rule found.
pub fn engine_search<B: crate::engine::Brancher, S>(
    search: &mut crate::engine::EngineSearch<B>,
    limits: &Limits,
    keep: usize,
    mut decode: impl FnMut(&crate::engine::Engine) -> S,
) -> Found<S> {
    search.engine.set_limits(limits);
    let (r, solutions) = crate::search::count_keeping(search, limits, keep, |s| decode(&s.engine));
    let notes: Vec<Note> = search
        .engine
        .rule_stats()
        .into_iter()
        .filter(|(_, st)| st.conflicts > 0)
        .map(|(rule, st)| Note::new(format!("conflicts found by {rule}"), st.conflicts))
        .collect();
    Found::from_search(solutions, &r)
        .with_notes(notes)
        .with_rules_of(&search.engine, limits)
}

/// The typed algorithm named in `opts` (`None` when none is) and the name to report (the
/// default's name when none is).
pub fn algorithm_of<P: Puzzle>(opts: &RunOptions) -> Result<(Option<P::Algorithm>, &'static str), PuzzleError> {
    let algs = P::ALGORITHMS;
    match opts.algorithm.as_deref() {
        None => algs
            .first()
            .map(|(_, info)| (None, info.name))
            .ok_or_else(|| PuzzleError::unsupported(format!("{} has no algorithm", P::NAME))),
        Some(n) => algs
            .iter()
            .find(|(_, i)| i.name == n)
            .map(|(a, i)| (Some(*a), i.name))
            .ok_or_else(|| {
                let names: Vec<_> = algs.iter().map(|(_, i)| i.name).collect();
                PuzzleError::unsupported(format!(
                    "unknown algorithm `{n}` for {}; choose one of: {}",
                    P::NAME,
                    names.join(", ")
                ))
            }),
    }
}

/// The counters as notes (`--stats`).
pub fn learn_notes(stats: &crate::learning::LearnStats) -> Vec<crate::puzzle::Note> {
    let s = stats;
    use crate::puzzle::Note;
    if s.searches == 0 {
        return vec![Note::new(
            "learning",
            "not used (this algorithm does not search on the engine, or ended before learning began)",
        )];
    }
    let avg = if s.learned == 0 {
        0.0
    } else {
        s.literals as f64 / s.learned as f64
    };
    let resolved = s.explained + s.fallbacks;
    let fallback = if resolved == 0 {
        0.0
    } else {
        100.0 * s.fallbacks as f64 / resolved as f64
    };
    vec![
        Note::new("learning: searches", s.searches),
        Note::new("learning: conflicts analysed", s.conflicts),
        Note::new("learning: clauses learned", s.learned),
        Note::new("learning: literals per clause", format!("{avg:.1}")),
        Note::new("learning: literals minimised away", s.minimised),
        Note::new("learning: unit clauses", s.units),
        Note::new("learning: probed values refuted", s.probes),
        Note::new("learning: clauses deleted", s.deleted),
        Note::new("learning: restarts", s.restarts),
        Note::new("learning: blocking clauses", s.blocking),
        Note::new("learning: reasons from decisions", format!("{fallback:.1} %")),
    ]
}

/// Reads `learn=` and `decide=` ([`crate::engine::learn`]) into `limits` for a family that
/// offers them; the counters the searches will add to when learning is asked for.
pub fn learning_limits<P: Puzzle>(
    opts: &RunOptions,
    limits: &mut Limits,
) -> Result<Option<std::sync::Arc<crate::learning::LearnCounters>>, PuzzleError> {
    use crate::learning::{LearnMode, Learning};
    use crate::rules::LEARN_SETTING;
    if !P::SETTINGS.iter().any(|s| s.key == LEARN_SETTING.key) {
        return Ok(None);
    }
    let learning = Learning::from_settings(opts.settings.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(PuzzleError::unsupported)?;
    limits.learning = learning;
    if learning.mode == LearnMode::Off {
        return Ok(None);
    }
    let counters = std::sync::Arc::new(crate::learning::LearnCounters::default());
    limits.learn_counters = Some(counters.clone());
    Ok(Some(counters))
}

/// Refuses settings the family does not know.
pub fn check_settings<P: Puzzle>(opts: &RunOptions) -> Result<(), PuzzleError> {
    for (key, value) in &opts.settings {
        if !P::SETTINGS.iter().any(|s| s.key == key) {
            return Err(PuzzleError::unsupported(SettingInfo::unknown(
                P::NAME,
                key,
                Some(value),
                P::SETTINGS,
            )));
        }
    }
    Ok(())
}

impl<P: Puzzle> Plugin<P> {
    /// Parses and runs a search with the options' algorithm: what `solve` and `count` share.
    fn run(
        &self,
        text: &str,
        opts: &RunOptions,
        max: Option<u64>,
        keep: usize,
    ) -> Result<(P, Found<P::Solution>, &'static str), PuzzleError> {
        check_settings::<P>(opts)?;
        let (alg, name) = algorithm_of::<P>(opts)?;
        let p = P::parse(text, opts)?;
        let work = if max == Some(1) { "solving" } else { "counting" };
        check_memory(&p, opts.algorithm.as_deref(), &opts.limits, work)?;
        let mut limits = opts.limits.clone().with_max_solutions(max);
        let counters = learning_limits::<P>(opts, &mut limits)?;
        let mut found = p.search(alg, opts, &limits, keep)?;
        if let Some(c) = counters {
            found.notes.extend(learn_notes(&c.snapshot()));
        }
        refused_memory(&p, opts.algorithm.as_deref(), &opts.limits, work, found.interrupted)?;
        // Every returned solution passes the family's verifier in debug builds (all tests); a
        // release build trusts the solvers those tests cross-check.
        let checked: &[P::Solution] = if cfg!(debug_assertions) { &found.solutions } else { &[] };
        for s in checked {
            let v = p.verify(s);
            if !v.is_valid() {
                return Err(PuzzleError::unsupported(format!(
                    "internal error: {} returned a solution that breaks a rule ({}: {})",
                    found.algorithm.unwrap_or(name),
                    v.violations[0].at,
                    v.violations[0].message
                )));
            }
        }
        let name = found.algorithm.unwrap_or(name);
        Ok((p, found, name))
    }
}

impl<P: Puzzle> PuzzleKind for Plugin<P> {
    fn name(&self) -> &'static str {
        P::NAME
    }
    fn summary(&self) -> &'static str {
        P::SUMMARY
    }
    fn detect(&self, text: &str) -> bool {
        P::detect(text)
    }
    fn algorithms(&self) -> Vec<AlgorithmInfo> {
        P::ALGORITHMS.iter().map(|(_, i)| *i).collect()
    }
    fn settings(&self) -> &'static [SettingInfo] {
        P::SETTINGS
    }
    fn answer_extension(&self) -> Option<&'static str> {
        P::ANSWER_EXTENSION
    }
    fn rule_table(&self) -> Option<&'static crate::rules::RuleTable> {
        P::RULE_TABLE
    }
    fn instances<'a>(&self, text: &'a str) -> Vec<Instance<'a>> {
        P::instances(text)
    }
    fn dimensions(&self, text: &str, opts: &RunOptions) -> Result<(usize, usize), PuzzleError> {
        Ok(P::parse(text, opts)?.dimensions())
    }
    fn memory_estimate(&self, text: &str, opts: &RunOptions) -> Result<u64, PuzzleError> {
        Ok(P::parse(text, opts)?.memory_estimate(opts.algorithm.as_deref()))
    }
    fn solve(&self, text: &str, opts: &RunOptions) -> Result<SolveReport, PuzzleError> {
        let (p, mut found, algorithm) = self.run(text, opts, Some(1), 1)?;
        let solution = found.solutions.pop();
        let status = match (&solution, found.interrupted) {
            (Some(_), _) => Status::Solved,
            (None, Some(_)) => Status::Timeout,
            (None, None) => Status::Unsolvable,
        };
        let mut notes = if opts.notes { p.notes() } else { Vec::new() };
        notes.append(&mut found.notes);
        Ok(SolveReport {
            status,
            position: solution.as_ref().and_then(|s| p.position(s)),
            solution: solution.map(|s| p.render_as(&s, opts.render)),
            reason: found.reason,
            algorithm: algorithm.to_string(),
            stats: found.stats,
            notes,
            rules: found.rules,
        })
    }
    fn count(&self, text: &str, limit: Option<u64>, opts: &RunOptions) -> Result<CountReport, PuzzleError> {
        let (p, mut found, algorithm) = self.run(text, opts, limit, 2)?;
        let (witness, differences) = match &found.solutions[..] {
            [a, b] if found.count >= BigUint::from(2u32) => (
                vec![p.render_as(a, opts.render), p.render_as(b, opts.render)],
                p.differences(a, b),
            ),
            _ => (Vec::new(), Vec::new()),
        };
        let mut notes = if opts.notes { p.notes() } else { Vec::new() };
        notes.append(&mut found.notes);
        Ok(CountReport {
            count: found.count,
            complete: found.complete,
            interrupted: found.interrupted.is_some(),
            witness,
            differences,
            reason: found.reason,
            algorithm: algorithm.to_string(),
            stats: found.stats,
            notes,
            rules: found.rules,
        })
    }
    fn verify(&self, text: &str, solution: &str, opts: &RunOptions) -> Result<VerifyReport, PuzzleError> {
        check_settings::<P>(opts)?;
        let p = P::parse(text, opts)?;
        let s = p.parse_solution(solution).map_err(PuzzleError::Solution)?;
        Ok(p.verify(&s))
    }
    fn matches_answer(&self, solution: &Rendered, answer: &str) -> Result<bool, PuzzleError> {
        P::answers_match(&solution.text, answer)
    }
    fn max_side(&self) -> Option<usize> {
        P::MAX_SIDE
    }
    fn convert(&self, text: &str, url: bool, opts: &RunOptions) -> Result<String, PuzzleError> {
        P::parse(text, opts)?.write(url).ok_or_else(|| {
            PuzzleError::unsupported(if url {
                format!("{} puzzles have no puzz.link form in pencilbox", P::NAME)
            } else {
                format!("{} puzzles cannot be converted", P::NAME)
            })
        })
    }
    fn generator(&self) -> Option<GeneratorInfo> {
        P::GENERATOR
    }
    fn board(&self, text: &str, opts: &RunOptions) -> Result<crate::board::Board, PuzzleError> {
        check_settings::<P>(opts)?;
        P::parse(text, opts)?
            .board()
            .ok_or_else(|| PuzzleError::unsupported(format!("{} puzzles have no board description", P::NAME)))
    }
    fn compose(&self, text: &str, draft: &crate::board::Draft, opts: &RunOptions) -> Result<String, PuzzleError> {
        check_settings::<P>(opts)?;
        let unsupported = || PuzzleError::unsupported(format!("{} puzzles cannot be edited", P::NAME));
        let p = P::parse(text, opts)?.compose(draft).ok_or_else(unsupported)??;
        p.write(false).ok_or_else(unsupported)
    }
    fn forced(&self, text: &str, opts: &RunOptions) -> Result<crate::setter::ForcedReport, PuzzleError> {
        check_settings::<P>(opts)?;
        let p = P::parse(text, opts)?;
        check_memory(&p, None, &opts.limits, "listing the forced facts of")?;
        match p.fact_model(opts) {
            Some(setup) => {
                let setup = setup?;
                if let crate::setter::Setup::Model(m) = &setup {
                    let stop = m.search.engine().interrupted();
                    refused_memory(&p, None, &opts.limits, "listing the forced facts of", stop)?;
                }
                Ok(crate::setter::forced(setup, &opts.limits))
            }
            None => Err(PuzzleError::unsupported(format!(
                "`forced` is not available for {} puzzles",
                P::NAME
            ))),
        }
    }
    fn export(
        &self,
        text: &str,
        format: crate::encode::ExportFormat,
        opts: &RunOptions,
        out: &mut dyn std::io::Write,
    ) -> Result<(), PuzzleError> {
        use crate::encode::{Encoder, ExportFormat, VarInfo};
        check_settings::<P>(opts)?;
        let p = P::parse(text, opts)?;
        let (h, w) = p.dimensions();
        let mut header = vec![format!("pencilbox export: {} {h}x{w}", P::NAME)];
        let work = match format {
            ExportFormat::Dimacs => "exporting as DIMACS",
            ExportFormat::Lp => "exporting as LP",
            ExportFormat::Opb => "exporting as OPB",
        };
        // The engine model first: its estimate, then the model.
        check_memory(&p, None, &opts.limits, work)?;
        let setup = p
            .fact_model(opts)
            .ok_or_else(|| PuzzleError::unsupported(format!("`export` is not available for {} puzzles", P::NAME)))??;
        let io = |e: std::io::Error| PuzzleError::unsupported(format!("cannot write the formula: {e}"));
        let m = match setup {
            crate::setter::Setup::NoSolution(reason) => {
                header.push(format!("no solution: {reason}"));
                return Encoder::unsatisfiable().write_to(format, &header, out).map_err(io);
            }
            crate::setter::Setup::Model(m) => m,
        };
        let engine = m.search.engine();
        refused_memory(&p, None, &opts.limits, work, engine.interrupted())?;
        // Every variable's name and literals next to the model.
        let names = (engine.num_vars() as u64).saturating_mul(EXPORT_VAR_BYTES);
        let model = p.memory_estimate(None);
        crate::memory::check(model.saturating_add(names), &opts.limits, || {
            describe_work(&p, None, work)
        })?;
        let mut named: Vec<Option<VarInfo>> = vec![None; engine.num_vars()];
        for place in &m.places {
            named[place.var.index()] = Some(VarInfo {
                name: place.name.clone(),
                boolean: matches!(place.values, crate::setter::Values::Bool { .. }),
            });
        }
        let info = |v: crate::var::VarId| {
            named[v.index()].clone().unwrap_or_else(|| VarInfo {
                name: format!("v{}", v.index()),
                boolean: true,
            })
        };
        header.push("variables: a cell's number is one literal per value (`r3c1=5`), a yes/no place one literal (a link `r2c3-r2c4` used, a cell `r2c3` visited); unnamed ones are auxiliary".into());
        if format == ExportFormat::Dimacs {
            // Streamed: the clauses are written as they are made, never held.
            let rows = |enc: &mut Encoder<'_>| engine.encode(enc);
            return crate::encode::write_dimacs(engine.domains(), rows, info, &header, &opts.limits, out);
        }
        // LP and OPB keep the formula's rows (and LP every variable's name): measured by a
        // first pass that keeps nothing, and refused above the budget before they are kept.
        let (rows, vars) = crate::encode::formula_size(engine.domains(), |enc| engine.encode(enc), info, &opts.limits)?;
        let lp_names = if format == ExportFormat::Lp {
            vars.saturating_mul(LP_NAME_BYTES)
        } else {
            0
        };
        let needed = model
            .saturating_add(names)
            .saturating_add(rows)
            .saturating_add(lp_names);
        crate::memory::check(needed, &opts.limits, || describe_work(&p, None, work))?;
        let mut enc = Encoder::limited(engine.domains(), info, &opts.limits, None)
            .with_rows_of(engine)
            .map_err(|u| PuzzleError::unsupported(u.to_string()))?;
        if let Some(h) = enc.take_halt() {
            return Err(crate::encode::halt_error(h));
        }
        enc.write_to(format, &header, out).map_err(io)
    }
    fn suggest(&self, text: &str, limit: u64, opts: &RunOptions) -> Result<crate::setter::SuggestReport, PuzzleError> {
        check_settings::<P>(opts)?;
        let (alg, _) = algorithm_of::<P>(opts)?;
        let p = P::parse(text, opts)?;
        check_memory(&p, opts.algorithm.as_deref(), &opts.limits, "suggesting a clue for")?;
        suggest(&p, alg, opts, limit)
    }
    fn redundant(&self, text: &str, opts: &RunOptions) -> Result<crate::setter::RedundantReport, PuzzleError> {
        check_settings::<P>(opts)?;
        let (alg, _) = algorithm_of::<P>(opts)?;
        let p = P::parse(text, opts)?;
        check_memory(&p, opts.algorithm.as_deref(), &opts.limits, "checking the clues of")?;
        redundant(&p, alg, opts)
    }
    fn explain(
        &self,
        text: &str,
        entries: Option<&str>,
        opts: &RunOptions,
        explain: &ExplainOptions,
    ) -> Result<Explanation, PuzzleError> {
        check_settings::<P>(opts)?;
        let base = P::parse(text, opts)?;
        check_memory(&base, None, &explain.limits, "explaining")?;
        let run = |p: &P| {
            p.explain(explain).unwrap_or_else(|| {
                Err(PuzzleError::unsupported(format!(
                    "there is no explainer for {}",
                    P::NAME
                )))
            })
        };
        let Some(entries) = entries else {
            return run(&base);
        };
        let mut x = run(&base.with_entries(entries)?)?;
        // Without guesses a wrong position may stall instead of failing: checked as well.
        if matches!(x.status, ExplainStatus::NoSolution | ExplainStatus::Stalled) {
            blame_entries(&base, entries, opts, explain, &mut x)?;
        }
        Ok(x)
    }
    fn generate(&self, req: &GenerateRequest) -> Result<Generated, PuzzleError> {
        let Some(info) = P::GENERATOR else {
            return Err(PuzzleError::unsupported(format!(
                "there is no generator for {}",
                P::NAME
            )));
        };
        check_generate(P::NAME, &info, req)?;
        P::generate(req)
    }
}

/// Refuses `p` when the family's estimate of the memory `work` with `algorithm` (`None`: the
/// default) takes ([`Puzzle::memory_estimate`]) is above the budget of `limits`
/// ([`crate::memory`]): checked after parsing and before any model is built.
pub fn check_memory<P: Puzzle>(p: &P, algorithm: Option<&str>, limits: &Limits, work: &str) -> Result<(), PuzzleError> {
    crate::memory::check(p.memory_estimate(algorithm), limits, || {
        describe_work(p, algorithm, work)
    })?;
    Ok(())
}

/// The error for a run the system refused memory to ([`crate::search::StopReason::Memory`]: a model's
/// `try_reserve` failed, so the model was left incomplete and not searched); `Ok` for any
/// other outcome.
pub fn refused_memory<P: Puzzle>(
    p: &P,
    algorithm: Option<&str>,
    limits: &Limits,
    work: &str,
    stop: Option<crate::search::StopReason>,
) -> Result<(), PuzzleError> {
    if stop != Some(crate::search::StopReason::Memory) {
        return Ok(());
    }
    Err(crate::memory::MemoryError {
        what: describe_work(p, algorithm, work),
        needed: p.memory_estimate(algorithm),
        budget: limits.memory,
        refused: true,
        at_least: false,
    }
    .into())
}

/// The bytes an export holds per engine variable: its name, kept for both passes, and its
/// literals in the encoder.
const EXPORT_VAR_BYTES: u64 = 128;

/// The bytes an LP export holds per formula variable for its name (the name, its copy in the
/// clash check, their vectors and hashing).
const LP_NAME_BYTES: u64 = 112;

/// "solving this 2000×2000 path puzzle with `fast`".
fn describe_work<P: Puzzle>(p: &P, algorithm: Option<&str>, work: &str) -> String {
    let (h, w) = p.dimensions();
    let with = algorithm.map_or(String::new(), |a| format!(" with `{a}`"));
    format!("{work} this {h}×{w} {} puzzle{with}", P::NAME)
}

/// A position with the player's `entries` has no solution, or stalled: names the entries at
/// fault when the puzzle without them has exactly one solution ([`Puzzle::wrong_entries`]),
/// in `x`'s notes and [`Explanation::wrong`] (a stalled position with wrong entries has no
/// solution either, and says so); for a position without solutions, says why none can be
/// named.
fn blame_entries<P: Puzzle>(
    base: &P,
    entries: &str,
    opts: &RunOptions,
    explain: &ExplainOptions,
    x: &mut Explanation,
) -> Result<(), PuzzleError> {
    let (alg, _) = algorithm_of::<P>(opts)?;
    let limits = explain.limits.clone().with_max_solutions(Some(2));
    let found = base.search(alg, opts, &limits, 2)?;
    let stalled = x.status == ExplainStatus::Stalled;
    let note = match (found.solutions.as_slice(), found.interrupted) {
        (_, Some(_)) => return Ok(()),
        ([s], None) if found.complete => match base.wrong_entries(entries, s) {
            Some(wrong) if !wrong.is_empty() => {
                let list: Vec<String> = wrong.iter().map(|f| format!("{} {}", f.cell, f.value)).collect();
                let note = format!(
                    "{} not in the puzzle's only solution: {}",
                    if wrong.len() == 1 {
                        "this entry is"
                    } else {
                        "these entries are"
                    },
                    list.join(", ")
                );
                // The rule each entry breaks by itself, on the clues alone.
                let eo = ExplainOptions {
                    refute: wrong.clone(),
                    limits: explain.limits.clone(),
                    ..ExplainOptions::default()
                };
                if let Some(Ok(r)) = base.explain(&eo) {
                    if r.breaks.len() == wrong.len() {
                        x.breaks = r.breaks;
                    }
                }
                x.wrong = wrong;
                x.status = ExplainStatus::NoSolution;
                note
            }
            _ => return Ok(()),
        },
        _ if stalled => return Ok(()),
        ([], None) => "the puzzle has no solution even without the entries".to_string(),
        ([_], None) => return Ok(()),
        _ => "the puzzle has several solutions and the entries fit none of them".to_string(),
    };
    x.notes.push(note);
    Ok(())
}

/// Checks a generator request against what the generator declares (size, difficulty names,
/// setting keys); the [`Plugin`] adapter calls it before [`Puzzle::generate`].
pub fn check_generate(name: &str, info: &GeneratorInfo, req: &GenerateRequest) -> Result<(), PuzzleError> {
    let cells = req.height.saturating_mul(req.width);
    if req.height == 0 || req.width == 0 || cells > info.max_cells {
        return Err(PuzzleError::unsupported(format!(
            "the {} generator makes grids of 1 to {} cells, not {}x{}",
            name, info.max_cells, req.height, req.width
        )));
    }
    if let Some(d) = &req.difficulty {
        if !info.difficulties.contains(&d.as_str()) {
            return Err(PuzzleError::unsupported(if info.difficulties.is_empty() {
                format!("the {} generator has no difficulty levels", name)
            } else {
                format!(
                    "unknown difficulty `{d}` for {}; choose one of: {}",
                    name,
                    info.difficulties.join(", ")
                )
            }));
        }
    }
    for (key, _) in &req.settings {
        if !info.settings.iter().any(|s| s.key == key) {
            let known: Vec<_> = info.settings.iter().map(|s| s.key).collect();
            return Err(PuzzleError::unsupported(format!(
                "unknown generator setting `{key}` for {}{}",
                name,
                if known.is_empty() {
                    String::new()
                } else {
                    format!("; it accepts: {}", known.join(", "))
                }
            )));
        }
    }
    Ok(())
}

/// Names the positions where two equally long sequences differ (cells of a row-major grid:
/// `r{row}c{col}`, 1-based).
pub fn grid_differences<T: PartialEq>(width: usize, a: &[T], b: &[T]) -> Vec<String> {
    crate::puzzle::differences(a, b, |i| format!("r{}c{}", i / width.max(1) + 1, i % width.max(1) + 1))
}

// The setter's tools that need the typed trait: `count --suggest` and `count --redundant`
// ([`crate::setter`] has the reports and the facts).

fn clue_report<P: Puzzle>(c: &Clue<P>) -> ClueReport {
    ClueReport {
        at: c.at.clone(),
        value: c.value,
        puzzle: c.puzzle.write(false).unwrap_or_default(),
    }
}

fn unsupported<P: Puzzle>(what: &str) -> PuzzleError {
    PuzzleError::unsupported(format!("{what} is not available for {} puzzles", P::NAME))
}

/// How many solutions `count --suggest` keeps as its sample.
pub const SUGGEST_SAMPLE: usize = 64;
/// How many of the best-ranked candidate clues `count --suggest` recounts at most.
pub const SUGGEST_TRIES: usize = 32;

/// Proposes a clue for a puzzle with several solutions; `limit` caps the counts (at least 2).
/// A puzzle with fewer than two solutions gives a report without a clue and with its count.
///
/// The search keeps a sample of up to [`SUGGEST_SAMPLE`] solutions. Candidate clues are those
/// that hold in one sampled solution and not in the next ([`Puzzle::separating_clues`], every
/// sampled solution in turn, so that no single solution decides which clues are looked at);
/// each is ranked by how many sampled solutions it keeps (checked with
/// [`Puzzle::verify`] on the puzzle with the clue), fewest first. The first
/// [`SUGGEST_TRIES`] are then recounted in that order, each up to the best count so far,
/// until one makes the puzzle unique. When the
/// puzzle has at most [`SUGGEST_SAMPLE`] solutions the sample is all of them, and a clue that
/// keeps one sampled solution makes it unique: a puzzle that lost one given gets one back.
pub fn suggest<P: Puzzle>(
    p: &P,
    alg: Option<P::Algorithm>,
    opts: &RunOptions,
    limit: u64,
) -> Result<SuggestReport, PuzzleError> {
    let limit = limit.max(2);
    let limits = opts.limits.clone().with_max_solutions(Some(limit));
    let base = p.search(alg, opts, &limits, SUGGEST_SAMPLE)?;
    let mut report = SuggestReport {
        count: base.count.clone(),
        complete: base.complete,
        differences: Vec::new(),
        clue: None,
        count_after: None,
        complete_after: false,
        tried: 0,
        interrupted: base.interrupted.is_some(),
    };
    let sample = &base.solutions;
    if sample.len() < 2 {
        return Ok(report);
    }
    report.differences = p.differences(&sample[0], &sample[1]);
    // Candidates: from every sampled solution, against the next one.
    let mut candidates: Vec<(usize, Clue<P>)> = Vec::new();
    for i in 0..sample.len() {
        if opts.limits.interrupted().is_some() {
            report.interrupted = true;
            return Ok(report);
        }
        let other = &sample[(i + 1) % sample.len()];
        let clues = p
            .separating_clues(&sample[i], other)
            .ok_or_else(|| unsupported::<P>("count --suggest"))?;
        for c in clues {
            if candidates.iter().any(|(_, d)| d.at == c.at && d.value == c.value) {
                continue;
            }
            let kept = sample.iter().filter(|s| c.puzzle.verify(s).is_valid()).count();
            candidates.push((kept, c));
        }
    }
    // Fewest sampled solutions kept first (a clue keeps its anchor: at least one); ties in the
    // order found.
    candidates.sort_by_key(|&(kept, _)| kept);
    // The best clue so far and its count (exact when the flag says so).
    let mut best: Option<(usize, BigUint, bool)> = None;
    for (k, (_, c)) in candidates.iter().enumerate().take(SUGGEST_TRIES) {
        let cap = best.as_ref().map_or(base.count.clone(), |b| b.1.clone());
        let cap = u64::try_from(&cap).unwrap_or(limit);
        let r = c
            .puzzle
            .search(alg, opts, &opts.limits.clone().with_max_solutions(Some(cap)), 0)?;
        if r.interrupted.is_some() {
            report.interrupted = true;
            break;
        }
        report.tried += 1;
        debug_assert!(r.count >= BigUint::from(1u32), "a clue keeps the solution it came from");
        let better = match &best {
            None => true,
            Some((_, n, _)) => r.complete && r.count < *n,
        };
        if better {
            best = Some((k, r.count.clone(), r.complete));
        }
        if r.complete && r.count == BigUint::from(1u32) {
            break;
        }
    }
    if let Some((k, n, complete)) = best {
        report.clue = Some(clue_report(&candidates[k].1));
        report.count_after = Some(n);
        report.complete_after = complete;
    }
    Ok(report)
}

/// Lists the clues of a unique puzzle that can each be removed alone without losing uniqueness
/// (see the module docs). A puzzle that is not unique gives a report with its count and no
/// clues checked.
pub fn redundant<P: Puzzle>(
    p: &P,
    alg: Option<P::Algorithm>,
    opts: &RunOptions,
) -> Result<RedundantReport, PuzzleError> {
    let two = opts.limits.clone().with_max_solutions(Some(2));
    let base = p.search(alg, opts, &two, 0)?;
    let clues = p
        .removable_clues()
        .ok_or_else(|| unsupported::<P>("count --redundant"))?;
    let mut report = RedundantReport {
        count: base.count.clone(),
        complete: base.complete,
        clues: clues.len(),
        checked: 0,
        redundant: Vec::new(),
        interrupted: base.interrupted.is_some(),
    };
    if !(base.complete && base.count == BigUint::from(1u32)) {
        return Ok(report);
    }
    for c in &clues {
        let r = c.puzzle.search(alg, opts, &two, 0)?;
        if r.interrupted.is_some() {
            report.interrupted = true;
            break;
        }
        report.checked += 1;
        if r.complete && r.count == BigUint::from(1u32) {
            report.redundant.push(clue_report(c));
        }
    }
    Ok(report)
}
