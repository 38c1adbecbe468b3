//! pencilbox-core: the engine every pencilbox puzzle family shares.
//!
//! * [`board`] — a puzzle's board as the playground draws and edits it, from the family.
//! * [`grid`] — `(row, col)` geometry, flat [`Grid`]s, orthogonal and king neighbourhoods,
//!   connected-component labelling.
//! * [`domain`] — [`Domain`], a `Copy` bitset of values `1..=64`; [`cellset`] — sets of cells.
//! * [`trail`] — the undo log with level marks.
//! * [`links`] — the links between adjacent cells, numbered; [`lines`] — the line toolkit:
//!   paths and loops on link variables, their answers, drawing, checks and words (Path,
//!   Masyu, Snake).
//! * [`search`] — the generic depth-first backtracking driver with run modes (first, count up
//!   to N, all), node limits, deadlines, cancellation and statistics.
//! * [`engine`] — the shared engine: variables, named propagators run to a fixpoint by a
//!   priority queue, one trail, probing, branching, restarts and explanations.
//! * [`constraints`] — the constraint library on the engine (distinctness, Boolean sums, a
//!   single path on links).
//! * [`counts`] — how many cells of any sets (rows, columns, regions) are shaded: exactly,
//!   at most, at least `k`, posted as one family and checked on answers.
//! * [`encode`] — any engine model as CNF (DIMACS), OPB and CPLEX LP, and `--algorithm sat`
//!   on a CDCL solver.
//! * [`puzzle`] — the plug-in trait [`PuzzleKind`] and the reports the CLI prints;
//!   [`plugin`] — the typed [`plugin::Puzzle`] trait and the adapter that makes any puzzle a
//!   `PuzzleKind`.
//! * [`genre`] — what every genre on a toolkit shares: search with the engine or SAT,
//!   explanations with entries, the setter's model, its text format's frame.
//! * [`puzzlink`] — puzz.link URLs: the frame and the shared codecs (borders, numbers,
//!   circles).
//! * [`regions`] — grids cut into regions holding `1..=size` (Suguru, Ripple Effect): the
//!   normalised partition, hints-plus-labels text / JSON / puzz.link formats, the O(mn) region
//!   verifier with a hook for a family's own rule, and the drawing with region walls.
//! * [`shading`] — the shading toolkit: one Boolean per cell, connectivity of a colour,
//!   no 2×2 blocks, islands, no touching, answers, drawing, checks (Nurikabe, Star Battle).
//! * [`setter`] — the setter's tools on any family's engine model: forced facts, a clue that
//!   separates two solutions, redundant givens.
//! * [`rng`] — a deterministic random stream for generators; [`generate`] — any family's
//!   generator with three difficulties from a random complete puzzle.
//! * [`time`] — the clock of deadlines, also in the browser build; [`memory`] — the memory
//!   budget: estimates checked before allocating, sizes, the system's limits.
//! * [`switches`] — the rule-list mini-language (`-cuts,+edges`, `reach,owed`, `none,+x`).
//! * [`scan`] — the line/column tokenizer all parsers use; [`error`] — parse errors.
//! * `testing` (feature `test-support`) — brute-force oracles, the fixpoint check and the
//!   fixture-test macro the puzzle crates' tests share.
//!
//! Dependencies flow one way: core ← puzzle crates ← cli. Nothing here is about one puzzle.
#![deny(missing_docs)]

pub mod bitword;
pub mod board;
pub mod cellset;
pub mod constraints;
pub mod counts;
pub mod domain;
pub mod encode;
pub mod engine;
pub mod error;
pub mod generate;
pub mod genre;
pub mod grid;
pub mod human;
pub mod kind;
pub mod learning;
pub mod lines;
pub mod links;
pub mod memory;
pub mod plugin;
pub mod puzzle;
pub mod puzzlink;
pub mod reach;
pub mod regions;
pub mod rng;
pub mod rules;
pub mod sat;
pub mod scan;
pub mod search;
pub mod setter;
pub mod shading;
pub mod switches;
#[cfg(any(test, feature = "test-support"))]
pub mod testing;
pub mod time;
pub mod trail;
pub mod var;

pub use cellset::CellSet;
pub use domain::Domain;
pub use error::{ParseError, Pos, PuzzleError};
pub use grid::{CellId, Grid, Neighbours, Shape};
pub use kind::PuzzleKind;
pub use num_bigint::BigUint;
pub use puzzle::{
    AlgorithmInfo, CountReport, Instance, Note, Render, Rendered, RunOptions, SolveReport, Status, VerifyReport,
    Violation,
};
pub use search::{
    count_keeping, race, run, Backtrack, Expand, Flow, Limits, Progress, RaceResult, Search, SearchResult, Stats,
    StopReason,
};
