//! The plug-in: [`Suguru`] implements the typed [`Puzzle`] trait, and [`KIND`] (core's
//! [`Plugin`] adapter) is the [`PuzzleKind`](pencilbox_core::PuzzleKind) the CLI registry and
//! the server use.
//!
//! * Algorithms: the typed table [`crate::solver::ALGORITHMS`] — `fast` (default; `linear` on
//!   `1×n` / `m×1` grids, a bitset search for regions over 64 cells), `paper`, `linear`. The algorithm
//!   that actually ran is reported.
//! * Answer files: `x.in` ↔ `x.ans`.
//! * `--stats` notes: the instance's size figures and Theorem 2's bound `T(m, n, R)` (shown
//!   next to the driver's node count); when counting an instance `linear` applies to, Theorem
//!   4's bound.

use crate::model::{parse, Solution, Suguru};
use crate::solver::{self, Algorithm, ALGORITHMS};
use crate::{linear, theorems, verify};
use pencilbox_core::human::{ExplainOptions, Explanation};
use pencilbox_core::plugin::{Found, GenerateRequest, Generated, GeneratorInfo, Plugin, Puzzle};
use pencilbox_core::regions;
use pencilbox_core::{AlgorithmInfo, Limits, Note, PuzzleError, Rendered, RunOptions, VerifyReport};

/// The registry entry (`pencilbox_suguru::KIND`).
pub static KIND: Plugin<Suguru> = Plugin::new();

/// A solution rendered as answer-file text, a drawing with region walls, and JSON rows.
pub fn render(p: &Suguru, s: &Solution) -> Rendered {
    regions::render(p.board().regions(), s)
}

/// Rows of numbers separated by single spaces, one row per line (the `.ans` body).
pub fn grid_text(s: &Solution) -> String {
    s.to_text()
}

/// Draws the grid with region walls (`|`, `---`) for people.
pub fn draw(p: &Suguru, s: &Solution) -> String {
    regions::draw(p.board().regions(), s)
}

/// The `--stats` notes: the instance's size figures and Theorem 2's bound `T(m, n, R)` (shown
/// next to the driver's node count).
pub fn notes(p: &Suguru) -> Vec<Note> {
    let mut notes = p.board().notes();
    match theorems::theorem2_bound(p) {
        Some(t) => notes.push(Note::new("theorem2_bound", theorems::short_number(&t))),
        None => notes.push(Note::new(
            "theorem2_bound",
            format!("not computed (more than {} empty cells)", theorems::THEOREM2_MAX_EMPTY),
        )),
    }
    notes
}

impl Puzzle for Suguru {
    const NAME: &'static str = "suguru";
    const SUMMARY: &'static str = "Suguru (Nanaburokku): regions hold 1..size, touching cells differ";
    type Solution = Solution;
    type Algorithm = Algorithm;
    const ALGORITHMS: &'static [(Algorithm, AlgorithmInfo)] = &ALGORITHMS;
    const ANSWER_EXTENSION: Option<&'static str> = Some("ans");
    const SETTINGS: &'static [pencilbox_core::puzzle::SettingInfo] = pencilbox_core::rules::ENGINE_SETTINGS;
    const RULE_TABLE: Option<&'static pencilbox_core::rules::RuleTable> = Some(&crate::fast::TABLE);
    const GENERATOR: Option<GeneratorInfo> = Some(crate::generate::GENERATOR);
    pencilbox_core::region_board_methods!(board, Suguru::from);

    fn detect(text: &str) -> bool {
        crate::model::detect(text)
    }

    fn parse(text: &str, _: &RunOptions) -> Result<Self, PuzzleError> {
        Ok(parse(text)?)
    }

    /// A solve (`keep` 1 and one solution asked for) runs [`solver::solve`]; anything else
    /// counts with [`solver::count`] (exactly, by the DP, on `1×n` / `m×1` grids).
    fn search(
        &self,
        alg: Option<Algorithm>,
        opts: &RunOptions,
        limits: &Limits,
        keep: usize,
    ) -> Result<Found<Solution>, PuzzleError> {
        let rules = crate::fast::Rules::parse(opts.setting("rules")).map_err(PuzzleError::unsupported)?;
        if opts.setting("rules").is_some() && alg.is_some_and(|a| a != Algorithm::Fast) {
            return Err(PuzzleError::unsupported(
                "the `rules` setting switches the rules of `fast`: leave out `-a` or say `-a fast`",
            ));
        }
        if keep <= 1 && limits.max_solutions == Some(1) {
            let r = solver::solve_with(self, alg, limits, rules)?;
            let found = Found {
                solutions: r.solution.into_iter().take(keep).collect(),
                count: u32::from(r.status == pencilbox_core::Status::Solved).into(),
                complete: r.status != pencilbox_core::Status::Timeout,
                interrupted: (r.status == pencilbox_core::Status::Timeout).then_some(r.stop),
                reason: r.reason,
                algorithm: Some(r.algorithm.name()),
                stats: r.stats,
                notes: Vec::new(),
                rules: r.rules,
            };
            return Ok(found);
        }
        let r = solver::count_with(self, alg, limits.max_solutions, limits, rules, keep)?;
        let mut notes = Vec::new();
        if linear::applies(self) {
            notes.push(Note::new(
                "theorem4_bound",
                theorems::short_number(&theorems::theorem4_bound(self)),
            ));
        }
        Ok(Found {
            solutions: r.witness.into_iter().take(keep).collect(),
            count: r.count,
            complete: r.complete,
            interrupted: r.interrupted.then_some(r.stop),
            reason: r.reason,
            algorithm: Some(r.algorithm.name()),
            stats: r.stats,
            notes,
            rules: r.rules,
        })
    }

    fn verify(&self, s: &Solution) -> VerifyReport {
        verify::verify(self, s)
    }

    fn render(&self, s: &Solution) -> Rendered {
        render(self, s)
    }

    fn explain(&self, opts: &ExplainOptions) -> Option<Result<Explanation, PuzzleError>> {
        Some(crate::explain::explain(self, opts))
    }

    /// Measured peaks per cell (docs/cli.md, "Memory"): the engine model of `fast` 0.6–0.7
    /// KB, Algorithm 2's lists 0.23 KB, the SAT formula 4.5–6.6 KB.
    fn memory_estimate(&self, algorithm: Option<&str>) -> u64 {
        let per_cell = match algorithm {
            Some("paper") => 320,
            Some("linear") => 256,
            Some("sat") => 8 << 10,
            _ => 800,
        };
        let (m, n) = self.dimensions();
        pencilbox_core::puzzle::estimate(m, n, per_cell, 0)
    }
    fn notes(&self) -> Vec<Note> {
        notes(self)
    }

    fn write(&self, url: bool) -> Option<String> {
        Some(if url {
            crate::puzzlink::to_url(self)
        } else {
            self.to_text()
        })
    }

    fn generate(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
        crate::generate::generated(req)
    }

    fn fact_model(&self, _: &RunOptions) -> Option<Result<pencilbox_core::setter::Setup, PuzzleError>> {
        Some(crate::setter::fact_model(self))
    }

    fn separating_clues(&self, keep: &Solution, drop: &Solution) -> Option<Vec<pencilbox_core::setter::Clue<Self>>> {
        Some(crate::setter::separating_clues(self, keep, drop))
    }

    fn removable_clues(&self) -> Option<Vec<pencilbox_core::setter::Clue<Self>>> {
        Some(crate::setter::removable_clues(self))
    }
}
