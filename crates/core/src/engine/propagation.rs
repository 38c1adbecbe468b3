//! [`Engine`]: variables, posted propagators, the priority queue and the fixpoint loop.

use super::explain::{Log, Premise, Step, StepKind};
use super::propagator::{Declared, Delivery, Init, Priority, Propagator, Watch};
use super::store::{Conflict, Context, IntId, Ints, Store, VarId, BOOL};
use crate::domain::Domain;
use crate::search::{Limits, StopReason};

/// Grid-sized loops of the engine (copying and indexing watches) poll the limits once per
/// this many items.
const POLL_CHUNK: usize = 1024;

/// A vector of `len` items copied from `from` (cycled: one item repeats it), built in chunks
/// that poll the limits as model-building work; `None` when they stopped it (then for good).
fn filled<T: Copy>(poll: &mut super::store::Poll, len: usize, from: &[T]) -> Option<Vec<T>> {
    let mut v = Vec::new();
    if v.try_reserve_exact(len).is_err() {
        // Refused memory stops the engine for good, like a deadline met while building.
        poll.refuse_memory();
        return None;
    }
    while v.len() < len {
        if poll.building_tick() {
            return None;
        }
        let k = (len - v.len()).min(POLL_CHUNK);
        if from.len() == 1 {
            v.resize(v.len() + k, from[0]);
        } else {
            let at = v.len();
            v.extend_from_slice(&from[at..at + k]);
        }
    }
    Some(v)
}

/// A posted propagator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PropId(pub u32);

/// Counters of one rule (summed over the propagators that share its name).
///
/// `runs` and `conflicts` are always counted (an add each per run). `removed` and `time_ns`
/// are counted only while [`Engine::count_rules`] is on (`study`, `--stats` with
/// [`crate::search::Limits::counters`]); off, they stay 0 and cost one predictable branch per
/// propagator run and per domain change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RuleStats {
    /// Times a propagator of the rule ran (`probe`: values probed).
    pub runs: u64,
    /// Conflicts it found (branches and probes it refuted).
    pub conflicts: u64,
    /// Values it removed from domains (`probe`: the values its refutations removed).
    pub removed: u64,
    /// Time spent in its runs, in nanoseconds: every [`TIME_SAMPLE`]th run of each propagator
    /// is timed and the sum scaled to all its runs (`probe`: every probing pass timed, the
    /// propagation it ran included).
    pub time_ns: u64,
}

impl RuleStats {
    /// Adds another count of the same rule.
    pub fn absorb(&mut self, o: &RuleStats) {
        self.runs += o.runs;
        self.conflicts += o.conflicts;
        self.removed += o.removed;
        self.time_ns += o.time_ns;
    }
}

/// With [`Engine::count_rules`] on, one propagator run in this many is timed (the first, then
/// every `TIME_SAMPLE`th): reading the clock twice costs about as much as a cheap run, so
/// timing every run would distort the times it measures.
pub const TIME_SAMPLE: u64 = 16;

struct Meta {
    name: &'static str,
    stats: RuleStats,
    /// Runs timed (with counting on) and their total time.
    sampled: u64,
    sampled_ns: u64,
}

/// What the dispatch loop reads for every watch, kept apart from [`Meta`] in five bytes.
#[derive(Clone, Copy)]
struct Hot {
    level: u8,
    enabled: bool,
    queued: bool,
    /// Its own changes neither notify nor queue it ([`Propagator::idempotent`]).
    idempotent: bool,
    /// Run `propagate` (from scratch) rather than `incremental` at the next turn: a run from
    /// scratch reads the domains, not the events, so none are buffered for it meanwhile.
    scratch: bool,
    /// While explaining, propagation pauses after a run of it that changed something
    /// ([`Engine::set_pausing`]).
    pausing: bool,
    /// Held ([`Engine::set_held`]): it stays queued and keeps its events, but does not run.
    held: bool,
    /// It left a technique out for the level cap ([`Engine::set_rule_cap`]).
    refused: bool,
}

/// Propagation: a store of variables, the propagators posted on them and a queue ordered by
/// [`Priority`]. See the [module docs](super) for the whole picture.
///
/// ```
/// use pencilbox_core::engine::Engine;
/// use pencilbox_core::constraints::Distinct;
/// use pencilbox_core::Domain;
/// // Three cells that take 1..3 once each; the first is 2, the second is not 1.
/// let mut e = Engine::new();
/// let x: Vec<_> = (0..3).map(|_| e.new_var(Domain::range(1, 3))).collect();
/// let mut d = Distinct::new();
/// d.permutation(&x, Domain::range(1, 3));
/// d.post(&mut e, Default::default());
/// e.assign(x[0], 2).unwrap();
/// e.remove(x[1], 1).unwrap();
/// e.propagate().unwrap();
/// assert_eq!((e.value(x[1]), e.value(x[2])), (Some(3), Some(1)));
/// ```
pub struct Engine {
    pub(crate) store: Store,
    props: Vec<Box<dyn Propagator>>,
    meta: Vec<Meta>,
    hot: Vec<Hot>,
    /// The watches of variable `v`: `watch_list[watch_start[v]..watch_start[v + 1]]` (built
    /// from `posted` when a propagator was posted since: one allocation, contiguous reads).
    watch_start: Vec<u32>,
    watch_list: Vec<Watch>,
    /// Every watch declared so far, `(variable, watch)`, in posting order.
    posted: Vec<(u32, Watch)>,
    /// `watch_start`/`watch_list` are behind `posted` or the variables.
    watches_stale: bool,
    /// Scratch for the watches a propagator declares when posted.
    declared: Vec<Declared>,
    /// Per propagator, the tags of its buffered watches that changed since it last ran.
    events: Vec<Vec<u32>>,
    /// Propagators without watches: woken by every change.
    everywhere: Vec<u32>,
    on_backtrack: Vec<u32>,
    queues: [Vec<u32>; Priority::LEVELS],
    heads: [usize; Priority::LEVELS],
    /// Propagators at this level and above do not run (probing suspends costly rules).
    ceiling: usize,
    /// The propagator that found the last conflict.
    last_conflict: Option<PropId>,
    /// The variable whose domain the last conflict would have emptied, if it emptied one.
    conflict_var: Option<VarId>,
    /// Failure weights of the variables (dom/wdeg).
    pub(crate) weights: Vec<u32>,
    /// The last [`Engine::propagate`] stopped after a pausing rule's step
    /// ([`Engine::set_pausing`]).
    paused: bool,
    /// Held propagators taken off the queue (still marked queued, see [`Engine::set_held`]).
    held_queue: Vec<u32>,
    /// Values probed and values refuted by [`Engine::probe`].
    pub(crate) probe_stats: RuleStats,
    /// Scratch of [`Engine::probe`]: per variable, the values a successful probe of the
    /// current pass fixed it to.
    pub(crate) implied: Vec<Domain>,
    /// The learning settings of the searches on this engine (from [`Engine::set_limits`]).
    pub(crate) learning: super::learn::Learning,
    pub(crate) learn_counters: Option<std::sync::Arc<super::learn::LearnCounters>>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An empty engine.
    pub fn new() -> Self {
        Engine {
            store: Store {
                rule: "decision",
                rule_cap: u8::MAX,
                ..Store::default()
            },
            props: Vec::new(),
            meta: Vec::new(),
            hot: Vec::new(),
            watch_start: Vec::new(),
            watch_list: Vec::new(),
            posted: Vec::new(),
            watches_stale: false,
            declared: Vec::new(),
            events: Vec::new(),
            everywhere: Vec::new(),
            on_backtrack: Vec::new(),
            queues: std::array::from_fn(|_| Vec::with_capacity(64)),
            heads: [0; Priority::LEVELS],
            ceiling: Priority::LEVELS,
            last_conflict: None,
            conflict_var: None,
            weights: Vec::new(),
            paused: false,
            held_queue: Vec::new(),
            probe_stats: RuleStats::default(),
            implied: Vec::new(),
            learning: Default::default(),
            learn_counters: None,
        }
    }

    // ----- variables --------------------------------------------------------------------

    /// A new variable with an initial domain.
    pub fn new_var(&mut self, d: Domain) -> VarId {
        self.watches_stale = true;
        self.weights.push(1);
        self.store.new_var(d)
    }
    /// Makes room for `vars` more variables (and, as a guess, as many trailed integers, a few
    /// watches each, a trail of some depth and a few propagators), so that building a model
    /// does not grow the engine's vectors step by step. The room is asked with `try_reserve`:
    /// when the system refuses it, the engine stops for good with [`StopReason::Memory`]
    /// (the builder then stops as at a deadline, and the run reports the refusal instead of
    /// aborting the process) and `false` is returned.
    pub fn reserve(&mut self, vars: usize) -> bool {
        let props = 8.max(vars / 4);
        let s = &mut self.store;
        let ok = s.doms.try_reserve(vars).is_ok()
            && s.ints.try_reserve(vars).is_ok()
            && s.changed.try_reserve(vars).is_ok()
            && s.trail.try_reserve(4 * vars)
            && self.weights.try_reserve(vars).is_ok()
            && self.posted.try_reserve(6 * vars).is_ok()
            && self.declared.try_reserve(2 * vars).is_ok()
            // A model posts a handful of propagators or one per constraint.
            && self.props.try_reserve(props).is_ok()
            && self.meta.try_reserve(props).is_ok()
            && self.hot.try_reserve(props).is_ok()
            && self.events.try_reserve(props).is_ok();
        if !ok {
            self.store.poll.refuse_memory();
        }
        ok
    }
    /// Records that the system refused memory to the model's builder: the engine stops for
    /// good with [`StopReason::Memory`] (see [`Engine::reserve`]).
    pub fn refuse_memory(&mut self) {
        self.store.poll.refuse_memory();
    }
    /// Makes room for `additional` more items in a model builder's grid-sized vector `v`;
    /// when the system refuses the memory, the engine stops for good with
    /// [`StopReason::Memory`] (as [`Engine::reserve`]) and `false` is returned: the builder
    /// stops where it is, and the incomplete model is never searched.
    pub fn try_reserve<T>(&mut self, v: &mut Vec<T>, additional: usize) -> bool {
        if v.try_reserve(additional).is_ok() {
            return true;
        }
        self.store.poll.refuse_memory();
        false
    }
    /// A new Boolean variable (`{FALSE, TRUE}`).
    pub fn new_bool(&mut self) -> VarId {
        self.new_var(BOOL)
    }
    /// A new trailed integer (reversible state outside any propagator).
    pub fn new_int(&mut self, value: i64) -> IntId {
        self.store.new_int(value)
    }
    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.store.doms.len()
    }
    /// The domain of `v`.
    #[inline]
    pub fn dom(&self, v: VarId) -> Domain {
        self.store.doms[v.index()]
    }
    /// Every domain, by variable index.
    #[inline]
    pub fn domains(&self) -> &[Domain] {
        &self.store.doms
    }
    /// The value of `v` when fixed.
    #[inline]
    pub fn value(&self, v: VarId) -> Option<u32> {
        self.dom(v).value()
    }
    /// Is every variable fixed?
    #[inline]
    pub fn all_fixed(&self) -> bool {
        self.store.unfixed == 0
    }
    /// A trailed integer's value.
    pub fn int(&self, id: IntId) -> i64 {
        self.store.ints[id.0 as usize]
    }
    /// Number of domain changes made so far (decisions, deductions, probes).
    pub fn changes(&self) -> u64 {
        self.store.changes
    }
    /// The failure weight of `v` (dom/wdeg): one plus the conflicts at which its domain would
    /// have become empty. Weights persist across backtracking and restarts; a model's own
    /// brancher reads them here.
    #[inline]
    pub fn weight(&self, v: VarId) -> u32 {
        self.weights[v.index()]
    }

    // ----- decisions --------------------------------------------------------------------

    /// Narrows `v` to `d ∩ dom(v)` from outside propagation (a decision or a given); run
    /// [`Engine::propagate`] afterwards.
    pub fn restrict(&mut self, v: VarId, d: Domain) -> Result<bool, Conflict> {
        self.store.rule = "decision";
        if let Some(log) = &mut self.store.log {
            log.open(Step {
                rule: "decision",
                by: "decision",
                kind: StepKind::Decision,
                premises: Vec::new(),
                changes: Vec::new(),
                focus: None,
            });
        }
        let r = self.store.restrict(v, d);
        if let Some(log) = &mut self.store.log {
            log.close();
        }
        r
    }
    /// Fixes `v` to `value` (see [`Engine::restrict`]).
    pub fn assign(&mut self, v: VarId, value: u32) -> Result<bool, Conflict> {
        self.restrict(v, Domain::single(value))
    }
    /// Removes `value` from `v` (see [`Engine::restrict`]).
    pub fn remove(&mut self, v: VarId, value: u32) -> Result<bool, Conflict> {
        self.restrict(v, Domain::ALL.without(value))
    }

    // ----- propagators ------------------------------------------------------------------

    /// Posts a propagator; it runs from scratch at the next [`Engine::propagate`].
    pub fn post(&mut self, p: impl Propagator + 'static) -> PropId {
        self.post_boxed(Box::new(p))
    }

    /// Posts a boxed propagator.
    pub fn post_boxed(&mut self, mut p: Box<dyn Propagator>) -> PropId {
        // Changes made before this post (a given fixed with `assign`) go to the propagators
        // already posted; the new one sees them in the domains its `init` reads, and must not
        // receive them again as events (its trailed counters would count them twice).
        self.dispatch(None);
        let id = self.props.len() as u32;
        self.declared.clear();
        let mut init = Init {
            store: &mut self.store,
            watches: &mut self.declared,
            on_backtrack: false,
        };
        p.init(&mut init);
        let on_backtrack = init.on_backtrack;
        if self.declared.is_empty() {
            self.everywhere.push(id);
        }
        if self.posted.try_reserve(self.declared.len()).is_err() {
            self.store.poll.refuse_memory();
        }
        // A grid-sized copy: polled once per chunk, and left incomplete (the engine then stays
        // interrupted for good) once the limits stop the run.
        for chunk in self.declared.chunks(POLL_CHUNK) {
            if self.store.poll.building_tick() {
                break;
            }
            self.posted.extend(chunk.iter().map(|&(v, tag, removed, delivery)| {
                (
                    v.0,
                    Watch {
                        prop: id,
                        tag,
                        removed,
                        delivery,
                    },
                )
            }));
        }
        self.watches_stale = true;
        let buffered = self.declared.iter().filter(|d| d.3 == Delivery::Buffer).count();
        self.events.push(Vec::with_capacity(buffered));
        if on_backtrack {
            self.on_backtrack.push(id);
        }
        let level = p.priority() as u8;
        self.meta.push(Meta {
            name: p.name(),
            stats: RuleStats::default(),
            sampled: 0,
            sampled_ns: 0,
        });
        self.hot.push(Hot {
            level,
            enabled: true,
            queued: false,
            idempotent: p.idempotent(),
            scratch: true,
            pausing: false,
            held: false,
            refused: false,
        });
        self.props.push(p);
        self.enqueue(id);
        PropId(id)
    }

    /// Writes every posted constraint into `enc` ([`crate::encode`]); the first rule without an
    /// encoding is the error. Switched-off rules are written too: the model's meaning does
    /// not depend on which deductions run.
    /// An encoder that halted ([`crate::encode::Encoder::halted`]: its limits or budget)
    /// gets no more constraints.
    pub fn encode(&self, enc: &mut crate::encode::Encoder<'_>) -> Result<(), crate::encode::Unsupported> {
        for p in &self.props {
            if enc.halted().is_some() {
                break;
            }
            if p.encode(enc) == crate::encode::Encoded::Unsupported {
                return Err(crate::encode::Unsupported { rule: p.name() });
            }
        }
        Ok(())
    }

    /// Switches every propagator called `name` on or off; returns how many there are. A
    /// switched-off propagator is never run or notified (switching it on again runs it from
    /// scratch).
    pub fn set_enabled(&mut self, name: &str, on: bool) -> usize {
        let mut n = 0;
        for id in 0..self.meta.len() {
            if self.meta[id].name == name {
                n += 1;
                let was = self.hot[id].enabled;
                self.hot[id].enabled = on;
                if on && !was {
                    self.hot[id].scratch = true;
                    self.enqueue(id as u32);
                }
            }
        }
        n
    }

    /// Whether some propagator called `name` is switched on ([`Engine::set_enabled`]).
    pub fn is_enabled(&self, name: &str) -> bool {
        (0..self.meta.len()).any(|id| self.meta[id].name == name && self.hot[id].enabled)
    }

    /// Marks every propagator named `name` as *pausing* (or not); returns how many there are.
    ///
    /// While the explanation log is on ([`Engine::explain`]), a run of a pausing propagator
    /// that changes anything ends [`Engine::propagate`] early, with `Ok` and
    /// [`Engine::paused`] true: its changes are dispatched and the rest of the queue waits. A
    /// long run may stop at its first step, where it checks [`Context::pause_requested`]; it
    /// then keeps what it has not examined yet and is queued again. The levelled explainer
    /// ([`crate::human`]) pauses its harder rules, so that after each of their steps the
    /// simpler rules get the first look again, as a person solves. With the log off (search,
    /// trials) nothing pauses.
    pub fn set_pausing(&mut self, name: &str, on: bool) -> usize {
        let mut n = 0;
        for id in 0..self.meta.len() {
            if self.meta[id].name == name {
                self.hot[id].pausing = on;
                n += 1;
            }
        }
        n
    }

    /// Holds every propagator named `name` (or lets it go); returns how many there are.
    ///
    /// A held propagator is queued and told of changes as usual, but does not run until it is
    /// let go; then it catches up *incrementally* from its buffered events. That is what a
    /// levelled explainer needs: switching a rule off and on ([`Engine::set_enabled`]) makes it
    /// rerun from scratch, holding it does not.
    pub fn set_held(&mut self, name: &str, on: bool) -> usize {
        let mut n = 0;
        for id in 0..self.meta.len() {
            if self.meta[id].name == name {
                self.hot[id].held = on;
                n += 1;
            }
        }
        if !on {
            let mut waiting = std::mem::take(&mut self.held_queue);
            waiting.retain(|&p| {
                let h = &self.hot[p as usize];
                if h.held {
                    return true;
                }
                if h.queued {
                    self.queues[h.level as usize].push(p);
                }
                false
            });
            self.held_queue = waiting;
        }
        n
    }

    /// Caps the techniques propagators may apply ([`Context::allows`]):
    /// `levels` gives each technique's level, `cap` the highest allowed (`u8::MAX`: all). When
    /// the cap rises, every propagator that left a technique out reruns from scratch.
    pub fn set_rule_cap(&mut self, levels: &[(&'static str, u8)], cap: u8) {
        if self.store.rule_levels.as_slice() != levels {
            self.store.rule_levels = levels.to_vec();
        }
        let rising = cap > self.store.rule_cap;
        self.store.rule_cap = cap;
        if rising {
            for p in 0..self.hot.len() {
                if std::mem::take(&mut self.hot[p].refused) {
                    self.hot[p].scratch = true;
                    self.enqueue(p as u32);
                }
            }
        }
    }

    /// The last [`Engine::propagate`] stopped after a step of a pausing rule
    /// ([`Engine::set_pausing`]) rather than at a fixpoint.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// The distinct rule names posted, in posting order.
    pub fn rule_names(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Vec::new();
        for m in &self.meta {
            if !names.contains(&m.name) {
                names.push(m.name);
            }
        }
        names
    }

    /// Counters per rule name, in posting order; then, once [`Engine::probe`] has run,
    /// `probe`: the values it tried (`runs`) and refuted (`conflicts`). With
    /// [`Engine::count_rules`] on, also the values each removed and its (sampled) time.
    pub fn rule_stats(&self) -> Vec<(&'static str, RuleStats)> {
        let mut out: Vec<(&'static str, RuleStats)> = Vec::new();
        for m in &self.meta {
            let mut st = m.stats;
            // The sampled time scaled to every run.
            st.time_ns = (m.sampled_ns as u128 * m.stats.runs as u128)
                .checked_div(m.sampled as u128)
                .map_or(0, |t| t.min(u64::MAX as u128) as u64);
            match out.iter_mut().find(|(n, _)| *n == m.name) {
                Some((_, s)) => s.absorb(&st),
                None => out.push((m.name, st)),
            }
        }
        if self.probe_stats.runs > 0 {
            let mut st = self.probe_stats;
            if self.store.counting {
                st.removed = st.conflicts;
            }
            out.push(("probe", st));
        }
        out
    }

    /// Switches the costly counters on or off: the values each rule removes and its time
    /// ([`RuleStats`]). Off (the default), they cost one predictable branch per propagator
    /// run and per domain change (measured in BENCHMARKS.md, "Rule counters"). Also set by
    /// [`Engine::set_limits`] from [`crate::search::Limits::counters`].
    pub fn count_rules(&mut self, on: bool) {
        self.store.counting = on;
    }

    /// Are the costly counters on ([`Engine::count_rules`])?
    pub fn counting_rules(&self) -> bool {
        self.store.counting
    }

    /// The propagator that found the last conflict, if one did.
    pub fn last_conflict(&self) -> Option<PropId> {
        self.last_conflict
    }

    /// The variable whose domain the last conflict of [`Engine::propagate`] would have
    /// emptied (`None` when that conflict was found without emptying a domain, such as a
    /// value with no place left in a group): where a model locates the trouble.
    pub fn conflict_var(&self) -> Option<VarId> {
        self.conflict_var
    }

    /// The name of a propagator.
    pub fn name_of(&self, p: PropId) -> &'static str {
        self.meta[p.0 as usize].name
    }

    #[inline]
    fn enqueue(&mut self, p: u32) {
        let h = &mut self.hot[p as usize];
        if !h.queued && h.enabled {
            h.queued = true;
            self.queues[h.level as usize].push(p);
        }
    }

    /// Queues every enabled propagator at `from` and above for a run from scratch.
    pub fn enqueue_from(&mut self, from: Priority) {
        for p in 0..self.meta.len() {
            if self.hot[p].level as usize >= from as usize {
                self.hot[p].scratch = true;
                self.enqueue(p as u32);
            }
        }
    }

    /// Queues every enabled propagator for a run from scratch.
    pub fn enqueue_all(&mut self) {
        self.enqueue_from(Priority::Immediate);
    }

    #[inline]
    fn next(&mut self) -> Option<u32> {
        for level in 0..self.ceiling {
            let q = &mut self.queues[level];
            let h = &mut self.heads[level];
            if *h < q.len() {
                let p = q[*h];
                *h += 1;
                if *h == q.len() {
                    q.clear();
                    *h = 0;
                }
                return Some(p);
            }
        }
        None
    }

    /// Lays the posted watches out by variable (a counting sort; posting order is kept).
    /// Grid-sized: polls the limits, and leaves the watches stale (the engine interrupted for
    /// good) when they stop the run.
    fn index_watches(&mut self) {
        let n = self.store.doms.len();
        let poll = &mut self.store.poll;
        let Some(mut start) = filled(poll, n + 1, &[0u32]) else {
            return;
        };
        // Polled once per chunk, so the inner loops stay as tight as unpolled ones.
        for chunk in self.posted.chunks(POLL_CHUNK) {
            if poll.building_tick() {
                return;
            }
            for &(v, _) in chunk {
                start[v as usize + 1] += 1;
            }
        }
        for base in (0..n).step_by(POLL_CHUNK) {
            if poll.building_tick() {
                return;
            }
            for i in base..(base + POLL_CHUNK).min(n) {
                start[i + 1] += start[i];
            }
        }
        let Some(mut next) = filled(poll, start.len(), &start) else {
            return;
        };
        let blank = Watch {
            prop: 0,
            tag: 0,
            removed: Domain::EMPTY,
            delivery: Delivery::Wake,
        };
        let Some(mut list) = filled(poll, self.posted.len(), &[blank]) else {
            return;
        };
        for chunk in self.posted.chunks(POLL_CHUNK) {
            if poll.building_tick() {
                return;
            }
            for &(v, w) in chunk {
                list[next[v as usize] as usize] = w;
                next[v as usize] += 1;
            }
        }
        self.watch_start = start;
        self.watch_list = list;
        self.watches_stale = false;
    }

    /// Sends the pending change events to the watchers; `source` made them (`None`: a
    /// decision or a given), and is skipped when it is idempotent.
    fn dispatch(&mut self, source: Option<u32>) {
        if self.store.changed.is_empty() {
            return;
        }
        if self.watches_stale {
            self.index_watches();
            if self.watches_stale {
                // The limits stopped the indexing: the engine is interrupted for good.
                self.store.changed.clear();
                return;
            }
        }
        let Engine {
            store,
            props,
            hot,
            watch_start,
            watch_list,
            everywhere,
            queues,
            events,
            ..
        } = self;
        let mut ints = Ints {
            ints: &mut store.ints,
            trail: &mut store.trail,
            root: store.root,
        };
        // An idempotent source is not told of its own changes.
        let skip = source.filter(|&s| hot[s as usize].idempotent).unwrap_or(u32::MAX);
        for &(v, old) in &store.changed {
            let new = store.doms[v as usize];
            let removed = old.minus(new);
            let (from, to) = (watch_start[v as usize], watch_start[v as usize + 1]);
            for w in &watch_list[from as usize..to as usize] {
                if removed.and(w.removed).is_empty() || w.prop == skip {
                    continue;
                }
                let p = w.prop as usize;
                let m = &mut hot[p];
                if !m.enabled {
                    continue;
                }
                match w.delivery {
                    Delivery::Notify => {
                        if !props[p].notify(&mut ints, w.tag, old, new) {
                            continue;
                        }
                    }
                    Delivery::Wake => {}
                    // A run from scratch ignores events: only queue it.
                    Delivery::Buffer if m.scratch => {}
                    Delivery::Buffer => events[p].push(w.tag),
                    Delivery::Fixed => {
                        if !new.is_single() || old.is_single() {
                            continue;
                        }
                        if !m.scratch {
                            events[p].push(w.tag);
                        }
                    }
                }
                if !m.queued {
                    m.queued = true;
                    queues[m.level as usize].push(w.prop);
                }
            }
        }
        store.changed.clear();
        for &p in everywhere.iter() {
            let m = &mut hot[p as usize];
            if m.enabled && !m.queued {
                m.queued = true;
                queues[m.level as usize].push(p);
            }
        }
    }

    /// Empties the queue after a conflict or an interruption, telling the propagators.
    fn abort(&mut self) {
        self.store.changed.clear();
        for p in std::mem::take(&mut self.held_queue) {
            self.hot[p as usize].queued = false;
            self.events[p as usize].clear();
            self.props[p as usize].backtracked();
        }
        for level in 0..Priority::LEVELS {
            let q = std::mem::take(&mut self.queues[level]);
            for &p in &q[self.heads[level]..] {
                self.hot[p as usize].queued = false;
                self.events[p as usize].clear();
                self.props[p as usize].backtracked();
            }
            self.queues[level] = q;
            self.queues[level].clear();
            self.heads[level] = 0;
        }
        if let Some(log) = &mut self.store.log {
            log.close();
        }
    }

    /// Runs the queue to a fixpoint. `Err` at a conflict (then backtrack: the state is
    /// inconsistent) or when the limits stopped propagation ([`Engine::interrupted`] says so).
    pub fn propagate(&mut self) -> Result<(), Conflict> {
        self.paused = false;
        // Two copies of the loop: the counting one only runs for studies, so the everyday
        // loop carries no test of the switch per propagator run.
        if self.store.counting {
            self.propagate_loop::<true>()
        } else {
            self.propagate_loop::<false>()
        }
    }

    /// The fixpoint loop of [`Engine::propagate`]; `COUNT`: count values removed and sample
    /// times per rule ([`Engine::count_rules`]).
    #[inline(always)]
    fn propagate_loop<const COUNT: bool>(&mut self) -> Result<(), Conflict> {
        if self.store.poll.stopped.is_some() {
            self.abort();
            return Err(Conflict);
        }
        self.dispatch(None);
        while let Some(p) = self.next() {
            let pi = p as usize;
            let h = &mut self.hot[pi];
            if h.held && h.enabled {
                // Stays queued, its events buffered, until let go (`set_held`).
                self.held_queue.push(p);
                continue;
            }
            h.queued = false;
            if !h.enabled {
                continue;
            }
            let scratch = std::mem::replace(&mut h.scratch, false);
            let pausing = h.pausing && self.store.log.is_some();
            self.store.pause = pausing;
            self.store.paused_early = false;
            self.store.refused = false;
            self.store.emptied = None;
            let m = &mut self.meta[pi];
            m.stats.runs += 1;
            self.store.rule = m.name;
            // Counting (study): the values removed, and the time of every TIME_SAMPLE-th run.
            let counting = COUNT.then(|| {
                let timed = m.stats.runs % TIME_SAMPLE == 1;
                (self.store.removed, timed.then(crate::time::Instant::now))
            });
            let mut events = std::mem::take(&mut self.events[pi]);
            let mut cx = Context {
                store: &mut self.store,
                events: &events,
            };
            let r = if scratch {
                self.props[pi].propagate(&mut cx)
            } else {
                self.props[pi].incremental(&mut cx)
            };
            self.hot[pi].refused |= self.store.refused;
            if let Some((removed, t0)) = counting {
                let m = &mut self.meta[pi];
                m.stats.removed += self.store.removed - removed;
                if let Some(t0) = t0 {
                    m.sampled += 1;
                    m.sampled_ns += t0.elapsed().as_nanos() as u64;
                }
            }
            // Keep the buffer's capacity (nothing was buffered for it during its own run).
            events.clear();
            self.events[pi] = events;
            let emptied = self.store.emptied;
            if let Some(log) = &mut self.store.log {
                if r.is_err() {
                    log.fail(self.store.rule, emptied);
                }
                log.close();
            }
            if r.is_err() {
                // The failing propagator may have stopped halfway through its remembered
                // events: it forgets them like the ones still queued.
                self.props[pi].backtracked();
                self.meta[pi].stats.conflicts += 1;
                self.last_conflict = Some(PropId(p));
                self.conflict_var = self.store.emptied.take();
                if let Some(v) = self.conflict_var {
                    self.weights[v.index()] += 1;
                }
                self.abort();
                return Err(Conflict);
            }
            if self.store.poll.tick() {
                self.props[pi].backtracked();
                self.abort();
                return Err(Conflict);
            }
            if pausing && !self.store.changed.is_empty() {
                // Pause (see `set_pausing`). A rule that stopped halfway runs again at its
                // next turn, after whatever its changes wake.
                self.store.pause = false;
                self.dispatch(Some(p));
                if self.store.paused_early {
                    self.enqueue(p);
                }
                self.paused = true;
                return Ok(());
            }
            self.dispatch(Some(p));
        }
        self.store.pause = false;
        Ok(())
    }

    /// [`Engine::propagate`] with the propagators at `ceiling` and above suspended (they stay
    /// queued for a later full propagation).
    pub fn propagate_below(&mut self, ceiling: Priority) -> Result<(), Conflict> {
        self.ceiling = ceiling as usize;
        let r = self.propagate();
        self.ceiling = Priority::LEVELS;
        r
    }

    // ----- levels -----------------------------------------------------------------------

    /// Opens a decision level.
    pub fn push_level(&mut self) {
        self.store.push_level();
    }
    /// The current decision level (0 at the root).
    pub fn level(&self) -> usize {
        self.store.trail.level()
    }
    /// Opens a decision level that counts as the root ([`Context::at_root`]) until
    /// [`Engine::pop_root`]: what is restricted in it is given, not assumed. For replays (a
    /// test re-derives a step from its premises alone, every rule as at the root). Returns
    /// the root before, for [`Engine::pop_root`].
    pub fn push_root(&mut self) -> usize {
        self.push_level();
        let level = self.level();
        std::mem::replace(&mut self.store.root, level)
    }
    /// Undoes a [`Engine::push_root`]'s level and puts the root it returned back.
    pub fn pop_root(&mut self, root: usize) {
        self.pop_level();
        self.store.root = root;
    }
    /// Undoes everything done since the last [`Engine::push_level`].
    pub fn pop_level(&mut self) {
        let l = self.level();
        if l > 0 {
            self.backtrack_to(l - 1);
        }
    }
    /// Undoes everything above `level`.
    pub fn backtrack_to(&mut self, level: usize) {
        self.store.backtrack_to(level);
        // Queued propagators below the ceiling were drained by a successful propagation or
        // dropped by `abort`; what remains (suspended levels) may stay queued: their events
        // are revalidated when they run.
        for &p in &self.on_backtrack {
            self.props[p as usize].backtracked();
        }
    }

    // ----- limits -----------------------------------------------------------------------

    /// Polls the deadline and cancellation flag of `limits` during propagation and search
    /// (by elapsed work, see [`Context::should_stop`]); clears an earlier interruption.
    pub fn set_limits(&mut self, limits: &Limits) {
        self.store.poll.set(limits);
        self.store.counting = limits.counters;
        self.learning = limits.learning;
        self.learn_counters = limits.learn_counters.clone();
    }
    /// Why propagation stopped early, if the limits stopped it.
    pub fn interrupted(&self) -> Option<StopReason> {
        self.store.poll.stopped
    }
    /// Reads the clock now; true when the limits have stopped the run.
    pub fn check_limits(&mut self) -> bool {
        self.store.poll.check_now()
    }
    /// Counts a unit of model-building work (a variable created, a grid cell set up) and
    /// says whether the limits stopped the run (the clock is read every few calls, as
    /// [`Context::should_stop`] does). Once true, the engine stays interrupted for good, even
    /// after [`Engine::set_limits`]: the builder stops where it is, and the incomplete model
    /// is never searched.
    #[inline]
    pub fn should_stop_posting(&mut self) -> bool {
        self.store.poll.building_tick()
    }
    /// [`Engine::check_limits`] for a model builder about to leave the model incomplete:
    /// reads the clock now, and when the limits have stopped the run the engine stays
    /// interrupted for good (as after [`Engine::should_stop_posting`]).
    pub fn check_limits_posting(&mut self) -> bool {
        self.store.poll.check_now();
        self.store.poll.building_tick()
    }

    // ----- explanations -----------------------------------------------------------------

    /// Starts (or stops) recording every change with its rule and premises.
    pub fn explain(&mut self, on: bool) {
        self.store.log = on.then(Log::default);
    }
    /// The explanation so far (when recording).
    pub fn log(&self) -> Option<&Log> {
        self.store.log.as_ref()
    }
    /// Takes the recorded steps, leaving an empty log (recording goes on).
    pub fn take_log(&mut self) -> Vec<Step> {
        match &mut self.store.log {
            Some(log) => std::mem::take(&mut log.steps),
            None => Vec::new(),
        }
    }
    /// Takes the step whose rule found the last contradiction while recording (see
    /// [`Failure`](super::Failure)), if one was kept since the last call.
    pub fn take_failure(&mut self) -> Option<super::Failure> {
        self.store.log.as_mut().and_then(|log| log.failure.take())
    }
    /// Records a step from outside propagation (a probe's conclusion, a model's own rule).
    pub fn log_step(&mut self, rule: &'static str, kind: StepKind, premises: Vec<Premise>) {
        if let Some(log) = &mut self.store.log {
            log.open(Step {
                rule,
                by: rule,
                kind,
                premises,
                changes: Vec::new(),
                focus: None,
            });
        }
        self.store.rule = rule;
    }
    /// Runs `f` with direct access to the domains as a propagator would (for a model's own
    /// deductions outside the queue); the changes are attributed to `rule`.
    pub fn with_context<T>(&mut self, rule: &'static str, f: impl FnOnce(&mut Context) -> T) -> T {
        self.store.rule = rule;
        let r = f(&mut Context {
            store: &mut self.store,
            events: &[],
        });
        if let Some(log) = &mut self.store.log {
            log.close();
        }
        r
    }
}

impl crate::encode::Encoder<'static> {
    /// The formula of an engine model: the literals of its variables (named by `info`) and the
    /// rows of every posted constraint.
    pub fn of_engine(
        engine: &Engine,
        info: impl FnMut(VarId) -> crate::encode::VarInfo,
    ) -> Result<Self, crate::encode::Unsupported> {
        crate::encode::Encoder::new(engine.domains(), info).with_rows_of(engine)
    }
}

impl crate::encode::Encoder<'_> {
    /// Adds the rows of every constraint posted on `engine`.
    pub fn with_rows_of(mut self, engine: &Engine) -> Result<Self, crate::encode::Unsupported> {
        engine.encode(&mut self)?;
        Ok(self)
    }
}
