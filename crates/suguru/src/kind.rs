//! The [`PuzzleKind`] plug-in the CLI and server see: text in, reports out.

use crate::model::{parse, parse_answer, Solution, Suguru};
use crate::solver::{self, Algorithm};
use crate::{theorems, verify};
use pencilbox_core::puzzle::differences;
use pencilbox_core::regions;
use pencilbox_core::{
    AlgorithmInfo, CountReport, Note, PuzzleError, PuzzleKind, Rendered, RunOptions, SolveReport, VerifyReport,
};

/// The Suguru family.
pub struct Kind;

/// The registry entry (`pencilbox_suguru::KIND`).
pub static KIND: Kind = Kind;

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

fn algorithm(opts: &RunOptions) -> Result<Option<Algorithm>, PuzzleError> {
    match opts.algorithm.as_deref() {
        None => Ok(None),
        Some(name) => {
            KIND.algorithm(Some(name))?;
            Ok(Algorithm::from_name(name))
        }
    }
}

/// The `--stats` notes: the instance's size figures and Theorem 2's bound `T(m, n, R)` (shown
/// next to the driver's node count).
pub fn notes(p: &Suguru) -> Vec<Note> {
    let mut notes = vec![Note::new("regions", p.num_regions()), Note::new("hints", p.num_hints())];
    match theorems::theorem2_bound(p) {
        Some(t) => notes.push(Note::new("theorem2_bound", theorems::short_number(&t))),
        None => notes.push(Note::new(
            "theorem2_bound",
            format!("not computed (more than {} empty cells)", theorems::THEOREM2_MAX_EMPTY),
        )),
    }
    notes
}

impl PuzzleKind for Kind {
    fn convert(&self, text: &str, url: bool, _: &RunOptions) -> Result<String, PuzzleError> {
        let p = crate::parse(text)?;
        Ok(if url { crate::puzzlink::to_url(&p) } else { p.to_text() })
    }
    fn generator(&self) -> Option<pencilbox_core::plugin::GeneratorInfo> {
        Some(crate::generate::GENERATOR)
    }
    fn generate(
        &self,
        req: &pencilbox_core::plugin::GenerateRequest,
    ) -> Result<pencilbox_core::plugin::Generated, PuzzleError> {
        pencilbox_core::plugin::check_generate(self.name(), &crate::generate::GENERATOR, req)?;
        crate::generate::generated(req)
    }
    fn name(&self) -> &'static str {
        "suguru"
    }
    fn summary(&self) -> &'static str {
        "Suguru (Nanaburokku): regions hold 1..size, touching cells differ"
    }
    fn detect(&self, text: &str) -> bool {
        crate::model::detect(text)
    }
    fn algorithms(&self) -> Vec<AlgorithmInfo> {
        Algorithm::INFO.to_vec()
    }
    fn dimensions(&self, text: &str, _: &RunOptions) -> Result<(usize, usize), PuzzleError> {
        let s = parse(text)?.shape();
        Ok((s.height, s.width))
    }
    fn answer_extension(&self) -> Option<&'static str> {
        Some("ans")
    }
    fn solve(&self, text: &str, opts: &RunOptions) -> Result<SolveReport, PuzzleError> {
        let p = parse(text)?;
        let r = solver::solve(&p, algorithm(opts)?, &opts.limits)?;
        Ok(SolveReport {
            status: r.status,
            solution: r.solution.as_ref().map(|s| render(&p, s)),
            reason: r.reason,
            algorithm: r.algorithm.name().to_string(),
            notes: notes(&p),
            stats: r.stats,
        })
    }
    fn count(&self, text: &str, limit: Option<u64>, opts: &RunOptions) -> Result<CountReport, PuzzleError> {
        let p = parse(text)?;
        let r = solver::count(&p, algorithm(opts)?, limit, &opts.limits)?;
        let diff = match &r.witness[..] {
            [a, b] => differences(a.as_slice(), b.as_slice(), |i| {
                p.shape().name(pencilbox_core::CellId::from_index(i))
            }),
            _ => Vec::new(),
        };
        let witness = if r.count >= 2u32.into() {
            r.witness.iter().map(|s| render(&p, s)).collect()
        } else {
            Vec::new()
        };
        let mut notes = notes(&p);
        if crate::linear::applies(&p) {
            notes.push(Note::new(
                "theorem4_bound",
                theorems::short_number(&theorems::theorem4_bound(&p)),
            ));
        }
        Ok(CountReport {
            count: r.count,
            complete: r.complete,
            interrupted: r.interrupted,
            witness,
            differences: diff,
            reason: r.reason,
            algorithm: r.algorithm.name().to_string(),
            stats: r.stats,
            notes,
        })
    }
    fn verify(&self, text: &str, solution: &str, _: &RunOptions) -> Result<VerifyReport, PuzzleError> {
        let p = parse(text)?;
        let s = parse_answer(solution, p.shape()).map_err(PuzzleError::Solution)?;
        Ok(verify::verify(&p, &s))
    }
}
