//! The Sudoku plug-in: [`KIND`] implements core's [`PuzzleKind`].
//!
//! Algorithms: `deduce` (default) — the rules of [`crate::solver`] including Nishio, then the
//! search fallback when they stall; `backtrack` — the search of [`crate::backtrack`] alone.
//! `RunOptions.limits` (deadline, cancel flag) is honoured inside the rules and by the search
//! (core's driver), so an expired deadline gives a `Timeout` report (count: `interrupted`)
//! within milliseconds.
//! Settings: `block=AxB` overrides the block shape. Batch files (one puzzle per line) are split
//! by [`PuzzleKind::instances`]. Every solution returned has passed [`check_solution`].

use crate::backtrack::search;
use crate::board::{batch_lines, pretty_grid, symbol, BlockShape, Candidates, Sudoku};
use crate::solver::{check_solution, explain_limited, RuleSet};
use pencilbox_core::puzzle::differences;
use pencilbox_core::{
    AlgorithmInfo, BigUint, CountReport, Instance, Note, PuzzleError, PuzzleKind, Rendered, RunOptions, SolveReport,
    Stats, Status, VerifyReport,
};
use std::time::Instant;

/// The Sudoku family.
pub struct Kind;

/// The registry entry.
pub static KIND: Kind = Kind;

const ALGORITHMS: &[AlgorithmInfo] = &[
    AlgorithmInfo {
        name: "deduce",
        summary: "human rules (singles, locked candidates, pairs/triples, Nishio by DAG reachability), then search if stalled",
    },
    AlgorithmInfo {
        name: "backtrack",
        summary: "depth-first search with singles propagation on core's driver",
    },
];

/// The block shape given by the `block=AxB` setting, if any.
pub fn block_setting(opts: &RunOptions) -> Result<Option<BlockShape>, PuzzleError> {
    match opts.setting("block") {
        None => Ok(None),
        Some(s) => BlockShape::parse(s).map(Some).ok_or_else(|| {
            PuzzleError::unsupported(format!("--block must look like 3x3 (rows x columns), found `{s}`"))
        }),
    }
}

/// Parses with the options' block shape.
pub fn parse(text: &str, opts: &RunOptions) -> Result<Sudoku, PuzzleError> {
    Ok(Sudoku::parse(text, block_setting(opts)?)?)
}

/// Renders a solved grid: text = one line of `n²` symbols, JSON = `n` rows of numbers.
pub fn render(p: &Sudoku, values: &[u8]) -> Rendered {
    let n = p.n();
    Rendered {
        text: values.iter().map(|&v| symbol(v)).collect(),
        pretty: pretty_grid(p.block(), values),
        json: serde_json::json!(values.chunks(n).map(|r| r.to_vec()).collect::<Vec<_>>()),
    }
}

fn verified(p: &Sudoku, values: &[u8]) -> Result<Rendered, PuzzleError> {
    let v = check_solution(p, values);
    if !v.is_empty() {
        return Err(PuzzleError::unsupported(format!(
            "internal error: a found solution failed verification ({})",
            v[0].message
        )));
    }
    Ok(render(p, values))
}

impl PuzzleKind for Kind {
    fn max_side(&self) -> Option<usize> {
        Some(crate::MAX_INTERACTIVE_SIDE)
    }
    fn convert(&self, text: &str, url: bool, opts: &RunOptions) -> Result<String, PuzzleError> {
        let p = parse(text, opts)?;
        Ok(if url { p.to_url() } else { p.to_line() })
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
        "sudoku"
    }
    fn summary(&self) -> &'static str {
        "Sudoku (4×4 to 25×25, a×b blocks) with Eppstein's Nishio deduction by DAG reachability"
    }
    fn detect(&self, text: &str) -> bool {
        let first = match batch_lines(text) {
            Some(lines) => lines[0].1,
            None => text,
        };
        // A completely filled grid that breaks the rules is another puzzle's answer (e.g. a
        // Suguru solution), not a Sudoku.
        Sudoku::parse(first, None).is_ok_and(|p| p.num_givens() < p.n() * p.n() || Candidates::from_puzzle(&p).is_ok())
    }
    fn algorithms(&self) -> Vec<AlgorithmInfo> {
        ALGORITHMS.to_vec()
    }
    fn dimensions(&self, text: &str, opts: &RunOptions) -> Result<(usize, usize), PuzzleError> {
        let n = parse(text, opts)?.n();
        Ok((n, n))
    }
    fn instances<'a>(&self, text: &'a str) -> Vec<Instance<'a>> {
        match batch_lines(text) {
            Some(lines) => lines
                .into_iter()
                .map(|(first_line, text)| Instance { text, first_line })
                .collect(),
            None => vec![Instance { text, first_line: 1 }],
        }
    }

    fn solve(&self, text: &str, opts: &RunOptions) -> Result<SolveReport, PuzzleError> {
        let alg = self.algorithm(opts.algorithm.as_deref())?;
        let p = parse(text, opts)?;
        let start = Instant::now();
        let mut notes = vec![Note::new("givens", p.num_givens())];
        let unsolvable = |reason: String, stats: Stats, notes: Vec<Note>| SolveReport {
            status: Status::Unsolvable,
            solution: None,
            reason: Some(reason),
            algorithm: alg.name.to_string(),
            stats,
            notes,
        };
        let mut cand = match Candidates::from_puzzle(&p) {
            Ok(c) => c,
            Err(e) => return Ok(unsolvable(e.message, Stats::default(), notes)),
        };
        if alg.name == "deduce" {
            let limits = &opts.limits;
            // The limits are polled inside the rules (Nishio's graph build and search, chains).
            let e = explain_limited(&p, RuleSet::ALL, limits).map_err(|e| PuzzleError::unsupported(e.message))?;
            notes.push(Note::new("steps", e.steps.len()));
            notes.push(Note::new(
                "nishio eliminations",
                e.steps.iter().filter(|s| s.rule == crate::Rule::Nishio).count(),
            ));
            for n in &e.notes {
                notes.push(Note::new("note", n));
            }
            if let Some(reason) = e.contradiction {
                let stats = Stats {
                    elapsed_us: start.elapsed().as_micros() as u64,
                    ..Stats::default()
                };
                return Ok(unsolvable(reason, stats, notes));
            }
            if e.solved {
                notes.push(Note::new("rating", e.rating.map_or("givens only", |r| r.name())));
                notes.push(Note::new("guessing", "no"));
                let values: Vec<u8> = e
                    .candidates
                    .cells()
                    .iter()
                    .map(|d| d.value().unwrap_or(0) as u8)
                    .collect();
                let stats = Stats {
                    elapsed_us: start.elapsed().as_micros() as u64,
                    ..Stats::default()
                };
                return Ok(SolveReport {
                    status: Status::Solved,
                    solution: Some(verified(&p, &values)?),
                    reason: None,
                    algorithm: alg.name.to_string(),
                    stats,
                    notes,
                });
            }
            if e.interrupted.is_some() || limits.interrupted().is_some() {
                let stats = Stats {
                    elapsed_us: start.elapsed().as_micros() as u64,
                    ..Stats::default()
                };
                return Ok(SolveReport {
                    status: Status::Timeout,
                    solution: None,
                    reason: None,
                    algorithm: alg.name.to_string(),
                    stats,
                    notes,
                });
            }
            notes.push(Note::new("rating", crate::Rule::Guess.name()));
            notes.push(Note::new("guessing", "yes (rules stalled)"));
            cand = e.candidates;
        }
        let limits = opts.limits.clone().with_max_solutions(Some(1));
        let (sols, r) = search(&cand, &limits, 1);
        let mut stats = r.map(|r| r.stats).unwrap_or_default();
        stats.elapsed_us = start.elapsed().as_micros() as u64;
        let status = match (&sols.first(), r) {
            (Some(_), _) => Status::Solved,
            (None, Some(r)) if r.stop.is_interrupted() => Status::Timeout,
            _ => Status::Unsolvable,
        };
        let solution = match sols.first() {
            Some(v) => Some(verified(&p, v)?),
            None => None,
        };
        Ok(SolveReport {
            status,
            reason: (status == Status::Unsolvable)
                .then(|| "no assignment satisfies the givens (search exhausted)".into()),
            solution,
            algorithm: alg.name.to_string(),
            stats,
            notes,
        })
    }

    fn count(&self, text: &str, limit: Option<u64>, opts: &RunOptions) -> Result<CountReport, PuzzleError> {
        let p = parse(text, opts)?;
        let start = Instant::now();
        let cand = match Candidates::from_puzzle(&p) {
            Ok(c) => c,
            Err(e) => {
                return Ok(CountReport {
                    count: BigUint::from(0u32),
                    complete: true,
                    interrupted: false,
                    witness: vec![],
                    differences: vec![],
                    reason: Some(e.message),
                    algorithm: "backtrack".into(),
                    stats: Stats::default(),
                    notes: vec![],
                })
            }
        };
        let limits = opts.limits.clone().with_max_solutions(limit);
        let (sols, r) = search(&cand, &limits, 2);
        let (count, complete, interrupted, mut stats) = match r {
            Some(r) => (r.solutions, r.complete(), r.stop.is_interrupted(), r.stats),
            None => (0, true, false, Stats::default()),
        };
        stats.elapsed_us = start.elapsed().as_micros() as u64;
        let mut witness = Vec::new();
        for s in &sols {
            witness.push(verified(&p, s)?);
        }
        let diffs = if sols.len() == 2 {
            let n = p.n();
            differences(&sols[0], &sols[1], |i| format!("r{}c{}", i / n + 1, i % n + 1))
        } else {
            vec![]
        };
        Ok(CountReport {
            count: BigUint::from(count),
            complete,
            interrupted,
            witness: if sols.len() == 2 { witness } else { vec![] },
            differences: diffs,
            reason: (count == 0 && complete).then(|| "no assignment satisfies the givens".into()),
            algorithm: "backtrack".into(),
            stats,
            notes: vec![],
        })
    }

    fn verify(&self, text: &str, solution: &str, opts: &RunOptions) -> Result<VerifyReport, PuzzleError> {
        let p = parse(text, opts)?;
        let s = Sudoku::parse(solution, Some(p.block())).map_err(PuzzleError::Solution)?;
        Ok(VerifyReport {
            violations: check_solution(&p, s.givens()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIG4: &str = "3.9....74..5...9.2....49...6....3.2....2.5....3.1....7...78....8.3...7..91....5.8";

    #[test]
    fn both_algorithms_solve_and_verify_the_figure_four_puzzle() {
        for alg in ["deduce", "backtrack"] {
            let opts = RunOptions {
                algorithm: Some(alg.into()),
                ..RunOptions::default()
            };
            let r = KIND.solve(FIG4, &opts).unwrap();
            assert_eq!(r.status, Status::Solved);
            let sol = r.solution.unwrap();
            assert_eq!(sol.text.len(), 81);
            assert!(KIND.verify(FIG4, &sol.text, &opts).unwrap().is_valid());
            assert_eq!(sol.json.as_array().unwrap().len(), 9);
        }
    }

    #[test]
    fn contradictory_givens_are_unsolvable_not_errors() {
        let text = format!("11{}", ".".repeat(79));
        let r = KIND.solve(&text, &RunOptions::default()).unwrap();
        assert_eq!(r.status, Status::Unsolvable);
        assert!(r.reason.unwrap().contains("repeats"));
    }

    #[test]
    fn an_empty_four_by_four_has_several_solutions_with_witnesses() {
        let r = KIND.count(&".".repeat(16), Some(2), &RunOptions::default()).unwrap();
        assert_eq!(r.count, BigUint::from(2u32));
        assert_eq!(r.witness.len(), 2);
        assert!(!r.differences.is_empty());
    }

    #[test]
    fn a_wrong_solution_has_violations() {
        let r = KIND.solve(FIG4, &RunOptions::default()).unwrap();
        let mut bad: Vec<char> = r.solution.unwrap().text.chars().collect();
        bad.swap(1, 2);
        let bad: String = bad.into_iter().collect();
        let v = KIND.verify(FIG4, &bad, &RunOptions::default()).unwrap();
        assert!(!v.is_valid());
    }

    #[test]
    fn batches_split_per_line_and_detection_is_specific() {
        let text = format!("{FIG4}\n\n{FIG4}\n");
        let inst = KIND.instances(&text);
        assert_eq!(inst.len(), 2);
        assert_eq!(inst[1].first_line, 3);
        assert!(KIND.detect(&text));
        assert!(!KIND.detect("6 6\n1 2\n6 1\n\n5 3 5 1 5 4\n"));
        assert!(!KIND.detect("hello world"));
        // A filled grid with repeats (a Suguru answer) is not claimed.
        assert!(!KIND.detect("1 2 1 2\n3 4 3 4\n1 2 1 2\n3 4 3 4\n"));
        assert!(KIND.detect("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n"));
    }

    #[test]
    fn the_block_setting_changes_the_shape() {
        let opts = RunOptions {
            settings: vec![("block".into(), "3x2".into())],
            ..RunOptions::default()
        };
        let r = KIND.solve(&".".repeat(36), &opts).unwrap();
        assert_eq!(r.status, Status::Solved);
    }
}
