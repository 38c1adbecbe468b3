//! A line genre whose answer is the cells the line visits, not its links: a Snake is a path,
//! but the player shades its cells. [`CellLine`] is the line toolkit's model ([`LineModel`],
//! with every line rule) seen as a shading: its answer, entries and hints are those of the
//! shading toolkit ([`crate::shading::answer`]: `x` a visited cell, `-` not), while its
//! search, words and setter's places are the line's.

use super::{LineModel, LineRules, LinkBranching};
use crate::engine::{Engine, EngineSearch, TRUE};
use crate::grid::{CellId, Grid, Shape, KING, ORTHOGONAL};
use crate::human::grid::{GridNames, Refine};
use crate::human::RuleInfo;
use crate::puzzle::Violation;
use crate::rng::SplitMix64;
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
    /// The line answered by its cells, named `values` off and on it.
    pub fn new(line: LineModel, values: [&'static str; 2]) -> Self {
        CellLine { line, values }
    }
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

/// The faults of a shading read as a path between `ends` (each two shaded cells side by side
/// are consecutive on it): those of [`super::check`] on the links between shaded neighbours (a
/// branch, a dead end, a loop, an end that is not one), and each shaded cell apart from the
/// rest (`what` names the path: `snake`).
pub fn check(g: &Shading, ends: (CellId, CellId), what: &str) -> Vec<Violation> {
    let shape = g.shape();
    let mut lines: super::LineGrid = Grid::filled(shape, 0);
    for c in shape.all().filter(|&c| g[c]) {
        for (d, _, _) in super::answer::DIRS {
            if super::answer::step(shape, c, d).is_some_and(|o| g[o]) {
                lines[c] |= d;
            }
        }
    }
    let mut out = super::check(&lines, Some(ends));
    for c in shape
        .all()
        .filter(|&c| g[c] && lines[c] == 0 && c != ends.0 && c != ends.1)
    {
        let at = shape.name(c);
        out.push(Violation::new(
            at.clone(),
            "line",
            format!("{at} is shaded apart from the {what}"),
        ));
    }
    out
}

/// Can the snake whose head is `head` grow into `n`? Only if no snake cell but the head is
/// next to it, and every snake cell diagonal to it is next to the head.
fn fits(shape: Shape, on: &[bool], head: CellId, n: CellId) -> bool {
    let side = |a: CellId, b: CellId| {
        let ((r, c), (s, d)) = (shape.coords(a), shape.coords(b));
        r.abs_diff(s) + c.abs_diff(d) == 1
    };
    !on[n.index()]
        && KING
            .iter()
            .filter_map(|&d| shape.step(n, d))
            .all(|x| !on[x.index()] || x == head || (!side(n, x) && side(x, head)))
}

/// A random path of `len` cells that never touches itself, not side by side and not diagonally
/// (a Snake): a depth-first walk from a random cell in a random order, within `budget` steps;
/// `None` when the budget ran out first.
pub fn random_snake(shape: Shape, len: usize, budget: u32, rng: &mut SplitMix64) -> Option<Vec<CellId>> {
    let mut on = vec![false; shape.cells()];
    let start = CellId::from_index(rng.below(shape.cells()));
    on[start.index()] = true;
    let mut path = vec![start];
    let mut choices: Vec<Vec<CellId>> = Vec::new();
    let mut steps = 0;
    loop {
        if path.len() >= len {
            return Some(path);
        }
        steps += 1;
        if steps > budget {
            return None;
        }
        if choices.len() < path.len() {
            let head = *path.last().expect("nonempty");
            let mut next: Vec<CellId> = ORTHOGONAL
                .iter()
                .filter_map(|&d| shape.step(head, d))
                .filter(|&n| fits(shape, &on, head, n))
                .collect();
            rng.shuffle(&mut next);
            choices.push(next);
        }
        match choices.last_mut().and_then(Vec::pop) {
            Some(n) => {
                on[n.index()] = true;
                path.push(n);
            }
            None => {
                choices.pop();
                let dead = path.pop()?;
                on[dead.index()] = false;
                if path.is_empty() {
                    return None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A random snake is a path that never touches itself: read as a shading, its only
        /// faults are none, between its first and last cells.
        #[test]
        fn random_snakes_never_touch_themselves(h in 2usize..9, w in 2usize..9, len in 2usize..30, seed in any::<u64>()) {
            let shape = Shape::new(h, w);
            let mut rng = SplitMix64::new(seed);
            if let Some(path) = random_snake(shape, len.min(shape.cells()), 2000, &mut rng) {
                prop_assert_eq!(path.len(), len.min(shape.cells()));
                let mut g = Grid::filled(shape, false);
                path.iter().for_each(|&c| g[c] = true);
                let ends = (path[0], path[path.len() - 1]);
                prop_assert!(check(&g, ends, "snake").is_empty(), "{:?}", check(&g, ends, "snake"));
                prop_assert!(crate::shading::check_diagonal_pairs(&g, "snake").is_empty());
            }
        }
    }
}
