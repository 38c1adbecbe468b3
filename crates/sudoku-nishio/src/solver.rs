//! The deductive solver: human rules on the shared engine, one step at a time, with a log a
//! person can follow and a rating (the hardest rule needed).
//!
//! Rules, from simplest to hardest ([`Rule`]): naked single, hidden single, locked candidates
//! (pointing: a block's candidates for a digit on one line; claiming: a line's candidates for a
//! digit in one block), naked pair, hidden pair, naked triple, hidden triple, and Nishio for one
//! digit (Eppstein, Section 2: remove the candidates of digit `d` that lie on no valid placement
//! inside `S`, computed with the DAG of Section 3), then two multi-digit rules: implication
//! chains over bivalue cells and bilocal units (in the spirit of the 2-SAT rule of Eppstein's
//! solver) and one-level forcing chains (assume a candidate, propagate singles, find a
//! contradiction — no branching).
//!
//! # How it runs
//! The first eight rules and Nishio are the engine rules of [`crate::model`] (core's
//! [`Distinct`](pencilbox_core::constraints::Distinct) rules and [`crate::model::NishioRule`]).
//! The [`Deducer`] runs them to the engine's fixpoint with the explanation log on — the
//! priority queue applies singles before pointing and subsets, and those before Nishio, which
//! handles one digit per run — and turns every logged step (rule, premises, removals) into a
//! [`Step`] with its technique and a sentence. At the fixpoint it applies one implication chain
//! or one forcing chain through the engine ([`Engine::with_context`], attributed to `chain` /
//! `forcing-chain`; a forcing chain is an assumption propagated by the engine's singles alone,
//! at a level that is undone), then runs the engine's rules again. All rules only remove
//! candidates that no solution uses, so the fixpoint does not depend on the order. When no
//! rule applies the solver is *stalled*; the `deduce` algorithm then searches on the same
//! engine ([`Deducer::into_engine`], [`crate::backtrack`]; rated [`Rule::Guess`]).
//!
//! # Limits
//! A [`Deducer`] may carry core's [`Limits`] ([`Deducer::new_limited`],
//! [`Deducer::set_limits`]): the engine polls the deadline and the cancellation flag during
//! propagation, Nishio's search and lazy graph build poll them every few thousand vertices and
//! the chains per assumed candidate, so a step stops within milliseconds of the deadline on
//! every shape; [`Deducer::interrupted`] then says why and [`Deducer::step`] returns `None`.
//! A node limit bounds deduction too: each deduction round and each poll inside Nishio's graph
//! build and search spends one unit of [`crate::model::Work`].
//! When the deadline leaves clearly too little time to build a not-yet-cached Nishio graph (an
//! estimate of 0.5 µs per vertex, doubled), the Nishio rule is skipped for the run (with a
//! note), so the other rules and the search still get the time.
//!
//! [`RuleSet`] selects rules: `BASIC` (singles, locked candidates, pairs/triples),
//! `BASIC_NISHIO`, `NO_NISHIO` (basic + chains), `ALL`.

use crate::board::{symbol, Candidates, Contradiction, Sudoku};
use crate::geometry::{Geometry, UnitKind};
use crate::model::Model;
use pencilbox_core::engine::{Engine, Priority, Step as LogStep, VarId};
use pencilbox_core::human::Ladder;
use pencilbox_core::search::{Limits, StopReason};
use pencilbox_core::Domain;
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::Arc;

/// A deduction rule, ordered from simplest to hardest (the order of
/// [`crate::explain::RULES`] and of Sudoku Explainer's ratings, see [`crate::explain::se_of`]).
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
    /// Two rows (columns) whose places for a digit lie in two columns (rows).
    XWing,
    /// Two digits with the same two places in a unit.
    HiddenPair,
    /// Three cells of a unit with three candidates between them.
    NakedTriple,
    /// Three rows (columns) whose places for a digit lie in three columns (rows).
    Swordfish,
    /// Three digits with three places between them in a unit.
    HiddenTriple,
    /// Skyscraper, 2-String Kite or Turbot Fish: two strong links of a digit joined by a weak
    /// one.
    TurbotFish,
    /// A bivalue pivot `{x,y}` seeing pincers `{x,z}` and `{y,z}`.
    XYWing,
    /// A pivot `{x,y,z}` seeing pincers `{x,z}` and `{y,z}`.
    XYZWing,
    /// Unique rectangle of type 1 (only when the puzzle is known to have one solution).
    UniqueRectangle,
    /// Four cells of a unit with four candidates between them.
    NakedQuad,
    /// Four rows (columns) whose places for a digit lie in four columns (rows).
    Jellyfish,
    /// Four digits with four places between them in a unit.
    HiddenQuad,
    /// Four cells with four digits between them, all but one restricted.
    WXYZWing,
    /// Bivalue universal grave plus one (only when the puzzle is known to have one solution).
    Bug,
    /// A chain of bivalue cells and bilocal units (2-SAT implications) from a candidate to a
    /// contradiction.
    Chain,
    /// Nishio (single-digit placement) by DAG reachability.
    Nishio,
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
            Rule::XWing => "X-Wing",
            Rule::HiddenPair => "hidden pair",
            Rule::NakedTriple => "naked triple",
            Rule::Swordfish => "Swordfish",
            Rule::HiddenTriple => "hidden triple",
            Rule::TurbotFish => "turbot fish",
            Rule::XYWing => "XY-Wing",
            Rule::XYZWing => "XYZ-Wing",
            Rule::UniqueRectangle => "unique rectangle",
            Rule::NakedQuad => "naked quad",
            Rule::Jellyfish => "Jellyfish",
            Rule::HiddenQuad => "hidden quad",
            Rule::WXYZWing => "WXYZ-Wing",
            Rule::Bug => "BUG+1",
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
    /// The named patterns ([`crate::patterns`]): X-Wing, Swordfish, Jellyfish, XY-Wing,
    /// XYZ-Wing, naked and hidden quads.
    pub patterns: bool,
    /// Rules that assume the puzzle has one solution (the unique rectangle, with `patterns`).
    /// Off in every preset: [`crate::explain::explain`] turns it on only after counting one
    /// solution, because on a puzzle with several it can remove every solution.
    pub uniqueness: bool,
    /// Nishio for one digit.
    pub nishio: bool,
    /// Implication chains over bivalue cells and bilocal units (2-SAT) and one-level forcing
    /// chains.
    pub chains: bool,
}

impl RuleSet {
    /// Every rule that holds whatever the number of solutions (no uniqueness rule).
    pub const ALL: RuleSet = RuleSet {
        locked: true,
        subsets: true,
        patterns: true,
        uniqueness: false,
        nishio: true,
        chains: true,
    };
    /// Every rule but Nishio.
    pub const NO_NISHIO: RuleSet = RuleSet {
        nishio: false,
        ..RuleSet::ALL
    };
    /// Singles, locked candidates, pairs and triples (no patterns, Nishio or chains).
    pub const BASIC: RuleSet = RuleSet {
        patterns: false,
        nishio: false,
        chains: false,
        ..RuleSet::ALL
    };
    /// The basic rules plus Nishio (no patterns, no chains).
    pub const BASIC_NISHIO: RuleSet = RuleSet {
        patterns: false,
        chains: false,
        ..RuleSet::ALL
    };
    /// Singles only.
    pub const SINGLES: RuleSet = RuleSet {
        locked: false,
        subsets: false,
        patterns: false,
        uniqueness: false,
        nishio: false,
        chains: false,
    };
}

/// One link of a chain ([`Step::chain`]): cell, digit, whether the cell takes the digit
/// (`true`) or cannot (`false`), and the id of the rule that concludes it from the links before
/// ([`pencilbox_core::human::ASSUME`] for the first).
pub type Link = (usize, u8, bool, &'static str);

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
    /// The cells whose candidates the step rested on (its premises in the engine's log).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub premises: Vec<usize>,
    /// The named pattern of a pattern step ([`crate::patterns`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<crate::patterns::Pattern>,
    /// For a chain, forcing chain or Nishio step: the links from the assumption (the removed
    /// candidate taken as true) to the contradiction, each following from the links before it
    /// by its rule.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub chain: Vec<Link>,
    /// What the chain ends in (`r9c3 would be both 4 and not 4`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contradiction: Option<String>,
}

impl Step {
    /// A step that only removes candidates, with no premises of its own.
    fn eliminating(rule: Rule, text: String, eliminated: Vec<(usize, u8)>) -> Step {
        Step {
            rule,
            text,
            placed: Vec::new(),
            eliminated,
            premises: Vec::new(),
            pattern: None,
            chain: Vec::new(),
            contradiction: None,
        }
    }
}

/// The deductive solver: a [`Model`] on the engine with the explanation log on, run to a
/// fixpoint, its log turned into [`Step`]s; when the engine's rules stall, one implication
/// chain or forcing chain elimination (made through the engine, attributed to its rule), then
/// the engine's rules again.
pub struct Deducer {
    model: Model,
    rules: RuleSet,
    /// Cells already reported placed (the givens at the start).
    placed: Vec<bool>,
    /// Steps converted from the log and not yet returned.
    pending: VecDeque<Step>,
    /// The engine's queue may hold work (the rules have not reached their fixpoint).
    dirty: bool,
    /// Nothing more to deduce (solved or stalled).
    done: bool,
    broken: Option<String>,
    limits: Limits,
    stopped: Option<StopReason>,
    /// Nishio steps consumed from the rule's side channel.
    nishio_seen: usize,
    /// The candidates on which the implication chain last found nothing.
    chain_clean: Option<Vec<Domain>>,
    /// The text, links and contradiction of the chain step just made.
    chain_text: Option<(String, Vec<Link>, String)>,
    /// Which engine rules are on: the simplest first, as in core's levelled explainer.
    ladder: Ladder,
    /// The highest level used ([`crate::explain::RULES`]; chains are levels 7 and 8).
    max_level: u8,
    /// The candidates as the steps returned so far leave them (the log replayed), to report
    /// each cell's placement at the step that fixed it.
    shadow: Vec<Domain>,
}

impl Deducer {
    /// Starts from a puzzle (givens placed, their simple eliminations done).
    pub fn new(p: &Sudoku, rules: RuleSet) -> Result<Deducer, Contradiction> {
        Self::new_limited(p, rules, Limits::default())
    }

    /// [`Deducer::new`] under the deadline and cancellation flag of `limits`.
    pub fn new_limited(p: &Sudoku, rules: RuleSet, limits: Limits) -> Result<Deducer, Contradiction> {
        let cand = Candidates::from_puzzle(p)?;
        let placed = p.givens().iter().map(|&v| v != 0).collect();
        Ok(Self::with_state(cand, placed, rules, limits))
    }

    /// Starts from a candidate grid; cells with one candidate count as not yet placed.
    pub fn from_candidates(cand: Candidates, rules: RuleSet) -> Deducer {
        let placed = vec![false; cand.cells().len()];
        Self::with_state(cand, placed, rules, Limits::default())
    }

    fn with_state(cand: Candidates, placed: Vec<bool>, rules: RuleSet, limits: Limits) -> Deducer {
        let mut model = Model::new(&cand, rules, &limits);
        model.engine.explain(true);
        let ladder = Ladder::new(&mut model.engine, level_of, u8::MAX);
        let cand = &cand;
        Deducer {
            model,
            rules,
            placed,
            pending: VecDeque::new(),
            dirty: true,
            done: false,
            broken: None,
            limits,
            stopped: None,
            nishio_seen: 0,
            chain_text: None,
            chain_clean: None,
            ladder,
            max_level: u8::MAX,
            shadow: cand.cells().to_vec(),
        }
    }

    /// Uses only the rules up to `level` ([`crate::explain::RULES`]: 1 naked single, 2 hidden
    /// single, 3 pointing and claiming, 4 pairs, 5 triples, 6 Nishio, 7 implication chains,
    /// 8 forcing chains), whatever the [`RuleSet`] posted.
    pub fn with_max_level(mut self, level: u8) -> Deducer {
        self.max_level = level;
        self.ladder = Ladder::new(&mut self.model.engine, level_of, level);
        self.dirty = true;
        self
    }

    /// Makes every later step honour the deadline, cancellation flag and node limit of `limits`
    /// (deduction work counts against the node limit, see [`crate::model::Work`]).
    pub fn set_limits(&mut self, limits: Limits) {
        // The Nishio rule holds the limits it was made with: post the model again.
        let cand = self.model.candidates();
        self.model = Model::new(&cand, self.rules, &limits);
        self.model.engine.explain(true);
        self.ladder = Ladder::new(&mut self.model.engine, level_of, self.max_level);
        self.dirty = true;
        self.limits = limits;
    }
    /// The same deducer with limits (see [`Deducer::set_limits`]).
    pub fn with_limits(mut self, limits: Limits) -> Deducer {
        self.set_limits(limits);
        self
    }
    /// Why the deducer stopped early (deadline or cancellation), if it did. Once interrupted,
    /// [`Deducer::step`] returns `None`; the candidates stay sound.
    pub fn interrupted(&self) -> Option<StopReason> {
        self.stopped
    }
    /// The current candidates (after every step computed so far).
    pub fn candidates(&self) -> Candidates {
        self.model.candidates()
    }
    /// True when every cell has exactly one candidate and no contradiction was found.
    pub fn is_solved(&self) -> bool {
        self.broken.is_none() && self.model.engine.all_fixed()
    }
    /// Why the candidates are contradictory, if they are (the puzzle has no solution).
    pub fn contradiction(&self) -> Option<&str> {
        self.broken.as_deref()
    }
    /// Why the Nishio rule is unavailable (graph too large, or no time to build it), if it is.
    pub fn nishio_note(&self) -> Option<String> {
        self.model.nishio_note()
    }
    /// The values (`0` where not fixed).
    pub fn values(&self) -> Vec<u8> {
        self.model.values()
    }
    /// The engine, for a search that finishes the grid (explanations off, Nishio off: the
    /// search propagates the other rules at every node).
    pub fn into_engine(mut self) -> (Engine, Arc<Geometry>) {
        self.ladder.release(&mut self.model.engine);
        let mut e = self.model.engine;
        e.explain(false);
        e.set_enabled("nishio", false);
        // The named patterns are for people; the search propagates singles, locked candidates
        // and subsets up to triples, as before them.
        for rule in PATTERN_RULES {
            e.set_enabled(rule, false);
        }
        (e, self.model.geo)
    }

    /// Places `digit` in `cell` as a guess (a step of rule [`Rule::Guess`]; the caller takes
    /// it from a solution, so the run stays one line of reasoning); the rules run again from
    /// the next [`Deducer::step`]. `false` when the digit is not a candidate there.
    pub fn guess(&mut self, cell: usize, digit: u8) -> bool {
        let var = VarId::from_index(cell);
        if !self.model.engine.dom(var).contains(u32::from(digit)) || self.broken.is_some() {
            return false;
        }
        self.model
            .engine
            .log_step("guess", pencilbox_core::engine::StepKind::Decision, Vec::new());
        let ok = self
            .model
            .engine
            .with_context("guess", |cx| cx.assign(var, u32::from(digit)))
            .is_ok();
        self.drain_log();
        self.ladder.set(&mut self.model.engine, 1);
        self.dirty = true;
        self.done = false;
        ok
    }

    /// Polls the limits; true (and remembered) when the deadline passed, the run was cancelled
    /// or the deduction work reached the node limit ([`crate::model::Work`]).
    fn poll(&mut self) -> bool {
        if self.stopped.is_none() {
            self.stopped = self
                .limits
                .interrupted()
                .or_else(|| self.model.work.spend().then_some(StopReason::NodeLimit));
        }
        self.stopped.is_some()
    }
    /// Units of deduction work done so far ([`crate::model::Work`]).
    pub fn work(&self) -> u64 {
        self.model.work.used()
    }

    /// The next deduction; `None` when solved, stalled, contradictory or interrupted.
    pub fn step(&mut self) -> Option<Step> {
        loop {
            if let Some(s) = self.pending.pop_front() {
                return Some(s);
            }
            if self.broken.is_some() || self.done || self.poll() {
                return None;
            }
            self.advance();
        }
    }

    /// Runs the engine's rules one level at a time ([`Ladder`]: a step of a rule above level 1
    /// sends the run back to level 1, a stalled level raises it), or (at the fixpoint of every
    /// rule allowed) applies one chain.
    fn advance(&mut self) {
        if self.dirty {
            self.dirty = false;
            let left = |e: &Engine| e.domains().iter().map(|d| d.len()).sum::<u32>();
            let before = left(&self.model.engine);
            let r = self.model.engine.propagate();
            let progress = self.model.engine.paused() || left(&self.model.engine) < before;
            self.drain_log();
            if r.is_err() {
                if self.poll() || self.model.engine.interrupted().is_some() {
                    self.stopped = self.stopped.or(self.model.engine.interrupted());
                    // Steps made before the interruption are sound; keep them.
                    return;
                }
                self.broken = Some(self.describe_conflict());
            } else if self.poll() {
                // A rule (Nishio) stopped early for the limits: not a fixpoint.
            } else if !progress && !self.model.engine.all_fixed() && self.chain_before_next_level() {
                // The implication chain's level lies between the engine's rule levels (before
                // Nishio): it was tried, and applied if it found something.
            } else if !self.model.engine.all_fixed() && self.ladder.climb(&mut self.model.engine, progress) {
                self.dirty = true;
            } else {
                self.place_remaining();
                self.done = self.model.engine.all_fixed();
            }
            return;
        }
        if self.rules.chains {
            for (rule, level) in [
                (ChainRule::Chain, crate::explain::CHAIN_LEVEL),
                (ChainRule::Forcing, crate::explain::FORCING_LEVEL),
            ] {
                if level > self.max_level {
                    continue;
                }
                if rule == ChainRule::Chain && self.chain_clean.as_deref() == Some(self.model.engine.domains()) {
                    continue;
                }
                match self.chain(rule) {
                    None => return, // interrupted
                    Some(true) => {
                        self.ladder.set(&mut self.model.engine, 1);
                        self.dirty = true;
                        self.drain_log();
                        return;
                    }
                    Some(false) => {}
                }
            }
        }
        self.done = true;
    }

    /// At a stall of the engine's rules up to the ladder's level, when the next engine level is
    /// above the implication chain's ([`crate::explain::CHAIN_LEVEL`], below Nishio's): tries
    /// the chain first. True when it applied one (the run goes back to level 1) or was
    /// interrupted; false to climb as usual.
    fn chain_before_next_level(&mut self) -> bool {
        let level = crate::explain::CHAIN_LEVEL;
        if !self.rules.chains || level > self.max_level || self.ladder.level() >= level {
            return false;
        }
        let here = self.ladder.level();
        let next = self
            .ladder
            .levels()
            .iter()
            .map(|&(_, l)| l)
            .find(|&l| l > here && l <= self.max_level);
        if next.is_some_and(|l| l < level) {
            return false;
        }
        match self.chain(ChainRule::Chain) {
            None => true,
            Some(true) => {
                self.ladder.set(&mut self.model.engine, 1);
                self.dirty = true;
                self.drain_log();
                true
            }
            Some(false) => {
                // Nothing: climb (to Nishio), and remember the grid so the chain is not
                // searched again at the top unless something changed.
                self.chain_clean = Some(self.model.engine.domains().to_vec());
                false
            }
        }
    }

    /// Why the engine's last propagation failed, in words.
    fn describe_conflict(&self) -> String {
        if let Some(d) = crate::model::lock_log(&self.model.nishio).no_placement {
            return format!("no valid placement of {} remains", symbol(d));
        }
        let geo = &self.model.geo;
        let doms = self.model.engine.domains();
        let full = Domain::range(1, geo.n() as u32);
        for (u, unit) in geo.units().iter().enumerate() {
            let all = unit.iter().fold(Domain::EMPTY, |acc, &c| acc.or(doms[c as usize]));
            if let Some(d) = full.minus(all).min() {
                return format!("{} has no place for {}", geo.unit_name(u), symbol(d as u8));
            }
            let mut seen = Domain::EMPTY;
            for &c in unit {
                if let Some(v) = doms[c as usize].value() {
                    if seen.contains(v) {
                        return format!("{} holds {} twice", geo.unit_name(u), symbol(v as u8));
                    }
                    seen.insert(v);
                }
            }
        }
        // A rule would have emptied a cell: name the fixed cell whose value it would lose.
        let rule = self
            .model
            .engine
            .last_conflict()
            .map_or("a rule", |p| self.model.engine.name_of(p));
        format!("the {rule} rule leaves a cell with no candidate")
    }

    fn name(&self, i: usize) -> String {
        self.model.geo.name(i)
    }

    fn names(&self, elim: &[(usize, u8)]) -> String {
        let mut cells: Vec<usize> = elim.iter().map(|&(c, _)| c).collect();
        cells.sort_unstable();
        cells.dedup();
        cells.iter().map(|&c| self.name(c)).collect::<Vec<_>>().join(", ")
    }

    /// The first unit holding every cell of `cells` (rows, then columns, then blocks).
    fn unit_of(&self, cells: &[usize]) -> Option<usize> {
        let geo = &self.model.geo;
        let first = *cells.first()?;
        geo.cell_units(first)
            .into_iter()
            .map(|u| u as usize)
            .find(|&u| cells.iter().all(|&c| geo.cell_units(c).contains(&(u as u16))))
    }

    /// Converts the engine's new log entries into steps.
    fn drain_log(&mut self) {
        let log = self.model.engine.take_log();
        for s in log {
            let Some(mut step) = self.convert(&s) else {
                continue;
            };
            step.premises = s.premises.iter().map(|p| p.var.index()).collect();
            step.premises.dedup();
            // A cell the step leaves with one candidate is placed by it.
            let mut fixed = Vec::new();
            for &(c, d) in &step.eliminated {
                self.shadow[c].remove(d as u32);
                if let Some(v) = self.shadow[c].value() {
                    if !std::mem::replace(&mut self.placed[c], true) {
                        fixed.push((c, v as u8));
                    }
                }
            }
            // The peers of a cell placed by a hidden single not yet returned lose its value in
            // that step (a person places a digit and crosses it out around it).
            let placed_earlier = (s.rule == "naked-single" && step.placed.is_empty())
                .then(|| s.premises.first().map(|p| p.var.index()))
                .flatten()
                .and_then(|cell| {
                    self.pending.iter().rposition(|p| {
                        p.rule == Rule::HiddenSingle && p.placed.first().is_some_and(|&(c, _)| c == cell)
                    })
                });
            let mut text = String::new();
            if placed_earlier.is_some() {
                text = format!(", removing it from {}", self.names(&step.eliminated));
            }
            for &(c, v) in &fixed {
                text.push_str(&format!(", leaving {} = {}", self.name(c), symbol(v)));
            }
            match placed_earlier {
                Some(k) => {
                    let target = &mut self.pending[k];
                    target.text.push_str(&text);
                    target.eliminated.extend(step.eliminated);
                    target.placed.extend(fixed);
                }
                None => {
                    step.text.push_str(&text);
                    step.placed.extend(fixed);
                    self.pending.push_back(step);
                }
            }
        }
    }

    /// Reports the fixed cells no step placed (single from the start, no peer held their
    /// value), as naked singles without eliminations.
    fn place_remaining(&mut self) {
        {
            for c in 0..self.placed.len() {
                if let Some(v) = self.model.engine.value(VarId::from_index(c)) {
                    if !std::mem::replace(&mut self.placed[c], true) {
                        self.pending.push_back(Step {
                            premises: Vec::new(),
                            pattern: None,
                            chain: Vec::new(),
                            contradiction: None,
                            rule: Rule::NakedSingle,
                            text: format!("{} = {} (naked single)", self.name(c), symbol(v as u8)),
                            placed: vec![(c, v as u8)],
                            eliminated: vec![],
                        });
                    }
                }
            }
        }
    }

    fn convert(&mut self, s: &LogStep) -> Option<Step> {
        let mut eliminated: Vec<(usize, u8)> = s
            .changes
            .iter()
            .flat_map(|c| c.removed.iter().map(move |v| (c.var.index(), v as u8)))
            .collect();
        eliminated.sort_unstable();
        eliminated.dedup();
        if eliminated.is_empty() {
            return None;
        }
        let premise_cells: Vec<usize> = s.premises.iter().map(|p| p.var.index()).collect();
        let geo = self.model.geo.clone();
        let value_of = |i: usize| self.model.engine.value(VarId::from_index(i)).unwrap_or(0) as u8;
        match s.rule {
            "naked-single" => {
                let i = *premise_cells.first()?;
                let v = s.premises[0].dom.value().unwrap_or(0) as u8;
                let first = !std::mem::replace(&mut self.placed[i], true);
                let text = if first {
                    format!("{} = {} (naked single)", self.name(i), symbol(v))
                } else {
                    format!(
                        "{} = {} removes {} from {}",
                        self.name(i),
                        symbol(v),
                        symbol(v),
                        self.names(&eliminated)
                    )
                };
                Some(Step {
                    premises: Vec::new(),
                    pattern: None,
                    chain: Vec::new(),
                    contradiction: None,
                    rule: Rule::NakedSingle,
                    text,
                    placed: if first { vec![(i, v)] } else { vec![] },
                    eliminated,
                })
            }
            "hidden-single" => {
                let i = s.changes.first()?.var.index();
                let v = value_of(i);
                self.placed[i] = true;
                let mut cells = premise_cells.clone();
                cells.push(i);
                let unit = self
                    .unit_of(&cells)
                    .map_or_else(|| "its unit".to_string(), |u| geo.unit_name(u));
                Some(Step {
                    premises: Vec::new(),
                    pattern: None,
                    chain: Vec::new(),
                    contradiction: None,
                    rule: Rule::HiddenSingle,
                    text: format!("{} = {} (hidden single in {unit})", self.name(i), symbol(v)),
                    placed: vec![(i, v)],
                    eliminated,
                })
            }
            "pointing" => {
                let d = eliminated[0].1;
                let targets: Vec<usize> = eliminated.iter().map(|&(c, _)| c).collect();
                // The group: a unit holding every premise cell and none of the targets, whose
                // other cells (the places of the digit) all share another unit with the targets.
                let mut found = None;
                for u in (0..geo.units().len()).rev() {
                    let unit = geo.unit(u);
                    let has = |c: usize| unit.contains(&(c as u16));
                    if !premise_cells.iter().all(|&c| has(c)) || targets.iter().any(|&c| has(c)) {
                        continue;
                    }
                    let places: Vec<usize> = unit
                        .iter()
                        .map(|&c| c as usize)
                        .filter(|c| !premise_cells.contains(c))
                        .collect();
                    let mut all = places.clone();
                    all.extend(&targets);
                    if let Some(other) = self.unit_of(&all) {
                        found = Some((u, other));
                        break;
                    }
                }
                let (u, other) = found?;
                let rule = if geo.unit_kind(u) == UnitKind::Block {
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
                    self.names(&eliminated)
                );
                Some(Step::eliminating(rule, text, eliminated))
            }
            "x-wing" | "swordfish" | "jellyfish" | "turbot-fish" | "xy-wing" | "xyz-wing" | "wxyz-wing" | "bug"
            | "unique-rectangle" => {
                let pattern = crate::patterns::lock(&self.model.patterns).pop_front()?;
                let (rule, text) = self.pattern_text(&pattern, &eliminated);
                let mut step = Step::eliminating(rule, text, eliminated);
                step.pattern = Some(pattern);
                Some(step)
            }
            "naked-pair" | "naked-triple" | "naked-quad" => {
                let rule = match s.rule {
                    "naked-pair" => Rule::NakedPair,
                    "naked-triple" => Rule::NakedTriple,
                    _ => Rule::NakedQuad,
                };
                let union = s.premises.iter().fold(Domain::EMPTY, |a, p| a.or(p.dom));
                let digits: String = union.iter().map(|d| symbol(d as u8)).collect();
                let unit = self
                    .unit_of(&premise_cells)
                    .map_or_else(|| "a unit".to_string(), |u| geo.unit_name(u));
                let names: Vec<String> = premise_cells.iter().map(|&c| self.name(c)).collect();
                let text = format!(
                    "{} {{{digits}}} at {} in {unit} removes {digits} from {}",
                    rule.name(),
                    names.join(", "),
                    self.names(&eliminated)
                );
                Some(Step::eliminating(rule, text, eliminated))
            }
            "hidden-pair" | "hidden-triple" | "hidden-quad" => {
                let rule = match s.rule {
                    "hidden-pair" => Rule::HiddenPair,
                    "hidden-triple" => Rule::HiddenTriple,
                    _ => Rule::HiddenQuad,
                };
                // The premises say "≠ v" of the unit's other cells for each digit of the subset:
                // the digits are what they exclude, the subset is the rest of the unit.
                let digits = s
                    .premises
                    .iter()
                    .fold(Domain::EMPTY, |a, p| a.or(Domain::ALL.minus(p.dom)));
                let mut changed: Vec<usize> = s.changes.iter().map(|c| c.var.index()).collect();
                changed.dedup();
                let mut all = premise_cells.clone();
                all.extend(&changed);
                let u = self.unit_of(&all)?;
                let subset: Vec<usize> = geo
                    .unit(u)
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|c| !premise_cells.contains(c))
                    .collect();
                let ds: String = digits.iter().map(|d| symbol(d as u8)).collect();
                let names = |cells: &[usize]| cells.iter().map(|&c| self.name(c)).collect::<Vec<_>>().join(", ");
                Some(Step {
                    premises: Vec::new(),
                    pattern: None,
                    chain: Vec::new(),
                    contradiction: None,
                    rule,
                    text: format!(
                        "{} {{{ds}}} in {}: {ds} fit only {}, so {} keep only {ds}",
                        rule.name(),
                        geo.unit_name(u),
                        names(&subset),
                        names(&changed)
                    ),
                    placed: vec![],
                    eliminated,
                })
            }
            "nishio" => {
                let (d, left) = {
                    let log = crate::model::lock_log(&self.model.nishio);
                    let e = log.placements.get(self.nishio_seen).copied();
                    e.unwrap_or((eliminated[0].1, None))
                };
                self.nishio_seen += 1;
                let left = left.unwrap_or(0);
                let mut text = format!(
                    "Nishio on digit {} removes {} ({left} valid placement{} left)",
                    symbol(d),
                    self.names(&eliminated),
                    if left == 1 { "" } else { "s" }
                );
                // The chain of the first removed cell, on digit d alone; when following d by
                // singles reaches no contradiction, say what the DAG checked instead.
                let (c0, _) = eliminated[0];
                let found = crate::chains::singles_chain(&geo, &self.shadow, c0, d as u32, Some(d as u32));
                let (chain, why) = match found {
                    Some(f) => {
                        let sentence = crate::explain::chain_sentence(geo.n(), &f.links, &f.contradiction);
                        let kind = if f.is_static {
                            format!(" ({} on {})", crate::explain::X_CHAIN, symbol(d))
                        } else {
                            String::new()
                        };
                        text.push_str(&format!(": for {}, {sentence}{kind}", self.name(c0)));
                        (f.links, f.contradiction)
                    }
                    None => {
                        let why = format!(
                            "no placement of {} (one {} in every row, column and block) uses {}",
                            symbol(d),
                            symbol(d),
                            self.name(c0)
                        );
                        text.push_str(&format!(": {why}"));
                        (vec![(c0, d, true, pencilbox_core::human::ASSUME)], why)
                    }
                };
                Some(Step {
                    premises: Vec::new(),
                    pattern: None,
                    chain,
                    contradiction: Some(why),
                    rule: Rule::Nishio,
                    text,
                    placed: vec![],
                    eliminated,
                })
            }
            "chain" | "forcing-chain" => {
                let rule = if s.rule == "chain" {
                    Rule::Chain
                } else {
                    Rule::ForcingChain
                };
                let (text, chain, why) = self
                    .chain_text
                    .take()
                    .unwrap_or_else(|| (rule.name().to_string(), Vec::new(), String::new()));
                let mut step = Step::eliminating(rule, text, eliminated);
                if !chain.is_empty() {
                    step.chain = chain;
                    step.contradiction = Some(why);
                }
                Some(step)
            }
            "guess" => {
                let i = s.changes.first()?.var.index();
                let v = self.model.engine.value(VarId::from_index(i)).unwrap_or(0) as u8;
                Some(Step {
                    premises: Vec::new(),
                    pattern: None,
                    chain: Vec::new(),
                    contradiction: None,
                    rule: Rule::Guess,
                    text: format!(
                        "guess {} = {} (no rule applies; the search shows this digit leads to the solution)",
                        self.name(i),
                        symbol(v)
                    ),
                    placed: vec![],
                    eliminated,
                })
            }
            other => Some(Step {
                premises: Vec::new(),
                pattern: None,
                chain: Vec::new(),
                contradiction: None,
                rule: Rule::Guess,
                text: format!("{other} removes {}", self.names(&eliminated)),
                placed: vec![],
                eliminated,
            }),
        }
    }
}

impl Deducer {
    /// The rule and sentence of a named pattern's step.
    fn pattern_text(&self, p: &crate::patterns::Pattern, eliminated: &[(usize, u8)]) -> (Rule, String) {
        use crate::patterns::Pattern;
        let geo = &self.model.geo;
        let n = geo.n();
        let list = |v: Vec<String>| match v.len() {
            0 => String::new(),
            1 => v[0].clone(),
            k => format!("{} and {}", v[..k - 1].join(", "), v[k - 1]),
        };
        let lines = |us: &[usize]| {
            let kind = if us[0] < n { "rows" } else { "columns" };
            format!("{kind} {}", list(us.iter().map(|u| (u % n + 1).to_string()).collect()))
        };
        let cand = |c: usize| -> String { self.shadow[c].iter().map(|d| symbol(d as u8)).collect() };
        match p {
            Pattern::Fish { digit, base, cover } => {
                let rule = match base.len() {
                    2 => Rule::XWing,
                    3 => Rule::Swordfish,
                    _ => Rule::Jellyfish,
                };
                let d = symbol(*digit);
                let cells: Vec<String> = base
                    .iter()
                    .flat_map(|&b| geo.unit(b).iter().map(|&c| c as usize))
                    .filter(|&c| {
                        self.shadow[c].len() >= 2
                            && self.shadow[c].contains(*digit as u32)
                            && cover.iter().any(|&u| geo.unit(u).contains(&(c as u16)))
                    })
                    .map(|c| self.name(c))
                    .collect();
                let text = format!(
                    "{} on {d}: in {}, {d} fits only {} ({}), so {d} leaves the other cells of {}: {}",
                    rule.name(),
                    lines(base),
                    lines(cover),
                    cells.join(", "),
                    lines(cover),
                    self.names(eliminated)
                );
                (rule, text)
            }
            Pattern::Wing {
                pivot,
                pincers: [a, b],
                digit,
                xyz,
            } => {
                let z = symbol(*digit);
                let (rule, sees) = if *xyz {
                    (Rule::XYZWing, "see the pivot and both pincers")
                } else {
                    (Rule::XYWing, "see both pincers")
                };
                let text = format!(
                    "{}: pivot {} {{{}}} sees pincers {} {{{}}} and {} {{{}}}: whatever the pivot holds, one of {} is {z}, so {z} leaves {} (they {sees})",
                    rule.name(),
                    self.name(*pivot),
                    cand(*pivot),
                    self.name(*a),
                    cand(*a),
                    self.name(*b),
                    cand(*b),
                    if *xyz { "the three" } else { "the pincers" },
                    self.names(eliminated)
                );
                (rule, text)
            }
            Pattern::Bug { cell, digit } => {
                let d = symbol(*digit);
                let text = format!(
                    "BUG+1: every open cell but {} has two candidates, and every digit two places in each unit but {d}, which has three in the units of {} {{{}}}; if {} were not {d}, every unit would hold each of its digits in two cells, a grid with no solution or two, so {} = {d} (the puzzle is known to have one solution)",
                    self.name(*cell),
                    self.name(*cell),
                    cand(*cell),
                    self.name(*cell),
                    self.name(*cell)
                );
                (Rule::Bug, text)
            }
            Pattern::Wxyz { cells, digit } => {
                let z = symbol(*digit);
                let wing: Vec<String> = cells
                    .iter()
                    .map(|&c| format!("{} {{{}}}", self.name(c), cand(c)))
                    .collect();
                let text = format!(
                    "WXYZ-Wing: {} hold four digits between them, and every digit but {z} fills at most one of them (its cells see each other), so one of them is {z}: {z} leaves {} (they see every wing cell holding {z})",
                    wing.join(", "),
                    self.names(eliminated)
                );
                (Rule::WXYZWing, text)
            }
            Pattern::Turbot { digit, cells, units } => {
                let d = symbol(*digit);
                let kind = crate::patterns::turbot_kind(geo, *units);
                let name = crate::explain::TURBOT_NAMES[kind];
                let [a, b, c, e] = cells.map(|c| self.name(c));
                let text = format!(
                    "{name} on {d}: {d} fits only {a}, {b} in {} and only {c}, {e} in {}, and {b} sees {c}: if {a} is not {d} then {b} is, so {c} is not and {e} is; one of {a}, {e} is {d}, so {d} leaves {} (they see both)",
                    geo.unit_name(units[0]),
                    geo.unit_name(units[1]),
                    self.names(eliminated)
                );
                (Rule::TurbotFish, text)
            }
            Pattern::UniqueRectangle { cells, digits } => {
                let [x, y] = digits.map(symbol);
                let text = format!(
                    "unique rectangle (type 1) on {} ({}, {}, {} hold only {{{x}{y}}}; rows {} and {}, columns {} and {}, two blocks): if {} were {x} or {y}, the four cells could swap {x} and {y} and the puzzle would have two solutions, so {} ≠ {x}, {y} (the puzzle is known to have one solution)",
                    cells.iter().map(|&c| self.name(c)).collect::<Vec<_>>().join(", "),
                    self.name(cells[0]),
                    self.name(cells[1]),
                    self.name(cells[2]),
                    cells[0] / n + 1,
                    cells[3] / n + 1,
                    cells[0] % n + 1,
                    cells[3] % n + 1,
                    self.name(cells[3]),
                    self.name(cells[3]),
                );
                (Rule::UniqueRectangle, text)
            }
        }
    }
}

/// The deducer's last-resort rules, tried when the engine's rules stall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ChainRule {
    /// Implication chains over bivalue cells and bilocal units (`chain`).
    Chain,
    /// One-level forcing chains: assume a candidate, propagate singles (`forcing-chain`).
    Forcing,
}

impl Deducer {
    /// Applies the first elimination `rule` finds, through the engine (so the log records it
    /// under the rule's name). `Some(true)`: one candidate removed; `Some(false)`: nothing
    /// found; `None`: interrupted.
    fn chain(&mut self, rule: ChainRule) -> Option<bool> {
        let found = match rule {
            ChainRule::Chain => self.implication()?,
            ChainRule::Forcing => self.forcing()?,
        };
        let Some((c, d, chain)) = found else {
            return Some(false);
        };
        let (name, r) = match rule {
            ChainRule::Chain => ("chain", Rule::Chain),
            ChainRule::Forcing => ("forcing-chain", Rule::ForcingChain),
        };
        let n = self.model.geo.n();
        let text = format!(
            "{}: {}, so {} ≠ {}",
            r.name(),
            crate::explain::chain_sentence(n, &chain.links, &chain.contradiction),
            self.name(c),
            symbol(d as u8)
        );
        self.chain_text = Some((text, chain.links, chain.contradiction));
        let removed = self
            .model
            .engine
            .with_context(name, |cx| cx.remove(VarId::from_index(c), d));
        Some(removed.is_ok())
    }

    /// One-level forcing chains on the engine: `d` is removed from `c` when assuming `c = d`
    /// and running only the engine's singles (naked and hidden: the rules below
    /// [`Priority::Costly`]) reaches a conflict. The assumption is undone either way. The
    /// chain shown is the shortest path to a contradiction by the same singles, breadth first
    /// ([`crate::chains::singles_chain`]).
    fn forcing(&mut self) -> Option<Option<(usize, u32, crate::chains::Found)>> {
        // An assumption is propagated in full (no pause after each hidden single).
        self.ladder.set_pauses(&mut self.model.engine, false);
        let found = self.forcing_unpaused();
        self.ladder.set_pauses(&mut self.model.engine, true);
        let Some(Some((c, d))) = found else {
            return found.map(|_| None);
        };
        let geo = self.model.geo.clone();
        let cand = self.model.engine.domains().to_vec();
        let chain = crate::chains::singles_chain(&geo, &cand, c, d, None).unwrap_or_else(|| crate::chains::Found {
            links: vec![(c, d as u8, true, pencilbox_core::human::ASSUME)],
            contradiction: "the singles reach a contradiction".into(),
            is_static: false,
        });
        Some(Some((c, d, chain)))
    }

    fn forcing_unpaused(&mut self) -> Option<Option<(usize, u32)>> {
        let cells = self.model.engine.num_vars();
        for c in 0..cells {
            let x = VarId::from_index(c);
            let dom = self.model.engine.dom(x);
            if dom.is_single() {
                continue;
            }
            if self.poll() {
                return None;
            }
            for d in dom.iter() {
                let e = &mut self.model.engine;
                e.push_level();
                let ok = e.assign(x, d).is_ok() && e.propagate_below(Priority::Costly).is_ok();
                e.pop_level();
                if e.interrupted().is_some() {
                    self.stopped = e.interrupted();
                    return None;
                }
                if !ok {
                    return Some(Some((c, d)));
                }
            }
        }
        Some(None)
    }

    /// Implication chains (Eppstein's solver's "heuristic reduction to 2-SAT"): literals are
    /// "cell c holds d" and its negation. A true candidate excludes its peers' `d` and its own
    /// other candidates; a false candidate forces the other value of a bivalue cell and the other
    /// place of a digit with two places in a unit. If assuming `(c, d)` implies some literal
    /// and its negation, `d` is removed from `c`. Each assumption is searched breadth first with
    /// parent pointers, and of all the refuted candidates the one with the shortest chain is
    /// taken (a search stops as soon as it is deeper than the best chain so far).
    fn implication(&mut self) -> Option<Option<(usize, u32, crate::chains::Found)>> {
        let geo = self.model.geo.clone();
        let grid: Vec<Domain> = self.model.engine.domains().to_vec();
        let n = geo.n();
        let cells = grid.len();
        let lit = |c: usize, d: u32, t: bool| ((c * n + d as usize - 1) << 1) | t as usize;
        let mut seen = vec![0u32; cells * n * 2];
        // Per literal: the literal it came from and its depth (valid where `seen` is this epoch).
        let mut parent = vec![usize::MAX; cells * n * 2];
        let mut depth = vec![0u32; cells * n * 2];
        let mut rule_of: Vec<&'static str> = vec!["naked-single"; cells * n * 2];
        let mut epoch = 0u32;
        let mut queue = Vec::new();
        let mut next: Vec<(usize, &'static str)> = Vec::new();
        // The best chain so far: its length, the refuted candidate and its links.
        let mut best: Option<(usize, usize, u32, Vec<Link>, String)> = None;
        // Which starts reach their own negation (the only ones a search can refute), for all
        // at once by reachability sets over the strongly connected components: the searches
        // below run from those alone.
        // Without a strong link (a bivalue cell or a digit with two places in a unit) nothing
        // is implied beyond one step, and no candidate can be refuted.
        let strong = grid.iter().any(|d| d.len() == 2)
            || geo.units().iter().any(|u| {
                (1..=n as u32).any(|d| {
                    u.iter()
                        .filter(|&&c| grid[c as usize].len() >= 2 && grid[c as usize].contains(d))
                        .count()
                        == 2
                })
            });
        if !strong {
            return Some(None);
        }
        let refutable = if cells * n * 2 <= REFUTABLE_MAX_LITERALS {
            refutable_starts(&geo, &grid)
        } else {
            // Above 16×16 the reachability sets would take too much memory: search from
            // every start.
            vec![true; cells * n * 2]
        };
        if !refutable.iter().any(|&r| r) {
            return Some(None);
        }
        for c in 0..cells {
            if grid[c].is_single() {
                continue;
            }
            if self.poll() {
                return None;
            }
            for d in grid[c].iter() {
                let start = lit(c, d, true);
                if !refutable[start] {
                    continue;
                }
                epoch += 1;
                queue.clear();
                seen[start] = epoch;
                parent[start] = usize::MAX;
                depth[start] = 0;
                queue.push(start);
                let mut head = 0;
                let mut conflict = None;
                let limit = best.as_ref().map_or(u32::MAX, |b| b.0 as u32);
                while head < queue.len() && conflict.is_none() {
                    if head % 1024 == 1023 && self.poll() {
                        return None;
                    }
                    let x = queue[head];
                    head += 1;
                    if depth[x] >= limit {
                        break;
                    }
                    implied(&geo, &grid, x, &mut next);
                    for &(y, rule) in &next {
                        if seen[y] != epoch {
                            seen[y] = epoch;
                            parent[y] = x;
                            depth[y] = depth[x] + 1;
                            rule_of[y] = rule;
                            if seen[y ^ 1] == epoch {
                                conflict = Some(y);
                                break;
                            }
                            queue.push(y);
                        }
                    }
                }
                if let Some(y) = conflict {
                    // Both paths, merged in the order they were found (a parent always comes
                    // before its child, so each link follows from the ones before it).
                    let mut lits = Vec::new();
                    for end in [y ^ 1, y] {
                        let mut l = end;
                        while l != usize::MAX {
                            lits.push(l);
                            l = parent[l];
                        }
                    }
                    lits.sort_by_key(|&l| depth[l]);
                    let mut seen_l = std::collections::HashSet::new();
                    lits.retain(|l| seen_l.insert(*l));
                    // Depth order keeps parents first; within a depth the order is free.
                    let links: Vec<Link> = lits
                        .iter()
                        .map(|&l| {
                            let (lc, ld, lt) = ((l >> 1) / n, (l >> 1) % n + 1, l & 1 == 1);
                            let rule = if l == start {
                                pencilbox_core::human::ASSUME
                            } else {
                                rule_of[l]
                            };
                            (lc, ld as u8, lt, rule)
                        })
                        .collect();
                    let (yc, yd) = ((y >> 1) / n, (y >> 1) % n + 1);
                    let why = format!("{} would be both {yd} and not {yd}", geo.name(yc));
                    if best.as_ref().is_none_or(|b| links.len() < b.0) {
                        best = Some((links.len(), c, d, links, why));
                    }
                }
            }
        }
        Some(best.map(|(_, c, d, links, contradiction)| {
            (
                c,
                d,
                crate::chains::Found {
                    links,
                    contradiction,
                    is_static: true,
                },
            )
        }))
    }
}

/// The literals of the implication graph that follow from literal `x` (`(c·n + d − 1)·2 + t`,
/// `t` = the cell holds the digit): a true candidate excludes its peers' digit and its cell's
/// other digits; a false one makes a bivalue cell's other digit true, and the other place of
/// a digit with two places in a unit.
fn implied(geo: &Geometry, grid: &[Domain], x: usize, out: &mut Vec<(usize, &'static str)>) {
    let n = geo.n();
    let lit = |c: usize, d: u32, t: bool| ((c * n + d as usize - 1) << 1) | t as usize;
    let (xc, xd, xt) = ((x >> 1) / n, ((x >> 1) % n + 1) as u32, x & 1 == 1);
    out.clear();
    if xt {
        for &p in geo.peers(xc) {
            if grid[p as usize].contains(xd) {
                out.push((lit(p as usize, xd, false), "naked-single"));
            }
        }
        for e in grid[xc].without(xd).iter() {
            out.push((lit(xc, e, false), "naked-single"));
        }
    } else {
        let rest = grid[xc].without(xd);
        if rest.is_single() {
            out.push((lit(xc, rest.value().unwrap_or(1), true), "naked-single"));
        }
        for u in geo.cell_units(xc) {
            let mut spots = geo
                .unit(u as usize)
                .iter()
                .filter(|&&q| q as usize != xc && grid[q as usize].contains(xd));
            if let (Some(&q), None) = (spots.next(), spots.next()) {
                out.push((lit(q as usize, xd, true), "hidden-single"));
            }
        }
    }
}

/// The largest implication graph (in literals) whose reachability sets
/// [`refutable_starts`] computes (16×16: 8,192 literals, at most 8 MiB of sets).
const REFUTABLE_MAX_LITERALS: usize = 16 * 16 * 16 * 2;

/// Per literal, whether it is a true candidate of an open cell that reaches its own negation
/// in the implication graph ([`implied`]): the graph is a 2-SAT graph (each edge's
/// contrapositive is an edge), so a start that implies some literal and its negation implies
/// its own negation, and these are exactly the starts the implication rule can refute.
/// Tarjan's strongly connected components, then one reachability bit set per component in the
/// order Tarjan finishes them (successors first).
fn refutable_starts(geo: &Geometry, grid: &[Domain]) -> Vec<bool> {
    let n = geo.n();
    let total = grid.len() * n * 2;
    let live = |x: usize| {
        let (c, d) = ((x >> 1) / n, ((x >> 1) % n + 1) as u32);
        grid[c].len() >= 2 && grid[c].contains(d)
    };
    // The graph in compressed rows: the successors of `x` are `edges[start[x]..start[x + 1]]`.
    let mut start = Vec::with_capacity(total + 1);
    let mut edges: Vec<u32> = Vec::with_capacity(total * 8);
    let mut out = Vec::new();
    for x in 0..total {
        start.push(edges.len() as u32);
        if live(x) {
            implied(geo, grid, x, &mut out);
            edges.extend(out.iter().map(|&(y, _)| y as u32).filter(|&y| live(y as usize)));
        }
    }
    start.push(edges.len() as u32);
    let adj = |x: usize| &edges[start[x] as usize..start[x + 1] as usize];
    // Tarjan, iteratively.
    const NONE: u32 = u32::MAX;
    let mut index = vec![NONE; total];
    let mut low = vec![0u32; total];
    let mut on_stack = vec![false; total];
    let mut comp = vec![NONE; total];
    let mut stack: Vec<u32> = Vec::new();
    let mut comps: Vec<Vec<u32>> = Vec::new();
    let mut counter = 0u32;
    for root in 0..total {
        if !live(root) || index[root] != NONE {
            continue;
        }
        let mut call: Vec<(u32, usize)> = vec![(root as u32, 0)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            let v = v as usize;
            if let Some(&w) = adj(v).get(*i) {
                *i += 1;
                let w = w as usize;
                if index[w] == NONE {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w as u32);
                    on_stack[w] = true;
                    call.push((w as u32, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(u, _)) = call.last() {
                low[u as usize] = low[u as usize].min(low[v]);
            }
            if low[v] == index[v] {
                let id = comps.len() as u32;
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    comp[w as usize] = id;
                    members.push(w);
                    if w as usize == v {
                        break;
                    }
                }
                comps.push(members);
            }
        }
    }
    // Reachability sets, successors' components first (Tarjan's finishing order).
    let words = total.div_ceil(64);
    let mut reach = vec![0u64; comps.len() * words];
    for (id, members) in comps.iter().enumerate() {
        for &m in members {
            reach[id * words + m as usize / 64] |= 1 << (m % 64);
            for &w in adj(m as usize) {
                let other = comp[w as usize] as usize;
                if other != id {
                    let (a, b) = if other < id {
                        let (lo, hi) = reach.split_at_mut(id * words);
                        (&mut hi[..words], &lo[other * words..other * words + words])
                    } else {
                        unreachable!("Tarjan finishes successors first")
                    };
                    for (x, y) in a.iter_mut().zip(b) {
                        *x |= *y;
                    }
                }
            }
        }
    }
    (0..total)
        .map(|x| {
            x & 1 == 1 && live(x) && {
                let id = comp[x] as usize;
                let neg = x ^ 1;
                reach[id * words + neg / 64] >> (neg % 64) & 1 == 1
            }
        })
        .collect()
}

/// The engine rules of the named patterns (and the subsets of four), switched off for search.
const PATTERN_RULES: [&str; 11] = [
    "x-wing",
    "bug",
    "wxyz-wing",
    "turbot-fish",
    "swordfish",
    "jellyfish",
    "xy-wing",
    "xyz-wing",
    "unique-rectangle",
    "naked-quad",
    "hidden-quad",
];

/// The level of an engine rule of the Sudoku model ([`crate::explain::RULES`]).
fn level_of(rule: &str) -> u8 {
    crate::explain::RULES
        .iter()
        .find(|r| r.id == rule)
        .map_or(1, |r| r.level)
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
    Ok(run_deducer(Deducer::new_limited(p, rules, limits.clone())?, || false))
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
        notes: d.nishio_note().into_iter().collect(),
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

    /// The long mode of the cross-check (BENCHMARKS.md): 2000 random 4×4 and 6×6 instances,
    /// Each of `algs` counts `want` solutions of the one-line puzzle `text`.
    fn counts_agree(text: &str, block: crate::board::BlockShape, algs: &[&str], want: usize) {
        use pencilbox_core::{PuzzleKind, RunOptions};
        for &alg in algs {
            let opts = RunOptions {
                algorithm: Some(alg.into()),
                settings: vec![("block".into(), block.to_string())],
                ..RunOptions::default()
            };
            let c = crate::KIND.count(text, None, &opts).unwrap();
            assert_eq!(c.count, (want as u64).into(), "{text} {alg}");
        }
    }

    /// `deduce`, `backtrack` and `sat` counted against brute force.
    #[test]
    #[ignore = "long mode: cargo test -p pencilbox-sudoku-nishio --lib long_crosscheck -- --ignored"]
    fn long_crosscheck_of_every_algorithm_with_brute_force() {
        use crate::backtrack::tests::{brute, random_puzzle};
        use crate::board::BlockShape;
        let mut rng = crate::generate::Rng::new(7);
        let mut compared = 0;
        for k in 0..2000 {
            let (block, pct) = [
                (BlockShape::new(2, 2), 25),
                (BlockShape::new(2, 3), 40),
                (BlockShape::new(2, 3), 55),
            ][k % 3];
            let p = random_puzzle(block, &mut rng, pct);
            let sols = brute(&p, Some(500));
            if sols.len() >= 500 {
                continue;
            }
            counts_agree(&p.to_line(), block, &["deduce", "backtrack", "sat"], sols.len());
            compared += 1;
        }
        println!("compared {compared} instances");
    }

    /// Each naked and hidden subset step checked against its own definition on the candidates
    /// the steps before it leave (replayed; a placement also clears its digit from the peers,
    /// which the singles do first): a naked subset is `k` open cells of one unit with `k`
    /// candidates between them and removes only those digits from the unit's other cells; a
    /// hidden subset is `k` digits whose places in one unit are the same `k` cells (at least two
    /// each), and only those cells lose candidates. Puzzles from the generator, thinned as far as it goes.
    #[test]
    fn subset_steps_match_their_definitions() {
        use crate::board::BlockShape;
        use crate::geometry::Geometry;
        let block = BlockShape::new(3, 3);
        let geo = Geometry::get(block);
        let mut rng = crate::generate::Rng::new(27);
        let (mut naked, mut hidden) = (0, 0);
        for _ in 0..120 {
            let (p, _) = crate::generate::generate(block, &mut rng, 20);
            let Ok(start) = Candidates::from_puzzle(&p) else {
                continue;
            };
            let Ok(e) = explain(&p, RuleSet::ALL) else { continue };
            let mut cand: Vec<Domain> = start.cells().to_vec();
            for s in &e.steps {
                let k = match s.rule {
                    Rule::NakedPair | Rule::HiddenPair => 2,
                    Rule::NakedTriple | Rule::HiddenTriple => 3,
                    Rule::NakedQuad | Rule::HiddenQuad => 4,
                    _ => 0,
                };
                let elim_cells: Vec<usize> = s.eliminated.iter().map(|&(c, _)| c).collect();
                if matches!(s.rule, Rule::NakedPair | Rule::NakedTriple | Rule::NakedQuad) {
                    naked += 1;
                    let cells = &s.premises;
                    let union = cells.iter().fold(Domain::EMPTY, |u, &c| u.or(cand[c]));
                    assert_eq!(cells.len(), k, "{}", s.text);
                    assert!(cells.iter().all(|&c| cand[c].len() >= 2), "a solved cell in {}", s.text);
                    assert_eq!(union.len() as usize, k, "{}", s.text);
                    let unit = geo
                        .units()
                        .iter()
                        .find(|u| cells.iter().chain(&elim_cells).all(|c| u.contains(&(*c as u16))));
                    assert!(unit.is_some(), "removals outside the subset's unit: {}", s.text);
                    assert!(s
                        .eliminated
                        .iter()
                        .all(|&(c, d)| !cells.contains(&c) && union.contains(d as u32)));
                }
                if matches!(s.rule, Rule::HiddenPair | Rule::HiddenTriple | Rule::HiddenQuad) {
                    hidden += 1;
                    let kept = |c: usize| {
                        let gone = s
                            .eliminated
                            .iter()
                            .filter(|e| e.0 == c)
                            .fold(Domain::EMPTY, |a, e| a.or(Domain::single(e.1 as u32)));
                        cand[c].minus(gone)
                    };
                    let digits = elim_cells.iter().fold(Domain::EMPTY, |a, &c| a.or(kept(c)));
                    assert_eq!(digits.len() as usize, k, "{}", s.text);
                    let cand = &cand;
                    let unit = geo.units().iter().find(|u| {
                        let places = |d: u32| {
                            u.iter()
                                .filter(move |&&c| cand[c as usize].contains(d) && cand[c as usize].len() >= 2)
                        };
                        let cells: std::collections::BTreeSet<u16> = digits.iter().flat_map(places).copied().collect();
                        cells.len() == k
                            && digits.iter().all(|d| places(d).count() >= 2)
                            && elim_cells.iter().all(|c| cells.contains(&(*c as u16)))
                    });
                    assert!(unit.is_some(), "not a hidden subset: {}", s.text);
                }
                for &(c, d) in &s.eliminated {
                    cand[c] = cand[c].without(d as u32);
                }
                for &(c, d) in &s.placed {
                    cand[c] = Domain::single(d as u32);
                    for &q in geo.peers(c) {
                        cand[q as usize] = cand[q as usize].without(d as u32);
                    }
                }
            }
        }
        assert!(
            naked > 20 && hidden > 20,
            "too few subset steps to test: {naked} naked, {hidden} hidden"
        );
    }

    /// Every single, pointing and claiming step checked against its own definition on the
    /// candidates just before it: a naked single's cell has that one candidate left; a hidden
    /// single's digit has that one place left in a row, column or block; pointing is a digit
    /// whose places in a block lie on one row or column, and only that line's cells outside
    /// the block lose it; claiming is a digit whose places in a row or column lie in one block,
    /// and only that block's cells outside the line lose it.
    #[test]
    fn single_and_locked_steps_match_their_definitions() {
        use crate::geometry::UnitKind;
        let geo = Geometry::get(crate::board::BlockShape::new(3, 3));
        let units = geo.units();
        let places = |cand: &[Domain], u: &[u16], d: u32| -> Vec<usize> {
            u.iter().map(|&c| c as usize).filter(|&c| cand[c].contains(d)).collect()
        };
        let mut seen = std::collections::BTreeMap::new();
        for p in hard_sample(150, 4711) {
            replay(&p, RuleSet::ALL, |cand, s| {
                match s.rule {
                    // A step may place a cascade: each placement on the candidates the
                    // ones before it leave.
                    Rule::NakedSingle | Rule::HiddenSingle => {
                        let mut cand = cand.to_vec();
                        for &(c, d) in &s.placed {
                            let d = d as u32;
                            if s.rule == Rule::NakedSingle {
                                assert_eq!(cand[c], Domain::single(d), "{}", s.text);
                            } else {
                                let ok = units
                                    .iter()
                                    .any(|u| u.contains(&(c as u16)) && places(&cand, u, d) == [c]);
                                assert!(ok, "not a hidden single: {}", s.text);
                            }
                            cand[c] = Domain::single(d);
                            for &q in geo.peers(c) {
                                cand[q as usize] = cand[q as usize].without(d);
                            }
                        }
                    }
                    Rule::Pointing | Rule::Claiming => {
                        assert!(!s.eliminated.is_empty(), "{}", s.text);
                        // What it leaves with one candidate is placed with it.
                        let mut left = cand.to_vec();
                        for &(c, d) in &s.eliminated {
                            left[c] = left[c].without(d as u32);
                        }
                        for &(c, d) in &s.placed {
                            assert_eq!(left[c], Domain::single(d as u32), "{}", s.text);
                            for &q in geo.peers(c) {
                                left[q as usize] = left[q as usize].without(d as u32);
                            }
                        }
                        let d = s.eliminated[0].1 as u32;
                        assert!(s.eliminated.iter().all(|e| e.1 as u32 == d), "one digit: {}", s.text);
                        // (from, to): the digit's places in `from` all lie in `to`, and the
                        // removals are `to`'s cells outside `from`.
                        let is_block = |u: usize| geo.unit_kind(u) == UnitKind::Block;
                        let ok = (0..units.len()).any(|from| {
                            let here = places(cand, &units[from], d);
                            (is_block(from) == (s.rule == Rule::Pointing))
                                && here.len() >= 2
                                && (0..units.len()).any(|to| {
                                    is_block(to) != is_block(from)
                                        && here.iter().all(|c| units[to].contains(&(*c as u16)))
                                        && s.eliminated.iter().all(|&(c, _)| {
                                            units[to].contains(&(c as u16)) && !units[from].contains(&(c as u16))
                                        })
                                })
                        });
                        assert!(ok, "not {}: {}", s.rule.name(), s.text);
                    }
                    _ => return,
                }
                *seen.entry(s.rule.name()).or_insert(0usize) += 1;
            });
        }
        println!("checked: {seen:?}");
        for r in [Rule::NakedSingle, Rule::HiddenSingle, Rule::Pointing, Rule::Claiming] {
            assert!(
                seen.get(r.name()).copied().unwrap_or(0) >= 20,
                "too few {}: {seen:?}",
                r.name()
            );
        }
    }

    /// The puzzles of the pattern and chain property tests: generated 9×9 puzzles thinned as
    /// far as the generator goes, and the bundled hard examples.
    fn hard_sample(count: usize, seed: u64) -> Vec<Sudoku> {
        use crate::board::BlockShape;
        let block = BlockShape::new(3, 3);
        let mut rng = crate::generate::Rng::new(seed);
        let mut v: Vec<Sudoku> = (0..count)
            .map(|_| crate::generate::generate(block, &mut rng, 20).0)
            .collect();
        for line in [FIG4, TOP95_1, TOP95_2] {
            v.push(Sudoku::parse(line, None).unwrap());
        }
        v
    }

    const TOP95_1: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const TOP95_2: &str = "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....";

    /// The candidates of every step's start, replayed from the puzzle (a placement also clears
    /// its digit from the peers, which the singles do first), handed to `check` with the step.
    fn replay(p: &Sudoku, rules: RuleSet, mut check: impl FnMut(&[Domain], &Step)) {
        let geo = Geometry::get(p.block());
        let Ok(start) = Candidates::from_puzzle(p) else { return };
        let Ok(d) = Deducer::new(p, rules) else { return };
        let mut d = d;
        let mut cand: Vec<Domain> = start.cells().to_vec();
        while let Some(s) = d.step() {
            check(&cand, &s);
            for &(c, x) in &s.eliminated {
                cand[c] = cand[c].without(x as u32);
            }
            for &(c, x) in &s.placed {
                cand[c] = Domain::single(x as u32);
                for &q in geo.peers(c) {
                    cand[q as usize] = cand[q as usize].without(x as u32);
                }
            }
        }
    }

    /// Every X-Wing, Swordfish, Jellyfish, XY-Wing, XYZ-Wing and unique rectangle step checked
    /// against the pattern's own definition on the candidates just before it (open cells: two
    /// or more candidates): a fish of size k is k base lines of one kind whose open places for
    /// the digit lie in k cover lines of the other kind, each base line with at least two, and
    /// only the cover lines' other cells lose the digit; a wing's pivot and pincers hold the
    /// right candidates and see each other, and only cells that see both pincers (and the pivot,
    /// for XYZ) lose `z`; a unique rectangle is four cells on two rows, two columns and two
    /// blocks, three with exactly the two digits, and only the fourth loses them.
    #[test]
    fn pattern_steps_match_their_definitions() {
        use crate::patterns::{sees, Pattern};
        let geo = Geometry::get(crate::board::BlockShape::new(3, 3));
        let n = 9;
        let mut seen = std::collections::BTreeMap::new();
        let rules = RuleSet {
            uniqueness: true,
            ..RuleSet::ALL
        };
        for p in hard_sample(400, 2727) {
            replay(&p, rules, |cand, s| {
                let open = |c: usize| cand[c].len() >= 2;
                let Some(pat) = &s.pattern else {
                    assert!(
                        !matches!(
                            s.rule,
                            Rule::XWing
                                | Rule::Swordfish
                                | Rule::Jellyfish
                                | Rule::XYWing
                                | Rule::XYZWing
                                | Rule::WXYZWing
                                | Rule::Bug
                                | Rule::UniqueRectangle
                        ),
                        "no pattern on {}",
                        s.text
                    );
                    return;
                };
                *seen.entry(s.rule).or_insert(0) += 1;
                assert!(!s.eliminated.is_empty(), "{}", s.text);
                assert!(
                    s.eliminated.iter().all(|&(c, d)| cand[c].contains(d as u32) && open(c)),
                    "{}",
                    s.text
                );
                match pat {
                    Pattern::Fish { digit, base, cover } => {
                        let k = base.len();
                        let want = match s.rule {
                            Rule::XWing => 2,
                            Rule::Swordfish => 3,
                            _ => 4,
                        };
                        assert_eq!((k, cover.len()), (want, want), "{}", s.text);
                        let rows = base[0] < n;
                        assert!(base.iter().all(|&u| (u < n) == rows), "{}", s.text);
                        assert!(cover.iter().all(|&u| (u < n) != rows && u < 2 * n), "{}", s.text);
                        let has = |c: usize| open(c) && cand[c].contains(*digit as u32);
                        let in_units = |c: usize, us: &[usize]| us.iter().any(|&u| geo.unit(u).contains(&(c as u16)));
                        for &b in base {
                            let places: Vec<usize> =
                                geo.unit(b).iter().map(|&c| c as usize).filter(|&c| has(c)).collect();
                            assert!(places.len() >= 2, "{}", s.text);
                            assert!(places.iter().all(|&c| in_units(c, cover)), "{}", s.text);
                        }
                        assert!(
                            s.eliminated
                                .iter()
                                .all(|&(c, d)| d == *digit && in_units(c, cover) && !in_units(c, base)),
                            "{}",
                            s.text
                        );
                    }
                    Pattern::Wing {
                        pivot,
                        pincers: [a, b],
                        digit,
                        xyz,
                    } => {
                        let (pd, ad, bd) = (cand[*pivot], cand[*a], cand[*b]);
                        let z = Domain::single(*digit as u32);
                        assert!(sees(&geo, *pivot, *a) && sees(&geo, *pivot, *b), "{}", s.text);
                        assert!(ad.len() == 2 && bd.len() == 2 && ad.and(bd) == z, "{}", s.text);
                        if *xyz {
                            assert_eq!(s.rule, Rule::XYZWing);
                            assert!(pd.len() == 3 && ad.or(bd) == pd, "{}", s.text);
                        } else {
                            assert_eq!(s.rule, Rule::XYWing);
                            assert!(pd.len() == 2 && !pd.contains(*digit as u32), "{}", s.text);
                            assert_eq!(ad.minus(z).or(bd.minus(z)), pd, "{}", s.text);
                        }
                        for &(c, d) in &s.eliminated {
                            assert_eq!(d, *digit, "{}", s.text);
                            assert!(sees(&geo, c, *a) && sees(&geo, c, *b), "{}", s.text);
                            assert!(!*xyz || sees(&geo, c, *pivot), "{}", s.text);
                        }
                    }
                    Pattern::Bug { cell, digit } => {
                        assert_eq!(s.rule, Rule::Bug);
                        let others = (0..81).filter(|&c| c != *cell && open(c));
                        assert!(others.clone().all(|c| cand[c].len() == 2), "{}", s.text);
                        assert_eq!(cand[*cell].len(), 3, "{}", s.text);
                        let units = geo.cell_units(*cell);
                        for u in 0..27 {
                            for d in 1..=9u32 {
                                let k = geo
                                    .unit(u)
                                    .iter()
                                    .filter(|&&c| open(c as usize) && cand[c as usize].contains(d))
                                    .count();
                                let three = d == *digit as u32 && units.contains(&(u as u16));
                                assert!(k == 0 || k == 2 || (three && k == 3), "{}", s.text);
                            }
                        }
                        assert!(
                            s.eliminated.iter().all(|&(c, d)| c == *cell && d != *digit),
                            "{}",
                            s.text
                        );
                    }
                    Pattern::Wxyz { cells, digit } => {
                        assert_eq!(s.rule, Rule::WXYZWing);
                        let union = cells.iter().fold(Domain::EMPTY, |u, &c| u.or(cand[c]));
                        assert_eq!(union.len(), 4, "{}", s.text);
                        assert!(cells.iter().all(|&c| open(c)), "{}", s.text);
                        let holders = |d: u32| cells.iter().copied().filter(move |&c| cand[c].contains(d));
                        for d in union.iter() {
                            let h: Vec<usize> = holders(d).collect();
                            let restricted = h.iter().all(|&a| h.iter().all(|&b| a == b || sees(&geo, a, b)));
                            assert_eq!(restricted, d != *digit as u32, "{}", s.text);
                        }
                        for &(c, x) in &s.eliminated {
                            assert_eq!(x, *digit, "{}", s.text);
                            assert!(holders(*digit as u32).all(|h| sees(&geo, c, h)), "{}", s.text);
                        }
                    }
                    Pattern::Turbot { digit, cells, units } => {
                        assert_eq!(s.rule, Rule::TurbotFish);
                        let d = *digit as u32;
                        for (u, pair) in units.iter().zip([[cells[0], cells[1]], [cells[2], cells[3]]]) {
                            let mut places: Vec<usize> = geo
                                .unit(*u)
                                .iter()
                                .map(|&c| c as usize)
                                .filter(|&c| open(c) && cand[c].contains(d))
                                .collect();
                            places.sort_unstable();
                            let mut want = pair.to_vec();
                            want.sort_unstable();
                            assert_eq!(places, want, "not a strong link: {}", s.text);
                        }
                        assert!(sees(&geo, cells[1], cells[2]), "{}", s.text);
                        for &(c, x) in &s.eliminated {
                            assert_eq!(x, *digit, "{}", s.text);
                            assert!(sees(&geo, c, cells[0]) && sees(&geo, c, cells[3]), "{}", s.text);
                        }
                    }
                    Pattern::UniqueRectangle { cells, digits } => {
                        assert_eq!(s.rule, Rule::UniqueRectangle);
                        let pair = Domain::single(digits[0] as u32).or(Domain::single(digits[1] as u32));
                        let rows: std::collections::BTreeSet<usize> = cells.iter().map(|c| c / n).collect();
                        let cols: std::collections::BTreeSet<usize> = cells.iter().map(|c| c % n).collect();
                        let blocks: std::collections::BTreeSet<u16> =
                            cells.iter().map(|&c| geo.cell_units(c)[2]).collect();
                        assert_eq!((rows.len(), cols.len(), blocks.len()), (2, 2, 2), "{}", s.text);
                        assert!(cells[..3].iter().all(|&c| cand[c] == pair), "{}", s.text);
                        assert!(
                            cand[cells[3]].len() > 2 && pair.minus(cand[cells[3]]).is_empty(),
                            "{}",
                            s.text
                        );
                        assert!(
                            s.eliminated
                                .iter()
                                .all(|&(c, d)| c == cells[3] && pair.contains(d as u32)),
                            "{}",
                            s.text
                        );
                    }
                }
            });
        }
        for (r, want) in [
            (Rule::XWing, 5),
            (Rule::Swordfish, 1),
            (Rule::TurbotFish, 5),
            (Rule::XYWing, 5),
            (Rule::XYZWing, 5),
            (Rule::UniqueRectangle, 3),
            (Rule::WXYZWing, 3),
        ] {
            assert!(
                seen.get(&r).copied().unwrap_or(0) >= want,
                "too few {r:?} steps to test: {seen:?}"
            );
        }
    }

    /// Every chain of an implication chain, forcing chain or Nishio step replays: it starts from
    /// the removed candidate assumed true, each link follows from the assumption and the links
    /// before it by its named rule on the candidates just before the step, and the links end
    /// in a contradiction ([`crate::chains::check_chain`]).
    #[test]
    fn chain_links_follow_one_from_another_to_a_contradiction() {
        let geo = Geometry::get(crate::board::BlockShape::new(3, 3));
        let mut seen = std::collections::BTreeMap::new();
        let mut unchained = 0;
        for p in hard_sample(60, 99) {
            replay(&p, RuleSet::ALL, |cand, s| {
                if !matches!(s.rule, Rule::Chain | Rule::ForcingChain | Rule::Nishio) {
                    assert!(s.chain.is_empty(), "{}", s.text);
                    return;
                }
                *seen.entry(s.rule).or_insert(0) += 1;
                let (c, d, _, _) = s.chain[0];
                assert!(
                    s.eliminated.contains(&(c, d)),
                    "the chain assumes a removed candidate: {}",
                    s.text
                );
                assert!(s.contradiction.is_some(), "{}", s.text);
                if s.rule == Rule::Nishio && s.chain.len() == 1 {
                    unchained += 1;
                    return;
                }
                if let Err(e) = crate::chains::check_chain(&geo, cand, &s.chain) {
                    panic!("{e}: {}", s.text);
                }
                assert!(s.text.contains("assume "), "{}", s.text);
            });
        }
        for r in [Rule::Nishio, Rule::Chain] {
            assert!(
                seen.get(&r).copied().unwrap_or(0) >= 3,
                "too few {r:?} steps to test: {seen:?}"
            );
        }
        let nishio = seen.get(&Rule::Nishio).copied().unwrap_or(0);
        assert!(
            unchained * 2 <= nishio,
            "{unchained} of {nishio} Nishio steps without a chain"
        );
    }

    /// A chain that skips a step or ends in nothing is refused by the replay.
    #[test]
    fn the_chain_replay_refuses_a_broken_chain() {
        let p = Sudoku::parse(FIG4, None).unwrap();
        let geo = Geometry::get(p.block());
        let mut checked = 0;
        replay(&p, RuleSet::ALL, |cand, s| {
            if s.chain.len() < 3 || checked > 0 {
                return;
            }
            checked += 1;
            assert!(crate::chains::check_chain(&geo, cand, &s.chain).is_ok());
            let mut skip = s.chain.clone();
            skip.remove(1);
            let mut short = s.chain.clone();
            short.pop();
            assert!(
                crate::chains::check_chain(&geo, cand, &skip).is_err()
                    || crate::chains::check_chain(&geo, cand, &short).is_err(),
                "{}",
                s.text
            );
            assert!(crate::chains::check_chain(&geo, cand, &s.chain[..1]).is_err());
        });
        assert_eq!(checked, 1);
    }

    /// The engine-based deducer against core's brute-force oracle on random 4×4 and 6×6
    /// instances: every step is sound for every solution, a contradiction means no solution,
    /// "solved" means the one solution, and `deduce` and `backtrack` count alike.
    #[test]
    fn deduce_agrees_with_brute_force_on_random_small_instances() {
        use crate::backtrack::tests::{brute, random_puzzle};
        use crate::board::BlockShape;
        let mut rng = crate::generate::Rng::new(2024);
        for k in 0..120 {
            let (block, pct) = if k % 2 == 0 {
                (BlockShape::new(2, 2), 30)
            } else {
                (BlockShape::new(2, 3), 50)
            };
            let p = random_puzzle(block, &mut rng, pct);
            let sols = brute(&p, Some(20_000));
            let Ok(e) = explain(&p, RuleSet::ALL) else {
                assert!(sols.is_empty(), "{}", p.to_line());
                continue;
            };
            if e.contradiction.is_some() {
                assert!(sols.is_empty(), "{}: {:?}", p.to_line(), e.contradiction);
                continue;
            }
            for s in &e.steps {
                for &(c, d) in &s.eliminated {
                    assert!(sols.iter().all(|x| x[c] != d as u32), "{}: {}", p.to_line(), s.text);
                }
                for &(c, d) in &s.placed {
                    assert!(sols.iter().all(|x| x[c] == d as u32), "{}: {}", p.to_line(), s.text);
                }
            }
            if e.solved {
                let v: Vec<u32> = e.candidates.cells().iter().map(|d| d.value().unwrap()).collect();
                assert_eq!(sols, vec![v], "{}", p.to_line());
                // Replaying the placements fills the grid (what the playground's client does).
                let mut grid: Vec<u8> = p.givens().to_vec();
                for s in &e.steps {
                    for &(c, d) in &s.placed {
                        grid[c] = d;
                    }
                }
                assert!(grid.iter().all(|&x| x != 0), "{}", p.to_line());
            }
            if sols.len() < 20_000 {
                let text = p.to_line();
                // `sat` pays one solver call per solution: only where they are few.
                let algs: &[&str] = if sols.len() <= 500 {
                    &["deduce", "backtrack", "sat"]
                } else {
                    &["deduce", "backtrack"]
                };
                counts_agree(&text, block, algs, sols.len());
            }
        }
    }
}
