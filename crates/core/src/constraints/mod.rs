//! The constraint library: reusable propagators for the [`engine`](crate::engine), each a
//! named rule, for any model.
//!
//! * [`distinct`] — pairs of cells that differ (on all values or some), all-different and
//!   permutation groups, with the naked-single, hidden-single, pointing, naked- and
//!   hidden-subset rules (Suguru, Sudoku, Ripple Effect).
//! * [`sum`] — sums of Booleans: exactly `k` true (line clues, colour counts), or a parity
//!   (cut crossings).
//! * [`path`] — a single simple path between two terminals on link variables: degree
//!   channelling between links and cells, chains without cycles, reachability (Path puzzles).
//!
//! A puzzle's model picks from these and adds its own propagators for what is truly its own.

pub mod distinct;
pub mod path;
pub mod sum;
mod worklist;

pub use distinct::{Distinct, DistinctGraph, DistinctRules};
pub use path::{PathRules, PathVars, SinglePath};
pub use sum::{BoolSum, SumRule};
