//! The shading toolkit: everything a genre whose answer colours cells needs besides its own
//! clues — Nurikabe (a wall around numbered islands), Star Battle (stars), Snake's body,
//! and likewise Heyawake, LITS or Kurodoko.
//!
//! * **Variables** ([`ShadeModel`]): one Boolean per cell, [`TRUE`] = shaded (a wall, a star).
//! * **Rules**, each a named propagator:
//!   - `connected` ([`ShadeModel::connected`], [`connect::Connected`]): the cells of one colour
//!     form one orthogonally connected group, with articulation reasoning (a cut cell between
//!     known parts takes the colour; cells out of reach cannot);
//!   - `no-2x2` ([`ShadeModel::no_2x2`]): no 2×2 block all of one colour (clauses);
//!   - `no-touch` ([`ShadeModel::no_touch`]): no two shaded cells touch, not even diagonally
//!     (clauses);
//!   - `islands` ([`ShadeModel::islands`], [`islands::Islands`]): every unshaded group holds
//!     one numbered cell, of its number's size;
//!   - counts of any set of cells ([`crate::counts`]).
//! * **Search** ([`ShadeModel::search`]): probing of the cells, then the undecided cell with
//!   the most decided neighbours.
//! * **Answers** ([`answer`]): rows of `x` (shaded) and `-`, read, written, compared.
//! * **Verification** ([`check_connected`], [`check_2x2`], [`check_no_touch`],
//!   [`check_islands`]): every way a shading breaks a rule, cells named.
//! * **Drawing** ([`draw`]): a grid with region walls and labels outside.
//! * **Words** ([`RULES`]): the techniques for explanations.

pub mod answer;
pub mod connect;
pub mod islands;

use crate::constraints::{Clauses, Literal};
use crate::engine::{Brancher, Decision, Engine, EngineSearch, Passes, Priority, Probe, VarId, FALSE, TRUE};
use crate::grid::{CellId, Grid, Shape, KING};
use crate::human::grid::GridNames;
use crate::human::RuleInfo;
use crate::puzzle::Violation;
use crate::setter::{Place, Values};
pub use answer::Shading;
pub use islands::Number;

/// Which optional shading rules run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShadeRules {
    /// Articulation reasoning in `connected` (the check itself always runs).
    pub connect: bool,
    /// Failed-literal probing of the cells at each node.
    pub probe: bool,
}

impl ShadeRules {
    /// Every rule on.
    pub const ALL: ShadeRules = ShadeRules {
        connect: true,
        probe: true,
    };
    /// Only the genre's definition.
    pub const NONE: ShadeRules = ShadeRules {
        connect: false,
        probe: false,
    };
    /// The optional rules' names.
    pub const OPTIONAL: [&'static str; 2] = ["connect", "probe"];

    /// Reads a rule list (`all`, `none`, `-probe`).
    pub fn parse(spec: &str) -> Result<ShadeRules, String> {
        let switches = crate::switches::Switches {
            default: ShadeRules::ALL,
            none: ShadeRules::NONE,
            presets: vec![("all", ShadeRules::ALL), ("none", ShadeRules::NONE)],
            names: &ShadeRules::OPTIONAL,
        };
        crate::switches::parse(spec, &switches, ShadeRules::flag, |_, key, value| {
            Err(format!("unknown setting `{key}={value}`"))
        })
    }

    fn flag<'x>(&'x mut self, name: &str) -> Option<&'x mut bool> {
        Some(match name {
            "connect" => &mut self.connect,
            "probe" => &mut self.probe,
            _ => return None,
        })
    }
}

/// The `rules` setting of the shading genres.
pub const RULES_SETTING: crate::puzzle::SettingInfo = crate::puzzle::SettingInfo {
    key: "rules",
    summary: "the optional shading rules: all (default), none, or changes such as -probe (connect, probe)",
};

/// A shading of a grid: one Boolean per cell ([`TRUE`] = shaded).
#[derive(Clone, Debug)]
pub struct ShadeModel {
    /// The grid.
    pub shape: Shape,
    /// The cells' variables, row-major.
    pub cells: Vec<VarId>,
    /// What a cell is, unshaded and shaded (`["empty", "star"]`).
    pub values: [&'static str; 2],
    /// The value tried first when branching.
    pub first: u32,
}

impl ShadeModel {
    /// The variables of a shading of `shape` on `engine`; `values` names the two colours.
    pub fn new(engine: &mut Engine, shape: Shape, values: [&'static str; 2]) -> Self {
        engine.reserve(shape.cells());
        let cells = (0..shape.cells()).map(|_| engine.new_bool()).collect();
        ShadeModel {
            shape,
            cells,
            values,
            first: TRUE,
        }
    }

    /// A cell's variable.
    pub fn cell(&self, c: CellId) -> VarId {
        self.cells[c.index()]
    }

    /// `connected`: the cells that are `shaded` (or, when false, unshaded) form one group;
    /// with `rules.connect`, cut cells between known parts take the colour.
    pub fn connected(&self, engine: &mut Engine, shaded: bool, rules: ShadeRules) {
        let c = connect::Connected::new(self.shape, self.cells.clone(), if shaded { TRUE } else { FALSE });
        engine.post(if rules.connect { c } else { c.without_articulation() });
    }

    /// `no-2x2`: no 2×2 block is all shaded (or, when false, all unshaded).
    pub fn no_2x2(&self, engine: &mut Engine, shaded: bool) {
        let mut c = Clauses::new("no-2x2");
        let lit = |v| if shaded { Literal::not(v) } else { Literal::is(v) };
        for r in 0..self.shape.height.saturating_sub(1) {
            for k in 0..self.shape.width.saturating_sub(1) {
                let b =
                    [(r, k), (r, k + 1), (r + 1, k), (r + 1, k + 1)].map(|(r, k)| lit(self.cell(self.shape.id(r, k))));
                c.add(&b);
            }
        }
        if !c.is_empty() {
            engine.post(c);
        }
    }

    /// `no-touch`: no two shaded cells touch, not even diagonally.
    pub fn no_touch(&self, engine: &mut Engine) {
        let mut c = Clauses::new("no-touch");
        for a in self.shape.all() {
            for d in KING {
                if let Some(b) = self.shape.step(a, d).filter(|b| b.0 > a.0) {
                    c.add(&[Literal::not(self.cell(a)), Literal::not(self.cell(b))]);
                }
            }
        }
        if !c.is_empty() {
            engine.post(c);
        }
    }

    /// `islands`: every unshaded group holds one of `numbers` and has its size; the numbered
    /// cells are fixed unshaded. `Err` when one cannot be.
    pub fn islands(&self, engine: &mut Engine, numbers: &[Number]) -> Result<(), crate::engine::Conflict> {
        for &(c, _) in numbers {
            engine.assign(self.cell(c), FALSE)?;
        }
        engine.post(islands::Islands::new(self.shape, self.cells.clone(), numbers.to_vec()));
        Ok(())
    }

    /// The shading of a solved (or partly solved) model: cells fixed shaded.
    pub fn grid(&self, e: &Engine) -> Shading {
        Grid::from_vec(
            self.shape,
            self.cells.iter().map(|&v| e.value(v) == Some(TRUE)).collect(),
        )
        .expect("sized")
    }

    /// The search of the model posted on `engine`: probing (when `rules.probe`) and
    /// [`ShadeBranching`].
    pub fn search(&self, engine: Engine, rules: ShadeRules) -> EngineSearch<ShadeBranching> {
        let mut s = EngineSearch::new(engine, ShadeBranching::new(self));
        s.probe = rules.probe.then(|| Probe {
            vars: Some(self.cells.clone()),
            max_values: 2,
            passes: Passes::One,
            suspend: Some(Priority::Global),
            descending: self.first == TRUE,
            after_failures: 4,
        });
        s
    }

    /// The places facts are about: every cell, named by [`ShadeModel::values`].
    pub fn places(&self, given: impl Fn(CellId) -> bool) -> Vec<Place> {
        self.shape
            .all()
            .map(|c| Place {
                name: self.shape.name(c),
                var: self.cell(c),
                values: Values::Bool {
                    no: self.values[0],
                    yes: self.values[1],
                },
                given: given(c),
            })
            .collect()
    }

    /// How the variables are named.
    pub fn names(&self) -> GridNames {
        GridNames {
            shape: self.shape,
            first_cell: self.cells.first().copied().unwrap_or(VarId(0)),
            cell_values: self.values,
            links: None,
        }
    }

    /// Fixes a player's entries (`x` shaded, `o` unshaded) on the model.
    pub fn fix_entries(&self, e: &mut Engine, entries: &answer::Entries) -> Result<(), String> {
        answer::fix_entries(e, &self.cells, self.values, entries)
    }
}

impl crate::genre::Toolkit for ShadeModel {
    type Answer = Shading;
    type Rules = ShadeRules;
    type Brancher = ShadeBranching;
    type Entries = answer::Entries;
    const PARTS: &'static [(&'static [RuleInfo], crate::human::grid::Refine)] =
        &[(&RULES, crate::human::grid::as_logged)];
    fn rules(opts: &crate::puzzle::RunOptions) -> Result<ShadeRules, crate::error::PuzzleError> {
        match opts.setting("rules") {
            Some(spec) => ShadeRules::parse(spec).map_err(crate::error::PuzzleError::unsupported),
            None => Ok(ShadeRules::ALL),
        }
    }
    fn all_rules() -> ShadeRules {
        ShadeRules::ALL
    }
    fn search(&self, engine: Engine, rules: ShadeRules) -> EngineSearch<ShadeBranching> {
        ShadeModel::search(self, engine, rules)
    }
    fn decode(&self, engine: &Engine) -> Shading {
        self.grid(engine)
    }
    fn names(&self) -> GridNames {
        ShadeModel::names(self)
    }
    fn places(&self, given: &dyn Fn(CellId) -> bool) -> Vec<Place> {
        ShadeModel::places(self, given)
    }
    fn fix_entries(&self, engine: &mut Engine, entries: &answer::Entries) -> Result<(), String> {
        ShadeModel::fix_entries(self, engine, entries)
    }
    fn undecided(&self, engine: &Engine) -> Vec<CellId> {
        self.shape
            .all()
            .filter(|&c| engine.value(self.cell(c)).is_none())
            .collect()
    }
}

/// Branching on a shading: the undecided cell with the most decided neighbours (the eight
/// around it; the grid's edge counts as decided), its [`ShadeModel::first`] value first.
#[derive(Clone, Debug)]
pub struct ShadeBranching {
    shape: Shape,
    cells: Vec<VarId>,
    first: u32,
}

impl ShadeBranching {
    /// Branching on the cells of `m`.
    pub fn new(m: &ShadeModel) -> Self {
        ShadeBranching {
            shape: m.shape,
            cells: m.cells.clone(),
            first: m.first,
        }
    }
}

impl Brancher for ShadeBranching {
    fn branch(&mut self, e: &Engine, out: &mut Vec<Decision>) {
        let mut best: Option<(usize, CellId)> = None;
        for c in self.shape.all() {
            if e.dom(self.cells[c.index()]).is_single() {
                continue;
            }
            let decided = KING
                .iter()
                .filter(|&&d| {
                    self.shape
                        .step(c, d)
                        .is_none_or(|n| e.dom(self.cells[n.index()]).is_single())
                })
                .count();
            if best.is_none_or(|(b, _)| decided > b) {
                best = Some((decided, c));
            }
        }
        if let Some((_, c)) = best {
            let v = self.cells[c.index()];
            out.push(Decision::assign(v, self.first));
            out.push(Decision::assign(v, TRUE + FALSE - self.first));
        }
    }
}

/// The shading toolkit's rules for explanations.
pub const RULES: [RuleInfo; 8] = [
    RuleInfo::new(
        "no-touch",
        "no touching",
        1,
        "two shaded cells never touch, not even diagonally",
    ),
    RuleInfo::new("no-2x2", "no 2×2 block", 1, "no 2×2 block is all one colour"),
    RuleInfo::new(
        "island-complete",
        "island complete",
        1,
        "the island has its size, so the cells around it are shaded",
    ),
    RuleInfo::new(
        "between-islands",
        "between two islands",
        1,
        "the cell touches two islands with different numbers",
    ),
    RuleInfo::new(
        "island-grows",
        "only way out",
        2,
        "the island must grow and has one way out",
    ),
    RuleInfo::new(
        "unreachable",
        "unreachable",
        3,
        "no numbered island can reach the cell within its size",
    ),
    RuleInfo::new("connected", "connectivity", 4, "the shaded cells must stay connected"),
    RuleInfo::new("islands", "islands", 2, "every island holds one number, of its size"),
];

/// The groups of shaded (`shaded`) or unshaded cells of `g`: more than one is a violation
/// named by its cells.
pub fn check_connected(g: &Shading, shaded: bool, what: &str) -> Vec<Violation> {
    let shape = g.shape();
    let groups = connect::groups(shape, |c| g[c] == shaded);
    if groups.len() < 2 {
        return Vec::new();
    }
    vec![Violation::new(
        shape.name(groups[1][0]),
        "connected",
        format!(
            "the {what} is in {} separate parts (one at {}, another at {})",
            groups.len(),
            shape.name(groups[0][0]),
            shape.name(groups[1][0])
        ),
    )]
}

/// Every 2×2 block all shaded (`shaded`) or all unshaded, named by its top-left cell.
pub fn check_2x2(g: &Shading, shaded: bool, what: &str) -> Vec<Violation> {
    let shape = g.shape();
    let mut out = Vec::new();
    for r in 0..shape.height.saturating_sub(1) {
        for k in 0..shape.width.saturating_sub(1) {
            if [(r, k), (r, k + 1), (r + 1, k), (r + 1, k + 1)]
                .iter()
                .all(|&(r, k)| *g.at(r, k) == shaded)
            {
                let at = shape.name(shape.id(r, k));
                out.push(Violation::new(
                    at.clone(),
                    "no-2x2",
                    format!("the 2×2 block at {at} is all {what}"),
                ));
            }
        }
    }
    out
}

/// Every pair of shaded cells that touch (side or corner), named.
pub fn check_no_touch(g: &Shading, what: &str) -> Vec<Violation> {
    let shape = g.shape();
    let mut out = Vec::new();
    for a in shape.all().filter(|&a| g[a]) {
        for d in KING {
            if let Some(b) = shape.step(a, d).filter(|&b| b.0 > a.0 && g[b]) {
                out.push(Violation::new(
                    shape.name(a),
                    "no-touch",
                    format!("the {what}s at {} and {} touch", shape.name(a), shape.name(b)),
                ));
            }
        }
    }
    out
}

/// Every unshaded group that breaks the islands rule: no number, two numbers, or a size other
/// than its number.
pub fn check_islands(g: &Shading, numbers: &[Number]) -> Vec<Violation> {
    let shape = g.shape();
    let mut out = Vec::new();
    for c in numbers.iter().map(|n| n.0).filter(|&c| g[c]) {
        out.push(Violation::new(
            shape.name(c),
            "islands",
            format!("the numbered cell {} is shaded", shape.name(c)),
        ));
    }
    // The numbers of each island, by a label per cell (a search of every island for every
    // number was quadratic: 40 s on an 800×800 grid of 160,000 islands).
    let groups = connect::groups(shape, |c| !g[c]);
    let mut group_of = vec![usize::MAX; shape.cells()];
    for (k, group) in groups.iter().enumerate() {
        for c in group {
            group_of[c.index()] = k;
        }
    }
    let mut numbers_of: Vec<Vec<&Number>> = vec![Vec::new(); groups.len()];
    for n in numbers {
        if let Some(&k) = group_of.get(n.0.index()).filter(|&&k| k != usize::MAX) {
            numbers_of[k].push(n);
        }
    }
    for (group, nums) in groups.iter().zip(numbers_of) {
        let at = shape.name(group[0]);
        let message = match nums.as_slice() {
            [] => format!("the island at {at} ({} cells) has no number", group.len()),
            [(c, Some(n))] if group.len() != *n as usize => {
                format!("the island of {} has {} cells, not {n}", shape.name(*c), group.len())
            }
            [_] => continue,
            [a, b, ..] => format!(
                "one island holds the numbers at {} and {}",
                shape.name(a.0),
                shape.name(b.0)
            ),
        };
        out.push(Violation::new(at, "islands", message));
    }
    out
}

/// Every 2×2 block whose only shaded cells are two on a diagonal (`what` names the shaded
/// cells: the snake touches itself diagonally), named by its top left cell.
pub fn check_diagonal_pairs(g: &Grid<bool>, what: &str) -> Vec<Violation> {
    let shape = g.shape();
    let mut out = Vec::new();
    for r in 0..shape.height.saturating_sub(1) {
        for k in 0..shape.width.saturating_sub(1) {
            let [a, b, x, y] = [(r, k), (r, k + 1), (r + 1, k), (r + 1, k + 1)].map(|(r, k)| g[shape.id(r, k)]);
            if (a && y && !b && !x) || (b && x && !a && !y) {
                let at = shape.name(shape.id(r, k));
                let message = format!("the {what} touches itself diagonally in the 2×2 block at {at}");
                out.push(Violation::new(at, "touch", message));
            }
        }
    }
    out
}

/// Draws a grid for people (`--format pretty`): `cell` gives each cell's text, walls (`|`,
/// `---`) separate different `regions` labels (all walls off with `None`), `top` and `left`
/// labels sit outside the frame.
pub fn draw(
    shape: Shape,
    regions: Option<&Grid<u32>>,
    top: &[String],
    left: &[String],
    cell: &dyn Fn(CellId) -> String,
) -> String {
    let texts: Vec<String> = shape.all().map(cell).collect();
    let w = texts
        .iter()
        .chain(top)
        .map(|t| t.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let lw = left.iter().map(|t| t.chars().count()).max().unwrap_or(0);
    let pad = |s: &str, n: usize| format!("{}{s}", " ".repeat(n.saturating_sub(s.chars().count())));
    let wall = |a: CellId, b: CellId| regions.is_some_and(|g| g[a] != g[b]);
    let margin = if lw > 0 { " ".repeat(lw + 1) } else { String::new() };
    let mut out = String::new();
    if !top.is_empty() {
        out.push_str(&margin);
        for t in top {
            out.push_str("  ");
            out.push_str(&pad(t, w));
            out.push(' ');
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    for r in 0..=shape.height {
        out.push_str(&margin);
        out.push('+');
        for c in 0..shape.width {
            let closed = r == 0 || r == shape.height || wall(shape.id(r - 1, c), shape.id(r, c));
            out.push_str(&(if closed { "-" } else { " " }).repeat(w + 2));
            out.push('+');
        }
        out.push('\n');
        if r == shape.height {
            break;
        }
        if lw > 0 {
            out.push_str(&pad(left.get(r).map_or("", String::as_str), lw));
            out.push(' ');
        }
        out.push('|');
        for c in 0..shape.width {
            let id = shape.id(r, c);
            out.push(' ');
            out.push_str(&pad(&texts[id.index()], w));
            out.push(' ');
            let closed = c + 1 == shape.width || wall(id, shape.id(r, c + 1));
            out.push(if closed { '|' } else { ' ' });
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests;
