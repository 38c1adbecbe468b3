//! Ripple Effect (Nikoli's *Hakyuu*, puzz.link genre `ripple`): every region holds the numbers
//! `1..=size` once each, and two equal numbers `N` in one row or column have at least `N` other
//! cells between them.
//!
//! The whole family is a model on the shared engine plus the region toolkit of core:
//! * format, JSON, puzz.link URL, answers, verifier and drawing: [`pencilbox_core::regions`],
//!   with the header `ripple m n` so that detection is unambiguous;
//! * the model ([`Ripple::model`]): a permutation of `1..=size` per region
//!   ([`RegionModel`]) and, for two cells `d` apart in a row or column, "not both the same value
//!   `≥ d`" ([`Distinct::not_equal_on`](pencilbox_core::constraints::Distinct::not_equal_on));
//!   every rule of [`DistinctRules::ALL`] (naked and hidden singles, pointing, naked and hidden
//!   subsets) and failed-value probing, smallest-domain branching;
//! * the generator: a random layout, a random solution, hints thinned while the puzzle stays
//!   unique ([`pencilbox_core::regions::generate`]).
#![deny(missing_docs)]

use pencilbox_core::constraints::DistinctRules;
use pencilbox_core::engine::{EngineSearch, Probe, SmallestDomain, VarId};
use pencilbox_core::plugin::{engine_search, Found, GenerateRequest, Generated, GeneratorInfo, Plugin, Puzzle};
use pencilbox_core::regions::generate::unique_puzzle;
use pencilbox_core::regions::{self, model::decode, Board, Family, RegionModel};
use pencilbox_core::setter::{Clue, Setup};
use pencilbox_core::{AlgorithmInfo, CellId, Domain, Grid, Limits, PuzzleError};
use pencilbox_core::{RunOptions, Shape, VerifyReport};

/// How Ripple Effect is written: `ripple m n`, hint rows, label rows; URL genre `ripple`.
pub const FAMILY: Family = Family {
    name: "Ripple Effect",
    keyword: Some("ripple"),
    genre: "ripple",
};

/// Regions of more than 64 cells exceed the engine's domains.
const TOO_BIG: &str = "regions of more than 64 cells are not supported";

/// The registry entry.
pub static KIND: Plugin<Ripple> = Plugin::new();

/// A Ripple Effect instance: hints on a region partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ripple(pub Board);

/// The algorithms: the engine model, searched by the engine or by a SAT solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// The engine model with every distinctness rule and probing.
    Fast,
    /// The engine model's CNF on a CDCL SAT solver ([`pencilbox_core::encode`]).
    Sat,
}

/// The cell `d` steps from `c` in direction `(dr, dc)`.
fn at(shape: Shape, c: CellId, (dr, dc): (isize, isize), d: usize) -> Option<CellId> {
    shape.step(c, (dr * d as isize, dc * d as isize))
}

impl Ripple {
    /// The board.
    pub fn board(&self) -> &Board {
        &self.0
    }
    /// The engine model with `rules`, and the cell variables; `None` for regions over 64 cells.
    pub fn model(&self, rules: DistinctRules) -> Option<(EngineSearch<SmallestDomain>, Vec<VarId>)> {
        let RegionModel {
            mut engine,
            cells,
            mut distinct,
        } = RegionModel::new(&self.0)?;
        let (shape, regions) = (self.0.shape(), self.0.regions());
        for c in shape.all() {
            // Values above c's region size cannot occur at c, so only d ≤ that size matters.
            let size = regions.size_of(c);
            for step in [(0, 1), (1, 0)] {
                for d in 1..=size {
                    if let Some(o) = at(shape, c, step, d) {
                        let top = size.min(regions.size_of(o)) as u32;
                        distinct.not_equal_on(cells[c.index()], cells[o.index()], Domain::range(d as u32, top));
                    }
                }
            }
        }
        distinct.post(&mut engine, rules);
        let search = EngineSearch::new(engine, SmallestDomain::new()).with_probe(Probe::pairs());
        Some((search, cells))
    }
}

/// Ripple Effect's rules for `explain`, simplest first (core's region rules: a placed number
/// leaves its region and the cells closer than its value in its row and column).
pub const RULES: [pencilbox_core::human::RuleInfo; 10] = pencilbox_core::human::region::rules(
    "a placed number N leaves its region and the cells at most N away in its row and column",
    "a placed number N leaves its region and the cells at most N away in its row and column, and a cell is left with one number",
);

impl Puzzle for Ripple {
    const NAME: &'static str = "ripple";
    const SUMMARY: &'static str =
        "Ripple Effect: regions hold 1..size; equal numbers N in a row or column have N cells between them";
    type Solution = Grid<u32>;
    type Algorithm = Algorithm;
    const ALGORITHMS: &'static [(Algorithm, AlgorithmInfo)] = &[
        (
            Algorithm::Fast,
            AlgorithmInfo {
                name: "fast",
                summary: "engine model: region permutations, distance rule, singles, pointing, subsets, probing",
            },
        ),
        (
            Algorithm::Sat,
            AlgorithmInfo {
                name: "sat",
                summary: "the engine model as CNF on a CDCL SAT solver; counts with a blocking clause per solution",
            },
        ),
    ];
    const ANSWER_EXTENSION: Option<&'static str> = Some("ans");
    const SETTINGS: &'static [pencilbox_core::puzzle::SettingInfo] = pencilbox_core::rules::ENGINE_SETTINGS;
    const RULE_TABLE: Option<&'static pencilbox_core::rules::RuleTable> = Some(&pencilbox_core::rules::REGION_TABLE);
    // Random layouts rarely admit a filling beyond 8×8: 9×9 and 10×10 take ms to a minute.
    const GENERATOR: Option<GeneratorInfo> = Some(GeneratorInfo {
        difficulties: &[],
        settings: &[],
        max_cells: 100,
        default_size: (8, 8),
    });
    pencilbox_core::region_family_methods!(FAMILY, board, Ripple);
    /// Measured peaks per cell (docs/cli.md, "Memory"): the engine model 1.2–1.35 KB, the SAT
    /// formula 6.4–7.3 KB.
    fn memory_estimate(&self, algorithm: Option<&str>) -> u64 {
        let (m, n) = self.dimensions();
        match algorithm {
            Some("sat") => pencilbox_core::puzzle::estimate(m, n, 8 << 10, 0),
            _ => pencilbox_core::puzzle::estimate(m, n, 1400, 0),
        }
    }

    fn search(
        &self,
        alg: Option<Algorithm>,
        opts: &RunOptions,
        lim: &Limits,
        keep: usize,
    ) -> Result<Found<Grid<u32>>, PuzzleError> {
        let on = pencilbox_core::rules::REGION_TABLE.of(opts)?;
        let sat = alg == Some(Algorithm::Sat);
        // SAT needs the defining rule only; the engine runs the rules asked for (naked and
        // hidden subsets up to triples, as `DistinctRules::ALL`).
        let rules = [on.distinct(3), DistinctRules::NAKED_SINGLES][usize::from(sat)];
        let (mut s, cells) = self.model(rules).ok_or_else(|| PuzzleError::unsupported(TOO_BIG))?;
        if sat {
            return pencilbox_core::sat::sat_search(&mut s.engine, pencilbox_core::sat::unnamed, lim, keep, |e| {
                decode(&self.0, e, &cells)
            });
        }
        s.probe = on.has("probe").then(Probe::pairs);
        Ok(engine_search(&mut s, lim, keep, |e| decode(&self.0, e, &cells)))
    }
    fn verify(&self, s: &Grid<u32>) -> VerifyReport {
        let shape = self.0.shape();
        let reach = shape.height.max(shape.width);
        regions::verify(&self.0, s, |check| {
            let (c, v) = (check.cell, check.value);
            for step in [(0, 1), (1, 0)] {
                for d in 1..=(v as usize).min(reach) {
                    match at(shape, c, step, d) {
                        Some(o) if s[o] == v => {
                            let between = match d - 1 {
                                0 => "no cell".to_string(),
                                1 => "1 cell".to_string(),
                                n => format!("{n} cells"),
                            };
                            let name = shape.name(o);
                            check.fail(
                                "ripple",
                                format!(
                                    "{name} also holds {v} with {between} between them; two {v}s need at least {v}"
                                ),
                            )
                        }
                        _ => {}
                    }
                }
            }
        })
    }
    fn explain(
        &self,
        opts: &pencilbox_core::human::ExplainOptions,
    ) -> Option<Result<pencilbox_core::human::Explanation, PuzzleError>> {
        let Some((mut search, _)) = self.model(DistinctRules::EXPLAIN) else {
            return Some(Err(PuzzleError::unsupported(TOO_BIG)));
        };
        let vocab = pencilbox_core::human::RegionVocabulary {
            shape: self.0.shape(),
            rules: &RULES,
            meets: pencilbox_core::human::WITHIN_N,
        };
        Some(Ok(pencilbox_core::human::explain_engine(
            &mut search.engine,
            &vocab,
            opts,
        )))
    }
    fn generate(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
        generate(req.height, req.width, req.seed, &req.limits)
    }
    /// The setter's tools: the `fast` model with one place per cell; hints added or removed.
    fn fact_model(&self, _: &RunOptions) -> Option<Result<Setup, PuzzleError>> {
        let model = self
            .model(DistinctRules::ALL)
            .ok_or_else(|| PuzzleError::unsupported(TOO_BIG));
        let vocabulary = pencilbox_core::human::RegionVocabulary {
            shape: self.0.shape(),
            rules: &RULES,
            meets: pencilbox_core::human::WITHIN_N,
        };
        Some(model.map(|(search, cells)| {
            regions::setter::fact_model(&self.0, search, &cells).with_vocabulary(Box::new(vocabulary))
        }))
    }
    fn separating_clues(&self, keep: &Grid<u32>, drop: &Grid<u32>) -> Option<Vec<Clue<Self>>> {
        Some(regions::setter::hints_added(&self.0, keep, drop, Ripple))
    }
    fn removable_clues(&self) -> Option<Vec<Clue<Self>>> {
        Some(regions::setter::hints_removed(&self.0, Ripple))
    }
}

/// Region sizes the generator draws (repeats weight them towards 3 and 4).
const SIZES: [usize; 10] = [1, 2, 2, 3, 3, 3, 4, 4, 4, 5];

/// A puzzle with exactly one solution ([`unique_puzzle`]: a random layout, a random filling,
/// hints thinned while the puzzle stays unique).
pub fn generate(height: usize, width: usize, seed: u64, limits: &Limits) -> Result<Generated, PuzzleError> {
    let model = |b: &Board| Ripple(b.clone()).model(DistinctRules::ALL);
    let (b, full) = unique_puzzle(Shape::new(height, width), &SIZES, seed, limits, &model)
        .ok_or_else(|| pencilbox_core::generate::stopped(limits))?;
    let (text, json, url) = (FAMILY.to_text(&b), FAMILY.to_json(&b), Some(FAMILY.to_url(&b)));
    Ok(Generated {
        text,
        json,
        url,
        answer: format!("{}\n", full.to_text()),
        seed,
        unique: true,
    })
}
