//! Learning: conflict analysis on the engine's trail, learned nogoods with watched literals,
//! activity-based branching, restarts and clause deletion — conflict-driven clause learning
//! (CDCL) over the engine's own propagators, so that a search does not re-discover the same
//! dead end in every branch that repeats its cause.
//!
//! # Background
//! A conflict-driven solver, on a dead end, asks *why*: every domain change on the trail was
//! made by a rule from some earlier facts (its *reason*); resolving the conflict's facts
//! backwards through their reasons, newest first, until one fact of the last decision level
//! remains (the first *unique implication point*, 1-UIP) gives a clause — a nogood — that the
//! model implies and that would have prevented the dead end. The search jumps back to the
//! second-highest level of the clause, where it becomes unit and asserts the opposite of the
//! UIP (J. Marques-Silva and K. Sakallah, "GRASP", IEEE TC 1999; L. Zhang et al., "Efficient
//! conflict driven learning in a Boolean satisfiability solver", ICCAD 2001). Lazy clause
//! generation brings this to finite-domain propagators, whose reasons are clauses over the
//! literals `x = v` and `x ≠ v` (O. Ohrimenko, P. Stuckey and M. Codish, "Propagation via lazy
//! clause generation", Constraints 14, 2009; Chuffed; Pumpkin).
//!
//! # What pencilbox does
//! * **Literals** ([`Lit`]) are `x = v` and `x ≠ v` over the engine's variables. A variable
//!   whose domain at the root has two values (every Boolean) has one atom: `x = a` is written
//!   `x ≠ b`.
//! * **Reasons come from the explanation log.** With learning on, the engine records its log
//!   ([`super::Engine::explain`]): every deduction is a [`super::Step`] whose premises are its
//!   reason, the same premises that `explain` prints and that the test suite replays rule by
//!   rule. A step without premises (a rule that rests on the whole position, such as
//!   reachability) or a probe falls back to a *decision-based reason*: every decision up to
//!   its level, which is always sound. Statistics count those fallbacks.
//! * **Where each fact came from** is kept by a history of domain changes (variable, values
//!   removed, level, log step), undone with the trail.
//! * **Analysis** is 1-UIP over the facts of the last decision level, newest step first; a
//!   fixed multi-valued variable `x = v` resolves into its removals (the domain clause).
//! * **Learned clauses** live in one propagator, `nogood`, with two watched literals per
//!   clause (watch lists per variable, each entry with two blocking literals that skip a
//!   satisfied clause without reading it). Unit clauses are asserted at the root after every restart.
//! * **The search** is the core driver's own ([`crate::search::run`], races and restarts
//!   included): with learning on, a node has one branch (the decision), and the driver's
//!   lazy-successor hook ([`crate::search::Backtrack::successor`]) does the rest: after a
//!   conflict it answers `None` until the driver has unwound to the clause's assertion level,
//!   then a branch that asserts the clause's literal there (with the clause's other
//!   literals as its reason). An implied literal thus lives one level above its node (a
//!   *pseudo-level* without a decision); the analysis counts decision levels, not engine
//!   levels, so it is unaffected.
//! * **Counting stays exact.** Learned clauses are implied by the model, so they remove no
//!   solution; each solution found adds a *blocking clause* (the negation of its decisions,
//!   never deleted), so no solution is found twice. `count`, `forced` and uniqueness answers
//!   are the same with learning on and off (property-tested).
//! * **Branching** ([`Learning::activity`], the default): the free variable of highest
//!   activity (VSIDS: bumped when it takes part in a conflict's analysis, the bump growing by
//!   1/0.95 per conflict) with its last value (phase saving); before the first conflict, and
//!   with `decide=model`, the model's own brancher (its first branch). On large planted Path
//!   puzzles activity branching solved in 13 ms what the model's branching had not solved in
//!   9 s (BENCHMARKS.md, "Learning").
//! * **Restarts** follow the Luby sequence (× [`RESTART_BASE`] conflicts), **deletion** keeps
//!   the learned clauses of low LBD (literal block distance, G. Audemard and L. Simon,
//!   "Predicting learnt clauses quality in modern SAT solvers", IJCAI 2009) and removes half of
//!   the others when there are more than the current cap.
//! * **Probing** ([`Probe`]) goes on while learning: each probed value is tried quietly first
//!   (no log, no history: most trials succeed); one that fails is tried again, recorded, as a
//!   decision of its own level, and the conflict is analysed back to that decision (the *last* UIP,
//!   `Learner::analyze_to`), so the clause learned refutes the probed value itself from facts
//!   of earlier levels. The clause is kept (later branches inherit the refutation, as
//!   failed-literal probing with learning does in SAT solvers) and asserted at the node with
//!   its other literals as premises, so later conflicts resolve through it like any fact.
//!   Undone probes leave the saved phases alone. On the 20 hard 20×20 Path puzzles this took
//!   learning from 6.2 s to 1.6 s in total (BENCHMARKS.md, "Learning").
//! * **Auto** ([`LearnMode::Auto`], the default) searches without learning first, for a
//!   budget of nodes ([`auto_nodes`]: fewer on larger models, whose nodes cost more;
//!   `learn=auto:N` sets it), so small puzzles keep the plain search's speed. Past the budget
//!   it records the solutions met so far as blocking clauses, unwinds to the root and goes on
//!   learning, unless it has found more than [`AUTO_MAX_SOLUTIONS`] solutions by then: that
//!   search is an enumeration, the plain search's work (learning would add a blocking clause
//!   per solution), and it stays plain.
//!
//! Everything is deterministic: the same model, settings and limits give the same search.

use super::explain::{Premise, StepKind};
use super::propagation::Engine;
use super::propagator::{Init, Priority, Propagator};
use super::search::{luby, Decision, Passes, Probe};
use super::store::{Conflict, Context, VarId};
use crate::domain::Domain;
use std::collections::BinaryHeap;

pub use crate::learning::{
    auto_nodes, LearnCounters, LearnMode, LearnStats, Learning, AUTO_MAX_SOLUTIONS, AUTO_MIN_NODES, AUTO_WORK,
};

/// Conflicts per unit of the Luby restart sequence.
pub const RESTART_BASE: u64 = 128;
/// Learned clauses kept before the first deletion (the cap then grows by a tenth each time).
const FIRST_CAP: usize = 4000;
/// Clauses with at most this LBD are never deleted ("glue" clauses).
const GLUE: u32 = 2;

// ----- literals -----------------------------------------------------------------------------

/// A literal: `x = v` or `x ≠ v` (values `1..=64`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lit(u32);

impl Lit {
    /// `var = value`.
    pub fn eq(var: VarId, value: u32) -> Lit {
        debug_assert!((1..=Domain::MAX).contains(&value));
        Lit((var.0 << 7) | ((value - 1) << 1) | 1)
    }
    /// `var ≠ value`.
    pub fn ne(var: VarId, value: u32) -> Lit {
        debug_assert!((1..=Domain::MAX).contains(&value));
        Lit((var.0 << 7) | ((value - 1) << 1))
    }
    /// The variable.
    pub fn var(self) -> VarId {
        VarId(self.0 >> 7)
    }
    /// The value.
    pub fn value(self) -> u32 {
        ((self.0 >> 1) & 63) + 1
    }
    /// `x = v` (rather than `x ≠ v`)?
    pub fn is_eq(self) -> bool {
        self.0 & 1 == 1
    }
    /// The opposite literal.
    pub fn negate(self) -> Lit {
        Lit(self.0 ^ 1)
    }
    /// True under domain `d` of its variable.
    #[inline]
    pub fn holds(self, d: Domain) -> bool {
        if self.is_eq() {
            d == Domain::single(self.value())
        } else {
            !d.contains(self.value())
        }
    }
    /// False under domain `d` of its variable.
    #[inline]
    pub fn fails(self, d: Domain) -> bool {
        if self.is_eq() {
            !d.contains(self.value())
        } else {
            d == Domain::single(self.value())
        }
    }
    /// The literal, true, as a premise of a step.
    pub fn premise(self) -> Premise {
        if self.is_eq() {
            Premise::is(self.var(), self.value())
        } else {
            Premise::not(self.var(), self.value())
        }
    }
    /// The domain that makes it true.
    pub fn restriction(self) -> Domain {
        if self.is_eq() {
            Domain::single(self.value())
        } else {
            Domain::ALL.without(self.value())
        }
    }
    /// The literal a decision restricting `var` to `dom` makes true (`x = v` for one value
    /// kept, `x ≠ w` for one value taken away).
    fn of_decision(var: VarId, dom: Domain) -> Lit {
        match dom.value() {
            Some(v) => Lit::eq(var, v),
            None => Lit::ne(var, Domain(!dom.0).min().unwrap_or(1)),
        }
    }
}

/// The largest variable index a literal holds.
const MAX_VARS: usize = 1 << 25;

// ----- the history of domain changes ---------------------------------------------------------

/// One domain change above the root: where its facts came from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fact {
    var: u32,
    level: u32,
    /// The explanation log's step that made it.
    step: u32,
    /// The previous change of the same variable (`NONE`: none above the root).
    prev: u32,
    removed: Domain,
    after: Domain,
}

const NONE: u32 = u32::MAX;

/// Every domain change above the root, newest last, with a chain per variable; undone with the
/// trail. Kept by the store while learning.
#[derive(Clone, Debug, Default)]
pub(crate) struct History {
    facts: Vec<Fact>,
    last: Vec<u32>,
    /// The value each variable last had when fixed (phase saving).
    phase: Vec<u8>,
    /// Probing: undone probes leave the saved phases as they were.
    frozen: bool,
}

impl History {
    fn new(vars: usize) -> Self {
        History {
            facts: Vec::with_capacity(1024),
            last: vec![NONE; vars],
            phase: vec![0; vars],
            frozen: false,
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, var: u32, level: u32, step: u32, removed: Domain, after: Domain) {
        let i = var as usize;
        if i >= self.last.len() {
            self.last.resize(i + 1, NONE);
            self.phase.resize(i + 1, 0);
        }
        let prev = std::mem::replace(&mut self.last[i], self.facts.len() as u32);
        self.facts.push(Fact {
            var,
            level,
            step,
            prev,
            removed,
            after,
        });
    }

    pub(crate) fn backtrack_to(&mut self, level: usize) {
        while let Some(f) = self.facts.last() {
            if f.level as usize <= level {
                break;
            }
            let f = *f;
            self.facts.pop();
            self.last[f.var as usize] = f.prev;
            if self.frozen {
                continue;
            }
            if let Some(v) = f.after.value() {
                self.phase[f.var as usize] = v as u8;
            }
        }
    }

    /// The change that removed `value` from `var` (`None`: it went at the root).
    fn removal(&self, var: u32, value: u32) -> Option<&Fact> {
        let mut i = *self.last.get(var as usize)?;
        while i != NONE {
            let f = &self.facts[i as usize];
            if f.removed.contains(value) {
                return Some(f);
            }
            i = f.prev;
        }
        None
    }

    /// The last change of `var` (`None`: none above the root).
    fn last_change(&self, var: u32) -> Option<&Fact> {
        let i = *self.last.get(var as usize)?;
        (i != NONE).then(|| &self.facts[i as usize])
    }
}

// ----- the clause store ----------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Clause {
    /// The literals: `Clauses::arena[start..start + len]`.
    start: u32,
    len: u32,
    lbd: u32,
    activity: f32,
    /// A solution's blocking clause: never deleted.
    blocking: bool,
    deleted: bool,
    /// Where the last search for a new watch ended (the next one starts there and wraps: I. P.
    /// Gent, "Optimal implementation of watched literals and more general techniques", JAIR
    /// 48, 2013).
    pos: u32,
}

/// A clause watching a variable, with two of its literals as *blockers*: the one it watches on
/// that variable and its other watched literal, as they were when last looked at. When either
/// holds, the clause is satisfied and a change of the variable needs no look at the clause
/// (the blocking literals of MiniSat 2.2; a blocker that no longer is watched is still a literal
/// of the clause, so the skip stays sound).
#[derive(Clone, Copy, Debug)]
struct Watch {
    c: u32,
    own: Lit,
    other: Lit,
}

/// The learned clauses and their two watched literals (the first two of each clause), indexed
/// by variable. Kept by the store while learning; the `nogood` propagator reads it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Clauses {
    clauses: Vec<Clause>,
    /// Every clause's literals, one after the other (a clause is read where its watch is
    /// found: one allocation for all keeps them close).
    arena: Vec<Lit>,
    /// Literals of deleted clauses still in the arena.
    garbage: usize,
    watches: Vec<Vec<Watch>>,
    /// Learned (not blocking) clauses alive.
    learned: usize,
    bump: f32,
}

impl Clauses {
    fn add(&mut self, lits: Vec<Lit>, lbd: u32, blocking: bool) {
        debug_assert!(lits.len() >= 2);
        let c = self.clauses.len() as u32;
        for w in 0..2 {
            if w == 1 && lits[0].var() == lits[1].var() {
                // One watch entry serves both.
                break;
            }
            let v = lits[w].var().index();
            if v >= self.watches.len() {
                self.watches.resize_with(v + 1, Vec::new);
            }
            self.watches[v].push(Watch {
                c,
                own: lits[w],
                other: lits[1 - w],
            });
        }
        self.learned += usize::from(!blocking);
        let start = self.arena.len() as u32;
        self.arena.extend_from_slice(&lits);
        self.clauses.push(Clause {
            start,
            len: lits.len() as u32,
            lbd,
            activity: self.bump,
            blocking,
            deleted: false,
            pos: 2,
        });
    }

    /// Deletes half of the learned clauses above the glue level, the highest LBD and the least
    /// active first; returns how many went.
    fn reduce(&mut self) -> u64 {
        let mut cands: Vec<u32> = (0..self.clauses.len() as u32)
            .filter(|&c| {
                let cl = &self.clauses[c as usize];
                !cl.deleted && !cl.blocking && cl.lbd > GLUE
            })
            .collect();
        cands.sort_by(|&a, &b| {
            let (a, b) = (&self.clauses[a as usize], &self.clauses[b as usize]);
            b.lbd.cmp(&a.lbd).then(a.activity.total_cmp(&b.activity))
        });
        let n = cands.len() / 2;
        for &c in &cands[..n] {
            let cl = &mut self.clauses[c as usize];
            cl.deleted = true;
            self.garbage += cl.len as usize;
        }
        self.learned -= n;
        if self.garbage * 2 > self.arena.len() {
            // Compact: the live clauses' literals, in order.
            let mut arena = Vec::with_capacity(self.arena.len() - self.garbage);
            for cl in self.clauses.iter_mut().filter(|cl| !cl.deleted) {
                let start = arena.len() as u32;
                arena.extend_from_slice(&self.arena[cl.start as usize..(cl.start + cl.len) as usize]);
                cl.start = start;
            }
            self.arena = arena;
            self.garbage = 0;
        }
        n as u64
    }

    /// Examines the clauses watching `x` after a change of `x`.
    fn wake(&mut self, cx: &mut Context, x: usize) -> Result<(), Conflict> {
        let Clauses {
            clauses,
            watches,
            arena,
            ..
        } = self;
        let Some(list) = watches.get_mut(x) else {
            return Ok(());
        };
        let mut list = std::mem::take(list);
        let mut i = 0;
        let mut result = Ok(());
        while i < list.len() {
            let Watch { c, own, other } = list[i];
            if own.holds(cx.dom(own.var())) || other.holds(cx.dom(other.var())) {
                // Satisfied (by a literal true at this level or earlier): nothing to do.
                i += 1;
                continue;
            }
            let c = c as usize;
            let cl = &mut clauses[c];
            if cl.deleted {
                list.swap_remove(i);
                continue;
            }
            let lits = &mut arena[cl.start as usize..(cl.start + cl.len) as usize];
            for w in 0..2 {
                let l = lits[w];
                // Any false watch moves (the other's event may still be queued).
                if l.fails(cx.dom(l.var())) {
                    let (len, start) = (lits.len(), (cl.pos as usize).clamp(2, lits.len()));
                    let free = (start..len)
                        .chain(2..start)
                        .find(|&k| !lits[k].fails(cx.dom(lits[k].var())));
                    if let Some(k) = free {
                        cl.pos = k as u32;
                        lits.swap(w, k);
                        let nv = lits[w].var().index();
                        let ov = l.var().index();
                        if nv != x && lits[1 - w].var().index() != nv && nv != ov {
                            if nv >= watches.len() {
                                watches.resize_with(nv + 1, Vec::new);
                            }
                            watches[nv].push(Watch {
                                c: c as u32,
                                own: lits[w],
                                other: lits[1 - w],
                            });
                        }
                    }
                }
            }
            let keep = lits[0].var().index() == x || lits[1].var().index() == x;
            let f0 = lits[0].fails(cx.dom(lits[0].var()));
            let f1 = lits[1].fails(cx.dom(lits[1].var()));
            if f0 || f1 {
                let r = settle(cl, lits, cx, f0, f1);
                if r.is_err() {
                    result = r;
                    break;
                }
            }
            if keep {
                let w = usize::from(lits[0].var().index() != x);
                list[i] = Watch {
                    c: c as u32,
                    own: lits[w],
                    other: lits[1 - w],
                };
                i += 1;
            } else {
                list.swap_remove(i);
            }
        }
        let slot = &mut watches[x];
        if slot.is_empty() {
            *slot = list;
        } else {
            slot.extend(list);
        }
        result
    }
}

/// A clause one (or both) of whose watched literals is false and that found no other
/// literal to watch: unit (asserts the other watched literal) or failed.
fn settle(cl: &mut Clause, lits: &[Lit], cx: &mut Context, f0: bool, f1: bool) -> Result<(), Conflict> {
    if f0 && f1 {
        cl.activity += 1.0;
        if cx.explaining() {
            cx.because(lits.iter().map(|l| l.negate().premise()));
        }
        return Err(Conflict);
    }
    let u = usize::from(f0);
    let lit = lits[u];
    if lit.holds(cx.dom(lit.var())) {
        return Ok(());
    }
    cl.activity += 1.0;
    if cx.explaining() {
        let premises: Vec<Premise> = lits
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != u)
            .map(|(_, l)| l.negate().premise())
            .collect();
        cx.because(premises);
    }
    cx.restrict(lit.var(), lit.restriction()).map(|_| ())
}

/// The propagator of the learned clauses (`nogood`).
pub(crate) struct Nogoods;

impl Propagator for Nogoods {
    fn name(&self) -> &'static str {
        "nogood"
    }
    fn priority(&self) -> Priority {
        Priority::Immediate
    }
    fn init(&mut self, init: &mut Init) {
        for v in 0..init.store.doms.len() {
            init.watch_buffered(VarId::from_index(v), v as u32);
        }
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        let Some(mut db) = cx.store.nogoods.take() else {
            return Ok(());
        };
        let mut r = Ok(());
        for x in 0..db.watches.len() {
            r = db.wake(cx, x);
            if r.is_err() {
                break;
            }
        }
        cx.store.nogoods = Some(db);
        r
    }
    fn incremental(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        let Some(mut db) = cx.store.nogoods.take() else {
            return Ok(());
        };
        let mut r = Ok(());
        for &x in cx.events() {
            r = db.wake(cx, x as usize);
            if r.is_err() {
                break;
            }
        }
        cx.store.nogoods = Some(db);
        r
    }
}

// ----- the learner ---------------------------------------------------------------------------

/// The minimisation's memo: is a literal implied by the clause's other facts? Per variable, the
/// values of `x = v` and of `x ≠ v` known implied and known not, cleared after each analysis.
#[derive(Default)]
struct LitMemo {
    yes: [Vec<Domain>; 2],
    no: [Vec<Domain>; 2],
    touched: Vec<u32>,
}

impl LitMemo {
    fn get(&self, l: Lit) -> Option<bool> {
        let (k, x) = (usize::from(l.is_eq()), l.var().index());
        if self.yes[k].get(x)?.contains(l.value()) {
            Some(true)
        } else if self.no[k][x].contains(l.value()) {
            Some(false)
        } else {
            None
        }
    }
    fn insert(&mut self, l: Lit, implied: bool) {
        let (k, x) = (usize::from(l.is_eq()), l.var().index());
        if x >= self.yes[k].len() {
            for v in self.yes.iter_mut().chain(self.no.iter_mut()) {
                v.resize(x + 1, Domain::EMPTY);
            }
        }
        let set = if implied {
            &mut self.yes[k][x]
        } else {
            &mut self.no[k][x]
        };
        set.insert(l.value());
        self.touched.push(x as u32);
    }
    fn clear(&mut self) {
        for &x in &self.touched {
            for v in self.yes.iter_mut().chain(self.no.iter_mut()) {
                v[x as usize] = Domain::EMPTY;
            }
        }
        self.touched.clear();
    }
}

/// The branch that asserts a node's implied literals (the driver applies it like a decision).
pub(crate) const ASSERT: Decision = Decision {
    var: VarId(u32::MAX),
    dom: Domain::EMPTY,
};

/// A literal implied at a node by a learned clause, with the clause's other literals (true
/// facts) as its reason.
#[derive(Clone, Debug)]
struct Assert {
    node: u32,
    lit: Lit,
    premises: Vec<Premise>,
}

/// What the search does when the driver next asks for a node's successor.
#[derive(Clone, Debug, Default)]
enum Pending {
    /// Nothing: re-expand the node.
    #[default]
    Nothing,
    /// Unwind to `node`, learn `clause` (its first literal is asserted there).
    Jump {
        node: u32,
        clause: Vec<Lit>,
        lbd: u32,
        premises: Vec<Premise>,
    },
    /// Unwind to the root and go on from there.
    Restart,
    /// No solution is left: unwind everything.
    Done,
}

/// Learning state of one search ([`super::EngineSearch`]).
pub(crate) struct Learner {
    pub(crate) cfg: Learning,
    /// CDCL in force (log and history on, one branch per node).
    pub(crate) active: bool,
    /// Auto mode switching on: the plain search's branches are refused until the root.
    unwinding: bool,
    /// Plain-search nodes so far (auto mode).
    pub(crate) nodes: u64,
    root_dom: Vec<Domain>,
    /// The decisions in force: (engine level, literal).
    decisions: Vec<(u32, Lit)>,
    /// The plain search's decided variables (auto mode, for blocking its solutions).
    path: Vec<(u32, VarId)>,
    /// Blocking clauses of the plain search's solutions, added when learning starts.
    found: Vec<Vec<Lit>>,
    asserts: Vec<Assert>,
    pending: Pending,
    seen_eq: Vec<Domain>,
    seen_ne: Vec<Domain>,
    /// The minimisation's memo (kept between analyses, cleared after each).
    memo: LitMemo,
    activity: Vec<f64>,
    inc: f64,
    since_restart: u64,
    cap: usize,
    pub(crate) stats: LearnStats,
    /// The run's shared counters, and what was reported to them.
    sink: Option<std::sync::Arc<LearnCounters>>,
    reported: LearnStats,
    scratch: Vec<Decision>,
    /// Every clause learned, with the conflict's facts and the number of solutions blocked
    /// before it (tests check them against the solutions).
    #[cfg(test)]
    pub(crate) trace: Vec<(Vec<Lit>, Vec<Lit>, u64)>,
}

impl Learner {
    pub(crate) fn new(cfg: Learning, sink: Option<std::sync::Arc<LearnCounters>>) -> Self {
        Learner {
            cfg,
            active: false,
            unwinding: false,
            nodes: 0,
            root_dom: Vec::new(),
            decisions: Vec::new(),
            path: Vec::new(),
            found: Vec::new(),
            asserts: Vec::new(),
            pending: Pending::Nothing,
            seen_eq: Vec::new(),
            seen_ne: Vec::new(),
            memo: LitMemo::default(),
            activity: Vec::new(),
            inc: 1.0,
            since_restart: 0,
            cap: FIRST_CAP,
            stats: LearnStats::default(),
            sink,
            reported: LearnStats::default(),
            scratch: Vec::new(),
            #[cfg(test)]
            trace: Vec::new(),
        }
    }

    /// Should the search learn from this node on? (Called at each node of the plain search.)
    pub(crate) fn wants_to_start(&mut self, engine: &Engine) -> bool {
        self.nodes += 1;
        match self.cfg.mode {
            LearnMode::Off => false,
            LearnMode::On => true,
            LearnMode::Auto => self.nodes > self.cfg.auto_after.unwrap_or_else(|| auto_nodes(engine.num_vars())),
        }
    }

    /// Switches learning on at the current node: at the root at once, elsewhere by unwinding
    /// to the root first (the plain search's pending branches are refused on the way).
    pub(crate) fn start(&mut self, engine: &mut Engine) {
        if engine.num_vars() >= MAX_VARS {
            self.cfg.mode = LearnMode::Off;
            return;
        }
        self.active = true;
        if engine.level() > 0 {
            self.unwinding = true;
            self.pending = Pending::Restart;
            return;
        }
        self.begin(engine);
    }

    /// Learning proper begins at the root: log and history on, the clause store posted, the
    /// plain search's solutions blocked.
    fn begin(&mut self, engine: &mut Engine) {
        debug_assert_eq!(engine.level(), 0);
        self.unwinding = false;
        self.stats.searches += 1;
        let n = engine.num_vars();
        self.root_dom = engine.domains().to_vec();
        self.seen_eq = vec![Domain::EMPTY; n];
        self.seen_ne = vec![Domain::EMPTY; n];
        self.activity = vec![0.0; n];
        self.path.clear();
        engine.explain(true);
        engine.store.hist = Some(Box::new(History::new(n)));
        engine.store.nogoods = Some(Box::new(Clauses {
            watches: vec![Vec::new(); n],
            ..Clauses::default()
        }));
        engine.post(Nogoods);
        for clause in std::mem::take(&mut self.found) {
            let clause: Vec<Lit> = clause.into_iter().map(|l| self.canon(l)).collect();
            self.stats.blocking += 1;
            self.add_clause(engine, clause, 0, true);
        }
        self.report();
    }

    /// The canonical form: `x = a` is `x ≠ b` when the root domain is `{a, b}`.
    fn canon(&self, l: Lit) -> Lit {
        let x = l.var().index();
        let rd = self.root_dom[x];
        if l.is_eq() && rd.len() == 2 {
            if let Some(o) = rd.without(l.value()).value() {
                return Lit::ne(l.var(), o);
            }
        }
        l
    }

    /// A learned or blocking clause into the store; a unit one into the root's assertions.
    fn add_clause(&mut self, engine: &mut Engine, clause: Vec<Lit>, lbd: u32, blocking: bool) {
        if clause.len() == 1 {
            self.stats.units += u64::from(!blocking);
            self.asserts.insert(
                self.asserts.partition_point(|a| a.node == 0),
                Assert {
                    node: 0,
                    lit: clause[0],
                    premises: Vec::new(),
                },
            );
            return;
        }
        if clause.is_empty() {
            return;
        }
        let db = engine.store.nogoods.get_or_insert_with(Box::default);
        db.add(clause, lbd, blocking);
        if db.learned > self.cap {
            self.stats.deleted += db.reduce();
            self.cap += self.cap / 10;
        }
    }

    // ----- the driver's hooks -------------------------------------------------------------

    /// `expand` while learning: a solution (blocking clause pending), a dead node (analysed)
    /// or one decision.
    pub(crate) fn expand<B: super::Brancher>(
        &mut self,
        engine: &mut Engine,
        brancher: &mut B,
        probe: Option<&Probe>,
        out: &mut Vec<Decision>,
    ) -> crate::search::Expand {
        use crate::search::Expand;
        if engine.all_fixed() {
            self.solution();
            return Expand::Solution;
        }
        if let Some(p) = probe.filter(|p| self.stats.conflicts >= p.after_failures) {
            if !self.probe(engine, p) {
                return Expand::Dead;
            }
            if engine.all_fixed() {
                self.solution();
                return Expand::Solution;
            }
        }
        match self.decide(engine, brancher) {
            Some(d) => {
                out.push(d);
                Expand::Branches
            }
            None => {
                // The model has nothing to decide, yet not everything is fixed: a dead end
                // whose reason is the decisions.
                let lits = self.decision_lits();
                self.pending = self.analyze(engine, &lits);
                Expand::Dead
            }
        }
    }

    /// The plain search met a solution (auto mode, before learning): remember its decided
    /// variables' values as a blocking clause.
    ///
    /// Past [`AUTO_MAX_SOLUTIONS`] the search is an enumeration, the plain search's work: auto
    /// mode stays plain for good (each solution would cost the learning search a clause).
    pub(crate) fn plain_solution(&mut self, engine: &Engine) {
        if self.cfg.mode == LearnMode::Auto && self.found.len() >= AUTO_MAX_SOLUTIONS {
            self.cfg.mode = LearnMode::Off;
            self.found = Vec::new();
            self.path = Vec::new();
        }
        if self.cfg.mode == LearnMode::Auto {
            let clause: Vec<Lit> = self
                .path
                .iter()
                .filter_map(|&(_, x)| engine.value(x).map(|v| Lit::ne(x, v)))
                .collect();
            self.found.push(clause);
        }
    }

    /// The plain search applied a decision on `var` at the current level (auto mode).
    pub(crate) fn plain_apply(&mut self, engine: &Engine, var: VarId) {
        if self.cfg.mode == LearnMode::Auto {
            self.path.push((engine.level() as u32, var));
        }
    }

    /// The plain search undid a level (auto mode).
    pub(crate) fn plain_undo(&mut self, engine: &Engine) {
        let l = engine.level() as u32;
        while self.path.last().is_some_and(|p| p.0 > l) {
            self.path.pop();
        }
    }

    fn solution(&mut self) {
        let lits = self.decision_lits();
        if lits.is_empty() {
            self.pending = Pending::Done;
            return;
        }
        self.stats.blocking += 1;
        let d = self.decisions.len();
        let clause: Vec<Lit> = lits.iter().rev().map(|l| l.negate()).collect();
        let node = self.decisions[d - 1].0 - 1;
        let premises = lits[..d - 1].iter().map(|l| l.premise()).collect();
        // An LBD of 0 marks a blocking clause: never deleted.
        self.pending = Pending::Jump {
            node: if d == 1 { 0 } else { node },
            clause,
            lbd: 0,
            premises,
        };
    }

    fn decision_lits(&self) -> Vec<Lit> {
        self.decisions.iter().map(|d| d.1).collect()
    }

    /// The next decision: the most active free variable with its saved phase, or the model's
    /// first branch.
    fn decide<B: super::Brancher>(&mut self, engine: &Engine, brancher: &mut B) -> Option<Decision> {
        if self.cfg.activity {
            let doms = engine.domains();
            let mut best: Option<(f64, usize)> = None;
            for (i, d) in doms.iter().enumerate() {
                if d.len() > 1 && self.activity[i] > 0.0 && best.is_none_or(|(a, _)| self.activity[i] > a) {
                    best = Some((self.activity[i], i));
                }
            }
            if let Some((_, i)) = best {
                let d = doms[i];
                let phase = engine
                    .store
                    .hist
                    .as_ref()
                    .map_or(0, |h| h.phase.get(i).copied().unwrap_or(0));
                let v = if phase > 0 && d.contains(u32::from(phase)) {
                    u32::from(phase)
                } else {
                    d.min().unwrap_or(1)
                };
                return Some(Decision::assign(VarId::from_index(i), v));
            }
        }
        self.scratch.clear();
        brancher.branch(engine, &mut self.scratch);
        let d = *self.scratch.first()?;
        // One literal per decision: `x = v` or `x ≠ w`; a wider split keeps its least value.
        let cur = engine.dom(d.var);
        let dom = d.dom.and(cur);
        let lit = if let Some(v) = dom.value() {
            Lit::eq(d.var, v)
        } else if let Some(w) = cur.minus(dom).value() {
            Lit::ne(d.var, w)
        } else {
            Lit::eq(d.var, dom.min().or(cur.min())?)
        };
        Some(Decision {
            var: d.var,
            dom: lit.restriction(),
        })
    }

    /// `apply` while learning. The driver calls `undo` after it whatever it returns.
    pub(crate) fn apply(&mut self, engine: &mut Engine, d: Decision) -> bool {
        engine.push_level();
        if self.unwinding {
            return false;
        }
        let level = engine.level() as u32;
        if d.var == ASSERT.var {
            let node = level - 1;
            let start = self.asserts.partition_point(|a| a.node < node);
            for k in start..self.asserts.len() {
                let (lit, premises) = (self.asserts[k].lit, self.asserts[k].premises.clone());
                if !self.assert_at_node(engine, lit, premises) {
                    return false;
                }
            }
        } else {
            let lit = self.canon(Lit::of_decision(d.var, d.dom));
            self.decisions.push((level, lit));
            if engine.restrict(d.var, d.dom).is_err() {
                // Not reached: a decision keeps a value of the domain.
                let lits = self.decision_lits();
                self.pending = self.analyze(engine, &lits);
                return false;
            }
        }
        self.propagated(engine, None)
    }

    /// `undo` while learning (after the engine popped its level).
    pub(crate) fn undo(&mut self, engine: &Engine) {
        let l = engine.level() as u32;
        while self.decisions.last().is_some_and(|d| d.0 > l) {
            self.decisions.pop();
        }
        while self.asserts.last().is_some_and(|a| a.node > l) {
            self.asserts.pop();
        }
    }

    /// `successor` while learning: `None` while the driver unwinds to the pending jump's
    /// node; there, the branch that asserts its implied literals.
    pub(crate) fn successor(&mut self, engine: &mut Engine) -> Option<Decision> {
        self.report();
        let level = engine.level() as u32;
        match &self.pending {
            Pending::Done => None,
            Pending::Restart => {
                if level > 0 {
                    return None;
                }
                self.pending = Pending::Nothing;
                if self.unwinding {
                    self.begin(engine);
                }
                Some(ASSERT)
            }
            Pending::Jump { node, .. } => {
                if level > *node {
                    return None;
                }
                let Pending::Jump {
                    node,
                    clause,
                    lbd,
                    premises,
                } = std::mem::take(&mut self.pending)
                else {
                    return None;
                };
                let lit = clause[0];
                let blocking = lbd == 0;
                let restart = !blocking && self.restart_due();
                // A unit clause goes to the root's assertions (`add_clause`); a longer one is
                // asserted here unless the search restarts.
                let unit = clause.len() == 1;
                self.add_clause(engine, clause, lbd, blocking);
                if !unit && !restart {
                    let at = self.asserts.partition_point(|a| a.node <= node);
                    self.asserts.insert(at, Assert { node, lit, premises });
                }
                if restart {
                    self.stats.restarts += 1;
                    self.since_restart = 0;
                    if level > 0 {
                        self.pending = Pending::Restart;
                        return None;
                    }
                }
                Some(ASSERT)
            }
            Pending::Nothing => Some(ASSERT),
        }
    }

    /// Failed-value probing while learning ([`Probe`]): each probed value is tried as a
    /// decision of its own level; a conflict is analysed back to that decision, and the clause
    /// learned (the probed value's refutation, resting on the facts of earlier levels) is kept
    /// and asserted at the current node. So a probe's conclusion has a reason like any other
    /// fact, later conflicts resolve through it, and other branches inherit it through the
    /// clause. `false`: the node is dead (its conflict analysed, the jump pending).
    fn probe(&mut self, engine: &mut Engine, probe: &Probe) -> bool {
        let before = engine.changes();
        let n = probe.len(engine.num_vars());
        // Values a successful probe of this pass fixed (nothing refuted since) are skipped.
        if !engine.with_implied(|e, skip, touched| self.probe_passes(e, probe, n, skip, touched)) {
            return false;
        }
        if let Some(p) = probe.suspend {
            if engine.changes() != before {
                engine.enqueue_from(p);
                return self.propagated(engine, None);
            }
        }
        true
    }

    fn probe_passes(
        &mut self,
        engine: &mut Engine,
        probe: &Probe,
        n: usize,
        skip: &mut [Domain],
        implied: &mut Vec<u32>,
    ) -> bool {
        loop {
            let mut changed = false;
            for k in 0..n {
                let var = probe.var(k);
                for v in probe.values(engine.dom(var)) {
                    if skip[var.index()].contains(v) {
                        continue;
                    }
                    if engine.interrupted().is_some() {
                        return false;
                    }
                    // A quiet trial first, without the log and the history: most probes
                    // succeed, and their reasons would be recorded for nothing.
                    engine.push_level();
                    let (log, hist) = (engine.store.log.take(), engine.store.hist.take());
                    let ok = engine.assign(var, v).is_ok() && engine.propagate_with(probe.suspend).is_ok();
                    if ok {
                        engine.note_implied(skip, implied);
                    }
                    engine.pop_level();
                    (engine.store.log, engine.store.hist) = (log, hist);
                    engine.probe_stats.runs += 1;
                    if engine.interrupted().is_some() {
                        return false;
                    }
                    if ok {
                        continue;
                    }
                    // It failed: again, recorded, to learn why (propagation is deterministic,
                    // so it fails again; if it did not, nothing is concluded).
                    engine.push_level();
                    let level = engine.level() as u32;
                    self.decisions.push((level, self.canon(Lit::eq(var, v))));
                    if let Some(h) = &mut engine.store.hist {
                        h.frozen = true;
                    }
                    let again = engine.assign(var, v).is_ok() && engine.propagate_with(probe.suspend).is_ok();
                    let mut refuted = None;
                    if !again && engine.interrupted().is_none() {
                        let lits = self.failure_lits(engine);
                        refuted = Some(self.analyze_to(engine, &lits, true));
                    }
                    self.decisions.pop();
                    engine.pop_level();
                    if let Some(h) = &mut engine.store.hist {
                        h.frozen = false;
                    }
                    if engine.interrupted().is_some() {
                        return false;
                    }
                    let Some(refuted) = refuted else {
                        continue;
                    };
                    engine.probe_stats.conflicts += 1;
                    self.stats.probes += 1;
                    let (lit, lbd, clause, premises) = match refuted {
                        Pending::Jump {
                            clause, lbd, premises, ..
                        } if !clause[0].fails(engine.dom(clause[0].var())) => (clause[0], lbd, clause, premises),
                        // The conflict rests on the root (no solution is left) or on the node
                        // alone, not on the probe (the node is dead).
                        dead => {
                            self.pending = dead;
                            return false;
                        }
                    };
                    self.add_clause(engine, clause, lbd, false);
                    if !self.assert_at_node(engine, lit, premises) || !self.propagated(engine, probe.suspend) {
                        return false;
                    }
                    for &x in implied.iter() {
                        skip[x as usize] = Domain::EMPTY;
                    }
                    implied.clear();
                    changed = true;
                    break;
                }
            }
            if !changed || probe.passes == Passes::One {
                return true;
            }
        }
    }

    /// Asserts `lit` at the current level with its premises (a learned clause's other
    /// literals); `false` when it is false already (the conflict analysed).
    fn assert_at_node(&mut self, engine: &mut Engine, lit: Lit, premises: Vec<Premise>) -> bool {
        if lit.fails(engine.dom(lit.var())) {
            // Its reason and its opposite conflict.
            let mut lits: Vec<Lit> = premises.iter().flat_map(|p| self.premise_lits(*p)).collect();
            lits.push(lit.negate());
            self.pending = self.analyze(engine, &lits);
            return false;
        }
        engine.log_step("nogood", StepKind::Deduction, premises);
        let r = engine.store.restrict(lit.var(), lit.restriction());
        if let Some(log) = &mut engine.store.log {
            log.close();
        }
        debug_assert!(r.is_ok(), "a literal that is not false can be made true");
        true
    }

    /// Propagates (below the ceiling, if given); a conflict is analysed and `false` returned.
    fn propagated(&mut self, engine: &mut Engine, ceiling: Option<Priority>) -> bool {
        if engine.propagate_with(ceiling).is_ok() {
            return true;
        }
        if engine.interrupted().is_none() {
            let lits = self.failure_lits(engine);
            self.pending = self.analyze(engine, &lits);
        }
        false
    }

    fn restart_due(&mut self) -> bool {
        self.since_restart += 1;
        self.since_restart >= luby(self.stats.restarts + 1) * RESTART_BASE
    }

    // ----- analysis -----------------------------------------------------------------------

    /// The facts of the last failure: the failing step's premises, and the removals that
    /// emptied a domain; the decisions when the rule gave no reason.
    fn failure_lits(&mut self, engine: &mut Engine) -> Vec<Lit> {
        let emptied_dom = engine.store.emptied_dom;
        let failure = engine.take_failure();
        match failure {
            Some(f) if !f.step.premises.is_empty() => {
                let mut lits: Vec<Lit> = f.step.premises.iter().flat_map(|p| self.premise_lits(*p)).collect();
                if let Some(x) = f.emptied {
                    let rd = self.root_dom[x.index()];
                    lits.extend(emptied_dom.and(rd).iter().map(|w| Lit::ne(x, w)));
                }
                lits
            }
            _ => {
                self.stats.fallbacks += 1;
                self.decision_lits()
            }
        }
    }

    /// The true facts a premise stands for.
    fn premise_lits(&self, p: Premise) -> smallvec::SmallVec<[Lit; 4]> {
        let x = p.var.index();
        let rd = self.root_dom[x];
        let d = p.dom.and(rd);
        match d.value() {
            Some(v) => smallvec::smallvec![self.canon(Lit::eq(p.var, v))],
            None => rd.minus(d).iter().map(|w| Lit::ne(p.var, w)).collect(),
        }
    }

    /// Where a true fact comes from: `(level, step, order within the step, literal)`; `None`
    /// at the root. A decision's facts are its literal, first in its step.
    fn locate(&self, engine: &Engine, lit: Lit) -> Option<(u32, u32, u8, Lit)> {
        let hist = engine.store.hist.as_ref()?;
        let log = engine.store.log.as_ref()?;
        let x = lit.var().0;
        let fact = if lit.is_eq() {
            hist.last_change(x)?
        } else {
            hist.removal(x, lit.value())?
        };
        let step = log.steps.get(fact.step as usize)?;
        if step.rule == "nogood" && step.premises.is_empty() {
            return None;
        }
        if step.kind == StepKind::Decision {
            let k = self.decisions.partition_point(|d| d.0 < fact.level);
            let head = self.decisions.get(k).filter(|d| d.0 == fact.level)?;
            return Some((fact.level, fact.step, 0, head.1));
        }
        let sub = if lit.is_eq() { 2 } else { 1 };
        Some((fact.level, fact.step, sub, lit))
    }

    /// 1-UIP analysis of a conflict among the true facts `conflict`: the clause to learn and
    /// the node to assert it at.
    fn analyze(&mut self, engine: &Engine, conflict: &[Lit]) -> Pending {
        self.analyze_to(engine, conflict, false)
    }

    /// [`Learner::analyze`]; with `last_uip`, the facts of the conflict's level are resolved
    /// back to its decision (the *last* UIP) where they can be: a probe's conflict thus gives
    /// the clause that refutes the probed value itself.
    fn analyze_to(&mut self, engine: &Engine, conflict: &[Lit], last_uip: bool) -> Pending {
        self.stats.conflicts += 1;
        // The conflict's level: the highest decision level among its facts (a clause whose
        // watches missed an event, or a rule that ran late, can fail on facts of an earlier
        // level). None above the root: no solution is left.
        let top = conflict
            .iter()
            .filter_map(|&l| self.locate(engine, self.canon(l)))
            .map(|f| self.decision_level(f.0))
            .max()
            .unwrap_or(0);
        if top == 0 {
            return Pending::Done;
        }
        let current = self.decisions[top - 1].0;
        let mut heap: BinaryHeap<(u32, u8, Lit, u32)> = BinaryHeap::new();
        let mut lower: Vec<(u32, Lit)> = Vec::new();
        let mut marked: Vec<Lit> = Vec::new();
        let mut add = |me: &mut Learner, lit: Lit, heap: &mut BinaryHeap<(u32, u8, Lit, u32)>| {
            let lit = me.canon(lit);
            let Some((level, step, sub, lit)) = me.locate(engine, lit) else {
                return;
            };
            let x = lit.var().index();
            let seen = if lit.is_eq() {
                &mut me.seen_eq[x]
            } else {
                &mut me.seen_ne[x]
            };
            if seen.contains(lit.value()) {
                return;
            }
            seen.insert(lit.value());
            marked.push(lit);
            me.bump(x);
            if level >= current {
                heap.push((step, sub, lit, level));
            } else {
                lower.push((level, lit));
            }
        };
        for &l in conflict {
            add(self, l, &mut heap);
        }
        let uip = loop {
            let Some((step, sub, lit, fact_level)) = heap.pop() else {
                // Nothing of the last level: the conflict's facts hold at the root (every
                // reason led there). No solution is left.
                break None;
            };
            if sub == 0 || (heap.is_empty() && !last_uip) {
                break Some(lit);
            }
            // Resolve: the fact's reason replaces it.
            let x = lit.var();
            // `explained`: the rule's own reason (`Some(false)`: the decisions stand in).
            let (reason, explained): (Vec<Lit>, Option<bool>) = if sub == 2 {
                let v = lit.value();
                let domain = self.root_dom[x.index()].without(v).iter().map(|w| Lit::ne(x, w));
                (domain.collect(), None)
            } else {
                let s = &engine.store.log.as_ref().expect("learning keeps the log").steps[step as usize];
                if s.kind == StepKind::Probe || s.premises.is_empty() {
                    let heads = self.decisions.iter().filter(|d| d.0 <= fact_level).map(|d| d.1);
                    (heads.collect(), Some(false))
                } else {
                    let premises = s.premises.iter().flat_map(|p| self.premise_lits(*p));
                    (premises.collect(), Some(true))
                }
            };
            if heap.is_empty()
                && !reason
                    .iter()
                    .any(|&l| self.locate(engine, self.canon(l)).is_some_and(|f| f.0 >= current))
            {
                // The last fact of its level rests on earlier levels alone: it is the UIP.
                break Some(lit);
            }
            match explained {
                Some(true) => self.stats.explained += 1,
                Some(false) => self.stats.fallbacks += 1,
                None => {}
            }
            for l in reason {
                add(self, l, &mut heap);
            }
        };
        // Minimisation: a literal whose reason the other marked facts imply goes (N. Sörensson
        // and A. Biere, "Minimizing learned clauses", SAT 2009).
        if uip.is_some() && lower.len() > 1 {
            let mut memo = std::mem::take(&mut self.memo);
            let mut budget = 4096u32;
            let before = lower.len();
            lower.retain(|&(_, l)| !self.redundant(engine, l, &mut memo, &mut budget, 0));
            memo.clear();
            self.memo = memo;
            self.stats.minimised += (before - lower.len()) as u64;
        }
        for l in marked {
            let x = l.var().index();
            if l.is_eq() {
                self.seen_eq[x] = Domain::EMPTY;
            } else {
                self.seen_ne[x] = Domain::EMPTY;
            }
        }
        self.inc *= 1.0 / 0.95;
        if self.inc > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.inc *= 1e-100;
        }
        let Some(uip) = uip else {
            return Pending::Done;
        };
        // The clause: the UIP's opposite first, then the literal of the highest level.
        lower.sort_by_key(|l| std::cmp::Reverse(l.0));
        let mut clause = Vec::with_capacity(lower.len() + 1);
        clause.push(uip.negate());
        clause.extend(lower.iter().map(|l| l.1.negate()));
        let mut levels: Vec<usize> = lower.iter().map(|l| self.decision_level(l.0)).collect();
        levels.push(top);
        levels.dedup();
        let lbd = levels.len() as u32;
        let t = lower.first().map_or(0, |l| self.decision_level(l.0));
        let node = if t == 0 { 0 } else { self.decisions[t].0 - 1 };
        self.stats.learned += 1;
        self.stats.literals += clause.len() as u64;
        #[cfg(test)]
        self.trace
            .push((clause.clone(), conflict.to_vec(), self.stats.blocking));
        let premises = lower.iter().map(|l| l.1.premise()).collect();
        Pending::Jump {
            node,
            clause,
            lbd: lbd.max(1),
            premises,
        }
    }

    /// The decision level of an engine level (decisions at or below it).
    fn decision_level(&self, level: u32) -> usize {
        self.decisions.partition_point(|d| d.0 <= level)
    }

    /// Is the marked fact `lit` implied by the other marked facts (its reason's facts are all
    /// marked, at the root, or so implied in turn)? `budget` caps the work of one analysis.
    fn redundant(&self, engine: &Engine, lit: Lit, memo: &mut LitMemo, budget: &mut u32, depth: u32) -> bool {
        if let Some(r) = memo.get(lit) {
            return r;
        }
        if *budget == 0 || depth > 16 {
            return false;
        }
        *budget -= 1;
        let Some((_, step, sub, lit)) = self.locate(engine, lit) else {
            return true;
        };
        let implied = |f: Lit, memo: &mut LitMemo, budget: &mut u32| {
            let f = self.canon(f);
            let x = f.var().index();
            let seen = if f.is_eq() { self.seen_eq[x] } else { self.seen_ne[x] };
            seen.contains(f.value()) || self.redundant(engine, f, memo, budget, depth + 1)
        };
        let ok = match sub {
            0 => return false,
            2 => {
                let x = lit.var();
                self.root_dom[x.index()]
                    .without(lit.value())
                    .iter()
                    .all(|w| implied(Lit::ne(x, w), memo, budget))
            }
            _ => {
                let Some(s) = engine.store.log.as_ref().and_then(|log| log.steps.get(step as usize)) else {
                    return false;
                };
                if s.kind == StepKind::Probe || s.premises.is_empty() {
                    return false;
                }
                s.premises
                    .iter()
                    .all(|p| self.premise_lits(*p).into_iter().all(|f| implied(f, memo, budget)))
            }
        };
        memo.insert(lit, ok);
        ok
    }

    /// Reports the counters' growth to the run's shared counters.
    fn report(&mut self) {
        if let Some(sink) = &self.sink {
            sink.add(&self.stats, &self.reported);
            self.reported = self.stats;
        }
    }

    fn bump(&mut self, x: usize) {
        if let Some(a) = self.activity.get_mut(x) {
            *a += self.inc;
        }
    }
}
