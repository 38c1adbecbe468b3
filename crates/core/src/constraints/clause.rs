//! Clauses over Boolean variables: "at least one of these literals holds", a family of them
//! under one rule name. The rules that line, shading and star genres state cell by cell are
//! clauses: two stars never touch (`¬a ∨ ¬b`), a 2×2 block is not all wall
//! (`¬a ∨ ¬b ∨ ¬c ∨ ¬d`), a black pearl's line goes straight on past its neighbour
//! (`¬north ∨ north-of-north`), a snake cell beside another is linked to it
//! (`¬a ∨ ¬b ∨ link`). As clauses they propagate (unit propagation), explain themselves (the
//! literals already false are the premises) and export to CNF / OPB / LP as they are.
//!
//! Each clause keeps the number of its literals not yet false in a trailed integer, updated
//! by notifications (O(1) per event); at one literal left it is made true, at none the clause
//! fails. The propagator is idempotent: what it fixes is counted in every clause at once.

use super::worklist::Worklist;
use crate::domain::Domain;
use crate::encode::{Encoded, Encoder};
use crate::engine::{Conflict, Context, Init, IntId, Ints, Premise, Priority, Propagator, VarId, FALSE, TRUE};

/// A literal: a Boolean variable and the value that makes the literal true.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Literal {
    /// The variable.
    pub var: VarId,
    /// True: the literal holds when the variable is [`TRUE`]; false: when it is [`FALSE`].
    pub positive: bool,
}

impl Literal {
    /// `var` is true.
    pub fn is(var: VarId) -> Self {
        Literal { var, positive: true }
    }
    /// `var` is false.
    pub fn not(var: VarId) -> Self {
        Literal { var, positive: false }
    }
    /// The engine value that makes the literal true.
    #[inline]
    pub fn value(self) -> u32 {
        if self.positive {
            TRUE
        } else {
            FALSE
        }
    }
}

/// A family of clauses named `name` (see the module docs).
///
/// ```
/// use pencilbox_core::constraints::{Clauses, Literal};
/// use pencilbox_core::engine::{Engine, FALSE, TRUE};
/// let mut e = Engine::new();
/// let (a, b, c) = (e.new_bool(), e.new_bool(), e.new_bool());
/// let mut no_touch = Clauses::new("no-touch");
/// no_touch.add(&[Literal::not(a), Literal::not(b)]).add(&[Literal::not(b), Literal::not(c)]);
/// e.post(no_touch);
/// e.assign(b, TRUE).unwrap();
/// e.propagate().unwrap();
/// assert_eq!((e.value(a), e.value(c)), (Some(FALSE), Some(FALSE)));
/// ```
pub struct Clauses {
    name: &'static str,
    priority: Priority,
    /// The literals of every clause, clause after clause; clause `k` is
    /// `lits[start[k]..start[k + 1]]`.
    lits: Vec<Literal>,
    start: Vec<u32>,
    /// Per clause: how many literals are not false.
    alive: Vec<IntId>,
    /// The distinct variables (from `init` on) and, for variable `i`, its occurrences
    /// `occ[occ_start[i]..occ_start[i + 1]]` as (clause, the value that makes it false there).
    vars: Vec<VarId>,
    occ_start: Vec<u32>,
    occ: Vec<(u32, u32)>,
    dirty: Worklist,
}

impl Clauses {
    /// An empty family of clauses named `name` (priority [`Priority::Immediate`]).
    pub fn new(name: &'static str) -> Self {
        Clauses {
            name,
            priority: Priority::Immediate,
            lits: Vec::new(),
            start: vec![0],
            alive: Vec::new(),
            vars: Vec::new(),
            occ_start: Vec::new(),
            occ: Vec::new(),
            dirty: Worklist::default(),
        }
    }

    /// The same family run at `priority`.
    pub fn at(mut self, priority: Priority) -> Self {
        self.priority = priority;
        self
    }

    /// Adds the clause "at least one of `lits`" (an empty clause can never hold).
    pub fn add(&mut self, lits: &[Literal]) -> &mut Self {
        self.lits.extend_from_slice(lits);
        self.start.push(self.lits.len() as u32);
        self
    }

    /// How many clauses the family has.
    pub fn len(&self) -> usize {
        self.start.len() - 1
    }

    /// Has no clause been added?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn clause(&self, k: usize) -> &[Literal] {
        &self.lits[self.start[k] as usize..self.start[k + 1] as usize]
    }

    /// Makes clause `k` hold when one literal is left; what it fixes is counted everywhere.
    fn apply(&mut self, cx: &mut Context, k: usize) -> Result<(), Conflict> {
        let mut open = None;
        for &l in self.clause(k) {
            let d = cx.dom(l.var);
            if d == Domain::single(l.value()) {
                return Ok(()); // satisfied
            }
            if !d.is_single() {
                if open.is_some() {
                    return Ok(()); // two open literals: nothing to do
                }
                open = Some(l);
            }
        }
        // The reason: the clause's false literals (all of them: the contradiction).
        if cx.explaining() {
            let premises: Vec<Premise> = self
                .clause(k)
                .iter()
                .filter(|l| open.is_none_or(|o| l.var != o.var))
                .map(|l| Premise::is(l.var, TRUE + FALSE - l.value()))
                .collect();
            cx.because(premises);
        }
        let Some(last) = open else {
            return Err(Conflict);
        };
        cx.assign(last.var, last.value())?;
        self.fixed(cx, last.var, last.value());
        Ok(())
    }

    /// `var` (fixed by this propagator) took `value`: the clauses where that makes a literal
    /// false lose one live literal.
    fn fixed(&mut self, cx: &mut Context, var: VarId, value: u32) {
        let Ok(i) = self.vars.binary_search(&var) else {
            return;
        };
        for j in self.occ_start[i]..self.occ_start[i + 1] {
            let (k, falsifying) = self.occ[j as usize];
            if falsifying == value {
                let id = self.alive[k as usize];
                let n = cx.int(id) - 1;
                cx.set_int(id, n);
                if n <= 1 {
                    self.dirty.push(k);
                }
            }
        }
    }
}

impl Propagator for Clauses {
    fn name(&self) -> &'static str {
        self.name
    }
    fn priority(&self) -> Priority {
        self.priority
    }
    fn idempotent(&self) -> bool {
        true
    }
    fn encode(&self, enc: &mut Encoder) -> Encoded {
        for k in 0..self.len() {
            let mut row = Vec::with_capacity(self.clause(k).len());
            let mut holds = false;
            for &l in self.clause(k) {
                // A literal that can never hold drops out; one that always holds (its opposite
                // is impossible) satisfies the clause.
                if let Some(x) = enc.is(l.var, l.value()) {
                    row.push(x);
                }
                if enc.is(l.var, TRUE + FALSE - l.value()).is_none() {
                    holds = true;
                }
            }
            if !holds {
                enc.clause(row);
            }
        }
        Encoded::Posted
    }
    fn init(&mut self, init: &mut Init) {
        let mut vars: Vec<VarId> = self.lits.iter().map(|l| l.var).collect();
        vars.sort_unstable();
        vars.dedup();
        let mut count = vec![0u32; vars.len() + 1];
        for l in &self.lits {
            let i = vars.binary_search(&l.var).unwrap_or(0);
            count[i + 1] += 1;
        }
        for i in 0..vars.len() {
            count[i + 1] += count[i];
        }
        let mut next = count.clone();
        self.occ = vec![(0, 0); self.lits.len()];
        self.alive = Vec::with_capacity(self.len());
        for k in 0..self.len() {
            if k % 1024 == 0 && init.should_stop() {
                return;
            }
            let mut alive = 0;
            for j in self.start[k] as usize..self.start[k + 1] as usize {
                let l = self.lits[j];
                let i = vars.binary_search(&l.var).unwrap_or(0);
                self.occ[next[i] as usize] = (k as u32, TRUE + FALSE - l.value());
                next[i] += 1;
                if init.dom(l.var) != Domain::single(TRUE + FALSE - l.value()) {
                    alive += 1;
                }
            }
            self.alive.push(init.int(alive));
        }
        self.occ_start = count;
        for (i, &v) in vars.iter().enumerate() {
            init.watch(v, i as u32);
        }
        self.vars = vars;
        self.dirty = Worklist::new(self.len());
    }
    #[inline]
    fn notify(&mut self, ints: &mut Ints, tag: u32, old: Domain, new: Domain) -> bool {
        if old.is_single() || !new.is_single() {
            return false;
        }
        let value = if new == Domain::single(TRUE) { TRUE } else { FALSE };
        let i = tag as usize;
        let mut wake = false;
        for j in self.occ_start[i]..self.occ_start[i + 1] {
            let (k, falsifying) = self.occ[j as usize];
            if falsifying == value && ints.add(self.alive[k as usize], -1) <= 1 {
                self.dirty.push(k);
                wake = true;
            }
        }
        wake
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        // Recount every clause, then look at those with at most one live literal.
        self.dirty.clear();
        for k in 0..self.len() {
            if k % 1024 == 0 && cx.should_stop() {
                return Ok(());
            }
            let alive = self
                .clause(k)
                .iter()
                .filter(|l| cx.dom(l.var) != Domain::single(TRUE + FALSE - l.value()))
                .count();
            cx.set_int(self.alive[k], alive as i64);
            if alive <= 1 {
                self.dirty.push(k as u32);
            }
        }
        self.incremental(cx)
    }
    fn incremental(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        while let Some(k) = self.dirty.pop() {
            self.apply(cx, k as usize)?;
        }
        Ok(())
    }
    fn backtracked(&mut self) {
        self.dirty.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, EngineSearch, SmallestDomain};
    use crate::search::{count_keeping, Limits};
    use proptest::prelude::*;

    /// Counts the assignments of `n` Booleans that satisfy every clause, by enumeration.
    fn brute(n: usize, clauses: &[Vec<(usize, bool)>]) -> u64 {
        (0u32..1 << n)
            .filter(|m| {
                clauses
                    .iter()
                    .all(|c| c.iter().any(|&(i, pos)| (m >> i & 1 == 1) == pos))
            })
            .count() as u64
    }

    proptest! {
        #[test]
        fn the_engine_counts_exactly_the_satisfying_assignments(
            n in 1usize..7,
            raw in prop::collection::vec(prop::collection::vec((0usize..7, any::<bool>()), 0..4), 0..8),
        ) {
            let clauses: Vec<Vec<(usize, bool)>> = raw
                .into_iter()
                .map(|c| c.into_iter().map(|(i, p)| (i % n, p)).collect())
                .collect();
            let mut e = Engine::new();
            let x: Vec<VarId> = (0..n).map(|_| e.new_bool()).collect();
            let mut f = Clauses::new("clauses");
            for c in &clauses {
                let lits: Vec<Literal> = c.iter().map(|&(i, p)| Literal { var: x[i], positive: p }).collect();
                f.add(&lits);
            }
            e.post(f);
            let mut s = EngineSearch::new(e, SmallestDomain::new());
            let (r, _) = count_keeping(&mut s, &Limits::all(), 0, |_| ());
            prop_assert_eq!(r.solutions, brute(n, &clauses));
        }
    }

    #[test]
    fn a_fixed_variable_before_posting_counts_at_once() {
        let mut e = Engine::new();
        let (a, b) = (e.new_bool(), e.new_bool());
        e.assign(a, FALSE).unwrap();
        let mut f = Clauses::new("c");
        f.add(&[Literal::is(a), Literal::is(b)]);
        e.post(f);
        e.propagate().unwrap();
        assert_eq!(e.value(b), Some(TRUE));
    }
}
