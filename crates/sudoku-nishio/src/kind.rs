//! The Sudoku plug-in: [`Sudoku`] implements core's typed [`Puzzle`] trait and [`KIND`] is its
//! [`Plugin`].
//!
//! Algorithms ([`Algorithm`]): `bits` — the bit-parallel 9×9 solver ([`crate::bitsolve`]),
//! 3×3 blocks only; `deduce` — the engine model of [`crate::model`] with every rule (singles,
//! pointing and claiming, pairs and triples, Nishio) and the deducer's chains
//! ([`crate::solver`]), then the engine's search on the same model when they stall (what
//! `explain` and the ratings use); `backtrack` — the engine's search ([`crate::backtrack`])
//! with the singles only; `sat`. The default ([`default_algorithm`]) is `bits` on 9×9 grids
//! with 3×3 blocks and `backtrack` on every other shape; a default other than `bits` is named
//! in the report.
//! `RunOptions.limits` (deadline, cancel flag) is polled by the engine inside propagation, by
//! Nishio's graph build and search and by the chains, so an expired deadline gives a `Timeout`
//! report (count: `interrupted`) within milliseconds.
//! Settings ([`Puzzle::SETTINGS`]): `block=AxB` overrides the block shape (`--set block=AxB`;
//! the `sudoku` subcommands take `--block AxB`). Batch files (one puzzle per line) are split by
//! [`Puzzle::instances`].

use crate::backtrack::{engine_search, run_search};
use crate::board::{batch_lines, pretty_grid, symbol, BlockShape, Candidates, Sudoku};
use crate::model::{values, Model};
use crate::solver::{check_solution, Deducer, Rule, RuleSet};
use pencilbox_core::plugin::{
    grid_differences, Found, GenerateRequest, Generated, GeneratorInfo, Plugin, Puzzle, SettingInfo,
};
use pencilbox_core::{
    AlgorithmInfo, Instance, Limits, Note, ParseError, PuzzleError, Render, Rendered, RunOptions, Stats, StopReason,
    VerifyReport,
};

/// The registry entry.
pub static KIND: Plugin<Sudoku> = Plugin::new();

/// The largest text detection reads as one Sudoku grid (a 25×25 grid with separators and
/// comments is a few kilobytes).
const MAX_GRID_TEXT: usize = 256 * 1024;

/// Sudoku's algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// The bit-parallel 9×9 solver ([`crate::bitsolve`]); 3×3 blocks only.
    Bits,
    /// Human rules on the engine (with Nishio and chains), then search if they stall.
    Deduce,
    /// The engine's search with singles propagation.
    Backtrack,
    /// The engine model's CNF on a CDCL SAT solver ([`pencilbox_core::encode`]).
    Sat,
}

/// The block shape given by the `block=AxB` setting, if any.
pub fn block_setting(opts: &RunOptions) -> Result<Option<BlockShape>, PuzzleError> {
    match opts.setting("block") {
        None => Ok(None),
        Some(s) => BlockShape::parse(s)
            .map(Some)
            .ok_or_else(|| PuzzleError::unsupported(format!("block must look like 3x3 (rows x columns), found `{s}`"))),
    }
}

/// Parses with the options' block shape.
pub fn parse(text: &str, opts: &RunOptions) -> Result<Sudoku, PuzzleError> {
    Ok(Sudoku::parse(text, block_setting(opts)?)?)
}

/// Renders a solved grid: text = one line of `n²` symbols, JSON = `n` rows of numbers.
pub fn render(p: &Sudoku, values: &[u8]) -> Rendered {
    render_as(p, values, Render::All)
}

/// The forms of [`render`] that `what` asks for (the others empty).
pub fn render_as(p: &Sudoku, values: &[u8], what: Render) -> Rendered {
    let n = p.n();
    Rendered {
        text: if what.text() {
            values.iter().map(|&v| symbol(v)).collect()
        } else {
            String::new()
        },
        pretty: if what.pretty() {
            pretty_grid(p.block(), values)
        } else {
            String::new()
        },
        json: if what.json() {
            serde_json::json!(values.chunks(n).map(|r| r.to_vec()).collect::<Vec<_>>())
        } else {
            serde_json::Value::Null
        },
    }
}

/// The engine's search on `search`'s model, as a [`Found`].
fn searched(
    s: &mut pencilbox_core::engine::EngineSearch<crate::backtrack::UnitBrancher>,
    limits: &Limits,
    keep: usize,
) -> Found<Vec<u8>> {
    let (sols, r) = run_search(s, limits, keep);
    let mut f = Found::from_search(sols, &r);
    if r.solutions == 0 && r.stop == StopReason::Exhausted {
        f.reason = Some("no assignment satisfies the givens (search exhausted)".into());
    }
    let notes = s
        .engine
        .rule_stats()
        .into_iter()
        .filter(|(_, st)| st.conflicts > 0)
        .map(|(rule, st)| Note::new(format!("conflicts found by {rule}"), st.conflicts));
    f.with_notes(notes).with_rules_of(&s.engine, limits)
}

/// The rules of `backtrack` in core's vocabulary ([`pencilbox_core::rules`]): `naked-single`
/// (rows, columns and blocks all different) defines the puzzle; `hidden-single` is on by
/// default, and the rules `deduce` adds (pointing and claiming, pairs and triples, Nishio)
/// can be switched on with `--set rules=+pointing` and so on.
pub static RULE_TABLE: pencilbox_core::rules::RuleTable = pencilbox_core::rules::RuleTable {
    algorithm: "backtrack",
    rules: &[
        pencilbox_core::rules::NAKED_SINGLE,
        pencilbox_core::rules::HIDDEN_SINGLE,
        pencilbox_core::rules::POINTING.off_by_default(),
        pencilbox_core::rules::NAKED_PAIR.off_by_default(),
        pencilbox_core::rules::HIDDEN_PAIR.off_by_default(),
        pencilbox_core::rules::Rule::optional(
            "nishio",
            "Eppstein's Nishio: a candidate of a digit on no valid placement of that digit goes (DAG reachability)",
        )
        .off_by_default(),
    ],
};

impl Sudoku {
    /// `deduce`: the rules, then the search on the same engine when they stall.
    ///
    /// Deduction gets at most half of the time left and half of the node limit
    /// ([`deduction_share`]); when its share runs out, the search goes on from the candidates
    /// deduced so far with the rest. So a longer limit never gives a worse answer than a shorter
    /// one: the search gets at least half of any limit, and starts from at least as much.
    fn deduce(&self, limits: &Limits, keep: usize) -> Result<Found<Vec<u8>>, PuzzleError> {
        let share = deduction_share(limits);
        let mut d =
            Deducer::new_limited(self, RuleSet::ALL, share.clone()).map_err(|e| PuzzleError::unsupported(e.message))?;
        let (mut steps, mut nishio, mut rating) = (0usize, 0usize, None);
        while let Some(s) = d.step() {
            steps += 1;
            nishio += usize::from(s.rule == Rule::Nishio);
            rating = rating.max(Some(s.rule));
        }
        let mut notes = vec![Note::new("steps", steps), Note::new("nishio eliminations", nishio)];
        notes.extend(d.nishio_note().map(|n| Note::new("note", n)));
        if let Some(reason) = d.contradiction() {
            return Ok(Found::unsolvable(reason).with_notes(notes));
        }
        // Stopped by the run's own limits (not only by deduction's share): nothing left for search.
        let spent = d.work();
        let over_nodes = limits.node_limit.is_some_and(|n| spent >= n);
        if let Some(why) = limits.interrupted().or(over_nodes.then_some(StopReason::NodeLimit)) {
            let mut f = Found::counted(vec![], 0, false, Stats::default());
            f.interrupted = Some(why);
            return Ok(f.with_notes(notes));
        }
        if d.interrupted().is_some() {
            notes.push(Note::new(
                "note",
                "deduction used its share of the limits; the search went on from its candidates",
            ));
        }
        if d.interrupted().is_none() && d.is_solved() {
            notes.push(Note::new("rating", rating.map_or("givens only", |r: Rule| r.name())));
            notes.push(Note::new("guessing", "no"));
            // Every rule is sound, so the fixed grid is the only solution.
            return Ok(Found::counted(vec![d.values()], 1, true, Stats::default()).with_notes(notes));
        }
        notes.push(Note::new("rating", Rule::Guess.name()));
        notes.push(Note::new("guessing", "yes (rules stalled)"));
        let (engine, geo) = d.into_engine();
        let mut s = engine_search(engine, geo);
        let rest = Limits {
            node_limit: limits.node_limit.map(|n| n - spent),
            ..limits.clone()
        };
        Ok(searched(&mut s, &rest, keep).with_notes(notes))
    }
}

/// The limits of `deduce`'s deduction phase: half of the time left before `limits`' deadline
/// and half of its node limit (at least one unit), the same cancellation flag and progress
/// counters.
pub fn deduction_share(limits: &Limits) -> Limits {
    let now = pencilbox_core::time::Instant::now();
    Limits {
        max_solutions: None,
        node_limit: limits.node_limit.map(|n| (n / 2).max(1)),
        deadline: limits.deadline.map(|d| now + d.saturating_duration_since(now) / 2),
        cancel: limits.cancel.clone(),
        progress: limits.progress.clone(),
        memory: limits.memory,
        counters: limits.counters,
        learning: limits.learning,
        learn_counters: limits.learn_counters.clone(),
    }
}

/// The default algorithm for a block shape: `bits` for 9×9 with 3×3 blocks, `backtrack` for
/// every other shape (see BENCHMARKS.md, "Sudoku: the bit-parallel default": on empty and
/// random grids of the other sizes `backtrack` is as fast as `deduce` or far faster).
pub fn default_algorithm(block: BlockShape) -> Algorithm {
    if block == crate::bitsolve::SHAPE {
        Algorithm::Bits
    } else {
        Algorithm::Backtrack
    }
}

/// The CLI name of an algorithm.
pub fn algorithm_name(alg: Algorithm) -> &'static str {
    <Sudoku as Puzzle>::ALGORITHMS
        .iter()
        .find(|(a, _)| *a == alg)
        .map_or("deduce", |(_, info)| info.name)
}

impl Sudoku {
    /// `bits` ([`crate::bitsolve`]) as a [`Found`]; refused for other shapes.
    fn bits(&self, limits: &Limits, keep: usize) -> Result<Found<Vec<u8>>, PuzzleError> {
        let Some((sols, r)) = crate::bitsolve::search(self, limits, keep) else {
            let n = self.n();
            return Err(PuzzleError::unsupported(format!(
                "`bits` solves 9×9 grids with 3x3 blocks; this grid is {n}×{n} with {} blocks: use backtrack or deduce",
                self.block()
            )));
        };
        let mut f = Found::from_search(sols, &r);
        if r.solutions == 0 && r.stop == StopReason::Exhausted {
            f.reason = Some(match Candidates::from_puzzle(self) {
                Err(e) => e.message,
                Ok(_) => "no assignment satisfies the givens (search exhausted)".into(),
            });
        }
        Ok(f)
    }
}

impl Puzzle for Sudoku {
    const NAME: &'static str = "sudoku";
    const SUMMARY: &'static str =
        "Sudoku (4×4 to 25×25, a×b blocks) with Eppstein's Nishio deduction by DAG reachability";
    type Solution = Vec<u8>;
    type Algorithm = Algorithm;
    const ALGORITHMS: &'static [(Algorithm, AlgorithmInfo)] = &[
        (
            Algorithm::Bits,
            AlgorithmInfo {
                name: "bits",
                summary: "bit-parallel search, 9×9 with 3×3 blocks only (digit-band words; locked candidates, triads and singles by word operations; branching on a digit's band configurations); with no algorithm named, other shapes run backtrack",
            },
        ),
        (
            Algorithm::Deduce,
            AlgorithmInfo {
                name: "deduce",
                summary: "engine model with human rules (singles, pointing/claiming, pairs/triples, Nishio by DAG reachability) and chains, then the engine's search if stalled",
            },
        ),
        (
            Algorithm::Backtrack,
            AlgorithmInfo {
                name: "backtrack",
                summary: "the engine's search with naked and hidden singles, unit-digit branching and Luby restarts",
            },
        ),
        (
            Algorithm::Sat,
            AlgorithmInfo {
                name: "sat",
                summary: "the engine model (one permutation per row, column and block) as CNF on a CDCL SAT solver; counts with a blocking clause per solution",
            },
        ),
    ];
    const SETTINGS: &'static [SettingInfo] = &[
        SettingInfo {
            key: "block",
            summary: "AxB: the block shape, A rows by B columns (default: the squarest shape for the grid's size)",
        },
        SettingInfo {
            key: "rules",
            summary: "backtrack's rules (`pencilbox list` names them): default (singles), all, none, or changes such as +pointing,+nishio",
        },
    ];
    const RULE_TABLE: Option<&'static pencilbox_core::rules::RuleTable> = Some(&RULE_TABLE);
    const MAX_SIDE: Option<usize> = Some(crate::MAX_INTERACTIVE_SIDE);
    const GENERATOR: Option<GeneratorInfo> = Some(crate::generate::GENERATOR);

    /// The board for the playground: the givens, the blocks as regions, digits 1..n.
    fn board(&self) -> Option<pencilbox_core::board::Board> {
        use pencilbox_core::board::{Board, Form, Given, Input};
        let n = self.n();
        let shape = pencilbox_core::Shape::new(n, n);
        let labels = pencilbox_core::Grid::from_vec(
            shape,
            shape
                .all()
                .map(|c| {
                    let (r, k) = shape.coords(c);
                    self.block().block_of(r, k) as u32 + 1
                })
                .collect(),
        )?;
        let mut b = Board::new(shape, Input::numbers(), Form::Numbers).with_regions(&labels);
        for c in shape.all() {
            let g = self.givens()[c.index()];
            if g != 0 {
                b.give(c, Given::Number { value: u32::from(g) });
            }
        }
        b.max = vec![n as u32; shape.cells()];
        b.edit = Some(pencilbox_core::board::Edit {
            numbers: n as u32,
            ..Default::default()
        });
        Some(b)
    }
    /// A setter's board: its numbers, on a square grid (this puzzle's blocks, or the squarest
    /// blocks of another side).
    fn compose(&self, d: &pencilbox_core::board::Draft) -> Option<Result<Self, PuzzleError>> {
        Some(d.shape().and_then(|shape| {
            let n = shape.height;
            let block = if n == self.n() {
                Some(self.block())
            } else if n == shape.width {
                BlockShape::default_for(n)
            } else {
                None
            }
            .ok_or_else(|| {
                PuzzleError::unsupported(format!("a Sudoku is square with blocks, not {}×{}", n, shape.width))
            })?;
            let givens = (0..shape.cells())
                .map(|i| d.number(i).map_or(0, |v| v.min(255) as u8))
                .collect();
            Sudoku::new(block, givens)
                .ok_or_else(|| PuzzleError::unsupported(format!("a {n}×{n} Sudoku takes the numbers 1 to {n}")))
        }))
    }
    fn detect(text: &str) -> bool {
        let first = match batch_lines(text) {
            Some(lines) => lines[0].1,
            // No single grid, however laid out and commented, comes near this size: a large
            // file that is not a batch is another family's (a 1×10⁶ Suguru is 8 MB).
            None if text.len() > MAX_GRID_TEXT => return false,
            None => text,
        };
        // A completely filled grid that breaks the rules is another puzzle's answer (e.g. a
        // Suguru solution), not a Sudoku.
        Sudoku::parse(first, None).is_ok_and(|p| p.num_givens() < p.n() * p.n() || Candidates::from_puzzle(&p).is_ok())
    }
    fn instances(text: &str) -> Vec<Instance<'_>> {
        match batch_lines(text) {
            Some(lines) => lines
                .into_iter()
                .map(|(first_line, text)| Instance { text, first_line })
                .collect(),
            None => vec![Instance { text, first_line: 1 }],
        }
    }
    fn explain(
        &self,
        opts: &pencilbox_core::human::ExplainOptions,
    ) -> Option<Result<pencilbox_core::human::Explanation, PuzzleError>> {
        Some(Ok(crate::explain::explain(self, opts)))
    }
    fn parse(text: &str, opts: &RunOptions) -> Result<Self, PuzzleError> {
        parse(text, opts)
    }
    fn search(
        &self,
        alg: Option<Algorithm>,
        opts: &RunOptions,
        limits: &Limits,
        keep: usize,
    ) -> Result<Found<Vec<u8>>, PuzzleError> {
        let chosen = alg.unwrap_or_else(|| default_algorithm(self.block()));
        if chosen != Algorithm::Backtrack && opts.setting("rules").is_some() {
            return Err(PuzzleError::unsupported(
                "the `rules` setting switches the rules of `backtrack`: add `-a backtrack`",
            ));
        }
        let found = match chosen {
            // `bits` finds clashing givens itself (no candidate grid built first).
            Algorithm::Bits => self.bits(limits, keep)?,
            _ => {
                let cand = match Candidates::from_puzzle(self) {
                    Ok(c) => c,
                    Err(e) => return Ok(Found::unsolvable(e.message)),
                };
                match chosen {
                    // (`Bits` is handled above.)
                    Algorithm::Deduce | Algorithm::Bits => self.deduce(limits, keep)?,
                    Algorithm::Backtrack => {
                        let on = RULE_TABLE.of(opts)?;
                        let m = Model::with_rules(&cand, on.distinct(3), on.has("nishio"), limits);
                        let mut s = engine_search(m.engine, m.geo);
                        searched(&mut s, limits, keep)
                    }
                    Algorithm::Sat => {
                        let mut m = Model::new(&cand, RuleSet::SINGLES, limits);
                        let mut f = pencilbox_core::sat::sat_search(
                            &mut m.engine,
                            pencilbox_core::sat::unnamed,
                            limits,
                            keep,
                            values,
                        )?;
                        if f.count == 0u32.into() && f.complete {
                            f.reason = Some("no assignment satisfies the givens (SAT solver)".into());
                        }
                        f
                    }
                }
            }
        };
        // A default that is not the first-listed algorithm says what ran.
        Ok(if alg.is_none() && chosen != Algorithm::Bits {
            found.ran(algorithm_name(chosen))
        } else {
            found
        })
    }
    fn parse_solution(&self, text: &str) -> Result<Vec<u8>, ParseError> {
        // Read the size first, so that a grid of another size is called that, not a grid the
        // puzzle's blocks do not tile.
        let n = self.n();
        let size = Sudoku::parse(text, None).map(|s| s.n());
        if let Ok(m) = size {
            if m != n {
                return Err(ParseError::new(
                    pencilbox_core::Pos { line: 1, col: 1 },
                    format!("the solution is a {m}×{m} grid but the puzzle is {n}×{n}: the sizes differ"),
                ));
            }
        }
        Ok(Sudoku::parse(text, Some(self.block()))?.givens().to_vec())
    }
    fn verify(&self, s: &Vec<u8>) -> VerifyReport {
        VerifyReport {
            violations: check_solution(self, s),
        }
    }
    fn render(&self, s: &Vec<u8>) -> Rendered {
        render(self, s)
    }
    fn render_as(&self, s: &Vec<u8>, what: Render) -> Rendered {
        render_as(self, s, what)
    }
    fn differences(&self, a: &Vec<u8>, b: &Vec<u8>) -> Vec<String> {
        grid_differences(self.n(), a, b)
    }
    /// The player's digits (a grid of the puzzle's size, `0` or `.` = empty) added to the
    /// givens; a digit that differs from a given is refused.
    fn with_entries(&self, entries: &str) -> Result<Self, PuzzleError> {
        let digits = self.parse_solution(entries).map_err(PuzzleError::Solution)?;
        let mut givens = self.givens().to_vec();
        for (i, (&g, &v)) in self.givens().iter().zip(&digits).enumerate() {
            match (g, v) {
                (_, 0) => {}
                (0, v) => givens[i] = v,
                (g, v) if g != v => {
                    return Err(PuzzleError::Entries(format!(
                        "the entry {v} at r{}c{} differs from its given {g}",
                        i / self.n() + 1,
                        i % self.n() + 1
                    )))
                }
                _ => {}
            }
        }
        Sudoku::new(self.block(), givens).ok_or_else(|| PuzzleError::Entries("the entries do not fit the grid".into()))
    }
    fn wrong_entries(&self, entries: &str, solution: &Vec<u8>) -> Option<Vec<pencilbox_core::human::Fact>> {
        let digits = self.parse_solution(entries).ok()?;
        let n = self.n();
        Some(
            (0..n * n)
                .filter(|&i| digits[i] != 0 && self.givens()[i] == 0 && digits[i] != solution[i])
                .map(|i| pencilbox_core::human::Fact {
                    cell: format!("r{}c{}", i / n + 1, i % n + 1),
                    value: crate::board::symbol(digits[i]).to_string(),
                })
                .collect(),
        )
    }
    fn dimensions(&self) -> (usize, usize) {
        (self.n(), self.n())
    }
    /// `deduce` builds the Nishio graph, which grows about as n^5.5 for an n×n grid: peaks of
    /// 28 MB at 16×16 and 341 MB at 25×25 measured on empty grids, fitted by 7·n^5.5 bytes
    /// plus 1 MiB; `backtrack` needs the engine model only (1 KB per cell), `bits` less (its
    /// state is 124 bytes per search level); the default is one of those two.
    fn memory_estimate(&self, algorithm: Option<&str>) -> u64 {
        let n = self.n();
        let model = pencilbox_core::puzzle::estimate(n, n, pencilbox_core::puzzle::DEFAULT_BYTES_PER_CELL, 0);
        if matches!(algorithm, None | Some("backtrack") | Some("bits")) {
            return model;
        }
        let nishio = 7.0 * (n as f64).powf(5.5) + (1u64 << 20) as f64;
        model.saturating_add(nishio.min(u64::MAX as f64) as u64)
    }
    fn notes(&self) -> Vec<Note> {
        vec![Note::new("givens", self.num_givens())]
    }
    fn write(&self, url: bool) -> Option<String> {
        Some(if url { self.to_url() } else { self.to_line() })
    }
    fn generate(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
        crate::generate::generated(req)
    }
    fn fact_model(&self, opts: &RunOptions) -> Option<Result<pencilbox_core::setter::Setup, PuzzleError>> {
        Some(Ok(crate::setter::fact_model(self, &opts.limits)))
    }
    fn separating_clues(&self, keep: &Vec<u8>, drop: &Vec<u8>) -> Option<Vec<pencilbox_core::setter::Clue<Self>>> {
        Some(crate::setter::separating_clues(self, keep, drop))
    }
    fn removable_clues(&self) -> Option<Vec<pencilbox_core::setter::Clue<Self>>> {
        Some(crate::setter::removable_clues(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pencilbox_core::{BigUint, PuzzleKind, Status};

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
    fn deduce_and_bits_agree_where_a_hidden_pair_once_counted_a_placed_value() {
        // sudoku17-first5000 line 1037: a value placed in a block, not yet removed from its peers, was
        // taken for one of a hidden pair's two values and `deduce` called the puzzle unsolvable.
        let p = "......2.9...7..4...1..3.....6..8..5.4..2............3......178.2........9........";
        let sol = "347158269895762413612439578769384152453216897128597634534921786281673945976845321";
        for alg in ["deduce", "bits", "backtrack"] {
            let opts = RunOptions {
                algorithm: Some(alg.into()),
                ..RunOptions::default()
            };
            let r = KIND.solve(p, &opts).unwrap();
            assert_eq!(r.solution.map(|s| s.text).as_deref(), Some(sol), "{alg}");
        }
        let e = crate::solver::explain(&Sudoku::parse(p, None).unwrap(), RuleSet::ALL).unwrap();
        let sol: Vec<u8> = sol.bytes().map(|b| b - b'0').collect();
        for s in &e.steps {
            assert!(s.eliminated.iter().all(|&(c, d)| sol[c] != d), "{}", s.text);
        }
    }

    #[test]
    fn the_default_is_bits_on_nine_by_nine_and_backtrack_elsewhere() {
        let r = KIND.solve(FIG4, &RunOptions::default()).unwrap();
        assert_eq!((r.status, r.algorithm.as_str()), (Status::Solved, "bits"));
        assert!(r.stats.nodes >= 1);
        for n in [4, 6, 16] {
            let r = KIND.solve(&".".repeat(n * n), &RunOptions::default()).unwrap();
            assert_eq!((r.status, r.algorithm.as_str()), (Status::Solved, "backtrack"), "{n}");
            let c = KIND.count(&".".repeat(n * n), Some(2), &RunOptions::default()).unwrap();
            assert_eq!((c.count, c.witness.len()), (BigUint::from(2u32), 2));
        }
        let bits = RunOptions {
            algorithm: Some("bits".into()),
            ..RunOptions::default()
        };
        let e = KIND.solve(&".".repeat(16), &bits).unwrap_err().to_string();
        assert!(e.contains("9×9") && e.contains("4×4"), "{e}");
        // The count keeps a witness pair and the cells where they differ.
        let c = KIND.count(&".".repeat(81), Some(5), &bits).unwrap();
        assert_eq!((c.count, c.complete, c.witness.len()), (BigUint::from(5u32), false, 2));
        assert!(!c.differences.is_empty());
        let sudoku = Sudoku::parse(FIG4, None).unwrap();
        assert!(sudoku.memory_estimate(None) < sudoku.memory_estimate(Some("deduce")));
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
