//! Solving and counting on the core driver, for every algorithm, behind one API.
//!
//! Every run first applies the instant checks of [`crate::checks`] (the paper runs Theorems 1
//! and 2 before Algorithm 3, Section V), except `fast`'s first phase ([`crate::quick`]), which
//! needs none and runs them only when it found no solution, for the reason; then the chosen algorithm's [`Backtrack`](pencilbox_core::search::Backtrack) state is run
//! by [`pencilbox_core::search::run`], so node counts, limits, deadlines and cancellation are
//! uniform across algorithms. Every returned solution has passed the verifier in debug builds.
//!
//! ```
//! use pencilbox_pathpuzzle::{solve::{count, solve, Algorithm}, PathPuzzle};
//! use pencilbox_core::Limits;
//! let p = PathPuzzle::parse("3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n").unwrap();
//! let o = solve(&p, &Algorithm::default(), &Limits::default());
//! assert_eq!(pencilbox_pathpuzzle::configuration_rows(&o.solutions[0]), vec!["rrd", "u0d", "0ul"]);
//! let c = count(&p, &Algorithm::Paper, None, &Limits::default());
//! assert_eq!((c.count, c.complete()), (1, true));
//! ```

use crate::checks::no_solution_reason;
use crate::extend::{ExtendSearch, Pruning, RULES};
use crate::fast::{link_search_limited, Branching, LinkModel, LinkSearch, Rules};
use crate::model::{Configuration, PathPuzzle};
use crate::paper::PaperSearch;
use crate::quick::{self, Walked};
use crate::verify::is_solution;
use pencilbox_core::puzzle::{add_rule_counts, rule_counts, RuleCount};
use pencilbox_core::search::{race, run, Flow, Limits, SearchResult, Stats, StopReason};

/// The racers of `fast`'s `auto` branching, in order: (branching, seed of its random
/// tie-breaking, the round it joins). Line and link branching start at once; the randomised
/// copies join after 4 and 8 slices each (about 80 and 160 ms on a 10×10 grid), so instances
/// settled sooner never pay for them, while long searches get four more chances to be lucky
/// (measured with `examples/planted` on 12×12 to 16×16 and `examples/measure` on the sets).
const RACERS: [(Branching, Option<u64>, u64); 6] = [
    (Branching::Lines, None, 0),
    (Branching::Links, None, 0),
    (Branching::Lines, Some(1), 4),
    (Branching::Links, Some(2), 4),
    (Branching::Lines, Some(3), 8),
    (Branching::Links, Some(4), 8),
];

/// The memory of one link model of `fast` (one racer), per cell: measured peaks of one
/// racer 0.98–1.05 KB per cell from 400×400 to 1000×1000 (plus the base,
/// [`pencilbox_core::puzzle::BASE_BYTES`]).
pub const MODEL_BYTES_PER_CELL: u64 = 1100;
/// `extend`'s tables per cell (measured: about 90 bytes per cell at 800×800).
pub const EXTEND_BYTES_PER_CELL: u64 = 128;
/// `paper`'s tables per cell (measured: under 30 bytes per cell at 800×800).
pub const PAPER_BYTES_PER_CELL: u64 = 64;
/// `sat`'s model, formula and solver per cell (measured: 5–6 KB per cell at 200×200 and
/// 300×300 after 30 s, 10.6 KB per cell at 100×100 with the base).
pub const SAT_BYTES_PER_CELL: u64 = 10 * 1024;

/// A solving algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Algorithm 3 of the paper, as published.
    Paper,
    /// Algorithm 3's search (extension from door A) with the given pruning rules
    /// ([`crate::extend`]).
    Extend(Pruning),
    /// The link model on the shared engine ([`crate::fast`]), the default.
    Fast(Rules),
    /// The link model's defining rules (`degree`, `lines`, `chains`) as CNF on a CDCL SAT
    /// solver ([`pencilbox_core::encode`]; no cycles by ranks growing along the path).
    Sat,
}

impl Default for Algorithm {
    fn default() -> Self {
        Algorithm::Fast(Rules::DEFAULT)
    }
}

impl Algorithm {
    /// The algorithm's name as given to `--algorithm`.
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::Paper => "paper",
            Algorithm::Extend(_) => "extend",
            Algorithm::Fast(_) => "fast",
            Algorithm::Sat => "sat",
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The first solutions found (at most the number asked to keep), each verified.
    pub solutions: Vec<Configuration>,
    /// How many solutions were found (exact when [`Outcome::complete`]).
    pub count: u64,
    /// Why the search ended.
    pub stop: StopReason,
    /// Driver counters.
    pub stats: Stats,
    /// The instant check that proved the puzzle unsolvable, if one did (no search then ran).
    pub reason: Option<String>,
    /// `(rule, count)`: nodes cut by each pruning rule (`extend`), or conflicts found by each
    /// rule (`fast`: refuted branches and probed values, summed over the racers).
    pub prunes: Vec<(&'static str, u64)>,
    /// Searches run: more than 1 when `fast`'s `auto` branching raced several (the counters
    /// add them all up), 1 otherwise, 0 when an instant check answered.
    pub searches: u32,
    /// `fast`: the branching whose search gave the answer (the winner of `auto`'s race).
    pub answered_by: Option<Branching>,
    /// `fast`: the seed of the winner's random tie-breaking (`None`: deterministic choices).
    pub answered_seed: Option<u64>,
    /// `fast`: the engine's per-rule counters summed over the racers, when the limits ask
    /// for counters ([`Limits::counters`]).
    pub rules: Vec<RuleCount>,
    /// `fast`: the nodes after which the search started again with `pairs` on
    /// ([`Rules::pairs_after`]); `None` when it did not.
    pub pairs_after: Option<u64>,
}

impl Outcome {
    /// True when the whole search tree was explored, so `count` is exact.
    pub fn complete(&self) -> bool {
        self.stop == StopReason::Exhausted
    }
}

/// Runs `alg` on `p` under `limits` (whose `max_solutions` is respected), keeping the first
/// `keep` solutions.
pub fn search(p: &PathPuzzle, alg: &Algorithm, limits: &Limits, keep: usize) -> Outcome {
    let refused = |reason: String| Outcome {
        solutions: vec![],
        count: 0,
        stop: StopReason::Exhausted,
        stats: Stats::default(),
        reason: Some(reason),
        prunes: vec![],
        rules: vec![],
        searches: 0,
        answered_by: None,
        answered_seed: None,
        pairs_after: None,
    };
    // `fast`'s walk needs no checks before it (see [`quick::walk`]): they run after it, when
    // it found nothing, to give the reason.
    let walks = matches!(alg, Algorithm::Fast(rules) if rules.quick > 0);
    if !walks {
        if let Some(reason) = no_solution_reason(p) {
            return refused(reason);
        }
    }
    // Solutions are kept as they come (no allocation up front, so any `keep` is safe).
    let mut kept: Vec<Configuration> = Vec::new();
    let mut searches = 1;
    let mut answered_by = None;
    let mut answered_seed = None;
    let mut pairs_after = None;
    let mut counts = Vec::new();
    let (result, prunes) = match alg {
        Algorithm::Paper => {
            let mut s = PaperSearch::new(p);
            let r = s.run(limits, |s| {
                if kept.len() < keep {
                    kept.push(s.configuration());
                }
                Flow::Continue
            });
            (r, vec![])
        }
        Algorithm::Extend(rules) => {
            // The set-up and every node cost time in proportion to the grid: the search reads
            // the clock itself.
            let mut s = ExtendSearch::new_limited(p, *rules, limits);
            let r = run(&mut s, limits, |s| {
                if kept.len() < keep {
                    kept.push(s.configuration());
                }
                Flow::Continue
            });
            (r, RULES.iter().copied().zip(s.prunes()).collect())
        }
        Algorithm::Fast(rules) => {
            // Algorithm 3's walk with cheap cuts first ([`crate::quick`]); the engine only when
            // the walk runs out of budget.
            let walked = match rules.quick {
                0 => Walked::Skipped,
                budget => quick::walk(p, limits, budget, keep),
            };
            // Whenever the walk has not found a solution, the checks first.
            let found =
                matches!(&walked, Walked::Done { result, .. } if result.solutions > 0 || result.stop.is_interrupted());
            if walks && !found {
                if let Some(reason) = no_solution_reason(p) {
                    return refused(reason);
                }
            }
            match walked {
                Walked::Done {
                    result,
                    solutions,
                    cuts,
                } => {
                    kept = solutions;
                    (result, vec![("walk", cuts)])
                }
                other => {
                    let (walked_stats, walked) = match other {
                        Walked::OverBudget { stats, solutions } => (stats, solutions),
                        _ => (Stats::default(), Vec::new()),
                    };
                    // The walk's nodes count against the caller's node limit.
                    let mut limits = limits.clone();
                    limits.node_limit = limits.node_limit.map(|n| n.saturating_sub(walked_stats.nodes));
                    let raced = race_switching(p, rules, &limits, keep);
                    // The engine counts from scratch; the first witnesses stay the walk's, so
                    // they do not depend on whether a lower limit let the walk finish.
                    kept = walked;
                    for s in raced.kept {
                        if kept.len() < keep && !kept.contains(&s) {
                            kept.push(s);
                        }
                    }
                    searches = raced.searches;
                    answered_by = Some(raced.answered_by);
                    answered_seed = raced.answered_seed;
                    pairs_after = raced.pairs_after;
                    counts = raced.rules;
                    let mut result = raced.result;
                    // The counters add up both searches (the depth is the deeper one's).
                    result.stats.nodes += walked_stats.nodes;
                    result.stats.failures += walked_stats.failures;
                    result.stats.elapsed_us += walked_stats.elapsed_us;
                    result.stats.max_depth = result.stats.max_depth.max(walked_stats.max_depth);
                    // An engine stopped early still counts what the walk found.
                    result.solutions = result.solutions.max(kept.len() as u64);
                    (result, raced.prunes)
                }
            }
        }
        Algorithm::Sat => {
            let (mut e, model) = LinkModel::post_limited(p, &Rules::NONE, limits);
            let found = pencilbox_core::sat::sat_search(&mut e, pencilbox_core::sat::unnamed, limits, keep, |e| {
                model.configuration(e)
            });
            match found {
                Ok(f) => {
                    kept = f.solutions.clone();
                    (pencilbox_core::sat::search_result(&f), vec![])
                }
                // Every rule of the link model has an encoding: not reached.
                Err(_) => (
                    SearchResult {
                        solutions: 0,
                        stop: StopReason::Cancelled,
                        stats: Stats::default(),
                    },
                    vec![],
                ),
            }
        }
    };
    let solutions = kept;
    debug_assert!(
        solutions.iter().all(|a| is_solution(p, a)),
        "a solver returned a non-solution"
    );
    Outcome {
        solutions,
        count: result.solutions,
        stop: result.stop,
        stats: result.stats,
        reason: None,
        prunes,
        rules: counts,
        searches,
        answered_by,
        answered_seed,
        pairs_after,
    }
}

/// What `fast`'s race of engine searches gave.
struct Raced {
    result: SearchResult,
    prunes: Vec<(&'static str, u64)>,
    rules: Vec<RuleCount>,
    kept: Vec<Configuration>,
    searches: u32,
    answered_by: Branching,
    answered_seed: Option<u64>,
    /// The nodes of a first race without `pairs`, when the answer came from a second one with
    /// it ([`race_switching`]).
    pairs_after: Option<u64>,
}

/// `fast` on the engine: the link model searched by the branchings of `rules`, raced.
fn race_engine(p: &PathPuzzle, rules: &Rules, limits: &Limits, keep: usize) -> Raced {
    // (branching, seed for random tie-breaking, the round it joins the race)
    let strategies: &[(Branching, Option<u64>, u64)] = match rules.branch {
        Branching::Auto => &RACERS[..usize::from(rules.racers).clamp(1, RACERS.len())],
        Branching::Lines => &RACERS[0..1],
        Branching::Links => &RACERS[1..2],
    };
    // Each racer holds a model of its own: only as many race as the memory budget has room
    // for (the first always runs; the estimate checked before the search counted it).
    let strategies = &strategies[..affordable_racers(p, limits).min(strategies.len())];
    let starts: Vec<u64> = strategies.iter().map(|r| r.2).collect();
    // Solutions are kept per racer; the winner's are reported.
    let mut per_racer: Vec<Vec<Configuration>> = vec![Vec::new(); strategies.len()];
    let (race, states) = race(
        &starts,
        |k| {
            let (branch, seed, _) = strategies[k];
            // The engine polls the deadline and cancellation inside long propagations,
            // and already while the model is posted.
            link_search_limited(p, &Rules { branch, ..*rules }, seed, limits)
        },
        limits,
        rules.slice,
        |s, k| {
            if per_racer[k].len() < keep {
                per_racer[k].push(s.brancher.model().configuration(&s.engine));
            }
            Flow::Continue
        },
    );
    let prunes = rule_totals(&states);
    let mut rules: Vec<RuleCount> = Vec::new();
    for s in &states {
        add_rule_counts(&mut rules, rule_counts(&s.engine, limits));
    }
    let kept = std::mem::take(&mut per_racer[race.winner]);
    let searches = states.len() as u32;
    drop_models(states, p.shape().cells());
    Raced {
        result: race.result,
        prunes,
        rules,
        kept,
        searches,
        answered_by: strategies[race.winner].0,
        answered_seed: strategies[race.winner].1,
        pairs_after: None,
    }
}

/// `race_engine`, and when it runs past [`Rules::pairs_after`] nodes without `pairs` on a grid
/// small enough ([`Rules::restarts_with_pairs`]), the race again from the start with `pairs`
/// on. The first race's solutions are dropped (the
/// second counts from scratch, so counts stay exact) and its counters added to the second's.
/// A first race that found more than [`ENUMERATION`] solutions is an enumeration, where
/// `pairs` only adds its sweeps: it runs again plain, without the budget.
fn race_switching(p: &PathPuzzle, rules: &Rules, limits: &Limits, keep: usize) -> Raced {
    let after = rules.pairs_after;
    if rules.restarts_with_pairs(p.shape().cells()) != Some(true) || limits.node_limit.is_some_and(|n| n <= after) {
        return race_engine(p, rules, limits, keep);
    }
    let first = race_engine(
        p,
        rules,
        &Limits {
            node_limit: Some(after),
            ..limits.clone()
        },
        keep,
    );
    if first.result.stop != StopReason::NodeLimit {
        return first;
    }
    let mut rest = limits.clone();
    rest.node_limit = rest.node_limit.map(|n| n.saturating_sub(first.result.stats.nodes));
    let mut second = if first.result.solutions > ENUMERATION {
        race_engine(
            p,
            &Rules {
                pairs_after: 0,
                ..*rules
            },
            &rest,
            keep,
        )
    } else {
        let mut r = race_engine(p, &Rules { pairs: true, ..*rules }, &rest, keep);
        r.pairs_after = Some(first.result.stats.nodes);
        r
    };
    let s = &mut second.result.stats;
    s.nodes += first.result.stats.nodes;
    s.failures += first.result.stats.failures;
    s.elapsed_us += first.result.stats.elapsed_us;
    s.max_depth = s.max_depth.max(first.result.stats.max_depth);
    second.searches += first.searches;
    for (rule, n) in first.prunes {
        match second.prunes.iter_mut().find(|(r, _)| *r == rule) {
            Some((_, m)) => *m += n,
            None => second.prunes.push((rule, n)),
        }
    }
    add_rule_counts(&mut second.rules, first.rules);
    second
}

/// How many solutions make a first race an enumeration, which never restarts with `pairs`
/// (as learning's `auto` never switches on one, [`pencilbox_core::learning`]).
const ENUMERATION: u64 = 8;

/// How many link models fit in the memory budget of `limits` (at least one).
fn affordable_racers(p: &PathPuzzle, limits: &Limits) -> usize {
    let Some(budget) = limits.memory else {
        return usize::MAX;
    };
    let base = pencilbox_core::puzzle::estimate(p.height(), p.width(), 0, 0);
    let model = pencilbox_core::puzzle::bytes_for_cells(p.height(), p.width(), MODEL_BYTES_PER_CELL).max(1);
    (budget.saturating_sub(base) / model).max(1) as usize
}

/// Models of at least this many cells are freed on a thread of their own.
const DROP_APART_CELLS: usize = 1 << 18;

/// Frees the searches' models: a large one on a detached thread, because freeing a
/// million-cell model (about 1 KB per cell) takes tens of milliseconds that a deadline
/// should not pay (a CLI run exits without waiting for it).
fn drop_models(states: Vec<LinkSearch>, cells: usize) {
    if cells >= DROP_APART_CELLS {
        // A failed spawn drops the closure, and the models with it, here.
        let _ = std::thread::Builder::new().spawn(move || drop(states));
    }
}

/// Conflicts found by each rule of `fast`, summed over the racers, in posting order (the
/// engine's [`rule_stats`](pencilbox_core::engine::Engine::rule_stats); `probe` counts the
/// probed values it refuted).
fn rule_totals(states: &[LinkSearch]) -> Vec<(&'static str, u64)> {
    let mut out: Vec<(&'static str, u64)> = Vec::new();
    for s in states {
        for (name, stats) in s.engine.rule_stats() {
            match out.iter_mut().find(|(n, _)| *n == name) {
                Some((_, n)) => *n += stats.conflicts,
                None => out.push((name, stats.conflicts)),
            }
        }
    }
    out
}

/// Finds one solution (the first in the search order).
pub fn solve(p: &PathPuzzle, alg: &Algorithm, limits: &Limits) -> Outcome {
    search(p, alg, &limits.clone().with_max_solutions(Some(1)), 1)
}

/// Counts solutions up to `limit` (`None` = all), keeping two as witnesses.
pub fn count(p: &PathPuzzle, alg: &Algorithm, limit: Option<u64>, limits: &Limits) -> Outcome {
    search(p, alg, &limits.clone().with_max_solutions(limit), 2)
}

/// Every solution (no limit; meant for small puzzles and tests), in search order.
pub fn all_solutions(p: &PathPuzzle, alg: &Algorithm) -> Vec<Configuration> {
    search(p, alg, &Limits::all(), usize::MAX).solutions
}

/// Is the puzzle uniquely solvable? `None` when the limits stopped the count first.
pub fn is_unique(p: &PathPuzzle, limits: &Limits) -> Option<bool> {
    let o = count(p, &Algorithm::default(), Some(2), limits);
    match o.stop {
        StopReason::Exhausted | StopReason::SolutionLimit => Some(o.count == 1),
        _ => None,
    }
}
