//! `--algorithm sat`: an engine model's CNF on a CDCL solver (BatSat, a pure-Rust MiniSat,
//! through rustsat), counting by blocking clauses — the MIP model's uniqueness cut: after each
//! solution, a clause that excludes exactly its values of the engine's variables.
//!
//! Constraints that registered a [`LazyCheck`](crate::encode::LazyCheck) (a path's "no cycles") are
//! checked on each model; a violated one adds its cuts (a clause that forbids the detached
//! cycle) and the solver runs again — the classic subtour elimination, usually much cheaper
//! than the static encoding that export writes.
//!
//! The deadline and the cancellation flag are checked before every solver call and, through
//! the solver's `stop` callback, during its search (BatSat polls it between conflicts). The
//! node limit bounds the solver's conflicts (learnt clauses), over all calls of one search;
//! the statistics report its decisions as nodes and its conflicts as failures.

use crate::encode::{Cnf, Encoder, VarInfo};
use crate::engine::{Engine, VarId};
use crate::error::PuzzleError;
use crate::puzzle::Found;
use crate::puzzle::Note;
use crate::search::{Limits, Stats, StopReason};
use crate::time::Instant;
use batsat::SolverInterface as _;
use rustsat::solvers::{Solve as _, SolverResult};
use rustsat::types::{Clause, TernaryVal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The solver's callbacks: stop at the deadline, when cancelled, or after the node limit's
/// number of conflicts.
#[derive(Default)]
struct Stop {
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
    conflicts: u64,
    max_conflicts: Option<u64>,
}

impl batsat::Callbacks for Stop {
    fn on_new_clause(&mut self, _: &[batsat::Lit], src: batsat::clause::Kind) {
        if src == batsat::clause::Kind::Learnt {
            self.conflicts += 1;
        }
    }
    fn stop(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.max_conflicts.is_some_and(|m| self.conflicts >= m)
    }
}

impl Stop {
    fn interrupted(&self, limits: &Limits) -> Option<StopReason> {
        limits.interrupted().or_else(|| {
            self.max_conflicts
                .is_some_and(|m| self.conflicts >= m)
                .then_some(StopReason::NodeLimit)
        })
    }
}

/// An engine model as a formula and its clauses.
#[derive(Clone, Debug)]
pub struct SatModel {
    /// The formula.
    pub encoder: Encoder,
    /// Its clauses.
    pub cnf: Cnf,
}

impl SatModel {
    /// The formula of `engine` (variables named by `info`) and its clauses.
    pub fn new(engine: &Engine, info: impl FnMut(VarId) -> VarInfo) -> Result<Self, PuzzleError> {
        let encoder = Encoder::new(engine.domains(), info)
            .allowing_lazy()
            .with_rows_of(engine)
            .map_err(|u| PuzzleError::unsupported(u.to_string()))?;
        let cnf = encoder.cnf();
        Ok(SatModel { encoder, cnf })
    }
}

/// Solves or counts the engine model on the SAT solver under `limits` (its `max_solutions` is
/// the cap), keeping the first `keep` solutions decoded by `decode` from the engine with every
/// variable fixed to the solution's values. Variables are named by `info` (names matter only
/// for exports; any will do here).
pub fn sat_search<S>(
    engine: &mut Engine,
    info: impl FnMut(VarId) -> VarInfo,
    limits: &Limits,
    keep: usize,
    mut decode: impl FnMut(&Engine) -> S,
) -> Result<Found<S>, PuzzleError> {
    let start = Instant::now();
    let model = SatModel::new(engine, info)?;
    let mut solver = rustsat_batsat::Solver::<Stop>::default();
    *solver.batsat_mut().cb_mut() = Stop {
        deadline: limits.deadline,
        cancel: limits.cancel.clone(),
        conflicts: 0,
        max_conflicts: limits.node_limit,
    };
    let mut failed = model.cnf.clauses.iter().any(|cl| cl.is_empty());
    if !failed {
        for cl in model.cnf.clauses.iter() {
            if solver.add_clause_ref(cl).is_err() {
                failed = true;
                break;
            }
        }
    }
    let n = engine.num_vars();
    let cap = limits.max_solutions.unwrap_or(u64::MAX);
    let (mut count, mut complete, mut interrupted) = (0u64, false, None);
    let mut solutions = Vec::new();
    let mut values = vec![0u32; n];
    let mut lazy_cuts = 0u64;
    while count < cap {
        if let Some(r) = solver.batsat_ref().cb().interrupted(limits) {
            interrupted = Some(r);
            break;
        }
        if failed {
            complete = true;
            break;
        }
        match solver.solve() {
            Ok(SolverResult::Sat) => {}
            Ok(SolverResult::Unsat) => {
                complete = true;
                break;
            }
            Ok(SolverResult::Interrupted) | Err(_) => {
                let cb = solver.batsat_ref().cb();
                interrupted = Some(cb.interrupted(limits).unwrap_or(StopReason::Deadline));
                break;
            }
        }
        let truth = |l| solver.lit_val(l).is_ok_and(|v| v == TernaryVal::True);
        // Constraints checked lazily (a path's detached cycles): cut the model off and solve
        // again.
        let cuts = model.encoder.lazy_cuts(&truth);
        if !cuts.is_empty() {
            lazy_cuts += cuts.len() as u64;
            for cut in cuts {
                if solver.add_clause(cut.into_iter().collect()).is_err() {
                    failed = true;
                }
            }
            continue;
        }
        for (i, slot) in values.iter_mut().enumerate() {
            *slot = model.encoder.value(VarId::from_index(i), truth).unwrap_or(0);
        }
        count += 1;
        if solutions.len() < keep {
            engine.push_level();
            let fixed = (0..n).all(|i| engine.assign(VarId::from_index(i), values[i]).is_ok());
            if !fixed {
                engine.pop_level();
                return Err(PuzzleError::unsupported(
                    "internal error: the SAT model's solution is outside the engine's domains",
                ));
            }
            solutions.push(decode(engine));
            engine.pop_level();
        }
        // The uniqueness cut: not all of these values again.
        let block: Clause = model.encoder.assignment_lits(&values).into_iter().map(|l| !l).collect();
        if block.is_empty() || solver.add_clause(block).is_err() {
            failed = true;
        }
    }
    let core = solver.batsat_ref();
    let stats = Stats {
        nodes: core.num_decisions(),
        failures: core.num_conflicts(),
        max_depth: 0,
        elapsed_us: start.elapsed().as_micros() as u64,
    };
    let mut found = Found::counted(solutions, count, complete, stats).with_notes([
        Note::new("SAT variables", model.cnf.num_vars),
        Note::new("SAT clauses", model.cnf.clauses.len()),
        Note::new("SAT lazy cuts", lazy_cuts),
    ]);
    found.interrupted = interrupted;
    Ok(found)
}

/// The driver's result of a SAT search (for families whose algorithms report
/// [`SearchResult`](crate::search::SearchResult)s).
pub fn search_result<S>(found: &Found<S>) -> crate::search::SearchResult {
    let stop = match found.interrupted {
        Some(r) => r,
        None if found.complete => StopReason::Exhausted,
        None => StopReason::SolutionLimit,
    };
    crate::search::SearchResult {
        solutions: u64::try_from(&found.count).unwrap_or(u64::MAX),
        stop,
        stats: found.stats,
    }
}

/// Names for [`sat_search`] when nothing is exported: every variable unnamed, a variable
/// with two values one literal.
pub fn unnamed(_: VarId) -> VarInfo {
    VarInfo {
        name: String::new(),
        boolean: true,
    }
}
