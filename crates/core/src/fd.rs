//! The finite-domain layer: variables with [`Domain`]s, trail-based undo, propagators run to a
//! fixpoint, and a smallest-domain-first search on top of the generic driver.
//!
//! # Background
//! A puzzle whose cells take values is modelled as variables (one per cell) and constraints.
//! Each constraint is a [`Propagator`] that removes values which cannot appear in any solution
//! given the other domains. After each decision the [`Model`] runs the propagators of every
//! variable that changed until nothing changes (the fixpoint); an empty domain is a conflict.
//!
//! # Practical
//! * Domain changes go through [`Domains`], which records `(var, old domain)` on a [`Trail`]
//!   only when a domain actually shrinks; backtracking pops a level and restores them.
//! * Propagators are written *from scratch*: `propagate` looks at the current domains of its
//!   variables and prunes. They are re-run whenever one of their variables changes. This keeps
//!   every propagator correct on its own and usable as a test oracle.
//! * [`FdSearch`] implements [`Backtrack`]: branch on the unfixed variable with the smallest
//!   domain (lowest id on ties), values in increasing order.
//!
//! # How to add a constraint
//! Implement [`Propagator`]: `name`, `vars` (the variables it watches) and `propagate`, which
//! must (a) never remove a value that appears in some solution of the constraint given the
//! current domains, and (b) return `Err(Conflict)` when the constraint cannot be satisfied.
//! It may leave work undone (it is re-run after any change of its variables, including its own
//! changes). Post it with [`Model::post`].

use crate::domain::Domain;
use crate::search::{Backtrack, Expand};
use crate::trail::{Level, Trail};
use smallvec::SmallVec;
use std::collections::VecDeque;

/// A variable of a [`Model`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarId(pub u32);

impl VarId {
    /// The index of the variable.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// The variable with this index.
    #[inline]
    pub fn from_index(i: usize) -> Self {
        VarId(i as u32)
    }
}

/// A constraint could not be satisfied (some domain became empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict;

/// Variable domains with undo.
#[derive(Clone, Debug, Default)]
pub struct Domains {
    doms: Vec<Domain>,
    trail: Trail<(u32, Domain)>,
    changed: Vec<u32>,
}

impl Domains {
    /// Number of variables.
    pub fn len(&self) -> usize {
        self.doms.len()
    }
    /// No variables?
    pub fn is_empty(&self) -> bool {
        self.doms.is_empty()
    }
    /// The domain of `v`.
    #[inline]
    pub fn get(&self, v: VarId) -> Domain {
        self.doms[v.index()]
    }
    /// All domains, indexed by variable.
    pub fn as_slice(&self) -> &[Domain] {
        &self.doms
    }
    /// Replaces `v`'s domain by `d ∩ dom(v)`; `Ok(true)` when it shrank.
    #[inline]
    pub fn restrict(&mut self, v: VarId, d: Domain) -> Result<bool, Conflict> {
        let old = self.doms[v.index()];
        let new = old.and(d);
        if new == old {
            return Ok(false);
        }
        if new.is_empty() {
            return Err(Conflict);
        }
        self.trail.push((v.0, old));
        self.doms[v.index()] = new;
        self.changed.push(v.0);
        Ok(true)
    }
    /// Removes `val` from `v`'s domain.
    #[inline]
    pub fn remove(&mut self, v: VarId, val: u32) -> Result<bool, Conflict> {
        self.restrict(v, Domain::ALL.without(val))
    }
    /// Fixes `v` to `val`.
    #[inline]
    pub fn assign(&mut self, v: VarId, val: u32) -> Result<bool, Conflict> {
        self.restrict(v, Domain::single(val))
    }
    /// The current decision level.
    pub fn level(&self) -> Level {
        self.trail.level()
    }
}

/// A constraint, run from scratch on the current domains. See the module docs.
pub trait Propagator: Send {
    /// The rule's name, for statistics and messages.
    fn name(&self) -> &'static str;
    /// The variables whose changes wake this propagator.
    fn vars(&self) -> &[VarId];
    /// Prunes the domains of its variables; `Err` when unsatisfiable.
    fn propagate(&mut self, doms: &mut Domains) -> Result<(), Conflict>;
}

/// Variables, propagators and the propagation queue.
#[derive(Default)]
pub struct Model {
    /// The domains (read them to decode a solution).
    pub doms: Domains,
    props: Vec<Box<dyn Propagator>>,
    watches: Vec<SmallVec<[u32; 6]>>,
    queue: VecDeque<u32>,
    queued: Vec<bool>,
    /// Number of propagator runs so far.
    pub propagations: u64,
}

impl Model {
    /// An empty model.
    pub fn new() -> Self {
        Model::default()
    }
    /// Adds a variable with an initial domain.
    pub fn new_var(&mut self, d: Domain) -> VarId {
        let v = VarId::from_index(self.doms.doms.len());
        self.doms.doms.push(d);
        self.watches.push(SmallVec::new());
        if d.is_empty() {
            // Remember that the model is already inconsistent.
            self.doms.changed.push(v.0);
        }
        v
    }
    /// Adds a constraint; it runs at the next [`Model::propagate`].
    pub fn post(&mut self, p: Box<dyn Propagator>) {
        let id = self.props.len() as u32;
        for v in p.vars() {
            let w = &mut self.watches[v.index()];
            if w.last() != Some(&id) {
                w.push(id);
            }
        }
        self.props.push(p);
        self.queued.push(true);
        self.queue.push_back(id);
    }
    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.doms.len()
    }
    /// The domain of `v`.
    #[inline]
    pub fn dom(&self, v: VarId) -> Domain {
        self.doms.get(v)
    }
    /// Runs propagators until nothing changes. On a conflict the queue is emptied.
    pub fn propagate(&mut self) -> Result<(), Conflict> {
        loop {
            for v in self.doms.changed.drain(..) {
                if self.doms.doms[v as usize].is_empty() {
                    self.queue.clear();
                    self.queued.iter_mut().for_each(|q| *q = false);
                    return Err(Conflict);
                }
                for &p in &self.watches[v as usize] {
                    if !self.queued[p as usize] {
                        self.queued[p as usize] = true;
                        self.queue.push_back(p);
                    }
                }
            }
            let Some(p) = self.queue.pop_front() else {
                return Ok(());
            };
            self.queued[p as usize] = false;
            self.propagations += 1;
            if self.props[p as usize].propagate(&mut self.doms).is_err() {
                self.doms.changed.clear();
                for q in self.queue.drain(..) {
                    self.queued[q as usize] = false;
                }
                return Err(Conflict);
            }
        }
    }
    /// Opens a decision level.
    pub fn push_level(&mut self) {
        self.doms.trail.new_level();
    }
    /// The current decision level.
    pub fn level(&self) -> Level {
        self.doms.trail.level()
    }
    /// Restores every domain to what it was when `level` was current.
    pub fn backtrack_to(&mut self, level: Level) {
        let doms = &mut self.doms.doms;
        self.doms.trail.backtrack_to(level, |(v, old)| doms[v as usize] = old);
        self.doms.changed.clear();
    }
    /// True when every variable is fixed.
    pub fn all_fixed(&self) -> bool {
        self.doms.doms.iter().all(|d| d.is_single())
    }
    /// The fixed values of all variables (`None` for unfixed ones).
    pub fn values(&self) -> Vec<Option<u32>> {
        self.doms.doms.iter().map(|d| d.value()).collect()
    }
}

/// `a ≠ b`.
pub struct NotEqual {
    vars: [VarId; 2],
}

impl NotEqual {
    /// The constraint `a ≠ b`.
    pub fn new(a: VarId, b: VarId) -> Self {
        NotEqual { vars: [a, b] }
    }
}

impl Propagator for NotEqual {
    fn name(&self) -> &'static str {
        "not-equal"
    }
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn propagate(&mut self, doms: &mut Domains) -> Result<(), Conflict> {
        let [a, b] = self.vars;
        if let Some(v) = doms.get(a).value() {
            doms.remove(b, v)?;
        }
        if let Some(v) = doms.get(b).value() {
            doms.remove(a, v)?;
        }
        Ok(())
    }
}

/// Pairwise-different variables; as a *permutation* of a value set it also finds hidden
/// singles (a value only one variable can take) and detects missing values.
pub struct AllDifferent {
    vars: Vec<VarId>,
    /// When set, the variables must take exactly these values (|values| = |vars|).
    values: Option<Domain>,
}

impl AllDifferent {
    /// Pairwise different.
    pub fn new(vars: Vec<VarId>) -> Self {
        AllDifferent { vars, values: None }
    }
    /// A permutation of `values` over `vars` (which must have `values.len()` variables).
    pub fn permutation(vars: Vec<VarId>, values: Domain) -> Self {
        debug_assert_eq!(vars.len(), values.len() as usize);
        AllDifferent {
            vars,
            values: Some(values),
        }
    }
}

impl Propagator for AllDifferent {
    fn name(&self) -> &'static str {
        "all-different"
    }
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn propagate(&mut self, doms: &mut Domains) -> Result<(), Conflict> {
        loop {
            // Naked singles: remove every fixed value from the others.
            let mut fixed = Domain::EMPTY;
            let mut union = Domain::EMPTY;
            for &v in &self.vars {
                let d = doms.get(v);
                union = union.or(d);
                if let Some(x) = d.value() {
                    if fixed.contains(x) {
                        return Err(Conflict);
                    }
                    fixed.insert(x);
                }
            }
            if (union.len() as usize) < self.vars.len() {
                return Err(Conflict); // pigeonhole
            }
            let mut changed = false;
            for &v in &self.vars {
                let d = doms.get(v);
                if !d.is_single() && !d.and(fixed).is_empty() {
                    doms.restrict(v, d.minus(fixed))?;
                    changed = true;
                }
            }
            // Hidden singles: in a permutation, a value held by one variable goes there.
            if let Some(values) = self.values {
                let mut once = Domain::EMPTY;
                let mut twice = Domain::EMPTY;
                for &v in &self.vars {
                    let d = doms.get(v);
                    twice = twice.or(once.and(d));
                    once = once.or(d);
                }
                if !values.minus(once).is_empty() {
                    return Err(Conflict);
                }
                let singles = values.minus(twice);
                if !singles.is_empty() {
                    for &v in &self.vars {
                        let d = doms.get(v);
                        let s = d.and(singles);
                        if !s.is_empty() && !d.is_single() {
                            if !s.is_single() {
                                return Err(Conflict);
                            }
                            doms.restrict(v, s)?;
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

/// Smallest-domain-first search over a [`Model`], for the generic driver.
pub struct FdSearch {
    /// The model being searched.
    pub model: Model,
    root_done: bool,
}

impl FdSearch {
    /// Wraps a model; root propagation happens at the first expansion.
    pub fn new(model: Model) -> Self {
        FdSearch {
            model,
            root_done: false,
        }
    }
    fn choose(&self) -> Option<VarId> {
        let mut best: Option<(u32, usize)> = None;
        for (i, d) in self.model.doms.as_slice().iter().enumerate() {
            let n = d.len();
            if n > 1 && best.is_none_or(|(m, _)| n < m) {
                best = Some((n, i));
                if n == 2 {
                    break;
                }
            }
        }
        best.map(|(_, i)| VarId::from_index(i))
    }
}

impl Backtrack for FdSearch {
    type Branch = (VarId, u32);
    fn expand(&mut self, out: &mut Vec<Self::Branch>) -> Expand {
        if !self.root_done {
            self.root_done = true;
            if self.model.propagate().is_err() {
                self.root_done = false;
                return Expand::Dead;
            }
        }
        match self.choose() {
            None => Expand::Solution,
            Some(v) => {
                out.extend(self.model.dom(v).iter().map(|x| (v, x)));
                Expand::Branches
            }
        }
    }
    fn apply(&mut self, (v, x): Self::Branch) -> bool {
        self.model.push_level();
        self.model.doms.assign(v, x).is_ok() && self.model.propagate().is_ok()
    }
    fn undo(&mut self, _: Self::Branch) {
        let l = self.model.level();
        self.model.backtrack_to(l - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{run, Flow, Limits};

    fn latin(n: u32) -> Model {
        let mut m = Model::new();
        let vars: Vec<VarId> = (0..n * n).map(|_| m.new_var(Domain::range(1, n))).collect();
        for i in 0..n {
            let row = (0..n).map(|j| vars[(i * n + j) as usize]).collect();
            let col = (0..n).map(|j| vars[(j * n + i) as usize]).collect();
            m.post(Box::new(AllDifferent::permutation(row, Domain::range(1, n))));
            m.post(Box::new(AllDifferent::permutation(col, Domain::range(1, n))));
        }
        m
    }

    #[test]
    fn latin_squares_of_order_4_number_576() {
        let mut s = FdSearch::new(latin(4));
        let r = run(&mut s, &Limits::all(), |s| {
            assert!(s.model.all_fixed());
            Flow::Continue
        });
        assert_eq!(r.solutions, 576);
    }

    #[test]
    fn backtracking_restores_domains_above_level() {
        let mut m = latin(3);
        m.propagate().unwrap();
        let before = m.doms.as_slice().to_vec();
        m.push_level();
        m.doms.assign(VarId(0), 2).unwrap();
        m.propagate().unwrap();
        assert_ne!(m.doms.as_slice(), &before[..]);
        m.backtrack_to(0);
        assert_eq!(m.doms.as_slice(), &before[..]);
    }

    #[test]
    fn hidden_single_is_placed_and_pigeonhole_conflicts() {
        let mut m = Model::new();
        let a = m.new_var(Domain::range(1, 2));
        let b = m.new_var(Domain::range(1, 2));
        let c = m.new_var(Domain::range(1, 3));
        m.post(Box::new(AllDifferent::permutation(vec![a, b, c], Domain::range(1, 3))));
        m.propagate().unwrap();
        assert_eq!(m.dom(c).value(), Some(3));
        let mut m = Model::new();
        let vs: Vec<_> = (0..3).map(|_| m.new_var(Domain::range(1, 2))).collect();
        m.post(Box::new(AllDifferent::new(vs)));
        assert_eq!(m.propagate(), Err(Conflict));
    }

    #[test]
    fn not_equal_removes_the_fixed_value() {
        let mut m = Model::new();
        let a = m.new_var(Domain::single(2));
        let b = m.new_var(Domain::range(1, 3));
        m.post(Box::new(NotEqual::new(a, b)));
        m.propagate().unwrap();
        assert_eq!(m.dom(b), Domain::from_iter([1, 3]));
    }
}
