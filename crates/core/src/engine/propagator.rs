//! The [`Propagator`] trait and what a propagator declares when it is posted ([`Init`]).

use super::store::{Conflict, Context, IntId, Ints, Store, VarId};
use crate::domain::Domain;
use crate::encode::{Encoded, Encoder};

/// When a propagator runs relative to the others: the queue always runs the lowest non-empty
/// level first, so cheap rules reach their fixpoint before costly ones look at the state (a
/// person applies singles before looking for pairs, and so does the engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// Constant work per event (a fixed value leaves its neighbours, a cell's degree).
    Immediate = 0,
    /// Work linear in the constraint's size (hidden singles in a region, a line's count).
    Linear = 1,
    /// More than linear work (pointing, pairs and triples, cut parities).
    Costly = 2,
    /// Work over the whole grid (reachability, Nishio's DAG).
    Global = 3,
}

impl Priority {
    /// Number of levels.
    pub const LEVELS: usize = 4;
}

/// A constraint's propagator.
///
/// Only [`Propagator::name`] and [`Propagator::propagate`] are required. `propagate` looks at
/// the current domains *from scratch* and removes values no solution of this constraint can
/// use; it is what the engine runs at the root and in full passes, and what tests use as the
/// oracle for the incremental hooks. The optional hooks make it incremental:
///
/// 1. [`Propagator::init`] runs once when the propagator is posted: it declares the variables
///    whose changes wake it ([`Init::watch`], with a tag of its choice) and allocates trailed
///    integers ([`Init::int`]). A propagator that watches nothing is woken by *every* change
///    (correct, and slow on large models).
/// 2. After another propagator (or a decision) changes a watched variable, the engine calls
///    [`Propagator::notify`] with the tag, the old and the new domain (the values that went are
///    `old − new`). It may update trailed integers and remember the event; it returns whether
///    it wants to run. Events arrive after the changing propagator returned, in the order the
///    changes were made, one per change (a variable narrowed twice gives two events).
///    A watch declared with [`Init::watch_buffered`] skips `notify`: the engine appends its
///    tag to the propagator's buffer, read in the run through [`Context::events`]. While a
///    run from scratch is pending (after posting, re-enabling or a full pass), nothing is
///    buffered: that run reads the domains, and [`Context::events`] is empty in it.
/// 3. When its turn in the queue comes, the engine calls [`Propagator::incremental`] (which
///    defaults to `propagate`). Remembered events may be stale (the state may have been undone
///    in between): check the current domains before acting on one.
/// 4. When propagation is abandoned at a conflict, the propagator that failed and every
///    propagator still queued are told by [`Propagator::backtracked`]; so is, at every
///    backtrack, every propagator that asked for it
///    in `init` ([`Init::on_backtrack`]). Forget remembered events there. Trailed integers and
///    domains are restored by the engine; any other reversible state must use them.
///
/// # What `propagate` must guarantee
/// * Soundness: never remove a value that some solution (of this constraint, given the other
///   domains) uses.
/// * Checking: when every variable it constrains is fixed and the constraint is violated, return
///   `Err(Conflict)`. The search accepts a state where every variable is fixed and propagation
///   succeeded as a solution.
/// * It may leave work undone: it is run again whenever a watched variable changes, including
///   by its own changes.
pub trait Propagator: Send {
    /// The rule's name (`--set rules=...`, statistics, explanations).
    fn name(&self) -> &'static str;
    /// From scratch: narrows domains given the current state; `Err` when unsatisfiable.
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict>;
    /// Declares watches and trailed integers. Default: nothing (woken by every change).
    fn init(&mut self, _init: &mut Init) {}
    /// A watched variable changed from `old` to `new`; return `true` to be queued.
    /// Default: always.
    #[inline]
    fn notify(&mut self, _ints: &mut Ints, _tag: u32, _old: Domain, _new: Domain) -> bool {
        true
    }
    /// Runs after notifications. Default: [`Propagator::propagate`].
    fn incremental(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        self.propagate(cx)
    }
    /// Propagation was abandoned or the search backtracked: forget remembered events.
    fn backtracked(&mut self) {}
    /// True when a run always leaves the constraint at its own fixpoint and the propagator
    /// keeps its state up to date for the changes it makes itself: the engine then neither
    /// notifies nor queues it for its own changes (Gecode's idempotent propagators). Default:
    /// false (its own changes come back as events, and it runs again).
    fn idempotent(&self) -> bool {
        false
    }
    /// Where in the queue it runs. Default: [`Priority::Linear`].
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    /// Writes the constraint's rows into a formula over the model's variables
    /// ([`crate::encode`]): [`Encoded::Posted`], or [`Encoded::Implied`] for a deduction the
    /// defining constraints imply. Default: [`Encoded::Unsupported`] (the model cannot be
    /// exported or solved by `sat`).
    fn encode(&self, enc: &mut Encoder<'_>) -> Encoded {
        let _ = enc;
        Encoded::Unsupported
    }
}

/// How a watch delivers its events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Delivery {
    /// Call [`Propagator::notify`]; queue when it says so.
    Notify,
    /// Queue without calling anything.
    Wake,
    /// Append the tag to the propagator's event buffer ([`Context::events`]) and queue.
    Buffer,
    /// Like `Buffer`, only for a change that fixes the variable (it had several values and
    /// has one).
    Fixed,
}

/// One watch: the propagator, its tag, the values whose removal wakes it and how.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Watch {
    pub(crate) prop: u32,
    pub(crate) tag: u32,
    /// Only a change that removes one of these values wakes the propagator.
    pub(crate) removed: Domain,
    pub(crate) delivery: Delivery,
}

/// A watch as declared: `(var, tag, values whose removal wakes, delivery)`.
pub(crate) type Declared = (VarId, u32, Domain, Delivery);

/// What a propagator declares when posted (see [`Propagator::init`]).
pub struct Init<'a> {
    pub(crate) store: &'a mut Store,
    pub(crate) watches: &'a mut Vec<Declared>,
    pub(crate) on_backtrack: bool,
}

impl Init<'_> {
    /// Records a watch. Declaring watches is the grid-sized part of posting a global
    /// constraint, so it polls the limits: once they have stopped the run, the remaining
    /// watches are left out and the engine stays interrupted for good (an incomplete model is
    /// never searched).
    #[inline]
    fn declare(&mut self, d: Declared) {
        if self.store.poll.building_tick() {
            return;
        }
        // Grown by hand so that a refused allocation stops the engine instead of aborting.
        if self.watches.len() == self.watches.capacity()
            && self.watches.try_reserve(self.watches.len().max(64)).is_err()
        {
            self.store.poll.refuse_memory();
            return;
        }
        self.watches.push(d);
    }
    /// Makes room for `additional` more items in a grid-sized vector of the propagator;
    /// `false` when the system refuses the memory: the engine then stops for good with
    /// [`crate::search::StopReason::Memory`], and `init` should return at once.
    pub fn try_reserve<T>(&mut self, v: &mut Vec<T>, additional: usize) -> bool {
        if v.try_reserve(additional).is_ok() {
            return true;
        }
        self.store.poll.refuse_memory();
        false
    }
    /// Counts a unit of model-building work (for a grid-sized loop of
    /// [`Propagator::init`] that declares no watch) and says whether the limits stopped the
    /// run; once true, the engine stays interrupted for good.
    pub fn should_stop(&mut self) -> bool {
        self.store.poll.building_tick()
    }
    /// Wakes the propagator when `var` changes, passing `tag` to [`Propagator::notify`].
    pub fn watch(&mut self, var: VarId, tag: u32) {
        self.declare((var, tag, Domain::ALL, Delivery::Notify));
    }
    /// Like [`Init::watch`], but only changes that remove one of `values` are notified (a
    /// Boolean watched for `{FALSE}` is notified when it becomes true): the engine filters the
    /// other events without calling [`Propagator::notify`] (Gecode's propagation conditions).
    pub fn watch_removal(&mut self, var: VarId, tag: u32, values: Domain) {
        self.declare((var, tag, values, Delivery::Notify));
    }
    /// Queues the propagator, without calling [`Propagator::notify`], when a change of `var`
    /// removes one of `values`: for propagators that keep no per-event state (a reachability
    /// check that reruns from scratch).
    pub fn wake_on_removal(&mut self, var: VarId, values: Domain) {
        self.declare((var, 0, values, Delivery::Wake));
    }
    /// Queues the propagator when `var` changes and hands it `tag` in
    /// [`Context::events`] at its next run, without calling [`Propagator::notify`]: the
    /// cheapest delivery for a propagator that only needs to know *what* changed (one tag per
    /// change, in order; the domains may have changed again since).
    pub fn watch_buffered(&mut self, var: VarId, tag: u32) {
        self.declare((var, tag, Domain::ALL, Delivery::Buffer));
    }
    /// Like [`Init::watch_buffered`], but only for the change that fixes `var` (several values
    /// before, one after): the cheapest delivery for a rule that acts on fixed values (a naked
    /// single), with no call per other change (Gecode's value propagation condition).
    pub fn watch_fixed(&mut self, var: VarId, tag: u32) {
        self.declare((var, tag, Domain::ALL, Delivery::Fixed));
    }
    /// Watches every variable of `vars`, tagged by its position in the slice.
    pub fn watch_all(&mut self, vars: &[VarId]) {
        for (i, &v) in vars.iter().enumerate() {
            self.watch(v, i as u32);
        }
    }
    /// A new trailed integer with an initial value.
    pub fn int(&mut self, value: i64) -> IntId {
        self.store.new_int(value)
    }
    /// The current domain of a variable (for initial counts).
    pub fn dom(&self, var: VarId) -> Domain {
        self.store.doms[var.index()]
    }
    /// Asks for [`Propagator::backtracked`] at every backtrack.
    pub fn on_backtrack(&mut self) {
        self.on_backtrack = true;
    }
}
