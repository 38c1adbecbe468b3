//! The default solver: a link model with constraint propagation, searched on the core driver.
//!
//! # Model
//! Instead of growing the path from door A (Algorithm 3, and [`crate::extend`]), the solver
//! decides one yes/no variable per pair of adjacent cells, "the path uses this link"
//! ([`pencilbox_core::links`]), plus one per cell, "the path visits this cell". Definition 1 of
//! the paper becomes local constraints that propagate anywhere in the grid:
//!
//! | rule      | what it enforces (and deduces)                                                     |
//! |-----------|------------------------------------------------------------------------------------|
//! | `degree`  | a visited cell has exactly two path links, a door exactly one, an unvisited cell none; a cell with a chosen link is visited, a cell that cannot get two links is not; when a cell's open links are exactly what it still needs they are all chosen, when it has what it needs the rest are closed |
//! | `lines`   | a clued row or column visits exactly its clue: when it has that many, its other cells are closed; when it has only that many left open, they are all visited (the paper's clue test, line 11 of Algorithm 3, applied to the whole line) |
//! | `loops`   | chosen links never close a cycle; the link that would join the two ends of one chain is closed in advance ([`Chains`]) |
//! | `cuts`    | the path crosses the cut between two consecutive rows (columns) an odd number of times exactly when the doors lie on different sides of it; the last open link of a cut is decided by this parity |
//! | `colours` | when every row (or every column) is clued the path's length `L` is known, and on the checkerboard the path alternates colours: door A's colour holds `⌈L/2⌉` of its cells and the other `⌊L/2⌋`, counted like a line |
//! | `connect` | the path is a simple path from A to B in the graph of open cells and links, so only cells on *some* simple A–B path of that graph can be visited (the biconnected blocks on the block–cut-tree path, [`Flood::between_links`]) and the cut cells between those blocks must be |
//! | `probe`   | failed-literal probing: at each node every open cell is tried visited and closed; a value whose propagation fails fixes the other (one pass, without `connect` inside the probes) |
//! | `finish`  | when the chain from A reaches B, every cell off it is closed (a visited cell off it is a contradiction) |
//!
//! `degree`, `lines` and `finish` define the puzzle and are always on; `loops`, `cuts`,
//! `colours`, `connect` and `probe` are deductions that can be switched off
//! (`--set rules=-cuts`) to measure what each pays. `--stats` reports, per rule, how many
//! branches it refuted. `cuts` generalises the crossing argument behind the paper's Theorem 2
//! (with both doors in one row, a row whose clue is 1 makes the puzzle unsolvable: the path
//! would have to cross that row twice through its single cell) to every cut of every partial
//! state, not only to the clues at the start.
//!
//! # Search
//! Propagation runs to a fixpoint after each decision; then the state branches ([`Branching`]):
//! * `lines` — visit, then close, an open cell of the clued line with the fewest ways
//!   `C(open, owed)` to place the cells it still owes (more than one), choosing the cell whose
//!   crossing line has the fewest; when every clued line is settled, as `links`;
//! * `links` — choose, then close, an open link at the visited cell with the least slack (open
//!   links minus links still needed).
//!
//! Both branches fix one variable both ways, so they are disjoint and counts are exact. A node
//! whose chain from A has reached B is a solution: every variable is decided there and every
//! clue met. The default `auto` races several such searches ([`crate::solve`]); a search made
//! with [`LinkSearch::with_seed`] breaks ties between equally good choices at random.

use crate::model::{configuration_from_path, Configuration, PathPuzzle};
use pencilbox_core::links::{Chains, LinkId, Links};
use pencilbox_core::reach::Flood;
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::search::{Backtrack, Expand};
use pencilbox_core::switches::{self, Switches};
use pencilbox_core::{CellId, Shape};

/// The names of the rules, in the order of [`LinkSearch::refutations`].
pub const RULES: [&str; 7] = ["degree", "lines", "loops", "cuts", "colours", "connect", "finish"];
const DEGREE: usize = 0;
const LINES: usize = 1;
const LOOPS: usize = 2;
const CUTS: usize = 3;
const COLOURS: usize = 4;
const CONNECT: usize = 5;
const FINISH: usize = 6;

/// Which optional deductions are on, and how the search branches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Close the link that would make a chain a loop.
    pub loops: bool,
    /// Crossing parity of the row and column cuts.
    pub cuts: bool,
    /// Checkerboard colour counts when the path length is known.
    pub colours: bool,
    /// Only cells on some simple path from door A to door B; cut cells are visited.
    pub connect: bool,
    /// Failed-literal probing of every open cell at every node.
    pub probe: bool,
    /// How the search branches (`branch=auto|lines|links` in a rule list).
    pub branch: Branching,
    /// `auto`'s slice: how many nodes each racer runs before the next takes its turn
    /// (`slice=N` in a rule list; default [`RACE_SLICE`]).
    pub slice: u64,
    /// How many racers `auto` may use (`racers=N`, 1 to 6; default 6): line and link
    /// branching, then copies of each with random tie-breaking that join the race later.
    pub racers: u8,
}

/// The default slice of `auto` branching: about 20 ms of search on a 10×10 grid, so an
/// instance line branching settles quickly never pays for the race (measured on the bundled
/// sets and on random planted instances with `examples/measure` and `examples/planted`).
pub const RACE_SLICE: u64 = 1024;

/// The branching rule of the link model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branching {
    /// Visit or close a cell of the clued line with the fewest ways to place the cells it
    /// still owes (falls back to `Links` when every clued line is settled).
    Lines,
    /// Choose or close an open link at the visited cell with the least slack.
    Links,
    /// Both, raced in slices of nodes ([`pencilbox_core::search::race`]) until one ends: each
    /// rule has instances on which it is orders of magnitude slower than the other, and the
    /// race costs at most twice the better one. The default.
    Auto,
}

impl Branching {
    /// The name used in rule lists (`branch=NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Branching::Lines => "lines",
            Branching::Links => "links",
            Branching::Auto => "auto",
        }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::ALL
    }
}

impl Rules {
    /// Every deduction on, the `auto` branching portfolio (the default).
    pub const ALL: Rules = Rules {
        loops: true,
        cuts: true,
        colours: true,
        connect: true,
        probe: true,
        branch: Branching::Auto,
        slice: RACE_SLICE,
        racers: 6,
    };
    /// Only the rules that define the puzzle (`degree`, `lines`, `finish`), `auto` branching.
    pub const NONE: Rules = Rules {
        loops: false,
        cuts: false,
        colours: false,
        connect: false,
        probe: false,
        branch: Branching::Auto,
        slice: RACE_SLICE,
        racers: 6,
    };
    /// The optional rules' names.
    pub const OPTIONAL: [&'static str; 5] = ["loops", "cuts", "colours", "connect", "probe"];

    fn flag(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "loops" => &mut self.loops,
            "cuts" => &mut self.cuts,
            "colours" => &mut self.colours,
            "connect" => &mut self.connect,
            "probe" => &mut self.probe,
            _ => return None,
        })
    }

    /// Reads a rule list: `all`, `none`, the names of the rules that are on (`loops,connect`),
    /// or changes to the default (`-cuts,-probe`); plus `branch=auto|lines|links`, `slice=N`
    /// and `racers=N`.
    ///
    /// ```
    /// use pencilbox_pathpuzzle::fast::Rules;
    /// assert_eq!(Rules::parse("-cuts").unwrap(), Rules { cuts: false, ..Rules::ALL });
    /// assert_eq!(Rules::parse("connect").unwrap(), Rules { connect: true, ..Rules::NONE });
    /// use pencilbox_pathpuzzle::fast::Branching;
    /// assert_eq!(Rules::parse("branch=links").unwrap().branch, Branching::Links);
    /// assert!(Rules::parse("speed").is_err());
    /// ```
    pub fn parse(spec: &str) -> Result<Rules, String> {
        let switches = Switches {
            default: Rules::ALL,
            none: Rules::NONE,
            presets: vec![("all", Rules::ALL), ("none", Rules::NONE)],
            names: &Rules::OPTIONAL,
        };
        // Settings apply after the rules, so a preset never resets them.
        switches::parse(spec, &switches, Rules::flag, |r, key, value| {
            match key {
                "branch" => {
                    r.branch = match value {
                        "lines" => Branching::Lines,
                        "links" => Branching::Links,
                        "auto" => Branching::Auto,
                        _ => return Err(format!("branch wants `auto`, `lines` or `links`, found `{value}`")),
                    }
                }
                "racers" => {
                    r.racers = value
                        .parse()
                        .ok()
                        .filter(|n| (1..=6).contains(n))
                        .ok_or_else(|| format!("racers wants a number from 1 to 6, found `{value}`"))?
                }
                "slice" => {
                    r.slice = value
                        .parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("slice wants a positive number of nodes, found `{value}`"))?
                }
                _ => {
                    return Err(format!(
                        "unknown setting `{key}={value}` (settings: branch=auto|lines|links, slice=N, racers=N)"
                    ))
                }
            }
            Ok(())
        })
        .map_err(|e| {
            if e.starts_with("unknown rule") {
                format!("{e}; degree, lines and finish are always on")
            } else {
                e
            }
        })
    }

    /// The rules that are on and the branching, comma-separated.
    pub fn describe(&self) -> String {
        let on = [self.loops, self.cuts, self.colours, self.connect, self.probe];
        let mut names = vec!["degree", "lines"];
        names.extend(Rules::OPTIONAL.iter().zip(on).filter(|(_, o)| *o).map(|(n, _)| *n));
        names.push("finish");
        let branch = match self.branch {
            Branching::Auto => format!("branch=auto,slice={},racers={}", self.slice, self.racers),
            b => format!("branch={}", b.name()),
        };
        names.push(&branch);
        names.join(",")
    }
}

const NO: u8 = 0;
const YES: u8 = 1;
const OPEN: u8 = 2;

/// A pending propagation step.
#[derive(Clone, Copy, Debug)]
enum Job {
    Cell(u32),
    Row(u32),
    Col(u32),
    /// The cut between rows `t` and `t + 1`.
    RowCut(u32),
    /// The cut between columns `t` and `t + 1`.
    ColCut(u32),
    Colour(u8),
    Finish,
}

/// A branch of the search: a link or a cell and the value given to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Choose (`1`) or close (`0`) a link.
    Link(LinkId, u8),
    /// Visit (`1`) or close (`0`) a cell.
    Cell(CellId, u8),
}

impl Decision {
    /// The same variable with value `v`.
    fn with_value(self, v: u8) -> Decision {
        match self {
            Decision::Link(l, _) => Decision::Link(l, v),
            Decision::Cell(c, _) => Decision::Cell(c, v),
        }
    }
}

/// One undo record.
#[derive(Clone, Copy, Debug)]
enum Undo {
    Link(LinkId),
    Cell(u32),
}

/// A counter pair: decided "yes" and still open.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    yes: u32,
    open: u32,
}

/// The tally cannot reach its count.
struct Infeasible;

impl Tally {
    /// Exactly `need` of the counted cells are visited: fails when that is out of reach, and
    /// gives the value every open cell must take when it is forced (all closed when `need` is
    /// met, all visited when only `need` can still be).
    fn exactly(self, need: u32) -> Result<Option<u8>, Infeasible> {
        if self.yes > need || self.yes + self.open < need {
            Err(Infeasible)
        } else if self.open == 0 {
            Ok(None)
        } else if self.yes == need {
            Ok(Some(NO))
        } else if self.yes + self.open == need {
            Ok(Some(YES))
        } else {
            Ok(None)
        }
    }
}

/// The search state of the link model.
#[derive(Clone, Debug)]
pub struct LinkSearch {
    shape: Shape,
    links: Links,
    rules: Rules,
    door_a: CellId,
    door_b: CellId,
    link: Vec<u8>,
    cell: Vec<u8>,
    /// Per cell: chosen and open incident links.
    deg: Vec<Tally>,
    row_clue: Vec<i32>,
    col_clue: Vec<i32>,
    rows: Vec<Tally>,
    cols: Vec<Tally>,
    /// Cut `t` between rows `t` and `t+1`: crossing links, and whether the doors are split.
    row_cuts: Vec<Tally>,
    row_cut_odd: Vec<bool>,
    col_cuts: Vec<Tally>,
    col_cut_odd: Vec<bool>,
    /// Cells of each checkerboard colour the path needs (`None`: length unknown).
    colour_need: Option<[u32; 2]>,
    colours: [Tally; 2],
    chains: Chains,
    trail: Vec<Undo>,
    marks: Vec<usize>,
    queue: Vec<Job>,
    dead: bool,
    refuted: [u64; RULES.len()],
    flood: Flood,
    separators: Vec<CellId>,
    /// With a seed, ties between equally good branching choices (and the value tried first)
    /// are broken at random, so racers with different seeds explore different trees.
    seed: Option<u64>,
    salt: u64,
    /// Each cell's links by direction (up, left, right, down); `u32::MAX` off the grid.
    toward: Vec<[LinkId; 4]>,
}

type Step = Result<(), usize>;

/// `C(n, k)` as a float (large lines overflow to infinity, which still compares).
fn ways(n: u32, k: u32) -> f64 {
    let k = k.min(n - k);
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

impl LinkSearch {
    /// The root state for `p` whose ties between equally good branching choices (and the value
    /// tried first) are broken at random from `seed`: racers with different seeds explore
    /// different trees.
    pub fn with_seed(p: &PathPuzzle, rules: Rules, seed: u64) -> Self {
        let mut s = LinkSearch::new(p, rules);
        s.seed = Some(seed);
        s
    }

    /// The root state for `p` with the given rules, propagated, with deterministic branching
    /// choices. Run [`crate::checks::no_solution_reason`] first.
    pub fn new(p: &PathPuzzle, rules: Rules) -> Self {
        let shape = p.shape();
        let links = Links::new(shape);
        let clue = |c: &Option<u32>| c.map_or(-1, |v| v as i32);
        let (h, w) = (shape.height, shape.width);
        let mut deg = vec![Tally::default(); shape.cells()];
        for c in shape.all() {
            deg[c.index()].open = links.at(c).len() as u32;
        }
        let (ra, ca) = shape.coords(p.cell_a());
        let (rb, cb) = shape.coords(p.cell_b());
        let colour = |c: CellId| {
            let (r, k) = shape.coords(c);
            (r + k) % 2
        };
        let mut colours = [Tally::default(); 2];
        for c in shape.all() {
            colours[colour(c)].open += 1;
        }
        let row_clue: Vec<i32> = p.row_clues().iter().map(clue).collect();
        let col_clue: Vec<i32> = p.col_clues().iter().map(clue).collect();
        let length = if row_clue.iter().all(|&k| k >= 0) {
            Some(row_clue.iter().sum::<i32>() as u32)
        } else if col_clue.iter().all(|&k| k >= 0) {
            Some(col_clue.iter().sum::<i32>() as u32)
        } else {
            None
        };
        let colour_need = length.filter(|_| rules.colours).map(|l| {
            let mut need = [0; 2];
            need[colour(p.cell_a())] = l.div_ceil(2);
            need[1 - colour(p.cell_a())] = l / 2;
            need
        });
        let mut s = LinkSearch {
            shape,
            rules,
            door_a: p.cell_a(),
            door_b: p.cell_b(),
            link: vec![OPEN; links.len()],
            cell: vec![OPEN; shape.cells()],
            deg,
            rows: vec![Tally { yes: 0, open: w as u32 }; h],
            cols: vec![Tally { yes: 0, open: h as u32 }; w],
            row_clue,
            col_clue,
            row_cuts: vec![Tally { yes: 0, open: w as u32 }; h.saturating_sub(1)],
            row_cut_odd: (0..h.saturating_sub(1)).map(|t| (ra <= t) != (rb <= t)).collect(),
            col_cuts: vec![Tally { yes: 0, open: h as u32 }; w.saturating_sub(1)],
            col_cut_odd: (0..w.saturating_sub(1)).map(|t| (ca <= t) != (cb <= t)).collect(),
            colour_need,
            colours,
            chains: Chains::new(shape.cells()),
            trail: Vec::new(),
            marks: Vec::new(),
            queue: Vec::new(),
            dead: false,
            refuted: [0; RULES.len()],
            flood: Flood::new(shape),
            separators: Vec::new(),
            seed: None,
            salt: 0,
            toward: shape
                .all()
                .map(|c| {
                    let mut t = [LinkId::MAX; 4];
                    for (d, step) in pencilbox_core::grid::ORTHOGONAL.iter().enumerate() {
                        if let Some(n) = shape.step(c, *step) {
                            t[d] = links.between(c, n).expect("neighbours share a link");
                        }
                    }
                    t
                })
                .collect(),
            links,
        };
        let root = s.root();
        if let Err(rule) = root {
            s.refuted[rule] += 1;
            s.dead = true;
        }
        s
    }

    fn root(&mut self) -> Step {
        self.set_cell(self.door_a, YES)?;
        self.set_cell(self.door_b, YES)?;
        let (h, w) = (self.shape.height as u32, self.shape.width as u32);
        (0..h).for_each(|r| self.queue.push(Job::Row(r)));
        (0..w).for_each(|k| self.queue.push(Job::Col(k)));
        if self.rules.cuts {
            (0..h.saturating_sub(1)).for_each(|t| self.queue.push(Job::RowCut(t)));
            (0..w.saturating_sub(1)).for_each(|t| self.queue.push(Job::ColCut(t)));
        }
        if self.colour_need.is_some() {
            self.queue.push(Job::Colour(0));
            self.queue.push(Job::Colour(1));
        }
        (0..h * w).for_each(|c| self.queue.push(Job::Cell(c)));
        self.propagate()
    }

    /// How many branches each rule refuted, in the order of [`RULES`].
    pub fn refutations(&self) -> [u64; RULES.len()] {
        self.refuted
    }

    /// The path of the current (solution) state as a configuration.
    pub fn configuration(&self) -> Configuration {
        configuration_from_path(self.shape, &self.chain_from_a())
    }

    /// The cells of the chain of chosen links starting at door A.
    fn chain_from_a(&self) -> Vec<CellId> {
        let mut path = vec![self.door_a];
        let mut prev = None;
        let mut cur = self.door_a;
        loop {
            let next = self
                .links
                .at(cur)
                .iter()
                .filter(|&&l| self.link[l as usize] == YES)
                .map(|&l| self.links.other(l, cur))
                .find(|&c| Some(c) != prev);
            match next {
                Some(n) if path.len() <= self.cell.len() => {
                    path.push(n);
                    prev = Some(cur);
                    cur = n;
                }
                _ => return path,
            }
        }
    }

    /// The current state as text, one line per grid row: `#` a visited cell, `.` an unvisited
    /// one, `?` an undecided one, with `-`/`|` for chosen links and `x` for closed ones
    /// (undecided links are blank). For tests and debugging.
    pub fn sketch(&self) -> String {
        let (h, w) = (self.shape.height, self.shape.width);
        let mark = |v: u8, yes: char| match v {
            YES => yes,
            NO => 'x',
            _ => ' ',
        };
        let mut out = String::new();
        for r in 0..h {
            for c in 0..w {
                out.push(match self.cell[self.shape.id(r, c).index()] {
                    YES => '#',
                    NO => '.',
                    _ => '?',
                });
                if c + 1 < w {
                    out.push(mark(self.link[self.links.horizontal(r, c) as usize], '-'));
                }
            }
            out.push('\n');
            if r + 1 < h {
                for c in 0..w {
                    out.push(mark(self.link[self.links.vertical(r, c) as usize], '|'));
                    if c + 1 < w {
                        out.push(' ');
                    }
                }
                out.push('\n');
            }
        }
        out
    }

    #[inline]
    fn cap(&self, c: CellId) -> u32 {
        if c == self.door_a || c == self.door_b {
            1
        } else {
            2
        }
    }

    #[inline]
    fn colour(&self, c: CellId) -> usize {
        let (r, k) = self.shape.coords(c);
        (r + k) % 2
    }

    fn set_link(&mut self, l: LinkId, v: u8) -> Step {
        let cur = self.link[l as usize];
        if cur == v {
            return Ok(());
        }
        if cur != OPEN {
            return Err(DEGREE);
        }
        self.link[l as usize] = v;
        self.trail.push(Undo::Link(l));
        let (p, q) = self.links.ends(l);
        let yes = u32::from(v == YES);
        for c in [p, q] {
            let d = &mut self.deg[c.index()];
            d.open -= 1;
            d.yes += yes;
            self.queue.push(Job::Cell(c.0));
        }
        let (rp, cp) = self.shape.coords(p);
        if self.links.is_horizontal(l) {
            let t = &mut self.col_cuts[cp];
            t.open -= 1;
            t.yes += yes;
            if self.rules.cuts {
                self.queue.push(Job::ColCut(cp as u32));
            }
        } else {
            let t = &mut self.row_cuts[rp];
            t.open -= 1;
            t.yes += yes;
            if self.rules.cuts {
                self.queue.push(Job::RowCut(rp as u32));
            }
        }
        if v == YES {
            for c in [p, q] {
                if self.cell[c.index()] == NO || self.deg[c.index()].yes > self.cap(c) {
                    return Err(DEGREE);
                }
                // A cell with a chosen link is visited (at once, so that `finish` counts it).
                self.set_cell(c, YES)?;
            }
            let (e1, e2) = self.chains.join(p, q).map_err(|_| LOOPS)?;
            let doors = (self.door_a, self.door_b);
            if (e1, e2) == doors || (e2, e1) == doors {
                self.queue.push(Job::Finish);
            } else if self.rules.loops {
                if let Some(closing) = self.links.between(e1, e2) {
                    if self.link[closing as usize] == OPEN {
                        self.set_link(closing, NO)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn set_cell(&mut self, c: CellId, v: u8) -> Step {
        let cur = self.cell[c.index()];
        if cur == v {
            return Ok(());
        }
        if cur != OPEN {
            return Err(DEGREE);
        }
        self.cell[c.index()] = v;
        self.trail.push(Undo::Cell(c.0));
        let (r, k) = self.shape.coords(c);
        let yes = u32::from(v == YES);
        let colour = self.colour(c);
        for t in [&mut self.rows[r], &mut self.cols[k], &mut self.colours[colour]] {
            t.open -= 1;
            t.yes += yes;
        }
        self.queue.push(Job::Cell(c.0));
        self.queue.push(Job::Row(r as u32));
        self.queue.push(Job::Col(k as u32));
        if self.colour_need.is_some() {
            self.queue.push(Job::Colour(colour as u8));
        }
        Ok(())
    }

    fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            match self.trail.pop() {
                Some(Undo::Link(l)) => {
                    let yes = u32::from(self.link[l as usize] == YES);
                    self.link[l as usize] = OPEN;
                    let (p, q) = self.links.ends(l);
                    for c in [p, q] {
                        let d = &mut self.deg[c.index()];
                        d.open += 1;
                        d.yes -= yes;
                    }
                    let (rp, cp) = self.shape.coords(p);
                    let t = if self.links.is_horizontal(l) {
                        &mut self.col_cuts[cp]
                    } else {
                        &mut self.row_cuts[rp]
                    };
                    t.open += 1;
                    t.yes -= yes;
                }
                Some(Undo::Cell(c)) => {
                    let cell = CellId(c);
                    let yes = u32::from(self.cell[cell.index()] == YES);
                    self.cell[cell.index()] = OPEN;
                    let (r, k) = self.shape.coords(cell);
                    let colour = self.colour(cell);
                    for t in [&mut self.rows[r], &mut self.cols[k], &mut self.colours[colour]] {
                        t.open += 1;
                        t.yes -= yes;
                    }
                }
                None => break,
            }
        }
    }

    /// Runs the queue and reachability to a fixpoint.
    fn propagate(&mut self) -> Step {
        loop {
            while let Some(job) = self.queue.pop() {
                match job {
                    Job::Cell(c) => self.cell_rule(CellId(c))?,
                    Job::Row(r) => self.line_rule(true, r as usize)?,
                    Job::Col(k) => self.line_rule(false, k as usize)?,
                    Job::RowCut(t) => self.cut_rule(true, t as usize)?,
                    Job::ColCut(t) => self.cut_rule(false, t as usize)?,
                    Job::Colour(k) => self.colour_rule(k as usize)?,
                    Job::Finish => self.finish()?,
                }
            }
            if !self.rules.connect || !self.connect()? {
                return Ok(());
            }
        }
    }

    fn incident(&self, c: CellId) -> ([LinkId; 4], usize) {
        let at = self.links.at(c);
        let mut out = [0; 4];
        out[..at.len()].copy_from_slice(at);
        (out, at.len())
    }

    fn cell_rule(&mut self, c: CellId) -> Step {
        let Tally { yes, open } = self.deg[c.index()];
        let state = self.cell[c.index()];
        if state == OPEN {
            if yes > 0 {
                return self.set_cell(c, YES);
            }
            if open < 2 {
                return self.set_cell(c, NO);
            }
            return Ok(());
        }
        if state == NO && yes > 0 {
            return Err(DEGREE);
        }
        if open == 0 {
            return if state == YES && yes < self.cap(c) {
                Err(DEGREE)
            } else {
                Ok(())
            };
        }
        let value = if state == NO || yes == self.cap(c) {
            NO
        } else if yes + open == self.cap(c) {
            YES
        } else if yes + open < self.cap(c) {
            return Err(DEGREE);
        } else {
            return Ok(());
        };
        let (inc, n) = self.incident(c);
        for &l in &inc[..n] {
            if self.link[l as usize] == OPEN {
                self.set_link(l, value)?;
            }
        }
        Ok(())
    }

    fn line_rule(&mut self, is_row: bool, i: usize) -> Step {
        let (clue, t) = if is_row {
            (self.row_clue[i], self.rows[i])
        } else {
            (self.col_clue[i], self.cols[i])
        };
        if clue < 0 {
            return Ok(());
        }
        let Some(value) = t.exactly(clue as u32).map_err(|_| LINES)? else {
            return Ok(());
        };
        let (h, w) = (self.shape.height, self.shape.width);
        let len = if is_row { w } else { h };
        for j in 0..len {
            let c = if is_row {
                self.shape.id(i, j)
            } else {
                self.shape.id(j, i)
            };
            if self.cell[c.index()] == OPEN {
                self.set_cell(c, value)?;
            }
        }
        Ok(())
    }

    fn cut_rule(&mut self, is_row: bool, t: usize) -> Step {
        let (tally, odd) = if is_row {
            (self.row_cuts[t], self.row_cut_odd[t])
        } else {
            (self.col_cuts[t], self.col_cut_odd[t])
        };
        let parity_ok = (tally.yes % 2 == 1) == odd;
        match tally.open {
            0 if !parity_ok => Err(CUTS),
            1 => {
                let len = if is_row { self.shape.width } else { self.shape.height };
                for j in 0..len {
                    let l = if is_row {
                        self.links.vertical(t, j)
                    } else {
                        self.links.horizontal(j, t)
                    };
                    if self.link[l as usize] == OPEN {
                        return self.set_link(l, if parity_ok { NO } else { YES }).map_err(|_| CUTS);
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn colour_rule(&mut self, k: usize) -> Step {
        let Some(need) = self.colour_need else {
            return Ok(());
        };
        let Some(value) = self.colours[k].exactly(need[k]).map_err(|_| COLOURS)? else {
            return Ok(());
        };
        for i in 0..self.cell.len() {
            let c = CellId(i as u32);
            if self.cell[i] == OPEN && self.colour(c) == k {
                self.set_cell(c, value).map_err(|_| COLOURS)?;
            }
        }
        Ok(())
    }

    /// The chain from A has reached B: close every other cell.
    fn finish(&mut self) -> Step {
        let on_path = self.chain_from_a().len() as u32;
        let visited: u32 = self.rows.iter().map(|t| t.yes).sum();
        if visited != on_path {
            return Err(FINISH);
        }
        for i in 0..self.cell.len() {
            if self.cell[i] == OPEN {
                self.set_cell(CellId(i as u32), NO).map_err(|_| FINISH)?;
            }
        }
        Ok(())
    }

    /// Which cells can still carry the path? The path is a simple path from door A to door B
    /// in the graph of open cells and links, so only the cells on *some* simple A–B path of
    /// that graph can be visited (the blocks on the block–cut-tree path, [`Flood::between_links`]),
    /// and the cut cells between those blocks must be. Closes or visits cells accordingly;
    /// `Ok(true)` when it changed any.
    fn connect(&mut self) -> Result<bool, usize> {
        let (cell, link, toward) = (&self.cell, &self.link, &self.toward);
        let width = self.shape.width as u32;
        let reached = self.flood.between_links(
            self.door_a,
            self.door_b,
            |c| cell[c.index()] != NO,
            |u, w| {
                // The direction from u to w (orthogonal neighbours; vertical steps are tested
                // first, as on a grid one cell wide they also differ by one).
                let d = if w.0 + width == u.0 {
                    0
                } else if u.0 + width == w.0 {
                    3
                } else if w.0 + 1 == u.0 {
                    1
                } else {
                    2
                };
                link[toward[u.index()][d] as usize] != NO
            },
        );
        if !reached {
            return Err(CONNECT);
        }
        let mut changed = false;
        for i in 0..self.cell.len() {
            let c = CellId(i as u32);
            if c != self.door_a && !self.flood.reached(c) {
                match self.cell[i] {
                    YES => return Err(CONNECT),
                    OPEN => {
                        self.set_cell(c, NO).map_err(|_| CONNECT)?;
                        changed = true;
                    }
                    _ => {}
                }
            }
        }
        self.separators.clear();
        self.separators.extend_from_slice(self.flood.separators());
        for k in 0..self.separators.len() {
            let c = self.separators[k];
            if self.cell[c.index()] == OPEN {
                self.set_cell(c, YES).map_err(|_| CONNECT)?;
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Is the chain from door A complete (ending at door B)?
    fn complete(&self) -> bool {
        self.deg[self.door_a.index()].yes == 1 && self.chains.other_end(self.door_a) == self.door_b
    }

    /// Failed-literal probing: each open cell is tried visited and closed in turn; when one
    /// value fails the cell takes the other. Probes and the pass propagate with every rule but
    /// `connect`, whose O(cells) fill per fixpoint costs more than it adds there; one full
    /// propagation follows the pass. One pass per node: further passes find little that
    /// branching does not (measured on the 10×10 and 11×11 sets, `examples/measure`).
    fn probe(&mut self) -> Step {
        let before = self.trail.len();
        let connect = std::mem::replace(&mut self.rules.connect, false);
        let result = self.probe_pass();
        self.rules.connect = connect;
        result?;
        // One full propagation (with reachability) for whatever the pass fixed; the state was
        // already at the full fixpoint when the pass fixed nothing.
        if self.trail.len() == before {
            Ok(())
        } else {
            self.propagate()
        }
    }

    fn probe_pass(&mut self) -> Step {
        for i in 0..self.cell.len() {
            if self.cell[i] != OPEN {
                continue;
            }
            self.probe_one(Decision::Cell(CellId(i as u32), YES))?;
        }
        Ok(())
    }

    /// Probes both values of the variable of `d`; a value that fails fixes the other.
    fn probe_one(&mut self, d: Decision) -> Step {
        for v in [YES, NO] {
            let mark = self.trail.len();
            self.chains.new_level();
            self.queue.clear();
            let ok = self.decide(d.with_value(v)).and_then(|_| self.propagate()).is_ok();
            self.undo_to(mark);
            self.chains.backtrack_to(self.chains.level() - 1);
            if !ok {
                self.queue.clear();
                self.decide(d.with_value(1 - v))?;
                return self.propagate();
            }
        }
        Ok(())
    }

    fn decide(&mut self, d: Decision) -> Step {
        match d {
            Decision::Link(l, v) => self.set_link(l, v),
            Decision::Cell(c, v) => self.set_cell(c, v),
        }
    }

    /// A number in `[0, 0.01)` that varies with the node and `x` when the search has a seed;
    /// 0 without one (deterministic choices).
    #[inline]
    fn noise(&self, x: u64) -> f64 {
        if self.seed.is_none() {
            return 0.0;
        }
        let h = SplitMix64::new(self.salt ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64();
        (h >> 11) as f64 / (1u64 << 53) as f64 * 0.01
    }

    /// The cell to branch on with line branching: in the clued row or column with the fewest
    /// ways to place the cells it still owes (`C(open, owed)`, more than one), the open cell
    /// whose crossing line has the fewest.
    fn pick_line(&self) -> Option<CellId> {
        let mut best: Option<(f64, bool, usize)> = None;
        for (is_row, clues, tallies) in [(true, &self.row_clue, &self.rows), (false, &self.col_clue, &self.cols)] {
            for (i, (&k, t)) in clues.iter().zip(tallies.iter()).enumerate() {
                if k < 0 || t.open == 0 {
                    continue;
                }
                let w = ways(t.open, k as u32 - t.yes);
                // Ties (and, with a seed, near-ties) are broken by the search's noise.
                let key = w * (1.0 + self.noise((i as u64) << 1 | u64::from(is_row)));
                if w > 1.0 && best.is_none_or(|(b, _, _)| key < b) {
                    best = Some((key, is_row, i));
                }
            }
        }
        let (_, is_row, i) = best?;
        let len = if is_row { self.shape.width } else { self.shape.height };
        // Within it, the cell whose crossing line is the most constrained.
        let cross = |c: CellId| -> f64 {
            let (r, k) = self.shape.coords(c);
            let (clue, t) = if is_row {
                (self.col_clue[k], self.cols[k])
            } else {
                (self.row_clue[r], self.rows[r])
            };
            if clue < 0 {
                f64::INFINITY
            } else {
                ways(t.open, clue as u32 - t.yes) * (1.0 + self.noise(1000 + c.0 as u64))
            }
        };
        (0..len)
            .map(|j| {
                if is_row {
                    self.shape.id(i, j)
                } else {
                    self.shape.id(j, i)
                }
            })
            .filter(|c| self.cell[c.index()] == OPEN)
            .min_by(|&x, &y| cross(x).total_cmp(&cross(y)))
    }

    /// The open link to branch on: at the visited cell with the least slack.
    fn pick(&self) -> Option<LinkId> {
        let mut best: Option<((u32, u32), CellId)> = None;
        for i in 0..self.cell.len() {
            if self.cell[i] != YES {
                continue;
            }
            let c = CellId(i as u32);
            let Tally { yes, open } = self.deg[i];
            let need = self.cap(c) - yes;
            if need == 0 || open == 0 {
                continue;
            }
            let slack = open - need;
            // Ties are broken by the search's noise (none without a seed: the first cell).
            let key = (slack, (self.noise(c.0 as u64) * 1e6) as u32);
            if best.is_none_or(|(b, _)| key < b) {
                best = Some((key, c));
            }
        }
        let (_, c) = best?;
        self.links
            .at(c)
            .iter()
            .copied()
            .find(|&l| self.link[l as usize] == OPEN)
    }
}

impl Backtrack for LinkSearch {
    type Branch = Decision;

    fn expand(&mut self, out: &mut Vec<Decision>) -> Expand {
        if self.dead {
            return Expand::Dead;
        }
        if self.complete() {
            return Expand::Solution;
        }
        if self.rules.probe {
            match self.probe() {
                Err(rule) => {
                    self.refuted[rule] += 1;
                    return Expand::Dead;
                }
                Ok(()) => {
                    if self.complete() {
                        return Expand::Solution;
                    }
                }
            }
        }
        if let Some(seed) = self.seed {
            self.salt = SplitMix64::new(self.salt ^ seed).next_u64();
        }
        // Without a seed the first value tried is "yes"; with one, either.
        let first = if self.seed.is_some() && self.noise(u64::MAX) < 0.005 {
            NO
        } else {
            YES
        };
        if self.rules.branch != Branching::Links {
            if let Some(c) = self.pick_line() {
                out.extend([Decision::Cell(c, first), Decision::Cell(c, 1 - first)]);
                return Expand::Branches;
            }
        }
        match self.pick() {
            Some(l) => {
                out.extend([Decision::Link(l, first), Decision::Link(l, 1 - first)]);
                Expand::Branches
            }
            None => Expand::Dead,
        }
    }

    fn apply(&mut self, d: Decision) -> bool {
        self.marks.push(self.trail.len());
        self.chains.new_level();
        self.queue.clear();
        match self.decide(d).and_then(|_| self.propagate()) {
            Ok(()) => true,
            Err(rule) => {
                self.refuted[rule] += 1;
                false
            }
        }
    }

    fn undo(&mut self, _: Decision) {
        let mark = self.marks.pop().expect("undo follows apply");
        self.undo_to(mark);
        self.chains.backtrack_to(self.marks.len());
    }
}
