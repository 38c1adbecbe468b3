//! Sums of Boolean variables: exactly `k` of them true (a row clue, a colour count), or an odd
//! or even number of them (the crossing parity of a cut).
//!
//! The counts of true and undecided variables are trailed integers updated by notifications,
//! so a change costs O(1) until the sum forces something; `propagate` recounts from scratch.
//! Several sums of one rule (every clued row and column) can share one propagator
//! ([`BoolSum::add`]): a variable in two of them (a cell in its row and its column) is then
//! watched once, and what one sum fixes is counted in the others within the same run.

use super::worklist::Worklist;
use crate::domain::Domain;
use crate::encode::{Cmp, Encoded, Encoder};
use crate::engine::{Conflict, Context, Init, IntId, Ints, Premise, Priority, Propagator, VarId, FALSE, TRUE};

/// Long loops of posting poll the limits once per this many members.
const POLL_ITEMS: usize = 1024;

/// What the sum must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SumRule {
    /// Exactly this many are true.
    Exactly(u32),
    /// At most this many are true.
    AtMost(u32),
    /// At least this many are true.
    AtLeast(u32),
    /// An odd (`true`) or even (`false`) number are true.
    Parity(bool),
}

/// Constraints on how many of some Boolean variables are true, under a rule name of the
/// caller's choice (`lines`, `colours`, `cuts`): one sum ([`BoolSum::new`]) or a family of sums
/// of the same rule posted as one propagator ([`BoolSum::add`]).
///
/// ```
/// use pencilbox_core::constraints::{BoolSum, SumRule};
/// use pencilbox_core::engine::{Engine, TRUE};
/// let mut e = Engine::new();
/// let x: Vec<_> = (0..4).map(|_| e.new_bool()).collect();
/// e.post(BoolSum::new("lines", x.clone(), SumRule::Exactly(2)));
/// e.assign(x[0], TRUE).unwrap();
/// e.assign(x[1], TRUE).unwrap();
/// e.propagate().unwrap();
/// assert!(x[2..].iter().all(|&v| e.value(v) == Some(pencilbox_core::engine::FALSE)));
/// ```
pub struct BoolSum {
    name: &'static str,
    sums: Vec<Sum>,
    /// The members of every sum, sum after sum (as posted).
    posted: Vec<VarId>,
    /// The same members as indices into `vars` (from `init` on).
    members: Vec<u32>,
    /// The distinct variables of the family (from `init` on).
    vars: Vec<VarId>,
    /// For variable `i` of `vars`, the sums containing it: `of[of_start[i]..of_start[i + 1]]`.
    of_start: Vec<u32>,
    of: Vec<In>,
    /// Sums with something to deduce.
    dirty: Worklist,
}

/// One sum of a family.
#[derive(Clone, Copy, Debug)]
struct Sum {
    /// Its members: `members[from..to]`.
    from: u32,
    to: u32,
    rule: SumRule,
    /// The true count times 2³² plus the undecided count: one trailed integer, so an event
    /// costs one trail entry.
    counts: IntId,
}

/// A variable's membership of a sum: the sum, its rule and its counts (copied here so that a
/// notification reads one array).
#[derive(Clone, Copy, Debug)]
struct In {
    sum: u32,
    counts: IntId,
    rule: SumRule,
}

/// The packed counts of a [`Sum`].
#[inline]
fn pack(yes: u32, open: u32) -> i64 {
    (i64::from(yes) << 32) | i64::from(open)
}

#[inline]
fn unpack(counts: i64) -> (u32, u32) {
    ((counts >> 32) as u32, counts as u32)
}

/// The change of the packed counts when a member is fixed.
#[inline]
fn delta(to_true: bool) -> i64 {
    if to_true {
        pack(1, 0) - 1
    } else {
        -1
    }
}

/// Has a sum of rule `rule` something to deduce (or a conflict) with these counts?
#[inline]
fn forcing(rule: SumRule, counts: i64) -> bool {
    let (yes, open) = unpack(counts);
    match rule {
        SumRule::Exactly(k) => yes >= k || yes + open <= k,
        SumRule::AtMost(k) => yes >= k,
        SumRule::AtLeast(k) => yes + open <= k,
        SumRule::Parity(_) => open <= 1,
    }
}

impl Sum {
    /// The value every undecided member must take (`None`: nothing forced); `Err` when the
    /// counts break the rule.
    fn forced(&self, yes: u32, open: u32) -> Result<Option<u32>, Conflict> {
        Ok(match self.rule {
            SumRule::Exactly(k) => {
                if yes > k || yes + open < k {
                    return Err(Conflict);
                }
                if open == 0 {
                    None
                } else if yes == k {
                    Some(FALSE)
                } else if yes + open == k {
                    Some(TRUE)
                } else {
                    None
                }
            }
            SumRule::AtMost(k) => {
                if yes > k {
                    return Err(Conflict);
                }
                (yes == k && open > 0).then_some(FALSE)
            }
            SumRule::AtLeast(k) => {
                if yes + open < k {
                    return Err(Conflict);
                }
                (yes + open == k && open > 0).then_some(TRUE)
            }
            SumRule::Parity(odd) => {
                let right = (yes % 2 == 1) == odd;
                match open {
                    0 if !right => return Err(Conflict),
                    1 => Some(if right { FALSE } else { TRUE }),
                    _ => None,
                }
            }
        })
    }
}

impl BoolSum {
    /// `rule` over `vars`, named `name`.
    pub fn new(name: &'static str, vars: Vec<VarId>, rule: SumRule) -> Self {
        let mut s = BoolSum::family(name);
        s.add(&vars, rule);
        s
    }

    /// A family of sums named `name`, empty until [`BoolSum::add`].
    pub fn family(name: &'static str) -> Self {
        BoolSum {
            name,
            sums: Vec::new(),
            posted: Vec::new(),
            members: Vec::new(),
            vars: Vec::new(),
            of_start: Vec::new(),
            of: Vec::new(),
            dirty: Worklist::default(),
        }
    }

    /// Makes room for `sums` more sums of `members` variables in all (a model that knows its
    /// sizes builds the family without growing it step by step).
    pub fn reserve(&mut self, sums: usize, members: usize) -> &mut Self {
        self.sums.reserve(sums);
        self.posted.reserve(members);
        self
    }

    /// Adds the sum `rule` over `vars` to the family (a variable listed twice counts twice).
    pub fn add(&mut self, vars: &[VarId], rule: SumRule) -> &mut Self {
        self.add_iter(vars.iter().copied(), rule)
    }

    /// [`BoolSum::add`] from an iterator (no list to collect first).
    pub fn add_iter(&mut self, vars: impl IntoIterator<Item = VarId>, rule: SumRule) -> &mut Self {
        let from = self.posted.len() as u32;
        self.posted.extend(vars);
        self.sums.push(Sum {
            from,
            to: self.posted.len() as u32,
            rule,
            counts: IntId(0),
        });
        self
    }

    /// Has no sum been added?
    pub fn is_empty(&self) -> bool {
        self.sums.is_empty()
    }

    /// Counts a member of sum `s` from the domains.
    fn count(&self, s: usize, dom: impl Fn(VarId) -> Domain) -> (u32, u32) {
        let sum = &self.sums[s];
        let (mut yes, mut open) = (0, 0);
        for &i in &self.members[sum.from as usize..sum.to as usize] {
            let d = dom(self.vars[i as usize]);
            if d == Domain::single(TRUE) {
                yes += 1;
            } else if !d.is_single() {
                open += 1;
            }
        }
        (yes, open)
    }

    /// Applies sum `s` given its counts; what it fixes is counted in every sum of the family
    /// at once (the propagator is idempotent).
    fn apply(&mut self, cx: &mut Context, s: usize) -> Result<(), Conflict> {
        let sum = self.sums[s];
        let (yes, open) = unpack(cx.int(sum.counts));
        let forced = sum.forced(yes, open);
        if matches!(forced, Ok(None)) {
            return Ok(());
        }
        if cx.explaining() {
            // A deduction's or a contradiction's reason: the members already decided.
            let premises: Vec<Premise> = self.members[sum.from as usize..sum.to as usize]
                .iter()
                .map(|&i| self.vars[i as usize])
                .filter_map(|v| cx.value(v).map(|x| Premise::is(v, x)))
                .collect();
            cx.because(premises);
        }
        let Some(value) = forced? else {
            return Ok(());
        };
        for k in sum.from..sum.to {
            let i = self.members[k as usize] as usize;
            let v = self.vars[i];
            if cx.is_fixed(v) {
                continue;
            }
            cx.assign(v, value)?;
            let d = delta(value == TRUE);
            for j in self.of_start[i]..self.of_start[i + 1] {
                let e = self.of[j as usize];
                let counts = cx.int(e.counts) + d;
                cx.set_int(e.counts, counts);
                if e.sum as usize != s && forcing(e.rule, counts) {
                    self.dirty.push(e.sum);
                }
            }
        }
        Ok(())
    }

    fn drain(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        while let Some(s) = self.dirty.pop() {
            self.apply(cx, s as usize)?;
        }
        Ok(())
    }
}

impl Propagator for BoolSum {
    fn name(&self) -> &'static str {
        self.name
    }
    fn encode(&self, enc: &mut Encoder) -> Encoded {
        // `Σ x = k` as a cardinality row; a parity as a parity row (Tseitin chain in CNF).
        for sum in &self.sums {
            let members = &self.posted[sum.from as usize..sum.to as usize];
            // A variable that cannot be true (`None`) counts as false.
            let lits: Vec<_> = members.iter().filter_map(|&x| enc.is(x, TRUE)).collect();
            match sum.rule {
                SumRule::Exactly(k) | SumRule::AtMost(k) | SumRule::AtLeast(k) => {
                    let terms = lits.into_iter().map(|l| (l, 1)).collect();
                    let cmp = match sum.rule {
                        SumRule::AtMost(_) => Cmp::Le,
                        SumRule::AtLeast(_) => Cmp::Ge,
                        _ => Cmp::Eq,
                    };
                    enc.linear(terms, cmp, i64::from(k));
                }
                SumRule::Parity(odd) => enc.parity(lits, odd),
            }
        }
        Encoded::Posted
    }
    fn init(&mut self, init: &mut Init) {
        // The distinct variables (in order of first appearance) and each member's index among
        // them, through a table over the range of the variables' numbers.
        let lo = self.posted.iter().map(|v| v.0).min().unwrap_or(0);
        let hi = self.posted.iter().map(|v| v.0).max().unwrap_or(0);
        let mut slot = vec![u32::MAX; (hi - lo) as usize + 1];
        self.members = Vec::with_capacity(self.posted.len());
        self.vars = Vec::with_capacity(self.posted.len());
        // The loops below are as long as all the sums together (grid-sized for a family of
        // rows or cuts): they poll the limits once per `POLL_ITEMS` items; a stop leaves the
        // engine interrupted for good.
        for (k, &v) in self.posted.iter().enumerate() {
            if k % POLL_ITEMS == 0 && init.should_stop() {
                return;
            }
            let x = &mut slot[(v.0 - lo) as usize];
            if *x == u32::MAX {
                *x = self.vars.len() as u32;
                self.vars.push(v);
            }
            self.members.push(*x);
        }
        // Which sums each variable belongs to (a counting sort by variable).
        let n = self.vars.len();
        let mut start = vec![0u32; n + 1];
        for &i in &self.members {
            start[i as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        for s in 0..self.sums.len() {
            if init.should_stop() {
                return;
            }
            let (yes, open) = self.count(s, |v| init.dom(v));
            self.sums[s].counts = init.int(pack(yes, open));
        }
        let mut next = start.clone();
        let blank = In {
            sum: 0,
            counts: IntId(0),
            rule: SumRule::Parity(false),
        };
        self.of = vec![blank; self.members.len()];
        for (s, sum) in self.sums.iter().enumerate() {
            if init.should_stop() {
                return;
            }
            for &i in &self.members[sum.from as usize..sum.to as usize] {
                self.of[next[i as usize] as usize] = In {
                    sum: s as u32,
                    counts: sum.counts,
                    rule: sum.rule,
                };
                next[i as usize] += 1;
            }
        }
        self.of_start = start;
        self.dirty = Worklist::new(self.sums.len());
        for (i, &v) in self.vars.iter().enumerate() {
            init.watch(v, i as u32);
        }
    }
    #[inline]
    fn notify(&mut self, ints: &mut Ints, tag: u32, old: Domain, new: Domain) -> bool {
        if old.is_single() || !new.is_single() {
            return false;
        }
        let d = delta(new == Domain::single(TRUE));
        let i = tag as usize;
        let (from, to) = (self.of_start[i] as usize, self.of_start[i + 1] as usize);
        let mut wake = false;
        for k in from..to {
            let e = self.of[k];
            if forcing(e.rule, ints.add(e.counts, d)) {
                self.dirty.push(e.sum);
                wake = true;
            }
        }
        wake
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        // Recount every sum (a rule switched back on missed its events), then apply them all.
        // Grid-sized for a family of rows or cuts: polled once per sum (a sum is a line).
        self.dirty.clear();
        for s in 0..self.sums.len() {
            if cx.should_stop() {
                return Ok(());
            }
            let (yes, open) = self.count(s, |v| cx.dom(v));
            cx.set_int(self.sums[s].counts, pack(yes, open));
        }
        for s in (0..self.sums.len() as u32).rev() {
            self.dirty.push(s);
        }
        while let Some(s) = self.dirty.pop() {
            if cx.should_stop() {
                self.dirty.clear();
                return Ok(());
            }
            self.apply(cx, s as usize)?;
        }
        Ok(())
    }
    fn incremental(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        self.drain(cx)
    }
    fn backtracked(&mut self) {
        self.dirty.clear();
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn idempotent(&self) -> bool {
        true
    }
}
