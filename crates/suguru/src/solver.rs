//! Solving and counting with a named algorithm, on the core driver, behind one small API.
//!
//! Every entry point runs the instant checks of [`crate::theorems::precheck`] (Theorem 1,
//! clashing hints); an instance they refuse is answered "unsolvable" with the reason and no
//! search. `fast` first runs its presolve ([`crate::fast::presolve`]: singles, hidden singles
//! and pointing on bitmasks, which refute everything the checks find) and runs the checks only
//! when the presolve refuted the instance, for the reason; `paper` and the others run them
//! before searching. The default algorithm is `linear` for one-row or one-column grids and `fast`
//! otherwise; on a region of more than 64 cells (values beyond the engine's domains) `fast`
//! runs [`crate::large`]'s row-major search with per-region value bitsets instead.

use crate::fast::{FastSearch, Rules};
use crate::large::LargeSearch;
use crate::model::{Solution, Suguru};
use crate::paper::PaperSearch;
use crate::{linear, theorems};
use num_bigint::BigUint;
use pencilbox_core::constraints::DistinctRules;
use pencilbox_core::puzzle::{rule_counts, RuleCount};
use pencilbox_core::regions::presolve::Presolved;
use pencilbox_core::search::{run, Backtrack, Flow, Limits, SearchResult, Stats, StopReason};
use pencilbox_core::time::Instant;
use pencilbox_core::{Domain, Grid, PuzzleError, Status};

/// The algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// The engine model: propagation + probing + smallest-domain branching (default for 2-D
    /// grids; [`crate::fast`]).
    Fast,
    /// Algorithm 2 as published.
    Paper,
    /// Theorem 3 / Algorithms 3–5 (and the Fig. 5 hintless variant) for `1×n` and `m×1`.
    Linear,
    /// The engine model's CNF on a CDCL SAT solver ([`pencilbox_core::encode`]).
    Sat,
}

/// Every algorithm with its name and one-line summary, the default first: the one table the
/// plug-in ([`crate::KIND`]), `--algorithm` and `pencilbox list` read.
pub static ALGORITHMS: [(Algorithm, pencilbox_core::AlgorithmInfo); 4] = [
    (
        Algorithm::Fast,
        pencilbox_core::AlgorithmInfo {
            name: "fast",
            summary: "model on the shared engine (singles, hidden singles, pointing, naked pairs, failed-value probing) + smallest-domain branching; `linear` on 1×n / m×1",
        },
    ),
    (
        Algorithm::Paper,
        pencilbox_core::AlgorithmInfo {
            name: "paper",
            summary: "Algorithm 2 of Butrahandisya et al. as published: row-major backtracking with χ sets, CV counters and MUSTBACKTRACK",
        },
    ),
    (
        Algorithm::Linear,
        pencilbox_core::AlgorithmInfo {
            name: "linear",
            summary: "Theorem 3 / Algorithms 3-5 (and the hintless Fig. 5 algorithm): O(n) for 1×n and m×1 grids; exact DP count",
        },
    ),
    (
        Algorithm::Sat,
        pencilbox_core::AlgorithmInfo {
            name: "sat",
            summary: "the engine model as CNF (the playground's Appendix A) on a CDCL SAT solver; counts with the MIP model's cut (a blocking clause per solution)",
        },
    ),
];

impl Algorithm {
    /// Its name (from [`ALGORITHMS`]).
    pub fn name(self) -> &'static str {
        ALGORITHMS
            .iter()
            .find(|(a, _)| *a == self)
            .map_or("fast", |(_, info)| info.name)
    }
}

/// The result of [`solve`].
#[derive(Clone, Debug)]
pub struct Solved {
    /// Solved, unsolvable or stopped by a limit.
    pub status: Status,
    /// The solution when solved.
    pub solution: Option<Solution>,
    /// Why there is no solution, when a check said so before search.
    pub reason: Option<String>,
    /// The algorithm that actually ran.
    pub algorithm: Algorithm,
    /// Search counters.
    pub stats: Stats,
    /// Why the search ended.
    pub stop: StopReason,
    /// The engine's per-rule counters (`fast`, when the limits ask for counters).
    pub rules: Vec<RuleCount>,
}

/// The result of [`count`].
#[derive(Clone, Debug)]
pub struct Counted {
    /// Solutions found (exact when `complete`).
    pub count: BigUint,
    /// False when the limit or a deadline stopped the count.
    pub complete: bool,
    /// True when a deadline, node limit or cancellation stopped it.
    pub interrupted: bool,
    /// Up to two different solutions.
    pub witness: Vec<Solution>,
    /// Why there is no solution, when known before search.
    pub reason: Option<String>,
    /// The algorithm that actually ran.
    pub algorithm: Algorithm,
    /// Search counters.
    pub stats: Stats,
    /// Why the search ended.
    pub stop: StopReason,
    /// The engine's per-rule counters (`fast`, when the limits ask for counters).
    pub rules: Vec<RuleCount>,
}

/// The algorithm that runs for `requested` on this instance.
pub fn resolve(p: &Suguru, requested: Option<Algorithm>) -> Result<Algorithm, PuzzleError> {
    match requested {
        None if linear::applies(p) => Ok(Algorithm::Linear),
        None => Ok(Algorithm::Fast),
        Some(Algorithm::Linear) if !linear::applies(p) => Err(PuzzleError::unsupported(format!(
            "the `linear` algorithm applies only to 1×n and m×1 grids; this one is {}×{}",
            p.shape().height,
            p.shape().width
        ))),
        Some(Algorithm::Sat) if p.max_region_size() > Domain::MAX as usize => Err(PuzzleError::unsupported(format!(
            "the `sat` algorithm encodes regions of up to {} cells; this puzzle has one of {}",
            Domain::MAX,
            p.max_region_size()
        ))),
        Some(a) => Ok(a),
    }
}

/// True when `alg` starts with [`crate::fast::presolve`] on this instance (`fast` with every
/// region within a domain). The presolve refutes every obstacle [`theorems::precheck`] finds
/// (clashing hints, Theorem 1's crowded window) in time linear in the grid — a property test
/// checks it — so `fast` runs the checks only afterwards, to say why an instance it refuted
/// has no solution.
fn presolves(p: &Suguru, alg: Algorithm) -> bool {
    alg == Algorithm::Fast && p.max_region_size() <= Domain::MAX as usize
}

/// The instant checks' reason to refuse `p`, asked before the search (`searched: None`) or
/// after a search that ended with `searched: Some((solutions found, interrupted))`: they run
/// before for every algorithm but a presolving `fast`, and after only for that one, when it
/// found nothing and was not interrupted (see [`presolves`]).
fn refusal(p: &Suguru, alg: Algorithm, searched: Option<(u64, bool)>) -> Option<String> {
    let ask = match searched {
        None => !presolves(p, alg),
        Some((found, interrupted)) => presolves(p, alg) && found == 0 && !interrupted,
    };
    ask.then(|| theorems::precheck(p)).flatten()
}

/// Runs a search state, keeping the first `keep` solutions.
fn search<S: Backtrack>(
    state: &mut S,
    limits: &Limits,
    max: Option<u64>,
    keep: usize,
    decode: impl Fn(&S) -> Solution,
) -> (SearchResult, Vec<Solution>) {
    let mut found = Vec::new();
    let lim = limits.clone().with_max_solutions(max);
    let r = run(state, &lim, |s| {
        if found.len() < keep {
            found.push(decode(s));
        }
        Flow::Continue
    });
    (r, found)
}

/// A search's result, its solutions and the engine's per-rule counters.
type Ran = (SearchResult, Vec<Solution>, Vec<RuleCount>);

fn run_algorithm(p: &Suguru, alg: Algorithm, limits: &Limits, max: Option<u64>, keep: usize, rules: Rules) -> Ran {
    let (r, sols) = match alg {
        Algorithm::Paper => search(&mut PaperSearch::new(p), limits, max, keep, PaperSearch::grid),
        Algorithm::Fast => {
            let started = Instant::now();
            // The root deductions on bitmasks first: most hand-made puzzles end here, before
            // any engine is built ([`crate::fast::presolve`]). A node limit of 0 asks for no
            // node at all, which only the driver reports.
            let pre = (limits.node_limit != Some(0))
                .then(|| crate::fast::presolve_with(p, rules))
                .flatten();
            let decided = |solutions: Vec<Solution>| {
                let stats = Stats {
                    nodes: 1,
                    failures: u64::from(solutions.is_empty()),
                    max_depth: 0,
                    elapsed_us: started.elapsed().as_micros() as u64,
                };
                let r = SearchResult {
                    solutions: solutions.len() as u64,
                    stop: StopReason::Exhausted,
                    stats,
                };
                (r, solutions.into_iter().take(keep).collect())
            };
            match pre {
                Some(Presolved::Conflict) => decided(Vec::new()),
                Some(Presolved::Fixed(g)) => decided(vec![g]),
                open => match FastSearch::from_domains_with(
                    p,
                    match &open {
                        Some(Presolved::Open(d)) => Some(d),
                        _ => None,
                    },
                    rules,
                ) {
                    Ok(mut s) => {
                        // The engine polls the deadline inside propagation too.
                        s.engine_mut().set_limits(limits);
                        let (r, sols) = search(&mut s, limits, max, keep, FastSearch::grid);
                        return (r, sols, rule_counts(s.engine(), limits));
                    }
                    Err(_) => search(&mut LargeSearch::new(p), limits, max, keep, LargeSearch::grid),
                },
            }
        }
        Algorithm::Sat => sat(p, limits, max, keep),
        Algorithm::Linear => {
            let started = Instant::now();
            let sol = linear::solve(p);
            let stats = Stats {
                nodes: 0,
                failures: 0,
                max_depth: 0,
                elapsed_us: started.elapsed().as_micros() as u64,
            };
            let r = SearchResult {
                solutions: u64::from(sol.is_some()),
                stop: StopReason::Exhausted,
                stats,
            };
            (r, sol.into_iter().collect())
        }
    };
    (r, sols, Vec::new())
}

/// `sat`: the engine model (regions and touching cells, no deductions needed) on the SAT
/// solver.
fn sat(p: &Suguru, limits: &Limits, max: Option<u64>, keep: usize) -> (SearchResult, Vec<Solution>) {
    let lim = limits.clone().with_max_solutions(max);
    let found = crate::fast::model_with(p, DistinctRules::NAKED_SINGLES)
        .map_err(|e| PuzzleError::unsupported(format!("{e:?}")))
        .and_then(|mut engine| {
            let shape = p.shape();
            pencilbox_core::sat::sat_search(&mut engine, pencilbox_core::sat::unnamed, &lim, keep, |e| {
                Grid::from_vec(shape, e.domains().iter().map(|d| d.value().unwrap_or(0)).collect())
                    .expect("one variable per cell")
            })
        });
    match found {
        Ok(f) => (pencilbox_core::sat::search_result(&f), f.solutions),
        // `resolve` refuses the only model that cannot be built (a region over 64 cells).
        Err(_) => (
            SearchResult {
                solutions: 0,
                stop: StopReason::Cancelled,
                stats: Stats::default(),
            },
            Vec::new(),
        ),
    }
}

/// Solves `p` with an algorithm (`None` = the default for its shape).
///
/// ```
/// use pencilbox_suguru::{parse, solver::solve};
/// let p = parse("3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n").unwrap();
/// let r = solve(&p, None, &Default::default()).unwrap();
/// assert!(pencilbox_suguru::verify(&p, r.solution.as_ref().unwrap()).is_valid());
/// ```
pub fn solve(p: &Suguru, alg: Option<Algorithm>, limits: &Limits) -> Result<Solved, PuzzleError> {
    solve_with(p, alg, limits, Rules::ALL)
}

/// [`solve`] with `fast`'s rules chosen (`--set rules=…`; other algorithms ignore them).
pub fn solve_with(p: &Suguru, alg: Option<Algorithm>, limits: &Limits, rules: Rules) -> Result<Solved, PuzzleError> {
    let alg = resolve(p, alg)?;
    let refused = |reason| Solved {
        status: Status::Unsolvable,
        solution: None,
        reason: Some(reason),
        algorithm: alg,
        stats: Stats::default(),
        stop: StopReason::Exhausted,
        rules: Vec::new(),
    };
    if let Some(reason) = refusal(p, alg, None) {
        return Ok(refused(reason));
    }
    let (r, mut found, counts) = run_algorithm(p, alg, limits, Some(1), 1, rules);
    // The presolve refuted it: the checks say why in the paper's words when they can.
    if let Some(reason) = refusal(p, alg, Some((found.len() as u64, r.stop.is_interrupted()))) {
        return Ok(refused(reason));
    }
    let solution = found.pop();
    let status = match (&solution, r.stop.is_interrupted()) {
        (Some(_), _) => Status::Solved,
        (None, true) => Status::Timeout,
        (None, false) => Status::Unsolvable,
    };
    if let Some(s) = &solution {
        debug_assert!(
            crate::verify(p, s).is_valid(),
            "{} returned an invalid solution",
            alg.name()
        );
    }
    Ok(Solved {
        status,
        solution,
        reason: None,
        algorithm: alg,
        stats: r.stats,
        stop: r.stop,
        rules: counts,
    })
}

/// Counts solutions up to `limit` (`None` = all), keeping two witnesses.
///
/// On `1×n` / `m×1` grids the default (`linear`) counts exactly with the DP of
/// [`linear::count_solutions`] and takes its witnesses from the `fast` search.
pub fn count(p: &Suguru, alg: Option<Algorithm>, limit: Option<u64>, limits: &Limits) -> Result<Counted, PuzzleError> {
    count_with(p, alg, limit, limits, Rules::ALL, 2)
}

/// [`count`] with `fast`'s rules chosen (`--set rules=…`; other algorithms ignore them),
/// keeping the first `keep` solutions as witnesses (at least two; `count --suggest` keeps a
/// sample).
pub fn count_with(
    p: &Suguru,
    alg: Option<Algorithm>,
    limit: Option<u64>,
    limits: &Limits,
    rules: Rules,
    keep: usize,
) -> Result<Counted, PuzzleError> {
    let keep = keep.max(2);
    let alg = resolve(p, alg)?;
    let refused = |reason| Counted {
        count: BigUint::default(),
        complete: true,
        interrupted: false,
        witness: Vec::new(),
        reason: Some(reason),
        algorithm: alg,
        stats: Stats::default(),
        stop: StopReason::Exhausted,
        rules: Vec::new(),
    };
    if let Some(reason) = refusal(p, alg, None) {
        return Ok(refused(reason));
    }
    if alg == Algorithm::Linear {
        let started = Instant::now();
        let exact = linear::count_solutions(p);
        let mut stats = Stats::default();
        let witness = if exact >= BigUint::from(2u32) {
            let (r, w, _) = run_algorithm(p, Algorithm::Fast, limits, Some(keep as u64), keep, rules);
            stats = r.stats;
            w
        } else {
            linear::solve(p).into_iter().collect()
        };
        stats.elapsed_us = started.elapsed().as_micros() as u64;
        return Ok(Counted {
            count: exact,
            complete: true,
            interrupted: false,
            witness,
            reason: None,
            algorithm: alg,
            stats,
            stop: StopReason::Exhausted,
            rules: Vec::new(),
        });
    }
    let (r, witness, counts) = run_algorithm(p, alg, limits, limit, keep, rules);
    if let Some(reason) = refusal(p, alg, Some((r.solutions, r.stop.is_interrupted()))) {
        return Ok(refused(reason));
    }
    Ok(Counted {
        count: BigUint::from(r.solutions),
        complete: r.complete(),
        interrupted: r.stop.is_interrupted(),
        witness,
        reason: None,
        algorithm: alg,
        stats: r.stats,
        stop: r.stop,
        rules: counts,
    })
}

/// True when the instance has exactly one solution (count up to 2 with `fast`).
pub fn is_unique(p: &Suguru, limits: &Limits) -> bool {
    theorems::precheck(p).is_none() && {
        let (r, _, _) = run_algorithm(p, Algorithm::Fast, limits, Some(2), 0, Rules::ALL);
        r.solutions == 1 && r.stop == StopReason::Exhausted
    }
}
