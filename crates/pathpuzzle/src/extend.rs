//! The default solver: Algorithm 3's search (extend the path from door A, enter a cell only
//! when its row and column still owe cells) with sound pruning rules checked at every node.
//!
//! # Rules
//! Let `head` be the end of the partial path and `L` the number of cells still to be added
//! (door B included). A cell is *usable* when it is not on the path and neither its row nor its
//! column clue is used up (the paper's test of line 11). The flood fill walks usable cells from
//! `head` without passing *through* door B (the path ends there). Every future path cell is
//! reached by this fill, which makes each rule below sound (it never removes a solution):
//!
//! | rule      | prunes when                                                                          |
//! |-----------|--------------------------------------------------------------------------------------|
//! | `reach`   | door B is not usable, or the flood fill does not reach it                            |
//! | `blocks`  | (sharpens the fill) only cells on *some simple path* from `head` to B count as reached: the biconnected blocks on the block–cut-tree path ([`Flood::between`]); a pocket behind a cut cell can be entered but not left. Used where the head has a choice, on grids of more than [`BLOCKS_MIN_CELLS`] cells (smaller grids use bitboard fills) |
//! | `owed`    | a clued row or column owes more cells than the fill reaches in it                    |
//! | `length`  | `L`'s lower bound (owed row sum, owed column sum, Manhattan distance to B) exceeds the reached cells, or (rows or columns fully clued) `L` is exact and below the distance to B, or the two exact sums disagree (Theorem 1 on the remainder) |
//! | `parity`  | `L` is exact and (checkerboard colouring) `L − dist(head, B)` is odd, or one colour has fewer reached cells than the `⌈L/2⌉`/`⌊L/2⌋` the path needs |
//! | `reserve` | (sharpens the fill) door B is a future path cell: when B's row or column owes exactly one cell, the line's other cells are closed |
//! | `tail`    | (sharpens the fill) the chain forced backwards from B (each cell with a single possible neighbour left) consists of future path cells: a clued line holding as many of them as it owes is closed to its other cells |
//! | `deadend` | counting only *viable* reached cells (door B, or a cell with two neighbours among the reached cells and `head`), a clued row or column owes more than it has, or `L` exceeds them; non-viable neighbours of `head` are not tried |
//!
//! Cheap tests (door B usable, the exact-length tests) run before the flood fill. Each rule
//! can be switched off ([`Pruning::parse`], CLI `--set prune=-parity`), and [`ExtendSearch`]
//! counts how often each one cut the tree so their effect can be measured (`--stats`).
//! With every rule off the search visits exactly the nodes of Algorithm 3.
//!
//! # Deadlines
//! A node's fills and counts cost time proportional to the grid (tens of milliseconds on a
//! million cells), so the driver's look at the clock every 256 nodes would overrun a deadline
//! by seconds there (18 s at `--timeout 0.1` on an empty 1000×1000 grid). The search reads
//! the clock itself ([`ExtendSearch::set_limits`]) after every 65,536 cells of work,
//! between the phases of a node, and answers a dead node with [`Backtrack::interrupted`] when
//! the limits stopped it.

use crate::bitboard::{BitWord, Steps};
use crate::model::{configuration_from_path, Configuration, PathPuzzle};
use pencilbox_core::reach::Flood;
use pencilbox_core::search::{Backtrack, Expand, Limits, StopReason};
use pencilbox_core::switches::{self, Switches};
use pencilbox_core::{CellId, Shape};

/// The names of the pruning rules, in the order of [`ExtendSearch::prunes`].
pub const RULES: [&str; 12] = [
    "reach", "blocks", "owed", "length", "parity", "deadend", "forced", "order", "cuts", "edges", "reserve", "tail",
];

/// Which pruning rules are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Door B must stay reachable.
    pub reach: bool,
    /// Count only cells on some simple path from the head to door B (biconnected blocks).
    pub blocks: bool,
    /// Owed rows and columns must have enough reachable cells.
    pub owed: bool,
    /// Bounds on the remaining path length.
    pub length: bool,
    /// Checkerboard parity and colour counts.
    pub parity: bool,
    /// Cells with fewer than two usable neighbours cannot be interior path cells.
    pub deadend: bool,
    /// A must-use neighbour of the head with only two possible path neighbours comes next.
    pub forced: bool,
    /// Try must-use neighbours first, then those with the fewest onward possibilities
    /// (Warnsdorff's rule).
    pub order: bool,
    /// Crossing counts on the cuts between consecutive rows and columns.
    pub cuts: bool,
    /// Degree propagation on the cells' possible path edges (forced and excluded edges).
    pub edges: bool,
    /// Door B keeps one cell of its row and column: when that line owes exactly one cell, the
    /// line's other cells are closed.
    pub reserve: bool,
    /// The chain of cells forced backwards from door B closes lines it already fills.
    pub tail: bool,
    /// `blocks` applies only to grids of more cells than this (default [`BLOCKS_MIN_CELLS`];
    /// 0 = always). Set with `blocks-min=N` in a rule list.
    pub blocks_min_cells: usize,
    /// Compute the fill and its counts with 128-bit bitboards on grids of at most 128 cells
    /// (same results, faster); `false` forces the general code. Set with `bitboards=off`.
    pub bitboards: bool,
}

impl Default for Pruning {
    fn default() -> Self {
        Pruning::DEFAULT
    }
}

impl Pruning {
    /// The default: every rule except `edges`, whose propagation costs more time than the
    /// nodes it saves on the benchmark sets (measure with `--set prune=+edges`).
    pub const DEFAULT: Pruning = Pruning {
        edges: false,
        ..Pruning::ALL
    };
    /// Every rule on.
    pub const ALL: Pruning = Pruning {
        reach: true,
        blocks: true,
        owed: true,
        length: true,
        parity: true,
        deadend: true,
        forced: true,
        order: true,
        cuts: true,
        edges: true,
        reserve: true,
        tail: true,
        blocks_min_cells: BLOCKS_MIN_CELLS,
        bitboards: true,
    };
    /// Every rule off: the search is then node for node Algorithm 3.
    pub const NONE: Pruning = Pruning {
        reach: false,
        blocks: false,
        owed: false,
        length: false,
        parity: false,
        deadend: false,
        forced: false,
        order: false,
        cuts: false,
        edges: false,
        reserve: false,
        tail: false,
        blocks_min_cells: BLOCKS_MIN_CELLS,
        bitboards: true,
    };

    fn flag(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "reach" => &mut self.reach,
            "blocks" => &mut self.blocks,
            "owed" => &mut self.owed,
            "length" => &mut self.length,
            "parity" => &mut self.parity,
            "deadend" => &mut self.deadend,
            "forced" => &mut self.forced,
            "order" => &mut self.order,
            "cuts" => &mut self.cuts,
            "edges" => &mut self.edges,
            "reserve" => &mut self.reserve,
            "tail" => &mut self.tail,
            _ => return None,
        })
    }

    /// Reads a rule list: `default`, `all`, `none`, a comma-separated list of rule names
    /// (exactly those on), or changes to the default set (`-parity,-deadend`, `+edges`,
    /// `none,+reach`); plus the settings `blocks-min=N` and `bitboards=off`.
    ///
    /// ```
    /// use pencilbox_pathpuzzle::extend::Pruning;
    /// let p = Pruning::parse("-parity").unwrap();
    /// assert!(p.reach && !p.parity);
    /// assert_eq!(Pruning::parse("reach,owed").unwrap().length, false);
    /// assert!(Pruning::parse("-speed").is_err());
    /// let q = Pruning::parse("blocks-min=0,bitboards=off,-cuts").unwrap();
    /// assert!(!q.cuts && !q.bitboards && q.blocks_min_cells == 0 && q.reach);
    /// ```
    pub fn parse(spec: &str) -> Result<Pruning, String> {
        let switches = Switches {
            default: Pruning::DEFAULT,
            none: Pruning::NONE,
            presets: vec![
                ("all", Pruning::ALL),
                ("default", Pruning::DEFAULT),
                ("none", Pruning::NONE),
            ],
            names: &RULES,
        };
        // Settings apply after the rules, so a preset never resets them.
        switches::parse(spec, &switches, Pruning::flag, |p, key, value| match (key, value) {
            ("bitboards", "off") => {
                p.bitboards = false;
                Ok(())
            }
            ("blocks-min", v) => {
                p.blocks_min_cells = v
                    .parse()
                    .map_err(|_| format!("blocks-min wants a number of cells, found `{v}`"))?;
                Ok(())
            }
            _ => Err(format!(
                "unknown setting `{key}={value}` (settings: blocks-min=N, bitboards=off)"
            )),
        })
    }

    /// The rules that are on, comma-separated (`none` when empty).
    pub fn describe(&self) -> String {
        let on = [
            self.reach,
            self.blocks,
            self.owed,
            self.length,
            self.parity,
            self.deadend,
            self.forced,
            self.order,
            self.cuts,
            self.edges,
            self.reserve,
            self.tail,
        ];
        let names: Vec<&str> = RULES.iter().zip(on).filter(|(_, o)| *o).map(|(n, _)| *n).collect();
        if names.is_empty() {
            "none".into()
        } else {
            names.join(",")
        }
    }
}

const REACH: usize = 0;
const BLOCKS: usize = 1;

/// By default, grids up to this many cells use plain fills even with `blocks` on (see
/// [`Pruning::blocks_min_cells`]).
pub const BLOCKS_MIN_CELLS: usize = 128;
const OWED: usize = 2;
const LENGTH: usize = 3;
const PARITY: usize = 4;
const DEADEND: usize = 5;
const FORCED: usize = 6;
const CUTS: usize = 8;
const EDGES: usize = 9;

/// The state of the pruned search.
#[derive(Clone, Debug)]
pub struct ExtendSearch {
    shape: Shape,
    rules: Pruning,
    door_b: CellId,
    row_of: Vec<u32>,
    col_of: Vec<u32>,
    /// Cells each clued row still owes; −1 = no clue.
    row_need: Vec<i32>,
    /// Cells each clued column still owes; −1 = no clue.
    col_need: Vec<i32>,
    /// Sum of the owed counts of the clued rows / columns.
    sum_rows: i64,
    sum_cols: i64,
    rows_complete: bool,
    cols_complete: bool,
    on_path: Vec<bool>,
    path: Vec<CellId>,
    flood: Flood,
    reach_row: Vec<u32>,
    reach_col: Vec<u32>,
    viable_row: Vec<u32>,
    viable_col: Vec<u32>,
    viable: Vec<bool>,
    degree: Vec<u8>,
    pairs_row: Vec<u32>,
    pairs_col: Vec<u32>,
    // Scratch of rule `tail` (generic code).
    tail: Vec<CellId>,
    in_tail: Vec<bool>,
    tail_row: Vec<u32>,
    tail_col: Vec<u32>,
    closed_row: Vec<bool>,
    closed_col: Vec<bool>,
    /// Bitboards (grids of at most 128 cells, unless switched off).
    bits: Option<std::rc::Rc<Board>>,
    /// The cells on the path, as bits (bitboard grids).
    on_bits: u128,
    /// This node's fill, as bits, when `bit_mode`.
    s_bits: u128,
    bit_mode: bool,
    /// Orthogonal neighbours in the order up, left, right, down (`u32::MAX` = outside).
    nbr: Vec<[u32; 4]>,
    // Scratch of the edge propagation (valid for the cells of the current fill and the head).
    alive: Vec<bool>,
    must: Vec<bool>,
    gone: Vec<u8>,
    fixed: Vec<u8>,
    uf: Vec<u32>,
    queue: Vec<CellId>,
    prunes: [u64; 12],
    /// The deadline and cancellation flag, read after every [`POLL_WORK`] cells of work.
    limits: Option<Limits>,
    /// Cells of work since the clock was last read.
    work: usize,
    /// Why the limits stopped the search, once they have.
    stopped: Option<StopReason>,
}

/// Cells of work (fills, counts) between two looks at the clock (see the module docs).
const POLL_WORK: usize = 1 << 16;

impl ExtendSearch {
    /// The search at its root: the path is door A alone. Run
    /// [`crate::checks::no_solution_reason`] first: door A's row and column must not have the
    /// clue 0 and the doors must differ.
    pub fn new(p: &PathPuzzle, rules: Pruning) -> Self {
        Self::new_limited(p, rules, &Limits::default())
    }

    /// [`ExtendSearch::new`] reading the deadline and cancellation flag of `limits` while the
    /// grid-sized tables are built (once per row of the largest) and then inside the nodes
    /// ([`ExtendSearch::set_limits`]): when they stop the set-up, the search is left empty
    /// and its first node answers [`Backtrack::interrupted`].
    pub fn new_limited(p: &PathPuzzle, rules: Pruning, limits: &Limits) -> Self {
        let shape = p.shape();
        // The flood's tables first: the largest part of the set-up, polled row by row.
        let flood = match limits.interrupted() {
            Some(_) => None,
            None => Flood::new_until(shape, || limits.interrupted().is_some()),
        };
        let (flood, stopped) = match (flood, limits.interrupted()) {
            (Some(f), None) => (f, None),
            (_, reason) => (
                Flood::new(Shape::new(0, 0)),
                Some(reason.unwrap_or(StopReason::Deadline)),
            ),
        };
        let mut s = Self::with_flood(p, rules, flood, stopped.is_some());
        s.set_limits(limits);
        s.stopped = stopped;
        s
    }

    /// The search with `flood`; `empty`: every grid-sized table left empty (a set-up the
    /// limits stopped: the search is never expanded).
    fn with_flood(p: &PathPuzzle, rules: Pruning, flood: Flood, empty: bool) -> Self {
        let shape = p.shape();
        let cells = if empty { 0 } else { shape.cells() };
        let row_need = p.cr();
        let col_need = p.cc();
        let mut s = ExtendSearch {
            shape,
            rules,
            door_b: p.cell_b(),
            row_of: shape.all().take(cells).map(|c| shape.coords(c).0 as u32).collect(),
            col_of: shape.all().take(cells).map(|c| shape.coords(c).1 as u32).collect(),
            sum_rows: row_need.iter().filter(|&&v| v >= 0).map(|&v| i64::from(v)).sum(),
            sum_cols: col_need.iter().filter(|&&v| v >= 0).map(|&v| i64::from(v)).sum(),
            rows_complete: row_need.iter().all(|&v| v >= 0),
            cols_complete: col_need.iter().all(|&v| v >= 0),
            row_need,
            col_need,
            on_path: vec![false; cells],
            path: Vec::with_capacity(cells),
            flood,
            reach_row: vec![0; p.height()],
            reach_col: vec![0; p.width()],
            viable_row: vec![0; p.height()],
            viable_col: vec![0; p.width()],
            viable: vec![false; cells],
            degree: vec![0; cells],
            pairs_row: vec![0; p.height()],
            pairs_col: vec![0; p.width()],
            tail: Vec::new(),
            in_tail: vec![false; cells],
            tail_row: vec![0; p.height()],
            tail_col: vec![0; p.width()],
            closed_row: vec![false; p.height()],
            closed_col: vec![false; p.width()],
            bits: if rules.bitboards && !empty {
                Board::new(shape).map(std::rc::Rc::new)
            } else {
                None
            },
            on_bits: 0,
            s_bits: 0,
            bit_mode: false,
            nbr: if empty { Vec::new() } else { neighbour_table(shape) },
            // The edge propagation's scratch is allocated on its first use.
            alive: Vec::new(),
            must: Vec::new(),
            gone: Vec::new(),
            fixed: Vec::new(),
            uf: Vec::new(),
            queue: Vec::new(),
            prunes: [0; 12],
            limits: None,
            work: 0,
            stopped: None,
        };
        if !empty {
            s.enter(p.cell_a());
        }
        s
    }

    /// Reads the deadline and cancellation flag of `limits` inside the nodes (see the module
    /// docs), not only every 256 nodes as the driver does.
    pub fn set_limits(&mut self, limits: &Limits) {
        self.limits = (limits.deadline.is_some() || limits.cancel.is_some()).then(|| Limits {
            deadline: limits.deadline,
            cancel: limits.cancel.clone(),
            ..Limits::default()
        });
        self.stopped = None;
    }

    /// Counts a phase of a node's work (a fill or count over the grid) and reads the clock
    /// once [`POLL_WORK`] cells have passed; true when the limits stopped the search.
    fn over_time(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        let Some(limits) = &self.limits else {
            return false;
        };
        self.work += self.shape.cells();
        if self.work >= POLL_WORK {
            self.work = 0;
            self.stopped = limits.interrupted();
        }
        self.stopped.is_some()
    }

    /// How many nodes each rule cut, in the order of [`RULES`].
    pub fn prunes(&self) -> [u64; 12] {
        self.prunes
    }

    /// The cells of the current path, from door A.
    pub fn path(&self) -> &[CellId] {
        &self.path
    }

    /// The configuration of the current path (door B marked `u`).
    pub fn configuration(&self) -> Configuration {
        configuration_from_path(self.shape, &self.path)
    }

    #[inline]
    fn usable(&self, c: CellId) -> bool {
        let i = c.index();
        !self.on_path[i] && self.row_need[self.row_of[i] as usize] != 0 && self.col_need[self.col_of[i] as usize] != 0
    }

    fn enter(&mut self, c: CellId) {
        let i = c.index();
        self.on_path[i] = true;
        if self.bits.is_some() {
            self.on_bits |= 1u128 << i;
        }
        self.path.push(c);
        let (r, col) = (self.row_of[i] as usize, self.col_of[i] as usize);
        if self.row_need[r] > 0 {
            self.row_need[r] -= 1;
            self.sum_rows -= 1;
        }
        if self.col_need[col] > 0 {
            self.col_need[col] -= 1;
            self.sum_cols -= 1;
        }
    }

    fn leave(&mut self) {
        let Some(c) = self.path.pop() else { return };
        let i = c.index();
        self.on_path[i] = false;
        if self.bits.is_some() {
            self.on_bits &= !(1u128 << i);
        }
        let (r, col) = (self.row_of[i] as usize, self.col_of[i] as usize);
        // Entered cells had non-zero clues, so a clued row or column was decremented from >= 1.
        if self.row_need[r] >= 0 {
            self.row_need[r] += 1;
            self.sum_rows += 1;
        }
        if self.col_need[col] >= 0 {
            self.col_need[col] += 1;
            self.sum_cols += 1;
        }
    }

    /// Runs the fill of this node from `head` — bitboards on grids of at most 128 cells, else
    /// [`Flood::fill`] or, for `blocks`, [`Flood::between`] — and counts the reached cells per
    /// row and column. Returns (door B reached, reached cells, reached cells of the head's colour).
    fn fill_from(&mut self, head: CellId) -> (bool, usize, i64) {
        let b = self.door_b;
        let rules = self.rules;
        let cells = self.on_path.len();
        let (on_path, row_need, col_need) = (&self.on_path, &self.row_need, &self.col_need);
        let (row_of, col_of) = (&self.row_of, &self.col_of);
        // Rule `reserve`: door B is a future path cell, so when B's row (column) owes exactly
        // one cell, that cell is B and the rest of the row (column) is closed.
        let (rb, cb) = (self.row_of[b.index()], self.col_of[b.index()]);
        let reserve_row = rules.reserve && row_need[rb as usize] == 1;
        let reserve_col = rules.reserve && col_need[cb as usize] == 1;
        let usable = |c: CellId| {
            let i = c.index();
            !on_path[i]
                && row_need[row_of[i] as usize] != 0
                && col_need[col_of[i] as usize] != 0
                && (c == b || !((reserve_row && row_of[i] == rb) || (reserve_col && col_of[i] == cb)))
        };
        // The block decomposition costs about twice a plain fill. It can only save work where
        // the head has a choice, and on grids that fit a bitboard word (by default <= 128
        // cells) the bitboard fill is so much cheaper that the nodes it saves do not pay for it.
        let choices = self.flood.neighbours(head).iter().filter(|&&c| usable(c)).count();
        let use_blocks = rules.blocks && choices > 1 && cells > rules.blocks_min_cells;
        self.bit_mode = self.bits.is_some() && !use_blocks && !rules.edges;
        let (hr, hc) = self.shape.coords(head);
        if self.bit_mode {
            let board = self.bits.clone(); // an Rc: no copy of the masks
            let out = match board.as_deref() {
                Some(Board::Small(bits)) => self.fill_bits(bits, head),
                Some(Board::Large(bits)) => self.fill_bits(bits, head),
                None => unreachable!("bit_mode implies a board"),
            };
            return out;
        }
        let mut found = if use_blocks {
            self.flood.between(head, b, usable)
        } else {
            self.flood.fill(&[head], usable, |c| c != b);
            self.flood.reached(b)
        };
        if rules.tail && found && self.tail_closes(head) {
            // Fill again without the cells the forced tail at door B closes.
            let (on_path, row_need, col_need) = (&self.on_path, &self.row_need, &self.col_need);
            let (row_of, col_of) = (&self.row_of, &self.col_of);
            let (in_tail, closed_row, closed_col) = (&self.in_tail, &self.closed_row, &self.closed_col);
            let usable = |c: CellId| {
                let i = c.index();
                !on_path[i]
                    && row_need[row_of[i] as usize] != 0
                    && col_need[col_of[i] as usize] != 0
                    && (c == b || !((reserve_row && row_of[i] == rb) || (reserve_col && col_of[i] == cb)))
                    && (in_tail[i] || !(closed_row[row_of[i] as usize] || closed_col[col_of[i] as usize]))
            };
            found = if use_blocks {
                self.flood.between(head, b, usable)
            } else {
                self.flood.fill(&[head], usable, |c| c != b);
                self.flood.reached(b)
            };
        }
        for k in 0..self.tail.len() {
            self.in_tail[self.tail[k].index()] = false;
        }
        self.tail.clear();
        self.reach_row.fill(0);
        self.reach_col.fill(0);
        let head_colour = (hr + hc) % 2;
        let mut same_colour = 0i64;
        for &c in self.flood.cells() {
            let i = c.index();
            let (r, col) = (self.row_of[i] as usize, self.col_of[i] as usize);
            self.reach_row[r] += 1;
            self.reach_col[col] += 1;
            if (r + col) % 2 == head_colour {
                same_colour += 1;
            }
        }
        (found, self.flood.cells().len(), same_colour)
    }

    /// Rule `tail`: door B needs exactly one path neighbour. While the end of the chain forced
    /// so far (starting at B) has exactly one possible neighbour left among the reached cells
    /// and the head, and that neighbour is not the head, it joins the chain. Every chain cell is
    /// a future path cell, so a clued row or column holding as many chain cells as it owes is
    /// closed to its other cells. Marks the chain in `tail`/`in_tail` and the closed lines in
    /// `closed_row`/`closed_col`; true when a closed line holds reached cells outside the chain
    /// (the fill must then be redone).
    fn tail_closes(&mut self, head: CellId) -> bool {
        let b = self.door_b;
        self.tail.clear();
        self.tail.push(b);
        self.in_tail[b.index()] = true;
        let mut end = b;
        loop {
            let mut cand = None;
            let mut n = 0;
            for &x in &self.nbr[end.index()] {
                if x == u32::MAX || self.in_tail[x as usize] {
                    continue;
                }
                let xc = CellId(x);
                if xc == head || self.flood.reached(xc) {
                    n += 1;
                    cand = Some(xc);
                }
            }
            match cand {
                Some(x) if n == 1 && x != head => {
                    self.in_tail[x.index()] = true;
                    self.tail.push(x);
                    end = x;
                }
                _ => break,
            }
        }
        if self.tail.len() == 1 {
            return false;
        }
        self.tail_row.fill(0);
        self.tail_col.fill(0);
        for &c in &self.tail {
            self.tail_row[self.row_of[c.index()] as usize] += 1;
            self.tail_col[self.col_of[c.index()] as usize] += 1;
        }
        for (r, closed) in self.closed_row.iter_mut().enumerate() {
            *closed = self.row_need[r] > 0 && self.tail_row[r] as i32 == self.row_need[r];
        }
        for (c, closed) in self.closed_col.iter_mut().enumerate() {
            *closed = self.col_need[c] > 0 && self.tail_col[c] as i32 == self.col_need[c];
        }
        self.flood.cells().iter().any(|&c| {
            let i = c.index();
            !self.in_tail[i] && (self.closed_row[self.row_of[i] as usize] || self.closed_col[self.col_of[i] as usize])
        })
    }

    /// The bitboard fill of [`ExtendSearch::fill_from`].
    fn fill_bits<W: BitWord>(&mut self, bits: &Bits<W>, head: CellId) -> (bool, usize, i64) {
        let (hb, bb) = (W::ONE << head.0, W::ONE << self.door_b.0);
        let mut free = bits.steps.all & !W::narrow(self.on_bits);
        for (r, &n) in self.row_need.iter().enumerate() {
            if n == 0 {
                free = free & !bits.row[r];
            }
        }
        for (c, &n) in self.col_need.iter().enumerate() {
            if n == 0 {
                free = free & !bits.col[c];
            }
        }
        if self.rules.reserve {
            // Rule `reserve` (see `fill_from`).
            let b = self.door_b.index();
            let (rb, cb) = (self.row_of[b] as usize, self.col_of[b] as usize);
            if self.row_need[rb] == 1 {
                free = free & (!bits.row[rb] | bb);
            }
            if self.col_need[cb] == 1 {
                free = free & (!bits.col[cb] | bb);
            }
        }
        let mut s = W::ZERO;
        let mut frontier = hb;
        loop {
            let next = bits.spread(frontier) & free & !s;
            if next == W::ZERO {
                break;
            }
            s |= next;
            frontier = next & !bb;
        }
        if self.rules.tail && s & bb != W::ZERO {
            // The forced tail at door B: while the tail's end has exactly one possible
            // neighbour (other than the previous tail cell) and it is not the head, extend.
            let x = s | hb;
            let mut tail = bb;
            let mut end = self.door_b.index();
            loop {
                let cand = bits.nbr[end] & x & !tail;
                if cand.ones() != 1 || cand & hb != W::ZERO {
                    break;
                }
                let mut k = 0;
                while (cand >> k) & W::ONE == W::ZERO {
                    k += 1;
                }
                tail |= cand;
                end = k as usize;
            }
            if tail != bb {
                let mut closed = W::ZERO;
                for (r, &m) in bits.row.iter().enumerate() {
                    if self.row_need[r] > 0 && (tail & m).ones() as i32 == self.row_need[r] {
                        closed |= m & !tail;
                    }
                }
                for (c, &m) in bits.col.iter().enumerate() {
                    if self.col_need[c] > 0 && (tail & m).ones() as i32 == self.col_need[c] {
                        closed |= m & !tail;
                    }
                }
                if closed & s != W::ZERO {
                    let free2 = free & !closed;
                    s = W::ZERO;
                    let mut frontier = hb;
                    loop {
                        let next = bits.spread(frontier) & free2 & !s;
                        if next == W::ZERO {
                            break;
                        }
                        s |= next;
                        frontier = next & !bb;
                    }
                }
            }
        }
        self.s_bits = s.wide();
        for (r, &m) in bits.row.iter().enumerate() {
            self.reach_row[r] = (s & m).ones();
        }
        for (c, &m) in bits.col.iter().enumerate() {
            self.reach_col[c] = (s & m).ones();
        }
        let (hr, hc) = self.shape.coords(head);
        let colour = if (hr + hc) % 2 == 0 {
            bits.even
        } else {
            bits.steps.all & !bits.even
        };
        (s & bb != W::ZERO, s.ones() as usize, (s & colour).ones() as i64)
    }

    /// The bitboard version of [`ExtendSearch::count_pairs`].
    fn pairs_bits<W: BitWord>(&mut self, bits: &Bits<W>, head: CellId) {
        let x = W::narrow(self.s_bits) | W::ONE << head.0;
        let down = x & (x >> bits.steps.width);
        let right = x & ((x & bits.steps.not_first_col) >> 1);
        for (r, &m) in bits.row.iter().enumerate() {
            self.pairs_row[r] = (down & m).ones();
        }
        for (c, &m) in bits.col.iter().enumerate() {
            self.pairs_col[c] = (right & m).ones();
        }
    }

    /// The bitboard version of [`ExtendSearch::count_viable`].
    fn viable_bits<W: BitWord>(&mut self, bits: &Bits<W>, head: CellId) -> i64 {
        let s = W::narrow(self.s_bits);
        let x = s | W::ONE << head.0;
        let two = Steps::at_least_two(bits.steps.neighbour_sets(x));
        let viable = s & (two | W::ONE << self.door_b.0);
        for (r, &m) in bits.row.iter().enumerate() {
            self.viable_row[r] = (viable & m).ones();
        }
        for (c, &m) in bits.col.iter().enumerate() {
            self.viable_col[c] = (viable & m).ones();
        }
        for &n in &self.nbr[head.index()] {
            if n != u32::MAX {
                self.degree[n as usize] = (bits.nbr[n as usize] & x).ones() as u8;
                self.viable[n as usize] = (viable >> n) & W::ONE == W::ONE;
            }
        }
        viable.ones() as i64
    }

    /// Was `c` reached by this node's fill?
    #[inline]
    fn in_fill(&self, c: CellId) -> bool {
        if self.bit_mode {
            self.s_bits >> c.0 & 1 == 1
        } else {
            self.flood.reached(c)
        }
    }

    /// Counts, per row and per column cut, the neighbouring cell pairs across it that are both
    /// in the fill (or one of them the head): the open crossings of rule `cuts`.
    fn count_pairs(&mut self, head: CellId) {
        if self.bit_mode {
            let board = self.bits.clone(); // an Rc: no copy of the masks
            match board.as_deref() {
                Some(Board::Small(bits)) => self.pairs_bits(bits, head),
                Some(Board::Large(bits)) => self.pairs_bits(bits, head),
                None => unreachable!("bit_mode implies a board"),
            }
            return;
        }
        self.pairs_row.fill(0);
        self.pairs_col.fill(0);
        let cells_len = self.flood.cells().len();
        for k in 0..=cells_len {
            let c = if k < cells_len { self.flood.cells()[k] } else { head };
            let i = c.index();
            let down = self.nbr[i][3];
            if down != u32::MAX && self.flood.reached(CellId(down)) {
                self.pairs_row[self.row_of[i] as usize] += 1;
            }
            let right = self.nbr[i][2];
            if right != u32::MAX && self.flood.reached(CellId(right)) {
                self.pairs_col[self.col_of[i] as usize] += 1;
            }
        }
    }

    /// Marks the viable reached cells (door B, or two neighbours among the reached cells and
    /// the head), counts them per row and column and returns their number. Afterwards
    /// `viable` and `degree` are valid for the head's neighbours (and, without bitboards, for
    /// every reached cell).
    fn count_viable(&mut self, head: CellId) -> i64 {
        let b = self.door_b;
        if self.bit_mode {
            let board = self.bits.clone(); // an Rc: no copy of the masks
            let total = match board.as_deref() {
                Some(Board::Small(bits)) => self.viable_bits(bits, head),
                Some(Board::Large(bits)) => self.viable_bits(bits, head),
                None => unreachable!("bit_mode implies a board"),
            };
            return total;
        }
        self.viable_row.fill(0);
        self.viable_col.fill(0);
        let mut viable_total = 0i64;
        for k in 0..self.flood.cells().len() {
            let c = self.flood.cells()[k];
            let mut n = 0u8;
            for &x in self.flood.neighbours(c) {
                if self.flood.reached(x) {
                    n += 1;
                }
            }
            self.degree[c.index()] = n;
            let ok = c == b || n >= 2;
            self.viable[c.index()] = ok;
            if ok {
                let i = c.index();
                self.viable_row[self.row_of[i] as usize] += 1;
                self.viable_col[self.col_of[i] as usize] += 1;
                viable_total += 1;
            }
        }
        viable_total
    }

    /// Degree propagation over the possible edges of the rest of the path (rule `edges`).
    ///
    /// The cells are the head and the reached cells; an edge joins two orthogonal neighbours.
    /// The head and door B get exactly one more path edge, every other used cell two. A cell
    /// *must* be used when it is the head or B, when its clued row or column owes as many cells
    /// as are left in it, or when a forced edge touches it. Then, to a fixpoint:
    /// a must cell with exactly as many possible edges as it needs forces them; a cell whose
    /// forced edges reach its need loses its other edges; an optional cell left with fewer than
    /// two possible edges is dropped (updating its row and column counts). Contradictions: a
    /// must cell short of edges, more forced edges than needed, a clued line owing more cells
    /// than remain, forced edges closing a cycle (union-find), or joining head and B while a
    /// must cell is left out. Returns the next cell when the head's edge is forced.
    fn propagate(&mut self, head: CellId, lower: i64) -> Result<Option<CellId>, ()> {
        let b = self.door_b;
        let cells_len = self.flood.cells().len();
        if self.alive.len() != self.on_path.len() {
            let cells = self.on_path.len();
            self.alive = vec![false; cells];
            self.must = vec![false; cells];
            self.gone = vec![0; cells];
            self.fixed = vec![0; cells];
            self.uf = (0..cells as u32).collect();
        }
        // Initialise: alive = reached (viability counted in degree/viable_row/viable_col).
        self.queue.clear();
        let hi = head.index();
        self.alive[hi] = true;
        self.must[hi] = true;
        self.gone[hi] = 0;
        self.fixed[hi] = 0;
        self.uf[hi] = head.0;
        let mut head_deg = 0u8;
        for k in 0..cells_len {
            let c = self.flood.cells()[k];
            let i = c.index();
            self.alive[i] = true;
            self.must[i] = c == b;
            self.gone[i] = 0;
            self.fixed[i] = 0;
            self.uf[i] = c.0;
            if self.nbr[i].contains(&head.0) {
                head_deg += 1;
            }
        }
        self.degree[hi] = head_deg;
        // Row and column counts of the alive cells (all reached cells, viable or not).
        self.viable_row.fill(0);
        self.viable_col.fill(0);
        for k in 0..cells_len {
            let i = self.flood.cells()[k].index();
            self.viable_row[self.row_of[i] as usize] += 1;
            self.viable_col[self.col_of[i] as usize] += 1;
        }
        let mut alive_total = cells_len as i64;
        for k in 0..cells_len {
            let c = self.flood.cells()[k];
            if self.is_forced(c) {
                self.must[c.index()] = true;
            }
            self.queue.push(c);
        }
        self.queue.push(head);
        while let Some(c) = self.queue.pop() {
            let i = c.index();
            if !self.alive[i] {
                continue;
            }
            let need = if c == head || c == b { 1 } else { 2 };
            let deg = self.degree[i];
            let fixed = self.fixed[i].count_ones() as u8;
            if fixed > need {
                return Err(());
            }
            if !self.must[i] {
                if deg < 2 && c != b {
                    // Drop an optional cell that cannot be an inner path cell.
                    self.alive[i] = false;
                    alive_total -= 1;
                    for d in 0..4 {
                        let x = self.nbr[i][d];
                        if x != u32::MAX && self.live(x) && self.gone[i] & (1 << d) == 0 {
                            self.degree[x as usize] -= 1;
                            self.gone[x as usize] |= 1 << (3 - d);
                            self.queue.push(CellId(x));
                        }
                    }
                    let (r, col) = (self.row_of[i] as usize, self.col_of[i] as usize);
                    self.viable_row[r] -= 1;
                    self.viable_col[col] -= 1;
                    for (need, have, line_is_row, idx) in [
                        (self.row_need[r], self.viable_row[r], true, r),
                        (self.col_need[col], self.viable_col[col], false, col),
                    ] {
                        if need > 0 && need as u32 > have {
                            return Err(());
                        }
                        if need > 0 && need as u32 == have {
                            self.mark_line_must(line_is_row, idx, cells_len);
                        }
                    }
                    if lower > alive_total {
                        return Err(());
                    }
                }
                continue;
            }
            if deg < need {
                return Err(());
            }
            if deg == need && fixed < need {
                // Every possible edge of this must cell is used.
                for d in 0..4 {
                    let x = self.nbr[i][d];
                    if x == u32::MAX || !self.live(x) || self.gone[i] & (1 << d) != 0 || self.fixed[i] & (1 << d) != 0 {
                        continue;
                    }
                    self.force_edge(c, CellId(x), d, head, cells_len)?;
                }
            }
            let fixed = self.fixed[i].count_ones() as u8;
            if fixed == need && deg > need {
                // Its edges are all chosen: the other possible edges go.
                for d in 0..4 {
                    let x = self.nbr[i][d];
                    if x == u32::MAX || !self.live(x) || self.gone[i] & (1 << d) != 0 || self.fixed[i] & (1 << d) != 0 {
                        continue;
                    }
                    self.gone[i] |= 1 << d;
                    self.gone[x as usize] |= 1 << (3 - d);
                    self.degree[i] -= 1;
                    self.degree[x as usize] -= 1;
                    self.queue.push(CellId(x));
                }
            }
        }
        // The head's edge, when forced, names the next cell.
        let f = self.fixed[hi];
        Ok((f != 0).then(|| CellId(self.nbr[hi][f.trailing_zeros() as usize])))
    }

    /// Is cell `x` (a raw id) still a possible path cell in the current propagation? Only the
    /// head and the cells of the current fill take part; `alive` is stale for the others.
    #[inline]
    fn live(&self, x: u32) -> bool {
        self.flood.reached(CellId(x)) && self.alive[x as usize]
    }

    /// Marks every alive cell of a line (row `idx` or column `idx`) as must-use.
    fn mark_line_must(&mut self, row: bool, idx: usize, cells_len: usize) {
        for k in 0..cells_len {
            let c = self.flood.cells()[k];
            let i = c.index();
            let on_line = if row {
                self.row_of[i] as usize == idx
            } else {
                self.col_of[i] as usize == idx
            };
            if on_line && self.alive[i] && !self.must[i] {
                self.must[i] = true;
                self.queue.push(c);
            }
        }
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.uf[x as usize] != x {
            let up = self.uf[self.uf[x as usize] as usize];
            self.uf[x as usize] = up;
            x = up;
        }
        x
    }

    /// Fixes the edge from `c` in direction `d` to `x`.
    fn force_edge(&mut self, c: CellId, x: CellId, d: usize, head: CellId, cells_len: usize) -> Result<(), ()> {
        let (rc, rx) = (self.find(c.0), self.find(x.0));
        if rc == rx {
            return Err(()); // a cycle of forced edges
        }
        self.uf[rc as usize] = rx;
        self.fixed[c.index()] |= 1 << d;
        self.fixed[x.index()] |= 1 << (3 - d);
        if !self.must[x.index()] {
            self.must[x.index()] = true;
        }
        self.queue.push(x);
        self.queue.push(c);
        let b = self.door_b;
        if self.find(head.0) == self.find(b.0) {
            // The path is complete: every must cell has to lie on the head–B chain.
            let root = self.find(head.0);
            for k in 0..cells_len {
                let y = self.flood.cells()[k];
                if self.alive[y.index()] && self.must[y.index()] && self.find(y.0) != root {
                    return Err(());
                }
            }
        }
        Ok(())
    }

    /// Must `c` (reached and viable) be on the path? True when its clued row or column owes
    /// as many cells as it has viable ones.
    #[inline]
    fn is_forced(&self, c: CellId) -> bool {
        let i = c.index();
        let (r, col) = (self.row_of[i] as usize, self.col_of[i] as usize);
        (self.row_need[r] > 0 && self.row_need[r] as u32 == self.viable_row[r])
            || (self.col_need[col] > 0 && self.col_need[col] as u32 == self.viable_col[col])
    }

    #[inline]
    fn cut(&mut self, rule: usize) -> Expand {
        self.prunes[rule] += 1;
        Expand::Dead
    }

    /// The exact number of cells still to add, when every row or every column has a clue.
    fn exact_length(&self) -> Option<i64> {
        if self.rows_complete {
            Some(self.sum_rows)
        } else if self.cols_complete {
            Some(self.sum_cols)
        } else {
            None
        }
    }
}

impl Backtrack for ExtendSearch {
    /// The next cell of the path.
    type Branch = CellId;

    fn interrupted(&self) -> Option<StopReason> {
        self.stopped
    }

    fn expand(&mut self, out: &mut Vec<CellId>) -> Expand {
        if self.over_time() {
            return Expand::Dead;
        }
        let head = *self.path.last().expect("the path holds door A at least");
        let b = self.door_b;
        if head == b {
            return if self.sum_rows == 0 && self.sum_cols == 0 {
                Expand::Solution
            } else {
                Expand::Dead
            };
        }
        let rules = self.rules;
        // Cheap tests first.
        if rules.reach && !self.usable(b) {
            return self.cut(REACH);
        }
        let (hr, hc) = self.shape.coords(head);
        let (br, bc) = self.shape.coords(b);
        let dist = (hr.abs_diff(br) + hc.abs_diff(bc)) as i64;
        let exact = self.exact_length();
        if rules.length {
            if self.rows_complete && self.cols_complete && self.sum_rows != self.sum_cols {
                return self.cut(LENGTH);
            }
            if exact.is_some_and(|l| l < dist) {
                return self.cut(LENGTH);
            }
        }
        if rules.parity && exact.is_some_and(|l| (l - dist) % 2 != 0) {
            return self.cut(PARITY);
        }
        let fill = rules.reach
            || rules.blocks
            || rules.owed
            || rules.length
            || rules.parity
            || rules.deadend
            || rules.forced
            || rules.order
            || rules.cuts
            || rules.reserve
            || rules.tail;
        if fill {
            // The flood fill over usable cells, not passing through door B.
            let (found, reached, same_colour) = self.fill_from(head);
            if self.over_time() {
                return Expand::Dead;
            }
            if rules.reach && !found {
                return self.cut(REACH);
            }
            if rules.owed && owes_more(&self.row_need, &self.reach_row, &self.col_need, &self.reach_col) {
                return self.cut(OWED);
            }
            if rules.cuts && {
                self.count_pairs(head);
                if self.over_time() {
                    return Expand::Dead;
                }
                cut_blocked(&self.row_need, &self.reach_row, &self.pairs_row, hr, br)
                    || cut_blocked(&self.col_need, &self.reach_col, &self.pairs_col, hc, bc)
            } {
                return self.cut(CUTS);
            }
            let lower = self.sum_rows.max(self.sum_cols).max(dist);
            if rules.length && lower > reached as i64 {
                return self.cut(LENGTH);
            }
            if rules.parity {
                if let Some(l) = exact {
                    let other_colour = reached as i64 - same_colour;
                    if other_colour < (l + 1) / 2 || same_colour < l / 2 {
                        return self.cut(PARITY);
                    }
                }
            }
            if rules.deadend || rules.forced || rules.order || rules.edges {
                let viable_total = self.count_viable(head);
                if self.over_time() {
                    return Expand::Dead;
                }
                if rules.deadend
                    && (lower > viable_total
                        || owes_more(&self.row_need, &self.viable_row, &self.col_need, &self.viable_col))
                {
                    return self.cut(DEADEND);
                }
            }
            if rules.edges {
                let propagated = self.propagate(head, lower);
                if self.over_time() {
                    return Expand::Dead;
                }
                match propagated {
                    Err(()) => return self.cut(EDGES),
                    Ok(Some(next)) => {
                        out.push(next);
                        return Expand::Branches;
                    }
                    Ok(None) => {}
                }
            }
        }
        // After the edge propagation, `degree` and the line counts describe the propagated
        // graph (the head's own forced edge was already returned), so the must-move test of
        // `forced`, which counts the head among a cell's neighbours, is not applied again.
        let edges = fill && rules.edges;
        let deadend = fill && rules.deadend;
        let forced = fill && rules.forced && !edges;
        let order = fill && rules.order;
        // Branches: the usable neighbours in the paper's order d, l, r, u.
        let start = out.len();
        let mut must: Option<CellId> = None;
        for dir in crate::model::Arrow::DIRS {
            if let Some(n) = self.shape.step(head, dir.delta()) {
                if !self.usable(n) {
                    continue;
                }
                if fill && !self.in_fill(n) {
                    // Not on any simple path to door B (a pocket behind a cut cell).
                    self.prunes[BLOCKS] += 1;
                    continue;
                }
                if edges && !self.alive[n.index()] {
                    self.prunes[EDGES] += 1;
                    continue;
                }
                if deadend && !self.viable[n.index()] {
                    self.prunes[DEADEND] += 1;
                    continue;
                }
                if forced && self.viable[n.index()] && self.is_forced(n) {
                    // A cell that must be on the path and has only two possible path neighbours
                    // (one of them the head) must come next; door B with the head as its only
                    // possible neighbour likewise.
                    let d = self.degree[n.index()];
                    if (n != b && d == 2) || (n == b && d == 1) {
                        if must.is_some() {
                            out.truncate(start);
                            return self.cut(FORCED);
                        }
                        must = Some(n);
                    }
                }
                out.push(n);
            }
        }
        if let Some(n) = must {
            out.truncate(start);
            out.push(n);
        } else if order && out.len() - start > 1 {
            // Must-use cells first, then Warnsdorff's rule: fewest onward possibilities first
            // (a stable sort: ties keep the paper's order d, l, r, u).
            let mut keyed: [(u8, CellId); 4] = [(0, CellId(0)); 4];
            let k = out.len() - start;
            for (slot, &c) in keyed.iter_mut().zip(&out[start..]) {
                let must = if edges { self.must[c.index()] } else { self.is_forced(c) };
                let forced_first = if must { 0 } else { 8 };
                *slot = (forced_first + self.degree[c.index()], c);
            }
            keyed[..k].sort_by_key(|x| x.0);
            for (dst, src) in out[start..].iter_mut().zip(&keyed[..k]) {
                *dst = src.1;
            }
        }
        if out.len() == start {
            Expand::Dead
        } else {
            Expand::Branches
        }
    }

    fn apply(&mut self, next: CellId) -> bool {
        self.enter(next);
        true
    }

    fn undo(&mut self, _: CellId) {
        self.leave();
    }
}

/// The crossing argument on the cuts between consecutive lines (rows, or columns), a dynamic
/// generalisation of Theorem 2. The rest of the path runs from the head (in line `h`) to door B
/// (in line `b`). It crosses the cut below line `k` an odd number of times when the cut separates
/// the head from B, and otherwise at least twice when a line beyond the cut still owes cells.
/// Two crossings of one cut cannot share a cell, and each uses a future cell (or the head) on
/// either side, so the crossings are at most the future cells of line `k` (+1 for the head)
/// and of line `k + 1`, and at most the `pairs[k]` open crossings (neighbouring cells across
/// the cut both reached, or one of them the head). Future cells of a clued line = its owed
/// count; of an unclued line at most its reached cells. True when some cut needs more
/// crossings than that.
fn cut_blocked(need: &[i32], reach: &[u32], pairs: &[u32], h: usize, b: usize) -> bool {
    let lines = need.len();
    if lines < 2 {
        return false;
    }
    let future = |k: usize| -> u32 {
        let f = if need[k] >= 0 { need[k] as u32 } else { reach[k] };
        f + u32::from(k == h)
    };
    // Lines owing cells up to and including line k (before the cut) and after it.
    let owing = need.iter().filter(|&&v| v > 0).count();
    let mut owing_before = 0;
    for (k, &nk) in need[..lines - 1].iter().enumerate() {
        owing_before += usize::from(nk > 0);
        let owes_before = owing_before > 0;
        let owes_after = owing > owing_before;
        let head_above = h <= k;
        let b_above = b <= k;
        let required = if head_above != b_above {
            1
        } else if (head_above && owes_after) || (!head_above && owes_before) {
            2
        } else {
            0
        };
        if required > 0 && (future(k) < required || future(k + 1) < required || pairs[k] < required) {
            return true;
        }
    }
    false
}

/// The board of a grid that fits in one bitboard word.
#[derive(Clone, Debug)]
enum Board {
    Small(Bits<u64>),
    Large(Bits<u128>),
}

impl Board {
    fn new(shape: Shape) -> Option<Board> {
        Bits::<u64>::new(shape)
            .map(Board::Small)
            .or_else(|| Bits::<u128>::new(shape).map(Board::Large))
    }
}

/// Bitboard masks for grids of at most `W::BITS` cells (bit `i` = cell `i`, row-major).
#[derive(Clone, Debug)]
struct Bits<W> {
    steps: Steps<W>,
    row: Vec<W>,
    col: Vec<W>,
    /// Cells whose `row + col` is even (the checkerboard colour of `r1c1`).
    even: W,
    /// The orthogonal neighbours of each cell.
    nbr: Vec<W>,
}

impl<W: BitWord> Bits<W> {
    fn new(shape: Shape) -> Option<Bits<W>> {
        let (h, w) = (shape.height, shape.width);
        // A row must be narrower than the word: whole rows are shifted by the width.
        if h * w > W::BITS as usize || w >= W::BITS as usize {
            return None;
        }
        let bit = |r: usize, c: usize| W::ONE << (r * w + c) as u32;
        let mut b = Bits {
            steps: Steps::new(h as u32, w as u32),
            row: vec![W::ZERO; h],
            col: vec![W::ZERO; w],
            even: W::ZERO,
            nbr: vec![W::ZERO; h * w],
        };
        for r in 0..h {
            for c in 0..w {
                let x = bit(r, c);
                b.row[r] |= x;
                b.col[c] |= x;
                if c > 0 {
                    b.nbr[r * w + c] |= bit(r, c - 1);
                }
                if c + 1 < w {
                    b.nbr[r * w + c] |= bit(r, c + 1);
                }
                if r > 0 {
                    b.nbr[r * w + c] |= bit(r - 1, c);
                }
                if r + 1 < h {
                    b.nbr[r * w + c] |= bit(r + 1, c);
                }
                if (r + c) % 2 == 0 {
                    b.even |= x;
                }
            }
        }
        Some(b)
    }

    /// The cells orthogonally next to some cell of `x`.
    #[inline]
    fn spread(&self, x: W) -> W {
        self.steps.spread(x)
    }
}

/// Neighbours in the order up, left, right, down (`u32::MAX` = outside the grid).
fn neighbour_table(shape: Shape) -> Vec<[u32; 4]> {
    let (h, w) = (shape.height, shape.width);
    let mut out = Vec::with_capacity(h * w);
    for r in 0..h {
        for c in 0..w {
            let i = (r * w + c) as u32;
            let none = u32::MAX;
            out.push([
                if r > 0 { i - w as u32 } else { none },
                if c > 0 { i - 1 } else { none },
                if c + 1 < w { i + 1 } else { none },
                if r + 1 < h { i + w as u32 } else { none },
            ]);
        }
    }
    out
}

/// True when a clued row or column owes more cells than `have` offers.
#[inline]
fn owes_more(row_need: &[i32], row_have: &[u32], col_need: &[i32], col_have: &[u32]) -> bool {
    row_need.iter().zip(row_have).any(|(&n, &h)| n > 0 && n as u32 > h)
        || col_need.iter().zip(col_have).any(|(&n, &h)| n > 0 && n as u32 > h)
}
