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

use crate::encode::cnf::encode_row;
use crate::encode::{Encoder, Halt, VarInfo};
use crate::engine::{Engine, VarId};
use crate::error::PuzzleError;
use crate::memory::MemoryError;
use crate::puzzle::Found;
use crate::puzzle::Note;
use crate::search::{Limits, Stats, StopReason};
use crate::time::Instant;
use batsat::SolverInterface as _;
use rustsat::instances::{BasicVarManager, ManageVars as _};
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

/// Rows encoded into the solver between two looks at the limits.
const ROWS_PER_POLL: usize = 256;

/// Clauses added to the solver between two looks at the limits: a single row (a cardinality
/// over every cell) can encode into hundreds of millions of clauses.
const CLAUSES_PER_POLL: u64 = 4096;

/// The memory the solver takes per clause, estimated: its literals and header in the clause
/// arena and two watchers.
fn clause_bytes(len: usize) -> u64 {
    32 + 4 * len as u64
}

/// Why [`IntoSolver`] stopped taking clauses.
enum Cut {
    Limit(StopReason),
    Memory,
}

/// A clause collector that adds each clause to the solver as it is made (no copy of the
/// clauses is held), counting them and their memory; an empty clause or a refused one makes
/// the formula unsatisfiable. It polls the limits every [`CLAUSES_PER_POLL`] clauses and
/// stops (an `OutOfMemory` error to the encoding, the reason in `cut`) past the deadline or
/// the memory budget, so that one huge row cannot overrun either.
struct IntoSolver<'a> {
    solver: &'a mut rustsat_batsat::Solver<Stop>,
    limits: &'a Limits,
    /// The bytes the clauses may take.
    budget: Option<u64>,
    bytes: u64,
    clauses: u64,
    failed: bool,
    cut: Option<Cut>,
}

impl IntoSolver<'_> {
    /// Adds one clause; false once stopped.
    fn add(&mut self, cl: &Clause) -> bool {
        if self.cut.is_some() {
            return false;
        }
        self.clauses += 1;
        self.bytes += clause_bytes(cl.len());
        if self.budget.is_some_and(|b| self.bytes > b) {
            self.cut = Some(Cut::Memory);
            return false;
        }
        if self.clauses % CLAUSES_PER_POLL == 0 {
            if let Some(r) = self.limits.interrupted() {
                self.cut = Some(Cut::Limit(r));
                return false;
            }
        }
        if cl.is_empty() || self.solver.add_clause_ref(cl).is_err() {
            self.failed = true;
        }
        true
    }
}

impl rustsat::encodings::CollectClauses for IntoSolver<'_> {
    fn n_clauses(&self) -> usize {
        self.clauses as usize
    }
    fn extend_clauses<T: IntoIterator<Item = Clause>>(&mut self, cl_iter: T) -> Result<(), rustsat::OutOfMemory> {
        for cl in cl_iter {
            if !self.add(&cl) {
                return Err(rustsat::OutOfMemory::ExternalApi);
            }
        }
        Ok(())
    }
}

/// The formula of `engine` under `limits`: `Err` with a found-nothing result when the limits
/// stopped its building, an error when it would take more than the memory budget.
fn formula<S>(
    engine: &Engine,
    info: impl FnMut(VarId) -> VarInfo,
    limits: &Limits,
    stats: impl Fn() -> Stats,
) -> Result<Result<Encoder<'static>, Found<S>>, PuzzleError> {
    let mut encoder = Encoder::limited(engine.domains(), info, limits, limits.memory)
        .allowing_lazy()
        .with_rows_of(engine)
        .map_err(|u| PuzzleError::unsupported(u.to_string()))?;
    match encoder.take_halt() {
        None => Ok(Ok(encoder)),
        Some(Halt::Limit(r)) => Ok(Err(stopped(r, stats()))),
        Some(Halt::Memory(m)) => Err(PuzzleError::Memory(MemoryError {
            what: "the SAT formula".into(),
            ..m
        })),
        Some(Halt::Sink(e)) => Err(PuzzleError::unsupported(e.to_string())),
    }
}

/// Nothing found: `reason` stopped the run.
fn stopped<S>(reason: StopReason, stats: Stats) -> Found<S> {
    let mut found = Found::counted(Vec::new(), 0, false, stats);
    found.interrupted = Some(reason);
    found
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
    let elapsed = || Stats {
        elapsed_us: start.elapsed().as_micros() as u64,
        ..Stats::default()
    };
    // The formula is built under the limits (polled every few rows) and its kept rows count
    // against the memory budget; its clauses then go straight into the solver, row by row,
    // with the limits polled between rows: no copy of the clauses is held.
    let encoder = match formula(engine, info, limits, elapsed)? {
        Ok(e) => e,
        Err(stopped) => return Ok(stopped),
    };
    let mut solver = rustsat_batsat::Solver::<Stop>::default();
    *solver.batsat_mut().cb_mut() = Stop {
        deadline: limits.deadline,
        cancel: limits.cancel.clone(),
        conflicts: 0,
        max_conflicts: limits.node_limit,
    };
    let mut vm = BasicVarManager::from_next_free(rustsat::types::Var::new(encoder.num_lits() as u32));
    let mut into = IntoSolver {
        solver: &mut solver,
        limits,
        budget: limits.memory.map(|b| b.saturating_sub(encoder.kept_bytes())),
        bytes: 0,
        clauses: 0,
        failed: false,
        cut: None,
    };
    for (k, row) in encoder.rows().iter().enumerate() {
        if k % ROWS_PER_POLL == 0 {
            if let Some(r) = limits.interrupted() {
                return Ok(stopped(r, elapsed()));
            }
        }
        if encode_row(row, &mut into, &mut vm).is_err() {
            return match into.cut {
                Some(Cut::Limit(r)) => Ok(stopped(r, elapsed())),
                cut => Err(PuzzleError::Memory(MemoryError {
                    what: "solving with `sat`: the formula's clauses".into(),
                    needed: into.bytes.saturating_add(encoder.kept_bytes()),
                    budget: limits.memory,
                    refused: cut.is_none(),
                    at_least: true,
                })),
            };
        }
    }
    let (num_clauses, mut failed) = (into.clauses, into.failed);
    let num_vars = vm.n_used();
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
        let cuts = encoder.lazy_cuts(&truth);
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
            *slot = encoder.value(VarId::from_index(i), truth).unwrap_or(0);
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
        let block: Clause = encoder.assignment_lits(&values).into_iter().map(|l| !l).collect();
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
        Note::new("SAT variables", num_vars),
        Note::new("SAT clauses", num_clauses),
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
