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
//! | `blocks`  | (sharpens the fill) only cells on *some simple path* from `head` to B count as reached: the biconnected blocks on the block–cut-tree path ([`Flood::between`]); a pocket behind a cut cell can be entered but not left |
//! | `owed`    | a clued row or column owes more cells than the fill reaches in it                    |
//! | `length`  | `L`'s lower bound (owed row sum, owed column sum, Manhattan distance to B) exceeds the reached cells, or (rows or columns fully clued) `L` is exact and below the distance to B, or the two exact sums disagree (Theorem 1 on the remainder) |
//! | `parity`  | `L` is exact and (checkerboard colouring) `L − dist(head, B)` is odd, or one colour has fewer reached cells than the `⌈L/2⌉`/`⌊L/2⌋` the path needs |
//! | `deadend` | counting only *viable* reached cells (door B, or a cell with two neighbours among the reached cells and `head`), a clued row or column owes more than it has, or `L` exceeds them; non-viable neighbours of `head` are not tried |
//!
//! Cheap tests (door B usable, the exact-length tests) run before the flood fill. Each rule
//! can be switched off ([`Pruning::parse`], CLI `--set prune=-parity`), and [`FastSearch`]
//! counts how often each one cut the tree so their effect can be measured (`--stats`).
//! With every rule off the search visits exactly the nodes of Algorithm 3.

use crate::model::{configuration_from_path, Configuration, PathPuzzle};
use pencilbox_core::reach::Flood;
use pencilbox_core::search::{Backtrack, Expand};
use pencilbox_core::{CellId, Shape};

/// The names of the pruning rules, in the order of [`FastSearch::prunes`].
pub const RULES: [&str; 9] = [
    "reach", "blocks", "owed", "length", "parity", "deadend", "forced", "order", "cuts",
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
    /// Try the neighbours with the fewest onward possibilities first (Warnsdorff's rule).
    pub order: bool,
    /// Crossing counts on the cuts between consecutive rows and columns.
    pub cuts: bool,
}

impl Default for Pruning {
    fn default() -> Self {
        Pruning::ALL
    }
}

impl Pruning {
    /// Every rule on (the default).
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
            _ => return None,
        })
    }

    /// Reads a rule list: `all`, `none`, a comma-separated list of rule names (exactly those
    /// on), or changes to the default set (`-parity,-deadend`, `none,+reach`).
    ///
    /// ```
    /// use pencilbox_pathpuzzle::fast::Pruning;
    /// let p = Pruning::parse("-parity").unwrap();
    /// assert!(p.reach && !p.parity);
    /// assert_eq!(Pruning::parse("reach,owed").unwrap().length, false);
    /// assert!(Pruning::parse("-speed").is_err());
    /// ```
    pub fn parse(spec: &str) -> Result<Pruning, String> {
        let items: Vec<&str> = spec.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
        let relative = items
            .iter()
            .all(|s| s.starts_with(['-', '+']) || *s == "all" || *s == "none");
        let mut p = if relative { Pruning::ALL } else { Pruning::NONE };
        for item in items {
            match item {
                "all" => p = Pruning::ALL,
                "none" => p = Pruning::NONE,
                _ => {
                    let (on, name) = match item.strip_prefix('-') {
                        Some(n) => (false, n),
                        None => (true, item.strip_prefix('+').unwrap_or(item)),
                    };
                    let Some(f) = p.flag(name) else {
                        return Err(format!(
                            "unknown pruning rule `{name}`; the rules are {}",
                            RULES.join(", ")
                        ));
                    };
                    *f = on;
                }
            }
        }
        Ok(p)
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
const OWED: usize = 2;
const LENGTH: usize = 3;
const PARITY: usize = 4;
const DEADEND: usize = 5;
const FORCED: usize = 6;
const CUTS: usize = 8;

/// The state of the pruned search.
#[derive(Clone, Debug)]
pub struct FastSearch {
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
    prunes: [u64; 9],
}

impl FastSearch {
    /// The search at its root: the path is door A alone. Run
    /// [`crate::checks::no_solution_reason`] first: door A's row and column must not have the
    /// clue 0 and the doors must differ.
    pub fn new(p: &PathPuzzle, rules: Pruning) -> Self {
        let shape = p.shape();
        let cells = shape.cells();
        let row_need = p.cr();
        let col_need = p.cc();
        let mut s = FastSearch {
            shape,
            rules,
            door_b: p.cell_b(),
            row_of: shape.all().map(|c| shape.coords(c).0 as u32).collect(),
            col_of: shape.all().map(|c| shape.coords(c).1 as u32).collect(),
            sum_rows: row_need.iter().filter(|&&v| v >= 0).map(|&v| i64::from(v)).sum(),
            sum_cols: col_need.iter().filter(|&&v| v >= 0).map(|&v| i64::from(v)).sum(),
            rows_complete: row_need.iter().all(|&v| v >= 0),
            cols_complete: col_need.iter().all(|&v| v >= 0),
            row_need,
            col_need,
            on_path: vec![false; cells],
            path: Vec::with_capacity(cells),
            flood: Flood::new(shape),
            reach_row: vec![0; p.height()],
            reach_col: vec![0; p.width()],
            viable_row: vec![0; p.height()],
            viable_col: vec![0; p.width()],
            viable: vec![false; cells],
            degree: vec![0; cells],
            prunes: [0; 9],
        };
        s.enter(p.cell_a());
        s
    }

    /// How many nodes each rule cut, in the order of [`RULES`].
    pub fn prunes(&self) -> [u64; 9] {
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

impl Backtrack for FastSearch {
    /// The next cell of the path.
    type Branch = CellId;

    fn expand(&mut self, out: &mut Vec<CellId>) -> Expand {
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
            || rules.cuts;
        if fill {
            // The flood fill over usable cells, not passing through door B.
            let (on_path, row_need, col_need) = (&self.on_path, &self.row_need, &self.col_need);
            let (row_of, col_of) = (&self.row_of, &self.col_of);
            let usable = |c: CellId| {
                let i = c.index();
                !on_path[i] && row_need[row_of[i] as usize] != 0 && col_need[col_of[i] as usize] != 0
            };
            // The block decomposition costs about twice a plain fill; it can only save work
            // where the head has a choice, so plain fills serve the forced stretches.
            let choices = self.flood.neighbours(head).iter().filter(|&&c| usable(c)).count();
            let found = if rules.blocks && choices > 1 {
                self.flood.between(head, b, usable)
            } else {
                self.flood.fill(&[head], usable, |c| c != b);
                self.flood.reached(b)
            };
            if rules.reach && !found {
                return self.cut(REACH);
            }
            let reached = self.flood.cells().len();
            self.reach_row.fill(0);
            self.reach_col.fill(0);
            let head_colour = (hr + hc) % 2;
            let mut same_colour = 0i64;
            for &c in self.flood.cells() {
                let i = c.index();
                self.reach_row[self.row_of[i] as usize] += 1;
                self.reach_col[self.col_of[i] as usize] += 1;
                let (r, col) = (self.row_of[i] as usize, self.col_of[i] as usize);
                if (r + col) % 2 == head_colour {
                    same_colour += 1;
                }
            }
            if rules.owed && owes_more(&self.row_need, &self.reach_row, &self.col_need, &self.reach_col) {
                return self.cut(OWED);
            }
            if rules.cuts
                && (cut_blocked(&self.row_need, &self.reach_row, hr, br)
                    || cut_blocked(&self.col_need, &self.reach_col, hc, bc))
            {
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
            if rules.deadend || rules.forced || rules.order {
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
                if rules.deadend
                    && (lower > viable_total
                        || owes_more(&self.row_need, &self.viable_row, &self.col_need, &self.viable_col))
                {
                    return self.cut(DEADEND);
                }
            }
        }
        let deadend = fill && rules.deadend;
        let forced = fill && rules.forced;
        let order = fill && rules.order;
        // Branches: the usable neighbours in the paper's order d, l, r, u.
        let start = out.len();
        let mut must: Option<CellId> = None;
        for dir in crate::model::Arrow::DIRS {
            if let Some(n) = self.shape.step(head, dir.delta()) {
                if !self.usable(n) {
                    continue;
                }
                if fill && !self.flood.reached(n) {
                    // Not on any simple path to door B (a pocket behind a cut cell).
                    self.prunes[BLOCKS] += 1;
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
            // Warnsdorff's rule: fewest onward possibilities first (stable: ties keep d, l, r, u).
            let degree = &self.degree;
            out[start..].sort_by_key(|c| degree[c.index()]);
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
/// and of line `k + 1`. Future cells of a clued line = its owed count; of an unclued line at
/// most its reached cells. True when some cut needs more crossings than that.
fn cut_blocked(need: &[i32], reach: &[u32], h: usize, b: usize) -> bool {
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
        if required > 0 && (future(k) < required || future(k + 1) < required) {
            return true;
        }
    }
    false
}

/// True when a clued row or column owes more cells than `have` offers.
#[inline]
fn owes_more(row_need: &[i32], row_have: &[u32], col_need: &[i32], col_have: &[u32]) -> bool {
    row_need.iter().zip(row_have).any(|(&n, &h)| n > 0 && n as u32 > h)
        || col_need.iter().zip(col_have).any(|(&n, &h)| n > 0 && n as u32 > h)
}
