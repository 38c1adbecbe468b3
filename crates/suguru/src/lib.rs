//! pencilbox-suguru: Suguru (Nanaburokku) puzzles — formats, verifier, solvers, counting,
//! generator and hints.
//!
//! The specification is Butrahandisya, Arzaki and Wulandari, *Elementary Algorithmic Methods
//! for Solving Suguru Puzzles* (the "paper"): Definition 1 (instances), Section III (the O(mn)
//! verifier), Theorem 1 (2×2 subgrids), Algorithms 1–2 and Theorem 2 (backtracking and its
//! bound), Section V (Theorem 3, Algorithms 3–5, Fig. 5, Theorem 4: the `1×n` case). The
//! *Interactive Suguru Playground 1.0* manual gives the validator's messages and the region
//! clean-up; the MIP model note gives the same constraints as the `fast` engine model.
//!
//! # Modules
//! * [`model`] — [`Suguru`], the text / JSON / answer formats, [`detect`]: a region board and
//!   its formats from [`pencilbox_core::regions`], spelled the Suguru way.
//! * [`puzzlink`] — puzz.link `suguru` URLs, read and written.
//! * [`verify()`] — Section III, every violation with its cell.
//! * [`theorems`] — Theorem 1 pre-checks, Theorem 2 and Theorem 4 bounds.
//! * [`paper`] — Algorithm 2 as published; [`fast`] — the default solver, a model on the
//!   shared engine; [`linear`] — Section V.
//! * [`solver`] — solve / count with an algorithm of the typed table [`solver::ALGORITHMS`];
//!   [`generate()`] — unique puzzles; [`hint()`] — one forced cell and the rule forcing it,
//!   from the engine's explanation log; [`setter`] — the setter's tools (`forced`,
//!   `count --suggest`, `count --redundant`) on the `fast` model.
//! * [`KIND`] — the typed [`pencilbox_core::plugin::Puzzle`] through core's `Plugin`: the
//!   [`pencilbox_core::PuzzleKind`] the CLI registers.
//!
//! # Example
//! ```
//! use pencilbox_suguru::{parse, solver, verify};
//! let p = parse("3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n").unwrap();
//! let r = solver::solve(&p, None, &Default::default()).unwrap();
//! assert!(verify(&p, r.solution.as_ref().unwrap()).is_valid());
//! ```
#![deny(missing_docs)]

pub mod explain;
pub mod fast;
pub mod generate;
pub mod hint;
pub mod kind;
pub mod large;
pub mod linear;
pub mod model;
pub mod paper;
pub mod puzzlink;
pub mod setter;
pub mod solver;
pub mod theorems;
pub mod verify;

pub use generate::{generate, Difficulty};
pub use hint::{hint, Hint};
pub use kind::KIND;
pub use model::{detect, parse, parse_answer, Solution, Suguru};
pub use solver::Algorithm;
pub use verify::verify;
