//! The line toolkit: everything a genre whose answer is a line drawn through cell centres
//! needs besides its own clues — Path puzzles (one path between two doors), Masyu (one loop),
//! Snake (a path of cells), and likewise Slitherlink's dual, Country Road or Tracks.
//!
//! * **Variables** ([`LineModel`]): one Boolean per link between orthogonally adjacent cells
//!   ("the line uses it") and one per cell ("the line visits it"), links first
//!   ([`PathVars`]).
//! * **Rules**: [`LineModel::post`] adds the line's definition — `degree` (a visited cell has
//!   two links, an end of a path one, an unvisited cell none), `chains` (one simple path
//!   between the ends, or one closed loop: no premature cycle) and the optional `connect`
//!   (reachability: the cells on some path between the ends, or in the loop's block) —
//!   from [`crate::constraints::SinglePath`] and [`crate::constraints::SingleLoop`];
//!   [`LineModel::cut_parities`] adds `cuts` (a cut between two rows or columns is crossed an
//!   odd number of times exactly when it separates the path's ends; always an even number of
//!   times by a loop). A genre's own rules are usually [`Clauses`](crate::constraints::Clauses)
//!   over [`LineModel::link`] (a Masyu pearl) and [`crate::constraints::BoolSum`]s over cells
//!   (a Snake's row counts).
//! * **Straight or turning**: [`LineModel::straight`] lists the two ways through a cell that
//!   go straight, as pairs of link variables; a turn is any other pair.
//! * **Search** ([`LineModel::search`]): failed-literal probing of the cells, then a choice of
//!   an open link at the visited cell with the least slack ([`LinkBranching`]).
//! * **Answers** ([`answer`]): a grid of direction pairs (`ns`, `ew`, `ne`, …, `-`), read,
//!   written, compared, and decoded from a solved model ([`LineModel::grid`]).
//! * **Verification** ([`check`]): every way a drawn grid breaks "one loop" or "one path
//!   between these ends", each with the cells named (`r3c4`).
//! * **Drawing** ([`draw`]): box-drawing characters in a frame, with labels and doors.
//! * **Words** ([`RULES`], [`refine`]): the techniques a person names for these rules (*dead
//!   end*, *only ways out*, *no premature loop*, *parity*, *reachability*), for
//!   [`crate::human::grid::GridVocabulary`].
//! * **Setter's places** ([`LineModel::places`]): every link (`r2c3-r2c4`: line / blank) and
//!   cell (`r2c3`: used / unused) for `forced`.

pub mod answer;
pub mod cells;
pub mod crossings;
pub mod draw;
pub mod pairs;
pub mod ways;

pub use crate::constraints::PathVars;
use crate::constraints::{BoolSum, LoopRules, PathRules, SingleLoop, SinglePath, SumRule};
use crate::domain::Domain;
use crate::engine::{
    Brancher, Conflict, Decision, Engine, EngineSearch, Passes, Priority, Probe, Step, VarId, FALSE, TRUE,
};
use crate::grid::{CellId, Shape};
use crate::human::grid::GridNames;
use crate::human::RuleInfo;
use crate::puzzle::Violation;
use crate::setter::{Place, Values};
use answer::LineGrid;
pub use cells::CellLine;

/// Which optional line rules run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRules {
    /// Close a link that would close a cycle too early (`loops`).
    pub loops: bool,
    /// Reachability (`connect`).
    pub connect: bool,
    /// Crossing parity of the row and column cuts (`cuts`).
    pub cuts: bool,
    /// Failed-literal probing of the cells at each node (`probe`).
    pub probe: bool,
}

impl LineRules {
    /// Every rule on.
    pub const ALL: LineRules = LineRules {
        loops: true,
        connect: true,
        cuts: true,
        probe: true,
    };
    /// Only the line's definition.
    pub const NONE: LineRules = LineRules {
        loops: false,
        connect: false,
        cuts: false,
        probe: false,
    };
    /// The optional rules' names (`--set rules=-cuts`).
    pub const OPTIONAL: [&'static str; 4] = ["loops", "connect", "cuts", "probe"];

    /// Reads a rule list (`all`, `none`, `-cuts,-probe`, `connect`; see [`crate::switches`]).
    pub fn parse(spec: &str) -> Result<LineRules, String> {
        let switches = crate::switches::Switches {
            default: LineRules::ALL,
            none: LineRules::NONE,
            presets: vec![("all", LineRules::ALL), ("none", LineRules::NONE)],
            names: &LineRules::OPTIONAL,
        };
        crate::switches::parse(spec, &switches, LineRules::flag, |_, key, value| {
            Err(format!("unknown setting `{key}={value}`"))
        })
    }

    fn flag<'x>(&'x mut self, name: &str) -> Option<&'x mut bool> {
        Some(match name {
            "loops" => &mut self.loops,
            "connect" => &mut self.connect,
            "cuts" => &mut self.cuts,
            "probe" => &mut self.probe,
            _ => return None,
        })
    }
}

/// The `rules` setting of the line genres (`--set rules=-cuts,-probe`).
pub const RULES_SETTING: crate::puzzle::SettingInfo = crate::puzzle::SettingInfo {
    key: "rules",
    summary:
        "the optional line rules: all (default), none, or changes such as -cuts,-probe (loops, connect, cuts, probe)",
};

/// The line rules the options ask for ([`RULES_SETTING`]; every rule by default).
pub fn rules_of(opts: &crate::puzzle::RunOptions) -> Result<LineRules, crate::error::PuzzleError> {
    match opts.setting("rules") {
        Some(spec) => LineRules::parse(spec).map_err(crate::error::PuzzleError::unsupported),
        None => Ok(LineRules::ALL),
    }
}

/// A line answer in the forms `what` asks for: the answer text, the drawing (`pretty`, made
/// only when asked) and JSON rows of tokens.
pub fn rendered(g: &LineGrid, what: crate::puzzle::Render, pretty: impl FnOnce() -> String) -> crate::puzzle::Rendered {
    crate::puzzle::Rendered {
        text: if what.text() { answer::write(g) } else { String::new() },
        pretty: if what.pretty() { pretty() } else { String::new() },
        json: if what.json() {
            answer::json(g)
        } else {
            serde_json::Value::Null
        },
    }
}

/// A closed loop drawn as the boundary of a set of the `(h−1)×(w−1)` blocks of 2×2 cell
/// centres: the set is kept 4-connected and simply connected and no two of its blocks meet at
/// a corner alone, so its boundary is always one simple loop ([`Blob::grid`]). Generators grow
/// it at random ([`Blob::random`]) and reshape it one block at a time ([`Blob::toggle_near`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blob {
    shape: Shape,
    h: usize,
    w: usize,
    inside: Vec<bool>,
    size: usize,
}

impl Blob {
    fn at(&self, r: isize, c: isize) -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < self.h
            && (c as usize) < self.w
            && self.inside[r as usize * self.w + c as usize]
    }

    /// Can block `b` join (when out) or leave (when in) with the boundary staying one simple
    /// loop? Its ring of eight blocks must show one arc (Yokoi's connectivity number for
    /// 4-connectivity is 1), and no two blocks may come to meet at a corner alone.
    pub fn can_toggle(&self, b: usize) -> bool {
        let (r, c) = ((b / self.w) as isize, (b % self.w) as isize);
        let ring: Vec<bool> = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]
            .iter()
            .map(|(dr, dc)| self.at(r + dr, c + dc))
            .collect();
        let yokoi: i32 = (0..4)
            .map(|k| {
                let (e, d, f) = (ring[2 * k], ring[2 * k + 1], ring[(2 * k + 2) % 8]);
                i32::from(e) - i32::from(e && d && f)
            })
            .sum();
        let pinch = if self.inside[b] {
            // Leaving: two edge neighbours of one corner would meet there alone.
            (0..4).any(|k| ring[2 * k] && ring[(2 * k + 2) % 8] && !ring[2 * k + 1])
        } else {
            (0..4).any(|k| ring[2 * k + 1] && !ring[2 * k] && !ring[(2 * k + 2) % 8])
        };
        yokoi == 1 && !pinch && !(self.inside[b] && self.size == 1)
    }

    /// Adds or removes block `b` when [`Blob::can_toggle`] allows it; returns whether it did.
    pub fn toggle(&mut self, b: usize) -> bool {
        if !self.can_toggle(b) {
            return false;
        }
        self.inside[b] = !self.inside[b];
        if self.inside[b] {
            self.size += 1;
        } else {
            self.size -= 1;
        }
        true
    }

    /// Toggles a random one of the blocks that touch cell `c` (as a corner), if any can be.
    pub fn toggle_near(&mut self, c: CellId, rng: &mut crate::rng::SplitMix64) -> bool {
        let (r, k) = self.shape.coords(c);
        let mut blocks: Vec<usize> = [(0, 0), (0, 1), (1, 0), (1, 1)]
            .iter()
            .filter_map(|&(dr, dc)| {
                let (br, bc) = ((r + 1).checked_sub(1 + dr)?, (k + 1).checked_sub(1 + dc)?);
                (br < self.h && bc < self.w).then_some(br * self.w + bc)
            })
            .collect();
        rng.shuffle(&mut blocks);
        blocks.into_iter().any(|b| self.toggle(b))
    }

    /// A random blob: one random block, grown by random neighbouring blocks to between a third
    /// and two thirds of them. `None` on grids with fewer than 2 rows or columns.
    pub fn random(shape: Shape, rng: &mut crate::rng::SplitMix64) -> Option<Blob> {
        let (h, w) = (shape.height.checked_sub(1)?, shape.width.checked_sub(1)?);
        if h == 0 || w == 0 {
            return None;
        }
        let n = h * w;
        let mut blob = Blob {
            shape,
            h,
            w,
            inside: vec![false; n],
            size: 1,
        };
        blob.inside[rng.below(n)] = true;
        let target = n / 3 + rng.below(n / 3 + 1);
        let mut frontier: Vec<usize> = Vec::new();
        let mut stalled = 0;
        while blob.size < target && stalled < 4 * n {
            frontier.clear();
            for b in 0..n {
                let (r, c) = ((b / w) as isize, (b % w) as isize);
                if !blob.inside[b]
                    && [(-1, 0), (1, 0), (0, -1), (0, 1)]
                        .iter()
                        .any(|(dr, dc)| blob.at(r + dr, c + dc))
                {
                    frontier.push(b);
                }
            }
            let Some(&b) = frontier.get(rng.below(frontier.len().max(1))) else {
                break;
            };
            if !blob.toggle(b) {
                stalled += 1;
            }
        }
        Some(blob)
    }

    /// The loop: a link between two cell centres is on it when exactly one of the two blocks
    /// beside it is in the blob.
    pub fn grid(&self) -> LineGrid {
        let shape = self.shape;
        let mut g = LineGrid::filled(shape, 0);
        for r in 0..shape.height {
            for c in 0..shape.width {
                let (ri, ci) = (r as isize, c as isize);
                let id = shape.id(r, c);
                if c + 1 < shape.width && self.at(ri - 1, ci) != self.at(ri, ci) {
                    g[id] |= answer::E;
                    g[shape.id(r, c + 1)] |= answer::W;
                }
                if r + 1 < shape.height && self.at(ri, ci - 1) != self.at(ri, ci) {
                    g[id] |= answer::S;
                    g[shape.id(r + 1, c)] |= answer::N;
                }
            }
        }
        g
    }
}

/// A line on a grid: a path between two ends, or a closed loop (see the module docs).
#[derive(Clone, Debug)]
pub struct LineModel {
    /// The link and cell variables.
    pub vars: PathVars,
    /// The path's two ends; `None` for a loop.
    pub ends: Option<(CellId, CellId)>,
}

impl LineModel {
    /// The variables of a line on a `shape` grid, on `engine` (nothing posted yet).
    pub fn new(engine: &mut Engine, shape: Shape, ends: Option<(CellId, CellId)>) -> Self {
        LineModel {
            vars: PathVars::new(engine, shape),
            ends,
        }
    }

    /// The grid.
    pub fn shape(&self) -> Shape {
        self.vars.shape()
    }

    /// Posts the line's definition and the optional rules of `rules` (`cuts` included). A
    /// path's ends are fixed visited: `Err` when one cannot be (the genre fixed it unused).
    pub fn post(&self, engine: &mut Engine, rules: LineRules) -> Result<(), Conflict> {
        match self.ends {
            Some((a, b)) => {
                let path = SinglePath {
                    vars: self.vars.clone(),
                    a,
                    b,
                };
                let r = PathRules {
                    loops: rules.loops,
                    connect: rules.connect,
                };
                path.post(engine, r)?;
            }
            None => SingleLoop {
                vars: self.vars.clone(),
            }
            .post(
                engine,
                LoopRules {
                    loops: rules.loops,
                    connect: rules.connect,
                },
            ),
        }
        if rules.cuts {
            self.cut_parities(engine);
        }
        Ok(())
    }

    /// `cuts`: each cut between two rows (columns) is crossed an odd number of times exactly
    /// when it separates the ends of a path, an even number of times by a loop.
    pub fn cut_parities(&self, engine: &mut Engine) {
        let shape = self.shape();
        let (h, w) = (shape.height, shape.width);
        let links = &self.vars.links;
        let ends = self.ends.map(|(a, b)| (shape.coords(a), shape.coords(b)));
        let mut cuts = BoolSum::family("cuts");
        cuts.reserve(h + w, links.len());
        // Grid-sized: the limits are polled once per cut (a stop leaves the engine
        // interrupted for good, and the family is not posted).
        for t in 0..h.saturating_sub(1) {
            if engine.should_stop_posting() {
                return;
            }
            let odd = ends.is_some_and(|((ra, _), (rb, _))| (ra <= t) != (rb <= t));
            cuts.add_iter(
                (0..w).map(|c| self.vars.link[links.vertical(t, c) as usize]),
                SumRule::Parity(odd),
            );
        }
        for t in 0..w.saturating_sub(1) {
            if engine.should_stop_posting() {
                return;
            }
            let odd = ends.is_some_and(|((_, ca), (_, cb))| (ca <= t) != (cb <= t));
            cuts.add_iter(
                (0..h).map(|r| self.vars.link[links.horizontal(r, t) as usize]),
                SumRule::Parity(odd),
            );
        }
        if !cuts.is_empty() {
            engine.post(cuts);
        }
    }

    /// The cell's variable ("visited").
    pub fn cell(&self, c: CellId) -> VarId {
        self.vars.cell[c.index()]
    }

    /// The variable of the link from `c` in direction `d` ([`answer::N`] …), if `c` has a
    /// neighbour there.
    pub fn link(&self, c: CellId, d: u8) -> Option<VarId> {
        let o = answer::step(self.shape(), c, d)?;
        let l = self.vars.links.between(c, o)?;
        Some(self.vars.link[l as usize])
    }

    /// The two straight ways through `c` (north–south, west–east), as pairs of link
    /// variables, where both links exist.
    pub fn straight(&self, c: CellId) -> Vec<(VarId, VarId)> {
        [(answer::N, answer::S), (answer::W, answer::E)]
            .into_iter()
            .filter_map(|(a, b)| Some((self.link(c, a)?, self.link(c, b)?)))
            .collect()
    }

    /// The line of a solved (or partly solved) model: each cell's used links.
    pub fn grid(&self, e: &Engine) -> LineGrid {
        let shape = self.shape();
        let mut g = LineGrid::filled(shape, 0);
        for c in shape.all() {
            for (d, _, _) in answer::DIRS {
                if self.link(c, d).is_some_and(|v| e.value(v) == Some(TRUE)) {
                    g[c] |= d;
                }
            }
        }
        g
    }

    /// The probe of the cells (visited, then unused) at every node once the search has met
    /// `after_failures` dead ends, reachability suspended inside probes.
    pub fn probe(&self, after_failures: u64) -> Probe {
        Probe {
            vars: Some(self.vars.cell.clone()),
            max_values: 2,
            passes: Passes::One,
            suspend: Some(Priority::Global),
            descending: true,
            after_failures,
        }
    }

    /// The search of the model posted on `engine`: probing (when `rules.probe`) and
    /// [`LinkBranching`].
    pub fn search(&self, engine: Engine, rules: LineRules) -> EngineSearch<LinkBranching> {
        let mut s = EngineSearch::new(engine, LinkBranching::new(self));
        s.probe = rules.probe.then(|| self.probe(4));
        s
    }

    /// The places facts are about: every cell (used / unused), then every link (line /
    /// blank); `given(c)` marks the cells the puzzle fixes (pearls, doors).
    pub fn places(&self, given: impl Fn(CellId) -> bool) -> Vec<Place> {
        let shape = self.shape();
        let links = &self.vars.links;
        let mut out = Vec::with_capacity(self.vars.link.len() + self.vars.cell.len());
        for c in shape.all() {
            out.push(Place {
                name: shape.name(c),
                var: self.cell(c),
                values: Values::Bool {
                    no: "unused",
                    yes: "used",
                },
                given: given(c),
            });
        }
        for (l, &var) in self.vars.link.iter().enumerate() {
            let (a, b) = links.ends(l as u32);
            out.push(Place {
                name: format!("{}-{}", shape.name(a), shape.name(b)),
                var,
                values: Values::Bool {
                    no: "blank",
                    yes: "line",
                },
                given: false,
            });
        }
        out
    }

    /// How the model's variables are named (links, then cells `used` / `unused`).
    pub fn names(&self) -> GridNames {
        GridNames {
            shape: self.shape(),
            first_cell: self.vars.cell.first().copied().unwrap_or(VarId(0)),
            cell_values: ["unused", "used"],
            links: Some((
                self.vars.links.clone(),
                self.vars.link.first().copied().unwrap_or(VarId(0)),
            )),
        }
    }

    /// Fixes the lines and crosses of a player's `entries` (an answer grid whose cells may
    /// hold any subset of directions, `x` for a cell marked unused, `-` or `.` for nothing):
    /// for hints from a position. `Err` names the first entry that cannot be: off the grid or
    /// contradicting the rules at once.
    pub fn fix_entries(&self, e: &mut Engine, entries: &Entries) -> Result<(), String> {
        let shape = self.shape();
        for c in shape.all() {
            let d = entries.lines[c];
            for (dir, letter, _) in answer::DIRS {
                if d & dir == 0 {
                    continue;
                }
                let Some(v) = self.link(c, dir) else {
                    return Err(format!(
                        "the line from {} to the {letter} leaves the grid",
                        shape.name(c)
                    ));
                };
                if e.assign(v, TRUE).is_err() {
                    return Err(format!(
                        "the line from {} to the {letter} breaks a rule at once",
                        shape.name(c)
                    ));
                }
            }
            if entries.crossed[c] && e.assign(self.cell(c), FALSE).is_err() {
                return Err(format!(
                    "the cell {} marked unused breaks a rule at once",
                    shape.name(c)
                ));
            }
        }
        Ok(())
    }
}

impl crate::genre::Toolkit for LineModel {
    type Answer = LineGrid;
    type Rules = LineRules;
    type Brancher = LinkBranching;
    type Entries = Entries;
    const PARTS: &'static [(&'static [RuleInfo], crate::human::grid::Refine)] = &[(&RULES, refine)];
    fn rules(opts: &crate::puzzle::RunOptions) -> Result<LineRules, crate::error::PuzzleError> {
        rules_of(opts)
    }
    fn all_rules() -> LineRules {
        LineRules::ALL
    }
    fn search(&self, engine: Engine, rules: LineRules) -> EngineSearch<LinkBranching> {
        LineModel::search(self, engine, rules)
    }
    fn decode(&self, engine: &Engine) -> LineGrid {
        self.grid(engine)
    }
    fn names(&self) -> GridNames {
        LineModel::names(self)
    }
    fn places(&self, given: &dyn Fn(CellId) -> bool) -> Vec<Place> {
        LineModel::places(self, given)
    }
    fn fix_entries(&self, engine: &mut Engine, entries: &Entries) -> Result<(), String> {
        LineModel::fix_entries(self, engine, entries)
    }
    fn undecided(&self, engine: &Engine) -> Vec<CellId> {
        self.shape()
            .all()
            .filter(|&c| {
                engine.value(self.cell(c)).is_none()
                    || answer::DIRS
                        .iter()
                        .any(|d| self.link(c, d.0).is_some_and(|v| engine.value(v).is_none()))
            })
            .collect()
    }
}

/// Writes the [`crate::plugin::Puzzle`] methods of a line genre whose answer is a
/// [`LineGrid`] (`parse_solution`, `differences`, `dimensions`, `with_entries`,
/// `wrong_entries`), given its keyword, its grid's shape and how the entries are stored
/// (`self.$entries: Option<Entries>`). Use inside `impl Puzzle`.
#[macro_export]
macro_rules! line_genre_methods {
    ($keyword:expr, $shape:ident, $entries:ident) => {
        fn parse_solution(&self, text: &str) -> Result<$crate::lines::answer::LineGrid, $crate::ParseError> {
            $crate::lines::answer::parse(text, self.$shape(), $keyword)
        }
        fn differences(&self, a: &$crate::lines::answer::LineGrid, b: &$crate::lines::answer::LineGrid) -> Vec<String> {
            $crate::lines::answer::differences(a, b)
        }
        fn dimensions(&self) -> (usize, usize) {
            (self.$shape().height, self.$shape().width)
        }
        fn render(&self, s: &$crate::lines::answer::LineGrid) -> $crate::Rendered {
            self.render_as(s, $crate::Render::All)
        }
        fn with_entries(&self, entries: &str) -> Result<Self, $crate::PuzzleError> {
            let x = $crate::lines::Entries::parse(entries, self.$shape(), $keyword)
                .map_err($crate::PuzzleError::Solution)?;
            let mut p = self.clone();
            p.$entries = Some(x);
            Ok(p)
        }
        fn wrong_entries(
            &self,
            entries: &str,
            solution: &$crate::lines::answer::LineGrid,
        ) -> Option<Vec<$crate::human::Fact>> {
            Some(
                $crate::lines::Entries::parse(entries, self.$shape(), $keyword)
                    .ok()?
                    .wrong(solution),
            )
        }
    };
}

/// A player's position on a line genre: the lines drawn (any directions per cell) and the
/// cells marked unused (`x`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entries {
    /// The directions drawn from each cell.
    pub lines: LineGrid,
    /// The cells marked unused.
    pub crossed: crate::grid::Grid<bool>,
}

impl Entries {
    /// Reads entries (see [`LineModel::fix_entries`]); a line drawn from one cell counts for
    /// both of its cells.
    pub fn parse(text: &str, shape: Shape, keyword: &str) -> Result<Entries, crate::error::ParseError> {
        let mut s = crate::scan::Scanner::new(text);
        if s.clone().next_token().is_some_and(|t| t.text == keyword) {
            s.header(keyword)?;
        }
        let cells = s.grid_rows(shape.height, shape.width, |t| match t.text {
            "x" => Ok((0, true)),
            "." => Ok((0, false)),
            other => answer::parse_token(other).map(|d| (d, false)).ok_or_else(|| {
                format!(
                    "expected lines drawn (letters n, s, e, w), x for a cell marked unused, or - , found `{}`",
                    crate::scan::shorten(other)
                )
            }),
        })?;
        s.finish("the entries")?;
        let mut lines = LineGrid::filled(shape, 0);
        let mut crossed = crate::grid::Grid::filled(shape, false);
        for (i, &(d, x)) in cells.iter().enumerate() {
            let c = CellId::from_index(i);
            crossed[c] = x;
            for (dir, _, _) in answer::DIRS {
                if d & dir != 0 {
                    lines[c] |= dir;
                    if let Some(o) = answer::step(shape, c, dir) {
                        lines[o] |= answer::opposite(dir);
                    }
                }
            }
        }
        Ok(Entries { lines, crossed })
    }

    /// The entries a `solution` does not have: lines it does not draw (`r2c3-r2c4` = `line`)
    /// and crossed cells it uses (`r2c3` = `unused`).
    pub fn wrong(&self, solution: &LineGrid) -> Vec<crate::human::Fact> {
        let shape = self.lines.shape();
        let mut out = Vec::new();
        for c in shape.all() {
            for dir in [answer::S, answer::E] {
                if self.lines[c] & dir != 0 && solution[c] & dir == 0 {
                    if let Some(o) = answer::step(shape, c, dir) {
                        out.push(crate::human::Fact {
                            cell: format!("{}-{}", shape.name(c), shape.name(o)),
                            value: "line".into(),
                        });
                    }
                }
            }
        }
        for c in shape.all() {
            if self.crossed[c] && solution[c] != 0 {
                out.push(crate::human::Fact {
                    cell: shape.name(c),
                    value: "unused".into(),
                });
            }
        }
        out
    }
}

/// The open link to branch on: at the visited cell with the least slack (open links minus
/// links still needed), tried used first (see the module docs). Ties go to the first cell.
#[derive(Clone, Debug)]
pub struct LinkBranching {
    vars: PathVars,
    /// How many links each cell takes when visited.
    cap: Vec<u8>,
}

impl LinkBranching {
    /// Branching on the links of `m`.
    pub fn new(m: &LineModel) -> Self {
        let mut cap = vec![2u8; m.vars.cell.len()];
        if let Some((a, b)) = m.ends {
            cap[a.index()] = 1;
            cap[b.index()] = 1;
        }
        LinkBranching {
            vars: m.vars.clone(),
            cap,
        }
    }

    /// The open link at the visited cell with the least slack; with no such link, the first
    /// open cell's variable.
    pub fn pick(&self, e: &Engine) -> Option<VarId> {
        let links = &self.vars.links;
        let mut best: Option<(u32, CellId)> = None;
        for (i, &x) in self.vars.cell.iter().enumerate() {
            if e.dom(x) != Domain::single(TRUE) {
                continue;
            }
            let c = CellId::from_index(i);
            let (mut yes, mut open) = (0u32, 0u32);
            for &l in links.at(c) {
                let d = e.dom(self.vars.link[l as usize]);
                if d == Domain::single(TRUE) {
                    yes += 1;
                } else if !d.is_single() {
                    open += 1;
                }
            }
            let need = u32::from(self.cap[i]).saturating_sub(yes);
            if need == 0 || open == 0 {
                continue;
            }
            let slack = open - need.min(open);
            if best.is_none_or(|(b, _)| slack < b) {
                best = Some((slack, c));
            }
        }
        match best {
            Some((_, c)) => links
                .at(c)
                .iter()
                .map(|&l| self.vars.link[l as usize])
                .find(|&v| !e.dom(v).is_single()),
            None => self
                .vars
                .cell
                .iter()
                .chain(&self.vars.link)
                .copied()
                .find(|&v| !e.dom(v).is_single()),
        }
    }
}

impl Brancher for LinkBranching {
    fn branch(&mut self, e: &Engine, out: &mut Vec<Decision>) {
        if let Some(var) = self.pick(e) {
            out.push(Decision::assign(var, TRUE));
            out.push(Decision::assign(var, FALSE));
        }
    }
}

/// The line toolkit's rules for explanations, by level: the techniques its engine steps are
/// refined into ([`refine`]).
pub const RULES: [RuleInfo; 10] = [
    RuleInfo::new("dead-end", "dead end", 1, "the cell cannot get its two lines"),
    RuleInfo::new("line-enters", "line enters", 1, "a line enters the cell"),
    RuleInfo::new(
        "only-ways-out",
        "only ways out",
        1,
        "the cell has exactly as many open links as lines it still needs",
    ),
    RuleInfo::new(
        "cell-complete",
        "cell complete",
        1,
        "the cell has all its lines (or is unused)",
    )
    .bookkeeping(),
    RuleInfo::new("degree", "cell complete", 1, "the cell's lines").bookkeeping(),
    RuleInfo::new("loops", "no premature loop", 2, "the link would close a loop too early"),
    RuleInfo::new("finish", "line complete", 2, "the line is complete"),
    RuleInfo::new("chains", "no premature loop", 2, "no loop may close early"),
    RuleInfo::new(
        "cuts",
        "parity",
        3,
        "a closed loop crosses every cut an even number of times (a path: odd exactly between its ends)",
    ),
    RuleInfo::new(
        "connect",
        "reachability",
        4,
        "the line cannot reach these cells and links together with the cells it must visit",
    ),
];

/// The technique of a `degree` step: a cell left unused is a *dead end*, a cell made visited
/// by a line is *line enters*, links made lines are *only ways out*, else *cell complete*.
pub fn refine(names: &GridNames, step: &Step, after: &[Domain]) -> Option<&'static str> {
    (step.rule == "degree").then(|| {
        if names.sets(step, after, true, FALSE) {
            "dead-end"
        } else if names.sets(step, after, true, TRUE) {
            "line-enters"
        } else if names.sets(step, after, false, TRUE) {
            "only-ways-out"
        } else {
            "cell-complete"
        }
    })
}

/// Every way `g` breaks "one line" (a closed loop when `ends` is `None`, else one path
/// between the ends), each with the cells named: a direction its neighbour does not return
/// (`line`), a cell with one or more than two directions (`degree`; an end must have exactly
/// one), and more than one piece (`connected`). `cell_name` names a cell (`r2c3`).
pub fn check(g: &LineGrid, ends: Option<(CellId, CellId)>) -> Vec<Violation> {
    let shape = g.shape();
    let mut out = Vec::new();
    for c in shape.all() {
        for (d, letter, _) in answer::DIRS {
            if g[c] & d == 0 {
                continue;
            }
            match answer::step(shape, c, d) {
                None => out.push(Violation::new(
                    shape.name(c),
                    "line",
                    format!("the line leaves the grid at {} ({letter})", shape.name(c)),
                )),
                Some(o) if g[o] & answer::opposite(d) == 0 => out.push(Violation::new(
                    shape.name(c),
                    "line",
                    format!(
                        "{} has a line to {} ({letter}), which has none back",
                        shape.name(c),
                        shape.name(o)
                    ),
                )),
                _ => {}
            }
        }
        let n = g[c].count_ones();
        let end = ends.is_some_and(|(a, b)| c == a || c == b);
        let bad = if end { n != 1 } else { n != 0 && n != 2 };
        if bad {
            let want = if end {
                "exactly one line (an end)"
            } else {
                "two lines or none"
            };
            out.push(Violation::new(
                shape.name(c),
                "degree",
                format!(
                    "{} has {n} line{}; a cell takes {want}",
                    shape.name(c),
                    if n == 1 { "" } else { "s" }
                ),
            ));
        }
    }
    // The pieces: cells joined by lines both ways.
    let mut piece = vec![u32::MAX; shape.cells()];
    let mut pieces: Vec<CellId> = Vec::new();
    for c in shape.all() {
        if g[c] == 0 || piece[c.index()] != u32::MAX {
            continue;
        }
        let id = pieces.len() as u32;
        pieces.push(c);
        let mut stack = vec![c];
        piece[c.index()] = id;
        while let Some(u) = stack.pop() {
            for (d, _, _) in answer::DIRS {
                if g[u] & d == 0 {
                    continue;
                }
                if let Some(o) = answer::step(shape, u, d) {
                    if g[o] & answer::opposite(d) != 0 && piece[o.index()] == u32::MAX {
                        piece[o.index()] = id;
                        stack.push(o);
                    }
                }
            }
        }
    }
    match pieces.len() {
        0 => out.push(Violation::new("grid", "connected", "there is no line".to_string())),
        1 => {}
        n => out.push(Violation::new(
            shape.name(pieces[1]),
            "connected",
            format!(
                "the line is in {n} pieces (one through {}, another through {}); it must be one {}",
                shape.name(pieces[0]),
                shape.name(pieces[1]),
                if ends.is_some() { "path" } else { "loop" }
            ),
        )),
    }
    if let Some((a, b)) = ends {
        if pieces.len() == 1 && (piece[a.index()] != 0 || piece[b.index()] != 0) {
            out.push(Violation::new(
                shape.name(a),
                "connected",
                format!("the line does not join {} and {}", shape.name(a), shape.name(b)),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests;
