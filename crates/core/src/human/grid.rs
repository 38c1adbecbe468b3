//! The vocabulary of a grid of yes/no variables: cells (shaded or not, a star or not, on the
//! line or not) and links between adjacent cells (a line or blank). Line, shading and star
//! genres name their variables and explain their steps through it; each toolkit
//! ([`crate::lines`], [`crate::shading`]) adds its rules and a refinement of its engine steps
//! into techniques, and the genre adds its own rules.

use super::{RuleInfo, Vocabulary, GUESS, GUESS_LEVEL, TRIAL, TRIAL_LEVEL};
use crate::domain::Domain;
use crate::engine::{Step, VarId, FALSE, TRUE};
use crate::grid::{CellId, Shape};
use crate::links::Links;
use std::sync::Arc;

/// How the variables of a Boolean grid model are named: one variable per cell (numbered from
/// `first_cell`, row-major), and optionally one per link (numbered from `first_link` in
/// [`Links`] order).
#[derive(Clone, Debug)]
pub struct GridNames {
    /// The grid.
    pub shape: Shape,
    /// The first cell variable.
    pub first_cell: VarId,
    /// What a cell is when false and when true (`["unused", "used"]`, `["island", "wall"]`).
    pub cell_values: [&'static str; 2],
    /// The links and their first variable, for line genres.
    pub links: Option<(Arc<Links>, VarId)>,
}

impl GridNames {
    /// The link a variable stands for, if it is a link variable.
    pub fn link_of(&self, var: VarId) -> Option<u32> {
        let (links, first) = self.links.as_ref()?;
        let i = var.index().checked_sub(first.index())?;
        (i < links.len()).then_some(i as u32)
    }
    /// The cell a variable stands for, if it is a cell variable.
    pub fn cell_of(&self, var: VarId) -> Option<CellId> {
        let i = var.index().checked_sub(self.first_cell.index())?;
        (i < self.shape.cells()).then(|| CellId::from_index(i))
    }
    /// The cell variables in order.
    pub fn cell_vars(&self) -> Vec<VarId> {
        (0..self.shape.cells())
            .map(|i| VarId::from_index(self.first_cell.index() + i))
            .collect()
    }
    /// A variable's place: `r2c3`, or a link `r2c3-r2c4`.
    pub fn name(&self, var: VarId) -> String {
        if let (Some(l), Some((links, _))) = (self.link_of(var), &self.links) {
            let (a, b) = links.ends(l);
            return format!("{}-{}", self.shape.name(a), self.shape.name(b));
        }
        match self.cell_of(var) {
            Some(c) => self.shape.name(c),
            None => format!("v{}", var.index()),
        }
    }
    /// A value's name: a link's `line` / `blank`, a cell's pair of names.
    pub fn value(&self, var: VarId, value: u32) -> &'static str {
        let yes = value == TRUE;
        if self.link_of(var).is_some() {
            return if yes { "line" } else { "blank" };
        }
        self.cell_values[usize::from(yes)]
    }
    /// Does any change of `step` make a cell (`cell`) or link variable take `value` in `after`?
    pub fn sets(&self, step: &Step, after: &[Domain], cell: bool, value: u32) -> bool {
        step.changes
            .iter()
            .any(|c| (self.cell_of(c.var).is_some() == cell) && after[c.var.index()] == Domain::single(value))
    }
}

/// Refines an engine step into a technique (`None`: keep the step's rule).
pub type Refine = fn(&GridNames, &Step, &[Domain]) -> Option<&'static str>;

/// The vocabulary of a Boolean grid genre: names, the rules (toolkits' and the genre's, trial
/// and guess at the top), each toolkit's refinement of its steps, and the variables trial and
/// guesses may use.
pub struct GridVocabulary {
    /// How variables are named.
    pub names: GridNames,
    /// Every rule, simplest first.
    pub rules: Vec<RuleInfo>,
    /// Refinements of engine steps into techniques, tried in order.
    pub refine: Vec<Refine>,
    /// The variables trial assumes and guesses choose (the cells).
    pub trial: Vec<VarId>,
}

impl GridVocabulary {
    /// A vocabulary over `names` with the toolkits' `parts` (rules and refinement) and the
    /// genre's own `rules` (which replace a toolkit rule of the same id: a genre may word a
    /// rule its own way); trial and guess sit at [`TRIAL_LEVEL`] and [`GUESS_LEVEL`], the
    /// levels they have in every family, and try the cells, unless the genre places them
    /// itself. The genre's and toolkits' rules must lie below trial.
    pub fn new(names: GridNames, parts: &[(&'static [RuleInfo], Refine)], rules: &[RuleInfo]) -> Self {
        let mut all: Vec<RuleInfo> = rules.to_vec();
        let mut refine = Vec::new();
        for (r, f) in parts {
            all.extend(r.iter().filter(|t| !rules.iter().any(|g| g.id == t.id)));
            refine.push(*f);
        }
        all.sort_by_key(|r| r.level);
        let top = all
            .iter()
            .filter(|r| r.id != TRIAL && r.id != GUESS)
            .map(|r| r.level)
            .max()
            .unwrap_or(0);
        assert!(
            top < TRIAL_LEVEL,
            "a rule at level {top}, not below trial ({TRIAL_LEVEL})"
        );
        if !all.iter().any(|r| r.id == TRIAL) {
            all.push(RuleInfo::new(
                TRIAL,
                "contradiction (trial)",
                TRIAL_LEVEL,
                "assuming it, the simpler rules reach a contradiction",
            ));
        }
        if !all.iter().any(|r| r.id == GUESS) {
            all.push(RuleInfo::new(
                GUESS,
                "guess",
                GUESS_LEVEL,
                "no rule applies; a guess that leads to the solution",
            ));
        }
        let trial = names.cell_vars();
        GridVocabulary {
            names,
            rules: all,
            refine,
            trial,
        }
    }
}

impl Vocabulary for GridVocabulary {
    fn rules(&self) -> &[RuleInfo] {
        &self.rules
    }
    fn var_name(&self, var: VarId) -> String {
        self.names.name(var)
    }
    fn value_name(&self, var: VarId, value: u32) -> String {
        self.names.value(var, value).to_string()
    }
    fn fact_text(&self, var: VarId, value: u32, holds: bool) -> String {
        // Booleans: "not a line" is "blank".
        let v = if holds { value } else { TRUE + FALSE - value };
        format!("{} {}", self.names.name(var), self.names.value(var, v))
    }
    fn classify(&self, step: &Step, _before: &[Domain], after: &[Domain]) -> &'static str {
        self.refine
            .iter()
            .find_map(|f| f(&self.names, step, after))
            .unwrap_or(step.rule)
    }
    fn trial_vars(&self) -> Vec<VarId> {
        self.trial.clone()
    }
    fn guess_vars(&self) -> Option<Vec<VarId>> {
        Some(self.trial.clone())
    }
}

/// No refinement (a toolkit whose rules are named as they are logged).
pub fn as_logged(_: &GridNames, _: &Step, _: &[Domain]) -> Option<&'static str> {
    None
}
