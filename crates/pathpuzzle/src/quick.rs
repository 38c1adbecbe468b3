//! The first phase of `fast`: Algorithm 3's walk from door A (paper, Section V) on bitboards,
//! with cheap sound cuts, under a node budget.
//!
//! Building the link model on the engine ([`crate::fast`]) costs more than solving most small
//! puzzles by walking: on the paper's 6×6 letters the model costs about 8 µs before its first
//! decision, while Algorithm 3 settles the easiest letters in a dozen nodes and under a
//! microsecond. So `fast` first walks, as Algorithm 3 does, and hands over to the engine only
//! when the walk has used its budget of nodes ([`crate::fast::Rules::quick`]).
//!
//! # The walk
//! The path grows from door A, trying the neighbours of its end in the paper's order
//! `d, l, r, u` (line 9 of Algorithm 3) and entering a neighbour only when it is inside the
//! grid, not on the path, and its row and column clues are not used up (line 11). At door B
//! the path is a solution when every clue is used up (lines 3–7). On top of the paper's tests
//! the walk cuts a node when one of these holds (each is implied by Definition 1, so no
//! solution is lost and the walk visits a subset of Algorithm 3's tree):
//!
//! * **door B** — door B's row or column clue is used up (the path can no longer end there);
//! * **length** — every row (or every column) is clued, so the number `L` of cells still to
//!   come is the sum of what they owe, and `L` is less than the Manhattan distance to B or of
//!   the other parity (a grid path alternates checkerboard colours: Theorem 1's sums applied to
//!   the rest of the path);
//! * **reach** — at a node where the path can turn (two ways on or more), once the walk has
//!   met a few dead ends (before that, it may be going straight to B): the cells the rest
//!   of the path can use (off the path, in lines that still owe, reached from the path's end
//!   without passing through door B) do not reach B, or hold fewer cells of some clued row or
//!   column than it owes, or fewer than `L`, or fewer of either colour than the path's
//!   remaining `⌈L/2⌉` / `⌊L/2⌋` cells of that colour. Before counting, cells with fewer
//!   than two neighbours among those cells, the path's end and B are dropped (repeatedly):
//!   every future cell but B lies between two others;
//! * **deductions** — once the walk has met [`FLOOD_AFTER_FAILURES`] dead ends it deduces,
//!   once, from the clues alone and to a fixpoint, cells no solution visits and cells every
//!   solution visits (the link model's `lines`, `degree`, `colours` and a weaker `connect` on
//!   cells, on the whole grid: [`deductions`]). The closed cells stay closed for the rest
//!   of the walk (a path already through one is abandoned back to the node before it), and
//!   `reach` cuts a node whose future cells miss a cell every solution visits.
//!
//! Until it has met [`ORDER_AFTER_FAILURES`] dead ends the walk keeps the paper's order, so on
//! the puzzles Algorithm 3 settles at once it finds the paper's first solution in at most the
//! paper's nodes; after that it tries the neighbours with the fewest ways on first
//! (Warnsdorff's rule, ties in the paper's order), which finds a first solution sooner on the
//! harder ones. The flood fill of `reach` starts after [`FLOOD_AFTER_FAILURES`] dead ends: it
//! costs several plain nodes, which a walk that goes (nearly) straight to B does not recover.
//!
//! The state is a few bitboard words and arrays on the stack: no allocation before a solution
//! is kept, so the walk costs about what the paper's search does on the puzzles it settles at
//! once, and far fewer nodes on the rest. Grids of more than 128 cells skip it.

use crate::bitboard::{BitWord, Steps};
use crate::model::{Arrow, Configuration, PathPuzzle};
use pencilbox_core::search::{Limits, SearchResult, Stats, StopReason};
use pencilbox_core::time::Instant;
use pencilbox_core::{CellId, Grid};

/// The largest grid the walk handles (one `u128` bitboard).
pub const MAX_CELLS: usize = 128;
/// Rows plus columns of a grid of at most [`MAX_CELLS`] cells (a 1×128 grid has 129).
const MAX_LINES: usize = MAX_CELLS + 1;
/// Dead ends met before the walk starts flood fills (`reach`).
pub const FLOOD_AFTER_FAILURES: u64 = 4;
/// Dead ends met before the walk tries the neighbours with the fewest ways on first.
pub const ORDER_AFTER_FAILURES: u64 = 16;
/// What a line without a clue "owes": more than any path has cells, so it never gets to 0
/// (while a clued line owes at most [`MAX_CELLS`]).
const NO_CLUE: i16 = 1 << 14;

/// What a walk ended with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Walked {
    /// The walk answered: the whole tree was searched, or a limit of the caller (solutions,
    /// nodes) stopped it.
    Done {
        /// Counters and the stop reason, as the core driver reports them.
        result: SearchResult,
        /// The first solutions found (at most the number asked to keep).
        solutions: Vec<Configuration>,
        /// Nodes cut by the walk's own tests (door B, length, reach).
        cuts: u64,
    },
    /// The budget ran out after this many nodes; the caller searches another way.
    OverBudget {
        /// The walk's counters (nodes, dead ends, depth).
        stats: Stats,
        /// The solutions it had found (kept as for [`Walked::Done`]): the first ones in the
        /// walk's order, whatever the solution limit, so that the caller can report the same
        /// first witnesses as a run that stopped at a lower limit inside the budget.
        solutions: Vec<Configuration>,
    },
    /// The walk does not apply: the grid has more than [`MAX_CELLS`] cells (or is one row
    /// of 128), or the doors break Definition 1 (not two distinct cells on the edge, or on a
    /// line whose clue is 0), which [`crate::checks::no_solution_reason`] reports.
    Skipped,
}

/// Walks `p` from door A with at most `budget` nodes (`budget × (36 / cells)²` on grids of
/// more than 36 cells) and `limits`' node and solution limits, keeping the first `keep` solutions. The deadline and cancellation flag are not
/// polled: a walk is at most `budget` nodes of a grid of at most [`MAX_CELLS`] cells.
///
/// Every solution it reports is a solution by Definition 1, without
/// [`crate::checks::no_solution_reason`] having run: the doors are checked here, and a path
/// that uses up every clue exactly satisfies the rest. So the checks need to run only when the
/// walk found nothing, to say why.
pub fn walk(p: &PathPuzzle, limits: &Limits, budget: u64, keep: usize) -> Walked {
    let shape = p.shape();
    let cells = shape.cells();
    let (a, b) = (p.door_a(), p.door_b());
    let zero = |(i, j): (usize, usize)| p.row_clues()[i] == Some(0) || p.col_clues()[j] == Some(0);
    if a == b || !shape.on_edge(p.cell_a()) || !shape.on_edge(p.cell_b()) || zero(a) || zero(b) {
        return Walked::Skipped;
    }
    // The budget is in nodes of a 6×6 grid (the paper's letters). On a larger grid a node's
    // flood fill costs about as much more as the grid is larger, and a walk settles fewer
    // puzzles (on `examples/path/bench-8x8` to `bench-11x11` almost none): it gets fewer
    // nodes by the square of the ratio (8×8: 159, 10×10: 65).
    let budget = if cells > 36 {
        (budget.saturating_mul(36 * 36)).div_ceil((cells * cells) as u64)
    } else {
        budget
    };
    // A row must be narrower than the word: the walk shifts whole rows by the width.
    if cells <= 64 && shape.width < 64 {
        Walk::<u64>::new(p, limits, budget, keep).run()
    } else if cells <= MAX_CELLS && shape.width < MAX_CELLS {
        Walk::<u128>::new(p, limits, budget, keep).run()
    } else {
        Walked::Skipped
    }
}

/// What the walk's deductions from the clues (the module docs) say about a puzzle: for
/// tests and tools (the walk itself runs them only after its first dead ends).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deductions {
    /// The walk does not apply ([`Walked::Skipped`]).
    Skipped,
    /// No path satisfies the rules.
    Refuted,
    /// The cells no solution visits and the cells every solution visits (the doors among
    /// them), in cell order.
    Cells {
        /// Cells no solution visits.
        closed: Vec<CellId>,
        /// Cells every solution visits.
        must: Vec<CellId>,
    },
}

/// The walk's deductions from the clues on `p` (see the module docs), as the walk makes them:
/// the link model's `lines`, `degree` and `colours` rules on cells, and reachability from both
/// doors, to a fixpoint.
pub fn deductions(p: &PathPuzzle) -> Deductions {
    fn cells<W: BitWord>(x: W, n: usize) -> Vec<CellId> {
        (0..n)
            .filter(|&i| (x >> i as u32) & W::ONE != W::ZERO)
            .map(CellId::from_index)
            .collect()
    }
    fn run<W: BitWord>(p: &PathPuzzle) -> Deductions {
        let n = p.shape().cells();
        match Walk::<W>::new(p, &Limits::all(), 0, 0).presolve() {
            None => Deductions::Refuted,
            Some((closed, must)) => Deductions::Cells {
                closed: cells(closed, n),
                must: cells(must, n),
            },
        }
    }
    if walk(p, &Limits::all(), 0, 0) == Walked::Skipped {
        return Deductions::Skipped;
    }
    if p.shape().cells() <= 64 && p.shape().width < 64 {
        run::<u64>(p)
    } else {
        run::<u128>(p)
    }
}

/// Why a walk stopped before the end of its tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Halt {
    Budget,
    Limit(StopReason),
    /// [`Walk::presolve`] found that no path exists.
    Refuted,
    /// [`Walk::presolve`] closed a cell of the path: back to the node before the first one.
    Unwind,
}

struct Walk<'p, W> {
    p: &'p PathPuzzle,
    w: u32,
    h: u32,
    steps: Steps<W>,
    /// Cells whose `row + col` is even.
    even: W,
    /// Row 0's cells; row `r` is this shifted by `r * w`.
    row0: W,
    /// Column 0's cells; column `c` is this shifted by `c`.
    col0: W,
    /// What each line still owes: rows `0..h`, then columns `h..h + w`; about [`NO_CLUE`] for
    /// a line without a clue (it never gets down to 0).
    need: [i16; MAX_LINES],
    /// Clued lines that still owe a cell.
    owing: u32,
    /// The path's length when every row or every column is clued (the sum of those clues).
    length: Option<i32>,
    b: u32,
    /// Door B's row and column.
    b_at: (u32, u32),
    /// Cells on the path (its end included).
    path_bits: W,
    /// Cells of lines that owe nothing more, and [`Walk::presolved`].
    closed: W,
    /// Cells of lines whose clue is 0.
    root_closed: W,
    /// The cells [`Walk::presolve`] closed (none before it has run).
    presolved: W,
    /// Cells every path visits: the doors, then what [`Walk::presolve`] found.
    must: W,
    /// Whether [`Walk::presolve`] has run.
    settled: bool,
    path: [u8; MAX_CELLS],
    len: usize,
    stats: Stats,
    solutions: u64,
    kept: Vec<Configuration>,
    keep: usize,
    /// The smaller of the budget and the caller's node limit.
    cap: u64,
    node_limit: Option<u64>,
    max_solutions: Option<u64>,
    cuts: u64,
}

impl<'p, W: BitWord> Walk<'p, W> {
    fn new(p: &'p PathPuzzle, limits: &Limits, budget: u64, keep: usize) -> Self {
        let shape = p.shape();
        let (h, w) = (shape.height as u32, shape.width as u32);
        let mut row0 = W::ZERO;
        let mut even_row = W::ZERO;
        for c in 0..w {
            row0 |= W::ONE << c;
            if c % 2 == 0 {
                even_row |= W::ONE << c;
            }
        }
        let odd_row = row0 & !even_row;
        let (mut col0, mut even) = (W::ZERO, W::ZERO);
        for r in 0..h {
            col0 |= W::ONE << (r * w);
            even |= (if r % 2 == 0 { even_row } else { odd_row }) << (r * w);
        }
        let mut need = [0i16; MAX_LINES];
        let mut owing = 0;
        for (k, clue) in p.row_clues().iter().chain(p.col_clues()).enumerate() {
            need[k] = clue.map_or(NO_CLUE, |v| v as i16);
            owing += u32::from(clue.is_some_and(|v| v > 0));
        }
        let sum = |clues: &[Option<u32>]| clues.iter().map(|c| c.map(|v| v as i32)).sum::<Option<i32>>();
        let length = sum(p.row_clues()).or_else(|| sum(p.col_clues()));
        let mut s = Walk {
            p,
            w,
            h,
            steps: Steps::new(h, w),
            even,
            row0,
            col0,
            need,
            owing,
            length,
            b: p.cell_b().index() as u32,
            b_at: (p.door_b().0 as u32, p.door_b().1 as u32),
            path_bits: W::ZERO,
            closed: W::ZERO,
            root_closed: W::ZERO,
            presolved: W::ZERO,
            must: W::ZERO,
            settled: false,
            path: [0; MAX_CELLS],
            len: 0,
            stats: Stats::default(),
            solutions: 0,
            kept: Vec::new(),
            keep,
            cap: budget.min(limits.node_limit.unwrap_or(u64::MAX)),
            node_limit: limits.node_limit,
            max_solutions: limits.max_solutions,
            cuts: 0,
        };
        // Line 11 never enters a line whose clue is 0.
        for k in 0..h + w {
            if s.need[k as usize] == 0 {
                s.closed |= s.line(k);
            }
        }
        s.root_closed = s.closed;
        // Line 2 of the root call: door A is on the path (`walk` keeps clue 0 off its lines).
        let (ai, aj) = p.door_a();
        s.enter(p.cell_a().index() as u32, (ai as u32, aj as u32));
        s
    }

    /// Deductions on the whole grid, from the clues alone, to a fixpoint (each follows from
    /// Definition 1, so no solution is lost): the cells no path visits (closed) and the cells
    /// every path visits (`must`), or `None` when they show that no path exists.
    ///
    /// * **lines** — a clued line with as many `must` cells as its clue is closed to its other
    ///   cells; one with only as many open cells as its clue visits them all;
    /// * **degree** — a cell other than a door with fewer than two open neighbours is closed;
    ///   a door with one open neighbour visits it, and so does a `must` cell (not a door) with
    ///   two;
    /// * **colours** — when the path's length is known, each checkerboard colour holds its
    ///   share of it (door A's colour `⌈L/2⌉`, the other `⌊L/2⌋`): as for a line;
    /// * **reach** — only cells reached from door A without passing through door B, and from
    ///   door B without passing through door A, can be visited.
    ///
    /// These are the link model's `lines`, `degree`, `colours` and (weaker) `connect` rules on
    /// cells alone, at the root; they cost about a dozen plain nodes, so the walk runs them
    /// only once it has met [`FLOOD_AFTER_FAILURES`] dead ends ([`Walk::visit`]).
    // Run once per walk: kept out of `visit`, the hot loop.
    #[inline(never)]
    fn presolve(&self) -> Option<(W, W)> {
        let all = self.steps.all;
        let a = Self::bit(self.path[0] as u32);
        let b = Self::bit(self.b);
        let doors = a | b;
        let (mut closed, mut must) = (self.root_closed, doors);
        // The clued lines (line, clue).
        let mut clued = [(0u8, 0u8); MAX_LINES];
        let mut n_clued = 0;
        let rows = self.p.row_clues().iter();
        for (k, clue) in rows.chain(self.p.col_clues()).enumerate() {
            if let Some(n) = *clue {
                // A line's index and a clue that can be met fit a byte (`walk` skips the rest).
                clued[n_clued] = (k as u8, n.min(255) as u8);
                n_clued += 1;
            }
        }
        let clued = &clued[..n_clued];
        let colours = self.length.map(|l| {
            let (same, other) = if a & self.even != W::ZERO {
                (self.even, all & !self.even)
            } else {
                (all & !self.even, self.even)
            };
            [(same, (l + 1) / 2), (other, l / 2)]
        });

        loop {
            let (closed_before, must_before) = (closed, must);
            if must & closed != W::ZERO {
                return None;
            }
            // degree
            let open = all & !closed;
            let [l, r, u, d] = self.steps.neighbour_sets(open);
            let one = (l | r | u | d) & all;
            let two = Steps::at_least_two([l, r, u, d]) & all;
            let three = ((l & r & (u | d)) | (u & d & (l | r))) & all;
            if doors & !one != W::ZERO {
                return None;
            }
            closed |= open & !doors & !two;
            let forcing = (doors & !two) | (must & !doors & !three);
            must |= self.spread(forcing) & open;
            // lines
            for &(k, n) in clued {
                settle(&mut closed, &mut must, self.line(u32::from(k)), i32::from(n))?;
            }
            // colours
            if let Some(colours) = colours {
                for (cells, n) in colours {
                    settle(&mut closed, &mut must, cells, n)?;
                }
            }
            if closed != closed_before || must != must_before {
                continue;
            }
            // reach, the costly rule, once the others are at their fixpoint
            let open = all & !closed;
            let (from_a, from_b) = (self.fill(a, open & !b), self.fill(b, open & !a));
            if self.spread(from_a) & b == W::ZERO {
                return None;
            }
            closed |= open & !(from_a & from_b) & !doors;
            if closed == closed_before {
                return (must & closed == W::ZERO).then_some((closed, must));
            }
        }
    }

    /// The cells of `through` reached from `from` in steps inside `through`, plus `from`.
    #[inline]
    fn fill(&self, from: W, through: W) -> W {
        let mut reach = from;
        loop {
            let more = reach | (self.spread(reach) & through);
            if more == reach {
                return reach;
            }
            reach = more;
        }
    }

    fn run(mut self) -> Walked {
        let started = Instant::now();
        let a = self.path[0] as u32;
        let (ai, aj) = self.p.door_a();
        self.must = Self::bit(a) | Self::bit(self.b);
        let halt = match self.visit(a, (ai as u32, aj as u32)) {
            // Every path broke a rule of [`Walk::presolve`].
            Err(Halt::Refuted) => Ok(()),
            other => other,
        };
        self.stats.elapsed_us = started.elapsed().as_micros() as u64;
        let stop = match halt {
            Err(Halt::Budget) => {
                return Walked::OverBudget {
                    stats: self.stats,
                    solutions: self.kept,
                }
            }
            Err(Halt::Limit(why)) => why,
            Err(Halt::Refuted | Halt::Unwind) => unreachable!("handled above and in `step`"),
            Ok(()) => StopReason::Exhausted,
        };
        Walked::Done {
            result: SearchResult {
                solutions: self.solutions,
                stop,
                stats: self.stats,
            },
            solutions: self.kept,
            cuts: self.cuts,
        }
    }

    #[inline]
    fn bit(c: u32) -> W {
        W::ONE << c
    }

    /// The cells orthogonally next to some cell of `x`.
    #[inline]
    fn spread(&self, x: W) -> W {
        self.steps.spread(x)
    }

    /// The cells of line `k` (a row below `h`, a column from `h` on).
    #[inline]
    fn line(&self, k: u32) -> W {
        if k < self.h {
            self.row0 << (k * self.w)
        } else {
            self.col0 << (k - self.h)
        }
    }

    /// DECREMENTENTRY for one line.
    #[inline]
    fn owe_one_less(&mut self, k: u32) {
        let n = &mut self.need[k as usize];
        *n -= 1;
        if *n == 0 {
            self.owing -= 1;
            self.closed |= self.line(k);
        }
    }

    /// INCREMENTENTRY for one line (`closed` is restored by the caller).
    #[inline]
    fn owe_one_more(&mut self, k: u32) {
        let n = &mut self.need[k as usize];
        if *n == 0 {
            self.owing += 1;
        }
        *n += 1;
    }

    #[inline]
    fn enter(&mut self, c: u32, (row, col): (u32, u32)) {
        self.path_bits |= Self::bit(c);
        self.path[self.len] = c as u8;
        self.len += 1;
        self.owe_one_less(row);
        self.owe_one_less(self.h + col);
    }

    #[inline]
    fn leave(&mut self, c: u32, (row, col): (u32, u32)) {
        self.owe_one_more(self.h + col);
        self.owe_one_more(row);
        self.len -= 1;
        self.path_bits = self.path_bits & !Self::bit(c);
    }

    /// The cells still to come after the path's end (door B included), when every row or
    /// every column is clued.
    #[inline]
    fn exact_length(&self) -> Option<i32> {
        self.length.map(|l| l - self.len as i32)
    }

    /// Records the depth of a leaf (the deepest node of a walk is a leaf).
    #[inline]
    fn deepest(&mut self) {
        self.stats.max_depth = self.stats.max_depth.max(self.len as u64 - 1);
    }

    /// One call of TRAVERSECELL at `head` (already on the path), with the walk's cuts.
    fn visit(&mut self, head: u32, at: (u32, u32)) -> Result<(), Halt> {
        self.stats.nodes += 1;
        if self.stats.nodes > self.cap {
            // The caller's node limit first: it is what the caller asked for.
            if self.node_limit.is_some_and(|n| self.stats.nodes > n) {
                self.stats.nodes -= 1;
                return Err(Halt::Limit(StopReason::NodeLimit));
            }
            return Err(Halt::Budget);
        }
        if head == self.b {
            self.deepest();
            // Lines 3-7: a solution when every clue is used up.
            if self.owing == 0 {
                self.solutions += 1;
                if self.kept.len() < self.keep {
                    self.kept.push(self.configuration());
                }
                if self.max_solutions.is_some_and(|m| self.solutions >= m) {
                    return Err(Halt::Limit(StopReason::SolutionLimit));
                }
            } else {
                self.stats.failures += 1;
            }
            return Ok(());
        }
        if !self.settled && self.stats.failures >= FLOOD_AFTER_FAILURES {
            // The deductions from the clues, once the walk has met a few dead ends (a walk
            // that goes straight to B never pays for them); every later node keeps them.
            self.settled = true;
            let (closed, must) = self.presolve().ok_or(Halt::Refuted)?;
            self.presolved = closed;
            self.must = must;
            self.closed |= closed;
            if self.path_bits & closed != W::ZERO {
                // The path so far is no solution's: back to before its first closed cell.
                self.cuts += 1;
                self.stats.failures += 1;
                return Err(Halt::Unwind);
            }
        }
        let usable = self.steps.all & !self.path_bits & !self.closed;
        let next = self.spread(Self::bit(head)) & usable;
        if next == W::ZERO {
            self.deepest();
            self.stats.failures += 1;
            return Ok(());
        }
        if !self.may_continue(head, at, usable, next) {
            self.deepest();
            self.cuts += 1;
            self.stats.failures += 1;
            return Ok(());
        }
        // Line 9's order: d, l, r, u (each step's bit is a neighbour inside the grid or none).
        let (w, hb) = (self.w, Self::bit(head));
        let (r, c) = at;
        let order = [
            (hb << w, head + w, (r + 1, c)),
            (
                (hb & self.steps.not_first_col) >> 1,
                head.wrapping_sub(1),
                (r, c.wrapping_sub(1)),
            ),
            ((hb & self.steps.not_last_col) << 1, head + 1, (r, c + 1)),
            (hb >> w, head.wrapping_sub(w), (r.wrapping_sub(1), c)),
        ];
        if self.stats.failures >= ORDER_AFTER_FAILURES && next.ones() > 1 {
            // After some dead ends: the neighbours with the fewest ways on first (Warnsdorff's
            // rule; ties in the paper's order).
            let mut order = order;
            let onward = usable & !next;
            order.sort_by_key(|o| (self.spread(o.0) & onward).ones());
            for (step, n, n_at) in order {
                if next & step & !self.closed != W::ZERO {
                    self.step(n, n_at)?;
                }
            }
        } else {
            for (step, n, n_at) in order {
                if next & step & !self.closed != W::ZERO {
                    self.step(n, n_at)?;
                }
            }
        }
        Ok(())
    }

    /// Lines 12-15 and 19 around the call for neighbour `n` at `at`.
    #[inline(always)]
    fn step(&mut self, n: u32, at: (u32, u32)) -> Result<(), Halt> {
        let closed = self.closed;
        self.enter(n, at);
        let went = self.visit(n, at);
        self.leave(n, at);
        // What [`Walk::presolve`] closed stays closed, even when it ran below this node.
        self.closed = closed | self.presolved;
        match went {
            // `n` was the path's first closed cell: this node goes on with its other steps.
            Err(Halt::Unwind) if self.path_bits & self.presolved == W::ZERO => Ok(()),
            other => other,
        }
    }

    /// The configuration of the path (door A to door B, which gets `u`).
    fn configuration(&self) -> Configuration {
        let mut g = Grid::filled(self.p.shape(), Arrow::Empty);
        let path = &self.path[..self.len];
        for pair in path.windows(2) {
            let (from, to) = (pair[0] as u32, pair[1] as u32);
            // Vertical steps first: in a one-column grid they are also ±1.
            g[CellId::from_index(from as usize)] = if to == from + self.w {
                Arrow::Down
            } else if to + self.w == from {
                Arrow::Up
            } else if to == from + 1 {
                Arrow::Right
            } else {
                Arrow::Left
            };
        }
        if let Some(&last) = path.last() {
            g[CellId::from_index(last as usize)] = Arrow::Up;
        }
        g
    }

    /// The walk's cuts at a node whose end `head` is not door B (see the module docs).
    #[inline]
    fn may_continue(&self, head: u32, (row, col): (u32, u32), usable: W, next: W) -> bool {
        let b = Self::bit(self.b);
        // door B: its row and column must still take it.
        if usable & b == W::ZERO {
            return false;
        }
        // length: parity and distance.
        let w = self.w;
        let dist = row.abs_diff(self.b_at.0) + col.abs_diff(self.b_at.1);
        let exact = self.exact_length();
        if let Some(l) = exact {
            if l < dist as i32 || (l - dist as i32) % 2 != 0 {
                return false;
            }
        }
        // reach: only where the path can turn (a corridor is checked at its end), and only
        // once the walk has met a dead end (a walk that goes straight to B never pays for it).
        if self.stats.failures < FLOOD_AFTER_FAILURES || next.ones() < 2 {
            return true;
        }
        let free = usable & !b;
        let mut reach = next & free;
        loop {
            let more = reach | (self.spread(reach) & free);
            if more == reach {
                break;
            }
            reach = more;
        }
        // A future cell other than B has two path neighbours among the future cells and the
        // head: drop the cells that cannot (dead ends), until none is left.
        let ends = Self::bit(head) | b;
        loop {
            let viable = reach & Steps::at_least_two(self.steps.neighbour_sets(reach | ends));
            if viable == reach {
                break;
            }
            reach = viable;
        }
        if self.spread(reach | Self::bit(head)) & b == W::ZERO {
            return false;
        }
        let future = reach | b;
        // Cells every solution visits must still be ahead.
        if self.must & !self.path_bits & !future != W::ZERO {
            return false;
        }
        for k in 0..self.h + w {
            let n = self.need[k as usize];
            if n > 0 && n <= MAX_CELLS as i16 && ((future & self.line(k)).ones() as i16) < n {
                return false;
            }
        }
        if let Some(l) = exact {
            if (future.ones() as i32) < l {
                return false;
            }
            // The path's next cell has the other colour than `head`, and colours alternate.
            let head_even = Self::bit(head) & self.even != W::ZERO;
            let (same, other) = if head_even {
                (self.even, self.steps.all & !self.even)
            } else {
                (self.steps.all & !self.even, self.even)
            };
            if ((future & other).ones() as i32) < (l + 1) / 2 || ((future & same).ones() as i32) < l / 2 {
                return false;
            }
        }
        true
    }
}

/// The lines rule of [`Walk::presolve`] on `cells`, exactly `n` of which the path visits:
/// with `n` cells that must be visited the others are closed; with only `n` open they must all
/// be visited. `None` when fewer than `n` are open or more than `n` must be visited.
#[inline]
fn settle<W: BitWord>(closed: &mut W, must: &mut W, cells: W, n: i32) -> Option<()> {
    let open = cells & !*closed;
    let (o, m) = (open.ones() as i32, (cells & *must).ones() as i32);
    if o < n || m > n {
        return None;
    }
    if m == n {
        *closed |= open & !*must;
    } else if o == n {
        *must |= open;
    }
    Some(())
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::paper::PaperSearch;
    use pencilbox_core::search::Flow;

    fn paper_all(p: &PathPuzzle) -> (u64, Vec<Configuration>, u64) {
        let mut found = Vec::new();
        let r = PaperSearch::new(p).run(&Limits::all(), |s| {
            found.push(s.configuration());
            Flow::Continue
        });
        (r.solutions, found, r.stats.nodes)
    }

    #[test]
    fn the_walk_finds_the_papers_solutions_with_fewer_nodes() {
        for text in [
            "3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n",
            include_str!("../../../examples/path/example-6x6.txt"),
            include_str!("../../../examples/path/example-7x9.txt"),
            include_str!("../../../examples/path/example-8x8-partial.txt"),
        ] {
            let p = PathPuzzle::parse(text).unwrap();
            let (n, found, nodes) = paper_all(&p);
            match walk(&p, &Limits::all(), u64::MAX, usize::MAX) {
                Walked::Done { result, solutions, .. } => {
                    assert_eq!(result.solutions, n);
                    assert_eq!(solutions, found);
                    assert!(result.stats.nodes <= nodes, "{} > {nodes}", result.stats.nodes);
                    assert_eq!(result.stop, StopReason::Exhausted);
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn the_budget_and_the_callers_limits_stop_the_walk() {
        let p = PathPuzzle::parse(include_str!("../../../examples/path/example-7x9.txt")).unwrap();
        match walk(&p, &Limits::all(), 1, 2) {
            Walked::OverBudget { stats, solutions } => assert_eq!((stats.nodes, solutions.len()), (2, 0)),
            other => panic!("{other:?}"),
        }
        let limits = Limits {
            node_limit: Some(1),
            ..Limits::all()
        };
        match walk(&p, &limits, 100, 2) {
            Walked::Done { result, .. } => {
                assert_eq!(result.stop, StopReason::NodeLimit);
                assert_eq!(result.stats.nodes, 1);
            }
            other => panic!("{other:?}"),
        }
        match walk(&p, &Limits::first(), u64::MAX, 5) {
            Walked::Done { result, solutions, .. } => {
                assert_eq!(result.stop, StopReason::SolutionLimit);
                assert_eq!((result.solutions, solutions.len()), (1, 1));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn doors_that_break_definition_1_are_left_to_the_checks() {
        for text in [
            "3 3\n1 1\n1 1\n\n1 1 1\n1 1 1\n",      // one cell for both doors
            "3 3\n1 1\n3 3\n\n0 -1 -1\n-1 -1 -1\n", // door A's row has the clue 0
        ] {
            let p = PathPuzzle::parse(text).unwrap();
            assert_eq!(walk(&p, &Limits::all(), 100, 2), Walked::Skipped, "{text}");
        }
    }

    #[test]
    fn grids_over_128_cells_are_left_to_the_engine() {
        let text = format!(
            "12 11\n1 1\n12 11\n\n{}\n{}\n",
            ["-1"; 12].join(" "),
            ["-1"; 11].join(" ")
        );
        let p = PathPuzzle::parse(&text).unwrap();
        assert_eq!(walk(&p, &Limits::all(), 10, 2), Walked::Skipped);
    }
}
