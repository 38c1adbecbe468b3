//! A line genre whose answer is the cells the line visits, not its links: a Snake is a path,
//! but the player shades its cells. [`CellLine`] is the line toolkit's model ([`LineModel`],
//! with every line rule) seen as a shading: its answer, entries and hints are those of the
//! shading toolkit ([`crate::shading::answer`]: `x` a visited cell, `-` not), while its
//! search, words and setter's places are the line's.

use super::{LineModel, LineRules, LinkBranching};
use crate::engine::{Engine, EngineSearch, TRUE};
use crate::grid::{CellId, Shape};
use crate::human::grid::{GridNames, Refine};
use crate::human::RuleInfo;
use crate::setter::Place;
use crate::shading::answer::{self, Entries, Shading};

/// A line model answered by its cells (see the module docs).
#[derive(Clone, Debug)]
pub struct CellLine {
    /// The line.
    pub line: LineModel,
    /// What a cell is, off and on the line (`["empty", "snake"]`), in hints and entries.
    pub values: [&'static str; 2],
}

impl CellLine {
    /// The grid.
    pub fn shape(&self) -> Shape {
        self.line.shape()
    }
}

impl crate::genre::Toolkit for CellLine {
    type Answer = Shading;
    type Rules = LineRules;
    type Brancher = LinkBranching;
    type Entries = Entries;
    const PARTS: &'static [(&'static [RuleInfo], Refine)] = <LineModel as crate::genre::Toolkit>::PARTS;
    fn rules(opts: &crate::puzzle::RunOptions) -> Result<LineRules, crate::error::PuzzleError> {
        super::rules_of(opts)
    }
    fn all_rules() -> LineRules {
        LineRules::ALL
    }
    fn search(&self, engine: Engine, rules: LineRules) -> EngineSearch<LinkBranching> {
        self.line.search(engine, rules)
    }
    fn decode(&self, engine: &Engine) -> Shading {
        let shape = self.shape();
        let cells = shape.all().map(|c| engine.value(self.line.cell(c)) == Some(TRUE));
        Shading::from_vec(shape, cells.collect()).expect("sized")
    }
    fn names(&self) -> GridNames {
        GridNames {
            cell_values: self.values,
            ..self.line.names()
        }
    }
    fn places(&self, given: &dyn Fn(CellId) -> bool) -> Vec<Place> {
        self.line.places(given)
    }
    fn fix_entries(&self, engine: &mut Engine, entries: &Entries) -> Result<(), String> {
        answer::fix_entries(engine, &self.line.vars.cell, self.values, entries)
    }
    fn undecided(&self, engine: &Engine) -> Vec<CellId> {
        <LineModel as crate::genre::Toolkit>::undecided(&self.line, engine)
    }
}
