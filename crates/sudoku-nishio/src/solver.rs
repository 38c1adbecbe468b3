//! The deductive solver: human rules applied one step at a time, with a log a person can
//! follow, and a rating (the hardest rule needed).
//!
//! Rules, from simplest to hardest ([`Rule`]): naked single, hidden single, locked candidates
//! (pointing: a block's candidates for a digit on one line; claiming: a line's candidates for a
//! digit in one block), naked pair, hidden pair, naked triple, hidden triple, and Nishio for one
//! digit (Eppstein, Section 2: remove the candidates of digit `d` that lie on no valid placement
//! inside `S`, computed with the DAG of Section 3), then two multi-digit rules: implication
//! chains over bivalue cells and bilocal units (in the spirit of the 2-SAT rule of Eppstein's
//! solver) and one-level forcing chains (assume a candidate, propagate singles, find a
//! contradiction — no branching). Each [`Deducer::step`] applies the simplest rule that makes
//! progress; all rules only remove candidates that no solution uses, so the fixpoint does not
//! depend on the order. When no rule applies the solver is *stalled*; the `deduce` algorithm
//! then finishes with the search of [`crate::backtrack`] (rated [`Rule::Guess`]).
//!
//! # Limits
//! A [`Deducer`] may carry core's [`Limits`] ([`Deducer::set_limits`]): the deadline and the
//! cancellation flag are polled inside every rule's loops (per unit, per digit, per assumed
//! candidate, every 1024 literals of a chain, every few thousand vertices of a Nishio search
//! and of the lazy graph build), so a step stops within milliseconds of the deadline on every
//! shape; [`Deducer::interrupted`] then says why and [`Deducer::step`] returns `None`. When
//! the deadline leaves clearly too little time to build a not-yet-cached Nishio graph (an
//! estimate of 0.5 µs per vertex, doubled), the Nishio rule is skipped for the run (with a
//! note), so the other rules and the search still get the time.
//!
//! [`RuleSet`] selects rules: `BASIC` (singles, locked candidates, pairs/triples),
//! `BASIC_NISHIO`, `NO_NISHIO` (basic + chains), `ALL`.

use crate::board::{symbol, Candidates, CellMask, Contradiction, Sudoku};
use crate::geometry::{Geometry, UnitKind};
use crate::graph::AbGraph;
use pencilbox_core::search::{Limits, StopReason};
use pencilbox_core::Domain;
use serde::Serialize;
use std::sync::Arc;

/// Estimated time to build `G_U`, per vertex (measured: 25×25, 4.5 M vertices, 1.3–2.5 s).
const BUILD_NS_PER_VERTEX: u64 = 500;

/// A deduction rule, ordered from simplest to hardest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// A cell with one candidate.
    NakedSingle,
    /// A digit with one place in a row, column or block.
    HiddenSingle,
    /// A block's candidates for a digit lie on one row or column.
    Pointing,
    /// A row's or column's candidates for a digit lie in one block.
    Claiming,
    /// Two cells of a unit with the same two candidates.
    NakedPair,
    /// Two digits with the same two places in a unit.
    HiddenPair,
    /// Three cells of a unit with three candidates between them.
    NakedTriple,
    /// Three digits with three places between them in a unit.
    HiddenTriple,
    /// Nishio (single-digit placement) by DAG reachability.
    Nishio,
    /// A chain of bivalue cells and bilocal units (2-SAT implications) from a candidate to a
    /// contradiction.
    Chain,
    /// Assuming a candidate, naked and hidden singles alone reach a contradiction (a one-level
    /// forcing chain; no branching).
    ForcingChain,
    /// Search was needed.
    Guess,
}

impl Rule {
    /// The rule's name for people.
    pub fn name(self) -> &'static str {
        match self {
            Rule::NakedSingle => "naked single",
            Rule::HiddenSingle => "hidden single",
            Rule::Pointing => "pointing",
            Rule::Claiming => "claiming",
            Rule::NakedPair => "naked pair",
            Rule::HiddenPair => "hidden pair",
            Rule::NakedTriple => "naked triple",
            Rule::HiddenTriple => "hidden triple",
            Rule::Nishio => "Nishio",
            Rule::Chain => "implication chain",
            Rule::ForcingChain => "forcing chain",
            Rule::Guess => "guess (search)",
        }
    }
}

/// Which rules the solver may use (singles are always on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSet {
    /// Pointing and claiming.
    pub locked: bool,
    /// Naked and hidden pairs and triples.
    pub subsets: bool,
    /// Nishio for one digit.
    pub nishio: bool,
    /// Implication chains over bivalue cells and bilocal units (2-SAT) and one-level forcing
    /// chains.
    pub chains: bool,
}

impl RuleSet {
    /// Every rule.
    pub const ALL: RuleSet = RuleSet {
        locked: true,
        subsets: true,
        nishio: true,
        chains: true,
    };
    /// Every rule but Nishio.
    pub const NO_NISHIO: RuleSet = RuleSet {
        nishio: false,
        ..RuleSet::ALL
    };
    /// Singles, locked candidates, pairs and triples (no Nishio, no chains).
    pub const BASIC: RuleSet = RuleSet {
        nishio: false,
        chains: false,
        ..RuleSet::ALL
    };
    /// The basic rules plus Nishio (no chains).
    pub const BASIC_NISHIO: RuleSet = RuleSet {
        chains: false,
        ..RuleSet::ALL
    };
    /// Singles only.
    pub const SINGLES: RuleSet = RuleSet {
        locked: false,
        subsets: false,
        nishio: false,
        chains: false,
    };
}

/// One deduction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The rule used.
    pub rule: Rule,
    /// The step in words ("Nishio on digit 7 removes r9c5 (4 valid placements left)").
    pub text: String,
    /// Cells fixed: `(cell index, digit)`.
    pub placed: Vec<(usize, u8)>,
    /// Candidates removed: `(cell index, digit)`.
    pub eliminated: Vec<(usize, u8)>,
}

/// The deductive solver's state.
pub struct Deducer {
    geo: Arc<Geometry>,
    cells: Vec<Domain>,
    placed: Vec<bool>,
    rules: RuleSet,
    graph: Option<Arc<AbGraph>>,
    broken: Option<String>,
    nishio_note: Option<String>,
    limits: Limits,
    stopped: Option<StopReason>,
    /// Per digit, the candidate set on which Nishio last removed nothing: the rule is not
    /// recomputed for a digit whose set is unchanged (a 25×25 digit can take seconds).
    nishio_clean: Vec<Option<CellMask>>,
}

impl Deducer {
    /// Starts from a puzzle (givens placed, their simple eliminations done).
    pub fn new(p: &Sudoku, rules: RuleSet) -> Result<Deducer, Contradiction> {
        let cand = Candidates::from_puzzle(p)?;
        let placed = p.givens().iter().map(|&v| v != 0).collect();
        Ok(Self::with_state(cand, placed, rules))
    }

    /// Starts from a candidate grid; cells with one candidate count as not yet placed.
    pub fn from_candidates(cand: Candidates, rules: RuleSet) -> Deducer {
        let placed = vec![false; cand.cells().len()];
        Self::with_state(cand, placed, rules)
    }

    fn with_state(cand: Candidates, placed: Vec<bool>, rules: RuleSet) -> Deducer {
        let geo = Geometry::get(cand.block());
        let geo_n = geo.n();
        // The graph is fetched (built on first use for the shape) only when Nishio is first
        // needed, so puzzles that simpler rules solve never pay for a large graph.
        let (graph, nishio_note) = match AbGraph::check(cand.block()) {
            Err(e) if rules.nishio => (None, Some(format!("Nishio rule off: {e}"))),
            _ => (None, None),
        };
        Deducer {
            geo,
            cells: cand.cells().to_vec(),
            placed,
            rules,
            graph,
            broken: None,
            nishio_note,
            limits: Limits::default(),
            stopped: None,
            nishio_clean: vec![None; geo_n + 1],
        }
    }

    /// Makes every later step honour the deadline and cancellation flag of `limits` (the
    /// solution and node limits do not apply to deduction).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }
    /// The same deducer with limits (see [`Deducer::set_limits`]).
    pub fn with_limits(mut self, limits: Limits) -> Deducer {
        self.set_limits(limits);
        self
    }
    /// Why the deducer stopped early (deadline or cancellation), if it did. Once interrupted,
    /// [`Deducer::step`] returns `None`; the candidates stay sound (an interrupted rule makes
    /// no change).
    pub fn interrupted(&self) -> Option<StopReason> {
        self.stopped
    }

    /// Polls the limits; true (and remembered) when the deadline passed or the run was cancelled.
    fn poll(&mut self) -> bool {
        if self.stopped.is_none() {
            self.stopped = self.limits.interrupted();
        }
        self.stopped.is_some()
    }

    /// The current candidates.
    pub fn candidates(&self) -> Candidates {
        Candidates::from_cells(self.geo.block(), self.cells.clone())
            .unwrap_or_else(|| Candidates::full(self.geo.block()))
    }
    /// True when every cell has exactly one candidate and no contradiction was found.
    pub fn is_solved(&self) -> bool {
        self.broken.is_none() && self.cells.iter().all(|d| d.is_single())
    }
    /// Why the candidates are contradictory, if they are (the puzzle has no solution).
    pub fn contradiction(&self) -> Option<&str> {
        self.broken.as_deref()
    }
    /// Why the Nishio rule is unavailable (graph too large), if it is.
    pub fn nishio_note(&self) -> Option<&str> {
        self.nishio_note.as_deref()
    }
    /// The values (`0` where not fixed).
    pub fn values(&self) -> Vec<u8> {
        self.cells.iter().map(|d| d.value().unwrap_or(0) as u8).collect()
    }

    fn name(&self, i: usize) -> String {
        self.geo.name(i)
    }

    /// Applies the simplest rule that makes progress; `None` when solved, stalled or broken.
    pub fn step(&mut self) -> Option<Step> {
        if self.broken.is_some() || self.placed.iter().all(|&p| p) || self.poll() {
            return None;
        }
        let step = self
            .naked_single()
            .or_else(|| self.hidden_single())
            .or_else(|| if self.rules.locked { self.locked() } else { None })
            .or_else(|| if self.rules.subsets { self.subsets() } else { None })
            .or_else(|| {
                if self.rules.nishio && self.nishio_note.is_none() {
                    self.nishio()
                } else {
                    None
                }
            })
            .or_else(|| if self.rules.chains { self.chain() } else { None })
            .or_else(|| if self.rules.chains { self.forcing() } else { None })?;
        // A rule stopped by the limits returns `None` before changing anything, so a step
        // that did return is complete.
        self.check();
        Some(step)
    }

    fn check(&mut self) {
        if let Some(i) = self.cells.iter().position(|d| d.is_empty()) {
            self.broken = Some(format!("{} has no candidate left", self.name(i)));
            return;
        }
        let full = Domain::range(1, self.geo.n() as u32);
        for (u, unit) in self.geo.units().iter().enumerate() {
            let all = unit
                .iter()
                .fold(Domain::EMPTY, |acc, &c| acc.or(self.cells[c as usize]));
            if let Some(d) = full.minus(all).min() {
                self.broken = Some(format!(
                    "{} has no place for {}",
                    self.geo.unit_name(u),
                    symbol(d as u8)
                ));
                return;
            }
            // Two fixed cells with the same value.
            let mut seen = Domain::EMPTY;
            for &c in unit {
                if let Some(v) = self.cells[c as usize].value() {
                    if seen.contains(v) {
                        self.broken = Some(format!("{} holds {} twice", self.geo.unit_name(u), symbol(v as u8)));
                        return;
                    }
                    seen.insert(v);
                }
            }
        }
    }

    /// Places `v` at `i` and removes it from the peers.
    fn place(&mut self, i: usize, v: u8, rule: Rule, why: String) -> Step {
        let mut eliminated: Vec<(usize, u8)> = self.cells[i].without(v as u32).iter().map(|d| (i, d as u8)).collect();
        self.cells[i] = Domain::single(v as u32);
        self.placed[i] = true;
        for &p in self.geo.peers(i) {
            let p = p as usize;
            if self.cells[p].remove(v as u32) {
                eliminated.push((p, v));
            }
        }
        Step {
            rule,
            text: format!("{} = {} ({why})", self.name(i), symbol(v)),
            placed: vec![(i, v)],
            eliminated,
        }
    }

    fn naked_single(&mut self) -> Option<Step> {
        let i = (0..self.cells.len()).find(|&i| !self.placed[i] && self.cells[i].is_single())?;
        let v = self.cells[i].value()? as u8;
        Some(self.place(i, v, Rule::NakedSingle, "naked single".into()))
    }

    fn hidden_single(&mut self) -> Option<Step> {
        let geo = self.geo.clone();
        for (u, unit) in geo.units().iter().enumerate() {
            if self.poll() {
                return None;
            }
            for d in 1..=geo.n() as u32 {
                let mut spots = unit.iter().filter(|&&c| self.cells[c as usize].contains(d));
                let (Some(&c), None) = (spots.next(), spots.next()) else {
                    continue;
                };
                if !self.placed[c as usize] {
                    let why = format!("hidden single in {}", geo.unit_name(u));
                    return Some(self.place(c as usize, d as u8, Rule::HiddenSingle, why));
                }
            }
        }
        None
    }

    fn eliminate(&mut self, cells: impl IntoIterator<Item = usize>, d: u8) -> Vec<(usize, u8)> {
        let mut out = Vec::new();
        for c in cells {
            if !self.placed[c] && self.cells[c].remove(d as u32) {
                out.push((c, d));
            }
        }
        out
    }

    fn names(&self, elim: &[(usize, u8)]) -> String {
        let mut cells: Vec<usize> = elim.iter().map(|&(c, _)| c).collect();
        cells.sort_unstable();
        cells.dedup();
        cells.iter().map(|&c| self.name(c)).collect::<Vec<_>>().join(", ")
    }

    fn locked(&mut self) -> Option<Step> {
        let geo = self.geo.clone();
        let n = geo.n();
        for (u, unit) in geo.units().iter().enumerate() {
            if self.poll() {
                return None;
            }
            for d in 1..=n as u8 {
                let spots: Vec<usize> = unit
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| self.cells[c].contains(d as u32))
                    .collect();
                if spots.len() < 2 || spots.iter().any(|&c| self.placed[c]) {
                    continue;
                }
                let units_of = |k: usize| geo.cell_units(spots[0])[k] as usize;
                let kind = geo.unit_kind(u);
                // The other unit (of a different kind) containing every spot.
                let targets: Vec<usize> = match kind {
                    UnitKind::Block => vec![0, 1],
                    _ => vec![2],
                };
                for k in targets {
                    let other = units_of(k);
                    if spots.iter().all(|&c| geo.cell_units(c)[k] as usize == other) {
                        let outside: Vec<usize> = geo
                            .unit(other)
                            .iter()
                            .map(|&c| c as usize)
                            .filter(|c| !spots.contains(c) && !geo.unit(u).contains(&(*c as u16)))
                            .collect();
                        let elim = self.eliminate(outside, d);
                        if !elim.is_empty() {
                            let rule = if kind == UnitKind::Block {
                                Rule::Pointing
                            } else {
                                Rule::Claiming
                            };
                            let text = format!(
                                "{}: in {}, {} lies only in {}, so remove it from {}",
                                rule.name(),
                                geo.unit_name(u),
                                symbol(d),
                                geo.unit_name(other),
                                self.names(&elim)
                            );
                            return Some(Step {
                                rule,
                                text,
                                placed: vec![],
                                eliminated: elim,
                            });
                        }
                    }
                }
            }
        }
        None
    }

    fn subsets(&mut self) -> Option<Step> {
        for k in [2usize, 3] {
            if let Some(s) = self.naked_subset(k) {
                return Some(s);
            }
            if let Some(s) = self.hidden_subset(k) {
                return Some(s);
            }
        }
        None
    }

    fn naked_subset(&mut self, k: usize) -> Option<Step> {
        let geo = self.geo.clone();
        for (u, unit) in geo.units().iter().enumerate() {
            if self.poll() {
                return None;
            }
            let open: Vec<usize> = unit
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| !self.placed[c] && (2..=k as u32).contains(&self.cells[c].len()))
                .collect();
            for combo in combinations(open.len(), k) {
                let cells: Vec<usize> = combo.iter().map(|&i| open[i]).collect();
                let union = cells.iter().fold(Domain::EMPTY, |a, &c| a.or(self.cells[c]));
                if union.len() as usize != k {
                    continue;
                }
                let others: Vec<usize> = unit
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|c| !cells.contains(c))
                    .collect();
                let mut elim = Vec::new();
                for d in union.iter() {
                    elim.extend(self.eliminate(others.iter().copied(), d as u8));
                }
                if !elim.is_empty() {
                    let rule = if k == 2 { Rule::NakedPair } else { Rule::NakedTriple };
                    let digits: String = union.iter().map(|d| symbol(d as u8)).collect();
                    let names: Vec<String> = cells.iter().map(|&c| self.name(c)).collect();
                    let text = format!(
                        "{} {{{digits}}} at {} in {} removes {} from {}",
                        rule.name(),
                        names.join(", "),
                        geo.unit_name(u),
                        digits,
                        self.names(&elim)
                    );
                    return Some(Step {
                        rule,
                        text,
                        placed: vec![],
                        eliminated: elim,
                    });
                }
            }
        }
        None
    }

    fn hidden_subset(&mut self, k: usize) -> Option<Step> {
        let geo = self.geo.clone();
        let n = geo.n();
        for (u, unit) in geo.units().iter().enumerate() {
            if self.poll() {
                return None;
            }
            // Digits not yet placed in the unit, with their places.
            let mut digits: Vec<(u8, u64)> = Vec::new();
            for d in 1..=n as u8 {
                let mut spots = 0u64;
                let mut placed = false;
                for (j, &c) in unit.iter().enumerate() {
                    if self.cells[c as usize].contains(d as u32) {
                        spots |= 1 << j;
                        placed |= self.placed[c as usize];
                    }
                }
                if !placed && (2..=k as u32).contains(&spots.count_ones()) {
                    digits.push((d, spots));
                }
            }
            for combo in combinations(digits.len(), k) {
                let spots = combo.iter().fold(0u64, |a, &i| a | digits[i].1);
                if spots.count_ones() as usize != k {
                    continue;
                }
                let keep: Domain = combo.iter().map(|&i| digits[i].0 as u32).collect();
                let mut elim = Vec::new();
                for (j, &c) in unit.iter().enumerate() {
                    if spots >> j & 1 == 1 {
                        let c = c as usize;
                        for d in self.cells[c].minus(keep).iter() {
                            elim.push((c, d as u8));
                        }
                        self.cells[c] = self.cells[c].and(keep);
                    }
                }
                if !elim.is_empty() {
                    let rule = if k == 2 { Rule::HiddenPair } else { Rule::HiddenTriple };
                    let ds: String = keep.iter().map(|d| symbol(d as u8)).collect();
                    let mut cells: Vec<usize> = elim.iter().map(|&(c, _)| c).collect();
                    cells.dedup();
                    let names: Vec<String> = cells.iter().map(|&c| self.name(c)).collect();
                    let text = format!(
                        "{} {{{ds}}} in {}: only {ds} stay in {}",
                        rule.name(),
                        geo.unit_name(u),
                        names.join(", ")
                    );
                    return Some(Step {
                        rule,
                        text,
                        placed: vec![],
                        eliminated: elim,
                    });
                }
            }
        }
        None
    }

    fn nishio(&mut self) -> Option<Step> {
        if self.poll() {
            return None;
        }
        if self.graph.is_none() {
            // The first build for a shape takes seconds for 25×25 (about 0.5 µs per vertex).
            // When the deadline leaves clearly too little time for it (less than twice the
            // estimate), Nishio is skipped for this run instead of spending the rest of the
            // time on a build that would be dropped; otherwise the build polls the limits, and
            // an interrupted build leaves the shared cache empty and this step without Nishio.
            let block = self.geo.block();
            if let Some(deadline) = self.limits.deadline {
                let estimate = std::time::Duration::from_nanos(
                    (crate::graph::vertex_count(block) as u64).saturating_mul(BUILD_NS_PER_VERTEX),
                );
                let left = deadline.saturating_duration_since(std::time::Instant::now());
                if !AbGraph::is_cached(block) && left < 2 * estimate {
                    self.nishio_note = Some(format!(
                        "Nishio rule skipped: building its graph for {block} blocks (about {} ms) would not fit the time left ({} ms)",
                        estimate.as_millis(),
                        left.as_millis()
                    ));
                    return None;
                }
            }
            let limits = self.limits.clone();
            match AbGraph::get_with(block, &|| limits.interrupted().is_some()) {
                Ok(Some(g)) => self.graph = Some(g),
                Ok(None) => {
                    self.poll();
                    return None;
                }
                Err(e) => {
                    self.nishio_note = Some(format!("Nishio rule off: {e}"));
                    return None;
                }
            }
        }
        let g = self.graph.clone()?;
        let n = self.geo.n();
        let limits = self.limits.clone();
        let stop = || limits.interrupted().is_some();
        for d in 1..=n as u8 {
            let cand = Candidates::from_cells(self.geo.block(), self.cells.clone())?;
            let s = cand.digit_cells(d);
            if self.nishio_clean[d as usize].as_ref() == Some(&s) {
                continue;
            }
            let Some(r) = crate::nishio::nishio_with(&g, &s, &stop) else {
                self.poll();
                return None;
            };
            if r.keep.is_empty() {
                self.broken = Some(format!("no valid placement of {} remains", symbol(d)));
                return None;
            }
            let removed = r.removed(&s);
            if removed.is_empty() {
                self.nishio_clean[d as usize] = Some(s);
                continue;
            }
            let mut elim: Vec<(usize, u8)> = removed.iter().map(|(row, c)| (row * n + c, d)).collect();
            elim.sort_unstable();
            for &(c, _) in &elim {
                self.cells[c].remove(d as u32);
            }
            let left = r.placements.unwrap_or(0);
            let text = format!(
                "Nishio on digit {} removes {} ({left} valid placement{} left)",
                symbol(d),
                self.names(&elim),
                if left == 1 { "" } else { "s" }
            );
            return Some(Step {
                rule: Rule::Nishio,
                text,
                placed: vec![],
                eliminated: elim,
            });
        }
        None
    }
}

impl Deducer {
    /// One-level forcing chains: if placing `d` at `c` and propagating naked and hidden singles
    /// (the propagation of [`crate::backtrack::propagate`]) empties a cell or a unit, `d` is
    /// removed from `c`.
    fn forcing(&mut self) -> Option<Step> {
        let mut queue = Vec::new();
        for c in 0..self.cells.len() {
            if self.placed[c] || self.cells[c].is_single() {
                continue;
            }
            if self.poll() {
                return None;
            }
            for d in self.cells[c].iter() {
                let mut grid = self.cells.clone();
                grid[c] = Domain::single(d);
                queue.clear();
                queue.push(c);
                if !crate::backtrack::propagate(&self.geo, &mut grid, &mut queue) {
                    self.cells[c].remove(d);
                    let text = format!(
                        "forcing chain: {}={} leads by singles to a contradiction, so remove {} from {}",
                        self.geo.name(c),
                        symbol(d as u8),
                        symbol(d as u8),
                        self.geo.name(c)
                    );
                    return Some(Step {
                        rule: Rule::ForcingChain,
                        text,
                        placed: vec![],
                        eliminated: vec![(c, d as u8)],
                    });
                }
            }
        }
        None
    }

    /// Implication chains (Eppstein's solver's "heuristic reduction to 2-SAT"): literals are
    /// "cell c holds d" and its negation. A true candidate excludes its peers' `d` and its own
    /// other candidates; a false candidate forces the other value of a bivalue cell and the other
    /// place of a digit with two places in a unit. If assuming `(c, d)` implies some literal
    /// and its negation, `d` is removed from `c`.
    fn chain(&mut self) -> Option<Step> {
        let n = self.geo.n();
        let cells = self.cells.len();
        let lit = |c: usize, d: u32, t: bool| ((c * n + d as usize - 1) << 1) | t as usize;
        let mut seen = vec![0u32; cells * n * 2];
        let mut parent = vec![usize::MAX; cells * n * 2];
        let mut epoch = 0u32;
        let mut queue = Vec::new();
        let mut next: Vec<usize> = Vec::new();
        for c in 0..cells {
            if self.placed[c] || self.cells[c].is_single() {
                continue;
            }
            if self.poll() {
                return None;
            }
            for d in self.cells[c].iter() {
                epoch += 1;
                queue.clear();
                let start = lit(c, d, true);
                seen[start] = epoch;
                queue.push(start);
                let mut head = 0;
                let mut conflict = None;
                while head < queue.len() && conflict.is_none() {
                    if head % 1024 == 1023 && self.poll() {
                        return None;
                    }
                    let x = queue[head];
                    head += 1;
                    let (xc, xd, xt) = ((x >> 1) / n, (x >> 1) % n + 1, x & 1 == 1);
                    next.clear();
                    if xt {
                        for &p in self.geo.peers(xc) {
                            if self.cells[p as usize].contains(xd as u32) {
                                next.push(lit(p as usize, xd as u32, false));
                            }
                        }
                        for e in self.cells[xc].without(xd as u32).iter() {
                            next.push(lit(xc, e, false));
                        }
                    } else {
                        let rest = self.cells[xc].without(xd as u32);
                        if rest.is_single() {
                            next.push(lit(xc, rest.value().unwrap_or(1), true));
                        }
                        for u in self.geo.cell_units(xc) {
                            let mut spots = self
                                .geo
                                .unit(u as usize)
                                .iter()
                                .filter(|&&q| q as usize != xc && self.cells[q as usize].contains(xd as u32));
                            if let (Some(&q), None) = (spots.next(), spots.next()) {
                                next.push(lit(q as usize, xd as u32, true));
                            }
                        }
                    }
                    for &y in &next {
                        if seen[y] != epoch {
                            seen[y] = epoch;
                            parent[y] = x;
                            if seen[y ^ 1] == epoch {
                                conflict = Some(y);
                                break;
                            }
                            queue.push(y);
                        }
                    }
                }
                if let Some(y) = conflict {
                    self.cells[c].remove(d);
                    let describe = |l: usize| {
                        let (lc, ld) = ((l >> 1) / n, (l >> 1) % n + 1);
                        format!(
                            "{}{}{}",
                            self.geo.name(lc),
                            if l & 1 == 1 { "=" } else { "≠" },
                            symbol(ld as u8)
                        )
                    };
                    let text = format!(
                        "implication chain: {}={} leads to both {} and {}, so remove {} from {}",
                        self.geo.name(c),
                        symbol(d as u8),
                        describe(y),
                        describe(y ^ 1),
                        symbol(d as u8),
                        self.geo.name(c)
                    );
                    return Some(Step {
                        rule: Rule::Chain,
                        text,
                        placed: vec![],
                        eliminated: vec![(c, d as u8)],
                    });
                }
            }
        }
        None
    }
}

/// All `k`-subsets of `0..m` (as index lists), in lexicographic order.
fn combinations(m: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur = Vec::with_capacity(k);
    fn rec(start: usize, m: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..m {
            if m - i < k - cur.len() {
                break;
            }
            cur.push(i);
            rec(i + 1, m, k, cur, out);
            cur.pop();
        }
    }
    rec(0, m, k, &mut cur, &mut out);
    out
}

/// A whole deductive run.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// The steps in order.
    pub steps: Vec<Step>,
    /// Solved by rules alone.
    pub solved: bool,
    /// The hardest rule used (`None` when no step was needed).
    pub rating: Option<Rule>,
    /// Why the puzzle has no solution, when a contradiction was found.
    pub contradiction: Option<String>,
    /// The candidates at the end (the full grid when solved).
    pub candidates: Candidates,
    /// Notes (e.g. Nishio unavailable for this size).
    pub notes: Vec<String>,
    /// Why the run stopped before a fixpoint (deadline or cancellation), if it did.
    pub interrupted: Option<StopReason>,
}

impl Explanation {
    /// How many steps used each rule, simplest first.
    pub fn rule_counts(&self) -> Vec<(Rule, usize)> {
        let mut v: Vec<(Rule, usize)> = Vec::new();
        for s in &self.steps {
            match v.iter_mut().find(|(r, _)| *r == s.rule) {
                Some(e) => e.1 += 1,
                None => v.push((s.rule, 1)),
            }
        }
        v.sort();
        v
    }
}

/// Runs the rules until solved, stalled or contradictory. `stop` is polled between steps
/// (return true to stop early, e.g. at a deadline).
pub fn explain_with(p: &Sudoku, rules: RuleSet, stop: impl FnMut() -> bool) -> Result<Explanation, Contradiction> {
    Ok(run_deducer(Deducer::new(p, rules)?, stop))
}

/// Runs the rules until solved, stalled, contradictory or interrupted by the deadline or
/// cancellation flag of `limits` (polled inside the rules, see [`Deducer::set_limits`]);
/// [`Explanation::interrupted`] says when the limits cut the run short.
pub fn explain_limited(p: &Sudoku, rules: RuleSet, limits: &Limits) -> Result<Explanation, Contradiction> {
    let d = Deducer::new(p, rules)?.with_limits(limits.clone());
    Ok(run_deducer(d, || false))
}

fn run_deducer(mut d: Deducer, mut stop: impl FnMut() -> bool) -> Explanation {
    let mut steps = Vec::new();
    while !stop() {
        match d.step() {
            Some(s) => steps.push(s),
            None => break,
        }
    }
    let rating = steps.iter().map(|s| s.rule).max();
    Explanation {
        solved: d.is_solved(),
        rating,
        contradiction: d.contradiction().map(str::to_string),
        candidates: d.candidates(),
        notes: d.nishio_note().map(str::to_string).into_iter().collect(),
        interrupted: d.interrupted(),
        steps,
    }
}

/// Runs the rules until solved, stalled or contradictory.
pub fn explain(p: &Sudoku, rules: RuleSet) -> Result<Explanation, Contradiction> {
    explain_with(p, rules, || false)
}

/// The rule violations of a full grid of values against a puzzle (empty = valid solution).
pub fn check_solution(p: &Sudoku, values: &[u8]) -> Vec<pencilbox_core::Violation> {
    use pencilbox_core::Violation;
    let geo = Geometry::get(p.block());
    let n = p.n();
    let mut out = Vec::new();
    if values.len() != n * n {
        out.push(Violation::new(
            "grid",
            "size",
            format!("expected {} cells, found {}", n * n, values.len()),
        ));
        return out;
    }
    for (i, (&v, &g)) in values.iter().zip(p.givens()).enumerate() {
        if v == 0 || v as usize > n {
            out.push(Violation::new(
                geo.name(i),
                "empty-cell",
                format!("{} has no value 1-{n}", geo.name(i)),
            ));
        } else if g != 0 && g != v {
            out.push(Violation::new(
                geo.name(i),
                "given-changed",
                format!("{} must be the given {}, found {}", geo.name(i), symbol(g), symbol(v)),
            ));
        }
    }
    for (u, unit) in geo.units().iter().enumerate() {
        let mut seen = Domain::EMPTY;
        for &c in unit {
            let v = values[c as usize];
            if v == 0 || v as usize > n {
                continue;
            }
            if seen.contains(v as u32) {
                let rule = match geo.unit_kind(u) {
                    UnitKind::Row => "duplicate-in-row",
                    UnitKind::Col => "duplicate-in-column",
                    UnitKind::Block => "duplicate-in-block",
                };
                out.push(Violation::new(
                    geo.unit_name(u),
                    rule,
                    format!("{} holds {} twice", geo.unit_name(u), symbol(v)),
                ));
            }
            seen.insert(v as u32);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIG4: &str = "3.9....74..5...9.2....49...6....3.2....2.5....3.1....7...78....8.3...7..91....5.8";

    #[test]
    fn the_figure_four_puzzle_is_solved_without_guessing() {
        let p = Sudoku::parse(FIG4, None).unwrap();
        let e = explain(&p, RuleSet::ALL).unwrap();
        assert!(e.solved, "{}", e.candidates.to_pretty());
        assert!(e.rating < Some(Rule::Guess));
        let values: Vec<u8> = e.candidates.cells().iter().map(|d| d.value().unwrap() as u8).collect();
        assert!(check_solution(&p, &values).is_empty());
    }

    #[test]
    fn without_nishio_the_figure_four_puzzle_stalls() {
        let p = Sudoku::parse(FIG4, None).unwrap();
        let e = explain(&p, RuleSet::BASIC).unwrap();
        assert!(!e.solved);
        let e = explain(&p, RuleSet::BASIC_NISHIO).unwrap();
        assert!(!e.solved);
        assert!(e.contradiction.is_none());
    }

    #[test]
    fn every_elimination_is_consistent_with_the_unique_solution() {
        let p = Sudoku::parse(FIG4, None).unwrap();
        let (sols, _) =
            crate::backtrack::search(&Candidates::from_puzzle(&p).unwrap(), &pencilbox_core::Limits::all(), 1);
        let e = explain(&p, RuleSet::ALL).unwrap();
        for s in &e.steps {
            for &(c, d) in &s.eliminated {
                assert_ne!(sols[0][c], d, "{} wrongly removed {d} from cell {c}", s.text);
            }
            for &(c, d) in &s.placed {
                assert_eq!(sols[0][c], d, "{}", s.text);
            }
        }
    }

    #[test]
    fn combinations_are_complete() {
        assert_eq!(combinations(5, 2).len(), 10);
        assert_eq!(combinations(5, 3).len(), 10);
        assert!(combinations(2, 3).is_empty());
    }
}
