//! Variables, trailed integers and the one trail that undoes both; the [`Context`] through
//! which propagators read and narrow domains.
//!
//! Changes at level 0 (the root: givens, root propagation) are never undone, so they leave no
//! undo record on the trail.

use super::explain::{Change, Log, Premise, Step, StepKind};
use crate::domain::Domain;
use crate::search::{Limits, StopReason};
use crate::trail::Trail;
pub use crate::var::{VarId, BOOL, FALSE, TRUE};

/// A trailed integer: reversible propagator state (counters, chain ends) that the engine's
/// trail restores on backtracking, like the domains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IntId(pub u32);

/// A constraint cannot be satisfied in the current state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict;

/// One undo record of the trail.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Entry {
    /// A variable's domain before a change.
    Dom(u32, Domain),
    /// A trailed integer's value before a change.
    Int(u32, i64),
    /// The explanation log's length when a level was opened (restored on backtracking).
    Log(u32),
}

/// How often (in calls of [`Context::should_stop`] or engine steps) the clock is read.
const POLL_EVERY: u32 = 32;

/// The deadline and cancellation flag, polled by elapsed work.
#[derive(Clone, Debug, Default)]
pub(crate) struct Poll {
    limits: Limits,
    armed: bool,
    ticks: u32,
    pub(crate) stopped: Option<StopReason>,
    /// Set when the limits stopped the *building* of the model (a propagator's watches or a
    /// model's variables left out): the model is incomplete, so the engine stays interrupted
    /// for good, whatever limits are set later.
    pub(crate) sticky: Option<StopReason>,
}

impl Poll {
    pub(crate) fn set(&mut self, limits: &Limits) {
        self.limits = Limits {
            max_solutions: None,
            node_limit: None,
            ..limits.clone()
        };
        self.armed = self.limits.deadline.is_some() || self.limits.cancel.is_some();
        self.ticks = 0;
        self.stopped = self.sticky;
    }
    /// Counts one unit of work; every [`POLL_EVERY`] units the clock and the flag are read.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        if !self.armed {
            return false;
        }
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks % POLL_EVERY == 0 {
            self.stopped = self.limits.interrupted();
        }
        self.stopped.is_some()
    }
    /// [`Poll::tick`] for work that builds the model: once it says stop, the stop is
    /// [`Poll::sticky`].
    #[inline]
    pub(crate) fn building_tick(&mut self) -> bool {
        let stop = self.tick();
        if stop {
            self.sticky = self.stopped;
        }
        stop
    }
    /// The system refused memory while the model was built: the engine stops for good
    /// ([`StopReason::Memory`]), whatever limits are set later.
    pub(crate) fn refuse_memory(&mut self) {
        self.stopped = Some(StopReason::Memory);
        self.sticky = self.stopped;
    }
    /// Reads the clock now without recording anything.
    pub(crate) fn passed(&self) -> bool {
        self.stopped.is_some() || (self.armed && self.limits.interrupted().is_some())
    }
    /// Reads the clock now.
    pub(crate) fn check_now(&mut self) -> bool {
        if self.stopped.is_none() && self.armed {
            self.stopped = self.limits.interrupted();
        }
        self.stopped.is_some()
    }
}

/// The engine's state: domains, trailed integers, the trail, pending change events, the
/// optional explanation log and the limits.
#[derive(Clone, Debug, Default)]
pub struct Store {
    pub(crate) doms: Vec<Domain>,
    pub(crate) ints: Vec<i64>,
    pub(crate) trail: Trail<Entry>,
    /// `(var, old domain)` for every change not yet dispatched to the watchers.
    pub(crate) changed: Vec<(u32, Domain)>,
    /// Variables with more than one value.
    pub(crate) unfixed: u32,
    /// The variable whose domain would have become empty at the last conflict.
    pub(crate) emptied: Option<VarId>,
    /// The values the restriction that would have emptied it allowed.
    pub(crate) emptied_dom: Domain,
    /// While learning: where each domain change above the root came from.
    pub(crate) hist: Option<Box<super::learn::History>>,
    /// While learning: the learned clauses (read by the `nogood` propagator).
    pub(crate) nogoods: Option<Box<super::learn::Clauses>>,
    /// The rule currently making changes (its propagator's name), for the log.
    pub(crate) rule: &'static str,
    pub(crate) log: Option<Log>,
    /// The level rules that work only at the root treat as the root ([`Context::at_root`]):
    /// 0, or the level of the last [`Engine::push_root`](super::Engine::push_root).
    pub(crate) root: usize,
    /// The running propagator pauses after its first change ([`Context::pause_requested`]).
    pub(crate) pause: bool,
    /// The running propagator was told to pause and left work for its next run.
    pub(crate) paused_early: bool,
    /// While explaining: the level of each technique a propagator may name, and the highest
    /// level allowed now ([`Context::allows`]).
    pub(crate) rule_levels: Vec<(&'static str, u8)>,
    pub(crate) rule_cap: u8,
    /// The running propagator left a technique out because of `rule_cap`.
    pub(crate) refused: bool,
    pub(crate) poll: Poll,
    /// Number of domain changes made so far.
    pub(crate) changes: u64,
    /// Count the values removed ([`crate::engine::Engine::count_rules`]).
    pub(crate) counting: bool,
    /// Values removed so far, while counting.
    pub(crate) removed: u64,
}

impl Store {
    pub(crate) fn new_var(&mut self, d: Domain) -> VarId {
        let v = VarId::from_index(self.doms.len());
        self.doms.push(d);
        if !d.is_single() {
            self.unfixed += 1;
        }
        v
    }

    pub(crate) fn new_int(&mut self, value: i64) -> IntId {
        self.ints.push(value);
        IntId(self.ints.len() as u32 - 1)
    }

    /// Narrows `v` to `d ∩ dom(v)`. `Ok(true)` when it shrank; `Err` (and no change) when it
    /// would become empty.
    #[inline]
    pub(crate) fn restrict(&mut self, v: VarId, d: Domain) -> Result<bool, Conflict> {
        let old = self.doms[v.index()];
        let new = old.and(d);
        if new == old {
            return Ok(false);
        }
        if new.is_empty() {
            self.emptied = Some(v);
            self.emptied_dom = d;
            return Err(Conflict);
        }
        // Level 0 is never undone: no undo record there.
        if self.trail.level() > 0 {
            self.trail.push(Entry::Dom(v.0, old));
        }
        self.doms[v.index()] = new;
        if new.is_single() {
            // `old` had more than one value: it shrank and was not empty.
            self.unfixed -= 1;
        }
        self.changed.push((v.0, old));
        self.changes += 1;
        if self.counting {
            self.removed += u64::from(old.len() - new.len());
        }
        if let Some(log) = &mut self.log {
            log.record(
                self.rule,
                Change {
                    var: v,
                    removed: old.minus(new),
                },
            );
            if let Some(h) = &mut self.hist {
                let level = self.trail.level();
                if level > 0 {
                    let step = log.steps.len() as u32 - 1;
                    h.push(v.0, level as u32, step, old.minus(new), new);
                }
            }
        }
        Ok(true)
    }

    #[inline]
    pub(crate) fn set_int(&mut self, id: IntId, value: i64) {
        let old = std::mem::replace(&mut self.ints[id.0 as usize], value);
        if old != value && self.trail.level() > 0 {
            self.trail.push(Entry::Int(id.0, old));
        }
    }

    pub(crate) fn push_level(&mut self) {
        self.trail.new_level();
        if let Some(log) = &self.log {
            self.trail.push(Entry::Log(log.steps.len() as u32));
        }
    }

    pub(crate) fn backtrack_to(&mut self, level: usize) {
        let (doms, ints, log, unfixed) = (&mut self.doms, &mut self.ints, &mut self.log, &mut self.unfixed);
        self.trail.backtrack_to(level, |e| match e {
            Entry::Dom(v, old) => {
                let cur = &mut doms[v as usize];
                if cur.is_single() && !old.is_single() {
                    *unfixed += 1;
                }
                *cur = old;
            }
            Entry::Int(i, old) => ints[i as usize] = old,
            Entry::Log(len) => {
                if let Some(log) = log {
                    log.steps.truncate(len as usize);
                }
            }
        });
        if let Some(h) = &mut self.hist {
            h.backtrack_to(level);
        }
        self.changed.clear();
    }
}

/// What a propagator sees: the domains (read and narrow), the trailed integers, the
/// explanation log and the limits. See the [module docs](super) for the contract.
pub struct Context<'a> {
    pub(crate) store: &'a mut Store,
    /// The running propagator's buffered events (see `Init::watch_buffered`).
    pub(crate) events: &'a [u32],
}

impl<'a> Context<'a> {
    /// The tags of the buffered watches (`Init::watch_buffered`) whose variables changed
    /// since the propagator last ran, in order (one per change). Empty for other propagators.
    /// (The slice does not borrow the context: narrow domains while walking it.)
    #[inline]
    pub fn events(&self) -> &'a [u32] {
        self.events
    }
}

impl Context<'_> {
    /// The domain of `v`.
    #[inline]
    pub fn dom(&self, v: VarId) -> Domain {
        self.store.doms[v.index()]
    }
    /// The decision level: 0 at the root, one more for each assumption (a search's branch, a
    /// trial or a probe) in force.
    #[inline]
    pub fn level(&self) -> usize {
        self.store.trail.level()
    }
    /// At the root: no assumption in force. Rules that work only at the root (the line
    /// toolkit's whole-line rules) ask this rather than `level() == 0`, so a replay under
    /// [`Engine::push_root`](super::Engine::push_root) runs them as at the root.
    #[inline]
    pub fn at_root(&self) -> bool {
        self.store.trail.level() <= self.store.root
    }
    /// How many assumptions are in force below the root of [`Context::at_root`] (0 at the
    /// root): rules that run only near the root ask it.
    #[inline]
    pub fn below_root(&self) -> usize {
        self.store.trail.level().saturating_sub(self.store.root)
    }
    /// The value of `v` when it is fixed.
    #[inline]
    pub fn value(&self, v: VarId) -> Option<u32> {
        self.store.doms[v.index()].value()
    }
    /// Is `v` fixed (one value left)?
    #[inline]
    pub fn is_fixed(&self, v: VarId) -> bool {
        self.store.doms[v.index()].is_single()
    }
    /// Is the Boolean `v` fixed to true?
    #[inline]
    pub fn is_true(&self, v: VarId) -> bool {
        self.store.doms[v.index()] == Domain::single(TRUE)
    }
    /// Is the Boolean `v` fixed to false?
    #[inline]
    pub fn is_false(&self, v: VarId) -> bool {
        self.store.doms[v.index()] == Domain::single(FALSE)
    }
    /// Narrows `v` to `d ∩ dom(v)`: `Ok(true)` when it shrank, `Err` when it would become
    /// empty (nothing changes then).
    #[inline]
    pub fn restrict(&mut self, v: VarId, d: Domain) -> Result<bool, Conflict> {
        self.store.restrict(v, d)
    }
    /// Removes `value` from `v`.
    #[inline]
    pub fn remove(&mut self, v: VarId, value: u32) -> Result<bool, Conflict> {
        self.store.restrict(v, Domain::ALL.without(value))
    }
    /// Removes every value of `values` from `v`.
    #[inline]
    pub fn remove_all(&mut self, v: VarId, values: Domain) -> Result<bool, Conflict> {
        self.store.restrict(v, Domain(!values.0))
    }
    /// Fixes `v` to `value`.
    #[inline]
    pub fn assign(&mut self, v: VarId, value: u32) -> Result<bool, Conflict> {
        self.store.restrict(v, Domain::single(value))
    }
    /// Fixes the Boolean `v`.
    #[inline]
    pub fn set(&mut self, v: VarId, value: bool) -> Result<bool, Conflict> {
        self.store.restrict(v, Domain::single(if value { TRUE } else { FALSE }))
    }
    /// A trailed integer's value.
    #[inline]
    pub fn int(&self, id: IntId) -> i64 {
        self.store.ints[id.0 as usize]
    }
    /// Sets a trailed integer (restored on backtracking).
    #[inline]
    pub fn set_int(&mut self, id: IntId, value: i64) {
        self.store.set_int(id, value)
    }
    /// Is an explanation being recorded? Propagators build premises only when it is.
    #[inline]
    pub fn explaining(&self) -> bool {
        self.store.log.is_some()
    }
    /// Starts a new explanation step of the running rule: the changes that follow rest on
    /// `premises` (each `(var, dom)` says "`var`'s domain was within `dom`"). A no-op when no
    /// explanation is recorded; call it only under [`Context::explaining`] when building the
    /// premises costs anything.
    #[inline]
    pub fn because(&mut self, premises: impl IntoIterator<Item = Premise>) {
        let rule = self.store.rule;
        self.because_rule(rule, premises)
    }
    /// [`Context::because`] under another rule name (for propagators that apply several
    /// named techniques).
    pub fn because_rule(&mut self, rule: &'static str, premises: impl IntoIterator<Item = Premise>) {
        if let Some(log) = &mut self.store.log {
            log.open(Step {
                rule,
                by: self.store.rule,
                kind: StepKind::Deduction,
                premises: premises.into_iter().collect(),
                changes: Vec::new(),
                focus: None,
            });
        }
    }
    /// Says what the step just opened ([`Context::because`]) is about: the `cells` a `value`
    /// is confined to in `group` (pointing), a subset's cells. Explanations name them.
    pub fn focus(&mut self, cells: Vec<VarId>, value: Option<u32>, group: Vec<VarId>) {
        if let Some(log) = &mut self.store.log {
            log.focus(super::explain::Focus { cells, value, group });
        }
    }
    /// Counts a unit of work and says whether the deadline passed or the run was cancelled
    /// (the clock is read every few calls). A long propagator calls it in its loops and, when
    /// it returns true, returns `Ok(())` at once without further changes; the engine then
    /// reports the interruption.
    #[inline]
    pub fn should_stop(&mut self) -> bool {
        self.store.poll.tick()
    }
    /// True when the running propagator should return now: it is pausing
    /// ([`Engine::set_pausing`](super::Engine::set_pausing)) and has already changed a domain
    /// in this run. A rule that makes several steps per run checks it between steps and, when
    /// told to, remembers what it has not examined yet and returns `Ok(())`: the engine runs
    /// it again (incrementally) after the simpler rules. Never true outside explanations.
    #[inline]
    pub fn pause_requested(&mut self) -> bool {
        let now = self.store.pause && !self.store.changed.is_empty();
        self.store.paused_early |= now;
        now
    }
    /// Whether the running propagator may apply the technique `rule` now. Always true, except
    /// under a level cap ([`Engine::set_rule_cap`](super::Engine::set_rule_cap): explaining, or
    /// testing whether the rules up to a level solve a puzzle):
    /// a propagator that applies techniques of several levels asks before each one above
    /// its own and skips those refused; it runs again from scratch when the cap rises.
    pub fn allows(&mut self, rule: &str) -> bool {
        if self.store.rule_cap == u8::MAX {
            return true;
        }
        let ok = self
            .store
            .rule_levels
            .iter()
            .find(|(r, _)| *r == rule)
            .is_none_or(|&(_, l)| l <= self.store.rule_cap);
        self.store.refused |= !ok;
        ok
    }
    /// Whether the deadline has passed or the run was cancelled, read now, without counting
    /// work or recording the stop: for a long loop that holds the context borrowed (a fill
    /// whose callbacks read domains). After such a loop gave up, call
    /// [`Context::check_limits`] to record the stop, then return `Ok(())` as after
    /// [`Context::should_stop`].
    pub fn limits_passed(&self) -> bool {
        self.store.poll.passed()
    }
    /// Reads the clock now and records an interruption; true when the limits stopped the run.
    pub fn check_limits(&mut self) -> bool {
        self.store.poll.check_now()
    }
}

/// What [`Propagator::notify`](super::Propagator::notify) may touch: the trailed integers.
pub struct Ints<'a> {
    pub(crate) ints: &'a mut Vec<i64>,
    pub(crate) trail: &'a mut Trail<Entry>,
    pub(crate) root: usize,
}

impl Ints<'_> {
    /// The decision level, as [`Context::level`].
    #[inline]
    pub fn level(&self) -> usize {
        self.trail.level()
    }
    /// At the root, as [`Context::at_root`].
    #[inline]
    pub fn at_root(&self) -> bool {
        self.trail.level() <= self.root
    }
    /// Assumptions in force below the root, as [`Context::below_root`].
    #[inline]
    pub fn below_root(&self) -> usize {
        self.trail.level().saturating_sub(self.root)
    }
    /// A trailed integer's value.
    #[inline]
    pub fn get(&self, id: IntId) -> i64 {
        self.ints[id.0 as usize]
    }
    /// Sets a trailed integer (restored on backtracking).
    #[inline]
    pub fn set(&mut self, id: IntId, value: i64) {
        let old = std::mem::replace(&mut self.ints[id.0 as usize], value);
        if old != value && self.trail.level() > 0 {
            self.trail.push(Entry::Int(id.0, old));
        }
    }
    /// Adds `delta` to a trailed integer; returns the new value.
    #[inline]
    pub fn add(&mut self, id: IntId, delta: i64) -> i64 {
        let x = &mut self.ints[id.0 as usize];
        if delta != 0 {
            if self.trail.level() > 0 {
                self.trail.push(Entry::Int(id.0, *x));
            }
            *x += delta;
        }
        *x
    }
}
