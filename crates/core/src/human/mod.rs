//! Human steps: the engine's explanation log turned into the steps a person would take, in the
//! order a person would take them, with a rating — what `pencilbox explain` and `hint` print
//! for every family.
//!
//! # Background
//! With [`Engine::explain`] on, every domain change is logged as a [`Step`]: the rule (a
//! propagator's name or the technique it named with
//! [`Context::because_rule`](crate::engine::Context::because_rule)), the premises and the
//! removed values. That is a proof, not yet a solving path: the engine's queue runs
//! propagators by [`crate::engine::Priority`], which is a cost class, not a human
//! difficulty. This module adds the missing pieces, once for every family:
//!
//! * a **rule table** per family ([`RuleInfo`]: id, human name, level `1` = simplest, and the
//!   reason in a phrase), reached through a [`Vocabulary`] that also names variables
//!   (`r2c3`, a link `r2c3-r2c4`) and values (`4`, `line`, `used`), and may refine an engine
//!   rule into a technique by looking at the step (a `naked-single` elimination that leaves a
//!   cell with one value is a *naked single*, one that does not is an *exclusion*);
//! * the **levelled driver** [`explain_engine`]: propagation runs with only the propagators
//!   of level `≤ L` switched on ([`Engine::set_enabled`]; switching one on reruns it from
//!   scratch, which every propagator supports). `L` starts at 1 and is raised only when the
//!   rules up to `L` are stalled; as soon as a rule of a higher level changes anything, `L`
//!   drops back to 1. So the simplest rules always reach their fixpoint before a harder one is
//!   looked at, whatever the engine's priorities are — the log reads like a person's solve.
//!   Above the family's rules comes **trial** (when the family lists variables for it):
//!   assume one value of a two-valued variable, run the rules; a contradiction removes the
//!   value (one step, then back to level 1). When everything stalls, the run stops (`stalled`)
//!   or, with guessing allowed, makes a **guess**: the cell with the fewest candidates takes
//!   the value of a solution found by a plain depth-first search on the same engine (so a
//!   guess is never undone and the log stays one line of reasoning), marked `guess: true`.
//! * the **rating** ([`Rating`]): the hardest step's level, the steps per level, and one number
//!   `score = L + min(k, 9)/10` where `L` is the highest level used and `k` the number of steps
//!   at that level (a puzzle that needs pointing twice and nothing harder rates `3.2` on
//!   Suguru's scale). A guess is one level above the family's hardest rule.
//! * the **hint** ([`hint`]): the next step that places something, at three depths.
//!
//! Families with their own stepper (Sudoku's `Deducer`) build [`HumanStep`]s themselves and
//! reuse [`Explanation`], [`Rating::of`] and [`hint`].
//!
//! # Honesty of the steps
//! Every fact of a step is a consequence of the puzzle's rules and the facts before it: the
//! steps are the engine's own deductions (sound by the propagator contract), trial
//! conclusions are refutations, and only `guess` steps are assumptions (`guess: true`; their
//! value is a solution's). Tests check every fact of every step against the unique solution.

use crate::domain::Domain;
use crate::engine::{Engine, Failure, Focus, Premise, Priority, Step, StepKind, VarId};
use crate::search::Limits;
use serde::Serialize;

pub mod grid;

/// A rule (technique) of a family, for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RuleInfo {
    /// Its id, as logged (`hidden-single`).
    #[serde(rename = "rule")]
    pub id: &'static str,
    /// Its name for people (`hidden single in a region`).
    pub name: &'static str,
    /// Its level: `1` = simplest.
    pub level: u8,
    /// Why it concludes, in a phrase ("the number fits no other cell of its region").
    #[serde(skip)]
    pub why: &'static str,
    /// Its conclusions are what the player's marks already show (a Path cell with its two
    /// lines has no other line): a [`hint`] passes over such steps when a later step places
    /// something.
    #[serde(skip)]
    pub bookkeeping: bool,
}

impl RuleInfo {
    /// A rule.
    pub const fn new(id: &'static str, name: &'static str, level: u8, why: &'static str) -> Self {
        RuleInfo {
            id,
            name,
            level,
            why,
            bookkeeping: false,
        }
    }
    /// The same rule, marked as bookkeeping (see [`RuleInfo::bookkeeping`]).
    pub const fn bookkeeping(mut self) -> Self {
        self.bookkeeping = true;
        self
    }
}

/// The id of the trial rule (assume a value, reach a contradiction).
pub const TRIAL: &str = "trial";
/// The id of a guess.
pub const GUESS: &str = "guess";
/// The level of trial in every family on the engine (Suguru, Ripple Effect, Path and the
/// toolkit genres): one scale, so `contradiction (trial)` rates the same everywhere and each
/// family's own rules sit at levels 1–5 below it.
pub const TRIAL_LEVEL: u8 = 6;
/// The level of a guess in every family on the engine, one above [`TRIAL_LEVEL`].
pub const GUESS_LEVEL: u8 = 7;

/// One fact: a place (`r2c3`, a link `r2c3-r2c4`) and a value (`4`, `line`, `unused`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fact {
    /// The place.
    pub cell: String,
    /// The value it takes (in `placed`) or cannot take (in `removed`).
    pub value: String,
}

/// One link of a chain ([`HumanStep::chain`]): a fact and the rule that concluded it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChainLink {
    /// The place.
    pub cell: String,
    /// The value.
    pub value: String,
    /// `true`: the place takes the value; `false`: it cannot.
    pub holds: bool,
    /// The id of the rule that concluded it ([`ASSUME`] for the chain's assumption).
    pub rule: &'static str,
    /// The fact in the family's words (`r2c3 = 4`, `r2c3-r2c4 line`); empty: [`ChainLink::fact`].
    #[serde(skip_serializing_if = "String::is_empty")]
    pub text: String,
}

impl ChainLink {
    /// `r2c3 = 4` or `r2c3 ≠ 4` (or the family's words, [`ChainLink::text`]).
    pub fn fact(&self) -> String {
        if !self.text.is_empty() {
            return self.text.clone();
        }
        format!("{} {} {}", self.cell, if self.holds { "=" } else { "≠" }, self.value)
    }
}

/// The rule id of a chain's first link: the assumption the chain starts from.
pub const ASSUME: &str = "assume";

/// A chain in words: `r3c4 = 3 → r4c3 = 2 → … → r4c5 ≠ 3`, then `: ` and the contradiction
/// when there is one; at most `max` links, the middle elided (`… 4 more …`).
pub fn chain_text(chain: &[ChainLink], contradiction: Option<&str>, max: usize) -> String {
    let facts: Vec<String> = chain.iter().map(ChainLink::fact).collect();
    let mut s = if facts.len() > max.max(2) {
        let tail = max.max(2) / 2;
        let head = max.max(2) - tail;
        format!(
            "{} → … {} more … → {}",
            facts[..head].join(" → "),
            facts.len() - head - tail,
            facts[facts.len() - tail..].join(" → ")
        )
    } else {
        facts.join(" → ")
    };
    if let Some(c) = contradiction {
        s.push_str(": ");
        s.push_str(c);
    }
    s
}

/// A step as a person would write it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HumanStep {
    /// The rule's id.
    pub rule: &'static str,
    /// The rule's name for people.
    pub name: &'static str,
    /// The rule's level (`1` = simplest).
    pub level: u8,
    /// The places it looked at (premises first, then what it concluded about).
    pub cells: Vec<String>,
    /// What it placed: the place takes the value.
    pub placed: Vec<Fact>,
    /// What it removed: the place cannot take the value.
    pub removed: Vec<Fact>,
    /// One sentence.
    pub text: String,
    /// An assumption of the search (its value is a solution's), not a deduction.
    pub guess: bool,
    /// The rule is bookkeeping ([`RuleInfo::bookkeeping`]).
    #[serde(skip)]
    pub bookkeeping: bool,
    /// For a trial, an implication or forcing chain or a Nishio step: the facts from the
    /// assumption (first link, rule [`ASSUME`]) to the contradiction, each with the rule that
    /// concluded it (empty for other steps).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub chain: Vec<ChainLink>,
    /// What went wrong at the end of [`HumanStep::chain`] (`r4c5 has no value left`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contradiction: Option<String>,
    /// How many of [`HumanStep::cells`], from the first, are the places of its premises.
    #[serde(skip)]
    pub premises: usize,
    /// A bookkeeping step's conclusions in words (`r4c6-r5c6 blank, r5c5-r5c6 blank`), for
    /// the step it is folded into (empty for other steps).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub conclusion: String,
    /// A bookkeeping step folded into the first later step that rests on what it concluded:
    /// that step's index in the explanation's steps ([`Explanation::new`]). A listing shows it
    /// with that step instead of on its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub folded_into: Option<usize>,
}

/// Folds each bookkeeping step into the first later step whose premises name a place it
/// changed ([`HumanStep::folded_into`]); a bookkeeping step needed first by another one goes
/// where that one goes. One that no step needs stays on its own.
fn fold_bookkeeping(steps: &mut [HumanStep]) {
    use std::collections::HashMap;
    // Per place, the steps whose premises name it, in order.
    let mut resting: HashMap<&str, Vec<usize>> = HashMap::new();
    for (j, s) in steps.iter().enumerate() {
        for c in &s.cells[..s.premises.min(s.cells.len())] {
            resting.entry(c.as_str()).or_default().push(j);
        }
    }
    let mut into: Vec<Option<usize>> = vec![None; steps.len()];
    for i in (0..steps.len()).rev() {
        if !steps[i].bookkeeping {
            continue;
        }
        // The later steps that need it, first first.
        let mut needs: Vec<usize> = steps[i]
            .placed
            .iter()
            .chain(&steps[i].removed)
            .filter_map(|f| resting.get(f.cell.as_str()))
            .filter_map(|js| js.get(js.partition_point(|&j| j <= i)..))
            .flat_map(|js| js.iter().copied())
            .collect();
        needs.sort_unstable();
        needs.dedup();
        into[i] = needs
            .into_iter()
            .find_map(|j| if steps[j].bookkeeping { into[j] } else { Some(j) });
    }
    for (s, k) in steps.iter_mut().zip(into) {
        s.folded_into = k;
    }
}

/// How an explanation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ExplainStatus {
    /// Every place is decided.
    #[serde(rename = "solved")]
    Solved,
    /// The rules stalled (and guessing was not allowed, or the family cannot guess).
    #[serde(rename = "stalled")]
    Stalled,
    /// The puzzle has no solution (the rules or the search found a contradiction).
    #[serde(rename = "no solution")]
    NoSolution,
    /// The deadline or cancellation stopped the run.
    #[serde(rename = "timeout")]
    Timeout,
}

impl ExplainStatus {
    /// The status's name in JSON and text.
    pub fn name(self) -> &'static str {
        match self {
            ExplainStatus::Solved => "solved",
            ExplainStatus::Stalled => "stalled",
            ExplainStatus::NoSolution => "no solution",
            ExplainStatus::Timeout => "timeout",
        }
    }
}

/// Steps at one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LevelCount {
    /// The level.
    pub level: u8,
    /// How many steps used a rule of that level.
    pub steps: usize,
}

/// A difficulty rating (see the module docs for the scale).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// `L + min(k, 9)/10`: `L` the highest level used, `k` the steps at that level (`0` when
    /// nothing was left to do).
    pub score: f64,
    /// The hardest rule used (`None`: no step).
    pub hardest: Option<RuleInfo>,
    /// Steps per level, lowest level first (levels without steps left out).
    pub steps_per_level: Vec<LevelCount>,
    /// How many guesses were made.
    pub guesses: usize,
}

impl Rating {
    /// The rating of a list of steps.
    pub fn of(steps: &[HumanStep]) -> Rating {
        let mut per: Vec<LevelCount> = Vec::new();
        let mut hardest: Option<RuleInfo> = None;
        for s in steps {
            match per.iter_mut().find(|c| c.level == s.level) {
                Some(c) => c.steps += 1,
                None => per.push(LevelCount {
                    level: s.level,
                    steps: 1,
                }),
            }
            if hardest.is_none_or(|h| s.level > h.level) {
                hardest = Some(RuleInfo::new(s.rule, s.name, s.level, ""));
            }
        }
        per.sort_by_key(|c| c.level);
        let score = match per.last() {
            Some(c) => f64::from(c.level) + c.steps.min(9) as f64 / 10.0,
            None => 0.0,
        };
        Rating {
            score,
            hardest,
            steps_per_level: per,
            guesses: steps.iter().filter(|s| s.guess).count(),
        }
    }
}

/// Where the rules found a position impossible: the rule that failed, the places it looked at
/// and the reason in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Contradiction {
    /// The failing rule's id.
    pub rule: &'static str,
    /// Its name for people.
    pub name: &'static str,
    /// The places the failure rests on.
    pub cells: Vec<String>,
    /// The reason (`r7c7 has no value left (naked single: r8c6 = 1)`).
    pub text: String,
}

/// A whole explanation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    /// The steps in order.
    pub steps: Vec<HumanStep>,
    /// How it ended.
    pub status: ExplainStatus,
    /// The rating.
    pub rating: Rating,
    /// Remarks (a rule unavailable at this size, a contradiction's reason).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The player's entries that the puzzle's only solution does not have, when a position
    /// with entries has no solution (see [`crate::plugin::Puzzle::wrong_entries`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wrong: Vec<Fact>,
    /// Why the position has no solution, when the rules found it so (status `no solution`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contradiction: Option<Contradiction>,
    /// One per entry of [`Explanation::wrong`] (or per fact of [`ExplainOptions::refute`]):
    /// the rule that entry breaks by itself, on the puzzle's clues alone (`None`: no rule
    /// breaks at once; only search shows it wrong).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub breaks: Vec<Option<Contradiction>>,
}

impl Explanation {
    /// An explanation of `steps`, rated.
    /// Bookkeeping steps are folded into the steps that need them ([`HumanStep::folded_into`]).
    pub fn new(mut steps: Vec<HumanStep>, status: ExplainStatus, notes: Vec<String>) -> Self {
        fold_bookkeeping(&mut steps);
        let rating = Rating::of(&steps);
        Explanation {
            steps,
            status,
            rating,
            notes,
            wrong: Vec::new(),
            contradiction: None,
            breaks: Vec::new(),
        }
    }

    /// The numbered steps, the status and the rating, as text. A folded bookkeeping step
    /// ([`HumanStep::folded_into`]) is told with the step that needs it, not numbered itself:
    /// `5. hidden single … so r5c18 = 3 (first, exclusion r4c16: r3c17 ≠ 3, r5c17 ≠ 3)`.
    pub fn to_text(&self) -> String {
        let mut folded: Vec<Vec<usize>> = vec![Vec::new(); self.steps.len()];
        for (k, s) in self.steps.iter().enumerate() {
            if let Some(j) = s.folded_into {
                folded[j].push(k);
            }
        }
        let mut out = String::new();
        let mut n = 0;
        for (i, s) in self.steps.iter().enumerate() {
            if s.folded_into.is_some() {
                continue;
            }
            n += 1;
            let at = s.cells.iter().take(4).cloned().collect::<Vec<_>>().join(" ");
            let more = if s.cells.len() > 4 { " …" } else { "" };
            out.push_str(&format!("{n}. {} ({at}{more}): {}", s.name, s.text));
            if !folded[i].is_empty() {
                let parts: Vec<String> = folded[i]
                    .iter()
                    .map(|&k| {
                        let b = &self.steps[k];
                        format!(
                            "{} {}: {}",
                            b.name,
                            b.cells.first().map_or("", |c| c.as_str()),
                            b.conclusion
                        )
                    })
                    .collect();
                let mut told = parts.iter().take(6).cloned().collect::<Vec<_>>().join("; ");
                if parts.len() > 6 {
                    told.push_str(&format!("; … ({} more)", parts.len() - 6));
                }
                out.push_str(&format!(" (first, {told})"));
            }
            out.push('\n');
        }
        for n in &self.notes {
            out.push_str(&format!("note: {n}\n"));
        }
        out.push_str(&format!("status: {}\n", self.status.name()));
        out.push_str(&self.rating_line());
        out
    }

    /// `rating: 3.2 (hardest: pointing, level 3; steps per level: 1: 40, 2: 7, 3: 2)`.
    pub fn rating_line(&self) -> String {
        let r = &self.rating;
        let per: Vec<String> = r
            .steps_per_level
            .iter()
            .map(|c| format!("{}: {}", c.level, c.steps))
            .collect();
        match &r.hardest {
            Some(h) => format!(
                "rating: {:.1} (hardest: {}, level {}; steps per level: {})",
                r.score,
                h.name,
                h.level,
                per.join(", ")
            ),
            None => "rating: 0.0 (nothing to deduce)".to_string(),
        }
    }
}

/// What an explanation may use.
#[derive(Clone, Debug, Default)]
pub struct ExplainOptions {
    /// Stop with [`ExplainStatus::Stalled`] when the rules stall instead of guessing.
    pub no_guess: bool,
    /// Use only rules up to this level (trial and guesses included; `None`: all).
    pub max_level: Option<u8>,
    /// Deadline and cancellation.
    pub limits: Limits,
    /// Check every chain as it is made (for tests): each link must follow, by the rule that
    /// concluded it alone, from the state before the trial and the links before it, and the
    /// failing rule alone must refute the state with every link. A link that does not is
    /// reported in [`Explanation::notes`] as `chain check: …`.
    pub check_chains: bool,
    /// Check every step (for tests): after the explanation, each deduction is replayed from
    /// the puzzle's starting position with only its premises given and only the rule that
    /// made it switched on (or, when the rule alone goes past the step and loses its pattern,
    /// with the rules of its level and below too; a step without premises from the position
    /// before it, as at the root: [`Engine::push_root`]). A step that does not follow is reported in
    /// [`Explanation::notes`] as `step check: …`, and a last note counts what was checked
    /// (`steps checked: …`). The engine is left at its starting position.
    pub check_steps: bool,
    /// Refute these facts instead of explaining: each is assumed alone on the starting
    /// position and the rules run, the simpler first, until one fails; the explanation has no
    /// steps and gives, per fact, the rule that failed in [`Explanation::breaks`]. How a wrong
    /// entry is told the rule it breaks ([`Explanation::wrong`]).
    pub refute: Vec<Fact>,
}

/// How a family names its variables, values and rules (see the module docs).
pub trait Vocabulary {
    /// Every rule its explanations use, simplest first (trial and guess included when the
    /// family uses them).
    fn rules(&self) -> &[RuleInfo];
    /// The level at which an engine propagator is switched on. Default: the level of the
    /// rule with the propagator's name, else 1 (always on).
    fn propagator_level(&self, propagator: &str) -> u8 {
        self.rules().iter().find(|r| r.id == propagator).map_or(1, |r| r.level)
    }
    /// The place a variable stands for (`r2c3`).
    fn var_name(&self, var: VarId) -> String;
    /// A value of a variable (`4`, `line`).
    fn value_name(&self, var: VarId, value: u32) -> String {
        let _ = var;
        value.to_string()
    }
    /// A fact in words: `holds` = "takes", else "cannot take". Default `r2c3 = 4`, `r2c3 ≠ 4`.
    fn fact_text(&self, var: VarId, value: u32, holds: bool) -> String {
        let op = if holds { "=" } else { "≠" };
        format!("{} {op} {}", self.var_name(var), self.value_name(var, value))
    }
    /// The technique of an engine step: `before` holds every domain before it, `after` after
    /// it. Default: the logged rule.
    fn classify(&self, step: &Step, before: &[Domain], after: &[Domain]) -> &'static str {
        let _ = (before, after);
        step.rule
    }
    /// The sentence of a step whose propagator said what it is about ([`Focus`]): the
    /// family's words for the technique (`None`, the default: the generic "why (premises),
    /// so conclusions").
    fn focus_text(&self, rule: &str, focus: &Focus, premises: &[String], conclusions: &[String]) -> Option<String> {
        let _ = (rule, focus, premises, conclusions);
        None
    }
    /// The reason of a step in the family's own words when it can say more than the rule's
    /// phrase ([`RuleInfo::why`]) from the step itself: a Path clue step names its line ("row 3
    /// needs 2 more"). `rule` is the step's technique ([`Vocabulary::classify`]), `before` and
    /// `after` the domains around it. Default: `None`, the rule's phrase.
    fn step_why(&self, step: &Step, rule: &'static str, before: &[Domain], after: &[Domain]) -> Option<String> {
        let _ = (step, rule, before, after);
        None
    }
    /// The variables the trial rule may assume values of (two-valued ones are tried); empty:
    /// no trial rule.
    fn trial_vars(&self) -> Vec<VarId> {
        Vec::new()
    }
    /// The variables a guess may choose from (default: all).
    fn guess_vars(&self) -> Option<Vec<VarId>> {
        None
    }
}

/// The rule of `id` in the vocabulary (an unknown id becomes a rule of its own at level 1).
pub fn rule_info(vocab: &dyn Vocabulary, id: &'static str) -> RuleInfo {
    vocab
        .rules()
        .iter()
        .find(|r| r.id == id)
        .copied()
        .unwrap_or_else(|| RuleInfo::new(id, id, vocab.propagator_level(id), "a rule of the puzzle"))
}

/// Turns log steps into human steps, replaying them on a copy of the domains.
pub struct Converter<'a> {
    vocab: &'a dyn Vocabulary,
    start: Vec<Domain>,
    shadow: Vec<Domain>,
}

impl<'a> Converter<'a> {
    /// Starts from the domains `start` (those before the first logged step).
    pub fn new(vocab: &'a dyn Vocabulary, start: Vec<Domain>) -> Self {
        Converter {
            vocab,
            shadow: start.clone(),
            start,
        }
    }

    /// The domains after the steps converted so far.
    pub fn domains(&self) -> &[Domain] {
        &self.shadow
    }

    /// A premise in words, relative to the starting domain.
    fn premise_text(&self, p: &Premise) -> String {
        let v = self.vocab;
        let start = self.start[p.var.index()];
        let d = p.dom.and(start);
        if let Some(x) = d.value() {
            return v.fact_text(p.var, x, true);
        }
        let out = start.minus(d);
        if let Some(x) = out.value() {
            return v.fact_text(p.var, x, false);
        }
        let vals: Vec<String> = d.iter().map(|x| v.value_name(p.var, x)).collect();
        format!("{} ∈ {{{}}}", v.var_name(p.var), vals.join(","))
    }

    /// The human step of a log step (`None` when it changed nothing new).
    pub fn convert(&mut self, s: &Step) -> Option<HumanStep> {
        if s.changes.is_empty() {
            return None;
        }
        let before = self.shadow.clone();
        let mut touched: Vec<VarId> = Vec::new();
        for c in &s.changes {
            let i = c.var.index();
            if self.shadow[i].and(c.removed).is_empty() {
                continue;
            }
            self.shadow[i] = self.shadow[i].minus(c.removed);
            if !touched.contains(&c.var) {
                touched.push(c.var);
            }
        }
        if touched.is_empty() {
            return None;
        }
        let v = self.vocab;
        let (mut placed, mut removed) = (Vec::new(), Vec::new());
        let (mut placed_text, mut removed_text) = (Vec::new(), Vec::new());
        for &x in &touched {
            let (b, a) = (before[x.index()], self.shadow[x.index()]);
            match a.value() {
                Some(val) if !b.is_single() => {
                    placed.push(Fact {
                        cell: v.var_name(x),
                        value: v.value_name(x, val),
                    });
                    placed_text.push(v.fact_text(x, val, true));
                }
                _ => {
                    for val in b.minus(a).iter() {
                        removed.push(Fact {
                            cell: v.var_name(x),
                            value: v.value_name(x, val),
                        });
                        removed_text.push(v.fact_text(x, val, false));
                    }
                }
            }
        }
        let id = match s.kind {
            StepKind::Decision => GUESS,
            _ => v.classify(s, &before, &self.shadow),
        };
        let info = rule_info(v, id);
        let mut cells: Vec<String> = Vec::new();
        let mut premise_places = 0;
        let focus = s.focus.iter().flat_map(|f| f.cells.iter());
        for (k, name) in s
            .premises
            .iter()
            .map(|p| v.var_name(p.var))
            .chain(focus.map(|&x| v.var_name(x)))
            .chain(touched.iter().map(|&x| v.var_name(x)))
            .enumerate()
        {
            if !cells.contains(&name) {
                cells.push(name);
            }
            if k < s.premises.len() {
                premise_places = cells.len();
            }
        }
        let premises: Vec<String> = s.premises.iter().map(|p| self.premise_text(p)).collect();
        let mut conclusions = placed_text;
        conclusions.extend(removed_text);
        let why = v.step_why(s, id, &before, &self.shadow);
        let text = s
            .focus
            .as_ref()
            .and_then(|f| v.focus_text(info.id, f, &premises, &conclusions))
            .unwrap_or_else(|| sentence(why.as_deref().unwrap_or(info.why), &premises, &conclusions));
        Some(HumanStep {
            rule: info.id,
            name: info.name,
            level: info.level,
            cells,
            placed,
            removed,
            text,
            guess: s.kind == StepKind::Decision,
            bookkeeping: info.bookkeeping,
            chain: Vec::new(),
            contradiction: None,
            premises: premise_places,
            conclusion: if info.bookkeeping {
                list(&conclusions, 12)
            } else {
                String::new()
            },
            folded_into: None,
        })
    }
}

/// Joins at most `max` items, then "… (N more)".
fn list(items: &[String], max: usize) -> String {
    let mut s = items.iter().take(max).cloned().collect::<Vec<_>>().join(", ");
    if items.len() > max {
        s.push_str(&format!(", … ({} more)", items.len() - max));
    }
    s
}

/// "why: premises, so conclusions."
fn sentence(why: &str, premises: &[String], conclusions: &[String]) -> String {
    let so = list(conclusions, 12);
    match (why.is_empty(), premises.is_empty()) {
        (false, false) => format!("{why} ({}), so {so}", list(premises, 8)),
        (false, true) => format!("{why}, so {so}"),
        (true, false) => format!("{}, so {so}", list(premises, 8)),
        (true, true) => so,
    }
}

/// Switches every propagator on whose level is at most `level`; the others off.
fn enable_up_to(e: &mut Engine, levels: &[(&'static str, u8)], level: u8) {
    for &(name, l) in levels {
        e.set_enabled(name, l <= level);
    }
}

/// The levelled driver's switchboard (see the module docs): which of an engine's rules are on.
///
/// Rules of level `≤ L` run; those above `L` (up to `max_level`) are *held*
/// ([`Engine::set_held`]): they keep their pending work and catch up incrementally when `L`
/// reaches them, instead of rerunning from scratch each time. A propagation that makes progress at `L > 1` sends `L` back
/// to 1; a stalled one raises `L` to the next level present, up to the highest at most
/// `max_level`. Every rule above level 1 *pauses* ([`Engine::set_pausing`]): its first step
/// ends the propagation, so the simpler rules look again after each hard step, and a rating
/// counts each hard step only when no simpler rule was available. Sudoku's stepper uses it as
/// [`explain_engine`] does.
pub struct Ladder {
    levels: Vec<(&'static str, u8)>,
    level: u8,
    top: u8,
    max: u8,
    /// Every technique's level, for propagators that apply techniques of several levels
    /// ([`Engine::set_rule_cap`]).
    techniques: Vec<(&'static str, u8)>,
}

impl Ladder {
    /// The switchboard of `e`'s rules, each at `level_of(name)`, up to `max_level`; level 1 on.
    pub fn new(e: &mut Engine, level_of: impl Fn(&str) -> u8, max_level: u8) -> Ladder {
        let mut levels: Vec<(&'static str, u8)> = e.rule_names().into_iter().map(|n| (n, level_of(n))).collect();
        levels.sort_by_key(|&(_, l)| l);
        for &(name, l) in &levels {
            e.set_pausing(name, l > 1);
        }
        let top = levels
            .iter()
            .map(|&(_, l)| l)
            .filter(|&l| l <= max_level)
            .max()
            .unwrap_or(1);
        let mut ladder = Ladder {
            levels,
            level: 1,
            top,
            max: max_level,
            techniques: Vec::new(),
        };
        ladder.set(e, 1);
        ladder
    }
    /// Caps the techniques of `rules` (a family's table) at the current level too: a
    /// propagator that applies techniques of several levels (the shading toolkit's `islands`)
    /// leaves out those above it.
    pub fn with_techniques(mut self, e: &mut Engine, rules: &[RuleInfo]) -> Ladder {
        self.techniques = rules.iter().map(|r| (r.id, r.level)).collect();
        let level = self.level;
        self.set(e, level);
        self
    }
    /// The current level.
    pub fn level(&self) -> u8 {
        self.level
    }
    /// The rules and their levels, lowest first.
    pub fn levels(&self) -> &[(&'static str, u8)] {
        &self.levels
    }
    /// Lets the rules of level `≤ level` run; holds those above it up to `max_level`, and
    /// switches off those above both.
    pub fn set(&mut self, e: &mut Engine, level: u8) {
        self.level = level;
        for &(name, l) in &self.levels {
            e.set_enabled(name, l <= level.max(self.max));
            e.set_held(name, l > level);
        }
        if !self.techniques.is_empty() {
            e.set_rule_cap(&self.techniques, level);
        }
    }
    /// After a propagation: with `progress` (it changed something), back to level 1; else the
    /// next level up. `false` when it was stalled at the highest level allowed.
    pub fn climb(&mut self, e: &mut Engine, progress: bool) -> bool {
        if progress {
            if self.level > 1 {
                self.set(e, 1);
            }
            return true;
        }
        match self
            .levels
            .iter()
            .map(|&(_, l)| l)
            .find(|&l| l > self.level && l <= self.top)
        {
            Some(next) => {
                self.set(e, next);
                true
            }
            None => false,
        }
    }
    /// Switches the pauses of the rules above level 1 off (`false`: a propagation runs to
    /// its fixpoint, as an assumption's must) or back on.
    pub fn set_pauses(&self, e: &mut Engine, on: bool) {
        for &(name, l) in &self.levels {
            e.set_pausing(name, on && l > 1);
        }
    }
    /// Every rule on and none pausing: the engine as it was posted.
    pub fn release(&mut self, e: &mut Engine) {
        self.set_pauses(e, false);
        self.set(e, u8::MAX);
    }
}

/// A solution of the engine's current state by depth-first search (every rule on), as the
/// domains; the state is restored. `None` when there is none or the limits stopped it.
fn find_solution(e: &mut Engine, vars: &[VarId]) -> Option<Vec<Domain>> {
    if e.all_fixed() {
        return Some(e.domains().to_vec());
    }
    let var = vars
        .iter()
        .copied()
        .filter(|&v| e.dom(v).len() > 1)
        .min_by_key(|&v| e.dom(v).len())
        .or_else(|| (0..e.num_vars()).map(VarId::from_index).find(|&v| e.dom(v).len() > 1))?;
    for value in e.dom(var).iter() {
        if e.interrupted().is_some() {
            return None;
        }
        e.push_level();
        let ok = e.assign(var, value).is_ok() && e.propagate().is_ok();
        let found = if ok { find_solution(e, vars) } else { None };
        e.pop_level();
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Explains the puzzle posted on `e` (at its root, nothing propagated yet) with the levelled
/// driver of the module docs.
pub fn explain_engine(e: &mut Engine, vocab: &dyn Vocabulary, opts: &ExplainOptions) -> Explanation {
    e.explain(true);
    e.set_limits(&opts.limits);
    let max = opts.max_level.unwrap_or(u8::MAX);
    let mut ladder = Ladder::new(e, |n| vocab.propagator_level(n), max).with_techniques(e, vocab.rules());
    if !opts.refute.is_empty() {
        let breaks = refute_facts(e, vocab, &mut ladder, &opts.refute);
        ladder.release(e);
        let mut x = Explanation::new(Vec::new(), ExplainStatus::Stalled, Vec::new());
        x.breaks = breaks;
        return x;
    }
    let levels = ladder.levels().to_vec();
    let trial_level = rule_info(vocab, TRIAL).level;
    let guess_level = rule_info(vocab, GUESS).level;
    let trial_vars = if trial_level <= max {
        vocab.trial_vars()
    } else {
        Vec::new()
    };
    let guess_vars = vocab.guess_vars().unwrap_or_default();
    let mut conv = Converter::new(vocab, e.domains().to_vec());
    let mut steps: Vec<HumanStep> = Vec::new();
    let mut notes = Vec::new();
    let mut solution: Option<Vec<Domain>> = None;
    let mut contradiction = None;
    // Checking steps replays them from the start: the explanation runs one level up, a level
    // the root-only rules take for the root.
    let mut record: Option<Vec<Recorded>> = opts.check_steps.then(Vec::new);
    let root = opts.check_steps.then(|| e.push_root());
    let status = loop {
        let level = ladder.level();
        let r = e.propagate();
        let before = steps.len();
        take_steps(e, &mut conv, &mut steps, record.as_mut());
        if r.is_err() {
            if e.interrupted().is_some() {
                break ExplainStatus::Timeout;
            }
            contradiction = e.take_failure().map(|f| failure_text(vocab, &conv, &f));
            break ExplainStatus::NoSolution;
        }
        if e.all_fixed() {
            // Fixed by the rules switched on so far: every other rule must accept it too (a
            // position without solutions can be filled by the simple rules alone, a Path
            // drawing that closes a loop by its degrees).
            // The higher levels are switched on one at a time, so a refusal names its rules.
            let mut higher: Vec<u8> = levels.iter().map(|&(_, l)| l).filter(|&l| l > level).collect();
            higher.dedup();
            let mut refused = None;
            for &l in &higher {
                ladder.set(e, l);
                if e.propagate().is_err() {
                    refused = Some(l);
                    break;
                }
            }
            ladder.set(e, u8::MAX);
            take_steps(e, &mut conv, &mut steps, record.as_mut());
            break match refused {
                None => ExplainStatus::Solved,
                Some(_) if e.interrupted().is_some() => ExplainStatus::Timeout,
                Some(l) => {
                    let mut names: Vec<&str> = levels
                        .iter()
                        .filter(|&&(_, k)| k == l)
                        .map(|&(n, _)| rule_info(vocab, n).name)
                        .collect();
                    names.sort_unstable();
                    names.dedup();
                    notes.push(format!(
                        "the simpler rules filled every place, but the result breaks {}",
                        names.join(" / ")
                    ));
                    ExplainStatus::NoSolution
                }
            };
        }
        if ladder.climb(e, steps.len() > before || e.paused()) {
            continue;
        }
        // Every rule is stalled: trial, then a guess.
        if !trial_vars.is_empty() {
            let (found, chain) = trial(e, &trial_vars, vocab, opts.check_chains);
            match found {
                Trial::Refuted => {
                    let first = steps.len();
                    take_steps(e, &mut conv, &mut steps, record.as_mut());
                    if let Some(c) = chain {
                        if let Err(why) = &c.check {
                            notes.push(format!("chain check: step {}: {why}", first + 1));
                        }
                        if let Some(step) = steps[first..].first_mut() {
                            attach_chain(step, c, vocab, conv.domains());
                        }
                    }
                    ladder.set(e, 1);
                    continue;
                }
                Trial::Interrupted => break ExplainStatus::Timeout,
                Trial::Nothing => {}
            }
        }
        if opts.no_guess || guess_level > max {
            break ExplainStatus::Stalled;
        }
        if solution.is_none() {
            let level = ladder.level();
            ladder.set(e, u8::MAX);
            e.explain(false);
            solution = find_solution(e, &guess_vars);
            e.explain(true);
            ladder.set(e, level);
            if solution.is_none() {
                if e.interrupted().is_some() {
                    break ExplainStatus::Timeout;
                }
                notes.push("the rules stalled and the search found no solution".to_string());
                break ExplainStatus::NoSolution;
            }
        }
        let sol = solution.as_ref().expect("found above");
        // The open variable with the fewest values, among the family's choices first.
        let open = |pool: &mut dyn Iterator<Item = VarId>| {
            pool.filter(|&v| e.dom(v).len() > 1).min_by_key(|&v| e.dom(v).len())
        };
        let Some(var) =
            open(&mut guess_vars.iter().copied()).or_else(|| open(&mut (0..e.num_vars()).map(VarId::from_index)))
        else {
            break ExplainStatus::Solved;
        };
        let value = sol[var.index()].value().expect("a solution fixes every variable");
        e.log_step(GUESS, StepKind::Decision, Vec::new());
        if e.with_context(GUESS, |cx| cx.assign(var, value)).is_err() {
            break ExplainStatus::NoSolution;
        }
        take_steps(e, &mut conv, &mut steps, record.as_mut());
        ladder.set(e, 1);
    };
    ladder.release(e);
    if let (Some(root), Some(record)) = (root, record) {
        e.pop_root(root);
        notes.extend(check_steps(e, vocab, &record, &steps));
    }
    if let Some(c) = &contradiction {
        notes.push(format!("the rules reach a contradiction: {}", c.text));
    }
    let mut x = Explanation::new(steps, status, notes);
    x.contradiction = contradiction;
    x
}

/// What [`explain_engine`] without guesses concludes about the puzzle posted on `e` (at its
/// root, nothing propagated yet), without its steps: whether the rules up to `max_level`
/// (`None`: all), with trial when `trial` and trial's level allows it, fix every variable, and
/// every other rule accepts the result. `None` when the limits stopped it.
///
/// The explanation switches its rules on level by level and tries values only when every rule
/// is stalled; the rules are monotone, so it ends at the same fixpoint as propagation with
/// those rules at once, then failed-value probing of the trial variables (the whole-grid rules
/// suspended inside a probe, as in a trial) until no probe refutes a value. A generator that
/// thins clues asks this for every clue: it costs a propagation, not a logged explanation.
pub fn settles_engine(
    e: &mut Engine,
    vocab: &dyn Vocabulary,
    max_level: Option<u8>,
    trial: bool,
    limits: &Limits,
) -> Option<bool> {
    e.set_limits(limits);
    let max = max_level.unwrap_or(u8::MAX);
    let levels: Vec<(&'static str, u8)> = e
        .rule_names()
        .into_iter()
        .map(|n| (n, vocab.propagator_level(n)))
        .collect();
    enable_up_to(e, &levels, max);
    let techniques: Vec<(&'static str, u8)> = vocab.rules().iter().map(|r| (r.id, r.level)).collect();
    e.set_rule_cap(&techniques, max);
    let stopped = |e: &Engine| e.interrupted().is_some();
    if e.propagate().is_err() {
        return (!stopped(e)).then_some(false);
    }
    let vars = if trial && rule_info(vocab, TRIAL).level <= max {
        vocab.trial_vars()
    } else {
        Vec::new()
    };
    if !vars.is_empty() && !e.all_fixed() {
        let probe = crate::engine::Probe {
            vars: Some(vars),
            max_values: 2,
            passes: crate::engine::Passes::Fixpoint,
            suspend: Some(Priority::Global),
            descending: false,
            after_failures: 0,
        };
        // A probe pass runs the suspended rules once at its end; what they fix may let
        // another pass refute more. (The engine's change counter counts the probes' own
        // changes: count the values left instead.)
        let left = |e: &Engine| e.domains().iter().map(|d| d.len()).sum::<u32>();
        loop {
            let before = left(e);
            if e.probe(&probe).is_err() {
                return (!stopped(e)).then_some(false);
            }
            if left(e) == before || e.all_fixed() {
                break;
            }
        }
    }
    if !e.all_fixed() {
        return (!stopped(e)).then_some(false);
    }
    enable_up_to(e, &levels, u8::MAX);
    e.set_rule_cap(&techniques, u8::MAX);
    let accepted = e.propagate().is_ok();
    (!stopped(e)).then_some(accepted)
}

/// [`ExplainOptions::refute`]: each fact assumed alone on the starting position of `e`, the
/// rules run as the explanation runs them (the simplest first, climbing only when stalled)
/// until one fails; that failure in words, or `None` when the rules accept the fact or a limit
/// stopped them. A fact that names no place or value of the puzzle is `None` too.
fn refute_facts(
    e: &mut Engine,
    vocab: &dyn Vocabulary,
    ladder: &mut Ladder,
    facts: &[Fact],
) -> Vec<Option<Contradiction>> {
    let start = e.domains().to_vec();
    let conv = Converter::new(vocab, start.clone());
    let mut out = Vec::with_capacity(facts.len());
    for f in facts {
        let found = (0..e.num_vars()).map(VarId::from_index).find_map(|v| {
            if vocab.var_name(v) != f.cell {
                return None;
            }
            Domain::ALL
                .iter()
                .find(|&x| vocab.value_name(v, x) == f.value)
                .map(|x| (v, x))
        });
        let Some((var, value)) = found else {
            out.push(None);
            continue;
        };
        if !start[var.index()].contains(value) {
            out.push(Some(Contradiction {
                rule: "given",
                name: "the clues",
                cells: vec![f.cell.clone()],
                text: format!("the clues rule out {}", vocab.fact_text(var, value, true)),
            }));
            continue;
        }
        let _ = e.take_log();
        let _ = e.take_failure();
        e.push_level();
        ladder.set(e, 1);
        let mut ok = e.with_context(ASSUME, |cx| cx.assign(var, value)).is_ok();
        while ok {
            let r = e.propagate();
            let progress = !e.take_log().is_empty();
            if r.is_err() {
                ok = false;
            } else if e.all_fixed() || !ladder.climb(e, progress || e.paused()) {
                break;
            }
        }
        let failure = e.take_failure();
        let stopped = e.interrupted().is_some();
        e.pop_level();
        out.push(if ok || stopped {
            None
        } else {
            Some(failure.map_or_else(
                || Contradiction {
                    rule: ASSUME,
                    name: "the rules",
                    cells: vec![f.cell.clone()],
                    text: format!("{} breaks a rule at once", vocab.fact_text(var, value, true)),
                },
                |x| failure_text(vocab, &conv, &x),
            ))
        });
    }
    out
}

/// Converts what the engine logged into human steps; with a `record`, keeps each converted
/// deduction, with the domains before it, for [`check_steps`].
fn take_steps(e: &mut Engine, conv: &mut Converter, steps: &mut Vec<HumanStep>, record: Option<&mut Vec<Recorded>>) {
    let log = e.take_log();
    let Some(record) = record else {
        steps.extend(log.iter().filter_map(|s| conv.convert(s)));
        return;
    };
    for s in log {
        let before = conv.domains().to_vec();
        if let Some(h) = conv.convert(&s) {
            if s.kind == StepKind::Deduction && s.rule != TRIAL {
                record.push(Recorded {
                    step: s,
                    before,
                    index: steps.len(),
                });
            }
            steps.push(h);
        }
    }
}

/// A deduction of an explanation, kept for [`check_steps`].
struct Recorded {
    step: Step,
    /// Every domain before it.
    before: Vec<Domain>,
    /// Its index among the human steps.
    index: usize,
}

/// [`ExplainOptions::check_steps`], on `e` at the puzzle's starting position: each recorded
/// deduction is replayed with only the rule that made it (its propagator, from scratch, as at
/// the root) and
/// * when it gave premises, only those premises added to the starting position: the
///   premises a person reads must be enough for the rule (a step that rested on something it
///   did not name would fail here);
/// * when it gave none (it rests, as it says, on the whole position), the whole position
///   before it.
///
/// The replay must remove every value the step removed (or find the position contradictory,
/// which concludes anything). Returns a note per step that does not follow, then one counting
/// the steps checked each way.
fn check_steps(e: &mut Engine, vocab: &dyn Vocabulary, record: &[Recorded], steps: &[HumanStep]) -> Vec<String> {
    let switches = Switches::save(e);
    let mut notes = Vec::new();
    let (mut from_premises, mut from_position, mut with_simpler) = (0usize, 0usize, 0usize);
    // What a replay with the rules `on` leaves of what the step removed (empty: it follows).
    let replay = |e: &mut Engine, r: &Recorded, on: &mut dyn Iterator<Item = &'static str>| {
        let s = &r.step;
        switches.only(e, on);
        let root = e.push_root();
        let given = if s.premises.is_empty() {
            (0..r.before.len()).all(|i| e.restrict(VarId::from_index(i), r.before[i]).is_ok())
        } else {
            s.premises.iter().all(|p| e.restrict(p.var, p.dom).is_ok())
        };
        let failed = !given || e.propagate().is_err();
        let missing: Vec<String> = if failed {
            Vec::new()
        } else {
            s.changes
                .iter()
                .flat_map(|c| {
                    let left = e.dom(c.var).and(c.removed).and(r.before[c.var.index()]);
                    left.iter().map(move |v| vocab.fact_text(c.var, v, false))
                })
                .collect()
        };
        e.pop_root(root);
        missing
    };
    for r in record {
        let s = &r.step;
        let h = &steps[r.index];
        if s.premises.is_empty() {
            from_position += 1;
        } else {
            from_premises += 1;
        }
        if replay(e, r, &mut std::iter::once(s.by)).is_empty() {
            continue;
        }
        // The rule alone may go on past the step and lose its pattern (pointing does not point
        // with a value another pointing left in one place): then the rules of its level and
        // below, which finish what it started, must conclude it.
        let simpler: Vec<&'static str> = switches
            .names
            .iter()
            .copied()
            .filter(|&n| n == s.by || vocab.propagator_level(n) <= h.level)
            .collect();
        let missing = replay(e, r, &mut simpler.iter().copied());
        if missing.is_empty() {
            with_simpler += 1;
            continue;
        }
        let from = if s.premises.is_empty() {
            "the position before it"
        } else {
            "its premises alone"
        };
        notes.push(format!(
            "step check: step {} ({}, by {}): {} does not follow from {from}: {}",
            r.index + 1,
            h.name,
            s.by,
            list(&missing, 4),
            h.text
        ));
    }
    switches.restore(e);
    notes.push(format!(
        "steps checked: {from_premises} from their premises alone, {from_position} from the position before them \
         ({with_simpler} of them with the simpler rules too)"
    ));
    notes
}

enum Trial {
    Refuted,
    Nothing,
    Interrupted,
}

/// One trial: the first value of a two-valued variable whose assumption the enabled rules
/// refute is removed (logged as a [`TRIAL`] step).
///
/// Inside a trial the whole-grid rules ([`Priority::Global`]: reachability) are suspended,
/// as in the families' probing: a refutation by fewer rules is still a refutation, and a
/// trial costs a fraction of a full propagation.
fn trial(e: &mut Engine, vars: &[VarId], vocab: &dyn Vocabulary, check: bool) -> (Trial, Option<TrialChain>) {
    // What a trial's propagation would log is undone with it: record nothing meanwhile.
    e.explain(false);
    let r = trial_quietly(e, vars);
    e.explain(true);
    let mut chain = None;
    if let Some((var, value)) = r.1 {
        // The refutation again, logged, for its chain (one more propagation per trial step).
        chain = trial_chain(e, vocab, var, value, check);
        e.log_step(TRIAL, StepKind::Probe, vec![Premise::is(var, value)]);
        let _ = e.with_context(TRIAL, |cx| cx.remove(var, value));
    }
    (r.0, chain)
}

/// A contradiction in words (`r7c7 has no value left (naked single: r8c6 = 1)`, `row is
/// broken (…)`), with the rule and the places it rests on.
fn failure_text(vocab: &dyn Vocabulary, conv: &Converter, f: &Failure) -> Contradiction {
    let rule = rule_info(vocab, f.step.rule);
    let name = rule.name;
    let premises: Vec<String> = f.step.premises.iter().map(|p| conv.premise_text(p)).collect();
    let mut cells: Vec<String> = f.step.premises.iter().map(|p| vocab.var_name(p.var)).collect();
    cells.extend(f.emptied.map(|v| vocab.var_name(v)));
    cells.dedup();
    let text = match (f.emptied, premises.is_empty()) {
        (Some(v), true) => format!("{} has no value left ({name})", vocab.var_name(v)),
        (Some(v), false) => format!(
            "{} has no value left ({name}: {})",
            vocab.var_name(v),
            list(&premises, 6)
        ),
        (None, true) => format!("{name} is broken"),
        (None, false) => format!("{name} is broken ({})", list(&premises, 6)),
    };
    Contradiction {
        rule: rule.id,
        name,
        cells,
        text,
    }
}

/// Puts a trial's chain on its step and retells the step with it: `if r3c4 = 3, then r4c3 =
/// 2 → … → r4c5 ≠ 3: r4c5 has no value left (…), so r3c4 = 2`.
fn attach_chain(step: &mut HumanStep, c: TrialChain, vocab: &dyn Vocabulary, now: &[Domain]) {
    let Some(first) = c.links.first() else {
        return;
    };
    let so = match now[c.var.index()].value() {
        Some(v) => vocab.fact_text(c.var, v, true),
        None => vocab.fact_text(c.var, c.value, false),
    };
    let rest = &c.links[1..];
    let then = match (rest.is_empty(), &c.contradiction) {
        (true, Some(x)) => x.clone(),
        (true, None) => "a contradiction".to_string(),
        (false, x) => chain_text(rest, x.as_deref(), 12),
    };
    step.text = format!("if {}, then {then}; so {so}", first.fact());
    step.chain = c.links;
    step.contradiction = c.contradiction;
}

/// The chain of a refuted assumption ([`HumanStep::chain`]) and its contradiction in words.
struct TrialChain {
    /// The refuted assumption.
    var: VarId,
    value: u32,
    links: Vec<ChainLink>,
    contradiction: Option<String>,
    /// The links as the engine sees them.
    raw: Vec<RawLink>,
    /// The verdict of [`check_chain`] (`Ok` when not checked).
    check: Result<(), String>,
}

/// Assumes `var = value` again with the log on, propagates as the trial did (pauses let the
/// simpler rules go first, so the chain reads simplest first) and keeps, of everything the
/// rules concluded, the facts the contradiction rests on ([`chain_of`]). `None` when the
/// assumption does not fail (a limit stopped it).
fn trial_chain(e: &mut Engine, vocab: &dyn Vocabulary, var: VarId, value: u32, check: bool) -> Option<TrialChain> {
    let start = e.domains().to_vec();
    let _ = e.take_failure();
    e.push_level();
    e.log_step(ASSUME, StepKind::Decision, Vec::new());
    let mut ok = e.with_context(ASSUME, |cx| cx.assign(var, value)).is_ok();
    while ok {
        ok = e.propagate_below(Priority::Global).is_ok();
        if !e.paused() {
            break;
        }
    }
    let steps = e.take_log();
    let failure = e.take_failure();
    e.pop_level();
    if ok || e.interrupted().is_some() {
        return None;
    }
    let mut c = chain_of(vocab, start, &steps, failure.as_ref(), (var, value));
    if check {
        c.check = check_chain(e, vocab, &c.raw, failure.as_ref());
    }
    Some(c)
}

/// A link of a chain as the engine sees it: the fact (`var` within `dom`), the propagator
/// that concluded it and the premises its step gave.
struct RawLink {
    var: VarId,
    dom: Domain,
    /// The values its step removed from `var` (a placement is the last of several removals).
    removed: Domain,
    by: &'static str,
    premises: Vec<Premise>,
}

/// The engine's rule switches and explanation log, saved for a replay that runs rules alone
/// ([`check_chain`], [`check_steps`]; the log is off meanwhile); [`Switches::restore`] puts
/// them back.
struct Switches {
    names: Vec<&'static str>,
    was: Vec<bool>,
    explaining: bool,
}

impl Switches {
    fn save(e: &mut Engine) -> Switches {
        let mut names = e.rule_names();
        names.sort_unstable();
        names.dedup();
        let was = names.iter().map(|n| e.is_enabled(n)).collect();
        let explaining = e.log().is_some();
        e.explain(false);
        Switches { names, was, explaining }
    }
    /// Only the rules `on`, each from scratch (switched off first).
    fn only(&self, e: &mut Engine, on: impl IntoIterator<Item = &'static str>) {
        for n in &self.names {
            e.set_enabled(n, false);
        }
        for n in on {
            e.set_enabled(n, true);
        }
    }
    fn restore(self, e: &mut Engine) {
        for (n, on) in self.names.iter().zip(self.was) {
            e.set_enabled(n, on);
        }
        e.explain(self.explaining);
    }
}

/// [`ExplainOptions::check_chains`], on `e` at the state before the trial (`start`):
/// * every link's premises hold in `start` with the links before it (the chain is
///   self-contained: nothing a link rests on is missing from it);
/// * its rule alone, run from scratch on `start` with those premises (or, when that is not
///   enough, with every link before it), removes what the link's step removed (or refutes the
///   state outright);
/// * the failing rule's premises hold after the last link, and that rule alone refutes
///   `start` with every link.
///
/// `Err` names the first link that does not follow.
fn check_chain(
    e: &mut Engine,
    vocab: &dyn Vocabulary,
    raw: &[RawLink],
    failure: Option<&Failure>,
) -> Result<(), String> {
    let fact = |v: VarId, d: Domain| match d.value() {
        Some(x) => vocab.fact_text(v, x, true),
        None => vocab.fact_text(v, Domain::ALL.minus(d).min().unwrap_or(0), false),
    };
    let holds = |state: &[Domain], ps: &[Premise]| {
        ps.iter()
            .find(|p| !state[p.var.index()].minus(p.dom).is_empty())
            .map_or(Ok(()), |p| Err(fact(p.var, p.dom)))
    };
    // Self-contained.
    let mut state = e.domains().to_vec();
    for (i, l) in raw.iter().enumerate() {
        if i > 0 {
            holds(&state, &l.premises).map_err(|p| {
                format!(
                    "link {i} ({}) rests on {p}, which the chain does not give",
                    fact(l.var, l.dom)
                )
            })?;
        }
        let d = &mut state[l.var.index()];
        *d = d.and(l.dom);
    }
    if let Some(f) = failure {
        holds(&state, &f.step.premises)
            .map_err(|p| format!("the contradiction rests on {p}, which the chain does not give"))?;
    }
    // Each rule alone.
    let switches = Switches::save(e);
    let mut verdict = Ok(());
    let checks = raw.iter().skip(1).map(Some).chain(failure.map(|_| None));
    for (i, l) in (1..).zip(checks) {
        let by = l.map_or_else(|| failure.map_or("", |f| f.step.by), |l| l.by);
        // Off, then on: the rule runs from scratch.
        switches.only(e, [by]);
        // From the link's premises, else (a rule whose premises leave something out, or that
        // concludes more than the link from them) from all the links before it.
        let mut follows = false;
        for from_premises in [true, false] {
            e.push_level();
            let given = match l {
                Some(l) if from_premises => l.premises.iter().all(|p| e.restrict(p.var, p.dom).is_ok()),
                _ => raw[..i.min(raw.len())].iter().all(|l| e.restrict(l.var, l.dom).is_ok()),
            };
            let failed = !given || e.propagate().is_err();
            // A rule that refutes the state outright concludes anything.
            follows = failed || l.is_some_and(|l| e.dom(l.var).and(l.removed).is_empty());
            e.pop_level();
            if follows || l.is_none() {
                break;
            }
            // The rule ran: off and on again for the second try.
            switches.only(e, [by]);
        }
        if !follows {
            verdict = Err(match l {
                Some(l) => format!(
                    "link {i} ({}) does not follow by {by} alone from its premises",
                    fact(l.var, l.dom)
                ),
                None => format!("the failing rule {by} accepts the chain's facts"),
            });
            break;
        }
    }
    switches.restore(e);
    verdict
}

/// The facts a contradiction rests on, in the order they were found: walking the steps
/// backwards from the failing rule's premises (and the variable it emptied), a step is kept
/// when it changed a variable a kept step (or the failure) rests on, and its own premises join
/// what is needed. A step logged without premises rests, for all we know, on everything
/// before it. Each kept step gives a link per needed variable it changed: the value it
/// placed, else each value it removed.
fn chain_of(
    vocab: &dyn Vocabulary,
    start: Vec<Domain>,
    steps: &[Step],
    failure: Option<&Failure>,
    (var, value): (VarId, u32),
) -> TrialChain {
    let mut needed = vec![false; start.len()];
    let mut all = true;
    let mut contradiction = None;
    if let Some(f) = failure {
        let conv = Converter::new(vocab, start.clone());
        for p in &f.step.premises {
            needed[p.var.index()] = true;
        }
        for c in &f.step.changes {
            needed[c.var.index()] = true;
        }
        if let Some(v) = f.emptied {
            needed[v.index()] = true;
        }
        // Without premises, the failing deduction rests, for all we know, on everything.
        all = f.step.premises.is_empty();
        contradiction = Some(failure_text(vocab, &conv, f).text);
    }
    // Backwards: which changes of which steps the contradiction needs.
    let mut kept: Vec<Vec<VarId>> = vec![Vec::new(); steps.len()];
    for (i, s) in steps.iter().enumerate().rev() {
        let mut vars: Vec<VarId> = Vec::new();
        for c in &s.changes {
            if (all || needed[c.var.index()]) && !vars.contains(&c.var) {
                vars.push(c.var);
            }
        }
        if vars.is_empty() {
            continue;
        }
        if s.premises.is_empty() && s.kind == StepKind::Deduction {
            all = true;
        }
        for p in &s.premises {
            needed[p.var.index()] = true;
        }
        kept[i] = vars;
    }
    // Forwards: the links, with the family's rule names.
    let mut shadow = start;
    let mut links = Vec::new();
    let mut raw = Vec::new();
    for (s, vars) in steps.iter().zip(&kept) {
        let before = if vars.is_empty() { Vec::new() } else { shadow.clone() };
        for c in &s.changes {
            let d = &mut shadow[c.var.index()];
            *d = d.minus(c.removed);
        }
        if vars.is_empty() {
            continue;
        }
        let rule = match s.kind {
            StepKind::Decision => ASSUME,
            _ => vocab.classify(s, &before, &shadow),
        };
        for &x in vars {
            let (b, a) = (before[x.index()], shadow[x.index()]);
            let link = |value: u32, holds: bool| ChainLink {
                cell: vocab.var_name(x),
                value: vocab.value_name(x, value),
                holds,
                rule,
                text: vocab.fact_text(x, value, holds),
            };
            match a.value() {
                Some(v) if !b.is_single() => {
                    links.push(link(v, true));
                    raw.push(RawLink {
                        var: x,
                        dom: Domain::single(v),
                        removed: b.minus(a),
                        by: s.by,
                        premises: s.premises.clone(),
                    });
                }
                _ => {
                    for v in b.minus(a).iter() {
                        links.push(link(v, false));
                        raw.push(RawLink {
                            var: x,
                            dom: Domain::ALL.without(v),
                            removed: Domain::single(v),
                            by: s.by,
                            premises: s.premises.clone(),
                        });
                    }
                }
            }
        }
    }
    TrialChain {
        var,
        value,
        links,
        contradiction,
        raw,
        check: Ok(()),
    }
}

fn trial_quietly(e: &mut Engine, vars: &[VarId]) -> (Trial, Option<(VarId, u32)>) {
    for &var in vars {
        let d = e.dom(var);
        if d.len() != 2 {
            continue;
        }
        for value in d.iter() {
            e.push_level();
            let ok = e.assign(var, value).is_ok() && e.propagate_below(Priority::Global).is_ok();
            e.pop_level();
            if e.interrupted().is_some() {
                return (Trial::Interrupted, None);
            }
            if !ok {
                return (Trial::Refuted, Some((var, value)));
            }
        }
    }
    (Trial::Nothing, None)
}

/// How much a hint tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HintLevel {
    /// Where to look: an area of the board around the next step (not its target).
    Nudge,
    /// Which rule applies there.
    Rule,
    /// The conclusion.
    Answer,
}

impl HintLevel {
    /// Reads `nudge`, `rule` or `answer`.
    pub fn parse(s: &str) -> Option<HintLevel> {
        match s {
            "nudge" => Some(HintLevel::Nudge),
            "rule" => Some(HintLevel::Rule),
            "answer" => Some(HintLevel::Answer),
            _ => None,
        }
    }
}

/// A hint: the next step, told at one depth.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hint {
    /// The depth.
    pub level: HintLevel,
    /// The places to look at.
    pub cells: Vec<String>,
    /// The rule (from `rule` on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleInfo>,
    /// What it concludes (at `answer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placed: Option<Vec<Fact>>,
    /// What it removes (at `answer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<Vec<Fact>>,
    /// The hint in words.
    pub text: String,
}

/// The hint of an explanation: its first step that places something and is not bookkeeping
/// ([`RuleInfo::bookkeeping`]; else the first that places something, else its first step),
/// told at `level`; `None` when there is no step (nothing left, or the rules are stuck at
/// once), the position has no solution (then [`Explanation::wrong`] may name the entries at
/// fault) or the limits stopped the explanation. Guesses are hinted too, marked as such in
/// the text.
///
/// An explanation the time limit cut short gives no hint: its steps may end before the first
/// one a hint would show (a fallback would then be shown in its place), and whether the
/// position has a solution at all is only known at the end. The command line exits with 3.
pub fn hint(e: &Explanation, level: HintLevel) -> Option<Hint> {
    if matches!(e.status, ExplainStatus::NoSolution | ExplainStatus::Timeout) {
        // Steps from a position without solutions lead nowhere; a cut explanation is not
        // known to lead anywhere.
        return None;
    }
    let placing = |s: &&HumanStep| !s.placed.is_empty();
    let s = e
        .steps
        .iter()
        .filter(placing)
        .find(|s| !s.bookkeeping)
        .or_else(|| e.steps.iter().find(placing))
        .or_else(|| e.steps.first())?;
    let guess = if s.guess {
        " (no rule applies: this is a guess that leads to the solution)"
    } else {
        ""
    };
    // The answer is one conclusion: the step's first placement, else its removals.
    let (placed, removed): (Vec<Fact>, Vec<Fact>) = match s.placed.first() {
        Some(f) => (vec![f.clone()], Vec::new()),
        None => (Vec::new(), s.removed.clone()),
    };
    let target: Vec<String> = placed.iter().chain(&removed).map(|f| f.cell.clone()).collect();
    // Where to look: an area of the board around the step, not its target.
    let (area, area_cells) = hint_area(e, s, &target);
    Some(match level {
        HintLevel::Nudge => Hint {
            level,
            text: format!("look at {area}{guess}"),
            cells: area_cells,
            rule: None,
            placed: None,
            removed: None,
        },
        HintLevel::Rule => Hint {
            level,
            text: format!("{} (level {}) applies in {area}{guess}", s.name, s.level),
            cells: area_cells,
            rule: Some(RuleInfo::new(s.rule, s.name, s.level, "")),
            placed: None,
            removed: None,
        },
        HintLevel::Answer => {
            // The step's own sentence when it concludes just this; else the one placement.
            let text = if s.placed.len() <= 1 {
                s.text.clone()
            } else {
                let f = &placed[0];
                format!(
                    "{} = {} (one of the {} cells this step fills)",
                    f.cell,
                    f.value,
                    s.placed.len()
                )
            };
            let mut cells: Vec<String> = s
                .cells
                .iter()
                .filter(|c| !s.placed.iter().any(|f| &f.cell == *c))
                .cloned()
                .collect();
            for t in &target {
                if !cells.contains(t) {
                    cells.push(t.clone());
                }
            }
            Hint {
                level,
                text: format!("{}: {text}{guess}", s.name),
                cells,
                rule: Some(RuleInfo::new(s.rule, s.name, s.level, "")),
                placed: Some(placed),
                removed: Some(removed),
            }
        }
    })
}

/// Row and column (1-based) of a cell's name, `r2c3` (`None`: not a cell's name).
pub fn cell_coords(name: &str) -> Option<(u32, u32)> {
    let (r, c) = name.strip_prefix('r')?.split_once('c')?;
    Some((r.parse().ok()?, c.parse().ok()?))
}

/// Row and column (1-based) of a place name: `r2c3`, and both ends of a link `r2c3-r2c4`.
fn place_coords(name: &str) -> Vec<(u32, u32)> {
    name.split('-').filter_map(cell_coords).collect()
}

/// The area a nudge points to, in words, and its cells: the bounding box of the step's places
/// when that is small, else the 3×3 band of the board (rows 1–3, 4–6, …) holding the target,
/// so the area contains the target without singling it out. Places that are not grid cells:
/// the step's places other than the target.
fn hint_area(e: &Explanation, s: &HumanStep, target: &[String]) -> (String, Vec<String>) {
    let all: Vec<(u32, u32)> = e
        .steps
        .iter()
        .flat_map(|s| s.cells.iter())
        .flat_map(|c| place_coords(c))
        .collect();
    let mine: Vec<(u32, u32)> = s.cells.iter().flat_map(|c| place_coords(c)).collect();
    let aim: Vec<(u32, u32)> = target.iter().flat_map(|c| place_coords(c)).collect();
    let (Some(&(rows, _)), Some(&(_, cols))) = (all.iter().max_by_key(|p| p.0), all.iter().max_by_key(|p| p.1)) else {
        let others: Vec<String> = s.cells.iter().filter(|c| !target.contains(c)).cloned().collect();
        let cells = if others.is_empty() { s.cells.clone() } else { others };
        return (list(&cells, 8), cells);
    };
    let bbox = |ps: &[(u32, u32)]| {
        let r0 = ps.iter().map(|p| p.0).min().unwrap_or(1);
        let r1 = ps.iter().map(|p| p.0).max().unwrap_or(rows);
        let c0 = ps.iter().map(|p| p.1).min().unwrap_or(1);
        let c1 = ps.iter().map(|p| p.1).max().unwrap_or(cols);
        (r0, r1, c0, c1)
    };
    let (mut r0, mut r1, mut c0, mut c1) = bbox(&mine);
    let size = (r1 - r0 + 1) * (c1 - c0 + 1);
    if size < 2 || size * 4 > rows * cols || aim.is_empty() {
        let (tr, _, tc, _) = bbox(&aim);
        let band = |x: u32, n: u32| {
            let lo = (x - 1) / 3 * 3 + 1;
            (lo, (lo + 2).min(n))
        };
        (r0, r1) = band(tr, rows);
        (c0, c1) = band(tc, cols);
    }
    let span = |a: u32, b: u32, one: &str, many: &str| {
        if a == b {
            format!("{one} {a}")
        } else {
            format!("{many} {a}–{b}")
        }
    };
    let text = match (r0 == 1 && r1 == rows, c0 == 1 && c1 == cols) {
        (false, true) => span(r0, r1, "row", "rows"),
        (true, false) => span(c0, c1, "column", "columns"),
        _ => format!("{}, {}", span(r0, r1, "row", "rows"), span(c0, c1, "column", "columns")),
    };
    let cells = (r0..=r1)
        .flat_map(|r| (c0..=c1).map(move |c| format!("r{r}c{c}")))
        .collect();
    (text, cells)
}
/// Rules of the region families on core's distinctness constraint (Suguru, Ripple Effect):
/// the engine's `naked-single` eliminations (refined by [`region_classify`]), hidden singles,
/// pointing, subsets, trial and guess.
pub mod region {
    use super::RuleInfo;

    /// The region families' rules, simplest first; `exclusion_why` and `single_why` say what a
    /// placed number excludes in the family.
    pub const fn rules(exclusion_why: &'static str, single_why: &'static str) -> [RuleInfo; 10] {
        [
            // What pencil marks do by themselves: folded into the step that needs it.
            RuleInfo::new("exclusion", "exclusion", 1, exclusion_why).bookkeeping(),
            RuleInfo::new("naked-single", "naked single", 1, single_why),
            RuleInfo::new(
                "hidden-single",
                "hidden single in a region",
                2,
                "the number fits no other cell of its region",
            ),
            RuleInfo::new(
                "pointing",
                "pointing",
                3,
                "the region's only places for the number all touch or see these cells",
            ),
            RuleInfo::new(
                "naked-pair",
                "naked pair",
                4,
                "two open cells of a region hold the same two numbers between them, so the region's other cells lose them",
            ),
            RuleInfo::new(
                "hidden-pair",
                "hidden pair",
                4,
                "two numbers of a region fit only the same two cells, so those cells hold nothing else",
            ),
            RuleInfo::new(
                "naked-triple",
                "naked triple",
                5,
                "three open cells of a region hold three numbers between them, so the region's other cells lose them",
            ),
            RuleInfo::new(
                "hidden-triple",
                "hidden triple",
                5,
                "three numbers of a region fit only the same three cells",
            ),
            RuleInfo::new(
                super::TRIAL,
                "contradiction (trial)",
                super::TRIAL_LEVEL,
                "assuming it, the simpler rules reach a contradiction",
            ),
            RuleInfo::new(
                super::GUESS,
                "guess",
                super::GUESS_LEVEL,
                "no rule applies; a guess that leads to the solution",
            ),
        ]
    }

    /// The level each engine propagator of the distinctness rules runs at.
    pub fn propagator_level(name: &str) -> u8 {
        match name {
            "naked-single" => 1,
            "hidden-single" => 2,
            "pointing" => 3,
            // Posted per size for explanations (`DistinctRules::EXPLAIN`); a combined
            // subset rule (pairs and triples in one) runs with the pairs.
            "naked-pair" | "hidden-pair" | "naked-subset" | "hidden-subset" => 4,
            "naked-triple" | "hidden-triple" | "naked-quad" | "hidden-quad" => 5,
            _ => 1,
        }
    }
}

/// The technique of a `naked-single` step of a region family: a *naked single* when it leaves
/// a cell with one value, an *exclusion* otherwise; other steps keep their rule.
pub fn region_classify(step: &Step, before: &[Domain], after: &[Domain]) -> &'static str {
    if step.rule != "naked-single" {
        return step.rule;
    }
    let places = step.changes.iter().any(|c| {
        let i = c.var.index();
        after[i].is_single() && !before[i].is_single()
    });
    if places {
        "naked-single"
    } else {
        "exclusion"
    }
}

/// The vocabulary of a region family whose engine variable `i` is cell `i` (row-major), on
/// core's distinctness rules ([`region::rules`]): Suguru, Ripple Effect.
pub struct RegionVocabulary {
    /// The grid.
    pub shape: crate::grid::Shape,
    /// The family's rule table.
    pub rules: &'static [RuleInfo],
    /// How a cell meets the cells a number excludes it from, in the family's words, `{n}`
    /// standing for the number: Suguru's `touches`, Ripple Effect's `is in line with and at
    /// most {n} cells from` (pointing's sentences use it).
    pub meets: &'static str,
}

/// Suguru's [`RegionVocabulary::meets`].
pub const TOUCHES: &str = "touches";
/// Ripple Effect's [`RegionVocabulary::meets`].
pub const WITHIN_N: &str = "is in line with and at most {n} cells from";

impl Vocabulary for RegionVocabulary {
    fn rules(&self) -> &'static [RuleInfo] {
        self.rules
    }
    fn propagator_level(&self, propagator: &str) -> u8 {
        region::propagator_level(propagator)
    }
    fn var_name(&self, var: VarId) -> String {
        self.shape.name(crate::grid::CellId::from_index(var.index()))
    }
    fn classify(&self, step: &Step, before: &[Domain], after: &[Domain]) -> &'static str {
        region_classify(step, before, after)
    }
    fn trial_vars(&self) -> Vec<VarId> {
        (0..self.shape.cells()).map(VarId::from_index).collect()
    }
    fn focus_text(&self, rule: &str, focus: &Focus, premises: &[String], conclusions: &[String]) -> Option<String> {
        let names: Vec<String> = focus.cells.iter().map(|&v| self.var_name(v)).collect();
        let region = focus
            .group
            .iter()
            .map(|&v| self.var_name(v))
            .filter(|n| !names.contains(n))
            .collect::<Vec<_>>();
        let others = if region.is_empty() {
            String::new()
        } else {
            format!(" (its other cells {}: {})", list(&region, 8), list(premises, 8))
        };
        match rule {
            "pointing" => {
                let n = focus.value?.to_string();
                let meets = self.meets.replace("{n}", &n);
                Some(format!(
                    "{n} can only go in {} in its region{others}, so every cell that {meets} all of them cannot be {n}: {}",
                    list(&names, 8),
                    list(conclusions, 12)
                ))
            }
            "naked-pair" | "naked-triple" | "naked-quad" => Some(format!(
                "{} hold {} numbers between them ({}), so the region's other cells lose those numbers: {}",
                list(&names, 4),
                names.len(),
                list(premises, 4),
                list(conclusions, 12)
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::{Distinct, DistinctRules};

    /// Three cells, all different over 1..=3, the first fixed to 1 and the second to 2 later.
    struct Names;
    impl Vocabulary for Names {
        fn rules(&self) -> &'static [RuleInfo] {
            const R: [RuleInfo; 10] = region::rules("a placed number leaves its group", "one value is left");
            &R
        }
        fn propagator_level(&self, p: &str) -> u8 {
            region::propagator_level(p)
        }
        fn var_name(&self, v: VarId) -> String {
            format!("r1c{}", v.index() + 1)
        }
        fn classify(&self, s: &Step, b: &[Domain], a: &[Domain]) -> &'static str {
            region_classify(s, b, a)
        }
    }

    fn row(n: u32, hints: &[(usize, u32)]) -> Engine {
        let mut e = Engine::new();
        let vars: Vec<VarId> = (0..n).map(|_| e.new_var(Domain::range(1, n))).collect();
        for &(i, v) in hints {
            e.assign(vars[i], v).unwrap();
        }
        let mut d = Distinct::new();
        d.permutation(&vars, Domain::range(1, n));
        d.post(&mut e, DistinctRules::ALL);
        e
    }

    #[test]
    fn a_row_with_two_hints_is_solved_by_one_naked_single_step_per_hint() {
        let mut e = row(3, &[(0, 1), (1, 2)]);
        let x = explain_engine(&mut e, &Names, &ExplainOptions::default());
        assert_eq!(x.status, ExplainStatus::Solved);
        let placed: Vec<_> = x.steps.iter().flat_map(|s| s.placed.clone()).collect();
        assert_eq!(
            placed,
            vec![Fact {
                cell: "r1c3".into(),
                value: "3".into()
            }]
        );
        assert!(x.steps.iter().all(|s| s.level == 1), "{:?}", x.steps);
        assert_eq!(x.rating.score, 1.0 + x.steps.len().min(9) as f64 / 10.0);
    }

    #[test]
    fn without_hints_the_rules_stall_and_a_guess_finishes() {
        let mut e = row(3, &[]);
        let x = explain_engine(
            &mut e,
            &Names,
            &ExplainOptions {
                no_guess: true,
                ..Default::default()
            },
        );
        assert_eq!((x.status, x.steps.len()), (ExplainStatus::Stalled, 0));
        let mut e = row(3, &[]);
        let x = explain_engine(&mut e, &Names, &ExplainOptions::default());
        assert_eq!(x.status, ExplainStatus::Solved);
        assert!(x.steps[0].guess);
        assert_eq!(x.rating.hardest.map(|h| h.id), Some(GUESS));
        assert_eq!(x.rating.guesses, 2, "{:?}", x.steps);
    }

    #[test]
    fn a_clash_is_no_solution() {
        let mut e = Engine::new();
        let a = e.new_var(Domain::single(1));
        let b = e.new_var(Domain::single(1));
        let mut d = Distinct::new();
        d.permutation(&[a, b], Domain::range(1, 2));
        d.post(&mut e, DistinctRules::ALL);
        let x = explain_engine(&mut e, &Names, &ExplainOptions::default());
        assert_eq!(x.status, ExplainStatus::NoSolution);
    }

    #[test]
    fn hints_tell_more_at_each_level() {
        let mut e = row(3, &[(0, 1), (1, 2)]);
        let x = explain_engine(&mut e, &Names, &ExplainOptions::default());
        let n = hint(&x, HintLevel::Nudge).unwrap();
        assert!(n.rule.is_none() && n.placed.is_none() && n.text.starts_with("look at"));
        let r = hint(&x, HintLevel::Rule).unwrap();
        assert_eq!(r.rule.map(|r| r.id), Some("naked-single"));
        let a = hint(&x, HintLevel::Answer).unwrap();
        assert_eq!(a.placed.unwrap()[0].cell, "r1c3");
    }

    /// A step of rule `rule` at `level` that concludes nothing, for the tests to fill in.
    fn blank(rule: &'static str, level: u8) -> HumanStep {
        HumanStep {
            rule,
            name: rule,
            level,
            cells: vec![],
            placed: vec![],
            removed: vec![],
            text: String::new(),
            guess: false,
            bookkeeping: false,
            chain: vec![],
            contradiction: None,
            premises: 0,
            conclusion: String::new(),
            folded_into: None,
        }
    }

    #[test]
    fn a_hint_answers_one_placement_and_nudges_to_an_area_around_it() {
        let fact = |cell: &str, value: &str| Fact {
            cell: cell.into(),
            value: value.into(),
        };
        let step = HumanStep {
            name: "naked single",
            cells: ["r4c4", "r4c5", "r5c5", "r9c9"].map(String::from).to_vec(),
            placed: vec![fact("r5c5", "3"), fact("r4c5", "1")],
            removed: vec![fact("r4c4", "3")],
            text: "r5c5 = 3, r4c5 = 1".into(),
            ..blank("naked-single", 1)
        };
        let x = Explanation::new(vec![step], ExplainStatus::Solved, vec![]);
        let a = hint(&x, HintLevel::Answer).unwrap();
        assert_eq!(a.placed.unwrap(), vec![fact("r5c5", "3")], "one placement");
        assert!(
            a.text.contains("r5c5 = 3") && !a.text.contains("r4c5 = 1"),
            "{}",
            a.text
        );
        // The step's places span the board (r9c9): the nudge is the band around the target.
        let n = hint(&x, HintLevel::Nudge).unwrap();
        assert_eq!(n.text, "look at rows 4–6, columns 4–6");
        assert_eq!(n.cells.len(), 9);
        assert!(n.cells.contains(&"r5c5".to_string()));
        let r = hint(&x, HintLevel::Rule).unwrap();
        assert_eq!(r.text, "naked single (level 1) applies in rows 4–6, columns 4–6");
    }

    #[test]
    fn hints_pass_over_bookkeeping_unless_nothing_else_places() {
        let step = |rule: &'static str, bookkeeping: bool| HumanStep {
            cells: vec!["r1c1".into()],
            placed: vec![Fact {
                cell: "r1c1".into(),
                value: "1".into(),
            }],
            bookkeeping,
            ..blank(rule, 1)
        };
        let x = Explanation::new(
            vec![step("complete", true), step("dead-end", false)],
            ExplainStatus::Solved,
            vec![],
        );
        assert_eq!(hint(&x, HintLevel::Rule).unwrap().rule.unwrap().id, "dead-end");
        let x = Explanation::new(vec![step("complete", true)], ExplainStatus::Solved, vec![]);
        assert_eq!(hint(&x, HintLevel::Rule).unwrap().rule.unwrap().id, "complete");
        let x = Explanation::new(vec![step("dead-end", false)], ExplainStatus::NoSolution, vec![]);
        assert!(
            hint(&x, HintLevel::Nudge).is_none(),
            "no hint from a position without solutions"
        );
    }

    #[test]
    fn bookkeeping_is_folded_into_the_first_step_that_rests_on_it() {
        let step = |rule: &'static str, bookkeeping: bool, premises: &[&str], changed: &str| HumanStep {
            cells: premises
                .iter()
                .map(|c| c.to_string())
                .chain([changed.to_string()])
                .collect(),
            removed: vec![Fact {
                cell: changed.into(),
                value: "1".into(),
            }],
            text: format!("so {changed} ≠ 1"),
            bookkeeping,
            premises: premises.len(),
            conclusion: if bookkeeping {
                format!("{changed} ≠ 1")
            } else {
                String::new()
            },
            ..blank(rule, 1)
        };
        let x = Explanation::new(
            vec![
                step("complete", true, &["r1c1"], "r1c2"),
                // Needs the first through the second bookkeeping step.
                step("complete", true, &["r1c2"], "r1c3"),
                step("other", false, &["r9c9"], "r9c8"),
                step("single", false, &["r1c3"], "r1c4"),
                // Nothing needs it: it stays a step of its own.
                step("complete", true, &["r5c5"], "r5c6"),
            ],
            ExplainStatus::Solved,
            vec![],
        );
        let into: Vec<Option<usize>> = x.steps.iter().map(|s| s.folded_into).collect();
        assert_eq!(into, [Some(3), Some(3), None, None, None]);
        let text = x.to_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "1. other (r9c9 r9c8): so r9c8 ≠ 1");
        assert_eq!(
            lines[1],
            "2. single (r1c3 r1c4): so r1c4 ≠ 1 (first, complete r1c1: r1c2 ≠ 1; complete r1c2: r1c3 ≠ 1)"
        );
        assert_eq!(lines[2], "3. complete (r5c5 r5c6): so r5c6 ≠ 1");
        // The JSON keeps every step, the folded ones marked.
        let json = serde_json::to_value(&x).unwrap();
        assert_eq!(json["steps"][0]["folded_into"], 3);
        assert_eq!(json["steps"][0]["conclusion"], "r1c2 ≠ 1");
        assert!(json["steps"][2].get("folded_into").is_none());
    }

    #[test]
    fn ratings_take_the_hardest_level_and_count_its_steps() {
        let step = |level| blank("x", level);
        let r = Rating::of(&[step(1), step(3), step(1), step(3)]);
        assert_eq!(r.score, 3.2);
        assert_eq!(r.steps_per_level.iter().map(|c| c.steps).collect::<Vec<_>>(), [2, 2]);
        assert_eq!(Rating::of(&[]).score, 0.0);
    }
}
