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
//! 5. After the last pushed branch of a node has been undone, the driver asks
//!    [`Backtrack::successor`] for the branch after it and tries that one too, until it answers
//!    `None` (the default). A state with many alternatives per node pushes only the first and
//!    generates the rest lazily, so the driver's memory is proportional to the depth instead of
//!    depth × alternatives; the search tree is the same as if all had been pushed.
//!
//! # Practical
//! A solution callback receives the state and may read it (decode a solution) and say whether to
//! go on. Run modes are expressed through [`Limits`]: first solution (`max_solutions = 1`), count
//! up to N, or enumerate all (`None`). Deadlines and the cancellation flag are checked every
//! [`CHECK_EVERY`] nodes, so a check costs nothing measurable. A [`Progress`] in the limits
//! receives the nodes at the same checks (the rest when the search ends) and each solution as it
//! is found, for a progress display on another thread ([`Limits::checkpoint`],
//! [`Limits::search_ended`], [`Limits::solution_found`]).

use crate::time::Instant;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

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
    /// Why the state stopped on its own, if it did: a state that polls the deadline inside an
    /// expensive node (the engine does, by elapsed work) answers `Dead` or rejects the branch
    /// and says why here; the driver then ends the search with that reason. Default: never.
    #[inline]
    fn interrupted(&self) -> Option<StopReason> {
        None
    }
    /// The alternative after `branch` at the current node (called with the state back at that
    /// node, after `branch` was undone), for states that generate branches lazily; see rule 5
    /// of the module docs. Default: none. A state that wraps another must forward it: the
    /// engine's learning search ([`crate::engine::EngineSearch`]) asserts its learned and
    /// blocking clauses through it, and without it would end at its first solution.
    #[inline]
    fn successor(&mut self, _branch: Self::Branch) -> Option<Self::Branch> {
        None
    }
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
    /// Live counters for a progress display (not a limit: nothing stops because of it).
    pub progress: Option<Arc<Progress>>,
    /// The memory a run may take, in bytes ([`crate::memory`]): work whose estimate is above
    /// it is refused before anything is allocated. `None`: no budget.
    pub memory: Option<u64>,
    /// Count what each rule removes and its time ([`crate::engine::Engine::count_rules`]) and
    /// report the per-rule counters ([`crate::puzzle::Found::rules`]): not a limit, the
    /// switch of `pencilbox study`. Off by default (then the engine's only counters are its
    /// runs and conflicts per rule).
    pub counters: bool,
    /// Conflict-driven learning in the engine's searches (`--set learn=`, `--set decide=`;
    /// [`crate::learning`]). Off by default.
    pub learning: crate::learning::Learning,
    /// Where the engine's searches add up what learning did (the notes of `--stats`).
    pub learn_counters: Option<Arc<crate::learning::LearnCounters>>,
}

/// Live counters of the searches run under one [`Limits`], read by another thread (the
/// command line's progress line). A search loop adds its nodes every [`CHECK_EVERY`] nodes
/// ([`Limits::checkpoint`]) and the rest when it ends ([`Limits::search_ended`]), so the
/// figure lags a running search by less than [`CHECK_EVERY`] and is exact for ended ones, and
/// each solution as it is found ([`Limits::solution_found`]). A run of several searches
/// (a restart strategy, a setter's tool) shows their sum.
///
/// It can also hold one piece of work to run *later* in the run ([`Progress::after`]): set-up
/// that a run ending sooner should not pay for, such as the command line's Ctrl-C handler (a
/// thread of its own, about 40 µs of a process that solves a small puzzle in 2 µs).
#[derive(Default)]
pub struct Progress {
    nodes: AtomicU64,
    solutions: AtomicU64,
    /// Whether `later` holds work (read on every poll, so that the lock is taken only then).
    pending: AtomicBool,
    later: std::sync::Mutex<Option<Later>>,
}

/// Work [`Progress::after`] runs once its instant has come.
type Later = (Instant, Box<dyn FnOnce() + Send>);

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress")
            .field("nodes", &self.nodes())
            .field("solutions", &self.solutions())
            .field("pending", &self.pending.load(Ordering::Relaxed))
            .finish()
    }
}

impl Progress {
    /// Runs `work` once, on the thread of a search under these counters, at the first
    /// [`Limits::interrupted`] or [`Limits::checkpoint`] poll at or after `at` (every search
    /// loop polls one of them at least every [`CHECK_EVERY`] nodes). A run that ends before
    /// then never runs it. Replaces work set before and not run yet.
    pub fn after(&self, at: Instant, work: impl FnOnce() + Send + 'static) {
        if let Ok(mut later) = self.later.lock() {
            *later = Some((at, Box::new(work)));
            self.pending.store(true, Ordering::Release);
        }
    }
    /// Drops the work [`Progress::after`] set, if it has not run: the watched run is over.
    pub fn forget_later(&self) {
        if let Ok(mut later) = self.later.lock() {
            *later = None;
            self.pending.store(false, Ordering::Release);
        }
    }
    /// Runs the work set by [`Progress::after`] when its instant has come.
    #[inline]
    fn poll(&self) {
        if self.pending.load(Ordering::Relaxed) {
            self.run_later();
        }
    }
    #[cold]
    fn run_later(&self) {
        let due = {
            let Ok(mut later) = self.later.lock() else { return };
            match later.as_ref() {
                Some((at, _)) if Instant::now() >= *at => {
                    self.pending.store(false, Ordering::Release);
                    later.take()
                }
                _ => None,
            }
        };
        // (Run outside the lock: the work may set more work.)
        if let Some((_, work)) = due {
            work();
        }
    }
    /// Nodes recorded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
    /// Solutions recorded so far.
    pub fn solutions(&self) -> u64 {
        self.solutions.load(Ordering::Relaxed)
    }
    /// Records `n` more nodes.
    pub fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Ordering::Relaxed);
    }
    /// Records one more solution.
    pub fn add_solution(&self) {
        self.solutions.fetch_add(1, Ordering::Relaxed);
    }
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
    /// What a search loop calls every [`CHECK_EVERY`] nodes: records those nodes in
    /// [`Limits::progress`], then says whether the run is [`Limits::interrupted`].
    #[inline]
    pub fn checkpoint(&self) -> Option<StopReason> {
        if let Some(p) = &self.progress {
            p.add_nodes(CHECK_EVERY);
        }
        self.interrupted()
    }
    /// What a search loop calls when it ends after `nodes` nodes in all: records the nodes
    /// since its last [`Limits::checkpoint`], so that [`Limits::progress`] holds the exact
    /// total of every search that has ended.
    #[inline]
    pub fn search_ended(&self, nodes: u64) {
        if let Some(p) = &self.progress {
            p.add_nodes(nodes % CHECK_EVERY);
        }
    }
    /// What a search loop calls for each solution it finds: records it in [`Limits::progress`].
    #[inline]
    pub fn solution_found(&self) {
        if let Some(p) = &self.progress {
            p.add_solution();
        }
    }
    /// True when the deadline passed or the cancellation flag is set. (Also runs the work
    /// [`Progress::after`] set on the limits' progress counters, once its instant has come.)
    pub fn interrupted(&self) -> Option<StopReason> {
        if let Some(p) = &self.progress {
            p.poll();
        }
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
    /// The system refused memory while the model was built ([`crate::memory`]): the model is
    /// incomplete and was not searched.
    Memory,
}

impl StopReason {
    /// True when the search ended because of a resource limit rather than an answer.
    pub fn is_interrupted(self) -> bool {
        matches!(
            self,
            StopReason::NodeLimit | StopReason::Deadline | StopReason::Cancelled | StopReason::Memory
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
    let mut search = Search::new(state);
    loop {
        if let Some(r) = search.resume(limits, u64::MAX, |s| on_solution(s)) {
            return r;
        }
    }
}

/// A mutable reference to a state is a state: [`run`] searches in place.
impl<S: Backtrack + ?Sized> Backtrack for &mut S {
    type Branch = S::Branch;
    #[inline]
    fn expand(&mut self, out: &mut Vec<Self::Branch>) -> Expand {
        (**self).expand(out)
    }
    #[inline]
    fn apply(&mut self, branch: Self::Branch) -> bool {
        (**self).apply(branch)
    }
    #[inline]
    fn undo(&mut self, branch: Self::Branch) {
        (**self).undo(branch)
    }
    #[inline]
    fn interrupted(&self) -> Option<StopReason> {
        (**self).interrupted()
    }
    #[inline]
    fn successor(&mut self, branch: Self::Branch) -> Option<Self::Branch> {
        (**self).successor(branch)
    }
}

/// A depth-first search that owns its state and can be paused between nodes and resumed:
/// [`run`] is one unbounded [`Search::resume`] on a borrowed state; [`race`] interleaves
/// several.
pub struct Search<S: Backtrack> {
    /// `None` only after [`Search::into_state`].
    state: Option<S>,
    buf: Vec<S::Branch>,
    frames: Vec<Frame<S::Branch>>,
    stats: Stats,
    solutions: u64,
    result: Option<SearchResult>,
}

impl<S: Backtrack> Search<S> {
    /// A search from the current state of `state` (the root).
    pub fn new(state: S) -> Self {
        Search {
            state: Some(state),
            buf: Vec::new(),
            frames: Vec::new(),
            stats: Stats::default(),
            solutions: 0,
            result: None,
        }
    }

    /// The counters so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Solutions found so far.
    pub fn solutions(&self) -> u64 {
        self.solutions
    }

    /// The result, once the search has ended.
    pub fn result(&self) -> Option<SearchResult> {
        self.result
    }

    /// The state (at the node where the search paused, or back at the root once it ended).
    pub fn state(&self) -> &S {
        self.state.as_ref().expect("the state is taken only by into_state")
    }

    /// Ends the search (see [`Search::abandon`]) and hands the state back, at the root.
    pub fn into_state(mut self) -> S {
        self.abandon();
        self.state.take().expect("the state is taken only here")
    }

    /// Ends the search where it is, returning the state to the root (a no-op once ended).
    pub fn abandon(&mut self) {
        if self.result.is_some() {
            return;
        }
        if let Some(state) = self.state.as_mut() {
            while let Some(f) = self.frames.pop() {
                if let Some(b) = f.applied {
                    state.undo(b);
                }
            }
        }
        self.buf.clear();
        self.result = Some(SearchResult {
            solutions: self.solutions,
            stop: StopReason::Cancelled,
            stats: self.stats,
        });
    }

    /// Runs at most `slice` more nodes under `limits` (which count the whole search). Returns
    /// the result when the search ends (the state is then back at the root), `None` when it
    /// paused; a paused search resumes exactly where it stopped.
    pub fn resume(
        &mut self,
        limits: &Limits,
        slice: u64,
        mut on_solution: impl FnMut(&mut S) -> Flow,
    ) -> Option<SearchResult> {
        if self.result.is_some() {
            return self.result;
        }
        let started = Instant::now();
        let Some(state) = self.state.as_mut() else {
            return self.result;
        };
        let (buf, frames, stats) = (&mut self.buf, &mut self.frames, &mut self.stats);
        let mut budget = slice;
        let stop = 'search: loop {
            // A fresh node: the state after the last applied branch (or the root).
            if budget == 0 {
                stats.elapsed_us += started.elapsed().as_micros() as u64;
                return None;
            }
            budget -= 1;
            stats.nodes += 1;
            if let Some(limit) = limits.node_limit {
                if stats.nodes > limit {
                    stats.nodes = limit;
                    break 'search StopReason::NodeLimit;
                }
            }
            if stats.nodes % CHECK_EVERY == 0 {
                if let Some(why) = limits.checkpoint() {
                    break 'search why;
                }
            }
            let start = buf.len();
            match state.expand(buf) {
                Expand::Solution => {
                    buf.truncate(start);
                    self.solutions += 1;
                    limits.solution_found();
                    if on_solution(state) == Flow::Stop {
                        break 'search StopReason::Callback;
                    }
                    if limits.max_solutions.is_some_and(|m| self.solutions >= m) {
                        break 'search StopReason::SolutionLimit;
                    }
                }
                Expand::Dead => {
                    buf.truncate(start);
                    stats.failures += 1;
                    if let Some(why) = state.interrupted() {
                        break 'search why;
                    }
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
                    // The node's last branch: a lazy state may have one more (rule 5), which
                    // takes the spent branch's slot.
                    match (f.next > f.start).then(|| state.successor(buf[f.next - 1])).flatten() {
                        Some(b) => {
                            f.next -= 1;
                            buf[f.next] = b;
                        }
                        None => {
                            buf.truncate(f.start);
                            frames.pop();
                            continue;
                        }
                    }
                }
                let b = buf[f.next];
                f.next += 1;
                f.applied = Some(b);
                if state.apply(b) {
                    stats.max_depth = stats.max_depth.max(frames.len() as u64);
                    continue 'search;
                }
                stats.failures += 1;
                if let Some(why) = state.interrupted() {
                    break 'search why;
                }
            }
        };
        // Unwind so the caller gets the root state back.
        while let Some(f) = frames.pop() {
            if let Some(b) = f.applied {
                state.undo(b);
            }
        }
        stats.elapsed_us += started.elapsed().as_micros() as u64;
        limits.search_ended(stats.nodes);
        self.result = Some(SearchResult {
            solutions: self.solutions,
            stop,
            stats: *stats,
        });
        self.result
    }
}

impl<S: Backtrack> Drop for Search<S> {
    /// A paused search still hands its state back at the root.
    fn drop(&mut self) {
        self.abandon();
    }
}

/// The outcome of [`race`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceResult {
    /// The result of the search that ended first (its counters add up every racer's work).
    pub result: SearchResult,
    /// Which racer ended first (or, when the shared node limit ran out, the one that had found
    /// the most solutions, the first of equals).
    pub winner: usize,
}

/// Runs one search per state `make(k)`, interleaved in slices of `slice` nodes, until one of
/// them ends: a portfolio against heavy-tailed search times. Racer `k` joins in round
/// `starts[k]` (non-decreasing; each round gives every racer that has joined one slice).
/// Returns the result and the racers' states (back at their roots), in order.
///
/// # Background
/// Backtracking times on one instance can differ by orders of magnitude between branching
/// rules (Gomes, Selman & Kautz, "Boosting combinatorial search through randomization", AAAI
/// 1998). Racing `k` complete searches costs at most `k` times the best of them on the
/// instance, while one unlucky rule alone can cost orders of magnitude more.
///
/// # Practical
/// Racer `k` is made only when its first turn comes, so an instance the first racer settles
/// within one slice costs one state, and late joiners (`starts[k] > 0`) cost nothing on
/// instances settled before their round. Every racer is a complete search of the same problem, so
/// the winner's answer is exact (a count stays a count); the others are abandoned.
/// `on_solution(state, racer)` sees every racer's solutions: keep them per racer and use the
/// winner's. `limits` apply to each racer, except the node limit, which counts all of them
/// together; the winner's [`SearchResult::stats`] add up every racer's counters (depth is the
/// maximum).
///
/// ```
/// use pencilbox_core::search::{race, Backtrack, Expand, Flow, Limits};
/// // Racer 0 searches 2^20 useless leaves before the answer; racer 1 goes straight to it.
/// struct Walk { first: u8, bits: Vec<u8> }
/// impl Backtrack for Walk {
///     type Branch = u8;
///     fn expand(&mut self, out: &mut Vec<u8>) -> Expand {
///         if self.bits.len() == 20 {
///             return if self.bits[0] == 1 { Expand::Solution } else { Expand::Dead };
///         }
///         out.extend([self.first, 1 - self.first]);
///         Expand::Branches
///     }
///     fn apply(&mut self, b: u8) -> bool { self.bits.push(b); true }
///     fn undo(&mut self, _: u8) { self.bits.pop(); }
/// }
/// let make = |k: usize| Walk { first: k as u8, bits: vec![] };
/// let (r, states) = race(&[0, 0], make, &Limits::first(), 16, |_, _| Flow::Continue);
/// assert_eq!((r.winner, r.result.solutions), (1, 1));
/// assert!(r.result.stats.nodes <= 2 * 21 + 16);
/// assert!(states.iter().all(|s| s.bits.is_empty()));
/// ```
pub fn race<S: Backtrack>(
    starts: &[u64],
    mut make: impl FnMut(usize) -> S,
    limits: &Limits,
    slice: u64,
    mut on_solution: impl FnMut(&mut S, usize) -> Flow,
) -> (RaceResult, Vec<S>) {
    assert!(
        !starts.is_empty() && starts.windows(2).all(|w| w[0] <= w[1]),
        "race needs at least one racer, with non-decreasing start rounds"
    );
    let slice = slice.max(1);
    let mut searches: Vec<Search<S>> = Vec::with_capacity(starts.len());
    let own_limits = Limits {
        node_limit: None,
        ..limits.clone()
    };
    let total = |searches: &[Search<S>]| {
        let mut t = Stats::default();
        for s in searches {
            t.absorb(&s.stats());
        }
        t
    };
    let mut round = 0u64;
    let outcome = 'race: loop {
        for (k, &start) in starts.iter().enumerate() {
            if start > round {
                break;
            }
            if k == searches.len() {
                searches.push(Search::new(make(k)));
            }
            let spent = total(&searches).nodes;
            let mut this_slice = slice;
            if let Some(limit) = limits.node_limit {
                if spent >= limit {
                    let mut stats = total(&searches);
                    stats.nodes = limit;
                    // The racer that found the most solutions answers (the first of equals):
                    // whichever racer's turn met the limit may have found none.
                    let best = (0..searches.len())
                        .rev()
                        .max_by_key(|&j| searches[j].solutions())
                        .unwrap_or(k);
                    let result = SearchResult {
                        solutions: searches[best].solutions(),
                        stop: StopReason::NodeLimit,
                        stats,
                    };
                    break 'race RaceResult { result, winner: best };
                }
                this_slice = this_slice.min(limit - spent);
            }
            if let Some(r) = searches[k].resume(&own_limits, this_slice, |s| on_solution(s, k)) {
                let stats = total(&searches);
                break 'race RaceResult {
                    result: SearchResult { stats, ..r },
                    winner: k,
                };
            }
        }
        round += 1;
    };
    (outcome, searches.into_iter().map(Search::into_state).collect())
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
    // Kept solutions grow as they come: `keep` may be `usize::MAX` ("keep all").
    let mut kept = Vec::new();
    let r = run(state, limits, |s| {
        if kept.len() < keep {
            kept.push(decode(s));
        }
        Flow::Continue
    });
    (r, kept)
}

#[cfg(test)]
mod tests {

    /// The 2^depth leaves of a binary tree, in either order; every leaf whose bits are all
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
    fn a_race_reports_the_winners_exact_count_and_all_the_work() {
        // Racer 1 (depth 10) needs far more nodes than racer 0 (depth 6): racer 0 wins with its
        // full count of 2, and the counters include racer 1's slices.
        let make = |k: usize| Leaves {
            depth: if k == 0 { 6 } else { 10 },
            flip: k == 1,
            bits: vec![],
        };
        let mut seen = Vec::new();
        let (r, racers) = race(&[0, 0], make, &Limits::all(), 8, |s, k| {
            seen.push((k, s.bits.clone()));
            Flow::Continue
        });
        assert_eq!(
            (r.winner, r.result.solutions, r.result.stop),
            (0, 2, StopReason::Exhausted)
        );
        assert_eq!(seen.iter().filter(|(k, _)| *k == 0).count(), 2);
        assert!(r.result.stats.nodes > 127, "{:?}", r.result.stats);
        // Every racer is back at its root.
        assert!(racers.iter().all(|s| s.bits.is_empty()));
        // A node limit counts all racers together.
        let limits = Limits {
            node_limit: Some(50),
            ..Limits::all()
        };
        let (r, racers) = race(&[0, 0], make, &limits, 8, |_, _| Flow::Continue);
        assert_eq!((r.result.stop, r.result.stats.nodes), (StopReason::NodeLimit, 50));
        assert!(racers.iter().all(|s| s.bits.is_empty()));
        // When the limit runs out at racer 1's first turn, racer 0, which found a solution in
        // its slice, answers ("at least 1"), not racer 1 with none.
        let limits = Limits {
            node_limit: Some(100),
            ..Limits::all()
        };
        let (r, _) = race(&[0, 0], make, &limits, 100, |_, _| Flow::Continue);
        assert_eq!(
            (r.winner, r.result.solutions, r.result.stop),
            (0, 1, StopReason::NodeLimit)
        );
        // A racer that finishes within its first slice is the only one made.
        let (r, racers) = race(&[0, 0], make, &Limits::first(), 1000, |_, _| Flow::Continue);
        assert_eq!((r.winner, racers.len()), (0, 1));
        // A racer that joins late runs only from its round on: racer 1 (slow) joins in round 3,
        // after racer 0 used 3 slices of 8 nodes, and racer 0 still wins.
        let (r, racers) = race(&[0, 3], make, &Limits::all(), 8, |_, _| Flow::Continue);
        assert_eq!((r.winner, racers.len()), (0, 2));
        assert!(r.result.stats.nodes < 2 * 127, "{:?}", r.result.stats);
    }

    #[test]
    fn a_paused_search_resumes_where_it_stopped() {
        let mut whole = Leaves {
            depth: 7,
            flip: false,
            bits: vec![],
        };
        let full = run(&mut whole, &Limits::all(), |_| Flow::Continue);
        let mut sliced = Leaves {
            depth: 7,
            flip: false,
            bits: vec![],
        };
        let mut search = Search::new(&mut sliced);
        let mut slices = 0;
        let r = loop {
            slices += 1;
            if let Some(r) = search.resume(&Limits::all(), 3, |_| Flow::Continue) {
                break r;
            }
        };
        assert_eq!(
            (r.solutions, r.stop, r.stats.nodes),
            (full.solutions, full.stop, full.stats.nodes)
        );
        assert!(slices > 40);
        drop(search);
        assert!(sliced.bits.is_empty());
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

    /// [`Perms`] pushing only its first branch and handing out the others lazily.
    struct LazyPerms(Perms);
    impl Backtrack for LazyPerms {
        type Branch = u8;
        fn expand(&mut self, out: &mut Vec<u8>) -> Expand {
            let p = &self.0;
            if p.seq.len() == p.n as usize {
                return Expand::Solution;
            }
            out.extend((0..p.n).find(|&v| !p.used[v as usize]));
            Expand::Branches
        }
        fn apply(&mut self, b: u8) -> bool {
            self.0.apply(b)
        }
        fn undo(&mut self, b: u8) {
            self.0.undo(b)
        }
        fn successor(&mut self, b: u8) -> Option<u8> {
            (b + 1..self.0.n).find(|&v| !self.0.used[v as usize])
        }
    }

    #[test]
    fn lazy_successors_give_the_same_tree_with_one_branch_per_level() {
        let mut eager = Perms::new(5);
        let mut lazy = LazyPerms(Perms::new(5));
        let (mut a, mut b) = (vec![], vec![]);
        let r1 = run(&mut eager, &Limits::all(), |s| {
            a.push(s.seq.clone());
            Flow::Continue
        });
        let mut search = Search::new(&mut lazy);
        let mut widest = 0;
        let r2 = loop {
            // One node at a time, watching the driver's branch buffer.
            if let Some(r) = search.resume(&Limits::all(), 1, |s| {
                b.push(s.0.seq.clone());
                Flow::Continue
            }) {
                break r;
            }
            widest = widest.max(search.buf.len());
        };
        drop(search);
        assert_eq!(a, b);
        assert_eq!(
            (r1.solutions, r1.stats.nodes, r1.stats.failures),
            (r2.solutions, r2.stats.nodes, r2.stats.failures)
        );
        assert_eq!(eager.applies, lazy.0.applies);
        assert!(widest <= 5, "one branch per level, found {widest}");
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
    fn progress_receives_the_nodes_at_each_check_and_every_solution() {
        let progress = Arc::new(Progress::default());
        let lim = Limits {
            progress: Some(progress.clone()),
            ..Limits::all()
        };
        let r = run(&mut Perms::new(6), &lim, |_| Flow::Continue);
        assert_eq!(r.solutions, 720);
        assert_eq!(progress.solutions(), 720);
        // Nodes arrive in blocks of CHECK_EVERY at the checks, the rest when the search ends.
        assert!(r.stats.nodes > CHECK_EVERY && r.stats.nodes % CHECK_EVERY != 0);
        assert_eq!(progress.nodes(), r.stats.nodes);
        // A second search under the same limits adds to the same counters, also when a limit
        // stops it.
        let limited = Limits {
            node_limit: Some(300),
            ..lim.clone()
        };
        let r2 = run(&mut Perms::new(6), &limited, |_| Flow::Continue);
        assert_eq!(r2.stop, StopReason::NodeLimit);
        assert_eq!(progress.nodes(), r.stats.nodes + 300);
        assert_eq!(progress.solutions(), 720 + r2.solutions);
    }

    #[test]
    fn work_set_for_later_runs_once_at_the_first_poll_after_its_instant() {
        use std::sync::atomic::AtomicU32;
        let progress = Arc::new(Progress::default());
        let lim = Limits {
            progress: Some(progress.clone()),
            ..Limits::all()
        };
        let runs = Arc::new(AtomicU32::new(0));
        let counter = runs.clone();
        // Not yet due: polls leave it.
        progress.after(Instant::now() + Duration::from_secs(3600), move || {
            counter.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(lim.interrupted(), None);
        run(&mut Perms::new(6), &lim, |_| Flow::Continue);
        assert_eq!(runs.load(Ordering::SeqCst), 0);
        // Due: the search's first check runs it, once.
        let counter = runs.clone();
        progress.after(Instant::now(), move || {
            counter.fetch_add(1, Ordering::SeqCst);
        });
        let r = run(&mut Perms::new(6), &lim, |_| Flow::Continue);
        assert_eq!(r.solutions, 720);
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert_eq!(lim.interrupted(), None);
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        // Forgotten work never runs.
        let counter = runs.clone();
        progress.after(Instant::now(), move || {
            counter.fetch_add(1, Ordering::SeqCst);
        });
        progress.forget_later();
        run(&mut Perms::new(6), &lim, |_| Flow::Continue);
        assert_eq!(runs.load(Ordering::SeqCst), 1);
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
