//! The setter's tools, for every family with an engine model: the facts that are the same in
//! every solution (*forced*), a clue that removes the second of two solutions (*suggest*), and
//! the givens a unique puzzle can lose one at a time (*redundant*).
//!
//! A family opts in through three optional methods of [`crate::plugin::Puzzle`]:
//! [`fact_model`](crate::plugin::Puzzle::fact_model) (its default engine model and the places a
//! fact is about), [`separating_clues`](crate::plugin::Puzzle::separating_clues) and
//! [`removable_clues`](crate::plugin::Puzzle::removable_clues). The [`crate::plugin::Plugin`]
//! adapter turns them into [`crate::PuzzleKind::forced`], `suggest` and `redundant`, so the CLI
//! and the server name no family.
//!
//! # Forced facts ([`forced`])
//! A *place* is one engine variable with a name (`r2c3`, or for Path puzzles a link
//! `r2c3-r2c4` and a cell); a *fact* is "this place takes this value". The algorithm:
//! 1. Root propagation of the model with the explanation log on. A place it fixes is *implied by
//!    the rules alone*; the rules named are those of the log's steps that removed its other
//!    values. A place whose domain the model itself makes single (a given, a region of one
//!    cell) needs no rule. With the family's [`Vocabulary`] ([`FactModel::vocabulary`]) the
//!    steps are replayed and each rule is also named as the technique a person would use
//!    ([`Vocabulary::classify`]: `degree` becomes *dead end* or *only ways out*).
//! 2. A search for two solutions. One solution and an exhausted tree: every place is forced.
//!    Two: the places where they differ are not; the others are candidates.
//! 3. For each candidate still standing, assume its value is *not* the first solution's at the
//!    root and search once with the default model (on the same engine, one trail level above
//!    the propagated root). A solution found strikes every candidate it differs on; no solution
//!    proves the fact forced ("only by search"). So the cost is one search per fact forced only
//!    by search plus one per solution needed, not one per place.
//!
//! Deadlines and cancellation are honoured: the report is then marked incomplete, lists the
//! facts proved so far and the places not yet decided.
//!
//! # Suggested clues and redundant givens ([`suggest`](crate::plugin::suggest), [`redundant`](crate::plugin::redundant))
//! `suggest` counts the puzzle (up to a limit, keeping two witnesses), asks the family for the
//! clues that hold in the first witness but not in the second, and recounts the puzzle with each
//! clue added (with the best count so far as the limit) until one makes it unique. `redundant`
//! recounts a unique puzzle with each removable given taken away, up to two solutions.

use crate::domain::Domain;
use crate::engine::{Brancher, Decision, Engine, EngineSearch, Step, VarId, TRUE};
use crate::human::{rule_info, RuleInfo, Vocabulary};
use crate::search::{count_keeping, Backtrack, Limits, Stats, StopReason};
use crate::time::Instant;
use num_bigint::BigUint;
use serde::Serialize;

/// How a place's values are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// Numbers (a Suguru or Sudoku cell).
    Numbers,
    /// A Boolean variable ([`crate::engine::BOOL`]): the names of false and true.
    Bool {
        /// The name of [`crate::engine::FALSE`] (`"blank"`, `"unused"`).
        no: &'static str,
        /// The name of [`crate::engine::TRUE`] (`"line"`, `"used"`).
        yes: &'static str,
    },
}

impl Values {
    /// The text form of a value (also its JSON form: every `value` in pencilbox's JSON is a
    /// string, `"4"` as well as `"line"`).
    pub fn text(self, v: u32) -> String {
        match self {
            Values::Numbers => v.to_string(),
            Values::Bool { no, yes } => (if v == TRUE { yes } else { no }).to_string(),
        }
    }
}

/// A named engine variable a fact can be about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// Its name (`r2c3`, `r2c3-r2c4`).
    pub name: String,
    /// The variable.
    pub var: VarId,
    /// How its values are named.
    pub values: Values,
    /// True when the puzzle gives its value (a hint, a door).
    pub given: bool,
}

/// An engine model searched by core's driver, as the setter's tools need it: any
/// [`EngineSearch`] is one.
pub trait ModelSearch: Backtrack<Branch = Decision> {
    /// The engine.
    fn engine(&self) -> &Engine;
    /// The engine, to assume facts at the root.
    fn engine_mut(&mut self) -> &mut Engine;
    /// Propagates the root once (later calls answer the same): `false` on a conflict.
    fn propagate_root(&mut self) -> bool;
}

impl<B: Brancher> ModelSearch for EngineSearch<B> {
    fn engine(&self) -> &Engine {
        &self.engine
    }
    fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }
    fn propagate_root(&mut self) -> bool {
        EngineSearch::propagate_root(self)
    }
}

/// A family's default engine model (root not yet propagated) and its places.
pub struct FactModel {
    /// The search of the model.
    pub search: Box<dyn ModelSearch>,
    /// The places facts are about, in the order to report them.
    pub places: Vec<Place>,
    /// The family's vocabulary over this model's variables ([`crate::human`]): when given, the
    /// rules of a fact are also named as techniques for people ([`ForcedFact::techniques`]).
    pub vocabulary: Option<Box<dyn Vocabulary>>,
}

/// What [`crate::plugin::Puzzle::fact_model`] gives: the model, or why there is no solution
/// (a check before any model, such as a paper's theorem).
pub enum Setup {
    /// The model.
    Model(FactModel),
    /// The puzzle has no solution, for this reason.
    NoSolution(String),
}

impl Setup {
    /// The same setup with the family's vocabulary over the model's variables (a
    /// [`Setup::NoSolution`] is kept as it is).
    pub fn with_vocabulary(self, vocabulary: Box<dyn Vocabulary>) -> Setup {
        match self {
            Setup::Model(m) => Setup::Model(FactModel {
                vocabulary: Some(vocabulary),
                ..m
            }),
            other => other,
        }
    }
}

/// How many solutions the puzzle has, as far as the run found out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Solutions {
    /// None.
    None,
    /// Exactly one.
    Unique,
    /// Two or more.
    Several,
    /// A limit stopped the run before it knew.
    Unknown,
}

impl Solutions {
    /// The class of an exact solution count.
    pub fn of_count(n: usize) -> Solutions {
        match n {
            0 => Solutions::None,
            1 => Solutions::Unique,
            _ => Solutions::Several,
        }
    }
}

/// Why a fact holds in every solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum By {
    /// The puzzle gives it.
    Given,
    /// The root propagation of the default model fixes it (with the rules that did).
    Rules,
    /// Only a search shows it (every solution has it; the rules alone do not fix it).
    Search,
}

/// A fact that holds in every solution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ForcedFact {
    /// The place (`r2c3`, `r2c3-r2c4`).
    pub at: String,
    /// Its value in every solution, as text (`"4"`, `"line"`, `"used"`, …: a string in JSON,
    /// as in `explain` and `hint`).
    pub value: String,
    /// Given, by the rules alone, or only by search.
    pub by: By,
    /// For [`By::Rules`]: the rules whose steps removed the place's other values (empty when the
    /// model's domain alone fixes it, such as a region of one cell).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<&'static str>,
    /// The same steps as techniques of the family's vocabulary, for people (`{"rule":
    /// "hidden-single", "name": "hidden single in a region", "level": 2}`): each step's rule as
    /// [`Vocabulary::classify`] refines it. Empty without a vocabulary.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub techniques: Vec<RuleInfo>,
}

/// The result of [`forced`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ForcedReport {
    /// How many solutions there are.
    pub solutions: Solutions,
    /// False when a limit stopped the run: `facts` are forced, but so may be `undecided`.
    pub complete: bool,
    /// Why there is no solution, when a check or the root propagation says so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// How many places the puzzle has (0 when a check before the model ruled out solutions).
    pub places: usize,
    /// The forced facts, in the family's order of places.
    pub forced: Vec<ForcedFact>,
    /// Places not yet decided when a limit stopped the run.
    pub undecided: Vec<String>,
    /// Searches run (the first count included).
    pub searches: u64,
    /// The counters of every search together; `elapsed_us` is the whole run's time.
    pub stats: Stats,
}

impl ForcedReport {
    fn empty(solutions: Solutions, places: usize) -> Self {
        ForcedReport {
            solutions,
            complete: true,
            reason: None,
            places,
            forced: Vec::new(),
            undecided: Vec::new(),
            searches: 0,
            stats: Stats::default(),
        }
    }
    /// How many facts are forced by each reason: (given, rules, search).
    pub fn tally(&self) -> (usize, usize, usize) {
        let n = |b: By| self.forced.iter().filter(|f| f.by == b).count();
        (n(By::Given), n(By::Rules), n(By::Search))
    }
}

/// The values of the places in the engine's current (solution) state.
fn values_of(e: &Engine, places: &[Place]) -> Vec<u32> {
    places.iter().map(|p| e.value(p.var).unwrap_or(0)).collect()
}

/// The techniques (the vocabulary's refinement of each step's rule, [`Vocabulary::classify`])
/// whose steps removed values of each variable, replaying the root's log from `start`.
fn techniques(vocab: &dyn Vocabulary, start: Vec<Domain>, steps: &[Step]) -> Vec<Vec<RuleInfo>> {
    let mut out: Vec<Vec<RuleInfo>> = vec![Vec::new(); start.len()];
    // `before` and `now` differ only at the step's changes: syncing those keeps each step
    // linear in its changes, not in the model's size.
    let mut before = start.clone();
    let mut now = start;
    for s in steps {
        for c in &s.changes {
            let i = c.var.index();
            now[i] = now[i].minus(c.removed);
        }
        let info = rule_info(vocab, vocab.classify(s, &before, &now));
        for c in &s.changes {
            let i = c.var.index();
            before[i] = now[i];
            if !out[i].iter().any(|r| r.id == info.id) {
                out[i].push(info);
            }
        }
    }
    out
}

/// The facts that hold in every solution of `setup` (see the module docs), under `limits`
/// (deadline, cancellation; a node limit applies to each search; the solution cap is ignored).
pub fn forced(setup: Setup, limits: &Limits) -> ForcedReport {
    let started = Instant::now();
    let FactModel {
        mut search,
        places,
        vocabulary,
    } = match setup {
        Setup::Model(m) => m,
        Setup::NoSolution(reason) => {
            return ForcedReport {
                reason: Some(reason),
                ..ForcedReport::empty(Solutions::None, 0)
            }
        }
    };
    let n = places.len();
    let mut report = ForcedReport::empty(Solutions::Unknown, n);
    let stopped = |mut r: ForcedReport, undecided: Vec<String>| {
        r.complete = false;
        r.undecided = undecided;
        r.stats.elapsed_us = started.elapsed().as_micros() as u64;
        r
    };

    // An expired deadline is honoured before any work (the engine and the driver poll it only
    // every so often, which a small puzzle may never reach).
    if limits.interrupted().is_some() {
        return stopped(report, places.iter().map(|p| p.name.clone()).collect());
    }
    // 1. Root propagation with the log on: what the rules alone fix, and by which rules.
    search.engine_mut().set_limits(limits);
    let initial: Vec<bool> = places.iter().map(|p| search.engine().dom(p.var).is_single()).collect();
    let start: Vec<Domain> = (0..search.engine().num_vars())
        .map(|i| search.engine().dom(VarId::from_index(i)))
        .collect();
    search.engine_mut().explain(true);
    let root_ok = search.propagate_root();
    let steps = search.engine_mut().take_log();
    search.engine_mut().explain(false);
    if !root_ok {
        if search.engine().interrupted().is_some() {
            return stopped(report, places.iter().map(|p| p.name.clone()).collect());
        }
        report.solutions = Solutions::None;
        report.reason = Some("the rules find a contradiction before any guess".into());
        return report;
    }
    let mut rules_of: Vec<Vec<&'static str>> = vec![Vec::new(); search.engine().num_vars()];
    for s in &steps {
        for c in &s.changes {
            let rules = &mut rules_of[c.var.index()];
            if !rules.contains(&s.rule) {
                rules.push(s.rule);
            }
        }
    }
    let techniques_of = match &vocabulary {
        Some(v) => techniques(&**v, start, &steps),
        None => vec![Vec::new(); search.engine().num_vars()],
    };
    let root: Vec<Option<u32>> = places.iter().map(|p| search.engine().value(p.var)).collect();
    let fact = |i: usize, v: u32, by_search: bool| {
        let p = &places[i];
        let by = if p.given {
            By::Given
        } else if root[i].is_some() {
            By::Rules
        } else {
            debug_assert!(by_search);
            By::Search
        };
        ForcedFact {
            at: p.name.clone(),
            value: p.values.text(v),
            by,
            rules: if by == By::Rules && !initial[i] {
                rules_of[p.var.index()].clone()
            } else {
                Vec::new()
            },
            techniques: if by == By::Rules && !initial[i] {
                techniques_of[p.var.index()].clone()
            } else {
                Vec::new()
            },
        }
    };

    // 2. Two solutions.
    let two = limits.clone().with_max_solutions(Some(2));
    let (r, sols) = {
        let mut st: &mut dyn ModelSearch = &mut *search;
        count_keeping(&mut st, &two, 2, |s| values_of(s.engine(), &places))
    };
    report.searches += 1;
    report.stats.absorb(&r.stats);
    let first = match (sols.len(), r.stop.is_interrupted()) {
        (0, false) => {
            report.solutions = Solutions::None;
            report.stats.elapsed_us = started.elapsed().as_micros() as u64;
            return report;
        }
        (0, true) => return stopped(report, places.iter().map(|p| p.name.clone()).collect()),
        (1, true) => {
            // One solution, and no time to look for another: only the rules' facts are sure.
            report.forced = (0..n).filter_map(|i| root[i].map(|v| fact(i, v, false))).collect();
            let undecided = (0..n)
                .filter(|&i| root[i].is_none())
                .map(|i| places[i].name.clone())
                .collect();
            return stopped(report, undecided);
        }
        _ => sols[0].clone(),
    };
    if sols.len() == 1 {
        report.solutions = Solutions::Unique;
        report.forced = (0..n).map(|i| fact(i, first[i], true)).collect();
        report.stats.elapsed_us = started.elapsed().as_micros() as u64;
        return report;
    }
    report.solutions = Solutions::Several;

    // 3. Test each candidate by assuming the opposite at the root.
    let mut candidate: Vec<bool> = (0..n).map(|i| root[i].is_none() && sols[1][i] == first[i]).collect();
    let mut by_search = vec![false; n];
    let one = limits.clone().with_max_solutions(Some(1));
    let mut interrupted_at = None;
    for i in 0..n {
        if !candidate[i] {
            continue;
        }
        // Many small searches may each end before the driver's first look at the clock.
        if limits.interrupted().is_some() {
            interrupted_at = Some(i);
            break;
        }
        let var = places[i].var;
        let e = search.engine_mut();
        e.push_level();
        let propagated = e.remove(var, first[i]).is_ok() && e.propagate().is_ok();
        let mut outcome = None; // Some(true): forced; Some(false): struck; None: interrupted
        if propagated {
            let (r, found) = {
                let mut st: &mut dyn ModelSearch = &mut *search;
                count_keeping(&mut st, &one, 1, |s| values_of(s.engine(), &places))
            };
            report.searches += 1;
            report.stats.absorb(&r.stats);
            if let Some(other) = found.first() {
                for j in 0..n {
                    if candidate[j] && other[j] != first[j] {
                        candidate[j] = false;
                    }
                }
                outcome = Some(false);
            } else if r.stop == StopReason::Exhausted {
                outcome = Some(true);
            }
        } else if search.engine().interrupted().is_none() {
            outcome = Some(true);
        }
        search.engine_mut().pop_level();
        match outcome {
            Some(true) => {
                by_search[i] = true;
                candidate[i] = false;
            }
            Some(false) => debug_assert!(!candidate[i]),
            None => {
                interrupted_at = Some(i);
                break;
            }
        }
    }
    report.forced = (0..n)
        .filter_map(|i| match root[i] {
            Some(v) => Some(fact(i, v, false)),
            None if by_search[i] => Some(fact(i, first[i], true)),
            None => None,
        })
        .collect();
    match interrupted_at {
        Some(at) => {
            let undecided = (at..n)
                .filter(|&i| candidate[i])
                .map(|i| places[i].name.clone())
                .collect();
            stopped(report, undecided)
        }
        None => {
            report.stats.elapsed_us = started.elapsed().as_micros() as u64;
            report
        }
    }
}

/// A clue a setter could add to a puzzle or take from it: where, its value, and the puzzle
/// with the change made.
#[derive(Clone, Debug)]
pub struct Clue<P> {
    /// Where (`r3c4`, `row 3`, `column 5`).
    pub at: String,
    /// The clue's value (a cell's number, a row's count).
    pub value: u32,
    /// The puzzle with this clue added (for [`suggest`](crate::plugin::suggest)) or removed (for [`redundant`](crate::plugin::redundant)).
    pub puzzle: P,
}

/// Serializes a number as its text.
fn as_text<S: serde::Serializer>(v: &u32, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// A clue in a report: where, the value, and the amended puzzle in the family's file format.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClueReport {
    /// Where (`r3c4`, `row 3`).
    pub at: String,
    /// The value (a string in JSON, as every `value` of pencilbox's JSON).
    #[serde(serialize_with = "as_text")]
    pub value: u32,
    /// The amended puzzle in the family's file format (empty when the family cannot write it).
    #[serde(skip)]
    pub puzzle: String,
}

/// The result of [`suggest`](crate::plugin::suggest).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SuggestReport {
    /// Solutions of the puzzle as given, up to the limit.
    pub count: BigUint,
    /// True when `count` is exact.
    pub complete: bool,
    /// Where the two witnesses differ.
    pub differences: Vec<String>,
    /// The clue proposed: it holds in the first witness and not in the second.
    pub clue: Option<ClueReport>,
    /// Solutions with the clue added (up to the previous best count).
    pub count_after: Option<BigUint>,
    /// True when `count_after` is exact.
    pub complete_after: bool,
    /// How many candidate clues were recounted.
    pub tried: usize,
    /// True when a deadline or cancellation stopped the run (the clue is the best so far).
    pub interrupted: bool,
}

/// The result of [`redundant`](crate::plugin::redundant).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RedundantReport {
    /// Solutions of the puzzle as given (up to 2).
    pub count: BigUint,
    /// True when `count` is exact.
    pub complete: bool,
    /// How many clues could be removed (givens, counts).
    pub clues: usize,
    /// How many were checked before any limit stopped the run.
    pub checked: usize,
    /// The clues each of which can be removed alone while the puzzle stays unique (removing
    /// two of them together may not keep it unique).
    pub redundant: Vec<ClueReport>,
    /// True when a deadline or cancellation stopped the run.
    pub interrupted: bool,
}

/// The cells of a row-major grid as places with numbers (`r1c1`, …): cell `i` is variable
/// `vars[i]`, a given when `given(i)`.
pub fn cell_places(shape: crate::Shape, vars: &[VarId], given: impl Fn(usize) -> bool) -> Vec<Place> {
    vars.iter()
        .enumerate()
        .map(|(i, &var)| Place {
            name: shape.name(crate::CellId::from_index(i)),
            var,
            values: Values::Numbers,
            given: given(i),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::{Distinct, DistinctRules};
    use crate::engine::SmallestDomain;
    use crate::{Domain, Shape};

    /// A row of four cells holding a permutation of 1..=4, with `givens` (0 = none).
    fn row(givens: [u32; 4]) -> Setup {
        let mut e = Engine::new();
        let vars: Vec<VarId> = givens
            .iter()
            .map(|&g| e.new_var(if g == 0 { Domain::range(1, 4) } else { Domain::single(g) }))
            .collect();
        let mut d = Distinct::new();
        d.permutation(&vars, Domain::range(1, 4));
        d.post(&mut e, DistinctRules::ALL);
        let places = cell_places(Shape::new(1, 4), &vars, |i| givens[i] != 0);
        Setup::Model(FactModel {
            search: Box::new(EngineSearch::new(e, SmallestDomain::new())),
            places,
            vocabulary: None,
        })
    }

    #[test]
    fn three_givens_leave_one_solution_and_the_rules_name_the_fourth_cell() {
        let r = forced(row([1, 2, 0, 4]), &Limits::default());
        assert_eq!((r.solutions, r.complete, r.forced.len()), (Solutions::Unique, true, 4));
        let third = &r.forced[2];
        assert_eq!(
            (third.at.as_str(), third.value.as_str(), third.by),
            ("r1c3", "3", By::Rules)
        );
        assert!(!third.rules.is_empty());
        assert_eq!(r.tally(), (3, 1, 0));
    }

    #[test]
    fn with_a_vocabulary_the_rules_of_a_fact_are_named_for_people() {
        static RULES: [RuleInfo; 10] =
            crate::human::region::rules("a placed number leaves its row", "one number is left");
        let vocab = crate::human::RegionVocabulary {
            shape: Shape::new(1, 4),
            rules: &RULES,
            meets: crate::human::TOUCHES,
        };
        let r = forced(row([1, 2, 0, 4]).with_vocabulary(Box::new(vocab)), &Limits::default());
        let third = &r.forced[2];
        assert_eq!(third.rules, ["naked-single"], "the engine's id is kept");
        // The givens' eliminations leave r1c3 one number: the step that fixes it is a naked
        // single, the ones before it exclusions.
        let names: Vec<&str> = third.techniques.iter().map(|t| t.name).collect();
        assert!(names.contains(&"naked single"), "{names:?}");
        assert!(
            names.iter().all(|n| ["naked single", "exclusion"].contains(n)),
            "{names:?}"
        );
        assert!(r
            .forced
            .iter()
            .filter(|f| f.by == By::Given)
            .all(|f| f.techniques.is_empty()));
        // Without a vocabulary there are no techniques, as before.
        let r = forced(row([1, 2, 0, 4]), &Limits::default());
        assert!(r.forced[2].techniques.is_empty());
    }

    #[test]
    fn two_free_cells_are_not_forced_and_the_given_ones_are() {
        let r = forced(row([0, 2, 0, 4]), &Limits::default());
        assert_eq!(r.solutions, Solutions::Several);
        let at: Vec<&str> = r.forced.iter().map(|f| f.at.as_str()).collect();
        assert_eq!(at, ["r1c2", "r1c4"]);
    }

    #[test]
    fn a_fact_the_rules_in_force_miss_is_found_by_search() {
        // a, b in {1, 2}, c in {1, 2, 3}, d in 1..=4, all different, naked singles only: c = 3
        // and d = 4 in both solutions, but no single shows it.
        let mut e = Engine::new();
        let vars: Vec<VarId> = [2, 2, 3, 4]
            .iter()
            .map(|&top| e.new_var(Domain::range(1, top)))
            .collect();
        let mut d = Distinct::new();
        d.all_different(&vars);
        d.post(&mut e, DistinctRules::NAKED_SINGLES);
        let places = cell_places(Shape::new(1, 4), &vars, |_| false);
        let setup = Setup::Model(FactModel {
            search: Box::new(EngineSearch::new(e, SmallestDomain::new())),
            places,
            vocabulary: None,
        });
        let r = forced(setup, &Limits::default());
        assert_eq!(r.solutions, Solutions::Several);
        let got: Vec<(&str, &str, By)> = r
            .forced
            .iter()
            .map(|f| (f.at.as_str(), f.value.as_str(), f.by))
            .collect();
        assert_eq!(got, [("r1c3", "3", By::Search), ("r1c4", "4", By::Search)]);
    }

    #[test]
    fn an_expired_deadline_gives_an_incomplete_report_with_every_place_undecided() {
        let limits = Limits {
            deadline: Some(Instant::now()),
            ..Limits::default()
        };
        let r = forced(row([0, 0, 0, 0]), &limits);
        assert_eq!(
            (r.solutions, r.complete, r.undecided.len()),
            (Solutions::Unknown, false, 4)
        );
        assert!(r.forced.is_empty());
    }

    #[test]
    fn a_check_before_the_model_is_the_reason_for_no_solution() {
        let r = forced(Setup::NoSolution("two 3s in a row".into()), &Limits::default());
        assert_eq!(r.solutions, Solutions::None);
        assert_eq!(r.reason.as_deref(), Some("two 3s in a row"));
    }
}
