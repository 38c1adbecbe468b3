//! The object-safe plug-in interface the CLI, the server, Python and the browser build use:
//! [`PuzzleKind`], text in and reports ([`crate::puzzle`]) out. Families implement the typed
//! [`crate::plugin::Puzzle`] trait instead, and core's [`crate::plugin::Plugin`] adapter makes
//! it a `PuzzleKind`.

use crate::error::PuzzleError;
use crate::puzzle::{
    AlgorithmInfo, CountReport, Instance, Rendered, RunOptions, SolveReport, VerifyReport, DEFAULT_BYTES_PER_CELL,
};

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
    fn settings(&self) -> &'static [crate::puzzle::SettingInfo] {
        &[]
    }
    /// The family's pruning rules: defining and optional, and the algorithm whose
    /// `--set rules=…` switches them ([`crate::rules`]; `pencilbox list`, `pencilbox study`).
    /// Default: none listed.
    fn rule_table(&self) -> Option<&'static crate::rules::RuleTable> {
        None
    }
    /// `(height, width)` of the puzzle in `text` once parsed (the server's size guard).
    fn dimensions(&self, text: &str, opts: &RunOptions) -> Result<(usize, usize), PuzzleError>;
    /// An estimate, in bytes, of the memory a solve or count of the puzzle in `text` with the
    /// algorithm of `opts` takes at most (the server's per-request memory budget refuses
    /// requests above it before any work). Default: [`DEFAULT_BYTES_PER_CELL`] per cell of
    /// [`PuzzleKind::dimensions`].
    fn memory_estimate(&self, text: &str, opts: &RunOptions) -> Result<u64, PuzzleError> {
        let (m, n) = self.dimensions(text, opts)?;
        Ok(crate::puzzle::estimate(m, n, DEFAULT_BYTES_PER_CELL, 0))
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
    /// The board of the puzzle in `text` as the playground draws and edits it
    /// ([`crate::board`]). Default: not available.
    fn board(&self, text: &str, opts: &RunOptions) -> Result<crate::board::Board, PuzzleError> {
        let _ = (text, opts);
        Err(PuzzleError::unsupported(format!(
            "{} puzzles have no board description",
            self.name()
        )))
    }
    /// The puzzle a setter made by editing the board of the puzzle in `text` ([`Draft`]:
    /// givens, regions, clues, doors, any size), in the family's file format: the
    /// playground's Creative Mode. Default: not available.
    ///
    /// [`Draft`]: crate::board::Draft
    fn compose(&self, text: &str, draft: &crate::board::Draft, opts: &RunOptions) -> Result<String, PuzzleError> {
        let _ = (text, draft, opts);
        Err(PuzzleError::unsupported(format!(
            "{} puzzles cannot be edited",
            self.name()
        )))
    }
    /// The generator, if the family has one.
    fn generator(&self) -> Option<crate::puzzle::GeneratorInfo> {
        None
    }
    /// Makes a puzzle (see [`crate::plugin::Puzzle::generate`]).
    fn generate(&self, req: &crate::puzzle::GenerateRequest) -> Result<crate::puzzle::Generated, PuzzleError> {
        let _ = req;
        Err(PuzzleError::unsupported(format!(
            "there is no generator for {}",
            self.name()
        )))
    }
    /// The puzzle's engine model as a formula in `format` (DIMACS CNF, CPLEX LP or OPB; see
    /// [`crate::encode`]), variables named after the cells and links. Default: not available.
    /// The formula is written to `out` as it is made (DIMACS is streamed and never held; LP and
    /// OPB are refused when their rows would take more than the memory budget).
    fn export(
        &self,
        text: &str,
        format: crate::encode::ExportFormat,
        opts: &RunOptions,
        out: &mut dyn std::io::Write,
    ) -> Result<(), PuzzleError> {
        let _ = (text, format, opts, out);
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
    /// the first, counts capped at `limit` (see [`crate::plugin::suggest`]). Default: not
    /// available.
    fn suggest(&self, text: &str, limit: u64, opts: &RunOptions) -> Result<crate::setter::SuggestReport, PuzzleError> {
        let _ = (text, limit, opts);
        Err(PuzzleError::unsupported(format!(
            "`count --suggest` is not available for {} puzzles",
            self.name()
        )))
    }
    /// For a unique puzzle: the clues that can each be removed alone without losing uniqueness
    /// (see [`crate::plugin::redundant`]). Default: not available.
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
