//! The generic depth-first backtracking driver.
//!
//! # Background
//! Every pencilbox solver, from the papers' reference algorithms to the pruned default
//! solvers, is a depth-first search over a state that can *apply* a choice and *undo* it.
//! This module owns the loop, the run modes and the statistics; a puzzle owns only the state.
//!
//! # The contract of [`Backtrack`]
//! 1. The driver calls [`Backtrack::expand`] once per search node. The state answers
//!    [`Expand::Solution`] (the current state is a solution), [`Expand::Dead`] (reject: no
//!    solution below), or [`Expand::Branches`] after pushing one or more branches onto `out`.
//!    Branches are tried in the order pushed.
//! 2. For each branch the driver calls [`Backtrack::apply`]. Returning `false` rejects the branch
//!    (counted as a failure) without expanding it.
//! 3. After every `apply` — successful or not — the driver calls [`Backtrack::undo`] with the same
//!    branch exactly once, before the next sibling is applied or the parent is left. Undo order is
//!    the reverse of apply order, so a trail-based state can simply pop a level.
//! 4. When the run stops early (limit, deadline, cancellation, callback), the driver still undoes
//!    every applied branch, so the state is back at the root when [`run`] returns.
//!
//! # Practical
//! A solution callback receives the state and may read it (decode a solution) and say whether to
//! go on. Run modes are expressed through [`Limits`]: first solution (`max_solutions = 1`), count
//! up to N, or enumerate all (`None`). Deadlines and the cancellation flag are checked every
//! [`CHECK_EVERY`] nodes, so a check costs nothing measurable.

use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a search node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expand {
    /// The state is a complete solution.
    Solution,
    /// The state cannot be extended to a solution.
    Dead,
    /// Branches were pushed to `out`.
    Branches,
}

/// A state explored by [`run`]. See the module docs for the exact call contract.
pub trait Backtrack {
    /// One alternative at a branching point.
    type Branch: Copy;
    /// Classifies the current state, pushing branches to `out` when it branches.
    fn expand(&mut self, out: &mut Vec<Self::Branch>) -> Expand;
    /// Applies a branch; `false` rejects it.
    fn apply(&mut self, branch: Self::Branch) -> bool;
    /// Undoes the most recent `apply` (called even when `apply` returned `false`).
    fn undo(&mut self, branch: Self::Branch);
}

/// Whether the search goes on after a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep searching.
    Continue,
    /// Stop now.
    Stop,
}

/// How many nodes pass between two looks at the clock and the cancellation flag.
pub const CHECK_EVERY: u64 = 256;

/// When a search stops.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many solutions (1 = first solution, 2 = uniqueness); `None` = all.
    pub max_solutions: Option<u64>,
    /// Stop after this many nodes.
    pub node_limit: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop when this flag becomes true.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Find the first solution.
    pub fn first() -> Self {
        Limits {
            max_solutions: Some(1),
            ..Limits::default()
        }
    }
    /// Count solutions up to `n`.
    pub fn count_up_to(n: u64) -> Self {
        Limits {
            max_solutions: Some(n),
            ..Limits::default()
        }
    }
    /// Enumerate every solution.
    pub fn all() -> Self {
        Limits::default()
    }
    /// The same limits with a different solution cap.
    pub fn with_max_solutions(mut self, n: Option<u64>) -> Self {
        self.max_solutions = n;
        self
    }
    /// True when the deadline passed or the cancellation flag is set.
    pub fn interrupted(&self) -> Option<StopReason> {
        if let Some(flag) = &self.cancel {
            if flag.load(Ordering::Relaxed) {
                return Some(StopReason::Cancelled);
            }
        }
        if let Some(d) = self.deadline {
            if Instant::now() >= d {
                return Some(StopReason::Deadline);
            }
        }
        None
    }
}

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The whole tree was explored.
    Exhausted,
    /// `max_solutions` solutions were found.
    SolutionLimit,
    /// The solution callback asked to stop.
    Callback,
    /// `node_limit` was reached.
    NodeLimit,
    /// The deadline passed.
    Deadline,
    /// The cancellation flag was set.
    Cancelled,
}

impl StopReason {
    /// True when the search ended because of a resource limit rather than an answer.
    pub fn is_interrupted(self) -> bool {
        matches!(
            self,
            StopReason::NodeLimit | StopReason::Deadline | StopReason::Cancelled
        )
    }
}

/// Search statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Search nodes (calls to `expand`).
    pub nodes: u64,
    /// Dead nodes plus rejected branches.
    pub failures: u64,
    /// Deepest level reached (root = 0).
    pub max_depth: u64,
    /// Wall-clock time in microseconds.
    pub elapsed_us: u64,
}

impl Stats {
    /// Adds another run's counters (depth is the maximum, time the sum).
    pub fn absorb(&mut self, o: &Stats) {
        self.nodes += o.nodes;
        self.failures += o.failures;
        self.max_depth = self.max_depth.max(o.max_depth);
        self.elapsed_us += o.elapsed_us;
    }
    /// Elapsed time as a duration.
    pub fn elapsed(&self) -> Duration {
        Duration::from_micros(self.elapsed_us)
    }
}

/// The result of [`run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Solutions found (each was passed to the callback).
    pub solutions: u64,
    /// Why the search ended.
    pub stop: StopReason,
    /// Counters.
    pub stats: Stats,
}

impl SearchResult {
    /// True when the whole tree was explored (so `solutions` is exact).
    pub fn complete(&self) -> bool {
        self.stop == StopReason::Exhausted
    }
}

struct Frame<B> {
    /// Start of this node's branches in the shared buffer.
    start: usize,
    /// Next branch to try.
    next: usize,
    /// The branch currently applied below this node.
    applied: Option<B>,
}

/// Runs a depth-first search from the current state of `state`.
///
/// ```
/// use pencilbox_core::search::{run, Backtrack, Expand, Flow, Limits};
/// // All binary strings of length 3 with no two adjacent ones.
/// struct Bits(Vec<u8>);
/// impl Backtrack for Bits {
///     type Branch = u8;
///     fn expand(&mut self, out: &mut Vec<u8>) -> Expand {
///         if self.0.len() == 3 { return Expand::Solution; }
///         out.extend([0, 1]);
///         Expand::Branches
///     }
///     fn apply(&mut self, b: u8) -> bool {
///         self.0.push(b);
///         !(b == 1 && self.0.len() > 1 && self.0[self.0.len() - 2] == 1)
///     }
///     fn undo(&mut self, _: u8) { self.0.pop(); }
/// }
/// let r = run(&mut Bits(vec![]), &Limits::all(), |_| Flow::Continue);
/// assert_eq!(r.solutions, 5);
/// assert!(r.complete());
/// ```
pub fn run<S: Backtrack>(state: &mut S, limits: &Limits, mut on_solution: impl FnMut(&mut S) -> Flow) -> SearchResult {
    let started = Instant::now();
    let mut stats = Stats::default();
    let mut solutions = 0u64;
    let mut buf: Vec<S::Branch> = Vec::new();
    let mut frames: Vec<Frame<S::Branch>> = Vec::new();
    let stop = 'search: loop {
        // A fresh node: the state after the last applied branch (or the root).
        stats.nodes += 1;
        if let Some(limit) = limits.node_limit {
            if stats.nodes > limit {
                stats.nodes = limit;
                break 'search StopReason::NodeLimit;
            }
        }
        if stats.nodes % CHECK_EVERY == 0 {
            if let Some(why) = limits.interrupted() {
                break 'search why;
            }
        }
        let start = buf.len();
        match state.expand(&mut buf) {
            Expand::Solution => {
                buf.truncate(start);
                solutions += 1;
                if on_solution(state) == Flow::Stop {
                    break 'search StopReason::Callback;
                }
                if limits.max_solutions.is_some_and(|m| solutions >= m) {
                    break 'search StopReason::SolutionLimit;
                }
            }
            Expand::Dead => {
                buf.truncate(start);
                stats.failures += 1;
            }
            Expand::Branches => {
                frames.push(Frame {
                    start,
                    next: start,
                    applied: None,
                });
            }
        }
        // Move to the next branch to apply, backtracking as needed.
        loop {
            let Some(f) = frames.last_mut() else {
                break 'search StopReason::Exhausted;
            };
            if let Some(b) = f.applied.take() {
                state.undo(b);
            }
            if f.next == buf.len() {
                buf.truncate(f.start);
                frames.pop();
                continue;
            }
            let b = buf[f.next];
            f.next += 1;
            f.applied = Some(b);
            if state.apply(b) {
                stats.max_depth = stats.max_depth.max(frames.len() as u64);
                continue 'search;
            }
            stats.failures += 1;
        }
    };
    // Unwind so the caller gets the root state back.
    while let Some(f) = frames.pop() {
        if let Some(b) = f.applied {
            state.undo(b);
        }
    }
    stats.elapsed_us = started.elapsed().as_micros() as u64;
    SearchResult { solutions, stop, stats }
}

/// Counts solutions under `limits` and keeps the first `keep` of them, decoded by `decode`
/// (uniqueness checks keep 2 as the witness pair).
///
/// ```
/// use pencilbox_core::search::{count_keeping, Backtrack, Expand, Limits};
/// struct Coin(Vec<u8>);
/// impl Backtrack for Coin {
///     type Branch = u8;
///     fn expand(&mut self, out: &mut Vec<u8>) -> Expand {
///         if self.0.len() == 2 { return Expand::Solution; }
///         out.extend([0, 1]);
///         Expand::Branches
///     }
///     fn apply(&mut self, b: u8) -> bool { self.0.push(b); true }
///     fn undo(&mut self, _: u8) { self.0.pop(); }
/// }
/// let (r, kept) = count_keeping(&mut Coin(vec![]), &Limits::count_up_to(3), 2, |s| s.0.clone());
/// assert_eq!((r.solutions, kept), (3, vec![vec![0, 0], vec![0, 1]]));
/// ```
pub fn count_keeping<S: Backtrack, T>(
    state: &mut S,
    limits: &Limits,
    keep: usize,
    mut decode: impl FnMut(&mut S) -> T,
) -> (SearchResult, Vec<T>) {
    let mut kept = Vec::with_capacity(keep);
    let r = run(state, limits, |s| {
        if kept.len() < keep {
            kept.push(decode(s));
        }
        Flow::Continue
    });
    (r, kept)
}

/// A restart plan for [`run_restarting`]: `strategies` search strategies tried in turn, the
/// first round with `first_budget` nodes each, every later round with twice the budget of the
/// one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restarts {
    /// Number of strategies (attempt `k` uses strategy `k % strategies`).
    pub strategies: usize,
    /// Node budget of each attempt of the first round.
    pub first_budget: u64,
}

/// What [`run_restarting`] did besides the final search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RestartReport {
    /// Attempts started (1 = the first attempt finished).
    pub attempts: u32,
    /// The strategy of the last attempt.
    pub strategy: usize,
}

/// Runs fresh searches, cycling through strategies with doubling node budgets, until one ends
/// for a reason other than its own budget: a portfolio against heavy-tailed search times.
///
/// # Background
/// Backtracking times on one instance vary by orders of magnitude with the branching rule
/// (Gomes, Selman & Kautz, "Boosting combinatorial search through randomization", AAAI 1998).
/// Interleaving strategies with geometrically growing budgets costs at most a small constant
/// factor over the best strategy for the instance (each round at most doubles the work
/// already spent), while one unlucky rule can cost orders of magnitude.
///
/// # Practical
/// `make(strategy)` builds a fresh root state. Every attempt is a complete search within its
/// budget, so the result of the attempt that finishes is exact (a count stays a count): the
/// solutions of abandoned attempts are discarded, and `on_solution` is told the attempt
/// number so the caller can drop what it kept from an earlier one. `limits` apply to the whole
/// run (the node limit counts all attempts); statistics add up over the attempts.
/// `on_attempt_end` sees each state after its attempt, e.g. to gather rule counters.
///
/// ```
/// use pencilbox_core::search::{run_restarting, Backtrack, Expand, Flow, Limits, Restarts};
/// // Strategy 0 explores a useless subtree of 2^20 leaves before the answer; strategy 1 goes
/// // straight to it.
/// struct Walk { strategy: usize, bits: Vec<u8> }
/// impl Backtrack for Walk {
///     type Branch = u8;
///     fn expand(&mut self, out: &mut Vec<u8>) -> Expand {
///         if self.bits.len() == 20 {
///             return if self.bits[0] == 1 { Expand::Solution } else { Expand::Dead };
///         }
///         if self.strategy == 0 { out.extend([0, 1]) } else { out.extend([1, 0]) }
///         Expand::Branches
///     }
///     fn apply(&mut self, b: u8) -> bool { self.bits.push(b); true }
///     fn undo(&mut self, _: u8) { self.bits.pop(); }
/// }
/// let plan = Restarts { strategies: 2, first_budget: 100 };
/// let (r, report) = run_restarting(plan, &Limits::first(), |k| Walk { strategy: k, bits: vec![] },
///     |_| {}, |_, _| Flow::Continue);
/// assert_eq!((r.solutions, report.attempts, report.strategy), (1, 2, 1));
/// assert!(r.stats.nodes < 200);
/// ```
pub fn run_restarting<S: Backtrack>(
    plan: Restarts,
    limits: &Limits,
    mut make: impl FnMut(usize) -> S,
    mut on_attempt_end: impl FnMut(&S),
    mut on_solution: impl FnMut(&mut S, u32) -> Flow,
) -> (SearchResult, RestartReport) {
    let strategies = plan.strategies.max(1);
    let mut total = Stats::default();
    let mut report = RestartReport::default();
    let mut budget = plan.first_budget.max(1);
    loop {
        let strategy = report.attempts as usize % strategies;
        let attempt = report.attempts;
        report.attempts += 1;
        report.strategy = strategy;
        let remaining = limits.node_limit.map(|n| n.saturating_sub(total.nodes));
        let own = remaining.is_none_or(|r| budget < r);
        let attempt_limits = Limits {
            node_limit: Some(if own { budget } else { remaining.unwrap_or(budget) }),
            ..limits.clone()
        };
        let mut state = make(strategy);
        let r = run(&mut state, &attempt_limits, |s| on_solution(s, attempt));
        on_attempt_end(&state);
        total.nodes += r.stats.nodes;
        total.failures += r.stats.failures;
        total.max_depth = total.max_depth.max(r.stats.max_depth);
        total.elapsed_us += r.stats.elapsed_us;
        if r.stop != StopReason::NodeLimit || !own {
            return (
                SearchResult {
                    solutions: r.solutions,
                    stop: r.stop,
                    stats: total,
                },
                report,
            );
        }
        if strategy + 1 == strategies {
            budget = budget.saturating_mul(2);
        }
    }
}

#[cfg(test)]
mod tests {

    /// Strategy k visits the 2^depth leaves in a different order; every leaf whose bits are all
    /// equal is a solution (2 of them).
    struct Leaves {
        depth: usize,
        flip: bool,
        bits: Vec<u8>,
    }
    impl Backtrack for Leaves {
        type Branch = u8;
        fn expand(&mut self, out: &mut Vec<u8>) -> Expand {
            if self.bits.len() == self.depth {
                return if self.bits.windows(2).all(|w| w[0] == w[1]) {
                    Expand::Solution
                } else {
                    Expand::Dead
                };
            }
            out.extend(if self.flip { [1, 0] } else { [0, 1] });
            Expand::Branches
        }
        fn apply(&mut self, b: u8) -> bool {
            self.bits.push(b);
            true
        }
        fn undo(&mut self, _: u8) {
            self.bits.pop();
        }
    }

    #[test]
    fn restarts_report_only_the_finishing_attempt_and_respect_the_node_limit() {
        let plan = Restarts {
            strategies: 2,
            first_budget: 5,
        };
        let make = |k: usize| Leaves {
            depth: 8,
            flip: k == 1,
            bits: vec![],
        };
        let mut seen = Vec::new();
        let (r, report) = run_restarting(
            plan,
            &Limits::all(),
            make,
            |_| {},
            |s, attempt| {
                seen.push((attempt, s.bits.clone()));
                Flow::Continue
            },
        );
        assert_eq!((r.solutions, r.stop), (2, StopReason::Exhausted));
        let last = report.attempts - 1;
        assert_eq!(seen.iter().filter(|(a, _)| *a == last).count(), 2);
        // Budgets 5, 5, 10, 10, 20, 20, ...: the full tree has 511 nodes, so attempts run until
        // a budget of at least 511 (5 * 2^7 = 640), and the node total adds every attempt up.
        assert!(report.attempts >= 15, "{report:?}");
        assert!(r.stats.nodes > 511);
        // A global node limit ends the run, reported as such.
        let limits = Limits {
            node_limit: Some(100),
            ..Limits::all()
        };
        let (r, _) = run_restarting(plan, &limits, make, |_| {}, |_, _| Flow::Continue);
        assert_eq!((r.stop, r.stats.nodes), (StopReason::NodeLimit, 100));
    }

    use super::*;

    /// Permutations of `0..n` built one position at a time.
    struct Perms {
        n: u8,
        used: Vec<bool>,
        seq: Vec<u8>,
        applies: u64,
        undos: u64,
    }
    impl Perms {
        fn new(n: u8) -> Self {
            Perms {
                n,
                used: vec![false; n as usize],
                seq: vec![],
                applies: 0,
                undos: 0,
            }
        }
    }
    impl Backtrack for Perms {
        type Branch = u8;
        fn expand(&mut self, out: &mut Vec<u8>) -> Expand {
            if self.seq.len() == self.n as usize {
                return Expand::Solution;
            }
            out.extend((0..self.n).filter(|&v| !self.used[v as usize]));
            Expand::Branches
        }
        fn apply(&mut self, b: u8) -> bool {
            self.applies += 1;
            self.used[b as usize] = true;
            self.seq.push(b);
            true
        }
        fn undo(&mut self, b: u8) {
            self.undos += 1;
            self.used[b as usize] = false;
            self.seq.pop();
        }
    }

    #[test]
    fn enumerates_every_permutation_in_order() {
        let mut p = Perms::new(4);
        let mut seen = vec![];
        let r = run(&mut p, &Limits::all(), |s| {
            seen.push(s.seq.clone());
            Flow::Continue
        });
        assert_eq!(r.solutions, 24);
        assert!(r.complete());
        assert_eq!(seen[0], vec![0, 1, 2, 3]);
        assert_eq!(seen[23], vec![3, 2, 1, 0]);
        assert_eq!(r.stats.max_depth, 4);
        assert_eq!(p.applies, p.undos);
    }

    #[test]
    fn stopping_early_still_undoes_every_applied_branch() {
        let mut p = Perms::new(5);
        let r = run(&mut p, &Limits::count_up_to(7), |_| Flow::Continue);
        assert_eq!((r.solutions, r.stop), (7, StopReason::SolutionLimit));
        assert!(p.seq.is_empty() && p.used.iter().all(|u| !u));
        assert_eq!(p.applies, p.undos);
    }

    #[test]
    fn node_limit_and_cancellation_stop_the_search() {
        let mut p = Perms::new(7);
        let lim = Limits {
            node_limit: Some(100),
            ..Limits::all()
        };
        let r = run(&mut p, &lim, |_| Flow::Continue);
        assert_eq!(r.stop, StopReason::NodeLimit);
        assert_eq!(r.stats.nodes, 100);
        let flag = Arc::new(AtomicBool::new(true));
        let lim = Limits {
            cancel: Some(flag),
            ..Limits::all()
        };
        let r = run(&mut Perms::new(7), &lim, |_| Flow::Continue);
        assert_eq!(r.stop, StopReason::Cancelled);
        let lim = Limits {
            deadline: Some(Instant::now()),
            ..Limits::all()
        };
        let r = run(&mut Perms::new(8), &lim, |_| Flow::Continue);
        assert_eq!(r.stop, StopReason::Deadline);
        assert!(r.stats.nodes <= CHECK_EVERY);
    }

    #[test]
    fn the_callback_can_stop_the_search() {
        let r = run(&mut Perms::new(4), &Limits::all(), |s| {
            if s.seq[0] == 1 {
                Flow::Stop
            } else {
                Flow::Continue
            }
        });
        assert_eq!((r.solutions, r.stop), (7, StopReason::Callback));
    }

    #[test]
    fn a_dead_root_has_no_solutions_and_one_failure() {
        struct Dead;
        impl Backtrack for Dead {
            type Branch = ();
            fn expand(&mut self, _: &mut Vec<()>) -> Expand {
                Expand::Dead
            }
            fn apply(&mut self, _: ()) -> bool {
                true
            }
            fn undo(&mut self, _: ()) {}
        }
        let r = run(&mut Dead, &Limits::all(), |_| Flow::Continue);
        assert_eq!((r.solutions, r.stats.failures, r.stats.nodes), (0, 1, 1));
        assert!(r.complete());
    }
}
