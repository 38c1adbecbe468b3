//! The default solver: Path puzzles as a model on the shared engine
//! ([`pencilbox_core::engine`]), searched on the core driver.
//!
//! # Model
//! Instead of growing the path from door A (Algorithm 3 of the paper, Section V, and
//! [`crate::extend`]), the model has one Boolean per pair of adjacent cells, "the path uses
//! this link", and one per cell, "the path visits this cell" ([`PathVars`]). Definition 1 of the
//! paper (Section II) becomes constraints of the engine's library that propagate anywhere in
//! the grid; each is a named rule:
//!
//! | rule      | constraint | what it enforces (and deduces) |
//! |-----------|------------|--------------------------------|
//! | `degree`  | [`SinglePath`] | a visited cell has exactly two path links, a door exactly one, an unvisited cell none; a cell with a chosen link is visited, a cell that cannot get its links is not; when a cell's open links are exactly what it still needs they are all chosen, when it has what it needs the rest are closed |
//! | `lines`   | [`BoolSum`] `Exactly` | a clued row or column visits exactly its clue: when it has that many, its other cells are closed; when only that many are left open, they are all visited (the paper's clue test, line 11 of Algorithm 3, applied to the whole line) |
//! | `chains`  | [`SinglePath`] | chosen links never close a cycle; with `loops` on, the link that would join the two ends of one chain is closed in advance; when the chain from A reaches B every cell off it is closed (`finish`; a visited cell off it is a contradiction) |
//! | `cuts`    | [`BoolSum`] `Parity` | the path crosses the cut between two consecutive rows (columns) an odd number of times exactly when the doors lie on different sides of it; the last open link of a cut is decided by this parity |
//! | `colours` | [`BoolSum`] `Exactly` | when every row (or every column) is clued the path's length `L` is known, and on the checkerboard the path alternates colours: door A's colour holds `⌈L/2⌉` of its cells and the other `⌊L/2⌋` |
//! | `connect` | [`SinglePath`] | the path is a simple path from A to B in the graph of open cells and links, so only cells on *some* simple A–B path of that graph can be visited (the blocks on the block–cut-tree path) and the cut cells between those blocks must be; runs last ([`Priority::Global`]) |
//! | `probe`   | [`Probe`] | failed-literal probing: at each node (once the search has met [`PROBE_AFTER_FAILURES`] dead ends) every open cell is tried visited, then closed; a value whose propagation fails fixes the other (one pass, in cell order, with `connect` suspended inside the probes and one full propagation after a pass that fixed anything) |
//! | `pairs`   | [`Pairs`] (off by default; a search past [`PAIRS_AFTER`] nodes on a grid up to 16×16 restarts with it) | two neighbouring rows (columns) solved together by dynamic programming: every way to place their path cells with the lines each needs, crossing the three cuts with their parities and closing no loop inside the two lines, agrees on a value (core's line toolkit, the rule `explain` calls "ways in two lines"); runs at the root and in the first [`PAIRS_DEPTH`] levels of the search, on the pairs whose variables changed |
//!
//! `degree`, `lines` and `chains` define the puzzle and are always on (every propagator must
//! check its constraint when its variables are fixed: a node where every variable is fixed is a
//! solution); `loops`, `cuts`, `colours`, `connect` and `probe` are deductions that can be
//! switched off (`--set rules=-cuts`) to measure what each pays; `pairs` is switched on with
//! `--set rules=+pairs` (from the start). It is off by default because it is a trade, not a
//! gain everywhere (BENCHMARKS.md, "Path: `pairs`"): it settles puzzles with unclued lines whose
//! search otherwise wanders (`bench-12x12/partial-02`: 14,336 nodes and 0.56 s without it, 532
//! nodes and 24 ms with it), but its sweep at the root costs a 12×12 puzzle about 1 ms, and the
//! 20 hard 20×20 puzzles about a tenth more in total. So by default a search pays for it only
//! once it wanders: on grids of at most [`PAIRS_AFTER_CELLS`] cells, a `solve` or `count` still
//! running after [`PAIRS_AFTER`] nodes starts again with `pairs` on ([`Rules::pairs_after`],
//! `pairs_after=N` in a rule list; `-pairs` turns the restart off too; `partial-02`: 788 nodes,
//! 33 ms). `--stats` reports, per rule,
//! how many conflicts it found ([`Engine::rule_stats`]: refuted branches and refuted probe
//! values; `probe`: values probed and refuted). `cuts` generalises the crossing argument behind
//! the paper's Theorem 2 (Section III: with both doors in one row, a row whose clue is 1 makes
//! the puzzle unsolvable, since the path would have to cross that row twice through its single
//! cell) to every cut of every partial state, not only to the clues at the start.
//!
//! The sums of one rule form one family ([`BoolSum::add`]): one propagator for all the clued
//! lines, one for the cuts, one for the two colours, so a cell is watched once for its row and
//! its column.
//!
//! # Search
//! Propagation runs to a fixpoint after each decision; probing follows; then the node branches
//! ([`LinkBranching`], reading the engine's domains):
//! * `lines` — visit, then close, an open cell of the clued line with the fewest ways
//!   `C(open, owed)` to place the cells it still owes (more than one), choosing the cell whose
//!   crossing line has the fewest; when every clued line is settled, as `links`;
//! * `links` — choose, then close, an open link at the visited cell with the least slack (open
//!   links minus links still needed).
//!
//! Both branches fix one variable both ways, so they are disjoint and counts are exact. The
//! default `auto` races several such searches ([`crate::solve`]); a search made with a seed
//! breaks ties between equally good choices at random.

use crate::model::{configuration_from_path, Configuration, PathPuzzle};
use pencilbox_core::constraints::{BoolSum, PathRules, PathVars, SinglePath, SumRule};
use pencilbox_core::engine::{Brancher, Decision, Engine, EngineSearch, Passes, Priority, Probe, FALSE, TRUE};
use pencilbox_core::lines::pairs::Pairs;
use pencilbox_core::lines::LineModel;
use pencilbox_core::links::LinkId;
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::switches::{self, Switches};
use pencilbox_core::{CellId, Domain, Limits, Shape};
use std::sync::Arc;

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
    /// Two neighbouring rows (columns) solved together ([`Pairs`]), at the root and in the
    /// first [`PAIRS_DEPTH`] levels of the search.
    pub pairs: bool,
    /// How the search branches (`branch=auto|lines|links` in a rule list).
    pub branch: Branching,
    /// `auto`'s slice: how many nodes each racer runs before the next takes its turn
    /// (`slice=N` in a rule list; default [`RACE_SLICE`]).
    pub slice: u64,
    /// How many racers `auto` may use (`racers=N`, 1 to 6; default 6): line and link
    /// branching, then copies of each with random tie-breaking that join the race later.
    pub racers: u8,
    /// The node budget of the walk that runs before the model is built ([`crate::quick`]:
    /// Algorithm 3's walk with cheap cuts; `quick=N` in a rule list, 0 = no walk). Default
    /// [`QUICK_BUDGET`] with every rule on, 0 with `none`.
    pub quick: u64,
    /// With `pairs` off, on a grid of at most [`PAIRS_AFTER_CELLS`] cells: a search still
    /// running after this many nodes starts again with `pairs` on (`pairs_after=N` in a rule
    /// list, 0 = never; default [`PAIRS_AFTER`]; `-pairs` sets 0). Only `solve` and `count`
    /// ([`crate::solve::search`]) restart.
    pub pairs_after: u64,
}

/// The rules of `fast` in core's vocabulary ([`pencilbox_core::rules`]): `degree`, `lines`
/// and `chains` define the puzzle ([`Rules::ALWAYS`]); the others ([`Rules::OPTIONAL`]) switch
/// with `--set rules=…`.
pub static TABLE: pencilbox_core::rules::RuleTable = pencilbox_core::rules::RuleTable {
    algorithm: "fast",
    rules: &[
        pencilbox_core::rules::Rule::defining("degree", "a door cell has one used link, any other cell none or two"),
        pencilbox_core::rules::Rule::defining("lines", "each clued row and column visits exactly its clue's cells"),
        pencilbox_core::rules::Rule::defining("chains", "the used links form chains; a closed loop is a conflict"),
        pencilbox_core::rules::LOOPS,
        pencilbox_core::rules::CUTS.saying(
            "the path crosses each row and column cut an even number of times, odd when the doors lie on either side",
        ),
        pencilbox_core::rules::Rule::optional(
            "colours",
            "checkerboard colour counts of the visited cells when the path's length is known",
        ),
        pencilbox_core::rules::CONNECT
            .saying("only cells on some simple path from door A to door B stay open; cut cells are visited"),
        pencilbox_core::rules::PROBE,
        pencilbox_core::rules::Rule::optional(
            "pairs",
            "two neighbouring rows (columns) together: every way to place their path cells agrees (at the root and the first 6 levels; by default a search past 256 nodes on a grid up to 16×16 restarts with it)",
        )
        .off_by_default(),
    ],
};

/// The default budget of the walk before the engine ([`crate::quick`]), in nodes of a 6×6
/// grid (larger grids get fewer, by the square of the size ratio): about 10 µs of walking, about what building
/// the link model and its first propagation cost on a 6×6 grid. Puzzles the walk settles within it never pay for the model; the others pay at most
/// that much more. Measured with `scripts/compare-bench.py` (per-column `@rules=quick=N`) on the
/// paper's letters and `examples/path/bench-7x7` to `bench-10x10`: 2,000 wasted up to 0.1 ms per
/// 7×7 and 8×8 instance that the walk does not settle; 100 sent most letters to the engine.
pub const QUICK_BUDGET: u64 = 500;

/// How many levels below the root `pairs` runs (the root and the search's first decisions, where
/// one deduction cuts the largest subtrees; deeper, a sweep of the changed pairs of lines costs
/// more than it prunes). Measured on `examples/path/bench-12x12/partial-02`: 4 levels leave it
/// at 4,136 nodes, 6 at 532 (25 ms), every level at 108 nodes but seven times the time per
/// node (37 ms).
pub const PAIRS_DEPTH: usize = 6;

/// After how many nodes a search without `pairs` starts again with it ([`Rules::pairs_after`]),
/// on grids of at most [`PAIRS_AFTER_CELLS`] cells. A search that wanders (`bench-12x12/
/// partial-02`: 14,336 nodes, 0.5 s without `pairs`, 532 with it from the start) is cut
/// short for about 256 plain nodes (10 ms on a 12×12 grid); the puzzles the plain search settles
/// sooner (most: a generated 12×12 takes 10 to 130 nodes) never pay for `pairs`' sweeps.
/// Measured in one run (BENCHMARKS.md, "Path: `pairs` after 256 nodes"): 128 made the 131-node
/// 12×12s twice as slow, 512 and 1024 left `partial-02` at 42 and 61 ms.
pub const PAIRS_AFTER: u64 = 256;

/// The largest grid (in cells) on which a search restarts with `pairs` ([`PAIRS_AFTER`]): up
/// to 16×16. On the hard 20×20 and the planted 24×24 puzzles the restart cost about a fifth
/// more in total and helped none of them beyond the noise (`pairs` changes which racer wins
/// and how, and each sweep of a 24-cell-wide pair of lines costs more), so larger grids keep
/// the plain search; `--set rules=+pairs` turns `pairs` on from the start there.
pub const PAIRS_AFTER_CELLS: usize = 256;

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
        Rules::DEFAULT
    }
}

impl Rules {
    /// The default: every deduction but `pairs` on (`pairs` after a restart at
    /// [`PAIRS_AFTER`] nodes on grids up to [`PAIRS_AFTER_CELLS`] cells), the `auto`
    /// branching portfolio.
    pub const DEFAULT: Rules = Rules {
        pairs: false,
        ..Rules::ALL
    };
    /// Every deduction on, `pairs` included, the `auto` branching portfolio.
    pub const ALL: Rules = Rules {
        loops: true,
        cuts: true,
        colours: true,
        connect: true,
        probe: true,
        pairs: true,
        branch: Branching::Auto,
        slice: RACE_SLICE,
        racers: 6,
        quick: QUICK_BUDGET,
        pairs_after: PAIRS_AFTER,
    };
    /// Only the rules that define the puzzle (`degree`, `lines`, `chains`), `auto` branching.
    pub const NONE: Rules = Rules {
        loops: false,
        cuts: false,
        colours: false,
        connect: false,
        probe: false,
        pairs: false,
        branch: Branching::Auto,
        slice: RACE_SLICE,
        racers: 6,
        quick: 0,
        pairs_after: 0,
    };
    /// The optional rules' names.
    pub const OPTIONAL: [&'static str; 6] = ["loops", "cuts", "colours", "connect", "probe", "pairs"];
    /// The rules that are always on.
    pub const ALWAYS: [&'static str; 3] = ["degree", "lines", "chains"];

    fn flag(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "loops" => &mut self.loops,
            "cuts" => &mut self.cuts,
            "colours" => &mut self.colours,
            "connect" => &mut self.connect,
            "probe" => &mut self.probe,
            "pairs" => &mut self.pairs,
            _ => return None,
        })
    }

    /// Reads a rule list: `all`, `none`, `default`, the names of the rules that are on
    /// (`loops,connect`), or changes to the default (`-cuts,+pairs`); plus
    /// `branch=auto|lines|links`, `slice=N`, `racers=N`, `quick=N` and `pairs_after=N`
    /// (`-pairs` also sets `pairs_after=0`: no `pairs` at all).
    ///
    /// ```
    /// use pencilbox_pathpuzzle::fast::Rules;
    /// assert_eq!(Rules::parse("-cuts").unwrap(), Rules { cuts: false, ..Rules::DEFAULT });
    /// assert_eq!(Rules::parse("+pairs").unwrap(), Rules::ALL);
    /// assert_eq!(Rules::parse("all").unwrap(), Rules::ALL);
    /// assert_eq!(Rules::parse("connect").unwrap(), Rules { connect: true, ..Rules::NONE });
    /// use pencilbox_pathpuzzle::fast::Branching;
    /// assert_eq!(Rules::parse("branch=links").unwrap().branch, Branching::Links);
    /// assert!(Rules::parse("speed").is_err());
    /// assert_eq!(Rules::parse("-pairs").unwrap().pairs_after, 0);
    /// assert_eq!(Rules::parse("-pairs,pairs_after=99").unwrap().pairs_after, 99);
    /// assert_eq!(Rules::DEFAULT.pairs_after, pencilbox_pathpuzzle::fast::PAIRS_AFTER);
    /// ```
    pub fn parse(spec: &str) -> Result<Rules, String> {
        let switches = Switches {
            default: Rules::DEFAULT,
            none: Rules::NONE,
            presets: vec![("all", Rules::ALL), ("none", Rules::NONE), ("default", Rules::DEFAULT)],
            names: &Rules::OPTIONAL,
        };
        // Settings apply after the rules, so a preset never resets them.
        let items: Vec<&str> = spec.split(',').map(str::trim).collect();
        let off = items.contains(&"-pairs") && !items.iter().any(|i| i.starts_with("pairs_after="));
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
                "quick" => {
                    r.quick = value
                        .parse()
                        .map_err(|_| format!("quick wants a number of nodes (0 = no walk), found `{value}`"))?
                }
                "pairs_after" => {
                    r.pairs_after = value
                        .parse()
                        .map_err(|_| format!("pairs_after wants a number of nodes (0 = never), found `{value}`"))?
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
                    "unknown setting `{key}={value}` (settings: branch=auto|lines|links, slice=N, racers=N, quick=N, pairs_after=N)"
                ))
                }
            }
            Ok(())
        })
        .map(|mut r| {
            // `-pairs`: no `pairs` at all, not even after a restart.
            if off {
                r.pairs_after = 0;
            }
            r
        })
        .map_err(|e| {
            if e.starts_with("unknown rule") {
                format!("{e}; degree, lines and chains are always on")
            } else {
                e
            }
        })
    }

    /// Whether a search on a grid of `cells` cells restarts with `pairs` past
    /// [`Rules::pairs_after`] nodes: `None` when these rules never do (`pairs` from the start,
    /// or `pairs_after=0`), else whether the grid is small enough ([`PAIRS_AFTER_CELLS`]).
    pub fn restarts_with_pairs(&self, cells: usize) -> Option<bool> {
        (!self.pairs && self.pairs_after > 0).then_some(cells <= PAIRS_AFTER_CELLS)
    }

    /// The rules that are on and the branching, comma-separated.
    pub fn describe(&self) -> String {
        let on = [
            self.loops,
            self.cuts,
            self.colours,
            self.connect,
            self.probe,
            self.pairs,
        ];
        let mut names: Vec<&str> = Rules::ALWAYS.to_vec();
        names.extend(Rules::OPTIONAL.iter().zip(on).filter(|(_, o)| *o).map(|(n, _)| *n));
        let branch = match self.branch {
            Branching::Auto => format!("branch=auto,slice={},racers={}", self.slice, self.racers),
            b => format!("branch={}", b.name()),
        };
        names.push(&branch);
        let quick = format!("quick={}", self.quick);
        names.push(&quick);
        let after = format!("pairs_after={}", self.pairs_after);
        if !self.pairs {
            names.push(&after);
        }
        names.join(",")
    }
}

/// What a branch of the link model decides, in the puzzle's terms (for tests and debugging).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Choose (`true`) or close (`false`) a link.
    Link(LinkId, bool),
    /// Visit (`true`) or close (`false`) a cell.
    Cell(CellId, bool),
}

/// One puzzle's link model: the engine's variables and what the branchings read.
#[derive(Clone, Debug)]
pub struct LinkModel {
    /// The link and cell variables (links first, then cells).
    pub vars: PathVars,
    a: CellId,
    b: CellId,
    row_clues: Vec<Option<u32>>,
    col_clues: Vec<Option<u32>>,
}

impl LinkModel {
    /// Posts the model of `p` with the deductions of `rules` on a new engine (see the module
    /// docs). Run [`crate::checks::no_solution_reason`] first.
    pub fn post(p: &PathPuzzle, rules: &Rules) -> (Engine, LinkModel) {
        Self::post_limited(p, rules, &Limits::default())
    }

    /// [`LinkModel::post`] under the deadline and cancellation flag of `limits`: the engine
    /// polls them from the start, in every grid-sized loop of the building (variables, link
    /// tables, each rule's setup and watches, one poll per row or per few thousand items), and
    /// building stops as soon as they have stopped it (a model of a million cells takes most
    /// of a second to post). The engine is then [`Engine::interrupted`] for good, so a search
    /// on it ends at its first propagation: the partial model (whose variable lists may be
    /// cut short) is never searched.
    pub fn post_limited(p: &PathPuzzle, rules: &Rules, limits: &Limits) -> (Engine, LinkModel) {
        let shape = p.shape();
        let (h, w) = (shape.height, shape.width);
        let mut e = Engine::new();
        e.set_limits(limits);
        let vars = PathVars::new(&mut e, shape);
        let (a, b) = (p.cell_a(), p.cell_b());
        let model = |vars: PathVars| LinkModel {
            vars,
            a,
            b,
            row_clues: p.row_clues().to_vec(),
            col_clues: p.col_clues().to_vec(),
        };
        if e.check_limits_posting() {
            return (e, model(vars));
        }
        let path = SinglePath {
            vars: vars.clone(),
            a,
            b,
        };
        let path_rules = PathRules {
            loops: rules.loops,
            connect: rules.connect,
        };
        path.post(&mut e, path_rules)
            .expect("fixing the doors of fresh Boolean variables cannot fail");
        if e.check_limits_posting() {
            return (e, model(vars));
        }
        let cell = |r: usize, c: usize| vars.cell[shape.id(r, c).index()];
        // Each rule's sums are one family (one propagator): a cell is watched once for its row
        // and its column.
        let mut lines = BoolSum::family("lines");
        lines.reserve(h + w, 2 * h * w);
        for (r, clue) in p.row_clues().iter().enumerate() {
            if e.should_stop_posting() {
                return (e, model(vars));
            }
            if let Some(k) = *clue {
                lines.add_iter((0..w).map(|c| cell(r, c)), SumRule::Exactly(k));
            }
        }
        for (c, clue) in p.col_clues().iter().enumerate() {
            if e.should_stop_posting() {
                return (e, model(vars));
            }
            if let Some(k) = *clue {
                lines.add_iter((0..h).map(|r| cell(r, c)), SumRule::Exactly(k));
            }
        }
        if !lines.is_empty() {
            e.post(lines);
        }
        if e.check_limits_posting() {
            return (e, model(vars));
        }
        if rules.cuts {
            // The crossing parities of core's line toolkit ([`LineModel::cut_parities`]).
            let line = LineModel {
                vars: vars.clone(),
                ends: Some((a, b)),
            };
            line.cut_parities(&mut e);
            if e.check_limits_posting() {
                return (e, model(vars));
            }
        }
        if rules.pairs {
            let pairs = Pairs::new(&vars, Some((a, b)), p.row_clues(), p.col_clues()).with_depth(PAIRS_DEPTH);
            e.post(pairs);
            if e.check_limits_posting() {
                return (e, model(vars));
            }
        }
        if rules.colours {
            if let Some(length) = path_length(p) {
                let colour = |c: CellId| {
                    let (r, k) = shape.coords(c);
                    (r + k) % 2
                };
                let mut need = [0; 2];
                need[colour(a)] = length.div_ceil(2);
                need[1 - colour(a)] = length / 2;
                let mut colours = BoolSum::family("colours");
                for (k, &n) in need.iter().enumerate() {
                    let mut cells = Vec::with_capacity(shape.cells().div_ceil(2));
                    for r in 0..h {
                        if e.should_stop_posting() {
                            return (e, model(vars));
                        }
                        cells.extend(
                            (0..w)
                                .map(|c| shape.id(r, c))
                                .filter(|&c| colour(c) == k)
                                .map(|c| vars.cell[c.index()]),
                        );
                    }
                    colours.add(&cells, SumRule::Exactly(n));
                }
                e.post(colours);
            }
        }
        (e, model(vars))
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.vars.shape()
    }

    /// The puzzle's terms for an engine decision of this model.
    pub fn choice(&self, d: Decision) -> Choice {
        let value = d.dom == Domain::single(TRUE);
        let nl = self.vars.link.len();
        if d.var.index() < nl {
            Choice::Link(d.var.index() as LinkId, value)
        } else {
            Choice::Cell(CellId::from_index(d.var.index() - nl), value)
        }
    }

    /// The cells of the chain of chosen links starting at door A.
    pub fn chain_from_a(&self, e: &Engine) -> Vec<CellId> {
        let links = &self.vars.links;
        let mut path = Vec::with_capacity(self.vars.cell.len() + 1);
        path.push(self.a);
        let mut prev = None;
        let mut cur = self.a;
        loop {
            let next = links
                .at(cur)
                .iter()
                .filter(|&&l| self.is(e, self.vars.link[l as usize], TRUE))
                .map(|&l| links.other(l, cur))
                .find(|&c| Some(c) != prev);
            match next {
                Some(n) if path.len() <= self.vars.cell.len() => {
                    path.push(n);
                    prev = Some(cur);
                    cur = n;
                }
                _ => return path,
            }
        }
    }

    /// The path of the current (solution) state as a configuration.
    pub fn configuration(&self, e: &Engine) -> Configuration {
        configuration_from_path(self.shape(), &self.chain_from_a(e))
    }

    /// The current state as text, one line per grid row: `#` a visited cell, `.` an unvisited
    /// one, `?` an undecided one, with `-`/`|` for chosen links and `x` for closed ones
    /// (undecided links are blank). For tests and debugging.
    pub fn sketch(&self, e: &Engine) -> String {
        let shape = self.shape();
        let links = &self.vars.links;
        let (h, w) = (shape.height, shape.width);
        let mark = |l: LinkId, yes: char| match e.value(self.vars.link[l as usize]) {
            Some(TRUE) => yes,
            Some(_) => 'x',
            None => ' ',
        };
        let mut out = String::new();
        for r in 0..h {
            for c in 0..w {
                out.push(match e.value(self.vars.cell[shape.id(r, c).index()]) {
                    Some(TRUE) => '#',
                    Some(_) => '.',
                    None => '?',
                });
                if c + 1 < w {
                    out.push(mark(links.horizontal(r, c), '-'));
                }
            }
            out.push('\n');
            if r + 1 < h {
                for c in 0..w {
                    out.push(mark(links.vertical(r, c), '|'));
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
    fn is(&self, e: &Engine, v: pencilbox_core::engine::VarId, value: u32) -> bool {
        e.dom(v) == Domain::single(value)
    }

    /// Visited and open cells of a line of cells.
    #[inline]
    fn tally(&self, e: &Engine, cells: impl Iterator<Item = CellId>) -> (u32, u32) {
        let (mut yes, mut open) = (0, 0);
        for c in cells {
            let d = e.dom(self.vars.cell[c.index()]);
            if d == Domain::single(TRUE) {
                yes += 1;
            } else if !d.is_single() {
                open += 1;
            }
        }
        (yes, open)
    }

    #[inline]
    fn cap(&self, c: CellId) -> u32 {
        if c == self.a || c == self.b {
            1
        } else {
            2
        }
    }
}

/// The path's length when every row (or every column) is clued.
fn path_length(p: &PathPuzzle) -> Option<u32> {
    let sum = |clues: &[Option<u32>]| clues.iter().copied().sum::<Option<u32>>();
    sum(p.row_clues()).or_else(|| sum(p.col_clues()))
}

/// `C(n, k)` as a float (large lines overflow to infinity, which still compares).
fn ways(n: u32, k: u32) -> f64 {
    let k = k.min(n.saturating_sub(k));
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

/// The branchings of the link model (see the module docs), reading the engine's domains.
#[derive(Clone, Debug)]
pub struct LinkBranching {
    model: Arc<LinkModel>,
    /// Line branching (falling back to links); link branching when false.
    lines: bool,
    /// With a seed, ties between equally good branching choices (and the value tried first)
    /// are broken at random, so racers with different seeds explore different trees.
    seed: Option<u64>,
    salt: u64,
    /// Scratch: visited and open cells per row, then per column.
    tallies: Vec<(u32, u32)>,
}

impl LinkBranching {
    /// Line branching (`lines`, falling back to links) or link branching, with random
    /// tie-breaking when `seed` is given.
    pub fn new(model: Arc<LinkModel>, branch: Branching, seed: Option<u64>) -> Self {
        LinkBranching {
            model,
            lines: branch != Branching::Links,
            seed,
            salt: 0,
            tallies: Vec::new(),
        }
    }

    /// The model it branches on.
    pub fn model(&self) -> &LinkModel {
        &self.model
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
    fn pick_line(&mut self, e: &Engine) -> Option<CellId> {
        let m = &*self.model;
        let shape = m.shape();
        let (h, w) = (shape.height, shape.width);
        // Visited and open cells of each clued row, then of each clued column.
        self.tallies.clear();
        let lines = m.row_clues.iter().chain(&m.col_clues).enumerate();
        for (i, clue) in lines {
            let cells = (0..if i < h { w } else { h }).map(|j| if i < h { shape.id(i, j) } else { shape.id(j, i - h) });
            self.tallies
                .push(if clue.is_some() { m.tally(e, cells) } else { (0, 0) });
        }
        let (rows, cols) = self.tallies.split_at(h);
        let mut best: Option<(f64, bool, usize)> = None;
        for (is_row, clues, tallies) in [(true, &m.row_clues, rows), (false, &m.col_clues, cols)] {
            for (i, (k, &(yes, open))) in clues.iter().zip(tallies).enumerate() {
                let Some(k) = *k else { continue };
                if open == 0 {
                    continue;
                }
                let ways = ways(open, k.saturating_sub(yes));
                // Ties (and, with a seed, near-ties) are broken by the search's noise.
                let key = ways * (1.0 + self.noise((i as u64) << 1 | u64::from(is_row)));
                if ways > 1.0 && best.is_none_or(|(b, _, _)| key < b) {
                    best = Some((key, is_row, i));
                }
            }
        }
        let (_, is_row, i) = best?;
        let len = if is_row { w } else { h };
        // Within it, the cell whose crossing line is the most constrained.
        let cross = |c: CellId| -> f64 {
            let (r, k) = shape.coords(c);
            let (clue, (yes, open)) = if is_row {
                (m.col_clues[k], cols[k])
            } else {
                (m.row_clues[r], rows[r])
            };
            match clue {
                None => f64::INFINITY,
                Some(clue) => ways(open, clue.saturating_sub(yes)) * (1.0 + self.noise(1000 + c.0 as u64)),
            }
        };
        (0..len)
            .map(|j| if is_row { shape.id(i, j) } else { shape.id(j, i) })
            .filter(|c| !e.dom(m.vars.cell[c.index()]).is_single())
            .min_by(|&x, &y| cross(x).total_cmp(&cross(y)))
    }

    /// The open link to branch on: at the visited cell with the least slack.
    fn pick_link(&self, e: &Engine) -> Option<LinkId> {
        let m = &*self.model;
        let links = &m.vars.links;
        let mut best: Option<((u32, u32), CellId)> = None;
        for (i, &x) in m.vars.cell.iter().enumerate() {
            if !m.is(e, x, TRUE) {
                continue;
            }
            let c = CellId::from_index(i);
            let (mut yes, mut open) = (0u32, 0u32);
            for &l in links.at(c) {
                let d = e.dom(m.vars.link[l as usize]);
                if d == Domain::single(TRUE) {
                    yes += 1;
                } else if !d.is_single() {
                    open += 1;
                }
            }
            let need = m.cap(c).saturating_sub(yes);
            if need == 0 || open == 0 {
                continue;
            }
            let slack = open.saturating_sub(need);
            // Ties are broken by the search's noise (none without a seed: the first cell).
            let key = (slack, (self.noise(c.0 as u64) * 1e6) as u32);
            if best.is_none_or(|(b, _)| key < b) {
                best = Some((key, c));
            }
        }
        let (_, c) = best?;
        links
            .at(c)
            .iter()
            .copied()
            .find(|&l| !e.dom(m.vars.link[l as usize]).is_single())
    }
}

impl Brancher for LinkBranching {
    fn branch(&mut self, e: &Engine, out: &mut Vec<Decision>) {
        if let Some(seed) = self.seed {
            self.salt = SplitMix64::new(self.salt ^ seed).next_u64();
        }
        // Without a seed the first value tried is "yes"; with one, either.
        let first = if self.seed.is_some() && self.noise(u64::MAX) < 0.005 {
            FALSE
        } else {
            TRUE
        };
        let var = match self.lines.then(|| self.pick_line(e)).flatten() {
            Some(c) => Some(self.model.vars.cell[c.index()]),
            None => self.pick_link(e).map(|l| self.model.vars.link[l as usize]),
        };
        if let Some(var) = var {
            out.push(Decision::assign(var, first));
            out.push(Decision::assign(var, TRUE + FALSE - first));
        }
    }

    fn reseed(&mut self, seed: u64) {
        self.seed = (seed != 0).then_some(seed);
    }
}

/// A search of the link model on the engine.
pub type LinkSearch = EngineSearch<LinkBranching>;

/// Probing starts after this many dead ends of a search ([`Probe::after_failures`]): most
/// small puzzles are finished by a few decisions, for which a probing pass at every node (a
/// propagation per open cell and value) costs more than the nodes it saves; 8 or more dead
/// ends before probing made 12×12 puzzles slower. Measured in BENCHMARKS.md ("Third pass").
pub const PROBE_AFTER_FAILURES: u64 = 4;

/// The search of `p` with the given rules, branching as `rules.branch` says (`auto` branches
/// on lines: the race is [`crate::solve`]'s), with random tie-breaking from `seed` when given.
/// Run [`crate::checks::no_solution_reason`] first.
pub fn link_search(p: &PathPuzzle, rules: &Rules, seed: Option<u64>) -> LinkSearch {
    link_search_limited(p, rules, seed, &Limits::default())
}

/// [`link_search`] with the engine polling `limits` from the model's first posting on
/// ([`LinkModel::post_limited`]).
pub fn link_search_limited(p: &PathPuzzle, rules: &Rules, seed: Option<u64>, limits: &Limits) -> LinkSearch {
    let (engine, model) = LinkModel::post_limited(p, rules, limits);
    let model = Arc::new(model);
    let probe = rules.probe.then(|| Probe {
        vars: Some(model.vars.cell.clone()),
        max_values: 2,
        passes: Passes::One,
        suspend: Some(Priority::Global),
        descending: true,
        after_failures: PROBE_AFTER_FAILURES,
    });
    let mut s = EngineSearch::new(engine, LinkBranching::new(model, rules.branch, seed));
    s.probe = probe;
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use pencilbox_core::search::{run, Flow, StopReason};
    use pencilbox_core::time::Instant;

    #[test]
    fn a_model_posted_after_its_deadline_is_never_searched() {
        let n = 12;
        let clues = vec!["-1"; n].join(" ");
        let p = PathPuzzle::parse(&format!("{n} {n}\n1 1\n{n} {n}\n\n{clues}\n{clues}\n")).unwrap();
        let past = Limits {
            deadline: Some(Instant::now()),
            ..Limits::default()
        };
        let mut s = link_search_limited(&p, &Rules::default(), None, &past);
        assert!(s.engine.interrupted().is_some(), "posting saw the deadline");
        // The model is incomplete: new limits do not make it searchable.
        s.engine.set_limits(&Limits::first());
        assert!(
            s.engine.interrupted().is_some(),
            "an incomplete model stays interrupted"
        );
        assert!(s.engine.propagate().is_err());
        let r = run(&mut s, &past, |_| Flow::Continue);
        assert_eq!((r.solutions, r.stop), (0, StopReason::Deadline));
        // Without limits the same model is complete and solves.
        let mut s = link_search_limited(&p, &Rules::default(), None, &Limits::first());
        assert_eq!(run(&mut s, &Limits::first(), |_| Flow::Stop).solutions, 1);
    }

    #[test]
    fn the_pairs_rule_says_how_deep_it_runs() {
        let rule = TABLE.get("pairs").expect("listed");
        assert!(
            rule.summary.contains(&format!("the first {PAIRS_DEPTH} levels")),
            "{}",
            rule.summary
        );
        // The table (what `pencilbox list` and `study` show) and the rules agree: off by default,
        // and the restart's figures are the constants'.
        assert!(rule.is_optional() && !TABLE.default_set().has("pairs") && !Rules::DEFAULT.pairs);
        let side = (PAIRS_AFTER_CELLS as f64).sqrt() as usize;
        assert!(
            rule.summary
                .contains(&format!("past {PAIRS_AFTER} nodes on a grid up to {side}×{side}")),
            "{}",
            rule.summary
        );
    }
}
