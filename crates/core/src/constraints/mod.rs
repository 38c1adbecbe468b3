//! The constraint library: reusable propagators for the [`engine`](crate::engine), each a
//! named rule, for any model.
//!
//! * [`distinct`] — pairs of cells that differ (on all values or some), all-different and
//!   permutation groups, with the naked-single, hidden-single, pointing, naked- and
//!   hidden-subset rules (Suguru, Sudoku, Ripple Effect).
//! * [`sum`] — sums of Booleans: exactly, at most or at least `k` true (line clues, colour
//!   counts, stars per row), or a parity (cut crossings).
//! * [`cycle`] — one closed loop on link variables: degree, chains that close only into the
//!   whole loop, block reachability (Masyu).
//! * [`clause`] — clauses over Booleans (stars that do not touch, no 2×2 wall, pearls).
//! * [`path`] — a single simple path between two terminals on link variables: degree
//!   channelling between links and cells, chains without cycles, reachability (Path puzzles).
//!
//! A puzzle's model picks from these and adds its own propagators for what is truly its own.

pub mod clause;
pub mod cycle;
pub mod distinct;
pub mod path;
pub mod sum;
mod worklist;

pub use clause::{Clauses, Literal};
pub use cycle::{LoopRules, SingleLoop};
pub use distinct::{Distinct, DistinctGraph, DistinctRules};
pub use path::{PathRules, PathVars, SinglePath};
pub use sum::{BoolSum, SumRule};
