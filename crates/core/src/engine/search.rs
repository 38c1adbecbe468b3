//! Search on the engine: branching rules, failed-value probing, restarts, and
//! [`EngineSearch`], the [`Backtrack`] state that puts them on core's driver
//! ([`crate::search::run`], [`crate::search::race`]).

use super::explain::{Premise, StepKind};
use super::learn::{LearnMode, LearnStats, Learner};
use super::propagation::Engine;
use super::propagator::Priority;
use super::store::{Entry, VarId};
use crate::domain::Domain;
use crate::rng::SplitMix64;
use crate::search::{run, Backtrack, Expand, Flow, Limits, SearchResult, Stats, StopReason};

/// A branch: narrow `var` to `dom`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The variable.
    pub var: VarId,
    /// The values it keeps in this branch.
    pub dom: Domain,
}

impl Decision {
    /// `var = value`.
    pub fn assign(var: VarId, value: u32) -> Self {
        Decision {
            var,
            dom: Domain::single(value),
        }
    }
    /// `var ≠ value`.
    pub fn exclude(var: VarId, value: u32) -> Self {
        Decision {
            var,
            dom: Domain::ALL.without(value),
        }
    }
}

/// A branching rule.
///
/// `branch` pushes the branches of the current node onto `out`. They must *partition* the
/// remaining choices (every solution below the node lies in exactly one branch), so counts are
/// exact. Pushing nothing means "nothing to decide": the node is a solution when every variable
/// is fixed, and dead otherwise.
pub trait Brancher {
    /// Pushes the branches of the node.
    fn branch(&mut self, engine: &Engine, out: &mut Vec<Decision>);
    /// A new tie-breaking seed (restarts and races); `0` = the deterministic order.
    fn reseed(&mut self, _seed: u64) {}
}

/// Smallest domain first (lowest variable on ties, or a seeded random one), one branch per
/// value in increasing order (or a seeded random order).
///
/// ```
/// use pencilbox_core::engine::{Brancher, Engine, SmallestDomain};
/// use pencilbox_core::Domain;
/// let mut e = Engine::new();
/// let a = e.new_var(Domain::range(1, 3));
/// let b = e.new_var(Domain::range(1, 2));
/// let mut out = vec![];
/// SmallestDomain::new().branch(&e, &mut out);
/// assert_eq!(out.iter().map(|d| (d.var, d.dom.value())).collect::<Vec<_>>(), [(b, Some(1)), (b, Some(2))]);
/// # let _ = a;
/// ```
#[derive(Clone, Debug, Default)]
pub struct SmallestDomain {
    /// Only these variables are decided (`None`: all).
    pub vars: Option<Vec<VarId>>,
    rng: Option<SplitMix64>,
    /// Shuffle values only (ties between variables still go to the lowest): the generators'
    /// random fills.
    values_only: bool,
}

impl SmallestDomain {
    /// Over every variable, deterministic.
    pub fn new() -> Self {
        SmallestDomain::default()
    }
    /// Over these variables only.
    pub fn over(vars: Vec<VarId>) -> Self {
        SmallestDomain {
            vars: Some(vars),
            ..SmallestDomain::default()
        }
    }
    /// Values of each branching variable in a random order drawn from `seed` (variables are
    /// still chosen deterministically): a random solution, as generators want.
    pub fn shuffled_values(mut self, seed: u64) -> Self {
        self.rng = Some(SplitMix64::new(seed));
        self.values_only = true;
        self
    }
}

impl Brancher for SmallestDomain {
    fn branch(&mut self, engine: &Engine, out: &mut Vec<Decision>) {
        let doms = engine.domains();
        let mut best: Option<(u32, usize)> = None;
        let consider = |i: usize, best: &mut Option<(u32, usize)>| -> bool {
            let n = doms[i].len();
            if n > 1 && best.is_none_or(|(m, _)| n < m) {
                *best = Some((n, i));
                return n == 2;
            }
            false
        };
        match &self.vars {
            Some(vars) => {
                for v in vars {
                    if consider(v.index(), &mut best) {
                        break;
                    }
                }
            }
            None => {
                for i in 0..doms.len() {
                    if consider(i, &mut best) {
                        break;
                    }
                }
            }
        }
        let Some((_, i)) = best else {
            return;
        };
        let var = VarId::from_index(i);
        let start = out.len();
        out.extend(doms[i].iter().map(|v| Decision::assign(var, v)));
        if let Some(rng) = &mut self.rng {
            rng.shuffle_mod(&mut out[start..]);
        }
    }
    fn reseed(&mut self, seed: u64) {
        if !self.values_only {
            self.rng = (seed != 0).then(|| SplitMix64::new(seed));
        }
    }
}

fn mix(x: u64) -> u64 {
    SplitMix64::new(x).next_u64()
}

/// How often probing repeats its pass over the variables at one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passes {
    /// One pass.
    One,
    /// Until a pass fixes nothing (singleton consistency on the probed variables).
    Fixpoint,
}

/// Failed-value probing (singleton consistency): at each search node, every probed variable
/// with at most `max_values` values has each value tried and propagated; a value that fails
/// is removed and the next variable is probed.
///
/// # Background
/// Probing is the "one-level lookahead" of constraint programming (singleton arc consistency,
/// Debruyne & Bessière, IJCAI 1997) and of SAT (failed-literal probing): it finds what a
/// person finds by "if this were 3, the region would have no place for 2". It costs one
/// propagation per probed value per pass, so it pays where propagation is cheap and nodes are
/// expensive, and is switched off (by the models' budget) on very large grids.
///
/// A value that a successful probe earlier in the pass fixed (with nothing refuted since) is
/// skipped: propagation is monotone, so its probe would reach part of that probe's fixpoint
/// without conflict and remove nothing — the implied-literal skip of SAT solvers' failed-literal
/// probing (I. Lynce and J. Marques-Silva, "Probing-based preprocessing techniques for
/// propositional satisfiability", ICTAI 2003). The outcome of a pass is unchanged;
/// [`Engine::rule_stats`]'s `probe` counts the values actually probed.
#[derive(Clone, Debug)]
pub struct Probe {
    /// The variables to probe (`None`: all), in order.
    pub vars: Option<Vec<VarId>>,
    /// Only variables with at most this many values.
    pub max_values: u32,
    /// One pass or to a fixpoint.
    pub passes: Passes,
    /// Rules at this priority and above do not run inside probes (they run once after a pass
    /// that fixed anything). `None`: every rule runs.
    pub suspend: Option<Priority>,
    /// Try the values from the largest down (Booleans: true first).
    pub descending: bool,
    /// Probe only once the search has met this many dead ends (0: from the root on). Probing
    /// costs a propagation per probed value at every node; an easy instance that a few
    /// decisions finish never pays it, a hard one starts probing after a short dive.
    pub after_failures: u64,
}

impl Probe {
    /// How many variables it probes, of an engine's `vars`.
    pub(super) fn len(&self, vars: usize) -> usize {
        self.vars.as_ref().map_or(vars, Vec::len)
    }
    /// The `k`-th probed variable (`k` below [`Probe::len`]).
    pub(super) fn var(&self, k: usize) -> VarId {
        match &self.vars {
            Some(v) => v[k],
            None => VarId::from_index(k),
        }
    }
    /// The values of a variable's domain `d` to try, in the order asked for (none when the
    /// variable is fixed or has more than `max_values` values).
    pub(super) fn values(&self, d: Domain) -> impl Iterator<Item = u32> {
        let wanted = d.len() >= 2 && d.len() <= self.max_values;
        let mut left = if wanted { d } else { Domain::EMPTY };
        let descending = self.descending;
        std::iter::from_fn(move || {
            let v = if descending { left.max() } else { left.min() }?;
            left = left.without(v);
            Some(v)
        })
    }
    /// Every two-valued variable, to a fixpoint, with every rule.
    pub fn pairs() -> Self {
        Probe {
            vars: None,
            max_values: 2,
            passes: Passes::Fixpoint,
            suspend: None,
            descending: false,
            after_failures: 0,
        }
    }
}

impl Engine {
    /// Propagates, honouring a suspension ceiling.
    pub(super) fn propagate_with(&mut self, suspend: Option<Priority>) -> Result<(), super::Conflict> {
        match suspend {
            Some(p) => self.propagate_below(p),
            None => self.propagate(),
        }
    }

    /// Runs `probe` at the current node (which must be at a fixpoint). `Err` when the node
    /// is refuted. Changes are made at the current level.
    pub fn probe(&mut self, probe: &Probe) -> Result<(), super::Conflict> {
        // Counting (study): the whole call is timed, the propagation it runs included.
        let t0 = self.store.counting.then(crate::time::Instant::now);
        let r = self.probe_timed(probe);
        if let Some(t0) = t0 {
            self.probe_stats.time_ns += t0.elapsed().as_nanos() as u64;
        }
        r
    }

    fn probe_timed(&mut self, probe: &Probe) -> Result<(), super::Conflict> {
        let before = self.changes();
        let n = probe.len(self.num_vars());
        self.with_implied(|e, implied, touched| e.probe_passes(probe, n, implied, touched))?;
        if let Some(p) = probe.suspend {
            if self.changes() != before {
                self.enqueue_from(p);
                self.propagate()?;
            }
        }
        Ok(())
    }

    /// Runs `f` with the probe's scratch: per variable, the values successful probes fixed it
    /// to (empty on entry), and the variables `f` gave an entry (cleared on exit).
    pub(super) fn with_implied<R>(&mut self, f: impl FnOnce(&mut Engine, &mut [Domain], &mut Vec<u32>) -> R) -> R {
        let mut implied = std::mem::take(&mut self.implied);
        implied.resize(self.num_vars(), Domain::EMPTY);
        let mut touched = Vec::new();
        let r = f(self, &mut implied, &mut touched);
        for &x in &touched {
            implied[x as usize] = Domain::EMPTY;
        }
        self.implied = implied;
        r
    }

    /// After a successful probe, its level still open: each variable it fixed gets its value
    /// added to `implied` (`touched` lists the variables whose entry was empty before).
    pub(super) fn note_implied(&self, implied: &mut [Domain], touched: &mut Vec<u32>) {
        for e in self.store.trail.top() {
            if let Entry::Dom(x, _) = *e {
                let d = self.store.doms[x as usize];
                if d.is_single() {
                    let i = &mut implied[x as usize];
                    if i.is_empty() {
                        touched.push(x);
                    }
                    *i = i.or(d);
                }
            }
        }
    }

    /// The passes of [`Engine::probe`]. `implied[v]` holds the values that a successful probe
    /// since the last change of the node fixed `v` to: probing `v` to such a value would
    /// succeed and fix nothing new (propagation is monotone: it reaches a part of the fixpoint
    /// that probe reached without conflict), so it is skipped — the classic implied-literal
    /// skip of failed-literal probing in SAT solvers. The pass's outcome is unchanged.
    fn probe_passes(
        &mut self,
        probe: &Probe,
        n: usize,
        implied: &mut [Domain],
        touched: &mut Vec<u32>,
    ) -> Result<(), super::Conflict> {
        loop {
            let mut changed = false;
            for k in 0..n {
                let var = probe.var(k);
                for v in probe.values(self.dom(var)) {
                    if implied[var.index()].contains(v) {
                        continue;
                    }
                    if self.interrupted().is_some() {
                        return Err(super::Conflict);
                    }
                    self.push_level();
                    let ok = self.assign(var, v).is_ok() && self.propagate_with(probe.suspend).is_ok();
                    if ok {
                        self.note_implied(implied, touched);
                    }
                    self.pop_level();
                    self.probe_stats.runs += 1;
                    if self.interrupted().is_some() {
                        return Err(super::Conflict);
                    }
                    if !ok {
                        // `var = v` fails: remove it and go on with the next variable.
                        self.probe_stats.conflicts += 1;
                        if self.store.log.is_some() {
                            self.log_step("probe", StepKind::Probe, vec![Premise::not(var, v)]);
                        }
                        self.store.rule = "probe";
                        let r = self.store.restrict(var, Domain::ALL.without(v));
                        if let Some(log) = &mut self.store.log {
                            log.close();
                        }
                        r?;
                        self.propagate_with(probe.suspend)?;
                        // The node changed: earlier probes no longer vouch for anything.
                        for &x in touched.iter() {
                            implied[x as usize] = Domain::EMPTY;
                        }
                        touched.clear();
                        changed = true;
                        break;
                    }
                }
            }
            if !changed || probe.passes == Passes::One {
                return Ok(());
            }
        }
    }
}

/// A model on the engine searched by the core driver: root propagation, optional probing at
/// every node that still has something to decide, then the brancher's branches.
pub struct EngineSearch<B> {
    /// The engine (read it to decode a solution at a solution node).
    pub engine: Engine,
    /// The branching rule.
    pub brancher: B,
    /// Probing at every node, if any.
    pub probe: Option<Probe>,
    root: Root,
    /// Dead ends met so far (branches that failed to propagate, nodes without a branch).
    failures: u64,
    /// Conflict-driven learning, when the engine's limits ask for it ([`super::learn`]).
    learner: Option<Box<Learner>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Root {
    Pending,
    Done,
    Failed,
}

impl<B: Brancher> EngineSearch<B> {
    /// A search of `engine`'s model (root propagation happens at the first node).
    pub fn new(engine: Engine, brancher: B) -> Self {
        EngineSearch {
            engine,
            brancher,
            probe: None,
            root: Root::Pending,
            failures: 0,
            learner: None,
        }
    }
    /// The clauses learned so far, each with its conflict's facts and the solutions blocked
    /// before it.
    #[cfg(test)]
    pub(crate) fn learned(&self) -> Vec<(Vec<super::learn::Lit>, Vec<super::learn::Lit>, u64)> {
        self.learner.as_ref().map_or(Vec::new(), |l| l.trace.clone())
    }
    /// What learning did so far (`None`: the search did not learn).
    pub fn learn_stats(&self) -> Option<LearnStats> {
        self.learner.as_ref().filter(|l| l.active).map(|l| l.stats)
    }
    /// With probing at every node.
    pub fn with_probe(mut self, probe: Probe) -> Self {
        self.probe = Some(probe);
        self
    }
    /// Propagates the root now (without search): `false` when it finds a conflict.
    pub fn propagate_root(&mut self) -> bool {
        if self.root == Root::Pending {
            self.root = if self.engine.propagate().is_ok() {
                Root::Done
            } else {
                Root::Failed
            };
        }
        self.root == Root::Done
    }
}

impl<B: Brancher> Backtrack for EngineSearch<B> {
    type Branch = Decision;

    fn expand(&mut self, out: &mut Vec<Decision>) -> Expand {
        if !self.propagate_root() {
            return Expand::Dead;
        }
        if self.learner.is_none() && self.engine.learning.mode != LearnMode::Off {
            self.learner = Some(Box::new(Learner::new(
                self.engine.learning,
                self.engine.learn_counters.clone(),
            )));
        }
        if let Some(l) = self.learner.as_deref_mut() {
            if !l.active && l.wants_to_start(&self.engine) {
                l.start(&mut self.engine);
                if l.active && self.engine.level() > 0 {
                    // Unwinding to the root, where learning begins.
                    return Expand::Dead;
                }
            }
            if l.active {
                return l.expand(&mut self.engine, &mut self.brancher, self.probe.as_ref(), out);
            }
        }
        if self.engine.all_fixed() {
            self.plain_solution();
            return Expand::Solution;
        }
        if let Some(p) = self.probe.as_ref().filter(|p| self.failures >= p.after_failures) {
            if self.engine.probe(p).is_err() {
                self.failures += 1;
                return Expand::Dead;
            }
            if self.engine.all_fixed() {
                self.plain_solution();
                return Expand::Solution;
            }
        }
        let start = out.len();
        self.brancher.branch(&self.engine, out);
        if out.len() > start {
            Expand::Branches
        } else {
            self.failures += 1;
            Expand::Dead
        }
    }

    fn apply(&mut self, d: Decision) -> bool {
        if let Some(l) = self.learner.as_deref_mut() {
            if l.active {
                return l.apply(&mut self.engine, d);
            }
        }
        self.engine.push_level();
        if let Some(l) = self.learner.as_deref_mut() {
            l.plain_apply(&self.engine, d.var);
        }
        let ok = self.engine.restrict(d.var, d.dom).is_ok() && self.engine.propagate().is_ok();
        if !ok {
            self.failures += 1;
        }
        ok
    }

    fn undo(&mut self, _: Decision) {
        self.engine.pop_level();
        if let Some(l) = self.learner.as_deref_mut() {
            if l.active {
                l.undo(&self.engine);
            } else {
                l.plain_undo(&self.engine);
            }
        }
    }

    fn successor(&mut self, _: Decision) -> Option<Decision> {
        match self.learner.as_deref_mut() {
            Some(l) if l.active => l.successor(&mut self.engine),
            _ => None,
        }
    }

    fn interrupted(&self) -> Option<StopReason> {
        self.engine.interrupted()
    }
}

impl<B> EngineSearch<B> {
    /// The plain search met a solution: auto mode remembers it for its blocking clauses.
    fn plain_solution(&mut self) {
        if let Some(l) = self.learner.as_deref_mut() {
            l.plain_solution(&self.engine);
        }
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, … (`i ≥ 1`): the restart
/// budgets of M. Luby, A. Sinclair and D. Zuckerman, *Optimal speedup of Las Vegas
/// algorithms*, IPL 47 (1993).
pub fn luby(i: u64) -> u64 {
    let mut i = i.max(1);
    loop {
        // The smallest k with 2^k − 1 ≥ i.
        let k = 64 - i.leading_zeros() as u64;
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// A search whose tie-breaking can be reseeded between restarts.
pub trait Reseed {
    /// `0` = the deterministic order.
    fn reseed(&mut self, seed: u64);
}

impl<B: Brancher> Reseed for EngineSearch<B> {
    fn reseed(&mut self, seed: u64) {
        self.brancher.reseed(seed);
    }
}

/// Finds the first solution by runs of the driver with budgets `luby(i) · base` nodes (run 1
/// deterministic, run `i` reseeded with a hash of `i`), within the caller's node limit,
/// deadline and cancellation flag. A run that exhausts its tree proves there is no solution;
/// budgets grow without bound, so the search is complete. Statistics add up the runs.
pub fn solve_restarting<S: Backtrack + Reseed>(
    state: &mut S,
    limits: &Limits,
    base: u64,
    mut on_solution: impl FnMut(&mut S),
) -> SearchResult {
    let started = crate::time::Instant::now();
    let mut stats = Stats::default();
    let done = |solutions, stop, mut stats: Stats| {
        stats.elapsed_us = started.elapsed().as_micros() as u64;
        SearchResult { solutions, stop, stats }
    };
    let mut i = 1u64;
    loop {
        if let Some(why) = limits.interrupted() {
            return done(0, why, stats);
        }
        let budget = luby(i).saturating_mul(base.max(1));
        let left = limits.node_limit.map(|l| l.saturating_sub(stats.nodes));
        if left == Some(0) {
            return done(0, StopReason::NodeLimit, stats);
        }
        let run_limits = Limits {
            max_solutions: Some(1),
            node_limit: Some(left.map_or(budget, |l| l.min(budget))),
            ..limits.clone()
        };
        state.reseed(if i == 1 { 0 } else { mix(i) | 1 });
        let r = run(state, &run_limits, |s| {
            on_solution(s);
            Flow::Stop
        });
        stats.absorb(&r.stats);
        match r.stop {
            StopReason::NodeLimit if left.is_none_or(|l| l > budget) => i += 1,
            StopReason::Callback | StopReason::SolutionLimit => {
                return done(r.solutions, StopReason::SolutionLimit, stats)
            }
            stop => return done(r.solutions, stop, stats),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_luby_sequence_starts_as_published() {
        let v: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(v, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
